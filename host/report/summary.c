/* summary: summary.md (the table people know from papers) and summary.csv. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"report"
#include "render_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/err.h"

/* ---------------------------------------------------------------- model */

/* Add v to a sorted set of at most cap values. */
static void set_add(double *set, size_t *n, size_t cap, double v)
{
	size_t i, j;

	for (i = 0; i < *n && set[i] < v; i++) {
	}
	if ((i < *n && set[i] == v) || *n == cap) {
		return;
	}
	for (j = *n; j > i; j--) {
		set[j] = set[j - 1];
	}
	set[i] = v;
	(*n)++;
}

/* "16, 64, 256" */
static void set_join(const double *set, size_t n, char *buf, size_t len)
{
	size_t i, used = 0;

	buf[0] = '\0';
	for (i = 0; i < n && used < len; i++) {
		char v[32];
		int w;

		hil_fmt_num(v, sizeof(v), set[i]);
		w = snprintf(buf + used, len - used, "%s%s", i ? ", " : "", v);
		if (w < 0) {
			break;
		}
		used += (size_t)w;
	}
}

/* "1000", or "100-1000" when rows differ. */
static void range_text(const cJSON *rows, const char *key, char *buf,
		       size_t len)
{
	const cJSON *r;
	double v, lo = 0, hi = 0;
	int any = 0;
	char a[32], b[32];

	cJSON_ArrayForEach(r, rows)
	{
		if (!hil_rj_num(r, key, &v)) {
			continue;
		}
		if (!any || v < lo) {
			lo = v;
		}
		if (!any || v > hi) {
			hi = v;
		}
		any = 1;
	}
	if (!any) {
		snprintf(buf, len, "%s", "?");
		return;
	}
	hil_fmt_num(a, sizeof(a), lo);
	hil_fmt_num(b, sizeof(b), hi);
	if (lo == hi) {
		snprintf(buf, len, "%s", a);
	} else {
		snprintf(buf, len, "%s-%s", a, b);
	}
}

static int caption(const cJSON *report, struct hil_summary *s)
{
	const cJSON *rows = hil_rj_rows(report);
	const cJSON *board = cJSON_GetObjectItemCaseSensitive(report, "board");
	const cJSON *build = cJSON_GetObjectItemCaseSensitive(report, "build");
	const cJSON *cflags = cJSON_GetObjectItemCaseSensitive(build, "cflags");
	const cJSON *r;
	double lens[64], ads[64];
	size_t nl = 0, na = 0, used = 0;
	char runs[64], warm[64], lentxt[400], adtxt[200], flags[256], clock[64];
	size_t len = 0;
	double v;
	FILE *f;

	cJSON_ArrayForEach(r, rows)
	{
		if (hil_rj_num(r, "msg_len", &v)) {
			set_add(lens, &nl, 64, v);
		}
		if (hil_rj_num(r, "ad_len", &v)) {
			set_add(ads, &na, 64, v);
		}
	}
	set_join(lens, nl, lentxt, sizeof(lentxt));
	set_join(ads, na, adtxt, sizeof(adtxt));
	range_text(rows, "runs", runs, sizeof(runs));
	range_text(rows, "warmup", warm, sizeof(warm));
	flags[0] = '\0';
	cJSON_ArrayForEach(r, cflags)
	{
		if (cJSON_IsString(r) && used < sizeof(flags)) {
			int w = snprintf(flags + used, sizeof(flags) - used,
					 "%s%s", used ? " " : "",
					 r->valuestring);

			used += w > 0 ? (size_t)w : 0;
		}
	}
	if (flags[0] == '\0') {
		snprintf(flags, sizeof(flags), "%s", "(none)");
	}
	hil_fmt_clock(report, clock, sizeof(clock));
	f = open_memstream(&s->caption, &len);
	if (f == NULL) {
		return HIL_ERR_NOMEM;
	}
	fprintf(f,
		"Runs: %s per row (after %s warm-up), median; message lengths: %s B; AD: %s B; flags: %s; board: %s%s; clock: %s; counter unit: %s.",
		runs, warm, nl ? lentxt : "none", na ? adtxt : "none", flags,
		hil_rj_str(board, "name"),
		hil_rj_bool(board, "emulated") == 1 ? " (emulated)" : "", clock,
		s->unit);
	if (fclose(f) != 0) {
		free(s->caption);
		s->caption = NULL;
		return HIL_ERR_NOMEM;
	}
	return HIL_OK;
}

static const cJSON *series_row_at(const cJSON *report,
				  const struct hil_series *s, double len)
{
	const cJSON *r;
	double l;

	cJSON_ArrayForEach(r, hil_rj_rows(report))
	{
		if (hil_series_has(s, r) && hil_rj_num(r, "msg_len", &l) &&
		    l == len) {
			return r;
		}
	}
	return NULL;
}

/* Per byte at len: the figure, "failed", or "-" when not measured. */
static void per_byte_cell(const cJSON *row, char *buf, size_t len)
{
	double v;

	if (row == NULL) {
		snprintf(buf, len, "%s", "-");
	} else if (!hil_rj_row_ok(row)) {
		snprintf(buf, len, "%s", "failed");
	} else if (hil_rj_row_per_byte(row, &v)) {
		snprintf(buf, len, "%.2f", v);
	} else {
		snprintf(buf, len, "%s", "-");
	}
}

/* Model cycles per byte of a row: the figure, "failed" (when the model
 * ran), or "-". */
static void model_cell(const cJSON *row, int enabled, char *buf, size_t len)
{
	double v;

	if (row == NULL) {
		snprintf(buf, len, "%s", "-");
	} else if (!hil_rj_row_ok(row)) {
		snprintf(buf, len, "%s", enabled ? "failed" : "-");
	} else if (hil_rj_num(cJSON_GetObjectItemCaseSensitive(row,
							       "model_cycles"),
			      "per_byte", &v)) {
		snprintf(buf, len, "%.2f", v);
	} else {
		snprintf(buf, len, "%s", "-");
	}
}

static void line_fill(const cJSON *report, struct hil_summary *sum,
		      struct hil_sum_line *l)
{
	const cJSON *z =
		hil_rj_impl_size(report, l->s.algorithm, l->s.implementation);
	const cJSON *at64 = series_row_at(report, &l->s, sum->head_len);
	const cJSON *r;
	double v, len;
	int with_msg = 0;

	per_byte_cell(at64, l->at64, sizeof(l->at64));
	per_byte_cell(sum->longest > 0
			      ? series_row_at(report, &l->s, sum->longest)
			      : NULL,
		      l->atl, sizeof(l->atl));
	snprintf(l->flash, sizeof(l->flash), "%s", "-");
	snprintf(l->ram, sizeof(l->ram), "%s", "-");
	if (z != NULL && hil_rj_num(z, "flash_bytes", &v)) {
		snprintf(l->flash, sizeof(l->flash), "%.0f", v);
	}
	if (z != NULL && hil_rj_num(z, "ram_bytes", &v)) {
		snprintf(l->ram, sizeof(l->ram), "%.0f", v);
	}
	snprintf(l->stack, sizeof(l->stack), "%s", "-");
	if (hil_rj_stack(report, l->s.algorithm, l->s.implementation,
			 l->s.operation, &v)) {
		snprintf(l->stack, sizeof(l->stack), "%.0f", v);
	}
	model_cell(sum->longest > 0 ? series_row_at(report, &l->s, sum->longest)
				    : NULL,
		   sum->model_unit != NULL, l->model, sizeof(l->model));
	model_cell(at64, sum->model_unit != NULL, l->model64,
		   sizeof(l->model64));
	/* The headline: the model's estimate when it ran, else the counter. */
	if (sum->model_unit != NULL) {
		snprintf(l->head64, sizeof(l->head64), "%s", l->model64);
		snprintf(l->headl, sizeof(l->headl), "%s", l->model);
	} else {
		snprintf(l->head64, sizeof(l->head64), "%s", l->at64);
		snprintf(l->headl, sizeof(l->headl), "%s", l->atl);
	}
	/* RAM an operation needs: its static data and its peak stack. */
	snprintf(l->ram_total, sizeof(l->ram_total), "%s", "-");
	if (z != NULL && hil_rj_num(z, "ram_bytes", &v) &&
	    hil_rj_stack(report, l->s.algorithm, l->s.implementation,
			 l->s.operation, &len)) {
		snprintf(l->ram_total, sizeof(l->ram_total), "%.0f", v + len);
	}
	snprintf(l->norm, sizeof(l->norm), "%s", "-");
	r = sum->longest > 0 ? series_row_at(report, &l->s, sum->longest)
			     : NULL;
	if (r != NULL && hil_rj_row_ok(r) && hil_rj_num(r, "normalized", &v)) {
		snprintf(l->norm, sizeof(l->norm), "%.2f", v);
	}
	snprintf(l->energy, sizeof(l->energy), "%s", "-");
	if (at64 != NULL && hil_rj_row_ok(at64) &&
	    hil_rj_row_energy(at64, &v)) {
		snprintf(l->energy, sizeof(l->energy), "%.2f", v);
	}
	cJSON_ArrayForEach(r, hil_rj_rows(report))
	{
		if (!hil_series_has(&l->s, r)) {
			continue;
		}
		l->failed |= !hil_rj_row_ok(r);
		l->not_ct |= hil_rj_bool(r, "constant_time") == 0;
		if (hil_rj_num(r, "msg_len", &len) && len > 0) {
			with_msg = 1;
		} else if (!l->per_call && hil_rj_row_ok(r) &&
			   hil_rj_num(r, "median", &v)) {
			l->per_call = 1;
			l->call = v;
		}
	}
	if (with_msg) {
		l->per_call = 0;
	}
}

/* 64 when a row has a 64-byte message, else the message length nearest to
 * it (the shorter on a tie); 64 when no row has a message. */
static double headline_len(const cJSON *report)
{
	const cJSON *r;
	double best = 0, len;

	cJSON_ArrayForEach(r, hil_rj_rows(report))
	{
		if (!hil_rj_num(r, "msg_len", &len) || len <= 0) {
			continue;
		}
		if (best == 0 || fabs(len - 64) < fabs(best - 64) ||
		    (fabs(len - 64) == fabs(best - 64) && len < best)) {
			best = len;
		}
	}
	return best > 0 ? best : 64;
}

int hil_summary_build(const cJSON *report, struct hil_summary *s)
{
	struct hil_series *series = NULL;
	size_t n = 0, i;
	int ret;

	memset(s, 0, sizeof(*s));
	s->unit = hil_rj_unit(report);
	s->longest = hil_rj_longest(report);
	s->head_len = headline_len(report);
	s->energy_reason = hil_rj_energy_reason(report);
	{
		const cJSON *sen =
			cJSON_GetObjectItemCaseSensitive(report, "sensor");
		const cJSON *nt = cJSON_GetObjectItemCaseSensitive(
			report, "normalized_to");
		double rows;

		const cJSON *cm =
			cJSON_GetObjectItemCaseSensitive(report, "cycle_model");

		s->energy_model = strcmp(hil_rj_str(sen, "kind"), "model") == 0;
		s->energy_est = cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(
			report, "energy_estimate"));
		if (hil_rj_bool(cm, "enabled") == 1) {
			s->model_unit = hil_rj_str(cm, "unit");
		}
		s->head_unit = s->model_unit != NULL
				       ? "cycles (estimated, model)"
				       : s->unit;
		if (hil_rj_num(nt, "rows", &rows) && rows > 0) {
			snprintf(s->norm_ref_buf, sizeof(s->norm_ref_buf),
				 "%s/%s", hil_rj_str(nt, "algorithm"),
				 hil_rj_str(nt, "implementation"));
			s->norm_ref = s->norm_ref_buf;
		}
	}
	ret = caption(report, s);
	if (ret != HIL_OK) {
		return ret;
	}
	ret = hil_series_list(report, &series, &n);
	if (ret != HIL_OK) {
		hil_summary_free(s);
		return ret;
	}
	if (n > 0) {
		s->l = calloc(n, sizeof(*s->l));
		if (s->l == NULL) {
			free(series);
			hil_summary_free(s);
			return HIL_ERR_NOMEM;
		}
	}
	for (i = 0; i < n; i++) {
		s->l[i].s = series[i];
		line_fill(report, s, &s->l[i]);
	}
	s->n = n;
	free(series);
	return HIL_OK;
}

void hil_summary_free(struct hil_summary *s)
{
	free(s->l);
	free(s->caption);
	s->l = NULL;
	s->caption = NULL;
	s->n = 0;
}

/* ---------------------------------------------------------------- markdown */

/* A table cell: '|' would end it, a newline would end the row, and HTML
 * in the data (a name, an error message) is shown as text, never run by a
 * Markdown viewer. */
static void md_cell(FILE *out, const char *s)
{
	for (; *s != '\0'; s++) {
		if (*s == '<') {
			fputs("&lt;", out);
		} else if (*s == '>') {
			fputs("&gt;", out);
		} else if (*s == '&') {
			fputs("&amp;", out);
		} else if (*s == '|' || *s == '\\') {
			fputc('\\', out);
			fputc(*s, out);
		} else if (*s == '\n' || *s == '\r') {
			fputc(' ', out);
		} else {
			fputc(*s, out);
		}
	}
}

/* The timing-leak test's verdict: flagged rows by name, or all clear. */
static void md_leak_rows(const cJSON *report, FILE *out)
{
	const cJSON *r;
	int tested = 0, flagged = 0;

	cJSON_ArrayForEach(r, hil_rj_rows(report))
	{
		const cJSON *k = cJSON_GetObjectItemCaseSensitive(r, "leak");
		double t = 0, msg = 0;

		if (strcmp(hil_rj_str(k, "status"), "ok") != 0) {
			continue;
		}
		tested++;
		if (hil_rj_bool(k, "flagged") != 1) {
			continue;
		}
		if (!flagged) {
			fputs("- Timing-leak smoke test (dudect, |t| > 4.5) flags:\n",
			      out);
		}
		flagged++;
		hil_rj_num(k, "t", &t);
		hil_rj_num(r, "msg_len", &msg);
		fputs("  - ", out);
		md_cell(out, hil_rj_str(r, "algorithm"));
		fputc('/', out);
		md_cell(out, hil_rj_str(r, "implementation"));
		fputc(' ', out);
		md_cell(out, hil_rj_str(r, "operation"));
		fprintf(out, ", %.0f B: t = %.1f\n", msg, t);
	}
	if (tested > 0 && flagged == 0) {
		fprintf(out,
			"- Timing-leak smoke test (dudect, fixed against random inputs): no row flagged (%d tested, |t| <= 4.5)%s.\n",
			tested,
			strcmp(hil_rj_unit(report),
			       "instructions (emulated)") == 0
				? "; on the emulated board only differences in the instructions executed are visible"
				: "");
	}
}

static void md_failed_rows(const cJSON *report, FILE *out)
{
	const cJSON *r;
	int any = 0;

	cJSON_ArrayForEach(r, hil_rj_rows(report))
	{
		double msg = 0, ad = 0;

		if (hil_rj_row_ok(r)) {
			continue;
		}
		if (!any) {
			fputs("- ✗ failed rows (their figures are not shown):\n",
			      out);
		}
		any = 1;
		hil_rj_num(r, "msg_len", &msg);
		hil_rj_num(r, "ad_len", &ad);
		fputs("  - ", out);
		md_cell(out, hil_rj_str(r, "algorithm"));
		fputc('/', out);
		md_cell(out, hil_rj_str(r, "implementation"));
		fputc(' ', out);
		md_cell(out, hil_rj_str(r, "operation"));
		fprintf(out, ", %.0f B, AD %.0f B: ", msg, ad);
		md_cell(out, hil_rj_str(r, "error")[0] != '\0'
				     ? hil_rj_str(r, "error")
				     : "(no reason given)");
		fputc('\n', out);
	}
}

int hil_summary_md(const cJSON *report, FILE *out)
{
	const cJSON *run = cJSON_GetObjectItemCaseSensitive(report, "run");
	struct hil_summary s;
	double flash, ram, stack;
	size_t i;
	int ret, any_nct = 0;

	ret = hil_summary_build(report, &s);
	if (ret != HIL_OK) {
		return ret;
	}
	fprintf(out, "# hilrun %s\n\n", hil_rj_str(run, "id"));
	fputs("**Table.** ", out);
	md_cell(out, s.caption);
	fputs("\n\n", out);
	fprintf(out,
		"| Algorithm | Impl | Op | %s/byte @%.0f B | @%.0f B (longest) | Est. cycles/byte @%.0f B (model) | Est. cycles/byte @%.0f B (model) | × ref @%.0f B | Flash (B) | RAM (B, static + stack) | Stack (B) | Energy (µJ%s) |\n",
		s.unit, s.head_len, s.longest, s.head_len, s.longest, s.longest,
		s.energy_model ? ", model"
		: s.energy_est ? ", est."
			       : "");
	fputs("|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n", out);
	for (i = 0; i < s.n; i++) {
		const struct hil_sum_line *l = &s.l[i];
		char ad[48] = "";

		if (l->s.ad_len != 0) {
			snprintf(ad, sizeof(ad), ", AD %.0f B", l->s.ad_len);
		}
		any_nct |= l->not_ct;
		fputs("| ", out);
		md_cell(out, l->s.algorithm);
		fputs(" | ", out);
		md_cell(out, l->s.implementation);
		fputs(l->not_ct ? " †" : "", out);
		fputs(" | ", out);
		md_cell(out, l->s.operation);
		fprintf(out,
			"%s%s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			ad, l->failed ? " ✗" : "", l->at64, l->atl, l->model64,
			l->model, l->norm, l->flash, l->ram_total, l->stack,
			l->energy);
	}
	if (s.n == 0) {
		fputs("| (no rows) | | | | | | | | | | | |\n", out);
	}
	fputs("\n", out);
	if (any_nct) {
		fputs("- † not constant-time (the implementation's own statement): its timing may depend on secret data.\n",
		      out);
	}
	md_failed_rows(report, out);
	md_leak_rows(report, out);
	for (i = 0; i < s.n; i++) {
		char call[32];

		if (!s.l[i].per_call) {
			continue;
		}
		hil_fmt_num(call, sizeof(call), s.l[i].call);
		fputs("- per call (no message): ", out);
		md_cell(out, s.l[i].s.algorithm);
		fputc('/', out);
		md_cell(out, s.l[i].s.implementation);
		fprintf(out, " %s: %s %s.\n", s.l[i].s.operation, call, s.unit);
	}
	if (s.model_unit != NULL) {
		fprintf(out,
			"- Est. cycles: %s, from the emulated instructions (docs/cycle-model.md); an estimate, not a measurement.\n",
			s.model_unit);
	} else {
		fputs("- Est. cycles: \"-\" = not estimated in this run (a real board, or the model was off).\n",
		      out);
	}
	if (s.norm_ref != NULL) {
		fprintf(out,
			"- × ref: the median divided by that of %s encrypt at the same length, in this run.\n",
			s.norm_ref);
	} else {
		fputs("- × ref: \"-\" = no reference algorithm measured in this run (bench.normalize_to).\n",
		      out);
	}
	if (s.energy_reason != NULL) {
		fprintf(out, "- Energy: \"-\" = %s%s.\n",
			s.energy_est ? "no estimate: " : "", s.energy_reason);
	} else if (s.energy_est) {
		fprintf(out,
			"- Energy: µJ per operation at %.0f B, estimated from the datasheet's run current, not measured: see docs/method.md (report.json: energy_estimate).\n",
			s.head_len);
	} else if (s.energy_model) {
		fprintf(out,
			"- Energy: µJ per operation at %.0f B from a MODEL (simulated INA219, emulated time): not a measurement.\n",
			s.head_len);
	} else {
		fprintf(out,
			"- Energy: µJ per operation at %.0f B (mean active power × time of one operation).\n",
			s.head_len);
	}
	fputs("- Flash: the implementation's own code and constant data (linker map); RAM: its static data (linker map) plus the peak stack of one call of the operation (painting, largest over the series); Stack: that peak alone.",
	      out);
	if (hil_rj_image(report, &flash, &ram, &stack)) {
		fprintf(out,
			" Whole image: %.0f B flash, %.0f B RAM (+%.0f B stack reserve).",
			flash, ram, stack);
	}
	fputs("\n", out);
	hil_summary_free(&s);
	return hil_render_status(out);
}

/* ---------------------------------------------------------------- csv */

/* A number as the CSV writes it ("-3", "1e-05"): left as it is. */
static int is_number(const char *s)
{
	char *end = NULL;

	if (*s == '\0') {
		return 0;
	}
	(void)strtod(s, &end);
	return end != NULL && *end == '\0';
}

/*
 * RFC 4180: a field with a comma, quote or line break is quoted, quotes
 * doubled. A text field that a spreadsheet would take for a formula
 * (starting with = + - @, a tab or a carriage return) gets a leading
 * apostrophe, as OWASP's CSV-injection advice has it.
 */
static void csv_field(FILE *out, const char *s, int first)
{
	int formula = strchr("=+-@\t\r", s[0]) != NULL && s[0] != '\0' &&
		      !is_number(s);

	if (!first) {
		fputc(',', out);
	}
	if (!formula && strpbrk(s, ",\"\r\n") == NULL) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	if (formula) {
		fputc('\'', out);
	}
	for (; *s != '\0'; s++) {
		if (*s == '"') {
			fputc('"', out);
		}
		fputc(*s, out);
	}
	fputc('"', out);
}

static void csv_num(FILE *out, const cJSON *o, const char *key)
{
	char buf[40] = "";
	double v;

	if (hil_rj_num(o, key, &v)) {
		hil_fmt_num(buf, sizeof(buf), v);
	}
	csv_field(out, buf, 0);
}

static void csv_bool(FILE *out, const cJSON *o, const char *key)
{
	int b = hil_rj_bool(o, key);

	csv_field(out, b < 0 ? "" : b ? "true" : "false", 0);
}

/* ci95 is [low, high] in the report; ci95_low/ci95_high are read too. */
static void csv_ci(FILE *out, const cJSON *row, int idx, const char *alt)
{
	const cJSON *ci = cJSON_GetObjectItemCaseSensitive(row, "ci95");
	const cJSON *v = cJSON_IsArray(ci) ? cJSON_GetArrayItem(ci, idx) : NULL;
	char buf[40] = "";

	if (cJSON_IsNumber(v)) {
		hil_fmt_num(buf, sizeof(buf), v->valuedouble);
		csv_field(out, buf, 0);
	} else {
		csv_num(out, row, alt);
	}
}

int hil_summary_csv(const cJSON *report, FILE *out)
{
	static const char *const header[] = {
		"algorithm",
		"implementation",
		"operation",
		"mode",
		"msg_len",
		"ad_len",
		"unit",
		"runs",
		"median",
		"mean",
		"stddev",
		"min",
		"max",
		"mad",
		"ci95_low",
		"ci95_high",
		"outliers",
		"per_byte",
		"normalized",
		"heap_bytes",
		"leak_t",
		"leak_flagged",
		"model_cycles_median",
		"model_cycles_unit",
		"overhead_subtracted",
		"stack_bytes",
		"verified",
		"status",
		"constant_time",
		"warmup",
		"seed",
		"digest_expected",
		"digest_measured",
		"energy_uj_per_op",
		"energy_kind",
		"error",
	};
	static const char *const stats[] = {"median", "mean", "stddev",
					    "min",    "max",  "mad"};
	const cJSON *r;
	size_t i;

	for (i = 0; i < sizeof(header) / sizeof(header[0]); i++) {
		csv_field(out, header[i], i == 0);
	}
	fputs("\r\n", out);
	cJSON_ArrayForEach(r, hil_rj_rows(report))
	{
		const cJSON *d = cJSON_GetObjectItemCaseSensitive(r, "digest");
		char buf[40] = "";
		double v;

		csv_field(out, hil_rj_str(r, "algorithm"), 1);
		csv_field(out, hil_rj_str(r, "implementation"), 0);
		csv_field(out, hil_rj_str(r, "operation"), 0);
		csv_field(out, hil_rj_str(r, "mode"), 0);
		csv_num(out, r, "msg_len");
		csv_num(out, r, "ad_len");
		csv_field(out, hil_rj_str(r, "unit"), 0);
		csv_num(out, r, "runs");
		for (i = 0; i < sizeof(stats) / sizeof(stats[0]); i++) {
			csv_num(out, r, stats[i]);
		}
		csv_ci(out, r, 0, "ci95_low");
		csv_ci(out, r, 1, "ci95_high");
		csv_num(out, r, "outliers");
		if (hil_rj_row_per_byte(r, &v)) {
			hil_fmt_num(buf, sizeof(buf), v);
		}
		csv_field(out, buf, 0);
		csv_num(out, r, "normalized");
		csv_num(out, r, "heap_bytes");
		csv_num(out, cJSON_GetObjectItemCaseSensitive(r, "leak"), "t");
		csv_bool(out, cJSON_GetObjectItemCaseSensitive(r, "leak"),
			 "flagged");
		csv_num(out,
			cJSON_GetObjectItemCaseSensitive(r, "model_cycles"),
			"median");
		csv_field(out,
			  hil_rj_str(cJSON_GetObjectItemCaseSensitive(
					     r, "model_cycles"),
				     "unit"),
			  0);
		csv_num(out, r, "overhead_subtracted");
		csv_num(out, r, "stack_bytes");
		csv_bool(out, r, "verified");
		csv_field(out, hil_rj_str(r, "status"), 0);
		csv_bool(out, r, "constant_time");
		csv_num(out, r, "warmup");
		csv_num(out, r, "seed");
		csv_field(out, hil_rj_str(d, "expected"), 0);
		csv_field(out, hil_rj_str(d, "measured"), 0);
		buf[0] = '\0';
		if (hil_rj_row_energy(r, &v)) {
			hil_fmt_num(buf, sizeof(buf), v);
		}
		csv_field(out, buf, 0);
		/* measured, model or estimate: never one read as another. */
		csv_field(out, buf[0] ? hil_rj_row_energy_kind(r) : "", 0);
		csv_field(out, hil_rj_str(r, "error"), 0);
		fputs("\r\n", out);
	}
	return hil_render_status(out);
}
