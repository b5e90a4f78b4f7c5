/* Signing keys held in a PKCS#11 token (a smart card, an HSM, SoftHSM):
 * a "pkcs11:" URI as the key, loaded through OpenSSL's pkcs11 engine
 * (Debian's libengine-pkcs11-openssl, libp11), which reaches the tokens
 * through p11-kit's proxy module unless the caller names a module. The engine
 * API is deprecated in OpenSSL 3 but is how libp11 and systemd-repart use
 * tokens on Debian 12; it is kept to this file. The engine signs; it never
 * hashes a tree. */
#define OPENSSL_SUPPRESS_DEPRECATED
#include "verity/sign/pkcs11.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <openssl/engine.h>
#include <openssl/err.h>
#include <openssl/ui.h>
#include "hashtree/libcrypto.h"

int verity_pkcs11_is_uri(const char *key)
{
	return key && !strncmp(key, "pkcs11:", 7);
}

static int refuse_to_read(UI *ui, UI_STRING *uis)
{
	(void)ui;
	(void)uis;
	return 0;
}

/* The module the caller names loaded (*handle, kept until the engine
 * is done) to see that it is a PKCS#11 module: libp11 loads it only when
 * the key is asked for, and one it cannot load was said on stderr, in
 * libp11's words, then as a key not there or a wrong PIN. */
static int module_check(const char *uri, const char *module, void **handle,
			struct ht_error *err)
{
	*handle = NULL;
	if (access(module, R_OK))
		return ht_fail(err, EINVAL, "%s: the PKCS#11 module %s: %s",
			       uri, module, strerror(errno));
	dlerror();
	if (!(*handle = dlopen(module, RTLD_LAZY | RTLD_LOCAL)))
		return ht_fail(err, EINVAL,
			       "%s: %s is not a PKCS#11 module (%s)", uri,
			       module, dlerror());
	if (!dlsym(*handle, "C_GetFunctionList")) {
		dlclose(*handle);
		*handle = NULL;
		return ht_fail(err, EINVAL,
			       "%s: %s is not a PKCS#11 module (no "
			       "C_GetFunctionList)",
			       uri, module);
	}
	return 0;
}

int verity_pkcs11_load_key(const char *uri, const char *pin, const char *module,
			   EVP_PKEY **key, struct ht_error *err)
{
	void *handle = NULL;
	UI_METHOD *ui;
	ENGINE *e;
	int r = 0;

	*key = NULL;
	/* (before the engine: one loaded and not started keeps what libp11
	 * allocated) */
	if (module && (r = module_check(uri, module, &handle, err)))
		return r;
	ENGINE_load_dynamic();
	e = ENGINE_by_id("pkcs11");
	if (!e) {
		if (handle)
			dlclose(handle);
		return ht_fail(err, EINVAL,
			       "%s: no pkcs11 engine for OpenSSL (install "
			       "libengine-pkcs11-openssl)",
			       uri);
	}
	/* libp11's own messages off: the error is ours to say, in one line
	 * (an older libp11 without the command just talks) */
	ENGINE_ctrl_cmd(e, "QUIET", 0, NULL, NULL, 1);
	ERR_clear_error();
	if ((module && !ENGINE_ctrl_cmd_string(e, "MODULE_PATH", module, 0)) ||
	    (pin && !ENGINE_ctrl_cmd_string(e, "PIN", pin, 0)) ||
	    !ENGINE_init(e)) {
		r = ht_fail(err, EINVAL,
			    "%s: cannot start the pkcs11 engine%s%s", uri,
			    module ? " with module " : "",
			    module ? module : "");
		ENGINE_free(e);
		if (handle)
			dlclose(handle);
		return r;
	}
	/* a UI that never asks: no prompt from the engine, ever */
	ui = UI_create_method("fastverity: no prompt");
	if (ui)
		UI_method_set_reader(ui, refuse_to_read);
	*key = ENGINE_load_private_key(e, uri, ui, NULL);
	UI_destroy_method(ui);
	if (!*key && pin)
		r = ht_fail(err, EINVAL,
			    "%s: no private key there, or the PIN is wrong",
			    uri);
	else if (!*key)
		r = ht_fail_fix(err, EACCES, HT_PARAM_PASSPHRASE, 0, 0,
				"a token needs its PIN: give %0",
				"%s: no private key there", uri);
	ENGINE_finish(e);
	ENGINE_free(e);
	if (handle)
		dlclose(handle);
	ERR_clear_error();
	return r;
}
