/* ina219_sensor: the INA219 as a sensor driver (sensor.type "ina219"): its config keys and checks, its setup from the config, its report fields and summary, the sampler's reading, and its model as the sim bus hosts it. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"sensor"

#include <stdio.h>
#include <string.h>

#include "config/jsonld.h"
#include "drivers/i2c/i2c.h"
#include "util/err.h"
#include "driver.h"
#include "ina219.h"
#include "ina219_model.h"
#include "ina2xx_sensor.h"

/* Largest calibration value the register holds with bit 0 clear. */
#define CAL_MAX 65534.0

static const char *const ina219_sensor_keys[] = {
	"bus_range_v", "pga_div", "adc_bits", "adc_samples", NULL};

/* ---- configuration ---- */

static int ina219_sensor_parse(struct hil_jsonld *ld, const cJSON *s,
			       struct hil_config *cfg)
{
	const cJSON *it;
	uint32_t v = 0;
	int ret;

	it = hil_jsonld_member(s, "bus_range_v");
	if (it != NULL) {
		if (hil_jsonld_u32(ld, it, "sensor.bus_range_v", 16, 32, &v) !=
			    HIL_OK ||
		    (v != 16 && v != 32)) {
			return hil_jsonld_fail(
				ld, it,
				"sensor.bus_range_v: expected 16 or 32");
		}
		cfg->sensor.bus_range_v = v;
	}
	it = hil_jsonld_member(s, "pga_div");
	if (it != NULL) {
		if (hil_jsonld_u32(ld, it, "sensor.pga_div", 0, 8, &v) !=
			    HIL_OK ||
		    (v != 0 && v != 1 && v != 2 && v != 4 && v != 8)) {
			return hil_jsonld_fail(
				ld, it,
				"sensor.pga_div: expected 0 (automatic), 1, 2, 4 or 8");
		}
		cfg->sensor.pga_div = v;
	}
	it = hil_jsonld_member(s, "adc_bits");
	if (it != NULL) {
		ret = hil_jsonld_u32(ld, it, "sensor.adc_bits", 9, 12, &v);
		if (ret != HIL_OK) {
			return ret;
		}
		cfg->sensor.adc_bits = v;
	}
	it = hil_jsonld_member(s, "adc_samples");
	if (it != NULL) {
		if (hil_jsonld_u32(ld, it, "sensor.adc_samples", 1, 128, &v) !=
			    HIL_OK ||
		    (v & (v - 1)) != 0) {
			return hil_jsonld_fail(
				ld, it,
				"sensor.adc_samples: expected 1, 2, 4, 8, 16, 32, 64 or 128");
		}
		cfg->sensor.averages = v;
	}
	return HIL_OK;
}

/* Sensor settings that are valid one by one but not together. */
static int ina219_sensor_check(struct hil_jsonld *ld, const cJSON *s,
			       const struct hil_config *cfg)
{
	char beyond[96];
	unsigned n;
	double fs;

	/* Averaging is a 12-bit mode only (SBOS448 Table 6). */
	n = cfg->sensor.averages;
	if (n > 1 && cfg->sensor.adc_bits != 12) {
		return hil_jsonld_fail(
			ld, hil_jsonld_where(s, "adc_samples", NULL),
			"sensor.adc_samples: averaging %u samples works on 12-bit conversions only, but sensor.adc_bits is %u",
			n, cfg->sensor.adc_bits);
	}
	/* The shunt ADC's range: +-40 mV x the PGA divider (SBOS448 Table 5). */
	fs = 0.04 * (cfg->sensor.pga_div != 0 ? cfg->sensor.pga_div : 8u);
	if (cfg->sensor.pga_div != 0) {
		snprintf(beyond, sizeof(beyond),
			 "the +-%g mV that sensor.pga_div %u measures",
			 fs * 1e3, cfg->sensor.pga_div);
	} else {
		snprintf(beyond, sizeof(beyond),
			 "the INA219's largest shunt range, +-320 mV (use a "
			 "smaller shunt)");
	}
	return hil_sensor_check_range(ld, s, cfg, fs, beyond);
}

/* ---- the chip ---- */

/*
 * The driver's settings from the config. Both ADCs get the same resolution
 * and averaging: the sampler needs shunt and bus from the same cycle.
 */
static void ina219_sensor_config(const struct hil_config *cfg,
				 struct ina219_config *ic)
{
	ina219_config_default(ic);
	ic->addr = cfg->sensor.address;
	ic->shunt_ohm = cfg->sensor.shunt_ohm;
	ic->max_current_a = cfg->sensor.max_current_a;
	ic->bus_range_v = cfg->sensor.bus_range_v;
	ic->pga_div = cfg->sensor.pga_div;
	ic->bus_bits = cfg->sensor.adc_bits;
	ic->shunt_bits = cfg->sensor.adc_bits;
	ic->bus_samples = cfg->sensor.averages;
	ic->shunt_samples = cfg->sensor.averages;
	ic->mode = INA219_MODE_BOTH_CONTINUOUS;
	/*
	 * A small full scale (max_current_a x shunt_ohm below ~20 mV, say
	 * 0.1 A through 0.1 ohm) gives a round LSB whose calibration value
	 * does not fit 16 bits. The current register is then not the
	 * limit: the shunt ADC's 10 uV step is.
	 */
	ic->current_lsb_a = hil_sensor_fit_lsb(ic->max_current_a, ic->shunt_ohm,
					       0.04096, CAL_MAX);
}

static int ina219_sensor_settings(const struct hil_config *cfg, char *err,
				  size_t errlen)
{
	struct ina219_config ic;
	struct ina2xx_setup st;

	ina219_sensor_config(cfg, &ic);
	if (ina219_calc(&ic, &st) != HIL_OK) {
		snprintf(err, errlen,
			 "sensor: settings the INA219 cannot take (shunt_ohm "
			 "%g, max_current_a %g, pga_div %u, adc %u bit x%u: "
			 "the message above says which)",
			 ic.shunt_ohm, ic.max_current_a, ic.pga_div,
			 ic.bus_bits, ic.bus_samples);
		return HIL_ERR_CONFIG;
	}
	return HIL_OK;
}

static int ina219_sensor_open(void **dev, struct hil_i2c_bus *bus,
			      const struct hil_config *cfg)
{
	struct ina219_config ic;
	struct ina219 *d = NULL;
	int ret;

	ina219_sensor_config(cfg, &ic);
	ret = ina219_open(&d, bus, &ic);
	*dev = d;
	return ret;
}

static void ina219_sensor_close(void *dev)
{
	ina219_close(dev);
}

static void ina219_sensor_describe(const void *dev,
				   const struct hil_config *cfg,
				   struct hil_sensor_info *i)
{
	ina2xx_sensor_describe(ina219_get_setup(dev), cfg, i);
	i->bus_range_v = cfg->sensor.bus_range_v;
	i->adc_bits = cfg->sensor.adc_bits;
	i->conversion_us = ina219_adc_us(i->adc_bits, 1); /* one sample */
}

static int ina219_sensor_summary(const struct hil_sensor_info *i, char *buf,
				 size_t len)
{
	return snprintf(buf, len,
			"INA219 at 0x%02x on %s (%s): shunt %g ohm, max %g A, "
			"+-%g mV, bus %u V, config 0x%04x, cal %u, LSB %.4g "
			"uA, %u-bit x%u, cycle %u us",
			i->address, i->bus, i->source, i->shunt_ohm,
			i->max_current_a, i->shunt_range_v * 1e3,
			i->bus_range_v, i->config_reg, i->cal_reg,
			i->current_lsb_a * 1e6, i->adc_bits, i->averages,
			i->cycle_us);
}

/* The sampler's reading: bus and shunt in the INA219's mV and uV. */
static int ina219_sensor_sample(void *dev, struct hil_sensor_sample *out)
{
	struct ina219_reading r;
	int ret = ina219_sample(dev, &r);

	memset(out, 0, sizeof(*out));
	if (ret == HIL_OK) {
		out->bus_mv = r.bus_mv;
		out->shunt_uv = r.shunt_uv;
		out->cnvr = r.cnvr;
		out->overflow = r.out_of_range;
	}
	return ret;
}

static void ina219_sensor_source(void *dev, struct hil_sensor_source *src)
{
	ina2xx_sensor_source(ina219_get_setup(dev), dev, ina219_sensor_sample,
			     src);
}

/* ---- the simulated twin (ina219_model.c) on the sim bus ---- */

static const struct hil_i2c_sim_chip sim =
	HIL_REGMODEL_SIM_CHIP("ina219", &ina219_model_chip);

const struct hil_sensor_driver hil_sensor_ina219 = {
	.name = "ina219",
	.chip = "INA219",
	/* A0 and A1 each strap to GND, VS+, SDA or SCL (SBOS448 Table 1). */
	.addr_min = 0x40,
	.addr_max = 0x4F,
	.contact_reg = INA2XX_REG_CONFIG,
	.contact_por = 0x399F, /* SBOS448 section 8.6.2.1 */
	.contact_name = "configuration",
	.keys = ina219_sensor_keys,
	.parse = ina219_sensor_parse,
	.check = ina219_sensor_check,
	.settings = ina219_sensor_settings,
	.open = ina219_sensor_open,
	.close = ina219_sensor_close,
	.describe = ina219_sensor_describe,
	.summary = ina219_sensor_summary,
	.source = ina219_sensor_source,
	.probe = NULL,
	.sim = &sim,
};
