/* verity/show/show.c: the items a describer hands the visitor: each kind
 * with its key, text and value; the first failure of the visitor (or of
 * memory) kept, nothing handed on after it; a memstream's text handed on
 * or its failure said; warnings cut to their line; items kept, their
 * text copied, replayed in order and forgotten. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "verity/show/show.h"

struct seen {
	char log[4096];
	int n;
	int fail_at; /* the visitor returns -EPIPE on this item (1-based) */
};

static const char *kind_name(enum fv_item_kind k)
{
	static const char *const names[] = {
		"TEXT",   "WARNING", "STRING", "UINT",   "BOOL", "NULL",
		"OBJECT", "ARRAY",   "END",    "NUMBER", "ERROR"};

	return k <= FV_ITEM_ERROR ? names[k] : "?";
}

static int seen_fn(void *ctx, const struct fv_item *it)
{
	struct seen *s = ctx;
	size_t at = strlen(s->log);

	s->n++;
	snprintf(s->log + at, sizeof(s->log) - at, "%s %s %s %llu %g|",
		 kind_name(it->kind), it->key ? it->key : "-",
		 it->text ? it->text : "-", (unsigned long long)it->u, it->d);
	return s->n == s->fail_at ? -EPIPE : 0;
}

START_TEST(kinds)
{
	struct seen g = {0};
	struct show sh = {seen_fn, &g, 1, 0};
	static const char bytes[] = {'a', 0, 'b'};

	verity_show_text(&sh, "line\n");
	verity_show_bytes(&sh, bytes, 3);
	verity_show_bytes(&sh, NULL, 5);
	verity_show_error(&sh, "oops\n");
	verity_show_textf(&sh, "%d-%s", 7, "x");
	verity_show_errorf(&sh, "e%u", 2u);
	verity_show_warning(&sh, "w %s", "1");
	verity_show_object(&sh, NULL);
	verity_show_str(&sh, "k", "v");
	verity_show_str(&sh, "none", NULL);
	verity_show_u64(&sh, "big", UINT64_MAX);
	verity_show_bool(&sh, "b", 42);
	verity_show_bool(&sh, "f", 0);
	verity_show_number(&sh, "pi", 3.5, "3.50");
	verity_show_number(&sh, "d", 0.25, NULL);
	verity_show_null(&sh, "z");
	verity_show_array(&sh, "a");
	verity_show_end(&sh);
	verity_show_end(&sh);
	ck_assert_int_eq(sh.r, 0);
	ck_assert_str_eq(g.log, "TEXT - line\n 5 0|"
				"TEXT - a 3 0|"
				"TEXT -  0 0|"
				"ERROR - oops\n 0 0|"
				"TEXT - 7-x 3 0|"
				"ERROR - e2 0 0|"
				"WARNING - w 1 0 0|"
				"OBJECT - - 0 0|"
				"STRING k v 0 0|"
				"NULL none - 0 0|"
				"UINT big - 18446744073709551615 0|"
				"BOOL b - 1 0|"
				"BOOL f - 0 0|"
				"NUMBER pi 3.50 0 3.5|"
				"NUMBER d - 0 0.25|"
				"NULL z - 0 0|"
				"ARRAY a - 0 0|"
				"END - - 0 0|END - - 0 0|");
}
END_TEST

/* The visitor's first failure is kept and ends the handing on; a text of
 * NULL (out of memory) is ENOMEM, also kept first. */
START_TEST(first_failure)
{
	struct seen g = {.fail_at = 2};
	struct show sh = {seen_fn, &g, 0, 0};

	verity_show_text(&sh, "1");
	verity_show_u64(&sh, "two", 2);
	ck_assert_int_eq(sh.r, -EPIPE);
	verity_show_text(&sh, "3");
	verity_show_text(&sh, NULL);
	verity_show_error(&sh, NULL);
	verity_show_number(&sh, "n", 1, NULL);
	verity_show_end(&sh);
	ck_assert_int_eq(g.n, 2);
	ck_assert_int_eq(sh.r, -EPIPE);
	/* NULL text first: ENOMEM, the visitor never called after */
	memset(&g, 0, sizeof(g));
	sh = (struct show){seen_fn, &g, 0, 0};
	verity_show_text(&sh, NULL);
	ck_assert_int_eq(sh.r, -ENOMEM);
	verity_show_text(&sh, "after");
	ck_assert_int_eq(g.n, 0);
	sh = (struct show){seen_fn, &g, 0, 0};
	verity_show_error(&sh, NULL);
	ck_assert_int_eq(sh.r, -ENOMEM);
	verity_show_str(&sh, "k", "v");
	ck_assert_int_eq(g.n, 0);
}
END_TEST

/* A warning is one line of at most 1023 bytes: a longer one is cut. */
START_TEST(warning_cut)
{
	struct seen g = {0};
	struct show sh = {seen_fn, &g, 0, 0};
	char long_word[3000];

	memset(long_word, 'w', sizeof(long_word) - 1);
	long_word[sizeof(long_word) - 1] = 0;
	verity_show_warning(&sh, "%s", long_word);
	ck_assert_int_eq(g.n, 1);
	/* "WARNING - " then 1023 w's then " 0 0|" */
	ck_assert_uint_eq(strlen(g.log), 10 + 1023 + 5);
	ck_assert_str_eq(g.log + 10 + 1023, " 0 0|");
}
END_TEST

START_TEST(stream)
{
	struct seen g = {0};
	struct show sh = {seen_fn, &g, 0, 0};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	fprintf(f, "a %d\n", 1);
	fputs("b\n", f);
	ck_assert_int_eq(verity_show_stream(&sh, f, &buf), 0);
	ck_assert_ptr_null(buf);
	ck_assert_str_eq(g.log, "TEXT - a 1\nb\n 6 0|");
	/* an empty stream: an empty text */
	memset(&g, 0, sizeof(g));
	f = open_memstream(&buf, &len);
	ck_assert_int_eq(verity_show_stream(&sh, f, &buf), 0);
	ck_assert_str_eq(g.log, "TEXT -  0 0|");
	/* after a failure the text is freed, the failure returned */
	memset(&g, 0, sizeof(g));
	sh.r = -EPIPE;
	f = open_memstream(&buf, &len);
	fputs("lost\n", f);
	ck_assert_int_eq(verity_show_stream(&sh, f, &buf), -EPIPE);
	ck_assert_ptr_null(buf);
	ck_assert_int_eq(g.n, 0);
}
END_TEST

/* A stream in error, or whose close fails, is ENOMEM, its text dropped;
 * a failure already kept is kept. */
START_TEST(stream_error)
{
	struct seen g = {0};
	struct show sh = {seen_fn, &g, 0, 0};
	char *buf = NULL;
	FILE *f = fopen("/dev/full", "w");

	/* a write that failed: the stream's error flag set */
	ck_assert_ptr_nonnull(f);
	fputs("partial", f);
	ck_assert_int_ne(fflush(f), 0);
	ck_assert(ferror(f));
	buf = strdup("x");
	ck_assert_int_eq(verity_show_stream(&sh, f, &buf), -ENOMEM);
	ck_assert_ptr_null(buf);
	ck_assert_int_eq(sh.r, -ENOMEM);
	ck_assert_int_eq(g.n, 0);
	/* a stream whose close fails (its flush: /dev/full) */
	sh.r = 0;
	f = fopen("/dev/full", "w");
	ck_assert_ptr_nonnull(f);
	fputs("no room", f);
	buf = strdup("x");
	ck_assert_int_eq(verity_show_stream(&sh, f, &buf), -ENOMEM);
	ck_assert_ptr_null(buf);
	/* a failure already kept is kept */
	sh.r = -EPIPE;
	f = fopen("/dev/full", "w");
	fputs("no room", f);
	buf = strdup("x");
	ck_assert_int_eq(verity_show_stream(&sh, f, &buf), -EPIPE);
	ck_assert_ptr_null(buf);
	ck_assert_int_eq(g.n, 0);
}
END_TEST

/* Items kept (more than the first 64, so the array grows), their text
 * copied (the caller's buffer may change), replayed in order to another
 * show and forgotten; a replay stops at its visitor's failure and still
 * forgets them all. */
START_TEST(kept)
{
	struct show_kept k = {0};
	struct show keep = {verity_show_keep, &k, 1, 0};
	struct seen g = {0};
	struct show to = {seen_fn, &g, 1, 0};
	char word[16];

	verity_show_object(&keep, "doc");
	for (int i = 0; i < 100; i++) {
		snprintf(word, sizeof(word), "w%d", i);
		verity_show_str(&keep, "k", word);
		memset(word, 'X', 3);
	}
	verity_show_u64(&keep, "n", 100);
	verity_show_end(&keep);
	ck_assert_int_eq(keep.r, 0);
	ck_assert_uint_eq(k.n, 103);
	ck_assert_uint_ge(k.cap, 103);
	verity_show_replay(&to, &k);
	ck_assert_int_eq(to.r, 0);
	ck_assert_int_eq(g.n, 103);
	ck_assert_uint_eq(k.n, 0);
	ck_assert_ptr_nonnull(strstr(g.log, "OBJECT doc - 0 0|STRING k w0 0 "
					    "0|STRING k w1 0 0|"));
	ck_assert_ptr_nonnull(strstr(g.log, "STRING k w99 0 0|UINT n - 100 "
					    "0|END - - 0 0|"));
	/* a replay whose visitor fails at the second item */
	verity_show_str(&keep, "a", "1");
	verity_show_str(&keep, "b", "2");
	verity_show_str(&keep, "c", "3");
	memset(&g, 0, sizeof(g));
	g.fail_at = 2;
	to.r = 0;
	verity_show_replay(&to, &k);
	ck_assert_int_eq(to.r, -EPIPE);
	ck_assert_int_eq(g.n, 2);
	ck_assert_uint_eq(k.n, 0);
	/* a replay into a show that failed already hands nothing on */
	verity_show_str(&keep, "d", "4");
	verity_show_replay(&to, &k);
	ck_assert_int_eq(g.n, 2);
	ck_assert_uint_eq(k.n, 0);
	verity_show_forget(&k);
	free(k.v);
}
END_TEST

/* A visitor that keeps the last item's text bytes (u of them). */
static char last[16];
static size_t last_n;
static int bytes_fn(void *ctx, const struct fv_item *it)
{
	(void)ctx;
	last_n = it->u < sizeof(last) ? (size_t)it->u : sizeof(last);
	memcpy(last, it->text, last_n);
	return 0;
}

/* stdout's text kept whole: its u bytes, a NUL among them, replayed as
 * they were given. */
START_TEST(kept_bytes)
{
	struct show_kept k = {0};
	struct show keep = {verity_show_keep, &k, 1, 0};
	struct show to = {bytes_fn, NULL, 1, 0};
	static const char bytes[] = {'a', 0, 'b', 'c'};

	verity_show_bytes(&keep, bytes, 4);
	ck_assert_int_eq(keep.r, 0);
	verity_show_replay(&to, &k);
	ck_assert_int_eq(to.r, 0);
	ck_assert_uint_eq(last_n, 4);
	ck_assert_mem_eq(last, bytes, 4);
	verity_show_forget(&k);
	free(k.v);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "show_items"};

	return run_unit(&u, UNIT_TESTS(kinds, first_failure, warning_cut,
				       stream, stream_error, kept, kept_bytes));
}
