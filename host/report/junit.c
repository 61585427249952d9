/* junit: JUnit XML so that CI systems show verification and regressions natively. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"junit"
#include "render_int.h"

#include <stdlib.h>
#include <string.h>

#include "result/headcodec.h"
#include "result/rowview.h"
#include "util/err.h"
#include "util/log.h"

/* Why a row counts as a failed test, or NULL when it passed. */
static const char *row_failure(const struct hil_row_view *v, char *buf,
			       size_t len)
{
	if (strcmp(v->status, "ok") != 0) {
		return v->error[0] != '\0' ? v->error
					   : "the row failed (no reason given)";
	}
	if (hil_row_view_has(v, &v->digest_match) && !v->digest_match) {
		char want[16] = "", got[16] = "";

		if (hil_row_view_has(v, &v->row.digest_expected)) {
			snprintf(want, sizeof(want), "%08x",
				 (unsigned)v->row.digest_expected);
		}
		if (hil_row_view_has(v, &v->row.digest_got)) {
			snprintf(got, sizeof(got), "%08x",
				 (unsigned)v->row.digest_got);
		}
		snprintf(buf, len, "digest mismatch: expected %s, measured %s",
			 want, got);
		return buf;
	}
	if (hil_row_view_has(v, &v->row.verified) && !v->row.verified) {
		return "the implementation was not verified on the target";
	}
	return NULL;
}

static void testcase_open(FILE *out, const char *alg, const char *impl,
			  const char *name)
{
	fputs("    <testcase classname=\"hilrun.", out);
	hil_xml_puts(out, alg);
	fputc('.', out);
	hil_xml_puts(out, impl);
	fputs("\" name=\"", out);
	hil_xml_puts(out, name);
	fputs("\" time=\"0\">\n", out);
}

static void property(FILE *out, const char *name, const char *value)
{
	fprintf(out, "      <property name=\"%s\" value=\"", name);
	hil_xml_puts(out, value);
	fputs("\"/>\n", out);
}

/* The rows of report (decoded in rows, n of them) as test cases. */
static void verification_suite(const cJSON *report,
			       const struct hil_row_view *rows, size_t n,
			       FILE *out)
{
	/* The report-level fields through result/'s codec tables. */
	struct hil_result_head *h = malloc(sizeof(*h));
	const char *unit = hil_rj_unit(report);
	char buf[512];
	size_t i;
	int tests = 0, failures = 0;

	for (i = 0; i < n; i++) {
		tests++;
		failures += row_failure(&rows[i], buf, sizeof(buf)) != NULL;
	}
	fprintf(out,
		"  <testsuite name=\"hilrun.rows\" tests=\"%d\" failures=\"%d\" errors=\"0\" skipped=\"0\" time=\"0\">\n",
		tests, failures);
	fputs("    <properties>\n", out);
	if (h != NULL) {
		hil_result_head_read(report, h);
		property(out, "run", h->run.id);
		property(out, "run_status", h->run.status);
		property(out, "board", h->board.name);
		property(out, "counter_unit", unit);
		property(out, "commit", h->tool.commit);
		free(h);
	}
	fputs("    </properties>\n", out);
	for (i = 0; i < n; i++) {
		const struct hil_row_view *r = &rows[i];
		const char *why = row_failure(r, buf, sizeof(buf));
		char name[160], m[40];

		snprintf(name, sizeof(name), "%s msg %.0f ad %.0f",
			 r->operation, (double)r->row.msg_len,
			 (double)r->row.ad_len);
		testcase_open(out, r->algorithm, r->implementation, name);
		if (why != NULL) {
			fputs("      <failure type=\"verification\" message=\"",
			      out);
			hil_xml_puts(out, why);
			fputs("\">", out);
			hil_xml_puts(out, why);
			fputs("</failure>\n", out);
		}
		if (hil_row_view_has(r, &r->median)) {
			hil_fmt_num(m, sizeof(m), r->median);
			fputs("      <system-out>median ", out);
			hil_xml_puts(out, m);
			fputc(' ', out);
			hil_xml_puts(out, unit);
			fputs("</system-out>\n", out);
		}
		fputs("    </testcase>\n", out);
	}
	fputs("  </testsuite>\n", out);
}

static void regression_suite(const struct hil_cmp *c, FILE *out)
{
	size_t i, skipped = 0;

	for (i = 0; i < c->n; i++) {
		skipped += c->e[i].verdict == HIL_ADDED ||
			   c->e[i].verdict == HIL_REMOVED;
	}
	fprintf(out,
		"  <testsuite name=\"hilrun.regression\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\" time=\"0\">\n",
		c->n, c->worse, skipped);
	for (i = 0; i < c->n; i++) {
		const struct hil_cmp_entry *e = &c->e[i];
		char name[200], b[40] = "-", n[40] = "-", msg[400];

		snprintf(name, sizeof(name), "%s msg %.0f ad %.0f %s",
			 e->operation, e->msg_len, e->ad_len, e->metric);
		testcase_open(out, e->algorithm, e->implementation, name);
		if (e->have_base) {
			hil_fmt_num(b, sizeof(b), e->base);
		}
		if (e->have_new) {
			hil_fmt_num(n, sizeof(n), e->cur);
		}
		if (e->verdict == HIL_ADDED || e->verdict == HIL_REMOVED) {
			fputs("      <skipped message=\"", out);
			hil_xml_puts(out, e->note);
			fputs("\"/>\n", out);
		} else if (e->verdict == HIL_WORSE) {
			if (e->have_base && e->have_new) {
				snprintf(
					msg, sizeof(msg),
					"%s %s -> %s %s (%+.2f%%, threshold %g%%)%s",
					e->metric, b, n, e->unit,
					(e->ratio - 1) * 100, e->threshold,
					e->within_error
						? "; within the model's error: the code's modelled cost rose, the board may not show it"
						: "");
			} else {
				snprintf(msg, sizeof(msg), "failed: %s",
					 e->note);
			}
			fputs("      <failure type=\"regression\" message=\"",
			      out);
			hil_xml_puts(out, msg);
			fputs("\">", out);
			hil_xml_puts(out, msg);
			fputs("</failure>\n", out);
		}
		fputs("    </testcase>\n", out);
	}
	fputs("  </testsuite>\n", out);
}

int hil_junit_write(const cJSON *report, const struct hil_cmp *cmp, FILE *out)
{
	struct hil_row_view *rows = NULL;
	size_t tests = 0, failures = 0, n = 0, i;
	char buf[512];

	/* The rows through result/'s codec, decoded once. */
	if (hil_row_views_read(hil_rj_rows(report), &rows, &n) != HIL_OK) {
		hil_err("out of memory");
		return HIL_ERR_NOMEM;
	}
	for (i = 0; i < n; i++) {
		tests++;
		failures += row_failure(&rows[i], buf, sizeof(buf)) != NULL;
	}
	if (cmp != NULL) {
		tests += cmp->n;
		failures += cmp->worse;
	}
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
	fprintf(out,
		"<testsuites name=\"hilrun\" tests=\"%zu\" failures=\"%zu\" errors=\"0\">\n",
		tests, failures);
	verification_suite(report, rows, n, out);
	free(rows);
	if (cmp != NULL) {
		regression_suite(cmp, out);
	}
	fputs("</testsuites>\n", out);
	return hil_render_status(out);
}
