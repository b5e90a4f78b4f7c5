/* fastverity avb verify_image: the vbmeta's signature and signer, then
 * every hash and hashtree descriptor over its image (every block of a
 * tree, and its parity), chain descriptors against
 * --expected_chain_partition or followed. The library walks the set
 * (fv_slot_verify, with avbtool's rules: one level of chains, stopping
 * at the first failure); this prints avbtool's lines for each step as it
 * ends, or with --json one document (docs/android.md). */
#include "cli/files.h"
#include "cli/avb.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli/jsonc.h"

#include "cli/errors.h"
#include "cli/json.h"
#include "cli/progress.h"
#include "cli/text.h"

/* One run of verify_image: its arguments, the --key's blob, and with
 * --json the partitions checked and whether one failed its check (a
 * verdict, not an error). */
struct check {
	const struct cli_avb_args *a;
	const fv_slot *s;
	uint8_t *key; /* --key as an AVB public key blob */
	size_t key_len;
	struct fv_slot_expected *expected;
	uint8_t **expected_keys;
	size_t nexpected;
	json_object *parts; /* NULL: avbtool's lines */
	json_object *failures;
	uint64_t bad_data, bad_hash;
	int corrupted;
	size_t stopped; /* the step that failed (SIZE_MAX: none) */
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

static struct fv_slot_step step_at(const fv_slot *s, size_t i)
{
	struct fv_slot_step st = {.size = sizeof(st)};

	fv_slot_step(s, i, &st);
	return st;
}

/* --json: one partition's verdict (counts and failures may be NULL). */
static void part(struct check *c, const struct fv_slot_step *st,
		 const char *kind, const char *result,
		 const struct cli_counts *counts)
{
	struct cli_avb_vouch v;
	json_object *j;

	if (!c->parts)
		return;
	if (strcmp(result, "ok") && strcmp(result, "skipped"))
		c->corrupted = 1;
	cli_avb_vouch_of(c->s, st->parent, &v);
	j = cli_avb_partition_json(st->name, kind, st->path, &v, result);
	if (counts)
		cli_json_add_counts(j, counts);
	if (counts || c->failures) {
		cli_jset(j, "failures", c->failures);
		c->failures = NULL;
	}
	json_object_array_add(c->parts, j);
}

static void report_block(void *ctx, enum fv_failure_kind kind, uint64_t block,
			 uint64_t offset, unsigned level)
{
	struct check *c = ctx;

	cli_progress_clear();
	if (c->a->bar)
		cli_progress_end(c->a->bar);
	if (kind == FV_BAD_DATA_BLOCK || kind == FV_UNREADABLE_DATA_BLOCK)
		c->bad_data++;
	else
		c->bad_hash++;
	if (c->failures) {
		struct cli_failure x = {kind, offset, block, level};

		json_object_array_add(c->failures, cli_json_failure(&x));
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

/* ---- each step ---- */

static void vbmeta_begins(struct check *c, const struct fv_slot_step *st)
{
	const struct cli_avb_args *a = c->a;

	if (st->depth) {
		struct fv_slot_step ch = step_at(c->s, st->parent);
		struct fv_avb_descriptor d =
			cli_avb_descriptor(ch.avb, ch.descriptor);
		struct fv_avb_chain_partition cp = d.chain_partition;

		/* a chained image is checked against the key its chain
		 * descriptor pins: avbtool's words only when that key is
		 * --key's, or no key was given */
		if (d.tag == FV_AVB_CHAIN_PARTITION && c->key &&
		    (cp.public_key_len != c->key_len ||
		     memcmp(cp.public_key, c->key, c->key_len))) {
			say(c,
			    "Verifying image %s using the key %s pins for %s "
			    "(sha1 %s)\n",
			    st->path, step_at(c->s, ch.parent).path, ch.name,
			    cp.public_key_sha1);
			return;
		}
	}
	if (a->key)
		say(c, "Verifying image %s using key at %s\n", st->path,
		    a->key);
	else
		say(c, "Verifying image %s using embedded public key\n",
		    st->path);
}

static void vbmeta_ends(struct check *c, const struct fv_slot_step *st)
{
	struct fv_avb_info in = cli_avb_facts(st->avb);
	const char *alg = in.header.algorithm;

	if (st->result == FV_SLOT_OK) {
		say(c,
		    "vbmeta: Successfully verified %s%s vbmeta struct in %s\n",
		    in.has_footer ? "footer and " : "", alg, st->path);
		return;
	}
	switch (st->why) {
	case FV_SLOT_WHY_SIGNATURE:
		cli_error(st->error,
			  "%s: Signature check failed for %s vbmeta "
			  "struct (%s)",
			  st->path, alg, st->message);
		break;
	case FV_SLOT_WHY_OTHER_KEY:
		cli_error(st->error,
			  "%s: Embedded public key does not match given key.",
			  st->path);
		break;
	case FV_SLOT_WHY_PINNED_KEY: {
		struct fv_slot_step ch = step_at(c->s, st->parent);

		cli_error(st->error,
			  "%s: Embedded public key does not match the key the "
			  "chain partition descriptor for %s pins.",
			  st->path, ch.name);
		break;
	}
	default:
		cli_error(st->error ? st->error : -EINVAL, "%s", st->message);
		break;
	}
}

static const struct fv_slot_expected *expected_of(const struct check *c,
						  const char *name)
{
	for (size_t k = 0; k < c->nexpected; k++)
		if (!strcmp(c->expected[k].name, name))
			return &c->expected[k];
	return NULL;
}

static void chain_ends(struct check *c, const struct fv_slot_step *st)
{
	struct fv_avb_chain_partition cp = {.size = sizeof(cp)};
	const struct fv_slot_expected *x = expected_of(c, st->name);

	cp = cli_avb_descriptor(st->avb, st->descriptor).chain_partition;
	switch (st->result == FV_SLOT_OK ? FV_SLOT_WHY_NONE : st->why) {
	case FV_SLOT_WHY_NONE:
		if (st->expected) {
			say(c,
			    "%s: Successfully verified chain partition "
			    "descriptor matches expected data\n",
			    st->name);
			part(c, st, "chain partition", "ok", NULL);
		} else if (st->followed) {
			say(c,
			    "%s: Chained but ROLLBACK_SLOT (which is %u) and "
			    "KEY (which has sha1 %s) not specified\n",
			    st->name, cp.rollback_index_location,
			    cp.public_key_sha1);
		}
		if (st->followed)
			say(c, "--\n");
		return;
	case FV_SLOT_WHY_NOT_EXPECTED:
		fprintf(stderr,
			"No expected chain partition for partition %s. Use "
			"--expected_chain_partition to specify expected "
			"contents or --follow_chain_partitions.\n",
			st->name);
		return;
	case FV_SLOT_WHY_LOCATION:
		fprintf(stderr,
			"Expected rollback_index_location %u does not match "
			"%u in descriptor for partition %s\n",
			x ? x->rollback_index_location : 0,
			cp.rollback_index_location, st->name);
		return;
	case FV_SLOT_WHY_KEY_BLOB:
		fprintf(stderr,
			"Expected public key blob does not match public key "
			"blob in descriptor for partition %s\n",
			st->name);
		return;
	case FV_SLOT_WHY_VISITED:
		say(c, "%s: chained partition checked already\n", st->name);
		return;
	default:
		cli_error(st->error ? st->error : -EINVAL, "%s", st->message);
		return;
	}
}

static void hash_ends(struct check *c, const struct fv_slot_step *st)
{
	struct fv_avb_hash h = {.size = sizeof(h)};

	h = cli_avb_descriptor(st->avb, st->descriptor).hash;
	if (st->result == FV_SLOT_OK) {
		say(c,
		    "%s: Successfully verified %s hash of %s for image of "
		    "%" PRIu64 " bytes\n",
		    st->name, h.hash_algorithm, st->path, h.image_size);
		part(c, st, "hash", "ok", NULL);
	} else if (st->result == FV_SLOT_BAD) {
		/* avbtool's line, as it prints it */
		fprintf(stderr, "%s\n", st->message);
		part(c, st, "hash", "corrupted", NULL);
	} else if (st->result == FV_SLOT_SKIPPED) {
		say(c, "%s: checked already\n", st->name);
	} else {
		cli_error(st->error ? st->error : -EINVAL, "%s", st->message);
	}
}

static void tree_ends(struct check *c, const struct fv_slot_step *st)
{
	struct fv_avb_hashtree t = {.size = sizeof(t)};
	struct cli_counts counts, *n = NULL;

	t = cli_avb_descriptor(st->avb, st->descriptor).hashtree;
	if (st->result_of) {
		cli_counts_of(st->result_of, &counts);
		n = &counts;
	}
	if (st->result == FV_SLOT_OK) {
		part(c, st, "hashtree", "ok", n);
		say(c,
		    "%s: Successfully verified %s hashtree of %s for image of "
		    "%" PRIu64 " bytes\n",
		    st->name, t.hash_algorithm, st->path, t.image_size);
		return;
	}
	if (st->result == FV_SLOT_SKIPPED && st->why == FV_SLOT_WHY_ZEROED) {
		say(c,
		    "%s: skipping verification since hashtree is zeroed and "
		    "--accept_zeroed_hashtree was given\n",
		    st->name);
		part(c, st, "hashtree", "skipped", NULL);
		return;
	}
	if (st->result == FV_SLOT_SKIPPED) {
		say(c, "%s: checked already\n", st->name);
		return;
	}
	if (st->result != FV_SLOT_BAD) {
		cli_error(st->error ? st->error : -EINVAL, "%s", st->message);
		return;
	}
	if (st->why == FV_SLOT_WHY_PARITY) {
		struct fv_report rep;

		cli_report(st->result_of, &rep);
		fprintf(stderr,
			"parity of %s: %" PRIu64 " codewords in %" PRIu64
			" rounds disagree with the verified data\n",
			st->path, rep.fec.stale_codewords,
			rep.fec.stale_rounds);
		part(c, st, "hashtree", "corrupted", n);
		return;
	}
	/* avbtool's two words: the data's own root against the
	 * descriptor's says which (a tree made zeros, or damaged, over
	 * intact data: the tree's fault) */
	fprintf(stderr,
		st->why == FV_SLOT_WHY_TREE
			? "hashtree of %s contains invalid data\n"
			: "hashtree of %s does not match descriptor\n",
		st->path);
	part(c, st, "hashtree",
	     n && cli_verdict(n) == EXIT_PARAMS ? "root hash mismatch"
						: "corrupted",
	     n);
}

static void on_step(void *ctx, const fv_slot *s, size_t i, int done)
{
	struct check *c = ctx;
	struct fv_slot_step st = step_at(s, i);

	c->s = s;
	if (!done) {
		if (st.kind == FV_SLOT_VBMETA)
			vbmeta_begins(c, &st);
		if (st.kind == FV_SLOT_HASHTREE && c->parts && !c->failures)
			c->failures = json_object_new_array();
		return;
	}
	if (c->a->bar &&
	    (st.kind == FV_SLOT_HASHTREE || st.kind == FV_SLOT_HASH))
		cli_progress_end(c->a->bar);
	if (st.kind == FV_SLOT_VBMETA)
		vbmeta_ends(c, &st);
	else if (st.kind == FV_SLOT_CHAIN)
		chain_ends(c, &st);
	else if (st.kind == FV_SLOT_HASH)
		hash_ends(c, &st);
	else if (st.kind == FV_SLOT_HASHTREE)
		tree_ends(c, &st);
	if (st.result != FV_SLOT_OK && st.result != FV_SLOT_SKIPPED &&
	    c->stopped == SIZE_MAX)
		c->stopped = i;
	json_object_put(c->failures);
	c->failures = NULL;
}

/* After a failure: each vbmeta whose descriptors were being checked
 * says so, the innermost first (avbtool's lines). */
static void error_lines(const struct check *c)
{
	struct fv_slot_step st = step_at(c->s, c->stopped);
	size_t at =
		st.kind == FV_SLOT_VBMETA && st.why != FV_SLOT_WHY_DESCRIPTORS
			? st.parent
			: c->stopped;

	while (at != SIZE_MAX) {
		st = step_at(c->s, at);
		if (st.kind == FV_SLOT_VBMETA)
			fprintf(stderr,
				"fastverity: %s: Error verifying descriptor.\n",
				st.path);
		at = st.parent;
	}
}

/* --expected_chain_partition NAME:LOCATION:KEY_PATH, each read. */
static int expected_read(struct check *c)
{
	const struct cli_avb_args *a = c->a;

	if (!a->nexpected)
		return 0;
	c->expected = calloc(a->nexpected, sizeof(*c->expected));
	c->expected_keys = calloc(a->nexpected, sizeof(*c->expected_keys));
	if (!c->expected || !c->expected_keys)
		return cli_error(-ENOMEM, "out of memory");
	for (size_t i = 0; i < a->nexpected; i++) {
		const char *s = a->expected[i], *c1 = strchr(s, ':'), *c2;
		struct fv_slot_expected *x = &c->expected[i];
		char *end, *name;
		unsigned long loc;
		int r;

		if (!c1 || !(c2 = strchr(c1 + 1, ':')) || strchr(c2 + 1, ':'))
			return cli_error(-EINVAL,
					 "malformed chained partition \"%s\"",
					 s);
		loc = strtoul(c1 + 1, &end, 10);
		if (end != c2 || c1 + 1 == c2 || loc > UINT32_MAX)
			return cli_error(-EINVAL,
					 "malformed chained partition \"%s\"",
					 s);
		if (!(name = strndup(s, (size_t)(c1 - s))))
			return cli_error(-ENOMEM, "out of memory");
		x->name = name;
		c->nexpected = i + 1;
		x->rollback_index_location = (unsigned)loc;
		if ((r = cli_input_read(c2 + 1, "public key file", 1u << 16,
					&c->expected_keys[i],
					&x->public_key_len)))
			return cli_lib_error(r);
		x->public_key = c->expected_keys[i];
	}
	return 0;
}

static void check_free(struct check *c)
{
	for (size_t i = 0; i < c->nexpected; i++) {
		free((char *)c->expected[i].name);
		fv_free(c->expected_keys[i]);
	}
	free(c->expected);
	free(c->expected_keys);
	fv_free(c->key);
	json_object_put(c->parts);
	json_object_put(c->failures);
}

int cli_avb_verify(const struct cli_avb_args *a, fv_options *opts)
{
	struct check c = {
		a,       NULL, NULL, 0,
		NULL,    NULL, 0,    a->json ? json_object_new_array() : NULL,
		NULL,    0,    0,    0,
		SIZE_MAX};
	struct fv_slot_request req = {.size = sizeof(req)};
	struct fv_slot_info in = {.size = sizeof(in)};
	struct fv_avb_key_request kq = {
		.size = sizeof(kq), .op = FV_AVB_KEY_BLOB, .key = a->key};
	fv_slot *s = NULL;
	int r;

	if (!a->image) {
		r = cli_error(-EINVAL, "avb verify_image: --image is required");
		goto out;
	}
	if ((r = expected_read(&c)) ||
	    (a->key && (r = fv_avb_key(&kq, &c.key, &c.key_len)) &&
	     (r = cli_lib_error(r))))
		goto out;
	req.image = a->image;
	req.container = "avb";
	req.key = a->key;
	req.expected = c.expected;
	req.nexpected = c.nexpected;
	req.flags = FV_SLOT_CHECK | FV_SLOT_STOP | FV_SLOT_EXPECTED |
		    (a->follow ? FV_SLOT_FOLLOW : 0) |
		    (a->accept_zeroed_hashtree ? FV_SLOT_ACCEPT_ZEROED : 0);
	opts->failure = report_block;
	opts->failure_ctx = &c;
	r = fv_slot_verify(&req, opts, on_step, &c, &s);
	opts->failure = NULL;
	opts->failure_ctx = NULL;
	if (r) {
		r = cli_lib_error(r);
		goto out;
	}
	c.s = s;
	fv_slot_info(s, &in);
	for (size_t i = 0; i < in.notes; i++)
		fprintf(stderr, "fastverity: %s\n", in.note[i]);
	if (c.stopped != SIZE_MAX) {
		error_lines(&c);
		r = EXIT_PARAMS;
	}
out:
	/* --json: the image document when every descriptor was checked or
	 * one failed its check (avbtool's exit code 1 for that); else the
	 * error document, from the message printed */
	if (c.parts && (!r || c.corrupted)) {
		json_object *j = json_object_new_object();

		cli_jstr(j, "image", a->image);
		cli_jstr(j, "container", "avb");
		cli_jstr(j, "result", r ? "corrupted" : "ok");
		cli_jset(j, "partitions", c.parts);
		c.parts = NULL;
		cli_json_print(j);
	} else if (c.parts) {
		cli_json_final(r ? r : EXIT_PARAMS, "verification failed");
	}
	check_free(&c);
	fv_slot_free(s);
	return r;
}
