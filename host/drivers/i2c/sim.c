/* sim: the simulated I2C bus with one chip's register model on it (any sensor driver's twin), the "sim:" backend (tests, and runs without hardware). */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"i2c-sim"

#include "i2c.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/err.h"
#include "util/log.h"

/*
 * Spec: "CHIP@ADDR[,option...]", CHIP a sensor driver's name ("ina219",
 * hil_i2c_sim_chip_find()), with options
 *   shunt=OHM         shunt resistor of the model (default 0.1)
 *   bus_v=V           bus voltage (default 3.3)
 *   idle_ma=MA        current outside active windows (default 10)
 *   active_ma=MA      current inside them (default 25)
 *   active=A-B[:C-D]  active windows in us since the bus was opened
 *   dead_after=N      NACK everything after N transactions (a dead sensor)
 */

struct sim {
	const struct hil_i2c_sim_chip *chip;
	void *dev; /* the chip's model */
};

static int parse_double(const char *s, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	return (errno != 0 || end == s || *end != '\0') ? -1 : 0;
}

static int parse_windows(struct hil_i2c_sim_opts *st, const char *s)
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
		if (st->n >= HIL_I2C_SIM_WINDOWS) {
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
static int parse_option(const char *opt, struct hil_i2c_sim_opts *st)
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
		st->dead_after = strtol(v, &end, 10);
		return (errno != 0 || end == v || *end != '\0' ||
			st->dead_after < 0)
			       ? -1
			       : 0;
	}
	if (parse_double(v, &d) != 0) {
		return -1;
	}
	if (KEY("shunt") && d > 0.0) {
		st->shunt_ohm = d;
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
	struct hil_i2c_sim_opts o;
	const struct hil_i2c_sim_chip *chip = NULL;
	const char *at = strchr(where, '@');
	char *copy, *opt, *save = NULL, *end, names[128];
	struct sim *s;
	long addr;
	int ret = HIL_ERR_ARG;

	memset(&o, 0, sizeof(o));
	o.shunt_ohm = 0.1;
	o.bus_v = 3.3;
	o.idle_a = 0.010;
	o.active_a = 0.025;
	o.dead_after = -1;
	copy = strdup(where);
	if (copy == NULL) {
		return HIL_ERR_NOMEM;
	}
	if (at != NULL) {
		copy[at - where] = '\0';
		chip = hil_i2c_sim_chip_find(copy);
	}
	if (chip == NULL) {
		hil_i2c_sim_chip_names(names, sizeof(names));
		hil_err("%s: the simulated bus hosts %s "
			"(sim:CHIP@0x40[,options])",
			hil_i2c_spec(bus), names);
		goto out;
	}
	opt = strtok_r(copy + (at - where) + 1, ",", &save);
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
		if (parse_option(opt, &o) != 0) {
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
	s->chip = chip;
	s->dev = chip->create(chip, (uint8_t)addr, &o);
	if (s->dev == NULL) {
		free(s);
		ret = HIL_ERR_NOMEM;
		goto out;
	}
	hil_i2c_set_priv(bus, s);
	hil_dbg("%s: %s model at 0x%02lx, %.3f ohm", hil_i2c_spec(bus),
		chip->name, addr, o.shunt_ohm);
	ret = HIL_OK;
out:
	free(copy);
	return ret;
}

static void sim_close(struct hil_i2c_bus *bus)
{
	struct sim *s = hil_i2c_priv(bus);

	if (s != NULL) {
		s->chip->destroy(s->dev);
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
		if (!s->chip->start(s->dev, (uint8_t)(addr << 1))) {
			ret = nack(bus, addr, "write", (size_t)-1, 0);
			goto stop;
		}
		for (i = 0; i < wlen; i++) {
			if (!s->chip->write(s->dev, w[i])) {
				ret = nack(bus, addr, "write", i, wlen);
				goto stop;
			}
		}
	}
	if (rlen > 0) {
		if (!s->chip->start(s->dev, (uint8_t)(addr << 1 | 1))) {
			ret = nack(bus, addr, "read", (size_t)-1, 0);
			goto stop;
		}
		for (i = 0; i < rlen; i++) {
			r[i] = s->chip->read(s->dev);
		}
	}
stop:
	s->chip->stop(s->dev);
	return ret;
}

static struct sim *sim_of(struct hil_i2c_bus *bus)
{
	if (bus == NULL || strcmp(hil_i2c_type(bus), "sim") != 0) {
		return NULL;
	}
	return hil_i2c_priv(bus);
}

const struct hil_i2c_sim_chip *hil_i2c_sim_chip(struct hil_i2c_bus *bus)
{
	struct sim *s = sim_of(bus);

	return s != NULL ? s->chip : NULL;
}

void *hil_i2c_sim_model(struct hil_i2c_bus *bus, const char *chip)
{
	struct sim *s = sim_of(bus);

	if (s == NULL || (chip != NULL && strcmp(s->chip->name, chip) != 0)) {
		return NULL;
	}
	return s->dev;
}

const struct hil_i2c_ops hil_i2c_sim_ops = {
	.name = "sim",
	.spec_form = "sim:...",
	.forms = "sim:ina219@ADDR",
	.example = "sim:ina219@0x40",
	.simulated = 1,
	.open = sim_open,
	.close = sim_close,
	.xfer = sim_xfer,
	.xfer_batch = NULL,
};
