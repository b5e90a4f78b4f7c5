/* ML-DSA key files (verity/sign/mldsa.h): PKCS#8 private keys in the
 * three forms OpenSSL 3.5 writes, SPKI public keys, PEM or DER, and
 * AVB's public-key blob.
 *
 * A strict DER reader of exactly these shapes, not OpenSSL's: Debian
 * 12's OpenSSL 3.0 knows no ML-DSA OID, so PEM_read_bio_PrivateKey and
 * d2i_PUBKEY refuse the files outright, and its generic structures
 * (PKCS8_PRIV_KEY_INFO, X509_PUBKEY) would still leave the three forms
 * of the private key, their lengths and the seed/expanded agreement to
 * be checked here; they would also make reading a public key need
 * libcrypto, which verifying an ML-DSA signature does not
 * (verity/sign/mldsa.c). Lengths are definite and minimal, every
 * element is where the shape puts it, nothing follows the outer
 * SEQUENCE. */
#include "verity/sign/mldsa.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Key files are a few kilobytes; a PEM of the largest is under 7 KiB. */
#define KEY_FILE_MAX (64 * 1024)

/* 2.16.840.1.101.3.4.3 (NIST signature algorithms), then .17 .18 .19 */
static const uint8_t oid_nist_sig[8] = {0x60, 0x86, 0x48, 0x01,
					0x65, 0x03, 0x04, 0x03};

struct der {
	const uint8_t *p;
	size_t len;
};

/* The next element of in: its tag and contents. 0, or -1 when what is
 * left is not one whole DER element (a multi-byte tag, an indefinite,
 * overlong or too long length). */
static int der_next(struct der *in, uint8_t *tag, struct der *content)
{
	size_t len, n, i;

	if (in->len < 2 || (in->p[0] & 0x1f) == 0x1f)
		return -1;
	*tag = in->p[0];
	len = in->p[1];
	i = 2;
	if (len & 0x80) {
		n = len & 0x7f;
		if (n == 0 || n > 3 || in->len < 2 + n || in->p[2] == 0)
			return -1;
		for (len = 0; n; n--)
			len = len << 8 | in->p[i++];
		/* minimal: the long form only for 128 and over */
		if (len < 0x80 || (i == 4 && len < 0x100) ||
		    (i == 5 && len < 0x10000))
			return -1;
	}
	if (len > in->len - i)
		return -1;
	content->p = in->p + i;
	content->len = len;
	in->p += i + len;
	in->len -= i + len;
	return 0;
}

/* The element of in of tag want: 0, or -1. */
static int der_expect(struct der *in, uint8_t want, struct der *content)
{
	uint8_t tag;

	return der_next(in, &tag, content) || tag != want ? -1 : 0;
}

/* An OID's dotted form, for a message. */
static void oid_text(const struct der *oid, char *out, size_t size)
{
	size_t used = 0;
	unsigned long arc = 0;

	out[0] = 0;
	for (size_t i = 0; i < oid->len && used + 24 < size; i++) {
		if (arc > (~0UL >> 8)) {
			snprintf(out + used, size - used, "...");
			return;
		}
		arc = arc << 7 | (oid->p[i] & 0x7f);
		if (oid->p[i] & 0x80)
			continue;
		if (used == 0) {
			unsigned long first = arc < 80 ? arc / 40 : 2;

			used += (size_t)snprintf(out, size, "%lu.%lu", first,
						 arc - 40 * first);
		} else {
			used += (size_t)snprintf(out + used, size - used,
						 ".%lu", arc);
		}
		arc = 0;
	}
}

static int oid_is(const struct der *oid, const uint8_t *want, size_t n)
{
	return oid->len == n && !memcmp(oid->p, want, n);
}

/* The level of an ML-DSA OID (44, 65 or 87), or 0. */
static int oid_level(const struct der *oid)
{
	if (oid->len != 9 || memcmp(oid->p, oid_nist_sig, 8))
		return 0;
	switch (oid->p[8]) {
	case 17:
		return 44;
	case 18:
		return 65;
	case 19:
		return 87;
	}
	return 0;
}

/* What is asked, in a message: "ML-DSA-65", or "an ML-DSA key". */
static const char *asked(int level)
{
	return level == 65   ? "ML-DSA-65"
	       : level == 87 ? "ML-DSA-87"
			     : "an ML-DSA key";
}

/* The algorithm identifier alg (a SEQUENCE's contents) as a level of
 * ML-DSA that is asked: 0 and *got, or -EINVAL naming the other kind of
 * key. */
static int check_alg(struct der alg, int level, const char *what, int *got,
		     struct ht_error *err)
{
	static const uint8_t rsa[] = {0x2a, 0x86, 0x48, 0x86, 0xf7,
				      0x0d, 0x01, 0x01, 0x01};
	static const uint8_t rsa_pss[] = {0x2a, 0x86, 0x48, 0x86, 0xf7,
					  0x0d, 0x01, 0x01, 0x0a};
	static const uint8_t ec[] = {0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01};
	static const uint8_t ed25519[] = {0x2b, 0x65, 0x70};
	static const uint8_t ed448[] = {0x2b, 0x65, 0x71};
	struct der oid;
	char text[96];
	const char *kind = NULL;
	int lv;

	if (der_expect(&alg, 0x06, &oid))
		return ht_fail(err, EINVAL,
			       "%s: not a key file (no algorithm identifier)",
			       what);
	lv = oid_level(&oid);
	if (oid_is(&oid, rsa, sizeof(rsa)) ||
	    oid_is(&oid, rsa_pss, sizeof(rsa_pss)))
		kind = "an RSA key";
	else if (oid_is(&oid, ec, sizeof(ec)))
		kind = "an EC key";
	else if (oid_is(&oid, ed25519, sizeof(ed25519)))
		kind = "an Ed25519 key";
	else if (oid_is(&oid, ed448, sizeof(ed448)))
		kind = "an Ed448 key";
	else if (lv == 44)
		kind = "an ML-DSA-44 key (AVB has no ML-DSA-44)";
	else if (lv && level && lv != level)
		kind = lv == 65 ? "an ML-DSA-65 key" : "an ML-DSA-87 key";
	if (kind)
		return ht_fail(err, EINVAL, "%s: %s, where %s is asked", what,
			       kind, asked(level));
	if (!lv) {
		oid_text(&oid, text, sizeof(text));
		return ht_fail(err, EINVAL,
			       "%s: a key of algorithm %s, where %s is asked",
			       what, text, asked(level));
	}
	/* FIPS 204's OIDs take no parameters (not even NULL) */
	if (alg.len)
		return ht_fail(err, EINVAL,
			       "%s: an %s key with algorithm parameters, which "
			       "it must not have",
			       what, verity_mldsa_name(lv));
	*got = lv;
	return 0;
}

void verity_mldsa_key_wipe(struct verity_mldsa_key *key)
{
	explicit_bzero(key, sizeof(*key));
}

static int bad_key(struct verity_mldsa_key *key, const char *what,
		   const char *why, struct ht_error *err)
{
	verity_mldsa_key_wipe(key);
	return ht_fail(err, EINVAL, "%s: %s", what, why);
}

/* The privateKey OCTET STRING's contents, in one of the three forms. */
static int read_private(struct der priv, const char *what,
			struct verity_mldsa_key *key, struct ht_error *err)
{
	struct verity_mldsa_sizes sz;
	struct der seed = {NULL, 0}, sk = {NULL, 0}, both;
	uint8_t tag, made[VERITY_MLDSA_MAX_SK_BYTES];
	int r;

	verity_mldsa_sizes(key->level, &sz);
	if (der_next(&priv, &tag, &both) || priv.len)
		return bad_key(key, what,
			       "the private key is not one DER element", err);
	if (tag == 0x80) { /* [0] IMPLICIT OCTET STRING: the seed */
		seed = both;
	} else if (tag == 0x04) { /* the expanded key */
		sk = both;
	} else if (tag == 0x30) { /* SEQUENCE { seed, expanded key } */
		if (der_expect(&both, 0x04, &seed) ||
		    der_expect(&both, 0x04, &sk) || both.len)
			return bad_key(key, what,
				       "the private key's SEQUENCE is not "
				       "{seed, expanded key}",
				       err);
	} else {
		return bad_key(key, what,
			       "the private key is none of the three ML-DSA "
			       "forms (seed, expanded key, both)",
			       err);
	}
	if (seed.p && seed.len != VERITY_MLDSA_SEED_BYTES)
		return bad_key(key, what, "the seed is not 32 bytes long", err);
	if (sk.p && sk.len != sz.sk) {
		ht_fail(err, EINVAL,
			"%s: the expanded key is %zu bytes long, not %zu", what,
			sk.len, sz.sk);
		verity_mldsa_key_wipe(key);
		return -EINVAL;
	}
	key->has_secret = 1;
	if (seed.p) {
		key->has_seed = 1;
		memcpy(key->seed, seed.p, VERITY_MLDSA_SEED_BYTES);
		if ((r = verity_mldsa_keygen(key->level, key->seed, key->pk,
					     made))) {
			verity_mldsa_key_wipe(key);
			return ht_fail(err, -r, "%s: cannot expand the seed",
				       what);
		}
		memcpy(key->sk, made, sz.sk);
		explicit_bzero(made, sizeof(made));
		if (sk.p && verity_mldsa_ct_differ(key->sk, sk.p, sz.sk))
			return bad_key(key, what,
				       "the seed and the expanded key do not "
				       "agree (KeyGen(seed) is another key)",
				       err);
		return 0;
	}
	memcpy(key->sk, sk.p, sz.sk);
	r = verity_mldsa_sk_to_pk(key->level, key->sk, key->pk);
	if (r == -ENOMEM) {
		verity_mldsa_key_wipe(key);
		return ht_fail(err, ENOMEM, "%s: out of memory", what);
	}
	if (r)
		return bad_key(key, what,
			       "the expanded key does not hold together (its "
			       "s1, s2, t0 and tr are not one key's)",
			       err);
	return 0;
}

/* PKCS#8 PrivateKeyInfo / OneAsymmetricKey (RFC 5958): version 0 or 1,
 * the algorithm, the private key, attributes [0] (ignored), the public
 * key [1] (version 1 only; must be this key's). */
static int read_pkcs8(struct der body, int level, const char *what,
		      struct verity_mldsa_key *key, struct ht_error *err)
{
	struct der version, alg, priv, pub = {NULL, 0}, next;
	struct verity_mldsa_sizes sz;
	uint8_t tag;
	int r;

	if (der_expect(&body, 0x02, &version) || version.len != 1 ||
	    version.p[0] > 1 || der_expect(&body, 0x30, &alg))
		return ht_fail(err, EINVAL,
			       "%s: not a PKCS#8 private key (version and "
			       "algorithm)",
			       what);
	if ((r = check_alg(alg, level, what, &key->level, err)))
		return r;
	if (der_expect(&body, 0x04, &priv))
		return ht_fail(err, EINVAL,
			       "%s: no private key in the PKCS#8 structure",
			       what);
	while (body.len) {
		if (der_next(&body, &tag, &next))
			return ht_fail(err, EINVAL,
				       "%s: bytes after the private key that "
				       "are not DER",
				       what);
		if (tag == 0xa0 && !pub.p)
			continue; /* attributes */
		if (tag == 0x81 && version.p[0] == 1 && !pub.p) {
			pub = next;
			continue;
		}
		return ht_fail(err, EINVAL,
			       "%s: unexpected element after the private key",
			       what);
	}
	if ((r = read_private(priv, what, key, err)))
		return r;
	verity_mldsa_sizes(key->level, &sz);
	if (pub.p && (pub.len != 1 + sz.pk || pub.p[0] != 0 ||
		      memcmp(pub.p + 1, key->pk, sz.pk)))
		return bad_key(key, what,
			       "the public key beside the private key is "
			       "another key's",
			       err);
	return 0;
}

/* SubjectPublicKeyInfo: the algorithm, BIT STRING of the raw key. */
static int read_spki(struct der body, int level, const char *what,
		     struct verity_mldsa_key *key, struct ht_error *err)
{
	struct der alg, bits;
	struct verity_mldsa_sizes sz;
	int r;

	if (der_expect(&body, 0x30, &alg))
		return ht_fail(err, EINVAL, "%s: not a public key", what);
	if ((r = check_alg(alg, level, what, &key->level, err)))
		return r;
	verity_mldsa_sizes(key->level, &sz);
	if (der_expect(&body, 0x03, &bits) || body.len)
		return ht_fail(err, EINVAL,
			       "%s: no public key BIT STRING, or bytes after "
			       "it",
			       what);
	if (bits.len != 1 + sz.pk || bits.p[0] != 0)
		return ht_fail(err, EINVAL,
			       "%s: the %s public key is %zu bytes long, not "
			       "%zu",
			       what, verity_mldsa_name(key->level),
			       bits.len ? bits.len - 1 : 0, sz.pk);
	memcpy(key->pk, bits.p + 1, sz.pk);
	return 0;
}

/* One DER structure: a PKCS#8 private key or an SPKI public key, told
 * apart by the first element inside (INTEGER or SEQUENCE). */
static int read_der(const uint8_t *buf, size_t len, int level,
		    const char *what, struct verity_mldsa_key *key,
		    struct ht_error *err)
{
	struct der in = {buf, len}, body;

	if (der_expect(&in, 0x30, &body) || in.len)
		return ht_fail(err, EINVAL,
			       "%s: not one DER SEQUENCE (not a key file)",
			       what);
	if (body.len && body.p[0] == 0x02)
		return read_pkcs8(body, level, what, key, err);
	if (body.len && body.p[0] == 0x30)
		return read_spki(body, level, what, key, err);
	return ht_fail(err, EINVAL,
		       "%s: neither a PKCS#8 private key nor a public key",
		       what);
}

static int b64_value(uint8_t c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

/* Base64 of in into out (room for len * 3 / 4 bytes): whitespace
 * skipped, "=" only at the end; *out_len the bytes. 0 or -1. */
static int b64_decode(const uint8_t *in, size_t len, uint8_t *out,
		      size_t *out_len)
{
	uint32_t acc = 0;
	size_t n = 0, chars = 0, pad = 0;

	for (size_t i = 0; i < len; i++) {
		int v;

		if (in[i] == ' ' || in[i] == '\t' || in[i] == '\r' ||
		    in[i] == '\n')
			continue;
		if (in[i] == '=') {
			pad++;
			chars++;
			continue;
		}
		if (pad || (v = b64_value(in[i])) < 0)
			return -1;
		acc = acc << 6 | (uint32_t)v;
		if (++chars % 4 == 0) {
			out[n++] = (uint8_t)(acc >> 16);
			out[n++] = (uint8_t)(acc >> 8);
			out[n++] = (uint8_t)acc;
			acc = 0;
		}
	}
	if (chars % 4 || pad > 2)
		return -1;
	if (pad == 1) {
		out[n++] = (uint8_t)(acc >> 10);
		out[n++] = (uint8_t)(acc >> 2);
	} else if (pad == 2) {
		out[n++] = (uint8_t)(acc >> 4);
	}
	acc = 0;
	*out_len = n;
	return 0;
}

/* The first PEM block of buf: its label (into label) and contents. 0,
 * or -1 when there is none, whole. */
static int pem_block(const uint8_t *buf, size_t len, char *label,
		     size_t label_size, const uint8_t **body, size_t *body_len)
{
	static const char begin[] = "-----BEGIN ", end[] = "-----END ";
	const uint8_t *p = memmem(buf, len, begin, sizeof(begin) - 1), *q, *e;
	char tail[128];
	size_t n;

	if (!p)
		return -1;
	p += sizeof(begin) - 1;
	q = memmem(p, len - (size_t)(p - buf), "-----", 5);
	if (!q || (n = (size_t)(q - p)) >= label_size || memchr(p, '\n', n))
		return -1;
	memcpy(label, p, n);
	label[n] = 0;
	q += 5;
	n = (size_t)snprintf(tail, sizeof(tail), "%s%s-----", end, label);
	e = memmem(q, len - (size_t)(q - buf), tail, n);
	if (!e)
		return -1;
	*body = q;
	*body_len = (size_t)(e - q);
	return 0;
}

static int read_pem(const uint8_t *buf, size_t len, int level,
		    const char *what, struct verity_mldsa_key *key,
		    struct ht_error *err)
{
	const uint8_t *body;
	size_t body_len, der_len;
	char label[64];
	uint8_t *der;
	int r;

	if (pem_block(buf, len, label, sizeof(label), &body, &body_len))
		return ht_fail(err, EINVAL,
			       "%s: not a key file (no whole PEM block, not "
			       "DER, not an AVB public key)",
			       what);
	if (!strcmp(label, "RSA PRIVATE KEY") ||
	    !strcmp(label, "RSA PUBLIC KEY"))
		return ht_fail(err, EINVAL, "%s: an RSA key, where %s is asked",
			       what, asked(level));
	if (!strcmp(label, "EC PRIVATE KEY"))
		return ht_fail(err, EINVAL, "%s: an EC key, where %s is asked",
			       what, asked(level));
	if (!strcmp(label, "ENCRYPTED PRIVATE KEY"))
		return ht_fail(err, EINVAL,
			       "%s: an encrypted private key, which is not "
			       "read here (decrypt it first: openssl pkcs8)",
			       what);
	if (!strcmp(label, "CERTIFICATE"))
		return ht_fail(err, EINVAL,
			       "%s: a certificate, where %s key is asked", what,
			       level ? verity_mldsa_name(level) : "an ML-DSA");
	if (strcmp(label, "PRIVATE KEY") && strcmp(label, "PUBLIC KEY"))
		return ht_fail(err, EINVAL,
			       "%s: a PEM block labelled \"%.40s\", not a "
			       "PRIVATE KEY or PUBLIC KEY",
			       what, label);
	if (!(der = malloc(body_len / 4 * 3 + 3)))
		return ht_fail(err, ENOMEM, "%s: out of memory", what);
	if (b64_decode(body, body_len, der, &der_len))
		r = ht_fail(err, EINVAL, "%s: the PEM block is not base64",
			    what);
	else if (!(r = read_der(der, der_len, level, what, key, err)) &&
		 key->has_secret != !strcmp(label, "PRIVATE KEY"))
		r = ht_fail(err, EINVAL,
			    "%s: the PEM label \"%s\" does not match its "
			    "contents (a %s key)",
			    what, label, key->has_secret ? "private" : "public");
	explicit_bzero(der, body_len / 4 * 3 + 3);
	free(der);
	return r;
}

int verity_mldsa_avb_blob_read(const uint8_t *blob, size_t len, int level,
			       const char *what, int *level_out,
			       const uint8_t **pk, struct ht_error *err)
{
	uint32_t n;
	int lv;

	if (!what)
		what = "the key";
	if (len < 4)
		return ht_fail(err, EINVAL,
			       "%s: an AVB public key of %zu bytes, too short",
			       what, len);
	n = (uint32_t)blob[0] << 24 | (uint32_t)blob[1] << 16 |
	    (uint32_t)blob[2] << 8 | blob[3];
	lv = n == VERITY_MLDSA65_PK_BYTES   ? 65
	     : n == VERITY_MLDSA87_PK_BYTES ? 87
					    : 0;
	if (!lv)
		return ht_fail(err, EINVAL,
			       "%s: an ML-DSA AVB public key of %u key bytes "
			       "(1952 or 2592 expected)",
			       what, n);
	if (len != 4 + (size_t)n)
		return ht_fail(err, EINVAL,
			       "%s: an ML-DSA AVB public key of %zu bytes, not "
			       "4 + %u",
			       what, len, n);
	if (level && lv != level)
		return ht_fail(err, EINVAL, "%s: an %s key, where %s is asked",
			       what, verity_mldsa_name(lv), asked(level));
	if (level_out)
		*level_out = lv;
	*pk = blob + 4;
	return 0;
}

int verity_mldsa_avb_blob(int level, const uint8_t *pk, uint8_t *out,
			  size_t out_size, size_t *len)
{
	struct verity_mldsa_sizes sz;

	if (verity_mldsa_sizes(level, &sz) || out_size < 4 + sz.pk)
		return -EINVAL;
	out[0] = 0;
	out[1] = 0;
	out[2] = (uint8_t)(sz.pk >> 8);
	out[3] = (uint8_t)sz.pk;
	memcpy(out + 4, pk, sz.pk);
	*len = 4 + sz.pk;
	return 0;
}

/* An RSA AVB public key blob: u32 key bits (2048, 4096, 8192), n0inv,
 * n and rr. */
static int is_rsa_avb_blob(const uint8_t *buf, size_t len)
{
	uint32_t bits;

	if (len < 8)
		return 0;
	bits = (uint32_t)buf[0] << 24 | (uint32_t)buf[1] << 16 |
	       (uint32_t)buf[2] << 8 | buf[3];
	return (bits == 2048 || bits == 4096 || bits == 8192) &&
	       len == 8 + 2 * (size_t)bits / 8;
}

/* The OID of a PKCS#8 or SPKI DER as an ML-DSA level (0: another). */
static int der_level(const uint8_t *buf, size_t len)
{
	struct der in = {buf, len}, body, alg, oid, version;

	if (der_expect(&in, 0x30, &body) || in.len || !body.len)
		return 0;
	if (body.p[0] == 0x02 && der_expect(&body, 0x02, &version))
		return 0;
	if (der_expect(&body, 0x30, &alg) || der_expect(&alg, 0x06, &oid))
		return 0;
	return oid_level(&oid);
}

int verity_mldsa_key_level(const uint8_t *buf, size_t len)
{
	const uint8_t *body, *pk;
	size_t body_len, der_len;
	char label[64];
	uint8_t *der;
	int lv = 0;

	if (len > KEY_FILE_MAX)
		return 0;
	if (!verity_mldsa_avb_blob_read(buf, len, 0, NULL, &lv, &pk, NULL))
		return lv;
	if (len && buf[0] == 0x30)
		return der_level(buf, len);
	if (pem_block(buf, len, label, sizeof(label), &body, &body_len) ||
	    (strcmp(label, "PRIVATE KEY") && strcmp(label, "PUBLIC KEY")) ||
	    !(der = malloc(body_len / 4 * 3 + 3)))
		return 0;
	if (!b64_decode(body, body_len, der, &der_len))
		lv = der_level(der, der_len);
	explicit_bzero(der, body_len / 4 * 3 + 3);
	free(der);
	return lv;
}

int verity_mldsa_key_read(const uint8_t *buf, size_t len, int level,
			  const char *what, struct verity_mldsa_key *key,
			  struct ht_error *err)
{
	const uint8_t *pk;
	int r, lv;

	verity_mldsa_key_wipe(key);
	if (level != 0 && level != 65 && level != 87)
		return ht_fail(err, EINVAL, "%s: ML-DSA level %d unknown",
			       what, level);
	if (len > KEY_FILE_MAX)
		return ht_fail(err, EINVAL,
			       "%s: %zu bytes, too large for a key file", what,
			       len);
	if (len == 4 + VERITY_MLDSA65_PK_BYTES ||
	    len == 4 + VERITY_MLDSA87_PK_BYTES) {
		if (!verity_mldsa_avb_blob_read(buf, len, 0, what, &lv, &pk,
						NULL)) {
			if ((r = verity_mldsa_avb_blob_read(buf, len, level,
							    what, &lv, &pk,
							    err)))
				return r;
			key->level = lv;
			memcpy(key->pk, pk, len - 4);
			return 0;
		}
	}
	if (is_rsa_avb_blob(buf, len))
		return ht_fail(err, EINVAL,
			       "%s: an RSA AVB public key, where %s is asked",
			       what, asked(level));
	/* neither DER (0x30) nor PEM text: an AVB blob that is wrong */
	if (len >= 4 && buf[0] == 0 && buf[1] == 0)
		return verity_mldsa_avb_blob_read(buf, len, level, what, &lv,
						  &pk, err);
	if (len && buf[0] == 0x30)
		r = read_der(buf, len, level, what, key, err);
	else
		r = read_pem(buf, len, level, what, key, err);
	if (r)
		verity_mldsa_key_wipe(key);
	return r;
}

/* ---- Writing ---- */

/* A DER header (tag, definite length) at out: its size. */
static size_t der_header(uint8_t *out, uint8_t tag, size_t len)
{
	out[0] = tag;
	if (len < 0x80) {
		out[1] = (uint8_t)len;
		return 2;
	}
	if (len < 0x100) {
		out[1] = 0x81;
		out[2] = (uint8_t)len;
		return 3;
	}
	out[1] = 0x82;
	out[2] = (uint8_t)(len >> 8);
	out[3] = (uint8_t)len;
	return 4;
}

static size_t der_size(size_t len)
{
	return (len < 0x80 ? 2 : len < 0x100 ? 3 : 4) + len;
}

/* SEQUENCE { OID } of the key's level */
static size_t put_alg(uint8_t *out, int level)
{
	size_t n = der_header(out, 0x30, 11);

	n += der_header(out + n, 0x06, 9);
	memcpy(out + n, oid_nist_sig, 8);
	out[n + 8] = level == 65 ? 18 : 19;
	return n + 9;
}

int verity_mldsa_pkcs8_der(const struct verity_mldsa_key *key,
			   enum verity_mldsa_form form, uint8_t *out,
			   size_t out_size, size_t *len)
{
	struct verity_mldsa_sizes sz;
	size_t inner = 0, priv, body, n;

	if (verity_mldsa_sizes(key->level, &sz) || !key->has_secret ||
	    (form != VERITY_MLDSA_EXPANDED_ONLY && !key->has_seed))
		return -EINVAL;
	switch (form) {
	case VERITY_MLDSA_SEED_ONLY:
		priv = der_size(VERITY_MLDSA_SEED_BYTES);
		break;
	case VERITY_MLDSA_EXPANDED_ONLY:
		priv = der_size(sz.sk);
		break;
	case VERITY_MLDSA_BOTH:
		inner = der_size(VERITY_MLDSA_SEED_BYTES) + der_size(sz.sk);
		priv = der_size(inner);
		break;
	default:
		return -EINVAL;
	}
	body = 3 + 13 + der_size(priv);
	if (out_size < der_size(body))
		return -EINVAL;
	n = der_header(out, 0x30, body);
	n += der_header(out + n, 0x02, 1);
	out[n++] = 0;
	n += put_alg(out + n, key->level);
	n += der_header(out + n, 0x04, priv);
	if (form == VERITY_MLDSA_BOTH)
		n += der_header(out + n, 0x30, inner);
	if (form != VERITY_MLDSA_EXPANDED_ONLY) {
		n += der_header(out + n,
				form == VERITY_MLDSA_SEED_ONLY ? 0x80 : 0x04,
				VERITY_MLDSA_SEED_BYTES);
		memcpy(out + n, key->seed, VERITY_MLDSA_SEED_BYTES);
		n += VERITY_MLDSA_SEED_BYTES;
	}
	if (form != VERITY_MLDSA_SEED_ONLY) {
		n += der_header(out + n, 0x04, sz.sk);
		memcpy(out + n, key->sk, sz.sk);
		n += sz.sk;
	}
	*len = n;
	return 0;
}

int verity_mldsa_spki_der(const struct verity_mldsa_key *key, uint8_t *out,
			  size_t out_size, size_t *len)
{
	struct verity_mldsa_sizes sz;
	size_t body, n;

	if (verity_mldsa_sizes(key->level, &sz))
		return -EINVAL;
	body = 13 + der_size(1 + sz.pk);
	if (out_size < der_size(body))
		return -EINVAL;
	n = der_header(out, 0x30, body);
	n += put_alg(out + n, key->level);
	n += der_header(out + n, 0x03, 1 + sz.pk);
	out[n++] = 0;
	memcpy(out + n, key->pk, sz.pk);
	*len = n + sz.pk;
	return 0;
}

int verity_mldsa_pem(const char *label, const uint8_t *der, size_t der_len,
		     char *out, size_t out_size)
{
	static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnop"
				  "qrstuvwxyz0123456789+/";
	size_t chars = (der_len + 2) / 3 * 4;
	size_t need = 2 * strlen(label) + 32 + chars + chars / 64 + 2;
	size_t n, col = 0;

	if (out_size < need)
		return -EINVAL;
	n = (size_t)snprintf(out, out_size, "-----BEGIN %s-----\n", label);
	for (size_t i = 0; i < der_len; i += 3) {
		uint32_t v = (uint32_t)der[i] << 16;
		size_t left = der_len - i;

		if (left > 1)
			v |= (uint32_t)der[i + 1] << 8;
		if (left > 2)
			v |= der[i + 2];
		out[n++] = b64[v >> 18 & 63];
		out[n++] = b64[v >> 12 & 63];
		out[n++] = left > 1 ? b64[v >> 6 & 63] : '=';
		out[n++] = left > 2 ? b64[v & 63] : '=';
		if ((col += 4) == 64 && left > 3) {
			out[n++] = '\n';
			col = 0;
		}
	}
	n += (size_t)snprintf(out + n, out_size - n, "\n-----END %s-----\n",
			      label);
	return 0;
}
