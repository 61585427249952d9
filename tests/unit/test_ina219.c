/* test_ina219: the INA219 driver against the simulated bus: calibration per the datasheet, exact readings, overflow, conversion-ready, a dead sensor; and the model itself. */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "util/err.h"
#include "drivers/i2c/i2c.h"
#include "drivers/sensor/ina219.h"
#include "drivers/sensor/ina219_model.h"
#include "sim_model.h"
#include "unit_util.h"

/* ---- helpers ---- */

/* A clock the test moves by hand. */
struct manual_clock {
	uint64_t us;
};

static uint64_t manual_now(void *ctx)
{
	return ((struct manual_clock *)ctx)->us;
}

static struct hil_i2c_bus *sim_bus(const char *spec)
{
	return ut_sim_bus(spec, 0, NULL);
}

/* ---- calibration (no chip) ---- */

/*
 * The datasheet's own worked example (SBOS448 Table 3 "Configure/Measure/
 * Calculate Example"): 10 A load, VCM 12 V, R_shunt 2 mOhm, shunt FSR
 * 40 mV, bus 16 V; Current_LSB chosen 1 mA: configuration 019Fh,
 * calibration 5000h (20480), Power_LSB 20 mW.
 */
static void test_calc_matches_datasheet_example(void **state)
{
	struct ina219_config cfg;
	struct ina2xx_setup su;

	(void)state;
	ina219_config_default(&cfg);
	cfg.shunt_ohm = 0.002;
	cfg.max_current_a = 10.0;
	cfg.current_lsb_a = 0.001;
	cfg.bus_range_v = 16;
	cfg.pga_div = 1;
	assert_int_equal(ina219_calc(&cfg, &su), HIL_OK);
	assert_int_equal(su.config, 0x019F);
	assert_int_equal(su.cal, 0x5000);
	assert_true(su.eff_lsb_a == 0.001);
	assert_true(su.power_lsb_w > 0.02 * (1 - 1e-12) &&
		    su.power_lsb_w < 0.02 * (1 + 1e-12));
	assert_int_equal(su.cycle_us, 532 + 532);
	/* PGA chosen automatically: 10 A x 2 mOhm = 20 mV fits /1. */
	cfg.pga_div = 0;
	assert_int_equal(ina219_calc(&cfg, &su), HIL_OK);
	assert_int_equal(su.pga_div, 1);
	assert_int_equal(su.config, 0x019F);
	/* Without the chosen LSB: 10 A / 2^15 = 305 uA, rounded up: 500 uA. */
	cfg.current_lsb_a = 0.0;
	assert_int_equal(ina219_calc(&cfg, &su), HIL_OK);
	assert_true(su.current_lsb_a == 0.0005);
	assert_int_equal(su.cal, 40960);
}

/*
 * 0.1 ohm / 3.2 A by the same procedure: 320 mV needs PGA /8; with the 32 V
 * range and 12-bit conversions that is the power-on value 399Fh.
 * Current_LSB = 3.2 / 32768 = 97.65625 uA: rounded up to 100 uA gives
 * Cal = 0.04096 / (100 uA x 0.1) = 4096 (1000h); used exactly it gives
 * trunc(4194.304) = 4194.
 */
static void test_calc_0p1_ohm_3p2_a(void **state)
{
	struct ina219_config cfg;
	struct ina2xx_setup su;

	(void)state;
	ina219_config_default(&cfg);
	cfg.shunt_ohm = 0.1;
	cfg.max_current_a = 3.2;
	assert_int_equal(ina219_calc(&cfg, &su), HIL_OK);
	assert_int_equal(su.config, 0x399F);
	assert_int_equal(su.pga_div, 8);
	assert_true(su.current_lsb_a == 0.0001);
	assert_int_equal(su.cal, 4096);
	assert_true(su.power_lsb_w > 0.002 * (1 - 1e-12) &&
		    su.power_lsb_w < 0.002 * (1 + 1e-12));
	cfg.lsb_exact = 1;
	assert_int_equal(ina219_calc(&cfg, &su), HIL_OK);
	assert_true(su.current_lsb_a == 3.2 / 32768.0);
	assert_int_equal(su.cal, 4194);
}

/*
 * 0.1 ohm / 0.4 A: 40 mV fits PGA /1; with the 16 V range the configuration
 * is 019Fh, as in the datasheet's example. Current_LSB = 0.4 / 32768 =
 * 12.2 uA: rounded up to 20 uA, Cal = 20480; exactly, trunc(33554.432) =
 * 33554.
 */
static void test_calc_0p1_ohm_0p4_a(void **state)
{
	struct ina219_config cfg;
	struct ina2xx_setup su;

	(void)state;
	ina219_config_default(&cfg);
	cfg.shunt_ohm = 0.1;
	cfg.max_current_a = 0.4;
	cfg.bus_range_v = 16;
	assert_int_equal(ina219_calc(&cfg, &su), HIL_OK);
	assert_int_equal(su.config, 0x019F);
	assert_int_equal(su.pga_div, 1);
	assert_true(su.current_lsb_a == 0.00002);
	assert_int_equal(su.cal, 20480);
	cfg.lsb_exact = 1;
	assert_int_equal(ina219_calc(&cfg, &su), HIL_OK);
	assert_int_equal(su.cal, 33554);
}

static void test_calc_adc_settings_and_timing(void **state)
{
	struct ina219_config cfg;
	struct ina2xx_setup su;

	(void)state;
	ina219_config_default(&cfg);
	cfg.bus_bits = 9;
	cfg.shunt_bits = 10;
	assert_int_equal(ina219_calc(&cfg, &su), HIL_OK);
	assert_int_equal((su.config >> 7) & 0xF, 0x0);
	assert_int_equal((su.config >> 3) & 0xF, 0x1);
	assert_int_equal(su.cycle_us, 84 + 148);
	cfg.bus_samples = 128;
	cfg.bus_bits = 12;
	cfg.shunt_samples = 2;
	cfg.shunt_bits = 12;
	assert_int_equal(ina219_calc(&cfg, &su), HIL_OK);
	assert_int_equal((su.config >> 7) & 0xF, 0xF);
	assert_int_equal((su.config >> 3) & 0xF, 0x9);
	assert_int_equal(su.cycle_us, 68100 + 1060);
	cfg.mode = INA219_MODE_SHUNT_CONTINUOUS;
	assert_int_equal(ina219_calc(&cfg, &su), HIL_OK);
	assert_int_equal(su.cycle_us, 1060);
	assert_int_equal(ina219_adc_us(11, 1), 276);
	assert_int_equal(ina219_adc_us(12, 64), 34050);
}

static void test_calc_rejects_bad_configs(void **state)
{
	struct ina219_config cfg;
	struct ina2xx_setup su;

	(void)state;
	ina219_config_default(&cfg);
	cfg.shunt_ohm = 0.0;
	assert_int_equal(ina219_calc(&cfg, &su), HIL_ERR_CONFIG);
	ina219_config_default(&cfg);
	cfg.max_current_a = 4.0; /* 400 mV over 0.1 ohm: beyond 320 mV */
	assert_int_equal(ina219_calc(&cfg, &su), HIL_ERR_CONFIG);
	ina219_config_default(&cfg);
	cfg.max_current_a = 1.0;
	cfg.pga_div = 1; /* 100 mV does not fit +-40 mV */
	assert_int_equal(ina219_calc(&cfg, &su), HIL_ERR_CONFIG);
	ina219_config_default(&cfg);
	cfg.shunt_samples = 3;
	assert_int_equal(ina219_calc(&cfg, &su), HIL_ERR_CONFIG);
	ina219_config_default(&cfg);
	cfg.bus_bits = 10;
	cfg.bus_samples = 4; /* averaging is 12-bit only */
	assert_int_equal(ina219_calc(&cfg, &su), HIL_ERR_CONFIG);
	ina219_config_default(&cfg);
	cfg.bus_range_v = 20;
	assert_int_equal(ina219_calc(&cfg, &su), HIL_ERR_CONFIG);
	ina219_config_default(&cfg);
	cfg.current_lsb_a = 1e-7; /* Cal = 4096000: does not fit */
	assert_int_equal(ina219_calc(&cfg, &su), HIL_ERR_CONFIG);
}

/* ---- the driver on the simulated bus ---- */

/* Table 3 again, now measured: every register as the datasheet lists it. */
static void test_read_datasheet_example_registers(void **state)
{
	struct hil_i2c_bus *bus = sim_bus("sim:ina219@0x40,shunt=0.002");
	struct hil_regmodel *m = hil_i2c_sim_model(bus, "ina219");
	struct ina219_config cfg;
	struct ina219_reading r;
	struct ina219 *dev;

	(void)state;
	ut_model_constant(m, 11.98, 10.0); /* 12 V common mode minus 20 mV */
	ina219_config_default(&cfg);
	cfg.shunt_ohm = 0.002;
	cfg.max_current_a = 10.0;
	cfg.current_lsb_a = 0.001;
	cfg.bus_range_v = 16;
	assert_int_equal(ina219_open(&dev, bus, &cfg), HIL_OK);
	assert_int_equal(ina219_wait_ready(dev, 100), HIL_OK);
	assert_int_equal(ina219_read(dev, &r), HIL_OK);
	assert_int_equal(r.raw_shunt, 0x07D0);	     /* 2000 x 10 uV */
	assert_int_equal(r.raw_bus & ~0x3u, 0x5D98); /* 2995 x 4 mV */
	assert_int_equal(r.raw_current, 0x2710);     /* 10000 x 1 mA */
	assert_int_equal(r.raw_power, 0x1766);	     /* 5990 x 20 mW */
	assert_int_equal(r.shunt_uv, 20000);
	assert_int_equal(r.bus_mv, 11980);
	assert_int_equal(r.current_ua, 10000000);
	assert_int_equal(r.power_uw, 119800000);
	assert_int_equal(r.cnvr, 1);
	ina219_close(dev);
	hil_i2c_close(bus);
}

static void test_read_constant_waveform_exact_to_the_lsb(void **state)
{
	struct hil_i2c_bus *bus = sim_bus("sim:ina219@0x40");
	struct hil_regmodel *m = hil_i2c_sim_model(bus, "ina219");
	struct ina219_config cfg;
	struct ina219_reading r;
	struct ina219 *dev;

	(void)state;
	ut_model_constant(m, 3.3, 0.025);
	ina219_config_default(&cfg); /* 0.1 ohm, 3.2 A: LSB 100 uA, 2 mW */
	assert_int_equal(ina219_open(&dev, bus, &cfg), HIL_OK);
	assert_int_equal(ina219_wait_ready(dev, 100), HIL_OK);
	assert_int_equal(ina219_read(dev, &r), HIL_OK);
	assert_int_equal(r.shunt_uv, 2500);   /* 250 LSB */
	assert_int_equal(r.bus_mv, 3300);     /* 825 LSB */
	assert_int_equal(r.raw_current, 250); /* 2500 uV x 4096 / 4096 */
	assert_int_equal(r.current_ua, 25000);
	assert_int_equal(r.raw_power, 41);   /* 250 x 825 / 5000 = 41.25 */
	assert_int_equal(r.power_uw, 82000); /* 41 x 2 mW */
	/* The sampler's reading: same shunt and bus, current from the shunt. */
	assert_int_equal(ina219_wait_ready(dev, 100), HIL_OK);
	assert_int_equal(ina219_sample(dev, &r), HIL_OK);
	assert_int_equal(r.shunt_uv, 2500);
	assert_int_equal(r.bus_mv, 3300);
	assert_int_equal(r.current_ua, 25000);
	/* A reverse current reads negative; power stays positive. */
	ut_model_constant(m, 3.3, -0.010);
	assert_int_equal(ina219_wait_ready(dev, 100), HIL_OK);
	assert_int_equal(ina219_read(dev, &r), HIL_OK);
	assert_int_equal(r.shunt_uv, -1000);
	assert_int_equal(r.current_ua, -10000);
	assert_int_equal(r.raw_power, 16); /* 100 x 825 / 5000 = 16.5 */
	ina219_close(dev);
	hil_i2c_close(bus);
}

static void test_overflow_flag_is_an_error_naming_it(void **state)
{
	struct hil_i2c_bus *bus = sim_bus("sim:ina219@0x40");
	struct hil_regmodel *m = hil_i2c_sim_model(bus, "ina219");
	struct ina219_config cfg;
	struct ina219_reading r;
	struct ina219 *dev;
	struct ut_capture c;
	char log[2048];
	int ret;

	(void)state;
	/* LSB 10 uA: the current register overflows above 327 mA. */
	ina219_config_default(&cfg);
	cfg.current_lsb_a = 10e-6;
	cfg.max_current_a = 0.3;
	cfg.pga_div = 8;
	ut_model_constant(m, 3.3, 0.5);
	assert_int_equal(ina219_open(&dev, bus, &cfg), HIL_OK);
	assert_int_equal(ina219_wait_ready(dev, 100), HIL_OK);
	ut_capture_begin(&c);
	ret = ina219_read(dev, &r);
	ut_capture_end(&c, log, sizeof(log));
	assert_int_equal(ret, HIL_ERR_CONFIG);
	assert_int_equal(r.raw_bus & 1u, 1); /* OVF */
	assert_non_null(strstr(log, "OVF"));
	assert_non_null(strstr(log, "0x40"));
	ina219_close(dev);
	hil_i2c_close(bus);
}

static void test_shunt_at_pga_full_scale_is_an_error(void **state)
{
	struct hil_i2c_bus *bus = sim_bus("sim:ina219@0x40");
	struct hil_regmodel *m = hil_i2c_sim_model(bus, "ina219");
	struct ina219_config cfg;
	struct ina219_reading r;
	struct ina219 *dev;
	struct ut_capture c;
	char log[2048];
	int ret;

	(void)state;
	ina219_config_default(&cfg);
	cfg.max_current_a = 0.4;	/* PGA /1: +-40 mV */
	ut_model_constant(m, 3.3, 0.5); /* 50 mV: clipped at 40 mV */
	assert_int_equal(ina219_open(&dev, bus, &cfg), HIL_OK);
	assert_int_equal(ina219_wait_ready(dev, 100), HIL_OK);
	ut_capture_begin(&c);
	ret = ina219_read(dev, &r);
	ut_capture_end(&c, log, sizeof(log));
	assert_int_equal(ret, HIL_ERR_CONFIG);
	assert_int_equal(r.shunt_uv, 40000);
	assert_non_null(strstr(log, "full scale"));
	ina219_close(dev);
	hil_i2c_close(bus);
}

static void test_conversion_ready_follows_the_adc_timing(void **state)
{
	struct hil_i2c_bus *bus = sim_bus("sim:ina219@0x40");
	struct hil_regmodel *m = hil_i2c_sim_model(bus, "ina219");
	struct manual_clock clk = {0};
	struct ina219_config cfg;
	struct ina219_reading r;
	struct ina219 *dev;
	uint16_t v;

	(void)state;
	hil_regmodel_set_clock(m, manual_now, &clk);
	ut_model_constant(m, 3.3, 0.025);
	ina219_config_default(&cfg);
	cfg.bus_bits = 9;    /* 84 us */
	cfg.shunt_bits = 12; /* 532 us */
	assert_int_equal(ina219_open(&dev, bus, &cfg), HIL_OK);
	/* Time stands still: no conversion, the bounded wait gives up. */
	assert_int_equal(ina219_wait_ready(dev, 20), HIL_ERR_TIMEOUT);
	clk.us += 532 + 84 - 1;
	assert_int_equal(ina219_reg_read(dev, INA2XX_REG_BUS, &v), HIL_OK);
	assert_int_equal(v & 2u, 0);
	clk.us += 1;
	assert_int_equal(ina219_wait_ready(dev, 20), HIL_OK);
	/* Reading the power register clears CNVR (ina219_read reads it). */
	assert_int_equal(ina219_read(dev, &r), HIL_OK);
	assert_int_equal(r.cnvr, 1);
	assert_int_equal(r.bus_mv, 3300);
	assert_int_equal(ina219_reg_read(dev, INA2XX_REG_BUS, &v), HIL_OK);
	assert_int_equal(v & 2u, 0);
	clk.us += 616;
	assert_int_equal(ina219_wait_ready(dev, 20), HIL_OK);
	ina219_close(dev);

	/* Triggered: one conversion per configuration write. */
	cfg.mode = INA219_MODE_BOTH_TRIGGERED;
	cfg.bus_bits = 12;
	cfg.bus_samples = 128; /* 68.10 ms */
	cfg.shunt_bits = 9;
	assert_int_equal(ina219_open(&dev, bus, &cfg), HIL_OK);
	clk.us += 68100 + 84 - 1;
	assert_int_equal(ina219_wait_ready(dev, 5), HIL_ERR_TIMEOUT);
	clk.us += 1;
	assert_int_equal(ina219_wait_ready(dev, 5), HIL_OK);
	assert_int_equal(ina219_read(dev, &r), HIL_OK);
	clk.us += 10 * 68184;
	assert_int_equal(ina219_wait_ready(dev, 5), HIL_ERR_TIMEOUT);
	assert_int_equal(ina219_trigger(dev), HIL_OK);
	clk.us += 68184;
	assert_int_equal(ina219_wait_ready(dev, 5), HIL_OK);
	ina219_close(dev);
	hil_i2c_close(bus);
}

static void test_dead_sensor_error_names_address_and_register(void **state)
{
	struct hil_i2c_bus *bus = sim_bus("sim:ina219@0x40");
	struct hil_regmodel *m = hil_i2c_sim_model(bus, "ina219");
	struct ina219_config cfg;
	struct ina219_reading r;
	struct ina219 *dev;
	struct ut_capture c;
	char log[4096];
	uint16_t v;
	int ret;

	(void)state;
	ina219_config_default(&cfg);
	assert_int_equal(ina219_open(&dev, bus, &cfg), HIL_OK);
	hil_regmodel_set_dead_after(m, 1);
	assert_int_equal(ina219_reg_read(dev, INA2XX_REG_CAL, &v), HIL_OK);
	assert_int_equal(v, 4096);
	ut_capture_begin(&c);
	ret = ina219_reg_read(dev, INA2XX_REG_BUS, &v);
	ut_capture_end(&c, log, sizeof(log));
	assert_int_equal(ret, HIL_ERR_IO);
	assert_non_null(strstr(log, "0x40"));
	assert_non_null(strstr(log, "register 0x02 (bus voltage)"));
	ut_capture_begin(&c);
	ret = ina219_read(dev, &r);
	ut_capture_end(&c, log, sizeof(log));
	assert_int_equal(ret, HIL_ERR_IO);
	assert_non_null(strstr(log, "0x01 (shunt voltage)"));
	ina219_close(dev);
	hil_i2c_close(bus);
}

static void test_open_at_wrong_address_fails_naming_it(void **state)
{
	struct hil_i2c_bus *bus = sim_bus("sim:ina219@0x40");
	struct ina219_config cfg;
	struct ina219 *dev = NULL;
	struct ut_capture c;
	char log[2048];
	int ret;

	(void)state;
	ina219_config_default(&cfg);
	cfg.addr = 0x45;
	ut_capture_begin(&c);
	ret = ina219_open(&dev, bus, &cfg);
	ut_capture_end(&c, log, sizeof(log));
	assert_int_equal(ret, HIL_ERR_IO);
	assert_null(dev);
	assert_non_null(strstr(log, "0x45"));
	hil_i2c_close(bus);
}

/* ---- the model itself ---- */

static void test_model_reset_bit_restores_power_on_values(void **state)
{
	struct hil_regmodel *m = ina219_model_new(0x40, 0.1);
	const uint8_t cal[3] = {0x05, 0x12, 0x34}, cfg[3] = {0x00, 0x01, 0x9F},
		      rst[3] = {0x00, 0x80, 0x00};
	size_t i;

	(void)state;
	assert_non_null(m);
	assert_int_equal(hil_regmodel_peek(m, 0x00), 0x399F);
	assert_int_equal(hil_regmodel_i2c_start(m, 0x80), 1);
	for (i = 0; i < 3; i++) {
		assert_int_equal(hil_regmodel_i2c_write(m, cal[i]), 1);
	}
	assert_int_equal(hil_regmodel_i2c_start(m, 0x80), 1);
	for (i = 0; i < 3; i++) {
		hil_regmodel_i2c_write(m, cfg[i]);
	}
	hil_regmodel_i2c_stop(m);
	assert_int_equal(hil_regmodel_peek(m, 0x05), 0x1234);
	assert_int_equal(hil_regmodel_peek(m, 0x00), 0x019F);
	assert_int_equal(hil_regmodel_i2c_start(m, 0x80), 1);
	for (i = 0; i < 3; i++) {
		hil_regmodel_i2c_write(m, rst[i]);
	}
	hil_regmodel_i2c_stop(m);
	assert_int_equal(hil_regmodel_peek(m, 0x00), 0x399F); /* RST clears */
	assert_int_equal(hil_regmodel_peek(m, 0x05), 0);
	/* Not its address: no ACK. */
	assert_int_equal(hil_regmodel_i2c_start(m, 0x82), 0);
	hil_regmodel_free(m);
}

static void test_model_clips_shunt_to_the_pga_range(void **state)
{
	struct hil_regmodel *m = ina219_model_new(0x40, 0.1);
	struct manual_clock clk = {0};
	const uint8_t pga2[3] = {0x00, 0x29, 0x9F}; /* 32 V, /2, 12 bit */

	(void)state;
	hil_regmodel_set_clock(m, manual_now, &clk);
	ut_model_constant(m, 40.0, 1.0); /* 100 mV, 40 V */
	clk.us = 1064;
	assert_int_equal((int16_t)hil_regmodel_peek(m, 0x01), 10000);
	assert_int_equal(hil_regmodel_peek(m, 0x02) >> 3, 8000); /* 32 V */
	assert_int_equal(hil_regmodel_i2c_start(m, 0x80), 1);
	hil_regmodel_i2c_write(m, pga2[0]);
	hil_regmodel_i2c_write(m, pga2[1]);
	hil_regmodel_i2c_write(m, pga2[2]);
	hil_regmodel_i2c_stop(m);
	clk.us += 1064;
	assert_int_equal((int16_t)hil_regmodel_peek(m, 0x01), 8000); /* 80 mV */
	ut_model_constant(m, 3.3, -1.0);
	clk.us += 1064;
	assert_int_equal((int16_t)hil_regmodel_peek(m, 0x01), -8000);
	hil_regmodel_free(m);
}

static void test_sim_spec_options(void **state)
{
	struct hil_i2c_bus *bus = NULL;
	const char *bad[] = {"sim:ina219@0x40,volts=3", "sim:ina219@0x99",
			     "sim:ina219@0x40,active=5-2", "sim:tmp102@0x48",
			     "sim:ina219@0x40,dead_after=-1"};
	size_t i;

	(void)state;
	assert_int_equal(hil_i2c_open(&bus, "sim:ina219@0x45,shunt=0.05,"
					    "bus_v=5,idle_ma=1,active_ma=2,"
					    "active=0-10:20-30,dead_after=7"),
			 HIL_OK);
	assert_int_equal(hil_regmodel_addr(hil_i2c_sim_model(bus, "ina219")),
			 0x45);
	assert_string_equal(hil_i2c_type(bus), "sim");
	hil_i2c_close(bus);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(hil_i2c_open(&bus, bad[i]), HIL_ERR_ARG);
		assert_null(bus);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_calc_matches_datasheet_example),
		cmocka_unit_test(test_calc_0p1_ohm_3p2_a),
		cmocka_unit_test(test_calc_0p1_ohm_0p4_a),
		cmocka_unit_test(test_calc_adc_settings_and_timing),
		cmocka_unit_test(test_calc_rejects_bad_configs),
		cmocka_unit_test(test_read_datasheet_example_registers),
		cmocka_unit_test(test_read_constant_waveform_exact_to_the_lsb),
		cmocka_unit_test(test_overflow_flag_is_an_error_naming_it),
		cmocka_unit_test(test_shunt_at_pga_full_scale_is_an_error),
		cmocka_unit_test(test_conversion_ready_follows_the_adc_timing),
		cmocka_unit_test(
			test_dead_sensor_error_names_address_and_register),
		cmocka_unit_test(test_open_at_wrong_address_fails_naming_it),
		cmocka_unit_test(test_model_reset_bit_restores_power_on_values),
		cmocka_unit_test(test_model_clips_shunt_to_the_pga_range),
		cmocka_unit_test(test_sim_spec_options),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
