/* A device-mapper target's table (table.h) as the public structure shows
 * it (include/fastverity.h, fv_status_get): the door checks the
 * arguments and gives what this fills (its size as the caller's). */
#ifndef FV_DM_SHOWN_H
#define FV_DM_SHOWN_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include "include/fastverity.h"
#include "verity/dm/table.h"

/* a's facts into out (every member; pointers into a, params, root_hex). */
void verity_dm_shown_status(const struct verity_active *a,
			    const fv_params *params, const char *root_hex,
			    struct fv_status_info *out);

#endif
