/* fs-verity digests through the public API against a plain model of
 * fs-verity written here (OpenSSL, one block at a time, each level in
 * memory): digest, root, descriptor and tree for files of 0 bytes to
 * past the size one worker reads whole, every hash, block sizes 1 and 64
 * KiB, salts 0-32 bytes (the padded salt of 64 bytes on the fast path),
 * from a path and from a read callback, on one and three threads, the
 * tree kept, written to a file or dropped; many files at once and the
 * first failure among them; memory that does not grow with the file;
 * the parameters' checks. */
#include <check.h>

#include "check_main.h"
#include <errno.h>
#include <openssl/evp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "include/fastverity.h"

static char dir[] = "/tmp/fv-unit-fsverity.XXXXXX";
static uint64_t rng = 0x243f6a8885a308d3u;

static uint8_t next_byte(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint8_t)(rng >> 32);
}

static void hash(const char *md, const uint8_t *salt, size_t salt_len,
		 const uint8_t *b, size_t n, uint8_t *out)
{
	EVP_MD_CTX *c = EVP_MD_CTX_new();

	ck_assert(EVP_DigestInit_ex(c, EVP_get_digestbyname(md), NULL));
	ck_assert(EVP_DigestUpdate(c, salt, salt_len));
	ck_assert(EVP_DigestUpdate(c, b, n));
	ck_assert(EVP_DigestFinal_ex(c, out, NULL));
	EVP_MD_CTX_free(c);
}

struct model {
	uint8_t digest[64], root[64], desc[256];
	uint8_t *tree;
	size_t tree_len;
};

/* The model: each level the digests of the one below, packed and padded
 * to whole blocks, until one block is left; the tree stored top level
 * first. */
static void model(const uint8_t *data, size_t size, const char *md,
		  unsigned alg, size_t bs, const uint8_t *salt, size_t salt_len,
		  struct model *m)
{
	size_t ds = alg == 1 ? 32 : 64, unit = alg == 1 ? 64 : 128;
	uint8_t psalt[128] = {0};
	size_t plen = (salt_len + unit - 1) / unit * unit;
	size_t n = (size + bs - 1) / bs, cur_len = n * bs, levels = 0;
	uint8_t *padded = calloc(1, cur_len ? cur_len : 1), *cur = padded;
	uint8_t *lv[64];
	size_t lv_len[64];
	unsigned log = 0;

	memset(m, 0, sizeof(*m));
	if (salt_len)
		memcpy(psalt, salt, salt_len);
	memcpy(padded, data, size);
	while (n > 1) {
		size_t next_len = (n * ds + bs - 1) / bs * bs;
		uint8_t *next = calloc(1, next_len);

		for (size_t i = 0; i < n; i++)
			hash(md, psalt, plen, cur + i * bs, bs, next + i * ds);
		lv[levels] = next;
		lv_len[levels++] = next_len;
		cur = next;
		n = next_len / bs;
	}
	if (size)
		hash(md, psalt, plen, cur, bs, m->root);
	free(padded);
	for (size_t l = 0; l < levels; l++)
		m->tree_len += lv_len[l];
	m->tree = malloc(m->tree_len ? m->tree_len : 1);
	for (size_t l = levels, at = 0; l-- > 0;) {
		memcpy(m->tree + at, lv[l], lv_len[l]);
		at += lv_len[l];
		free(lv[l]);
	}
	while ((1u << log) < bs)
		log++;
	m->desc[0] = 1;
	m->desc[1] = (uint8_t)alg;
	m->desc[2] = (uint8_t)log;
	m->desc[3] = (uint8_t)salt_len;
	for (int i = 0; i < 8; i++)
		m->desc[8 + i] = (uint8_t)((uint64_t)size >> (8 * i));
	memcpy(m->desc + 16, m->root, ds);
	if (salt_len)
		memcpy(m->desc + 80, salt, salt_len);
	hash(md, NULL, 0, m->desc, 256, m->digest);
}

/* What d is made of (fv_fsverity_digest_info). */
static struct fv_fsverity_info info_of(const fv_fsverity_digest *d)
{
	struct fv_fsverity_info i = {.size = sizeof(i)};

	ck_assert_int_eq(fv_fsverity_digest_info(d, &i), 0);
	ck_assert_uint_eq(i.size, sizeof(i));
	return i;
}

static void same_as_model(const fv_fsverity_digest *d, const struct model *m,
			  size_t ds, int tree_kept, const char *what)
{
	struct fv_fsverity_info i = info_of(d);

	ck_assert_uint_eq(i.digest_len, ds);
	ck_assert_msg(!memcmp(i.digest, m->digest, ds), "%s: digest", what);
	ck_assert_msg(!memcmp(i.root, m->root, ds), "%s: root", what);
	ck_assert_msg(!memcmp(i.descriptor, m->desc, 256), "%s: descriptor",
		      what);
	if (!tree_kept) {
		ck_assert_ptr_null(i.tree);
		ck_assert_uint_eq(i.tree_len, 0);
		return;
	}
	ck_assert_uint_eq(i.tree_len, m->tree_len);
	ck_assert_msg(!m->tree_len || !memcmp(i.tree, m->tree, m->tree_len),
		      "%s: tree", what);
}

struct reader {
	const uint8_t *data;
	size_t at, size;
	int fail_at; /* fail the read that passes this byte; -1: never */
};

static int read_fn(void *ctx, void *buf, size_t count)
{
	struct reader *r = ctx;

	if (r->fail_at >= 0 && r->at + count > (size_t)r->fail_at)
		return -EIO;
	ck_assert_uint_le(r->at + count, r->size);
	memcpy(buf, r->data + r->at, count);
	r->at += count;
	return 0;
}

/* fv_fsverity_compute of the file at path. */
static int compute(const struct fv_fsverity_params *p, const char *path,
		   const fv_options *o, const char *tree_path, unsigned flags,
		   fv_fsverity_digest **d)
{
	struct fv_fsverity_request q = {.size = sizeof(q),
					.params = p,
					.path = path,
					.tree_path = tree_path,
					.flags = flags};

	return fv_fsverity_compute(&q, o, d);
}

/* fv_fsverity_compute of size bytes from r. */
static int compute_read(const struct fv_fsverity_params *p, struct reader *r,
			uint64_t size, const char *name, unsigned flags,
			fv_fsverity_digest **d)
{
	struct fv_fsverity_request q = {.size = sizeof(q),
					.params = p,
					.read = read_fn,
					.read_ctx = r,
					.read_size = size,
					.name = name,
					.flags = flags};

	return fv_fsverity_compute(&q, NULL, d);
}

/* The file at path holds the n bytes at b. */
static void file_is(const char *path, const uint8_t *b, size_t n,
		    const char *what)
{
	FILE *f = fopen(path, "rb");
	uint8_t *got = malloc(n + 1);

	ck_assert_ptr_nonnull(f);
	ck_assert_msg(fread(got, 1, n + 1, f) == n, "%s: tree file's size",
		      what);
	ck_assert_msg(!n || !memcmp(got, b, n), "%s: tree file", what);
	fclose(f);
	free(got);
}

static void spill(const char *path, const uint8_t *b, size_t n)
{
	FILE *f = fopen(path, "wb");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(b, 1, n, f), n);
	ck_assert_int_eq(fclose(f), 0);
}

static const struct setting {
	const char *md;
	unsigned alg;
	uint32_t bs;
	size_t salt;
} settings[] = {
	{"sha256", 1, 4096, 0},  {"sha256", 1, 1024, 13},
	{"sha256", 1, 2048, 32}, {"sha512", 2, 65536, 32},
	{"sha512", 2, 1024, 0},  {"sha256", 1, 65536, 1},
};

START_TEST(digests_equal_the_model)
{
	static const size_t sizes[] = {0,
				       1,
				       4095,
				       4096,
				       4097,
				       128 * 4096,
				       128 * 4096 + 1,
				       129 * 1024 * 33 + 7,
				       (9u << 20) + 5};
	size_t max = (9u << 20) + 5;
	uint8_t *data = malloc(max), salt[32];
	char path[128], tree[128];
	size_t failed;

	for (size_t i = 0; i < max; i++)
		data[i] = next_byte();
	for (size_t i = 0; i < sizeof(salt); i++)
		salt[i] = next_byte();
	snprintf(path, sizeof(path), "%s/file", dir);
	snprintf(tree, sizeof(tree), "%s/tree", dir);
	for (size_t z = 0; z < sizeof(sizes) / sizeof(sizes[0]); z++) {
		spill(path, data, sizes[z]);
		for (size_t k = 0; k < sizeof(settings) / sizeof(settings[0]);
		     k++) {
			const struct setting *s = &settings[k];
			size_t ds = s->alg == 1 ? 32 : 64;
			struct fv_fsverity_params fp = {.size = sizeof(fp)},
						  *p = &fp;
			struct model m;
			char what[128];

			/* the largest file with two settings only: its
			 * model is slow */
			if (sizes[z] > (4u << 20) && k > 1)
				continue;
			snprintf(what, sizeof(what),
				 "%zu bytes, %s, %u, salt %zu", sizes[z], s->md,
				 s->bs, s->salt);
			model(data, sizes[z], s->md, s->alg, s->bs, salt,
			      s->salt, &m);
			fp.hash = s->md;
			fp.block_size = s->bs;
			fp.salt = salt;
			fp.salt_len = s->salt;
			for (unsigned threads = 1; threads <= 3; threads += 2) {
				fv_options o_ = {.size = sizeof(o_)}, *o = &o_;
				fv_fsverity_digest *d;

				o->threads = threads;
				ck_assert_int_eq(compute(p, path, o, NULL,
							 FV_FSVERITY_KEEP_TREE,
							 &d),
						 0);
				same_as_model(d, &m, ds, 1, what);
				fv_fsverity_digest_free(d);
				o->map = 1;
				ck_assert_int_eq(compute(p, path, o, NULL,
							 FV_FSVERITY_KEEP_TREE,
							 &d),
						 0);
				same_as_model(d, &m, ds, 1, what);
				fv_fsverity_digest_free(d);
				/* the tree written to a file, not kept */
				ck_assert_int_eq(compute(p, path, o, tree,
							 FV_FSVERITY_KEEP_TREE,
							 &d),
						 0);
				same_as_model(d, &m, ds, 0, what);
				file_is(tree, m.tree, m.tree_len, what);
				fv_fsverity_digest_free(d);
				/* neither */
				ck_assert_int_eq(
					compute(p, path, o, NULL, 0, &d), 0);
				same_as_model(d, &m, ds, 0, what);
				fv_fsverity_digest_free(d);
				ck_assert_int_eq(fv_fsverity_compute_files(
							 p,
							 (const char *[]){path},
							 1, o, 0, &d, &failed),
						 0);
				same_as_model(d, &m, ds, 0, what);
				fv_fsverity_digest_free(d);
			}
			{
				struct reader r = {data, 0, sizes[z], -1};
				fv_fsverity_digest *d;

				ck_assert_int_eq(
					compute_read(p, &r, sizes[z], "stream",
						     FV_FSVERITY_KEEP_TREE, &d),
					0);
				ck_assert_uint_eq(r.at, sizes[z]);
				same_as_model(d, &m, ds, 1, what);
				fv_fsverity_digest_free(d);
				/* the tree not kept */
				r.at = 0;
				ck_assert_int_eq(compute_read(p, &r, sizes[z],
							      "stream", 0, &d),
						 0);
				same_as_model(d, &m, ds, 0, what);
				fv_fsverity_digest_free(d);
				/* written to a file as it is made */
				{
					struct fv_fsverity_request q = {
						.size = sizeof(q),
						.params = p,
						.read = read_fn,
						.read_ctx = &r,
						.read_size = sizes[z],
						.tree_path = tree};

					r.at = 0;
					ck_assert_int_eq(fv_fsverity_compute(
								 &q, NULL, &d),
							 0);
					same_as_model(d, &m, ds, 0, what);
					file_is(tree, m.tree, m.tree_len, what);
					fv_fsverity_digest_free(d);
				}
			}
			free(m.tree);
		}
	}
	unlink(path);
	unlink(tree);
	free(data);
}
END_TEST

/* AddressSanitizer keeps freed blocks aside (up to 256 MiB): the bound
 * on memory is the optimised build's to check. */
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifndef UNDER_ASAN
#define UNDER_ASAN 0
#endif

static long max_rss_kib(void)
{
	struct rusage u;

	ck_assert_int_eq(getrusage(RUSAGE_SELF, &u), 0);
	return u.ru_maxrss;
}

/* A sparse file of 4 GiB in 1 KiB blocks, SHA-512: a tree of 256 MiB,
 * never held (memory grew by the tree's size when it was); the same
 * digest as with the tree kept. A tree file that cannot be made: its
 * name said, nothing left. */
START_TEST(memory_does_not_grow_with_the_file)
{
	const struct fv_fsverity_params p = {
		.size = sizeof(p), .hash = "sha512", .block_size = 1024};
	fv_options o_ = {.size = sizeof(o_)}, *o = &o_;
	fv_fsverity_digest *d, *kept;
	char path[128], bad[160];
	const char *paths[1] = {path};
	long before;
	size_t failed;
	FILE *f;

	snprintf(path, sizeof(path), "%s/sparse", dir);
	ck_assert_ptr_nonnull(f = fopen(path, "wb"));
	ck_assert_int_eq(fseeko(f, (off_t)3 << 30, SEEK_SET), 0);
	ck_assert_int_ge(fputs("data past 3 GiB", f), 0);
	ck_assert_int_eq(ftruncate(fileno(f), (off_t)4 << 30), 0);
	ck_assert_int_eq(fclose(f), 0);
	o->threads = 3;
	before = max_rss_kib();
	ck_assert_int_eq(
		fv_fsverity_compute_files(&p, paths, 1, o, 0, &d, &failed), 0);
	ck_assert_msg(UNDER_ASAN || max_rss_kib() - before < 32768,
		      "%ld KiB more resident for a file of 4 GiB",
		      max_rss_kib() - before);
	ck_assert_uint_eq(info_of(d).tree_len, 0);
	fv_fsverity_digest_free(d);
	before = max_rss_kib();
	ck_assert_int_eq(compute(&p, path, o, NULL, 0, &d), 0);
	ck_assert_msg(UNDER_ASAN || max_rss_kib() - before < 32768,
		      "%ld KiB more resident for a file of 4 GiB",
		      max_rss_kib() - before);
	ck_assert_uint_eq(info_of(d).tree_len, 0);
	ck_assert_int_eq(
		compute(&p, path, o, NULL, FV_FSVERITY_KEEP_TREE, &kept), 0);
	ck_assert_uint_eq(info_of(kept).tree_len, 256u << 20 | 16u << 20 |
							  1u << 20 | 64u << 10 |
							  4u << 10 | 1u << 10);
	ck_assert_str_eq(info_of(d).digest_hex, info_of(kept).digest_hex);
	fv_fsverity_digest_free(kept);
	fv_fsverity_digest_free(d);
	snprintf(bad, sizeof(bad), "%s/no/such/dir/tree", dir);
	ck_assert_int_lt(compute(&p, path, o, bad, 0, &d), 0);
	ck_assert_ptr_null(d);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), bad));
	snprintf(bad, sizeof(bad), "%s", dir);
	ck_assert_int_eq(compute(&p, path, o, bad, 0, &d), -EINVAL);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), "not a regular file"));
	unlink(path);
}
END_TEST

START_TEST(many_files_and_the_first_failure)
{
	enum { N = 40 };
	const char *paths[N];
	fv_fsverity_digest *out[N];
	const struct fv_fsverity_params *p = NULL; /* the defaults */
	fv_options o_ = {.size = sizeof(o_)}, *o = &o_;
	static char names[N][128];
	uint8_t *data = malloc(9u << 20);
	size_t sizes[N], failed;

	for (size_t i = 0; i < (9u << 20); i++)
		data[i] = next_byte();
	for (int i = 0; i < N; i++) {
		/* small files, and two over what one worker reads whole */
		sizes[i] = i == 5 || i == 30 ? (9u << 20) - (size_t)i
					     : (size_t)(i * 7919) % 90000;
		snprintf(names[i], sizeof(names[i]), "%s/m%02d", dir, i);
		spill(names[i], data + i, sizes[i]);
		paths[i] = names[i];
	}
	o->threads = 2;
	ck_assert_int_eq(fv_fsverity_compute_files(p, paths, N, o,
						   FV_FSVERITY_KEEP_TREE, out,
						   &failed),
			 0);
	ck_assert_uint_eq(failed, N);
	for (int i = 0; i < N; i++) {
		struct model m;

		model(data + i, sizes[i], "sha256", 1, 4096, NULL, 0, &m);
		same_as_model(out[i], &m, 32, 1, names[i]);
		free(m.tree);
		fv_fsverity_digest_free(out[i]);
	}
	/* without the trees kept: none */
	ck_assert_int_eq(
		fv_fsverity_compute_files(p, paths, 3, o, 0, out, &failed), 0);
	ck_assert_uint_eq(info_of(out[2]).tree_len, 0);
	for (int i = 0; i < 3; i++)
		fv_fsverity_digest_free(out[i]);
	/* a missing file at 17 (and a directory at 25): the first of them,
	 * the digests before it, none after */
	unlink(names[17]);
	paths[25] = dir;
	ck_assert_int_eq(
		fv_fsverity_compute_files(p, paths, N, o, 0, out, &failed),
		-ENODEV);
	ck_assert_uint_eq(failed, 17);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), "m17"));
	for (int i = 0; i < N; i++) {
		if (i < 17)
			ck_assert_ptr_nonnull(out[i]);
		else
			ck_assert_ptr_null(out[i]);
		fv_fsverity_digest_free(out[i]);
	}
	for (int i = 0; i < N; i++)
		unlink(names[i]);
	free(data);
}
END_TEST

/* p as judged alone (fv_fsverity_compute_files of no file). */
static int check(const struct fv_fsverity_params *p)
{
	fv_fsverity_digest *none[1];
	size_t failed;

	return fv_fsverity_compute_files(p, NULL, 0, NULL, 0, none, &failed);
}

START_TEST(bad_parameters_and_reads)
{
	struct fv_fsverity_params p = {.size = sizeof(p)};
	uint8_t salt[33] = {0};
	struct reader r = {salt, 0, sizeof(salt), 20};
	struct fv_fsverity_info i;
	fv_fsverity_digest *d;

	ck_assert_int_eq(check(NULL), 0);
	ck_assert_int_eq(check(&p), 0);
	p.block_size = 512;
	ck_assert_int_eq(check(&p), -EINVAL);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), "block size 512"));
	p.block_size = 3000;
	ck_assert_int_eq(check(&p), -EINVAL);
	p.block_size = 131072;
	ck_assert_int_eq(check(&p), -EINVAL);
	p.block_size = 1024;
	p.salt = salt;
	p.salt_len = 33;
	ck_assert_int_eq(check(&p), -EINVAL);
	p.salt = NULL;
	p.salt_len = 1;
	ck_assert_int_eq(check(&p), -EINVAL);
	p.salt_len = 0;
	p.hash = "md5";
	ck_assert_int_eq(check(&p), -EINVAL);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), "md5"));
	p.hash = "sha1";
	ck_assert_int_eq(check(&p), -EINVAL);
	p.hash = "sha256";
	ck_assert_int_eq(check(&p), 0);
	/* a size that does not reach the first member; one that stops
	 * before the block size: the rest the defaults */
	p.size = sizeof(size_t);
	ck_assert_int_eq(check(&p), -EINVAL);
	p.size = offsetof(struct fv_fsverity_params, block_size);
	p.hash = "sha512";
	p.block_size = 3000;
	ck_assert_int_eq(check(&p), 0);
	p = (struct fv_fsverity_params){.size = sizeof(p), .block_size = 1024};
	/* a request: one of a path and a read, known flags */
	{
		struct fv_fsverity_request q = {.size = sizeof(q)};

		ck_assert_int_eq(fv_fsverity_compute(&q, NULL, &d), -EINVAL);
		ck_assert_ptr_null(d);
		q.path = "x";
		q.read = read_fn;
		ck_assert_int_eq(fv_fsverity_compute(&q, NULL, &d), -EINVAL);
		q.read = NULL;
		q.flags = 2;
		ck_assert_int_eq(fv_fsverity_compute(&q, NULL, &d), -EINVAL);
		q.flags = 0;
		q.size = sizeof(size_t);
		ck_assert_int_eq(fv_fsverity_compute(&q, NULL, &d), -EINVAL);
		ck_assert_int_eq(fv_fsverity_compute(NULL, NULL, &d), -EINVAL);
	}
	/* a read that fails: the error, the stream's name in it */
	ck_assert_int_eq(compute_read(&p, &r, sizeof(salt), "blob", 0, &d),
			 -EIO);
	ck_assert_ptr_null(d);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), "blob"));
	/* the formatted digest: "FSVerity", le16 1, le16 32, the digest */
	r = (struct reader){salt, 0, sizeof(salt), -1};
	ck_assert_int_eq(compute_read(&p, &r, sizeof(salt), NULL, 0, &d), 0);
	i = info_of(d);
	ck_assert_uint_eq(i.signed_digest_len, 44);
	ck_assert(!memcmp(i.signed_digest, "FSVerity\1\0\40\0", 12));
	ck_assert(!memcmp(i.signed_digest + 12, i.digest, 32));
	ck_assert_str_eq(i.hash, "sha256");
	ck_assert_uint_eq(i.file_size, sizeof(salt));
	{
		char hex[65];

		ck_assert_uint_eq(i.digest_len, 32);
		for (int k = 0; k < 32; k++)
			snprintf(hex + 2 * k, 3, "%02x", i.digest[k]);
		ck_assert_str_eq(i.digest_hex, hex);
	}
	/* a structure of an older, shorter version: filled as far as it
	 * goes; one short of the first member: refused */
	i = (struct fv_fsverity_info){
		.size = offsetof(struct fv_fsverity_info, digest_len)};
	ck_assert_int_eq(fv_fsverity_digest_info(d, &i), 0);
	ck_assert_uint_eq(i.size,
			  offsetof(struct fv_fsverity_info, digest_len));
	ck_assert_str_eq(i.hash, "sha256");
	ck_assert_uint_eq(i.digest_len, 0);
	i.size = sizeof(size_t);
	ck_assert_int_eq(fv_fsverity_digest_info(d, &i), -EINVAL);
	ck_assert_int_eq(fv_fsverity_digest_info(NULL, &i), -EINVAL);
	fv_fsverity_digest_free(d);
}
END_TEST

static int count_bytes(void *ctx, const void *buf, size_t n)
{
	(void)buf;
	*(size_t *)ctx += n;
	return 0;
}

/* fv_show's items: the text's and the errors' bytes counted. */
static int said(void *ctx, const struct fv_item *it)
{
	if (it->kind == FV_ITEM_TEXT || it->kind == FV_ITEM_ERROR)
		*(size_t *)ctx += it->text ? strlen(it->text) : 0;
	return 0;
}

/* fv_show's kind what of path (sign: with q, into sig). */
static int show(enum fv_show_what what, const char *path,
		const struct fv_sign_request *q, const char *sig, size_t *n)
{
	struct fv_show_request s = {.size = sizeof(s),
				    .what = what,
				    .image = path,
				    .names = &path,
				    .n = 1,
				    .sign = q,
				    .signature = sig};

	*n = 0;
	return fv_show(&s, said, n);
}

/* The kernel's side, on a file system without fs-verity (the test
 * directory's): each refused, the file named (the kernel test runs
 * them on ext4 with the verity feature); a signer whose key cannot be
 * read refused, its name said (the signatures themselves: t_fsverity,
 * against fsverity sign). */
START_TEST(kernel_calls_name_the_file)
{
	struct fv_sign_request q = {.size = sizeof(q)};
	char path[128], missing[128];
	size_t n = 0;

	snprintf(path, sizeof(path), "%s/plain", dir);
	snprintf(missing, sizeof(missing), "%s/missing", dir);
	spill(path, (const uint8_t *)"x", 1);
	ck_assert_int_lt(show(FV_SHOW_FSVERITY_MEASURE, path, NULL, NULL, &n),
			 0);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), path));
	ck_assert_int_lt(fv_fsverity_read_metadata(path, FV_FSVERITY_DESCRIPTOR,
						   0, 0, count_bytes, &n),
			 0);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), path));
	ck_assert_uint_eq(n, 0);
	ck_assert_int_eq(show(FV_SHOW_FSVERITY_ENABLE, missing, NULL, NULL, &n),
			 -ENODEV);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), "does not exist"));
	ck_assert_int_eq(
		fv_fsverity_read_metadata(path, 4, 0, 0, count_bytes, &n),
		-EINVAL);
	q.key = "/nonexistent/k.pem";
	q.cert = "/nonexistent/c.pem";
	ck_assert_int_lt(show(FV_SHOW_FSVERITY_SIGN, path, &q, missing, &n), 0);
	ck_assert_ptr_nonnull(strstr(fv_last_error(), "k.pem"));
	ck_assert_uint_eq(n, 0);
	ck_assert_int_ne(access(missing, F_OK), 0);
	q.size = sizeof(size_t);
	ck_assert_int_eq(show(FV_SHOW_FSVERITY_SIGN, path, &q, missing, &n),
			 -EINVAL);
	/* digest's line; a usage error said, fsverity-utils' exit code
	 * returned */
	ck_assert_int_eq(show(FV_SHOW_FSVERITY_DIGEST, path, NULL, NULL, &n),
			 0);
	ck_assert_uint_eq(n, strlen("sha256: ") + 64 + strlen(path) + 1);
	{
		struct fv_show_request s = {.size = sizeof(s),
					    .what = FV_SHOW_FSVERITY_DIGEST,
					    .names = (const char *[]){path},
					    .n = 1,
					    .hash = "md5"};

		n = 0;
		ck_assert_int_eq(fv_show(&s, said, &n), 2);
		ck_assert_uint_gt(n, 0);
	}
	unlink(path);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "fsverity", .timeout = 300};
	int r;

	if (!mkdtemp(dir)) {
		perror(dir);
		return 1;
	}
	r = run_unit(&u, UNIT_TESTS(digests_equal_the_model,
				    memory_does_not_grow_with_the_file,
				    many_files_and_the_first_failure,
				    bad_parameters_and_reads,
				    kernel_calls_name_the_file));
	rmdir(dir);
	return r;
}
