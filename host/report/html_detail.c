/* html_detail: report.html's detail sections: every row, the cost-model fits and the provenance. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"report"
#include "render_int.h"

#include <stdlib.h>

#include <string.h>

#include "result/headcodec.h"

static void td_num(FILE *out, const cJSON *o, const char *key)
{
	char buf[40] = "-";
	double v;

	if (hil_rj_num(o, key, &v)) {
		hil_fmt_num(buf, sizeof(buf), v);
	}
	hil_render_td_text(out, "n", buf);
}

/* A figure of a decoded row (the field at v, of row r), or "-". */
static void td_fig(FILE *out, const struct hil_row_view *r, const void *v,
		   double value)
{
	char buf[40] = "-";

	if (hil_row_view_has(r, v)) {
		hil_fmt_num(buf, sizeof(buf), value);
	}
	hil_render_td_text(out, "n", buf);
}

/* The stored counts of a row (uint32_t fields) as figures. */
static void td_count(FILE *out, const struct hil_row_view *r, const uint32_t *v)
{
	td_fig(out, r, v, *v);
}

/* A digest as the writer puts it: 8 hex digits, or "" when absent. */
static void put_digest(FILE *out, const struct hil_row_view *r,
		       const uint32_t *v)
{
	char hex[16] = "";

	if (hil_row_view_has(r, v)) {
		snprintf(hex, sizeof(hex), "%08x", (unsigned)*v);
	}
	hil_xml_puts(out, hex);
}

void hil_render_html_rows(const cJSON *report, FILE *out)
{
	const char *unit = hil_rj_unit(report);
	struct hil_row_view *rows = NULL;
	size_t n = 0, j;
	int idx = 0;

	/* The rows through result/'s codec, decoded once (out of memory:
	 * none shown). */
	hil_row_views_read(hil_rj_rows(report), &rows, &n);
	fputs("<section id=\"rows\"><h2>All rows</h2>\n<p class=\"caption\">Every figure in ",
	      out);
	hil_xml_puts(out, unit);
	fputs(", the overhead of the timing itself subtracted; CI95: confidence interval of the median.</p>\n<table>\n<tr><th>Algorithm</th><th>Impl</th><th>Op</th><th>Mode</th><th class=\"n\">Msg (B)</th><th class=\"n\">AD (B)</th><th class=\"n\">Runs</th><th class=\"n\">Median</th><th class=\"n\">Per byte</th><th class=\"n\">Stddev</th><th class=\"n\">Min</th><th class=\"n\">Max</th><th class=\"n\">MAD</th><th class=\"n\">CI95</th><th class=\"n\">Outliers</th><th class=\"n\">Stack (B)</th><th>Digest</th><th>Status</th></tr>\n",
	      out);
	for (j = 0; j < n; j++) {
		const struct hil_row_view *r = &rows[j];
		char pb[40] = "-", c[96] = "-";
		double v;
		int ok = hil_rv_ok(r);

		fprintf(out, "<tr class=\"row%s\" id=\"row-%d\" data-key=\"",
			ok ? "" : " failed", idx++);
		hil_xml_puts(out, r->algorithm);
		fputc('/', out);
		hil_xml_puts(out, r->implementation);
		fputc('/', out);
		hil_xml_puts(out, r->operation);
		fprintf(out, "/%.0f/%.0f\">",
			hil_row_view_has(r, &r->row.msg_len) ? r->row.msg_len
							     : 0.0,
			hil_row_view_has(r, &r->row.ad_len) ? r->row.ad_len
							    : 0.0);
		hil_render_td_text(out, NULL, r->algorithm);
		hil_render_td_text(out, NULL, r->implementation);
		hil_render_td_text(out, NULL, r->operation);
		hil_render_td_text(out, NULL, r->mode);
		td_count(out, r, &r->row.msg_len);
		td_count(out, r, &r->row.ad_len);
		td_count(out, r, &r->row.runs);
		td_fig(out, r, &r->median, r->median);
		if (hil_rv_per_byte(r, &v)) {
			snprintf(pb, sizeof(pb), "%.2f", v);
		}
		hil_render_td_text(out, "n", pb);
		td_fig(out, r, &r->stddev, r->stddev);
		td_fig(out, r, &r->min, r->min);
		td_fig(out, r, &r->max, r->max);
		td_fig(out, r, &r->mad, r->mad);
		if (hil_row_view_has(r, &r->ci95_low)) {
			char a[40], b[40];

			hil_fmt_num(a, sizeof(a), r->ci95_low);
			hil_fmt_num(b, sizeof(b), r->ci95_high);
			snprintf(c, sizeof(c), "%s..%s", a, b);
		}
		hil_render_td_text(out, "n", c);
		td_fig(out, r, &r->outliers, r->outliers);
		td_count(out, r, &r->row.stack_bytes);
		if (hil_row_view_has(r, &r->digest_match) && r->digest_match) {
			fputs("<td class=\"ok\"><code>", out);
			put_digest(out, r, &r->row.digest_got);
			fputs("</code></td>", out);
		} else if (r->has_digest) {
			fputs("<td class=\"bad\"><code>", out);
			put_digest(out, r, &r->row.digest_got);
			fputs("</code> (expected <code>", out);
			put_digest(out, r, &r->row.digest_expected);
			fputs("</code>)</td>", out);
		} else {
			hil_render_td_text(out, NULL, "-");
		}
		if (ok) {
			fputs("<td class=\"ok\">ok</td>", out);
		} else {
			fputs("<td class=\"bad\">failed: ", out);
			hil_xml_puts(out, r->error);
			fputs("</td>", out);
		}
		fputs("</tr>\n", out);
	}
	fputs("</table>\n</section>\n", out);
	free(rows);
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

/* A number the report may lack (an older one): "-" then. */
static void dd_num(FILE *out, const char *term, int known, double v)
{
	char buf[40] = "-";

	if (known) {
		hil_fmt_num(buf, sizeof(buf), v);
	}
	dd(out, term, buf);
}

void hil_render_html_provenance(const cJSON *report, FILE *out)
{
	/* The report-level fields through result/'s codec tables. */
	struct hil_result_head *h = malloc(sizeof(*h));
	const cJSON *f;
	char buf[512], clock[192];
	double flash, ram, stack;
	size_t used = 0;

	if (h == NULL) {
		return;
	}
	hil_result_head_read(report, h);
	fputs("<section id=\"provenance\"><h2>Provenance</h2>\n<dl class=\"prov\">\n",
	      out);
	dd(out, "run", h->run.id);
	dd(out, "status", h->run.status);
	snprintf(buf, sizeof(buf), "%s to %s", h->run.started, h->run.finished);
	dd(out, "time (UTC)", buf);
	snprintf(buf, sizeof(buf), "%s (%s)", h->run.config,
		 h->run.config_name);
	dd(out, "configuration", buf);
	snprintf(buf, sizeof(buf), "%s %s, commit %s%s", h->tool.name,
		 h->tool.version, h->tool.commit,
		 h->tool.dirty ? " (uncommitted changes)" : "");
	dd(out, "tool", buf);
	snprintf(buf, sizeof(buf), "%s, %s", h->tool.host, h->tool.host_os);
	dd(out, "host", buf);
	dd(out, "compiler", h->build.compiler);
	dd(out, "compiler in the ELF", h->build.compiler_in_elf);
	buf[0] = '\0';
	cJSON_ArrayForEach(
		f, cJSON_GetObjectItemCaseSensitive(
			   cJSON_GetObjectItemCaseSensitive(report, "build"),
			   "cflags"))
	{
		if (cJSON_IsString(f) && used < sizeof(buf)) {
			int w = snprintf(buf + used, sizeof(buf) - used, "%s%s",
					 used ? " " : "", f->valuestring);

			used += w > 0 ? (size_t)w : 0;
		}
	}
	dd(out, "configured flags", buf);
	dd(out, "all compile flags", h->build.all_flags);
	dd(out, "linker flags", h->build.linker_flags);
	f = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(report, "build"),
		"algorithms");
	dd(out, "implementations built",
	   cJSON_IsString(f) ? f->valuestring : "");
	dd(out, "image (ELF)", h->build.elf);
	dd(out, "ELF SHA-256", h->build.elf_sha256);
	dd(out, "build-id", h->build.build_id);
	snprintf(buf, sizeof(buf), "%s (reported %s)%s", h->board.name,
		 h->board.reported_name, h->board.emulated ? ", emulated" : "");
	dd(out, "board", buf);
	hil_fmt_clock(report, clock, sizeof(clock));
	dd(out, "clock", clock);
	dd(out, "counter unit", hil_rj_unit(report));
	dd_num(out, "counter Hz", h->board.has_counter_hz, h->board.counter_hz);
	dd_num(out, "timing overhead (stub)", h->board.has_stub_overhead,
	       h->board.stub_overhead);
	buf[0] = '\0';
	if (h->board.has_flash_acr) {
		snprintf(buf, sizeof(buf), "%08x",
			 (unsigned)h->board.flash_acr);
	}
	dd(out, "FLASH_ACR", buf);
	dd(out, "chip UID", h->board.uid);
	snprintf(buf, sizeof(buf), "%s, %s", h->board.flasher,
		 h->board.flasher_version);
	dd(out, "flasher", buf);
	if (hil_rj_image(report, &flash, &ram, &stack)) {
		snprintf(buf, sizeof(buf),
			 "%.0f B flash, %.0f B RAM, %.0f B stack reserve",
			 flash, ram, stack);
		dd(out, "whole image", buf);
	}
	if (h->session.present) {
		snprintf(buf, sizeof(buf),
			 "%s%s%u retries, %u bad frames, %u timeouts",
			 h->board.link, h->board.link[0] != '\0' ? ": " : "",
			 h->session.retries, h->session.bad_frames,
			 h->session.timeouts);
		dd(out, "link", buf);
	}
	fputs("</dl>\n</section>\n", out);
	free(h);
}
