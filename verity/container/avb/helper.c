/* Signing helpers, run as avbtool runs them (helper.h). The program gets
 * what it signs in an anonymous file rather than a pipe: one that exits
 * without reading it cannot end the caller with SIGPIPE, and a message of
 * any size (an ML-DSA helper gets the whole vbmeta) is there before it
 * starts, so that nothing waits on the other end. */
#include "verity/container/avb/helper.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "verity/storage/output.h"


/* DER of the DigestInfo before the digest (RFC 8017, 9.2, note 1). */
static const uint8_t sha256_info[] = {0x30, 0x31, 0x30, 0x0d, 0x06,
				      0x09, 0x60, 0x86, 0x48, 0x01,
				      0x65, 0x03, 0x04, 0x02, 0x01,
				      0x05, 0x00, 0x04, 0x20};
static const uint8_t sha512_info[] = {0x30, 0x51, 0x30, 0x0d, 0x06,
				      0x09, 0x60, 0x86, 0x48, 0x01,
				      0x65, 0x03, 0x04, 0x02, 0x03,
				      0x05, 0x00, 0x04, 0x40};

#define MAX_SIG VERITY_SCHEME_MAX_SIG /* ML-DSA-87 */

/* EMSA-PKCS1-v1_5 of digest, n bytes: what avbtool hands the helper. */
static int pad_block(const struct verity_scheme *alg,
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

/* The block in an anonymous file, the answer read from a pipe. */
static int sign_streams(const char *program, const char *const *argv,
			const uint8_t *block, size_t n, uint8_t *sig,
			size_t *got, struct ht_error *err)
{
	int in = -1, out[2] = {-1, -1}, status = 0, r;
	uint8_t *ans = NULL;
	size_t len = 0, done = 0;

	if ((in = memfd_create("fastverity-sign", MFD_CLOEXEC)) < 0 ||
	    pipe2(out, O_CLOEXEC) < 0) {
		r = ht_fail(err, EIO, "signing helper %s: %s", program,
			    strerror(errno));
		goto out;
	}
	while (done < n) {
		ssize_t k = write(in, block + done, n - done);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			r = ht_fail(err, EIO, "signing helper %s: %s", program,
				    k < 0 ? strerror(errno) : "short write");
			goto out;
		}
		done += (size_t)k;
	}
	if (lseek(in, 0, SEEK_SET) != 0) {
		r = ht_fail(err, EIO, "signing helper %s: %s", program,
			    strerror(errno));
		goto out;
	}
	if (!(ans = malloc(MAX_SIG + 1))) {
		r = ht_fail(err, ENOMEM, "out of memory");
		goto out;
	}
	{
		pid_t pid = spawn(argv, in, out[1], err);

		if (pid < 0) {
			r = -EIO;
			goto out;
		}
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
	if (in >= 0)
		close(in);
	for (int i = 0; i < 2; i++)
		if (out[i] >= 0)
			close(out[i]);
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
	/* a signal meanwhile (the command's handler): both removed */
	verity_output_register_dir(dir);
	snprintf(file, sizeof(file), "%s/block", dir);
	fd = open(file, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd >= 0)
		verity_output_register(file);
	for (size_t done = 0; fd >= 0 && done < n;) {
		ssize_t w = write(fd, block + done, n - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (!w)
				errno = EIO;
			close(fd);
			fd = -1;
			break;
		}
		done += (size_t)w;
	}
	if (fd < 0) {
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
	verity_output_forget(file);
	verity_output_forget_dir(dir);
	return r;
}

int verity_avb_helper_sign(const char *program, int files, const char *dir,
			   const char *key_path, const struct verity_sigkey *key,
			   const struct verity_scheme *alg,
			   const struct verity_msg *m, size_t nm,
			   uint8_t *digest, uint8_t *sig, struct ht_error *err)
{
	const size_t n = alg->sig_size;
	const char *argv[5] = {program, alg->name, key_path, NULL, NULL};
	uint8_t block[1024], answer[MAX_SIG + 1];
	const uint8_t *give = block;
	uint8_t *whole = NULL;
	size_t give_len = n, got = 0;
	int r;

	if (n > MAX_SIG)
		return ht_fail(err, EINVAL, "%s: no signing block for %s",
			       program, alg->name);
	if (alg->kind == VERITY_SCHEME_MLDSA) {
		/* ML-DSA signs the message itself (FORMAT-android17 A.6) */
		give_len = 0;
		for (size_t i = 0; i < nm; i++)
			give_len += m[i].len;
		if (!(whole = malloc(give_len ? give_len : 1)))
			return ht_fail(err, ENOMEM, "out of memory");
		give_len = 0;
		for (size_t i = 0; i < nm; i++) {
			memcpy(whole + give_len, m[i].p, m[i].len);
			give_len += m[i].len;
		}
		give = whole;
	} else {
		/* RSA: the PKCS#1 v1.5 block of the digest */
		if (n > sizeof(block))
			return ht_fail(err, EINVAL,
				       "%s: no signing block for %s", program,
				       alg->name);
		if ((r = verity_scheme_digest(alg, m, nm, digest, err)))
			return r;
		if (pad_block(alg, digest, block, n))
			return ht_fail(err, EINVAL,
				       "%s: no signing block for %s", program,
				       alg->name);
	}
	r = files ? sign_file(program, dir, argv, give, give_len, answer, &got,
			      err)
		  : sign_streams(program, argv, give, give_len, answer, &got,
				 err);
	free(whole);
	if (r)
		return r;
	if (got != n)
		return ht_fail(err, EIO,
			       "signing helper %s answered %s%zu bytes, not "
			       "the %zu bytes of a %s signature",
			       program, got > MAX_SIG ? "more than " : "",
			       got > MAX_SIG ? (size_t)MAX_SIG : got, n,
			       alg->name);
	r = verity_scheme_verify(alg, key->blob, key->blob_len, m, nm, NULL,
				 answer, n, key_path, err);
	if (r == -EPERM)
		return ht_fail(err, EIO,
			       "signing helper %s answered a signature that "
			       "the key %s does not verify: not used",
			       program, key_path);
	if (r)
		return r;
	memcpy(sig, answer, n);
	return 0;
}
