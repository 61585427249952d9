/* fuzz_config: the configuration loader (JSON, extends, validation) on arbitrary text. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "drivers/sensor/driver.h"
#include "util/err.h"
#include "fuzz.h"

#define ERR_LEN 512

/* "extends" in the inputs names files here (base.json, a cycle, a chain). */
static const char *bases_dir(void)
{
	static char dir[4096];

	if (dir[0] == '\0') {
		snprintf(dir, sizeof(dir), "%s/tests/fuzz/bases",
			 fuzz_src_dir());
	}
	return dir;
}

static int terminated(const char *s, size_t size)
{
	return memchr(s, '\0', size) != NULL;
}

/* Messages reach a terminal: no control character may pass through. */
static int printable(const char *s)
{
	for (; *s != '\0'; s++) {
		if ((unsigned char)*s < 0x20 || *s == 0x7f) {
			return 0;
		}
	}
	return 1;
}

static int one_of(const char *s, const char *a, const char *b, const char *c)
{
	return strcmp(s, a) == 0 || strcmp(s, b) == 0 ||
	       (c != NULL && strcmp(s, c) == 0);
}

/* What config.h promises about a configuration it accepted. */
static void check_accepted(const struct hil_config *c)
{
	const struct hil_sensor_driver *drv;
	size_t i;

	FUZZ_CHECK(terminated(c->path, sizeof(c->path)));
	FUZZ_CHECK(terminated(c->name, sizeof(c->name)) && c->name[0] != 0);
	FUZZ_CHECK(
		one_of(c->board.name, "qemu-netduino", "nucleo-f401re", NULL));
	FUZZ_CHECK(c->board.clock_hz == 84000000 ||
		   c->board.clock_hz == 24000000 ||
		   c->board.clock_hz == 16000000);
	FUZZ_CHECK(one_of(c->link.type, "socket", "serial", "semihost"));
	FUZZ_CHECK(terminated(c->link.port, sizeof(c->link.port)));
	FUZZ_CHECK(one_of(c->flasher.type, "qemu", "openocd", NULL));
	FUZZ_CHECK(terminated(c->flasher.program, sizeof(c->flasher.program)));
	FUZZ_CHECK(c->flasher.n_files <= HIL_CFG_MAX_FLASHER_FILES);
	FUZZ_CHECK(strcmp(c->flasher.type, "openocd") != 0 ||
		   c->flasher.n_files >= 1);
	for (i = 0; i < HIL_CFG_MAX_FLASHER_FILES; i++) {
		FUZZ_CHECK(terminated(c->flasher.files[i],
				      sizeof(c->flasher.files[i])));
	}
	/* The sensor: "none" or a driver of the table, at an address its
	 * straps give (with "none", the default sensor's), with a bus. */
	drv = hil_sensor_find(c->sensor.type);
	FUZZ_CHECK(drv != NULL || strcmp(c->sensor.type, "none") == 0);
	FUZZ_CHECK(drv == NULL || c->sensor.bus[0] != '\0');
	drv = drv != NULL ? drv : hil_sensor_all()[0];
	FUZZ_CHECK(c->sensor.address >= drv->addr_min &&
		   c->sensor.address <= drv->addr_max);
	FUZZ_CHECK(terminated(c->sensor.bus, sizeof(c->sensor.bus)));
	FUZZ_CHECK(c->sensor.shunt_ohm > 0.0 && c->sensor.max_current_a > 0.0);
	FUZZ_CHECK(c->sensor.averages >= 1 && c->sensor.averages <= 1024);
	FUZZ_CHECK(c->sensor.conversions >= 1 && c->sensor.windows >= 1);
	FUZZ_CHECK(c->build.n_cflags <= HIL_CFG_MAX_FLAGS);
	for (i = 0; i < c->build.n_cflags && i < HIL_CFG_MAX_FLAGS; i++) {
		FUZZ_CHECK(terminated(c->build.cflags[i],
				      sizeof(c->build.cflags[i])));
		FUZZ_CHECK(c->build.cflags[i][0] == '-');
	}
	FUZZ_CHECK(c->n_algs >= 1 && c->algs != NULL &&
		   c->n_algs <= c->cap_algs);
	FUZZ_CHECK(c->n_not_for_board == 0 || c->not_for_board != NULL);
	for (i = 0; i < c->n_algs; i++) {
		FUZZ_CHECK(
			terminated(c->algs[i].name, sizeof(c->algs[i].name)));
		FUZZ_CHECK(c->algs[i].name[0] != '\0');
		FUZZ_CHECK(
			terminated(c->algs[i].impl, sizeof(c->algs[i].impl)));
		FUZZ_CHECK(
			terminated(c->algs[i].path, sizeof(c->algs[i].path)));
		FUZZ_CHECK(terminated(c->algs[i].kat, sizeof(c->algs[i].kat)));
	}
	FUZZ_CHECK(c->bench.operations != 0 &&
		   (c->bench.operations & ~7u) == 0);
	FUZZ_CHECK(c->bench.n_lengths >= 1 &&
		   c->bench.n_lengths <= HIL_CFG_MAX_LENGTHS);
	for (i = 0; i < c->bench.n_lengths && i < HIL_CFG_MAX_LENGTHS; i++) {
		FUZZ_CHECK(c->bench.lengths[i] <= 2048);
	}
	FUZZ_CHECK(c->bench.n_ad_lengths >= 1 &&
		   c->bench.n_ad_lengths <= HIL_CFG_MAX_AD_LENGTHS);
	FUZZ_CHECK(c->bench.runs >= 1 && c->bench.runs <= 65535);
	FUZZ_CHECK(c->bench.warmup <= 65535);
	FUZZ_CHECK(terminated(c->results_dir, sizeof(c->results_dir)));
}

/* Do two accepted configurations hold the same, their arrays' contents
 * compared instead of the arrays' addresses? */
static int same_config(const struct hil_config *a, const struct hil_config *b)
{
	static struct hil_config x, y;

	x = *a;
	y = *b;
	x.algs = y.algs = NULL;
	x.cap_algs = y.cap_algs = 0;
	x.not_for_board = y.not_for_board = NULL;
	x.cap_not_for_board = y.cap_not_for_board = 0;
	return memcmp(&x, &y, sizeof(x)) == 0 &&
	       (a->n_algs == 0 ||
		memcmp(a->algs, b->algs, a->n_algs * sizeof(*a->algs)) == 0) &&
	       (a->n_not_for_board == 0 ||
		memcmp(a->not_for_board, b->not_for_board,
		       a->n_not_for_board * sizeof(*a->not_for_board)) == 0);
}

int fuzz_config_one(const uint8_t *data, size_t size)
{
	unsigned before = fuzz_failures();
	/* Static: a configuration is about 15 KiB. */
	static struct hil_config cfg, untouched, small;
	char err[ERR_LEN], tiny[8];
	char *text = fuzz_strdup(data, size);
	int ret, ret2;

	if (text == NULL) {
		return 0;
	}
	memset(&cfg, 0x5A, sizeof(cfg));
	memcpy(&untouched, &cfg, sizeof(cfg));
	memset(err, 'X', sizeof(err));
	ret = hil_config_parse(text, bases_dir(), &cfg, err, sizeof(err));
	FUZZ_CHECK(ret == HIL_OK || ret == HIL_ERR_CONFIG ||
		   ret == HIL_ERR_IO || ret == HIL_ERR_NOMEM);
	FUZZ_CHECK(terminated(err, sizeof(err)));
	if (ret == HIL_OK) {
		FUZZ_CHECK(err[0] == '\0');
		check_accepted(&cfg);
	} else {
		FUZZ_CHECK(err[0] != '\0'); /* a refusal says why */
		FUZZ_CHECK(printable(err));
		FUZZ_CHECK(memcmp(&cfg, &untouched, sizeof(cfg)) == 0);
	}

	/* The message buffer's size changes nothing but the message. */
	memset(tiny, 'X', sizeof(tiny));
	ret2 = hil_config_parse(text, bases_dir(), &small, tiny, sizeof(tiny));
	FUZZ_CHECK(ret2 == ret);
	FUZZ_CHECK(terminated(tiny, sizeof(tiny)));
	if (ret == HIL_OK) {
		FUZZ_CHECK(same_config(&small, &cfg));
	}
	if (ret2 == HIL_OK) {
		hil_config_free(&small);
	}
	ret2 = hil_config_parse(text, bases_dir(), &small, NULL, 0);
	FUZZ_CHECK(ret2 == ret);
	if (ret2 == HIL_OK) {
		hil_config_free(&small);
	}
	if (ret == HIL_OK) {
		hil_config_free(&cfg);
	}
	free(text);
	return (int)(fuzz_failures() - before);
}

#ifdef FUZZ_LIBFUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_config_one(data, size);
	return 0;
}
#endif
