/* The zip around an Android A/B OTA payload (docs/ota.md gathers the
 * facts of PKWARE's APPNOTE and AOSP's signapk): the end of central
 * directory, the central directory, each entry's local header (so that
 * an entry's data is read in place, at its offset), and the whole-file
 * signature's footer in the archive comment.
 *
 * A small reader of its own rather than libzip: what is checked is
 * where each byte lies (the property files' offsets, the signed range),
 * which libzip does not say. Every field is checked before use. */
#ifndef FV_CONTAINER_OTA_ZIP_H
#define FV_CONTAINER_OTA_ZIP_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stddef.h>
#include <stdint.h>

#include "hashtree/error.h"

/* Bytes to read: a file, or memory (the fuzz targets, the unit suites). */
struct verity_ota_src {
	/* len bytes at off (off + len <= size): 0 or a negative errno */
	int (*read)(void *ctx, uint64_t off, void *buf, size_t len,
		    struct ht_error *err);
	void *ctx;
	uint64_t size;
	const char *name; /* the file, in messages */
};

/* src's bytes [off, off + len) into buf: -EINVAL (named) past its end. */
int verity_ota_src_read(const struct verity_ota_src *src, uint64_t off, void *buf,
		    size_t len, struct ht_error *err);
/* A source over memory (ctx: a struct verity_ota_mem). */
struct verity_ota_mem {
	const uint8_t *p;
};
void verity_ota_mem_src(struct verity_ota_src *src, struct verity_ota_mem *m,
			const void *p, size_t len, const char *name);

#define VERITY_ZIP_EOCD       22
#define VERITY_ZIP_CDH        46
#define VERITY_ZIP_LFH        30
#define VERITY_ZIP_MAX_CD     (64u << 20) /* central directory bytes */
#define VERITY_ZIP_MAX_ENTRIES 65535u

/* One entry as the central directory holds it, its data found through
 * its local header. */
struct verity_zip_entry {
	char *name;
	uint16_t method; /* 0 stored, 8 deflated */
	uint16_t flags;
	uint32_t crc;
	uint64_t csize, usize; /* stored and real bytes */
	uint64_t header;       /* its local header's offset */
	uint64_t data;         /* its data's offset */
};

struct verity_zip {
	struct verity_zip_entry *e;
	size_t n;
	uint64_t eocd;      /* the end of central directory record's offset */
	uint64_t cd, cd_size;
	uint16_t comment_len;
	int signature;          /* a whole-file signature's footer found */
	uint16_t signature_start; /* the footer's: DER bytes + 6 */
	uint64_t cms, cms_len;  /* the CMS SignedData (DER) in the file */
	uint64_t signed_len;    /* bytes [0, signed_len) are signed */
	int magic_in_comment;   /* 50 4b 05 06 also after the EOCD */
};

/* 1 when src ends as a zip does (an end of central directory record
 * whose comment reaches the end of the file), else 0. */
int verity_zip_probe(const struct verity_ota_src *src);
/* The zip's directory into z (verity_zip_free): -EINVAL with one line
 * naming the file and the field (zip64, several disks, a directory or an
 * entry's data past where it may be, a name twice), -ENOMEM, -EIO. */
int verity_zip_read(const struct verity_ota_src *src, struct verity_zip *z,
		    struct ht_error *err);
void verity_zip_free(struct verity_zip *z);
/* The entry named name, or NULL. */
const struct verity_zip_entry *verity_zip_find(const struct verity_zip *z,
					       const char *name);

#endif
