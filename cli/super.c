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
int cli_block_devices(const struct cli_opts *o, const char ***names,
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

void cli_block_devices_free(const struct cli_opts *o, const char **names,
			    const char **files)
{
	for (size_t i = 0; names && i < o->nblock_devices; i++)
		free((char *)names[i]);
	free(names);
	free(files);
}

/* Entry i of kind of s (i below fv_super_info's count). */
static struct fv_super_entry entry_of(const fv_super *s,
				      enum fv_super_kind kind, size_t i)
{
	struct fv_super_entry e = {.size = sizeof(e)};

	fv_super_entry(s, kind, i, &e);
	return e;
}

/* The image opened for metadata slot slot (its notes said on stderr):
 * 0, or the exit code. */
static int open_slot(const struct cli_opts *o, const char *image, unsigned slot,
		     fv_super **s)
{
	struct fv_super_info in = {.size = sizeof(in)};
	const char **names = NULL, **files = NULL;
	int r;

	if ((r = cli_block_devices(o, &names, &files))) {
		cli_block_devices_free(o, names, files);
		return r;
	}
	r = fv_super_open(image, names, files, o->nblock_devices, slot, s);
	cli_block_devices_free(o, names, files);
	if (r == -ENODEV) { /* a split super's other image missing */
		r = cli_lib_error(r);
		fprintf(stderr,
			"fastverity: give it: --block-device NAME=FILE\n");
		return r;
	}
	if (r)
		return cli_lib_error(r);
	fv_super_info(*s, &in);
	for (size_t i = 0; i < in.notes; i++)
		fprintf(stderr, "fastverity: warning: %s\n",
			entry_of(*s, FV_SUPER_NOTE, i).note);
	return 0;
}

/* The image opened for --slot's metadata slot (a: 0, b: 1; none: 0),
 * as the device booting that slot reads it. */
static int open_super(const struct cli_opts *o, const char *image, fv_super **s)
{
	struct fv_super_info in = {.size = sizeof(in)};
	int r;

	if (o->slot && strcmp(o->slot, "a") && strcmp(o->slot, "b"))
		return cli_error(-EINVAL, "--slot: '%s' is not a or b",
				 o->slot);
	if ((r = open_slot(o, image, 0, s)))
		return r;
	if (!o->slot || !strcmp(o->slot, "a"))
		return 0;
	fv_super_info(*s, &in);
	fv_super_free(*s);
	*s = NULL;
	if (in.metadata_slot_count < 2)
		return cli_error(-EINVAL,
				 "%s: metadata of 1 slot: no slot b (slot b is "
				 "metadata slot 1)",
				 image);
	return open_slot(o, image, 1, s);
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

/* lpdump's words for the header's flags: the two it names, then
 * unknown_flag_bit_N for each other bit set. */
static void header_flags_text(uint32_t f, char *out, size_t len)
{
	static const char *const words[] = {"virtual_ab_device",
					    "overlays_active"};
	size_t at = 0;

	out[0] = '\0';
	for (unsigned b = 0; b < 32 && at < len; b++) {
		if (!(f & (1u << b)))
			continue;
		if (b < 2)
			at += (size_t)snprintf(out + at, len - at, "%s%s",
					       at ? "," : "", words[b]);
		else
			at += (size_t)snprintf(out + at, len - at,
					       "%sunknown_flag_bit_%u",
					       at ? "," : "", b);
	}
	if (!at)
		snprintf(out, len, "none");
}

/* A linear extent and the partition it belongs to, for the layout. */
struct placed {
	struct fv_super_extent e;
	const char *owner;
};

/* lpdump's order: by the block device's name, then the sector */
static int by_target(const void *x, const void *y)
{
	const struct fv_super_extent *a = &((const struct placed *)x)->e,
				     *b = &((const struct placed *)y)->e;
	int c = strcmp(a->device, b->device);

	if (c)
		return c;
	return a->target < b->target ? -1 : a->target > b->target;
}

void cli_super_text(FILE *f, const fv_super *s, const struct fv_super_info *in)
{
	const size_t ne = in->extents;
	size_t n = 0;
	struct placed *laid = calloc(ne + 1, sizeof(*laid));
	char attrs[64], hflags[512];

	if (in->metadata_slot_count > 1)
		fprintf(f, "Slot %u:\n", in->slot);
	fprintf(f, "Metadata version: %u.%u\n", in->major, in->minor);
	fprintf(f, "Metadata size: %u bytes\n",
		in->header_size + in->tables_size);
	fprintf(f, "Metadata max size: %u bytes\n", in->metadata_max_size);
	fprintf(f, "Metadata slot count: %u\n", in->metadata_slot_count);
	header_flags_text(in->header_flags, hflags, sizeof(hflags));
	fprintf(f, "Header flags: %s\n", hflags);
	fprintf(f, "Partition table:\n------------------------\n");
	for (size_t i = 0; i < in->partitions; i++) {
		struct fv_super_partition p =
			entry_of(s, FV_SUPER_PARTITION, i).partition;
		uint64_t first = 0;

		attributes_text(p.attributes, attrs, sizeof(attrs));
		fprintf(f,
			"  Name: %s\n  Group: %s\n  Attributes: %s\n  "
			"Extents:\n",
			CLI_NAME(p.name, strlen(p.name)),
			CLI_NAME(p.group, strlen(p.group)), attrs);
		for (uint32_t k = 0; k < p.num_extents; k++) {
			struct fv_super_extent e =
				entry_of(s, FV_SUPER_EXTENT, p.first_extent + k)
					.extent;

			fprintf(f, "    %" PRIu64 " .. %" PRIu64 " ", first,
				first + e.sectors - 1);
			first += e.sectors;
			if (e.type == 0)
				fprintf(f, "linear %s %" PRIu64 "\n",
					CLI_NAME(e.device, strlen(e.device)),
					e.target);
			else
				fprintf(f, "zero\n");
			/* one place an extent entry (the reader refuses
			 * shared ones; bounded all the same) */
			if (e.type == 0 && laid && n < ne)
				laid[n++] = (struct placed){e, p.name};
		}
		fprintf(f, "------------------------\n");
	}
	/* the linear extents by their place on the block devices */
	fprintf(f, "Super partition layout:\n------------------------\n");
	if (laid)
		qsort(laid, n, sizeof(*laid), by_target);
	for (size_t k = 0; k < n; k++)
		fprintf(f,
			"%s: %" PRIu64 " .. %" PRIu64 ": %s (%" PRIu64
			" sectors)\n",
			CLI_NAME(laid[k].e.device, strlen(laid[k].e.device)),
			laid[k].e.target, laid[k].e.target + laid[k].e.sectors,
			CLI_NAME(laid[k].owner, strlen(laid[k].owner)),
			laid[k].e.sectors);
	fprintf(f, "------------------------\n");
	fprintf(f, "Block device table:\n------------------------\n");
	for (size_t i = 0; i < in->block_devices; i++) {
		struct fv_super_block_device b =
			entry_of(s, FV_SUPER_BLOCK_DEVICE, i).block_device;

		fprintf(f,
			"  Partition name: %s\n  First sector: %" PRIu64
			"\n  Size: %" PRIu64 " bytes\n  Flags: %s\n"
			"------------------------\n",
			CLI_NAME(b.name, strlen(b.name)), b.first_sector,
			b.bytes, b.flags & 1 ? "slot-suffixed" : "none");
	}
	fprintf(f, "Group table:\n------------------------\n");
	for (size_t i = 0; i < in->groups; i++) {
		struct fv_super_group g = entry_of(s, FV_SUPER_GROUP, i).group;

		fprintf(f,
			"  Name: %s\n  Maximum size: %" PRIu64
			" bytes\n  Flags: %s\n------------------------\n",
			CLI_NAME(g.name, strlen(g.name)), g.max_size,
			g.flags & 1 ? "slot-suffixed" : "none");
	}
	free(laid);
}

static json_object *json_part(const struct fv_super_partition *p)
{
	json_object *j = json_object_new_object();

	cli_jstr(j, "name", p->name);
	cli_jstr(j, "group", p->group);
	cli_ju64(j, "size", p->bytes);
	return j;
}

/* The slot s holds as one object: its metadata, partitions, groups and
 * block devices. */
static json_object *dump_json(const fv_super *s, const struct fv_super_info *in)
{
	json_object *j = json_object_new_object(), *m, *list;
	char attrs[64], hflags[512];

	header_flags_text(in->header_flags, hflags, sizeof(hflags));
	m = json_object_new_object();
	cli_ju64(m, "slot", in->slot);
	cli_ju64(m, "version_major", in->major);
	cli_ju64(m, "version_minor", in->minor);
	cli_ju64(m, "size", in->header_size + in->tables_size);
	cli_ju64(m, "max_size", in->metadata_max_size);
	cli_ju64(m, "slot_count", in->metadata_slot_count);
	cli_ju64(m, "logical_block_size", in->logical_block_size);
	cli_jstr(m, "header_flags", hflags);
	cli_jbool(m, "geometry_from_backup", in->geometry_backup);
	cli_jbool(m, "metadata_from_backup", in->metadata_backup);
	cli_jset(j, "metadata", m);
	list = json_object_new_array();
	for (size_t i = 0; i < in->partitions; i++) {
		struct fv_super_partition p =
			entry_of(s, FV_SUPER_PARTITION, i).partition;
		json_object *pj, *ex = json_object_new_array();
		uint64_t first = 0;

		pj = json_part(&p);
		attributes_text(p.attributes, attrs, sizeof(attrs));
		cli_jstr(pj, "attributes", attrs);
		for (uint32_t k = 0; k < p.num_extents; k++) {
			struct fv_super_extent e =
				entry_of(s, FV_SUPER_EXTENT, p.first_extent + k)
					.extent;
			json_object *ej = json_object_new_object();

			cli_ju64(ej, "first_sector", first);
			cli_ju64(ej, "sectors", e.sectors);
			cli_jstr(ej, "type", e.type ? "zero" : "linear");
			cli_jset(ej, "block_device",
				 e.type ? NULL : cli_json_str(e.device));
			cli_jset(ej, "target_sector",
				 e.type ? NULL
					: json_object_new_uint64(e.target));
			json_object_array_add(ex, ej);
			first += e.sectors;
		}
		cli_jset(pj, "extents", ex);
		json_object_array_add(list, pj);
	}
	cli_jset(j, "partitions", list);
	list = json_object_new_array();
	for (size_t i = 0; i < in->groups; i++) {
		struct fv_super_group g = entry_of(s, FV_SUPER_GROUP, i).group;
		json_object *gj = json_object_new_object();

		cli_jstr(gj, "name", g.name);
		cli_ju64(gj, "maximum_size", g.max_size);
		cli_jstr(gj, "flags", g.flags & 1 ? "slot-suffixed" : "none");
		json_object_array_add(list, gj);
	}
	cli_jset(j, "groups", list);
	list = json_object_new_array();
	for (size_t i = 0; i < in->block_devices; i++) {
		struct fv_super_block_device b =
			entry_of(s, FV_SUPER_BLOCK_DEVICE, i).block_device;
		json_object *bj = json_object_new_object();

		cli_jstr(bj, "name", b.name);
		cli_jstr(bj, "file", b.file);
		cli_ju64(bj, "first_sector", b.first_sector);
		cli_ju64(bj, "size", b.bytes);
		cli_ju64(bj, "alignment", b.alignment);
		cli_ju64(bj, "alignment_offset", b.alignment_offset);
		cli_jstr(bj, "flags", b.flags & 1 ? "slot-suffixed" : "none");
		json_object_array_add(list, bj);
	}
	cli_jset(j, "block_devices", list);
	return j;
}

/* The text of metadata slot k of image, into a buffer (to compare one
 * slot with another), and the slot read (*keep); NULL when it cannot be
 * read (said). */
static char *slot_text(const struct cli_opts *o, const char *image, unsigned k,
		       fv_super **keep)
{
	struct fv_super_info in = {.size = sizeof(in)};
	char *buf = NULL;
	size_t len = 0;
	fv_super *s;
	FILE *f;

	*keep = NULL;
	if (open_slot(o, image, k, &s))
		return NULL;
	fv_super_info(s, &in);
	if (!(f = open_memstream(&buf, &len))) {
		fv_super_free(s);
		return NULL;
	}
	cli_super_text(f, s, &in);
	fclose(f);
	*keep = s;
	return buf;
}

int cli_super_dump(struct cli_opts *o, const char *image)
{
	struct fv_super_info in = {.size = sizeof(in)};
	json_object *j = NULL, *others = NULL;
	char *first = NULL;
	size_t first_len = 0;
	fv_super *s;
	int r;

	if ((r = open_super(o, image, &s)))
		return r;
	fv_super_info(s, &in);
	if (o->json) {
		j = dump_json(s, &in);
		cli_jstr(j, "image", image);
		cli_jstr(j, "container", "super");
		cli_jbool(j, "sparse", in.sparse);
	} else {
		cli_super_text(stdout, s, &in);
	}
	/* without --slot, every slot: each other one in full, or said to
	 * hold what slot 0 holds */
	if (!o->slot && in.metadata_slot_count > 1) {
		FILE *f = open_memstream(&first, &first_len);

		if (!f) {
			r = cli_error(-ENOMEM, "out of memory");
			goto out;
		}
		cli_super_text(f, s, &in);
		fclose(f);
		if (j)
			others = json_object_new_array();
		for (unsigned k = 1; k < in.metadata_slot_count; k++) {
			struct fv_super_info ik = {.size = sizeof(ik)};
			fv_super *sk;
			char *text = slot_text(o, image, k, &sk);
			/* the same but for its "Slot N:" line */
			const char *a = strchr(first, '\n');
			const char *b = text ? strchr(text, '\n') : NULL;
			int same = a && b && !strcmp(a, b);

			if (!text) {
				r = EXIT_PARAMS;
				break;
			}
			fv_super_info(sk, &ik);
			if (others) {
				json_object *jk =
					same ? json_object_new_object()
					     : dump_json(sk, &ik);

				cli_ju64(jk, "slot", k);
				if (same)
					cli_ju64(jk, "same_as_slot", 0);
				json_object_array_add(others, jk);
			} else if (same) {
				printf("Slot %u: the same as slot 0.\n", k);
			} else {
				fputs(text, stdout);
			}
			free(text);
			fv_super_free(sk);
		}
		if (j)
			cli_jset(j, "slots", others);
	}
out:
	if (j && !r)
		cli_json_print(j);
	else
		json_object_put(j);
	free(first);
	fv_super_free(s);
	return r;
}

/* --partition's index in s (the slot's NAME_<slot> on an A/B image), or
 * the exit code, said, s freed. */
static int partition_at(const struct cli_opts *o, const char *image,
			fv_super *s, int *i)
{
	int r;

	if ((*i = fv_super_find(s, o->partition, NULL)) >= 0)
		return 0;
	r = cli_error(-ENOENT, "%s: no logical partition %s in slot %s", image,
		      o->partition, o->slot ? o->slot : "a");
	fv_super_free(s);
	return r;
}

int cli_super_open(struct cli_opts *o, const char *image, const char *name)
{
	struct fv_super_partition p;
	fv_options opts;
	struct cli_pair cp;
	fv_super *s;
	fv_image *img;
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
	/* the partition the device maps: NAME_<slot> on an A/B image */
	if ((r = partition_at(o, image, s, &i)))
		return r;
	memset(&cp, 0, sizeof(cp));
	/* the partition's Android image, read through the super image's
	 * files (which stay open until the device holds them), judged by
	 * the library for the anchor given */
	if ((r = cli_anchor_options(o, &opts)) ||
	    (r = fv_super_image(s, (size_t)i, &opts, &img))) {
		fv_super_free(s);
		return r > 0 ? r : cli_lib_error(r);
	}
	p = entry_of(s, FV_SUPER_PARTITION, (size_t)i).partition;
	len = strlen(image) + strlen(p.name) + 2;
	if (!(path = malloc(len))) {
		fv_image_free(img);
		fv_super_free(s);
		return cli_error(-ENOMEM, "out of memory");
	}
	snprintf(path, len, "%s/%s", image, p.name);
	r = cli_open_pair(o, name, &cp, cli_pair_avb_of(o, path, img, &cp));
	free(path);
	fv_super_free(s);
	return r;
}

int cli_super_refuse(const struct cli_opts *o, const char *image)
{
	return cli_error(-EINVAL,
			 "%s: an Android super image: %s one logical "
			 "partition, named as %s/NAME or with --partition=NAME "
			 "(fastverity dump %s lists them)",
			 image, o->action, image, image);
}

int cli_super_partition_path(const struct cli_opts *o, const char *image,
			     char **path)
{
	struct fv_super_partition p;
	fv_super *s;
	size_t len;
	int r, i;

	*path = NULL;
	if ((r = open_super(o, image, &s)))
		return r;
	/* the partition the device booting the slot maps: NAME_<slot> on
	 * an A/B image (said when it is not the name given) */
	if ((r = partition_at(o, image, s, &i)))
		return r;
	p = entry_of(s, FV_SUPER_PARTITION, (size_t)i).partition;
	if (strchr(p.name, '/') || !strcmp(p.name, ".") ||
	    !strcmp(p.name, "..")) {
		r = cli_error(-EINVAL,
			      "%s: partition %s cannot be named as a path",
			      image, CLI_NAME(p.name, strlen(p.name)));
		fv_super_free(s);
		return r;
	}
	if (strcmp(p.name, o->partition))
		fprintf(stderr,
			"fastverity: warning: %s: %s is partition %s (slot "
			"%s)\n",
			image, o->partition, CLI_NAME(p.name, strlen(p.name)),
			o->slot ? o->slot : "a");
	len = strlen(image) + strlen(p.name) + 2;
	if (!(*path = malloc(len))) {
		fv_super_free(s);
		return cli_error(-ENOMEM, "out of memory");
	}
	snprintf(*path, len, "%s/%s", image, p.name);
	fv_super_free(s);
	return 0;
}

int cli_super_on_partition(struct cli_opts *o, int (*action)(struct cli_opts *))
{
	const char *image = o->args[0];
	char *partition = o->partition, *slot = o->slot,
	     *container = o->container, *path;
	int r;

	if ((r = cli_super_partition_path(o, image, &path)))
		return r;
	/* the partition as a path through the image: read as any image
	 * (its slot's metadata, the slot suffix's), written only inside
	 * its extents */
	o->args[0] = path;
	o->partition = NULL;
	o->slot = NULL;
	o->container = NULL;
	r = action(o);
	o->args[0] = image;
	o->partition = partition;
	o->slot = slot;
	o->container = container;
	free(path);
	return r;
}
