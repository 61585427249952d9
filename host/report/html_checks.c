/* html_checks: report.html's warnings at the top and its verification table: what not to trust. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"report"
#include "render_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result/headcodec.h"
#include "util/err.h"

/* The rows of a report, decoded once by result/'s row view. */
struct rows {
	struct hil_row_view *r;
	size_t n;
};

static int any_row_of(const struct rows *rows, const char *alg,
		      const char *impl)
{
	size_t i;

	for (i = 0; i < rows->n; i++) {
		if (strcmp(rows->r[i].algorithm, alg) == 0 &&
		    strcmp(rows->r[i].implementation, impl) == 0) {
			return 1;
		}
	}
	return 0;
}

/* A flag of row r (constant_time, verified, ...): 1, 0, or -1 when the
 * report does not say. */
static int tri(const struct hil_row_view *r, const int *flag)
{
	return hil_row_view_has(r, flag) ? *flag != 0 : -1;
}

/* ---------------------------------------------------------------- warnings */

static void warn_failed(const struct rows *rows, FILE *out)
{
	size_t i;
	int nrows = (int)rows->n, failed = 0;

	for (i = 0; i < rows->n; i++) {
		failed += !hil_rv_ok(&rows->r[i]);
	}
	if (failed == 0) {
		return;
	}
	fprintf(out,
		"<li><span class=\"bad\">%d of %d rows failed</span>; their figures are not to be used:<ul>\n",
		failed, nrows);
	for (i = 0; i < rows->n; i++) {
		const struct hil_row_view *r = &rows->r[i];

		if (hil_rv_ok(r)) {
			continue;
		}
		fputs("<li>", out);
		hil_xml_puts(out, r->algorithm);
		fputc('/', out);
		hil_xml_puts(out, r->implementation);
		fputc(' ', out);
		hil_xml_puts(out, r->operation);
		fprintf(out, ", %.0f B, AD %.0f B: ",
			hil_row_view_has(r, &r->row.msg_len) ? r->row.msg_len
							     : 0.0,
			hil_row_view_has(r, &r->row.ad_len) ? r->row.ad_len
							    : 0.0);
		hil_xml_puts(out, r->error[0] != '\0' ? r->error
						      : "no reason given");
		fputs("</li>\n", out);
	}
	fputs("</ul></li>\n", out);
}

/* What the leak test said over one series' flagged rows. */
struct leak_tally {
	char lens[128]; /* "16, 64, 256" */
	int rows;	/* flagged */
	int by_counter, by_model;
	double t_counter, t_model; /* the largest |t| of each, over all */
	/* a flagged row whose model_cycles were tested */
	const struct hil_row_view *model;
	double threshold;
};

static void tally_row(struct leak_tally *l, const struct hil_row_view *r)
{
	const struct hil_row_leak *k = &r->row.leak;
	size_t n = strlen(l->lens);

	snprintf(l->lens + n, sizeof(l->lens) - n, "%s%.0f",
		 l->rows > 0 ? ", " : "",
		 hil_row_view_has(r, &r->row.msg_len) ? r->row.msg_len : 0.0);
	l->rows++;
	if (hil_row_view_has(r, &r->leak.threshold)) {
		l->threshold = r->leak.threshold;
	}
	if (hil_row_view_has(r, &k->t) && fabs(k->t) > l->t_counter) {
		l->t_counter = fabs(k->t);
	}
	/* an older report: flagged by its counter alone */
	l->by_counter |= tri(r, &k->flagged) == 1;
	if (strcmp(r->leak.model_status, "ok") == 0) {
		l->model = r;
		l->by_model |= tri(r, &k->model.flagged) == 1;
		if (hil_row_view_has(r, &k->model.t) &&
		    fabs(k->model.t) > l->t_model) {
			l->t_model = fabs(k->model.t);
		}
	}
}

/*
 * One line per series the timing-leak smoke test flagged: at which lengths,
 * by which statistic (the target's counter, the cycle model's cycles) with
 * its largest |t|, and what the other said.
 */
static void warn_leaks(const cJSON *report, const struct rows *rows, FILE *w)
{
	struct hil_series *s = NULL;
	size_t n = 0, i, j;

	if (hil_series_of_rows(rows->r, rows->n, &s, &n) != HIL_OK) {
		return;
	}
	for (i = 0; i < n; i++) {
		struct leak_tally l = {.threshold = 4.5};
		const char *unit = hil_rj_unit(report);
		char name[160], label[96];

		for (j = 0; j < rows->n; j++) {
			const struct hil_row_view *r = &rows->r[j];

			if (hil_series_has_row(&s[i], r) &&
			    strcmp(r->leak.status, "ok") == 0 &&
			    hil_rv_leak_flagged(r)) {
				tally_row(&l, r);
			}
		}
		if (l.rows == 0) {
			continue;
		}
		hil_series_name(&s[i], name, sizeof(name));
		hil_rv_model_label(l.model, label, sizeof(label));
		fputs("<li><span class=\"bad\">Timing leak?</span> ", w);
		hil_xml_puts(w, name);
		fputs(" at ", w);
		hil_xml_puts(w, l.lens);
		fputs(" B: flagged by ", w);
		if (l.by_counter) {
			hil_xml_puts(w, unit);
			fprintf(w, ", largest |t| %.1f%s", l.t_counter,
				l.by_model ? ", and by " : "");
		}
		if (l.by_model) {
			hil_xml_puts(w, label);
			fprintf(w, ", largest |t| %.1f", l.t_model);
		}
		if (l.model != NULL && !(l.by_model && l.by_counter)) {
			fputs("; ", w);
			hil_xml_puts(w, l.by_model ? unit : label);
			fprintf(w, ": largest |t| %.1f, not flagged",
				l.by_model ? l.t_counter : l.t_model);
		}
		fprintf(w,
			". Fixed against random inputs, Welch's |t| &gt; %.1f; each length's t in summary.md.</li>\n",
			l.threshold);
	}
	free(s);
}

/* "alg/impl, alg/impl" of implementations whose rows say not constant-time. */
static void warn_not_ct(const struct rows *rows, FILE *out)
{
	size_t i, j;
	int any = 0;

	for (i = 0; i < rows->n; i++) {
		const struct hil_row_view *r = &rows->r[i];
		int seen = 0;

		if (tri(r, &r->constant_time) != 0) {
			continue;
		}
		for (j = 0; j < i; j++) {
			const struct hil_row_view *p = &rows->r[j];

			if (tri(p, &p->constant_time) == 0 &&
			    strcmp(p->algorithm, r->algorithm) == 0 &&
			    strcmp(p->implementation, r->implementation) == 0) {
				seen = 1;
				break;
			}
		}
		if (seen) {
			continue;
		}
		fputs(any ? ", "
			  : "<li><span class=\"bad\">Not constant-time</span> (the implementation's own statement; its timing may depend on secret data): ",
		      out);
		hil_xml_puts(out, r->algorithm);
		fputc('/', out);
		hil_xml_puts(out, r->implementation);
		any = 1;
	}
	if (any) {
		fputs(".</li>\n", out);
	}
}

/* Implementations built into the image that have no rows. */
static void warn_unmeasured(const cJSON *report, const struct rows *rows,
			    FILE *out)
{
	const char *algs =
		hil_rj_str(cJSON_GetObjectItemCaseSensitive(report, "build"),
			   "algorithms");
	char *copy = strdup(algs), *tok, *save = NULL;
	int any = 0;

	if (copy == NULL) {
		return;
	}
	for (tok = strtok_r(copy, " ", &save); tok != NULL;
	     tok = strtok_r(NULL, " ", &save)) {
		char *slash = strchr(tok, '/');

		if (slash == NULL) {
			continue;
		}
		*slash = '\0';
		/* A folder of the user's own: "alg/impl=its link". */
		slash[1 + strcspn(slash + 1, "=")] = '\0';
		if (any_row_of(rows, tok, slash + 1)) {
			continue;
		}
		fputs(any ? ", "
			  : "<li><span class=\"bad\">Built but not measured</span> (it failed verification on the target, or the run stopped before it): ",
		      out);
		hil_xml_puts(out, tok);
		fputc('/', out);
		hil_xml_puts(out, slash + 1);
		any = 1;
	}
	if (any) {
		fputs(".</li>\n", out);
	}
	free(copy);
}

void hil_render_html_warnings(const cJSON *report, FILE *out)
{
	/* The report-level fields through result/'s codec tables. */
	struct hil_result_head *h = malloc(sizeof(*h));
	const char *unit = hil_rj_unit(report);
	char *buf = NULL;
	size_t len = 0;
	double retries, bad;
	struct rows rows = {NULL, 0};
	FILE *w = h != NULL ? open_memstream(&buf, &len) : NULL;

	/* The rows through result/'s codec, decoded once. */
	if (w == NULL || hil_row_views_read(hil_rj_rows(report), &rows.r,
					    &rows.n) != HIL_OK) {
		if (w != NULL) {
			fclose(w);
			free(buf);
		}
		free(h);
		return;
	}
	hil_result_head_read(report, h);
	retries = h->session.retries;
	bad = h->session.bad_frames;
	if (strcmp(h->run.status, "complete") != 0) {
		fputs("<li><span class=\"bad\">The run is ", w);
		hil_xml_puts(w, h->run.status);
		fputs("</span>: it stopped before every step was done.</li>\n",
		      w);
	}
	warn_failed(&rows, w);
	if (strncmp(unit, "instructions", 12) == 0) {
		fputs("<li><span class=\"bad\">Emulated figures</span>: counts are ",
		      w);
		hil_xml_puts(w, unit);
		fputs(", counted by QEMU, not cycles of a Cortex-M4; they compare code paths, not time.",
		      w);
		if (hil_rj_only_pq(report)) {
			fputs(" The Est. cycles are the cycle model's estimate from them, not a measurement.",
			      w);
		} else if (hil_svg_per_byte_has_model(report)) {
			fputs(" The Cycles/byte figures are the cycle model's estimate from them, not a measurement.",
			      w);
		}
		fputs("</li>\n", w);
	} else if (strcmp(unit, "cycles") != 0 || h->board.emulated) {
		fputs("<li><span class=\"bad\">Not cycles measured on a board</span>: figures are ",
		      w);
		hil_xml_puts(w, unit);
		fputs(h->board.emulated ? ", from an emulated board.</li>\n"
					: ".</li>\n",
		      w);
	}
	warn_leaks(report, &rows, w);
	warn_not_ct(&rows, w);
	warn_unmeasured(report, &rows, w);
	if (h->tool.dirty) {
		fputs("<li>Built from a source tree with uncommitted changes (commit <code>",
		      w);
		hil_xml_puts(w, h->tool.commit);
		fputs("</code>).</li>\n", w);
	}
	if (retries > 0 || bad > 0) {
		fprintf(w,
			"<li>The link needed %.0f retries and saw %.0f damaged frames.</li>\n",
			retries, bad);
	}
	free(h);
	free(rows.r);
	fclose(w);
	if (len > 0) {
		fputs("<section class=\"warnings\" id=\"warnings\"><h2>Warnings</h2><ul>\n",
		      out);
		fwrite(buf, 1, len, out);
		fputs("</ul></section>\n", out);
	} else {
		fputs("<section class=\"clean\" id=\"warnings\"><h2>Warnings</h2><p class=\"ok\">None: every row passed, the figures are cycles measured on the board, and every implementation claims constant time.</p></section>\n",
		      out);
	}
	free(buf);
}

/* Verification lines for implementations built in but without rows. */
static void unmeasured_rows(const cJSON *report, const struct rows *rows,
			    FILE *out)
{
	const char *algs =
		hil_rj_str(cJSON_GetObjectItemCaseSensitive(report, "build"),
			   "algorithms");
	char *copy = strdup(algs), *tok, *save = NULL;

	if (copy == NULL) {
		return;
	}
	for (tok = strtok_r(copy, " ", &save); tok != NULL;
	     tok = strtok_r(NULL, " ", &save)) {
		char *slash = strchr(tok, '/');

		if (slash == NULL) {
			continue;
		}
		*slash = '\0';
		/* A folder of the user's own: "alg/impl=its link". */
		slash[1 + strcspn(slash + 1, "=")] = '\0';
		if (any_row_of(rows, tok, slash + 1)) {
			continue;
		}
		fputs("<tr class=\"failed\"><td>", out);
		hil_xml_puts(out, tok);
		fputc('/', out);
		hil_xml_puts(out, slash + 1);
		fputs("</td><td>-</td><td class=\"bad\">no rows: failed verification, or not reached</td><td class=\"n\">0</td><td class=\"n\">-</td><td class=\"n\">-</td></tr>\n",
		      out);
	}
	free(copy);
}

void hil_render_html_verification(const cJSON *report, FILE *out)
{
	struct hil_series *s = NULL;
	struct rows rows = {NULL, 0};
	size_t n = 0, i, j, k;

	/* The rows through result/'s codec, decoded once. */
	if (hil_row_views_read(hil_rj_rows(report), &rows.r, &rows.n) !=
		    HIL_OK ||
	    hil_series_of_rows(rows.r, rows.n, &s, &n) != HIL_OK) {
		free(rows.r);
		return;
	}
	fputs("<section id=\"verification\"><h2>Verification</h2>\n<p class=\"caption\">Each implementation is checked on the target against the host build before it is timed; every timed row's output digest is compared with the host's.</p>\n<table>\n<tr><th>Implementation</th><th>Constant-time</th><th>Verified on target</th><th class=\"n\">Rows ok</th><th class=\"n\">Rows failed</th><th class=\"n\">Digest mismatches</th></tr>\n",
	      out);
	for (i = 0; i < n; i++) {
		int ok = 0, failed = 0, mism = 0, verified = -1, ct = -1;

		/* One line per implementation: skip its later series. */
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
		for (k = 0; k < rows.n; k++) {
			const struct hil_row_view *r = &rows.r[k];

			if (strcmp(r->algorithm, s[i].algorithm) != 0 ||
			    strcmp(r->implementation, s[i].implementation) !=
				    0) {
				continue;
			}
			ok += hil_rv_ok(r);
			failed += !hil_rv_ok(r);
			mism += tri(r, &r->digest_match) == 0;
			if (tri(r, &r->row.verified) >= 0) {
				verified = verified == 0
						   ? 0
						   : tri(r, &r->row.verified);
			}
			if (tri(r, &r->constant_time) >= 0) {
				ct = tri(r, &r->constant_time);
			}
		}
		fputs("<tr><td>", out);
		hil_xml_puts(out, s[i].algorithm);
		fputc('/', out);
		hil_xml_puts(out, s[i].implementation);
		fprintf(out, "</td><td>%s</td><td>%s</td>",
			ct == 1	  ? "<span class=\"ok\">yes</span>"
			: ct == 0 ? "<span class=\"bad\">no</span>"
				  : "not stated",
			verified == 1	? "<span class=\"ok\">yes</span>"
			: verified == 0 ? "<span class=\"bad\">no</span>"
					: "-");
		fprintf(out,
			"<td class=\"n\">%d</td><td class=\"n%s\">%d</td><td class=\"n%s\">%d</td></tr>\n",
			ok, failed ? " bad" : "", failed, mism ? " bad" : "",
			mism);
	}
	unmeasured_rows(report, &rows, out);
	fputs("</table>\n</section>\n", out);
	free(s);
	free(rows.r);
}
