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

	if (!n || n > LP_NAME_MAX || !strcmp(name, ".") || !strcmp(name, ".."))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (name[i] < 0x20 || name[i] > 0x7e || name[i] == '/')
			return 0;
	return 1;
}

int verity_lp_suffix_slot(const char *name)
{
	size_t n = strlen(name);

	if (n < 3 || name[n - 2] != '_')
		return -1;
	return name[n - 1] == 'a' ? 0 : name[n - 1] == 'b' ? 1 : -1;
}

int verity_lp_ab(const struct lp_metadata *m)
{
	for (uint32_t i = 0; i < m->np; i++)
		if (verity_lp_suffix_slot(m->p[i].name) >= 0)
			return 1;
	return 0;
}

/* A 36-byte name field as liblp reads it: up to the first NUL, or all
 * 36 bytes when there is none. liblp takes any other byte; so does this
 * reader (a name is shown escaped, and looked up as a path only when it
 * is one: verity_lp_name_ok). An empty name is no name. */
static int name_of(const uint8_t *p, char out[LP_NAME_MAX + 1])
{
	memcpy(out, p, LP_NAME_MAX);
	out[LP_NAME_MAX] = '\0';
	return out[0] != '\0';
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

/* One copy of the slot's metadata at byte at, into m. 1 with why when
 * the copy is not intact (unreadable, not metadata, or a checksum that
 * does not match: liblp then reads the backup); 0 when it is, and reads
 * as liblp reads it; -EINVAL naming the field when it is intact and
 * still malformed (liblp's reader refuses it, and no builder writes it:
 * refused, never replaced by the other copy); -ENOMEM. */
static int copy_parse(const struct verity_device *d, const char *path,
		      uint32_t slot, int copy, uint64_t at,
		      struct lp_metadata *m, char *why, size_t whylen,
		      struct ht_error *err)
{
	uint8_t h[256], *t = NULL;
	uint32_t off[4], cnt[4];
	int r;

#define WHY(...) (say(why, whylen, __VA_ARGS__), 1)
#define BAD(fmt, ...)                                                        \
	ht_fail(err, EINVAL,                                                 \
		"%s: metadata slot %u%s at byte %llu (its checksums match): " \
		fmt,                                                         \
		path, slot, copy ? ", backup copy," : "",                    \
		(unsigned long long)at, __VA_ARGS__)
	if ((r = read_at(d, path, at, h, sizeof(h), "the metadata header",
			 err)))
		return WHY("%s", err ? ht_msg(err) : "unreadable");
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
	/* the header is intact from here: what it says is the slot's */
	m->flags = m->minor >= 2 ? le32(h + 128) : 0;
	if (m->tables_size > m->max_size - m->header_size)
		return BAD("tables_size %u past metadata_max_size %u",
			   m->tables_size, m->max_size);
	for (int i = 0; i < 4; i++) {
		const uint8_t *p = h + tables[i].at;
		uint32_t size = le32(p + 8);

		off[i] = le32(p);
		cnt[i] = le32(p + 4);
		if (size != tables[i].entry)
			return BAD("%s entry size %u (10.x has %u)",
				   tables[i].name, size, tables[i].entry);
		if (off[i] > m->tables_size ||
		    (uint64_t)cnt[i] * size > m->tables_size - off[i])
			return BAD("the %s table (%u entries at %u) lies past "
				   "the tables (%u bytes)",
				   tables[i].name, cnt[i], off[i],
				   m->tables_size);
	}
	if (!(t = malloc(m->tables_size ? m->tables_size : 1)))
		return ht_fail(err, ENOMEM, "out of memory");
	if ((r = read_at(d, path, at + m->header_size, t, m->tables_size,
			 "the metadata tables", err))) {
		free(t);
		return WHY("%s", err ? ht_msg(err) : "unreadable");
	}
	if (!digest_holds(t, m->tables_size, h + 48)) {
		free(t);
		return WHY("the tables' SHA-256 checksum does not match");
	}
	if (!cnt[3]) {
		free(t);
		return BAD("%s", "no block device (the super device is block "
				 "device 0)");
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
			return BAD("block device %u has no name", i);
		}
	}
	for (uint32_t i = 0; i < m->ng; i++) {
		const uint8_t *q = t + off[2] + (size_t)i * 48;
		struct lp_group *g = &m->g[i];

		g->flags = le32(q + 36);
		g->max_size = le64(q + 40);
		name_of(q, g->name); /* liblp takes an empty group name */
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
			free(t);
			return BAD("partition %u has no name (device-mapper "
				   "cannot map it)",
				   i);
		}
	}
	free(t);
	return 0;
#undef BAD
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

/* A name from the metadata, shown in a message (odd bytes escaped). */
#define SHOWN(name)                                                     \
	ht_name_shown((name), strlen(name), (char[HT_NAME_SHOWN_MAX]){0}, \
		      HT_NAME_SHOWN_MAX)

/* A partition's extent entries [first, first + n), by first. */
struct span {
	uint32_t first, n, part;
};

static int by_first(const void *x, const void *y)
{
	const struct span *a = x, *b = y;

	return a->first < b->first ? -1 : a->first > b->first;
}

/* A linear extent on its block device: sectors [start, end). */
struct placed {
	uint32_t device, part, extent;
	uint64_t start, end;
};

static int by_place(const void *x, const void *y)
{
	const struct placed *a = x, *b = y;

	if (a->device != b->device)
		return a->device < b->device ? -1 : 1;
	return a->start < b->start ? -1 : a->start > b->start;
}

/* No two partitions share an extent entry, and no two linear extents
 * share a sector of a block device: liblp's builder never writes either,
 * and a partition that lies on another's bytes would be checked by one
 * digest and changed through the other (a repair of one writing into
 * the other). With the entries not shared, the extents placed are at
 * most the table's, each read once. */
static int overlaps_check(const char *path, const struct lp_metadata *m,
			  struct ht_error *err)
{
	struct span *sp = calloc(m->np + 1, sizeof(*sp));
	struct placed *pl = NULL;
	size_t n = 0, np = 0;
	int r = 0;

	if (!sp)
		return ht_fail(err, ENOMEM, "out of memory");
	for (uint32_t i = 0; i < m->np; i++)
		if (m->p[i].num_extents)
			sp[np++] = (struct span){m->p[i].first_extent,
						 m->p[i].num_extents, i};
	qsort(sp, np, sizeof(*sp), by_first);
	for (size_t k = 1; k < np; k++)
		if (sp[k].first < sp[k - 1].first + sp[k - 1].n) {
			r = ht_fail(err, EINVAL,
				    "%s: partitions %s and %s share extent %u "
				    "(liblp never writes that: one partition's "
				    "bytes would be another's)",
				    path, SHOWN(m->p[sp[k - 1].part].name),
				    SHOWN(m->p[sp[k].part].name), sp[k].first);
			goto out;
		}
	if (!(pl = calloc(m->ne + 1, sizeof(*pl)))) {
		r = ht_fail(err, ENOMEM, "out of memory");
		goto out;
	}
	for (size_t k = 0; k < np; k++)
		for (uint32_t j = 0; j < sp[k].n; j++) {
			const struct lp_extent *e = &m->e[sp[k].first + j];

			if (e->type == LP_TARGET_LINEAR)
				pl[n++] = (struct placed){
					e->source, sp[k].part, sp[k].first + j,
					e->target, e->target + e->sectors};
		}
	qsort(pl, n, sizeof(*pl), by_place);
	for (size_t k = 1; k < n; k++)
		if (pl[k].device == pl[k - 1].device &&
		    pl[k].start < pl[k - 1].end) {
			r = ht_fail(err, EINVAL,
				    "%s: extent %u (partition %s) and extent %u "
				    "(partition %s) overlap on %s at sector "
				    "%llu (liblp never writes overlapping "
				    "extents)",
				    path, pl[k - 1].extent,
				    SHOWN(m->p[pl[k - 1].part].name),
				    pl[k].extent, SHOWN(m->p[pl[k].part].name),
				    SHOWN(m->b[pl[k].device].name),
				    (unsigned long long)pl[k].start);
			goto out;
		}
out:
	free(pl);
	free(sp);
	return r;
}

static int by_name(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* The n names at first, stride bytes apart, each different: 0, or
 * -EINVAL naming the one given twice. */
static int names_once(const char *path, const char *what, const char *first,
		      size_t stride, uint32_t n, struct ht_error *err)
{
	const char **v = calloc((size_t)n + 1, sizeof(*v));
	int r = 0;

	if (!v)
		return ht_fail(err, ENOMEM, "out of memory");
	for (uint32_t i = 0; i < n; i++)
		v[i] = first + (size_t)i * stride;
	qsort(v, n, sizeof(*v), by_name);
	for (uint32_t i = 1; i < n && !r; i++)
		if (!strcmp(v[i], v[i - 1]))
			r = ht_fail(err, EINVAL, "%s: two %s are named %s",
				    path, what, SHOWN(v[i]));
	free(v);
	return r;
}

/* What the tables say checked against each other and against d. */
static int tables_check(const struct verity_device *d, const char *path,
			struct lp_metadata *m, struct ht_error *err)
{
	const uint64_t meta_end =
		LP_METADATA_OFFSET + 2 * (uint64_t)m->slots * m->max_size;
	const struct lp_block_device *super = &m->b[0];
	const uint32_t mask = m->minor >= 1 ? 0xfu : 0x3u;
	int r;

	if (super->first_sector > UINT64_MAX / LP_SECTOR ||
	    super->first_sector * LP_SECTOR < meta_end)
		return ht_fail(err, EINVAL,
			       "%s: block device 0 (%s): partitions start at "
			       "sector %llu, inside the metadata (which ends "
			       "at byte %llu)",
			       path, SHOWN(super->name),
			       (unsigned long long)super->first_sector,
			       (unsigned long long)meta_end);
	if (meta_end > d->size)
		return ht_fail(err, EINVAL,
			       "%s: the metadata of %u slots of %u bytes ends "
			       "at byte %llu, past the image (%llu bytes)",
			       path, m->slots, m->max_size,
			       (unsigned long long)meta_end,
			       (unsigned long long)d->size);
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
				       SHOWN(b->name),
				       (unsigned long long)b->first_sector);
		if (e->target > b->size / LP_SECTOR ||
		    e->sectors > b->size / LP_SECTOR - e->target)
			return ht_fail(
				err, EINVAL,
				"%s: extent %u: sectors [%llu, %llu) "
				"lie past the end of %s (%llu bytes)",
				path, i, (unsigned long long)e->target,
				(unsigned long long)(e->target + e->sectors),
				SHOWN(b->name), (unsigned long long)b->size);
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
				       path, SHOWN(p->name), p->attributes,
				       m->minor, mask);
		if (p->first_extent > m->ne ||
		    p->num_extents > m->ne - p->first_extent)
			return ht_fail(err, EINVAL,
				       "%s: partition %s: extents %u to %u "
				       "of %u",
				       path, SHOWN(p->name), p->first_extent,
				       p->first_extent + p->num_extents, m->ne);
		if (p->group >= m->ng)
			return ht_fail(err, EINVAL,
				       "%s: partition %s: group %u of %u", path,
				       SHOWN(p->name), p->group, m->ng);
		for (uint32_t k = 0; k < p->num_extents; k++) {
			uint64_t s = m->e[p->first_extent + k].sectors;

			if (s > UINT64_MAX / LP_SECTOR - sectors)
				return ht_fail(err, EINVAL,
					       "%s: partition %s: its size is "
					       "past 64 bits",
					       path, SHOWN(p->name));
			sectors += s;
		}
		p->size = sectors * LP_SECTOR;
	}
	/* names once each: one lookup finds one partition or device
	 * (sorted, not a pass per pair: the tables may hold 300,000) */
	if ((r = names_once(path, "partitions", m->p[0].name, sizeof(*m->p),
			    m->np, err)) ||
	    (r = names_once(path, "block devices", m->b[0].name,
			    sizeof(*m->b), m->nb, err)))
		return r;
	return overlaps_check(path, m, err);
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
		return ht_fail(err, EINVAL,
			       "%s: metadata slot %u: the image has %u", path,
			       slot, m->slots);
	m->slot = slot;
	/* liblp's rule: the primary copy whenever it is intact; the backup
	 * only when the primary is not (a checksum that does not match) */
	for (int copy = 0; copy < 2; copy++) {
		uint64_t at = LP_METADATA_OFFSET +
			      ((uint64_t)copy * m->slots + slot) * m->max_size;

		tables_free(m);
		r = copy_parse(d, path, slot, copy, at, m, why[copy],
			       sizeof(why[copy]), err);
		if (r < 0)
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
