/* table: the results table printed at the end of a run. */
#include "report.h"

#include <string.h>

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
	fprintf(out, ", runs %u (+%u warm-up), image %lu B flash / %lu B RAM\n",
		(unsigned)cfg->bench.runs, (unsigned)cfg->bench.warmup,
		run->sizes.flash, run->sizes.ram_static);
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

/* Median per byte of the row at msg_len, or -1 when there is none. */
static double per_byte_at(const struct hil_run *run, const struct hil_row *r,
			  uint32_t len)
{
	size_t i;

	for (i = 0; i < run->n_rows; i++) {
		const struct hil_row *o = &run->rows[i];

		if (o->ok && o->msg_len == len && o->ad_len == r->ad_len &&
		    strcmp(o->algorithm, r->algorithm) == 0 &&
		    strcmp(o->implementation, r->implementation) == 0 &&
		    strcmp(o->operation, r->operation) == 0) {
			return len ? o->stats.median / len : -1;
		}
	}
	return -1;
}

/* The fixed cost of a series: the fit's intercept, or a key setup's median. */
static double fixed_cost(const struct hil_run *run, const struct hil_row *r)
{
	size_t i;

	if (strcmp(r->operation, "keysetup") == 0) {
		return r->ok ? r->stats.median : -1;
	}
	for (i = 0; i < run->n_fits; i++) {
		const struct hil_fit *f = &run->fits[i];

		if (strcmp(f->algorithm, r->algorithm) == 0 &&
		    strcmp(f->implementation, r->implementation) == 0 &&
		    strcmp(f->operation, r->operation) == 0 &&
		    f->ad_len == r->ad_len) {
			return f->fixed;
		}
	}
	return -1;
}

/*
 * One line per (algorithm, implementation, operation): the figures people
 * compare. Per byte at 64 bytes and at the longest length measured.
 */
static void print_summary(const struct hil_run *run, FILE *out)
{
	uint32_t longest = 0;
	size_t i, j;

	for (i = 0; i < run->n_rows; i++) {
		if (run->rows[i].msg_len > longest) {
			longest = run->rows[i].msg_len;
		}
	}
	fprintf(out,
		"\nsummary (%s per byte; flash and RAM of the implementation's own code and data)\n",
		hil_unit_name(run->info.counter_unit));
	fprintf(out, "%-17s %-5s %-8s %9s %9s %9s %8s %6s %6s %s\n",
		"algorithm", "impl", "op", "@64 B", "@longest", "fixed",
		"flash B", "RAM B", "stack", "mode");
	for (i = 0; i < run->n_rows; i++) {
		const struct hil_row *r = &run->rows[i];
		const struct hil_impl_size *z = impl_size(run, r);
		uint32_t stack = 0;
		double at64 = per_byte_at(run, r, 64);
		double atl = per_byte_at(run, r, longest);
		double fixed = fixed_cost(run, r);
		char c64[16] = "-", cl[16] = "-", fl[16] = "-", ram[16] = "-";
		char fx[24] = "-";
		int first = 1;

		for (j = 0; j < i; j++) {
			const struct hil_row *o = &run->rows[j];

			if (strcmp(o->algorithm, r->algorithm) == 0 &&
			    strcmp(o->implementation, r->implementation) == 0 &&
			    strcmp(o->operation, r->operation) == 0) {
				first = 0;
			}
		}
		if (!first) {
			continue;
		}
		for (j = 0; j < run->n_rows; j++) {
			const struct hil_row *o = &run->rows[j];

			if (o->stack_known && o->stack_bytes > stack &&
			    strcmp(o->algorithm, r->algorithm) == 0 &&
			    strcmp(o->implementation, r->implementation) == 0 &&
			    strcmp(o->operation, r->operation) == 0) {
				stack = o->stack_bytes;
			}
		}
		if (at64 >= 0) {
			snprintf(c64, sizeof(c64), "%.2f", at64);
		}
		if (atl >= 0) {
			snprintf(cl, sizeof(cl), "%.2f", atl);
		}
		if (fixed >= 0) {
			snprintf(fx, sizeof(fx), "%.0f", fixed);
		}
		if (z != NULL) {
			snprintf(fl, sizeof(fl), "%lu",
				 z->text + z->rodata + z->data);
			snprintf(ram, sizeof(ram), "%lu", z->data + z->bss);
		}
		fprintf(out, "%-17s %-5s %-8s %9s %9s %9s %8s %6s %6u %s%s\n",
			r->algorithm, r->implementation, r->operation, c64, cl,
			fx, fl, ram, (unsigned)stack, r->mode ? r->mode : "",
			r->constant_time == 0 ? " (not constant-time)" : "");
	}
	fprintf(out,
		"(@longest = %u bytes; fixed = cost at length 0 from the least-squares fit, or the key setup itself)\n",
		(unsigned)longest);
}

void hil_report_print_table(const struct hil_run *run, FILE *out)
{
	size_t i;

	print_caption(run, out);
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
			fprintf(out,
				"%-17s %-5s %-8s %6u %5u %12s  FAILED: %s\n",
				r->algorithm, r->implementation, r->operation,
				(unsigned)r->msg_len, (unsigned)r->ad_len, "-",
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
	print_summary(run, out);
}
