/* verity/sign/pkcs11.c: what names a token's key ("pkcs11:" URIs), and
 * keys loaded from a SoftHSM 2 token made here (its own configuration
 * and token directory, as tests/cli/t_sign.sh makes one): through
 * p11-kit's proxy and through the module named, the PIN given or in the
 * URI, the key the token holds (the one imported); a token that wants
 * its PIN: -EACCES, its fix naming the passphrase option; a wrong PIN, a
 * key the token does not hold, a module that is none or no PKCS#11
 * module (named, before the engine starts): one refusal each.
 * Without SoftHSM (softhsm2-util and its module) or OpenSSL's pkcs11
 * engine the token's checks are left out, said on stdout.
 *
 * A refused login leaves libp11's engine state allocated (a leak of
 * libp11's that LeakSanitizer cannot suppress by name: libcrypto's
 * frames carry no frame pointers; t_sign skips its leak check there):
 * those loads run in a child that leaves with _exit, its verdict handed
 * back through a pipe, so that the suite's own leak check stays on. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <openssl/evp.h>
#include <openssl/pem.h>

#include "check_main.h"
#include "unit_files.h"
#include "verity/sign/pkcs11.h"

#define SOFTHSM_MODULE "/usr/lib/softhsm/libsofthsm2.so"
#define URI            "pkcs11:token=fvunit;object=signkey;type=private"

static char dir[64];
static char *conf, *tokens, *key_pem;
static EVP_PKEY *imported; /* the key the token holds */
static int token;          /* the token was made */

/* cmd (a shell command line) run with its output discarded: 0 when it
 * ran and exited 0. */
static int quiet(const char *cmd)
{
	char *line;
	int r;

	ck_assert_int_ge(asprintf(&line, "(%s) >/dev/null 2>&1", cmd), 0);
	r = system(line);
	free(line);
	return r == 0 ? 0 : -1;
}

static void setup(void)
{
	EVP_PKEY *k = EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)2048);
	char *cmd;
	FILE *f;

	ck_assert_ptr_nonnull(k);
	imported = k;
	conf = unit_path(dir, "/tmp/fv-pkcs11.XXXXXX", "softhsm2.conf");
	tokens = unit_path(dir, "/tmp/fv-pkcs11.XXXXXX", "tokens");
	key_pem = unit_path(dir, "/tmp/fv-pkcs11.XXXXXX", "key.pem");
	ck_assert_ptr_nonnull(f = fopen(key_pem, "w"));
	ck_assert(PEM_write_PrivateKey(f, k, NULL, NULL, 0, NULL, NULL));
	fclose(f);
	if (access(SOFTHSM_MODULE, R_OK) || quiet("command -v softhsm2-util"))
		return;
	ck_assert_int_eq(mkdir(tokens, 0700), 0);
	ck_assert_ptr_nonnull(f = fopen(conf, "w"));
	fprintf(f,
		"directories.tokendir = %s\nobjectstore.backend = file\n"
		"log.level = ERROR\n",
		tokens);
	fclose(f);
	/* (the library reads no environment: the token's module does) */
	setenv("SOFTHSM2_CONF", conf, 1);
	ck_assert_int_ge(
		asprintf(&cmd,
			 "softhsm2-util --init-token --free --label fvunit "
			 "--pin 1234 --so-pin 5678 && softhsm2-util --import "
			 "'%s' --token fvunit --label signkey --id 01 --pin "
			 "1234",
			 key_pem),
		0);
	token = !quiet(cmd);
	free(cmd);
	ck_assert_msg(token, "SoftHSM's token could not be made");
}

static int gone(const char *path, const struct stat *st, int flag,
		struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void teardown(void)
{
	ck_assert_int_eq(nftw(dir, gone, 16, FTW_DEPTH | FTW_PHYS), 0);
	EVP_PKEY_free(imported);
	free(conf);
	free(tokens);
	free(key_pem);
	dir[0] = '\0';
	unsetenv("SOFTHSM2_CONF");
}

START_TEST(uris)
{
	ck_assert_int_eq(verity_pkcs11_is_uri(URI), 1);
	ck_assert_int_eq(verity_pkcs11_is_uri("pkcs11:"), 1);
	ck_assert_int_eq(verity_pkcs11_is_uri("pkcs11"), 0);
	ck_assert_int_eq(verity_pkcs11_is_uri("PKCS11:token=x"), 0);
	ck_assert_int_eq(verity_pkcs11_is_uri("key.pem"), 0);
	ck_assert_int_eq(verity_pkcs11_is_uri("./pkcs11:key"), 0);
	ck_assert_int_eq(verity_pkcs11_is_uri(""), 0);
	ck_assert_int_eq(verity_pkcs11_is_uri(NULL), 0);
}
END_TEST

/* A load run in a child (a refused login's leak stays there, and
 * what a login leaves in the process too: a load without the PIN after
 * one with it gets the key): its return, its message into msg, and
 * whether it had a key in *key. */
static int in_child(const char *uri, const char *pin, const char *module,
		    char *msg, size_t len, int *key)
{
	int fds[2], status, r;
	ssize_t n = 0, got;
	char *sp;
	pid_t pid;

	fflush(stdout);
	ck_assert_int_eq(pipe(fds), 0);
	ck_assert_int_ge(pid = fork(), 0);
	if (pid == 0) {
		struct ht_error err = {0};
		EVP_PKEY *k = NULL;
		char out[512];
		int fd;

		close(fds[0]);
		if ((fd = open("/dev/null", O_WRONLY)) >= 0)
			dup2(fd, 2);
		r = verity_pkcs11_load_key(uri, pin, module, &k, &err);
		snprintf(out, sizeof(out), "%d %s", r, r ? ht_msg(&err) : "");
		if (write(fds[1], out, strlen(out)) < 0)
			_exit(2);
		_exit(k != NULL);
	}
	close(fds[1]);
	while (n < (ssize_t)len - 1 &&
	       (got = read(fds[0], msg + n, len - 1 - (size_t)n)) > 0)
		n += got;
	msg[n > 0 ? n : 0] = '\0';
	close(fds[0]);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) <= 1,
		      "the child: %s", msg);
	*key = WEXITSTATUS(status);
	ck_assert_ptr_nonnull(sp = strchr(msg, ' '));
	r = atoi(msg);
	memmove(msg, sp + 1, strlen(sp));
	return r;
}

/* A load refused: its return, its message into msg (no key). */
static int refused(const char *uri, const char *pin, const char *module,
		   char *msg, size_t len)
{
	int key, r = in_child(uri, pin, module, msg, len, &key);

	ck_assert_msg(!key, "a key handed back with %d %s", r, msg);
	return r;
}

/* Whether the token's checks can run here (else said why, once); the
 * key tried in a child, the suite's process never logged in before its
 * refusals are checked. */
static int have_token(void)
{
	static int said;
	char msg[512];
	int key;

	if (token && in_child(URI, "1234", NULL, msg, sizeof(msg), &key) &&
	    strstr(msg, "no pkcs11 engine")) {
		token = 0;
		if (!said++)
			printf("pkcs11: OpenSSL's pkcs11 engine is not "
			       "installed: the token's checks left out\n");
	}
	if (!token && !said++)
		printf("pkcs11: SoftHSM 2 is not installed: the token's "
		       "checks left out\n");
	return token;
}

START_TEST(token_refusals)
{
	char msg[512], want[512];

	if (!have_token())
		return;
	/* no PIN (none in the URI): never a prompt, the fix names the
	 * option that gives it */
	ck_assert_int_eq(refused(URI, NULL, NULL, msg, sizeof(msg)), -EACCES);
	ck_assert_str_eq(msg, URI ": no private key there (a token needs its "
				  "PIN: give its passphrase)");
	ck_assert_int_eq(refused(URI, "9999", NULL, msg, sizeof(msg)), -EINVAL);
	ck_assert_str_eq(msg, URI ": no private key there, or the PIN is "
				  "wrong");
	ck_assert_int_eq(refused("pkcs11:token=fvunit;object=none;"
				 "type=private",
				 "1234", NULL, msg, sizeof(msg)),
			 -EINVAL);
	ck_assert_str_eq(msg, "pkcs11:token=fvunit;object=none;type=private: "
			      "no private key there, or the PIN is wrong");
	/* a module that is none, or no PKCS#11 module: refused before the
	 * engine starts, naming it (it was said as a key not there, or a
	 * wrong PIN, after libp11's own line on stderr) */
	ck_assert_int_eq(
		refused(URI, "1234", "/nonexistent/p11.so", msg, sizeof(msg)),
		-EINVAL);
	ck_assert_str_eq(msg, URI ": the PKCS#11 module /nonexistent/p11.so: "
				  "No such file or directory");
	ck_assert_int_eq(refused(URI, "1234", key_pem, msg, sizeof(msg)),
			 -EINVAL);
	snprintf(want, sizeof(want),
		 "%s: %s is not a PKCS#11 module (%s: invalid ELF header)", URI,
		 key_pem, key_pem);
	ck_assert_str_eq(msg, want);
}
END_TEST

/* The key loaded as uri, pin and module say: the token's, imported. */
static void loads(const char *uri, const char *pin, const char *module)
{
	struct ht_error err = {0};
	EVP_PKEY *k = NULL;

	ck_assert_msg(verity_pkcs11_load_key(uri, pin, module, &k, &err) == 0,
		      "%s: %s", uri, ht_msg(&err));
	ck_assert_ptr_nonnull(k);
	ck_assert_int_eq(EVP_PKEY_eq(k, imported), 1);
	EVP_PKEY_free(k);
}

/* (after the refusals: a load with the PIN leaves the token logged in
 * for the process) */
START_TEST(token_keys)
{
	if (!have_token())
		return;
	loads(URI, "1234", NULL);
	loads(URI ";pin-value=1234", NULL, NULL);
	loads(URI, "1234", SOFTHSM_MODULE);
	/* the key by its id alone */
	loads("pkcs11:token=fvunit;id=%01;type=private", "1234", NULL);
}
END_TEST

int main(void)
{
	static const struct unit_suite u = {.name = "pkcs11",
					    .timeout = 60,
					    .setup = setup,
					    .teardown = teardown,
					    .once = 1};

	return run_unit(&u, UNIT_TESTS(uris, token_refusals, token_keys));
}
