/* libFuzzer: any text as the verity target parameters the kernel reports,
 * and as its status line (V or C, and the blocks parity corrected). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "verity/dm/activate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char text[4096];
	struct verity_active st;
	struct ht_error err;

	if (size >= sizeof(text))
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	memset(&st, 0, sizeof(st));
	if (verity_table_parse(text, &st, &err) == 0 &&
	    (st.root_size > sizeof(st.root) ||
	     st.p.salt_size > VERITY_MAX_SALT_SIZE))
		abort();
	verity_status_parse(text, &st);
	if (st.fec_repaired < -1 || (st.corrupted != 0 && st.corrupted != 1))
		abort();
	return 0;
}
