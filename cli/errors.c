/* The command's messages and exit codes (cli/errors.h). */
#include "cli/errors.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"

int cli_exit_code(int r)
{
	switch (-r) {
	case 0:
		return EXIT_OK;
	case EPERM:
		return EXIT_VERIFY;
	case ENOMEM:
		return EXIT_NOMEM;
	case ENODEV:
	case ENOTBLK:
		return EXIT_NODEV;
	case EBUSY:
	case EEXIST:
		return EXIT_BUSY;
	default:
		return EXIT_PARAMS;
	}
}

char *cli_last_error;

/* The library's parameters as the command's options. */
static const struct ht_param_names option_names[HT_PARAM_COUNT] = {
	[HT_PARAM_DATA_BLOCKS] = {"--data-blocks=%llu", "--data-blocks"},
	[HT_PARAM_HASH_OFFSET] = {"--hash-offset=%llu", "--hash-offset"},
	[HT_PARAM_FEC_ROOTS] = {"--fec-roots=%llu", "--fec-roots"},
	[HT_PARAM_FEC_OFFSET] = {"--fec-offset=%llu", "--fec-offset"},
	[HT_PARAM_PASSPHRASE] = {"--key-passphrase-file",
				 "--key-passphrase-file"},
	[HT_PARAM_DRY_RUN] = {"repair without --dry-run",
			      "repair without --dry-run"},
	[HT_PARAM_CONTAINER] = {"--container", "--container"},
	[HT_PARAM_TRUSTED_CERT] = {"--trusted-cert=<cert.pem>",
				   "--trusted-cert=<cert.pem>"},
	[HT_PARAM_TRUSTED_KEY] = {"--key=<key.pem>", "--key=<key.pem>"},
};

int cli_lib_error(int r, const struct ht_error *err)
{
	char fix[512];

	if (err->param == HT_PARAM_NONE)
		return cli_error(r, "%s", err->msg);
	/* the fix again, with the option that makes it */
	ht_render_fix(err, option_names, fix, sizeof(fix));
	return cli_error(r, "%.*s (%s)", (int)err->problem_len, err->msg, fix);
}

int cli_write_error(int r, const struct ht_error *err)
{
	return cli_lib_error(r == -EBUSY ? -EINVAL : r, err);
}

int cli_error(int r, const char *fmt, ...)
{
	va_list ap;

	fputs("fastverity: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	/* kept for the --json document */
	free(cli_last_error);
	va_start(ap, fmt);
	if (vasprintf(&cli_last_error, fmt, ap) < 0)
		cli_last_error = NULL;
	va_end(ap);
	return cli_exit_code(r);
}

void cli_debug(const struct cli_opts *o, const char *fmt, ...)
{
	va_list ap;

	if (!o->debug)
		return;
	fputs("# ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
