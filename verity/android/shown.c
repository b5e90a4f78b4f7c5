/* What the door shows of Android images and super images
 * (include/fastverity.h, "Android images described", "Android super
 * images"): the readings of verity/android/android.h as the public
 * structures have them, pointers into the reading. */
#include "verity/android/shown.h"

#include <errno.h>
#include <string.h>

/* The caller's size covers the whole union: block_device is its
 * largest member, which the door asks for. */
_Static_assert(sizeof(struct fv_super_block_device) >=
			       sizeof(struct fv_super_partition) &&
		       sizeof(struct fv_super_block_device) >=
			       sizeof(struct fv_super_extent) &&
		       sizeof(struct fv_super_block_device) >=
			       sizeof(struct fv_super_group) &&
		       sizeof(struct fv_super_block_device) >=
			       sizeof(const char *),
	       "block_device is fv_super_entry's largest member");

_Static_assert((int)FV_AVB_PROPERTY == AVB_TAG_PROPERTY &&
		       (int)FV_AVB_HASHTREE == AVB_TAG_HASHTREE &&
		       (int)FV_AVB_HASH == AVB_TAG_HASH &&
		       (int)FV_AVB_KERNEL_CMDLINE == AVB_TAG_KERNEL_CMDLINE &&
		       (int)FV_AVB_CHAIN_PARTITION == AVB_TAG_CHAIN_PARTITION,
	       "fv_avb_tag and the AVB tags differ");

static void avb_header_of(const struct verity_android *a,
			  struct fv_avb_header *out)
{
	struct fv_avb_header full;

	memset(&full, 0, sizeof(full));
	full.size = sizeof(full);
	full.algorithm = verity_avb_algorithm(a->img.vbmeta.h.algorithm)->name;
	full.public_key_sha1 = a->key_sha1;
	full.rollback_index = a->img.vbmeta.h.rollback_index;
	*out = full;
}

void verity_android_shown_info(const struct verity_android *a,
			       struct fv_avb_info *out)
{
	struct fv_avb_info full;

	memset(&full, 0, sizeof(full));
	full.has_footer = a->img.has_footer;
	full.has_hashtree = a->ht != NULL;
	full.parity_unusable = a->paired && a->unusable;
	full.descriptors = a->img.vbmeta.ndesc;
	avb_header_of(a, &full.header);
	*out = full;
}

static void avb_hashtree_of(const struct avb_descriptor *d,
			    struct fv_avb_hashtree *out)
{
	struct fv_avb_hashtree full;

	memset(&full, 0, sizeof(full));
	full.size = sizeof(full);
	full.dm_verity_version = d->hashtree.dm_verity_version;
	full.image_size = d->hashtree.p.image_size;
	full.tree_offset = d->hashtree.tree_offset;
	full.tree_size = d->hashtree.tree_size;
	full.data_block_size = d->hashtree.data_block_size;
	full.hash_block_size = d->hashtree.hash_block_size;
	full.fec_num_roots = d->hashtree.fec_num_roots;
	full.fec_offset = d->hashtree.fec_offset;
	full.fec_size = d->hashtree.fec_size;
	full.hash_algorithm = d->hashtree.p.hash_algorithm;
	full.partition_name = d->hashtree.p.name;
	full.partition_name_len = d->hashtree.p.name_len;
	full.salt = d->hashtree.p.salt;
	full.salt_len = d->hashtree.p.salt_len;
	full.root_digest = d->hashtree.p.digest;
	full.root_digest_len = d->hashtree.p.digest_len;
	full.flags = d->hashtree.p.flags;
	*out = full;
}

static void avb_hash_of(const struct avb_descriptor *d, struct fv_avb_hash *out)
{
	struct fv_avb_hash full;

	memset(&full, 0, sizeof(full));
	full.size = sizeof(full);
	full.image_size = d->hash.p.image_size;
	full.hash_algorithm = d->hash.p.hash_algorithm;
	full.partition_name = d->hash.p.name;
	full.partition_name_len = d->hash.p.name_len;
	full.salt = d->hash.p.salt;
	full.salt_len = d->hash.p.salt_len;
	full.digest = d->hash.p.digest;
	full.digest_len = d->hash.p.digest_len;
	full.flags = d->hash.p.flags;
	*out = full;
}

static void chain_of(const struct avb_descriptor *d,
		     struct fv_avb_chain_partition *out)
{
	struct fv_avb_chain_partition full;
	struct avb_vbmeta key_only;

	memset(&full, 0, sizeof(full));
	full.size = sizeof(full);
	full.partition_name = d->chain.name;
	full.partition_name_len = d->chain.name_len;
	full.rollback_index_location = d->chain.rollback_index_location;
	full.public_key = d->chain.public_key;
	full.public_key_len = d->chain.public_key_len;
	/* the key's SHA-1 as a vbmeta's */
	memset(&key_only, 0, sizeof(key_only));
	key_only.public_key = d->chain.public_key;
	key_only.h.public_key_size = d->chain.public_key_len;
	verity_android_key_sha1(&key_only, full.public_key_sha1);
	full.flags = d->chain.flags;
	*out = full;
}

void verity_android_shown_descriptor(const struct avb_descriptor *d,
				     struct fv_avb_descriptor *out)
{
	struct fv_avb_descriptor full;

	memset(&full, 0, sizeof(full));
	full.tag = d->tag;
	switch (d->tag) {
	case AVB_TAG_HASHTREE:
		avb_hashtree_of(d, &full.hashtree);
		break;
	case AVB_TAG_HASH:
		avb_hash_of(d, &full.hash);
		break;
	case AVB_TAG_CHAIN_PARTITION:
		chain_of(d, &full.chain_partition);
		break;
	}
	*out = full;
}

/* --- super images --- */

void verity_android_shown_super(const struct verity_android_super *s,
				struct fv_super_info *info)
{
	struct fv_super_info full;
	const struct lp_metadata *m;

	m = &s->s.m;
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
	full.sparse = s->s.sparse;
	full.image_size = s->s.d.size;
	full.partitions = m->np;
	full.extents = m->ne;
	full.groups = m->ng;
	full.block_devices = m->nb;
	full.notes = s->nnotes;
	*info = full;
}

#define INDEX(i, n, what)                                                 \
	do {                                                              \
		if ((i) >= (n))                                           \
			return ht_fail(err, EINVAL, "%s %zu of %u", what, \
				       (size_t)(i), (unsigned)(n));       \
	} while (0)

static void partition_of(const struct verity_android_super *s, size_t i,
			 struct fv_super_partition *out)
{
	const struct lp_partition *q = &s->s.m.p[i];

	out->size = sizeof(*out);
	out->name = q->name;
	out->attributes = q->attributes;
	out->group = s->s.m.g[q->group].name;
	out->bytes = q->size;
	out->first_extent = q->first_extent;
	out->num_extents = q->num_extents;
}

static void extent_of(const struct verity_android_super *s, size_t i,
		      struct fv_super_extent *out)
{
	const struct lp_extent *q = &s->s.m.e[i];

	out->size = sizeof(*out);
	out->sectors = q->sectors;
	out->type = q->type;
	out->target = q->target;
	out->source = q->source;
	out->device =
		q->type == LP_TARGET_LINEAR ? s->s.m.b[q->source].name : NULL;
}

static void group_of(const struct verity_android_super *s, size_t i,
		     struct fv_super_group *out)
{
	const struct lp_group *q = &s->s.m.g[i];

	out->size = sizeof(*out);
	out->name = q->name;
	out->flags = q->flags;
	out->max_size = q->max_size;
}

static void block_device_of(const struct verity_android_super *s, size_t i,
			    struct fv_super_block_device *out)
{
	const struct lp_block_device *q = &s->s.m.b[i];

	out->size = sizeof(*out);
	out->name = q->name;
	out->first_sector = q->first_sector;
	out->alignment = q->alignment;
	out->alignment_offset = q->alignment_offset;
	out->bytes = q->size;
	out->flags = q->flags;
	out->file = i ? s->s.other_path[i - 1] : s->s.path;
}

int verity_android_shown_entry(const struct verity_android_super *s,
			       enum fv_super_kind kind, size_t i,
			       struct fv_super_entry *e, struct ht_error *err)
{
	struct fv_super_entry full;
	const struct lp_metadata *m;

	m = &s->s.m;
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
		INDEX(i, s->nnotes, "note");
		full.note = s->notes[i];
		break;
	default:
		return ht_fail(err, EINVAL,
			       "fv_super_entry: kind %d is not one", (int)kind);
	}
	*e = full;
	return 0;
}
