/* The command tests' cp and cmp for several files in one process: the
 * fault-injection loops reset and compare two to four files after each of
 * about a thousand runs, and a process costs 3-5 ms on the test machine.
 *   fvfiles copy SRC DST [SRC DST ...]  each DST made a copy of its SRC
 *                                       (as cp: an existing DST is
 *                                       truncated and rewritten)
 *   fvfiles same A B [A B ...]          exit 0 when every pair holds the
 *                                       same bytes, 1 when one differs,
 *                                       2 when one cannot be read (cmp -s)
 * Nothing is printed but errors of copy. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { CHUNK = 1 << 16 };

static ssize_t read_full(int fd, char *buf, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = read(fd, buf + got, len - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

static int write_full(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

static int copy(const char *src, const char *dst)
{
	static char buf[CHUNK];
	struct stat st;
	int in = open(src, O_RDONLY), out = -1, rc = 1;
	ssize_t n;

	if (in < 0 || fstat(in, &st) < 0)
		goto fail;
	out = open(dst, O_WRONLY | O_CREAT | O_TRUNC, st.st_mode & 07777);
	if (out < 0)
		goto fail;
	while ((n = read_full(in, buf, sizeof(buf))) > 0)
		if (write_full(out, buf, (size_t)n) < 0)
			goto fail;
	if (n < 0)
		goto fail;
	rc = 0;
fail:
	if (rc)
		fprintf(stderr, "fvfiles: copy %s %s: %s\n", src, dst,
			strerror(errno));
	if (in >= 0)
		close(in);
	if (out >= 0 && close(out) < 0 && !rc) {
		fprintf(stderr, "fvfiles: copy %s %s: %s\n", src, dst,
			strerror(errno));
		rc = 1;
	}
	return rc;
}

/* 0 the same bytes, 1 different, 2 unreadable */
static int same(const char *a, const char *b)
{
	static char x[CHUNK], y[CHUNK];
	int fa = open(a, O_RDONLY), fb = open(b, O_RDONLY), rc = 2;
	ssize_t na, nb;

	if (fa < 0 || fb < 0)
		goto out;
	for (;;) {
		na = read_full(fa, x, sizeof(x));
		nb = read_full(fb, y, sizeof(y));
		if (na < 0 || nb < 0)
			goto out;
		if (na != nb || memcmp(x, y, (size_t)na)) {
			rc = 1;
			goto out;
		}
		if (na == 0)
			break;
	}
	rc = 0;
out:
	if (fa >= 0)
		close(fa);
	if (fb >= 0)
		close(fb);
	return rc;
}

int main(int argc, char **argv)
{
	int copying;

	if (argc < 4 || argc % 2 ||
	    (strcmp(argv[1], "copy") && strcmp(argv[1], "same"))) {
		fprintf(stderr, "usage: fvfiles copy|same A B [A B ...]\n");
		return 2;
	}
	copying = !strcmp(argv[1], "copy");
	for (int i = 2; i < argc; i += 2) {
		int rc = copying ? copy(argv[i], argv[i + 1])
				 : same(argv[i], argv[i + 1]);

		if (rc)
			return rc;
	}
	return 0;
}
