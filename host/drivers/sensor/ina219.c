/* ina219: the INA219 driver: calibration per the datasheet (TI SBOS448 section 8.5), batched register reads, overflow and conversion-ready handling. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"ina219"

#include "ina219.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/err.h"
#include "drivers/i2c/i2c.h"
#include "util/log.h"

#define CONFIG_RST  0x8000u
#define CONFIG_BRNG 0x2000u
#define BUS_CNVR    0x0002u
#define BUS_OVF	    0x0001u

struct ina219 {
	struct hil_i2c_bus *bus; /* borrowed */
	uint8_t addr;
	double shunt_ohm;
	struct ina219_setup setup;
};

static const char *const reg_names[] = {"configuration", "shunt voltage",
					"bus voltage",	 "power",
					"current",	 "calibration"};

static const char *reg_name(uint8_t reg)
{
	return reg < 6 ? reg_names[reg] : "unknown";
}

void ina219_config_default(struct ina219_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->addr = 0x40;
	cfg->shunt_ohm = 0.1;
	cfg->max_current_a = 3.2;
	cfg->bus_range_v = 32;
	cfg->pga_div = 0;
	cfg->bus_bits = 12;
	cfg->bus_samples = 1;
	cfg->shunt_bits = 12;
	cfg->shunt_samples = 1;
	cfg->mode = INA219_MODE_BOTH_CONTINUOUS;
}

/* BADC/SADC code (Table 6): 0b0X00..0b0X11 = 9..12 bit, 0b1nnn = 2^n samples. */
static int adc_code(unsigned bits, unsigned samples, unsigned *code)
{
	unsigned n;

	if (samples <= 1) {
		if (bits < 9 || bits > 12) {
			return -1;
		}
		*code = bits - 9;
		return 0;
	}
	if (bits != 12 && bits != 0) {
		return -1; /* averaging works on 12-bit conversions only */
	}
	for (n = 1; n <= 7; n++) {
		if (samples == 1u << n) {
			*code = 0x8u | n;
			return 0;
		}
	}
	return -1;
}

unsigned ina219_adc_us(unsigned bits, unsigned samples)
{
	static const unsigned avg_us[8] = {532,	 1060,	2130,  4260,
					   8510, 17020, 34050, 68100};
	static const unsigned res_us[4] = {84, 148, 276, 532};
	unsigned code;

	if (adc_code(bits, samples, &code) != 0) {
		return 0;
	}
	return (code & 0x8u) ? avg_us[code & 0x7u] : res_us[code & 0x3u];
}

/* Smallest 1, 2 or 5 x 10^n not below x. */
static double round_up_125(double x)
{
	double d = pow(10.0, floor(log10(x)));
	static const double m[] = {1.0, 2.0, 5.0, 10.0};
	size_t i;

	for (i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		if (m[i] * d >= x * (1.0 - 1e-12)) {
			return m[i] * d;
		}
	}
	return 10.0 * d;
}

int ina219_calc(const struct ina219_config *cfg, struct ina219_setup *out)
{
	unsigned badc, sadc, pg, mode = (unsigned)cfg->mode;
	double vmax, lsb, cal;
	int sh, bu;

	memset(out, 0, sizeof(*out));
	if (!(cfg->shunt_ohm > 0.0) || !(cfg->max_current_a > 0.0)) {
		hil_err("shunt_ohm and max_current_a must be > 0 (got %g, %g)",
			cfg->shunt_ohm, cfg->max_current_a);
		return HIL_ERR_CONFIG;
	}
	if (cfg->bus_range_v != 16 && cfg->bus_range_v != 32) {
		hil_err("bus range must be 16 or 32 V (got %u)",
			cfg->bus_range_v);
		return HIL_ERR_CONFIG;
	}
	if (adc_code(cfg->bus_bits, cfg->bus_samples, &badc) != 0 ||
	    adc_code(cfg->shunt_bits, cfg->shunt_samples, &sadc) != 0) {
		hil_err("ADC setting: 9..12 bits with 1 sample, or 12 bits with "
			"2..128 samples (powers of two)");
		return HIL_ERR_CONFIG;
	}
	if (mode > 7) {
		hil_err("mode %u: must be 0..7", mode);
		return HIL_ERR_CONFIG;
	}

	/* PGA: +-40 mV x 1, 2, 4, 8 (Table 5). */
	vmax = cfg->max_current_a * cfg->shunt_ohm;
	if (cfg->pga_div == 0) {
		for (pg = 0;
		     pg < 3 && 0.04 * (double)(1u << pg) < vmax * (1.0 - 1e-9);
		     pg++) {
		}
	} else {
		for (pg = 0; pg < 4 && (1u << pg) != cfg->pga_div; pg++) {
		}
		if (pg == 4) {
			hil_err("PGA divider must be 1, 2, 4 or 8 (got %u)",
				cfg->pga_div);
			return HIL_ERR_CONFIG;
		}
	}
	if (vmax > 0.04 * (double)(1u << pg) * (1.0 + 1e-9)) {
		hil_err("max_current_a %g A x shunt %g ohm = %g mV exceeds the "
			"PGA range +-%u mV",
			cfg->max_current_a, cfg->shunt_ohm, vmax * 1e3,
			40u << pg);
		return HIL_ERR_CONFIG;
	}

	/* Section 8.5.1, steps 2-3. */
	if (cfg->current_lsb_a > 0.0) {
		lsb = cfg->current_lsb_a;
	} else if (cfg->lsb_exact) {
		lsb = cfg->max_current_a / 32768.0;
	} else {
		lsb = round_up_125(cfg->max_current_a / 32768.0);
	}
	/*
	 * trunc(), with a 1e-9 relative allowance so that a quotient which is
	 * an integer on paper (0.04096 / (1 mA x 2 mOhm) = 20480) is not cut
	 * to the integer below by binary rounding.
	 */
	cal = floor(0.04096 / (lsb * cfg->shunt_ohm) * (1.0 + 1e-9));
	if (cal < 2.0 || cal > 65535.0) {
		hil_err("calibration 0.04096 / (%g A x %g ohm) = %.0f does not "
			"fit the register (2..65534): choose another "
			"max_current_a or current LSB",
			lsb, cfg->shunt_ohm, cal);
		return HIL_ERR_CONFIG;
	}
	/* FS0 is void: bit 0 always reads 0 (section 8.6.4.1). */
	out->cal = (uint16_t)((unsigned)cal & 0xFFFEu);
	if (lsb * 32767.0 < cfg->max_current_a * (1.0 - 1e-9) &&
	    cfg->current_lsb_a > 0.0) {
		hil_warn("current LSB %g A x 32767 is below max_current_a %g "
			 "A: the current register will overflow",
			 lsb, cfg->max_current_a);
	}
	out->pga_div = 1u << pg;
	out->current_lsb_a = lsb;
	out->eff_lsb_a = 0.04096 / ((double)out->cal * cfg->shunt_ohm);
	out->power_lsb_w = 20.0 * out->eff_lsb_a;
	out->shunt_range_v = 0.04 * (double)out->pga_div;
	out->config = (uint16_t)((cfg->bus_range_v == 32 ? CONFIG_BRNG : 0u) |
				 pg << 11 | badc << 7 | sadc << 3 | mode);
	sh = mode == 1 || mode == 3 || mode == 5 || mode == 7;
	bu = mode == 2 || mode == 3 || mode == 6 || mode == 7;
	out->cycle_us =
		(sh ? ina219_adc_us(cfg->shunt_bits, cfg->shunt_samples) : 0) +
		(bu ? ina219_adc_us(cfg->bus_bits, cfg->bus_samples) : 0);
	return HIL_OK;
}

int ina219_reg_read(struct ina219 *dev, uint8_t reg, uint16_t *val)
{
	uint8_t b[2];
	int ret;

	ret = hil_i2c_xfer(dev->bus, dev->addr, &reg, 1, b, 2);
	if (ret != HIL_OK) {
		hil_err("INA219 at 0x%02x on %s: reading register 0x%02x (%s) "
			"failed: %s",
			dev->addr, hil_i2c_spec(dev->bus), reg, reg_name(reg),
			hil_strerror(ret));
		return ret;
	}
	*val = (uint16_t)(b[0] << 8 | b[1]); /* big-endian on the bus */
	return HIL_OK;
}

static int reg_write(struct ina219 *dev, uint8_t reg, uint16_t val)
{
	uint8_t b[3] = {reg, (uint8_t)(val >> 8), (uint8_t)val};
	int ret;

	ret = hil_i2c_xfer(dev->bus, dev->addr, b, 3, NULL, 0);
	if (ret != HIL_OK) {
		hil_err("INA219 at 0x%02x on %s: writing 0x%04x to register "
			"0x%02x (%s) failed: %s",
			dev->addr, hil_i2c_spec(dev->bus), val, reg,
			reg_name(reg), hil_strerror(ret));
	}
	return ret;
}

/* Read n registers in one batch: one round trip on batching backends. */
static int regs_read(struct ina219 *dev, const uint8_t *regs, uint16_t *vals,
		     size_t n)
{
	struct hil_i2c_msg m[4];
	uint8_t b[4][2];
	size_t i;
	int ret;

	memset(m, 0, sizeof(m));
	memset(b, 0, sizeof(b));
	if (n > 4) {
		return HIL_ERR_ARG;
	}
	for (i = 0; i < n; i++) {
		m[i].addr = dev->addr;
		m[i].w = &regs[i];
		m[i].wlen = 1;
		m[i].r = b[i];
		m[i].rlen = 2;
	}
	ret = hil_i2c_xfer_batch(dev->bus, m, n);
	if (ret != HIL_OK) {
		char names[128] = "";
		size_t len = 0;

		for (i = 0; i < n && len < sizeof(names); i++) {
			int k = snprintf(names + len, sizeof(names) - len,
					 "%s0x%02x (%s)", i > 0 ? ", " : "",
					 regs[i], reg_name(regs[i]));

			len += k > 0 ? (size_t)k : 0;
		}
		hil_err("INA219 at 0x%02x on %s: reading registers %s failed: "
			"%s",
			dev->addr, hil_i2c_spec(dev->bus), names,
			hil_strerror(ret));
		return ret;
	}
	for (i = 0; i < n; i++) {
		vals[i] = (uint16_t)(b[i][0] << 8 | b[i][1]);
	}
	return HIL_OK;
}

/* Bus register fields and the range flag common to both readings. */
static void decode(struct ina219 *dev, struct ina219_reading *r)
{
	int32_t fs = (int32_t)(4000u * dev->setup.pga_div);
	int16_t sh = (int16_t)r->raw_shunt;

	r->shunt_uv = (int32_t)sh * 10;
	r->bus_mv = (int32_t)(r->raw_bus >> 3) * 4;
	r->cnvr = (r->raw_bus & BUS_CNVR) != 0;
	r->out_of_range = (r->raw_bus & BUS_OVF) != 0 || sh >= fs || sh <= -fs;
}

/* ina219_read's errors: the range problems of a decoded reading, named. */
static int range_error(struct ina219 *dev, const struct ina219_reading *r)
{
	if (r->raw_bus & BUS_OVF) {
		hil_err("INA219 at 0x%02x: math overflow (OVF): current or "
			"power out of range; raise max_current_a (now LSB %g "
			"A) or the PGA range",
			dev->addr, dev->setup.current_lsb_a);
		return HIL_ERR_CONFIG;
	}
	if (r->out_of_range) {
		hil_err("INA219 at 0x%02x: shunt voltage %d uV at the PGA's "
			"full scale (+-%u mV): the current is beyond the range",
			dev->addr, (int)r->shunt_uv, 40u * dev->setup.pga_div);
		return HIL_ERR_CONFIG;
	}
	return HIL_OK;
}

int ina219_read(struct ina219 *dev, struct ina219_reading *r)
{
	/* Power last: reading it clears CNVR, seen in the bus register first. */
	static const uint8_t regs[4] = {INA219_REG_BUS, INA219_REG_SHUNT,
					INA219_REG_CURRENT, INA219_REG_POWER};
	uint16_t v[4];
	int ret;

	if (dev == NULL || r == NULL) {
		return HIL_ERR_ARG;
	}
	memset(r, 0, sizeof(*r));
	ret = regs_read(dev, regs, v, 4);
	if (ret != HIL_OK) {
		return ret;
	}
	r->raw_bus = v[0];
	r->raw_shunt = v[1];
	r->raw_current = v[2];
	r->raw_power = v[3];
	r->current_ua =
		llround((double)(int16_t)v[2] * dev->setup.eff_lsb_a * 1e6);
	r->power_uw = llround((double)v[3] * dev->setup.power_lsb_w * 1e6);
	decode(dev, r);
	return range_error(dev, r);
}

int ina219_sample(struct ina219 *dev, struct ina219_reading *r)
{
	static const uint8_t regs[3] = {INA219_REG_BUS, INA219_REG_SHUNT,
					INA219_REG_POWER};
	uint16_t v[3];
	int ret;

	if (dev == NULL || r == NULL) {
		return HIL_ERR_ARG;
	}
	memset(r, 0, sizeof(*r));
	ret = regs_read(dev, regs, v, 3);
	if (ret != HIL_OK) {
		return ret;
	}
	r->raw_bus = v[0];
	r->raw_shunt = v[1];
	r->raw_power = v[2];
	r->power_uw = llround((double)v[2] * dev->setup.power_lsb_w * 1e6);
	decode(dev, r);
	r->current_ua = llround((double)r->shunt_uv / dev->shunt_ohm);
	return HIL_OK;
}

static uint64_t mono_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

int ina219_wait_ready(struct ina219 *dev, unsigned timeout_ms)
{
	uint64_t deadline = mono_us() + (uint64_t)timeout_ms * 1000u;
	/* Poll four times per conversion cycle, at most every 1 ms. */
	unsigned step_us = dev->setup.cycle_us / 4;
	uint16_t v;
	int ret;

	if (step_us == 0 || step_us > 1000) {
		step_us = 1000;
	}
	for (;;) {
		struct timespec ts = {0, (long)step_us * 1000};

		ret = ina219_reg_read(dev, INA219_REG_BUS, &v);
		if (ret != HIL_OK) {
			return ret;
		}
		if (v & BUS_CNVR) {
			return HIL_OK;
		}
		if (mono_us() >= deadline) {
			break;
		}
		nanosleep(&ts, NULL);
	}
	hil_err("INA219 at 0x%02x: no conversion completed in %u ms (one "
		"takes %u us in mode %u)",
		dev->addr, timeout_ms, dev->setup.cycle_us,
		dev->setup.config & 7u);
	return HIL_ERR_TIMEOUT;
}

int ina219_trigger(struct ina219 *dev)
{
	return reg_write(dev, INA219_REG_CONFIG, dev->setup.config);
}

int ina219_open(struct ina219 **out, struct hil_i2c_bus *bus,
		const struct ina219_config *cfg)
{
	struct ina219 *dev;
	uint16_t config, cal;
	int ret;

	if (out == NULL || bus == NULL || cfg == NULL) {
		return HIL_ERR_ARG;
	}
	*out = NULL;
	if (cfg->addr < 0x40 || cfg->addr > 0x4F) {
		hil_err("INA219 address 0x%02x: must be 0x40..0x4F", cfg->addr);
		return HIL_ERR_CONFIG;
	}
	dev = calloc(1, sizeof(*dev));
	if (dev == NULL) {
		return HIL_ERR_NOMEM;
	}
	dev->bus = bus;
	dev->addr = cfg->addr;
	dev->shunt_ohm = cfg->shunt_ohm;
	ret = ina219_calc(cfg, &dev->setup);
	if (ret != HIL_OK) {
		goto err;
	}
	/* Reset first: the chip may hold a previous run's settings. */
	ret = reg_write(dev, INA219_REG_CONFIG, CONFIG_RST);
	if (ret == HIL_OK) {
		ret = reg_write(dev, INA219_REG_CONFIG, dev->setup.config);
	}
	if (ret == HIL_OK) {
		ret = reg_write(dev, INA219_REG_CAL, dev->setup.cal);
	}
	if (ret == HIL_OK) {
		ret = ina219_reg_read(dev, INA219_REG_CONFIG, &config);
	}
	if (ret == HIL_OK) {
		ret = ina219_reg_read(dev, INA219_REG_CAL, &cal);
	}
	if (ret != HIL_OK) {
		goto err;
	}
	if (config != dev->setup.config || cal != dev->setup.cal) {
		hil_err("INA219 at 0x%02x on %s: registers read back config "
			"0x%04x cal 0x%04x after writing 0x%04x 0x%04x: not an "
			"INA219, or a wiring fault",
			dev->addr, hil_i2c_spec(bus), config, cal,
			dev->setup.config, dev->setup.cal);
		ret = HIL_ERR_IO;
		goto err;
	}
	hil_dbg("INA219 at 0x%02x: config 0x%04x cal %u, LSB %.4g A, shunt "
		"+-%g mV, cycle %u us",
		dev->addr, config, cal, dev->setup.eff_lsb_a,
		dev->setup.shunt_range_v * 1e3, dev->setup.cycle_us);
	*out = dev;
	return HIL_OK;
err:
	free(dev);
	return ret;
}

void ina219_close(struct ina219 *dev)
{
	free(dev);
}

const struct ina219_setup *ina219_get_setup(const struct ina219 *dev)
{
	return &dev->setup;
}

double ina219_shunt_ohm(const struct ina219 *dev)
{
	return dev->shunt_ohm;
}

uint8_t ina219_addr(const struct ina219 *dev)
{
	return dev->addr;
}
