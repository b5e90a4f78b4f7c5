/* fastverity avb info_image, print_partition_digests,
 * calculate_kernel_cmdline, calculate_vbmeta_digest and
 * extract_vbmeta_image: avbtool's text, line for line, and --json
 * (docs/android.md), or its bytes, made by the library (fv_show) and
 * written here to stdout or a file. */
#include "cli/files.h"
#include "cli/avb.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/errors.h"
#include "cli/json.h"

int cli_avb_write(const char *output, const char *what, const void *buf,
		  size_t len, const char *input)
{
	int r;

	if (input && cli_same_storage(output, input))
		return cli_error(-EINVAL,
				 "--output %s: is the input %s: an output is "
				 "never written over what is read",
				 output, input);
	if ((r = cli_output_write(output, what, buf, len)))
		return cli_write_error(r);
	return EXIT_OK;
}

int cli_avb_error(int r)
{
	int e = cli_lib_error(r);

	return r == -EDOM ? AVB_USAGE : e;
}

int cli_avb_show(const struct cli_avb_args *a, struct fv_show_request *q,
		 const char *output, const char *words)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = stdout;
	int r;

	q->size = sizeof(*q);
	q->image = cli_avb_opt(a, "image");
	q->json = !!cli_avb_opt(a, "json");
	q->hashtree_disabled = !!cli_avb_opt(a, "hashtree_disabled");
	if (output && !(f = open_memstream(&text, &len)))
		return cli_error(-ENOMEM, "out of memory");
	q->options = a->pairs;
	q->noptions = a->npairs;
	/* > 0: a verify's step failed, said (avbtool's exit code 1) */
	if ((r = cli_show_to(q, f)))
		r = r > 0 ? EXIT_PARAMS : cli_avb_error(r);
	else if (q->what == FV_SHOW_AVB_INFO && cli_avb_opt(a, "output_pubkey"))
		r = cli_avb_show(
			a,
			&(struct fv_show_request){.what = FV_SHOW_AVB_PUBKEY},
			cli_avb_opt(a, "output_pubkey"), "public key file");
	if (f != stdout) {
		if (r)
			fclose(f);
		else if (fclose(f))
			r = cli_error(-ENOMEM, "out of memory");
		else
			r = cli_avb_write(output, words, text, len,
					  cli_avb_opt(a, "image"));
		free(text);
	}
	return r;
}
