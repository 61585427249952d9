/* config_sensor: the sensor section of a run configuration (the INA219, its bus and its ranges). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "util/err.h"

#include "config/config_int.h"
#include "config/jsonld.h"

static const char *const sensor_names[] = {"none", "ina219", NULL};

static const struct hil_jsonld_choice sensor_choice = {"a sensor", sensor_names,
						       "none or ina219"};

static const char *const sensor_keys[] = {
	"type",		 "bus",		"address", "shunt_ohm",
	"max_current_a", "bus_range_v", "pga_div", "adc_bits",
	"adc_samples",	 "conversions", "windows", NULL,
};

/* A finite number above 0 and at most max (a resistance, a current). */
static int get_positive(struct hil_jsonld *ld, const cJSON *it,
			const char *path, double max, double *out)
{
	double d;

	if (cJSON_IsNumber(it)) {
		d = it->valuedouble;
		/* Written this way round so NaN and infinities fail too. */
		if (d > 0.0 && d <= max) {
			*out = d;
			return HIL_OK;
		}
	}
	return hil_jsonld_fail(ld, it,
			       "%s: expected a number above 0 and at most %g",
			       path, max);
}

/*
 * An INA219 address: A0 and A1 each strap to GND, VS+, SDA or SCL, which
 * gives 0x40..0x4F (SBOS448 Table 1). Written as an integer, or as a hex
 * string because that is how datasheets and i2cdetect show it.
 */
static int get_ina219_address(struct hil_jsonld *ld, const cJSON *it,
			      const char *path, uint8_t *out)
{
	const char *s;
	long v = -1;
	char *end;

	if (cJSON_IsNumber(it)) {
		if (it->valuedouble >= 0x40 && it->valuedouble <= 0x4f &&
		    it->valuedouble == floor(it->valuedouble)) {
			v = (long)it->valuedouble;
		}
	} else if (cJSON_IsString(it)) {
		s = it->valuestring;
		if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') &&
		    strlen(s) >= 3 && strlen(s) <= 4 &&
		    strspn(s + 2, "0123456789abcdefABCDEF") == strlen(s + 2)) {
			v = strtol(s + 2, &end, 16);
		}
	}
	if (v < 0x40 || v > 0x4f) {
		return hil_jsonld_fail(
			ld, it,
			"%s: expected an INA219 address from 0x40 to 0x4F, as an integer (64) or a string (\"0x40\")",
			path);
	}
	*out = (uint8_t)v;
	return HIL_OK;
}

/*
 * The bus is opened by prefix (host/drivers/i2c/i2c.h); what follows the prefix is
 * checked when it is opened, where the adapter can be named.
 */
static int check_bus(struct hil_jsonld *ld, const cJSON *it, const char *bus)
{
	char sb[HIL_JSONLD_SHOW];

	if ((strncmp(bus, "ftdi:", 5) == 0 && bus[5] != '\0') ||
	    (strncmp(bus, "linux:/", 7) == 0 && bus[7] != '\0') ||
	    (strncmp(bus, "sim:", 4) == 0 && bus[4] != '\0')) {
		return HIL_OK;
	}
	return hil_jsonld_fail(
		ld, it,
		"sensor.bus: \"%s\" is not a bus spec: expected \"ftdi:VID:PID[:SERIAL]\", \"linux:/dev/i2c-N\" or \"sim:...\"",
		hil_jsonld_show(sb, sizeof(sb), bus));
}

/* Sensor settings that are valid one by one but not together. */
static int v_sensor_combination(struct hil_jsonld *ld, const cJSON *s,
				const struct hil_config *cfg)
{
	const cJSON *at;
	double vmax, fs;
	unsigned n;

	if (strcmp(cfg->sensor.type, "ina219") == 0 &&
	    cfg->sensor.bus[0] == '\0') {
		at = hil_jsonld_member(s, "bus");
		if (at == NULL) {
			at = hil_jsonld_member(s, "type");
		}
		return hil_jsonld_fail(
			ld, at != NULL ? at : s,
			"sensor.bus: required when sensor.type is \"ina219\" (e.g. \"ftdi:0403:6014\" or \"linux:/dev/i2c-1\")");
	}
	/* Averaging is a 12-bit mode only (SBOS448 Table 6). */
	n = cfg->sensor.adc_samples;
	if (n > 1 && cfg->sensor.adc_bits != 12) {
		at = hil_jsonld_member(s, "adc_samples");
		return hil_jsonld_fail(
			ld, at != NULL ? at : s,
			"sensor.adc_samples: averaging %u samples works on 12-bit conversions only, but sensor.adc_bits is %u",
			n, cfg->sensor.adc_bits);
	}
	/*
	 * The largest expected current must fit the shunt ADC's range,
	 * +-40 mV x the PGA divider (SBOS448 Table 5), else every window
	 * at that current would end in an overflow.
	 */
	vmax = cfg->sensor.max_current_a * cfg->sensor.shunt_ohm;
	fs = 0.04 * (cfg->sensor.pga_div != 0 ? cfg->sensor.pga_div : 8u);
	if (vmax > fs * (1.0 + 1e-9)) {
		at = hil_jsonld_member(s, "max_current_a");
		if (at == NULL) {
			at = hil_jsonld_member(s, "shunt_ohm");
		}
		if (cfg->sensor.pga_div != 0) {
			return hil_jsonld_fail(
				ld, at != NULL ? at : s,
				"sensor.max_current_a: %g A through %g ohm is %g mV, beyond the +-%g mV that sensor.pga_div %u measures",
				cfg->sensor.max_current_a,
				cfg->sensor.shunt_ohm, vmax * 1e3, fs * 1e3,
				cfg->sensor.pga_div);
		}
		return hil_jsonld_fail(
			ld, at != NULL ? at : s,
			"sensor.max_current_a: %g A through %g ohm is %g mV, beyond the INA219's largest shunt range, +-320 mV (use a smaller shunt)",
			cfg->sensor.max_current_a, cfg->sensor.shunt_ohm,
			vmax * 1e3);
	}
	return HIL_OK;
}

int hil_cfg_v_sensor(struct hil_jsonld *ld, const cJSON *root,
		     struct hil_config *cfg)
{
	const cJSON *s, *it;
	uint32_t v = 0;
	int ret;

	ret = hil_jsonld_section(ld, root, "sensor", sensor_keys, &s);
	if (ret != HIL_OK || s == NULL) {
		return ret;
	}
	it = hil_jsonld_member(s, "type");
	if (it != NULL) {
		ret = hil_jsonld_choice(ld, it, "sensor.type", &sensor_choice,
					cfg->sensor.type,
					sizeof(cfg->sensor.type), NULL);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	it = hil_jsonld_member(s, "bus");
	if (it != NULL) {
		ret = hil_jsonld_str(ld, it, "sensor.bus", cfg->sensor.bus,
				     sizeof(cfg->sensor.bus), 1);
		if (ret == HIL_OK && cfg->sensor.bus[0] != '\0') {
			ret = check_bus(ld, it, cfg->sensor.bus);
		}
		if (ret != HIL_OK) {
			return ret;
		}
	}
	it = hil_jsonld_member(s, "address");
	if (it != NULL) {
		ret = get_ina219_address(ld, it, "sensor.address",
					 &cfg->sensor.address);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	it = hil_jsonld_member(s, "shunt_ohm");
	if (it != NULL) {
		ret = get_positive(ld, it, "sensor.shunt_ohm", 100.0,
				   &cfg->sensor.shunt_ohm);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	it = hil_jsonld_member(s, "max_current_a");
	if (it != NULL) {
		ret = get_positive(ld, it, "sensor.max_current_a", 100.0,
				   &cfg->sensor.max_current_a);
		if (ret != HIL_OK) {
			return ret;
		}
	}
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
		cfg->sensor.adc_samples = v;
	}
	it = hil_jsonld_member(s, "conversions");
	if (it != NULL) {
		ret = hil_jsonld_u32(ld, it, "sensor.conversions", 1, 10000,
				     &cfg->sensor.conversions);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	it = hil_jsonld_member(s, "windows");
	if (it != NULL) {
		ret = hil_jsonld_u32(ld, it, "sensor.windows", 1, 1000,
				     &cfg->sensor.windows);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	return v_sensor_combination(ld, s, cfg);
}
