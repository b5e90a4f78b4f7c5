#include "verity/storage/loop.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <linux/loop.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "verity/storage/device.h"

#ifndef LOOP_CONFIGURE
#define LOOP_CONFIGURE 0x4C0A
struct loop_config {
	__u32 fd;
	__u32 block_size;
	struct loop_info64 info;
	__u64 __reserved[8];
};
#endif

/* Kernels before 5.8 have no LOOP_CONFIGURE: set the file, then flags. */
static int configure_old(int lfd, int fd, const struct loop_info64 *info)
{
	struct loop_info64 li = *info;

	if (ioctl(lfd, LOOP_SET_FD, fd) < 0)
		return -errno;
	li.lo_flags &= ~(__u32)LO_FLAGS_DIRECT_IO;
	if (ioctl(lfd, LOOP_SET_STATUS64, &li) < 0) {
		int e = errno;

		ioctl(lfd, LOOP_CLR_FD, 0);
		return -e;
	}
	return 0;
}

static int configure(int lfd, int fd, const char *path, uint64_t offset,
		     uint64_t sizelimit)
{
	struct loop_config cfg;
	int r;

	memset(&cfg, 0, sizeof(cfg));
	cfg.fd = (__u32)fd;
	cfg.info.lo_offset = offset;
	cfg.info.lo_sizelimit = sizelimit;
	cfg.info.lo_flags =
		LO_FLAGS_READ_ONLY | LO_FLAGS_AUTOCLEAR | LO_FLAGS_DIRECT_IO;
	snprintf((char *)cfg.info.lo_file_name, LO_NAME_SIZE, "%s", path);
	if (ioctl(lfd, LOOP_CONFIGURE, &cfg) == 0)
		return 0;
	r = -errno;
	if (r == -EINVAL) { /* direct I/O refused by the file system */
		cfg.info.lo_flags &= ~(__u32)LO_FLAGS_DIRECT_IO;
		if (ioctl(lfd, LOOP_CONFIGURE, &cfg) == 0)
			return 0;
		r = -errno;
	}
	if (r == -EINVAL || r == -ENOTTY)
		r = configure_old(lfd, fd, &cfg.info);
	return r;
}

int verity_loop_attach(int fd, const char *path, uint64_t offset,
		       uint64_t sizelimit, char *dev, size_t len,
		       struct ht_error *err)
{
	int ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC), r = -EBUSY;

	if (ctl < 0)
		return ht_fail(err, ENODEV,
			       "%s: no loop devices to attach it to "
			       "(/dev/loop-control: %s)",
			       path, strerror(errno));
	for (int tries = 0; tries < 16 && r == -EBUSY; tries++) {
		int n = ioctl(ctl, LOOP_CTL_GET_FREE), lfd;

		if (n < 0) {
			r = -errno;
			break;
		}
		snprintf(dev, len, "/dev/loop%d", n);
		lfd = open(dev, O_RDONLY | O_CLOEXEC);
		if (lfd < 0) {
			r = -errno;
			break;
		}
		r = configure(lfd, fd, path, offset, sizelimit);
		if (!r) {
			close(ctl);
			return lfd;
		}
		close(lfd);
	}
	close(ctl);
	return ht_fail(err, -r, "%s: cannot attach to a loop device: %s", path,
		       strerror(-r));
}

void verity_loop_backing_file(const char *dev, char *out, size_t len)
{
	char sys[PATH_MAX];
	struct stat st;
	FILE *f;

	out[0] = '\0';
	if (stat(dev, &st) < 0 || !S_ISBLK(st.st_mode))
		return;
	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u/loop/backing_file",
		 major(st.st_rdev), minor(st.st_rdev));
	f = fopen(sys, "r");
	if (!f)
		return;
	if (fgets(out, (int)len, f))
		out[strcspn(out, "\n")] = '\0';
	fclose(f);
}

int verity_loop_refuse_backing(const struct verity_device *d, const char *path,
			       struct ht_error *err)
{
	struct stat me, st;
	glob_t g;
	int r = 0;

	if (fstat(d->fd, &me) < 0 || !S_ISREG(me.st_mode))
		return 0;
	if (glob("/sys/block/loop*/loop/backing_file", 0, NULL, &g))
		return 0;
	for (size_t i = 0; !r && i < g.gl_pathc; i++) {
		char file[PATH_MAX];
		FILE *f = fopen(g.gl_pathv[i], "re");

		if (!f)
			continue;
		if (fgets(file, sizeof(file), f))
			file[strcspn(file, "\n")] = '\0';
		else
			file[0] = '\0';
		fclose(f);
		if (file[0] && stat(file, &st) == 0 && st.st_dev == me.st_dev &&
		    st.st_ino == me.st_ino) {
			/* /sys/block/loopN/loop/backing_file */
			const char *n = g.gl_pathv[i] + strlen("/sys/block/");

			r = ht_fail(err, EBUSY,
				    "%s: backs the active loop device /dev/%.*s: "
				    "not written in place while it is in use",
				    path, (int)strcspn(n, "/"), n);
		}
	}
	globfree(&g);
	return r;
}
