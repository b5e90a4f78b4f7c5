/* The public options (include/fastverity.h, fv_options) as the
 * operations take them: copied and checked once at the door, then made
 * into how an operation runs. */
#ifndef FV_OPS_OPTIONS_H
#define FV_OPS_OPTIONS_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include "hashtree/error.h"
#include "include/fastverity.h"
#include "verity/tree/pair.h"

/* The caller's options (NULL: the defaults) copied into full, zeros
 * past what the caller has, and checked as 0.3-0.9's setters checked
 * them (who: the call, in messages): 0 or -EINVAL. */
int verity_ops_options_in(const char *who, const fv_options *in,
			  fv_options *full, struct ht_error *err);
/* How an operation runs, from checked options. */
void verity_ops_run_of(const fv_options *o, struct verity_run *run);

#endif
