/* libFuzzer: Android images' metadata, as a reader meets it: the footer
 * in the last 64 bytes, the vbmeta blob it points to, the descriptors,
 * the signature check, and a hashtree descriptor made a verity pair.
 * The input is either a whole image, or bytes written over a good one
 * (at an offset the first bytes give), so that deep fields are reached.
 * Must never crash or read outside the image; what is accepted must lie
 * inside it. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "verity/container/avb/image.h"
#include "verity/sign/scheme.h"

#define IMAGE_MAX (64u << 10)

static uint8_t good[IMAGE_MAX];
static size_t good_len;

/* A good image: one data block, its vbmeta (a hashtree descriptor, a
 * property, a kernel command line, a chained partition), the footer. */
static void setup(void)
{
	static const uint8_t key[520] = {0, 0, 8, 0};
	struct avb_descriptor d[2];
	struct avb_prop prop = {"com.example.fuzz", (const uint8_t *)"x", 1};
	const char *cmdline = "root=/dev/dm-0";
	struct avb_vbmeta_opts o;
	struct avb_buf blob = {0};
	struct avb_footer f;
	uint8_t digest[32] = {1};
	uint64_t off = 4096;

	memset(d, 0, sizeof(d));
	d[0].tag = AVB_TAG_HASHTREE;
	d[0].hashtree.dm_verity_version = 1;
	d[0].hashtree.p.image_size = 4096;
	d[0].hashtree.tree_offset = 4096;
	d[0].hashtree.data_block_size = d[0].hashtree.hash_block_size = 4096;
	strcpy(d[0].hashtree.p.hash_algorithm, "sha256");
	d[0].hashtree.p.name = (const uint8_t *)"system";
	d[0].hashtree.p.name_len = 6;
	d[0].hashtree.p.salt = digest;
	d[0].hashtree.p.salt_len = 8;
	d[0].hashtree.p.digest = digest;
	d[0].hashtree.p.digest_len = 32;
	d[1].tag = AVB_TAG_HASH;
	d[1].hash.p = d[0].hashtree.p;
	memset(&o, 0, sizeof(o));
	o.props = &prop;
	o.nprops = 1;
	o.cmdlines = &cmdline;
	o.ncmdlines = 1;
	if (verity_avb_vbmeta_make(&o, d, 2, &blob, NULL))
		abort();
	/* a chain descriptor by hand (its key would be a file) */
	{
		struct avb_descriptor c = {.tag = AVB_TAG_CHAIN_PARTITION};
		struct avb_buf b = {0};

		c.chain.name = (const uint8_t *)"vendor";
		c.chain.name_len = 6;
		c.chain.rollback_index_location = 1;
		c.chain.public_key = key;
		c.chain.public_key_len = sizeof(key);
		if (verity_avb_descriptor_encode(&c, &b) || b.len > 4096)
			abort();
		verity_avb_buf_free(&b);
	}
	memcpy(good + off, blob.p, blob.len);
	good_len = off + (blob.len + 4095) / 4096 * 4096 + 4096;
	f = (struct avb_footer){1, 0, 4096, off, blob.len};
	verity_avb_footer_encode(&f, good + good_len - AVB_FOOTER_SIZE);
	verity_avb_buf_free(&blob);
}

static int in(const uint8_t *p, size_t n, const uint8_t *base, size_t len)
{
	return p >= base && n <= len && (size_t)(p - base) <= len - n;
}

/* [a, a + an) and [b, b + bn) share a byte. */
static int overlaps(uint64_t a, uint64_t an, uint64_t b, uint64_t bn)
{
	return an && bn && a < b + bn && b < a + an;
}

/* What was accepted lies inside the blob, and a hashtree descriptor
 * made a pair lies inside the image; with the footer f, a pair the image
 * makes (verity_avb_image_pair) never has its vbmeta or footer inside data,
 * tree or parity. */
static void check(const uint8_t *img, size_t len, const uint8_t *blob,
		  size_t blob_len, const struct avb_footer *f)
{
	struct avb_vbmeta v;
	struct ht_error err;

	if (verity_avb_vbmeta_parse(blob, blob_len, "fuzz", &v, &err))
		return;
	if (v.size > blob_len)
		abort();
	(void)verity_avb_vbmeta_check(&v, "fuzz", &err);
	for (size_t i = 0; i < v.ndesc; i++) {
		const struct avb_descriptor *d = &v.desc[i];
		const struct avb_digest_part *dp = verity_avb_digest_part(d);
		uint32_t name_len;
		const uint8_t *name = verity_avb_desc_name(d, &name_len);
		struct verity_pair pair;
		int unusable;

		if (!in(d->raw, d->raw_size, blob, blob_len) ||
		    (name_len && !in(name, name_len, d->raw, d->raw_size)) ||
		    (dp && dp->digest_len &&
		     !in(dp->digest, dp->digest_len, d->raw, d->raw_size)))
			abort();
		if (d->tag == AVB_TAG_HASHTREE && f) {
			struct avb_image ai = {.path = "fuzz",
					       .file_size = len,
					       .has_footer = 1,
					       .footer = *f,
					       .vbmeta = v};

			if (!verity_avb_image_pair(&ai, d, &pair, &unusable,
						   &err))
				for (int k = 0; k < 3; k++) {
					uint64_t o =
						k == 0   ? 0
						: k == 1 ? d->hashtree
								   .tree_offset
							 : d->hashtree
								   .fec_offset;
					uint64_t n =
						k == 0 ? d->hashtree.p
								 .image_size
						: k == 1 ? d->hashtree.tree_size
							 : d->hashtree.fec_size;

					if (overlaps(f->vbmeta_offset,
						     f->vbmeta_size, o, n) ||
					    overlaps(len - AVB_FOOTER_SIZE,
						     AVB_FOOTER_SIZE, o, n))
						abort();
				}
		}
		if (d->tag != AVB_TAG_HASHTREE ||
		    verity_avb_hashtree_pair("fuzz", len, d, &pair, &unusable,
					     &err))
			continue;
		if (pair.data.length > len || d->hashtree.tree_offset > len ||
		    d->hashtree.tree_size > len - d->hashtree.tree_offset ||
		    (pair.fec.region.path &&
		     (d->hashtree.fec_offset > len ||
		      d->hashtree.fec_size > len - d->hashtree.fec_offset)))
			abort();
	}
	verity_avb_vbmeta_free(&v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t img[IMAGE_MAX];
	struct avb_footer f;
	struct ht_error err;
	size_t len;

	if (!good_len)
		setup();
	if (size < 3)
		return 0;
	if (data[0] & 1) {
		/* bytes written over the good image */
		size_t at = ((size_t)data[1] << 8 | data[2]) % good_len;
		size_t n = size - 3 < good_len - at ? size - 3 : good_len - at;

		memcpy(img, good, good_len);
		memcpy(img + at, data + 3, n);
		len = good_len;
	} else {
		len = size - 1 < IMAGE_MAX ? size - 1 : IMAGE_MAX;
		memcpy(img, data + 1, len);
	}
	if (len >= AVB_FOOTER_SIZE &&
	    !verity_avb_footer_parse(img + len - AVB_FOOTER_SIZE, len, "fuzz",
				     &f, &err)) {
		if (f.vbmeta_offset > len ||
		    f.vbmeta_size > len - f.vbmeta_offset)
			abort();
		check(img, len, img + f.vbmeta_offset, (size_t)f.vbmeta_size,
		      &f);
	}
	check(img, len, img, len, NULL);
	return 0;
}
