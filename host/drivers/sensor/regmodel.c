/* regmodel: the register-model core the simulated sensors share (the I2C pointer-register protocol, the clock, the waveform, the faults), each chip's registers through its callbacks. */
#define _POSIX_C_SOURCE 200809L

#include "regmodel.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "drivers/i2c/i2c.h"

struct hil_regmodel {
	pthread_mutex_t lock;
	const struct hil_regmodel_chip *chip;
	void *regs; /* the chip's register state */
	uint8_t addr;
	double shunt_ohm;

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
	hil_regmodel_clock_fn clock;
	void *clock_ctx;
	uint64_t internal_us;
	uint64_t epoch_ns; /* CLOCK_MONOTONIC at 0 of the host-time clock */
	hil_regmodel_wave_fn wave;
	void *wave_ctx;
	struct hil_regmodel_steps steps;
};

uint64_t hil_regmodel_time(const struct hil_regmodel *m)
{
	return m->clock != NULL ? m->clock(m->clock_ctx) : m->internal_us;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The host's time since the clock was set (ctx: the model). */
static uint64_t host_us(void *ctx)
{
	const struct hil_regmodel *m = ctx;

	return (mono_ns() - m->epoch_ns) / 1000u;
}

static void steps_wave(void *ctx, double t_us, double *bus_v, double *current_a)
{
	const struct hil_regmodel_steps *st = ctx;
	double i = st->idle_a;
	size_t k;

	for (k = 0; k < st->n; k++) {
		if (t_us >= (double)st->win[k].start_us &&
		    t_us < (double)st->win[k].end_us) {
			i = st->active_a;
			break;
		}
	}
	if (st->ripple_a != 0.0 && st->ripple_period_us > 0) {
		double ph = fmod(t_us, (double)st->ripple_period_us) /
			    (double)st->ripple_period_us;

		i += st->ripple_a * sin(2.0 * 3.14159265358979323846 * ph);
	}
	*bus_v = st->bus_v;
	*current_a = i;
}

void *hil_regmodel_regs(struct hil_regmodel *m)
{
	return m->regs;
}

void hil_regmodel_power_on(struct hil_regmodel *m)
{
	memcpy(m->regs, m->chip->por, m->chip->regs_size);
	hil_regmodel_restart(m);
}

void hil_regmodel_restart(struct hil_regmodel *m)
{
	m->mode_start_us = hil_regmodel_time(m);
	m->done = 0;
}

double hil_regmodel_scaled(const struct hil_regmodel *m, double us)
{
	return us * (1.0 + (double)m->rate_ppm * 1e-6);
}

double hil_regmodel_shunt_ohm(const struct hil_regmodel *m)
{
	return m->shunt_ohm;
}

void hil_regmodel_wave_mean(struct hil_regmodel *m, double t0, double len,
			    unsigned n, int whole_us, double *bus_v,
			    double *current_a)
{
	double sv = 0.0, si = 0.0;
	unsigned k;

	for (k = 0; k < n; k++) {
		double t = t0 + ((double)k + 0.5) * len / (double)n;
		double v, i;

		m->wave(m->wave_ctx, whole_us ? floor(t) : t, &v, &i);
		sv += v;
		si += i;
	}
	*bus_v = sv / (double)n;
	*current_a = si / (double)n;
}

void hil_regmodel_update(struct hil_regmodel *m)
{
	int once = 0;
	double cyc = m->chip->cycle_us(m, &once);
	uint64_t t = hil_regmodel_time(m), n;

	if (!(cyc > 0.0) || t < m->mode_start_us) {
		return; /* power-down or ADC off */
	}
	n = (uint64_t)((double)(t - m->mode_start_us) / cyc);
	if (once) { /* triggered: one cycle after the configuration write */
		if (m->done == 0 && n >= 1) {
			m->chip->latch(m, (double)m->mode_start_us);
			m->done = 1;
		}
		return;
	}
	if (n > m->done) {
		m->chip->latch(m, (double)m->mode_start_us +
					  (double)(n - 1) * cyc);
		m->done = n;
	}
}

struct hil_regmodel *hil_regmodel_new(const struct hil_regmodel_chip *chip,
				      uint8_t addr, double shunt_ohm)
{
	struct hil_regmodel *m = calloc(1, sizeof(*m));

	if (m == NULL) {
		return NULL;
	}
	m->regs = calloc(1, chip->regs_size > 0 ? chip->regs_size : 1);
	if (m->regs == NULL || pthread_mutex_init(&m->lock, NULL) != 0) {
		free(m->regs);
		free(m);
		return NULL;
	}
	m->chip = chip;
	m->addr = addr;
	m->shunt_ohm = shunt_ohm;
	m->dead_at = -1;
	m->steps.bus_v = 3.3;
	m->steps.idle_a = 0.010;
	m->steps.active_a = 0.025;
	m->wave = steps_wave;
	m->wave_ctx = &m->steps;
	hil_regmodel_power_on(m);
	return m;
}

void hil_regmodel_free(struct hil_regmodel *m)
{
	if (m == NULL) {
		return;
	}
	pthread_mutex_destroy(&m->lock);
	free(m->regs);
	free(m);
}

const struct hil_regmodel_chip *hil_regmodel_chip(const struct hil_regmodel *m)
{
	return m->chip;
}

uint8_t hil_regmodel_addr(const struct hil_regmodel *m)
{
	return m->addr;
}

void hil_regmodel_set_clock(struct hil_regmodel *m, hil_regmodel_clock_fn fn,
			    void *ctx)
{
	pthread_mutex_lock(&m->lock);
	m->clock = fn;
	m->clock_ctx = ctx;
	m->internal_us = 0;
	hil_regmodel_power_on(m); /* the time base changed: start over */
	pthread_mutex_unlock(&m->lock);
}

void hil_regmodel_set_clock_host(struct hil_regmodel *m)
{
	pthread_mutex_lock(&m->lock);
	m->epoch_ns = mono_ns();
	m->clock = host_us;
	m->clock_ctx = m;
	m->internal_us = 0;
	hil_regmodel_power_on(m);
	pthread_mutex_unlock(&m->lock);
}

void hil_regmodel_advance(struct hil_regmodel *m, uint64_t us)
{
	pthread_mutex_lock(&m->lock);
	m->internal_us += us;
	pthread_mutex_unlock(&m->lock);
}

uint64_t hil_regmodel_now_us(struct hil_regmodel *m)
{
	uint64_t t;

	pthread_mutex_lock(&m->lock);
	t = hil_regmodel_time(m);
	pthread_mutex_unlock(&m->lock);
	return t;
}

void hil_regmodel_set_steps(struct hil_regmodel *m,
			    const struct hil_regmodel_steps *st)
{
	pthread_mutex_lock(&m->lock);
	m->steps = *st;
	if (m->steps.n > HIL_REGMODEL_STEPS_MAX) {
		m->steps.n = HIL_REGMODEL_STEPS_MAX;
	}
	m->wave = steps_wave;
	m->wave_ctx = &m->steps;
	pthread_mutex_unlock(&m->lock);
}

int hil_regmodel_add_window(struct hil_regmodel *m, uint64_t start_us,
			    uint64_t end_us)
{
	int ret = -1;

	pthread_mutex_lock(&m->lock);
	if (m->steps.n < HIL_REGMODEL_STEPS_MAX) {
		m->steps.win[m->steps.n].start_us = start_us;
		m->steps.win[m->steps.n].end_us = end_us;
		m->steps.n++;
		ret = 0;
	}
	pthread_mutex_unlock(&m->lock);
	return ret;
}

/* Drop the windows that ended before `before_us` (keeps the order). */
static void drop_old_windows(struct hil_regmodel_steps *st, uint64_t before_us)
{
	size_t k, n = 0;

	for (k = 0; k < st->n; k++) {
		if (st->win[k].end_us >= before_us) {
			st->win[n++] = st->win[k];
		}
	}
	st->n = n;
}

int hil_regmodel_load(struct hil_regmodel *m, int on)
{
	struct hil_regmodel_steps *st = &m->steps;
	uint64_t now, keep_us;
	int once, ret = 0;

	pthread_mutex_lock(&m->lock);
	now = hil_regmodel_time(m);
	/* Longer than the conversion in progress (up to 16.9 s on an INA226:
	 * 1024 samples of shunt and bus at 8.244 ms each) could reach back
	 * into an old window. */
	keep_us = (uint64_t)m->chip->cycle_us(m, &once) + 1000000u;
	if (m->wave != steps_wave) {
		ret = -1;
	} else if (on) {
		drop_old_windows(st, now > keep_us ? now - keep_us : 0);
		if (st->n == 0 || st->win[st->n - 1].end_us != UINT64_MAX) {
			if (st->n == HIL_REGMODEL_STEPS_MAX) {
				/* Keep the newest: shift the oldest out. */
				memmove(&st->win[0], &st->win[1],
					(HIL_REGMODEL_STEPS_MAX - 1) *
						sizeof(st->win[0]));
				st->n--;
			}
			st->win[st->n].start_us = now;
			st->win[st->n].end_us = UINT64_MAX;
			st->n++;
		}
	} else if (st->n > 0 && st->win[st->n - 1].end_us == UINT64_MAX) {
		st->win[st->n - 1].end_us = now;
	}
	pthread_mutex_unlock(&m->lock);
	return ret;
}

void hil_regmodel_set_wave(struct hil_regmodel *m, hil_regmodel_wave_fn fn,
			   void *ctx)
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

void hil_regmodel_set_dead_after(struct hil_regmodel *m, long n)
{
	pthread_mutex_lock(&m->lock);
	m->dead_at = n < 0 ? -1 : (long)m->transactions + n;
	pthread_mutex_unlock(&m->lock);
}

void hil_regmodel_set_rate_ppm(struct hil_regmodel *m, long ppm)
{
	pthread_mutex_lock(&m->lock);
	hil_regmodel_update(m);
	m->rate_ppm = ppm;
	hil_regmodel_restart(m); /* keep the cycle count consistent */
	pthread_mutex_unlock(&m->lock);
}

uint16_t hil_regmodel_peek(struct hil_regmodel *m, uint8_t reg)
{
	uint16_t v;

	pthread_mutex_lock(&m->lock);
	hil_regmodel_update(m);
	v = m->chip->peek(m, reg);
	pthread_mutex_unlock(&m->lock);
	return v;
}

unsigned long hil_regmodel_transactions(struct hil_regmodel *m)
{
	unsigned long n;

	pthread_mutex_lock(&m->lock);
	n = m->transactions;
	pthread_mutex_unlock(&m->lock);
	return n;
}

uint64_t hil_regmodel_conversions(struct hil_regmodel *m)
{
	uint64_t n;

	pthread_mutex_lock(&m->lock);
	hil_regmodel_update(m);
	n = m->done;
	pthread_mutex_unlock(&m->lock);
	return n;
}

int hil_regmodel_i2c_start(struct hil_regmodel *m, uint8_t addr_rw)
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

int hil_regmodel_i2c_write(struct hil_regmodel *m, uint8_t byte)
{
	int ack = 0;

	pthread_mutex_lock(&m->lock);
	if (m->selected && !m->rw) {
		if (m->wcount == 0) {
			m->ptr = byte;
		} else if (m->wcount == 1) {
			m->hi = byte;
		} else if (m->wcount == 2) {
			m->chip->write(m, m->ptr,
				       (uint16_t)(m->hi << 8 | byte));
		}
		m->wcount++;
		ack = 1;
	}
	pthread_mutex_unlock(&m->lock);
	return ack;
}

uint8_t hil_regmodel_i2c_read(struct hil_regmodel *m)
{
	uint8_t b = 0xFF; /* nobody drives SDA: the pull-up reads 1 */

	pthread_mutex_lock(&m->lock);
	if (m->selected && m->rw) {
		if (m->rcount == 0) {
			hil_regmodel_update(m);
			m->latched = m->chip->peek(m, m->ptr);
			if (m->chip->read != NULL) {
				m->chip->read(m, m->ptr);
			}
		}
		b = (m->rcount % 2 == 0) ? (uint8_t)(m->latched >> 8)
					 : (uint8_t)m->latched;
		m->rcount++;
	}
	pthread_mutex_unlock(&m->lock);
	return b;
}

void hil_regmodel_i2c_stop(struct hil_regmodel *m)
{
	pthread_mutex_lock(&m->lock);
	m->selected = 0;
	m->open = 0;
	pthread_mutex_unlock(&m->lock);
}

/* ---- on the sim bus ---- */

void *hil_regmodel_sim_create(const struct hil_i2c_sim_chip *chip, uint8_t addr,
			      const struct hil_i2c_sim_opts *o)
{
	struct hil_regmodel *m =
		hil_regmodel_new(chip->model, addr, o->shunt_ohm);
	struct hil_regmodel_steps st;
	size_t k;

	if (m == NULL) {
		return NULL;
	}
	hil_regmodel_set_clock_host(m);
	memset(&st, 0, sizeof(st));
	st.bus_v = o->bus_v;
	st.idle_a = o->idle_a;
	st.active_a = o->active_a;
	for (k = 0; k < o->n && k < HIL_REGMODEL_STEPS_MAX; k++) {
		st.win[k].start_us = o->win[k].start_us;
		st.win[k].end_us = o->win[k].end_us;
	}
	st.n = k;
	hil_regmodel_set_steps(m, &st);
	hil_regmodel_set_dead_after(m, o->dead_after);
	return m;
}

void hil_regmodel_sim_destroy(void *m)
{
	hil_regmodel_free(m);
}

int hil_regmodel_sim_start(void *m, uint8_t addr_rw)
{
	return hil_regmodel_i2c_start(m, addr_rw);
}

int hil_regmodel_sim_write(void *m, uint8_t byte)
{
	return hil_regmodel_i2c_write(m, byte);
}

uint8_t hil_regmodel_sim_read(void *m)
{
	return hil_regmodel_i2c_read(m);
}

void hil_regmodel_sim_stop(void *m)
{
	hil_regmodel_i2c_stop(m);
}

int hil_regmodel_sim_load(void *m, int on)
{
	return hil_regmodel_load(m, on);
}
