/* ina226_model: the simulated INA226 for tests and the sim bus (register semantics per TI SBOS547), on a clock the test moves or on the host's. */
#define _POSIX_C_SOURCE 200809L

#include "ina226_model.h"

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
#define REG_MASK    0x06
#define REG_LIMIT   0x07
#define REG_MFR_ID  0xFE
#define REG_DIE_ID  0xFF

#define CONFIG_RST   0x8000u
#define CONFIG_POR   0x4127u
#define CONFIG_WMASK 0x7FFFu /* RST self-clears */
#define CAL_WMASK    0x7FFFu /* FS14..FS0; bit 15 is "-" */

/* Mask/Enable (06h) bits. */
#define ME_SOL	  0x8000u
#define ME_SUL	  0x4000u
#define ME_BOL	  0x2000u
#define ME_BUL	  0x1000u
#define ME_POL	  0x0800u
#define ME_CNVR	  0x0400u
#define ME_AFF	  0x0010u
#define ME_CVRF	  0x0008u
#define ME_OVF	  0x0004u
#define ME_APOL	  0x0002u
#define ME_LEN	  0x0001u
#define ME_WMASK  0xFC03u /* AFF, CVRF and OVF are read-only flags */
#define ME_ALERTS 0xF800u

#define MFR_ID 0x5449u /* "TI" */
#define DIE_ID 0x2260u

#define SHUNT_LSB_V 2.5e-6
#define BUS_LSB_V   1.25e-3

struct ina226_model {
	pthread_mutex_t lock;
	uint8_t addr;
	double shunt_ohm;

	/* registers */
	uint16_t config;
	uint16_t cal;
	uint16_t mask; /* the writable bits of 06h */
	uint16_t limit;
	int16_t shunt;	 /* 2.5 uV units */
	uint16_t bus;	 /* 1.25 mV units, 15 bits */
	int16_t current; /* Current_LSB units */
	uint16_t power;	 /* 25 x Current_LSB units */
	int cvrf, aff, ovf;

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
	ina226_clock_fn clock;
	void *clock_ctx;
	uint64_t internal_us;
	uint64_t epoch_ns; /* CLOCK_MONOTONIC at 0 of the host-time clock */
	ina226_wave_fn wave;
	void *wave_ctx;
	struct ina226_steps steps;
};

/* Tables 4 and 5 of SBOS547 (2011): VBUSCT and VSHCT codes. */
unsigned ina226_model_ct_us(unsigned code)
{
	static const unsigned ct_us[8] = {140,	204,  332,  588,
					  1100, 2116, 4156, 8244};

	return ct_us[code & 0x7u];
}

/* Table 3 of SBOS547 (2011): AVG codes. */
unsigned ina226_model_avg(unsigned code)
{
	static const unsigned avg[8] = {1, 4, 16, 64, 128, 256, 512, 1024};

	return avg[code & 0x7u];
}

static uint64_t now_us(const struct ina226_model *m)
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
	const struct ina226_model *m = ctx;

	return (mono_ns() - m->epoch_ns) / 1000u;
}

static void steps_wave(void *ctx, double t_us, double *bus_v, double *current_a)
{
	const struct ina226_steps *st = ctx;
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

static unsigned mode_of(uint16_t config)
{
	return config & 0x7u;
}

/* MODE 001, 011, 101, 111 convert the shunt; 010, 011, 110, 111 the bus. */
static int measures_shunt(unsigned mode)
{
	return (mode & 0x1u) != 0;
}

static int measures_bus(unsigned mode)
{
	return (mode & 0x2u) != 0;
}

static unsigned avg_of(uint16_t config)
{
	return ina226_model_avg(config >> 9);
}

static unsigned vbus_ct(uint16_t config)
{
	return ina226_model_ct_us(config >> 6);
}

static unsigned vsh_ct(uint16_t config)
{
	return ina226_model_ct_us(config >> 3);
}

/* One sample's time: the shunt conversion, then the bus conversion. */
static uint64_t sample_us(uint16_t config)
{
	unsigned mode = mode_of(config);

	return (measures_shunt(mode) ? vsh_ct(config) : 0u) +
	       (measures_bus(mode) ? vbus_ct(config) : 0u);
}

/* A whole cycle: AVG samples. 0 in power-down (000 and 100). */
static uint64_t cycle_us(uint16_t config)
{
	return (uint64_t)avg_of(config) * sample_us(config);
}

/* A nominal time as this chip's oscillator makes it. */
static double scaled_us(const struct ina226_model *m, double us)
{
	return us * (1.0 + (double)m->rate_ppm * 1e-6);
}

/* Mean of the waveform over [t0, t0 + len) at n evenly spaced points. */
static void wave_mean(struct ina226_model *m, double t0, double len, unsigned n,
		      double *bus_v, double *current_a)
{
	double sv = 0.0, si = 0.0;
	unsigned k;

	for (k = 0; k < n; k++) {
		double t = t0 + ((double)k + 0.5) * len / (double)n;
		double v, i;

		m->wave(m->wave_ctx, t, &v, &i);
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

/* Whether the enabled alert function (the highest set bit) is tripped. */
static int alert_exceeded(const struct ina226_model *m)
{
	if (m->mask & ME_SOL) {
		return m->shunt > (int16_t)m->limit;
	}
	if (m->mask & ME_SUL) {
		return m->shunt < (int16_t)m->limit;
	}
	if (m->mask & ME_BOL) {
		return m->bus > m->limit;
	}
	if (m->mask & ME_BUL) {
		return m->bus < m->limit;
	}
	if (m->mask & ME_POL) {
		return m->power > m->limit;
	}
	return 0;
}

/*
 * The results of the cycle that began at t0 (us): per sample, the shunt
 * conversion, Current = Shunt x CAL / 2048 (equation 3), the bus
 * conversion, Power = |Current| x Bus / 20000 (equation 4); the sums are
 * averaged into the registers at the end (section 6.3.1.1). The power
 * register is unsigned: a reverse current gives a positive power (what
 * users of the chip report; the datasheet shows no negative example). The
 * datasheet does not say how the divisions round: they truncate here.
 */
static void latch(struct ina226_model *m, double t0)
{
	unsigned mode = mode_of(m->config), avg = avg_of(m->config);
	unsigned pts = avg >= 16 ? 1 : 16 / avg, k;
	double tsh = measures_shunt(mode)
			     ? scaled_us(m, (double)vsh_ct(m->config))
			     : 0.0;
	double tbus = measures_bus(mode)
			      ? scaled_us(m, (double)vbus_ct(m->config))
			      : 0.0;
	double t = t0;
	long long sum_sh = 0, sum_bus = 0, sum_cur = 0, sum_pwr = 0;
	long cur = m->current, sh, bus, pwr;
	int ovf = 0;

	for (k = 0; k < avg; k++) {
		double v, i;

		if (tsh > 0.0) {
			wave_mean(m, t, tsh, pts, &v, &i);
			sh = clampl(lround(i * m->shunt_ohm / SHUNT_LSB_V),
				    -32768, 32767);
			cur = sh * (long)m->cal / 2048;
			if (cur > 32767 || cur < -32768) {
				ovf = 1;
				cur = clampl(cur, -32768, 32767);
			}
			sum_sh += sh;
			sum_cur += cur;
			t += tsh;
		}
		if (tbus > 0.0) {
			wave_mean(m, t, tbus, pts, &v, &i);
			bus = clampl(lround(v / BUS_LSB_V), 0, 32767);
			pwr = labs(cur) * bus / 20000;
			if (pwr > 65535) {
				ovf = 1;
				pwr = 65535;
			}
			sum_bus += bus;
			sum_pwr += pwr;
			t += tbus;
		}
	}
	if (tsh > 0.0) {
		m->shunt = (int16_t)(sum_sh / avg);
		m->current = (int16_t)(sum_cur / avg);
	}
	if (tbus > 0.0) {
		m->bus = (uint16_t)(sum_bus / avg);
		m->power = (uint16_t)(sum_pwr / avg);
	}
	m->ovf = ovf;
	m->cvrf = 1;
	if (alert_exceeded(m)) {
		m->aff = 1;
	} else if (!(m->mask & ME_LEN)) {
		m->aff = 0; /* transparent: follows each cycle */
	}
}

/* Bring the conversions up to now. */
static void update(struct ina226_model *m)
{
	double cyc = scaled_us(m, (double)cycle_us(m->config));
	uint64_t t = now_us(m), n;

	if (!(cyc > 0.0) || t < m->mode_start_us) {
		return; /* power-down */
	}
	n = (uint64_t)((double)(t - m->mode_start_us) / cyc);
	if (mode_of(m->config) <= 3) { /* triggered: one cycle per write */
		if (m->done == 0 && n >= 1) {
			latch(m, (double)m->mode_start_us);
			m->done = 1;
		}
		return;
	}
	if (n > m->done) {
		latch(m, (double)m->mode_start_us + (double)(n - 1) * cyc);
		m->done = n;
	}
}

static void reset_regs(struct ina226_model *m)
{
	m->config = CONFIG_POR;
	m->cal = 0;
	m->mask = 0;
	m->limit = 0;
	m->shunt = 0;
	m->bus = 0;
	m->current = 0;
	m->power = 0;
	m->cvrf = 0;
	m->aff = 0;
	m->ovf = 0;
	m->mode_start_us = now_us(m);
	m->done = 0;
}

static uint16_t reg_value(const struct ina226_model *m, uint8_t reg)
{
	switch (reg) {
	case REG_CONFIG:
		return m->config;
	case REG_SHUNT:
		return (uint16_t)m->shunt;
	case REG_BUS:
		return m->bus;
	case REG_POWER:
		return m->power;
	case REG_CURRENT:
		return (uint16_t)m->current;
	case REG_CAL:
		return m->cal;
	case REG_MASK:
		return (uint16_t)(m->mask | (m->aff ? ME_AFF : 0u) |
				  (m->cvrf ? ME_CVRF : 0u) |
				  (m->ovf ? ME_OVF : 0u));
	case REG_LIMIT:
		return m->limit;
	case REG_MFR_ID:
		return MFR_ID;
	case REG_DIE_ID:
		return DIE_ID;
	default:
		return 0;
	}
}

static void reg_write(struct ina226_model *m, uint8_t reg, uint16_t v)
{
	unsigned mode;

	/* Cycles that ended before this write used the old settings. */
	update(m);
	switch (reg) {
	case REG_CONFIG:
		if (v & CONFIG_RST) {
			reset_regs(m);
			break;
		}
		m->config = v & CONFIG_WMASK;
		mode = mode_of(m->config);
		/* "clears ... writing to the Configuration Register (except
		 * for Power-Down selection)"; a write restarts conversions. */
		if (mode != 0 && mode != 4) {
			m->cvrf = 0;
		}
		m->mode_start_us = now_us(m);
		m->done = 0;
		break;
	case REG_CAL:
		m->cal = v & CAL_WMASK;
		break;
	case REG_MASK:
		m->mask = v & ME_WMASK;
		break;
	case REG_LIMIT:
		m->limit = v;
		break;
	default:
		break; /* 01h..04h and the IDs are read-only */
	}
}

struct ina226_model *ina226_model_new(uint8_t addr, double shunt_ohm)
{
	struct ina226_model *m = calloc(1, sizeof(*m));

	if (m == NULL) {
		return NULL;
	}
	if (pthread_mutex_init(&m->lock, NULL) != 0) {
		free(m);
		return NULL;
	}
	m->addr = addr;
	m->shunt_ohm = shunt_ohm;
	m->dead_at = -1;
	m->steps.bus_v = 3.3;
	m->steps.idle_a = 0.010;
	m->steps.active_a = 0.025;
	m->wave = steps_wave;
	m->wave_ctx = &m->steps;
	reset_regs(m);
	return m;
}

void ina226_model_free(struct ina226_model *m)
{
	if (m == NULL) {
		return;
	}
	pthread_mutex_destroy(&m->lock);
	free(m);
}

void ina226_model_set_clock(struct ina226_model *m, ina226_clock_fn fn,
			    void *ctx)
{
	pthread_mutex_lock(&m->lock);
	m->clock = fn;
	m->clock_ctx = ctx;
	m->internal_us = 0;
	reset_regs(m); /* the time base changed: start over at power-on */
	pthread_mutex_unlock(&m->lock);
}

void ina226_model_set_clock_host(struct ina226_model *m)
{
	pthread_mutex_lock(&m->lock);
	m->epoch_ns = mono_ns();
	m->clock = host_us;
	m->clock_ctx = m;
	m->internal_us = 0;
	reset_regs(m);
	pthread_mutex_unlock(&m->lock);
}

void ina226_model_advance(struct ina226_model *m, uint64_t us)
{
	pthread_mutex_lock(&m->lock);
	m->internal_us += us;
	pthread_mutex_unlock(&m->lock);
}

uint64_t ina226_model_now_us(struct ina226_model *m)
{
	uint64_t t;

	pthread_mutex_lock(&m->lock);
	t = now_us(m);
	pthread_mutex_unlock(&m->lock);
	return t;
}

void ina226_model_set_steps(struct ina226_model *m,
			    const struct ina226_steps *st)
{
	pthread_mutex_lock(&m->lock);
	m->steps = *st;
	if (m->steps.n > INA226_STEPS_MAX) {
		m->steps.n = INA226_STEPS_MAX;
	}
	m->wave = steps_wave;
	m->wave_ctx = &m->steps;
	pthread_mutex_unlock(&m->lock);
}

int ina226_model_add_window(struct ina226_model *m, uint64_t start_us,
			    uint64_t end_us)
{
	int ret = -1;

	pthread_mutex_lock(&m->lock);
	if (m->steps.n < INA226_STEPS_MAX) {
		m->steps.win[m->steps.n].start_us = start_us;
		m->steps.win[m->steps.n].end_us = end_us;
		m->steps.n++;
		ret = 0;
	}
	pthread_mutex_unlock(&m->lock);
	return ret;
}

/* Drop the windows that ended before `before_us` (keeps the order). */
static void drop_old_windows(struct ina226_steps *st, uint64_t before_us)
{
	size_t k, n = 0;

	for (k = 0; k < st->n; k++) {
		if (st->win[k].end_us >= before_us) {
			st->win[n++] = st->win[k];
		}
	}
	st->n = n;
}

int ina226_model_load(struct ina226_model *m, int on)
{
	uint64_t now, keep_us;
	int ret = 0;

	pthread_mutex_lock(&m->lock);
	now = now_us(m);
	/* Longer than the conversion in progress (up to 16.9 s: 1024
	 * samples of shunt and bus at 8.244 ms each) could reach back into
	 * an old window. */
	keep_us =
		(uint64_t)scaled_us(m, (double)cycle_us(m->config)) + 1000000u;
	if (m->wave != steps_wave) {
		ret = -1;
	} else if (on) {
		drop_old_windows(&m->steps, now > keep_us ? now - keep_us : 0);
		if (m->steps.n == 0 ||
		    m->steps.win[m->steps.n - 1].end_us != UINT64_MAX) {
			if (m->steps.n == INA226_STEPS_MAX) {
				/* Keep the newest: shift the oldest out. */
				memmove(&m->steps.win[0], &m->steps.win[1],
					(INA226_STEPS_MAX - 1) *
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

void ina226_model_set_wave(struct ina226_model *m, ina226_wave_fn fn, void *ctx)
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

void ina226_model_set_dead_after(struct ina226_model *m, long n)
{
	pthread_mutex_lock(&m->lock);
	m->dead_at = n < 0 ? -1 : (long)m->transactions + n;
	pthread_mutex_unlock(&m->lock);
}

void ina226_model_set_rate_ppm(struct ina226_model *m, long ppm)
{
	pthread_mutex_lock(&m->lock);
	update(m);
	m->rate_ppm = ppm;
	m->mode_start_us = now_us(m); /* keep the cycle count consistent */
	m->done = 0;
	pthread_mutex_unlock(&m->lock);
}

uint16_t ina226_model_peek(struct ina226_model *m, uint8_t reg)
{
	uint16_t v;

	pthread_mutex_lock(&m->lock);
	update(m);
	v = reg_value(m, reg);
	pthread_mutex_unlock(&m->lock);
	return v;
}

int ina226_model_alert_pin(struct ina226_model *m)
{
	int asserted, level;

	pthread_mutex_lock(&m->lock);
	update(m);
	asserted = ((m->mask & ME_CNVR) && m->cvrf) ||
		   ((m->mask & ME_ALERTS) && m->aff);
	/* Open drain: active low unless APOL inverts it. */
	level = (m->mask & ME_APOL) ? asserted : !asserted;
	pthread_mutex_unlock(&m->lock);
	return level;
}

unsigned long ina226_model_transactions(struct ina226_model *m)
{
	unsigned long n;

	pthread_mutex_lock(&m->lock);
	n = m->transactions;
	pthread_mutex_unlock(&m->lock);
	return n;
}

uint64_t ina226_model_conversions(struct ina226_model *m)
{
	uint64_t n;

	pthread_mutex_lock(&m->lock);
	update(m);
	n = m->done;
	pthread_mutex_unlock(&m->lock);
	return n;
}

uint8_t ina226_model_addr(const struct ina226_model *m)
{
	return m->addr;
}

int ina226_model_i2c_start(struct ina226_model *m, uint8_t addr_rw)
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

int ina226_model_i2c_write(struct ina226_model *m, uint8_t byte)
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

uint8_t ina226_model_i2c_read(struct ina226_model *m)
{
	uint8_t b = 0xFF; /* nobody drives SDA: the pull-up reads 1 */

	pthread_mutex_lock(&m->lock);
	if (m->selected && m->rw) {
		if (m->rcount == 0) {
			update(m);
			m->latched = reg_value(m, m->ptr);
			if (m->ptr == REG_MASK) {
				/* Reading 06h clears CVRF, and AFF when
				 * latched (LEN); transparent AFF follows the
				 * conversions instead. */
				m->cvrf = 0;
				if (m->mask & ME_LEN) {
					m->aff = 0;
				}
			}
		}
		b = (m->rcount % 2 == 0) ? (uint8_t)(m->latched >> 8)
					 : (uint8_t)m->latched;
		m->rcount++;
	}
	pthread_mutex_unlock(&m->lock);
	return b;
}

void ina226_model_i2c_stop(struct ina226_model *m)
{
	pthread_mutex_lock(&m->lock);
	m->selected = 0;
	m->open = 0;
	pthread_mutex_unlock(&m->lock);
}
