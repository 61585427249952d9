/* json: the report JSON of a run, written atomically. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"report"
#include "report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "drivers/board/board.h"
#include "util/err.h"
#include "util/log.h"
#include "util/util.h"

#define HIL_VERSION "0.1.0"

/* cJSON returns NULL on allocation failure; every add checks through here. */
static int add_str(cJSON *o, const char *k, const char *v)
{
	return cJSON_AddStringToObject(o, k, v != NULL ? v : "") != NULL;
}

static int add_num(cJSON *o, const char *k, double v)
{
	return cJSON_AddNumberToObject(o, k, v) != NULL;
}

/* session.requests_by_command: {"BENCH": n, ...}, the commands sent. */
static int add_requests_by_command(cJSON *o, const struct hil_run *run)
{
	cJSON *c = cJSON_AddObjectToObject(o, "requests_by_command");
	unsigned i;

	if (c == NULL) {
		return 0;
	}
	for (i = 0; i < HIL_SESSION_CMD_SLOTS; i++) {
		if (run->requests_by_cmd[i] > 0 &&
		    !add_num(c, hil_session_cmd_name((uint8_t)i),
			     run->requests_by_cmd[i])) {
			return 0;
		}
	}
	return 1;
}

static int add_bool(cJSON *o, const char *k, int v)
{
	return cJSON_AddBoolToObject(o, k, v) != NULL;
}

static int add_hex32(cJSON *o, const char *k, uint32_t v)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%08x", (unsigned)v);
	return add_str(o, k, buf);
}

/*
 * A row without a sensor: the datasheet estimate, kind "estimate" (never
 * "measured" or "model"), with its source and assumptions, or why none.
 */
static int add_energy_est(cJSON *row, const struct hil_run *run,
			  const struct hil_row *r)
{
	const struct hil_energy_est *e = &r->est;
	const int emulated = (run->info.flags & HILP_INFO_EMULATED) != 0;
	cJSON *o = cJSON_AddObjectToObject(row, "energy");
	int ok = o != NULL;

	if (ok && !e->ok) {
		ok = add_str(o, "status", "none");
		ok = ok && add_str(o, "kind", "estimate");
		return ok && add_str(o, "why", e->why);
	}
	ok = ok && add_str(o, "status", "ok");
	ok = ok && add_str(o, "kind", "estimate");
	ok = ok && add_str(o, "unit", "uJ");
	ok = ok && add_num(o, "uj_per_op", e->uj_per_op);
	ok = ok && add_str(o, "source", run->energy_est.source);
	ok = ok && add_str(o, "assumptions", run->energy_est.assumptions);
	ok = ok && add_num(o, "vdd_v", e->vdd);
	ok = ok && add_num(o, "idd_ma", e->idd_ma);
	ok = ok && add_num(o, "clock_hz", e->clock_hz);
	ok = ok && add_num(o, "cycles_per_op", e->cycles);
	ok = ok && add_str(o, "cycles_from",
			   emulated ? "cycle model (estimated)" : "DWT");
	ok = ok && add_num(o, "op_seconds", e->op_seconds);
	return ok;
}

/*
 * A row's energy: without a sensor the estimate above (or nothing, where
 * no estimate applies), {"status": "failed", "error"} when the sensor or the
 * window failed, else the figures, labelled model or measured.
 */
static int add_energy(cJSON *row, const struct hil_run *run,
		      const struct hil_row *r)
{
	const struct hil_row_energy *e = &r->energy;
	cJSON *o;
	int ok;

	if (e->state == HIL_ENERGY_NONE) {
		return run->energy_est.applies ? add_energy_est(row, run, r)
					       : 1;
	}
	o = cJSON_AddObjectToObject(row, "energy");
	ok = o != NULL;
	if (ok && e->state == HIL_ENERGY_FAILED) {
		ok = add_str(o, "status", "failed");
		return ok && add_str(o, "error", e->error);
	}
	ok = ok && add_str(o, "status", "ok");
	ok = ok && add_str(o, "kind", e->model ? "model" : "measured");
	ok = ok && add_str(o, "unit", "uJ");
	ok = ok && add_num(o, "uj_per_op", e->uj_per_op);
	ok = ok && add_num(o, "uj_per_op_dynamic", e->uj_per_op_dynamic);
	ok = ok && add_num(o, "spread", e->spread_uj);
	ok = ok && add_num(o, "spread_dynamic", e->spread_dynamic_uj);
	ok = ok && add_num(o, "idle_mw", e->idle_mw);
	ok = ok && add_num(o, "active_mw", e->active_mw);
	ok = ok && add_num(o, "bus_v", e->bus_v);
	ok = ok && add_num(o, "ticks_per_op", e->ticks_per_op);
	ok = ok && add_num(o, "op_seconds", e->op_seconds);
	ok = ok && add_num(o, "ops_per_window", e->ops_per_window);
	ok = ok && add_num(o, "windows", e->windows);
	ok = ok && add_num(o, "samples", (double)e->samples);
	ok = ok && add_num(o, "sample_rate_hz", e->sample_rate_hz);
	return ok;
}

/*
 * The row's estimated cycles (Cortex-M4 model on the emulated board),
 * beside the instruction counts and never instead of them.
 */
static int add_model(cJSON *row, const struct hil_run *run,
		     const struct hil_row *r)
{
	cJSON *o, *a, *b;
	uint32_t i;
	int ok;

	if (!r->model.ok) {
		return 1;
	}
	o = cJSON_AddObjectToObject(row, "model_cycles");
	ok = o != NULL;
	ok = ok && add_str(o, "unit", run->model.unit);
	ok = ok && add_num(o, "median", r->model.stats.median);
	ok = ok && add_num(o, "mean", r->model.stats.mean);
	ok = ok && add_num(o, "stddev", r->model.stats.stddev);
	ok = ok && add_num(o, "min", r->model.stats.min);
	ok = ok && add_num(o, "max", r->model.stats.max);
	if (r->msg_len > 0) {
		ok = ok &&
		     add_num(o, "per_byte", r->model.stats.median / r->msg_len);
	} else {
		ok = ok && cJSON_AddNullToObject(o, "per_byte") != NULL;
	}
	b = ok ? cJSON_AddArrayToObject(o, "bounds") : NULL;
	ok = ok && b != NULL;
	if (ok) {
		cJSON_AddItemToArray(b, cJSON_CreateNumber(r->model.lo_median));
		cJSON_AddItemToArray(b, cJSON_CreateNumber(r->model.hi_median));
		ok = cJSON_GetArraySize(b) == 2;
	}
	ok = ok && add_num(o, "divides", (double)r->model.divides);
	/* Unsure where a divide's data-dependent cost was counted at its
	 * maximum: the bounds say how far off that can be. */
	ok = ok && add_bool(o, "exact_rules",
			    r->model.divides == 0 &&
				    r->model.lo_median == r->model.hi_median);
	ok = ok && add_num(o, "overhead_subtracted", r->model.overhead);
	a = ok ? cJSON_AddArrayToObject(o, "samples") : NULL;
	ok = ok && a != NULL;
	for (i = 0; ok && i < r->model.stats.n; i++) {
		cJSON *n = cJSON_CreateNumber(r->model.samples[i]);

		ok = n != NULL;
		if (ok) {
			cJSON_AddItemToArray(a, n);
		}
	}
	return ok;
}

/* The timing-leak smoke test: absent when not run. */
static int add_leak(cJSON *row, const struct hil_run *run,
		    const struct hil_row_leak *l)
{
	cJSON *o;
	int ok;

	if (l->state == 0) {
		return 1;
	}
	o = cJSON_AddObjectToObject(row, "leak");
	ok = o != NULL;
	if (ok && l->state < 0) {
		ok = add_str(o, "status", "failed");
		return ok && add_str(o, "error", l->error);
	}
	ok = ok && add_str(o, "status", "ok");
	ok = ok &&
	     add_str(o, "method",
		     "dudect: fixed against random inputs in a random order, Welch's t");
	/* t is infinite when both classes are constant and differ: JSON has
	 * no infinity, so it is capped and the flag says the rest. */
	ok = ok &&
	     add_num(o, "t", isfinite(l->t) ? l->t : (l->t > 0 ? 1e9 : -1e9));
	ok = ok && add_bool(o, "flagged", l->flagged);
	ok = ok && add_num(o, "threshold", 4.5);
	ok = ok && add_num(o, "n_fixed", l->n[0]);
	ok = ok && add_num(o, "n_random", l->n[1]);
	ok = ok && add_num(o, "mean_fixed", l->mean[0]);
	ok = ok && add_num(o, "mean_random", l->mean[1]);
	ok = ok && add_num(o, "stddev_fixed", l->stddev[0]);
	ok = ok && add_num(o, "stddev_random", l->stddev[1]);
	if (run->info.counter_unit == HILP_UNIT_INSTRUCTIONS_EMU) {
		ok = ok &&
		     add_str(o, "note",
			     "emulated board: only differences in the instructions executed (data-dependent branches, early exits) are visible, not cache or timing effects");
	}
	return ok;
}

static cJSON *row_object(const struct hil_run *run, const struct hil_row *r)
{
	cJSON *o = cJSON_CreateObject();
	cJSON *samples;
	cJSON *digest;
	cJSON *ci;
	int ok = o != NULL;
	uint32_t i;

	ok = ok && add_str(o, "algorithm", r->algorithm);
	ok = ok && add_str(o, "implementation", r->implementation);
	ok = ok && add_str(o, "operation", r->operation);
	/* The image the row was measured on: --resume keeps only rows of
	 * the same image. */
	ok = ok &&
	     add_str(o, "build_id",
		     r->build_id[0] != '\0' ? r->build_id : run->build_id);
	ok = ok && add_str(o, "mode", r->mode);
	if (r->constant_time < 0) {
		ok = ok && cJSON_AddNullToObject(o, "constant_time") != NULL;
	} else {
		ok = ok && add_bool(o, "constant_time", r->constant_time);
	}
	ok = ok && add_num(o, "msg_len", r->msg_len);
	ok = ok && add_num(o, "ad_len", r->ad_len);
	ok = ok && add_str(o, "unit", hil_unit_name(run->info.counter_unit));
	ok = ok && add_num(o, "runs", r->runs);
	ok = ok && add_num(o, "warmup", r->warmup);
	ok = ok && add_num(o, "seed", r->seed);
	if (!ok) {
		goto fail;
	}
	samples = cJSON_AddArrayToObject(o, "samples");
	if (samples == NULL) {
		goto fail;
	}
	for (i = 0; r->samples != NULL && i < r->stats.n; i++) {
		cJSON *n = cJSON_CreateNumber(r->samples[i]);

		if (n == NULL) {
			goto fail;
		}
		cJSON_AddItemToArray(samples, n);
	}
	if (r->stats.n > 0) {
		ok = ok && add_num(o, "median", r->stats.median);
		ok = ok && add_num(o, "mean", r->stats.mean);
		ok = ok && add_num(o, "stddev", r->stats.stddev);
		ok = ok && add_num(o, "min", r->stats.min);
		ok = ok && add_num(o, "max", r->stats.max);
		ok = ok && add_num(o, "mad", r->stats.mad);
		ci = cJSON_AddArrayToObject(o, "ci95");
		ok = ok && ci != NULL;
		if (ok) {
			cJSON_AddItemToArray(
				ci, cJSON_CreateNumber(r->stats.ci95_low));
			cJSON_AddItemToArray(
				ci, cJSON_CreateNumber(r->stats.ci95_high));
			ok = cJSON_GetArraySize(ci) == 2;
		}
		ok = ok && add_num(o, "outliers", (double)r->stats.outliers);
		if (r->msg_len > 0) {
			ok = ok && add_num(o, "per_byte",
					   r->stats.median / r->msg_len);
		} else {
			ok = ok && cJSON_AddNullToObject(o, "per_byte") != NULL;
		}
	} else {
		const char *keys[] = {"median", "mean",	    "stddev",
				      "min",	"max",	    "mad",
				      "ci95",	"outliers", "per_byte"};

		for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
			ok = ok && cJSON_AddNullToObject(o, keys[i]) != NULL;
		}
	}
	if (r->has_normalized) {
		ok = ok && add_num(o, "normalized", r->normalized);
	} else {
		ok = ok && cJSON_AddNullToObject(o, "normalized") != NULL;
	}
	ok = ok && add_num(o, "overhead_subtracted", r->overhead);
	if (r->stack_known) {
		ok = ok && add_num(o, "stack_bytes", r->stack_bytes);
	} else {
		ok = ok && cJSON_AddNullToObject(o, "stack_bytes") != NULL;
	}
	ok = ok && add_bool(o, "verified", r->verified);
	if (r->verified_by[0] != '\0') {
		ok = ok && add_str(o, "verified_by", r->verified_by);
	}
	digest = cJSON_AddObjectToObject(o, "digest");
	ok = ok && digest != NULL;
	ok = ok && add_hex32(digest, "expected", r->digest_expected);
	ok = ok && add_hex32(digest, "measured", r->digest_got);
	ok = ok && add_bool(digest, "match",
			    r->ok && r->digest_expected == r->digest_got);
	ok = ok && add_num(o, "heap_bytes", r->heap_bytes);
	ok = ok && add_leak(o, run, &r->leak);
	ok = ok && add_model(o, run, r);
	ok = ok && add_energy(o, run, r);
	ok = ok && add_str(o, "status",
			   r->ok	    ? "ok"
			   : r->interrupted ? "interrupted"
					    : "failed");
	if (!r->ok) {
		ok = ok && add_str(o, "error", r->error);
	}
	if (ok) {
		return o;
	}
fail:
	cJSON_Delete(o);
	return NULL;
}

/* The sensor: what it is, how it was set up, or why there is none. */
static int add_sensor(cJSON *o, const struct hil_run *run)
{
	const struct hil_run_sensor *z = &run->sensor;
	char hex[16];
	int ok;

	if (z->type[0] == '\0' || strcmp(z->type, "none") == 0) {
		ok = add_str(o, "type", "none");
		return ok &&
		       add_str(o, "why",
			       z->why[0] != '\0' ? z->why
						 : "no sensor configured");
	}
	ok = add_str(o, "type", z->type);
	ok = ok && add_str(o, "kind", z->model ? "model" : "measured");
	ok = ok && add_str(o, "bus", z->bus);
	snprintf(hex, sizeof(hex), "0x%02x", z->address);
	ok = ok && add_str(o, "address", hex);
	ok = ok && add_num(o, "shunt_ohm", z->shunt_ohm);
	ok = ok && add_num(o, "max_current_a", z->max_current_a);
	snprintf(hex, sizeof(hex), "0x%04x", z->config_reg);
	ok = ok && add_str(o, "config_register", hex);
	snprintf(hex, sizeof(hex), "0x%04x", z->cal_reg);
	ok = ok && add_str(o, "calibration_register", hex);
	ok = ok && add_num(o, "current_lsb_a", z->current_lsb_a);
	ok = ok && add_num(o, "conversion_cycle_us", z->cycle_us);
	ok = ok && add_str(o, "time_basis", z->time_basis);
	if (z->why[0] != '\0') {
		ok = ok && add_str(o, "why", z->why);
	}
	return ok;
}

static cJSON *report_object(const struct hil_run *run)
{
	const struct hil_config *cfg = run->cfg;
	const struct hil_board_driver *bd;
	struct hil_flash_state fs;
	cJSON *root = cJSON_CreateObject();
	cJSON *o;
	cJSON *a;
	char uid[2 * HILP_UID_LEN + 1];
	size_t i;
	int ok = root != NULL;

	ok = ok && add_num(root, "schema_version", HIL_REPORT_SCHEMA_VERSION);

	o = ok ? cJSON_AddObjectToObject(root, "run") : NULL;
	ok = ok && o != NULL;
	ok = ok && add_str(o, "id", run->id);
	ok = ok && add_str(o, "status", run->status);
	ok = ok && add_str(o, "started", run->started);
	ok = ok && add_str(o, "finished", run->finished);
	ok = ok && add_str(o, "config", cfg->path);
	ok = ok && add_str(o, "config_name", cfg->name);

	o = ok ? cJSON_AddObjectToObject(root, "tool") : NULL;
	ok = ok && o != NULL;
	ok = ok && add_str(o, "name", "hilrun");
	ok = ok && add_str(o, "version", HIL_VERSION);
	ok = ok && add_str(o, "commit", run->tool_commit);
	ok = ok && add_bool(o, "dirty", run->tool_dirty);
	ok = ok && add_str(o, "host", run->host);
	ok = ok && add_str(o, "host_os", run->host_os);

	o = ok ? cJSON_AddObjectToObject(root, "build") : NULL;
	ok = ok && o != NULL;
	ok = ok && add_str(o, "compiler", run->fw.compiler);
	ok = ok && add_str(o, "compiler_in_elf", run->elf_compiler);
	a = ok ? cJSON_AddArrayToObject(o, "cflags") : NULL;
	ok = ok && a != NULL;
	for (i = 0; ok && i < cfg->build.n_cflags; i++) {
		cJSON *s = cJSON_CreateString(cfg->build.cflags[i]);

		ok = s != NULL;
		if (ok) {
			cJSON_AddItemToArray(a, s);
		}
	}
	ok = ok && add_str(o, "all_flags", run->fw.all_flags);
	ok = ok && add_str(o, "linker_flags", run->fw.ld_flags);
	ok = ok && add_str(o, "directory", run->fw.dir);
	ok = ok && add_str(o, "algorithms", run->fw.algs);
	ok = ok && add_str(o, "elf", run->fw.elf);
	ok = ok && add_str(o, "elf_sha256", run->elf_sha256);
	ok = ok && add_str(o, "build_id", run->build_id);
	/* The user's own folders: built without -Werror, warnings kept. */
	a = ok ? cJSON_AddArrayToObject(o, "foreign_code") : NULL;
	ok = ok && a != NULL;
	for (i = 0; ok && i < run->fw.n_foreign; i++) {
		const struct hil_foreign_build *fb = &run->fw.foreign[i];
		cJSON *e = cJSON_CreateObject();

		ok = e != NULL;
		if (ok) {
			cJSON_AddItemToArray(a, e);
		}
		ok = ok && add_str(e, "implementation", fb->impl);
		ok = ok && add_num(e, "warnings", fb->warnings);
		ok = ok && add_str(e, "warnings_file", fb->log);
	}

	o = ok ? cJSON_AddObjectToObject(root, "board") : NULL;
	ok = ok && o != NULL;
	ok = ok && add_str(o, "name", cfg->board.name);
	ok = ok && add_str(o, "reported_name", run->info.board);
	ok = ok && add_bool(o, "emulated",
			    (run->info.flags & HILP_INFO_EMULATED) != 0);
	if (run->info.clock_hz != 0) {
		ok = ok && add_num(o, "clock_hz", run->info.clock_hz);
	} else {
		ok = ok && cJSON_AddNullToObject(o, "clock_hz") != NULL;
	}
	ok = ok &&
	     add_str(o, "counter_unit", hil_unit_name(run->info.counter_unit));
	ok = ok && add_num(o, "counter_hz", run->info.counter_hz);
	ok = ok && add_hex32(o, "flash_acr", run->info.flash_acr);
	bd = hil_board_find(cfg->board.name);
	if ((run->info.flags & HILP_INFO_EMULATED) == 0 && bd != NULL &&
	    bd->flash_state != NULL) {
		/* The board driver decodes its own flash register; a
		 * setting the board does not have is left out. */
		bd->flash_state(run->info.flash_acr, &fs);
		if (fs.wait_states >= 0) {
			ok = ok &&
			     add_num(o, "flash_wait_states", fs.wait_states);
		}
		if (fs.prefetch >= 0) {
			ok = ok && add_bool(o, "flash_prefetch", fs.prefetch);
		}
		if (fs.icache >= 0) {
			ok = ok && add_bool(o, "flash_icache", fs.icache);
		}
		if (fs.dcache >= 0) {
			ok = ok && add_bool(o, "flash_dcache", fs.dcache);
		}
	}
	hil_hex_encode(run->info.uid, HILP_UID_LEN, uid);
	ok = ok && add_str(o, "uid", uid);
	ok = ok && add_str(o, "flasher", cfg->flasher.type);
	ok = ok && add_str(o, "flasher_version", run->flasher_version);
	/* The probe the image went through ("" when any probe would do, or
	 * on the emulated board), and the board's id in the hardware map. */
	ok = ok && add_str(o, "probe_serial", cfg->flasher.probe_serial);
	ok = ok && add_str(o, "id", cfg->board.id);
	ok = ok && add_num(o, "stub_overhead", run->info.overhead);
	/* UART receive overruns the stub had counted when INFO was read;
	 * null from a stub that does not report them. */
	if (run->info.has_uart_overruns) {
		ok = ok && add_num(o, "uart_overruns", run->info.uart_overruns);
	} else {
		ok = ok && cJSON_AddNullToObject(o, "uart_overruns") != NULL;
	}

	/* Where the wall time went: figures about the harness, not the
	 * algorithms (make bench prints them). */
	o = ok ? cJSON_AddObjectToObject(root, "timing") : NULL;
	ok = ok && o != NULL;
	if (ok) {
		const double ns = 1e9;
		double other = (double)run->timing.total_ns -
			       (double)run->timing.build_ns -
			       (double)run->timing.start_ns -
			       (double)run->timing.call_ns;

		ok = add_num(o, "total_s", (double)run->timing.total_ns / ns);
		ok = ok &&
		     add_num(o, "build_s", (double)run->timing.build_ns / ns);
		ok = ok &&
		     add_num(o, "start_s", (double)run->timing.start_ns / ns);
		/* A BENCH wait that ran out is neither link nor target
		 * time: counted on its own (it used to inflate link_s). */
		double link = (double)run->timing.call_ns -
			      (double)run->timing.wait_ns -
			      (double)run->timing.bench_timeout_ns;

		ok = ok && add_num(o, "link_s", (link > 0 ? link : 0) / ns);
		ok = ok &&
		     add_num(o, "target_s", (double)run->timing.wait_ns / ns);
		ok = ok &&
		     add_num(o, "bench_timeouts", run->timing.bench_timeouts);
		ok = ok && add_num(o, "bench_timeout_s",
				   (double)run->timing.bench_timeout_ns / ns);
		ok = ok && add_num(o, "host_s", (other > 0 ? other : 0) / ns);
	}

	o = ok ? cJSON_AddObjectToObject(root, "cycle_model") : NULL;
	ok = ok && o != NULL;
	ok = ok && add_bool(o, "enabled", run->model.enabled);
	if (run->model.enabled) {
		ok = ok && add_str(o, "unit", run->model.unit);
		ok = ok && add_num(o, "wait_states", run->model.ws);
		ok = ok && add_bool(o, "art", run->model.art);
		ok = ok && add_str(o, "records", run->model.file);
		ok = ok && add_str(o, "method", "docs/cycle-model.md");
	} else {
		ok = ok && add_str(o, "why", run->model.why);
	}

	o = ok ? cJSON_AddObjectToObject(root, "normalized_to") : NULL;
	ok = ok && o != NULL;
	if (ok && run->normalized_to.spec[0] != '\0') {
		char alg[2 * HIL_CFG_NAME];
		char *slash;

		snprintf(alg, sizeof(alg), "%s", run->normalized_to.spec);
		slash = strchr(alg, '/');
		if (slash != NULL) {
			*slash = '\0';
		}
		ok = add_str(o, "algorithm", alg);
		ok = ok && add_str(o, "implementation",
				   run->normalized_to.implementation);
		ok = ok && add_str(o, "operation", "encrypt");
	} else if (ok) {
		ok = cJSON_AddNullToObject(o, "algorithm") != NULL;
	}
	ok = ok && add_num(o, "rows", (double)run->normalized_to.rows);
	if (run->normalized_to.why[0] != '\0') {
		ok = ok && add_str(o, "why", run->normalized_to.why);
	}

	o = ok ? cJSON_AddObjectToObject(root, "sensor") : NULL;
	ok = ok && o != NULL;
	ok = ok && add_sensor(o, run);
	if (ok && run->energy_est.applies) {
		o = cJSON_AddObjectToObject(root, "energy_estimate");
		ok = o != NULL;
		ok = ok && add_str(o, "kind", "estimate");
		ok = ok && add_str(o, "source", run->energy_est.source);
		ok = ok &&
		     add_str(o, "assumptions", run->energy_est.assumptions);
		ok = ok && add_str(o, "method", "docs/method.md");
		if (run->energy_est.why[0] != '\0') {
			ok = ok && add_str(o, "why", run->energy_est.why);
		}
	}

	a = ok ? cJSON_AddArrayToObject(root, "sizes") : NULL;
	ok = ok && a != NULL;
	for (i = 0; ok && i < run->n_impl_sizes; i++) {
		const struct hil_impl_size *z = &run->impl_sizes[i];
		cJSON *e = cJSON_CreateObject();

		ok = e != NULL;
		if (ok) {
			cJSON_AddItemToArray(a, e);
		}
		ok = ok && add_str(e, "algorithm", z->algorithm);
		ok = ok && add_str(e, "implementation", z->implementation);
		ok = ok && add_num(e, "text", (double)z->text);
		ok = ok && add_num(e, "rodata", (double)z->rodata);
		ok = ok && add_num(e, "data", (double)z->data);
		ok = ok && add_num(e, "bss", (double)z->bss);
		ok = ok && add_num(e, "flash_bytes",
				   (double)(z->text + z->rodata + z->data));
		ok = ok && add_num(e, "ram_bytes", (double)(z->data + z->bss));
	}

	a = ok ? cJSON_AddArrayToObject(root, "fits") : NULL;
	ok = ok && a != NULL;
	for (i = 0; ok && i < run->n_fits; i++) {
		const struct hil_fit *f = &run->fits[i];
		cJSON *e = cJSON_CreateObject();

		ok = e != NULL;
		if (ok) {
			cJSON_AddItemToArray(a, e);
		}
		ok = ok && add_str(e, "algorithm", f->algorithm);
		ok = ok && add_str(e, "implementation", f->implementation);
		ok = ok && add_str(e, "operation", f->operation);
		ok = ok && add_num(e, "ad_len", f->ad_len);
		ok = ok &&
		     add_str(e, "unit", hil_unit_name(run->info.counter_unit));
		ok = ok && add_num(e, "fixed", f->fixed);
		ok = ok && add_num(e, "per_byte", f->per_byte);
		ok = ok && add_num(e, "r2", f->r2);
		ok = ok && add_num(e, "points", (double)f->points);
	}

	o = ok ? cJSON_AddObjectToObject(root, "image") : NULL;
	ok = ok && o != NULL;
	ok = ok &&
	     add_str(o, "scope",
		     run->n_images > 1
			     ? "the last of the images (see images)"
			     : "whole image (stub and every algorithm in it)");
	/* A selection too big for one image was measured over several. */
	if (ok && run->n_images > 1) {
		a = cJSON_AddArrayToObject(root, "images");
		ok = a != NULL;
		for (i = 0; ok && i < run->n_images; i++) {
			const struct hil_run_image *im = &run->images[i];
			cJSON *e = cJSON_CreateObject();

			ok = e != NULL;
			if (ok) {
				cJSON_AddItemToArray(a, e);
			}
			ok = ok && add_str(e, "algorithms", im->algs);
			ok = ok && add_str(e, "build_id", im->build_id);
			ok = ok && add_str(e, "elf_sha256", im->elf_sha256);
			ok = ok &&
			     add_num(e, "flash_bytes", (double)im->sizes.flash);
			ok = ok && add_num(e, "ram_static_bytes",
					   (double)im->sizes.ram_static);
		}
	}
	ok = ok && add_num(o, "flash_bytes", (double)run->sizes.flash);
	ok = ok &&
	     add_num(o, "ram_static_bytes", (double)run->sizes.ram_static);
	ok = ok && add_num(o, "stack_reserved_bytes",
			   (double)run->sizes.stack_reserved);

	o = ok ? cJSON_AddObjectToObject(root, "session") : NULL;
	ok = ok && o != NULL;
	ok = ok && add_num(o, "requests", run->requests);
	ok = ok && add_requests_by_command(o, run);
	ok = ok && add_num(o, "bytes_tx", (double)run->bytes_tx);
	ok = ok && add_num(o, "bytes_rx", (double)run->bytes_rx);
	ok = ok && add_num(o, "retries", run->retries);
	ok = ok && add_num(o, "bad_frames", run->bad_frames);
	ok = ok && add_num(o, "timeouts", run->timeouts);
	ok = ok && add_num(o, "resets", run->resets);
	ok = ok && add_num(o, "reflashes", run->reflashes);

	a = ok ? cJSON_AddArrayToObject(root, "rows") : NULL;
	ok = ok && a != NULL;
	for (i = 0; ok && i < run->n_rows; i++) {
		cJSON *r = row_object(run, &run->rows[i]);

		ok = r != NULL;
		if (ok) {
			cJSON_AddItemToArray(a, r);
		}
	}
	if (!ok) {
		cJSON_Delete(root);
		return NULL;
	}
	return root;
}

char *hil_report_json(const struct hil_run *run)
{
	cJSON *root = report_object(run);
	char *text;

	if (root == NULL) {
		return NULL;
	}
	text = cJSON_Print(root);
	cJSON_Delete(root);
	return text;
}

char *hil_report_row_json(const struct hil_run *run, const struct hil_row *row)
{
	cJSON *o = row_object(run, row);
	char *text;

	if (o == NULL) {
		return NULL;
	}
	text = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	return text;
}

int hil_report_write_json(const struct hil_run *run)
{
	char path[HIL_PATH + 32];
	char *text = hil_report_json(run);
	int ret;

	if (text == NULL) {
		hil_err("out of memory while writing the report");
		return HIL_ERR_NOMEM;
	}
	snprintf(path, sizeof(path), "%s/report.json", run->dir);
	ret = hil_write_atomic(path, text, strlen(text));
	free(text);
	return ret;
}
