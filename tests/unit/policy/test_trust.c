/* verity/policy/trust.c: the trust policy's table. */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include "check_main.h"
#include "verity/container/avb/image.h"
#include "verity/container/ddi/ddi.h"
#include "verity/registry/registry.h"
#include "verity/container/source.h"
#include "verity/policy/trust.h"

/* The trust policy against its table (docs/trust.md), row by row. */
START_TEST(trust_table)
{
	static const enum verity_container cs[] = {
		VERITY_CONTAINER_PLAIN, VERITY_CONTAINER_SIDECAR,
		VERITY_CONTAINER_AVB, VERITY_CONTAINER_DDI};
	struct ht_error err;

	for (size_t c = 0; c < 4; c++)
		for (int sig = 0; sig < 3; sig++)
			for (int an = 0; an < 3; an++)
				for (int w = 0; w < 3; w++) {
					/* w 2: opening (activates) */
					struct verity_trust_ask a = {
						cs[c], "img",
						(enum verity_signature_from)sig,
						(enum verity_anchor)an, w == 1,
						w == 2};
					enum verity_anchor right =
						cs[c] == VERITY_CONTAINER_AVB
							? VERITY_ANCHOR_KEY
							: VERITY_ANCHOR_CERT;
					enum verity_trust t = 99;
					int want, r = verity_trust_decide(
							  &a, &t, &err);

					if (an != VERITY_ANCHOR_NONE &&
					    (enum verity_anchor)an != right)
						want = -EINVAL;
					else if (sig == VERITY_SIGNATURE_NONE)
						want = an ? -EPERM : 0;
					else if (an)
						want = 0;
					else
						want = (sig == VERITY_SIGNATURE_FOUND &&
							w != 1) ||
								       w == 2
							       ? 0
							       : -EINVAL;
					ck_assert_msg(r == want,
						      "%zu %d %d %d: %d", c,
						      sig, an, w, r);
					if (r)
						ck_assert(strstr(ht_msg(&err),
								 "img: "));
					else
						ck_assert_int_eq(
							t,
							!sig ? VERITY_TRUST_UNSIGNED
							: an ? VERITY_TRUST_CHECK
							     : VERITY_TRUST_UNCHECKED);
				}
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "trust"};

	return run_unit(&u, UNIT_TESTS(trust_table));
}
