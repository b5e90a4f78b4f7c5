/* Signing helpers, run as avbtool runs them (helper.h). The program gets
 * the block on a socket rather than a pipe, so that one that exits
 * without reading it cannot end the caller with SIGPIPE. */
#include "verity/container/avb/helper.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "verity/container/avb/rsa.h"

/* DER of the DigestInfo before the digest (RFC 8017, 9.2, note 1). */
static const uint8_t sha256_info[] = {0x30, 0x31, 0x30, 0x0d, 0x06,
				      0x09, 0x60, 0x86, 0x48, 0x01,
				      0x65, 0x03, 0x04, 0x02, 0x01,
				      0x05, 0x00, 0x04, 0x20};
static const uint8_t sha512_info[] = {0x30, 0x51, 0x30, 0x0d, 0x06,
				      0x09, 0x60, 0x86, 0x48, 0x01,
				      0x65, 0x03, 0x04, 0x02, 0x03,
				      0x05, 0x00, 0x04, 0x40};

#define MAX_SIG 1024 /* RSA-8192 */

/* EMSA-PKCS1-v1_5 of digest, n bytes: what avbtool hands the helper. */
static int pad_block(const struct avb_algorithm_info *alg,
		     const uint8_t *digest, uint8_t *block, size_t n)
{
	const uint8_t *info = alg->hash_size == 32 ? sha256_info : sha512_info;
	size_t ilen = alg->hash_size == 32 ? sizeof(sha256_info)
					   : sizeof(sha512_info);

	if (n < ilen + alg->hash_size + 11)
		return -1;
	block[0] = 0x00;
	block[1] = 0x01;
	memset(block + 2, 0xff, n - 3 - ilen - alg->hash_size);
	block[n - 1 - ilen - alg->hash_size] = 0x00;
	memcpy(block + n - ilen - alg->hash_size, info, ilen);
	memcpy(block + n - alg->hash_size, digest, alg->hash_size);
	return 0;
}

/* argv started with stdin_fd and stdout_fd (-1: /dev/null), directly
 * (no shell); its pid, or -1 with the message set. */
static pid_t spawn(const char *const *argv, int stdin_fd, int stdout_fd,
		   struct ht_error *err)
{
	pid_t pid = fork();

	if (pid < 0)
		ht_fail(err, EIO, "signing helper %s: cannot start: %s",
			argv[0], strerror(errno));
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		if (null >= 0) {
			dup2(stdin_fd >= 0 ? stdin_fd : null, 0);
			dup2(stdout_fd >= 0 ? stdout_fd : null, 1);
		}
		signal(SIGPIPE, SIG_DFL);
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	return pid;
}

static int wait_for(const char *program, pid_t pid, int *status,
		    struct ht_error *err)
{
	while (waitpid(pid, status, 0) < 0)
		if (errno != EINTR)
			return ht_fail(err, EIO,
				       "signing helper %s: cannot wait for "
				       "it: %s",
				       program, strerror(errno));
	return 0;
}

static int judge_status(const char *program, int status, struct ht_error *err)
{
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return ht_fail(err, EIO,
			       "signing helper %s could not be run (not "
			       "found, or not executable)",
			       program);
	if (WIFEXITED(status) && WEXITSTATUS(status))
		return ht_fail(err, EIO,
			       "signing helper %s failed (exit status %d): "
			       "nothing was signed",
			       program, WEXITSTATUS(status));
	if (WIFSIGNALED(status))
		return ht_fail(err, EIO,
			       "signing helper %s was killed by signal %d: "
			       "nothing was signed",
			       program, WTERMSIG(status));
	return 0;
}

/* The block on a socket, the answer read from a pipe. */
static int sign_streams(const char *program, const char *const *argv,
			const uint8_t *block, size_t n, uint8_t *sig,
			size_t *got, struct ht_error *err)
{
	int sv[2] = {-1, -1}, out[2] = {-1, -1}, status = 0, r;
	uint8_t *ans = NULL;
	size_t len = 0;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0 ||
	    pipe2(out, O_CLOEXEC) < 0) {
		r = ht_fail(err, EIO, "signing helper %s: %s", program,
			    strerror(errno));
		goto out;
	}
	/* the block is small: it fits the socket's buffer before the
	 * program runs, so nothing waits on the other end */
	if (send(sv[0], block, n, MSG_NOSIGNAL) != (ssize_t)n) {
		r = ht_fail(err, EIO, "signing helper %s: %s", program,
			    strerror(errno));
		goto out;
	}
	shutdown(sv[0], SHUT_WR);
	if (!(ans = malloc(MAX_SIG + 1))) {
		r = ht_fail(err, ENOMEM, "out of memory");
		goto out;
	}
	{
		pid_t pid = spawn(argv, sv[1], out[1], err);

		if (pid < 0) {
			r = -EIO;
			goto out;
		}
		close(sv[1]);
		sv[1] = -1;
		close(out[1]);
		out[1] = -1;
		/* everything it answers (more than a signature is an error,
		 * and read to the end so that it does not block) */
		for (;;) {
			uint8_t sink[4096];
			ssize_t k = len <= MAX_SIG
					    ? read(out[0], ans + len,
						   MAX_SIG + 1 - len)
					    : read(out[0], sink, sizeof(sink));

			if (k < 0 && errno == EINTR)
				continue;
			if (k <= 0)
				break;
			if (len <= MAX_SIG)
				len += (size_t)k;
		}
		if ((r = wait_for(program, pid, &status, err)))
			goto out;
	}
	if (!(r = judge_status(program, status, err))) {
		*got = len;
		memcpy(sig, ans, len < MAX_SIG ? len : MAX_SIG);
	}
out:
	for (int i = 0; i < 2; i++) {
		if (sv[i] >= 0)
			close(sv[i]);
		if (out[i] >= 0)
			close(out[i]);
	}
	free(ans);
	return r;
}

/* The private directory emptied (the block's file, and whatever the
 * program left beside it) and removed. */
static void remove_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (d) {
		while ((e = readdir(d)))
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
				(void)unlinkat(dirfd(d), e->d_name, 0);
		closedir(d);
	}
	rmdir(dir);
}

/* The block in a file of a private directory, overwritten by the
 * program. */
static int sign_file(const char *program, const char *tmp, const char **argv,
		     const uint8_t *block, size_t n, uint8_t *sig, size_t *got,
		     struct ht_error *err)
{
	char dir[4096], file[4200];
	int fd, status = 0, r;
	ssize_t k;

	if ((size_t)snprintf(dir, sizeof(dir), "%s/fastverity-sign.XXXXXX",
			     tmp) >= sizeof(dir) ||
	    !mkdtemp(dir))
		return ht_fail(err, EIO,
			       "signing helper %s: cannot make a directory "
			       "for its file in %s: %s",
			       program, tmp, strerror(errno));
	snprintf(file, sizeof(file), "%s/block", dir);
	fd = open(file, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, block, n) != (ssize_t)n) {
		r = ht_fail(err, EIO, "signing helper %s: %s: %s", program,
			    file, strerror(errno));
		goto out;
	}
	close(fd);
	fd = -1;
	argv[3] = file;
	{
		pid_t pid = spawn(argv, -1, -1, err);

		if (pid < 0) {
			r = -EIO;
			goto out;
		}
		if ((r = wait_for(program, pid, &status, err)) ||
		    (r = judge_status(program, status, err)))
			goto out;
	}
	if ((fd = open(file, O_RDONLY | O_CLOEXEC)) < 0) {
		r = ht_fail(err, EIO, "signing helper %s: %s: %s", program,
			    file, strerror(errno));
		goto out;
	}
	k = read(fd, sig, MAX_SIG + 1);
	*got = k < 0 ? 0 : (size_t)k;
out:
	if (fd >= 0)
		close(fd);
	remove_dir(dir);
	return r;
}

int verity_avb_helper_sign(const char *program, int files, const char *dir,
			   const char *key_path, struct evp_pkey_st *key,
			   const struct avb_algorithm_info *alg,
			   const uint8_t *digest, uint8_t *sig,
			   struct ht_error *err)
{
	const size_t n = alg->key_bits / 8;
	const char *argv[5] = {program, alg->name, key_path, NULL, NULL};
	uint8_t block[MAX_SIG], answer[MAX_SIG + 1];
	size_t got = 0;
	int r;

	if (n > MAX_SIG || pad_block(alg, digest, block, n))
		return ht_fail(err, EINVAL, "%s: no signing block for %s",
			       program, alg->name);
	r = files ? sign_file(program, dir, argv, block, n, answer, &got, err)
		  : sign_streams(program, argv, block, n, answer, &got, err);
	if (r)
		return r;
	if (got != n)
		return ht_fail(err, EIO,
			       "signing helper %s answered %s%zu bytes, not "
			       "the %zu bytes of a %s signature",
			       program, got > MAX_SIG ? "more than " : "",
			       got > MAX_SIG ? (size_t)MAX_SIG : got, n,
			       alg->name);
	if (!verity_avb_verify_digest(key, alg, digest, answer))
		return ht_fail(err, EIO,
			       "signing helper %s answered a signature that "
			       "the key %s does not verify: not used",
			       program, key_path);
	memcpy(sig, answer, n);
	return 0;
}
