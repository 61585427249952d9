/* test_i2c_ftdi: the ftdi MPSSE I2C backend through an MPSSE interpreter behind a substituted libftdi table, and the interpreter itself. */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <libftdi1/ftdi.h>

#include "run/energy.h"
#include "util/err.h"
#include "drivers/i2c/i2c.h"
#include "drivers/sensor/ina219.h"
#include "drivers/sensor/ina219_model.h"
#include "drivers/sensor/sensor.h"
#include "config/config.h"
#include "mpsse_interp.h"
#include "unit_util.h"

/* ---- the fake libftdi: an FT232H 0403:6014 serial FT1234 ---- */

struct fake {
	struct mpsse_interp interp; /* the chip */
	struct hil_regmodel *dev;   /* on its I2C bus at 0x40 */
	int present;		    /* plugged in */
	int write_error;	    /* ftdi_write_data fails with this */
	int mute;		    /* the MPSSE never answers */
	unsigned writes, reads, opens, closes;
	int last_vid, last_pid;
	char last_serial[64];
};

/* The fake functions have libftdi's signatures: they find the chip here. */
static struct fake *g;

static struct ftdi_context *fake_new(void)
{
	return calloc(1, sizeof(struct ftdi_context));
}

static void fake_free(struct ftdi_context *c)
{
	free(c);
}

static int fake_set_interface(struct ftdi_context *c, int iface)
{
	(void)c;
	return iface == INTERFACE_A ? 0 : -1;
}

static int fake_open(struct ftdi_context *c, int vid, int pid, const char *desc,
		     const char *serial)
{
	(void)desc;
	g->opens++;
	g->last_vid = vid;
	g->last_pid = pid;
	snprintf(g->last_serial, sizeof(g->last_serial), "%s",
		 serial != NULL ? serial : "");
	if (!g->present || vid != 0x0403 || pid != 0x6014 ||
	    (serial != NULL && strcmp(serial, "FT1234") != 0)) {
		c->error_str = "device not found";
		return -3;
	}
	return 0;
}

static int fake_close(struct ftdi_context *c)
{
	(void)c;
	g->closes++;
	return 0;
}

static int fake_ok(struct ftdi_context *c)
{
	(void)c;
	return 0;
}

static int fake_latency(struct ftdi_context *c, unsigned char l)
{
	(void)c;
	return l >= 1 ? 0 : -1;
}

static int fake_bitmode(struct ftdi_context *c, unsigned char mask,
			unsigned char mode)
{
	(void)c;
	(void)mask;
	return (mode == BITMODE_RESET || mode == BITMODE_MPSSE) ? 0 : -1;
}

static int fake_flush(struct ftdi_context *c)
{
	(void)c;
	mpsse_interp_purge(&g->interp);
	return 0;
}

static int fake_write(struct ftdi_context *c, const unsigned char *buf,
		      int size)
{
	g->writes++;
	if (g->write_error != 0) {
		c->error_str = "usb bulk write failed";
		return g->write_error;
	}
	return mpsse_interp_write(&g->interp, buf, (size_t)size);
}

static int fake_read(struct ftdi_context *c, unsigned char *buf, int size)
{
	(void)c;
	g->reads++;
	if (g->mute) {
		return 0;
	}
	return mpsse_interp_read(&g->interp, buf, (size_t)size);
}

static const char *fake_error(struct ftdi_context *c)
{
	return c->error_str;
}

static const struct hil_ftdi_api fake_api = {
	.ftdi_new = fake_new,
	.ftdi_free = fake_free,
	.ftdi_set_interface = fake_set_interface,
	.ftdi_usb_open_desc = fake_open,
	.ftdi_usb_close = fake_close,
	.ftdi_usb_reset = fake_ok,
	.ftdi_set_latency_timer = fake_latency,
	.ftdi_set_bitmode = fake_bitmode,
	.ftdi_tcioflush = fake_flush,
	.ftdi_write_data = fake_write,
	.ftdi_read_data = fake_read,
	.ftdi_get_error_string = fake_error,
};

static int setup(void **state)
{
	struct fake *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	mpsse_interp_init(&f->interp);
	f->dev = ina219_model_new(0x40, 0.1);
	assert_non_null(f->dev);
	assert_int_equal(mpsse_interp_attach(&f->interp, f->dev), 0);
	f->present = 1;
	g = f;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fake *f = *state;

	hil_regmodel_free(f->dev);
	free(f);
	g = NULL;
	return 0;
}

/* ---- helpers ---- */

static struct hil_i2c_bus *open_bus(struct fake *f, const char *where)
{
	struct hil_i2c_bus *bus = NULL;

	assert_int_equal(hil_i2c_ftdi_open(&bus, where, &fake_api), HIL_OK);
	assert_non_null(bus);
	assert_string_equal(f->interp.error, "");
	mpsse_interp_clear_trace(&f->interp);
	return bus;
}

/* ---- the interpreter on its own ---- */

static void test_interp_answers_bad_opcode_like_the_chip(void **state)
{
	struct fake *f = *state;
	const uint8_t cmd[] = {0xAA, 0x87};
	uint8_t got[4];

	mpsse_interp_write(&f->interp, cmd, 1);
	assert_int_equal(mpsse_interp_read(&f->interp, got, sizeof(got)), 0);
	mpsse_interp_write(&f->interp, cmd + 1, 1); /* SEND_IMMEDIATE */
	assert_int_equal(mpsse_interp_read(&f->interp, got, sizeof(got)), 2);
	assert_int_equal(got[0], 0xFA);
	assert_int_equal(got[1], 0xAA);
	assert_int_equal(f->interp.bad_ops, 1);
}

static void test_interp_flags_scl_and_sda_changing_together(void **state)
{
	struct fake *f = *state;
	const uint8_t cmd[] = {0x80, 0x00, 0x03}; /* both low at once */

	mpsse_interp_write(&f->interp, cmd, sizeof(cmd));
	assert_non_null(strstr(f->interp.error, "one step"));
}

static void test_interp_flags_clocking_with_scl_released(void **state)
{
	struct fake *f = *state;
	const uint8_t cmd[] = {0x22, 0x00};

	mpsse_interp_write(&f->interp, cmd, sizeof(cmd));
	assert_non_null(strstr(f->interp.error, "SCL"));
}

static void test_interp_flags_contention(void **state)
{
	struct fake *f = *state;
	/* START, address 0x40 write with SDA driven high through its ACK */
	const uint8_t cmd[] = {0x80, 0x00, 0x02, 0x80, 0x00,
			       0x03, 0x13, 0x07, 0x80, /* 0x80 = 0x40 << 1 */
			       0x80, 0x02, 0x03,       /* AD1 drives 1 */
			       0x22, 0x00};

	mpsse_interp_write(&f->interp, cmd, sizeof(cmd));
	assert_non_null(strstr(f->interp.error, "contention"));
}

static void test_interp_joins_commands_split_across_writes(void **state)
{
	struct fake *f = *state;
	const uint8_t cmd[] = {0x86, 0x31, 0x00, 0x8A, 0x8C};

	mpsse_interp_write(&f->interp, cmd, 2);
	mpsse_interp_write(&f->interp, cmd + 2, 3);
	assert_int_equal(f->interp.divisor, 49);
	assert_true(mpsse_interp_scl_hz(&f->interp) > 399999.0 &&
		    mpsse_interp_scl_hz(&f->interp) < 400001.0);
	assert_string_equal(f->interp.error, "");
}

/* ---- the backend ---- */

static void test_ftdi_open_sets_up_mpsse_for_i2c(void **state)
{
	struct fake *f = *state;
	struct hil_i2c_bus *bus;
	unsigned hz, div;

	bus = open_bus(f, "0403:6014");
	assert_int_equal(f->interp.div5, 0);	    /* 0x8A: 60 MHz */
	assert_int_equal(f->interp.three_phase, 1); /* 0x8C */
	assert_int_equal(f->interp.adaptive, 0);    /* 0x97 */
	assert_int_equal(f->interp.loopback, 0);
	assert_int_equal(f->interp.divisor, 49);
	assert_true(mpsse_interp_scl_hz(&f->interp) == 400000.0);
	assert_int_equal(hil_i2c_ftdi_clock(bus, &hz, &div), HIL_OK);
	assert_int_equal(hz, 400000);
	assert_int_equal(div, 49);
	/* Synchronised with the two bad opcodes, nothing else refused. */
	assert_int_equal(f->interp.bad_ops, 2);
	assert_int_equal(f->interp.bad[0], 0xAA);
	assert_int_equal(f->interp.bad[1], 0xAB);
	/* The bus was recovered (nine clocks, STOP) and is left idle. */
	assert_true(f->interp.sclk >= 9);
	assert_int_equal(f->interp.scl, 1);
	assert_int_equal(f->interp.sda, 1);
	assert_int_equal(f->interp.lo_dir & 0x07, 0);
	hil_i2c_close(bus);
	assert_int_equal(f->closes, 1);
}

static void test_ftdi_open_100k(void **state)
{
	struct fake *f = *state;
	struct hil_i2c_bus *bus = open_bus(f, "0403:6014:FT1234,100k");

	assert_int_equal(f->interp.divisor, 199);
	assert_true(mpsse_interp_scl_hz(&f->interp) == 100000.0);
	assert_string_equal(f->last_serial, "FT1234");
	hil_i2c_close(bus);
}

static void test_ftdi_write_register(void **state)
{
	struct fake *f = *state;
	struct hil_i2c_bus *bus = open_bus(f, "0403:6014");
	const uint8_t w[3] = {0x05, 0x10, 0x01}; /* cal 0x1001 */

	assert_int_equal(hil_i2c_xfer(bus, 0x40, w, 3, NULL, 0), HIL_OK);
	assert_string_equal(f->interp.error, "");
	assert_string_equal(f->interp.trace, "S 80+ 05+ 10+ 01+ P ");
	/* FS0 is void: bit 0 of the calibration cannot be set. */
	assert_int_equal(hil_regmodel_peek(f->dev, 0x05), 0x1000);
	hil_i2c_close(bus);
}

static void test_ftdi_read_without_pointer_write(void **state)
{
	struct fake *f = *state;
	struct hil_i2c_bus *bus = open_bus(f, "0403:6014");
	uint8_t r[2] = {0, 0};

	/* The pointer is 0 after power-on: the configuration, 0x399F. */
	assert_int_equal(hil_i2c_xfer(bus, 0x40, NULL, 0, r, 2), HIL_OK);
	assert_string_equal(f->interp.error, "");
	assert_string_equal(f->interp.trace, "S 81+ r39+ r9f- P ");
	assert_int_equal(r[0], 0x39);
	assert_int_equal(r[1], 0x9F);
	hil_i2c_close(bus);
}

static void test_ftdi_write_then_read_with_repeated_start(void **state)
{
	struct fake *f = *state;
	struct hil_i2c_bus *bus = open_bus(f, "0403:6014");
	struct hil_i2c_stats a, b;
	const uint8_t cal[3] = {0x05, 0xA5, 0x5A};
	uint8_t ptr = 0x05, r[2];
	unsigned w0, r0;

	assert_int_equal(hil_i2c_xfer(bus, 0x40, cal, 3, NULL, 0), HIL_OK);
	mpsse_interp_clear_trace(&f->interp);
	assert_int_equal(hil_i2c_get_stats(bus, &a), HIL_OK);
	w0 = f->writes;
	r0 = f->reads;
	assert_int_equal(hil_i2c_xfer(bus, 0x40, &ptr, 1, r, 2), HIL_OK);
	assert_int_equal(hil_i2c_get_stats(bus, &b), HIL_OK);
	assert_string_equal(f->interp.error, "");
	assert_string_equal(f->interp.trace, "S 80+ 05+ Sr 81+ ra5+ r5a- P ");
	assert_int_equal(r[0], 0xA5);
	assert_int_equal(r[1], 0x5A);
	/* One register read = exactly one USB write and one USB read. */
	assert_int_equal(f->writes - w0, 1);
	assert_int_equal(f->reads - r0, 1);
	assert_int_equal(b.usb_writes - a.usb_writes, 1);
	assert_int_equal(b.usb_reads - a.usb_reads, 1);
	assert_int_equal(b.transactions - a.transactions, 1);
	/* Answer: 3 ACK bits (address, pointer, address) + 2 data bytes. */
	assert_int_equal(b.usb_bytes_in - a.usb_bytes_in, 5);
	hil_i2c_close(bus);
}

static void test_ftdi_nack_on_wrong_address_names_it(void **state)
{
	struct fake *f = *state;
	struct hil_i2c_bus *bus = open_bus(f, "0403:6014");
	struct ut_capture c;
	char log[2048];
	uint8_t ptr = 0x00, r[2];
	int ret;

	ut_capture_begin(&c);
	ret = hil_i2c_xfer(bus, 0x41, &ptr, 1, r, 2);
	ut_capture_end(&c, log, sizeof(log));
	assert_int_equal(ret, HIL_ERR_IO);
	assert_non_null(strstr(log, "0x41"));
	assert_non_null(strstr(log, "address (write)"));
	assert_string_equal(f->interp.error, "");
	/* The transaction still ended with a STOP: the bus is idle. */
	assert_int_equal(f->interp.scl, 1);
	assert_int_equal(f->interp.sda, 1);
	assert_non_null(strstr(f->interp.trace, "82- "));
	/* ... and the bus still works for the right address. */
	assert_int_equal(hil_i2c_xfer(bus, 0x40, &ptr, 1, r, 2), HIL_OK);
	assert_int_equal(r[0] << 8 | r[1], 0x399F);
	hil_i2c_close(bus);
}

static void test_ftdi_nack_in_batch_names_the_transaction(void **state)
{
	struct fake *f = *state;
	struct hil_i2c_bus *bus = open_bus(f, "0403:6014");
	uint8_t p0 = 0x00, p1 = 0x05, r0[2], r1[2];
	struct hil_i2c_msg m[2] = {{0x40, &p0, 1, r0, 2},
				   {0x44, &p1, 1, r1, 2}};
	struct ut_capture c;
	char log[2048];
	int ret;

	ut_capture_begin(&c);
	ret = hil_i2c_xfer_batch(bus, m, 2);
	ut_capture_end(&c, log, sizeof(log));
	assert_int_equal(ret, HIL_ERR_IO);
	assert_non_null(strstr(log, "0x44"));
	assert_non_null(strstr(log, "transaction 2 of 2"));
	hil_i2c_close(bus);
}

static void test_ftdi_missing_adapter_names_what_it_looked_for(void **state)
{
	struct fake *f = *state;
	struct hil_i2c_bus *bus = NULL;
	struct ut_capture c;
	char log[2048];
	int ret;

	f->present = 0;
	ut_capture_begin(&c);
	ret = hil_i2c_ftdi_open(&bus, "0403:6014:FT9999", &fake_api);
	ut_capture_end(&c, log, sizeof(log));
	assert_int_equal(ret, HIL_ERR_NA);
	assert_null(bus);
	assert_non_null(strstr(log, "0403:6014"));
	assert_non_null(strstr(log, "FT9999"));
	assert_int_equal(f->writes, 0);
}

static void test_ftdi_missing_adapter_by_description(void **state)
{
	struct fake *f = *state;
	struct hil_i2c_bus *bus = NULL;
	struct ut_capture c;
	char log[2048];
	int ret;

	f->present = 0;
	ut_capture_begin(&c);
	ret = hil_i2c_ftdi_open(&bus, "desc=C232HM-DDHSL-0", &fake_api);
	ut_capture_end(&c, log, sizeof(log));
	assert_int_equal(ret, HIL_ERR_NA);
	assert_int_equal(f->opens, 3); /* 6014, 6010, 6011 */
	assert_non_null(strstr(log, "C232HM-DDHSL-0"));
}

/* With the real libftdi: there is no adapter on this machine. */
static void test_ftdi_missing_adapter_real_libftdi_within_seconds(void **s)
{
	struct hil_i2c_bus *bus = NULL;
	struct ut_capture c;
	char log[2048];
	uint64_t t0 = ut_ms_now();
	int ret;

	(void)s;
	ut_capture_begin(&c);
	ret = hil_i2c_open(&bus, "ftdi:0403:6014:HILTEST-NONE");
	ut_capture_end(&c, log, sizeof(log));
	if (ret == HIL_OK) {
		hil_i2c_close(bus);
		skip(); /* impossible unless such an adapter exists */
	}
	assert_int_equal(ret, HIL_ERR_NA);
	assert_true(ut_ms_now() - t0 < UT_HANG_MS);
	assert_non_null(strstr(log, "0403:6014"));
	assert_non_null(strstr(log, "HILTEST-NONE"));
}

static void test_ftdi_bad_specs_are_refused(void **state)
{
	struct hil_i2c_bus *bus = NULL;
	const char *bad[] = {"zz",    "0403",		"0403:6014,200k",
			     "desc=", "0403:6014,if=E", "12345:1"};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(hil_i2c_ftdi_open(&bus, bad[i], &fake_api),
				 HIL_ERR_ARG);
		assert_null(bus);
	}
}

static void test_ftdi_usb_write_error_is_reported(void **state)
{
	struct fake *f = *state;
	struct hil_i2c_bus *bus = open_bus(f, "0403:6014");
	struct ut_capture c;
	char log[2048];
	uint8_t ptr = 0, r[2];
	int ret;

	f->write_error = -666;
	ut_capture_begin(&c);
	ret = hil_i2c_xfer(bus, 0x40, &ptr, 1, r, 2);
	ut_capture_end(&c, log, sizeof(log));
	assert_int_equal(ret, HIL_ERR_IO);
	assert_non_null(strstr(log, "usb bulk write failed"));
	f->write_error = 0;
	hil_i2c_close(bus);
}

static void test_ftdi_silent_mpsse_times_out(void **state)
{
	struct fake *f = *state;
	struct hil_i2c_bus *bus = open_bus(f, "0403:6014");
	uint8_t ptr = 0, r[2];
	uint64_t t0;
	int ret;

	f->mute = 1;
	t0 = ut_ms_now();
	ret = hil_i2c_xfer(bus, 0x40, &ptr, 1, r, 2);
	assert_int_equal(ret, HIL_ERR_TIMEOUT);
	assert_true(ut_ms_now() - t0 < UT_HANG_MS);
	f->mute = 0;
	/* The purge after the failure brings the exchange back in step. */
	assert_int_equal(hil_i2c_xfer(bus, 0x40, &ptr, 1, r, 2), HIL_OK);
	assert_int_equal(r[0] << 8 | r[1], 0x399F);
	hil_i2c_close(bus);
}

/* ---- the INA219 driver and the sampler over the ftdi backend ---- */

static void test_ftdi_ina219_sample_is_one_usb_round_trip(void **state)
{
	struct fake *f = *state;
	struct hil_i2c_bus *bus = open_bus(f, "0403:6014");
	struct ina219_config cfg;
	struct ina219_reading r;
	struct ina219 *dev;
	struct hil_regmodel_steps st = {3.3, 0.025, 0.025, 0, 0, 0, {{0, 0}}};
	unsigned w0, r0;

	hil_regmodel_set_steps(f->dev, &st);
	ina219_config_default(&cfg);
	assert_int_equal(ina219_open(&dev, bus, &cfg), HIL_OK);
	assert_int_equal(ina219_wait_ready(dev, 100), HIL_OK);
	w0 = f->writes;
	r0 = f->reads;
	assert_int_equal(ina219_sample(dev, &r), HIL_OK);
	assert_int_equal(f->writes - w0, 1);
	assert_int_equal(f->reads - r0, 1);
	assert_int_equal(r.cnvr, 1);
	assert_int_equal(r.shunt_uv, 2500); /* 25 mA x 0.1 ohm */
	assert_int_equal(r.bus_mv, 3300);
	w0 = f->writes;
	r0 = f->reads;
	assert_int_equal(ina219_read(dev, &r), HIL_OK);
	assert_int_equal(f->writes - w0, 1);
	assert_int_equal(f->reads - r0, 1);
	assert_int_equal(r.current_ua, 25000);
	assert_string_equal(f->interp.error, "");
	ina219_close(dev);
	hil_i2c_close(bus);
}

static void test_ftdi_sampler_usb_transfers_per_sample(void **state)
{
	struct fake *f = *state;
	struct hil_i2c_bus *bus = open_bus(f, "0403:6014");
	struct hil_energy_status es;
	struct hil_i2c_stats a, b;
	struct hil_config cfg = {0};
	struct hil_energy *s;
	struct hil_sensor *dev;
	struct timespec ts = {0, 300000000};
	char err[512];
	unsigned clk0;
	double w, r;

	hil_config_defaults(&cfg);
	snprintf(cfg.sensor.type, sizeof(cfg.sensor.type), "ina219");
	assert_int_equal(hil_sensor_open_bus(&cfg, bus, &dev, err, sizeof(err)),
			 HIL_OK);
	assert_int_equal(hil_i2c_get_stats(bus, &a), HIL_OK);
	clk0 = f->interp.sclk;
	assert_int_equal(hil_energy_start(&s, hil_sensor_source(dev), NULL),
			 HIL_OK);
	nanosleep(&ts, NULL);
	assert_int_equal(hil_energy_stop(s), HIL_OK);
	assert_int_equal(hil_i2c_get_stats(bus, &b), HIL_OK);
	assert_int_equal(hil_energy_status(s, &es), HIL_OK);
	assert_true(es.samples > 100);
	w = (double)(b.usb_writes - a.usb_writes) / (double)es.samples;
	r = (double)(b.usb_reads - a.usb_reads) / (double)es.samples;
	printf("ftdi sampler: %llu samples at %.0f Hz (sensor %.0f Hz), "
	       "%.2f USB writes and %.2f USB reads per sample, %llu polls; "
	       "per poll %.0f bytes out, %.0f in, %.0f SCL clocks (%.0f us "
	       "at %.0f kHz)\n",
	       (unsigned long long)es.samples, es.sample_rate_hz,
	       es.expected_rate_hz, w, r, (unsigned long long)es.polls,
	       (double)(b.usb_bytes_out - a.usb_bytes_out) / (double)es.polls,
	       (double)(b.usb_bytes_in - a.usb_bytes_in) / (double)es.polls,
	       (double)(f->interp.sclk - clk0) / (double)es.polls,
	       (double)(f->interp.sclk - clk0) / (double)es.polls /
		       mpsse_interp_scl_hz(&f->interp) * 1e6,
	       mpsse_interp_scl_hz(&f->interp) / 1e3);
	hil_config_free(&cfg);
	/* Each poll is one batch; a few polls find no new conversion. */
	assert_true(w < 1.5);
	assert_true(r < 1.5);
	assert_string_equal(f->interp.error, "");
	hil_energy_free(s);
	hil_sensor_close(dev); /* and the bus */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
			test_interp_answers_bad_opcode_like_the_chip, setup,
			teardown),
		cmocka_unit_test_setup_teardown(
			test_interp_flags_scl_and_sda_changing_together, setup,
			teardown),
		cmocka_unit_test_setup_teardown(
			test_interp_flags_clocking_with_scl_released, setup,
			teardown),
		cmocka_unit_test_setup_teardown(test_interp_flags_contention,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_interp_joins_commands_split_across_writes, setup,
			teardown),
		cmocka_unit_test_setup_teardown(
			test_ftdi_open_sets_up_mpsse_for_i2c, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ftdi_open_100k, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_ftdi_write_register, setup,
						teardown),
		cmocka_unit_test_setup_teardown(
			test_ftdi_read_without_pointer_write, setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_ftdi_write_then_read_with_repeated_start, setup,
			teardown),
		cmocka_unit_test_setup_teardown(
			test_ftdi_nack_on_wrong_address_names_it, setup,
			teardown),
		cmocka_unit_test_setup_teardown(
			test_ftdi_nack_in_batch_names_the_transaction, setup,
			teardown),
		cmocka_unit_test_setup_teardown(
			test_ftdi_missing_adapter_names_what_it_looked_for,
			setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_ftdi_missing_adapter_by_description, setup,
			teardown),
		cmocka_unit_test(
			test_ftdi_missing_adapter_real_libftdi_within_seconds),
		cmocka_unit_test_setup_teardown(test_ftdi_bad_specs_are_refused,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_ftdi_usb_write_error_is_reported, setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_ftdi_silent_mpsse_times_out, setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_ftdi_ina219_sample_is_one_usb_round_trip, setup,
			teardown),
		cmocka_unit_test_setup_teardown(
			test_ftdi_sampler_usb_transfers_per_sample, setup,
			teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
