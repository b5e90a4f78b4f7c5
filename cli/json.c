/* The --json document (cli/json.h). */
#include "cli/json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "cli/errors.h"
#include "cli/text.h"

void *cli_json_header(const char *device, const struct verity_params *p,
		      const struct verity_layout *l, const uint8_t *root)
{
	json_object *o = json_object_new_object();
	char hex[2 * VERITY_MAX_SALT_SIZE + 1], uuid[37];

	json_object_object_add(o, "device", cli_json_str(device));
	if (!p->no_superblock) {
		verity_uuid_format(p->uuid, uuid);
		json_object_object_add(o, "uuid", cli_json_str(uuid));
	} else {
		json_object_object_add(o, "uuid", NULL);
	}
	json_object_object_add(o, "superblock",
			       json_object_new_boolean(!p->no_superblock));
	json_object_object_add(o, "hash_type",
			       json_object_new_int(p->hash_type));
	json_object_object_add(o, "data_blocks",
			       json_object_new_uint64(p->data_blocks));
	json_object_object_add(o, "data_block_size",
			       json_object_new_int64(p->data_block_size));
	json_object_object_add(o, "hash_blocks",
			       json_object_new_uint64(l->geo.tree_blocks));
	json_object_object_add(o, "hash_block_size",
			       json_object_new_int64(p->hash_block_size));
	json_object_object_add(o, "hash_algorithm",
			       json_object_new_string(p->hash_name));
	verity_hex_encode(p->salt, p->salt_size, hex);
	json_object_object_add(o, "salt", json_object_new_string(hex));
	json_object_object_add(o, "hash_offset",
			       json_object_new_uint64(p->hash_offset));
	json_object_object_add(o, "tree_offset",
			       json_object_new_uint64(l->tree_offset));
	json_object_object_add(o, "levels",
			       json_object_new_int((int)l->geo.levels));
	json_object_object_add(
		o, "hash_device_size",
		json_object_new_uint64(cli_nominal_hash_end(p, l)));
	if (l->fec.roots) {
		json_object *f = json_object_new_object();

		json_object_object_add(f, "roots",
				       json_object_new_int((int)l->fec.roots));
		json_object_object_add(f, "offset",
				       json_object_new_uint64(l->fec.offset));
		json_object_object_add(
			f, "parity_blocks",
			json_object_new_uint64(l->fec.rounds * l->fec.roots));
		json_object_object_add(
			f, "parity_bytes",
			json_object_new_uint64(l->fec.parity_bytes));
		json_object_object_add(f, "covered_blocks",
				       json_object_new_uint64(l->fec.blocks));
		json_object_object_add(f, "rounds",
				       json_object_new_uint64(l->fec.rounds));
		json_object_object_add(
			f, "on_hash_device",
			json_object_new_boolean(l->fec.on_hash_device));
		json_object_object_add(o, "fec", f);
	}
	if (root) {
		verity_hex_encode(root, l->geo.digest_size, hex);
		json_object_object_add(o, "root_hash",
				       json_object_new_string(hex));
	}
	return o;
}

const char *cli_verdict_word(int code)
{
	return code == EXIT_OK       ? "ok"
	       : code == EXIT_VERIFY ? "corrupted"
				     : "root hash mismatch";
}

void cli_json_add_counts(void *obj, const struct ht_verify_result *res)
{
	json_object_object_add(obj, "root_hash_matches",
			       json_object_new_boolean(res->root_matches));
	json_object_object_add(obj, "bad_data_blocks",
			       json_object_new_uint64(res->bad_data_blocks));
	json_object_object_add(obj, "bad_hash_blocks",
			       json_object_new_uint64(res->bad_hash_blocks));
	json_object_object_add(obj, "bad_spare_areas",
			       json_object_new_uint64(res->bad_padding));
	json_object_object_add(obj, "unreadable_blocks",
			       json_object_new_uint64(res->unreadable_blocks));
	json_object_object_add(
		obj, "unchecked_data_blocks",
		json_object_new_uint64(res->unchecked_data_blocks));
	json_object_object_add(
		obj, "unchecked_hash_blocks",
		json_object_new_uint64(res->unchecked_hash_blocks));
}

static const char *kind_name(enum ht_failure_kind k)
{
	switch (k) {
	case HT_BAD_DATA_BLOCK:
		return "data";
	case HT_BAD_HASH_BLOCK:
		return "hash";
	case HT_UNREADABLE_DATA:
	case HT_UNREADABLE_HASH:
		return "unreadable";
	default:
		return "padding";
	}
}

void *cli_json_failure(const struct verity_failure *f)
{
	json_object *j = json_object_new_object();

	json_object_object_add(j, "type",
			       json_object_new_string(kind_name(f->kind)));
	json_object_object_add(j, "position",
			       json_object_new_uint64(f->position));
	json_object_object_add(j, "block", json_object_new_uint64(f->block));
	if (f->kind == HT_UNREADABLE_DATA || f->kind == HT_UNREADABLE_HASH)
		json_object_object_add(
			j, "area",
			json_object_new_string(f->kind == HT_UNREADABLE_DATA
						       ? "data"
						       : "hash"));
	if (f->kind != HT_BAD_DATA_BLOCK && f->kind != HT_UNREADABLE_DATA)
		json_object_object_add(j, "level",
				       json_object_new_int((int)f->level));
	return j;
}

static const char *roots_source_word(enum verity_roots_source s)
{
	return s == VERITY_ROOTS_GIVEN       ? "given"
	       : s == VERITY_ROOTS_INFERRED  ? "size"
	       : s == VERITY_ROOTS_DESCRIBED ? "image"
					     : "default";
}

void *cli_json_fec(const struct verity_fec_layout *fl,
		   const struct verity_fec_result *res, void *unrepairable)
{
	json_object *j = json_object_new_object();

	json_object_object_add(j, "roots", json_object_new_int((int)fl->roots));
	json_object_object_add(
		j, "roots_from",
		json_object_new_string(roots_source_word(fl->roots_source)));
	json_object_object_add(j, "offset", json_object_new_uint64(fl->offset));
	json_object_object_add(j, "covered_blocks",
			       json_object_new_uint64(fl->blocks));
	json_object_object_add(j, "rounds", json_object_new_uint64(fl->rounds));
	json_object_object_add(j, "bad_blocks",
			       json_object_new_uint64(res->bad_blocks));
	json_object_object_add(j, "repairable_blocks",
			       json_object_new_uint64(res->repaired));
	json_object_object_add(
		j, "unrepairable_blocks",
		json_object_new_uint64(res->bad_blocks - res->repaired));
	json_object_object_add(j, "stale_parity_codewords",
			       json_object_new_uint64(res->stale_codewords));
	json_object_object_add(j, "stale_parity_rounds",
			       json_object_new_uint64(res->stale_rounds));
	json_object_object_add(j, "unchecked_parity_rounds",
			       json_object_new_uint64(res->unchecked_rounds));
	json_object_object_add(j, "parity_rewrite_limit",
			       json_object_new_uint64(res->rewrite_limit));
	json_object_object_add(j, "passes",
			       json_object_new_uint64(res->passes));
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

void *cli_json_signature(const struct cli_pair *cp,
			 const struct verity_outcome *out)
{
	json_object *j;

	if (cp->avb) {
		if (cp->trust == VERITY_TRUST_UNSIGNED)
			return NULL;
		j = json_object_new_object();
		json_object_object_add(j, "algorithm",
				       cli_json_str(cp->avb_algorithm));
		json_object_object_add(j, "public_key_sha1",
				       cli_json_str(cp->avb_key_sha1));
		json_object_object_add(
			j, "checked",
			json_object_new_boolean(cp->trust ==
						VERITY_TRUST_CHECK));
		json_object_object_add(
			j, "trust", cli_json_str(verity_trust_name(cp->trust)));
		return j;
	}
	/* the trust policy's verdict (verity/trust.h): a signer checked,
	 * or a signature whose signer was not; null when unsigned */
	if (!out->signature_checked && cp->trust != VERITY_TRUST_UNCHECKED)
		return NULL;
	j = json_object_new_object();
	json_object_object_add(j, "file", cli_json_str(cp->signature_path));
	json_object_object_add(j, "checked",
			       json_object_new_boolean(out->signature_checked));
	json_object_object_add(j, "trust",
			       cli_json_str(verity_trust_name(cp->trust)));
	json_object_object_add(j, "signer",
			       out->signature_checked
				       ? cli_json_str(out->sig.signer)
				       : NULL);
	json_object_object_add(
		j, "warning",
		out->sig.warning[0] ? cli_json_str(out->sig.warning) : NULL);
	return j;
}
