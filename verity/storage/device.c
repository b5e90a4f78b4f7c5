#include "verity/storage/device.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <linux/fs.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static void resolve_backing(struct verity_backing *b, dev_t rdev);
static char *dir_of(const char *path);

/* S_IFMT names for messages. */
static const char *file_kind(mode_t m)
{
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISSOCK(m))
		return "a socket";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISBLK(m))
		return "a block device";
	return "not a regular file";
}

static int parent_disk(dev_t rdev, dev_t *out);

/* 1 when part is a partition of disk. */
static int parent_is(dev_t part, dev_t disk)
{
	dev_t parent;

	return part != disk && parent_disk(part, &parent) == 0 &&
	       parent == disk;
}

/* Who holds block device rdev, for a message: " (mounted on /mnt)",
 * " (held by dm-3, root)", or "" when sysfs and mountinfo do not say. A
 * whole disk is also held through its partitions. */
static void holder_of(dev_t rdev, char *out, size_t len)
{
	char dir[96], path[PATH_MAX], line[PATH_MAX + 256], name[128];
	unsigned maj, min;
	FILE *f = fopen("/proc/self/mountinfo", "re");
	struct dirent *e;
	DIR *dh;

	out[0] = '\0';
	while (f && fgets(line, sizeof(line), f)) {
		char mnt[PATH_MAX];

		if (sscanf(line, "%*s %*s %u:%u %*s %4095s", &maj, &min, mnt) ==
			    3 &&
		    (makedev(maj, min) == rdev ||
		     parent_is(makedev(maj, min), rdev))) {
			snprintf(out, len, " (%s mounted on %s)",
				 makedev(maj, min) == rdev ? "it is"
							   : "a partition is",
				 mnt);
			break;
		}
	}
	if (f)
		fclose(f);
	if (out[0])
		return;
	snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u/holders", major(rdev),
		 minor(rdev));
	dh = opendir(dir);
	while (dh && (e = readdir(dh)) != NULL) {
		FILE *nf;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/block/%s/dm/name",
			 e->d_name);
		name[0] = '\0';
		if ((nf = fopen(path, "re")) != NULL) {
			if (!fgets(name, sizeof(name), nf))
				name[0] = '\0';
			fclose(nf);
			name[strcspn(name, "\n")] = '\0';
		}
		snprintf(out, len, " (held by %s%s%s)", e->d_name,
			 name[0] ? ", " : "", name);
		break;
	}
	if (dh)
		closedir(dh);
}

/* An exclusive descriptor of the block device fd is open on: a mounted
 * file system, a device-mapper target or another exclusive user makes it
 * -EBUSY, naming the holder. */
static int open_exclusive(struct verity_device *d, int flags,
			  struct fv_error *err)
{
	struct stat st;
	char holder[PATH_MAX + 64];
	int fd = open(d->path,
		      (flags & ~O_CREAT) | O_EXCL | O_NOCTTY | O_CLOEXEC);

	if (fd < 0 && errno == EBUSY) {
		holder_of(d->rdev, holder, sizeof(holder));
		return fv_fail(err, EBUSY,
			       "%s: the device is in use%s: not writing to it",
			       d->path,
			       holder[0] ? holder
					 : " (opened exclusively by another "
					   "program)");
	}
	if (fd < 0)
		return fv_fail(err, errno, "%s: cannot open: %s", d->path,
			       strerror(errno));
	/* the same device as the one checked, not one renamed meanwhile */
	if (fstat(fd, &st) < 0 || !S_ISBLK(st.st_mode) ||
	    st.st_rdev != d->rdev) {
		close(fd);
		return fv_fail(err, EBUSY, "%s: changed while it was opened",
			       d->path);
	}
	close(d->fd);
	d->fd = fd;
	d->exclusive = 1;
	return 0;
}

int verity_device_open(struct verity_device *d, const char *path,
		       enum verity_open_mode mode, struct fv_error *err)
{
	int flags = mode == VERITY_OPEN_READ ? O_RDONLY : O_RDWR;
	struct stat st;

	memset(d, 0, sizeof(*d));
	d->fd = -1;
	d->path = path;
	if (mode == VERITY_OPEN_CREATE)
		flags |= O_CREAT;
	/* O_NONBLOCK: a FIFO is refused below instead of waited on */
	d->fd = open(path, flags | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0600);
	if (d->fd < 0) {
		int e = errno;

		/* veritysetup: a hash image that cannot be created is a
		 * parameter error (1), a directory an incompatible device
		 * (4); a device that is not there, 4 */
		if (mode == VERITY_OPEN_CREATE)
			return fv_fail(err, e == EISDIR ? ENOTBLK : EINVAL,
				       "%s: cannot create the hash image: %s",
				       path, strerror(e));
		if (e == ENOENT || e == EACCES || e == EPERM || e == ENOTDIR ||
		    e == ENXIO || e == ENODEV)
			return fv_fail(
				err, ENODEV,
				"%s: does not exist or access denied (%s)",
				path, strerror(e));
		return fv_fail(err, e, "%s: cannot open: %s", path,
			       strerror(e));
	}
	if (fstat(d->fd, &st) < 0) {
		int e = errno;

		verity_device_close(d);
		return fv_fail(err, e, "%s: cannot stat: %s", path,
			       strerror(e));
	}
	d->dev = st.st_dev;
	d->ino = st.st_ino;
	if (S_ISBLK(st.st_mode)) {
		uint64_t size;

		if (ioctl(d->fd, BLKGETSIZE64, &size) < 0) {
			int e = errno;

			verity_device_close(d);
			return fv_fail(err, e, "%s: cannot get device size: %s",
				       path, strerror(e));
		}
		d->is_block = 1;
		d->rdev = st.st_rdev;
		d->size = size;
		resolve_backing(&d->backing, st.st_rdev);
		/* a device written to is held exclusively: never under a
		 * mounted file system or a mapped target */
		if (mode != VERITY_OPEN_READ) {
			int r = open_exclusive(d, flags, err);

			if (r) {
				verity_device_close(d);
				return r;
			}
		}
	} else if (S_ISREG(st.st_mode)) {
		d->size = (uint64_t)st.st_size;
		d->backing.is_file = 1;
		d->backing.dev = st.st_dev;
		d->backing.ino = st.st_ino;
	} else {
		/* a directory or a character device: veritysetup's
		 * incompatible device (exit 4); a FIFO or socket, which it
		 * would wait on, a parameter error */
		int e = S_ISDIR(st.st_mode) || S_ISCHR(st.st_mode) ? ENOTBLK
								   : EINVAL;

		verity_device_close(d);
		return fv_fail(err, e,
			       "%s: %s, not a regular file or block device",
			       path, file_kind(st.st_mode));
	}
	if (fcntl(d->fd, F_SETFL, fcntl(d->fd, F_GETFL) & ~O_NONBLOCK) < 0) {
		int e = errno;

		verity_device_close(d);
		return fv_fail(err, e, "%s: %s", path, strerror(e));
	}
	return 0;
}

int verity_device_open_beside(struct verity_device *d, const char *path,
			      enum verity_open_mode mode,
			      const struct verity_device *held,
			      struct fv_error *err)
{
	struct stat st;

	if (!held || held->fd < 0 || !held->exclusive ||
	    mode == VERITY_OPEN_READ || stat(path, &st) != 0 ||
	    !S_ISBLK(st.st_mode) || st.st_rdev != held->rdev)
		return verity_device_open(d, path, mode, err);
	*d = *held;
	d->path = path;
	d->tmp = d->final = NULL;
	d->fd = fcntl(held->fd, F_DUPFD_CLOEXEC, 0);
	if (d->fd < 0)
		return fv_fail(err, errno, "%s: %s", path, strerror(errno));
	return 0;
}

void verity_device_close(struct verity_device *d)
{
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
	if (d->tmp)
		unlink(d->tmp); /* never committed */
	free(d->tmp);
	free(d->final);
	d->tmp = NULL;
	d->final = NULL;
}

int verity_path_same(const char *a, const char *b)
{
	struct stat x, y;

	if (stat(a, &x) != 0 || stat(b, &y) != 0)
		return 0;
	if (S_ISBLK(x.st_mode) || S_ISBLK(y.st_mode))
		return S_ISBLK(x.st_mode) && S_ISBLK(y.st_mode) &&
		       x.st_rdev == y.st_rdev;
	return x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

/* The storage behind an existing path: its file, or (a block device)
 * the file or whole disk behind loop devices and partitions. */
static int path_backing(const char *path, struct verity_backing *b)
{
	struct stat st;

	memset(b, 0, sizeof(*b));
	if (stat(path, &st) != 0)
		return -1;
	if (S_ISBLK(st.st_mode)) {
		resolve_backing(b, st.st_rdev);
	} else {
		b->is_file = 1;
		b->dev = st.st_dev;
		b->ino = st.st_ino;
	}
	return 0;
}

const char *verity_path_same_storage(const char *a, const char *b)
{
	struct verity_backing x, y;

	if (path_backing(a, &x) || path_backing(b, &y) ||
	    x.is_file != y.is_file ||
	    (x.is_file ? x.dev != y.dev || x.ino != y.ino : x.disk != y.disk))
		return NULL;
	if (x.via[0] || y.via[0])
		return x.is_file ? " (a loop device of the same file)"
				 : " (a partition of the same disk)";
	return "";
}

/* "dir/.name.XXXXXX" next to final. */
static char *temp_name(const char *final)
{
	const char *slash = strrchr(final, '/');
	size_t dlen = slash ? (size_t)(slash - final + 1) : 0;
	char *t;

	if (asprintf(&t, "%.*s.%s.XXXXXX", (int)dlen, final,
		     slash ? slash + 1 : final) < 0)
		return NULL;
	return t;
}

/* A temporary file for final: an existing file's mode and owner, or
 * new_mode less the umask. */
static int open_temp(struct verity_device *d, const char *path,
		     const char *what, const char *final,
		     const struct stat *old, mode_t new_mode,
		     struct fv_error *err)
{
	d->final = strdup(final);
	d->tmp = temp_name(final);
	if (!d->final || !d->tmp)
		return fv_fail(err, ENOMEM, "out of memory");
	d->fd = mkostemp(d->tmp, O_CLOEXEC);
	if (d->fd < 0) {
		int e = errno;

		free(d->tmp);
		d->tmp = NULL;
		return fv_fail(err, EINVAL, "%s: cannot create %s: %s", path,
			       what, strerror(e));
	}
	if (old) {
		if (fchmod(d->fd, old->st_mode & 07777) < 0 ||
		    (geteuid() == 0 &&
		     fchown(d->fd, old->st_uid, old->st_gid) < 0)) {
			int e = errno;

			return fv_fail(err, e,
				       "%s: cannot give the new file the old "
				       "one's mode and owner: %s",
				       path, strerror(e));
		}
	} else {
		mode_t mask = umask(0);

		umask(mask);
		if (fchmod(d->fd, new_mode & ~mask) < 0) {
			int e = errno;

			return fv_fail(err, e, "%s: %s", path, strerror(e));
		}
	}
	return 0;
}

/* The kernel's fs.protected_symlinks rule, applied whatever the sysctl
 * says: a symlink in a sticky world-writable directory (/tmp) is followed
 * only by its owner, or when the directory's owner owns it too. Another
 * user's link there is a trap, whose target would be replaced. */
static int planted_symlink(const char *path, struct fv_error *err)
{
	struct stat link, dir;
	char *d;
	int r;

	if (lstat(path, &link) != 0 || !S_ISLNK(link.st_mode))
		return 0;
	d = dir_of(path);
	if (!d)
		return fv_fail(err, ENOMEM, "out of memory");
	r = stat(d, &dir);
	free(d);
	if (r == 0 && (dir.st_mode & S_ISVTX) && (dir.st_mode & S_IWOTH) &&
	    link.st_uid != dir.st_uid && link.st_uid != geteuid())
		return fv_fail(err, EACCES,
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
static int output_stat(const char *path, struct stat *st, struct fv_error *err)
{
	int r = planted_symlink(path, err);

	if (r)
		return r;
	if (stat(path, st) == 0)
		return 0;
	/* names that cannot exist: creating them says why */
	if (errno == ENOENT || errno == ENAMETOOLONG || errno == ENOTDIR)
		return 1;
	return fv_fail(err, errno == EACCES ? EACCES : EINVAL,
		       "%s: cannot look at the existing file: %s", path,
		       strerror(errno));
}

int verity_device_open_output(struct verity_device *d, const char *path,
			      const char *what, mode_t new_mode,
			      struct fv_error *err)
{
	struct stat st, real_st;
	char *real = NULL;
	int r = output_stat(path, &st, err);

	if (r < 0)
		return r;
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
			r = fv_fail(err, EINVAL,
				    "%s: changed while it was looked at", path);
		else
			r = open_temp(d, path, what, real, &st, new_mode, err);
		free(real);
	} else {
		r = open_temp(d, path, what, path, NULL, new_mode, err);
	}
	if (!r && fstat(d->fd, &st) < 0)
		r = fv_fail(err, errno, "%s: cannot stat: %s", path,
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

/* The directory part of path, with its slash ("." for none). */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? strndup(path, (size_t)(slash - path + 1)) : strdup(".");
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

static int flush(const struct verity_device *d, struct fv_error *err)
{
	if (fsync(d->fd) < 0 && errno != EINVAL)
		return fv_fail(err, EIO, "%s: cannot flush: %s", d->path,
			       strerror(errno));
	return 0;
}

/* The temporary file renamed over the final path; *dir: its directory,
 * to sync (NULL when opened in place). */
static int rename_over(struct verity_device *d, char **dir,
		       struct fv_error *err)
{
	*dir = NULL;
	if (!d->tmp)
		return 0;
	if (rename(d->tmp, d->final) < 0)
		return fv_fail(err, EIO, "%s: cannot replace: %s", d->path,
			       strerror(errno));
	free(d->tmp);
	d->tmp = NULL;
	*dir = dir_of(d->final);
	if (!*dir)
		return fv_fail(err, ENOMEM, "out of memory");
	return 0;
}

static int sync_dir_of(const struct verity_device *d, const char *dir,
		       struct fv_error *err)
{
	int r = dir ? sync_dir(dir) : 0;

	if (r)
		return fv_fail(err, EIO, "%s: cannot flush its directory: %s",
			       d->path, strerror(-r));
	return 0;
}

int verity_device_commit(struct verity_device *d, struct fv_error *err)
{
	char *dir = NULL;
	int r = flush(d, err);

	if (!r)
		r = rename_over(d, &dir, err);
	if (!r)
		r = sync_dir_of(d, dir, err);
	free(dir);
	return r;
}

struct flush_job {
	const struct verity_device *d;
	struct fv_error err;
	int r;
};

static void *flush_main(void *arg)
{
	struct flush_job *j = arg;

	j->r = flush(j->d, &j->err);
	return NULL;
}

int verity_device_commit_pair(struct verity_device *a, struct verity_device *b,
			      struct fv_error *err)
{
	struct flush_job ja = {.d = a};
	char *da = NULL, *db = NULL;
	pthread_t t;
	int threaded = pthread_create(&t, NULL, flush_main, &ja) == 0;
	int r;

	/* both flushed at once: the file system may share the work */
	if (!threaded)
		flush_main(&ja);
	r = flush(b, err);
	if (threaded)
		pthread_join(t, NULL);
	if (ja.r) {
		*err = ja.err;
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
		      size_t len, struct fv_error *err)
{
	struct verity_device d;
	struct stat st;
	int r;

	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return fv_fail(err, EINVAL, "%s: %s, not a regular file", path,
			       file_kind(st.st_mode));
	/* a new small file is readable by all */
	r = verity_device_open_output(&d, path, what, 0644, err);
	if (r)
		return r;
	r = verity_device_write(&d, 0, buf, len, err);
	if (!r)
		r = verity_device_commit(&d, err);
	verity_device_close(&d);
	return r;
}

/* One line of a sysfs file under /sys/dev/block/MAJ:MIN/. */
static int sysfs_read(dev_t rdev, const char *name, char *out, size_t len)
{
	char path[96];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/%s", major(rdev),
		 minor(rdev), name);
	f = fopen(path, "re");
	if (!f)
		return -1;
	ok = fgets(out, (int)len, f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	out[strcspn(out, "\n")] = '\0';
	return 0;
}

/* The whole disk a partition belongs to: the parent directory's "dev". */
static int parent_disk(dev_t rdev, dev_t *out)
{
	char link[96], *real, *slash, dev[PATH_MAX + 8];
	unsigned maj, min;
	FILE *f;
	int ok = 0;

	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(rdev),
		 minor(rdev));
	real = realpath(link, NULL);
	if (!real)
		return -1;
	slash = strrchr(real, '/');
	if (slash) {
		*slash = '\0';
		snprintf(dev, sizeof(dev), "%s/dev", real);
		f = fopen(dev, "re");
		if (f) {
			ok = fscanf(f, "%u:%u", &maj, &min) == 2;
			fclose(f);
		}
	}
	free(real);
	if (!ok)
		return -1;
	*out = makedev(maj, min);
	return 0;
}

/* Follows partitions to their disk and loop devices to their backing
 * file or device, adding up the offsets. What cannot be followed stays
 * the block device itself. */
static void resolve_backing(struct verity_backing *b, dev_t rdev)
{
	char line[PATH_MAX + 16];

	memset(b, 0, sizeof(*b));
	b->disk = rdev;
	for (int depth = 0; depth < 8; depth++) {
		unsigned long long v;
		struct stat st;
		dev_t parent;

		if (sysfs_read(rdev, "partition", line, sizeof(line)) == 0 &&
		    sysfs_read(rdev, "start", line, sizeof(line)) == 0 &&
		    sscanf(line, "%llu", &v) == 1 &&
		    parent_disk(rdev, &parent) == 0) {
			b->start += v * 512;
			rdev = parent;
			b->disk = rdev;
			if (!b->via[0])
				snprintf(b->via, sizeof(b->via),
					 "a partition of");
			continue;
		}
		if (sysfs_read(rdev, "loop/backing_file", line, sizeof(line)) ==
			    0 &&
		    stat(line, &st) == 0) {
			if (sysfs_read(rdev, "loop/offset", line,
				       sizeof(line)) == 0 &&
			    sscanf(line, "%llu", &v) == 1)
				b->start += v;
			if (!b->via[0])
				snprintf(b->via, sizeof(b->via),
					 "a loop device of");
			if (S_ISBLK(st.st_mode)) {
				rdev = st.st_rdev;
				b->disk = rdev;
				continue;
			}
			b->is_file = 1;
			b->dev = st.st_dev;
			b->ino = st.st_ino;
			return;
		}
		return;
	}
}

int verity_device_overlap(const struct verity_device *a, uint64_t a_off,
			  uint64_t a_len, const struct verity_device *b,
			  uint64_t b_off, uint64_t b_len)
{
	const struct verity_backing *x = &a->backing, *y = &b->backing;
	uint64_t xs, ys;

	if (x->is_file != y->is_file)
		return 0;
	if (x->is_file ? (x->dev != y->dev || x->ino != y->ino)
		       : x->disk != y->disk)
		return 0;
	if (!a_len || !b_len)
		return 0;
	xs = x->start + a_off;
	ys = y->start + b_off;
	return xs < ys + b_len && ys < xs + a_len;
}

const char *verity_device_via(const struct verity_device *a,
			      const struct verity_device *b)
{
	if (verity_device_same(a, b))
		return "";
	if (a->backing.via[0] && !b->backing.via[0])
		return a->backing.via;
	if (b->backing.via[0])
		return b->backing.via;
	return "";
}

int verity_device_same(const struct verity_device *a,
		       const struct verity_device *b)
{
	if (a->is_block || b->is_block)
		return a->is_block && b->is_block && a->rdev == b->rdev;
	return a->dev == b->dev && a->ino == b->ino;
}

/* A read that found the end of the file at off: a file cut short since it
 * was opened says so. */
static int eof_error(const struct verity_device *d, uint64_t off,
		     struct fv_error *err)
{
	struct stat st;

	/* ENODATA, not EIO: nothing to read there is not an unreadable
	 * block, and is never taken for one */
	if (!d->is_block && fstat(d->fd, &st) == 0 &&
	    (uint64_t)st.st_size < d->size)
		return fv_fail(err, ENODATA,
			       "%s: the file shrank while it was being read "
			       "(%llu bytes, %llu when opened)",
			       d->path, (unsigned long long)st.st_size,
			       (unsigned long long)d->size);
	return fv_fail(err, ENODATA,
		       "%s: unexpected end of file at offset %llu", d->path,
		       (unsigned long long)off);
}

int verity_device_read(const struct verity_device *d, uint64_t off, void *buf,
		       size_t len, struct fv_error *err)
{
	uint8_t *p = buf;

	while (len) {
		ssize_t n = pread(d->fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		/* EIO is the medium's: the caller may read block by block
		 * to find which are unreadable */
		if (n < 0)
			return fv_fail(err, errno == EIO ? EIO : errno,
				       "%s: read error at offset %llu: %s",
				       d->path, (unsigned long long)off,
				       strerror(errno));
		if (n == 0)
			return eof_error(d, off, err);
		p += n;
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	return 0;
}

int verity_device_write(const struct verity_device *d, uint64_t off,
			const void *buf, size_t len, struct fv_error *err)
{
	const uint8_t *p = buf;

	while (len) {
		ssize_t n = pwrite(d->fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return fv_fail(err, EIO,
				       "%s: write error at offset %llu: %s",
				       d->path, (unsigned long long)off,
				       n < 0 ? strerror(errno) : "no space");
		p += n;
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	return 0;
}

int verity_read_file(const char *path, const char *what, size_t max,
		     uint8_t **out, size_t *len, struct fv_error *err)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	struct stat st;
	size_t got = 0;
	uint8_t *buf;

	*out = NULL;
	*len = 0;
	if (fd < 0)
		return fv_fail(err, errno == ENOENT ? ENOENT : EINVAL,
			       "%s: cannot read %s: %s", path, what,
			       strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		int e = errno;

		close(fd);
		return fv_fail(err, EINVAL, "%s: cannot read %s: %s", path,
			       what,
			       S_ISREG(st.st_mode) ? strerror(e)
						   : file_kind(st.st_mode));
	}
	if ((uint64_t)st.st_size > max) {
		close(fd);
		return fv_fail(
			err, EINVAL,
			"%s: %s of %llu bytes is too large (at most %zu)", path,
			what, (unsigned long long)st.st_size, max);
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		close(fd);
		return fv_fail(err, ENOMEM, "out of memory");
	}
	/* to the end, whatever fstat said: a file may change */
	for (;;) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size + 1 - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;

			close(fd);
			free(buf);
			return fv_fail(err, EIO, "%s: cannot read %s: %s", path,
				       what, strerror(e));
		}
		if (n == 0)
			break;
		got += (size_t)n;
		if (got > (size_t)st.st_size) {
			close(fd);
			free(buf);
			return fv_fail(err, EINVAL,
				       "%s: %s grew while being read", path,
				       what);
		}
	}
	close(fd);
	buf[got] = 0;
	*out = buf;
	*len = got;
	return 0;
}

/* (verity_device_open_format_output) An output is written in place when
 * it is a block device, the data
 * file itself (one-file layout) or an existing file written from an
 * offset (its bytes before the offset stay); otherwise as a temporary
 * file renamed over it at the end. */
static int output_in_place(const char *path, const struct stat *st,
			   const char *data_path, uint64_t offset)
{
	/* the data's own storage, under any name (a loop device of the
	 * file): written in place, where the overlap check sees it */
	return !S_ISREG(st->st_mode) ||
	       verity_path_same_storage(path, data_path) ||
	       (offset && st->st_size > 0);
}

int verity_device_open_format_output(struct verity_device *d, const char *path,
				     const char *what, const char *data_path,
				     uint64_t offset, struct fv_error *err)
{
	struct stat st;
	int r = output_stat(path, &st, err);

	if (r < 0)
		return r;
	if (r == 0 && output_in_place(path, &st, data_path, offset))
		return verity_device_open(d, path, VERITY_OPEN_CREATE, err);
	return verity_device_open_output(d, path, what, 0600, err);
}
