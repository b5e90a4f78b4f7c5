/* verity/files/files.c on files made here: root hash files (good hex,
 * white space after it, too many digits, a byte not hex, empty, a
 * directory, missing), bytes at an offset, superblocks at offsets and
 * looked for where an appended tree's would be, read (an update's
 * too), a sidecar image's files pruned, a size, a sparse image's sums. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "check_main.h"
#include "container/sparse/sparse_image.h"
#include "verity/files/files.h"
#include "verity/container/sidecar.h"
#include "verity/tree/params.h"
#include "verity/tree/superblock.h"

static char dir[32];

static void fsetup(void)
{
	strcpy(dir, "/tmp/fv-files-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void fteardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* dir/name (at most 160 bytes) into p. */
static char *at(char p[160], const char *name)
{
	snprintf(p, 160, "%s/%s", dir, name);
	return p;
}

static void put_file(const char *p, const void *b, size_t n)
{
	FILE *f = fopen(p, "wb");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(b, 1, n, f), n);
	fclose(f);
}

/* A file of size zeros (holes). */
static void zeros(const char *p, size_t size)
{
	FILE *f = fopen(p, "wb");

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(ftruncate(fileno(f), (off_t)size), 0);
	fclose(f);
}

static void put_at(const char *p, size_t off, const void *b, size_t n)
{
	FILE *f = fopen(p, "r+b");

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fseek(f, (long)off, SEEK_SET), 0);
	ck_assert_uint_eq(fwrite(b, 1, n, f), n);
	fclose(f);
}

/* A superblock of 300 data blocks (sha256, 4096) at off of p. */
static void superblock_at(const char *p, size_t off)
{
	struct verity_params v;
	uint8_t sb[VERITY_SB_SIZE];

	verity_params_default(&v);
	v.data_blocks = 300;
	v.salt_size = 4;
	memcpy(v.salt, "\1\2\3\4", 4);
	verity_sb_encode(&v, sb);
	put_at(p, off, sb, sizeof(sb));
}

static const char H64[] =
	"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

static int root_of(const char *text, char *hex, size_t size,
		   struct ht_error *err)
{
	char p[160];

	put_file(at(p, "root"), text, strlen(text));
	return verity_files_root_read(p, hex, size, err);
}

START_TEST(root_file_good)
{
	char hex[2 * HT_MAX_DIGEST_SIZE + 1], text[160];
	struct ht_error err;

	ck_assert_int_eq(root_of(H64, hex, sizeof(hex), &err), 0);
	ck_assert_str_eq(hex, H64);
	/* white space after it: a newline, CR LF, tabs and spaces */
	snprintf(text, sizeof(text), "%s\n", H64);
	ck_assert_int_eq(root_of(text, hex, sizeof(hex), &err), 0);
	ck_assert_str_eq(hex, H64);
	snprintf(text, sizeof(text), "%s \t\r\n\n", H64);
	ck_assert_int_eq(root_of(text, hex, sizeof(hex), &err), 0);
	ck_assert_str_eq(hex, H64);
	/* upper case kept as written (the caller checks the length) */
	ck_assert_int_eq(root_of("ABCDEF12", hex, sizeof(hex), &err), 0);
	ck_assert_str_eq(hex, "ABCDEF12");
	/* exactly as many digits as fit */
	ck_assert_int_eq(root_of(H64, hex, 65, &err), 0);
	ck_assert_str_eq(hex, H64);
}
END_TEST

START_TEST(root_file_bad)
{
	char hex[65], text[200], p[160];
	struct ht_error err;

	/* more digits than fit */
	snprintf(text, sizeof(text), "%s00", H64);
	ck_assert_int_eq(root_of(text, hex, sizeof(hex), &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "more than 64 hex digits"));
	/* a byte not hex: its 1-based position named */
	ck_assert_int_eq(root_of("12zz", hex, sizeof(hex), &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "byte 3 is not a hex"));
	/* white space inside, or before, the digits */
	ck_assert_int_eq(root_of("12 34\n", hex, sizeof(hex), &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "byte 3 is not a hex"));
	ck_assert_int_eq(root_of("\n1234", hex, sizeof(hex), &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "byte 1 is not a hex"));
	/* a NUL in it */
	put_file(at(p, "nul"), "12\0" "34", 5);
	ck_assert_int_eq(verity_files_root_read(p, hex, sizeof(hex), &err),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "byte 3 is not a hex"));
	/* empty: no digits, read as such (the length is the caller's) */
	hex[0] = 'x';
	ck_assert_int_eq(root_of("", hex, sizeof(hex), &err), 0);
	ck_assert_str_eq(hex, "");
	ck_assert_int_eq(root_of("\n", hex, sizeof(hex), &err), 0);
	ck_assert_str_eq(hex, "");
	/* a directory, a missing file: EINVAL, the path named */
	ck_assert_int_eq(verity_files_root_read(dir, hex, sizeof(hex), &err),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), dir));
	ck_assert_int_eq(
		verity_files_root_read(at(p, "none"), hex, sizeof(hex), &err),
		-EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "none"));
	/* larger than a root hash file may be (4096 bytes) */
	zeros(at(p, "big"), 5000);
	ck_assert_int_eq(verity_files_root_read(p, hex, sizeof(hex), &err),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "too large"));
}
END_TEST

START_TEST(bytes_at_bounds)
{
	struct verity_device d;
	struct ht_error err;
	char p[160];

	put_file(at(p, "b"), "0123456789abcdef", 16);
	ck_assert_int_eq(verity_device_open(&d, p, VERITY_OPEN_READ, &err), 0);
	ck_assert_int_eq(verity_files_bytes_at(&d, 0, "0123", 4), 1);
	ck_assert_int_eq(verity_files_bytes_at(&d, 8, "89abcdef", 8), 1);
	ck_assert_int_eq(verity_files_bytes_at(&d, 8, "89abcdeX", 8), 0);
	/* past the end, more than 8 bytes, an offset that wraps */
	ck_assert_int_eq(verity_files_bytes_at(&d, 9, "9abcdef", 8), 0);
	ck_assert_int_eq(verity_files_bytes_at(&d, 16, "", 1), 0);
	ck_assert_int_eq(verity_files_bytes_at(&d, 0, "0123456789", 9), 0);
	ck_assert_int_eq(verity_files_bytes_at(&d, UINT64_MAX - 2, "0123", 4),
			 0);
	ck_assert_int_eq(verity_files_bytes_at(&d, 0, "", 0), 1);
	verity_device_close(&d);
}
END_TEST

START_TEST(superblock_kinds)
{
	char p[160];

	zeros(at(p, "h"), 4 * 4096);
	ck_assert_int_eq(verity_files_superblock_at(p, 0), VERITY_FILES_SB_NONE);
	superblock_at(p, 4096);
	ck_assert_int_eq(verity_files_superblock_at(p, 4096),
			 VERITY_FILES_SB_FOUND);
	ck_assert_int_eq(verity_files_superblock_at(p, 0), VERITY_FILES_SB_NONE);
	ck_assert_int_eq(verity_files_superblock_at(p, 4095),
			 VERITY_FILES_SB_NONE);
	put_at(p, 8192, VERITY_SB_UNFINISHED, sizeof(VERITY_SB_UNFINISHED));
	ck_assert_int_eq(verity_files_superblock_at(p, 8192),
			 VERITY_FILES_SB_UNFINISHED);
	put_at(p, 0, VERITY_SB_UPDATING, sizeof(VERITY_SB_UPDATING));
	ck_assert_int_eq(verity_files_superblock_at(p, 0),
			 VERITY_FILES_SB_UPDATING);
	/* the magic cut by the file's end; past it; no file; no path */
	ck_assert_int_eq(verity_files_superblock_at(p, 4 * 4096 - 4),
			 VERITY_FILES_SB_NONE);
	ck_assert_int_eq(verity_files_superblock_at(p, 1 << 20),
			 VERITY_FILES_SB_NONE);
	ck_assert_int_eq(verity_files_superblock_at(p, UINT64_MAX - 3),
			 VERITY_FILES_SB_NONE);
	ck_assert_int_eq(verity_files_superblock_at(at(p, "none"), 0),
			 VERITY_FILES_SB_NONE);
	ck_assert_int_eq(verity_files_superblock_at(NULL, 0),
			 VERITY_FILES_SB_NONE);
}
END_TEST

START_TEST(superblock_search)
{
	const size_t data = 256 * 4096, size = data + 3 * 4096;
	struct ht_error err;
	uint64_t off = 1;
	char p[160];

	/* an appended tree's superblock right after the data */
	zeros(at(p, "img"), size);
	ck_assert_int_eq(verity_files_superblock_find(p, UINT64_MAX, &off,
						      &err),
			 -ENOENT);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "no superblock where"));
	ck_assert_uint_eq(off, 1);
	superblock_at(p, data);
	ck_assert_int_eq(verity_files_superblock_find(p, UINT64_MAX, &off,
						      &err),
			 0);
	ck_assert_uint_eq(off, data);
	/* skip: the one found already is not found again; a second one
	 * later is */
	ck_assert_int_eq(verity_files_superblock_find(p, data, &off, &err),
			 -ENOENT);
	superblock_at(p, data + 8192);
	ck_assert_int_eq(verity_files_superblock_find(p, data, &off, &err), 0);
	ck_assert_uint_eq(off, data + 8192);
	/* a superblock in the first part of the image is not looked at */
	zeros(at(p, "early"), size);
	superblock_at(p, 4096);
	ck_assert_int_eq(verity_files_superblock_find(p, UINT64_MAX, &off,
						      &err),
			 -ENOENT);
	/* only 4096-byte boundaries are looked at */
	zeros(at(p, "odd"), size);
	superblock_at(p, data + 512);
	ck_assert_int_eq(verity_files_superblock_find(p, UINT64_MAX, &off,
						      &err),
			 -ENOENT);
	/* a file smaller than a superblock; an empty one; a missing one */
	put_file(at(p, "small"), "verity\0\0", 8);
	ck_assert_int_eq(verity_files_superblock_find(p, UINT64_MAX, &off,
						      &err),
			 -ENOENT);
	put_file(at(p, "empty"), "", 0);
	ck_assert_int_eq(verity_files_superblock_find(p, UINT64_MAX, &off,
						      &err),
			 -ENOENT);
	ck_assert_int_lt(verity_files_superblock_find(at(p, "none"),
						      UINT64_MAX, &off, &err),
			 0);
}
END_TEST

START_TEST(superblock_read)
{
	struct verity_pair pair;
	struct verity_params v;
	struct ht_error err;
	char p[160];

	zeros(at(p, "hash"), 4 * 4096);
	superblock_at(p, 4096);
	memset(&pair, 0, sizeof(pair));
	pair.hash.path = p;
	ck_assert_int_eq(verity_files_superblock_read(&pair, 4096, 0, &v, &err),
			 0);
	ck_assert_uint_eq(v.data_blocks, 300);
	ck_assert_uint_eq(v.hash_offset, 4096);
	ck_assert_uint_eq(v.salt_size, 4);
	ck_assert_mem_eq(v.salt, "\1\2\3\4", 4);
	ck_assert_str_eq(v.hash_name, "sha256");
	/* none there */
	ck_assert_int_eq(verity_files_superblock_read(&pair, 0, 0, &v, &err),
			 -EINVAL);
	/* an update left unfinished: read by update only */
	put_at(p, 4096, VERITY_SB_UPDATING, sizeof(VERITY_SB_UPDATING));
	ck_assert_int_lt(verity_files_superblock_read(&pair, 4096, 0, &v, &err),
			 0);
	ck_assert_int_eq(verity_files_superblock_read(&pair, 4096, 1, &v, &err),
			 0);
	ck_assert_uint_eq(v.data_blocks, 300);
	/* a format left unfinished: refused by both */
	put_at(p, 4096, VERITY_SB_UNFINISHED, sizeof(VERITY_SB_UNFINISHED));
	ck_assert_int_lt(verity_files_superblock_read(&pair, 4096, 0, &v, &err),
			 0);
	ck_assert_int_lt(verity_files_superblock_read(&pair, 4096, 1, &v, &err),
			 0);
	/* a missing hash file */
	pair.hash.path = at(p, "none");
	ck_assert_int_lt(verity_files_superblock_read(&pair, 0, 0, &v, &err),
			 0);
}
END_TEST

START_TEST(sidecar_files_pruned)
{
	struct verity_sidecar side;
	struct ht_error err;
	unsigned removed = 99;
	char p[160];

	/* IMAGE.raw's names drop .raw; other names get the suffixes */
	ck_assert_int_eq(verity_sidecar_names(at(p, "x.raw"), &side, &err), 0);
	ck_assert_ptr_nonnull(strstr(side.tree, "/x.verity"));
	ck_assert_ptr_nonnull(strstr(side.roothash, "/x.roothash"));
	ck_assert_ptr_nonnull(strstr(side.signature, "/x.roothash.p7s"));
	ck_assert_ptr_nonnull(strstr(side.fec, "/x.fec"));
	put_file(side.tree, "t", 1);
	put_file(side.roothash, "r", 1);
	put_file(side.signature, "s", 1);
	put_file(side.fec, "f", 1);
	/* everything kept */
	ck_assert_int_eq(verity_files_sidecar_prune(p, 1, 1, &removed, &err),
			 0);
	ck_assert_uint_eq(removed, 0);
	ck_assert_int_eq(access(side.signature, F_OK), 0);
	ck_assert_int_eq(access(side.fec, F_OK), 0);
	/* the parity gone, then the signature; the tree and root stay */
	ck_assert_int_eq(verity_files_sidecar_prune(p, 1, 0, &removed, &err),
			 0);
	ck_assert_uint_eq(removed, VERITY_SIDECAR_FEC);
	ck_assert_int_ne(access(side.fec, F_OK), 0);
	ck_assert_int_eq(access(side.signature, F_OK), 0);
	put_file(side.fec, "f", 1);
	ck_assert_int_eq(verity_files_sidecar_prune(p, 0, 0, &removed, &err),
			 0);
	ck_assert_uint_eq(removed, VERITY_SIDECAR_FEC | VERITY_SIDECAR_SIGNATURE);
	ck_assert_int_ne(access(side.signature, F_OK), 0);
	ck_assert_int_eq(access(side.tree, F_OK), 0);
	ck_assert_int_eq(access(side.roothash, F_OK), 0);
	/* nothing left to remove; removed may be NULL */
	ck_assert_int_eq(verity_files_sidecar_prune(p, 0, 0, &removed, &err),
			 0);
	ck_assert_uint_eq(removed, 0);
	ck_assert_int_eq(verity_files_sidecar_prune(p, 0, 0, NULL, &err), 0);
	/* a sidecar that cannot be removed (a directory): an error */
	ck_assert_int_eq(mkdir(side.signature, 0700), 0);
	ck_assert_int_lt(verity_files_sidecar_prune(p, 0, 0, &removed, &err),
			 0);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "x.roothash.p7s"));
	verity_sidecar_free(&side);
	/* a name without .raw */
	ck_assert_int_eq(verity_sidecar_names("a/img", &side, &err), 0);
	ck_assert_str_eq(side.tree, "a/img.verity");
	ck_assert_str_eq(side.fec, "a/img.fec");
	verity_sidecar_free(&side);
}
END_TEST

START_TEST(sizes)
{
	struct ht_error err;
	uint64_t size = 1;
	char p[160];

	zeros(at(p, "s"), 12345);
	ck_assert_int_eq(verity_files_size(p, &size, &err), 0);
	ck_assert_uint_eq(size, 12345);
	put_file(at(p, "e"), "", 0);
	ck_assert_int_eq(verity_files_size(p, &size, &err), 0);
	ck_assert_uint_eq(size, 0);
	size = 7;
	ck_assert_int_lt(verity_files_size(at(p, "none"), &size, &err), 0);
	ck_assert_uint_eq(size, 7);
}
END_TEST

START_TEST(sparse_sums)
{
	uint8_t block[BS], sum[4];
	struct made m;
	struct ht_error err;
	unsigned sums = 9;
	char p[160];

	/* not sparse: 1 */
	zeros(at(p, "plain"), 8192);
	ck_assert_int_eq(verity_files_sparse_crc(p, &sums, &err), 1);
	ck_assert_uint_eq(sums, 0);
	/* a raw block, then a CRC32 chunk of the bytes so far */
	memcpy(path, dir, strlen(dir));
	memcpy(path + strlen(dir), "/sparse", 8);
	memset(block, 0x3c, sizeof(block));
	put32(sum, (uint32_t)crc32(0, block, BS));
	start(&m, 28, 12);
	add(&m, 0xcac1, 1, block, BS, 0);
	add(&m, 0xcac4, 0, sum, 4, 0);
	finish(&m, 0, 0);
	ck_assert_int_eq(verity_files_sparse_crc(path, &sums, &err), 0);
	ck_assert_uint_eq(sums, 1);
	ck_assert_int_eq(verity_files_sparse_crc(path, NULL, &err), 0);
	free(m.file);
	free(m.raw);
	/* the sum wrong */
	sum[0] ^= 1;
	start(&m, 28, 12);
	add(&m, 0xcac1, 1, block, BS, 0);
	add(&m, 0xcac4, 0, sum, 4, 0);
	finish(&m, 0, 0);
	ck_assert_int_lt(verity_files_sparse_crc(path, &sums, &err), 0);
	free(m.file);
	free(m.raw);
	/* missing */
	ck_assert_int_lt(verity_files_sparse_crc(at(p, "none"), &sums, &err),
			 0);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {"files", 0, fsetup, fteardown, 0,
					    NULL};

	(void)setup;
	(void)teardown;
	(void)rewrite;
	(void)read_image;
	return run_unit(&u, UNIT_TESTS(root_file_good, root_file_bad,
				       bytes_at_bounds, superblock_kinds,
				       superblock_search, superblock_read,
				       sidecar_files_pruned, sizes,
				       sparse_sums));
}
