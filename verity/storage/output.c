#include "verity/storage/output.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "hashtree/thread.h"
#include "verity/storage/backing.h"

/* The directory part of path, with its slash ("." for none). */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? strndup(path, (size_t)(slash - path + 1)) : strdup(".");
}

/* "dir/.name.XXXXXX" next to final. */
/* "dir/.name.XXXXXX" next to final: random letters, not yet there. */
static char *temp_name(const char *final)
{
	static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN"
				      "OPQRSTUVWXYZ0123456789";
	const char *slash = strrchr(final, '/');
	size_t dlen = slash ? (size_t)(slash - final + 1) : 0;
	uint8_t rnd[6];
	char *t;

	if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd) ||
	    asprintf(&t, "%.*s.%s.XXXXXX", (int)dlen, final,
		     slash ? slash + 1 : final) < 0)
		return NULL;
	for (size_t i = 0; i < sizeof(rnd); i++)
		t[strlen(t) - sizeof(rnd) + i] =
			letters[rnd[i] % (sizeof(letters) - 1)];
	return t;
}

/* What an interrupted run must not leave, for
 * verity_output_remove_temporaries, which a signal handler calls: the
 * named temporary files that exist now (where the file system has no
 * O_TMPFILE, and between the link and the rename of a commit), and the
 * files grown in place that are to be cut back to a size. Fixed slots,
 * each claimed by a compare-and-swap (0 free, 1 claimed, 2 armed), so
 * that the handler, on any thread, only reads what nobody writes. One
 * that finds no free slot is not registered (an interrupted run may then
 * leave it). */
enum { TEMP_SLOTS = 32 };
static struct {
	atomic_int state;
	int fd; /* a file to cut to size; -1: a file to remove, -2: a
		 * directory (removed after the files), -3: one emptied
		 * first */
	uint64_t size;
	char name[PATH_MAX];
} temps[TEMP_SLOTS];

/* A free slot claimed (state 1), or -1. */
static int claim(void)
{
	for (int i = 0; i < TEMP_SLOTS; i++) {
		int free_slot = 0;

		if (atomic_compare_exchange_strong(&temps[i].state, &free_slot,
						   1))
			return i;
	}
	return -1;
}

static void register_name(const char *name, int kind)
{
	size_t n = strlen(name);
	int i = n < PATH_MAX ? claim() : -1;

	if (i < 0)
		return;
	temps[i].fd = kind;
	memcpy(temps[i].name, name, n + 1);
	atomic_store(&temps[i].state, 2);
}

void verity_output_register(const char *name)
{
	register_name(name, -1);
}

void verity_output_register_dir(const char *name)
{
	register_name(name, -2);
}

void verity_output_register_full_dir(const char *name)
{
	register_name(name, -3);
}

void verity_output_register_cut(int fd, uint64_t size)
{
	int i = fd >= 0 && size <= INT64_MAX ? claim() : -1;

	if (i < 0)
		return;
	temps[i].fd = fd;
	temps[i].size = size;
	atomic_store(&temps[i].state, 2);
}

/* The armed slots that match (name, or fd when name is NULL) freed. */
static void forget(const char *name, int fd)
{
	for (int i = 0; i < TEMP_SLOTS; i++) {
		int armed = 2;

		if (atomic_load(&temps[i].state) != 2 ||
		    (name ? temps[i].fd != fd || strcmp(temps[i].name, name)
			  : temps[i].fd != fd))
			continue;
		if (atomic_compare_exchange_strong(&temps[i].state, &armed, 1))
			atomic_store(&temps[i].state, 0);
	}
}

void verity_output_forget(const char *name)
{
	if (name)
		forget(name, -1);
}

void verity_output_forget_dir(const char *name)
{
	if (name)
		forget(name, -2);
}

void verity_output_forget_full_dir(const char *name)
{
	if (name)
		forget(name, -3);
}

void verity_output_forget_cut(int fd)
{
	if (fd >= 0)
		forget(NULL, fd);
}

/* dir's files removed, with system calls alone (async-signal-safe: no
 * opendir, which allocates). */
static void empty_dir(const char *dir)
{
	char buf[4096];
	long n;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	/* (bounded: each round removes what it read) */
	for (int round = 0; fd >= 0 && round < 1024; round++) {
		if ((n = syscall(SYS_getdents64, fd, buf, sizeof(buf))) <= 0)
			break;
		for (long at = 0; at < n;) {
			struct dirent64 *e = (struct dirent64 *)(buf + at);

			if (e->d_reclen == 0)
				break;
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
				(void)unlinkat(fd, e->d_name, 0);
			at += e->d_reclen;
		}
	}
	if (fd >= 0)
		close(fd);
}

void verity_output_remove_temporaries(void)
{
	struct rlimit lim;
	uint64_t least = UINT64_MAX;

	/* the files to cut first made unextendable: a write of another
	 * thread past their size, from now on, fails (EFBIG) instead of
	 * growing one again after its cut (the file's lock orders a write
	 * under way before the cut) */
	for (int i = 0; i < TEMP_SLOTS; i++)
		if (atomic_load(&temps[i].state) == 2 && temps[i].fd >= 0 &&
		    temps[i].size < least)
			least = temps[i].size;
	if (least != UINT64_MAX && getrlimit(RLIMIT_FSIZE, &lim) == 0 &&
	    (lim.rlim_cur == RLIM_INFINITY || lim.rlim_cur > least)) {
		lim.rlim_cur = (rlim_t)least;
		(void)setrlimit(RLIMIT_FSIZE, &lim);
	}
	/* the files, then the directories they were in */
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < TEMP_SLOTS; i++) {
			int armed = 2;

			if ((temps[i].fd <= -2) != pass ||
			    !atomic_compare_exchange_strong(&temps[i].state,
							    &armed, 1))
				continue;
			/* (a failure cannot be said from a signal handler;
			 * an if, as glibc's warn_unused_result ignores a
			 * (void) cast under _FORTIFY_SOURCE) */
			if (temps[i].fd >= 0) {
				if (ftruncate(temps[i].fd,
					      (off_t)temps[i].size)) {
				}
			} else if (temps[i].fd == -1)
				(void)unlink(temps[i].name);
			else if (temps[i].fd == -3)
				empty_dir(temps[i].name);
			if (temps[i].fd <= -2)
				(void)rmdir(temps[i].name);
			atomic_store(&temps[i].state, 0);
		}
}

/* /proc/self/fd/N of fd, into buf. */
static void fd_path(char *buf, size_t len, int fd)
{
	snprintf(buf, len, "/proc/self/fd/%d", fd);
}

/* An unnamed file (O_TMPFILE) in final's directory with mode (less the
 * umask), to be linked under d->tmp by the commit: a run killed before
 * then, by any signal, leaves nothing. 0, -ENOMEM, or 1 where there is
 * none (the file system has no O_TMPFILE, or /proc/self/fd, through
 * which the commit links it, does not show it). */
static int create_anonymous(struct verity_device *d, const char *final,
			    mode_t mode)
{
	struct stat st, via;
	char *dir = dir_of(final), proc[32];
	const char *base;
	int fd;

	if (!dir)
		return -ENOMEM;
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, mode);
	free(dir);
	if (fd < 0)
		return 1;
	fd_path(proc, sizeof(proc), fd);
	if (fstat(fd, &st) < 0 || stat(proc, &via) < 0 ||
	    st.st_dev != via.st_dev || st.st_ino != via.st_ino) {
		close(fd);
		return 1;
	}
	free(d->tmp);
	if (!(d->tmp = temp_name(final))) {
		close(fd);
		return -ENOMEM;
	}
	/* a name the commit could not link (too long): the named file's
	 * creation says so now, as it always did */
	base = strrchr(d->tmp, '/');
	if (strlen(d->tmp) >= PATH_MAX ||
	    strlen(base ? base + 1 : d->tmp) > NAME_MAX) {
		close(fd);
		return 1;
	}
	d->fd = fd;
	d->anonymous = 1;
	return 0;
}

/* A new temporary file for final with mode (less the umask, which the
 * kernel applies: nothing process-wide changes, so threads may run
 * this at once): an unnamed one where the file system makes them, else
 * a named one, registered for verity_output_remove_temporaries. */
static int create_temp(struct verity_device *d, const char *final, mode_t mode)
{
	int r = create_anonymous(d, final, mode);

	if (r <= 0)
		return r;
	for (int tries = 0; tries < 16; tries++) {
		free(d->tmp);
		d->tmp = temp_name(final);
		if (!d->tmp)
			return -ENOMEM;
		/* registered before it exists, so that no signal finds
		 * it made and not known (a name not made is forgotten) */
		verity_output_register(d->tmp);
		d->fd = open(d->tmp,
			     O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			     mode);
		if (d->fd >= 0)
			return 0;
		r = -errno;
		verity_output_forget(d->tmp);
		if (r != -EEXIST)
			return r;
	}
	return -EEXIST;
}

/* A temporary file for final: an existing file's mode and owner, or
 * new_mode less the umask. */
static int open_temp(struct verity_device *d, const char *path,
		     const char *what, const char *final,
		     const struct stat *old, mode_t new_mode,
		     struct ht_error *err)
{
	int r;

	d->final = strdup(final);
	if (!d->final)
		return ht_fail(err, ENOMEM, "out of memory");
	/* a new file: new_mode less the umask; a replaced one: 0600 until
	 * it gets the old one's mode and owner */
	r = create_temp(d, final, old ? 0600 : new_mode);
	if (r) {
		free(d->tmp);
		d->tmp = NULL;
		return ht_fail(err, r == -ENOMEM ? ENOMEM : EINVAL,
			       "%s: cannot create %s: %s", path, what,
			       strerror(-r));
	}
	if (old &&
	    (fchmod(d->fd, old->st_mode & 07777) < 0 ||
	     (geteuid() == 0 && fchown(d->fd, old->st_uid, old->st_gid) < 0))) {
		int e = errno;

		return ht_fail(err, e,
			       "%s: cannot give the new file the old one's "
			       "mode and owner: %s",
			       path, strerror(e));
	}
	return 0;
}

/* The kernel's fs.protected_symlinks rule, applied whatever the sysctl
 * says: a symlink in a sticky world-writable directory (/tmp) is followed
 * only by its owner, or when the directory's owner owns it too. Another
 * user's link there is a trap, whose target would be replaced. */
static int planted_symlink(const char *path, struct ht_error *err)
{
	struct stat link, dir;
	char *d;
	int r;

	if (lstat(path, &link) != 0 || !S_ISLNK(link.st_mode))
		return 0;
	d = dir_of(path);
	if (!d)
		return ht_fail(err, ENOMEM, "out of memory");
	r = stat(d, &dir);
	free(d);
	if (r == 0 && (dir.st_mode & S_ISVTX) && (dir.st_mode & S_IWOTH) &&
	    link.st_uid != dir.st_uid && link.st_uid != geteuid())
		return ht_fail(err, EACCES,
			       "%s: a symlink in a sticky world-writable "
			       "directory, owned by another user: not followed "
			       "(as the kernel's fs.protected_symlinks would "
			       "not)",
			       path);
	return 0;
}

/* lstat-safe stat of an output: 0 and *st when it exists, 1 when it does
 * not (nothing, or a dangling symlink, which is replaced itself), or an
 * error: an output that cannot be looked at is never written blind. */
static int output_stat(const char *path, struct stat *st, struct ht_error *err)
{
	int r = planted_symlink(path, err);

	if (r)
		return r;
	if (stat(path, st) == 0)
		return 0;
	/* names that cannot exist: creating them says why */
	if (errno == ENOENT || errno == ENAMETOOLONG || errno == ENOTDIR)
		return 1;
	return ht_fail(err, errno == EACCES ? EACCES : EINVAL,
		       "%s: cannot look at the existing file: %s", path,
		       strerror(errno));
}

int verity_device_open_output(struct verity_device *d, const char *path,
			      const char *what, mode_t new_mode,
			      struct ht_error *err)
{
	struct stat st, real_st;
	char *real = NULL;
	int r = output_stat(path, &st, err);

	if (r < 0)
		return r;
	/* (a directory named as what, not as the hash image that
	 * verity_device_open's message names) */
	if (r == 0 && S_ISDIR(st.st_mode)) {
		memset(d, 0, sizeof(*d));
		d->fd = -1;
		return ht_fail(err, ENOTBLK, "%s: cannot create %s: %s", path,
			       what, strerror(EISDIR));
	}
	if (r == 0 && !S_ISREG(st.st_mode))
		return verity_device_open(d, path, VERITY_OPEN_CREATE, err);
	memset(d, 0, sizeof(*d));
	d->fd = -1;
	d->path = path;
	if (r == 0) {
		/* an existing file, through the symlinks the kernel
		 * followed: replaced where it is, with its mode and owner */
		real = realpath(path, NULL);
		if (!real || stat(real, &real_st) != 0 ||
		    real_st.st_dev != st.st_dev || real_st.st_ino != st.st_ino)
			r = ht_fail(err, EINVAL,
				    "%s: changed while it was looked at", path);
		else
			r = open_temp(d, path, what, real, &st, new_mode, err);
		free(real);
	} else {
		r = open_temp(d, path, what, path, NULL, new_mode, err);
	}
	if (!r && fstat(d->fd, &st) < 0)
		r = ht_fail(err, errno, "%s: cannot stat: %s", path,
			    strerror(errno));
	if (r) {
		verity_device_close(d);
		return r;
	}
	d->dev = st.st_dev;
	d->ino = st.st_ino;
	d->backing.is_file = 1;
	d->backing.dev = st.st_dev;
	d->backing.ino = st.st_ino;
	return 0;
}

/* fsync of directory dir, so that a rename in it is durable. */
static int sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), r = 0;

	if (fd < 0 || (fsync(fd) < 0 && errno != EINVAL))
		r = -errno;
	if (fd >= 0)
		close(fd);
	return r;
}

/* The temporary file renamed over the final path; *dir: its directory,
 * to sync (NULL when opened in place). An unnamed one is first linked
 * under its temporary name (another random one if that is taken), which
 * is registered until the rename. */
static int rename_over(struct verity_device *d, char **dir,
		       struct ht_error *err)
{
	char proc[32];

	*dir = NULL;
	if (!d->tmp)
		return 0;
	for (int tries = 0; d->anonymous; tries++) {
		fd_path(proc, sizeof(proc), d->fd);
		verity_output_register(d->tmp); /* before the name exists */
		if (linkat(AT_FDCWD, proc, AT_FDCWD, d->tmp,
			   AT_SYMLINK_FOLLOW) == 0) {
			d->anonymous = 0;
			break;
		}
		verity_output_forget(d->tmp);
		if (errno != EEXIST || tries >= 16)
			return ht_fail(err, EIO, "%s: cannot name the new file: "
						 "%s",
				       d->path, strerror(errno));
		free(d->tmp);
		if (!(d->tmp = temp_name(d->final)))
			return ht_fail(err, ENOMEM, "out of memory");
	}
	if (rename(d->tmp, d->final) < 0)
		return ht_fail(err, EIO, "%s: cannot replace: %s", d->path,
			       strerror(errno));
	verity_output_forget(d->tmp);
	free(d->tmp);
	d->tmp = NULL;
	*dir = dir_of(d->final);
	if (!*dir)
		return ht_fail(err, ENOMEM, "out of memory");
	return 0;
}

const char *verity_device_output_path(struct verity_device *d)
{
	if (!d->anonymous)
		return d->tmp;
	fd_path(d->reopen, sizeof(d->reopen), d->fd);
	return d->reopen;
}

static int sync_dir_of(const struct verity_device *d, const char *dir,
		       struct ht_error *err)
{
	int r = dir ? sync_dir(dir) : 0;

	if (r)
		return ht_fail(err, EIO, "%s: cannot flush its directory: %s",
			       d->path, strerror(-r));
	return 0;
}

/* Bytes [at, end) of old copied into the temporary file:
 * copy_file_range (shares extents where the file system can), else
 * reads and writes. */
static int copy_range(const struct verity_device *d, int old, uint64_t at,
		      uint64_t end, struct ht_error *err)
{
	static const size_t chunk = 1 << 20;
	char *buf = NULL;
	int plain = 0, r = 0;

	while (at < end && !r) {
		size_t want = end - at < chunk ? (size_t)(end - at) : chunk;
		loff_t in = (loff_t)at, out = (loff_t)at;
		ssize_t n = -1;

		if (!plain) {
			n = copy_file_range(old, &in, d->fd, &out, want, 0);
			if (n < 0 && (errno == EXDEV || errno == ENOSYS ||
				      errno == EINVAL || errno == EOPNOTSUPP))
				plain = 1;
		}
		if (plain) {
			if (!buf && !(buf = malloc(chunk))) {
				r = ht_fail(err, ENOMEM, "out of memory");
				break;
			}
			n = pread(old, buf, want, (off_t)at);
			if (n > 0 && pwrite(d->fd, buf, (size_t)n, (off_t)at) != n)
				n = -1;
		}
		if (n < 0)
			r = ht_fail(err, EIO,
				    "%s: cannot keep the old file's bytes past "
				    "byte %llu: %s",
				    d->path, (unsigned long long)at,
				    strerror(errno));
		else if (n == 0)
			break; /* the old file shrank meanwhile */
		else
			at += (uint64_t)n;
	}
	free(buf);
	return r;
}

/* The bytes of the file d replaces from byte from (at least the
 * temporary file's end) to its end, copied into the temporary file;
 * *end: where they end (the old file's size, or the temporary file's
 * when that is larger). A file gone meanwhile leaves nothing to keep. */
static int copy_old(const struct verity_device *d, uint64_t from,
		    uint64_t *end, struct ht_error *err)
{
	struct stat old, now;
	int fd, r = 0;

	fd = open(d->final, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return 0; /* gone meanwhile: nothing to keep */
	if (fstat(fd, &old) < 0 || fstat(d->fd, &now) < 0) {
		r = ht_fail(err, EIO, "%s: cannot stat: %s", d->path,
			    strerror(errno));
	} else {
		if (from < (uint64_t)now.st_size)
			from = (uint64_t)now.st_size;
		*end = (uint64_t)now.st_size;
		if (S_ISREG(old.st_mode) && (uint64_t)old.st_size > from) {
			r = copy_range(d, fd, from, (uint64_t)old.st_size,
				       err);
			*end = (uint64_t)old.st_size;
		}
	}
	close(fd);
	return r;
}

int verity_device_commit(struct verity_device *d, struct ht_error *err)
{
	char *dir = NULL;
	int r = verity_device_flush(d, err);

	if (!r)
		r = rename_over(d, &dir, err);
	if (!r)
		r = sync_dir_of(d, dir, err);
	free(dir);
	return r;
}

struct flush_job {
	const struct verity_device *d;
	struct ht_error err;
	int r;
};

static void *flush_main(void *arg)
{
	struct flush_job *j = arg;

	j->r = verity_device_flush(j->d, &j->err);
	return NULL;
}

int verity_device_commit_pair(struct verity_device *a, struct verity_device *b,
			      struct ht_error *err)
{
	struct flush_job ja = {.d = a};
	char *da = NULL, *db = NULL;
	pthread_t t;
	int threaded = ht_thread_create(&t, flush_main, &ja) == 0;
	int r;

	/* both flushed at once: the file system may share the work */
	if (!threaded)
		flush_main(&ja);
	r = verity_device_flush(b, err);
	if (threaded)
		ht_thread_join(t, NULL);
	if (ja.r) {
		ht_handover(err, &ja.err);
		return ja.r;
	}
	if (!r)
		r = rename_over(a, &da, err);
	/* a's rename durable before b's, unless both are in one directory:
	 * then b's directory sync makes both durable (renames in one
	 * directory reach the disk in order) */
	if (!r && da) {
		db = b->tmp ? dir_of(b->final) : NULL;
		if (!db || strcmp(da, db) != 0)
			r = sync_dir_of(a, da, err);
		free(db);
		db = NULL;
	}
	if (!r)
		r = rename_over(b, &db, err);
	if (!r)
		r = sync_dir_of(b, db, err);
	free(da);
	free(db);
	return r;
}

int verity_write_file(const char *path, const char *what, const void *buf,
		      size_t len, struct ht_error *err)
{
	/* a new small file is readable by all */
	return verity_write_file_mode(path, what, buf, len, 0644, err);
}

int verity_write_file_mode(const char *path, const char *what,
			   const void *buf, size_t len, unsigned mode,
			   struct ht_error *err)
{
	struct verity_device d;
	struct stat st;
	int r;

	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return ht_fail(err, EINVAL, "%s: %s, not a regular file", path,
			       verity_file_kind(st.st_mode));
	r = verity_device_open_output(&d, path, what, (mode_t)mode, err);
	if (r)
		return r;
	r = verity_device_write(&d, 0, buf, len, err);
	if (!r)
		r = verity_device_commit(&d, err);
	verity_device_close(&d);
	return r;
}

/* (verity_device_open_format_output) An output is written in place when
 * it is a block device, the data file itself (one-file layout) or an existing file written from an
 * offset (its bytes before the offset stay); otherwise as a temporary
 * file renamed over it at the end. */
static int output_in_place(const char *path, const struct stat *st,
			   const char *data_path, uint64_t offset)
{
	/* the data's own storage, under any name (a loop device of the
	 * file): written in place, where the overlap check sees it */
	/* (a directory is no output: verity_device_open_output names it
	 * as what was to be written there) */
	return (!S_ISREG(st->st_mode) && !S_ISDIR(st->st_mode)) ||
	       verity_path_same_storage(path, data_path) ||
	       (offset && st->st_size > 0);
}

int verity_device_open_format_output(struct verity_device *d,
				     const struct verity_region *r,
				     const char *what, const char *data_path,
				     uint64_t offset, uint64_t keep_from,
				     struct ht_error *err)
{
	struct stat st;
	int ret = output_stat(r->path, &st, err), exists;

	if (ret < 0)
		return ret;
	/* a region of an image is written where it is */
	if (r->offset || r->length ||
	    (ret == 0 && output_in_place(r->path, &st, data_path, offset)))
		return verity_device_open_region(d, r, VERITY_OPEN_CREATE, err);
	exists = ret == 0;
	ret = verity_device_open_output(d, r->path, what, 0600, err);
	/* an existing file replaced whole, not shrunk: its bytes from
	 * keep_from on are there from the start (the parity over a hash
	 * image covers them, as veritysetup's, which writes in place) */
	if (!ret && exists && d->tmp && keep_from != UINT64_MAX &&
	    (ret = copy_old(d, keep_from, &d->size, err)))
		verity_device_close(d);
	return ret;
}
