/* load: read report.json and check it (its version here, its keys and their types against result/'s codec tables) for the renderers. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"report"
#include "render_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/err.h"
#include "report/report.h"
#include "result/reportcheck.h"
#include "util/util.h"

/* ---------------------------------------------------------------- check */

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
	double version;

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
	/* The keys and their types: result/'s codec tables say them. */
	return hil_result_report_check(report, name, err, errlen);
}

int hil_report_load(const char *path, cJSON **out, char *err, size_t errlen)
{
	const char *end = NULL;
	cJSON *root;
	char *text = NULL;
	char why[160];
	size_t len = 0;
	int fd, ret;

	*out = NULL;
	/* A regular file only (a FIFO would hang us), bounded; the history's
	 * import and a job's baseline read reports from other hosts. */
	fd = hil_open_regular(path, HIL_READ_MAX, why, sizeof(why));
	if (fd < 0) {
		snprintf(err, errlen, "%s: cannot read the report: %s", path,
			 why);
		return HIL_ERR_IO;
	}
	ret = hil_read_fd(fd, HIL_READ_MAX, &text, &len);
	close(fd);
	if (ret != HIL_OK) {
		snprintf(err, errlen, "%s: cannot read the report", path);
		return ret;
	}
	if (strlen(text) != len) {
		snprintf(err, errlen, "%s: not a report (it holds a NUL byte)",
			 path);
		free(text);
		return HIL_ERR_ARG;
	}
	root = cJSON_ParseWithOpts(text, &end, 1);
	if (root == NULL) {
		size_t at =
			end != NULL && end >= text ? (size_t)(end - text) : 0;
		size_t line = 1, i, last = len;

		for (i = 0; i < at && i < len; i++) {
			line += text[i] == '\n';
		}
		/* A report ends with its closing brace: without it, it was most
		 * likely cut short (a full disk, an upload cut off), wherever
		 * the parser stopped. */
		while (last > 0 && strchr(" \t\r\n", text[last - 1]) != NULL) {
			last--;
		}
		if (at >= len || last == 0 || text[last - 1] != '}') {
			snprintf(
				err, errlen,
				"%s: not valid JSON: it ends too early (truncated?) at byte %zu",
				path, at >= len ? len : at);
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
