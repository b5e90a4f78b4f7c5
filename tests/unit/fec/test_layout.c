/* verity/fec/layout.c: where the parity goes, on a device of its own or
 * after the tree, and the layouts refused. */
#include <check.h>
#include <errno.h>
#include "check_main.h"
#include "unit_files.h"
#include <fec.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "verity/fec/encode.h"
#include "verity/fec/layout.h"
#include "verity/tree/format.h"

/* The layout of 1000 4 KiB blocks with a superblock: the tree is 9
 * blocks from block 1 (veritysetup's numbers, FEC blocks 8 at 2 roots). */
static void sample(struct verity_params *p, struct verity_layout *l)
{
	verity_params_default(p);
	p->data_blocks = 1000;
	ck_assert_int_eq(verity_layout_compute(p, l, NULL), 0);
	ck_assert_uint_eq(l->hash_end, 40960);
}

START_TEST(layout_separate_device)
{
	struct verity_params p;
	struct verity_layout l;
	struct verity_fec_params fp = {.region = {"f", 0, 0}, .roots = 2};
	struct verity_fec_layout fl;

	sample(&p, &l);
	ck_assert_int_eq(
		verity_fec_layout_compute(&p, &l, &fp, 40960, 0, &fl, NULL), 0);
	ck_assert_uint_eq(fl.hash_start_block, 1);
	ck_assert_uint_eq(fl.hash_blocks, 9);
	ck_assert_uint_eq(fl.blocks, 1009);        /* 1000 + 40960 / 4096 - 1 */
	ck_assert_uint_eq(fl.rounds, 4);           /* ceil(1009 / 253) */
	ck_assert_uint_eq(fl.parity_bytes, 32768); /* 4 * 2 * 4096 */
	/* a larger hash device: all of it is covered */
	ck_assert_int_eq(
		verity_fec_layout_compute(&p, &l, &fp, 1 << 20, 0, &fl, NULL),
		0);
	ck_assert_uint_eq(fl.blocks, 1000 + 256 - 1);
	fp.roots = 24;
	ck_assert_int_eq(
		verity_fec_layout_compute(&p, &l, &fp, 40960, 0, &fl, NULL), 0);
	ck_assert_uint_eq(fl.rsn, 231);
	ck_assert_uint_eq(fl.rounds, 5);
	ck_assert_uint_eq(fl.parity_bytes, 5 * 24 * 4096);
}
END_TEST

START_TEST(layout_on_hash_device)
{
	struct verity_params p;
	struct verity_layout l;
	struct verity_fec_params fp = {
		.region = {"h", 0, 0}, .offset = 81920, .roots = 2};
	struct verity_fec_layout fl;

	sample(&p, &l);
	/* the covered area ends at the FEC offset */
	ck_assert_int_eq(
		verity_fec_layout_compute(&p, &l, &fp, 0, 1, &fl, NULL), 0);
	ck_assert_uint_eq(fl.blocks, 1000 + 20 - 1);
	ck_assert_uint_eq(fl.offset, 81920);
	/* overlapping the tree, off the block grid */
	fp.offset = 36864;
	ck_assert_int_eq(
		verity_fec_layout_compute(&p, &l, &fp, 0, 1, &fl, NULL),
		-EINVAL);
	fp.offset = 40960 + 512;
	ck_assert_int_eq(
		verity_fec_layout_compute(&p, &l, &fp, 0, 1, &fl, NULL),
		-EINVAL);
}
END_TEST

START_TEST(layout_validates_before_dividing)
{
	struct verity_params p;
	struct verity_layout l;

	verity_params_default(&p);
	p.data_blocks = 10;
	p.hash_block_size = 0; /* once a SIGFPE */
	ck_assert_int_eq(verity_layout_compute(&p, &l, NULL), -EINVAL);
	p.hash_block_size = 4096;
	p.data_block_size = 0;
	ck_assert_int_eq(verity_layout_compute(&p, &l, NULL), -EINVAL);
}
END_TEST

START_TEST(layout_refusals)
{
	struct verity_params p;
	struct verity_layout l;
	struct verity_fec_params fp = {.region = {"f", 0, 0}, .roots = 2};
	struct verity_fec_layout fl;

	sample(&p, &l);
	fp.roots = 1;
	ck_assert_int_eq(
		verity_fec_layout_compute(&p, &l, &fp, 40960, 0, &fl, NULL),
		-EINVAL);
	fp.roots = 25;
	ck_assert_int_eq(
		verity_fec_layout_compute(&p, &l, &fp, 40960, 0, &fl, NULL),
		-EINVAL);
	fp.roots = 2;
	/* a hash device that ends inside the tree */
	ck_assert_int_eq(
		verity_fec_layout_compute(&p, &l, &fp, 36864, 0, &fl, NULL),
		-EINVAL);
	/* block sizes apart */
	p.hash_block_size = 1024;
	ck_assert_int_eq(verity_layout_compute(&p, &l, NULL), 0);
	ck_assert_int_eq(
		verity_fec_layout_compute(&p, &l, &fp, 1 << 20, 0, &fl, NULL),
		-EINVAL);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "fec_layout", .timeout = 60};

	return run_unit(&u, UNIT_TESTS(layout_separate_device, layout_on_hash_device, layout_validates_before_dividing, layout_refusals));
}
