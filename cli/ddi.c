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

/* A --partition that is no role: said as the option it is; else the
 * library's message (r: fv_show's error). */
int cli_partition_refused(const struct cli_opts *o, int r)
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
	cli_trusted_of(o, (const char ***)&opts.trusted_certs,
		       &opts.ntrusted_certs, &g);
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
	return r > 0 ? cli_exit_code(-r) : r ? cli_partition_refused(o, r) : 0;
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

	return r > 0 ? r : r ? cli_partition_refused(o, r) : 0;
}
