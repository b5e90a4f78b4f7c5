/* bench (verity/bench/): its conclusions on synthetic figures
 * (rank.c): a lead inside the noise (overlapping spreads) is no
 * recommendation, and a kernel that cpuid prefers measuring slower is
 * noise, not a ranking; and what it measures computes what the library
 * computes: OpenSSL's two ways the kernels' digests, libfec's encoder
 * ISA-L's parity, a tree in memory format's root. */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "check_main.h"
#include "hashtree/hasher.h"
#include "verity/bench/bench.h"
#include "verity/fec/rs.h"
#include "verity/storage/device.h"
#include "verity/tree/memtree.h"

static struct bench_setting setting(const char *hash, uint32_t salt,
				    double median, double lo, double hi)
{
	struct bench_setting s;

	memset(&s, 0, sizeof(s));
	strcpy(s.p.hash_name, hash);
	s.p.salt_size = salt;
	s.p.data_block_size = s.p.hash_block_size = 4096;
	s.p.hash_type = 1;
	s.valid = 1;
	s.mb_per_s = median;
	s.lo = lo;
	s.hi = hi;
	return s;
}

START_TEST(a_lead_inside_the_noise_keeps_the_default)
{
	/* the busy machine's figures: 64 bytes 7.2% faster, spreads
	 * 792-1433 against 684-1410 */
	struct bench_setting s[3] = {
		setting("sha256", 0, 1100, 700, 1400),
		setting("sha256", 32, 1120, 684, 1410),
		setting("sha256", 64, 1200, 792, 1433),
	};
	int measurable;
	const struct bench_setting *r =
		verity_bench_recommend(s, 3, &measurable);

	ck_assert_ptr_eq(r, &s[1]);
	ck_assert_int_eq(measurable, 0);
	ck_assert_int_eq(verity_bench_spreads_overlap(792, 1433, 684, 1410), 1);
}
END_TEST

START_TEST(a_measurable_lead_is_recommended)
{
	struct bench_setting s[3] = {
		setting("sha256", 32, 1000, 980, 1020),
		setting("sha512", 32, 1500, 1450, 1550),
		setting("sha1", 32, 3000, 2900, 3100), /* not safe */
	};
	int measurable;
	const struct bench_setting *r =
		verity_bench_recommend(s, 3, &measurable);

	ck_assert_ptr_eq(r, &s[1]);
	ck_assert_int_eq(measurable, 1);
	ck_assert_int_eq(verity_bench_spreads_overlap(1450, 1550, 980, 1020),
			 0);
}
END_TEST

/* --device on a large device measures each setting once: one round says
 * nothing of the noise, and a 2% lead of a 256-byte salt (seen on a
 * 256 MiB image) is no reason to leave the default. */
START_TEST(one_round_is_no_measurable_lead)
{
	struct bench_setting s[2] = {
		setting("sha256", 32, 4659, 4659, 4659),
		setting("sha256", 256, 4757, 4757, 4757),
	};
	int measurable;
	const struct bench_setting *r =
		verity_bench_recommend(s, 2, &measurable);

	ck_assert_ptr_eq(r, &s[0]);
	ck_assert_int_eq(measurable, 0);
	ck_assert_int_eq(verity_bench_spreads_overlap(4757, 4757, 4659, 4659),
			 1);
	/* one side measured in rounds, the other once: still unknown */
	ck_assert_int_eq(verity_bench_spreads_overlap(4700, 4800, 4000, 4000),
			 1);
}
END_TEST

START_TEST(a_preferred_kernel_measured_slower_is_noise)
{
	struct bench_impl k[3];
	const struct bench_impl *pref;

	memset(k, 0, sizeof(k));
	k[0] = (struct bench_impl){.name = "SHA-256 SHA-NI three-way",
				   .note = "fastverity's fast path",
				   .flags = BENCH_FAST_PATH,
				   .mb_per_s = 1000,
				   .lo = 600,
				   .hi = 1900};
	k[1] = (struct bench_impl){.name = "SHA-256 SHA-NI two-way",
				   .note = "",
				   .mb_per_s = 2000,
				   .lo = 1900,
				   .hi = 2100};
	k[2] = (struct bench_impl){.name = "SHA-256 portable C",
				   .note = "fastverity without them",
				   .mb_per_s = 300,
				   .lo = 290,
				   .hi = 310};
	ck_assert_ptr_eq(verity_bench_noisy_kernel(k, 3, &pref), &k[1]);
	ck_assert_ptr_eq(pref, &k[0]);
	/* measured as expected: no noise to report */
	k[0].mb_per_s = 2600;
	ck_assert_ptr_null(verity_bench_noisy_kernel(k, 3, &pref));
}
END_TEST

/* The conclusions as flags on the rows fv_bench_run delivers: the
 * noisy kernel, the setting recommended, and those within its noise. */
START_TEST(the_conclusions_are_flags)
{
	struct bench_setting s[3] = {
		setting("sha256", 32, 1000, 980, 1020),
		setting("sha512", 32, 1500, 1450, 1550),
		setting("sha256", 64, 1490, 1400, 1520),
	};
	struct bench_report rep;

	memset(&rep, 0, sizeof(rep));
	rep.impls[0] = (struct bench_impl){.name = "SHA-256 SHA-NI two-way",
					   .flags = BENCH_FAST_PATH,
					   .mb_per_s = 1000};
	rep.impls[1] = (struct bench_impl){.name = "SHA-256 SHA-NI one-way",
					   .mb_per_s = 1200};
	rep.nimpls = 2;
	rep.settings = s;
	rep.nsettings = 3;
	verity_bench_conclude(&rep);
	ck_assert_uint_eq(rep.impls[0].flags, BENCH_FAST_PATH);
	ck_assert_uint_eq(rep.impls[1].flags, BENCH_NOISE);
	ck_assert_uint_eq(s[0].flags, 0);
	ck_assert_uint_eq(s[1].flags, BENCH_RECOMMENDED);
	ck_assert_uint_eq(s[2].flags, BENCH_NO_DIFFERENCE);
	/* the lead inside the noise: the default kept, and said */
	s[1].lo = 900;
	s[0].flags = s[1].flags = s[2].flags = 0;
	verity_bench_conclude(&rep);
	ck_assert_uint_eq(s[0].flags, BENCH_RECOMMENDED | BENCH_DEFAULT_KEPT);
}
END_TEST

/* OpenSSL's two ways give the kernels' digests (SHA-256 of salt ||
 * message), one way and many; libfec's encoder ISA-L's parity. */
START_TEST(the_ways_compared_compute_the_same)
{
	enum { BS = 4096, N = 5, LEN = 64 };
	static uint8_t msgs[N * BS], out[N * 40], evp[N * 40], one[32];
	static uint8_t cols[FEC_RS_N][LEN];
	uint8_t salt[32], *src[FEC_RS_N], *par[8], msg[FEC_RS_N], want[8];
	struct sha256_salted_state st;
	struct fec_rs rs;

	for (size_t i = 0; i < sizeof(msgs); i++)
		msgs[i] = (uint8_t)(i * 131 + (i >> 12));
	memset(salt, 0x5a, sizeof(salt));
	ht_sha256_salted_init(&st, salt, sizeof(salt));
	for (int fresh = 0; fresh < 2; fresh++) {
		ck_assert_int_eq(ht_evp_sha256_blocks(fresh, salt, sizeof(salt),
						      msgs, BS, N, evp, 40,
						      NULL),
				 0);
		for (int k = 0; k < SHA256_KERNEL_COUNT; k++) {
			if (!ht_sha256_kernel_available((enum sha256_kernel)k))
				continue;
			sha256_finup_many((enum sha256_kernel)k, &st, msgs, BS,
					  N, out, 40);
			for (int i = 0; i < N; i++) {
				ck_assert_int_eq(
					memcmp(out + i * 40, evp + i * 40, 32),
					0);
				sha256_finup_one((enum sha256_kernel)k, &st,
						 msgs + i * BS, BS, one);
				ck_assert_int_eq(memcmp(one, evp + i * 40, 32),
						 0);
			}
		}
	}
	ck_assert_int_eq(verity_fec_rs_init(&rs, 8, NULL), 0);
	ck_assert_uint_eq(rs.rsn, 247);
	for (int i = 0; i < FEC_RS_N; i++) {
		for (int x = 0; x < LEN; x++)
			cols[i][x] = (uint8_t)(i * 167 + x * 31 + 9);
		if (i < 247)
			src[i] = cols[i];
		else
			par[i - 247] = cols[i];
	}
	verity_fec_rs_encode(&rs, LEN, src, par);
	for (int x = 0; x < LEN; x++) {
		for (int i = 0; i < 247; i++)
			msg[i] = cols[i][x];
		verity_fec_rs_encode_scalar(&rs, msg, want);
		for (int j = 0; j < 8; j++)
			ck_assert_uint_eq(want[j], par[j][x]);
	}
	verity_fec_rs_free(&rs);
}
END_TEST

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
	static const struct unit_suite u = {.name = "bench"};

	return run_unit(&u,
			UNIT_TESTS(a_lead_inside_the_noise_keeps_the_default,
				   a_measurable_lead_is_recommended,
				   one_round_is_no_measurable_lead,
				   a_preferred_kernel_measured_slower_is_noise,
				   the_conclusions_are_flags,
				   the_ways_compared_compute_the_same,
				   a_tree_in_memory_has_formats_root));
}
