/* ina226: the INA226 driver: identification by ID registers, calibration per the datasheet (TI SBOS547 section 6.5.1), batched register reads, overflow and conversion-ready handling. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"ina226"

#include "ina226.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/err.h"
#include "util/log.h"
#include "util/util.h"
#include "drivers/i2c/i2c.h"
#include "ina2xx.h"

#define CONFIG_RST    0x8000u
/*
 * Bits 14:12 are "-" in the datasheet, 100b at power-on (4127h); what a
 * write does to them is not said. We write them as at power-on and compare
 * only the fields (11:0) when reading back.
 */
#define CONFIG_RSVD   0x4000u
#define CONFIG_FIELDS 0x0FFFu
#define CAL_BITS      0x7FFFu /* FS14..FS0 */
#define MASK_WBITS    0xFC03u /* AFF, CVRF, OVF are read-only flags */

#define SHUNT_FS_V   0.08192 /* 7FFFh x 2.5 uV */
#define CAL_CONSTANT 0.00512 /* equation 1 */

/* The INA219's configuration at power-on: what it answers at 00h. */
#define INA219_CONFIG_POR 0x399Fu

struct ina226 {
	struct ina2xx io; /* bus, address, shunt */
	struct ina2xx_setup setup;
};

/* Tables of SBOS547 section 7.1.1: AVG (11:9), VBUSCT (8:6), VSHCT (5:3). */
static const unsigned avg_table[8] = {1, 4, 16, 64, 128, 256, 512, 1024};
static const unsigned ct_table[8] = {140,  204,	 332,  588,
				     1100, 2116, 4156, 8244};

/* Its registers beyond the INA219's 00h..05h (Table 7-1). */
static const char *reg_name(uint8_t reg)
{
	switch (reg) {
	case INA226_REG_MASK:
		return "mask/enable";
	case INA226_REG_LIMIT:
		return "alert limit";
	case INA226_REG_MFR_ID:
		return "manufacturer ID";
	case INA226_REG_DIE_ID:
		return "die ID";
	default:
		return NULL;
	}
}

static const struct ina2xx_chip chip = {
	.name = "INA226",
	.log = HIL_LOG_PREFIX,
	.reg_name = reg_name,
};

static int code_of(const unsigned *table, unsigned v, unsigned *code)
{
	unsigned i;

	for (i = 0; i < 8; i++) {
		if (table[i] == v) {
			*code = i;
			return 0;
		}
	}
	return -1;
}

void ina226_config_default(struct ina226_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->addr = 0x40;
	cfg->shunt_ohm = 0.1;
	cfg->max_current_a = 0.8;
	cfg->averages = 1;
	cfg->bus_ct_us = 1100;
	cfg->shunt_ct_us = 1100;
	cfg->mode = INA226_MODE_BOTH_CONTINUOUS;
}

unsigned ina226_conversion_us(unsigned averages, unsigned bus_ct_us,
			      unsigned shunt_ct_us, enum ina226_mode mode)
{
	unsigned m = (unsigned)mode, code, t = 0;

	if (code_of(avg_table, averages, &code) != 0 ||
	    code_of(ct_table, bus_ct_us, &code) != 0 ||
	    code_of(ct_table, shunt_ct_us, &code) != 0 || m > 7) {
		return 0;
	}
	/* MODE bit 0 converts the shunt, bit 1 the bus; 000, 100 power down. */
	if (m & 1u) {
		t += shunt_ct_us;
	}
	if (m & 2u) {
		t += bus_ct_us;
	}
	return averages * t;
}

int ina226_calc(const struct ina226_config *cfg, struct ina2xx_setup *out)
{
	unsigned avg, bct, sct, mode = (unsigned)cfg->mode;
	double vmax, floor_lsb, lsb;
	long long cal;

	memset(out, 0, sizeof(*out));
	if (ina2xx_check_scale(&chip, cfg->shunt_ohm, cfg->max_current_a) !=
	    HIL_OK) {
		return HIL_ERR_CONFIG;
	}
	if (code_of(avg_table, cfg->averages, &avg) != 0) {
		hil_err("averages %u: must be 1, 4, 16, 64, 128, 256, 512 or "
			"1024",
			cfg->averages);
		return HIL_ERR_CONFIG;
	}
	if (code_of(ct_table, cfg->bus_ct_us, &bct) != 0 ||
	    code_of(ct_table, cfg->shunt_ct_us, &sct) != 0) {
		hil_err("conversion times %u us (bus), %u us (shunt): each must "
			"be 140, 204, 332, 588, 1100, 2116, 4156 or 8244 us",
			cfg->bus_ct_us, cfg->shunt_ct_us);
		return HIL_ERR_CONFIG;
	}
	if (ina2xx_check_mode(&chip, mode) != HIL_OK) {
		return HIL_ERR_CONFIG;
	}
	vmax = cfg->max_current_a * cfg->shunt_ohm;
	if (vmax > SHUNT_FS_V * (1.0 + 1e-9)) {
		hil_err("max_current_a %g A x shunt %g ohm = %.3f mV exceeds "
			"the shunt input's full scale +-81.92 mV",
			cfg->max_current_a, cfg->shunt_ohm, vmax * 1e3);
		return HIL_ERR_CONFIG;
	}

	/* Equation 2: the smallest LSB that holds max_current in 2^15. */
	floor_lsb = cfg->max_current_a / 32768.0;
	if (cfg->current_lsb_a > 0.0) {
		lsb = cfg->current_lsb_a;
		if (lsb < floor_lsb * (1.0 - 1e-9)) {
			hil_err("current LSB %g A is below max_current_a / 2^15 "
				"= %g A: the current register would overflow",
				lsb, floor_lsb);
			return HIL_ERR_CONFIG;
		}
	} else {
		lsb = hil_round_125(floor_lsb);
	}
	/*
	 * Equation 1, rounded to the nearest integer: the chip then applies
	 * 0.00512 / (CAL x R), recomputed below, which rounding keeps within
	 * half a count of the LSB asked for.
	 */
	cal = llround(CAL_CONSTANT / (lsb * cfg->shunt_ohm));
	if (cal < 1 || cal > (long long)CAL_BITS) {
		hil_err("calibration 0.00512 / (%g A x %g ohm) = %lld does not "
			"fit the register (1..32767, 15 bits): choose another "
			"max_current_a or current LSB",
			lsb, cfg->shunt_ohm, cal);
		return HIL_ERR_CONFIG;
	}
	out->cal = (uint16_t)cal;
	out->shunt_ohm = cfg->shunt_ohm;
	out->shunt_range_v = SHUNT_FS_V; /* one range, no PGA */
	out->current_lsb_a = lsb;
	out->eff_lsb_a = CAL_CONSTANT / ((double)cal * cfg->shunt_ohm);
	out->power_lsb_w = 25.0 * out->eff_lsb_a;
	out->config =
		(uint16_t)(CONFIG_RSVD | avg << 9 | bct << 6 | sct << 3 | mode);
	out->mask = (uint16_t)((cfg->alert_cnvr ? INA226_ME_CNVR : 0u) |
			       (cfg->alert_high ? INA226_ME_APOL : 0u) |
			       (cfg->alert_latch ? INA226_ME_LEN : 0u));
	out->cycle_us = ina226_conversion_us(cfg->averages, cfg->bus_ct_us,
					     cfg->shunt_ct_us, cfg->mode);
	return HIL_OK;
}

int ina226_reg_read(struct ina226 *dev, uint8_t reg, uint16_t *val)
{
	return ina2xx_reg_read(&dev->io, reg, val);
}

/* Mask/Enable, bus and shunt fields and the range flag of both readings. */
static void decode(struct ina226_reading *r)
{
	int16_t sh = (int16_t)r->raw_shunt;

	r->shunt_nv = (int32_t)sh * 2500;
	r->bus_uv = (int32_t)(r->raw_bus & 0x7FFFu) * 1250; /* D15 is 0 */
	r->cnvr = (r->raw_mask & INA226_ME_CVRF) != 0;
	r->ovf = (r->raw_mask & INA226_ME_OVF) != 0;
	r->out_of_range = r->ovf || sh == INT16_MAX || sh == INT16_MIN;
}

/* ina226_read's errors: the range problems of a decoded reading, named. */
static int range_error(struct ina226 *dev, const struct ina226_reading *r)
{
	if (r->ovf) {
		hil_err("INA226 at 0x%02x: math overflow (OVF): current or "
			"power did not fit its register; raise the current LSB "
			"(now %g A)",
			dev->io.addr, dev->setup.eff_lsb_a);
		return HIL_ERR_CONFIG;
	}
	if (r->out_of_range) {
		hil_err("INA226 at 0x%02x: shunt voltage %d nV at the full "
			"scale (+-81.92 mV): the current is beyond the range",
			dev->io.addr, (int)r->shunt_nv);
		return HIL_ERR_CONFIG;
	}
	return HIL_OK;
}

/* A register of a reading and its raw field. */
#define RAW(reg, field)                                                        \
	{                                                                      \
		reg, offsetof(struct ina226_reading, field)                    \
	}

int ina226_read(struct ina226 *dev, struct ina226_reading *r)
{
	/* Mask/Enable first: its CVRF and OVF describe no older data than
	 * the registers read after it (a conversion may land in between). */
	static const struct ina2xx_field f[5] = {
		RAW(INA226_REG_MASK, raw_mask), RAW(INA2XX_REG_BUS, raw_bus),
		RAW(INA2XX_REG_SHUNT, raw_shunt),
		RAW(INA2XX_REG_CURRENT, raw_current),
		RAW(INA2XX_REG_POWER, raw_power)};
	int ret = ina2xx_read_fields(dev != NULL ? &dev->io : NULL, f, 5, r,
				     sizeof(*r));

	if (ret != HIL_OK) {
		return ret;
	}
	decode(r);
	r->current_ua = llround((double)(int16_t)r->raw_current *
				dev->setup.eff_lsb_a * 1e6);
	r->power_uw =
		llround((double)r->raw_power * dev->setup.power_lsb_w * 1e6);
	return range_error(dev, r);
}

int ina226_sample(struct ina226 *dev, struct ina226_reading *r)
{
	static const struct ina2xx_field f[3] = {
		RAW(INA226_REG_MASK, raw_mask), RAW(INA2XX_REG_BUS, raw_bus),
		RAW(INA2XX_REG_SHUNT, raw_shunt)};
	int ret = ina2xx_read_fields(dev != NULL ? &dev->io : NULL, f, 3, r,
				     sizeof(*r));

	if (ret != HIL_OK) {
		return ret;
	}
	decode(r);
	r->current_ua =
		llround((double)r->shunt_nv / 1000.0 / dev->io.shunt_ohm);
	return HIL_OK;
}

int ina226_wait_ready(struct ina226 *dev, unsigned timeout_ms)
{
	return ina2xx_wait_flag(&dev->io, INA226_REG_MASK, INA226_ME_CVRF,
				timeout_ms, dev->setup.cycle_us,
				dev->setup.config & 7u);
}

int ina226_trigger(struct ina226 *dev)
{
	return ina2xx_reg_write(&dev->io, INA2XX_REG_CONFIG, dev->setup.config);
}

/*
 * Manufacturer ID FEh = 5449h ("TI") and die ID FFh = 2260h (Table 7-1).
 * Anything else is refused by what it reads, with a guess at what it is:
 * an INA219 has no ID registers but answers 399Fh at 00h after power-on.
 */
static int identify(struct ina226 *dev)
{
	static const uint8_t ids[2] = {INA226_REG_MFR_ID, INA226_REG_DIE_ID};
	uint16_t id[2], config; /* manufacturer, die */
	char guess[96] = "";
	int ret;

	ret = ina2xx_reg_reads(&dev->io, ids, id, 2);
	if (ret != HIL_OK) {
		return ret;
	}
	if (id[0] == INA226_MFR_ID_TI && id[1] == INA226_DIE_ID) {
		return HIL_OK;
	}
	if (id[0] == INA226_MFR_ID_TI) {
		snprintf(guess, sizeof(guess), ": another TI part");
	} else if (ina2xx_reg_read_quiet(&dev->io, INA2XX_REG_CONFIG,
					 &config) == HIL_OK &&
		   config == INA219_CONFIG_POR) {
		snprintf(guess, sizeof(guess),
			 ": its configuration reads 0x%04x, an INA219's "
			 "power-on value: an INA219?",
			 config);
	}
	hil_err("INA226 at 0x%02x on %s: manufacturer ID 0x%04x, die ID 0x%04x "
		"where an INA226 reads 0x%04x (TI), 0x%04x: not an INA226%s",
		dev->io.addr, hil_i2c_spec(dev->io.bus), id[0], id[1],
		INA226_MFR_ID_TI, INA226_DIE_ID, guess);
	return HIL_ERR_NA;
}

int ina226_open(struct ina226 **out, struct hil_i2c_bus *bus,
		const struct ina226_config *cfg)
{
	/*
	 * Reset first: the chip may hold a previous run's settings. The
	 * configuration goes last: writing it starts a fresh conversion, which
	 * then already has the calibration and the alert settings.
	 */
	static const uint8_t wregs[4] = {INA2XX_REG_CONFIG, INA2XX_REG_CAL,
					 INA226_REG_MASK, INA2XX_REG_CONFIG};
	static const uint8_t rregs[3] = {INA2XX_REG_CONFIG, INA2XX_REG_CAL,
					 INA226_REG_MASK};
	const struct ina2xx_setup *su;
	struct ina226 *dev;
	uint16_t back[3]; /* config, cal, mask */
	int ret;

	if (out == NULL || bus == NULL || cfg == NULL) {
		return HIL_ERR_ARG;
	}
	*out = NULL;
	dev = calloc(1, sizeof(*dev));
	if (dev == NULL) {
		return HIL_ERR_NOMEM;
	}
	su = &dev->setup;
	ret = ina2xx_init(&dev->io, &chip, bus, cfg->addr, cfg->shunt_ohm);
	if (ret == HIL_OK) {
		ret = ina226_calc(cfg, &dev->setup);
	}
	if (ret == HIL_OK) {
		ret = identify(dev);
	}
	if (ret == HIL_OK) {
		const uint16_t wvals[4] = {CONFIG_RST, su->cal, su->mask,
					   su->config};

		ret = ina2xx_reg_writes(&dev->io, wregs, wvals, 4);
	}
	if (ret == HIL_OK) {
		ret = ina2xx_reg_reads(&dev->io, rregs, back, 3);
	}
	if (ret != HIL_OK) {
		goto err;
	}
	if ((back[0] & CONFIG_FIELDS) != (su->config & CONFIG_FIELDS) ||
	    (back[1] & CAL_BITS) != su->cal ||
	    (back[2] & MASK_WBITS) != su->mask) {
		hil_err("INA226 at 0x%02x on %s: registers read back config "
			"0x%04x cal 0x%04x mask/enable 0x%04x after writing "
			"0x%04x 0x%04x 0x%04x: a wiring or bus fault",
			dev->io.addr, hil_i2c_spec(bus), back[0], back[1],
			back[2], su->config, su->cal, su->mask);
		ret = HIL_ERR_IO;
		goto err;
	}
	hil_dbg("INA226 at 0x%02x: config 0x%04x cal %u mask 0x%04x, LSB %.4g "
		"A, conversion %u us",
		dev->io.addr, back[0], back[1], back[2], su->eff_lsb_a,
		su->cycle_us);
	*out = dev;
	return HIL_OK;
err:
	free(dev);
	return ret;
}

void ina226_close(struct ina226 *dev)
{
	free(dev);
}

const struct ina2xx_setup *ina226_get_setup(const struct ina226 *dev)
{
	return &dev->setup;
}
