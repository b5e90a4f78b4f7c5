/* A systemd Discoverable Disk Image given alone to verify, dump or open
 * (docs/ddi.md): every protected partition found in its GPT checked in
 * full (tree, root hash, signature), shown, or mapped. */
#include "cli/ddi.h"

#include <errno.h>
#include <glob.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <json-c/json.h>

#include "cli/errors.h"
#include "cli/inside.h"
#include "cli/json.h"
#include "cli/pair.h"
#include "cli/params.h"
#include "cli/progress.h"
#include "cli/text.h"
#include "verity/container/ddi/ddi.h"
#include "verity/container/sidecar.h"
#include "verity/ops.h"

/* Where systemd looks for certificates trusted to sign DDIs. */
#define VERITY_D "/etc/verity.d"

/* The protected partitions --partition picks (a role: root, usr). */
static int picked(const struct cli_opts *o, const struct ddi_verity *v)
{
	return !o->partition || !strcmp(o->partition, ddi_role_name(v->role));
}

static int check_partition_option(const struct cli_opts *o,
				  const struct ddi_image *img)
{
	if (o->partition && strcmp(o->partition, "root") &&
	    strcmp(o->partition, "usr"))
		return cli_error(-EINVAL,
				 "--partition: '%s' is not root or usr",
				 o->partition);
	for (size_t i = 0; i < img->nv; i++)
		if (picked(o, &img->v[i]))
			return 0;
	return cli_error(-EINVAL, "%s: no protected %s partition", img->path,
			 o->partition);
}

/* The image's table read, and --partition checked against it: 0, or the
 * exit code (printed; nothing left to free). */
static int read_image(const struct cli_opts *o, const char *image,
		      struct ddi_image *img)
{
	struct ht_error err;
	int r;

	if ((r = ddi_image_read(image, img, &err)))
		return cli_inside_error(r, &err);
	if ((r = check_partition_option(o, img)))
		ddi_image_free(img);
	return r;
}

/* The name a message gives a partition: "partition 1 (root-x86-64,
 * label root-x86-64, UUID ...)". */
static void partition_name(const struct gpt_partition *p, char *out, size_t len)
{
	const char *type = ddi_type_name(p->type);

	snprintf(out, len, "partition %u (%s, label '%s', UUID %s)", p->index,
		 type ? type : p->type,
		 CLI_NAME(p->label, strlen(p->label)), p->uuid);
}

struct ddi_report {
	const struct cli_opts *o;
	const struct ddi_verity *v;
	json_object *failures; /* --json */
};

static void report(void *c, const struct verity_failure *f)
{
	struct ddi_report *rep = c;
	int data =
		f->kind == HT_BAD_DATA_BLOCK || f->kind == HT_UNREADABLE_DATA;
	const struct gpt_partition *p = data ? rep->v->data : rep->v->hash;
	const char *type = ddi_type_name(p->type);
	struct cli_failure cf;

	cli_inside_failure(f, &cf);
	if (rep->failures) {
		json_object *j = cli_json_failure(&cf);

		json_object_object_add(j, "partition",
				       json_object_new_int((int)p->index));
		json_object_object_add(
			j, "image_offset",
			json_object_new_uint64(p->offset + f->position));
		json_object_array_add(rep->failures, j);
		return;
	}
	fprintf(stderr,
		"%s at position %" PRIu64
		" (partition %u: %s, label '%s', UUID "
		"%s; image byte %" PRIu64 ").\n",
		cli_failure_words(cf.kind), f->position, p->index,
		type ? type : p->type, CLI_NAME(p->label, strlen(p->label)),
		p->uuid,
		p->offset + f->position);
}

/* The certificates to check a signature against: --trusted-cert, or
 * /etc/verity.d/'s (FASTVERITY_VERITY_D names another directory, for
 * tests). */
static int trusted_of(const struct cli_opts *o, const char ***list, size_t *n,
		      glob_t *g)
{
	const char *dir = getenv("FASTVERITY_VERITY_D");
	char pattern[4096];

	*list = o->trusted_certs;
	*n = o->ntrusted;
	memset(g, 0, sizeof(*g));
	if (*n)
		return 0;
	snprintf(pattern, sizeof(pattern), "%s/*.crt", dir ? dir : VERITY_D);
	if (glob(pattern, 0, NULL, g) == 0 && g->gl_pathc) {
		*list = (const char **)g->gl_pathv;
		*n = g->gl_pathc;
	}
	return 0;
}

static json_object *json_partition(const struct gpt_partition *p)
{
	json_object *j = json_object_new_object();
	const char *type = ddi_type_name(p->type);

	json_object_object_add(j, "index", json_object_new_int((int)p->index));
	json_object_object_add(j, "type", cli_json_str(type ? type : p->type));
	json_object_object_add(j, "label", cli_json_str(p->label));
	json_object_object_add(j, "uuid", cli_json_str(p->uuid));
	json_object_object_add(j, "offset", json_object_new_uint64(p->offset));
	json_object_object_add(j, "size", json_object_new_uint64(p->size));
	return j;
}

/* The --json document: the image, one more member, and the list (which
 * it takes). */
static void print_doc(const char *image, const char *key, json_object *value,
		      const char *list_key, json_object **list)
{
	json_object *j = json_object_new_object();

	json_object_object_add(j, "image", cli_json_str(image));
	json_object_object_add(j, key, value);
	json_object_object_add(j, list_key, *list);
	*list = NULL;
	cli_json_print(j);
}

/* One protected partition checked: 0, or the exit code (printed). */
static int verify_one(const struct cli_opts *o, const struct ddi_image *img,
		      const struct ddi_verity *v, json_object *list)
{
	struct verity_pair pair;
	struct verity_run run;
	struct verity_outcome out;
	struct cli_progress pr;
	struct ht_error err;
	struct ddi_report rep = {o, v, NULL};
	const char **trusted;
	size_t ntrusted;
	enum fv_trust trust;
	struct cli_counts counts;
	char data_name[512], hash_name[512];
	glob_t g;
	int r, code;

	partition_name(v->data, data_name, sizeof(data_name));
	partition_name(v->hash, hash_name, sizeof(hash_name));
	if ((r = ddi_pair(img, v, &pair, &err)))
		return cli_inside_error(r, &err);
	trusted_of(o, &trusted, &ntrusted, &g);
	/* the one policy: a signer checked against --trusted-cert or
	 * /etc/verity.d, or said not to be; a certificate for an unsigned
	 * image, or a key, refused */
	if ((r = cli_trust(o, "ddi", img->path,
			   v->signature ? FV_SIGNATURE_FOUND
					: FV_SIGNATURE_NONE,
			   0, ntrusted, &trust))) {
		globfree(&g);
		return r;
	}
	if (cli_inside_run_of(o, &run, &pr)) {
		globfree(&g);
		return EXIT_PARAMS;
	}
	run.trusted = trusted;
	run.ntrusted = ntrusted;
	run.report = report;
	run.ctx = &rep;
	if (o->json)
		rep.failures = json_object_new_array();
	r = verity_op_verify(&pair, &run, &out, &err);
	cli_progress_end(&pr);
	globfree(&g);
	if (r) {
		json_object_put(rep.failures);
		/* a signature that does not check out is exit 2, as for
		 * every container (docs/trust.md) */
		return cli_error(r, "%s (%s-%s: partitions %u and %u)", err.msg,
				 ddi_role_name(v->role), v->arch,
				 v->data->index, v->hash->index);
	}
	if (trust == FV_TRUST_CHECK && v->fingerprint[0] &&
	    strcmp(v->fingerprint, out.sig.fingerprint)) {
		json_object_put(rep.failures);
		return cli_error(-EINVAL,
				 "%s: partition %u: certificateFingerprint %s "
				 "is not the signer's (%s)",
				 img->path, v->sig->index, v->fingerprint,
				 out.sig.fingerprint);
	}
	cli_inside_counts(&out.res, &counts);
	code = cli_verdict(&counts);
	if (o->json) {
		json_object *j = json_object_new_object();

		json_object_object_add(j, "role",
				       cli_json_str(ddi_role_name(v->role)));
		json_object_object_add(j, "architecture",
				       cli_json_str(v->arch));
		json_object_object_add(j, "data", json_partition(v->data));
		json_object_object_add(j, "hash", json_partition(v->hash));
		json_object_object_add(j, "signature",
				       v->sig ? json_partition(v->sig) : NULL);
		json_object_object_add(j, "signer",
				       trust == FV_TRUST_CHECK
					       ? cli_json_str(out.sig.signer)
					       : NULL);
		json_object_object_add(
			j, "certificate_fingerprint",
			trust == FV_TRUST_CHECK
				? cli_json_str(out.sig.fingerprint)
				: NULL);
		json_object_object_add(j, "trust",
				       cli_json_str(verity_trust_name(
					       (enum verity_trust)trust)));
		json_object_object_add(j, "root_hash",
				       cli_json_str(v->root_hex));
		json_object_object_add(j, "result",
				       cli_json_str(cli_verdict_word(code)));
		cli_json_add_counts(j, &counts);
		json_object_object_add(j, "failures", rep.failures);
		json_object_array_add(list, j);
		return code;
	}
	if (code == EXIT_VERIFY)
		cli_print_counts(&counts);
	if (!out.res.root_matches)
		fprintf(stderr, "Verification of root hash failed.\n");
	if (out.sig.warning[0])
		fprintf(stderr, "fastverity: %s: warning: %s\n", img->path,
			out.sig.warning);
	if (trust == FV_TRUST_UNCHECKED)
		fprintf(stderr,
			"fastverity: %s: warning: %s is signed (partition %u), "
			"and its signer was not checked (give "
			"--trusted-cert=<cert.pem>, or put the certificate in "
			VERITY_D "/ as systemd does): the image matches its "
			"root hash, but nothing proves who made it\n",
			img->path, data_name, v->sig->index);
	printf("%s-%s: %s, tree in partition %u, %s: %s.\n",
	       ddi_role_name(v->role), v->arch, data_name, v->hash->index,
	       !v->sig ? "unsigned (the root hash comes from the "
			 "partition UUIDs)"
	       : trust == FV_TRUST_UNCHECKED ? "signed, signer not checked"
						 : "signed",
	       code == EXIT_OK ? "verified" : "FAILED");
	if (v->sig && trust == FV_TRUST_CHECK)
		printf("%s-%s: signed by %s (certificate sha256 %s), partition "
		       "%u.\n",
		       ddi_role_name(v->role), v->arch, out.sig.signer,
		       out.sig.fingerprint, v->sig->index);
	return code;
}

int cli_ddi_verify(struct cli_opts *o, const char *image)
{
	struct ddi_image img;
	json_object *list = o->json ? json_object_new_array() : NULL;
	int r, worst = EXIT_OK;

	if ((r = read_image(o, image, &img))) {
		json_object_put(list);
		return r;
	}
	for (size_t i = 0; i < img.nv; i++) {
		if (!picked(o, &img.v[i]))
			continue;
		r = verify_one(o, &img, &img.v[i], list);
		/* a parameter or signature problem stops; bad blocks go on
		 * to the next partition */
		if (r && r != EXIT_VERIFY && !(r == EXIT_PARAMS && o->json))
			goto out;
		if (r > worst || (r == EXIT_VERIFY))
			worst = r == EXIT_VERIFY ? EXIT_VERIFY
						 : (worst ? worst : r);
	}
	r = worst;
	if (o->json)
		print_doc(image, "result", cli_json_str(cli_verdict_word(r)),
			  "partitions", &list);
out:
	json_object_put(list);
	ddi_image_free(&img);
	return r;
}

int cli_ddi_dump(struct cli_opts *o, const char *image)
{
	struct ddi_image img;
	struct ht_error err;
	json_object *list = json_object_new_array();
	int r;

	if ((r = read_image(o, image, &img))) {
		json_object_put(list);
		return r;
	}
	if (!o->json)
		printf("Discoverable disk image %s: GPT of %u-byte sectors, "
		       "disk UUID %s, %zu partitions\n",
		       image, img.gpt.h.sector, img.gpt.h.disk_uuid,
		       img.gpt.nparts);
	for (size_t i = 0; i < img.nv; i++) {
		const struct ddi_verity *v = &img.v[i];
		struct verity_pair pair;
		struct verity_layout l;
		struct verity_sig_check signer;
		char data_name[512], hash_name[512], sig_name[512] = "";

		if (!picked(o, v))
			continue;
		if ((r = ddi_pair(&img, v, &pair, &err)) ||
		    (r = verity_layout_compute(&pair.params, &l, &err))) {
			r = cli_inside_error(r, &err);
			goto out;
		}
		partition_name(v->data, data_name, sizeof(data_name));
		partition_name(v->hash, hash_name, sizeof(hash_name));
		memset(&signer, 0, sizeof(signer));
		if (v->sig) {
			partition_name(v->sig, sig_name, sizeof(sig_name));
			if ((r = verity_signature_signer(
				     &(struct verity_sig){v->signature,
							  v->signature_len,
							  sig_name},
				     &signer, &err))) {
				r = cli_inside_error(r, &err);
				goto out;
			}
		}
		struct fv_layout fl;
		char root_hex[2 * HT_MAX_DIGEST_SIZE + 1];
		fv_params *fp = cli_inside_params(&pair.params);

		if (!fp) {
			r = EXIT_NOMEM;
			goto out;
		}
		cli_inside_layout(&l, &fl);
		verity_hex_encode(pair.root, l.geo.digest_size, root_hex);
		if (o->json) {
			json_object *j =
				cli_json_header(image, fp, &fl, root_hex);

			json_object_object_add(
				j, "role",
				cli_json_str(ddi_role_name(v->role)));
			json_object_object_add(j, "architecture",
					       cli_json_str(v->arch));
			json_object_object_add(j, "data_partition",
					       json_partition(v->data));
			json_object_object_add(j, "hash_partition",
					       json_partition(v->hash));
			json_object_object_add(j, "signature_partition",
					       v->sig ? json_partition(v->sig)
						      : NULL);
			json_object_object_add(
				j, "certificate_fingerprint",
				v->fingerprint[0] ? cli_json_str(v->fingerprint)
						  : NULL);
			json_object_object_add(
				j, "signed",
				json_object_new_boolean(v->sig != NULL));
			json_object_object_add(
				j, "signer",
				v->sig ? cli_json_str(signer.signer) : NULL);
			json_object_array_add(list, j);
			fv_params_free(fp);
			continue;
		}
		printf("\n%s-%s:\n  data:      %s, %" PRIu64
		       " bytes at %" PRIu64 "\n  hash tree: %s, %" PRIu64
		       " bytes at %" PRIu64 "\n",
		       ddi_role_name(v->role), v->arch, data_name,
		       v->data->size, v->data->offset, hash_name, v->hash->size,
		       v->hash->offset);
		if (v->sig)
			printf("  signature: %s, signer %s (not checked: "
			       "verify "
			       "checks it), certificate sha256 %s\n",
			       sig_name, signer.signer,
			       v->fingerprint[0] ? v->fingerprint : "(none)");
		else
			printf("  signature: none (unsigned: the root hash "
			       "comes from the partition UUIDs)\n");
		{
			char uuid[37];

			verity_uuid_format(pair.params.uuid, uuid);
			cli_print_header(hash_name, fp, uuid, &fl, root_hex);
		}
		fv_params_free(fp);
	}
	if (o->json)
		print_doc(image, "disk_uuid", cli_json_str(img.gpt.h.disk_uuid),
			  "verity", &list);
out:
	json_object_put(list);
	ddi_image_free(&img);
	return r;
}

int cli_ddi_open(struct cli_opts *o, const char *image, const char *name)
{
	struct ddi_image img;
	struct verity_pair pair;
	struct verity_run run;
	struct ht_error err;
	int r;

	if ((r = read_image(o, image, &img)))
		return r;
	r = EXIT_PARAMS;
	for (size_t i = 0; i < img.nv; i++) {
		if (!picked(o, &img.v[i]) ||
		    (!o->partition && img.v[i].role != DDI_ROOT && img.nv > 1))
			continue;
		if ((r = ddi_pair(&img, &img.v[i], &pair, &err))) {
			r = cli_inside_error(r, &err);
			goto out;
		}
		memset(&run, 0, sizeof(run));
		run.activation = o->activation;
		/* the signature is the kernel's to check */
		r = verity_op_open(name, &pair, &run, &err);
		r = r ? cli_inside_error(r, &err) : EXIT_OK;
		goto out;
	}
	r = cli_error(-EINVAL, "%s: no protected partition to open", image);
out:
	ddi_image_free(&img);
	return r;
}

int cli_ddi_pair(struct cli_opts *o, const char *image, struct cli_pair *cp)
{
	struct ddi_image img;
	struct cli_fec fec;
	fv_image *im = NULL;
	size_t at = 0;
	int r, signed_image;

	memset(cp, 0, sizeof(*cp));
	if ((r = read_image(o, image, &img)))
		return r;
	for (size_t i = 0, n = 0; i < img.nv; i++) {
		if (!picked(o, &img.v[i]))
			continue;
		if (n++) {
			r = cli_error(-EINVAL,
				      "%s: several protected partitions: "
				      "name one with --partition=root|usr",
				      image);
			goto out;
		}
		at = i;
	}
	signed_image = img.v[at].signature != NULL;
	/* the library's pair of that partition (its signature carried by
	 * the image), with the parity options */
	if ((r = fv_image_open(image, "ddi", NULL, &im)) ||
	    (r = fv_image_pair(im, at, &cp->fp))) {
		r = cli_lib_error(r);
		goto out;
	}
	if (signed_image)
		cp->signature_path = image;
	if (cli_fec_params(o, &fec)) {
		r = EXIT_PARAMS;
		goto out;
	}
	if ((r = fv_pair_set_fec(cp->fp, fec.path, fec.offset, fec.roots))) {
		r = cli_lib_error(r);
		goto out;
	}
	/* a repair's trusted certificates are the ones given: it writes */
	r = cli_trust(o, "ddi", image,
		      signed_image ? FV_SIGNATURE_FOUND : FV_SIGNATURE_NONE,
		      cli_writes(o), 0, &cp->trust);
out:
	fv_image_free(im);
	ddi_image_free(&img);
	return r;
}
