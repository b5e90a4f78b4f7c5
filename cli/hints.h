/* One-line hints under a message, where the cause can be known cheaply
 * (cli/hints.c): a superblock elsewhere in the image, swapped arguments,
 * a root hash argument that names a file, a weak digest. */
#ifndef FV_CLI_HINTS_H
#define FV_CLI_HINTS_H

#include <stdint.h>

/* A superblock that could not be read: veritysetup's line when there is
 * none ("Device X is not a valid VERITY device."), the library's last
 * message, and a hint. Returns the exit code. */
int cli_no_superblock(int r, const char *data, const char *hash,
		      uint64_t hash_offset);
/* 1 when path holds a superblock's magic (or an interrupted format's
 * marker) at off. */
int cli_superblock_at(const char *path, uint64_t off);
/* After a root hash argument that does not parse: it names a file. */
void cli_hint_root_file(const char *arg);
/* A digest the kernel and veritysetup keep only for old images (md4,
 * md5): a warning line. */
void cli_warn_weak_digest(const char *hash);

#endif
