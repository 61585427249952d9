/* ina219_model: the simulated INA219 behind the sim bus and the MPSSE interpreter (register semantics per TI SBOS448), on the register-model core (regmodel.c). */
#define _POSIX_C_SOURCE 200809L

#include "ina219_model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ina219.h"

#define CONFIG_RST     0x8000u
#define CONFIG_BRNG    0x2000u
#define CONFIG_POR     0x399Fu
#define CONFIG_WMASK   0x3FFFu /* bit 15 self-clears, bit 14 is unused */
#define CAL_WMASK      0xFFFEu /* FS0 is void: "not possible to write a 1" */
#define SHUNT_FS_CODES 4000    /* +-40 mV at PGA /1, in 10 uV units */

struct ina219_regs {
	uint16_t config;
	uint16_t cal;
	int16_t shunt;	 /* 10 uV units */
	uint16_t bus;	 /* 4 mV units, 13 bits */
	int16_t current; /* Current_LSB units */
	uint16_t power;	 /* 20 x Current_LSB units */
	int cnvr;
	int ovf;
};

/* At power-on every register is 0 but the configuration. */
static const struct ina219_regs por = {.config = CONFIG_POR};

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

static double shunt_time(const struct hil_regmodel *m, uint16_t config)
{
	return hil_regmodel_scaled(m,
				   ina219_model_adc_us((config >> 3) & 0xFu));
}

static double bus_time(const struct hil_regmodel *m, uint16_t config)
{
	return hil_regmodel_scaled(m,
				   ina219_model_adc_us((config >> 7) & 0xFu));
}

/* Shunt, then bus: one cycle is the sum of the two conversions. */
static double ina219_model_cycle(struct hil_regmodel *m, int *once)
{
	const struct ina219_regs *r = hil_regmodel_regs(m);
	unsigned mode = mode_of(r->config);
	double t = 0.0;

	if (measures_shunt(mode)) {
		t += shunt_time(m, r->config);
	}
	if (measures_bus(mode)) {
		t += bus_time(m, r->config);
	}
	*once = mode <= 3;
	return t;
}

static long clampl(long v, long lo, long hi)
{
	return v < lo ? lo : (v > hi ? hi : v);
}

/*
 * Each reading: the waveform's mean over its conversion, at 16 points or
 * at the averaging count, the larger, each at a whole microsecond.
 */
static void mean(struct hil_regmodel *m, double t0, double len,
		 unsigned samples, double *v, double *i)
{
	hil_regmodel_wave_mean(m, t0, len, samples > 16 ? samples : 16, 1, v,
			       i);
}

/* The results of the conversion cycle that began at t0 (us). */
static void ina219_model_latch(struct hil_regmodel *m, double t0)
{
	struct ina219_regs *r = hil_regmodel_regs(m);
	unsigned mode = mode_of(r->config);
	unsigned sadc = (r->config >> 3) & 0xFu, badc = (r->config >> 7) & 0xFu;
	double v, i;
	long fs, cur, pwr;

	if (measures_shunt(mode)) {
		/* PGA /1../8 (PG1..PG0, bits 12..11): +-40 mV x 1..8 */
		fs = (long)SHUNT_FS_CODES << ((r->config >> 11) & 0x3u);
		mean(m, t0, shunt_time(m, r->config), adc_samples(sadc), &v,
		     &i);
		r->shunt = (int16_t)clampl(
			lround(i * hil_regmodel_shunt_ohm(m) / 10e-6), -fs, fs);
		t0 += shunt_time(m, r->config);
	}
	if (measures_bus(mode)) {
		fs = (r->config & CONFIG_BRNG) ? 8000 : 4000; /* 32 / 16 V */
		mean(m, t0, bus_time(m, r->config), adc_samples(badc), &v, &i);
		r->bus = (uint16_t)clampl(lround(v / 4e-3), 0, fs);
	}
	/* Section 8.5.1: Current = Shunt x Cal / 4096, Power = I x Bus / 5000. */
	r->ovf = 0;
	cur = (long)r->shunt * (long)r->cal / 4096;
	if (cur > 32767 || cur < -32768) {
		r->ovf = 1;
		cur = clampl(cur, -32768, 32767);
	}
	pwr = labs(cur) * (long)r->bus / 5000;
	if (pwr > 65535) {
		r->ovf = 1;
		pwr = 65535;
	}
	r->current = (int16_t)cur;
	r->power = (uint16_t)pwr;
	r->cnvr = 1;
}

/* The register map (Table 2): 00h..05h; other pointers read 0. */
static uint16_t ina219_model_peek(struct hil_regmodel *m, uint8_t reg)
{
	const struct ina219_regs *r = hil_regmodel_regs(m);
	const uint16_t map[6] = {
		r->config,
		(uint16_t)r->shunt,
		(uint16_t)(r->bus << 3 | r->cnvr << 1 | r->ovf),
		r->power,
		(uint16_t)r->current,
		r->cal,
	};

	return reg < 6 ? map[reg] : 0;
}

/* Reading the power register clears CNVR. */
static void ina219_model_read(struct hil_regmodel *m, uint8_t reg)
{
	struct ina219_regs *r = hil_regmodel_regs(m);

	if (reg == INA2XX_REG_POWER) {
		r->cnvr = 0;
	}
}

static void ina219_model_write(struct hil_regmodel *m, uint8_t reg, uint16_t v)
{
	struct ina219_regs *r = hil_regmodel_regs(m);
	unsigned mode;

	if (reg == INA2XX_REG_CONFIG) {
		hil_regmodel_update(m);
		if (v & CONFIG_RST) {
			hil_regmodel_power_on(m);
			return;
		}
		r->config = v & CONFIG_WMASK;
		mode = mode_of(r->config);
		if (mode != 0 && mode != 4) {
			/* A mode write clears CNVR and restarts conversions. */
			r->cnvr = 0;
			hil_regmodel_restart(m);
		}
	} else if (reg == INA2XX_REG_CAL) {
		r->cal = v & CAL_WMASK;
	}
	/* 01h..04h are read-only: writes are ignored. */
}

const struct hil_regmodel_chip ina219_model_chip = {
	.name = "INA219",
	.regs_size = sizeof(struct ina219_regs),
	.por = &por,
	.cycle_us = ina219_model_cycle,
	.latch = ina219_model_latch,
	.peek = ina219_model_peek,
	.read = ina219_model_read,
	.write = ina219_model_write,
};

struct hil_regmodel *ina219_model_new(uint8_t addr, double shunt_ohm)
{
	struct hil_regmodel *m =
		hil_regmodel_new(&ina219_model_chip, addr, shunt_ohm);

	if (m != NULL) {
		hil_regmodel_set_clock_host(m);
	}
	return m;
}
