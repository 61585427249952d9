/* pqtables: a report's post-quantum operation rows (keypair, encaps, decaps, sign, verify) as summary.md's and report.html's section and as pqm4's benchmarks.md and benchmarks.csv. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"report"
#include "render_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/err.h"

int hil_rj_row_is_pq(const cJSON *row)
{
	return cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(row, "pq"));
}

int hil_rj_has_pq(const cJSON *report)
{
	const cJSON *r;

	cJSON_ArrayForEach(r, hil_rj_rows(report))
	{
		if (hil_rj_row_is_pq(r)) {
			return 1;
		}
	}
	return 0;
}

int hil_rj_only_pq(const cJSON *report)
{
	const cJSON *r;
	int any = 0;

	cJSON_ArrayForEach(r, hil_rj_rows(report))
	{
		if (!hil_rj_row_is_pq(r)) {
			return 0;
		}
		any = 1;
	}
	return any;
}

/* The folders a pq run left out (not_for_board[]), or NULL. */
static const cJSON *not_run(const cJSON *report)
{
	return cJSON_GetObjectItemCaseSensitive(report, "not_for_board");
}

/* The rows of a report through result/'s codec (rowview.h), decoded once
 * by each renderer below. */
struct pq_rows {
	struct hil_row_view *r;
	size_t n;
};

/* Whether the row has the cycle model's estimate (a pq run on a board
 * over its link has none: its counts are the board's own). */
static int has_model(const struct hil_row_view *v)
{
	return hil_row_view_has(v, &v->model.median);
}

/* The first post-quantum row, or NULL. */
static const struct hil_row_view *first_pq(const struct pq_rows *rows)
{
	size_t i;

	for (i = 0; i < rows->n; i++) {
		if (rows->r[i].is_pq) {
			return &rows->r[i];
		}
	}
	return NULL;
}

/* The report's board counts measured cycles (a real board's DWT). */
static int board_cycles(const cJSON *report)
{
	return strcmp(hil_rj_str(
			      cJSON_GetObjectItemCaseSensitive(report, "board"),
			      "counter_unit"),
		      "cycles") == 0;
}

/* v with thousands separators, as pqm4's tables write cycles and bytes. */
static void commas(char *buf, size_t len, double v)
{
	char d[32];
	size_t n, i, o = 0;

	snprintf(d, sizeof(d), "%.0f", v);
	n = strlen(d);
	for (i = 0; i < n && o + 2 < len; i++) {
		if (i > 0 && d[i - 1] != '-' && (n - i) % 3 == 0) {
			buf[o++] = ',';
		}
		buf[o++] = d[i];
	}
	buf[o] = '\0';
}

/* ------------------------------------------------------ the section */

/* The figures of one pq row, as the section's cells. */
struct pq_cells {
	char cycles[48]; /* median */
	char spread[64]; /* "min-max" or "±sd" */
	char instr[32];
	char stack[32];
	char size[64];
	char sha2[16], sha3[16], aes[16];
	char energy[48];
	const char *verification;
};

static void pct(char *buf, size_t len, double v)
{
	snprintf(buf, len, "%.1f", v);
}

static void cells(const struct hil_row_view *v, struct pq_cells *c)
{
	const struct hil_row_view_est *est = hil_rv_estimate(v);
	const struct hil_row_pq *pq = &v->row.pq;

	memset(c, 0, sizeof(*c));
	snprintf(c->cycles, sizeof(c->cycles), "-");
	snprintf(c->spread, sizeof(c->spread), "-");
	if (has_model(v)) {
		commas(c->cycles, sizeof(c->cycles), v->model.median);
		/* The profile's error bar, where it has one. */
		if (hil_row_view_has(v, &v->model.error_pct)) {
			size_t o = strlen(c->cycles);

			snprintf(c->cycles + o, sizeof(c->cycles) - o,
				 " \xc2\xb1 %.0f %%", v->model.error_pct);
		}
		if (hil_row_view_has(v, &v->model.min) &&
		    hil_row_view_has(v, &v->model.max)) {
			char a[32], b[32];

			if (v->model.min == v->model.max) {
				snprintf(c->spread, sizeof(c->spread),
					 "none (min = max)");
			} else {
				commas(a, sizeof(a), v->model.min);
				commas(b, sizeof(b), v->model.max);
				snprintf(c->spread, sizeof(c->spread),
					 "%s to %s", a, b);
			}
		}
	}
	snprintf(c->instr, sizeof(c->instr), "-");
	if (hil_row_view_has(v, &v->median)) {
		commas(c->instr, sizeof(c->instr), v->median);
	}
	snprintf(c->stack, sizeof(c->stack), "-");
	if (hil_row_view_has(v, &v->row.stack_bytes)) {
		commas(c->stack, sizeof(c->stack), v->row.stack_bytes);
	}
	{
		char t[32], d[32], b[32];

		commas(t, sizeof(t), pq->text);
		commas(d, sizeof(d), pq->data);
		commas(b, sizeof(b), pq->bss);
		snprintf(c->size, sizeof(c->size), "%s / %s / %s", t, d, b);
	}
	if (has_model(v)) {
		pct(c->sha2, sizeof(c->sha2), pq->sha2_pct);
		pct(c->sha3, sizeof(c->sha3), pq->sha3_pct);
		pct(c->aes, sizeof(c->aes), pq->aes_pct);
	} else { /* attributed by the cycle model only */
		snprintf(c->sha2, sizeof(c->sha2), "-");
		snprintf(c->sha3, sizeof(c->sha3), "-");
		snprintf(c->aes, sizeof(c->aes), "-");
	}
	snprintf(c->energy, sizeof(c->energy), "-");
	if (est != NULL && hil_row_view_has(v, &est->uj_per_op)) {
		snprintf(c->energy, sizeof(c->energy), "%.3g", est->uj_per_op);
	}
	c->verification = pq->verification;
	if (!hil_rv_ok(v)) {
		/* A call whose outputs are wrong has no figure worth
		 * reading, as a failed row of any run (summary.md's "✗
		 * failed rows"): the code's size stays, it is the build's. */
		snprintf(c->cycles, sizeof(c->cycles), "-");
		snprintf(c->spread, sizeof(c->spread), "-");
		snprintf(c->instr, sizeof(c->instr), "-");
		snprintf(c->stack, sizeof(c->stack), "-");
		snprintf(c->sha2, sizeof(c->sha2), "-");
		snprintf(c->sha3, sizeof(c->sha3), "-");
		snprintf(c->aes, sizeof(c->aes), "-");
		snprintf(c->energy, sizeof(c->energy), "-");
	}
}

#define N_NOTES	 6
#define NOTE_LEN 512

/* The section's notes, one sentence each: what the figures are. */
static void notes_of(const cJSON *report, const struct pq_rows *rows,
		     char notes[N_NOTES][NOTE_LEN])
{
	const cJSON *cm =
		cJSON_GetObjectItemCaseSensitive(report, "cycle_model");
	const struct hil_row_view *r = first_pq(rows);
	const char *why = hil_rj_energy_reason(report);
	double seed = 0, err = -1;
	const char *rng = "";

	if (r != NULL) {
		seed = r->row.seed;
		rng = r->row.pq.rng;
		if (hil_row_view_has(r, &r->model.error_pct)) {
			err = r->model.error_pct;
		}
	}
	snprintf(notes[0], NOTE_LEN,
		 "Est. cycles: %s, the median over the runs with its spread "
		 "(min to max); an estimate, not a measurement%s.",
		 hil_rj_str(cm, "unit")[0] != '\0' ? hil_rj_str(cm, "unit")
						   : "cycle model",
		 err > 0 ? " (± the profile's error bar: docs/cycle-model.md, "
			   "\"Error bars\")"
			 : "; this profile has no error bar");
	snprintf(notes[1], NOTE_LEN,
		 "Stack: the peak of one call, the stub's own frames less "
		 "(painted).");
	snprintf(notes[2], NOTE_LEN,
		 "Code: .text / .data / .bss of the scheme's own objects, the "
		 "common code apart (pqm4's rule).");
	snprintf(notes[3], NOTE_LEN,
		 "SHA-2, SHA-3, AES: percent of the estimated cycles spent in "
		 "the common code's hash and AES functions, attributed by the "
		 "cycle model (docs/pq.md).");
	if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(cm, "enabled"))) {
		/* A run on a board over its link: no model ran. */
		snprintf(notes[0], NOTE_LEN,
			 "Est. cycles: none: no cycle model ran on this board; "
			 "the counts are the board's own, %s%s.",
			 hil_rj_str(cJSON_GetObjectItemCaseSensitive(report,
								     "board"),
				    "counter_unit"),
			 board_cycles(report)
				 ? " (measured by its cycle counter)"
				 : " (counted by the emulator, not a board's "
				   "cycles)");
		snprintf(notes[3], NOTE_LEN,
			 "SHA-2, SHA-3, AES: \"-\": the shares are attributed "
			 "by the cycle model only (docs/pq.md).");
	}
	snprintf(notes[4], NOTE_LEN,
		 "randombytes: %s from seed %.0f (not a secure generator).",
		 rng[0] != '\0' ? rng : "splitmix64", seed);
	if (why != NULL) {
		snprintf(notes[5], NOTE_LEN, "Energy: \"-\" = no estimate: %s.",
			 why);
	} else {
		snprintf(notes[5], NOTE_LEN,
			 "Energy: µJ per operation from the datasheet's run "
			 "current and the estimated cycles: an estimate, not "
			 "measured (docs/method.md).");
	}
}

void hil_md_pq(const cJSON *report, FILE *out)
{
	struct pq_rows rows;
	char notes[N_NOTES][NOTE_LEN];
	size_t i;

	/* Out of memory: no section. */
	if (!hil_rj_has_pq(report) ||
	    hil_row_views_read(hil_rj_rows(report), &rows.r, &rows.n) !=
		    HIL_OK) {
		return;
	}
	fputs("## Post-quantum operations\n\n", out);
	fprintf(out,
		"| Scheme | Impl | Op | Est. cycles (median) | Spread (min to max) | %s | Stack (B) | Code .text / .data / .bss (B) | SHA-2 %% | SHA-3 %% | AES %% | Energy (µJ/op, est.) | Verification |\n",
		board_cycles(report) ? "Cycles (measured, median)"
				     : "Instructions (emulated)");
	fputs("|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|\n", out);
	for (i = 0; i < rows.n; i++) {
		const struct hil_row_view *r = &rows.r[i];
		struct pq_cells c;

		if (!r->is_pq) {
			continue;
		}
		cells(r, &c);
		fputs("| ", out);
		hil_md_cell(out, r->algorithm);
		fputs(" | ", out);
		hil_md_cell(out, r->implementation);
		fputs(" | ", out);
		hil_md_cell(out, r->operation);
		fprintf(out,
			"%s | %s | %s | %s | %s | %s | %s | %s | %s | %s | ",
			hil_rv_ok(r) ? "" : " ✗", c.cycles, c.spread, c.instr,
			c.stack, c.size, c.sha2, c.sha3, c.aes, c.energy);
		hil_md_cell(out, c.verification);
		fputs(" |\n", out);
	}
	notes_of(report, &rows, notes);
	free(rows.r);
	fputs("\n", out);
	for (i = 0; i < N_NOTES; i++) {
		fputs("- ", out);
		hil_md_cell(out, notes[i]);
		fputs("\n", out);
	}
	fputs("\n", out);
	if (cJSON_GetArraySize(not_run(report)) > 0) {
		const cJSON *e;

		fputs("**Not run** (the folders, or operations, left out, with the reason):\n\n",
		      out);
		cJSON_ArrayForEach(e, not_run(report))
		{
			fputs("- ", out);
			hil_md_cell(out, hil_rj_str(e, "algorithm"));
			fputc('/', out);
			hil_md_cell(out, hil_rj_str(e, "implementation"));
			fputs(": ", out);
			hil_md_cell(out, hil_rj_str(e, "why"));
			fputs("\n", out);
		}
		fputs("\n", out);
	}
}

void hil_render_html_pq(const cJSON *report, FILE *out)
{
	struct pq_rows rows;
	char notes[N_NOTES][NOTE_LEN];
	size_t i;

	/* Out of memory: no section. */
	if (!hil_rj_has_pq(report) ||
	    hil_row_views_read(hil_rj_rows(report), &rows.r, &rows.n) !=
		    HIL_OK) {
		return;
	}
	fputs("<section id=\"pq\"><h2>Post-quantum operations</h2>\n<table>\n<thead><tr>",
	      out);
	hil_render_th2(out, "l", "Scheme", NULL);
	hil_render_th2(out, "l", "Impl", NULL);
	hil_render_th2(out, "l", "Op", NULL);
	hil_render_th2(out, "n", "Est. cycles", "median");
	hil_render_th2(out, "n", "Spread", "min to max");
	if (board_cycles(report)) {
		hil_render_th2(out, "n", "Cycles", "measured, median");
	} else {
		hil_render_th2(out, "n", "Instructions", "emulated");
	}
	hil_render_th2(out, "n", "Stack", "bytes");
	hil_render_th2(out, "n", "Code", ".text / .data / .bss");
	hil_render_th2(out, "n", "SHA-2", "% of cycles");
	hil_render_th2(out, "n", "SHA-3", "% of cycles");
	hil_render_th2(out, "n", "AES", "% of cycles");
	hil_render_th2(out, "n", "Energy", "µJ/op, est.");
	hil_render_th2(out, "l", "Verification", NULL);
	fputs("</tr></thead>\n<tbody>\n", out);
	for (i = 0; i < rows.n; i++) {
		const struct hil_row_view *r = &rows.r[i];
		struct pq_cells c;

		if (!r->is_pq) {
			continue;
		}
		cells(r, &c);
		fputs(hil_rv_ok(r) ? "<tr>" : "<tr class=\"bad\">", out);
		hil_render_td_text(out, NULL, r->algorithm);
		hil_render_td_text(out, NULL, r->implementation);
		hil_render_td_text(out, NULL, r->operation);
		hil_render_td_text(out, "n", c.cycles);
		hil_render_td_text(out, "n", c.spread);
		hil_render_td_text(out, "n", c.instr);
		hil_render_td_text(out, "n", c.stack);
		hil_render_td_text(out, "n", c.size);
		hil_render_td_text(out, "n", c.sha2);
		hil_render_td_text(out, "n", c.sha3);
		hil_render_td_text(out, "n", c.aes);
		hil_render_td_text(out, "n", c.energy);
		hil_render_td_text(out, NULL, c.verification);
		fputs("</tr>\n", out);
	}
	fputs("</tbody>\n</table>\n<ul class=\"notes muted\">\n", out);
	notes_of(report, &rows, notes);
	free(rows.r);
	for (i = 0; i < N_NOTES; i++) {
		fputs("<li>", out);
		hil_xml_puts(out, notes[i]);
		fputs("</li>\n", out);
	}
	fputs("</ul>\n", out);
	if (cJSON_GetArraySize(not_run(report)) > 0) {
		const cJSON *e;

		fputs("<h3>Not run</h3>\n<ul>\n", out);
		cJSON_ArrayForEach(e, not_run(report))
		{
			fputs("<li><code>", out);
			hil_xml_puts(out, hil_rj_str(e, "algorithm"));
			fputc('/', out);
			hil_xml_puts(out, hil_rj_str(e, "implementation"));
			fputs("</code>: ", out);
			hil_xml_puts(out, hil_rj_str(e, "why"));
			fputs("</li>\n", out);
		}
		fputs("</ul>\n", out);
	}
	fputs("</section>\n", out);
}

/* ------------------------------------------ pqm4's benchmarks.md/.csv */

/* The pq row of scheme/impl/op, or NULL. */
static const struct hil_row_view *pq_row(const struct pq_rows *rows,
					 const char *scheme, const char *impl,
					 const char *op)
{
	size_t i;

	for (i = 0; i < rows->n; i++) {
		const struct hil_row_view *r = &rows->r[i];

		if (r->is_pq && strcmp(r->algorithm, scheme) == 0 &&
		    strcmp(r->implementation, impl) == 0 &&
		    strcmp(r->operation, op) == 0) {
			return r;
		}
	}
	return NULL;
}

/* 1 when rows->r[k] is the first of its scheme/impl among kind's pq rows. */
static int first_of(const struct pq_rows *rows, size_t k, const char *kind)
{
	const struct hil_row_view *row = &rows->r[k];
	size_t i;

	if (!row->is_pq || strcmp(row->row.pq.kind, kind) != 0) {
		return 0;
	}
	for (i = 0; i < k; i++) {
		const struct hil_row_view *r = &rows->r[i];

		if (r->is_pq && strcmp(r->algorithm, row->algorithm) == 0 &&
		    strcmp(r->implementation, row->implementation) == 0) {
			return 0;
		}
	}
	return 1;
}

enum pqm4_what { W_SPEED, W_STACK, W_HASH, W_SIZE };

/* A header as pqm4 has it, its "[cycles]" said "[instructions]" when the
 * figures are an emulator's counts (a board run without the model). */
static void put_head(FILE *out, const char *head, int instr)
{
	const char *p = head, *q;

	while (instr && (q = strstr(p, "[cycles]")) != NULL) {
		fwrite(p, 1, (size_t)(q - p), out);
		fputs("[instructions]", out);
		p = q + strlen("[cycles]");
	}
	fputs(p, out);
}

/* The report's figures are an emulator's counts: no model, no DWT. */
static int counts_only(const cJSON *report)
{
	return !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(
		       cJSON_GetObjectItemCaseSensitive(report, "cycle_model"),
		       "enabled")) &&
	       !board_cycles(report);
}

static const char *const kem_ops[] = {"keypair", "encaps", "decaps"};
static const char *const sig_ops[] = {"keypair", "sign", "verify"};

/* One table (md) or block (csv) of pqm4's export for kind. */
static void pqm4_section(const cJSON *report, const struct pq_rows *rows,
			 FILE *out, int md, const char *kind, enum pqm4_what w)
{
	static const char *const heads_md[][2] = {
		[W_SPEED] =
			{"| scheme | implementation | key generation [cycles] | encapsulation [cycles] | decapsulation [cycles] |",
			 "| scheme | implementation | key generation [cycles] | sign [cycles] | verify [cycles] |"},
		[W_STACK] =
			{"| Scheme | Implementation | Key Generation [bytes] | Encapsulation [bytes] | Decapsulation [bytes] |",
			 "| Scheme | Implementation | Key Generation [bytes] | Sign [bytes] | Verify [bytes] |"},
		[W_HASH] =
			{"| Scheme | Implementation | Key Generation [%] | Encapsulation [%] | Decapsulation [%] |",
			 "| Scheme | Implementation | Key Generation [%] | Sign [%] | Verify [%] |"},
		[W_SIZE] =
			{"| Scheme | Implementation | .text [bytes] | .data [bytes] | .bss [bytes] | Total [bytes] |",
			 "| Scheme | Implementation | .text [bytes] | .data [bytes] | .bss [bytes] | Total [bytes] |"},
	};
	static const char *const heads_csv[][2] = {
		[W_SPEED] =
			{"Scheme,Implementation,Key Generation [cycles] (mean),Key Generation [cycles] (min),Key Generation [cycles] (max),Encapsulation [cycles] (mean),Encapsulation [cycles] (min),Encapsulation [cycles] (max),Decapsulation [cycles] (mean),Decapsulation [cycles] (min),Decapsulation [cycles] (max)",
			 "Scheme,Implementation,Key Generation [cycles] (mean),Key Generation [cycles] (min),Key Generation [cycles] (max),Sign [cycles] (mean),Sign [cycles] (min),Sign [cycles] (max),Verify [cycles] (mean),Verify [cycles] (min),Verify [cycles] (max)"},
		[W_STACK] =
			{"Scheme,Implementation,Key Generation [bytes],Encapsulation [bytes],Decapsulation [bytes]",
			 "Scheme,Implementation,Key Generation [bytes],Sign [bytes],Verify [bytes]"},
		[W_HASH] =
			{"Scheme,Implementation,Key Generation [%],Encapsulation [%],Decapsulation [%]",
			 "Scheme,Implementation,Key Generation [%],Sign [%],Verify [%]"},
		[W_SIZE] =
			{"Scheme,Implementation,.text [bytes],.data [bytes],.bss [bytes],Total [bytes]",
			 "Scheme,Implementation,.text [bytes],.data [bytes],.bss [bytes],Total [bytes]"},
	};
	const int sig = strcmp(kind, "sign") == 0;
	const char *const *ops = sig ? sig_ops : kem_ops;
	const char *title =
		sig ? "Signature Schemes" : "Key Encapsulation Schemes";
	size_t k, j, cols = w == W_SIZE ? 6 : 5;

	if (md) {
		fprintf(out, "## %s\n", title);
		put_head(out, heads_md[w][sig], counts_only(report));
		fputs("\n|", out);
		for (j = 0; j < cols; j++) {
			fputs(" --- |", out);
		}
		fputc('\n', out);
	} else {
		fprintf(out, "%s,,,,,,,,,,\n", title);
		put_head(out, heads_csv[w][sig], counts_only(report));
		fputc('\n', out);
	}
	for (k = 0; k < rows->n; k++) {
		const struct hil_row_view *r = &rows->r[k];
		const char *scheme = r->algorithm;
		const char *impl = r->implementation;
		double runs = r->row.runs;

		if (!first_of(rows, k, kind)) {
			continue;
		}
		if (w == W_SPEED) {
			if (md) {
				fprintf(out, "| %s (%.0f executions) | %s",
					scheme, runs, impl);
			} else {
				fprintf(out, "%s (%.0f executions),%s", scheme,
					runs, impl);
			}
		} else if (md) {
			fprintf(out, "| %s | %s", scheme, impl);
		} else {
			fprintf(out, "%s,%s", scheme, impl);
		}
		if (w == W_SIZE) {
			double t = r->row.pq.text, d = r->row.pq.data,
			       b = r->row.pq.bss;
			char c[4][32];

			commas(c[0], sizeof(c[0]), t);
			commas(c[1], sizeof(c[1]), d);
			commas(c[2], sizeof(c[2]), b);
			commas(c[3], sizeof(c[3]), t + d + b);
			if (md) {
				fprintf(out, " | %s | %s | %s | %s |\n", c[0],
					c[1], c[2], c[3]);
			} else {
				fprintf(out, ",%.0f,%.0f,%.0f,%.0f\n", t, d, b,
					t + d + b);
			}
			continue;
		}
		for (j = 0; j < 3; j++) {
			const struct hil_row_view *o =
				pq_row(rows, scheme, impl, ops[j]);
			double mean = 0, mn = 0, mx = 0, v = 0;
			char a[32], b[32], c[32];

			if (o == NULL) { /* not run (pq-bench -S: no sign) */
				fputs(md ? " | -"
					 : (w == W_SPEED ? ",-,-,-" : ",-"),
				      out);
				continue;
			}
			if (has_model(o)) {
				mean = o->model.mean;
				mn = o->model.min;
				mx = o->model.max;
			} else { /* the board's own counts */
				mean = o->mean;
				mn = o->min;
				mx = o->max;
			}
			if (w == W_SPEED) {
				mean = floor(mean + 0.5);
				if (md) {
					commas(a, sizeof(a), mean);
					commas(b, sizeof(b), mn);
					commas(c, sizeof(c), mx);
					fprintf(out,
						" | AVG: %s <br /> MIN: %s <br /> MAX: %s",
						a, b, c);
				} else {
					fprintf(out, ",%.0f,%.0f,%.0f", mean,
						mn, mx);
				}
			} else if (w == W_STACK) {
				v = o->row.stack_bytes;
				if (md) {
					commas(a, sizeof(a), v);
					fprintf(out, " | %s", a);
				} else {
					fprintf(out, ",%.0f", v);
				}
			} else if (!has_model(o)) {
				fputs(md ? " | -" : ",-", out);
			} else {
				v = o->row.pq.sha2_pct + o->row.pq.sha3_pct +
				    o->row.pq.aes_pct;
				fprintf(out, md ? " | %.1f%%" : ",%.1f%%", v);
			}
		}
		fputs(md ? " |\n" : "\n", out);
	}
	if (md) {
		fputc('\n', out);
	}
}

/* The first line: what the figures are (the model's, or a board's own). */
static void pqm4_note(const cJSON *report, const struct pq_rows *rows,
		      char *buf, size_t len)
{
	const cJSON *board = cJSON_GetObjectItemCaseSensitive(report, "board");
	const cJSON *build = cJSON_GetObjectItemCaseSensitive(report, "build");
	const cJSON *cm =
		cJSON_GetObjectItemCaseSensitive(report, "cycle_model");
	const cJSON *fl = cJSON_GetObjectItemCaseSensitive(build, "cflags");
	const struct hil_row_view *r = first_pq(rows);
	double seed = r != NULL ? r->row.seed : 0;
	if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(cm, "enabled"))) {
		snprintf(buf, len,
			 "%s (hilrun, board %s, %s, %s, %s); no cycle model, "
			 "no hashing shares; randombytes: splitmix64 from "
			 "seed %.0f.",
			 board_cycles(report)
				 ? "Cycles measured on the board by its cycle "
				   "counter"
				 : "Instructions counted by the emulator, not "
				   "a board's cycles",
			 hil_rj_str(board, "name"),
			 cJSON_IsString(cJSON_GetArrayItem(fl, 0))
				 ? cJSON_GetArrayItem(fl, 0)->valuestring
				 : "",
			 hil_rj_str(build, "compiler"),
			 hil_rj_str(build, "directory"), seed);
		return;
	}
	snprintf(buf, len,
		 "Cycle-model estimates (hilrun, board %s, memory profile %s, "
		 "%s, %s, %s); randombytes: splitmix64 from seed %.0f; not "
		 "measured on hardware.",
		 hil_rj_str(board, "name"), hil_rj_str(cm, "profile"),
		 cJSON_IsString(cJSON_GetArrayItem(fl, 0))
			 ? cJSON_GetArrayItem(fl, 0)->valuestring
			 : "",
		 hil_rj_str(build, "compiler"), hil_rj_str(build, "directory"),
		 seed);
}

static int pqm4_all(const cJSON *report, FILE *out, int md)
{
	static const char *const titles[] = {
		"Speed Evaluation", "Memory Evaluation", "Hashing Evaluation",
		"Size Evaluation"};
	struct pq_rows rows;
	char note[1024];
	int w;

	if (hil_row_views_read(hil_rj_rows(report), &rows.r, &rows.n) !=
	    HIL_OK) {
		return HIL_ERR_NOMEM;
	}
	pqm4_note(report, &rows, note, sizeof(note));
	if (md) {
		fputs("<!-- ", out);
		hil_puts_noctl(out, note);
		fputs(" -->\n", out);
	}
	for (w = W_SPEED; w <= W_SIZE; w++) {
		if (md) {
			fprintf(out, "# %s\n", titles[w]);
		} else if (w != W_SPEED) {
			fprintf(out, "%s,,,,,,,,,,\n", titles[w]);
		} else {
			fputs("Speed Evaluation,,,,,,,,,,\n", out);
		}
		pqm4_section(report, &rows, out, md, "kem", (enum pqm4_what)w);
		pqm4_section(report, &rows, out, md, "sign", (enum pqm4_what)w);
	}
	free(rows.r);
	return HIL_OK;
}

int hil_pqm4_md(const cJSON *report, FILE *out)
{
	int ret = pqm4_all(report, out, 1);

	return ret != HIL_OK ? ret : hil_render_status(out);
}

int hil_pqm4_csv(const cJSON *report, FILE *out)
{
	int ret = pqm4_all(report, out, 0);

	return ret != HIL_OK ? ret : hil_render_status(out);
}
