/* energyest: energy per operation estimated from a datasheet's run current, the clock and a row's cycles, when no sensor measured it. */
#include "energyest.h"

#include <stdio.h>
#include <string.h>

#include "drivers/board/board.h"
#include "util/err.h"
#include "hilp.h"
#include "run.h"

const struct hil_idd_table *hil_energyest_table(const char *board)
{
	const struct hil_board_driver *b = hil_board_find(board);

	return b != NULL ? b->run_current : NULL;
}

int hil_energyest_idd(const struct hil_idd_table *t, uint32_t hz, double *ma,
		      char *why, size_t whylen)
{
	size_t i;

	if (t == NULL || t->n == 0 || t->pts == NULL) {
		if (why != NULL && whylen > 0) {
			snprintf(
				why, whylen, "%s",
				t != NULL && t->missing != NULL
					? t->missing
					: "no datasheet run current for this board");
		}
		return HIL_ERR_NA;
	}
	if (hz < t->pts[0].hz || hz > t->pts[t->n - 1].hz) {
		if (why != NULL && whylen > 0) {
			snprintf(
				why, whylen,
				"the clock (%g MHz) is outside the datasheet's table (%g to %g MHz): not extrapolated",
				hz / 1e6, t->pts[0].hz / 1e6,
				t->pts[t->n - 1].hz / 1e6);
		}
		return HIL_ERR_NA;
	}
	for (i = 0; i < t->n; i++) {
		if (t->pts[i].hz == hz) {
			*ma = t->pts[i].ma;
			return HIL_OK;
		}
		if (i + 1 < t->n && hz < t->pts[i + 1].hz) {
			const struct hil_idd_point *a = &t->pts[i];
			const struct hil_idd_point *b = &t->pts[i + 1];

			*ma = a->ma + (b->ma - a->ma) * (double)(hz - a->hz) /
					      (double)(b->hz - a->hz);
			return HIL_OK;
		}
	}
	if (why != NULL && whylen > 0) {
		snprintf(why, whylen,
			 "the datasheet table is not in ascending clock order");
	}
	return HIL_ERR_NA;
}

int hil_energyest_compute(const struct hil_idd_table *t, uint32_t clock_hz,
			  double cycles, struct hil_energy_est *out)
{
	double ma = 0;

	memset(out, 0, sizeof(*out));
	out->clock_hz = clock_hz;
	out->cycles = cycles;
	if (clock_hz == 0) {
		snprintf(out->why, sizeof(out->why),
			 "the clock is unknown: no time per operation");
		return HIL_ERR_NA;
	}
	if (!(cycles > 0)) {
		snprintf(out->why, sizeof(out->why),
			 "no cycles per operation for this row");
		return HIL_ERR_NA;
	}
	if (hil_energyest_idd(t, clock_hz, &ma, out->why, sizeof(out->why)) !=
	    HIL_OK) {
		return HIL_ERR_NA;
	}
	out->vdd = t->vdd;
	out->idd_ma = ma;
	out->op_seconds = cycles / (double)clock_hz;
	/* V x mA x s = mJ; x 1000 = uJ. */
	out->uj_per_op = t->vdd * ma * out->op_seconds * 1000.0;
	out->ok = 1;
	return HIL_OK;
}

void hil_energyest_apply(struct hil_run *run)
{
	hil_energyest_apply_table(
		run, hil_energyest_table(run->cfg != NULL ? run->cfg->board.name
							  : NULL));
}

void hil_energyest_apply_table(struct hil_run *run,
			       const struct hil_idd_table *t)
{
	const struct hil_config *cfg = run->cfg;
	const int emulated = (run->info.flags & HILP_INFO_EMULATED) != 0;
	const int dwt = !emulated && run->info.counter_unit == HILP_UNIT_CYCLES;
	const char *board = cfg != NULL ? cfg->board.name : "";
	uint32_t hz;
	size_t i;

	memset(&run->energy_est, 0, sizeof(run->energy_est));
	for (i = 0; i < run->n_rows; i++) {
		memset(&run->rows[i].est, 0, sizeof(run->rows[i].est));
	}
	if (run->sensor.type[0] != '\0' &&
	    strcmp(run->sensor.type, "none") != 0) {
		return; /* a sensor was asked for: its figures or its errors */
	}
	run->energy_est.applies = 1;
	/* The stub reports the clock it set; QEMU's reports 0, and the model
	 * then stands in for the configured one. */
	hz = !emulated && run->info.clock_hz != 0
		     ? run->info.clock_hz
		     : (cfg != NULL ? cfg->board.clock_hz : 0);
	if (t == NULL) {
		snprintf(run->energy_est.why, sizeof(run->energy_est.why),
			 "no datasheet run current for board %s",
			 board[0] ? board : "(unknown)");
	} else {
		snprintf(run->energy_est.source, sizeof(run->energy_est.source),
			 "%s", t->source);
		snprintf(
			run->energy_est.assumptions,
			sizeof(run->energy_est.assumptions),
			"V_DD %.1f V; typical I_DD at %.0f MHz, linear in frequency between the datasheet's points; %s; time of one operation = %s / clock%s",
			t->vdd, hz / 1e6, t->conditions,
			dwt ? "its DWT cycles"
			    : "the cycle model's estimated cycles",
			emulated
				? " (the emulated board taken as an STM32F401 at board.clock_hz)"
				: "");
	}
	for (i = 0; i < run->n_rows; i++) {
		struct hil_row *r = &run->rows[i];
		struct hil_energy_est *e = &r->est;
		double cycles = 0;

		if (r->energy.state != HIL_ENERGY_NONE) {
			continue;
		}
		if (t == NULL) {
			snprintf(e->why, sizeof(e->why), "%s",
				 run->energy_est.why);
			continue;
		}
		if (!r->ok) {
			snprintf(e->why, sizeof(e->why),
				 "the row was not measured");
			continue;
		}
		if (dwt) {
			cycles = r->stats.median;
		} else if (r->model.ok) {
			cycles = r->model.stats.median;
		} else {
			snprintf(
				e->why, sizeof(e->why),
				"no cycle estimate for this row: %s",
				run->model.enabled
					? "the cycle model's records did not match it"
				: run->model.why[0]
					? run->model.why
					: "the cycle model was not loaded");
			continue;
		}
		hil_energyest_compute(t, hz, cycles, e);
	}
	for (i = 0; i < run->n_rows && run->energy_est.why[0] == '\0'; i++) {
		if (run->rows[i].est.ok) {
			return;
		}
	}
	if (run->energy_est.why[0] == '\0') {
		/* No row got a figure: the first row's reason is the run's. */
		snprintf(run->energy_est.why, sizeof(run->energy_est.why), "%s",
			 run->n_rows > 0 ? run->rows[0].est.why
					 : "no rows were measured");
	}
}
