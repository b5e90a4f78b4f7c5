/* The public API of images given alone (include/fastverity.h): the
 * registry says what an image is, its pairs are made by its container
 * (Android, disk image, sidecar files) and judged by the trust policy;
 * a disk image described. */
#include "verity/api/internal.h"
#include "verity/container/sparse/sparse.h"

/* --- images given alone -------------------------------------------------- */

API void fv_image_free(fv_image *img)
{
	if (!img)
		return;
	fv_avb_free(img->av);
	for (size_t i = 0; i < img->navs; i++)
		fv_avb_free(img->avs[i]);
	free(img->avs);
	if (img->ddi_read)
		verity_ddi_image_free(&img->ddi);
	verity_sidecar_free(&img->side);
	free(img->signature);
	free(img->pairs);
	free(img->path);
	free(img);
}

enum verity_anchor verity_api_anchor_of(const fv_options *o)
{
	return o && o->key        ? VERITY_ANCHOR_KEY
	       : o && o->ntrusted ? VERITY_ANCHOR_CERT
				  : VERITY_ANCHOR_NONE;
}

/* An Android image's one pair: its vbmeta judged for the options'
 * anchor, its hashtree descriptor made the pair. */

/* An Android image's one pair: opened as fv_avb_read opens one, judged
 * for the options' anchor (a key: its signer's; certificates: the wrong
 * kind, refused by the policy), its hashtree descriptor made the pair. */
int verity_api_image_avb(fv_image *img, const fv_options *o,
			 struct ht_error *err)
{
	struct image_pair *ip = &img->pairs[0];
	fv_avb *a;
	int r;

	if ((r = verity_api_avb_read(img->path, 0, &img->av)))
		goto said;
	a = img->av;
	ip->from = a->img.vbmeta.h.algorithm != AVB_ALG_NONE
			   ? VERITY_SIGNATURE_FOUND
			   : VERITY_SIGNATURE_NONE;
	if (o && o->key) {
		if ((r = fv_avb_check_key(a, o->key)))
			goto said;
	} else if (verity_api_anchor_of(o) != VERITY_ANCHOR_NONE) {
		struct verity_trust_ask ask = {VERITY_CONTAINER_AVB, img->path,
					       ip->from,
					       verity_api_anchor_of(o), 0};
		enum verity_trust t;

		if ((r = verity_trust_decide(&ask, &t, err)))
			return r;
	}
	if (!a->paired) {
		r = verity_api_avb_unpaired(a);
		goto said;
	}
	ip->pair = a->pair;
	ip->trust = a->trust;
	snprintf(ip->name, sizeof(ip->name), "%s", a->name);
	img->n = 1;
	return 0;
said:
	/* the message is this thread's already: err carries it on */
	*err = verity_api_last;
	return r;
}

/* A super image's pairs: one a logical partition that is an Android
 * image with a hashtree descriptor, read as fv_avb_read reads one by its
 * path through the super image (super.img/system_a), judged for the
 * options' anchor as an Android image is; empty partitions and those
 * that are not Android images have none. */
int verity_api_image_super(fv_image *img, const fv_options *o,
			   struct ht_error *err)
{
	fv_super *s;
	size_t np;
	int r;

	if ((r = fv_super_open(img->path, NULL, NULL, 0, 0, &s)))
		goto said;
	np = fv_super_partitions(s);
	free(img->pairs);
	if (!(img->pairs = calloc(np ? np : 1, sizeof(*img->pairs))) ||
	    !(img->avs = calloc(np ? np : 1, sizeof(*img->avs)))) {
		fv_super_free(s);
		return ht_fail(err, ENOMEM, "out of memory");
	}
	for (size_t i = 0; !r && i < np; i++) {
		struct fv_super_partition p = {.size = sizeof(p)};
		struct image_pair *ip = &img->pairs[img->n];
		char path[4096 + 64];
		fv_avb *a;

		fv_super_partition(s, i, &p);
		if (!p.num_extents)
			continue;
		snprintf(path, sizeof(path), "%s/%s", img->path, p.name);
		if ((r = fv_super_avb(s, i, &a)) == -ENOMSG) {
			r = 0;
			continue;
		}
		fv_avb_free(a);
		if (r || (r = verity_api_avb_read(path, 0, &a)))
			break;
		img->avs[img->navs++] = a;
		if (!a->paired)
			continue;
		ip->from = a->img.vbmeta.h.algorithm != AVB_ALG_NONE
				   ? VERITY_SIGNATURE_FOUND
				   : VERITY_SIGNATURE_NONE;
		if (o && o->key) {
			if ((r = fv_avb_check_key(a, o->key)))
				break;
		} else if (verity_api_anchor_of(o) != VERITY_ANCHOR_NONE) {
			struct verity_trust_ask ask = {
				VERITY_CONTAINER_AVB, path, ip->from,
				verity_api_anchor_of(o), 0};
			enum verity_trust t;

			if ((r = verity_trust_decide(&ask, &t, err))) {
				fv_super_free(s);
				return r;
			}
		}
		ip->pair = a->pair;
		ip->trust = a->trust;
		snprintf(ip->name, sizeof(ip->name), "%s", p.name);
		img->n++;
	}
	fv_super_free(s);
	if (!r)
		return 0;
said:
	/* the message is this thread's already: err carries it on */
	*err = verity_api_last;
	return r;
}

/* A disk image's pairs, one a protected partition ("root-x86-64"). */
int verity_api_image_ddi(fv_image *img, const fv_options *o,
			 struct ht_error *err)
{
	int r;

	if ((r = verity_ddi_image_read(img->path, &img->ddi, err)))
		return r;
	img->ddi_read = 1;
	if (!(img->pairs = calloc(img->ddi.nv ? img->ddi.nv : 1,
				  sizeof(*img->pairs))))
		return ht_fail(err, ENOMEM, "out of memory");
	for (size_t i = 0; i < img->ddi.nv; i++) {
		const struct ddi_verity *v = &img->ddi.v[i];
		struct image_pair *ip = &img->pairs[i];
		struct verity_trust_ask ask = {VERITY_CONTAINER_DDI, img->path,
					       v->signature
						       ? VERITY_SIGNATURE_FOUND
						       : VERITY_SIGNATURE_NONE,
					       verity_api_anchor_of(o), 0};

		if ((r = verity_ddi_pair(&img->ddi, v, &ip->pair, err)) ||
		    (r = verity_trust_decide(&ask, &ip->trust, err)))
			return r;
		ip->from = ask.signature;
		ip->ddi = v;
		snprintf(ip->name, sizeof(ip->name), "%s-%s",
			 verity_ddi_role_name(v->role), v->arch);
		img->n++;
	}
	return 0;
}

/* An image with sidecar files: IMAGE.verity's superblock, the root hash
 * in IMAGE.roothash, IMAGE.roothash.p7s and IMAGE.fec when there. */
int verity_api_image_sidecar(fv_image *img, const fv_options *o,
			     struct ht_error *err)
{
	struct image_pair *ip = &img->pairs[0];
	struct verity_pair *pair = &ip->pair;
	const char *sig_path = NULL;
	char hex[2 * HT_MAX_DIGEST_SIZE + 1];
	size_t n;
	struct verity_trust_ask ask;
	int r;

	if ((r = verity_sidecar_names(img->path, &img->side, err)))
		return r;
	verity_sidecar_pair(&img->side, img->path, pair, &sig_path);
	verity_params_default(&pair->params);
	if ((r = verity_read_superblock(&pair->hash, &pair->params, err)))
		return r == -ENOENT ? -ENODEV : r;
	if (access(img->side.roothash, F_OK))
		return ht_fail(err, ENODEV, "%s: does not exist",
			       img->side.roothash);
	/* the grammar of every root hash file */
	if ((r = fv_root_hash_file_read(img->side.roothash, hex,
					sizeof(hex)))) {
		snprintf(err->msg, sizeof(err->msg), "%s", verity_api_last.msg);
		err->param = HT_PARAM_NONE;
		return r;
	}
	r = verity_hex_decode(hex, pair->root, sizeof(pair->root), &n);
	if (r || n != ht_digest_size(pair->params.hash_name))
		return ht_fail(err, EINVAL, "%s: not a %s root hash",
			       img->side.roothash, pair->params.hash_name);
	pair->root_size = n;
	if (sig_path) {
		if ((r = verity_read_signature(sig_path, &img->signature,
					       &pair->signature_size, err)))
			return r;
		pair->signature = img->signature;
		pair->signature_name = sig_path;
		pair->signature_found = 1;
	}
	pair->container = VERITY_CONTAINER_SIDECAR;
	ask = (struct verity_trust_ask){
		VERITY_CONTAINER_SIDECAR, sig_path ? sig_path : img->path,
		sig_path ? VERITY_SIGNATURE_FOUND : VERITY_SIGNATURE_NONE,
		verity_api_anchor_of(o), 0};
	if ((r = verity_trust_decide(&ask, &ip->trust, err)))
		return r;
	ip->from = ask.signature;
	snprintf(ip->name, sizeof(ip->name), "%s", "data");
	img->n = 1;
	return 0;
}

API int fv_image_open(const char *path, const char *container,
		      const fv_options *o, fv_image **out)
{
	struct ht_error err;
	fv_image *img;
	int want = VERITY_CONTAINER_AUTO, r;

	NEED(path);
	NEED(out);
	*out = NULL;
	if (container &&
	    ((want = verity_container_by_name(container)) < 0 ||
	     want == VERITY_CONTAINER_SPARSE || want == VERITY_CONTAINER_PLAIN))
		return verity_api_fail(
			EINVAL,
			"no container of images named '%s' (avb, "
			"ddi, super, sidecar)",
			container);
	if (!(img = calloc(1, sizeof(*img))) || !(img->path = strdup(path))) {
		free(img);
		return verity_api_fail(ENOMEM, "out of memory");
	}
	r = verity_container_identify(path, (enum verity_container)want,
				      &img->kind, &err);
	if (!r && img->kind != VERITY_CONTAINER_DDI &&
	    !(img->pairs = calloc(1, sizeof(*img->pairs))))
		r = ht_fail(&err, ENOMEM, "out of memory");
	if (!r)
		r = img->kind == VERITY_CONTAINER_AVB
			    ? verity_api_image_avb(img, o, &err)
		    : img->kind == VERITY_CONTAINER_DDI
			    ? verity_api_image_ddi(img, o, &err)
		    : img->kind == VERITY_CONTAINER_SUPER
			    ? verity_api_image_super(img, o, &err)
			    : verity_api_image_sidecar(img, o, &err);
	if (r) {
		fv_image_free(img);
		return verity_api_keep(r, &err);
	}
	*out = img;
	return 0;
}

API const char *fv_image_container(const fv_image *img)
{
	return img ? verity_container_name(img->kind) : NULL;
}

API size_t fv_image_pairs(const fv_image *img)
{
	return img ? img->n : 0;
}

API const char *fv_image_pair_name(const fv_image *img, size_t i)
{
	return img && i < img->n ? img->pairs[i].name : NULL;
}

API enum fv_trust fv_image_trust(const fv_image *img, size_t i)
{
	return img && i < img->n ? (enum fv_trust)img->pairs[i].trust
				 : FV_TRUST_UNSIGNED;
}

/* verify or repair of pair i: fv_pair_verify or fv_pair_repair of it, with
 * the callback given and the options' parity for images whose container
 * carries none. */
int verity_api_image_check(const fv_image *img, size_t i, const fv_options *o,
			   enum check_op op, unsigned how, fv_failure_fn fn,
			   void *ctx, fv_result **res)
{
	fv_options with = {0};
	fv_pair *pr;
	int r;

	NEED(img);
	NEED(res);
	*res = NULL;
	if ((r = fv_image_pair(img, i, &pr)))
		return r;
	if (o)
		with = *o; /* borrowed: not freed */
	with.failure_fn = fn;
	with.failure_ctx = ctx;
	with.block_fn = NULL;
	if (img->kind != VERITY_CONTAINER_AVB && o && o->fec_path)
		r = fv_pair_set_fec(pr, o->fec_path, o->fec_offset,
				    o->fec_roots);
	if (!r)
		r = verity_api_pair_check(pr, &with, op, how, res);
	fv_pair_free(pr);
	return r;
}

API int fv_image_verify(const fv_image *img, size_t i, const fv_options *o,
			fv_failure_fn fn, void *ctx, fv_result **res)
{
	return verity_api_image_check(img, i, o, CHECK_VERIFY, 0, fn, ctx, res);
}

API int fv_image_repair(const fv_image *img, size_t i, const fv_options *o,
			unsigned how, fv_failure_fn fn, void *ctx,
			fv_result **res)
{
	if (how & ~(unsigned)(FV_REPAIR_DRY_RUN | FV_REPAIR_REWRITE_PARITY))
		return verity_api_fail(
			EINVAL, "fv_image_repair: unknown flags %#x", how);
	return verity_api_image_check(img, i, o, CHECK_REPAIR, how, fn, ctx,
				      res);
}

/* --- disk images --------------------------------------------------------- */

API int fv_image_ddi_disk(const fv_image *img, struct fv_ddi_disk *d)
{
	struct fv_ddi_disk full;

	NEED(img);
	NEED(d);
	if (!img->ddi_read)
		return verity_api_fail(EINVAL, "%s: not opened as a disk image",
				       img->path);
	if (d->size <
	    offsetof(struct fv_ddi_disk, sector_size) + sizeof(d->sector_size))
		return verity_api_fail(
			EINVAL, "fv_image_ddi_disk: size %zu is too small",
			d->size);
	memset(&full, 0, sizeof(full));
	full.sector_size = img->ddi.gpt.h.sector;
	full.disk_uuid = img->ddi.gpt.h.disk_uuid;
	full.partitions = img->ddi.gpt.nparts;
	full.size = d->size < sizeof(full) ? d->size : sizeof(full);
	memcpy(d, &full, full.size);
	return 0;
}

void verity_api_gpt_partition_of(const struct gpt_partition *g,
				 struct fv_gpt_partition *p)
{
	const char *type;

	memset(p, 0, sizeof(*p));
	if (!g)
		return;
	type = verity_ddi_type_name(g->type);
	p->index = g->index;
	p->type = type ? type : g->type;
	p->label = g->label;
	p->uuid = g->uuid;
	p->offset = g->offset;
	p->bytes = g->size;
}

const struct ddi_verity *verity_api_ddi_at(const fv_image *img, size_t i)
{
	if (!img || !img->ddi_read) {
		verity_api_fail(EINVAL, "%s: not opened as a disk image",
				img ? img->path : "(NULL)");
		return NULL;
	}
	if (i >= img->ddi.nv) {
		verity_api_fail(EINVAL, "%s: no pair %zu (%zu pairs)",
				img->path, i, img->ddi.nv);
		return NULL;
	}
	return &img->ddi.v[i];
}

API int fv_image_ddi_pair(const fv_image *img, size_t i, struct fv_ddi_pair *p)
{
	const struct ddi_verity *v = verity_api_ddi_at(img, i);
	struct fv_ddi_pair full;

	NEED(p);
	if (!v)
		return -EINVAL;
	if (p->size < offsetof(struct fv_ddi_pair, role) + sizeof(p->role))
		return verity_api_fail(
			EINVAL, "fv_image_ddi_pair: size %zu is too small",
			p->size);
	memset(&full, 0, sizeof(full));
	full.role = verity_ddi_role_name(v->role);
	full.arch = v->arch;
	full.root_hex = v->root_hex;
	full.is_signed = v->sig != NULL;
	full.fingerprint = v->fingerprint;
	verity_api_gpt_partition_of(v->data, &full.data);
	verity_api_gpt_partition_of(v->hash, &full.hash);
	verity_api_gpt_partition_of(v->sig, &full.signature);
	full.size = p->size < sizeof(full) ? p->size : sizeof(full);
	memcpy(p, &full, full.size);
	return 0;
}

API int fv_image_signer(const fv_image *img, size_t i, char **subject)
{
	const struct ddi_verity *v = verity_api_ddi_at(img, i);
	struct verity_sig_check who;
	struct ht_error err;
	char name[64];
	int r;

	NEED(subject);
	*subject = NULL;
	if (!v)
		return -EINVAL;
	if (!v->sig)
		return 0;
	/* named as messages name the partition */
	snprintf(name, sizeof(name), "partition %u", v->sig->index);
	memset(&who, 0, sizeof(who));
	if ((r = verity_signature_signer(
		     &(struct verity_sig){v->signature, v->signature_len, name},
		     &who, &err)))
		return verity_api_keep(r, &err);
	if (!(*subject = strdup(who.signer)))
		return verity_api_fail(ENOMEM, "out of memory");
	return 0;
}

API const char *fv_result_signer_fingerprint(const fv_result *r)
{
	return r ? r->sig.fingerprint : NULL;
}

API int fv_sparse_check_crc(const char *path, unsigned *sums)
{
	struct verity_device d;
	struct verity_sparse sp;
	struct ht_error err;
	int r;

	NEED(path);
	if (sums)
		*sums = 0;
	if ((r = verity_device_open(&d, path, VERITY_OPEN_READ, &err)))
		return verity_api_keep(r, &err);
	if (!verity_sparse_magic(&d)) {
		verity_device_close(&d);
		return 1;
	}
	if (!(r = verity_sparse_read(&d, path, &sp, &err))) {
		r = verity_sparse_check_crc(&d, path, &sp, &err);
		if (!r && sums)
			*sums = sp.crc_chunks + (sp.image_crc != 0);
		verity_sparse_free(&sp);
	}
	verity_device_close(&d);
	return verity_api_keep(r, &err);
}
