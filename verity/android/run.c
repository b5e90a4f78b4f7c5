/* avbtool's subcommands that write, run whole for `fastverity avb`:
 * the footers, make_vbmeta_image, the editors of an image in place, the
 * key files, and version (verity/android/run.h). */
#include "verity/android/run.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verity/android/request.h"
#include "verity/android/table.h"
#include "verity/android/write.h"
#include "verity/ops/options.h"
#include "verity/ops/parse.h"
#include "verity/storage/backing.h"
#include "verity/storage/output.h"

/* The value of option name (the last given), or NULL. */
static const char *opt(const struct fv_show_request *q, const char *name)
{
	const char *v = NULL;

	for (size_t i = 0; i < q->noptions; i++)
		if (!strcmp(q->options[2 * i], name))
			v = q->options[2 * i + 1];
	return v;
}

/* A failure after the options were read: never a usage error. */
static int done(int r)
{
	return r == -EDOM ? -EINVAL : r;
}

/* s printed (fn's return; a refusal of fn's said in err). */
static int text(fv_item_fn fn, void *ctx, const char *s, struct ht_error *err)
{
	int r = fn(ctx, &(struct fv_item){.kind = FV_ITEM_TEXT,
					  .text = s,
					  .u = strlen(s)});

	if (r)
		ht_fail(err, EIO, "fv_show: the visitor refused a line");
	return r;
}

/* The key's blob or digest to --output, never over the key. */
static int key_file(const struct fv_show_request *q, enum fv_avb_key_op op,
		    struct ht_error *err)
{
	struct fv_avb_key_request k = {
		.size = sizeof(k), .op = op, .key = opt(q, "key")};
	const char *out = opt(q, "output");
	uint8_t *buf;
	size_t len;
	int r;

	if ((r = verity_android_key(&k, &buf, &len, err)))
		return done(r);
	if (k.key && verity_path_same_storage(out, k.key))
		r = ht_fail(err, EINVAL,
			    "--output %s: is the input %s: an output is never "
			    "written over what is read",
			    out, k.key);
	else
		r = verity_write_file(out,
				      op == FV_AVB_KEY_BLOB
					      ? "public key file"
					      : "public key digest file",
				      buf, len, err);
	free(buf);
	return done(r);
}

/* make_vbmeta_image on the options of v. */
static int make(const struct fv_show_request *q, struct fv_vbmeta_request *v,
		fv_item_fn fn, void *ctx, struct ht_error *err)
{
	const char *out = opt(q, "output");
	unsigned minor;
	uint64_t max;
	char line[32];
	int r;

	/* the options read first (padding_size last), as avbtool's parser */
	if ((r = verity_android_needs(v, NULL, NULL, NULL, err)))
		return r;
	/* --print_required_libavb_version: the includes' needs count */
	if (opt(q, "print_required_libavb_version")) {
		if ((r = verity_android_needs(v, NULL, &minor, &max, err)))
			return done(r);
		snprintf(line, sizeof(line), "1.%u\n", minor);
		return text(fn, ctx, line, err);
	}
	if (!out)
		return ht_fail(err, EINVAL, "No output file given");
	return done(verity_android_make_vbmeta(out, v, 0, err));
}

/* A line to stderr, after what stdout holds. */
static int warn(fv_item_fn fn, void *ctx, const char *s, struct ht_error *err)
{
	int r = fn(ctx, &(struct fv_item){.kind = FV_ITEM_ERROR, .text = s});

	if (r)
		ht_fail(err, EIO, "fv_show: the visitor refused a line");
	return r;
}

/* add_hashtree_footer, add_hash_footer on f (its vbmeta's options,
 * fastverity's --changed left out: changed, its value); the run's
 * options q->o, its threads --threads; *ranges, the changed ranges f
 * was given, the caller's to free. */
static int footer_run(const struct fv_show_request *q,
		      struct fv_footer_request *f, const char *changed,
		      uint64_t **ranges, fv_item_fn fn, void *ctx,
		      struct ht_error *err)
{
	const char *version = opt(q, "print_required_libavb_version");
	const char *image = opt(q, "image"), *threads = opt(q, "threads");
	enum fv_footer_kind kind = f->kind;
	struct verity_run run;
	fv_options o;
	uint64_t max, n;
	unsigned minor;
	char line[32];
	int r;

	/* the options read first, as avbtool's parser reads them, then
	 * fastverity's --changed: its @FILE read here, once, the requests
	 * below given its ranges */
	if ((r = verity_android_needs(NULL, f, NULL, NULL, err)) ||
	    (changed &&
	     (r = verity_ops_ranges(changed, ranges, &f->nchanged, err))))
		return r;
	if (changed) {
		f->changed = *ranges;
		f->flags |= FV_FOOTER_CHANGED_GIVEN;
	}
	if (version || opt(q, "calc_max_image_size")) {
		if (!version && kind == FV_FOOTER_HASH &&
		    opt(q, "dynamic_partition_size"))
			return ht_fail(err, EINVAL,
				       "--calc_max_image_size not supported "
				       "with --dynamic_partition_size");
		if ((r = verity_android_needs(NULL, f, &minor, &max, err)))
			return done(r);
		if (version)
			snprintf(line, sizeof(line), "1.%u\n", minor);
		else
			snprintf(line, sizeof(line), "%" PRIu64 "\n", max);
		return text(fn, ctx, line, err);
	}
	if (!image)
		return ht_fail(err, EINVAL, "avb %s: --image is required",
			       q->args);
	if (opt(q, "generate_fec") &&
	    (r = warn(fn, ctx,
		      "The --generate_fec option is deprecated since FEC is "
		      "now generated by default. Use the option "
		      "--do_not_generate_fec to not generate FEC.\n",
		      err)))
		return r;
	if ((r = verity_ops_options_in("fv_avb_add_footer", q->o, &o, err)) ||
	    (threads && (r = verity_ops_number("threads", threads, &n, err))))
		return done(r);
	if (threads)
		o.threads = (unsigned)n;
	verity_ops_run_of(&o, &run);
	if ((r = verity_android_add_footer(image, f, &run, err)))
		return done(r);
	/* avbtool's default for a hash tree, said once it is made (a
	 * refusal stays one line) */
	if (kind == FV_FOOTER_HASHTREE && !opt(q, "hash_algorithm"))
		return warn(fn, ctx,
			    "Defaulting to sha1: no --hash_algorithm was given "
			    "(Android's trees use sha256)\n",
			    err);
	return 0;
}

/* A footer: v's options read with fastverity's --changed (the last
 * given) taken out of them, its @FILE then read once (footer_run). */
static int footer(const struct fv_show_request *q, enum fv_footer_kind kind,
		  const struct fv_vbmeta_request *v, fv_item_fn fn, void *ctx,
		  struct ht_error *err)
{
	struct fv_vbmeta_request vq = *v;
	struct fv_footer_request f = {
		.size = sizeof(f), .kind = kind, .vbmeta = &vq};
	const char **rest = calloc(2 * v->noptions + 1, sizeof(*rest));
	const char *changed = NULL;
	uint64_t *ranges = NULL;
	int r;

	if (!rest)
		return ht_fail(err, ENOMEM, "out of memory");
	vq.options = rest;
	vq.noptions = 0;
	for (size_t i = 0; i < v->noptions; i++)
		/* (a NULL left for the options' reading to refuse) */
		if (!v->options[2 * i] || !v->options[2 * i + 1] ||
		    strcmp(v->options[2 * i], "changed")) {
			rest[2 * vq.noptions] = v->options[2 * i];
			rest[2 * vq.noptions++ + 1] = v->options[2 * i + 1];
		} else {
			changed = v->options[2 * i + 1];
		}
	r = footer_run(q, &f, changed, &ranges, fn, ctx, err);
	free(ranges);
	free(rest);
	return r;
}

int verity_android_run(const struct fv_show_request *q, fv_item_fn fn,
		       void *ctx, struct ht_error *err)
{
	static const char *const edits[] = {
		[FV_AVB_EDIT_ERASE_FOOTER] = "erase_footer",
		[FV_AVB_EDIT_APPEND_VBMETA_IMAGE] = "append_vbmeta_image",
		[FV_AVB_EDIT_RESIZE_IMAGE] = "resize_image",
		[FV_AVB_EDIT_ZERO_HASHTREE] = "zero_hashtree",
	};
	const char *sub = q->args, **req;
	struct fv_vbmeta_request v = {.size = sizeof(v), .temp_dir = q->dir};
	size_t n = 0, op;
	int r;

	if (!sub)
		return ht_fail(err, EINVAL, "fv_show: args is NULL");
	if (q->noptions && !q->options)
		return ht_fail(err, EINVAL, "fv_show: options is NULL");
	/* the options a request reads, the command's own left out */
	if (!(req = calloc(2 * q->noptions + 1, sizeof(*req))))
		return ht_fail(err, ENOMEM, "out of memory");
	for (size_t i = 0; i < q->noptions; i++)
		if (!verity_android_command_option(q->options[2 * i])) {
			req[2 * n] = q->options[2 * i];
			req[2 * n++ + 1] = q->options[2 * i + 1];
		}
	v.options = req;
	v.noptions = n;
	for (op = 1; op < sizeof(edits) / sizeof(*edits); op++)
		if (!strcmp(edits[op], sub))
			break;
	if (op < sizeof(edits) / sizeof(*edits))
		r = verity_android_edit(
			&(struct fv_avb_edit_request){
				.size = sizeof(struct fv_avb_edit_request),
				.op = (enum fv_avb_edit_op)op,
				.image = opt(q, "image"),
				.flags = opt(q, "keep_hashtree")
						 ? FV_ERASE_KEEP_HASHTREE
						 : 0,
				.vbmeta_image = opt(q, "vbmeta_image"),
				.options = req,
				.noptions = n},
			err);
	else if (!strcmp(sub, "make_vbmeta_image"))
		r = make(q, &v, fn, ctx, err);
	else if (!strcmp(sub, "add_hashtree_footer"))
		r = footer(q, FV_FOOTER_HASHTREE, &v, fn, ctx, err);
	else if (!strcmp(sub, "add_hash_footer"))
		r = footer(q, FV_FOOTER_HASH, &v, fn, ctx, err);
	else if (!strcmp(sub, "extract_public_key"))
		r = key_file(q, FV_AVB_KEY_BLOB, err);
	else if (!strcmp(sub, "extract_public_key_digest"))
		r = key_file(q, FV_AVB_KEY_DIGEST, err);
	else if (!strcmp(sub, "generate_key"))
		r = done(verity_android_key(
			&(struct fv_avb_key_request){
				.size = sizeof(struct fv_avb_key_request),
				.op = FV_AVB_KEY_GENERATE,
				.algorithm = opt(q, "algorithm"),
				.output = opt(q, "output")},
			NULL, NULL, err));
	else if (!strcmp(sub, "version"))
		r = text(fn, ctx, FV_AVB_RELEASE "\n", err);
	else
		r = ht_fail(err, EINVAL, "fv_show: avb has no %s to run", sub);
	free(req);
	return r;
}
