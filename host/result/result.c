/* result: hilrun's exit statuses, which failures are transient, and the result file (the spool's schema) that says how a run ended. */
#define _XOPEN_SOURCE  700 /* realpath */
#define HIL_LOG_PREFIX "result"
#include "result.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "util/err.h"
#include "util/log.h"
#include "util/util.h"

#define PATH_BYTES 4096

int hil_err_transient(int err)
{
	switch (err) {
	case HIL_ERR_TIMEOUT:
	case HIL_ERR_IO:
	case HIL_ERR_PROCESS:
	case HIL_ERR_PROTO:
	case HIL_ERR_NA:
	case HIL_ERR_TARGET:
	case HIL_ERR_TARGET_FAULT:
		return 1;
	default:
		return 0;
	}
}

int hil_exit_status(int ret, int transient, int regression)
{
	switch (ret) {
	case HIL_OK:
		return regression ? HIL_EXIT_REGRESSION : HIL_EXIT_ALL_MEASURED;
	case HIL_ERR_VERIFY:
		return HIL_EXIT_ROWS_FAILED;
	case HIL_ERR_INTERRUPTED:
		return HIL_EXIT_INTERRUPTED;
	default:
		return transient && hil_err_transient(ret)
			       ? HIL_EXIT_TRANSIENT
			       : HIL_EXIT_CANNOT_START;
	}
}

const char *hil_exit_summary(int exit_status)
{
	switch (exit_status) {
	case HIL_EXIT_ALL_MEASURED:
		return "all rows measured and verified";
	case HIL_EXIT_ROWS_FAILED:
		return "some rows failed (see the report)";
	case HIL_EXIT_REGRESSION:
		return "regression against the baseline";
	case HIL_EXIT_INTERRUPTED:
		return "interrupted";
	case HIL_EXIT_TRANSIENT:
		return "board busy, unreachable or lost: try again later";
	default:
		return "could not start";
	}
}

static cJSON *str_or_null(const char *s)
{
	return s != NULL && s[0] != '\0' ? cJSON_CreateString(s)
					 : cJSON_CreateNull();
}

static int add(cJSON *o, const char *key, cJSON *v)
{
	if (v == NULL) {
		return -1;
	}
	cJSON_AddItemToObject(o, key, v);
	return 0;
}

int hil_result_write(const char *path, const struct hil_result *r)
{
	char report[PATH_BYTES + 16], host[256] = "", finished[32];
	const char *dir = r->run_dir;
	char *abs = NULL, *text = NULL;
	cJSON *o = cJSON_CreateObject();
	int ret = HIL_ERR_NOMEM;

	report[0] = '\0';
	if (dir != NULL && dir[0] != '\0') {
		/* Absolute, so that whoever reads the result need not know
		 * the working directory of the run. */
		abs = realpath(dir, NULL);
		if (abs != NULL) {
			dir = abs;
		}
		snprintf(report, sizeof(report), "%s/report.json", dir);
		if (access(report, F_OK) != 0) {
			report[0] = '\0'; /* a run folder without a report */
		}
	}
	/* The lab host's name as the report gives it (runner.c): a CI
	 * engine sets $HILRUN_HOST to its worker's name, and result.json and
	 * report.json must not name two hosts. */
	if (getenv("HILRUN_HOST") != NULL && getenv("HILRUN_HOST")[0] != '\0') {
		snprintf(host, sizeof(host), "%s", getenv("HILRUN_HOST"));
	} else if (gethostname(host, sizeof(host) - 1) != 0) {
		host[0] = '\0';
	}
	hil_utc_iso(finished, sizeof(finished));
	if (o == NULL || add(o, "job", str_or_null(r->job)) ||
	    add(o, "status",
		cJSON_CreateString(r->exit_status == HIL_EXIT_ALL_MEASURED
					   ? "done"
					   : "failed")) ||
	    add(o, "exit_status", cJSON_CreateNumber(r->exit_status)) ||
	    add(o, "summary",
		cJSON_CreateString(hil_exit_summary(r->exit_status))) ||
	    add(o, "transient",
		cJSON_CreateBool(r->exit_status == HIL_EXIT_TRANSIENT)) ||
	    add(o, "error", str_or_null(r->error)) ||
	    add(o, "report", str_or_null(report)) ||
	    add(o, "run_dir", str_or_null(dir)) ||
	    add(o, "config", str_or_null(r->config)) ||
	    add(o, "baseline", str_or_null(r->baseline)) ||
	    add(o, "board", str_or_null(r->board)) ||
	    add(o, "host", str_or_null(host)) ||
	    add(o, "started", str_or_null(r->started)) ||
	    add(o, "finished", cJSON_CreateString(finished))) {
		hil_err("%s: out of memory writing the result", path);
		goto out;
	}
	text = cJSON_Print(o);
	if (text == NULL) {
		hil_err("%s: out of memory writing the result", path);
		goto out;
	}
	{
		size_t n = strlen(text);

		text[n] = '\n'; /* written by length: NUL not needed */
		ret = hil_write_atomic(path, text, n + 1); /* logs its error */
	}
out:
	free(text);
	free(abs);
	cJSON_Delete(o);
	return ret;
}
