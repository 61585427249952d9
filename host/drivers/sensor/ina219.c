/* ina219: the INA219 driver: calibration per the datasheet (TI SBOS448 section 8.5), batched register reads, overflow and conversion-ready handling. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"ina219"

#include "ina219.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "util/err.h"
#include "util/log.h"
#include "util/util.h"
#include "drivers/i2c/i2c.h"
#include "ina2xx.h"

#define CONFIG_RST  0x8000u
#define CONFIG_BRNG 0x2000u
#define BUS_CNVR    0x0002u
#define BUS_OVF	    0x0001u

struct ina219 {
	struct ina2xx io; /* bus, address, shunt */
	struct ina2xx_setup setup;
};

static const struct ina2xx_chip chip = {
	.name = "INA219",
	.log = HIL_LOG_PREFIX,
	.reg_name = NULL, /* 00h..05h only */
};

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

int ina219_calc(const struct ina219_config *cfg, struct ina2xx_setup *out)
{
	unsigned badc, sadc, pg, mode = (unsigned)cfg->mode;
	double vmax, lsb, cal;
	int sh, bu;

	memset(out, 0, sizeof(*out));
	if (ina2xx_check_scale(&chip, cfg->shunt_ohm, cfg->max_current_a) !=
	    HIL_OK) {
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
	if (ina2xx_check_mode(&chip, mode) != HIL_OK) {
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
		lsb = hil_round_125(cfg->max_current_a / 32768.0);
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
	out->shunt_ohm = cfg->shunt_ohm;
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
	return ina2xx_reg_read(&dev->io, reg, val);
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
			dev->io.addr, dev->setup.current_lsb_a);
		return HIL_ERR_CONFIG;
	}
	if (r->out_of_range) {
		hil_err("INA219 at 0x%02x: shunt voltage %d uV at the PGA's "
			"full scale (+-%u mV): the current is beyond the range",
			dev->io.addr, (int)r->shunt_uv,
			40u * dev->setup.pga_div);
		return HIL_ERR_CONFIG;
	}
	return HIL_OK;
}

/* A register of a reading and its raw field. */
#define RAW(reg, field)                                                        \
	{                                                                      \
		INA2XX_REG_##reg, offsetof(struct ina219_reading, field)       \
	}

int ina219_read(struct ina219 *dev, struct ina219_reading *r)
{
	/* Power last: reading it clears CNVR, seen in the bus register first. */
	static const struct ina2xx_field f[4] = {
		RAW(BUS, raw_bus), RAW(SHUNT, raw_shunt),
		RAW(CURRENT, raw_current), RAW(POWER, raw_power)};
	int ret = ina2xx_read_fields(dev != NULL ? &dev->io : NULL, f, 4, r,
				     sizeof(*r));

	if (ret != HIL_OK) {
		return ret;
	}
	r->current_ua = llround((double)(int16_t)r->raw_current *
				dev->setup.eff_lsb_a * 1e6);
	r->power_uw =
		llround((double)r->raw_power * dev->setup.power_lsb_w * 1e6);
	decode(dev, r);
	return range_error(dev, r);
}

int ina219_sample(struct ina219 *dev, struct ina219_reading *r)
{
	static const struct ina2xx_field f[3] = {RAW(BUS, raw_bus),
						 RAW(SHUNT, raw_shunt),
						 RAW(POWER, raw_power)};
	int ret = ina2xx_read_fields(dev != NULL ? &dev->io : NULL, f, 3, r,
				     sizeof(*r));

	if (ret != HIL_OK) {
		return ret;
	}
	r->power_uw =
		llround((double)r->raw_power * dev->setup.power_lsb_w * 1e6);
	decode(dev, r);
	r->current_ua = llround((double)r->shunt_uv / dev->io.shunt_ohm);
	return HIL_OK;
}

int ina219_wait_ready(struct ina219 *dev, unsigned timeout_ms)
{
	return ina2xx_wait_flag(&dev->io, INA2XX_REG_BUS, BUS_CNVR, timeout_ms,
				dev->setup.cycle_us, dev->setup.config & 7u);
}

int ina219_trigger(struct ina219 *dev)
{
	return ina2xx_reg_write(&dev->io, INA2XX_REG_CONFIG, dev->setup.config);
}

int ina219_open(struct ina219 **out, struct hil_i2c_bus *bus,
		const struct ina219_config *cfg)
{
	/* Reset first: the chip may hold a previous run's settings. */
	static const uint8_t wregs[3] = {INA2XX_REG_CONFIG, INA2XX_REG_CONFIG,
					 INA2XX_REG_CAL};
	static const uint8_t rregs[2] = {INA2XX_REG_CONFIG, INA2XX_REG_CAL};
	struct ina219 *dev;
	uint16_t back[2]; /* config, cal */
	int ret;

	if (out == NULL || bus == NULL || cfg == NULL) {
		return HIL_ERR_ARG;
	}
	*out = NULL;
	dev = calloc(1, sizeof(*dev));
	if (dev == NULL) {
		return HIL_ERR_NOMEM;
	}
	ret = ina2xx_init(&dev->io, &chip, bus, cfg->addr, cfg->shunt_ohm);
	if (ret == HIL_OK) {
		ret = ina219_calc(cfg, &dev->setup);
	}
	if (ret == HIL_OK) {
		const uint16_t wvals[3] = {CONFIG_RST, dev->setup.config,
					   dev->setup.cal};

		ret = ina2xx_reg_writes(&dev->io, wregs, wvals, 3);
	}
	if (ret == HIL_OK) {
		ret = ina2xx_reg_reads(&dev->io, rregs, back, 2);
	}
	if (ret != HIL_OK) {
		goto err;
	}
	if (back[0] != dev->setup.config || back[1] != dev->setup.cal) {
		hil_err("INA219 at 0x%02x on %s: registers read back config "
			"0x%04x cal 0x%04x after writing 0x%04x 0x%04x: not an "
			"INA219, or a wiring fault",
			dev->io.addr, hil_i2c_spec(bus), back[0], back[1],
			dev->setup.config, dev->setup.cal);
		ret = HIL_ERR_IO;
		goto err;
	}
	hil_dbg("INA219 at 0x%02x: config 0x%04x cal %u, LSB %.4g A, shunt "
		"+-%g mV, cycle %u us",
		dev->io.addr, back[0], back[1], dev->setup.eff_lsb_a,
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

const struct ina2xx_setup *ina219_get_setup(const struct ina219 *dev)
{
	return &dev->setup;
}
