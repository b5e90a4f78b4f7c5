/* The public options checked and made into how an operation runs
 * (options.h); and the public enums and limits, which are the
 * library's own value for value. */
#include "verity/ops/options.h"

#include <errno.h>
#include <string.h>

#include "hashtree/sha256.h"
#include "verity/dm/table.h"
#include "verity/fec/rs.h"
#include "verity/sign/signature.h"
#include "verity/tree/update.h"

/* The public enums are the internal ones, value for value. */
_Static_assert((unsigned)FV_IGNORE_CORRUPTION ==
			       (unsigned)VERITY_ACT_IGNORE_CORRUPTION &&
		       (unsigned)FV_RESTART_ON_CORRUPTION ==
			       (unsigned)VERITY_ACT_RESTART_ON_CORRUPTION &&
		       (unsigned)FV_PANIC_ON_CORRUPTION ==
			       (unsigned)VERITY_ACT_PANIC_ON_CORRUPTION &&
		       (unsigned)FV_RESTART_ON_ERROR ==
			       (unsigned)VERITY_ACT_RESTART_ON_ERROR &&
		       (unsigned)FV_PANIC_ON_ERROR ==
			       (unsigned)VERITY_ACT_PANIC_ON_ERROR &&
		       (unsigned)FV_IGNORE_ZERO_BLOCKS ==
			       (unsigned)VERITY_ACT_IGNORE_ZERO_BLOCKS &&
		       (unsigned)FV_CHECK_AT_MOST_ONCE ==
			       (unsigned)VERITY_ACT_CHECK_AT_MOST_ONCE &&
		       (unsigned)FV_USE_TASKLETS ==
			       (unsigned)VERITY_ACT_TASKLETS,
	       "fv_flags and verity_act_flags differ");
_Static_assert((unsigned)FV_REPAIR_DRY_RUN == (unsigned)VERITY_RUN_DRY_RUN &&
		       (unsigned)FV_REPAIR_REWRITE_PARITY ==
			       (unsigned)VERITY_RUN_REWRITE_PARITY,
	       "fv_repair_flags and verity_run_flags differ");
_Static_assert((int)FV_BAD_DATA_BLOCK == (int)HT_BAD_DATA_BLOCK &&
		       (int)FV_BAD_HASH_BLOCK == (int)HT_BAD_HASH_BLOCK &&
		       (int)FV_BAD_PADDING == (int)HT_BAD_PADDING &&
		       (int)FV_UNREADABLE_DATA_BLOCK ==
			       (int)HT_UNREADABLE_DATA &&
		       (int)FV_UNREADABLE_HASH_BLOCK == (int)HT_UNREADABLE_HASH,
	       "fv_failure_kind and ht_failure_kind differ");

_Static_assert((int)FV_PARAM_DATA_BLOCKS == (int)HT_PARAM_DATA_BLOCKS &&
		       (int)FV_PARAM_HASH_OFFSET == (int)HT_PARAM_HASH_OFFSET &&
		       (int)FV_PARAM_FEC_ROOTS == (int)HT_PARAM_FEC_ROOTS &&
		       (int)FV_PARAM_FEC_OFFSET == (int)HT_PARAM_FEC_OFFSET &&
		       (int)FV_PARAM_PASSPHRASE == (int)HT_PARAM_PASSPHRASE &&
		       (int)FV_PARAM_DRY_RUN == (int)HT_PARAM_DRY_RUN &&
		       (int)FV_PARAM_CONTAINER == (int)HT_PARAM_CONTAINER &&
		       (int)FV_PARAM_TRUSTED_CERT ==
			       (int)HT_PARAM_TRUSTED_CERT &&
		       (int)FV_PARAM_TRUSTED_KEY == (int)HT_PARAM_TRUSTED_KEY &&
		       (int)FV_PARAM_ROOT_HASH == (int)HT_PARAM_ROOT_HASH &&
		       (int)FV_PARAM_PARTITION == (int)HT_PARAM_PARTITION &&
		       (int)FV_PARAM_PARTITION + 1 == (int)HT_PARAM_COUNT,
	       "fv_param and ht_param differ");

_Static_assert((int)FV_SHA256_FASTEST == (int)SHA256_CHOOSE_FASTEST &&
		       (int)FV_SHA256_PORTABLE == (int)SHA256_CHOOSE_PORTABLE &&
		       (int)FV_SHA256_TWO_WAY == (int)SHA256_CHOOSE_TWO_WAY &&
		       (int)FV_SHA256_THREE_WAY ==
			       (int)SHA256_CHOOSE_THREE_WAY &&
		       (int)FV_SHA256_AVX512 == (int)SHA256_CHOOSE_AVX512,
	       "fv_sha256_kernel and sha256_choice differ");
_Static_assert((int)FV_ROOTS_GIVEN == (int)VERITY_ROOTS_GIVEN &&
		       (int)FV_ROOTS_INFERRED == (int)VERITY_ROOTS_INFERRED &&
		       (int)FV_ROOTS_DEFAULT == (int)VERITY_ROOTS_DEFAULT &&
		       (int)FV_ROOTS_DESCRIBED == (int)VERITY_ROOTS_DESCRIBED,
	       "fv_roots_from and verity_roots_source differ");

_Static_assert(FV_MAX_SALT_SIZE == VERITY_MAX_SALT_SIZE &&
		       FV_MAX_DIGEST_SIZE == HT_MAX_DIGEST_SIZE &&
		       FV_MAX_HASH_NAME == VERITY_MAX_HASH_NAME &&
		       FV_MAX_THREADS == VERITY_MAX_THREADS &&
		       FV_FEC_MIN_ROOTS == FEC_MIN_ROOTS &&
		       FV_FEC_MAX_ROOTS == FEC_MAX_ROOTS &&
		       FV_MAX_TRUSTED_CERTS == VERITY_MAX_TRUSTED_FILES,
	       "the public limits and the library's differ");

_Static_assert((int)FV_TRUST_CHECK == (int)VERITY_TRUST_CHECK &&
		       (int)FV_TRUST_UNCHECKED == (int)VERITY_TRUST_UNCHECKED,
	       "the public trust enums are the policy's");

int verity_ops_options_in(const char *who, const fv_options *in,
			  fv_options *full, struct ht_error *err)
{
	memset(full, 0, sizeof(*full));
	if (in) {
		/* (0.10's first version ends with repair) */
		if (in->size <
		    offsetof(fv_options, repair) + sizeof(in->repair))
			return ht_fail(err, EINVAL,
				       "%s: options of size %zu: too "
				       "small",
				       who, in->size);
		memcpy(full, in,
		       in->size < sizeof(*full) ? in->size : sizeof(*full));
	}
	full->size = sizeof(*full);
	full->map = !!full->map;
	if (full->threads > VERITY_MAX_THREADS)
		return ht_fail(err, EINVAL, "%u threads (at most %d)",
			       full->threads, VERITY_MAX_THREADS);
	if (full->flags & ~(((1u << VERITY_NFLAGS) - 1) | VERITY_ACT_SHARED))
		return ht_fail(err, EINVAL, "unknown flags 0x%x", full->flags);
	if (verity_flags_check(full->flags, err))
		return -EINVAL;
	if (full->ntrusted_certs && !full->trusted_certs)
		return ht_fail(err, EINVAL, "%s: trusted_certs is NULL", who);
	if (full->ntrusted_certs > VERITY_MAX_TRUSTED_FILES)
		return ht_fail(err, EINVAL,
			       "%zu certificate files (at most %d)",
			       full->ntrusted_certs, VERITY_MAX_TRUSTED_FILES);
	for (size_t i = 0; i < full->ntrusted_certs; i++)
		if (!full->trusted_certs[i])
			return ht_fail(err, EINVAL,
				       "certificate file %zu is NULL", i);
	if ((unsigned)full->sha256 > FV_SHA256_AVX512)
		return ht_fail(err, EINVAL, "no SHA-256 kernel %d",
			       (int)full->sha256);
	if (full->repair &
	    ~(unsigned)(FV_REPAIR_DRY_RUN | FV_REPAIR_REWRITE_PARITY))
		return ht_fail(err, EINVAL, "unknown repair flags %#x",
			       full->repair);
	return 0;
}

void verity_ops_run_of(const fv_options *o, struct verity_run *run)
{
	memset(run, 0, sizeof(*run));
	run->ht.threads = o->threads ? o->threads : verity_default_threads();
	run->ht.no_map = !o->map;
	run->ht.progress = o->progress;
	run->ht.progress_ctx = o->progress_ctx;
	run->ht.pass = o->pass;
	run->trusted = o->trusted_certs;
	run->ntrusted = o->ntrusted_certs;
	run->activation = o->flags;
	run->sha256 = (enum sha256_choice)o->sha256;
}
