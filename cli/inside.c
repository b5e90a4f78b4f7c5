/* The internal library's messages in the command's words (cli/inside.h). */
#include "cli/inside.h"

#include <errno.h>

#include "cli/errors.h"
#include "include/fastverity.h"

int cli_inside_error(int r, const struct ht_error *err)
{
	struct ht_param_names names = {NULL, NULL};
	char msg[HT_ERROR_MAX];

	if ((size_t)err->param < cli_option_words_count) {
		names.with_value = cli_option_words[err->param].with_value;
		names.alone = cli_option_words[err->param].alone;
	}
	ht_say(err, &names, msg, sizeof(msg));
	return cli_error(r, "%s", msg);
}

int cli_inside_write_error(int r, const struct ht_error *err)
{
	return cli_inside_error(r == -EBUSY ? -EINVAL : r, err);
}
