/* The files around images, through the library's fv_file: one helper a
 * question, as the command asks them. */
#ifndef FV_CLI_FILES_H
#define FV_CLI_FILES_H

#include <stddef.h>
#include <stdint.h>

#include "include/fastverity.h"

/* A phrase if a and b share storage ("": one file), else NULL. */
const char *cli_same_storage(const char *a, const char *b);
/* -EINVAL (said by the library) if path is an Android sparse image. */
int cli_is_sparse(const char *path);
/* The library's fv_file op on path alone into *a (zeros first). */
int cli_file(enum fv_file_op op, const char *path, struct fv_file_answer *a);
/* A small file whole, what naming it (*buf: fv_free). */
int cli_input_read(const char *path, const char *what, size_t max,
		   uint8_t **buf, size_t *len);
/* buf written whole to path, what naming it. */
int cli_output_write(const char *path, const char *what, const void *buf,
		     size_t len);

#endif
