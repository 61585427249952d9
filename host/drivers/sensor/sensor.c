/* sensor: turns the configuration's sensor section into an open I2C bus and the configured chip on it, through the chip's driver (driver.h), with messages that name the adapter and the address. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"sensor"

#include "sensor.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/err.h"
#include "drivers/i2c/i2c.h"
#include "util/log.h"
#include "util/util.h"
#include "driver.h"

struct hil_sensor {
	const struct hil_sensor_driver *drv;
	struct hil_i2c_bus *bus; /* owned */
	void *dev;		 /* owned: drv->close() */
	struct hil_sensor_info info;
	struct hil_sensor_source src;
};

static void set_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err == NULL || errlen == 0) {
		return;
	}
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

int hil_sensor_configured(const struct hil_config *cfg)
{
	return cfg != NULL && cfg->sensor.type[0] != '\0' &&
	       strcmp(cfg->sensor.type, "none") != 0;
}

int hil_sensor_check_range(struct hil_jsonld *ld, const cJSON *s,
			   const struct hil_config *cfg, double fs_v,
			   const char *beyond)
{
	double vmax = cfg->sensor.max_current_a * cfg->sensor.shunt_ohm;

	if (!(vmax > fs_v * (1.0 + 1e-9))) {
		return HIL_OK;
	}
	return hil_jsonld_fail(
		ld, hil_jsonld_where(s, "max_current_a", "shunt_ohm"),
		"sensor.max_current_a: %g A through %g ohm is %g mV, beyond %s",
		cfg->sensor.max_current_a, cfg->sensor.shunt_ohm, vmax * 1e3,
		beyond);
}

double hil_sensor_fit_lsb(double max_current_a, double shunt_ohm,
			  double cal_num, double cal_max)
{
	double lsb, floor_lsb;

	if (!(shunt_ohm > 0.0) || !(max_current_a > 0.0)) {
		return 0.0; /* the chip driver says what is wrong */
	}
	lsb = hil_round_125(max_current_a / 32768.0);
	if (cal_num / (lsb * shunt_ohm) <= cal_max) {
		return 0.0;
	}
	floor_lsb = hil_round_125(cal_num / (cal_max * shunt_ohm));
	hil_dbg("current LSB %g A would need a calibration value above %.0f: "
		"using %g A",
		lsb, cal_max, floor_lsb);
	return floor_lsb;
}

/* The backend name of a spec: "ftdi", "linux", "sim" or "" if none. */
static void bus_type_of(const char *spec, char *buf, size_t len)
{
	const char *colon = strchr(spec, ':');
	size_t n = colon != NULL ? (size_t)(colon - spec) : 0;

	if (n >= len) {
		n = 0;
	}
	memcpy(buf, spec, n);
	buf[n] = '\0';
}

/*
 * Why the bus did not open, naming the adapter looked for. The backend has
 * logged its own detail (libftdi's or the kernel's text) already.
 */
static int bus_error(const struct hil_config *cfg, int ret, char *err,
		     size_t errlen)
{
	const char *spec = cfg->sensor.bus;
	const struct hil_i2c_ops *ops = hil_i2c_backend(spec);
	char type[16];
	const char *where = strchr(spec, ':');
	int n;

	bus_type_of(spec, type, sizeof(type));
	where = where != NULL ? where + 1 : "";
	n = (int)strcspn(where, ",");
	if (ret == HIL_ERR_ARG) {
		set_err(err, errlen,
			"sensor.bus \"%s\": not a bus spec the %s backend takes "
			"(expected ftdi:VID:PID[:SERIAL][,100k], "
			"ftdi:desc=TEXT, linux:/dev/i2c-N or "
			"sim:%s@ADDR[,options])",
			spec, type[0] != '\0' ? type : "I2C", cfg->sensor.type);
		return HIL_ERR_CONFIG;
	}
	/* What was looked for, as the bus driver says it. */
	if (ret == HIL_ERR_NA && ops != NULL && ops->missing != NULL) {
		set_err(err, errlen, "sensor.bus \"%s\": %s %.*s %s", spec,
			ops->missing, n, where, ops->missing_hint);
		return HIL_ERR_NA;
	}
	if (ret == HIL_ERR_NA) {
		set_err(err, errlen, "sensor.bus \"%s\": no such adapter",
			spec);
		return HIL_ERR_NA;
	}
	if (ret == HIL_ERR_NOMEM) {
		set_err(err, errlen, "sensor.bus \"%s\": out of memory", spec);
		return ret;
	}
	set_err(err, errlen,
		"sensor.bus \"%s\": the adapter %.*s is there but could not be "
		"opened or set up: %s (another program may hold it, or this "
		"user may not use it; the message above says which)",
		spec, n, where, hil_strerror(ret));
	return ret;
}

/* Read the contact register once: does anything answer? */
static int first_contact(const struct hil_sensor_driver *drv,
			 struct hil_i2c_bus *bus, uint8_t addr, uint16_t *val,
			 char *err, size_t errlen)
{
	uint8_t reg = drv->contact_reg, b[2] = {0, 0};
	int ret;

	ret = hil_i2c_xfer(bus, addr, &reg, 1, b, 2);
	if (ret == HIL_OK) {
		*val = (uint16_t)(b[0] << 8 | b[1]); /* big-endian */
		return HIL_OK;
	}
	if (ret == HIL_ERR_TIMEOUT) {
		set_err(err, errlen,
			"%s at 0x%02x on %s: the adapter did not answer "
			"(unplugged while in use?)",
			drv->chip, addr, hil_i2c_spec(bus));
		return ret;
	}
	set_err(err, errlen,
		"%s at 0x%02x on %s does not answer (no ACK: check the "
		"%s's VCC and GND, SDA and SCL with their pull-ups, and "
		"that the A0/A1 straps give address 0x%02x; docs/wiring.md)",
		drv->chip, addr, hil_i2c_spec(bus), drv->chip, addr);
	return HIL_ERR_IO;
}

static void fill_info(struct hil_sensor *s, const struct hil_config *cfg)
{
	struct hil_sensor_info *i = &s->info;

	memset(i, 0, sizeof(*i));
	snprintf(i->type, sizeof(i->type), "%s", s->drv->name);
	i->chip = s->drv->chip;
	snprintf(i->bus, sizeof(i->bus), "%s", hil_i2c_spec(s->bus));
	snprintf(i->bus_type, sizeof(i->bus_type), "%s", hil_i2c_type(s->bus));
	i->address = cfg->sensor.address;
	i->model = s->src.model != NULL;
	i->source = i->model ? "model" : "measured";
	i->shunt_ohm = s->src.shunt_ohm;
	i->max_current_a = cfg->sensor.max_current_a;
	s->drv->describe(s->dev, cfg, i);
}

static void fill_source(struct hil_sensor *s, const struct hil_config *cfg)
{
	const struct hil_i2c_sim_chip *sim = hil_i2c_sim_chip(s->bus);

	memset(&s->src, 0, sizeof(s->src));
	s->drv->source(s->dev, &s->src);
	s->src.chip = s->drv->chip;
	s->src.address = cfg->sensor.address;
	/* Whatever chip the simulated bus hosts, its readings are a model. */
	s->src.model = hil_i2c_sim_model(s->bus, NULL);
	s->src.load = sim != NULL ? sim->load : NULL;
}

/*
 * The driver of cfg's sensor, and whether it can take cfg's settings
 * (a config built by hand may lack them).
 */
static int check_settings(const struct hil_config *cfg,
			  const struct hil_sensor_driver **drv, char *err,
			  size_t errlen)
{
	char names[256], why[512] = "";
	int ret;

	if (!hil_sensor_configured(cfg)) {
		set_err(err, errlen,
			"no sensor configured (sensor.type is \"none\"): add a "
			"\"sensor\" section, see docs/wiring.md");
		return HIL_ERR_NA;
	}
	*drv = hil_sensor_find(cfg->sensor.type);
	if (*drv == NULL) {
		hil_sensor_names(names, sizeof(names));
		set_err(err, errlen,
			"sensor.type \"%s\": not a sensor hilrun knows (%s)",
			cfg->sensor.type, names);
		return HIL_ERR_CONFIG;
	}
	ret = (*drv)->settings(cfg, why, sizeof(why));
	if (ret != HIL_OK) {
		set_err(err, errlen, "%s", why);
	}
	return ret;
}

int hil_sensor_open_bus(const struct hil_config *cfg, struct hil_i2c_bus *bus,
			struct hil_sensor **out, char *err, size_t errlen)
{
	const struct hil_sensor_driver *drv = NULL;
	struct hil_sensor *s;
	uint16_t por = 0;
	uint8_t addr;
	int ret;

	set_err(err, errlen, "%s", "");
	if (out != NULL) {
		*out = NULL;
	}
	if (cfg == NULL || bus == NULL || out == NULL) {
		set_err(err, errlen, "sensor: no configuration or bus given");
		hil_i2c_close(bus);
		return HIL_ERR_ARG;
	}
	ret = check_settings(cfg, &drv, err, errlen);
	if (ret != HIL_OK) {
		goto err_bus;
	}
	addr = cfg->sensor.address;
	ret = first_contact(drv, bus, addr, &por, err, errlen);
	if (ret != HIL_OK) {
		goto err_bus;
	}
	s = calloc(1, sizeof(*s));
	if (s == NULL) {
		set_err(err, errlen, "sensor: out of memory");
		ret = HIL_ERR_NOMEM;
		goto err_bus;
	}
	s->drv = drv;
	s->bus = bus;
	ret = drv->open(&s->dev, bus, cfg);
	if (ret == HIL_ERR_NA) {
		set_err(err, errlen,
			"%s at 0x%02x on %s answers (%s 0x%04x) but is not an "
			"%s (the message above says what it reads)",
			drv->chip, addr, hil_i2c_spec(bus), drv->contact_name,
			por, drv->chip);
		goto err_free;
	}
	if (ret != HIL_OK) {
		set_err(err, errlen,
			"%s at 0x%02x on %s answers (%s 0x%04x) but did not take "
			"its setup: %s (the message above says what was "
			"written and read back)",
			drv->chip, addr, hil_i2c_spec(bus), drv->contact_name,
			por, hil_strerror(ret));
		goto err_free;
	}
	fill_source(s, cfg);
	fill_info(s, cfg);
	{
		char line[512];

		/* Callers print the summary where it belongs (a report, a
		 * header); the log has it at -v. */
		hil_sensor_summary(s, line, sizeof(line));
		hil_dbg("%s", line);
	}
	*out = s;
	return HIL_OK;

err_free:
	free(s);
err_bus:
	hil_i2c_close(bus);
	return ret;
}

int hil_sensor_open(const struct hil_config *cfg, struct hil_sensor **out,
		    char *err, size_t errlen)
{
	const struct hil_sensor_driver *drv = NULL;
	struct hil_i2c_bus *bus = NULL;
	int ret;

	set_err(err, errlen, "%s", "");
	if (out != NULL) {
		*out = NULL;
	}
	if (cfg == NULL || out == NULL) {
		set_err(err, errlen, "sensor: no configuration given");
		return HIL_ERR_ARG;
	}
	/* Settings first: a typo costs no USB round trip. */
	ret = check_settings(cfg, &drv, err, errlen);
	if (ret != HIL_OK) {
		return ret;
	}
	if (cfg->sensor.bus[0] == '\0') {
		set_err(err, errlen,
			"sensor.bus: required when sensor.type is \"%s\"",
			cfg->sensor.type);
		return HIL_ERR_CONFIG;
	}
	ret = hil_i2c_open(&bus, cfg->sensor.bus);
	if (ret != HIL_OK) {
		return bus_error(cfg, ret, err, errlen);
	}
	return hil_sensor_open_bus(cfg, bus, out, err, errlen);
}

void hil_sensor_close(struct hil_sensor *s)
{
	if (s == NULL) {
		return;
	}
	s->drv->close(s->dev);
	hil_i2c_close(s->bus);
	free(s);
}

const struct hil_sensor_source *hil_sensor_source(const struct hil_sensor *s)
{
	return s != NULL ? &s->src : NULL;
}

struct hil_i2c_bus *hil_sensor_bus(const struct hil_sensor *s)
{
	return s != NULL ? s->bus : NULL;
}

void *hil_sensor_model(const struct hil_sensor *s)
{
	return s != NULL ? s->src.model : NULL;
}

int hil_sensor_is_model(const struct hil_sensor *s)
{
	return s != NULL && s->info.model;
}

int hil_sensor_read(struct hil_sensor *s, struct hil_sensor_reading *r)
{
	struct hil_sensor_sample x;
	int ret;

	if (s == NULL || r == NULL) {
		return HIL_ERR_ARG;
	}
	memset(r, 0, sizeof(*r));
	ret = s->src.sample(s->src.dev, &x);
	if (ret != HIL_OK) {
		return ret;
	}
	r->bus_mv = x.bus_mv;
	r->shunt_uv = x.shunt_uv;
	r->cnvr = x.cnvr;
	r->out_of_range = x.overflow;
	r->current_ua = x.shunt_uv / s->info.shunt_ohm;
	r->power_uw = r->current_ua * x.bus_mv / 1e3;
	return HIL_OK;
}

void hil_sensor_describe(const struct hil_sensor *s,
			 struct hil_sensor_info *out)
{
	if (out == NULL) {
		return;
	}
	if (s == NULL) {
		memset(out, 0, sizeof(*out));
		return;
	}
	*out = s->info;
}

int hil_sensor_summary(const struct hil_sensor *s, char *buf, size_t len)
{
	if (s == NULL) {
		return snprintf(buf, len, "no sensor");
	}
	return s->drv->summary(&s->info, buf, len);
}

int hil_sensor_probe(const struct hil_config *cfg, char *detail, size_t len)
{
	const struct hil_sensor_driver *drv = NULL;
	struct hil_i2c_bus *bus = NULL;
	char more[256] = "";
	uint16_t val = 0;
	int ret;

	set_err(detail, len, "%s", "");
	if (cfg == NULL) {
		set_err(detail, len, "no configuration given");
		return HIL_ERR_ARG;
	}
	ret = check_settings(cfg, &drv, detail, len);
	if (ret != HIL_OK) {
		return ret;
	}
	if (cfg->sensor.bus[0] == '\0') {
		set_err(detail, len,
			"sensor.bus: required when sensor.type is \"%s\"",
			cfg->sensor.type);
		return HIL_ERR_CONFIG;
	}
	ret = hil_i2c_open(&bus, cfg->sensor.bus);
	if (ret != HIL_OK) {
		return bus_error(cfg, ret, detail, len);
	}
	ret = first_contact(drv, bus, cfg->sensor.address, &val, detail, len);
	if (ret == HIL_OK) {
		if (drv->probe != NULL) {
			ret = drv->probe(bus, cfg->sensor.address, val, more,
					 sizeof(more));
		}
		set_err(detail, len,
			"%s at 0x%02x on %s answers: %s 0x%04x%s%s%s",
			drv->chip, cfg->sensor.address, cfg->sensor.bus,
			drv->contact_name, val,
			val == drv->contact_por ? " (power-on default)" : "",
			more,
			hil_i2c_sim_chip(bus) != NULL ? " (simulated)" : "");
	}
	hil_i2c_close(bus);
	return ret;
}
