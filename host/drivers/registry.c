/* registry: the tables of drivers built from drivers.def (boards, flashers, links, I2C buses, sensors), and the lookups by name the core uses instead of naming a driver (the sim I2C bus finds its chips' models through the sensor table). */
#include <stdio.h>
#include <string.h>

#include "drivers/board/board.h"
#include "drivers/flasher/flasher.h"
#include "drivers/i2c/i2c.h"
#include "drivers/link/link.h"
#include "drivers/sensor/driver.h"

/* Each list below takes its kind of line and ignores the others. */
#define HIL_BOARD(n)
#define HIL_FLASHER(n)
#define HIL_LINK(n)
#define HIL_I2C_BUS(n)
#define HIL_SENSOR(n)

#undef HIL_BOARD
#define HIL_BOARD(n) extern const struct hil_board_driver hil_board_##n;
#include "drivers.def"
#undef HIL_BOARD
#define HIL_BOARD(n)
#undef HIL_FLASHER
#define HIL_FLASHER(n)                                                         \
	extern const struct hil_flasher_ops hil_flasher_##n##_ops;
#include "drivers.def"
#undef HIL_FLASHER
#define HIL_FLASHER(n)
#undef HIL_LINK
#define HIL_LINK(n) extern const struct hil_link_ops hil_link_##n##_ops;
#include "drivers.def"
#undef HIL_LINK
#define HIL_LINK(n)
#undef HIL_I2C_BUS
#define HIL_I2C_BUS(n) extern const struct hil_i2c_ops hil_i2c_##n##_ops;
#include "drivers.def"
#undef HIL_I2C_BUS
#define HIL_I2C_BUS(n)
#undef HIL_SENSOR
#define HIL_SENSOR(n) extern const struct hil_sensor_driver hil_sensor_##n;
#include "drivers.def"
#undef HIL_SENSOR
#define HIL_SENSOR(n)

static const struct hil_board_driver *const boards[] = {
#undef HIL_BOARD
#define HIL_BOARD(n) &hil_board_##n,
#include "drivers.def"
#undef HIL_BOARD
#define HIL_BOARD(n)
	NULL,
};

static const struct hil_flasher_ops *const flashers[] = {
#undef HIL_FLASHER
#define HIL_FLASHER(n) &hil_flasher_##n##_ops,
#include "drivers.def"
#undef HIL_FLASHER
#define HIL_FLASHER(n)
	NULL,
};

/* The links a config can name (not the tests' "fd" and "flaky"). */
static const struct hil_link_ops *const links[] = {
#undef HIL_LINK
#define HIL_LINK(n) &hil_link_##n##_ops,
#include "drivers.def"
#undef HIL_LINK
#define HIL_LINK(n)
	NULL,
};

/* The I2C buses a spec can name by its prefix. */
static const struct hil_i2c_ops *const i2c_buses[] = {
#undef HIL_I2C_BUS
#define HIL_I2C_BUS(n) &hil_i2c_##n##_ops,
#include "drivers.def"
#undef HIL_I2C_BUS
#define HIL_I2C_BUS(n)
	NULL,
};

static const struct hil_sensor_driver *const sensors[] = {
#undef HIL_SENSOR
#define HIL_SENSOR(n) &hil_sensor_##n,
#include "drivers.def"
#undef HIL_SENSOR
#define HIL_SENSOR(n)
	NULL,
};

#define N_SENSORS (sizeof(sensors) / sizeof(sensors[0]) - 1)

const struct hil_flasher_ops *const *hil_flasher_all(void)
{
	return flashers;
}

const struct hil_flasher_ops *hil_flasher_find(const char *name)
{
	size_t i;

	for (i = 0; name != NULL && flashers[i] != NULL; i++) {
		if (strcmp(flashers[i]->name, name) == 0) {
			return flashers[i];
		}
	}
	return NULL;
}

const struct hil_link_ops *const *hil_link_all(void)
{
	return links;
}

const struct hil_link_ops *hil_link_find(const char *name)
{
	size_t i;

	for (i = 0; name != NULL && links[i] != NULL; i++) {
		if (strcmp(links[i]->name, name) == 0) {
			return links[i];
		}
	}
	return NULL;
}

const struct hil_i2c_ops *const *hil_i2c_all(void)
{
	return i2c_buses;
}

const struct hil_sensor_driver *const *hil_sensor_all(void)
{
	return sensors;
}

const struct hil_sensor_driver *hil_sensor_find(const char *name)
{
	size_t i;

	for (i = 0; name != NULL && sensors[i] != NULL; i++) {
		if (strcmp(sensors[i]->name, name) == 0) {
			return sensors[i];
		}
	}
	return NULL;
}

int hil_sensor_names(char *buf, size_t len)
{
	return hil_driver_names_join(HIL_DRIVER_SENSOR, buf, len);
}

const struct hil_i2c_sim_chip *hil_i2c_sim_chip_find(const char *name)
{
	size_t i;

	for (i = 0; name != NULL && i < N_SENSORS; i++) {
		if (sensors[i]->sim != NULL &&
		    strcmp(sensors[i]->sim->name, name) == 0) {
			return sensors[i]->sim;
		}
	}
	return NULL;
}

int hil_i2c_sim_chip_names(char *buf, size_t len)
{
	const char *names[N_SENSORS + 1];
	size_t i, n = 0;

	for (i = 0; i < N_SENSORS; i++) {
		if (sensors[i]->sim != NULL) {
			names[n++] = sensors[i]->sim->name;
		}
	}
	names[n] = NULL;
	return hil_drivers_join(buf, len, names);
}

const struct hil_board_driver *const *hil_board_all(void)
{
	return boards;
}

const struct hil_board_driver *hil_board_find(const char *name)
{
	size_t i;

	for (i = 0; name != NULL && boards[i] != NULL; i++) {
		if (strcmp(boards[i]->name, name) == 0) {
			return boards[i];
		}
	}
	return NULL;
}

const char *hil_board_flasher_arg(const struct hil_board_driver *b,
				  const char *flasher)
{
	const struct hil_board_flasher_arg *a;

	for (a = b != NULL ? b->flasher_args : NULL; a != NULL && a->flasher;
	     a++) {
		if (strcmp(a->flasher, flasher) == 0) {
			return a->arg;
		}
	}
	return NULL;
}

int hil_flasher_emulator(const char *name)
{
	size_t i;

	for (i = 0; name != NULL && boards[i] != NULL; i++) {
		const char *const *fl = boards[i]->flashers;

		if (boards[i]->emulated && fl != NULL && fl[0] != NULL &&
		    strcmp(fl[0], name) == 0) {
			return 1;
		}
	}
	return 0;
}

int hil_flasher_emulator_names(const char *first, char *buf, size_t len)
{
	const char *names[sizeof(flashers) / sizeof(flashers[0]) + 1];
	size_t i, n = 0;

	names[n++] = first;
	for (i = 0; flashers[i] != NULL; i++) {
		if (hil_flasher_emulator(flashers[i]->name)) {
			names[n++] = flashers[i]->name;
		}
	}
	names[n] = NULL;
	return hil_drivers_join(buf, len, names);
}

int hil_board_emulated(const char *name)
{
	const struct hil_board_driver *b = hil_board_find(name);

	return b != NULL && b->emulated;
}

const struct hil_clock_profile *
hil_board_clock(const struct hil_board_driver *b, uint32_t hz)
{
	const struct hil_clock_profile *c;

	for (c = b != NULL ? b->clocks : NULL; c != NULL && c->hz != 0; c++) {
		if (c->hz == hz) {
			return c;
		}
	}
	return NULL;
}

const struct hil_clock_profile *
hil_board_clock_flash(const struct hil_board_driver *b, uint32_t hz,
		      int prefetch)
{
	const struct hil_clock_profile *c;

	for (c = b != NULL ? b->clocks : NULL; c != NULL && c->hz != 0; c++) {
		if (c->hz == hz && (prefetch < 0 || c->prefetch == prefetch)) {
			return c;
		}
	}
	return NULL;
}

size_t hil_driver_names(enum hil_driver_kind kind, const char **names,
			size_t max)
{
	size_t n = 0;

	for (n = 0; n < max; n++) {
		const char *name = NULL;

		switch (kind) {
		case HIL_DRIVER_BOARD:
			name = boards[n] != NULL ? boards[n]->name : NULL;
			break;
		case HIL_DRIVER_FLASHER:
			name = flashers[n] != NULL ? flashers[n]->name : NULL;
			break;
		case HIL_DRIVER_LINK:
			name = links[n] != NULL ? links[n]->name : NULL;
			break;
		case HIL_DRIVER_I2C_BUS:
			name = i2c_buses[n] != NULL ? i2c_buses[n]->name : NULL;
			break;
		case HIL_DRIVER_SENSOR:
			name = n < N_SENSORS ? sensors[n]->name : NULL;
			break;
		}
		if (name == NULL) {
			break;
		}
		names[n] = name;
	}
	names[n] = NULL;
	return n;
}

int hil_driver_names_join(enum hil_driver_kind kind, char *buf, size_t len)
{
	const char *names[64];

	hil_driver_names(kind, names, 63);
	return hil_drivers_join(buf, len, names);
}

int hil_drivers_join(char *buf, size_t len, const char *const *names)
{
	size_t n = 0, i, o = 0;
	int w;

	while (names[n] != NULL) {
		n++;
	}
	if (len > 0) {
		buf[0] = '\0';
	}
	for (i = 0; i < n; i++) {
		w = snprintf(buf + (o < len ? o : len), o < len ? len - o : 0,
			     "%s%s",
			     i == 0	  ? ""
			     : i + 1 == n ? " or "
					  : ", ",
			     names[i]);
		if (w < 0) {
			return w;
		}
		o += (size_t)w;
	}
	return (int)o;
}
