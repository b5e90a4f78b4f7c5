/* fv_file's ops, each handed to the reader or writer of its file. */
#include "verity/files/ask.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "verity/container/sidecar.h"
#include "verity/container/super/super.h"
#include "verity/files/files.h"
#include "verity/registry/registry.h"
#include "verity/sign/signature.h"
#include "verity/storage/backing.h"
#include "verity/storage/file.h"
#include "verity/storage/output.h"

_Static_assert((int)FV_SUPERBLOCK_NONE == VERITY_FILES_SB_NONE &&
		       (int)FV_SUPERBLOCK_FOUND == VERITY_FILES_SB_FOUND &&
		       (int)FV_SUPERBLOCK_UNFINISHED ==
			       VERITY_FILES_SB_UNFINISHED &&
		       (int)FV_SUPERBLOCK_UPDATING == VERITY_FILES_SB_UPDATING,
	       "fv_superblock_at and verity_files_sb differ");
_Static_assert((unsigned)FV_SIDECAR_SIGNATURE ==
			       (unsigned)VERITY_SIDECAR_SIGNATURE &&
		       (unsigned)FV_SIDECAR_FEC == (unsigned)VERITY_SIDECAR_FEC,
	       "fv_sidecar_file and the sidecar flags differ");

/* The sidecar names of image, each a copy. */
static int sidecar_names(const char *image, struct fv_file_answer *a,
			 struct ht_error *err)
{
	struct verity_sidecar side;
	int r;

	if ((r = verity_sidecar_names(image, &side, err)))
		return r;
	if (!(a->tree = strdup(side.tree)) ||
	    !(a->roothash = strdup(side.roothash)) ||
	    !(a->signature = strdup(side.signature)) ||
	    !(a->fec = strdup(side.fec)))
		r = ht_fail(err, ENOMEM, "out of memory");
	verity_sidecar_free(&side);
	return r;
}

int verity_files_ask(const struct fv_file_request *q, struct fv_file_answer *a,
		     struct ht_error *err)
{
	int r;

	switch (q->op) {
	case FV_FILE_SIZE:
		return verity_files_size(q->path, &a->bytes, err);
	case FV_FILE_SAME_STORAGE:
		a->same = q->other ? verity_path_same_storage(q->path, q->other)
				   : NULL;
		return 0;
	case FV_FILE_REFUSE_SPARSE:
		return verity_container_refuse_sparse(q->path, err);
	case FV_FILE_SPARSE_CRC:
		return verity_files_sparse_crc(q->path, &a->count, err);
	case FV_FILE_SUPERBLOCK_AT:
		a->at = (enum fv_superblock_at)verity_files_superblock_at(
			q->path, q->offset);
		return 0;
	case FV_FILE_SUPERBLOCK_FIND:
		return verity_files_superblock_find(q->path, q->offset,
						    &a->offset, err);
	case FV_FILE_READ:
		if (!q->what)
			return ht_fail(err, EINVAL, "fv_file: q.what is NULL");
		r = verity_read_file(q->path, q->what, q->max, &a->data,
				     &a->len, err);
		return r == -ENOENT ? -EINVAL : r;
	case FV_FILE_SIGNATURE:
		return verity_read_signature(q->path, &a->data, &a->len, err);
	case FV_FILE_ROOT_HASH:
		if (!q->text)
			return ht_fail(err, EINVAL, "fv_file: q.text is NULL");
		return verity_files_root_read(q->path, q->text, q->text_size,
					      err);
	case FV_FILE_WRITE:
		if (!q->what)
			return ht_fail(err, EINVAL, "fv_file: q.what is NULL");
		if (q->len && !q->buf)
			return ht_fail(err, EINVAL, "fv_file: buf is NULL");
		return verity_write_file(q->path, q->what, q->buf, q->len, err);
	case FV_FILE_SIDECAR_NAMES:
		return sidecar_names(q->path, a, err);
	case FV_FILE_SIDECAR_PRUNE:
		if (q->keep &
		    ~(unsigned)(FV_SIDECAR_SIGNATURE | FV_SIDECAR_FEC))
			return ht_fail(err, EINVAL,
				       "fv_file: unknown sidecar files %#x",
				       q->keep);
		return verity_files_sidecar_prune(
			q->path, !!(q->keep & FV_SIDECAR_SIGNATURE),
			!!(q->keep & FV_SIDECAR_FEC), &a->removed, err);
	case FV_FILE_CONTAINER:
		return verity_container_named(q->path, q->other, &a->container,
					      err);
	case FV_FILE_SUPER_EXTRACT:
		if (!q->what)
			return ht_fail(err, EINVAL, "fv_file: q.what is NULL");
		if (!q->other)
			return ht_fail(err, EINVAL, "fv_file: q.other is NULL");
		return verity_super_extract(q->path, q->offset, q->what,
					    q->other, err);
	default:
		return ht_fail(err, EINVAL, "fv_file: unknown op %d",
			       (int)q->op);
	}
}

int verity_files_answer(const struct fv_file_request *q,
			struct fv_file_answer *out, struct ht_error *err)
{
	struct fv_file_answer a;
	int r;

	memset(&a, 0, sizeof(a));
	if ((r = verity_files_ask(q, &a, err)) < 0 || !out) {
		free(a.data);
		free(a.tree);
		free(a.roothash);
		free(a.signature);
		free(a.fec);
		return r;
	}
	a.size = sizeof(a);
	memcpy(out, &a, sizeof(a));
	return r;
}
