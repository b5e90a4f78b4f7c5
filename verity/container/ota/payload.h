/* An Android A/B OTA payload (payload.bin; docs/ota.md): the 24-byte
 * header (`CrAU`, major 2, the manifest's and the metadata signature's sizes), the
 * manifest (DeltaArchiveManifest, unpacked by libprotobuf-c from the
 * generated update_metadata.pb-c.h), the metadata signature and the
 * payload signature (Signatures messages). Every size, offset and
 * extent is checked before use: a message names the field. */
#ifndef FV_CONTAINER_OTA_PAYLOAD_H
#define FV_CONTAINER_OTA_PAYLOAD_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stdint.h>

#include "verity/container/ota/pbc.h"
#include "update_metadata.pb-c.h"
#include "verity/container/ota/zip.h"

#define VERITY_PAYLOAD_HEADER       24
#define VERITY_PAYLOAD_MAX_MANIFEST (16u << 20) /* as avbroot */
#define VERITY_PAYLOAD_MAX_SIGS     (1u << 20)  /* a Signatures message */
#define VERITY_PAYLOAD_OP_TYPES     15          /* REPLACE .. REPLACE_ZSTD */

typedef ChromeosUpdateEngine__DeltaArchiveManifest verity_manifest;
typedef ChromeosUpdateEngine__Signatures verity_signatures;

struct verity_payload {
	uint64_t at, size; /* where in the source, its bytes */
	uint64_t major, manifest_size;
	uint32_t metadata_signature_size;
	uint64_t metadata_size; /* 24 + manifest_size: METADATA_SIZE */
	uint64_t blobs;         /* M: where data_offset counts from */
	uint32_t block_size;
	verity_manifest *m;
	verity_signatures *metadata_sig, *payload_sig; /* NULL: none */
	int ends_file; /* the payload signature ends the payload */
};

/* 1 when src has a payload's magic at at. */
int verity_payload_probe(const struct verity_ota_src *src, uint64_t at);
/* The payload of size bytes at at of src into p (verity_payload_free):
 * -EINVAL naming the field, -ENOMEM, -ENOSYS (no libprotobuf-c), -EIO. */
int verity_payload_read(const struct verity_ota_src *src, uint64_t at,
			uint64_t size, struct verity_payload *p,
			struct ht_error *err);
void verity_payload_free(struct verity_payload *p);
/* An operation type's name ("REPLACE_XZ"), NULL for an unknown one. */
const char *verity_payload_op_name(unsigned type);

#endif
