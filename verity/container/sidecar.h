/* systemd's sidecar files, the simplest container: an image IMAGE.raw
 * with its tree in IMAGE.verity, its root hash in IMAGE.roothash and
 * the root hash's signature in IMAGE.roothash.p7s; fastverity adds the
 * parity in IMAGE.fec. Any other name gets the suffixes appended. */
#ifndef FV_CONTAINER_SIDECAR_H
#define FV_CONTAINER_SIDECAR_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include "verity/tree/pair.h"

struct verity_sidecar {
	char *tree;      /* IMAGE.verity */
	char *roothash;  /* IMAGE.roothash */
	char *signature; /* IMAGE.roothash.p7s */
	char *fec;       /* IMAGE.fec */
};

/* The sidecar names of image (malloc'd; verity_sidecar_free). */
int verity_sidecar_names(const char *image, struct verity_sidecar *s,
			 struct ht_error *err);
void verity_sidecar_free(struct verity_sidecar *s);

/* Reading: the pair's regions from the image and its sidecars: data the
 * image, tree IMAGE.verity, parity IMAGE.fec when it exists (its roots
 * told from its size), and *signature_path IMAGE.roothash.p7s when it
 * exists. What the caller set already (a tree, parity or signature named
 * otherwise) is kept. The root hash is IMAGE.roothash's. */
void verity_sidecar_pair(const struct verity_sidecar *s, const char *image,
			 struct verity_pair *pair, const char **signature_path);

/* Writing (after format): the sidecars the new tree does not get again
 * are removed, as they no longer match it: the signature unless
 * keep_signature, the parity unless the pair has parity. *removed gets
 * VERITY_SIDECAR_SIGNATURE and VERITY_SIDECAR_FEC for those removed;
 * a file that is there and cannot be removed is an error. */
enum {
	VERITY_SIDECAR_SIGNATURE = 1u << 0,
	VERITY_SIDECAR_FEC = 1u << 1,
};
int verity_sidecar_prune(const struct verity_sidecar *s,
			 const struct verity_pair *pair, int keep_signature,
			 unsigned *removed, struct ht_error *err);

#endif
