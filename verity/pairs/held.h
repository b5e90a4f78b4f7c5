/* A pair as the door's actions hold it (the handle behind fv_open's
 * pairs, fv_format's and fv_update's): its paths, parameters, root,
 * parity and signature owned, and what its image said of it when it was
 * opened (the verdict, whether the open may write, a disk image's
 * certificateFingerprint). Made of parts, of an opened image's pair, or
 * of a sidecar image's files; checked (verify, repair) on the verdict
 * it was opened with. Each call returns 0 or -errno with err's
 * message. */
#ifndef FV_PAIRS_HELD_H
#define FV_PAIRS_HELD_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stddef.h>
#include <stdint.h>

#include "hashtree/error.h"
#include "verity/container/ddi/ddi.h"
#include "verity/policy/trust.h"
#include "verity/tree/pair.h"
#include "verity/tree/update.h"

struct verity_held {
	struct verity_pair pair;     /* its paths and signature point below */
	struct verity_params params; /* what an action takes as pair.params */
	char *data, *hash, *fec, *signature_name;
	uint8_t *signature;
	char root_hex[2 * HT_MAX_DIGEST_SIZE + 1];
	/* an image's pair, judged when the image opened: the verdict (also
	 * in pair.trust), whether the open may write (repair) */
	int of_image;
	char *image;
	enum verity_trust opened;
	int writes;
	struct verity_extents *src; /* a logical partition's, owned */
	char fingerprint[65];       /* a disk image's certificateFingerprint */
	unsigned fingerprint_at;    /* its signature partition */
};

/* A pair of data and hash with the defaults (sha256, 4096-byte blocks,
 * format 1, a random salt and UUID). */
int verity_held_new(const char *data, const char *hash,
		    struct verity_held **out, struct ht_error *err);
void verity_held_free(struct verity_held *pr);

/* dup of s (NULL stays NULL) into *dst, the old one freed. */
int verity_held_string(char **dst, const char *s, struct ht_error *err);

/* Parameters checked already (verity_params_validate's fields). */
void verity_held_set_params(struct verity_held *pr,
			    const struct verity_params *p);
/* The parameters from the superblock at hash_offset (update: also one
 * an update left unfinished). */
int verity_held_read_superblock(struct verity_held *pr, uint64_t hash_offset,
				int update, struct ht_error *err);
/* The root to check against, as bytes or hex. */
int verity_held_set_root(struct verity_held *pr, const uint8_t *root,
			 size_t len, struct ht_error *err);
int verity_held_set_root_hex(struct verity_held *pr, const char *hex,
			     struct ht_error *err);
/* The parity: path (copied; NULL: none), offset, roots (0: told from
 * its size). */
int verity_held_set_fec(struct verity_held *pr, const char *path,
			uint64_t offset, unsigned roots, struct ht_error *err);
/* A signature given to be checked (copied; der NULL: none), and the
 * name messages give it. */
int verity_held_set_signature(struct verity_held *pr, const uint8_t *der,
			      size_t len, const char *name,
			      struct ht_error *err);

/* A copy of a pair made of its parts (a plain pair's, a sidecar
 * image's), acting as the original would. */
int verity_held_copy(const struct verity_held *src, struct verity_held **out,
		     struct ht_error *err);

/* What an opened image says of one of its pairs. */
struct verity_held_image {
	const char *path;           /* the image */
	enum verity_container kind; /* its container */
	enum verity_trust trust;    /* the pair's verdict */
	enum verity_signature_from from;
	int writes;                   /* the open judged writing */
	const struct ddi_verity *ddi; /* a disk image's partition, or NULL */
};
/* A copy of an opened image's pair src, with what the image says. */
int verity_held_of_image(const struct verity_pair *src,
			 const struct verity_held_image *img,
			 struct verity_held **out, struct ht_error *err);

/* An image with systemd's sidecar files: IMAGE.verity, and when they
 * exist IMAGE.roothash, IMAGE.roothash.p7s (carried by the container),
 * IMAGE.fec; parameters not read. */
int verity_held_sidecar(const char *image, struct verity_held **out,
			struct ht_error *err);

/* The root hash given as hex text, or in the file at path (NULL both:
 * none), checked against pr's hash (its digest size in hex digits, the
 * fix HT_PARAM_ROOT_HASH) and set. */
int verity_held_open_root(struct verity_held *pr, const char *hex,
			  const char *path, struct ht_error *err);

/* What a request says of a pair made already (verity_held_new,
 * verity_held_sidecar): fv_open's plain pair or sidecar image,
 * fv_format's and fv_update's pair. */
struct verity_held_request {
	const struct verity_params *params; /* checked; NULL: the superblock's
					     * at hash_offset */
	uint64_t hash_offset;
	int update; /* the superblock as update reads it, data_blocks (when
		     * given) its count said again */
	uint64_t data_blocks;
	int sidecar; /* made of parts, as a sidecar image's */
	/* the parity (NULL: a sidecar image's own, if any), its offset and
	 * roots */
	const char *fec_path;
	uint64_t fec_offset;
	unsigned fec_roots;
	const char *signature_path; /* a signature given to be checked */
	const char *root_hex, *root_hash_file;
	int root_needed; /* (update's) */
};
int verity_held_request(struct verity_held *pr,
			const struct verity_held_request *q,
			struct ht_error *err);

/* The pair as an action takes it: the parameters as set. */
void verity_held_take(const struct verity_held *pr, struct verity_pair *pair);

/* format of pr as run says (no signature: format signs nothing): its
 * tree and parity built, the data blocks counted and the root kept on
 * pr; out: what format made. */
int verity_held_format(struct verity_held *pr, const struct verity_run *run,
		       struct verity_outcome *out, struct ht_error *err);

/* update of pr's tree (and parity) where its data changed: ranges, n
 * pairs of a byte offset and a length (fv_update's; NULL: the whole of
 * the data compared; n 0 with ranges: nothing changed); the new root kept on pr,
 * what was rewritten in *u, the tree's layout in *layout. */
int verity_held_update(struct verity_held *pr, const uint64_t *ranges, size_t n,
		       const struct verity_run *run,
		       struct verity_update_result *u,
		       struct verity_layout *layout, struct ht_error *err);

/* verify (repair 0) or repair of pr as run says (run->flags: the
 * repair's), on the verdict its image was opened with; a disk image's
 * signer must be the one its certificateFingerprint names. out: what
 * it found, its trust an Android image's verdict. */
int verity_held_check(const struct verity_held *pr,
		      const struct verity_run *run, int repair,
		      struct verity_outcome *out, struct ht_error *err);

#endif
