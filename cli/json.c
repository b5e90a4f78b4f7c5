/* The --json document (cli/json.h). */
#include "cli/json.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/jsonc.h"

#include "cli/errors.h"
#include "cli/params.h"
#include "cli/progress.h"
#include "cli/text.h"

int cli_json_emitted;

/* The document doc whole, to out. */
static void print_to(FILE *out, json_object *doc)
{
	fprintf(out, "%s\n",
		json_object_to_json_string_ext(
			doc, JSON_C_TO_STRING_PRETTY |
				     JSON_C_TO_STRING_NOSLASHESCAPE));
	cli_json_emitted = 1;
}

void cli_json_print(void *obj)
{
	print_to(stdout, obj);
	json_object_put(obj);
}

/* Length of the valid UTF-8 sequence at s (1 to 4), or 0. */
static size_t utf8_len(const unsigned char *s)
{
	unsigned c = s[0];
	size_t n;
	unsigned min;
	uint32_t cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, min = 0x80, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, min = 0x800, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, min = 0x10000, cp = c & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

void *cli_json_str(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t len, out = 0;
	char *buf;
	json_object *j;

	if (!s)
		return NULL;
	len = strlen(s);
	/* invalid UTF-8: each bad byte becomes the text \xHH */
	if (!(buf = malloc(len * 4 + 1)))
		return NULL;
	for (size_t i = 0; i < len;) {
		size_t n = utf8_len(p + i);

		if (n) {
			memcpy(buf + out, p + i, n);
			out += n;
			i += n;
		} else {
			out += (size_t)sprintf(buf + out, "\\x%02x", p[i]);
			i++;
		}
	}
	buf[out] = '\0';
	j = json_object_new_string(buf);
	free(buf);
	return j;
}

void cli_json_final(int rc, const char *fallback)
{
	json_object *j;

	if (cli_json_emitted)
		return;
	j = json_object_new_object();
	json_object_object_add(j, "result", cli_json_str(rc ? "error" : "ok"));
	json_object_object_add(
		j, "error",
		rc ? cli_json_str(cli_last_error ? cli_last_error : fallback)
		   : NULL);
	json_object_object_add(j, "exit_code", json_object_new_int(rc));
	cli_json_print(j);
}

/* fv_show's items as the command prints them, the same for every kind:
 * text and warnings as they come, the --json document built and printed
 * once whole (never a part of one). */
struct shown {
	json_object *doc, *at[16];
	int depth;
	FILE *out;
};

/* A scalar item's value (NULL: null). */
static json_object *value_of(const struct fv_item *it)
{
	switch (it->kind) {
	case FV_ITEM_STRING:
		return cli_json_str(it->text);
	case FV_ITEM_UINT:
		return json_object_new_uint64(it->u);
	case FV_ITEM_NUMBER:
		return it->text ? json_object_new_double_s(it->d, it->text)
				: json_object_new_double(it->d);
	case FV_ITEM_BOOL:
		return json_object_new_boolean(it->u != 0);
	default:
		return NULL;
	}
}

static int shown_item(void *ctx, const struct fv_item *it)
{
	struct shown *s = ctx;
	json_object *v = NULL, *up = s->depth ? s->at[s->depth - 1] : NULL;

	switch (it->kind) {
	case FV_ITEM_TEXT:
		cli_progress_hide();
		fwrite(it->text, 1, (size_t)it->u, s->out);
		return 0;
	case FV_ITEM_ERROR: /* after what stdout holds, as cli_error */
		cli_progress_clear();
		fputs(it->text, stderr);
		return 0;
	case FV_ITEM_WARNING:
		fprintf(stderr, "fastverity: warning: %s\n", it->text);
		return 0;
	case FV_ITEM_END:
		s->depth -= s->depth > 0;
		return 0;
	case FV_ITEM_STRING:
	case FV_ITEM_UINT:
	case FV_ITEM_NUMBER:
	case FV_ITEM_BOOL:
	case FV_ITEM_NULL:
		v = value_of(it);
		break;
	case FV_ITEM_OBJECT:
	case FV_ITEM_ARRAY:
		if (s->depth == (int)(sizeof(s->at) / sizeof(s->at[0])))
			return -EOVERFLOW;
		v = it->kind == FV_ITEM_OBJECT ? json_object_new_object()
					       : json_object_new_array();
		s->at[s->depth++] = v;
		if (!up) {
			json_object_put(s->doc);
			s->doc = v;
			return 0;
		}
		break;
	}
	if (!up)
		return json_object_put(v), 0;
	if (it->key)
		json_object_object_add(up, it->key, v);
	else
		json_object_array_add(up, v);
	return 0;
}

/* verify's --json streamed, memory bounded however many blocks are bad:
 * the top object's members printed as they come, a list among them
 * element by element (one line each), any other value built whole
 * first; the same bytes as the document printed whole. */
struct streamed {
	struct shown v; /* the value being built (v.depth 0: none) */
	const char *key;
	int depth, members, list; /* depth: 1 in the top, 2 in the list */
	uint64_t n;               /* the list's elements */
};

static void stream_value(struct streamed *s, const char *key, json_object *v)
{
	int plain = s->list;
	const char *t = json_object_to_json_string_ext(
		v, (plain ? JSON_C_TO_STRING_PLAIN : JSON_C_TO_STRING_PRETTY) |
			   JSON_C_TO_STRING_NOSLASHESCAPE);

	if (plain) {
		fprintf(s->v.out, "%s\n    %s", s->n++ ? "," : "", t);
	} else {
		fprintf(s->v.out, "%s\n  \"%s\":", s->members++ ? "," : "",
			key);
		for (; *t; t++) /* one level in */
			fputs(*t == '\n' ? "\n  " : (char[2]){*t, 0}, s->v.out);
	}
	json_object_put(v);
}

int cli_json_whole;

static int streamed_item(void *ctx, const struct fv_item *it)
{
	struct streamed *s = ctx;
	FILE *out = s->v.out;
	int r;

	if (cli_json_whole) /* built whole, printed at the end */
		return shown_item(&s->v, it);
	if (it->kind == FV_ITEM_TEXT || it->kind == FV_ITEM_ERROR ||
	    it->kind == FV_ITEM_WARNING || s->v.depth) {
		r = shown_item(&s->v, it);
		if (!s->v.depth && s->v.doc) { /* built whole */
			stream_value(s, s->key, s->v.doc);
			s->v.doc = NULL;
		}
		return r;
	}
	if (it->kind == FV_ITEM_OBJECT && !s->depth) {
		fputs("{", out);
		s->depth = 1;
		cli_json_emitted = 1;
	} else if (it->kind == FV_ITEM_END) {
		if (s->depth == 2)
			fputs(s->n ? "\n  ]" : "]", out);
		else
			fputs("\n}\n", out);
		s->list = 0;
		s->depth--;
	} else if (it->kind == FV_ITEM_ARRAY && s->depth == 1) {
		fprintf(out, "%s\n  \"%s\":[", s->members++ ? "," : "",
			it->key);
		s->depth = s->list = 2;
		s->n = 0;
	} else if (it->kind == FV_ITEM_OBJECT || it->kind == FV_ITEM_ARRAY) {
		s->key = it->key;
		return shown_item(&s->v, it);
	} else {
		stream_value(s, it->key, value_of(it));
	}
	return 0;
}

int cli_show_to(const struct fv_show_request *q, void *out)
{
	struct shown s = {.out = out};
	struct streamed st = {.v = {.out = out}};
	int r;

	if (q->what == FV_SHOW_VERIFY && q->json) {
		r = fv_show(q, streamed_item, &st);
		if (cli_json_whole && r >= 0 && st.v.doc)
			print_to(st.v.out, st.v.doc);
		cli_json_whole = 0;
		json_object_put(st.v.doc);
		return r;
	}
	r = fv_show(q, shown_item, &s);
	if (r >= 0 && s.doc) /* > 0: what a verify found, said */
		print_to(s.out, s.doc);
	json_object_put(s.doc);
	return r;
}

int cli_show_bench(const struct fv_bench_request *q, const fv_options *o)
{
	struct shown s = {.out = stdout};
	int r = fv_bench_run(q, o, shown_item, &s);

	if (!r && s.doc)
		print_to(s.out, s.doc);
	json_object_put(s.doc);
	return r;
}

int cli_show(const struct fv_show_request *q)
{
	return cli_show_to(q, stdout);
}
