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

#include "drivers/board/board.h"
#include "drivers/board/stm32f401.h"
#include "run/energyest.h"
#include "util/err.h"
#include "hilp.h"
#include "result/run.h"

/* Made-up figures with easy arithmetic: NOT a datasheet's. */
static const struct hil_idd_point test_pts[] = {
	{.hz = 16000000u, .ma = 5.0},
	{.hz = 50000000u, .ma = 12.0},
	{.hz = 84000000u, .ma = 19.0},
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
	/* The stub's default at 84 MHz sets PRFTEN: Table 25. */
	assert_ptr_equal(t, &hil_stm32f401_t25);
	assert_string_equal(t->table, "DS10086 Rev 3 Table 25 (p. 68)");
	/* The emulated board stands in for the same chip. */
	assert_ptr_equal(hil_energyest_table("qemu-netduino"), t);
	assert_null(hil_energyest_table("native"));
	assert_null(hil_energyest_table(NULL));
	/* No table read for these two: each says why. */
	assert_null(hil_energyest_table("nucleo-l476rg"));
	assert_non_null(
		strstr(hil_board_find("nucleo-l476rg")->run_current_missing,
		       "DS10198"));
	assert_null(hil_energyest_table("nrf52840-dk"));
	assert_non_null(
		strstr(hil_board_find("nrf52840-dk")->run_current_missing,
		       "Product Specification"));
}

/*
 * DS10086 Rev 3, Tables 20 to 25, read again from the PDF (pdftotext
 * -layout) apart from the driver's data, in the datasheet's own layout.
 */
struct ds_row {
	int enabled; /* all peripherals enabled (1) or disabled (0) */
	unsigned mhz;
	double typ, max25, max85, max105;
};

/* Table 20: all peripherals enabled, then disabled; per row f_HCLK in MHz,
 * typ 25 C, max 25 / 85 / 105 C. */
static const struct ds_row t20[] = {
	{1, 84, 21.8, 23.1, 24.1, 25.3}, {1, 60, 15.8, 16.5, 17.5, 18.7},
	{1, 40, 11.4, 11.9, 12.9, 13.9}, {1, 20, 6.0, 6.3, 7.3, 8.3},
	{0, 84, 12.7, 13.5, 14.5, 16.3}, {0, 60, 9.2, 10.5, 11.5, 12.8},
	{0, 40, 6.7, 7.1, 8.1, 9.1},	 {0, 20, 3.6, 3.8, 4.8, 5.8},
};

/* Table 21: all peripherals enabled, then disabled; per row f_HCLK in MHz,
 * typ 25 C, max 25 / 85 / 105 C. */
static const struct ds_row t21[] = {
	{1, 84, 22.0, 23.1, 24.1, 25.3}, {1, 60, 16.0, 16.9, 17.9, 19.8},
	{1, 40, 11.6, 12.1, 13.1, 14.1}, {1, 20, 6.2, 6.5, 7.5, 8.5},
	{0, 84, 12.9, 14.0, 15.0, 16.3}, {0, 60, 9.5, 10.5, 11.5, 12.8},
	{0, 40, 6.9, 7.3, 8.3, 9.3},	 {0, 20, 3.8, 4.0, 5.0, 6.0},
};

/* Table 22: all peripherals enabled, then disabled; per row f_HCLK in MHz,
 * typ 25 C, max 25 / 85 / 105 C. */
static const struct ds_row t22[] = {
	{1, 84, 23.2, 24.5, 25.6, 26.6}, {1, 60, 15.1, 16.3, 17.4, 18.4},
	{1, 40, 10.8, 12.1, 13.2, 14.2}, {1, 30, 8.8, 10.0, 11.1, 12.2},
	{1, 20, 6.9, 8.0, 9.0, 10.1},	 {0, 84, 12.3, 13.6, 14.7, 15.7},
	{0, 60, 8.2, 9.4, 10.5, 11.5},	 {0, 40, 6.0, 7.3, 8.3, 9.4},
	{0, 30, 4.9, 6.2, 7.2, 8.3},	 {0, 20, 4.0, 5.1, 6.1, 7.2},
};

/* Table 23: all peripherals enabled, then disabled; per row f_HCLK in MHz,
 * typ 25 C, max 25 / 85 / 105 C. */
static const struct ds_row t23[] = {
	{1, 84, 23.4, 24.7, 25.8, 26.8}, {1, 60, 15.3, 16.5, 17.6, 18.6},
	{1, 40, 11.0, 12.3, 13.4, 14.4}, {1, 30, 9.0, 10.2, 11.3, 12.4},
	{1, 20, 7.1, 8.2, 9.2, 10.3},	 {0, 84, 12.5, 13.8, 14.9, 15.9},
	{0, 60, 8.4, 9.6, 10.7, 11.7},	 {0, 40, 6.2, 7.5, 8.5, 9.6},
	{0, 30, 5.1, 6.4, 7.4, 8.5},	 {0, 20, 4.2, 5.3, 6.3, 7.4},
};

/* Table 24: all peripherals enabled, then disabled; per row f_HCLK in MHz,
 * typ 25 C, max 25 / 85 / 105 C. */
static const struct ds_row t24[] = {
	{1, 84, 31.1, 32.2, 34.3, 36.3}, {1, 60, 21.7, 22.1, 23.2, 24.2},
	{1, 40, 15.5, 16.1, 17.1, 18.1}, {1, 30, 12.6, 13.1, 14.1, 15.1},
	{1, 20, 9.8, 10.1, 11.1, 12.1},	 {0, 84, 20.2, 21.3, 23.4, 25.4},
	{0, 60, 14.9, 15.3, 16.3, 17.3}, {0, 40, 10.6, 11.2, 12.2, 13.3},
	{0, 30, 8.8, 9.2, 10.2, 11.2},	 {0, 20, 6.9, 7.2, 8.2, 9.2},
};

/* Table 25: all peripherals enabled, then disabled; per row f_HCLK in MHz,
 * typ 25 C, max 25 / 85 / 105 C. */
static const struct ds_row t25[] = {
	{1, 84, 32.5, 33.3, 34.3, 35.4}, {1, 60, 22.2, 23.3, 24.3, 25.3},
	{1, 40, 16.0, 17.1, 18.1, 19.2}, {1, 30, 12.9, 14.1, 15.1, 16.1},
	{1, 20, 10.2, 11.1, 12.1, 13.1}, {0, 84, 21.6, 22.4, 23.5, 24.5},
	{0, 60, 15.3, 16.4, 17.4, 18.4}, {0, 40, 11.2, 12.3, 13.3, 14.3},
	{0, 30, 9.0, 10.2, 11.2, 12.3},	 {0, 20, 7.3, 8.2, 9.2, 10.2},
};

static void check_table(const struct hil_idd_table *t,
			const struct ds_row *rows, size_t n)
{
	size_t i, j;

	assert_int_equal(t->n * 2, n);
	for (i = 0; i < n; i++) {
		const struct ds_row *d = &rows[i];
		const struct hil_idd_point *p = NULL;

		for (j = 0; j < t->n; j++) {
			if (t->pts[j].hz == d->mhz * 1000000u) {
				p = &t->pts[j];
			}
		}
		if (p == NULL) {
			print_error("%s: no point at %u MHz\n", t->table,
				    d->mhz);
			fail();
		}
		if (d->enabled) {
			assert_near(p->on_typ, d->typ, 0);
			assert_near(p->on_max25, d->max25, 0);
			assert_near(p->on_max85, d->max85, 0);
			assert_near(p->on_max105, d->max105, 0);
		} else {
			assert_near(p->ma, d->typ, 0);
			assert_near(p->max25, d->max25, 0);
			assert_near(p->max85, d->max85, 0);
			assert_near(p->max105, d->max105, 0);
		}
	}
	for (j = 1; j < t->n; j++) {
		assert_true(t->pts[j - 1].hz < t->pts[j].hz);
	}
}

static void test_every_ds10086_figure_is_transcribed(void **state)
{
	(void)state;
	check_table(&hil_stm32f401_t20, t20, sizeof(t20) / sizeof(t20[0]));
	check_table(&hil_stm32f401_t21, t21, sizeof(t21) / sizeof(t21[0]));
	check_table(&hil_stm32f401_t22, t22, sizeof(t22) / sizeof(t22[0]));
	check_table(&hil_stm32f401_t23, t23, sizeof(t23) / sizeof(t23[0]));
	check_table(&hil_stm32f401_t24, t24, sizeof(t24) / sizeof(t24[0]));
	check_table(&hil_stm32f401_t25, t25, sizeof(t25) / sizeof(t25[0]));
	/* What each table was measured with, as its title says. */
	assert_true(hil_stm32f401_t20.sram && hil_stm32f401_t21.sram);
	assert_near(hil_stm32f401_t20.vdd, 1.7, 0);
	assert_near(hil_stm32f401_t22.vdd, 1.7, 0);
	assert_near(hil_stm32f401_t23.vdd, 3.3, 0);
	assert_true(hil_stm32f401_t23.art && !hil_stm32f401_t23.prefetch);
	assert_true(!hil_stm32f401_t24.art && !hil_stm32f401_t24.prefetch);
	assert_true(hil_stm32f401_t25.art && hil_stm32f401_t25.prefetch);
	assert_non_null(strstr(hil_stm32f401_t23.table, "Table 23 (p. 67)"));
	assert_non_null(strstr(hil_stm32f401_t24.table, "Table 24 (p. 68)"));
	assert_non_null(strstr(hil_stm32f401_t21.table, "Table 21 (p. 66)"));
}

static void test_the_table_follows_the_flash_configuration(void **state)
{
	struct hil_idd_want w = {3.3, 1, 1};
	char why[256] = "";

	(void)state;
	assert_ptr_equal(
		hil_energyest_pick(hil_stm32f401_run_current, &w, NULL, 0),
		&hil_stm32f401_t25);
	w.prefetch = 0;
	assert_ptr_equal(
		hil_energyest_pick(hil_stm32f401_run_current, &w, NULL, 0),
		&hil_stm32f401_t23);
	w.art = 0;
	assert_ptr_equal(
		hil_energyest_pick(hil_stm32f401_run_current, &w, NULL, 0),
		&hil_stm32f401_t24);
	w.art = 1;
	w.vdd = 1.7;
	assert_ptr_equal(
		hil_energyest_pick(hil_stm32f401_run_current, &w, NULL, 0),
		&hil_stm32f401_t22);
	/* Prefetch without the caches: no table has it. */
	w.vdd = 3.3;
	w.art = 0;
	w.prefetch = 1;
	assert_null(hil_energyest_pick(hil_stm32f401_run_current, &w, why,
				       sizeof(why)));
	assert_non_null(strstr(why, "prefetch on"));
}

/* Prefetch costs 73 % more current at 84 MHz for the same cycles. */
static void test_prefetch_on_and_off_at_84_mhz(void **state)
{
	struct hil_energy_est on, off;

	(void)state;
	assert_int_equal(
		hil_energyest_compute(&hil_stm32f401_t25, 84000000u, 8400, &on),
		HIL_OK);
	assert_int_equal(hil_energyest_compute(&hil_stm32f401_t23, 84000000u,
					       8400, &off),
			 HIL_OK);
	/* 8400 cycles = 100 us: 3.3 V x 21.6 mA x 100 us, 3.3 x 12.5 x 100. */
	assert_near(on.uj_per_op, 7.128, 1e-9);
	assert_near(off.uj_per_op, 4.125, 1e-9);
	/* The range: to the maximum at 25 C with all peripherals on. */
	assert_near(on.uj_lo, 7.128, 1e-9);
	assert_near(on.uj_hi, 3.3 * 33.3 * 0.1, 1e-9);
	assert_near(off.uj_hi, 3.3 * 24.7 * 0.1, 1e-9);
	assert_near(on.idd_hi_ma, 33.3, 0);
}

/* 24 MHz is no point of the tables: linear between 20 and 30 MHz. */
static void test_24_mhz_is_interpolated_in_table_23(void **state)
{
	double ma = 0;

	(void)state;
	assert_false(hil_energyest_tabulated(&hil_stm32f401_t23, 24000000u));
	assert_true(hil_energyest_tabulated(&hil_stm32f401_t23, 84000000u));
	assert_int_equal(
		hil_energyest_idd(&hil_stm32f401_t23, 24000000u, &ma, NULL, 0),
		HIL_OK);
	assert_near(ma, 4.2 + (5.1 - 4.2) * 0.4, 1e-12);
	assert_int_equal(hil_energyest_idd_col(&hil_stm32f401_t23, 24000000u,
					       HIL_IDD_ON_MAX25, &ma, NULL, 0),
			 HIL_OK);
	assert_near(ma, 8.2 + (10.2 - 8.2) * 0.4, 1e-12);
	/* 16 MHz is below the tables: refused, never extrapolated. */
	assert_int_equal(
		hil_energyest_idd(&hil_stm32f401_t23, 16000000u, &ma, NULL, 0),
		HIL_ERR_NA);
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
	struct hil_config cfg = {0};

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
	hil_config_free(&cfg);
}

static void test_board_rows_use_dwt_cycles(void **state)
{
	struct hil_run run;
	struct hil_row rows[2];
	struct hil_config cfg = {0};

	(void)state;
	two_row_run(&run, rows, &cfg, 0);
	hil_energyest_apply_table(&run, &test_table);
	assert_true(rows[0].est.ok && rows[1].est.ok);
	assert_near(rows[1].est.cycles, 4200, 0);
	assert_near(rows[1].est.uj_per_op, 3.135, 1e-9);
	assert_non_null(strstr(run.energy_est.assumptions, "DWT"));
	hil_config_free(&cfg);
}

static void test_a_sensor_run_gets_the_estimate_beside_it(void **state)
{
	struct hil_run run;
	struct hil_row rows[2];
	struct hil_config cfg = {0};

	(void)state;
	two_row_run(&run, rows, &cfg, 0);
	snprintf(run.sensor.type, sizeof(run.sensor.type), "ina219");
	rows[0].energy.state = HIL_ENERGY_OK;
	rows[0].energy.uj_per_op = 5.0;
	hil_energyest_apply_table(&run, &test_table);
	/* Never in the energy column, always beside the sensor's figure. */
	assert_false(run.energy_est.applies);
	assert_true(run.energy_est.beside);
	assert_true(rows[0].est.ok && rows[1].est.ok);
	assert_near(rows[0].est.uj_per_op, 3.135, 1e-9);
	assert_int_equal(rows[0].energy.state, HIL_ENERGY_OK);
	assert_near(rows[0].energy.uj_per_op, 5.0, 0);
	hil_config_free(&cfg);
}

static void test_the_bundled_table_says_which_table(void **state)
{
	struct hil_run run;
	struct hil_row rows[2];
	struct hil_config cfg = {0};

	(void)state;
	two_row_run(&run, rows, &cfg, 0);
	/* The Nucleo's stub reports FLASH_ACR 0x702 at 84 MHz. */
	run.info.flash_acr = 0x702;
	hil_energyest_apply(&run);
	assert_true(run.energy_est.applies);
	assert_string_equal(run.energy_est.table,
			    "DS10086 Rev 3 Table 25 (p. 68)");
	assert_true(rows[1].est.ok);
	assert_near(rows[1].est.idd_ma, 21.6, 0);
	/* Built with HIL_PREFETCH=0: 0x602, Table 23. */
	run.info.flash_acr = 0x602;
	hil_energyest_apply(&run);
	assert_string_equal(run.energy_est.table,
			    "DS10086 Rev 3 Table 23 (p. 67)");
	assert_near(rows[1].est.idd_ma, 12.5, 0);
	snprintf(cfg.board.name, sizeof(cfg.board.name), "native");
	hil_energyest_apply(&run);
	assert_false(rows[0].est.ok);
	assert_non_null(strstr(rows[0].est.why, "no datasheet"));
	snprintf(cfg.board.name, sizeof(cfg.board.name), "nucleo-l476rg");
	hil_energyest_apply(&run);
	assert_false(rows[0].est.ok);
	assert_non_null(strstr(rows[0].est.why, "DS10198"));
	hil_config_free(&cfg);
}

/* The emulated board: the model's profile says what the flash does. */
static void test_the_emulated_board_takes_the_models_profile(void **state)
{
	struct hil_run run;
	struct hil_row rows[2];
	struct hil_config cfg = {0};

	(void)state;
	two_row_run(&run, rows, &cfg, 1);
	snprintf(run.model.profile, sizeof(run.model.profile), "%s",
		 "stm32f401-art");
	run.model.art = 1;
	run.model.ws = 2;
	hil_energyest_apply(&run);
	assert_string_equal(run.energy_est.table,
			    "DS10086 Rev 3 Table 25 (p. 68)");
	snprintf(run.model.profile, sizeof(run.model.profile), "%s",
		 "stm32f401-art-noprefetch");
	hil_energyest_apply(&run);
	assert_string_equal(run.energy_est.table,
			    "DS10086 Rev 3 Table 23 (p. 67)");
	/* 8400 estimated cycles at 84 MHz: 3.3 V x 12.5 mA x 100 us. */
	assert_near(rows[0].est.uj_per_op, 4.125, 1e-9);
	run.model.art = 0; /* cycle_model.art false: the ART off */
	hil_energyest_apply(&run);
	assert_string_equal(run.energy_est.table,
			    "DS10086 Rev 3 Table 24 (p. 68)");
	hil_config_free(&cfg);
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
		cmocka_unit_test(test_a_sensor_run_gets_the_estimate_beside_it),
		cmocka_unit_test(test_the_bundled_table_says_which_table),
		cmocka_unit_test(
			test_the_emulated_board_takes_the_models_profile),
		cmocka_unit_test(test_every_ds10086_figure_is_transcribed),
		cmocka_unit_test(
			test_the_table_follows_the_flash_configuration),
		cmocka_unit_test(test_prefetch_on_and_off_at_84_mhz),
		cmocka_unit_test(test_24_mhz_is_interpolated_in_table_23),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
