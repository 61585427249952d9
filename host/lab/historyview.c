/* historyview: `hilrun history`: the recorded runs, or one row's trend over them, as a text table or an HTML page with a chart. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#define HIL_LOG_PREFIX	"history"

#include "history.h"
#include "history_int.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/err.h"
#include "util/log.h"
#include "util/util.h"

static int print_runs(sqlite3 *db, const struct hil_history_query *q, FILE *out)
{
	sqlite3_stmt *st = NULL;
	int n = 0;

	if (sqlite3_prepare_v2(
		    db,
		    hil_history_has_host_column(db)
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
		hil_history_bind_text(st, 1, q->config);
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
			hil_history_col(st, 0), hil_history_col(st, 1),
			hil_history_col(st, 2), hil_history_col(st, 3),
			hil_history_col(st, 9)[0] ? hil_history_col(st, 9)
						  : "-",
			hil_history_col(st, 4), rows, hil_history_col(st, 5),
			hil_history_col(st, 6));
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
	hil_history_bind_text(st, 1, q->alg);
	if (q->impl != NULL) {
		hil_history_bind_text(st, 2, q->impl);
	}
	if (q->op != NULL) {
		hil_history_bind_text(st, 3, q->op);
	}
	sqlite3_bind_int64(st, 4, q->msg_len >= 0 ? q->msg_len : 64);
	sqlite3_bind_int64(st, 5, q->ad_len >= 0 ? q->ad_len : 0);
	if (q->config != NULL) {
		hil_history_bind_text(st, 6, q->config);
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
		snprintf(k, sizeof(k), "%s|%s|%s|%s|%s|%s|%s",
			 hil_history_col(st, 0), hil_history_col(st, 1),
			 hil_history_col(st, 2), hil_history_col(st, 3),
			 hil_history_col(st, 4), hil_history_col(st, 5),
			 hil_history_col(st, 6));
		if (strcmp(k, key) != 0) {
			snprintf(key, sizeof(key), "%s", k);
			fprintf(out,
				"%s%s/%s %s, %s B, ad %s B, config %s, in %s:\n",
				n ? "\n" : "", hil_history_col(st, 1),
				hil_history_col(st, 2), hil_history_col(st, 3),
				hil_history_col(st, 4), hil_history_col(st, 5),
				hil_history_col(st, 0), hil_history_col(st, 6));
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
			hil_history_col(st, 7), hil_history_col(st, 8),
			hil_history_col(st, 9), med, change, model, energy,
			hil_history_col(st, 13), hil_history_col(st, 14));
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
	if (hil_history_db_open(db_path, 0, &db) != HIL_OK) {
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

		snprintf(k, sizeof(k), "%s|%s|%s|%s|%s|%s|%s",
			 hil_history_col(st, 0), hil_history_col(st, 1),
			 hil_history_col(st, 2), hil_history_col(st, 3),
			 hil_history_col(st, 4), hil_history_col(st, 5),
			 hil_history_col(st, 6));
		if (strcmp(k, key) != 0) {
			trend_flush(f, t);
			memset(t, 0, sizeof(*t));
			snprintf(key, sizeof(key), "%s", k);
			snprintf(t->title, sizeof(t->title),
				 "%s/%s %s, %s B, ad %s B, config %s",
				 hil_history_col(st, 1), hil_history_col(st, 2),
				 hil_history_col(st, 3), hil_history_col(st, 4),
				 hil_history_col(st, 5),
				 hil_history_col(st, 0));
			snprintf(t->unit, sizeof(t->unit), "%s",
				 hil_history_col(st, 6));
		}
		if (t->n < TREND_MAX) {
			snprintf(t->run[t->n], sizeof(t->run[0]), "%s",
				 hil_history_col(st, 7));
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

	if (hil_history_db_open(db_path, 0, &db) != HIL_OK) {
		return HIL_ERR_IO;
	}
	ret = q->alg == NULL ? print_runs(db, q, out) : print_trend(db, q, out);
	sqlite3_close(db);
	return ret;
}
