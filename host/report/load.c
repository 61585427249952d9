/* load: read and check report.json, helpers the renderers share, render_all. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"report"
#include "render_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/err.h"
#include "util/log.h"
#include "report/report.h"
#include "util/util.h"

/* ---------------------------------------------------------------- access */

const char *hil_rj_str(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsString(v) && v->valuestring != NULL ? v->valuestring
							   : "";
}

int hil_rj_num(const cJSON *o, const char *key, double *v)
{
	const cJSON *n = cJSON_GetObjectItemCaseSensitive(o, key);

	if (!cJSON_IsNumber(n)) {
		return 0;
	}
	*v = n->valuedouble;
	return 1;
}

int hil_rj_bool(const cJSON *o, const char *key)
{
	const cJSON *b = cJSON_GetObjectItemCaseSensitive(o, key);

	if (!cJSON_IsBool(b)) {
		return -1;
	}
	return cJSON_IsTrue(b) ? 1 : 0;
}

const cJSON *hil_rj_rows(const cJSON *report)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(report, "rows");

	return cJSON_IsArray(a) ? a : NULL;
}

const char *hil_rj_unit(const cJSON *report)
{
	const char *u =
		hil_rj_str(cJSON_GetObjectItemCaseSensitive(report, "board"),
			   "counter_unit");

	return u[0] != '\0' ? u : "unknown";
}

int hil_rj_row_ok(const cJSON *row)
{
	return strcmp(hil_rj_str(row, "status"), "ok") == 0;
}

int hil_rj_row_per_byte(const cJSON *row, double *v)
{
	double med, len;

	if (hil_rj_num(row, "per_byte", v)) {
		return 1;
	}
	if (hil_rj_num(row, "median", &med) &&
	    hil_rj_num(row, "msg_len", &len) && len > 0) {
		*v = med / len;
		return 1;
	}
	return 0;
}

int hil_rj_row_energy(const cJSON *row, double *uj)
{
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(row, "energy");

	return cJSON_IsObject(e) && hil_rj_num(e, "uj_per_op", uj);
}

const char *hil_rj_row_energy_kind(const cJSON *row)
{
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(row, "energy");

	return cJSON_IsObject(e) ? hil_rj_str(e, "kind") : "";
}

const char *hil_rj_energy_reason(const cJSON *report)
{
	const cJSON *est =
		cJSON_GetObjectItemCaseSensitive(report, "energy_estimate");
	const cJSON *rows = hil_rj_rows(report);
	const cJSON *r;
	double uj;
	int any_object = 0;

	cJSON_ArrayForEach(r, rows)
	{
		if (hil_rj_row_energy(r, &uj)) {
			return NULL;
		}
		/* An estimate's "none" is no failure: it says why itself. */
		if (strcmp(hil_rj_str(cJSON_GetObjectItemCaseSensitive(
					      r, "energy"),
				      "status"),
			   "failed") == 0) {
			any_object = 1;
		}
	}
	if (cJSON_IsObject(est)) {
		const cJSON *why = cJSON_GetObjectItemCaseSensitive(est, "why");

		return cJSON_IsString(why) && why->valuestring[0] != '\0'
			       ? why->valuestring
			       : "no estimate for any row (see each row's energy.why)";
	}
	if (any_object) {
		return "energy measurement failed on every row (see each row's energy error)";
	}
	{
		const cJSON *sen =
			cJSON_GetObjectItemCaseSensitive(report, "sensor");
		const cJSON *why = cJSON_GetObjectItemCaseSensitive(sen, "why");

		if (cJSON_IsString(why) && why->valuestring[0] != '\0') {
			return why->valuestring;
		}
	}
	if (hil_rj_bool(cJSON_GetObjectItemCaseSensitive(report, "board"),
			"emulated") == 1) {
		return "not measured: emulated board, no energy sensor";
	}
	return "not measured: no energy sensor in this run";
}

const cJSON *hil_rj_impl_size(const cJSON *report, const char *alg,
			      const char *impl)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(report, "sizes");
	const cJSON *e;

	if (!cJSON_IsArray(a)) {
		return NULL;
	}
	cJSON_ArrayForEach(e, a)
	{
		if (strcmp(hil_rj_str(e, "algorithm"), alg) == 0 &&
		    strcmp(hil_rj_str(e, "implementation"), impl) == 0) {
			return e;
		}
	}
	return NULL;
}

int hil_rj_image(const cJSON *report, double *flash, double *ram,
		 double *stack_reserved)
{
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(report, "image");

	/* Reports written before sizes[] held the image sizes in "sizes". */
	if (!cJSON_IsObject(o)) {
		o = cJSON_GetObjectItemCaseSensitive(report, "sizes");
	}
	if (!cJSON_IsObject(o) || !hil_rj_num(o, "flash_bytes", flash)) {
		return 0;
	}
	if (!hil_rj_num(o, "ram_static_bytes", ram)) {
		*ram = 0;
	}
	if (!hil_rj_num(o, "stack_reserved_bytes", stack_reserved)) {
		*stack_reserved = 0;
	}
	return 1;
}

double hil_rj_longest(const cJSON *report)
{
	const cJSON *r;
	double longest = 0, len;

	cJSON_ArrayForEach(r, hil_rj_rows(report))
	{
		if (hil_rj_num(r, "msg_len", &len) && len > longest) {
			longest = len;
		}
	}
	return longest;
}

int hil_rj_stack(const cJSON *report, const char *alg, const char *impl,
		 const char *op, double *v)
{
	const cJSON *r;
	double s;
	int found = 0;

	cJSON_ArrayForEach(r, hil_rj_rows(report))
	{
		if (strcmp(hil_rj_str(r, "algorithm"), alg) != 0 ||
		    strcmp(hil_rj_str(r, "implementation"), impl) != 0 ||
		    (op != NULL &&
		     strcmp(hil_rj_str(r, "operation"), op) != 0) ||
		    !hil_rj_num(r, "stack_bytes", &s)) {
			continue;
		}
		if (!found || s > *v) {
			*v = s;
		}
		found = 1;
	}
	return found;
}

/* ---------------------------------------------------------------- format */

void hil_fmt_num(char *buf, size_t len, double v)
{
	if (v == 0) {
		v = 0; /* no "-0" */
	}
	if (!isfinite(v)) {
		snprintf(buf, len, "%s", "");
		return;
	}
	if (v == floor(v) && fabs(v) < 1e15) {
		snprintf(buf, len, "%.0f", v);
		return;
	}
	snprintf(buf, len, "%.15g", v);
	if (strtod(buf, NULL) != v) {
		snprintf(buf, len, "%.17g", v);
	}
}

void hil_fmt_clock(const cJSON *report, char *buf, size_t len)
{
	const cJSON *board = cJSON_GetObjectItemCaseSensitive(report, "board");
	double hz;

	if (hil_rj_num(board, "clock_hz", &hz) && hz > 0) {
		char n[32];

		hil_fmt_num(n, sizeof(n), hz / 1e6);
		snprintf(buf, len, "%s MHz", n);
	} else if (hil_rj_bool(board, "emulated") == 1) {
		snprintf(buf, len, "%s", "none (emulated)");
	} else {
		snprintf(buf, len, "%s", "not reported");
	}
}

void hil_xml_puts(FILE *out, const char *s)
{
	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '&':
			fputs("&amp;", out);
			break;
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		case '\'':
			fputs("&#39;", out);
			break;
		default:
			/* XML 1.0 allows no other C0 controls, not even escaped. */
			if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
				c = '?';
			}
			fputc(c, out);
		}
	}
}

int hil_render_status(FILE *out)
{
	return ferror(out) ? HIL_ERR_IO : HIL_OK;
}

/* ---------------------------------------------------------------- series */

int hil_series_has(const struct hil_series *s, const cJSON *row)
{
	double ad = 0;

	hil_rj_num(row, "ad_len", &ad);
	return ad == s->ad_len &&
	       strcmp(hil_rj_str(row, "algorithm"), s->algorithm) == 0 &&
	       strcmp(hil_rj_str(row, "implementation"), s->implementation) ==
		       0 &&
	       strcmp(hil_rj_str(row, "operation"), s->operation) == 0;
}

int hil_series_list(const cJSON *report, struct hil_series **out, size_t *n)
{
	const cJSON *rows = hil_rj_rows(report);
	const cJSON *r;
	struct hil_series *s = NULL;
	size_t cnt = 0, i;
	int nrows = cJSON_GetArraySize(rows);

	*out = NULL;
	*n = 0;
	if (nrows <= 0) {
		return HIL_OK;
	}
	s = calloc((size_t)nrows, sizeof(*s));
	if (s == NULL) {
		return HIL_ERR_NOMEM;
	}
	cJSON_ArrayForEach(r, rows)
	{
		for (i = 0; i < cnt; i++) {
			if (hil_series_has(&s[i], r)) {
				break;
			}
		}
		if (i < cnt) {
			continue;
		}
		s[cnt].algorithm = hil_rj_str(r, "algorithm");
		s[cnt].implementation = hil_rj_str(r, "implementation");
		s[cnt].operation = hil_rj_str(r, "operation");
		s[cnt].ad_len = 0;
		hil_rj_num(r, "ad_len", &s[cnt].ad_len);
		cnt++;
	}
	*out = s;
	*n = cnt;
	return HIL_OK;
}

void hil_series_name(const struct hil_series *s, char *buf, size_t len)
{
	if (s->ad_len != 0) {
		char ad[32];

		hil_fmt_num(ad, sizeof(ad), s->ad_len);
		snprintf(buf, len, "%s/%s %s, ad %s", s->algorithm,
			 s->implementation, s->operation, ad);
	} else {
		snprintf(buf, len, "%s/%s %s", s->algorithm, s->implementation,
			 s->operation);
	}
}

/* ---------------------------------------------------------------- check */

enum key_type {
	T_STR,
	T_NUM,
	T_BOOL,
	T_OBJ,
	T_ARR,
	T_NUM_NULL,  /* a number or null */
	T_BOOL_NULL, /* a bool or null */
	T_OBJ_ARR,   /* an object or an array */
};

struct key_spec {
	const char *key;
	enum key_type type;
	int required;
};

static const char *const type_names[] = {
	[T_STR] = "a string",
	[T_NUM] = "a number",
	[T_BOOL] = "true or false",
	[T_OBJ] = "an object",
	[T_ARR] = "an array",
	[T_NUM_NULL] = "a number or null",
	[T_BOOL_NULL] = "true, false or null",
	[T_OBJ_ARR] = "an object or an array",
};

static int type_ok(const cJSON *v, enum key_type t)
{
	switch (t) {
	case T_STR:
		return cJSON_IsString(v);
	case T_NUM:
		return cJSON_IsNumber(v);
	case T_BOOL:
		return cJSON_IsBool(v);
	case T_OBJ:
		return cJSON_IsObject(v);
	case T_ARR:
		return cJSON_IsArray(v);
	case T_NUM_NULL:
		return cJSON_IsNumber(v) || cJSON_IsNull(v);
	case T_BOOL_NULL:
		return cJSON_IsBool(v) || cJSON_IsNull(v);
	case T_OBJ_ARR:
		return cJSON_IsObject(v) || cJSON_IsArray(v);
	}
	return 0;
}

static const struct key_spec top_keys[] = {
	{"schema_version", T_NUM, 1}, {"run", T_OBJ, 1},   {"tool", T_OBJ, 1},
	{"build", T_OBJ, 1},	      {"board", T_OBJ, 1}, {"rows", T_ARR, 1},
	{"sizes", T_OBJ_ARR, 0},      {"image", T_OBJ, 0}, {"fits", T_ARR, 0},
	{"session", T_OBJ, 0},
};

static const struct key_spec run_keys[] = {
	{"id", T_STR, 1},
	{"status", T_STR, 1},
};

static const struct key_spec tool_keys[] = {
	{"name", T_STR, 1},
	{"version", T_STR, 1},
	{"commit", T_STR, 0},
	{"dirty", T_BOOL, 0},
};

static const struct key_spec build_keys[] = {
	{"cflags", T_ARR, 0},
	{"compiler", T_STR, 0},
};

static const struct key_spec board_keys[] = {
	{"name", T_STR, 1},
	{"emulated", T_BOOL, 1},
	{"counter_unit", T_STR, 1},
	{"clock_hz", T_NUM_NULL, 0},
};

static const struct key_spec row_keys[] = {
	{"algorithm", T_STR, 1},
	{"implementation", T_STR, 1},
	{"operation", T_STR, 1},
	{"msg_len", T_NUM, 1},
	{"ad_len", T_NUM, 1},
	{"unit", T_STR, 1},
	{"runs", T_NUM, 1},
	{"median", T_NUM_NULL, 1},
	{"status", T_STR, 1},
	{"mode", T_STR, 0},
	{"mean", T_NUM_NULL, 0},
	{"stddev", T_NUM_NULL, 0},
	{"min", T_NUM_NULL, 0},
	{"max", T_NUM_NULL, 0},
	{"mad", T_NUM_NULL, 0},
	{"per_byte", T_NUM_NULL, 0},
	{"normalized", T_NUM_NULL, 0},
	{"stack_bytes", T_NUM_NULL, 0},
	{"verified", T_BOOL, 0},
	{"verified_by", T_STR, 0},
	{"constant_time", T_BOOL_NULL, 0},
	{"digest", T_OBJ, 0},
	{"energy", T_OBJ, 0},
	{"error", T_STR, 0},
};

#define N_KEYS(a) (sizeof(a) / sizeof((a)[0]))

/* where: "" at the top, "run." or "rows[3]." inside. */
static int check_keys(const cJSON *o, const struct key_spec *spec, size_t n,
		      const char *name, const char *where, char *err,
		      size_t errlen)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const cJSON *v =
			cJSON_GetObjectItemCaseSensitive(o, spec[i].key);

		if (v == NULL) {
			if (!spec[i].required) {
				continue;
			}
			snprintf(err, errlen, "%s: missing key \"%s%s\"", name,
				 where, spec[i].key);
			return HIL_ERR_ARG;
		}
		if (!type_ok(v, spec[i].type)) {
			snprintf(err, errlen, "%s: \"%s%s\" should be %s", name,
				 where, spec[i].key, type_names[spec[i].type]);
			return HIL_ERR_ARG;
		}
	}
	return HIL_OK;
}

/* The first number in the tree that is not finite (1e999 parses to
 * infinity), or NULL: plots would compute with it. */
static const cJSON *non_finite(const cJSON *it)
{
	const cJSON *c;

	if (cJSON_IsNumber(it) && !isfinite(it->valuedouble)) {
		return it;
	}
	for (c = it != NULL ? it->child : NULL; c != NULL; c = c->next) {
		const cJSON *bad = non_finite(c);

		if (bad != NULL) {
			return bad;
		}
	}
	return NULL;
}

int hil_report_check(const cJSON *report, const char *name, char *err,
		     size_t errlen)
{
	static const struct {
		const char *key;
		const struct key_spec *spec;
		size_t n;
	} sub[] = {
		{"run", run_keys, N_KEYS(run_keys)},
		{"tool", tool_keys, N_KEYS(tool_keys)},
		{"build", build_keys, N_KEYS(build_keys)},
		{"board", board_keys, N_KEYS(board_keys)},
	};
	const cJSON *rows, *r;
	double version;
	size_t i;
	int idx = 0;
	int ret;

	if (!cJSON_IsObject(report)) {
		snprintf(
			err, errlen,
			"%s: not a report (the top level is not a JSON object)",
			name);
		return HIL_ERR_ARG;
	}
	{
		const cJSON *bad = non_finite(report);

		if (bad != NULL) {
			snprintf(
				err, errlen,
				"%s: key \"%s\" holds a number out of range (not finite)",
				name, bad->string != NULL ? bad->string : "?");
			return HIL_ERR_ARG;
		}
	}
	/* The version first: keys of another version mean nothing to us. */
	if (!hil_rj_num(report, "schema_version", &version)) {
		snprintf(
			err, errlen,
			"%s: missing key \"schema_version\" (not a hilrun report?)",
			name);
		return HIL_ERR_ARG;
	}
	/* Version 1 had "sizes" as one object for the whole image; version 2
	 * has sizes[] per implementation and "image": both are read. */
	if (version != 1 && version != HIL_REPORT_SCHEMA_VERSION) {
		char v[32];

		hil_fmt_num(v, sizeof(v), version);
		snprintf(
			err, errlen,
			"%s: schema_version %s is not known to this hilrun (it reads versions 1 to %d)",
			name, v, HIL_REPORT_SCHEMA_VERSION);
		return HIL_ERR_ARG;
	}
	ret = check_keys(report, top_keys, N_KEYS(top_keys), name, "", err,
			 errlen);
	if (ret != HIL_OK) {
		return ret;
	}
	for (i = 0; i < N_KEYS(sub); i++) {
		char where[32];

		snprintf(where, sizeof(where), "%s.", sub[i].key);
		ret = check_keys(
			cJSON_GetObjectItemCaseSensitive(report, sub[i].key),
			sub[i].spec, sub[i].n, name, where, err, errlen);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	rows = hil_rj_rows(report);
	cJSON_ArrayForEach(r, rows)
	{
		char where[32];

		snprintf(where, sizeof(where), "rows[%d].", idx);
		if (!cJSON_IsObject(r)) {
			snprintf(err, errlen,
				 "%s: \"rows[%d]\" should be an object", name,
				 idx);
			return HIL_ERR_ARG;
		}
		ret = check_keys(r, row_keys, N_KEYS(row_keys), name, where,
				 err, errlen);
		if (ret != HIL_OK) {
			return ret;
		}
		idx++;
	}
	return HIL_OK;
}

int hil_report_load(const char *path, cJSON **out, char *err, size_t errlen)
{
	const char *end = NULL;
	cJSON *root;
	char *text = NULL;
	size_t len = 0;
	int ret;

	*out = NULL;
	ret = hil_read_file(path, &text, &len);
	if (ret != HIL_OK) {
		snprintf(err, errlen, "%s: cannot read the report", path);
		return ret;
	}
	root = cJSON_ParseWithOpts(text, &end, 1);
	if (root == NULL) {
		size_t at =
			end != NULL && end >= text ? (size_t)(end - text) : 0;
		size_t line = 1, i;

		for (i = 0; i < at && i < len; i++) {
			line += text[i] == '\n';
		}
		if (at >= len) {
			snprintf(
				err, errlen,
				"%s: not valid JSON: it ends too early (truncated?) at byte %zu",
				path, at);
		} else {
			snprintf(err, errlen,
				 "%s: not valid JSON at byte %zu (line %zu)",
				 path, at, line);
		}
		free(text);
		return HIL_ERR_ARG;
	}
	free(text);
	ret = hil_report_check(root, path, err, errlen);
	if (ret != HIL_OK) {
		cJSON_Delete(root);
		return ret;
	}
	*out = root;
	return HIL_OK;
}

/* ---------------------------------------------------------------- writing */

static int render_sweep_dir(const char *dir);

typedef int (*render_fn)(const cJSON *report, FILE *out);

/* Render into memory, then write the file in one atomic step. */
static int render_file(const char *dir, const char *name, render_fn fn,
		       const cJSON *report)
{
	char path[4096];
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int ret;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	    sizeof(path)) {
		hil_err("%s/%s: path too long", dir, name);
		return HIL_ERR_ARG;
	}
	f = open_memstream(&buf, &len);
	if (f == NULL) {
		hil_err("out of memory while rendering %s", path);
		return HIL_ERR_NOMEM;
	}
	ret = fn(report, f);
	if (fclose(f) != 0 && ret == HIL_OK) {
		ret = HIL_ERR_NOMEM;
	}
	if (ret != HIL_OK) {
		hil_err("cannot render %s: %s", path, hil_strerror(ret));
		free(buf);
		return ret;
	}
	ret = hil_write_atomic(path, buf, len);
	free(buf);
	return ret;
}

int hil_report_render_all(const char *run_dir)
{
	static const struct {
		const char *name;
		render_fn fn;
	} files[] = {
		{"summary.md", hil_summary_md},
		{"summary.csv", hil_summary_csv},
		{"per_byte.svg", hil_svg_per_byte},
		{"sizes.svg", hil_svg_sizes},
		{"report.html", hil_html_report},
	};
	char path[4096];
	char err[1024];
	cJSON *report = NULL;
	size_t i;
	int ret;

	if ((size_t)snprintf(path, sizeof(path), "%s/report.json", run_dir) >=
	    sizeof(path)) {
		hil_err("%s: path too long", run_dir);
		return HIL_ERR_ARG;
	}
	if (hil_report_dir_is_sweep(run_dir)) {
		return render_sweep_dir(run_dir);
	}
	ret = hil_report_load(path, &report, err, sizeof(err));
	if (ret != HIL_OK) {
		/* An unreadable file was logged with its errno by the reader. */
		if (ret != HIL_ERR_IO) {
			hil_err("%s", err);
		}
		return ret;
	}
	for (i = 0; i < N_KEYS(files); i++) {
		ret = render_file(run_dir, files[i].name, files[i].fn, report);
		if (ret != HIL_OK) {
			break;
		}
	}
	cJSON_Delete(report);
	return ret;
}

/* A sweep's rendered file: fn(reports, n, sweep) into out_dir/name. */
static int render_sweep_file(const char *out_dir, const char *name,
			     cJSON *const *reports, size_t n,
			     const cJSON *sweep)
{
	char path[4096];
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int ret;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", out_dir, name) >=
	    sizeof(path)) {
		hil_err("%s/%s: path too long", out_dir, name);
		return HIL_ERR_ARG;
	}
	f = open_memstream(&buf, &len);
	if (f == NULL) {
		return HIL_ERR_NOMEM;
	}
	if (strcmp(name, "sweep.svg") == 0) {
		ret = hil_svg_sweep((const cJSON *const *)reports, n, f);
	} else {
		ret = hil_html_sweep((const cJSON *const *)reports, n, sweep,
				     f);
	}
	if (fclose(f) != 0 && ret == HIL_OK) {
		ret = HIL_ERR_NOMEM;
	}
	if (ret == HIL_OK) {
		ret = hil_write_atomic(path, buf, len);
	} else {
		hil_err("cannot render %s: %s", path, hil_strerror(ret));
	}
	free(buf);
	return ret;
}

/* out_dir/sweep.json, or NULL when there is none (or it is not JSON). */
static cJSON *sweep_json_load(const char *out_dir)
{
	char path[4096], *text = NULL;
	size_t len = 0;
	cJSON *j;

	snprintf(path, sizeof(path), "%s/sweep.json", out_dir);
	if (access(path, F_OK) != 0 ||
	    hil_read_file(path, &text, &len) != HIL_OK) {
		return NULL;
	}
	j = cJSON_ParseWithLength(text, len);
	free(text);
	if (j != NULL && !cJSON_IsObject(j)) {
		cJSON_Delete(j);
		j = NULL;
	}
	return j;
}

int hil_report_render_sweep(const char *const *run_dirs, size_t n,
			    const char *out_dir)
{
	cJSON **reports, *sweep;
	char path[4096];
	char err[1024];
	size_t i;
	int ret = HIL_OK;

	if (n == 0) {
		hil_err("a sweep plot needs at least one report");
		return HIL_ERR_ARG;
	}
	reports = calloc(n, sizeof(*reports));
	if (reports == NULL) {
		return HIL_ERR_NOMEM;
	}
	for (i = 0; i < n && ret == HIL_OK; i++) {
		snprintf(path, sizeof(path), "%s/report.json", run_dirs[i]);
		ret = hil_report_load(path, &reports[i], err, sizeof(err));
		if (ret != HIL_OK && ret != HIL_ERR_IO) {
			hil_err("%s", err);
		}
	}
	if (ret != HIL_OK) {
		goto out;
	}
	sweep = sweep_json_load(out_dir);
	ret = render_sweep_file(out_dir, "sweep.svg", reports, n, sweep);
	if (ret == HIL_OK) {
		ret = render_sweep_file(out_dir, "sweep.html", reports, n,
					sweep);
	}
	cJSON_Delete(sweep);
out:
	for (i = 0; i < n; i++) {
		cJSON_Delete(reports[i]);
	}
	free(reports);
	return ret;
}

int hil_report_dir_is_sweep(const char *dir)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/report.json", dir);
	if (access(path, F_OK) == 0) {
		return 0;
	}
	snprintf(path, sizeof(path), "%s/sweep.json", dir);
	return access(path, F_OK) == 0;
}

/*
 * A run of a sweep as sweep.json names it: the path as written (relative
 * to where hilrun ran), else the folder of that name next to the sweep's.
 */
static int sweep_run_dir(const char *sweep_dir, const char *run_dir, char *buf,
			 size_t len)
{
	const char *base = strrchr(run_dir, '/');
	char path[4096];
	size_t dl;

	snprintf(path, sizeof(path), "%s/report.json", run_dir);
	if (run_dir[0] != '\0' && access(path, F_OK) == 0) {
		snprintf(buf, len, "%s", run_dir);
		return 1;
	}
	base = base != NULL ? base + 1 : run_dir;
	dl = strlen(sweep_dir);
	while (dl > 1 && sweep_dir[dl - 1] == '/') {
		dl--;
	}
	while (dl > 0 && sweep_dir[dl - 1] != '/') {
		dl--;
	}
	if (base[0] == '\0' || strcmp(base, "..") == 0 ||
	    strcmp(base, ".") == 0) {
		return 0;
	}
	snprintf(buf, len, "%.*s%s", (int)dl, dl > 0 ? sweep_dir : "", base);
	snprintf(path, sizeof(path), "%s/report.json", buf);
	return access(path, F_OK) == 0;
}

/* hilrun report SWEEP_DIR: sweep.svg and sweep.html again. */
static int render_sweep_dir(const char *dir)
{
	cJSON *sweep = sweep_json_load(dir);
	const cJSON *e;
	char(*dirs)[4096] = NULL;
	const char *ptrs[64];
	size_t n = 0;
	int ret;

	if (sweep == NULL) {
		hil_err("%s/sweep.json: not a sweep's JSON object", dir);
		return HIL_ERR_ARG;
	}
	dirs = calloc(64, sizeof(*dirs));
	if (dirs == NULL) {
		cJSON_Delete(sweep);
		return HIL_ERR_NOMEM;
	}
	cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(sweep, "runs"))
	{
		const char *rd = hil_rj_str(e, "run_dir");

		if (n == 64) {
			break;
		}
		if (sweep_run_dir(dir, rd, dirs[n], sizeof(dirs[n]))) {
			ptrs[n] = dirs[n];
			n++;
		} else if (strcmp(hil_rj_str(e, "status"), "complete") == 0) {
			hil_warn(
				"%s: run %s of the sweep has no report.json here: left out",
				dir, rd);
		}
	}
	cJSON_Delete(sweep);
	if (n == 0) {
		hil_err("%s: no run of the sweep has a report.json (looked where sweep.json says and beside %s)",
			dir, dir);
		free(dirs);
		return HIL_ERR_ARG;
	}
	ret = hil_report_render_sweep(ptrs, n, dir);
	free(dirs);
	return ret;
}
