/* Unit tests of the datasheet energy estimate: the arithmetic, linear interpolation in frequency, refusals outside the table, and which cycles a row's estimate uses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <math.h>

#include "run/energyest.h"
#include "util/err.h"
#include "hilp.h"
#include "run/run.h"

/* Made-up figures with easy arithmetic: NOT a datasheet's. */
static const struct hil_idd_point test_pts[] = {
	{16000000u, 5.0},
	{50000000u, 12.0},
	{84000000u, 19.0},
};
static const struct hil_idd_table test_table = {
	.chip = "TEST",
	.source = "test table",
	.conditions = "test conditions",
	.vdd = 3.3,
	.pts = test_pts,
	.n = 3,
	.missing = NULL,
};

static void assert_near(double got, double want, double tol)
{
	if (fabs(got - want) > tol) {
		print_error("got %.17g, want %.17g\n", got, want);
		fail();
	}
}

static void test_idd_at_a_datasheet_point_is_that_point(void **state)
{
	double ma = 0;

	(void)state;
	assert_int_equal(
		hil_energyest_idd(&test_table, 16000000u, &ma, NULL, 0),
		HIL_OK);
	assert_near(ma, 5.0, 0);
	assert_int_equal(
		hil_energyest_idd(&test_table, 84000000u, &ma, NULL, 0),
		HIL_OK);
	assert_near(ma, 19.0, 0);
}

static void test_idd_between_points_is_linear_in_frequency(void **state)
{
	double ma = 0;

	(void)state;
	/* 24 MHz: 5 + (12 - 5) x 8/34 */
	assert_int_equal(
		hil_energyest_idd(&test_table, 24000000u, &ma, NULL, 0),
		HIL_OK);
	assert_near(ma, 5.0 + 7.0 * 8.0 / 34.0, 1e-12);
	/* 67 MHz: halfway between 50 and 84 */
	assert_int_equal(
		hil_energyest_idd(&test_table, 67000000u, &ma, NULL, 0),
		HIL_OK);
	assert_near(ma, 15.5, 1e-12);
}

static void test_idd_outside_the_table_is_refused_not_extrapolated(void **state)
{
	double ma = -1;
	char why[256] = "";

	(void)state;
	assert_int_equal(
		hil_energyest_idd(&test_table, 8000000u, &ma, why, sizeof(why)),
		HIL_ERR_NA);
	assert_near(ma, -1, 0); /* untouched */
	assert_non_null(strstr(why, "outside the datasheet's table"));
	assert_non_null(strstr(why, "16 to 84 MHz"));
	assert_int_equal(hil_energyest_idd(&test_table, 100000000u, &ma, why,
					   sizeof(why)),
			 HIL_ERR_NA);
	assert_non_null(strstr(why, "100 MHz"));
}

static void test_table_without_figures_refuses_with_its_reason(void **state)
{
	const struct hil_idd_table empty = {.chip = "X",
					    .source = "s",
					    .vdd = 3.3,
					    .missing = "not transcribed"};
	double ma = 0;
	char why[128] = "";

	(void)state;
	assert_int_equal(
		hil_energyest_idd(&empty, 84000000u, &ma, why, sizeof(why)),
		HIL_ERR_NA);
	assert_string_equal(why, "not transcribed");
}

static void test_energy_is_vdd_times_idd_times_cycles_over_clock(void **state)
{
	struct hil_energy_est e;

	(void)state;
	/* 8400 cycles at 84 MHz = 100 us; 3.3 V x 19 mA x 100 us = 6.27 uJ */
	assert_int_equal(
		hil_energyest_compute(&test_table, 84000000u, 8400, &e),
		HIL_OK);
	assert_true(e.ok);
	assert_near(e.op_seconds, 100e-6, 1e-18);
	assert_near(e.idd_ma, 19.0, 0);
	assert_near(e.vdd, 3.3, 0);
	assert_near(e.uj_per_op, 6.27, 1e-9);
	/* 50 MHz, 1000 cycles = 20 us; 3.3 x 12 mA x 20 us = 0.792 uJ */
	assert_int_equal(
		hil_energyest_compute(&test_table, 50000000u, 1000, &e),
		HIL_OK);
	assert_near(e.uj_per_op, 0.792, 1e-12);
}

static void test_energy_without_cycles_or_clock_is_refused(void **state)
{
	struct hil_energy_est e;

	(void)state;
	assert_int_equal(hil_energyest_compute(&test_table, 84000000u, 0, &e),
			 HIL_ERR_NA);
	assert_false(e.ok);
	assert_non_null(strstr(e.why, "no cycles"));
	assert_int_equal(hil_energyest_compute(&test_table, 0, 100, &e),
			 HIL_ERR_NA);
	assert_non_null(strstr(e.why, "clock"));
	assert_int_equal(
		hil_energyest_compute(&test_table, 120000000u, 100, &e),
		HIL_ERR_NA);
	assert_false(e.ok);
	assert_non_null(strstr(e.why, "outside"));
}

static void test_boards_tables(void **state)
{
	const struct hil_idd_table *t = hil_energyest_table("nucleo-f401re");

	(void)state;
	assert_non_null(t);
	assert_string_equal(t->chip, "STM32F401xD/xE");
	assert_non_null(strstr(t->source, "DS10086"));
	assert_near(t->vdd, 3.3, 0);
	/* The emulated board stands in for the same chip. */
	assert_ptr_equal(hil_energyest_table("qemu-netduino"), t);
	assert_null(hil_energyest_table("native"));
	assert_null(hil_energyest_table(NULL));
}

/* A run of two rows: one with the model's estimate, one without. */
static void two_row_run(struct hil_run *run, struct hil_row *rows,
			struct hil_config *cfg, int emulated)
{
	memset(run, 0, sizeof(*run));
	memset(rows, 0, 2 * sizeof(*rows));
	memset(cfg, 0, sizeof(*cfg));
	snprintf(cfg->board.name, sizeof(cfg->board.name), "%s",
		 emulated ? "qemu-netduino" : "nucleo-f401re");
	cfg->board.clock_hz = 84000000u;
	run->cfg = cfg;
	run->rows = rows;
	run->n_rows = 2;
	snprintf(run->sensor.type, sizeof(run->sensor.type), "none");
	if (emulated) {
		run->info.flags = HILP_INFO_EMULATED;
		run->info.counter_unit = HILP_UNIT_INSTRUCTIONS_EMU;
		run->model.enabled = 1;
	} else {
		run->info.counter_unit = HILP_UNIT_CYCLES;
		run->info.clock_hz = 84000000u;
	}
	rows[0].ok = rows[1].ok = 1;
	rows[0].stats.median = 4200; /* instructions or DWT cycles */
	rows[1].stats.median = 4200;
	rows[0].model.ok = 1;
	rows[0].model.stats.median = 8400; /* estimated cycles */
}

static void test_emulated_rows_use_model_cycles_never_instructions(void **state)
{
	struct hil_run run;
	struct hil_row rows[2];
	struct hil_config cfg;

	(void)state;
	two_row_run(&run, rows, &cfg, 1);
	hil_energyest_apply_table(&run, &test_table);
	assert_true(run.energy_est.applies);
	assert_string_equal(run.energy_est.source, "test table");
	assert_non_null(strstr(run.energy_est.assumptions, "cycle model"));
	assert_true(rows[0].est.ok);
	assert_near(rows[0].est.cycles, 8400, 0);
	assert_near(rows[0].est.uj_per_op, 6.27, 1e-9);
	/* No model figure: no estimate, and it says why. */
	assert_false(rows[1].est.ok);
	assert_non_null(strstr(rows[1].est.why, "no cycle estimate"));
	assert_string_equal(run.energy_est.why, "");
}

static void test_board_rows_use_dwt_cycles(void **state)
{
	struct hil_run run;
	struct hil_row rows[2];
	struct hil_config cfg;

	(void)state;
	two_row_run(&run, rows, &cfg, 0);
	hil_energyest_apply_table(&run, &test_table);
	assert_true(rows[0].est.ok && rows[1].est.ok);
	assert_near(rows[1].est.cycles, 4200, 0);
	assert_near(rows[1].est.uj_per_op, 3.135, 1e-9);
	assert_non_null(strstr(run.energy_est.assumptions, "DWT"));
}

static void test_a_sensor_run_gets_no_estimate(void **state)
{
	struct hil_run run;
	struct hil_row rows[2];
	struct hil_config cfg;

	(void)state;
	two_row_run(&run, rows, &cfg, 0);
	snprintf(run.sensor.type, sizeof(run.sensor.type), "ina219");
	hil_energyest_apply_table(&run, &test_table);
	assert_false(run.energy_est.applies);
	assert_false(rows[0].est.ok || rows[1].est.ok);
}

static void test_the_bundled_table_says_why_there_is_no_figure(void **state)
{
	struct hil_run run;
	struct hil_row rows[2];
	struct hil_config cfg;

	(void)state;
	two_row_run(&run, rows, &cfg, 0);
	hil_energyest_apply(&run);
	assert_true(run.energy_est.applies);
	assert_non_null(strstr(run.energy_est.source, "DS10086"));
	if (!rows[0].est.ok) {
		/* Until DS10086's figures are transcribed, each row says so. */
		assert_non_null(strstr(rows[0].est.why, "DS10086"));
		assert_non_null(strstr(run.energy_est.why, "DS10086"));
	}
	snprintf(cfg.board.name, sizeof(cfg.board.name), "native");
	hil_energyest_apply(&run);
	assert_false(rows[0].est.ok);
	assert_non_null(strstr(rows[0].est.why, "no datasheet"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_idd_at_a_datasheet_point_is_that_point),
		cmocka_unit_test(
			test_idd_between_points_is_linear_in_frequency),
		cmocka_unit_test(
			test_idd_outside_the_table_is_refused_not_extrapolated),
		cmocka_unit_test(
			test_table_without_figures_refuses_with_its_reason),
		cmocka_unit_test(
			test_energy_is_vdd_times_idd_times_cycles_over_clock),
		cmocka_unit_test(
			test_energy_without_cycles_or_clock_is_refused),
		cmocka_unit_test(test_boards_tables),
		cmocka_unit_test(
			test_emulated_rows_use_model_cycles_never_instructions),
		cmocka_unit_test(test_board_rows_use_dwt_cycles),
		cmocka_unit_test(test_a_sensor_run_gets_no_estimate),
		cmocka_unit_test(
			test_the_bundled_table_says_why_there_is_no_figure),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
