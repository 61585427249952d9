/* sensor: turns the configuration's sensor section into an open I2C bus and a configured INA219, with messages that name the adapter and the address. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"sensor"

#include "sensor.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/err.h"
#include "drivers/i2c/i2c.h"
#include "util/log.h"
#include "ina219.h"
#include "ina219_model.h"

/* Power-on value of the configuration register (SBOS448 section 8.6.2.1). */
#define INA219_CONFIG_POR 0x399Fu
/* Largest calibration value the register holds with bit 0 clear. */
#define CAL_MAX		  65534.0

struct hil_sensor {
	struct hil_i2c_bus *bus; /* owned */
	struct ina219 *dev;	 /* owned */
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

/* Smallest 1, 2 or 5 x 10^n not below x (the datasheet's round LSB). */
static double round_up_125(double x)
{
	static const double m[] = {1.0, 2.0, 5.0, 10.0};
	double d = pow(10.0, floor(log10(x)));
	size_t i;

	for (i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		if (m[i] * d >= x * (1.0 - 1e-12)) {
			return m[i] * d;
		}
	}
	return 10.0 * d;
}

/*
 * The driver's settings from the config. Both ADCs get the same resolution
 * and averaging: the sampler needs shunt and bus from the same cycle.
 */
static void driver_config(const struct hil_config *cfg,
			  struct ina219_config *ic)
{
	double lsb, floor_lsb;

	ina219_config_default(ic);
	ic->addr = cfg->sensor.address;
	ic->shunt_ohm = cfg->sensor.shunt_ohm;
	ic->max_current_a = cfg->sensor.max_current_a;
	ic->bus_range_v = cfg->sensor.bus_range_v;
	ic->pga_div = cfg->sensor.pga_div;
	ic->bus_bits = cfg->sensor.adc_bits;
	ic->shunt_bits = cfg->sensor.adc_bits;
	ic->bus_samples = cfg->sensor.adc_samples;
	ic->shunt_samples = cfg->sensor.adc_samples;
	ic->mode = INA219_MODE_BOTH_CONTINUOUS;
	/*
	 * A small full scale (max_current_a x shunt_ohm below ~20 mV, say
	 * 0.1 A through 0.1 ohm) gives a round LSB whose calibration value
	 * does not fit 16 bits. The current register is then not the
	 * limit: the shunt ADC's 10 uV step is. So take the smallest round
	 * LSB that fits rather than refusing the setup; the energy figures
	 * come from the shunt voltage and do not depend on it.
	 */
	if (!(ic->shunt_ohm > 0.0) || !(ic->max_current_a > 0.0)) {
		return; /* ina219_calc() says what is wrong */
	}
	lsb = round_up_125(ic->max_current_a / 32768.0);
	if (0.04096 / (lsb * ic->shunt_ohm) > CAL_MAX) {
		floor_lsb = round_up_125(0.04096 / (CAL_MAX * ic->shunt_ohm));
		hil_dbg("current LSB %g A would need a calibration value above "
			"%.0f: using %g A",
			lsb, CAL_MAX, floor_lsb);
		ic->current_lsb_a = floor_lsb;
	}
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
static int bus_error(const char *spec, int ret, char *err, size_t errlen)
{
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
			"sim:ina219@ADDR[,options])",
			spec, type[0] != '\0' ? type : "I2C");
		return HIL_ERR_CONFIG;
	}
	if (ret == HIL_ERR_NA && strcmp(type, "ftdi") == 0) {
		set_err(err, errlen,
			"sensor.bus \"%s\": no FTDI adapter %.*s found on USB "
			"(plugged in? 'lsusb -d 0403:' lists FTDI devices; "
			"without USB access libusb finds none either)",
			spec, n, where);
		return HIL_ERR_NA;
	}
	if (ret == HIL_ERR_NA && strcmp(type, "linux") == 0) {
		set_err(err, errlen,
			"sensor.bus \"%s\": no I2C adapter %.*s (is the i2c-dev "
			"module loaded and the bus enabled, e.g. "
			"dtparam=i2c_arm=on on a Raspberry Pi?)",
			spec, n, where);
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

/* Read the configuration register once: does anything answer? */
static int first_contact(struct hil_i2c_bus *bus, uint8_t addr, uint16_t *val,
			 char *err, size_t errlen)
{
	uint8_t reg = INA219_REG_CONFIG, b[2] = {0, 0};
	int ret;

	ret = hil_i2c_xfer(bus, addr, &reg, 1, b, 2);
	if (ret == HIL_OK) {
		*val = (uint16_t)(b[0] << 8 | b[1]); /* big-endian */
		return HIL_OK;
	}
	if (ret == HIL_ERR_TIMEOUT) {
		set_err(err, errlen,
			"INA219 at 0x%02x on %s: the adapter did not answer "
			"(unplugged while in use?)",
			addr, hil_i2c_spec(bus));
		return ret;
	}
	set_err(err, errlen,
		"INA219 at 0x%02x on %s does not answer (no ACK: check the "
		"INA219's VCC and GND, SDA and SCL with their pull-ups, and "
		"that the A0/A1 straps give address 0x%02x; docs/wiring.md)",
		addr, hil_i2c_spec(bus), addr);
	return HIL_ERR_IO;
}

static void fill_info(struct hil_sensor *s, const struct hil_config *cfg)
{
	const struct ina219_setup *st = ina219_get_setup(s->dev);
	struct hil_sensor_info *i = &s->info;

	memset(i, 0, sizeof(*i));
	snprintf(i->type, sizeof(i->type), "ina219");
	snprintf(i->bus, sizeof(i->bus), "%s", hil_i2c_spec(s->bus));
	snprintf(i->bus_type, sizeof(i->bus_type), "%s", hil_i2c_type(s->bus));
	i->address = ina219_addr(s->dev);
	i->model = hil_i2c_sim_model(s->bus) != NULL;
	i->source = i->model ? "model" : "measured";
	i->shunt_ohm = ina219_shunt_ohm(s->dev);
	i->max_current_a = cfg->sensor.max_current_a;
	i->config_reg = st->config;
	i->cal_reg = st->cal;
	i->current_lsb_a = st->eff_lsb_a;
	i->power_lsb_w = st->power_lsb_w;
	i->pga_div = st->pga_div;
	i->shunt_range_v = st->shunt_range_v;
	i->bus_range_v = cfg->sensor.bus_range_v;
	i->adc_bits = cfg->sensor.adc_bits;
	i->adc_samples = cfg->sensor.adc_samples;
	i->cycle_us = st->cycle_us;
}

static int ina219_sensor_sample(void *dev, struct hil_sensor_sample *out)
{
	struct ina219_reading r;
	int ret;

	memset(out, 0, sizeof(*out));
	ret = ina219_sample(dev, &r);
	if (ret != HIL_OK) {
		return ret;
	}
	out->bus_mv = r.bus_mv;
	out->shunt_uv = r.shunt_uv;
	out->cnvr = r.cnvr;
	out->overflow = r.out_of_range;
	return HIL_OK;
}

static int ina219_sensor_load(void *model, int on)
{
	return ina219_model_load(model, on);
}

static void fill_source(struct hil_sensor *s)
{
	const struct ina219_setup *st = ina219_get_setup(s->dev);
	struct hil_sensor_source *src = &s->src;

	memset(src, 0, sizeof(*src));
	src->dev = s->dev;
	src->sample = ina219_sensor_sample;
	src->chip = "INA219";
	src->address = s->info.address;
	src->shunt_ohm = s->info.shunt_ohm;
	src->cycle_us = st->cycle_us;
	src->continuous = (st->config & 7u) == INA219_MODE_BOTH_CONTINUOUS;
	src->model = hil_i2c_sim_model(s->bus);
	src->load = src->model != NULL ? ina219_sensor_load : NULL;
}

/* Settings the driver needs that a config built by hand may lack. */
static int check_settings(const struct hil_config *cfg,
			  struct ina219_config *ic, char *err, size_t errlen)
{
	struct ina219_setup st;

	if (!hil_sensor_configured(cfg)) {
		set_err(err, errlen,
			"no sensor configured (sensor.type is \"none\"): add a "
			"\"sensor\" section, see docs/wiring.md");
		return HIL_ERR_NA;
	}
	if (strcmp(cfg->sensor.type, "ina219") != 0) {
		set_err(err, errlen,
			"sensor.type \"%s\": not a sensor hilrun knows (ina219)",
			cfg->sensor.type);
		return HIL_ERR_CONFIG;
	}
	driver_config(cfg, ic);
	if (ina219_calc(ic, &st) != HIL_OK) {
		set_err(err, errlen,
			"sensor: settings the INA219 cannot take (shunt_ohm "
			"%g, max_current_a %g, pga_div %u, adc %u bit x%u: "
			"the message above says which)",
			ic->shunt_ohm, ic->max_current_a, ic->pga_div,
			ic->bus_bits, ic->bus_samples);
		return HIL_ERR_CONFIG;
	}
	return HIL_OK;
}

int hil_sensor_open_bus(const struct hil_config *cfg, struct hil_i2c_bus *bus,
			struct hil_sensor **out, char *err, size_t errlen)
{
	struct ina219_config ic;
	struct hil_sensor *s;
	uint16_t por = 0;
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
	ret = check_settings(cfg, &ic, err, errlen);
	if (ret != HIL_OK) {
		goto err_bus;
	}
	ret = first_contact(bus, ic.addr, &por, err, errlen);
	if (ret != HIL_OK) {
		goto err_bus;
	}
	s = calloc(1, sizeof(*s));
	if (s == NULL) {
		set_err(err, errlen, "sensor: out of memory");
		ret = HIL_ERR_NOMEM;
		goto err_bus;
	}
	s->bus = bus;
	ret = ina219_open(&s->dev, bus, &ic);
	if (ret != HIL_OK) {
		set_err(err, errlen,
			"INA219 at 0x%02x on %s answers (configuration 0x%04x) "
			"but did not take its setup: %s (the message above "
			"says what was written and read back)",
			ic.addr, hil_i2c_spec(bus), por, hil_strerror(ret));
		goto err_free;
	}
	fill_info(s, cfg);
	fill_source(s);
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
	struct ina219_config ic;
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
	ret = check_settings(cfg, &ic, err, errlen);
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
		return bus_error(cfg->sensor.bus, ret, err, errlen);
	}
	return hil_sensor_open_bus(cfg, bus, out, err, errlen);
}

void hil_sensor_close(struct hil_sensor *s)
{
	if (s == NULL) {
		return;
	}
	ina219_close(s->dev);
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
	const struct hil_sensor_info *i;

	if (s == NULL) {
		return snprintf(buf, len, "no sensor");
	}
	i = &s->info;
	return snprintf(buf, len,
			"INA219 at 0x%02x on %s (%s): shunt %g ohm, max %g A, "
			"+-%g mV, bus %u V, config 0x%04x, cal %u, LSB %.4g "
			"uA, %u-bit x%u, cycle %u us",
			i->address, i->bus, i->source, i->shunt_ohm,
			i->max_current_a, i->shunt_range_v * 1e3,
			i->bus_range_v, i->config_reg, i->cal_reg,
			i->current_lsb_a * 1e6, i->adc_bits, i->adc_samples,
			i->cycle_us);
}

int hil_sensor_probe(const struct hil_config *cfg, char *detail, size_t len)
{
	struct ina219_config ic;
	struct hil_i2c_bus *bus = NULL;
	uint16_t val = 0;
	int ret;

	set_err(detail, len, "%s", "");
	if (cfg == NULL) {
		set_err(detail, len, "no configuration given");
		return HIL_ERR_ARG;
	}
	ret = check_settings(cfg, &ic, detail, len);
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
		return bus_error(cfg->sensor.bus, ret, detail, len);
	}
	ret = first_contact(bus, ic.addr, &val, detail, len);
	if (ret == HIL_OK) {
		set_err(detail, len,
			"INA219 at 0x%02x on %s answers: configuration "
			"0x%04x%s%s",
			ic.addr, cfg->sensor.bus, val,
			val == INA219_CONFIG_POR ? " (power-on default)" : "",
			hil_i2c_sim_model(bus) != NULL ? " (simulated)" : "");
	}
	hil_i2c_close(bus);
	return ret;
}
