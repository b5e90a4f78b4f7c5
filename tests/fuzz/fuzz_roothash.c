/* libFuzzer: the root hash file grammar (also the sidecar IMAGE.roothash).
 * Accepted exactly when the text is hex digits followed by white space
 * only, the digits fit; then the copy is those digits. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "verity/tree/params.h"

static int is_hex(uint8_t c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	       (c >= 'A' && c <= 'F');
}

static int is_space(uint8_t c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
	       c == '\f';
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char hex[136];
	size_t bad, digits = 0, i = 0;
	int r = verity_root_text_parse(data, size, hex, sizeof(hex), &bad);
	int want;

	while (i < size && is_hex(data[i]))
		i++;
	digits = i;
	while (i < size && is_space(data[i]))
		i++;
	want = i == size && digits < sizeof(hex);
	if ((r == 0) != want)
		abort();
	if (r == 0 && (strlen(hex) != digits || memcmp(hex, data, digits)))
		abort();
	if (r && bad &&
	    (bad > size || (is_hex(data[bad - 1]) && !is_space(data[bad - 1]))))
		abort();
	return 0;
}
