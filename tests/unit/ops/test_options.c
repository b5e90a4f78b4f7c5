/* verity/ops/options.c: the public options copied (NULL: the defaults;
 * zeros past what the caller has; an older caller's size taken, a size
 * before repair refused) and checked (threads, flags, certificates, the
 * SHA-256 kernel, repair flags), and made into how an operation runs. */
#include <check.h>
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "check_main.h"
#include "verity/ops/options.h"

START_TEST(copied)
{
	fv_options in = {.size = sizeof(in), .threads = 3, .map = 7}, full;
	struct ht_error err;

	ck_assert_int_eq(verity_ops_options_in("f", NULL, &full, &err), 0);
	ck_assert_uint_eq(full.size, sizeof(full));
	ck_assert_uint_eq(full.threads, 0);
	ck_assert_int_eq(verity_ops_options_in("f", &in, &full, &err), 0);
	ck_assert_uint_eq(full.threads, 3);
	ck_assert_int_eq(full.map, 1);
	/* an older caller: what it has, zeros past it */
	in.size = offsetof(fv_options, repair) + sizeof(in.repair);
	ck_assert_int_eq(verity_ops_options_in("f", &in, &full, &err), 0);
	ck_assert_uint_eq(full.size, sizeof(full));
	in.size = offsetof(fv_options, repair);
	ck_assert_int_eq(verity_ops_options_in("fv_x", &in, &full, &err),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "fv_x: options of size"));
}
END_TEST

START_TEST(checked)
{
	const char *certs[] = {"a.crt", NULL};
	fv_options in = {.size = sizeof(in)}, full;
	struct ht_error err;

	in.threads = 100000;
	ck_assert_int_eq(verity_ops_options_in("f", &in, &full, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "threads (at most"));
	in.threads = 0;
	in.flags = 1u << 30;
	ck_assert_int_eq(verity_ops_options_in("f", &in, &full, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "unknown flags"));
	in.flags = FV_IGNORE_CORRUPTION | FV_PANIC_ON_CORRUPTION;
	ck_assert_int_eq(verity_ops_options_in("f", &in, &full, &err), -EINVAL);
	in.flags = FV_IGNORE_CORRUPTION | FV_SHARED;
	ck_assert_int_eq(verity_ops_options_in("f", &in, &full, &err), 0);
	in.flags = 0;
	in.ntrusted_certs = 1;
	ck_assert_int_eq(verity_ops_options_in("fv_y", &in, &full, &err),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "fv_y: trusted_certs is"));
	in.trusted_certs = certs;
	in.ntrusted_certs = 2;
	ck_assert_int_eq(verity_ops_options_in("f", &in, &full, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "certificate file 1 is"));
	in.ntrusted_certs = FV_MAX_TRUSTED_CERTS + 1;
	ck_assert_int_eq(verity_ops_options_in("f", &in, &full, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "certificate files (at"));
	in.ntrusted_certs = 1;
	ck_assert_int_eq(verity_ops_options_in("f", &in, &full, &err), 0);
	in.sha256 = (enum fv_sha256_kernel)(FV_SHA256_AVX512 + 1);
	ck_assert_int_eq(verity_ops_options_in("f", &in, &full, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "no SHA-256 kernel"));
	in.sha256 = FV_SHA256_PORTABLE;
	in.repair = 4;
	ck_assert_int_eq(verity_ops_options_in("f", &in, &full, &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "unknown repair flags"));
	in.repair = FV_REPAIR_DRY_RUN | FV_REPAIR_REWRITE_PARITY;
	ck_assert_int_eq(verity_ops_options_in("f", &in, &full, &err), 0);
}
END_TEST

START_TEST(run_made)
{
	const char *certs[] = {"a.crt"};
	fv_options o = {.size = sizeof(o),
			.threads = 2,
			.flags = FV_IGNORE_ZERO_BLOCKS,
			.sha256 = FV_SHA256_PORTABLE,
			.trusted_certs = certs,
			.ntrusted_certs = 1};
	struct verity_run run;

	verity_ops_run_of(&o, &run);
	ck_assert_uint_eq(run.ht.threads, 2);
	ck_assert_int_eq(run.ht.no_map, 1);
	ck_assert_uint_eq(run.ntrusted, 1);
	ck_assert_ptr_eq(run.trusted, certs);
	ck_assert_uint_eq(run.activation, FV_IGNORE_ZERO_BLOCKS);
	ck_assert_int_eq((int)run.sha256, (int)FV_SHA256_PORTABLE);
	/* no threads given: at least one */
	o.threads = 0;
	o.map = 1;
	verity_ops_run_of(&o, &run);
	ck_assert_uint_ge(run.ht.threads, 1);
	ck_assert_int_eq(run.ht.no_map, 0);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {"options", 0, NULL, NULL, 0, NULL};

	return run_unit(&u, UNIT_TESTS(copied, checked, run_made));
}
