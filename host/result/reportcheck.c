/* reportcheck: a report's keys and their types checked against the codec's tables (rows: rowcodec.c, the rest: headcodec.c), the one schema of report.json. */
#define _POSIX_C_SOURCE 200809L
#include "reportcheck.h"

#include <stdio.h>
#include <string.h>

#include "result/headcodec.h"
#include "util/err.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/*
 * What every reader of a report's row needs: which figure of which
 * measurement it is, and how it ended. Older reports lack the rest (a
 * build_id, samples, ...); readers take it when it is there.
 */
static const char *const row_required[] = {
	"algorithm", "implementation", "operation", "msg_len", "ad_len",
	"unit",	     "runs",	       "median",    "status",
};

static int required(const char *key)
{
	size_t i;

	for (i = 0; i < N_OF(row_required); i++) {
		if (strcmp(row_required[i], key) == 0) {
			return 1;
		}
	}
	return 0;
}

/* One key of row idx against its field f: there when required, of the
 * type f's readers take. */
static int check_field(const cJSON *o, const struct hil_rfield *f, int idx,
		       const char *name, char *err, size_t errlen)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, f->key);
	const char *what = "";

	if (v == NULL && required(f->key)) {
		snprintf(err, errlen, "%s: missing key \"rows[%d].%s\"", name,
			 idx, f->key);
		return HIL_ERR_ARG;
	}
	if (!hil_rfield_type_ok(f, v, &what)) {
		snprintf(err, errlen, "%s: \"rows[%d].%s\" should be %s", name,
			 idx, f->key, what);
		return HIL_ERR_ARG;
	}
	return HIL_OK;
}

static int check_row(const cJSON *r, int idx, const char *name, char *err,
		     size_t errlen)
{
	const struct hil_rtable *t = hil_result_table("");
	const struct hil_rtable *sub;
	size_t i;
	int ret = HIL_OK;

	if (!cJSON_IsObject(r)) {
		snprintf(err, errlen, "%s: \"rows[%d]\" should be an object",
			 name, idx);
		return HIL_ERR_ARG;
	}
	for (i = 0; ret == HIL_OK && i < t->n; i++) {
		ret = check_field(r, &t->fields[i], idx, name, err, errlen);
	}
	for (i = 0; ret == HIL_OK && i < hil_result_row_n_shown; i++) {
		ret = check_field(r, &hil_result_row_shown[i], idx, name, err,
				  errlen);
	}
	/* The row's objects (digest, energy, leak, model_cycles). */
	for (sub = hil_result_row_tables; ret == HIL_OK && sub->path != NULL;
	     sub++) {
		const cJSON *v;

		if (sub->path[0] == '\0' || strchr(sub->path, '.') != NULL) {
			continue;
		}
		v = cJSON_GetObjectItemCaseSensitive(r, sub->path);
		if (v != NULL && !cJSON_IsObject(v)) {
			snprintf(err, errlen,
				 "%s: \"rows[%d].%s\" should be an object",
				 name, idx, sub->path);
			ret = HIL_ERR_ARG;
		}
	}
	return ret;
}

/* The arrays the readers take by hand. */
static int check_arrays(const cJSON *report, const char *name, char *err,
			size_t errlen)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(report, "rows");

	if (v == NULL) {
		snprintf(err, errlen, "%s: missing key \"rows\"", name);
		return HIL_ERR_ARG;
	}
	if (!cJSON_IsArray(v)) {
		snprintf(err, errlen, "%s: \"rows\" should be an array", name);
		return HIL_ERR_ARG;
	}
	v = cJSON_GetObjectItemCaseSensitive(report, "fits");
	if (v != NULL && !cJSON_IsArray(v)) {
		snprintf(err, errlen, "%s: \"fits\" should be an array", name);
		return HIL_ERR_ARG;
	}
	/* An object in reports of before sizes[] (the image's sizes). */
	v = cJSON_GetObjectItemCaseSensitive(report, "sizes");
	if (v != NULL && !cJSON_IsArray(v) && !cJSON_IsObject(v)) {
		snprintf(err, errlen,
			 "%s: \"sizes\" should be an object or an array", name);
		return HIL_ERR_ARG;
	}
	v = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(report, "build"), "cflags");
	if (v != NULL && !cJSON_IsArray(v)) {
		snprintf(err, errlen, "%s: \"build.cflags\" should be an array",
			 name);
		return HIL_ERR_ARG;
	}
	v = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(report, "build"),
		"algorithms");
	if (v != NULL && !cJSON_IsString(v)) {
		snprintf(err, errlen,
			 "%s: \"build.algorithms\" should be a string", name);
		return HIL_ERR_ARG;
	}
	return HIL_OK;
}

int hil_result_report_check(const cJSON *report, const char *name, char *err,
			    size_t errlen)
{
	const cJSON *r;
	int idx = 0;
	int ret;

	ret = hil_result_head_check(report, name, err, errlen);
	if (ret == HIL_OK) {
		ret = check_arrays(report, name, err, errlen);
	}
	cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(report, "rows"))
	{
		if (ret != HIL_OK) {
			break;
		}
		ret = check_row(r, idx++, name, err, errlen);
	}
	return ret;
}
