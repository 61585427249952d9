/* test_ina226: the INA226 driver against its register-level model on the sim bus: calibration per the datasheet's example, exact readings, averaging, the sampler's reading, overflow, conversion ready and the ALERT pin, a wrong chip, a dead sensor, a wrong address (the model itself: test_ina226_model.c). */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/err.h"
#include "drivers/i2c/i2c.h"
#include "drivers/sensor/ina226.h"
#include "drivers/sensor/ina226_model.h"
#include "sim_model.h"
#include "unit_util.h"

/* ---- a sim bus with one INA226 model on it, on the model's own clock ---- */

/* A bus with a model at 0x40 behind a shunt; the bus owns the model. */
static struct hil_i2c_bus *model_bus(double shunt_ohm, struct hil_regmodel **m)
{
	char spec[64];

	snprintf(spec, sizeof(spec), "sim:ina226@0x40,shunt=%g", shunt_ohm);
	return ut_sim_bus(spec, 1, m);
}

/* ---- calibration (no chip) ---- */

/*
 * The datasheet's worked example (SBOS547 "Configure/Measure/Calculate
 * Example", Table 1; section 6.5.1 in revision B): 10 A nominal, 15 A
 * maximum expected, R_shunt 2 mOhm. Equation 2 gives 457.7 uA; the
 * example picks 1 mA: CAL = 0.00512 / (1 mA x 2 mOhm) = 2560 (A00h),
 * Power_LSB 25 mW, configuration 4127h.
 */
static void test_calc_matches_datasheet_example(void **state)
{
	struct ina226_config cfg;
	struct ina2xx_setup su;

	(void)state;
	ina226_config_default(&cfg);
	cfg.shunt_ohm = 0.002;
	cfg.max_current_a = 15.0;
	cfg.current_lsb_a = 0.001;
	assert_int_equal(ina226_calc(&cfg, &su), HIL_OK);
	assert_int_equal(su.cal, 0x0A00);
	assert_int_equal(su.config, 0x4127);
	assert_int_equal(su.mask, 0x0000);
	assert_true(fabs(su.eff_lsb_a - 0.001) < 1e-15);
	assert_true(fabs(su.power_lsb_w - 0.025) < 1e-15);
	assert_int_equal(su.cycle_us, 1100 + 1100);
	/* Equation 2 alone: 15 A / 2^15 = 457.76 uA, rounded up to 500 uA. */
	cfg.current_lsb_a = 0.0;
	assert_int_equal(ina226_calc(&cfg, &su), HIL_OK);
	assert_true(su.current_lsb_a == 0.0005);
	assert_int_equal(su.cal, 5120);
	/* The LSB asked for may not be below equation 2's: 400 uA is. */
	cfg.current_lsb_a = 0.0004;
	assert_int_equal(ina226_calc(&cfg, &su), HIL_ERR_CONFIG);
}

/*
 * CAL is rounded, not truncated, and the LSB the chip applies is
 * recomputed from the rounded CAL: 0.00512 / (300 uA x 3 mOhm) =
 * 5688.89 -> 5689, effective LSB 0.00512 / (5689 x 3 mOhm) = 299.994 uA.
 */
static void test_calc_rounds_cal_and_recomputes_the_lsb(void **state)
{
	struct ina226_config cfg;
	struct ina2xx_setup su;

	(void)state;
	ina226_config_default(&cfg);
	cfg.shunt_ohm = 0.003;
	cfg.max_current_a = 9.0;
	cfg.current_lsb_a = 0.0003;
	assert_int_equal(ina226_calc(&cfg, &su), HIL_OK);
	assert_int_equal(su.cal, 5689);
	assert_true(fabs(su.eff_lsb_a - 0.00512 / (5689 * 0.003)) < 1e-15);
	assert_true(fabs(su.power_lsb_w - 25 * su.eff_lsb_a) < 1e-15);
	assert_true(su.eff_lsb_a < 0.0003 && su.eff_lsb_a > 0.0002999);
	/* The defaults: 0.8 A / 2^15 = 24.4 uA -> 50 uA, CAL 1024. */
	ina226_config_default(&cfg);
	assert_int_equal(ina226_calc(&cfg, &su), HIL_OK);
	assert_int_equal(su.cal, 1024);
	assert_true(fabs(su.eff_lsb_a - 50e-6) < 1e-15);
}

static void test_calc_refuses_what_does_not_fit(void **state)
{
	struct ina226_config cfg;
	struct ina2xx_setup su;
	struct ut_capture c;
	char log[4096];
	int ret;

	(void)state;
	ina226_config_default(&cfg);
	cfg.max_current_a = 0.8192; /* exactly the 81.92 mV full scale */
	assert_int_equal(ina226_calc(&cfg, &su), HIL_OK);
	cfg.max_current_a = 0.82; /* 82 mV */
	ut_capture_begin(&c);
	ret = ina226_calc(&cfg, &su);
	ut_capture_end(&c, log, sizeof(log));
	assert_int_equal(ret, HIL_ERR_CONFIG);
	assert_non_null(strstr(log, "81.92 mV"));
	/* 10 mA over 10 mOhm: LSB 500 nA, CAL 1024000: not 15 bits. */
	ina226_config_default(&cfg);
	cfg.shunt_ohm = 0.01;
	cfg.max_current_a = 0.01;
	ut_capture_begin(&c);
	ret = ina226_calc(&cfg, &su);
	ut_capture_end(&c, log, sizeof(log));
	assert_int_equal(ret, HIL_ERR_CONFIG);
	assert_non_null(strstr(log, "1024000"));
	assert_non_null(strstr(log, "15 bits"));
	/* The largest CAL that fits: LSB 1.5625 uA at 0.1 ohm = 32768: no;
	 * 0.00512 / (32767 x 0.1) = 1.56255 uA: yes. */
	ina226_config_default(&cfg);
	cfg.max_current_a = 0.05;
	cfg.current_lsb_a = 0.00512 / (32767 * 0.1);
	assert_int_equal(ina226_calc(&cfg, &su), HIL_OK);
	assert_int_equal(su.cal, 32767);
	cfg.current_lsb_a = 0.00512 / (32768 * 0.1);
	assert_int_equal(ina226_calc(&cfg, &su), HIL_ERR_CONFIG);
	/* An LSB so coarse that CAL rounds to 0. */
	cfg.current_lsb_a = 1.0;
	assert_int_equal(ina226_calc(&cfg, &su), HIL_ERR_CONFIG);
	ina226_config_default(&cfg);
	cfg.shunt_ohm = 0.0;
	assert_int_equal(ina226_calc(&cfg, &su), HIL_ERR_CONFIG);
	ina226_config_default(&cfg);
	cfg.averages = 8;
	assert_int_equal(ina226_calc(&cfg, &su), HIL_ERR_CONFIG);
	ina226_config_default(&cfg);
	cfg.bus_ct_us = 1000;
	assert_int_equal(ina226_calc(&cfg, &su), HIL_ERR_CONFIG);
	ina226_config_default(&cfg);
	cfg.mode = (enum ina226_mode)8;
	assert_int_equal(ina226_calc(&cfg, &su), HIL_ERR_CONFIG);
}

/* ---- the driver on the model ---- */

/* Table 1 again, measured: every register as the datasheet lists it. */
static void test_read_datasheet_example_registers(void **state)
{
	struct hil_regmodel *m;
	struct hil_i2c_bus *bus = model_bus(0.002, &m);
	struct ina226_config cfg;
	struct ina226_reading r;
	struct ina226 *dev;

	(void)state;
	ut_model_constant(m, 11.98, 10.0); /* 12 V common mode minus 20 mV */
	ina226_config_default(&cfg);
	cfg.shunt_ohm = 0.002;
	cfg.max_current_a = 15.0;
	cfg.current_lsb_a = 0.001;
	assert_int_equal(ina226_open(&dev, bus, &cfg), HIL_OK);
	assert_int_equal(hil_regmodel_peek(m, 0x00), 0x4127);
	assert_int_equal(hil_regmodel_peek(m, 0x05), 0x0A00);
	hil_regmodel_advance(m, ina226_get_setup(dev)->cycle_us);
	assert_int_equal(ina226_read(dev, &r), HIL_OK);
	assert_int_equal(r.raw_shunt, 0x1F40);	 /* 8000 x 2.5 uV */
	assert_int_equal(r.raw_bus, 0x2570);	 /* 9584 x 1.25 mV */
	assert_int_equal(r.raw_current, 0x2710); /* 10000 x 1 mA */
	assert_int_equal(r.raw_power, 0x12B8);	 /* 4792 x 25 mW */
	assert_int_equal(r.shunt_nv, 20000000);
	assert_int_equal(r.bus_uv, 11980000);
	assert_int_equal(r.current_ua, 10000000);
	assert_int_equal(r.power_uw, 119800000);
	assert_int_equal(r.cnvr, 1);
	assert_int_equal(r.ovf, 0);
	/* The read took the flag: nothing new since. */
	assert_int_equal(ina226_read(dev, &r), HIL_OK);
	assert_int_equal(r.cnvr, 0);
	/* A reverse current reads negative; the power register is unsigned. */
	ut_model_constant(m, 11.98, -10.0);
	hil_regmodel_advance(m, 2200);
	assert_int_equal(ina226_read(dev, &r), HIL_OK);
	assert_int_equal(r.raw_shunt, 0xE0C0); /* -8000 */
	assert_int_equal(r.current_ua, -10000000);
	assert_int_equal(r.raw_power, 0x12B8);
	ina226_close(dev);
	hil_i2c_close(bus);
}

/* A slow sine with a sagging bus: I(t) and V(t) of the load. */
static void sine_load(void *ctx, double t_us, double *bus_v, double *current_a)
{
	double ph = 2.0 * 3.14159265358979323846 * t_us / 50000.0;

	(void)ctx;
	*current_a = 0.35 + 0.25 * sin(ph);
	*bus_v = 5.0 - 0.4 * *current_a;
}

/* Mean of the waveform over [t0, t0 + len) us, integrated per 0.25 us. */
static void truth(uint64_t t0, unsigned len, double *v, double *i)
{
	double sv = 0.0, si = 0.0;
	unsigned k, n = len * 4;

	for (k = 0; k < n; k++) {
		double tv, ti;
		double t = (double)t0 + ((double)k + 0.5) / 4.0;
		double ph = 2.0 * 3.14159265358979323846 * t / 50000.0;

		ti = 0.35 + 0.25 * sin(ph);
		tv = 5.0 - 0.4 * ti;
		sv += tv;
		si += ti;
	}
	*v = sv / n;
	*i = si / n;
}

/*
 * A known waveform read through the driver, each reading against the
 * waveform's own means over the windows the ADC spent on it (shunt 588 us,
 * then bus 588 us). Current_LSB 25 uA at 0.1 ohm makes CAL 2048, so that
 * equation 3 adds no rounding of its own: current, shunt and bus voltage
 * are within one LSB of the truth. Power is within one LSB of equation 4
 * applied to the current and bus registers read, and within one LSB plus
 * what half an LSB of current and of bus voltage make of the product of
 * the truth: the datasheet does not say how the chip rounds, the model
 * truncates.
 */
static void test_read_known_waveform_within_one_lsb(void **state)
{
	struct hil_regmodel *m;
	struct hil_i2c_bus *bus = model_bus(0.1, &m);
	struct ina226_config cfg;
	struct ina226_reading r;
	const struct ina2xx_setup *su;
	struct ina226 *dev;
	unsigned n;

	(void)state;
	hil_regmodel_set_wave(m, sine_load, NULL);
	ina226_config_default(&cfg);
	cfg.current_lsb_a = 25e-6;
	cfg.bus_ct_us = 588;
	cfg.shunt_ct_us = 588;
	assert_int_equal(ina226_open(&dev, bus, &cfg), HIL_OK);
	su = ina226_get_setup(dev);
	assert_int_equal(su->cal, 2048);
	assert_int_equal(su->cycle_us, 1176);
	for (n = 1; n <= 40; n++) {
		uint64_t t0 = (uint64_t)(n - 1) * su->cycle_us;
		double i, v, dummy, p_reg, p_slack;

		hil_regmodel_advance(m, su->cycle_us);
		assert_int_equal(ina226_read(dev, &r), HIL_OK);
		assert_int_equal(r.cnvr, 1);
		truth(t0, 588, &dummy, &i);
		truth(t0 + 588, 588, &v, &dummy);
		assert_true(fabs((double)r.current_ua - i * 1e6) <= 25.0);
		assert_true(fabs((double)r.shunt_nv - i * 0.1 * 1e9) <= 2500.0);
		assert_true(fabs((double)r.bus_uv - v * 1e6) <= 1250.0);
		p_reg = (double)r.raw_current * r.raw_bus / 20000.0;
		assert_true(fabs((double)r.raw_power - p_reg) < 1.0);
		assert_true(fabs((double)r.power_uw - r.raw_power * 625.0) <
			    1.0);
		p_slack = ((double)r.raw_current * 0.5 + r.raw_bus * 0.5) /
			  20000.0;
		assert_true(fabs((double)r.power_uw - fabs(i) * v * 1e6) <=
			    (1.0 + p_slack) * su->power_lsb_w * 1e6);
	}
	ina226_close(dev);
	hil_i2c_close(bus);
}

/* Each sample in its own step: 100, 200, 300, 400 mA, 140 us + 140 us. */
static void staircase(void *ctx, double t_us, double *bus_v, double *current_a)
{
	(void)ctx;
	*bus_v = 5.0;
	*current_a = 0.1 * (1.0 + fmod(floor(t_us / 280.0), 4.0));
}

/*
 * Averaging (section 6.3.1.1): current and power are computed per sample
 * and their average loaded into the registers: (100 + 200 + 300 + 400) / 4
 * = 250 mA, 5 V, 1.25 W, to the LSB.
 */
static void test_averaging_averages_the_samples(void **state)
{
	struct hil_regmodel *m;
	struct hil_i2c_bus *bus = model_bus(0.1, &m);
	struct ina226_config cfg;
	struct ina226_reading r;
	struct ina226 *dev;

	(void)state;
	hil_regmodel_set_wave(m, staircase, NULL);
	ina226_config_default(&cfg); /* LSB 50 uA, power LSB 1.25 mW */
	cfg.averages = 4;
	cfg.bus_ct_us = 140;
	cfg.shunt_ct_us = 140;
	assert_int_equal(ina226_open(&dev, bus, &cfg), HIL_OK);
	hil_regmodel_advance(m, 1120);
	assert_int_equal(ina226_read(dev, &r), HIL_OK);
	assert_int_equal(r.raw_shunt, 10000); /* 25 mV */
	assert_int_equal(r.raw_current, 5000);
	assert_int_equal(r.raw_bus, 4000);
	assert_int_equal(r.raw_power, 1000); /* (400+800+1200+1600) / 4 */
	assert_int_equal(r.current_ua, 250000);
	assert_int_equal(r.bus_uv, 5000000);
	assert_int_equal(r.power_uw, 1250000);
	ina226_close(dev);
	hil_i2c_close(bus);
}

static void test_overflow_flag_is_an_error_naming_it(void **state)
{
	struct hil_regmodel *m;
	struct hil_i2c_bus *bus = model_bus(0.1, &m);
	struct ina226_config cfg;
	struct ina226_reading r;
	struct ina226 *dev;
	struct ut_capture c;
	char log[2048];
	int ret;

	(void)state;
	/* 0.2 A expected: LSB 10 uA, CAL 5120; 0.5 A gives 20000 x 5120 /
	 * 2048 = 50000: beyond the current register. */
	ina226_config_default(&cfg);
	cfg.max_current_a = 0.2;
	ut_model_constant(m, 3.3, 0.5);
	assert_int_equal(ina226_open(&dev, bus, &cfg), HIL_OK);
	assert_int_equal(ina226_get_setup(dev)->cal, 5120);
	hil_regmodel_advance(m, 2200);
	ut_capture_begin(&c);
	ret = ina226_read(dev, &r);
	ut_capture_end(&c, log, sizeof(log));
	assert_int_equal(ret, HIL_ERR_CONFIG);
	assert_int_equal(r.ovf, 1);
	assert_int_equal(r.raw_mask & INA226_ME_OVF, INA226_ME_OVF);
	assert_non_null(strstr(log, "OVF"));
	assert_non_null(strstr(log, "0x40"));
	/* Back in range: the next conversion clears it. */
	ut_model_constant(m, 3.3, 0.1);
	hil_regmodel_advance(m, 2200);
	assert_int_equal(ina226_read(dev, &r), HIL_OK);
	assert_int_equal(r.ovf, 0);
	assert_int_equal(r.current_ua, 100000);
	ina226_close(dev);

	/* 1 A over 0.1 ohm = 100 mV: the shunt input clips at 81.92 mV
	 * (CAL 1024 keeps the current register in range: no OVF). */
	ina226_config_default(&cfg);
	assert_int_equal(ina226_open(&dev, bus, &cfg), HIL_OK);
	ut_model_constant(m, 3.3, 1.0);
	hil_regmodel_advance(m, 2200);
	ut_capture_begin(&c);
	ret = ina226_read(dev, &r);
	ut_capture_end(&c, log, sizeof(log));
	assert_int_equal(ret, HIL_ERR_CONFIG);
	assert_int_equal(r.ovf, 0);
	assert_int_equal(r.raw_shunt, 0x7FFF);
	assert_non_null(strstr(log, "full scale"));
	ina226_close(dev);
	hil_i2c_close(bus);
}

/* Conversion ready through Mask/Enable, and on the ALERT pin (CNVR). */
/*
 * The sampler's reading: three registers, CVRF cleared by it, and a range
 * problem as a flag with nothing logged (ina226_read() names it instead).
 */
static void test_sample_reads_three_registers_and_flags_quietly(void **state)
{
	struct hil_regmodel *m;
	struct hil_i2c_bus *bus = model_bus(0.1, &m);
	struct hil_i2c_stats a, b;
	struct ina226_config cfg;
	struct ina226_reading r;
	struct ina226 *dev;
	struct ut_capture c;
	char log[2048];

	(void)state;
	ina226_config_default(&cfg);
	ut_model_constant(m, 3.3, 0.025);
	assert_int_equal(ina226_open(&dev, bus, &cfg), HIL_OK);
	hil_regmodel_advance(m, 2200);
	assert_int_equal(hil_i2c_get_stats(bus, &a), HIL_OK);
	assert_int_equal(ina226_sample(dev, &r), HIL_OK);
	assert_int_equal(hil_i2c_get_stats(bus, &b), HIL_OK);
	assert_int_equal(b.transactions - a.transactions, 3);
	assert_int_equal(b.calls - a.calls, 1); /* one batch */
	assert_int_equal(r.cnvr, 1);
	assert_int_equal(r.shunt_nv, 2500000); /* 1000 x 2.5 uV */
	assert_int_equal(r.bus_uv, 3300000);   /* 2640 x 1.25 mV */
	assert_int_equal(r.current_ua, 25000);
	assert_int_equal(r.out_of_range, 0);
	assert_int_equal(ina226_sample(dev, &r), HIL_OK);
	assert_int_equal(r.cnvr, 0);

	/* 1 A x 0.1 ohm = 100 mV: clipped at full scale, a flag. */
	ut_model_constant(m, 3.3, 1.0);
	hil_regmodel_advance(m, 2200);
	ut_capture_begin(&c);
	assert_int_equal(ina226_sample(dev, &r), HIL_OK);
	ut_capture_end(&c, log, sizeof(log));
	assert_int_equal(r.out_of_range, 1);
	assert_int_equal(r.raw_shunt, 0x7FFF);
	assert_string_equal(log, "");
	assert_int_equal(ina226_sample(NULL, &r), HIL_ERR_ARG);
	ina226_close(dev);
	hil_i2c_close(bus);
}

static void test_conversion_ready_polling_and_alert_pin(void **state)
{
	struct hil_regmodel *m;
	struct hil_i2c_bus *bus = model_bus(0.1, &m);
	struct ina226_config cfg;
	struct ina226 *dev;
	uint16_t v;

	(void)state;
	ina226_config_default(&cfg);
	cfg.averages = 16;
	cfg.bus_ct_us = 140;
	cfg.shunt_ct_us = 332; /* 16 x 472 = 7552 us */
	cfg.alert_cnvr = 1;
	assert_int_equal(ina226_open(&dev, bus, &cfg), HIL_OK);
	assert_int_equal(hil_regmodel_peek(m, 0x06), INA226_ME_CNVR);
	assert_int_equal(ina226_model_alert_pin(m), 1);
	/* Model time stands still: the bounded wait gives up. */
	assert_int_equal(ina226_wait_ready(dev, 5), HIL_ERR_TIMEOUT);
	hil_regmodel_advance(m, 7551);
	assert_int_equal(ina226_model_alert_pin(m), 1);
	hil_regmodel_advance(m, 1);
	assert_int_equal(ina226_model_alert_pin(m), 0); /* low: asserted */
	assert_int_equal(ina226_wait_ready(dev, 5), HIL_OK);
	/* The wait's read took the flag, and the pin follows it. */
	assert_int_equal(ina226_model_alert_pin(m), 1);
	assert_int_equal(ina226_reg_read(dev, INA226_REG_MASK, &v), HIL_OK);
	assert_int_equal(v & INA226_ME_CVRF, 0);
	ina226_close(dev);

	/* Active high; a triggered conversion per trigger. */
	cfg.alert_high = 1;
	cfg.mode = INA226_MODE_BOTH_TRIGGERED;
	assert_int_equal(ina226_open(&dev, bus, &cfg), HIL_OK);
	assert_int_equal(ina226_model_alert_pin(m), 0);
	hil_regmodel_advance(m, 7552);
	assert_int_equal(ina226_model_alert_pin(m), 1);
	assert_int_equal(ina226_wait_ready(dev, 5), HIL_OK);
	hil_regmodel_advance(m, 10 * 7552);
	assert_int_equal(ina226_wait_ready(dev, 5), HIL_ERR_TIMEOUT);
	assert_int_equal(ina226_trigger(dev), HIL_OK);
	hil_regmodel_advance(m, 7552);
	assert_int_equal(ina226_wait_ready(dev, 5), HIL_OK);
	ina226_close(dev);

	/* CNVR off: the pin stays released whatever converts. */
	ina226_config_default(&cfg);
	assert_int_equal(ina226_open(&dev, bus, &cfg), HIL_OK);
	hil_regmodel_advance(m, 2200);
	assert_int_equal(ina226_model_alert_pin(m), 1);
	ina226_close(dev);
	hil_i2c_close(bus);
}

/* An INA219 answering at the address is refused by name. */
static void test_open_refuses_an_ina219(void **state)
{
	struct hil_i2c_bus *bus = NULL;
	struct ina226_config cfg;
	struct ina226 *dev = NULL;
	struct ut_capture c;
	char log[2048];
	int ret;

	(void)state;
	assert_int_equal(hil_i2c_open(&bus, "sim:ina219@0x40"), HIL_OK);
	ina226_config_default(&cfg);
	ut_capture_begin(&c);
	ret = ina226_open(&dev, bus, &cfg);
	ut_capture_end(&c, log, sizeof(log));
	assert_int_equal(ret, HIL_ERR_NA);
	assert_null(dev);
	assert_non_null(strstr(log, "0x40"));
	assert_non_null(strstr(log, "not an INA226"));
	assert_non_null(strstr(log, "an INA219?"));
	assert_non_null(strstr(log, "manufacturer ID 0x0000"));
	hil_i2c_close(bus);
}

static void test_dead_sensor_mid_read_gives_an_error_not_a_number(void **state)
{
	struct hil_regmodel *m;
	struct hil_i2c_bus *bus = model_bus(0.1, &m);
	struct ina226_config cfg;
	struct ina226_reading r;
	struct ina226 *dev;
	struct ut_capture c;
	char log[4096];
	uint16_t v;
	int ret;

	(void)state;
	ut_model_constant(m, 3.3, 0.025);
	ina226_config_default(&cfg);
	assert_int_equal(ina226_open(&dev, bus, &cfg), HIL_OK);
	hil_regmodel_advance(m, 2200);
	assert_int_equal(ina226_read(dev, &r), HIL_OK);
	assert_int_equal(r.current_ua, 25000);
	/* Alive for two of the batch's five transactions. */
	hil_regmodel_advance(m, 2200);
	hil_regmodel_set_dead_after(m, 2);
	memset(&r, 0x5A, sizeof(r));
	ut_capture_begin(&c);
	ret = ina226_read(dev, &r);
	ut_capture_end(&c, log, sizeof(log));
	assert_int_equal(ret, HIL_ERR_IO);
	assert_int_equal(r.current_ua, 0);
	assert_int_equal(r.power_uw, 0);
	assert_int_equal(r.bus_uv, 0);
	assert_int_equal(r.raw_current, 0);
	assert_int_equal(r.cnvr, 0);
	assert_non_null(strstr(log, "INA226 at 0x40"));
	assert_non_null(strstr(log, "0x06 (mask/enable), 0x02 (bus voltage)"));
	ut_capture_begin(&c);
	ret = ina226_reg_read(dev, INA2XX_REG_CURRENT, &v);
	ut_capture_end(&c, log, sizeof(log));
	assert_int_equal(ret, HIL_ERR_IO);
	assert_non_null(strstr(log, "register 0x04 (current)"));
	ina226_close(dev);
	hil_i2c_close(bus);
}

static void test_open_at_wrong_address_is_a_nack_naming_it(void **state)
{
	struct hil_regmodel *m;
	struct hil_i2c_bus *bus = model_bus(0.1, &m);
	struct ina226_config cfg;
	struct ina226 *dev = NULL;
	struct ut_capture c;
	char log[2048];
	int ret;

	(void)state;
	ina226_config_default(&cfg);
	cfg.addr = 0x45;
	ut_capture_begin(&c);
	ret = ina226_open(&dev, bus, &cfg);
	ut_capture_end(&c, log, sizeof(log));
	assert_int_equal(ret, HIL_ERR_IO);
	assert_null(dev);
	assert_non_null(strstr(log, "INA226 at 0x45"));
	assert_non_null(strstr(log, "0xfe (manufacturer ID)"));
	/* Not even addressed: the model saw none of it. */
	assert_int_equal(hil_regmodel_transactions(m), 0);
	cfg.addr = 0x3F;
	assert_int_equal(ina226_open(&dev, bus, &cfg), HIL_ERR_CONFIG);
	hil_i2c_close(bus);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_calc_matches_datasheet_example),
		cmocka_unit_test(test_calc_rounds_cal_and_recomputes_the_lsb),
		cmocka_unit_test(test_calc_refuses_what_does_not_fit),
		cmocka_unit_test(test_read_datasheet_example_registers),
		cmocka_unit_test(test_read_known_waveform_within_one_lsb),
		cmocka_unit_test(test_averaging_averages_the_samples),
		cmocka_unit_test(test_overflow_flag_is_an_error_naming_it),
		cmocka_unit_test(
			test_sample_reads_three_registers_and_flags_quietly),
		cmocka_unit_test(test_conversion_ready_polling_and_alert_pin),
		cmocka_unit_test(test_open_refuses_an_ina219),
		cmocka_unit_test(
			test_dead_sensor_mid_read_gives_an_error_not_a_number),
		cmocka_unit_test(
			test_open_at_wrong_address_is_a_nack_naming_it),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
