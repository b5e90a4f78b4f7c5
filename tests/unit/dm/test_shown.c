/* What status shows of a target (verity/dm/shown.c, FV_SHOW_STATUS) on
 * made-up targets: veritysetup's lines (the salt "-" when there is none,
 * the flag words run together where veritysetup runs them), the --json
 * document's members, and an inactive name said with ENODEV. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "check_main.h"
#include "verity/dm/shown.h"

/* Text items as they come; each JSON member as "key=value" on a line. */
struct seen {
	char buf[8192];
	size_t len;
};

static int keep(void *ctx, const struct fv_item *it)
{
	struct seen *s = ctx;
	size_t room = sizeof(s->buf) - s->len;
	int n = it->kind == FV_ITEM_TEXT
			? snprintf(s->buf + s->len, room, "%.*s", (int)it->u,
				   it->text)
		: it->kind == FV_ITEM_UINT
			? snprintf(s->buf + s->len, room, "%s=%llu\n",
				   it->key ? it->key : "-",
				   (unsigned long long)it->u)
			: snprintf(s->buf + s->len, room, "%d %s=%s\n",
				   (int)it->kind, it->key ? it->key : "-",
				   it->text ? it->text : "-");

	ck_assert(n >= 0 && (size_t)n < room);
	s->len += (size_t)n;
	return 0;
}

static struct verity_active target(void)
{
	struct verity_active a;

	memset(&a, 0, sizeof(a));
	a.is_verity = 1;
	a.fec_repaired = -1;
	strcpy(a.p.hash_name, "sha256");
	a.p.hash_type = 1;
	a.p.data_block_size = a.p.hash_block_size = 4096;
	a.p.data_blocks = 1000;
	a.root_size = 4;
	memcpy(a.root, "\x01\x02\xfe\xff", 4);
	strcpy(a.data_dev, "/dev/loop0");
	strcpy(a.hash_dev, "/dev/loop1");
	a.size_sectors = 8000;
	a.hash_start_block = 1;
	a.read_only = 1;
	return a;
}

static const char *shown(const struct verity_active *a, int json, int *r)
{
	static struct seen s;
	struct show sh = {keep, &s, json, 0};

	memset(&s, 0, sizeof(s));
	*r = verity_dm_show_active("vroot", a, &sh);
	return s.buf;
}

START_TEST(text_as_veritysetup_prints_it)
{
	struct verity_active a = target();
	int r;

	ck_assert_str_eq(shown(&a, 0, &r), "/dev/mapper/vroot is active.\n"
					   "  type:        VERITY\n"
					   "  status:      verified\n"
					   "  hash type:   1\n"
					   "  data block:  4096\n"
					   "  hash block:  4096\n"
					   "  hash name:   sha256\n"
					   "  salt:        -\n"
					   "  data device: /dev/loop0\n"
					   "  size:        8000 sectors\n"
					   "  mode:        readonly\n"
					   "  hash device: /dev/loop1\n"
					   "  hash offset: 8 sectors\n"
					   "  root hash:   0102feff\n");
	ck_assert_int_eq(r, 0);
	a.p.salt_size = 2;
	a.p.salt[0] = 0xab;
	strcpy(a.fec_dev, "/dev/loop2");
	a.fec_start_block = 5;
	a.fec_roots = 2;
	a.fec_repaired = 3;
	a.open_count = 1;
	a.flags = VERITY_ACT_IGNORE_CORRUPTION | VERITY_ACT_CHECK_AT_MOST_ONCE |
		  VERITY_ACT_TASKLETS;
	ck_assert_ptr_nonnull(
		strstr(shown(&a, 0, &r), " is active and is in use.\n"));
	ck_assert_ptr_nonnull(strstr(shown(&a, 0, &r),
				     "  salt:        ab00\n"
				     "  data device: /dev/loop0\n"));
	ck_assert_ptr_nonnull(strstr(shown(&a, 0, &r),
				     "  FEC device:  /dev/loop2\n"
				     "  FEC offset:  40 sectors\n"
				     "  FEC roots:   2\n"
				     "  FEC repaired: 3 [events]\n"));
	ck_assert_ptr_nonnull(strstr(
		shown(&a, 0, &r), "  flags:       ignore_corruption "
				  "check_at_most_oncetry_verify_in_tasklet\n"));
}
END_TEST

START_TEST(json_members)
{
	struct verity_active a = target();
	const char *j;
	int r;

	j = shown(&a, 1, &r);
	ck_assert_int_eq(r, 0);
	ck_assert_ptr_nonnull(strstr(j, "6 -=-\n"
					"2 name=vroot\n"
					"4 active=-\n"));
	ck_assert_ptr_nonnull(strstr(j, "2 salt=\n"));
	ck_assert_ptr_nonnull(strstr(j, "5 data_loop=-\n"));
	ck_assert_ptr_nonnull(strstr(j, "hash_offset_sectors=8\n"
					"5 fec=-\n"
					"2 root_hash=0102feff\n"
					"7 flags=-\n"
					"8 -=-\n"
					"8 -=-\n"));
	a.is_verity = 0;
	j = shown(&a, 1, &r);
	ck_assert_ptr_nonnull(strstr(j, "2 type=n/a\n"
					"7 flags=-\n"
					"8 -=-\n"));
	ck_assert_ptr_null(strstr(j, "status"));
}
END_TEST

START_TEST(inactive_said_with_enodev)
{
	int r;

	ck_assert_str_eq(shown(NULL, 0, &r),
			 "/dev/mapper/vroot is inactive.\n");
	ck_assert_int_eq(r, ENODEV);
	ck_assert_str_eq(shown(NULL, 1, &r), "6 -=-\n"
					     "2 name=vroot\n"
					     "4 active=-\n"
					     "exit_code=4\n"
					     "8 -=-\n");
	ck_assert_int_eq(r, ENODEV);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "shown"};

	return run_unit(&u,
			UNIT_TESTS(text_as_veritysetup_prints_it, json_members,
				   inactive_said_with_enodev));
}
