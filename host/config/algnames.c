/* algnames: the algorithm and implementation names of a config checked against what hilrun bundles, before anything is built. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"config"
#include "algnames.h"

#include <stdio.h>
#include <string.h>

#include "util/err.h"
#include "util/log.h"
#include "registry.h"
#include "util/util.h"

/* The bundled name nearest to name (algorithm names, or the implementation
 * names of one algorithm), or NULL when none is near. */
static const char *nearest(const char *name, const char *of_alg)
{
	const char *best = NULL;
	size_t best_d = 4;
	size_t i;

	for (i = 0; i < registry_count(); i++) {
		const struct registry_alg *a = registry_get(i);
		const char *cand = of_alg != NULL ? a->impl : a->name;
		size_t d;

		if (of_alg != NULL && strcmp(a->name, of_alg) != 0) {
			continue;
		}
		d = hil_edit_distance(name, cand);
		if (d < best_d && 3 * d <= strlen(cand) + 1) {
			best_d = d;
			best = cand;
		}
	}
	return best;
}

const char *hil_algnames_nearest(const char *name, const char *of_alg)
{
	return nearest(name, of_alg);
}

static int is_bundled(const char *alg, const char *impl)
{
	size_t i;

	for (i = 0; i < registry_count(); i++) {
		const struct registry_alg *a = registry_get(i);

		if (strcmp(a->name, alg) == 0 &&
		    (impl == NULL || strcmp(a->impl, impl) == 0)) {
			return 1;
		}
	}
	return 0;
}

/* "ref, bi32" for one algorithm, or every algorithm name once. */
static void list_names(const char *of_alg, char *buf, size_t len)
{
	size_t i, j, o = 0;

	buf[0] = '\0';
	for (i = 0; i < registry_count(); i++) {
		const struct registry_alg *a = registry_get(i);
		const char *name = of_alg != NULL ? a->impl : a->name;
		int seen = 0;
		int n;

		if (of_alg != NULL && strcmp(a->name, of_alg) != 0) {
			continue;
		}
		for (j = 0; j < i && of_alg == NULL; j++) {
			seen = seen || strcmp(registry_get(j)->name, name) == 0;
		}
		if (seen || o >= len) {
			continue;
		}
		n = snprintf(buf + o, len - o, "%s%s", o ? ", " : "", name);
		if (n < 0) {
			return;
		}
		o += (size_t)n;
	}
}

int hil_algnames_why(const struct hil_config *cfg, char *err, size_t len)
{
	const char *file = cfg->path;
	const char *sep = cfg->path[0] != '\0' ? ": " : "";
	char known[1024];
	size_t i;

	for (i = 0; i < cfg->n_algs; i++) {
		const struct hil_config_alg *a = &cfg->algs[i];
		const char *near;

		if (a->path[0] != '\0') {
			continue; /* the user's own folder: any algorithm */
		}
		if (!is_bundled(a->name, NULL)) {
			near = nearest(a->name, NULL);
			list_names(NULL, known, sizeof(known));
			if (near != NULL && file[0] == '\0') {
				/* No file: a quick run's names, from --alg. */
				snprintf(
					err, len,
					"algorithms[%zu].name (--alg) \"%s\": not an algorithm hilrun bundles (did you mean \"%s\"?)",
					i, a->name, near);
			} else if (near != NULL) {
				snprintf(
					err, len,
					"%s%salgorithms[%zu].name: \"%s\" is not an algorithm hilrun bundles (did you mean \"%s\"?)",
					file, sep, i, a->name, near);
			} else {
				snprintf(
					err, len,
					"%s%salgorithms[%zu].name: \"%s\" is not an algorithm hilrun bundles (bundled: %s; for a folder of your own, give its \"path\")",
					file, sep, i, a->name, known);
			}
			return HIL_ERR_CONFIG;
		}
		if (a->impl[0] != '\0' && !is_bundled(a->name, a->impl)) {
			near = nearest(a->impl, a->name);
			list_names(a->name, known, sizeof(known));
			if (near != NULL) {
				snprintf(
					err, len,
					"%s%salgorithms[%zu].impl: \"%s\" is not a bundled implementation of %s (did you mean \"%s\"? bundled: %s; for a folder of your own, give its \"path\")",
					file, sep, i, a->impl, a->name, near,
					known);
			} else {
				snprintf(
					err, len,
					"%s%salgorithms[%zu].impl: \"%s\" is not a bundled implementation of %s (bundled: %s; for a folder of your own, give its \"path\")",
					file, sep, i, a->impl, a->name, known);
			}
			return HIL_ERR_CONFIG;
		}
	}
	return HIL_OK;
}

int hil_algnames_check(const struct hil_config *cfg)
{
	char err[2048];
	int ret = hil_algnames_why(cfg, err, sizeof(err));

	if (ret != HIL_OK) {
		hil_err("%s", err);
	}
	return ret;
}
