/* ina2xx: the register access the INA219 and INA226 drivers share, each message logged once under the chip driver's own prefix and naming chip, address, bus and register. */
#define _POSIX_C_SOURCE 200809L

#include "ina2xx.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "drivers/i2c/i2c.h"
#include "util/err.h"
#include "util/log.h"

/* Logged as the chip's driver: "hilrun: ina219: error: ...". */
#define chip_err(chip, ...) hil_log(HIL_LOG_ERR, (chip)->log, __VA_ARGS__)

int ina2xx_init(struct ina2xx *d, const struct ina2xx_chip *chip,
		struct hil_i2c_bus *bus, uint8_t addr, double shunt_ohm)
{
	memset(d, 0, sizeof(*d));
	if (addr < 0x40 || addr > 0x4F) {
		chip_err(chip, "%s address 0x%02x: must be 0x40..0x4F",
			 chip->name, addr);
		return HIL_ERR_CONFIG;
	}
	d->chip = chip;
	d->bus = bus;
	d->addr = addr;
	d->shunt_ohm = shunt_ohm;
	return HIL_OK;
}

const char *ina2xx_reg_name(const struct ina2xx_chip *chip, uint8_t reg)
{
	static const char *const names[] = {"configuration", "shunt voltage",
					    "bus voltage",   "power",
					    "current",	     "calibration"};
	const char *name = NULL;

	if (reg < sizeof(names) / sizeof(names[0])) {
		return names[reg];
	}
	if (chip->reg_name != NULL) {
		name = chip->reg_name(reg);
	}
	return name != NULL ? name : "unknown";
}

int ina2xx_reg_read_quiet(const struct ina2xx *d, uint8_t reg, uint16_t *val)
{
	uint8_t b[2];
	int ret;

	ret = hil_i2c_xfer(d->bus, d->addr, &reg, 1, b, 2);
	if (ret == HIL_OK) {
		*val = (uint16_t)(b[0] << 8 | b[1]); /* big-endian on the bus */
	}
	return ret;
}

int ina2xx_reg_read(const struct ina2xx *d, uint8_t reg, uint16_t *val)
{
	int ret = ina2xx_reg_read_quiet(d, reg, val);

	if (ret != HIL_OK) {
		chip_err(d->chip,
			 "%s at 0x%02x on %s: reading register 0x%02x (%s) "
			 "failed: %s",
			 d->chip->name, d->addr, hil_i2c_spec(d->bus), reg,
			 ina2xx_reg_name(d->chip, reg), hil_strerror(ret));
	}
	return ret;
}

int ina2xx_reg_write(const struct ina2xx *d, uint8_t reg, uint16_t val)
{
	uint8_t b[3] = {reg, (uint8_t)(val >> 8), (uint8_t)val};
	int ret;

	ret = hil_i2c_xfer(d->bus, d->addr, b, 3, NULL, 0);
	if (ret != HIL_OK) {
		chip_err(d->chip,
			 "%s at 0x%02x on %s: writing 0x%04x to register "
			 "0x%02x (%s) failed: %s",
			 d->chip->name, d->addr, hil_i2c_spec(d->bus), val, reg,
			 ina2xx_reg_name(d->chip, reg), hil_strerror(ret));
	}
	return ret;
}

int ina2xx_reg_writes(const struct ina2xx *d, const uint8_t *regs,
		      const uint16_t *vals, size_t n)
{
	int ret = HIL_OK;
	size_t i;

	for (i = 0; i < n && ret == HIL_OK; i++) {
		ret = ina2xx_reg_write(d, regs[i], vals[i]);
	}
	return ret;
}

int ina2xx_reg_reads(const struct ina2xx *d, const uint8_t *regs,
		     uint16_t *vals, size_t n)
{
	int ret = HIL_OK;
	size_t i;

	for (i = 0; i < n && ret == HIL_OK; i++) {
		ret = ina2xx_reg_read(d, regs[i], &vals[i]);
	}
	return ret;
}

int ina2xx_read_fields(const struct ina2xx *d, const struct ina2xx_field *f,
		       size_t n, void *out, size_t size)
{
	struct hil_i2c_msg m[INA2XX_BATCH_MAX];
	uint8_t b[INA2XX_BATCH_MAX][2];
	size_t i;
	int ret;

	if (d == NULL || out == NULL || n > INA2XX_BATCH_MAX) {
		return HIL_ERR_ARG;
	}
	memset(out, 0, size);
	memset(m, 0, sizeof(m));
	memset(b, 0, sizeof(b));
	for (i = 0; i < n; i++) {
		m[i].addr = d->addr;
		m[i].w = &f[i].reg;
		m[i].wlen = 1;
		m[i].r = b[i];
		m[i].rlen = 2;
	}
	ret = hil_i2c_xfer_batch(d->bus, m, n);
	if (ret != HIL_OK) {
		char names[192] = "";
		size_t len = 0;

		for (i = 0; i < n && len < sizeof(names); i++) {
			int k = snprintf(names + len, sizeof(names) - len,
					 "%s0x%02x (%s)", i > 0 ? ", " : "",
					 f[i].reg,
					 ina2xx_reg_name(d->chip, f[i].reg));

			len += k > 0 ? (size_t)k : 0;
		}
		chip_err(d->chip,
			 "%s at 0x%02x on %s: reading registers %s failed: %s",
			 d->chip->name, d->addr, hil_i2c_spec(d->bus), names,
			 hil_strerror(ret));
		return ret;
	}
	for (i = 0; i < n; i++) {
		uint16_t v = (uint16_t)(b[i][0] << 8 | b[i][1]);

		memcpy((char *)out + f[i].off, &v, sizeof(v));
	}
	return HIL_OK;
}

static uint64_t mono_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

int ina2xx_wait_flag(const struct ina2xx *d, uint8_t reg, uint16_t flag,
		     unsigned timeout_ms, unsigned cycle_us, unsigned mode)
{
	uint64_t deadline = mono_us() + (uint64_t)timeout_ms * 1000u;
	/* Poll four times per conversion cycle, at most every 1 ms. */
	unsigned step_us = cycle_us / 4;
	uint16_t v;
	int ret;

	if (step_us == 0 || step_us > 1000) {
		step_us = 1000;
	}
	for (;;) {
		struct timespec ts = {0, (long)step_us * 1000};

		ret = ina2xx_reg_read(d, reg, &v);
		if (ret != HIL_OK) {
			return ret;
		}
		if (v & flag) {
			return HIL_OK;
		}
		if (mono_us() >= deadline) {
			break;
		}
		nanosleep(&ts, NULL);
	}
	chip_err(d->chip,
		 "%s at 0x%02x: no conversion completed in %u ms (one takes "
		 "%u us in mode %u)",
		 d->chip->name, d->addr, timeout_ms, cycle_us, mode);
	return HIL_ERR_TIMEOUT;
}

int ina2xx_check_scale(const struct ina2xx_chip *chip, double shunt_ohm,
		       double max_current_a)
{
	if (!(shunt_ohm > 0.0) || !(max_current_a > 0.0)) {
		chip_err(chip,
			 "shunt_ohm and max_current_a must be > 0 (got %g, %g)",
			 shunt_ohm, max_current_a);
		return HIL_ERR_CONFIG;
	}
	return HIL_OK;
}

int ina2xx_check_mode(const struct ina2xx_chip *chip, unsigned mode)
{
	if (mode > 7) {
		chip_err(chip, "mode %u: must be 0..7", mode);
		return HIL_ERR_CONFIG;
	}
	return HIL_OK;
}
