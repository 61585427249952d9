/* load: read report.json and check it has the keys, of the types, that the renderers need. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"report"
#include "render_int.h"

#include <math.h>
#include <stdlib.h>

#include "util/err.h"
#include "report/report.h"
#include "util/util.h"

/* ---------------------------------------------------------------- check */

enum key_type {
	T_STR,
	T_NUM,
	T_BOOL,
	T_OBJ,
	T_ARR,
	T_NUM_NULL,  /* a number or null */
	T_BOOL_NULL, /* a bool or null */
	T_OBJ_ARR,   /* an object or an array */
};

struct key_spec {
	const char *key;
	enum key_type type;
	int required;
};

static const char *const type_names[] = {
	[T_STR] = "a string",
	[T_NUM] = "a number",
	[T_BOOL] = "true or false",
	[T_OBJ] = "an object",
	[T_ARR] = "an array",
	[T_NUM_NULL] = "a number or null",
	[T_BOOL_NULL] = "true, false or null",
	[T_OBJ_ARR] = "an object or an array",
};

static int type_ok(const cJSON *v, enum key_type t)
{
	switch (t) {
	case T_STR:
		return cJSON_IsString(v);
	case T_NUM:
		return cJSON_IsNumber(v);
	case T_BOOL:
		return cJSON_IsBool(v);
	case T_OBJ:
		return cJSON_IsObject(v);
	case T_ARR:
		return cJSON_IsArray(v);
	case T_NUM_NULL:
		return cJSON_IsNumber(v) || cJSON_IsNull(v);
	case T_BOOL_NULL:
		return cJSON_IsBool(v) || cJSON_IsNull(v);
	case T_OBJ_ARR:
		return cJSON_IsObject(v) || cJSON_IsArray(v);
	}
	return 0;
}

static const struct key_spec top_keys[] = {
	{"schema_version", T_NUM, 1}, {"run", T_OBJ, 1},   {"tool", T_OBJ, 1},
	{"build", T_OBJ, 1},	      {"board", T_OBJ, 1}, {"rows", T_ARR, 1},
	{"sizes", T_OBJ_ARR, 0},      {"image", T_OBJ, 0}, {"fits", T_ARR, 0},
	{"session", T_OBJ, 0},
};

static const struct key_spec run_keys[] = {
	{"id", T_STR, 1},
	{"status", T_STR, 1},
};

static const struct key_spec tool_keys[] = {
	{"name", T_STR, 1},
	{"version", T_STR, 1},
	{"commit", T_STR, 0},
	{"dirty", T_BOOL, 0},
};

static const struct key_spec build_keys[] = {
	{"cflags", T_ARR, 0},
	{"compiler", T_STR, 0},
};

static const struct key_spec board_keys[] = {
	{"name", T_STR, 1},
	{"emulated", T_BOOL, 1},
	{"counter_unit", T_STR, 1},
	{"clock_hz", T_NUM_NULL, 0},
};

static const struct key_spec row_keys[] = {
	{"algorithm", T_STR, 1},
	{"implementation", T_STR, 1},
	{"operation", T_STR, 1},
	{"msg_len", T_NUM, 1},
	{"ad_len", T_NUM, 1},
	{"unit", T_STR, 1},
	{"runs", T_NUM, 1},
	{"median", T_NUM_NULL, 1},
	{"status", T_STR, 1},
	{"mode", T_STR, 0},
	{"mean", T_NUM_NULL, 0},
	{"stddev", T_NUM_NULL, 0},
	{"min", T_NUM_NULL, 0},
	{"max", T_NUM_NULL, 0},
	{"mad", T_NUM_NULL, 0},
	{"per_byte", T_NUM_NULL, 0},
	{"normalized", T_NUM_NULL, 0},
	{"stack_bytes", T_NUM_NULL, 0},
	{"verified", T_BOOL, 0},
	{"verified_by", T_STR, 0},
	{"constant_time", T_BOOL_NULL, 0},
	{"digest", T_OBJ, 0},
	{"energy", T_OBJ, 0},
	{"error", T_STR, 0},
};

#define N_KEYS(a) (sizeof(a) / sizeof((a)[0]))

/* where: "" at the top, "run." or "rows[3]." inside. */
static int check_keys(const cJSON *o, const struct key_spec *spec, size_t n,
		      const char *name, const char *where, char *err,
		      size_t errlen)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const cJSON *v =
			cJSON_GetObjectItemCaseSensitive(o, spec[i].key);

		if (v == NULL) {
			if (!spec[i].required) {
				continue;
			}
			snprintf(err, errlen, "%s: missing key \"%s%s\"", name,
				 where, spec[i].key);
			return HIL_ERR_ARG;
		}
		if (!type_ok(v, spec[i].type)) {
			snprintf(err, errlen, "%s: \"%s%s\" should be %s", name,
				 where, spec[i].key, type_names[spec[i].type]);
			return HIL_ERR_ARG;
		}
	}
	return HIL_OK;
}

/* The first number in the tree that is not finite (1e999 parses to
 * infinity), or NULL: plots would compute with it. */
static const cJSON *non_finite(const cJSON *it)
{
	const cJSON *c;

	if (cJSON_IsNumber(it) && !isfinite(it->valuedouble)) {
		return it;
	}
	for (c = it != NULL ? it->child : NULL; c != NULL; c = c->next) {
		const cJSON *bad = non_finite(c);

		if (bad != NULL) {
			return bad;
		}
	}
	return NULL;
}

int hil_report_check(const cJSON *report, const char *name, char *err,
		     size_t errlen)
{
	static const struct {
		const char *key;
		const struct key_spec *spec;
		size_t n;
	} sub[] = {
		{"run", run_keys, N_KEYS(run_keys)},
		{"tool", tool_keys, N_KEYS(tool_keys)},
		{"build", build_keys, N_KEYS(build_keys)},
		{"board", board_keys, N_KEYS(board_keys)},
	};
	const cJSON *rows, *r;
	double version;
	size_t i;
	int idx = 0;
	int ret;

	if (!cJSON_IsObject(report)) {
		snprintf(
			err, errlen,
			"%s: not a report (the top level is not a JSON object)",
			name);
		return HIL_ERR_ARG;
	}
	{
		const cJSON *bad = non_finite(report);

		if (bad != NULL) {
			snprintf(
				err, errlen,
				"%s: key \"%s\" holds a number out of range (not finite)",
				name, bad->string != NULL ? bad->string : "?");
			return HIL_ERR_ARG;
		}
	}
	/* The version first: keys of another version mean nothing to us. */
	if (!hil_rj_num(report, "schema_version", &version)) {
		snprintf(
			err, errlen,
			"%s: missing key \"schema_version\" (not a hilrun report?)",
			name);
		return HIL_ERR_ARG;
	}
	/* Version 1 had "sizes" as one object for the whole image; version 2
	 * has sizes[] per implementation and "image": both are read. */
	if (version != 1 && version != HIL_REPORT_SCHEMA_VERSION) {
		char v[32];

		hil_fmt_num(v, sizeof(v), version);
		snprintf(
			err, errlen,
			"%s: schema_version %s is not known to this hilrun (it reads versions 1 to %d)",
			name, v, HIL_REPORT_SCHEMA_VERSION);
		return HIL_ERR_ARG;
	}
	ret = check_keys(report, top_keys, N_KEYS(top_keys), name, "", err,
			 errlen);
	if (ret != HIL_OK) {
		return ret;
	}
	for (i = 0; i < N_KEYS(sub); i++) {
		char where[32];

		snprintf(where, sizeof(where), "%s.", sub[i].key);
		ret = check_keys(
			cJSON_GetObjectItemCaseSensitive(report, sub[i].key),
			sub[i].spec, sub[i].n, name, where, err, errlen);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	rows = hil_rj_rows(report);
	cJSON_ArrayForEach(r, rows)
	{
		char where[32];

		snprintf(where, sizeof(where), "rows[%d].", idx);
		if (!cJSON_IsObject(r)) {
			snprintf(err, errlen,
				 "%s: \"rows[%d]\" should be an object", name,
				 idx);
			return HIL_ERR_ARG;
		}
		ret = check_keys(r, row_keys, N_KEYS(row_keys), name, where,
				 err, errlen);
		if (ret != HIL_OK) {
			return ret;
		}
		idx++;
	}
	return HIL_OK;
}

int hil_report_load(const char *path, cJSON **out, char *err, size_t errlen)
{
	const char *end = NULL;
	cJSON *root;
	char *text = NULL;
	size_t len = 0;
	int ret;

	*out = NULL;
	ret = hil_read_file(path, &text, &len);
	if (ret != HIL_OK) {
		snprintf(err, errlen, "%s: cannot read the report", path);
		return ret;
	}
	root = cJSON_ParseWithOpts(text, &end, 1);
	if (root == NULL) {
		size_t at =
			end != NULL && end >= text ? (size_t)(end - text) : 0;
		size_t line = 1, i;

		for (i = 0; i < at && i < len; i++) {
			line += text[i] == '\n';
		}
		if (at >= len) {
			snprintf(
				err, errlen,
				"%s: not valid JSON: it ends too early (truncated?) at byte %zu",
				path, at);
		} else {
			snprintf(err, errlen,
				 "%s: not valid JSON at byte %zu (line %zu)",
				 path, at, line);
		}
		free(text);
		return HIL_ERR_ARG;
	}
	free(text);
	ret = hil_report_check(root, path, err, errlen);
	if (ret != HIL_OK) {
		cJSON_Delete(root);
		return ret;
	}
	*out = root;
	return HIL_OK;
}
