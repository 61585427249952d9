/* table: what a run prints on stdout: the headline table (the four numbers people came for) and, on request, every row. */
#include "report.h"

#include <stdlib.h>

#include <stdio.h>
#include <string.h>

#include "report/modelerr.h"

static void print_caption(const struct hil_run *run, FILE *out)
{
	const struct hil_config *cfg = run->cfg;
	size_t i;

	fprintf(out, "\nhilrun %s: board %s%s, unit: %s, flags:", cfg->name,
		cfg->board.name,
		(run->info.flags & HILP_INFO_EMULATED) ? " (emulated)" : "",
		hil_unit_name(run->info.counter_unit));
	for (i = 0; i < cfg->build.n_cflags; i++) {
		fprintf(out, " %s", cfg->build.cflags[i]);
	}
	fprintf(out, ", runs %u (+%u warm-up), ", (unsigned)cfg->bench.runs,
		(unsigned)cfg->bench.warmup);
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

#define HT_COLS 12
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

static void print_headline(const struct hil_run *run, uint32_t want, FILE *out)
{
	const int emulated = (run->info.flags & HILP_INFO_EMULATED) != 0;
	uint32_t at = headline_len(run, want), longest = 0;
	int have_model = 0, have_energy = 0, have_spread = 0, any_ct0 = 0;
	int energy_model = 0, have_est = 0;
	const int est_applies = run->energy_est.applies;
	size_t i, j, n = 0, failed = 0;
	struct ht_line *lines;
	int col_model, col_flash, col_energy, col_spread, col_mode, ncols;
	int w[HT_COLS] = {0};
	int two = 0;

	for (i = 0; i < run->n_rows; i++) {
		const struct hil_row *r = &run->rows[i];

		if (r->msg_len > longest) {
			longest = r->msg_len;
		}
		have_model |= r->ok && r->model.ok;
		have_energy |= r->energy.state == HIL_ENERGY_OK;
		energy_model |=
			r->energy.state == HIL_ENERGY_OK && r->energy.model;
		have_est |= r->energy.state == HIL_ENERGY_NONE && r->est.ok;
		have_spread |= r->ok && r->stats.stddev > 0;
		failed += !r->ok;
	}
	two = longest != at;
	lines = calloc(run->n_rows + 1, sizeof(*lines));
	if (lines == NULL) {
		fprintf(out, "(no memory for the headline table)\n");
		return;
	}
	/* Columns: 0 alg, 1 impl, 2 op, 3 @at, 4 @longest, then the model's
	 * two, flash, RAM, energy, spread, mode, as they carry anything. */
	col_model = 3 + 1 + two;
	col_flash = col_model + (have_model ? 1 + two : 0);
	col_energy = col_flash + 2;
	/* Energy always has its column: measured, simulated or estimated
	 * from the datasheet, or "-" with the reason below the table. */
	col_spread = col_energy + 1;
	col_mode = col_spread + (have_spread ? 1 : 0);
	ncols = col_mode + 1;
	snprintf(lines[0].c[0], HT_CELL, "algorithm");
	snprintf(lines[0].c[1], HT_CELL, "impl");
	snprintf(lines[0].c[2], HT_CELL, "op");
	snprintf(lines[0].c[3], HT_CELL, "%s @%u",
		 unit_short(run->info.counter_unit), (unsigned)at);
	if (two) {
		snprintf(lines[0].c[4], HT_CELL, "@%u", (unsigned)longest);
	}
	if (have_model) {
		snprintf(lines[0].c[col_model], HT_CELL, "est. cycles/B @%u",
			 (unsigned)at);
		if (two) {
			snprintf(lines[0].c[col_model + 1], HT_CELL, "@%u",
				 (unsigned)longest);
		}
	}
	snprintf(lines[0].c[col_flash], HT_CELL, "flash KB");
	snprintf(lines[0].c[col_flash + 1], HT_CELL, "RAM B");
	snprintf(lines[0].c[col_energy], HT_CELL, "uJ/op @%u%s", (unsigned)at,
		 have_energy   ? (energy_model ? " (sim)" : "")
		 : est_applies ? " (est.)"
			       : "");
	if (have_spread) {
		snprintf(lines[0].c[col_spread], HT_CELL, "spread @%u",
			 (unsigned)at);
	}
	snprintf(lines[0].c[col_mode], HT_CELL, "mode");
	n = 1;
	for (i = 0; i < run->n_rows; i++) {
		const struct hil_row *r = &run->rows[i];
		const struct hil_impl_size *z = impl_size(run, r);
		const int ks = strcmp(r->operation, "keysetup") == 0;
		const struct hil_row *ra = row_at(run, r, ks ? r->msg_len : at);
		const struct hil_row *rl = row_at(run, r, longest);
		struct ht_line *l = &lines[n];
		uint32_t stack = 0;
		int first = 1, series_ok = 0;

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
			if (o->stack_known && o->stack_bytes > stack) {
				stack = o->stack_bytes;
			}
		}
		n++;
		snprintf(l->c[0], HT_CELL, "%s", r->algorithm);
		snprintf(l->c[1], HT_CELL, "%s", r->implementation);
		snprintf(l->c[2], HT_CELL, "%s", r->operation);
		if (!series_ok) {
			snprintf(l->c[3], HT_CELL, "FAILED");
			for (j = 4; j < (size_t)ncols; j++) {
				snprintf(l->c[j], HT_CELL, "-");
			}
			continue;
		}
		cell_per_byte(l->c[3], HT_CELL, ra, 0);
		if (two) {
			cell_per_byte(l->c[4], HT_CELL, ks ? NULL : rl, 0);
		}
		if (have_model) {
			cell_per_byte(l->c[col_model], HT_CELL, ra, 1);
			model_error_suffix(l->c[col_model], HT_CELL, run, ra);
			if (two) {
				cell_per_byte(l->c[col_model + 1], HT_CELL,
					      ks ? NULL : rl, 1);
				model_error_suffix(l->c[col_model + 1], HT_CELL,
						   run, ks ? NULL : rl);
			}
		}
		if (z != NULL) {
			snprintf(l->c[col_flash], HT_CELL, "%.2f",
				 (double)(z->text + z->rodata + z->data) /
					 1024.0);
			snprintf(l->c[col_flash + 1], HT_CELL, "%lu",
				 z->data + z->bss + stack);
		} else {
			snprintf(l->c[col_flash], HT_CELL, "-");
			snprintf(l->c[col_flash + 1], HT_CELL, "%u+?",
				 (unsigned)stack);
		}
		if (ra != NULL && ra->energy.state == HIL_ENERGY_OK) {
			snprintf(l->c[col_energy], HT_CELL, "%.3g",
				 ra->energy.uj_per_op);
		} else if (!have_energy && ra != NULL && ra->est.ok) {
			snprintf(l->c[col_energy], HT_CELL, "%.3g",
				 ra->est.uj_per_op);
		} else {
			snprintf(l->c[col_energy], HT_CELL, "-");
		}
		if (have_spread) {
			if (ra != NULL && ra->ok && ra->stats.median > 0) {
				snprintf(l->c[col_spread], HT_CELL, "%.1f%%",
					 100.0 * ra->stats.stddev /
						 ra->stats.median);
			} else {
				snprintf(l->c[col_spread], HT_CELL, "-");
			}
		}
		snprintf(l->c[col_mode], HT_CELL, "%s%s",
			 r->mode ? r->mode : "",
			 r->constant_time == 0 ? " *" : "");
		any_ct0 |= r->constant_time == 0;
	}
	for (i = 0; i < n; i++) {
		for (j = 0; j < (size_t)ncols; j++) {
			int len = (int)strlen(lines[i].c[j]);

			w[j] = len > w[j] ? len : w[j];
		}
	}
	fputc('\n', out);
	for (i = 0; i < n; i++) {
		for (j = 0; j < (size_t)ncols; j++) {
			/* Names left, figures right, the mode last. */
			int left = j < 3 || (int)j == col_mode;

			if ((int)j == ncols - 1) {
				/* No trailing blanks after the last column. */
				fprintf(out, "  %s", lines[i].c[j]);
			} else {
				fprintf(out, "%s%*s", j ? "  " : "",
					left ? -w[j] : w[j], lines[i].c[j]);
			}
		}
		fputc('\n', out);
	}
	free(lines);
	fprintf(out, "%s = %s per byte%s", unit_short(run->info.counter_unit),
		hil_unit_name(run->info.counter_unit),
		emulated ? ", counted by QEMU, not a board's cycles" : "");
	if (emulated && !have_spread) {
		fprintf(out,
			"; exact (emulated): every run gives the same count");
	}
	fputs(".\n", out);
	if (have_model) {
		fprintf(out,
			"est. cycles/B = %s: an estimate, not a measurement.\n",
			run->model.unit[0] ? run->model.unit
					   : "the Cortex-M4 cycle model");
	}
	fprintf(out,
		"flash = the implementation's own code, constants and initialised data; RAM = its static data + peak stack.\n");
	if (have_energy) {
		fprintf(out, "uJ/op = energy of one operation, %s.\n",
			energy_model
				? "from the simulated sensor: a model, not a measurement"
				: "measured with the sensor");
	} else if (have_est) {
		fprintf(out,
			"uJ/op (est.) = energy estimated from the datasheet's run current, not measured: see docs/method.md.\n");
	} else if (est_applies && run->energy_est.why[0] != '\0') {
		fprintf(out, "uJ/op (est.): no estimate (%s).\n",
			run->energy_est.why);
	} else {
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
	if (failed > 0) {
		fprintf(out,
			"%zu row%s failed: hilrun --detail or report.json says why.\n",
			failed, failed == 1 ? "" : "s");
	}
}

void hil_report_print_table(const struct hil_run *run,
			    const struct hil_table_opts *o, FILE *out)
{
	size_t i;
	const uint32_t at = o != NULL && o->at_len > 0 ? o->at_len : 64;

	print_caption(run, out);
	if (o == NULL || !o->detail) {
		print_headline(run, at, out);
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
				r->interrupted ? "INTERRUPTED" : "FAILED",
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
	print_headline(run, at, out);
}
