/* What info_image shows of an Android image (verity/android/avbshow.h;
 * docs/android.md): avbtool's text, line for line, or the --json
 * document, each from the vbmeta as read. */
#include "verity/android/avbshow.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "verity/android/request.h"
#include "verity/storage/device.h"

/* A name as the text shows it (odd bytes \xNN): lasts the statement. */
#define NAME(p, n) ht_name_shown((p), (n), (char[4 * 256 + 8]){0}, 4 * 256 + 8)

void verity_android_hex(FILE *f, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%02x", p[i]);
}

/* Python's repr() of bytes, without its b: how avbtool shows a
 * property's value. */
static void py_bytes_repr(FILE *f, const uint8_t *p, size_t n)
{
	int sq = 0, dq = 0;
	char q;

	for (size_t i = 0; i < n; i++) {
		sq |= p[i] == '\'';
		dq |= p[i] == '"';
	}
	q = sq && !dq ? '"' : '\'';
	fputc(q, f);
	for (size_t i = 0; i < n; i++) {
		uint8_t c = p[i];

		if (c == (uint8_t)q || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\r')
			fputs("\\r", f);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
	fputc(q, f);
}

/* A chain descriptor's key's SHA-1, as a vbmeta's key's. */
static void chain_key_sha1(const struct avb_chain_desc *c, char out[41])
{
	struct avb_vbmeta key_only;

	memset(&key_only, 0, sizeof(key_only));
	key_only.public_key = c->public_key;
	key_only.h.public_key_size = c->public_key_len;
	verity_android_key_sha1(&key_only, out);
}

/* Descriptor d as info_image prints it. */
static void descriptor_text(FILE *f, const struct avb_descriptor *d)
{
	const struct avb_hashtree_desc *t = &d->hashtree;
	const struct avb_digest_part *h = &d->hash.p;
	char sha1[41];

	switch (d->tag) {
	case AVB_TAG_PROPERTY:
		fprintf(f, "    Prop: %.*s -> ", (int)d->property.key_len,
			(const char *)d->property.key);
		if (d->property.value_len < 256)
			py_bytes_repr(f, d->property.value,
				      (size_t)d->property.value_len);
		else
			fprintf(f, "(%" PRIu64 " bytes)",
				d->property.value_len);
		fputc('\n', f);
		break;
	case AVB_TAG_HASHTREE:
		fprintf(f,
			"    Hashtree descriptor:\n"
			"      Version of dm-verity:  %u\n"
			"      Image Size:            %" PRIu64 " bytes\n"
			"      Tree Offset:           %" PRIu64 "\n"
			"      Tree Size:             %" PRIu64 " bytes\n"
			"      Data Block Size:       %u bytes\n"
			"      Hash Block Size:       %u bytes\n"
			"      FEC num roots:         %u\n"
			"      FEC offset:            %" PRIu64 "\n"
			"      FEC size:              %" PRIu64 " bytes\n"
			"      Hash Algorithm:        %s\n"
			"      Partition Name:        %s\n"
			"      Salt:                  ",
			t->dm_verity_version, t->p.image_size, t->tree_offset,
			t->tree_size, t->data_block_size, t->hash_block_size,
			t->fec_num_roots, t->fec_offset, t->fec_size,
			t->p.hash_algorithm, NAME(t->p.name, t->p.name_len));
		verity_android_hex(f, t->p.salt, t->p.salt_len);
		fputs("\n      Root Digest:           ", f);
		verity_android_hex(f, t->p.digest, t->p.digest_len);
		fprintf(f, "\n      Flags:                 %u\n", t->p.flags);
		break;
	case AVB_TAG_HASH:
		fprintf(f,
			"    Hash descriptor:\n"
			"      Image Size:            %" PRIu64 " bytes\n"
			"      Hash Algorithm:        %s\n"
			"      Partition Name:        %s\n"
			"      Salt:                  ",
			h->image_size, h->hash_algorithm,
			NAME(h->name, h->name_len));
		verity_android_hex(f, h->salt, h->salt_len);
		fputs("\n      Digest:                ", f);
		verity_android_hex(f, h->digest, h->digest_len);
		fprintf(f, "\n      Flags:                 %u\n", h->flags);
		break;
	case AVB_TAG_KERNEL_CMDLINE:
		fprintf(f,
			"    Kernel Cmdline descriptor:\n"
			"      Flags:                 %u\n"
			"      Kernel Cmdline:        '%.*s'\n",
			d->cmdline.flags, (int)d->cmdline.value_len,
			(const char *)d->cmdline.value);
		break;
	case AVB_TAG_CHAIN_PARTITION:
		chain_key_sha1(&d->chain, sha1);
		fprintf(f,
			"    Chain Partition descriptor:\n"
			"      Partition Name:          %s\n"
			"      Rollback Index Location: %u\n"
			"      Public key (sha1):       %s\n"
			"      Flags:                   %u\n",
			NAME(d->chain.name, d->chain.name_len),
			d->chain.rollback_index_location, sha1, d->chain.flags);
		break;
	default:
		fprintf(f,
			"    Unknown descriptor:\n"
			"      Tag:  %" PRIu64 "\n"
			"      Data: %" PRIu64 " bytes\n",
			d->tag,
			(uint64_t)(d->raw_size - AVB_DESCRIPTOR_HEADER));
		break;
	}
}

static const char *algorithm_name(const struct avb_header *h)
{
	const struct verity_scheme *s = verity_avb_algorithm(h->algorithm);

	return s ? s->name : "";
}

static void info_text(FILE *f, const struct verity_android *a)
{
	const struct avb_footer *ft = &a->img.footer;
	const struct avb_header *h = &a->img.vbmeta.h;

	if (a->img.has_footer)
		fprintf(f,
			"Footer version:           %u.%u\n"
			"Image size:               %" PRIu64 " bytes\n"
			"Original image size:      %" PRIu64 " bytes\n"
			"VBMeta offset:            %" PRIu64 "\n"
			"VBMeta size:              %" PRIu64 " bytes\n"
			"--\n",
			ft->version_major, ft->version_minor, a->img.file_size,
			ft->original_image_size, ft->vbmeta_offset,
			ft->vbmeta_size);
	fprintf(f,
		"Minimum libavb version:   %u.%u%s\n"
		"Header Block:             %" PRIu64 " bytes\n"
		"Authentication Block:     %" PRIu64 " bytes\n"
		"Auxiliary Block:          %" PRIu64 " bytes\n",
		h->required_major, h->required_minor,
		a->img.sparse ? " (Sparse)" : "", (uint64_t)AVB_HEADER_SIZE,
		h->auth_size, h->aux_size);
	if (a->key_sha1[0])
		fprintf(f, "Public key (sha1):        %s\n", a->key_sha1);
	fprintf(f,
		"Algorithm:                %s\n"
		"Rollback Index:           %" PRIu64 "\n"
		"Flags:                    %u\n"
		"Rollback Index Location:  %u\n"
		"Release String:           '%s'\n"
		"Descriptors:\n",
		algorithm_name(h), h->rollback_index, h->flags,
		h->rollback_index_location, h->release);
	for (size_t i = 0; i < a->img.vbmeta.ndesc; i++)
		descriptor_text(f, &a->img.vbmeta.desc[i]);
	if (!a->img.vbmeta.ndesc)
		fputs("    (none)\n", f);
}

/* A JSON member of bytes: as text up to a NUL, or as hex. */
static void json_name(struct show *sh, const char *key, const uint8_t *p,
		      size_t n)
{
	char *s = strndup((const char *)p, n);

	verity_show_str(sh, key, s ? s : "");
	free(s);
}

static void json_hex(struct show *sh, const char *key, const uint8_t *p,
		     size_t n)
{
	char *s = malloc(2 * n + 1);

	if (s)
		for (size_t i = 0; i < n; i++)
			snprintf(s + 2 * i, 3, "%02x", p[i]);
	if (s)
		s[2 * n] = '\0';
	verity_show_str(sh, key, s ? s : "");
	free(s);
}

static void descriptor_json(struct show *sh, const struct avb_descriptor *d)
{
	const struct avb_hashtree_desc *t = &d->hashtree;
	const struct avb_digest_part *h = &d->hash.p;
	char sha1[41];

	verity_show_object(sh, NULL);
	switch (d->tag) {
	case AVB_TAG_PROPERTY:
		verity_show_str(sh, "type", "property");
		json_name(sh, "key", d->property.key,
			  (size_t)d->property.key_len);
		json_name(sh, "value", d->property.value,
			  (size_t)d->property.value_len);
		break;
	case AVB_TAG_HASHTREE:
		verity_show_str(sh, "type", "hashtree");
		json_name(sh, "partition_name", t->p.name, t->p.name_len);
		verity_show_str(sh, "hash_algorithm", t->p.hash_algorithm);
		verity_show_u64(sh, "image_size", t->p.image_size);
		verity_show_u64(sh, "dm_verity_version", t->dm_verity_version);
		verity_show_u64(sh, "tree_offset", t->tree_offset);
		verity_show_u64(sh, "tree_size", t->tree_size);
		verity_show_u64(sh, "data_block_size", t->data_block_size);
		verity_show_u64(sh, "hash_block_size", t->hash_block_size);
		verity_show_u64(sh, "fec_num_roots", t->fec_num_roots);
		verity_show_u64(sh, "fec_offset", t->fec_offset);
		verity_show_u64(sh, "fec_size", t->fec_size);
		json_hex(sh, "salt", t->p.salt, t->p.salt_len);
		json_hex(sh, "root_digest", t->p.digest, t->p.digest_len);
		verity_show_u64(sh, "flags", t->p.flags);
		break;
	case AVB_TAG_HASH:
		verity_show_str(sh, "type", "hash");
		json_name(sh, "partition_name", h->name, h->name_len);
		verity_show_str(sh, "hash_algorithm", h->hash_algorithm);
		verity_show_u64(sh, "image_size", h->image_size);
		json_hex(sh, "salt", h->salt, h->salt_len);
		json_hex(sh, "digest", h->digest, h->digest_len);
		verity_show_u64(sh, "flags", h->flags);
		break;
	case AVB_TAG_KERNEL_CMDLINE:
		verity_show_str(sh, "type", "kernel_cmdline");
		verity_show_u64(sh, "flags", d->cmdline.flags);
		json_name(sh, "kernel_cmdline", d->cmdline.value,
			  (size_t)d->cmdline.value_len);
		break;
	case AVB_TAG_CHAIN_PARTITION:
		chain_key_sha1(&d->chain, sha1);
		verity_show_str(sh, "type", "chain_partition");
		json_name(sh, "partition_name", d->chain.name,
			  d->chain.name_len);
		verity_show_u64(sh, "rollback_index_location",
				d->chain.rollback_index_location);
		if (sha1[0])
			verity_show_str(sh, "public_key_sha1", sha1);
		verity_show_u64(sh, "flags", d->chain.flags);
		break;
	default:
		verity_show_str(sh, "type", "unknown");
		verity_show_u64(sh, "tag", d->tag);
		verity_show_u64(sh, "size",
				d->raw_size - AVB_DESCRIPTOR_HEADER);
		break;
	}
	verity_show_end(sh);
}

static void info_json(struct show *sh, const char *image,
		      const struct verity_android *a)
{
	const struct avb_footer *ft = &a->img.footer;
	const struct avb_header *h = &a->img.vbmeta.h;
	struct verity_device dev;
	struct ht_error quiet;
	char version[24];

	verity_show_object(sh, NULL);
	verity_show_str(sh, "image", image);
	if (a->img.has_footer) {
		verity_show_u64(sh, "image_size", a->img.file_size);
		verity_show_object(sh, "footer");
		snprintf(version, sizeof(version), "%u.%u", ft->version_major,
			 ft->version_minor);
		verity_show_str(sh, "version", version);
		verity_show_u64(sh, "original_image_size",
				ft->original_image_size);
		verity_show_u64(sh, "vbmeta_offset", ft->vbmeta_offset);
		verity_show_u64(sh, "vbmeta_size", ft->vbmeta_size);
		verity_show_end(sh);
	} else {
		/* a vbmeta image: the file's size as it lies (0 when it
		 * cannot be had) */
		memset(&dev, 0, sizeof(dev));
		if (verity_device_open(&dev, image, VERITY_OPEN_READ, &quiet))
			dev.size = 0;
		else
			verity_device_close(&dev);
		verity_show_u64(sh, "image_size", dev.size);
		verity_show_null(sh, "footer");
	}
	snprintf(version, sizeof(version), "%u.%u", h->required_major,
		 h->required_minor);
	verity_show_str(sh, "minimum_libavb_version", version);
	verity_show_u64(sh, "authentication_block_size", h->auth_size);
	verity_show_u64(sh, "auxiliary_block_size", h->aux_size);
	verity_show_str(sh, "public_key_sha1",
			a->key_sha1[0] ? a->key_sha1 : NULL);
	verity_show_str(sh, "algorithm", algorithm_name(h));
	verity_show_u64(sh, "rollback_index", h->rollback_index);
	verity_show_u64(sh, "flags", h->flags);
	verity_show_u64(sh, "rollback_index_location",
			h->rollback_index_location);
	verity_show_str(sh, "release_string", h->release);
	verity_show_array(sh, "descriptors");
	for (size_t i = 0; i < a->img.vbmeta.ndesc; i++)
		descriptor_json(sh, &a->img.vbmeta.desc[i]);
	verity_show_end(sh);
	verity_show_end(sh);
}

/* extract_vbmeta_image: the blob the footer counts, zeros up to a
 * multiple of padding. */
static int vbmeta_blob(const struct fv_show_request *q, struct show *sh,
		       const struct verity_android *a, uint64_t padding,
		       struct ht_error *err)
{
	size_t n = a->img.footer.vbmeta_size, total = n;
	char *out;

	if (!a->img.has_footer)
		return ht_fail(err, EINVAL, "%s: the image has no footer",
			       q->image);
	if (padding && n % padding)
		total = n + (size_t)(padding - n % padding);
	if (!(out = calloc(1, total ? total : 1)))
		return ht_fail(err, ENOMEM, "out of memory");
	memcpy(out, a->img.blob, n);
	verity_show_bytes(sh, out, total);
	free(out);
	return sh->r;
}

int verity_android_avb_show(const struct fv_show_request *q, struct show *sh,
			    struct ht_error *err)
{
	struct verity_android_shown opts;
	struct verity_android *a;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int r;

	if ((r = verity_android_shown_of(q, &opts, err)) ||
	    (r = verity_android_read(q->image, NULL, 1, &a, err)))
		return r;
	if (q->what == FV_SHOW_AVB_VBMETA) {
		r = vbmeta_blob(q, sh, a, opts.padding, err);
	} else if (q->what == FV_SHOW_AVB_PUBKEY) {
		/* (no key: no bytes, as avbtool writes an empty file) */
		verity_show_bytes(sh, (const char *)a->img.vbmeta.public_key,
				  a->img.vbmeta.h.public_key_size);
		r = sh->r;
	} else if (sh->json) {
		info_json(sh, q->image, a);
		r = sh->r;
	} else if (!(f = open_memstream(&buf, &len))) {
		r = ht_fail(err, ENOMEM, "out of memory");
	} else {
		info_text(f, a);
		r = verity_show_stream(sh, f, &buf);
	}
	verity_android_free(a);
	return r;
}
