/* fs-verity's ioctls (verity/fsverity/kernel.h). Each message names the
 * file and says what the error means for fs-verity. */
#include "verity/fsverity/kernel.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fsverity.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

/* A file to run an ioctl on: opened read-only, never waiting on a FIFO,
 * a regular file. */
static int open_regular(const char *path, int *fd, struct ht_error *err)
{
	struct stat st;

	*fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (*fd < 0)
		return errno == ENOENT
			       ? ht_fail(err, ENODEV, "%s: does not exist", path)
			       : ht_fail(err, errno, "%s: cannot open: %s",
					 path, strerror(errno));
	if (fstat(*fd, &st) < 0) {
		int e = errno;

		close(*fd);
		return ht_fail(err, e, "%s: %s", path, strerror(e));
	}
	if (!S_ISREG(st.st_mode)) {
		close(*fd);
		return S_ISDIR(st.st_mode)
			       ? ht_fail(err, EISDIR,
					 "%s: is a directory, not a file", path)
			       : ht_fail(err, EINVAL,
					 "%s: not a regular file", path);
	}
	return 0;
}

/* What an errno of the fs-verity ioctls means. */
static const char *meaning(int e, const char *op)
{
	switch (e) {
	case ENOTTY:
	case EOPNOTSUPP:
		return "the file system does not support fs-verity (ext4 and "
		       "f2fs need the verity feature: tune2fs -O verity; the "
		       "kernel CONFIG_FS_VERITY)";
	case ENODATA:
		return "not a verity file (fastverity fsverity enable makes "
		       "it one)";
	case EEXIST:
		return "already a verity file";
	case ETXTBSY:
		return "the file is open for writing";
	case EROFS:
		return "the file system is read-only";
	case EKEYREJECTED:
	case EBADMSG:
		return "the kernel refused the signature (not made by a "
		       "certificate in the .fs-verity keyring, or not of "
		       "this file's digest)";
	case ENOKEY:
		return "the signer's certificate is not in the .fs-verity "
		       "keyring";
	case EMSGSIZE:
		return "the salt or signature is too large";
	case EFBIG:
		return "the file is too large for its tree";
	case EINVAL:
		return strcmp(op, "enable")
			       ? "the kernel refused the request"
			       : "the kernel refused the parameters (a block "
				 "size above the page size or the file "
				 "system's block size?)";
	default:
		return strerror(e);
	}
}

static int ioctl_failed(const char *path, const char *op, const char *name,
			struct ht_error *err)
{
	int e = errno;

	return ht_fail(err, e == ENOTTY ? EOPNOTSUPP : e, "%s: %s (%s): %s",
		       path, op, name, meaning(e, op));
}

int verity_fsv_enable(const char *path, const struct fsv_params *p,
	       const uint8_t *sig, size_t len, struct ht_error *err)
{
	struct fsverity_enable_arg arg;
	int fd, r = verity_fsv_params_check(p, err);

	if (r)
		return r;
	if (len > UINT32_MAX)
		return ht_fail(err, EINVAL, "a signature of %zu bytes", len);
	memset(&arg, 0, sizeof(arg));
	arg.version = 1;
	arg.hash_algorithm = (uint32_t)p->alg;
	arg.block_size = p->block_size;
	arg.salt_size = (uint32_t)p->salt_size;
	arg.salt_ptr = (uintptr_t)p->salt;
	arg.sig_size = (uint32_t)len;
	arg.sig_ptr = (uintptr_t)sig;
	if ((r = open_regular(path, &fd, err)))
		return r;
	if (ioctl(fd, FS_IOC_ENABLE_VERITY, &arg) != 0)
		r = ioctl_failed(path, "enable", "FS_IOC_ENABLE_VERITY", err);
	close(fd);
	return r;
}

int verity_fsv_measure(const char *path, unsigned *alg, uint8_t *digest, size_t *len,
		struct ht_error *err)
{
	/* the header and room for the longest digest after it */
	_Alignas(struct fsverity_digest) uint8_t
		buf[sizeof(struct fsverity_digest) + HT_MAX_DIGEST_SIZE];
	struct fsverity_digest *m = (struct fsverity_digest *)buf;
	int fd, r;

	if ((r = open_regular(path, &fd, err)))
		return r;
	memset(buf, 0, sizeof(buf));
	m->digest_size = HT_MAX_DIGEST_SIZE;
	if (ioctl(fd, FS_IOC_MEASURE_VERITY, m) != 0)
		r = ioctl_failed(path, "measure", "FS_IOC_MEASURE_VERITY", err);
	else if (m->digest_size > HT_MAX_DIGEST_SIZE)
		r = ht_fail(err, EINVAL, "%s: a digest of %u bytes", path,
			    m->digest_size);
	close(fd);
	if (r)
		return r;
	*alg = m->digest_algorithm;
	*len = m->digest_size;
	memcpy(digest, m->digest, m->digest_size);
	return 0;
}

#define METADATA_CHUNK (64u << 10)

int verity_fsv_read_metadata(const char *path, unsigned type, uint64_t offset,
		      uint64_t length,
		      int (*out)(void *ctx, const void *buf, size_t n),
		      void *ctx, struct ht_error *err)
{
	struct fsverity_read_metadata_arg arg;
	uint8_t *buf;
	int fd, r;

	if (type < FS_VERITY_METADATA_TYPE_MERKLE_TREE ||
	    type > FS_VERITY_METADATA_TYPE_SIGNATURE)
		return ht_fail(err, EINVAL,
			       "metadata type %u: merkle_tree (1), descriptor "
			       "(2) or signature (3)",
			       type);
	if ((r = open_regular(path, &fd, err)))
		return r;
	buf = malloc(METADATA_CHUNK);
	if (!buf) {
		close(fd);
		return ht_fail(err, ENOMEM, "out of memory");
	}
	for (uint64_t done = 0; !length || done < length;) {
		uint64_t want = METADATA_CHUNK;
		int n;

		if (length && length - done < want)
			want = length - done;
		memset(&arg, 0, sizeof(arg));
		arg.metadata_type = type;
		arg.offset = offset + done;
		arg.length = want;
		arg.buf_ptr = (uintptr_t)buf;
		n = ioctl(fd, FS_IOC_READ_VERITY_METADATA, &arg);
		if (n < 0 && errno == ENODATA &&
		    type == FS_VERITY_METADATA_TYPE_SIGNATURE) {
			/* a verity file without one */
			r = ht_fail(err, ENODATA,
				    "%s: read metadata "
				    "(FS_IOC_READ_VERITY_METADATA): the file "
				    "has no built-in signature",
				    path);
			break;
		}
		if (n < 0) {
			r = ioctl_failed(path, "read metadata",
					 "FS_IOC_READ_VERITY_METADATA", err);
			break;
		}
		if (n == 0)
			break;
		if ((r = out(ctx, buf, (size_t)n))) {
			r = ht_fail(err, r < 0 ? -r : EIO,
				    "%s: the metadata read could not be "
				    "written out: %s",
				    path, strerror(r < 0 ? -r : EIO));
			break;
		}
		done += (uint64_t)n;
		if (offset + done < offset) /* no wrap past 2^64 */
			break;
	}
	free(buf);
	close(fd);
	return r;
}
