/* An Android A/B OTA payload (verity/container/ota/payload.h). */
#include "verity/container/ota/payload.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const op_names[VERITY_PAYLOAD_OP_TYPES] = {
	"REPLACE",      "REPLACE_BZ",      "MOVE",
	"BSDIFF",       "SOURCE_COPY",     "SOURCE_BSDIFF",
	"ZERO",         "DISCARD",         "REPLACE_XZ",
	"PUFFDIFF",     "BROTLI_BSDIFF",   "ZUCCHINI",
	"LZ4DIFF_BSDIFF", "LZ4DIFF_PUFFDIFF", "REPLACE_ZSTD",
};

const char *verity_payload_op_name(unsigned type)
{
	return type < VERITY_PAYLOAD_OP_TYPES ? op_names[type] : NULL;
}

static uint64_t be64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}

int verity_payload_probe(const struct verity_ota_src *src, uint64_t at)
{
	uint8_t m[4];

	return !verity_ota_src_read(src, at, m, 4, NULL) && !memcmp(m, "CrAU", 4);
}

void verity_payload_free(struct verity_payload *p)
{
	if (!p)
		return;
	verity_pbc_free((ProtobufCMessage *)p->m);
	verity_pbc_free((ProtobufCMessage *)p->metadata_sig);
	verity_pbc_free((ProtobufCMessage *)p->payload_sig);
	memset(p, 0, sizeof(*p));
}

/* len bytes at off of the payload unpacked as desc into *m. */
static int read_message(const struct verity_ota_src *src, uint64_t off,
			uint64_t len, const ProtobufCMessageDescriptor *desc,
			const char *what, ProtobufCMessage **m,
			struct ht_error *err)
{
	uint8_t *buf = malloc(len ? (size_t)len : 1);
	char name[4096 + 64];
	int r;

	if (!buf)
		return ht_fail(err, ENOMEM, "out of memory");
	snprintf(name, sizeof(name), "%s: the %s", src->name, what);
	if (!(r = verity_ota_src_read(src, off, buf, (size_t)len, err)))
		r = verity_pbc_read(desc, buf, (size_t)len, name, m, err);
	free(buf);
	return r;
}

/* A hash field is absent or a SHA-256 digest. */
static int check_hash(const struct verity_ota_src *src, const char *part,
		      size_t op, const char *field,
		      const ProtobufCBinaryData *h, struct ht_error *err)
{
	if (h->len == 0 || h->len == 32)
		return 0;
	if (op == SIZE_MAX)
		return ht_fail(err, EINVAL,
			       "%s: partition %s: %s is %zu bytes, not a "
			       "SHA-256 digest",
			       src->name, part, field, h->len);
	return ht_fail(err, EINVAL,
		       "%s: partition %s: operation %zu: %s is %zu bytes, "
		       "not a SHA-256 digest",
		       src->name, part, op, field, h->len);
}

/* Extents within a partition of blocks blocks (UINT64_MAX: unknown):
 * no overflow, and a start of 2^64-1 (a sparse hole) allowed. */
static int check_extents(const struct verity_ota_src *src, const char *part,
			 size_t op, const char *field,
			 ChromeosUpdateEngine__Extent *const *x, size_t n,
			 uint64_t blocks, struct ht_error *err)
{
	for (size_t i = 0; i < n; i++) {
		uint64_t s = x[i]->start_block, c = x[i]->num_blocks;

		if (s == UINT64_MAX)
			continue;
		if (c > UINT64_MAX - s || s + c > blocks)
			return ht_fail(err, EINVAL,
				       "%s: partition %s: operation %zu: "
				       "%s[%zu] (blocks %llu+%llu) goes past "
				       "the partition's %llu blocks",
				       src->name, part, op, field, i,
				       (unsigned long long)s,
				       (unsigned long long)c,
				       (unsigned long long)blocks);
	}
	return 0;
}

/* A verity extent (hash_tree_*, fec_*) within the new partition. */
static int check_verity(const struct verity_ota_src *src, const char *part,
			const char *field,
			const ChromeosUpdateEngine__Extent *x, uint64_t blocks,
			struct ht_error *err)
{
	if (!x)
		return 0;
	if (x->num_blocks > UINT64_MAX - x->start_block ||
	    x->start_block + x->num_blocks > blocks)
		return ht_fail(err, EINVAL,
			       "%s: partition %s: %s (blocks %llu+%llu) goes "
			       "past the partition's %llu blocks",
			       src->name, part, field,
			       (unsigned long long)x->start_block,
			       (unsigned long long)x->num_blocks,
			       (unsigned long long)blocks);
	return 0;
}

/* The blocks of a partition of size bytes (UINT64_MAX: no info). */
static uint64_t blocks_of(const ChromeosUpdateEngine__PartitionInfo *pi,
			  uint32_t bs)
{
	if (!pi || !pi->has_size)
		return UINT64_MAX;
	return pi->size / bs + (pi->size % bs != 0);
}

static int check_partition(const struct verity_ota_src *src,
			   const struct verity_payload *p,
			   const ChromeosUpdateEngine__PartitionUpdate *u,
			   uint64_t blob_end, struct ht_error *err)
{
	const char *name = u->partition_name;
	uint64_t nb = blocks_of(u->new_partition_info, p->block_size);
	uint64_t ob = blocks_of(u->old_partition_info, p->block_size);
	int r;

	if (!name[0])
		return ht_fail(err, EINVAL, "%s: a partition with an empty name",
			       src->name);
	if ((u->new_partition_info &&
	     (r = check_hash(src, name, SIZE_MAX, "new_partition_info.hash",
			     &u->new_partition_info->hash, err))) ||
	    (u->old_partition_info &&
	     (r = check_hash(src, name, SIZE_MAX, "old_partition_info.hash",
			     &u->old_partition_info->hash, err))))
		return r;
	if ((r = check_verity(src, name, "hash_tree_data_extent",
			      u->hash_tree_data_extent, nb, err)) ||
	    (r = check_verity(src, name, "hash_tree_extent",
			      u->hash_tree_extent, nb, err)) ||
	    (r = check_verity(src, name, "fec_data_extent",
			      u->fec_data_extent, nb, err)) ||
	    (r = check_verity(src, name, "fec_extent", u->fec_extent, nb,
			      err)))
		return r;
	for (size_t i = 0; i < u->n_operations; i++) {
		const ChromeosUpdateEngine__InstallOperation *o =
			u->operations[i];
		uint64_t off = o->has_data_offset ? o->data_offset : 0;
		uint64_t len = o->has_data_length ? o->data_length : 0;

		if (off > blob_end || len > blob_end - off)
			return ht_fail(err, EINVAL,
				       "%s: partition %s: operation %zu: its "
				       "data (data_offset %llu, data_length "
				       "%llu) goes past the data blobs' %llu "
				       "bytes",
				       src->name, name, i,
				       (unsigned long long)off,
				       (unsigned long long)len,
				       (unsigned long long)blob_end);
		if ((r = check_hash(src, name, i, "data_sha256_hash",
				    &o->data_sha256_hash, err)) ||
		    (r = check_hash(src, name, i, "src_sha256_hash",
				    &o->src_sha256_hash, err)) ||
		    (r = check_extents(src, name, i, "dst_extents",
				       o->dst_extents, o->n_dst_extents, nb,
				       err)) ||
		    (r = check_extents(src, name, i, "src_extents",
				       o->src_extents, o->n_src_extents, ob,
				       err)))
			return r;
	}
	return 0;
}

static int check_manifest(const struct verity_ota_src *src,
			  struct verity_payload *p, struct ht_error *err)
{
	const verity_manifest *m = p->m;
	uint64_t room = p->size - p->blobs, blob_end = room;
	int r;

	p->block_size = m->block_size;
	if (p->block_size < 512 || p->block_size > (1u << 20) ||
	    (p->block_size & (p->block_size - 1)))
		return ht_fail(err, EINVAL,
			       "%s: block_size %u: not a power of 2 from 512 "
			       "to 1048576",
			       src->name, p->block_size);
	if (m->has_signatures_offset || m->has_signatures_size) {
		uint64_t off = m->signatures_offset, len = m->signatures_size;

		if (off > room || len > room - off)
			return ht_fail(err, EINVAL,
				       "%s: the payload signature "
				       "(signatures_offset %llu, "
				       "signatures_size %llu) goes past the "
				       "payload's end (%llu bytes of data)",
				       src->name, (unsigned long long)off,
				       (unsigned long long)len,
				       (unsigned long long)room);
		if (len > VERITY_PAYLOAD_MAX_SIGS)
			return ht_fail(err, EINVAL,
				       "%s: signatures_size %llu: over %u "
				       "bytes, refused",
				       src->name, (unsigned long long)len,
				       VERITY_PAYLOAD_MAX_SIGS);
		blob_end = off;
		p->ends_file = off + len == room;
		if (len &&
		    (r = read_message(
			     src, p->at + p->blobs + off, len,
			     &chromeos_update_engine__signatures__descriptor,
			     "payload signature",
			     (ProtobufCMessage **)&p->payload_sig, err)))
			return r;
	}
	for (size_t i = 0; i < m->n_partitions; i++)
		if ((r = check_partition(src, p, m->partitions[i], blob_end,
					 err)))
			return r;
	return 0;
}

int verity_payload_read(const struct verity_ota_src *src, uint64_t at,
			uint64_t size, struct verity_payload *p,
			struct ht_error *err)
{
	uint8_t h[VERITY_PAYLOAD_HEADER];
	int r;

	memset(p, 0, sizeof(*p));
	if (at > src->size || size > src->size - at)
		return ht_fail(err, EINVAL, "%s: the payload goes past the end",
			       src->name);
	p->at = at;
	p->size = size;
	if (size < VERITY_PAYLOAD_HEADER)
		return ht_fail(err, EINVAL,
			       "%s: a payload of %llu bytes: shorter than its "
			       "%u-byte header",
			       src->name, (unsigned long long)size,
			       VERITY_PAYLOAD_HEADER);
	if ((r = verity_ota_src_read(src, at, h, sizeof(h), err)))
		return r;
	if (memcmp(h, "CrAU", 4))
		return ht_fail(err, EINVAL,
			       "%s: not an OTA payload: no magic CrAU at its "
			       "start",
			       src->name);
	p->major = be64(h + 4);
	p->manifest_size = be64(h + 12);
	p->metadata_signature_size = (uint32_t)h[20] << 24 |
				     (uint32_t)h[21] << 16 |
				     (uint32_t)h[22] << 8 | h[23];
	if (p->major != 2)
		return ht_fail(err, EINVAL,
			       "%s: payload major version %llu: only 2 is read",
			       src->name, (unsigned long long)p->major);
	if (p->manifest_size > VERITY_PAYLOAD_MAX_MANIFEST)
		return ht_fail(err, EINVAL,
			       "%s: manifest_size %llu: over %u MiB, refused",
			       src->name, (unsigned long long)p->manifest_size,
			       VERITY_PAYLOAD_MAX_MANIFEST >> 20);
	if (p->manifest_size > size - VERITY_PAYLOAD_HEADER)
		return ht_fail(err, EINVAL,
			       "%s: manifest_size %llu: past the payload's "
			       "end (%llu bytes)",
			       src->name, (unsigned long long)p->manifest_size,
			       (unsigned long long)size);
	p->metadata_size = VERITY_PAYLOAD_HEADER + p->manifest_size;
	if (p->metadata_signature_size > VERITY_PAYLOAD_MAX_SIGS ||
	    p->metadata_signature_size > size - p->metadata_size)
		return ht_fail(err, EINVAL,
			       "%s: metadata_signature_size %u: past the "
			       "payload's end or over %u bytes",
			       src->name, p->metadata_signature_size,
			       VERITY_PAYLOAD_MAX_SIGS);
	p->blobs = p->metadata_size + p->metadata_signature_size;
	if ((r = read_message(
		     src, at + VERITY_PAYLOAD_HEADER, p->manifest_size,
		     &chromeos_update_engine__delta_archive_manifest__descriptor,
		     "manifest", (ProtobufCMessage **)&p->m, err)))
		goto fail;
	if (p->metadata_signature_size &&
	    (r = read_message(
		     src, at + p->metadata_size, p->metadata_signature_size,
		     &chromeos_update_engine__signatures__descriptor,
		     "metadata signature",
		     (ProtobufCMessage **)&p->metadata_sig, err)))
		goto fail;
	if ((r = check_manifest(src, p, err)))
		goto fail;
	return 0;
fail:
	verity_payload_free(p);
	return r;
}
