/* A firmware set's walk shown as it goes (include/fastverity.h, fv_show:
 * FV_SHOW_SET_VERIFY, FV_SHOW_AVB_VERIFY): each step's words as it ends,
 * bad blocks as the verify finds them, or the --json document, handed to
 * the caller's visitor as items (verity/show/show.h). The walk is
 * walk.c's; this only says what it found: fastverity's verify of a set
 * (show.c) or avbtool's verify_image (avbtool.c). */
#ifndef FV_SLOT_SHOW_H
#define FV_SLOT_SHOW_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stddef.h>
#include <stdint.h>

#include "verity/show/check.h"
#include "verity/show/show.h"
#include "verity/slot/walk.h"

/* Whose words: fastverity's verify of a set, avbtool's verify_image. */
enum slot_words { SLOT_WORDS_SET = 1, SLOT_WORDS_AVBTOOL = 2 };

/* What req asks of the walk into ask (the set, its key's file, slot,
 * partitions, devices and flags; the expected chains into *x, to free,
 * NULL for none): 0, or -ENOMEM. */
int verity_slot_ask_of(const struct fv_slot_request *req, struct slot_ask *ask,
		       struct slot_expected **x);

/* Walks ask's set into w (verity_slot_walk's), shown on sh: ask's told
 * and run's report are the show's. < 0: the walk's error (nothing said
 * of it); 0: the set holds; > 0: an errno, what the steps found (said):
 * the first refused step's, else EPERM (a partition failed its check),
 * else ENODEV (an image missing); sh's visitor's return, as it is. */
int verity_slot_show(struct slot_walk *w, struct slot_ask *ask,
		     struct verity_run *run, enum slot_words how,
		     struct show *sh, struct ht_error *err);

/* ---- shared by show.c and avbtool.c ---- */

/* The walk as it is shown. */
struct slot_view {
	struct show *sh;       /* the caller's */
	struct show doc, fail; /* --json: the partitions, the failures of
				* the step checked now, kept */
	struct show_kept parts, bad;
	enum slot_words how;
	const struct slot_ask *ask;
	const struct slot_walk *w;
	int super, failing;      /* failing: the step checked now keeps its
				  * failures (--json) */
	const char *name, *path; /* the step checked now */
	size_t partition;        /* its logical partition (SIZE_MAX) */
	int error;               /* the first refused step's errno */
	int bad_seen, missing;
	size_t checked; /* partitions whose data was checked */
	size_t stopped; /* avbtool's: the step that failed */
	int corrupted;  /* avbtool's --json: a partition failed */
	char *said;     /* avbtool's: the last error said (NULL: none) */
};

/* A step's message ("" for none). */
const char *verity_slot_message(const struct slot_step *st);
/* Who vouches for the descriptors of vbmeta step i. */
struct slot_vouch {
	const char *vbmeta;
	enum verity_trust trust;
	char words[512], algorithm[32], key_sha1[41];
};
void verity_slot_vouch(const struct slot_walk *w, size_t i,
		       struct slot_vouch *v);
/* --json: a partition's object opened, its members up to the result. */
void verity_slot_part_json(struct show *sh, const struct slot_step *st,
			   const char *kind, const struct slot_vouch *v,
			   const char *result);
/* The algorithm of a's vbmeta ("NONE" unsigned). */
const char *verity_slot_algorithm(const struct verity_android *a);
/* avbtool's steps (avbtool.c): told as each begins and ends, the block
 * failures, and the end of the walk. */
void verity_slot_avbtool_told(struct slot_view *v, size_t i, int done);
void verity_slot_avbtool_failed(struct slot_view *v,
				const struct verity_failure *f);
int verity_slot_avbtool_end(struct slot_view *v);

#endif
