/* An Android super image given to verify, dump or open (docs/android.md,
 * "Factory images and super.img"): its metadata read by the library's
 * fv_super, each logical partition that carries an AVB footer checked as
 * an Android image is, bad blocks named by partition and by their bytes
 * in the partition and in the super image; dump shows what lpdump
 * shows. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/jsonc.h"

#include "cli/avb.h"
#include "cli/errors.h"
#include "cli/json.h"
#include "cli/pair.h"
#include "cli/params.h"
#include "cli/progress.h"
#include "cli/super.h"
#include "cli/text.h"

/* --block-device NAME=FILE split into names and files. */
static int block_devices(const struct cli_opts *o, const char ***names,
			 const char ***files)
{
	size_t n = o->nblock_devices;

	*names = calloc(n + 1, sizeof(**names));
	*files = calloc(n + 1, sizeof(**files));
	if (!*names || !*files)
		return cli_error(-ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		const char *eq = strchr(o->block_devices[i], '=');
		char *name;

		if (!eq || eq == o->block_devices[i] || !eq[1])
			return cli_error(-EINVAL,
					 "--block-device: '%s' is not "
					 "NAME=FILE",
					 o->block_devices[i]);
		if (!(name = strndup(o->block_devices[i],
				     (size_t)(eq - o->block_devices[i]))))
			return cli_error(-ENOMEM, "out of memory");
		(*names)[i] = name;
		(*files)[i] = eq + 1;
	}
	return 0;
}

static void names_free(const struct cli_opts *o, const char **names,
		       const char **files)
{
	for (size_t i = 0; names && i < o->nblock_devices; i++)
		free((char *)names[i]);
	free(names);
	free(files);
}

/* The image opened (its notes said on stderr): 0, or the exit code. */
static int open_super(const struct cli_opts *o, const char *image, fv_super **s)
{
	const char **names = NULL, **files = NULL;
	int r;

	if (o->slot && strcmp(o->slot, "a") && strcmp(o->slot, "b"))
		return cli_error(-EINVAL, "--slot: '%s' is not a or b",
				 o->slot);
	if ((r = block_devices(o, &names, &files))) {
		names_free(o, names, files);
		return r;
	}
	r = fv_super_open(image, names, files, o->nblock_devices, 0, s);
	names_free(o, names, files);
	if (r == -ENODEV) { /* a split super's other image missing */
		r = cli_lib_error(r);
		fprintf(stderr,
			"fastverity: give it: --block-device NAME=FILE\n");
		return r;
	}
	if (r)
		return cli_lib_error(r);
	for (size_t i = 0; i < fv_super_notes(*s); i++)
		fprintf(stderr, "fastverity: warning: %s\n",
			fv_super_note(*s, i));
	return 0;
}

/* Whether partition p is one --partition and --slot ask for. */
static int picked(const struct cli_opts *o, const fv_super *s, size_t i,
		  const struct fv_super_partition *p)
{
	size_t len = strlen(p->name);

	if (o->partition) {
		int k = fv_super_find(s, o->partition, o->slot);

		return k >= 0 && (size_t)k == i;
	}
	if (o->slot)
		return len > 2 && p->name[len - 2] == '_' &&
		       !strcmp(p->name + len - 1, o->slot);
	return 1;
}

/* --partition names one the image has. */
static int check_partition(const struct cli_opts *o, const char *image,
			   const fv_super *s)
{
	if (!o->partition || fv_super_find(s, o->partition, o->slot) >= 0)
		return 0;
	return cli_error(-ENOENT, "%s: no logical partition %s%s%s", image,
			 o->partition, o->slot ? "_" : "",
			 o->slot ? o->slot : "");
}

struct super_report {
	const fv_super *s;
	const char *image;
	size_t part;
	const char *name;
	json_object *failures; /* --json */
};

static void report(void *c, enum fv_failure_kind kind, uint64_t block,
		   uint64_t offset, unsigned level)
{
	struct super_report *rep = c;
	struct cli_failure f = {kind, offset, block, level};
	struct fv_super_block_device b = {.size = sizeof(b)};
	uint32_t dev = 0;
	uint64_t at = 0;
	int mapped = !fv_super_offset(rep->s, rep->part, offset, &dev, &at) &&
		     !fv_super_block_device(rep->s, dev, &b);

	cli_progress_clear();
	if (rep->failures) {
		json_object *j = cli_json_failure(&f);

		json_object_object_add(j, "block_device",
				       mapped ? cli_json_str(b.name) : NULL);
		json_object_object_add(j, "device_offset",
				       mapped ? json_object_new_uint64(at)
					      : NULL);
		json_object_array_add(rep->failures, j);
		return;
	}
	if (mapped)
		fprintf(stderr,
			"%s at position %" PRIu64 " (partition %s; %s byte "
			"%" PRIu64 ").\n",
			cli_failure_words(kind), offset, rep->name,
			dev ? b.file : rep->image, at);
	else
		fprintf(stderr, "%s at position %" PRIu64 " (partition %s).\n",
			cli_failure_words(kind), offset, rep->name);
}

static json_object *json_part(const struct fv_super_partition *p)
{
	json_object *j = json_object_new_object();

	json_object_object_add(j, "name", cli_json_str(p->name));
	json_object_object_add(j, "group", cli_json_str(p->group));
	json_object_object_add(j, "size", json_object_new_uint64(p->bytes));
	json_object_object_add(j, "extents",
			       json_object_new_uint64(p->num_extents));
	return j;
}

/* A logical partition whose own descriptor is a hash descriptor (a hash
 * footer): its digest checked; the exit code (printed). Frees a, takes
 * j. */
static int check_hash(const struct cli_opts *o, const char *path,
		      const struct fv_super_partition *p, fv_avb *a,
		      json_object *j, json_object *list)
{
	enum fv_trust trust;
	size_t i;
	int r = 0;

	for (i = 0; i < fv_avb_descriptors(a) &&
		    fv_avb_descriptor_tag(a, i, NULL) != FV_AVB_HASH;
	     i++)
		;
	if (i == fv_avb_descriptors(a)) {
		json_object_put(j);
		fv_avb_free(a);
		return cli_error(-EINVAL,
				 "%s: the vbmeta has neither a hashtree nor a "
				 "hash descriptor",
				 path);
	}
	if ((r = cli_avb_judge(o, path, &a, &trust))) {
		json_object_put(j);
		return r;
	}
	r = fv_avb_check_hash(a, i, path);
	if (r && r != -EPERM) {
		json_object_put(j);
		fv_avb_free(a);
		return cli_lib_error(r);
	}
	if (j) {
		json_object_object_add(j, "path", cli_json_str(path));
		json_object_object_add(j, "algorithm",
				       cli_json_str(fv_avb_algorithm(a)));
		json_object_object_add(j, "trust",
				       cli_json_str(cli_trust_word(trust)));
		json_object_object_add(
			j, "result",
			cli_json_str(r ? "corrupted" : cli_verdict_word(0)));
		json_object_array_add(list, j);
	} else {
		if (r)
			fprintf(stderr, "fastverity: %s\n", fv_last_error());
		printf("%s: %" PRIu64 " bytes in %u extent%s, Android image "
		       "with a hash footer (%s): %s.\n",
		       p->name, p->bytes, p->num_extents,
		       cli_plural(p->num_extents),
		       !strcmp(fv_avb_algorithm(a), "NONE")
			       ? "unsigned"
			       : fv_avb_algorithm(a),
		       r ? "FAILED" : "verified");
	}
	fv_avb_free(a);
	return r ? EXIT_VERIFY : EXIT_OK;
}

/* Partition i checked: 0, or the exit code (printed). */
static int verify_one(struct cli_opts *o, const char *image, const fv_super *s,
		      size_t i, json_object *list)
{
	struct fv_super_partition p = {.size = sizeof(p)};
	struct super_report rep = {s, image, i, NULL, NULL};
	struct cli_counts counts;
	char verdict[160];
	struct cli_progress pr;
	struct cli_pair cp;
	fv_options *opts = NULL;
	fv_result *res = NULL;
	char *path = NULL;
	json_object *j = NULL;
	size_t len;
	fv_avb *a;
	int r, code;

	memset(&cp, 0, sizeof(cp));
	fv_super_partition(s, i, &p);
	rep.name = p.name;
	if (list)
		j = json_part(&p);
	if (!p.num_extents) {
		if (j) {
			json_object_object_add(j, "result",
					       cli_json_str("empty"));
			json_object_array_add(list, j);
		} else {
			printf("%s: empty (no extents): nothing to check.\n",
			       p.name);
		}
		return 0;
	}
	r = fv_super_avb(s, i, &a);
	if (r == -ENOMSG) {
		if (j) {
			json_object_object_add(j, "result",
					       cli_json_str("not_android"));
			json_object_array_add(list, j);
		} else {
			printf("%s: %" PRIu64 " bytes, no AVB footer: not "
			       "checked.\n",
			       p.name, p.bytes);
		}
		return 0;
	}
	len = strlen(image) + strlen(p.name) + 2;
	if (!r && !(path = malloc(len)))
		r = -ENOMEM;
	if (r) {
		json_object_put(j);
		fv_avb_free(a);
		return cli_lib_error(r);
	}
	snprintf(path, len, "%s/%s", image, p.name);
	if (!fv_avb_has_hashtree(a)) {
		/* a partition with a hash footer: its digest */
		r = check_hash(o, path, &p, a, j, list);
		j = NULL;
		goto out;
	}
	if ((r = cli_pair_avb_of(o, path, a, &cp)))
		goto out;
	if (cli_run_options(o, &opts, &pr)) {
		r = EXIT_PARAMS;
		goto out;
	}
	if (j)
		rep.failures = json_object_new_array();
	fv_options_set_failure_fn(opts, report, &rep);
	r = fv_pair_verify(cp.fp, opts, &res);
	cli_progress_end(&pr);
	if (r) {
		r = cli_lib_error(r);
		goto out;
	}
	cli_counts_of(res, &counts);
	code = cli_verdict(&counts);
	if (j) {
		json_object_object_add(j, "path", cli_json_str(path));
		json_object_object_add(j, "algorithm",
				       cli_json_str(cp.avb_algorithm));
		json_object_object_add(j, "public_key_sha1",
				       cp.avb_key_sha1[0]
					       ? cli_json_str(cp.avb_key_sha1)
					       : NULL);
		json_object_object_add(j, "trust",
				       cli_json_str(cli_trust_word(cp.trust)));
		json_object_object_add(j, "root_hash",
				       cli_json_str(fv_pair_root_hex(cp.fp)));
		json_object_object_add(j, "result",
				       cli_json_str(cli_verdict_word(code)));
		cli_json_add_counts(j, &counts);
		json_object_object_add(j, "failures", rep.failures);
		rep.failures = NULL;
		json_object_array_add(list, j);
		j = NULL;
	} else {
		if (code == EXIT_VERIFY)
			cli_print_counts(&counts);
		if (!counts.root_matches)
			fprintf(stderr, "Verification of root hash failed.\n");
		printf("%s: %" PRIu64 " bytes in %u extent%s, Android image "
		       "(%s%s%s%s): %s.\n",
		       p.name, p.bytes, p.num_extents,
		       cli_plural(p.num_extents),
		       !strcmp(cp.avb_algorithm, "NONE") ? "unsigned"
							 : cp.avb_algorithm,
		       cp.avb_key_sha1[0] ? ", key sha1 " : "", cp.avb_key_sha1,
		       cp.trust == FV_TRUST_UNCHECKED ? ", signer not checked"
		       : cp.trust == FV_TRUST_CHECK   ? ", signed by --key"
						      : "",
		       cli_verdict_text(code, &counts, verdict,
					sizeof(verdict)));
	}
	r = code;
out:
	json_object_put(rep.failures);
	json_object_put(j);
	fv_result_free(res);
	fv_options_free(opts);
	cli_pair_free(&cp);
	free(path);
	return r;
}

int cli_super_verify(struct cli_opts *o, const char *image)
{
	json_object *list = o->json ? json_object_new_array() : NULL;
	int r, worst = EXIT_OK;
	fv_super *s;

	if ((r = open_super(o, image, &s))) {
		json_object_put(list);
		return r;
	}
	if ((r = check_partition(o, image, s)))
		goto out;
	for (size_t i = 0; i < fv_super_partitions(s); i++) {
		struct fv_super_partition p = {.size = sizeof(p)};

		fv_super_partition(s, i, &p);
		if (!picked(o, s, i, &p))
			continue;
		r = verify_one(o, image, s, i, list);
		/* bad blocks go on to the next partition; anything else
		 * stops */
		if (r && r != EXIT_VERIFY)
			goto out;
		if (r)
			worst = r;
	}
	r = worst;
	if (o->json) {
		json_object *j = json_object_new_object();

		json_object_object_add(j, "image", cli_json_str(image));
		json_object_object_add(j, "container", cli_json_str("super"));
		json_object_object_add(j, "result",
				       cli_json_str(cli_verdict_word(r)));
		json_object_object_add(j, "partitions", list);
		list = NULL;
		cli_json_print(j);
	}
out:
	json_object_put(list);
	fv_super_free(s);
	return r;
}

/* ---- dump: what lpdump shows ---- */

static void attributes_text(uint32_t a, char *out, size_t len)
{
	static const char *const words[] = {"readonly", "slot-suffixed",
					    "updated", "disabled"};
	size_t at = 0;

	out[0] = '\0';
	for (unsigned b = 0; b < 4; b++)
		if (a & (1u << b))
			at += (size_t)snprintf(out + at, len - at, "%s%s",
					       at ? "," : "", words[b]);
	if (!at)
		snprintf(out, len, "none");
}

static const char *header_flags_text(uint32_t f)
{
	switch (f & 3) {
	case 0:
		return "none";
	case 1:
		return "virtual_ab_device";
	case 2:
		return "overlays_active";
	default:
		return "virtual_ab_device,overlays_active";
	}
}

/* A linear extent and the partition it belongs to, for the layout. */
struct placed {
	struct fv_super_extent e;
	const char *owner;
};

static int by_target(const void *x, const void *y)
{
	const struct fv_super_extent *a = &((const struct placed *)x)->e,
				     *b = &((const struct placed *)y)->e;

	if (a->source != b->source)
		return a->source < b->source ? -1 : 1;
	return a->target < b->target ? -1 : a->target > b->target;
}

static void dump_text(const fv_super *s, const struct fv_super_info *in)
{
	size_t n = 0;
	struct placed *laid = calloc(fv_super_extents(s) + 1, sizeof(*laid));
	char attrs[64];

	if (in->metadata_slot_count > 1)
		printf("Slot %u:\n", in->slot);
	printf("Metadata version: %u.%u\n", in->major, in->minor);
	printf("Metadata size: %u bytes\n", in->header_size + in->tables_size);
	printf("Metadata max size: %u bytes\n", in->metadata_max_size);
	printf("Metadata slot count: %u\n", in->metadata_slot_count);
	printf("Header flags: %s\n", header_flags_text(in->header_flags));
	printf("Partition table:\n------------------------\n");
	for (size_t i = 0; i < fv_super_partitions(s); i++) {
		struct fv_super_partition p = {.size = sizeof(p)};
		uint64_t first = 0;

		fv_super_partition(s, i, &p);
		attributes_text(p.attributes, attrs, sizeof(attrs));
		printf("  Name: %s\n  Group: %s\n  Attributes: %s\n  "
		       "Extents:\n",
		       p.name, p.group, attrs);
		for (uint32_t k = 0; k < p.num_extents; k++) {
			struct fv_super_extent e = {.size = sizeof(e)};

			fv_super_extent(s, p.first_extent + k, &e);
			printf("    %" PRIu64 " .. %" PRIu64 " ", first,
			       first + e.sectors - 1);
			first += e.sectors;
			if (e.type == 0)
				printf("linear %s %" PRIu64 "\n", e.device,
				       e.target);
			else
				printf("zero\n");
			if (e.type == 0 && laid)
				laid[n++] = (struct placed){e, p.name};
		}
		printf("------------------------\n");
	}
	/* the linear extents by their place on the block devices */
	printf("Super partition layout:\n------------------------\n");
	if (laid)
		qsort(laid, n, sizeof(*laid), by_target);
	for (size_t k = 0; k < n; k++)
		printf("%s: %" PRIu64 " .. %" PRIu64 ": %s (%" PRIu64
		       " sectors)\n",
		       laid[k].e.device, laid[k].e.target,
		       laid[k].e.target + laid[k].e.sectors, laid[k].owner,
		       laid[k].e.sectors);
	printf("------------------------\n");
	printf("Block device table:\n------------------------\n");
	for (size_t i = 0; i < fv_super_block_devices(s); i++) {
		struct fv_super_block_device b = {.size = sizeof(b)};

		fv_super_block_device(s, i, &b);
		printf("  Partition name: %s\n  First sector: %" PRIu64
		       "\n  Size: %" PRIu64 " bytes\n  Flags: %s\n"
		       "------------------------\n",
		       b.name, b.first_sector, b.bytes,
		       b.flags & 1 ? "slot-suffixed" : "none");
	}
	printf("Group table:\n------------------------\n");
	for (size_t i = 0; i < fv_super_groups(s); i++) {
		struct fv_super_group g = {.size = sizeof(g)};

		fv_super_group(s, i, &g);
		printf("  Name: %s\n  Maximum size: %" PRIu64
		       " bytes\n  Flags: %s\n------------------------\n",
		       g.name, g.max_size,
		       g.flags & 1 ? "slot-suffixed" : "none");
	}
	free(laid);
}

static void dump_json(const char *image, const fv_super *s,
		      const struct fv_super_info *in)
{
	json_object *j = json_object_new_object(), *m, *list;
	char attrs[64];

	json_object_object_add(j, "image", cli_json_str(image));
	json_object_object_add(j, "container", cli_json_str("super"));
	json_object_object_add(j, "sparse",
			       json_object_new_boolean(in->sparse));
	m = json_object_new_object();
	json_object_object_add(m, "slot", json_object_new_uint64(in->slot));
	json_object_object_add(m, "version_major",
			       json_object_new_uint64(in->major));
	json_object_object_add(m, "version_minor",
			       json_object_new_uint64(in->minor));
	json_object_object_add(
		m, "size",
		json_object_new_uint64(in->header_size + in->tables_size));
	json_object_object_add(m, "max_size",
			       json_object_new_uint64(in->metadata_max_size));
	json_object_object_add(m, "slot_count",
			       json_object_new_uint64(in->metadata_slot_count));
	json_object_object_add(m, "logical_block_size",
			       json_object_new_uint64(in->logical_block_size));
	json_object_object_add(
		m, "header_flags",
		cli_json_str(header_flags_text(in->header_flags)));
	json_object_object_add(m, "geometry_from_backup",
			       json_object_new_boolean(in->geometry_backup));
	json_object_object_add(m, "metadata_from_backup",
			       json_object_new_boolean(in->metadata_backup));
	json_object_object_add(j, "metadata", m);
	list = json_object_new_array();
	for (size_t i = 0; i < fv_super_partitions(s); i++) {
		struct fv_super_partition p = {.size = sizeof(p)};
		json_object *pj, *ex = json_object_new_array();
		uint64_t first = 0;

		fv_super_partition(s, i, &p);
		pj = json_part(&p);
		attributes_text(p.attributes, attrs, sizeof(attrs));
		json_object_object_add(pj, "attributes", cli_json_str(attrs));
		for (uint32_t k = 0; k < p.num_extents; k++) {
			struct fv_super_extent e = {.size = sizeof(e)};
			json_object *ej = json_object_new_object();

			fv_super_extent(s, p.first_extent + k, &e);
			json_object_object_add(ej, "first_sector",
					       json_object_new_uint64(first));
			json_object_object_add(
				ej, "sectors",
				json_object_new_uint64(e.sectors));
			json_object_object_add(
				ej, "type",
				cli_json_str(e.type ? "zero" : "linear"));
			json_object_object_add(ej, "block_device",
					       e.type ? NULL
						      : cli_json_str(e.device));
			json_object_object_add(
				ej, "target_sector",
				e.type ? NULL
				       : json_object_new_uint64(e.target));
			json_object_array_add(ex, ej);
			first += e.sectors;
		}
		json_object_object_del(pj, "extents");
		json_object_object_add(pj, "extents", ex);
		json_object_array_add(list, pj);
	}
	json_object_object_add(j, "partitions", list);
	list = json_object_new_array();
	for (size_t i = 0; i < fv_super_groups(s); i++) {
		struct fv_super_group g = {.size = sizeof(g)};
		json_object *gj = json_object_new_object();

		fv_super_group(s, i, &g);
		json_object_object_add(gj, "name", cli_json_str(g.name));
		json_object_object_add(gj, "maximum_size",
				       json_object_new_uint64(g.max_size));
		json_object_object_add(
			gj, "flags",
			cli_json_str(g.flags & 1 ? "slot-suffixed" : "none"));
		json_object_array_add(list, gj);
	}
	json_object_object_add(j, "groups", list);
	list = json_object_new_array();
	for (size_t i = 0; i < fv_super_block_devices(s); i++) {
		struct fv_super_block_device b = {.size = sizeof(b)};
		json_object *bj = json_object_new_object();

		fv_super_block_device(s, i, &b);
		json_object_object_add(bj, "name", cli_json_str(b.name));
		json_object_object_add(bj, "file", cli_json_str(b.file));
		json_object_object_add(bj, "first_sector",
				       json_object_new_uint64(b.first_sector));
		json_object_object_add(bj, "size",
				       json_object_new_uint64(b.bytes));
		json_object_object_add(bj, "alignment",
				       json_object_new_uint64(b.alignment));
		json_object_object_add(
			bj, "alignment_offset",
			json_object_new_uint64(b.alignment_offset));
		json_object_object_add(
			bj, "flags",
			cli_json_str(b.flags & 1 ? "slot-suffixed" : "none"));
		json_object_array_add(list, bj);
	}
	json_object_object_add(j, "block_devices", list);
	cli_json_print(j);
}

int cli_super_dump(struct cli_opts *o, const char *image)
{
	struct fv_super_info in = {.size = sizeof(in)};
	fv_super *s;
	int r;

	if (o->partition || o->slot)
		return cli_error(-EINVAL,
				 "%s: dump shows the whole super image; a "
				 "logical partition is dumped as %s/NAME",
				 image, image);
	if ((r = open_super(o, image, &s)))
		return r;
	fv_super_info(s, &in);
	if (o->json)
		dump_json(image, s, &in);
	else
		dump_text(s, &in);
	fv_super_free(s);
	return EXIT_OK;
}

int cli_super_open(struct cli_opts *o, const char *image, const char *name)
{
	struct fv_super_partition p = {.size = sizeof(p)};
	struct cli_pair cp;
	fv_super *s;
	fv_avb *a;
	char *path;
	size_t len;
	int r, i;

	if (!o->partition)
		return cli_error(-EINVAL,
				 "%s: an Android super image: name the logical "
				 "partition to open (--partition=system_a)",
				 image);
	if ((r = open_super(o, image, &s)))
		return r;
	if ((i = fv_super_find(s, o->partition, o->slot)) < 0) {
		r = check_partition(o, image, s);
		fv_super_free(s);
		return r;
	}
	memset(&cp, 0, sizeof(cp));
	/* the partition's Android image, read through the super image's
	 * files (which stay open until the device holds them) */
	if ((r = fv_super_avb(s, (size_t)i, &a))) {
		fv_super_free(s);
		return cli_lib_error(r);
	}
	fv_super_partition(s, (size_t)i, &p);
	len = strlen(image) + strlen(p.name) + 2;
	if (!(path = malloc(len))) {
		fv_avb_free(a);
		fv_super_free(s);
		return cli_error(-ENOMEM, "out of memory");
	}
	snprintf(path, len, "%s/%s", image, p.name);
	r = cli_open_pair(o, name, &cp, cli_pair_avb_of(o, path, a, &cp));
	free(path);
	fv_super_free(s);
	return r;
}

int cli_super_refuse(const struct cli_opts *o, const char *image)
{
	return cli_error(-EINVAL,
			 "%s: an Android super image: %s one logical "
			 "partition, named as %s/NAME (fastverity dump %s "
			 "lists them)",
			 image, o->action, image, image);
}
