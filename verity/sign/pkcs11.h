/* Private keys in PKCS#11 tokens, for signing root hashes. */
#ifndef FV_PKCS11_H
#define FV_PKCS11_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <openssl/evp.h>

#include "hashtree/error.h"

/* 1 when key names a token object ("pkcs11:..."). */
int verity_pkcs11_is_uri(const char *key);
/* Loads the private key the URI names, logging in with pin (may be NULL:
 * the URI's pin-value, or -EACCES when the token wants one), through
 * module (NULL: p11-kit's proxy, which loads the modules p11-kit knows). */
int verity_pkcs11_load_key(const char *uri, const char *pin, const char *module,
			   EVP_PKEY **key, struct ht_error *err);

#endif
