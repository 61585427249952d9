/* run: the measured rows of a run and their units. */
#include "run.h"

#include <stdlib.h>
#include <string.h>

const char *hil_unit_name(uint8_t unit)
{
	switch (unit) {
	case HILP_UNIT_CYCLES:
		return "cycles";
	case HILP_UNIT_INSTRUCTIONS_EMU:
		return "instructions (emulated)";
	case HILP_UNIT_NS_HOST:
		return "ns (host)";
	default:
		return "unknown";
	}
}

struct hil_row *hil_run_add_row(struct hil_run *run)
{
	struct hil_row *row;

	if (run->n_rows == run->cap_rows) {
		size_t cap = run->cap_rows ? run->cap_rows * 2 : 16;
		struct hil_row *r = realloc(run->rows, cap * sizeof(*r));

		if (r == NULL) {
			return NULL;
		}
		run->rows = r;
		run->cap_rows = cap;
	}
	row = &run->rows[run->n_rows++];
	memset(row, 0, sizeof(*row));
	return row;
}

void hil_run_free(struct hil_run *run)
{
	size_t i;

	for (i = 0; i < run->n_rows; i++) {
		free(run->rows[i].samples);
	}
	free(run->rows);
	run->rows = NULL;
	run->n_rows = 0;
	run->cap_rows = 0;
}
