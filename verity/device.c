#include "device.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <linux/fs.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

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
		 * parameter error (1); a device that is not there, 4 */
		if (mode == VERITY_OPEN_CREATE)
			return fv_fail(err, EINVAL,
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
	} else if (S_ISREG(st.st_mode)) {
		d->size = (uint64_t)st.st_size;
	} else {
		verity_device_close(d);
		return fv_fail(err, EINVAL,
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

void verity_device_close(struct verity_device *d)
{
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
}

int verity_device_same(const struct verity_device *a,
		       const struct verity_device *b)
{
	if (a->is_block || b->is_block)
		return a->is_block && b->is_block && a->rdev == b->rdev;
	return a->dev == b->dev && a->ino == b->ino;
}

int verity_device_read(const struct verity_device *d, uint64_t off, void *buf,
		       size_t len, struct fv_error *err)
{
	uint8_t *p = buf;

	while (len) {
		ssize_t n = pread(d->fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return fv_fail(err, EIO,
				       "%s: read error at offset %llu: %s",
				       d->path, (unsigned long long)off,
				       strerror(errno));
		if (n == 0)
			return fv_fail(
				err, EIO,
				"%s: unexpected end of file at offset %llu",
				d->path, (unsigned long long)off);
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
