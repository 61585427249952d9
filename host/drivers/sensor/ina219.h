/* ina219: driver for the TI INA219 current/power monitor on the I2C bus interface (configuration, calibration, readings in integer micro-units). */
#ifndef HIL_INA219_H
#define HIL_INA219_H

#include <stddef.h>
#include <stdint.h>

#include "ina2xx.h" /* its registers, INA2XX_REG_CONFIG .. _CAL (Table 2) */

struct hil_i2c_bus;
struct ina219;

/* Operating modes (MODE3..1, Table 7). */
enum ina219_mode {
	INA219_MODE_POWER_DOWN = 0,
	INA219_MODE_SHUNT_TRIGGERED = 1,
	INA219_MODE_BUS_TRIGGERED = 2,
	INA219_MODE_BOTH_TRIGGERED = 3,
	INA219_MODE_ADC_OFF = 4,
	INA219_MODE_SHUNT_CONTINUOUS = 5,
	INA219_MODE_BUS_CONTINUOUS = 6,
	INA219_MODE_BOTH_CONTINUOUS = 7,
};

struct ina219_config {
	uint8_t addr;	      /* 7-bit, 0x40..0x4F (A1/A0 straps) */
	double shunt_ohm;     /* > 0 */
	double max_current_a; /* largest current expected, > 0 */
	/*
	 * Current_LSB in A. 0: derived from max_current_a / 2^15, rounded up
	 * to 1, 2 or 5 x 10^n A (the datasheet's "round number"), or used
	 * exactly if lsb_exact is set.
	 */
	double current_lsb_a;
	int lsb_exact;
	unsigned bus_range_v; /* 16 or 32 */
	unsigned pga_div;     /* 1, 2, 4, 8 (+-40..320 mV); 0: the smallest
				   range that holds max_current_a x shunt_ohm */
	unsigned bus_bits;    /* ADC resolution 9..12 */
	unsigned bus_samples; /* averaging 1, 2, 4 .. 128 (> 1: 12 bit) */
	unsigned shunt_bits;
	unsigned shunt_samples;
	enum ina219_mode mode;
};

/* One reading in integer micro-units. */
struct ina219_reading {
	int32_t shunt_uv;   /* shunt voltage, 10 uV LSB */
	int32_t bus_mv;	    /* bus voltage at IN-, 4 mV LSB */
	int64_t current_ua; /* ina219_read: current register x eff_lsb_a;
			       ina219_sample: shunt_uv / shunt_ohm */
	int64_t power_uw;   /* power register x power_lsb_w */
	int cnvr;	    /* a conversion completed since the last
			       power-register read */
	int out_of_range;   /* OVF set, or the shunt at the PGA's full
			       scale: the current is beyond the range */
	uint16_t raw_shunt, raw_bus, raw_current, raw_power;
};

/** Defaults: 0x40, 0.1 ohm, 3.2 A, 32 V, PGA auto, 12 bit, continuous. */
void ina219_config_default(struct ina219_config *cfg);

/**
 * Compute the register values for cfg without touching a chip, following
 * the datasheet's calibration procedure (section 8.5.1):
 *   Current_LSB = max_current / 2^15 (rounded up to a round value, or not),
 *   Cal = trunc(0.04096 / (Current_LSB x R_shunt)), Power_LSB = 20 x LSB.
 * @return HIL_OK or HIL_ERR_CONFIG (the log names the offending field).
 */
int ina219_calc(const struct ina219_config *cfg, struct ina2xx_setup *out);

/**
 * Reset the chip, write configuration and calibration, and read both back.
 * @param out receives the device; free it with ina219_close().
 * @param bus borrowed: must outlive the device.
 * @return HIL_OK; HIL_ERR_CONFIG; HIL_ERR_IO (no answer at the address, or
 *         registers read back wrong); HIL_ERR_NOMEM.
 */
int ina219_open(struct ina219 **out, struct hil_i2c_bus *bus,
		const struct ina219_config *cfg);

/** Free the device (the chip keeps converting). NULL is allowed. */
void ina219_close(struct ina219 *dev);

/**
 * Read bus voltage (with CNVR and OVF), shunt voltage, current and power in
 * one batch (ftdi: one USB write and one read). Reading power clears CNVR.
 * @return HIL_OK; HIL_ERR_CONFIG if the chip flags a math overflow (OVF) or
 *         the shunt voltage sits at the PGA's full scale (current beyond
 *         the configured range; r is still filled); a bus error (the log
 *         names the address and the registers).
 */
int ina219_read(struct ina219 *dev, struct ina219_reading *r);

/**
 * The sampler's reading: bus voltage, shunt voltage and power (to clear
 * CNVR) in one batch; current_ua is computed from the shunt voltage.
 * Unlike ina219_read(), a current beyond the range is r->out_of_range, not
 * an error, and nothing is logged for it (a live display shows it at
 * every conversion; the sampler names it once).
 * @return HIL_OK, HIL_ERR_ARG, or a bus error (the log names the address
 *         and the registers).
 */
int ina219_sample(struct ina219 *dev, struct ina219_reading *r);

/**
 * Poll the conversion-ready flag until it is set or timeout_ms passes; does
 * not clear it.
 * @return HIL_OK, HIL_ERR_TIMEOUT, or a bus error.
 */
int ina219_wait_ready(struct ina219 *dev, unsigned timeout_ms);

/** Start one conversion in a triggered mode (rewrites the configuration). */
int ina219_trigger(struct ina219 *dev);

/** Read one register. @return HIL_OK or a bus error (logged, named). */
int ina219_reg_read(struct ina219 *dev, uint8_t reg, uint16_t *val);

/** The computed setup (borrowed, valid until close). */
const struct ina2xx_setup *ina219_get_setup(const struct ina219 *dev);

/** Nominal conversion time in us for bits 9..12 and samples 1..128. */
unsigned ina219_adc_us(unsigned bits, unsigned samples);

#endif /* HIL_INA219_H */
