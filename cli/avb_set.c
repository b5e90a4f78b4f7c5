/* A firmware set given as its top vbmeta image (fastverity verify
 * vbmeta.img; docs/android.md, "Factory images and super.img"): every
 * chain followed, every hash and hashtree descriptor checked over its
 * partition, whether a file beside (<name>.img) or a logical partition
 * of super.img beside, one verdict per partition. The trust rules are
 * the Android images' (docs/trust.md): the top vbmeta's signer checked
 * against --key or said not to be, each chained vbmeta checked against
 * the key its chain descriptor pins. */
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
#include "cli/text.h"

#define SET_DEPTH_MAX 32

struct set {
	struct cli_opts *o;
	json_object *list; /* --json: the partitions */
	int worst;         /* EXIT_OK or EXIT_VERIFY */
	int missing;       /* a partition's image not found */
};

struct failures {
	const char *name, *path;
	json_object *list;
};

static void report(void *c, enum fv_failure_kind kind, uint64_t block,
		   uint64_t offset, unsigned level)
{
	struct failures *f = c;
	struct cli_failure x = {kind, offset, block, level};

	cli_progress_clear();
	if (f->list) {
		json_object_array_add(f->list, cli_json_failure(&x));
		return;
	}
	fprintf(stderr, "%s at position %" PRIu64 " (partition %s, %s).\n",
		cli_failure_words(kind), offset, f->name, f->path);
}

void *cli_avb_partition_json(const char *name, const char *kind,
			     const char *path, const struct cli_avb_vouch *v,
			     const char *result)
{
	json_object *j = json_object_new_object();

	json_object_object_add(j, "name", cli_json_str(name));
	json_object_object_add(j, "descriptor", cli_json_str(kind));
	json_object_object_add(j, "path", cli_json_str(path));
	json_object_object_add(j, "trust",
			       cli_json_str(cli_trust_word(v->trust)));
	json_object_object_add(j, "vbmeta", cli_json_str(v->vbmeta));
	json_object_object_add(j, "algorithm", cli_json_str(v->algorithm));
	json_object_object_add(j, "public_key_sha1",
			       v->key_sha1[0] ? cli_json_str(v->key_sha1)
					      : NULL);
	json_object_object_add(j, "vouched_by", cli_json_str(v->words));
	json_object_object_add(j, "result", cli_json_str(result));
	return j;
}

static void verdict(struct set *st, const char *name, const char *kind,
		    const char *path, const struct cli_avb_vouch *v,
		    const struct cli_counts *counts, int code,
		    json_object *failures)
{
	char words[160];

	if (code == EXIT_VERIFY)
		st->worst = EXIT_VERIFY;
	if (code == EXIT_NODEV) {
		/* no image of it: said, and the rest checked */
		st->missing = 1;
		if (st->list) {
			json_object *j = json_object_new_object();

			json_object_object_add(j, "name", cli_json_str(name));
			json_object_object_add(j, "descriptor",
					       cli_json_str(kind));
			json_object_object_add(j, "path", cli_json_str(path));
			json_object_object_add(j, "result",
					       cli_json_str("missing"));
			json_object_array_add(st->list, j);
		} else {
			printf("%s: %s of %s: missing (no such file, and no "
			       "super.img beside holding it).\n",
			       name, kind, path);
		}
		return;
	}
	if (st->list) {
		json_object *j = cli_avb_partition_json(name, kind, path, v,
							cli_verdict_word(code));

		if (counts)
			cli_json_add_counts(j, counts);
		json_object_object_add(j, "failures", failures);
		json_object_array_add(st->list, j);
		return;
	}
	json_object_put(failures);
	printf("%s: %s of %s, %s: %s.\n", name, kind, path, v->words,
	       cli_verdict_text(code, counts, words, sizeof(words)));
}

/* Hashtree descriptor i over path. */
static int check_tree(struct set *st, const fv_avb *av, size_t i,
		      const char *name, const char *path,
		      const struct cli_avb_vouch *v)
{
	struct failures f = {name, path, NULL};
	struct cli_counts counts;
	struct cli_progress pr;
	fv_options *opts = NULL;
	fv_result *res = NULL;
	fv_pair *fp = NULL;
	int r;

	if ((r = fv_avb_descriptor_pair(av, i, path, &fp))) {
		if (r != -ENODEV)
			return cli_lib_error(r);
		verdict(st, name, "hashtree", path, v, NULL, EXIT_NODEV, NULL);
		return 0;
	}
	if (cli_run_options(st->o, &opts, &pr)) {
		fv_pair_free(fp);
		return EXIT_PARAMS;
	}
	if (st->list)
		f.list = json_object_new_array();
	fv_options_set_failure_fn(opts, report, &f);
	r = fv_pair_verify(fp, opts, &res);
	cli_progress_end(&pr);
	fv_options_free(opts);
	fv_pair_free(fp);
	if (r) {
		json_object_put(f.list);
		return cli_lib_error(r);
	}
	cli_counts_of(res, &counts);
	fv_result_free(res);
	if (!st->list) {
		if (cli_verdict(&counts) == EXIT_VERIFY)
			cli_print_counts(&counts);
		if (!counts.root_matches)
			fprintf(stderr, "Verification of root hash failed.\n");
	}
	verdict(st, name, "hashtree", path, v, &counts, cli_verdict(&counts),
		f.list);
	return 0;
}

static int walk(struct set *st, const char *image,
		const struct fv_avb_chain_partition *pin, const char *pinner,
		enum fv_trust parent, int depth);

/* The vbmeta judged: its own signature, then --key (the top one) or
 * the key its chain pins. 0 and *v, or the exit code (printed). */
static int judge(struct set *st, const char *image, fv_avb *av,
		 const struct fv_avb_chain_partition *pin, const char *pinner,
		 enum fv_trust parent, struct cli_avb_vouch *v)
{
	const char *alg = fv_avb_algorithm(av);
	int unsigned_ = !strcmp(alg, "NONE"), r;

	v->vbmeta = image;
	snprintf(v->algorithm, sizeof(v->algorithm), "%s", alg);
	snprintf(v->key_sha1, sizeof(v->key_sha1), "%s", fv_avb_key_sha1(av));
	if ((r = fv_avb_check_signature(av)) == -ENOSYS)
		return cli_lib_error(r); /* OpenSSL not there: nothing checked */
	if (r)
		return cli_error(r,
				 "%s: the vbmeta's signature (%s) does not "
				 "hold: %s",
				 image, alg, fv_last_error());
	if (pin) {
		const char *name =
			CLI_NAME(pin->partition_name, pin->partition_name_len);

		if (unsigned_)
			return cli_error(-EPERM,
					 "%s: the vbmeta of chained partition "
					 "%s is not signed, and %s pins a "
					 "key: nothing proves who made it",
					 image, name, pinner);
		if ((r = fv_avb_check_key_blob(av, pin->public_key,
					       pin->public_key_len)))
			return r == -EPERM
				       ? cli_error(r,
						   "%s: signed by another key "
						   "(sha1 %s) than the one %s "
						   "pins for %s (sha1 %s)",
						   image, fv_avb_key_sha1(av),
						   pinner, name,
						   pin->public_key_sha1)
				       : cli_lib_error(r);
		v->trust = parent == FV_TRUST_CHECK ? FV_TRUST_CHECK
						    : FV_TRUST_UNCHECKED;
		snprintf(v->words, sizeof(v->words),
			 "vbmeta %s signed by the key %s pins%s", image, pinner,
			 v->trust == FV_TRUST_CHECK ? "" : " (not checked)");
		return 0;
	}
	if (unsigned_) {
		if (st->o->key)
			return cli_error(-EPERM,
					 "%s: the vbmeta is not signed: --key "
					 "proves nothing about it",
					 image);
		v->trust = FV_TRUST_UNSIGNED;
		snprintf(v->words, sizeof(v->words), "vbmeta %s unsigned",
			 image);
		return 0;
	}
	if (st->o->key) {
		if ((r = fv_avb_check_key(av, st->o->key)))
			return r == -EPERM
				       ? cli_error(r,
						   "%s: the vbmeta is signed "
						   "by another key (public key "
						   "sha1 %s), not by %s",
						   image, fv_avb_key_sha1(av),
						   st->o->key)
				       : cli_lib_error(r);
		v->trust = FV_TRUST_CHECK;
		snprintf(v->words, sizeof(v->words), "vbmeta %s signed by %s",
			 image, st->o->key);
		return 0;
	}
	v->trust = FV_TRUST_UNCHECKED;
	snprintf(v->words, sizeof(v->words),
		 "vbmeta %s signed, signer not checked", image);
	fprintf(stderr,
		"fastverity: %s: warning: the vbmeta is signed (%s, public "
		"key sha1 %s) and checks out against the key it carries, "
		"but its signer was not checked (give --key=<key.pem>): "
		"nothing proves who made the set\n",
		image, alg, fv_avb_key_sha1(av));
	return 0;
}

/* Descriptor i of av (read from image, vouched for by v). */
static int descriptor(struct set *st, const char *image, const fv_avb *av,
		      size_t i, const struct cli_avb_vouch *v, int depth)
{
	uint64_t tag = fv_avb_descriptor_tag(av, i, NULL);
	char *path = NULL, name[CLI_NAME_MAX];
	int r;

	if (tag != FV_AVB_HASHTREE && tag != FV_AVB_HASH &&
	    tag != FV_AVB_CHAIN_PARTITION)
		return 0;
	if ((r = fv_avb_described_image(av, i, &path)))
		return cli_lib_error(r);
	if (tag == FV_AVB_CHAIN_PARTITION) {
		struct fv_avb_chain_partition c = {.size = sizeof(c)};

		fv_avb_chain_partition(av, i, &c);
		r = walk(st, path, &c, image, v->trust, depth + 1);
		if (r == -ENODEV) {
			verdict(st,
				CLI_NAME(c.partition_name,
					 c.partition_name_len),
				"chained vbmeta", path, v, NULL, EXIT_NODEV,
				NULL);
			r = 0;
		}
	} else if (tag == FV_AVB_HASH) {
		struct fv_avb_hash h = {.size = sizeof(h)};

		fv_avb_hash(av, i, &h);
		snprintf(name, sizeof(name), "%s",
			 CLI_NAME(h.partition_name, h.partition_name_len));
		r = fv_avb_check_hash(av, i, path);
		if (r == -ENODEV) {
			verdict(st, name, "hash", path, v, NULL, EXIT_NODEV,
				NULL);
			r = 0;
		} else if (r == -EPERM) {
			if (!st->list)
				fprintf(stderr, "fastverity: %s\n",
					fv_last_error());
			verdict(st, name, "hash", path, v, NULL, EXIT_VERIFY,
				NULL);
			r = 0;
		} else if (r) {
			r = cli_lib_error(r);
		} else {
			verdict(st, name, "hash", path, v, NULL, EXIT_OK, NULL);
		}
	} else {
		struct fv_avb_hashtree t = {.size = sizeof(t)};

		fv_avb_hashtree(av, i, &t);
		snprintf(name, sizeof(name), "%s",
			 CLI_NAME(t.partition_name, t.partition_name_len));
		r = check_tree(st, av, i, name, path, v);
	}
	fv_free(path);
	return r;
}

static int walk(struct set *st, const char *image,
		const struct fv_avb_chain_partition *pin, const char *pinner,
		enum fv_trust parent, int depth)
{
	struct cli_avb_vouch v;
	fv_avb *av;
	int r;

	if (depth > SET_DEPTH_MAX)
		return cli_error(-ELOOP,
				 "%s: chained more than %d deep (a loop of "
				 "chains?)",
				 image, SET_DEPTH_MAX);
	if ((r = fv_avb_show(image, &av)))
		return r == -ENODEV && depth ? r : cli_lib_error(r);
	if (!(r = judge(st, image, av, pin, pinner, parent, &v)))
		for (size_t i = 0; !r && i < fv_avb_descriptors(av); i++)
			r = descriptor(st, image, av, i, &v, depth);
	fv_avb_free(av);
	return r;
}

int cli_avb_set_verify(struct cli_opts *o, const char *image)
{
	struct set st = {o, o->json ? json_object_new_array() : NULL, EXIT_OK,
			 0};
	int r = walk(&st, image, NULL, NULL, FV_TRUST_UNSIGNED, 0);

	if (!r)
		r = st.worst ? st.worst : st.missing ? EXIT_NODEV : EXIT_OK;
	if (!r || r == EXIT_VERIFY || (r == EXIT_NODEV && st.missing)) {
		if (o->json) {
			json_object *j = json_object_new_object();

			json_object_object_add(j, "image", cli_json_str(image));
			json_object_object_add(j, "container",
					       cli_json_str("avb"));
			json_object_object_add(
				j, "result",
				cli_json_str(r == EXIT_NODEV
						     ? "incomplete"
						     : cli_verdict_word(r)));
			json_object_object_add(j, "partitions", st.list);
			st.list = NULL;
			cli_json_print(j);
		}
	}
	json_object_put(st.list);
	return r;
}

int cli_avb_is_set(const char *image)
{
	fv_avb *av;
	int yes;

	if (fv_avb_show(image, &av))
		return 0;
	yes = !fv_avb_has_footer(av);
	fv_avb_free(av);
	return yes;
}
