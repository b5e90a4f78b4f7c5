/* print_partition_digests and calculate_kernel_cmdline
 * (verity/slot/digests.h; docs/android.md): the steps of one walk of the
 * set as avbtool prints them. */
#include "verity/slot/digests.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "verity/android/avbshow.h"
#include "verity/registry/registry.h"
#include "verity/slot/walk.h"

/* A name as Python's json.dumps writes it: ASCII kept, '"' and '\'
 * escaped, every other code point as \uXXXX (surrogate pairs past
 * U+FFFF); a byte that is not UTF-8 as its own code point. */
static void json_py_string(FILE *f, const uint8_t *p, size_t n)
{
	fputc('"', f);
	for (size_t i = 0; i < n;) {
		uint32_t c = p[i], need = 0;

		if (c >= 0xf0 && c < 0xf8)
			need = 3, c &= 0x07;
		else if (c >= 0xe0)
			need = c < 0xf0 ? 2 : 0, c &= 0x0f;
		else if (c >= 0xc0)
			need = 1, c &= 0x1f;
		if (p[i] >= 0x80 && need) {
			size_t k;

			for (k = 1; k <= need && i + k < n &&
				    (p[i + k] & 0xc0) == 0x80;
			     k++)
				c = c << 6 | (p[i + k] & 0x3f);
			if (k == need + 1)
				i += need;
			else
				c = p[i];
		} else if (p[i] >= 0x80) {
			c = p[i];
		}
		i++;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", (int)c);
		else if (c >= 0x20 && c < 0x7f)
			fputc((int)c, f);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c == '\r')
			fputs("\\r", f);
		else if (c == '\b')
			fputs("\\b", f);
		else if (c == '\f')
			fputs("\\f", f);
		else if (c > 0xffff)
			fprintf(f, "\\u%04x\\u%04x",
				(unsigned)(0xd800 + ((c - 0x10000) >> 10)),
				(unsigned)(0xdc00 + ((c - 0x10000) & 0x3ff)));
		else
			fprintf(f, "\\u%04x", (unsigned)c);
	}
	fputc('"', f);
}

/* The hash and hashtree digests of the set, in the order walked; JSON
 * as json.dumps(..., indent=2) writes it (no newline at the end). */
static void digests(FILE *f, const struct slot_walk *w, int json)
{
	size_t count = 0;

	if (json)
		fputs("{\n  \"partitions\": [", f);
	for (size_t i = 0; i < w->n; i++) {
		const struct slot_step *st = &w->steps[i];
		const struct avb_digest_part *p;

		if (st->kind != SLOT_HASH && st->kind != SLOT_HASHTREE)
			continue;
		p = verity_avb_digest_part(
			&st->avb->img.vbmeta.desc[st->descriptor]);
		if (json) {
			fputs(count ? ",\n    {\n      \"name\": "
				    : "\n    {\n      \"name\": ",
			      f);
			json_py_string(f, p->name, p->name_len);
			fputs(",\n      \"digest\": \"", f);
			verity_android_hex(f, p->digest, p->digest_len);
			fputs("\"\n    }", f);
		} else {
			fwrite(p->name, 1, p->name_len, f);
			fputs(": ", f);
			verity_android_hex(f, p->digest, p->digest_len);
			fputc('\n', f);
		}
		count++;
	}
	if (json)
		fputs(count ? "\n  ]\n}" : "]\n}", f);
}

/* The kernel command line descriptors of the image and, one level down,
 * of the images its chain descriptors name, kept or left out by their
 * flags (1: only when the tree is not disabled, 2: only when it is),
 * joined by spaces as avbtool joins them (no newline). */
static void cmdlines(FILE *f, const struct slot_walk *w, int disabled)
{
	size_t count = 0;

	for (size_t i = 0; i < w->n; i++) {
		const struct slot_step *st = &w->steps[i];
		const struct avb_cmdline_desc *k;

		if (st->kind != SLOT_CMDLINE)
			continue;
		k = &st->avb->img.vbmeta.desc[st->descriptor].cmdline;
		if (((k->flags & 1) && disabled) ||
		    ((k->flags & 2) && !disabled))
			continue;
		if (count++)
			fputc(' ', f);
		fwrite(k->value, 1, k->value_len, f);
	}
}

int verity_slot_digests(const struct fv_show_request *q, struct show *sh,
			struct ht_error *err)
{
	const int nested = q->what == FV_SHOW_AVB_DIGESTS;
	struct slot_walk w;
	struct slot_ask ask;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int r;

	memset(&w, 0, sizeof(w));
	memset(&ask, 0, sizeof(ask));
	if ((r = verity_container_named(q->image, "avb", &ask.kind, err)))
		return r;
	/* avbtool's print commands read, they do not verify: chains to any
	 * depth (digests) or one level down, each chained partition once */
	ask.image = q->image;
	ask.flags = SLOT_FOLLOW | (nested ? SLOT_FOLLOW_NESTED : 0);
	if ((r = verity_slot_walk(&w, &ask, err)))
		goto out;
	/* an image that cannot be read stops the command, as in avbtool */
	for (size_t i = 0; i < w.n; i++) {
		const struct slot_step *st = &w.steps[i];

		if (st->result != SLOT_OK && st->result != SLOT_SKIPPED) {
			r = ht_fail(err, st->error ? -st->error : EINVAL, "%s",
				    st->message);
			goto out;
		}
	}
	if (!(f = open_memstream(&buf, &len))) {
		r = ht_fail(err, ENOMEM, "out of memory");
		goto out;
	}
	if (nested)
		digests(f, &w, q->json);
	else
		cmdlines(f, &w, q->hashtree_disabled);
	if (fclose(f)) {
		r = ht_fail(err, ENOMEM, "out of memory");
		goto out;
	}
	verity_show_bytes(sh, buf, len);
	r = sh->r;
out:
	free(buf);
	verity_slot_walk_free(&w);
	return r;
}
