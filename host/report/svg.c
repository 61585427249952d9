/* svg: our own small SVG writer: per-byte cost, sizes, and sweep bars. */
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

static void svg_begin(FILE *o, double w, double h, const char *title)
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

static void svg_end(FILE *o)
{
	fputs("</svg>\n", o);
}

/* anchor: "start", "middle" or "end"; size in px; weight "normal"/"bold". */
static void svg_text(FILE *o, double x, double y, const char *anchor,
		     double size, const char *fill, const char *text)
{
	fprintf(o,
		"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%.0f\" fill=\"%s\">",
		x, y, anchor, size, fill);
	hil_xml_puts(o, text);
	fputs("</text>\n", o);
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

static void svg_line(FILE *o, double x1, double y1, double x2, double y2,
		     const char *stroke, double width)
{
	fprintf(o,
		"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"%.1f\"/>\n",
		x1, y1, x2, y2, stroke, width);
}

static double text_w(const char *s, double size);

/* Title and subtitle; a subtitle wider than w is split after a "; ". */
static void svg_title(FILE *o, double x, const char *title,
		      const char *subtitle, double w)
{
	const char *cut = NULL, *p;

	fprintf(o,
		"<text x=\"%.1f\" y=\"22\" font-size=\"15\" font-weight=\"bold\" fill=\"#222222\">",
		x);
	hil_xml_puts(o, title);
	fputs("</text>\n", o);
	if (text_w(subtitle, 11) + 2 * x > w) {
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
		svg_text(o, x, 40, "start", 11, "#555555", subtitle);
		return;
	}
	{
		char first[1024];

		snprintf(first, sizeof(first), "%.*s;", (int)(cut - subtitle),
			 subtitle);
		svg_text(o, x, 38, "start", 11, "#555555", first);
		svg_text(o, x, 52, "start", 11, "#555555", cut + 2);
	}
}

/* A round step near range / 5: 1, 2, 2.5 or 5 times a power of ten. */
static double nice_step(double range)
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
static double text_w(const char *s, double size)
{
	return (double)strlen(s) * size * 0.58;
}

/* ---------------------------------------------------------------- per byte */

/*
 * One colour per implementation, never repeated: Tableau 10, then the light
 * halves of Tableau 20, then hues spaced by the golden angle. A marker shape
 * per implementation as well, so that two light colours still differ.
 */
static void colour(size_t i, char *buf, size_t len)
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
static void marker(FILE *o, size_t m, double x, double y, const char *col)
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

/* The figure a plot shows per row. */
enum pb_metric {
	PB_COUNTER, /* the board's counter, in its unit */
	PB_MODEL,   /* rows[].model_cycles: the cycle model's estimate */
};

struct pb_point {
	double len, med, lo, hi; /* per byte */
};

struct pb_series {
	struct hil_series s;
	struct pb_point *p;
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
};

static int cmp_point(const void *a, const void *b)
{
	const struct pb_point *x = a, *y = b;

	return (x->len > y->len) - (x->len < y->len);
}

/* A row's per-byte figure (median, min, max) in metric m: 1 when it has one. */
static int pb_row(const cJSON *r, enum pb_metric m, struct pb_point *p)
{
	const cJSON *o =
		m == PB_MODEL
			? cJSON_GetObjectItemCaseSensitive(r, "model_cycles")
			: r;
	double med, mn, mx;

	if (!hil_rj_num(r, "msg_len", &p->len) || p->len <= 0 ||
	    !hil_rj_num(o, "median", &med)) {
		return 0;
	}
	if (!hil_rj_num(o, "min", &mn)) {
		mn = med;
	}
	if (!hil_rj_num(o, "max", &mx)) {
		mx = med;
	}
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
	memset(pl, 0, sizeof(*pl));
}

static int pb_collect(const cJSON *report, enum pb_metric m, struct pb_plot *pl)
{
	struct hil_series *series = NULL;
	int nrows = cJSON_GetArraySize(hil_rj_rows(report));
	size_t n = 0, i, k;
	int ret;

	memset(pl, 0, sizeof(*pl));
	ret = hil_series_list(report, &series, &n);
	if (ret != HIL_OK || n == 0) {
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
		const cJSON *r;

		ps->s = series[i];
		ps->p = calloc((size_t)nrows, sizeof(*ps->p));
		if (ps->p == NULL) {
			free(series);
			pb_free(pl);
			return HIL_ERR_NOMEM;
		}
		cJSON_ArrayForEach(r, hil_rj_rows(report))
		{
			if (!hil_series_has(&series[i], r)) {
				continue;
			}
			if (!hil_rj_row_ok(r)) {
				ps->failed = 1;
				continue;
			}
			/* Rows without a message have no per-byte figure. */
			ps->n += pb_row(r, m, &ps->p[ps->n]);
		}
		qsort(ps->p, ps->n, sizeof(*ps->p), cmp_point);
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

/* The plot's y axis: linear from 0, or log10 when the figures span decades. */
struct pb_axis {
	int log;
	double lo, hi; /* linear: 0..top; log: log10 of the ends */
	double step;   /* linear tick step */
};

static void axis_fit(struct pb_axis *a, double ymin, double ymax)
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
	a->step = nice_step(ymax > 0 ? ymax : 1);
	a->hi = ymax > 0 ? ceil(ymax / a->step) * a->step : 5 * a->step;
}

/* 0 at the bottom of the axis, 1 at its top. */
static double axis_pos(const struct pb_axis *a, double v)
{
	if (a->log) {
		return (log10(v) - a->lo) / (a->hi - a->lo);
	}
	return v / a->hi;
}

/* Draw the y ticks of a onto a panel at (x, y) of height h; labels when lab. */
static void axis_ticks(FILE *o, const struct pb_axis *a, double x, double y,
		       double w, double h, int lab)
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
				double p = axis_pos(a, v);
				double ty = y + h - p * h;

				if (p < -1e-9 || p > 1 + 1e-9) {
					continue;
				}
				svg_line(o, x, ty, x + w, ty,
					 j == 0 ? "#d4d4d4" : "#ececec", 1);
				if (lab) {
					snprintf(t, sizeof(t), "%g", v);
					svg_text(o, x - 6, ty + 4, "end", 11,
						 "#333333", t);
				}
			}
		}
		return;
	}
	for (k = 0; (double)k * a->step <= a->hi * (1 + 1e-9); k++) {
		double v = (double)k * a->step;
		double ty = y + h - v / a->hi * h;

		svg_line(o, x, ty, x + w, ty, "#e4e4e4", 1);
		if (lab) {
			snprintf(t, sizeof(t), "%.6g", v);
			svg_text(o, x - 6, ty + 4, "end", 11, "#333333", t);
		}
	}
}

#define PB_LEFT 84.0
#define PB_TOP	64.0
#define PB_H	300.0
#define PB_GAP	46.0

/* The y label, title and subtitle of a plot of metric m. */
static void pb_labels(const cJSON *report, enum pb_metric m, char *title,
		      size_t tlen, char *ylab, size_t ylen, char *sub,
		      size_t slen)
{
	const cJSON *board = cJSON_GetObjectItemCaseSensitive(report, "board");
	const char *unit = hil_rj_unit(report);
	const char *what;

	if (m == PB_MODEL) {
		what = "cycles (estimated, model)";
	} else if (strcmp(unit, "cycles") == 0 &&
		   hil_rj_bool(board, "emulated") != 1) {
		what = "cycles (measured on the board)";
	} else {
		what = unit;
	}
	snprintf(title, tlen, "Cost per byte against message length, in %s",
		 what);
	snprintf(ylab, ylen, "%s per byte", what);
	snprintf(
		sub, slen,
		"%s%s; median of each row, whiskers from min to max; board %s%s; run %s",
		m == PB_MODEL ? hil_rj_str(cJSON_GetObjectItemCaseSensitive(
						   report, "cycle_model"),
					   "unit")
		: hil_rj_bool(board, "emulated") == 1
			? "counted by the emulator"
			: "counted by the board",
		m == PB_MODEL ? ", computed from the emulated instructions"
			      : "",
		hil_rj_str(board, "name"),
		hil_rj_bool(board, "emulated") == 1 ? " (emulated)" : "",
		hil_rj_str(cJSON_GetObjectItemCaseSensitive(report, "run"),
			   "id"));
}

static int pb_plot(const cJSON *report, enum pb_metric m, FILE *out)
{
	struct pb_plot pl;
	struct pb_axis ya;
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
			const struct pb_point *p = &pl.ps[i].p[j];

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
		double tw = text_w(pl.keys[i].name, 12) + 44;

		if (pl.keys[i].failed) {
			tw += text_w(" (failed rows left out)", 12);
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
	svg_begin(out, w, h, title);
	svg_title(out, 12, title, sub, w);

	lo = drawn ? floor(log2(minlen)) : 4;
	hi = drawn ? ceil(log2(maxlen)) : 10;
	if (hi <= lo) {
		lo -= 1;
		hi += 1;
	}
	axis_fit(&ya, ymin, ymax);
	if (ya.log) {
		size_t l = strlen(ylabel);

		snprintf(ylabel + l, sizeof(ylabel) - l, "%s", ", log scale");
	}
	svg_text_up(out, 18, PB_TOP + 24 + PB_H / 2, "middle", 12, ylabel);
	for (op = 0; op < (pl.nops ? pl.nops : 1); op++) {
		double x0 = PB_LEFT + (double)op * (pw + PB_GAP);
		double y0 = PB_TOP + 24;

		svg_text(out, x0 + pw / 2, y0 - 8, "middle", 13, "#222222",
			 pl.nops ? pl.ops[op] : "");
		fprintf(out,
			"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#fbfbfb\" stroke=\"#999999\"/>\n",
			x0, y0, pw, PB_H);
		axis_ticks(out, &ya, x0, y0, pw, PB_H, 1);
		for (k = (int)lo; k <= (int)hi; k++) {
			double x = x0 + ((double)k - lo) / (hi - lo) * pw;
			char lab[32];

			if ((hi - lo) > 8 && (k - (int)lo) % 2 != 0) {
				continue;
			}
			svg_line(out, x, y0, x, y0 + PB_H, "#e4e4e4", 1);
			svg_line(out, x, y0 + PB_H, x, y0 + PB_H + 4, "#666666",
				 1);
			hil_fmt_num(lab, sizeof(lab), pow(2, k));
			svg_text(out, x, y0 + PB_H + 16, "middle", 11,
				 "#333333", lab);
		}
		svg_text(out, x0 + pw / 2, y0 + PB_H + 34, "middle", 12,
			 "#222222", "message length (bytes, log scale)");
		if (drawn == 0) {
			svg_text(
				out, x0 + pw / 2, y0 + PB_H / 2, "middle", 13,
				"#aa0000",
				"no per-byte figures: no successful row with a message");
		}
		for (i = 0; i < pl.n; i++) {
			const struct pb_series *ps = &pl.ps[i];

			if (ps->n == 0 || ps->op != op) {
				continue;
			}
			colour(ps->key, col, sizeof(col));
#define PX(len) (x0 + (log2(len) - lo) / (hi - lo) * pw)
#define PY(v)	(y0 + PB_H - axis_pos(&ya, (v)) * PB_H)
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
				const struct pb_point *p = &ps->p[j];
				double x = PX(p->len);

				if (p->hi > p->lo) {
					svg_line(out, x, PY(p->lo), x,
						 PY(p->hi), col, 1);
					svg_line(out, x - 3, PY(p->lo), x + 3,
						 PY(p->lo), col, 1);
					svg_line(out, x - 3, PY(p->hi), x + 3,
						 PY(p->hi), col, 1);
				}
				marker(out, ps->key, x, PY(p->med), col);
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

		colour(i, col, sizeof(col));
		fprintf(out,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"1.8\"/>\n",
			lx, ly, lx + 26, ly, col);
		marker(out, i, lx + 13, ly, col);
		snprintf(name, sizeof(name), "%s%s", pl.keys[i].name,
			 pl.keys[i].failed ? " (failed rows left out)" : "");
		svg_text(out, lx + 32, ly + 4, "start", 12,
			 pl.keys[i].failed ? "#aa0000" : "#222222", name);
	}
	svg_end(out);
	pb_free(&pl);
	return hil_render_status(out);
}

/* 1 when the cycle model ran and gave a figure for some row. */
static int has_model(const cJSON *report)
{
	const cJSON *r;
	struct pb_point p;

	if (hil_rj_bool(cJSON_GetObjectItemCaseSensitive(report, "cycle_model"),
			"enabled") != 1) {
		return 0;
	}
	cJSON_ArrayForEach(r, hil_rj_rows(report))
	{
		if (hil_rj_row_ok(r) && pb_row(r, PB_MODEL, &p)) {
			return 1;
		}
	}
	return 0;
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

/* ---------------------------------------------------------------- sizes */

struct impl_sizes {
	const char *algorithm;
	const char *implementation;
	double v[3]; /* flash, RAM, stack */
	int have[3];
	char name[200];
};

static int impls_collect(const cJSON *report, struct impl_sizes **out,
			 size_t *nout)
{
	const cJSON *sizes = cJSON_GetObjectItemCaseSensitive(report, "sizes");
	const cJSON *rows = hil_rj_rows(report);
	const cJSON *e;
	size_t cap = (size_t)cJSON_GetArraySize(rows) + 1, n = 0, i;
	struct impl_sizes *im;

	if (cJSON_IsArray(sizes)) {
		cap += (size_t)cJSON_GetArraySize(sizes);
	}
	im = calloc(cap, sizeof(*im));
	if (im == NULL) {
		return HIL_ERR_NOMEM;
	}
	/* Implementations from sizes[] first, then any only seen in rows. */
	if (cJSON_IsArray(sizes)) {
		cJSON_ArrayForEach(e, sizes)
		{
			im[n].algorithm = hil_rj_str(e, "algorithm");
			im[n].implementation = hil_rj_str(e, "implementation");
			n++;
		}
	}
	cJSON_ArrayForEach(e, rows)
	{
		const char *a = hil_rj_str(e, "algorithm");
		const char *b = hil_rj_str(e, "implementation");

		for (i = 0; i < n; i++) {
			if (strcmp(im[i].algorithm, a) == 0 &&
			    strcmp(im[i].implementation, b) == 0) {
				break;
			}
		}
		if (i == n) {
			im[n].algorithm = a;
			im[n].implementation = b;
			n++;
		}
	}
	for (i = 0; i < n; i++) {
		const cJSON *z = hil_rj_impl_size(report, im[i].algorithm,
						  im[i].implementation);

		snprintf(im[i].name, sizeof(im[i].name), "%s/%s",
			 im[i].algorithm, im[i].implementation);
		im[i].have[0] = hil_rj_num(z, "flash_bytes", &im[i].v[0]);
		im[i].have[1] = hil_rj_num(z, "ram_bytes", &im[i].v[1]);
		im[i].have[2] =
			hil_rj_stack(report, im[i].algorithm,
				     im[i].implementation, NULL, &im[i].v[2]);
	}
	*out = im;
	*nout = n;
	return HIL_OK;
}

int hil_svg_sizes(const cJSON *report, FILE *out)
{
	static const char *const fill[] = {"#4e79a7", "#59a14f", "#f28e2b"};
	const double pw = 300, gap = 60, rowh = 22, top = 100, bar_room = 230;
	struct impl_sizes *im = NULL;
	double label_w = 120, w, h, flash, ram, stack;
	char sub[400];
	size_t n = 0, i;
	int p, ret;

	ret = impls_collect(report, &im, &n);
	if (ret != HIL_OK) {
		return ret;
	}
	for (i = 0; i < n; i++) {
		if (text_w(im[i].name, 12) + 20 > label_w) {
			label_w = text_w(im[i].name, 12) + 20;
		}
	}
	w = label_w + 2 * pw + gap + 90;
	h = top + rowh * (double)(n ? n : 1) + 46;
	if (hil_rj_image(report, &flash, &ram, &stack)) {
		snprintf(
			sub, sizeof(sub),
			"own code and data of each implementation (linker map); stack: largest peak of one call (painting); whole image %.0f B flash, %.0f B RAM",
			flash, ram);
	} else {
		snprintf(
			sub, sizeof(sub), "%s",
			"own code and data of each implementation (linker map); stack: largest peak of one call (painting)");
	}
	svg_begin(out, w, h, "Flash and RAM per implementation (bytes)");
	svg_title(out, 12, "Flash and RAM per implementation (bytes)", sub, w);
	for (i = 0; i < n; i++) {
		svg_text(out, label_w - 10, top + rowh * (double)i + 15, "end",
			 12, "#222222", im[i].name);
	}
	if (n == 0) {
		svg_text(out, 12, top + 15, "start", 12, "#aa0000",
			 "no implementations in this report");
	}
	/* Panel 0: flash. Panel 1: RAM = static data + peak stack, stacked. */
	for (p = 0; p < 2; p++) {
		double x0 = label_w + (double)p * (pw + gap), max = 0, step,
		       top_v;
		double base = top + rowh * (double)n;
		int k;

		for (i = 0; i < n; i++) {
			double v = p == 0 ? (im[i].have[0] ? im[i].v[0] : 0)
					  : (im[i].have[1] ? im[i].v[1] : 0) +
						    (im[i].have[2] ? im[i].v[2]
								   : 0);

			if (v > max) {
				max = v;
			}
		}
		step = nice_step(max > 0 ? max : 1);
		top_v = max > 0 ? ceil(max / step) * step : 5 * step;
		svg_text(out, x0, top - 30, "start", 13, "#222222",
			 p == 0 ? "Flash (B): code + constant data"
				: "RAM (B): static data + peak stack");
		if (p == 1) {
			fprintf(out,
				"<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" fill=\"%s\"/>\n",
				x0, top - 21, fill[1]);
			svg_text(out, x0 + 14, top - 12, "start", 11, "#333333",
				 "static (linker map)");
			fprintf(out,
				"<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" fill=\"%s\"/>\n",
				x0 + 130, top - 21, fill[2]);
			svg_text(out, x0 + 144, top - 12, "start", 11,
				 "#333333", "peak stack (painting)");
		}
		/* The value axis, with ticks, under the bars. */
		for (k = 0; (double)k * step <= top_v * (1 + 1e-9); k++) {
			double x = x0 + (double)k * step / top_v * bar_room;
			char lab[32];

			svg_line(out, x, top - 4, x, base, "#eeeeee", 1);
			svg_line(out, x, base, x, base + 4, "#666666", 1);
			snprintf(lab, sizeof(lab), "%.6g", (double)k * step);
			svg_text(out, x, base + 16, "middle", 10, "#333333",
				 lab);
		}
		svg_line(out, x0, top - 4, x0, base, "#666666", 1);
		svg_line(out, x0, base, x0 + bar_room, base, "#666666", 1);
		svg_text(out, x0 + bar_room / 2, base + 32, "middle", 11,
			 "#222222", "bytes");
		for (i = 0; i < n; i++) {
			double y = top + rowh * (double)i + 4, x = x0;
			char val[80];
			int part;

			if (p == 0 && !im[i].have[0]) {
				svg_text(out, x0 + 4, y + 11, "start", 11,
					 "#888888", "unknown");
				continue;
			}
			if (p == 1 && !im[i].have[1] && !im[i].have[2]) {
				svg_text(out, x0 + 4, y + 11, "start", 11,
					 "#888888", "unknown");
				continue;
			}
			for (part = p == 0 ? 0 : 1; part <= (p == 0 ? 0 : 2);
			     part++) {
				double bw = im[i].have[part]
						    ? im[i].v[part] / top_v *
							      bar_room
						    : 0;

				fprintf(out,
					"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"14\" fill=\"%s\"><title>",
					x, y, bw, fill[part]);
				hil_xml_puts(out, im[i].name);
				fprintf(out, ": %s %.0f B</title></rect>\n",
					part == 0   ? "flash"
					: part == 1 ? "static RAM"
						    : "peak stack",
					im[i].v[part]);
				x += bw;
			}
			if (p == 0) {
				snprintf(val, sizeof(val), "%.0f", im[i].v[0]);
			} else if (!im[i].have[2]) {
				snprintf(val, sizeof(val),
					 "%.0f (stack not measured)",
					 im[i].v[1]);
			} else {
				snprintf(val, sizeof(val), "%.0f (%.0f + %.0f)",
					 im[i].v[1] + im[i].v[2], im[i].v[1],
					 im[i].v[2]);
			}
			svg_text(out, x + 4, y + 11, "start", 11, "#333333",
				 val);
		}
	}
	svg_end(out);
	free(im);
	return hil_render_status(out);
}

/* ---------------------------------------------------------------- figures */

const char *hil_fig_what(const cJSON *report)
{
	const cJSON *board = cJSON_GetObjectItemCaseSensitive(report, "board");
	const char *unit = hil_rj_unit(report);

	if (has_model(report)) {
		return "cycles (estimated, model)";
	}
	if (strcmp(unit, "cycles") == 0 &&
	    hil_rj_bool(board, "emulated") != 1) {
		return "cycles (measured on the board)";
	}
	return unit;
}

int hil_fig_per_byte(const cJSON *report, const cJSON *row, double *v)
{
	struct pb_point p;

	if (!hil_rj_row_ok(row) ||
	    !pb_row(row, has_model(report) ? PB_MODEL : PB_COUNTER, &p)) {
		return 0;
	}
	*v = p.med;
	return 1;
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

/* ---------------------------------------------------------------- sweep */

static const char *sw_name(const cJSON *report)
{
	const cJSON *run = cJSON_GetObjectItemCaseSensitive(report, "run");
	const char *name = hil_rj_str(run, "config_name");

	return name[0] != '\0' ? name : hil_rj_str(run, "id");
}

void hil_sweep_label(const cJSON *const *reports, size_t n, size_t i, char *buf,
		     size_t len)
{
	size_t j;

	for (j = 0; j < n; j++) {
		if (j != i &&
		    strcmp(sw_name(reports[j]), sw_name(reports[i])) == 0) {
			snprintf(buf, len, "%s, run %s", sw_name(reports[i]),
				 hil_rj_str(cJSON_GetObjectItemCaseSensitive(
						    reports[i], "run"),
					    "id"));
			return;
		}
	}
	snprintf(buf, len, "%s", sw_name(reports[i]));
}

/* The series of every report, each once, in first-seen order. */
int hil_sweep_series(const cJSON *const *reports, size_t n,
		     struct hil_series **out, size_t *nout)
{
	struct hil_series *all = NULL;
	size_t na = 0, i, j, k;
	int ret = HIL_OK;

	*out = NULL;
	*nout = 0;
	for (i = 0; i < n && ret == HIL_OK; i++) {
		struct hil_series *s = NULL, *grown;
		size_t ns = 0;

		ret = hil_series_list(reports[i], &s, &ns);
		if (ret != HIL_OK || ns == 0) {
			free(s);
			continue;
		}
		grown = realloc(all, (na + ns) * sizeof(*all));
		if (grown == NULL) {
			free(s);
			ret = HIL_ERR_NOMEM;
			break;
		}
		all = grown;
		for (j = 0; j < ns; j++) {
			for (k = 0; k < na; k++) {
				if (strcmp(all[k].algorithm, s[j].algorithm) ==
					    0 &&
				    strcmp(all[k].implementation,
					   s[j].implementation) == 0 &&
				    strcmp(all[k].operation, s[j].operation) ==
					    0 &&
				    all[k].ad_len == s[j].ad_len) {
					break;
				}
			}
			if (k == na) {
				all[na++] = s[j];
			}
		}
		free(s);
	}
	if (ret != HIL_OK) {
		free(all);
		return ret;
	}
	*out = all;
	*nout = na;
	return HIL_OK;
}

#define SW_PW	  250.0 /* plot area of one panel */
#define SW_PH	  150.0
#define SW_CELL_W 330.0 /* panel with its axis labels */
#define SW_CELL_H 230.0
#define SW_COLS	  4
#define SW_LEFT	  12.0

/* One panel: series s of every report, per byte against length. */
static void sw_panel(FILE *out, const cJSON *const *reports, size_t n,
		     const struct hil_series *s, double x0, double y0,
		     double lo, double hi, const char *ylab)
{
	struct pb_axis ya;
	double ymin = 0, ymax = 0;
	char name[256], col[32];
	size_t i;
	int any = 0, k;

	for (i = 0; i < n; i++) {
		const cJSON *r;

		cJSON_ArrayForEach(r, hil_rj_rows(reports[i]))
		{
			double v;

			if (hil_series_has(s, r) &&
			    hil_fig_per_byte(reports[i], r, &v)) {
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
	svg_text(out, x0, y0 - 10, "start", 12, "#222222", name);
	fprintf(out,
		"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#fbfbfb\" stroke=\"#999999\"/>\n",
		x0, y0, SW_PW, SW_PH);
	if (!any) {
		svg_text(out, x0 + SW_PW / 2, y0 + SW_PH / 2, "middle", 11,
			 "#888888", "no per-byte figures");
		return;
	}
	axis_fit(&ya, ymin, ymax);
	axis_ticks(out, &ya, x0, y0, SW_PW, SW_PH, 1);
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
		svg_line(out, x, y0 + SW_PH, x, y0 + SW_PH + 4, "#666666", 1);
		hil_fmt_num(lab, sizeof(lab), pow(2, k));
		svg_text(out, x, y0 + SW_PH + 15, "middle", 10, "#333333", lab);
	}
	svg_text(out, x0 + SW_PW / 2, y0 + SW_PH + 30, "middle", 10, "#444444",
		 ya.log ? "message length (B); y: log scale"
			: "message length (B)");
	for (i = 0; i < n; i++) {
		struct pb_point *p;
		const cJSON *r;
		size_t np = 0, j;

		p = calloc((size_t)cJSON_GetArraySize(hil_rj_rows(reports[i])) +
				   1,
			   sizeof(*p));
		if (p == NULL) {
			return;
		}
		cJSON_ArrayForEach(r, hil_rj_rows(reports[i]))
		{
			double v;

			if (hil_series_has(s, r) &&
			    hil_fig_per_byte(reports[i], r, &v)) {
				hil_rj_num(r, "msg_len", &p[np].len);
				p[np].med = v;
				np++;
			}
		}
		qsort(p, np, sizeof(*p), cmp_point);
		colour(i, col, sizeof(col));
#define PX(len) (x0 + (log2(len) - lo) / (hi - lo) * SW_PW)
#define PY(v)	(y0 + SW_PH - axis_pos(&ya, (v)) * SW_PH)
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
				marker(out, i, PX(p[j].len), PY(p[j].med), col);
			}
			fputs("</g>\n", out);
		}
#undef PX
#undef PY
		free(p);
	}
}

/* Static RAM + the largest peak stack of an implementation in a report. */
static int sw_ram(const cJSON *report, const char *alg, const char *impl,
		  double *v)
{
	double ram, stack;

	if (!hil_rj_num(hil_rj_impl_size(report, alg, impl), "ram_bytes",
			&ram) ||
	    !hil_rj_stack(report, alg, impl, NULL, &stack)) {
		return 0;
	}
	*v = ram + stack;
	return 1;
}

/* Horizontal grouped bars: one group per implementation, a bar per
 * configuration, on one value axis. what: 0 flash, 1 RAM (static+stack). */
static double sw_bars(FILE *out, const cJSON *const *reports, size_t n,
		      int what, double x0, double y0, double label_w)
{
	/* A group at least as tall as its label. */
	const double bar_h = n >= 2 ? 7 : 14, room = 300;
	struct hil_series *s = NULL;
	size_t ns = 0, i, j, k, ng = 0;
	const char *seen[256][2];
	double max = 0, step, top, y;
	char col[32];

	if (hil_sweep_series(reports, n, &s, &ns) != HIL_OK) {
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
#define SW_VAL(rep, g, v)                                                      \
	(what == 0 ? hil_rj_num(hil_rj_impl_size(rep, seen[g][0], seen[g][1]), \
				"flash_bytes", v)                              \
		   : sw_ram(rep, seen[g][0], seen[g][1], v))
	for (k = 0; k < ng; k++) {
		for (i = 0; i < n; i++) {
			double v;

			if (SW_VAL(reports[i], k, &v) && v > max) {
				max = v;
			}
		}
	}
	step = nice_step(max > 0 ? max : 1);
	top = max > 0 ? ceil(max / step) * step : 5 * step;
	svg_text(out, x0, y0, "start", 13, "#222222",
		 what == 0 ? "Flash (B): code + constant data"
			   : "RAM (B): static data + peak stack");
	y = y0 + 14;
	for (k = 0; k < ng; k++) {
		char name[200];

		snprintf(name, sizeof(name), "%s/%s", seen[k][0], seen[k][1]);
		svg_text(out, x0 + label_w - 8, y + (double)n * bar_h / 2 + 4,
			 "end", 11, "#222222", name);
		for (i = 0; i < n; i++) {
			double v;

			colour(i, col, sizeof(col));
			if (SW_VAL(reports[i], k, &v)) {
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

		svg_line(out, x, y0 + 10, x, y, "#e4e4e4", 1);
		snprintf(lab, sizeof(lab), "%.6g", (double)k * step);
		svg_text(out, x, y + 14, "middle", 10, "#333333", lab);
	}
	svg_line(out, x0 + label_w, y0 + 10, x0 + label_w, y, "#666666", 1);
	svg_text(out, x0 + label_w + room / 2, y + 30, "middle", 11, "#222222",
		 "bytes");
	return y + 40;
}

int hil_svg_sweep(const cJSON *const *reports, size_t n, FILE *out)
{
	struct hil_series *s = NULL;
	size_t ns = 0, i, with = 0, rows_p, cols;
	double minlen = 0, maxlen = 0, lo, hi, w, h, label_w = 150, y, legend_w;
	char title[256], sub[600], what[200], col[32], ylab[200];
	int comparable, ret, drawn = 0;
	size_t impls = 0, j;

	if (n == 0) {
		return HIL_ERR_ARG;
	}
	comparable = hil_fig_comparable(reports, n);
	ret = hil_sweep_series(reports, n, &s, &ns);
	if (ret != HIL_OK) {
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
			const cJSON *r;
			double len;

			cJSON_ArrayForEach(r, hil_rj_rows(reports[k]))
			{
				if (hil_series_has(&s[i], r) &&
				    hil_rj_num(r, "msg_len", &len) && len > 0) {
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
		if (text_w(s[i].implementation, 11) +
			    text_w(s[i].algorithm, 11) + 30 >
		    label_w) {
			label_w = text_w(s[i].implementation, 11) +
				  text_w(s[i].algorithm, 11) + 30;
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
		tw = text_w(what, 12) + 44;
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
	svg_begin(out, w, h, title);
	svg_title(out, SW_LEFT, title, sub, w);
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
		colour(i, col, sizeof(col));
		fprintf(out,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"1.8\"/>\n",
			SW_LEFT + 8, ly - 4, SW_LEFT + 34, ly - 4, col);
		marker(out, i, SW_LEFT + 21, ly - 4, col);
		svg_text(out, SW_LEFT + 40, ly, "start", 12, "#222222",
			 comparable ? what : lab);
	}
	for (i = 0; i < with; i++) {
		double x0 = SW_LEFT + 60 + SW_CELL_W * (double)(i % cols);
		double y0 = y + 24 + SW_CELL_H * (double)(i / cols);

		sw_panel(out, reports, n, &s[i], x0, y0, lo, hi, ylab);
	}
	y += SW_CELL_H * (double)rows_p + 30;
	{
		double y1 = sw_bars(out, reports, n, 0, SW_LEFT, y, label_w);
		double y2 = sw_bars(out, reports, n, 1, SW_LEFT + label_w + 360,
				    y, label_w);

		(void)y1;
		(void)y2;
	}
	svg_end(out);
	free(s);
	return hil_render_status(out);
}
