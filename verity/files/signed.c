/* A root hash's signature as `fastverity sign` hands it on (signed.h):
 * written whole (a temporary renamed over the output), or, to "-", its
 * DER as stdout's text; --json's document (docs/fastverity.schema.json)
 * carries the bytes written to "-" in base64. */
#include "verity/files/signed.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "hashtree/libcrypto.h"
#include "verity/storage/output.h"

int verity_files_signed(const struct fv_show_request *q, const uint8_t *der,
			size_t len, struct show *sh, struct ht_error *err)
{
	int to_stdout = !strcmp(q->image, "-");
	char *b64;

	if (!to_stdout &&
	    verity_write_file(q->image, "the signature", der, len, err))
		return -EIO;
	if (to_stdout && !q->json)
		verity_show_bytes(sh, (const char *)der, len);
	if (!q->json)
		return sh->r;
	verity_show_object(sh, NULL);
	verity_show_str(sh, "result", "ok");
	verity_show_str(sh, "root_hash", q->args);
	verity_show_str(sh, "format",
			q->sign->flags & FV_SIGN_DDI_JSON ? "ddi-json"
							  : "pkcs7");
	if (to_stdout)
		verity_show_null(sh, "file");
	else
		verity_show_str(sh, "file", q->image);
	verity_show_u64(sh, "bytes", len);
	if (!to_stdout) {
		verity_show_null(sh, "base64");
	} else if ((b64 = malloc(4 * ((len + 2) / 3) + 1))) {
		EVP_EncodeBlock((unsigned char *)b64, der, (int)len);
		verity_show_str(sh, "base64", b64);
		free(b64);
	} else {
		return ht_fail(err, ENOMEM, "out of memory");
	}
	verity_show_u64(sh, "exit_code", 0);
	verity_show_end(sh);
	return sh->r;
}
