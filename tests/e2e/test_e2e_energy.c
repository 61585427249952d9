/* End-to-end test of energy per operation: the stub's real energy loop on QEMU, sampled through a simulated sensor (INA219, INA226) whose load follows the loop. */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <cjson/cJSON.h>
#include <dirent.h>
#include <math.h>

#include "e2e_util.h"
#include "util/err.h"
#include "util/proc.h"
#include "util/util.h"

/* The waveform of the simulated board: idle 10 mA, 25 mA while the stub
 * loops, 3.3 V at the shunt's load side. */
#define BUS_V	     3.3
#define IDLE_A	     0.010
#define ACTIVE_A     0.025
#define CLOCK_HZ     84000000.0 /* configs/base.json's board.clock_hz */
#define SIM_SPEC     "sim:ina219@0x40,idle_ma=10,active_ma=25,bus_v=3.3"
#define SIM_SPEC_226 "sim:ina226@0x40,idle_ma=10,active_ma=25,bus_v=3.3"
#define TOLERANCE    0.02

static char tmp[64];

/* Write a config into tmp/name.json; sensor is the "sensor" object's body
 * or NULL for none. */
static void write_config(const char *name, const char *sensor, char *path,
			 size_t len)
{
	FILE *f;

	snprintf(path, len, "%s/%s.json", tmp, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f,
		"{\"name\": \"%s\", \"board\": {\"name\": \"qemu-netduino\"},"
		" \"algorithms\": [\"ascon-aead128\", \"speck64-128-ecb\"],"
		" \"bench\": {\"operations\": [\"encrypt\"],"
		" \"lengths\": [16, 256], \"runs\": 50, \"warmup\": 2}%s%s%s}",
		name, sensor != NULL ? ", \"sensor\": {" : "",
		sensor != NULL ? sensor : "", sensor != NULL ? "}" : "");
	fclose(f);
}

/* Run hilrun on config into tmp/name; @return its exit status. */
static int run_hilrun(const char *config, const char *name, char *results,
		      size_t len)
{
	char *const argv[] = {(char *)e2e_hilrun_bin(),
			      "--config",
			      (char *)config,
			      "--results",
			      results,
			      NULL};
	char log[160];
	int status = -1;

	snprintf(results, len, "%s/%s", tmp, name);
	/* Its stdout and stderr in tmp/name.log. */
	snprintf(log, sizeof(log), "%s/%s.log", tmp, name);
	assert_int_equal(hil_proc_run(argv, log, 300000, &status), HIL_OK);
	return status;
}

static double num(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

	assert_true(cJSON_IsNumber(v));
	return v->valuedouble;
}

static const char *str(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

	assert_true(cJSON_IsString(v));
	return v->valuestring;
}

static void assert_near(double got, double want, double tol, const char *what)
{
	double rel = fabs(got - want) / want;

	if (!(rel <= tol)) {
		fail_msg("%s: %.6g, the waveform gives %.6g (off by %.2f%%)",
			 what, got, want, 100.0 * rel);
	}
}

/*
 * The report of a run on the simulated sensor of type: labelled a model,
 * and every row's energy what the waveform gives.
 */
static void check_energy_report(const char *results, const char *type)
{
	const cJSON *rows, *row, *sensor;
	cJSON *root;
	int n = 0;

	root = e2e_load_report(results);
	sensor = cJSON_GetObjectItemCaseSensitive(root, "sensor");
	assert_string_equal(str(sensor, "type"), type);
	/* A simulated sensor on an emulated board: said so, twice, with
	 * what it assumes and the cycle model's time (issue 31 item 4). */
	assert_string_equal(str(sensor, "kind"), "model");
	e2e_assert_contains(str(sensor, "time_basis"), "a model");
	e2e_assert_contains(str(sensor, "time_basis"),
			    "the cycle model's estimated cycles");
	e2e_assert_contains(str(sensor, "assumes"), "the sim bus's parameters");
	rows = cJSON_GetObjectItemCaseSensitive(root, "rows");
	cJSON_ArrayForEach(row, rows)
	{
		const cJSON *e =
			cJSON_GetObjectItemCaseSensitive(row, "energy");
		double op_s, median, ticks;

		assert_string_equal(str(row, "status"), "ok");
		assert_non_null(e);
		assert_string_equal(str(e, "status"), "ok");
		assert_string_equal(str(e, "kind"), "model");
		/* The loop is the stub's real one: one operation in it costs
		 * what the timed runs did, plus the loop's own few
		 * instructions, in the cycle model's cycles (not the
		 * emulated instructions) where the row has them. */
		assert_string_equal(str(e, "ticks"), "model cycles");
		median = num(
			cJSON_GetObjectItemCaseSensitive(row, "model_cycles"),
			"median");
		ticks = num(e, "ticks_per_op");
		assert_true(ticks >= median);
		assert_true(ticks <= median * 1.05 + 40.0);
		op_s = num(e, "op_seconds");
		assert_near(op_s, ticks / CLOCK_HZ, 1e-9, "op_seconds");
		assert_near(num(e, "uj_per_op"), BUS_V * ACTIVE_A * op_s * 1e6,
			    TOLERANCE, "uj_per_op");
		assert_near(num(e, "uj_per_op_dynamic"),
			    BUS_V * (ACTIVE_A - IDLE_A) * op_s * 1e6, TOLERANCE,
			    "uj_per_op_dynamic");
		assert_near(num(e, "active_mw"), BUS_V * ACTIVE_A * 1e3,
			    TOLERANCE, "active_mw");
		assert_near(num(e, "idle_mw"), BUS_V * IDLE_A * 1e3, TOLERANCE,
			    "idle_mw");
		assert_near(num(e, "bus_v"), BUS_V, TOLERANCE, "bus_v");
		/* No window of host time: one conversion with the load off,
		 * one with it on, whatever the host's load. */
		assert_int_equal((int)num(e, "windows"), 1);
		assert_int_equal((int)num(e, "samples"), 2);
		assert_true(num(e, "spread") >= 0.0);
		/* The datasheet estimate beside it, never in its place,
		 * with their ratio: what the first board run checks. */
		{
			const cJSON *x = cJSON_GetObjectItemCaseSensitive(
				row, "energy_estimate");

			assert_non_null(x);
			assert_string_equal(str(x, "kind"), "estimate");
			assert_string_equal(str(x, "table"),
					    "DS10086 Rev 3 Table 25 (p. 68)");
			assert_true(num(x, "uj_per_op") > 0);
			assert_true(num(x, "uj_high") >= num(x, "uj_per_op"));
			assert_near(num(x, "ratio"),
				    num(e, "uj_per_op") / num(x, "uj_per_op"),
				    1e-9, "ratio");
		}
		n++;
	}
	assert_string_equal(
		str(cJSON_GetObjectItemCaseSensitive(root, "energy_estimate"),
		    "role"),
		"beside");
	/* Two lengths of two algorithms, and Speck's key setup. */
	assert_int_equal(n, 5);
	cJSON_Delete(root);
}

static void test_energy_per_op_agrees_with_the_waveform(void **state)
{
	char config[128], results[128];

	(void)state;
	write_config("energy",
		     "\"type\": \"ina219\", \"bus\": \"" SIM_SPEC "\","
		     " \"shunt_ohm\": 0.1, \"max_current_a\": 0.4,"
		     " \"conversions\": 40, \"windows\": 3",
		     config, sizeof(config));
	assert_int_equal(run_hilrun(config, "energy", results, sizeof(results)),
			 0);
	check_energy_report(results, "ina219");
	/* The terminal: the simulated figure, the estimate beside it and
	 * their ratio, labelled. */
	{
		char log[160], *text = NULL;

		snprintf(log, sizeof(log), "%s/energy.log", tmp);
		assert_int_equal(hil_read_file(log, &text, NULL), HIL_OK);
		e2e_assert_contains(text, "uJ/op @16 (sim)");
		e2e_assert_contains(text, "est. uJ/op");
		e2e_assert_contains(text, "sim/est.");
		e2e_assert_contains(
			text,
			"est. uJ/op = the datasheet estimate beside it, never judged against it:");
		e2e_assert_contains(
			text, "  source: DS10086 Rev 3 Table 25 (p. 68).");
		free(text);
	}
}

/*
 * The same run through an INA226 (sensor.type and the sim bus's chip): the
 * energy phase takes whichever sensor the config names. 4 x 140 us per
 * channel: a cycle of 1.12 ms, about the INA219's.
 */
static void test_energy_through_an_ina226_agrees_too(void **state)
{
	char config[128], results[128];

	(void)state;
	write_config("energy226",
		     "\"type\": \"ina226\", \"bus\": \"" SIM_SPEC_226 "\","
		     " \"shunt_ohm\": 0.1, \"max_current_a\": 0.4,"
		     " \"averages\": 4, \"conversion_us\": 140,"
		     " \"conversions\": 40, \"windows\": 3",
		     config, sizeof(config));
	assert_int_equal(
		run_hilrun(config, "energy226", results, sizeof(results)), 0);
	check_energy_report(results, "ina226");
}

static void test_a_sensor_that_dies_mid_run_keeps_the_cycles(void **state)
{
	char config[128], results[128];
	const cJSON *rows, *row;
	cJSON *root;
	int failed = 0, n = 0;

	(void)state;
	/* A simulated sensor's row reads two conversions (load off, then
	 * on), polling for each: from 12 transactions a row (2 registers a
	 * read, 3 reads a conversion at least) to about 35; with the
	 * set-up's few the sensor dies in one of the five rows. */
	write_config("dead",
		     "\"type\": \"ina219\", \"bus\": \"" SIM_SPEC
		     ",dead_after=25\", \"conversions\": 40, \"windows\": 3",
		     config, sizeof(config));
	assert_int_equal(run_hilrun(config, "dead", results, sizeof(results)),
			 0);
	root = e2e_load_report(results);
	assert_string_equal(
		str(cJSON_GetObjectItemCaseSensitive(root, "run"), "status"),
		"complete");
	rows = cJSON_GetObjectItemCaseSensitive(root, "rows");
	cJSON_ArrayForEach(row, rows)
	{
		const cJSON *e =
			cJSON_GetObjectItemCaseSensitive(row, "energy");

		/* Every cycle figure is there... */
		assert_string_equal(str(row, "status"), "ok");
		assert_true(num(row, "median") > 0.0);
		assert_non_null(e);
		/* ...and every energy figure after the death is failed, with
		 * the reason. */
		if (strcmp(str(e, "status"), "failed") == 0) {
			e2e_assert_contains(str(e, "error"),
					    "stopped answering");
			assert_null(cJSON_GetObjectItemCaseSensitive(
				e, "uj_per_op"));
			failed++;
		} else {
			assert_int_equal(failed, 0);
		}
		n++;
	}
	assert_int_equal(n, 5);
	/* Once dead, every later row's energy is failed (checked above). */
	assert_true(failed >= 1);
	cJSON_Delete(root);
}

static void test_without_a_sensor_the_report_says_why(void **state)
{
	char config[128], results[128];
	const cJSON *rows, *row, *sensor, *est;
	cJSON *root;

	(void)state;
	write_config("none", NULL, config, sizeof(config));
	assert_int_equal(run_hilrun(config, "none", results, sizeof(results)),
			 0);
	root = e2e_load_report(results);
	sensor = cJSON_GetObjectItemCaseSensitive(root, "sensor");
	assert_string_equal(str(sensor, "type"), "none");
	e2e_assert_contains(str(sensor, "why"), "emulated board");
	/* Without a sensor: an estimate from the datasheet, labelled as one
	 * with its source, never passed off as measured. */
	est = cJSON_GetObjectItemCaseSensitive(root, "energy_estimate");
	assert_non_null(est);
	assert_string_equal(str(est, "kind"), "estimate");
	e2e_assert_contains(str(est, "source"), "STM32F401");
	e2e_assert_contains(str(est, "source"), "DS10086");
	e2e_assert_contains(str(est, "method"), "docs/method.md");
	rows = cJSON_GetObjectItemCaseSensitive(root, "rows");
	cJSON_ArrayForEach(row, rows)
	{
		const cJSON *e =
			cJSON_GetObjectItemCaseSensitive(row, "energy");

		assert_non_null(e);
		assert_string_equal(str(e, "kind"), "estimate");
		if (strcmp(str(e, "status"), "ok") == 0) {
			/* From the model's cycles at the configured clock. */
			assert_true(num(e, "uj_per_op") > 0);
			e2e_assert_contains(str(e, "source"), "DS10086");
			e2e_assert_contains(str(e, "cycles_from"),
					    "cycle model");
			assert_true(num(e, "clock_hz") == 84000000);
			/* Table 25: the stub's 84 MHz sets prefetch; the
			 * range from the same table. */
			assert_string_equal(str(e, "table"),
					    "DS10086 Rev 3 Table 25 (p. 68)");
			assert_true(num(e, "idd_ma") == 21.6);
			assert_true(num(e, "idd_high_ma") == 33.3);
			assert_true(num(e, "uj_high") > num(e, "uj_per_op"));
		} else {
			/* No figure: never a made-up number, and why. */
			assert_string_equal(str(e, "status"), "none");
			assert_null(cJSON_GetObjectItemCaseSensitive(
				e, "uj_per_op"));
			assert_true(strlen(str(e, "why")) > 0);
		}
	}
	cJSON_Delete(root);
}

static void test_a_missing_adapter_fails_fast_and_names_it(void **state)
{
	char config[128], out[4096];
	char *const argv[] = {(char *)e2e_hilrun_bin(),
			      "--config",
			      config,
			      "--results",
			      tmp,
			      NULL};
	uint64_t t0;
	int status = -1;

	(void)state;
	write_config(
		"noadapter",
		"\"type\": \"ina219\", \"bus\": \"ftdi:0403:6014:NOSUCH1\"",
		config, sizeof(config));
	t0 = e2e_ms_now();
	assert_int_equal(hil_proc_capture(argv, out, sizeof(out),
					  2 * E2E_HANG_MS, &status),
			 HIL_OK);
	assert_true(status != 0);
	assert_true(e2e_ms_now() - t0 < E2E_HANG_MS); /* a hang bound */
	e2e_assert_contains(out, "0403:6014");
}

static int setup(void **state)
{
	(void)state;
	snprintf(tmp, sizeof(tmp), "/tmp/hilrun-energy-XXXXXX");
	return mkdtemp(tmp) == NULL ? -1 : 0;
}

static int teardown(void **state)
{
	(void)state;
	e2e_remove_tree(tmp);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_energy_per_op_agrees_with_the_waveform),
		cmocka_unit_test(test_energy_through_an_ina226_agrees_too),
		cmocka_unit_test(
			test_a_sensor_that_dies_mid_run_keeps_the_cycles),
		cmocka_unit_test(test_without_a_sensor_the_report_says_why),
		cmocka_unit_test(
			test_a_missing_adapter_fails_fast_and_names_it),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
