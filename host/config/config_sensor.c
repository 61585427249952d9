/* config_sensor: the sensor section of a run configuration: the keys every sensor has (type, bus, address, shunt, current, windows) here, each chip's own keys and checks in its driver (drivers/sensor/driver.h). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "util/err.h"

#include "config/config_int.h"
#include "config/jsonld.h"
#include "drivers/board/board.h"
#include "drivers/i2c/i2c.h"
#include "drivers/sensor/driver.h"

#define KEYS_MAX 64

/* The keys every sensor section may hold; each driver adds its own. */
static const char *const common_keys[] = {
	"type",		 "bus",		"address", "shunt_ohm",
	"max_current_a", "conversions", "windows", NULL,
};

/* The common keys and every driver's: what a section may hold at all. */
static void all_keys(const char **keys, size_t max)
{
	const struct hil_sensor_driver *const *d;
	size_t n = 0, i;

	for (i = 0; common_keys[i] != NULL && n + 1 < max; i++) {
		keys[n++] = common_keys[i];
	}
	keys[n] = NULL;
	for (d = hil_sensor_all(); *d != NULL; d++) {
		for (i = 0; (*d)->keys[i] != NULL && n + 1 < max; i++) {
			if (!hil_cfg_listed(keys, (*d)->keys[i])) {
				keys[n] = (*d)->keys[i];
				keys[++n] = NULL;
			}
		}
	}
}

/*
 * sensor.type: "none" or a driver's name (the choice lists them from the
 * table). *drv: the driver, NULL for "none".
 */
static int get_type(struct hil_jsonld *ld, const cJSON *s,
		    struct hil_config *cfg,
		    const struct hil_sensor_driver **drv)
{
	const struct hil_sensor_driver *const *all = hil_sensor_all();
	const char *names[KEYS_MAX];
	struct hil_jsonld_choice choice;
	char expected[256];
	const cJSON *it = hil_jsonld_member(s, "type");
	size_t n = 0;
	int ret;

	names[n++] = "none";
	while (n + 1 < KEYS_MAX && all[n - 1] != NULL) {
		names[n] = all[n - 1]->name;
		n++;
	}
	names[n] = NULL;
	hil_drivers_join(expected, sizeof(expected), names);
	choice.what = "a sensor";
	choice.names = names;
	choice.expected = expected;
	if (it != NULL) {
		ret = hil_jsonld_choice(ld, it, "sensor.type", &choice,
					cfg->sensor.type,
					sizeof(cfg->sensor.type), NULL);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	*drv = hil_sensor_find(cfg->sensor.type);
	return HIL_OK;
}

/*
 * A key of another sensor's (a config that switched sensor.type and kept
 * the old one's settings) gets a message that says so, as a flasher's.
 */
static int foreign_key(struct hil_jsonld *ld, const cJSON *s,
		       const struct hil_sensor_driver *drv)
{
	const struct hil_sensor_driver *const *d;
	const cJSON *c;

	cJSON_ArrayForEach(c, s)
	{
		if (hil_cfg_listed(drv->keys, c->string)) {
			continue;
		}
		for (d = hil_sensor_all(); *d != NULL; d++) {
			if (hil_cfg_listed((*d)->keys, c->string)) {
				return hil_jsonld_fail(
					ld, c,
					"sensor.%s: a setting of the %s sensor, but sensor.type is \"%s\"",
					c->string, (*d)->name, drv->name);
			}
		}
	}
	return HIL_OK;
}

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
 * The chip's address, in the range its address straps give (the driver's
 * addr_min..addr_max, e.g. 0x40..0x4F). Written as an integer, or as a hex
 * string because that is how datasheets and i2cdetect show it.
 */
static int get_address(struct hil_jsonld *ld, const cJSON *it, const char *path,
		       const struct hil_sensor_driver *drv, uint8_t *out)
{
	const char *s;
	long v = -1;
	char *end;

	if (cJSON_IsNumber(it)) {
		if (it->valuedouble >= drv->addr_min &&
		    it->valuedouble <= drv->addr_max &&
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
	if (v < drv->addr_min || v > drv->addr_max) {
		return hil_jsonld_fail(
			ld, it,
			"%s: expected an %s address from 0x%02X to 0x%02X, as an integer (%u) or a string (\"0x%02X\")",
			path, drv->chip, drv->addr_min, drv->addr_max,
			drv->addr_min, drv->addr_min);
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
	char forms[256];

	if (hil_i2c_spec_ok(bus)) {
		return HIL_OK;
	}
	hil_i2c_spec_forms(forms, sizeof(forms));
	return hil_jsonld_fail(
		ld, it, "sensor.bus: \"%s\" is not a bus spec: expected %s",
		hil_jsonld_show(sb, sizeof(sb), bus), forms);
}

/*
 * The whole section: the bus a configured sensor needs, then the driver's
 * own combinations.
 */
static int v_sensor_combination(struct hil_jsonld *ld, const cJSON *s,
				const struct hil_config *cfg,
				const struct hil_sensor_driver *drv)
{
	char examples[128];

	if (hil_sensor_find(cfg->sensor.type) != NULL &&
	    cfg->sensor.bus[0] == '\0') {
		hil_i2c_hw_examples(examples, sizeof(examples));
		return hil_jsonld_fail(
			ld, hil_jsonld_where(s, "bus", "type"),
			"sensor.bus: required when sensor.type is \"%s\" (e.g. %s)",
			cfg->sensor.type, examples);
	}
	return drv->check(ld, s, cfg);
}

/*
 * The section: the common keys here, the chip's through its driver. With
 * sensor.type "none" a section is still read and checked, as the default
 * sensor (the first of drivers.def) would check it, and any driver's keys
 * may stay: a child config turns off its base's sensor without deleting
 * the base's settings.
 */
int hil_cfg_v_sensor(struct hil_jsonld *ld, const cJSON *root,
		     struct hil_config *cfg)
{
	const struct hil_sensor_driver *const *d;
	const struct hil_sensor_driver *drv = NULL, *rules;
	const char *keys[KEYS_MAX];
	const cJSON *s, *it;
	int ret;

	all_keys(keys, KEYS_MAX);
	ret = hil_jsonld_section(ld, root, "sensor", keys, &s);
	if (ret != HIL_OK || s == NULL) {
		return ret;
	}
	ret = get_type(ld, s, cfg, &drv);
	if (ret == HIL_OK && drv != NULL) {
		ret = foreign_key(ld, s, drv);
	}
	if (ret != HIL_OK) {
		return ret;
	}
	rules = drv != NULL ? drv : hil_sensor_all()[0]; /* "none": default */
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
		ret = get_address(ld, it, "sensor.address", rules,
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
	for (d = hil_sensor_all(); *d != NULL && ret == HIL_OK; d++) {
		if (drv == NULL || *d == drv) {
			ret = (*d)->parse(ld, s, cfg);
		}
	}
	if (ret != HIL_OK) {
		return ret;
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
	return v_sensor_combination(ld, s, cfg, rules);
}
