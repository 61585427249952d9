/* ina219_model: the simulated INA219 behind the sim bus and the MPSSE interpreter (register semantics per TI SBOS448). */
#define _POSIX_C_SOURCE 200809L

#include "ina219_model.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define REG_CONFIG  0x00
#define REG_SHUNT   0x01
#define REG_BUS	    0x02
#define REG_POWER   0x03
#define REG_CURRENT 0x04
#define REG_CAL	    0x05

#define CONFIG_RST     0x8000u
#define CONFIG_BRNG    0x2000u
#define CONFIG_POR     0x399Fu
#define CONFIG_WMASK   0x3FFFu /* bit 15 self-clears, bit 14 is unused */
#define CAL_WMASK      0xFFFEu /* FS0 is void: "not possible to write a 1" */
#define SHUNT_FS_CODES 4000    /* +-40 mV at PGA /1, in 10 uV units */

struct ina219_model {
	pthread_mutex_t lock;
	uint8_t addr;
	double shunt_ohm;

	/* registers */
	uint16_t config;
	uint16_t cal;
	int16_t shunt;	 /* 10 uV units */
	uint16_t bus;	 /* 4 mV units, 13 bits */
	int16_t current; /* Current_LSB units */
	uint16_t power;	 /* 20 x Current_LSB units */
	int cnvr;
	int ovf;

	/* conversions */
	uint64_t mode_start_us;
	uint64_t done; /* cycles completed since mode_start_us */
	long rate_ppm;

	/* bus state */
	int selected;
	int open; /* a START was seen, no STOP yet */
	int rw;	  /* 1: read */
	unsigned wcount;
	unsigned rcount;
	uint8_t ptr;
	uint8_t hi;
	uint16_t latched;
	unsigned long transactions;
	long dead_at; /* transactions count after which it NACKs; -1 never */

	/* time and waveform */
	ina219_clock_fn clock;
	void *clock_ctx;
	uint64_t epoch_ns;
	ina219_wave_fn wave;
	void *wave_ctx;
	struct ina219_steps steps;
};

/* Table 6 of SBOS448: conversion time per BADC/SADC code (ADC4..ADC1). */
unsigned ina219_model_adc_us(unsigned code)
{
	static const unsigned avg_us[8] = {532,	 1060,	2130,  4260,
					   8510, 17020, 34050, 68100};
	static const unsigned res_us[4] = {84, 148, 276, 532};

	code &= 0xFu;
	if (code & 0x8u) {
		return avg_us[code & 0x7u];
	}
	return res_us[code & 0x3u]; /* ADC3 is "don't care" */
}

static unsigned adc_samples(unsigned code)
{
	code &= 0xFu;
	return (code & 0x8u) ? 1u << (code & 0x7u) : 1u;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t now_us(struct ina219_model *m)
{
	if (m->clock != NULL) {
		return m->clock(m->clock_ctx);
	}
	return (mono_ns() - m->epoch_ns) / 1000u;
}

static void steps_wave(void *ctx, uint64_t t_us, double *bus_v,
		       double *current_a)
{
	const struct ina219_steps *st = ctx;
	double i = st->idle_a;
	size_t k;

	for (k = 0; k < st->n; k++) {
		if (t_us >= st->win[k].start_us && t_us < st->win[k].end_us) {
			i = st->active_a;
			break;
		}
	}
	if (st->ripple_a != 0.0 && st->ripple_period_us > 0) {
		double ph = (double)(t_us % st->ripple_period_us) /
			    (double)st->ripple_period_us;

		i += st->ripple_a * sin(2.0 * 3.14159265358979323846 * ph);
	}
	*bus_v = st->bus_v;
	*current_a = i;
}

static unsigned mode_of(uint16_t config)
{
	return config & 0x7u;
}

static int measures_shunt(unsigned mode)
{
	return mode == 1 || mode == 3 || mode == 5 || mode == 7;
}

static int measures_bus(unsigned mode)
{
	return mode == 2 || mode == 3 || mode == 6 || mode == 7;
}

static double scaled_us(const struct ina219_model *m, unsigned us)
{
	return (double)us * (1.0 + (double)m->rate_ppm * 1e-6);
}

static double shunt_time(const struct ina219_model *m)
{
	return scaled_us(m, ina219_model_adc_us((m->config >> 3) & 0xFu));
}

static double bus_time(const struct ina219_model *m)
{
	return scaled_us(m, ina219_model_adc_us((m->config >> 7) & 0xFu));
}

static double cycle_time(const struct ina219_model *m)
{
	unsigned mode = mode_of(m->config);
	double t = 0.0;

	if (measures_shunt(mode)) {
		t += shunt_time(m);
	}
	if (measures_bus(mode)) {
		t += bus_time(m);
	}
	return t;
}

/* Mean of the waveform over [t0, t0 + len) as the ADC integrates it. */
static void wave_mean(struct ina219_model *m, double t0, double len,
		      unsigned samples, double *bus_v, double *current_a)
{
	unsigned k, n = samples > 16 ? samples : 16;
	double sv = 0.0, si = 0.0;

	for (k = 0; k < n; k++) {
		double t = t0 + ((double)k + 0.5) * len / (double)n;
		double v, i;

		m->wave(m->wave_ctx, (uint64_t)t, &v, &i);
		sv += v;
		si += i;
	}
	*bus_v = sv / (double)n;
	*current_a = si / (double)n;
}

static long clampl(long v, long lo, long hi)
{
	return v < lo ? lo : (v > hi ? hi : v);
}

/* The results of the conversion cycle that began at t0 (us). */
static void latch(struct ina219_model *m, double t0)
{
	unsigned mode = mode_of(m->config);
	unsigned sadc = (m->config >> 3) & 0xFu, badc = (m->config >> 7) & 0xFu;
	double v, i;
	long fs, cur, pwr;

	if (measures_shunt(mode)) {
		/* PGA /1../8 (PG1..PG0, bits 12..11): +-40 mV x 1..8 */
		fs = (long)SHUNT_FS_CODES << ((m->config >> 11) & 0x3u);
		wave_mean(m, t0, shunt_time(m), adc_samples(sadc), &v, &i);
		m->shunt = (int16_t)clampl(lround(i * m->shunt_ohm / 10e-6),
					   -fs, fs);
		t0 += shunt_time(m);
	}
	if (measures_bus(mode)) {
		fs = (m->config & CONFIG_BRNG) ? 8000 : 4000; /* 32 / 16 V */
		wave_mean(m, t0, bus_time(m), adc_samples(badc), &v, &i);
		m->bus = (uint16_t)clampl(lround(v / 4e-3), 0, fs);
	}
	/* Section 8.5.1: Current = Shunt x Cal / 4096, Power = I x Bus / 5000. */
	m->ovf = 0;
	cur = (long)m->shunt * (long)m->cal / 4096;
	if (cur > 32767 || cur < -32768) {
		m->ovf = 1;
		cur = clampl(cur, -32768, 32767);
	}
	pwr = labs(cur) * (long)m->bus / 5000;
	if (pwr > 65535) {
		m->ovf = 1;
		pwr = 65535;
	}
	m->current = (int16_t)cur;
	m->power = (uint16_t)pwr;
	m->cnvr = 1;
}

/* Bring the conversions up to now. */
static void update(struct ina219_model *m)
{
	unsigned mode = mode_of(m->config);
	double cyc = cycle_time(m), elapsed;
	uint64_t t = now_us(m), n;

	if (cyc <= 0.0 || t < m->mode_start_us) {
		return; /* power-down or ADC off */
	}
	elapsed = (double)(t - m->mode_start_us);
	if (mode <= 3) { /* triggered: one cycle after the config write */
		if (m->done == 0 && elapsed >= cyc) {
			latch(m, (double)m->mode_start_us);
			m->done = 1;
		}
		return;
	}
	n = (uint64_t)(elapsed / cyc);
	if (n > m->done) {
		latch(m, (double)m->mode_start_us + (double)(n - 1) * cyc);
		m->done = n;
	}
}

static void reset_regs(struct ina219_model *m)
{
	m->config = CONFIG_POR;
	m->cal = 0;
	m->shunt = 0;
	m->bus = 0;
	m->current = 0;
	m->power = 0;
	m->cnvr = 0;
	m->ovf = 0;
	m->mode_start_us = now_us(m);
	m->done = 0;
}

static uint16_t reg_value(const struct ina219_model *m, uint8_t reg)
{
	switch (reg) {
	case REG_CONFIG:
		return m->config;
	case REG_SHUNT:
		return (uint16_t)m->shunt;
	case REG_BUS:
		return (uint16_t)(m->bus << 3 | m->cnvr << 1 | m->ovf);
	case REG_POWER:
		return m->power;
	case REG_CURRENT:
		return (uint16_t)m->current;
	case REG_CAL:
		return m->cal;
	default:
		return 0;
	}
}

static void reg_write(struct ina219_model *m, uint8_t reg, uint16_t v)
{
	unsigned mode;

	if (reg == REG_CONFIG) {
		update(m);
		if (v & CONFIG_RST) {
			reset_regs(m);
			return;
		}
		m->config = v & CONFIG_WMASK;
		mode = mode_of(m->config);
		if (mode != 0 && mode != 4) {
			/* A mode write clears CNVR and restarts conversions. */
			m->cnvr = 0;
			m->mode_start_us = now_us(m);
			m->done = 0;
		}
	} else if (reg == REG_CAL) {
		m->cal = v & CAL_WMASK;
	}
	/* 01h..04h are read-only: writes are ignored. */
}

struct ina219_model *ina219_model_new(uint8_t addr, double shunt_ohm)
{
	struct ina219_model *m = calloc(1, sizeof(*m));

	if (m == NULL) {
		return NULL;
	}
	if (pthread_mutex_init(&m->lock, NULL) != 0) {
		free(m);
		return NULL;
	}
	m->addr = addr;
	m->shunt_ohm = shunt_ohm;
	m->epoch_ns = mono_ns();
	m->dead_at = -1;
	m->steps.bus_v = 3.3;
	m->steps.idle_a = 0.010;
	m->steps.active_a = 0.025;
	m->wave = steps_wave;
	m->wave_ctx = &m->steps;
	reset_regs(m);
	return m;
}

void ina219_model_free(struct ina219_model *m)
{
	if (m == NULL) {
		return;
	}
	pthread_mutex_destroy(&m->lock);
	free(m);
}

void ina219_model_set_clock(struct ina219_model *m, ina219_clock_fn fn,
			    void *ctx)
{
	pthread_mutex_lock(&m->lock);
	m->clock = fn;
	m->clock_ctx = ctx;
	reset_regs(m); /* the time base changed: start over at power-on */
	pthread_mutex_unlock(&m->lock);
}

uint64_t ina219_model_now_us(struct ina219_model *m)
{
	uint64_t t;

	pthread_mutex_lock(&m->lock);
	t = now_us(m);
	pthread_mutex_unlock(&m->lock);
	return t;
}

uint64_t ina219_model_epoch_ns(const struct ina219_model *m)
{
	return m->epoch_ns; /* set once at creation */
}

void ina219_model_set_steps(struct ina219_model *m,
			    const struct ina219_steps *st)
{
	pthread_mutex_lock(&m->lock);
	m->steps = *st;
	if (m->steps.n > INA219_STEPS_MAX) {
		m->steps.n = INA219_STEPS_MAX;
	}
	m->wave = steps_wave;
	m->wave_ctx = &m->steps;
	pthread_mutex_unlock(&m->lock);
}

int ina219_model_add_window(struct ina219_model *m, uint64_t start_us,
			    uint64_t end_us)
{
	int ret = -1;

	pthread_mutex_lock(&m->lock);
	if (m->steps.n < INA219_STEPS_MAX) {
		m->steps.win[m->steps.n].start_us = start_us;
		m->steps.win[m->steps.n].end_us = end_us;
		m->steps.n++;
		ret = 0;
	}
	pthread_mutex_unlock(&m->lock);
	return ret;
}

/* Drop the windows that ended before `before_us` (keeps the order). */
static void drop_old_windows(struct ina219_steps *st, uint64_t before_us)
{
	size_t k, n = 0;

	for (k = 0; k < st->n; k++) {
		if (st->win[k].end_us >= before_us) {
			st->win[n++] = st->win[k];
		}
	}
	st->n = n;
}

int ina219_model_load(struct ina219_model *m, int on)
{
	/* Longer than any conversion (68 ms at 128 samples, both channels)
	 * that could still be averaging over an old window. */
	const uint64_t keep_us = 1000000u;
	uint64_t now;
	int ret = 0;

	pthread_mutex_lock(&m->lock);
	now = now_us(m);
	if (m->wave != steps_wave) {
		ret = -1;
	} else if (on) {
		drop_old_windows(&m->steps, now > keep_us ? now - keep_us : 0);
		if (m->steps.n == 0 ||
		    m->steps.win[m->steps.n - 1].end_us != UINT64_MAX) {
			if (m->steps.n == INA219_STEPS_MAX) {
				/* Keep the newest: shift the oldest out. */
				memmove(&m->steps.win[0], &m->steps.win[1],
					(INA219_STEPS_MAX - 1) *
						sizeof(m->steps.win[0]));
				m->steps.n--;
			}
			m->steps.win[m->steps.n].start_us = now;
			m->steps.win[m->steps.n].end_us = UINT64_MAX;
			m->steps.n++;
		}
	} else if (m->steps.n > 0 &&
		   m->steps.win[m->steps.n - 1].end_us == UINT64_MAX) {
		m->steps.win[m->steps.n - 1].end_us = now;
	}
	pthread_mutex_unlock(&m->lock);
	return ret;
}

void ina219_model_set_wave(struct ina219_model *m, ina219_wave_fn fn, void *ctx)
{
	pthread_mutex_lock(&m->lock);
	if (fn == NULL) {
		m->wave = steps_wave;
		m->wave_ctx = &m->steps;
	} else {
		m->wave = fn;
		m->wave_ctx = ctx;
	}
	pthread_mutex_unlock(&m->lock);
}

void ina219_model_set_dead_after(struct ina219_model *m, long n)
{
	pthread_mutex_lock(&m->lock);
	m->dead_at = n < 0 ? -1 : (long)m->transactions + n;
	pthread_mutex_unlock(&m->lock);
}

void ina219_model_set_rate_ppm(struct ina219_model *m, long ppm)
{
	pthread_mutex_lock(&m->lock);
	update(m);
	m->rate_ppm = ppm;
	m->mode_start_us = now_us(m); /* keep the cycle count consistent */
	m->done = 0;
	pthread_mutex_unlock(&m->lock);
}

uint16_t ina219_model_peek(struct ina219_model *m, uint8_t reg)
{
	uint16_t v;

	pthread_mutex_lock(&m->lock);
	update(m);
	v = reg_value(m, reg);
	pthread_mutex_unlock(&m->lock);
	return v;
}

unsigned long ina219_model_transactions(struct ina219_model *m)
{
	unsigned long n;

	pthread_mutex_lock(&m->lock);
	n = m->transactions;
	pthread_mutex_unlock(&m->lock);
	return n;
}

uint64_t ina219_model_conversions(struct ina219_model *m)
{
	uint64_t n;

	pthread_mutex_lock(&m->lock);
	update(m);
	n = m->done;
	pthread_mutex_unlock(&m->lock);
	return n;
}

uint8_t ina219_model_addr(const struct ina219_model *m)
{
	return m->addr;
}

int ina219_model_i2c_start(struct ina219_model *m, uint8_t addr_rw)
{
	int ack = 0;

	pthread_mutex_lock(&m->lock);
	m->selected = 0;
	if ((addr_rw >> 1) == m->addr) {
		if (!m->open) { /* a repeated START is the same transaction */
			m->transactions++;
			m->open = 1;
		}
		if (m->dead_at < 0 || (long)m->transactions <= m->dead_at) {
			m->selected = 1;
			m->rw = addr_rw & 1;
			m->wcount = 0;
			m->rcount = 0;
			ack = 1;
		}
	}
	pthread_mutex_unlock(&m->lock);
	return ack;
}

int ina219_model_i2c_write(struct ina219_model *m, uint8_t byte)
{
	int ack = 0;

	pthread_mutex_lock(&m->lock);
	if (m->selected && !m->rw) {
		if (m->wcount == 0) {
			m->ptr = byte;
		} else if (m->wcount == 1) {
			m->hi = byte;
		} else if (m->wcount == 2) {
			reg_write(m, m->ptr, (uint16_t)(m->hi << 8 | byte));
		}
		m->wcount++;
		ack = 1;
	}
	pthread_mutex_unlock(&m->lock);
	return ack;
}

uint8_t ina219_model_i2c_read(struct ina219_model *m)
{
	uint8_t b = 0xFF; /* nobody drives SDA: the pull-up reads 1 */

	pthread_mutex_lock(&m->lock);
	if (m->selected && m->rw) {
		if (m->rcount == 0) {
			update(m);
			m->latched = reg_value(m, m->ptr);
			if (m->ptr == REG_POWER) {
				m->cnvr = 0; /* reading power clears CNVR */
			}
		}
		b = (m->rcount % 2 == 0) ? (uint8_t)(m->latched >> 8)
					 : (uint8_t)m->latched;
		m->rcount++;
	}
	pthread_mutex_unlock(&m->lock);
	return b;
}

void ina219_model_i2c_stop(struct ina219_model *m)
{
	pthread_mutex_lock(&m->lock);
	m->selected = 0;
	m->open = 0;
	pthread_mutex_unlock(&m->lock);
}
