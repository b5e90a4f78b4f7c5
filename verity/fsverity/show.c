/* fsverity-utils' commands: the parameters from its options' values
 * (each judged as it is given, in its words), digest's lines (HASH:HEX
 * FILE, the hex alone with --compact, what a built-in signature signs
 * with --for-builtin-sig), the descriptor and signature files, sign's
 * line, enable, measure's lines. */
#include "verity/fsverity/show.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verity/fsverity/kernel.h"
#include "verity/fsverity/request.h"
#include "verity/show/show.h"
#include "verity/ops/parse.h"
#include "verity/sign/signature.h"
#include "verity/storage/backing.h"
#include "verity/storage/output.h"
#include "verity/tree/params.h"

#define USAGE  2 /* fsverity-utils' exit code of a usage error */
#define FAILED 1 /* of any other */

/* A tree's parameters, the salt's bytes with them. */
struct tree {
	struct fv_fsverity_params p;
	uint8_t salt[32];
};

/* An even number of hex digits (none is a salt of 0 bytes). */
static int hex_string(const char *s)
{
	size_t n = strlen(s);

	for (size_t i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return 0;
	return n % 2 == 0;
}

/* p as the requests judge it. */
static int params_ok(const struct fv_fsverity_params *p, struct ht_error *err)
{
	struct fsv_params fp;

	return !verity_fsv_params_of(p, &fp, err);
}

/* A message said as the command says one ("fastverity: ...\n"): rc. */
__attribute__((format(printf, 3, 4))) static int say(struct show *sh, int rc,
						     const char *fmt, ...)
{
	char line[3 * 4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	verity_show_errorf(sh, "fastverity: %s\n", line);
	return rc;
}

/* err's message said: FAILED. */
static int failed(struct show *sh, const struct ht_error *err)
{
	return say(sh, FAILED, "%s", ht_msg(err));
}

/* The tree's parameters from q's values, each judged as it is given: 0,
 * or the exit code (said). */
static int tree_of(const struct fv_show_request *q, const char *sub,
		   struct show *sh, struct tree *t, struct ht_error *err)
{
	size_t len = 0;
	unsigned long v = 0;
	char *end;
	int bad_bs = 0;

	memset(t, 0, sizeof(*t));
	t->p.size = sizeof(t->p);
	if (q->block_size) {
		errno = 0;
		v = strtoul(q->block_size, &end, 10);
		/* (0 is no size: the library's default) */
		bad_bs = errno || end == q->block_size || *end ||
			 q->block_size[0] == '-' || v > UINT32_MAX || !v;
	}
	t->p.hash = q->hash;
	if (q->hash && !params_ok(&t->p, err))
		return say(sh, USAGE,
			   "fsverity %s: --hash-alg=%s: unknown hash algorithm "
			   "(available: sha256 sha512)",
			   sub, q->hash);
	if (q->block_size &&
	    (bad_bs || (t->p.block_size = (uint32_t)v, !params_ok(&t->p, err))))
		return say(sh, USAGE,
			   "fsverity %s: --block-size=%s: a power of two from "
			   "1024 to 65536",
			   sub, q->block_size);
	if (q->salt && !hex_string(q->salt))
		return say(sh, USAGE,
			   "fsverity %s: --salt=%s: not a valid hex string",
			   sub, q->salt);
	if (q->salt && strlen(q->salt) / 2 > 32)
		/* a hex string, too long: fsverity-utils refuses it when it
		 * computes the digest, in its words, and exits 1 */
		return say(
			sh, FAILED,
			"fsverity %s: unsupported salt size (%zu): fs-verity "
			"takes at most 32 bytes",
			sub, strlen(q->salt) / 2);
	if (q->salt &&
	    (verity_hex_decode(q->salt, t->salt, sizeof(t->salt), &len) ||
	     (t->p.salt = t->salt, t->p.salt_len = len,
	      !params_ok(&t->p, err))))
		return failed(sh, err);
	return 0;
}

/* d's descriptor to path (NULL: none asked). */
static int write_descriptor(const char *path, const fv_fsverity_digest *d,
			    struct ht_error *err)
{
	return path ? verity_write_file(path, "the descriptor file",
					d->d.descriptor, 256, err)
		    : 0;
}

/* One file's digest, its tree to tree (NULL: none) as it is made. */
static int one(const struct tree *t, const char *path, const char *tree,
	       const struct ht_options *ho, fv_fsverity_digest **d,
	       struct ht_error *err)
{
	struct fv_fsverity_request q = {.size = sizeof(q),
					.params = &t->p,
					.path = path,
					.tree_path = tree};

	return verity_fsv_request(&q, ho, d, err);
}

static int digest(const struct fv_show_request *q, const struct tree *t,
		  const struct ht_options *ho, struct show *sh,
		  struct ht_error *err)
{
	fv_fsverity_digest **d = calloc(q->n ? q->n : 1, sizeof(*d));
	size_t n = q->n, bad = n, last;
	int r;

	if (!d)
		return ht_fail(err, ENOMEM, "out of memory");
	/* no tree kept: the tree is the last file's (as fsverity-utils
	 * leaves it), written as it is made */
	last = q->tree ? n - 1 : n;
	r = verity_fsv_request_files(&t->p, q->names, last, ho, 0, d, &bad,
				     err);
	if (!r && last < n) {
		r = one(t, q->names[last], q->tree, ho, &d[last], err);
		bad = r ? last : n;
	}
	/* each file's line, in the order given, up to the first that
	 * failed */
	for (size_t i = 0; i < bad; i++) {
		char hex[2 * sizeof(d[i]->sig) + 1];

		if (q->flags & 2)
			verity_hex_encode(d[i]->sig, d[i]->sig_len, hex);
		else
			snprintf(hex, sizeof(hex), "%s", d[i]->hex);
		if (q->flags & 1)
			verity_show_textf(sh, "%s\n", hex);
		else if (q->flags & 2)
			verity_show_textf(sh, "%s %s\n", hex, q->names[i]);
		else
			verity_show_textf(sh, "%s:%s %s\n",
					  verity_fsv_alg_name(d[i]->d.alg), hex,
					  q->names[i]);
	}
	/* as fsverity-utils leaves it: the last file's */
	if (!r)
		r = write_descriptor(q->descriptor, d[n - 1], err);
	for (size_t i = 0; i < n; i++)
		verity_fsv_shown_free(d[i]);
	free(d);
	return r;
}

static int sign(const struct fv_show_request *q, const struct tree *t,
		const struct ht_options *ho, const struct verity_signer *vs,
		struct show *sh, struct ht_error *err)
{
	fv_fsverity_digest *d = NULL, *again = NULL;
	uint8_t *der = NULL;
	size_t len = 0;
	int r;

	if ((r = one(t, q->image, NULL, ho, &d, err)))
		return failed(sh, err);
	if ((r = verity_sign_bytes(vs, d->sig, d->sig_len,
				   d->d.alg == FSV_SHA512 ? "SHA512" : "SHA256",
				   &der, &len, err)))
		goto out;
	/* the tree once the signature is made (a sign that fails writes
	 * nothing): the file read again, its tree written as it is made,
	 * never held in memory */
	if (q->tree && one(t, q->image, q->tree, ho, &again, err))
		r = failed(sh, err);
	else if (q->tree && strcmp(again->hex, d->hex))
		r = say(sh, FAILED,
			"fsverity sign: %s: changed while it was read: the "
			"Merkle tree file is not the signed file's",
			q->image);
	else if (verity_write_file(q->signature, "the signature file", der, len,
				   err) ||
		 write_descriptor(q->descriptor, d, err))
		r = failed(sh, err);
	else
		verity_show_textf(sh, "Signed file '%s' (%s:%s)\n", q->image,
				  verity_fsv_alg_name(d->d.alg), d->hex);
out:
	free(der);
	verity_fsv_shown_free(again);
	verity_fsv_shown_free(d);
	return r;
}

static int enable(const struct fv_show_request *q, const struct tree *t,
		  struct ht_error *err)
{
	struct fsv_params fp;
	uint8_t *sig = NULL;
	size_t len = 0;
	int r;

	if (!(r = q->signature
			  ? verity_read_signature(q->signature, &sig, &len, err)
			  : 0) &&
	    !(r = verity_fsv_params_of(&t->p, &fp, err)))
		r = verity_fsv_enable(q->image, &fp, sig, len, err);
	free(sig);
	return r;
}

static int measure(const struct fv_show_request *q, struct show *sh,
		   struct ht_error *err)
{
	for (size_t i = 0; i < q->n; i++) {
		uint8_t digest[HT_MAX_DIGEST_SIZE];
		char hex[2 * sizeof(digest) + 1], alg[32];
		const char *name;
		unsigned a;
		size_t len;
		int r = verity_fsv_measure(q->names[i], &a, digest, &len, err);

		if (r)
			return r;
		verity_hex_encode(digest, len, hex);
		if (!(name = verity_fsv_alg_name((enum fsv_alg)a))) {
			snprintf(alg, sizeof(alg), "ALG_%u", a);
			name = alg;
		}
		verity_show_textf(sh, "%s:%s %s\n", name, hex, q->names[i]);
	}
	return 0;
}

/* What q names is there: 0, 1 when it names no file (the parameters
 * judged alone), or -EINVAL. */
static int given(const struct fv_show_request *q,
		 const struct verity_signer *vs, struct ht_error *err)
{
	int files = q->what == FV_SHOW_FSVERITY_DIGEST ||
		    q->what == FV_SHOW_FSVERITY_MEASURE;

	if (files ? !q->n : !q->image)
		return 1;
	for (size_t i = 0; files && i < q->n; i++)
		if (!q->names || !q->names[i])
			return ht_fail(err, EINVAL,
				       "fv_show: names[%zu] is NULL", i);
	for (size_t i = 0; q->options && i < q->noptions; i++)
		if (!q->options[2 * i])
			return ht_fail(err, EINVAL,
				       "fv_show: options[%zu] is NULL", 2 * i);
	if (q->what == FV_SHOW_FSVERITY_SIGN &&
	    (!(vs || q->flags & 4) || !q->signature))
		return ht_fail(err, EINVAL, "fv_show: %s is NULL",
			       vs || q->flags & 4 ? "signature" : "sign");
	return 0;
}

/* The value of the command's option name (the last one given), or
 * NULL. */
static const char *option(const struct fv_show_request *q, const char *name)
{
	const char *v = NULL;

	for (size_t i = 0; q->options && i < q->noptions; i++)
		if (!strcmp(q->options[2 * i], name) && q->options[2 * i + 1])
			v = q->options[2 * i + 1];
	return v;
}

/* out, what it is, refused when it is one of the n inputs: 0 or FAILED
 * (said). */
static int apart(const char *out, const char *what, const char *const *in,
		 size_t n, struct show *sh)
{
	for (size_t i = 0; out && i < n; i++) {
		const char *via =
			in[i] ? verity_path_same_storage(out, in[i]) : NULL;

		if (via)
			return say(sh, FAILED,
				   "%s: refusing to write the %s there: it is "
				   "%s, an input of this command%s",
				   out, what, in[i], via);
	}
	return 0;
}

/* Two outputs, a and b (what each is), not one file, whether it is there
 * yet or not: 0 or FAILED (said). */
static int two(const char *a, const char *what_a, const char *b,
	       const char *what_b, struct show *sh)
{
	if (!a || !b || (strcmp(a, b) && !verity_path_same_storage(a, b)))
		return 0;
	return say(sh, FAILED,
		   "%s: refusing to write the %s there: the %s is written "
		   "there too",
		   b, what_b, what_a);
}

/* The command's run: --threads into ho, then no output over an input
 * (sign's: the signature, then the tree and descriptor, then the
 * signature over them): 0, or the exit code (said). */
static int command(const struct fv_show_request *q, struct ht_options *ho,
		   struct show *sh, struct ht_error *err)
{
	const char *threads = option(q, "threads");
	const char *in[] = {q->image, option(q, "key"), option(q, "cert"),
			    option(q, "key-passphrase-file")};
	const char *const *inputs = in;
	size_t n = 4;
	uint64_t v;
	int r;

	if (threads) {
		if (verity_ops_number("threads", threads, &v, err))
			return say(sh, USAGE, "%s", ht_msg(err));
		ho->threads = (unsigned)v;
	}
	if (q->what == FV_SHOW_FSVERITY_DIGEST) {
		inputs = q->names;
		n = q->n;
	}
	if (q->what == FV_SHOW_FSVERITY_SIGN &&
	    (r = apart(q->signature, "signature", in, 4, sh)))
		return r;
	if ((r = apart(q->tree, "Merkle tree", inputs, n, sh)) ||
	    (r = apart(q->descriptor, "descriptor", inputs, n, sh)) ||
	    (r = two(q->tree, "Merkle tree", q->descriptor, "descriptor", sh)))
		return r;
	if (q->what == FV_SHOW_FSVERITY_SIGN &&
	    ((r = two(q->tree, "Merkle tree", q->signature, "signature", sh)) ||
	     (r = two(q->descriptor, "descriptor", q->signature, "signature",
		      sh))))
		return r;
	return 0;
}

static int write_bytes(void *ctx, const void *buf, size_t n)
{
	verity_show_bytes(ctx, buf, n);
	return ((struct show *)ctx)->r;
}

/* dump_metadata TYPE FILE (args, image) [--offset] [--length] (options,
 * decimal bytes): the metadata's bytes as text; 0, or the exit code
 * (said). */
static int dump_metadata(const struct fv_show_request *q, struct show *sh,
			 struct ht_error *err)
{
	static const char *const types[] = {"merkle_tree", "descriptor",
					    "signature"};
	static const char *const names[] = {"offset", "length"};
	uint64_t v[2] = {0, 0};
	unsigned type = 0;

	if (!q->args || !q->image)
		return ht_fail(err, EINVAL, "fv_show: %s is NULL",
			       q->args ? "image" : "args");
	for (unsigned i = 0; i < 3; i++)
		if (!strcmp(q->args, types[i]))
			type = i + 1;
	if (!type)
		return say(sh, USAGE,
			   "fsverity dump_metadata: unknown metadata type '%s' "
			   "(merkle_tree, descriptor or signature)",
			   q->args);
	for (int i = 0; i < 2; i++) {
		const char *n = option(q, names[i]);
		char *end;

		errno = 0;
		if (n && ((v[i] = strtoull(n, &end, 10)),
			  errno || end == n || *end || *n == '-'))
			return say(sh, USAGE,
				   "fsverity dump_metadata: --%s=%s: not a "
				   "number of bytes",
				   names[i], n);
	}
	if (option(q, "length") && !v[1])
		return 0; /* nothing asked for */
	return verity_fsv_read_metadata(q->image, type, v[0], v[1], write_bytes,
					sh, err)
		       ? failed(sh, err)
		       : 0;
}

int verity_fsv_show(const struct fv_show_request *q,
		    const struct ht_options *ho, const struct verity_signer *vs,
		    struct show *sh, struct ht_error *err)
{
	static const char *const subs[] = {"digest", "sign", "enable"};
	struct ht_options run = *ho;
	struct tree t;
	int alone, r;

	if (q->what == FV_SHOW_FSVERITY_DUMP)
		return dump_metadata(q, sh, err);
	if ((alone = given(q, vs, err)) < 0)
		return alone;
	if (q->what == FV_SHOW_FSVERITY_MEASURE)
		return alone ? 0 : measure(q, sh, err);
	if ((r = tree_of(q, subs[q->what - FV_SHOW_FSVERITY_DIGEST], sh, &t,
			 err)) ||
	    alone)
		return r;
	/* the command's options: its checks before anything is done */
	if (q->noptions && q->what != FV_SHOW_FSVERITY_ENABLE &&
	    (r = command(q, &run, sh, err)))
		return r;
	if (q->flags & 4)
		return 0;
	if (q->what == FV_SHOW_FSVERITY_DIGEST)
		return digest(q, &t, &run, sh, err);
	if (q->what == FV_SHOW_FSVERITY_SIGN)
		return sign(q, &t, &run, vs, sh, err);
	return enable(q, &t, err);
}
