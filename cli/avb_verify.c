/* fastverity avb verify_image: the vbmeta's signature and signer, then
 * every hash and hashtree descriptor over its image (every block of a
 * tree, and its parity), chain descriptors against
 * --expected_chain_partition or followed; avbtool's lines, or --json
 * (docs/android.md). */
#include "cli/avb.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/jsonc.h"

#include "cli/errors.h"
#include "cli/json.h"
#include "cli/pair.h"
#include "cli/progress.h"
#include "cli/text.h"
#include <stdarg.h>

/* One run of verify_image: its options, and with --json the partitions
 * checked (docs/json.md's image document) and whether one of them
 * failed its check (a verdict, not an error). */
struct check {
	const struct cli_avb_args *a;
	fv_options *opts;
	json_object *parts; /* NULL: avbtool's lines */
	int corrupted;
};

/* avbtool's lines on stdout; with --json, the document alone. */
static void say(const struct check *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void say(const struct check *c, const char *fmt, ...)
{
	va_list ap;

	if (c->parts)
		return;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

/* --json: one partition's verdict (counts and failures may be NULL). */
static void part(struct check *c, const char *name, const char *kind,
		 const char *path, const struct cli_avb_vouch *v,
		 const char *result, const struct cli_counts *counts,
		 json_object *failures)
{
	json_object *j;

	if (!c->parts) {
		json_object_put(failures);
		return;
	}
	if (strcmp(result, "ok") && strcmp(result, "skipped"))
		c->corrupted = 1;
	j = cli_avb_partition_json(name, kind, path, v, result);
	if (counts)
		cli_json_add_counts(j, counts);
	if (counts || failures)
		json_object_object_add(j, "failures", failures);
	json_object_array_add(c->parts, j);
}

struct bad_blocks {
	uint64_t data, hash;
	struct cli_progress *bar; /* cleared before a line is printed */
	json_object *list;        /* --json: the failures */
};

static void report_block(void *c, enum fv_failure_kind kind, uint64_t block,
			 uint64_t offset, unsigned level)
{
	struct bad_blocks *b = c;

	cli_progress_clear();
	if (b->bar)
		cli_progress_end(b->bar);
	if (kind == FV_BAD_DATA_BLOCK || kind == FV_UNREADABLE_DATA_BLOCK)
		b->data++;
	else
		b->hash++;
	if (b->list) {
		struct cli_failure x = {kind, offset, block, level};

		json_object_array_add(b->list, cli_json_failure(&x));
		return;
	}
	if (kind == FV_BAD_HASH_BLOCK)
		fprintf(stderr,
			"Verification failed at position %" PRIu64
			" (hash block, level %u).\n",
			offset, level);
	else
		fprintf(stderr, "%s at position %" PRIu64 ".\n",
			cli_failure_words(kind), offset);
}

/* A hashtree descriptor checked over its image: every block, then the
 * parity against the verified data. */
static int verify_hashtree(struct check *c, const fv_avb *av, size_t i,
			   const char *image, const struct cli_avb_vouch *v)
{
	struct fv_avb_hashtree t = {.size = sizeof(t)};
	struct fv_fec_report fec = {.size = sizeof(fec)};
	struct cli_progress *bar = c->a->bar;
	struct bad_blocks bad = {0, 0, bar, NULL};
	fv_options *opts = c->opts;
	const char *name;
	struct cli_counts counts;
	fv_result *res = NULL;
	fv_pair *pr = NULL;
	uint8_t root[FV_MAX_DIGEST_SIZE];
	size_t rl = 0;
	int r, zeroed = 0;

	fv_avb_hashtree(av, i, &t);
	name = CLI_NAME(t.partition_name, t.partition_name_len);
	if (c->a->accept_zeroed_hashtree &&
	    (zeroed = fv_avb_tree_zeroed(av, i, image)) < 0)
		return cli_lib_error(zeroed);
	/* the data's own root: where the descriptor keeps none (a
	 * persistent digest) the tree is checked against it; a zeroed tree
	 * is skipped, its data still checked against the root (avbtool) */
	if ((zeroed || !t.root_digest_len) &&
	    (r = fv_avb_data_root(av, i, image, opts, root, &rl)))
		return cli_lib_error(r);
	if (zeroed) {
		if (t.root_digest_len && (rl != t.root_digest_len ||
					  memcmp(root, t.root_digest, rl))) {
			fprintf(stderr,
				"hashtree of %s does not match descriptor\n",
				image);
			part(c, name, "hashtree", image, v,
			     "root hash mismatch", NULL, NULL);
			return EXIT_PARAMS;
		}
		say(c,
		    "%s: skipping verification since hashtree is zeroed "
		    "and --accept_zeroed_hashtree was given\n",
		    name);
		part(c, name, "hashtree", image, v, "skipped", NULL, NULL);
		return EXIT_OK;
	}
	if ((r = fv_avb_descriptor_pair(av, i, image, &pr)))
		return cli_lib_error(r);
	if (!t.root_digest_len && (r = fv_pair_set_root(pr, root, rl))) {
		fv_pair_free(pr);
		return cli_lib_error(r);
	}
	/* the options as given, with this check's own failure callback */
	if (c->parts)
		bad.list = json_object_new_array();
	fv_options_set_failure_fn(opts, report_block, &bad);
	r = fv_pair_verify(pr, opts, &res);
	fv_options_set_failure_fn(opts, NULL, NULL);
	if (bar)
		cli_progress_end(bar);
	if (r) {
		json_object_put(bad.list);
		fv_pair_free(pr);
		return cli_lib_error(r);
	}
	cli_counts_of(res, &counts);
	if (bad.data || bad.hash || !counts.root_matches ||
	    cli_verdict(&counts)) {
		/* avbtool's two words: the data's own root against the
		 * descriptor's says which (a tree made zeros, or damaged,
		 * over intact data: the tree's fault) */
		int data_ok =
			!t.root_digest_len ||
			(!fv_avb_data_root(av, i, image, opts, root, &rl) &&
			 rl == t.root_digest_len &&
			 !memcmp(root, t.root_digest, rl));

		fprintf(stderr,
			data_ok ? "hashtree of %s contains invalid data\n"
				: "hashtree of %s does not match descriptor\n",
			image);
		r = EXIT_PARAMS;
		part(c, name, "hashtree", image, v,
		     cli_verdict(&counts) == EXIT_PARAMS ? "root hash mismatch"
							 : "corrupted",
		     &counts, bad.list);
	} else if (!fv_result_fec(res, &fec) && fec.stale_codewords) {
		fprintf(stderr,
			"parity of %s: %" PRIu64 " codewords in %" PRIu64
			" rounds disagree with the verified data\n",
			image, fec.stale_codewords, fec.stale_rounds);
		r = EXIT_PARAMS;
		part(c, name, "hashtree", image, v, "corrupted", &counts,
		     bad.list);
	} else {
		part(c, name, "hashtree", image, v, "ok", &counts, bad.list);
	}
	if (!r && t.fec_num_roots && !fv_pair_fec_path(pr))
		fprintf(stderr,
			"fastverity: %s: the parity uses 4096-byte blocks and "
			"the tree %u-byte blocks: the kernel cannot use it "
			"(not checked)\n",
			image, t.data_block_size);
	if (!r)
		say(c,
		    "%s: Successfully verified %s hashtree of %s for image "
		    "of %" PRIu64 " bytes\n",
		    name, t.hash_algorithm, image, t.image_size);
	fv_result_free(res);
	fv_pair_free(pr);
	return r;
}

static int verify_hash(struct check *c, const fv_avb *av, size_t i,
		       const char *image, const struct cli_avb_vouch *v)
{
	struct fv_avb_hash h = {.size = sizeof(h)};
	int r = fv_avb_check_hash(av, i, image);
	const char *name;

	fv_avb_hash(av, i, &h);
	name = CLI_NAME(h.partition_name, h.partition_name_len);
	if (r == -EPERM) {
		/* avbtool's line, as it prints it */
		fprintf(stderr, "%s\n", fv_last_error());
		part(c, name, "hash", image, v, "corrupted", NULL, NULL);
		return EXIT_PARAMS;
	}
	if (r)
		return cli_lib_error(r);
	say(c,
	    "%s: Successfully verified %s hash of %s for image of %" PRIu64
	    " bytes\n",
	    name, h.hash_algorithm, image, h.image_size);
	part(c, name, "hash", image, v, "ok", NULL, NULL);
	return EXIT_OK;
}

/* --expected_chain_partition NAME:LOCATION:KEY_PATH for chain c. */
static int expected_chain(const struct cli_avb_args *a,
			  const struct fv_avb_chain_partition *c,
			  uint32_t *location, uint8_t **key, size_t *len,
			  int *found)
{
	*found = 0;
	for (size_t i = 0; i < a->nexpected; i++) {
		const char *s = a->expected[i], *c1 = strchr(s, ':'), *c2;
		char *end;
		unsigned long loc;
		int r;

		if (!c1 || !(c2 = strchr(c1 + 1, ':')) || strchr(c2 + 1, ':'))
			return cli_error(-EINVAL,
					 "malformed chained partition \"%s\"",
					 s);
		if ((size_t)(c1 - s) != c->partition_name_len ||
		    memcmp(s, c->partition_name, c->partition_name_len))
			continue;
		loc = strtoul(c1 + 1, &end, 10);
		if (end != c2 || loc > UINT32_MAX)
			return cli_error(-EINVAL,
					 "malformed chained partition \"%s\"",
					 s);
		if ((r = fv_input_read(c2 + 1, "public key file", 1u << 16, key,
				       len)))
			return cli_lib_error(r);
		*location = (uint32_t)loc;
		*found = 1;
		return 0;
	}
	return 0;
}

static int verify_chain(struct check *ck,
			const struct fv_avb_chain_partition *c,
			const char *image, const struct cli_avb_vouch *v)
{
	const char *name = CLI_NAME(c->partition_name, c->partition_name_len);
	uint8_t *key = NULL;
	size_t len = 0;
	uint32_t loc = 0;
	int found, r = expected_chain(ck->a, c, &loc, &key, &len, &found);

	if (r)
		return r;
	if (!found) {
		fprintf(stderr,
			"No expected chain partition for partition %s. Use "
			"--expected_chain_partition to specify expected "
			"contents or --follow_chain_partitions.\n",
			name);
		return EXIT_PARAMS;
	}
	if (loc != c->rollback_index_location) {
		fprintf(stderr,
			"Expected rollback_index_location %u does not match "
			"%u in descriptor for partition %s\n",
			loc, c->rollback_index_location, name);
		r = EXIT_PARAMS;
	} else if (len != c->public_key_len ||
		   memcmp(key, c->public_key, len)) {
		fprintf(stderr,
			"Expected public key blob does not match public key "
			"blob in descriptor for partition %s\n",
			name);
		r = EXIT_PARAMS;
	} else {
		say(ck,
		    "%s: Successfully verified chain partition descriptor "
		    "matches expected data\n",
		    name);
		part(ck, name, "chain partition", image, v, "ok", NULL, NULL);
	}
	fv_free(key);
	return r;
}

/* The key an image's vbmeta must be signed with: --key's (the image
 * given), or the one its chain descriptor pins (a chained partition, as
 * libavb judges it on a device). No key: the embedded one, said to
 * prove nothing of who signed. */
struct signer {
	const char *key_path;
	const struct fv_avb_chain_partition *chain; /* the pinning one */
	const char *pinner;  /* the image whose descriptor pins it */
	enum fv_trust trust; /* the pinner's */
};

static int verify_one(struct check *c, const char *image, int follow,
		      const struct signer *want);

/* A chain partition descriptor: as expected, and followed. */
static int chain_step(struct check *ck, const fv_avb *av, size_t i,
		      const char *image, int follow,
		      const struct cli_avb_vouch *v)
{
	const struct cli_avb_args *a = ck->a;
	struct fv_avb_chain_partition c = {.size = sizeof(c)};
	uint8_t *k = NULL;
	size_t kl;
	uint32_t loc;
	int found, r;
	char *path;

	fv_avb_chain_partition(av, i, &c);
	if ((r = expected_chain(a, &c, &loc, &k, &kl, &found)))
		return r;
	fv_free(k);
	if (follow && !found)
		say(ck,
		    "%s: Chained but ROLLBACK_SLOT (which is %u) and KEY "
		    "(which has sha1 %s) not specified\n",
		    CLI_NAME(c.partition_name, c.partition_name_len),
		    c.rollback_index_location, c.public_key_sha1);
	else if ((r = verify_chain(ck, &c, image, v)))
		return r;
	if (!follow)
		return 0;
	say(ck, "--\n");
	if ((r = fv_avb_described_image(av, i, &path)))
		return cli_lib_error(r);
	r = verify_one(ck, path, 0,
		       &(struct signer){NULL, &c, image, v->trust});
	fv_free(path);
	return r;
}

static int verify_descriptors(struct check *c, const char *image,
			      const fv_avb *av, int follow,
			      const struct cli_avb_vouch *v)
{
	int r;

	/* each partition's data checked once (fv_avb_check_partitions) */
	if ((r = fv_avb_check_partitions(av)))
		r = cli_lib_error(r);
	for (size_t i = 0; !r && i < fv_avb_descriptors(av); i++) {
		uint64_t tag = fv_avb_descriptor_tag(av, i, NULL);
		char *path;

		if (tag == FV_AVB_CHAIN_PARTITION) {
			r = chain_step(c, av, i, image, follow, v);
			continue;
		}
		if (tag != FV_AVB_HASHTREE && tag != FV_AVB_HASH)
			continue;
		/* an image with a footer carries its own partition's
		 * descriptor first: that one is checked over the image
		 * given, whatever <name>.img lies beside it */
		if ((r = fv_avb_described_image(av, i, &path))) {
			r = cli_lib_error(r);
			break;
		}
		r = tag == FV_AVB_HASH ? verify_hash(c, av, i, path, v)
				       : verify_hashtree(c, av, i, path, v);
		fv_free(path);
	}
	if (r)
		fprintf(stderr, "fastverity: %s: Error verifying descriptor.\n",
			image);
	return r;
}

/* The vbmeta judged as libavb judges it on a device: its own signature,
 * then a key given (or pinned by a chain descriptor), refused for an
 * unsigned vbmeta; a chained partition is always judged against its
 * pinned key. Said in avbtool's words. */
static int judge_signer(const char *image, fv_avb *av,
			const struct signer *want, struct cli_avb_vouch *v)
{
	const char *alg = fv_avb_algorithm(av);
	int r = fv_avb_check_signature(av), unsigned_ = !strcmp(alg, "NONE");
	const struct fv_avb_chain_partition *c = want->chain;

	/* the trust policy's words for what follows (docs/trust.md) */
	v->vbmeta = image;
	snprintf(v->algorithm, sizeof(v->algorithm), "%s", alg);
	snprintf(v->key_sha1, sizeof(v->key_sha1), "%s",
		 unsigned_ ? "" : fv_avb_key_sha1(av));
	if (c) {
		v->trust = want->trust == FV_TRUST_CHECK ? FV_TRUST_CHECK
							 : FV_TRUST_UNCHECKED;
		snprintf(v->words, sizeof(v->words),
			 "vbmeta %s signed by the key %s pins%s", image,
			 want->pinner,
			 v->trust == FV_TRUST_CHECK ? "" : " (not checked)");
	} else if (unsigned_) {
		v->trust = FV_TRUST_UNSIGNED;
		snprintf(v->words, sizeof(v->words), "vbmeta %s unsigned",
			 image);
	} else if (want->key_path) {
		v->trust = FV_TRUST_CHECK;
		snprintf(v->words, sizeof(v->words), "vbmeta %s signed by %s",
			 image, want->key_path);
	} else {
		v->trust = FV_TRUST_UNCHECKED;
		snprintf(v->words, sizeof(v->words),
			 "vbmeta %s signed, signer not checked", image);
	}
	if (r == -ENOSYS) /* OpenSSL not there: nothing was checked */
		return cli_lib_error(r);
	if (r)
		return cli_error(r,
				 "%s: Signature check failed for %s vbmeta "
				 "struct (%s)",
				 image, alg, fv_last_error());
	if (!want->key_path && !c)
		return 0;
	r = c ? fv_avb_check_key_blob(av, c->public_key, c->public_key_len)
	      : fv_avb_check_key(av, want->key_path);
	if (!r)
		return 0;
	if (unsigned_ && c)
		return cli_error(
			r,
			"%s: the vbmeta of chained partition %s is "
			"not signed, and its chain descriptor pins a "
			"key: nothing proves who made it",
			image,
			CLI_NAME(c->partition_name, c->partition_name_len));
	if (unsigned_ || r != -EPERM)
		return cli_lib_error(r);
	if (c)
		return cli_error(
			r,
			"%s: Embedded public key does not match the "
			"key the chain partition descriptor for %s "
			"pins.",
			image,
			CLI_NAME(c->partition_name, c->partition_name_len));
	return cli_error(r, "%s: Embedded public key does not match given key.",
			 image);
}

static int verify_one(struct check *c, const char *image, int follow,
		      const struct signer *want)
{
	const struct cli_avb_args *a = c->a;
	struct cli_avb_vouch v;
	fv_avb *av;
	int r;

	/* avbtool's words (which name --key for a chained partition too,
	 * though the key that judges it is the one its descriptor pins) */
	if (a->key)
		say(c, "Verifying image %s using key at %s\n", image, a->key);
	else
		say(c, "Verifying image %s using embedded public key\n", image);
	if ((r = fv_avb_show(image, &av)))
		return cli_lib_error(r);
	if (!(r = judge_signer(image, av, want, &v))) {
		struct fv_avb_footer ft = {.size = sizeof(ft)};

		say(c,
		    "vbmeta: Successfully verified %s%s vbmeta struct in "
		    "%s\n",
		    fv_avb_footer_of(av, &ft) ? "" : "footer and ",
		    fv_avb_algorithm(av), image);
		r = verify_descriptors(c, image, av, follow, &v);
	}
	fv_avb_free(av);
	return r;
}

int cli_avb_verify(const struct cli_avb_args *a, fv_options *opts)
{
	struct check c = {a, opts, a->json ? json_object_new_array() : NULL, 0};
	int r;

	if (!a->image)
		r = cli_error(-EINVAL, "avb verify_image: --image is required");
	else
		r = verify_one(&c, a->image, a->follow,
			       &(struct signer){a->key, NULL, NULL,
						FV_TRUST_UNSIGNED})
			    ? EXIT_PARAMS
			    : EXIT_OK;
	/* --json: the image document when every descriptor was checked or
	 * one failed its check (avbtool's exit code 1 for that); else the
	 * error document, from the message printed */
	if (c.parts && (!r || c.corrupted)) {
		json_object *j = json_object_new_object();

		json_object_object_add(j, "image", cli_json_str(a->image));
		json_object_object_add(j, "container", cli_json_str("avb"));
		json_object_object_add(j, "result",
				       cli_json_str(r ? "corrupted" : "ok"));
		json_object_object_add(j, "partitions", c.parts);
		c.parts = NULL;
		cli_json_print(j);
	} else if (c.parts) {
		cli_json_final(r, "verification failed");
	}
	json_object_put(c.parts);
	return r;
}
