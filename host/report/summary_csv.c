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

static void csv_bool(FILE *out, const cJSON *o, const char *key)
{
	int b = hil_rj_bool(o, key);

	csv_field(out, b < 0 ? "" : b ? "true" : "false", 0);
}

/* A row's leak test on the model's cycles, or NULL (empty cells). */
static const cJSON *leak_model(const cJSON *row)
{
	return cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(row, "leak"), "model_cycles");
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
		/* The same runs' t on the cycle model's estimated cycles. */
		csv_num(out, leak_model(r), "t");
		csv_bool(out, leak_model(r), "flagged");
		csv_num(out,
			cJSON_GetObjectItemCaseSensitive(r, "model_cycles"),
			"median");
		csv_field(out,
			  hil_rj_str(cJSON_GetObjectItemCaseSensitive(
					     r, "model_cycles"),
				     "unit"),
			  0);
		/* The estimate's error bar (calibrated profiles only). */
		csv_num(out,
			cJSON_GetObjectItemCaseSensitive(r, "model_cycles"),
			"error_pct");
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
		/* The datasheet estimate: the row's energy without a sensor,
		 * beside the sensor's figure (with their ratio) with one. */
		{
			const cJSON *est = hil_rj_row_estimate(r);

			csv_num(out, est, "uj_per_op");
			csv_num(out, est, "uj_low");
			csv_num(out, est, "uj_high");
			csv_field(out, hil_rj_str(est, "table"), 0);
			csv_num(out, est, "ratio");
		}
		csv_field(out, hil_rj_str(r, "error"), 0);
		fputs("\r\n", out);
	}
	return hil_render_status(out);
}
