/* One-line hints under a message, where the cause can be known cheaply. */
#include "cli/files.h"
#include "cli/hints.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "cli/errors.h"
#include "include/fastverity.h"

/* What is at off in path (nothing, if it cannot be read). */
static enum fv_superblock_at superblock_at(const char *path, uint64_t off)
{
	struct fv_file_request q = {.size = sizeof(q),
				    .op = FV_FILE_SUPERBLOCK_AT,
				    .path = path,
				    .offset = off};
	struct fv_file_answer a = {.size = sizeof(a)};

	return path && !fv_file(&q, &a) ? a.at : FV_SUPERBLOCK_NONE;
}

int cli_superblock_at(const char *path, uint64_t off)
{
	/* a superblock, or the marker of an interrupted format */
	return superblock_at(path, off) != FV_SUPERBLOCK_NONE;
}

/* After "not a valid VERITY device" for hash (read at hash_offset): the
 * arguments swapped (data holds a superblock), or a superblock further
 * into hash (--hash-offset=N). */
static void hint_no_superblock(const char *data, const char *hash,
			       uint64_t hash_offset)
{
	struct fv_file_request q = {.size = sizeof(q),
				    .op = FV_FILE_SUPERBLOCK_FIND,
				    .path = hash,
				    .offset = hash_offset};
	struct fv_file_answer a = {.size = sizeof(a)};

	if (data && strcmp(data, hash) &&
	    superblock_at(data, hash_offset) == FV_SUPERBLOCK_FOUND) {
		fprintf(stderr,
			"fastverity: %s holds a verity superblock and %s does "
			"not: are the arguments swapped? (<data_device> "
			"<hash_device>)\n",
			data, hash);
		return;
	}
	if (!fv_file(&q, &a))
		fprintf(stderr,
			"fastverity: %s has a verity superblock at byte %llu: "
			"add --hash-offset=%llu\n",
			hash, (unsigned long long)a.offset,
			(unsigned long long)a.offset);
}

int cli_no_superblock(int r, const char *data, const char *hash,
		      uint64_t hash_offset)
{
	int none = !cli_superblock_at(hash, hash_offset), rc;
	char msg[3 * 4096];

	/* the library's message, kept before the hints ask it again */
	cli_lib_say(msg, sizeof(msg));
	if (none)
		fprintf(stderr, "Device %s is not a valid VERITY device.\n",
			hash);
	rc = cli_error(r, "%s", msg);
	if (none)
		hint_no_superblock(data, hash, hash_offset);
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
