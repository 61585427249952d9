/* html: report.html, one self-contained page that opens from the file system: its skeleton, style and the cells its tables share. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"report"
#include "render_int.h"

#include "result/headcodec.h"
#include "util/err.h"
#include "report/report.h"

/*
 * Nothing on the page is fetched: styles inline, SVGs inline, no script,
 * no fonts but the reader's own. The only URL is the SVG namespace, which
 * is a name, not a resource.
 */
const char hil_render_html_style[] =
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

void hil_render_td_text(FILE *out, const char *cls, const char *s)
{
	if (cls != NULL) {
		fprintf(out, "<td class=\"%s\">", cls);
	} else {
		fputs("<td>", out);
	}
	hil_xml_puts(out, s);
	fputs("</td>", out);
}

void hil_render_th2(FILE *out, const char *cls, const char *name,
		    const char *sub)
{
	fprintf(out, "<th class=\"%s\">", cls);
	hil_xml_puts(out, name);
	if (sub != NULL && sub[0] != '\0') {
		fputs("<span class=\"sub\">", out);
		hil_xml_puts(out, sub);
		fputs("</span>", out);
	}
	fputs("</th>", out);
}

/* ---------------------------------------------------------------- page */

int hil_html_report(const cJSON *report, FILE *out)
{
	/* The run and the tool through result/'s codec tables. */
	struct hil_head_run run;
	struct hil_head_tool tool;
	int ret;

	hil_result_head_read_one(report, "run", &run);
	hil_result_head_read_one(report, "tool", &tool);
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>hilrun report ",
	      out);
	hil_xml_puts(out, run.id);
	fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<main>\n",
		hil_render_html_style);
	fputs("<header><h1>hilrun report: ", out);
	hil_xml_puts(out, run.config_name);
	fputs("</h1>\n<p class=\"caption\">Run <code>", out);
	hil_xml_puts(out, run.id);
	fputs("</code>, ", out);
	hil_xml_puts(out, run.status);
	fputs(", counter unit <strong>", out);
	hil_xml_puts(out, hil_rj_unit(report));
	fputs("</strong>.</p></header>\n", out);
	hil_render_html_warnings(report, out);
	/* Post-quantum operations only: their own section instead of the
	 * costs per byte. */
	if (!hil_rj_only_pq(report)) {
		hil_render_html_summary(report, out);
	}
	hil_render_html_pq(report, out);
	fputs("<section id=\"plots\"><h2>Plots</h2>\n", out);
	ret = hil_rj_only_pq(report) ? HIL_OK : hil_svg_per_byte(report, out);
	if (ret == HIL_OK && !hil_rj_only_pq(report) &&
	    hil_svg_per_byte_has_model(report)) {
		/* The emulator's own count, one click away (no script). */
		fputs("<details><summary>The same plot in ", out);
		hil_xml_puts(out, hil_rj_unit(report));
		fputs(", as the emulator counted them</summary>\n", out);
		ret = hil_svg_per_byte_counter(report, out);
		fputs("</details>\n", out);
	}
	if (ret == HIL_OK) {
		ret = hil_svg_sizes(report, out);
	}
	/* The energy plot when some row has an energy figure (the reason
	 * there is none is in the summary's note). */
	if (ret == HIL_OK && hil_rj_energy_reason(report) == NULL) {
		ret = hil_svg_energy(report, out);
	}
	fputs("</section>\n", out);
	/* A pq run's table has its verification per row. */
	if (!hil_rj_only_pq(report)) {
		hil_render_html_verification(report, out);
	}
	hil_render_html_rows(report, out);
	hil_render_html_fits(report, out);
	hil_render_html_provenance(report, out);
	fputs("<footer>Made by ", out);
	hil_xml_puts(out, tool.name);
	fputc(' ', out);
	hil_xml_puts(out, tool.version);
	fprintf(out,
		"; rendered by hilrun from report.json (schema %d); the page loads nothing from the network.</footer>\n</main>\n</body>\n</html>\n",
		HIL_REPORT_SCHEMA_VERSION);
	if (ret != HIL_OK) {
		return ret;
	}
	return hil_render_status(out);
}
