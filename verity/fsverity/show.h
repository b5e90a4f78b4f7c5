/* fsverity-utils' commands as `fastverity fsverity` runs them
 * (include/fastverity.h, fv_show's FV_SHOW_FSVERITY_*; docs/fsverity.md):
 * the tree's parameters judged as fsverity-utils judges its options,
 * digest's lines in its format, the descriptor and signature written,
 * sign's line, enable and measure. */
#ifndef FV_FSVERITY_SHOW_H
#define FV_FSVERITY_SHOW_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include "hashtree/error.h"
#include "hashtree/tree.h"
#include "include/fastverity.h"

struct show;
struct verity_signer;

/* q done, its lines on sh (ho: the run's options; vs: sign's signer;
 * no file named: the parameters judged alone): 0; > 0 said on sh,
 * fsverity-utils' exit code (1 failed, 2 a usage error); or a negative
 * errno with err's message, not said (for sign, only the signing's). */
int verity_fsv_show(const struct fv_show_request *q,
		    const struct ht_options *ho, const struct verity_signer *vs,
		    struct show *sh, struct ht_error *err);

#endif
