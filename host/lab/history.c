/* history: the run database (SQLite, Debian's libsqlite3): every finished or imported run recorded, and how long a configuration's last run took. */
#define _DEFAULT_SOURCE /* timegm */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"history"

#include "history.h"
#include "history_int.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/err.h"
#include "util/log.h"

/* Schema 1 (a database of before the host column gets it added). A row's
 * key is that of compare (report/compare.c). */
static const char schema[] =
	"CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT);"
	"INSERT OR IGNORE INTO meta VALUES('schema', '1');"
	"CREATE TABLE IF NOT EXISTS runs("
	" id TEXT PRIMARY KEY, started TEXT, finished TEXT, status TEXT,"
	" config TEXT, board TEXT, unit TEXT, cflags TEXT, tool_commit TEXT,"
	" dirty INTEGER, dir TEXT, host TEXT);"
	"CREATE TABLE IF NOT EXISTS rows("
	" run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,"
	" algorithm TEXT, implementation TEXT, operation TEXT,"
	" msg_len INTEGER, ad_len INTEGER, status TEXT,"
	" median REAL, model_median REAL, energy_uj REAL,"
	" PRIMARY KEY(run_id, algorithm, implementation, operation, msg_len,"
	" ad_len));"
	"CREATE INDEX IF NOT EXISTS rows_key ON rows(algorithm, implementation,"
	" operation, msg_len, ad_len);";

int hil_history_db_open(const char *path, int create, sqlite3 **db)
{
	int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);

	*db = NULL;
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

const char *hil_history_col(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);

	return s != NULL ? (const char *)s : "";
}

int hil_history_has_host_column(sqlite3 *db)
{
	sqlite3_stmt *st = NULL;
	int have = 0;

	if (sqlite3_prepare_v2(db, "PRAGMA table_info(runs)", -1, &st, NULL) !=
	    SQLITE_OK) {
		return 0;
	}
	while (sqlite3_step(st) == SQLITE_ROW) {
		have |= strcmp(hil_history_col(st, 1), "host") == 0;
	}
	sqlite3_finalize(st);
	return have;
}

/* A database of before the host column: add it (inside the transaction). */
static int add_host_column(sqlite3 *db)
{
	if (hil_history_has_host_column(db)) {
		return SQLITE_OK;
	}
	return sqlite3_exec(db, "ALTER TABLE runs ADD COLUMN host TEXT", NULL,
			    NULL, NULL);
}

static int insert_rows(sqlite3 *db, const char *id,
		       const struct hil_history_run *run)
{
	sqlite3_stmt *st = NULL;
	size_t i;
	int rc;

	rc = sqlite3_prepare_v2(
		db, "INSERT OR REPLACE INTO rows VALUES(?,?,?,?,?,?,?,?,?,?)",
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
		" unit, cflags, tool_commit, dirty, dir, host)"
		" VALUES(?,?,?,?,?,?,?,?,?,?,?,?)",
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
 * run (another start, board or host), 1 this run as it is, 2 this run with
 * another end or status (resumed since). A record without a host (written
 * before hosts were recorded) is any host's.
 */
static int stored_as(sqlite3 *db, const char *id,
		     const struct hil_history_run *run, int *rc)
{
	sqlite3_stmt *st = NULL;
	int what = -1;

	*rc = sqlite3_prepare_v2(db,
				 "SELECT started, board, host, finished, status"
				 " FROM runs WHERE id = ?",
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

/* Where an imported run goes: under its id, or, when another run (of
 * another host or board, started in the same second with the same
 * configuration) holds that id, under "ID@HOST:BOARD". */
static int import_run(sqlite3 *db, const struct hil_history_run *run, char *id,
		      size_t id_len, int *outcome)
{
	int k, rc = SQLITE_OK;

	for (k = 0; k < 2; k++) {
		int what;

		if (k == 0) {
			snprintf(id, id_len, "%s", run->id);
		} else {
			snprintf(id, id_len, "%s@%s:%s", run->id,
				 run->host != NULL ? run->host : "",
				 run->board != NULL ? run->board : "");
		}
		what = stored_as(db, id, run, &rc);
		if (rc != SQLITE_OK || what == 0) {
			continue;
		}
		if (what == 1) {
			*outcome = HIL_HISTORY_SAME;
			return SQLITE_OK;
		}
		*outcome = what == 2 ? HIL_HISTORY_REPLACED : HIL_HISTORY_NEW;
		if (what == 2) {
			rc = delete_run(db, id);
		}
		return rc == SQLITE_OK ? insert_run(db, id, run) : rc;
	}
	if (rc == SQLITE_OK) {
		hil_err("run %s of %s on %s: the history holds other runs under this id and under %s",
			run->id, run->host, run->board, id);
	}
	return SQLITE_ERROR;
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
	rc = add_host_column(db);
	if (rc == SQLITE_OK && import) {
		rc = import_run(db, run, id, id_len, outcome);
	} else if (rc == SQLITE_OK) {
		/* A resumed run replaces what it had: its rows go with it. */
		snprintf(id, id_len, "%s", run->id);
		rc = delete_run(db, run->id);
		if (rc == SQLITE_OK) {
			rc = insert_run(db, run->id, run);
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
		rows[i].has_energy = r->energy.state == HIL_ENERGY_OK;
		rows[i].energy_uj = r->energy.uj_per_op;
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
	if (sqlite3_prepare_v2(db,
			       "SELECT started, finished FROM runs WHERE config"
			       " = ?1 AND status = 'complete' ORDER BY started"
			       " DESC LIMIT 1",
			       -1, &st, NULL) == SQLITE_OK) {
		hil_history_bind_text(st, 1, config);
		if (sqlite3_step(st) == SQLITE_ROW) {
			long long a = iso_seconds(
				(const char *)sqlite3_column_text(st, 0));
			long long b = iso_seconds(
				(const char *)sqlite3_column_text(st, 1));

			if (a >= 0 && b >= a) {
				secs = (long)(b - a);
			}
		}
	}
	sqlite3_finalize(st);
	sqlite3_close(db);
	return secs;
}
