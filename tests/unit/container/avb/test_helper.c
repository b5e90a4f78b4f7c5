/* verity/container/avb/helper.c: avbtool's signing helpers, run here as
 * shell scripts over openssl's command (an RSA-2048 key made here): the
 * PKCS#1 block given on standard input and the signature read from
 * standard output, or given in a file of a private directory that the
 * helper overwrites (the directory removed after); the answer checked
 * against the key: a helper that fails, is not there, is killed, answers
 * too little, too much, or a signature the key does not verify, refused
 * each in its words, nothing signed. */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <openssl/pem.h>

#include "check_main.h"
#include "unit_files.h"
#include "verity/container/avb/helper.h"

static char dir[64];
static char *key_path, *work;
static struct verity_sigkey key;
static const struct verity_scheme *alg;
static const char msg1[] = "the vbmeta's header", msg2[] = "and its data";
static const struct verity_msg m[2] = {{msg1, sizeof(msg1)},
				       {msg2, sizeof(msg2)}};

/* An executable script at dir/name holding body. (openssl rsautl -raw:
 * the raw private-key operation a helper does on the PKCS#1 block.) */
static char *script(const char *name, const char *body)
{
	char *path = unit_path(dir, "/tmp/fv-helper.XXXXXX", name);
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	fprintf(f, "#!/bin/sh\n%s\n", body);
	fclose(f);
	ck_assert_int_eq(chmod(path, 0755), 0);
	return path;
}

static void hsetup(void)
{
	EVP_PKEY *k = EVP_RSA_gen(2048);
	struct ht_error err = {0};
	FILE *f;

	ck_assert_ptr_nonnull(k);
	key_path = unit_path(dir, "/tmp/fv-helper.XXXXXX", "key.pem");
	work = unit_path(dir, "/tmp/fv-helper.XXXXXX", "work");
	ck_assert_int_eq(mkdir(work, 0700), 0);
	f = fopen(key_path, "w");
	PEM_write_PrivateKey(f, k, NULL, NULL, 0, NULL, NULL);
	fclose(f);
	EVP_PKEY_free(k);
	alg = verity_avb_algorithm(AVB_ALG_SHA256_RSA2048);
	ck_assert_msg(verity_sigkey_read(key_path, alg, 1, &key, &err) == 0,
		      "%s", ht_msg(&err));
}

static void hteardown(void)
{
	char cmd[96];

	verity_sigkey_free(&key);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	ck_assert_int_eq(system(cmd), 0);
	free(key_path);
	free(work);
}

/* program signs m with the files protocol or not: the return, the
 * message in err. */
static int run(const char *program, int files, uint8_t *sig,
	       struct ht_error *err)
{
	uint8_t digest[64];

	return verity_avb_helper_sign(program, files, work, key_path, &key, alg,
				      m, 2, digest, sig, err);
}

static int empty_dir(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n == 0;
}

START_TEST(signed_both_ways)
{
	char *streams = script("streams",
			       "[ \"$1\" = SHA256_RSA2048 ] || exit 9\n"
			       "exec openssl rsautl -sign -raw -inkey \"$2\" "
			       "2>/dev/null");
	char *files = script("files",
			     "openssl rsautl -sign -raw -inkey \"$2\" -in "
			     "\"$3\" -out \"$3.s\" 2>/dev/null && mv \"$3.s\" "
			     "\"$3\"");
	struct ht_error err = {0};
	uint8_t sig[256], sig2[256];

	ck_assert_msg(run(streams, 0, sig, &err) == 0, "%s", ht_msg(&err));
	ck_assert_msg(run(files, 1, sig2, &err) == 0, "%s", ht_msg(&err));
	/* RSA PKCS#1 v1.5 is deterministic */
	ck_assert_mem_eq(sig, sig2, 256);
	ck_assert(empty_dir(work));
	free(streams);
	free(files);
}
END_TEST

/* refused with EIO and a message holding want, the directory empty */
static void refused(const char *program, int files, const char *want)
{
	struct ht_error err = {0};
	uint8_t sig[256];

	memset(sig, 0x5a, sizeof(sig));
	ck_assert_int_eq(run(program, files, sig, &err), -EIO);
	ck_assert_msg(strstr(ht_msg(&err), want), "'%s' lacks '%s'",
		      ht_msg(&err), want);
	ck_assert_uint_eq(sig[0], 0x5a);
	ck_assert(empty_dir(work));
}

START_TEST(refusals)
{
	char *fails = script("fails", "cat >/dev/null; exit 3");
	char *killed = script("killed", "kill -9 $$");
	char *short_answer = script("short", "cat >/dev/null; printf abc");
	char *long_answer = script("long", "head -c 100000 /dev/zero");
	char *wrong = script("wrong", "head -c 256 /dev/zero");
	char *touch = script("touch", "printf abc > \"$3\"; "
				      ": > \"$(dirname \"$3\")/left\"");
	char *missing = unit_path(dir, "", "no-such-helper");

	refused(fails, 0, "failed (exit status 3): nothing was signed");
	refused(fails, 1, "failed (exit status 3)");
	refused(killed, 0, "was killed by signal 9");
	refused(missing, 0,
		"could not be run (not found, or not "
		"executable)");
	refused(missing, 1, "could not be run");
	refused(short_answer, 0,
		"answered 3 bytes, not the 256 bytes of a "
		"SHA256_RSA2048 signature");
	refused(long_answer, 0, "answered more than ");
	refused(wrong, 0, "answered a signature that the key");
	refused(wrong, 0, "does not verify: not used");
	/* files: what it leaves beside the block is removed too */
	refused(touch, 1, "answered 3 bytes");
	free(fails);
	free(killed);
	free(short_answer);
	free(long_answer);
	free(wrong);
	free(touch);
	free(missing);
}
END_TEST

START_TEST(no_directory)
{
	char *streams = script("ok", "exit 0");
	struct ht_error err = {0};
	uint8_t sig[256], digest[64];

	ck_assert_int_eq(verity_avb_helper_sign(streams, 1, "/nonexistent/dir",
						key_path, &key, alg, m, 2,
						digest, sig, &err),
			 -EIO);
	ck_assert_ptr_nonnull(strstr(ht_msg(&err),
				     "cannot make a directory for its file in "
				     "/nonexistent/dir"));
	free(streams);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {"avb_helper", 0, hsetup,
					    hteardown,    1, NULL};

	return run_unit(&u,
			UNIT_TESTS(signed_both_ways, refusals, no_directory));
}
