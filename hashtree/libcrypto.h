/* OpenSSL's libcrypto, opened when the library first needs it.
 *
 * Linked, libcrypto costs every run of the command about 2.5 ms to load
 * and relocate here (a no-op program: 4.2 ms linked with nothing, 6.7 ms
 * linked with libcrypto; 125 more page faults), though sha256 at format
 * 1, the usual tree, never calls it: the fast path hashes with
 * hashtree's own kernels. It is needed for other hash algorithms and
 * for keys, signatures and certificates. (libdevmapper is opened the
 * same way, verity/dm/activate.c.)
 *
 * A source file of the library includes the OpenSSL headers it needs,
 * then this one, last: each function below is then called through the
 * pointer dlsym gave, with the type its declaration has. No OpenSSL
 * header may follow (its declarations would meet these macros). The
 * library is not linked with libcrypto, so a function used and not named
 * here fails to link (make checks it for the command and the shared
 * library). */
#ifndef FV_LIBCRYPTO_H
#define FV_LIBCRYPTO_H
#ifndef FASTVERITY_COMPILATION
#error "an internal header of libfastverity: include <fastverity.h>"
#endif

#include "hashtree/error.h"

/* Every libcrypto function the library calls. */
#define HT_LIBCRYPTO_FUNCTIONS(X)         \
	X(ASN1_INTEGER_to_BN)             \
	X(ASN1_TIME_print)                \
	X(BIO_ctrl)                       \
	X(BIO_f_buffer)                   \
	X(BIO_free)                       \
	X(BIO_free_all)                   \
	X(BIO_new)                        \
	X(BIO_new_mem_buf)                \
	X(BIO_push)                       \
	X(BIO_read)                       \
	X(BIO_s_mem)                      \
	X(BIO_write)                      \
	X(BN_CTX_free)                    \
	X(BN_CTX_new)                     \
	X(BN_bin2bn)                      \
	X(BN_bn2binpad)                   \
	X(BN_bn2hex)                      \
	X(BN_div)                         \
	X(BN_free)                        \
	X(BN_get_word)                    \
	X(BN_is_word)                     \
	X(BN_mod_inverse)                 \
	X(BN_new)                         \
	X(BN_num_bits)                    \
	X(BN_set_bit)                     \
	X(BN_set_word)                    \
	X(BN_sub)                         \
	X(BN_zero_ex)                     \
	X(CRYPTO_free)                    \
	X(ENGINE_by_id)                   \
	X(ENGINE_ctrl_cmd)                \
	X(ENGINE_ctrl_cmd_string)         \
	X(ENGINE_finish)                  \
	X(ENGINE_free)                    \
	X(ENGINE_init)                    \
	X(ENGINE_load_private_key)        \
	X(ERR_clear_error)                \
	X(ERR_peek_last_error)            \
	X(ERR_reason_error_string)        \
	X(EVP_DecodeBlock)                \
	X(EVP_Digest)                     \
	X(EVP_DigestFinal_ex)             \
	X(EVP_DigestInit_ex)              \
	X(EVP_DigestInit_ex2)             \
	X(EVP_DigestUpdate)               \
	X(EVP_EncodeBlock)                \
	X(EVP_MD_CTX_copy_ex)             \
	X(EVP_MD_CTX_free)                \
	X(EVP_MD_CTX_new)                 \
	X(EVP_MD_fetch)                   \
	X(EVP_MD_free)                    \
	X(EVP_MD_get0_provider)           \
	X(EVP_MD_get_size)                \
	X(EVP_MD_is_a)                    \
	X(EVP_PKEY_CTX_free)              \
	X(EVP_PKEY_CTX_new_from_name)     \
	X(EVP_PKEY_CTX_new_from_pkey)     \
	X(EVP_PKEY_CTX_set_rsa_padding)   \
	X(EVP_PKEY_CTX_set_signature_md)  \
	X(EVP_PKEY_eq)                    \
	X(EVP_PKEY_free)                  \
	X(EVP_PKEY_fromdata)              \
	X(EVP_PKEY_fromdata_init)         \
	X(EVP_PKEY_get_bits)              \
	X(EVP_PKEY_get_bn_param)          \
	X(EVP_PKEY_is_a)                  \
	X(EVP_PKEY_sign)                  \
	X(EVP_PKEY_sign_init)             \
	X(EVP_PKEY_verify)                \
	X(EVP_PKEY_verify_init)           \
	X(OBJ_obj2nid)                    \
	X(OPENSSL_init_crypto)            \
	X(OPENSSL_sk_free)                \
	X(OPENSSL_sk_new_null)            \
	X(OPENSSL_sk_num)                 \
	X(OPENSSL_sk_pop_free)            \
	X(OPENSSL_sk_push)                \
	X(OPENSSL_sk_value)               \
	X(OSSL_LIB_CTX_free)              \
	X(OSSL_LIB_CTX_new)               \
	X(OSSL_PARAM_BLD_free)            \
	X(OSSL_PARAM_BLD_new)             \
	X(OSSL_PARAM_BLD_push_BN)         \
	X(OSSL_PARAM_BLD_to_param)        \
	X(OSSL_PARAM_free)                \
	X(OSSL_PROVIDER_get0_name)        \
	X(OSSL_PROVIDER_load)             \
	X(OpenSSL_version)                \
	X(PEM_read_bio_PUBKEY_ex)         \
	X(PEM_read_bio_PrivateKey_ex)     \
	X(PEM_read_bio_X509)              \
	X(PKCS7_ctrl)                     \
	X(PKCS7_final)                    \
	X(PKCS7_free)                     \
	X(PKCS7_get0_signers)             \
	X(PKCS7_get_signer_info)          \
	X(PKCS7_sign_add_signer)          \
	X(PKCS7_sign_ex)                  \
	X(PKCS7_verify)                   \
	X(UI_create_method)               \
	X(UI_destroy_method)              \
	X(UI_method_set_reader)           \
	X(X509_NAME_oneline)              \
	X(X509_STORE_CTX_cleanup)         \
	X(X509_STORE_CTX_free)            \
	X(X509_STORE_CTX_init)            \
	X(X509_STORE_CTX_new_ex)          \
	X(X509_STORE_CTX_set_flags)       \
	X(X509_STORE_CTX_set_purpose)     \
	X(X509_STORE_add_cert)            \
	X(X509_STORE_free)                \
	X(X509_STORE_new)                 \
	X(X509_STORE_set_flags)           \
	X(X509_STORE_set_purpose)         \
	X(X509_check_private_key)         \
	X(X509_cmp_current_time)          \
	X(X509_digest)                    \
	X(X509_find_by_issuer_and_serial) \
	X(X509_free)                      \
	X(X509_get0_notAfter)             \
	X(X509_get0_notBefore)            \
	X(X509_get0_pubkey)               \
	X(X509_get_subject_name)          \
	X(X509_new_ex)                    \
	X(X509_verify_cert)               \
	X(d2i_PKCS7)                      \
	X(i2d_PKCS7)

enum ht_libcrypto_fn {
#define HT_LIBCRYPTO_ENUM(f) HT_LC_##f,
	HT_LIBCRYPTO_FUNCTIONS(HT_LIBCRYPTO_ENUM)
#undef HT_LIBCRYPTO_ENUM
		HT_LC_COUNT
};

/* libcrypto opened (once, by whichever thread comes first): 0, or
 * -ENOSYS with why ("hash algorithm sha512 needs OpenSSL, which cannot be
 * loaded (libcrypto.so.3: ...)": need names what needs it, if not NULL). The
 * first call of an action that needs OpenSSL asks, so that its message names
 * the cause. */
int ht_libcrypto_load(const char *need, struct ht_error *err);

/* Function i, libcrypto opened first if it is not. If it cannot be,
 * every function is one that returns 0 (NULL, failure for each of these)
 * and does nothing: a caller that did not ask ht_libcrypto_load fails as
 * if OpenSSL had failed. */
void *ht_libcrypto_fn(enum ht_libcrypto_fn i);

#define HT_LIBCRYPTO(f) (*(__typeof__(&f))ht_libcrypto_fn(HT_LC_##f))

#define ASN1_INTEGER_to_BN           HT_LIBCRYPTO(ASN1_INTEGER_to_BN)
#define ASN1_TIME_print              HT_LIBCRYPTO(ASN1_TIME_print)
#define BIO_ctrl                     HT_LIBCRYPTO(BIO_ctrl)
#define BIO_f_buffer                 HT_LIBCRYPTO(BIO_f_buffer)
#define BIO_free                     HT_LIBCRYPTO(BIO_free)
#define BIO_free_all                 HT_LIBCRYPTO(BIO_free_all)
#define BIO_new                      HT_LIBCRYPTO(BIO_new)
#define BIO_new_mem_buf              HT_LIBCRYPTO(BIO_new_mem_buf)
#define BIO_push                     HT_LIBCRYPTO(BIO_push)
#define BIO_read                     HT_LIBCRYPTO(BIO_read)
#define BIO_s_mem                    HT_LIBCRYPTO(BIO_s_mem)
#define BIO_write                    HT_LIBCRYPTO(BIO_write)
#define BN_CTX_free                  HT_LIBCRYPTO(BN_CTX_free)
#define BN_CTX_new                   HT_LIBCRYPTO(BN_CTX_new)
#define BN_bin2bn                    HT_LIBCRYPTO(BN_bin2bn)
#define BN_bn2binpad                 HT_LIBCRYPTO(BN_bn2binpad)
#define BN_bn2hex                    HT_LIBCRYPTO(BN_bn2hex)
#define BN_div                       HT_LIBCRYPTO(BN_div)
#define BN_free                      HT_LIBCRYPTO(BN_free)
#define BN_get_word                  HT_LIBCRYPTO(BN_get_word)
#define BN_is_word                   HT_LIBCRYPTO(BN_is_word)
#define BN_mod_inverse               HT_LIBCRYPTO(BN_mod_inverse)
#define BN_new                       HT_LIBCRYPTO(BN_new)
#define BN_num_bits                  HT_LIBCRYPTO(BN_num_bits)
#define BN_set_bit                   HT_LIBCRYPTO(BN_set_bit)
#define BN_set_word                  HT_LIBCRYPTO(BN_set_word)
#define BN_sub                       HT_LIBCRYPTO(BN_sub)
#define BN_zero_ex                   HT_LIBCRYPTO(BN_zero_ex)
#define CRYPTO_free                  HT_LIBCRYPTO(CRYPTO_free)
#define ENGINE_by_id                 HT_LIBCRYPTO(ENGINE_by_id)
#define ENGINE_ctrl_cmd              HT_LIBCRYPTO(ENGINE_ctrl_cmd)
#define ENGINE_ctrl_cmd_string       HT_LIBCRYPTO(ENGINE_ctrl_cmd_string)
#define ENGINE_finish                HT_LIBCRYPTO(ENGINE_finish)
#define ENGINE_free                  HT_LIBCRYPTO(ENGINE_free)
#define ENGINE_init                  HT_LIBCRYPTO(ENGINE_init)
#define ENGINE_load_private_key      HT_LIBCRYPTO(ENGINE_load_private_key)
#define ERR_clear_error              HT_LIBCRYPTO(ERR_clear_error)
#define ERR_peek_last_error          HT_LIBCRYPTO(ERR_peek_last_error)
#define ERR_reason_error_string      HT_LIBCRYPTO(ERR_reason_error_string)
#define EVP_DecodeBlock              HT_LIBCRYPTO(EVP_DecodeBlock)
#define EVP_Digest                   HT_LIBCRYPTO(EVP_Digest)
#define EVP_DigestFinal_ex           HT_LIBCRYPTO(EVP_DigestFinal_ex)
#define EVP_DigestInit_ex            HT_LIBCRYPTO(EVP_DigestInit_ex)
#define EVP_DigestInit_ex2           HT_LIBCRYPTO(EVP_DigestInit_ex2)
#define EVP_DigestUpdate             HT_LIBCRYPTO(EVP_DigestUpdate)
#define EVP_EncodeBlock              HT_LIBCRYPTO(EVP_EncodeBlock)
#define EVP_MD_CTX_copy_ex           HT_LIBCRYPTO(EVP_MD_CTX_copy_ex)
#define EVP_MD_CTX_free              HT_LIBCRYPTO(EVP_MD_CTX_free)
#define EVP_MD_CTX_new               HT_LIBCRYPTO(EVP_MD_CTX_new)
#define EVP_MD_fetch                 HT_LIBCRYPTO(EVP_MD_fetch)
#define EVP_MD_free                  HT_LIBCRYPTO(EVP_MD_free)
#define EVP_MD_get0_provider         HT_LIBCRYPTO(EVP_MD_get0_provider)
#define EVP_MD_get_size              HT_LIBCRYPTO(EVP_MD_get_size)
#define EVP_MD_is_a                  HT_LIBCRYPTO(EVP_MD_is_a)
#define EVP_PKEY_CTX_free            HT_LIBCRYPTO(EVP_PKEY_CTX_free)
#define EVP_PKEY_eq                  HT_LIBCRYPTO(EVP_PKEY_eq)
#define EVP_PKEY_CTX_new_from_name   HT_LIBCRYPTO(EVP_PKEY_CTX_new_from_name)
#define EVP_PKEY_CTX_new_from_pkey   HT_LIBCRYPTO(EVP_PKEY_CTX_new_from_pkey)
#define EVP_PKEY_CTX_set_rsa_padding HT_LIBCRYPTO(EVP_PKEY_CTX_set_rsa_padding)
#define EVP_PKEY_CTX_set_signature_md \
	HT_LIBCRYPTO(EVP_PKEY_CTX_set_signature_md)
#define EVP_PKEY_free              HT_LIBCRYPTO(EVP_PKEY_free)
#define EVP_PKEY_fromdata          HT_LIBCRYPTO(EVP_PKEY_fromdata)
#define EVP_PKEY_fromdata_init     HT_LIBCRYPTO(EVP_PKEY_fromdata_init)
#define EVP_PKEY_get_bits          HT_LIBCRYPTO(EVP_PKEY_get_bits)
#define EVP_PKEY_get_bn_param      HT_LIBCRYPTO(EVP_PKEY_get_bn_param)
#define EVP_PKEY_is_a              HT_LIBCRYPTO(EVP_PKEY_is_a)
#define EVP_PKEY_sign              HT_LIBCRYPTO(EVP_PKEY_sign)
#define EVP_PKEY_sign_init         HT_LIBCRYPTO(EVP_PKEY_sign_init)
#define EVP_PKEY_verify            HT_LIBCRYPTO(EVP_PKEY_verify)
#define EVP_PKEY_verify_init       HT_LIBCRYPTO(EVP_PKEY_verify_init)
#define OBJ_obj2nid                HT_LIBCRYPTO(OBJ_obj2nid)
#define OPENSSL_init_crypto        HT_LIBCRYPTO(OPENSSL_init_crypto)
#define OPENSSL_sk_free            HT_LIBCRYPTO(OPENSSL_sk_free)
#define OPENSSL_sk_new_null        HT_LIBCRYPTO(OPENSSL_sk_new_null)
#define OPENSSL_sk_num             HT_LIBCRYPTO(OPENSSL_sk_num)
#define OPENSSL_sk_pop_free        HT_LIBCRYPTO(OPENSSL_sk_pop_free)
#define OPENSSL_sk_push            HT_LIBCRYPTO(OPENSSL_sk_push)
#define OPENSSL_sk_value           HT_LIBCRYPTO(OPENSSL_sk_value)
#define OSSL_LIB_CTX_free          HT_LIBCRYPTO(OSSL_LIB_CTX_free)
#define OSSL_LIB_CTX_new           HT_LIBCRYPTO(OSSL_LIB_CTX_new)
#define OSSL_PARAM_BLD_free        HT_LIBCRYPTO(OSSL_PARAM_BLD_free)
#define OSSL_PARAM_BLD_new         HT_LIBCRYPTO(OSSL_PARAM_BLD_new)
#define OSSL_PARAM_BLD_push_BN     HT_LIBCRYPTO(OSSL_PARAM_BLD_push_BN)
#define OSSL_PARAM_BLD_to_param    HT_LIBCRYPTO(OSSL_PARAM_BLD_to_param)
#define OSSL_PARAM_free            HT_LIBCRYPTO(OSSL_PARAM_free)
#define OSSL_PROVIDER_get0_name    HT_LIBCRYPTO(OSSL_PROVIDER_get0_name)
#define OSSL_PROVIDER_load         HT_LIBCRYPTO(OSSL_PROVIDER_load)
#define OpenSSL_version            HT_LIBCRYPTO(OpenSSL_version)
#define PEM_read_bio_PUBKEY_ex     HT_LIBCRYPTO(PEM_read_bio_PUBKEY_ex)
#define PEM_read_bio_PrivateKey_ex HT_LIBCRYPTO(PEM_read_bio_PrivateKey_ex)
#define PEM_read_bio_X509          HT_LIBCRYPTO(PEM_read_bio_X509)
#define PKCS7_ctrl                 HT_LIBCRYPTO(PKCS7_ctrl)
#define PKCS7_final                HT_LIBCRYPTO(PKCS7_final)
#define PKCS7_free                 HT_LIBCRYPTO(PKCS7_free)
#define PKCS7_get0_signers         HT_LIBCRYPTO(PKCS7_get0_signers)
#define PKCS7_get_signer_info      HT_LIBCRYPTO(PKCS7_get_signer_info)
#define PKCS7_sign_add_signer      HT_LIBCRYPTO(PKCS7_sign_add_signer)
#define PKCS7_sign_ex              HT_LIBCRYPTO(PKCS7_sign_ex)
#define PKCS7_verify               HT_LIBCRYPTO(PKCS7_verify)
#define UI_create_method           HT_LIBCRYPTO(UI_create_method)
#define UI_destroy_method          HT_LIBCRYPTO(UI_destroy_method)
#define UI_method_set_reader       HT_LIBCRYPTO(UI_method_set_reader)
#define X509_NAME_oneline          HT_LIBCRYPTO(X509_NAME_oneline)
#define X509_STORE_CTX_cleanup     HT_LIBCRYPTO(X509_STORE_CTX_cleanup)
#define X509_STORE_CTX_free        HT_LIBCRYPTO(X509_STORE_CTX_free)
#define X509_STORE_CTX_init        HT_LIBCRYPTO(X509_STORE_CTX_init)
#define X509_STORE_CTX_new_ex      HT_LIBCRYPTO(X509_STORE_CTX_new_ex)
#define X509_STORE_CTX_set_flags   HT_LIBCRYPTO(X509_STORE_CTX_set_flags)
#define X509_STORE_CTX_set_purpose HT_LIBCRYPTO(X509_STORE_CTX_set_purpose)
#define X509_STORE_add_cert        HT_LIBCRYPTO(X509_STORE_add_cert)
#define X509_STORE_free            HT_LIBCRYPTO(X509_STORE_free)
#define X509_STORE_new             HT_LIBCRYPTO(X509_STORE_new)
#define X509_STORE_set_flags       HT_LIBCRYPTO(X509_STORE_set_flags)
#define X509_STORE_set_purpose     HT_LIBCRYPTO(X509_STORE_set_purpose)
#define X509_check_private_key     HT_LIBCRYPTO(X509_check_private_key)
#define X509_cmp_current_time      HT_LIBCRYPTO(X509_cmp_current_time)
#define X509_digest                HT_LIBCRYPTO(X509_digest)
#define X509_find_by_issuer_and_serial \
	HT_LIBCRYPTO(X509_find_by_issuer_and_serial)
#define X509_free             HT_LIBCRYPTO(X509_free)
#define X509_get0_notAfter    HT_LIBCRYPTO(X509_get0_notAfter)
#define X509_get0_notBefore   HT_LIBCRYPTO(X509_get0_notBefore)
#define X509_get0_pubkey      HT_LIBCRYPTO(X509_get0_pubkey)
#define X509_get_subject_name HT_LIBCRYPTO(X509_get_subject_name)
#define X509_new_ex           HT_LIBCRYPTO(X509_new_ex)
#define X509_verify_cert      HT_LIBCRYPTO(X509_verify_cert)
#define d2i_PKCS7             HT_LIBCRYPTO(d2i_PKCS7)
#define i2d_PKCS7             HT_LIBCRYPTO(i2d_PKCS7)

#endif
