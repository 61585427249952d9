/* servefiling: a finished lab job filed: its result file written, then the job moved out of running/ to done/ or failed/. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"serve"
#include "serve_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/err.h"
#include "util/log.h"
#include "result/result.h"
#include "util/util.h"

/* ---- the result file and filing --------------------------------------- */

static const char *summary_of(int exit_status)
{
	return hil_exit_summary(exit_status);
}

int hil_serve_exit_status_of(int ret)
{
	switch (ret) {
	case HIL_OK:
		return HIL_EXIT_ALL_MEASURED;
	case HIL_ERR_VERIFY:
		return HIL_EXIT_ROWS_FAILED;
	case HIL_SERVE_REGRESSION:
		return HIL_EXIT_REGRESSION;
	case HIL_ERR_INTERRUPTED:
		return HIL_EXIT_INTERRUPTED;
	case HIL_SERVE_TRANSIENT:
		return HIL_EXIT_TRANSIENT;
	default:
		return HIL_EXIT_CANNOT_START;
	}
}

static int write_result(const struct hil_serve_opts *o, const struct job *job,
			const char *dest, const struct outcome *out)
{
	char path[PATH_BYTES];
	struct hil_result r;
	int ret;

	memset(&r, 0, sizeof(r));
	r.job = job->name;
	r.exit_status = out->exit_status;
	r.error = out->error;
	r.run_dir = out->report_dir;
	r.config = out->config;
	r.baseline = out->baseline;
	r.board = out->board;
	r.started = out->started;
	ret = hil_serve_spool_path(path, o, dest, job->base, ".result.json");
	if (ret == HIL_OK) {
		ret = hil_result_write(path, &r);
	}
	return ret;
}

/*
 * The job's text into dest/NAME.json as a new file of the daemon's: the
 * submitter's inode (which it may still hold open, or have linked
 * elsewhere) stays behind and is removed from running/.
 */
static int copy_job(const struct job *job, const char *to)
{
	char *text = NULL, err[256];
	size_t len = 0;
	int ret = hil_serve_read_job(job->fd, &text, &len, err, sizeof(err));

	if (ret != HIL_OK) {
		hil_err("job %s: %s", job->name, err);
		return ret;
	}
	ret = hil_write_atomic(to, text, len); /* logs its error */
	free(text);
	return ret;
}

/*
 * Result first, then the job file: its copy in done/ or failed/ and the
 * removal from running/ are the commit. A crash before that re-runs the job
 * at the next start and overwrites the result.
 */
int hil_serve_file_job(const struct hil_serve_opts *o, const struct job *job,
		       const struct outcome *out)
{
	const char *dest =
		out->exit_status == HIL_EXIT_ALL_MEASURED ? "done" : "failed";
	char from[PATH_BYTES], to[PATH_BYTES];
	struct stat st;

	if (write_result(o, job, dest, out) != HIL_OK) {
		/* A job whose result cannot be written has not succeeded:
		 * say so in failed/ if that can be written at all. */
		struct outcome *bad = malloc(sizeof(*bad));

		if (bad != NULL) {
			*bad = *out;
			if (bad->exit_status == HIL_EXIT_ALL_MEASURED) {
				bad->exit_status = HIL_EXIT_CANNOT_START;
			}
			snprintf(
				bad->error, sizeof(bad->error),
				"its result could not be written to %s/ (see the daemon's log)%s%s",
				dest, out->error[0] ? ": " : "", out->error);
			dest = "failed";
			if (write_result(o, job, "failed", bad) != HIL_OK) {
				hil_err("job %s: no result could be written: left in running/",
					job->name);
				free(bad);
				return HIL_ERR_IO;
			}
			free(bad);
		} else {
			hil_err("job %s: no result could be written: left in running/",
				job->name);
			return HIL_ERR_IO;
		}
	}
	if (hil_serve_spool_path(from, o, "running", job->name, NULL) !=
		    HIL_OK ||
	    hil_serve_spool_path(to, o, dest, job->name, NULL) != HIL_OK) {
		return HIL_ERR_IO;
	}
	if (lstat(to, &st) == 0) {
		hil_warn(
			"job %s: replacing the %s/%s of an earlier job of that name",
			job->name, dest, job->name);
	}
	if (copy_job(job, to) != HIL_OK) {
		hil_err("job %s: cannot file it as %s: left in running/",
			job->name, to);
		return HIL_ERR_IO;
	}
	if (unlink(from) != 0 && errno != ENOENT) {
		hil_err("job %s: filed as %s, but %s cannot be removed: %s",
			job->name, to, from, strerror(errno));
	}
	hil_serve_drop_state(o, job);
	if (o->counts != NULL) {
		if (strcmp(dest, "done") == 0) {
			o->counts->done++;
		} else {
			o->counts->failed++;
		}
	}
	if (strcmp(dest, "done") != 0 &&
	    out->exit_status == HIL_EXIT_ALL_MEASURED) {
		hil_err("job %s: measured, but filed in failed/: its result could not be written to done/",
			job->name);
	} else if (out->exit_status == HIL_EXIT_ALL_MEASURED) {
		hil_info("job %s: done, report %s/report.json", job->name,
			 out->report_dir);
	} else if (out->error[0] != '\0') {
		hil_err("job %s: failed (exit %d): %s", job->name,
			out->exit_status, out->error);
	} else {
		hil_warn("job %s: failed (exit %d): %s%s%s", job->name,
			 out->exit_status, summary_of(out->exit_status),
			 out->report_dir[0] != '\0' ? ", report " : "",
			 out->report_dir);
	}
	return HIL_OK;
}
