/* The facts of an OTA package (verity/container/ota/ota.h,
 * verity_ota_facts): what it holds, in order, as a JSON document's
 * events. */
#include "verity/container/ota/ota.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verity/container/ota/pbc.h"
#include "ota_metadata.pb-c.h"

typedef Build__Tools__Releasetools__OtaMetadata ota_metadata;
typedef Build__Tools__Releasetools__DeviceState device_state;
typedef ChromeosUpdateEngine__PartitionUpdate partition_update;

static void add(struct verity_ota *o, int type, const char *key,
		const char *value)
{
	struct verity_ota_fact *f;

	if (o->nomem)
		return;
	if (o->nf == o->cap) {
		size_t cap = o->cap ? 2 * o->cap : 64;

		if (cap > VERITY_OTA_MAX_FACTS ||
		    !(f = realloc(o->f, cap * sizeof(*f)))) {
			o->nomem = 1;
			return;
		}
		o->f = f;
		o->cap = cap;
	}
	f = &o->f[o->nf];
	f->type = type;
	f->key = strdup(key ? key : "");
	f->value = strdup(value ? value : "");
	if (!f->key || !f->value) {
		free(f->key);
		free(f->value);
		o->nomem = 1;
		return;
	}
	o->nf++;
}

static void add_str(struct verity_ota *o, const char *key, const char *v)
{
	add(o, VERITY_FACT_STRING, key, v);
}

static void add_u64(struct verity_ota *o, const char *key, uint64_t v)
{
	char b[24];

	snprintf(b, sizeof(b), "%" PRIu64, v);
	add(o, VERITY_FACT_NUMBER, key, b);
}

static void add_i64(struct verity_ota *o, const char *key, int64_t v)
{
	char b[24];

	snprintf(b, sizeof(b), "%" PRId64, v);
	add(o, VERITY_FACT_NUMBER, key, b);
}

static void add_bool(struct verity_ota *o, const char *key, int v)
{
	add(o, VERITY_FACT_BOOL, key, v ? "true" : "false");
}

static void add_hex(struct verity_ota *o, const char *key,
		    const ProtobufCBinaryData *d)
{
	char *h = malloc(2 * d->len + 1);

	if (!h) {
		o->nomem = 1;
		return;
	}
	for (size_t i = 0; i < d->len; i++)
		snprintf(h + 2 * i, 3, "%02x", d->data[i]);
	h[2 * d->len] = '\0';
	add_str(o, key, h);
	free(h);
}

static void begin(struct verity_ota *o, const char *key)
{
	add(o, VERITY_FACT_OBJECT, key, NULL);
}

static void end(struct verity_ota *o)
{
	add(o, VERITY_FACT_END, NULL, NULL);
}

static void begin_array(struct verity_ota *o, const char *key)
{
	add(o, VERITY_FACT_ARRAY, key, NULL);
}

static void end_array(struct verity_ota *o)
{
	add(o, VERITY_FACT_END_ARRAY, NULL, NULL);
}

static void add_strings(struct verity_ota *o, const char *key, char **s,
			size_t n)
{
	begin_array(o, key);
	for (size_t i = 0; i < n; i++)
		add_str(o, NULL, s[i]);
	end_array(o);
}

/* An extent as [start_block, num_blocks]. */
static void add_extent(struct verity_ota *o, const char *key,
		       const ChromeosUpdateEngine__Extent *x)
{
	if (!x)
		return;
	begin_array(o, key);
	add_u64(o, NULL, x->start_block);
	add_u64(o, NULL, x->num_blocks);
	end_array(o);
}

static void add_signatures(struct verity_ota *o, const char *key,
			   const verity_signatures *s)
{
	begin_array(o, key);
	for (size_t i = 0; s && i < s->n_signatures; i++) {
		const ChromeosUpdateEngine__Signatures__Signature *g =
			s->signatures[i];

		begin(o, NULL);
		add_u64(o, "size", g->has_data ? g->data.len : 0);
		if (g->has_unpadded_signature_size)
			add_u64(o, "unpadded_size", g->unpadded_signature_size);
		end(o);
	}
	end_array(o);
}

static void add_partition(struct verity_ota *o, const partition_update *u)
{
	uint64_t counts[VERITY_PAYLOAD_OP_TYPES + 1] = {0}, data = 0;

	begin(o, NULL);
	add_str(o, "name", u->partition_name);
	if (u->new_partition_info) {
		if (u->new_partition_info->has_size)
			add_u64(o, "new_size", u->new_partition_info->size);
		if (u->new_partition_info->has_hash)
			add_hex(o, "new_sha256", &u->new_partition_info->hash);
	}
	if (u->old_partition_info) {
		if (u->old_partition_info->has_size)
			add_u64(o, "old_size", u->old_partition_info->size);
		if (u->old_partition_info->has_hash)
			add_hex(o, "old_sha256", &u->old_partition_info->hash);
	}
	if (u->version && u->version[0])
		add_str(o, "version", u->version);
	if (u->filesystem_type && u->filesystem_type[0])
		add_str(o, "filesystem_type", u->filesystem_type);
	if (u->has_run_postinstall)
		add_bool(o, "run_postinstall", u->run_postinstall);
	add_u64(o, "operations", u->n_operations);
	for (size_t i = 0; i < u->n_operations; i++) {
		unsigned t = (unsigned)u->operations[i]->type;

		counts[t < VERITY_PAYLOAD_OP_TYPES ? t
						   : VERITY_PAYLOAD_OP_TYPES]++;
		if (u->operations[i]->has_data_length)
			data += u->operations[i]->data_length;
	}
	begin(o, "operation_types");
	for (unsigned t = 0; t <= VERITY_PAYLOAD_OP_TYPES; t++)
		if (counts[t])
			add_u64(o,
				t < VERITY_PAYLOAD_OP_TYPES
					? verity_payload_op_name(t)
					: "unknown",
				counts[t]);
	end(o);
	add_u64(o, "data_bytes", data);
	add_extent(o, "hash_tree_data_extent", u->hash_tree_data_extent);
	add_extent(o, "hash_tree_extent", u->hash_tree_extent);
	if (u->hash_tree_algorithm && u->hash_tree_algorithm[0])
		add_str(o, "hash_tree_algorithm", u->hash_tree_algorithm);
	if (u->has_hash_tree_salt)
		add_hex(o, "hash_tree_salt", &u->hash_tree_salt);
	add_extent(o, "fec_data_extent", u->fec_data_extent);
	add_extent(o, "fec_extent", u->fec_extent);
	if (u->fec_extent || u->has_fec_roots)
		add_u64(o, "fec_roots", u->fec_roots);
	if (u->n_merge_operations)
		add_u64(o, "merge_operations", u->n_merge_operations);
	if (u->has_estimate_cow_size)
		add_u64(o, "estimate_cow_size", u->estimate_cow_size);
	end(o);
}

static void add_dynamic(struct verity_ota *o,
			const ChromeosUpdateEngine__DynamicPartitionMetadata *d)
{
	if (!d)
		return;
	begin(o, "dynamic_partitions");
	begin_array(o, "groups");
	for (size_t i = 0; i < d->n_groups; i++) {
		const ChromeosUpdateEngine__DynamicPartitionGroup *g =
			d->groups[i];

		begin(o, NULL);
		add_str(o, "name", g->name);
		if (g->has_size)
			add_u64(o, "size", g->size);
		add_strings(o, "partitions", g->partition_names,
			    g->n_partition_names);
		end(o);
	}
	end_array(o);
	if (d->has_snapshot_enabled)
		add_bool(o, "snapshot_enabled", d->snapshot_enabled);
	if (d->has_vabc_enabled)
		add_bool(o, "vabc_enabled", d->vabc_enabled);
	if (d->vabc_compression_param && d->vabc_compression_param[0])
		add_str(o, "vabc_compression_param",
			d->vabc_compression_param);
	if (d->has_cow_version)
		add_u64(o, "cow_version", d->cow_version);
	if (d->has_compression_factor)
		add_u64(o, "compression_factor", d->compression_factor);
	if (d->has_disable_ublk)
		add_bool(o, "disable_ublk", d->disable_ublk);
	end(o);
}

static const char *payload_kind(const struct verity_payload *p)
{
	if (p->m->has_partial_update && p->m->partial_update)
		return "partial";
	for (size_t i = 0; i < p->m->n_partitions; i++)
		if (p->m->partitions[i]->old_partition_info)
			return "delta";
	return "full";
}

static void add_payload(struct verity_ota *o)
{
	const struct verity_payload *p = &o->payload;
	const verity_manifest *m = p->m;

	begin(o, "payload");
	add_u64(o, "offset", p->at);
	add_u64(o, "size", p->size);
	add_u64(o, "major", p->major);
	add_u64(o, "minor", m->minor_version);
	add_str(o, "type", payload_kind(p));
	add_u64(o, "block_size", p->block_size);
	add_u64(o, "manifest_size", p->manifest_size);
	add_u64(o, "metadata_size", p->metadata_size);
	add_u64(o, "metadata_signature_size", p->metadata_signature_size);
	add_u64(o, "data_offset", p->blobs);
	if (m->has_signatures_offset || m->has_signatures_size) {
		add_u64(o, "signatures_offset", m->signatures_offset);
		add_u64(o, "signatures_size", m->signatures_size);
		add_bool(o, "signature_ends_payload", p->ends_file);
	}
	if (m->has_max_timestamp)
		add_i64(o, "max_timestamp", m->max_timestamp);
	if (m->security_patch_level && m->security_patch_level[0])
		add_str(o, "security_patch_level", m->security_patch_level);
	add_signatures(o, "metadata_signatures", p->metadata_sig);
	add_signatures(o, "payload_signatures", p->payload_sig);
	begin_array(o, "partitions");
	for (size_t i = 0; i < m->n_partitions; i++)
		add_partition(o, m->partitions[i]);
	end_array(o);
	add_dynamic(o, m->dynamic_partition_metadata);
	if (m->n_apex_info) {
		begin_array(o, "apex");
		for (size_t i = 0; i < m->n_apex_info; i++) {
			begin(o, NULL);
			add_str(o, "package_name",
				m->apex_info[i]->package_name);
			if (m->apex_info[i]->has_version)
				add_i64(o, "version", m->apex_info[i]->version);
			end(o);
		}
		end_array(o);
	}
	end(o);
}

/* payload_properties.txt's KEY=VALUE lines. */
static void add_properties(struct verity_ota *o)
{
	char *s = o->properties;

	if (!s)
		return;
	begin(o, "properties");
	while (*s) {
		char *nl = strchr(s, '\n'), *eq;

		if (nl)
			*nl = '\0';
		if ((eq = strchr(s, '='))) {
			*eq = '\0';
			add_str(o, s, eq + 1);
			*eq = '=';
		} else if (*s) {
			add_str(o, s, "");
		}
		if (!nl)
			break;
		*nl = '\n';
		s = nl + 1;
	}
	end(o);
}

static void add_state(struct verity_ota *o, const char *key,
		      const device_state *d)
{
	if (!d)
		return;
	begin(o, key);
	add_strings(o, "device", d->device, d->n_device);
	add_strings(o, "build", d->build, d->n_build);
	if (d->build_incremental && d->build_incremental[0])
		add_str(o, "build_incremental", d->build_incremental);
	if (d->timestamp)
		add_i64(o, "timestamp", d->timestamp);
	if (d->sdk_level && d->sdk_level[0])
		add_str(o, "sdk_level", d->sdk_level);
	if (d->security_patch_level && d->security_patch_level[0])
		add_str(o, "security_patch_level", d->security_patch_level);
	end(o);
}

static void add_metadata(struct verity_ota *o)
{
	static const char *const types[] = {"UNKNOWN", "AB", "BLOCK", "BRICK"};
	const ota_metadata *m = o->metadata;

	if (!m)
		return;
	begin(o, "metadata");
	if ((unsigned)m->type < 4)
		add_str(o, "type", types[m->type]);
	else
		add_i64(o, "type", m->type);
	add_bool(o, "wipe", m->wipe);
	add_bool(o, "downgrade", m->downgrade);
	add_bool(o, "spl_downgrade", m->spl_downgrade);
	if (m->required_cache)
		add_i64(o, "required_cache", m->required_cache);
	add_state(o, "precondition", m->precondition);
	add_state(o, "postcondition", m->postcondition);
	/* the values as written, less the spaces that pad them */
	begin(o, "property_files");
	for (size_t i = 0; i < m->n_property_files; i++) {
		char *v = m->property_files[i]->value;
		size_t n = strlen(v);

		while (n && v[n - 1] == ' ')
			n--;
		if ((v = strndup(v, n))) {
			add_str(o, m->property_files[i]->key, v);
			free(v);
		} else {
			o->nomem = 1;
		}
	}
	end(o);
	end(o);
}

static void add_zip(struct verity_ota *o)
{
	const struct verity_zip *z = &o->zip;

	begin(o, "zip");
	add_u64(o, "size", o->src.size);
	add_u64(o, "central_directory", z->cd);
	add_u64(o, "comment_size", z->comment_len);
	begin_array(o, "entries");
	for (size_t i = 0; i < z->n; i++) {
		begin(o, NULL);
		add_str(o, "name", z->e[i].name);
		add_u64(o, "offset", z->e[i].data);
		add_u64(o, "size", z->e[i].csize);
		add_str(o, "method", z->e[i].method == 0   ? "stored"
				     : z->e[i].method == 8 ? "deflated"
							   : "other");
		end(o);
	}
	end_array(o);
	if (z->signature) {
		begin(o, "signature");
		add_u64(o, "signed_bytes", z->signed_len);
		add_u64(o, "cms_offset", z->cms);
		add_u64(o, "cms_size", z->cms_len);
		if (o->zip_signer)
			add_str(o, "signer", o->zip_signer);
		end(o);
	}
	add_bool(o, "otacert", verity_zip_find(z, VERITY_OTA_OTACERT) != NULL);
	end(o);
}

static const char *verdict_word(enum verity_ota_verdict v)
{
	static const char trailing[] = "bad (bytes after the payload "
				       "signature, which it does not cover)";
	static const char *const w[] = {"none", "placeholder (not signed)",
					"good", "bad", trailing};

	return w[v];
}

/* What verity_ota_apply found, each partition's. */
static void add_images(struct verity_ota *o)
{
	begin_array(o, "images");
	for (size_t i = 0; i < o->nparts; i++) {
		const struct verity_ota_part *p = &o->parts[i];

		begin(o, NULL);
		add_str(o, "name", p->name);
		add_str(o, "result", p->verdict);
		add_u64(o, "operations", p->ops);
		if (p->path)
			add_str(o, "path", p->path);
		end(o);
	}
	end_array(o);
	if (o->unhashed)
		add_u64(o, "operations_without_data_hash", o->unhashed);
}

static int parts_ok(const struct verity_ota *o)
{
	for (size_t i = 0; i < o->nparts; i++)
		if (strcmp(o->parts[i].verdict, "good"))
			return 0;
	return 1;
}

static void add_extract(struct verity_ota *o)
{
	begin(o, "extract");
	add_str(o, "result", parts_ok(o) ? "ok" : "bad");
	add_images(o);
	end(o);
}

static void add_verify(struct verity_ota *o)
{
	static const char *const zip_keys[VERITY_OTA_ZIP_CHECKS] = {
		"whole_file_signature", "otacert", "properties",
		"property_files"};
	int ok = o->metadata_verdict == VERITY_OTA_SIG_GOOD &&
		 o->payload_verdict == VERITY_OTA_SIG_GOOD;

	for (int i = 0; o->is_zip && i < VERITY_OTA_ZIP_CHECKS; i++)
		ok = ok && !strcmp(o->zip_check[i], "good");
	ok = ok && (!o->applied || parts_ok(o));
	begin(o, "verify");
	add_str(o, "result", ok ? "ok" : "bad");
	add_str(o, "trust", o->trusted ? "checked" : "not checked");
	add_str(o, "key", o->key_kind);
	if (o->signer)
		add_str(o, "signer", o->signer);
	add_str(o, "metadata_signature", verdict_word(o->metadata_verdict));
	add_str(o, "payload_signature", verdict_word(o->payload_verdict));
	for (int i = 0; o->is_zip && i < VERITY_OTA_ZIP_CHECKS; i++) {
		add_str(o, zip_keys[i], o->zip_check[i]);
		if (i == VERITY_OTA_ZIP_SIGNATURE && o->zip_digest[0])
			add_str(o, "whole_file_digest", o->zip_digest);
	}
	if (o->applied)
		add_images(o);
	end(o);
}

int verity_ota_facts(struct verity_ota *o, struct ht_error *err)
{
	for (size_t i = 0; i < o->nf; i++) {
		free(o->f[i].key);
		free(o->f[i].value);
	}
	o->nf = 0;
	o->nomem = 0;
	begin(o, NULL);
	add_str(o, "file", o->src.name);
	add_str(o, "kind", o->is_zip ? "zip" : "payload");
	add_payload(o);
	add_properties(o);
	add_metadata(o);
	if (o->is_zip)
		add_zip(o);
	if (o->verified)
		add_verify(o);
	else if (o->applied)
		add_extract(o);
	end(o);
	if (o->nomem)
		return ht_fail(err, ENOMEM, "out of memory");
	return 0;
}
