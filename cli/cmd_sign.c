/* fastverity sign --key KEY.pem --cert CERT.pem <root_hash> <out.p7s>
 * and the signature and sidecar steps of verify and format. */
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "cli/files.h"
#include "cli/errors.h"
#include "cli/json.h"
#include "cli/params.h"
#include "cli/root.h"
#include "cli/cli.h"

#include "cli/jsonc.h"

/* The first line of a passphrase file (a regular file of at most 4 KiB). */
static int read_passphrase_file(const char *path, char **out)
{
	uint8_t *text;
	size_t len;
	int r = cli_input_read(path, "passphrase file", 4096, &text, &len);

	*out = NULL;
	if (r)
		return cli_lib_error(r);
	text[strcspn((char *)text, "\n")] = '\0';
	*out = (char *)text;
	return 0;
}

/* Asks on the terminal with echo off; NULL without a terminal. */
static char *ask_passphrase(const char *key)
{
	struct termios old, quiet;
	char buf[1024];
	FILE *tty = fopen("/dev/tty", "r+e");
	char *p = NULL;

	if (!tty)
		return NULL;
	if (tcgetattr(fileno(tty), &old) == 0) {
		quiet = old;
		quiet.c_lflag &= ~(tcflag_t)ECHO;
		fprintf(tty, "Passphrase for %s: ", key);
		fflush(tty);
		tcsetattr(fileno(tty), TCSAFLUSH, &quiet);
		if (fgets(buf, sizeof(buf), tty)) {
			buf[strcspn(buf, "\n")] = '\0';
			p = strdup(buf);
		}
		tcsetattr(fileno(tty), TCSAFLUSH, &old);
		fputc('\n', tty);
		explicit_bzero(buf, sizeof(buf));
	}
	fclose(tty);
	return p;
}

int cli_sign_with(const struct cli_opts *o, cli_sign_fn fn, const void *ctx,
		  uint8_t **der, size_t *len)
{
	/* the environment is the command's to read, not the library's;
	 * systemd's signature partition holds the certificate */
	struct fv_sign_request req = {
		.size = sizeof(req),
		.key = o->key,
		.cert = o->cert,
		.pkcs11_module = o->pkcs11_module
					 ? o->pkcs11_module
					 : getenv("FASTVERITY_PKCS11_MODULE"),
		.flags = (o->embed_cert ? FV_SIGN_EMBED_CERT : 0) |
			 (o->ddi_json ? FV_SIGN_DDI_JSON : 0)};
	char *pass = NULL;
	int r;

	if (o->key_passphrase_file &&
	    (r = read_passphrase_file(o->key_passphrase_file, &pass)))
		return r;
	req.passphrase = pass;
	r = fn(&req, ctx, der, len);
	/* an encrypted key and no file: ask on the terminal, if there is
	 * one (never through OpenSSL's own prompt) */
	if (r == -EACCES && !pass && (pass = ask_passphrase(o->key)) != NULL) {
		req.passphrase = pass;
		r = fn(&req, ctx, der, len);
	}
	if (pass) {
		explicit_bzero(pass, strlen(pass));
		fv_free(pass);
	}
	return r ? cli_lib_error(r) : 0;
}

/* A json-c string of the base64 (RFC 4648, padded) of n bytes; NULL
 * when out of memory. */
static json_object *base64(const uint8_t *p, size_t n)
{
	static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmn"
				  "opqrstuvwxyz0123456789+/";
	char *t = malloc(n / 3 * 4 + 5), *w = t;
	json_object *j;

	if (!t)
		return NULL;
	for (size_t i = 0; i < n; i += 3) {
		uint32_t v = (uint32_t)p[i] << 16;

		if (i + 1 < n)
			v |= (uint32_t)p[i + 1] << 8;
		if (i + 2 < n)
			v |= p[i + 2];
		*w++ = abc[v >> 18 & 63];
		*w++ = abc[v >> 12 & 63];
		*w++ = i + 1 < n ? abc[v >> 6 & 63] : '=';
		*w++ = i + 2 < n ? abc[v & 63] : '=';
	}
	*w = '\0';
	j = json_object_new_string(t);
	free(t);
	return j;
}

/* sign --json: the sign document (docs/fastverity.schema.json). */
static void sign_json(const struct cli_opts *o, const char *root_hex,
		      const char *out_path, const uint8_t *bytes, size_t len)
{
	json_object *j = json_object_new_object();
	int to_stdout = !strcmp(out_path, "-");

	json_object_object_add(j, "result", cli_json_str("ok"));
	json_object_object_add(j, "root_hash", cli_json_str(root_hex));
	json_object_object_add(
		j, "format", cli_json_str(o->ddi_json ? "ddi-json" : "pkcs7"));
	json_object_object_add(j, "file",
			       to_stdout ? NULL : cli_json_str(out_path));
	json_object_object_add(j, "bytes", json_object_new_uint64(len));
	json_object_object_add(j, "base64",
			       to_stdout ? base64(bytes, len) : NULL);
	json_object_object_add(j, "exit_code", json_object_new_int(0));
	cli_json_print(j);
}

static int sign_root(const struct fv_sign_request *req, const void *root_hex,
		     uint8_t **der, size_t *len)
{
	return fv_sign(req, root_hex, der, len);
}

int cli_sign_root(const struct cli_opts *o, const char *root_hex,
		  const char *out_path)
{
	uint8_t *der;
	size_t len;
	int r;

	if (!o->key || !o->cert)
		return cli_error(-EINVAL, "signing needs --key and --cert");
	{
		const char *in[] = {o->key, o->cert, o->root_hash_file,
				    o->key_passphrase_file};

		if (strcmp(out_path, "-") &&
		    (r = cli_check_output(out_path, "signature", in, 4)))
			return r;
	}
	if ((r = cli_sign_with(o, sign_root, root_hex, &der, &len)))
		return r;
	if (!strcmp(out_path, "-") && !o->json) {
		/* the DER on standard output (checked at exit) */
		r = fwrite(der, 1, len, stdout) == len
			    ? 0
			    : cli_error(-EIO, "cannot write the signature to "
					      "standard output");
	} else if (strcmp(out_path, "-")) {
		r = cli_output_write(out_path, "the signature", der, len)
			    ? cli_lib_error(-EIO)
			    : 0;
	} else {
		r = 0;
	}
	/* --json (sign; format's document is its own): stdout holds the
	 * one document, which carries the bytes written to '-' */
	if (!r && o->json && !strcmp(o->action, "sign"))
		sign_json(o, root_hex, out_path, der, len);
	fv_free(der);
	return r;
}

int cmd_sign(struct cli_opts *o)
{
	char hex[2 * FV_MAX_DIGEST_SIZE + 1];

	if (o->nargs != (o->root_hash_file ? 1 : 2))
		return cli_error(
			-EINVAL,
			"sign: requires <root_hash> <out.p7s> (or "
			"--root-hash-file and <out.p7s>) as arguments");
	/* any digest from sha1 (20 bytes) to sha512 (64) */
	if (cli_root_hex(o, o->root_hash_file ? NULL : o->args[0], hex))
		return EXIT_PARAMS;
	return cli_sign_root(o, hex, o->args[o->nargs - 1]);
}
