/* verify of an Android firmware set given alone (docs/android.md,
 * "Firmware sets"): a vbmeta image and what it chains and describes, an
 * image with a hash footer, or a super image's logical partitions. The
 * library walks the set (fv_slot_verify: the one walk, its trust rules
 * and bounds); this prints each step as it ends: one verdict a
 * partition, bad blocks named by partition (and by their bytes in a
 * super image), refusals on stderr, or one --json document. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/jsonc.h"

#include "cli/avb.h"
#include "cli/errors.h"
#include "cli/json.h"
#include "cli/params.h"
#include "cli/progress.h"
#include "cli/super.h"
#include "cli/text.h"

struct printer {
	struct cli_opts *o;
	const char *image;
	int super;
	json_object *list;     /* --json: the partitions */
	json_object *failures; /* --json: the step checked now */
	struct cli_progress *pr;
	/* the step checked now, for its failures' lines */
	const fv_slot *s;
	const char *name, *path;
	size_t partition;
	/* what the steps found */
	int error; /* the first refusal's or error's exit code */
	int bad;   /* a partition failed its check */
	int missing;
	size_t checked; /* partitions whose data was checked */
};

static struct fv_slot_step step_at(const fv_slot *s, size_t i)
{
	struct fv_slot_step st = {.size = sizeof(st)};

	fv_slot_step(s, i, &st);
	return st;
}

/* What the walk holds: its counts, super image and slot. */
static struct fv_slot_info info_of(const fv_slot *s)
{
	struct fv_slot_info in = {.size = sizeof(in)};

	fv_slot_info(s, &in);
	return in;
}

void cli_avb_vouch_of(const fv_slot *s, size_t vbmeta, struct cli_avb_vouch *v)
{
	struct fv_slot_step vb = step_at(s, vbmeta);
	const char *alg = cli_avb_facts(vb.avb).header.algorithm;

	memset(v, 0, sizeof(*v));
	v->vbmeta = vb.path;
	v->trust = vb.trust;
	snprintf(v->algorithm, sizeof(v->algorithm), "%s", alg);
	snprintf(v->key_sha1, sizeof(v->key_sha1), "%s",
		 strcmp(alg, "NONE")
			 ? cli_avb_facts(vb.avb).header.public_key_sha1
			 : "");
	if (vb.depth)
		snprintf(v->words, sizeof(v->words),
			 "vbmeta %s signed by the key %s pins%s", vb.path,
			 vb.signer ? vb.signer : "its chain",
			 vb.trust == FV_TRUST_CHECK ? "" : " (not checked)");
	else if (vb.trust == FV_TRUST_CHECK)
		snprintf(v->words, sizeof(v->words), "vbmeta %s signed by %s",
			 vb.path, vb.signer);
	else if (vb.trust == FV_TRUST_UNSIGNED)
		snprintf(v->words, sizeof(v->words), "vbmeta %s unsigned",
			 vb.path);
	else
		snprintf(v->words, sizeof(v->words),
			 "vbmeta %s signed, signer not checked", vb.path);
}

void *cli_avb_partition_json(const char *name, const char *kind,
			     const char *path, const struct cli_avb_vouch *v,
			     const char *result)
{
	json_object *j = json_object_new_object();

	cli_jstr(j, "name", name);
	cli_jstr(j, "descriptor", kind);
	cli_jstr(j, "path", path);
	cli_jstr(j, "trust", cli_trust_word(v->trust));
	cli_jstr(j, "vbmeta", v->vbmeta);
	cli_jstr(j, "algorithm", v->algorithm);
	cli_jset(j, "public_key_sha1",
		 v->key_sha1[0] ? cli_json_str(v->key_sha1) : NULL);
	cli_jstr(j, "vouched_by", v->words);
	cli_jstr(j, "result", result);
	return j;
}

/* A failure of the partition checked now. */
static void report(void *c, enum fv_failure_kind kind, uint64_t block,
		   uint64_t offset, unsigned level)
{
	struct printer *p = c;
	struct cli_failure f = {kind, offset, block, level};
	struct fv_super_entry b = {.size = sizeof(b)};
	const fv_super *sup = p->super ? info_of(p->s).super : NULL;
	uint32_t dev = 0;
	uint64_t at = 0;
	int mapped = sup && p->partition != SIZE_MAX &&
		     !fv_super_offset(sup, p->partition, offset, &dev, &at) &&
		     !fv_super_entry(sup, FV_SUPER_BLOCK_DEVICE, dev, &b);

	cli_progress_clear();
	if (p->failures) {
		json_object *j = cli_json_failure(&f);

		if (p->super) {
			cli_jset(j, "block_device",
				 mapped ? cli_json_str(b.block_device.name)
					: NULL);
			cli_jset(j, "device_offset",
				 mapped ? json_object_new_uint64(at) : NULL);
		}
		json_object_array_add(p->failures, j);
		return;
	}
	if (mapped)
		fprintf(stderr,
			"%s at position %" PRIu64 " (partition %s; %s byte "
			"%" PRIu64 ").\n",
			cli_failure_words(kind), offset, p->name,
			dev ? b.block_device.file : p->image, at);
	else if (p->super)
		fprintf(stderr, "%s at position %" PRIu64 " (partition %s).\n",
			cli_failure_words(kind), offset, p->name);
	else
		fprintf(stderr,
			"%s at position %" PRIu64 " (partition %s, %s).\n",
			cli_failure_words(kind), offset, p->name, p->path);
}

/* A refusal or error of a step: said on stderr (kept for JSON), its
 * exit code kept when it is the first. */
static void refused(struct printer *p, const struct fv_slot_step *st)
{
	int code = cli_exit_code(st->error ? st->error : -EINVAL);

	if (!p->list)
		fprintf(stderr, "fastverity: %s\n", st->message);
	if (!p->error)
		p->error = code;
}

/* --json: an entry of a step that checked nothing (missing, refused,
 * skipped, empty...). */
static void json_plain(struct printer *p, const struct fv_slot_step *st,
		       const char *kind, const char *result)
{
	json_object *j = json_object_new_object();

	cli_jstr(j, "name", st->name);
	if (kind)
		cli_jstr(j, "descriptor", kind);
	cli_jstr(j, "path", st->path);
	cli_jstr(j, "result", result);
	if (st->message[0])
		cli_jstr(j, "error", st->message);
	json_object_array_add(p->list, j);
}

static const char *kind_word(enum fv_slot_kind k)
{
	return k == FV_SLOT_HASHTREE ? "hashtree"
	       : k == FV_SLOT_HASH   ? "hash"
				     : "chained vbmeta";
}

/* ---- a vbmeta's set ---- */

/* A hash or hashtree step of a vbmeta's set ended. */
static void vbmeta_partition(struct printer *p, const struct fv_slot_step *st)
{
	const char *kind = kind_word(st->kind);
	struct cli_avb_vouch v;
	struct cli_counts counts, *c = NULL;
	char words[160];
	int code;

	if (st->result == FV_SLOT_MISSING) {
		p->missing = 1;
		if (p->list)
			json_plain(p, st, kind, "missing");
		else
			printf("%s: %s of %s: missing (no such file, and no "
			       "super.img beside holding it).\n",
			       st->name, kind, st->path);
		return;
	}
	if (st->result == FV_SLOT_SKIPPED) {
		if (p->list)
			json_plain(p, st, kind, "skipped");
		else
			printf("%s: %s of %s: checked already in this set.\n",
			       st->name, kind, st->path);
		return;
	}
	if (st->result == FV_SLOT_REFUSED || st->result == FV_SLOT_ERROR) {
		refused(p, st);
		if (p->list)
			json_plain(p, st, kind,
				   st->result == FV_SLOT_REFUSED ? "refused"
								 : "error");
		return;
	}
	p->checked++;
	if (st->result_of) {
		cli_counts_of(st->result_of, &counts);
		c = &counts;
		code = cli_verdict(&counts);
	} else {
		code = st->result == FV_SLOT_OK ? EXIT_OK : EXIT_VERIFY;
	}
	if (code)
		p->bad = 1;
	cli_avb_vouch_of(p->s, st->parent, &v);
	if (p->list) {
		json_object *j = cli_avb_partition_json(
			st->name, kind, st->path, &v, cli_verdict_word(code));

		if (c)
			cli_json_add_counts(j, c);
		cli_jset(j, "failures", p->failures);
		p->failures = NULL;
		json_object_array_add(p->list, j);
		return;
	}
	if (c && code == EXIT_VERIFY)
		cli_print_counts(c);
	if (c && !c->root_matches)
		fprintf(stderr, "Verification of root hash failed.\n");
	if (!c && code)
		fprintf(stderr, "fastverity: %s\n", st->message);
	printf("%s: %s of %s, %s: %s.\n", st->name, kind, st->path, v.words,
	       cli_verdict_text(code, c, words, sizeof(words)));
}

/* A vbmeta or chain step of a vbmeta's set ended. */
static void vbmeta_step(struct printer *p, const struct fv_slot_step *st)
{
	if (st->result == FV_SLOT_MISSING) {
		p->missing = 1;
		if (p->list)
			json_plain(p, st, "chained vbmeta", "missing");
		else
			printf("%s: chained vbmeta of %s: missing (no such "
			       "file, and no super.img beside holding it).\n",
			       st->name, st->path);
		return;
	}
	if (st->result == FV_SLOT_SKIPPED) {
		if (p->list)
			json_plain(p, st, "chained vbmeta", "skipped");
		else
			printf("%s: chained vbmeta of %s: visited already in "
			       "this set.\n",
			       st->name, st->path);
		return;
	}
	if (st->result == FV_SLOT_REFUSED || st->result == FV_SLOT_ERROR) {
		refused(p, st);
		if (p->list)
			json_plain(p, st,
				   st->kind == FV_SLOT_CHAIN ? "chain partition"
							     : "vbmeta",
				   st->result == FV_SLOT_REFUSED ? "refused"
								 : "error");
		return;
	}
	if (st->kind == FV_SLOT_VBMETA && !st->depth &&
	    st->trust == FV_TRUST_UNCHECKED)
		fprintf(stderr,
			"fastverity: %s: warning: the vbmeta is signed (%s, "
			"public key sha1 %s) and checks out against the key "
			"it carries, but its signer was not checked (give "
			"--key=<key.pem>): nothing proves who made the set\n",
			st->path, cli_avb_facts(st->avb).header.algorithm,
			cli_avb_facts(st->avb).header.public_key_sha1);
}

/* ---- a super image ---- */

static json_object *json_part(const struct fv_slot_step *st,
			      const struct fv_super_partition *sp)
{
	json_object *j = json_object_new_object();

	cli_jstr(j, "name", st->name);
	cli_jstr(j, "group", sp->group);
	cli_ju64(j, "size", st->bytes);
	cli_ju64(j, "extents", st->extents);
	return j;
}

static struct fv_super_partition partition_of(const struct printer *p, size_t i)
{
	struct fv_super_entry sp = {.size = sizeof(sp)};

	fv_super_entry(info_of(p->s).super, FV_SUPER_PARTITION, i, &sp);
	return sp.partition;
}

/* A logical partition that checked nothing, or could not be. */
static void super_plain(struct printer *p, const struct fv_slot_step *st)
{
	struct fv_super_partition sp = partition_of(p, st->partition);
	const char *result = st->why == FV_SLOT_WHY_EMPTY       ? "empty"
			     : st->why == FV_SLOT_WHY_NO_FOOTER ? "not_android"
								: "error";

	if (st->result == FV_SLOT_REFUSED || st->result == FV_SLOT_ERROR)
		refused(p, st);
	if (p->list) {
		json_object *j = json_part(st, &sp);

		cli_jstr(j, "result",
			 st->result == FV_SLOT_SKIPPED   ? result
			 : st->result == FV_SLOT_REFUSED ? "refused"
							 : "error");
		if (st->message[0])
			cli_jstr(j, "error", st->message);
		json_object_array_add(p->list, j);
		return;
	}
	if (st->result != FV_SLOT_SKIPPED)
		return;
	if (st->why == FV_SLOT_WHY_EMPTY)
		printf("%s: empty (no extents): nothing to check.\n", st->name);
	else
		printf("%s: %" PRIu64 " bytes, no AVB footer: not checked.\n",
		       st->name, st->bytes);
}

/* A logical partition's own descriptor checked (or its vbmeta
 * refused): its verdict. */
static void super_checked(struct printer *p, const struct fv_slot_step *st,
			  const struct fv_slot_step *part)
{
	struct fv_super_partition sp = partition_of(p, part->partition);
	struct fv_slot_step vb =
		st->kind == FV_SLOT_VBMETA ? *st : step_at(p->s, st->parent);
	const char *alg = cli_avb_facts(vb.avb).header.algorithm;
	const char *sha1 =
		strcmp(alg, "NONE")
			? cli_avb_facts(vb.avb).header.public_key_sha1
			: "";
	const char *shown = !strcmp(alg, "NONE") ? "unsigned" : alg;
	struct cli_counts counts, *c = NULL;
	char words[160];
	json_object *j;
	int code;

	if (st->result == FV_SLOT_REFUSED || st->result == FV_SLOT_ERROR ||
	    st->result == FV_SLOT_MISSING) {
		refused(p, st);
		if (p->list) {
			j = json_part(part, &sp);
			cli_jstr(j, "path", st->path);
			cli_jstr(j, "result",
				 st->result == FV_SLOT_REFUSED ? "refused"
							       : "error");
			cli_jstr(j, "error", st->message);
			json_object_array_add(p->list, j);
		}
		return;
	}
	p->checked++;
	if (st->result_of) {
		cli_counts_of(st->result_of, &counts);
		c = &counts;
		code = cli_verdict(&counts);
	} else {
		code = st->result == FV_SLOT_OK ? EXIT_OK : EXIT_VERIFY;
	}
	if (code)
		p->bad = 1;
	if (p->list) {
		j = json_part(part, &sp);
		cli_jstr(j, "path", st->path);
		cli_jstr(j, "algorithm", alg);
		if (c)
			cli_jset(j, "public_key_sha1",
				 sha1[0] ? cli_json_str(sha1) : NULL);
		cli_jstr(j, "trust", cli_trust_word(vb.trust));
		if (c)
			cli_jstr(j, "root_hash",
				 cli_avb_facts(vb.avb).root_hex);
		cli_jstr(j, "result",
			 c      ? cli_verdict_word(code)
			 : code ? "corrupted"
				: cli_verdict_word(0));
		if (c) {
			cli_json_add_counts(j, c);
			cli_jset(j, "failures", p->failures);
			p->failures = NULL;
		}
		json_object_array_add(p->list, j);
		return;
	}
	if (!c) {
		if (code)
			fprintf(stderr, "fastverity: %s\n", st->message);
		printf("%s: %" PRIu64 " bytes in %u extent%s, Android image "
		       "with a hash footer (%s): %s.\n",
		       part->name, part->bytes, part->extents,
		       cli_plural(part->extents), shown,
		       code ? "FAILED" : "verified");
		return;
	}
	if (code == EXIT_VERIFY)
		cli_print_counts(c);
	if (!c->root_matches)
		fprintf(stderr, "Verification of root hash failed.\n");
	printf("%s: %" PRIu64 " bytes in %u extent%s, Android image "
	       "(%s%s%s%s): %s.\n",
	       part->name, part->bytes, part->extents,
	       cli_plural(part->extents), shown, sha1[0] ? ", key sha1 " : "",
	       sha1,
	       vb.trust == FV_TRUST_UNCHECKED ? ", signer not checked"
	       : vb.trust == FV_TRUST_CHECK   ? ", signed by --key"
					      : "",
	       cli_verdict_text(code, c, words, sizeof(words)));
}

/* The partition step a super step belongs to. */
static struct fv_slot_step owner(const fv_slot *s, struct fv_slot_step st)
{
	for (int k = 0;
	     k < 3 && st.kind != FV_SLOT_PARTITION && st.parent != SIZE_MAX;
	     k++)
		st = step_at(s, st.parent);
	return st;
}

static void super_step(struct printer *p, const struct fv_slot_step *st)
{
	if (st->kind == FV_SLOT_PARTITION) {
		if (st->result != FV_SLOT_OK)
			super_plain(p, st);
		return;
	}
	if (st->kind == FV_SLOT_VBMETA) {
		struct fv_slot_step part = owner(p->s, *st);

		if (st->result != FV_SLOT_OK) {
			super_checked(p, st, &part);
			return;
		}
		if (st->trust == FV_TRUST_UNCHECKED)
			fprintf(stderr,
				"fastverity: %s: warning: the vbmeta is signed "
				"(%s, public key sha1 %s) and checks out "
				"against the key it carries, but its signer "
				"was not checked (give --key=<key.pem>): "
				"nothing proves who made it\n",
				st->path,
				cli_avb_facts(st->avb).header.algorithm,
				cli_avb_facts(st->avb).header.public_key_sha1);
		return;
	}
	if (st->kind == FV_SLOT_HASH || st->kind == FV_SLOT_HASHTREE) {
		struct fv_slot_step part = owner(p->s, *st);

		super_checked(p, st, &part);
	}
}

/* ---- the walk ---- */

static void on_step(void *c, const fv_slot *s, size_t i, int done)
{
	struct printer *p = c;
	struct fv_slot_step st = step_at(s, i);

	p->s = s;
	if (!done) {
		/* a check begins: its failures are named by it */
		if (st.kind == FV_SLOT_HASHTREE) {
			struct fv_slot_step part = owner(s, st);

			p->name = p->super ? part.name : st.name;
			p->path = st.path;
			p->partition = p->super ? part.partition : SIZE_MAX;
			if (p->list && !p->failures)
				p->failures = json_object_new_array();
		}
		return;
	}
	if (p->pr && (st.kind == FV_SLOT_HASHTREE || st.kind == FV_SLOT_HASH))
		cli_progress_end(p->pr);
	if (p->super)
		super_step(p, &st);
	else if (st.kind == FV_SLOT_HASH || st.kind == FV_SLOT_HASHTREE)
		vbmeta_partition(p, &st);
	else if (st.kind == FV_SLOT_VBMETA || st.kind == FV_SLOT_CHAIN)
		vbmeta_step(p, &st);
	json_object_put(p->failures);
	p->failures = NULL;
}

/* What the top vbmeta's signature is, in words. */
static void signature_words(const fv_slot *s, char *out, size_t len)
{
	struct fv_slot_step top = step_at(s, 0);
	const char *alg =
		top.avb ? cli_avb_facts(top.avb).header.algorithm : "NONE";

	if (!strcmp(alg, "NONE"))
		snprintf(out, len, "none");
	else if (top.trust == FV_TRUST_CHECK)
		snprintf(out, len, "%s, signed by %s", alg, top.signer);
	else
		snprintf(out, len, "%s, signer not checked", alg);
}

int cli_set_verify(struct cli_opts *o, const char *image, int super)
{
	struct printer p = {
		.o = o, .image = image, .super = super, .partition = SIZE_MAX};
	struct fv_slot_request req = {.size = sizeof(req)};
	const char **names = NULL, **files = NULL;
	const char *one[1] = {o->partition};
	struct cli_progress pr;
	fv_options opts;
	fv_slot *s = NULL;
	char summary[512] = "";
	int r;

	if (o->slot && strcmp(o->slot, "a") && strcmp(o->slot, "b"))
		return cli_error(-EINVAL, "--slot: '%s' is not a or b",
				 o->slot);
	if (o->root_hash_signature)
		return cli_error(-EINVAL,
				 "%s: an Android image carries its own "
				 "signatures; --root-hash-signature does not "
				 "apply",
				 image);
	if ((r = cli_block_devices(o, &names, &files)))
		goto out;
	req.image = image;
	req.container = o->container;
	req.key = o->key;
	req.slot = o->slot;
	req.partitions = o->partition ? one : NULL;
	req.npartitions = o->partition ? 1 : 0;
	req.device_names = names;
	req.device_files = files;
	req.ndevices = o->nblock_devices;
	req.flags = FV_SLOT_CHECK | FV_SLOT_FOLLOW;
	if (cli_run_options(o, &opts, &pr)) {
		r = EXIT_PARAMS;
		goto out;
	}
	/* a set's anchor is --key: --trusted-cert is the wrong kind, which
	 * the walk refuses (docs/trust.md) */
	opts.trusted_certs = (const char *const *)o->trusted_certs;
	opts.ntrusted_certs = o->ntrusted;
	p.pr = &pr;
	if (o->json)
		p.list = json_object_new_array();
	opts.failure = report;
	opts.failure_ctx = &p;
	r = fv_slot_verify(&req, &opts, on_step, &p, &s);
	cli_progress_end(&pr);
	if (r) {
		if (r == -ENODEV && super && o->nblock_devices == 0 &&
		    strstr(fv_last_error(), "split super")) {
			r = cli_lib_error(r);
			fprintf(stderr, "fastverity: give it: --block-device "
					"NAME=FILE\n");
		} else {
			r = cli_lib_error(r);
		}
		goto out;
	}
	for (size_t i = 0; i < info_of(s).notes; i++)
		fprintf(stderr, "fastverity: warning: %s\n",
			info_of(s).note[i]);
	r = p.error     ? p.error
	    : p.bad     ? EXIT_VERIFY
	    : p.missing ? EXIT_NODEV
			: EXIT_OK;
	/* exit 0 says what was checked: nothing, when nothing was */
	if (!r && !p.checked) {
		char sig[256];

		if (super) {
			snprintf(summary, sizeof(summary),
				 "%s: nothing to verify: no partition of "
				 "slot %s with an AVB footer",
				 image,
				 info_of(s).slot[0] ? info_of(s).slot : "0");
		} else {
			struct fv_slot_step top = step_at(s, 0);

			signature_words(s, sig, sizeof(sig));
			snprintf(summary, sizeof(summary),
				 "%s: %s: nothing to verify; signature: %s",
				 image,
				 cli_avb_facts(top.avb).descriptors
					 ? "no hash, hashtree or chain "
					   "descriptor"
					 : "no descriptors",
				 sig);
		}
		if (!o->json)
			printf("%s.\n", summary);
	}
	if (o->json) {
		json_object *j = json_object_new_object();

		cli_jstr(j, "image", image);
		cli_jstr(j, "container", super ? "super" : "avb");
		cli_jstr(j, "result",
			 !r || r == EXIT_VERIFY ? cli_verdict_word(r)
			 : r == EXIT_NODEV      ? "incomplete"
						: "error");
		if (super && info_of(s).slot[0])
			cli_jstr(j, "slot", info_of(s).slot);
		if (summary[0])
			cli_jstr(j, "summary", summary);
		cli_jset(j, "partitions", p.list);
		p.list = NULL;
		cli_json_print(j);
	}
out:
	json_object_put(p.list);
	json_object_put(p.failures);
	fv_slot_free(s);
	cli_block_devices_free(o, names, files);
	return r;
}

int cli_avb_is_set(const char *image)
{
	const fv_avb *av;
	fv_image *img;
	int yes;

	if (cli_avb_shown(image, &img, &av))
		return 0;
	yes = !cli_avb_facts(av).has_footer || !cli_avb_facts(av).has_hashtree;
	fv_image_free(img);
	return yes;
}
