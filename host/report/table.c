/* table: the results table printed at the end of a run. */
#include "report.h"

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

void hil_report_print_table(const struct hil_run *run, FILE *out)
{
	size_t i;

	print_caption(run, out);
	fprintf(out, "%-16s %-6s %-8s %6s %5s %12s %10s %9s %10s %10s %6s %s\n",
		"algorithm", "impl", "op", "msg", "ad", "median", "per byte",
		"stddev", "min", "max", "stack", "check");
	for (i = 0; i < run->n_rows; i++) {
		const struct hil_row *r = &run->rows[i];
		char stack[16] = "-";

		if (r->stack_known) {
			snprintf(stack, sizeof(stack), "%u",
				 (unsigned)r->stack_bytes);
		}
		if (r->stats.n == 0) {
			fprintf(out, "%-16s %-6s %-8s %6u %5u %12s  FAILED: %s\n",
				r->algorithm, r->implementation, r->operation,
				(unsigned)r->msg_len, (unsigned)r->ad_len, "-",
				r->error);
			continue;
		}
		fprintf(out,
			"%-16s %-6s %-8s %6u %5u %12.0f %10.2f %9.1f %10.0f %10.0f %6s %s\n",
			r->algorithm, r->implementation, r->operation,
			(unsigned)r->msg_len, (unsigned)r->ad_len,
			r->stats.median,
			r->msg_len ? r->stats.median / r->msg_len : 0.0,
			r->stats.stddev, r->stats.min, r->stats.max, stack,
			r->ok ? "ok" : "FAILED");
	}
	fprintf(out, "(median and per byte in %s; overhead of the timing itself subtracted)\n",
		hil_unit_name(run->info.counter_unit));
}
