/* Root hash signatures: a detached DER PKCS#7 over the lowercase hex root
 * hash, no newline (what the kernel and systemd's .roothash.p7s use). */
#ifndef FV_SIGNATURE_H
#define FV_SIGNATURE_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include <stddef.h>
#include <stdint.h>

#include "hashtree/error.h"

/* Who signs, and how: a PEM key (or a "pkcs11:" URI of a key in a token)
 * and its PEM certificate. */
struct verity_signer {
	const char *key;
	const char *cert;
	const char *passphrase;    /* of an encrypted key, or a token's PIN;
				    * NULL: none (never asked for) */
	const char *pkcs11_module; /* NULL: p11-kit's proxy */
	int embed_cert; /* include the certificate in the signature */
};

/* A public signing request (include/fastverity.h) as vs: its key and
 * certificate given, its flags known; else -EINVAL. */
struct fv_sign_request;
int verity_sign_signer_of(const struct fv_sign_request *q,
			  struct verity_signer *vs, struct ht_error *err);

/* Signs root_hex: no attributes; the certificate is embedded only when
 * asked. Nothing ever prompts: an encrypted key without a passphrase is
 * -EACCES. *der is malloc'd. */
int verity_sign(const struct verity_signer *s, const char *root_hex,
		uint8_t **der, size_t *der_len, struct ht_error *err);

/* Signs len bytes the same way, with the digest md (an OpenSSL name:
 * "SHA256"), or OpenSSL's default for the key when md is NULL (what
 * verity_sign does). */
int verity_sign_bytes(const struct verity_signer *s, const void *bytes,
		      size_t len, const char *md, uint8_t **der,
		      size_t *der_len, struct ht_error *err);

struct verity_sig_check {
	char signer[256];     /* subject of the signer certificate */
	char fingerprint[65]; /* SHA-256 of the (first) signer certificate's
			       * DER, lowercase hex (systemd's
			       * certificateFingerprint) */
	char warning[256];    /* "" or why the check needed a leniency */
};

/* A signature to check: its DER bytes, and the name messages give it. */
struct verity_sig {
	const uint8_t *der;
	size_t len;
	const char *name;
};

/* Checks a signature of root_hex against certificates read from the PEM
 * files in trusted (a certificate or a bundle each). -EINVAL: the
 * signature cannot be read; -EPERM: signer not trusted, or the signature
 * does not match root_hex (the message says which). A signer outside its
 * validity period passes with a warning, as the kernel takes it. */
int verity_signature_check(const struct verity_sig *sig,
			   const char *const *trusted, size_t ntrusted,
			   const char *root_hex, struct verity_sig_check *res,
			   struct ht_error *err);

/* Who the signature says signed it (subject, and fingerprint when it
 * holds the certificate), trusting nothing: for showing, not checking. */
int verity_signature_signer(const struct verity_sig *sig,
			    struct verity_sig_check *res, struct ht_error *err);

/* The SHA-256 of a PEM certificate's DER, lowercase hex (systemd's
 * certificateFingerprint). */
int verity_cert_fingerprint(const char *cert_path, char out[65],
			    struct ht_error *err);

#define VERITY_MAX_SIGNATURE (64 * 1024)
/* Trusted certificates: at most this many files, and this many
 * certificates in them all. */
#define VERITY_MAX_TRUSTED_FILES 64
#define VERITY_MAX_TRUSTED_CERTS 1024

/* Reads a signature file: regular, 1 byte to 64 KiB (malloc'd). -EINVAL
 * when it is missing or not such a file, -EIO when reading fails. */
int verity_read_signature(const char *path, uint8_t **out, size_t *len,
			  struct ht_error *err);

#endif
