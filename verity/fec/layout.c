/* Where the parity sits and what it covers (docs/format.md, "FEC"), and
 * the checks every action makes before parity is read or written. */
#include "verity/fec/layout.h"

#include <errno.h>
#include <string.h>

#include "verity/fec/rs.h"
#include "verity/storage/backing.h"

int verity_fec_layout_compute(const struct verity_params *p,
			      const struct verity_layout *l,
			      const struct verity_fec_params *fp,
			      uint64_t hash_size, int on_hash_device,
			      struct verity_fec_layout *fl,
			      struct ht_error *err)
{
	uint64_t bs = p->data_block_size, end, start, max_blocks;

	memset(fl, 0, sizeof(*fl));
	if (fp->roots < FEC_MIN_ROOTS || fp->roots > FEC_MAX_ROOTS)
		return ht_fail(err, EINVAL,
			       "parity of %u roots is not supported (%d to %d)",
			       fp->roots, FEC_MIN_ROOTS, FEC_MAX_ROOTS);
	if (p->data_block_size != p->hash_block_size)
		return ht_fail(err, EINVAL,
			       "FEC needs equal data and hash block sizes "
			       "(here %u and %u)",
			       p->data_block_size, p->hash_block_size);
	if (fp->offset % bs)
		return ht_fail(err, EINVAL,
			       "FEC offset %llu is not a multiple of the "
			       "%llu-byte block size (the kernel addresses "
			       "parity in blocks)",
			       (unsigned long long)fp->offset,
			       (unsigned long long)bs);
	if (fp->offset > INT64_MAX / 2)
		return ht_fail(err, EOVERFLOW, "FEC offset %llu is too large",
			       (unsigned long long)fp->offset);
	start = l->tree_offset / bs;
	end = on_hash_device ? fp->offset : hash_size;
	if (on_hash_device && end < l->hash_end)
		return ht_fail_fix(err, EINVAL, HT_PARAM_FEC_OFFSET,
				   l->hash_end, 0, "give %1 or more",
				   "%s: the FEC area at byte %llu overlaps the "
				   "hash tree, which ends at byte %llu",
				   fp->region.path,
				   (unsigned long long)fp->offset,
				   (unsigned long long)l->hash_end);
	if (end / bs < start + l->geo.tree_blocks)
		return ht_fail(err, EINVAL,
			       "%s: hash device of %llu bytes ends inside the "
			       "hash tree",
			       fp->region.path, (unsigned long long)hash_size);
	fl->roots = fp->roots;
	fl->rsn = FEC_RS_N - fp->roots;
	fl->block_size = (uint32_t)bs;
	fl->data_blocks = p->data_blocks;
	fl->hash_start_block = start;
	fl->hash_blocks = end / bs - start;
	fl->blocks = fl->data_blocks + fl->hash_blocks;
	fl->rounds = fec_rounds(fl->blocks, fp->roots);
	max_blocks = (uint64_t)(INT64_MAX / 2) / bs / fp->roots;
	if (fl->rounds > max_blocks)
		return ht_fail(err, EOVERFLOW, "FEC area overflows 64 bits");
	fl->offset = fp->offset;
	fl->parity_bytes = fl->rounds * fp->roots * bs;
	fl->on_hash_device = on_hash_device;
	return 0;
}

/* " (one is ... the other)" when two names share storage. */
static const char *via_open(const struct verity_device *a,
			    const struct verity_device *b)
{
	return *verity_device_via(a, b) ? " (one is " : "";
}

static const char *via_close(const struct verity_device *a,
			     const struct verity_device *b)
{
	return *verity_device_via(a, b) ? " the other)" : "";
}

int verity_fec_check_devices(const struct verity_layout *l,
			     const struct verity_fec_layout *fl,
			     const struct verity_device *data,
			     const struct verity_device *hash,
			     const struct verity_device *fec,
			     struct ht_error *err)
{
	uint64_t end = fl->offset + fl->parity_bytes;

	if (verity_device_overlap(fec, fl->offset, fl->parity_bytes, data, 0,
				  l->data_bytes))
		return ht_fail(
			err, EINVAL,
			"%s: the FEC area [%llu, %llu) overlaps the "
			"data area of %s, which ends at byte %llu%s%s%s",
			fec->path, (unsigned long long)fl->offset,
			(unsigned long long)end, data->path,
			(unsigned long long)l->data_bytes, via_open(fec, data),
			verity_device_via(fec, data), via_close(fec, data));
	if (verity_device_overlap(fec, fl->offset, fl->parity_bytes, hash,
				  l->hash_area_start,
				  l->hash_end - l->hash_area_start))
		return ht_fail(err, EINVAL,
			       "%s: the FEC area [%llu, %llu) overlaps the "
			       "hash area [%llu, %llu) of %s%s%s%s",
			       fec->path, (unsigned long long)fl->offset,
			       (unsigned long long)end,
			       (unsigned long long)l->hash_area_start,
			       (unsigned long long)l->hash_end, hash->path,
			       via_open(fec, hash),
			       verity_device_via(fec, hash),
			       via_close(fec, hash));
	if (fec->is_block && fec->size < end)
		return ht_fail(err, ENOSPC,
			       "%s: device has %llu bytes, the FEC area needs "
			       "%llu",
			       fec->path, (unsigned long long)fec->size,
			       (unsigned long long)end);
	return 0;
}

/* The one roots value whose parity area ends exactly where the FEC
 * device does: the area's size, roots * ceil(B / (255 - roots)) blocks,
 * grows strictly with roots, so at most one value fits. 0: none does. */
static unsigned roots_of_size(const struct verity_params *p,
			      const struct verity_layout *l,
			      const struct verity_fec_params *fp,
			      uint64_t hash_size, int on_hash_device,
			      uint64_t fec_size)
{
	struct verity_fec_params try = *fp;
	struct verity_fec_layout fl;
	struct ht_error ignored;

	for (unsigned roots = FEC_MIN_ROOTS; roots <= FEC_MAX_ROOTS; roots++) {
		try.roots = roots;
		if (verity_fec_layout_compute(p, l, &try, hash_size,
					      on_hash_device, &fl, &ignored))
			return 0;
		if (fl.offset + fl.parity_bytes == fec_size)
			return roots;
	}
	return 0;
}

/* A FEC device that holds nothing but the parity: a regular file of its
 * own, neither the data nor the hash file. Its size says the roots. */
static int dedicated_file(const struct verity_device *data,
			  const struct verity_device *hash,
			  const struct verity_device *fec)
{
	if (fec->is_block || verity_device_same_region(fec, hash) ||
	    verity_device_same_region(fec, data))
		return 0;
	/* a region of its own length in an image, or a file of its own */
	return fec->bounded || (!verity_device_same(fec, hash) &&
				!verity_device_same(fec, data));
}

/* The roots of stored parity. Not given (fp->roots 0): the one value the
 * device's size fits; where the size cannot tell (a block device, or a
 * file shared with the tree that goes on after the parity), veritysetup's
 * default. Given: a dedicated file must be exactly that parity, so that a
 * forgotten or wrong --fec-roots, or another file, is never taken for
 * parity. */
struct stored_parity {
	struct verity_fec_params fp; /* fp with the roots it has */
	enum verity_roots_source source;
};

static int stored_roots(const struct verity_params *p,
			const struct verity_layout *l,
			const struct verity_fec_params *fp, uint64_t hash_size,
			const struct verity_devices *d,
			struct stored_parity *out, struct ht_error *err)
{
	const struct verity_device *fec = &d->fec;
	int own = dedicated_file(&d->data, &d->hash, fec);
	unsigned fits = roots_of_size(p, l, fp, hash_size,
				      verity_device_same_region(&d->hash, fec),
				      fec->size);
	struct verity_fec_layout fl;
	int r;

	out->fp = *fp;
	out->source =
		fp->described ? VERITY_ROOTS_DESCRIBED : VERITY_ROOTS_GIVEN;
	if (!fp->roots) {
		out->source = fits ? VERITY_ROOTS_INFERRED
				   : VERITY_ROOTS_DEFAULT;
		out->fp.roots = fits ? fits : VERITY_FEC_DEFAULT_ROOTS;
		if (!fits && own)
			return ht_fail_fix(
				err, EINVAL, HT_PARAM_FEC_ROOTS, 0, 0,
				"give %0, or is it another image's parity?",
				"%s: %llu bytes is no FEC area of %d to %d "
				"roots for this image",
				fp->region.path, (unsigned long long)fec->size,
				FEC_MIN_ROOTS, FEC_MAX_ROOTS);
		return 0;
	}
	if (!own)
		return 0;
	r = verity_fec_layout_compute(p, l, fp, hash_size, 0, &fl, err);
	if (r)
		return r;
	if (fits && fits != fp->roots)
		return ht_fail(
			err, EINVAL,
			"%s: its %llu bytes are the parity of %u roots, "
			"not of the %u given (which needs %llu bytes)",
			fp->region.path, (unsigned long long)fec->size, fits,
			fp->roots,
			(unsigned long long)(fl.offset + fl.parity_bytes));
	if (fec->size > fl.offset + fl.parity_bytes)
		return ht_fail(
			err, EINVAL,
			"%s: file of %llu bytes is larger than the FEC "
			"area of %u roots (%llu bytes): not this image's "
			"parity, or the roots or offset are wrong",
			fp->region.path, (unsigned long long)fec->size,
			fp->roots,
			(unsigned long long)(fl.offset + fl.parity_bytes));
	return 0;
}

int verity_fec_attach(const struct verity_params *p, struct verity_layout *l,
		      const struct verity_fec_params *fp,
		      enum verity_open_mode mode,
		      const struct verity_devices *d, struct ht_error *err)
{
	struct stored_parity s = {
		*fp,
		fp->described ? VERITY_ROOTS_DESCRIBED : VERITY_ROOTS_GIVEN};
	uint64_t hash_size = d->hash.size, end;
	int on_hash = verity_device_same_region(&d->hash, &d->fec);
	int r = 0;

	if (mode == VERITY_OPEN_CREATE && !d->hash.is_block &&
	    !d->hash.bounded && hash_size < l->hash_end)
		hash_size = l->hash_end;
	if (mode == VERITY_OPEN_CREATE && !s.fp.roots)
		s.fp.roots = VERITY_FEC_DEFAULT_ROOTS;
	if (mode != VERITY_OPEN_CREATE)
		r = stored_roots(p, l, fp, hash_size, d, &s, err);
	if (!r)
		r = verity_fec_layout_compute(p, l, &s.fp, hash_size, on_hash,
					      &l->fec, err);
	l->fec.roots_source = s.source;
	if (!r)
		r = verity_fec_check_devices(l, &l->fec, &d->data, &d->hash,
					     &d->fec, err);
	end = l->fec.offset + l->fec.parity_bytes;
	if (!r && mode != VERITY_OPEN_CREATE && d->fec.size < end)
		r = ht_fail(err, EINVAL,
			    "%s: device has %llu bytes, the FEC area needs "
			    "%llu (are the roots and the offset right?)",
			    fp->region.path, (unsigned long long)d->fec.size,
			    (unsigned long long)end);
	return r;
}

int verity_fec_describe(struct verity_pair *pair, struct ht_error *err)
{
	struct verity_devices d;
	struct verity_layout *l = &pair->layout;
	int r;

	d.fec.fd = -1;
	r = verity_device_open_region(&d.hash, &pair->hash, VERITY_OPEN_READ,
				      err);
	if (r)
		return r;
	r = verity_device_open_region(&d.fec, &pair->fec.region,
				      VERITY_OPEN_READ, err);
	if (!r) {
		struct stored_parity s;

		/* dump has no data device: the hash device stands for it */
		d.data = d.hash;
		r = stored_roots(&pair->params, l, &pair->fec, d.hash.size, &d,
				 &s, err);
		if (!r)
			r = verity_fec_layout_compute(
				&pair->params, l, &s.fp, d.hash.size,
				verity_device_same_region(&d.hash, &d.fec),
				&l->fec, err);
		l->fec.roots_source = s.source;
		verity_device_close(&d.fec);
	}
	verity_device_close(&d.hash);
	return r;
}

int verity_fec_layout_flat(uint64_t covered, uint32_t block_size,
			   unsigned roots, uint64_t offset,
			   struct verity_fec_layout *fl, struct ht_error *err)
{
	memset(fl, 0, sizeof(*fl));
	if (roots < FEC_MIN_ROOTS || roots > FEC_MAX_ROOTS)
		return ht_fail(err, EINVAL,
			       "parity of %u roots is not supported (%d to %d)",
			       roots, FEC_MIN_ROOTS, FEC_MAX_ROOTS);
	if (!block_size || covered % block_size || offset < covered)
		return ht_fail(err, EINVAL,
			       "parity of %llu bytes in %u-byte blocks at %llu "
			       "does not follow what it covers",
			       (unsigned long long)covered, block_size,
			       (unsigned long long)offset);
	fl->roots = roots;
	fl->rsn = FEC_RS_N - roots;
	fl->block_size = block_size;
	fl->data_blocks = covered / block_size;
	fl->blocks = fl->data_blocks;
	fl->rounds = fec_rounds(fl->blocks, roots);
	fl->offset = offset;
	fl->parity_bytes = fl->rounds * roots * block_size;
	fl->on_hash_device = 1;
	return 0;
}
