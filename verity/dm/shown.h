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
#include "verity/show/show.h"

/* The handle behind fv_status: name's target as read, its parameters
 * and root as the public structures show them. */
struct fv_status {
	struct verity_active a;
	fv_params params;
	char root_hex[2 * HT_MAX_DIGEST_SIZE + 1];
};
/* name's target read into *out (malloc'd). */
int verity_dm_status_get(const char *name, fv_status **out,
			 struct ht_error *err);
/* fv_close's: name's target removed as how says (checked). */
int verity_dm_close(const char *name, enum fv_close_how how,
		    struct ht_error *err);

/* a's facts into out (every member; pointers into a, params, root_hex). */
void verity_dm_shown_status(const struct verity_active *a,
			    const fv_params *params, const char *root_hex,
			    struct fv_status_info *out);

/* What status shows of name (a NULL: not active) on sh, veritysetup's
 * lines or the --json document: sh's visitor's non-zero return, ENODEV
 * (said) when a is NULL, else 0. */
int verity_dm_show_active(const char *name, const struct verity_active *a,
			  struct show *sh);
/* fv_show's FV_SHOW_STATUS: name's target read and shown (name may be
 * its /dev/mapper/ path): verity_dm_show_active's return, or
 * verity_status's error. */
int verity_dm_show_status(const char *name, struct show *sh,
			  struct ht_error *err);

#endif
