/* verity/registry/registry.c: the containers' registry and its order (a part
 * of the library inside, not of the public API alone). */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include "check_main.h"
#include "include/fastverity.h"
#include "verity/container/avb/image.h"
#include "verity/container/ddi/ddi.h"
#include "verity/registry/registry.h"
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

/* A zip of one stored entry, name holding "CrAU", at path. */
static void put_zip(const char *path, const char *name)
{
	uint8_t z[256] = {0}, *p = z;
	size_t n = strlen(name), cd;

	unlink(path);
	memcpy(p, "PK\3\4\12\0", 6);
	p[18] = p[22] = 4;
	p[26] = (uint8_t)n;
	memcpy(p + 30, name, n);
	memcpy(p + 30 + n, "CrAU", 4);
	p += 34 + n;
	cd = (size_t)(p - z);
	memcpy(p, "PK\1\2\24\0\12\0", 8);
	p[20] = p[24] = 4;
	p[28] = (uint8_t)n;
	memcpy(p + 46, name, n);
	p += 46 + n;
	memcpy(p, "PK\5\6", 4);
	p[8] = p[10] = 1;
	p[12] = (uint8_t)(46 + n);
	p[16] = (uint8_t)cd;
	put_file(path, z, (size_t)(p + 22 - z), 0);
}

/* Android OTA packages: a payload by its magic, a zip by its
 * payload.bin entry; nothing else reads as one. */
START_TEST(registry_ota)
{
	char dir[] = "/tmp/fv-registry.XXXXXX", img[64];
	static uint8_t zeros[8192];
	enum verity_container k;
	struct ht_error err;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(img, sizeof(img), "%s/payload.bin", dir);
	put_file(img, zeros, sizeof(zeros), 0);
	/* asked for, it is read as one: its reader names what is wrong */
	ck_assert_int_eq(verity_container_identify(img, VERITY_CONTAINER_OTA,
						   &k, &err),
			 0);
	ck_assert_int_eq(k, VERITY_CONTAINER_OTA);
	ck_assert_int_eq(
		verity_container_identify(img, VERITY_CONTAINER_AUTO, &k, &err),
		0);
	ck_assert_int_ne(k, VERITY_CONTAINER_OTA);
	put_file(img, "CrAU", 4, 0);
	ck_assert_int_eq(
		verity_container_identify(img, VERITY_CONTAINER_AUTO, &k, &err),
		0);
	ck_assert_int_eq(k, VERITY_CONTAINER_OTA);
	ck_assert_str_eq(verity_container_name(k), "ota");
	ck_assert_int_eq(verity_container_by_name("ota"), VERITY_CONTAINER_OTA);
	ck_assert_int_eq(
		verity_container_identify(img, VERITY_CONTAINER_DDI, &k, &err),
		-EINVAL);
	put_zip(img, "payload.bin");
	ck_assert_int_eq(
		verity_container_identify(img, VERITY_CONTAINER_AUTO, &k, &err),
		0);
	ck_assert_int_eq(k, VERITY_CONTAINER_OTA);
	{
		/* the door: an image of the kind, holding no pair */
		struct fv_open_request rq = {.size = sizeof(rq), .image = img};
		struct fv_image_info info = {.size = sizeof(info)};
		fv_image *fi;

		ck_assert_int_eq(fv_open(&rq, NULL, &fi), -EINVAL);
		ck_assert(strstr(fv_last_error(), "shorter than its"));
		unlink(img);
		put_file(img, zeros, 24, 0);
		put_file(img, "CrAU\0\0\0\0\0\0\0\2", 12, 0); /* major 2 */
		ck_assert_int_eq(fv_open(&rq, NULL, &fi), 0);
		ck_assert_int_eq(fv_image_info(fi, &info), 0);
		ck_assert_str_eq(info.container, "ota");
		ck_assert_uint_eq(info.pairs, 0);
		ck_assert_int_eq(info.trust, FV_TRUST_UNSIGNED);
		fv_image_free(fi);
	}
	put_zip(img, "payload.txt"); /* a zip without one */
	ck_assert_int_eq(
		verity_container_identify(img, VERITY_CONTAINER_AUTO, &k, &err),
		0);
	ck_assert_int_eq(k, VERITY_CONTAINER_SIDECAR);
	unlink(img);
	rmdir(dir);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "registry"};

	return run_unit(&u, UNIT_TESTS(registry_order, registry_ota));
}
