/* runner_energy: the meters beside the counter: the sensor opened, its sampler and the cycle model's reader started and stopped with each image, a row's energy and estimated cycles. */
#define HIL_LOG_PREFIX "runner"
#include "runner_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/board/board.h"
#include "drivers/link/link.h"
#include "emu/cyclemodel.h"
#include "energyrun.h"
#include "util/err.h"
#include "util/log.h"
#include "image/refcrypto/refcrypto.h"
#include "drivers/sensor/sensor.h"
#include "result/stats.h"

/*
 * The row's energy, after its cycles: the same inputs looped in windows
 * the sensor can see. Whatever fails here fails the energy only; a target
 * that stopped answering is passed on to the recovery ladder.
 */
int hil_rn_measure_energy(struct rn_meters *m, struct hil_session *session,
			  struct rn_subject *s, uint8_t op,
			  const struct hilp_bench_req *b, struct hil_row *row)
{
	const struct registry_alg *ref = &s->alg;
	struct hilp_energy_req req;
	uint32_t digest;
	int ret;

	memset(&req, 0, sizeof(req));
	req.alg = b->alg;
	req.msg_len = b->msg_len;
	req.ad_len = b->ad_len;
	req.out_len = b->out_len;
	req.seed = b->seed;
	if (!hil_rn_has_host(s)) {
		row->energy.state = HIL_ENERGY_FAILED;
		snprintf(
			row->energy.error, sizeof(row->energy.error),
			"no host build of this implementation to check the energy loop's output against");
		return HIL_OK;
	}
	/* The loop's inputs are those of the first timed run. */
	ret = hil_rn_ref_digest(s, op, b->msg_len, b->ad_len, b->out_len, 1,
				b->seed, &digest);
	if (ret != HIL_OK) {
		row->energy.state = HIL_ENERGY_FAILED;
		snprintf(row->energy.error, sizeof(row->energy.error),
			 "host build could not compute the expected digest: %s",
			 hil_strerror(ret));
		return HIL_OK;
	}
	ret = hil_energyrun_row(m->energy, session, op, &req, digest,
				&row->energy);
	if (ret != HIL_OK) {
		row->energy.state = HIL_ENERGY_FAILED;
		snprintf(row->energy.error, sizeof(row->energy.error),
			 "the target failed during the energy loop: %s",
			 hil_strerror(ret));
		hil_err("%s/%s %s %u bytes: %s", ref->name, ref->impl,
			row->operation, (unsigned)b->msg_len,
			row->energy.error);
		return ret;
	}
	if (row->energy.state == HIL_ENERGY_OK && row->energy.model &&
	    row->model.ok && row->stats.median > 0) {
		/* An emulated board: the time of one operation is the cycle
		 * model's estimate, not its instruction count (the loop's
		 * own instructions scaled alike). */
		double f = row->model.stats.median / row->stats.median;

		row->energy.ticks_per_op *= f;
		row->energy.op_seconds *= f;
		row->energy.uj_per_op *= f;
		row->energy.uj_per_op_dynamic *= f;
		row->energy.spread_uj *= f;
		row->energy.spread_dynamic_uj *= f;
		row->energy.time_from_model = 1;
	}
	if (row->energy.state == HIL_ENERGY_OK) {
		hil_info(
			"%s/%s %s len %u: %.4g uJ per operation (%.4g above idle, %s)",
			ref->name, ref->impl, row->operation,
			(unsigned)b->msg_len, row->energy.uj_per_op,
			row->energy.uj_per_op_dynamic,
			row->energy.model ? "model" : "measured");
	} else {
		hil_warn("%s/%s %s len %u: energy not measured: %s", ref->name,
			 ref->impl, row->operation, (unsigned)b->msg_len,
			 row->energy.error);
	}
	return HIL_OK;
}

/*
 * Open the configured sensor before anything slow happens, so that a
 * missing adapter is an error within seconds; without one, the report says
 * why energy is not measured.
 */
int hil_rn_sensor_open(struct rn_meters *m, struct hil_run *run)
{
	const struct hil_config *cfg = run->cfg;
	struct hil_run_sensor *z = &run->sensor;
	struct hil_sensor_info info;
	char err[512];
	int ret;

	if (!hil_sensor_configured(cfg)) {
		snprintf(z->type, sizeof(z->type), "none");
		snprintf(
			z->why, sizeof(z->why), "%s",
			hil_board_emulated(cfg->board.name)
				? "not measured: emulated board and no sensor configured (sensor.type is \"none\")"
				: "not measured: no sensor configured (sensor.type is \"none\")");
		return HIL_OK;
	}
	ret = hil_sensor_open(cfg, &m->sensor, err, sizeof(err));
	if (ret != HIL_OK) {
		hil_err("sensor: %s", err);
		return ret;
	}
	hil_sensor_describe(m->sensor, &info);
	snprintf(z->type, sizeof(z->type), "%s", info.type);
	snprintf(z->bus, sizeof(z->bus), "%s", info.bus);
	z->address = info.address;
	z->model = info.model;
	z->shunt_ohm = info.shunt_ohm;
	z->max_current_a = info.max_current_a;
	z->config_reg = info.config_reg;
	z->cal_reg = info.cal_reg;
	z->current_lsb_a = info.current_lsb_a;
	z->cycle_us = info.cycle_us;
	if (hil_sensor_summary(m->sensor, err, sizeof(err)) > 0) {
		hil_info("%s", err);
	}
	return HIL_OK;
}

/* Start sampling once the target is up and its clock is known. */
static int energy_start(struct rn_meters *m, struct hil_run *run)
{
	const struct hil_config *cfg = run->cfg;
	struct hil_run_sensor *z = &run->sensor;
	struct hil_energyrun_opts eo;
	int ret;

	memset(&eo, 0, sizeof(eo));
	eo.conversions = cfg->sensor.conversions;
	eo.windows = cfg->sensor.windows;
	eo.timeout_ms = cfg->link.timeout_ms;
	eo.baud = hil_link_needs_port(cfg->link.type) ? cfg->link.baud : 0;
	if (run->info.clock_hz != 0 &&
	    run->info.counter_unit == HILP_UNIT_CYCLES) {
		eo.clock_hz = run->info.clock_hz;
		snprintf(z->time_basis, sizeof(z->time_basis),
			 "%s at the core clock the stub reports, %u Hz",
			 hil_unit_name(run->info.counter_unit),
			 (unsigned)run->info.clock_hz);
	} else if (run->model.enabled) {
		eo.clock_hz = cfg->board.clock_hz;
		snprintf(
			z->time_basis, sizeof(z->time_basis),
			"the cycle model's estimated cycles of each row (%s) at the configured %u Hz (%s taken as cycles where a row has no estimate): a model, not a time",
			run->model.unit, (unsigned)cfg->board.clock_hz,
			hil_unit_name(run->info.counter_unit));
	} else {
		eo.clock_hz = cfg->board.clock_hz;
		snprintf(
			z->time_basis, sizeof(z->time_basis),
			"%s taken as cycles at the configured %u Hz: a model, not a time",
			hil_unit_name(run->info.counter_unit),
			(unsigned)cfg->board.clock_hz);
	}
	if (z->model) {
		snprintf(
			z->assumes, sizeof(z->assumes),
			"a simulated %s on %s: its bus voltage and its currents while the stub's energy loop runs and while it waits are the sim bus's parameters (bus_v, active_ma, idle_ma; by default 3.3 V, 25 mA, 10 mA), not a board's; each row reads one whole conversion with the load off and one with it on, so the host's own load changes nothing",
			z->type, z->bus);
	}
	ret = hil_energyrun_start(&m->energy, hil_sensor_source(m->sensor),
				  &eo);
	if (ret != HIL_OK) {
		hil_err("sensor: the sampler did not start: %s",
			hil_strerror(ret));
	}
	return ret;
}

/*
 * The cycle model's records since the last look: a calibration (the stub
 * times its empty call at every start) gives the model's overhead.
 */
void hil_rn_model_drain(struct rn_meters *m, const struct hil_run *run)
{
	struct hil_cyclemodel_rec *recs = NULL;
	size_t n = 0, i;
	double best = -1.0;

	if (m->model == NULL ||
	    hil_cyclemodel_read(m->model, &recs, &n) != HIL_OK) {
		return;
	}
	for (i = 0; i < n; i++) {
		if (recs[i].insns == run->info.overhead &&
		    (best < 0.0 || (double)recs[i].cycles < best)) {
			best = (double)recs[i].cycles;
		}
	}
	if (best >= 0.0) {
		m->model_overhead = best;
	}
	free(recs);
}

/*
 * The model's cycles of the row's timed runs: the records whose instruction
 * counts equal the samples one for one (warm-up runs and stack painting
 * come before them). Anything else leaves the row without model figures
 * rather than pair a figure with the wrong run.
 */
void hil_rn_model_row(const struct rn_meters *m, struct hil_row *row,
		      const uint32_t *raw)
{
	struct hil_cyclemodel_rec *recs = NULL;
	struct hil_stats st;
	double *lo = NULL, *hi = NULL;
	size_t n = 0, k, i, runs = row->runs;
	int found = 0;

	if (m->model == NULL ||
	    hil_cyclemodel_read(m->model, &recs, &n) != HIL_OK) {
		return;
	}
	for (k = n >= runs ? n - runs + 1 : 0; k-- > 0 && !found;) {
		for (i = 0; i < runs && recs[k + i].insns == raw[i]; i++) {
		}
		found = i == runs;
		if (found) {
			break;
		}
	}
	row->model.samples = found ? calloc(runs, sizeof(double)) : NULL;
	lo = found ? calloc(runs, sizeof(double)) : NULL;
	hi = found ? calloc(runs, sizeof(double)) : NULL;
	if (row->model.samples == NULL || lo == NULL || hi == NULL) {
		if (!found) {
			hil_warn(
				"%s/%s %s %u B: the cycle model's records do not match the timed runs: no estimated cycles for this row",
				row->algorithm, row->implementation,
				row->operation, (unsigned)row->msg_len);
		}
		free(row->model.samples);
		row->model.samples = NULL;
		goto out;
	}
	row->model.overhead = m->model_overhead;
	for (i = 0; i < runs; i++) {
		const struct hil_cyclemodel_rec *r = &recs[k + i];

		row->model.samples[i] = (double)r->cycles - m->model_overhead;
		lo[i] = (double)r->min - m->model_overhead;
		hi[i] = (double)r->max - m->model_overhead;
		row->model.divides += r->divides;
		row->model.imiss = r->imiss; /* the last run's: warm */
		row->model.dmiss = r->dmiss;
		row->model.ilines = r->ilines;
		row->model.dlines = r->dlines;
	}
	if (hil_stats_compute(row->model.samples, runs, &row->model.stats) ==
		    HIL_OK &&
	    hil_stats_compute(lo, runs, &st) == HIL_OK) {
		row->model.lo_median = st.median;
		if (hil_stats_compute(hi, runs, &st) == HIL_OK) {
			row->model.hi_median = st.median;
			row->model.ok = 1;
		}
	}
	if (!row->model.ok) {
		free(row->model.samples);
		row->model.samples = NULL;
	}
out:
	free(lo);
	free(hi);
	free(recs);
}

int hil_rn_meters_start(struct rn_meters *m, struct hil_run *run)
{
	int ret = HIL_OK;

	if (m->sensor != NULL) {
		ret = energy_start(m, run);
	}
	if (ret == HIL_OK && run->model.enabled) {
		/* From the start of the file: the boot's calibration. */
		if (hil_cyclemodel_open(&m->model, run->model.file, 0) !=
		    HIL_OK) {
			hil_warn(
				"the cycle model's records (%s) cannot be read: no estimated cycles",
				run->model.file);
			run->model.enabled = 0;
			snprintf(run->model.why, sizeof(run->model.why),
				 "its record file could not be read");
		} else {
			hil_rn_model_drain(m, run);
		}
	}
	return ret;
}

void hil_rn_meters_stop(struct rn_meters *m)
{
	hil_energyrun_free(m->energy);
	m->energy = NULL;
	hil_cyclemodel_close(m->model);
	m->model = NULL;
}
