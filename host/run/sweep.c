/* sweep: a sweep file (a base config and a matrix of flags, or a list of configs) loaded into the configurations it runs (sweep_run.c runs them, sweep_out.c writes the comparison). */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"sweep"
#include "sweep.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "config/cflags.h"
#include "config/jsonld.h"
#include "lab/boards.h"
#include "util/err.h"
#include "util/log.h"
#include "result/run.h"
#include "util/util.h"

static int fail(char *err, size_t errlen, int code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(char *err, size_t errlen, int code, const char *fmt, ...)
{
	va_list ap;

	if (err != NULL && errlen > 0) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return code;
}

static char *dir_of(const char *path, char *buf, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (slash == NULL) {
		snprintf(buf, len, ".");
	} else {
		snprintf(buf, len, "%.*s", (int)(slash - path), path);
	}
	return buf;
}

static void join(const char *dir, const char *name, char *buf, size_t len)
{
	if (name[0] == '/') {
		snprintf(buf, len, "%s", name);
	} else {
		snprintf(buf, len, "%s/%s", dir, name);
	}
}

/* "-O2 -flto" -> "O2_flto": a name the config rules accept. */
static void flags_name(const cJSON *set, char *buf, size_t len)
{
	const cJSON *f;
	size_t o = 0;

	buf[0] = '\0';
	cJSON_ArrayForEach(f, set)
	{
		const char *s = f->valuestring;

		while (*s == '-') {
			s++;
		}
		for (; *s != '\0' && o + 2 < len; s++) {
			int ok = (*s >= 'a' && *s <= 'z') ||
				 (*s >= 'A' && *s <= 'Z') ||
				 (*s >= '0' && *s <= '9') || *s == '.' ||
				 *s == '+' || *s == '-';

			buf[o++] = ok ? *s : '_';
		}
		if (o + 2 < len) {
			buf[o++] = '_';
		}
	}
	if (o > 0) {
		o--; /* the last separator */
	}
	buf[o] = '\0';
}

static int load_one(const char *path, struct hil_config *cfg, char *err,
		    size_t errlen)
{
	char msg[1024];
	int ret = hil_config_load(path, cfg, msg, sizeof(msg));

	if (ret != HIL_OK) {
		return fail(err, errlen, ret, "%s", msg);
	}
	return HIL_OK;
}

/*
 * Each configuration's board, found as a single run finds it
 * (cmd_run_board.c): a config that names its board takes the map's probe and
 * port, and sw->lock names the lock its run takes. Without this a sweep on a
 * board would flash it while another run or the daemon is using it.
 */
static int find_boards(struct hil_sweep *sw, char *err, size_t errlen)
{
	const char *path = hil_boards_path();
	const struct hil_boards *m = NULL;
	struct hil_boards map;
	char msg[1024];
	int named = 0;
	size_t i;
	int ret;

	for (i = 0; i < sw->n; i++) {
		named |= sw->cfgs[i].board.id[0] != '\0';
	}
	if (access(path, R_OK) == 0) {
		ret = hil_boards_load(path, &map, msg, sizeof(msg));
		if (ret == HIL_OK) {
			m = &map;
		} else if (named) {
			return fail(err, errlen, ret, "%s", msg);
		}
		/* Otherwise, as for a single run, a map that does not load
		 * leaves every board locked under its board.name. */
	}
	ret = HIL_OK;
	for (i = 0; i < sw->n; i++) {
		struct hil_config *c = &sw->cfgs[i];
		const char *id;

		ret = hil_boards_apply(m, c, msg, sizeof(msg));
		if (ret != HIL_OK) {
			ret = fail(err, errlen, ret, "%s: %s", c->path, msg);
			break;
		}
		id = hil_boards_run_lock(m, c);
		snprintf(sw->lock[i], sizeof(sw->lock[i]), "%s",
			 id != NULL ? id : "");
	}
	if (m != NULL) {
		hil_boards_free(&map);
	}
	return ret;
}

int hil_sweep_from_files(char *const *paths, size_t n, struct hil_sweep *sw,
			 char *err, size_t errlen)
{
	size_t i, j;
	int ret;

	memset(sw, 0, sizeof(*sw));
	if (n == 0 || n > HIL_SWEEP_MAX) {
		return fail(err, errlen, HIL_ERR_ARG,
			    "a sweep takes 1 to %d configurations",
			    HIL_SWEEP_MAX);
	}
	sw->cfgs = calloc(n, sizeof(*sw->cfgs));
	if (sw->cfgs == NULL) {
		return HIL_ERR_NOMEM;
	}
	snprintf(sw->name, sizeof(sw->name), "sweep");
	for (i = 0; i < n; i++) {
		ret = load_one(paths[i], &sw->cfgs[i], err, errlen);
		if (ret != HIL_OK) {
			hil_sweep_free(sw);
			return ret;
		}
		sw->n++;
		for (j = 0; j < i; j++) {
			if (strcmp(sw->cfgs[j].name, sw->cfgs[i].name) == 0) {
				ret = fail(
					err, errlen, HIL_ERR_CONFIG,
					"%s and %s are both named \"%s\": a sweep compares configurations by name",
					paths[j], paths[i], sw->cfgs[i].name);
				hil_sweep_free(sw);
				return ret;
			}
		}
	}
	ret = find_boards(sw, err, errlen);
	if (ret != HIL_OK) {
		hil_sweep_free(sw);
	}
	return ret;
}

/* Each flag set of sets as a copy of proto in sw (sw->n counts each the
 * moment it is copied: hil_sweep_free() frees it). */
static int matrix_sets(const char *path, const cJSON *sets,
		       const struct hil_config *proto, struct hil_sweep *sw,
		       char *err, size_t errlen)
{
	const cJSON *set;
	char why[512];
	size_t i = 0;
	int ret;

	cJSON_ArrayForEach(set, sets)
	{
		struct hil_config *c = &sw->cfgs[i];
		const cJSON *f;
		char suffix[HIL_CFG_NAME];
		size_t k = 0;

		if (hil_config_copy(c, proto) != HIL_OK) {
			return HIL_ERR_NOMEM;
		}
		sw->n = i + 1;
		if (!cJSON_IsArray(set) || cJSON_GetArraySize(set) < 1 ||
		    cJSON_GetArraySize(set) > HIL_CFG_MAX_FLAGS) {
			return fail(
				err, errlen, HIL_ERR_CONFIG,
				"%s: cflags[%zu]: expected a list of 1 to %d flags",
				path, i, HIL_CFG_MAX_FLAGS);
		}
		cJSON_ArrayForEach(f, set)
		{
			if (!cJSON_IsString(f) || f->valuestring[0] != '-' ||
			    strlen(f->valuestring) >= HIL_CFG_NAME ||
			    strpbrk(f->valuestring, " \t;`$|&<>'\"\\()") !=
				    NULL) {
				return fail(
					err, errlen, HIL_ERR_CONFIG,
					"%s: cflags[%zu][%zu]: expected a compiler flag such as \"-O2\"",
					path, i, k);
			}
			snprintf(c->build.cflags[k], HIL_CFG_NAME, "%s",
				 f->valuestring);
			k++;
		}
		c->build.n_cflags = k;
		/* The one allowlist, as for a config's own build.cflags. */
		ret = hil_cflags_check(c, &k, why, sizeof(why));
		if (ret != HIL_OK) {
			return fail(err, errlen, ret,
				    "%s: cflags[%zu][%zu]: %s", path, i, k,
				    why);
		}
		flags_name(set, suffix, sizeof(suffix));
		snprintf(c->name, sizeof(c->name), "%.30s-%.30s", proto->name,
			 suffix);
		i++;
	}
	return HIL_OK;
}

static int load_matrix(const char *path, const char *dir, const cJSON *root,
		       struct hil_sweep *sw, char *err, size_t errlen)
{
	const cJSON *base = cJSON_GetObjectItemCaseSensitive(root, "base");
	const cJSON *sets = cJSON_GetObjectItemCaseSensitive(root, "cflags");
	char base_path[HIL_CFG_STR * 2];
	struct hil_config proto;
	int ret;

	if (!cJSON_IsString(base)) {
		return fail(err, errlen, HIL_ERR_CONFIG,
			    "%s: base: expected the path of a config", path);
	}
	if (!cJSON_IsArray(sets) || cJSON_GetArraySize(sets) < 1 ||
	    cJSON_GetArraySize(sets) > HIL_SWEEP_MAX) {
		return fail(err, errlen, HIL_ERR_CONFIG,
			    "%s: cflags: expected 1 to %d flag sets", path,
			    HIL_SWEEP_MAX);
	}
	join(dir, base->valuestring, base_path, sizeof(base_path));
	ret = load_one(base_path, &proto, err, errlen);
	if (ret != HIL_OK) {
		return ret;
	}
	sw->cfgs = calloc((size_t)cJSON_GetArraySize(sets), sizeof(*sw->cfgs));
	if (sw->cfgs == NULL) {
		hil_config_free(&proto);
		return HIL_ERR_NOMEM;
	}
	ret = matrix_sets(path, sets, &proto, sw, err, errlen);
	hil_config_free(&proto);
	return ret;
}

int hil_sweep_load(const char *path, struct hil_sweep *sw, char *err,
		   size_t errlen)
{
	static const char *const keys[] = {"name", "configs", "base", "cflags",
					   NULL};
	struct hil_jsonld ld;
	char dir[HIL_CFG_STR];
	cJSON *root = NULL;
	const cJSON *it;
	int ret;

	memset(sw, 0, sizeof(*sw));
	/* The one JSON loader: bounded, a regular file, no key twice, errors
	 * with the line and column, unknown keys with a near miss. */
	hil_jsonld_init(&ld, err, errlen);
	ld.kind = "a sweep";
	ret = hil_jsonld_load(&ld, path, &root);
	if (ret == HIL_OK) {
		ret = hil_jsonld_check_keys(&ld, root, "", keys);
	}
	it = hil_jsonld_member(root, "name");
	if (ret == HIL_OK && it != NULL) {
		ret = hil_jsonld_str(&ld, it, "name", sw->name,
				     sizeof(sw->name), 0);
	}
	hil_jsonld_done(&ld);
	if (ret != HIL_OK) {
		goto out;
	}
	dir_of(path, dir, sizeof(dir));
	it = cJSON_GetObjectItemCaseSensitive(root, "configs");
	if (it != NULL) {
		char *paths[HIL_SWEEP_MAX];
		char buf[HIL_SWEEP_MAX][HIL_CFG_STR * 2];
		const cJSON *p;
		size_t n = 0;

		if (cJSON_GetObjectItemCaseSensitive(root, "base") != NULL ||
		    !cJSON_IsArray(it) || cJSON_GetArraySize(it) < 1 ||
		    cJSON_GetArraySize(it) > HIL_SWEEP_MAX) {
			ret = fail(
				err, errlen, HIL_ERR_CONFIG,
				"%s: configs: expected 1 to %d config paths (and no base)",
				path, HIL_SWEEP_MAX);
			goto out;
		}
		cJSON_ArrayForEach(p, it)
		{
			if (!cJSON_IsString(p)) {
				ret = fail(err, errlen, HIL_ERR_CONFIG,
					   "%s: configs[%zu]: expected a path",
					   path, n);
				goto out;
			}
			join(dir, p->valuestring, buf[n], sizeof(buf[n]));
			paths[n] = buf[n];
			n++;
		}
		ret = hil_sweep_from_files(paths, n, sw, err, errlen);
	} else {
		ret = load_matrix(path, dir, root, sw, err, errlen);
		if (ret == HIL_OK) {
			ret = find_boards(sw, err, errlen);
		}
	}
	it = hil_jsonld_member(root, "name");
	if (ret == HIL_OK) {
		snprintf(sw->name, sizeof(sw->name), "%s",
			 cJSON_IsString(it) ? it->valuestring : "sweep");
	}
out:
	cJSON_Delete(root);
	if (ret != HIL_OK) {
		hil_sweep_free(sw);
	}
	return ret;
}

void hil_sweep_free(struct hil_sweep *sw)
{
	size_t i;

	for (i = 0; sw->cfgs != NULL && i < sw->n; i++) {
		hil_config_free(&sw->cfgs[i]);
	}
	free(sw->cfgs);
	sw->cfgs = NULL;
	sw->n = 0;
}
