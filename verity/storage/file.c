#include "verity/storage/file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "verity/storage/device.h"

int verity_read_file(const char *path, const char *what, size_t max,
		     uint8_t **out, size_t *len, struct ht_error *err)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	struct stat st;
	size_t got = 0;
	uint8_t *buf = NULL;
	int r = 0;

	*out = NULL;
	*len = 0;
	if (fd < 0)
		return ht_fail(err, errno == ENOENT ? ENOENT : EINVAL,
			       "%s: cannot read %s: %s", path, what,
			       strerror(errno));
	if (fstat(fd, &st) < 0)
		r = ht_fail(err, EINVAL, "%s: cannot read %s: %s", path, what,
			    strerror(errno));
	else if (!S_ISREG(st.st_mode))
		r = ht_fail(err, EINVAL, "%s: cannot read %s: %s", path, what,
			    verity_file_kind(st.st_mode));
	else if ((uint64_t)st.st_size > max)
		r = ht_fail(err, EINVAL,
			    "%s: %s of %llu bytes is too large (at most %zu)",
			    path, what, (unsigned long long)st.st_size, max);
	else if (!(buf = malloc((size_t)st.st_size + 1)))
		r = ht_fail(err, ENOMEM, "out of memory");
	/* to the end, whatever fstat said: a file may change */
	while (!r) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size + 1 - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			r = ht_fail(err, EIO, "%s: cannot read %s: %s", path,
				    what, strerror(errno));
		else if (n == 0)
			break;
		else if ((got += (size_t)n) > (size_t)st.st_size)
			r = ht_fail(err, EINVAL, "%s: %s grew while being read",
				    path, what);
	}
	close(fd);
	if (r) {
		free(buf);
		return r;
	}
	buf[got] = 0;
	*out = buf;
	*len = got;
	return 0;
}
