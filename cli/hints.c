/* One-line hints under a message, where the cause can be known cheaply. */
#include "cli/hints.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "cli/errors.h"
#include "cli/inside.h"
#include "verity/storage/device.h"
#include "verity/tree/superblock.h"

/* At most this many places are looked at for a superblock: one per 4 KiB
 * of the last part of the image, where format --hash-offset puts it. */
#define SCAN_MAX 16384

static int magic_at(const struct verity_device *d, uint64_t off)
{
	uint8_t m[8];

	return off + sizeof(m) <= d->size &&
	       !verity_device_read(d, off, m, sizeof(m), NULL) &&
	       !memcmp(m, "verity\0\0", 8);
}

int cli_superblock_at(const char *path, uint64_t off)
{
	struct verity_device d;
	uint8_t m[8];
	int yes;

	if (verity_device_open(&d, path, VERITY_OPEN_READ, NULL))
		return 0;
	/* a superblock, or the marker of an interrupted format (the
	 * library says which) */
	yes = magic_at(&d, off) ||
	      (off + sizeof(m) <= d.size &&
	       !verity_device_read(&d, off, m, sizeof(m), NULL) &&
	       !memcmp(m, VERITY_SB_UNFINISHED, sizeof(VERITY_SB_UNFINISHED)));
	verity_device_close(&d);
	return yes;
}

void cli_hint_no_superblock(const char *data, const char *hash,
			    uint64_t hash_offset)
{
	struct verity_device d, h;
	uint64_t from, off;
	int found = 0;

	if (data && strcmp(data, hash) &&
	    !verity_device_open(&d, data, VERITY_OPEN_READ, NULL)) {
		found = magic_at(&d, hash_offset);
		verity_device_close(&d);
		if (found) {
			fprintf(stderr,
				"fastverity: %s holds a verity superblock and "
				"%s does not: are the arguments swapped? "
				"(<data_device> <hash_device>)\n",
				data, hash);
			return;
		}
	}
	if (verity_device_open(&h, hash, VERITY_OPEN_READ, NULL))
		return;
	/* the tree of 4 KiB blocks and sha256 is 1/127 of the data: the
	 * superblock of an appended tree is in the last 1/64 of the image */
	from = h.size - h.size / 64;
	from -= from % 4096;
	if (h.size / 64 / 4096 > SCAN_MAX)
		from = h.size - (uint64_t)SCAN_MAX * 4096;
	for (off = from; off + 512 <= h.size && !found; off += 4096)
		if (off != hash_offset && magic_at(&h, off))
			found = 1;
	verity_device_close(&h);
	if (found)
		fprintf(stderr,
			"fastverity: %s has a verity superblock at byte %llu: "
			"add --hash-offset=%llu\n",
			hash, (unsigned long long)(off - 4096),
			(unsigned long long)(off - 4096));
}

int cli_no_superblock(int r, const struct ht_error *err, const char *data,
		      const char *hash, uint64_t hash_offset)
{
	int none = !cli_superblock_at(hash, hash_offset), rc;

	if (none)
		fprintf(stderr, "Device %s is not a valid VERITY device.\n",
			hash);
	rc = cli_inside_error(r, err);
	if (none)
		cli_hint_no_superblock(data, hash, hash_offset);
	return rc;
}

void cli_hint_root_file(const char *arg)
{
	struct stat st;

	if (arg && stat(arg, &st) == 0 && S_ISREG(st.st_mode))
		fprintf(stderr,
			"fastverity: '%s' is a file: give it with "
			"--root-hash-file=%s\n",
			arg, arg);
}

void cli_warn_weak_digest(const char *hash)
{
	if (hash && (!strcasecmp(hash, "md5") || !strcasecmp(hash, "md4")))
		fprintf(stderr,
			"fastverity: warning: %s is broken (collisions are "
			"easy to make) and kept only for old images; use "
			"sha256\n",
			hash);
}
