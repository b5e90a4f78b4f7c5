/* LD_PRELOAD shim for the fault-injection tests: counts the I/O calls a
 * command makes on files (descriptors above 2) and makes call FAULT_AT
 * fail or come up short:
 *   FAULT_KIND=eio     the call fails with EIO
 *   FAULT_KIND=enospc  a write fails with ENOSPC (a read with EIO)
 *   FAULT_KIND=eintr   the call fails with EINTR (callers retry)
 *   FAULT_KIND=short   the call moves half the bytes asked for
 * FAULT_COUNT_FILE=path writes the number of calls counted at exit.
 * FAULT_HOOK_AT=N with FAULT_HOOK_CMD=command runs the shell command just
 * before call N (another writer, racing the command under test).
 * FAULT_BAD=name:start:end makes every pread of a file whose path ends in
 * name fail with EIO when it touches bytes [start, end): a medium with
 * unreadable sectors, until a write covers them (a disk remaps a sector
 * that is written). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

static atomic_long calls;
static long fault_at = -1, hook_at = -1;
static const char *kind = "eio", *hook_cmd;
static char bad_name[256];
static long long bad_start, bad_end;

__attribute__((constructor)) static void init(void)
{
	const char *at = getenv("FAULT_AT"), *k = getenv("FAULT_KIND");
	const char *hook = getenv("FAULT_HOOK_AT"), *bad = getenv("FAULT_BAD");

	if (at)
		fault_at = atol(at);
	if (k)
		kind = k;
	if (hook)
		hook_at = atol(hook);
	hook_cmd = getenv("FAULT_HOOK_CMD");
	if (bad && sscanf(bad, "%255[^:]:%lld:%lld", bad_name, &bad_start,
			  &bad_end) != 3)
		bad_name[0] = '\0';
	/* the hook's shell runs without the shim */
	unsetenv("LD_PRELOAD");
}

/* 1 when an I/O of [off, off + len) on fd touches the bad range. */
static int bad_read(int fd, size_t len, off_t off)
{
	char link[64], path[4096];
	ssize_t n;
	size_t nl = strlen(bad_name);

	if (!bad_name[0] || off >= bad_end || off + (off_t)len <= bad_start)
		return 0;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n < 0)
		return 0;
	path[n] = '\0';
	return (size_t)n >= nl && !strcmp(path + n - nl, bad_name);
}

__attribute__((destructor)) static void fini(void)
{
	const char *path = getenv("FAULT_COUNT_FILE");
	FILE *f;

	if (!path || !(f = fopen(path, "w")))
		return;
	fprintf(f, "%ld\n", atomic_load(&calls));
	fclose(f);
}

/* 0: go on; 1: fail with *e; 2: move *len / 2 bytes */
static int decide(int fd, int is_write, size_t *len, int *e)
{
	long n;

	if (fd <= 2)
		return 0;
	n = atomic_fetch_add(&calls, 1) + 1;
	if (n == hook_at && hook_cmd && system(hook_cmd) != 0)
		fprintf(stderr, "shim: the hook failed: %s\n", hook_cmd);
	if (n != fault_at)
		return 0;
	if (!strcmp(kind, "short") && len && *len > 1) {
		*len /= 2;
		return 2;
	}
	if (!strcmp(kind, "eintr"))
		*e = EINTR;
	else if (!strcmp(kind, "enospc") && is_write)
		*e = ENOSPC;
	else
		*e = EIO;
	return 1;
}

typedef ssize_t (*pread_fn)(int, void *, size_t, off_t);
typedef ssize_t (*pwrite_fn)(int, const void *, size_t, off_t);
typedef ssize_t (*read_fn)(int, void *, size_t);
typedef ssize_t (*write_fn)(int, const void *, size_t);
typedef int (*fsync_fn)(int);

#define REAL(name, type)         \
	static type real_##name; \
	if (!real_##name)        \
	real_##name = (type)dlsym(RTLD_NEXT, #name)

ssize_t pread64(int fd, void *buf, size_t len, off_t off)
{
	REAL(pread64, pread_fn);
	int e = EIO;

	int d = decide(fd, 0, &len, &e);

	if (d == 1 || bad_read(fd, len, off)) {
		errno = d == 1 ? e : EIO;
		return -1;
	}
	return real_pread64(fd, buf, len, off);
}

ssize_t pread(int fd, void *buf, size_t len, off_t off)
{
	return pread64(fd, buf, len, off);
}

ssize_t pwrite64(int fd, const void *buf, size_t len, off_t off)
{
	REAL(pwrite64, pwrite_fn);
	int e;

	if (decide(fd, 1, &len, &e) == 1) {
		errno = e;
		return -1;
	}
	/* the written range is readable again */
	if (bad_read(fd, len, off) && off <= bad_start &&
	    off + (off_t)len >= bad_end)
		bad_name[0] = '\0';
	return real_pwrite64(fd, buf, len, off);
}

ssize_t pwrite(int fd, const void *buf, size_t len, off_t off)
{
	return pwrite64(fd, buf, len, off);
}

ssize_t read(int fd, void *buf, size_t len)
{
	REAL(read, read_fn);
	int e;

	if (decide(fd, 0, &len, &e) == 1) {
		errno = e;
		return -1;
	}
	return real_read(fd, buf, len);
}

ssize_t write(int fd, const void *buf, size_t len)
{
	REAL(write, write_fn);
	int e;

	if (decide(fd, 1, &len, &e) == 1) {
		errno = e;
		return -1;
	}
	return real_write(fd, buf, len);
}

int fsync(int fd)
{
	REAL(fsync, fsync_fn);
	int e;

	if (decide(fd, 1, NULL, &e) == 1) {
		errno = e == EINTR ? EIO : e; /* fsync is not restarted */
		return -1;
	}
	return real_fsync(fd);
}
