/* table: what a run prints on stdout: the headline table (the four numbers people came for) and, on request, every row. */
#include "report.h"
#include "result/clocklabel.h"

#include <stdlib.h>

#include <stdio.h>
#include <string.h>

#include "result/modelerr.h"

static void print_caption(const struct hil_run *run, FILE *out)
{
	const struct hil_config *cfg = run->cfg;
	char label[192];
	size_t i;

	fprintf(out, "\nhilrun %s: %s%s, flags:", cfg->name, cfg->board.name,
		(run->info.flags & HILP_INFO_EMULATED) ? " (emulated)" : "");
	for (i = 0; i < cfg->build.n_cflags; i++) {
		fprintf(out, " %s", cfg->build.cflags[i]);
	}
	fprintf(out, ", runs %u (+%u warm-up)\n", (unsigned)cfg->bench.runs,
		(unsigned)cfg->bench.warmup);
	/* What the figures are, at which clock and flash setting. */
	hil_run_clock_label(run, label, sizeof(label));
	fprintf(out, "%s\n", label);
	if (run->n_images > 1) {
		unsigned long flash = 0, ram = 0;

		/* The selection did not fit one image: the largest of them. */
		for (i = 0; i < run->n_images; i++) {
			if (run->images[i].sizes.flash > flash) {
				flash = run->images[i].sizes.flash;
			}
			if (run->images[i].sizes.ram_static > ram) {
				ram = run->images[i].sizes.ram_static;
			}
		}
		fprintf(out,
			"%zu images (too big for one), the largest %lu B "
			"flash / %lu B RAM\n",
			run->n_images, flash, ram);
		return;
	}
	fprintf(out, "image %lu B flash / %lu B RAM\n", run->sizes.flash,
		run->sizes.ram_static);
}

static const struct hil_impl_size *impl_size(const struct hil_run *run,
					     const struct hil_row *r)
{
	size_t i;

	for (i = 0; i < run->n_impl_sizes; i++) {
		if (strcmp(run->impl_sizes[i].algorithm, r->algorithm) == 0 &&
		    strcmp(run->impl_sizes[i].implementation,
			   r->implementation) == 0) {
			return &run->impl_sizes[i];
		}
	}
	return NULL;
}

/* The row of a series at msg_len, or NULL. */
static const struct hil_row *row_at(const struct hil_run *run,
				    const struct hil_row *r, uint32_t len)
{
	size_t i;

	for (i = 0; i < run->n_rows; i++) {
		const struct hil_row *o = &run->rows[i];

		if (o->msg_len == len && o->ad_len == r->ad_len &&
		    strcmp(o->algorithm, r->algorithm) == 0 &&
		    strcmp(o->implementation, r->implementation) == 0 &&
		    strcmp(o->operation, r->operation) == 0) {
			return o;
		}
	}
	return NULL;
}

static int same_series(const struct hil_row *a, const struct hil_row *b)
{
	return strcmp(a->algorithm, b->algorithm) == 0 &&
	       strcmp(a->implementation, b->implementation) == 0 &&
	       strcmp(a->operation, b->operation) == 0;
}

/* The length the headline column shows: want if some row has it, else the
 * measured length nearest to it. */
static uint32_t headline_len(const struct hil_run *run, uint32_t want)
{
	uint32_t best = 0;
	long bestd = -1;
	size_t i;

	for (i = 0; i < run->n_rows; i++) {
		uint32_t l = run->rows[i].msg_len;
		long d = l > want ? (long)(l - want) : (long)(want - l);

		if (l == 0 || strcmp(run->rows[i].operation, "keysetup") == 0) {
			continue;
		}
		if (bestd < 0 || d < bestd || (d == bestd && l < best)) {
			best = l;
			bestd = d;
		}
	}
	return best;
}

/* A per-byte cell: the counter's and the model's figure of row o. */
static void cell_per_byte(char *buf, size_t len, const struct hil_row *o,
			  int model)
{
	double v;

	if (o == NULL || !o->ok || (model && !o->model.ok)) {
		snprintf(buf, len, "-");
		return;
	}
	v = model ? o->model.stats.median : o->stats.median;
	if (o->msg_len == 0) {
		snprintf(buf, len, "%.0f/op", v);
	} else {
		snprintf(buf, len, "%.1f", v / o->msg_len);
	}
}

/* After an estimated figure: its error bar (" ± 6 %"), when calibrated. */
static void model_error_suffix(char *buf, size_t len, const struct hil_run *run,
			       const struct hil_row *o)
{
	char e[32];

	if (o == NULL || !o->ok || !o->model.ok) {
		return;
	}
	hil_model_error_label(run, o, e, sizeof(e));
	strncat(buf, e, len - strlen(buf) - 1);
}

#define HT_COLS 16
#define HT_CELL 48

/* One line of the headline table. */
struct ht_line {
	char c[HT_COLS][HT_CELL];
};

static const char *unit_short(uint8_t unit)
{
	switch (unit) {
	case HILP_UNIT_CYCLES:
		return "cycles/B";
	case HILP_UNIT_INSTRUCTIONS_EMU:
		return "instr/B";
	case HILP_UNIT_NS_HOST:
		return "ns/B";
	default:
		return "count/B";
	}
}

/* Where each column of the headline table is; -1: not shown. */
struct ht_cols {
	int head, head_l;   /* the figure people came for, @at and @longest */
	int instr, instr_l; /* the counter's, when it is not the head (-v) */
	int flash, ram;
	int energy, range; /* the row's energy; the estimate's range */
	int est, ratio;	   /* with a sensor: the estimate beside it */
	int spread, mode;
	int n;
};

/* What the table found in the run. */
struct ht_run {
	uint32_t at, longest;
	int two;	  /* a second length column */
	int head_model;	  /* the head figure is the model's estimate */
	int have_model;	  /* some row has a model estimate */
	int have_energy;  /* some row's energy was measured (or simulated) */
	int energy_model; /* ... by the simulated sensor */
	int have_est;	  /* some row's energy is the datasheet estimate */
	int have_beside;  /* the estimate stands beside a sensor's figure */
	int have_spread;
	size_t failed;
};

static void ht_scan(const struct hil_run *run, uint32_t want, int detail,
		    struct ht_run *h, struct ht_cols *c)
{
	const int dwt = (run->info.flags & HILP_INFO_EMULATED) == 0 &&
			run->info.counter_unit == HILP_UNIT_CYCLES;
	size_t i;
	int n = 3;

	memset(h, 0, sizeof(*h));
	h->at = headline_len(run, want);
	for (i = 0; i < run->n_rows; i++) {
		const struct hil_row *r = &run->rows[i];

		if (r->msg_len > h->longest) {
			h->longest = r->msg_len;
		}
		h->have_model |= r->ok && r->model.ok;
		h->have_energy |= r->energy.state == HIL_ENERGY_OK;
		h->energy_model |=
			r->energy.state == HIL_ENERGY_OK && r->energy.model;
		h->have_est |= r->energy.state == HIL_ENERGY_NONE && r->est.ok;
		h->have_beside |= run->energy_est.beside && r->est.ok;
		h->have_spread |= r->ok && r->stats.stddev > 0;
		h->failed +=
			!r->ok && !r->interrupted; /* cut short: not failed */
	}
	h->two = h->longest != h->at;
	/* Cycles lead: the board's own, else the model's estimate; the
	 * counter's instructions only when there is nothing else. */
	h->head_model = !dwt && h->have_model;
	c->head = n++;
	c->head_l = h->two ? n++ : -1;
	c->instr = c->instr_l = -1;
	if (h->head_model && detail) {
		c->instr = n++;
		c->instr_l = h->two ? n++ : -1;
	}
	c->flash = n++;
	c->ram = n++;
	/* Energy always has its column: measured, simulated or estimated
	 * from the datasheet, or "-" with the reason below the table. */
	c->energy = n++;
	c->range = h->have_est ? n++ : -1;
	c->est = h->have_beside ? n++ : -1;
	c->ratio = h->have_beside && h->have_energy ? n++ : -1;
	c->spread = h->have_spread ? n++ : -1;
	c->mode = n++;
	c->n = n;
}

static void ht_header(const struct hil_run *run, const struct ht_run *h,
		      const struct ht_cols *c, struct ht_line *l)
{
	snprintf(l->c[0], HT_CELL, "algorithm");
	snprintf(l->c[1], HT_CELL, "impl");
	snprintf(l->c[2], HT_CELL, "op");
	snprintf(l->c[c->head], HT_CELL, "%s @%u",
		 h->head_model ? "est. cycles/B"
			       : unit_short(run->info.counter_unit),
		 (unsigned)h->at);
	if (c->head_l >= 0) {
		snprintf(l->c[c->head_l], HT_CELL, "@%u", (unsigned)h->longest);
	}
	if (c->instr >= 0) {
		snprintf(l->c[c->instr], HT_CELL, "%s @%u",
			 unit_short(run->info.counter_unit), (unsigned)h->at);
	}
	if (c->instr_l >= 0) {
		snprintf(l->c[c->instr_l], HT_CELL, "@%u",
			 (unsigned)h->longest);
	}
	snprintf(l->c[c->flash], HT_CELL, "flash KiB");
	snprintf(l->c[c->ram], HT_CELL, "RAM B");
	snprintf(l->c[c->energy], HT_CELL, "uJ/op @%u%s", (unsigned)h->at,
		 h->have_energy		   ? (h->energy_model ? " (sim)" : "")
		 : run->energy_est.applies ? " (est.)"
					   : "");
	if (c->range >= 0) {
		snprintf(l->c[c->range], HT_CELL, "est. range");
	}
	if (c->est >= 0) {
		snprintf(l->c[c->est], HT_CELL, "est. uJ/op");
	}
	if (c->ratio >= 0) {
		snprintf(l->c[c->ratio], HT_CELL, "%s/est.",
			 h->energy_model ? "sim" : "meas.");
	}
	if (c->spread >= 0) {
		snprintf(l->c[c->spread], HT_CELL, "spread @%u",
			 (unsigned)h->at);
	}
	snprintf(l->c[c->mode], HT_CELL, "mode");
}

/* The energy cells of a series' row at the headline length. */
static void ht_energy(const struct ht_run *h, const struct ht_cols *c,
		      const struct hil_row *ra, struct ht_line *l)
{
	const int measured = ra != NULL && ra->energy.state == HIL_ENERGY_OK;
	const int est = ra != NULL && ra->est.ok;

	if (measured) {
		snprintf(l->c[c->energy], HT_CELL, "%.3g",
			 ra->energy.uj_per_op);
	} else if (!h->have_energy && est &&
		   ra->energy.state == HIL_ENERGY_NONE) {
		snprintf(l->c[c->energy], HT_CELL, "%.3g", ra->est.uj_per_op);
	} else {
		snprintf(l->c[c->energy], HT_CELL, "-");
	}
	if (c->range >= 0) {
		if (est && ra->energy.state == HIL_ENERGY_NONE) {
			snprintf(l->c[c->range], HT_CELL, "%.3g-%.3g",
				 ra->est.uj_lo, ra->est.uj_hi);
		} else {
			snprintf(l->c[c->range], HT_CELL, "-");
		}
	}
	if (c->est >= 0) {
		if (est) {
			/* Its range is in the note below and the files:
			 * the line keeps within 120 columns. */
			snprintf(l->c[c->est], HT_CELL, "%.3g",
				 ra->est.uj_per_op);
		} else {
			snprintf(l->c[c->est], HT_CELL, "-");
		}
	}
	if (c->ratio >= 0) {
		if (measured && est && ra->est.uj_per_op > 0) {
			snprintf(l->c[c->ratio], HT_CELL, "%.2f",
				 ra->energy.uj_per_op / ra->est.uj_per_op);
		} else {
			snprintf(l->c[c->ratio], HT_CELL, "-");
		}
	}
}

/* The row of the run's series that carries the estimate's I_DD. */
static const struct hil_row *first_est(const struct hil_run *run)
{
	size_t i;

	for (i = 0; i < run->n_rows; i++) {
		if (run->rows[i].est.ok) {
			return &run->rows[i];
		}
	}
	return NULL;
}

/* The footnote of the datasheet estimate: formula, table point, range,
 * source; lines under 120 columns. */
static void ht_est_note(const struct hil_run *run, FILE *out)
{
	const struct hil_row *r = first_est(run);

	if (r == NULL) {
		return;
	}
	fprintf(out,
		"  = %.1f V x %.3g mA (typ., 25 C, all peripherals off) x cycles / %g MHz;\n",
		r->est.vdd, r->est.idd_ma, r->est.clock_hz / 1e6);
	if (strstr(run->energy_est.assumptions, "linear in frequency") !=
	    NULL) {
		fprintf(out,
			"  I_DD linear in frequency between the table's two nearest clocks;\n");
	}
	fprintf(out,
		"  range: up to the max. at 25 C, all peripherals on (%.3g mA);\n"
		"  source: %s.\n",
		r->est.idd_hi_ma, run->energy_est.table);
}

/* Lines of the table with the name columns and columns from to last;
 * names and the mode left, figures right, no trailing blank. */
static void ht_print(const struct ht_line *lines, size_t n, const int *w,
		     const struct ht_cols *c, int from, int last, FILE *out)
{
	size_t i;
	int j;

	fputc('\n', out);
	for (i = 0; i < n; i++) {
		for (j = 0; j <= last; j++) {
			const int left = j < 3 || j == c->mode;

			if (j >= 3 && j < from) {
				continue;
			}
			if (j == last && left) {
				/* No trailing blanks after the last column. */
				fprintf(out, "%s%s", j ? "  " : "",
					lines[i].c[j]);
			} else {
				fprintf(out, "%s%*s", j ? "  " : "",
					left ? -w[j] : w[j], lines[i].c[j]);
			}
		}
		fputc('\n', out);
	}
}

static void print_headline(const struct hil_run *run, uint32_t want, int detail,
			   unsigned width, FILE *out)
{
	const int emulated = (run->info.flags & HILP_INFO_EMULATED) != 0;
	struct ht_run h;
	struct ht_cols c;
	int any_ct0 = 0;
	size_t i, j, n = 0;
	struct ht_line *lines;
	int w[HT_COLS] = {0};

	ht_scan(run, want, detail, &h, &c);
	lines = calloc(run->n_rows + 1, sizeof(*lines));
	if (lines == NULL) {
		fprintf(out, "(no memory for the headline table)\n");
		return;
	}
	ht_header(run, &h, &c, &lines[0]);
	n = 1;
	for (i = 0; i < run->n_rows; i++) {
		const struct hil_row *r = &run->rows[i];
		const struct hil_impl_size *z = impl_size(run, r);
		const int ks = strcmp(r->operation, "keysetup") == 0;
		const struct hil_row *ra =
			row_at(run, r, ks ? r->msg_len : h.at);
		const struct hil_row *rl =
			ks ? NULL : row_at(run, r, h.longest);
		struct ht_line *l = &lines[n];
		uint32_t stack = 0;
		int first = 1, series_ok = 0, series_cut = 0;

		for (j = 0; j < i; j++) {
			first &= !same_series(&run->rows[j], r);
		}
		if (!first) {
			continue;
		}
		for (j = 0; j < run->n_rows; j++) {
			const struct hil_row *o = &run->rows[j];

			if (!same_series(o, r)) {
				continue;
			}
			series_ok |= o->ok;
			series_cut |= o->interrupted;
			if (o->stack_known && o->stack_bytes > stack) {
				stack = o->stack_bytes;
			}
		}
		n++;
		snprintf(l->c[0], HT_CELL, "%s", r->algorithm);
		snprintf(l->c[1], HT_CELL, "%s", r->implementation);
		snprintf(l->c[2], HT_CELL, "%s", r->operation);
		if (!series_ok) {
			/* Cut short by Ctrl-C is not a failure. */
			snprintf(l->c[c.head], HT_CELL, "%s",
				 series_cut ? "interrupted" : "FAILED");
			for (j = (size_t)c.head + 1; j < (size_t)c.n; j++) {
				snprintf(l->c[j], HT_CELL, "-");
			}
			continue;
		}
		cell_per_byte(l->c[c.head], HT_CELL, ra, h.head_model);
		if (h.head_model) {
			model_error_suffix(l->c[c.head], HT_CELL, run, ra);
		}
		if (c.head_l >= 0) {
			cell_per_byte(l->c[c.head_l], HT_CELL, rl,
				      h.head_model);
			if (h.head_model) {
				model_error_suffix(l->c[c.head_l], HT_CELL, run,
						   rl);
			}
		}
		if (c.instr >= 0) {
			cell_per_byte(l->c[c.instr], HT_CELL, ra, 0);
		}
		if (c.instr_l >= 0) {
			cell_per_byte(l->c[c.instr_l], HT_CELL, rl, 0);
		}
		if (z != NULL) {
			snprintf(l->c[c.flash], HT_CELL, "%.2f",
				 (double)(z->text + z->rodata + z->data) /
					 1024.0);
			snprintf(l->c[c.ram], HT_CELL, "%lu",
				 z->data + z->bss + stack);
		} else {
			snprintf(l->c[c.flash], HT_CELL, "-");
			snprintf(l->c[c.ram], HT_CELL, "%u+?", (unsigned)stack);
		}
		ht_energy(&h, &c, ra, l);
		if (c.spread >= 0) {
			if (ra != NULL && ra->ok && ra->stats.median > 0) {
				snprintf(l->c[c.spread], HT_CELL, "%.1f%%",
					 100.0 * ra->stats.stddev /
						 ra->stats.median);
			} else {
				snprintf(l->c[c.spread], HT_CELL, "-");
			}
		}
		snprintf(l->c[c.mode], HT_CELL, "%s%s", r->mode ? r->mode : "",
			 r->constant_time == 0 ? " *" : "");
		any_ct0 |= r->constant_time == 0;
	}
	for (i = 0; i < n; i++) {
		for (j = 0; j < (size_t)c.n; j++) {
			int len = (int)strlen(lines[i].c[j]);

			w[j] = len > w[j] ? len : w[j];
		}
	}
	{
		int total = 0;

		for (j = 0; j < (size_t)c.n; j++) {
			total += w[j] + (j ? 2 : 0);
		}
		if (width > 0 && total > (int)width) {
			/* Too wide for the terminal: the names with the
			 * cycles, flash and RAM, then the names with the
			 * energy and the rest; each line fits on its own. */
			ht_print(lines, n, w, &c, c.head, c.ram, out);
			ht_print(lines, n, w, &c, c.energy, c.n - 1, out);
		} else {
			ht_print(lines, n, w, &c, c.head, c.n - 1, out);
		}
	}
	free(lines);
	if (h.head_model) {
		size_t k;

		fprintf(out,
			"est. cycles/B = the Cortex-M4 cycle model's estimate, not a measurement.\n");
		for (k = 0; k < run->n_rows; k++) {
			if (run->rows[k].ok && run->rows[k].model.ok &&
			    hil_model_error_pct(run, &run->rows[k], NULL) >=
				    0) {
				fprintf(out,
					"± N %% = its expected error, for assembly or C as the implementation is (leave-one-finalist-out on the profile's training set; docs/cycle-model.md).\n");
				break;
			}
		}
	}
	if (!h.head_model || c.instr >= 0) {
		fprintf(out, "%s = %s per byte%s",
			unit_short(run->info.counter_unit),
			hil_unit_name(run->info.counter_unit),
			emulated ? ", by QEMU, not a board's cycles" : "");
		fputs(".\n", out);
		if (emulated && !h.have_spread) {
			fprintf(out,
				"Exact (emulated): every run gives the same count.\n");
		}
	} else if (emulated) {
		fprintf(out,
			"Exact (emulated): every run gives the same count; -v adds instr/B.\n");
	}
	/* Every line of the notes fits 80 columns. */
	fprintf(out,
		"flash KiB = own code, constants and initialised data (1 KiB = 1024 B);\n"
		"RAM B = its static data + peak stack.\n");
	if (h.have_energy) {
		fprintf(out, "uJ/op = %s.\n",
			h.energy_model
				? "from the simulated sensor: a model, not a measurement"
				: "energy of one operation, measured with the sensor");
	}
	if (h.have_est) {
		fprintf(out,
			"uJ/op (est.) = a datasheet estimate, not measured (docs/method.md):\n");
		ht_est_note(run, out);
	} else if (h.have_beside) {
		fprintf(out,
			"est. uJ/op = the datasheet estimate beside it, never judged against it:\n");
		ht_est_note(run, out);
	} else if (!h.have_energy && run->energy_est.applies &&
		   run->energy_est.why[0] != '\0') {
		fprintf(out, "uJ/op (est.): no estimate (%s).\n",
			run->energy_est.why);
	} else if (!h.have_energy) {
		const char *why = run->sensor.why[0] ? run->sensor.why
						     : "no sensor configured";

		/* The report's reason may say "not measured" itself. */
		if (strncmp(why, "not measured: ", 14) == 0) {
			why += 14;
		}
		fprintf(out, "energy: not measured (%s).\n", why);
	}
	if (any_ct0) {
		fprintf(out,
			"* not constant-time (the implementation says so).\n");
	}
	if (h.failed > 0) {
		fprintf(out,
			"%zu row%s failed: hilrun --detail or report.json says why.\n",
			h.failed, h.failed == 1 ? "" : "s");
	}
}

void hil_report_print_table(const struct hil_run *run,
			    const struct hil_table_opts *o, FILE *out)
{
	size_t i;
	const uint32_t at = o != NULL && o->at_len > 0 ? o->at_len : 64;

	print_caption(run, out);
	if (o == NULL || !o->detail) {
		print_headline(run, at, 0, o != NULL ? o->width : 0, out);
		return;
	}
	fprintf(out, "%-17s %-5s %-8s %6s %5s %12s %10s %9s %10s %10s %6s %s\n",
		"algorithm", "impl", "op", "msg", "ad", "median", "per byte",
		"stddev", "min", "max", "stack", "check");
	for (i = 0; i < run->n_rows; i++) {
		const struct hil_row *r = &run->rows[i];
		char stack[16] = "-";
		char per_byte[24];

		if (r->stack_known) {
			snprintf(stack, sizeof(stack), "%u",
				 (unsigned)r->stack_bytes);
		}
		if (r->stats.n == 0) {
			fprintf(out, "%-17s %-5s %-8s %6u %5u %12s  %s: %s\n",
				r->algorithm, r->implementation, r->operation,
				(unsigned)r->msg_len, (unsigned)r->ad_len, "-",
				r->interrupted	 ? "INTERRUPTED"
				: r->link_failed ? "LINK FAILED"
						 : "FAILED",
				r->error);
			continue;
		}
		if (r->msg_len > 0) {
			snprintf(per_byte, sizeof(per_byte), "%.2f",
				 r->stats.median / r->msg_len);
		} else {
			snprintf(per_byte, sizeof(per_byte), "-");
		}
		fprintf(out,
			"%-17s %-5s %-8s %6u %5u %12.0f %10s %9.1f %10.0f %10.0f %6s %s\n",
			r->algorithm, r->implementation, r->operation,
			(unsigned)r->msg_len, (unsigned)r->ad_len,
			r->stats.median, per_byte, r->stats.stddev,
			r->stats.min, r->stats.max, stack,
			r->ok ? "ok" : "FAILED");
	}
	fprintf(out,
		"(median and per byte in %s; overhead of the timing itself subtracted)\n",
		hil_unit_name(run->info.counter_unit));
	print_headline(run, at, 1, o->width, out);
}
