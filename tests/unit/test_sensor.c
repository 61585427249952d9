/* test_sensor: the configured sensor (INA219 or INA226) opened on the simulated bus (setup, description, readings), a dead, absent or wrong sensor, bad and missing adapters, the doctor's probe and `hilrun sensor`. */
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

#include "config/config.h"
#include "util/err.h"
#include "drivers/i2c/i2c.h"
#include "drivers/sensor/ina219.h"
#include "drivers/sensor/ina219_model.h"
#include "drivers/sensor/ina226.h"
#include "drivers/sensor/ina226_model.h"
#include "drivers/sensor/sensor.h"
#include "cli/sensorcmd.h"
#include "unit_util.h"

/* ---- helpers ---- */

/* The defaults with an INA219 on bus. */
static void ina219_cfg(struct hil_config *cfg, const char *bus)
{
	hil_config_defaults(cfg);
	snprintf(cfg->sensor.type, sizeof(cfg->sensor.type), "ina219");
	snprintf(cfg->sensor.bus, sizeof(cfg->sensor.bus), "%s", bus);
}

/* The defaults with an INA226 on bus. */
static void ina226_cfg(struct hil_config *cfg, const char *bus)
{
	hil_config_defaults(cfg);
	snprintf(cfg->sensor.type, sizeof(cfg->sensor.type), "ina226");
	snprintf(cfg->sensor.bus, sizeof(cfg->sensor.bus), "%s", bus);
}

static void assert_contains(const char *text, const char *needle)
{
	if (strstr(text, needle) == NULL) {
		fail_msg("\"%s\" does not contain \"%s\"", text, needle);
	}
}

/* ---- opening ---- */

static void test_open_sim_writes_setup_and_describes_it(void **state)
{
	struct hil_config cfg = {0};
	struct hil_sensor *s = NULL;
	struct hil_sensor_info info;
	struct hil_regmodel *m;
	char err[512], line[512];

	(void)state;
	ina219_cfg(&cfg, "sim:ina219@0x40");
	assert_int_equal(hil_sensor_open(&cfg, &s, err, sizeof(err)), HIL_OK);
	assert_string_equal(err, "");
	assert_non_null(hil_sensor_source(s));
	assert_non_null(hil_sensor_bus(s));
	assert_string_equal(hil_i2c_spec(hil_sensor_bus(s)), "sim:ina219@0x40");
	m = hil_sensor_model(s);
	assert_non_null(m);
	assert_int_equal(hil_sensor_is_model(s), 1);

	/*
	 * 0.4 A / 2^15 = 12.2 uA, rounded up to 20 uA; cal = 0.04096 /
	 * (20 uA x 0.1 ohm) = 20480. 0.4 A x 0.1 ohm = 40 mV: PGA /1.
	 * Config: BRNG 0 (16 V), PG 00, BADC = SADC = 0011 (12 bit), mode
	 * 111 (shunt and bus, continuous) = 0x019F.
	 */
	hil_sensor_describe(s, &info);
	assert_string_equal(info.type, "ina219");
	assert_string_equal(info.bus, "sim:ina219@0x40");
	assert_string_equal(info.bus_type, "sim");
	assert_int_equal(info.address, 0x40);
	assert_int_equal(info.model, 1);
	assert_string_equal(info.source, "model");
	assert_true(info.shunt_ohm == 0.1);
	assert_true(info.max_current_a == 0.4);
	assert_int_equal(info.cal_reg, 20480);
	assert_int_equal(info.config_reg, 0x019F);
	assert_true(info.current_lsb_a > 19.999e-6 &&
		    info.current_lsb_a < 20.001e-6);
	assert_true(info.shunt_range_v == 0.04); /* PGA /1 */
	assert_int_equal(info.bus_range_v, 16);
	assert_int_equal(info.adc_bits, 12);
	assert_int_equal(info.averages, 1);
	assert_int_equal(info.cycle_us, 532 + 532);

	/* What the chip holds is what was described. */
	assert_int_equal(hil_regmodel_peek(m, INA2XX_REG_CONFIG), 0x019F);
	assert_int_equal(hil_regmodel_peek(m, INA2XX_REG_CAL), 20480);

	hil_sensor_summary(s, line, sizeof(line));
	assert_contains(line, "INA219 at 0x40 on sim:ina219@0x40 (model)");
	assert_contains(line, "cal 20480");
	assert_contains(line, "LSB 20 uA");
	assert_contains(line, "cycle 1064 us");
	hil_sensor_close(s);
	hil_config_free(&cfg);
}

static void test_config_settings_reach_the_chip(void **state)
{
	struct hil_config cfg = {0};
	struct hil_sensor *s = NULL;
	struct hil_sensor_info info;
	char err[512];

	(void)state;
	ina219_cfg(&cfg, "sim:ina219@0x45,shunt=0.01");
	cfg.sensor.address = 0x45;
	cfg.sensor.shunt_ohm = 0.01;
	cfg.sensor.max_current_a = 3.2;
	cfg.sensor.bus_range_v = 32;
	cfg.sensor.pga_div = 0;
	cfg.sensor.adc_bits = 12;
	cfg.sensor.averages = 8;
	assert_int_equal(hil_sensor_open(&cfg, &s, err, sizeof(err)), HIL_OK);
	hil_sensor_describe(s, &info);
	assert_int_equal(info.address, 0x45);
	/* 3.2 A x 10 mOhm = 32 mV: PGA /1 still; 100 uA LSB, cal 40960. */
	assert_true(info.shunt_range_v == 0.04);
	assert_int_equal(info.cal_reg, 40960);
	/* BRNG 1, PG 00, 8 samples = 1011 in both ADCs, mode 111. */
	assert_int_equal(info.config_reg, 0x2000 | 0xB << 7 | 0xB << 3 | 7);
	assert_int_equal(info.cycle_us, 4260 * 2);
	assert_int_equal(info.averages, 8);
	assert_int_equal(info.bus_range_v, 32);
	hil_sensor_close(s);
	hil_config_free(&cfg);
}

/*
 * 0.1 A through 0.1 ohm: the round LSB (5 uA) would need cal 81920, which
 * the register cannot hold; the sensor takes the next round LSB that fits
 * rather than refusing a common setup.
 */
static void test_small_full_scale_takes_an_lsb_that_fits(void **state)
{
	struct hil_config cfg = {0};
	struct hil_sensor *s = NULL;
	struct hil_sensor_info info;
	char err[512];

	(void)state;
	ina219_cfg(&cfg, "sim:ina219@0x40");
	cfg.sensor.max_current_a = 0.1;
	assert_int_equal(hil_sensor_open(&cfg, &s, err, sizeof(err)), HIL_OK);
	hil_sensor_describe(s, &info);
	assert_int_equal(info.cal_reg, 40960);
	assert_true(info.current_lsb_a > 9.999e-6 &&
		    info.current_lsb_a < 10.001e-6);
	hil_sensor_close(s);
	hil_config_free(&cfg);
}

static void test_readings_follow_the_load(void **state)
{
	struct hil_config cfg = {0};
	struct hil_sensor *s = NULL;
	struct hil_sensor_reading r;
	char err[512];

	(void)state;
	/* The model's default load: 10 mA at 3.3 V, through 0.1 ohm. */
	ina219_cfg(&cfg, "sim:ina219@0x40");
	assert_int_equal(hil_sensor_open(&cfg, &s, err, sizeof(err)), HIL_OK);
	ut_sleep_ms(5); /* a few 1.064 ms cycles */
	assert_int_equal(hil_sensor_read(s, &r), HIL_OK);
	assert_int_equal(r.cnvr, 1);
	assert_int_equal(r.bus_mv, 3300);
	assert_int_equal(r.shunt_uv, 1000);
	assert_true(r.current_ua > 9999.0 && r.current_ua < 10001.0);
	assert_true(r.power_uw > 32999.0 && r.power_uw < 33001.0);
	assert_int_equal(r.out_of_range, 0);
	/* Reading the power register cleared the flag. */
	assert_int_equal(hil_sensor_read(s, &r), HIL_OK);
	assert_int_equal(r.cnvr, 0);
	assert_int_equal(hil_sensor_read(NULL, &r), HIL_ERR_ARG);
	hil_sensor_close(s);
	hil_config_free(&cfg);
}

/* A current beyond the PGA range is a flag, and nothing is logged for it. */
static void test_current_beyond_range_is_flagged_quietly(void **state)
{
	struct hil_config cfg = {0};
	struct hil_sensor *s = NULL;
	struct hil_sensor_reading r;
	struct ut_capture c;
	char err[512], log[4096];

	(void)state;
	/* 500 mA through 0.1 ohm = 50 mV, the range is +-40 mV. */
	ina219_cfg(&cfg, "sim:ina219@0x40,idle_ma=500");
	assert_int_equal(hil_sensor_open(&cfg, &s, err, sizeof(err)), HIL_OK);
	ut_sleep_ms(5);
	ut_capture_begin(&c);
	assert_int_equal(hil_sensor_read(s, &r), HIL_OK);
	ut_capture_end(&c, log, sizeof(log));
	assert_int_equal(r.cnvr, 1);
	assert_int_equal(r.out_of_range, 1);
	assert_string_equal(log, "");
	hil_sensor_close(s);
	hil_config_free(&cfg);
}

static void test_open_bus_takes_a_bus_the_caller_opened(void **state)
{
	struct hil_config cfg = {0};
	struct hil_sensor *s = NULL;
	struct hil_i2c_bus *bus = NULL;
	char err[512];

	(void)state;
	ina219_cfg(&cfg, "ignored:here");
	assert_int_equal(hil_i2c_open(&bus, "sim:ina219@0x40"), HIL_OK);
	assert_int_equal(hil_sensor_open_bus(&cfg, bus, &s, err, sizeof(err)),
			 HIL_OK);
	assert_ptr_equal(hil_sensor_bus(s), bus);
	hil_sensor_close(s); /* closes the bus too: ASan finds a leak if not */

	/* On failure the bus is closed as well. */
	bus = NULL;
	assert_int_equal(hil_i2c_open(&bus, "sim:ina219@0x40,dead_after=0"),
			 HIL_OK);
	assert_int_equal(hil_sensor_open_bus(&cfg, bus, &s, err, sizeof(err)),
			 HIL_ERR_IO);
	assert_null(s);
	hil_config_free(&cfg);
}

/* ---- the INA226, through the same calls ---- */

static void test_ina226_open_sim_writes_setup_and_describes_it(void **state)
{
	struct hil_config cfg = {0};
	struct hil_sensor *s = NULL;
	struct hil_sensor_info info;
	struct hil_regmodel *m;
	char err[512], line[512];

	(void)state;
	ina226_cfg(&cfg, "sim:ina226@0x40");
	assert_int_equal(hil_sensor_open(&cfg, &s, err, sizeof(err)), HIL_OK);
	assert_string_equal(err, "");
	m = hil_sensor_model(s);
	assert_non_null(m);
	assert_ptr_equal(m, hil_i2c_sim_model(hil_sensor_bus(s), "ina226"));
	assert_int_equal(hil_sensor_is_model(s), 1);

	/*
	 * 0.4 A / 2^15 = 12.2 uA, rounded up to 20 uA; CAL = 0.00512 /
	 * (20 uA x 0.1 ohm) = 2560. Config: AVG 000 (1), VBUSCT = VSHCT =
	 * 100 (1.1 ms), mode 111, bit 14 as at power-on = 0x4127.
	 */
	hil_sensor_describe(s, &info);
	assert_string_equal(info.type, "ina226");
	assert_string_equal(info.chip, "INA226");
	assert_string_equal(info.bus, "sim:ina226@0x40");
	assert_int_equal(info.address, 0x40);
	assert_int_equal(info.model, 1);
	assert_string_equal(info.source, "model");
	assert_int_equal(info.config_reg, 0x4127);
	assert_int_equal(info.cal_reg, 2560);
	assert_true(info.current_lsb_a > 19.999e-6 &&
		    info.current_lsb_a < 20.001e-6);
	assert_true(info.power_lsb_w > 24.999 * info.current_lsb_a &&
		    info.power_lsb_w < 25.001 * info.current_lsb_a);
	assert_true(info.shunt_range_v == 0.08192);
	assert_int_equal(info.bus_range_v, 36);
	assert_int_equal(info.adc_bits, 16);
	assert_int_equal(info.averages, 1);
	assert_int_equal(info.conversion_us, 1100);
	assert_int_equal(info.cycle_us, 1100 + 1100);
	assert_int_equal(hil_regmodel_peek(m, INA2XX_REG_CONFIG), 0x4127);
	assert_int_equal(hil_regmodel_peek(m, INA2XX_REG_CAL), 2560);

	hil_sensor_summary(s, line, sizeof(line));
	assert_string_equal(line, "INA226 at 0x40 on sim:ina226@0x40 (model): "
				  "shunt 0.1 ohm, max 0.4 A, +-81.92 mV, "
				  "config 0x4127, cal 2560, LSB 20 uA, 1100 "
				  "us x1, cycle 2200 us");
	hil_sensor_close(s);

	/* Its own settings reach the chip: 16 x 588 us, 0x45. */
	ina226_cfg(&cfg, "sim:ina226@0x45");
	cfg.sensor.address = 0x45;
	cfg.sensor.averages = 16;
	cfg.sensor.conversion_us = 588;
	assert_int_equal(hil_sensor_open(&cfg, &s, err, sizeof(err)), HIL_OK);
	hil_sensor_describe(s, &info);
	assert_int_equal(info.address, 0x45);
	assert_int_equal(info.config_reg,
			 0x4000 | 2 << 9 | 3 << 6 | 3 << 3 | 7);
	assert_int_equal(info.cycle_us, 16 * (588 + 588));
	hil_sensor_close(s);
	hil_config_free(&cfg);
}

static void test_ina226_readings_follow_the_load(void **state)
{
	struct hil_config cfg = {0};
	struct hil_sensor *s = NULL;
	struct hil_sensor_reading r;
	struct ut_capture c;
	char err[512], log[4096];

	(void)state;
	/* 10 mA at 3.3 V through 0.1 ohm: 400 x 2.5 uV, 2640 x 1.25 mV. */
	ina226_cfg(&cfg, "sim:ina226@0x40");
	cfg.sensor.conversion_us = 140;
	assert_int_equal(hil_sensor_open(&cfg, &s, err, sizeof(err)), HIL_OK);
	ut_sleep_ms(5); /* a few 280 us cycles */
	assert_int_equal(hil_sensor_read(s, &r), HIL_OK);
	assert_int_equal(r.cnvr, 1);
	assert_true(r.bus_mv == 3300.0);
	assert_true(r.shunt_uv == 1000.0);
	assert_true(r.current_ua > 9999.0 && r.current_ua < 10001.0);
	assert_true(r.power_uw > 32999.0 && r.power_uw < 33001.0);
	assert_int_equal(r.out_of_range, 0);
	/* Reading Mask/Enable cleared the flag. */
	assert_int_equal(hil_sensor_read(s, &r), HIL_OK);
	assert_int_equal(r.cnvr, 0);
	hil_sensor_close(s);

	/* 900 mA x 0.1 ohm = 90 mV beyond +-81.92 mV: a flag, not logged. */
	ina226_cfg(&cfg, "sim:ina226@0x40,idle_ma=900");
	cfg.sensor.conversion_us = 140;
	assert_int_equal(hil_sensor_open(&cfg, &s, err, sizeof(err)), HIL_OK);
	ut_sleep_ms(5);
	ut_capture_begin(&c);
	assert_int_equal(hil_sensor_read(s, &r), HIL_OK);
	ut_capture_end(&c, log, sizeof(log));
	assert_int_equal(r.out_of_range, 1);
	assert_string_equal(log, "");
	hil_sensor_close(s);

	/*
	 * Open takes 10 transactions (first contact, both IDs, reset,
	 * calibration, mask/enable, configuration, three read back), a
	 * reading 3: with 13 the first reading works, the second fails.
	 */
	ina226_cfg(&cfg, "sim:ina226@0x40,dead_after=13");
	assert_int_equal(hil_sensor_open(&cfg, &s, err, sizeof(err)), HIL_OK);
	assert_int_equal(hil_sensor_read(s, &r), HIL_OK);
	assert_int_equal(hil_sensor_read(s, &r), HIL_ERR_IO);
	hil_sensor_close(s);
	hil_config_free(&cfg);
}

/* The driver knows its chip: an INA219 where an INA226 is configured. */
static void test_ina226_refuses_another_chip_naming_it(void **state)
{
	struct hil_config cfg = {0};
	struct hil_sensor *s = NULL;
	char err[512], detail[512];

	(void)state;
	ina226_cfg(&cfg, "sim:ina219@0x40");
	assert_int_equal(hil_sensor_open(&cfg, &s, err, sizeof(err)),
			 HIL_ERR_NA);
	assert_null(s);
	assert_string_equal(err, "INA226 at 0x40 on sim:ina219@0x40 answers "
				 "(configuration 0x399f) but is not an INA226 "
				 "(the message above says what it reads)");

	/* The doctor's probe says so, and writes nothing. */
	assert_int_equal(hil_sensor_probe(&cfg, detail, sizeof(detail)),
			 HIL_ERR_NA);
	assert_contains(detail, "INA226 at 0x40 on sim:ina219@0x40 answers: "
				"configuration 0x399f, but manufacturer ID "
				"0x0000, die ID 0x0000");
	assert_contains(detail, "not an INA226 (simulated)");
	ina226_cfg(&cfg, "sim:ina226@0x40");
	assert_int_equal(hil_sensor_probe(&cfg, detail, sizeof(detail)),
			 HIL_OK);
	assert_string_equal(detail,
			    "INA226 at 0x40 on sim:ina226@0x40 answers: "
			    "configuration 0x4127 (power-on default), "
			    "manufacturer ID 0x5449, die ID 0x2260 "
			    "(simulated)");
	ina226_cfg(&cfg, "sim:ina226@0x40,dead_after=0");
	assert_int_equal(hil_sensor_probe(&cfg, detail, sizeof(detail)),
			 HIL_ERR_IO);
	assert_contains(detail, "INA226 at 0x40 on sim:ina226@0x40,"
				"dead_after=0 does not answer");
	hil_config_free(&cfg);
}

/* ---- unhappy paths ---- */

static void test_dead_sensor_is_an_error_naming_address_and_bus(void **state)
{
	struct hil_config cfg = {0};
	struct hil_sensor *s = (struct hil_sensor *)&cfg;
	char err[512];

	(void)state;
	ina219_cfg(&cfg, "sim:ina219@0x40,dead_after=0");
	assert_int_equal(hil_sensor_open(&cfg, &s, err, sizeof(err)),
			 HIL_ERR_IO);
	assert_null(s);
	assert_contains(err, "INA219 at 0x40 on sim:ina219@0x40,dead_after=0 "
			     "does not answer");
	assert_contains(err, "A0/A1");
	hil_config_free(&cfg);
}

static void test_wrong_address_is_an_error_naming_it(void **state)
{
	struct hil_config cfg = {0};
	struct hil_sensor *s = NULL;
	char err[512];

	(void)state;
	ina219_cfg(&cfg, "sim:ina219@0x41");
	assert_int_equal(hil_sensor_open(&cfg, &s, err, sizeof(err)),
			 HIL_ERR_IO);
	assert_contains(err, "INA219 at 0x40 on sim:ina219@0x41 does not "
			     "answer");
	assert_contains(err, "give address 0x40");
	hil_config_free(&cfg);
}

/*
 * Open takes 6 transactions (first contact, reset, configuration,
 * calibration, both read back), a reading 3: with 9 the first reading
 * works and the second finds the sensor gone.
 */
static void test_sensor_that_dies_after_open_fails_the_read(void **state)
{
	struct hil_config cfg = {0};
	struct hil_sensor *s = NULL;
	struct hil_sensor_reading r;
	char err[512];

	(void)state;
	ina219_cfg(&cfg, "sim:ina219@0x40,dead_after=9");
	assert_int_equal(hil_sensor_open(&cfg, &s, err, sizeof(err)), HIL_OK);
	assert_int_equal(hil_sensor_read(s, &r), HIL_OK);
	assert_int_equal(hil_sensor_read(s, &r), HIL_ERR_IO);
	assert_int_equal(hil_sensor_read(s, &r), HIL_ERR_IO);
	hil_sensor_close(s);
	hil_config_free(&cfg);
}

static void test_bad_bus_specs_are_config_errors(void **state)
{
	struct hil_config cfg = {0};
	struct hil_sensor *s = NULL;
	char err[512];

	(void)state;
	ina219_cfg(&cfg, "usb:0403:6014");
	assert_int_equal(hil_sensor_open(&cfg, &s, err, sizeof(err)),
			 HIL_ERR_CONFIG);
	assert_null(s);
	assert_contains(err, "sensor.bus \"usb:0403:6014\": not a bus spec");
	assert_contains(err, "ftdi:VID:PID[:SERIAL]");

	ina219_cfg(&cfg, "sim:ina219@zz");
	assert_int_equal(hil_sensor_open(&cfg, &s, err, sizeof(err)),
			 HIL_ERR_CONFIG);
	assert_contains(err, "sensor.bus \"sim:ina219@zz\"");

	/* The simulated bus has the models of the sensor table's chips. */
	{
		struct ut_capture c;
		char log[4096];

		ina219_cfg(&cfg, "sim:ina999@0x40");
		ut_capture_begin(&c);
		assert_int_equal(hil_sensor_open(&cfg, &s, err, sizeof(err)),
				 HIL_ERR_CONFIG);
		ut_capture_end(&c, log, sizeof(log));
		assert_contains(err, "sensor.bus \"sim:ina999@0x40\"");
		assert_contains(log, "the simulated bus hosts ina219");
	}

	ina219_cfg(&cfg, "ftdi:not-hex");
	assert_int_equal(hil_sensor_open(&cfg, &s, err, sizeof(err)),
			 HIL_ERR_CONFIG);
	assert_contains(err, "sensor.bus \"ftdi:not-hex\"");

	ina219_cfg(&cfg, "linux:i2c-1");
	assert_int_equal(hil_sensor_open(&cfg, &s, err, sizeof(err)),
			 HIL_ERR_CONFIG);

	ina219_cfg(&cfg, "");
	assert_int_equal(hil_sensor_open(&cfg, &s, err, sizeof(err)),
			 HIL_ERR_CONFIG);
	assert_contains(err, "sensor.bus: required");
	hil_config_free(&cfg);
}

static void test_no_sensor_configured_is_not_available(void **state)
{
	struct hil_config cfg = {0};
	struct hil_sensor *s = NULL;
	char err[512];

	(void)state;
	hil_config_defaults(&cfg);
	assert_int_equal(hil_sensor_configured(&cfg), 0);
	assert_int_equal(hil_sensor_configured(NULL), 0);
	assert_int_equal(hil_sensor_open(&cfg, &s, err, sizeof(err)),
			 HIL_ERR_NA);
	assert_contains(err, "no sensor configured");
	assert_int_equal(hil_sensor_open(NULL, &s, err, sizeof(err)),
			 HIL_ERR_ARG);
	assert_int_equal(hil_sensor_open(&cfg, NULL, NULL, 0), HIL_ERR_ARG);
	hil_sensor_close(NULL);
	hil_config_free(&cfg);
}

/*
 * No adapter of this serial is plugged in (or, in a container, there is no
 * USB at all): the error comes at once and names what was looked for.
 */
static void test_missing_ftdi_adapter_fails_fast_naming_it(void **state)
{
	struct hil_config cfg = {0};
	struct hil_sensor *s = NULL;
	char err[512];
	uint64_t t0;

	(void)state;
	ina219_cfg(&cfg, "ftdi:0403:6014:HILTEST-NONE");
	t0 = ut_ms_now();
	assert_int_equal(hil_sensor_open(&cfg, &s, err, sizeof(err)),
			 HIL_ERR_NA);
	assert_true(ut_ms_now() - t0 < UT_HANG_MS);
	assert_null(s);
	assert_contains(err, "sensor.bus \"ftdi:0403:6014:HILTEST-NONE\"");
	assert_contains(err, "no FTDI adapter 0403:6014:HILTEST-NONE");
	hil_config_free(&cfg);
}

static void test_missing_linux_adapter_fails_fast_naming_it(void **state)
{
	struct hil_config cfg = {0};
	struct hil_sensor *s = NULL;
	char err[512];
	uint64_t t0;

	(void)state;
	ina219_cfg(&cfg, "linux:/dev/i2c-hiltest-none");
	t0 = ut_ms_now();
	assert_int_equal(hil_sensor_open(&cfg, &s, err, sizeof(err)),
			 HIL_ERR_NA);
	assert_true(ut_ms_now() - t0 < UT_HANG_MS);
	assert_contains(err, "no I2C adapter /dev/i2c-hiltest-none");
	hil_config_free(&cfg);
}

/* ---- the doctor's probe ---- */

static void test_probe_reads_without_writing(void **state)
{
	struct hil_config cfg = {0};
	char detail[512];

	(void)state;
	ina219_cfg(&cfg, "sim:ina219@0x40");
	assert_int_equal(hil_sensor_probe(&cfg, detail, sizeof(detail)),
			 HIL_OK);
	/* Still the power-on value: nothing was written. */
	assert_string_equal(detail,
			    "INA219 at 0x40 on sim:ina219@0x40 answers: "
			    "configuration 0x399f (power-on default) "
			    "(simulated)");

	ina219_cfg(&cfg, "sim:ina219@0x40,dead_after=0");
	assert_int_equal(hil_sensor_probe(&cfg, detail, sizeof(detail)),
			 HIL_ERR_IO);
	assert_contains(detail, "does not answer");

	ina219_cfg(&cfg, "ftdi:0403:6014:HILTEST-NONE");
	assert_int_equal(hil_sensor_probe(&cfg, detail, sizeof(detail)),
			 HIL_ERR_NA);
	assert_contains(detail, "no FTDI adapter 0403:6014:HILTEST-NONE");

	hil_config_defaults(&cfg);
	assert_int_equal(hil_sensor_probe(&cfg, detail, sizeof(detail)),
			 HIL_ERR_NA);
	hil_config_free(&cfg);
}

/* ---- hilrun sensor ---- */

struct cmd_result {
	int ret;
	char out[16384];
	char log[8192];
};

/* Run `hilrun sensor` on a config file holding json. */
static void run_cmd(const char *json, const char *seconds,
		    const volatile sig_atomic_t *stop, struct cmd_result *res)
{
	char path[] = "/tmp/hiltest-sensor-XXXXXX";
	char *argv[6];
	char *text = NULL;
	size_t len = 0;
	struct ut_capture c;
	FILE *f, *out;
	int fd, argc = 0;

	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(json, f);
	fclose(f);
	argv[argc++] = "sensor";
	argv[argc++] = "--config";
	argv[argc++] = path;
	if (seconds != NULL) {
		argv[argc++] = "--seconds";
		argv[argc++] = (char *)seconds;
	}
	argv[argc] = NULL;
	out = open_memstream(&text, &len);
	assert_non_null(out);
	ut_capture_begin(&c);
	res->ret = hil_sensorcmd_run(argc, argv, stop, out);
	ut_capture_end(&c, res->log, sizeof(res->log));
	fclose(out);
	snprintf(res->out, sizeof(res->out), "%s", text);
	free(text);
	unlink(path);
	fprintf(stderr, "%s", res->out);
}

#define CFG_SIM(opts)                                                          \
	"{\"algorithms\": [\"ascon-aead128\"], \"sensor\": {\"type\": "        \
	"\"ina219\", \"bus\": \"sim:ina219@0x40" opts "\"}}"

static void test_cmd_prints_readings_for_the_wiring_check(void **state)
{
	struct cmd_result *res = calloc(1, sizeof(*res));
	uint64_t t0 = ut_ms_now(), ms;
	const char *p;
	int lines = 0;

	(void)state;
	assert_non_null(res);
	run_cmd(CFG_SIM(""), "0.5", NULL, res);
	ms = ut_ms_now() - t0;
	assert_int_equal(res->ret, HIL_OK);
	assert_true(ms >= 450 && ms < UT_HANG_MS);
	assert_contains(res->out,
			"# INA219 at 0x40 on sim:ina219@0x40 (model)");
	assert_contains(res->out, "# simulated: these readings come from a "
				  "model");
	assert_contains(res->out, "  time_s    bus_V  shunt_mV        mA"
				  "        mW     n\n");
	/* 10 mA at 3.3 V through 0.1 ohm, a line per ~0.2 s. */
	for (p = strstr(res->out, "   3.300     1.000    10.000    33.000");
	     p != NULL;
	     p = strstr(p + 1, "   3.300     1.000    10.000    33.000")) {
		lines++;
	}
	assert_true(lines >= 2 && lines <= 4);
	assert_null(strstr(res->out, "OVERFLOW"));
	free(res);
}

static void test_cmd_reads_an_ina226(void **state)
{
	struct cmd_result *res = calloc(1, sizeof(*res));

	(void)state;
	assert_non_null(res);
	run_cmd("{\"algorithms\": [\"ascon-aead128\"], \"sensor\": {\"type\": "
		"\"ina226\", \"bus\": \"sim:ina226@0x40\", \"averages\": 4,"
		" \"conversion_us\": 588}}",
		"0.5", NULL, res);
	assert_int_equal(res->ret, HIL_OK);
	assert_contains(res->out,
			"# INA226 at 0x40 on sim:ina226@0x40 (model): ");
	assert_contains(res->out, "588 us x4, cycle 4704 us");
	assert_contains(res->out, "# simulated: these readings come from a "
				  "model");
	assert_contains(res->out, "   3.300     1.000    10.000    33.000");
	assert_null(strstr(res->out, "OVERFLOW"));
	free(res);
}

static void test_cmd_marks_overflow_and_goes_on(void **state)
{
	struct cmd_result *res = calloc(1, sizeof(*res));

	(void)state;
	assert_non_null(res);
	run_cmd(CFG_SIM(",idle_ma=500"), "0.3", NULL, res);
	assert_int_equal(res->ret, HIL_OK);
	assert_contains(res->out, "OVERFLOW: beyond the shunt range, clipped");
	free(res);
}

static void test_cmd_without_sensor_says_so(void **state)
{
	struct cmd_result *res = calloc(1, sizeof(*res));

	(void)state;
	assert_non_null(res);
	run_cmd("{\"algorithms\": [\"ascon-aead128\"]}", "1", NULL, res);
	assert_int_equal(res->ret, HIL_ERR_NA);
	assert_contains(res->log, "configures no sensor (sensor.type is "
				  "\"none\")");
	assert_contains(res->log, "docs/wiring.md");
	assert_string_equal(res->out, "");
	free(res);
}

static void test_cmd_dead_sensor_fails_with_reason(void **state)
{
	struct cmd_result *res = calloc(1, sizeof(*res));

	(void)state;
	assert_non_null(res);
	run_cmd(CFG_SIM(",dead_after=0"), "1", NULL, res);
	assert_int_equal(res->ret, HIL_ERR_IO);
	assert_contains(res->log, "INA219 at 0x40 on sim:ina219@0x40,"
				  "dead_after=0 does not answer");

	/* Answers at first, then stops: the readings so far stay printed. */
	run_cmd(CFG_SIM(",dead_after=60"), "5", NULL, res);
	assert_int_equal(res->ret, HIL_ERR_IO);
	assert_contains(res->log, "stopped answering after");
	assert_contains(res->out, "# INA219 at 0x40");
	free(res);
}

static void test_cmd_missing_adapter_fails_fast(void **state)
{
	struct cmd_result *res = calloc(1, sizeof(*res));
	uint64_t t0 = ut_ms_now();

	(void)state;
	assert_non_null(res);
	run_cmd("{\"algorithms\": [\"ascon-aead128\"], \"sensor\": {\"type\": "
		"\"ina219\", \"bus\": \"ftdi:0403:6014:HILTEST-NONE\"}}",
		NULL, NULL, res);
	assert_int_equal(res->ret, HIL_ERR_NA);
	assert_true(ut_ms_now() - t0 < UT_HANG_MS);
	assert_contains(res->log, "no FTDI adapter 0403:6014:HILTEST-NONE");
	free(res);
}

static void test_cmd_stops_when_asked(void **state)
{
	struct cmd_result *res = calloc(1, sizeof(*res));
	volatile sig_atomic_t stop = 1;
	uint64_t t0 = ut_ms_now();

	(void)state;
	assert_non_null(res);
	run_cmd(CFG_SIM(""), NULL, &stop, res); /* no --seconds: until stop */
	assert_int_equal(res->ret, HIL_OK);
	assert_true(ut_ms_now() - t0 < UT_HANG_MS);
	free(res);
}

static void test_cmd_usage_errors(void **state)
{
	char *no_config[] = {"sensor", NULL};
	char *bad_seconds[] = {"sensor",    "--config", "x.json",
			       "--seconds", "-1",	NULL};
	char *no_value[] = {"sensor", "--config", NULL};
	char *unknown[] = {"sensor", "--config", "x.json", "--rate", "5", NULL};
	char *missing_file[] = {"sensor", "--config", "/nonexistent/x.json",
				NULL};

	(void)state;
	assert_int_equal(hil_sensorcmd_run(1, no_config, NULL, stdout),
			 HIL_ERR_ARG);
	assert_int_equal(hil_sensorcmd_run(5, bad_seconds, NULL, stdout),
			 HIL_ERR_ARG);
	assert_int_equal(hil_sensorcmd_run(2, no_value, NULL, stdout),
			 HIL_ERR_ARG);
	assert_int_equal(hil_sensorcmd_run(5, unknown, NULL, stdout),
			 HIL_ERR_ARG);
	assert_int_equal(hil_sensorcmd_run(3, missing_file, NULL, stdout),
			 HIL_ERR_IO);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_open_sim_writes_setup_and_describes_it),
		cmocka_unit_test(test_config_settings_reach_the_chip),
		cmocka_unit_test(test_small_full_scale_takes_an_lsb_that_fits),
		cmocka_unit_test(test_readings_follow_the_load),
		cmocka_unit_test(test_current_beyond_range_is_flagged_quietly),
		cmocka_unit_test(
			test_ina226_open_sim_writes_setup_and_describes_it),
		cmocka_unit_test(test_ina226_readings_follow_the_load),
		cmocka_unit_test(test_ina226_refuses_another_chip_naming_it),
		cmocka_unit_test(test_open_bus_takes_a_bus_the_caller_opened),
		cmocka_unit_test(
			test_dead_sensor_is_an_error_naming_address_and_bus),
		cmocka_unit_test(test_wrong_address_is_an_error_naming_it),
		cmocka_unit_test(
			test_sensor_that_dies_after_open_fails_the_read),
		cmocka_unit_test(test_bad_bus_specs_are_config_errors),
		cmocka_unit_test(test_no_sensor_configured_is_not_available),
		cmocka_unit_test(
			test_missing_ftdi_adapter_fails_fast_naming_it),
		cmocka_unit_test(
			test_missing_linux_adapter_fails_fast_naming_it),
		cmocka_unit_test(test_probe_reads_without_writing),
		cmocka_unit_test(test_cmd_prints_readings_for_the_wiring_check),
		cmocka_unit_test(test_cmd_reads_an_ina226),
		cmocka_unit_test(test_cmd_marks_overflow_and_goes_on),
		cmocka_unit_test(test_cmd_without_sensor_says_so),
		cmocka_unit_test(test_cmd_dead_sensor_fails_with_reason),
		cmocka_unit_test(test_cmd_missing_adapter_fails_fast),
		cmocka_unit_test(test_cmd_stops_when_asked),
		cmocka_unit_test(test_cmd_usage_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
