/* What `fastverity ota` shows of a package: its facts (verity_ota_facts,
 * a JSON document's events in order) as indented text or as items of
 * one document; verify's and extract's verdicts; the AVB set of the
 * images a verify extracted. */
#include "verity/container/ota/show.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hashtree/error.h"
#include "verity/show/show.h"
#include "verity/storage/output.h"

#define MAX_DEPTH 64

/* A string for the terminal: control bytes as \xHH. */
static void put_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
}

/* Fact i of o, or NULL past the last. */
static const struct verity_ota_fact *fact(const struct verity_ota *o, size_t i)
{
	return i < o->nf ? &o->f[i] : NULL;
}

/* The facts as indented "key: value" lines (two spaces a level); an
 * array's objects as items whose first line begins "- ", an array of
 * values on one line. */
static void info_text(const struct verity_ota *o, FILE *f)
{
	const struct verity_ota_fact *x, *n;
	int depth = 0, item = 0;
	char kind[MAX_DEPTH];

	for (size_t i = 0; (x = fact(o, i)); i++) {
		int in_array = depth > 0 && kind[depth - 1] == '[';
		int indent = depth > 1 ? 2 * (depth - 1) : 0;

		if (x->type == '}' || x->type == ']') {
			depth -= depth > 0;
			continue;
		}
		if (x->type == '{' && (depth == 0 || in_array)) {
			/* the document, or an array's item */
			item = depth > 0;
			if (depth < MAX_DEPTH)
				kind[depth++] = '{';
			continue;
		}
		if (item && indent >= 2)
			fprintf(f, "%*s- ", indent - 2, "");
		else
			fprintf(f, "%*s", indent, "");
		item = 0;
		put_text(f, x->key);
		fputc(':', f);
		n = fact(o, i + 1);
		if (x->type == '[' && n && n->type != '{') {
			/* values: on this line */
			const char *sep = " [";

			for (i++; (n = fact(o, i)) && n->type != ']'; i++) {
				fputs(sep, f);
				put_text(f, n->value);
				sep = ", ";
			}
			fputs(sep[0] == ' ' ? " []\n" : "]\n", f);
			continue;
		}
		if (x->type == '{' && n && n->type == '}') {
			fputs(" {}\n", f);
			i++;
			continue;
		}
		if (x->type == '{' || x->type == '[') {
			fputc('\n', f);
			if (depth < MAX_DEPTH)
				kind[depth++] = (char)x->type;
			continue;
		}
		fputc(' ', f);
		put_text(f, x->value);
		fputc('\n', f);
	}
}

/* The object named what's members (its images as "image NAME: RESULT"
 * lines, an extracted one's path after) to f (NULL: not shown), and
 * whether its result is ok. */
static int verdict(const struct verity_ota *o, const char *what, FILE *f)
{
	const char *name = "", *result = "", *path = NULL;
	const struct verity_ota_fact *x;
	int in = 0, ok = 0, depth = 0;

	for (size_t i = 0; (x = fact(o, i)); i++) {
		int type = x->type;

		if (!in) {
			in = depth == 1 && type == '{' && !strcmp(x->key, what);
			depth += type == '{' || type == '[';
			depth -= type == '}' || type == ']';
			continue;
		}
		if (type == '{' || type == '[') {
			depth++;
			continue;
		}
		if (type == '}' || type == ']') {
			if (--depth == 1)
				break;
			if (depth == 3 && type == '}' && f) {
				fputs("image ", f);
				put_text(f, name);
				fputs(": ", f);
				put_text(f, result);
				if (path && !strcmp(what, "extract")) {
					fputs(", written to ", f);
					put_text(f, path);
				}
				fputc('\n', f);
				path = NULL;
			}
			continue;
		}
		if (depth == 4) { /* an image's */
			if (!strcmp(x->key, "name"))
				name = x->value;
			else if (!strcmp(x->key, "result"))
				result = x->value;
			else if (!strcmp(x->key, "path"))
				path = x->value;
			continue;
		}
		if (depth != 2)
			continue;
		if (!strcmp(x->key, "result"))
			ok = !strcmp(x->value, "ok");
		if (f) {
			put_text(f, x->key);
			fputs(": ", f);
			put_text(f, x->value);
			fputc('\n', f);
		}
	}
	return ok;
}

/* The facts as one document's items. what (NULL: info): the object of
 * the action, the document's verdict ok added as its "result"; avb
 * (verify with a key): that object's "avb", its result bad when ok is
 * not, its images' paths left out (they were removed). */
static void json_items(const struct verity_ota *o, struct show *sh,
		       const char *what, const char *avb, int ok)
{
	const struct verity_ota_fact *x;
	int depth = 0, in_what = 0, said = 0;
	char kind[MAX_DEPTH];

	for (size_t i = 0; (x = fact(o, i)) && !sh->r; i++) {
		const char *key =
			depth && kind[depth - 1] == '{' ? x->key : NULL;
		const char *v = x->value;

		switch (x->type) {
		case '{':
		case '[':
			if (depth == 1 && what && !strcmp(x->key, what))
				in_what = 1;
			if (x->type == '{')
				verity_show_object(sh, key);
			else
				verity_show_array(sh, key);
			if (depth < MAX_DEPTH)
				kind[depth++] = (char)x->type;
			continue;
		case '}':
		case ']':
			if (depth == 2 && in_what && avb)
				verity_show_str(sh, "avb", avb);
			in_what = in_what && depth != 2;
			if (depth == 1 && what && !said)
				verity_show_str(sh, "result",
						ok ? "ok" : "bad");
			depth -= depth > 0;
			verity_show_end(sh);
			continue;
		case 'n':
			if (v[0] == '-')
				verity_show_number(sh, key, strtod(v, NULL), v);
			else
				verity_show_u64(sh, key, strtoull(v, NULL, 10));
			continue;
		case 'b':
			verity_show_bool(sh, key, !strcmp(v, "true"));
			continue;
		}
		if (depth == 1 && what && key && !strcmp(key, "result")) {
			v = ok ? "ok" : "bad";
			said = 1;
		} else if (in_what && avb && depth == 2 && key &&
			   !strcmp(key, "result") && !ok) {
			v = "bad";
		} else if (in_what && avb && depth == 4 && key &&
			   !strcmp(key, "path")) {
			continue;
		}
		verity_show_str(sh, key, v);
	}
}

/* "bad (m)" into why, cut to len bytes as the walk's message may be. */
static void bad(char *why, size_t len, const char *m)
{
	size_t n = strlen(m);

	snprintf(why, len, "bad (%.*s)", (int)(n < len ? n : len), m);
}

/* The AVB set of the images extracted into dir (vbmeta.img at its top,
 * signed by key, its chains followed): "good", or why not, into why. */
static void avb_set(const char *dir, const char *key, verity_ota_walk_fn walk,
		    char *why, size_t len)
{
	char top[4096 + 16], m[3 * 4096];
	size_t dl = strlen(dir);
	const char *at = m;

	snprintf(top, sizeof(top), "%s/vbmeta.img", dir);
	if (access(top, F_OK)) {
		snprintf(why, len,
			 "missing (no good vbmeta image to start "
			 "from)");
		return;
	}
	if (walk(top, key, m, sizeof(m))) {
		bad(why, len, m);
		return;
	}
	if (!m[0]) {
		snprintf(why, len, "good");
		return;
	}
	/* the images' names, not the directory they had */
	if (!strncmp(m, dir, dl) && m[dl] == '/')
		at += dl + 1;
	bad(why, len, at);
}

/* The images written into dir removed, and dir. */
static void remove_images(const struct verity_ota *o, const char *dir)
{
	for (size_t i = 0; i < o->nparts; i++)
		if (o->parts[i].path)
			unlink(o->parts[i].path);
	rmdir(dir);
}

int verity_ota_show(struct verity_ota *o, const char *cert,
		    const struct fv_show_request *q, struct show *sh,
		    verity_ota_walk_fn walk, struct ht_error *err)
{
	const char *what = q->what == FV_SHOW_OTA_VERIFY    ? "verify"
			   : q->what == FV_SHOW_OTA_EXTRACT ? "extract"
							    : NULL;
	int avb_check = q->what == FV_SHOW_OTA_VERIFY && q->key;
	const char *dir =
		q->what == FV_SHOW_OTA_VERIFY && !q->key ? NULL : q->dir;
	char avb[1024] = "", *buf = NULL, made[4096];
	size_t n = 0;
	FILE *f;
	int r = 0, ok = 1;

	if (q->what == FV_SHOW_OTA_VERIFY)
		r = verity_ota_verify(o, cert, err);
	/* verify's images: in a private directory made in dir, removed
	 * with them on a signal too (its signatures said first) */
	if (!r && avb_check) {
		if (!q->dir)
			return ht_fail(err, EINVAL,
				       "fv_show: dir is NULL: verify with a "
				       "key makes the images' directory there");
		snprintf(made, sizeof(made), "%s/fastverity-ota.XXXXXX",
			 q->dir);
		if (!mkdtemp(made))
			return ht_fail(err, errno,
				       "ota verify --avb-key: cannot make a "
				       "directory for the images: %s",
				       strerror(errno));
		verity_output_register_full_dir(dir = made);
	}
	if (!r && what)
		r = verity_ota_apply(
			o, dir, q->source,
			q->what == FV_SHOW_OTA_EXTRACT ? q->partition : NULL,
			err);
	if (!r)
		r = verity_ota_facts(o, err);
	/* verify's images: walked, then removed with their directory */
	if (!r && avb_check)
		avb_set(dir, q->key, walk, avb, sizeof(avb));
	if (avb_check && dir == made) {
		remove_images(o, made);
		verity_output_forget_full_dir(made);
	}
	if (r)
		return r;
	if (what)
		ok = verdict(o, what, NULL) &&
		     (!q->key || q->what != FV_SHOW_OTA_VERIFY ||
		      !strcmp(avb, "good"));
	if (q->json) {
		json_items(o, sh, what,
			   q->what == FV_SHOW_OTA_VERIFY && q->key ? avb : NULL,
			   ok);
	} else {
		if (!(f = open_memstream(&buf, &n)))
			return ht_fail(err, ENOMEM, "out of memory");
		if (what)
			verdict(o, what, f);
		else
			info_text(o, f);
		if (q->what == FV_SHOW_OTA_VERIFY && q->key)
			fprintf(f, "avb: %s\n", avb);
		verity_show_stream(sh, f, &buf);
	}
	if (sh->r)
		return sh->r;
	return ok ? 0 : EPERM;
}
