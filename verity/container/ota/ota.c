/* An Android A/B OTA package read (verity/container/ota/ota.h). */
#include "verity/container/ota/ota.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verity/container/ota/pbc.h"
#include "verity/storage/crc32.h"
#include "verity/tree/params.h"
#include "ota_metadata.pb-c.h"

int verity_ota_probe(const struct verity_ota_src *src)
{
	struct verity_zip z;
	int yes;

	if (verity_payload_probe(src, 0))
		return 1;
	if (!verity_zip_probe(src) || verity_zip_read(src, &z, NULL))
		return 0;
	yes = verity_zip_find(&z, VERITY_OTA_PAYLOAD) != NULL;
	verity_zip_free(&z);
	return yes;
}

int verity_ota_entry(const struct verity_ota *o, const char *name,
		     char **out, size_t *len, struct ht_error *err)
{
	const struct verity_zip_entry *e = verity_zip_find(&o->zip, name);
	uint8_t *raw = NULL;
	char what[4096 + 64];
	int r;

	*out = NULL;
	if (!e)
		return 0;
	snprintf(what, sizeof(what), "%s: %s", o->src.name, name);
	if (e->method != 0 && e->method != 8)
		return ht_fail(err, EINVAL,
			       "%s: compression method %u: not read (stored "
			       "or deflated only)",
			       what, e->method);
	if (e->csize > VERITY_OTA_MAX_SMALL || e->usize > VERITY_OTA_MAX_SMALL ||
	    (e->method == 0 && e->csize != e->usize))
		return ht_fail(err, EINVAL,
			       "%s: %llu bytes (%llu stored): over %u, or "
			       "sizes that differ for a stored entry",
			       what, (unsigned long long)e->usize,
			       (unsigned long long)e->csize,
			       VERITY_OTA_MAX_SMALL);
	if (!(*out = malloc((size_t)e->usize + 1)) ||
	    (e->method == 8 && !(raw = malloc(e->csize ? (size_t)e->csize : 1)))) {
		r = ht_fail(err, ENOMEM, "out of memory");
		goto fail;
	}
	if ((r = verity_ota_src_read(&o->src, e->data,
				     e->method ? (void *)raw : (void *)*out,
				     (size_t)e->csize, err)) ||
	    (e->method == 8 &&
	     (r = verity_ota_inflate(raw, (size_t)e->csize, (uint8_t *)*out,
				     (size_t)e->usize, what, err))) ||
	    (r = verity_crc32_load("checking an OTA zip's entries", err)))
		goto fail;
	if (verity_crc32(0, *out, (size_t)e->usize) != e->crc) {
		r = ht_fail(err, EINVAL, "%s: bad CRC-32 (%08x, not %08x)",
			    what, verity_crc32(0, *out, (size_t)e->usize),
			    e->crc);
		goto fail;
	}
	(*out)[e->usize] = '\0';
	*len = (size_t)e->usize;
	free(raw);
	return 0;
fail:
	free(raw);
	free(*out);
	*out = NULL;
	return r;
}

static int read_zip(struct verity_ota *o, struct ht_error *err)
{
	const struct verity_zip_entry *p;
	char *md = NULL, what[4096 + 64];
	size_t len = 0;
	int r;

	if ((r = verity_zip_read(&o->src, &o->zip, err)))
		return r;
	if (!(p = verity_zip_find(&o->zip, VERITY_OTA_PAYLOAD)))
		return ht_fail(err, EINVAL,
			       "%s: a zip without payload.bin: not an A/B OTA "
			       "package",
			       o->src.name);
	if (p->method != 0 || p->csize != p->usize)
		return ht_fail(err, EINVAL,
			       "%s: payload.bin is compressed (method %u): "
			       "an OTA package stores it",
			       o->src.name, p->method);
	if ((r = verity_payload_read(&o->src, p->data, p->csize, &o->payload,
				     err)))
		return r;
	if ((r = verity_ota_entry(o, VERITY_OTA_PROPERTIES, &o->properties, &len, err)))
		return r;
	if (o->properties && strlen(o->properties) != len)
		return ht_fail(err, EINVAL, "%s: %s holds a NUL byte",
			       o->src.name, VERITY_OTA_PROPERTIES);
	if ((r = verity_ota_entry(o, VERITY_OTA_METADATA, &md, &len, err)))
		return r;
	if (md) {
		snprintf(what, sizeof(what), "%s: %s", o->src.name, VERITY_OTA_METADATA);
		r = verity_pbc_read(
			&build__tools__releasetools__ota_metadata__descriptor,
			md, len, what, (ProtobufCMessage **)&o->metadata, err);
		free(md);
	}
	return r;
}

int verity_ota_read(const struct verity_ota_src *src, struct verity_ota *o,
		    struct ht_error *err)
{
	int r;

	o->src = *src;
	if (verity_payload_probe(src, 0)) {
		r = verity_payload_read(src, 0, src->size, &o->payload, err);
	} else if (!verity_zip_probe(src)) {
		return ht_fail(err, EINVAL,
			       "%s: not an OTA package: neither a payload "
			       "(magic CrAU at byte 0) nor a zip (an end of "
			       "central directory record at its end)",
			       src->name);
	} else {
		o->is_zip = 1;
		r = read_zip(o, err);
	}
	return r;
}

static int file_read(void *ctx, uint64_t off, void *buf, size_t len,
		     struct ht_error *err)
{
	return verity_device_read(ctx, off, buf, len, err);
}

int verity_ota_open(const char *path, int verify, const char *cert,
		    unsigned threads, struct verity_ota **out,
		    struct ht_error *err)
{
	struct verity_ota_src src;
	struct verity_ota *o;
	int r;

	*out = NULL;
	if (!(o = calloc(1, sizeof(*o))))
		return ht_fail(err, ENOMEM, "out of memory");
	o->dev.fd = -1;
	o->threads = threads ? threads : verity_default_threads();
	if ((r = verity_device_open(&o->dev, path, VERITY_OPEN_READ, err))) {
		free(o);
		return r;
	}
	src.read = file_read;
	src.ctx = &o->dev;
	src.size = o->dev.size;
	src.name = path;
	if ((r = verity_ota_read(&src, o, err)) ||
	    ((verify & 1) && (r = verity_ota_verify(o, cert, err))) ||
	    ((verify & 2) && (r = verity_ota_apply(o, NULL, NULL, NULL, err)))) {
		verity_ota_free(o);
		return r;
	}
	verity_ota_zip_signer(o);
	if ((r = verity_ota_facts(o, err))) {
		verity_ota_free(o);
		return r;
	}
	*out = o;
	return 0;
}

int verity_ota_probe_path(const char *path)
{
	struct verity_device d;
	struct verity_ota_src src;
	int yes;

	if (verity_device_open(&d, path, VERITY_OPEN_READ, NULL))
		return 0;
	src.read = file_read;
	src.ctx = &d;
	src.size = d.size;
	src.name = path;
	yes = verity_ota_probe(&src);
	verity_device_close(&d);
	return yes;
}

void verity_ota_free(struct verity_ota *o)
{
	if (!o)
		return;
	for (size_t i = 0; i < o->nf; i++) {
		free(o->f[i].key);
		free(o->f[i].value);
	}
	free(o->f);
	for (size_t i = 0; o->parts && i < o->nparts; i++)
		free(o->parts[i].path);
	free(o->parts);
	free(o->properties);
	free(o->signer);
	free(o->zip_signer);
	verity_pbc_free(o->metadata);
	verity_payload_free(&o->payload);
	verity_zip_free(&o->zip);
	if (o->dev.fd >= 0)
		verity_device_close(&o->dev);
	free(o);
}
