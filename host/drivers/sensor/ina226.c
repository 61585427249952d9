/* ina226: the INA226 driver: identification by ID registers, calibration per the datasheet (TI SBOS547 section 6.5.1), batched register reads, overflow and conversion-ready handling. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"ina226"

#include "ina226.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/err.h"
#include "drivers/i2c/i2c.h"
#include "util/log.h"

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
	struct hil_i2c_bus *bus; /* borrowed */
	uint8_t addr;
	double shunt_ohm;
	struct ina226_setup setup;
};

/* Tables of SBOS547 section 7.1.1: AVG (11:9), VBUSCT (8:6), VSHCT (5:3). */
static const unsigned avg_table[8] = {1, 4, 16, 64, 128, 256, 512, 1024};
static const unsigned ct_table[8] = {140,  204,	 332,  588,
				     1100, 2116, 4156, 8244};

static const char *reg_name(uint8_t reg)
{
	static const char *const names[] = {
		"configuration", "shunt voltage", "bus voltage", "power",
		"current",	 "calibration",	  "mask/enable", "alert limit"};

	if (reg < sizeof(names) / sizeof(names[0])) {
		return names[reg];
	}
	if (reg == INA226_REG_MFR_ID) {
		return "manufacturer ID";
	}
	if (reg == INA226_REG_DIE_ID) {
		return "die ID";
	}
	return "unknown";
}

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

/* Smallest 1, 2 or 5 x 10^n not below x. */
static double round_up_125(double x)
{
	static const double m[] = {1.0, 2.0, 5.0, 10.0};
	double d = pow(10.0, floor(log10(x)));
	size_t i;

	for (i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		if (m[i] * d >= x * (1.0 - 1e-12)) {
			return m[i] * d;
		}
	}
	return 10.0 * d;
}

int ina226_calc(const struct ina226_config *cfg, struct ina226_setup *out)
{
	unsigned avg, bct, sct, mode = (unsigned)cfg->mode;
	double vmax, floor_lsb, lsb;
	long long cal;

	memset(out, 0, sizeof(*out));
	if (!(cfg->shunt_ohm > 0.0) || !(cfg->max_current_a > 0.0)) {
		hil_err("shunt_ohm and max_current_a must be > 0 (got %g, %g)",
			cfg->shunt_ohm, cfg->max_current_a);
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
	if (mode > 7) {
		hil_err("mode %u: must be 0..7", mode);
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
		lsb = round_up_125(floor_lsb);
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
	uint8_t b[2];
	int ret;

	ret = hil_i2c_xfer(dev->bus, dev->addr, &reg, 1, b, 2);
	if (ret != HIL_OK) {
		hil_err("INA226 at 0x%02x on %s: reading register 0x%02x (%s) "
			"failed: %s",
			dev->addr, hil_i2c_spec(dev->bus), reg, reg_name(reg),
			hil_strerror(ret));
		return ret;
	}
	*val = (uint16_t)(b[0] << 8 | b[1]); /* big-endian on the bus */
	return HIL_OK;
}

/* A read whose failure is not worth a message (a guess in a message). */
static int reg_read_quiet(struct ina226 *dev, uint8_t reg, uint16_t *val)
{
	uint8_t b[2];
	int ret;

	ret = hil_i2c_xfer(dev->bus, dev->addr, &reg, 1, b, 2);
	if (ret == HIL_OK) {
		*val = (uint16_t)(b[0] << 8 | b[1]);
	}
	return ret;
}

static int reg_write(struct ina226 *dev, uint8_t reg, uint16_t val)
{
	uint8_t b[3] = {reg, (uint8_t)(val >> 8), (uint8_t)val};
	int ret;

	ret = hil_i2c_xfer(dev->bus, dev->addr, b, 3, NULL, 0);
	if (ret != HIL_OK) {
		hil_err("INA226 at 0x%02x on %s: writing 0x%04x to register "
			"0x%02x (%s) failed: %s",
			dev->addr, hil_i2c_spec(dev->bus), val, reg,
			reg_name(reg), hil_strerror(ret));
	}
	return ret;
}

#define BATCH_MAX 5

/* Read n registers in one batch: one round trip on batching backends. */
static int regs_read(struct ina226 *dev, const uint8_t *regs, uint16_t *vals,
		     size_t n)
{
	struct hil_i2c_msg m[BATCH_MAX];
	uint8_t b[BATCH_MAX][2];
	size_t i;
	int ret;

	if (n > BATCH_MAX) {
		return HIL_ERR_ARG;
	}
	memset(m, 0, sizeof(m));
	memset(b, 0, sizeof(b));
	for (i = 0; i < n; i++) {
		m[i].addr = dev->addr;
		m[i].w = &regs[i];
		m[i].wlen = 1;
		m[i].r = b[i];
		m[i].rlen = 2;
	}
	ret = hil_i2c_xfer_batch(dev->bus, m, n);
	if (ret != HIL_OK) {
		char names[192] = "";
		size_t len = 0;

		for (i = 0; i < n && len < sizeof(names); i++) {
			int k = snprintf(names + len, sizeof(names) - len,
					 "%s0x%02x (%s)", i > 0 ? ", " : "",
					 regs[i], reg_name(regs[i]));

			len += k > 0 ? (size_t)k : 0;
		}
		hil_err("INA226 at 0x%02x on %s: reading registers %s failed: "
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
			dev->addr, dev->setup.eff_lsb_a);
		return HIL_ERR_CONFIG;
	}
	if (r->out_of_range) {
		hil_err("INA226 at 0x%02x: shunt voltage %d nV at the full "
			"scale (+-81.92 mV): the current is beyond the range",
			dev->addr, (int)r->shunt_nv);
		return HIL_ERR_CONFIG;
	}
	return HIL_OK;
}

int ina226_read(struct ina226 *dev, struct ina226_reading *r)
{
	/* Mask/Enable first: its CVRF and OVF describe no older data than
	 * the registers read after it (a conversion may land in between). */
	static const uint8_t regs[5] = {INA226_REG_MASK, INA226_REG_BUS,
					INA226_REG_SHUNT, INA226_REG_CURRENT,
					INA226_REG_POWER};
	uint16_t v[5];
	int ret;

	if (dev == NULL || r == NULL) {
		return HIL_ERR_ARG;
	}
	memset(r, 0, sizeof(*r));
	ret = regs_read(dev, regs, v, 5);
	if (ret != HIL_OK) {
		return ret;
	}
	r->raw_mask = v[0];
	r->raw_bus = v[1];
	r->raw_shunt = v[2];
	r->raw_current = v[3];
	r->raw_power = v[4];
	decode(r);
	r->current_ua =
		llround((double)(int16_t)v[3] * dev->setup.eff_lsb_a * 1e6);
	r->power_uw = llround((double)v[4] * dev->setup.power_lsb_w * 1e6);
	return range_error(dev, r);
}

int ina226_sample(struct ina226 *dev, struct ina226_reading *r)
{
	static const uint8_t regs[3] = {INA226_REG_MASK, INA226_REG_BUS,
					INA226_REG_SHUNT};
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
	r->raw_mask = v[0];
	r->raw_bus = v[1];
	r->raw_shunt = v[2];
	decode(r);
	r->current_ua = llround((double)r->shunt_nv / 1000.0 / dev->shunt_ohm);
	return HIL_OK;
}

static uint64_t mono_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

int ina226_wait_ready(struct ina226 *dev, unsigned timeout_ms)
{
	uint64_t deadline = mono_us() + (uint64_t)timeout_ms * 1000u;
	/* Poll four times per conversion, at most every 1 ms. */
	unsigned step_us = dev->setup.cycle_us / 4;
	uint16_t v;
	int ret;

	if (step_us == 0 || step_us > 1000) {
		step_us = 1000;
	}
	for (;;) {
		struct timespec ts = {0, (long)step_us * 1000};

		ret = ina226_reg_read(dev, INA226_REG_MASK, &v);
		if (ret != HIL_OK) {
			return ret;
		}
		if (v & INA226_ME_CVRF) {
			return HIL_OK;
		}
		if (mono_us() >= deadline) {
			break;
		}
		nanosleep(&ts, NULL);
	}
	hil_err("INA226 at 0x%02x: no conversion completed in %u ms (one "
		"takes %u us in mode %u)",
		dev->addr, timeout_ms, dev->setup.cycle_us,
		dev->setup.config & 7u);
	return HIL_ERR_TIMEOUT;
}

int ina226_trigger(struct ina226 *dev)
{
	return reg_write(dev, INA226_REG_CONFIG, dev->setup.config);
}

/*
 * Manufacturer ID FEh = 5449h ("TI") and die ID FFh = 2260h (Table 7-1).
 * Anything else is refused by what it reads, with a guess at what it is:
 * an INA219 has no ID registers but answers 399Fh at 00h after power-on.
 */
static int identify(struct ina226 *dev)
{
	uint16_t mfr, die, config;
	char guess[96] = "";
	int ret;

	ret = ina226_reg_read(dev, INA226_REG_MFR_ID, &mfr);
	if (ret == HIL_OK) {
		ret = ina226_reg_read(dev, INA226_REG_DIE_ID, &die);
	}
	if (ret != HIL_OK) {
		return ret;
	}
	if (mfr == INA226_MFR_ID_TI && die == INA226_DIE_ID) {
		return HIL_OK;
	}
	if (mfr == INA226_MFR_ID_TI) {
		snprintf(guess, sizeof(guess), ": another TI part");
	} else if (reg_read_quiet(dev, INA226_REG_CONFIG, &config) == HIL_OK &&
		   config == INA219_CONFIG_POR) {
		snprintf(guess, sizeof(guess),
			 ": its configuration reads 0x%04x, an INA219's "
			 "power-on value: an INA219?",
			 config);
	}
	hil_err("INA226 at 0x%02x on %s: manufacturer ID 0x%04x, die ID 0x%04x "
		"where an INA226 reads 0x%04x (TI), 0x%04x: not an INA226%s",
		dev->addr, hil_i2c_spec(dev->bus), mfr, die, INA226_MFR_ID_TI,
		INA226_DIE_ID, guess);
	return HIL_ERR_NA;
}

int ina226_open(struct ina226 **out, struct hil_i2c_bus *bus,
		const struct ina226_config *cfg)
{
	struct ina226 *dev;
	uint16_t config, cal, mask;
	int ret;

	if (out == NULL || bus == NULL || cfg == NULL) {
		return HIL_ERR_ARG;
	}
	*out = NULL;
	if (cfg->addr < 0x40 || cfg->addr > 0x4F) {
		hil_err("INA226 address 0x%02x: must be 0x40..0x4F", cfg->addr);
		return HIL_ERR_CONFIG;
	}
	dev = calloc(1, sizeof(*dev));
	if (dev == NULL) {
		return HIL_ERR_NOMEM;
	}
	dev->bus = bus;
	dev->addr = cfg->addr;
	dev->shunt_ohm = cfg->shunt_ohm;
	ret = ina226_calc(cfg, &dev->setup);
	if (ret == HIL_OK) {
		ret = identify(dev);
	}
	if (ret != HIL_OK) {
		goto err;
	}
	/*
	 * Reset first: the chip may hold a previous run's settings. The
	 * configuration goes last: writing it starts a fresh conversion, which
	 * then already has the calibration and the alert settings.
	 */
	ret = reg_write(dev, INA226_REG_CONFIG, CONFIG_RST);
	if (ret == HIL_OK) {
		ret = reg_write(dev, INA226_REG_CAL, dev->setup.cal);
	}
	if (ret == HIL_OK) {
		ret = reg_write(dev, INA226_REG_MASK, dev->setup.mask);
	}
	if (ret == HIL_OK) {
		ret = reg_write(dev, INA226_REG_CONFIG, dev->setup.config);
	}
	if (ret == HIL_OK) {
		ret = ina226_reg_read(dev, INA226_REG_CONFIG, &config);
	}
	if (ret == HIL_OK) {
		ret = ina226_reg_read(dev, INA226_REG_CAL, &cal);
	}
	if (ret == HIL_OK) {
		ret = ina226_reg_read(dev, INA226_REG_MASK, &mask);
	}
	if (ret != HIL_OK) {
		goto err;
	}
	if ((config & CONFIG_FIELDS) != (dev->setup.config & CONFIG_FIELDS) ||
	    (cal & CAL_BITS) != dev->setup.cal ||
	    (mask & MASK_WBITS) != dev->setup.mask) {
		hil_err("INA226 at 0x%02x on %s: registers read back config "
			"0x%04x cal 0x%04x mask/enable 0x%04x after writing "
			"0x%04x 0x%04x 0x%04x: a wiring or bus fault",
			dev->addr, hil_i2c_spec(bus), config, cal, mask,
			dev->setup.config, dev->setup.cal, dev->setup.mask);
		ret = HIL_ERR_IO;
		goto err;
	}
	hil_dbg("INA226 at 0x%02x: config 0x%04x cal %u mask 0x%04x, LSB %.4g "
		"A, conversion %u us",
		dev->addr, config, cal, mask, dev->setup.eff_lsb_a,
		dev->setup.cycle_us);
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

const struct ina226_setup *ina226_get_setup(const struct ina226 *dev)
{
	return &dev->setup;
}

double ina226_shunt_ohm(const struct ina226 *dev)
{
	return dev->shunt_ohm;
}

uint8_t ina226_addr(const struct ina226 *dev)
{
	return dev->addr;
}
