/* format: the tree of the data region into the hash region, the parity
 * (made with the tree where it pays), the superblock last; outputs
 * appear whole or not at all, and an image written in place is marked
 * unfinished until its tree is durable. */
#include "verity/tree/format.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "verity/fec/encode.h"
#include "verity/storage/output.h"
#include "verity/tree/io.h"
#include "verity/tree/superblock.h"

static int io_data_seen(void *c, unsigned worker, uint64_t first,
			const uint8_t *blocks, size_t n, struct ht_error *err)
{
	const struct verity_io_ctx *ctx = c;

	return verity_fec_fused_data_seen(ctx->fused, worker, first, blocks, n,
					  err);
}

/* The superblock, then zeros up to the first tree block. */
static int write_superblock(const struct verity_params *p,
			    const struct verity_layout *l,
			    const struct verity_device *hash,
			    struct ht_error *err)
{
	uint64_t end =
		l->tree_offset < l->hash_end ? l->tree_offset : l->hash_end;
	size_t len = (size_t)(end - p->hash_offset);
	uint8_t *buf = calloc(1, len);
	int r;

	if (!buf)
		return ht_fail(err, ENOMEM, "out of memory");
	verity_sb_encode(p, buf);
	r = verity_device_write(hash, p->hash_offset, buf, len, err);
	free(buf);
	return r;
}

/* In place, an interrupted format must not leave the old superblock in
 * front of a half-written tree: the superblock's place gets a marker
 * that dump and verify call unfinished, durable before the first tree
 * block; the new superblock comes last, once the tree is durable. */
static int mark_unfinished(const struct verity_params *p,
			   const struct verity_device *hash,
			   struct ht_error *err)
{
	uint8_t sb[VERITY_SB_SIZE];

	memset(sb, 0, sizeof(sb));
	memcpy(sb, VERITY_SB_UNFINISHED, 8);
	if (verity_device_write(hash, p->hash_offset, sb, sizeof(sb), err))
		return -EIO;
	return verity_device_flush(hash, err);
}

/* A gap between the tree and the parity is covered: zeros. */
static int extend_for_fec(const struct verity_layout *l,
			  const struct verity_device *hash,
			  struct ht_error *err)
{
	struct stat st;

	/* (a source's size is its extents': a sparse image grows by its
	 * writer's chunks, never by ftruncate) */
	if (l->fec.on_hash_device && !hash->is_block && !hash->src &&
	    fstat(hash->fd, &st) == 0 && (uint64_t)st.st_size < l->fec.offset &&
	    ftruncate(hash->fd, (off_t)l->fec.offset) < 0)
		return ht_fail(err, EIO, "%s: cannot extend: %s", hash->path,
			       strerror(errno));
	return 0;
}

/* The parity: finished from what the tree build added (fused), or
 * computed in a pass of its own. */
static int write_fec(const struct verity_layout *l,
		     const struct verity_devices *d, const struct fec_rs *rs,
		     struct fec_fused *fused, const struct ht_options *opt,
		     struct ht_error *err)
{
	struct fec_source src = {&d->data, &d->hash, &d->fec, &l->fec, NULL};
	int r = extend_for_fec(l, &d->hash, err);

	if (!r && fused->planes) {
		r = verity_fec_fused_finish(fused, &src, err);
	} else if (!r) {
		ht_pass(opt, "write parity");
		r = verity_fec_parity_pass(&src, rs, FEC_PASS_WRITE, NULL,
					   opt->threads, opt, NULL, err);
	}
	return r;
}

/* The tree (and, fused, the data's parity) over the opened devices. */
static int build_tree(struct verity_pair *pair, struct verity_devices *d,
		      const struct verity_run *run, struct fec_rs *rs,
		      struct fec_fused *fused, struct verity_outcome *out,
		      struct ht_error *err)
{
	const struct verity_params *p = &pair->params;
	struct verity_layout *l = &pair->layout;
	struct verity_io_ctx ctx = {&d->data, &d->hash, l->tree_offset, NULL};
	struct ht_options build = run->ht;
	struct ht_hasher h;
	struct ht_io io;
	int r = 0;

	verity_io_init(&io, &ctx);
	if (l->fec.roots) {
		r = verity_fec_rs_init_encoder(rs, l->fec.roots, err);
		/* the data blocks go into the parity as the tree hashes them
		 * (a tree of no level hashes none) */
		if (!r && l->geo.levels)
			r = verity_fec_fused_init(fused, rs, &l->fec,
						  run->ht.threads, &run->tuning,
						  err);
		if (r > 0)
			r = 0;
		if (fused->planes) {
			/* read, not mapped: the parity update then finds the
			 * blocks in the chunk just hashed, in cache (mapped,
			 * format with parity was 15% slower here) */
			build.no_map = 1;
			io.data_seen = io_data_seen;
			ctx.fused = fused;
		}
	}
	if (!r)
		r = ht_hasher_init(&h, p->hash_name, p->hash_type, p->salt,
				   p->salt_size, err);
	if (r)
		return r;
	ht_hasher_use_kernel(&h, run->sha256);
	verity_fill_info(&out->info, &h);
	ht_pass(&build, fused->planes ? "hash data and parity" : "hash data");
	r = ht_build(&l->geo, &h, &io, &build, out->root, err);
	ht_hasher_free(&h);
	if (!r)
		r = verity_data_unchanged(&d->data, l, err);
	return r;
}

/* Everything written made durable and visible: in place, the tree and
 * parity before the superblock; whole, the parity named by a new hash
 * image committed first. */
static int commit(struct verity_pair *pair, struct verity_devices *d,
		  struct ht_error *err)
{
	const struct verity_params *p = &pair->params;
	const struct verity_layout *l = &pair->layout;
	int own_fec = l->fec.roots && !l->fec.on_hash_device;
	int r = 0;

	if (!d->hash.tmp && (r = verity_device_flush(&d->hash, err)))
		return r;
	if (d->hash.tmp && own_fec) {
		if (!p->no_superblock)
			r = write_superblock(p, l, &d->hash, err);
		return r ? r
			 : verity_device_commit_pair(&d->fec, &d->hash, err);
	}
	if (own_fec)
		r = verity_device_commit(&d->fec, err);
	if (!r && !p->no_superblock)
		r = write_superblock(p, l, &d->hash, err);
	return r ? r : verity_device_commit(&d->hash, err);
}

int verity_format(struct verity_pair *pair, const struct verity_run *run,
		  struct verity_outcome *out, struct ht_error *err)
{
	struct verity_devices d;
	struct fec_rs rs = {0};
	struct fec_fused fused = {0};
	int r;

	memset(out, 0, sizeof(*out));
	r = verity_pair_open(pair, VERITY_OPEN_CREATE, VERITY_OPEN_CREATE, &d,
			     err);
	if (r)
		return r;
	/* (without a superblock the marker sits where the tree starts: its
	 * top block, written last, replaces it) */
	if (!d.hash.tmp &&
	    (!pair->params.no_superblock || pair->layout.geo.tree_blocks))
		r = mark_unfinished(&pair->params, &d.hash, err);
	if (!r)
		r = build_tree(pair, &d, run, &rs, &fused, out, err);
	/* parity after the tree, before the superblock, as veritysetup */
	if (!r && pair->layout.fec.roots)
		r = write_fec(&pair->layout, &d, &rs, &fused, &run->ht, err);
	if (!r)
		r = commit(pair, &d, err);
	verity_fec_fused_free(&fused);
	if (rs.matrix)
		verity_fec_rs_free(&rs);
	verity_pair_close(&d);
	if (!r) {
		out->layout = pair->layout;
		memcpy(pair->root, out->root, pair->layout.geo.digest_size);
		pair->root_size = pair->layout.geo.digest_size;
	}
	return r;
}
