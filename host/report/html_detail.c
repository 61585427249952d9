/* html_detail: report.html's detail sections: every row, the cost-model fits and the provenance. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"report"
#include "render_int.h"

#include <string.h>

static void td_num(FILE *out, const cJSON *o, const char *key)
{
	char buf[40] = "-";
	double v;

	if (hil_rj_num(o, key, &v)) {
		hil_fmt_num(buf, sizeof(buf), v);
	}
	hil_render_td_text(out, "n", buf);
}

void hil_render_html_rows(const cJSON *report, FILE *out)
{
	static const char *const stats[] = {"stddev", "min", "max", "mad"};
	const char *unit = hil_rj_unit(report);
	const cJSON *r;
	size_t i;
	int idx = 0;

	fputs("<section id=\"rows\"><h2>All rows</h2>\n<p class=\"caption\">Every figure in ",
	      out);
	hil_xml_puts(out, unit);
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
		hil_xml_puts(out, hil_rj_str(r, "algorithm"));
		fputc('/', out);
		hil_xml_puts(out, hil_rj_str(r, "implementation"));
		fputc('/', out);
		hil_xml_puts(out, hil_rj_str(r, "operation"));
		fprintf(out, "/%.0f/%.0f\">", msg, ad);
		hil_render_td_text(out, NULL, hil_rj_str(r, "algorithm"));
		hil_render_td_text(out, NULL, hil_rj_str(r, "implementation"));
		hil_render_td_text(out, NULL, hil_rj_str(r, "operation"));
		hil_render_td_text(out, NULL, hil_rj_str(r, "mode"));
		td_num(out, r, "msg_len");
		td_num(out, r, "ad_len");
		td_num(out, r, "runs");
		td_num(out, r, "median");
		if (hil_rj_row_per_byte(r, &v)) {
			snprintf(pb, sizeof(pb), "%.2f", v);
		}
		hil_render_td_text(out, "n", pb);
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
		hil_render_td_text(out, "n", c);
		td_num(out, r, "outliers");
		td_num(out, r, "stack_bytes");
		if (hil_rj_bool(d, "match") == 1) {
			fputs("<td class=\"ok\"><code>", out);
			hil_xml_puts(out, hil_rj_str(d, "measured"));
			fputs("</code></td>", out);
		} else if (d != NULL) {
			fputs("<td class=\"bad\"><code>", out);
			hil_xml_puts(out, hil_rj_str(d, "measured"));
			fputs("</code> (expected <code>", out);
			hil_xml_puts(out, hil_rj_str(d, "expected"));
			fputs("</code>)</td>", out);
		} else {
			hil_render_td_text(out, NULL, "-");
		}
		if (ok) {
			fputs("<td class=\"ok\">ok</td>", out);
		} else {
			fputs("<td class=\"bad\">failed: ", out);
			hil_xml_puts(out, hil_rj_str(r, "error"));
			fputs("</td>", out);
		}
		fputs("</tr>\n", out);
	}
	fputs("</table>\n</section>\n", out);
}

void hil_render_html_fits(const cJSON *report, FILE *out)
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
		hil_render_td_text(out, NULL, hil_rj_str(f, "algorithm"));
		hil_render_td_text(out, NULL, hil_rj_str(f, "implementation"));
		hil_render_td_text(out, NULL, hil_rj_str(f, "operation"));
		td_num(out, f, "ad_len");
		if (hil_rj_num(f, "fixed", &v)) {
			snprintf(buf, sizeof(buf), "%.0f", v);
		}
		hil_render_td_text(out, "n", buf);
		snprintf(buf, sizeof(buf), "%s", "-");
		if (hil_rj_num(f, "per_byte", &v)) {
			snprintf(buf, sizeof(buf), "%.2f", v);
		}
		hil_render_td_text(out, "n", buf);
		snprintf(buf, sizeof(buf), "%s", "-");
		if (hil_rj_num(f, "r2", &v)) {
			snprintf(buf, sizeof(buf), "%.4f", v);
		}
		hil_render_td_text(out, "n", buf);
		td_num(out, f, "points");
		hil_render_td_text(out, NULL, hil_rj_str(f, "unit"));
		fputs("</tr>\n", out);
	}
	fputs("</table>\n</section>\n", out);
}

/* ---------------------------------------------------------------- provenance */

static void dd(FILE *out, const char *term, const char *value)
{
	fputs("<dt>", out);
	hil_xml_puts(out, term);
	fputs("</dt><dd>", out);
	hil_xml_puts(out, value[0] != '\0' ? value : "-");
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

void hil_render_html_provenance(const cJSON *report, FILE *out)
{
	const cJSON *run = cJSON_GetObjectItemCaseSensitive(report, "run");
	const cJSON *tool = cJSON_GetObjectItemCaseSensitive(report, "tool");
	const cJSON *build = cJSON_GetObjectItemCaseSensitive(report, "build");
	const cJSON *board = cJSON_GetObjectItemCaseSensitive(report, "board");
	const cJSON *session =
		cJSON_GetObjectItemCaseSensitive(report, "session");
	const cJSON *f;
	char buf[512], clock[192];
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
			 "%s%s%.0f retries, %.0f bad frames, %.0f timeouts",
			 hil_rj_str(board, "link"),
			 hil_rj_str(board, "link")[0] != '\0' ? ": " : "", a, b,
			 c);
		dd(out, "link", buf);
	}
	fputs("</dl>\n</section>\n", out);
}
