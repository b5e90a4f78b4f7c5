/* The kernel's dm-verity table: its flags, the target parameters made
 * from a pair, and parsed back from what the kernel reports. */
#ifndef FV_DM_TABLE_H
#define FV_DM_TABLE_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <linux/limits.h> /* PATH_MAX, also under strict C */
#include <stddef.h>
#include <stdint.h>

#include "hashtree/hasher.h"
#include "verity/tree/params.h"

enum verity_act_flags {
	VERITY_ACT_IGNORE_CORRUPTION = 1u << 0,
	VERITY_ACT_RESTART_ON_CORRUPTION = 1u << 1,
	VERITY_ACT_PANIC_ON_CORRUPTION = 1u << 2,
	VERITY_ACT_RESTART_ON_ERROR = 1u << 3,
	VERITY_ACT_PANIC_ON_ERROR = 1u << 4,
	VERITY_ACT_IGNORE_ZERO_BLOCKS = 1u << 5,
	VERITY_ACT_CHECK_AT_MOST_ONCE = 1u << 6,
	VERITY_ACT_TASKLETS = 1u << 7,
	/* not a table word: the data device may be in use by other
	 * mappings (veritysetup's --shared) */
	VERITY_ACT_SHARED = 1u << 8,
};

/* Each flag and its word in the kernel table (and in veritysetup's status
 * display), in the kernel's order: the one table both derive from. */
#define VERITY_NFLAGS 8
struct verity_flag_word {
	unsigned flag;
	const char *word;
};
extern const struct verity_flag_word verity_flag_words[VERITY_NFLAGS];

/* The FEC options of the table: use_fec_from_device <dev> fec_start
 * <block> fec_blocks <covered blocks> fec_roots <roots>. */
struct verity_fec_table {
	const char *dev;
	uint64_t start_block;
	uint64_t blocks;
	unsigned roots;
};

/* -EINVAL when flags ask for two corruption or two error policies. */
int verity_flags_check(unsigned flags, struct ht_error *err);

/* What a table says: the tree's parameters and devices, the root, the
 * flags, and the parity and signature key when there are. */
struct verity_target {
	const struct verity_params *p;
	const char *data_dev; /* "7:0", "/dev/loop0" */
	const char *hash_dev;
	uint64_t hash_start_block;
	const uint8_t *root;
	size_t root_size;
	unsigned flags;                     /* VERITY_ACT_* */
	const struct verity_fec_table *fec; /* NULL: no parity */
	const char *sig_key_desc;           /* NULL: no signature */
};

/* The target's parameters: "<type> <data> <hash> <dbs> <hbs> <blocks>
 * <hash_start> <alg> <root> <salt|-> [<#opts> <opts>]" into out. Checks
 * that the flags do not conflict (-EINVAL); -ENAMETOOLONG when the table
 * does not fit len. */
int verity_table_params(const struct verity_target *t, char *out, size_t len,
			struct ht_error *err);

struct verity_active {
	int open_count;
	int read_only;
	int corrupted; /* the target's status says C */
	int is_verity; /* the target is "verity" */
	int deferred_remove;
	struct verity_params p; /* hash type, block sizes, blocks, salt */
	uint8_t root[HT_MAX_DIGEST_SIZE];
	size_t root_size;
	uint64_t hash_start_block;
	uint64_t size_sectors;
	unsigned flags;
	char sig_key_desc[256];
	char data_dev[PATH_MAX]; /* /dev/loop0, /dev/vda */
	char hash_dev[PATH_MAX];
	char data_loop[PATH_MAX]; /* backing file of a loop device, or "" */
	char hash_loop[PATH_MAX];
	char fec_dev[PATH_MAX]; /* "" without FEC */
	char fec_loop[PATH_MAX];
	uint64_t fec_start_block;
	uint64_t fec_blocks;
	unsigned fec_roots;
	int64_t fec_repaired; /* the status's count of corrected blocks, or -1 */
};

/* Parses target parameters as the kernel reports them (for status, and
 * for tests). */
int verity_table_parse(const char *params, struct verity_active *st,
		       struct ht_error *err);
/* The target's status line: "V" (verified) or "C" (corrupted), then,
 * where the kernel counts them (with parity), the blocks parity
 * corrected; -1 where it says none. */
void verity_status_parse(const char *status, struct verity_active *st);

#endif
