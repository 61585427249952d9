/* sim: the simulated I2C bus with one INA219 model on it, the "sim:" backend (tests, and runs without hardware). */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"i2c-sim"

#include "i2c.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/err.h"
#include "util/log.h"
#include "drivers/sensor/ina219_model.h"

/*
 * Spec: "ina219@ADDR[,option...]" with options
 *   shunt=OHM         shunt resistor of the model (default 0.1)
 *   bus_v=V           bus voltage (default 3.3)
 *   idle_ma=MA        current outside active windows (default 10)
 *   active_ma=MA      current inside them (default 25)
 *   active=A-B[:C-D]  active windows in us since the bus was opened
 *   dead_after=N      NACK everything after N transactions (a dead sensor)
 */

struct sim {
	struct ina219_model *dev;
};

static int parse_double(const char *s, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	return (errno != 0 || end == s || *end != '\0') ? -1 : 0;
}

static int parse_windows(struct ina219_steps *st, const char *s)
{
	while (*s != '\0') {
		unsigned long long a, b;
		char *end;

		errno = 0;
		a = strtoull(s, &end, 10);
		if (errno != 0 || end == s || *end != '-') {
			return -1;
		}
		s = end + 1;
		b = strtoull(s, &end, 10);
		if (errno != 0 || end == s || b <= a ||
		    (*end != '\0' && *end != ':')) {
			return -1;
		}
		if (st->n >= INA219_STEPS_MAX) {
			return -1;
		}
		st->win[st->n].start_us = a;
		st->win[st->n].end_us = b;
		st->n++;
		s = *end == ':' ? end + 1 : end;
	}
	return 0;
}

/* One "key=value" option into the waveform or the fault settings. */
static int parse_option(const char *opt, struct ina219_steps *st, double *shunt,
			long *dead_after)
{
	const char *eq = strchr(opt, '=');
	const char *v;
	double d;
	char *end;

	if (eq == NULL) {
		return -1;
	}
	v = eq + 1;
#define KEY(k)                                                                 \
	((size_t)(eq - opt) == strlen(k) && strncmp(opt, k, strlen(k)) == 0)
	if (KEY("active")) {
		return parse_windows(st, v);
	}
	if (KEY("dead_after")) {
		errno = 0;
		*dead_after = strtol(v, &end, 10);
		return (errno != 0 || end == v || *end != '\0' ||
			*dead_after < 0)
			       ? -1
			       : 0;
	}
	if (parse_double(v, &d) != 0) {
		return -1;
	}
	if (KEY("shunt") && d > 0.0) {
		*shunt = d;
	} else if (KEY("bus_v") && d >= 0.0) {
		st->bus_v = d;
	} else if (KEY("idle_ma")) {
		st->idle_a = d / 1000.0;
	} else if (KEY("active_ma")) {
		st->active_a = d / 1000.0;
	} else {
		return -1;
	}
#undef KEY
	return 0;
}

static int sim_open(struct hil_i2c_bus *bus, const char *where)
{
	struct ina219_steps st = {3.3, 0.010, 0.025, 0.0, 0, 0, {{0, 0}}};
	double shunt = 0.1;
	long dead_after = -1, addr;
	char *copy, *opt, *save = NULL, *end;
	struct sim *s;
	int ret = HIL_ERR_ARG;

	if (strncmp(where, "ina219@", 7) != 0) {
		hil_err("%s: the simulated bus has an INA219 only "
			"(sim:ina219@0x40[,options])",
			hil_i2c_spec(bus));
		return HIL_ERR_ARG;
	}
	copy = strdup(where + 7);
	if (copy == NULL) {
		return HIL_ERR_NOMEM;
	}
	opt = strtok_r(copy, ",", &save);
	errno = 0;
	addr = opt != NULL ? strtol(opt, &end, 0) : -1;
	if (opt == NULL || errno != 0 || *end != '\0' || addr < 0x08 ||
	    addr > 0x77) {
		hil_err("%s: bad I2C address (7-bit, e.g. 0x40)",
			hil_i2c_spec(bus));
		goto out;
	}
	for (opt = strtok_r(NULL, ",", &save); opt != NULL;
	     opt = strtok_r(NULL, ",", &save)) {
		if (parse_option(opt, &st, &shunt, &dead_after) != 0) {
			hil_err("%s: bad option '%s' (shunt, bus_v, idle_ma, "
				"active_ma, active=A-B[:C-D], dead_after)",
				hil_i2c_spec(bus), opt);
			goto out;
		}
	}
	s = calloc(1, sizeof(*s));
	if (s == NULL) {
		ret = HIL_ERR_NOMEM;
		goto out;
	}
	s->dev = ina219_model_new((uint8_t)addr, shunt);
	if (s->dev == NULL) {
		free(s);
		ret = HIL_ERR_NOMEM;
		goto out;
	}
	ina219_model_set_steps(s->dev, &st);
	ina219_model_set_dead_after(s->dev, dead_after);
	hil_i2c_set_priv(bus, s);
	hil_dbg("%s: INA219 model at 0x%02lx, %.3f ohm", hil_i2c_spec(bus),
		addr, shunt);
	ret = HIL_OK;
out:
	free(copy);
	return ret;
}

static void sim_close(struct hil_i2c_bus *bus)
{
	struct sim *s = hil_i2c_priv(bus);

	if (s != NULL) {
		ina219_model_free(s->dev);
		free(s);
	}
	hil_i2c_set_priv(bus, NULL);
}

static int nack(struct hil_i2c_bus *bus, uint8_t addr, const char *what,
		size_t index, size_t count)
{
	if (index == (size_t)-1) {
		hil_err("%s: no ACK from 0x%02x for its address (%s)",
			hil_i2c_spec(bus), addr, what);
	} else {
		hil_err("%s: no ACK from 0x%02x for data byte %zu of %zu",
			hil_i2c_spec(bus), addr, index, count);
	}
	return HIL_ERR_IO;
}

/* The same sequence of bus events the ftdi backend clocks out. */
static int sim_xfer(struct hil_i2c_bus *bus, uint8_t addr, const uint8_t *w,
		    size_t wlen, uint8_t *r, size_t rlen)
{
	struct sim *s = hil_i2c_priv(bus);
	int ret = HIL_OK;
	size_t i;

	if (wlen > 0) {
		if (!ina219_model_i2c_start(s->dev, (uint8_t)(addr << 1))) {
			ret = nack(bus, addr, "write", (size_t)-1, 0);
			goto stop;
		}
		for (i = 0; i < wlen; i++) {
			if (!ina219_model_i2c_write(s->dev, w[i])) {
				ret = nack(bus, addr, "write", i, wlen);
				goto stop;
			}
		}
	}
	if (rlen > 0) {
		if (!ina219_model_i2c_start(s->dev, (uint8_t)(addr << 1 | 1))) {
			ret = nack(bus, addr, "read", (size_t)-1, 0);
			goto stop;
		}
		for (i = 0; i < rlen; i++) {
			r[i] = ina219_model_i2c_read(s->dev);
		}
	}
stop:
	ina219_model_i2c_stop(s->dev);
	return ret;
}

struct ina219_model *hil_i2c_sim_model(struct hil_i2c_bus *bus)
{
	struct sim *s;

	if (bus == NULL || strcmp(hil_i2c_type(bus), "sim") != 0) {
		return NULL;
	}
	s = hil_i2c_priv(bus);
	return s != NULL ? s->dev : NULL;
}

const struct hil_i2c_ops hil_i2c_sim_ops = {
	.name = "sim",
	.open = sim_open,
	.close = sim_close,
	.xfer = sim_xfer,
	.xfer_batch = NULL,
};
