/* Images and block devices: open (as regions), size, full reads and
 * writes at 64-bit offsets, exclusive opens for writing. Every message
 * names the path. */
#include "verity/storage/device.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "hashtree/thread.h"
#include "verity/storage/backing.h"
#include "verity/storage/extents.h"
#include "verity/storage/output.h"

/* S_IFMT names for messages. */
const char *verity_file_kind(mode_t m)
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

/* An exclusive descriptor of the block device fd is open on: a mounted
 * file system, a device-mapper target or another exclusive user makes it
 * -EBUSY, naming the holder. */
static int open_exclusive(struct verity_device *d, int flags,
			  struct ht_error *err)
{
	struct stat st;
	char holder[PATH_MAX + 64];
	int fd = open(d->path,
		      (flags & ~O_CREAT) | O_EXCL | O_NOCTTY | O_CLOEXEC);

	if (fd < 0 && errno == EBUSY) {
		verity_backing_holder(d->rdev, holder, sizeof(holder));
		return ht_fail(err, EBUSY,
			       "%s: the device is in use%s: not writing to it",
			       d->path,
			       holder[0] ? holder
					 : " (opened exclusively by another "
					   "program)");
	}
	if (fd < 0)
		return ht_fail(err, errno, "%s: cannot open: %s", d->path,
			       strerror(errno));
	/* the same device as the one checked, not one renamed meanwhile */
	if (fstat(fd, &st) < 0 || !S_ISBLK(st.st_mode) ||
	    st.st_rdev != d->rdev) {
		close(fd);
		return ht_fail(err, EBUSY, "%s: changed while it was opened",
			       d->path);
	}
	close(d->fd);
	d->fd = fd;
	d->exclusive = 1;
	return 0;
}

/* What an opened path is: its identity, size and backing; a block device
 * written to held exclusively; anything but a regular file or a block
 * device refused. The descriptor made blocking again. */
static int describe(struct verity_device *d, enum verity_open_mode mode,
		    int flags, struct ht_error *err)
{
	struct stat sb, *st = &sb;

	if (fstat(d->fd, st) < 0)
		return ht_fail(err, errno, "%s: cannot stat: %s", d->path,
			       strerror(errno));
	d->dev = st->st_dev;
	d->ino = st->st_ino;
	if (S_ISBLK(st->st_mode)) {
		uint64_t size;

		if (ioctl(d->fd, BLKGETSIZE64, &size) < 0)
			return ht_fail(err, errno,
				       "%s: cannot get device size: %s",
				       d->path, strerror(errno));
		d->is_block = 1;
		d->rdev = st->st_rdev;
		d->size = size;
		verity_backing_resolve(&d->backing, st->st_rdev);
		/* a device written to is held exclusively: never under a
		 * mounted file system or a mapped target */
		if (mode != VERITY_OPEN_READ) {
			int r = open_exclusive(d, flags, err);

			if (r)
				return r;
		}
	} else if (S_ISREG(st->st_mode)) {
		d->size = (uint64_t)st->st_size;
		d->backing.is_file = 1;
		d->backing.dev = st->st_dev;
		d->backing.ino = st->st_ino;
	} else {
		/* a directory or a character device: veritysetup's
		 * incompatible device (exit 4); a FIFO or socket, which it
		 * would wait on, a parameter error */
		return ht_fail(err,
			       S_ISDIR(st->st_mode) || S_ISCHR(st->st_mode)
				       ? ENOTBLK
				       : EINVAL,
			       "%s: %s, not a regular file or block device",
			       d->path, verity_file_kind(st->st_mode));
	}
	/* (a regular file's reads and writes never wait on O_NONBLOCK:
	 * two system calls fewer for each of many small files) */
	if (!S_ISREG(st->st_mode) &&
	    fcntl(d->fd, F_SETFL, fcntl(d->fd, F_GETFL) & ~O_NONBLOCK) < 0)
		return ht_fail(err, errno, "%s: %s", d->path, strerror(errno));
	return 0;
}

int verity_device_open(struct verity_device *d, const char *path,
		       enum verity_open_mode mode, struct ht_error *err)
{
	int flags = mode == VERITY_OPEN_READ ? O_RDONLY : O_RDWR, r;

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
			return ht_fail(err, e == EISDIR ? ENOTBLK : EINVAL,
				       "%s: cannot create the hash image: %s",
				       path, strerror(e));
		if (e == ENOENT || e == EACCES || e == EPERM || e == ENOTDIR ||
		    e == ENXIO || e == ENODEV)
			return ht_fail(
				err, ENODEV,
				"%s: does not exist or access denied (%s)",
				path, strerror(e));
		return ht_fail(err, e, "%s: cannot open: %s", path,
			       strerror(e));
	}
	r = describe(d, mode, flags, err);
	if (r)
		verity_device_close(d);
	return r;
}

/* Narrows d, opened whole, to region r. */
static int apply_region(struct verity_device *d, const struct verity_region *r,
			enum verity_open_mode mode, struct ht_error *err)
{
	uint64_t whole = d->size;

	if (!r->offset && !r->length)
		return 0;
	if (r->offset > INT64_MAX || r->length > INT64_MAX - r->offset)
		return ht_fail(err, EOVERFLOW,
			       "%s: region at %llu of %llu bytes overflows",
			       d->path, (unsigned long long)r->offset,
			       (unsigned long long)r->length);
	/* what exists is read where it is: all of it */
	if (mode != VERITY_OPEN_CREATE &&
	    (r->offset > whole || (r->length && r->length > whole - r->offset)))
		return ht_fail(err, EINVAL,
			       "%s: the region [%llu, %llu) lies past its end "
			       "(%llu bytes)",
			       d->path, (unsigned long long)r->offset,
			       (unsigned long long)(r->offset + r->length),
			       (unsigned long long)whole);
	d->base = r->offset;
	d->bounded = r->length != 0;
	d->size = r->length           ? r->length
		  : whole > r->offset ? whole - r->offset
				      : 0;
	return 0;
}

int verity_device_open_region(struct verity_device *d,
			      const struct verity_region *r,
			      enum verity_open_mode mode, struct ht_error *err)
{
	int ret = verity_device_open(
		d, r->extents && r->extents->path ? r->extents->path : r->path,
		mode, err);

	if (!ret && r->extents) {
		d->src = r->extents;
		d->size = r->extents->size;
		d->path = r->path; /* messages name what the caller named */
	}
	if (!ret && (ret = apply_region(d, r, mode, err)))
		verity_device_close(d);
	return ret;
}

int verity_device_take_source(struct verity_device *d, struct verity_extents *x,
			      struct ht_error *err)
{
	(void)err;
	d->src = d->src_owned = x;
	d->base = 0;
	d->bounded = 0;
	d->size = x->size;
	return 0;
}

int verity_device_open_beside(struct verity_device *d,
			      const struct verity_region *r,
			      enum verity_open_mode mode,
			      const struct verity_device *held,
			      struct ht_error *err)
{
	struct stat st;
	uint64_t whole;
	int ret;

	if (!held || held->fd < 0 || !held->exclusive ||
	    mode == VERITY_OPEN_READ || stat(r->path, &st) != 0 ||
	    !S_ISBLK(st.st_mode) || st.st_rdev != held->rdev)
		return verity_device_open_region(d, r, mode, err);
	/* the device's end, not the held region's: held may be a region
	 * that ends before r starts */
	if (ioctl(held->fd, BLKGETSIZE64, &whole) < 0)
		return ht_fail(err, errno, "%s: cannot get device size: %s",
			       r->path, strerror(errno));
	*d = *held;
	d->path = r->path;
	d->tmp = d->final = NULL;
	d->anonymous = 0;
	d->src = r->extents;
	d->src_owned = NULL;
	if (d->src)
		whole = d->src->size;
	d->base = 0;
	d->size = whole;
	d->bounded = 0;
	d->fd = fcntl(held->fd, F_DUPFD_CLOEXEC, 0);
	if (d->fd < 0)
		return ht_fail(err, errno, "%s: %s", r->path, strerror(errno));
	if ((ret = apply_region(d, r, mode, err)))
		verity_device_close(d);
	return ret;
}

void verity_device_close(struct verity_device *d)
{
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
	if (d->tmp && !d->anonymous) {
		unlink(d->tmp); /* never committed */
		verity_output_forget(d->tmp);
	}
	d->anonymous = 0;
	free(d->tmp);
	free(d->final);
	d->tmp = NULL;
	d->final = NULL;
	if (d->src_owned) {
		verity_extents_free(d->src_owned);
		free(d->src_owned);
	}
	d->src = d->src_owned = NULL;
}

/* A read that found the end of the file at off: a file cut short since it
 * was opened says so. */
static int eof_error(const struct verity_device *d, uint64_t off,
		     struct ht_error *err)
{
	struct stat st;

	/* ENODATA, not EIO: nothing to read there is not an unreadable
	 * block, and is never taken for one */
	if (!d->is_block && !d->src && fstat(d->fd, &st) == 0 &&
	    (uint64_t)st.st_size < d->base + d->size)
		return ht_fail(err, ENODATA,
			       "%s: the file shrank while it was being read "
			       "(%llu bytes, %llu when opened)",
			       d->path, (unsigned long long)st.st_size,
			       (unsigned long long)(d->base + d->size));
	return ht_fail(err, ENODATA,
		       "%s: unexpected end of file at offset %llu", d->path,
		       (unsigned long long)(d->base + off));
}

/* A region of a given length is never read or written past its end. */
static int past_region(const struct verity_device *d, uint64_t off, size_t len,
		       struct ht_error *err)
{
	if (!d->bounded || (off <= d->size && len <= d->size - off))
		return 0;
	return ht_fail(err, ENODATA,
		       "%s: bytes [%llu, %llu) lie past the end of the region "
		       "[%llu, %llu)",
		       d->path, (unsigned long long)(d->base + off),
		       (unsigned long long)(d->base + off + len),
		       (unsigned long long)d->base,
		       (unsigned long long)(d->base + d->size));
}

/* All of [off, off + len) of the file read into p or, with out, p
 * written there, short and interrupted calls retried. */
static int file_transfer(const struct verity_device *d, uint64_t off,
			 uint8_t *p, size_t len, int out, struct ht_error *err)
{
	while (len) {
		ssize_t n = out ? pwrite(d->fd, p, len, (off_t)off)
				: pread(d->fd, p, len, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		/* a read's EIO is the medium's: the caller may read block
		 * by block to find which are unreadable */
		if (n < 0 || (out && n == 0))
			return ht_fail(err, out ? EIO : errno,
				       "%s: %s error at offset %llu: %s",
				       d->path, out ? "write" : "read",
				       (unsigned long long)off,
				       n < 0 ? strerror(errno) : "no space");
		if (n == 0)
			return eof_error(d, off - d->base, err);
		p += n;
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	return 0;
}

/* A write into bytes a source does not store (a FILL or DONT_CARE
 * chunk): nothing to do when they would not change, else refused,
 * naming the block and what holds it. */
static int unstored_write(const struct verity_device *d,
			  const struct verity_extent *e, uint64_t in,
			  const uint8_t *p, size_t n, struct ht_error *err)
{
	uint8_t now[256];

	for (size_t k = 0; k < n; k += sizeof(now)) {
		size_t m = n - k < sizeof(now) ? n - k : sizeof(now);

		verity_extent_fill(e, in + k, now, m);
		if (memcmp(now, p + k, m))
			return ht_fail(
				err, EROFS,
				"%s: byte %llu lies in %s %u (%s), which the "
				"file does not store: not written (make a raw "
				"image first: simg2img %s IMAGE.raw)",
				d->path,
				(unsigned long long)(e->logical + in + k),
				d->src->unit ? d->src->unit : "extent",
				e->origin,
				e->kind == VERITY_EXTENT_FILL ? "a FILL"
							      : "no data",
				d->path);
	}
	return 0;
}

/* The same through the source's extents: file extents transferred,
 * the others filled in (or, written, left as they are). */
static int source_transfer(const struct verity_device *d, uint64_t off,
			   uint8_t *p, size_t len, int out,
			   struct ht_error *err)
{
	const struct verity_extents *x = d->src;

	if (off > x->size || len > x->size - off)
		return ht_fail(err, ENODATA,
			       "%s: bytes [%llu, %llu) lie past the end of its "
			       "unsparsed bytes (%llu)",
			       d->path, (unsigned long long)off,
			       (unsigned long long)(off + len),
			       (unsigned long long)x->size);
	while (len) {
		const struct verity_extent *e = verity_extents_at(x, off);
		uint64_t in = off - e->logical, left = e->length - in;
		size_t n = left < len ? (size_t)left : len;
		int r = 0;

		if (e->kind == VERITY_EXTENT_FILE)
			r = file_transfer(verity_extent_file(x, e, d),
					  e->file_offset + in, p, n, out, err);
		else if (out)
			r = unstored_write(d, e, in, p, n, err);
		else
			verity_extent_fill(e, in, p, n);
		if (r)
			return r;
		p += n;
		off += n;
		len -= n;
	}
	return 0;
}

/* All of [off, off + len) of the region read into p or, with out, p
 * written there. */
static int transfer(const struct verity_device *d, uint64_t off, uint8_t *p,
		    size_t len, int out, struct ht_error *err)
{
	int r = past_region(d, off, len, err);

	if (r)
		return r;
	return d->src ? source_transfer(d, d->base + off, p, len, out, err)
		      : file_transfer(d, d->base + off, p, len, out, err);
}

int verity_device_flush(const struct verity_device *d, struct ht_error *err)
{
	/* EINVAL: a file that cannot be synced (there is nothing to lose) */
	if (fsync(d->fd) < 0 && errno != EINVAL)
		return ht_fail(err, EIO, "%s: cannot flush: %s", d->path,
			       strerror(errno));
	return 0;
}

struct flush_job {
	const struct verity_device *d;
	int r;
	struct ht_error err;
};

static void *flush_job_run(void *arg)
{
	struct flush_job *j = arg;

	j->r = verity_device_flush(j->d, &j->err);
	return NULL;
}

int verity_device_flush_both(const struct verity_device *a,
			     const struct verity_device *b,
			     struct ht_error *err)
{
	struct flush_job j = {b, 0, {0}};
	pthread_t t;
	int r;

	if (!b || b->fd < 0 || b->fd == a->fd)
		return verity_device_flush(a, err);
	/* placed as Linux places it: the caller is about to wait for the
	 * disk, which leaves its CPU to the thread */
	if (ht_thread_create(&t, flush_job_run, &j))
		return (r = verity_device_flush(b, err))
			       ? r
			       : verity_device_flush(a, err);
	r = verity_device_flush(a, err);
	ht_thread_join(t, NULL);
	if (j.r)
		ht_handover(err, &j.err);
	return j.r ? j.r : r;
}

/* 1 when the byte at file offset at is in the page cache (or past the
 * end: nothing to read). RWF_NOWAIT answers without waiting for the disk
 * (Linux 4.14); where a file system does not take it (tmpfs, some
 * network file systems), mincore() on a mapping of that page, which
 * touches nothing. */
static int byte_cached(const struct verity_device *d, off_t at)
{
	char byte;
	struct iovec v = {&byte, 1};
	long page;
	unsigned char in = 0;
	void *p;

	if (preadv2(d->fd, &v, 1, at, RWF_NOWAIT) >= 0)
		return 1;
	if (errno == EAGAIN || (page = sysconf(_SC_PAGESIZE)) <= 0)
		return 0;
	p = mmap(NULL, (size_t)page, PROT_READ, MAP_SHARED, d->fd,
		 at - at % page);
	if (p == MAP_FAILED)
		return 0;
	if (mincore(p, (size_t)page, &in) < 0)
		in = 0;
	munmap(p, (size_t)page);
	return in & 1;
}

/* Not POSIX_FADV_WILLNEED: that fills the cache with 4 KiB pages where
 * the kernel's own readahead makes large folios, and cost more CPU than
 * the copy. A range the workers read in order is cached whole when its
 * last byte is, and reading it again would cost a copy. Errors are left
 * for the real reads to find and report. */
static void file_prefetch(const struct verity_device *d, off_t at, uint64_t len)
{
	char buf[64 << 10];
	struct iovec v = {buf, sizeof(buf)};

	if (!len || byte_cached(d, at + (off_t)len - 1))
		return;
	while (len) {
		ssize_t n;

		v.iov_len = len < sizeof(buf) ? (size_t)len : sizeof(buf);
		n = preadv2(d->fd, &v, 1, at, 0);
		if (n <= 0)
			return;
		at += n;
		len -= (uint64_t)n;
	}
}

void verity_device_prefetch(const struct verity_device *d, uint64_t off,
			    uint64_t len)
{
	uint64_t at = d->base + off;

	if (!d->src) {
		file_prefetch(d, (off_t)at, len);
		return;
	}
	/* a source's stored bytes, extent by extent */
	if (at > d->src->size || len > d->src->size - at)
		return;
	while (len) {
		const struct verity_extent *e = verity_extents_at(d->src, at);
		uint64_t in = at - e->logical, n = e->length - in;

		if (n > len)
			n = len;
		if (e->kind == VERITY_EXTENT_FILE)
			file_prefetch(verity_extent_file(d->src, e, d),
				      (off_t)(e->file_offset + in), n);
		at += n;
		len -= n;
	}
}

int verity_device_read(const struct verity_device *d, uint64_t off, void *buf,
		       size_t len, struct ht_error *err)
{
	return transfer(d, off, buf, len, 0, err);
}

int verity_device_write(const struct verity_device *d, uint64_t off,
			const void *buf, size_t len, struct ht_error *err)
{
	/* (transfer only reads from p when it writes) */
	return transfer(d, off, (uint8_t *)(uintptr_t)buf, len, 1, err);
}
