/* test_ina226_model: the INA226's register-level model seen from its bus pins: IDs and power-on values, RST, write masks, every averaging and conversion-time code, conversion ready, the load switch, oscillator error, the host clock, the alert flag latched or transparent. */
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

/* ---- the model's own bus pins ---- */

/* Register access on the model's own bus pins, as a master would. */
static void mwrite(struct hil_regmodel *m, uint8_t reg, uint16_t v)
{
	assert_int_equal(hil_regmodel_i2c_start(m, 0x80), 1);
	assert_int_equal(hil_regmodel_i2c_write(m, reg), 1);
	assert_int_equal(hil_regmodel_i2c_write(m, (uint8_t)(v >> 8)), 1);
	assert_int_equal(hil_regmodel_i2c_write(m, (uint8_t)v), 1);
	hil_regmodel_i2c_stop(m);
}

static uint16_t mread(struct hil_regmodel *m, uint8_t reg)
{
	uint16_t v;

	assert_int_equal(hil_regmodel_i2c_start(m, 0x80), 1);
	assert_int_equal(hil_regmodel_i2c_write(m, reg), 1);
	assert_int_equal(hil_regmodel_i2c_start(m, 0x81), 1);
	v = (uint16_t)(hil_regmodel_i2c_read(m) << 8);
	v |= hil_regmodel_i2c_read(m);
	hil_regmodel_i2c_stop(m);
	return v;
}

static int cvrf(struct hil_regmodel *m)
{
	return (hil_regmodel_peek(m, INA226_REG_MASK) & INA226_ME_CVRF) != 0;
}

/* ---- the model's registers ---- */

/* SBOS547 Table 7-1: power-on values, and the IDs. */
static void test_model_power_on_values(void **state)
{
	struct hil_regmodel *m = ina226_model_new(0x40, 0.1);
	uint8_t reg;

	(void)state;
	assert_non_null(m);
	assert_int_equal(hil_regmodel_peek(m, 0x00), 0x4127);
	for (reg = 0x01; reg <= 0x07; reg++) {
		assert_int_equal(hil_regmodel_peek(m, reg), 0x0000);
	}
	assert_int_equal(hil_regmodel_peek(m, 0xFE), 0x5449);
	assert_int_equal(hil_regmodel_peek(m, 0xFF), 0x2260);
	assert_int_equal(mread(m, 0xFE), 0x5449);
	assert_int_equal(mread(m, 0xFF), 0x2260);
	/*
	 * 4127h converts continuously (1 sample, 1.1 ms + 1.1 ms). With CAL
	 * still 0, current and power stay 0 (section 6.5.1) while the
	 * voltages are measured: 25 mA x 0.1 ohm = 1000 x 2.5 uV, 3.3 V =
	 * 2640 x 1.25 mV.
	 */
	ut_model_constant(m, 3.3, 0.025);
	hil_regmodel_advance(m, 2200);
	assert_int_equal(hil_regmodel_conversions(m), 1);
	assert_int_equal(hil_regmodel_peek(m, 0x01), 1000);
	assert_int_equal(hil_regmodel_peek(m, 0x02), 2640);
	assert_int_equal(hil_regmodel_peek(m, 0x03), 0);
	assert_int_equal(hil_regmodel_peek(m, 0x04), 0);
	hil_regmodel_free(m);
}

static void test_model_reset_bit_restores_power_on_values(void **state)
{
	struct hil_regmodel *m = ina226_model_new(0x40, 0.1);
	uint8_t reg;

	(void)state;
	assert_non_null(m);
	mwrite(m, 0x05, 0x1234);
	mwrite(m, 0x06, 0x8001);
	mwrite(m, 0x07, 0x0F00);
	mwrite(m, 0x00, 0x0127); /* bit 14 cleared, else as at power-on */
	assert_int_equal(hil_regmodel_peek(m, 0x00), 0x0127);
	assert_int_equal(hil_regmodel_peek(m, 0x05), 0x1234);
	assert_int_equal(hil_regmodel_peek(m, 0x06), 0x8001);
	assert_int_equal(hil_regmodel_peek(m, 0x07), 0x0F00);
	hil_regmodel_advance(m, 100000);
	assert_int_not_equal(hil_regmodel_peek(m, 0x04), 0);
	mwrite(m, 0x00, 0x8000); /* RST: all registers, self-clearing */
	assert_int_equal(hil_regmodel_peek(m, 0x00), 0x4127);
	for (reg = 0x01; reg <= 0x07; reg++) {
		assert_int_equal(hil_regmodel_peek(m, reg), 0x0000);
	}
	hil_regmodel_free(m);
}

static void test_model_write_masks_and_read_only_registers(void **state)
{
	struct hil_regmodel *m = ina226_model_new(0x40, 0.1);
	uint8_t reg;

	(void)state;
	assert_non_null(m);
	mwrite(m, 0x05, 0xFFFF); /* FS14..FS0: bit 15 is "-" */
	assert_int_equal(hil_regmodel_peek(m, 0x05), 0x7FFF);
	mwrite(m, 0x06, 0xFFFF); /* AFF, CVRF, OVF are flags */
	assert_int_equal(hil_regmodel_peek(m, 0x06), 0xFC03);
	for (reg = 0x01; reg <= 0x04; reg++) {
		mwrite(m, reg, 0x5555);
		assert_int_equal(hil_regmodel_peek(m, reg), 0);
	}
	mwrite(m, 0xFE, 0x0000);
	assert_int_equal(hil_regmodel_peek(m, 0xFE), 0x5449);
	/* The pointer persists: a read without a pointer write reads 05h. */
	mwrite(m, 0x05, 0x0A00);
	assert_int_equal(hil_regmodel_i2c_start(m, 0x81), 1);
	assert_int_equal(hil_regmodel_i2c_read(m), 0x0A);
	assert_int_equal(hil_regmodel_i2c_read(m), 0x00);
	hil_regmodel_i2c_stop(m);
	/* Not its address: no ACK; other addresses are not its business. */
	assert_int_equal(hil_regmodel_i2c_start(m, 0x82), 0);
	assert_int_equal(hil_regmodel_i2c_write(m, 0x00), 0);
	hil_regmodel_i2c_stop(m);
	hil_regmodel_free(m);
}

/* ---- timing: every AVG and CT code ---- */

static const unsigned avgs[8] = {1, 4, 16, 64, 128, 256, 512, 1024};
static const unsigned cts[8] = {140, 204, 332, 588, 1100, 2116, 4156, 8244};

/*
 * Every AVG code against every VBUSCT code (VSHCT running the other way),
 * in "shunt and bus, continuous": the configuration the driver computes,
 * the cycle it reports, and the model setting CVRF 1 us late, never early.
 */
static void test_every_avg_and_ct_code_timing(void **state)
{
	struct hil_regmodel *m = ina226_model_new(0x40, 0.1);
	struct ina226_config cfg;
	struct ina2xx_setup su;
	unsigned a, c;

	(void)state;
	assert_non_null(m);
	assert_int_equal(ina226_model_ct_us(0), 140);
	assert_int_equal(ina226_model_avg(7), 1024);
	ina226_config_default(&cfg);
	for (a = 0; a < 8; a++) {
		for (c = 0; c < 8; c++) {
			uint64_t t = avgs[a] * (uint64_t)(cts[c] + cts[7 - c]);

			cfg.averages = avgs[a];
			cfg.bus_ct_us = cts[c];
			cfg.shunt_ct_us = cts[7 - c];
			assert_int_equal(ina226_calc(&cfg, &su), HIL_OK);
			assert_int_equal(su.config, 0x4000 | a << 9 | c << 6 |
							    (7 - c) << 3 | 7);
			assert_int_equal(su.cycle_us, t);
			mwrite(m, 0x00, su.config);
			assert_int_equal(cvrf(m), 0);
			hil_regmodel_advance(m, t - 1);
			assert_int_equal(cvrf(m), 0);
			hil_regmodel_advance(m, 1);
			assert_int_equal(cvrf(m), 1);
			assert_int_equal(hil_regmodel_conversions(m), 1);
		}
	}
	/* Single-channel modes time only their channel. */
	assert_int_equal(ina226_conversion_us(64, 140, 8244,
					      INA226_MODE_SHUNT_CONTINUOUS),
			 64 * 8244);
	assert_int_equal(
		ina226_conversion_us(64, 140, 8244, INA226_MODE_BUS_TRIGGERED),
		64 * 140);
	assert_int_equal(
		ina226_conversion_us(4, 588, 588, INA226_MODE_POWER_DOWN), 0);
	/* The datasheet's own figure: 588 us, 4 averages: every 4.7 ms. */
	assert_int_equal(
		ina226_conversion_us(4, 588, 588, INA226_MODE_BOTH_CONTINUOUS),
		4704);
	mwrite(m, 0x00, 0x4000 | 3 << 9 | 1 << 3 | 5); /* 64 x 204 us */
	hil_regmodel_advance(m, 64 * 204 - 1);
	assert_int_equal(cvrf(m), 0);
	hil_regmodel_advance(m, 1);
	assert_int_equal(cvrf(m), 1);
	hil_regmodel_free(m);
}

/*
 * CVRF (section 7.1.7): set when a conversion completes; cleared by
 * reading Mask/Enable, and by writing the configuration unless the mode is
 * power-down; continuous mode sets it again one cycle later.
 */
static void test_cvrf_set_on_time_and_cleared_by_mask_read(void **state)
{
	struct hil_regmodel *m = ina226_model_new(0x40, 0.1);

	(void)state;
	assert_non_null(m);
	mwrite(m, 0x00, 0x4000 | 1 << 9 | 2 << 6 | 3 << 3 | 7); /* 4 x 920 */
	hil_regmodel_advance(m, 3679);
	assert_int_equal(cvrf(m), 0);
	hil_regmodel_advance(m, 1);
	assert_int_equal(cvrf(m), 1);
	assert_int_equal(cvrf(m), 1); /* peeking does not clear it */
	assert_int_equal(mread(m, 0x06) & INA226_ME_CVRF, INA226_ME_CVRF);
	assert_int_equal(cvrf(m), 0);
	assert_int_equal(mread(m, 0x06) & INA226_ME_CVRF, 0);
	hil_regmodel_advance(m, 3679);
	assert_int_equal(cvrf(m), 0);
	hil_regmodel_advance(m, 1);
	assert_int_equal(cvrf(m), 1);
	assert_int_equal(hil_regmodel_conversions(m), 2);
	/* A configuration write clears it and restarts the timing. */
	hil_regmodel_advance(m, 100);
	mwrite(m, 0x00, 0x4000 | 1 << 9 | 2 << 6 | 3 << 3 | 7);
	assert_int_equal(cvrf(m), 0);
	hil_regmodel_advance(m, 3679);
	assert_int_equal(cvrf(m), 0);
	hil_regmodel_advance(m, 1);
	assert_int_equal(cvrf(m), 1);
	/* Power-down does not clear it, and converts no more. */
	mwrite(m, 0x00, 0x4000 | 1 << 9 | 2 << 6 | 3 << 3 | 0);
	assert_int_equal(cvrf(m), 1);
	hil_regmodel_advance(m, 100000);
	assert_int_equal(hil_regmodel_conversions(m), 0);
	/* Triggered: one conversion per configuration write. */
	mwrite(m, 0x00, 0x4000 | 1 << 9 | 2 << 6 | 3 << 3 | 3);
	assert_int_equal(cvrf(m), 0);
	hil_regmodel_advance(m, 100000);
	assert_int_equal(hil_regmodel_conversions(m), 1);
	assert_int_equal(cvrf(m), 1);
	hil_regmodel_free(m);
}

/* A waveform of the test's own: no steps, so no load to switch. */
static void flat_load(void *ctx, double t_us, double *bus_v, double *current_a)
{
	(void)ctx;
	(void)t_us;
	*bus_v = 3.3;
	*current_a = 0.010;
}

/*
 * The load follows the host (the sim bus's energy loop): 10 mA idle, 25 mA
 * from load(1) to load(0), seen by the conversions that lie in between; a
 * custom waveform has no load to switch.
 */
static void test_model_load_follows_the_host(void **state)
{
	struct hil_regmodel *m = ina226_model_new(0x40, 0.1);
	int i;

	(void)state;
	assert_non_null(m);
	mwrite(m, 0x00, 0x4000 | 0 << 9 | 0 << 6 | 0 << 3 | 7); /* 280 us */
	hil_regmodel_advance(m, 1000);
	assert_int_equal(hil_regmodel_peek(m, 0x01), 400); /* 1 mV */
	assert_int_equal(hil_regmodel_load(m, 1), 0);
	assert_int_equal(hil_regmodel_load(m, 1), 0); /* already on */
	hil_regmodel_advance(m, 1000);
	assert_int_equal(hil_regmodel_peek(m, 0x01), 1000); /* 2.5 mV */
	assert_int_equal(hil_regmodel_load(m, 0), 0);
	hil_regmodel_advance(m, 1000);
	assert_int_equal(hil_regmodel_peek(m, 0x01), 400);
	/* Any number of loops: old windows make room for new ones. */
	for (i = 0; i < 3 * HIL_REGMODEL_STEPS_MAX; i++) {
		assert_int_equal(hil_regmodel_load(m, 1), 0);
		hil_regmodel_advance(m, 600000);
		assert_int_equal(hil_regmodel_load(m, 0), 0);
		hil_regmodel_advance(m, 600000);
	}
	assert_int_equal(hil_regmodel_load(m, 1), 0);
	hil_regmodel_advance(m, 1000);
	assert_int_equal(hil_regmodel_peek(m, 0x01), 1000);
	hil_regmodel_set_wave(m, flat_load, NULL);
	assert_int_equal(hil_regmodel_load(m, 0), -1);
	hil_regmodel_free(m);
}

/* An oscillator 6.25% slow, then fast: the cycle follows it. */
static void test_model_rate_ppm_stretches_the_cycle(void **state)
{
	struct hil_regmodel *m = ina226_model_new(0x40, 0.1);

	(void)state;
	assert_non_null(m);
	mwrite(m, 0x00, 0x4000 | 1 << 9 | 4 << 6 | 4 << 3 | 7); /* 8800 us */
	hil_regmodel_set_rate_ppm(m, 62500);
	hil_regmodel_advance(m, 9349); /* 8800 x 1.0625 = 9350 */
	assert_int_equal(cvrf(m), 0);
	hil_regmodel_advance(m, 1);
	assert_int_equal(cvrf(m), 1);
	hil_regmodel_advance(m, 100 * 9350 - 9350);
	assert_int_equal(hil_regmodel_conversions(m), 100);
	hil_regmodel_set_rate_ppm(m, -62500); /* 8250 us from now */
	hil_regmodel_advance(m, 8249);
	assert_int_equal(hil_regmodel_conversions(m), 0);
	hil_regmodel_advance(m, 1);
	assert_int_equal(hil_regmodel_conversions(m), 1);
	hil_regmodel_free(m);
}

/* On the host's clock the model converts as time passes, by itself. */
static void test_model_on_the_host_clock(void **state)
{
	struct hil_regmodel *m = ina226_model_new(0x40, 0.1);
	uint64_t t0;

	(void)state;
	assert_non_null(m);
	hil_regmodel_set_clock_host(m);
	t0 = hil_regmodel_now_us(m);
	assert_true(t0 < 1000000);
	mwrite(m, 0x00, 0x4000 | 0 << 9 | 0 << 6 | 0 << 3 | 7); /* 280 us */
	ut_sleep_ms(20);
	assert_true(hil_regmodel_now_us(m) >= t0 + 20000);
	assert_true(hil_regmodel_conversions(m) >= 20000 / 280 - 1);
	assert_int_equal(hil_regmodel_peek(m, 0x01), 400);
	hil_regmodel_advance(m, 1000000000); /* no effect on this clock */
	assert_true(hil_regmodel_now_us(m) < t0 + 60000000);
	hil_regmodel_free(m);
}

/* AFF: latched until Mask/Enable is read (LEN), or following each cycle. */
static void test_aff_latch_and_transparent(void **state)
{
	struct hil_regmodel *m = ina226_model_new(0x40, 0.1);

	(void)state;
	assert_non_null(m);
	ut_model_constant(m, 3.3, 0.05); /* 5 mV = 2000 x 2.5 uV */
	mwrite(m, 0x07, 1500);		 /* shunt over 3.75 mV */
	mwrite(m, 0x06, INA226_ME_SOL | INA226_ME_LEN);
	hil_regmodel_advance(m, 2200);
	assert_int_equal(mread(m, 0x06) & INA226_ME_AFF, INA226_ME_AFF);
	assert_int_equal(ina226_model_alert_pin(m),
			 1);		 /* cleared by the read */
	ut_model_constant(m, 3.3, 0.01); /* 1 mV: within the limit */
	hil_regmodel_advance(m, 2200);
	assert_int_equal(hil_regmodel_peek(m, 0x06) & INA226_ME_AFF, 0);
	ut_model_constant(m, 3.3, 0.05);
	hil_regmodel_advance(m, 2200);
	assert_int_equal(ina226_model_alert_pin(m), 0); /* asserted, low */
	ut_model_constant(m, 3.3, 0.01);
	hil_regmodel_advance(m, 2200);
	/* Latched: still set though the last cycle was within the limit. */
	assert_int_equal(hil_regmodel_peek(m, 0x06) & INA226_ME_AFF,
			 INA226_ME_AFF);
	assert_int_equal(ina226_model_alert_pin(m), 0);
	/* Transparent: a read does not clear it, the next good cycle does. */
	mwrite(m, 0x06, INA226_ME_SOL);
	ut_model_constant(m, 3.3, 0.05);
	hil_regmodel_advance(m, 2200);
	assert_int_equal(mread(m, 0x06) & INA226_ME_AFF, INA226_ME_AFF);
	assert_int_equal(mread(m, 0x06) & INA226_ME_AFF, INA226_ME_AFF);
	ut_model_constant(m, 3.3, 0.01);
	hil_regmodel_advance(m, 2200);
	assert_int_equal(mread(m, 0x06) & INA226_ME_AFF, 0);
	assert_int_equal(ina226_model_alert_pin(m), 1);
	hil_regmodel_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_model_power_on_values),
		cmocka_unit_test(test_model_reset_bit_restores_power_on_values),
		cmocka_unit_test(
			test_model_write_masks_and_read_only_registers),
		cmocka_unit_test(test_every_avg_and_ct_code_timing),
		cmocka_unit_test(
			test_cvrf_set_on_time_and_cleared_by_mask_read),
		cmocka_unit_test(test_model_load_follows_the_host),
		cmocka_unit_test(test_model_rate_ppm_stretches_the_cycle),
		cmocka_unit_test(test_model_on_the_host_clock),
		cmocka_unit_test(test_aff_latch_and_transparent),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
