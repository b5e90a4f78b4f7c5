/* The 512-byte superblock: encoded, decoded, read from a hash device. */
#include "verity/tree/superblock.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "verity/storage/device.h"

static const char verity_signature[8] = {'v', 'e', 'r', 'i', 't', 'y', 0, 0};

enum {
	SB_VERSION = 8,
	SB_HASH_TYPE = 12,
	SB_UUID = 16,
	SB_ALGORITHM = 32,
	SB_DATA_BLOCK_SIZE = 64,
	SB_HASH_BLOCK_SIZE = 68,
	SB_DATA_BLOCKS = 72,
	SB_SALT_SIZE = 80,
	SB_PAD1 = 82,
	SB_SALT = 88,
	SB_PAD2 = 344,
};

static void put_le(uint8_t *p, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le(const uint8_t *p, int bytes)
{
	uint64_t v = 0;

	for (int i = bytes - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static int all_zero(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

void verity_sb_encode(const struct verity_params *p, uint8_t sb[VERITY_SB_SIZE])
{
	memset(sb, 0, VERITY_SB_SIZE);
	memcpy(sb, verity_signature, sizeof(verity_signature));
	put_le(sb + SB_VERSION, 1, 4);
	put_le(sb + SB_HASH_TYPE, (uint64_t)p->hash_type, 4);
	memcpy(sb + SB_UUID, p->uuid, 16);
	for (size_t i = 0; i < VERITY_MAX_HASH_NAME && p->hash_name[i]; i++)
		sb[SB_ALGORITHM + i] =
			(uint8_t)tolower((unsigned char)p->hash_name[i]);
	put_le(sb + SB_DATA_BLOCK_SIZE, p->data_block_size, 4);
	put_le(sb + SB_HASH_BLOCK_SIZE, p->hash_block_size, 4);
	put_le(sb + SB_DATA_BLOCKS, p->data_blocks, 8);
	put_le(sb + SB_SALT_SIZE, p->salt_size, 2);
	memcpy(sb + SB_SALT, p->salt, p->salt_size);
}

int verity_sb_decode(const uint8_t sb[VERITY_SB_SIZE], struct verity_params *p,
		     struct ht_error *err)
{
	uint64_t version = get_le(sb + SB_VERSION, 4);
	uint64_t type = get_le(sb + SB_HASH_TYPE, 4);
	uint64_t salt_size = get_le(sb + SB_SALT_SIZE, 2);
	const char *alg = (const char *)sb + SB_ALGORITHM;

	if (memcmp(sb, verity_signature, sizeof(verity_signature)) != 0)
		return ht_fail(
			err, EINVAL,
			"not a valid VERITY device (no superblock signature)");
	if (version != 1)
		return ht_fail(err, EINVAL, "unsupported VERITY version %llu",
			       (unsigned long long)version);
	if (type > 1)
		return ht_fail(err, EINVAL, "unsupported VERITY hash type %llu",
			       (unsigned long long)type);
	if (memchr(alg, '\0', VERITY_MAX_HASH_NAME + 1) == NULL || !alg[0])
		return ht_fail(
			err, EINVAL,
			"superblock hash algorithm name is not terminated");
	if (salt_size > VERITY_MAX_SALT_SIZE)
		return ht_fail(
			err, EINVAL, "superblock salt size %llu is over %d",
			(unsigned long long)salt_size, VERITY_MAX_SALT_SIZE);
	if (!all_zero(sb + SB_PAD1, SB_SALT - SB_PAD1) ||
	    !all_zero(sb + SB_SALT + salt_size,
		      VERITY_SB_SIZE - SB_SALT - salt_size))
		return ht_fail(err, EINVAL,
			       "superblock reserved bytes are not zero");

	p->hash_type = (int)type;
	memcpy(p->uuid, sb + SB_UUID, 16);
	memset(p->hash_name, 0, sizeof(p->hash_name));
	strcpy(p->hash_name, alg);
	for (char *c = p->hash_name; *c; c++)
		if (!islower((unsigned char)*c) &&
		    !isdigit((unsigned char)*c) && *c != '-' && *c != '_')
			return ht_fail(err, EINVAL,
				       "superblock hash algorithm name is not "
				       "lowercase text");
	p->data_block_size = (uint32_t)get_le(sb + SB_DATA_BLOCK_SIZE, 4);
	p->hash_block_size = (uint32_t)get_le(sb + SB_HASH_BLOCK_SIZE, 4);
	p->data_blocks = get_le(sb + SB_DATA_BLOCKS, 8);
	p->salt_size = (size_t)salt_size;
	memcpy(p->salt, sb + SB_SALT, p->salt_size);
	if (p->data_blocks == 0)
		return ht_fail(err, EINVAL, "superblock says 0 data blocks");
	return verity_params_validate(p, err);
}

/* The superblock at p->hash_offset of the hash device, read and decoded
 * into p (an interrupted format is named as such; an interrupted update
 * too, unless updating is given: then it is read, and said there). */
static int read_superblock(const struct verity_region *region,
			   struct verity_params *p, int *updating,
			   struct ht_error *err)
{
	const char *hash_path = region->path;
	struct verity_device hash;
	uint8_t sb[VERITY_SB_SIZE];
	int r = verity_device_open_region(&hash, region, VERITY_OPEN_READ, err);

	if (r)
		return r;
	if (hash.size < p->hash_offset ||
	    hash.size - p->hash_offset < VERITY_SB_SIZE)
		r = ht_fail(err, EINVAL,
			    "%s: not a valid VERITY device (too small for a "
			    "superblock at offset %llu)",
			    hash_path, (unsigned long long)p->hash_offset);
	if (!r)
		r = verity_device_read(&hash, p->hash_offset, sb, sizeof(sb),
				       err);
	verity_device_close(&hash);
	if (r)
		return r;
	p->no_superblock = 0;
	if (!memcmp(sb, VERITY_SB_UNFINISHED, 8))
		return ht_fail(err, EINVAL,
			       "%s: unfinished: a format of this hash image "
			       "was interrupted (run format again)",
			       hash_path);
	if (updating)
		*updating = 0;
	if (!memcmp(sb, VERITY_SB_UPDATING, 8)) {
		if (!updating)
			return ht_fail(err, EINVAL,
				       "%s: unfinished: an update of this hash "
				       "image was interrupted (run the same "
				       "fastverity update again)",
				       hash_path);
		*updating = 1;
		memcpy(sb, "verity\0\0", 8);
		/* the roots the update keeps there (past any salt) */
		memset(sb + VERITY_SB_UPDATE_OLD, 0,
		       VERITY_SB_SIZE - VERITY_SB_UPDATE_OLD);
	}
	r = verity_sb_decode(sb, p, err);
	if (r)
		return ht_fail(err, -r, "%s: %s", hash_path, ht_msg(err));
	return 0;
}

int verity_read_superblock(const struct verity_region *region,
			   struct verity_params *p, struct ht_error *err)
{
	return read_superblock(region, p, NULL, err);
}

int verity_read_superblock_update(const struct verity_region *region,
				  struct verity_params *p, int *updating,
				  struct ht_error *err)
{
	return read_superblock(region, p, updating, err);
}
