/* The library's operations on a verity pair: the one layer the command
 * and the public API (verity/api/api.c) both call, so that the two doors
 * cannot disagree. A signed root hash is checked before any block is
 * read; verify always checks the root first; with parity, verify is a
 * dry-run repair. */
#ifndef FV_OPS_H
#define FV_OPS_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include "verity/container/avb/image.h"
#include "verity/dm/activate.h"
#include "verity/tree/pair.h"
#include "verity/tree/update.h"

int verity_op_format(struct verity_pair *pair, const struct verity_run *run,
		     struct verity_outcome *out, struct ht_error *err);

/* Checks the pair's signature (when it has one; -EINVAL without trusted
 * certificates, -EPERM when it does not check out), then every block:
 * with parity, also what the parity could repair. 0 when the check ran
 * (out says what it found). */
int verity_op_verify(struct verity_pair *pair, const struct verity_run *run,
		     struct verity_outcome *out, struct ht_error *err);

/* The signature as verify checks it, then a repair from the parity
 * (run->flags: VERITY_RUN_DRY_RUN, VERITY_RUN_REWRITE_PARITY). */
int verity_op_repair(struct verity_pair *pair, const struct verity_run *run,
		     struct verity_outcome *out, struct ht_error *err);

/* dump: the pair's parameters from its superblock (with
 * VERITY_DUMP_READ_SUPERBLOCK, unless the pair has none), the tree's
 * layout, and, with parity, the parity's (roots told from its size when
 * not given), into out->layout. */
enum verity_dump_flags {
	VERITY_DUMP_READ_SUPERBLOCK = 1u << 0,
};
/* update: the tree and parity a change reaches rewritten
 * (verity/tree/update.h). */
int verity_op_update(struct verity_pair *pair,
		     const struct verity_range *ranges, size_t n,
		     const struct verity_run *run,
		     struct verity_update_result *res, struct ht_error *err);
int verity_op_dump(struct verity_pair *pair, unsigned flags,
		   struct verity_outcome *out, struct ht_error *err);

/* open: as verify's first step, then the kernel's target
 * (dm/activate.h). */
int verity_op_open(const char *name, struct verity_pair *pair,
		   const struct verity_run *run, struct ht_error *err);

/* Android's add_hashtree_footer: the container lays the pair out in
 * the image (verity/container/avb/image.h), format builds its tree (and
 * parity), the container writes vbmeta and footer. out->root: the root
 * digest. */
int verity_op_avb_hashtree_footer(const struct avb_footer_opts *o,
				  const struct verity_run *run,
				  struct verity_outcome *out,
				  struct ht_error *err);

/* The signature of the pair's root hash against run's trusted
 * certificates, into out->sig; 0 without a signature. */
int verity_op_check_signature(const struct verity_pair *pair,
			      const struct verity_run *run,
			      struct verity_outcome *out, struct ht_error *err);

#endif
