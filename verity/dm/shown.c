/* What fv_status_get shows of an active target: the table read back
 * from the kernel, its devices (NULL when the kernel names none) and
 * each flag bit's word as veritysetup status prints it. */
#include "verity/dm/shown.h"

#include <string.h>

_Static_assert(FV_NFLAGS == VERITY_NFLAGS, "the flag counts differ");
_Static_assert((int)FV_SHARED == (int)VERITY_ACT_SHARED, "FV_SHARED");

static const char *or_null(const char *s)
{
	return s && *s ? s : NULL;
}

/* The kernel's word for one flag, or NULL. */
static const char *flag_name(unsigned flag)
{
	for (size_t i = 0; i < VERITY_NFLAGS; i++)
		if (verity_flag_words[i].flag == flag)
			return verity_flag_words[i].word;
	return NULL;
}

void verity_dm_shown_status(const struct verity_active *a,
			    const fv_params *params, const char *root_hex,
			    struct fv_status_info *out)
{
	memset(out, 0, sizeof(*out));
	out->is_verity = a->is_verity != 0;
	out->corrupted = a->corrupted != 0;
	out->open_count = a->open_count;
	out->flags = a->flags;
	out->params = params;
	out->root_hex = root_hex;
	out->data_device = or_null(a->data_dev);
	out->hash_device = or_null(a->hash_dev);
	out->data_file = or_null(a->data_loop);
	out->hash_file = or_null(a->hash_loop);
	out->fec_device = or_null(a->fec_dev);
	out->fec_file = or_null(a->fec_loop);
	out->fec_roots = a->fec_roots;
	out->read_only = a->read_only != 0;
	out->is_signed = a->sig_key_desc[0] != 0;
	out->size_sectors = a->size_sectors;
	out->hash_start_block = a->hash_start_block;
	out->fec_start_block = a->fec_start_block;
	out->fec_blocks = a->fec_blocks;
	out->fec_repaired = a->fec_repaired;
	for (unsigned i = 0; i < FV_NFLAGS; i++)
		out->flag_name[i] = flag_name(1u << i);
}
