/* A tree in memory (verity/tree/memtree.c, what bench's tree figures
 * measure), from memory and read from a file: the root of dm-verity's
 * format 1, computed here with OpenSSL. */
#include <check.h>
#include <string.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "check_main.h"
#include "hashtree/hasher.h"
#include "verity/storage/device.h"
#include "verity/tree/memtree.h"

/* A tree in memory, from memory and read from a file: the root of
 * dm-verity's format 1, computed here with OpenSSL (two data blocks:
 * one hash block). */
START_TEST(a_tree_in_memory_has_formats_root)
{
	enum { BS = 4096 };
	static uint8_t data[2 * BS], hash_block[BS];
	char path[] = "/tmp/fv-bench-XXXXXX";
	struct verity_params p;
	struct verity_memtree mt;
	struct verity_device dev;
	uint8_t root[HT_MAX_DIGEST_SIZE], want[32];
	unsigned len;
	int fd;

	for (size_t i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)(i * 7 + (i >> 9));
	verity_params_default(&p);
	p.salt_size = 32;
	memset(p.salt, 0x5a, p.salt_size);
	p.data_blocks = 2;
	for (int b = 0; b < 2; b++) {
		EVP_MD_CTX *c = EVP_MD_CTX_new();

		EVP_DigestInit_ex(c, EVP_sha256(), NULL);
		EVP_DigestUpdate(c, p.salt, p.salt_size);
		EVP_DigestUpdate(c, data + b * BS, BS);
		EVP_DigestFinal_ex(c, hash_block + b * 32, &len);
		EVP_MD_CTX_free(c);
	}
	{
		EVP_MD_CTX *c = EVP_MD_CTX_new();

		EVP_DigestInit_ex(c, EVP_sha256(), NULL);
		EVP_DigestUpdate(c, p.salt, p.salt_size);
		EVP_DigestUpdate(c, hash_block, BS);
		EVP_DigestFinal_ex(c, want, &len);
		EVP_MD_CTX_free(c);
	}
	ck_assert_int_eq(verity_memtree_init(&mt, &p, data, NULL, NULL), 0);
	ck_assert_uint_eq(mt.g.levels, 1);
	ck_assert_uint_eq(mt.tree_bytes, BS);
	ck_assert_str_eq(mt.info.hash_path, "fast");
	ck_assert_int_eq(verity_memtree_build(&mt, 2, root, NULL), 0);
	ck_assert_int_eq(memcmp(root, want, 32), 0);
	verity_memtree_free(&mt);
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, data, sizeof(data)), (int)sizeof(data));
	close(fd);
	ck_assert_int_eq(verity_device_open(&dev, path, VERITY_OPEN_READ, NULL),
			 0);
	ck_assert_int_eq(verity_memtree_init(&mt, &p, NULL, &dev, NULL), 0);
	memset(root, 0, sizeof(root));
	ck_assert_int_eq(verity_memtree_build(&mt, 1, root, NULL), 0);
	ck_assert_int_eq(memcmp(root, want, 32), 0);
	verity_memtree_free(&mt);
	verity_device_close(&dev);
	unlink(path);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "memtree"};

	return run_unit(&u, UNIT_TESTS(a_tree_in_memory_has_formats_root));
}
