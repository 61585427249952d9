/* svg: our own small SVG writer: per-byte cost, sizes, and sweep bars. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"report"
#include "render_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"

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

/* Past ten series the colours repeat with a dash pattern. */
static const char *dash(size_t i)
{
	static const char *const d[] = {"none", "6 3", "2 2", "8 3 2 3"};

	return d[(i / N_PALETTE) % (sizeof(d) / sizeof(d[0]))];
}

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

static void svg_title(FILE *o, double x, const char *title,
		      const char *subtitle)
{
	fprintf(o,
		"<text x=\"%.1f\" y=\"22\" font-size=\"15\" font-weight=\"bold\" fill=\"#222222\">",
		x);
	hil_xml_puts(o, title);
	fputs("</text>\n", o);
	svg_text(o, x, 40, "start", 11, "#555555", subtitle);
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

struct pb_point {
	double len, med, lo, hi; /* per byte */
};

struct pb_series {
	struct hil_series s;
	struct pb_point *p;
	size_t n;
	int failed;
	char name[256];
};

static int cmp_point(const void *a, const void *b)
{
	const struct pb_point *x = a, *y = b;

	return (x->len > y->len) - (x->len < y->len);
}

static int pb_collect(const cJSON *report, struct pb_series **out, size_t *nout)
{
	struct hil_series *series = NULL;
	struct pb_series *ps = NULL;
	int nrows = cJSON_GetArraySize(hil_rj_rows(report));
	size_t n = 0, i;
	int ret;

	*out = NULL;
	*nout = 0;
	ret = hil_series_list(report, &series, &n);
	if (ret != HIL_OK || n == 0) {
		return ret;
	}
	ps = calloc(n, sizeof(*ps));
	if (ps == NULL) {
		free(series);
		return HIL_ERR_NOMEM;
	}
	for (i = 0; i < n; i++) {
		const cJSON *r;

		ps[i].s = series[i];
		hil_series_name(&series[i], ps[i].name, sizeof(ps[i].name));
		ps[i].p = calloc((size_t)nrows, sizeof(*ps[i].p));
		if (ps[i].p == NULL) {
			ret = HIL_ERR_NOMEM;
			break;
		}
		cJSON_ArrayForEach(r, hil_rj_rows(report))
		{
			struct pb_point *p = &ps[i].p[ps[i].n];
			double med, mn, mx;

			if (!hil_series_has(&series[i], r)) {
				continue;
			}
			if (!hil_rj_row_ok(r)) {
				ps[i].failed = 1;
				continue;
			}
			/* Rows without a message have no per-byte figure. */
			if (!hil_rj_num(r, "msg_len", &p->len) || p->len <= 0 ||
			    !hil_rj_num(r, "median", &med)) {
				continue;
			}
			if (!hil_rj_num(r, "min", &mn)) {
				mn = med;
			}
			if (!hil_rj_num(r, "max", &mx)) {
				mx = med;
			}
			p->med = med / p->len;
			p->lo = mn / p->len;
			p->hi = mx / p->len;
			ps[i].n++;
		}
		qsort(ps[i].p, ps[i].n, sizeof(*ps[i].p), cmp_point);
	}
	free(series);
	*out = ps;
	*nout = n;
	return ret;
}

static void pb_free(struct pb_series *ps, size_t n)
{
	size_t i;

	for (i = 0; ps != NULL && i < n; i++) {
		free(ps[i].p);
	}
	free(ps);
}

#define PB_LEFT 84.0
#define PB_TOP	60.0
#define PB_W	560.0
#define PB_H	340.0

int hil_svg_per_byte(const cJSON *report, FILE *out)
{
	const char *unit = hil_rj_unit(report);
	const cJSON *board = cJSON_GetObjectItemCaseSensitive(report, "board");
	struct pb_series *ps = NULL;
	size_t n = 0, i, j, drawn = 0, shown = 0, legend_n = 0;
	double minlen = 0, maxlen = 0, ymax = 0, lo, hi, step, top;
	double legend_x = PB_LEFT + PB_W + 28, legend_w = 200, w, h;
	char title[256], sub[512], ylabel[160];
	int ret, k;

	ret = pb_collect(report, &ps, &n);
	if (ret != HIL_OK) {
		pb_free(ps, n);
		return ret;
	}
	for (i = 0; i < n; i++) {
		double tw = text_w(ps[i].name, 12) + 40;

		if (ps[i].failed) {
			tw += text_w(" (failed rows left out)", 12);
		}
		if (ps[i].failed || ps[i].n > 0) {
			legend_n++;
		}
		if (tw > legend_w) {
			legend_w = tw;
		}
		for (j = 0; j < ps[i].n; j++) {
			const struct pb_point *p = &ps[i].p[j];

			if (drawn == 0 || p->len < minlen) {
				minlen = p->len;
			}
			if (drawn == 0 || p->len > maxlen) {
				maxlen = p->len;
			}
			if (p->hi > ymax) {
				ymax = p->hi;
			}
			drawn++;
		}
	}
	w = legend_x + legend_w;
	h = PB_TOP + PB_H + 64;
	if (PB_TOP + 24 + 18.0 * (double)legend_n > h) {
		h = PB_TOP + 24 + 18.0 * (double)legend_n;
	}
	snprintf(title, sizeof(title),
		 "Cost per byte against message length, in %s", unit);
	snprintf(
		sub, sizeof(sub),
		"median of each row, whiskers from min to max; board %s%s; run %s",
		hil_rj_str(board, "name"),
		hil_rj_bool(board, "emulated") == 1 ? " (emulated)" : "",
		hil_rj_str(cJSON_GetObjectItemCaseSensitive(report, "run"),
			   "id"));
	svg_begin(out, w, h, title);
	svg_title(out, 12, title, sub);

	/* Axes: log2 x from one power of two to another, linear y from 0. */
	lo = drawn ? floor(log2(minlen)) : 4;
	hi = drawn ? ceil(log2(maxlen)) : 10;
	if (hi <= lo) {
		lo -= 1;
		hi += 1;
	}
	step = nice_step(ymax > 0 ? ymax : 1);
	top = ymax > 0 ? ceil(ymax / step) * step : 5 * step;
	fprintf(out,
		"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#fbfbfb\" stroke=\"#999999\"/>\n",
		PB_LEFT, PB_TOP, PB_W, PB_H);
	for (k = (int)lo; k <= (int)hi; k++) {
		double x = PB_LEFT + ((double)k - lo) / (hi - lo) * PB_W;
		char lab[32];

		if ((hi - lo) > 12 && (k - (int)lo) % 2 != 0) {
			continue;
		}
		svg_line(out, x, PB_TOP, x, PB_TOP + PB_H, "#e4e4e4", 1);
		hil_fmt_num(lab, sizeof(lab), pow(2, k));
		svg_text(out, x, PB_TOP + PB_H + 16, "middle", 11, "#333333",
			 lab);
	}
	for (k = 0; (double)k * step <= top * (1 + 1e-9); k++) {
		double v = (double)k * step;
		double y = PB_TOP + PB_H - v / top * PB_H;
		char lab[32];

		snprintf(lab, sizeof(lab), "%.6g", v);
		svg_line(out, PB_LEFT, y, PB_LEFT + PB_W, y, "#e4e4e4", 1);
		svg_text(out, PB_LEFT - 6, y + 4, "end", 11, "#333333", lab);
	}
	svg_text(out, PB_LEFT + PB_W / 2, PB_TOP + PB_H + 36, "middle", 12,
		 "#222222", "message length (bytes, log2 scale)");
	snprintf(ylabel, sizeof(ylabel), "%s per byte", unit);
	svg_text_up(out, 18, PB_TOP + PB_H / 2, "middle", 12, ylabel);
	if (drawn == 0) {
		svg_text(
			out, PB_LEFT + PB_W / 2, PB_TOP + PB_H / 2, "middle",
			13, "#aa0000",
			"no per-byte figures: no successful row with a message");
	}

	for (i = 0; i < n; i++) {
		const char *col = palette[shown % N_PALETTE];
		double ly = PB_TOP + 10 + 18.0 * (double)shown;
		char name[320];

		/* A key setup has no message: its cost is in the tables. */
		if (ps[i].n == 0 && !ps[i].failed) {
			continue;
		}

#define PX(len) (PB_LEFT + (log2(len) - lo) / (hi - lo) * PB_W)
#define PY(v)	(PB_TOP + PB_H - (v) / top * PB_H)
		if (ps[i].n > 0) {
			fprintf(out, "<g stroke=\"%s\" fill=\"%s\"><title>",
				col, col);
			hil_xml_puts(out, ps[i].name);
			fputs("</title>\n", out);
			fprintf(out,
				"<polyline fill=\"none\" stroke-width=\"1.8\" stroke-dasharray=\"%s\" points=\"",
				dash(shown));
			for (j = 0; j < ps[i].n; j++) {
				fprintf(out, "%s%.1f,%.1f", j ? " " : "",
					PX(ps[i].p[j].len), PY(ps[i].p[j].med));
			}
			fputs("\"/>\n", out);
			for (j = 0; j < ps[i].n; j++) {
				const struct pb_point *p = &ps[i].p[j];
				double x = PX(p->len);

				if (p->hi > p->lo) {
					svg_line(out, x, PY(p->lo), x,
						 PY(p->hi), col, 1);
					svg_line(out, x - 3, PY(p->lo), x + 3,
						 PY(p->lo), col, 1);
					svg_line(out, x - 3, PY(p->hi), x + 3,
						 PY(p->hi), col, 1);
				}
				fprintf(out,
					"<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\"/>\n",
					x, PY(p->med));
			}
			fputs("</g>\n", out);
		}
#undef PX
#undef PY
		/* Legend entry: a line sample with a marker, then the name. */
		fprintf(out,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"1.8\" stroke-dasharray=\"%s\"/>\n",
			legend_x, ly, legend_x + 24, ly, col, dash(shown));
		fprintf(out,
			"<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n",
			legend_x + 12, ly, col);
		snprintf(name, sizeof(name), "%s%s", ps[i].name,
			 ps[i].failed ? " (failed rows left out)" : "");
		svg_text(out, legend_x + 30, ly + 4, "start", 12,
			 ps[i].failed ? "#aa0000" : "#222222", name);
		shown++;
	}
	svg_end(out);
	pb_free(ps, n);
	return hil_render_status(out);
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
	static const char *const panel[] = {"Flash (B)", "RAM (B)",
					    "Stack (B)"};
	static const char *const fill[] = {"#4e79a7", "#59a14f", "#f28e2b"};
	const double pw = 230, gap = 36, rowh = 22, top = 84, bar_room = 170;
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
	w = label_w + 3 * pw + 2 * gap + 12;
	h = top + rowh * (double)(n ? n : 1) + 40;
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
	svg_begin(out, w, h, "Flash, RAM and stack per implementation (bytes)");
	svg_title(out, 12, "Flash, RAM and stack per implementation (bytes)",
		  sub);
	for (i = 0; i < n; i++) {
		svg_text(out, label_w - 10, top + rowh * (double)i + 15, "end",
			 12, "#222222", im[i].name);
	}
	if (n == 0) {
		svg_text(out, 12, top + 15, "start", 12, "#aa0000",
			 "no implementations in this report");
	}
	for (p = 0; p < 3; p++) {
		double x0 = label_w + (double)p * (pw + gap), max = 0;

		for (i = 0; i < n; i++) {
			if (im[i].have[p] && im[i].v[p] > max) {
				max = im[i].v[p];
			}
		}
		fprintf(out,
			"<text x=\"%.1f\" y=\"%.1f\" font-weight=\"bold\" fill=\"#222222\">%s</text>\n",
			x0, top - 12, panel[p]);
		svg_line(out, x0, top - 4, x0, top + rowh * (double)n,
			 "#666666", 1);
		for (i = 0; i < n; i++) {
			double y = top + rowh * (double)i + 4;
			double bw = max > 0 && im[i].have[p]
					    ? im[i].v[p] / max * bar_room
					    : 0;
			char val[40];

			if (!im[i].have[p]) {
				svg_text(out, x0 + 4, y + 11, "start", 11,
					 "#888888",
					 p == 2 ? "not measured" : "unknown");
				continue;
			}
			fprintf(out,
				"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"14\" fill=\"%s\"><title>",
				x0, y, bw, fill[p]);
			hil_xml_puts(out, im[i].name);
			fprintf(out, ": %.0f B</title></rect>\n", im[i].v[p]);
			snprintf(val, sizeof(val), "%.0f", im[i].v[p]);
			svg_text(out, x0 + bw + 4, y + 11, "start", 11,
				 "#333333", val);
		}
	}
	svg_end(out);
	free(im);
	return hil_render_status(out);
}

/* ---------------------------------------------------------------- sweep */

#define SW_MAX_METRICS 256

struct sw_metric {
	char name[200]; /* first label line: what */
	char what[120]; /* second line: the figure and its unit */
	double *v;	/* n values */
	int *have;
};

static struct sw_metric *sw_add(struct sw_metric *m, size_t *nm, size_t n,
				const char *name, const char *what)
{
	size_t i;

	for (i = 0; i < *nm; i++) {
		if (strcmp(m[i].name, name) == 0 &&
		    strcmp(m[i].what, what) == 0) {
			return &m[i];
		}
	}
	if (*nm == SW_MAX_METRICS) {
		return NULL;
	}
	m = &m[(*nm)];
	snprintf(m->name, sizeof(m->name), "%s", name);
	snprintf(m->what, sizeof(m->what), "%s", what);
	m->v = calloc(n, sizeof(*m->v));
	m->have = calloc(n, sizeof(*m->have));
	if (m->v == NULL || m->have == NULL) {
		free(m->v);
		free(m->have);
		return NULL;
	}
	(*nm)++;
	return m;
}

static void sw_set(struct sw_metric *m, size_t i, double v)
{
	if (m != NULL) {
		m->v[i] = v;
		m->have[i] = 1;
	}
}

/* The longest msg_len of series s over every report. */
static double sw_longest(const cJSON *const *reports, size_t n,
			 const struct hil_series *s)
{
	double longest = 0, len;
	size_t i;

	for (i = 0; i < n; i++) {
		const cJSON *r;

		cJSON_ArrayForEach(r, hil_rj_rows(reports[i]))
		{
			if (hil_series_has(s, r) &&
			    hil_rj_num(r, "msg_len", &len) && len > longest) {
				longest = len;
			}
		}
	}
	return longest;
}

static int sw_collect(const cJSON *const *reports, size_t n,
		      struct sw_metric *m, size_t *nm, int same_unit)
{
	size_t i, j;
	int ret = HIL_OK;

	for (i = 0; i < n; i++) {
		const cJSON *e, *z;
		double flash, ram, stack;

		if (hil_rj_image(reports[i], &flash, &ram, &stack)) {
			sw_set(sw_add(m, nm, n, "whole image", "flash (B)"), i,
			       flash);
			sw_set(sw_add(m, nm, n, "whole image", "RAM (B)"), i,
			       ram);
		}
		e = cJSON_GetObjectItemCaseSensitive(reports[i], "sizes");
		if (!cJSON_IsArray(e)) {
			continue;
		}
		cJSON_ArrayForEach(z, e)
		{
			char name[200];
			double v;

			snprintf(name, sizeof(name), "%s/%s",
				 hil_rj_str(z, "algorithm"),
				 hil_rj_str(z, "implementation"));
			if (hil_rj_num(z, "flash_bytes", &v)) {
				sw_set(sw_add(m, nm, n, name, "flash (B)"), i,
				       v);
			}
		}
	}
	if (!same_unit) {
		return HIL_OK;
	}
	for (i = 0; i < n && ret == HIL_OK; i++) {
		struct hil_series *s = NULL;
		size_t ns = 0;

		ret = hil_series_list(reports[i], &s, &ns);
		for (j = 0; ret == HIL_OK && j < ns; j++) {
			double L = sw_longest(reports, n, &s[j]);
			char name[200], what[120];
			size_t k;

			if (L <= 0) {
				continue;
			}
			hil_series_name(&s[j], name, sizeof(name));
			snprintf(what, sizeof(what), "%s/byte @%.0f B",
				 hil_rj_unit(reports[0]), L);
			/* Each configuration's figure at that length. */
			for (k = 0; k < n; k++) {
				const cJSON *r;
				double len, v;

				cJSON_ArrayForEach(r, hil_rj_rows(reports[k]))
				{
					if (hil_series_has(&s[j], r) &&
					    hil_rj_row_ok(r) &&
					    hil_rj_num(r, "msg_len", &len) &&
					    len == L &&
					    hil_rj_row_per_byte(r, &v)) {
						sw_set(sw_add(m, nm, n, name,
							      what),
						       k, v);
					}
				}
			}
		}
		free(s);
	}
	return ret;
}

static const char *sw_name(const cJSON *report)
{
	const cJSON *run = cJSON_GetObjectItemCaseSensitive(report, "run");
	const char *name = hil_rj_str(run, "config_name");

	return name[0] != '\0' ? name : hil_rj_str(run, "id");
}

/* The configuration's name, with the run id when another has the same. */
static void sw_label(const cJSON *const *reports, size_t n, size_t i, char *buf,
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

int hil_svg_sweep(const cJSON *const *reports, size_t n, FILE *out)
{
	const double bar_w = 14, bar_gap = 3, bar_room = 110, strip_h = 230;
	const double max_w = 1180;
	struct sw_metric *m;
	size_t nm = 0, i, j, per_strip, strips;
	double group_w, w, h, legend_h;
	char title[256], sub[400];
	int same_unit = 1, ret;

	if (n == 0) {
		return HIL_ERR_ARG;
	}
	for (i = 1; i < n; i++) {
		if (strcmp(hil_rj_unit(reports[i]), hil_rj_unit(reports[0])) !=
		    0) {
			same_unit = 0;
		}
	}
	m = calloc(SW_MAX_METRICS, sizeof(*m));
	if (m == NULL) {
		return HIL_ERR_NOMEM;
	}
	ret = sw_collect(reports, n, m, &nm, same_unit);
	if (ret != HIL_OK) {
		goto out;
	}
	/* Wide enough for the bars and for both lines of every label. */
	group_w = (double)n * (bar_w + bar_gap) + 24;
	for (j = 0; j < nm; j++) {
		double tw = text_w(m[j].name, 10) + 18;

		if (text_w(m[j].what, 10) + 18 > tw) {
			tw = text_w(m[j].what, 10) + 18;
		}
		if (tw > group_w) {
			group_w = tw;
		}
	}
	per_strip = (size_t)((max_w - 40) / group_w);
	if (per_strip == 0) {
		per_strip = 1;
	}
	strips = nm ? (nm + per_strip - 1) / per_strip : 1;
	legend_h = 20 + 18.0 * (double)n;
	w = 40 + group_w * (double)(nm < per_strip ? (nm ? nm : 1) : per_strip);
	if (w < 520) {
		w = 520;
	}
	h = 56 + legend_h + strip_h * (double)strips + 10;
	snprintf(title, sizeof(title), "Sweep of %zu configurations", n);
	if (same_unit) {
		snprintf(
			sub, sizeof(sub),
			"one bar per configuration, each group scaled to its largest value; counter unit: %s",
			hil_rj_unit(reports[0]));
	} else {
		snprintf(
			sub, sizeof(sub), "%s",
			"one bar per configuration, each group scaled to its largest value; the configurations count in different units, so per-byte figures are left out");
	}
	svg_begin(out, w, h, title);
	svg_title(out, 12, title, sub);
	for (i = 0; i < n; i++) {
		char lab[200];
		double y = 56 + 14 + 18.0 * (double)i;

		sw_label(reports, n, i, lab, sizeof(lab));
		fprintf(out,
			"<rect x=\"20\" y=\"%.1f\" width=\"12\" height=\"12\" fill=\"%s\"/>\n",
			y - 10, palette[i % N_PALETTE]);
		svg_text(out, 38, y, "start", 12, "#222222", lab);
	}
	for (j = 0; j < nm; j++) {
		size_t strip = j / per_strip, col = j % per_strip;
		double gx = 20 + group_w * (double)col;
		double base =
			56 + legend_h + strip_h * (double)strip + 50 + bar_room;
		double max = 0;

		for (i = 0; i < n; i++) {
			if (m[j].have[i] && m[j].v[i] > max) {
				max = m[j].v[i];
			}
		}
		svg_line(out, gx, base, gx + group_w - 16, base, "#666666", 1);
		for (i = 0; i < n; i++) {
			double x =
				gx +
				(group_w - 16 - (double)n * (bar_w + bar_gap)) /
					2 +
				(double)i * (bar_w + bar_gap);
			double bh = m[j].have[i] && max > 0
					    ? m[j].v[i] / max * bar_room
					    : 0;
			char val[40];

			if (!m[j].have[i]) {
				svg_text_up(out, x + bar_w - 3, base - 3,
					    "start", 9, "n/a");
				continue;
			}
			fprintf(out,
				"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n",
				x, base - bh, bar_w, bh,
				palette[i % N_PALETTE]);
			if (m[j].v[i] == floor(m[j].v[i])) {
				snprintf(val, sizeof(val), "%.0f", m[j].v[i]);
			} else {
				snprintf(val, sizeof(val), "%.2f", m[j].v[i]);
			}
			svg_text_up(out, x + bar_w - 3, base - bh - 3, "start",
				    9, val);
		}
		svg_text(out, gx, base + 16, "start", 10, "#222222", m[j].name);
		svg_text(out, gx, base + 29, "start", 10, "#555555", m[j].what);
	}
	svg_end(out);
	ret = hil_render_status(out);
out:
	for (j = 0; j < nm; j++) {
		free(m[j].v);
		free(m[j].have);
	}
	free(m);
	return ret;
}
