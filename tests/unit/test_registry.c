/* test_registry: every kind of driver (boards, flashers, links, I2C buses, sensors) is registered by its line in drivers.def and by nothing else, and the messages that list a kind list its table. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "drivers/board/board.h"
#include "drivers/i2c/i2c.h"
#include "drivers/link/link.h"
#include "util/err.h"
#include "unit_util.h"

/*
 * The names of drivers.def's lines of one macro ("HIL_LINK"), in order,
 * joined by spaces; a board's underscores read as hyphens, as its name has.
 */
static void def_names(const char *macro, char *out, size_t len)
{
	char path[512], line[256];
	size_t mlen = strlen(macro);
	FILE *f;

	ut_src_path(path, sizeof(path), "host/drivers/drivers.def");
	f = fopen(path, "r");
	assert_non_null(f);
	out[0] = '\0';
	while (fgets(line, sizeof(line), f) != NULL) {
		char *end, *p;

		if (strncmp(line, macro, mlen) != 0 || line[mlen] != '(') {
			continue;
		}
		end = strchr(line, ')');
		assert_non_null(end);
		*end = '\0';
		for (p = line + mlen + 1; strcmp(macro, "HIL_BOARD") == 0 && *p;
		     p++) {
			if (*p == '_') {
				*p = '-';
			}
		}
		snprintf(out + strlen(out), len - strlen(out), "%s%s",
			 out[0] != '\0' ? " " : "", line + mlen + 1);
	}
	fclose(f);
}

/* The registry's names of one kind, joined by spaces. */
static void table_names(enum hil_driver_kind kind, char *out, size_t len)
{
	const char *names[64];
	size_t i, n = hil_driver_names(kind, names, 63);

	out[0] = '\0';
	for (i = 0; i < n; i++) {
		snprintf(out + strlen(out), len - strlen(out), "%s%s",
			 i > 0 ? " " : "", names[i]);
	}
}

static void test_each_kind_is_its_lines_of_drivers_def(void **state)
{
	static const struct {
		const char *macro;
		enum hil_driver_kind kind;
	} kinds[] = {
		{"HIL_BOARD", HIL_DRIVER_BOARD},
		{"HIL_FLASHER", HIL_DRIVER_FLASHER},
		{"HIL_LINK", HIL_DRIVER_LINK},
		{"HIL_I2C_BUS", HIL_DRIVER_I2C_BUS},
		{"HIL_SENSOR", HIL_DRIVER_SENSOR},
	};
	char def[512], table[512];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		def_names(kinds[i].macro, def, sizeof(def));
		table_names(kinds[i].kind, table, sizeof(table));
		assert_true(def[0] != '\0');
		assert_string_equal(table, def);
	}
}

static void test_link_and_bus_tables_are_the_registrys(void **state)
{
	const struct hil_link_ops *const *links = hil_link_all();
	const struct hil_i2c_ops *const *buses = hil_i2c_all();
	char def[256], got[256] = "";
	size_t i;

	(void)state;
	for (i = 0; links[i] != NULL; i++) {
		assert_ptr_equal(hil_link_find(links[i]->name), links[i]);
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%s",
			 i > 0 ? " " : "", links[i]->name);
	}
	def_names("HIL_LINK", def, sizeof(def));
	assert_string_equal(got, def);
	got[0] = '\0';
	for (i = 0; buses[i] != NULL; i++) {
		char spec[64];

		snprintf(spec, sizeof(spec), "%s:x", buses[i]->name);
		assert_ptr_equal(hil_i2c_backend(spec), buses[i]);
		/* What the messages say of it is its own. */
		assert_non_null(buses[i]->spec_form);
		assert_non_null(buses[i]->forms);
		assert_non_null(buses[i]->example);
		assert_true(hil_i2c_spec_ok(buses[i]->example));
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%s",
			 i > 0 ? " " : "", buses[i]->name);
	}
	def_names("HIL_I2C_BUS", def, sizeof(def));
	assert_string_equal(got, def);
}

/* An unknown link type is refused with the registered links listed. */
static void test_unknown_link_lists_the_registered_ones(void **state)
{
	struct ut_capture c;
	struct hil_link *l = NULL;
	char log[512];

	(void)state;
	ut_capture_begin(&c);
	assert_int_equal(hil_link_open(&l, "pigeon", "/dev/null", 9600),
			 HIL_ERR_ARG);
	ut_capture_end(&c, log, sizeof(log));
	assert_null(l);
	assert_non_null(strstr(
		log,
		"/dev/null: unknown link type 'pigeon' (serial, socket, semihost)"));
}

/* The bus messages list the registered buses, from their drivers. */
static void test_bus_messages_list_the_registered_ones(void **state)
{
	struct ut_capture c;
	struct hil_i2c_bus *bus = NULL;
	char log[1024], buf[256];

	(void)state;
	ut_capture_begin(&c);
	assert_int_equal(hil_i2c_open(&bus, ""), HIL_ERR_ARG);
	assert_int_equal(hil_i2c_open(&bus, "usb:1"), HIL_ERR_ARG);
	ut_capture_end(&c, log, sizeof(log));
	assert_null(bus);
	assert_non_null(strstr(log, "no I2C bus given (e.g. ftdi:0403:6014, "
				    "linux:/dev/i2c-1, sim:ina219@0x40)"));
	assert_non_null(strstr(log, "'usb:1': unknown I2C bus "
				    "(ftdi:VID:PID[:SERIAL], ftdi:desc=TEXT, "
				    "linux:/dev/i2c-N, sim:ina219@ADDR)"));
	hil_i2c_hw_examples(buf, sizeof(buf));
	assert_string_equal(buf, "\"ftdi:0403:6014\" or \"linux:/dev/i2c-1\"");
	hil_i2c_spec_forms(buf, sizeof(buf));
	assert_string_equal(
		buf,
		"\"ftdi:VID:PID[:SERIAL]\", \"linux:/dev/i2c-N\" or \"sim:...\"");
}

/* An emulator is the flasher of an emulated board: what `crypt --on`
 * takes besides the host. */
static void test_emulators_are_the_emulated_boards_flashers(void **state)
{
	char buf[64];

	(void)state;
	assert_int_equal(hil_flasher_emulator("qemu"), 1);
	assert_int_equal(hil_flasher_emulator("openocd"), 0);
	assert_int_equal(hil_flasher_emulator("pyocd"), 0);
	assert_int_equal(hil_flasher_emulator("host"), 0);
	assert_int_equal(hil_flasher_emulator(NULL), 0);
	hil_flasher_emulator_names("host", buf, sizeof(buf));
	assert_string_equal(buf, "host or qemu");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_each_kind_is_its_lines_of_drivers_def),
		cmocka_unit_test(test_link_and_bus_tables_are_the_registrys),
		cmocka_unit_test(test_unknown_link_lists_the_registered_ones),
		cmocka_unit_test(test_bus_messages_list_the_registered_ones),
		cmocka_unit_test(
			test_emulators_are_the_emulated_boards_flashers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
