/* verity/container/sidecar.c: systemd's sidecar names (IMAGE.raw loses
 * its .raw, any other name keeps it whole), the pair they make (what the
 * caller named kept, the parity and signature only when they are there),
 * and after a format the sidecars that no longer match removed, a file
 * that cannot be removed an error. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_main.h"
#include "unit_files.h"
#include "verity/container/sidecar.h"

static char dir[64];

static void touch(const char *path)
{
	FILE *f = fopen(path, "wb");

	ck_assert_ptr_nonnull(f);
	fclose(f);
}

START_TEST(names)
{
	struct verity_sidecar s;
	struct ht_error err = {0};

	ck_assert_int_eq(verity_sidecar_names("/a/b/img.raw", &s, &err), 0);
	ck_assert_str_eq(s.tree, "/a/b/img.verity");
	ck_assert_str_eq(s.roothash, "/a/b/img.roothash");
	ck_assert_str_eq(s.signature, "/a/b/img.roothash.p7s");
	ck_assert_str_eq(s.fec, "/a/b/img.fec");
	verity_sidecar_free(&s);
	ck_assert_ptr_null(s.tree);
	ck_assert_ptr_null(s.fec);
	/* other suffixes, and ".raw" that is the whole name or not the
	 * end, kept */
	ck_assert_int_eq(verity_sidecar_names("disk.img", &s, &err), 0);
	ck_assert_str_eq(s.tree, "disk.img.verity");
	verity_sidecar_free(&s);
	ck_assert_int_eq(verity_sidecar_names(".raw", &s, &err), 0);
	ck_assert_str_eq(s.tree, ".raw.verity");
	verity_sidecar_free(&s);
	ck_assert_int_eq(verity_sidecar_names("x.raw", &s, &err), 0);
	ck_assert_str_eq(s.roothash, "x.roothash");
	verity_sidecar_free(&s);
	ck_assert_int_eq(verity_sidecar_names("a.raw.bak", &s, &err), 0);
	ck_assert_str_eq(s.fec, "a.raw.bak.fec");
	verity_sidecar_free(&s);
	ck_assert_int_eq(verity_sidecar_names("a.RAW", &s, &err), 0);
	ck_assert_str_eq(s.fec, "a.RAW.fec");
	verity_sidecar_free(&s);
	/* freeing twice is harmless */
	verity_sidecar_free(&s);
}
END_TEST

START_TEST(pair)
{
	char *image = unit_path(dir, "/tmp/fv-sidecar.XXXXXX", "img.raw");
	struct verity_sidecar s;
	struct verity_pair p;
	struct ht_error err = {0};
	const char *sig = NULL;

	ck_assert_int_eq(verity_sidecar_names(image, &s, &err), 0);
	/* neither parity nor signature there: only the tree named */
	memset(&p, 0, sizeof(p));
	verity_sidecar_pair(&s, image, &p, &sig);
	ck_assert_str_eq(p.data.path, image);
	ck_assert_ptr_eq(p.hash.path, s.tree);
	ck_assert_ptr_null(p.fec.region.path);
	ck_assert_ptr_null(sig);
	/* both there */
	touch(s.fec);
	touch(s.signature);
	memset(&p, 0, sizeof(p));
	verity_sidecar_pair(&s, image, &p, &sig);
	ck_assert_ptr_eq(p.fec.region.path, s.fec);
	ck_assert_ptr_eq(sig, s.signature);
	/* what the caller named is kept */
	memset(&p, 0, sizeof(p));
	p.hash.path = "other.verity";
	p.fec.region.path = "other.fec";
	sig = "other.p7s";
	verity_sidecar_pair(&s, image, &p, &sig);
	ck_assert_str_eq(p.hash.path, "other.verity");
	ck_assert_str_eq(p.fec.region.path, "other.fec");
	ck_assert_str_eq(sig, "other.p7s");
	unlink(s.fec);
	unlink(s.signature);
	verity_sidecar_free(&s);
	free(image);
}
END_TEST

START_TEST(prune)
{
	char *image = unit_path(dir, "/tmp/fv-sidecar.XXXXXX", "p.raw");
	struct verity_sidecar s;
	struct verity_pair p;
	struct ht_error err = {0};
	unsigned removed = 99;

	ck_assert_int_eq(verity_sidecar_names(image, &s, &err), 0);
	memset(&p, 0, sizeof(p));
	/* nothing there: nothing removed, no error */
	ck_assert_int_eq(verity_sidecar_prune(&s, &p, 0, &removed, &err), 0);
	ck_assert_uint_eq(removed, 0);
	/* both there, the new tree without parity nor signature kept */
	touch(s.fec);
	touch(s.signature);
	ck_assert_int_eq(verity_sidecar_prune(&s, &p, 0, &removed, &err), 0);
	ck_assert_uint_eq(removed,
			  VERITY_SIDECAR_SIGNATURE | VERITY_SIDECAR_FEC);
	ck_assert_int_ne(access(s.fec, F_OK), 0);
	ck_assert_int_ne(access(s.signature, F_OK), 0);
	/* the signature kept, the parity the pair's own */
	touch(s.fec);
	touch(s.signature);
	p.fec.region.path = s.fec;
	ck_assert_int_eq(verity_sidecar_prune(&s, &p, 1, &removed, &err), 0);
	ck_assert_uint_eq(removed, 0);
	ck_assert_int_eq(access(s.fec, F_OK), 0);
	ck_assert_int_eq(access(s.signature, F_OK), 0);
	ck_assert_int_eq(verity_sidecar_prune(&s, &p, 0, &removed, &err), 0);
	ck_assert_uint_eq(removed, VERITY_SIDECAR_SIGNATURE);
	unlink(s.fec);
	/* a signature that is a directory cannot be
	 * unlinked: EIO, the path said */
	ck_assert_int_eq(mkdir(s.signature, 0700), 0);
	p.fec.region.path = NULL;
	ck_assert_int_eq(verity_sidecar_prune(&s, &p, 0, &removed, &err), -EIO);
	ck_assert_uint_eq(removed, 0);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), s.signature));
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "cannot remove this "
						   "sidecar"));
	/* the parity's too, after the signature went */
	ck_assert_int_eq(rmdir(s.signature), 0);
	ck_assert_int_eq(mkdir(s.fec, 0700), 0);
	touch(s.signature);
	ck_assert_int_eq(verity_sidecar_prune(&s, &p, 0, &removed, &err), -EIO);
	ck_assert_uint_eq(removed, VERITY_SIDECAR_SIGNATURE);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), s.fec));
	ck_assert_int_eq(rmdir(s.fec), 0);
	verity_sidecar_free(&s);
	free(image);
	rmdir(dir);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "sidecar"};

	return run_unit(&u, UNIT_TESTS(names, pair, prune));
}
