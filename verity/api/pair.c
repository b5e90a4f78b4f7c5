/* The public API of pairs (include/fastverity.h): the door to
 * verity/pairs/ (made of their parts or an image's, acted on with one
 * options handle and one result), and the files around pairs
 * (verity/files/ask.c). */
#include "verity/api/internal.h"
#include "verity/files/ask.h"
#include "verity/pairs/act.h"
#include "verity/storage/output.h"

/* --- pairs ------------------------------------------------------------- */

int verity_api_pair_new(const char *data, const char *hash, fv_pair **out)
{
	struct ht_error err;

	NEED(out);
	*out = NULL;
	NEED(data);
	NEED(hash);
	return verity_api_keep(verity_held_new(data, hash, out, &err), &err);
}

void verity_api_pair_free(fv_pair *pr)
{
	verity_held_free(pr);
}

int verity_api_pair_set_fec(fv_pair *pr, const char *path, uint64_t offset,
			    unsigned roots)
{
	struct ht_error err;

	NEED(pr);
	return verity_api_keep(
		verity_held_set_fec(pr, path, offset, roots, &err), &err);
}

int verity_api_image_pair(const fv_image *img, size_t i, fv_pair **out)
{
	const struct verity_image_pair *ip;
	struct ht_error err;
	int r;

	NEED(img);
	NEED(out);
	*out = NULL;
	if (i >= img->in.n)
		return verity_api_fail(EINVAL, "%s: no pair %zu (%zu pairs)",
				       img->in.path, i, img->in.n);
	if (img->own) {
		if ((r = verity_held_copy(img->own, out, &err)))
			return verity_api_keep(r, &err);
		(*out)->of_image = 1;
		(*out)->writes = img->writes;
		return 0;
	}
	ip = &img->in.pairs[i];
	return verity_api_keep(
		verity_held_of_image(
			&ip->pair,
			&(struct verity_held_image){img->in.path, img->in.kind,
						    ip->trust, ip->from,
						    img->writes, ip->ddi},
			out, &err),
		&err);
}

/* --- format and update requests --------------------------------------- */

/* The pair req names, for format (update: the superblock read when no
 * parameters are given, the data blocks said again checked against it,
 * and the old root). */
static int request_pair(const struct fv_format_request *req, int update,
			fv_pair **out)
{
	struct verity_params q;
	struct ht_error err;
	fv_pair *pr;
	int r;

	NEED(req->data);
	NEED(req->hash);
	if (!update)
		NEED(req->params);
	if ((r = verity_api_pair_new(req->data, req->hash, &pr)))
		return r;
	if (!req->params || !(r = verity_api_params_in(req->params, &q)))
		r = verity_api_keep(
			verity_pairs_request(pr, req, req->params ? &q : NULL,
					     update, &err),
			&err);
	if (r) {
		verity_api_pair_free(pr);
		return r;
	}
	*out = pr;
	return 0;
}

/* format (update 0) or update of the pair req names, the parameters as
 * written into the result. (The options' messages name the calls that
 * were public in 0.9.) */
static int made(const struct fv_format_request *req, int update,
		const uint64_t *ranges, size_t n, const fv_options *o,
		fv_result **res)
{
	fv_result *made = NULL;
	struct ht_error err;
	fv_options opts;
	fv_pair *pr = NULL;
	int r;

	if ((r = request_pair(req, update, &pr)))
		return r;
	if (!(r = verity_api_options_in(update ? "verity_api_pair_update"
					       : "verity_api_pair_format",
					o, &opts)))
		r = verity_api_keep(
			update ? verity_pairs_update(pr, ranges, n, &opts,
						     &made, &err)
			       : verity_pairs_format(pr, &opts, &made, &err),
			&err);
	if (!r) {
		verity_show_params(&pr->params, &made->params);
		made->has_params = 1;
		if (res)
			*res = made;
		else
			fv_result_free(made);
	}
	verity_api_pair_free(pr);
	return r;
}

API int fv_format(const struct fv_format_request *in, const fv_options *o,
		  fv_result **res)
{
	struct fv_format_request req;

	if (res)
		*res = NULL;
	TAKE(req, in, data_blocks);
	return made(&req, 0, NULL, 0, o, res);
}

API int fv_update(const struct fv_format_request *in, const uint64_t *ranges,
		  size_t n, const fv_options *o, fv_result **res)
{
	struct fv_format_request req;

	if (res)
		*res = NULL;
	TAKE(req, in, data_blocks);
	return made(&req, 1, ranges, n, o, res);
}

/* verify or repair (repair 1) of pr, checked as its caller (who) checks. */
static int pair_check(const char *who, const fv_pair *pr, const fv_options *o,
		      int repair, fv_result **res)
{
	struct ht_error err;
	fv_options opts;
	int r;

	if ((r = verity_api_options_in(who, o, &opts)))
		return r;
	return verity_api_keep(verity_pairs_check(pr, &opts, repair, res, &err),
			       &err);
}

int verity_api_pair_verify(const fv_pair *pr, const fv_options *o,
			   fv_result **res)
{
	NEED(pr);
	NEED(res);
	*res = NULL;
	return pair_check(__func__, pr, o, 0, res);
}

int verity_api_pair_repair(const fv_pair *pr, const fv_options *o,
			   fv_result **res)
{
	NEED(pr);
	NEED(res);
	*res = NULL;
	return pair_check(__func__, pr, o, 1, res);
}

int verity_api_pair_check_signature(const fv_pair *pr, const fv_options *o,
				    fv_result **res)
{
	struct ht_error err;
	fv_options opts;
	int r;

	NEED(pr);
	NEED(res);
	*res = NULL;
	if ((r = verity_api_options_in(__func__, o, &opts)))
		return r;
	return verity_api_keep(
		verity_pairs_check_signature(pr, &opts, res, &err), &err);
}

int verity_api_pair_dump(const fv_pair *pr, const fv_options *o,
			 fv_result **res)
{
	struct ht_error err;
	fv_options opts;
	int r;

	NEED(pr);
	NEED(res);
	*res = NULL;
	/* (checked as every call checks them; dump runs nothing) */
	if ((r = verity_api_options_in(__func__, o, &opts)))
		return r;
	return verity_api_keep(verity_pairs_dump(pr, res, &err), &err);
}

int verity_api_pair_activate(const char *name, const fv_pair *pr,
			     const fv_options *o)
{
	struct ht_error err;
	fv_options opts;
	int r;

	NEED(name);
	NEED(pr);
	if ((r = verity_api_options_in(__func__, o, &opts)))
		return r;
	return verity_api_keep(verity_pairs_activate(name, pr, &opts, &err),
			       &err);
}

API int fv_result_report(const fv_result *r, struct fv_report *out)
{
	struct fv_report full;

	NEED(r);
	NEED(out);
	verity_show_report(r, &full);
	GIVE(out, full, root);
	return 0;
}

/* --- files around pairs ---------------------------------------------- */

API int fv_params_check(const fv_params *p)
{
	struct verity_params q;
	struct ht_error err;
	int r;

	NEED(p);
	if ((r = verity_api_params_in(p, &q)))
		return r;
	return verity_api_keep(verity_params_validate(&q, &err), &err);
}

/* The files around images, one op at a time (include/fastverity.h). */
API int fv_file(const struct fv_file_request *req, struct fv_file_answer *out)
{
	struct fv_file_request q;
	struct ht_error err;
	int r;

	TAKE(q, req, keep);
	if (out && out->size < sizeof(*out))
		return verity_api_fail(EINVAL, "fv_file: size %zu is too small",
				       out->size);
	NEED(q.path);
	if ((r = verity_files_answer(&q, out, &err)) < 0)
		verity_api_keep(r, &err);
	return r;
}

/* For a signal handler (include/fastverity.h): async-signal-safe. */
API void fv_remove_temporaries(void)
{
	verity_output_remove_temporaries();
}

/* FV_SHOW_PAIR: a pair's header. */
static int pair_show(const struct fv_show_request *q, struct show *sh)
{
	struct fv_image_pair_info pi = {.size = sizeof(pi)};
	fv_result *d = NULL;
	int r;

	if (!q->img) {
		NEED(q->res);
		NEED(*q->res);
		NEED(q->image);
		verity_show_made(sh, q->image, *q->res, q->args);
		return sh->r;
	}
	if ((r = fv_image_pair_info(q->img, q->at, &pi)) ||
	    (r = fv_describe(q->img, q->at, q->o, &d)))
		return r;
	verity_show_described(sh, &pi, q->image, d);
	fv_result_free(d);
	return sh->r;
}

int verity_api_check_show(const struct fv_show_request *q, struct show *sh)
{
	struct fv_image_pair_info pi = {.size = sizeof(pi)};
	struct fv_image_info in = {.size = sizeof(in)};
	struct fv_avb_info avb = {.size = sizeof(avb)};
	struct fv_report rep = {.size = sizeof(rep)}, d = {.size = sizeof(d)};
	int repair = q->what == FV_SHOW_REPAIR;
	fv_options o = {.size = sizeof(o)};
	fv_result *res = NULL, *described = NULL;
	struct show_check c;
	struct ht_error err;
	int r;

	if (q->what == FV_SHOW_PAIR)
		return pair_show(q, sh);
	NEED(q->img);
	if ((r = fv_image_info(q->img, &in)) ||
	    (r = fv_image_pair_info(q->img, q->at, &pi)) ||
	    (in.avb && (r = fv_avb_info(in.avb, &avb))))
		return r;
	if (q->o)
		memcpy(&o, q->o,
		       q->o->size < sizeof(o) ? q->o->size : sizeof(o));
	if (repair && !pi.fec) /* where it would be, said */
		return verity_api_keep(verity_show_no_parity(!!in.avb, q->image,
							     in.container,
							     &err),
				       &err);
	/* verify --json: the header, before the first failure */
	if (!repair && sh->json &&
	    (r = fv_describe(q->img, q->at, &o, &described)))
		return r;
	if (described)
		fv_result_report(described, &d);
	verity_show_check_begin(
		&c, sh, q,
		&(struct show_check_pair){&pi, in.avb ? in.trust : pi.trust,
					  in.avb ? &avb : NULL, &d});
	o.failure = verity_show_check_failure;
	o.failure_ctx = &c;
	o.block = verity_show_check_block;
	o.block_ctx = &c;
	r = (repair ? fv_repair : fv_verify)(q->img, q->at, &o, &res);
	fv_result_free(described);
	if (r) {
		verity_show_check_failed(&c, fv_last_error());
		return r;
	}
	fv_result_report(res, &rep);
	r = verity_show_check_end(&c, &rep);
	if (q->res)
		*q->res = res;
	else
		fv_result_free(res);
	return sh->r ? sh->r : r == 2 ? EPERM : r ? EINVAL : 0;
}
