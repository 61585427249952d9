/* svg_energy: energy.svg, the energy of one operation per algorithm at the headline length: the sensor's figure or the datasheet estimate with its range, and where the estimate comes from. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"report"
#include "render_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/err.h"

/* One bar: a series' energy at the headline length. */
struct ebar {
	char name[200];
	double uj;     /* the row's energy (measured or estimated) */
	int est;       /* 1: uj is the datasheet estimate */
	double lo, hi; /* the estimate's range (est, or beside) */
	double beside; /* the estimate beside a measurement; 0 none */
	int have_range;
};

/* Is row of an operation without a message (a key setup: its series has
 * no row with a message), whose one call is its operation? */
static int per_call(const cJSON *report, const cJSON *row)
{
	struct hil_series s;
	const cJSON *r;
	double l;

	if (!hil_rj_num(row, "msg_len", &l) || l != 0) {
		return 0;
	}
	s.algorithm = hil_rj_str(row, "algorithm");
	s.implementation = hil_rj_str(row, "implementation");
	s.operation = hil_rj_str(row, "operation");
	s.ad_len = 0;
	hil_rj_num(row, "ad_len", &s.ad_len);
	cJSON_ArrayForEach(r, hil_rj_rows(report))
	{
		if (hil_series_has(&s, r) && hil_rj_num(r, "msg_len", &l) &&
		    l > 0) {
			return 0;
		}
	}
	return 1;
}

static size_t collect(const cJSON *report, double len, struct ebar *b,
		      size_t max)
{
	const cJSON *r;
	size_t n = 0;

	cJSON_ArrayForEach(r, hil_rj_rows(report))
	{
		const cJSON *e = hil_rj_row_estimate(r);
		double l, uj;
		int call;

		if (n >= max || !hil_rj_row_ok(r) ||
		    !hil_rj_num(r, "msg_len", &l) ||
		    !hil_rj_row_energy(r, &uj)) {
			continue;
		}
		/* At the headline length, or a key setup's one call. */
		call = l != len && per_call(report, r);
		if (l != len && !call) {
			continue;
		}
		memset(&b[n], 0, sizeof(b[n]));
		snprintf(b[n].name, sizeof(b[n].name), "%s/%s %s%s",
			 hil_rj_str(r, "algorithm"),
			 hil_rj_str(r, "implementation"),
			 hil_rj_str(r, "operation"), call ? " (per call)" : "");
		b[n].uj = uj;
		b[n].est = strcmp(hil_rj_row_energy_kind(r), "estimate") == 0;
		if (e != NULL && hil_rj_num(e, "uj_low", &b[n].lo) &&
		    hil_rj_num(e, "uj_high", &b[n].hi)) {
			b[n].have_range = 1;
		}
		if (!b[n].est && e != NULL) {
			hil_rj_num(e, "uj_per_op", &b[n].beside);
		}
		n++;
	}
	return n;
}

int hil_svg_energy(const cJSON *report, FILE *out)
{
	const double rowh = 22, top = 96, bar_room = 420;
	struct hil_summary s;
	struct ebar *b;
	double label_w = 160, w, h, max = 0, step, top_v, base;
	char title[160], sub[512];
	size_t n, i, cap;
	int k, any_est = 0;

	if (hil_summary_build(report, &s) != HIL_OK) {
		return HIL_ERR_NOMEM;
	}
	cap = (size_t)cJSON_GetArraySize(hil_rj_rows(report)) + 1;
	b = calloc(cap, sizeof(*b));
	if (b == NULL) {
		hil_summary_free(&s);
		return HIL_ERR_NOMEM;
	}
	n = collect(report, s.head_len, b, cap);
	for (i = 0; i < n; i++) {
		double v = b[i].have_range && b[i].hi > b[i].uj ? b[i].hi
								: b[i].uj;

		max = v > max ? v : max;
		max = b[i].beside > max ? b[i].beside : max;
		any_est |= b[i].est;
		if (hil_render_text_w(b[i].name, 12) + 20 > label_w) {
			label_w = hil_render_text_w(b[i].name, 12) + 20;
		}
	}
	snprintf(title, sizeof(title), "Energy per operation at %.0f B (µJ)%s",
		 s.head_len,
		 any_est ? ": a datasheet estimate, not measured" : "");
	if (n == 0) {
		snprintf(sub, sizeof(sub), "no energy figure: %s",
			 s.energy_reason != NULL ? s.energy_reason
						 : "no row at this length");
	} else if (any_est) {
		snprintf(sub, sizeof(sub),
			 "bar: typical; line: the datasheet's range; %s",
			 s.energy_note);
	} else {
		snprintf(
			sub, sizeof(sub), "%s%s%s",
			s.energy_model ? "from the simulated sensor (a model)"
				       : "measured with the sensor",
			s.energy_note[0]
				? "; diamond: the datasheet estimate beside it, "
				: "",
			s.energy_note);
	}
	w = label_w + bar_room + 140;
	h = top + rowh * (double)(n ? n : 1) + 46;
	hil_render_svg_begin(out, w, h, title);
	hil_render_svg_title(out, 12, title, sub, w);
	step = hil_render_nice_step(max > 0 ? max : 1);
	top_v = max > 0 ? ceil(max / step) * step : 5 * step;
	base = top + rowh * (double)n;
	if (n == 0) {
		hil_render_svg_text(out, 12, top + 15, "start", 12, "#aa0000",
				    "no energy figures in this report");
	}
	for (k = 0; n > 0 && (double)k * step <= top_v * (1 + 1e-9); k++) {
		double x = label_w + (double)k * step / top_v * bar_room;
		char lab[32];

		hil_render_svg_line(out, x, top - 4, x, base, "#eeeeee", 1);
		hil_render_svg_line(out, x, base, x, base + 4, "#666666", 1);
		snprintf(lab, sizeof(lab), "%.6g", (double)k * step);
		hil_render_svg_text(out, x, base + 16, "middle", 10, "#333333",
				    lab);
	}
	if (n > 0) {
		hil_render_svg_line(out, label_w, top - 4, label_w, base,
				    "#666666", 1);
		hil_render_svg_text(out, label_w + bar_room / 2, base + 32,
				    "middle", 11, "#222222",
				    any_est ? "µJ per operation (estimated)"
					    : "µJ per operation");
	}
	for (i = 0; i < n; i++) {
		const double y = top + rowh * (double)i + 4;
		const double x = label_w;
		double bw = b[i].uj / top_v * bar_room;
		char val[96];

		hil_render_svg_text(out, label_w - 10, y + 11, "end", 12,
				    "#222222", b[i].name);
		fprintf(out,
			"<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"14\" fill=\"%s\"%s><title>",
			x, y, bw, b[i].est ? "#c9d7e8" : "#4e79a7",
			b[i].est ? " stroke=\"#4e79a7\"" : "");
		hil_xml_puts(out, b[i].name);
		fprintf(out, ": %.3g µJ%s</title></rect>\n", b[i].uj,
			b[i].est ? " (datasheet estimate)" : "");
		if (b[i].have_range) {
			double x1 = x + b[i].lo / top_v * bar_room;
			double x2 = x + b[i].hi / top_v * bar_room;

			hil_render_svg_line(out, x1, y + 7, x2, y + 7,
					    "#222222", 1.5);
			hil_render_svg_line(out, x2, y + 2, x2, y + 12,
					    "#222222", 1.5);
		}
		if (b[i].beside > 0) {
			double xm = x + b[i].beside / top_v * bar_room;

			fprintf(out,
				"<path d=\"M%.1f %.1fl5 5l-5 5l-5 -5z\" fill=\"#f28e2b\"><title>datasheet estimate %.3g µJ</title></path>\n",
				xm, y + 2, b[i].beside);
		}
		if (b[i].est && b[i].have_range) {
			snprintf(val, sizeof(val), "%.3g (%.3g-%.3g)", b[i].uj,
				 b[i].lo, b[i].hi);
		} else if (b[i].beside > 0) {
			snprintf(val, sizeof(val), "%.3g (est. %.3g)", b[i].uj,
				 b[i].beside);
		} else {
			snprintf(val, sizeof(val), "%.3g", b[i].uj);
		}
		hil_render_svg_text(
			out,
			x +
				(b[i].have_range && b[i].hi > b[i].uj
					 ? b[i].hi
					 : b[i].uj) /
					top_v * bar_room +
				6,
			y + 11, "start", 11, "#333333", val);
	}
	hil_render_svg_end(out);
	free(b);
	hil_summary_free(&s);
	return hil_render_status(out);
}
