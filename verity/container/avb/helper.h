/* avbtool's --signing_helper and --signing_helper_with_files: a program
 * that signs in the key's place (an HSM, a signing server). It is run
 * directly (never through a shell) with the algorithm's name and the key
 * path as avbtool runs it, and what it answers is checked against the
 * key's public part before it is used (docs/android.md, "Signing
 * helpers"). */
#ifndef FV_CONTAINER_AVB_HELPER_H
#define FV_CONTAINER_AVB_HELPER_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stdint.h>

#include "hashtree/error.h"
#include "verity/container/avb/vbmeta.h"

struct evp_pkey_st;

/* The PKCS#1 v1.5 signature of digest (alg's hash) made by program:
 * given the padded block (0x00 0x01 0xff.. 0x00 DigestInfo digest, the
 * key's size) on its standard input, the signature read from its
 * standard output; with files, the block in a file named third, which
 * the program overwrites with the signature (the file lives in a private
 * directory of its own made in dir, removed after). key (its public part)
 * checks the signature: key_bits / 8 bytes into sig. -EIO: the program failed
 * or answered something that is not the key's signature. */
int verity_avb_helper_sign(const char *program, int files, const char *dir,
			   const char *key_path, struct evp_pkey_st *key,
			   const struct avb_algorithm_info *alg,
			   const uint8_t *digest, uint8_t *sig,
			   struct ht_error *err);

#endif
