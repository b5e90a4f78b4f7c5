/* A shared library opened when first needed, not linked: what the
 * library does for libcrypto (hashtree/libcrypto.h), libfec
 * (verity/fec/rs.c) and libdevmapper (verity/dm/activate.c), each of
 * which costs every run of the command its loading and relocation
 * though only some actions call it. */
#ifndef FV_DL_H
#define FV_DL_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stddef.h>

/* The first of the nsonames sonames that opens, and each of the n
 * functions names[i] looked up into fns[i]: 0, or -1 with why in
 * why (len bytes). Called once per library (pthread_once). */
int ht_dl_open(const char *const *sonames, size_t nsonames,
	       const char *const *names, size_t n, void **fns, char *why,
	       size_t len);

#endif
