/* history: the run database (SQLite, Debian's libsqlite3) and the `hilrun history` listings. */
#define _DEFAULT_SOURCE /* timegm */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"history"

#include "history.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/err.h"
#include "util/log.h"
#include "util/util.h"

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

static int db_open(const char *path, int create, sqlite3 **db)
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

static void bind_text(sqlite3_stmt *st, int i, const char *s)
{
	sqlite3_bind_text(st, i, s != NULL ? s : "", -1, SQLITE_TRANSIENT);
}

static const char *col(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);

	return s != NULL ? (const char *)s : "";
}

/* 1 when the runs table has the host column (a database of before it
 * has not). */
static int has_host_column(sqlite3 *db)
{
	sqlite3_stmt *st = NULL;
	int have = 0;

	if (sqlite3_prepare_v2(db, "PRAGMA table_info(runs)", -1, &st, NULL) !=
	    SQLITE_OK) {
		return 0;
	}
	while (sqlite3_step(st) == SQLITE_ROW) {
		have |= strcmp(col(st, 1), "host") == 0;
	}
	sqlite3_finalize(st);
	return have;
}

/* A database of before the host column: add it (inside the transaction). */
static int add_host_column(sqlite3 *db)
{
	if (has_host_column(db)) {
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
		bind_text(st, 1, id);
		bind_text(st, 2, r->algorithm);
		bind_text(st, 3, r->implementation);
		bind_text(st, 4, r->operation);
		sqlite3_bind_int64(st, 5, r->msg_len);
		sqlite3_bind_int64(st, 6, r->ad_len);
		bind_text(st, 7, r->status);
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
		bind_text(st, 1, id);
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
		bind_text(st, 1, id);
		bind_text(st, 2, run->started);
		bind_text(st, 3, run->finished);
		bind_text(st, 4, run->status != NULL ? run->status : "failed");
		bind_text(st, 5, run->config);
		bind_text(st, 6, run->board);
		bind_text(st, 7, run->unit);
		bind_text(st, 8, run->cflags);
		bind_text(st, 9, run->tool_commit);
		sqlite3_bind_int(st, 10, run->dirty);
		bind_text(st, 11, run->dir);
		bind_text(st, 12, run->host);
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
	bind_text(st, 1, id);
	if (sqlite3_step(st) == SQLITE_ROW) {
		if (!str_eq(col(st, 0), run->started) ||
		    !str_eq(col(st, 1), run->board) ||
		    (col(st, 2)[0] != '\0' && !str_eq(col(st, 2), run->host))) {
			what = 0;
		} else if (str_eq(col(st, 3), run->finished) &&
			   str_eq(col(st, 4), run->status)) {
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
	if (db_open(db_path, 1, &db) != HIL_OK) {
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
		bind_text(st, 1, config);
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

static int print_runs(sqlite3 *db, const struct hil_history_query *q, FILE *out)
{
	sqlite3_stmt *st = NULL;
	int n = 0;

	if (sqlite3_prepare_v2(
		    db,
		    has_host_column(db)
			    ? "SELECT r.id, r.started, r.status, r.config, r.board, r.unit,"
			      " r.cflags, (SELECT count(*) FROM rows w WHERE w.run_id = r.id"
			      " AND w.status = 'ok'), (SELECT count(*) FROM rows w"
			      " WHERE w.run_id = r.id), r.host FROM runs r"
			      " WHERE (?1 IS NULL OR r.config = ?1)"
			      " ORDER BY r.started DESC, r.id DESC LIMIT ?2"
			    : "SELECT r.id, r.started, r.status, r.config, r.board, r.unit,"
			      " r.cflags, (SELECT count(*) FROM rows w WHERE w.run_id = r.id"
			      " AND w.status = 'ok'), (SELECT count(*) FROM rows w"
			      " WHERE w.run_id = r.id), '' FROM runs r"
			      " WHERE (?1 IS NULL OR r.config = ?1)"
			      " ORDER BY r.started DESC, r.id DESC LIMIT ?2",
		    -1, &st, NULL) != SQLITE_OK) {
		hil_err("reading the runs: %s", sqlite3_errmsg(db));
		return HIL_ERR_IO;
	}
	if (q->config != NULL) {
		bind_text(st, 1, q->config);
	}
	sqlite3_bind_int(st, 2, q->limit ? (int)q->limit : 20);
	fprintf(out, "%-32s %-20s %-8s %-16s %-12s %-14s %9s  %s\n", "run",
		"started (UTC)", "status", "config", "host", "board", "rows ok",
		"unit, flags");
	while (sqlite3_step(st) == SQLITE_ROW) {
		char rows[32];

		snprintf(rows, sizeof(rows), "%d/%d", sqlite3_column_int(st, 7),
			 sqlite3_column_int(st, 8));
		fprintf(out, "%-32s %-20s %-8s %-16s %-12s %-14s %9s  %s, %s\n",
			col(st, 0), col(st, 1), col(st, 2), col(st, 3),
			col(st, 9)[0] ? col(st, 9) : "-", col(st, 4), rows,
			col(st, 5), col(st, 6));
		n++;
	}
	sqlite3_finalize(st);
	if (n == 0) {
		fprintf(out, "(no runs recorded%s%s)\n",
			q->config ? " of config " : "",
			q->config ? q->config : "");
	}
	return HIL_OK;
}

static void fmt_num(char *buf, size_t len, sqlite3_stmt *st, int i)
{
	if (sqlite3_column_type(st, i) == SQLITE_NULL) {
		snprintf(buf, len, "-");
	} else {
		snprintf(buf, len, "%.0f", sqlite3_column_double(st, i));
	}
}

/* The rows of q's trend, ordered by series then time. */
static int trend_stmt(sqlite3 *db, const struct hil_history_query *q,
		      sqlite3_stmt **out)
{
	sqlite3_stmt *st = NULL;

	if (sqlite3_prepare_v2(
		    db,
		    "SELECT r.config, w.algorithm, w.implementation, w.operation,"
		    " w.msg_len, w.ad_len, r.unit, r.id, r.started, w.status,"
		    " w.median, w.model_median, w.energy_uj, r.cflags, r.tool_commit"
		    " FROM rows w JOIN runs r ON r.id = w.run_id"
		    " WHERE w.algorithm = ?1 AND (?2 IS NULL OR"
		    " w.implementation = ?2) AND (?3 IS NULL OR w.operation = ?3)"
		    " AND w.msg_len = ?4 AND w.ad_len = ?5"
		    " AND (?6 IS NULL OR r.config = ?6)"
		    " ORDER BY r.config, w.implementation, w.operation, r.unit,"
		    " r.started, r.id",
		    -1, &st, NULL) != SQLITE_OK) {
		hil_err("reading the rows: %s", sqlite3_errmsg(db));
		return HIL_ERR_IO;
	}
	bind_text(st, 1, q->alg);
	if (q->impl != NULL) {
		bind_text(st, 2, q->impl);
	}
	if (q->op != NULL) {
		bind_text(st, 3, q->op);
	}
	sqlite3_bind_int64(st, 4, q->msg_len >= 0 ? q->msg_len : 64);
	sqlite3_bind_int64(st, 5, q->ad_len >= 0 ? q->ad_len : 0);
	if (q->config != NULL) {
		bind_text(st, 6, q->config);
	}
	*out = st;
	return HIL_OK;
}

static int print_trend(sqlite3 *db, const struct hil_history_query *q,
		       FILE *out)
{
	sqlite3_stmt *st = NULL;
	char key[512] = "";
	double first = 0, prev = 0;
	int n = 0;

	if (trend_stmt(db, q, &st) != HIL_OK) {
		return HIL_ERR_IO;
	}
	while (sqlite3_step(st) == SQLITE_ROW) {
		char k[512], med[32], model[32], energy[32], change[32] = "-";
		int have = sqlite3_column_type(st, 10) != SQLITE_NULL;
		double v = sqlite3_column_double(st, 10);

		/* One table per configuration, row and unit. */
		snprintf(k, sizeof(k), "%s|%s|%s|%s|%s|%s|%s", col(st, 0),
			 col(st, 1), col(st, 2), col(st, 3), col(st, 4),
			 col(st, 5), col(st, 6));
		if (strcmp(k, key) != 0) {
			snprintf(key, sizeof(key), "%s", k);
			fprintf(out,
				"%s%s/%s %s, %s B, ad %s B, config %s, in %s:\n",
				n ? "\n" : "", col(st, 1), col(st, 2),
				col(st, 3), col(st, 4), col(st, 5), col(st, 0),
				col(st, 6));
			fprintf(out,
				"%-32s %-20s %-11s %12s %9s %12s %10s  %s\n",
				"run", "started (UTC)", "status", "median",
				"change", "model est.", "uJ/op",
				"flags, commit");
			first = prev = 0;
		}
		fmt_num(med, sizeof(med), st, 10);
		fmt_num(model, sizeof(model), st, 11);
		if (sqlite3_column_type(st, 12) == SQLITE_NULL) {
			snprintf(energy, sizeof(energy), "-");
		} else {
			snprintf(energy, sizeof(energy), "%.4g",
				 sqlite3_column_double(st, 12));
		}
		if (have && prev > 0) {
			snprintf(change, sizeof(change), "%+.2f%%",
				 (v / prev - 1) * 100);
		}
		fprintf(out,
			"%-32s %-20s %-11s %12s %9s %12s %10s  %s, %.12s\n",
			col(st, 7), col(st, 8), col(st, 9), med, change, model,
			energy, col(st, 13), col(st, 14));
		if (have) {
			if (first == 0) {
				first = v;
			}
			prev = v;
		}
		n++;
	}
	sqlite3_finalize(st);
	if (n == 0) {
		hil_err("no recorded row of %s%s%s%s%s at %ld B (ad %ld B)%s%s: hilrun history lists the runs",
			q->alg, q->impl ? "/" : "", q->impl ? q->impl : "",
			q->op ? " " : "", q->op ? q->op : "",
			q->msg_len >= 0 ? q->msg_len : 64,
			q->ad_len >= 0 ? q->ad_len : 0,
			q->config ? " in config " : "",
			q->config ? q->config : "");
		return HIL_ERR_ARG;
	}
	return HIL_OK;
}

/* Text for HTML: names are restricted, units have parentheses; still. */
static void esc(FILE *f, const char *s)
{
	for (; *s != '\0'; s++) {
		switch (*s) {
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '&':
			fputs("&amp;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		default:
			fputc(*s, f);
		}
	}
}

#define TREND_MAX 512

/* One series of the trend page: its runs in order. */
struct trend {
	char title[512];
	char unit[128];
	char run[TREND_MAX][64];
	double v[TREND_MAX]; /* median; -1: the row failed */
	size_t n;
};

/* An SVG line chart of t: runs left to right, the median on a linear
 * axis from 0, every point marked, failed runs marked on the axis. */
static void trend_svg(FILE *f, const struct trend *t)
{
	const double w = 760, h = 300, l = 80, r = 20, top = 20, b = 50;
	double max = 0, x, y;
	size_t i;
	int k;

	for (i = 0; i < t->n; i++) {
		max = t->v[i] > max ? t->v[i] : max;
	}
	max = max > 0 ? max * 1.1 : 1;
	fprintf(f,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" role=\"img\">\n",
		w, h, w, h);
	fprintf(f,
		"<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"#333\"/>\n"
		"<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"#333\"/>\n",
		l, top, l, h - b, l, h - b, w - r, h - b);
	for (k = 0; k <= 4; k++) {
		y = h - b - (h - b - top) * k / 4.0;
		fprintf(f,
			"<text x=\"%.0f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%.0f</text>\n",
			l - 6, y + 4, max * k / 4.0);
	}
	fprintf(f,
		"<text x=\"%.0f\" y=\"%.0f\" font-size=\"12\" text-anchor=\"middle\">run, oldest to newest (%zu)</text>\n",
		(l + w - r) / 2, h - 12, t->n);
	fprintf(f,
		"<text x=\"14\" y=\"%.0f\" font-size=\"12\" text-anchor=\"middle\" transform=\"rotate(-90 14 %.0f)\">median, ",
		(top + h - b) / 2, (top + h - b) / 2);
	esc(f, t->unit);
	fputs("</text>\n<polyline fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"2\" points=\"",
	      f);
	for (i = 0; i < t->n; i++) {
		if (t->v[i] < 0) {
			continue;
		}
		x = l + (t->n > 1 ? (w - l - r) * i / (double)(t->n - 1)
				  : (w - l - r) / 2);
		y = h - b - (h - b - top) * t->v[i] / max;
		fprintf(f, "%.1f,%.1f ", x, y);
	}
	fputs("\"/>\n", f);
	for (i = 0; i < t->n; i++) {
		x = l + (t->n > 1 ? (w - l - r) * i / (double)(t->n - 1)
				  : (w - l - r) / 2);
		y = t->v[i] < 0 ? h - b : h - b - (h - b - top) * t->v[i] / max;
		fprintf(f,
			"<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"><title>",
			x, y, t->v[i] < 0 ? "#d62728" : "#1f77b4");
		esc(f, t->run[i]);
		if (t->v[i] < 0) {
			fputs(": failed", f);
		} else {
			fprintf(f, ": %.0f", t->v[i]);
		}
		fputs("</title></circle>\n", f);
	}
	fputs("</svg>\n", f);
}

static void trend_flush(FILE *f, const struct trend *t)
{
	size_t i;

	if (t->n == 0) {
		return;
	}
	fputs("<h2>", f);
	esc(f, t->title);
	fputs("</h2>\n", f);
	trend_svg(f, t);
	fputs("<table><tr><th>run</th><th>median (", f);
	esc(f, t->unit);
	fputs(")</th></tr>\n", f);
	for (i = 0; i < t->n; i++) {
		fputs("<tr><td>", f);
		esc(f, t->run[i]);
		if (t->v[i] < 0) {
			fputs("</td><td>failed</td></tr>\n", f);
		} else {
			fprintf(f, "</td><td>%.0f</td></tr>\n", t->v[i]);
		}
	}
	fputs("</table>\n", f);
}

int hil_history_html(const char *db_path, const struct hil_history_query *q,
		     const char *path)
{
	struct trend *t = calloc(1, sizeof(*t));
	sqlite3_stmt *st = NULL;
	char key[512] = "";
	char *buf = NULL;
	size_t len = 0;
	sqlite3 *db;
	FILE *f;
	int n = 0;
	int ret;

	if (t == NULL) {
		return HIL_ERR_NOMEM;
	}
	if (db_open(db_path, 0, &db) != HIL_OK) {
		free(t);
		return HIL_ERR_IO;
	}
	f = open_memstream(&buf, &len);
	ret = f != NULL ? trend_stmt(db, q, &st) : HIL_ERR_NOMEM;
	if (ret != HIL_OK) {
		goto out;
	}
	fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>hilrun history: ",
	      f);
	esc(f, q->alg);
	fputs("</title>\n<style>body{font-family:sans-serif;margin:1em 2em}"
	      "table{border-collapse:collapse}td,th{border:1px solid #ccc;"
	      "padding:2px 8px;text-align:right}</style></head><body>\n"
	      "<h1>Trend over the recorded runs</h1>\n",
	      f);
	while (sqlite3_step(st) == SQLITE_ROW) {
		char k[512];

		snprintf(k, sizeof(k), "%s|%s|%s|%s|%s|%s|%s", col(st, 0),
			 col(st, 1), col(st, 2), col(st, 3), col(st, 4),
			 col(st, 5), col(st, 6));
		if (strcmp(k, key) != 0) {
			trend_flush(f, t);
			memset(t, 0, sizeof(*t));
			snprintf(key, sizeof(key), "%s", k);
			snprintf(t->title, sizeof(t->title),
				 "%s/%s %s, %s B, ad %s B, config %s",
				 col(st, 1), col(st, 2), col(st, 3), col(st, 4),
				 col(st, 5), col(st, 0));
			snprintf(t->unit, sizeof(t->unit), "%s", col(st, 6));
		}
		if (t->n < TREND_MAX) {
			snprintf(t->run[t->n], sizeof(t->run[0]), "%s",
				 col(st, 7));
			t->v[t->n] = sqlite3_column_type(st, 10) == SQLITE_NULL
					     ? -1
					     : sqlite3_column_double(st, 10);
			t->n++;
		}
		n++;
	}
	trend_flush(f, t);
	fputs("<p>Each point is one run's median of the row (hover for the run). "
	      "An emulated count is not a cycle count.</p>\n</body></html>\n",
	      f);
out:
	sqlite3_finalize(st);
	sqlite3_close(db);
	if (f != NULL && fclose(f) != 0 && ret == HIL_OK) {
		ret = HIL_ERR_NOMEM;
	}
	if (ret == HIL_OK && n == 0) {
		hil_err("no recorded row of %s to plot: hilrun history lists the runs",
			q->alg);
		ret = HIL_ERR_ARG;
	}
	if (ret == HIL_OK) {
		ret = hil_write_atomic(path, buf, len);
		if (ret != HIL_OK) {
			hil_err("cannot write %s", path);
		}
	}
	free(buf);
	free(t);
	return ret;
}

int hil_history_print(const char *db_path, const struct hil_history_query *q,
		      FILE *out)
{
	sqlite3 *db;
	int ret;

	if (db_open(db_path, 0, &db) != HIL_OK) {
		hil_err("%s: no run history there yet (every finished run records itself in its results folder's %s; --db FILE names another)",
			db_path, HIL_HISTORY_FILE);
		return HIL_ERR_IO;
	}
	ret = q->alg == NULL ? print_runs(db, q, out) : print_trend(db, q, out);
	sqlite3_close(db);
	return ret;
}
