/* systemd Discoverable Disk Images: the GPT read, protected partitions
 * found and matched, signature JSON parsed and made, pairs made. */
#include "verity/container/ddi/ddi.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>
#include <openssl/evp.h>

#include "verity/storage/device.h"
#include "verity/tree/superblock.h"
#include "verity/sign/signature.h"
#include "hashtree/libcrypto.h"
#include "verity/container/ddi/jsonc.h"

/* The Discoverable Partitions Specification's types: per architecture,
 * root and usr, each with its -verity and -verity-sig. */
#define ARCH(a, rd, rv, rs, ud, uv, us)                        \
	{                                                      \
		a, {{rd, rv, rs}, {ud, uv, us}},               \
		{                                              \
			{"root-" a, "root-" a "-verity",       \
			 "root-" a "-verity-sig"},             \
			{                                      \
				"usr-" a, "usr-" a "-verity",  \
					"usr-" a "-verity-sig" \
			}                                      \
		}                                              \
	}

static const struct ddi_types {
	const char *arch;
	const char *t[2][3];    /* [role][data, verity, sig] */
	const char *name[2][3]; /* "root-x86-64-verity" */
} types[] = {
	ARCH("x86", "44479540-f297-41b2-9af7-d131d5f0458a",
	     "d13c5d3b-b5d1-422a-b29f-9454fdc89d76",
	     "5996fc05-109c-48de-808b-23fa0830b676",
	     "75250d76-8cc6-458e-bd66-bd47cc81a812",
	     "8f461b0d-14ee-4e81-9aa9-049b6fb97abd",
	     "974a71c0-de41-43c3-be5d-5c5ccd1ad2c0"),
	ARCH("x86-64", "4f68bce3-e8cd-4db1-96e7-fbcaf984b709",
	     "2c7357ed-ebd2-46d9-aec1-23d437ec2bf5",
	     "41092b05-9fc8-4523-994f-2def0408b176",
	     "8484680c-9521-48c6-9c11-b0720656f69e",
	     "77ff5f63-e7b6-4633-acf4-1565b864c0e6",
	     "e7bb33fb-06cf-4e81-8273-e543b413e2e2"),
	ARCH("arm", "69dad710-2ce4-4e3c-b16c-21a1d49abed3",
	     "7386cdf2-203c-47a9-a498-f2ecce45a2d6",
	     "42b0455f-eb11-491d-98d3-56145ba9d037",
	     "7d0359a3-02b3-4f0a-865c-654403e70625",
	     "c215d751-7bcd-4649-be90-6627490a4c05",
	     "d7ff812f-37d1-4902-a810-d76ba57b975a"),
	ARCH("arm64", "b921b045-1df0-41c3-af44-4c6f280d3fae",
	     "df3300ce-d69f-4c92-978c-9bfb0f38d820",
	     "6db69de6-29f4-4758-a7a5-962190f00ce3",
	     "b0e01050-ee5f-4390-949a-9101b17104e9",
	     "6e11a4e7-fbca-4ded-b9e9-e1a512bb664e",
	     "c23ce4ff-44bd-4b00-b2d4-b41b3419e02a"),
	ARCH("ia64", "993d8d3d-f80e-4225-855a-9daf8ed7ea97",
	     "86ed10d5-b607-45bb-8957-d350f23d0571",
	     "e98b36ee-32ba-4882-9b12-0ce14655f46a",
	     "4301d2a6-4e3b-4b2a-bb94-9e0b2c4225ea",
	     "6a491e03-3be7-4545-8e38-83320e0ea880",
	     "8de58bc2-2a43-460d-b14e-a76e4a17b47f"),
	ARCH("loongarch64", "77055800-792c-4f94-b39a-98c91b762bb6",
	     "f3393b22-e9af-4613-a948-9d3bfbd0c535",
	     "5afb67eb-ecc8-4f85-ae8e-ac1e7c50e7d0",
	     "e611c702-575c-4cbe-9a46-434fa0bf7e3f",
	     "f46b2c26-59ae-48f0-9106-c50ed47f673d",
	     "b024f315-d330-444c-8461-44bbde524e99"),
	ARCH("riscv32", "60d5a7fe-8e7d-435c-b714-3dd8162144e1",
	     "ae0253be-1167-4007-ac68-43926c14c5de",
	     "3a112a75-8729-4380-b4cf-764d79934448",
	     "b933fb22-5c3f-4f91-af90-e2bb0fa50702",
	     "cb1ee4e3-8cd0-4136-a0a4-aa61a32e8730",
	     "c3836a13-3137-45ba-b583-b16c50fe5eb4"),
	ARCH("riscv64", "72ec70a6-cf74-40e6-bd49-4bda08e8f224",
	     "b6ed5582-440b-4209-b8da-5ff7c419ea3d",
	     "efe0f087-ea8d-4469-821a-4c2a96a8386a",
	     "beaec34b-8442-439b-a40b-984381ed097d",
	     "8f1056be-9b05-47c4-81d6-be53128e5b54",
	     "d2f9000a-7a18-453f-b5cd-4d32f77a7b32"),
};
#define NTYPES (sizeof(types) / sizeof(types[0]))

enum kind { KIND_DATA, KIND_VERITY, KIND_SIG };

const char *verity_ddi_role_name(enum ddi_role r)
{
	return r == DDI_ROOT ? "root" : "usr";
}

/* The architecture, role and kind of a type UUID: 0, or -1 for others. */
static int classify(const char *type, size_t *arch, enum ddi_role *role,
		    enum kind *kind)
{
	for (size_t a = 0; a < NTYPES; a++)
		for (int r = 0; r < 2; r++)
			for (int k = 0; k < 3; k++)
				if (!strcmp(type, types[a].t[r][k])) {
					*arch = a;
					*role = (enum ddi_role)r;
					*kind = (enum kind)k;
					return 0;
				}
	return -1;
}

const char *verity_ddi_type_name(const char *type_uuid)
{
	enum ddi_role role;
	enum kind kind;
	size_t arch;

	return classify(type_uuid, &arch, &role, &kind)
		       ? NULL
		       : types[arch].name[role][kind];
}

/* The GPT of the opened image: the header at sector 1 of 512 or 4096
 * bytes. 1 when there is none. */
static int read_gpt(const struct verity_device *d, const char *path,
		    struct gpt *g, struct ht_error *err)
{
	static const unsigned sectors[] = {512, 4096};
	uint8_t buf[4096];
	struct gpt_header h;
	uint8_t *entries;
	int r;

	for (size_t i = 0; i < 2; i++) {
		unsigned s = sectors[i];

		if (d->size < 2 * (uint64_t)s ||
		    verity_device_read(d, s, buf, s, NULL) ||
		    !verity_gpt_signature(buf))
			continue;
		if ((r = verity_gpt_header_parse(buf, s, d->size, path, &h,
						 err)))
			return r;
		if (!(entries = malloc((size_t)h.entries * h.entry_size + 1)))
			return ht_fail(err, ENOMEM, "out of memory");
		r = verity_device_read(d, h.entries_lba * s, entries,
				       (size_t)h.entries * h.entry_size, err);
		if (!r)
			r = verity_gpt_entries_parse(&h, entries, path, g, err);
		free(entries);
		return r;
	}
	return 1;
}

int verity_ddi_probe(const char *path)
{
	static const unsigned sectors[] = {512, 4096};
	struct verity_device d;
	uint8_t buf[8];
	int yes = 0;

	if (verity_device_open(&d, path, VERITY_OPEN_READ, NULL))
		return 0;
	for (size_t i = 0; !yes && i < 2; i++)
		yes = d.size >= 2 * (uint64_t)sectors[i] &&
		      !verity_device_read(&d, sectors[i], buf, sizeof(buf),
					  NULL) &&
		      verity_gpt_signature(buf);
	verity_device_close(&d);
	return yes;
}

static int is_lower_hex(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
		      (s[i] >= 'a' && s[i] <= 'f')))
			return 0;
	return 1;
}

/* A string member of obj, or NULL (with the message) when it is missing
 * (and required) or not a string. */
static const char *member(json_object *obj, const char *key, int required,
			  const char *where, int *bad, struct ht_error *err)
{
	json_object *v;

	if (!json_object_object_get_ex(obj, key, &v)) {
		if (required) {
			*bad = ht_fail(err, EINVAL, "%s: no \"%s\" in the JSON",
				       where, key);
		}
		return NULL;
	}
	if (!json_object_is_type(v, json_type_string)) {
		*bad = ht_fail(err, EINVAL, "%s: \"%s\" is not a string", where,
			       key);
		return NULL;
	}
	return json_object_get_string(v);
}

static int base64_der(const char *b64, const char *where, uint8_t **der,
		      size_t *len, struct ht_error *err)
{
	size_t n = strlen(b64), pad = 0;
	uint8_t *out;
	int got;

	if (!n || n % 4 || n > DDI_SIG_JSON_MAX)
		return ht_fail(err, EINVAL,
			       "%s: \"signature\" is not base64 (%zu "
			       "characters)",
			       where, n);
	for (size_t i = 0; i < n; i++) {
		char c = b64[i];

		if (c == '=' && i >= n - 2)
			continue;
		if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
		      (c >= '0' && c <= '9') || c == '+' || c == '/'))
			return ht_fail(err, EINVAL,
				       "%s: \"signature\" is not base64 (a "
				       "'%c' at %zu)",
				       where, c, i);
	}
	pad = (b64[n - 1] == '=') + (b64[n - 2] == '=');
	if ((got = ht_libcrypto_load("the signature's base64", err)))
		return got;
	if (!(out = malloc(n / 4 * 3 + 1)))
		return ht_fail(err, ENOMEM, "out of memory");
	got = EVP_DecodeBlock(out, (const unsigned char *)b64, (int)n);
	if (got < 0 || (size_t)got < pad) {
		free(out);
		return ht_fail(err, EINVAL, "%s: \"signature\" is not base64",
			       where);
	}
	*der = out;
	*len = (size_t)got - pad;
	return 0;
}

/* The top-level object's keys of n bytes of JSON that json-c accepted
 * (which keeps the last of two equal keys, silently): a key given twice
 * is refused, so that no reader of the same bytes sees another rootHash. */
static int no_duplicate_keys(const char *buf, size_t n, const char *where,
			     struct ht_error *err)
{
	char *keys[16];
	size_t nkeys = 0;
	int depth = 0, expect_key = 0, r = 0;

	for (size_t i = 0; !r && i < n; i++) {
		char c = buf[i];

		if (c == '{' || c == '[') {
			expect_key = ++depth == 1 && c == '{';
		} else if (c == '}' || c == ']') {
			depth--;
		} else if (c == ',' && depth == 1) {
			expect_key = 1;
		} else if (c == '"') {
			size_t j = i + 1;
			json_object *k;

			while (j < n && buf[j] != '"')
				j += buf[j] == '\\' ? 2 : 1;
			if (expect_key && depth == 1) {
				char *copy = strndup(buf + i, j + 1 - i);

				k = copy ? json_tokener_parse(copy) : NULL;
				free(copy);
				if (!k || nkeys == 16) {
					json_object_put(k);
					r = ht_fail(err, EINVAL,
						    "%s: more keys than a "
						    "signature has",
						    where);
					break;
				}
				keys[nkeys] = strdup(json_object_get_string(k));
				json_object_put(k);
				if (!keys[nkeys]) {
					r = ht_fail(err, ENOMEM,
						    "out of memory");
					break;
				}
				for (size_t m = 0; m < nkeys; m++)
					if (!strcmp(keys[m], keys[nkeys]))
						r = ht_fail(
							err, EINVAL,
							"%s: the key \"%s\" is "
							"given twice",
							where, keys[nkeys]);
				nkeys++;
				expect_key = 0;
			}
			i = j;
		}
	}
	while (nkeys)
		free(keys[--nkeys]);
	return r;
}

int verity_ddi_sig_json_parse(const uint8_t *buf, size_t len, const char *where,
			      char root_hex[2 * HT_MAX_DIGEST_SIZE + 1],
			      uint8_t **der, size_t *der_len,
			      char fingerprint[65], struct ht_error *err)
{
	size_t n = 0;
	struct json_tokener *tok;
	json_object *obj;
	const char *root, *sig, *fp;
	int bad = 0;

	*der = NULL;
	while (n < len && buf[n])
		n++;
	if (!n)
		return ht_fail(err, EINVAL, "%s: empty (no JSON)", where);
	if (n > DDI_SIG_JSON_MAX)
		return ht_fail(err, EINVAL,
			       "%s: the JSON is over %u bytes (or not "
			       "NUL-padded)",
			       where, DDI_SIG_JSON_MAX);
	for (size_t i = n; i < len; i++)
		if (buf[i])
			return ht_fail(err, EINVAL,
				       "%s: bytes after the JSON's NUL at %zu "
				       "are not NULs",
				       where, n);
	if ((bad = verity_jsonc_load("reading a DDI's signature JSON", err)))
		return bad;
	if (!(tok = json_tokener_new()))
		return ht_fail(err, ENOMEM, "out of memory");
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT |
					    JSON_TOKENER_VALIDATE_UTF8);
	obj = json_tokener_parse_ex(tok, (const char *)buf, (int)n);
	if (!obj || json_tokener_get_error(tok) != json_tokener_success ||
	    json_tokener_get_parse_end(tok) != n) {
		json_tokener_free(tok);
		json_object_put(obj);
		return ht_fail(err, EINVAL, "%s: not a JSON object", where);
	}
	json_tokener_free(tok);
	if (!json_object_is_type(obj, json_type_object)) {
		json_object_put(obj);
		return ht_fail(err, EINVAL, "%s: not a JSON object", where);
	}
	if ((bad = no_duplicate_keys((const char *)buf, n, where, err))) {
		json_object_put(obj);
		return bad;
	}
	root = member(obj, "rootHash", 1, where, &bad, err);
	sig = bad ? NULL : member(obj, "signature", 1, where, &bad, err);
	fp = bad ? NULL
		 : member(obj, "certificateFingerprint", 0, where, &bad, err);
	if (!bad && (!is_lower_hex(root, strlen(root)) ||
		     (strlen(root) != 64 && strlen(root) != 128)))
		bad = ht_fail(err, EINVAL,
			      "%s: \"rootHash\" is not 64 or 128 lowercase hex "
			      "digits",
			      where);
	if (!bad && fp && (strlen(fp) != 64 || !is_lower_hex(fp, 64)))
		bad = ht_fail(err, EINVAL,
			      "%s: \"certificateFingerprint\" is not 64 "
			      "lowercase hex digits",
			      where);
	if (!bad)
		bad = base64_der(sig, where, der, der_len, err);
	if (!bad) {
		snprintf(root_hex, 2 * HT_MAX_DIGEST_SIZE + 1, "%s", root);
		snprintf(fingerprint, 65, "%s", fp ? fp : "");
	}
	json_object_put(obj);
	return bad;
}

int verity_ddi_sig_json_make(const char *root_hex, const char *fingerprint,
			     const uint8_t *der, size_t der_len, char **json,
			     struct ht_error *err)
{
	size_t b64len = 4 * ((der_len + 2) / 3) + 1;
	char *b64 = malloc(b64len), *out;
	size_t len;

	*json = NULL;
	if (!b64)
		return ht_fail(err, ENOMEM, "out of memory");
	EVP_EncodeBlock((unsigned char *)b64, der, (int)der_len);
	len = strlen(root_hex) + strlen(fingerprint) + strlen(b64) + 80;
	if (!(out = malloc(len))) {
		free(b64);
		return ht_fail(err, ENOMEM, "out of memory");
	}
	snprintf(out, len,
		 "{\"rootHash\":\"%s\",\"certificateFingerprint\":\"%s\","
		 "\"signature\":\"%s\"}",
		 root_hex, fingerprint, b64);
	free(b64);
	*json = out;
	return 0;
}

/* The hex of a UUID's 32 digits, in order. */
static void uuid_hex(const char *uuid, char *out)
{
	size_t o = 0;

	for (const char *p = uuid; *p; p++)
		if (*p != '-')
			out[o++] = *p;
	out[o] = 0;
}

static int read_sig(const struct verity_device *d,
		    const struct gpt_partition *p, const char *path,
		    struct ddi_verity *v, char *root_hex, struct ht_error *err)
{
	char where[128];
	size_t len = p->size < 4 * DDI_SIG_JSON_MAX ? (size_t)p->size
						    : 4 * DDI_SIG_JSON_MAX;
	uint8_t *buf = malloc(len + 1);
	int r;

	snprintf(where, sizeof(where), "%s: partition %u (%s)", path, p->index,
		 verity_ddi_type_name(p->type));
	if (!buf)
		return ht_fail(err, ENOMEM, "out of memory");
	r = verity_device_read(d, p->offset, buf, len, err);
	if (!r)
		r = verity_ddi_sig_json_parse(buf, len, where, root_hex,
					      &v->signature, &v->signature_len,
					      v->fingerprint, err);
	free(buf);
	return r;
}

/* The data partitions of v's role and architecture whose UUID is the
 * first half of root_hex (or, root_hex empty, every one). */
static int find_data(const struct gpt *g, size_t arch, enum ddi_role role,
		     const char *first_half, const struct gpt_partition **out)
{
	int n = 0;

	for (size_t i = 0; i < g->nparts; i++) {
		char hex[33];

		if (strcmp(g->part[i].type, types[arch].t[role][KIND_DATA]))
			continue;
		uuid_hex(g->part[i].uuid, hex);
		if (first_half && strcmp(hex, first_half))
			continue;
		if (!n++)
			*out = &g->part[i];
	}
	return n;
}

/* One -verity partition: its data partition, its signature, its root. */
static int match(struct ddi_image *img, const struct verity_device *d,
		 const struct gpt_partition *hash, size_t arch,
		 enum ddi_role role, struct ddi_verity *v, struct ht_error *err)
{
	const struct gpt *g = &img->gpt;
	char half[33], uroot[65], first[33];
	char unmatched_root[2 * HT_MAX_DIGEST_SIZE + 1] = "";
	const struct gpt_partition *data = NULL, *unmatched = NULL;
	int n, r;

	memset(v, 0, sizeof(*v));
	v->role = role;
	v->arch = types[arch].arch;
	v->hash = hash;
	uuid_hex(hash->uuid, half);
	/* the signature partitions of this role name the root hash */
	for (size_t i = 0; i < g->nparts; i++) {
		const struct gpt_partition *p = &g->part[i];
		char root[2 * HT_MAX_DIGEST_SIZE + 1];
		struct ddi_verity tmp = {0};

		if (strcmp(p->type, types[arch].t[role][KIND_SIG]))
			continue;
		if ((r = read_sig(d, p, img->path, &tmp, root, err)))
			return r;
		/* this -verity partition's: the root's second half (of a
		 * sha256 root) is its UUID */
		if (strlen(root) == 64 && strcmp(root + 32, half)) {
			if (!unmatched)
				unmatched = p;
			snprintf(unmatched_root, sizeof(unmatched_root), "%s",
				 unmatched == p ? root : unmatched_root);
			free(tmp.signature);
			continue;
		}
		if (v->sig) {
			free(tmp.signature);
			return ht_fail(err, EINVAL,
				       "%s: partitions %u and %u are both the "
				       "signature of partition %u",
				       img->path, v->sig->index, p->index,
				       hash->index);
		}
		*v = (struct ddi_verity){
			role,          types[arch].arch,  NULL, hash, p, "",
			tmp.signature, tmp.signature_len, ""};
		memcpy(v->fingerprint, tmp.fingerprint, sizeof(v->fingerprint));
		snprintf(v->root_hex, sizeof(v->root_hex), "%s", root);
	}
	/* a signature partition of this role that names no tree is never
	 * passed over as if the image were unsigned */
	if (!v->sig && unmatched)
		return ht_fail(
			err, EINVAL,
			"%s: partition %u (%s): its rootHash %s names no "
			"%s partition (partition %u's UUID is not its "
			"second half)",
			img->path, unmatched->index,
			verity_ddi_type_name(unmatched->type), unmatched_root,
			verity_ddi_type_name(types[arch].t[role][0]),
			hash->index);
	if (v->sig) {
		memcpy(first, v->root_hex, 32);
		first[32] = 0;
		n = find_data(g, arch, role, first, &data);
		if (!n)
			return ht_fail(
				err, EINVAL,
				"%s: partition %u (%s): its rootHash %s "
				"names no %s partition (none has the "
				"UUID of its first half)",
				img->path, v->sig->index,
				verity_ddi_type_name(v->sig->type), v->root_hex,
				verity_ddi_type_name(types[arch].t[role][0]));
	} else {
		n = find_data(g, arch, role, NULL, &data);
		if (n > 1) {
			/* the root hash's first half is unknown without a
			 * signature: each candidate would do */
			return ht_fail(
				err, EINVAL,
				"%s: partition %u (%s): %d %s "
				"partitions could be its data, and no "
				"signature partition names one",
				img->path, hash->index,
				verity_ddi_type_name(hash->type), n,
				verity_ddi_type_name(types[arch].t[role][0]));
		}
		if (!n)
			return ht_fail(
				err, EINVAL,
				"%s: partition %u (%s) has no %s "
				"partition",
				img->path, hash->index,
				verity_ddi_type_name(hash->type),
				verity_ddi_type_name(types[arch].t[role][0]));
		uuid_hex(data->uuid, uroot);
		memcpy(uroot + 32, half, 33);
		snprintf(v->root_hex, sizeof(v->root_hex), "%s", uroot);
	}
	if (n > 1)
		return ht_fail(err, EINVAL,
			       "%s: %d %s partitions have the UUID of the root "
			       "hash's first half",
			       img->path, n,
			       verity_ddi_type_name(types[arch].t[role][0]));
	v->data = data;
	return 0;
}

int verity_ddi_image_read(const char *path, struct ddi_image *img,
			  struct ht_error *err)
{
	struct verity_device d;
	int r;

	memset(img, 0, sizeof(*img));
	img->path = path;
	if ((r = verity_device_open(&d, path, VERITY_OPEN_READ, err)))
		return r;
	img->size = d.size;
	r = read_gpt(&d, path, &img->gpt, err);
	if (r > 0)
		r = ht_fail(err, EINVAL, "%s: no GPT partition table", path);
	if (!r && !(img->v = calloc(img->gpt.nparts + 1, sizeof(*img->v))))
		r = ht_fail(err, ENOMEM, "out of memory");
	for (size_t i = 0; !r && i < img->gpt.nparts; i++) {
		const struct gpt_partition *p = &img->gpt.part[i];
		enum ddi_role role;
		enum kind kind;
		size_t arch;

		if (classify(p->type, &arch, &role, &kind) ||
		    kind != KIND_VERITY)
			continue;
		r = match(img, &d, p, arch, role, &img->v[img->nv], err);
		if (!r)
			img->nv++;
	}
	if (!r && !img->nv)
		r = ht_fail(err, EINVAL,
			    "%s: no -verity partition (root or usr) in its "
			    "GPT",
			    path);
	verity_device_close(&d);
	if (r)
		verity_ddi_image_free(img);
	return r;
}

void verity_ddi_image_free(struct ddi_image *img)
{
	for (size_t i = 0; img->v && i < img->nv; i++)
		free(img->v[i].signature);
	free(img->v);
	img->v = NULL;
	img->nv = 0;
	verity_gpt_free(&img->gpt);
}

int verity_ddi_pair(const struct ddi_image *img, const struct ddi_verity *v,
		    struct verity_pair *pair, struct ht_error *err)
{
	size_t len;
	int r;

	memset(pair, 0, sizeof(*pair));
	pair->data = (struct verity_region){img->path, v->data->offset,
					    v->data->size, NULL};
	pair->hash = (struct verity_region){img->path, v->hash->offset,
					    v->hash->size, NULL};
	verity_params_default(&pair->params);
	if ((r = verity_read_superblock(&pair->hash, &pair->params, err)))
		return r;
	len = ht_digest_size(pair->params.hash_name);
	if (strlen(v->root_hex) != 2 * len ||
	    verity_hex_decode(v->root_hex, pair->root, sizeof(pair->root),
			      &pair->root_size))
		return ht_fail(err, EINVAL,
			       "%s: partition %u (%s): the root hash %s is not "
			       "a %s digest (the tree's)",
			       img->path, v->hash->index,
			       verity_ddi_type_name(v->hash->type), v->root_hex,
			       pair->params.hash_name);
	pair->signature = v->signature;
	pair->signature_size = v->signature_len;
	pair->signature_name = img->path;
	pair->container = VERITY_CONTAINER_DDI;
	pair->signature_found = v->signature != NULL;
	return 0;
}

int verity_ddi_sig_json_sign(const struct verity_signer *vs,
			     const char *root_hex, uint8_t **json, size_t *len,
			     struct ht_error *err)
{
	uint8_t *der = NULL;
	size_t n = 0;
	char fp[65], *made = NULL;
	int r;

	*json = NULL;
	*len = 0;
	if ((r = verity_sign(vs, root_hex, &der, &n, err)))
		return r;
	if (!(r = verity_cert_fingerprint(vs->cert, fp, err)))
		r = verity_ddi_sig_json_make(root_hex, fp, der, n, &made, err);
	free(der);
	if (r)
		return r;
	*json = (uint8_t *)made;
	*len = strlen(made);
	return 0;
}
