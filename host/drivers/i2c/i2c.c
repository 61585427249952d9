/* i2c: opening a bus driver (drivers.def) by its spec's prefix, the bus lock and counters, and the generic calls. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"i2c"

#include "i2c.h"

#include <pthread.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "util/err.h"
#include "util/log.h"

struct hil_i2c_bus {
	const struct hil_i2c_ops *ops;
	void *priv;
	char *spec;
	pthread_mutex_t lock; /* one transaction at a time, and the stats */
	struct hil_i2c_stats stats;
};

void *hil_i2c_priv(const struct hil_i2c_bus *bus)
{
	return bus->priv;
}

void hil_i2c_set_priv(struct hil_i2c_bus *bus, void *priv)
{
	bus->priv = priv;
}

struct hil_i2c_stats *hil_i2c_stats_mut(struct hil_i2c_bus *bus)
{
	return &bus->stats;
}

int hil_i2c_alloc(struct hil_i2c_bus **out, const struct hil_i2c_ops *ops,
		  const char *spec)
{
	struct hil_i2c_bus *bus;

	if (out == NULL || ops == NULL || spec == NULL) {
		return HIL_ERR_ARG;
	}
	*out = NULL;
	bus = calloc(1, sizeof(*bus));
	if (bus == NULL) {
		goto err_nomem;
	}
	bus->spec = strdup(spec);
	if (bus->spec == NULL) {
		goto err_free;
	}
	if (pthread_mutex_init(&bus->lock, NULL) != 0) {
		goto err_spec;
	}
	bus->ops = ops;
	*out = bus;
	return HIL_OK;

err_spec:
	free(bus->spec);
err_free:
	free(bus);
err_nomem:
	hil_err("%s: no memory for the bus", spec);
	return HIL_ERR_NOMEM;
}

const struct hil_i2c_ops *hil_i2c_backend(const char *spec)
{
	const struct hil_i2c_ops *const *backends = hil_i2c_all();
	const char *colon = spec != NULL ? strchr(spec, ':') : NULL;
	size_t i, n = colon != NULL ? (size_t)(colon - spec) : 0;

	for (i = 0; n > 0 && backends[i] != NULL; i++) {
		if (strlen(backends[i]->name) == n &&
		    strncmp(backends[i]->name, spec, n) == 0) {
			return backends[i];
		}
	}
	return NULL;
}

int hil_i2c_spec_ok(const char *spec)
{
	const struct hil_i2c_ops *ops = hil_i2c_backend(spec);
	const char *where;

	if (ops == NULL) {
		return 0;
	}
	where = strchr(spec, ':') + 1;
	if (ops->where_starts != NULL &&
	    strncmp(where, ops->where_starts, strlen(ops->where_starts)) != 0) {
		return 0;
	}
	return where[ops->where_starts != NULL ? strlen(ops->where_starts)
					       : 0] != '\0';
}

int hil_i2c_job_ok(const char *spec, const char **rule)
{
	const struct hil_i2c_ops *ops = hil_i2c_backend(spec);

	*rule = "";
	if (ops == NULL || ops->job_ok == NULL ||
	    ops->job_ok(strchr(spec, ':') + 1)) {
		return 1;
	}
	*rule = ops->job_rule;
	return 0;
}

/* What of a bus a message lists. */
enum bus_field { F_SPEC_FORM, F_FORMS, F_EXAMPLE };

/*
 * One field of each bus (of each that reaches hardware, with hw_only),
 * for a message: quoted and as "a, b or c" (listing), else as "a, b, c".
 */
static void join_buses(char *buf, size_t len, enum bus_field field, int hw_only,
		       int listing)
{
	const struct hil_i2c_ops *const *backends = hil_i2c_all();
	size_t i, n = 0, k = 0, at = 0;

	if (len == 0) {
		return;
	}
	for (i = 0; backends[i] != NULL; i++) {
		n += !(hw_only && backends[i]->simulated);
	}
	buf[0] = '\0';
	for (i = 0; backends[i] != NULL && at < len; i++) {
		const struct hil_i2c_ops *o = backends[i];
		const char *v = field == F_SPEC_FORM ? o->spec_form
				: field == F_FORMS   ? o->forms
						     : o->example;
		const char *sep = k == 0		  ? ""
				  : !listing || k + 1 < n ? ", "
							  : " or ";
		int w;

		if (hw_only && o->simulated) {
			continue;
		}
		w = snprintf(buf + at, len - at, listing ? "%s\"%s\"" : "%s%s",
			     sep, v);
		if (w < 0) {
			break;
		}
		at += (size_t)w;
		k++;
	}
}

void hil_i2c_spec_forms(char *buf, size_t len)
{
	join_buses(buf, len, F_SPEC_FORM, 0, 1);
}

void hil_i2c_hw_examples(char *buf, size_t len)
{
	join_buses(buf, len, F_EXAMPLE, 1, 1);
}

int hil_i2c_open(struct hil_i2c_bus **out, const char *spec)
{
	const struct hil_i2c_ops *ops = NULL;
	struct hil_i2c_bus *bus;
	const char *colon;
	char msg[256];
	int ret;

	if (out == NULL) {
		return HIL_ERR_ARG;
	}
	*out = NULL;
	if (spec == NULL || spec[0] == '\0') {
		join_buses(msg, sizeof(msg), F_EXAMPLE, 0, 0);
		hil_err("no I2C bus given (e.g. %s)", msg);
		return HIL_ERR_ARG;
	}
	colon = strchr(spec, ':');
	ops = hil_i2c_backend(spec);
	if (ops == NULL) {
		join_buses(msg, sizeof(msg), F_FORMS, 0, 0);
		hil_err("'%s': unknown I2C bus (%s)", spec, msg);
		return HIL_ERR_ARG;
	}
	ret = hil_i2c_alloc(&bus, ops, spec);
	if (ret != HIL_OK) {
		return ret;
	}
	ret = ops->open(bus, colon + 1);
	if (ret != HIL_OK) {
		hil_i2c_close(bus);
		return ret;
	}
	*out = bus;
	return HIL_OK;
}

void hil_i2c_close(struct hil_i2c_bus *bus)
{
	if (bus == NULL) {
		return;
	}
	if (bus->ops->close != NULL) {
		bus->ops->close(bus);
	}
	pthread_mutex_destroy(&bus->lock);
	free(bus->spec);
	free(bus);
}

static int check_msg(const struct hil_i2c_bus *bus, const struct hil_i2c_msg *m)
{
	if ((m->w == NULL && m->wlen > 0) || (m->r == NULL && m->rlen > 0) ||
	    (m->wlen == 0 && m->rlen == 0) || m->addr > 0x7f) {
		hil_err("%s: bad transaction for address 0x%02x", bus->spec,
			m->addr);
		return HIL_ERR_ARG;
	}
	return HIL_OK;
}

int hil_i2c_xfer(struct hil_i2c_bus *bus, uint8_t addr, const uint8_t *w,
		 size_t wlen, uint8_t *r, size_t rlen)
{
	struct hil_i2c_msg m = {addr, w, wlen, r, rlen};
	int ret;

	if (bus == NULL) {
		return HIL_ERR_ARG;
	}
	ret = check_msg(bus, &m);
	if (ret != HIL_OK) {
		return ret;
	}
	pthread_mutex_lock(&bus->lock);
	bus->stats.calls++;
	bus->stats.transactions++;
	ret = bus->ops->xfer(bus, addr, w, wlen, r, rlen);
	if (ret != HIL_OK) {
		bus->stats.errors++;
	}
	pthread_mutex_unlock(&bus->lock);
	return ret;
}

int hil_i2c_xfer_batch(struct hil_i2c_bus *bus, const struct hil_i2c_msg *m,
		       size_t n)
{
	size_t i;
	int ret = HIL_OK;

	if (bus == NULL || (m == NULL && n > 0)) {
		return HIL_ERR_ARG;
	}
	for (i = 0; i < n; i++) {
		ret = check_msg(bus, &m[i]);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	if (n == 0) {
		return HIL_OK;
	}
	pthread_mutex_lock(&bus->lock);
	bus->stats.calls++;
	bus->stats.transactions += n;
	if (bus->ops->xfer_batch != NULL) {
		ret = bus->ops->xfer_batch(bus, m, n);
	} else {
		for (i = 0; i < n && ret == HIL_OK; i++) {
			ret = bus->ops->xfer(bus, m[i].addr, m[i].w, m[i].wlen,
					     m[i].r, m[i].rlen);
		}
	}
	if (ret != HIL_OK) {
		bus->stats.errors++;
	}
	pthread_mutex_unlock(&bus->lock);
	return ret;
}

int hil_i2c_get_stats(struct hil_i2c_bus *bus, struct hil_i2c_stats *out)
{
	if (bus == NULL || out == NULL) {
		return HIL_ERR_ARG;
	}
	pthread_mutex_lock(&bus->lock);
	*out = bus->stats;
	pthread_mutex_unlock(&bus->lock);
	return HIL_OK;
}

const char *hil_i2c_spec(const struct hil_i2c_bus *bus)
{
	return bus != NULL ? bus->spec : "(no bus)";
}

const char *hil_i2c_type(const struct hil_i2c_bus *bus)
{
	return bus != NULL ? bus->ops->name : "(no bus)";
}
