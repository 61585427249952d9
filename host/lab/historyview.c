/* historyview: `hilrun history`: the recorded runs, or one row's trend over them, as a text table or an HTML page with a chart. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#define HIL_LOG_PREFIX	"history"

#include "history.h"
#include "history_int.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/modelchange.h"
#include "util/err.h"
#include "util/log.h"
#include "util/util.h"

/* A run's tool commit as the tables show it: 12 hex digits, "+" when the
 * checkout had changes, "-" when unknown. */
static void commit_text(char *buf, size_t len, const char *commit, int dirty)
{
	snprintf(buf, len, "%.12s%s", commit[0] ? commit : "-",
		 dirty && commit[0] ? "+" : "");
}

static int print_runs(sqlite3 *db, const struct hil_history_query *q, FILE *out)
{
	sqlite3_stmt *st = NULL;
	int n = 0, failed = 0;

	if (sqlite3_prepare_v2(
		    db,
		    hil_history_has_host_column(db)
			    ? "SELECT r.id, r.started, r.status, r.config, r.board, r.unit,"
			      " r.cflags, (SELECT count(*) FROM rows w WHERE w.run_id = r.id"
			      " AND w.status = 'ok'), (SELECT count(*) FROM rows w"
			      " WHERE w.run_id = r.id), r.host, r.tool_commit, r.dirty"
			      " FROM runs r"
			      " WHERE (?1 IS NULL OR r.config = ?1)"
			      " ORDER BY r.started DESC, r.id DESC LIMIT ?2"
			    : "SELECT r.id, r.started, r.status, r.config, r.board, r.unit,"
			      " r.cflags, (SELECT count(*) FROM rows w WHERE w.run_id = r.id"
			      " AND w.status = 'ok'), (SELECT count(*) FROM rows w"
			      " WHERE w.run_id = r.id), '', r.tool_commit, r.dirty"
			      " FROM runs r"
			      " WHERE (?1 IS NULL OR r.config = ?1)"
			      " ORDER BY r.started DESC, r.id DESC LIMIT ?2",
		    -1, &st, NULL) != SQLITE_OK) {
		hil_err("reading the runs: %s", sqlite3_errmsg(db));
		return HIL_ERR_IO;
	}
	if (q->config != NULL) {
		hil_history_bind_text(st, 1, q->config);
	}
	sqlite3_bind_int(st, 2,
			 q->limit ? (int)q->limit : HIL_HISTORY_DEFAULT_LIMIT);
	fprintf(out, "%-32s %-20s %-8s %-16s %-12s %-14s %9s %-13s  %s\n",
		"run", "started (UTC)", "status", "config", "host", "board",
		"rows ok", "commit", "unit, flags");
	while (hil_history_next(st, &failed)) {
		char rows[32], commit[24];

		snprintf(rows, sizeof(rows), "%d/%d", sqlite3_column_int(st, 7),
			 sqlite3_column_int(st, 8));
		commit_text(commit, sizeof(commit), hil_history_col(st, 10),
			    sqlite3_column_int(st, 11));
		fprintf(out,
			"%-32s %-20s %-8s %-16s %-12s %-14s %9s %-13s  %s, %s\n",
			hil_history_col(st, 0), hil_history_col(st, 1),
			hil_history_col(st, 2), hil_history_col(st, 3),
			hil_history_col(st, 9)[0] ? hil_history_col(st, 9)
						  : "-",
			hil_history_col(st, 4), rows, commit,
			hil_history_col(st, 5), hil_history_col(st, 6));
		n++;
	}
	sqlite3_finalize(st);
	if (failed) {
		return HIL_ERR_IO;
	}
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

/* The rows of q's trend, ordered by series then time. A series is one
 * configuration, board, row and unit, and one set of flags and
 * cycle-model profile: quick runs (all named "qemu-cli") with -O2 and with
 * -O2 -funroll-loops are two series, not one trend, and nor are one
 * nightly configuration's runs on two boards. Columns: 0 config,
 * 1 algorithm, 2 implementation, 3 operation, 4 msg_len, 5 ad_len,
 * 6 unit, 7 id, 8 started, 9 status, 10 median, 11 model median,
 * 12 energy, 13 cflags, 14 tool commit, 15 model unit, 16 dirty,
 * 17-20 the datasheet estimate: typical, low, high, table (NULL in a
 * history of before it), 21 board, 22-23 the model estimate's error bar
 * and its kind ("assembly", "C", "none": uncalibrated; NULL: not
 * recorded, or no estimate). */
static int trend_stmt(sqlite3 *db, const struct hil_history_query *q,
		      sqlite3_stmt **out)
{
	sqlite3_stmt *st = NULL;
	char *sql = sqlite3_mprintf(
		"SELECT r.config, w.algorithm, w.implementation, w.operation,"
		" w.msg_len, w.ad_len, r.unit, r.id, r.started, w.status,"
		" w.median, w.model_median, w.energy_uj, r.cflags, r.tool_commit,"
		" %s, r.dirty, %s, r.board, %s"
		" FROM rows w JOIN runs r ON r.id = w.run_id"
		" WHERE w.algorithm = ?1 AND (?2 IS NULL OR"
		" w.implementation = ?2) AND (?3 IS NULL OR w.operation = ?3)"
		" AND w.msg_len = ?4 AND w.ad_len = ?5"
		" AND (?6 IS NULL OR r.config = ?6)"
		" ORDER BY r.config, r.board, w.implementation, w.operation,"
		" r.unit, r.cflags, 16, r.started, r.id",
		hil_history_has_column(db, "model") ? "ifnull(r.model, '')"
						    : "''",
		hil_history_has_row_column(db, "est_uj")
			? "w.est_uj, w.est_low, w.est_high, w.est_table"
			: "NULL, NULL, NULL, NULL",
		hil_history_has_row_column(db, "model_error_kind")
			? "w.model_error_pct, w.model_error_kind"
			: "NULL, NULL");
	int rc;

	if (sql == NULL) {
		return HIL_ERR_NOMEM;
	}
	rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	sqlite3_free(sql);
	if (rc != SQLITE_OK) {
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

/* The series of st's row: what a trend keeps apart (see trend_stmt). */
static void series_key(char *k, size_t len, sqlite3_stmt *st, int with_build)
{
	snprintf(k, len, "%s|%s|%s|%s|%s|%s|%s|%s|%s|%s",
		 hil_history_col(st, 0), hil_history_col(st, 21),
		 hil_history_col(st, 1), hil_history_col(st, 2),
		 hil_history_col(st, 3), hil_history_col(st, 4),
		 hil_history_col(st, 5), hil_history_col(st, 6),
		 with_build ? hil_history_col(st, 13) : "",
		 with_build ? hil_history_col(st, 15) : "");
}

/* The error bar of st's estimate (column 22), or -1. */
static double error_of(sqlite3_stmt *st)
{
	return sqlite3_column_type(st, 11) != SQLITE_NULL &&
			       sqlite3_column_type(st, 22) != SQLITE_NULL
		       ? sqlite3_column_double(st, 22)
		       : -1;
}

/* Why the estimates of a trend lack an error bar, each said once. */
struct no_bar {
	char profiles[8][128]; /* uncalibrated profiles met */
	size_t n_profiles;
	char units[8][128]; /* their models' units (when unnamed) */
	int unrecorded;	    /* estimates recorded without their error bar */
	int with_bar;	    /* estimates shown with one */
	int within;	    /* changes marked within the model's error */
};

/* Note st's estimate (when it has one) in nb. */
static void note_error_bar(struct no_bar *nb, sqlite3_stmt *st)
{
	const char *kind = hil_history_col(st, 23);
	char name[128];
	size_t i;

	if (sqlite3_column_type(st, 11) == SQLITE_NULL) {
		return;
	}
	if (sqlite3_column_type(st, 23) == SQLITE_NULL) {
		nb->unrecorded++;
		return;
	}
	if (strcmp(kind, "none") != 0) {
		nb->with_bar++;
		return;
	}
	hil_model_unit_profile(hil_history_col(st, 15), name, sizeof(name));
	for (i = 0; i < nb->n_profiles; i++) {
		if (strcmp(nb->units[i], hil_history_col(st, 15)) == 0) {
			return;
		}
	}
	if (nb->n_profiles < 8) {
		snprintf(nb->profiles[nb->n_profiles], sizeof(nb->profiles[0]),
			 "%s", name);
		snprintf(nb->units[nb->n_profiles], sizeof(nb->units[0]), "%s",
			 hil_history_col(st, 15));
		nb->n_profiles++;
	}
}

/* The lines under a trend that say what its error bars are, or why an
 * estimate has none: once each. */
static void print_error_notes(FILE *out, const struct no_bar *nb)
{
	char line[512];
	size_t i;

	if (nb->with_bar > 0) {
		fprintf(out,
			"model est. ± N %% = the estimate's expected error against the real board, for assembly or for C, from its profile's cross-validation (docs/cycle-model.md).\n");
	}
	if (nb->within > 0) {
		fprintf(out,
			"~ within the model's error: the estimate moved by less than the two estimates' error bars together (sqrt(a² + b²)). The code's modelled cost did change (the same build gives the same estimate), but the board may not show that change (docs/cycle-model.md, \"Comparing two estimates\").\n");
	}
	for (i = 0; i < nb->n_profiles; i++) {
		hil_model_no_error_bar(line, sizeof(line), nb->profiles[i],
				       nb->units[i]);
		fprintf(out, "model est.: %s.\n", line);
	}
	if (nb->unrecorded > 0) {
		fprintf(out,
			"model est.: no error bar recorded for %d estimate%s: recorded before the history stored error bars (hilrun history import RUN_FOLDER adds them from its report.json).\n",
			nb->unrecorded, nb->unrecorded == 1 ? "" : "s");
	}
}

/* "5325 ± 11 %", "5325" or "-": st's estimate and its error bar. */
static void estimate_text(char *buf, size_t len, sqlite3_stmt *st)
{
	double e = error_of(st);

	if (sqlite3_column_type(st, 11) == SQLITE_NULL) {
		snprintf(buf, len, "-");
	} else if (e >= 0) {
		snprintf(buf, len, "%.0f \xc2\xb1 %.0f %%",
			 sqlite3_column_double(st, 11), e);
	} else {
		snprintf(buf, len, "%.0f", sqlite3_column_double(st, 11));
	}
}

/* printf's width for a field holding "±" (two bytes, one column). */
static int pm_width(const char *s, int w)
{
	return strstr(s, "\xc2\xb1") != NULL ? w + 1 : w;
}

static int print_trend(sqlite3 *db, const struct hil_history_query *q,
		       FILE *out)
{
	sqlite3_stmt *st = NULL;
	char key[4096] = "", row[4096] = "", commit[128] = "", table[256] = "";
	double first = 0, prev = 0, prev_est = -1, prev_err = -1;
	struct no_bar nb;
	int n = 0, marked = 0, failed = 0;

	memset(&nb, 0, sizeof(nb));
	if (trend_stmt(db, q, &st) != HIL_OK) {
		return HIL_ERR_IO;
	}
	while (hil_history_next(st, &failed)) {
		char k[4096], r[4096], med[32], model[48], energy[32];
		char change[32] = "-", est_change[32] = "-", c[24], est[64];
		int have = sqlite3_column_type(st, 10) != SQLITE_NULL;
		int have_est = sqlite3_column_type(st, 11) != SQLITE_NULL;
		double v = sqlite3_column_double(st, 10);
		double ve = sqlite3_column_double(st, 11);
		int other_commit;

		/* One table per configuration, row, unit, flags and model. */
		series_key(k, sizeof(k), st, 1);
		series_key(r, sizeof(r), st, 0);
		if (strcmp(k, key) != 0) {
			snprintf(key, sizeof(key), "%s", k);
			fprintf(out,
				"%s%s/%s %s, %s B, ad %s B, config %s on %s, flags \"%s\", in %s%s%s:\n",
				n ? "\n" : "", hil_history_col(st, 1),
				hil_history_col(st, 2), hil_history_col(st, 3),
				hil_history_col(st, 4), hil_history_col(st, 5),
				hil_history_col(st, 0), hil_history_col(st, 21),
				hil_history_col(st, 13), hil_history_col(st, 6),
				hil_history_col(st, 15)[0] ? "; model " : "",
				hil_history_col(st, 15));
			if (strcmp(r, row) == 0) {
				fprintf(out,
					"(the same configuration name with other flags or another cycle-model profile: a series of its own, never one trend with the one above)\n");
			}
			snprintf(row, sizeof(row), "%s", r);
			fprintf(out,
				"%-32s %-20s %-11s %12s %9s %16s %11s %10s %20s  %s\n",
				"run", "started (UTC)", "status", "median",
				"change", "model est.", "est. change", "uJ/op",
				"est. uJ/op (range)", "commit");
			first = prev = 0;
			prev_est = prev_err = -1;
			commit[0] = '\0';
		}
		fmt_num(med, sizeof(med), st, 10);
		estimate_text(model, sizeof(model), st);
		note_error_bar(&nb, st);
		if (sqlite3_column_type(st, 12) == SQLITE_NULL) {
			snprintf(energy, sizeof(energy), "-");
		} else {
			snprintf(energy, sizeof(energy), "%.4g",
				 sqlite3_column_double(st, 12));
		}
		/* A change across two tool commits is said to be one. */
		other_commit = commit[0] != '\0' &&
			       strcmp(commit, hil_history_col(st, 14)) != 0;
		if (have && prev > 0) {
			snprintf(change, sizeof(change), "%+.2f%%%s",
				 (v / prev - 1) * 100, other_commit ? "*" : "");
		}
		/* The estimate's change, marked when its error bars cover it
		 * (a change of the code's modelled cost all the same). */
		if (have_est && prev_est > 0) {
			double pct = (ve / prev_est - 1) * 100;
			int within = pct != 0 &&
				     hil_model_change_within_error(
					     pct, prev_err, error_of(st));

			snprintf(est_change, sizeof(est_change), "%+.2f%%%s%s",
				 pct, within ? "~" : "",
				 other_commit ? "*" : "");
			nb.within += within;
		}
		marked |= other_commit;
		if (sqlite3_column_type(st, 17) == SQLITE_NULL) {
			snprintf(est, sizeof(est), "-");
		} else {
			snprintf(est, sizeof(est), "%.3g (%.3g-%.3g)",
				 sqlite3_column_double(st, 17),
				 sqlite3_column_double(st, 18),
				 sqlite3_column_double(st, 19));
			snprintf(table, sizeof(table), "%s",
				 hil_history_col(st, 20));
		}
		commit_text(c, sizeof(c), hil_history_col(st, 14),
			    sqlite3_column_int(st, 16));
		fprintf(out,
			"%-32s %-20s %-11s %12s %9s %*s %11s %10s %20s  %s%s\n",
			hil_history_col(st, 7), hil_history_col(st, 8),
			hil_history_col(st, 9), med, change,
			pm_width(model, 16), model, est_change, energy, est, c,
			other_commit ? " (another commit)" : "");
		snprintf(commit, sizeof(commit), "%s", hil_history_col(st, 14));
		if (have) {
			if (first == 0) {
				first = v;
			}
			prev = v;
		}
		if (have_est) {
			prev_est = ve;
			prev_err = error_of(st);
		}
		n++;
	}
	sqlite3_finalize(st);
	if (failed) {
		return HIL_ERR_IO;
	}
	if (n > 0) {
		print_error_notes(out, &nb);
	}
	if (table[0] != '\0') {
		fprintf(out,
			"est. uJ/op = a datasheet estimate, not measured (typical, and the datasheet's range): %s; docs/method.md.\n",
			table);
	}
	if (marked) {
		fprintf(out,
			"* measured with another hilrun commit than the run before: the change may be the tool's, not the code's\n");
	}
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
	char title[1024];
	char unit[128];	 /* the counter's */
	char model[128]; /* the cycle model's, "" for none */
	char run[TREND_MAX][64];
	char when[TREND_MAX][24];   /* "12-03 07:43", the x label */
	char commit[TREND_MAX][24]; /* as commit_text() shows it */
	double v[TREND_MAX];	    /* median; -1: the row failed */
	double est[TREND_MAX];	    /* model estimate; -1: none */
	double err[TREND_MAX];	    /* its error bar in %; -1: none */
	/* Why an estimate has no error bar: 'n' its profile is not
	 * calibrated, 'u' not recorded (a history of before them). */
	char no_bar[TREND_MAX];
	size_t n;
	int split; /* the same row and config as the series before */
};

/* A tick step of about max/4 that reads well: 1, 2, 2.5 or 5 times a
 * power of ten, so that the axis says 0, 500, 1000, ..., not 1187. */
static double nice_step(double max)
{
	static const double m[] = {1, 2, 2.5, 5, 10};
	double raw = max / 4, p = 1;
	size_t i;

	if (raw <= 0) {
		return 1;
	}
	while (p * 10 <= raw) {
		p *= 10;
	}
	while (p > raw) {
		p /= 10;
	}
	for (i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		if (m[i] * p >= raw) {
			return m[i] * p;
		}
	}
	return 10 * p;
}

/* The figure a series plots: the estimate when any run has one (what the
 * CLI trend shows beside the median), else the median. */
static int trend_uses_estimate(const struct trend *t)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		if (t->est[i] >= 0) {
			return 1;
		}
	}
	return 0;
}

static double trend_value(const struct trend *t, size_t i, int est)
{
	return est ? (t->v[i] < 0 ? -1 : t->est[i]) : t->v[i];
}

/* An SVG line chart of t: runs left to right, labelled by their start,
 * the plotted figure on a linear axis from 0 with round ticks, every point
 * marked (hover: run, figure, commit), failed runs marked on the axis. */
static void trend_svg(FILE *f, const struct trend *t)
{
	const double w = 760, h = 340, l = 80, r = 20, top = 20, b = 90;
	int est = trend_uses_estimate(t);
	double max = 0, x, y, step, v;
	size_t i, every;
	int k, ticks;

	for (i = 0; i < t->n; i++) {
		v = trend_value(t, i, est);
		/* The top of its error bar too. */
		if (est && v >= 0 && t->err[i] > 0) {
			v *= 1 + t->err[i] / 100;
		}
		max = v > max ? v : max;
	}
	step = nice_step(max > 0 ? max * 1.05 : 1);
	ticks = (int)(max / step) + 1;
	max = step * ticks;
	fprintf(f,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" role=\"img\">\n",
		w, h, w, h);
	fprintf(f,
		"<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"#333\"/>\n"
		"<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"#333\"/>\n",
		l, top, l, h - b, l, h - b, w - r, h - b);
	for (k = 0; k <= ticks; k++) {
		y = h - b - (h - b - top) * k / (double)ticks;
		fprintf(f,
			"<line x1=\"%.0f\" y1=\"%.1f\" x2=\"%.0f\" y2=\"%.1f\" stroke=\"#eee\"/>"
			"<text x=\"%.0f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%.10g</text>\n",
			l + 1, y, w - r, y, l - 6, y + 4, step * k);
	}
	/* Every run labelled while they fit (about 24), else every k-th. */
	every = t->n > 24 ? (t->n + 23) / 24 : 1;
	for (i = 0; i < t->n; i++) {
		x = l + (t->n > 1 ? (w - l - r) * i / (double)(t->n - 1)
				  : (w - l - r) / 2);
		if (i % every != 0 && i != t->n - 1) {
			continue;
		}
		fprintf(f,
			"<text x=\"%.1f\" y=\"%.0f\" font-size=\"10\" text-anchor=\"end\" transform=\"rotate(-40 %.1f %.0f)\">",
			x, h - b + 14, x, h - b + 14);
		esc(f, t->when[i]);
		fputs("</text>\n", f);
	}
	fprintf(f,
		"<text x=\"%.0f\" y=\"%.0f\" font-size=\"12\" text-anchor=\"middle\">run, oldest to newest (%zu), by start (UTC)</text>\n",
		(l + w - r) / 2, h - 8, t->n);
	fprintf(f,
		"<text x=\"14\" y=\"%.0f\" font-size=\"12\" text-anchor=\"middle\" transform=\"rotate(-90 14 %.0f)\">%s",
		(top + h - b) / 2, (top + h - b) / 2,
		est ? "model estimate, " : "median, ");
	if (est) {
		/* "cycles (estimated, Cortex-M4 model, ...)": the unit alone
		 * on the axis, the whole of it under the title. */
		fprintf(f, "%.*s (estimated)", (int)strcspn(t->model, " ("),
			t->model);
	} else {
		esc(f, t->unit);
	}
	fputs("</text>\n<polyline fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"2\" points=\"",
	      f);
	for (i = 0; i < t->n; i++) {
		v = trend_value(t, i, est);
		if (v < 0) {
			continue;
		}
		x = l + (t->n > 1 ? (w - l - r) * i / (double)(t->n - 1)
				  : (w - l - r) / 2);
		y = h - b - (h - b - top) * v / max;
		fprintf(f, "%.1f,%.1f ", x, y);
	}
	fputs("\"/>\n", f);
	/* Each estimate's error bar: how far the board may be from it. */
	for (i = 0; est && i < t->n; i++) {
		double y0, y1;

		v = trend_value(t, i, est);
		if (v < 0 || t->err[i] < 0) {
			continue;
		}
		x = l + (t->n > 1 ? (w - l - r) * i / (double)(t->n - 1)
				  : (w - l - r) / 2);
		y0 = h - b - (h - b - top) * v * (1 - t->err[i] / 100) / max;
		y1 = h - b - (h - b - top) * v * (1 + t->err[i] / 100) / max;
		fprintf(f,
			"<path class=\"errbar\" d=\"M%.1f %.1fV%.1fM%.1f %.1fh8M%.1f %.1fh8\" stroke=\"#1f77b4\" stroke-opacity=\"0.5\" fill=\"none\"/>\n",
			x, y0, y1, x - 4, y0, x - 4, y1);
	}
	for (i = 0; i < t->n; i++) {
		v = trend_value(t, i, est);
		x = l + (t->n > 1 ? (w - l - r) * i / (double)(t->n - 1)
				  : (w - l - r) / 2);
		y = v < 0 ? h - b : h - b - (h - b - top) * v / max;
		fprintf(f,
			"<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"><title>",
			x, y, v < 0 ? "#d62728" : "#1f77b4");
		esc(f, t->run[i]);
		if (t->v[i] < 0) {
			fputs(": failed", f);
		} else if (v < 0) {
			fputs(": no estimate", f);
		} else if (est && t->err[i] >= 0) {
			fprintf(f, ": %.0f \xc2\xb1 %.0f %%", v, t->err[i]);
		} else {
			fprintf(f, ": %.0f", v);
		}
		fputs(", commit ", f);
		esc(f, t->commit[i]);
		fputs("</title></circle>\n", f);
	}
	fputs("</svg>\n", f);
}

/* The estimate's change from the one before it in t (i > 0): "+4.58 %",
 * with within set when the error bars cover it; "-" when either has no
 * estimate. */
static void trend_est_change(const struct trend *t, size_t i, char *buf,
			     size_t len, int *within)
{
	size_t j;
	double pct;

	*within = 0;
	snprintf(buf, len, "-");
	if (t->v[i] < 0 || t->est[i] < 0) {
		return;
	}
	for (j = i; j-- > 0;) {
		if (t->v[j] >= 0 && t->est[j] > 0) {
			break;
		}
	}
	if (j == (size_t)-1) {
		return;
	}
	pct = (t->est[i] / t->est[j] - 1) * 100;
	*within = pct != 0 &&
		  hil_model_change_within_error(pct, t->err[j], t->err[i]);
	snprintf(buf, len, "%+.2f %%", pct);
}

/* Under a series' table: what its error bars are, or why it has none;
 * each said once. */
static void trend_notes(FILE *f, const struct trend *t, int within)
{
	size_t i, bars = 0, uncal = 0, unrec = 0;
	char line[512], name[128];

	for (i = 0; i < t->n; i++) {
		bars += t->est[i] >= 0 && t->err[i] >= 0;
		uncal += t->est[i] >= 0 && t->no_bar[i] == 'n';
		unrec += t->est[i] >= 0 && t->no_bar[i] == 'u';
	}
	if (bars > 0) {
		fputs("<p class=\"caption\">± N %: the estimate's expected error against the real board (for assembly or for C), from its profile's cross-validation; drawn as a bar on each point (docs/cycle-model.md).</p>\n",
		      f);
	}
	if (within) {
		fputs("<p class=\"caption\"><span class=\"within\">within the model's error</span>: the estimate moved by less than the two estimates' error bars together (√(a² + b²)). The code's modelled cost did change (the same build gives the same estimate), but the board may not show that change.</p>\n",
		      f);
	}
	if (uncal > 0) {
		hil_model_unit_profile(t->model, name, sizeof(name));
		hil_model_no_error_bar(line, sizeof(line), name, t->model);
		fputs("<p class=\"note\">Model estimate: ", f);
		esc(f, line);
		fputs(".</p>\n", f);
	}
	if (unrec > 0) {
		fprintf(f,
			"<p class=\"note\">Model estimate: no error bar recorded for %zu run%s, recorded before the history stored error bars (hilrun history import RUN_FOLDER adds them).</p>\n",
			unrec, unrec == 1 ? "" : "s");
	}
}

static void trend_flush(FILE *f, const struct trend *t)
{
	size_t i;
	int any_within = 0;

	if (t->n == 0) {
		return;
	}
	fputs("<h2>", f);
	esc(f, t->title);
	fputs("</h2>\n", f);
	if (t->split) {
		fputs("<p class=\"note\">The same configuration name as the series above, with other flags or another cycle-model profile: a series of its own, never one trend with it.</p>\n",
		      f);
	}
	if (t->model[0]) {
		fputs("<p>Model: ", f);
		esc(f, t->model);
		fputs("</p>\n", f);
	}
	trend_svg(f, t);
	fputs("<table><tr><th>run</th><th>started (UTC)</th><th>median, ", f);
	esc(f, t->unit);
	fputs("</th><th>model estimate", f);
	if (t->model[0]) {
		fputs(", ", f);
		esc(f, t->model);
	}
	fputs("</th><th>estimate's change</th><th>commit</th></tr>\n", f);
	for (i = 0; i < t->n; i++) {
		int other = i > 0 && strcmp(t->commit[i], t->commit[i - 1]);
		char ch[32];
		int within;

		trend_est_change(t, i, ch, sizeof(ch), &within);
		any_within |= within;
		fputs("<tr><td>", f);
		esc(f, t->run[i]);
		fputs("</td><td>", f);
		esc(f, t->when[i]);
		if (t->v[i] < 0) {
			fputs("</td><td>failed</td><td>-", f);
		} else if (t->est[i] < 0) {
			fprintf(f, "</td><td>%.0f</td><td>-", t->v[i]);
		} else if (t->err[i] >= 0) {
			fprintf(f, "</td><td>%.0f</td><td>%.0f ± %.0f %%",
				t->v[i], t->est[i], t->err[i]);
		} else {
			fprintf(f, "</td><td>%.0f</td><td>%.0f", t->v[i],
				t->est[i]);
		}
		fprintf(f, "</td><td%s>%s%s", within ? " class=\"within\"" : "",
			ch, within ? " (within the model's error)" : "");
		fputs("</td><td>", f);
		esc(f, t->commit[i]);
		fputs(other ? " (another commit than the run before)" : "", f);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
	trend_notes(f, t, any_within);
}

int hil_history_html(const char *db_path, const struct hil_history_query *q,
		     const char *path)
{
	struct trend *t = calloc(1, sizeof(*t));
	sqlite3_stmt *st = NULL;
	char key[4096] = "", row[4096] = "";
	char *buf = NULL;
	size_t len = 0;
	sqlite3 *db;
	FILE *f;
	int n = 0, failed = 0;
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
	      "padding:2px 8px;text-align:right}.note{color:#a50}"
	      ".caption{color:#444;font-size:90%}.within{color:#666;"
	      "font-style:italic}</style>"
	      "</head><body>\n<h1>Trend over the recorded runs</h1>\n"
	      "<p>One series per configuration, board, row, unit, compiler flags and "
	      "cycle-model profile: runs that differ in any of these are never "
	      "one trend. A run measured with another hilrun commit than the "
	      "one before it is marked in the table and on hover.</p>\n",
	      f);
	while (hil_history_next(st, &failed)) {
		char k[4096], r[4096];
		const char *started = hil_history_col(st, 8);

		series_key(k, sizeof(k), st, 1);
		series_key(r, sizeof(r), st, 0);
		if (strcmp(k, key) != 0) {
			trend_flush(f, t);
			memset(t, 0, sizeof(*t));
			snprintf(key, sizeof(key), "%s", k);
			t->split = strcmp(r, row) == 0;
			snprintf(row, sizeof(row), "%s", r);
			snprintf(
				t->title, sizeof(t->title),
				"%s/%s %s, %s B, ad %s B, config %s on %s, flags \"%s\"",
				hil_history_col(st, 1), hil_history_col(st, 2),
				hil_history_col(st, 3), hil_history_col(st, 4),
				hil_history_col(st, 5), hil_history_col(st, 0),
				hil_history_col(st, 21),
				hil_history_col(st, 13));
			snprintf(t->unit, sizeof(t->unit), "%s",
				 hil_history_col(st, 6));
			snprintf(t->model, sizeof(t->model), "%s",
				 hil_history_col(st, 15));
		}
		if (t->n < TREND_MAX) {
			snprintf(t->run[t->n], sizeof(t->run[0]), "%s",
				 hil_history_col(st, 7));
			/* "2026-12-03T07:43:52Z" as "12-03 07:43". */
			snprintf(t->when[t->n], sizeof(t->when[0]), "%s",
				 strlen(started) >= 16 ? started + 5 : started);
			if (strlen(started) >= 16) {
				t->when[t->n][5] = ' ';
				t->when[t->n][11] = '\0';
			}
			commit_text(t->commit[t->n], sizeof(t->commit[0]),
				    hil_history_col(st, 14),
				    sqlite3_column_int(st, 16));
			t->v[t->n] = sqlite3_column_type(st, 10) == SQLITE_NULL
					     ? -1
					     : sqlite3_column_double(st, 10);
			t->est[t->n] =
				sqlite3_column_type(st, 11) == SQLITE_NULL
					? -1
					: sqlite3_column_double(st, 11);
			t->err[t->n] = error_of(st);
			t->no_bar[t->n] =
				sqlite3_column_type(st, 23) == SQLITE_NULL ? 'u'
				: strcmp(hil_history_col(st, 23), "none") == 0
					? 'n'
					: 0;
			t->n++;
		}
		n++;
	}
	if (failed) {
		ret = HIL_ERR_IO;
		goto out;
	}
	trend_flush(f, t);
	fputs("<p>Each point is one run's figure for the row (hover for the run and its commit): "
	      "the cycle model's estimate where the run has one (with its error bar when its profile is calibrated), else the median count. "
	      "An emulated count is not a cycle count, and an estimate is not a measurement.</p>\n</body></html>\n",
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
