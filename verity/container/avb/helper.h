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
#include "verity/sign/scheme.h"

/* The signature of the message (its nm pieces) made by program: given on
 * its standard input, for RSA the PKCS#1 v1.5 block of the message's
 * digest (0x00 0x01 0xff.. 0x00 DigestInfo digest, the key's size; the
 * digest also into digest), for ML-DSA the message itself
 * (FORMAT-android17 A.6); the raw signature read from its standard
 * output. With files, what it signs is in a file named third, which the
 * program overwrites with the signature (the file lives in a private
 * directory of its own made in dir, removed after). The answer is
 * checked against key (its public-key blob) before it is used:
 * alg->sig_size bytes into sig. -EIO: the program failed or answered
 * something that is not the key's signature. */
int verity_avb_helper_sign(const char *program, int files, const char *dir,
			   const char *key_path, const struct verity_sigkey *key,
			   const struct verity_scheme *alg,
			   const struct verity_msg *m, size_t nm,
			   uint8_t *digest, uint8_t *sig, struct ht_error *err);

#endif
