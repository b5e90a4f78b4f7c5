/* verity/android/table.c: avbtool's command line as the command's
 * option engine takes it: the subcommands first, each its own bit; then
 * avbtool's fastverity lacks; every option with its help after it (none
 * for those refused), taken by subcommands that exist; argparse's order
 * last, of names the table has; a visitor's return stops the walk. */
#include <check.h>
#include <string.h>

#include "check_main.h"
#include "verity/android/table.h"

struct seen {
	size_t subs, missing, rows, helps, orders, items, owns;
	uint64_t bits;
	int bad; /* a step out of order, or a row's fact wrong */
	enum fv_item_kind last;
	const char *last_arg;
	double last_kind;
	const char *names[128];
	const char *order;
	size_t stop; /* return 7 at this item (0: never) */
};

static int visit(void *ctx, const struct fv_item *it)
{
	struct seen *s = ctx;

	s->items++;
	switch (it->kind) {
	case FV_ITEM_STRING: /* a subcommand: before any option, a new bit */
		s->bad |= s->rows || s->missing || !it->key || !it->text ||
			  !it->u || (it->u & (it->u - 1)) || (s->bits & it->u);
		s->bits |= it->u;
		s->subs++;
		break;
	case FV_ITEM_NULL:
		s->bad |= s->rows || !it->key;
		s->missing++;
		break;
	case FV_ITEM_UINT: /* an option: subcommands there, a kind */
		s->bad |= (s->rows && s->last != FV_ITEM_TEXT) || !it->key ||
			  !it->u || (it->u & ~s->bits) || it->d < 0 ||
			  it->d > 7 || s->rows >= 128;
		if (s->rows < 128)
			s->names[s->rows] = it->key;
		s->rows++;
		s->last_kind = (int)it->d & 3;
		/* + 4: the command's own, no request reads it */
		s->bad |=
			(it->d >= 4) != verity_android_command_option(it->key);
		s->owns += it->d >= 4;
		s->last_arg = it->text;
		break;
	case FV_ITEM_TEXT: /* its help: none for one refused */
		s->bad |= s->last != FV_ITEM_UINT ||
			  (s->last_kind == 3) != !it->text;
		s->helps++;
		break;
	case FV_ITEM_ARRAY:
		s->bad |= s->last != FV_ITEM_TEXT || !it->text;
		s->order = it->text;
		s->orders++;
		break;
	default:
		s->bad = 1;
	}
	s->last = it->kind;
	return s->stop && s->items == s->stop ? 7 : 0;
}

START_TEST(table_whole)
{
	struct seen s = {0};
	int flags = 0;

	ck_assert_int_eq(verity_android_table(visit, &s), 0);
	ck_assert_int_eq(s.bad, 0);
	ck_assert_uint_eq(s.subs, 17);
	ck_assert_uint_eq(s.missing, 10);
	ck_assert_uint_ge(s.rows, 50);
	ck_assert_uint_le(s.rows, 96); /* cli/avb.h's CLI_AVB_ROWS */
	ck_assert_uint_eq(s.helps, s.rows);
	ck_assert_uint_eq(s.orders, 1);
	ck_assert_uint_ge(s.owns, 14);
	/* argparse's order starts and ends with a blank, names the
	 * options of the table only */
	ck_assert_int_eq(s.order[0], ' ');
	ck_assert_int_eq(s.order[strlen(s.order) - 1], ' ');
	for (const char *p = s.order + 1; *p; p += strcspn(p, " ") + 1) {
		size_t n = strcspn(p, " "), k;

		for (k = 0; k < s.rows && k < 128; k++)
			if (strlen(s.names[k]) == n &&
			    !strncmp(s.names[k], p, n))
				break;
		ck_assert_msg(k < s.rows, "%.*s: no row", (int)n, p);
	}
	/* avbtool's --image and --key among them */
	for (size_t k = 0; k < s.rows; k++)
		flags |= !strcmp(s.names[k], "image") ? 1
			 : !strcmp(s.names[k], "key") ? 2
						      : 0;
	ck_assert_int_eq(flags, 3);
}
END_TEST

START_TEST(table_stopped)
{
	struct seen all = {0};

	ck_assert_int_eq(verity_android_table(visit, &all), 0);
	/* in the subcommands, the missing, an option, its help, the end */
	for (size_t stop = 10; stop <= all.items + 10; stop += 11) {
		struct seen s = {.stop = stop < all.items ? stop : all.items};

		ck_assert_int_eq(verity_android_table(visit, &s), 7);
		ck_assert_uint_eq(s.items, s.stop);
	}
}
END_TEST

/* The options no request reads: whole names only. */
START_TEST(command_options)
{
	ck_assert_int_eq(verity_android_command_option("image"), 1);
	ck_assert_int_eq(verity_android_command_option("vbmeta_image"), 1);
	ck_assert_int_eq(
		verity_android_command_option("follow_chain_partitions"), 1);
	ck_assert_int_eq(verity_android_command_option("key"), 0);
	ck_assert_int_eq(verity_android_command_option("partition_size"), 0);
	ck_assert_int_eq(verity_android_command_option("imag"), 0);
	ck_assert_int_eq(verity_android_command_option("mage"), 0);
	ck_assert_int_eq(verity_android_command_option("output_vbmeta_image"),
			 0);
	ck_assert_int_eq(verity_android_command_option(""), 0);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {"table", 0, NULL, NULL, 0, NULL};

	return run_unit(
		&u, UNIT_TESTS(table_whole, table_stopped, command_options));
}
