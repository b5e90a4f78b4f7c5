/* verity/container/source.c: images' paths opened for reading and a
 * pair's regions read through sources, on images made here: a plain
 * file as it is; an Android sparse image as its unsparsed bytes; a
 * logical partition named through its super image (super.img/system_a)
 * as the partition's bytes, a partition it has not refused; a pair's
 * sparse regions read once per file, a sidecar image's never; a file
 * that cannot be opened left to the operation; the regions back to
 * files at the end. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "android/avb_make.h"
#include "check_main.h"
#include "container/sparse/sparse_image.h"
#include "verity/container/source.h"
#include "verity/tree/pair.h"

static char plain[160], super[160], part_path[200];
static uint8_t part[8 * BS];

/* A sparse image at path (sparse_image.h): 3 RAW blocks, 5 of zeros
 * (DONT_CARE), 2 of a pattern (FILL). */
static struct made made_sparse(void)
{
	static const uint8_t pat[4] = {1, 2, 3, 4};
	uint8_t *raw = malloc(3 * BS);
	struct made m;

	for (size_t i = 0; i < 3 * BS; i++)
		raw[i] = (uint8_t)(i * 11 + 3);
	start(&m, 28, 12);
	add(&m, 0xcac1, 3, raw, 3 * BS, 0);
	add(&m, 0xcac3, 5, NULL, 0, 0);
	add(&m, 0xcac2, 2, pat, 4, 0);
	finish(&m, 0, 0);
	free(raw);
	return m;
}

static void made_free(struct made *m)
{
	free(m->file);
	free(m->raw);
}

static void src_setup(void)
{
	setup(); /* path: the sparse image's */
	amk_dir("/tmp/fv-source-XXXXXX");
	amk_path(plain, "plain.img");
	amk_data(plain, 4, 9);
	amk_path(super, "super.img");
	for (size_t i = 0; i < sizeof(part); i++)
		part[i] = (uint8_t)(i * 3 + 1);
	amk_super(super, part, sizeof(part));
	snprintf(part_path, sizeof(part_path), "%s/system_a", super);
}

static void src_teardown(void)
{
	teardown();
	amk_rmdir();
}

START_TEST(opened)
{
	struct verity_device d;
	struct ht_error err = {0};
	struct made m = made_sparse();
	uint8_t *buf = malloc(10 * BS);
	int sparse = 9;

	/* a plain file: its bytes */
	ck_assert_int_eq(verity_container_open(&d, plain, &sparse, &err), 0);
	ck_assert_int_eq(sparse, 0);
	ck_assert_uint_eq(d.size, 4 * BS);
	ck_assert_ptr_null(d.src);
	verity_device_close(&d);
	/* a sparse image: its unsparsed bytes */
	ck_assert_int_eq(verity_container_open(&d, path, &sparse, &err), 0);
	ck_assert_int_eq(sparse, 1);
	ck_assert_uint_eq(d.size, 10 * BS);
	ck_assert_int_eq(verity_device_read(&d, 0, buf, 10 * BS, &err), 0);
	ck_assert_mem_eq(buf, m.raw, 10 * BS);
	verity_device_close(&d);
	/* (sparse may be NULL) */
	ck_assert_int_eq(verity_container_open(&d, path, NULL, &err), 0);
	verity_device_close(&d);
	/* a logical partition through its super image: its bytes, named
	 * by the path given */
	ck_assert_msg(verity_container_open(&d, part_path, &sparse, &err) == 0,
		      "%s", ht_msg(&err));
	ck_assert_int_eq(sparse, 0);
	ck_assert_str_eq(d.path, part_path);
	ck_assert_uint_eq(d.size, sizeof(part));
	ck_assert_int_eq(verity_device_read(&d, 0, buf, sizeof(part), &err), 0);
	ck_assert_mem_eq(buf, part, sizeof(part));
	verity_device_close(&d);
	/* a partition the image has not, and a missing file */
	snprintf((char *)buf, 300, "%s/vendor_a", super);
	ck_assert_int_eq(verity_container_open(&d, (char *)buf, &sparse, &err),
			 -ENOENT);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err), "/super.img/vendor_a: the "
						   "super image has no "
						   "partition vendor_a"));
	ck_assert_int_lt(
		verity_container_open(&d, "/nonexistent/img", &sparse, &err),
		0);
	free(buf);
	made_free(&m);
}
END_TEST

/* A pair's regions: the sparse file read once though two regions name
 * it, the plain file as it is, the partition through its extents. */
START_TEST(sources)
{
	struct verity_pair p;
	struct verity_sources s;
	struct ht_error err = {0};
	struct made m = made_sparse();

	memset(&p, 0, sizeof(p));
	p.data.path = path;
	p.hash.path = path;
	p.fec.region.path = plain;
	ck_assert_int_eq(verity_container_as_is(&p), 0);
	ck_assert_int_eq(verity_container_sources(&p, &s, &err), 0);
	ck_assert_uint_eq(s.n, 1);
	ck_assert_ptr_nonnull(p.data.extents);
	ck_assert_ptr_eq(p.hash.extents, p.data.extents);
	ck_assert_ptr_null(p.fec.region.extents);
	ck_assert_uint_eq(p.data.extents->size, 10 * BS);
	ck_assert_int_eq(verity_container_has_sources(&p), 1);
	verity_container_sources_end(&p, &s);
	ck_assert_uint_eq(s.n, 0);
	ck_assert_ptr_null(p.data.extents);
	ck_assert_int_eq(verity_container_has_sources(&p), 0);
	/* the partition through the super image, and a missing file left
	 * to the operation's own open */
	p.data.path = part_path;
	p.hash.path = "/nonexistent/hash";
	p.fec.region.path = NULL;
	ck_assert_msg(verity_container_sources(&p, &s, &err) == 0, "%s",
		      ht_msg(&err));
	ck_assert_uint_eq(s.n, 1);
	ck_assert_ptr_nonnull(s.part[0]);
	ck_assert_ptr_eq(p.data.extents, s.part[0]);
	ck_assert_uint_eq(p.data.extents->size, sizeof(part));
	ck_assert_ptr_null(p.hash.extents);
	verity_container_sources_end(&p, &s);
	ck_assert_ptr_null(s.part[0]);
	/* a sidecar image's files are read as they are */
	p.data.path = path;
	p.container = VERITY_CONTAINER_SIDECAR;
	ck_assert_int_eq(verity_container_as_is(&p), 1);
	ck_assert_int_eq(verity_container_sources(&p, &s, &err), 0);
	ck_assert_uint_eq(s.n, 0);
	ck_assert_int_eq(verity_container_has_sources(&p), 0);
	verity_container_sources_end(&p, &s);
	made_free(&m);
}
END_TEST

/* A sparse image that is malformed: the sparse reader's error, the
 * sources already read freed. */
START_TEST(refused)
{
	struct verity_pair p;
	struct verity_sources s;
	struct ht_error err = {0};
	struct made m = made_sparse();

	/* the chunk count one more than there are */
	finish(&m, 0, m.chunks + 1);
	memset(&p, 0, sizeof(p));
	p.data.path = plain;
	p.hash.path = path;
	ck_assert_int_lt(verity_container_sources(&p, &s, &err), 0);
	ck_assert_ptr_null(p.data.extents);
	ck_assert_ptr_null(p.hash.extents);
	ck_assert_uint_eq(s.n, 0);
	/* a region that has its extents already is left alone */
	p.hash.path = plain;
	p.data.extents = (const struct verity_extents *)&s;
	ck_assert_int_eq(verity_container_region_source(&p.data, &s, &err), 0);
	ck_assert_ptr_eq(p.data.extents, (const struct verity_extents *)&s);
	made_free(&m);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {"source",     0, src_setup,
					    src_teardown, 1, NULL};

	return run_unit(&u, UNIT_TESTS(opened, sources, refused));
}
