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

/* What sign's signing hands on: the root, the output, whether sign
 * --json's document is wanted (format's JSON is its own). */
struct signing {
	const char *root_hex, *out;
	int json;
};

/* The signature made and handed on as sign does: written to the
 * output, or its DER on standard output ("-", checked at exit), then
 * --json's document (carrying the bytes written to "-"). */
static int sign_root(const struct fv_sign_request *req, const void *ctx,
		     uint8_t **der, size_t *len)
{
	const struct signing *g = ctx;

	*der = NULL;
	*len = 0;
	return cli_show(&(struct fv_show_request){
		.size = sizeof(struct fv_show_request),
		.what = FV_SHOW_SIGN,
		.image = g->out,
		.args = g->root_hex,
		.json = g->json,
		.sign = req});
}

int cli_sign_root(const struct cli_opts *o, const char *root_hex,
		  const char *out_path)
{
	struct signing g = {root_hex, out_path,
			    o->json && !strcmp(o->action, "sign")};
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
	r = cli_sign_with(o, sign_root, &g, &der, &len);
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
