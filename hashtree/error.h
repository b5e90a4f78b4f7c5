/* Error reporting shared by the library: functions return 0 or a negative
 * errno and leave a one-line message here for the caller to show. */
#ifndef FV_ERROR_H
#define FV_ERROR_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* Room for a message naming a few paths of PATH_MAX bytes whole. */
#define HT_ERROR_MAX (3 * 4096)

/* The parameter a message's fix sets. The library names it in its own
 * words; a caller with its own names for parameters (the command: its
 * options) renders the fix again with them (ht_render_fix). */
enum ht_param {
	HT_PARAM_NONE,
	HT_PARAM_DATA_BLOCKS,  /* the data block count */
	HT_PARAM_HASH_OFFSET,  /* the hash offset */
	HT_PARAM_FEC_ROOTS,    /* the parity's roots */
	HT_PARAM_FEC_OFFSET,   /* the parity's offset */
	HT_PARAM_PASSPHRASE,   /* the key's passphrase or token PIN */
	HT_PARAM_DRY_RUN,      /* a repair for real, not a dry run */
	HT_PARAM_CONTAINER,    /* the container an image is read as: value[0]
				* and value[1] the two readings (enum
				* verity_container) */
	HT_PARAM_TRUSTED_CERT, /* a certificate trusted to sign the root */
	HT_PARAM_TRUSTED_KEY,  /* the public key an Android vbmeta's signer
				* must have */
	HT_PARAM_COUNT
};

struct ht_error {
	char msg[HT_ERROR_MAX]; /* the whole message: problem (fix) */
	size_t problem_len;     /* the problem's length, before " (fix)" */
	enum ht_param param;    /* HT_PARAM_NONE: no fix to render again */
	uint64_t value[2];      /* the values the fix suggests */
	char fix[256];          /* the fix's template: %0 the parameter, %1 the
				 * parameter set to value[0], %2 value[0] alone, %3
				 * value[1] alone */
};

/* Sets the message (printf-style) and returns -errnum, so that callers can
 * write `return ht_fail(err, EINVAL, "...")`. err may be NULL. */
int ht_fail(struct ht_error *err, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The same with a fix that sets param (values v0, v1): the message is
 * the problem (printf-style), then " (fix)", the fix template rendered in
 * the library's words. */
int ht_fail_fix(struct ht_error *err, int errnum, enum ht_param param,
		uint64_t v0, uint64_t v1, const char *fix, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));

/* How a caller names each parameter: set to a value (a printf format of
 * one unsigned long long), and alone. */
struct ht_param_names {
	const char *with_value;
	const char *alone;
};

/* err's fix rendered with n (the names of err->param) into out. */
void ht_render_fix(const struct ht_error *err, const struct ht_param_names *n,
		   char *out, size_t len);
/* The whole message, its fix (when it has one) said with n, the names of
 * err->param (NULL, or an entry with a NULL name: the library's words);
 * returns what snprintf does. */
int ht_say(const struct ht_error *err, const struct ht_param_names *n,
	   char *out, size_t len);

/* A name from an image (a partition's, a label) as a message shows it:
 * control bytes, DEL and backslashes as \xNN, at most 256 bytes of it,
 * then "..." (fv_name_shown). Returns buf. */
#define HT_NAME_SHOWN_MAX (4 * 256 + 4)
const char *ht_name_shown(const void *name, size_t n, char *buf, size_t len);

#endif
