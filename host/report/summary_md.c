/* summary_md: summary.md, the caption line and the table people know from papers. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"report"
#include "render_int.h"

#include <string.h>

#include "result/headcodec.h"
#include "util/err.h"

/* ---------------------------------------------------------------- markdown */

/* A table cell: '|' would end it, a newline would end the row, HTML in the
 * data (a name, an error message) is shown as text, never run by a Markdown
 * viewer, '[' and ']' cannot open a link (javascript: or any other) or an
 * image, and a control byte (ESC) is written visibly, never raw. */
void hil_md_cell(FILE *out, const char *s)
{
	while (*s != '\0') {
		size_t n = hil_put_ctl(out, s, 1);

		if (n > 0) {
			s += n;
			continue;
		}
		if (*s == '<') {
			fputs("&lt;", out);
		} else if (*s == '>') {
			fputs("&gt;", out);
		} else if (*s == '&') {
			fputs("&amp;", out);
		} else if (strchr("|\\[]`", *s) != NULL) {
			fputc('\\', out);
			fputc(*s, out);
		} else if (*s == '\n' || *s == '\r') {
			fputc(' ', out);
		} else {
			fputc(*s, out);
		}
		s++;
	}
}

/* s as hil_md_cell() writes it, into buf: for text inside a formatted line. */
static const char *md_str(char *buf, size_t len, const char *s)
{
	FILE *f = fmemopen(buf, len, "w");

	buf[0] = '\0';
	if (f != NULL) {
		hil_md_cell(f, s);
		fputc('\0', f);
		fclose(f);
	}
	buf[len - 1] = '\0';
	return buf;
}

/* "alg/impl op" of a decoded row, each escaped. */
static void md_item_v(FILE *out, const struct hil_row_view *r)
{
	fputs("  - ", out);
	hil_md_cell(out, r->algorithm);
	fputc('/', out);
	hil_md_cell(out, r->implementation);
	fputc(' ', out);
	hil_md_cell(out, r->operation);
}

/* A row's length (msg_len, ad_len) as a figure: 0 when it has none. */
static double md_len(const struct hil_row_view *r, const uint32_t *len)
{
	return hil_row_view_has(r, len) ? (double)*len : 0;
}

/* 1 when rows a and b are the same algorithm, implementation and operation. */
static int md_same_series(const struct hil_row_view *a,
			  const struct hil_row_view *b)
{
	return strcmp(a->algorithm, b->algorithm) == 0 &&
	       strcmp(a->implementation, b->implementation) == 0 &&
	       strcmp(a->operation, b->operation) == 0;
}

/* The row's model says it does not fit the caches (fits_caches false)
 * and its misses cost something: at 0 wait states a miss waits for
 * nothing (flash_wait_cycles 0), so where the code lies does not move
 * the estimate and there is nothing to say. */
static int md_not_fit(const struct hil_row_view *r)
{
	return hil_row_view_has(r, &r->model.fits_caches) &&
	       !r->model.fits_caches &&
	       !(hil_row_view_has(r, &r->model.flash_wait_cycles) &&
		 r->model.flash_wait_cycles == 0);
}

/* The timing-leak test's verdict: flagged rows by name, or all clear. */
static void md_leak_rows(const cJSON *report, const struct hil_summary *s,
			 FILE *out)
{
	/* a row with a leak test on model cycles */
	const struct hil_row_view *model = NULL;
	size_t i;
	int tested = 0, flagged = 0;
	char why[256];

	for (i = 0; i < s->n_rows; i++) {
		const struct hil_row_view *r = &s->rows[i];

		if (strcmp(r->leak.status, "ok") != 0) {
			continue;
		}
		tested++;
		if (strcmp(r->leak.model_status, "ok") == 0) {
			model = r;
		}
		if (!hil_rv_leak_flagged(r)) {
			continue;
		}
		if (!flagged) {
			fputs("- Timing-leak smoke test (dudect, |t| > 4.5) flags:\n",
			      out);
		}
		flagged++;
		md_item_v(out, r);
		fprintf(out, ", %.0f B", md_len(r, &r->row.msg_len));
		hil_rv_leak_why(report, r, why, sizeof(why));
		fputs(": ", out);
		hil_md_cell(out, why);
		fputc('\n', out);
	}
	if (tested > 0 && flagged == 0) {
		char label[96];

		hil_rv_model_label(model, label, sizeof(label));
		fprintf(out,
			"- Timing-leak smoke test (dudect, fixed against random inputs): no row flagged (%d tested, |t| <= 4.5)",
			tested);
		if (model != NULL) {
			char u[160], l[160];

			fprintf(out, ", neither in %s nor in %s.\n",
				md_str(u, sizeof(u), hil_rj_unit(report)),
				md_str(l, sizeof(l), label));
		} else if (strcmp(hil_rj_unit(report),
				  "instructions (emulated)") == 0) {
			fputs("; on the emulated board only differences in the instructions executed are visible.\n",
			      out);
		} else {
			fputs(".\n", out);
		}
	}
}

/*
 * The series whose estimate is bound by the modelled memory system (code or
 * constants over more flash lines than the caches hold: model.fits_caches
 * false), once each, with the note of its longest message.
 */
static void md_memory_bound(const struct hil_summary *s, FILE *out)
{
	size_t i, j;
	int any = 0;

	for (i = 0; i < s->n_rows; i++) {
		const struct hil_row_view *r = &s->rows[i];
		const struct hil_row_view *last = r;

		if (!md_not_fit(r)) {
			continue;
		}
		/* rows of a series are consecutive: take its last one */
		for (j = i + 1; j < s->n_rows && md_same_series(r, &s->rows[j]);
		     j++) {
			if (md_not_fit(&s->rows[j])) {
				last = &s->rows[j];
			}
		}
		if (last != r) {
			continue; /* reported with its last row */
		}
		if (!any) {
			char prof[96];

			md_str(prof, sizeof(prof), r->model.profile);

			fprintf(out,
				"- Larger than the modelled caches%s%s%s, so the estimate depends on where the code lies and what the caches held; what the flash waits cost:\n",
				*prof ? " (" : "", prof, *prof ? ")" : "");
			any = 1;
		}
		md_item_v(out, r);
		fprintf(out, ", %.0f B: ", md_len(r, &r->row.msg_len));
		hil_md_cell(out, r->model.cache_note);
		if (hil_row_view_has(r, &r->model.flash_wait_cycles) &&
		    hil_row_view_has(r, &r->model.median) &&
		    r->model.median > 0) {
			fprintf(out,
				"; %.0f cycles waiting, %.1f %% of the estimate",
				r->model.flash_wait_cycles,
				100.0 * r->model.flash_wait_cycles /
					r->model.median);
		}
		fputs(".\n", out);
	}
}

static int row_interrupted(const struct hil_row_view *r)
{
	return strcmp(r->status, "interrupted") == 0;
}

/*
 * A run that did not finish says so first: how many rows it measured, cut
 * short and never started, and how to finish it.
 */
static void md_partial(const cJSON *report, const struct hil_summary *s,
		       FILE *out)
{
	/* The run through result/'s codec tables. */
	struct hil_head_run run;
	const char *status = run.status;
	size_t n = 0, cut = 0;

	hil_result_head_read_one(report, "run", &run);
	if (strcmp(status, "complete") == 0) {
		return;
	}
	for (n = 0; n < s->n_rows; n++) {
		cut += row_interrupted(&s->rows[n]);
	}
	fputs("**Partial run** (run.status `", out);
	hil_md_cell(out, status);
	fprintf(out, "`): %zu row%s measured, %zu cut short by an interrupt",
		n - cut, n - cut == 1 ? "" : "s", cut);
	if (run.rows_planned > n) {
		fprintf(out, ", %.0f not started",
			(double)run.rows_planned - (double)n);
	}
	fputs(". Finish it with `hilrun --resume RUN_FOLDER` (rows already measured are kept).\n\n",
	      out);
}

/* The rows an interrupt cut short: not failures, measured by a resume. */
static void md_interrupted_rows(const struct hil_summary *s, FILE *out)
{
	size_t i;
	int any = 0;

	for (i = 0; i < s->n_rows; i++) {
		const struct hil_row_view *r = &s->rows[i];

		if (!row_interrupted(r)) {
			continue;
		}
		if (!any) {
			fputs("- interrupted rows (cut short, not failed; `hilrun --resume` measures them):\n",
			      out);
		}
		any = 1;
		md_item_v(out, r);
		fprintf(out, ", %.0f B, AD %.0f B\n",
			md_len(r, &r->row.msg_len), md_len(r, &r->row.ad_len));
	}
}

static void md_failed_rows(const struct hil_summary *s, FILE *out)
{
	size_t i;
	int any = 0;

	for (i = 0; i < s->n_rows; i++) {
		const struct hil_row_view *r = &s->rows[i];

		if (hil_rv_ok(r) || row_interrupted(r)) {
			continue;
		}
		if (!any) {
			fputs("- ✗ failed rows (their figures are not shown):\n",
			      out);
		}
		any = 1;
		md_item_v(out, r);
		fprintf(out,
			", %.0f B, AD %.0f B: ", md_len(r, &r->row.msg_len),
			md_len(r, &r->row.ad_len));
		hil_md_cell(out, r->error[0] != '\0' ? r->error
						     : "(no reason given)");
		fputc('\n', out);
	}
}

int hil_summary_md(const cJSON *report, FILE *out)
{
	struct hil_head_run run;
	struct hil_summary s;
	double flash, ram, stack;
	size_t i;
	int ret, any_nct = 0;
	char unit[160], text[512];

	ret = hil_summary_build(report, &s);
	if (ret != HIL_OK) {
		return ret;
	}
	hil_result_head_read_one(report, "run", &run);
	fputs("# hilrun ", out);
	hil_md_cell(out, run.id);
	fputs("\n\n", out);
	fputs("**Table.** ", out);
	hil_md_cell(out, s.caption);
	fputs("\n\n", out);
	md_partial(report, &s, out);
	/* Post-quantum operations only: their own table, not one of costs
	 * per byte. */
	if (s.n == 0 && hil_rj_has_pq(report)) {
		hil_md_pq(report, out);
		md_failed_rows(&s, out);
		md_memory_bound(&s, out);
		hil_summary_free(&s);
		return hil_render_status(out);
	}
	fprintf(out,
		"| Algorithm | Impl | Op | %s/byte @%.0f B | @%.0f B (longest) | Est. cycles/byte @%.0f B (model) | Est. cycles/byte @%.0f B (model) | × baseline @%.0f B | Flash (B) | RAM (B, static + stack) | Stack (B) | Energy (µJ/op%s) |\n",
		md_str(unit, sizeof(unit), s.unit), s.head_len, s.longest,
		s.head_len, s.longest, s.longest,
		s.energy_model	  ? ", model"
		: s.energy_est	  ? ", est.: typ. (range)"
		: s.energy_beside ? "; est. beside, measured/est."
				  : "");
	fputs("|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n", out);
	for (i = 0; i < s.n; i++) {
		const struct hil_sum_line *l = &s.l[i];
		char ad[48] = "";

		if (l->s.ad_len != 0) {
			snprintf(ad, sizeof(ad), ", AD %.0f B", l->s.ad_len);
		}
		any_nct |= l->not_ct;
		fputs("| ", out);
		hil_md_cell(out, l->s.algorithm);
		fputs(" | ", out);
		hil_md_cell(out, l->s.implementation);
		fputs(l->not_ct ? " †" : "", out);
		fputs(" | ", out);
		hil_md_cell(out, l->s.operation);
		fprintf(out,
			"%s%s | %s | %s | %s | %s | %s | %s | %s | %s | %s%s%s%s |\n",
			ad,
			l->failed	 ? " ✗"
			: l->interrupted ? " (interrupted)"
					 : "",
			l->at64, l->atl, l->model64, l->model, l->norm,
			l->flash, l->ram_total, l->stack, l->energy,
			l->energy_extra[0] ? " (" : "", l->energy_extra,
			l->energy_extra[0] ? ")" : "");
	}
	if (s.n == 0) {
		fputs("| (no rows) | | | | | | | | | | | |\n", out);
	}
	fputs("\n", out);
	if (any_nct) {
		fputs("- † not constant-time (the implementation's own statement): its timing may depend on secret data.\n",
		      out);
	}
	md_failed_rows(&s, out);
	md_interrupted_rows(&s, out);
	md_leak_rows(report, &s, out);
	md_memory_bound(&s, out);
	for (i = 0; i < s.n; i++) {
		char call[32];

		if (!s.l[i].per_call) {
			continue;
		}
		hil_fmt_num(call, sizeof(call), s.l[i].call);
		fputs("- per call (no message): ", out);
		hil_md_cell(out, s.l[i].s.algorithm);
		fputc('/', out);
		hil_md_cell(out, s.l[i].s.implementation);
		fputc(' ', out);
		hil_md_cell(out, s.l[i].s.operation);
		fprintf(out, ": %s %s.\n", call, unit);
	}
	if (s.model_unit != NULL) {
		fprintf(out,
			"- Est. cycles: %s, from the emulated instructions (docs/cycle-model.md); an estimate, not a measurement.\n",
			md_str(text, sizeof(text), s.model_unit));
		if (s.model_err_from != NULL) {
			fprintf(out,
				"- ± N %%: the estimate's expected error, for assembly or for compiled C as the implementation is (report.json: model_cycles.error_pct, error_kind), from %s.\n",
				md_str(text, sizeof(text), s.model_err_from));
		}
	} else {
		fputs("- Est. cycles: \"-\" = not estimated in this run (a real board, or the model was off).\n",
		      out);
	}
	if (s.norm_ref != NULL) {
		fprintf(out,
			"- × baseline: the median divided by that of %s encrypt (bench.normalize_to) at the same length, in this run.\n",
			md_str(text, sizeof(text), s.norm_ref));
	} else {
		fputs("- × baseline: \"-\" = no baseline algorithm measured in this run (bench.normalize_to).\n",
		      out);
	}
	if (s.energy_reason != NULL) {
		fprintf(out, "- Energy: \"-\" = %s%s.\n",
			s.energy_est ? "no estimate: " : "",
			md_str(text, sizeof(text), s.energy_reason));
	} else if (s.energy_est) {
		fprintf(out,
			"- Energy: µJ per operation at %.0f B, a datasheet estimate, not measured (docs/method.md; report.json: energy_estimate): %s.\n",
			s.head_len, md_str(text, sizeof(text), s.energy_note));
	} else if (s.energy_model) {
		fprintf(out,
			"- Energy: µJ per operation at %.0f B from a MODEL (simulated sensor, emulated time): not a measurement.\n",
			s.head_len);
	} else {
		fprintf(out,
			"- Energy: µJ per operation at %.0f B (mean active power × time of one operation).\n",
			s.head_len);
	}
	if (s.energy_beside && s.energy_note[0] != '\0') {
		fprintf(out,
			"- Beside it: the datasheet estimate and measured/estimate (not judged; the first board run checks the estimate): %s.\n",
			md_str(text, sizeof(text), s.energy_note));
	}
	fputs("- Flash: the implementation's own code and constant data (linker map); RAM: its static data (linker map) plus the peak stack of one call of the operation (painting, largest over the series); Stack: that peak alone.",
	      out);
	if (hil_rj_image(report, &flash, &ram, &stack)) {
		fprintf(out,
			" Whole image: %.0f B flash, %.0f B RAM (+%.0f B stack reserve).",
			flash, ram, stack);
	}
	fputs("\n", out);
	if (hil_rj_has_pq(report)) {
		fputs("\n", out);
		hil_md_pq(report, out);
	}
	hil_summary_free(&s);
	return hil_render_status(out);
}
