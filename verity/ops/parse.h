/* fastverity's option values read as its actions read them
 * (include/fastverity.h: fv_params_parse, fv_option_number,
 * fv_ranges_parse): each message names the option, as the command's
 * users know it. */
#ifndef FV_OPS_PARSE_H
#define FV_OPS_PARSE_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stddef.h>
#include <stdint.h>

#include "hashtree/error.h"
#include "include/fastverity.h"

/* n name/value pairs into p: 0 or -errno. */
int verity_ops_params_parse(fv_params *p, const char *const *opts, size_t n,
			    struct ht_error *err);
/* One number of option name: 0 or -EINVAL. */
int verity_ops_number(const char *name, const char *value, uint64_t *out,
		      struct ht_error *err);
/* --changed's OFFSET:LENGTH ranges, or @FILE's: *ranges (free). */
int verity_ops_ranges(const char *text, uint64_t **ranges, size_t *n,
		      struct ht_error *err);

#endif
