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

static int any_row_of(const cJSON *report, const char *alg, const char *impl)
{
	const cJSON *r;

	cJSON_ArrayForEach(r, hil_rj_rows(report))
	{
		if (strcmp(hil_rj_str(r, "algorithm"), alg) == 0 &&
		    strcmp(hil_rj_str(r, "implementation"), impl) == 0) {
			return 1;
		}
	}
	return 0;
}

/* ---------------------------------------------------------------- warnings */

static void warn_failed(const cJSON *report, FILE *out)
{
	const cJSON *r;
	int nrows = cJSON_GetArraySize(hil_rj_rows(report)), failed = 0;

	cJSON_ArrayForEach(r, hil_rj_rows(report))
	{
		failed += !hil_rj_row_ok(r);
	}
	if (failed == 0) {
		return;
	}
	fprintf(out,
		"<li><span class=\"bad\">%d of %d rows failed</span>; their figures are not to be used:<ul>\n",
		failed, nrows);
	cJSON_ArrayForEach(r, hil_rj_rows(report))
	{
		double msg = 0, ad = 0;

		if (hil_rj_row_ok(r)) {
			continue;
		}
		hil_rj_num(r, "msg_len", &msg);
		hil_rj_num(r, "ad_len", &ad);
		fputs("<li>", out);
		hil_xml_puts(out, hil_rj_str(r, "algorithm"));
		fputc('/', out);
		hil_xml_puts(out, hil_rj_str(r, "implementation"));
		fputc(' ', out);
		hil_xml_puts(out, hil_rj_str(r, "operation"));
		fprintf(out, ", %.0f B, AD %.0f B: ", msg, ad);
		hil_xml_puts(out, hil_rj_str(r, "error")[0] != '\0'
					  ? hil_rj_str(r, "error")
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
	const cJSON *model;	   /* a flagged row's model_cycles */
	double threshold;
};

static void tally_row(struct leak_tally *l, const cJSON *r, const cJSON *k)
{
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(k, "model_cycles");
	double msg = 0, t = 0;
	size_t n = strlen(l->lens);

	hil_rj_num(r, "msg_len", &msg);
	snprintf(l->lens + n, sizeof(l->lens) - n, "%s%.0f",
		 l->rows > 0 ? ", " : "", msg);
	l->rows++;
	hil_rj_num(k, "threshold", &l->threshold);
	if (hil_rj_num(k, "t", &t) && fabs(t) > l->t_counter) {
		l->t_counter = fabs(t);
	}
	/* an older report: flagged by its counter alone */
	l->by_counter |= hil_rj_bool(k, "flagged") == 1;
	if (strcmp(hil_rj_str(m, "status"), "ok") == 0) {
		l->model = m;
		l->by_model |= hil_rj_bool(m, "flagged") == 1;
		if (hil_rj_num(m, "t", &t) && fabs(t) > l->t_model) {
			l->t_model = fabs(t);
		}
	}
}

/*
 * One line per series the timing-leak smoke test flagged: at which lengths,
 * by which statistic (the target's counter, the cycle model's cycles) with
 * its largest |t|, and what the other said.
 */
static void warn_leaks(const cJSON *report, FILE *w)
{
	struct hil_series *s = NULL;
	size_t n = 0, i;

	if (hil_series_list(report, &s, &n) != HIL_OK) {
		return;
	}
	for (i = 0; i < n; i++) {
		struct leak_tally l = {.threshold = 4.5};
		const char *unit = hil_rj_unit(report);
		const cJSON *r;
		char name[160], label[96];

		cJSON_ArrayForEach(r, hil_rj_rows(report))
		{
			const cJSON *k =
				cJSON_GetObjectItemCaseSensitive(r, "leak");

			if (hil_series_has(&s[i], r) &&
			    strcmp(hil_rj_str(k, "status"), "ok") == 0 &&
			    hil_rj_leak_flagged(k)) {
				tally_row(&l, r, k);
			}
		}
		if (l.rows == 0) {
			continue;
		}
		hil_series_name(&s[i], name, sizeof(name));
		hil_rj_model_label(l.model, label, sizeof(label));
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
static void warn_not_ct(const cJSON *report, FILE *out)
{
	const cJSON *r, *p;
	int any = 0;

	cJSON_ArrayForEach(r, hil_rj_rows(report))
	{
		int seen = 0;

		if (hil_rj_bool(r, "constant_time") != 0) {
			continue;
		}
		for (p = hil_rj_rows(report)->child; p != r; p = p->next) {
			if (hil_rj_bool(p, "constant_time") == 0 &&
			    strcmp(hil_rj_str(p, "algorithm"),
				   hil_rj_str(r, "algorithm")) == 0 &&
			    strcmp(hil_rj_str(p, "implementation"),
				   hil_rj_str(r, "implementation")) == 0) {
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
		hil_xml_puts(out, hil_rj_str(r, "algorithm"));
		fputc('/', out);
		hil_xml_puts(out, hil_rj_str(r, "implementation"));
		any = 1;
	}
	if (any) {
		fputs(".</li>\n", out);
	}
}

/* Implementations built into the image that have no rows. */
static void warn_unmeasured(const cJSON *report, FILE *out)
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
		if (any_row_of(report, tok, slash + 1)) {
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
	FILE *w = h != NULL ? open_memstream(&buf, &len) : NULL;

	if (w == NULL) {
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
	warn_failed(report, w);
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
	warn_leaks(report, w);
	warn_not_ct(report, w);
	warn_unmeasured(report, w);
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
static void unmeasured_rows(const cJSON *report, FILE *out)
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
		if (any_row_of(report, tok, slash + 1)) {
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
	const cJSON *r;
	size_t n = 0, i, j;

	if (hil_series_list(report, &s, &n) != HIL_OK) {
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
		cJSON_ArrayForEach(r, hil_rj_rows(report))
		{
			const cJSON *d;

			if (strcmp(hil_rj_str(r, "algorithm"),
				   s[i].algorithm) != 0 ||
			    strcmp(hil_rj_str(r, "implementation"),
				   s[i].implementation) != 0) {
				continue;
			}
			d = cJSON_GetObjectItemCaseSensitive(r, "digest");
			ok += hil_rj_row_ok(r);
			failed += !hil_rj_row_ok(r);
			mism += hil_rj_bool(d, "match") == 0;
			if (hil_rj_bool(r, "verified") >= 0) {
				verified = verified == 0
						   ? 0
						   : hil_rj_bool(r, "verified");
			}
			if (hil_rj_bool(r, "constant_time") >= 0) {
				ct = hil_rj_bool(r, "constant_time");
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
	unmeasured_rows(report, out);
	fputs("</table>\n</section>\n", out);
	free(s);
}
