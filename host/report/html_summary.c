/* html_summary: report.html's headline table, from the summary summary.md shows too. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"report"
#include "render_int.h"

#include <string.h>

#include "result/headcodec.h"
#include "util/err.h"

/*
 * The headline column's label: "Cycles/byte" and what kind of cycles, so
 * that an estimate or an emulated count is never taken for a measurement.
 */
/* Whether the report's board is emulated (result/'s codec tables). */
static int emulated(const cJSON *report)
{
	struct hil_head_board b;

	hil_result_head_read_one(report, "board", &b);
	return b.emulated;
}

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
	} else if (strcmp(u, "cycles") == 0 && !emulated(report)) {
		snprintf(sub, slen, "%s", "measured on the board (DWT)");
	} else {
		snprintf(sub, slen, "%s", "");
	}
}

/* A number cell; "-" with the reason as a tooltip when one is given. */
static void td_cell(FILE *out, const char *cls, const char *v, const char *why)
{
	if (strcmp(v, "-") == 0 && why != NULL) {
		fprintf(out, "<td class=\"%s muted\" title=\"", cls);
		hil_xml_puts(out, why);
		fputs("\">-</td>", out);
	} else {
		hil_render_td_text(out, cls, v);
	}
}

void hil_render_html_summary(const cJSON *report, FILE *out)
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
	hil_xml_puts(out, s.caption);
	fputs("</p>\n<table class=\"head\">\n<thead><tr><th>Algorithm</th><th>Impl</th><th>Op</th>",
	      out);
	snprintf(lsub, sizeof(lsub), "@%.0f B%s%s", s.head_len,
		 sub[0] ? ", " : "", sub);
	hil_render_th2(out, "n hl", name, lsub);
	hil_render_th2(out, "n hl", "Flash", "B, own code + data");
	hil_render_th2(out, "n hl", "RAM", "B, static + stack");
	snprintf(esub, sizeof(esub), "µJ/op @%.0f B%s", s.head_len,
		 s.energy_model	   ? ", model"
		 : s.energy_est	   ? ", est. typ. (range)"
		 : s.energy_beside ? " (est., meas./est.)"
				   : "");
	hil_render_th2(out, "n hl", "Energy", esub);
	snprintf(at, sizeof(at), "@%.0f B (longest)", s.longest);
	hil_render_th2(out, "n d first", name, at);
	hil_render_th2(out, "n d", "Stack", "B, peak");
	if (emu_extra) {
		snprintf(lsub, sizeof(lsub), "%s, @%.0f B / @%.0f B", s.unit,
			 s.head_len, s.longest);
		hil_render_th2(out, "n d", "Counter/byte", lsub);
	}
	snprintf(at, sizeof(at), "@%.0f B", s.longest);
	hil_render_th2(out, "n d", "× baseline", at);
	fputs("</tr></thead>\n<tbody>\n", out);
	for (i = 0; i < s.n; i++) {
		const struct hil_sum_line *l = &s.l[i];

		fprintf(out, "<tr%s>", l->failed ? " class=\"failed\"" : "");
		hil_render_td_text(out, NULL, l->s.algorithm);
		fputs("<td>", out);
		hil_xml_puts(out, l->s.implementation);
		if (l->not_ct) {
			fputs("<span class=\"tag\" title=\"not constant-time\">not CT</span>",
			      out);
		}
		fputs("</td><td>", out);
		hil_xml_puts(out, l->s.operation);
		if (l->s.ad_len != 0) {
			fprintf(out, ", AD %.0f B", l->s.ad_len);
		}
		if (l->failed) {
			fputs("<span class=\"tag fail\">failed</span>", out);
		} else if (l->interrupted) {
			/* Cut short by Ctrl-C: a resume measures it. */
			fputs("<span class=\"tag\">interrupted</span>", out);
		}
		fputs("</td>", out);
		td_cell(out, "n hl", l->head64,
			l->per_call ? "no message: a cost per call, below"
				    : NULL);
		hil_render_td_text(out, "n hl", l->flash);
		if (strcmp(l->ram_total, "-") != 0) {
			fprintf(out,
				"<td class=\"n hl\" title=\"static %s B + stack %s B\">",
				l->ram, l->stack);
			hil_xml_puts(out, l->ram_total);
			fputs("</td>", out);
		} else {
			hil_render_td_text(out, "n hl", l->ram_total);
		}
		if (l->energy_extra[0] != '\0') {
			fputs("<td class=\"n hl\">", out);
			hil_xml_puts(out, l->energy);
			fputs(" <span class=\"sub\">(", out);
			hil_xml_puts(out, l->energy_extra);
			fputs(")</span></td>", out);
		} else {
			td_cell(out, "n hl", l->energy, s.energy_reason);
		}
		hil_render_td_text(out, "n d first", l->headl);
		hil_render_td_text(out, "n d", l->stack);
		if (emu_extra) {
			char both[72];

			snprintf(both, sizeof(both), "%s / %s", l->at64,
				 l->atl);
			hil_render_td_text(out, "n d", both);
		}
		hil_render_td_text(out, "n d", l->norm);
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
		hil_xml_puts(out, s.l[i].s.algorithm);
		fputc('/', out);
		hil_xml_puts(out, s.l[i].s.implementation);
		fputc(' ', out);
		hil_xml_puts(out, s.l[i].s.operation);
		fprintf(out, ": %s ", call);
		hil_xml_puts(out, s.unit);
		fputs(".</li>\n", out);
	}
	if (s.model_unit != NULL) {
		fputs("<li>Cycles/byte: ", out);
		hil_xml_puts(out, s.model_unit);
		fputs(", computed from the emulated instructions: an estimate, not a measurement. The emulator's own count is in the last columns but one.</li>\n",
		      out);
		if (s.model_err_from != NULL) {
			fputs("<li>± N %: the estimate's expected error, for assembly or for compiled C as the implementation is (report.json: model_cycles.error_pct, error_kind), from ",
			      out);
			hil_xml_puts(out, s.model_err_from);
			fputs(".</li>\n", out);
		}
	}
	if (s.norm_ref != NULL) {
		fputs("<li>× baseline: the median divided by that of ", out);
		hil_xml_puts(out, s.norm_ref);
		fputs(" encrypt (bench.normalize_to) at the same length, in this run.</li>\n",
		      out);
	} else {
		fputs("<li>× baseline: - = no baseline algorithm in this run (bench.normalize_to).</li>\n",
		      out);
	}
	if (s.energy_reason != NULL) {
		fputs(s.energy_est ? "<li>Energy: - = no estimate: "
				   : "<li>Energy: - = ",
		      out);
		hil_xml_puts(out, s.energy_reason);
		fputs(".</li>\n", out);
	} else if (s.energy_est) {
		fprintf(out,
			"<li>Energy: µJ per operation at %.0f B, a datasheet estimate, not measured (docs/method.md; report.json: energy_estimate): ",
			s.head_len);
		hil_xml_puts(out, s.energy_note);
		fputs(".</li>\n", out);
	} else if (s.energy_model) {
		fprintf(out,
			"<li>Energy: µJ per operation at %.0f B from a MODEL (simulated sensor, emulated time): not a measurement.</li>\n",
			s.head_len);
	} else {
		fprintf(out, "<li>Energy: µJ per operation at %.0f B.</li>\n",
			s.head_len);
	}
	if (s.energy_beside && s.energy_note[0] != '\0') {
		fputs("<li>Beside it: the datasheet estimate and measured/estimate (not judged; the first board run checks the estimate): ",
		      out);
		hil_xml_puts(out, s.energy_note);
		fputs(".</li>\n", out);
	}
	fputs("<li>Flash: the implementation's own code and constant data (linker map). RAM: its static data (linker map) plus the peak stack of one call of that operation (stack painting); Stack: the peak alone.</li>\n</ul>\n</section>\n",
	      out);
	hil_summary_free(&s);
}
