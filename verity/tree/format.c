#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "verity/storage/device.h"
#include "verity/fec/fec.h"
#include "verity/tree/layout_internal.h"
#include "verity/tree/superblock.h"
#include "verity/verity.h"

/* Format with parity built alongside: tree blocks go into the parity as
 * they are written. */
static int io_write_tree_fused(void *c, uint64_t off, const void *buf,
			       size_t len, struct fv_error *err)
{
	const struct verity_io_ctx *ctx = c;
	size_t bs = ctx->fused->fl->block_size;
	int r = verity_device_write(ctx->hash, ctx->tree_offset + off, buf, len,
				    err);

	if (!r)
		fec_fused_tree_written(ctx->fused, off / bs, buf, len / bs);
	return r;
}

static int io_data_seen(void *c, unsigned worker, uint64_t first,
			const uint8_t *blocks, size_t n, struct fv_error *err)
{
	const struct verity_io_ctx *ctx = c;

	return fec_fused_data_seen(ctx->fused, worker, first, blocks, n, err);
}

/* The superblock, then zeros up to the first tree block. */
static int write_superblock(const struct verity_params *p,
			    const struct verity_layout *l,
			    const struct verity_device *hash,
			    struct fv_error *err)
{
	uint64_t end =
		l->tree_offset < l->hash_end ? l->tree_offset : l->hash_end;
	size_t len = (size_t)(end - p->hash_offset);
	uint8_t *buf = calloc(1, len);
	int r;

	if (!buf)
		return fv_fail(err, ENOMEM, "out of memory");
	verity_sb_encode(p, buf);
	r = verity_device_write(hash, p->hash_offset, buf, len, err);
	free(buf);
	return r;
}

/* The FEC device: the hash device again when it names the same file (the
 * parity then goes into the same temporary file), else an output. */
static int open_fec(struct verity_device *fec, const char *fec_path,
		    const struct verity_device *hash, const char *hash_path,
		    const char *data_path, uint64_t offset,
		    struct fv_error *err)
{
	if (!strcmp(fec_path, hash_path) ||
	    verity_path_same(fec_path, hash_path)) {
		*fec = *hash;
		fec->tmp = NULL;
		fec->final = NULL;
		fec->path = fec_path;
		fec->fd = dup(hash->fd);
		if (fec->fd < 0)
			return fv_fail(err, errno, "%s: %s", fec_path,
				       strerror(errno));
		return 0;
	}
	return verity_device_open_format_output(fec, fec_path, "the FEC file",
						data_path, offset, err);
}

/* In place, an interrupted format must not leave the old superblock in
 * front of a half-written tree: the superblock's place gets a marker
 * that dump and verify call unfinished, durable before the first tree
 * block; the new superblock comes last, once the tree is durable. */
static int mark_unfinished(const struct verity_params *p,
			   const struct verity_device *hash,
			   struct fv_error *err)
{
	uint8_t sb[VERITY_SB_SIZE];

	memset(sb, 0, sizeof(sb));
	memcpy(sb, VERITY_SB_UNFINISHED, 8);
	if (verity_device_write(hash, p->hash_offset, sb, sizeof(sb), err))
		return -EIO;
	if (fsync(hash->fd) < 0 && errno != EINVAL)
		return fv_fail(err, EIO, "%s: cannot flush: %s", hash->path,
			       strerror(errno));
	return 0;
}

/* A gap between the tree and the parity is covered: zeros. */
static int extend_for_fec(const struct verity_layout *l,
			  const struct verity_device *hash,
			  struct fv_error *err)
{
	struct stat st;

	if (l->fec.on_hash_device && !hash->is_block &&
	    fstat(hash->fd, &st) == 0 && (uint64_t)st.st_size < l->fec.offset &&
	    ftruncate(hash->fd, (off_t)l->fec.offset) < 0)
		return fv_fail(err, EIO, "%s: cannot extend: %s", hash->path,
			       strerror(errno));
	return 0;
}

/* The parity: finished from what the tree build added (fused), or
 * computed in a pass of its own. */
static int write_fec(const struct verity_layout *l,
		     const struct verity_device *data,
		     const struct verity_device *hash,
		     const struct verity_device *fec, const struct fec_rs *rs,
		     struct fec_fused *fused, const struct ht_options *opt,
		     struct fv_error *err)
{
	struct fec_source src = {data, hash, fec, &l->fec, NULL};
	int r = extend_for_fec(l, hash, err);

	if (!r && fused->planes)
		r = fec_fused_finish(fused, &src, err);
	else if (!r)
		r = fec_parity_pass(&src, rs, FEC_PASS_WRITE, NULL,
				    opt ? opt->threads : 1, NULL, err);
	return r;
}

int verity_format(struct verity_params *p, const char *data_path,
		  const char *hash_path, const struct verity_fec_params *fp,
		  const struct ht_options *opt, uint8_t *root,
		  struct verity_layout *layout, struct verity_info *info,
		  struct fv_error *err)
{
	struct verity_device data, hash, fec = {.fd = -1};
	struct verity_layout l;
	struct verity_io_ctx ctx;
	struct ht_hasher h;
	struct ht_io io;
	struct fec_rs rs = {0};
	struct fec_fused fused = {0};
	struct ht_options build = {.threads = 1};
	int r;

	r = verity_open_pair(p, data_path, hash_path, 0, VERITY_OPEN_CREATE,
			     &data, &hash, &l, err);
	if (r)
		return r;
	if (opt)
		build = *opt;
	if (fp && fp->device) {
		r = open_fec(&fec, fp->device, &hash, hash_path, data_path,
			     fp->offset, err);
		if (!r)
			r = verity_fec_attach(p, &l, fp, VERITY_OPEN_CREATE,
					      &data, &hash, &fec, err);
		if (r) {
			verity_device_close(&fec);
			verity_device_close(&hash);
			verity_device_close(&data);
			return r;
		}
	}
	/* (without a superblock the marker sits where the tree starts: its
	 * top block, written last, replaces it) */
	if (!hash.tmp && (!p->no_superblock || l.geo.tree_blocks) &&
	    (r = mark_unfinished(p, &hash, err))) {
		verity_device_close(&fec);
		verity_device_close(&hash);
		verity_device_close(&data);
		return r;
	}
	ctx.data = &data;
	ctx.hash = &hash;
	ctx.tree_offset = l.tree_offset;
	ctx.fused = NULL;
	verity_io_init(&io, &ctx);
	if (l.fec.roots) {
		r = fec_rs_init(&rs, l.fec.roots, err);
		/* the data blocks go into the parity as the tree hashes them
		 * (a tree of no level hashes none) */
		if (!r && l.geo.levels)
			r = fec_fused_init(&fused, &rs, &l.fec,
					   opt ? opt->threads : 1, err);
		if (r > 0)
			r = 0;
		if (fused.planes) {
			/* read, not mapped: the parity update then finds the
			 * blocks in the chunk just hashed, in cache (mapped,
			 * format with parity was 15% slower here) */
			build.no_map = 1;
			io.data_seen = io_data_seen;
			io.write_tree = io_write_tree_fused;
			ctx.fused = &fused;
		}
	}
	if (!r)
		r = ht_hasher_init(&h, p->hash_name, p->hash_type, p->salt,
				   p->salt_size, err);
	if (!r) {
		verity_fill_info(info, &h);
		r = ht_build(&l.geo, &h, &io, &build, root, err);
		ht_hasher_free(&h);
		if (!r)
			r = verity_data_unchanged(&data, &l, err);
	}
	/* parity after the tree, before the superblock, as veritysetup */
	if (!r && l.fec.roots)
		r = write_fec(&l, &data, &hash, &fec, &rs, &fused, opt, err);
	fec_fused_free(&fused);
	if (rs.karn)
		fec_rs_free(&rs);
	/* in place: the tree and parity durable before the superblock */
	if (!r && !hash.tmp && fsync(hash.fd) < 0 && errno != EINVAL)
		r = fv_fail(err, EIO, "%s: cannot flush: %s", hash_path,
			    strerror(errno));
	if (hash.tmp && l.fec.roots && !l.fec.on_hash_device) {
		/* a new hash image: the parity named by it committed first */
		if (!r && !p->no_superblock)
			r = write_superblock(p, &l, &hash, err);
		if (!r)
			r = verity_device_commit_pair(&fec, &hash, err);
	} else {
		if (!r && l.fec.roots && !l.fec.on_hash_device)
			r = verity_device_commit(&fec, err);
		if (!r && !p->no_superblock)
			r = write_superblock(p, &l, &hash, err);
		if (!r)
			r = verity_device_commit(&hash, err);
	}
	verity_device_close(&fec);
	verity_device_close(&hash);
	verity_device_close(&data);
	if (!r && layout)
		*layout = l;
	return r;
}
