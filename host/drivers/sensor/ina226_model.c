/* ina226_model: the simulated INA226 for tests and the sim bus (register semantics per TI SBOS547), on the register-model core (regmodel.c). */
#define _POSIX_C_SOURCE 200809L

#include "ina226_model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ina226.h"

#define CONFIG_RST   0x8000u
#define CONFIG_POR   0x4127u
#define CONFIG_WMASK 0x7FFFu /* RST self-clears */
#define CAL_WMASK    0x7FFFu /* FS14..FS0; bit 15 is "-" */

/* Mask/Enable (06h): the bits ina226.h does not name. */
#define ME_WMASK  0xFC03u /* AFF, CVRF and OVF are read-only flags */
#define ME_ALERTS 0xF800u /* SOL SUL BOL BUL POL */

#define SHUNT_LSB_V 2.5e-6
#define BUS_LSB_V   1.25e-3

struct ina226_regs {
	uint16_t config;
	uint16_t cal;
	uint16_t mask; /* the writable bits of 06h */
	uint16_t limit;
	int16_t shunt;	 /* 2.5 uV units */
	uint16_t bus;	 /* 1.25 mV units, 15 bits */
	int16_t current; /* Current_LSB units */
	uint16_t power;	 /* 25 x Current_LSB units */
	int cvrf, aff, ovf;
};

/* At power-on every register is 0 but the configuration. */
static const struct ina226_regs por = {.config = CONFIG_POR};

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

/* A whole cycle as this chip's oscillator makes it; triggered modes
 * (001..011) convert once per configuration write. */
static double ina226_model_cycle(struct hil_regmodel *m, int *once)
{
	const struct ina226_regs *r = hil_regmodel_regs(m);

	*once = mode_of(r->config) <= 3;
	return hil_regmodel_scaled(m, (double)cycle_us(r->config));
}

static long clampl(long v, long lo, long hi)
{
	return v < lo ? lo : (v > hi ? hi : v);
}

/* Whether the enabled alert function (the highest set bit) is tripped. */
static int alert_exceeded(const struct ina226_regs *r)
{
	if (r->mask & INA226_ME_SOL) {
		return r->shunt > (int16_t)r->limit;
	}
	if (r->mask & INA226_ME_SUL) {
		return r->shunt < (int16_t)r->limit;
	}
	if (r->mask & INA226_ME_BOL) {
		return r->bus > r->limit;
	}
	if (r->mask & INA226_ME_BUL) {
		return r->bus < r->limit;
	}
	if (r->mask & INA226_ME_POL) {
		return r->power > r->limit;
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
static void ina226_model_latch(struct hil_regmodel *m, double t0)
{
	struct ina226_regs *r = hil_regmodel_regs(m);
	unsigned mode = mode_of(r->config), avg = avg_of(r->config);
	unsigned pts = avg >= 16 ? 1 : 16 / avg, k;
	double tsh = measures_shunt(mode)
			     ? hil_regmodel_scaled(m, (double)vsh_ct(r->config))
			     : 0.0;
	double tbus =
		measures_bus(mode)
			? hil_regmodel_scaled(m, (double)vbus_ct(r->config))
			: 0.0;
	double t = t0, shunt_ohm = hil_regmodel_shunt_ohm(m);
	long long sum_sh = 0, sum_bus = 0, sum_cur = 0, sum_pwr = 0;
	long cur = r->current, sh, bus, pwr;
	int ovf = 0;

	for (k = 0; k < avg; k++) {
		double v, i;

		if (tsh > 0.0) {
			hil_regmodel_wave_mean(m, t, tsh, pts, 0, &v, &i);
			sh = clampl(lround(i * shunt_ohm / SHUNT_LSB_V), -32768,
				    32767);
			cur = sh * (long)r->cal / 2048;
			if (cur > 32767 || cur < -32768) {
				ovf = 1;
				cur = clampl(cur, -32768, 32767);
			}
			sum_sh += sh;
			sum_cur += cur;
			t += tsh;
		}
		if (tbus > 0.0) {
			hil_regmodel_wave_mean(m, t, tbus, pts, 0, &v, &i);
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
		r->shunt = (int16_t)(sum_sh / avg);
		r->current = (int16_t)(sum_cur / avg);
	}
	if (tbus > 0.0) {
		r->bus = (uint16_t)(sum_bus / avg);
		r->power = (uint16_t)(sum_pwr / avg);
	}
	r->ovf = ovf;
	r->cvrf = 1;
	if (alert_exceeded(r)) {
		r->aff = 1;
	} else if (!(r->mask & INA226_ME_LEN)) {
		r->aff = 0; /* transparent: follows each cycle */
	}
}

/*
 * The register map (Table 7-1): 00h..07h, the IDs at FEh and FFh; other
 * pointers read 0. Mask/Enable holds its writable bits and the flags.
 */
static uint16_t ina226_model_peek(struct hil_regmodel *m, uint8_t reg)
{
	const struct ina226_regs *r = hil_regmodel_regs(m);
	const uint16_t map[8] = {
		r->config,
		(uint16_t)r->shunt,
		r->bus,
		r->power,
		(uint16_t)r->current,
		r->cal,
		(uint16_t)(r->mask | (r->aff ? INA226_ME_AFF : 0u) |
			   (r->cvrf ? INA226_ME_CVRF : 0u) |
			   (r->ovf ? INA226_ME_OVF : 0u)),
		r->limit,
	};

	if (reg < 8) {
		return map[reg];
	}
	if (reg == INA226_REG_MFR_ID) {
		return INA226_MFR_ID_TI;
	}
	return reg == INA226_REG_DIE_ID ? INA226_DIE_ID : 0;
}

/*
 * Reading 06h clears CVRF, and AFF when latched (LEN); transparent AFF
 * follows the conversions instead.
 */
static void ina226_model_read(struct hil_regmodel *m, uint8_t reg)
{
	struct ina226_regs *r = hil_regmodel_regs(m);

	if (reg == INA226_REG_MASK) {
		r->cvrf = 0;
		if (r->mask & INA226_ME_LEN) {
			r->aff = 0;
		}
	}
}

static void ina226_model_write(struct hil_regmodel *m, uint8_t reg, uint16_t v)
{
	struct ina226_regs *r = hil_regmodel_regs(m);
	unsigned mode;

	/* Cycles that ended before this write used the old settings. */
	hil_regmodel_update(m);
	switch (reg) {
	case INA2XX_REG_CONFIG:
		if (v & CONFIG_RST) {
			hil_regmodel_power_on(m);
			break;
		}
		r->config = v & CONFIG_WMASK;
		mode = mode_of(r->config);
		/* "clears ... writing to the Configuration Register (except
		 * for Power-Down selection)"; a write restarts conversions. */
		if (mode != 0 && mode != 4) {
			r->cvrf = 0;
		}
		hil_regmodel_restart(m);
		break;
	case INA2XX_REG_CAL:
		r->cal = v & CAL_WMASK;
		break;
	case INA226_REG_MASK:
		r->mask = v & ME_WMASK;
		break;
	case INA226_REG_LIMIT:
		r->limit = v;
		break;
	default:
		break; /* 01h..04h and the IDs are read-only */
	}
}

const struct hil_regmodel_chip ina226_model_chip = {
	.name = "INA226",
	.regs_size = sizeof(struct ina226_regs),
	.por = &por,
	.cycle_us = ina226_model_cycle,
	.latch = ina226_model_latch,
	.peek = ina226_model_peek,
	.read = ina226_model_read,
	.write = ina226_model_write,
};

struct hil_regmodel *ina226_model_new(uint8_t addr, double shunt_ohm)
{
	return hil_regmodel_new(&ina226_model_chip, addr, shunt_ohm);
}

/* From Mask/Enable as a read would return it: the enables and the flags. */
int ina226_model_alert_pin(struct hil_regmodel *m)
{
	uint16_t me = hil_regmodel_peek(m, INA226_REG_MASK);
	int asserted = ((me & INA226_ME_CNVR) && (me & INA226_ME_CVRF)) ||
		       ((me & ME_ALERTS) && (me & INA226_ME_AFF));

	/* Open drain: active low unless APOL inverts it. */
	return (me & INA226_ME_APOL) ? asserted : !asserted;
}
