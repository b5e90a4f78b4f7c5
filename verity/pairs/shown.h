/* A pair's layout and what its parity did, as the public report shows
 * them (include/fastverity.h, fv_result_report). */
#ifndef FV_PAIRS_SHOWN_H
#define FV_PAIRS_SHOWN_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include "include/fastverity.h"
#include "verity/tree/layout.h"
#include "verity/tree/pair.h"

void verity_pairs_shown_layout(const struct verity_layout *in,
			       struct fv_layout *out);
void verity_pairs_shown_fec(const struct verity_fec_result *in,
			    struct fv_fec_report *out);

#endif
