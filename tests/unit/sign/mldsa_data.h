/* What the ML-DSA suites of verity/sign/ (test_mldsa, test_mldsa_key,
 * test_scheme) read: AOSP's test keys and vbmeta images, Wycheproof's
 * vectors (tests/avb/mldsa; run from the top of the tree), the sizes of
 * each level. */
#ifndef FV_UNIT_MLDSA_DATA_H
#define FV_UNIT_MLDSA_DATA_H

#include <check.h>
#include <stdint.h>
#include <stdlib.h>

#include "unit_files.h"
#include "verity/sign/mldsa.h"

#define DATA "tests/avb/mldsa/"

static const int levels[2] = {65, 87};

static inline uint8_t *slurp(const char *name, size_t *len)
{
	return unit_slurp(name, len);
}

static inline struct verity_mldsa_sizes sizes(int level)
{
	struct verity_mldsa_sizes s;

	ck_assert_int_eq(verity_mldsa_sizes(level, &s), 0);
	return s;
}

static inline void read_key(const char *file, int level, struct verity_mldsa_key *key)
{
	struct ht_error err;
	size_t len;
	uint8_t *buf = slurp(file, &len);
	int r = verity_mldsa_key_read(buf, len, level, file, key, &err);

	if (r)
		ck_abort_msg("%s: %s", file, ht_msg(&err));
	free(buf);
}

#endif
