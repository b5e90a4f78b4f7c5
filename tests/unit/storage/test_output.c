/* Outputs written whole (verity/storage/output.c): nothing under a
 * temporary name while one is written where the file system makes
 * unnamed files (O_TMPFILE), the old file kept until the commit, its
 * mode kept; the registry that a signal handler empties
 * (verity_output_remove_temporaries): named temporaries removed, files
 * grown in place cut back. */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_main.h"
#include "verity/storage/output.h"

static char dir[64];

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/fv-output.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			(void)unlinkat(dirfd(d), e->d_name, 0);
	if (d)
		closedir(d);
	rmdir(dir);
}

/* The names in dir, but "." and "..". */
static int entries(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

/* Does the file system of dir make unnamed files? */
static int has_tmpfile(void)
{
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);

	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

static void put(const char *path, const char *text, mode_t mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	ck_assert_int_eq(chmod(path, mode), 0);
}

static void holds(const char *path, const char *text)
{
	char buf[64] = {0};
	int fd = open(path, O_RDONLY);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(read(fd, buf, sizeof(buf) - 1), (ssize_t)strlen(text));
	close(fd);
	ck_assert_str_eq(buf, text);
}

/* An output replaced and one made new: while written (and when closed
 * without a commit) nothing but the old file is in the directory where
 * the file system makes unnamed files; the output opened again through
 * verity_device_output_path; the commit leaves the new bytes with the
 * old file's mode. */
START_TEST(output_unnamed_until_commit)
{
	struct verity_device d, again;
	struct verity_region r = {0};
	struct ht_error err;
	struct stat st;
	char path[128], fresh[128];
	char buf[4] = {0};

	snprintf(path, sizeof(path), "%s/out", dir);
	snprintf(fresh, sizeof(fresh), "%s/new", dir);
	put(path, "old", 0640);
	ck_assert_int_eq(verity_device_open_output(&d, path, "out", 0600, &err),
			 0);
	ck_assert_ptr_nonnull(d.tmp);
	if (has_tmpfile()) {
		ck_assert_int_eq(d.anonymous, 1);
		ck_assert_int_eq(entries(), 1);
	} else {
		ck_assert_int_eq(entries(), 2);
	}
	ck_assert_int_eq(verity_device_write(&d, 0, "new", 3, &err), 0);
	r.path = verity_device_output_path(&d);
	ck_assert_int_eq(verity_device_open_region(&again, &r,
						   VERITY_OPEN_READ, &err),
			 0);
	ck_assert_int_eq(verity_device_read(&again, 0, buf, 3, &err), 0);
	ck_assert_str_eq(buf, "new");
	verity_device_close(&again);
	holds(path, "old");
	ck_assert_int_eq(verity_device_commit(&d, &err), 0);
	verity_device_close(&d);
	holds(path, "new");
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_uint_eq(st.st_mode & 07777, 0640);
	ck_assert_int_eq(entries(), 1);

	/* a new output closed without a commit: nothing left */
	ck_assert_int_eq(verity_device_open_output(&d, fresh, "new", 0600, &err),
			 0);
	ck_assert_int_eq(verity_device_write(&d, 0, "abc", 3, &err), 0);
	verity_device_close(&d);
	ck_assert_int_eq(entries(), 1);
	ck_assert_int_eq(access(fresh, F_OK), -1);
}
END_TEST

/* Named temporaries: registered ones removed (once), forgotten ones
 * kept; a directory after its files. */
START_TEST(named_temporaries_removed)
{
	char a[128], b[128];

	snprintf(a, sizeof(a), "%s/.a.XXXXXX", dir);
	snprintf(b, sizeof(b), "%s/.b.XXXXXX", dir);
	put(a, "a", 0600);
	put(b, "b", 0600);
	verity_output_register(a);
	verity_output_register(b);
	verity_output_forget(b);
	verity_output_remove_temporaries();
	ck_assert_int_eq(access(a, F_OK), -1);
	ck_assert_int_eq(access(b, F_OK), 0);
	/* emptied: a file made again under the name is not removed */
	put(a, "a", 0600);
	verity_output_remove_temporaries();
	ck_assert_int_eq(access(a, F_OK), 0);
	/* a directory: removed after the files that were in it */
	{
		char sub[128], in[160];

		snprintf(sub, sizeof(sub), "%s/sub", dir);
		snprintf(in, sizeof(in), "%s/block", sub);
		ck_assert_int_eq(mkdir(sub, 0700), 0);
		verity_output_register_dir(sub);
		put(in, "x", 0600);
		verity_output_register(in);
		verity_output_remove_temporaries();
		ck_assert_int_eq(access(sub, F_OK), -1);
		ck_assert_int_eq(mkdir(sub, 0700), 0);
		verity_output_register_dir(sub);
		verity_output_forget_dir(sub);
		verity_output_remove_temporaries();
		ck_assert_int_eq(access(sub, F_OK), 0);
		ck_assert_int_eq(rmdir(sub), 0);
	}
	/* more names than slots: the registry stays bounded */
	for (int i = 0; i < 100; i++)
		verity_output_register(a);
	verity_output_remove_temporaries();
	ck_assert_int_eq(access(a, F_OK), -1);
	verity_output_remove_temporaries();
}
END_TEST

/* A file grown in place, registered to be cut back: cut to its size,
 * unless forgotten. */
START_TEST(grown_files_cut_back)
{
	char a[128];
	struct stat st;
	struct rlimit was, now;
	int fd;

	/* the file size limit lowered to the cut's size: no write grows
	 * it again (EFBIG, SIGXFSZ ignored as the command's handler does) */
	signal(SIGXFSZ, SIG_IGN);
	ck_assert_int_eq(getrlimit(RLIMIT_FSIZE, &was), 0);
	snprintf(a, sizeof(a), "%s/image", dir);
	put(a, "data", 0600);
	fd = open(a, O_RDWR);
	ck_assert_int_ge(fd, 0);
	verity_output_register_cut(fd, 4);
	ck_assert_int_eq(ftruncate(fd, 8192), 0);
	verity_output_remove_temporaries();
	ck_assert_int_eq(fstat(fd, &st), 0);
	ck_assert_int_eq(st.st_size, 4);
	ck_assert_int_eq(getrlimit(RLIMIT_FSIZE, &now), 0);
	ck_assert_uint_eq(now.rlim_cur, 4);
	ck_assert_int_eq(pwrite(fd, "grown", 5, 4096), -1);
	ck_assert_int_eq(errno, EFBIG);
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &was), 0);
	verity_output_register_cut(fd, 4);
	ck_assert_int_eq(ftruncate(fd, 8192), 0);
	verity_output_forget_cut(fd);
	verity_output_remove_temporaries();
	ck_assert_int_eq(fstat(fd, &st), 0);
	ck_assert_int_eq(st.st_size, 8192);
	close(fd);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {
		.name = "output", .setup = setup, .teardown = teardown};

	return run_unit(&u, UNIT_TESTS(output_unnamed_until_commit,
				       named_temporaries_removed,
				       grown_files_cut_back));
}
