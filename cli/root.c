/* The root hash, from the argument or --root-hash-file (cli/root.h). */
#include "cli/files.h"
#include "cli/root.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/errors.h"
#include "cli/hints.h"
#include "cli/params.h"
#include "include/fastverity.h"

#define MAX_DIGEST_SIZE FV_MAX_DIGEST_SIZE

/* A root hash file, as the library reads every one. */
static int read_root_file(const char *path, char *buf, size_t size)
{
	struct fv_file_request q = {.size = sizeof(q),
				    .op = FV_FILE_ROOT_HASH,
				    .path = path,
				    .text = buf,
				    .text_size = size};
	int r = fv_file(&q, NULL);

	return r ? cli_lib_error(r) : 0;
}

/* The root hash text from the argument or --root-hash-file. */
static const char *root_text(const struct cli_opts *o, const char *arg,
			     char *buf, size_t size)
{
	const char *hex, *file;

	if (cli_root_given(o, arg, &hex, &file))
		return NULL;
	if (file)
		return read_root_file(file, buf, size) ? NULL : buf;
	return hex;
}

static int bad_root(const struct cli_opts *o, const char *hex,
		    const char *expected)
{
	int r;

	/* veritysetup's words first, for scripts that look for them */
	fputs("Invalid root hash string specified.\n", stderr);
	r = o->root_hash_file
		    ? -cli_error(-EINVAL,
				 "%s: invalid root hash string specified "
				 "(expected %s)",
				 o->root_hash_file, expected)
		    : -cli_error(-EINVAL,
				 "invalid root hash string specified: '%s' "
				 "(expected %s)",
				 hex, expected);
	if (!o->root_hash_file)
		cli_hint_root_file(hex);
	return r;
}

int cli_root_hex(const struct cli_opts *o, const char *arg, char *hex)
{
	char text[2 * MAX_DIGEST_SIZE + 8];
	const char *t = root_text(o, arg, text, sizeof(text));
	size_t n;

	if (!t)
		return EXIT_PARAMS;
	n = strlen(t);
	for (size_t i = 0; i < n; i++)
		if (!isxdigit((unsigned char)t[i]))
			n = 1;
	if (n % 2 || n < 32 || n > 2 * MAX_DIGEST_SIZE)
		return bad_root(o, t, "32 to 128 hex digits");
	for (size_t i = 0; i <= n; i++)
		hex[i] = (char)tolower((unsigned char)t[i]);
	return 0;
}

int cli_root_given(const struct cli_opts *o, const char *arg, const char **hex,
		   const char **file)
{
	*hex = NULL;
	*file = NULL;
	if (arg && o->root_hash_file)
		return cli_error(-EINVAL, "give the root hash as an argument "
					  "or with --root-hash-file, not both");
	if (!arg && !o->root_hash_file)
		return cli_error(-EINVAL, "this action requires <root_hash> or "
					  "the --root-hash-file option");
	*hex = arg;
	*file = o->root_hash_file;
	return 0;
}

int cli_root_refused(int r, const char *hex)
{
	if (cli_lib_param() != FV_PARAM_ROOT_HASH)
		return cli_lib_error(r);
	/* veritysetup's words first, for scripts that look for them */
	fputs("Invalid root hash string specified.\n", stderr);
	r = cli_lib_error(r);
	cli_hint_root_file(hex);
	return r;
}

int cli_root_write(const char *path, const char *hex)
{
	/* whole or not at all: a temporary file renamed over the old one */
	return path && cli_output_write(path, "the root hash file", hex,
					strlen(hex))
		       ? cli_lib_error(-EIO)
		       : 0;
}
