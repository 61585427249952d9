/* json_row: one measured row of report.json: its figures, statistics, energy (measured, model or estimate), cycle model and leak test. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"report"
#include "rowjson.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "drivers/board/memsys.h"
#include "result/estimate.h"
#include "result/modelerr.h"
#include "result/run.h"
#include "result/stats.h"
#include "result/rowcodec.h"
#include "util/err.h"
#include "util/util.h"

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
		ok = hil_json_add_str(o, "status", "none");
		ok = ok && hil_json_add_str(o, "kind", "estimate");
		return ok && hil_json_add_str(o, "why", e->why);
	}
	ok = ok && hil_json_add_str(o, "status", "ok");
	ok = ok && hil_json_add_str(o, "kind", "estimate");
	ok = ok && hil_json_add_str(o, "unit", "uJ");
	ok = ok && hil_json_add_num(o, "uj_per_op", e->uj_per_op);
	ok = ok && hil_json_add_num(o, "uj_low", e->uj_lo);
	ok = ok && hil_json_add_num(o, "uj_high", e->uj_hi);
	ok = ok && hil_json_add_str(o, "table", run->energy_est.table);
	ok = ok && hil_json_add_str(o, "source", run->energy_est.source);
	ok = ok &&
	     hil_json_add_str(o, "assumptions", run->energy_est.assumptions);
	ok = ok && hil_json_add_num(o, "vdd_v", e->vdd);
	ok = ok && hil_json_add_num(o, "idd_ma", e->idd_ma);
	ok = ok && hil_json_add_num(o, "idd_high_ma", e->idd_hi_ma);
	ok = ok && hil_json_add_num(o, "clock_hz", e->clock_hz);
	ok = ok && hil_json_add_num(o, "cycles_per_op", e->cycles);
	ok = ok &&
	     hil_json_add_str(o, "cycles_from",
			      emulated ? "cycle model (estimated)" : "DWT");
	ok = ok && hil_json_add_num(o, "op_seconds", e->op_seconds);
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
	/* Beside the sensor's figure: the datasheet's, and their ratio (the
	 * first board run checks the estimate). */
	if (run->energy_est.beside && r->est.ok) {
		cJSON *x = cJSON_AddObjectToObject(row, "energy_estimate");

		ok = x != NULL;
		ok = ok && hil_json_add_str(x, "kind", "estimate");
		ok = ok && hil_json_add_num(x, "uj_per_op", r->est.uj_per_op);
		ok = ok && hil_json_add_num(x, "uj_low", r->est.uj_lo);
		ok = ok && hil_json_add_num(x, "uj_high", r->est.uj_hi);
		ok = ok && hil_json_add_str(x, "table", run->energy_est.table);
		ok = ok && hil_json_add_num(x, "cycles_per_op", r->est.cycles);
		ok = ok && hil_json_add_num(x, "vdd_v", r->est.vdd);
		ok = ok && hil_json_add_num(x, "idd_ma", r->est.idd_ma);
		ok = ok && hil_json_add_num(x, "idd_high_ma", r->est.idd_hi_ma);
		ok = ok && hil_json_add_num(x, "clock_hz", r->est.clock_hz);
		if (ok && e->state == HIL_ENERGY_OK && r->est.uj_per_op > 0) {
			ok = hil_json_add_num(x, "ratio",
					      e->uj_per_op / r->est.uj_per_op);
		}
		if (!ok) {
			return 0;
		}
	}
	o = cJSON_AddObjectToObject(row, "energy");
	ok = o != NULL;
	if (ok && e->state == HIL_ENERGY_FAILED) {
		ok = hil_json_add_str(o, "status", "failed");
		return ok && hil_json_add_str(o, "error", e->error);
	}
	ok = ok && hil_json_add_str(o, "status", "ok");
	ok = ok && hil_result_put_all(o, "energy", e);
	return ok;
}

/* A cache's lines for the report: null when it keeps every line (size
 * unknown) or is switched off with the accelerator. */
static cJSON *cache_lines(const struct cm4_cache_geom *g, int art)
{
	if (g->lines == CM4_CACHE_UNBOUNDED || (!art && g->lines != 0)) {
		return cJSON_CreateNull();
	}
	return cJSON_CreateNumber(g->lines);
}

/*
 * What the memory system did in the row's (last) timed run: the lines read
 * on demand (misses) and the cycles they waited (each waits the wait
 * states), the distinct lines touched and what the modelled caches hold,
 * so that a figure bound by its memory says so: fits_caches false and a
 * note when the code or the tables touch more lines than the caches hold
 * (null when there is no bounded cache to fit).
 */
static int add_memsys(cJSON *o, const struct hil_run *run,
		      const struct hil_row *r)
{
	const struct cm4_memsys *p = cm4_memsys_find(run->model.profile);
	const int art = run->model.art;
	cJSON *m, *l, *c;
	int ok, fit = 1, known = 0;
	char note[256] = "";

	ok = run->model.profile[0] != '\0'
		     ? hil_json_add_str(o, "profile", run->model.profile)
		     : cJSON_AddNullToObject(o, "profile") != NULL;
	m = ok ? cJSON_AddObjectToObject(o, "cache_misses") : NULL;
	ok = ok && m != NULL;
	ok = ok &&
	     hil_result_put_all(m, "model_cycles.cache_misses", &r->model);
	ok = ok && hil_json_add_num(o, "flash_wait_cycles",
				    (double)((r->model.imiss + r->model.dmiss) *
					     run->model.ws));
	l = ok ? cJSON_AddObjectToObject(o, "lines_touched") : NULL;
	ok = ok && l != NULL;
	ok = ok &&
	     hil_result_put_all(l, "model_cycles.lines_touched", &r->model);
	if (!ok || p == NULL) {
		return ok && cJSON_AddNullToObject(o, "fits_caches") != NULL;
	}
	ok = hil_json_add_num(l, "line_bytes", p->line_bytes);
	c = ok ? cJSON_AddObjectToObject(o, "cache_lines") : NULL;
	ok = ok && c != NULL;
	if (ok) {
		cJSON_AddItemToObject(c, "instruction",
				      cache_lines(&p->icache, art));
		cJSON_AddItemToObject(c, "data", cache_lines(&p->dcache, art));
		ok = cJSON_GetArraySize(c) == 2;
	}
	if (art && p->icache.lines != 0 &&
	    p->icache.lines != CM4_CACHE_UNBOUNDED) {
		known = 1;
		if (r->model.ilines > p->icache.lines) {
			fit = 0;
			snprintf(
				note, sizeof(note),
				"the code touches %llu lines of %u bytes, the instruction cache holds %u (%llu misses a run)",
				(unsigned long long)r->model.ilines,
				p->line_bytes, p->icache.lines,
				(unsigned long long)r->model.imiss);
		}
	}
	if (art && p->dcache.lines != 0 &&
	    p->dcache.lines != CM4_CACHE_UNBOUNDED) {
		known = 1;
		if (r->model.dlines > p->dcache.lines) {
			size_t n = strlen(note);

			fit = 0;
			snprintf(
				note + n, sizeof(note) - n,
				"%sthe constants read from flash touch %llu lines, the data cache holds %u (%llu misses a run)",
				n > 0 ? "; " : "",
				(unsigned long long)r->model.dlines,
				p->dcache.lines,
				(unsigned long long)r->model.dmiss);
		}
	}
	if (!known) {
		return ok && cJSON_AddNullToObject(o, "fits_caches") != NULL;
	}
	ok = ok && hil_json_add_bool(o, "fits_caches", fit);
	if (!fit) {
		ok = ok && hil_json_add_str(o, "cache_note", note);
	}
	return ok;
}

/*
 * The estimate's error bar: error_pct from the profile's leave-one-out
 * cross-validation (C or assembly, error_kind), with what it comes from;
 * null when the profile is not calibrated.
 */
static int add_error_bar(cJSON *o, const struct hil_run *run,
			 const struct hil_row *r)
{
	const struct cm4_memsys *p = cm4_memsys_find(run->model.profile);
	const char *kind = "C";
	double e = hil_model_error_pct(run, r, &kind);
	int ok;

	if (e < 0) {
		return cJSON_AddNullToObject(o, "error_pct") != NULL;
	}
	ok = hil_json_add_num(o, "error_pct", e);
	ok = ok && hil_json_add_str(o, "error_kind", kind);
	ok = ok && hil_json_add_str(
			   o, "error_from",
			   p != NULL && p->err_from != NULL ? p->err_from : "");
	return ok;
}

/*
 * The row's estimated cycles (Cortex-M4 model on the emulated board),
 * beside the instruction counts and never instead of them.
 */
static int add_model(cJSON *row, const struct hil_run *run,
		     const struct hil_row *r)
{
	cJSON *o, *a;
	uint32_t i;
	int ok;

	if (!r->model.ok) {
		return 1;
	}
	o = cJSON_AddObjectToObject(row, "model_cycles");
	ok = o != NULL;
	ok = ok && hil_json_add_str(o, "unit", run->model.unit);
	ok = ok && hil_json_add_num(o, "median", r->model.stats.median);
	ok = ok && hil_json_add_num(o, "mean", r->model.stats.mean);
	ok = ok && hil_json_add_num(o, "stddev", r->model.stats.stddev);
	ok = ok && hil_json_add_num(o, "min", r->model.stats.min);
	ok = ok && hil_json_add_num(o, "max", r->model.stats.max);
	if (r->msg_len > 0) {
		ok = ok && hil_json_add_num(o, "per_byte",
					    r->model.stats.median / r->msg_len);
	} else {
		ok = ok && cJSON_AddNullToObject(o, "per_byte") != NULL;
	}
	ok = ok && hil_result_put(o, "model_cycles", "bounds", &r->model);
	ok = ok && hil_result_put(o, "model_cycles", "divides", &r->model);
	/* Unsure where a divide's data-dependent cost was counted at its
	 * maximum: the bounds say how far off that can be. */
	ok = ok && hil_json_add_bool(o, "exact_rules",
				     r->model.divides == 0 &&
					     r->model.lo_median ==
						     r->model.hi_median);
	ok = ok && hil_result_put(o, "model_cycles", "overhead_subtracted",
				  &r->model);
	ok = ok && add_memsys(o, run, r);
	ok = ok && add_error_bar(o, run, r);
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

/*
 * A post-quantum operation's own object: its code size, hashing shares
 * (and their sum), verification and randombytes stream.
 */
static int add_pq(cJSON *row, const struct hil_row *r)
{
	cJSON *o;
	int ok;

	if (!r->pq.present) {
		return 1;
	}
	o = cJSON_AddObjectToObject(row, "pq");
	ok = o != NULL;
	ok = ok && hil_result_put_all(o, "pq", &r->pq);
	ok = ok &&
	     hil_json_add_num(o, "hash_pct",
			      r->pq.sha2_pct + r->pq.sha3_pct + r->pq.aes_pct);
	return ok;
}

cJSON *hil_json_row_object(const struct hil_run *run, const struct hil_row *r)
{
	cJSON *o = cJSON_CreateObject();
	cJSON *samples;
	cJSON *digest;
	cJSON *ci;
	int ok = o != NULL;
	uint32_t i;

	ok = ok && hil_result_put(o, "", "algorithm", r);
	ok = ok && hil_result_put(o, "", "implementation", r);
	ok = ok && hil_result_put(o, "", "operation", r);
	/* The image the row was measured on: --resume keeps only rows of
	 * the same image. */
	ok = ok && hil_json_add_str(o, "build_id",
				    r->build_id[0] != '\0' ? r->build_id
							   : run->build_id);
	ok = ok && hil_json_add_str(o, "mode", r->mode);
	if (r->constant_time < 0) {
		ok = ok && cJSON_AddNullToObject(o, "constant_time") != NULL;
	} else {
		ok = ok &&
		     hil_json_add_bool(o, "constant_time", r->constant_time);
	}
	ok = ok && hil_result_put(o, "", "msg_len", r);
	ok = ok && hil_result_put(o, "", "ad_len", r);
	ok = ok &&
	     hil_json_add_str(o, "unit", hil_unit_name(run->info.counter_unit));
	ok = ok && hil_result_put(o, "", "runs", r);
	ok = ok && hil_result_put(o, "", "warmup", r);
	ok = ok && hil_result_put(o, "", "seed", r);
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
		ok = ok && hil_json_add_num(o, "median", r->stats.median);
		ok = ok && hil_json_add_num(o, "mean", r->stats.mean);
		ok = ok && hil_json_add_num(o, "stddev", r->stats.stddev);
		ok = ok && hil_json_add_num(o, "min", r->stats.min);
		ok = ok && hil_json_add_num(o, "max", r->stats.max);
		ok = ok && hil_json_add_num(o, "mad", r->stats.mad);
		ci = cJSON_AddArrayToObject(o, "ci95");
		ok = ok && ci != NULL;
		if (ok) {
			cJSON_AddItemToArray(
				ci, cJSON_CreateNumber(r->stats.ci95_low));
			cJSON_AddItemToArray(
				ci, cJSON_CreateNumber(r->stats.ci95_high));
			ok = cJSON_GetArraySize(ci) == 2;
		}
		ok = ok &&
		     hil_json_add_num(o, "outliers", (double)r->stats.outliers);
		if (r->msg_len > 0) {
			ok = ok &&
			     hil_json_add_num(o, "per_byte",
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
		ok = ok && hil_json_add_num(o, "normalized", r->normalized);
	} else {
		ok = ok && cJSON_AddNullToObject(o, "normalized") != NULL;
	}
	ok = ok && hil_result_put(o, "", "overhead_subtracted", r);
	ok = ok && hil_result_put(o, "", "stack_bytes", r);
	ok = ok && hil_result_put(o, "", "verified", r);
	ok = ok && hil_result_put(o, "", "verified_by", r);
	digest = cJSON_AddObjectToObject(o, "digest");
	ok = ok && digest != NULL;
	ok = ok && hil_result_put_all(digest, "digest", r);
	ok = ok &&
	     hil_json_add_bool(digest, "match",
			       r->ok && r->digest_expected == r->digest_got);
	ok = ok && hil_result_put(o, "", "heap_bytes", r);
	ok = ok && add_pq(o, r);
	ok = ok && hil_json_row_leak(o, run, &r->leak);
	ok = ok && add_model(o, run, r);
	ok = ok && add_energy(o, run, r);
	ok = ok && hil_json_add_str(o, "status",
				    r->ok	     ? "ok"
				    : r->interrupted ? "interrupted"
				    : r->link_failed ? "link_failed"
						     : "failed");
	if (!r->ok) {
		ok = ok && hil_json_add_str(o, "error", r->error);
	}
	if (ok) {
		return o;
	}
fail:
	cJSON_Delete(o);
	return NULL;
}

char *hil_result_row_line(const struct hil_run *run, const struct hil_row *r)
{
	cJSON *o = hil_json_row_object(run, r);
	char *text;

	if (o == NULL) {
		return NULL;
	}
	text = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	return text;
}
