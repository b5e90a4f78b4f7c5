/* open, close and status through libdevmapper. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/keyctl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <libdevmapper.h>
#include <linux/dm-ioctl.h>

#include "hashtree/dl.h"
#include "verity/dm/activate.h"
#include "verity/storage/extents.h"
#include "verity/storage/loop.h"

/* libdevmapper is opened when open, close or status first needs it.
 * Linked, it and what it brings (libselinux, libudev, libpcre2) cost every
 * run of the command 1-2 ms to load (a 4 KiB format: 11.7-12.0 ms linked,
 * 10.0-10.6 ms without), though only those three actions use it. */
#define DM_FUNCTIONS(X)             \
	X(dm_driver_version)        \
	X(dm_get_next_target)       \
	X(dm_log_is_non_default)    \
	X(dm_log_with_errno_init)   \
	X(dm_task_add_target)       \
	X(dm_task_create)           \
	X(dm_task_deferred_remove)  \
	X(dm_task_destroy)          \
	X(dm_task_get_info)         \
	X(dm_task_get_versions)     \
	X(dm_task_get_uuid)         \
	X(dm_task_retry_remove)     \
	X(dm_task_run)              \
	X(dm_task_set_cookie)       \
	X(dm_task_set_message)      \
	X(dm_task_set_name)         \
	X(dm_task_set_ro)           \
	X(dm_task_set_sector)       \
	X(dm_task_set_uuid)         \
	X(dm_udev_set_checking)     \
	X(dm_udev_set_sync_support) \
	X(dm_udev_wait)

static struct {
#define DM_FIELD(f) __typeof__(f) *f;
	DM_FUNCTIONS(DM_FIELD)
#undef DM_FIELD
} dmlib;
static pthread_once_t dmlib_once = PTHREAD_ONCE_INIT;
static int dmlib_loaded;
static char dmlib_error[256];

static void dmlib_open(void)
{
	/* Debian's name, then upstream's */
	static const char *const sonames[] = {"libdevmapper.so.1.02.1",
					      "libdevmapper.so.1.02"};
#define DM_NAME(f) #f,
	static const char *const names[] = {DM_FUNCTIONS(DM_NAME)};
#undef DM_NAME
	void *fns[sizeof(names) / sizeof(names[0])];
	size_t i = 0;

	if (ht_dl_open(sonames, sizeof(sonames) / sizeof(sonames[0]), names,
		       sizeof(names) / sizeof(names[0]), fns, dmlib_error,
		       sizeof(dmlib_error)))
		return;
#define DM_SET(f) memcpy(&dmlib.f, &fns[i++], sizeof(fns[0]));
	DM_FUNCTIONS(DM_SET)
#undef DM_SET
	dmlib_loaded = 1;
}

static int dmlib_load(struct ht_error *err)
{
	pthread_once(&dmlib_once, dmlib_open);
	if (!dmlib_loaded)
		return ht_fail(err, ENOSYS,
			       "device-mapper is not available: cannot load "
			       "libdevmapper (%s)",
			       dmlib_error);
	return 0;
}

/* libdevmapper prints its errors unless told otherwise: keep the last one
 * for our message instead (the library never prints). */
static __thread char dm_last_error[256];

static void dm_logger(int level, const char *file, int line, int dm_errno,
		      const char *fmt, ...)
{
	va_list ap;

	(void)file;
	(void)line;
	(void)dm_errno;
	if (level > 3) /* _LOG_ERR */
		return;
	va_start(ap, fmt);
	vsnprintf(dm_last_error, sizeof(dm_last_error), fmt, ap);
	va_end(ap);
}

/* Without a running udev nobody would make /dev/mapper/<name>: then let
 * libdevmapper make the node itself (what DM_DISABLE_UDEV=1 does). */
/* libdevmapper's logger left as found: ours only while we call, and
 * only where the program has none of its own. (Process-wide state of
 * libdevmapper's: two threads opening devices at once may see each
 * other's logger.) */
static __thread int logger_installed;

static int dm_restore(int r)
{
	if (logger_installed) {
		dmlib.dm_log_with_errno_init(NULL);
		logger_installed = 0;
	}
	return r;
}

static int dm_setup(struct ht_error *err)
{
	char version[64];

	if (dmlib_load(err))
		return -ENOSYS;
	/* our logger while we call, unless the program has its own
	 * (dm_restore() puts the default back) */
	if (!dmlib.dm_log_is_non_default()) {
		dmlib.dm_log_with_errno_init(dm_logger);
		logger_installed = 1;
	}
	if (access("/run/udev/control", F_OK) != 0) {
		dmlib.dm_udev_set_sync_support(0);
		dmlib.dm_udev_set_checking(0);
	}
	/* /proc/misc lists the driver when the kernel has it (a stale
	 * /dev/mapper/control node proves nothing) */
	if (access("/proc/misc", F_OK) == 0) {
		FILE *f = fopen("/proc/misc", "r");
		char line[128];
		int found = 0;

		while (f && fgets(line, sizeof(line), f))
			if (strstr(line, "device-mapper"))
				found = 1;
		if (f)
			fclose(f);
		if (!found)
			return ht_fail(err, ENOSYS,
				       "device-mapper is not available: this "
				       "kernel has no dm-mod driver loaded");
	}
	mkdir("/dev/mapper", 0755);
	if (!dmlib.dm_driver_version(version, sizeof(version)))
		return ht_fail(err, ENOSYS,
			       "device-mapper is not available (%s)",
			       dm_last_error[0] ? dm_last_error
						: "no /dev/mapper/control");
	return 0;
}

static int dm_name_ok(const char *name, struct ht_error *err)
{
	if (!*name || strlen(name) >= DM_NAME_LEN || strchr(name, '/') ||
	    !strcmp(name, ".") || !strcmp(name, ".."))
		return ht_fail(err, EINVAL, "%s: not a valid device name",
			       name);
	return 0;
}

/* 1 when a device of that name exists, 0 when not; fills info. */
static int dm_info(const char *name, struct dm_info *info, struct ht_error *err)
{
	struct dm_task *dmt = dmlib.dm_task_create(DM_DEVICE_INFO);
	int ok;

	if (!dmt)
		return ht_fail(err, ENOMEM, "out of memory");
	ok = dmlib.dm_task_set_name(dmt, name) && dmlib.dm_task_run(dmt) &&
	     dmlib.dm_task_get_info(dmt, info);
	dmlib.dm_task_destroy(dmt);
	if (!ok)
		return ht_fail(err, EIO, "%s: cannot query device-mapper: %s",
			       name, dm_last_error);
	return info->exists ? 1 : 0;
}

/* An active device of that name: 0, or -ENODEV with a message. */
static int dm_find(const char *name, struct dm_info *info, struct ht_error *err)
{
	int r = dm_name_ok(name, err);

	if (!r)
		r = dm_setup(err);
	if (!r && (r = dm_info(name, info, err)) == 0)
		r = ht_fail(err, ENODEV, "%s: device is not active", name);
	return r < 0 ? r : 0;
}

/* A region read through extents (a logical partition of a super image)
 * is mapped by a device-mapper linear device over loop devices of the
 * files its extents lie in (zero extents: the zero target), named
 * <name>-linear; the verity device sits on it, and close removes both.
 * One such device per open: the regions of one partition share it. */
#define LINEAR_SUFFIX "-linear"
#define LINEAR_UUID   "FASTVERITY-LINEAR-"

struct linear {
	const struct verity_extents *src; /* NULL: none made */
	uint64_t base;
	char name[DM_NAME_LEN];
	char dev[32];
};

static int remove_now(const char *name);

/* The linear device of d's extents from d's base to their end. */
static int linear_make(const char *name, const struct verity_device *d,
		       struct linear *lin, struct ht_error *err)
{
	const struct verity_extents *x = d->src;
	const uint32_t nfiles = x->nfiles + 1;
	char(*devs)[32] = calloc(nfiles, sizeof(*devs));
	int *loops = malloc(nfiles * sizeof(*loops));
	char uuid[DM_UUID_LEN], params[64];
	struct dm_task *dmt = NULL;
	struct dm_info info;
	uint32_t cookie = 0;
	int r = 0, ok = 1;

	if (!devs || !loops) {
		r = ht_fail(err, ENOMEM, "out of memory");
		goto out;
	}
	for (uint32_t k = 0; k < nfiles; k++)
		loops[k] = -1;
	if (strlen(name) + sizeof(LINEAR_SUFFIX) > DM_NAME_LEN) {
		r = ht_fail(err, EINVAL,
			    "%s: too long a name for its linear device", name);
		goto out;
	}
	snprintf(lin->name, sizeof(lin->name), "%s" LINEAR_SUFFIX, name);
	snprintf(uuid, sizeof(uuid), LINEAR_UUID "%s", name);
	if (dm_info(lin->name, &info, err) > 0) {
		r = ht_fail(err, EBUSY, "%s: device already exists", lin->name);
		goto out;
	}
	if (!(dmt = dmlib.dm_task_create(DM_DEVICE_CREATE))) {
		r = ht_fail(err, ENOMEM, "out of memory");
		goto out;
	}
	ok = dmlib.dm_task_set_name(dmt, lin->name) &&
	     dmlib.dm_task_set_uuid(dmt, uuid) && dmlib.dm_task_set_ro(dmt);
	for (size_t i = 0; ok && !r && i < x->n; i++) {
		const struct verity_extent *e = &x->e[i];
		uint64_t end = e->logical + e->length, at, in, len;

		if (end <= d->base)
			continue;
		at = e->logical > d->base ? e->logical : d->base;
		in = at - e->logical;
		len = end - at;
		if (e->kind == VERITY_EXTENT_FILL) {
			r = ht_fail(err, EINVAL,
				    "%s: byte %llu lies in a FILL chunk, which "
				    "the kernel cannot map: make a raw image "
				    "first",
				    d->path, (unsigned long long)at);
			break;
		}
		if ((at - d->base) % 512 || len % 512 ||
		    (e->kind == VERITY_EXTENT_FILE &&
		     (e->file_offset + in) % 512)) {
			r = ht_fail(err, EINVAL,
				    "%s: extent %zu is not in whole sectors: "
				    "the kernel cannot map it",
				    d->path, i);
			break;
		}
		if (e->kind == VERITY_EXTENT_FILE) {
			uint32_t k = e->file <= x->nfiles ? e->file : 0;
			const struct verity_device *f =
				verity_extent_file(x, e, d);
			struct stat st;
			char loop[64];

			if (loops[k] < 0) {
				loops[k] = verity_loop_attach(
					f->fd, f->path, 0, 0, loop,
					sizeof(loop), err);
				if (loops[k] < 0) {
					r = loops[k];
					break;
				}
				if (fstat(loops[k], &st) < 0) {
					r = ht_fail(err, errno, "%s: %s", loop,
						    strerror(errno));
					break;
				}
				snprintf(devs[k], sizeof(devs[k]), "%u:%u",
					 major(st.st_rdev), minor(st.st_rdev));
			}
			snprintf(params, sizeof(params), "%s %llu", devs[k],
				 (unsigned long long)((e->file_offset + in) /
						      512));
		} else {
			params[0] = '\0';
		}
		ok = dmlib.dm_task_add_target(
			dmt, (at - d->base) / 512, len / 512,
			e->kind == VERITY_EXTENT_FILE ? "linear" : "zero",
			params);
	}
	if (!r && ok) {
		ok = dmlib.dm_task_set_cookie(dmt, &cookie, 0) &&
		     dmlib.dm_task_run(dmt);
		if (cookie || ok)
			dmlib.dm_udev_wait(cookie);
		if (!ok)
			r = ht_fail(err, EINVAL,
				    "%s: the kernel refused the linear table: "
				    "%s",
				    lin->name,
				    dm_last_error[0] ? dm_last_error
						     : "unknown error");
	} else if (!r) {
		r = ht_fail(err, ENOMEM, "out of memory");
	}
	if (!r && dm_info(lin->name, &info, err) > 0) {
		snprintf(lin->dev, sizeof(lin->dev), "%u:%u", info.major,
			 info.minor);
		lin->src = x;
		lin->base = d->base;
	} else if (!r) {
		remove_now(lin->name);
		r = ht_fail(err, EIO, "%s: made, and then not found",
			    lin->name);
	}
out:
	if (dmt)
		dmlib.dm_task_destroy(dmt);
	/* the linear device holds the loop devices now; without it, closing
	 * them detaches them (autoclear) */
	for (uint32_t k = 0; loops && k < nfiles; k++)
		if (loops[k] >= 0)
			close(loops[k]);
	free(loops);
	free(devs);
	return r;
}

/* "major:minor" of a whole block device, or of the loop device a file
 * or a region (offset, size limit) gets. */
struct backing {
	char dev[32];
	int loop_fd;
};

static int backing_for(const char *name, const struct verity_device *d,
		       struct linear *lin, struct backing *b,
		       struct ht_error *err)
{
	struct stat st;
	int r;

	b->loop_fd = -1;
	if (d->src) {
		if (lin->src && (lin->src != d->src || lin->base != d->base))
			return ht_fail(err, EINVAL,
				       "%s: its regions lie in two sets of "
				       "extents: one linear device is made "
				       "per open",
				       d->path);
		if (!lin->src && (r = linear_make(name, d, lin, err)))
			return r;
		memcpy(b->dev, lin->dev, sizeof(b->dev));
		return 0;
	}
	if (!d->is_block || d->base || d->bounded) {
		char loop[64];

		b->loop_fd = verity_loop_attach(d->fd, d->path, d->base,
						d->bounded ? d->size : 0, loop,
						sizeof(loop), err);
		if (b->loop_fd < 0)
			return b->loop_fd;
		if (fstat(b->loop_fd, &st) < 0)
			return ht_fail(err, errno, "%s: %s", loop,
				       strerror(errno));
	} else if (fstat(d->fd, &st) < 0) {
		return ht_fail(err, errno, "%s: %s", d->path, strerror(errno));
	}
	snprintf(b->dev, sizeof(b->dev), "%u:%u", major(st.st_rdev),
		 minor(st.st_rdev));
	return 0;
}

/* A kernel "user" key holding the signature, in the thread keyring. */
static long add_signature_key(const char *desc, const struct verity_pair *pair,
			      struct ht_error *err)
{
	long key = syscall(SYS_add_key, "user", desc, pair->signature,
			   pair->signature_size, KEY_SPEC_THREAD_KEYRING);

	if (key < 0)
		return ht_fail(err, errno,
			       "cannot load the root hash signature into the "
			       "kernel keyring: %s",
			       strerror(errno));
	return key;
}

/* The loaded dm-verity target's version into v (0), or -1 where the
 * kernel lists none (its module not loaded). */
static int verity_target_version(unsigned v[3])
{
	struct dm_task *dmt = dmlib.dm_task_create(DM_DEVICE_LIST_VERSIONS);
	struct dm_versions *t, *last = NULL;
	int found = -1;

	if (dmt && dmlib.dm_task_run(dmt) &&
	    (t = dmlib.dm_task_get_versions(dmt)))
		/* the kernel's list: each entry says where the next is; 0
		 * ends it (bounded by the list, which the kernel ends) */
		for (; t != last;
		     last = t, t = (struct dm_versions *)((char *)t + t->next))
			if (!strcmp(t->name, "verity")) {
				memcpy(v, t->version, 3 * sizeof(*v));
				found = 0;
				break;
			}
	if (dmt)
		dmlib.dm_task_destroy(dmt);
	return found;
}

/* A table with restart_on_error or panic_on_error the kernel refused:
 * said with the version that takes them, where this kernel's is older. */
static int error_policy_refused(const char *name, unsigned flags,
				struct ht_error *err)
{
	unsigned v[3];

	if (!(flags &
	      (VERITY_ACT_RESTART_ON_ERROR | VERITY_ACT_PANIC_ON_ERROR)) ||
	    verity_target_version(v) || (v[0] > 1 || (v[0] == 1 && v[1] >= 10)))
		return -EINVAL;
	return ht_fail(err, EINVAL,
		       "%s: %s needs the kernel's dm-verity target 1.10 "
		       "(Linux 6.12); this kernel's is %u.%u.%u",
		       name,
		       flags & VERITY_ACT_PANIC_ON_ERROR ? "panic_on_error"
							 : "restart_on_error",
		       v[0], v[1], v[2]);
}

/* The data device (a whole block device, used as it is) not in use by
 * another mapping or a mount, unless shared: veritysetup's rule (a file
 * or a region gets a loop or linear device of its own). */
static int data_free(const struct verity_device *d, unsigned flags,
		     struct ht_error *err)
{
	int fd;

	if ((flags & VERITY_ACT_SHARED) || d->src || !d->is_block || d->base ||
	    d->bounded)
		return 0;
	fd = open(d->path, O_RDONLY | O_EXCL | O_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	if (errno == EBUSY)
		return ht_fail(err, EBUSY,
			       "Cannot use device %s which is in use (already "
			       "mapped or mounted); --shared maps it all the "
			       "same",
			       d->path);
	return 0; /* not a question of use: the kernel says what it is */
}

static int create_device(const char *name, const char *uuid, uint64_t sectors,
			 const char *table, struct ht_error *err)
{
	struct dm_task *dmt = dmlib.dm_task_create(DM_DEVICE_CREATE);
	uint32_t cookie = 0;
	int ok;

	if (!dmt)
		return ht_fail(err, ENOMEM, "out of memory");
	dm_last_error[0] = '\0';
	ok = dmlib.dm_task_set_name(dmt, name) &&
	     dmlib.dm_task_set_uuid(dmt, uuid) && dmlib.dm_task_set_ro(dmt) &&
	     dmlib.dm_task_add_target(dmt, 0, sectors, "verity", table) &&
	     dmlib.dm_task_set_cookie(dmt, &cookie, 0) &&
	     dmlib.dm_task_run(dmt);
	if (cookie || ok)
		dmlib.dm_udev_wait(cookie);
	dmlib.dm_task_destroy(dmt);
	if (!ok)
		return ht_fail(
			err, EINVAL,
			"%s: the kernel refused the verity table: %s", name,
			dm_last_error[0] ? dm_last_error : "unknown error");
	return 0;
}

/* The loop devices of the pair's regions: one where two regions are the
 * same (one-file layouts). */
static int backings(const char *name, const struct verity_devices *d,
		    struct linear *lin, struct backing *bd, struct backing *bh,
		    struct backing *bf, struct ht_error *err)
{
	int r = backing_for(name, &d->data, lin, bd, err);

	if (!r && verity_device_same_region(&d->data, &d->hash))
		memcpy(bh->dev, bd->dev, sizeof(bh->dev));
	else if (!r)
		r = backing_for(name, &d->hash, lin, bh, err);
	if (r || d->fec.fd < 0)
		return r;
	if (verity_device_same_region(&d->fec, &d->hash))
		memcpy(bf->dev, bh->dev, sizeof(bf->dev));
	else if (verity_device_same_region(&d->fec, &d->data))
		memcpy(bf->dev, bd->dev, sizeof(bf->dev));
	else
		r = backing_for(name, &d->fec, lin, bf, err);
	return r;
}

static void release(struct backing *b)
{
	if (b->loop_fd >= 0)
		close(b->loop_fd);
}

_Static_assert(VERITY_DM_UUID_MAX == DM_UUID_LEN, "a device's uuid's size");

void verity_open_names(const char *name, const struct verity_params *p,
		       char uuid[VERITY_DM_UUID_MAX],
		       char desc[VERITY_DM_KEY_DESC_MAX])
{
	char hex[33] = "";

	if (!p->no_superblock)
		verity_hex_encode(p->uuid, 16, hex);
	snprintf(uuid, VERITY_DM_UUID_MAX, "CRYPT-VERITY-%s%s%s", hex,
		 hex[0] ? "-" : "", name);
	snprintf(desc, VERITY_DM_KEY_DESC_MAX, "fastverity:%s-%s", hex, name);
}

int verity_open_table(const struct verity_pair *pair, const char *data,
		      const char *hash, const char *fec, unsigned flags,
		      const char *desc, char *table, size_t len,
		      struct ht_error *err)
{
	const struct verity_layout *l = &pair->layout;
	const struct verity_fec_table ft = {
		.dev = fec,
		.start_block = fec ? l->fec.offset / l->fec.block_size : 0,
		.blocks = l->fec.blocks,
		.roots = l->fec.roots,
	};
	struct verity_target t = {
		.p = &pair->params,
		.data_dev = data,
		.hash_dev = hash,
		.hash_start_block =
			l->tree_offset / pair->params.hash_block_size,
		.root = pair->root,
		.root_size = pair->root_size,
		.flags = flags,
		.fec = fec ? &ft : NULL,
		.sig_key_desc = pair->signature ? desc : NULL,
	};

	return verity_table_params(&t, table, len, err);
}

static int open_device(const char *name, struct verity_pair *pair,
		       const struct verity_run *run, struct ht_error *err)
{
	const struct verity_layout *l = &pair->layout;
	struct verity_devices d;
	struct backing bd = {"", -1}, bh = {"", -1}, bf = {"", -1};
	struct linear lin;
	struct dm_info info;
	char table[2048], uuid[VERITY_DM_UUID_MAX],
		desc[VERITY_DM_KEY_DESC_MAX];
	long key = -1;
	int r;

	r = dm_name_ok(name, err);
	if (!r)
		r = verity_flags_check(run->activation, err);
	if (!r)
		r = dm_setup(err);
	if (!r && (r = dm_info(name, &info, err)) > 0)
		r = ht_fail(err, EBUSY, "%s: device already exists", name);
	if (r)
		return r;
	r = verity_pair_open(pair, VERITY_OPEN_READ, VERITY_OPEN_READ, &d, err);
	if (r)
		return r;
	memset(&lin, 0, sizeof(lin));
	verity_open_names(name, &pair->params, uuid, desc);
	r = data_free(&d.data, run->activation, err);
	if (!r)
		r = backings(name, &d, &lin, &bd, &bh, &bf, err);
	if (!r && pair->signature) {
		key = add_signature_key(desc, pair, err);
		if (key < 0)
			r = (int)key;
	}
	if (!r)
		r = verity_open_table(
			pair, bd.dev, bh.dev, d.fec.fd >= 0 ? bf.dev : NULL,
			run->activation, desc, table, sizeof(table), err);
	if (!r &&
	    (r = create_device(name, uuid, l->data_bytes / 512, table, err)))
		error_policy_refused(name, run->activation, err);
	if (r && lin.src)
		remove_now(lin.name);
	if (key >= 0)
		syscall(SYS_keyctl, KEYCTL_UNLINK, key,
			KEY_SPEC_THREAD_KEYRING);
	/* the device holds the loop devices now; on failure closing them
	 * detaches them (autoclear) */
	release(&bd);
	release(&bh);
	release(&bf);
	verity_pair_close(&d);
	return r;
}

/* Removes device name now (a linear device just made, on failure). */
static int remove_now(const char *name)
{
	struct dm_task *dmt = dmlib.dm_task_create(DM_DEVICE_REMOVE);
	uint32_t cookie = 0;
	int ok;

	if (!dmt)
		return -ENOMEM;
	ok = dmlib.dm_task_set_name(dmt, name) &&
	     dmlib.dm_task_retry_remove(dmt) &&
	     dmlib.dm_task_set_cookie(dmt, &cookie, 0) &&
	     dmlib.dm_task_run(dmt);
	dmlib.dm_udev_wait(cookie);
	dmlib.dm_task_destroy(dmt);
	return ok ? 0 : -EBUSY;
}

/* The linear device open made under name, removed with it (deferred:
 * when the verity device above it goes); one of another uuid is not
 * ours and stays. */
static void linear_remove(const char *name, int deferred)
{
	char lname[DM_NAME_LEN], want[DM_UUID_LEN];
	struct dm_task *dmt;
	const char *uuid;
	uint32_t cookie = 0;
	int ours;

	if (strlen(name) + sizeof(LINEAR_SUFFIX) > DM_NAME_LEN)
		return;
	snprintf(lname, sizeof(lname), "%s" LINEAR_SUFFIX, name);
	snprintf(want, sizeof(want), LINEAR_UUID "%s", name);
	if (!(dmt = dmlib.dm_task_create(DM_DEVICE_INFO)))
		return;
	ours = dmlib.dm_task_set_name(dmt, lname) && dmlib.dm_task_run(dmt) &&
	       (uuid = dmlib.dm_task_get_uuid(dmt)) && !strcmp(uuid, want);
	dmlib.dm_task_destroy(dmt);
	if (!ours)
		return;
	if (!deferred) {
		remove_now(lname);
		return;
	}
	if (!(dmt = dmlib.dm_task_create(DM_DEVICE_REMOVE)))
		return;
	if (dmlib.dm_task_set_name(dmt, lname) &&
	    dmlib.dm_task_deferred_remove(dmt) &&
	    dmlib.dm_task_set_cookie(dmt, &cookie,
				     DM_UDEV_DISABLE_LIBRARY_FALLBACK) &&
	    dmlib.dm_task_run(dmt))
		dmlib.dm_udev_wait(cookie);
	dmlib.dm_task_destroy(dmt);
}

static int close_device(const char *name, enum verity_close_how how,
			struct ht_error *err)
{
	int deferred = how == VERITY_CLOSE_DEFERRED;
	struct dm_info info;
	struct dm_task *dmt;
	uint32_t cookie = 0;
	int r, ok;

	r = dm_find(name, &info, err);
	/* veritysetup's close exits 4 without device-mapper (status and
	 * open exit 1) */
	if (r == -ENOSYS)
		return -ENODEV;
	if (r)
		return r;
	if (how == VERITY_CLOSE_CANCEL_DEFERRED) {
		dmt = dmlib.dm_task_create(DM_DEVICE_TARGET_MSG);
		ok = dmt && dmlib.dm_task_set_name(dmt, name) &&
		     dmlib.dm_task_set_sector(dmt, 0) &&
		     dmlib.dm_task_set_message(dmt,
					       "@cancel_deferred_remove") &&
		     dmlib.dm_task_run(dmt);
		if (dmt)
			dmlib.dm_task_destroy(dmt);
		return ok ? 0
			  : ht_fail(err, EINVAL,
				    "%s: cannot cancel deferred removal: %s",
				    name, dm_last_error);
	}
	if (info.open_count > 0 && !deferred)
		return ht_fail(err, EBUSY, "%s: device is still in use", name);
	dmt = dmlib.dm_task_create(DM_DEVICE_REMOVE);
	if (!dmt)
		return ht_fail(err, ENOMEM, "out of memory");
	/* A deferred removal of a device in use leaves it in place: its node
	 * must stay (udev, where it runs, removes it at the end). */
	ok = dmlib.dm_task_set_name(dmt, name) &&
	     (!deferred || dmlib.dm_task_deferred_remove(dmt)) &&
	     dmlib.dm_task_retry_remove(dmt) &&
	     dmlib.dm_task_set_cookie(dmt, &cookie,
				      deferred && info.open_count > 0
					      ? DM_UDEV_DISABLE_LIBRARY_FALLBACK
					      : 0) &&
	     dmlib.dm_task_run(dmt);
	dmlib.dm_udev_wait(cookie);
	dmlib.dm_task_destroy(dmt);
	if (!ok)
		return ht_fail(err, EBUSY, "%s: cannot remove the device: %s",
			       name, dm_last_error);
	linear_remove(name, deferred);
	return 0;
}

/* /dev/<name> of a "major:minor" device, from sysfs. */
static void dev_path(char *dev, size_t len)
{
	char sys[PATH_MAX], line[256];
	FILE *f;

	snprintf(sys, sizeof(sys), "/sys/dev/block/%s/uevent", dev);
	f = fopen(sys, "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "DEVNAME=", 8)) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(dev, len, "/dev/%s", line + 8);
		}
	if (f)
		fclose(f);
}

/* A device's one target as the kernel reports it (its table or its
 * status). */
struct dm_target {
	char type[32];
	char params[4096];
	uint64_t length; /* sectors */
};

static int dm_target(const char *name, int type, struct dm_target *t,
		     struct ht_error *err)
{
	struct dm_task *dmt = dmlib.dm_task_create(type);
	uint64_t start, len = 0;
	char *tt = NULL, *pp = NULL;
	int ok;

	if (!dmt)
		return ht_fail(err, ENOMEM, "out of memory");
	ok = dmlib.dm_task_set_name(dmt, name) && dmlib.dm_task_run(dmt);
	if (ok)
		dmlib.dm_get_next_target(dmt, NULL, &start, &len, &tt, &pp);
	snprintf(t->type, sizeof(t->type), "%s", tt ? tt : "");
	snprintf(t->params, sizeof(t->params), "%s", pp ? pp : "");
	t->length = len;
	dmlib.dm_task_destroy(dmt);
	return ok ? 0
		  : ht_fail(err, EIO, "%s: cannot read the device: %s", name,
			    dm_last_error);
}

static int device_status(const char *name, struct verity_active *st,
			 struct ht_error *err)
{
	struct dm_target t;
	struct dm_info info;
	int r;

	memset(st, 0, sizeof(*st));
	r = dm_find(name, &info, err);
	if (r)
		return r;
	st->open_count = info.open_count;
	st->read_only = info.read_only;
	st->deferred_remove = info.deferred_remove;
	r = dm_target(name, DM_DEVICE_TABLE, &t, err);
	if (r)
		return r;
	st->size_sectors = t.length;
	if (strcmp(t.type, "verity"))
		return 0;
	st->is_verity = 1;
	r = verity_table_parse(t.params, st, err);
	if (r)
		return r;
	dev_path(st->data_dev, sizeof(st->data_dev));
	dev_path(st->hash_dev, sizeof(st->hash_dev));
	verity_loop_backing_file(st->data_dev, st->data_loop,
				 sizeof(st->data_loop));
	verity_loop_backing_file(st->hash_dev, st->hash_loop,
				 sizeof(st->hash_loop));
	if (st->fec_dev[0]) {
		dev_path(st->fec_dev, sizeof(st->fec_dev));
		verity_loop_backing_file(st->fec_dev, st->fec_loop,
					 sizeof(st->fec_loop));
	}
	r = dm_target(name, DM_DEVICE_STATUS, &t, err);
	if (!r)
		verity_status_parse(t.params, st);
	return r;
}

int verity_open(const char *name, struct verity_pair *pair,
		const struct verity_run *run, struct ht_error *err)
{
	return dm_restore(open_device(name, pair, run, err));
}

int verity_close(const char *name, enum verity_close_how how,
		 struct ht_error *err)
{
	return dm_restore(close_device(name, how, err));
}

int verity_status(const char *name, struct verity_active *st,
		  struct ht_error *err)
{
	return dm_restore(device_status(name, st, err));
}
