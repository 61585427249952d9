/* history: the run database (SQLite, Debian's libsqlite3): every finished or imported run recorded, and how long a configuration's last run took. */
#define _DEFAULT_SOURCE /* timegm */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"history"

#include "history.h"
#include "history_int.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "result/modelerr.h"
#include "util/err.h"
#include "util/log.h"
#include "util/util.h"

/* Schema 1 (a database of before the host or model column gets them
 * added). A row's
 * key is that of compare (report/compare.c). */
static const char schema[] =
	"CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);"
	"INSERT OR IGNORE INTO meta VALUES('schema', '1');"
	"CREATE TABLE IF NOT EXISTS runs("
	" id TEXT PRIMARY KEY, started TEXT, finished TEXT, status TEXT,"
	" config TEXT, board TEXT, unit TEXT, cflags TEXT, tool_commit TEXT,"
	" dirty INTEGER, dir TEXT, host TEXT, model TEXT);"
	"CREATE TABLE IF NOT EXISTS rows("
	" run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" algorithm TEXT, implementation TEXT, operation TEXT,"
	" msg_len INTEGER, ad_len INTEGER, status TEXT,"
	" median REAL, model_median REAL, energy_uj REAL,"
	" est_uj REAL, est_low REAL, est_high REAL, est_table TEXT,"
	" model_error_pct REAL, model_error_kind TEXT,"
	" PRIMARY KEY(run_id, algorithm, implementation, operation, msg_len,"
	" ad_len));"
	"CREATE INDEX IF NOT EXISTS rows_key ON rows(algorithm, implementation,"
	" operation, msg_len, ad_len);";

int hil_history_db_open(const char *path, int create, sqlite3 **db)
{
	int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);
	struct stat st;

	*db = NULL;
	/* SQLite's NOFOLLOW refuses a link with "unable to open database
	 * file", which reads like a missing file: say what it is. */
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		char to[256] = "";
		ssize_t n = readlink(path, to, sizeof(to) - 1);

		to[n > 0 ? n : 0] = '\0';
		hil_err("%s: a symbolic link (to %s): the run history is never opened through a link; name the file itself (--db)",
			path, to[0] ? to : "?");
		return HIL_ERR_IO;
	}
	if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		hil_err("%s: not a regular file, so not a run history", path);
		return HIL_ERR_IO;
	}
	if (!create && lstat(path, &st) != 0 && errno == ENOENT) {
		hil_err("%s: no run history there yet (every finished run records itself in its results folder's %s; --db FILE names another)",
			path, HIL_HISTORY_FILE);
		return HIL_ERR_IO;
	}
	if (sqlite3_open_v2(path, db, flags | SQLITE_OPEN_NOFOLLOW, NULL) !=
	    SQLITE_OK) {
		hil_err("%s: cannot open the run history: %s", path,
			*db != NULL ? sqlite3_errmsg(*db) : "out of memory");
		sqlite3_close(*db);
		*db = NULL;
		return HIL_ERR_IO;
	}
	/* Runs on several boards of one host finish at the same time, and a
	 * lab's master imports the runs of several hosts at once. */
	sqlite3_busy_timeout(*db, 10000);
	return HIL_OK;
}

int hil_history_check(const char *path)
{
	sqlite3_stmt *st = NULL;
	struct stat sb;
	sqlite3 *db;
	char why[256] = "";
	int rc, ret = HIL_OK;

	if (lstat(path, &sb) != 0 && errno == ENOENT) {
		return HIL_OK; /* made by the first run recorded */
	}
	if (hil_history_db_open(path, 0, &db) != HIL_OK) {
		return HIL_ERR_IO;
	}
	rc = sqlite3_prepare_v2(db, "PRAGMA quick_check(1)", -1, &st, NULL);
	if (rc == SQLITE_OK) {
		rc = sqlite3_step(st);
	}
	if (rc == SQLITE_ROW && strcmp(hil_history_col(st, 0), "ok") != 0) {
		snprintf(why, sizeof(why), "%s", hil_history_col(st, 0));
	} else if (rc != SQLITE_ROW) {
		snprintf(why, sizeof(why), "%s", sqlite3_errmsg(db));
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
	if (why[0] != '\0') {
		hil_err("%s: the run history is damaged (SQLite's check: %s): nothing recorded; keep it for its runs, move it aside and import the runs again (hilrun history import)",
			path, why);
		ret = HIL_ERR_IO;
	}
	return ret;
}

static int db_exec(sqlite3 *db, const char *path, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		hil_err("%s: %s", path, msg != NULL ? msg : "SQLite error");
		sqlite3_free(msg);
		return HIL_ERR_IO;
	}
	return HIL_OK;
}

void hil_history_bind_text(sqlite3_stmt *st, int i, const char *s)
{
	sqlite3_bind_text(st, i, s != NULL ? s : "", -1, SQLITE_TRANSIENT);
}

int hil_history_next(sqlite3_stmt *st, int *failed)
{
	int rc = sqlite3_step(st);

	if (rc == SQLITE_ROW) {
		return 1;
	}
	if (rc != SQLITE_DONE) {
		hil_err("reading the run history: %s (a damaged database: move it aside and import the runs again)",
			sqlite3_errmsg(sqlite3_db_handle(st)));
		*failed = 1;
	}
	return 0;
}

const char *hil_history_col(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);

	return s != NULL ? (const char *)s : "";
}

/* 1 when table ("runs" or "rows") has the column name. */
static int table_has_column(sqlite3 *db, const char *table, const char *name)
{
	sqlite3_stmt *st = NULL;
	char sql[64];
	int have = 0;

	snprintf(sql, sizeof(sql), "PRAGMA table_info(%s)", table);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		return 0;
	}
	while (sqlite3_step(st) == SQLITE_ROW) {
		have |= strcmp(hil_history_col(st, 1), name) == 0;
	}
	sqlite3_finalize(st);
	return have;
}

int hil_history_has_column(sqlite3 *db, const char *name)
{
	return table_has_column(db, "runs", name);
}

int hil_history_has_row_column(sqlite3 *db, const char *name)
{
	return table_has_column(db, "rows", name);
}

int hil_history_has_host_column(sqlite3 *db)
{
	return hil_history_has_column(db, "host");
}

/* A database of before the host or model column: add them (inside the
 * transaction). */
static int add_columns(sqlite3 *db)
{
	int rc = SQLITE_OK;

	if (!hil_history_has_column(db, "host")) {
		rc = sqlite3_exec(db, "ALTER TABLE runs ADD COLUMN host TEXT",
				  NULL, NULL, NULL);
	}
	if (rc == SQLITE_OK && !hil_history_has_column(db, "model")) {
		rc = sqlite3_exec(db, "ALTER TABLE runs ADD COLUMN model TEXT",
				  NULL, NULL, NULL);
	}
	return rc;
}

/* A database of before the energy estimate or the estimates' error bars:
 * add their columns (inside the transaction). Rows recorded before keep
 * NULL there: not recorded, which the views say. */
static int add_row_columns(sqlite3 *db)
{
	static const struct {
		const char *name, *type;
	} add[] = {
		{"est_uj", "REAL"},	     {"est_low", "REAL"},
		{"est_high", "REAL"},	     {"est_table", "TEXT"},
		{"model_error_pct", "REAL"}, {"model_error_kind", "TEXT"},
	};
	int rc = SQLITE_OK;
	size_t i;

	for (i = 0; rc == SQLITE_OK && i < sizeof(add) / sizeof(add[0]); i++) {
		char sql[128];

		if (hil_history_has_row_column(db, add[i].name)) {
			continue;
		}
		snprintf(sql, sizeof(sql), "ALTER TABLE rows ADD COLUMN %s %s",
			 add[i].name, add[i].type);
		rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
	}
	return rc;
}

/* What a row's error bar is recorded as: its kind when it has one,
 * "none" for an estimate without one (an uncalibrated profile), NULL
 * without an estimate. */
static const char *error_kind_of(const struct hil_history_row *r)
{
	if (!r->has_model) {
		return NULL;
	}
	if (!r->has_model_error) {
		return "none";
	}
	return r->model_error_kind != NULL && r->model_error_kind[0] != '\0'
		       ? r->model_error_kind
		       : "C";
}

static void bind_opt(sqlite3_stmt *st, int i, int have, double v)
{
	if (have) {
		sqlite3_bind_double(st, i, v);
	} else {
		sqlite3_bind_null(st, i);
	}
}

static int insert_rows(sqlite3 *db, const char *id,
		       const struct hil_history_run *run)
{
	sqlite3_stmt *st = NULL;
	size_t i;
	int rc;

	rc = sqlite3_prepare_v2(
		db,
		"INSERT OR REPLACE INTO rows(run_id, algorithm, implementation,"
		" operation, msg_len, ad_len, status, median, model_median,"
		" energy_uj, est_uj, est_low, est_high, est_table,"
		" model_error_pct, model_error_kind)"
		" VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
		-1, &st, NULL);
	for (i = 0; rc == SQLITE_OK && i < run->n_rows; i++) {
		const struct hil_history_row *r = &run->rows[i];

		sqlite3_reset(st);
		hil_history_bind_text(st, 1, id);
		hil_history_bind_text(st, 2, r->algorithm);
		hil_history_bind_text(st, 3, r->implementation);
		hil_history_bind_text(st, 4, r->operation);
		sqlite3_bind_int64(st, 5, r->msg_len);
		sqlite3_bind_int64(st, 6, r->ad_len);
		hil_history_bind_text(st, 7, r->status);
		if (r->has_median) {
			sqlite3_bind_double(st, 8, r->median);
		} else {
			sqlite3_bind_null(st, 8);
		}
		if (r->has_model) {
			sqlite3_bind_double(st, 9, r->model_median);
		} else {
			sqlite3_bind_null(st, 9);
		}
		if (r->has_energy) {
			sqlite3_bind_double(st, 10, r->energy_uj);
		} else {
			sqlite3_bind_null(st, 10);
		}
		bind_opt(st, 11, r->has_est, r->est_uj);
		bind_opt(st, 12, r->has_est, r->est_low);
		bind_opt(st, 13, r->has_est, r->est_high);
		if (r->has_est) {
			hil_history_bind_text(st, 14, r->est_table);
		} else {
			sqlite3_bind_null(st, 14);
		}
		bind_opt(st, 15, r->has_model && r->has_model_error,
			 r->model_error_pct);
		if (error_kind_of(r) != NULL) {
			hil_history_bind_text(st, 16, error_kind_of(r));
		} else {
			sqlite3_bind_null(st, 16);
		}
		rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
	}
	sqlite3_finalize(st);
	return rc;
}

static int delete_run(sqlite3 *db, const char *id)
{
	sqlite3_stmt *st = NULL;
	int rc;

	rc = sqlite3_prepare_v2(db, "DELETE FROM runs WHERE id = ?", -1, &st,
				NULL);
	if (rc == SQLITE_OK) {
		hil_history_bind_text(st, 1, id);
		rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
	}
	sqlite3_finalize(st);
	return rc;
}

static int insert_run(sqlite3 *db, const char *id,
		      const struct hil_history_run *run)
{
	sqlite3_stmt *st = NULL;
	int rc;

	rc = sqlite3_prepare_v2(
		db,
		"INSERT INTO runs(id, started, finished, status, config, board,"
		" unit, cflags, tool_commit, dirty, dir, host, model)"
		" VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?)",
		-1, &st, NULL);
	if (rc == SQLITE_OK) {
		hil_history_bind_text(st, 1, id);
		hil_history_bind_text(st, 2, run->started);
		hil_history_bind_text(st, 3, run->finished);
		hil_history_bind_text(
			st, 4, run->status != NULL ? run->status : "failed");
		hil_history_bind_text(st, 5, run->config);
		hil_history_bind_text(st, 6, run->board);
		hil_history_bind_text(st, 7, run->unit);
		hil_history_bind_text(st, 8, run->cflags);
		hil_history_bind_text(st, 9, run->tool_commit);
		sqlite3_bind_int(st, 10, run->dirty);
		hil_history_bind_text(st, 11, run->dir);
		hil_history_bind_text(st, 12, run->host);
		hil_history_bind_text(st, 13, run->model);
		rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_OK) {
		rc = insert_rows(db, id, run);
	}
	return rc;
}

static int str_eq(const char *a, const char *b)
{
	return strcmp(a != NULL ? a : "", b != NULL ? b : "") == 0;
}

/*
 * What the database holds under id, compared with run: -1 nothing, 0 another
 * run (another start, board or host; or, complete beside a complete record,
 * another end or folder: a complete run is never resumed, so that is a
 * second run of that configuration, board and host started in the same
 * second), 1 this run as it is (or an earlier, partial state of the
 * complete run recorded), 2 this run with another end or status (resumed
 * since). A record without a host (written before hosts were
 * recorded) is any host's.
 */
static int stored_as(sqlite3 *db, const char *id,
		     const struct hil_history_run *run, int *rc)
{
	sqlite3_stmt *st = NULL;
	int what = -1;

	*rc = sqlite3_prepare_v2(
		db,
		"SELECT started, board, host, finished, status,"
		" dir FROM runs WHERE id = ?",
		-1, &st, NULL);
	if (*rc != SQLITE_OK) {
		return -1;
	}
	hil_history_bind_text(st, 1, id);
	if (sqlite3_step(st) == SQLITE_ROW) {
		if (!str_eq(hil_history_col(st, 0), run->started) ||
		    !str_eq(hil_history_col(st, 1), run->board) ||
		    (hil_history_col(st, 2)[0] != '\0' &&
		     !str_eq(hil_history_col(st, 2), run->host))) {
			what = 0;
		} else if (str_eq(hil_history_col(st, 4), "complete") &&
			   str_eq(run->status, "complete") &&
			   (!str_eq(hil_history_col(st, 3), run->finished) ||
			    (hil_history_col(st, 5)[0] != '\0' &&
			     !str_eq(hil_history_col(st, 5), run->dir)))) {
			what = 0;
		} else if (str_eq(hil_history_col(st, 4), "complete") &&
			   !str_eq(run->status, "complete")) {
			what = 1; /* an earlier state of it: the record stands */
		} else if (str_eq(hil_history_col(st, 3), run->finished) &&
			   str_eq(hil_history_col(st, 4), run->status)) {
			what = 1;
		} else {
			what = 2;
		}
	}
	sqlite3_finalize(st);
	return what;
}

/*
 * The same run imported again into a history whose record of it was made
 * before hilrun stored the estimates' error bars (model_error_kind NULL
 * beside an estimate): its rows get them, and *outcome says so. Nothing
 * else of the record changes.
 */
static int fill_error_bars(sqlite3 *db, const char *id,
			   const struct hil_history_run *run, int *outcome)
{
	sqlite3_stmt *st = NULL;
	int rc, filled = 0;
	size_t i;

	rc = sqlite3_prepare_v2(
		db,
		"UPDATE rows SET model_error_pct = ?1, model_error_kind = ?2"
		" WHERE run_id = ?3 AND algorithm = ?4 AND implementation = ?5"
		" AND operation = ?6 AND msg_len = ?7 AND ad_len = ?8"
		" AND model_error_kind IS NULL AND model_median IS NOT NULL",
		-1, &st, NULL);
	for (i = 0; rc == SQLITE_OK && i < run->n_rows; i++) {
		const struct hil_history_row *r = &run->rows[i];

		if (!r->has_model) {
			continue;
		}
		sqlite3_reset(st);
		bind_opt(st, 1, r->has_model_error, r->model_error_pct);
		hil_history_bind_text(st, 2, error_kind_of(r));
		hil_history_bind_text(st, 3, id);
		hil_history_bind_text(st, 4, r->algorithm);
		hil_history_bind_text(st, 5, r->implementation);
		hil_history_bind_text(st, 6, r->operation);
		sqlite3_bind_int64(st, 7, r->msg_len);
		sqlite3_bind_int64(st, 8, r->ad_len);
		rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
		filled += rc == SQLITE_OK ? sqlite3_changes(db) : 0;
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_OK && filled > 0) {
		*outcome = HIL_HISTORY_FILLED;
	}
	return rc;
}

/* Run id old renamed new, its rows with it (the foreign key is checked
 * at COMMIT: defer_foreign_keys). */
static int rename_run(sqlite3 *db, const char *old, const char *new_id)
{
	static const char *const sql[] = {
		"UPDATE rows SET run_id = ?2 WHERE run_id = ?1",
		"UPDATE runs SET id = ?2 WHERE id = ?1",
	};
	size_t i;
	int rc = sqlite3_exec(db, "PRAGMA defer_foreign_keys = ON", NULL, NULL,
			      NULL);

	for (i = 0; rc == SQLITE_OK && i < 2; i++) {
		sqlite3_stmt *st = NULL;

		rc = sqlite3_prepare_v2(db, sql[i], -1, &st, NULL);
		if (rc == SQLITE_OK) {
			hil_history_bind_text(st, 1, old);
			hil_history_bind_text(st, 2, new_id);
			rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK
							     : SQLITE_ERROR;
		}
		sqlite3_finalize(st);
	}
	return rc;
}

/* The record under id: its host and board into host and board (each
 * TEXT_MAX); 1 when there is one. */
static int holder_of(sqlite3 *db, const char *id, char *host, char *board,
		     size_t len)
{
	sqlite3_stmt *st = NULL;
	int found = 0;

	if (sqlite3_prepare_v2(db, "SELECT host, board FROM runs WHERE id = ?",
			       -1, &st, NULL) != SQLITE_OK) {
		return 0;
	}
	hil_history_bind_text(st, 1, id);
	if (sqlite3_step(st) == SQLITE_ROW) {
		snprintf(host, len, "%s", hil_history_col(st, 0));
		snprintf(board, len, "%s", hil_history_col(st, 1));
		found = 1;
	}
	sqlite3_finalize(st);
	return found;
}

/* 1 when a record "ID@..." of run id exists (its id was shared before). */
static int id_shared(sqlite3 *db, const char *id)
{
	sqlite3_stmt *st = NULL;
	int found = 0;

	if (sqlite3_prepare_v2(db,
			       "SELECT 1 FROM runs WHERE substr(id, 1, ?2) = ?1"
			       " LIMIT 1",
			       -1, &st, NULL) != SQLITE_OK) {
		return 0;
	}
	{
		char at[512];

		snprintf(at, sizeof(at), "%s@", id);
		hil_history_bind_text(st, 1, at);
		sqlite3_bind_int(st, 2, (int)strlen(at));
	}
	found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return found;
}

/*
 * Runs of one configuration, board and host started in the same second
 * (quick emulated runs, one after the other): the first holds
 * ID@HOST:BOARD (alt), the others ID@HOST:BOARD~2, ~3... in the order of
 * their imports; run goes under the first of those that is free or is
 * this run's.
 */
static int import_suffixed(sqlite3 *db, const struct hil_history_run *run,
			   const char *alt, char *id, size_t id_len,
			   int *outcome)
{
	char more[1100];
	int k, w = 0, rc = SQLITE_OK;

	for (k = 2; k < 100 && w == 0; k++) {
		snprintf(more, sizeof(more), "%s~%d", alt, k);
		w = stored_as(db, more, run, &rc);
		if (rc != SQLITE_OK) {
			return rc;
		}
	}
	if (w == 0) {
		hil_err("run %s of %s on %s: the history holds 99 other runs under %s~N",
			run->id, run->host, run->board, alt);
		return SQLITE_ERROR;
	}
	snprintf(id, id_len, "%s", more);
	*outcome = w == 1   ? HIL_HISTORY_SAME
		   : w == 2 ? HIL_HISTORY_REPLACED
			    : HIL_HISTORY_NEW;
	if (w == 1) {
		return fill_error_bars(db, more, run, outcome);
	}
	if (w == 2) {
		rc = delete_run(db, more);
	}
	return rc == SQLITE_OK ? insert_run(db, more, run) : rc;
}

/*
 * Where an imported run goes: under its id, or, when runs of other hosts
 * or boards share that id (started in the same second with the same
 * configuration), every one of them under "ID@HOST:BOARD": the run that
 * holds the plain id when another arrives is renamed too, so that which
 * run keeps which name does not depend on the order of the imports.
 */
static int import_run(sqlite3 *db, const struct hil_history_run *run, char *id,
		      size_t id_len, int *outcome)
{
	char alt[1024], host[256], board[256], other[1024];
	int w0, w1, rc = SQLITE_OK;

	snprintf(alt, sizeof(alt), "%s@%s:%s", run->id,
		 run->host != NULL ? run->host : "",
		 run->board != NULL ? run->board : "");
	w0 = stored_as(db, run->id, run, &rc);
	if (rc == SQLITE_OK && w0 <= 0) {
		w1 = stored_as(db, alt, run, &rc);
	} else {
		w1 = -1;
	}
	if (rc != SQLITE_OK) {
		return rc;
	}
	if (w0 == 1 || w1 == 1) {
		snprintf(id, id_len, "%s", w0 == 1 ? run->id : alt);
		*outcome = HIL_HISTORY_SAME;
		return fill_error_bars(db, id, run, outcome);
	}
	if (w0 == 2 || w1 == 2) {
		const char *key = w0 == 2 ? run->id : alt;

		snprintf(id, id_len, "%s", key);
		*outcome = HIL_HISTORY_REPLACED;
		rc = delete_run(db, key);
		return rc == SQLITE_OK ? insert_run(db, key, run) : rc;
	}
	if (w1 == 0) {
		return import_suffixed(db, run, alt, id, id_len, outcome);
	}
	*outcome = HIL_HISTORY_NEW;
	if (w0 == -1 && !id_shared(db, run->id)) {
		snprintf(id, id_len, "%s", run->id);
		return insert_run(db, run->id, run);
	}
	/* Another run holds the id: it is qualified by its host and board
	 * too (unless that name is taken), and this one goes under its own. */
	if (w0 == 0 && holder_of(db, run->id, host, board, sizeof(host))) {
		snprintf(other, sizeof(other), "%s@%s:%s", run->id, host,
			 board);
		if (stored_as(db, other, run, &rc) == -1 && rc == SQLITE_OK) {
			rc = rename_run(db, run->id, other);
		}
	}
	if (rc == SQLITE_OK && stored_as(db, alt, run, &rc) == 0 &&
	    rc == SQLITE_OK) {
		/* The holder was of this host and board too: renamed to alt. */
		return import_suffixed(db, run, alt, id, id_len, outcome);
	}
	snprintf(id, id_len, "%s", alt);
	return rc == SQLITE_OK ? insert_run(db, alt, run) : rc;
}

int hil_history_put(const char *db_path, const struct hil_history_run *run,
		    int import, char *id, size_t id_len, int *outcome)
{
	sqlite3 *db;
	int rc;

	*outcome = HIL_HISTORY_NEW;
	if (hil_history_db_open(db_path, 1, &db) != HIL_OK) {
		return HIL_ERR_IO;
	}
	if (db_exec(db, db_path, "PRAGMA foreign_keys = ON") != HIL_OK ||
	    db_exec(db, db_path, "BEGIN IMMEDIATE") != HIL_OK ||
	    db_exec(db, db_path, schema) != HIL_OK) {
		sqlite3_close(db);
		return HIL_ERR_IO;
	}
	rc = add_columns(db);
	if (rc == SQLITE_OK) {
		rc = add_row_columns(db);
	}
	if (rc == SQLITE_OK && import) {
		rc = import_run(db, run, id, id_len, outcome);
	} else if (rc == SQLITE_OK) {
		/* A resumed run replaces what it had: its rows go with it,
		 * also under the name an import of another host's run with
		 * the same id gave it (import_run). */
		char alt[1024], host[256], board[256];

		snprintf(alt, sizeof(alt), "%s@%s:%s", run->id,
			 run->host != NULL ? run->host : "",
			 run->board != NULL ? run->board : "");
		const char *key = holder_of(db, alt, host, board, sizeof(host))
					  ? alt
					  : run->id;

		snprintf(id, id_len, "%s", key);
		rc = delete_run(db, key);
		if (rc == SQLITE_OK) {
			rc = insert_run(db, key, run);
		}
	}
	if (rc != SQLITE_OK) {
		hil_err("%s: recording run %s failed: %s", db_path, run->id,
			sqlite3_errmsg(db));
		(void)db_exec(db, db_path, "ROLLBACK");
		sqlite3_close(db);
		return HIL_ERR_IO;
	}
	rc = db_exec(db, db_path, "COMMIT");
	sqlite3_close(db);
	return rc;
}

int hil_history_record(const char *db_path, const struct hil_run *run)
{
	char cflags[HIL_CFG_MAX_FLAGS * HIL_CFG_NAME] = "";
	struct hil_history_row *rows = NULL;
	struct hil_history_run h;
	char id[sizeof(run->id)];
	size_t i;
	int outcome, ret;

	for (i = 0; i < run->cfg->build.n_cflags; i++) {
		size_t n = strlen(cflags);

		snprintf(cflags + n, sizeof(cflags) - n, "%s%s", i ? " " : "",
			 run->cfg->build.cflags[i]);
	}
	if (run->n_rows > 0) {
		rows = calloc(run->n_rows, sizeof(*rows));
		if (rows == NULL) {
			return HIL_ERR_NOMEM;
		}
	}
	for (i = 0; i < run->n_rows; i++) {
		const struct hil_row *r = &run->rows[i];

		rows[i].algorithm = r->algorithm;
		rows[i].implementation = r->implementation;
		rows[i].operation = r->operation;
		rows[i].msg_len = (long)r->msg_len;
		rows[i].ad_len = (long)r->ad_len;
		rows[i].status = r->ok		  ? "ok"
				 : r->interrupted ? "interrupted"
				 : r->link_failed ? "link_failed"
						  : "failed";
		rows[i].has_median = r->ok;
		rows[i].median = r->stats.median;
		rows[i].has_model = r->ok && r->model.ok;
		rows[i].model_median = r->model.stats.median;
		/* The estimate's error bar as report.json carries it. */
		rows[i].model_error_pct =
			hil_model_error_pct(run, r, &rows[i].model_error_kind);
		rows[i].has_model_error = rows[i].model_error_pct >= 0;
		rows[i].has_energy = r->energy.state == HIL_ENERGY_OK;
		rows[i].energy_uj = r->energy.uj_per_op;
		rows[i].has_est = r->est.ok;
		rows[i].est_uj = r->est.uj_per_op;
		rows[i].est_low = r->est.uj_lo;
		rows[i].est_high = r->est.uj_hi;
		rows[i].est_table = run->energy_est.table;
	}
	memset(&h, 0, sizeof(h));
	h.id = run->id;
	h.started = run->started;
	h.finished = run->finished;
	h.status = run->status;
	h.config = run->cfg->name;
	h.board = run->cfg->board.id[0] ? run->cfg->board.id
					: run->cfg->board.name;
	h.host = run->host;
	h.unit = hil_unit_name(run->info.counter_unit);
	h.model = run->model.enabled ? run->model.unit : "";
	h.cflags = cflags;
	h.tool_commit = run->tool_commit;
	h.dirty = run->tool_dirty;
	h.dir = run->dir;
	h.rows = rows;
	h.n_rows = run->n_rows;
	ret = hil_history_put(db_path, &h, 0, id, sizeof(id), &outcome);
	free(rows);
	return ret;
}

/* "2026-12-03T08:22:10Z" as seconds since the epoch, or -1. */
static long long iso_seconds(const char *s)
{
	struct tm tm;

	memset(&tm, 0, sizeof(tm));
	if (s == NULL ||
	    sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d", &tm.tm_year, &tm.tm_mon,
		   &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec) != 6) {
		return -1;
	}
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	return (long long)timegm(&tm);
}

/* timing.total_s of dir/report.json in whole seconds, or -1. */
static long report_total_s(const char *dir)
{
	char path[4096];
	char *text = NULL;
	const cJSON *t;
	cJSON *o;
	long secs = -1;

	if (dir == NULL || dir[0] == '\0' ||
	    (size_t)snprintf(path, sizeof(path), "%s/report.json", dir) >=
		    sizeof(path) ||
	    hil_read_file(path, &text, NULL) != HIL_OK) {
		return -1;
	}
	o = cJSON_Parse(text);
	free(text);
	t = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(o, "timing"), "total_s");
	if (cJSON_IsNumber(t) && t->valuedouble >= 0 && t->valuedouble < 1e9) {
		secs = (long)(t->valuedouble + 0.5);
	}
	cJSON_Delete(o);
	return secs;
}

long hil_history_last_seconds(const char *db_path, const char *config)
{
	sqlite3_stmt *st = NULL;
	sqlite3 *db = NULL;
	long secs = -1;

	/* No database yet is the common case, not an error. */
	if (sqlite3_open_v2(db_path, &db,
			    SQLITE_OPEN_READONLY | SQLITE_OPEN_NOFOLLOW,
			    NULL) != SQLITE_OK) {
		sqlite3_close(db);
		return -1;
	}
	sqlite3_busy_timeout(db, 2000);
	if (sqlite3_prepare_v2(
		    db,
		    "SELECT started, finished, dir FROM runs WHERE config"
		    " = ?1 AND status = 'complete' ORDER BY started"
		    " DESC LIMIT 1",
		    -1, &st, NULL) == SQLITE_OK) {
		hil_history_bind_text(st, 1, config);
		if (sqlite3_step(st) == SQLITE_ROW) {
			long long a = iso_seconds(
				(const char *)sqlite3_column_text(st, 0));
			long long b = iso_seconds(
				(const char *)sqlite3_column_text(st, 1));

			long work = report_total_s(
				(const char *)sqlite3_column_text(st, 2));

			/* A resumed run keeps its first start: its report's
			 * working time, not the days between attempts. */
			if (work >= 0) {
				secs = work;
			} else if (a >= 0 && b >= a) {
				secs = (long)(b - a);
			}
		}
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
	return secs;
}
