/* ina226: driver for the TI INA226 current/power monitor on the I2C bus interface (identification, configuration, calibration, readings in integer units). */
#ifndef HIL_INA226_H
#define HIL_INA226_H

#include <stddef.h>
#include <stdint.h>

#include "ina2xx.h" /* 00h..05h, as the INA219's: INA2XX_REG_CONFIG .. _CAL */

struct hil_i2c_bus;
struct ina226;

/* Its other register pointers (SBOS547 Table 7-1). */
#define INA226_REG_MASK	  0x06
#define INA226_REG_LIMIT  0x07
#define INA226_REG_MFR_ID 0xFE
#define INA226_REG_DIE_ID 0xFF

/* Mask/Enable register bits (section 7.1.7). */
#define INA226_ME_SOL  0x8000u /* alert: shunt over limit */
#define INA226_ME_SUL  0x4000u /* alert: shunt under limit */
#define INA226_ME_BOL  0x2000u /* alert: bus over limit */
#define INA226_ME_BUL  0x1000u /* alert: bus under limit */
#define INA226_ME_POL  0x0800u /* alert: power over limit */
#define INA226_ME_CNVR 0x0400u /* ALERT pin on conversion ready */
#define INA226_ME_AFF  0x0010u /* alert function flag */
#define INA226_ME_CVRF 0x0008u /* conversion ready flag */
#define INA226_ME_OVF  0x0004u /* math overflow flag */
#define INA226_ME_APOL 0x0002u /* ALERT active high */
#define INA226_ME_LEN  0x0001u /* alert latch enable */

#define INA226_MFR_ID_TI 0x5449u /* "TI" */
#define INA226_DIE_ID	 0x2260u

/* Operating modes (MODE3..1, section 7.1.1); 000 and 100 both power down. */
enum ina226_mode {
	INA226_MODE_POWER_DOWN = 0,
	INA226_MODE_SHUNT_TRIGGERED = 1,
	INA226_MODE_BUS_TRIGGERED = 2,
	INA226_MODE_BOTH_TRIGGERED = 3,
	INA226_MODE_SHUNT_CONTINUOUS = 5,
	INA226_MODE_BUS_CONTINUOUS = 6,
	INA226_MODE_BOTH_CONTINUOUS = 7,
};

struct ina226_config {
	uint8_t addr;	      /* 7-bit, 0x40..0x4F (A1/A0 straps) */
	double shunt_ohm;     /* > 0 */
	double max_current_a; /* largest current expected, > 0; times
				 shunt_ohm at most 81.92 mV */
	/*
	 * Current_LSB in A, at least max_current_a / 2^15 (equation 2).
	 * 0: max_current_a / 2^15 rounded up to 1, 2 or 5 x 10^n A.
	 */
	double current_lsb_a;
	unsigned averages;  /* 1, 4, 16, 64, 128, 256, 512, 1024 */
	unsigned bus_ct_us; /* 140, 204, 332, 588, 1100, 2116, 4156, 8244 */
	unsigned shunt_ct_us;
	enum ina226_mode mode;
	int alert_cnvr;	 /* ALERT pin asserts on conversion ready (CNVR) */
	int alert_high;	 /* ALERT active high (APOL) instead of low */
	int alert_latch; /* alert latched until Mask/Enable is read (LEN) */
};

/* One reading in integer units. */
struct ina226_reading {
	int32_t shunt_nv;   /* shunt voltage, 2500 nV LSB */
	int32_t bus_uv;	    /* bus voltage at VBUS, 1250 uV LSB */
	int64_t current_ua; /* current register x eff_lsb_a */
	int64_t power_uw;   /* power register x power_lsb_w */
	int cnvr;	    /* CVRF: a conversion completed since the last
			       Mask/Enable read */
	int ovf;	    /* OVF: current or power did not fit */
	int out_of_range;   /* OVF, or the shunt at the 81.92 mV full scale:
			       the current is beyond the range */
	uint16_t raw_mask, raw_shunt, raw_bus, raw_current, raw_power;
};

/**
 * Defaults: 0x40, 0.1 ohm, 0.8 A (80 mV of the 81.92 mV range), LSB from
 * equation 2 rounded up (50 uA), 1 sample, 1.1 ms each, shunt and bus
 * continuous, ALERT unused.
 */
void ina226_config_default(struct ina226_config *cfg);

/**
 * Compute the register values for cfg without touching a chip (section
 * 6.5.1): Current_LSB >= max_current / 2^15, CAL = round(0.00512 /
 * (Current_LSB x R_shunt)), effective LSB = 0.00512 / (CAL x R_shunt),
 * Power_LSB = 25 x effective LSB.
 * @return HIL_OK or HIL_ERR_CONFIG (the log names the offending field:
 *         CAL outside 1..32767, max_current x shunt beyond 81.92 mV, a
 *         current LSB below max_current / 2^15, a timing not in the tables).
 */
int ina226_calc(const struct ina226_config *cfg, struct ina2xx_setup *out);

/**
 * Identify the chip by its manufacturer and die ID, reset it, write
 * calibration, mask/enable and configuration, and read all three back.
 * @param out receives the device; free it with ina226_close().
 * @param bus borrowed: must outlive the device.
 * @return HIL_OK; HIL_ERR_CONFIG; HIL_ERR_NA (something else answers at the
 *         address: the log names what it reads, e.g. an INA219);
 *         HIL_ERR_IO (no answer at the address, or registers read back
 *         wrong); HIL_ERR_NOMEM.
 */
int ina226_open(struct ina226 **out, struct hil_i2c_bus *bus,
		const struct ina226_config *cfg);

/** Free the device (the chip keeps converting). NULL is allowed. */
void ina226_close(struct ina226 *dev);

/**
 * Read Mask/Enable (CVRF, OVF; the read clears CVRF), then bus voltage,
 * shunt voltage, current and power, in one batch (ftdi: one USB write and
 * one read). The flags come first so that they never describe older data
 * than the registers read after them.
 * @return HIL_OK; HIL_ERR_CONFIG if the chip flags a math overflow (OVF)
 *         or the shunt voltage sits at the 81.92 mV full scale (r is still
 *         filled); a bus error (the log names the address and the
 *         registers; r is zeroed: an error, never a number).
 */
int ina226_read(struct ina226 *dev, struct ina226_reading *r);

/**
 * The sampler's reading: Mask/Enable (CVRF, OVF; the read clears CVRF),
 * bus and shunt voltage in one batch; current_ua is computed from the
 * shunt voltage, power_uw is not read. Unlike ina226_read(), a current
 * beyond the range is r->out_of_range, not an error, and nothing is
 * logged for it (a live display shows it at every conversion; the sampler
 * names it once).
 * @return HIL_OK, HIL_ERR_ARG, or a bus error (the log names the address
 *         and the registers; r is zeroed).
 */
int ina226_sample(struct ina226 *dev, struct ina226_reading *r);

/**
 * Poll the conversion-ready flag (CVRF, Mask/Enable) until it is set or
 * timeout_ms passes. The read that sees the flag also clears it (the chip
 * clears CVRF on every Mask/Enable read).
 * @return HIL_OK, HIL_ERR_TIMEOUT, or a bus error.
 */
int ina226_wait_ready(struct ina226 *dev, unsigned timeout_ms);

/** Start one conversion in a triggered mode (rewrites the configuration). */
int ina226_trigger(struct ina226 *dev);

/** Read one register. @return HIL_OK or a bus error (logged, named). */
int ina226_reg_read(struct ina226 *dev, uint8_t reg, uint16_t *val);

/** The computed setup (borrowed, valid until close). */
const struct ina2xx_setup *ina226_get_setup(const struct ina226 *dev);

/**
 * Time of one complete conversion in us: averages x (bus_ct_us and/or
 * shunt_ct_us, by mode); 0 for power-down or values not in the tables.
 */
unsigned ina226_conversion_us(unsigned averages, unsigned bus_ct_us,
			      unsigned shunt_ct_us, enum ina226_mode mode);

#endif /* HIL_INA226_H */
