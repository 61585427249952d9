/* ina2xx: what the TI INA219 and INA226 drivers share: their common registers 00h..05h, 16-bit register access on the I2C bus with one logged error naming chip, address and register, batched reads, the conversion-ready poll, the checks every calibration starts with. */
#ifndef HIL_INA2XX_H
#define HIL_INA2XX_H

#include <stddef.h>
#include <stdint.h>

struct hil_i2c_bus;

/* Registers 00h..05h, the same on both chips (SBOS448 Table 2, SBOS547
 * Table 7-1). */
#define INA2XX_REG_CONFIG  0x00
#define INA2XX_REG_SHUNT   0x01
#define INA2XX_REG_BUS	   0x02
#define INA2XX_REG_POWER   0x03
#define INA2XX_REG_CURRENT 0x04
#define INA2XX_REG_CAL	   0x05

/* The most registers one batch reads. */
#define INA2XX_BATCH_MAX 5

/*
 * What a configuration computes to on either chip: the register values and
 * the scales (ina219_calc(), ina226_calc()).
 */
struct ina2xx_setup {
	uint16_t config;      /* configuration register value */
	uint16_t cal;	      /* calibration register value: INA219 bit 0
				 clear, INA226 1..32767 */
	uint16_t mask;	      /* INA226: mask/enable register value */
	unsigned pga_div;     /* INA219: the PGA divider chosen */
	double current_lsb_a; /* Current_LSB chosen (INA219 step 2,
				 INA226 equation 2) */
	double eff_lsb_a;     /* the LSB the chip actually applies after
				 rounding cal: INA219 0.04096, INA226
				 0.00512 / (cal x R) */
	double power_lsb_w;   /* INA219 20, INA226 25 x eff_lsb_a */
	double shunt_range_v; /* +- full scale: INA219 0.04 x pga_div,
				 INA226 0.08192 */
	unsigned cycle_us;    /* one complete conversion cycle in this mode
				 (INA226: averages x (bus and/or shunt)) */
	double shunt_ohm;     /* the shunt these scales are for */
};

/* What sets one chip apart in messages. */
struct ina2xx_chip {
	const char *name; /* "INA219" */
	const char *log;  /* its driver's log prefix: "ina219" */
	/* The name of a register beyond 00h..05h ("mask/enable"), or NULL
	 * (then "unknown"); NULL when it has none. */
	const char *(*reg_name)(uint8_t reg);
};

/* One chip on a bus: the head of a driver's device. */
struct ina2xx {
	const struct ina2xx_chip *chip;
	struct hil_i2c_bus *bus; /* borrowed */
	uint8_t addr;
	double shunt_ohm;
};

/**
 * Fill d for chip at addr on bus, checking addr against the A0/A1 straps
 * (0x40..0x4F on both chips).
 * @return HIL_OK or HIL_ERR_CONFIG (logged).
 */
int ina2xx_init(struct ina2xx *d, const struct ina2xx_chip *chip,
		struct hil_i2c_bus *bus, uint8_t addr, double shunt_ohm);

/** The register's name for messages: "bus voltage", or "unknown". */
const char *ina2xx_reg_name(const struct ina2xx_chip *chip, uint8_t reg);

/** Read one register. @return HIL_OK or a bus error (logged, named). */
int ina2xx_reg_read(const struct ina2xx *d, uint8_t reg, uint16_t *val);

/** As ina2xx_reg_read(), with nothing logged (a guess in a message). */
int ina2xx_reg_read_quiet(const struct ina2xx *d, uint8_t reg, uint16_t *val);

/** Write one register. @return HIL_OK or a bus error (logged, named). */
int ina2xx_reg_write(const struct ina2xx *d, uint8_t reg, uint16_t val);

/**
 * Write n registers in order, stopping at the first failure.
 * @return HIL_OK or that failure's bus error (logged, named).
 */
int ina2xx_reg_writes(const struct ina2xx *d, const uint8_t *regs,
		      const uint16_t *vals, size_t n);

/**
 * Read n registers one by one (one transaction each), stopping at the
 * first failure.
 * @return HIL_OK or that failure's bus error (logged, named).
 */
int ina2xx_reg_reads(const struct ina2xx *d, const uint8_t *regs,
		     uint16_t *vals, size_t n);

/* A register of a reading, and where in the reading its value goes. */
struct ina2xx_field {
	uint8_t reg;
	size_t off; /* offsetof() its uint16_t in the reading */
};

/**
 * A reading: zero out (size bytes), then read the n registers of f (at
 * most INA2XX_BATCH_MAX) in one batch, one round trip on batching
 * backends, into their fields of out.
 * @return HIL_OK, HIL_ERR_ARG (d or out NULL, too many), or a bus error
 *         (logged, naming every register of the batch; out stays zeroed:
 *         an error, never a number).
 */
int ina2xx_read_fields(const struct ina2xx *d, const struct ina2xx_field *f,
		       size_t n, void *out, size_t size);

/**
 * Poll reg until flag is set or timeout_ms passes, four times per
 * conversion cycle of cycle_us, at most every 1 ms.
 * @param mode the configured MODE, for the message.
 * @return HIL_OK, HIL_ERR_TIMEOUT (logged), or a bus error.
 */
int ina2xx_wait_flag(const struct ina2xx *d, uint8_t reg, uint16_t flag,
		     unsigned timeout_ms, unsigned cycle_us, unsigned mode);

/**
 * The checks every calibration starts with: shunt_ohm and max_current_a
 * positive, MODE 0..7.
 * @return HIL_OK or HIL_ERR_CONFIG (logged with chip's prefix).
 */
int ina2xx_check_scale(const struct ina2xx_chip *chip, double shunt_ohm,
		       double max_current_a);
int ina2xx_check_mode(const struct ina2xx_chip *chip, unsigned mode);

#endif /* HIL_INA2XX_H */
