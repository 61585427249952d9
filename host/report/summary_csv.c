/* summary_csv: summary.csv, one line per row with every statistic, RFC 4180 quoting. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"report"
#include "render_int.h"

#include <stdlib.h>
#include <string.h>

#include "util/err.h"

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
	int quote = formula || strpbrk(s, ",\"\r\n") != NULL;

	if (!first) {
		fputc(',', out);
	}
	if (quote) {
		fputc('"', out);
	}
	if (formula) {
		fputc('\'', out);
	}
	/* A control byte (ESC) is written visibly: a terminal showing the
	 * file (cat, less -r) never runs an escape sequence from the data. */
	while (*s != '\0') {
		size_t n = hil_put_ctl(out, s, 1);

		if (n > 0) {
			s += n;
			continue;
		}
		if (*s == '"') {
			fputc('"', out);
		}
		fputc(*s, out);
		s++;
	}
	if (quote) {
		fputc('"', out);
	}
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

/* A figure of decoded row r (the field at f, its value v), or "". */
static void csv_fig(FILE *out, const struct hil_row_view *r, const void *f,
		    double v)
{
	char buf[40] = "";

	if (hil_row_view_has(r, f)) {
		hil_fmt_num(buf, sizeof(buf), v);
	}
	csv_field(out, buf, 0);
}

/* A stored count of r (a uint32_t field), or "". */
static void csv_count(FILE *out, const struct hil_row_view *r,
		      const uint32_t *f)
{
	csv_fig(out, r, f, *f);
}

/* A flag of r: true, false, or "" when the report does not say. */
static void csv_flag(FILE *out, const struct hil_row_view *r, const int *f)
{
	csv_field(out, !hil_row_view_has(r, f) ? "" : *f ? "true" : "false", 0);
}

/* A digest as the writer puts it (8 hex digits), or "". */
static void csv_digest(FILE *out, const struct hil_row_view *r,
		       const uint32_t *f)
{
	char hex[16] = "";

	if (hil_row_view_has(r, f)) {
		snprintf(hex, sizeof(hex), "%08x", (unsigned)*f);
	}
	csv_field(out, hex, 0);
}

/* ci95 is [low, high] in the report (the row view's); a report of an
 * older hilrun had ci95_low and ci95_high, read from row as they are. */
static void csv_ci(FILE *out, const struct hil_row_view *v, const cJSON *row,
		   int idx, const char *alt)
{
	if (hil_row_view_has(v, &v->ci95_low)) {
		csv_fig(out, v, &v->ci95_low, idx ? v->ci95_high : v->ci95_low);
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
		"leak_model_t",
		"leak_model_flagged",
		"model_cycles_median",
		"model_cycles_unit",
		"model_cycles_error_pct",
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
		"energy_est_uj_per_op",
		"energy_est_low_uj",
		"energy_est_high_uj",
		"energy_est_table",
		"energy_measured_over_est",
		"error",
	};
	struct hil_row_view *rows = NULL;
	const cJSON *r;
	size_t i, j = 0, n = 0;

	/* A post-quantum run's own columns, after the others (a report
	 * without pq rows has none of them). */
	static const char *const pq_keys[] = {
		"kind",	    "text",	"data",	   "bss",
		"sha2_pct", "sha3_pct", "aes_pct", "verification",
	};
	const int pq = hil_rj_has_pq(report);

	for (i = 0; i < sizeof(header) / sizeof(header[0]); i++) {
		csv_field(out, header[i], i == 0);
	}
	for (i = 0; pq && i < sizeof(pq_keys) / sizeof(pq_keys[0]); i++) {
		char h[32];

		snprintf(h, sizeof(h), "pq_%s", pq_keys[i]);
		csv_field(out, h, 0);
	}
	fputs("\r\n", out);
	/* The rows through result/'s codec, decoded once. */
	if (hil_row_views_read(hil_rj_rows(report), &rows, &n) != HIL_OK) {
		return HIL_ERR_NOMEM;
	}
	cJSON_ArrayForEach(r, hil_rj_rows(report))
	{
		const struct hil_row_view *w = &rows[j++];
		const struct hil_row_leak *k = &w->row.leak;
		char buf[40] = "";
		double v;

		csv_field(out, w->algorithm, 1);
		csv_field(out, w->implementation, 0);
		csv_field(out, w->operation, 0);
		csv_field(out, w->mode, 0);
		csv_count(out, w, &w->row.msg_len);
		csv_count(out, w, &w->row.ad_len);
		csv_field(out, w->unit, 0);
		csv_count(out, w, &w->row.runs);
		csv_fig(out, w, &w->median, w->median);
		csv_fig(out, w, &w->mean, w->mean);
		csv_fig(out, w, &w->stddev, w->stddev);
		csv_fig(out, w, &w->min, w->min);
		csv_fig(out, w, &w->max, w->max);
		csv_fig(out, w, &w->mad, w->mad);
		csv_ci(out, w, r, 0, "ci95_low");
		csv_ci(out, w, r, 1, "ci95_high");
		csv_fig(out, w, &w->outliers, w->outliers);
		if (hil_rv_per_byte(w, &v)) {
			hil_fmt_num(buf, sizeof(buf), v);
		}
		csv_field(out, buf, 0);
		csv_fig(out, w, &w->normalized, w->normalized);
		csv_count(out, w, &w->row.heap_bytes);
		csv_fig(out, w, &k->t, k->t);
		csv_flag(out, w, &k->flagged);
		/* The same runs' t on the cycle model's estimated cycles. */
		csv_fig(out, w, &k->model.t, k->model.t);
		csv_flag(out, w, &k->model.flagged);
		csv_fig(out, w, &w->model.median, w->model.median);
		csv_field(out, w->model.unit, 0);
		/* The estimate's error bar (calibrated profiles only). */
		csv_fig(out, w, &w->model.error_pct, w->model.error_pct);
		csv_count(out, w, &w->row.overhead);
		csv_count(out, w, &w->row.stack_bytes);
		csv_flag(out, w, &w->row.verified);
		csv_field(out, w->status, 0);
		csv_flag(out, w, &w->constant_time);
		csv_count(out, w, &w->row.warmup);
		csv_count(out, w, &w->row.seed);
		csv_digest(out, w, &w->row.digest_expected);
		csv_digest(out, w, &w->row.digest_got);
		buf[0] = '\0';
		if (hil_rv_energy(w, &v)) {
			hil_fmt_num(buf, sizeof(buf), v);
		}
		csv_field(out, buf, 0);
		/* measured, model or estimate: never one read as another. */
		csv_field(out, buf[0] ? w->energy_kind : "", 0);
		/* The datasheet estimate: the row's energy without a sensor,
		 * beside the sensor's figure (with their ratio) with one. */
		{
			const struct hil_row_view_est *est = hil_rv_estimate(w);

			if (est != NULL) {
				csv_fig(out, w, &est->uj_per_op,
					est->uj_per_op);
				csv_fig(out, w, &est->uj_low, est->uj_low);
				csv_fig(out, w, &est->uj_high, est->uj_high);
				csv_field(out, est->table, 0);
				csv_fig(out, w, &est->ratio, est->ratio);
			} else {
				for (i = 0; i < 5; i++) {
					csv_field(out, "", 0);
				}
			}
		}
		csv_field(out, w->error, 0);
		for (i = 0; pq && i < sizeof(pq_keys) / sizeof(pq_keys[0]);
		     i++) {
			const cJSON *o =
				cJSON_GetObjectItemCaseSensitive(r, "pq");
			const cJSON *x =
				cJSON_GetObjectItemCaseSensitive(o, pq_keys[i]);

			if (cJSON_IsNumber(x)) {
				csv_num(out, o, pq_keys[i]);
			} else {
				csv_field(out, hil_rj_str(o, pq_keys[i]), 0);
			}
		}
		fputs("\r\n", out);
	}
	free(rows);
	return hil_render_status(out);
}
