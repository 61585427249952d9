/* svg_sweep: sweep.svg, a panel of cost per byte per series and the flash and RAM bars, a colour per configuration. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"report"
#include "render_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/err.h"

#define SW_PW	  250.0 /* plot area of one panel */
#define SW_PH	  150.0
#define SW_CELL_W 330.0 /* panel with its axis labels */
#define SW_CELL_H 230.0
#define SW_COLS	  4
#define SW_LEFT	  12.0

/* One panel: series s of every report, per byte against length. */
static void sw_panel(FILE *out, const cJSON *const *reports,
		     const struct hil_sweep_rows *rows, size_t n,
		     const struct hil_series *s, double x0, double y0,
		     double lo, double hi, const char *ylab)
{
	struct hil_render_axis ya;
	double ymin = 0, ymax = 0;
	char name[256], col[32];
	size_t i;
	int any = 0, k;

	for (i = 0; i < n; i++) {
		size_t m;

		for (m = 0; m < rows[i].n; m++) {
			const struct hil_row_view *r = &rows[i].r[m];
			double v;

			if (hil_series_has_row(s, r) &&
			    hil_fig_per_byte_rv(reports[i], r, &v)) {
				if (!any || v < ymin) {
					ymin = v;
				}
				if (v > ymax) {
					ymax = v;
				}
				any = 1;
			}
		}
	}
	hil_series_name(s, name, sizeof(name));
	hil_render_svg_text(out, x0, y0 - 10, "start", 12, "#222222", name);
	fprintf(out,
		"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#fbfbfb\" stroke=\"#999999\"/>\n",
		x0, y0, SW_PW, SW_PH);
	if (!any) {
		hil_render_svg_text(out, x0 + SW_PW / 2, y0 + SW_PH / 2,
				    "middle", 11, "#888888",
				    "no per-byte figures");
		return;
	}
	hil_render_axis_fit(&ya, ymin, ymax);
	hil_render_axis_ticks(out, &ya, x0, y0, SW_PW, SW_PH, 1);
	fprintf(out,
		"<text transform=\"translate(%.1f %.1f) rotate(-90)\" text-anchor=\"middle\" font-size=\"9\" fill=\"#444444\">",
		x0 - 44, y0 + SW_PH / 2);
	hil_xml_puts(out, ylab);
	fputs("</text>\n", out);
	for (k = (int)lo; k <= (int)hi; k++) {
		double x = x0 + ((double)k - lo) / (hi - lo) * SW_PW;
		char lab[32];

		if ((hi - lo) > 6 && (k - (int)lo) % 2 != 0) {
			continue;
		}
		hil_render_svg_line(out, x, y0 + SW_PH, x, y0 + SW_PH + 4,
				    "#666666", 1);
		hil_fmt_num(lab, sizeof(lab), pow(2, k));
		hil_render_svg_text(out, x, y0 + SW_PH + 15, "middle", 10,
				    "#333333", lab);
	}
	hil_render_svg_text(out, x0 + SW_PW / 2, y0 + SW_PH + 30, "middle", 10,
			    "#444444",
			    ya.log ? "message length (B); y: log scale"
				   : "message length (B)");
	for (i = 0; i < n; i++) {
		struct hil_render_point *p;
		size_t np = 0, j, m;

		p = calloc(rows[i].n + 1, sizeof(*p));
		if (p == NULL) {
			return;
		}
		for (m = 0; m < rows[i].n; m++) {
			const struct hil_row_view *r = &rows[i].r[m];
			double v;

			if (hil_series_has_row(s, r) &&
			    hil_fig_per_byte_rv(reports[i], r, &v)) {
				/* a per-byte figure has a length */
				p[np].len = r->row.msg_len;
				p[np].med = v;
				np++;
			}
		}
		qsort(p, np, sizeof(*p), hil_render_point_cmp);
		hil_render_colour(i, col, sizeof(col));
#define PX(len) (x0 + (log2(len) - lo) / (hi - lo) * SW_PW)
#define PY(v)	(y0 + SW_PH - hil_render_axis_pos(&ya, (v)) * SW_PH)
		if (np > 0) {
			char lab[200];

			hil_sweep_label(reports, n, i, lab, sizeof(lab));
			fputs("<g class=\"series\"><title>", out);
			hil_xml_puts(out, lab);
			fputs("</title>\n", out);
			fprintf(out,
				"<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.6\" points=\"",
				col);
			for (j = 0; j < np; j++) {
				fprintf(out, "%s%.1f,%.1f", j ? " " : "",
					PX(p[j].len), PY(p[j].med));
			}
			fputs("\"/>\n", out);
			for (j = 0; j < np; j++) {
				hil_render_marker(out, i, PX(p[j].len),
						  PY(p[j].med), col);
			}
			fputs("</g>\n", out);
		}
#undef PX
#undef PY
		free(p);
	}
}

/* Static RAM + the largest peak stack of an implementation in a report. */
static int sw_ram(const cJSON *report, const struct hil_sweep_rows *rows,
		  const char *alg, const char *impl, double *v)
{
	double ram, stack;

	if (!hil_rj_num(hil_rj_impl_size(report, alg, impl), "ram_bytes",
			&ram) ||
	    !hil_rv_stack(rows->r, rows->n, alg, impl, NULL, &stack)) {
		return 0;
	}
	*v = ram + stack;
	return 1;
}

/* Horizontal grouped bars: one group per implementation, a bar per
 * configuration, on one value axis. what: 0 flash, 1 RAM (static+stack). */
static double sw_bars(FILE *out, const cJSON *const *reports,
		      const struct hil_sweep_rows *rows, size_t n, int what,
		      double x0, double y0, double label_w)
{
	/* A group at least as tall as its label. */
	const double bar_h = n >= 2 ? 7 : 14, room = 300;
	struct hil_series *s = NULL;
	size_t ns = 0, i, j, k, ng = 0;
	const char *seen[256][2];
	double max = 0, step, top, y;
	char col[32];

	if (hil_sweep_series(rows, n, &s, &ns) != HIL_OK) {
		return y0;
	}
	for (j = 0; j < ns && ng < 256; j++) {
		for (k = 0; k < ng; k++) {
			if (strcmp(seen[k][0], s[j].algorithm) == 0 &&
			    strcmp(seen[k][1], s[j].implementation) == 0) {
				break;
			}
		}
		if (k == ng) {
			seen[ng][0] = s[j].algorithm;
			seen[ng][1] = s[j].implementation;
			ng++;
		}
	}
	free(s);
#define SW_VAL(i, g, v)                                                        \
	(what == 0 ? hil_rj_num(hil_rj_impl_size(reports[i], seen[g][0],       \
						 seen[g][1]),                  \
				"flash_bytes", v)                              \
		   : sw_ram(reports[i], &rows[i], seen[g][0], seen[g][1], v))
	for (k = 0; k < ng; k++) {
		for (i = 0; i < n; i++) {
			double v;

			if (SW_VAL(i, k, &v) && v > max) {
				max = v;
			}
		}
	}
	step = hil_render_nice_step(max > 0 ? max : 1);
	top = max > 0 ? ceil(max / step) * step : 5 * step;
	hil_render_svg_text(out, x0, y0, "start", 13, "#222222",
			    what == 0 ? "Flash (B): code + constant data"
				      : "RAM (B): static data + peak stack");
	y = y0 + 14;
	for (k = 0; k < ng; k++) {
		char name[200];

		snprintf(name, sizeof(name), "%s/%s", seen[k][0], seen[k][1]);
		hil_render_svg_text(out, x0 + label_w - 8,
				    y + (double)n * bar_h / 2 + 4, "end", 11,
				    "#222222", name);
		for (i = 0; i < n; i++) {
			double v;

			hil_render_colour(i, col, sizeof(col));
			if (SW_VAL(i, k, &v)) {
				char lab[200];

				hil_sweep_label(reports, n, i, lab,
						sizeof(lab));
				fprintf(out,
					"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>",
					x0 + label_w, y, v / top * room,
					bar_h - 1, col);
				hil_xml_puts(out, lab);
				fprintf(out, ": %.0f B</title></rect>\n", v);
			}
			y += bar_h;
		}
		y += 6;
	}
#undef SW_VAL
	for (k = 0; (double)k * step <= top * (1 + 1e-9); k++) {
		double x = x0 + label_w + (double)k * step / top * room;
		char lab[32];

		hil_render_svg_line(out, x, y0 + 10, x, y, "#e4e4e4", 1);
		snprintf(lab, sizeof(lab), "%.6g", (double)k * step);
		hil_render_svg_text(out, x, y + 14, "middle", 10, "#333333",
				    lab);
	}
	hil_render_svg_line(out, x0 + label_w, y0 + 10, x0 + label_w, y,
			    "#666666", 1);
	hil_render_svg_text(out, x0 + label_w + room / 2, y + 30, "middle", 11,
			    "#222222", "bytes");
	return y + 40;
}

int hil_svg_sweep(const cJSON *const *reports, size_t n, FILE *out)
{
	struct hil_series *s = NULL;
	struct hil_sweep_rows *rows = NULL;
	size_t ns = 0, i, with = 0, rows_p, cols;
	double minlen = 0, maxlen = 0, lo, hi, w, h, label_w = 150, y, legend_w;
	char title[256], sub[600], what[200], col[32], ylab[200];
	int comparable, ret, drawn = 0;
	size_t impls = 0, j;

	if (n == 0) {
		return HIL_ERR_ARG;
	}
	comparable = hil_fig_comparable(reports, n);
	/* Each report's rows through result/'s codec, decoded once; the
	 * series' names point into them. */
	ret = hil_sweep_rows_read(reports, n, &rows);
	if (ret == HIL_OK) {
		ret = hil_sweep_series(rows, n, &s, &ns);
	}
	if (ret != HIL_OK) {
		hil_sweep_rows_free(rows, n);
		return ret;
	}
	for (i = 0; i < ns; i++) {
		for (j = 0; j < i; j++) {
			if (strcmp(s[j].algorithm, s[i].algorithm) == 0 &&
			    strcmp(s[j].implementation, s[i].implementation) ==
				    0) {
				break;
			}
		}
		impls += j == i;
	}
	snprintf(ylab, sizeof(ylab), "%s per byte", hil_fig_what(reports[0]));
	for (i = 1; i < n; i++) {
		if (strcmp(hil_fig_what(reports[i]),
			   hil_fig_what(reports[0])) != 0) {
			snprintf(ylab, sizeof(ylab), "%s", "cycles per byte");
		}
	}
	/* Panels only for series with a message; one x range for all. */
	for (i = 0; i < ns; i++) {
		size_t k;
		int has = 0;

		for (k = 0; k < n; k++) {
			size_t m;

			for (m = 0; m < rows[k].n; m++) {
				const struct hil_row_view *r = &rows[k].r[m];
				double len = r->row.msg_len;

				if (hil_series_has_row(&s[i], r) &&
				    hil_row_view_has(r, &r->row.msg_len) &&
				    len > 0) {
					has = 1;
					if (!drawn || len < minlen) {
						minlen = len;
					}
					if (!drawn || len > maxlen) {
						maxlen = len;
					}
					drawn = 1;
				}
			}
		}
		if (has) {
			s[with++] = s[i];
		}
		if (hil_render_text_w(s[i].implementation, 11) +
			    hil_render_text_w(s[i].algorithm, 11) + 30 >
		    label_w) {
			label_w = hil_render_text_w(s[i].implementation, 11) +
				  hil_render_text_w(s[i].algorithm, 11) + 30;
		}
	}
	if (!comparable) {
		with = 0;
	}
	lo = drawn ? floor(log2(minlen)) : 4;
	hi = drawn ? ceil(log2(maxlen)) : 10;
	if (hi <= lo) {
		lo -= 1;
		hi += 1;
	}
	cols = with < SW_COLS ? (with ? with : 1) : SW_COLS;
	rows_p = (with + cols - 1) / cols;
	legend_w = 0;
	for (i = 0; i < n; i++) {
		char lab[200];
		double tw;

		hil_sweep_label(reports, n, i, lab, sizeof(lab));
		snprintf(what, sizeof(what), "%s: %s", lab,
			 hil_fig_what(reports[i]));
		tw = hil_render_text_w(what, 12) + 44;
		if (tw > legend_w) {
			legend_w = tw;
		}
	}
	w = SW_LEFT + SW_CELL_W * (double)cols;
	if (w < 2 * (label_w + 360)) {
		w = 2 * (label_w + 360);
	}
	y = 56 + 18.0 * (double)n + 30;
	h = y + SW_CELL_H * (double)rows_p + 40;
	{
		/* Room for the two bar panels under the plots. */
		size_t groups = impls ? impls : 1;

		h += 14 + (double)groups * ((double)n * (n >= 2 ? 7 : 14) + 6) +
		     44;
	}
	snprintf(title, sizeof(title), "Sweep of %zu configuration%s", n,
		 n == 1 ? "" : "s");
	if (comparable) {
		snprintf(
			sub, sizeof(sub),
			"%s against message length, a panel per algorithm and operation, a line per configuration (one y axis per panel, from 0 unless marked log)",
			ylab);
	} else {
		snprintf(
			sub, sizeof(sub), "%s",
			"the configurations count in different units, so per-byte figures are left out; sizes only");
	}
	hil_render_svg_begin(out, w, h, title);
	hil_render_svg_title(out, SW_LEFT, title, sub, w);
	for (i = 0; i < n; i++) {
		char lab[200];
		double ly = 56 + 14 + 18.0 * (double)i;

		hil_sweep_label(reports, n, i, lab, sizeof(lab));
		/* What each counts, when they differ (board and model). */
		if (strcmp(ylab, "cycles per byte") == 0) {
			snprintf(what, sizeof(what), "%s: %s", lab,
				 hil_fig_what(reports[i]));
		} else {
			snprintf(what, sizeof(what), "%s", lab);
		}
		hil_render_colour(i, col, sizeof(col));
		fprintf(out,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"1.8\"/>\n",
			SW_LEFT + 8, ly - 4, SW_LEFT + 34, ly - 4, col);
		hil_render_marker(out, i, SW_LEFT + 21, ly - 4, col);
		hil_render_svg_text(out, SW_LEFT + 40, ly, "start", 12,
				    "#222222", comparable ? what : lab);
	}
	for (i = 0; i < with; i++) {
		double x0 = SW_LEFT + 60 + SW_CELL_W * (double)(i % cols);
		double y0 = y + 24 + SW_CELL_H * (double)(i / cols);

		sw_panel(out, reports, rows, n, &s[i], x0, y0, lo, hi, ylab);
	}
	y += SW_CELL_H * (double)rows_p + 30;
	{
		double y1 =
			sw_bars(out, reports, rows, n, 0, SW_LEFT, y, label_w);
		double y2 = sw_bars(out, reports, rows, n, 1,
				    SW_LEFT + label_w + 360, y, label_w);

		(void)y1;
		(void)y2;
	}
	hil_render_svg_end(out);
	free(s);
	hil_sweep_rows_free(rows, n);
	return hil_render_status(out);
}
