/* verity/container/ota/facts.c: what an OTA package holds and what
 * verify and extract found, as facts in order, on a payload made here
 * (tests/unit/container/ota/build.h) whose findings are set by hand:
 * nothing found, no verify or extract object; verify's result ok only
 * when both signatures are good (and every partition applied is), each
 * verdict in its words, the signer and key; extract's images, their
 * verdicts, paths and the operations without a data hash; facts made
 * again from scratch, never appended to. */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "container/ota/build.h"
#include "verity/container/ota/ota.h"
#include "verity/container/ota/zip.h"

static uint8_t *payload;
static size_t payload_len;
static struct verity_ota_mem mem;
static struct verity_ota_src src;

static void fsetup(void)
{
	payload = build_payload(NULL, &payload_len);
	verity_ota_mem_src(&src, &mem, payload, payload_len, "p.bin");
}

static void fteardown(void)
{
	free(payload);
}

static struct verity_ota *opened(void)
{
	struct verity_ota *o = calloc(1, sizeof(*o));
	struct ht_error err = {0};

	ck_assert_ptr_nonnull(o);
	o->dev.fd = -1;
	ck_assert_msg(verity_ota_read(&src, o, &err) == 0, "%s", ht_msg(&err));
	return o;
}

/* The facts as "key=value " (objects "key{", ends "}"), into buf. */
static const char *flat(const struct verity_ota *o, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = 0;
	for (size_t i = 0; i < o->nf && at < len; i++) {
		const struct verity_ota_fact *f = &o->f[i];

		at += (size_t)snprintf(buf + at, len - at, "%s%c%s ",
				       f->key ? f->key : "",
				       f->type == VERITY_FACT_OBJECT      ? '{'
				       : f->type == VERITY_FACT_ARRAY     ? '['
				       : f->type == VERITY_FACT_END       ? '}'
				       : f->type == VERITY_FACT_END_ARRAY ? ']'
									  : '=',
				       f->value ? f->value : "");
	}
	return buf;
}

START_TEST(nothing_found)
{
	struct verity_ota *o = opened();
	struct ht_error err = {0};
	static char buf[16384];
	size_t n;

	ck_assert_int_eq(verity_ota_facts(o, &err), 0);
	flat(o, buf, sizeof(buf));
	ck_assert_msg(!strncmp(buf, "{ file=p.bin kind=payload ", 26), "%s",
		      buf);
	ck_assert_ptr_null(strstr(buf, "verify{"));
	ck_assert_ptr_null(strstr(buf, "extract{"));
	ck_assert_int_eq(o->f[o->nf - 1].type, VERITY_FACT_END);
	/* made again: the same, not appended */
	n = o->nf;
	ck_assert_int_eq(verity_ota_facts(o, &err), 0);
	ck_assert_uint_eq(o->nf, n);
	verity_ota_free(o);
}
END_TEST

START_TEST(verify_words)
{
	static const struct {
		enum verity_ota_verdict m, p;
		const char *result, *mw, *pw;
	} cases[] = {
		{VERITY_OTA_SIG_GOOD, VERITY_OTA_SIG_GOOD, "ok", "good",
		 "good"},
		{VERITY_OTA_SIG_GOOD, VERITY_OTA_SIG_NONE, "bad", "good",
		 "none"},
		{VERITY_OTA_SIG_PLACEHOLDER, VERITY_OTA_SIG_GOOD, "bad",
		 "placeholder (not signed)", "good"},
		{VERITY_OTA_SIG_GOOD, VERITY_OTA_SIG_BAD, "bad", "good", "bad"},
		{VERITY_OTA_SIG_GOOD, VERITY_OTA_SIG_TRAILING, "bad", "good",
		 "bad (bytes after the payload signature, which it does not "
		 "cover)"},
	};
	struct ht_error err = {0};
	static char buf[16384], want[512];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct verity_ota *o = opened();

		o->verified = 1;
		o->trusted = (int)(i % 2);
		strcpy(o->key_kind, "RSA-2048");
		o->signer = i ? strdup("CN=fv ota") : NULL;
		o->metadata_verdict = cases[i].m;
		o->payload_verdict = cases[i].p;
		ck_assert_int_eq(verity_ota_facts(o, &err), 0);
		flat(o, buf, sizeof(buf));
		snprintf(want, sizeof(want),
			 "verify{ result=%s trust=%s key=RSA-2048 %s"
			 "metadata_signature=%s payload_signature=%s } ",
			 cases[i].result, i % 2 ? "checked" : "not checked",
			 i ? "signer=CN=fv ota " : "", cases[i].mw,
			 cases[i].pw);
		ck_assert_msg(strstr(buf, want), "%s\nlacks\n%s", buf, want);
		verity_ota_free(o);
	}
}
END_TEST

START_TEST(images)
{
	struct verity_ota *o = opened();
	struct ht_error err = {0};
	static char buf[16384];

	o->applied = 1;
	o->nparts = 2;
	o->parts = calloc(2, sizeof(*o->parts));
	o->parts[0].name = "boot";
	strcpy(o->parts[0].verdict, "good");
	o->parts[0].ops = 3;
	o->parts[0].path = strdup("/out/boot.img");
	o->parts[1].name = "vendor";
	strcpy(o->parts[1].verdict, "good");
	o->parts[1].ops = 1;
	o->unhashed = 2;
	ck_assert_int_eq(verity_ota_facts(o, &err), 0);
	flat(o, buf, sizeof(buf));
	ck_assert_msg(strstr(buf, "extract{ result=ok images[ { name=boot "
				  "result=good operations=3 "
				  "path=/out/boot.img } { name=vendor "
				  "result=good operations=1 } ] "
				  "operations_without_data_hash=2 } "),
		      "%s", buf);
	/* one partition bad: extract bad */
	strcpy(o->parts[1].verdict, "its SHA-256 does not match");
	ck_assert_int_eq(verity_ota_facts(o, &err), 0);
	flat(o, buf, sizeof(buf));
	ck_assert_msg(strstr(buf, "extract{ result=bad "), "%s", buf);
	/* verified too: verify's object holds the images, no extract's;
	 * good signatures and a bad partition: bad */
	o->verified = 1;
	o->metadata_verdict = o->payload_verdict = VERITY_OTA_SIG_GOOD;
	ck_assert_int_eq(verity_ota_facts(o, &err), 0);
	flat(o, buf, sizeof(buf));
	ck_assert_msg(strstr(buf, "verify{ result=bad "), "%s", buf);
	ck_assert_ptr_null(strstr(buf, "extract{"));
	ck_assert_ptr_nonnull(strstr(buf, "name=vendor result=its SHA-256"));
	strcpy(o->parts[1].verdict, "good");
	ck_assert_int_eq(verity_ota_facts(o, &err), 0);
	flat(o, buf, sizeof(buf));
	ck_assert_msg(strstr(buf, "verify{ result=ok "), "%s", buf);
	verity_ota_free(o);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {"ota_facts", 0, fsetup,
					    fteardown,   1, NULL};

	return run_unit(&u, UNIT_TESTS(nothing_found, verify_words, images));
}
