/* A pair's parameters and layout as dump shows them (verity/show/pair.c):
 * veritysetup's "VERITY header information" text, or the members of the
 * --json object that says the same, for every container that shows a
 * pair. */
#ifndef FV_SHOW_PAIR_H
#define FV_SHOW_PAIR_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
/* The same of a pair as the library holds it (the layout's and
 * parameters' own types): an Android image's dump. */
void verity_show_pair_of(struct show *sh, const char *device,
			 const struct verity_params *p,
			 const struct verity_layout *l, const char *uuid_text,
			 const char *root_hex);
/* The parameters as the public fv_params has them (what the door hands
 * out, and what the header shows). */
void verity_show_params(const struct verity_params *in, fv_params *out);

#endif

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

/* The same of a pair as the library holds it (the layout's and
 * parameters' own types): an Android image's dump. */
void verity_show_pair_of(struct show *sh, const char *device,
			 const struct verity_params *p,
			 const struct verity_layout *l, const char *uuid_text,
			 const char *root_hex);
/* The parameters as the public fv_params has them (what the door hands
 * out, and what the header shows). */
void verity_show_params(const struct verity_params *in, fv_params *out);

#endif
