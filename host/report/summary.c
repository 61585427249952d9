/* summary: the headline lines and the caption of a report, shown by summary.md and report.html. */
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
	char runs[64], warm[64], lentxt[400], adtxt[200], flags[256],
		clock[192];
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
		"Runs: %s per row (after %s warm-up), median; message lengths: %s B; AD: %s B; flags: %s; board: %s%s; %s: %s; counter unit: %s.",
		runs, warm, nl ? lentxt : "none", na ? adtxt : "none", flags,
		hil_rj_str(board, "name"),
		hil_rj_bool(board, "emulated") == 1 ? " (emulated)" : "",
		/* "figures: estimated cycles, STM32F401 @ 84 MHz, ..." */
		hil_rj_str(board, "clock_label")[0] != '\0' ? "figures"
							    : "clock",
		clock, s->unit);
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
		char e[24];

		/* With its error bar when the profile is calibrated. */
		hil_rj_model_err(row, e, sizeof(e));
		snprintf(buf, len, "%.2f%s", v, e);
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
	l->energy_extra[0] = '\0';
	if (at64 != NULL && hil_rj_row_ok(at64) &&
	    hil_rj_row_energy(at64, &v)) {
		const cJSON *est = hil_rj_row_estimate(at64);
		double lo, hi, ratio;

		snprintf(l->energy, sizeof(l->energy), "%.3g", v);
		if (est != NULL &&
		    est == cJSON_GetObjectItemCaseSensitive(at64, "energy") &&
		    hil_rj_num(est, "uj_low", &lo) &&
		    hil_rj_num(est, "uj_high", &hi)) {
			snprintf(l->energy_extra, sizeof(l->energy_extra),
				 "%.3g-%.3g", lo, hi);
		} else if (est != NULL && hil_rj_num(est, "uj_per_op", &lo)) {
			if (hil_rj_num(est, "ratio", &ratio)) {
				snprintf(l->energy_extra,
					 sizeof(l->energy_extra),
					 "est. %.3g, x%.2f", lo, ratio);
			} else {
				snprintf(l->energy_extra,
					 sizeof(l->energy_extra), "est. %.3g",
					 lo);
			}
		}
	}
	cJSON_ArrayForEach(r, hil_rj_rows(report))
	{
		if (!hil_series_has(&l->s, r)) {
			continue;
		}
		/* Cut short by an interrupt is not a failure. */
		l->interrupted |=
			strcmp(hil_rj_str(r, "status"), "interrupted") == 0;
		l->failed |=
			!hil_rj_row_ok(r) &&
			strcmp(hil_rj_str(r, "status"), "interrupted") != 0;
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

/*
 * The datasheet estimate's footnote, from its first estimated row: the
 * formula with the table point, the range, the source. "" when no row has
 * an estimate.
 */
static void energy_note(const cJSON *report, char *buf, size_t len)
{
	const cJSON *r, *e = NULL;
	double vdd, ma, hi, hz;

	buf[0] = '\0';
	cJSON_ArrayForEach(r, hil_rj_rows(report))
	{
		e = hil_rj_row_estimate(r);
		if (e != NULL) {
			break;
		}
	}
	if (e == NULL) {
		return;
	}
	/* energy_estimate beside a sensor's figure keeps only the
	 * figures; the row's energy object (no sensor) has the point. */
	if (hil_rj_num(e, "vdd_v", &vdd) && hil_rj_num(e, "idd_ma", &ma) &&
	    hil_rj_num(e, "idd_high_ma", &hi) &&
	    hil_rj_num(e, "clock_hz", &hz)) {
		snprintf(
			buf, len,
			"%.1f V x %.3g mA (typ., 25 C, all peripherals off) x cycles / %g MHz; range up to %.3g mA (max. at 25 C, all peripherals on). Source: %s",
			vdd, ma, hz / 1e6, hi, hil_rj_str(e, "table"));
	} else {
		snprintf(buf, len, "Source: %s", hil_rj_str(e, "table"));
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
		s->energy_beside = hil_rj_energy_beside(report);
		s->energy_est = !s->energy_beside &&
				cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(
					report, "energy_estimate"));
		energy_note(report, s->energy_note, sizeof(s->energy_note));
		if (hil_rj_bool(cm, "enabled") == 1) {
			const cJSON *r;

			s->model_unit = hil_rj_str(cm, "unit");
			cJSON_ArrayForEach(r, hil_rj_rows(report))
			{
				const cJSON *f =
					cJSON_GetObjectItemCaseSensitive(
						cJSON_GetObjectItemCaseSensitive(
							r, "model_cycles"),
						"error_from");

				if (cJSON_IsString(f)) {
					s->model_err_from = f->valuestring;
					break;
				}
			}
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
