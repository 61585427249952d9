/* html_sweep_energy: sweep.html's energy table: each configuration's cycles and energy per operation side by side, which costs fewer microjoules, and the estimate's source. */
#include "render_int.h"

#include <stdio.h>
#include <string.h>

/* The measured (status ok) row of series s at len in rows, or NULL. */
static const struct hil_row_view *row_at(const struct hil_sweep_rows *rows,
					 const struct hil_series *s, double len)
{
	size_t i;

	for (i = 0; i < rows->n; i++) {
		const struct hil_row_view *r = &rows->r[i];

		if (hil_series_has_row(s, r) &&
		    hil_row_view_has(r, &r->row.msg_len) &&
		    r->row.msg_len == len && hil_rv_ok(r)) {
			return r;
		}
	}
	return NULL;
}

/* A row's energy: 'e' the datasheet estimate, 'm' a sensor's, 0 none. */
static int energy_of(const struct hil_row_view *row, double *uj)
{
	if (row == NULL || !hil_rv_energy(row, uj)) {
		return 0;
	}
	return strcmp(row->energy_kind, "estimate") == 0 ? 'e' : 'm';
}

/* The estimate's range of row (its est): 1 and *lo, *hi, else 0. */
static int range_of(const struct hil_row_view *r,
		    const struct hil_row_view_est *e, double *lo, double *hi)
{
	if (e == NULL || !hil_row_view_has(r, &e->uj_low) ||
	    !hil_row_view_has(r, &e->uj_high)) {
		return 0;
	}
	*lo = e->uj_low;
	*hi = e->uj_high;
	return 1;
}

static int any_energy(const struct hil_sweep_rows *rows, size_t n)
{
	size_t i, j;
	double uj;

	for (i = 0; i < n; i++) {
		for (j = 0; j < rows[i].n; j++) {
			if (energy_of(&rows[i].r[j], &uj) != 0) {
				return 1;
			}
		}
	}
	return 0;
}

/* The verdict cell: the configuration with the fewest uJ when all have a
 * figure of one kind; an estimate is never judged against a measurement. */
static void verdict(FILE *out, const cJSON *const *reports,
		    const struct hil_sweep_rows *rows, size_t n,
		    const struct hil_series *s, double len)
{
	double uj, best_uj = 0, worst_uj = 0, lo, hi, lo_max = 0, hi_min = 0;
	size_t i, best = 0, k = 0;
	int kind = 0, mixed = 0;
	char lab[200];

	for (i = 0; i < n; i++) {
		const struct hil_row_view *r = row_at(&rows[i], s, len);
		const struct hil_row_view_est *e =
			r != NULL ? hil_rv_estimate(r) : NULL;
		int kd = energy_of(r, &uj);

		if (kd == 0) {
			continue;
		}
		mixed |= kind != 0 && kd != kind;
		kind = kd;
		if (k == 0 || uj < best_uj) {
			best = i;
			best_uj = uj;
		}
		if (k == 0 || uj > worst_uj) {
			worst_uj = uj;
		}
		if (range_of(r, e, &lo, &hi)) {
			lo_max = k == 0 || lo > lo_max ? lo : lo_max;
			hi_min = k == 0 || hi < hi_min ? hi : hi_min;
		}
		k++;
	}
	if (mixed) {
		fputs("<td>not compared (measured vs estimate)</td>", out);
		return;
	}
	if (k < 2 || worst_uj <= best_uj) {
		fputs("<td>-</td>", out);
		return;
	}
	hil_sweep_label(reports, n, best, lab, sizeof(lab));
	fputs("<td><b>", out);
	hil_xml_puts(out, lab);
	fprintf(out, "</b> &minus;%.0f&nbsp;%%%s</td>",
		100.0 * (worst_uj - best_uj) / worst_uj,
		kind == 'e' && hi_min >= lo_max
			? " <span title=\"the datasheet ranges overlap\">*</span>"
			: "");
}

void hil_html_sweep_energy(FILE *out, const cJSON *const *reports,
			   const struct hil_sweep_rows *rows, size_t n,
			   const struct hil_series *s, size_t ns, double len)
{
	size_t i, k, j;

	if (!any_energy(rows, n)) {
		return;
	}
	fprintf(out,
		"<section id=\"energy\"><h2>Cycles and energy per operation at %.0f B</h2>\n<p class=\"caption\">Per configuration: cycles of one operation (the cycle model's estimate, or the board's count) and µJ per operation; <em>est.</em> = a datasheet estimate, not measured: typical, with the datasheet's range below it. The last column names the configuration that costs fewer µJ.</p>\n<table class=\"head\">\n<thead><tr><th>Algorithm</th><th>Impl</th><th>Op</th>",
		len);
	for (k = 0; k < n; k++) {
		char lab[200];

		hil_sweep_label(reports, n, k, lab, sizeof(lab));
		hil_render_th2(out, "n", lab, "cycles/op");
		hil_render_th2(out, "n hl", lab, "µJ/op");
	}
	fputs("<th>Fewer µJ/op</th></tr></thead>\n<tbody>\n", out);
	for (i = 0; i < ns; i++) {
		int present = 0;

		for (k = 0; k < n; k++) {
			present |= row_at(&rows[k], &s[i], len) != NULL;
		}
		if (!present) {
			continue;
		}
		fputs("<tr>", out);
		hil_render_td_text(out, NULL, s[i].algorithm);
		hil_render_td_text(out, NULL, s[i].implementation);
		hil_render_td_text(out, NULL, s[i].operation);
		for (k = 0; k < n; k++) {
			const struct hil_row_view *r =
				row_at(&rows[k], &s[i], len);
			const struct hil_row_view_est *e =
				r != NULL ? hil_rv_estimate(r) : NULL;
			double v, lo, hi;
			char buf[96] = "-";
			int kd = energy_of(r, &v);

			if (r != NULL && r->has_model &&
			    hil_row_view_has(r, &r->model.median)) {
				char err[32];

				/* With its error bar when calibrated. */
				hil_rv_model_err(r, err, sizeof(err));
				snprintf(buf, sizeof(buf), "est. %.0f%s",
					 r->model.median, err);
			} else if (r != NULL &&
				   strcmp(r->unit, "cycles") == 0 &&
				   hil_row_view_has(r, &r->median)) {
				snprintf(buf, sizeof(buf), "%.0f", r->median);
			}
			hil_render_td_text(out, "n", buf);
			energy_of(r, &v);
			if (kd == 'e' && range_of(r, e, &lo, &hi)) {
				fprintf(out,
					"<td class=\"n hl\">est. %.3g <span class=\"sub\">(%.3g-%.3g)</span></td>",
					v, lo, hi);
			} else if (kd == 'm') {
				snprintf(buf, sizeof(buf), "%.3g", v);
				hil_render_td_text(out, "n hl", buf);
			} else {
				hil_render_td_text(out, "n hl", "-");
			}
		}
		verdict(out, reports, rows, n, &s[i], len);
		fputs("</tr>\n", out);
	}
	fputs("</tbody></table>\n<ul class=\"notes muted\">\n<li>Fewer µJ/op: the configuration with the fewest, and by how much less than the most; between estimates, their typical figures. * = the datasheet ranges overlap: the typical figures differ, the extremes may not. An estimate is never judged against a measurement.</li>\n",
	      out);
	for (k = 0; k < n; k++) {
		char lab[200];

		for (j = 0; j < rows[k].n; j++) {
			const struct hil_row_view *r = &rows[k].r[j];
			const struct hil_row_view_est *e = hil_rv_estimate(r);
			double vdd, ma, mah, hz;

			if (e == NULL || !hil_row_view_has(r, &e->vdd_v) ||
			    !hil_row_view_has(r, &e->idd_ma) ||
			    !hil_row_view_has(r, &e->idd_high_ma) ||
			    !hil_row_view_has(r, &e->clock_hz)) {
				continue;
			}
			vdd = e->vdd_v;
			ma = e->idd_ma;
			mah = e->idd_high_ma;
			hz = e->clock_hz;
			hil_sweep_label(reports, n, k, lab, sizeof(lab));
			fputs("<li>", out);
			hil_xml_puts(out, lab);
			fprintf(out,
				": est. = %.1f V × %.3g mA (typ., 25 °C, all peripherals off) × cycles / %g MHz; range up to %.3g mA (max. at 25 °C, all peripherals on). Source: ",
				vdd, ma, hz / 1e6, mah);
			hil_xml_puts(out, e->table);
			fputs(" (docs/method.md).</li>\n", out);
			break;
		}
	}
	fputs("</ul>\n</section>\n", out);
}
