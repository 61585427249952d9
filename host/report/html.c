/* html: report.html, one self-contained page that opens from the file system. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"report"
#include "render_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/err.h"
#include "report/report.h"

/*
 * Nothing on the page is fetched: styles inline, SVGs inline, no script,
 * no fonts but the reader's own. The only URL is the SVG namespace, which
 * is a name, not a resource.
 */
static const char style[] =
	"body{font-family:\"DejaVu Sans\",Arial,Helvetica,sans-serif;margin:0;background:#f3f4f6;color:#222;line-height:1.4}\n"
	"main{max-width:1200px;margin:0 auto;padding:20px 24px}\n"
	"h1{font-size:22px;margin:4px 0}\n"
	"h2{font-size:17px;margin:0 0 10px}\n"
	".caption{color:#444;font-size:13px;margin:6px 0 0}\n"
	"section{background:#fff;border:1px solid #d9dce1;border-radius:6px;padding:14px 18px;margin:14px 0;overflow-x:auto}\n"
	"section.warnings{border-left:5px solid #d39e00;background:#fffbea}\n"
	"section.clean{border-left:5px solid #2e8540}\n"
	"table{border-collapse:collapse;font-size:13px}\n"
	"th,td{padding:3px 9px;border-bottom:1px solid #e5e7eb;text-align:left;white-space:nowrap}\n"
	"th{background:#f7f7f9;font-weight:600;vertical-align:bottom}\n"
	"th .sub{display:block;font-weight:400;font-size:11px;color:#555;white-space:normal}\n"
	"table.head th{white-space:normal;min-width:3.5em}\n"
	"table.head{font-size:14px}table.head td.hl{font-weight:600}\n"
	"table.head th.hl{background:#e8f0fa}table.head .first{border-left:2px solid #d9dce1}\n"
	"table.head td.d,table.head th.d{color:#555}\n"
	"td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}\n"
	"tr.failed td{background:#fdecea}\n"
	"td.best{font-weight:700}\n"
	".bad{color:#b00020;font-weight:600}\n"
	".ok{color:#1b7f3b}\n"
	".muted{color:#666}\n"
	".tag{display:inline-block;padding:0 5px;margin-left:4px;border-radius:3px;font-size:11px;background:#ffe0b2;color:#7a4100}\n"
	".tag.fail{background:#f8d7da;color:#8a0014}\n"
	"ul{margin:4px 0;padding-left:22px}\n"
	"ul.notes{font-size:13px}\n"
	"#rows table{font-size:12px}#rows td,#rows th{padding:2px 6px}\n"
	"svg{max-width:100%;height:auto;display:block;margin:6px 0 14px}\n"
	"dl.prov{display:grid;grid-template-columns:max-content 1fr;gap:2px 18px;font-size:13px;margin:0}\n"
	"dt{color:#555}dd{margin:0;word-break:break-all}\n"
	"code{font-family:\"DejaVu Sans Mono\",monospace;font-size:12px}\n"
	"footer{color:#777;font-size:12px;margin:10px 0 30px}\n"
	"details{margin:0 0 14px}summary{cursor:pointer;color:#1f5f99;font-size:13px}\n";

static void esc(FILE *out, const char *s)
{
	hil_xml_puts(out, s);
}

static void td_text(FILE *out, const char *cls, const char *s)
{
	if (cls != NULL) {
		fprintf(out, "<td class=\"%s\">", cls);
	} else {
		fputs("<td>", out);
	}
	esc(out, s);
	fputs("</td>", out);
}

static void td_num(FILE *out, const cJSON *o, const char *key)
{
	char buf[40] = "-";
	double v;

	if (hil_rj_num(o, key, &v)) {
		hil_fmt_num(buf, sizeof(buf), v);
	}
	td_text(out, "n", buf);
}

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
		esc(out, hil_rj_str(r, "algorithm"));
		fputc('/', out);
		esc(out, hil_rj_str(r, "implementation"));
		fputc(' ', out);
		esc(out, hil_rj_str(r, "operation"));
		fprintf(out, ", %.0f B, AD %.0f B: ", msg, ad);
		esc(out, hil_rj_str(r, "error")[0] != '\0'
				 ? hil_rj_str(r, "error")
				 : "no reason given");
		fputs("</li>\n", out);
	}
	fputs("</ul></li>\n", out);
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
		esc(out, hil_rj_str(r, "algorithm"));
		fputc('/', out);
		esc(out, hil_rj_str(r, "implementation"));
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
		esc(out, tok);
		fputc('/', out);
		esc(out, slash + 1);
		any = 1;
	}
	if (any) {
		fputs(".</li>\n", out);
	}
	free(copy);
}

static void warnings(const cJSON *report, FILE *out)
{
	const cJSON *run = cJSON_GetObjectItemCaseSensitive(report, "run");
	const cJSON *tool = cJSON_GetObjectItemCaseSensitive(report, "tool");
	const cJSON *board = cJSON_GetObjectItemCaseSensitive(report, "board");
	const cJSON *session =
		cJSON_GetObjectItemCaseSensitive(report, "session");
	const char *unit = hil_rj_unit(report);
	char *buf = NULL;
	size_t len = 0;
	double retries = 0, bad = 0;
	FILE *w = open_memstream(&buf, &len);

	if (w == NULL) {
		return;
	}
	if (strcmp(hil_rj_str(run, "status"), "complete") != 0) {
		fputs("<li><span class=\"bad\">The run is ", w);
		esc(w, hil_rj_str(run, "status"));
		fputs("</span>: it stopped before every step was done.</li>\n",
		      w);
	}
	warn_failed(report, w);
	if (strncmp(unit, "instructions", 12) == 0) {
		fputs("<li><span class=\"bad\">Emulated figures</span>: counts are ",
		      w);
		esc(w, unit);
		fputs(", counted by QEMU, not cycles of a Cortex-M4; they compare code paths, not time.",
		      w);
		if (hil_svg_per_byte_has_model(report)) {
			fputs(" The Cycles/byte figures are the cycle model's estimate from them, not a measurement.",
			      w);
		}
		fputs("</li>\n", w);
	} else if (strcmp(unit, "cycles") != 0 ||
		   hil_rj_bool(board, "emulated") == 1) {
		fputs("<li><span class=\"bad\">Not cycles measured on a board</span>: figures are ",
		      w);
		esc(w, unit);
		fputs(hil_rj_bool(board, "emulated") == 1
			      ? ", from an emulated board.</li>\n"
			      : ".</li>\n",
		      w);
	}
	warn_not_ct(report, w);
	warn_unmeasured(report, w);
	if (hil_rj_bool(tool, "dirty") == 1) {
		fputs("<li>Built from a source tree with uncommitted changes (commit <code>",
		      w);
		esc(w, hil_rj_str(tool, "commit"));
		fputs("</code>).</li>\n", w);
	}
	hil_rj_num(session, "retries", &retries);
	hil_rj_num(session, "bad_frames", &bad);
	if (retries > 0 || bad > 0) {
		fprintf(w,
			"<li>The link needed %.0f retries and saw %.0f damaged frames.</li>\n",
			retries, bad);
	}
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

/* ---------------------------------------------------------------- tables */

/*
 * The headline column's label: "Cycles/byte" and what kind of cycles, so
 * that an estimate or an emulated count is never taken for a measurement.
 */
static void head_label(const struct hil_summary *s, const cJSON *report,
		       char *name, size_t nlen, char *sub, size_t slen)
{
	const char *u = s->head_unit;
	const char *paren = strchr(u, '(');
	size_t word = paren != NULL ? (size_t)(paren - u) : strlen(u);

	while (word > 0 && u[word - 1] == ' ') {
		word--;
	}
	/* "Cycles/byte", "Instructions/byte"; a symbol stays as it is
	 * ("ns/byte"). */
	snprintf(name, nlen, "%c%.*s/byte",
		 u[0] >= 'a' && u[0] <= 'z' && word > 2 ? u[0] - 32 : u[0],
		 (int)(word > 0 ? word - 1 : 0), u + 1);
	if (paren != NULL) {
		const char *close = strrchr(paren, ')');
		size_t n = close != NULL && close > paren
				   ? (size_t)(close - paren - 1)
				   : strlen(paren + 1);

		snprintf(sub, slen, "%.*s", (int)n, paren + 1);
	} else if (strcmp(u, "cycles") == 0 &&
		   hil_rj_bool(
			   cJSON_GetObjectItemCaseSensitive(report, "board"),
			   "emulated") != 1) {
		snprintf(sub, slen, "%s", "measured on the board (DWT)");
	} else {
		snprintf(sub, slen, "%s", "");
	}
}

static void th2(FILE *out, const char *cls, const char *name, const char *sub)
{
	fprintf(out, "<th class=\"%s\">", cls);
	esc(out, name);
	if (sub != NULL && sub[0] != '\0') {
		fputs("<span class=\"sub\">", out);
		esc(out, sub);
		fputs("</span>", out);
	}
	fputs("</th>", out);
}

/* A number cell; "-" with the reason as a tooltip when one is given. */
static void td_cell(FILE *out, const char *cls, const char *v, const char *why)
{
	if (strcmp(v, "-") == 0 && why != NULL) {
		fprintf(out, "<td class=\"%s muted\" title=\"", cls);
		esc(out, why);
		fputs("\">-</td>", out);
	} else {
		td_text(out, cls, v);
	}
}

static void summary(const cJSON *report, FILE *out)
{
	struct hil_summary s;
	char name[96], sub[160], at[64], lsub[200], esub[64];
	int emu_extra;
	size_t i;

	if (hil_summary_build(report, &s) != HIL_OK) {
		return;
	}
	/* With the model on, the counter's own figures follow as detail. */
	emu_extra = s.model_unit != NULL;
	head_label(&s, report, name, sizeof(name), sub, sizeof(sub));
	fputs("<section id=\"summary\"><h2>Summary</h2>\n<p class=\"caption\">",
	      out);
	esc(out, s.caption);
	fputs("</p>\n<table class=\"head\">\n<thead><tr><th>Algorithm</th><th>Impl</th><th>Op</th>",
	      out);
	snprintf(lsub, sizeof(lsub), "@%.0f B%s%s", s.head_len,
		 sub[0] ? ", " : "", sub);
	th2(out, "n hl", name, lsub);
	th2(out, "n hl", "Flash", "B, own code + data");
	th2(out, "n hl", "RAM", "B, static + stack");
	snprintf(esub, sizeof(esub), "µJ/op @%.0f B%s", s.head_len,
		 s.energy_model ? ", model"
		 : s.energy_est ? ", est."
				: "");
	th2(out, "n hl", "Energy", esub);
	snprintf(at, sizeof(at), "@%.0f B (longest)", s.longest);
	th2(out, "n d first", name, at);
	th2(out, "n d", "Stack", "B, peak");
	if (emu_extra) {
		snprintf(lsub, sizeof(lsub), "%s, @%.0f B / @%.0f B", s.unit,
			 s.head_len, s.longest);
		th2(out, "n d", "Counter/byte", lsub);
	}
	snprintf(at, sizeof(at), "@%.0f B", s.longest);
	th2(out, "n d", "× ref", at);
	fputs("</tr></thead>\n<tbody>\n", out);
	for (i = 0; i < s.n; i++) {
		const struct hil_sum_line *l = &s.l[i];

		fprintf(out, "<tr%s>", l->failed ? " class=\"failed\"" : "");
		td_text(out, NULL, l->s.algorithm);
		fputs("<td>", out);
		esc(out, l->s.implementation);
		if (l->not_ct) {
			fputs("<span class=\"tag\" title=\"not constant-time\">not CT</span>",
			      out);
		}
		fputs("</td><td>", out);
		esc(out, l->s.operation);
		if (l->s.ad_len != 0) {
			fprintf(out, ", AD %.0f B", l->s.ad_len);
		}
		if (l->failed) {
			fputs("<span class=\"tag fail\">failed</span>", out);
		}
		fputs("</td>", out);
		td_cell(out, "n hl", l->head64,
			l->per_call ? "no message: a cost per call, below"
				    : NULL);
		td_text(out, "n hl", l->flash);
		if (strcmp(l->ram_total, "-") != 0) {
			fprintf(out,
				"<td class=\"n hl\" title=\"static %s B + stack %s B\">",
				l->ram, l->stack);
			esc(out, l->ram_total);
			fputs("</td>", out);
		} else {
			td_text(out, "n hl", l->ram_total);
		}
		td_cell(out, "n hl", l->energy, s.energy_reason);
		td_text(out, "n d first", l->headl);
		td_text(out, "n d", l->stack);
		if (emu_extra) {
			char both[72];

			snprintf(both, sizeof(both), "%s / %s", l->at64,
				 l->atl);
			td_text(out, "n d", both);
		}
		td_text(out, "n d", l->norm);
		fputs("</tr>\n", out);
	}
	fputs("</tbody></table>\n<ul class=\"notes muted\">\n", out);
	for (i = 0; i < s.n; i++) {
		char call[40];

		if (!s.l[i].per_call) {
			continue;
		}
		hil_fmt_num(call, sizeof(call), s.l[i].call);
		fputs("<li>Per call (no message): ", out);
		esc(out, s.l[i].s.algorithm);
		fputc('/', out);
		esc(out, s.l[i].s.implementation);
		fputc(' ', out);
		esc(out, s.l[i].s.operation);
		fprintf(out, ": %s ", call);
		esc(out, s.unit);
		fputs(".</li>\n", out);
	}
	if (s.model_unit != NULL) {
		fputs("<li>Cycles/byte: ", out);
		esc(out, s.model_unit);
		fputs(", computed from the emulated instructions: an estimate, not a measurement. The emulator's own count is in the last columns but one.</li>\n",
		      out);
	}
	if (s.norm_ref != NULL) {
		fputs("<li>× ref: the median divided by that of ", out);
		esc(out, s.norm_ref);
		fputs(" encrypt at the same length, in this run.</li>\n", out);
	} else {
		fputs("<li>× ref: - = no reference algorithm in this run (bench.normalize_to).</li>\n",
		      out);
	}
	if (s.energy_reason != NULL) {
		fputs(s.energy_est ? "<li>Energy: - = no estimate: "
				   : "<li>Energy: - = ",
		      out);
		esc(out, s.energy_reason);
		fputs(".</li>\n", out);
	} else if (s.energy_est) {
		fprintf(out,
			"<li>Energy: µJ per operation at %.0f B, estimated from the datasheet's run current, not measured: see docs/method.md (report.json: energy_estimate).</li>\n",
			s.head_len);
	} else if (s.energy_model) {
		fprintf(out,
			"<li>Energy: µJ per operation at %.0f B from a MODEL (simulated INA219, emulated time): not a measurement.</li>\n",
			s.head_len);
	} else {
		fprintf(out, "<li>Energy: µJ per operation at %.0f B.</li>\n",
			s.head_len);
	}
	fputs("<li>Flash: the implementation's own code and constant data (linker map). RAM: its static data (linker map) plus the peak stack of one call of that operation (stack painting); Stack: the peak alone.</li>\n</ul>\n</section>\n",
	      out);
	hil_summary_free(&s);
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
		esc(out, tok);
		fputc('/', out);
		esc(out, slash + 1);
		fputs("</td><td>-</td><td class=\"bad\">no rows: failed verification, or not reached</td><td class=\"n\">0</td><td class=\"n\">-</td><td class=\"n\">-</td></tr>\n",
		      out);
	}
	free(copy);
}

static void verification(const cJSON *report, FILE *out)
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
		esc(out, s[i].algorithm);
		fputc('/', out);
		esc(out, s[i].implementation);
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

static void all_rows(const cJSON *report, FILE *out)
{
	static const char *const stats[] = {"stddev", "min", "max", "mad"};
	const char *unit = hil_rj_unit(report);
	const cJSON *r;
	size_t i;
	int idx = 0;

	fputs("<section id=\"rows\"><h2>All rows</h2>\n<p class=\"caption\">Every figure in ",
	      out);
	esc(out, unit);
	fputs(", the overhead of the timing itself subtracted; CI95: confidence interval of the median.</p>\n<table>\n<tr><th>Algorithm</th><th>Impl</th><th>Op</th><th>Mode</th><th class=\"n\">Msg (B)</th><th class=\"n\">AD (B)</th><th class=\"n\">Runs</th><th class=\"n\">Median</th><th class=\"n\">Per byte</th><th class=\"n\">Stddev</th><th class=\"n\">Min</th><th class=\"n\">Max</th><th class=\"n\">MAD</th><th class=\"n\">CI95</th><th class=\"n\">Outliers</th><th class=\"n\">Stack (B)</th><th>Digest</th><th>Status</th></tr>\n",
	      out);
	cJSON_ArrayForEach(r, hil_rj_rows(report))
	{
		const cJSON *ci = cJSON_GetObjectItemCaseSensitive(r, "ci95");
		const cJSON *d = cJSON_GetObjectItemCaseSensitive(r, "digest");
		char pb[40] = "-", c[96] = "-";
		double msg = 0, ad = 0, v;
		int ok = hil_rj_row_ok(r);

		hil_rj_num(r, "msg_len", &msg);
		hil_rj_num(r, "ad_len", &ad);
		fprintf(out, "<tr class=\"row%s\" id=\"row-%d\" data-key=\"",
			ok ? "" : " failed", idx++);
		esc(out, hil_rj_str(r, "algorithm"));
		fputc('/', out);
		esc(out, hil_rj_str(r, "implementation"));
		fputc('/', out);
		esc(out, hil_rj_str(r, "operation"));
		fprintf(out, "/%.0f/%.0f\">", msg, ad);
		td_text(out, NULL, hil_rj_str(r, "algorithm"));
		td_text(out, NULL, hil_rj_str(r, "implementation"));
		td_text(out, NULL, hil_rj_str(r, "operation"));
		td_text(out, NULL, hil_rj_str(r, "mode"));
		td_num(out, r, "msg_len");
		td_num(out, r, "ad_len");
		td_num(out, r, "runs");
		td_num(out, r, "median");
		if (hil_rj_row_per_byte(r, &v)) {
			snprintf(pb, sizeof(pb), "%.2f", v);
		}
		td_text(out, "n", pb);
		for (i = 0; i < sizeof(stats) / sizeof(stats[0]); i++) {
			td_num(out, r, stats[i]);
		}
		if (cJSON_GetArraySize(ci) == 2 &&
		    cJSON_IsNumber(cJSON_GetArrayItem(ci, 0)) &&
		    cJSON_IsNumber(cJSON_GetArrayItem(ci, 1))) {
			char a[40], b[40];

			hil_fmt_num(a, sizeof(a),
				    cJSON_GetArrayItem(ci, 0)->valuedouble);
			hil_fmt_num(b, sizeof(b),
				    cJSON_GetArrayItem(ci, 1)->valuedouble);
			snprintf(c, sizeof(c), "%s..%s", a, b);
		}
		td_text(out, "n", c);
		td_num(out, r, "outliers");
		td_num(out, r, "stack_bytes");
		if (hil_rj_bool(d, "match") == 1) {
			fputs("<td class=\"ok\"><code>", out);
			esc(out, hil_rj_str(d, "measured"));
			fputs("</code></td>", out);
		} else if (d != NULL) {
			fputs("<td class=\"bad\"><code>", out);
			esc(out, hil_rj_str(d, "measured"));
			fputs("</code> (expected <code>", out);
			esc(out, hil_rj_str(d, "expected"));
			fputs("</code>)</td>", out);
		} else {
			td_text(out, NULL, "-");
		}
		if (ok) {
			fputs("<td class=\"ok\">ok</td>", out);
		} else {
			fputs("<td class=\"bad\">failed: ", out);
			esc(out, hil_rj_str(r, "error"));
			fputs("</td>", out);
		}
		fputs("</tr>\n", out);
	}
	fputs("</table>\n</section>\n", out);
}

static void fits(const cJSON *report, FILE *out)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(report, "fits");
	const cJSON *f;

	if (cJSON_GetArraySize(a) <= 0) {
		return;
	}
	fputs("<section id=\"fits\"><h2>Cost model</h2>\n<p class=\"caption\">Least-squares fit of median = fixed + per byte × length over each series' lengths.</p>\n<table>\n<tr><th>Algorithm</th><th>Impl</th><th>Op</th><th class=\"n\">AD (B)</th><th class=\"n\">Fixed</th><th class=\"n\">Per byte</th><th class=\"n\">R²</th><th class=\"n\">Points</th><th>Unit</th></tr>\n",
	      out);
	cJSON_ArrayForEach(f, a)
	{
		char buf[40] = "-";
		double v;

		fputs("<tr>", out);
		td_text(out, NULL, hil_rj_str(f, "algorithm"));
		td_text(out, NULL, hil_rj_str(f, "implementation"));
		td_text(out, NULL, hil_rj_str(f, "operation"));
		td_num(out, f, "ad_len");
		if (hil_rj_num(f, "fixed", &v)) {
			snprintf(buf, sizeof(buf), "%.0f", v);
		}
		td_text(out, "n", buf);
		snprintf(buf, sizeof(buf), "%s", "-");
		if (hil_rj_num(f, "per_byte", &v)) {
			snprintf(buf, sizeof(buf), "%.2f", v);
		}
		td_text(out, "n", buf);
		snprintf(buf, sizeof(buf), "%s", "-");
		if (hil_rj_num(f, "r2", &v)) {
			snprintf(buf, sizeof(buf), "%.4f", v);
		}
		td_text(out, "n", buf);
		td_num(out, f, "points");
		td_text(out, NULL, hil_rj_str(f, "unit"));
		fputs("</tr>\n", out);
	}
	fputs("</table>\n</section>\n", out);
}

/* ---------------------------------------------------------------- provenance */

static void dd(FILE *out, const char *term, const char *value)
{
	fputs("<dt>", out);
	esc(out, term);
	fputs("</dt><dd>", out);
	esc(out, value[0] != '\0' ? value : "-");
	fputs("</dd>\n", out);
}

static void dd_num(FILE *out, const char *term, const cJSON *o, const char *key)
{
	char buf[40] = "-";
	double v;

	if (hil_rj_num(o, key, &v)) {
		hil_fmt_num(buf, sizeof(buf), v);
	}
	dd(out, term, buf);
}

static void provenance(const cJSON *report, FILE *out)
{
	const cJSON *run = cJSON_GetObjectItemCaseSensitive(report, "run");
	const cJSON *tool = cJSON_GetObjectItemCaseSensitive(report, "tool");
	const cJSON *build = cJSON_GetObjectItemCaseSensitive(report, "build");
	const cJSON *board = cJSON_GetObjectItemCaseSensitive(report, "board");
	const cJSON *session =
		cJSON_GetObjectItemCaseSensitive(report, "session");
	const cJSON *f;
	char buf[512], clock[64];
	double flash, ram, stack;
	size_t used = 0;

	fputs("<section id=\"provenance\"><h2>Provenance</h2>\n<dl class=\"prov\">\n",
	      out);
	dd(out, "run", hil_rj_str(run, "id"));
	dd(out, "status", hil_rj_str(run, "status"));
	snprintf(buf, sizeof(buf), "%s to %s", hil_rj_str(run, "started"),
		 hil_rj_str(run, "finished"));
	dd(out, "time (UTC)", buf);
	snprintf(buf, sizeof(buf), "%s (%s)", hil_rj_str(run, "config"),
		 hil_rj_str(run, "config_name"));
	dd(out, "configuration", buf);
	snprintf(buf, sizeof(buf), "%s %s, commit %s%s",
		 hil_rj_str(tool, "name"), hil_rj_str(tool, "version"),
		 hil_rj_str(tool, "commit"),
		 hil_rj_bool(tool, "dirty") == 1 ? " (uncommitted changes)"
						 : "");
	dd(out, "tool", buf);
	snprintf(buf, sizeof(buf), "%s, %s", hil_rj_str(tool, "host"),
		 hil_rj_str(tool, "host_os"));
	dd(out, "host", buf);
	dd(out, "compiler", hil_rj_str(build, "compiler"));
	dd(out, "compiler in the ELF", hil_rj_str(build, "compiler_in_elf"));
	buf[0] = '\0';
	cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(build, "cflags"))
	{
		if (cJSON_IsString(f) && used < sizeof(buf)) {
			int w = snprintf(buf + used, sizeof(buf) - used, "%s%s",
					 used ? " " : "", f->valuestring);

			used += w > 0 ? (size_t)w : 0;
		}
	}
	dd(out, "configured flags", buf);
	dd(out, "all compile flags", hil_rj_str(build, "all_flags"));
	dd(out, "linker flags", hil_rj_str(build, "linker_flags"));
	dd(out, "implementations built", hil_rj_str(build, "algorithms"));
	dd(out, "image (ELF)", hil_rj_str(build, "elf"));
	dd(out, "ELF SHA-256", hil_rj_str(build, "elf_sha256"));
	dd(out, "build-id", hil_rj_str(build, "build_id"));
	snprintf(buf, sizeof(buf), "%s (reported %s)%s",
		 hil_rj_str(board, "name"), hil_rj_str(board, "reported_name"),
		 hil_rj_bool(board, "emulated") == 1 ? ", emulated" : "");
	dd(out, "board", buf);
	hil_fmt_clock(report, clock, sizeof(clock));
	dd(out, "clock", clock);
	dd(out, "counter unit", hil_rj_unit(report));
	dd_num(out, "counter Hz", board, "counter_hz");
	dd_num(out, "timing overhead (stub)", board, "stub_overhead");
	dd(out, "FLASH_ACR", hil_rj_str(board, "flash_acr"));
	dd(out, "chip UID", hil_rj_str(board, "uid"));
	snprintf(buf, sizeof(buf), "%s, %s", hil_rj_str(board, "flasher"),
		 hil_rj_str(board, "flasher_version"));
	dd(out, "flasher", buf);
	if (hil_rj_image(report, &flash, &ram, &stack)) {
		snprintf(buf, sizeof(buf),
			 "%.0f B flash, %.0f B RAM, %.0f B stack reserve",
			 flash, ram, stack);
		dd(out, "whole image", buf);
	}
	if (cJSON_IsObject(session)) {
		double a = 0, b = 0, c = 0;

		hil_rj_num(session, "retries", &a);
		hil_rj_num(session, "bad_frames", &b);
		hil_rj_num(session, "timeouts", &c);
		snprintf(buf, sizeof(buf),
			 "%.0f retries, %.0f bad frames, %.0f timeouts", a, b,
			 c);
		dd(out, "link", buf);
	}
	fputs("</dl>\n</section>\n", out);
}

/* ---------------------------------------------------------------- page */

int hil_html_report(const cJSON *report, FILE *out)
{
	const cJSON *run = cJSON_GetObjectItemCaseSensitive(report, "run");
	const cJSON *tool = cJSON_GetObjectItemCaseSensitive(report, "tool");
	int ret;

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>hilrun report ",
	      out);
	esc(out, hil_rj_str(run, "id"));
	fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<main>\n",
		style);
	fputs("<header><h1>hilrun report: ", out);
	esc(out, hil_rj_str(run, "config_name"));
	fputs("</h1>\n<p class=\"caption\">Run <code>", out);
	esc(out, hil_rj_str(run, "id"));
	fputs("</code>, ", out);
	esc(out, hil_rj_str(run, "status"));
	fputs(", counter unit <strong>", out);
	esc(out, hil_rj_unit(report));
	fputs("</strong>.</p></header>\n", out);
	warnings(report, out);
	summary(report, out);
	fputs("<section id=\"plots\"><h2>Plots</h2>\n", out);
	ret = hil_svg_per_byte(report, out);
	if (ret == HIL_OK && hil_svg_per_byte_has_model(report)) {
		/* The emulator's own count, one click away (no script). */
		fputs("<details><summary>The same plot in ", out);
		esc(out, hil_rj_unit(report));
		fputs(", as the emulator counted them</summary>\n", out);
		ret = hil_svg_per_byte_counter(report, out);
		fputs("</details>\n", out);
	}
	if (ret == HIL_OK) {
		ret = hil_svg_sizes(report, out);
	}
	fputs("</section>\n", out);
	verification(report, out);
	all_rows(report, out);
	fits(report, out);
	provenance(report, out);
	fputs("<footer>Made by ", out);
	esc(out, hil_rj_str(tool, "name"));
	fputc(' ', out);
	esc(out, hil_rj_str(tool, "version"));
	fprintf(out,
		"; rendered by hilrun from report.json (schema %d); the page loads nothing from the network.</footer>\n</main>\n</body>\n</html>\n",
		HIL_REPORT_SCHEMA_VERSION);
	if (ret != HIL_OK) {
		return ret;
	}
	return hil_render_status(out);
}

/* ---------------------------------------------------------------- sweep */

/* The row of series s at len in report, or NULL. */
static const cJSON *sweep_row(const cJSON *report, const struct hil_series *s,
			      double len)
{
	const cJSON *r;
	double l;

	cJSON_ArrayForEach(r, hil_rj_rows(report))
	{
		if (hil_series_has(s, r) && hil_rj_num(r, "msg_len", &l) &&
		    l == len) {
			return r;
		}
	}
	return NULL;
}

/* One table cell per configuration: the figure, "failed" or "-"; the
 * lowest of the line in bold. */
static void sweep_cells(FILE *out, const cJSON *const *reports, size_t n,
			const struct hil_series *s, double len, const char *cls)
{
	double best = 0, v;
	size_t i;
	int any = 0;

	for (i = 0; i < n; i++) {
		const cJSON *r = sweep_row(reports[i], s, len);

		if (r != NULL && hil_fig_per_byte(reports[i], r, &v) &&
		    (!any || v < best)) {
			best = v;
			any = 1;
		}
	}
	for (i = 0; i < n; i++) {
		const cJSON *r = sweep_row(reports[i], s, len);
		char buf[40];

		if (r == NULL) {
			fprintf(out, "<td class=\"%s muted\">-</td>", cls);
		} else if (!hil_rj_row_ok(r)) {
			fprintf(out, "<td class=\"%s bad\">failed</td>", cls);
		} else if (hil_fig_per_byte(reports[i], r, &v)) {
			snprintf(buf, sizeof(buf), "%.2f", v);
			fprintf(out, "<td class=\"%s%s\">%s</td>", cls,
				n > 1 && v == best ? " best" : "", buf);
		} else {
			fprintf(out, "<td class=\"%s muted\">-</td>", cls);
		}
	}
}

static void sweep_series_cells(FILE *out, const struct hil_series *s)
{
	td_text(out, NULL, s->algorithm);
	td_text(out, NULL, s->implementation);
	fputs("<td>", out);
	esc(out, s->operation);
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
		th2(out, cls, lab, what ? hil_fig_what(reports[i]) : NULL);
	}
}

/* Lengths with a message in any report, sorted. */
static size_t sweep_lengths(const cJSON *const *reports, size_t n, double *lens,
			    size_t cap)
{
	size_t nl = 0, i, j, k;

	for (i = 0; i < n; i++) {
		const cJSON *r;
		double l;

		cJSON_ArrayForEach(r, hil_rj_rows(reports[i]))
		{
			if (!hil_rj_num(r, "msg_len", &l) || l <= 0) {
				continue;
			}
			for (j = 0; j < nl && lens[j] < l; j++) {
			}
			if ((j < nl && lens[j] == l) || nl == cap) {
				continue;
			}
			for (k = nl; k > j; k--) {
				lens[k] = lens[k - 1];
			}
			lens[j] = l;
			nl++;
		}
	}
	return nl;
}

int hil_html_sweep(const cJSON *const *reports, size_t n, const cJSON *sweep,
		   FILE *out)
{
	const char *name = hil_rj_str(sweep, "name");
	const cJSON *runs = cJSON_GetObjectItemCaseSensitive(sweep, "runs");
	const cJSON *e;
	struct hil_series *s = NULL;
	size_t ns = 0, i, j, nl;
	double lens[64], head = 64;
	int ret, comparable, any_warn = 0;

	if (n == 0) {
		return HIL_ERR_ARG;
	}
	comparable = hil_fig_comparable(reports, n);
	ret = hil_sweep_series(reports, n, &s, &ns);
	if (ret != HIL_OK) {
		return ret;
	}
	nl = sweep_lengths(reports, n, lens, 64);
	if (name[0] == '\0') {
		name = "sweep";
	}
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>hilrun sweep ",
	      out);
	esc(out, name);
	fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<main>\n",
		style);
	fputs("<header><h1>hilrun sweep: ", out);
	esc(out, name);
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
		esc(out, hil_rj_str(e, "config"));
		fputs(" did not complete</span> (", out);
		esc(out, hil_rj_str(e, "status"));
		if (hil_rj_str(e, "error")[0] != '\0') {
			fputs(": ", out);
			esc(out, hil_rj_str(e, "error"));
		}
		fputs(")", out);
		fputs("; its figures are missing or partial.</li>\n", out);
		any_warn = 1;
	}
	for (i = 0; i < n; i++) {
		const cJSON *r;
		int failed = 0;

		cJSON_ArrayForEach(r, hil_rj_rows(reports[i]))
		{
			failed += !hil_rj_row_ok(r);
		}
		if (failed > 0) {
			char lab[200];

			hil_sweep_label(reports, n, i, lab, sizeof(lab));
			fputs("<li><span class=\"bad\">", out);
			esc(out, lab);
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
		const cJSON *run =
			cJSON_GetObjectItemCaseSensitive(reports[i], "run");
		const cJSON *build =
			cJSON_GetObjectItemCaseSensitive(reports[i], "build");
		const cJSON *f;
		char lab[200];
		int first = 1;

		hil_sweep_label(reports, n, i, lab, sizeof(lab));
		fputs("<tr>", out);
		td_text(out, NULL, lab);
		fputs("<td><code>", out);
		cJSON_ArrayForEach(
			f, cJSON_GetObjectItemCaseSensitive(build, "cflags"))
		{
			if (cJSON_IsString(f)) {
				fputs(first ? "" : " ", out);
				esc(out, f->valuestring);
				first = 0;
			}
		}
		fputs("</code></td>", out);
		td_text(out, NULL,
			hil_rj_str(cJSON_GetObjectItemCaseSensitive(reports[i],
								    "board"),
				   "name"));
		td_text(out, NULL, hil_fig_what(reports[i]));
		td_text(out, NULL, hil_rj_str(run, "status"));
		/* The runs are the sweep folder's siblings. */
		fputs("<td><a href=\"../", out);
		esc(out, hil_rj_str(run, "id"));
		fputs("/report.html\">", out);
		esc(out, hil_rj_str(run, "id"));
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
			sweep_cells(out, reports, n, &s[i], head, "n");
			fputs("</tr>\n", out);
		}
		fputs("</tbody></table>\n</section>\n", out);
	}

	fputs("<section id=\"plots\"><h2>Plot</h2>\n", out);
	ret = hil_svg_sweep(reports, n, out);
	fputs("</section>\n", out);

	/* Sizes per configuration. */
	fputs("<section id=\"sizes\"><h2>Flash and RAM per implementation</h2>\n<p class=\"caption\">Bytes. Flash: own code and constant data; RAM: static data + the largest peak stack of one call.</p>\n<table>\n<tr><th>Implementation</th>",
	      out);
	for (i = 0; i < n; i++) {
		char lab[200];

		hil_sweep_label(reports, n, i, lab, sizeof(lab));
		th2(out, "n", lab, "flash / RAM");
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
		esc(out, s[i].algorithm);
		fputc('/', out);
		esc(out, s[i].implementation);
		fputs("</td>", out);
		for (k = 0; k < n; k++) {
			const cJSON *z =
				hil_rj_impl_size(reports[k], s[i].algorithm,
						 s[i].implementation);
			double fl, ram, st;
			char a[32] = "-", b[32] = "-";

			if (hil_rj_num(z, "flash_bytes", &fl)) {
				snprintf(a, sizeof(a), "%.0f", fl);
			}
			if (hil_rj_num(z, "ram_bytes", &ram) &&
			    hil_rj_stack(reports[k], s[i].algorithm,
					 s[i].implementation, NULL, &st)) {
				snprintf(b, sizeof(b), "%.0f", ram + st);
			}
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
					present |= sweep_row(reports[k], &s[i],
							     lens[j]) != NULL;
				}
				if (!present) {
					continue;
				}
				fputs("<tr>", out);
				sweep_series_cells(out, &s[i]);
				fprintf(out, "<td class=\"n\">%.0f</td>",
					lens[j]);
				sweep_cells(out, reports, n, &s[i], lens[j],
					    "n");
				fputs("</tr>\n", out);
			}
		}
		fputs("</table>\n</section>\n", out);
	}
	fprintf(out,
		"<footer>Made by hilrun from the configurations' report.json files (schema %d); the page loads nothing from the network.</footer>\n</main>\n</body>\n</html>\n",
		HIL_REPORT_SCHEMA_VERSION);
	free(s);
	if (ret != HIL_OK) {
		return ret;
	}
	return hil_render_status(out);
}
