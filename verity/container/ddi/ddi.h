/* systemd Discoverable Disk Images as a container (docs/ddi.md): a GPT
 * disk whose root or usr partitions each have a -verity partition (a
 * veritysetup superblock and tree over the whole data partition) and
 * maybe a -verity-sig partition (JSON: the root hash and its PKCS#7
 * signature). The partition UUIDs of data and -verity are the two halves
 * of the root hash. Each such pair becomes a verity pair of regions of
 * the one image. */
#ifndef FV_CONTAINER_DDI_DDI_H
#define FV_CONTAINER_DDI_DDI_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stddef.h>
#include <stdint.h>

#include "verity/container/ddi/gpt.h"
#include "verity/tree/pair.h"

/* The signature partition's JSON: at most this long, NUL-padded. */
#define DDI_SIG_JSON_MAX (16u << 10)

enum ddi_role { DDI_ROOT, DDI_USR };

/* One protected partition and what protects it. */
struct ddi_verity {
	enum ddi_role role;
	const char *arch; /* "x86-64", "arm64", ... */
	const struct gpt_partition *data, *hash, *sig; /* sig: NULL unsigned */
	char root_hex[2 * HT_MAX_DIGEST_SIZE + 1];
	uint8_t *signature; /* DER, from the signature partition */
	size_t signature_len;
	char fingerprint[65]; /* certificateFingerprint, "" when absent */
};

struct ddi_image {
	const char *path;
	uint64_t size;
	struct gpt gpt;
	struct ddi_verity *v;
	size_t nv;
};

/* "root" or "usr". */
const char *verity_ddi_role_name(enum ddi_role r);
/* The DPS name of a partition type ("root-x86-64-verity"), or NULL. */
const char *verity_ddi_type_name(const char *type_uuid);

/* 1 when path has a GPT header ("EFI PART" in sector 1 of 512 or 4096
 * bytes; 0 otherwise, also when it cannot be read): verity_ddi_image_read then
 * says what is wrong with it. */
int verity_ddi_probe(const char *path);
/* Reads the GPT and finds every protected partition: a -verity
 * partition, its data partition (the type's data partition whose UUID is
 * the root hash's first half; exactly one), and the signature partition
 * whose rootHash is that root hash. */
int verity_ddi_image_read(const char *path, struct ddi_image *img,
			  struct ht_error *err);
void verity_ddi_image_free(struct ddi_image *img);

/* The verity pair of v: data and hash regions of the image, parameters
 * from the -verity partition's superblock, the root hash, the
 * signature. */
int verity_ddi_pair(const struct ddi_image *img, const struct ddi_verity *v,
		    struct verity_pair *pair, struct ht_error *err);

/* The signature partition's bytes (len of them): JSON, then only NULs.
 * rootHash (lowercase hex of 32 or 64 bytes), signature (base64 DER,
 * malloc'd into *der) and the optional certificateFingerprint (64
 * lowercase hex digits) are checked; where names the partition. */
int verity_ddi_sig_json_parse(const uint8_t *buf, size_t len, const char *where,
			      char root_hex[2 * HT_MAX_DIGEST_SIZE + 1],
			      uint8_t **der, size_t *der_len,
			      char fingerprint[65], struct ht_error *err);
/* The JSON systemd-repart writes: {"rootHash":..,
 * "certificateFingerprint":.., "signature":..} (malloc'd, no newline). */
int verity_ddi_sig_json_make(const char *root_hex, const char *fingerprint,
			     const uint8_t *der, size_t der_len, char **json,
			     struct ht_error *err);

/* fv_sign's FV_SIGN_DDI_JSON: root_hex signed by vs (its certificate
 * embedded), as systemd's signature partition holds it (*json
 * malloc'd, *len its length). */
struct verity_signer;
int verity_ddi_sig_json_sign(const struct verity_signer *vs,
			     const char *root_hex, uint8_t **json, size_t *len,
			     struct ht_error *err);

#endif
