/* verity/container/ddi/ddi.c: a disk image's signature JSON (made and
 * parsed back, then malformed). */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include "check_main.h"
#include "verity/container/avb/image.h"
#include "verity/container/ddi/ddi.h"
#include "verity/registry/registry.h"
#include "verity/container/source.h"
#include "verity/policy/trust.h"

START_TEST(ddi_signature_json)
{
	static const uint8_t der[5] = {0x30, 3, 2, 1, 7};
	char root[129], fp[65], *json, hex[65];
	uint8_t *back, buf[4096];
	size_t len;
	struct ht_error err;

	memset(hex, 'a', 64);
	hex[64] = 0;
	ck_assert_int_eq(verity_ddi_sig_json_make(hex, hex, der, sizeof(der),
						  &json, &err),
			 0);
	memset(buf, 0, sizeof(buf));
	memcpy(buf, json, strlen(json));
	ck_assert_int_eq(verity_ddi_sig_json_parse(buf, sizeof(buf), "t", root,
						   &back, &len, fp, &err),
			 0);
	ck_assert_str_eq(root, hex);
	ck_assert_str_eq(fp, hex);
	ck_assert_uint_eq(len, sizeof(der));
	ck_assert_mem_eq(back, der, sizeof(der));
	free(back);
	free(json);
	/* not NUL-padded; a rootHash too short; upper case; no signature */
	memcpy(buf + 3000, "x", 1);
	ck_assert_int_eq(verity_ddi_sig_json_parse(buf, sizeof(buf), "t", root,
						   &back, &len, fp, &err),
			 -EINVAL);
	static const char *bad[] = {
		"{\"rootHash\":\"abcd\",\"signature\":\"MAMCAQc=\"}",
		"{\"rootHash\":"
		"\"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
		"AAAAAAAAAAAAAA\",\"signature\":\"MAMCAQc=\"}",
		"{\"rootHash\":"
		"\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		"aaaaaaaaaaaaaa\"}",
		"[1,2]",
		"{\"rootHash\":"
		"\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		"aaaaaaaaaaaaaa\",\"signature\":\"M!MCAQc=\"}",
		/* a key given twice, also spelled with an escape: json-c
		 * keeps the last, so the first would be read elsewhere */
		"{\"rootHash\":"
		"\"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
		"bbbbbbbbbbbbbb\",\"rootHash\":"
		"\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		"aaaaaaaaaaaaaa\",\"signature\":\"MAMCAQc=\"}",
		"{\"root\\u0048ash\":"
		"\"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
		"bbbbbbbbbbbbbb\",\"rootHash\":"
		"\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		"aaaaaaaaaaaaaa\",\"signature\":\"MAMCAQc=\"}",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(buf, 0, sizeof(buf));
		memcpy(buf, bad[i], strlen(bad[i]));
		ck_assert_msg(verity_ddi_sig_json_parse(buf, sizeof(buf), "t",
							root, &back, &len, fp,
							&err) == -EINVAL,
			      "%s", bad[i]);
	}
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "ddi"};

	return run_unit(&u, UNIT_TESTS(ddi_signature_json));
}
