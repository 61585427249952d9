/* report: the end-of-run terminal table, and (result/reportjson.h) the report JSON's writers. */
#ifndef HIL_REPORT_H
#define HIL_REPORT_H

#include <stdio.h>

#include "result/reportjson.h"
#include "result/run.h"

/* What the end-of-run table shows. */
struct hil_table_opts {
	uint32_t at_len; /* the headline length (default 64 B) */
	int detail;	 /* also every row: median, spread, stack (-v) */
	/* The terminal's width in columns; 0: unknown (a file or a pipe).
	 * A headline table wider than it is printed in two blocks: the
	 * cycles, flash and RAM, then the energy and the rest. */
	unsigned width;
};

/**
 * Print the headline table (one line per algorithm, implementation and
 * operation: per byte at o->at_len and at the longest length, the cycle
 * model's estimate when it ran, flash, RAM = static + stack, energy when
 * measured) to out; with o->detail, every row before it. o may be NULL.
 */
void hil_report_print_table(const struct hil_run *run,
			    const struct hil_table_opts *o, FILE *out);

#endif /* HIL_REPORT_H */
