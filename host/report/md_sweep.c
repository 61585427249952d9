/* md_sweep: a sweep's tables in Markdown (sweep.md and the terminal), the same figures as sweep.html: cost per byte, flash and RAM, every length. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"report"
#include "render_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "result/headcodec.h"
#include "util/err.h"

/*
 * A cell of a table with a column per configuration: fill buf with the
 * figure of row (a row of report, NULL when the report has none) and set
 * *v to the number the line's best is judged by; return 1, or 0 for "-".
 * A new table (energy per operation, ...) is one more of these and one
 * more call of length_table().
 */
typedef int (*md_fig_fn)(const cJSON *report, const struct hil_row_view *row,
			 char *buf, size_t len, double *v);

/* The per-byte figure sweep.html shows: the model's estimate where the
 * report has it, else the counter. */
static int fig_per_byte(const cJSON *report, const struct hil_row_view *row,
			char *buf, size_t len, double *v)
{
	char e[24];

	if (row == NULL || !hil_fig_per_byte_rv(report, row, v)) {
		return 0;
	}
	hil_fig_err_rv(report, row, e, sizeof(e));
	snprintf(buf, len, "%.2f%s", *v, e);
	return 1;
}

static void heads(FILE *out, const cJSON *const *reports, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		char lab[200];

		hil_sweep_label(reports, n, i, lab, sizeof(lab));
		fputc(' ', out);
		hil_md_cell(out, lab);
		fputs(" |", out);
	}
	fputc('\n', out);
}

/* One line's cells: the figure, "failed" or "-"; the lowest in bold. */
static void cells(FILE *out, const cJSON *const *reports,
		  const struct hil_sweep_rows *rows, size_t n,
		  const struct hil_series *s, double len, md_fig_fn fn)
{
	double best = 0, v;
	char buf[48];
	size_t i;
	int any = 0;

	for (i = 0; i < n; i++) {
		if (fn(reports[i], hil_sweep_row_at(&rows[i], s, len), buf,
		       sizeof(buf), &v) &&
		    (!any || v < best)) {
			best = v;
			any = 1;
		}
	}
	for (i = 0; i < n; i++) {
		const struct hil_row_view *r =
			hil_sweep_row_at(&rows[i], s, len);

		if (r != NULL && !hil_rv_ok(r)) {
			fputs(" failed |", out);
		} else if (fn(reports[i], r, buf, sizeof(buf), &v)) {
			fprintf(out, n > 1 && v == best ? " **%s** |" : " %s |",
				buf);
		} else {
			fputs(" - |", out);
		}
	}
	fputc('\n', out);
}

static void series_cells(FILE *out, const struct hil_series *s, double len)
{
	fputs("| ", out);
	hil_md_cell(out, s->algorithm);
	fputs(" | ", out);
	hil_md_cell(out, s->implementation);
	fputs(" | ", out);
	hil_md_cell(out, s->operation);
	fprintf(out, " | %.0f | %.0f |", len, s->ad_len);
}

/* A table of every series at the lengths given, a column per config. */
static void length_table(FILE *out, const cJSON *const *reports,
			 const struct hil_sweep_rows *rows, size_t n,
			 const struct hil_series *s, size_t ns,
			 const double *lens, size_t nl, md_fig_fn fn)
{
	size_t i, j, k;

	fputs("| algorithm | impl | op | msg | ad |", out);
	heads(out, reports, n);
	fputs("|---|---|---|---:|---:|", out);
	for (k = 0; k < n; k++) {
		fputs("---:|", out);
	}
	fputc('\n', out);
	for (i = 0; i < ns; i++) {
		for (j = 0; j < nl; j++) {
			int present = 0;

			for (k = 0; k < n; k++) {
				present |= hil_sweep_row_at(&rows[k], &s[i],
							    lens[j]) != NULL;
			}
			if (!present) {
				continue;
			}
			series_cells(out, &s[i], lens[j]);
			cells(out, reports, rows, n, &s[i], lens[j], fn);
		}
	}
	fputc('\n', out);
}

/* Flash and RAM of every implementation of any configuration. */
static void sizes_table(FILE *out, const cJSON *const *reports,
			const struct hil_sweep_rows *rows, size_t n,
			const struct hil_series *s, size_t ns)
{
	size_t i, j, k;

	fputs("| algorithm | impl |", out);
	heads(out, reports, n);
	fputs("|---|---|", out);
	for (k = 0; k < n; k++) {
		fputs("---:|", out);
	}
	fputc('\n', out);
	for (i = 0; i < ns; i++) {
		for (j = 0; j < i; j++) {
			if (strcmp(s[j].algorithm, s[i].algorithm) == 0 &&
			    strcmp(s[j].implementation, s[i].implementation) ==
				    0) {
				break;
			}
		}
		if (j < i) {
			continue; /* one line per implementation */
		}
		fputs("| ", out);
		hil_md_cell(out, s[i].algorithm);
		fputs(" | ", out);
		hil_md_cell(out, s[i].implementation);
		fputs(" |", out);
		for (k = 0; k < n; k++) {
			char a[32], b[32];

			hil_sweep_size_cells(reports[k], &rows[k], &s[i], a, b,
					     sizeof(a));
			fprintf(out, " %s / %s |", a, b);
		}
		fputc('\n', out);
	}
	fputc('\n', out);
}

int hil_md_sweep(const cJSON *const *reports, size_t n, const char *name,
		 FILE *out)
{
	struct hil_series *s = NULL;
	struct hil_sweep_rows *rows = NULL;
	size_t ns = 0, nl, i, j;
	double lens[64], head = 64;
	int ret;

	if (n == 0) {
		return HIL_ERR_ARG;
	}
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
	fputs("## ", out);
	hil_md_cell(out, name);
	fputs(": the figures of each configuration\n\n", out);
	for (i = 0; i < n; i++) {
		/* The run through result/'s codec tables. */
		struct hil_head_run run;
		char lab[200];

		hil_result_head_read_one(reports[i], "run", &run);
		hil_sweep_label(reports, n, i, lab, sizeof(lab));
		fputs("- ", out);
		hil_md_cell(out, lab);
		fputs(": ", out);
		hil_md_cell(out, hil_fig_what(reports[i]));
		fputs(" per byte (its counter: ", out);
		hil_md_cell(out, hil_rj_unit(reports[i]));
		fputs("), run ", out);
		hil_md_cell(out, run.id);
		if (strcmp(run.status, "complete") != 0) {
			fputs(" (", out);
			hil_md_cell(out, run.status);
			fputs(": figures missing)", out);
		}
		fputc('\n', out);
	}
	fputc('\n', out);
	if (!hil_fig_comparable(reports, n)) {
		fputs("The configurations count in different figures (above), so their costs per byte are not set side by side; each report has its own.\n\n",
		      out);
	} else {
		/* 64 B, or the length nearest to it (the shorter on a tie),
		 * as sweep.html's headline. */
		for (j = 0; j < nl; j++) {
			if (j == 0 || fabs(lens[j] - 64) < fabs(head - 64)) {
				head = lens[j];
			}
		}
		fputs("## ", out);
		hil_md_cell(out, name);
		fprintf(out,
			": cost per byte at %.0f B, one column per configuration (lowest in bold)\n\n",
			head);
		length_table(out, reports, rows, n, s, ns, &head, 1,
			     fig_per_byte);
	}
	fputs("## ", out);
	hil_md_cell(out, name);
	fputs(": flash / RAM bytes per implementation (flash: own code and constant data; RAM: static data + the largest peak stack of one call)\n\n",
	      out);
	sizes_table(out, reports, rows, n, s, ns);
	if (hil_fig_comparable(reports, n)) {
		fputs("## ", out);
		hil_md_cell(out, name);
		fputs(": cost per byte at every length\n\n", out);
		length_table(out, reports, rows, n, s, ns, lens, nl,
			     fig_per_byte);
	}
	free(s);
	hil_sweep_rows_free(rows, n);
	return HIL_OK;
}
