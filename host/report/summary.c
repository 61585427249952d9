/* summary: the headline lines and the caption of a report, shown by summary.md and report.html. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"report"
#include "render_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "result/headcodec.h"
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

/* "1000", or "100-1000" when rows differ: the field at off (of struct
 * hil_row_view) over the decoded rows. */
static void range_text(const struct hil_row_view *rows, size_t n, size_t off,
		       char *buf, size_t len)
{
	double v, lo = 0, hi = 0;
	size_t i;
	int any = 0;
	char a[32], b[32];

	for (i = 0; i < n; i++) {
		const uint32_t *f =
			(const uint32_t *)((const char *)&rows[i] + off);

		if (!hil_row_view_has(&rows[i], f)) {
			continue;
		}
		v = *f;
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

static int caption(const cJSON *report, const struct hil_result_head *h,
		   struct hil_summary *s)
{
	const struct hil_row_view *rows = s->rows;
	const cJSON *build = cJSON_GetObjectItemCaseSensitive(report, "build");
	const cJSON *cflags = cJSON_GetObjectItemCaseSensitive(build, "cflags");
	const cJSON *r;
	double lens[64], ads[64];
	size_t nl = 0, na = 0, used = 0, i;
	char runs[64], warm[64], lentxt[400], adtxt[200], flags[256],
		clock[192];
	size_t len = 0;
	FILE *f;

	for (i = 0; i < s->n_rows; i++) {
		if (hil_row_view_has(&rows[i], &rows[i].row.msg_len)) {
			set_add(lens, &nl, 64, rows[i].row.msg_len);
		}
		if (hil_row_view_has(&rows[i], &rows[i].row.ad_len)) {
			set_add(ads, &na, 64, rows[i].row.ad_len);
		}
	}
	set_join(lens, nl, lentxt, sizeof(lentxt));
	set_join(ads, na, adtxt, sizeof(adtxt));
	range_text(rows, s->n_rows, offsetof(struct hil_row_view, row.runs),
		   runs, sizeof(runs));
	range_text(rows, s->n_rows, offsetof(struct hil_row_view, row.warmup),
		   warm, sizeof(warm));
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
		h->board.name, h->board.emulated ? " (emulated)" : "",
		/* "figures: estimated cycles, STM32F401 @ 84 MHz, ..." */
		h->board.clock_label[0] != '\0' ? "figures" : "clock", clock,
		s->unit);
	if (fclose(f) != 0) {
		free(s->caption);
		s->caption = NULL;
		return HIL_ERR_NOMEM;
	}
	return HIL_OK;
}

static const struct hil_row_view *series_row_at(const struct hil_summary *sum,
						const struct hil_series *s,
						double len)
{
	size_t i;

	for (i = 0; i < sum->n_rows; i++) {
		const struct hil_row_view *r = &sum->rows[i];

		if (hil_series_has_row(s, r) &&
		    hil_row_view_has(r, &r->row.msg_len) &&
		    r->row.msg_len == len) {
			return r;
		}
	}
	return NULL;
}

/* Per byte at len: the figure, "failed", or "-" when not measured. */
static void per_byte_cell(const struct hil_row_view *row, char *buf, size_t len)
{
	double v;

	if (row == NULL) {
		snprintf(buf, len, "%s", "-");
	} else if (!hil_rv_ok(row)) {
		snprintf(buf, len, "%s", "failed");
	} else if (hil_rv_per_byte(row, &v)) {
		snprintf(buf, len, "%.2f", v);
	} else {
		snprintf(buf, len, "%s", "-");
	}
}

/* Model cycles per byte of a row: the figure, "failed" (when the model
 * ran), or "-". */
static void model_cell(const struct hil_row_view *row, int enabled, char *buf,
		       size_t len)
{
	if (row == NULL) {
		snprintf(buf, len, "%s", "-");
	} else if (!hil_rv_ok(row)) {
		snprintf(buf, len, "%s", enabled ? "failed" : "-");
	} else if (hil_row_view_has(row, &row->model.per_byte)) {
		char e[24];

		/* With its error bar when the profile is calibrated. */
		hil_rv_model_err(row, e, sizeof(e));
		snprintf(buf, len, "%.2f%s", row->model.per_byte, e);
	} else {
		snprintf(buf, len, "%s", "-");
	}
}

static void line_fill(const cJSON *report, struct hil_summary *sum,
		      struct hil_sum_line *l)
{
	const cJSON *z =
		hil_rj_impl_size(report, l->s.algorithm, l->s.implementation);
	const struct hil_row_view *at64 =
		series_row_at(sum, &l->s, sum->head_len);
	const struct hil_row_view *atl =
		sum->longest > 0 ? series_row_at(sum, &l->s, sum->longest)
				 : NULL;
	const struct hil_row_view *erow, *call_row = NULL;
	double v, len;
	size_t i;
	int with_msg = 0;

	per_byte_cell(at64, l->at64, sizeof(l->at64));
	per_byte_cell(atl, l->atl, sizeof(l->atl));
	snprintf(l->flash, sizeof(l->flash), "%s", "-");
	snprintf(l->ram, sizeof(l->ram), "%s", "-");
	if (z != NULL && hil_rj_num(z, "flash_bytes", &v)) {
		snprintf(l->flash, sizeof(l->flash), "%.0f", v);
	}
	if (z != NULL && hil_rj_num(z, "ram_bytes", &v)) {
		snprintf(l->ram, sizeof(l->ram), "%.0f", v);
	}
	snprintf(l->stack, sizeof(l->stack), "%s", "-");
	if (hil_rv_stack(sum->rows, sum->n_rows, l->s.algorithm,
			 l->s.implementation, l->s.operation, &v)) {
		snprintf(l->stack, sizeof(l->stack), "%.0f", v);
	}
	model_cell(atl, sum->model_unit != NULL, l->model, sizeof(l->model));
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
	    hil_rv_stack(sum->rows, sum->n_rows, l->s.algorithm,
			 l->s.implementation, l->s.operation, &len)) {
		snprintf(l->ram_total, sizeof(l->ram_total), "%.0f", v + len);
	}
	snprintf(l->norm, sizeof(l->norm), "%s", "-");
	if (atl != NULL && hil_rv_ok(atl) &&
	    hil_row_view_has(atl, &atl->normalized)) {
		snprintf(l->norm, sizeof(l->norm), "%.2f", atl->normalized);
	}
	for (i = 0; i < sum->n_rows; i++) {
		const struct hil_row_view *r = &sum->rows[i];

		if (!hil_series_has_row(&l->s, r)) {
			continue;
		}
		/* Cut short by an interrupt is not a failure. */
		l->interrupted |= strcmp(r->status, "interrupted") == 0;
		l->failed |=
			!hil_rv_ok(r) && strcmp(r->status, "interrupted") != 0;
		l->not_ct |= hil_row_view_has(r, &r->constant_time) &&
			     !r->constant_time;
		len = hil_row_view_has(r, &r->row.msg_len) ? r->row.msg_len : 0;
		if (len > 0) {
			with_msg = 1;
		} else if (!l->per_call && hil_rv_ok(r) &&
			   hil_row_view_has(r, &r->median)) {
			l->per_call = 1;
			l->call = r->median;
			call_row = r;
		}
	}
	if (with_msg) {
		l->per_call = 0;
	}
	/* Energy of one operation: at the headline length, or, for an
	 * operation without a message (a key setup), of its one call. */
	erow = l->per_call ? call_row : at64;
	snprintf(l->energy, sizeof(l->energy), "%s", "-");
	l->energy_extra[0] = '\0';
	if (erow != NULL && hil_rv_ok(erow) && hil_rv_energy(erow, &v)) {
		const struct hil_row_view_est *est = hil_rv_estimate(erow);

		snprintf(l->energy, sizeof(l->energy), "%.3g", v);
		if (est != NULL && !erow->est_beside &&
		    hil_row_view_has(erow, &est->uj_low) &&
		    hil_row_view_has(erow, &est->uj_high)) {
			snprintf(l->energy_extra, sizeof(l->energy_extra),
				 "%.3g-%.3g", est->uj_low, est->uj_high);
		} else if (est != NULL &&
			   hil_row_view_has(erow, &est->uj_per_op)) {
			if (hil_row_view_has(erow, &est->ratio)) {
				snprintf(l->energy_extra,
					 sizeof(l->energy_extra),
					 "est. %.3g, x%.2f", est->uj_per_op,
					 est->ratio);
			} else {
				snprintf(l->energy_extra,
					 sizeof(l->energy_extra), "est. %.3g",
					 est->uj_per_op);
			}
		}
	}
}

/*
 * The datasheet estimate's footnote, from its first estimated row: the
 * formula with the table point, the range, the source. "" when no row has
 * an estimate.
 */
static void energy_note(const struct hil_summary *s, char *buf, size_t len)
{
	const struct hil_row_view *r = NULL;
	const struct hil_row_view_est *e = NULL;
	size_t i;

	buf[0] = '\0';
	for (i = 0; i < s->n_rows && e == NULL; i++) {
		r = &s->rows[i];
		e = hil_rv_estimate(r);
	}
	if (e == NULL) {
		return;
	}
	/* energy_estimate beside a sensor's figure keeps only the
	 * figures; the row's energy object (no sensor) has the point. */
	if (hil_row_view_has(r, &e->vdd_v) && hil_row_view_has(r, &e->idd_ma) &&
	    hil_row_view_has(r, &e->idd_high_ma) &&
	    hil_row_view_has(r, &e->clock_hz)) {
		snprintf(
			buf, len,
			"%.1f V x %.3g mA (typ., 25 C, all peripherals off) x cycles / %g MHz; range up to %.3g mA (max. at 25 C, all peripherals on). Source: %s",
			e->vdd_v, e->idd_ma, e->clock_hz / 1e6, e->idd_high_ma,
			e->table);
	} else {
		snprintf(buf, len, "Source: %s", e->table);
	}
}

/* 64 when a row has a 64-byte message, else the message length nearest to
 * it (the shorter on a tie); 64 when no row has a message. */
static double headline_len(const struct hil_summary *s)
{
	double best = 0, len;
	size_t i;

	for (i = 0; i < s->n_rows; i++) {
		if (!hil_row_view_has(&s->rows[i], &s->rows[i].row.msg_len) ||
		    s->rows[i].row.msg_len == 0) {
			continue;
		}
		len = s->rows[i].row.msg_len;
		if (best == 0 || fabs(len - 64) < fabs(best - 64) ||
		    (fabs(len - 64) == fabs(best - 64) && len < best)) {
			best = len;
		}
	}
	return best > 0 ? best : 64;
}

int hil_summary_build(const cJSON *report, struct hil_summary *s)
{
	struct hil_result_head *h;
	struct hil_series *series = NULL;
	size_t n = 0, i;
	int ret;

	memset(s, 0, sizeof(*s));
	/* The rows through result/'s codec, decoded once. */
	ret = hil_row_views_read(hil_rj_rows(report), &s->rows, &s->n_rows);
	if (ret != HIL_OK) {
		return ret;
	}
	s->unit = hil_rj_unit(report);
	s->longest = hil_rv_longest(s->rows, s->n_rows);
	s->head_len = headline_len(s);
	s->energy_reason = hil_rj_energy_reason(report);
	/* The report-level fields through result/'s codec tables. */
	h = malloc(sizeof(*h));
	if (h == NULL) {
		hil_summary_free(s);
		return HIL_ERR_NOMEM;
	}
	hil_result_head_read(report, h);
	{
		const cJSON *cm =
			cJSON_GetObjectItemCaseSensitive(report, "cycle_model");

		s->energy_model = h->sensor.model;
		s->energy_beside = hil_rj_energy_beside(report);
		s->energy_est = !s->energy_beside && h->energy_estimate.present;
		energy_note(s, s->energy_note, sizeof(s->energy_note));
		if (hil_rj_bool(cm, "enabled") == 1) {
			s->model_unit = hil_rj_str(cm, "unit");
			/* The first row's that has one (the rows'). */
			for (i = 0; i < s->n_rows; i++) {
				if (s->rows[i].model.error_from[0] != '\0') {
					s->model_err_from =
						s->rows[i].model.error_from;
					break;
				}
			}
		}
		s->head_unit = s->model_unit != NULL
				       ? "cycles (estimated, model)"
				       : s->unit;
		if (h->normalized_to.rows > 0) {
			snprintf(s->norm_ref_buf, sizeof(s->norm_ref_buf),
				 "%s/%s", h->normalized_to.algorithm,
				 h->normalized_to.implementation);
			s->norm_ref = s->norm_ref_buf;
		}
	}
	ret = caption(report, h, s);
	free(h);
	if (ret != HIL_OK) {
		hil_summary_free(s);
		return ret;
	}
	ret = hil_series_of_rows(s->rows, s->n_rows, &series, &n);
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
	free(s->rows);
	s->l = NULL;
	s->caption = NULL;
	s->rows = NULL;
	s->n = 0;
	s->n_rows = 0;
}
