/* test_energy: the sampler on a simulated sensor (the INA219's model, and the INA226's for the cases run on each) with a scripted idle/active waveform, both on one manual clock (deterministic under any load): energy per operation against the waveform's, sample rate, failures, stalls. */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
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

#include "config/config.h"
#include "run/energy.h"
#include "util/err.h"
#include "drivers/i2c/i2c.h"
#include "drivers/sensor/regmodel.h"
#include "drivers/sensor/sensor.h"
#include "unit_util.h"

#define CLOCK_HZ 84000000.0 /* the Nucleo's 84 MHz profile */
#define IDLE_A	 0.010
#define ACTIVE_A 0.025
#define BUS_V	 3.3

/* ---- helpers ---- */

/*
 * The sampler and the sensor model share a manual clock: time passes only
 * when the sampler polls (each read taking READ_NS, about one USB round
 * trip of a batching FTDI bus), so what is sampled does not depend on how
 * busy the machine is.
 */
#define READ_NS	 250000u
#define START_NS 1000000000u /* the clock's reading at the model's t = 0 */

struct twin;

struct rig {
	const struct twin *tw;
	struct hil_sensor *sensor;
	struct hil_regmodel *m;		     /* the sensor's model */
	const struct hil_sensor_source *dev; /* what the sampler reads */
	uint64_t clock_ns;		     /* the manual clock */
	uint64_t epoch_ns;		  /* its reading at the model's t = 0 */
	struct hil_energy_config sampler; /* on that clock */
};

/*
 * Each sensor's simulated twin as the tests drive it: the sampler sees
 * the sensor's source only, whatever the chip; the tests script the
 * model behind it (a register model, regmodel.h, whichever the chip).
 */
struct twin {
	const char *type;   /* sensor.type, and the sim bus's chip */
	double max_a;	    /* a range the tests' loads fit (x 0.1 ohm) */
	unsigned beyond_ma; /* a load beyond the range at 0.4 A */
};

static uint64_t rig_model_us(void *ctx)
{
	const struct rig *r = ctx;

	return (r->clock_ns - r->epoch_ns) / 1000u;
}

/* INA219: PGA /8 at 3.2 A, /1 at 0.4 A; INA226: 81.92 mV at most. */
static const struct twin twins[] = {
	{"ina219", 3.2, 500},
	{"ina226", 0.8, 900},
};

/*
 * The sensor of a config on the bus spec ("sim:<type>@..."), its model on
 * the rig's clock.
 */
static void rig_open(struct rig *r, const char *spec, double max_a)
{
	struct hil_i2c_bus *bus = NULL;
	struct hil_config cfg = {0};
	char err[512];
	size_t i;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < sizeof(twins) / sizeof(twins[0]); i++) {
		size_t n = strlen(twins[i].type);

		if (strncmp(spec + 4, twins[i].type, n) == 0 &&
		    spec[4 + n] == '@') {
			r->tw = &twins[i];
		}
	}
	assert_non_null(r->tw);
	assert_int_equal(hil_i2c_open(&bus, spec), HIL_OK);
	r->m = hil_i2c_sim_model(bus, r->tw->type);
	assert_non_null(r->m);
	r->clock_ns = START_NS;
	r->epoch_ns = START_NS;
	hil_regmodel_set_clock(r->m, rig_model_us, r);
	r->sampler.manual_clock_ns = &r->clock_ns;
	r->sampler.manual_read_ns = READ_NS;
	hil_config_defaults(&cfg);
	snprintf(cfg.sensor.type, sizeof(cfg.sensor.type), "%s", r->tw->type);
	cfg.sensor.max_current_a = max_a;
	assert_int_equal(
		hil_sensor_open_bus(&cfg, bus, &r->sensor, err, sizeof(err)),
		HIL_OK);
	r->dev = hil_sensor_source(r->sensor);
	hil_config_free(&cfg);
}

/* The twin's bus with options opts, at its test range. */
static void rig_open_twin(struct rig *r, const struct twin *tw,
			  const char *opts, double max_a)
{
	char spec[128];

	snprintf(spec, sizeof(spec), "sim:%s@0x40%s", tw->type, opts);
	rig_open(r, spec, max_a > 0.0 ? max_a : tw->max_a);
}

static void rig_close(struct rig *r)
{
	hil_sensor_close(r->sensor); /* and the bus */
}

/* Model time (us since its start) to the sampler's clock in ns. */
static uint64_t at_ns(const struct rig *r, uint64_t model_us)
{
	return r->epoch_ns + model_us * 1000u;
}

/* Let the sampler run until t_ns on the rig's clock. */
static void run_until(struct hil_energy *s, uint64_t t_ns)
{
	assert_int_equal(hil_energy_advance(s, t_ns), HIL_OK);
}

static int within(double got, double want, double rel)
{
	return fabs(got - want) <= rel * fabs(want);
}

/* ---- arithmetic ---- */

static void test_per_op_arithmetic(void **state)
{
	/* 40 us per operation at 84 MHz = 3360 ticks. */
	struct hil_energy_window_in w[2] = {{82500.0, 33000.0, 3360.0},
					    {84500.0, 33000.0, 3360.0}};
	struct hil_energy_per_op o;

	(void)state;
	assert_int_equal(hil_energy_per_op(w, 1, CLOCK_HZ, &o), HIL_OK);
	assert_true(within(o.uj_per_op, 3.3, 1e-12));	       /* 82.5 mW */
	assert_true(within(o.uj_per_op_dynamic, 1.98, 1e-12)); /* 49.5 mW */
	assert_true(o.spread_uj == 0.0);
	assert_int_equal(o.windows, 1);
	assert_int_equal(hil_energy_per_op(w, 2, CLOCK_HZ, &o), HIL_OK);
	assert_true(within(o.uj_per_op, 3.34, 1e-12));
	/* Two values 0.08 uJ apart: sample standard deviation 0.0566. */
	assert_true(within(o.spread_uj, 0.08 / sqrt(2.0), 1e-9));
	assert_true(within(o.spread_dynamic_uj, 0.08 / sqrt(2.0), 1e-9));
	assert_true(within(o.active_mw, 83.5, 1e-12));
	assert_true(within(o.idle_mw, 33.0, 1e-12));
	w[1].ticks_per_op = 0.0;
	assert_int_equal(hil_energy_per_op(w, 2, CLOCK_HZ, &o), HIL_ERR_ARG);
	assert_int_equal(hil_energy_per_op(w, 0, CLOCK_HZ, &o), HIL_ERR_ARG);
	assert_int_equal(hil_energy_per_op(w, 1, 0.0, &o), HIL_ERR_ARG);
}

/* ---- the sampler on the simulated sensor ---- */

/*
 * Idle 10 mA, active 25 mA at 3.3 V, with a 1 mA ripple so that the figure
 * rests on many conversions, not on one constant: three active windows of
 * 150 ms with 100 ms of idle around each. The stub would loop K operations
 * in a window; here K is chosen so that one operation takes 40 us. Run on
 * each sensor's twin (state).
 */
static void test_energy_per_op_within_2pct_of_the_waveform(void **state)
{
	const struct twin *tw = *state;
	const uint64_t win_ms[3][2] = {{100, 250}, {350, 500}, {600, 750}};
	uint64_t win_us[3][2];
	struct hil_energy_window_in in[3];
	struct hil_regmodel_steps st;
	struct hil_energy_per_op o;
	struct hil_energy_status es;
	struct hil_energy_stats a, b;
	struct hil_energy *s;
	struct rig r;
	double want_e, want_d, t_op;
	size_t i;

	rig_open_twin(&r, tw, "", 0.0);
	assert_int_equal(hil_energy_start(&s, r.dev, &r.sampler), HIL_OK);
	/* Windows in the model's time, from now on (a slow start is fine). */
	for (i = 0; i < 3; i++) {
		win_us[i][0] = hil_regmodel_now_us(r.m) + win_ms[i][0] * 1000u;
		win_us[i][1] =
			win_us[i][0] + (win_ms[i][1] - win_ms[i][0]) * 1000u;
	}
	memset(&st, 0, sizeof(st));
	st.bus_v = BUS_V;
	st.idle_a = IDLE_A;
	st.active_a = ACTIVE_A;
	st.ripple_a = 0.001;
	st.ripple_period_us = 3700;
	st.n = 3;
	for (i = 0; i < 3; i++) {
		st.win[i].start_us = win_us[i][0];
		st.win[i].end_us = win_us[i][1];
	}
	hil_regmodel_set_steps(r.m, &st);
	assert_true(r.clock_ns + 10000000u < at_ns(&r, win_us[0][0]));

	for (i = 0; i < 3; i++) {
		uint64_t a0 = at_ns(&r, win_us[i][0]);
		uint64_t a1 = at_ns(&r, win_us[i][1]);
		uint64_t ops = 3750; /* 150 ms / 3750 = 40 us each */

		run_until(s, a1 + 95000000u); /* through the idle after */
		/* Idle baselines: the 90 ms before and after the window. */
		assert_int_equal(
			hil_energy_window(s, a0 - 90000000u, a0 - 1000000u, &b),
			HIL_OK);
		in[i].idle_uw = b.mean_uw / 2.0;
		assert_int_equal(
			hil_energy_window(s, a1 + 1000000u, a1 + 90000000u, &b),
			HIL_OK);
		in[i].idle_uw += b.mean_uw / 2.0;
		assert_true(b.max_uw < 1e6 * BUS_V * (IDLE_A + 0.0011));
		assert_int_equal(hil_energy_window(s, a0, a1, &a), HIL_OK);
		in[i].active_uw = a.mean_uw;
		in[i].ticks_per_op =
			(double)(a1 - a0) / 1e9 * CLOCK_HZ / (double)ops;
		printf("window %zu: %zu samples, active %.3f mW (sd %.3f), "
		       "idle %.3f mW, bus %.0f mV\n",
		       i, a.samples, a.mean_uw / 1e3, a.stddev_uw / 1e3,
		       in[i].idle_uw / 1e3, a.mean_bus_mv);
		assert_true(a.samples > 30);
		assert_true(within(a.mean_bus_mv, 3300.0, 1e-9));
		/* No idle conversion blended in: every sample is active. */
		assert_true(a.min_uw > 1e6 * BUS_V * (ACTIVE_A - 0.0011));
		assert_true(within(a.energy_uj, a.mean_uw * 0.150, 1e-9));
	}
	assert_int_equal(hil_energy_stop(s), HIL_OK);
	assert_int_equal(hil_energy_per_op(in, 3, CLOCK_HZ, &o), HIL_OK);

	t_op = 40e-6;
	want_e = BUS_V * ACTIVE_A * t_op * 1e6;		   /* 3.30 uJ */
	want_d = BUS_V * (ACTIVE_A - IDLE_A) * t_op * 1e6; /* 1.98 uJ */
	assert_int_equal(hil_energy_status(s, &es), HIL_OK);
	printf("%s: uj_per_op %.4f (waveform %.4f), dynamic %.4f (waveform "
	       "%.4f), spread %.5f / %.5f uJ, %llu samples at %.0f Hz "
	       "(sensor %.0f Hz), %llu polls\n",
	       tw->type, o.uj_per_op, want_e, o.uj_per_op_dynamic, want_d,
	       o.spread_uj, o.spread_dynamic_uj, (unsigned long long)es.samples,
	       es.sample_rate_hz, es.expected_rate_hz,
	       (unsigned long long)es.polls);
	assert_true(within(o.uj_per_op, want_e, 0.02));
	assert_true(within(o.uj_per_op_dynamic, want_d, 0.02));
	assert_int_equal(o.windows, 3);
	assert_true(es.sample_rate_hz > 0.5 * es.expected_rate_hz);
	assert_true(es.sample_rate_hz < 1.01 * es.expected_rate_hz);
	assert_int_equal(es.err, HIL_OK);
	hil_energy_free(s);
	rig_close(&r);
}

static void test_sensor_dying_mid_window_gives_an_error(void **state)
{
	const struct twin *tw = *state;
	struct hil_energy_status es;
	struct hil_energy_stats st;
	struct hil_energy *s;
	struct ut_capture c;
	char log[4096];
	struct rig r;
	uint64_t a0, a1, t;
	int ret;

	rig_open_twin(&r, tw, "", 0.0);
	assert_int_equal(hil_energy_start(&s, r.dev, &r.sampler), HIL_OK);
	t = hil_regmodel_now_us(r.m);
	assert_int_equal(hil_regmodel_add_window(r.m, t + 200000, t + 400000),
			 0);
	a0 = at_ns(&r, t + 200000);
	a1 = at_ns(&r, t + 400000);
	run_until(s, at_ns(&r, t + 300000));
	ut_capture_begin(&c);
	hil_regmodel_set_dead_after(r.m, 0); /* mid-window */
	ret = hil_energy_window(s, a0, a1, &st);
	ut_capture_end(&c, log, sizeof(log));
	assert_int_equal(ret, HIL_ERR_IO);
	assert_int_equal(st.samples, 0);
	assert_true(st.mean_uw == 0.0);
	assert_non_null(strstr(log, "stopped answering"));
	assert_non_null(strstr(log, "0x40"));
	assert_int_equal(hil_energy_status(s, &es), HIL_OK);
	assert_int_equal(es.running, 0); /* the thread ended by itself */
	assert_int_equal(es.err, HIL_ERR_IO);
	assert_non_null(strstr(es.why, "stopped answering"));
	/* A window that ended before the sensor died keeps its figure. */
	assert_int_equal(hil_energy_window(s, a0 - 190000000u, a0, &st),
			 HIL_OK);
	assert_true(within(st.mean_uw, 1e6 * BUS_V * IDLE_A, 0.001));
	/* The caller gets the reason again from stop(). */
	assert_int_equal(hil_energy_stop(s), HIL_ERR_IO);
	hil_energy_free(s);
	rig_close(&r);
}

static void test_overflow_ends_the_sampler_with_the_reason(void **state)
{
	const struct twin *tw = *state;
	struct hil_energy_status es;
	struct hil_energy *s;
	struct rig r;
	int i;

	char opts[64];

	/* 0.4 A range (INA219: PGA /1), and from 50 ms on a load beyond the
	 * shunt's full scale (INA219 0.5 A, INA226 0.9 A). */
	snprintf(opts, sizeof(opts), ",active_ma=%u,active=50000-900000",
		 tw->beyond_ma);
	rig_open_twin(&r, tw, opts, 0.4);
	assert_int_equal(hil_energy_start(&s, r.dev, &r.sampler), HIL_OK);
	for (i = 0; i < 100; i++) {
		assert_int_equal(hil_energy_status(s, &es), HIL_OK);
		if (!es.running) {
			break;
		}
		run_until(s, r.clock_ns + 5000000u);
	}
	assert_int_equal(es.running, 0);
	assert_int_equal(es.err, HIL_ERR_CONFIG);
	assert_non_null(strstr(es.why, "out of range"));
	assert_true(es.err_t_ns >= at_ns(&r, 50000));
	assert_int_equal(hil_energy_stop(s), HIL_ERR_CONFIG);
	hil_energy_free(s);
	rig_close(&r);
}

static void test_windows_without_complete_conversions_are_refused(void **s_)
{
	struct hil_energy_stats st;
	struct hil_energy *s;
	struct rig r;
	uint64_t t;

	(void)s_;
	rig_open(&r, "sim:ina219@0x40", 3.2);
	assert_int_equal(hil_energy_start(&s, r.dev, &r.sampler), HIL_OK);
	t = r.clock_ns;
	run_until(s, t + 30000000u);
	/* 0.5 ms: shorter than one 1.064 ms conversion cycle. */
	assert_int_equal(
		hil_energy_window(s, t + 10000000u, t + 10500000u, &st),
		HIL_ERR_NA);
	/* Before sampling began. */
	assert_int_equal(hil_energy_window(s, t - 50000000u, t + 5000000u, &st),
			 HIL_ERR_NA);
	assert_int_equal(hil_energy_window(s, t + 5000000u, t + 5000000u, &st),
			 HIL_ERR_ARG);
	assert_int_equal(hil_energy_stop(s), HIL_OK);
	/* After sampling ended. */
	assert_int_equal(hil_energy_window(s, t + 10000000u,
					   r.clock_ns + 50000000u, &st),
			 HIL_ERR_NA);
	hil_energy_free(s);
	rig_close(&r);
}

static void test_ring_overwrite_is_detected(void **state)
{
	struct hil_energy_status es;
	struct hil_energy_stats st;
	struct hil_energy *s;
	struct rig r;
	uint64_t t;

	(void)state;
	rig_open(&r, "sim:ina219@0x40", 3.2);
	r.sampler.capacity = 16;
	assert_int_equal(hil_energy_start(&s, r.dev, &r.sampler), HIL_OK);
	t = r.clock_ns;
	run_until(s, t + 60000000u);
	assert_int_equal(hil_energy_window(s, t + 2000000u, t + 50000000u, &st),
			 HIL_ERR_NA);
	assert_int_equal(hil_energy_stop(s), HIL_OK);
	assert_int_equal(hil_energy_status(s, &es), HIL_OK);
	assert_true(es.overwritten > 0);
	hil_energy_free(s);
	rig_close(&r);
}

/*
 * The poller stalls for 30 ms (a busy host: no read in that time): the
 * conversions of the stall are lost, not misplaced; a window across it
 * keeps the right mean and says it had a gap, and the next window is whole.
 */
static void test_a_stall_loses_conversions_not_the_figure(void **state)
{
	struct hil_energy_stats st;
	struct hil_energy *s;
	struct ut_capture c;
	char log[4096];
	struct rig r;
	uint64_t t;
	int ret;

	(void)state;
	rig_open(&r, "sim:ina219@0x40", 3.2);
	assert_int_equal(hil_energy_start(&s, r.dev, &r.sampler), HIL_OK);
	t = r.clock_ns;
	run_until(s, t + 100000000u);
	r.clock_ns += 30000000u; /* the stall: time passes, nobody polls */
	run_until(s, t + 250000000u);
	ut_capture_begin(&c);
	ret = hil_energy_window(s, t + 50000000u, t + 200000000u, &st);
	ut_capture_end(&c, log, sizeof(log));
	assert_int_equal(ret, HIL_OK);
	assert_true(within(st.mean_uw, 1e6 * BUS_V * IDLE_A, 0.001));
	/* 150 ms hold 141 conversions; the stall took 28 of them. */
	printf("across the stall: %zu samples\n", st.samples);
	assert_true(st.samples >= 100 && st.samples <= 120);
	assert_non_null(strstr(log, "stalled"));
	ut_capture_begin(&c);
	ret = hil_energy_window(s, t + 150000000u, t + 240000000u, &st);
	ut_capture_end(&c, log, sizeof(log));
	assert_int_equal(ret, HIL_OK);
	assert_true(within(st.mean_uw, 1e6 * BUS_V * IDLE_A, 0.001));
	assert_true(st.samples >= 80); /* 90 ms: 84 conversions */
	assert_null(strstr(log, "stalled"));
	assert_int_equal(hil_energy_stop(s), HIL_OK);
	hil_energy_free(s);
	rig_close(&r);
}

static void test_sampler_needs_continuous_shunt_and_bus(void **state)
{
	struct hil_sensor_source src;
	struct hil_energy *s = NULL;
	struct rig r;

	(void)state;
	rig_open(&r, "sim:ina219@0x40", 3.2);
	src = *r.dev;
	src.continuous = 0; /* a chip set up for triggered conversions */
	assert_int_equal(hil_energy_start(&s, &src, NULL), HIL_ERR_ARG);
	assert_null(s);
	src = *r.dev;
	src.cycle_us = 0;
	assert_int_equal(hil_energy_start(&s, &src, NULL), HIL_ERR_ARG);
	assert_null(s);
	rig_close(&r);
}

/*
 * A chip whose oscillator is 6% off its nominal conversion time: the
 * sampler re-locks and re-estimates the cycle, and the power is unchanged.
 */
static void run_off_nominal(const struct twin *tw, long ppm)
{
	struct hil_energy_status es;
	struct hil_energy_stats st;
	struct hil_energy *s;
	struct rig r;
	uint64_t t;
	double chip_hz;

	rig_open_twin(&r, tw, ",idle_ma=25", 0.0);
	hil_regmodel_set_rate_ppm(r.m, ppm);
	assert_int_equal(hil_energy_start(&s, r.dev, &r.sampler), HIL_OK);
	t = r.clock_ns;
	run_until(s, t + 400000000u);
	assert_int_equal(
		hil_energy_window(s, t + 1000000u, t + 390000000u, &st),
		HIL_OK);
	assert_true(within(st.mean_uw, 1e6 * BUS_V * ACTIVE_A, 1e-6));
	assert_int_equal(hil_energy_stop(s), HIL_OK);
	assert_int_equal(hil_energy_status(s, &es), HIL_OK);
	chip_hz = es.expected_rate_hz / (1.0 + (double)ppm * 1e-6);
	printf("%s oscillator %+ld ppm: %.0f Hz achieved of the chip's %.0f "
	       "Hz, %.2f polls per sample\n",
	       tw->type, ppm, es.sample_rate_hz, chip_hz,
	       (double)es.polls / (double)es.samples);
	assert_true(es.sample_rate_hz > 0.5 * chip_hz);
	assert_true(es.sample_rate_hz < 1.01 * chip_hz);
	hil_energy_free(s);
	rig_close(&r);
}

static void test_sampler_follows_a_slow_oscillator(void **state)
{
	run_off_nominal(*state, 60000);
}

static void test_sampler_follows_a_fast_oscillator(void **state)
{
	run_off_nominal(*state, -60000);
}

/* A test run on the twin of twins[k] named chip, and on each twin. */
#define ON(f, k, chip)                                                         \
	{                                                                      \
		.name = #f " (" chip ")", .test_func = f,                      \
		.initial_state = (void *)&twins[k]                             \
	}
#define ON_EACH(f) ON(f, 0, "ina219"), ON(f, 1, "ina226")

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_per_op_arithmetic),
		ON_EACH(test_energy_per_op_within_2pct_of_the_waveform),
		ON_EACH(test_sensor_dying_mid_window_gives_an_error),
		ON_EACH(test_overflow_ends_the_sampler_with_the_reason),
		cmocka_unit_test(
			test_windows_without_complete_conversions_are_refused),
		cmocka_unit_test(test_ring_overwrite_is_detected),
		cmocka_unit_test(test_a_stall_loses_conversions_not_the_figure),
		cmocka_unit_test(test_sampler_needs_continuous_shunt_and_bus),
		ON_EACH(test_sampler_follows_a_slow_oscillator),
		ON_EACH(test_sampler_follows_a_fast_oscillator),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
