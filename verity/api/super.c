/* The public library: Android super images (include/fastverity.h,
 * "Android super images"). */
#include "verity/api/internal.h"

API int fv_super_open(const char *image, const char *const *names,
		      const char *const *files, size_t n, unsigned slot,
		      fv_super **out)
{
	struct verity_android_super *s;
	struct ht_error err;
	int r;

	NEED(image);
	NEED(out);
	*out = NULL;
	if ((r = verity_android_super_open(image, names, files, n, slot, &s,
					   &err)))
		return verity_api_keep(r, &err);
	*out = (fv_super *)(void *)s;
	return 0;
}

API void fv_super_free(fv_super *s)
{
	verity_android_super_close(s ? &s->in : NULL);
}

API int fv_super_info(const fv_super *s, struct fv_super_info *info)
{
	struct fv_super_info full;
	const struct lp_metadata *m;

	NEED(s);
	NEED(info);
	m = &s->in.s.m;
	memset(&full, 0, sizeof(full));
	full.major = m->major;
	full.minor = m->minor;
	full.header_size = m->header_size;
	full.tables_size = m->tables_size;
	full.header_flags = m->flags;
	full.metadata_max_size = m->max_size;
	full.metadata_slot_count = m->slots;
	full.logical_block_size = m->block_size;
	full.slot = m->slot;
	full.geometry_backup = m->geometry_backup;
	full.metadata_backup = m->backup;
	full.sparse = s->in.s.sparse;
	full.image_size = s->in.s.d.size;
	full.partitions = m->np;
	full.extents = m->ne;
	full.groups = m->ng;
	full.block_devices = m->nb;
	full.notes = s->in.nnotes;
	GIVE(info, full, major);
	return 0;
}

#define INDEX(i, n, what)                                                    \
	do {                                                                 \
		if ((i) >= (n))                                              \
			return verity_api_fail(EINVAL, "%s %zu of %u", what, \
					       (size_t)(i), (unsigned)(n));  \
	} while (0)

static void partition_of(const fv_super *s, size_t i,
			 struct fv_super_partition *out)
{
	const struct lp_partition *q = &s->in.s.m.p[i];

	out->size = sizeof(*out);
	out->name = q->name;
	out->attributes = q->attributes;
	out->group = s->in.s.m.g[q->group].name;
	out->bytes = q->size;
	out->first_extent = q->first_extent;
	out->num_extents = q->num_extents;
}

static void extent_of(const fv_super *s, size_t i, struct fv_super_extent *out)
{
	const struct lp_extent *q = &s->in.s.m.e[i];

	out->size = sizeof(*out);
	out->sectors = q->sectors;
	out->type = q->type;
	out->target = q->target;
	out->source = q->source;
	out->device = q->type == LP_TARGET_LINEAR ? s->in.s.m.b[q->source].name
						  : NULL;
}

static void group_of(const fv_super *s, size_t i, struct fv_super_group *out)
{
	const struct lp_group *q = &s->in.s.m.g[i];

	out->size = sizeof(*out);
	out->name = q->name;
	out->flags = q->flags;
	out->max_size = q->max_size;
}

static void block_device_of(const fv_super *s, size_t i,
			    struct fv_super_block_device *out)
{
	const struct lp_block_device *q = &s->in.s.m.b[i];

	out->size = sizeof(*out);
	out->name = q->name;
	out->first_sector = q->first_sector;
	out->alignment = q->alignment;
	out->alignment_offset = q->alignment_offset;
	out->bytes = q->size;
	out->flags = q->flags;
	out->file = i ? s->in.s.other_path[i - 1] : s->in.s.path;
}

/* The caller's size covers the whole union: block_device is its
 * largest member, which GIVE below asks for. */
_Static_assert(sizeof(struct fv_super_block_device) >=
			       sizeof(struct fv_super_partition) &&
		       sizeof(struct fv_super_block_device) >=
			       sizeof(struct fv_super_extent) &&
		       sizeof(struct fv_super_block_device) >=
			       sizeof(struct fv_super_group) &&
		       sizeof(struct fv_super_block_device) >=
			       sizeof(const char *),
	       "block_device is fv_super_entry's largest member");

API int fv_super_entry(const fv_super *s, enum fv_super_kind kind, size_t i,
		       struct fv_super_entry *e)
{
	struct fv_super_entry full;
	const struct lp_metadata *m;

	NEED(s);
	NEED(e);
	m = &s->in.s.m;
	memset(&full, 0, sizeof(full));
	full.kind = kind;
	switch (kind) {
	case FV_SUPER_PARTITION:
		INDEX(i, m->np, "partition");
		partition_of(s, i, &full.partition);
		break;
	case FV_SUPER_EXTENT:
		INDEX(i, m->ne, "extent");
		extent_of(s, i, &full.extent);
		break;
	case FV_SUPER_GROUP:
		INDEX(i, m->ng, "group");
		group_of(s, i, &full.group);
		break;
	case FV_SUPER_BLOCK_DEVICE:
		INDEX(i, m->nb, "block device");
		block_device_of(s, i, &full.block_device);
		break;
	case FV_SUPER_NOTE:
		INDEX(i, s->in.nnotes, "note");
		full.note = s->in.notes[i];
		break;
	default:
		return verity_api_fail(EINVAL, "%s: kind %d is not one",
				       __func__, (int)kind);
	}
	GIVE(e, full, block_device);
	return 0;
}

API int fv_super_find(const fv_super *s, const char *name, const char *slot)
{
	NEED(s);
	NEED(name);
	if (slot && strcmp(slot, "a") && strcmp(slot, "b"))
		return verity_api_fail(EINVAL, "slot '%s' is not a or b", slot);
	return verity_android_super_find(&s->in, name, slot);
}

API int fv_super_offset(const fv_super *s, size_t i, uint64_t off,
			uint32_t *device, uint64_t *at)
{
	struct ht_error err;
	int r;

	NEED(s);
	NEED(device);
	NEED(at);
	INDEX(i, s->in.s.m.np, "partition");
	if ((r = verity_android_super_locate(&s->in, i, off, device, at,
					     &err)) == -EINVAL)
		return verity_api_keep(r, &err);
	return r;
}

int verity_api_super_avb(const fv_super *s, size_t i, int show, fv_avb **out)
{
	struct verity_android *a;
	struct ht_error err;
	int r;

	NEED(s);
	NEED(out);
	*out = NULL;
	INDEX(i, s->in.s.m.np, "partition");
	if ((r = verity_android_super_read(&s->in, i, show, &a, &err)))
		return verity_api_keep(r, &err);
	*out = verity_api_avb_of(a);
	return 0;
}
