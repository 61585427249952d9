/* history: every finished run in one SQLite file (results/.history.sqlite), and `hilrun history`: the runs, and one row's trend over them. */
#ifndef HIL_HISTORY_H
#define HIL_HISTORY_H

#include <stdio.h>

#include "result/run.h"

/* The file's name inside a results folder: hidden, so that every other
 * entry there stays a run folder (tools and tests list them). */
#define HIL_HISTORY_FILE ".history.sqlite"

/**
 * Record a run and its rows in the database at db_path (created when
 * missing), in one transaction: a run killed before this call is absent,
 * never half there. A run recorded again (--resume) replaces its rows.
 * @return HIL_OK, or HIL_ERR_IO with the reason logged.
 */
int hil_history_record(const char *db_path, const struct hil_run *run);

/* One row as the history holds it. */
struct hil_history_row {
	const char *algorithm, *implementation, *operation;
	long msg_len, ad_len;
	const char *status; /* "ok", "failed", "interrupted" */
	int has_median, has_model, has_energy;
	double median, model_median, energy_uj; /* energy: measured (or the
						  * simulated sensor's) */
	/* The estimate's error bar (with has_model): model_error_pct when
	 * has_model_error, its kind "assembly" or "C"; without one the
	 * profile is not calibrated (recorded as kind "none"). */
	int has_model_error;
	double model_error_pct;
	const char *model_error_kind;
	/* The datasheet estimate of the row's energy (never in energy_uj):
	 * typical, its range, its table. */
	int has_est;
	double est_uj, est_low, est_high;
	const char *est_table;
};

/* One run as the history holds it: from a run that ends here, or from
 * its report.json (hilrun history import). NULL strings are "". */
struct hil_history_run {
	const char *id, *started, *finished, *status, *config, *board, *host,
		*unit, *cflags, *tool_commit, *dir;
	/* The cycle model's unit (its profile: wait states, ART), "" for
	 * none: runs of one config under two profiles are not one trend. */
	const char *model;
	int dirty;
	const struct hil_history_row *rows;
	size_t n_rows;
};

/* What hil_history_put did. */
enum {
	HIL_HISTORY_NEW,      /* recorded */
	HIL_HISTORY_REPLACED, /* there before with another end or status */
	HIL_HISTORY_SAME,     /* there already as it is: nothing written */
	HIL_HISTORY_FILLED,   /* there already; the error bars its rows
				 lacked (recorded before hilrun stored them)
				 written in */
};

/**
 * Record run in the database at db_path (created when missing), in one
 * transaction. A run that ends here (import 0) replaces what its id held.
 * An imported run (import 1) is the same run when the record under its id
 * has its start, board and host: recorded again only if its end or status
 * differ; another run's id is kept, and this one goes under
 * "ID@HOST:BOARD" (runs of two hosts started in the same second). The
 * same run imported into a history recorded before the estimates' error
 * bars were stored gets them written into its rows (HIL_HISTORY_FILLED).
 * @param id receives the id it is recorded under.
 * @param outcome receives HIL_HISTORY_NEW, _REPLACED, _SAME or _FILLED.
 * @return HIL_OK, or HIL_ERR_IO with the reason logged.
 */
int hil_history_put(const char *db_path, const struct hil_history_run *run,
		    int import, char *id, size_t id_len, int *outcome);

/**
 * Record the runs of report.json files (a file, a run folder, or a
 * results folder whose run folders hold one) into the database at
 * db_path. Every file is untrusted: read bounded, refused with a message
 * naming it when it is not a hilrun report or is cut short; the other
 * files are still recorded. One line per run on out.
 * @return HIL_OK when every run is recorded (or was already), HIL_ERR_ARG
 *         when a file was refused, HIL_ERR_IO when the database failed.
 */
int hil_history_import(const char *db_path, const char *const *paths, size_t n,
		       FILE *out);

/**
 * Check the database at db_path page by page (SQLite's quick_check), as a
 * lab's master does before it imports into it: a damaged page that the
 * import would not touch is found now, not when someone reads it.
 * A database that does not exist yet is sound.
 * @return HIL_OK, or HIL_ERR_IO with the reason logged (damaged, a link,
 *         not a file, unreadable).
 */
int hil_history_check(const char *db_path);

/**
 * How long the last complete run of config took, from the database at
 * db_path (which may not exist). @return seconds, or -1 when unknown.
 */
long hil_history_last_seconds(const char *db_path, const char *config);

/* Runs `hilrun history` lists without --limit: a night of a 20-board lab
 * running a few configurations each. */
#define HIL_HISTORY_DEFAULT_LIMIT 100

/* What `hilrun history` shows. */
struct hil_history_query {
	const char *alg;    /* NULL: list the runs */
	const char *impl;   /* NULL: every implementation of alg */
	const char *op;	    /* NULL: every operation */
	long msg_len;	    /* -1: 64 */
	long ad_len;	    /* -1: 0 */
	const char *config; /* NULL: every configuration */
	unsigned limit;	    /* runs listed, newest first (0: the default) */
};

/**
 * Print the runs (q->alg NULL), or the trend of the matching rows over the
 * runs, oldest first, one table per configuration, to out.
 * @return HIL_OK; HIL_ERR_IO (no database, logged); HIL_ERR_ARG when no
 *         row matches (logged, naming what was asked).
 */
int hil_history_print(const char *db_path, const struct hil_history_query *q,
		      FILE *out);

/**
 * Write the trend of q (q->alg set) as a self-contained HTML page with an
 * SVG line chart per series (runs in order, the median on a labelled
 * axis) and its figures, to path (atomically).
 * @return HIL_OK; HIL_ERR_IO; HIL_ERR_ARG when no row matches (logged).
 */
int hil_history_html(const char *db_path, const struct hil_history_query *q,
		     const char *path);

/**
 * Write the lab's night as a self-contained HTML page to path
 * (atomically): per board and configuration its newest run (status, rows
 * ok, commit, a link to its report.html, relative when below the page's
 * folder), the rows that failed, and compare's verdicts against the run
 * before it of the same configuration, flags and cycle-model profile (read
 * from both runs' report.json where the history says they are). Boards
 * without a run in the day before the newest run are greyed.
 * @return HIL_OK; HIL_ERR_IO (no database, logged); HIL_ERR_ARG when no
 *         run is recorded (logged).
 */
int hil_history_night(const char *db_path, const char *path);

#endif /* HIL_HISTORY_H */
