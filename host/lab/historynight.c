/* historynight: `hilrun history --html FILE` without a row: the lab's night on one page, per board and configuration the last run's status, failed rows, compare's verdicts against the run before it and a link to each report. */
#define _DEFAULT_SOURCE /* realpath */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"history"

#include "history.h"
#include "history_int.h"

#include <limits.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "report/modelchange.h"
#include "report/render.h"
#include "util/err.h"
#include "util/log.h"
#include "util/util.h"

/* Changes listed per run before "and N more". */
#define NIGHT_CHANGES_MAX 25

/* One run as the page needs it. */
struct night_run {
	char id[160], started[32], status[16], config[128], board[128];
	char host[128], cflags[512], model[160], commit[48], dir[PATH_MAX];
	int dirty, ok, rows;
};

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

/* A link target in an attribute: escaped, and characters that would end
 * or change a URL's meaning percent-encoded. */
static void esc_url(FILE *f, const char *s)
{
	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		if (c <= ' ' || c >= 0x7f || c == '"' || c == '<' || c == '>' ||
		    c == '#' || c == '?' || c == '%' || c == '\'' || c == '&') {
			fprintf(f, "%%%02X", c);
		} else {
			fputc(c, f);
		}
	}
}

static void run_from(struct night_run *r, sqlite3_stmt *st)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->id, sizeof(r->id), "%s", hil_history_col(st, 0));
	snprintf(r->started, sizeof(r->started), "%s", hil_history_col(st, 1));
	snprintf(r->status, sizeof(r->status), "%s", hil_history_col(st, 2));
	snprintf(r->config, sizeof(r->config), "%s", hil_history_col(st, 3));
	snprintf(r->board, sizeof(r->board), "%s", hil_history_col(st, 4));
	snprintf(r->host, sizeof(r->host), "%s", hil_history_col(st, 5));
	snprintf(r->cflags, sizeof(r->cflags), "%s", hil_history_col(st, 6));
	snprintf(r->model, sizeof(r->model), "%s", hil_history_col(st, 7));
	snprintf(r->commit, sizeof(r->commit), "%s", hil_history_col(st, 8));
	r->dirty = sqlite3_column_int(st, 9);
	snprintf(r->dir, sizeof(r->dir), "%s", hil_history_col(st, 10));
	r->ok = sqlite3_column_int(st, 11);
	r->rows = sqlite3_column_int(st, 12);
}

/* Like with like: the same configuration, flags and cycle-model profile
 * (the series of a trend). */
static int comparable(const struct night_run *a, const struct night_run *b)
{
	return strcmp(a->config, b->config) == 0 &&
	       strcmp(a->cflags, b->cflags) == 0 &&
	       strcmp(a->model, b->model) == 0;
}

/* The report's page, relative to the night page when below its folder. */
static void report_link(FILE *f, const char *page_dir,
			const struct night_run *r)
{
	size_t n = strlen(page_dir);

	fputs("<a href=\"", f);
	if (page_dir[0] != '\0' && strncmp(r->dir, page_dir, n) == 0 &&
	    r->dir[n] == '/') {
		esc_url(f, r->dir + n + 1);
	} else {
		fputs("file://", f);
		esc_url(f, r->dir);
	}
	fputs("/report.html\">", f);
	esc(f, r->id);
	fputs("</a>", f);
}

static const char *run_class(const struct night_run *r, int stale)
{
	if (stale) {
		return "stale";
	}
	if (strcmp(r->status, "complete") != 0) {
		return "bad";
	}
	return r->ok == r->rows ? "good" : "warn";
}

/* The rows of run id that did not end ok. */
static void failed_rows(FILE *f, sqlite3 *db, const char *id)
{
	sqlite3_stmt *st = NULL;
	int n = 0, failed = 0;

	if (sqlite3_prepare_v2(db,
			       "SELECT algorithm, implementation, operation,"
			       " msg_len, ad_len, status FROM rows WHERE run_id"
			       " = ?1 AND status != 'ok' ORDER BY algorithm,"
			       " implementation, operation, msg_len, ad_len",
			       -1, &st, NULL) != SQLITE_OK) {
		return;
	}
	hil_history_bind_text(st, 1, id);
	while (hil_history_next(st, &failed)) {
		if (n == 0) {
			fputs("<p>Rows that did not end ok:</p>\n<table><tr><th>row</th><th>length</th><th>status</th></tr>\n",
			      f);
		}
		fputs("<tr><td>", f);
		esc(f, hil_history_col(st, 0));
		fputc('/', f);
		esc(f, hil_history_col(st, 1));
		fputc(' ', f);
		esc(f, hil_history_col(st, 2));
		fprintf(f, "</td><td>%s B, ad %s B</td><td class=\"bad\">",
			hil_history_col(st, 3), hil_history_col(st, 4));
		esc(f, hil_history_col(st, 5));
		fputs("</td></tr>\n", f);
		n++;
	}
	if (n > 0) {
		fputs("</table>\n", f);
	}
	if (failed) {
		fputs("<p class=\"bad\">The history could not be read to the end here: it is damaged.</p>\n",
		      f);
	}
	sqlite3_finalize(st);
}

static const char *verdict_name(enum hil_verdict v)
{
	switch (v) {
	case HIL_BETTER:
		return "better";
	case HIL_WORSE:
		return "worse";
	case HIL_ADDED:
		return "new row";
	case HIL_REMOVED:
		return "row gone";
	default:
		return "same";
	}
}

/*
 * compare's verdicts of cur against prev, from their reports on disk
 * (what compare would say: the same keys and default thresholds). Counts
 * of worse and better go to *worse and *better.
 */
/* A figure of e on the page; an estimate with its error bar beside it. */
static void night_fig(FILE *f, int have, double v, double err)
{
	if (!have) {
		fputs("-", f);
	} else if (err >= 0) {
		/* One line: "7268.63 ± 11 %" is one figure. */
		fprintf(f, "%.6g&nbsp;±&nbsp;%.0f&nbsp;%%", v, err);
	} else {
		fprintf(f, "%.6g", v);
	}
}

static void changes(FILE *f, const struct night_run *prev,
		    const struct night_run *cur, int *worse, int *better,
		    int *within)
{
	struct hil_thresholds t;
	struct hil_cmp *cmp = NULL;
	cJSON *a = NULL, *b = NULL;
	char path[PATH_MAX + 16], err[1024];
	size_t i, shown = 0, changed = 0;

	*worse = *better = *within = 0;
	snprintf(path, sizeof(path), "%s/report.json", prev->dir);
	if (hil_report_load(path, &a, err, sizeof(err)) != HIL_OK) {
		fputs("<p class=\"warn\">No comparison with the run before (",
		      f);
		esc(f, prev->id);
		fputs("): its report cannot be read: ", f);
		esc(f, err);
		fputs("</p>\n", f);
		return;
	}
	snprintf(path, sizeof(path), "%s/report.json", cur->dir);
	if (hil_report_load(path, &b, err, sizeof(err)) != HIL_OK) {
		fputs("<p class=\"warn\">No comparison: this run's report cannot be read: ",
		      f);
		esc(f, err);
		fputs("</p>\n", f);
		cJSON_Delete(a);
		return;
	}
	hil_thresholds_default(&t);
	if (hil_cmp_compute(a, b, &t, &cmp) != HIL_OK) {
		fputs("<p class=\"warn\">No comparison with the run before: the two count in different units.</p>\n",
		      f);
		goto out;
	}
	for (i = 0; i < cmp->n; i++) {
		const struct hil_cmp_entry *e = &cmp->e[i];

		if (e->verdict == HIL_SAME) {
			continue;
		}
		*worse += e->verdict == HIL_WORSE;
		*better += e->verdict == HIL_BETTER;
		*within += e->within_error && e->verdict == HIL_WORSE;
		changed++;
		if (shown == NIGHT_CHANGES_MAX) {
			continue;
		}
		if (shown == 0) {
			fputs("<p>Against the run before (", f);
			esc(f, prev->id);
			fputs(", same configuration, flags and profile; compare's default thresholds):</p>\n"
			      "<table><tr><th>row</th><th>length</th><th>figure</th><th>before</th><th>now</th><th>verdict</th></tr>\n",
			      f);
		}
		fputs("<tr><td>", f);
		esc(f, e->algorithm);
		fputc('/', f);
		esc(f, e->implementation);
		fputc(' ', f);
		esc(f, e->operation);
		fprintf(f, "</td><td>%.0f B, ad %.0f B</td><td>", e->msg_len,
			e->ad_len);
		esc(f, e->metric);
		fputs(", ", f);
		esc(f, e->unit);
		fputs("</td><td>", f);
		night_fig(f, e->have_base, e->base, e->err_base);
		fputs("</td><td>", f);
		night_fig(f, e->have_new, e->cur, e->err_new);
		/* An estimate that moved within its error bars: a change of
		 * the code's modelled cost, not one shown on the board. */
		fprintf(f, "</td><td class=\"%s\">%s",
			e->within_error		   ? "warn"
			: e->verdict == HIL_WORSE  ? "bad"
			: e->verdict == HIL_BETTER ? "good"
						   : "",
			verdict_name(e->verdict));
		if (e->within_error) {
			fprintf(f,
				", within the model's error (± %.0f %%): the code's modelled cost changed; the board may not show it",
				hil_model_error_combined(e->err_base,
							 e->err_new));
		}
		if (e->note != NULL && e->note[0] != '\0') {
			fputs(" (", f);
			esc(f, e->note);
			fputc(')', f);
		}
		fputs("</td></tr>\n", f);
		shown++;
	}
	if (shown > 0) {
		fputs("</table>\n", f);
	}
	if (cmp->model_no_bar[0] != '\0') {
		fputs("<p>Model estimates: ", f);
		esc(f, cmp->model_no_bar);
		fputs(".</p>\n", f);
	}
	if (changed > shown) {
		fprintf(f, "<p>and %zu more changes (hilrun compare ",
			changed - shown);
		esc(f, prev->dir);
		fputs("/report.json ", f);
		esc(f, cur->dir);
		fputs("/report.json lists them all)</p>\n", f);
	}
	if (changed == 0) {
		fputs("<p>No change against the run before (", f);
		esc(f, prev->id);
		fputs(").</p>\n", f);
	}
out:
	hil_cmp_free(cmp);
	cJSON_Delete(a);
	cJSON_Delete(b);
}

/* "2026-12-03T07:43:52Z" as seconds, or -1. */
static long long iso_seconds(const char *s)
{
	struct tm tm;

	memset(&tm, 0, sizeof(tm));
	if (sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d", &tm.tm_year, &tm.tm_mon,
		   &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec) != 6) {
		return -1;
	}
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	return (long long)timegm(&tm);
}

/* A run older than a day before the newest run of the history: its board
 * had no run that night. */
#define NIGHT_STALE_S (24 * 3600)

static int night_page(FILE *f, sqlite3 *db, const char *page_dir)
{
	const char *sql_fmt =
		"SELECT r.id, r.started, r.status, r.config, r.board,"
		" %s, r.cflags, %s, r.tool_commit, r.dirty, r.dir,"
		" (SELECT count(*) FROM rows w WHERE w.run_id = r.id AND"
		" w.status = 'ok'), (SELECT count(*) FROM rows w WHERE"
		" w.run_id = r.id) FROM runs r"
		" ORDER BY r.board, r.config, r.started DESC, r.id DESC";
	struct night_run *runs = NULL, *tmp;
	size_t n = 0, cap = 0, i, j, groups = 0, attention = 0;
	sqlite3_stmt *st = NULL;
	long long newest = -1;
	char *sql;
	char night[16] = "";
	int ret = HIL_OK, commits = 0, failed = 0;
	char first_commit[48] = "";
	char *sec_buf = NULL;
	size_t sec_len = 0;
	FILE *sec;

	sql = sqlite3_mprintf(
		sql_fmt,
		hil_history_has_column(db, "host") ? "ifnull(r.host, '')"
						   : "''",
		hil_history_has_column(db, "model") ? "ifnull(r.model, '')"
						    : "''");
	if (sql == NULL ||
	    sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		hil_err("reading the runs: %s", sqlite3_errmsg(db));
		sqlite3_free(sql);
		return HIL_ERR_IO;
	}
	sqlite3_free(sql);
	while (hil_history_next(st, &failed)) {
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			tmp = realloc(runs, cap * sizeof(*runs));
			if (tmp == NULL) {
				ret = HIL_ERR_NOMEM;
				break;
			}
			runs = tmp;
		}
		run_from(&runs[n], st);
		if (iso_seconds(runs[n].started) > newest) {
			newest = iso_seconds(runs[n].started);
			snprintf(night, sizeof(night), "%.10s",
				 runs[n].started);
		}
		n++;
	}
	sqlite3_finalize(st);
	if (failed && ret == HIL_OK) {
		ret = HIL_ERR_IO;
	}
	if (ret != HIL_OK || n == 0) {
		free(runs);
		if (ret == HIL_OK) {
			hil_err("no run recorded yet: nothing to show");
			ret = HIL_ERR_ARG;
		}
		return ret;
	}
	/* The newest run of each board and configuration, and the one
	 * before it that it is compared with. */
	for (i = 0; i < n; i = j) {
		for (j = i + 1;
		     j < n && strcmp(runs[j].board, runs[i].board) == 0 &&
		     strcmp(runs[j].config, runs[i].config) == 0;
		     j++) {
		}
		groups++;
		if (iso_seconds(runs[i].started) < newest - NIGHT_STALE_S) {
			continue;
		}
		if (commits == 0) {
			snprintf(first_commit, sizeof(first_commit), "%s",
				 runs[i].commit);
			commits = 1;
		} else if (strcmp(runs[i].commit, first_commit) != 0) {
			commits = 2;
		}
	}
	fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>hilrun lab: the night of ",
	      f);
	esc(f, night);
	fputs("</title>\n<style>body{font-family:sans-serif;margin:1em 2em}"
	      "table{border-collapse:collapse;margin-bottom:1em}"
	      "td,th{border:1px solid #ccc;padding:2px 8px;text-align:left}"
	      ".good{background:#dfd}.warn{background:#ffd}.bad{background:#fdd}"
	      ".stale{background:#eee;color:#666}</style></head><body>\n",
	      f);
	fputs("<h1>hilrun lab: the night of ", f);
	esc(f, night);
	fputs("</h1>\n", f);
	fprintf(f,
		"<p>The newest run of each board and configuration in the lab's history, newest %s (UTC); "
		"grey: no run in the day before the newest one. Each run is compared with the one before it "
		"of the same configuration, flags and cycle-model profile.</p>\n",
		runs[0].started[0] ? night : "-");
	if (commits > 1) {
		fputs("<p class=\"warn\">The night's runs were measured with more than one hilrun commit: see the commit column.</p>\n",
		      f);
	}
	/* Each board's section first (into sec), for the verdict counts the
	 * summary table above it shows. */
	fputs("<table id=\"night\"><tr><th>board</th><th>host</th><th>config</th><th>run</th><th>started (UTC)</th>"
	      "<th>status</th><th>rows ok</th><th>commit</th><th>against the run before</th></tr>\n",
	      f);
	sec = open_memstream(&sec_buf, &sec_len);
	if (sec == NULL) {
		free(runs);
		return HIL_ERR_NOMEM;
	}
	for (i = 0; i < n; i = j) {
		const struct night_run *r = &runs[i];
		const struct night_run *prev = NULL, *other = NULL;
		int stale = iso_seconds(r->started) < newest - NIGHT_STALE_S;
		int worse = 0, better = 0, within = 0;

		for (j = i + 1; j < n && strcmp(runs[j].board, r->board) == 0 &&
				strcmp(runs[j].config, r->config) == 0;
		     j++) {
			if (prev == NULL && comparable(&runs[j], r)) {
				prev = &runs[j];
			} else if (other == NULL && !comparable(&runs[j], r)) {
				other = &runs[j];
			}
		}
		fprintf(sec, "<h2 id=\"b%zu\">", i);
		esc(sec, r->board);
		fputs(", ", sec);
		esc(sec, r->config);
		fputs(": ", sec);
		report_link(sec, page_dir, r);
		fputs(" (", sec);
		esc(sec, r->status);
		fprintf(sec, ", %d of %d rows ok)</h2>\n", r->ok, r->rows);
		fputs("<p>flags ", sec);
		esc(sec, r->cflags[0] ? r->cflags : "-");
		if (r->model[0]) {
			fputs("; model ", sec);
			esc(sec, r->model);
		}
		fputs("</p>\n", sec);
		failed_rows(sec, db, r->id);
		if (prev != NULL) {
			changes(sec, prev, r, &worse, &better, &within);
		} else if (other != NULL) {
			fputs("<p>The run before (", sec);
			esc(sec, other->id);
			fputs(") had other flags or another cycle-model profile: not compared (like with like only).</p>\n",
			      sec);
		} else {
			fputs("<p>No run of this board and configuration before it.</p>\n",
			      sec);
		}

		attention += !stale && (strcmp(run_class(r, 0), "good") != 0 ||
					worse > 0);
		fprintf(f, "<tr class=\"%s\"><td><a href=\"#b%zu\">",
			run_class(r, stale), i);
		esc(f, r->board);
		fputs("</a></td><td>", f);
		esc(f, r->host[0] ? r->host : "-");
		fputs("</td><td>", f);
		esc(f, r->config);
		fputs("</td><td>", f);
		report_link(f, page_dir, r);
		fputs("</td><td style=\"white-space:nowrap\">", f);
		esc(f, r->started);
		fputs("</td><td>", f);
		esc(f, r->status);
		fprintf(f, "</td><td>%d/%d</td><td>%.12s%s</td>", r->ok,
			r->rows, r->commit[0] ? r->commit : "-",
			r->dirty ? "+" : "");
		if (prev == NULL) {
			fputs("<td>nothing to compare with</td></tr>\n", f);
		} else {
			char w[64] = "";

			if (within > 0) {
				snprintf(w, sizeof(w),
					 " (%d within the model's error)",
					 within);
			}
			fprintf(f,
				"<td class=\"%s\">%d worse%s, %d better</td></tr>\n",
				worse > within ? "bad"
				: worse	       ? "warn"
					       : "",
				worse, w, better);
		}
	}
	fputs("</table>\n", f);
	fprintf(f,
		"<p id=\"verdict\">%zu board configuration%s, %zu needing attention (a run not complete, a row failed or worse than the run before).</p>\n",
		groups, groups == 1 ? "" : "s", attention);
	if (fclose(sec) == 0 && sec_buf != NULL) {
		fwrite(sec_buf, 1, sec_len, f);
	}
	free(sec_buf);
	fputs("</body></html>\n", f);
	free(runs);
	return HIL_OK;
}

int hil_history_night(const char *db_path, const char *path)
{
	char dir[PATH_MAX], page_dir[PATH_MAX] = "";
	const char *slash = strrchr(path, '/');
	char *buf = NULL;
	size_t len = 0;
	sqlite3 *db;
	FILE *f;
	int ret;

	/* Links to reports below the page's folder are relative, so that
	 * the page works when the master's folder is served over HTTP. */
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) : 1,
		 slash ? path : ".");
	if (realpath(dir[0] ? dir : "/", page_dir) == NULL) {
		page_dir[0] = '\0';
	}
	if (hil_history_db_open(db_path, 0, &db) != HIL_OK) {
		return HIL_ERR_IO;
	}
	f = open_memstream(&buf, &len);
	ret = f != NULL ? night_page(f, db, page_dir) : HIL_ERR_NOMEM;
	sqlite3_close(db);
	if (f != NULL && fclose(f) != 0 && ret == HIL_OK) {
		ret = HIL_ERR_NOMEM;
	}
	if (ret == HIL_OK) {
		ret = hil_write_atomic(path, buf, len);
		if (ret != HIL_OK) {
			hil_err("cannot write %s", path);
		}
	}
	free(buf);
	return ret;
}
