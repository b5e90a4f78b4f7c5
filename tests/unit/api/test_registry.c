/* verity/api/registry.c: the containers' registry and its order (a part
 * of the library inside, not of the public API alone). */
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
#include "verity/api/registry.h"
#include "verity/container/source.h"
#include "verity/policy/trust.h"

static void put_file(const char *path, const void *p, size_t n, off_t at)
{
	FILE *f = fopen(path, "r+b");

	if (!f)
		f = fopen(path, "w+b");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fseeko(f, at, SEEK_SET), 0);
	ck_assert_uint_eq(fwrite(p, 1, n, f), n);
	fclose(f);
}

/* The registry: one order, an image that reads two ways refused with
 * both readings, --container's choice honoured only when it applies. */
START_TEST(registry_order)
{
	char dir[] = "/tmp/fv-registry.XXXXXX", img[64], side[72];
	static uint8_t zeros[8192];
	uint8_t foot[AVB_FOOTER_SIZE] = "AVBf";
	enum verity_container k;
	struct ht_error err;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(img, sizeof(img), "%s/os.raw", dir);
	snprintf(side, sizeof(side), "%s/os.verity", dir);
	put_file(img, zeros, sizeof(zeros), 0);
	ck_assert_int_eq(
		verity_container_identify(img, VERITY_CONTAINER_AUTO, &k, &err),
		0);
	ck_assert_int_eq(k, VERITY_CONTAINER_SIDECAR); /* reads no way */
	put_file(img, "EFI PART", 8, 512);             /* a GPT header */
	ck_assert_int_eq(
		verity_container_identify(img, VERITY_CONTAINER_AUTO, &k, &err),
		0);
	ck_assert_int_eq(k, VERITY_CONTAINER_DDI);
	put_file(img, foot, sizeof(foot), sizeof(zeros) - sizeof(foot));
	ck_assert_int_eq(
		verity_container_identify(img, VERITY_CONTAINER_AUTO, &k, &err),
		-EINVAL);
	ck_assert(strstr(ht_msg(&err), "reads two ways, as an Android image"));
	ck_assert(strstr(ht_msg(&err), "and as a systemd disk image"));
	ck_assert_int_eq(err.param, HT_PARAM_CONTAINER);
	ck_assert_int_eq(
		verity_container_identify(img, VERITY_CONTAINER_DDI, &k, &err),
		0);
	ck_assert_int_eq(k, VERITY_CONTAINER_DDI);
	ck_assert_int_eq(
		verity_container_identify(img, VERITY_CONTAINER_AVB, &k, &err),
		0);
	ck_assert_int_eq(verity_container_identify(
				 img, VERITY_CONTAINER_SIDECAR, &k, &err),
			 -EINVAL);
	ck_assert_int_eq(verity_container_identify(img, VERITY_CONTAINER_PLAIN,
						   &k, &err),
			 -EINVAL);
	put_file(side, zeros, 512, 0); /* os.verity beside it: three ways */
	ck_assert_int_eq(
		verity_container_identify(img, VERITY_CONTAINER_AUTO, &k, &err),
		-EINVAL);
	put_file(img, "\x3a\xff\x26\xed\x01\x00\x00\x00\x1c\x00\x0c\x00", 12,
		 0); /* a sparse header first: refused before the rest */
	ck_assert_int_eq(
		verity_container_identify(img, VERITY_CONTAINER_AUTO, &k, &err),
		-EINVAL);
	ck_assert(strstr(ht_msg(&err), "sparse"));
	/* sidecar files asked for: the image as it is, its chunk list
	 * never read */
	ck_assert_int_eq(verity_container_identify(
				 img, VERITY_CONTAINER_SIDECAR, &k, &err),
			 0);
	ck_assert_int_eq(k, VERITY_CONTAINER_SIDECAR);
	unlink(side);
	unlink(img);
	ck_assert_int_eq(
		verity_container_identify(img, VERITY_CONTAINER_AUTO, &k, &err),
		-ENODEV);
	rmdir(dir);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "registry"};

	return run_unit(&u, UNIT_TESTS(registry_order));
}
