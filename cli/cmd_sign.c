/* fastverity sign --key KEY.pem --cert CERT.pem <root_hash> <out.p7s>
 * and the signature and sidecar steps of verify and format. */
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "verity/storage/file.h"
#include "verity/storage/output.h"
#include "verity/sign/signature.h"
#include "cli/errors.h"
#include "cli/inside.h"
#include "verity/container/ddi/ddi.h"
#include "cli/params.h"
#include "cli/root.h"
#include "cli/cli.h"

#include <json-c/json.h>

static int write_file(const char *path, const uint8_t *buf, size_t len)
{
	struct ht_error err;

	if (verity_write_file(path, "the signature", buf, len, &err))
		return cli_inside_error(-EIO, &err);
	return 0;
}

/* The first line of a passphrase file (a regular file of at most 4 KiB). */
static int read_passphrase_file(const char *path, char **out)
{
	struct ht_error err;
	uint8_t *text;
	size_t len;
	int r = verity_read_file(path, "passphrase file", 4096, &text, &len,
				 &err);

	*out = NULL;
	if (r)
		return cli_error(r == -ENOENT ? -EINVAL : r, "%s", err.msg);
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

int cli_sign_root(const struct cli_opts *o, const char *root_hex,
		  const char *out_path)
{
	struct verity_signer signer;
	char *pass = NULL;
	struct ht_error err;
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
	if (o->key_passphrase_file &&
	    (r = read_passphrase_file(o->key_passphrase_file, &pass)))
		return r;
	signer.key = o->key;
	signer.cert = o->cert;
	signer.passphrase = pass;
	/* the environment is the command's to read, not the library's */
	signer.pkcs11_module = getenv("FASTVERITY_PKCS11_MODULE");
	/* systemd's signature partition holds the certificate */
	signer.embed_cert = o->embed_cert || o->ddi_json;
	r = verity_sign(&signer, root_hex, &der, &len, &err);
	/* an encrypted key and no file: ask on the terminal, if there is
	 * one (never through OpenSSL's own prompt) */
	if (r == -EACCES && !pass && (pass = ask_passphrase(o->key)) != NULL) {
		signer.passphrase = pass;
		r = verity_sign(&signer, root_hex, &der, &len, &err);
	}
	if (pass) {
		explicit_bzero(pass, strlen(pass));
		free(pass);
	}
	if (r)
		return cli_inside_error(r, &err);
	if (o->ddi_json) {
		char fp[65], *json;

		r = verity_cert_fingerprint(o->cert, fp, &err);
		if (!r)
			r = ddi_sig_json_make(root_hex, fp, der, len, &json,
					      &err);
		free(der);
		if (r)
			return cli_inside_error(r, &err);
		der = (uint8_t *)json;
		len = strlen(json);
	}
	if (!strcmp(out_path, "-")) {
		/* the DER on standard output (checked at exit) */
		r = fwrite(der, 1, len, stdout) == len
			    ? 0
			    : cli_error(-EIO, "cannot write the signature to "
					      "standard output");
	} else {
		r = write_file(out_path, der, len);
	}
	free(der);
	return r;
}

int cmd_sign(struct cli_opts *o)
{
	char hex[2 * HT_MAX_DIGEST_SIZE + 1];
	uint8_t root[HT_MAX_DIGEST_SIZE];
	const char *arg = NULL, *out;
	size_t len;

	if (o->nargs != (o->root_hash_file ? 1 : 2))
		return cli_error(
			-EINVAL,
			"sign: requires <root_hash> <out.p7s> (or "
			"--root-hash-file and <out.p7s>) as arguments");
	if (!o->root_hash_file)
		arg = o->args[0];
	out = o->args[o->nargs - 1];
	/* any digest from sha1 (20 bytes) to sha512 (64) */
	if (cli_root_hash_any(o, arg, root, &len))
		return EXIT_PARAMS;
	verity_hex_encode(root, len, hex);
	return cli_sign_root(o, hex, out);
}
