/* fv_file's one op on the files around images (include/fastverity.h,
 * "Files around images"): the request read and handed to the file's
 * reader or writer. */
#ifndef FV_FILES_ASK_H
#define FV_FILES_ASK_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include "hashtree/error.h"
#include "include/fastverity.h"

/* Op q->op of q (taken: its size checked, q->path given) into a (zeroed
 * by the caller): 0 (FV_FILE_SPARSE_CRC: its count), or -errno with
 * err's message; what a holds is the caller's to free, also on
 * failure. */
int verity_files_ask(const struct fv_file_request *q, struct fv_file_answer *a,
		     struct ht_error *err);

/* fv_file's: q asked (as verity_files_ask), the answer into out (its
 * size checked by the caller; NULL: what it would hold freed), or
 * nothing kept on failure. */
int verity_files_answer(const struct fv_file_request *q,
			struct fv_file_answer *out, struct ht_error *err);

#endif
