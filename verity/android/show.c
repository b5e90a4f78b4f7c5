/* What dump and lp dump show of a super image (include/fastverity.h,
 * fv_show; docs/android.md, "Factory images and super.img"): lpdump's
 * text of a metadata slot, lpdump -j's document as protobuf prints it,
 * and dump --json's own document, handed to the caller as items; and
 * lp unpack's files, written as lpunpack writes them, its lines said. */
#include "verity/android/show.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hashtree/error.h"

/* A name as the text shows it (odd bytes \xNN): lasts the statement. */
#define NAME(p) \
	ht_name_shown((p), strlen(p), (char[4 * 256 + 8]){0}, 4 * 256 + 8)

static const struct lp_metadata *meta(const struct verity_android_super *s)
{
	return &s->s.m;
}

static const char *device_name(const struct lp_metadata *m,
			       const struct lp_extent *e)
{
	return m->b[e->source].name;
}

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
	const struct lp_extent *e;
	const char *device, *owner;
};

/* lpdump's order: by the block device's name, then the sector */
static int by_target(const void *x, const void *y)
{
	const struct placed *a = x, *b = y;
	int c = strcmp(a->device, b->device);

	if (c)
		return c;
	return a->e->target < b->e->target ? -1 : a->e->target > b->e->target;
}

/* lpdump's text of the slot s read. */
static void slot_text(FILE *f, const struct lp_metadata *m)
{
	size_t n = 0;
	struct placed *laid = calloc((size_t)m->ne + 1, sizeof(*laid));
	char attrs[64], hflags[512];

	if (m->slots > 1)
		fprintf(f, "Slot %u:\n", m->slot);
	fprintf(f, "Metadata version: %u.%u\n", m->major, m->minor);
	fprintf(f, "Metadata size: %u bytes\n",
		m->header_size + m->tables_size);
	fprintf(f, "Metadata max size: %u bytes\n", m->max_size);
	fprintf(f, "Metadata slot count: %u\n", m->slots);
	header_flags_text(m->flags, hflags, sizeof(hflags));
	fprintf(f, "Header flags: %s\n", hflags);
	fprintf(f, "Partition table:\n------------------------\n");
	for (uint32_t i = 0; i < m->np; i++) {
		const struct lp_partition *p = &m->p[i];
		uint64_t first = 0;

		attributes_text(p->attributes, attrs, sizeof(attrs));
		fprintf(f, "  Name: %s\n", NAME(p->name));
		fprintf(f, "  Group: %s\n", NAME(m->g[p->group].name));
		fprintf(f, "  Attributes: %s\n  Extents:\n", attrs);
		for (uint32_t k = 0; k < p->num_extents; k++) {
			const struct lp_extent *e = &m->e[p->first_extent + k];

			fprintf(f, "    %" PRIu64 " .. %" PRIu64 " ", first,
				first + e->sectors - 1);
			first += e->sectors;
			if (e->type == LP_TARGET_LINEAR)
				fprintf(f, "linear %s %" PRIu64 "\n",
					NAME(device_name(m, e)), e->target);
			else
				fprintf(f, "zero\n");
			/* one place an extent entry (the reader refuses
			 * shared ones; bounded all the same) */
			if (e->type == LP_TARGET_LINEAR && laid && n < m->ne)
				laid[n++] = (struct placed){
					e, device_name(m, e), p->name};
		}
		fprintf(f, "------------------------\n");
	}
	/* the linear extents by their place on the block devices */
	fprintf(f, "Super partition layout:\n------------------------\n");
	if (laid)
		qsort(laid, n, sizeof(*laid), by_target);
	for (size_t k = 0; k < n; k++) {
		fprintf(f, "%s: ", NAME(laid[k].device));
		fprintf(f, "%" PRIu64 " .. %" PRIu64 ": ", laid[k].e->target,
			laid[k].e->target + laid[k].e->sectors);
		fprintf(f, "%s (%" PRIu64 " sectors)\n", NAME(laid[k].owner),
			laid[k].e->sectors);
	}
	fprintf(f, "------------------------\n");
	fprintf(f, "Block device table:\n------------------------\n");
	for (uint32_t i = 0; i < m->nb; i++) {
		const struct lp_block_device *b = &m->b[i];

		fprintf(f, "  Partition name: %s\n", NAME(b->name));
		fprintf(f,
			"  First sector: %" PRIu64 "\n  Size: %" PRIu64
			" bytes\n  Flags: %s\n------------------------\n",
			b->first_sector, b->size,
			b->flags & 1 ? "slot-suffixed" : "none");
	}
	fprintf(f, "Group table:\n------------------------\n");
	for (uint32_t i = 0; i < m->ng; i++) {
		const struct lp_group *g = &m->g[i];

		fprintf(f, "  Name: %s\n", NAME(g->name));
		fprintf(f,
			"  Maximum size: %" PRIu64
			" bytes\n  Flags: %s\n------------------------\n",
			g->max_size, g->flags & 1 ? "slot-suffixed" : "none");
	}
	free(laid);
}

/* The text of s's slot, into *buf (NULL: out of memory). */
static char *text_of(const struct lp_metadata *m)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	slot_text(f, m);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* The text of m's slot shown. */
static void show_slot_text(struct show *sh, const struct lp_metadata *m)
{
	char *text = text_of(m);

	verity_show_text(sh, text);
	free(text);
}

/* dump --json's document of the slot read (its metadata, partitions,
 * groups and block devices), its members only. */
static void slot_json(struct show *sh, const struct verity_android_super *s)
{
	const struct lp_metadata *m = meta(s);
	char attrs[64], hflags[512];

	header_flags_text(m->flags, hflags, sizeof(hflags));
	verity_show_object(sh, "metadata");
	verity_show_u64(sh, "slot", m->slot);
	verity_show_u64(sh, "version_major", m->major);
	verity_show_u64(sh, "version_minor", m->minor);
	verity_show_u64(sh, "size", (uint64_t)m->header_size + m->tables_size);
	verity_show_u64(sh, "max_size", m->max_size);
	verity_show_u64(sh, "slot_count", m->slots);
	verity_show_u64(sh, "logical_block_size", m->block_size);
	verity_show_str(sh, "header_flags", hflags);
	verity_show_bool(sh, "geometry_from_backup", m->geometry_backup);
	verity_show_bool(sh, "metadata_from_backup", m->backup);
	verity_show_end(sh);
	verity_show_array(sh, "partitions");
	for (uint32_t i = 0; i < m->np; i++) {
		const struct lp_partition *p = &m->p[i];
		uint64_t first = 0;

		verity_show_object(sh, NULL);
		verity_show_str(sh, "name", p->name);
		verity_show_str(sh, "group", m->g[p->group].name);
		verity_show_u64(sh, "size", p->size);
		attributes_text(p->attributes, attrs, sizeof(attrs));
		verity_show_str(sh, "attributes", attrs);
		verity_show_array(sh, "extents");
		for (uint32_t k = 0; k < p->num_extents; k++) {
			const struct lp_extent *e = &m->e[p->first_extent + k];
			int linear = e->type == LP_TARGET_LINEAR;

			verity_show_object(sh, NULL);
			verity_show_u64(sh, "first_sector", first);
			verity_show_u64(sh, "sectors", e->sectors);
			verity_show_str(sh, "type", linear ? "linear" : "zero");
			verity_show_str(sh, "block_device",
					linear ? device_name(m, e) : NULL);
			if (linear)
				verity_show_u64(sh, "target_sector", e->target);
			else
				verity_show_null(sh, "target_sector");
			verity_show_end(sh);
			first += e->sectors;
		}
		verity_show_end(sh);
		verity_show_end(sh);
	}
	verity_show_end(sh);
	verity_show_array(sh, "groups");
	for (uint32_t i = 0; i < m->ng; i++) {
		verity_show_object(sh, NULL);
		verity_show_str(sh, "name", m->g[i].name);
		verity_show_u64(sh, "maximum_size", m->g[i].max_size);
		verity_show_str(sh, "flags",
				m->g[i].flags & 1 ? "slot-suffixed" : "none");
		verity_show_end(sh);
	}
	verity_show_end(sh);
	verity_show_array(sh, "block_devices");
	for (uint32_t i = 0; i < m->nb; i++) {
		const struct lp_block_device *b = &m->b[i];

		verity_show_object(sh, NULL);
		verity_show_str(sh, "name", b->name);
		verity_show_str(sh, "file",
				i ? s->s.other_path[i - 1] : s->s.path);
		verity_show_u64(sh, "first_sector", b->first_sector);
		verity_show_u64(sh, "size", b->size);
		verity_show_u64(sh, "alignment", b->alignment);
		verity_show_u64(sh, "alignment_offset", b->alignment_offset);
		verity_show_str(sh, "flags",
				b->flags & 1 ? "slot-suffixed" : "none");
		verity_show_end(sh);
	}
	verity_show_end(sh);
}

/* The copies read from their backups, as warnings (lpdump says nothing
 * of them; its stdout stays its own). */
static void notes(struct show *sh, const struct verity_android_super *s)
{
	for (size_t i = 0; i < s->nnotes; i++)
		verity_show_warning(sh, "%s", s->notes[i]);
}

static int open_slot(const struct fv_show_request *q, unsigned slot,
		     struct verity_android_super **s, struct ht_error *err)
{
	return verity_android_super_open(q->image, q->names, q->files, q->n,
					 slot, s, err);
}

/* dump: the slot asked, then (from slot 0, with all) every other one in
 * full, or said to hold what the first holds. */
static int dump(struct show *sh, const struct fv_show_request *q,
		const struct verity_android_super *s, struct ht_error *err)
{
	char *first = NULL;
	int r = 0;

	if (sh->json) {
		verity_show_object(sh, NULL);
		slot_json(sh, s);
		verity_show_str(sh, "image", q->image);
		verity_show_str(sh, "container", "super");
		verity_show_bool(sh, "sparse", s->s.sparse);
	}
	first = text_of(meta(s));
	if (!sh->json)
		verity_show_text(sh, first);
	if (q->all && meta(s)->slots > 1) {
		if (sh->json)
			verity_show_array(sh, "slots");
		for (unsigned k = 1; !sh->r && k < meta(s)->slots; k++) {
			struct verity_android_super *sk;
			char *text;
			/* the same but for its "Slot N:" line */
			const char *a = first ? strchr(first, '\n') : NULL, *b;
			int same;

			if ((r = open_slot(q, k, &sk, err)))
				break;
			notes(sh, sk);
			text = text_of(meta(sk));
			b = text ? strchr(text, '\n') : NULL;
			same = a && b && !strcmp(a, b);
			if (sh->json) {
				verity_show_object(sh, NULL);
				if (!same)
					slot_json(sh, sk);
				verity_show_u64(sh, "slot", k);
				if (same)
					verity_show_u64(sh, "same_as_slot", 0);
				verity_show_end(sh);
			} else if (same) {
				char line[64];

				snprintf(line, sizeof(line),
					 "Slot %u: the same as slot 0.\n", k);
				verity_show_text(sh, line);
			} else {
				verity_show_text(sh, text);
			}
			free(text);
			verity_android_super_close(sk);
		}
		if (sh->json)
			verity_show_end(sh);
	}
	if (sh->json)
		verity_show_end(sh);
	free(first);
	return r;
}

/* ---- lp dump -j: lpdump's JSON, protobuf's JSON printer's text ---- */

/* A string as protobuf's JSON printer writes it. */
static void json_str(FILE *f, const char *s)
{
	static const char esc[] = "\"\"\\\\\bb\ff\nn\rr\tt";

	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		const char *e = c ? strchr(esc, c) : NULL;

		if (e && (e - esc) % 2 == 0)
			fprintf(f, "\\%c", e[1]);
		else if (c < 0x20 || c == '<' || c == '>' || c == 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* The JSON writer's state: one level per open object or array, each
 * knowing whether it has a member yet. */
struct jw {
	FILE *f;
	int level;
	int first[8];
};

static void jw_newline(const struct jw *w)
{
	fprintf(w->f, "\n%*s", w->level, "");
}

/* Before a member (name NULL: an array's item). */
static void jw_prefix(struct jw *w, const char *name)
{
	if (!w->first[w->level])
		fputc(',', w->f);
	w->first[w->level] = 0;
	jw_newline(w);
	if (name)
		fprintf(w->f, "\"%s\": ", name);
}

static void jw_open(struct jw *w, const char *name, char c)
{
	jw_prefix(w, name);
	fputc(c, w->f);
	w->first[++w->level] = 1;
}

static void jw_close(struct jw *w, char c)
{
	int had = !w->first[w->level];

	w->level--;
	if (had)
		jw_newline(w);
	fputc(c, w->f);
}

/* proto3's defaults (0, "", false) are left out; a uint64 is a string. */
static void jw_string(struct jw *w, const char *name, const char *v)
{
	if (!*v)
		return;
	jw_prefix(w, name);
	json_str(w->f, v);
}

static void jw_u64(struct jw *w, const char *name, uint64_t v)
{
	if (!v)
		return;
	jw_prefix(w, name);
	fprintf(w->f, "\"%" PRIu64 "\"", v);
}

/* A partition or group by name (groups: the table's order kept). */
struct keyed {
	const char *name;
	size_t key, i;
};

static int by_key(const void *x, const void *y)
{
	const struct keyed *a = x, *b = y;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return (a->i > b->i) - (a->i < b->i);
}

static int by_name(const void *x, const void *y)
{
	const struct keyed *a = x, *b = y;

	return strcmp(a->name, b->name);
}

/* The partitions by their group (each group's in the table's order), as
 * liblp's builder lists them: into order (m->np). 0; 1 when two groups
 * share a name (the builder refuses the metadata); -ENOMEM. */
static int group_order(const struct lp_metadata *m, size_t *order)
{
	struct keyed *g = calloc((size_t)m->ng + 1, sizeof(*g));
	struct keyed *p = calloc((size_t)m->np + 1, sizeof(*p));
	int r = 0;

	if (!g || !p) {
		free(g);
		free(p);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < m->ng; i++)
		g[i] = (struct keyed){m->g[i].name, 0, i};
	qsort(g, m->ng, sizeof(*g), by_name);
	for (uint32_t i = 1; i < m->ng; i++)
		if (!strcmp(g[i].name, g[i - 1].name))
			r = 1;
	for (uint32_t i = 0; !r && i < m->np; i++)
		p[i] = (struct keyed){NULL, m->p[i].group, i};
	if (!r) {
		qsort(p, m->np, sizeof(*p), by_key);
		for (uint32_t i = 0; i < m->np; i++)
			order[i] = p[i].i;
	}
	free(g);
	free(p);
	return r;
}

/* lpdump -j: the partitions (by group), the groups, the block devices,
 * as protobuf prints DynamicPartitionsDeviceInfoProto with whitespace
 * (one space a level, proto3's defaults left out, uint64s as strings;
 * on a host no property sets "enabled" or "retrofit"). */
static int lp_json(struct show *sh, const struct lp_metadata *m)
{
	char *buf = NULL;
	size_t len = 0, *order = NULL;
	struct jw w = {NULL, 0, {1}};
	int r;

	if (!(order = calloc((size_t)m->np + 1, sizeof(*order))))
		return sh->r = -ENOMEM;
	if ((r = group_order(m, order))) {
		free(order);
		if (r < 0)
			return sh->r = r;
		verity_show_warning(sh,
				    "two groups share a name (liblp's builder "
				    "refuses the metadata): lpdump prints {}");
		verity_show_text(sh, "{}\n");
		return sh->r;
	}
	if (!(w.f = open_memstream(&buf, &len))) {
		free(order);
		return sh->r = -ENOMEM;
	}
	fputc('{', w.f);
	w.first[++w.level] = 1;
	if (m->np) {
		jw_open(&w, "partitions", '[');
		for (uint32_t k = 0; k < m->np; k++) {
			const struct lp_partition *p = &m->p[order[k]];

			jw_open(&w, NULL, '{');
			jw_string(&w, "name", p->name);
			jw_string(&w, "group_name", m->g[p->group].name);
			jw_prefix(&w, "is_dynamic");
			fputs("true", w.f);
			jw_u64(&w, "size", p->size);
			jw_close(&w, '}');
		}
		jw_close(&w, ']');
	}
	if (m->ng) {
		jw_open(&w, "groups", '[');
		for (uint32_t i = 0; i < m->ng; i++) {
			jw_open(&w, NULL, '{');
			jw_string(&w, "name", m->g[i].name);
			jw_u64(&w, "maximum_size", m->g[i].max_size);
			jw_close(&w, '}');
		}
		jw_close(&w, ']');
	}
	jw_open(&w, "block_devices", '[');
	for (uint32_t i = 0; i < m->nb; i++) {
		const struct lp_block_device *b = &m->b[i];

		jw_open(&w, NULL, '{');
		jw_string(&w, "name", b->name);
		jw_u64(&w, "size", b->size);
		jw_u64(&w, "block_size", m->block_size);
		jw_u64(&w, "alignment", b->alignment);
		jw_u64(&w, "alignment_offset", b->alignment_offset);
		jw_close(&w, '}');
	}
	jw_close(&w, ']');
	jw_close(&w, '}');
	fputc('\n', w.f);
	free(order);
	return verity_show_stream(sh, w.f, &buf);
}

/* lp dump: lpdump's text of the slot asked (and with all, every later
 * slot that reads, as lpdump passes over one that does not), or -j's
 * document. */
static int lpdump(struct show *sh, const struct fv_show_request *q,
		  const struct verity_android_super *s)
{
	struct ht_error err;

	if (sh->json)
		return lp_json(sh, meta(s));
	show_slot_text(sh, meta(s));
	for (unsigned k = 1; q->all && !sh->r && k < meta(s)->slots; k++) {
		struct verity_android_super *sk;

		if (open_slot(q, k, &sk, &err))
			continue;
		notes(sh, sk);
		verity_show_text(sh, "\n");
		show_slot_text(sh, meta(sk));
		verity_android_super_close(sk);
	}
	return sh->r;
}

/* dump's slot: --slot b is metadata slot 1, read after slot 0 as the
 * device booting it does (both copies' notes said). */
static int dump_slot(struct show *sh, const struct fv_show_request *q,
		     struct verity_android_super **s, struct ht_error *err)
{
	int r;

	if ((r = open_slot(q, 0, s, err)))
		return r;
	notes(sh, *s);
	if (!q->slot)
		return 0;
	if (meta(*s)->slots < 2) {
		verity_android_super_close(*s);
		*s = NULL;
		return ht_fail(err, EINVAL,
			       "%s: metadata of 1 slot: no slot b (slot b is "
			       "metadata slot 1)",
			       q->image);
	}
	verity_android_super_close(*s);
	*s = NULL;
	if ((r = open_slot(q, 1, s, err)))
		return r;
	notes(sh, *s);
	return 0;
}

/* ---- lp unpack: lpunpack's files ---- */

/* mkdir -p dir (lpunpack's create_directories): 0, or -errno. */
static int make_dirs(const char *dir)
{
	size_t n = strlen(dir);
	char *p = strdup(dir);
	int r = 0;

	if (!p)
		return -ENOMEM;
	for (size_t i = 1; i <= n && !r; i++) {
		struct stat st;

		if (p[i] != '/' && p[i] != '\0')
			continue;
		p[i] = '\0';
		if (mkdir(p, 0755) < 0 && errno != EEXIST)
			r = -errno;
		else if (stat(p, &st) < 0)
			r = -errno;
		else if (!S_ISDIR(st.st_mode))
			r = -ENOTDIR;
		if (i < n)
			p[i] = '/';
	}
	free(p);
	return r;
}

/* A failure of lp unpack said (lpunpack's exit 70): errnum, err set. */
static int unpack_fail(struct show *sh, struct ht_error *err, int errnum,
		       const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int unpack_fail(struct show *sh, struct ht_error *err, int errnum,
		       const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ht_failv(err, errnum, fmt, ap);
	va_end(ap);
	verity_show_errorf(sh, "fastverity: %s\n", ht_msg(err));
	return errnum;
}

/* lp unpack: each partition of s (or each of q->names, every one found
 * and naming a file before anything is written) copied whole to
 * q->dir/NAME.img, lpunpack's lines said before each. */
static int lpunpack(struct show *sh, const struct fv_show_request *q,
		    const struct lp_metadata *m, struct ht_error *err)
{
	unsigned char *want = calloc(m->np + 1, 1);
	char *path = NULL;
	int r = 0;

	if (!want)
		return unpack_fail(sh, err, ENOMEM, "out of memory");
	for (size_t k = 0; k < q->n; k++) {
		int i = verity_lp_find(m, q->names[k]);

		if (i < 0) {
			r = unpack_fail(sh, err, ENOENT,
					"lp unpack: %s: could not find "
					"partition %s",
					q->image, q->names[k]);
			goto out;
		}
		want[i] = 1;
	}
	for (uint32_t i = 0; i < m->np; i++) {
		const char *name = m->p[i].name;

		if ((q->n && !want[i]) ||
		    (*name && !strchr(name, '/') && strcmp(name, ".") &&
		     strcmp(name, "..")))
			continue;
		r = unpack_fail(sh, err, EINVAL,
				"lp unpack: %s: partition %s cannot name a "
				"file",
				q->image, NAME(name));
		goto out;
	}
	if ((r = make_dirs(q->dir))) {
		r = unpack_fail(sh, err, -r, "lp unpack: %s: %s", q->dir,
				strerror(-r));
		goto out;
	}
	for (uint32_t i = 0; i < m->np && !sh->r; i++) {
		const struct lp_partition *p = &m->p[i];

		if (q->n && !want[i])
			continue;
		verity_show_textf(sh,
				  "Attempting to extract partition '%s'...\n",
				  p->name);
		for (uint32_t k = 0; k < p->num_extents; k++)
			verity_show_textf(sh,
					  "  Dealing with extent %u from "
					  "target source %u...\n",
					  k, m->e[p->first_extent + k].source);
		free(path);
		if (asprintf(&path, "%s/%s.img", q->dir, p->name) < 0) {
			path = NULL;
			r = unpack_fail(sh, err, ENOMEM, "out of memory");
			break;
		}
		if ((r = verity_super_extract(q->image, q->slot, p->name, path,
					      err))) {
			verity_show_errorf(sh, "fastverity: %s\n", ht_msg(err));
			r = -r;
			break;
		}
	}
out:
	free(path);
	free(want);
	return r ? r : sh->r;
}

int verity_android_show(const struct fv_show_request *q, struct show *sh,
			struct ht_error *err)
{
	struct verity_android_super *s = NULL;
	int r;

	if (q->what == FV_SHOW_LPUNPACK) {
		if (!q->dir || (q->n && !q->names))
			return ht_fail(err, EINVAL,
				       "fv_show: lp unpack's %s is NULL",
				       q->dir ? "names" : "dir");
		/* (names: the partitions; a split image's beside it) */
		if ((r = verity_android_super_open(q->image, NULL, NULL, 0,
						   q->slot, &s, err)))
			return r;
		notes(sh, s);
		r = lpunpack(sh, q, meta(s), err);
	} else if (q->what == FV_SHOW_LPDUMP ||
		   q->what == FV_SHOW_LPDUMP_SIZE) {
		/* -j needs no metadata (lpdump's rule): a warning and {} */
		if ((r = open_slot(q, q->slot, &s, err)) &&
		    q->what == FV_SHOW_LPDUMP && q->json) {
			verity_show_warning(sh, "failed to read metadata: %s",
					    ht_msg(err));
			verity_show_textf(sh, "{}\n");
			return sh->r;
		}
		if (r)
			return r;
		notes(sh, s);
		/* -d: the bytes reserved for the metadata */
		if (q->what == FV_SHOW_LPDUMP_SIZE)
			verity_show_textf(
				sh, "%" PRIu64 "\n",
				meta(s)->nb ? meta(s)->b[0].first_sector * 512
					    : 0);
		else
			r = lpdump(sh, q, s);
	} else {
		if ((r = dump_slot(sh, q, &s, err)))
			return r;
		r = dump(sh, q, s, err);
	}
	verity_android_super_close(s);
	return r ? r : sh->r;
}
