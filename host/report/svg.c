/* svg: our own small SVG writer: elements, colours and markers, the y axis of a plot. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"report"
#include "render_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/err.h"

/*
 * No XML declaration: a standalone SVG in UTF-8 does not need one, and the
 * same text can then be put inline in report.html as it is.
 * Coordinates are printed with one decimal so that output is deterministic.
 */

/* Tableau 10: tells ten series apart, also in grey print. */
static const char *const palette[] = {
	"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
	"#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#7f7f7f",
};
#define N_PALETTE (sizeof(palette) / sizeof(palette[0]))

void hil_render_svg_begin(FILE *o, double w, double h, const char *title)
{
	fprintf(o,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"DejaVu Sans, Arial, Helvetica, sans-serif\" font-size=\"12\">\n",
		w, h, w, h);
	fputs("<title>", o);
	hil_xml_puts(o, title);
	fputs("</title>\n", o);
	fprintf(o,
		"<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"#ffffff\"/>\n",
		w, h);
}

void hil_render_svg_end(FILE *o)
{
	fputs("</svg>\n", o);
}

/* anchor: "start", "middle" or "end"; size in px; weight "normal"/"bold". */
void hil_render_svg_text(FILE *o, double x, double y, const char *anchor,
			 double size, const char *fill, const char *text)
{
	fprintf(o,
		"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%.0f\" fill=\"%s\">",
		x, y, anchor, size, fill);
	hil_xml_puts(o, text);
	fputs("</text>\n", o);
}

void hil_render_svg_line(FILE *o, double x1, double y1, double x2, double y2,
			 const char *stroke, double width)
{
	fprintf(o,
		"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%.1f\"/>\n",
		x1, y1, x2, y2, stroke, width);
}

/* Title and subtitle; a subtitle wider than w is split after a "; ". */
void hil_render_svg_title(FILE *o, double x, const char *title,
			  const char *subtitle, double w)
{
	const char *cut = NULL, *p;

	fprintf(o,
		"<text x=\"%.1f\" y=\"22\" font-size=\"15\" font-weight=\"bold\" fill=\"#222222\">",
		x);
	hil_xml_puts(o, title);
	fputs("</text>\n", o);
	if (hil_render_text_w(subtitle, 11) + 2 * x > w) {
		/* The last "; " that leaves the first line inside w. */
		for (p = strstr(subtitle, "; "); p != NULL;
		     p = strstr(p + 2, "; ")) {
			if ((double)(p - subtitle + 1) * 11 * 0.58 + 2 * x >
				    w &&
			    cut != NULL) {
				break;
			}
			cut = p;
		}
	}
	if (cut == NULL) {
		hil_render_svg_text(o, x, 40, "start", 11, "#555555", subtitle);
		return;
	}
	{
		char first[1024];

		snprintf(first, sizeof(first), "%.*s;", (int)(cut - subtitle),
			 subtitle);
		hil_render_svg_text(o, x, 38, "start", 11, "#555555", first);
		hil_render_svg_text(o, x, 52, "start", 11, "#555555", cut + 2);
	}
}

/* A round step near range / 5: 1, 2, 2.5 or 5 times a power of ten. */
double hil_render_nice_step(double range)
{
	double e, f;

	if (range <= 0) {
		return 1;
	}
	e = pow(10, floor(log10(range / 5)));
	f = range / 5 / e;
	if (f <= 1) {
		return e;
	}
	if (f <= 2) {
		return 2 * e;
	}
	if (f <= 2.5) {
		return 2.5 * e;
	}
	if (f <= 5) {
		return 5 * e;
	}
	return 10 * e;
}

/* Estimated width of text at 12 px (no font metrics in a file writer). */
double hil_render_text_w(const char *s, double size)
{
	return (double)strlen(s) * size * 0.58;
}

/* ---------------------------------------------------------------- colours */

/*
 * One colour per implementation, never repeated: Tableau 10, then the light
 * halves of Tableau 20, then hues spaced by the golden angle. A marker shape
 * per implementation as well, so that two light colours still differ.
 */
void hil_render_colour(size_t i, char *buf, size_t len)
{
	static const char *const more[] = {
		"#a0cbe8", "#ffbe7d", "#8cd17d", "#b6992d", "#86bcb6",
		"#ff9d9a", "#79706e", "#d37295", "#d4a6c8", "#d7b5a6",
	};

	if (i < N_PALETTE) {
		snprintf(buf, len, "%s", palette[i]);
	} else if (i - N_PALETTE < sizeof(more) / sizeof(more[0])) {
		snprintf(buf, len, "%s", more[i - N_PALETTE]);
	} else {
		size_t k = i - N_PALETTE - sizeof(more) / sizeof(more[0]);

		/* Distinct (hue, lightness) pairs: no two strings alike. */
		snprintf(buf, len, "hsl(%zu,60%%,%zu%%)", (k * 137) % 360,
			 35 + (k / 360) % 30);
	}
}

#define N_MARKERS 7

/* Marker shape m (of N_MARKERS) centred on (x, y), filled with col. */
void hil_render_marker(FILE *o, size_t m, double x, double y, const char *col)
{
	const double r = 3.6;

	switch (m % N_MARKERS) {
	case 0:
		fprintf(o,
			"<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"%s\"/>\n",
			x, y, r, col);
		break;
	case 1:
		fprintf(o,
			"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n",
			x - r, y - r, 2 * r, 2 * r, col);
		break;
	case 2:
		fprintf(o,
			"<path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fZ\" fill=\"%s\"/>\n",
			x, y - r - 1, x + r + 0.6, y + r, x - r - 0.6, y + r,
			col);
		break;
	case 3:
		fprintf(o,
			"<path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fL%.1f %.1fZ\" fill=\"%s\"/>\n",
			x, y - r - 1, x + r + 1, y, x, y + r + 1, x - r - 1, y,
			col);
		break;
	case 4:
		fprintf(o,
			"<path d=\"M%.1f %.1fL%.1f %.1fL%.1f %.1fZ\" fill=\"%s\"/>\n",
			x, y + r + 1, x + r + 0.6, y - r, x - r - 0.6, y - r,
			col);
		break;
	case 5: /* plus */
		fprintf(o,
			"<path d=\"M%.1f %.1fH%.1fM%.1f %.1fV%.1f\" stroke=\"%s\" stroke-width=\"2.4\" fill=\"none\"/>\n",
			x - r - 1, y, x + r + 1, x, y - r - 1, y + r + 1, col);
		break;
	default: /* cross */
		fprintf(o,
			"<path d=\"M%.1f %.1fL%.1f %.1fM%.1f %.1fL%.1f %.1f\" stroke=\"%s\" stroke-width=\"2.4\" fill=\"none\"/>\n",
			x - r, y - r, x + r, y + r, x - r, y + r, x + r, y - r,
			col);
		break;
	}
}

/* ---------------------------------------------------------------- axes */

int hil_render_point_cmp(const void *a, const void *b)
{
	const struct hil_render_point *x = a, *y = b;

	return (x->len > y->len) - (x->len < y->len);
}

void hil_render_axis_fit(struct hil_render_axis *a, double ymin, double ymax)
{
	memset(a, 0, sizeof(*a));
	if (ymin > 0 && ymax / ymin >= 10) {
		a->log = 1;
		a->lo = floor(log10(ymin));
		a->hi = ceil(log10(ymax));
		/* Closer ends when the data sits well inside a decade. */
		if (log10(ymin) - a->lo > log10(5)) {
			a->lo += log10(5);
		} else if (log10(ymin) - a->lo > log10(2)) {
			a->lo += log10(2);
		}
		if (a->hi - log10(ymax) > log10(5)) {
			a->hi -= log10(5);
		} else if (a->hi - log10(ymax) > log10(2)) {
			a->hi -= log10(2);
		}
		return;
	}
	a->step = hil_render_nice_step(ymax > 0 ? ymax : 1);
	a->hi = ymax > 0 ? ceil(ymax / a->step) * a->step : 5 * a->step;
}

/* 0 at the bottom of the axis, 1 at its top. */
double hil_render_axis_pos(const struct hil_render_axis *a, double v)
{
	if (a->log) {
		return (log10(v) - a->lo) / (a->hi - a->lo);
	}
	return v / a->hi;
}

/* Draw the y ticks of a onto a panel at (x, y) of height h; labels when lab. */
void hil_render_axis_ticks(FILE *o, const struct hil_render_axis *a, double x,
			   double y, double w, double h, int lab)
{
	char t[32];
	int k;

	if (a->log) {
		static const double m[] = {1, 2, 5};
		int e;
		size_t j;

		for (e = (int)floor(a->lo) - 1; e <= (int)ceil(a->hi); e++) {
			for (j = 0; j < 3; j++) {
				double v = m[j] * pow(10, e);
				double p = hil_render_axis_pos(a, v);
				double ty = y + h - p * h;

				if (p < -1e-9 || p > 1 + 1e-9) {
					continue;
				}
				hil_render_svg_line(
					o, x, ty, x + w, ty,
					j == 0 ? "#d4d4d4" : "#ececec", 1);
				if (lab) {
					snprintf(t, sizeof(t), "%g", v);
					hil_render_svg_text(o, x - 6, ty + 4,
							    "end", 11,
							    "#333333", t);
				}
			}
		}
		return;
	}
	for (k = 0; (double)k * a->step <= a->hi * (1 + 1e-9); k++) {
		double v = (double)k * a->step;
		double ty = y + h - v / a->hi * h;

		hil_render_svg_line(o, x, ty, x + w, ty, "#e4e4e4", 1);
		if (lab) {
			snprintf(t, sizeof(t), "%.6g", v);
			hil_render_svg_text(o, x - 6, ty + 4, "end", 11,
					    "#333333", t);
		}
	}
}
