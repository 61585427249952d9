/* svg_perbyte: per_byte.svg, cost per byte against message length, and the figure a plot or table shows per row. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"report"
#include "render_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/modelchange.h"
#include "result/headcodec.h"
#include "result/rowview.h"
#include "util/err.h"

/* The figure a plot shows per row. */
enum pb_metric {
	PB_COUNTER, /* the board's counter, in its unit */
	PB_MODEL,   /* rows[].model_cycles: the cycle model's estimate */
};

struct pb_series {
	struct hil_series s;
	struct hil_render_point *p;
	size_t n;
	size_t key; /* index of its implementation (colour, marker) */
	size_t op;  /* index of its operation (panel) */
	int failed;
};

struct pb_key {
	const char *algorithm, *implementation;
	double ad_len;
	int failed;
	char name[256];
};

struct pb_plot {
	struct pb_series *ps;
	size_t n;
	struct pb_key *keys;
	size_t nkeys;
	const char *ops[16]; /* panels, in order of first appearance */
	size_t nops;
	struct hil_row_view *rows; /* the report's, decoded; owned */
};

/* A row's per-byte figure (median, min, max) in metric m: 1 when it has one. */
static int pb_row(const struct hil_row_view *r, enum pb_metric m,
		  struct hil_render_point *p)
{
	/* The row's statistics, or its model's (the same figures). */
	const double *f[3] = {&r->median, &r->min, &r->max};
	double med, mn, mx;

	if (m == PB_MODEL) {
		f[0] = &r->model.median;
		f[1] = &r->model.min;
		f[2] = &r->model.max;
	}
	if (!hil_row_view_has(r, &r->row.msg_len) || r->row.msg_len == 0 ||
	    !hil_row_view_has(r, f[0])) {
		return 0;
	}
	p->len = r->row.msg_len;
	med = *f[0];
	mn = hil_row_view_has(r, f[1]) ? *f[1] : med;
	mx = hil_row_view_has(r, f[2]) ? *f[2] : med;
	p->med = med / p->len;
	p->lo = mn / p->len;
	p->hi = mx / p->len;
	return 1;
}

static void pb_free(struct pb_plot *pl)
{
	size_t i;

	for (i = 0; pl->ps != NULL && i < pl->n; i++) {
		free(pl->ps[i].p);
	}
	free(pl->ps);
	free(pl->keys);
	free(pl->rows);
	memset(pl, 0, sizeof(*pl));
}

static int pb_collect(const cJSON *report, enum pb_metric m, struct pb_plot *pl)
{
	struct hil_series *series = NULL;
	size_t n = 0, i, j, k, nrows = 0;
	int ret;

	memset(pl, 0, sizeof(*pl));
	/* The rows through result/'s codec, decoded once; the series' names
	 * point into them (pb_free frees them). */
	ret = hil_row_views_read(hil_rj_rows(report), &pl->rows, &nrows);
	if (ret == HIL_OK) {
		ret = hil_series_of_rows(pl->rows, nrows, &series, &n);
	}
	if (ret != HIL_OK || n == 0) {
		/* Nothing to plot points into: the rows are not kept. */
		free(series);
		pb_free(pl);
		return ret;
	}
	pl->ps = calloc(n, sizeof(*pl->ps));
	pl->keys = calloc(n, sizeof(*pl->keys));
	if (pl->ps == NULL || pl->keys == NULL) {
		free(series);
		pb_free(pl);
		return HIL_ERR_NOMEM;
	}
	pl->n = n;
	for (i = 0; i < n; i++) {
		struct pb_series *ps = &pl->ps[i];

		ps->s = series[i];
		ps->p = calloc(nrows, sizeof(*ps->p));
		if (ps->p == NULL) {
			free(series);
			pb_free(pl);
			return HIL_ERR_NOMEM;
		}
		for (j = 0; j < nrows; j++) {
			const struct hil_row_view *r = &pl->rows[j];

			if (!hil_series_has_row(&series[i], r)) {
				continue;
			}
			if (!hil_rv_ok(r)) {
				ps->failed = 1;
				continue;
			}
			/* Rows without a message have no per-byte figure. */
			ps->n += pb_row(r, m, &ps->p[ps->n]);
		}
		qsort(ps->p, ps->n, sizeof(*ps->p), hil_render_point_cmp);
		/* A key setup has no message: its cost is in the tables. */
		if (ps->n == 0 && !ps->failed) {
			continue;
		}
		for (k = 0; k < pl->nkeys; k++) {
			if (strcmp(pl->keys[k].algorithm, ps->s.algorithm) ==
				    0 &&
			    strcmp(pl->keys[k].implementation,
				   ps->s.implementation) == 0 &&
			    pl->keys[k].ad_len == ps->s.ad_len) {
				break;
			}
		}
		if (k == pl->nkeys) {
			struct pb_key *key = &pl->keys[pl->nkeys++];

			key->algorithm = ps->s.algorithm;
			key->implementation = ps->s.implementation;
			key->ad_len = ps->s.ad_len;
			if (ps->s.ad_len != 0) {
				snprintf(key->name, sizeof(key->name),
					 "%s/%s, ad %.0f", ps->s.algorithm,
					 ps->s.implementation, ps->s.ad_len);
			} else {
				snprintf(key->name, sizeof(key->name), "%s/%s",
					 ps->s.algorithm, ps->s.implementation);
			}
		}
		ps->key = k;
		pl->keys[k].failed |= ps->failed;
		for (k = 0; k < pl->nops; k++) {
			if (strcmp(pl->ops[k], ps->s.operation) == 0) {
				break;
			}
		}
		if (k == pl->nops &&
		    pl->nops < sizeof(pl->ops) / sizeof(pl->ops[0])) {
			pl->ops[pl->nops++] = ps->s.operation;
		}
		ps->op = k;
	}
	free(series);
	return HIL_OK;
}

/* Text turned by -90 degrees around (x, y): reads bottom to top. */
static void svg_text_up(FILE *o, double x, double y, const char *anchor,
			double size, const char *text)
{
	fprintf(o,
		"<text transform=\"translate(%.1f %.1f) rotate(-90)\" text-anchor=\"%s\" font-size=\"%.0f\" fill=\"#333333\">",
		x, y, anchor, size);
	hil_xml_puts(o, text);
	fputs("</text>\n", o);
}

#define PB_LEFT 84.0
#define PB_TOP	64.0
#define PB_H	300.0
#define PB_GAP	46.0

/* What the estimates' error bars are, for the subtitle: "; estimates
 * ± 11 % (assembly), ± 35 % (C) against the board", or why there are none
 * ("; no error bar: profile X is not calibrated"). */
static void pb_error_bars(const cJSON *report, const char *profile,
			  const char *unit, char *buf, size_t len)
{
	struct hil_row_view *rows = NULL;
	double asm_e = -1, c_e = -1;
	size_t n = 0, i;

	buf[0] = '\0';
	/* Out of memory: no row, so nothing said. */
	hil_row_views_read(hil_rj_rows(report), &rows, &n);
	for (i = 0; i < n; i++) {
		const struct hil_row_view *r = &rows[i];

		if (!r->has_model ||
		    !hil_row_view_has(r, &r->model.error_pct) ||
		    r->model.error_pct < 0) {
			continue;
		}
		if (strcmp(r->model.error_kind, "assembly") == 0) {
			asm_e = r->model.error_pct;
		} else {
			c_e = r->model.error_pct;
		}
	}
	free(rows);
	if (asm_e >= 0 && c_e >= 0) {
		snprintf(
			buf, len,
			"; estimates \xc2\xb1 %.0f %% (assembly), \xc2\xb1 %.0f %% (C) against the board",
			asm_e, c_e);
	} else if (asm_e >= 0 || c_e >= 0) {
		snprintf(buf, len,
			 "; estimates \xc2\xb1 %.0f %% against the board",
			 asm_e >= 0 ? asm_e : c_e);
	} else {
		char why[256], *cut;

		hil_model_no_error_bar(why, sizeof(why), profile, unit);
		/* The sentence without its reference: a subtitle. */
		cut = strstr(why, " (its estimates");
		cut = cut != NULL ? cut : strstr(why, " (docs/");
		if (cut != NULL) {
			*cut = '\0';
		}
		snprintf(buf, len, "; %s", why);
	}
}

/* The y label, title and subtitle of a plot of metric m. */
static void pb_labels(const cJSON *report, enum pb_metric m, char *title,
		      size_t tlen, char *ylab, size_t ylen, char *sub,
		      size_t slen)
{
	/* The report-level fields through result/'s codec tables. */
	struct hil_result_head *h = malloc(sizeof(*h));
	const char *unit = hil_rj_unit(report);
	const char *what;
	char bars[300] = "";

	if (h == NULL) {
		snprintf(title, tlen, "(out of memory)");
		snprintf(ylab, ylen, "%s", unit);
		snprintf(sub, slen, "%s", "");
		return;
	}
	hil_result_head_read(report, h);
	if (m == PB_MODEL) {
		what = "cycles (estimated, model)";
	} else if (strcmp(unit, "cycles") == 0 && !h->board.emulated) {
		what = "cycles (measured on the board)";
	} else {
		what = unit;
	}
	snprintf(title, tlen, "Cost per byte against message length, in %s",
		 what);
	snprintf(ylab, ylen, "%s per byte", what);
	if (m == PB_MODEL) {
		pb_error_bars(report, h->cycle_model.profile,
			      h->cycle_model.unit, bars, sizeof(bars));
	}
	snprintf(
		sub, slen,
		"%s%s%s; median of each row, whiskers from min to max; board %s%s; run %s",
		m == PB_MODEL	    ? h->cycle_model.unit
		: h->board.emulated ? "counted by the emulator"
				    : "counted by the board",
		m == PB_MODEL ? ", computed from the emulated instructions"
			      : "",
		bars, h->board.name, h->board.emulated ? " (emulated)" : "",
		h->run.id);
	free(h);
}

static int pb_plot(const cJSON *report, enum pb_metric m, FILE *out)
{
	struct pb_plot pl;
	struct hil_render_axis ya;
	size_t i, j, drawn = 0, cols, rows_l, op;
	double minlen = 0, maxlen = 0, ymin = 0, ymax = 0, lo, hi;
	double pw, w, h, legend_w = 160, legend_y;
	char title[256], sub[512], ylabel[160], col[32];
	int ret, k;

	ret = pb_collect(report, m, &pl);
	if (ret != HIL_OK) {
		return ret;
	}
	for (i = 0; i < pl.n; i++) {
		for (j = 0; j < pl.ps[i].n; j++) {
			const struct hil_render_point *p = &pl.ps[i].p[j];

			if (drawn == 0 || p->len < minlen) {
				minlen = p->len;
			}
			if (drawn == 0 || p->len > maxlen) {
				maxlen = p->len;
			}
			if (drawn == 0 || p->lo < ymin) {
				ymin = p->lo;
			}
			if (p->hi > ymax) {
				ymax = p->hi;
			}
			drawn++;
		}
	}
	for (i = 0; i < pl.nkeys; i++) {
		double tw = hil_render_text_w(pl.keys[i].name, 12) + 44;

		if (pl.keys[i].failed) {
			tw += hil_render_text_w(" (failed rows left out)", 12);
		}
		if (tw > legend_w) {
			legend_w = tw;
		}
	}
	/* Panels side by side (one per operation): encrypt never hides
	 * decrypt. */
	pw = pl.nops <= 1 ? 620 : pl.nops == 2 ? 430 : 330;
	w = PB_LEFT + (double)(pl.nops ? pl.nops : 1) * (pw + PB_GAP);
	cols = (size_t)((w - 24) / legend_w);
	if (cols == 0) {
		cols = 1;
	}
	if (w < legend_w + 24) {
		w = legend_w + 24;
	}
	rows_l = (pl.nkeys + cols - 1) / cols;
	legend_y = PB_TOP + 24 + PB_H + 52;
	h = legend_y + 18.0 * (double)rows_l + 12;
	pb_labels(report, m, title, sizeof(title), ylabel, sizeof(ylabel), sub,
		  sizeof(sub));
	hil_render_svg_begin(out, w, h, title);
	hil_render_svg_title(out, 12, title, sub, w);

	lo = drawn ? floor(log2(minlen)) : 4;
	hi = drawn ? ceil(log2(maxlen)) : 10;
	if (hi <= lo) {
		lo -= 1;
		hi += 1;
	}
	hil_render_axis_fit(&ya, ymin, ymax);
	if (ya.log) {
		size_t l = strlen(ylabel);

		snprintf(ylabel + l, sizeof(ylabel) - l, "%s", ", log scale");
	}
	svg_text_up(out, 18, PB_TOP + 24 + PB_H / 2, "middle", 12, ylabel);
	for (op = 0; op < (pl.nops ? pl.nops : 1); op++) {
		double x0 = PB_LEFT + (double)op * (pw + PB_GAP);
		double y0 = PB_TOP + 24;

		hil_render_svg_text(out, x0 + pw / 2, y0 - 8, "middle", 13,
				    "#222222", pl.nops ? pl.ops[op] : "");
		fprintf(out,
			"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#fbfbfb\" stroke=\"#999999\"/>\n",
			x0, y0, pw, PB_H);
		hil_render_axis_ticks(out, &ya, x0, y0, pw, PB_H, 1);
		for (k = (int)lo; k <= (int)hi; k++) {
			double x = x0 + ((double)k - lo) / (hi - lo) * pw;
			char lab[32];

			if ((hi - lo) > 8 && (k - (int)lo) % 2 != 0) {
				continue;
			}
			hil_render_svg_line(out, x, y0, x, y0 + PB_H, "#e4e4e4",
					    1);
			hil_render_svg_line(out, x, y0 + PB_H, x, y0 + PB_H + 4,
					    "#666666", 1);
			hil_fmt_num(lab, sizeof(lab), pow(2, k));
			hil_render_svg_text(out, x, y0 + PB_H + 16, "middle",
					    11, "#333333", lab);
		}
		hil_render_svg_text(out, x0 + pw / 2, y0 + PB_H + 34, "middle",
				    12, "#222222",
				    "message length (bytes, log scale)");
		if (drawn == 0) {
			hil_render_svg_text(
				out, x0 + pw / 2, y0 + PB_H / 2, "middle", 13,
				"#aa0000",
				"no per-byte figures: no successful row with a message");
		}
		for (i = 0; i < pl.n; i++) {
			const struct pb_series *ps = &pl.ps[i];

			if (ps->n == 0 || ps->op != op) {
				continue;
			}
			hil_render_colour(ps->key, col, sizeof(col));
#define PX(len) (x0 + (log2(len) - lo) / (hi - lo) * pw)
#define PY(v)	(y0 + PB_H - hil_render_axis_pos(&ya, (v)) * PB_H)
			fputs("<g class=\"series\"><title>", out);
			hil_xml_puts(out, pl.keys[ps->key].name);
			fputc(' ', out);
			hil_xml_puts(out, ps->s.operation);
			fputs("</title>\n", out);
			fprintf(out,
				"<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.8\" points=\"",
				col);
			for (j = 0; j < ps->n; j++) {
				fprintf(out, "%s%.1f,%.1f", j ? " " : "",
					PX(ps->p[j].len), PY(ps->p[j].med));
			}
			fputs("\"/>\n", out);
			for (j = 0; j < ps->n; j++) {
				const struct hil_render_point *p = &ps->p[j];
				double x = PX(p->len);

				if (p->hi > p->lo) {
					hil_render_svg_line(out, x, PY(p->lo),
							    x, PY(p->hi), col,
							    1);
					hil_render_svg_line(out, x - 3,
							    PY(p->lo), x + 3,
							    PY(p->lo), col, 1);
					hil_render_svg_line(out, x - 3,
							    PY(p->hi), x + 3,
							    PY(p->hi), col, 1);
				}
				hil_render_marker(out, ps->key, x, PY(p->med),
						  col);
			}
			fputs("</g>\n", out);
#undef PX
#undef PY
		}
	}
	/* The legend under the panels: one entry per implementation. */
	for (i = 0; i < pl.nkeys; i++) {
		double lx = 12 + legend_w * (double)(i % cols);
		double ly = legend_y + 18.0 * (double)(i / cols);
		char name[320];

		hil_render_colour(i, col, sizeof(col));
		fprintf(out,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"1.8\"/>\n",
			lx, ly, lx + 26, ly, col);
		hil_render_marker(out, i, lx + 13, ly, col);
		snprintf(name, sizeof(name), "%s%s", pl.keys[i].name,
			 pl.keys[i].failed ? " (failed rows left out)" : "");
		hil_render_svg_text(out, lx + 32, ly + 4, "start", 12,
				    pl.keys[i].failed ? "#aa0000" : "#222222",
				    name);
	}
	hil_render_svg_end(out);
	pb_free(&pl);
	return hil_render_status(out);
}

/* 1 when the cycle model ran and gave a figure for some row. */
static int has_model(const cJSON *report)
{
	const cJSON *r;
	struct hil_render_point p;
	struct hil_row_view *v;
	struct hil_head_cycle_model cm;
	int found = 0;

	/* The cycle model through result/'s codec tables. */
	hil_result_head_read_one(report, "cycle_model", &cm);
	if (!cm.enabled) {
		return 0;
	}
	v = malloc(sizeof(*v));
	if (v == NULL) {
		return 0;
	}
	/* Each row through result/'s codec, until one has the figure. */
	cJSON_ArrayForEach(r, hil_rj_rows(report))
	{
		hil_row_view_read(r, v);
		if (hil_rv_ok(v) && pb_row(v, PB_MODEL, &p)) {
			found = 1;
			break;
		}
	}
	free(v);
	return found;
}

int hil_svg_per_byte(const cJSON *report, FILE *out)
{
	return pb_plot(report, has_model(report) ? PB_MODEL : PB_COUNTER, out);
}

int hil_svg_per_byte_counter(const cJSON *report, FILE *out)
{
	return pb_plot(report, PB_COUNTER, out);
}

int hil_svg_per_byte_has_model(const cJSON *report)
{
	return has_model(report);
}

/* ---------------------------------------------------------------- figures */

const char *hil_fig_what(const cJSON *report)
{
	struct hil_head_board board;
	const char *unit = hil_rj_unit(report);

	if (has_model(report)) {
		return "cycles (estimated, model)";
	}
	/* The board through result/'s codec tables. */
	hil_result_head_read_one(report, "board", &board);
	if (strcmp(unit, "cycles") == 0 && !board.emulated) {
		return "cycles (measured on the board)";
	}
	return unit;
}

int hil_fig_per_byte(const cJSON *report, const cJSON *row, double *v)
{
	struct hil_render_point p;
	struct hil_row_view *rv = malloc(sizeof(*rv));
	int ok;

	if (rv == NULL) {
		return 0;
	}
	/* The row through result/'s codec. */
	hil_row_view_read(row, rv);
	ok = hil_rv_ok(rv) &&
	     pb_row(rv, has_model(report) ? PB_MODEL : PB_COUNTER, &p);
	free(rv);
	if (ok) {
		*v = p.med;
	}
	return ok;
}

int hil_fig_per_byte_rv(const cJSON *report, const struct hil_row_view *row,
			double *v)
{
	struct hil_render_point p;

	if (!hil_rv_ok(row) ||
	    !pb_row(row, has_model(report) ? PB_MODEL : PB_COUNTER, &p)) {
		return 0;
	}
	*v = p.med;
	return 1;
}

void hil_fig_err_rv(const cJSON *report, const struct hil_row_view *row,
		    char *buf, size_t len)
{
	if (len == 0) {
		return;
	}
	buf[0] = '\0';
	if (row != NULL && hil_rv_ok(row) && has_model(report)) {
		hil_rv_model_err(row, buf, len);
	}
}

int hil_fig_comparable(const cJSON *const *reports, size_t n)
{
	size_t i;
	int cycles = 1, same = 1;

	for (i = 0; i < n; i++) {
		const char *w = hil_fig_what(reports[i]);

		cycles &= strncmp(w, "cycles", 6) == 0;
		same &= strcmp(w, hil_fig_what(reports[0])) == 0;
	}
	return cycles || same;
}
