/* A pair's parameters and layout as dump shows them (verity/show/pair.c):
 * veritysetup's "VERITY header information" text, or the members of the
 * --json object that says the same, for every container that shows a
 * pair. */
#ifndef FV_SHOW_PAIR_H
#define FV_SHOW_PAIR_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include "verity/show/result.h"
#include "verity/show/show.h"
#include "verity/tree/layout.h"
#include "verity/tree/params.h"

/* The header of the pair on device (its name as the text says it) with
 * parameters p, laid out as l: text lines, uuid_text on the UUID line;
 * or, with sh->json, members of the object open (device its "device",
 * the UUID p's). root_hex NULL: no root hash line or member. */
void verity_show_pair_header(struct show *sh, const char *device,
			     const fv_params *p, const char *uuid_text,
			     const struct fv_layout *l, const char *root_hex);

/* The --json members alone (fec 0: without the parity's "fec" object,
 * which verify's document has at its end). */
void verity_show_pair_members(struct show *sh, const char *device,
			      const fv_params *p, const struct fv_layout *l,
			      const char *root_hex, int fec);
/* The same of a pair as the library holds it (the layout's and
 * parameters' own types): an Android image's dump. */
void verity_show_pair_of(struct show *sh, const char *device,
			 const struct verity_params *p,
			 const struct verity_layout *l, const char *uuid_text,
			 const char *root_hex);
/* The parameters as the public fv_params has them (what the door hands
 * out, and what the header shows). */
void verity_show_params(const struct verity_params *in, fv_params *out);
/* The public parameters checked and made the library's: 0, or -EINVAL
 * and why (the size of in, the hash, a block size, the salt, the UUID). */
int verity_show_params_in(const fv_params *in, struct verity_params *out,
			  struct ht_error *err);
/* fv_params_init's: the defaults with a random 32-byte salt and UUID
 * into out (every member): 0, or -EIO (err: why). */
int verity_show_params_init(fv_params *out, struct ht_error *err);
/* fv_params_layout's: q's tree laid out (its data blocks set), where
 * the tree starts, its blocks, the hash area's end (each NULL: not
 * wanted). */
int verity_show_params_layout(const struct verity_params *q,
			      uint64_t *tree_offset, uint64_t *tree_blocks,
			      uint64_t *hash_bytes, struct ht_error *err);
/* dump of a pair (fv_show's FV_SHOW_PAIR): its header as d (fv_describe's
 * result) lays it out; image: the sidecar image whose tree it is (NULL:
 * a hash device alone). */
void verity_show_described(struct show *sh, const struct fv_image_pair_info *pi,
			   const char *image, const struct fv_result *d);
/* What format or update made (r) on device: its header, with the root;
 * uuid: as --uuid typed it (NULL: the parameters'); --json: update's
 * figures. */
void verity_show_made(struct show *sh, const char *device,
		      const struct fv_result *r, const char *uuid);

#endif
