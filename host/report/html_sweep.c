/* html_sweep: sweep.html, the configurations of a sweep side by side. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"report"
#include "render_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "result/headcodec.h"
#include "util/err.h"
#include "report/report.h"

/* One table cell per configuration: the figure, "failed" or "-"; the
 * lowest of the line in bold. */
static void sweep_cells(FILE *out, const cJSON *const *reports,
			const struct hil_sweep_rows *rows, size_t n,
			const struct hil_series *s, double len, const char *cls)
{
	double best = 0, v;
	size_t i;
	int any = 0;

	for (i = 0; i < n; i++) {
		const struct hil_row_view *r =
			hil_sweep_row_at(&rows[i], s, len);

		if (r != NULL && hil_fig_per_byte_rv(reports[i], r, &v) &&
		    (!any || v < best)) {
			best = v;
			any = 1;
		}
	}
	for (i = 0; i < n; i++) {
		const struct hil_row_view *r =
			hil_sweep_row_at(&rows[i], s, len);
		char buf[40];

		if (r == NULL) {
			fprintf(out, "<td class=\"%s muted\">-</td>", cls);
		} else if (!hil_rv_ok(r)) {
			fprintf(out, "<td class=\"%s bad\">failed</td>", cls);
		} else if (hil_fig_per_byte_rv(reports[i], r, &v)) {
			char e[24];

			hil_fig_err_rv(reports[i], r, e, sizeof(e));
			snprintf(buf, sizeof(buf), "%.2f%s", v, e);
			fprintf(out, "<td class=\"%s%s\">%s</td>", cls,
				n > 1 && v == best ? " best" : "", buf);
		} else {
			fprintf(out, "<td class=\"%s muted\">-</td>", cls);
		}
	}
}

static void sweep_series_cells(FILE *out, const struct hil_series *s)
{
	hil_render_td_text(out, NULL, s->algorithm);
	hil_render_td_text(out, NULL, s->implementation);
	fputs("<td>", out);
	hil_xml_puts(out, s->operation);
	if (s->ad_len != 0) {
		fprintf(out, ", AD %.0f B", s->ad_len);
	}
	fputs("</td>", out);
}

static void sweep_config_heads(FILE *out, const cJSON *const *reports, size_t n,
			       const char *cls, int what)
{
	size_t i;

	for (i = 0; i < n; i++) {
		char lab[200];

		hil_sweep_label(reports, n, i, lab, sizeof(lab));
		hil_render_th2(out, cls, lab,
			       what ? hil_fig_what(reports[i]) : NULL);
	}
}

int hil_html_sweep(const cJSON *const *reports, size_t n, const cJSON *sweep,
		   FILE *out)
{
	const char *name = hil_rj_str(sweep, "name");
	const cJSON *runs = cJSON_GetObjectItemCaseSensitive(sweep, "runs");
	const cJSON *e;
	struct hil_series *s = NULL;
	struct hil_sweep_rows *rows = NULL;
	size_t ns = 0, i, j, nl;
	double lens[64], head = 64;
	int ret, comparable, any_warn = 0;

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
	nl = hil_sweep_lengths(rows, n, lens, 64);
	if (name[0] == '\0') {
		name = "sweep";
	}
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>hilrun sweep ",
	      out);
	hil_xml_puts(out, name);
	fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<main>\n",
		hil_render_html_style);
	fputs("<header><h1>hilrun sweep: ", out);
	hil_xml_puts(out, name);
	fprintf(out,
		"</h1>\n<p class=\"caption\">%zu configuration%s compared; each has its own report.html.</p></header>\n",
		n, n == 1 ? "" : "s");

	/* Warnings: runs without a report, failed rows, units. */
	fputs("<section class=\"warnings\" id=\"warnings\"><h2>Warnings</h2><ul>\n",
	      out);
	cJSON_ArrayForEach(e, runs)
	{
		if (strcmp(hil_rj_str(e, "status"), "complete") == 0) {
			continue;
		}
		fputs("<li><span class=\"bad\">", out);
		hil_xml_puts(out, hil_rj_str(e, "config"));
		fputs(" did not complete</span> (", out);
		hil_xml_puts(out, hil_rj_str(e, "status"));
		if (hil_rj_str(e, "error")[0] != '\0') {
			fputs(": ", out);
			hil_xml_puts(out, hil_rj_str(e, "error"));
		}
		fputs(")", out);
		fputs("; its figures are missing or partial.</li>\n", out);
		any_warn = 1;
	}
	for (i = 0; i < n; i++) {
		int failed = 0;

		for (j = 0; j < rows[i].n; j++) {
			failed += !hil_rv_ok(&rows[i].r[j]);
		}
		if (failed > 0) {
			char lab[200];

			hil_sweep_label(reports, n, i, lab, sizeof(lab));
			fputs("<li><span class=\"bad\">", out);
			hil_xml_puts(out, lab);
			fprintf(out,
				": %d rows failed</span>; see its report.</li>\n",
				failed);
			any_warn = 1;
		}
	}
	if (!comparable) {
		fputs("<li><span class=\"bad\">Different units</span>: the configurations count in different units, so their per-byte figures are not compared.</li>\n",
		      out);
		any_warn = 1;
	}
	for (i = 0; i < n; i++) {
		if (strncmp(hil_fig_what(reports[i]), "instructions", 12) ==
		    0) {
			fputs("<li><span class=\"bad\">Emulated figures</span>: instructions counted by QEMU, not cycles of a Cortex-M4; they compare code paths, not time.</li>\n",
			      out);
			any_warn = 1;
			break;
		}
	}
	for (i = 0; i < n; i++) {
		if (strstr(hil_fig_what(reports[i]), "estimated") != NULL) {
			fputs("<li><span class=\"bad\">Estimated figures</span>: where a configuration says <em>cycles (estimated, model)</em>, the cycle model computed them from the emulated instructions (docs/cycle-model.md); an estimate, not a measurement.</li>\n",
			      out);
			any_warn = 1;
			break;
		}
	}
	if (!any_warn) {
		fputs("<li class=\"ok\">None.</li>\n", out);
	}
	fputs("</ul></section>\n", out);

	/* The configurations. */
	fputs("<section id=\"configs\"><h2>Configurations</h2>\n<table>\n<tr><th>Configuration</th><th>Flags</th><th>Board</th><th>Figures</th><th>Status</th><th>Report</th></tr>\n",
	      out);
	for (i = 0; i < n; i++) {
		/* The run and board through result/'s codec tables. */
		struct hil_head_run run;
		struct hil_head_board board;
		const cJSON *build =
			cJSON_GetObjectItemCaseSensitive(reports[i], "build");
		const cJSON *f;
		char lab[200];
		int first = 1;

		hil_result_head_read_one(reports[i], "run", &run);
		hil_result_head_read_one(reports[i], "board", &board);
		hil_sweep_label(reports, n, i, lab, sizeof(lab));
		fputs("<tr>", out);
		hil_render_td_text(out, NULL, lab);
		fputs("<td><code>", out);
		cJSON_ArrayForEach(
			f, cJSON_GetObjectItemCaseSensitive(build, "cflags"))
		{
			if (cJSON_IsString(f)) {
				fputs(first ? "" : " ", out);
				hil_xml_puts(out, f->valuestring);
				first = 0;
			}
		}
		fputs("</code></td>", out);
		hil_render_td_text(out, NULL, board.name);
		hil_render_td_text(out, NULL, hil_fig_what(reports[i]));
		hil_render_td_text(out, NULL, run.status);
		/* The runs are the sweep folder's siblings. */
		fputs("<td><a href=\"../", out);
		hil_xml_puts(out, run.id);
		fputs("/report.html\">", out);
		hil_xml_puts(out, run.id);
		fputs("</a></td></tr>\n", out);
	}
	fputs("</table>\n</section>\n", out);

	/* The headline: cost per byte at 64 B, a column per configuration. */
	if (comparable) {
		/* 64 B, or the length nearest to it (the shorter on a tie). */
		for (j = 0; j < nl; j++) {
			if (j == 0 || fabs(lens[j] - 64) < fabs(head - 64)) {
				head = lens[j];
			}
		}
		fprintf(out,
			"<section id=\"summary\"><h2>Cost per byte at %.0f B</h2>\n<p class=\"caption\">Median per byte of the %.0f-byte row of each configuration, in the figure each counts (below its name); the lowest of a line in bold.</p>\n<table class=\"head\">\n<thead><tr><th>Algorithm</th><th>Impl</th><th>Op</th>",
			head, head);
		sweep_config_heads(out, reports, n, "n hl", 1);
		fputs("</tr></thead>\n<tbody>\n", out);
		for (i = 0; i < ns; i++) {
			fputs("<tr>", out);
			sweep_series_cells(out, &s[i]);
			sweep_cells(out, reports, rows, n, &s[i], head, "n");
			fputs("</tr>\n", out);
		}
		fputs("</tbody></table>\n</section>\n", out);
	}

	hil_html_sweep_energy(out, reports, rows, n, s, ns, head);

	fputs("<section id=\"plots\"><h2>Plot</h2>\n", out);
	ret = hil_svg_sweep(reports, n, out);
	fputs("</section>\n", out);

	/* Sizes per configuration. */
	fputs("<section id=\"sizes\"><h2>Flash and RAM per implementation</h2>\n<p class=\"caption\">Bytes. Flash: own code and constant data; RAM: static data + the largest peak stack of one call.</p>\n<table>\n<tr><th>Implementation</th>",
	      out);
	for (i = 0; i < n; i++) {
		char lab[200];

		hil_sweep_label(reports, n, i, lab, sizeof(lab));
		hil_render_th2(out, "n", lab, "flash / RAM");
	}
	fputs("</tr>\n", out);
	for (i = 0; i < ns; i++) {
		size_t k;

		for (j = 0; j < i; j++) {
			if (strcmp(s[j].algorithm, s[i].algorithm) == 0 &&
			    strcmp(s[j].implementation, s[i].implementation) ==
				    0) {
				break;
			}
		}
		if (j < i) {
			continue;
		}
		fputs("<tr><td>", out);
		hil_xml_puts(out, s[i].algorithm);
		fputc('/', out);
		hil_xml_puts(out, s[i].implementation);
		fputs("</td>", out);
		for (k = 0; k < n; k++) {
			char a[32], b[32];

			hil_sweep_size_cells(reports[k], &rows[k], &s[i], a, b,
					     sizeof(a));
			fprintf(out, "<td class=\"n\">%s / %s</td>", a, b);
		}
		fputs("</tr>\n", out);
	}
	fputs("</table>\n</section>\n", out);

	/* Every length. */
	if (comparable) {
		fputs("<section id=\"rows\"><h2>Every length</h2>\n<p class=\"caption\">Cost per byte of each row, a column per configuration; the lowest of a line in bold.</p>\n<table>\n<tr><th>Algorithm</th><th>Impl</th><th>Op</th><th class=\"n\">Msg (B)</th>",
		      out);
		sweep_config_heads(out, reports, n, "n", 0);
		fputs("</tr>\n", out);
		for (i = 0; i < ns; i++) {
			for (j = 0; j < nl; j++) {
				size_t k;
				int present = 0;

				for (k = 0; k < n; k++) {
					present |= hil_sweep_row_at(
							   &rows[k], &s[i],
							   lens[j]) != NULL;
				}
				if (!present) {
					continue;
				}
				fputs("<tr>", out);
				sweep_series_cells(out, &s[i]);
				fprintf(out, "<td class=\"n\">%.0f</td>",
					lens[j]);
				sweep_cells(out, reports, rows, n, &s[i],
					    lens[j], "n");
				fputs("</tr>\n", out);
			}
		}
		fputs("</table>\n</section>\n", out);
	}
	fprintf(out,
		"<footer>Made by hilrun from the configurations' report.json files (schema %d); the page loads nothing from the network.</footer>\n</main>\n</body>\n</html>\n",
		HIL_REPORT_SCHEMA_VERSION);
	free(s);
	hil_sweep_rows_free(rows, n);
	if (ret != HIL_OK) {
		return ret;
	}
	return hil_render_status(out);
}
