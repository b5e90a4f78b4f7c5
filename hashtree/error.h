/* Error reporting shared by the library: functions return 0 or a negative
 * errno and leave a one-line message here for the caller to show. */
#ifndef FV_ERROR_H
#define FV_ERROR_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <pthread.h>
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
	HT_PARAM_ROOT_HASH,    /* the root hash */
	HT_PARAM_PARTITION,    /* a disk image's partition, by its role */
	HT_PARAM_COUNT
};

/* A message's text is kept once, in a store of the thread that made it
 * (a few messages, the oldest made again first); the error keeps where.
 * An error of {0} has no message. A thread started by ht_thread_start
 * or ht_thread_create writes to a store its starter keeps, so that after
 * the join (ht_thread_join) the starter reads it and hands it over into
 * its own (ht_handover). An error whose text was made again since, or
 * another thread's, says HT_ERROR_LOST, never another message. */
#define HT_ERROR_SLOTS 4
/* The fix's template is kept after the message, cut to this length. */
#define HT_FIX_MAX 256
#define HT_ERROR_LOST "(this error's message is lost: more came after it)"

struct ht_store;

struct ht_error {
	uint64_t serial;        /* the message's number; 0: no message */
	struct ht_store *store; /* the store that keeps its text */
	uint32_t slot;          /* where in it */
	enum ht_param param;    /* HT_PARAM_NONE: no fix to render again */
	size_t problem_len;     /* the problem's length, before " (fix)" */
	uint64_t value[2];      /* the values the fix suggests; the fix's
				 * template: %0 the parameter, %1 the parameter
				 * set to value[0], %2 value[0] alone, %3
				 * value[1] alone */
};
_Static_assert(sizeof(struct ht_error) <= 512, "struct ht_error grew");

/* The whole message, problem (fix); "" for none. Valid until this thread
 * makes HT_ERROR_SLOTS more. */
const char *ht_msg(const struct ht_error *err);

/* dst takes src's message, its text copied into this thread's store
 * (src, after a join, may be a worker's); dst may be src. */
void ht_handover(struct ht_error *dst, const struct ht_error *src);

/* The same into the thread's one kept place, which only the next
 * ht_keep replaces (the public API's last error). */
void ht_keep(struct ht_error *dst, const struct ht_error *src);

/* For thread.c: a store lent to a thread about to start (NULL when none
 * can be had: the thread keeps its own, lost to its starter at its end),
 * the started thread's use of it, the thread it went to and its return
 * when that thread is joined. */
struct ht_store *ht_store_lend(void);
void ht_store_use(struct ht_store *s);
void ht_store_lent_to(struct ht_store *s, pthread_t thread);
void ht_store_unlend(struct ht_store *s);
void ht_store_joined(pthread_t thread);

/* Sets the message (printf-style) and returns -errnum, so that callers can
 * write `return ht_fail(err, EINVAL, "...")`. err may be NULL. */
int ht_fail(struct ht_error *err, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int ht_failv(struct ht_error *err, int errnum, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

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
