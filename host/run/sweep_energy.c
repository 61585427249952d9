/* sweep_energy: sweep.md's energy table: per algorithm, each configuration's cycles and energy per operation side by side, and which costs fewer microjoules. */
#include "sweep_int.h"

#include <string.h>

#include "result/run.h"

/* The length the table compares at: 64 B if some row has it, else the
 * first run's longest message. */
static uint32_t energy_len(const struct hil_sweep *sw,
			   const struct hil_run *runs)
{
	uint32_t longest = 0;
	size_t r, i;

	for (r = 0; r < sw->n; r++) {
		for (i = 0; i < runs[r].n_rows; i++) {
			if (runs[r].rows[i].msg_len == 64) {
				return 64;
			}
			if (runs[r].rows[i].msg_len > longest) {
				longest = runs[r].rows[i].msg_len;
			}
		}
	}
	return longest;
}

/* A row's energy and what it is: 'm' measured (or the simulated sensor's),
 * 'e' the datasheet estimate, 0 none. */
static int row_energy(const struct hil_row *v, double *uj)
{
	if (v == NULL || !v->ok) {
		return 0;
	}
	if (v->energy.state == HIL_ENERGY_OK) {
		*uj = v->energy.uj_per_op;
		return 'm';
	}
	if (v->energy.state == HIL_ENERGY_NONE && v->est.ok) {
		*uj = v->est.uj_per_op;
		return 'e';
	}
	return 0;
}

/* The cycles per operation behind a row's figures: the model's estimate
 * or the board's DWT count; 0: none. */
static double row_cycles(const struct hil_run *run, const struct hil_row *v)
{
	if (v == NULL || !v->ok) {
		return 0;
	}
	if (v->model.ok) {
		return v->model.stats.median;
	}
	if ((run->info.flags & HILP_INFO_EMULATED) == 0 &&
	    run->info.counter_unit == HILP_UNIT_CYCLES) {
		return v->stats.median;
	}
	return 0;
}

static int has_energy(const struct hil_sweep *sw, const struct hil_run *runs)
{
	size_t r, i;
	double uj;

	for (r = 0; r < sw->n; r++) {
		for (i = 0; i < runs[r].n_rows; i++) {
			if (row_energy(&runs[r].rows[i], &uj) != 0) {
				return 1;
			}
		}
	}
	return 0;
}

/* Whether the estimates' datasheet ranges of a series overlap. */
static int ranges_overlap(const struct hil_sweep *sw,
			  const struct hil_run *runs, const struct hil_row *key)
{
	double lo_max = 0, hi_min = 0;
	size_t k;
	int n = 0;

	for (k = 0; k < sw->n; k++) {
		const struct hil_row *v = hil_run_find_row(&runs[k], key);

		if (v == NULL || !v->est.ok) {
			continue;
		}
		if (n == 0 || v->est.uj_lo > lo_max) {
			lo_max = v->est.uj_lo;
		}
		if (n == 0 || v->est.uj_hi < hi_min) {
			hi_min = v->est.uj_hi;
		}
		n++;
	}
	return n > 1 && hi_min >= lo_max;
}

/* The verdict cell of one series: the configuration with the fewest uJ,
 * when every configuration has a figure of the same kind. */
static void verdict(const struct hil_sweep *sw, const struct hil_run *runs,
		    const struct hil_row *key, FILE *out)
{
	size_t k, best = 0, n = 0;
	double uj, best_uj = 0, worst_uj = 0;
	int kind = 0, mixed = 0;

	for (k = 0; k < sw->n; k++) {
		int kd = row_energy(hil_run_find_row(&runs[k], key), &uj);

		if (kd == 0) {
			continue;
		}
		mixed |= kind != 0 && kd != kind;
		kind = kd;
		if (n == 0 || uj < best_uj) {
			best = k;
			best_uj = uj;
		}
		if (n == 0 || uj > worst_uj) {
			worst_uj = uj;
		}
		n++;
	}
	if (mixed) {
		/* An estimate is never judged against a measurement. */
		fprintf(out, " not compared (measured vs estimate) |");
	} else if (n < 2) {
		fprintf(out, " - |");
	} else if (worst_uj <= best_uj) {
		fprintf(out, " equal |");
	} else {
		fprintf(out, " %s, %.0f%% fewer%s |", sw->cfgs[best].name,
			100.0 * (worst_uj - best_uj) / worst_uj,
			kind == 'e' && ranges_overlap(sw, runs, key) ? " *"
								     : "");
	}
}

void hil_sweep_write_energy(const struct hil_sweep *sw,
			    const struct hil_run *runs, FILE *out)
{
	const uint32_t len = energy_len(sw, runs);
	size_t r, i, k;

	if (!has_energy(sw, runs)) {
		return;
	}
	fprintf(out,
		"## %s: cycles and energy per operation at %u B, one pair of columns per configuration\n\n",
		sw->name, (unsigned)len);
	fprintf(out, "| algorithm | impl | op |");
	for (r = 0; r < sw->n; r++) {
		fprintf(out, " cycles/op (%s) | uJ/op (%s) |", sw->cfgs[r].name,
			sw->cfgs[r].name);
	}
	fprintf(out, " fewer uJ/op |\n|---|---|---|");
	for (r = 0; r < sw->n; r++) {
		fprintf(out, "---:|---:|");
	}
	fprintf(out, "---|\n");
	for (r = 0; r < sw->n; r++) {
		for (i = 0; i < runs[r].n_rows; i++) {
			const struct hil_row *key = &runs[r].rows[i];
			size_t j;
			int dup = 0;

			if (key->msg_len != len) {
				continue;
			}
			/* Each series once, in first-seen order. */
			for (k = 0; k <= r && !dup; k++) {
				for (j = 0; j < (k == r ? i : runs[k].n_rows);
				     j++) {
					const struct hil_row *o =
						&runs[k].rows[j];

					if (o->msg_len == len &&
					    o->ad_len == key->ad_len &&
					    strcmp(o->algorithm,
						   key->algorithm) == 0 &&
					    strcmp(o->implementation,
						   key->implementation) == 0 &&
					    strcmp(o->operation,
						   key->operation) == 0) {
						dup = 1;
						break;
					}
				}
			}
			if (dup) {
				continue;
			}
			fprintf(out, "| %s | %s | %s |", key->algorithm,
				key->implementation, key->operation);
			for (k = 0; k < sw->n; k++) {
				const struct hil_row *v =
					hil_run_find_row(&runs[k], key);
				double cyc = row_cycles(&runs[k], v), uj = 0;
				int kd = row_energy(v, &uj);

				if (cyc > 0) {
					fprintf(out, " %s%.0f |",
						v->model.ok ? "est. " : "",
						cyc);
				} else {
					fprintf(out, " - |");
				}
				if (kd == 'e') {
					fprintf(out, " est. %.3g (%.3g-%.3g) |",
						uj, v->est.uj_lo, v->est.uj_hi);
				} else if (kd == 'm') {
					fprintf(out, " %.3g%s |", uj,
						v->energy.model ? " (sim)"
								: "");
				} else {
					fprintf(out, " - |");
				}
			}
			verdict(sw, runs, key, out);
			fprintf(out, "\n");
		}
	}
	fprintf(out,
		"\n- fewer uJ/op: the configuration with the fewest, and by how much less than the most; between estimates, their typical figures; * = the datasheet ranges overlap (the typical figures differ, the extremes may not). An estimate is never judged against a measurement.\n");
	for (r = 0; r < sw->n; r++) {
		const struct hil_run *run = &runs[r];
		const struct hil_row *e = NULL;

		for (i = 0; i < run->n_rows && e == NULL; i++) {
			e = run->rows[i].est.ok ? &run->rows[i] : NULL;
		}
		if (e != NULL && run->energy_est.applies) {
			fprintf(out,
				"- %s: est. = a datasheet estimate, not measured: %.1f V x %.3g mA x cycles / %g MHz, range to %.3g mA (max. at 25 C, all peripherals on); %s (docs/method.md).\n",
				sw->cfgs[r].name, e->est.vdd, e->est.idd_ma,
				e->est.clock_hz / 1e6, e->est.idd_hi_ma,
				run->energy_est.table);
		} else if (run->energy_est.applies &&
			   run->energy_est.why[0] != '\0') {
			fprintf(out, "- %s: no estimate: %s.\n",
				sw->cfgs[r].name, run->energy_est.why);
		}
	}
	fprintf(out, "\n");
}
