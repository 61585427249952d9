/* history: every finished run in one SQLite file (results/.history.sqlite), and `hilrun history`: the runs, and one row's trend over them. */
#ifndef HIL_HISTORY_H
#define HIL_HISTORY_H

#include <stdio.h>

#include "run.h"

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

/**
 * How long the last complete run of config took, from the database at
 * db_path (which may not exist). @return seconds, or -1 when unknown.
 */
long hil_history_last_seconds(const char *db_path, const char *config);

/* What `hilrun history` shows. */
struct hil_history_query {
	const char *alg;    /* NULL: list the runs */
	const char *impl;   /* NULL: every implementation of alg */
	const char *op;	    /* NULL: every operation */
	long msg_len;	    /* -1: 64 */
	long ad_len;	    /* -1: 0 */
	const char *config; /* NULL: every configuration */
	unsigned limit;	    /* runs listed, newest first (0: 20) */
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

#endif /* HIL_HISTORY_H */
