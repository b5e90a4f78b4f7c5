/* A systemd Discoverable Disk Image given alone to verify, dump, open or
 * repair (docs/ddi.md): every protected partition found in its GPT
 * checked in full (tree, root hash, signature), shown, or mapped; the
 * library reads the image (fv_open, fv_image_pair_info) and makes what
 * dump shows (fv_show). */
#include "cli/ddi.h"

#include <errno.h>
#include <glob.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/jsonc.h"

#include "cli/errors.h"
#include "cli/json.h"
#include "cli/pair.h"
#include "cli/params.h"
#include "cli/progress.h"
#include "cli/text.h"

/* Where systemd looks for certificates trusted to sign DDIs. */
#define VERITY_D "/etc/verity.d"

/* The protected partitions --partition picks (a role: root, usr). */
static int picked(const struct cli_opts *o, const struct fv_ddi_pair *d)
{
	return !o->partition || !strcmp(o->partition, d->role);
}

/* Pair i's description (the library's). */
static void pair_of(const fv_image *im, size_t i, struct fv_ddi_pair *d)
{
	*d = cli_image_pair(im, i).ddi;
}

static int check_partition_option(const struct cli_opts *o, const char *image,
				  const fv_image *im)
{
	struct fv_ddi_pair d;

	if (o->partition && strcmp(o->partition, "root") &&
	    strcmp(o->partition, "usr"))
		return cli_error(-EINVAL,
				 "--partition: '%s' is not root or usr",
				 o->partition);
	for (size_t i = 0; i < cli_image_info(im).pairs; i++) {
		pair_of(im, i, &d);
		if (picked(o, &d))
			return 0;
	}
	return cli_error(-EINVAL, "%s: no protected %s partition", image,
			 o->partition);
}

/* The certificates to check a signature against: --trusted-cert, or
 * /etc/verity.d/'s (FASTVERITY_VERITY_D names another directory, for
 * tests). */
static void trusted_of(const struct cli_opts *o, const char ***list, size_t *n,
		       glob_t *g)
{
	const char *dir = getenv("FASTVERITY_VERITY_D");
	char pattern[4096];

	*list = o->trusted_certs;
	*n = o->ntrusted;
	memset(g, 0, sizeof(*g));
	if (*n)
		return;
	snprintf(pattern, sizeof(pattern), "%s/*.crt", dir ? dir : VERITY_D);
	if (glob(pattern, 0, NULL, g) == 0 && g->gl_pathc) {
		*list = (const char **)g->gl_pathv;
		*n = g->gl_pathc;
	}
}

/* How read_image judges the image's pairs. */
enum judge {
	DESCRIBE,   /* not judged: dump describes it */
	SYSTEMD,    /* --trusted-cert, or /etc/verity.d's as systemd trusts */
	GIVEN_ONLY, /* --trusted-cert's alone (a repair writes) */
};

/* The image's table read through the door (fv_open), its pairs judged
 * as how says, and --partition checked against it: 0, or the exit code
 * (printed; nothing left to free). */
static int read_image(const struct cli_opts *o, const char *image,
		      enum judge how, fv_image **im)
{
	struct fv_open_request rq = {
		.size = sizeof(rq), .image = image, .container = "ddi"};
	const char **certs = (const char **)o->trusted_certs;
	size_t ncerts = o->ntrusted;
	struct cli_fec fec;
	glob_t g;
	int r;

	memset(&g, 0, sizeof(g));
	if (how == SYSTEMD)
		trusted_of(o, &certs, &ncerts, &g);
	/* a repair's parity (--fec-device) */
	if (how == GIVEN_ONLY) {
		if (cli_fec_params(o, &fec))
			return EXIT_PARAMS;
		rq.fec_path = fec.path;
		rq.fec_offset = fec.offset;
		rq.fec_roots = fec.roots;
	}
	r = how == DESCRIBE ? fv_open(&rq, NULL, im)
			    : cli_open(o, &rq, certs, ncerts, im);
	globfree(&g);
	if (r)
		return r < 0 ? cli_lib_error(r) : r;
	if ((r = check_partition_option(o, image, *im))) {
		fv_image_free(*im);
		*im = NULL;
	}
	return r;
}

/* The name a message gives a partition: "partition 1 (root-x86-64,
 * label root-x86-64, UUID ...)". */
static void partition_name(const struct fv_gpt_partition *p, char *out,
			   size_t len)
{
	snprintf(out, len, "partition %u (%s, label '%s', UUID %s)", p->index,
		 p->type, CLI_NAME(p->label, strlen(p->label)), p->uuid);
}

struct ddi_report {
	const struct cli_opts *o;
	const struct fv_ddi_pair *d;
	json_object *failures; /* --json */
};

static void report(void *c, enum fv_failure_kind kind, uint64_t block,
		   uint64_t offset, unsigned level)
{
	struct ddi_report *rep = c;
	struct cli_failure f = {kind, offset, block, level};
	int data =
		kind == FV_BAD_DATA_BLOCK || kind == FV_UNREADABLE_DATA_BLOCK;
	const struct fv_gpt_partition *p = data ? &rep->d->data : &rep->d->hash;

	cli_progress_clear();
	if (rep->failures) {
		json_object *j = cli_json_failure(&f);

		cli_jint(j, "partition", (int)p->index);
		cli_ju64(j, "image_offset", p->offset + f.position);
		json_object_array_add(rep->failures, j);
		return;
	}
	fprintf(stderr,
		"%s at position %" PRIu64
		" (partition %u: %s, label '%s', UUID "
		"%s; image byte %" PRIu64 ").\n",
		cli_failure_words(kind), f.position, p->index, p->type,
		CLI_NAME(p->label, strlen(p->label)), p->uuid,
		p->offset + f.position);
}

static json_object *json_partition(const struct fv_gpt_partition *p)
{
	json_object *j = json_object_new_object();

	cli_jint(j, "index", (int)p->index);
	cli_jstr(j, "type", p->type);
	cli_jstr(j, "label", p->label);
	cli_jstr(j, "uuid", p->uuid);
	cli_ju64(j, "offset", p->offset);
	cli_ju64(j, "size", p->bytes);
	return j;
}

/* The --json document: the image, one more member, and the list (which
 * it takes). */
static void print_doc(const char *image, const char *key, json_object *value,
		      const char *list_key, json_object **list)
{
	json_object *j = json_object_new_object();

	cli_jstr(j, "image", image);
	cli_jset(j, key, value);
	cli_jset(j, list_key, *list);
	*list = NULL;
	cli_json_print(j);
}

/* The check of pair i, run with the certificates given or systemd's:
 * 0 and *res, or the exit code (printed). */
static int check_pair(const struct cli_opts *o, const fv_image *im, size_t i,
		      const struct fv_ddi_pair *d, struct ddi_report *rep,
		      fv_result **res)
{
	struct cli_progress pr;
	fv_options opts;
	int r;

	if (cli_run_options(o, &opts, &pr))
		return EXIT_PARAMS;
	opts.failure = report;
	opts.failure_ctx = rep;
	r = fv_verify(im, i, &opts, res);
	cli_progress_end(&pr);
	/* a signature that does not check out is exit 2, as for every
	 * container (docs/trust.md) */
	if (r)
		return cli_error(r, "%s (%s-%s: partitions %u and %u)",
				 fv_last_error(), d->role, d->arch,
				 d->data.index, d->hash.index);
	return 0;
}

/* One protected partition checked: 0, or the exit code (printed). */
static int verify_one(const struct cli_opts *o, const char *image,
		      const fv_image *im, size_t i, json_object *list)
{
	struct fv_ddi_pair d;
	struct ddi_report rep = {o, &d, NULL};
	struct fv_report found;
	struct cli_counts counts;
	char verdict[160];
	fv_result *res = NULL;
	enum fv_trust trust;
	char data_name[512];
	int r, code;

	pair_of(im, i, &d);
	partition_name(&d.data, data_name, sizeof(data_name));
	/* the door's verdict: a signer checked against --trusted-cert or
	 * /etc/verity.d, or said not to be */
	trust = cli_image_pair(im, i).trust;
	if (o->json)
		rep.failures = json_object_new_array();
	r = check_pair(o, im, i, &d, &rep, &res);
	if (r) {
		json_object_put(rep.failures);
		return r;
	}
	cli_report(res, &found);
	cli_counts_of(res, &counts);
	code = cli_verdict(&counts);
	if (o->json) {
		json_object *j = json_object_new_object();

		cli_jstr(j, "role", d.role);
		cli_jstr(j, "architecture", d.arch);
		cli_jset(j, "data", json_partition(&d.data));
		cli_jset(j, "hash", json_partition(&d.hash));
		cli_jset(j, "signature",
			 d.is_signed ? json_partition(&d.signature) : NULL);
		cli_jset(j, "signer",
			 trust == FV_TRUST_CHECK ? cli_json_str(found.signer)
						 : NULL);
		cli_jset(j, "certificate_fingerprint",
			 trust == FV_TRUST_CHECK
				 ? cli_json_str(found.signer_fingerprint)
				 : NULL);
		cli_jstr(j, "trust", cli_trust_word(trust));
		cli_jstr(j, "root_hash", d.root_hex);
		cli_jstr(j, "result", cli_verdict_word(code));
		cli_json_add_counts(j, &counts);
		cli_jset(j, "failures", rep.failures);
		json_object_array_add(list, j);
		fv_result_free(res);
		return code;
	}
	if (code == EXIT_VERIFY)
		cli_print_counts(&counts);
	if (!counts.root_matches)
		fprintf(stderr, "Verification of root hash failed.\n");
	if (*found.signature_warning)
		fprintf(stderr, "fastverity: %s: warning: %s\n", image,
			found.signature_warning);
	if (trust == FV_TRUST_UNCHECKED)
		fprintf(stderr,
			"fastverity: %s: warning: %s is signed (partition %u), "
			"and its signer was not checked (give "
			"--trusted-cert=<cert.pem>, or put the certificate "
			"in " VERITY_D
			"/ as systemd does): the image matches its "
			"root hash, but nothing proves who made it\n",
			image, data_name, d.signature.index);
	printf("%s-%s: %s, tree in partition %u, %s: %s.\n", d.role, d.arch,
	       data_name, d.hash.index,
	       !d.is_signed ? "unsigned (the root hash comes from the "
			      "partition UUIDs)"
	       : trust == FV_TRUST_UNCHECKED ? "signed, signer not checked"
					     : "signed",
	       cli_verdict_text(code, &counts, verdict, sizeof(verdict)));
	if (d.is_signed && trust == FV_TRUST_CHECK)
		printf("%s-%s: signed by %s (certificate sha256 %s), partition "
		       "%u.\n",
		       d.role, d.arch, found.signer, found.signer_fingerprint,
		       d.signature.index);
	fv_result_free(res);
	return code;
}

int cli_ddi_verify(struct cli_opts *o, const char *image)
{
	json_object *list = o->json ? json_object_new_array() : NULL;
	struct fv_ddi_pair d;
	fv_image *im;
	int r, worst = EXIT_OK;

	if ((r = read_image(o, image, SYSTEMD, &im))) {
		json_object_put(list);
		return r;
	}
	for (size_t i = 0; i < cli_image_info(im).pairs; i++) {
		pair_of(im, i, &d);
		if (!picked(o, &d))
			continue;
		r = verify_one(o, image, im, i, list);
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
	fv_image_free(im);
	return r;
}

/* dump: what the library shows of the image (fv_show). */
int cli_ddi_dump(struct cli_opts *o, const char *image)
{
	char none[4096];
	int r = cli_show(&(struct fv_show_request){
		.size = sizeof(struct fv_show_request),
		.what = FV_SHOW_DDI,
		.image = image,
		.json = o->json,
		.partition = o->partition});

	if (!r)
		return 0;
	/* a --partition that is no role matches no partition: said as the
	 * option it is */
	snprintf(none, sizeof(none), "%s: no protected %s partition", image,
		 o->partition ? o->partition : "");
	if (o->partition && strcmp(o->partition, "root") &&
	    strcmp(o->partition, "usr") && !strcmp(fv_last_error(), none))
		return cli_error(-EINVAL,
				 "--partition: '%s' is not root or usr",
				 o->partition);
	return r > 0 ? r : cli_lib_error(r);
}

int cli_ddi_open(struct cli_opts *o, const char *image, const char *name)
{
	struct fv_ddi_pair d;
	struct cli_pair cp;
	fv_image *im;
	int r;

	if ((r = read_image(o, image, SYSTEMD, &im)))
		return r;
	for (size_t i = 0, n = cli_image_info(im).pairs; i < n; i++) {
		pair_of(im, i, &d);
		if (!picked(o, &d) ||
		    (!o->partition && strcmp(d.role, "root") && n > 1))
			continue;
		/* the door's verdict, as verify has it: a signer checked
		 * against --trusted-cert or /etc/verity.d before the table
		 * is loaded; without either, the kernel's keyring checks
		 * it */
		memset(&cp, 0, sizeof(cp));
		cli_pair_take(&cp, im, i);
		return cli_open_pair(o, name, &cp, 0);
	}
	r = cli_error(-EINVAL, "%s: no protected partition to open", image);
	fv_image_free(im);
	return r;
}

int cli_ddi_pair(struct cli_opts *o, const char *image, struct cli_pair *cp)
{
	struct fv_ddi_pair d;
	fv_image *im;
	size_t at = 0;
	int r;

	memset(cp, 0, sizeof(*cp));
	if ((r = read_image(o, image, GIVEN_ONLY, &im)))
		return r;
	for (size_t i = 0, n = 0; i < cli_image_info(im).pairs; i++) {
		pair_of(im, i, &d);
		if (!picked(o, &d))
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
	pair_of(im, at, &d);
	/* that partition's pair (its signature carried by the image), with
	 * the parity given (read_image), judged by the door with the
	 * certificates given alone: a repair writes */
	cli_pair_take(cp, im, at);
	if (d.is_signed)
		cp->signature_path = image;
	return 0;
out:
	fv_image_free(im);
	return r;
}
