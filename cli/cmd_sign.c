/* fastverity sign --key KEY.pem --cert CERT.pem <root_hash> <out.p7s>
 * and the signature and sidecar steps of verify and format. */
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "verity/storage/device.h"
#include "verity/sign/signature.h"
#include "cli.h"

#include <json-c/json.h>

static int write_file(const char *path, const uint8_t *buf, size_t len)
{
	struct fv_error err;

	if (verity_write_file(path, "the signature", buf, len, &err))
		return cli_error(-EIO, "%s", err.msg);
	return 0;
}

/* The first line of a passphrase file (a regular file of at most 4 KiB). */
static int read_passphrase_file(const char *path, char **out)
{
	struct fv_error err;
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
	char *pass = NULL;
	struct fv_error err;
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
	r = verity_sign(o->key, o->cert, pass, root_hex, o->embed_cert, &der,
			&len, &err);
	/* an encrypted key and no file: ask on the terminal, if there is
	 * one (never through OpenSSL's own prompt) */
	if (r == -EACCES && !pass && (pass = ask_passphrase(o->key)) != NULL)
		r = verity_sign(o->key, o->cert, pass, root_hex, o->embed_cert,
				&der, &len, &err);
	if (pass) {
		explicit_bzero(pass, strlen(pass));
		free(pass);
	}
	if (r)
		return cli_error(r, "%s", err.msg);
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

/* Checks --root-hash-signature (or the sidecar's) against root before
 * the tree is read. */
int cli_check_signature(const struct cli_opts *o, const char *sig_path,
			const uint8_t *root, size_t root_size,
			struct verity_sig_check *res)
{
	char hex[2 * HT_MAX_DIGEST_SIZE + 1];
	struct fv_error err;
	uint8_t *sig;
	size_t len;
	int r;

	/* a signed root hash is checked, or nothing is trusted: repair
	 * would otherwise write blocks on the word of replaced sidecars */
	if (!o->ntrusted)
		return cli_error(-EINVAL,
				 "%s: the root hash is signed: give the "
				 "signer's certificate with "
				 "--trusted-cert=<cert.pem> to check it; %s "
				 "trusts no root hash whose signature it has "
				 "not checked",
				 sig_path, o->action);
	r = verity_read_signature(sig_path, &sig, &len, &err);
	if (r)
		return cli_error(r, "%s", err.msg);
	verity_hex_encode(root, root_size, hex);
	r = verity_signature_check(sig, len, sig_path, o->trusted_certs,
				   o->ntrusted, hex, res, &err);
	free(sig);
	if (r)
		return cli_error(r, "%s", err.msg);
	if (res->warning[0])
		fprintf(stderr, "fastverity: %s: warning: %s\n", sig_path,
			res->warning);
	cli_debug(o, "Root hash signature by %s checks out.", res->signer);
	return 0;
}

/* systemd's sidecar names: IMAGE minus a final ".raw", plus ".verity",
 * ".roothash" and ".roothash.p7s"; fastverity adds ".fec". */
int cli_sidecar_names(const char *image, struct cli_sidecar *s)
{
	size_t n = strlen(image);
	int b;

	if (n > 4 && !strcmp(image + n - 4, ".raw"))
		n -= 4;
	b = (int)(n > INT_MAX ? INT_MAX : n);
	free(s->tree);
	free(s->roothash);
	free(s->signature);
	free(s->fec);
	if (asprintf(&s->tree, "%.*s.verity", b, image) < 0 ||
	    asprintf(&s->roothash, "%.*s.roothash", b, image) < 0 ||
	    asprintf(&s->signature, "%.*s.roothash.p7s", b, image) < 0 ||
	    asprintf(&s->fec, "%.*s.fec", b, image) < 0)
		return cli_error(-ENOMEM, "%s: out of memory", image);
	return 0;
}

void cli_sidecar_fec(struct cli_opts *o, const struct cli_sidecar *s)
{
	if (!o->fec_device && access(s->fec, F_OK) == 0)
		o->fec_device = s->fec;
}

void *cli_json_signature(const char *path, const struct verity_sig_check *s)
{
	json_object *j;

	if (!path)
		return NULL;
	j = json_object_new_object();
	json_object_object_add(j, "file", cli_json_str(path));
	json_object_object_add(j, "signer", cli_json_str(s->signer));
	json_object_object_add(j, "warning",
			       s->warning[0] ? cli_json_str(s->warning) : NULL);
	return j;
}

int cli_check_args(struct cli_opts *o, const char **data, const char **hash,
		   const char **root_arg, const char **sig_path,
		   struct cli_sidecar *side)
{
	*sig_path = o->root_hash_signature;
	*root_arg = NULL;
	if (o->nargs == 1) {
		int r = cli_sidecar_names(o->args[0], side);

		if (r)
			return r;
		*data = o->args[0];
		*hash = side->tree;
		if (!o->root_hash_file)
			o->root_hash_file = side->roothash;
		/* a signature beside the image is always checked */
		if (!*sig_path && access(side->signature, F_OK) == 0)
			*sig_path = side->signature;
		cli_sidecar_fec(o, side);
	} else if (o->nargs == 2 || o->nargs == 3 ||
		   (o->nargs > 3 && !strcmp(o->action, "verify"))) {
		*data = o->args[0];
		*hash = o->args[1];
		*root_arg = o->nargs >= 3 ? o->args[2] : NULL;
		/* veritysetup verify ignores what follows the root hash */
		for (int i = 3; i < o->nargs; i++)
			fprintf(stderr,
				"fastverity: warning: ignoring the extra "
				"argument '%s' (as veritysetup does)\n",
				o->args[i]);
	} else {
		return cli_error(-EINVAL,
				 "%s: requires <data_device> <hash_device> "
				 "[<root_hash>], or <image>, as arguments",
				 o->action);
	}
	if (o->ntrusted && !*sig_path)
		return cli_error(-EINVAL, "--trusted-cert needs a signature "
					  "(--root-hash-signature)");
	return 0;
}
