#include "verity/tree/params.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/random.h>

#include "hashtree/geometry.h"
#include "hashtree/hasher.h"

void verity_params_default(struct verity_params *p)
{
	memset(p, 0, sizeof(*p));
	strcpy(p->hash_name, "sha256");
	p->hash_type = 1;
	p->data_block_size = 4096;
	p->hash_block_size = 4096;
}

int verity_params_validate(const struct verity_params *p, struct ht_error *err)
{
	unsigned digest;
	int r;

	if (p->hash_type != 0 && p->hash_type != 1)
		return ht_fail(err, EINVAL, "unsupported hash type %d (0 or 1)",
			       p->hash_type);
	if (!ht_block_size_valid(p->data_block_size))
		return ht_fail(err, EINVAL,
			       "unsupported data block size %u (a power of two "
			       "from 512 to 524288)",
			       p->data_block_size);
	if (!ht_block_size_valid(p->hash_block_size))
		return ht_fail(err, EINVAL,
			       "unsupported hash block size %u (a power of two "
			       "from 512 to 524288)",
			       p->hash_block_size);
	if (p->salt_size > VERITY_MAX_SALT_SIZE)
		return ht_fail(err, EINVAL,
			       "salt of %zu bytes is too long (at most %d)",
			       p->salt_size, VERITY_MAX_SALT_SIZE);
	if (p->hash_offset % 512)
		return ht_fail(err, EINVAL,
			       "hash offset %llu is not a multiple of 512",
			       (unsigned long long)p->hash_offset);
	if (p->hash_offset > INT64_MAX - VERITY_SB_SIZE - HT_MAX_BLOCK_SIZE)
		return ht_fail(err, EOVERFLOW, "hash offset %llu is too large",
			       (unsigned long long)p->hash_offset);
	if (p->data_blocks > INT64_MAX / p->data_block_size)
		return ht_fail(err, EOVERFLOW,
			       "%llu data blocks of %u bytes overflow 64 bits",
			       (unsigned long long)p->data_blocks,
			       p->data_block_size);
	if (p->hash_name[0] == '\0')
		return ht_fail(err, EINVAL, "no hash algorithm given");
	if ((r = ht_digest_size_of(p->hash_name, &digest, err)))
		return r;
	if (digest > p->hash_block_size / 2)
		return ht_fail(err, EINVAL,
			       "hash algorithm %s: a %u-byte hash block holds "
			       "fewer than two %u-byte digests",
			       p->hash_name, p->hash_block_size, digest);
	return 0;
}

uint64_t verity_tree_start_block(const struct verity_params *p)
{
	if (p->no_superblock)
		return p->hash_offset / p->hash_block_size;
	return (p->hash_offset + VERITY_SB_SIZE + p->hash_block_size - 1) /
	       p->hash_block_size;
}

static int hex_nibble(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)tolower((unsigned char)c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

int verity_hex_decode(const char *hex, uint8_t *out, size_t max, size_t *len)
{
	size_t n = strlen(hex);

	if (n % 2 || n / 2 > max)
		return -EINVAL;
	for (size_t i = 0; i < n / 2; i++) {
		int hi = hex_nibble(hex[2 * i]),
		    lo = hex_nibble(hex[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -EINVAL;
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	*len = n / 2;
	return 0;
}

int verity_root_text_parse(const uint8_t *text, size_t len, char *hex,
			   size_t size, size_t *bad)
{
	size_t n = len;

	*bad = 0;
	while (n && (text[n - 1] == ' ' || text[n - 1] == '\t' ||
		     text[n - 1] == '\n' || text[n - 1] == '\r' ||
		     text[n - 1] == '\v' || text[n - 1] == '\f'))
		n--;
	for (size_t i = 0; i < n; i++) {
		if (hex_nibble((char)text[i]) < 0) {
			*bad = i + 1;
			return -EINVAL;
		}
	}
	if (n >= size)
		return -EINVAL;
	memcpy(hex, text, n);
	hex[n] = '\0';
	return 0;
}

void verity_hex_encode(const uint8_t *in, size_t len, char *out)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < len; i++) {
		out[2 * i] = digits[in[i] >> 4];
		out[2 * i + 1] = digits[in[i] & 15];
	}
	out[2 * len] = '\0';
}

int verity_uuid_parse(const char *s, uint8_t uuid[16])
{
	size_t k = 0;

	if (strlen(s) != 36)
		return -EINVAL;
	for (size_t i = 0; i < 36;) {
		int hi, lo;

		if (i == 8 || i == 13 || i == 18 || i == 23) {
			if (s[i++] != '-')
				return -EINVAL;
			continue;
		}
		hi = hex_nibble(s[i]);
		lo = hex_nibble(s[i + 1]);
		if (hi < 0 || lo < 0)
			return -EINVAL;
		uuid[k++] = (uint8_t)(hi << 4 | lo);
		i += 2;
	}
	return 0;
}

void verity_uuid_format(const uint8_t u[16], char out[37])
{
	char hex[33];

	verity_hex_encode(u, 16, hex);
	snprintf(out, 37, "%.8s-%.4s-%.4s-%.4s-%.12s", hex, hex + 8, hex + 12,
		 hex + 16, hex + 20);
}

int verity_random(uint8_t *buf, size_t len, struct ht_error *err)
{
	while (len) {
		ssize_t n = getrandom(buf, len, 0);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return ht_fail(err, errno,
				       "cannot get random bytes: %s",
				       strerror(errno));
		}
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

void verity_uuid_random(uint8_t uuid[16], const uint8_t random[16])
{
	memcpy(uuid, random, 16);
	uuid[6] = (uint8_t)((uuid[6] & 0x0f) | 0x40); /* version 4 */
	uuid[8] = (uint8_t)((uuid[8] & 0x3f) | 0x80); /* RFC 4122 variant */
}

unsigned verity_default_threads(void)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	return cpus < 1                    ? 1
	       : cpus > VERITY_MAX_THREADS ? VERITY_MAX_THREADS
					   : (unsigned)cpus;
}
