/* energyest: energy per operation estimated from a datasheet's run current (the table of the run's flash configuration), the clock and a row's cycles: the energy without a sensor, a check beside it with one. */
#include "energyest.h"

#include <stdio.h>
#include <string.h>

#include "drivers/board/board.h"
#include "drivers/board/memsys.h"
#include "util/err.h"
#include "hilp.h"
#include "result/run.h"

const struct hil_idd_table *
hil_energyest_pick(const struct hil_idd_table *const *tables,
		   const struct hil_idd_want *w, char *why, size_t whylen)
{
	size_t i;

	for (i = 0; tables != NULL && tables[i] != NULL; i++) {
		const struct hil_idd_table *t = tables[i];

		if (t->sram || t->vdd != w->vdd) {
			continue;
		}
		if ((t->art == HIL_IDD_ANY || t->art == w->art) &&
		    (t->prefetch == HIL_IDD_ANY ||
		     t->prefetch == w->prefetch)) {
			return t;
		}
	}
	if (why != NULL && whylen > 0) {
		snprintf(
			why, whylen,
			"no datasheet run-current table for code from flash at V_DD %.1f V with the accelerator %s and prefetch %s",
			w->vdd, w->art ? "on" : "off",
			w->prefetch ? "on" : "off");
	}
	return NULL;
}

const struct hil_idd_table *hil_energyest_table(const char *board)
{
	const struct hil_board_driver *b = hil_board_find(board);
	struct hil_idd_want w;

	if (b == NULL || b->run_current == NULL || b->clocks == NULL) {
		return NULL;
	}
	w.vdd = b->supply_v;
	w.art = b->clocks[0].cache;
	w.prefetch = b->clocks[0].prefetch;
	return hil_energyest_pick(b->run_current, &w, NULL, 0);
}

void hil_energyest_want(const struct hil_run *run, struct hil_idd_want *w)
{
	const struct hil_config *cfg = run->cfg;
	const struct hil_board_driver *b =
		hil_board_find(cfg != NULL ? cfg->board.name : NULL);
	const int emulated = (run->info.flags & HILP_INFO_EMULATED) != 0;
	const struct hil_clock_profile *c = NULL;

	memset(w, 0, sizeof(*w));
	w->vdd = b != NULL ? b->supply_v : 0;
	if (!emulated && b != NULL && b->flash_state != NULL &&
	    run->info.clock_hz != 0) {
		/* What the stub set, read back from its FLASH_ACR. */
		struct hil_flash_state fs;

		b->flash_state(run->info.flash_acr, &fs);
		w->art = fs.icache > 0 || fs.dcache > 0;
		w->prefetch = fs.prefetch > 0;
		return;
	}
	if (emulated && run->model.enabled) {
		/* The memory system the cycles were estimated for. */
		const struct cm4_memsys *p =
			cm4_memsys_find(run->model.profile);

		if (p != NULL) {
			w->art = run->model.art &&
				 (p->icache.lines > 0 || p->dcache.lines > 0);
			w->prefetch = run->model.art && p->prefetch;
			return;
		}
	}
	if (cfg != NULL) {
		c = hil_board_clock_flash(b, cfg->board.clock_hz,
					  cfg->board.prefetch);
	}
	if (c != NULL) {
		w->art = c->cache;
		w->prefetch = c->prefetch;
	}
}

static double point_col(const struct hil_idd_point *p, enum hil_idd_col col)
{
	return col == HIL_IDD_ON_MAX25 ? p->on_max25 : p->ma;
}

int hil_energyest_idd(const struct hil_idd_table *t, uint32_t hz, double *ma,
		      char *why, size_t whylen)
{
	return hil_energyest_idd_col(t, hz, HIL_IDD_TYP, ma, why, whylen);
}

int hil_energyest_idd_col(const struct hil_idd_table *t, uint32_t hz,
			  enum hil_idd_col col, double *ma, char *why,
			  size_t whylen)
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
			*ma = point_col(&t->pts[i], col);
			return HIL_OK;
		}
		if (i + 1 < t->n && hz < t->pts[i + 1].hz) {
			const double a = point_col(&t->pts[i], col);
			const double b = point_col(&t->pts[i + 1], col);

			*ma = a +
			      (b - a) * (double)(hz - t->pts[i].hz) /
				      (double)(t->pts[i + 1].hz - t->pts[i].hz);
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
	double ma = 0, hi = 0;

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
	/* The datasheet gives no minimum: typical with every peripheral off
	 * is the low end; the maximum at 25 C with all of them on the high
	 * one (a table without that column: no spread known). */
	if (hil_energyest_idd_col(t, clock_hz, HIL_IDD_ON_MAX25, &hi, NULL,
				  0) != HIL_OK ||
	    hi < ma) {
		hi = ma;
	}
	out->idd_lo_ma = ma;
	out->idd_hi_ma = hi;
	out->uj_lo = out->uj_per_op;
	out->uj_hi = t->vdd * hi * out->op_seconds * 1000.0;
	out->ok = 1;
	return HIL_OK;
}

void hil_energyest_apply(struct hil_run *run)
{
	const struct hil_board_driver *b =
		hil_board_find(run->cfg != NULL ? run->cfg->board.name : NULL);
	struct hil_idd_want w;
	const struct hil_idd_table *t = NULL;
	char why[256] = "";

	hil_energyest_want(run, &w);
	if (b != NULL && b->run_current != NULL) {
		t = hil_energyest_pick(b->run_current, &w, why, sizeof(why));
	} else if (b != NULL && b->run_current_missing != NULL) {
		snprintf(why, sizeof(why), "%s", b->run_current_missing);
	}
	hil_energyest_apply_why(run, t, why);
}

void hil_energyest_apply_table(struct hil_run *run,
			       const struct hil_idd_table *t)
{
	hil_energyest_apply_why(run, t, NULL);
}

void hil_energyest_apply_why(struct hil_run *run, const struct hil_idd_table *t,
			     const char *none)
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
	/* Without a sensor the estimate fills the energy column; with one it
	 * stands beside the sensor's figure (never in its place). */
	if (run->sensor.type[0] != '\0' &&
	    strcmp(run->sensor.type, "none") != 0) {
		run->energy_est.beside = 1;
	} else {
		run->energy_est.applies = 1;
	}
	/* The stub reports the clock it set; QEMU's reports 0, and the model
	 * then stands in for the configured one. */
	hz = !emulated && run->info.clock_hz != 0
		     ? run->info.clock_hz
		     : (cfg != NULL ? cfg->board.clock_hz : 0);
	if (t == NULL) {
		if (none != NULL && none[0] != '\0') {
			snprintf(run->energy_est.why,
				 sizeof(run->energy_est.why), "%s", none);
		} else {
			snprintf(run->energy_est.why,
				 sizeof(run->energy_est.why),
				 "no datasheet run current for board %s",
				 board[0] ? board : "(unknown)");
		}
	} else {
		snprintf(run->energy_est.source, sizeof(run->energy_est.source),
			 "%s", t->source);
		snprintf(run->energy_est.table, sizeof(run->energy_est.table),
			 "%s", t->table != NULL ? t->table : t->source);
		snprintf(
			run->energy_est.assumptions,
			sizeof(run->energy_est.assumptions),
			"V_DD %.1f V; typical I_DD at %.0f MHz with all peripherals disabled%s; range: that to the maximum at 25 C with all peripherals enabled; %s; time of one operation = %s / clock%s",
			t->vdd, hz / 1e6,
			hil_energyest_tabulated(t, hz)
				? ""
				: ", linear in frequency between the table's two nearest clocks",
			t->conditions,
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

int hil_energyest_tabulated(const struct hil_idd_table *t, uint32_t hz)
{
	size_t i;

	for (i = 0; t != NULL && i < t->n; i++) {
		if (t->pts[i].hz == hz) {
			return 1;
		}
	}
	return 0;
}
