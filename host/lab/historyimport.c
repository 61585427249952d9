/* historyimport: `hilrun history import`: runs recorded from their report.json files (a lab's master, runs of other hosts). */
#define _DEFAULT_SOURCE /* scandir, alphasort, realpath */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"history"

#include "history.h"

#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "util/err.h"
#include "util/log.h"
#include "report/render.h"
#include "result/headcodec.h"
#include "result/rowview.h"
#include "util/util.h"

#define TEXT_MAX 256

/* The strings of one imported row, copied out of the tree. */
struct row_text {
	char algorithm[TEXT_MAX], implementation[TEXT_MAX], operation[TEXT_MAX];
	char status[32];
	char est_table[TEXT_MAX];
	char error_kind[16];
};

/* The strings of one imported run. */
struct run_text {
	char id[TEXT_MAX], started[64], finished[64], status[32];
	char config[TEXT_MAX], board[TEXT_MAX], host[TEXT_MAX], unit[TEXT_MAX];
	char cflags[2048], tool_commit[TEXT_MAX], dir[PATH_MAX];
	char model[TEXT_MAX];
};

/* Control characters (an escape sequence in a forged report) as '?'. */
static void scrub(char *s)
{
	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c == 0x7f) {
			*s = '?';
		}
	}
}

/* A string of the report for a terminal and a database: bounded, scrubbed. */
static void copy_text(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src != NULL ? src : "");
	scrub(dst);
}

static const cJSON *obj(const cJSON *o, const char *key)
{
	return cJSON_GetObjectItemCaseSensitive(o, key);
}

/* A run id as hilrun makes them (stamp-config[-n]): nothing else is
 * accepted as the key of a record. */
static int id_ok(const char *id)
{
	size_t i, n = strlen(id);

	if (n == 0 || n >= 128 || id[0] == '.' || id[0] == '-') {
		return 0;
	}
	for (i = 0; i < n; i++) {
		char c = id[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '.' || c == '_' ||
		      c == '-' || c == '+')) {
			return 0;
		}
	}
	return 1;
}

/* A time as hilrun writes them (hil_utc_iso): "2026-12-03T07:43:52Z",
 * each field in its range. The history sorts runs by this text, so a
 * "started" of another shape ("zzz", "9999-99-99") would sort a run
 * anywhere. */
static int iso_ok(const char *s)
{
	static const char shape[] = "dddd-dd-ddTdd:dd:ddZ";
	int mon, day, hour, min, sec;
	size_t i;

	if (strlen(s) != sizeof(shape) - 1) {
		return 0;
	}
	for (i = 0; shape[i] != '\0'; i++) {
		if (shape[i] == 'd' ? (s[i] < '0' || s[i] > '9')
				    : s[i] != shape[i]) {
			return 0;
		}
	}
	mon = (s[5] - '0') * 10 + (s[6] - '0');
	day = (s[8] - '0') * 10 + (s[9] - '0');
	hour = (s[11] - '0') * 10 + (s[12] - '0');
	min = (s[14] - '0') * 10 + (s[15] - '0');
	sec = (s[17] - '0') * 10 + (s[18] - '0');
	return mon >= 1 && mon <= 12 && day >= 1 && day <= 31 && hour <= 23 &&
	       min <= 59 && sec <= 60;
}

/* A run's status as the runner writes it (runner.c). */
static int status_ok(const char *s)
{
	return strcmp(s, "complete") == 0 || strcmp(s, "partial") == 0 ||
	       strcmp(s, "failed") == 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * The first object below node (at JSON path "at") that holds one key
 * twice: cJSON keeps both and reads the first, so a forged report could
 * show one value to hilrun and another to a reader of the file. Its path
 * and key go into where. @return 1 when there is one.
 */
static int dup_key(const cJSON *node, const char *at, char *where, size_t len)
{
	const cJSON *c;
	const char **names = NULL;
	size_t n = 0, i;
	int found = 0;

	if (cJSON_IsObject(node)) {
		cJSON_ArrayForEach(c, node)
		{
			n++;
		}
		names = n ? malloc(n * sizeof(*names)) : NULL;
		if (n && names == NULL) {
			snprintf(where, len, "%s (out of memory)", at);
			return 1;
		}
		n = 0;
		cJSON_ArrayForEach(c, node)
		{
			names[n++] = c->string != NULL ? c->string : "";
		}
		if (n > 1) { /* an empty object has no array to sort */
			qsort(names, n, sizeof(*names), cmp_str);
		}
		for (i = 1; i < n && !found; i++) {
			if (strcmp(names[i - 1], names[i]) == 0) {
				snprintf(where, len, "%s%s\"%.64s\"", at,
					 at[0] ? ": " : "", names[i]);
				scrub(where);
				found = 1;
			}
		}
		free(names);
	}
	i = 0;
	cJSON_ArrayForEach(c, node)
	{
		char sub[256];

		if (found) {
			break;
		}
		if (cJSON_IsObject(c) || cJSON_IsArray(c)) {
			if (cJSON_IsArray(node)) {
				snprintf(sub, sizeof(sub), "%s[%zu]", at, i);
			} else {
				snprintf(sub, sizeof(sub), "%s%s%.64s", at,
					 at[0] ? "." : "",
					 c->string != NULL ? c->string : "");
			}
			found = dup_key(c, sub, where, len);
		}
		i++;
	}
	return found;
}

/* The run's fields the history sorts and judges by: err says which is
 * wrong. */
static int run_fields_ok(const cJSON *root, const struct hil_result_head *hd,
			 const char *path, char *err, size_t errlen)
{
	char where[256];

	if (!status_ok(hd->run.status)) {
		snprintf(
			err, errlen,
			"%s: \"run.status\" is \"%.32s\", not complete, partial or failed",
			path, hd->run.status);
		scrub(err);
		return HIL_ERR_ARG;
	}
	if (!iso_ok(hd->run.started)) {
		snprintf(
			err, errlen,
			"%s: \"run.started\" is \"%.32s\", not a UTC time such as 2026-12-03T07:43:52Z",
			path, hd->run.started);
		scrub(err);
		return HIL_ERR_ARG;
	}
	if (hd->run.finished[0] != '\0' && !iso_ok(hd->run.finished)) {
		snprintf(
			err, errlen,
			"%s: \"run.finished\" is \"%.32s\", not a UTC time such as 2026-12-03T07:44:08Z",
			path, hd->run.finished);
		scrub(err);
		return HIL_ERR_ARG;
	}
	if (dup_key(root, "", where, sizeof(where))) {
		snprintf(
			err, errlen,
			"%s: %s: a key given twice in one object (which one counts depends on the reader)",
			path, where);
		return HIL_ERR_ARG;
	}
	return HIL_OK;
}

/* The tree of a report.json read from path, checked, and its report-level
 * fields decoded into hd; err says why not. */
static int load(const char *path, cJSON **out, struct hil_result_head *hd,
		char *err, size_t errlen)
{
	cJSON *root = NULL;
	int ret;

	*out = NULL;
	/* The one reader of report.json (report/load.c): bounded, a regular
	 * file, no NUL byte, checked against result/'s codec tables. */
	ret = hil_report_load(path, &root, err, errlen);
	if (ret != HIL_OK) {
		return ret;
	}
	hil_result_head_read(root, hd);
	if (strcmp(hd->tool.name, "hilrun") != 0) {
		snprintf(err, errlen, "%s: not a hilrun report (tool.name)",
			 path);
		ret = HIL_ERR_ARG;
	}
	if (ret == HIL_OK && !id_ok(hd->run.id)) {
		snprintf(
			err, errlen,
			"%s: \"run.id\" is not a run id (1 to 127 of A-Z a-z 0-9 . _ - +)",
			path);
		ret = HIL_ERR_ARG;
	}
	if (ret == HIL_OK) {
		ret = run_fields_ok(root, hd, path, err, errlen);
	}
	if (ret != HIL_OK) {
		cJSON_Delete(root);
		return ret;
	}
	*out = root;
	return HIL_OK;
}

/* Order of rows by the history's key (that of compare). */
static int cmp_row(const void *pa, const void *pb)
{
	const struct hil_history_row *a =
		*(const struct hil_history_row *const *)pa;
	const struct hil_history_row *b =
		*(const struct hil_history_row *const *)pb;
	int c = strcmp(a->algorithm, b->algorithm);

	if (c == 0) {
		c = strcmp(a->implementation, b->implementation);
	}
	if (c == 0) {
		c = strcmp(a->operation, b->operation);
	}
	if (c == 0) {
		c = (a->msg_len > b->msg_len) - (a->msg_len < b->msg_len);
	}
	if (c == 0) {
		c = (a->ad_len > b->ad_len) - (a->ad_len < b->ad_len);
	}
	return c;
}

/* No two rows with one key: the history keeps one row per key, and which
 * of two it kept would depend on their order. */
static int rows_unique(const struct hil_history_row *rows, size_t n,
		       const char *path, char *err, size_t errlen)
{
	const struct hil_history_row **p;
	size_t i;
	int ret = HIL_OK;

	if (n < 2) {
		return HIL_OK;
	}
	p = malloc(n * sizeof(*p));
	if (p == NULL) {
		snprintf(err, errlen, "%s: out of memory", path);
		return HIL_ERR_NOMEM;
	}
	for (i = 0; i < n; i++) {
		p[i] = &rows[i];
	}
	qsort(p, n, sizeof(*p), cmp_row);
	for (i = 1; i < n && ret == HIL_OK; i++) {
		if (cmp_row(&p[i - 1], &p[i]) == 0) {
			snprintf(
				err, errlen,
				"%s: rows[%zu] and rows[%zu] are the same row (%s/%s %s, %ld B, ad %ld B)",
				path, (size_t)(p[i - 1] - rows),
				(size_t)(p[i] - rows), p[i]->algorithm,
				p[i]->implementation, p[i]->operation,
				p[i]->msg_len, p[i]->ad_len);
			ret = HIL_ERR_ARG;
		}
	}
	free(p);
	return ret;
}

/* The rows of report into rows and texts (n of them), each decoded by
 * result/'s row view; err on a bad one. */
static int fill_rows(const cJSON *report, const char *path,
		     struct hil_history_row *rows, struct row_text *texts,
		     char *err, size_t errlen)
{
	struct hil_row_view *v = malloc(sizeof(*v));
	const cJSON *r;
	size_t i = 0;

	if (v == NULL) {
		snprintf(err, errlen, "%s: out of memory", path);
		return HIL_ERR_NOMEM;
	}
	cJSON_ArrayForEach(r, obj(report, "rows"))
	{
		struct hil_history_row *h = &rows[i];
		struct row_text *t = &texts[i];
		int est_ok;

		hil_row_view_read(r, v);
		copy_text(t->algorithm, sizeof(t->algorithm), v->algorithm);
		copy_text(t->implementation, sizeof(t->implementation),
			  v->implementation);
		copy_text(t->operation, sizeof(t->operation), v->operation);
		copy_text(t->status, sizeof(t->status), v->status);
		/* A whole number of bytes a target can hold. */
		if (!hil_row_view_has(v, &v->row.msg_len) ||
		    !hil_row_view_has(v, &v->row.ad_len) ||
		    v->row.msg_len > 1000000000u ||
		    v->row.ad_len > 1000000000u) {
			snprintf(
				err, errlen,
				"%s: rows[%zu]: msg_len and ad_len should be whole numbers of bytes",
				path, i);
			free(v);
			return HIL_ERR_ARG;
		}
		h->msg_len = (long)v->row.msg_len;
		h->ad_len = (long)v->row.ad_len;
		h->algorithm = t->algorithm;
		h->implementation = t->implementation;
		h->operation = t->operation;
		h->status = t->status;
		h->has_median = strcmp(t->status, "ok") == 0 &&
				hil_row_view_has(v, &v->median);
		h->median = h->has_median ? v->median : 0;
		h->has_model = h->has_median && v->has_model &&
			       hil_row_view_has(v, &v->model.median);
		h->model_median = h->has_model ? v->model.median : 0;
		/* The estimate's error bar (model_cycles.error_pct; null or
		 * absent: the profile has none, or the report is older). */
		h->has_model_error = h->has_model &&
				     hil_row_view_has(v, &v->model.error_pct) &&
				     v->model.error_pct >= 0 &&
				     v->model.error_pct < 1000;
		h->model_error_pct =
			h->has_model_error ? v->model.error_pct : 0;
		copy_text(t->error_kind, sizeof(t->error_kind),
			  strcmp(v->model.error_kind, "assembly") == 0
				  ? "assembly"
				  : "C");
		h->model_error_kind = t->error_kind;
		/* A datasheet estimate is never recorded as a measured
		 * energy: it has columns of its own. */
		h->has_energy = strcmp(v->energy_status, "ok") == 0 &&
				strcmp(v->energy_kind, "estimate") != 0 &&
				hil_row_view_has(v, &v->row.energy.uj_per_op);
		h->energy_uj = h->has_energy ? v->row.energy.uj_per_op : 0;
		/* The energy is the estimate only when it is one ("ok"). */
		est_ok = v->est_beside || strcmp(v->energy_status, "ok") == 0;
		h->has_est = est_ok && hil_row_view_has(v, &v->est.uj_per_op);
		h->est_uj = h->has_est ? v->est.uj_per_op : 0;
		h->est_low = hil_row_view_has(v, &v->est.uj_low) ? v->est.uj_low
								 : h->est_uj;
		h->est_high = hil_row_view_has(v, &v->est.uj_high)
				      ? v->est.uj_high
				      : h->est_uj;
		copy_text(t->est_table, sizeof(t->est_table),
			  est_ok ? v->est.table : "");
		h->est_table = t->est_table;
		i++;
	}
	free(v);
	return rows_unique(rows, i, path, err, errlen);
}

/* The run of report (read from path, its report-level fields in hd) into
 * h, with its strings in t. */
static void fill_run(const cJSON *report, const struct hil_result_head *hd,
		     const char *path, struct hil_history_run *h,
		     struct run_text *t)
{
	const cJSON *f;
	char dir[PATH_MAX];
	const char *slash;
	size_t n;

	copy_text(t->id, sizeof(t->id), hd->run.id);
	copy_text(t->started, sizeof(t->started), hd->run.started);
	copy_text(t->finished, sizeof(t->finished), hd->run.finished);
	copy_text(t->status, sizeof(t->status), hd->run.status);
	/* config_name since the first reports; "config" is the file. */
	copy_text(t->config, sizeof(t->config),
		  hd->run.config_name[0] ? hd->run.config_name
					 : hd->run.config);
	copy_text(t->board, sizeof(t->board),
		  hd->board.id[0] ? hd->board.id : hd->board.name);
	copy_text(t->host, sizeof(t->host), hd->tool.host);
	copy_text(t->unit, sizeof(t->unit), hd->board.counter_unit);
	copy_text(t->tool_commit, sizeof(t->tool_commit), hd->tool.commit);
	copy_text(t->model, sizeof(t->model),
		  hd->cycle_model.enabled ? hd->cycle_model.unit : "");
	t->cflags[0] = '\0';
	cJSON_ArrayForEach(f, obj(obj(report, "build"), "cflags"))
	{
		if (!cJSON_IsString(f)) {
			continue;
		}
		n = strlen(t->cflags);
		snprintf(t->cflags + n, sizeof(t->cflags) - n, "%s%s",
			 n ? " " : "", f->valuestring);
	}
	scrub(t->cflags);
	/* The run's folder where it is now (on the master: the upload). */
	slash = strrchr(path, '/');
	snprintf(dir, sizeof(dir), "%.*s",
		 slash != NULL ? (int)(slash - path) : 1,
		 slash != NULL ? path : ".");
	if (realpath(dir[0] ? dir : "/", t->dir) == NULL) {
		copy_text(t->dir, sizeof(t->dir), dir);
	}
	memset(h, 0, sizeof(*h));
	h->id = t->id;
	h->started = t->started;
	h->finished = t->finished;
	h->status = t->status;
	h->config = t->config;
	h->board = t->board;
	h->host = t->host;
	h->unit = t->unit;
	h->cflags = t->cflags;
	h->tool_commit = t->tool_commit;
	h->model = t->model;
	h->dirty = hd->tool.dirty;
	h->dir = t->dir;
}

/* One report.json into the database. HIL_ERR_ARG: refused (logged). */
static int import_file(const char *db_path, const char *path, FILE *out)
{
	static const char *const said[] = {
		[HIL_HISTORY_NEW] = "recorded",
		[HIL_HISTORY_REPLACED] =
			"recorded again (its end or status changed)",
		[HIL_HISTORY_SAME] = "already recorded, unchanged",
		[HIL_HISTORY_FILLED] =
			"already recorded; the estimates' error bars added",
	};
	struct hil_history_row *rows = NULL;
	struct row_text *texts = NULL;
	struct hil_history_run h;
	struct hil_result_head *hd = malloc(sizeof(*hd));
	struct run_text *t = NULL;
	char err[1024], id[3 * TEXT_MAX + 8];
	cJSON *report = NULL;
	int n, outcome = HIL_HISTORY_NEW, ret;

	if (hd == NULL) {
		hil_err("%s: out of memory", path);
		return HIL_ERR_NOMEM;
	}
	ret = load(path, &report, hd, err, sizeof(err));
	if (ret != HIL_OK) {
		hil_err("%s: refused", err);
		free(hd);
		return HIL_ERR_ARG;
	}
	n = cJSON_GetArraySize(obj(report, "rows"));
	t = calloc(1, sizeof(*t));
	rows = calloc((size_t)n + 1, sizeof(*rows));
	texts = calloc((size_t)n + 1, sizeof(*texts));
	if (t == NULL || rows == NULL || texts == NULL) {
		ret = HIL_ERR_NOMEM;
		hil_err("%s: out of memory", path);
		goto out;
	}
	ret = fill_rows(report, path, rows, texts, err, sizeof(err));
	if (ret != HIL_OK) {
		hil_err("%s: refused", err);
		goto out;
	}
	fill_run(report, hd, path, &h, t);
	h.rows = rows;
	h.n_rows = (size_t)n;
	ret = hil_history_put(db_path, &h, 1, id, sizeof(id), &outcome);
	if (ret == HIL_OK) {
		fprintf(out,
			"%s: run %s%s%s (host %s, board %s, %d rows): %s\n",
			path, h.id, strcmp(id, h.id) ? " as " : "",
			strcmp(id, h.id) ? id : "", h.host[0] ? h.host : "-",
			h.board, n, said[outcome]);
	}
out:
	cJSON_Delete(report);
	free(hd);
	free(t);
	free(rows);
	free(texts);
	return ret;
}

static int is_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* A results folder: the report of each run folder in it, by name; links
 * ("latest") and hidden entries are not followed. */
static int import_results_dir(const char *db_path, const char *dir, FILE *out,
			      int *found)
{
	struct dirent **names = NULL;
	int i, n, ret = HIL_OK;

	n = scandir(dir, &names, NULL, alphasort);
	if (n < 0) {
		hil_err("%s: cannot list it: refused", dir);
		return HIL_ERR_ARG;
	}
	for (i = 0; i < n; i++) {
		char sub[PATH_MAX], rep[PATH_MAX + 16];
		struct stat st;
		int r;

		if (names[i]->d_name[0] != '.' &&
		    (size_t)snprintf(sub, sizeof(sub), "%s/%s", dir,
				     names[i]->d_name) < sizeof(sub) &&
		    lstat(sub, &st) == 0 && S_ISDIR(st.st_mode)) {
			snprintf(rep, sizeof(rep), "%s/report.json", sub);
			if (is_file(rep)) {
				(*found)++;
				r = import_file(db_path, rep, out);
				ret = ret == HIL_OK ? r : ret;
			}
		}
		free(names[i]);
	}
	free(names);
	return ret;
}

int hil_history_import(const char *db_path, const char *const *paths, size_t n,
		       FILE *out)
{
	int ret;
	size_t i;

	/* A damaged database refuses every run, before any is read. */
	ret = hil_history_check(db_path);
	if (ret != HIL_OK) {
		return ret;
	}
	for (i = 0; i < n; i++) {
		char rep[PATH_MAX + 16];
		struct stat st;
		int r, found = 0;

		if (stat(paths[i], &st) == 0 && S_ISDIR(st.st_mode)) {
			snprintf(rep, sizeof(rep), "%s/report.json", paths[i]);
			if (is_file(rep)) {
				r = import_file(db_path, rep, out);
			} else {
				r = import_results_dir(db_path, paths[i], out,
						       &found);
				if (r == HIL_OK && found == 0) {
					hil_err("%s: no report.json in it or in its run folders: refused",
						paths[i]);
					r = HIL_ERR_ARG;
				}
			}
		} else {
			r = import_file(db_path, paths[i], out);
		}
		/* A database that fails outweighs a refused file. */
		if (r == HIL_ERR_IO || ret == HIL_OK) {
			ret = r == HIL_OK ? ret : r;
		}
	}
	return ret;
}
