/* What dump, info and lp dump show, handed to the caller's visitor as
 * items (include/fastverity.h, fv_show): text as the tool the user knows
 * prints it, warnings, or the members of a --json document. The library
 * never prints; a describer writes here and the command prints what it
 * is given, the same way for every container. */
#ifndef FV_SHOW_H
#define FV_SHOW_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#include "include/fastverity.h"

struct show {
	fv_item_fn fn;
	void *ctx;
	int json; /* the --json document is wanted, not the text */
	int r;    /* the first non-zero return of fn; nothing is handed on
		   * after it */
};

/* Text, as it is (a NUL-terminated buffer; NULL: out of memory). */
void verity_show_text(struct show *s, const char *text);
/* n bytes of text as they are, NULs too (p NULL: none). */
void verity_show_bytes(struct show *s, const char *p, size_t n);
/* The text a FILE of open_memstream's holds, handed on, and the FILE
 * closed and freed: ENOMEM when it could not be written. */
int verity_show_stream(struct show *s, FILE *f, char **buf);
/* Text for stderr, as it is (NULL: out of memory). */
void verity_show_error(struct show *s, const char *text);
/* The same, printf's way (out of memory: as a NULL text). */
void verity_show_textf(struct show *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void verity_show_vtextf(struct show *s, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
void verity_show_errorf(struct show *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* One warning line (no "fastverity: warning: " prefix, no newline). */
void verity_show_warning(struct show *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Members of the --json document (key NULL in an array). */
void verity_show_str(struct show *s, const char *key, const char *v);
void verity_show_u64(struct show *s, const char *key, uint64_t v);
void verity_show_bool(struct show *s, const char *key, int v);
/* A number: v written as text says (NULL: as json-c writes a double). */
void verity_show_number(struct show *s, const char *key, double v,
			const char *text);
void verity_show_null(struct show *s, const char *key);
void verity_show_object(struct show *s, const char *key);
void verity_show_array(struct show *s, const char *key);
void verity_show_end(struct show *s);

/* Items kept to be handed on later (--json: a member whose place comes
 * before what is known at the end): verity_show_keep is the visitor of
 * a show whose ctx is the struct show_kept. */
struct show_kept {
	struct fv_item *v;
	size_t n, cap;
};
int verity_show_keep(void *ctx, const struct fv_item *it);
/* Hands kept items on to to (and forgets them). */
void verity_show_replay(struct show *to, struct show_kept *k);
/* Forgets the kept items (the array stays, for the next; free(k->v)). */
void verity_show_forget(struct show_kept *k);

#endif
