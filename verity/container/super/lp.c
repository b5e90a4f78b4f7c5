/* Android super images' metadata read and checked
 * (verity/container/super/lp.h). */
#include "verity/container/super/lp.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hashtree/hasher.h"

static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint64_t le64(const uint8_t *p)
{
	return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

/* SHA-256 of n bytes with the 32 at sum zeroed equals the 32 there. */
static int sum_holds(const uint8_t *p, size_t n, size_t sum)
{
	uint8_t *copy = malloc(n), d[32];
	int ok = 0;

	if (copy) {
		memcpy(copy, p, n);
		memset(copy + sum, 0, 32);
		ht_sha256(copy, n, d);
		ok = !memcmp(d, p + sum, 32);
	}
	free(copy);
	return ok;
}

static int digest_holds(const uint8_t *p, size_t n, const uint8_t *want)
{
	uint8_t d[32];

	ht_sha256(p, n, d);
	return !memcmp(d, want, 32);
}

int verity_lp_name_ok(const char *name)
{
	size_t n = strlen(name);

	if (!n || n > LP_NAME_MAX)
		return 0;
	for (size_t i = 0; i < n; i++) {
		char c = name[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '-'))
			return 0;
	}
	return 1;
}

/* A 36-byte name field: NUL-padded (or all 36 bytes used). */
static int name_of(const uint8_t *p, char out[LP_NAME_MAX + 1])
{
	memcpy(out, p, LP_NAME_MAX);
	out[LP_NAME_MAX] = '\0';
	for (size_t i = strlen(out); i < LP_NAME_MAX; i++)
		if (p[i])
			return 0; /* bytes after the end */
	return verity_lp_name_ok(out);
}

/* A message into a fixed buffer, cut if it must be: -EINVAL. */
__attribute__((format(printf, 3, 4))) static int say(char *buf, size_t len,
						     const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static int read_at(const struct verity_device *d, const char *path,
		   uint64_t off, void *buf, size_t len, const char *what,
		   struct ht_error *err)
{
	if (off > d->size || len > d->size - off)
		return ht_fail(err, EINVAL,
			       "%s: the super image ends inside %s (byte %llu, "
			       "%llu bytes in all)",
			       path, what, (unsigned long long)off,
			       (unsigned long long)d->size);
	return verity_device_read(d, off, buf, len, err);
}

/* One copy of the geometry, checked into m; 0, or -EINVAL with why
 * (the caller names the copy). */
static int geometry_parse(const uint8_t *g, struct lp_metadata *m, char *why,
			  size_t whylen)
{
	uint32_t size = le32(g + 4);

	if (le32(g) != LP_GEOMETRY_MAGIC) {
		snprintf(why, whylen, "magic %#x (a geometry has %#x)", le32(g),
			 LP_GEOMETRY_MAGIC);
		return -EINVAL;
	}
	if (size != LP_GEOMETRY_SIZE) {
		snprintf(why, whylen, "struct size %u (10.x has %u)", size,
			 LP_GEOMETRY_SIZE);
		return -EINVAL;
	}
	if (!sum_holds(g, size, 8)) {
		snprintf(why, whylen, "its SHA-256 checksum does not match");
		return -EINVAL;
	}
	m->max_size = le32(g + 40);
	m->slots = le32(g + 44);
	m->block_size = le32(g + 48);
	if (!m->max_size || m->max_size % LP_SECTOR ||
	    m->max_size > LP_MAX_METADATA) {
		snprintf(why, whylen,
			 "metadata_max_size %u (a non-zero multiple of %u, at "
			 "most %u)",
			 m->max_size, LP_SECTOR, LP_MAX_METADATA);
		return -EINVAL;
	}
	if (!m->slots || m->slots > LP_MAX_SLOTS) {
		snprintf(why, whylen, "metadata_slot_count %u (1 to %u)",
			 m->slots, LP_MAX_SLOTS);
		return -EINVAL;
	}
	if (!m->block_size || m->block_size % LP_SECTOR) {
		snprintf(why, whylen,
			 "logical_block_size %u (a non-zero multiple of %u)",
			 m->block_size, LP_SECTOR);
		return -EINVAL;
	}
	return 0;
}

static int geometry(const struct verity_device *d, const char *path,
		    struct lp_metadata *m, struct ht_error *err)
{
	uint8_t g[LP_GEOMETRY_SIZE];
	char why[2][160];
	int r;

	for (int copy = 0; copy < 2; copy++) {
		uint64_t at = LP_RESERVED + (uint64_t)copy * LP_GEOMETRY_AREA;

		if ((r = read_at(d, path, at, g, sizeof(g),
				 copy ? "the backup geometry" : "the geometry",
				 err)))
			return r;
		if (!geometry_parse(g, m, why[copy], sizeof(why[copy]))) {
			m->geometry_backup = copy;
			if (copy)
				say(m->note[0], sizeof(m->note[0]),
				    "%s: the geometry at byte %u: %s; "
				    "read its backup at byte %u",
				    path, LP_RESERVED, why[0],
				    LP_RESERVED + LP_GEOMETRY_AREA);
			return 0;
		}
	}
	return ht_fail(err, EINVAL,
		       "%s: not a usable super image: the geometry at byte %u: "
		       "%s; its backup at byte %u: %s",
		       path, LP_RESERVED, why[0],
		       LP_RESERVED + LP_GEOMETRY_AREA, why[1]);
}

/* The four tables' descriptors: {offset, entries, entry size}. */
static const struct table {
	const char *name;
	uint32_t entry;
	uint32_t at; /* in the header */
} tables[4] = {
	{"partition", 52, 80},
	{"extent", 24, 92},
	{"group", 48, 104},
	{"block device", 64, 116},
};

/* One copy of the slot's metadata at byte at, into m; 0, or -EINVAL
 * with why. */
static int copy_parse(const struct verity_device *d, const char *path,
		      uint64_t at, struct lp_metadata *m, char *why,
		      size_t whylen, struct ht_error *err)
{
	uint8_t h[256], *t = NULL;
	uint32_t off[4], cnt[4];
	int r;

#define WHY(...) say(why, whylen, __VA_ARGS__)
	if ((r = read_at(d, path, at, h, sizeof(h), "the metadata header",
			 err)))
		return WHY("%s", err ? err->msg : "unreadable");
	if (le32(h) != LP_HEADER_MAGIC)
		return WHY("header magic %#x (metadata has %#x)", le32(h),
			   LP_HEADER_MAGIC);
	m->major = le16(h + 4);
	m->minor = le16(h + 6);
	m->header_size = le32(h + 8);
	m->tables_size = le32(h + 44);
	if (m->major != 10 || m->minor > 2)
		return WHY("version %u.%u (10.0 to 10.2 are read)", m->major,
			   m->minor);
	if (m->header_size != (m->minor >= 2 ? 256u : 128u))
		return WHY("header_size %u (version 10.%u has %u)",
			   m->header_size, m->minor, m->minor >= 2 ? 256 : 128);
	if (!sum_holds(h, m->header_size, 12))
		return WHY("the header's SHA-256 checksum does not match");
	m->flags = m->minor >= 2 ? le32(h + 128) : 0;
	if (m->tables_size > m->max_size - m->header_size)
		return WHY("tables_size %u past metadata_max_size %u",
			   m->tables_size, m->max_size);
	for (int i = 0; i < 4; i++) {
		const uint8_t *p = h + tables[i].at;
		uint32_t size = le32(p + 8);

		off[i] = le32(p);
		cnt[i] = le32(p + 4);
		if (size != tables[i].entry)
			return WHY("%s entry size %u (10.x has %u)",
				   tables[i].name, size, tables[i].entry);
		if (off[i] > m->tables_size ||
		    (uint64_t)cnt[i] * size > m->tables_size - off[i])
			return WHY("the %s table (%u entries at %u) lies past "
				   "the tables (%u bytes)",
				   tables[i].name, cnt[i], off[i],
				   m->tables_size);
	}
	if (!cnt[3])
		return WHY("no block device (the super device is block "
			   "device 0)");
	if (!(t = malloc(m->tables_size ? m->tables_size : 1)))
		return ht_fail(err, ENOMEM, "out of memory");
	if ((r = read_at(d, path, at + m->header_size, t, m->tables_size,
			 "the metadata tables", err))) {
		free(t);
		return WHY("%s", err ? err->msg : "unreadable");
	}
	if (!digest_holds(t, m->tables_size, h + 48)) {
		free(t);
		return WHY("the tables' SHA-256 checksum does not match");
	}
	m->np = cnt[0];
	m->ne = cnt[1];
	m->ng = cnt[2];
	m->nb = cnt[3];
	m->p = calloc(m->np + 1, sizeof(*m->p));
	m->e = calloc(m->ne + 1, sizeof(*m->e));
	m->g = calloc(m->ng + 1, sizeof(*m->g));
	m->b = calloc(m->nb + 1, sizeof(*m->b));
	if (!m->p || !m->e || !m->g || !m->b) {
		free(t);
		return ht_fail(err, ENOMEM, "out of memory");
	}
	for (uint32_t i = 0; i < m->nb; i++) {
		const uint8_t *q = t + off[3] + (size_t)i * 64;
		struct lp_block_device *b = &m->b[i];

		b->first_sector = le64(q);
		b->alignment = le32(q + 8);
		b->alignment_offset = le32(q + 12);
		b->size = le64(q + 16);
		b->flags = le32(q + 60);
		if (!name_of(q + 24, b->name)) {
			free(t);
			return WHY("block device %u: its name is not a "
				   "partition name (letters, digits, '_', "
				   "'-'; 1-36)",
				   i);
		}
	}
	for (uint32_t i = 0; i < m->ng; i++) {
		const uint8_t *q = t + off[2] + (size_t)i * 48;
		struct lp_group *g = &m->g[i];

		g->flags = le32(q + 36);
		g->max_size = le64(q + 40);
		if (!name_of(q, g->name)) {
			free(t);
			return WHY("group %u: its name is not a group name "
				   "(letters, digits, '_', '-'; 1-36)",
				   i);
		}
	}
	for (uint32_t i = 0; i < m->ne; i++) {
		const uint8_t *q = t + off[1] + (size_t)i * 24;
		struct lp_extent *e = &m->e[i];

		e->sectors = le64(q);
		e->type = le32(q + 8);
		e->target = le64(q + 12);
		e->source = le32(q + 20);
	}
	for (uint32_t i = 0; i < m->np; i++) {
		const uint8_t *q = t + off[0] + (size_t)i * 52;
		struct lp_partition *p = &m->p[i];

		p->attributes = le32(q + 36);
		p->first_extent = le32(q + 40);
		p->num_extents = le32(q + 44);
		p->group = le32(q + 48);
		if (!name_of(q, p->name)) {
			char shown[HT_NAME_SHOWN_MAX];

			ht_name_shown(q, strnlen((const char *)q, LP_NAME_MAX),
				      shown, sizeof(shown));
			free(t);
			return WHY("partition %u: its name '%s' is not a "
				   "partition name (letters, digits, '_', "
				   "'-'; 1-36)",
				   i, shown);
		}
	}
	free(t);
	return 0;
#undef WHY
}

static void tables_free(struct lp_metadata *m)
{
	free(m->p);
	free(m->e);
	free(m->g);
	free(m->b);
	m->p = NULL;
	m->e = NULL;
	m->g = NULL;
	m->b = NULL;
	m->np = m->ne = m->ng = m->nb = 0;
}

/* What the tables say checked against each other and against d. */
static int tables_check(const struct verity_device *d, const char *path,
			struct lp_metadata *m, struct ht_error *err)
{
	const uint64_t meta_end =
		LP_METADATA_OFFSET + 2 * (uint64_t)m->slots * m->max_size;
	const struct lp_block_device *super = &m->b[0];
	const uint32_t mask = m->minor >= 1 ? 0xfu : 0x3u;

	if (super->first_sector > UINT64_MAX / LP_SECTOR ||
	    super->first_sector * LP_SECTOR < meta_end)
		return ht_fail(err, EINVAL,
			       "%s: block device 0 (%s): partitions start at "
			       "sector %llu, inside the metadata (which ends "
			       "at byte %llu)",
			       path, super->name,
			       (unsigned long long)super->first_sector,
			       (unsigned long long)meta_end);
	if (meta_end > d->size)
		return ht_fail(err, EINVAL,
			       "%s: the metadata of %u slots of %u bytes ends "
			       "at byte %llu, past the image (%llu bytes)",
			       path, m->slots, m->max_size,
			       (unsigned long long)meta_end,
			       (unsigned long long)d->size);
	for (uint32_t i = 0; i < m->nb; i++)
		for (uint32_t k = 0; k < i; k++)
			if (!strcmp(m->b[i].name, m->b[k].name))
				return ht_fail(err, EINVAL,
					       "%s: block devices %u and %u "
					       "are both named %s",
					       path, k, i, m->b[i].name);
	for (uint32_t i = 0; i < m->ne; i++) {
		const struct lp_extent *e = &m->e[i];
		const struct lp_block_device *b;

		if (e->type > LP_TARGET_ZERO)
			return ht_fail(err, EINVAL,
				       "%s: extent %u: target type %u (0 "
				       "linear, 1 zero)",
				       path, i, e->type);
		if (!e->sectors || e->sectors > UINT64_MAX / LP_SECTOR)
			return ht_fail(err, EINVAL,
				       "%s: extent %u: %llu sectors", path, i,
				       (unsigned long long)e->sectors);
		if (e->type == LP_TARGET_ZERO)
			continue;
		if (e->source >= m->nb)
			return ht_fail(err, EINVAL,
				       "%s: extent %u: block device %u of %u",
				       path, i, e->source, m->nb);
		b = &m->b[e->source];
		if (e->target < b->first_sector)
			return ht_fail(err, EINVAL,
				       "%s: extent %u: sector %llu of %s lies "
				       "in the metadata (partitions start at "
				       "sector %llu)",
				       path, i, (unsigned long long)e->target,
				       b->name,
				       (unsigned long long)b->first_sector);
		if (e->target > b->size / LP_SECTOR ||
		    e->sectors > b->size / LP_SECTOR - e->target)
			return ht_fail(
				err, EINVAL,
				"%s: extent %u: sectors [%llu, %llu) "
				"lie past the end of %s (%llu bytes)",
				path, i, (unsigned long long)e->target,
				(unsigned long long)(e->target + e->sectors),
				b->name, (unsigned long long)b->size);
		if (!e->source &&
		    (e->target + e->sectors) * LP_SECTOR > d->size)
			return ht_fail(
				err, EINVAL,
				"%s: extent %u: sectors [%llu, %llu) "
				"lie past the end of the image (%llu "
				"bytes)",
				path, i, (unsigned long long)e->target,
				(unsigned long long)(e->target + e->sectors),
				(unsigned long long)d->size);
	}
	for (uint32_t i = 0; i < m->np; i++) {
		struct lp_partition *p = &m->p[i];
		uint64_t sectors = 0;

		if (p->attributes & ~mask)
			return ht_fail(err, EINVAL,
				       "%s: partition %s: attributes %#x "
				       "(version 10.%u knows %#x)",
				       path, p->name, p->attributes, m->minor,
				       mask);
		if (p->first_extent > m->ne ||
		    p->num_extents > m->ne - p->first_extent)
			return ht_fail(err, EINVAL,
				       "%s: partition %s: extents %u to %u "
				       "of %u",
				       path, p->name, p->first_extent,
				       p->first_extent + p->num_extents, m->ne);
		if (p->group >= m->ng)
			return ht_fail(err, EINVAL,
				       "%s: partition %s: group %u of %u", path,
				       p->name, p->group, m->ng);
		for (uint32_t k = 0; k < p->num_extents; k++) {
			uint64_t s = m->e[p->first_extent + k].sectors;

			if (s > UINT64_MAX / LP_SECTOR - sectors)
				return ht_fail(err, EINVAL,
					       "%s: partition %s: its size is "
					       "past 64 bits",
					       path, p->name);
			sectors += s;
		}
		p->size = sectors * LP_SECTOR;
		for (uint32_t k = 0; k < i; k++)
			if (!strcmp(m->p[k].name, p->name))
				return ht_fail(err, EINVAL,
					       "%s: two partitions are named "
					       "%s",
					       path, p->name);
	}
	return 0;
}

int verity_lp_probe(const struct verity_device *d)
{
	uint8_t g[4];

	for (int copy = 0; copy < 2; copy++) {
		uint64_t at = LP_RESERVED + (uint64_t)copy * LP_GEOMETRY_AREA;

		if (d->size >= at + LP_GEOMETRY_SIZE &&
		    !verity_device_read(d, at, g, sizeof(g), NULL) &&
		    le32(g) == LP_GEOMETRY_MAGIC)
			return 1;
	}
	return 0;
}

int verity_lp_read(const struct verity_device *d, const char *path,
		   uint32_t slot, struct lp_metadata *m, struct ht_error *err)
{
	char why[2][200];
	int r;

	memset(m, 0, sizeof(*m));
	if ((r = geometry(d, path, m, err)))
		return r;
	if (slot >= m->slots)
		return ht_fail(err, EINVAL, "%s: metadata slot %u of %u", path,
			       slot, m->slots);
	m->slot = slot;
	for (int copy = 0; copy < 2; copy++) {
		uint64_t at = LP_METADATA_OFFSET +
			      ((uint64_t)copy * m->slots + slot) * m->max_size;

		tables_free(m);
		r = copy_parse(d, path, at, m, why[copy], sizeof(why[copy]),
			       err);
		if (r && r != -EINVAL)
			goto fail;
		if (!r) {
			m->backup = copy;
			if (copy)
				say(m->note[1], sizeof(m->note[1]),
				    "%s: metadata slot %u at byte %llu: "
				    "%s; read its backup at byte %llu",
				    path, slot,
				    (unsigned long long)(LP_METADATA_OFFSET +
							 (uint64_t)slot *
								 m->max_size),
				    why[0], (unsigned long long)at);
			if ((r = tables_check(d, path, m, err)))
				goto fail;
			return 0;
		}
	}
	r = ht_fail(
		err, EINVAL,
		"%s: metadata slot %u: at byte %llu: %s; its backup at byte "
		"%llu: %s",
		path, slot,
		(unsigned long long)(LP_METADATA_OFFSET +
				     (uint64_t)slot * m->max_size),
		why[0],
		(unsigned long long)(LP_METADATA_OFFSET +
				     ((uint64_t)m->slots + slot) * m->max_size),
		why[1]);
fail:
	verity_lp_free(m);
	return r;
}

void verity_lp_free(struct lp_metadata *m)
{
	tables_free(m);
}

int verity_lp_find(const struct lp_metadata *m, const char *name)
{
	for (uint32_t i = 0; i < m->np; i++)
		if (!strcmp(m->p[i].name, name))
			return (int)i;
	return -1;
}

int verity_lp_locate(const struct lp_metadata *m, uint32_t i, uint64_t off,
		     uint32_t *device, uint64_t *at)
{
	const struct lp_partition *p = &m->p[i];

	for (uint32_t k = 0; k < p->num_extents; k++) {
		const struct lp_extent *e = &m->e[p->first_extent + k];
		uint64_t len = e->sectors * LP_SECTOR;

		if (off < len) {
			if (e->type != LP_TARGET_LINEAR)
				return -1;
			*device = e->source;
			*at = e->target * LP_SECTOR + off;
			return 0;
		}
		off -= len;
	}
	return -1;
}
