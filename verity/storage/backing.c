/* Backing identity through sysfs: partitions to their disk, loop devices
 * to their file; overlap of regions judged on that storage. */
#include "verity/storage/backing.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "verity/storage/device.h"

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
void verity_backing_holder(dev_t rdev, char *out, size_t len)
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

/* Follows partitions to their disk and loop devices to their backing
 * file or device, adding up the offsets. What cannot be followed stays
 * the block device itself. */
void verity_backing_resolve(struct verity_backing *b, dev_t rdev)
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
		verity_backing_resolve(b, st.st_rdev);
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

int verity_device_same_region(const struct verity_device *a,
			      const struct verity_device *b)
{
	/* the same start and the same extent: a region of the first bytes
	 * of an image is not the whole image */
	return verity_device_same(a, b) && a->base == b->base &&
	       a->bounded == b->bounded && (!a->bounded || a->size == b->size);
}

int verity_device_same(const struct verity_device *a,
		       const struct verity_device *b)
{
	if (a->is_block || b->is_block)
		return a->is_block && b->is_block && a->rdev == b->rdev;
	return a->dev == b->dev && a->ino == b->ino;
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
	xs = x->start + a->base + a_off;
	ys = y->start + b->base + b_off;
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
