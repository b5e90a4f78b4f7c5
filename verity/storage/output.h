/* Outputs: a file written whole appears under its name only when it is
 * complete (a temporary file beside it, flushed, renamed over it), never
 * through another user's symlink, never over an input under another
 * name; a block device or an existing image written at an offset is
 * written in place. */
#ifndef FV_STORAGE_OUTPUT_H
#define FV_STORAGE_OUTPUT_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stddef.h>
#include <sys/types.h>

#include "verity/storage/device.h"

/* An output file written whole: a new file, or a regular file replaced,
 * is written as a temporary file in the same directory (the mode and
 * owner of the file it replaces, or new_mode) and renamed over path by
 * verity_device_commit(), so that an interrupted run leaves the old file
 * as it was. The temporary file is an unnamed one (O_TMPFILE) until the
 * commit links it under its temporary name (d->tmp) and renames it: a
 * run killed meanwhile, by any signal, leaves nothing. Where the file
 * system has no O_TMPFILE it is a named one, .NAME.XXXXXX, which
 * verity_output_remove_temporaries removes. Paths that are block devices
 * are opened in place. Refuses another user's symlink in a sticky
 * world-writable directory, and an existing output that cannot be looked
 * at. */
int verity_device_open_output(struct verity_device *d, const char *path,
			      const char *what, mode_t new_mode,
			      struct ht_error *err);
/* format's outputs, a region of their file: in place when the file is a
 * block device, the data's own storage under any name (one-file layout,
 * or the file behind a loop device of the data), or an existing file
 * written from an offset (its bytes before the offset stay); otherwise
 * whole, through verity_device_open_output (new: 0600). An existing file
 * replaced whole keeps its bytes from keep_from to its end: they are
 * copied into the new one now (d->size: where they end); UINT64_MAX:
 * none (a parity file is its parity's size, which says its roots). */
int verity_device_open_format_output(struct verity_device *d,
				     const struct verity_region *r,
				     const char *what, const char *data_path,
				     uint64_t offset, uint64_t keep_from,
				     struct ht_error *err);
/* Where an output not yet committed can be opened again (a second
 * descriptor of it): its temporary file's name, or /proc/self/fd/N of
 * an unnamed one (kept in d, while d's descriptor is open). */
const char *verity_device_output_path(struct verity_device *d);
/* Removes the named temporary files of the outputs being written (none
 * where they are unnamed, but for the instant between a commit's link
 * and its rename) and cuts the files registered by
 * verity_output_register_cut back, after lowering the file size limit
 * (RLIMIT_FSIZE) to the smallest of their sizes so that no other thread
 * grows one again (the caller ignores SIGXFSZ first): async-signal-safe,
 * for a signal handler that then ends the process (the outputs' commits
 * would fail). */
void verity_output_remove_temporaries(void);
/* A named temporary file, made: to be removed by
 * verity_output_remove_temporaries until forgotten. */
void verity_output_register(const char *name);
/* A private directory of temporary files (a signing helper's), removed
 * after the registered files, when it is empty then; forgotten by
 * verity_output_forget_dir. */
void verity_output_register_dir(const char *name);
void verity_output_forget_dir(const char *name);
/* The same for a private directory of files a run writes whole (ota
 * verify's images): emptied, then removed. */
void verity_output_register_full_dir(const char *name);
void verity_output_forget_full_dir(const char *name);
/* A file grown in place (fd, open meanwhile) that an interrupted run
 * must leave cut back to size bytes (an Android image's data, before
 * its first footer), until verity_output_forget_cut(fd). */
void verity_output_register_cut(int fd, uint64_t size);
void verity_output_forget_cut(int fd);
/* A temporary file's name no longer to be removed (renamed or removed
 * already). */
void verity_output_forget(const char *name);
/* Makes an output durable and visible under its name: fsync, rename over
 * the old file, fsync of the directory. A no-op for devices opened in
 * place (beyond fsync). */
int verity_device_commit(struct verity_device *d, struct ht_error *err);
/* Commits two outputs: both flushed at once, then a renamed, then b, so
 * that b never shows under its name before a does. */
int verity_device_commit_pair(struct verity_device *a, struct verity_device *b,
			      struct ht_error *err);
/* Writes a small file whole (temporary file, fsync, rename): the root
 * hash, a signature. A new file gets mode 0644 less the umask. */
int verity_write_file(const char *path, const char *what, const void *buf,
		      size_t len, struct ht_error *err);
/* The same, a new file getting mode (less the umask): 0600 for a
 * secret. */
int verity_write_file_mode(const char *path, const char *what, const void *buf,
			   size_t len, unsigned mode, struct ht_error *err);

#endif
