/* The zip around an OTA payload (verity/container/ota/zip.h). */
#include "verity/container/ota/zip.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

int verity_ota_src_read(const struct verity_ota_src *src, uint64_t off, void *buf,
		    size_t len, struct ht_error *err)
{
	if (off > src->size || len > src->size - off)
		return ht_fail(err, EINVAL,
			       "%s: ends early: %zu bytes at %llu are past "
			       "its end (%llu bytes)",
			       src->name, len, (unsigned long long)off,
			       (unsigned long long)src->size);
	if (!len)
		return 0;
	return src->read(src->ctx, off, buf, len, err);
}

static int mem_read(void *ctx, uint64_t off, void *buf, size_t len,
		    struct ht_error *err)
{
	struct verity_ota_mem *m = ctx;

	(void)err;
	memcpy(buf, m->p + off, len);
	return 0;
}

void verity_ota_mem_src(struct verity_ota_src *src, struct verity_ota_mem *m,
			const void *p, size_t len, const char *name)
{
	m->p = p;
	src->read = mem_read;
	src->ctx = m;
	src->size = len;
	src->name = name;
}

static const uint8_t eocd_magic[4] = {0x50, 0x4b, 0x05, 0x06};

/* The file's last bytes (at most a comment's and a record's) into *tail,
 * *n of them. */
static int read_tail(const struct verity_ota_src *src, uint8_t **tail,
		     size_t *n, struct ht_error *err)
{
	size_t len = VERITY_ZIP_EOCD + 65535;
	int r;

	if (src->size < VERITY_ZIP_EOCD)
		return ht_fail(err, EINVAL,
			       "%s: not a zip: %llu bytes, less than an end "
			       "of central directory record",
			       src->name, (unsigned long long)src->size);
	if (len > src->size)
		len = (size_t)src->size;
	if (!(*tail = malloc(len)))
		return ht_fail(err, ENOMEM, "out of memory");
	if ((r = verity_ota_src_read(src, src->size - len, *tail, len, err))) {
		free(*tail);
		*tail = NULL;
		return r;
	}
	*n = len;
	return 0;
}

/* The record's offset in tail: the last magic whose comment length
 * reaches the file's end exactly; -1 for none. */
static long find_eocd(const uint8_t *tail, size_t n)
{
	for (size_t i = n - VERITY_ZIP_EOCD + 1; i-- > 0;)
		if (!memcmp(tail + i, eocd_magic, 4) &&
		    le16(tail + i + 20) == n - i - VERITY_ZIP_EOCD)
			return (long)i;
	return -1;
}

int verity_zip_probe(const struct verity_ota_src *src)
{
	uint8_t *tail;
	size_t n;
	long at;

	if (read_tail(src, &tail, &n, NULL))
		return 0;
	at = find_eocd(tail, n);
	free(tail);
	return at >= 0;
}

void verity_zip_free(struct verity_zip *z)
{
	if (!z)
		return;
	for (size_t i = 0; z->e && i < z->n; i++)
		free(z->e[i].name);
	free(z->e);
	memset(z, 0, sizeof(*z));
}

const struct verity_zip_entry *verity_zip_find(const struct verity_zip *z,
					       const char *name)
{
	for (size_t i = 0; i < z->n; i++)
		if (!strcmp(z->e[i].name, name))
			return &z->e[i];
	return NULL;
}

/* The whole-file signature's footer, the last 6 bytes of the comment
 * (signapk -w): signature_start, 0xffff, comment_size. */
static void read_footer(const struct verity_ota_src *src, const uint8_t *rec,
			struct verity_zip *z)
{
	const uint8_t *comment = rec + VERITY_ZIP_EOCD;
	const uint8_t *f;

	if (z->comment_len < 6)
		return;
	f = comment + z->comment_len - 6;
	if (le16(f + 2) != 0xffff || le16(f + 4) != z->comment_len ||
	    le16(f) <= 6 || le16(f) > z->comment_len)
		return;
	z->signature = 1;
	z->signature_start = le16(f);
	z->cms_len = z->signature_start - 6u;
	z->cms = src->size - z->signature_start;
	z->signed_len = src->size - z->comment_len - 2;
	for (size_t i = 0; i + 4 <= z->comment_len; i++)
		if (!memcmp(comment + i, eocd_magic, 4))
			z->magic_in_comment = 1;
}

/* Entry i's central directory header at *pos of cd (n bytes) into e,
 * *pos moved past it. */
static int read_cdh(const struct verity_ota_src *src, const uint8_t *cd,
		    uint64_t n, uint64_t *pos, size_t i,
		    struct verity_zip_entry *e, struct ht_error *err)
{
	const uint8_t *h = cd + *pos;
	uint32_t nlen, xlen, clen;

	if (n - *pos < VERITY_ZIP_CDH || le32(h) != 0x02014b50)
		return ht_fail(err, EINVAL,
			       "%s: zip entry %zu: no central directory "
			       "header at byte %llu of the directory",
			       src->name, i, (unsigned long long)*pos);
	nlen = le16(h + 28);
	xlen = le16(h + 30);
	clen = le16(h + 32);
	if (n - *pos - VERITY_ZIP_CDH < (uint64_t)nlen + xlen + clen)
		return ht_fail(err, EINVAL,
			       "%s: zip entry %zu: its name, extra field and "
			       "comment (%u bytes) go past the central "
			       "directory",
			       src->name, i, nlen + xlen + clen);
	if (le16(h + 34) != 0)
		return ht_fail(err, EINVAL,
			       "%s: zip entry %zu: on disk %u: a zip of "
			       "several disks is not read",
			       src->name, i, le16(h + 34));
	e->flags = le16(h + 8);
	e->method = le16(h + 10);
	e->crc = le32(h + 16);
	e->csize = le32(h + 20);
	e->usize = le32(h + 24);
	e->header = le32(h + 42);
	if (e->csize == 0xffffffffu || e->usize == 0xffffffffu ||
	    e->header == 0xffffffffu)
		return ht_fail(err, EINVAL,
			       "%s: zip entry %zu: zip64 sizes or offset: "
			       "not read (a package under 4 GiB has none)",
			       src->name, i);
	if (!(e->name = malloc(nlen + 1u)))
		return ht_fail(err, ENOMEM, "out of memory");
	memcpy(e->name, h + VERITY_ZIP_CDH, nlen);
	e->name[nlen] = '\0';
	if (strlen(e->name) != nlen)
		return ht_fail(err, EINVAL,
			       "%s: zip entry %zu: a NUL in its name",
			       src->name, i);
	*pos += VERITY_ZIP_CDH + (uint64_t)nlen + xlen + clen;
	return 0;
}

/* Entry e's local header: where its data begins; the data must end
 * before the central directory. */
static int read_lfh(const struct verity_ota_src *src, uint64_t cd,
		    struct verity_zip_entry *e, struct ht_error *err)
{
	uint8_t h[VERITY_ZIP_LFH];
	int r;

	if (e->header > cd || cd - e->header < VERITY_ZIP_LFH)
		return ht_fail(err, EINVAL,
			       "%s: zip entry %s: its local header at %llu "
			       "is not before the central directory (at "
			       "%llu)",
			       src->name, e->name,
			       (unsigned long long)e->header,
			       (unsigned long long)cd);
	if ((r = verity_ota_src_read(src, e->header, h, sizeof(h), err)))
		return r;
	if (le32(h) != 0x04034b50)
		return ht_fail(err, EINVAL,
			       "%s: zip entry %s: no local header at %llu",
			       src->name, e->name,
			       (unsigned long long)e->header);
	e->data = e->header + VERITY_ZIP_LFH + le16(h + 26) + le16(h + 28);
	if (e->data > cd || e->csize > cd - e->data)
		return ht_fail(err, EINVAL,
			       "%s: zip entry %s: its data (%llu bytes at "
			       "%llu) goes past the central directory (at "
			       "%llu)",
			       src->name, e->name,
			       (unsigned long long)e->csize,
			       (unsigned long long)e->data,
			       (unsigned long long)cd);
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp((*(const struct verity_zip_entry *const *)a)->name,
		      (*(const struct verity_zip_entry *const *)b)->name);
}

/* No name twice: a reader that takes the first and one that takes the
 * last would read two packages. */
static int unique_names(const struct verity_ota_src *src,
			const struct verity_zip *z, struct ht_error *err)
{
	const struct verity_zip_entry **v;
	int r = 0;

	if (z->n < 2)
		return 0;
	if (!(v = malloc(z->n * sizeof(*v))))
		return ht_fail(err, ENOMEM, "out of memory");
	for (size_t i = 0; i < z->n; i++)
		v[i] = &z->e[i];
	qsort(v, z->n, sizeof(*v), by_name);
	for (size_t i = 1; i < z->n && !r; i++)
		if (!strcmp(v[i - 1]->name, v[i]->name))
			r = ht_fail(err, EINVAL,
				    "%s: two zip entries named %s: refused",
				    src->name, v[i]->name);
	free(v);
	return r;
}

int verity_zip_read(const struct verity_ota_src *src, struct verity_zip *z,
		    struct ht_error *err)
{
	uint8_t *tail = NULL, *cd = NULL;
	const uint8_t *rec;
	uint64_t pos = 0;
	size_t n, count;
	long at;
	int r;

	memset(z, 0, sizeof(*z));
	if ((r = read_tail(src, &tail, &n, err)))
		return r;
	if ((at = find_eocd(tail, n)) < 0) {
		r = ht_fail(err, EINVAL,
			    "%s: not a zip: no end of central directory "
			    "record whose comment ends the file",
			    src->name);
		goto out;
	}
	rec = tail + at;
	z->eocd = src->size - (n - (size_t)at);
	z->comment_len = le16(rec + 20);
	count = le16(rec + 10);
	z->cd_size = le32(rec + 12);
	z->cd = le32(rec + 16);
	if (le16(rec + 4) || le16(rec + 6) || le16(rec + 8) != count) {
		r = ht_fail(err, EINVAL,
			    "%s: a zip of several disks (disk %u, directory "
			    "on disk %u, %u of %zu entries here): not read",
			    src->name, le16(rec + 4), le16(rec + 6),
			    le16(rec + 8), count);
		goto out;
	}
	if (count == 0xffff || z->cd == 0xffffffffu ||
	    z->cd_size == 0xffffffffu) {
		r = ht_fail(err, EINVAL,
			    "%s: a zip64 archive (over 65535 entries or "
			    "4 GiB): not read",
			    src->name);
		goto out;
	}
	if (z->cd > z->eocd || z->cd_size > z->eocd - z->cd) {
		r = ht_fail(err, EINVAL,
			    "%s: the central directory (%llu bytes at %llu) "
			    "does not end before the end of central "
			    "directory record (at %llu)",
			    src->name, (unsigned long long)z->cd_size,
			    (unsigned long long)z->cd,
			    (unsigned long long)z->eocd);
		goto out;
	}
	if (z->cd_size > VERITY_ZIP_MAX_CD ||
	    count > z->cd_size / VERITY_ZIP_CDH) {
		r = ht_fail(err, EINVAL,
			    "%s: a central directory of %llu bytes cannot "
			    "hold %zu entries (at most %u MiB)",
			    src->name, (unsigned long long)z->cd_size, count,
			    VERITY_ZIP_MAX_CD >> 20);
		goto out;
	}
	read_footer(src, rec, z);
	if (!(cd = malloc(z->cd_size ? (size_t)z->cd_size : 1)) ||
	    !(z->e = calloc(count ? count : 1, sizeof(*z->e)))) {
		r = ht_fail(err, ENOMEM, "out of memory");
		goto out;
	}
	if ((r = verity_ota_src_read(src, z->cd, cd, (size_t)z->cd_size, err)))
		goto out;
	for (size_t i = 0; i < count; i++) {
		z->n = i + 1;
		if ((r = read_cdh(src, cd, z->cd_size, &pos, i, &z->e[i],
				  err)) ||
		    (r = read_lfh(src, z->cd, &z->e[i], err)))
			goto out;
	}
	r = unique_names(src, z, err);
out:
	free(tail);
	free(cd);
	if (r)
		verity_zip_free(z);
	return r;
}
