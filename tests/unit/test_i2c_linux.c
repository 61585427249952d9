/* test_i2c_linux: the linux i2c-dev backend's error paths that need no hardware, and the bus spec errors. */
#define _POSIX_C_SOURCE 200809L

#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "util/err.h"
#include "drivers/i2c/i2c.h"
#include "unit_util.h"

static int open_logged(const char *spec, char *log, size_t len)
{
	struct hil_i2c_bus *bus = NULL;
	struct ut_capture c;
	int ret;

	ut_capture_begin(&c);
	ret = hil_i2c_open(&bus, spec);
	ut_capture_end(&c, log, len);
	if (ret == HIL_OK) {
		hil_i2c_close(bus);
	} else {
		assert_null(bus);
	}
	return ret;
}

static void test_linux_missing_device_is_named(void **state)
{
	char log[2048];

	(void)state;
	assert_int_equal(open_logged("linux:/dev/i2c-77", log, sizeof(log)),
			 HIL_ERR_NA);
	assert_non_null(strstr(log, "/dev/i2c-77"));
	assert_non_null(strstr(log, "i2c-dev"));
}

static void test_linux_not_an_adapter(void **state)
{
	char log[2048];

	(void)state;
	assert_int_equal(open_logged("linux:/dev/null", log, sizeof(log)),
			 HIL_ERR_NA);
	assert_non_null(strstr(log, "/dev/null"));
	assert_non_null(strstr(log, "not an I2C adapter"));
}

static void test_linux_permission_denied_gives_a_hint(void **state)
{
	char path[] = "/tmp/hiltest-i2c-XXXXXX", spec[64], log[2048];
	int fd;

	(void)state;
	if (geteuid() == 0) {
		skip(); /* root opens anything */
	}
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(chmod(path, 0), 0);
	snprintf(spec, sizeof(spec), "linux:%s", path);
	assert_int_equal(open_logged(spec, log, sizeof(log)), HIL_ERR_IO);
	unlink(path);
	assert_non_null(strstr(log, "permission denied"));
	assert_non_null(strstr(log, "group"));
}

static void test_linux_relative_path_is_refused(void **state)
{
	char log[2048];

	(void)state;
	assert_int_equal(open_logged("linux:i2c-1", log, sizeof(log)),
			 HIL_ERR_ARG);
	assert_non_null(strstr(log, "/dev/i2c-1"));
}

static void test_unknown_or_empty_bus_specs(void **state)
{
	struct hil_i2c_bus *bus = NULL;
	char log[2048];

	(void)state;
	assert_int_equal(open_logged("spi:/dev/spidev0.0", log, sizeof(log)),
			 HIL_ERR_ARG);
	assert_non_null(strstr(log, "unknown I2C bus"));
	assert_int_equal(open_logged("ftdi", log, sizeof(log)), HIL_ERR_ARG);
	assert_int_equal(open_logged("", log, sizeof(log)), HIL_ERR_ARG);
	assert_int_equal(hil_i2c_open(NULL, "sim:ina219@0x40"), HIL_ERR_ARG);
	assert_int_equal(hil_i2c_open(&bus, NULL), HIL_ERR_ARG);
	assert_null(bus);
}

static void test_bad_transactions_are_refused(void **state)
{
	struct hil_i2c_bus *bus = NULL;
	uint8_t b[2] = {0, 0};

	(void)state;
	assert_int_equal(hil_i2c_open(&bus, "sim:ina219@0x40"), HIL_OK);
	assert_int_equal(hil_i2c_xfer(bus, 0x40, NULL, 1, b, 2), HIL_ERR_ARG);
	assert_int_equal(hil_i2c_xfer(bus, 0x40, b, 0, b, 0), HIL_ERR_ARG);
	assert_int_equal(hil_i2c_xfer(bus, 0x80, b, 1, NULL, 0), HIL_ERR_ARG);
	assert_int_equal(hil_i2c_xfer(NULL, 0x40, b, 1, NULL, 0), HIL_ERR_ARG);
	assert_null(hil_i2c_sim_model(NULL, NULL));
	hil_i2c_close(bus);
	hil_i2c_close(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_linux_missing_device_is_named),
		cmocka_unit_test(test_linux_not_an_adapter),
		cmocka_unit_test(test_linux_permission_denied_gives_a_hint),
		cmocka_unit_test(test_linux_relative_path_is_refused),
		cmocka_unit_test(test_unknown_or_empty_bus_specs),
		cmocka_unit_test(test_bad_transactions_are_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
