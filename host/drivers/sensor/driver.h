/* driver: what a sensor driver knows about its chip (config keys and checks, setup, report fields, readings, the doctor's probe), and the table the core looks sensors up in. */
#ifndef HIL_SENSOR_DRIVER_H
#define HIL_SENSOR_DRIVER_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "config/config.h"
#include "config/jsonld.h"
#include "drivers/i2c/i2c.h"
#include "sensor.h"

/*
 * One sensor chip on the I2C bus interface: its glue file (e.g.
 * ina219_sensor.c) fills one of these with designated initialisers and
 * drivers/drivers.def registers it with a HIL_SENSOR(<name>) line. The
 * config loader, sensor.c, the sampler and `hilrun doctor` ask it; none
 * of them names a chip.
 */
struct hil_sensor_driver {
	const char *name; /* sensor.type in configs: "ina219" */
	const char *chip; /* in messages and reports: "INA219" */
	/* The 7-bit addresses its address straps can give. */
	uint8_t addr_min, addr_max;
	/* The register read at first contact and by the doctor's probe (a
	 * read of it has no side effect), and its power-on value. */
	uint8_t contact_reg;
	uint16_t contact_por;
	const char *contact_name; /* "configuration" */

	/* ---- configuration (config/config_sensor.c) ---- */

	/* Its own keys of the "sensor" section, NULL-terminated. */
	const char *const *keys;
	/*
	 * Read those of its keys that the section s holds into cfg with the
	 * shared loader (config/jsonld.h), messages naming "sensor.<key>".
	 * @return HIL_OK or hil_jsonld_fail()'s code.
	 */
	int (*parse)(struct hil_jsonld *ld, const cJSON *s,
		     struct hil_config *cfg);
	/* Check the whole section once every key is read (values that are
	 * valid one by one but not together). */
	int (*check)(struct hil_jsonld *ld, const cJSON *s,
		     const struct hil_config *cfg);

	/* ---- the chip (drivers/sensor/sensor.c) ---- */

	/*
	 * Whether the chip can take cfg's settings, computed without a chip
	 * (a config built by hand may not have been checked).
	 * @param err a one-line message on failure (the log has the detail).
	 * @return HIL_OK or HIL_ERR_CONFIG.
	 */
	int (*settings)(const struct hil_config *cfg, char *err, size_t errlen);
	/*
	 * Reset the chip at cfg->sensor.address, set it up from cfg
	 * converting shunt and bus continuously (as the sampler needs) and
	 * read the setup back.
	 * @param dev receives the chip's handle, closed with close().
	 * @param bus borrowed: outlives the handle.
	 * @return HIL_OK; HIL_ERR_NA (another chip answers); HIL_ERR_IO (no
	 *         answer, or a wrong read-back); HIL_ERR_CONFIG; HIL_ERR_NOMEM.
	 *         The log says what was written and read.
	 */
	int (*open)(void **dev, struct hil_i2c_bus *bus,
		    const struct hil_config *cfg);
	void (*close)(void *dev);
	/*
	 * Its fields of the report: the registers as written, LSBs, ranges,
	 * ADC settings and the conversion cycle (sensor.c has filled the
	 * rest: type, bus, address, model, shunt, max current).
	 */
	void (*describe)(const void *dev, const struct hil_config *cfg,
			 struct hil_sensor_info *out);
	/* One line for people from the description (as snprintf). */
	int (*summary)(const struct hil_sensor_info *i, char *buf, size_t len);
	/*
	 * What the sampler needs of the open chip: dev, sample, shunt_ohm,
	 * cycle_us, continuous (sensor.c fills the rest).
	 */
	void (*source)(void *dev, struct hil_sensor_source *out);
	/*
	 * Optional, for the doctor's probe after contact_reg answered with
	 * value: read only, what else the chip says about itself (e.g. its
	 * ID registers), as text to append to the probe's line.
	 * @return HIL_OK, or HIL_ERR_NA when what answers is not this chip.
	 */
	int (*probe)(struct hil_i2c_bus *bus, uint8_t addr, uint16_t value,
		     char *buf, size_t len);

	/* Its register model, as the sim backend hosts it (sim:<name>@ADDR):
	 * the simulated twin the tests and runs without hardware use. */
	const struct hil_i2c_sim_chip *sim;
};

/** The sensor driver named name (sensor.type), or NULL. */
const struct hil_sensor_driver *hil_sensor_find(const char *name);

/** Every sensor driver, NULL-terminated, in registration order. */
const struct hil_sensor_driver *const *hil_sensor_all(void);

/**
 * The names of every sensor driver for a message: "ina219 or ina226".
 * @return the length snprintf would write.
 */
int hil_sensor_names(char *buf, size_t len);

/**
 * The check() every chip makes of its shunt input: the largest expected
 * current through the shunt (sensor.max_current_a x sensor.shunt_ohm) must
 * fit the full scale fs_v, else every window at that current would end in
 * an overflow.
 * @param beyond what it would exceed, for the message ("the INA226's shunt
 *        range, +-81.92 mV (use a smaller shunt)").
 * @return HIL_OK, or hil_jsonld_fail()'s code at sensor.max_current_a
 *         (else sensor.shunt_ohm, else the section s).
 */
int hil_sensor_check_range(struct hil_jsonld *ld, const cJSON *s,
			   const struct hil_config *cfg, double fs_v,
			   const char *beyond);

/**
 * The current LSB for a chip whose calibration register holds
 * cal_num / (LSB x shunt_ohm), at most cal_max: 0 (the chip driver's own
 * choice: max_current_a / 2^15 rounded up to 1, 2 or 5 x 10^n) when that
 * fits, else the smallest such round LSB that fits. A small full scale
 * (0.1 A through 0.1 ohm on an INA219) then works rather than failing; the
 * energy figures come from the shunt voltage and do not depend on it.
 */
double hil_sensor_fit_lsb(double max_current_a, double shunt_ohm,
			  double cal_num, double cal_max);

#endif /* HIL_SENSOR_DRIVER_H */
