/* dm-verity parameters: what the superblock holds, plus where the hash
 * area starts. Validated once, in verity_params_validate(). */
#ifndef FV_PARAMS_H
#define FV_PARAMS_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stddef.h>
#include <stdint.h>

#include "hashtree/error.h"
#include "hashtree/hasher.h" /* HT_MAX_SALT_SIZE */
#include "hashtree/tree.h"   /* HT_MAX_THREADS */

#define VERITY_MAX_SALT_SIZE \
	HT_MAX_SALT_SIZE /* one limit, in hashtree/hasher.h */
#define VERITY_MAX_THREADS   HT_MAX_THREADS /* hashtree/tree.h */
#define VERITY_MAX_HASH_NAME 31
#define VERITY_SB_SIZE       512

struct verity_params {
	char hash_name[VERITY_MAX_HASH_NAME + 1];
	int hash_type; /* 0: Chrome OS, 1: normal */
	uint32_t data_block_size;
	uint32_t hash_block_size;
	uint64_t data_blocks; /* 0: all whole blocks of the data device */
	uint64_t hash_offset; /* bytes; where the superblock (or tree) starts */
	uint8_t salt[VERITY_MAX_SALT_SIZE];
	size_t salt_size;
	uint8_t uuid[16];
	int no_superblock;
};

/* veritysetup's defaults: sha256, 4096-byte blocks, format 1, no salt. */
void verity_params_default(struct verity_params *p);

/* Checks every field; the message names the bad field. */
int verity_params_validate(const struct verity_params *p, struct ht_error *err);

/* Hash block where the tree starts: after the superblock, rounded up to a
 * whole hash block; without one, the hash offset rounded down. */
uint64_t verity_tree_start_block(const struct verity_params *p);

/* Helpers for the textual forms. Return 0 or -EINVAL. */
int verity_hex_decode(const char *hex, uint8_t *out, size_t max, size_t *len);
void verity_hex_encode(const uint8_t *in, size_t len, char *out);
/* The contents of a root hash file: hex digits, then only white space.
 * Copies the digits, NUL-terminated, into hex (size bytes). 0; or
 * -EINVAL with *bad the 1-based position of the first byte that breaks
 * the grammar, or 0 when the digits do not fit hex. */
int verity_root_text_parse(const uint8_t *text, size_t len, char *hex,
			   size_t size, size_t *bad);
int verity_uuid_parse(const char *s, uint8_t uuid[16]);
void verity_uuid_format(const uint8_t uuid[16], char out[37]);
/* Worker threads by default: one per online CPU, 1 to
 * VERITY_MAX_THREADS. */
unsigned verity_default_threads(void);
/* Random bytes from getrandom(); for salts and UUIDs. */
int verity_random(uint8_t *buf, size_t len, struct ht_error *err);
void verity_uuid_random(uint8_t uuid[16], const uint8_t random[16]);

#endif
