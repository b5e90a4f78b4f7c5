/* The items of fv_show (verity/show/show.h). */
#include "verity/show/show.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static void give(struct show *s, enum fv_item_kind kind, const char *key,
		 const char *text, uint64_t u)
{
	struct fv_item it = {kind, key, text, u, 0};

	if (!s->r)
		s->r = s->fn(s->ctx, &it);
}

void verity_show_text(struct show *s, const char *text)
{
	if (!text) {
		if (!s->r)
			s->r = -ENOMEM;
		return;
	}
	give(s, FV_ITEM_TEXT, NULL, text, strlen(text));
}

void verity_show_bytes(struct show *s, const char *p, size_t n)
{
	give(s, FV_ITEM_TEXT, NULL, p ? p : "", p ? n : 0);
}

void verity_show_error(struct show *s, const char *text)
{
	if (!text) {
		if (!s->r)
			s->r = -ENOMEM;
		return;
	}
	give(s, FV_ITEM_ERROR, NULL, text, 0);
}

/* fmt's text to text() or error(), freed after. */
static void formatted(struct show *s, void (*to)(struct show *, const char *),
		      const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
static void formatted(struct show *s, void (*to)(struct show *, const char *),
		      const char *fmt, va_list ap)
{
	char *line = NULL;

	if (vasprintf(&line, fmt, ap) < 0)
		line = NULL;
	to(s, line);
	free(line);
}

void verity_show_vtextf(struct show *s, const char *fmt, va_list ap)
{
	formatted(s, verity_show_text, fmt, ap);
}

void verity_show_textf(struct show *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	formatted(s, verity_show_text, fmt, ap);
	va_end(ap);
}

void verity_show_errorf(struct show *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	formatted(s, verity_show_error, fmt, ap);
	va_end(ap);
}

int verity_show_stream(struct show *s, FILE *f, char **buf)
{
	int bad = ferror(f);

	if (fclose(f) || bad) {
		free(*buf);
		*buf = NULL;
		return s->r ? s->r : (s->r = -ENOMEM);
	}
	verity_show_text(s, *buf);
	free(*buf);
	*buf = NULL;
	return s->r;
}

void verity_show_warning(struct show *s, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	give(s, FV_ITEM_WARNING, NULL, line, 0);
}

void verity_show_str(struct show *s, const char *key, const char *v)
{
	give(s, v ? FV_ITEM_STRING : FV_ITEM_NULL, key, v, 0);
}

void verity_show_u64(struct show *s, const char *key, uint64_t v)
{
	give(s, FV_ITEM_UINT, key, NULL, v);
}

void verity_show_bool(struct show *s, const char *key, int v)
{
	give(s, FV_ITEM_BOOL, key, NULL, v != 0);
}

void verity_show_number(struct show *s, const char *key, double v,
			const char *text)
{
	struct fv_item it = {FV_ITEM_NUMBER, key, text, 0, v};

	if (!s->r)
		s->r = s->fn(s->ctx, &it);
}

void verity_show_null(struct show *s, const char *key)
{
	give(s, FV_ITEM_NULL, key, NULL, 0);
}

void verity_show_object(struct show *s, const char *key)
{
	give(s, FV_ITEM_OBJECT, key, NULL, 0);
}

void verity_show_array(struct show *s, const char *key)
{
	give(s, FV_ITEM_ARRAY, key, NULL, 0);
}

void verity_show_end(struct show *s)
{
	give(s, FV_ITEM_END, NULL, NULL, 0);
}

int verity_show_keep(void *ctx, const struct fv_item *it)
{
	struct show_kept *k = ctx;
	struct fv_item *v;

	if (k->n == k->cap) {
		size_t cap = k->cap ? 2 * k->cap : 64;

		if (!(v = realloc(k->v, cap * sizeof(*v))))
			return -ENOMEM;
		k->v = v;
		k->cap = cap;
	}
	v = &k->v[k->n];
	*v = *it;
	/* keys are the show's own words; text is copied (stdout's: its u
	 * bytes, which may hold a NUL; the others to their NUL) */
	if (it->text) {
		size_t n = it->kind == FV_ITEM_TEXT ? it->u : strlen(it->text);
		char *t = malloc(n + 1);

		if (!t)
			return -ENOMEM;
		memcpy(t, it->text, n);
		t[n] = 0;
		v->text = t;
	}
	k->n++;
	return 0;
}

void verity_show_forget(struct show_kept *k)
{
	for (size_t i = 0; i < k->n; i++)
		free((char *)k->v[i].text);
	k->n = 0;
}

void verity_show_replay(struct show *to, struct show_kept *k)
{
	for (size_t i = 0; i < k->n && !to->r; i++)
		to->r = to->fn(to->ctx, &k->v[i]);
	verity_show_forget(k);
}
