/* The files around images, through fv_file (cli/files.h). */
#include "cli/files.h"

#include <string.h>

static int ask(const struct fv_file_request *q, struct fv_file_answer *a)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	return fv_file(q, a);
}

int cli_file(enum fv_file_op op, const char *path, struct fv_file_answer *a)
{
	struct fv_file_request q = {.size = sizeof(q), .op = op, .path = path};

	return ask(&q, a);
}

const char *cli_same_storage(const char *a, const char *b)
{
	struct fv_file_request q = {.size = sizeof(q),
				    .op = FV_FILE_SAME_STORAGE,
				    .path = a,
				    .other = b};
	struct fv_file_answer ans;

	return a && b && !ask(&q, &ans) ? ans.same : NULL;
}

int cli_is_sparse(const char *path)
{
	struct fv_file_request q = {
		.size = sizeof(q), .op = FV_FILE_REFUSE_SPARSE, .path = path};

	return fv_file(&q, NULL);
}

int cli_input_read(const char *path, const char *what, size_t max,
		   uint8_t **buf, size_t *len)
{
	struct fv_file_request q = {.size = sizeof(q),
				    .op = FV_FILE_READ,
				    .path = path,
				    .what = what,
				    .max = max};
	struct fv_file_answer a;
	int r = ask(&q, &a);

	*buf = a.data;
	*len = a.len;
	return r;
}

int cli_output_write(const char *path, const char *what, const void *buf,
		     size_t len)
{
	struct fv_file_request q = {.size = sizeof(q),
				    .op = FV_FILE_WRITE,
				    .path = path,
				    .what = what,
				    .buf = buf,
				    .len = len};

	return fv_file(&q, NULL);
}

