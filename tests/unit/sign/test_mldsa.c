/* ML-DSA-65/87 (verity/sign/mldsa.c): SHAKE against OpenSSL's;
 * Decompose on every value mod q; AOSP's test keys and the two vbmeta
 * images of tests/avb/mldsa (keygen from the seed, tr, the public key,
 * both signatures, deterministic signing that reproduces them);
 * Wycheproof's vectors (tests/avb/mldsa/wycheproof_*.txt); flipped bits
 * and malformed signatures refused. Run from the top of the tree (the
 * data is read from tests/avb/mldsa). */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "check_main.h"
#include "sign/mldsa_data.h"
#include "verity/sign/mldsa.h"

#define Q 8380417

static void sha256(const void *d, size_t n, uint8_t out[32])
{
	ck_assert_int_eq(EVP_Digest(d, n, out, NULL, EVP_sha256(), NULL), 1);
}

static size_t unhex(const char *s, uint8_t *out, size_t max)
{
	size_t n;

	if (!strcmp(s, "-"))
		return 0;
	n = strlen(s) / 2;
	ck_assert_uint_le(n, max);
	for (size_t i = 0; i < n; i++) {
		unsigned v;

		ck_assert_int_eq(sscanf(s + 2 * i, "%2x", &v), 1);
		out[i] = (uint8_t)v;
	}
	return n;
}

static void hexeq(const uint8_t *got, size_t n, const char *want)
{
	uint8_t w[128];

	ck_assert_uint_eq(unhex(want, w, sizeof(w)), n);
	ck_assert_mem_eq(got, w, n);
}

/* SHAKE128/256 of many lengths, absorbed and squeezed in pieces, equal
 * OpenSSL's one-shot output. */
START_TEST(shake_matches_openssl)
{
	static uint8_t in[1000], ours[700], theirs[700];
	const char *names[2] = {"SHAKE128", "SHAKE256"};

	for (size_t i = 0; i < sizeof(in); i++)
		in[i] = (uint8_t)(i * 7 + 3);
	for (int a = 0; a < 2; a++)
		for (size_t len = 0; len < sizeof(in); len += 1 + len / 4) {
			EVP_MD_CTX *c = EVP_MD_CTX_new();
			struct verity_keccak k;
			size_t piece = 1 + len % 13, done = 0, out = 1 + len % 650;

			ck_assert_int_eq(EVP_DigestInit_ex(c, EVP_get_digestbyname(names[a]), NULL), 1);
			EVP_DigestUpdate(c, in, len);
			ck_assert_int_eq(EVP_DigestFinalXOF(c, theirs, out), 1);
			EVP_MD_CTX_free(c);
			if (a)
				verity_shake256_init(&k);
			else
				verity_shake128_init(&k);
			while (done < len) {
				size_t n = len - done < piece ? len - done : piece;

				verity_keccak_absorb(&k, in + done, n);
				done += n;
				piece = piece * 3 % 200 + 1;
			}
			verity_keccak_finalize(&k);
			for (done = 0; done < out;) {
				size_t n = out - done < 37 ? out - done : 37;

				verity_keccak_squeeze(&k, ours + done, n);
				done += n;
			}
			ck_assert_mem_eq(ours, theirs, out);
		}
}
END_TEST

/* Decompose as FIPS 204 Algorithm 36 says it, for every r in [0, q). */
START_TEST(decompose_every_value)
{
	const int32_t g2 = (Q - 1) / 32;

	for (int32_t r = 0; r < Q; r++) {
		int32_t r0 = r % (2 * g2), r1, got1, got0;

		if (r0 > g2)
			r0 -= 2 * g2;
		if (r - r0 == Q - 1) {
			r1 = 0;
			r0 -= 1;
		} else {
			r1 = (r - r0) / (2 * g2);
		}
		verity_mldsa_decompose(r, &got1, &got0);
		if (got1 != r1 || got0 != r0)
			ck_abort_msg("decompose(%d) = (%d, %d), not (%d, %d)", r,
				     got1, got0, r1, r0);
	}
}
END_TEST

/* The README's tr of each test key. */
static const char *const test_tr[2] = {
	"039ceef6d3b20167b653ee801441105bd0b513e9b1b49ef37b25ce5dcd6c6ded"
	"1b97edb049833867a2e2b7ad6b0cb05e76c177286a7bd733488acf3b691599c4",
	"54e4c7bbe5262a282b5670c696a113d953d5b293e5b03415d611615738b88699"
	"8a64a29bce2e542dedbcaf2a3626ea3980121edfb97f3a03511edd42a72c8170",
};
static const char *const test_mu[2] = {
	"d223b662fc97218d7fd952f5d3c90390d33eee2e5bc96031998d878923a080d7"
	"52b9c1ac8b2bd327f12f22ab1d13e36f271111e51c0bb95bd0d378f1347062a1",
	"4d58c79b64c4860c998fb59fde3bf2f21b35be054bef709a418a2645cb471ecb"
	"6f813dcac6ce8d712eb75e03b32d7c7f38addd3ac9bd4f29c804c86aa3faec91",
};

/* AOSP's keys: KeyGen(seed) is the file's expanded key, tr the
 * README's; the expanded key alone gives the public key. (The key
 * files' other forms: sign/test_mldsa_key.) */
START_TEST(aosp_test_keys)
{
	int level = levels[_i];
	struct verity_mldsa_sizes s = sizes(level);
	struct verity_mldsa_key key;
	uint8_t pk[VERITY_MLDSA_MAX_PK_BYTES], sk[VERITY_MLDSA_MAX_SK_BYTES];
	uint8_t tr[64];
	char name[64];

	snprintf(name, sizeof(name), DATA "testkey_mldsa%d.pem", level);
	read_key(name, level, &key);
	ck_assert_int_eq(key.level, level);
	ck_assert(key.has_seed && key.has_secret);
	ck_assert_int_eq(verity_mldsa_keygen(level, key.seed, pk, sk), 0);
	ck_assert_mem_eq(sk, key.sk, s.sk);
	ck_assert_mem_eq(pk, key.pk, s.pk);
	verity_mldsa_tr(pk, s.pk, tr);
	hexeq(tr, 64, test_tr[_i]);
	ck_assert_mem_eq(sk + 64, tr, 64);
	/* the expanded key alone gives the same public key */
	ck_assert_int_eq(verity_mldsa_sk_to_pk(level, sk, pk), 0);
	ck_assert_mem_eq(pk, key.pk, s.pk);

	verity_mldsa_key_wipe(&key);
}
END_TEST

/* The vbmeta images' signatures verify over their signed bytes, whole
 * and with mu built from the header and the auxiliary block apart; a
 * deterministic signature is the image's, byte for byte; a hedged one
 * differs and verifies. */
START_TEST(vbmeta_signatures)
{
	int level = levels[_i];
	struct verity_mldsa_sizes s = sizes(level);
	struct verity_mldsa_key key;
	struct verity_mldsa_mu m;
	uint8_t *img, *msg, mu[64], sig[VERITY_MLDSA_MAX_SIG_BYTES];
	size_t img_len, msg_len;
	char name[80];

	snprintf(name, sizeof(name), DATA "testkey_mldsa%d.pem", level);
	read_key(name, level, &key);
	snprintf(name, sizeof(name), DATA "vbmeta_mldsa%d.img", level);
	img = slurp(name, &img_len);
	snprintf(name, sizeof(name), DATA "vbmeta_mldsa%d.signed_data.bin", level);
	msg = slurp(name, &msg_len);
	ck_assert_int_eq(img[31], level == 65 ? 7 : 8); /* algorithm_type, u32 BE at 28 */
	ck_assert_int_eq(verity_mldsa_verify(level, key.pk, s.pk, msg, msg_len, NULL, 0,
					     img + 256, s.sig), 0);
	ck_assert_int_eq(verity_mldsa_mu_init_pk(&m, level, key.pk, s.pk, NULL, 0), 0);
	verity_mldsa_mu_update(&m, msg, 256);
	verity_mldsa_mu_update(&m, NULL, 0);
	verity_mldsa_mu_update(&m, msg + 256, msg_len - 256);
	verity_mldsa_mu_final(&m, mu);
	hexeq(mu, 64, test_mu[_i]);
	ck_assert_int_eq(verity_mldsa_verify_mu(level, key.pk, s.pk, mu, img + 256, s.sig), 0);
	/* a context is part of what is signed */
	ck_assert_int_eq(verity_mldsa_verify(level, key.pk, s.pk, msg, msg_len,
					     (const uint8_t *)"x", 1, img + 256, s.sig),
			 -EBADMSG);
	ck_assert_int_eq(verity_mldsa_sign(level, key.sk, msg, msg_len, NULL, 0,
					   VERITY_MLDSA_DETERMINISTIC, NULL, sig), 0);
	ck_assert_mem_eq(sig, img + 256, s.sig);
	ck_assert_int_eq(verity_mldsa_sign_mu(level, key.sk, mu, VERITY_MLDSA_DETERMINISTIC,
					      NULL, sig), 0);
	ck_assert_mem_eq(sig, img + 256, s.sig);
	ck_assert_int_eq(verity_mldsa_sign(level, key.sk, msg, msg_len, NULL, 0,
					   VERITY_MLDSA_HEDGED, NULL, sig), 0);
	ck_assert(memcmp(sig, img + 256, s.sig));
	ck_assert_int_eq(verity_mldsa_verify(level, key.pk, s.pk, msg, msg_len, NULL, 0, sig,
					     s.sig), 0);
	free(img);
	free(msg);
	verity_mldsa_key_wipe(&key);
}
END_TEST

/* Every 19th bit of the signature, bits of the message and of the
 * public key: each flip is refused. */
START_TEST(flipped_bits_refused)
{
	int level = levels[_i];
	struct verity_mldsa_sizes s = sizes(level);
	struct verity_mldsa_key key;
	uint8_t *img, *msg, sig[VERITY_MLDSA_MAX_SIG_BYTES], pk[VERITY_MLDSA_MAX_PK_BYTES];
	size_t img_len, msg_len;
	char name[80];

	snprintf(name, sizeof(name), DATA "testkey_mldsa%d.pub.pem", level);
	read_key(name, level, &key);
	snprintf(name, sizeof(name), DATA "vbmeta_mldsa%d.img", level);
	img = slurp(name, &img_len);
	snprintf(name, sizeof(name), DATA "vbmeta_mldsa%d.signed_data.bin", level);
	msg = slurp(name, &msg_len);
	memcpy(sig, img + 256, s.sig);
	for (size_t bit = 0; bit < 8 * s.sig; bit += 19) {
		sig[bit / 8] ^= (uint8_t)(1 << bit % 8);
		if (verity_mldsa_verify(level, key.pk, s.pk, msg, msg_len, NULL, 0, sig,
					s.sig) != -EBADMSG)
			ck_abort_msg("ML-DSA-%d: signature bit %zu flipped, not refused",
				     level, bit);
		sig[bit / 8] ^= (uint8_t)(1 << bit % 8);
	}
	for (size_t bit = 0; bit < 8 * msg_len; bit += 97) {
		msg[bit / 8] ^= (uint8_t)(1 << bit % 8);
		ck_assert_int_eq(verity_mldsa_verify(level, key.pk, s.pk, msg, msg_len, NULL,
						     0, sig, s.sig), -EBADMSG);
		msg[bit / 8] ^= (uint8_t)(1 << bit % 8);
	}
	memcpy(pk, key.pk, s.pk);
	for (size_t bit = 0; bit < 8 * s.pk; bit += 211) {
		pk[bit / 8] ^= (uint8_t)(1 << bit % 8);
		ck_assert_int_eq(verity_mldsa_verify(level, pk, s.pk, msg, msg_len, NULL, 0,
						     sig, s.sig), -EBADMSG);
		pk[bit / 8] ^= (uint8_t)(1 << bit % 8);
	}
	/* the message one byte shorter or longer */
	ck_assert_int_eq(verity_mldsa_verify(level, key.pk, s.pk, msg, msg_len - 1, NULL, 0,
					     sig, s.sig), -EBADMSG);
	ck_assert_int_eq(verity_mldsa_verify(level, key.pk, s.pk, msg, msg_len, NULL, 0, sig,
					     s.sig), 0);
	free(img);
	free(msg);
}
END_TEST

/* A valid signature with at least two hints in some row, the row's
 * hint bytes found: for crafting malformed hint sections. */
struct hinted {
	uint8_t pk[VERITY_MLDSA_MAX_PK_BYTES], sig[VERITY_MLDSA_MAX_SIG_BYTES];
	uint8_t msg[8];
	size_t hint_at; /* offset of the hint section */
	unsigned omega, k, row, first, end;
};

static void make_hinted(int level, struct hinted *h)
{
	struct verity_mldsa_sizes s = sizes(level);
	uint8_t seed[32] = {1, 2, 3}, sk[VERITY_MLDSA_MAX_SK_BYTES];

	h->omega = level == 65 ? 55 : 75;
	h->k = level == 65 ? 6 : 8;
	h->hint_at = s.sig - h->omega - h->k;
	ck_assert_int_eq(verity_mldsa_keygen(level, seed, h->pk, sk), 0);
	for (unsigned n = 0;; n++) {
		const uint8_t *y;
		unsigned start = 0;

		ck_assert_uint_lt(n, 1000);
		memcpy(h->msg, &n, sizeof(n));
		ck_assert_int_eq(verity_mldsa_sign(level, sk, h->msg, sizeof(h->msg), NULL, 0,
						   VERITY_MLDSA_DETERMINISTIC, NULL, h->sig),
				 0);
		y = h->sig + h->hint_at;
		for (unsigned i = 0; i < h->k; i++) {
			if (y[h->omega + i] >= start + 2) {
				h->row = i;
				h->first = start;
				h->end = y[h->omega + i];
				return;
			}
			start = y[h->omega + i];
		}
	}
}

static int verify_hinted(int level, const struct hinted *h, const uint8_t *sig, size_t len)
{
	return verity_mldsa_verify(level, h->pk, sizes(level).pk, h->msg, sizeof(h->msg), NULL,
				   0, sig, len);
}

/* sigDecode's checks (FIPS 204 Algorithm 21) and the norm of z: each
 * malformed signature refused, never a crash. */
START_TEST(malformed_signatures_refused)
{
	int level = levels[_i];
	struct verity_mldsa_sizes s = sizes(level);
	struct hinted h;
	uint8_t sig[VERITY_MLDSA_MAX_SIG_BYTES + 1], *y;
	unsigned ctl;

	make_hinted(level, &h);
	ck_assert_int_eq(verify_hinted(level, &h, h.sig, s.sig), 0);
	ctl = level == 65 ? 48 : 64;
#define RESET() (memcpy(sig, h.sig, s.sig), y = sig + h.hint_at)
	/* two hint positions of a row swapped: not increasing */
	RESET();
	y[h.first] = h.sig[h.hint_at + h.first + 1];
	y[h.first + 1] = h.sig[h.hint_at + h.first];
	ck_assert_int_eq(verify_hinted(level, &h, sig, s.sig), -EBADMSG);
	/* a position repeated */
	RESET();
	y[h.first + 1] = y[h.first];
	ck_assert_int_eq(verify_hinted(level, &h, sig, s.sig), -EBADMSG);
	/* a row's end beyond omega */
	RESET();
	y[h.omega + h.k - 1] = (uint8_t)(h.omega + 1);
	ck_assert_int_eq(verify_hinted(level, &h, sig, s.sig), -EBADMSG);
	/* a row's end before the previous row's */
	RESET();
	if (h.row + 1 < h.k) {
		y[h.omega + h.row + 1] = (uint8_t)(h.first);
		ck_assert_int_eq(verify_hinted(level, &h, sig, s.sig), -EBADMSG);
	}
	/* a nonzero byte after the last hint */
	RESET();
	if (y[h.omega + h.k - 1] < h.omega) {
		y[h.omega - 1] = 1;
		ck_assert_int_eq(verify_hinted(level, &h, sig, s.sig), -EBADMSG);
	}
	/* z's first coefficient gamma1 (its 20 bits all zero): over the
	 * norm bound */
	RESET();
	sig[ctl] = 0;
	sig[ctl + 1] = 0;
	sig[ctl + 2] &= 0xf0;
	ck_assert_int_eq(verify_hinted(level, &h, sig, s.sig), -EBADMSG);
	/* lengths */
	RESET();
	sig[s.sig] = 0;
	ck_assert_int_eq(verify_hinted(level, &h, sig, s.sig + 1), -EBADMSG);
	ck_assert_int_eq(verify_hinted(level, &h, sig, s.sig - 1), -EBADMSG);
	ck_assert_int_eq(verify_hinted(level, &h, sig, 0), -EBADMSG);
	/* all zeros, all ones */
	memset(sig, 0, s.sig);
	ck_assert_int_eq(verify_hinted(level, &h, sig, s.sig), -EBADMSG);
	memset(sig, 0xff, s.sig);
	ck_assert_int_eq(verify_hinted(level, &h, sig, s.sig), -EBADMSG);
	/* keys and contexts of the wrong size */
	ck_assert_int_eq(verity_mldsa_verify(level, h.pk, s.pk - 1, h.msg, 8, NULL, 0, h.sig,
					     s.sig), -EINVAL);
	{
		uint8_t ctx[256] = {0};

		ck_assert_int_eq(verity_mldsa_verify(level, h.pk, s.pk, h.msg, 8, ctx, 256, h.sig,
						     s.sig), -EINVAL);
	}
	ck_assert_int_eq(verity_mldsa_verify(44, h.pk, s.pk, h.msg, 8, NULL, 0, h.sig, s.sig),
			 -EINVAL);
#undef RESET
}
END_TEST

/* Random seeds, messages and contexts: signatures verify, with the
 * right context only; hedged signatures differ; the given rnd is used;
 * an expanded key with s1 out of range is refused. */
START_TEST(sign_verify_round_trips)
{
	int level = levels[_i];
	struct verity_mldsa_sizes s = sizes(level);
	uint8_t seed[32], pk[VERITY_MLDSA_MAX_PK_BYTES], sk[VERITY_MLDSA_MAX_SK_BYTES];
	uint8_t msg[300], ctx[255], sig[VERITY_MLDSA_MAX_SIG_BYTES];
	uint8_t sig2[VERITY_MLDSA_MAX_SIG_BYTES], rnd[32];

	srand(7 + _i);
	for (int n = 0; n < 12; n++) {
		size_t mlen = (size_t)rand() % sizeof(msg), clen = (size_t)rand() % 256;

		for (size_t i = 0; i < 32; i++)
			seed[i] = (uint8_t)rand();
		for (size_t i = 0; i < mlen; i++)
			msg[i] = (uint8_t)rand();
		for (size_t i = 0; i < clen; i++)
			ctx[i] = (uint8_t)rand();
		for (size_t i = 0; i < 32; i++)
			rnd[i] = (uint8_t)rand();
		ck_assert_int_eq(verity_mldsa_keygen(level, seed, pk, sk), 0);
		ck_assert_int_eq(verity_mldsa_sign(level, sk, msg, mlen, ctx, clen,
						   VERITY_MLDSA_RND_GIVEN, rnd, sig), 0);
		ck_assert_int_eq(verity_mldsa_sign(level, sk, msg, mlen, ctx, clen,
						   VERITY_MLDSA_RND_GIVEN, rnd, sig2), 0);
		ck_assert_mem_eq(sig, sig2, s.sig);
		ck_assert_int_eq(verity_mldsa_verify(level, pk, s.pk, msg, mlen, ctx, clen, sig,
						     s.sig), 0);
		ck_assert_int_eq(verity_mldsa_verify(level, pk, s.pk, msg, mlen, NULL, 0, sig,
						     s.sig), clen ? -EBADMSG : 0);
		ck_assert_int_eq(verity_mldsa_sign(level, sk, msg, mlen, ctx, clen,
						   VERITY_MLDSA_HEDGED, NULL, sig2), 0);
		ck_assert(memcmp(sig, sig2, s.sig));
		ck_assert_int_eq(verity_mldsa_verify(level, pk, s.pk, msg, mlen, ctx, clen, sig2,
						     s.sig), 0);
	}
	ck_assert_int_eq(verity_mldsa_sign(level, sk, msg, 1, ctx, 256,
					   VERITY_MLDSA_DETERMINISTIC, NULL, sig), -EINVAL);
	ck_assert_int_eq(verity_mldsa_sign(level, sk, msg, 1, NULL, 0,
					   VERITY_MLDSA_RND_GIVEN, NULL, sig), -EINVAL);
	/* s1's first coefficient out of range: every bit of its field set */
	sk[128] |= level == 65 ? 0x0f : 0x07;
	ck_assert_int_eq(verity_mldsa_sign(level, sk, msg, 1, NULL, 0,
					   VERITY_MLDSA_DETERMINISTIC, NULL, sig), -EINVAL);
	ck_assert_int_eq(verity_mldsa_sk_to_pk(level, sk, pk), -EINVAL);
}
END_TEST

static FILE *open_data(const char *name)
{
	FILE *f = fopen(name, "r");

	ck_assert_msg(f != NULL, "%s: cannot open (run from the top of the tree)", name);
	return f;
}

/* Wycheproof's signing vectors: KeyGen(seed)'s public key, mu when
 * given, the signature (deterministic or with the vector's rnd) by its
 * SHA-256; the invalid ones refused. */
START_TEST(wycheproof_sign_seed)
{
	int level = levels[_i];
	struct verity_mldsa_sizes s = sizes(level);
	static char line[4096];
	char name[80];
	unsigned count = 0;
	FILE *f;

	snprintf(name, sizeof(name), DATA "wycheproof_sign_seed_%d.txt", level);
	f = open_data(name);
	while (fgets(line, sizeof(line), f)) {
		char *tok[10];
		int nt = 0, r, valid;
		uint8_t seed[40], msg[300], ctx[300], mu[64], rnd[32], want[32], got[32];
		uint8_t pk[VERITY_MLDSA_MAX_PK_BYTES], sk[VERITY_MLDSA_MAX_SK_BYTES];
		uint8_t sig[VERITY_MLDSA_MAX_SIG_BYTES];
		size_t seed_len, msg_len, ctx_len, mu_len, rnd_len;

		if (line[0] == '#')
			continue;
		for (char *p = strtok(line, " \n"); p && nt < 10; p = strtok(NULL, " \n"))
			tok[nt++] = p;
		ck_assert_int_eq(nt, 10);
		valid = !strcmp(tok[9], "valid");
		seed_len = unhex(tok[1], seed, sizeof(seed));
		msg_len = unhex(tok[3], msg, sizeof(msg));
		ctx_len = unhex(tok[5], ctx, sizeof(ctx));
		mu_len = unhex(tok[6], mu, sizeof(mu));
		rnd_len = unhex(tok[7], rnd, sizeof(rnd));
		count++;
		if (seed_len != 32) {
			ck_assert_msg(!valid, "tc %s", tok[0]);
			continue;
		}
		ck_assert_int_eq(verity_mldsa_keygen(level, seed, pk, sk), 0);
		if (strcmp(tok[2], "-")) {
			sha256(pk, s.pk, got);
			hexeq(got, 32, tok[2]);
		}
		if (atoi(tok[4]))
			r = verity_mldsa_sign(level, sk, msg, msg_len, ctx, ctx_len,
					      rnd_len ? VERITY_MLDSA_RND_GIVEN
						      : VERITY_MLDSA_DETERMINISTIC,
					      rnd, sig);
		else
			r = verity_mldsa_sign_mu(level, sk, mu,
						 rnd_len ? VERITY_MLDSA_RND_GIVEN
							 : VERITY_MLDSA_DETERMINISTIC,
						 rnd, sig);
		if (!valid) {
			ck_assert_msg(r != 0, "tc %s: signed, though invalid", tok[0]);
			continue;
		}
		ck_assert_msg(r == 0 && mu_len <= 64, "tc %s: %d", tok[0], r);
		sha256(sig, s.sig, got);
		unhex(tok[8], want, sizeof(want));
		ck_assert_msg(!memcmp(got, want, 32), "ML-DSA-%d tc %s: another signature", level,
			      tok[0]);
		if (atoi(tok[4]))
			r = verity_mldsa_verify(level, pk, s.pk, msg, msg_len, ctx, ctx_len, sig,
						s.sig);
		else
			r = verity_mldsa_verify_mu(level, pk, s.pk, mu, sig, s.sig);
		ck_assert_int_eq(r, 0);
	}
	fclose(f);
	ck_assert_uint_ge(count, 90);
}
END_TEST

/* Wycheproof's verification vectors kept here (wycheproof_verify_*). */
START_TEST(wycheproof_verify)
{
	int level = levels[_i];
	struct verity_mldsa_sizes s = sizes(level);
	static char line[8192];
	char name[80];
	unsigned count = 0, invalid = 0;
	FILE *f;

	snprintf(name, sizeof(name), DATA "wycheproof_verify_%d.txt", level);
	f = open_data(name);
	while (fgets(line, sizeof(line), f)) {
		char *tok[10];
		int nt = 0, r, valid;
		uint8_t seed[32], bmsg[300], bctx[300], msg[300], ctx[300];
		uint8_t pk[VERITY_MLDSA_MAX_PK_BYTES], sk[VERITY_MLDSA_MAX_SK_BYTES];
		uint8_t sig[2 * VERITY_MLDSA_MAX_SIG_BYTES];
		size_t bmsg_len, bctx_len, msg_len, ctx_len, sig_len;

		if (line[0] == '#')
			continue;
		for (char *p = strtok(line, " \n"); p && nt < 10; p = strtok(NULL, " \n"))
			tok[nt++] = p;
		ck_assert_int_eq(nt, 10);
		valid = !strcmp(tok[9], "valid");
		ck_assert_uint_eq(unhex(tok[1], seed, sizeof(seed)), 32);
		bmsg_len = unhex(tok[2], bmsg, sizeof(bmsg));
		bctx_len = unhex(tok[3], bctx, sizeof(bctx));
		msg_len = unhex(tok[4], msg, sizeof(msg));
		ctx_len = unhex(tok[6], ctx, sizeof(ctx));
		sig_len = (size_t)atol(tok[7]);
		ck_assert_uint_le(sig_len, sizeof(sig));
		ck_assert_int_eq(verity_mldsa_keygen(level, seed, pk, sk), 0);
		memset(sig, 0, sizeof(sig));
		ck_assert_int_eq(verity_mldsa_sign(level, sk, bmsg, bmsg_len, bctx, bctx_len,
						   VERITY_MLDSA_DETERMINISTIC, NULL, sig), 0);
		if (sig_len < s.sig)
			memset(sig + sig_len, 0, s.sig - sig_len);
		for (char *c = strcmp(tok[8], "-") ? strtok(tok[8], ",") : NULL; c;
		     c = strtok(NULL, ",")) {
			unsigned off, byte;

			ck_assert_int_eq(sscanf(c, "%u:%x", &off, &byte), 2);
			ck_assert_uint_lt(off, sig_len);
			sig[off] = (uint8_t)byte;
		}
		r = verity_mldsa_verify(level, pk, s.pk, msg, msg_len, ctx, ctx_len, sig,
					sig_len);
		ck_assert_msg((r == 0) == valid, "ML-DSA-%d tc %s: verify %d, wanted %s", level,
			      tok[0], r, tok[9]);
		count++;
		invalid += !valid;
	}
	fclose(f);
	ck_assert_uint_ge(count, 80);
	ck_assert_uint_ge(invalid, 15);
}
END_TEST

static void loops(TCase *tc)
{
	tcase_add_loop_test(tc, aosp_test_keys, 0, 2);
	tcase_add_loop_test(tc, vbmeta_signatures, 0, 2);
	tcase_add_loop_test(tc, flipped_bits_refused, 0, 2);
	tcase_add_loop_test(tc, malformed_signatures_refused, 0, 2);
	tcase_add_loop_test(tc, sign_verify_round_trips, 0, 2);
	tcase_add_loop_test(tc, wycheproof_sign_seed, 0, 2);
	tcase_add_loop_test(tc, wycheproof_verify, 0, 2);
}

int main(void)
{
	static const struct unit_suite u = {"mldsa", 120, NULL, NULL, 0, loops};

	return run_unit(&u, UNIT_TESTS(shake_matches_openssl, decompose_every_value));
}
