/* The command's messages and exit codes (cli/errors.h). */
#include "cli/errors.h"
#include "cli/progress.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "include/fastverity.h"

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
static const struct fv_param_words cli_option_words[] = {
	[FV_PARAM_DATA_BLOCKS] = {"--data-blocks=%llu", "--data-blocks"},
	[FV_PARAM_HASH_OFFSET] = {"--hash-offset=%llu", "--hash-offset"},
	[FV_PARAM_FEC_ROOTS] = {"--fec-roots=%llu", "--fec-roots"},
	[FV_PARAM_FEC_OFFSET] = {"--fec-offset=%llu", "--fec-offset"},
	[FV_PARAM_PASSPHRASE] = {"--key-passphrase-file",
				 "--key-passphrase-file"},
	[FV_PARAM_DRY_RUN] = {"repair without --dry-run",
			      "repair without --dry-run"},
	[FV_PARAM_CONTAINER] = {"--container", "--container"},
	[FV_PARAM_TRUSTED_CERT] = {"--trusted-cert=<cert.pem>",
				   "--trusted-cert=<cert.pem>"},
	[FV_PARAM_TRUSTED_KEY] = {"--key=<key.pem>", "--key=<key.pem>"},
	[FV_PARAM_PARTITION] = {"--partition", "--partition"},
};

int cli_lib_say(char *msg, size_t len)
{
	struct fv_error_say s = {.size = sizeof(s),
				 .words = cli_option_words,
				 .nwords = sizeof(cli_option_words) /
					   sizeof(cli_option_words[0]),
				 .text = msg,
				 .text_size = len};

	return fv_last_error_say(&s);
}

enum fv_param cli_lib_param(void)
{
	struct fv_error_say s = {.size = sizeof(s)};

	fv_last_error_say(&s);
	return s.param;
}

int cli_lib_error(int r)
{
	char msg[3 * 4096];

	cli_lib_say(msg, sizeof(msg));
	return cli_error(r, "%s", msg);
}

int cli_write_error(int r)
{
	return cli_lib_error(r == -EBUSY ? -EINVAL : r);
}

int cli_error(int r, const char *fmt, ...)
{
	va_list ap;

	cli_progress_clear();
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
