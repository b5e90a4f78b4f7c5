/* The --json document (cli/json.h). */
#include "cli/json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/jsonc.h"

#include "cli/errors.h"
#include "cli/params.h"
#include "cli/text.h"

void *cli_json_header(const char *device, const fv_params *p,
		      const struct fv_layout *l, const char *root_hex)
{
	json_object *o = json_object_new_object();
	char hex[2 * 256 + 1], uuid[37];
	const uint8_t *salt = p->salt;
	size_t salt_size = p->salt_len;
	int sb = p->superblock;

	json_object_object_add(o, "device", cli_json_str(device));
	if (sb) {
		snprintf(uuid, 37, "%s", p->uuid);
		json_object_object_add(o, "uuid", cli_json_str(uuid));
	} else {
		json_object_object_add(o, "uuid", NULL);
	}
	json_object_object_add(o, "superblock", json_object_new_boolean(sb));
	json_object_object_add(
		o, "hash_type",
		json_object_new_int((int)p->hash_type));
	json_object_object_add(
		o, "data_blocks",
		json_object_new_uint64(p->data_blocks));
	json_object_object_add(
		o, "data_block_size",
		json_object_new_int64(p->data_block_size));
	json_object_object_add(o, "hash_blocks",
			       json_object_new_uint64(l->tree_blocks));
	json_object_object_add(
		o, "hash_block_size",
		json_object_new_int64(p->hash_block_size));
	json_object_object_add(o, "hash_algorithm",
			       json_object_new_string(p->hash));
	cli_hex(salt, salt_size, hex);
	json_object_object_add(o, "salt", json_object_new_string(hex));
	json_object_object_add(
		o, "hash_offset",
		json_object_new_uint64(p->hash_offset));
	json_object_object_add(o, "tree_offset",
			       json_object_new_uint64(l->tree_offset));
	json_object_object_add(o, "levels",
			       json_object_new_int((int)l->levels));
	json_object_object_add(
		o, "hash_device_size",
		json_object_new_uint64(cli_nominal_hash_end(p, l)));
	if (l->fec_roots) {
		json_object *f = json_object_new_object();

		json_object_object_add(f, "roots",
				       json_object_new_int((int)l->fec_roots));
		json_object_object_add(f, "offset",
				       json_object_new_uint64(l->fec_offset));
		json_object_object_add(
			f, "parity_blocks",
			json_object_new_uint64(l->fec_rounds * l->fec_roots));
		json_object_object_add(
			f, "parity_bytes",
			json_object_new_uint64(l->fec_parity_bytes));
		json_object_object_add(f, "covered_blocks",
				       json_object_new_uint64(l->fec_blocks));
		json_object_object_add(f, "rounds",
				       json_object_new_uint64(l->fec_rounds));
		json_object_object_add(
			f, "on_hash_device",
			json_object_new_boolean(l->fec_on_hash_device));
		json_object_object_add(o, "fec", f);
	}
	if (root_hex)
		json_object_object_add(o, "root_hash",
				       json_object_new_string(root_hex));
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
	json_object_object_add(obj, "root_hash_matches",
			       json_object_new_boolean(c->root_matches));
	json_object_object_add(obj, "bad_data_blocks",
			       json_object_new_uint64(c->bad_data));
	json_object_object_add(obj, "bad_hash_blocks",
			       json_object_new_uint64(c->bad_hash));
	json_object_object_add(obj, "bad_spare_areas",
			       json_object_new_uint64(c->bad_padding));
	json_object_object_add(obj, "unreadable_blocks",
			       json_object_new_uint64(c->unreadable));
	json_object_object_add(obj, "unchecked_data_blocks",
			       json_object_new_uint64(c->unchecked_data));
	json_object_object_add(obj, "unchecked_hash_blocks",
			       json_object_new_uint64(c->unchecked_hash));
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

	json_object_object_add(j, "type",
			       json_object_new_string(kind_name(f->kind)));
	json_object_object_add(j, "position",
			       json_object_new_uint64(f->position));
	json_object_object_add(j, "block", json_object_new_uint64(f->block));
	if (f->kind == FV_UNREADABLE_DATA_BLOCK ||
	    f->kind == FV_UNREADABLE_HASH_BLOCK)
		json_object_object_add(
			j, "area",
			json_object_new_string(
				f->kind == FV_UNREADABLE_DATA_BLOCK ? "data"
								    : "hash"));
	if (f->kind != FV_BAD_DATA_BLOCK && f->kind != FV_UNREADABLE_DATA_BLOCK)
		json_object_object_add(j, "level",
				       json_object_new_int((int)f->level));
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

	json_object_object_add(j, "roots",
			       json_object_new_int((int)l->fec_roots));
	json_object_object_add(
		j, "roots_from",
		json_object_new_string(roots_source_word(l->fec_roots_from)));
	json_object_object_add(j, "offset",
			       json_object_new_uint64(l->fec_offset));
	json_object_object_add(j, "covered_blocks",
			       json_object_new_uint64(l->fec_blocks));
	json_object_object_add(j, "rounds",
			       json_object_new_uint64(l->fec_rounds));
	json_object_object_add(j, "bad_blocks",
			       json_object_new_uint64(f->bad_blocks));
	json_object_object_add(j, "repairable_blocks",
			       json_object_new_uint64(f->repaired));
	json_object_object_add(
		j, "unrepairable_blocks",
		json_object_new_uint64(f->bad_blocks - f->repaired));
	json_object_object_add(j, "stale_parity_codewords",
			       json_object_new_uint64(f->stale_codewords));
	json_object_object_add(j, "stale_parity_rounds",
			       json_object_new_uint64(f->stale_rounds));
	json_object_object_add(j, "unchecked_parity_rounds",
			       json_object_new_uint64(f->unchecked_rounds));
	json_object_object_add(j, "parity_rewrite_limit",
			       json_object_new_uint64(f->rewrite_limit));
	json_object_object_add(j, "passes", json_object_new_uint64(f->passes));
	if (unrepairable)
		json_object_object_add(j, "unrepairable", unrepairable);
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
	json_object_object_add(j, "result",
			       json_object_new_string(rc ? "error" : "ok"));
	json_object_object_add(
		j, "error",
		rc ? cli_json_str(cli_last_error ? cli_last_error : fallback)
		   : NULL);
	json_object_object_add(j, "exit_code", json_object_new_int(rc));
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
		json_object_object_add(j, "algorithm",
				       cli_json_str(cp->avb_algorithm));
		json_object_object_add(j, "public_key_sha1",
				       cli_json_str(cp->avb_key_sha1));
		json_object_object_add(
			j, "rollback_index",
			json_object_new_uint64(cp->avb_rollback_index));
		json_object_object_add(
			j, "checked",
			json_object_new_boolean(cp->trust == FV_TRUST_CHECK));
		json_object_object_add(j, "trust",
				       cli_json_str(cli_trust_word(cp->trust)));
		return j;
	}
	/* the trust policy's verdict: a signer checked, or a signature
	 * whose signer was not; null when unsigned */
	if (!checked && cp->trust != FV_TRUST_UNCHECKED)
		return NULL;
	j = json_object_new_object();
	json_object_object_add(j, "file", cli_json_str(cp->signature_path));
	json_object_object_add(j, "checked", json_object_new_boolean(checked));
	json_object_object_add(j, "trust",
			       cli_json_str(cli_trust_word(cp->trust)));
	json_object_object_add(j, "signer",
			       checked ? cli_json_str(rep.signer) : NULL);
	json_object_object_add(j, "warning",
			       checked && *rep.signature_warning
				       ? cli_json_str(rep.signature_warning)
				       : NULL);
	return j;
}
