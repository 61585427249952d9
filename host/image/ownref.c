/* ownref: the host build of a user's folder of an algorithm hilrun does not bundle, loaded as the reference its target build is checked against. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"ownref"
#include "ownref.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "build.h"
#include "util/err.h"
#include "util/log.h"
#include "util/proc.h"

#define OWNREF_TIMEOUT_MS 300000u

/* The C name of alg/impl, as the Makefile's impl_sym makes it. */
static void sym_of(const struct hil_config_alg *a, char *buf, size_t len)
{
	size_t o = 0;
	const char *parts[2] = {a->name, a->impl};
	size_t k;

	for (k = 0; k < 2 && o + 1 < len; k++) {
		const char *p;

		if (k == 1) {
			buf[o++] = '_';
		}
		for (p = parts[k]; *p != '\0' && o + 1 < len; p++) {
			buf[o++] = strchr("-+./", *p) != NULL ? '_' : *p;
		}
	}
	buf[o] = '\0';
}

int hil_ownref_build(const char *root, const char *fw_dir,
		     const struct hil_config_alg *a, const char *log_path,
		     struct hil_ownref *out)
{
	char link[HIL_PATH];
	char sym[2 * HIL_CFG_NAME + 8];
	char var_impl[HIL_PATH + 2 * HIL_CFG_NAME + 8];
	char var_dir[HIL_PATH + 16];
	const struct registry_alg *alg;
	int status = -1;
	int ret;

	memset(out, 0, sizeof(*out));
	if (hil_build_source_link(fw_dir, a, link, sizeof(link)) != HIL_OK) {
		return HIL_ERR_ARG;
	}
	sym_of(a, sym, sizeof(sym));
	snprintf(var_impl, sizeof(var_impl), "HOST_IMPL=%s/%s=%s", a->name,
		 a->impl, link);
	snprintf(var_dir, sizeof(var_dir), "FW_DIR=%s", fw_dir);
	snprintf(out->so, sizeof(out->so), "%s/host/%s.so", fw_dir, sym);
	{
		char *argv[] = {"make",	     "--no-print-directory",
				"-C",	     (char *)root,
				"host-impl", var_impl,
				var_dir,     NULL};

		ret = hil_proc_run(argv, log_path, OWNREF_TIMEOUT_MS, &status);
	}
	if (ret == HIL_ERR_INTERRUPTED) {
		return ret; /* a stop, not a folder that does not build */
	}
	if (ret != HIL_OK) {
		hil_err("could not run make: %s", hil_strerror(ret));
		return ret == HIL_ERR_NA ? HIL_ERR_NA : HIL_ERR_BUILD;
	}
	if (status != 0) {
		hil_info("%s/%s does not build for this host (see %s)", a->name,
			 a->impl, log_path);
		return HIL_ERR_BUILD;
	}
	out->handle = dlopen(out->so, RTLD_NOW | RTLD_LOCAL);
	if (out->handle == NULL) {
		hil_info("%s/%s: its host build does not load: %s", a->name,
			 a->impl, dlerror());
		return HIL_ERR_BUILD;
	}
	strncat(sym, "_alg", sizeof(sym) - strlen(sym) - 1);
	alg = (const struct registry_alg *)dlsym(out->handle, sym);
	if (alg == NULL) {
		hil_info("%s/%s: its host build has no %s", a->name, a->impl,
			 sym);
		hil_ownref_close(out);
		return HIL_ERR_BUILD;
	}
	out->alg = *alg;
	return HIL_OK;
}

void hil_ownref_close(struct hil_ownref *r)
{
	if (r != NULL && r->handle != NULL) {
		dlclose(r->handle);
		r->handle = NULL;
	}
}
