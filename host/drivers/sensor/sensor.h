/* sensor: the run configuration's current sensor, opened: the I2C bus and the chip on it (through its driver, driver.h), configured and described for reports. */
#ifndef HIL_SENSOR_H
#define HIL_SENSOR_H

#include <stddef.h>
#include <stdint.h>

#include "config/config.h"

struct hil_sensor;
struct hil_i2c_bus;

/*
 * What a report says about the sensor (docs/wiring.md, docs/configs.md):
 * sensor.c fills the first part, the chip's driver the rest.
 */
struct hil_sensor_info {
	char type[HIL_CFG_NAME]; /* its driver's name: "ina219" */
	const char *chip;	 /* "INA219" (static) */
	char bus[HIL_CFG_STR];	 /* the bus spec, e.g. "ftdi:0403:6014" */
	char bus_type[16];	 /* "ftdi", "linux" or "sim" */
	uint8_t address;	 /* 7-bit */
	int model;		 /* 1: a simulated chip ("sim:" bus) */
	const char *source;	 /* "model" or "measured" (static) */
	double shunt_ohm;
	double max_current_a;
	/* From the driver: */
	uint16_t config_reg;	/* configuration register as written */
	uint16_t cal_reg;	/* calibration register as written */
	double current_lsb_a;	/* effective, after the register's rounding:
				   INA219 0.04096 / (cal x shunt) */
	double power_lsb_w;	/* INA219 20 x, INA226 25 x current_lsb_a */
	double shunt_range_v;	/* +- full scale (INA219 0.04 x the PGA's
				   divider, INA226 0.08192) */
	unsigned bus_range_v;	/* INA219 16 or 32, INA226 36 */
	unsigned adc_bits;	/* resolution: INA219 9..12, INA226 16 */
	unsigned averages;	/* samples averaged per conversion */
	unsigned conversion_us; /* one sample of one channel */
	unsigned cycle_us;	/* one shunt + bus conversion cycle */
};

/* One reading for a live display, range problems as flags (not logged). */
struct hil_sensor_reading {
	double bus_mv;	   /* bus voltage, in the chip's steps */
	double shunt_uv;   /* shunt voltage, in the chip's steps */
	double current_ua; /* shunt_uv / shunt_ohm */
	double power_uw;   /* bus x current */
	int cnvr;	   /* a conversion completed since the last read */
	int out_of_range;  /* the chip's overflow flag, or the shunt at its
			      full scale */
};

/*
 * One reading of shunt and bus as a sensor's driver takes it: a range
 * problem is a flag, not an error, and nothing is logged for it.
 */
struct hil_sensor_sample {
	double bus_mv;	 /* bus voltage in mV (INA219: 4 mV steps) */
	double shunt_uv; /* shunt voltage in uV (INA219: 10 uV steps) */
	int cnvr;	 /* a conversion completed since the previous sample
			    (the read clears the chip's flag) */
	int overflow;	 /* the chip's overflow flag, or the shunt at its
			    full scale: the current is beyond the range */
};

/*
 * What the sampler (run/energy.c) and the energy phase (run/energyrun.c)
 * need of an open sensor, whichever chip it is (hil_sensor_source()).
 */
struct hil_sensor_source {
	void *dev; /* the driver's open chip, for sample (borrowed) */
	/* Shunt and bus in one batch (one round trip on a batching bus).
	 * @return HIL_OK or a bus error (logged, naming the chip). */
	int (*sample)(void *dev, struct hil_sensor_sample *out);
	const char *chip; /* "INA219", for messages */
	uint8_t address;  /* 7-bit */
	double shunt_ohm;
	unsigned cycle_us; /* one conversion cycle of shunt and bus */
	int continuous;	   /* the chip converts shunt and bus continuously */
	/*
	 * The simulated chip behind a "sim:" bus, or NULL on hardware: its
	 * load follows the host through load (on while the stub loops, as
	 * the board's current rises), and every figure is labelled a model.
	 */
	void *model;
	int (*load)(void *model, int on);
};

/**
 * Whether cfg asks for a sensor (sensor.type other than "none").
 * @param cfg borrowed; NULL counts as no sensor.
 */
int hil_sensor_configured(const struct hil_config *cfg);

/**
 * Open the bus named by cfg->sensor.bus, then, through the driver of
 * cfg->sensor.type, reset the chip at cfg->sensor.address and write its
 * configuration (continuous shunt and bus conversions, cfg's ranges and
 * ADC settings) and its calibration, read them back. A missing or unplugged adapter fails at once (a USB or device
 * lookup, no retries) with a message naming the adapter looked for.
 * @param cfg borrowed; only cfg->sensor is read.
 * @param out receives the sensor; the caller closes it with
 *        hil_sensor_close(), which also closes the bus.
 * @param err receives a one-line message on failure (errlen bytes,
 *        NUL-terminated); may be NULL. The backend's own detail (libftdi's
 *        or the kernel's text) is in the log.
 * @return HIL_OK; HIL_ERR_NA (no sensor configured, or the adapter or
 *         device is not there, or another chip answers); HIL_ERR_CONFIG (an
 *         unknown sensor.type, a bad bus spec or settings the chip cannot
 *         take); HIL_ERR_IO (the adapter could not be set up, or the chip
 *         does not answer or reads back wrong); HIL_ERR_NOMEM; HIL_ERR_ARG
 *         (NULL cfg or out).
 */
int hil_sensor_open(const struct hil_config *cfg, struct hil_sensor **out,
		    char *err, size_t errlen);

/**
 * As hil_sensor_open() on a bus the caller opened already (tests: an ftdi
 * bus behind an MPSSE interpreter). cfg->sensor.bus is not used.
 * @param bus handed over: closed by hil_sensor_close(), or here on failure.
 */
int hil_sensor_open_bus(const struct hil_config *cfg, struct hil_i2c_bus *bus,
			struct hil_sensor **out, char *err, size_t errlen);

/** Close the chip's handle and the bus, free s. NULL is allowed. */
void hil_sensor_close(struct hil_sensor *s);

/**
 * What the sampler and the energy phase need of s (borrowed, valid until
 * hil_sensor_close()).
 */
const struct hil_sensor_source *hil_sensor_source(const struct hil_sensor *s);

/** The bus (borrowed, valid until hil_sensor_close()). */
struct hil_i2c_bus *hil_sensor_bus(const struct hil_sensor *s);

/**
 * The register model behind a "sim:" bus (a struct hil_regmodel, regmodel.h,
 * for "sim:ina219@" and "sim:ina226@"), for tests (borrowed, valid until
 * hil_sensor_close()).
 * @return NULL unless the bus is simulated.
 */
void *hil_sensor_model(const struct hil_sensor *s);

/** Whether the readings come from a model (a "sim:" bus): 1, else 0. */
int hil_sensor_is_model(const struct hil_sensor *s);

/**
 * Read bus and shunt voltage in one batch, clearing the conversion-ready
 * flag (the sampler's reading). A current beyond the range is a flag in r,
 * not an error, and nothing is logged for it, so a live display can show
 * it at every conversion.
 * @return HIL_OK, HIL_ERR_ARG, or a bus error (logged).
 */
int hil_sensor_read(struct hil_sensor *s, struct hil_sensor_reading *r);

/** Fill out with what the sensor is and how it was set up. */
void hil_sensor_describe(const struct hil_sensor *s,
			 struct hil_sensor_info *out);

/**
 * One line for people, from the driver, e.g. "INA219 at 0x40 on
 * ftdi:0403:6014 (measured): shunt 0.1 ohm, +-40 mV, cal 20480, LSB 20 uA,
 * 12-bit x1, cycle 1064 us".
 * @return the length snprintf would write (as snprintf).
 */
int hil_sensor_summary(const struct hil_sensor *s, char *buf, size_t len);

/**
 * Check without changing anything: open the bus, read the chip's
 * configuration register at cfg->sensor.address (and whatever else its
 * driver reads to know it, e.g. ID registers), close. Nothing is written,
 * so a chip another process set up keeps its settings.
 * @param detail receives a one-line result, on success ("INA219 at 0x40
 *        on ... answers: configuration 0x399f") and on failure (what was
 *        looked for and why it failed).
 * @return HIL_OK, HIL_ERR_NA (another chip answers), or as
 *         hil_sensor_open().
 */
int hil_sensor_probe(const struct hil_config *cfg, char *detail, size_t len);

#endif /* HIL_SENSOR_H */
