/* libFuzzer: ML-DSA (verity/sign/mldsa.c, mldsa_key.c) on arbitrary
 * bytes. The first byte picks what the rest is:
 *   0-1  a key file (PKCS#8 or SPKI, PEM or DER, an AVB blob), read for
 *        ML-DSA-65, -87 or either; a key read whole holds together (its
 *        secret key gives its public key);
 *   2-3  a signature: the fuzzer's bytes XORed into a valid deterministic
 *        signature of a fixed message (ML-DSA-65 or -87), or taken as
 *        the signature itself; a changed signature never verifies;
 *   4    a public key and a signature, both the fuzzer's: refused or
 *        accepted, never a crash;
 *   5    an AVB public-key blob;
 *   6-7  an ML-DSA-65 or -87 vbmeta image (signed at start) with the
 *        fuzzer's bytes XORed in at an offset its next two bytes give:
 *        parsed and checked as every reader checks one; a vbmeta that
 *        still verifies has the original's signed bytes and signature
 *        (only the padding after the signature may differ), and the
 *        unchanged one verifies;
 *   8-9  a good key file of ML-DSA-65 or -87 (a PKCS#8 private key of
 *        each form, or an SPKI public key; DER or PEM) with the fuzzer's
 *        bytes XORed in at an offset its next two bytes give: read as
 *        the key readers read one; what is read holds together, and the
 *        unchanged file gives the key back.
 * Every call returns one of its documented codes. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "verity/container/avb/vbmeta.h"
#include "verity/sign/mldsa.h"

static const uint8_t msg[] = "fuzz_mldsa: the signed message";
static uint8_t pk[2][VERITY_MLDSA_MAX_PK_BYTES], sig[2][VERITY_MLDSA_MAX_SIG_BYTES];
static uint8_t vbmeta[2][8192];
static size_t vbmeta_len[2];
/* the key files: [level][form], forms 0-2 PKCS#8 (enum
 * verity_mldsa_form), 3 SPKI */
static uint8_t keyder[2][4][8192];
static size_t keyder_len[2][4];

/* A vbmeta of one property descriptor signed with the level's key, as
 * avbtool lays it out (FORMAT-android17 A.1). */
static void make_vbmeta(int i, const uint8_t *sk)
{
	int level = i ? 87 : 65;
	struct verity_mldsa_sizes s;
	struct avb_descriptor d = {.tag = AVB_TAG_PROPERTY};
	struct avb_buf aux = {0}, all = {0};
	struct avb_header h = {.required_major = 1, .algorithm = i ? 8 : 7};
	uint8_t header[AVB_HEADER_SIZE], blob[VERITY_MLDSA_AVB_BLOB_MAX];
	size_t blob_len, descs;

	verity_mldsa_sizes(level, &s);
	d.property.key = (const uint8_t *)"com.example.fuzz";
	d.property.key_len = 16;
	d.property.value = (const uint8_t *)"ML-DSA";
	d.property.value_len = 6;
	if (verity_avb_descriptor_encode(&d, &aux) ||
	    verity_mldsa_avb_blob(level, pk[i], blob, sizeof(blob), &blob_len))
		abort();
	descs = aux.len;
	if (verity_avb_buf_put(&aux, blob, blob_len) ||
	    verity_avb_buf_zeros(&aux, (64 - aux.len % 64) % 64))
		abort();
	h.auth_size = (s.sig + 63) / 64 * 64;
	h.aux_size = aux.len;
	h.signature_size = s.sig;
	h.public_key_offset = descs;
	h.public_key_size = blob_len;
	h.metadata_offset = descs + blob_len;
	h.descriptors_size = descs;
	verity_avb_header_encode(&h, header);
	if (verity_avb_buf_put(&all, header, sizeof(header)) ||
	    verity_avb_buf_put(&all, aux.p, aux.len))
		abort();
	if (verity_mldsa_sign(level, sk, all.p, all.len, NULL, 0,
			      VERITY_MLDSA_DETERMINISTIC, NULL,
			      vbmeta[i] + AVB_HEADER_SIZE))
		abort();
	memcpy(vbmeta[i], header, sizeof(header));
	memcpy(vbmeta[i] + AVB_HEADER_SIZE + h.auth_size, aux.p, aux.len);
	vbmeta_len[i] = AVB_HEADER_SIZE + h.auth_size + aux.len;
	if (vbmeta_len[i] > sizeof(vbmeta[i]))
		abort();
	verity_avb_buf_free(&aux);
	verity_avb_buf_free(&all);
}

/* The four files of the level's key (DER). */
static void make_keys(int i, const uint8_t *seed)
{
	struct verity_mldsa_key key = {.level = i ? 87 : 65,
				       .has_secret = 1,
				       .has_seed = 1};

	memcpy(key.seed, seed, sizeof(key.seed));
	if (verity_mldsa_keygen(key.level, seed, key.pk, key.sk))
		abort();
	for (int f = 0; f < 3; f++)
		if (verity_mldsa_pkcs8_der(&key, (enum verity_mldsa_form)f,
					   keyder[i][f], sizeof(keyder[i][f]),
					   &keyder_len[i][f]))
			abort();
	if (verity_mldsa_spki_der(&key, keyder[i][3], sizeof(keyder[i][3]),
				  &keyder_len[i][3]))
		abort();
	verity_mldsa_key_wipe(&key);
}

static void setup(void)
{
	static int done;
	uint8_t seed[32] = {42}, sk[VERITY_MLDSA_MAX_SK_BYTES];

	if (done)
		return;
	for (int i = 0; i < 2; i++) {
		int level = i ? 87 : 65;

		if (verity_mldsa_keygen(level, seed, pk[i], sk) ||
		    verity_mldsa_sign(level, sk, msg, sizeof(msg), NULL, 0,
				      VERITY_MLDSA_DETERMINISTIC, NULL, sig[i]))
			abort();
		make_vbmeta(i, sk);
		make_keys(i, seed);
	}
	done = 1;
}

static void key_file(const uint8_t *data, size_t size, int level)
{
	struct verity_mldsa_key key;
	struct verity_mldsa_sizes s;
	struct ht_error err;
	uint8_t again[VERITY_MLDSA_MAX_PK_BYTES];
	int r = verity_mldsa_key_read(data, size, level, "fuzz", &key, &err);

	if (r != 0 && r != -EINVAL && r != -ENOMEM)
		abort();
	if (r)
		return;
	if ((level && key.level != level) || verity_mldsa_sizes(key.level, &s))
		abort();
	if (key.has_secret &&
	    (verity_mldsa_sk_to_pk(key.level, key.sk, again) || memcmp(again, key.pk, s.pk)))
		abort();
	verity_mldsa_key_wipe(&key);
}

static void signature(const uint8_t *data, size_t size, int i, int xor)
{
	int level = i ? 87 : 65;
	struct verity_mldsa_sizes s;
	uint8_t *copy;
	size_t len;
	int changed = 0, r;

	verity_mldsa_sizes(level, &s);
	if (xor) {
		len = s.sig;
		copy = malloc(len);
		memcpy(copy, sig[i], len);
		for (size_t n = 0; n < size && n < len; n++) {
			copy[n] ^= data[n];
			changed |= data[n];
		}
	} else {
		len = size;
		copy = malloc(len ? len : 1);
		if (len)
			memcpy(copy, data, len);
		changed = len != s.sig || memcmp(copy, sig[i], len);
	}
	r = verity_mldsa_verify(level, pk[i], s.pk, msg, sizeof(msg), NULL, 0, copy, len);
	if (r != 0 && r != -EBADMSG && r != -ENOMEM)
		abort();
	if (changed ? r == 0 : r != 0)
		abort();
	free(copy);
}

static void vbmeta_image(const uint8_t *data, size_t size, int i)
{
	const uint8_t *orig = vbmeta[i];
	size_t len = vbmeta_len[i], at;
	uint8_t copy[sizeof(vbmeta[0])];
	struct avb_vbmeta v;
	struct ht_error err;
	int changed = 0, r;

	if (size < 2)
		return;
	at = ((size_t)data[0] << 8 | data[1]) % len;
	memcpy(copy, orig, len);
	for (size_t n = 2; n < size && at + n - 2 < len; n++) {
		copy[at + n - 2] ^= data[n];
		changed |= data[n];
	}
	if (verity_avb_vbmeta_parse(copy, len, "fuzz", &v, &err)) {
		if (!changed)
			abort();
		return;
	}
	if (v.size > len)
		abort();
	r = verity_avb_vbmeta_check(&v, "fuzz", &err);
	if (r != 0 && r != -EPERM && r != -EINVAL && r != -ENOMEM &&
	    r != -ENOSYS)
		abort();
	if (!changed && r)
		abort();
	/* what verifies under ML-DSA is the original, but for the
	 * padding after the signature */
	if (!r && (v.h.algorithm == 7 || v.h.algorithm == 8)) {
		size_t sig_end = AVB_HEADER_SIZE + (size_t)v.h.signature_size;
		size_t aux = AVB_HEADER_SIZE + (size_t)v.h.auth_size;

		if (v.h.signature_offset || memcmp(copy, orig, sig_end) ||
		    memcmp(copy + aux, orig + aux, len - aux))
			abort();
	}
	verity_avb_vbmeta_free(&v);
}

/* A good key file with the fuzzer's bytes XORed in, as DER or as PEM
 * (pem), read for its level or for either (any). */
static void mutated_key(const uint8_t *data, size_t size, int i, int form,
			int pem, int any)
{
	static char text[12288];
	uint8_t copy[sizeof(keyder[0][0])];
	size_t len = keyder_len[i][form], at;
	struct verity_mldsa_key key;
	struct ht_error err;
	int changed = 0, r;

	if (size < 2)
		return;
	at = ((size_t)data[0] << 8 | data[1]) % len;
	memcpy(copy, keyder[i][form], len);
	for (size_t n = 2; n < size && at + n - 2 < len; n++) {
		copy[at + n - 2] ^= data[n];
		changed |= data[n];
	}
	if (pem && verity_mldsa_pem(form == 3 ? "PUBLIC KEY" : "PRIVATE KEY",
				    copy, len, text, sizeof(text)))
		abort();
	key_file(pem ? (const uint8_t *)text : copy, pem ? strlen(text) : len,
		 any ? 0 : i ? 87 : 65);
	if (changed)
		return;
	r = verity_mldsa_key_read(pem ? (const uint8_t *)text : copy,
				  pem ? strlen(text) : len, 0, "fuzz", &key,
				  &err);
	if (r || key.level != (i ? 87 : 65) ||
	    memcmp(key.pk, pk[i], i ? VERITY_MLDSA87_PK_BYTES : VERITY_MLDSA65_PK_BYTES) ||
	    key.has_secret != (form != 3))
		abort();
	verity_mldsa_key_wipe(&key);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct verity_mldsa_sizes s;
	struct ht_error err;
	const uint8_t *p;
	int level, r;

	if (!size)
		return 0;
	setup();
	switch (data[0] % 10) {
	case 0:
	case 1:
		key_file(data + 1, size - 1, data[0] / 10 % 3 == 0 ? 0 : data[0] / 10 % 3 == 1 ? 65 : 87);
		break;
	case 2:
	case 3:
		signature(data + 1, size - 1, data[0] % 10 == 3, data[0] / 10 % 2);
		break;
	case 4:
		level = data[0] / 10 % 2 ? 87 : 65;
		verity_mldsa_sizes(level, &s);
		if (size - 1 < s.pk)
			break;
		r = verity_mldsa_verify(level, data + 1, s.pk, msg, sizeof(msg), NULL, 0,
					data + 1 + s.pk, size - 1 - s.pk);
		if (r != 0 && r != -EBADMSG && r != -ENOMEM)
			abort();
		break;
	case 5:
		r = verity_mldsa_avb_blob_read(data + 1, size - 1, 0, "fuzz", &level, &p, &err);
		if (r != 0 && r != -EINVAL)
			abort();
		if (!r && (size - 1 != 4 + (level == 65 ? 1952u : 2592u) || p != data + 5))
			abort();
		break;
	case 6:
	case 7:
		vbmeta_image(data + 1, size - 1, data[0] % 10 == 7);
		break;
	case 8:
	case 9:
		/* data[0] / 10: the form (4), DER or PEM, either level */
		mutated_key(data + 1, size - 1, data[0] % 10 == 9,
			    data[0] / 10 % 4, data[0] / 40 % 2,
			    data[0] / 80 % 2);
		break;
	}
	return 0;
}
