/* json_leak: a row's timing-leak test in report.json: the counter's t and, on the emulated board, the cycle model's t of the same runs, each labelled with its own flag, and which of them flagged the row. */
#define HIL_LOG_PREFIX "report"
#include "rowjson.h"

#include <string.h>

#include <cjson/cJSON.h>

#include "result/rowcodec.h"
#include "result/run.h"

/* The same runs in the cycle model's estimated cycles: absent without. */
static int add_model(cJSON *leak, const struct hil_run *run,
		     const struct hil_row_leak *l)
{
	const struct hil_row_leak_stat *m = &l->model;
	cJSON *o;
	int ok;

	if (l->model_state == 0) {
		return 1;
	}
	o = cJSON_AddObjectToObject(leak, "model_cycles");
	ok = o != NULL;
	if (ok && l->model_state < 0) {
		ok = hil_json_add_str(o, "status", "failed");
		return ok && hil_json_add_str(o, "error", l->model_why);
	}
	ok = ok && hil_json_add_str(o, "status", "ok");
	ok = ok && hil_json_add_str(o, "unit", run->model.unit);
	ok = ok && (run->model.profile[0] != '\0'
			    ? hil_json_add_str(o, "profile", run->model.profile)
			    : cJSON_AddNullToObject(o, "profile") != NULL);
	ok = ok && hil_result_put_all(o, "leak.model_cycles", m);
	return ok;
}

/* Which statistics flagged the row: "counter", "model_cycles". */
static int add_flagged_by(cJSON *leak, const struct hil_row_leak *l)
{
	cJSON *a = cJSON_AddArrayToObject(leak, "flagged_by");
	cJSON *v;

	if (a == NULL) {
		return 0;
	}
	if (l->flagged) {
		v = cJSON_CreateString("counter");
		if (v == NULL) {
			return 0;
		}
		cJSON_AddItemToArray(a, v);
	}
	if (l->model_state > 0 && l->model.flagged) {
		v = cJSON_CreateString("model_cycles");
		if (v == NULL) {
			return 0;
		}
		cJSON_AddItemToArray(a, v);
	}
	return 1;
}

int hil_json_row_leak(cJSON *row, const struct hil_run *run,
		      const struct hil_row_leak *l)
{
	const int emulated =
		run->info.counter_unit == HILP_UNIT_INSTRUCTIONS_EMU;
	cJSON *o;
	int ok;

	if (l->state == 0) {
		return 1;
	}
	o = cJSON_AddObjectToObject(row, "leak");
	ok = o != NULL;
	if (ok && l->state < 0) {
		ok = hil_json_add_str(o, "status", "failed");
		return ok && hil_json_add_str(o, "error", l->error);
	}
	ok = ok && hil_json_add_str(o, "status", "ok");
	ok = ok &&
	     hil_json_add_str(
		     o, "method",
		     "dudect: fixed against random inputs in a random order, Welch's t");
	/* The row is flagged when either statistic is: flagged_by says
	 * which (empty: none). */
	ok = ok && add_flagged_by(o, l);
	ok = ok && hil_json_add_num(o, "threshold", HIL_LEAK_T_THRESHOLD);
	/* The counter's statistic, in the row's unit, with its own flag. */
	ok = ok &&
	     hil_json_add_str(o, "unit", hil_unit_name(run->info.counter_unit));
	ok = ok && hil_result_put_all(o, "leak", l);
	ok = ok && add_model(o, run, l);
	if (emulated && l->model_state > 0) {
		ok = ok &&
		     hil_json_add_str(
			     o, "note",
			     "emulated board: the instruction counts show only differences in the instructions executed (data-dependent branches, early exits); model_cycles gives the cycle model's estimate of the same runs, with its flash, prefetch and caches (data-dependent table lookups), not a measurement");
	} else if (emulated) {
		ok = ok &&
		     hil_json_add_str(
			     o, "note",
			     "emulated board: only differences in the instructions executed (data-dependent branches, early exits) are visible, not cache or timing effects");
	}
	return ok;
}
