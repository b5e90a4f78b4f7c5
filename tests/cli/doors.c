/* The library's door for tests/cli/t_doors.sh: verify through the public
 * API (<fastverity.h> alone), its outcome printed as the command's
 * --json names it, for the test to compare with the command's.
 * Usage: doors DATA HASH ROOT_HEX [FEC_FILE]. */
#include <stdio.h>

#include "include/fastverity.h"

/* The command's word for each kind of failure. */
static const char *const kind_name[] = {
	[FV_BAD_DATA_BLOCK] = "data",
	[FV_BAD_HASH_BLOCK] = "hash",
	[FV_BAD_PADDING] = "padding",
	[FV_UNREADABLE_DATA_BLOCK] = "unreadable",
	[FV_UNREADABLE_HASH_BLOCK] = "unreadable",
};

static int n_failures;

static void on_failure(void *ctx, enum fv_failure_kind kind, uint64_t block,
		       uint64_t offset, unsigned level)
{
	(void)ctx;
	(void)level;
	printf("%s{\"type\":\"%s\",\"position\":%llu,\"block\":%llu}",
	       n_failures++ ? "," : "", kind_name[kind],
	       (unsigned long long)offset, (unsigned long long)block);
}

int main(int argc, char **argv)
{
	fv_params *p = fv_params_new();
	fv_options *o = fv_options_new();
	fv_result *res = NULL;
	uint64_t hash_blocks, data_blocks;

	if (argc < 4 || !p || !o)
		return 2;
	if (argc > 4 && fv_options_set_fec(o, argv[4], 0, 0))
		return 2;
	if (fv_params_read_superblock(p, argv[2])) {
		printf("{\"error\":\"%s\"}\n", fv_last_error());
		return 1;
	}
	printf("{\"failures\":[");
	if (fv_verify(p, argv[1], argv[2], argv[3], o, on_failure, NULL,
		      &res)) {
		printf("],\"error\":\"%s\"}\n", fv_last_error());
		return 1;
	}
	data_blocks = fv_result_unchecked(res, &hash_blocks);
	printf("],\"root_hash_matches\":%s,\"root_first\":%s,"
	       "\"bad_data_blocks\":%llu,\"bad_hash_blocks\":%llu,"
	       "\"bad_spare_areas\":%llu,\"unreadable_blocks\":%llu,"
	       "\"unchecked_data_blocks\":%llu,\"unchecked_hash_blocks\":%llu,"
	       "\"intact\":%s,\"hashing_path\":\"%s\",\"repairable\":%llu}\n",
	       fv_result_root_matches(res) ? "true" : "false",
	       fv_result_root_first(res) ? "true" : "false",
	       (unsigned long long)fv_result_bad_data_blocks(res),
	       (unsigned long long)fv_result_bad_hash_blocks(res),
	       (unsigned long long)fv_result_bad_padding(res),
	       (unsigned long long)fv_result_unreadable(res),
	       (unsigned long long)data_blocks, (unsigned long long)hash_blocks,
	       fv_result_intact(res) ? "true" : "false",
	       fv_result_hashing_path(res),
	       (unsigned long long)fv_result_repaired(res));
	fv_result_free(res);
	fv_options_free(o);
	fv_params_free(p);
	return 0;
}
