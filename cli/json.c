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

void cli_jset(void *o, const char *k, void *v)
{
	json_object_object_add(o, k, v);
}

void cli_jstr(void *o, const char *k, const char *s)
{
	json_object_object_add(o, k, cli_json_str(s));
}

void cli_ju64(void *o, const char *k, uint64_t v)
{
	json_object_object_add(o, k, json_object_new_uint64(v));
}

void cli_ji64(void *o, const char *k, int64_t v)
{
	json_object_object_add(o, k, json_object_new_int64(v));
}

void cli_jint(void *o, const char *k, int v)
{
	json_object_object_add(o, k, json_object_new_int(v));
}

void cli_jbool(void *o, const char *k, int v)
{
	json_object_object_add(o, k, json_object_new_boolean(v));
}

void *cli_json_header(const char *device, const fv_params *p,
		      const struct fv_layout *l, const char *root_hex)
{
	json_object *o = json_object_new_object();
	char hex[2 * 256 + 1], uuid[37];
	const uint8_t *salt = p->salt;
	size_t salt_size = p->salt_len;
	int sb = p->superblock;

	cli_jstr(o, "device", device);
	if (sb) {
		snprintf(uuid, 37, "%s", p->uuid);
		cli_jstr(o, "uuid", uuid);
	} else {
		cli_jset(o, "uuid", NULL);
	}
	cli_jbool(o, "superblock", sb);
	cli_jint(o, "hash_type", (int)p->hash_type);
	cli_ju64(o, "data_blocks", p->data_blocks);
	cli_ji64(o, "data_block_size", p->data_block_size);
	cli_ju64(o, "hash_blocks", l->tree_blocks);
	cli_ji64(o, "hash_block_size", p->hash_block_size);
	cli_jstr(o, "hash_algorithm", p->hash);
	cli_hex(salt, salt_size, hex);
	cli_jstr(o, "salt", hex);
	cli_ju64(o, "hash_offset", p->hash_offset);
	cli_ju64(o, "tree_offset", l->tree_offset);
	cli_jint(o, "levels", (int)l->levels);
	cli_ju64(o, "hash_device_size", cli_nominal_hash_end(p, l));
	if (l->fec_roots) {
		json_object *f = json_object_new_object();

		cli_jint(f, "roots", (int)l->fec_roots);
		cli_ju64(f, "offset", l->fec_offset);
		cli_ju64(f, "parity_blocks", l->fec_rounds * l->fec_roots);
		cli_ju64(f, "parity_bytes", l->fec_parity_bytes);
		cli_ju64(f, "covered_blocks", l->fec_blocks);
		cli_ju64(f, "rounds", l->fec_rounds);
		cli_jbool(f, "on_hash_device", l->fec_on_hash_device);
		cli_jset(o, "fec", f);
	}
	if (root_hex)
		cli_jstr(o, "root_hash", root_hex);
	return o;
}

const char *cli_verdict_word(int code)
{
	return code == EXIT_OK       ? "ok"
	       : code == EXIT_VERIFY ? "corrupted"
				     : "root hash mismatch";
}

void cli_json_add_counts(void *obj, const struct cli_counts *c)
{
	cli_jbool(obj, "root_hash_matches", c->root_matches);
	cli_ju64(obj, "bad_data_blocks", c->bad_data);
	cli_ju64(obj, "bad_hash_blocks", c->bad_hash);
	cli_ju64(obj, "bad_spare_areas", c->bad_padding);
	cli_ju64(obj, "unreadable_blocks", c->unreadable);
	cli_ju64(obj, "unchecked_data_blocks", c->unchecked_data);
	cli_ju64(obj, "unchecked_hash_blocks", c->unchecked_hash);
}

static const char *kind_name(enum fv_failure_kind k)
{
	switch (k) {
	case FV_BAD_DATA_BLOCK:
		return "data";
	case FV_BAD_HASH_BLOCK:
		return "hash";
	case FV_UNREADABLE_DATA_BLOCK:
	case FV_UNREADABLE_HASH_BLOCK:
		return "unreadable";
	default:
		return "padding";
	}
}

void *cli_json_failure(const struct cli_failure *f)
{
	json_object *j = json_object_new_object();

	cli_jstr(j, "type", kind_name(f->kind));
	cli_ju64(j, "position", f->position);
	cli_ju64(j, "block", f->block);
	if (f->kind == FV_UNREADABLE_DATA_BLOCK ||
	    f->kind == FV_UNREADABLE_HASH_BLOCK)
		cli_jstr(j, "area",
			 f->kind == FV_UNREADABLE_DATA_BLOCK ? "data" : "hash");
	if (f->kind != FV_BAD_DATA_BLOCK && f->kind != FV_UNREADABLE_DATA_BLOCK)
		cli_jint(j, "level", (int)f->level);
	return j;
}

static const char *roots_source_word(enum fv_roots_from s)
{
	return s == FV_ROOTS_GIVEN       ? "given"
	       : s == FV_ROOTS_INFERRED  ? "size"
	       : s == FV_ROOTS_DESCRIBED ? "image"
					 : "default";
}

void *cli_json_fec(const struct fv_layout *l, const struct fv_fec_report *f,
		   void *unrepairable)
{
	json_object *j = json_object_new_object();

	cli_jint(j, "roots", (int)l->fec_roots);
	cli_jstr(j, "roots_from", roots_source_word(l->fec_roots_from));
	cli_ju64(j, "offset", l->fec_offset);
	cli_ju64(j, "covered_blocks", l->fec_blocks);
	cli_ju64(j, "rounds", l->fec_rounds);
	cli_ju64(j, "bad_blocks", f->bad_blocks);
	cli_ju64(j, "repairable_blocks", f->repaired);
	cli_ju64(j, "unrepairable_blocks", f->bad_blocks - f->repaired);
	cli_ju64(j, "stale_parity_codewords", f->stale_codewords);
	cli_ju64(j, "stale_parity_rounds", f->stale_rounds);
	cli_ju64(j, "unchecked_parity_rounds", f->unchecked_rounds);
	cli_ju64(j, "parity_rewrite_limit", f->rewrite_limit);
	cli_ju64(j, "passes", f->passes);
	if (unrepairable)
		cli_jset(j, "unrepairable", unrepairable);
	return j;
}

int cli_json_emitted;

void cli_json_print(void *obj)
{
	puts(json_object_to_json_string_ext(
		obj, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(obj);
	cli_json_emitted = 1;
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
	for (size_t i = 0; i < len;) {
		size_t n = utf8_len(p + i);

		if (!n)
			break;
		i += n;
		if (i == len)
			return json_object_new_string(s);
	}
	if (!len)
		return json_object_new_string(s);
	/* invalid UTF-8: each bad byte becomes the text \xHH */
	buf = malloc(len * 4 + 1);
	if (!buf)
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

void *cli_json_base64(const uint8_t *p, size_t n)
{
	static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmn"
				  "opqrstuvwxyz0123456789+/";
	char *t = malloc(n / 3 * 4 + 5), *w = t;
	json_object *j;

	if (!t)
		return NULL;
	for (size_t i = 0; i < n; i += 3) {
		uint32_t v = (uint32_t)p[i] << 16;

		if (i + 1 < n)
			v |= (uint32_t)p[i + 1] << 8;
		if (i + 2 < n)
			v |= p[i + 2];
		*w++ = abc[v >> 18 & 63];
		*w++ = abc[v >> 12 & 63];
		*w++ = i + 1 < n ? abc[v >> 6 & 63] : '=';
		*w++ = i + 2 < n ? abc[v & 63] : '=';
	}
	*w = '\0';
	j = json_object_new_string(t);
	free(t);
	return j;
}

void cli_json_final(int rc, const char *fallback)
{
	json_object *j;

	if (cli_json_emitted)
		return;
	j = json_object_new_object();
	cli_jstr(j, "result", rc ? "error" : "ok");
	cli_jset(j, "error",
		 rc ? cli_json_str(cli_last_error ? cli_last_error : fallback)
		    : NULL);
	cli_jint(j, "exit_code", rc);
	cli_json_print(j);
}

const char *cli_trust_word(enum fv_trust t)
{
	return t == FV_TRUST_CHECK       ? "checked"
	       : t == FV_TRUST_UNCHECKED ? "not checked"
					 : "unsigned";
}

void *cli_json_signature(const struct cli_pair *cp, const fv_result *res)
{
	struct fv_report rep;
	int checked;
	json_object *j;

	cli_report(res, &rep);
	checked = !cp->avb && rep.trust == FV_TRUST_CHECK;
	if (cp->avb) {
		if (cp->trust == FV_TRUST_UNSIGNED)
			return NULL;
		j = json_object_new_object();
		cli_jstr(j, "algorithm", cp->avb_algorithm);
		cli_jstr(j, "public_key_sha1", cp->avb_key_sha1);
		cli_ju64(j, "rollback_index", cp->avb_rollback_index);
		cli_jbool(j, "checked", cp->trust == FV_TRUST_CHECK);
		cli_jstr(j, "trust", cli_trust_word(cp->trust));
		return j;
	}
	/* the trust policy's verdict: a signer checked, or a signature
	 * whose signer was not; null when unsigned */
	if (!checked && cp->trust != FV_TRUST_UNCHECKED)
		return NULL;
	j = json_object_new_object();
	cli_jstr(j, "file", cp->signature_path);
	cli_jbool(j, "checked", checked);
	cli_jstr(j, "trust", cli_trust_word(cp->trust));
	cli_jset(j, "signer", checked ? cli_json_str(rep.signer) : NULL);
	cli_jset(j, "warning",
		 checked && *rep.signature_warning
			 ? cli_json_str(rep.signature_warning)
			 : NULL);
	return j;
}

/* fv_show's items as the command prints them, the same for every kind:
 * text and warnings as they come, the --json document built and printed
 * once whole (never a part of one). */
struct shown {
	json_object *doc, *at[16];
	int depth;
	FILE *out;
};

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
		v = cli_json_str(it->text);
		break;
	case FV_ITEM_UINT:
		v = json_object_new_uint64(it->u);
		break;
	case FV_ITEM_NUMBER:
		v = it->text ? json_object_new_double_s(it->d, it->text)
			     : json_object_new_double(it->d);
		break;
	case FV_ITEM_BOOL:
		v = json_object_new_boolean(it->u != 0);
		break;
	case FV_ITEM_NULL:
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

/* The document whole, to where the text went. */
static void shown_print(const struct shown *s)
{
	fprintf(s->out, "%s\n",
		json_object_to_json_string_ext(
			s->doc, JSON_C_TO_STRING_PRETTY |
					JSON_C_TO_STRING_NOSLASHESCAPE));
	cli_json_emitted = 1;
}

int cli_show_to(const struct fv_show_request *q, void *out)
{
	struct shown s = {.out = out};
	int r = fv_show(q, shown_item, &s);

	if (r >= 0 && s.doc) /* > 0: what a verify found, said */
		shown_print(&s);
	json_object_put(s.doc);
	return r;
}

int cli_show_bench(const struct fv_bench_request *q, const fv_options *o)
{
	struct shown s = {.out = stdout};
	int r = fv_bench_run(q, o, shown_item, &s);

	if (!r && s.doc)
		shown_print(&s);
	json_object_put(s.doc);
	return r;
}

int cli_show(const struct fv_show_request *q)
{
	return cli_show_to(q, stdout);
}
