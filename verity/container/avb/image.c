/* Android images as a container: reading footer and vbmeta, a hashtree
 * descriptor as a verity pair, and avbtool's writers, byte for byte. */
#include "verity/container/avb/image.h"
#include "verity/container/source.h"

#include <errno.h>
#include <libgen.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "hashtree/hasher.h"
#include "verity/container/avb/helper.h"
#include "verity/container/super/super.h"
#include "verity/fec/encode.h"
#include "verity/fec/rs.h"
#include "verity/storage/backing.h"
#include "verity/storage/file.h"
#include "verity/storage/loop.h"
#include "verity/storage/output.h"
#include "verity/tree/layout.h"
#include "verity/tree/memtree.h"
#include "hashtree/libcrypto.h"

static uint64_t round_up(uint64_t n, uint64_t m)
{
	return (n + m - 1) / m * m;
}

/* Parity bytes for covered bytes of data and tree (AOSP fec's size,
 * without its header block). */
static uint64_t parity_bytes(uint64_t covered, unsigned roots)
{
	return fec_rounds((covered + AVB_FEC_BLOCK - 1) / AVB_FEC_BLOCK,
			  roots) *
	       roots * AVB_FEC_BLOCK;
}

/* The sparse header: magic, major 1, minor 0, a 28-byte file header and
 * 12-byte chunk headers (little-endian). */
static int sparse_header(const uint8_t *h)
{
	return h[0] == 0x3a && h[1] == 0xff && h[2] == 0x26 && h[3] == 0xed &&
	       h[4] == 1 && h[5] == 0 && h[6] == 0 && h[7] == 0 && h[8] == 28 &&
	       h[9] == 0 && h[10] == 12 && h[11] == 0;
}

int verity_avb_sparse_probe(const char *path)
{
	struct verity_device d;
	uint8_t h[12];
	int yes = 0;

	if (verity_device_open(&d, path, VERITY_OPEN_READ, NULL))
		return 0;
	if (d.size >= sizeof(h) &&
	    !verity_device_read(&d, 0, h, sizeof(h), NULL))
		yes = sparse_header(h);
	verity_device_close(&d);
	return yes;
}

static int read_blob(struct verity_device *d, uint64_t off, uint64_t len,
		     struct avb_image *img, struct ht_error *err)
{
	int r;

	if (!(img->blob = malloc((size_t)len)))
		return ht_fail(err, ENOMEM, "out of memory");
	if ((r = verity_device_read(d, off, img->blob, (size_t)len, err)))
		return r;
	return verity_avb_vbmeta_parse(img->blob, (size_t)len, img->path,
				       &img->vbmeta, err);
}

int verity_avb_device_probe(const struct verity_device *d)
{
	uint8_t foot[AVB_FOOTER_SIZE], magic[4];

	return (d->size >= AVB_FOOTER_SIZE &&
		!verity_device_read(d, d->size - AVB_FOOTER_SIZE, foot,
				    sizeof(foot), NULL) &&
		verity_avb_footer_magic(foot)) ||
	       (d->size >= AVB_HEADER_SIZE &&
		!verity_device_read(d, 0, magic, sizeof(magic), NULL) &&
		!memcmp(magic, "AVB0", 4));
}

/* The footer and vbmeta of the image open at d (its bytes as read). */
static int image_read(struct verity_device *d, const char *path,
		      struct avb_image *img, struct ht_error *err);

int verity_avb_image_read(const char *path, struct avb_image *img,
			  struct ht_error *err)
{
	struct verity_device d;
	int r;

	memset(img, 0, sizeof(*img));
	img->path = path;
	/* a sparse image: its unsparsed bytes, as avbtool reads them */
	if ((r = verity_container_open(&d, path, &img->sparse, err)))
		return r;
	r = image_read(&d, path, img, err);
	verity_device_close(&d);
	if (r)
		verity_avb_image_free(img);
	return r;
}

int verity_avb_image_read_source(const char *path,
				 const struct verity_extents *x,
				 struct avb_image *img, struct ht_error *err)
{
	struct verity_region whole = {path, 0, 0, x};
	struct verity_device d;
	int r;

	memset(img, 0, sizeof(*img));
	img->path = path;
	img->src = x;
	if ((r = verity_device_open_region(&d, &whole, VERITY_OPEN_READ, err)))
		return r;
	r = image_read(&d, path, img, err);
	verity_device_close(&d);
	if (r)
		verity_avb_image_free(img);
	return r;
}

static int image_read(struct verity_device *dp, const char *path,
		      struct avb_image *img, struct ht_error *err)
{
	struct verity_device d = *dp;
	uint8_t head[AVB_HEADER_SIZE], foot[AVB_FOOTER_SIZE];
	int r;

	img->file_size = d.size;
	if (d.size < AVB_HEADER_SIZE) {
		r = ht_fail(err, EINVAL,
			    "%s: not an Android image: %llu bytes is too small "
			    "for a vbmeta header",
			    path, (unsigned long long)d.size);
		goto out;
	}
	if ((r = verity_device_read(&d, 0, head, sizeof(head), err)) ||
	    (r = verity_device_read(&d, d.size - AVB_FOOTER_SIZE, foot,
				    sizeof(foot), err)))
		goto out;
	if (verity_avb_footer_magic(foot)) {
		img->has_footer = 1;
		if (!(r = verity_avb_footer_parse(foot, d.size, path,
						  &img->footer, err)))
			r = read_blob(&d, img->footer.vbmeta_offset,
				      img->footer.vbmeta_size, img, err);
	} else if (!memcmp(head, "AVB0", 4)) {
		uint64_t auth = verity_avb_be64(head + 12),
			 aux = verity_avb_be64(head + 20);

		if (auth > AVB_MAX_VBMETA || aux > AVB_MAX_VBMETA ||
		    AVB_HEADER_SIZE + auth + aux > d.size)
			r = ht_fail(err, EINVAL,
				    "%s: vbmeta blocks of %llu and %llu bytes "
				    "do not fit the file of %llu bytes",
				    path, (unsigned long long)auth,
				    (unsigned long long)aux,
				    (unsigned long long)d.size);
		else
			r = read_blob(&d, 0, AVB_HEADER_SIZE + auth + aux, img,
				      err);
	} else {
		r = ht_fail(err, EINVAL,
			    "%s: not an Android image: no AVB footer in its "
			    "last 64 bytes and no vbmeta at byte 0",
			    path);
	}
out:
	return r;
}

void verity_avb_image_free(struct avb_image *img)
{
	verity_avb_vbmeta_free(&img->vbmeta);
	free(img->blob);
	img->blob = NULL;
}

const struct avb_descriptor *
verity_avb_image_hashtree(const struct avb_image *img)
{
	for (size_t i = 0; i < img->vbmeta.ndesc; i++)
		if (img->vbmeta.desc[i].tag == AVB_TAG_HASHTREE)
			return &img->vbmeta.desc[i];
	return NULL;
}

/* The pair's parameters from the descriptor, validated. */
static int hashtree_params(const char *path, const struct avb_descriptor *d,
			   struct verity_params *p, struct ht_error *err)
{
	unsigned size = ht_digest_size(d->hashtree.p.hash_algorithm);

	verity_params_default(p);
	if (!size)
		return ht_fail(err, EINVAL,
			       "%s: hashtree descriptor: hash algorithm '%s' "
			       "is not supported",
			       path, d->hashtree.p.hash_algorithm);
	if (d->hashtree.dm_verity_version != 1)
		return ht_fail(err, EINVAL,
			       "%s: hashtree descriptor: dm-verity version %u "
			       "(1 is supported)",
			       path, d->hashtree.dm_verity_version);
	if (d->hashtree.p.salt_len > VERITY_MAX_SALT_SIZE)
		return ht_fail(err, EINVAL,
			       "%s: hashtree descriptor: salt of %u bytes (at "
			       "most %d)",
			       path, d->hashtree.p.salt_len,
			       VERITY_MAX_SALT_SIZE);
	/* no root: a persistent digest the device keeps (the tree is then
	 * checked against the data alone) */
	if (d->hashtree.p.digest_len && d->hashtree.p.digest_len != size)
		return ht_fail(err, EINVAL,
			       "%s: hashtree descriptor: root digest of %u "
			       "bytes for %s (%u bytes)",
			       path, d->hashtree.p.digest_len,
			       d->hashtree.p.hash_algorithm, size);
	if (!d->hashtree.data_block_size ||
	    d->hashtree.p.image_size % d->hashtree.data_block_size ||
	    !d->hashtree.p.image_size)
		return ht_fail(err, EINVAL,
			       "%s: hashtree descriptor: image size %llu is "
			       "not a whole number of %u-byte blocks",
			       path,
			       (unsigned long long)d->hashtree.p.image_size,
			       d->hashtree.data_block_size);
	snprintf(p->hash_name, sizeof(p->hash_name), "%.31s",
		 d->hashtree.p.hash_algorithm);
	p->hash_type = 1;
	p->data_block_size = d->hashtree.data_block_size;
	p->hash_block_size = d->hashtree.hash_block_size;
	p->data_blocks = d->hashtree.p.image_size / d->hashtree.data_block_size;
	p->hash_offset = d->hashtree.tree_offset;
	memcpy(p->salt, d->hashtree.p.salt, d->hashtree.p.salt_len);
	p->salt_size = d->hashtree.p.salt_len;
	p->no_superblock = 1;
	return verity_params_validate(p, err);
}

int verity_avb_hashtree_pair(const char *path, uint64_t file_size,
			     const struct avb_descriptor *d,
			     struct verity_pair *pair, int *fec_unusable,
			     struct ht_error *err)
{
	struct verity_layout l;
	uint64_t tree_bytes, covered;
	int r;

	memset(pair, 0, sizeof(*pair));
	*fec_unusable = 0;
	if ((r = hashtree_params(path, d, &pair->params, err)) ||
	    (r = verity_layout_compute(&pair->params, &l, err)))
		return r;
	tree_bytes = l.geo.tree_blocks * pair->params.hash_block_size;
	if (d->hashtree.tree_size != tree_bytes)
		return ht_fail(err, EINVAL,
			       "%s: hashtree descriptor: tree size %llu is not "
			       "the %llu bytes of the tree of %llu blocks",
			       path, (unsigned long long)d->hashtree.tree_size,
			       (unsigned long long)tree_bytes,
			       (unsigned long long)pair->params.data_blocks);
	if (d->hashtree.tree_offset < d->hashtree.p.image_size ||
	    d->hashtree.tree_offset > file_size ||
	    d->hashtree.tree_size > file_size - d->hashtree.tree_offset)
		return ht_fail(err, EINVAL,
			       "%s: hashtree descriptor: tree [%llu, +%llu) is "
			       "not between the data and the end of the file "
			       "(%llu bytes)",
			       path,
			       (unsigned long long)d->hashtree.tree_offset,
			       (unsigned long long)d->hashtree.tree_size,
			       (unsigned long long)file_size);
	pair->data =
		(struct verity_region){path, 0, d->hashtree.p.image_size, NULL};
	pair->hash = (struct verity_region){path, 0, 0, NULL};
	memcpy(pair->root, d->hashtree.p.digest, d->hashtree.p.digest_len);
	pair->root_size = d->hashtree.p.digest_len;
	if (!d->hashtree.fec_num_roots && !d->hashtree.fec_offset &&
	    !d->hashtree.fec_size)
		return 0;
	covered = d->hashtree.fec_offset;
	if (d->hashtree.fec_num_roots < FEC_MIN_ROOTS ||
	    d->hashtree.fec_num_roots > FEC_MAX_ROOTS ||
	    covered % AVB_FEC_BLOCK ||
	    covered < d->hashtree.tree_offset + d->hashtree.tree_size ||
	    covered > file_size || d->hashtree.fec_size > file_size - covered ||
	    d->hashtree.fec_size !=
		    parity_bytes(covered, d->hashtree.fec_num_roots))
		return ht_fail(err, EINVAL,
			       "%s: hashtree descriptor: parity of %u roots, "
			       "%llu bytes at %llu, is not the parity of the "
			       "%llu bytes before it inside the file",
			       path, d->hashtree.fec_num_roots,
			       (unsigned long long)d->hashtree.fec_size,
			       (unsigned long long)d->hashtree.fec_offset,
			       (unsigned long long)covered);
	/* the kernel's parity geometry is the data block size: the pair
	 * carries the parity when that is avbtool's 4096 and the covered
	 * bytes are exactly data and padded tree */
	if (d->hashtree.data_block_size != AVB_FEC_BLOCK ||
	    d->hashtree.hash_block_size != AVB_FEC_BLOCK ||
	    d->hashtree.tree_offset != d->hashtree.p.image_size ||
	    covered != d->hashtree.tree_offset +
			       round_up(d->hashtree.tree_size, AVB_FEC_BLOCK)) {
		*fec_unusable = 1;
		return 0;
	}
	pair->fec.region = (struct verity_region){path, 0, 0, NULL};
	pair->fec.offset = d->hashtree.fec_offset;
	pair->fec.roots = d->hashtree.fec_num_roots;
	pair->fec.described = 1;
	return 0;
}

/* 1 when [a, a + alen) and [b, b + blen) share a byte (each inside the
 * file: no sum wraps). */
static int overlap(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen)
{
	return alen && blen && a < b + blen && b < a + alen;
}

int verity_avb_image_pair(const struct avb_image *img,
			  const struct avb_descriptor *d,
			  struct verity_pair *pair, int *fec_unusable,
			  struct ht_error *err)
{
	const struct avb_footer *f = &img->footer;
	const uint64_t foot = img->file_size - AVB_FOOTER_SIZE;
	struct {
		const char *what;
		uint64_t off, len;
	} parts[3] = {{"data", 0, d->hashtree.p.image_size},
		      {"tree", d->hashtree.tree_offset, d->hashtree.tree_size},
		      {"parity", d->hashtree.fec_offset, d->hashtree.fec_size}};
	int r;

	if (!img->has_footer)
		return ht_fail(err, EINVAL,
			       "%s: a vbmeta image, with no footer: its "
			       "descriptors describe other partitions' images, "
			       "not data of its own",
			       img->path);
	/* every offset and size checked against the file first */
	if ((r = verity_avb_hashtree_pair(img->path, img->file_size, d, pair,
					  fec_unusable, err)))
		return r;
	/* read from extents the caller keeps: the pair reads them too */
	pair->data.extents = pair->hash.extents = img->src;
	if (pair->fec.region.path)
		pair->fec.region.extents = img->src;
	if (f->original_image_size > d->hashtree.p.image_size)
		return ht_fail(err, EINVAL,
			       "%s: the footer counts %llu bytes of data, and "
			       "the hashtree descriptor covers %llu",
			       img->path,
			       (unsigned long long)f->original_image_size,
			       (unsigned long long)d->hashtree.p.image_size);
	for (size_t i = 0; i < 3; i++) {
		if (overlap(f->vbmeta_offset, f->vbmeta_size, parts[i].off,
			    parts[i].len))
			return ht_fail(
				err, EINVAL,
				"%s: the vbmeta (%llu bytes at %llu) "
				"lies inside the %s [%llu, +%llu): "
				"metadata that a repair could write "
				"over is not trusted",
				img->path, (unsigned long long)f->vbmeta_size,
				(unsigned long long)f->vbmeta_offset,
				parts[i].what, (unsigned long long)parts[i].off,
				(unsigned long long)parts[i].len);
		if (overlap(foot, AVB_FOOTER_SIZE, parts[i].off, parts[i].len))
			return ht_fail(err, EINVAL,
				       "%s: the footer lies inside the %s "
				       "[%llu, +%llu)",
				       img->path, parts[i].what,
				       (unsigned long long)parts[i].off,
				       (unsigned long long)parts[i].len);
	}
	return 0;
}

/* ---- writing ---- */

/* One descriptor kept for sorting by avbtool's key (its class's name and
 * the partition's name). */
struct named {
	char *key;
	const struct avb_descriptor *d;
};

static int by_key(const void *a, const void *b)
{
	return strcmp(((const struct named *)a)->key,
		      ((const struct named *)b)->key);
}

static const char *class_name(uint64_t tag)
{
	return tag == AVB_TAG_HASHTREE ? "AvbHashtreeDescriptor"
	       : tag == AVB_TAG_HASH   ? "AvbHashDescriptor"
				       : "AvbChainPartitionDescriptor";
}

/* Descriptors of the included images: those without a partition name in
 * the order read, then the named ones sorted by avbtool's key, the last
 * of each key kept. *minor gets the highest libavb minor they need. */
static int add_included(const struct avb_vbmeta_opts *o, struct avb_buf *b,
			uint32_t *minor, struct ht_error *err)
{
	struct avb_image *imgs = calloc(o->nincludes + 1, sizeof(*imgs));
	struct named *named = NULL;
	size_t nnamed = 0, total = 0;
	int r = 0;

	if (!imgs)
		return ht_fail(err, ENOMEM, "out of memory");
	for (size_t i = 0; !r && i < o->nincludes; i++) {
		r = verity_avb_image_read(o->includes[i], &imgs[i], err);
		if (!r) {
			total += imgs[i].vbmeta.ndesc;
			if (imgs[i].vbmeta.h.required_minor > *minor)
				*minor = imgs[i].vbmeta.h.required_minor;
		}
	}
	if (!r && !(named = calloc(total + 1, sizeof(*named))))
		r = ht_fail(err, ENOMEM, "out of memory");
	for (size_t i = 0; !r && i < o->nincludes; i++)
		for (size_t j = 0; !r && j < imgs[i].vbmeta.ndesc; j++) {
			const struct avb_descriptor *d =
				&imgs[i].vbmeta.desc[j];
			uint32_t name_len;
			const uint8_t *name =
				verity_avb_desc_name(d, &name_len);
			size_t k, len;

			if (d->tag != AVB_TAG_HASHTREE &&
			    d->tag != AVB_TAG_HASH &&
			    d->tag != AVB_TAG_CHAIN_PARTITION) {
				if (verity_avb_descriptor_encode(d, b))
					r = ht_fail(err, ENOMEM,
						    "out of memory");
				continue;
			}
			len = strlen(class_name(d->tag)) + 1 + name_len + 1;
			char *key = malloc(len);

			if (!key) {
				r = ht_fail(err, ENOMEM, "out of memory");
				break;
			}
			snprintf(key, len, "%s_%.*s", class_name(d->tag),
				 (int)name_len, (const char *)name);
			for (k = 0; k < nnamed && strcmp(named[k].key, key);
			     k++)
				;
			if (k < nnamed) {
				free(key);
				named[k].d = d;
			} else {
				named[nnamed++] = (struct named){key, d};
			}
		}
	if (!r && nnamed)
		qsort(named, nnamed, sizeof(*named), by_key);
	for (size_t k = 0; !r && k < nnamed; k++)
		if (verity_avb_descriptor_encode(named[k].d, b))
			r = ht_fail(err, ENOMEM, "out of memory");
	for (size_t k = 0; k < nnamed; k++)
		free(named[k].key);
	free(named);
	for (size_t i = 0; i < o->nincludes; i++)
		verity_avb_image_free(&imgs[i]);
	free(imgs);
	return r;
}

/* Chain descriptors: one rollback index location each, 1 or more. */
static int add_chains(const struct avb_vbmeta_opts *o, struct avb_buf *b,
		      struct ht_error *err)
{
	int r = 0;

	for (size_t i = 0; !r && i < o->nchains; i++) {
		const struct avb_chain *c = &o->chains[i];
		struct avb_descriptor d = {.tag = AVB_TAG_CHAIN_PARTITION};
		uint8_t *key = NULL;
		size_t len;

		if (c->rollback_index_location < 1)
			return ht_fail(err, EINVAL,
				       "chain partition %s: rollback index "
				       "location must be 1 or larger",
				       c->name);
		if (c->rollback_index_location == o->rollback_index_location)
			return ht_fail(err, EINVAL,
				       "Rollback Index Location %u is already "
				       "in use",
				       c->rollback_index_location);
		for (size_t j = 0; j < i; j++)
			if (o->chains[j].rollback_index_location ==
			    c->rollback_index_location)
				return ht_fail(err, EINVAL,
					       "Rollback Index Location %u is "
					       "already in use",
					       c->rollback_index_location);
		if ((r = verity_read_file(c->key_path, "public key file",
					  1u << 16, &key, &len, err)))
			return r == -ENOENT ? -EINVAL : r;
		d.chain.name = (const uint8_t *)c->name;
		d.chain.name_len = (uint32_t)strlen(c->name);
		d.chain.rollback_index_location = c->rollback_index_location;
		d.chain.public_key = key;
		d.chain.public_key_len = (uint32_t)len;
		d.chain.flags = c->flags;
		if (verity_avb_descriptor_encode(&d, b))
			r = ht_fail(err, ENOMEM, "out of memory");
		free(key);
	}
	return r;
}

static int add_props(const struct avb_vbmeta_opts *o, struct avb_buf *b,
		     struct ht_error *err)
{
	for (size_t i = 0; i < o->nprops; i++) {
		struct avb_descriptor d = {.tag = AVB_TAG_PROPERTY};

		d.property.key = (const uint8_t *)o->props[i].key;
		d.property.key_len = strlen(o->props[i].key);
		d.property.value = o->props[i].value;
		d.property.value_len = o->props[i].value_len;
		if (verity_avb_descriptor_encode(&d, b))
			return ht_fail(err, ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < o->ncmdlines; i++) {
		struct avb_descriptor d = {.tag = AVB_TAG_KERNEL_CMDLINE};

		d.cmdline.value = (const uint8_t *)o->cmdlines[i];
		d.cmdline.value_len = strlen(o->cmdlines[i]);
		if (verity_avb_descriptor_encode(&d, b))
			return ht_fail(err, ENOMEM, "out of memory");
	}
	return 0;
}

/* The header's release string: avbtool's, or the one given, with the
 * appended text after a space; at most 47 bytes. */
static int release_string(const struct avb_vbmeta_opts *o, char *out,
			  struct ht_error *err)
{
	const char *base = o->release ? o->release : AVB_RELEASE_DEFAULT;
	int n = snprintf(out, AVB_RELEASE_SIZE, "%s%s%s", base,
			 o->append_release ? " " : "",
			 o->append_release ? o->append_release : "");

	if (n < 0 || n >= AVB_RELEASE_SIZE)
		return ht_fail(err, EINVAL,
			       "release string '%s%s%s' is longer than %d "
			       "bytes",
			       base, o->append_release ? " " : "",
			       o->append_release ? o->append_release : "",
			       AVB_RELEASE_SIZE - 1);
	return 0;
}

/* The key of the options, checked against the algorithm (its scheme,
 * RSA size or ML-DSA level): nothing for NONE. */
static int signing_key(const struct avb_vbmeta_opts *o,
		       const struct verity_scheme *alg,
		       struct verity_sigkey *key, struct ht_error *err)
{
	memset(key, 0, sizeof(*key));
	if (alg->kind == VERITY_SCHEME_NONE)
		return 0;
	if (!o->key_path)
		return ht_fail(err, EINVAL, "Key is required for algorithm %s",
			       alg->name);
	/* a signing helper signs in the key's place: its public part will
	 * do */
	return verity_sigkey_read(o->key_path, alg, !o->signing_helper, key,
				  err);
}

/* The directory a file-taking signing helper's file is made in: the
 * caller's, else that of the file written, else the working one (no
 * environment is read). */
static const char *helper_dir(const struct avb_vbmeta_opts *o, char *buf,
			      size_t size)
{
	const char *slash;

	if (o->temp_dir && *o->temp_dir)
		return o->temp_dir;
	if (!o->output || !(slash = strrchr(o->output, '/')))
		return ".";
	if (slash == o->output)
		return "/";
	snprintf(buf, size, "%.*s", (int)(slash - o->output), o->output);
	return buf;
}

int verity_avb_vbmeta_make(const struct avb_vbmeta_opts *o,
			   const struct avb_descriptor *first, size_t nfirst,
			   struct avb_buf *out, struct ht_error *err)
{
	const struct verity_scheme *alg =
		verity_avb_algorithm((unsigned)o->algorithm);
	struct avb_buf aux = {0};
	struct avb_header h;
	uint8_t header[AVB_HEADER_SIZE];
	struct verity_sigkey key = {0};
	uint8_t *pkmd = NULL;
	size_t pkmd_len = 0, descs;
	uint32_t minor = o->required_minor;
	int r = 0;

	memset(&h, 0, sizeof(h));
	if (out)
		memset(out, 0, sizeof(*out));
	if (!alg)
		return ht_fail(err, EINVAL, "unknown algorithm %d",
			       o->algorithm);
	if ((r = release_string(o, h.release, err)))
		return r;
	for (size_t i = 0; !r && i < nfirst; i++)
		if (verity_avb_descriptor_encode(&first[i], &aux))
			r = ht_fail(err, ENOMEM, "out of memory");
	if (!r)
		r = add_chains(o, &aux, err);
	/* a chain without A/B needs libavb 1.3 */
	for (size_t i = 0; i < o->nchains; i++)
		if (o->chains[i].flags && minor < 3)
			minor = 3;
	if (!r)
		r = add_props(o, &aux, err);
	if (!r && o->nincludes)
		r = add_included(o, &aux, &minor, err);
	if (!r)
		r = signing_key(o, alg, &key, err);
	if (!r && o->public_key_metadata)
		r = verity_read_file(o->public_key_metadata,
				     "public key metadata file", AVB_MAX_VBMETA,
				     &pkmd, &pkmd_len, err);
	if (r || !out)
		goto out;
	descs = aux.len;
	if (verity_avb_buf_put(&aux, key.blob, key.blob_len) ||
	    verity_avb_buf_put(&aux, pkmd, pkmd_len) ||
	    verity_avb_buf_zeros(&aux,
				 (size_t)(round_up(aux.len, 64) - aux.len))) {
		r = ht_fail(err, ENOMEM, "out of memory");
		goto out;
	}
	if (aux.len > AVB_MAX_VBMETA) {
		r = ht_fail(err, EINVAL,
			    "vbmeta of %zu bytes is too large (at most %u)",
			    aux.len, AVB_MAX_VBMETA);
		goto out;
	}
	h.required_major = 1;
	h.required_minor = minor;
	h.aux_size = aux.len;
	h.descriptors_size = descs;
	h.public_key_offset = descs;
	h.public_key_size = key.blob_len;
	h.metadata_offset = descs + key.blob_len;
	h.metadata_size = pkmd_len;
	h.auth_size = round_up(alg->hash_size + alg->sig_size, 64);
	h.algorithm = (uint32_t)o->algorithm;
	h.hash_size = alg->hash_size;
	h.signature_offset = alg->hash_size;
	h.signature_size = alg->sig_size;
	h.rollback_index = o->rollback_index;
	h.flags = o->flags;
	h.rollback_index_location = o->rollback_index_location;
	verity_avb_header_encode(&h, header);
	if (verity_avb_buf_put(out, header, sizeof(header)) ||
	    verity_avb_buf_zeros(out, (size_t)h.auth_size) ||
	    verity_avb_buf_put(out, aux.p, aux.len)) {
		r = ht_fail(err, ENOMEM, "out of memory");
		goto out;
	}
	if (alg->kind != VERITY_SCHEME_NONE && !o->size_only) {
		/* the signed message: the header, then the auxiliary block;
		 * RSA's digest first in the authentication block, the
		 * signature after it (ML-DSA: at its start) */
		uint8_t *auth = out->p + AVB_HEADER_SIZE;
		const struct verity_msg m[2] = {{header, sizeof(header)},
						{aux.p, aux.len}};
		char dir[4096];

		r = o->signing_helper
			    ? verity_avb_helper_sign(
				      o->signing_helper, o->helper_files,
				      helper_dir(o, dir, sizeof(dir)),
				      o->key_path, &key, alg, m, 2, auth,
				      auth + alg->hash_size, err)
			    : verity_scheme_sign(
				      alg, &key, m, 2,
				      o->deterministic
					      ? VERITY_MLDSA_DETERMINISTIC
					      : VERITY_MLDSA_HEDGED,
				      auth, auth + alg->hash_size, err);
	}
out:
	if (r && out)
		verity_avb_buf_free(out);
	verity_avb_buf_free(&aux);
	free(pkmd);
	verity_sigkey_free(&key);
	return r;
}

/* ---- footers ---- */

/* Everything the vbmeta options name (key and its size, chained keys,
 * included images, the release string) checked before the image is
 * touched. */
static int check_vbmeta_opts(const struct avb_vbmeta_opts *o,
			     struct ht_error *err)
{
	return verity_avb_vbmeta_make(o, NULL, 0, NULL, err);
}

static unsigned digest_size_checked(const char *alg, struct ht_error *err)
{
	unsigned n = verity_avb_digest_size(alg);

	if (!n)
		ht_fail(err, EINVAL,
			"hash algorithm '%s' is not supported (sha1, sha256, "
			"sha512)",
			alg);
	return n;
}

/* The tree's bytes for an image of size bytes, avbtool's way: each level
 * rounded up to the block. */
static uint64_t tree_bytes_of(uint64_t size, uint64_t bs, uint64_t slot)
{
	uint64_t total = 0;

	while (size > bs) {
		size = round_up((size + bs - 1) / bs * slot, bs);
		total += size;
	}
	return total;
}

uint64_t verity_avb_max_image_size(const struct avb_footer_opts *o,
				   enum avb_footer_kind kind)
{
	uint64_t meta = AVB_MAX_VBMETA_ROOM + AVB_FOOTER_BLOCK, room;

	if (kind == AVB_FOOTER_HASHTREE && o->partition_size) {
		unsigned ds = ht_digest_size(o->hash_algorithm), slot = 1;

		while (slot < ds)
			slot <<= 1;
		meta += tree_bytes_of(o->partition_size, o->block_size, slot);
		/* AOSP fec's size includes its header block */
		if (o->fec)
			meta += parity_bytes(o->partition_size, o->roots) +
				AVB_FEC_BLOCK;
	}
	room = o->partition_size > meta ? o->partition_size - meta : 0;
	return room;
}

/* The image opened for writing: a regular file; its original size (the
 * data, before any footer of an earlier run). */
/* --- Android sparse images written: avbtool's layout ---------------- */

static uint64_t image_end(const char *image, uint64_t off, size_t blob_len,
			  uint64_t partition_size, struct ht_error *err);

/* 1 when the file at path starts with the sparse magic: written as a
 * sparse image (whose reading then says what is wrong with it). */
static int sparse_target(const char *path)
{
	struct verity_device d;
	int yes;

	if (verity_device_open(&d, path, VERITY_OPEN_READ, NULL))
		return 0;
	yes = verity_sparse_magic(&d);
	verity_device_close(&d);
	return yes;
}

/* The sparse image at path open for writing (*wp), and d a device of
 * its unsparsed bytes, reads and writes through its extents: the same
 * facts as open_image gives of a raw image. */
static int stage_image(struct verity_device *d, uint64_t bytes, int must,
		       int *staged, struct ht_error *err);

/* The sparse image at path open for writing through a copy staged
 * beside it (stage_image), which verity_device_commit renames over it:
 * for rewrites whose interruption must leave the image as it was. */
static int sparse_writer_staged(const char *path, struct verity_sparse_writer *w,
				struct ht_error *err)
{
	struct verity_device d;
	uint64_t size;
	int staged, r;

	if ((r = verity_device_open(&d, path, VERITY_OPEN_WRITE, err)))
		return r;
	size = d.size;
	if ((r = verity_loop_refuse_backing(&d, path, err)) ||
	    (r = stage_image(&d, size, 1, &staged, err))) {
		verity_device_close(&d);
		return r;
	}
	d.size = size; /* the copy's */
	return verity_sparse_writer_adopt(w, &d, path, err);
}

static int open_sparse(const char *path, int stage,
		       struct verity_sparse_writer **wp, struct verity_device *d,
		       uint64_t *original, int *had_footer,
		       struct ht_error *err)
{
	struct verity_sparse_writer *w = calloc(1, sizeof(*w));
	uint8_t f[AVB_FOOTER_SIZE];
	struct avb_footer footer;
	int r;

	*had_footer = 0;
	if (!w)
		return ht_fail(err, ENOMEM, "out of memory");
	if ((r = stage ? sparse_writer_staged(path, w, err)
		       : verity_sparse_writer_open(w, path, err))) {
		free(w);
		return r;
	}
	*wp = w;
	if ((r = verity_loop_refuse_backing(&w->d, path, err)))
		goto fail;
	if (w->s.block_size != AVB_FOOTER_BLOCK) {
		r = ht_fail(err, EINVAL,
			    "%s: a sparse image of %u-byte blocks: AVB footers "
			    "are written into sparse images of 4096-byte "
			    "blocks",
			    path, w->s.block_size);
		goto fail;
	}
	*d = w->d;
	d->tmp = d->final = NULL;
	d->src = &w->s.x;
	d->src_owned = NULL;
	d->size = w->s.x.size;
	if ((d->fd = fcntl(w->d.fd, F_DUPFD_CLOEXEC, 0)) < 0) {
		r = ht_fail(err, errno, "%s: %s", path, strerror(errno));
		goto fail;
	}
	*original = d->size;
	if (d->size < AVB_FOOTER_SIZE)
		return 0;
	if ((r = verity_device_read(d, d->size - AVB_FOOTER_SIZE, f, sizeof(f),
				    err)))
		goto fail_d;
	if (!verity_avb_footer_magic(f))
		return 0;
	if ((r = verity_avb_footer_parse(f, d->size, path, &footer, err)))
		goto fail_d;
	*original = footer.original_image_size;
	*had_footer = 1;
	return 0;
fail_d:
	verity_device_close(d);
fail:
	verity_sparse_writer_close(w);
	free(w);
	*wp = NULL;
	return r;
}

static void close_sparse(struct verity_sparse_writer **wp,
			 struct verity_device *d)
{
	verity_device_close(d);
	d->fd = -1;
	if (*wp) {
		verity_sparse_writer_close(*wp);
		free(*wp);
	}
	*wp = NULL;
}

/* The vbmeta blob (padded to a block) appended after what the image
 * holds, then DONT_CARE up to the partition's last block, then the
 * footer's block, and the totals committed: avbtool's chunks. */
static int sparse_footer(struct verity_sparse_writer *w,
			 const struct avb_buf *blob, uint64_t partition_size,
			 uint64_t original, struct ht_error *err)
{
	uint64_t off = w->s.x.size, padded = round_up(blob->len, 4096);
	struct avb_footer f = {1, 0, original, off, blob->len};
	uint8_t *b = calloc(1, padded > 4096 ? padded : 4096);
	int r;

	if (!b)
		return ht_fail(err, ENOMEM, "out of memory");
	memcpy(b, blob->p, blob->len);
	r = verity_sparse_append(w, VERITY_SPARSE_RAW, padded, b, 0, err);
	/* (avbtool appends the DONT_CARE chunk even when it is empty) */
	if (!r && partition_size)
		r = image_end(w->path, off, blob->len, partition_size, err)
			    ? verity_sparse_append(
				      w, VERITY_SPARSE_DONT_CARE,
				      partition_size - (off + padded) - 4096,
				      NULL, 0, err)
			    : -ENOSPC;
	if (!r) {
		memset(b, 0, 4096);
		verity_avb_footer_encode(&f, b + 4096 - AVB_FOOTER_SIZE);
		r = verity_sparse_append(w, VERITY_SPARSE_RAW, 4096, b, 0, err);
	}
	free(b);
	return r ? r : verity_sparse_commit(w, err);
}

static int open_image(const char *path, struct verity_device *d,
		      uint64_t *original, int *had_footer, struct ht_error *err)
{
	uint8_t f[AVB_FOOTER_SIZE];
	struct avb_footer footer;
	int r = verity_device_open(d, path, VERITY_OPEN_WRITE, err);

	*had_footer = 0;
	if (r)
		return r;
	if (d->is_block) {
		verity_device_close(d);
		return ht_fail(err, EINVAL,
			       "%s: a block device: the image grows and must "
			       "be a file",
			       path);
	}
	if ((r = verity_loop_refuse_backing(d, path, err))) {
		verity_device_close(d);
		return r;
	}
	*original = d->size;
	if (verity_avb_sparse_probe(path)) {
		verity_device_close(d);
		return ht_fail(err, EINVAL,
			       "%s: an Android sparse image: make a raw image "
			       "first (simg2img %s IMAGE.raw)",
			       path, path);
	}
	if (d->size < AVB_FOOTER_SIZE)
		return 0;
	if ((r = verity_device_read(d, d->size - AVB_FOOTER_SIZE, f, sizeof(f),
				    err))) {
		verity_device_close(d);
		return r;
	}
	if (!verity_avb_footer_magic(f))
		return 0;
	if ((r = verity_avb_footer_parse(f, d->size, path, &footer, err))) {
		verity_device_close(d);
		return r;
	}
	*original = footer.original_image_size;
	*had_footer = 1;
	return 0;
}

static int set_size(const struct verity_device *d, uint64_t size,
		    struct ht_error *err)
{
	if (ftruncate(d->fd, (off_t)size) < 0)
		return ht_fail(err, errno == EFBIG ? EFBIG : EIO,
			       "%s: cannot set the size to %llu bytes: %s",
			       d->path, (unsigned long long)size,
			       strerror(errno));
	return 0;
}

/* Bytes [off, off + len) of d made zero: a hole punched where the file
 * system can, zeros written where it cannot. */
static int zero_range(const struct verity_device *d, uint64_t off, uint64_t len,
		      struct ht_error *err)
{
	static const uint8_t zeros[1u << 16];
	int r = 0;

	if (!len ||
	    !fallocate(d->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
		       (off_t)off, (off_t)len))
		return 0;
	for (uint64_t at = 0; !r && at < len; at += sizeof(zeros)) {
		size_t n = len - at < sizeof(zeros) ? (size_t)(len - at)
						    : sizeof(zeros);

		r = verity_device_write(d, off + at, zeros, n, err);
	}
	return r;
}

/* A run over an image that has a footer already (docs/android.md, "Runs
 * over a footer"): never an image without a footer, whatever stops the
 * run. Where the file system clones a file for free (FICLONE: btrfs,
 * xfs), or where the new metadata would reach the old footer, the new
 * image is made in a temporary file beside the image and renamed over it
 * whole (*staged = 1: d becomes that file, with the first bytes of the
 * image in it). Otherwise (*staged = 0) the image is written in place
 * with its old footer kept until the last write: an interruption leaves
 * the old footer, whose data size a new run takes up, or the new one. */
static int stage_image(struct verity_device *d, uint64_t bytes, int must,
		       int *staged, struct ht_error *err)
{
	struct verity_device tmp;
	loff_t in = 0, out = 0;
	uint8_t *buf = NULL;
	int r;

	*staged = 0;
	/* no temporary file beside it (a directory that cannot be written):
	 * in place, unless it must be staged */
	if ((r = verity_device_open_output(&tmp, d->path, "image", 0600,
					   err))) {
		if (must && err)
			ht_fail(err, -r,
				"%s (the new image is made beside the old one "
				"and renamed over it, as it changes what the "
				"old footer counts)",
				ht_msg(err));
		return must ? r : 0;
	}
	if (!ioctl(tmp.fd, FICLONE, d->fd)) {
		in = (loff_t)bytes;
		r = set_size(&tmp, bytes, err);
	} else if (!must) {
		verity_device_close(&tmp);
		return 0;
	}
	while (!r && (uint64_t)in < bytes) {
		size_t n = bytes - (uint64_t)in < (1u << 30)
				   ? (size_t)(bytes - (uint64_t)in)
				   : 1u << 30;
		ssize_t got =
			buf ? -1
			    : copy_file_range(d->fd, &in, tmp.fd, &out, n, 0);

		if (got > 0)
			continue;
		if (got == 0) {
			r = ht_fail(err, ENODATA,
				    "%s: the file shrank while it was copied",
				    d->path);
			break;
		}
		/* no copy_file_range across these files: read and write */
		if (!buf && !(buf = malloc(1u << 20))) {
			r = ht_fail(err, ENOMEM, "out of memory");
			break;
		}
		n = n < (1u << 20) ? n : 1u << 20;
		if (!(r = verity_device_read(d, (uint64_t)in, buf, n, err)) &&
		    !(r = verity_device_write(&tmp, (uint64_t)in, buf, n, err)))
			in += (loff_t)n;
	}
	free(buf);
	if (r) {
		verity_device_close(&tmp);
		return r;
	}
	verity_device_close(d);
	*d = tmp;
	*staged = 1;
	return 0;
}

/* The image made whole: flushed, and when it was staged (stage_image),
 * renamed over the old one. */
static int finish_image(struct verity_device *d, struct ht_error *err)
{
	return d->tmp ? verity_device_commit(d, err)
		      : verity_device_flush(d, err);
}

/* A partition size of whole 4096-byte blocks (0: only where zero_ok,
 * the image growing as it needs), in avbtool's words. */
static int partition_blocks(uint64_t size, int zero_ok, struct ht_error *err)
{
	if ((size || zero_ok) && size % AVB_FOOTER_BLOCK == 0)
		return 0;
	return ht_fail(err, EINVAL,
		       "Partition size of %llu is not a multiple of the image "
		       "block size 4096",
		       (unsigned long long)size);
}

/* The size of the image that ends with the vbmeta blob at off: the
 * partition's, or the blob's end and one footer block; 0 when it does
 * not fit the partition (the message set). */
static uint64_t image_end(const char *image, uint64_t off, size_t blob_len,
			  uint64_t partition_size, struct ht_error *err)
{
	uint64_t need =
		off + round_up(blob_len, AVB_FOOTER_BLOCK) + AVB_FOOTER_BLOCK;

	if (!partition_size)
		return need;
	if (need <= partition_size)
		return partition_size;
	ht_fail(err, ENOSPC,
		"%s: the image needs %llu bytes, more than the partition size "
		"%llu",
		image, (unsigned long long)need,
		(unsigned long long)partition_size);
	return 0;
}

/* Room for the vbmeta and the footer after off, checked before anything
 * is written. */
static int vbmeta_fits(const char *image, uint64_t off, size_t blob_len,
		       uint64_t partition_size, struct ht_error *err)
{
	return image_end(image, off, blob_len, partition_size, err) ? 0
								    : -ENOSPC;
}

/* The vbmeta blob padded to 4096 at off, then the footer: at the end of
 * the partition, or right after the blob; the footer written last, once
 * what it points to is flushed. old_end: the image is written in place
 * over an old footer at old_end - 64, which stays the last 64 bytes
 * until the new footer is written (the caller made sure nothing before
 * reaches it); 0: the file holds only what this run wrote. */
static int append_vbmeta(const struct verity_device *d, uint64_t off,
			 const struct avb_buf *blob, uint64_t partition_size,
			 uint64_t original, uint64_t old_end,
			 struct ht_error *err)
{
	uint64_t size = image_end(d->path, off, blob->len, partition_size, err);
	uint8_t foot[AVB_FOOTER_SIZE];
	struct avb_footer f = {1, 0, original, off, blob->len};
	uint64_t stop;
	int r;

	if (!size)
		return -ENOSPC;
	verity_avb_footer_encode(&f, foot);
	if (!old_end) {
		if ((r = set_size(d, size, err)) ||
		    (r = verity_device_write(d, off, blob->p, blob->len,
					     err)) ||
		    (r = verity_device_flush(d, err)))
			return r;
		return verity_device_write(d, size - sizeof(foot), foot,
					   sizeof(foot), err);
	}
	/* in place: zeros up to the footer's place, the old footer last */
	stop = (size < old_end ? size : old_end) - AVB_FOOTER_SIZE;
	if (stop < off + blob->len)
		return ht_fail(err, EINVAL,
			       "%s: the vbmeta reaches the old "
			       "footer",
			       d->path);
	if ((r = verity_device_write(d, off, blob->p, blob->len, err)) ||
	    (r = zero_range(d, off + blob->len, stop - (off + blob->len),
			    err)) ||
	    (r = verity_device_flush(d, err)) ||
	    (r = verity_device_write(d, size - sizeof(foot), foot, sizeof(foot),
				     err)))
		return r;
	if (size < old_end)
		return (r = verity_device_flush(d, err))
			       ? r
			       : set_size(d, size, err);
	if (size > old_end)
		return zero_range(d, old_end - AVB_FOOTER_SIZE, AVB_FOOTER_SIZE,
				  err);
	return 0;
}

static int random_salt(uint8_t *salt, size_t *len, unsigned size,
		       struct ht_error *err)
{
	*len = size;
	return verity_random(salt, size, err);
}

/* The salt given (hex decoded by the caller); else the salt of old, the
 * descriptor of the same kind the image's old footer has, when it digests
 * with the same hash (a run over unchanged data then makes the bytes the
 * image holds: docs/android.md, "Runs over a footer"); else a random
 * one. */
static int the_salt(const struct avb_footer_opts *o, unsigned digest_size,
		    const struct avb_digest_part *old, uint8_t *salt,
		    size_t *len, struct ht_error *err)
{
	/* a persistent digest is made on the device: no random salt */
	if (!o->salt_given && o->persistent_digest) {
		*len = 0;
		return 0;
	}
	if (!o->salt_given && old && old->salt_len &&
	    old->salt_len <= VERITY_MAX_SALT_SIZE &&
	    !strcmp(old->hash_algorithm, o->hash_algorithm)) {
		memcpy(salt, old->salt, old->salt_len);
		*len = old->salt_len;
		return 0;
	}
	if (!o->salt_given)
		return random_salt(salt, len, digest_size, err);
	if (o->salt_len > VERITY_MAX_SALT_SIZE)
		return ht_fail(err, EINVAL, "salt of %zu bytes (at most %d)",
			       o->salt_len, VERITY_MAX_SALT_SIZE);
	memcpy(salt, o->salt, o->salt_len);
	*len = o->salt_len;
	return 0;
}

/* Writes the blob to the file named by --output_vbmeta_image. */
static int write_vbmeta_copy(const char *path, const struct avb_buf *b,
			     struct ht_error *err)
{
	return path ? verity_write_file(path, "vbmeta image", b->p, b->len, err)
		    : 0;
}

/* The vbmeta appended by a footer command, over its one descriptor: at
 * least libavb 1.1 where the descriptor has flags, 1.2 where a rollback
 * index location is given, as avbtool asks. */
static int footer_vbmeta(const struct avb_footer_opts *o,
			 const struct avb_descriptor *desc,
			 struct avb_buf *blob, struct ht_error *err)
{
	struct avb_vbmeta_opts vb = o->vb;

	vb.output = o->image;
	if ((o->descriptor_flags || o->persistent_digest) &&
	    vb.required_minor < 1)
		vb.required_minor = 1;
	if (vb.rollback_index_location)
		vb.required_minor = 2;
	return verity_avb_vbmeta_make(&vb, desc, 1, blob, err);
}

/* The hashtree descriptor of the job, over root. */
static void hashtree_descriptor(const struct avb_footer_opts *o,
				const struct avb_hashtree_job *job,
				uint64_t tree_size, uint64_t fec_size,
				const uint8_t *root, struct avb_descriptor *ht)
{
	memset(ht, 0, sizeof(*ht));
	ht->tag = AVB_TAG_HASHTREE;
	ht->hashtree.dm_verity_version = 1;
	ht->hashtree.p.image_size = job->image_size;
	ht->hashtree.tree_offset = job->image_size;
	ht->hashtree.tree_size = tree_size;
	ht->hashtree.data_block_size = o->block_size;
	ht->hashtree.hash_block_size = o->block_size;
	ht->hashtree.fec_num_roots = o->fec ? o->roots : 0;
	ht->hashtree.fec_offset = o->fec ? job->fec_offset : 0;
	ht->hashtree.fec_size = fec_size;
	snprintf(ht->hashtree.p.hash_algorithm,
		 sizeof(ht->hashtree.p.hash_algorithm), "%s",
		 o->hash_algorithm);
	ht->hashtree.p.name =
		(const uint8_t *)(o->partition_name ? o->partition_name : "");
	ht->hashtree.p.name_len =
		(uint32_t)strlen((const char *)ht->hashtree.p.name);
	ht->hashtree.p.salt = job->salt;
	ht->hashtree.p.salt_len = (uint32_t)job->salt_len;
	ht->hashtree.p.digest = root;
	ht->hashtree.p.digest_len = o->persistent_digest ? 0 : job->digest_size;
	ht->hashtree.p.flags = o->descriptor_flags;
}

/* 1 when the options ask for signatures whose bytes the run knows
 * before it signs: deterministic ML-DSA with the key at hand (RSA's
 * PKCS#1 v1.5 is deterministic too, but a token may hold its key, and a
 * signing helper chooses its own randomness). */
static int exact_signature(const struct avb_vbmeta_opts *vb)
{
	return vb->deterministic && !vb->signing_helper &&
	       (vb->algorithm == AVB_ALG_MLDSA65 ||
		vb->algorithm == AVB_ALG_MLDSA87);
}

/* A run over a footer that makes its vbmeta again over the same bytes
 * (the same header and auxiliary block: unchanged data, the same
 * options) keeps the old signature when it holds, so that the image
 * keeps its bytes: an RSA signature comes out the same anyway (PKCS#1
 * v1.5 is deterministic), a hedged ML-DSA one is new each run, and
 * writing it in place over the old one could leave, if interrupted, a
 * signature half of each under the old footer. Not when deterministic
 * signatures are asked for (exact_signature): their bytes are written,
 * beside the image when they differ (rewrites_same, same_vbmeta). */
static void keep_signature(const struct avb_vbmeta_opts *vb,
			   const struct avb_image *old, struct avb_buf *blob)
{
	const struct avb_vbmeta *v = &old->vbmeta;
	size_t auth_end;

	if (exact_signature(vb) || !old->blob || v->size != blob->len ||
	    v->h.algorithm == AVB_ALG_NONE ||
	    blob->len < AVB_HEADER_SIZE + v->h.auth_size)
		return;
	auth_end = AVB_HEADER_SIZE + (size_t)v->h.auth_size;
	if (memcmp(old->blob, blob->p, AVB_HEADER_SIZE) ||
	    memcmp(old->blob + auth_end, blob->p + auth_end,
		   blob->len - auth_end) ||
	    verity_avb_vbmeta_check(v, "", NULL))
		return;
	memcpy(blob->p + AVB_HEADER_SIZE, old->blob + AVB_HEADER_SIZE,
	       (size_t)v->h.auth_size);
}

/* The first descriptor of tag in img's vbmeta, or NULL. */
static const struct avb_descriptor *first_of(const struct avb_image *img,
					     uint64_t tag)
{
	for (size_t i = 0; i < img->vbmeta.ndesc; i++)
		if (img->vbmeta.desc[i].tag == tag)
			return &img->vbmeta.desc[i];
	return NULL;
}

/* 1 when v is signed, its signature holds, and its signer is the key o
 * names (its public part): an old vbmeta that something vouches for. */
static int signed_by(const struct avb_vbmeta *v,
		     const struct avb_vbmeta_opts *o)
{
	uint8_t *blob = NULL;
	size_t len = 0;
	int yes;

	if (v->h.algorithm == AVB_ALG_NONE || o->algorithm == AVB_ALG_NONE ||
	    !o->key_path || verity_avb_vbmeta_check(v, "", NULL) ||
	    verity_sigkey_file_blob(o->key_path, &blob, &len, NULL))
		return 0;
	yes = verity_avb_vbmeta_has_key(v, blob, len);
	free(blob);
	return yes;
}

/* The image's old footer and vbmeta read into job (have_old), and
 * whether the key of o vouches for it (old_signed). An old vbmeta that
 * does not parse is no old image: nothing of it is kept. */
static void read_old(const struct avb_footer_opts *o,
		     struct avb_hashtree_job *job)
{
	job->have_old = !verity_avb_image_read(o->image, &job->old, NULL) &&
			job->old.has_footer;
	if (!job->have_old) {
		verity_avb_image_free(&job->old);
		return;
	}
	job->old_signed = signed_by(&job->old.vbmeta, &o->vb);
}

static void free_old(struct avb_hashtree_job *job)
{
	if (job->have_old)
		verity_avb_image_free(&job->old);
	job->have_old = job->old_signed = 0;
}

/* 1 when [off, off + len) of d reads as zeros. */
static int reads_zero(const struct verity_device *d, uint64_t off, uint64_t len)
{
	uint8_t buf[4096];

	while (len) {
		size_t n = len < sizeof(buf) ? (size_t)len : sizeof(buf);

		if (verity_device_read(d, off, buf, n, NULL))
			return 0;
		for (size_t i = 0; i < n; i++)
			if (buf[i])
				return 0;
		off += n;
		len -= n;
	}
	return 1;
}

/* 1 when this run, written in place, gives every byte the old footer
 * counts the value it holds while the data is unchanged, so that an
 * interruption leaves the old image or the new one: the old hashtree
 * descriptor is this run's over the old root (ht: the tree and parity
 * come out the same), the old vbmeta is the blob this run makes over
 * that root (blob, unsigned; NULL: none is appended) at its place
 * (vbmeta_off) with the old signature holding (over the same header and
 * auxiliary block, whose key is this run's, the signature comes out the
 * same: PKCS#1 v1.5 is deterministic), and the padding the run zeroes
 * reads as zeros. */
static int rewrites_same(const struct avb_hashtree_job *job,
			 const struct avb_descriptor *ht,
			 const struct avb_buf *blob, int exact,
			 uint64_t vbmeta_off, uint64_t tree_end)
{
	const struct avb_image *old = &job->old;
	const struct avb_vbmeta *v = &old->vbmeta;
	const struct avb_descriptor *oht = first_of(old, AVB_TAG_HASHTREE);
	struct avb_buf b = {0};
	int same;

	if (!job->have_old || !oht ||
	    oht != &v->desc[0] /* this run's descriptor comes first */)
		return 0;
	same = !verity_avb_descriptor_encode(ht, &b) &&
	       b.len == oht->raw_size && !memcmp(b.p, oht->raw, b.len);
	verity_avb_buf_free(&b);
	if (!same)
		return 0;
	if (blob) {
		uint8_t *want;

		if (old->footer.vbmeta_offset != vbmeta_off ||
		    old->footer.vbmeta_size != blob->len ||
		    v->size != blob->len || !(want = malloc(blob->len)))
			return 0;
		/* the old digest and signature in their places of the blob
		 * this run makes (which keep_signature keeps): all else
		 * must be the same bytes; a blob signed already
		 * (exact_signature) must be the old bytes whole */
		memcpy(want, blob->p, blob->len);
		if (!exact) {
			memcpy(want + AVB_HEADER_SIZE + v->h.hash_offset,
			       v->hash, (size_t)v->h.hash_size);
			memcpy(want + AVB_HEADER_SIZE + v->h.signature_offset,
			       v->signature, (size_t)v->h.signature_size);
		}
		same = !memcmp(want, old->blob, blob->len) &&
		       !verity_avb_vbmeta_check(v, "", NULL);
		free(want);
		if (!same)
			return 0;
	}
	return reads_zero(&job->image, job->original,
			  job->image_size - job->original) &&
	       reads_zero(&job->image, tree_end, job->fec_offset - tree_end);
}

int verity_avb_hashtree_begin(const struct avb_footer_opts *o,
			      struct avb_hashtree_job *job,
			      struct verity_pair *pair, struct ht_error *err)
{
	struct verity_device *d = &job->image;
	uint64_t max, tree_size;
	int had_footer, r;

	memset(job, 0, sizeof(*job));
	d->fd = -1;
	if (!(job->digest_size = digest_size_checked(o->hash_algorithm, err)))
		return -EINVAL;
	if ((r = partition_blocks(o->partition_size, 1, err)))
		return r;
	if (o->fec && (o->roots < FEC_MIN_ROOTS || o->roots > FEC_MAX_ROOTS))
		return ht_fail(err, EINVAL,
			       "FEC of %u roots is not supported (%d to %d)",
			       o->roots, FEC_MIN_ROOTS, FEC_MAX_ROOTS);
	if (!o->block_size)
		return ht_fail(err, EINVAL, "block size 0");
	if ((r = check_vbmeta_opts(&o->vb, err)))
		return r;
	r = sparse_target(o->image)
		    ? open_sparse(o->image, 0, &job->sparse, d, &job->original,
				  &had_footer, err)
		    : open_image(o->image, d, &job->original, &had_footer, err);
	if (r)
		return r;
	if (!o->partition_size && d->size % AVB_FOOTER_BLOCK) {
		r = ht_fail(err, EINVAL,
			    "%s: file size of %llu is not a multiple of the "
			    "image block size 4096 (give --partition_size)",
			    o->image, (unsigned long long)d->size);
		goto close;
	}
	max = verity_avb_max_image_size(o, AVB_FOOTER_HASHTREE);
	if (o->partition_size && round_up(job->original, o->block_size) > max) {
		r = ht_fail(err, EINVAL,
			    "%s: image size of %llu exceeds maximum image size "
			    "of %llu in order to fit in a partition size of "
			    "%llu",
			    o->image,
			    (unsigned long long)round_up(job->original,
							 o->block_size),
			    (unsigned long long)max,
			    (unsigned long long)o->partition_size);
		goto close;
	}
	if (had_footer)
		read_old(o, job);
	if ((r = the_salt(o, job->digest_size,
			  job->have_old ? verity_avb_digest_part(first_of(
						  &job->old, AVB_TAG_HASHTREE))
					: NULL,
			  job->salt, &job->salt_len, err)))
		goto close;
	job->image_size = round_up(round_up(job->original, o->block_size),
				   AVB_FOOTER_BLOCK);
	if (!job->image_size) {
		r = ht_fail(err, EINVAL,
			    "%s: an image of no data: no blocks for a hash "
			    "tree to protect",
			    o->image);
		goto close;
	}
	/* avbtool pads a sparse image with a RAW chunk of the bytes that
	 * are missing, a chunk no reader takes: not written */
	if (job->sparse && job->image_size != job->original) {
		r = ht_fail(err, EINVAL,
			    "%s: a sparse image of %llu bytes, not a multiple "
			    "of the %u-byte block size",
			    o->image, (unsigned long long)job->original,
			    o->block_size);
		goto close;
	}
	memset(pair, 0, sizeof(*pair));
	verity_params_default(&pair->params);
	snprintf(pair->params.hash_name, sizeof(pair->params.hash_name), "%s",
		 o->hash_algorithm);
	pair->params.data_block_size = o->block_size;
	pair->params.hash_block_size = o->block_size;
	pair->params.data_blocks = job->image_size / o->block_size;
	pair->params.hash_offset = job->image_size;
	memcpy(pair->params.salt, job->salt, job->salt_len);
	pair->params.salt_size = job->salt_len;
	pair->params.no_superblock = 1;
	pair->data = (struct verity_region){o->image, 0, job->image_size, NULL};
	pair->hash = (struct verity_region){o->image, 0, 0, NULL};
	if ((r = verity_params_validate(&pair->params, err)) ||
	    (r = verity_layout_compute(&pair->params, &pair->layout, err)))
		goto close;
	tree_size = pair->layout.geo.tree_blocks * o->block_size;
	job->fec_offset = job->image_size + round_up(tree_size, AVB_FEC_BLOCK);
	/* the parity is made with the tree when the kernel's geometry is
	 * avbtool's: 4096-byte blocks */
	if (o->fec && o->block_size == AVB_FEC_BLOCK) {
		pair->fec.region = (struct verity_region){o->image, 0, 0, NULL};
		pair->fec.offset = job->fec_offset;
		pair->fec.roots = o->roots;
	}
	/* everything decided before the first write: the vbmeta's size is
	 * its size over any root of this length, and with it where the
	 * metadata ends */
	{
		static const uint8_t zero[HT_MAX_DIGEST_SIZE];
		uint64_t fec_size =
			o->fec ? parity_bytes(job->fec_offset, o->roots) : 0;
		uint64_t meta_end = job->fec_offset + fec_size;
		const struct avb_digest_part *old =
			job->have_old ? verity_avb_digest_part(first_of(
						&job->old, AVB_TAG_HASHTREE))
				      : NULL;
		struct avb_descriptor ht;
		struct avb_buf blob = {0};
		int staged, same = 0;

		struct avb_footer_opts sizing = *o;

		/* its size only: nothing signed (a signing helper runs
		 * once, for the blob written), unless the signature's bytes
		 * are known before (exact_signature: signed, to compare);
		 * over the old root, if any, the blob a run over unchanged
		 * data makes */
		sizing.vb.size_only = !exact_signature(&o->vb);
		hashtree_descriptor(o, job, tree_size, fec_size,
				    old && old->digest_len == job->digest_size
					    ? old->digest
					    : zero,
				    &ht);
		if (!o->do_not_append &&
		    !(r = footer_vbmeta(&sizing, &ht, &blob, err)) &&
		    !(r = vbmeta_fits(o->image, meta_end, blob.len,
				      o->partition_size, err)))
			meta_end += round_up(blob.len, AVB_FOOTER_BLOCK);
		if (!r && had_footer && !job->sparse)
			same = rewrites_same(job, &ht,
					     o->do_not_append ? NULL : &blob,
					     exact_signature(&o->vb),
					     job->fec_offset + fec_size,
					     job->image_size + tree_size);
		verity_avb_buf_free(&blob);
		if (r)
			goto close;
		/* over an old footer: in place with the footer kept last
		 * only when the run rewrites what the old footer counts
		 * with the same bytes and nothing new reaches the footer;
		 * else staged (stage_image) */
		if (had_footer && !job->sparse) {
			if ((r = stage_image(
				     d, job->original,
				     !same || meta_end + AVB_FOOTER_SIZE >
						      d->size,
				     &staged, err)))
				goto close;
			job->staged = staged;
			job->old_end = staged ? 0 : d->size;
			if (staged) {
				pair->data.path = pair->hash.path =
					verity_device_output_path(d);
				if (pair->fec.region.path)
					pair->fec.region.path =
						pair->data.path;
			}
		}
	}
	/* in place over the footer: the padding after the data and after
	 * the tree zeroed; otherwise the file cut to the data and grown with
	 * zeros to the parity's end, and a failure leaves the data alone,
	 * without a footer */
	{
		uint64_t tree_end = job->image_size + tree_size;
		uint64_t end =
			job->fec_offset +
			(o->fec ? parity_bytes(job->fec_offset, o->roots) : 0);

		if (job->sparse) {
			/* the chunks cut to the data, then the tree's and the
			 * parity's chunks, zeros that the tree's build and the
			 * parity's fill in through the extents */
			struct verity_sparse_writer *w = job->sparse;

			r = verity_sparse_cut(w, job->original, err);
			if (!r && tree_end > job->image_size)
				r = verity_sparse_append(
					w, VERITY_SPARSE_RAW,
					job->fec_offset - job->image_size, NULL,
					0, err);
			if (!r && o->fec)
				r = verity_sparse_append(
					w, VERITY_SPARSE_RAW,
					round_up(end - job->fec_offset,
						 AVB_FOOTER_BLOCK),
					NULL, 0, err);
			d->size = w->s.x.size;
			pair->data.extents = pair->hash.extents = &w->s.x;
			if (pair->fec.region.path)
				pair->fec.region.extents = &w->s.x;
		} else if (job->old_end) {
			if (!(r = zero_range(d, job->original,
					     job->image_size - job->original,
					     err)))
				r = zero_range(d, tree_end,
					       job->fec_offset - tree_end, err);
		} else {
			/* a signal meanwhile: the data as it was (the
			 * command's handler cuts it back) */
			verity_output_register_cut(d->fd, job->original);
			if (!(r = set_size(d, job->original, err)))
				r = set_size(d, end, err);
		}
	}
	/* parity of another geometry than the tree's: made apart, after
	 * the tree (verity/ops/ops.c) */
	job->parity_apart = o->fec && !pair->fec.region.path;
	if (r) {
		verity_avb_hashtree_abort(job);
		return r;
	}
	return 0;
close:
	close_sparse(&job->sparse, d);
	free_old(job);
	return r;
}

void verity_avb_hashtree_abort(struct avb_hashtree_job *job)
{
	free_old(job);
	/* a sparse image: the chunks appended and not counted cut off,
	 * avbtool's way (the data, without a footer) */
	if (job->sparse) {
		close_sparse(&job->sparse, &job->image);
		return;
	}
	/* a staged image: the temporary file goes (or was renamed over the
	 * old one whole), the old image stays; in place over the old
	 * footer: the footer is still there */
	if (job->staged || job->old_end) {
		/* in place over the old footer: it is still there */
		verity_output_forget_cut(job->image.fd);
		verity_device_close(&job->image);
		job->image.fd = -1;
		return;
	}
	/* avbtool's way: the data as it was, the footer gone */
	if (job->image.fd >= 0) {
		(void)set_size(&job->image, job->original, NULL);
		verity_output_forget_cut(job->image.fd);
		verity_device_close(&job->image);
		job->image.fd = -1;
	}
}

int verity_avb_hashtree_end(const struct avb_footer_opts *o,
			    struct avb_hashtree_job *job,
			    const struct verity_pair *pair,
			    const struct verity_run *run, const uint8_t *root,
			    struct ht_error *err)
{
	struct verity_device *d = &job->image;
	struct avb_descriptor ht;
	struct avb_buf blob = {0};
	uint64_t tree_size = pair->layout.geo.tree_blocks * o->block_size;
	uint64_t fec_size =
		o->fec ? parity_bytes(job->fec_offset, o->roots) : 0;
	/* the padding after the tree, and room for the parity */
	uint64_t end = job->fec_offset + fec_size;
	int r;

	(void)run;
	hashtree_descriptor(o, job, tree_size, fec_size, root, &ht);
	r = footer_vbmeta(o, &ht, &blob, err);
	if (!r && job->have_old)
		keep_signature(&o->vb, &job->old, &blob);
	if (!r)
		r = write_vbmeta_copy(o->output_vbmeta, &blob, err);
	if (job->sparse) {
		if (!r)
			r = o->do_not_append
				    ? verity_sparse_commit(job->sparse, err)
				    : sparse_footer(job->sparse, &blob,
						    o->partition_size,
						    job->original, err);
		verity_avb_buf_free(&blob);
		if (r)
			goto fail;
		close_sparse(&job->sparse, d);
		free_old(job);
		return 0;
	}
	if (!r && !o->do_not_append)
		r = append_vbmeta(d, end, &blob, o->partition_size,
				  job->original, job->old_end, err);
	else if (!r && job->old_end && !(r = verity_device_flush(d, err)))
		/* no vbmeta: the old footer cut off last */
		r = set_size(d, end, err);
	if (!r)
		r = finish_image(d, err);
	verity_avb_buf_free(&blob);
	if (r)
		goto fail;
	verity_output_forget_cut(d->fd);
	verity_device_close(d);
	d->fd = -1;
	free_old(job);
	return 0;
fail:
	verity_avb_hashtree_abort(job);
	return r;
}

/* The first size bytes of d, read through its source (a sparse image,
 * a logical partition), hold at most the bytes it does not store that
 * are hashed (VERITY_AVB_UNSTORED_MIN, _RATIO): counted over its extents,
 * not hashed. */
static int hash_bounded(const struct verity_device *d, uint64_t size,
			struct ht_error *err)
{
	uint64_t stored, unstored, most;
	int sparse;

	if (!d->src)
		return 0;
	stored = verity_extents_stored(d->src);
	unstored = verity_extents_unstored(d->src, d->base, size);
	most = stored > VERITY_AVB_UNSTORED_MIN / VERITY_AVB_UNSTORED_RATIO
		       ? (stored > UINT64_MAX / VERITY_AVB_UNSTORED_RATIO
				  ? UINT64_MAX
				  : stored * VERITY_AVB_UNSTORED_RATIO)
		       : VERITY_AVB_UNSTORED_MIN;
	if (unstored <= most)
		return 0;
	sparse = d->src->unit && !strcmp(d->src->unit, "sparse chunk");
	return ht_fail(err, EFBIG,
		       "%s: %llu of the %llu bytes to hash lie in %s, which "
		       "the image does not store: more than the %llu hashed "
		       "at most (4 GiB, or %d times the %llu bytes it "
		       "stores)",
		       d->path, (unsigned long long)unstored,
		       (unsigned long long)size,
		       sparse ? "DONT_CARE and FILL chunks" : "zero extents",
		       (unsigned long long)most, VERITY_AVB_UNSTORED_RATIO,
		       (unsigned long long)stored);
}

/* salt || the first size bytes of the image, hashed. */
static int hash_image(const struct verity_device *d, uint64_t size,
		      const char *alg, const uint8_t *salt, size_t salt_len,
		      uint8_t *out, struct ht_error *err)
{
	size_t chunk = 1u << 20;
	EVP_MD_CTX *c;
	EVP_MD *md;
	uint8_t *buf;
	int r;

	if ((r = hash_bounded(d, size, err)) ||
	    (r = ht_fetch_digest(alg, &md, err)))
		return r;
	c = EVP_MD_CTX_new();
	buf = malloc(chunk);
	if (!c || !md || !buf || !EVP_DigestInit_ex(c, md, NULL) ||
	    !EVP_DigestUpdate(c, salt, salt_len))
		r = ht_fail(err, ENOMEM, "cannot hash with %s", alg);
	for (uint64_t off = 0; !r && off < size; off += chunk) {
		size_t n = size - off < chunk ? (size_t)(size - off) : chunk;

		if (!(r = verity_device_read(d, off, buf, n, err)) &&
		    !EVP_DigestUpdate(c, buf, n))
			r = ht_fail(err, EIO, "cannot hash with %s", alg);
	}
	if (!r && !EVP_DigestFinal_ex(c, out, NULL))
		r = ht_fail(err, EIO, "cannot hash with %s", alg);
	free(buf);
	EVP_MD_free(md);
	EVP_MD_CTX_free(c);
	return r;
}

int verity_avb_hash_check(const char *path, const struct verity_extents *src,
			  const struct avb_descriptor *d, struct ht_error *err)
{
	struct verity_region whole = {path, 0, 0, src};
	struct verity_device dev;
	uint8_t digest[HT_MAX_DIGEST_SIZE];
	unsigned ds = digest_size_checked(d->hash.p.hash_algorithm, err);
	int r;

	if (!ds)
		return -EINVAL;
	if ((r = src ? verity_device_open_region(&dev, &whole, VERITY_OPEN_READ,
						 err)
		     : verity_container_open(&dev, path, NULL, err)))
		return r;
	r = hash_image(&dev, d->hash.p.image_size, d->hash.p.hash_algorithm,
		       d->hash.p.salt, d->hash.p.salt_len, digest, err);
	verity_device_close(&dev);
	if (r)
		return r;
	if (d->hash.p.digest_len && (d->hash.p.digest_len != ds ||
				     memcmp(digest, d->hash.p.digest, ds)))
		return ht_fail(err, EPERM,
			       "%s digest of %s does not match digest in "
			       "descriptor",
			       d->hash.p.hash_algorithm, path);
	return 0;
}

/* 1 when the footer at the end of d points to a vbmeta at off holding
 * blob's bytes: what writing blob there in place leaves as it was. */
static int same_vbmeta(const struct verity_device *d, uint64_t off,
		       const struct avb_buf *blob)
{
	uint8_t foot[AVB_FOOTER_SIZE], *old;
	struct avb_footer f;
	int same;

	if (d->size < AVB_FOOTER_SIZE ||
	    verity_device_read(d, d->size - AVB_FOOTER_SIZE, foot, sizeof(foot),
			       NULL) ||
	    verity_avb_footer_parse(foot, d->size, d->path, &f, NULL) ||
	    f.vbmeta_offset != off || f.vbmeta_size != blob->len ||
	    !(old = malloc(blob->len)))
		return 0;
	same = !verity_device_read(d, off, old, blob->len, NULL) &&
	       !memcmp(old, blob->p, blob->len);
	free(old);
	return same;
}

/* The vbmeta blob and the footer after original bytes of data: a sparse
 * image's chunk list cut there and avbtool's chunks appended; a raw
 * image written in place or staged (stage_image) over an old footer. */
static int put_vbmeta(struct verity_device *d,
		      struct verity_sparse_writer *sparse, uint64_t original,
		      int had_footer, const struct avb_buf *blob,
		      uint64_t partition_size, struct ht_error *err)
{
	uint64_t off = round_up(original, AVB_FOOTER_BLOCK), old_end = 0;
	int staged = 0, r = 0;

	if (sparse)
		/* avbtool's chunks: the data's cut where the old footer's
		 * data ended, then vbmeta, DONT_CARE and footer */
		return (r = verity_sparse_cut(sparse, original, err))
			       ? r
			       : sparse_footer(sparse, blob, partition_size,
					       original, err);
	/* over an old footer: in place with the footer kept last when the
	 * new vbmeta is the old one's bytes at its place (a run over
	 * unchanged data) and does not reach the footer, else staged: an
	 * interruption leaves the old image or the new one */
	if (had_footer &&
	    !(r = stage_image(
		      d, original,
		      !same_vbmeta(d, off, blob) ||
			      off + round_up(blob->len, AVB_FOOTER_BLOCK) +
					      AVB_FOOTER_SIZE >
				      d->size,
		      &staged, err)) &&
	    !staged)
		old_end = d->size;
	/* a signal before the footer is written: the data as it was */
	if (!r && !had_footer)
		verity_output_register_cut(d->fd, original);
	if (!r)
		r = old_end ? zero_range(d, original, off - original, err)
			    : set_size(d, original, err);
	if (!r && !(r = append_vbmeta(d, off, blob, partition_size, original,
				      old_end, err)))
		r = finish_image(d, err);
	/* a failure leaves the data without a footer (a first run), the old
	 * footer (in place), or the old image whole (staged) */
	if (r && !had_footer)
		(void)set_size(d, original, NULL);
	if (!had_footer)
		verity_output_forget_cut(d->fd);
	return r;
}

int verity_avb_add_hash_footer(const struct avb_footer_opts *o,
			       struct ht_error *err)
{
	struct verity_device d;
	struct avb_descriptor hd = {.tag = AVB_TAG_HASH};
	struct avb_buf blob = {0};
	struct avb_footer_opts sized = *o;
	struct verity_sparse_writer *sparse = NULL;
	uint8_t salt[VERITY_MAX_SALT_SIZE], digest[HT_MAX_DIGEST_SIZE];
	uint64_t original, max, meta = AVB_MAX_VBMETA_ROOM + AVB_FOOTER_BLOCK;
	size_t salt_len;
	unsigned ds = digest_size_checked(o->hash_algorithm, err);
	struct avb_image old;
	int had_footer, have_old = 0, r;

	if (!ds)
		return -EINVAL;
	if (!o->partition_size && !o->dynamic_size)
		return ht_fail(err, EINVAL,
			       "--dynamic_partition_size required when not "
			       "specifying a partition size");
	if (!o->dynamic_size && o->partition_size < meta)
		return ht_fail(err, EINVAL,
			       "partition size of %llu is too small: it needs "
			       "to be at least %llu",
			       (unsigned long long)o->partition_size,
			       (unsigned long long)meta);
	if ((r = check_vbmeta_opts(&o->vb, err)))
		return r;
	r = sparse_target(o->image)
		    ? open_sparse(o->image, 0, &sparse, &d, &original, &had_footer,
				  err)
		    : open_image(o->image, &d, &original, &had_footer, err);
	if (r)
		return r;
	if (o->dynamic_size)
		sized.partition_size =
			round_up(original + meta, AVB_FOOTER_BLOCK);
	max = verity_avb_max_image_size(&sized, AVB_FOOTER_HASH);
	if ((r = partition_blocks(sized.partition_size, 1, err)))
		goto close;
	if (original > max) {
		r = ht_fail(err, EINVAL,
			    "%s: image size of %llu exceeds maximum image size "
			    "of %llu in order to fit in a partition size of "
			    "%llu",
			    o->image, (unsigned long long)original,
			    (unsigned long long)max,
			    (unsigned long long)sized.partition_size);
		goto close;
	}
	/* over an old footer of the same hash: its salt kept (and its
	 * signature, over the same bytes: keep_signature) */
	have_old = had_footer && !verity_avb_image_read(o->image, &old, NULL);
	r = the_salt(o, ds,
		     have_old ? verity_avb_digest_part(
					first_of(&old, AVB_TAG_HASH))
			      : NULL,
		     salt, &salt_len, err);
	if (r || (r = hash_image(&d, original, o->hash_algorithm, salt,
				 salt_len, digest, err)))
		goto close;
	hd.hash.p.image_size = original;
	snprintf(hd.hash.p.hash_algorithm, sizeof(hd.hash.p.hash_algorithm),
		 "%s", o->hash_algorithm);
	hd.hash.p.name =
		(const uint8_t *)(o->partition_name ? o->partition_name : "");
	hd.hash.p.name_len = (uint32_t)strlen((const char *)hd.hash.p.name);
	hd.hash.p.salt = salt;
	hd.hash.p.salt_len = (uint32_t)salt_len;
	hd.hash.p.digest = digest;
	hd.hash.p.digest_len = o->persistent_digest ? 0 : ds;
	hd.hash.p.flags = o->descriptor_flags;
	r = footer_vbmeta(o, &hd, &blob, err);
	if (!r && have_old)
		keep_signature(&o->vb, &old, &blob);
	if (!r && !o->do_not_append)
		r = vbmeta_fits(o->image, round_up(original, AVB_FOOTER_BLOCK),
				blob.len, sized.partition_size, err);
	if (!r)
		r = write_vbmeta_copy(o->output_vbmeta, &blob, err);
	if (!r && !o->do_not_append)
		r = put_vbmeta(&d, sparse, original, had_footer, &blob,
			       sized.partition_size, err);
	verity_avb_buf_free(&blob);
close:
	if (have_old)
		verity_avb_image_free(&old);
	close_sparse(&sparse, &d);
	return r;
}

int verity_avb_append_vbmeta_image(const char *image, const char *vbmeta_image,
				   uint64_t partition_size,
				   struct ht_error *err)
{
	struct verity_sparse_writer *sparse = NULL;
	struct verity_device d;
	struct avb_image vb;
	struct avb_buf blob = {0};
	uint64_t original;
	int had_footer, r;

	if ((r = partition_blocks(partition_size, 0, err)))
		return r;
	if (verity_path_same_storage(image, vbmeta_image))
		return ht_fail(err, EINVAL,
			       "%s: is the vbmeta image %s: an output is "
			       "never written over what is read",
			       image, vbmeta_image);
	/* the blob as verify reads it: whole, and consistent with the key
	 * it carries */
	if ((r = verity_avb_image_read(vbmeta_image, &vb, err)))
		return r;
	if ((r = verity_avb_vbmeta_check(&vb.vbmeta, vbmeta_image, err)) ||
	    verity_avb_buf_put(&blob, vb.vbmeta.blob, vb.vbmeta.size)) {
		verity_avb_image_free(&vb);
		return r ? r : ht_fail(err, ENOMEM, "out of memory");
	}
	verity_avb_image_free(&vb);
	r = sparse_target(image)
		    ? open_sparse(image, 0, &sparse, &d, &original, &had_footer,
				  err)
		    : open_image(image, &d, &original, &had_footer, err);
	if (!r) {
		if (!(r = vbmeta_fits(image, round_up(original, AVB_FOOTER_BLOCK),
				      blob.len, partition_size, err)))
			r = put_vbmeta(&d, sparse, original, had_footer, &blob,
				       partition_size, err);
		close_sparse(&sparse, &d);
	}
	verity_avb_buf_free(&blob);
	return r;
}

int verity_avb_make_vbmeta_image(const char *output,
				 const struct avb_vbmeta_opts *o,
				 uint64_t padding, struct ht_error *err)
{
	struct avb_vbmeta_opts vb = *o;
	struct avb_buf blob = {0};
	int r;

	vb.output = output;
	if (vb.rollback_index_location && vb.required_minor < 2)
		vb.required_minor = 2;
	if ((r = verity_avb_vbmeta_make(&vb, NULL, 0, &blob, err)))
		return r;
	if (padding && blob.len % padding &&
	    verity_avb_buf_zeros(&blob, (size_t)(padding - blob.len % padding)))
		r = ht_fail(err, ENOMEM, "out of memory");
	if (!r)
		r = verity_write_file(output, "vbmeta image", blob.p, blob.len,
				      err);
	verity_avb_buf_free(&blob);
	return r;
}

/* The image read, and refused unless it has a footer (the commands that
 * rewrite one). */
static int read_footed(const char *image, struct avb_image *img,
		       struct ht_error *err)
{
	int r = verity_avb_image_read(image, img, err);

	if (!r && !img->has_footer) {
		verity_avb_image_free(img);
		r = ht_fail(err, EINVAL, "%s: the image has no footer", image);
	}
	return r;
}

int verity_avb_erase_footer(const char *image, int keep_hashtree,
			    struct ht_error *err)
{
	struct avb_image img;
	struct verity_device d;
	uint64_t size;
	int r = read_footed(image, &img, err);

	if (r)
		return r;
	size = img.footer.original_image_size;
	/* the vbmeta read as verify reads it: whole, and consistent with
	 * the key it carries */
	if ((r = verity_avb_vbmeta_check(&img.vbmeta, image, err))) {
		verity_avb_image_free(&img);
		return r;
	}
	if (keep_hashtree) {
		const struct avb_descriptor *ht =
			verity_avb_image_hashtree(&img);
		struct verity_pair pair;
		int unusable;

		if (!ht) {
			verity_avb_image_free(&img);
			return ht_fail(err, EINVAL,
				       "%s: asked to keep the hashtree, and "
				       "there is no hashtree descriptor",
				       image);
		}
		/* the descriptor validated as verify validates it: every
		 * offset and size inside the file, none over the data the
		 * footer counts, nor the metadata; then no sum wraps */
		if ((r = verity_avb_image_pair(&img, ht, &pair, &unusable,
					       err))) {
			verity_avb_image_free(&img);
			return r;
		}
		size = ht->hashtree.tree_offset + ht->hashtree.tree_size;
		if (ht->hashtree.fec_size &&
		    ht->hashtree.fec_offset + ht->hashtree.fec_size > size)
			size = ht->hashtree.fec_offset + ht->hashtree.fec_size;
	}
	verity_avb_image_free(&img);
	if (sparse_target(image)) {
		struct verity_sparse_writer w;

		/* the chunk list cut, avbtool's way */
		if ((r = verity_sparse_writer_open(&w, image, err)))
			return r;
		if (!(r = verity_loop_refuse_backing(&w.d, image, err)) &&
		    !(r = verity_sparse_cut(&w, size, err)))
			r = verity_sparse_commit(&w, err);
		verity_sparse_writer_close(&w);
		return r;
	}
	if ((r = verity_device_open(&d, image, VERITY_OPEN_WRITE, err)))
		return r;
	if ((r = verity_loop_refuse_backing(&d, image, err))) {
		verity_device_close(&d);
		return r;
	}
	if (!(r = set_size(&d, size, err)))
		r = verity_device_flush(&d, err);
	verity_device_close(&d);
	return r;
}

/* The most hash and hashtree descriptors a vbmeta may have checked. */
#define AVB_MAX_CHECKED 128

static int checked_tag(uint64_t tag)
{
	return tag == AVB_TAG_HASHTREE || tag == AVB_TAG_HASH;
}

int verity_avb_check_partitions(const struct avb_image *img,
				struct ht_error *err)
{
	const struct avb_vbmeta *v = &img->vbmeta;
	size_t n = 0;

	for (size_t i = 0; i < v->ndesc; i++) {
		const struct avb_descriptor *d = &v->desc[i];
		uint32_t dn;
		const uint8_t *dname = verity_avb_desc_name(d, &dn);

		if (!checked_tag(d->tag))
			continue;
		if (++n > AVB_MAX_CHECKED)
			return ht_fail(err, EINVAL,
				       "%s: more than %d hash and hashtree "
				       "descriptors: not checked",
				       img->path, AVB_MAX_CHECKED);
		for (size_t j = 0; j < i; j++) {
			const struct avb_descriptor *e = &v->desc[j];
			char shown[HT_NAME_SHOWN_MAX];
			uint32_t en;
			const uint8_t *ename = verity_avb_desc_name(e, &en);

			if (!checked_tag(e->tag) || en != dn ||
			    memcmp(ename, dname, dn))
				continue;
			return ht_fail(
				err, EINVAL,
				"%s: two descriptors of partition '%s' "
				"(%zu and %zu): each partition's data "
				"is checked once, against one digest",
				img->path,
				ht_name_shown(dname, dn, shown, sizeof(shown)),
				j + 1, i + 1);
		}
	}
	return 0;
}

int verity_avb_described_image(const struct avb_image *img,
			       const struct avb_descriptor *d, uint32_t slot,
			       char **path, struct ht_error *err)
{
	const struct avb_vbmeta *v = &img->vbmeta;
	const uint8_t *own = NULL, *name;
	uint32_t own_len = 0, name_len;
	size_t len;
	const char *base, *ext;
	char *copy, *dir;

	*path = NULL;
	name = verity_avb_desc_name(d, &name_len);
	/* an image with a footer carries its own partition's descriptor
	 * first (add_hash_footer, add_hashtree_footer) */
	for (size_t k = 0; img->has_footer && !own && k < v->ndesc; k++)
		if (checked_tag(v->desc[k].tag))
			own = verity_avb_desc_name(&v->desc[k], &own_len);
	if (d->tag == AVB_TAG_CHAIN_PARTITION)
		own = NULL;
	if (!name_len ||
	    (own && own_len == name_len && !memcmp(own, name, own_len))) {
		if (!(*path = strdup(img->path)))
			return ht_fail(err, ENOMEM, "out of memory");
		return 0;
	}
	if (!verity_avb_partition_name_ok(name, name_len)) {
		char shown[HT_NAME_SHOWN_MAX];

		return ht_fail(
			err, EINVAL,
			"%s: the %spartition name '%s' is not a name "
			"(letters, digits, '_', '-', '.'): no file is "
			"looked up by it",
			img->path,
			d->tag == AVB_TAG_CHAIN_PARTITION ? "chained " : "",
			ht_name_shown(name, name_len, shown, sizeof(shown)));
	}
	if (!(copy = strdup(img->path)))
		return ht_fail(err, ENOMEM, "out of memory");
	base = strrchr(img->path, '/');
	base = base ? base + 1 : img->path;
	ext = strrchr(base, '.');
	ext = ext && ext != base ? ext : "";
	/* avbtool's os.path.join: a bare file name has no directory */
	dir = base == img->path ? NULL : dirname(copy);
	len = (dir ? strlen(dir) + 1 : 0) + name_len + strlen(ext) + 1;
	if ((*path = malloc(len)))
		snprintf(*path, len, "%s%s%.*s%s", dir ? dir : "",
			 dir && strcmp(dir, "/") ? "/" : "", (int)name_len,
			 (const char *)name, ext);
	/* a factory image set: the partition inside super.img beside,
	 * when there is no file of its own */
	if (*path && access(*path, F_OK) != 0 && errno == ENOENT) {
		char part[LP_NAME_MAX + 1];
		char *in;

		snprintf(part, sizeof(part), "%.*s", (int)name_len,
			 (const char *)name);
		if ((in = verity_super_beside(dir, part, slot))) {
			free(*path);
			*path = in;
		}
	}
	free(copy);
	return *path ? 0 : ht_fail(err, ENOMEM, "out of memory");
}

int verity_avb_resize_image(const char *image, uint64_t partition_size,
			    struct ht_error *err)
{
	struct avb_image img;
	struct verity_device d;
	uint8_t foot[AVB_FOOTER_SIZE];
	uint64_t vb_end, old_end, keep;
	int r;

	if ((r = partition_blocks(partition_size, 0, err)))
		return r;
	if ((r = read_footed(image, &img, err)))
		return r;
	/* the vbmeta ends the image's own bytes: the footer moves */
	vb_end = round_up(img.footer.vbmeta_offset + img.footer.vbmeta_size,
			  AVB_FOOTER_BLOCK);
	verity_avb_footer_encode(&img.footer, foot);
	old_end = img.file_size;
	verity_avb_image_free(&img);
	if (partition_size < vb_end + AVB_FOOTER_BLOCK)
		return ht_fail(err, EINVAL,
			       "%s: Requested size of %llu is too small for an "
			       "image of size %llu",
			       image, (unsigned long long)partition_size,
			       (unsigned long long)(vb_end + AVB_FOOTER_BLOCK));
	if (sparse_target(image)) {
		struct verity_sparse_writer w;
		uint8_t *b = calloc(1, AVB_FOOTER_BLOCK);

		if (!b)
			return ht_fail(err, ENOMEM, "out of memory");
		memcpy(b + AVB_FOOTER_BLOCK - AVB_FOOTER_SIZE, foot,
		       AVB_FOOTER_SIZE);
		/* avbtool's chunks: cut after the vbmeta, DONT_CARE (even
		 * when empty), the footer's block */
		/* staged: the footer is cut off before the new one is
		 * appended */
		if (!(r = sparse_writer_staged(image, &w, err))) {
			if (!(r = verity_sparse_cut(&w, vb_end, err)) &&
			    !(r = verity_sparse_append(
				      &w, VERITY_SPARSE_DONT_CARE,
				      partition_size - vb_end -
					      AVB_FOOTER_BLOCK,
				      NULL, 0, err)) &&
			    !(r = verity_sparse_append(&w, VERITY_SPARSE_RAW,
						       AVB_FOOTER_BLOCK, b, 0,
						       err)) &&
			    !(r = verity_sparse_commit(&w, err)))
				r = verity_device_commit(&w.d, err);
			verity_sparse_writer_close(&w);
		}
		free(b);
		return r;
	}
	if ((r = verity_device_open(&d, image, VERITY_OPEN_WRITE, err)))
		return r;
	if ((r = verity_loop_refuse_backing(&d, image, err)))
		goto out;
	/* what lies between the vbmeta and the footer is zeros, as
	 * avbtool's cut and regrowth leave it; the old footer stays until
	 * the new one is written (an interruption leaves one of the two at
	 * the file's end) */
	keep = (old_end < partition_size ? old_end : partition_size) -
	       AVB_FOOTER_SIZE;
	if (keep > vb_end && (r = zero_range(&d, vb_end, keep - vb_end, err)))
		goto out;
	if ((r = verity_device_write(&d, partition_size - AVB_FOOTER_SIZE,
				     foot, sizeof(foot), err)) ||
	    (r = verity_device_flush(&d, err)))
		goto out;
	if (partition_size < old_end)
		r = set_size(&d, partition_size, err);
	else if (partition_size > old_end)
		r = zero_range(&d, old_end - AVB_FOOTER_SIZE, AVB_FOOTER_SIZE,
			       err);
	if (!r)
		r = verity_device_flush(&d, err);
out:
	verity_device_close(&d);
	return r;
}

/* The first block avbtool's zero_hashtree writes over a tree and over
 * its parity: a marker that says they are to be made again. */
static const char zeroed_marker[8] = {'Z', 'e', 'R', 'o', 'H', 'a', 'S', 'H'};

/* The bytes after a zeroed tree and parity, kept while the sparse image
 * is cut: its extents, the file's bytes of them read (at most
 * ZERO_REST_MAX). */
#define ZERO_REST_MAX (64u << 20)
struct rest {
	struct verity_extent *e;
	size_t n;
	uint8_t *bytes; /* the FILE extents' bytes, in order */
	uint64_t held;
};

static void rest_free(struct rest *x)
{
	free(x->e);
	free(x->bytes);
}

static int rest_read(const struct verity_device *d,
		     const struct verity_extents *x, uint64_t from,
		     struct rest *out, struct ht_error *err)
{
	uint64_t off = from;
	int r;

	memset(out, 0, sizeof(*out));
	while (off < x->size) {
		const struct verity_extent *e = verity_extents_at(x, off);
		uint64_t in = off - e->logical, len = e->length - in;
		struct verity_extent *more =
			realloc(out->e, (out->n + 1) * sizeof(*more));

		if (!more)
			return ht_fail(err, ENOMEM, "out of memory");
		out->e = more;
		more[out->n] = *e;
		more[out->n].logical = off;
		more[out->n].length = len;
		if (e->kind == VERITY_EXTENT_FILL)
			more[out->n].pattern = verity_extent_pattern_at(e, in);
		if (e->kind == VERITY_EXTENT_FILE) {
			uint8_t *b;

			if (out->held + len > ZERO_REST_MAX)
				return ht_fail(
					err, EFBIG,
					"%s: more than %u MiB of stored bytes "
					"follow the tree and parity: make a "
					"raw image first (simg2img %s "
					"IMAGE.raw)",
					d->path, ZERO_REST_MAX >> 20, d->path);
			if (!(b = realloc(out->bytes, out->held + len)))
				return ht_fail(err, ENOMEM, "out of memory");
			out->bytes = b;
			if ((r = verity_device_read(d, off, b + out->held,
						    (size_t)len, err)))
				return r;
			out->held += len;
		}
		out->n++;
		off += len;
	}
	return 0;
}

/* The rest written back into the RAW chunk appended for it (zeros are
 * already there: the chunk grew the file). */
static int rest_write(const struct verity_device *d, const struct rest *x,
		      struct ht_error *err)
{
	const uint8_t *held = x->bytes;
	uint8_t *buf = NULL;
	int r = 0;

	for (size_t i = 0; !r && i < x->n; i++) {
		const struct verity_extent *e = &x->e[i];

		if (e->kind == VERITY_EXTENT_FILE) {
			r = verity_device_write(d, e->logical, held,
						(size_t)e->length, err);
			held += e->length;
		} else if (e->kind == VERITY_EXTENT_FILL && e->pattern) {
			struct verity_extent f = *e;

			f.logical = 0;
			if (!buf && !(buf = malloc(1u << 20))) {
				r = ht_fail(err, ENOMEM, "out of memory");
				break;
			}
			for (uint64_t at = 0; !r && at < e->length;) {
				size_t n = e->length - at < (1u << 20)
						   ? (size_t)(e->length - at)
						   : 1u << 20;

				verity_extent_fill(&f, at, buf, n);
				r = verity_device_write(d, e->logical + at,
							buf, n, err);
				at += n;
			}
		}
	}
	free(buf);
	return r;
}

int verity_avb_zero_hashtree(const char *image, struct ht_error *err)
{
	struct avb_image img;
	const struct avb_descriptor *ht;
	struct verity_pair pair;
	uint64_t tree_off, tree_size, fec_off = 0, fec_size = 0, end;
	uint8_t *block;
	int unusable, r;

	if ((r = read_footed(image, &img, err)))
		return r;
	if (!(ht = verity_avb_image_hashtree(&img))) {
		verity_avb_image_free(&img);
		return ht_fail(err, EINVAL,
			       "%s: no hashtree descriptor was found", image);
	}
	/* every offset and size checked as verify checks them */
	if ((r = verity_avb_image_pair(&img, ht, &pair, &unusable, err))) {
		verity_avb_image_free(&img);
		return r;
	}
	tree_off = ht->hashtree.tree_offset;
	tree_size = ht->hashtree.tree_size;
	if (ht->hashtree.fec_offset) {
		fec_off = ht->hashtree.fec_offset;
		fec_size = ht->hashtree.fec_size;
	}
	verity_avb_image_free(&img);
	if (fec_off && fec_off != tree_off + tree_size)
		return ht_fail(err, EINVAL,
			       "%s: the hash tree and the parity are not "
			       "adjacent: not zeroed",
			       image);
	if (tree_size < AVB_FOOTER_BLOCK || tree_size % AVB_FOOTER_BLOCK ||
	    (fec_off && (fec_size < AVB_FOOTER_BLOCK ||
			 fec_size % AVB_FOOTER_BLOCK)))
		return ht_fail(err, EINVAL,
			       "%s: a hash tree of %llu bytes and parity of "
			       "%llu: not whole 4096-byte blocks, not zeroed",
			       image, (unsigned long long)tree_size,
			       (unsigned long long)fec_size);
	end = tree_off + tree_size + fec_size;
	if (!(block = calloc(1, AVB_FOOTER_BLOCK)))
		return ht_fail(err, ENOMEM, "out of memory");
	memcpy(block, zeroed_marker, sizeof(zeroed_marker));
	if (sparse_target(image)) {
		struct verity_sparse_writer *w = NULL;
		struct verity_device d;
		struct rest rest;
		uint64_t original, size;
		int had_footer;

		if ((r = open_sparse(image, 1, &w, &d, &original, &had_footer,
				     err))) {
			free(block);
			return r;
		}
		size = d.size;
		/* avbtool's chunks: cut at the tree; the marker's block
		 * (RAW) and zeros (FILL) for the tree, the same for the
		 * parity; then what followed, as one RAW chunk */
		if (!(r = rest_read(&d, &w->s.x, end, &rest, err)) &&
		    !(r = verity_sparse_cut(w, tree_off, err)) &&
		    !(r = verity_sparse_append(w, VERITY_SPARSE_RAW,
					       AVB_FOOTER_BLOCK, block, 0,
					       err)) &&
		    !(r = verity_sparse_append(w, VERITY_SPARSE_FILL,
					       tree_size - AVB_FOOTER_BLOCK,
					       NULL, 0, err)) &&
		    !(fec_off &&
		      ((r = verity_sparse_append(w, VERITY_SPARSE_RAW,
						 AVB_FOOTER_BLOCK, block, 0,
						 err)) ||
		       (r = verity_sparse_append(w, VERITY_SPARSE_FILL,
						 fec_size - AVB_FOOTER_BLOCK,
						 NULL, 0, err)))) &&
		    !(r = verity_sparse_append(w, VERITY_SPARSE_RAW,
					       size - end, NULL, 0, err))) {
			d.size = w->s.x.size;
			if (!(r = rest_write(&d, &rest, err)) &&
			    !(r = verity_device_flush(&d, err)) &&
			    !(r = verity_sparse_commit(w, err)))
				r = verity_device_commit(&w->d, err);
		}
		rest_free(&rest);
		close_sparse(&w, &d);
	} else {
		struct verity_device d;

		if (!(r = verity_device_open(&d, image, VERITY_OPEN_WRITE,
					     err))) {
			if (!(r = verity_loop_refuse_backing(&d, image,
							     err)) &&
			    !(r = verity_device_write(&d, tree_off, block,
						      AVB_FOOTER_BLOCK,
						      err)) &&
			    !(r = zero_range(&d, tree_off + AVB_FOOTER_BLOCK,
					     tree_size - AVB_FOOTER_BLOCK,
					     err)) &&
			    !(fec_off &&
			      ((r = verity_device_write(&d, fec_off, block,
							AVB_FOOTER_BLOCK,
							err)) ||
			       (r = zero_range(&d, fec_off + AVB_FOOTER_BLOCK,
					       fec_size - AVB_FOOTER_BLOCK,
					       err)))))
				r = verity_device_flush(&d, err);
			verity_device_close(&d);
		}
	}
	free(block);
	return r;
}

int verity_avb_tree_zeroed(const char *image, const struct avb_descriptor *ht,
			   struct ht_error *err)
{
	struct verity_device d;
	uint8_t first[sizeof(zeroed_marker)];
	int r;

	if (!ht->hashtree.tree_size)
		return 1;
	if (ht->hashtree.tree_size < sizeof(first))
		return 0;
	if ((r = verity_container_open(&d, image, NULL, err)))
		return r;
	if (ht->hashtree.tree_offset > d.size ||
	    d.size - ht->hashtree.tree_offset < sizeof(first))
		r = ht_fail(err, EINVAL,
			    "%s: the hash tree at byte %llu lies outside the "
			    "image",
			    image,
			    (unsigned long long)ht->hashtree.tree_offset);
	else if (!(r = verity_device_read(&d, ht->hashtree.tree_offset, first,
					  sizeof(first), err)))
		r = !memcmp(first, zeroed_marker, sizeof(first));
	verity_device_close(&d);
	return r;
}

int verity_avb_data_root(const char *image, const struct avb_descriptor *ht,
			 unsigned threads, uint8_t *root, size_t *len,
			 struct ht_error *err)
{
	struct verity_device d;
	struct verity_pair pair;
	struct verity_memtree m;
	int unusable, r;

	if ((r = verity_container_open(&d, image, NULL, err)))
		return r;
	if (!(r = verity_avb_hashtree_pair(image, d.size, ht, &pair, &unusable,
					   err)) &&
	    !(r = verity_memtree_init(&m, &pair.params, NULL, &d, err))) {
		r = verity_memtree_build(&m, threads, root, err);
		verity_memtree_free(&m);
		*len = ht_digest_size(ht->hashtree.p.hash_algorithm);
	}
	verity_device_close(&d);
	return r;
}
