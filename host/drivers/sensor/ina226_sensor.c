/* ina226_sensor: the INA226 as a sensor driver (sensor.type "ina226"): its config keys and checks, its setup from the config, its report fields and summary, the sampler's reading, the doctor's ID check, and its model as the sim bus hosts it. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"sensor"

#include <stdio.h>
#include <string.h>

#include "config/jsonld.h"
#include "drivers/i2c/i2c.h"
#include "util/err.h"
#include "driver.h"
#include "ina226.h"
#include "ina226_model.h"
#include "ina2xx_sensor.h"

#define CAL_MAX	      32767.0 /* the calibration register's 15 bits */
#define SHUNT_FS_V    0.08192 /* 7FFFh x 2.5 uV */
#define BUS_RANGE_V   36      /* VBUS: 0 to 36 V (SBOS547 Features) */
#define ADC_BITS      16
#define DEFAULT_CT_US 1100 /* the power-on conversion time */

static const char *const ina226_sensor_keys[] = {"averages", "conversion_us",
						 NULL};

/* The conversion time of each channel: the config's, or the default. */
static unsigned conversion_us(const struct hil_config *cfg)
{
	return cfg->sensor.conversion_us != 0 ? cfg->sensor.conversion_us
					      : DEFAULT_CT_US;
}

/* ---- configuration ---- */

/*
 * AVG and the conversion times are table values (SBOS547 section 7.1.1):
 * ina226_conversion_us() is 0 for anything else.
 */
static int ina226_sensor_parse(struct hil_jsonld *ld, const cJSON *s,
			       struct hil_config *cfg)
{
	const cJSON *it;
	uint32_t v = 0;

	it = hil_jsonld_member(s, "averages");
	if (it != NULL) {
		if (hil_jsonld_u32(ld, it, "sensor.averages", 1, 1024, &v) !=
			    HIL_OK ||
		    ina226_conversion_us(v, DEFAULT_CT_US, DEFAULT_CT_US,
					 INA226_MODE_BOTH_CONTINUOUS) == 0) {
			return hil_jsonld_fail(
				ld, it,
				"sensor.averages: expected 1, 4, 16, 64, 128, 256, 512 or 1024");
		}
		cfg->sensor.averages = v;
	}
	it = hil_jsonld_member(s, "conversion_us");
	if (it != NULL) {
		if (hil_jsonld_u32(ld, it, "sensor.conversion_us", 140, 8244,
				   &v) != HIL_OK ||
		    ina226_conversion_us(1, v, v,
					 INA226_MODE_BOTH_CONTINUOUS) == 0) {
			return hil_jsonld_fail(
				ld, it,
				"sensor.conversion_us: expected 140, 204, 332, 588, 1100, 2116, 4156 or 8244");
		}
		cfg->sensor.conversion_us = v;
	}
	return HIL_OK;
}

/* Its shunt input has one range, +-81.92 mV. */
static int ina226_sensor_check(struct hil_jsonld *ld, const cJSON *s,
			       const struct hil_config *cfg)
{
	return hil_sensor_check_range(
		ld, s, cfg, SHUNT_FS_V,
		"the INA226's shunt range, +-81.92 mV (use a smaller shunt)");
}

/* ---- the chip ---- */

/*
 * The driver's settings from the config. Shunt and bus get the same
 * conversion time: the sampler needs both from the same cycle.
 */
static void ina226_sensor_config(const struct hil_config *cfg,
				 struct ina226_config *ic)
{
	ina226_config_default(ic);
	ic->addr = cfg->sensor.address;
	ic->shunt_ohm = cfg->sensor.shunt_ohm;
	ic->max_current_a = cfg->sensor.max_current_a;
	ic->averages = cfg->sensor.averages;
	ic->bus_ct_us = conversion_us(cfg);
	ic->shunt_ct_us = conversion_us(cfg);
	ic->mode = INA226_MODE_BOTH_CONTINUOUS;
	/* Below about 5 mV of full scale the round LSB's calibration value
	 * does not fit 15 bits: the shunt ADC's 2.5 uV step is the limit. */
	ic->current_lsb_a = hil_sensor_fit_lsb(ic->max_current_a, ic->shunt_ohm,
					       0.00512, CAL_MAX);
}

static int ina226_sensor_settings(const struct hil_config *cfg, char *err,
				  size_t errlen)
{
	struct ina226_config ic;
	struct ina2xx_setup st;

	ina226_sensor_config(cfg, &ic);
	if (ina226_calc(&ic, &st) != HIL_OK) {
		snprintf(err, errlen,
			 "sensor: settings the INA226 cannot take (shunt_ohm "
			 "%g, max_current_a %g, averages %u, conversion %u us: "
			 "the message above says which)",
			 ic.shunt_ohm, ic.max_current_a, ic.averages,
			 ic.shunt_ct_us);
		return HIL_ERR_CONFIG;
	}
	return HIL_OK;
}

static int ina226_sensor_open(void **dev, struct hil_i2c_bus *bus,
			      const struct hil_config *cfg)
{
	struct ina226_config ic;
	struct ina226 *d = NULL;
	int ret;

	ina226_sensor_config(cfg, &ic);
	ret = ina226_open(&d, bus, &ic);
	*dev = d;
	return ret;
}

static void ina226_sensor_close(void *dev)
{
	ina226_close(dev);
}

static void ina226_sensor_describe(const void *dev,
				   const struct hil_config *cfg,
				   struct hil_sensor_info *i)
{
	ina2xx_sensor_describe(ina226_get_setup(dev), cfg, i);
	i->bus_range_v = BUS_RANGE_V;
	i->adc_bits = ADC_BITS;
	i->conversion_us = conversion_us(cfg);
}

static int ina226_sensor_summary(const struct hil_sensor_info *i, char *buf,
				 size_t len)
{
	return snprintf(buf, len,
			"INA226 at 0x%02x on %s (%s): shunt %g ohm, max %g A, "
			"+-%g mV, config 0x%04x, cal %u, LSB %.4g uA, %u us "
			"x%u, cycle %u us",
			i->address, i->bus, i->source, i->shunt_ohm,
			i->max_current_a, i->shunt_range_v * 1e3, i->config_reg,
			i->cal_reg, i->current_lsb_a * 1e6, i->conversion_us,
			i->averages, i->cycle_us);
}

/* The sampler's reading: the INA226's uV and nV in mV and uV. */
static int ina226_sensor_sample(void *dev, struct hil_sensor_sample *out)
{
	struct ina226_reading r;
	int ret = ina226_sample(dev, &r);

	memset(out, 0, sizeof(*out));
	if (ret == HIL_OK) {
		out->bus_mv = r.bus_uv / 1000.0;
		out->shunt_uv = r.shunt_nv / 1000.0;
		out->cnvr = r.cnvr;
		out->overflow = r.out_of_range;
	}
	return ret;
}

static void ina226_sensor_source(void *dev, struct hil_sensor_source *src)
{
	ina2xx_sensor_source(ina226_get_setup(dev), dev, ina226_sensor_sample,
			     src);
}

static int read_id(struct hil_i2c_bus *bus, uint8_t addr, uint8_t reg,
		   uint16_t *val)
{
	uint8_t b[2] = {0, 0};
	int ret = hil_i2c_xfer(bus, addr, &reg, 1, b, 2);

	*val = (uint16_t)(b[0] << 8 | b[1]); /* big-endian */
	return ret;
}

/* Its ID registers (FEh "TI", FFh the die): an INA226, or something else? */
static int ina226_sensor_probe(struct hil_i2c_bus *bus, uint8_t addr,
			       uint16_t value, char *buf, size_t len)
{
	uint16_t mfr = 0, die = 0;
	int ret;

	(void)value;
	ret = read_id(bus, addr, INA226_REG_MFR_ID, &mfr);
	if (ret == HIL_OK) {
		ret = read_id(bus, addr, INA226_REG_DIE_ID, &die);
	}
	if (ret != HIL_OK) {
		snprintf(buf, len,
			 ", but its ID registers could not be read: %s",
			 hil_strerror(ret));
		return ret;
	}
	if (mfr != INA226_MFR_ID_TI || die != INA226_DIE_ID) {
		snprintf(buf, len,
			 ", but manufacturer ID 0x%04x, die ID 0x%04x where an "
			 "INA226 reads 0x%04x, 0x%04x: not an INA226",
			 mfr, die, INA226_MFR_ID_TI, INA226_DIE_ID);
		return HIL_ERR_NA;
	}
	snprintf(buf, len, ", manufacturer ID 0x%04x, die ID 0x%04x", mfr, die);
	return HIL_OK;
}

/* ---- the simulated twin (ina226_model.c) on the sim bus ---- */

static const struct hil_i2c_sim_chip sim =
	HIL_REGMODEL_SIM_CHIP("ina226", &ina226_model_chip);

const struct hil_sensor_driver hil_sensor_ina226 = {
	.name = "ina226",
	.chip = "INA226",
	/* A0 and A1 each strap to GND, VS, SDA or SCL (SBOS547B Table 6-2). */
	.addr_min = 0x40,
	.addr_max = 0x4F,
	.contact_reg = INA2XX_REG_CONFIG,
	.contact_por = 0x4127, /* SBOS547 Table 7-1 */
	.contact_name = "configuration",
	.keys = ina226_sensor_keys,
	.parse = ina226_sensor_parse,
	.check = ina226_sensor_check,
	.settings = ina226_sensor_settings,
	.open = ina226_sensor_open,
	.close = ina226_sensor_close,
	.describe = ina226_sensor_describe,
	.summary = ina226_sensor_summary,
	.source = ina226_sensor_source,
	.probe = ina226_sensor_probe,
	.sim = &sim,
};
