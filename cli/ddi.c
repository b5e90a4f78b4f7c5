/* A systemd Discoverable Disk Image given alone to verify, dump, open or
 * repair (docs/ddi.md): every protected partition found in its GPT
 * checked in full (tree, root hash, signature), shown, or mapped; the
 * library reads the image (fv_open, fv_image_pair_info) and makes what
 * dump shows (fv_show). */
#include "cli/ddi.h"

#include <errno.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>

#include "cli/errors.h"
#include "cli/json.h"
#include "cli/pair.h"
#include "cli/params.h"
#include "cli/progress.h"

/* Where systemd looks for certificates trusted to sign DDIs. */
#define VERITY_D "/etc/verity.d"

/* Whether --partition (a role: root, usr) picks pair i of im. */
static int picked(const struct cli_opts *o, const fv_image *im, size_t i)
{
	return !o->partition ||
	       !strcmp(o->partition, cli_image_pair(im, i).ddi.role);
}

static int check_partition_option(const struct cli_opts *o, const char *image,
				  const fv_image *im)
{
	if (o->partition && strcmp(o->partition, "root") &&
	    strcmp(o->partition, "usr"))
		return cli_error(-EINVAL,
				 "--partition: '%s' is not root or usr",
				 o->partition);
	for (size_t i = 0; i < cli_image_info(im).pairs; i++)
		if (picked(o, im, i))
			return 0;
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

/* The image's table read through the door (fv_open), its pairs judged
 * with --trusted-cert, or /etc/verity.d's as systemd trusts them (open),
 * or --trusted-cert's alone and the parity given (repair: it writes), and
 * --partition checked against it: 0, or the exit code (printed; nothing
 * left to free). */
static int read_image(const struct cli_opts *o, const char *image, int repair,
		      fv_image **im)
{
	struct fv_open_request rq = {
		.size = sizeof(rq), .image = image, .container = "ddi"};
	const char **certs = (const char **)o->trusted_certs;
	size_t ncerts = o->ntrusted;
	struct cli_fec fec;
	glob_t g;
	int r;

	memset(&g, 0, sizeof(g));
	if (!repair)
		trusted_of(o, &certs, &ncerts, &g);
	else {
		if (cli_fec_params(o, &fec))
			return EXIT_PARAMS;
		rq.fec_path = fec.path;
		rq.fec_offset = fec.offset;
		rq.fec_roots = fec.roots;
	}
	r = cli_open(o, &rq, certs, ncerts, im);
	globfree(&g);
	if (r)
		return r < 0 ? cli_lib_error(r) : r;
	if ((r = check_partition_option(o, image, *im))) {
		fv_image_free(*im);
		*im = NULL;
	}
	return r;
}

/* A --partition that is no role: said as the option it is; else the
 * library's message (r: fv_show's error). */
static int partition_refused(const struct cli_opts *o, int r)
{
	if (cli_lib_param() == FV_PARAM_PARTITION)
		return cli_error(-EINVAL,
				 "--partition: '%s' is not root or usr",
				 o->partition);
	return cli_lib_error(r);
}

/* verify: the library checks each protected partition and says what
 * it found (fv_show); > 0: the worst verdict, as an errno. */
int cli_ddi_verify(struct cli_opts *o, const char *image)
{
	struct cli_progress pr;
	fv_options opts;
	glob_t g;
	int r;

	if ((r = cli_anchor_options(o, &opts)))
		return r;
	if (cli_run_options(o, &opts, &pr))
		return EXIT_PARAMS;
	trusted_of(o, (const char ***)&opts.trusted_certs, &opts.ntrusted_certs,
		   &g);
	opts.key = o->key;
	r = cli_show(&(struct fv_show_request){
		.size = sizeof(struct fv_show_request),
		.what = FV_SHOW_DDI_VERIFY,
		.image = image,
		.json = o->json,
		.partition = o->partition,
		.o = &opts});
	cli_progress_end(&pr);
	globfree(&g);
	return r > 0 ? cli_exit_code(-r) : r ? partition_refused(o, r) : 0;
}

/* dump: what the library shows of the image (fv_show). */
int cli_ddi_dump(struct cli_opts *o, const char *image)
{
	int r = cli_show(&(struct fv_show_request){
		.size = sizeof(struct fv_show_request),
		.what = FV_SHOW_DDI,
		.image = image,
		.json = o->json,
		.partition = o->partition});

	return r > 0 ? r : r ? partition_refused(o, r) : 0;
}

int cli_ddi_open(struct cli_opts *o, const char *image, const char *name)
{
	struct cli_pair cp;
	fv_image *im;
	int r;

	if ((r = read_image(o, image, 0, &im)))
		return r;
	for (size_t i = 0, n = cli_image_info(im).pairs; i < n; i++) {
		if (!picked(o, im, i) ||
		    (!o->partition && n > 1 &&
		     strcmp(cli_image_pair(im, i).ddi.role, "root")))
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
	fv_image *im;
	size_t at = 0;
	int r;

	memset(cp, 0, sizeof(*cp));
	if ((r = read_image(o, image, 1, &im)))
		return r;
	for (size_t i = 0, n = 0; i < cli_image_info(im).pairs; i++) {
		if (!picked(o, im, i))
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
	/* that partition's pair (its signature carried by the image), with
	 * the parity given (read_image), judged by the door with the
	 * certificates given alone: a repair writes */
	cli_pair_take(cp, im, at);
	return 0;
out:
	fv_image_free(im);
	return r;
}
