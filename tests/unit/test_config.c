/* Unit tests of the config loader: shipped files, defaults, extends, and every kind of invalid input. */
#define _XOPEN_SOURCE 700

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

#include "config/config.h"
#include "drivers/board/board.h"
#include "drivers/flasher/flasher.h"
#include "drivers/link/link.h"
#include "drivers/sensor/driver.h"
#include "util/err.h"
#include "unit_util.h"

/* Every test gets a fresh temporary directory for the files it writes. */
struct fx {
	char dir[64];
};

#define ALG "'algorithms': ['ascon-aead128']"

static int setup(void **state)
{
	struct fx *fx = calloc(1, sizeof(*fx));

	if (fx == NULL) {
		return -1;
	}
	snprintf(fx->dir, sizeof(fx->dir), "/tmp/hilrun-config-XXXXXX");
	if (mkdtemp(fx->dir) == NULL) {
		free(fx);
		return -1;
	}
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fx *fx = *state;
	int ret = ut_rm_tree(fx->dir);

	free(fx);
	return ret;
}

/* Write dir/name with the given (single-quoted) JSON; path receives it. */
static void put(const struct fx *fx, const char *name, const char *squoted,
		char *path, size_t n)
{
	snprintf(path, n, "%s/%s", fx->dir, name);
	ut_write_squoted(path, squoted);
}

/* Parse single-quoted inline text and expect exactly this message. */
/* "a, b or c": the names a driver table registers, as messages list them. */
static const char *names_of(enum hil_driver_kind kind, char *buf, size_t len)
{
	hil_driver_names_join(kind, buf, len);
	return buf;
}

#define board_list(b, n)   names_of(HIL_DRIVER_BOARD, (b), (n))
#define flasher_list(b, n) names_of(HIL_DRIVER_FLASHER, (b), (n))
#define link_list(b, n)	   names_of(HIL_DRIVER_LINK, (b), (n))

/* "none, a or b": sensor.type's choices, from the sensor table. */
static const char *sensor_list(char *buf, size_t len)
{
	const char *names[64];

	names[0] = "none";
	hil_driver_names(HIL_DRIVER_SENSOR, names + 1, 62);
	hil_drivers_join(buf, len, names);
	return buf;
}

static void parse_fails(const char *squoted, const char *want)
{
	char json[8192], err[512];
	struct hil_config cfg = {0};
	int ret;

	ut_unquote(json, sizeof(json), squoted);
	ret = hil_config_parse(json, NULL, &cfg, err, sizeof(err));
	if (ret != HIL_ERR_CONFIG) {
		print_error("input: %s\n", json);
	}
	assert_int_equal(ret, HIL_ERR_CONFIG);
	assert_string_equal(err, want);
	hil_config_free(&cfg);
}

/* A configuration refused: its text (single-quoted) and the exact message. */
struct refusal {
	const char *json;
	const char *want;
};

#define N_CASES(a) (sizeof(a) / sizeof((a)[0]))

/* parse_fails() on each case of a table, in order. */
static void parse_fails_all(const struct refusal *cases, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		parse_fails(cases[i].json, cases[i].want);
	}
}

/*
 * Configurations refused with one message: each text is what follows the
 * algorithm in the top-level object, "{" ALG ", " TEXT "}".
 */
struct refusals {
	const char *want;
	const char *with_alg[10]; /* NULL-terminated */
};

/* parse_fails() on each text of each entry of a table, in order. */
static void parse_fails_with_alg(const struct refusals *cases, size_t n)
{
	char json[4096];
	size_t i, j;

	for (i = 0; i < n; i++) {
		for (j = 0; cases[i].with_alg[j] != NULL; j++) {
			snprintf(json, sizeof(json), "{" ALG ", %s}",
				 cases[i].with_alg[j]);
			parse_fails(json, cases[i].want);
		}
	}
}

/* cfg (zeroed, or parsed before: what it held is freed) parsed anew. */
static void parse_ok(const char *squoted, struct hil_config *cfg)
{
	char json[8192], err[512] = "";
	int ret;

	hil_config_free(cfg);
	ut_unquote(json, sizeof(json), squoted);
	ret = hil_config_parse(json, NULL, cfg, err, sizeof(err));
	if (ret != HIL_OK) {
		print_error("input: %s\nerror: %s\n", json, err);
	}
	assert_int_equal(ret, HIL_OK);
}

/* ---- defaults and shipped files ---------------------------------------- */

static void test_defaults_are_the_documented_ones(void **state)
{
	struct hil_config cfg = {0};

	(void)state;
	memset(&cfg, 0xa5, sizeof(cfg));
	hil_config_defaults(&cfg);
	assert_string_equal(cfg.path, "");
	assert_string_equal(cfg.board.name, "qemu-netduino");
	assert_int_equal(cfg.board.clock_hz, 84000000);
	assert_string_equal(cfg.link.type, "semihost");
	assert_string_equal(cfg.link.port, "");
	assert_int_equal(cfg.link.baud, 115200);
	assert_int_equal(cfg.link.timeout_ms, 2000);
	assert_int_equal(cfg.link.retries, 3);
	assert_string_equal(cfg.flasher.type, "qemu");
	assert_string_equal(cfg.flasher.program, "qemu-system-arm");
	/* The OpenOCD config is the board's: an emulated board has none. */
	assert_int_equal(cfg.flasher.n_files, 0);
	assert_string_equal(cfg.flasher.probe_serial, "");
	assert_int_equal(cfg.flasher.timeout_ms, 60000);
	assert_int_equal(cfg.build.n_cflags, 1);
	assert_string_equal(cfg.build.cflags[0], "-O2");
	assert_int_equal(cfg.n_algs, 0);
	assert_int_equal(cfg.bench.operations,
			 HIL_OPS_ENCRYPT | HIL_OPS_DECRYPT);
	assert_int_equal(cfg.bench.n_lengths, 6);
	assert_int_equal(cfg.bench.lengths[0], 0);
	assert_int_equal(cfg.bench.lengths[1], 16);
	assert_int_equal(cfg.bench.lengths[2], 64);
	assert_int_equal(cfg.bench.lengths[3], 256);
	assert_int_equal(cfg.bench.lengths[4], 1024);
	assert_int_equal(cfg.bench.lengths[5], 2048);
	assert_int_equal(cfg.bench.n_ad_lengths, 1);
	assert_int_equal(cfg.bench.ad_lengths[0], 0);
	assert_int_equal(cfg.bench.runs, 1000);
	assert_int_equal(cfg.bench.warmup, 10);
	assert_int_equal(cfg.bench.seed, 1);
	assert_string_equal(cfg.bench.normalize_to, "aes128-ecb");
	assert_int_equal(cfg.bench.leak_runs, 1000);
	assert_int_equal(cfg.cycle_model.enabled, 1);
	assert_string_equal(cfg.cycle_model.profile, "stm32f401-art");
	assert_int_equal(cfg.cycle_model.wait_states, 2);
	assert_int_equal(cfg.cycle_model.art, 1);
	assert_string_equal(cfg.sensor.type, "none");
	assert_string_equal(cfg.sensor.bus, "");
	assert_int_equal(cfg.sensor.address, 0x40);
	assert_true(cfg.sensor.shunt_ohm == 0.1);
	assert_true(cfg.sensor.max_current_a == 0.4);
	assert_int_equal(cfg.sensor.bus_range_v, 16);
	assert_int_equal(cfg.sensor.pga_div, 0);
	assert_int_equal(cfg.sensor.adc_bits, 12);
	assert_int_equal(cfg.sensor.averages, 1);
	assert_int_equal(cfg.sensor.conversions, 50);
	assert_int_equal(cfg.sensor.windows, 5);
	assert_string_equal(cfg.results_dir, "results");
	hil_config_free(&cfg);
}

static void test_cycle_model_follows_the_clock_profile(void **state)
{
	struct hil_config cfg = {0};
	char err[512];

	(void)state;
	/* 24 MHz: the board code's 0 WS with both caches on (FLASH_ACR
	 * 0x600), no prefetch: the stm32f401-0ws profile. */
	assert_int_equal(
		hil_config_parse("{\"algorithms\": [\"ascon-aead128\"],"
				 " \"board\": {\"clock_hz\": 24000000}}",
				 NULL, &cfg, err, sizeof(err)),
		HIL_OK);
	assert_string_equal(cfg.cycle_model.profile, "stm32f401-0ws");
	assert_int_equal(cfg.cycle_model.wait_states, 0);
	assert_int_equal(cfg.cycle_model.art, 1);
	hil_config_free(&cfg);
	/* wait_states and art override the board's profile, which stays */
	assert_int_equal(
		hil_config_parse("{\"algorithms\": [\"ascon-aead128\"],"
				 " \"cycle_model\": {\"wait_states\": 5,"
				 " \"art\": false}}",
				 NULL, &cfg, err, sizeof(err)),
		HIL_OK);
	assert_string_equal(cfg.cycle_model.profile, "stm32f401-art");
	assert_int_equal(cfg.cycle_model.wait_states, 5);
	assert_int_equal(cfg.cycle_model.art, 0);
	hil_config_free(&cfg);
}

/* board.prefetch: a choice only where the board code offers one (84 MHz). */
static void test_board_prefetch_chooses_the_flash_profile(void **state)
{
	struct hil_config cfg = {0};

	(void)state;
	parse_ok("{'algorithms': ['ascon-aead128']}", &cfg);
	assert_int_equal(cfg.board.prefetch, -1);
	assert_string_equal(cfg.cycle_model.profile, "stm32f401-art");
	parse_ok(
		"{'algorithms': ['ascon-aead128'], 'board': {'prefetch': false}}",
		&cfg);
	assert_int_equal(cfg.board.prefetch, 0);
	assert_string_equal(cfg.cycle_model.profile,
			    "stm32f401-art-noprefetch");
	assert_int_equal(cfg.cycle_model.wait_states, 2);
	assert_int_equal(cfg.cycle_model.art, 1);
	parse_ok(
		"{'algorithms': ['ascon-aead128'], 'board': {'prefetch': true}}",
		&cfg);
	assert_int_equal(cfg.board.prefetch, 1);
	assert_string_equal(cfg.cycle_model.profile, "stm32f401-art");
	parse_fails(
		"{'algorithms': ['ascon-aead128'], 'board': {'clock_hz': 24000000, 'prefetch': true}}",
		"board.prefetch: qemu-netduino at 24000000 Hz has no choice of prefetch (its board code sets it off); 84000000 on the STM32F401 boards has both");
	hil_config_free(&cfg);
}

static void test_cycle_model_profile_is_named_or_the_boards(void **state)
{
	struct hil_config cfg = {0};
	char err[512];

	(void)state;
	/* Another board's memory system on the emulated board: its wait
	 * states come with it. */
	assert_int_equal(
		hil_config_parse("{\"algorithms\": [\"ascon-aead128\"],"
				 " \"cycle_model\": {\"profile\":"
				 " \"nrf52840-nocache\"}}",
				 NULL, &cfg, err, sizeof(err)),
		HIL_OK);
	assert_string_equal(cfg.cycle_model.profile, "nrf52840-nocache");
	assert_int_equal(cfg.cycle_model.wait_states, 2);
	assert_int_equal(cfg.cycle_model.art, 1);
	hil_config_free(&cfg);
	assert_int_equal(
		hil_config_parse("{\"algorithms\": [\"ascon-aead128\"],"
				 " \"cycle_model\": {\"profile\":"
				 " \"stm32f401-art\", \"wait_states\": 0}}",
				 NULL, &cfg, err, sizeof(err)),
		HIL_OK);
	assert_int_equal(cfg.cycle_model.wait_states, 0);
	assert_int_equal(cfg.cycle_model.art, 1);
	hil_config_free(&cfg);
	assert_int_equal(
		hil_config_parse("{\"algorithms\": [\"ascon-aead128\"],"
				 " \"cycle_model\": {\"profile\":"
				 " \"stm32f4\"}}",
				 NULL, &cfg, err, sizeof(err)),
		HIL_ERR_CONFIG);
	assert_non_null(strstr(err, "cycle_model.profile"));
	assert_non_null(strstr(err, "nrf52840-icache"));
	hil_config_free(&cfg);
	/* The nRF52840-DK's default is the calibrated profile (its
	 * estimates carry an error bar); the uncalibrated ones stay
	 * selectable. */
	assert_int_equal(
		hil_config_parse("{\"algorithms\": [\"ascon-aead128\"],"
				 " \"board\": {\"name\": \"nrf52840-dk\"},"
				 " \"link\": {\"port\": \"/dev/ttyACM1\"}}",
				 NULL, &cfg, err, sizeof(err)),
		HIL_OK);
	assert_string_equal(cfg.cycle_model.profile, "nrf52840-cal");
	assert_int_equal(cfg.cycle_model.wait_states, 3);
	hil_config_free(&cfg);
	assert_int_equal(
		hil_config_parse("{\"algorithms\": [\"ascon-aead128\"],"
				 " \"board\": {\"name\": \"nrf52840-dk\"},"
				 " \"link\": {\"port\": \"/dev/ttyACM1\"},"
				 " \"cycle_model\": {\"profile\":"
				 " \"nrf52840-icache\"}}",
				 NULL, &cfg, err, sizeof(err)),
		HIL_OK);
	assert_string_equal(cfg.cycle_model.profile, "nrf52840-icache");
	assert_int_equal(cfg.cycle_model.wait_states, 2);
	hil_config_free(&cfg);
}

static void assert_shared_bench(const struct hil_config *cfg)
{
	/* The suite: every bundled algorithm, the first one the default. */
	assert_int_equal(cfg->n_algs, 9);
	assert_string_equal(cfg->algs[0].name, "ascon-aead128");
	assert_string_equal(cfg->algs[0].impl, "ref");
	assert_string_equal(cfg->algs[1].name, "ascon-aead128");
	assert_string_equal(cfg->algs[1].impl, "bi32");
	assert_string_equal(cfg->algs[8].name, "chacha20-poly1305");
	assert_string_equal(cfg->algs[8].path, "");
	assert_int_equal(cfg->build.n_cflags, 1);
	assert_string_equal(cfg->build.cflags[0], "-O2");
	assert_int_equal(cfg->bench.operations,
			 HIL_OPS_ENCRYPT | HIL_OPS_DECRYPT | HIL_OPS_HASH);
	assert_int_equal(cfg->bench.n_lengths, 4);
	assert_int_equal(cfg->bench.lengths[0], 16);
	assert_int_equal(cfg->bench.lengths[3], 1024);
	assert_int_equal(cfg->bench.n_ad_lengths, 1);
	assert_int_equal(cfg->bench.ad_lengths[0], 0);
	assert_int_equal(cfg->bench.runs, 1000);
	assert_int_equal(cfg->bench.warmup, 10);
	assert_int_equal(cfg->bench.seed, 1);
	assert_string_equal(cfg->results_dir, "results");
}

static void test_shipped_qemu_config_loads(void **state)
{
	struct hil_config cfg = {0};
	char path[512], err[512] = "";
	int ret;

	(void)state;
	ut_src_path(path, sizeof(path), "configs/qemu.json");
	ret = hil_config_load(path, &cfg, err, sizeof(err));
	if (ret != HIL_OK) {
		print_error("%s\n", err);
	}
	assert_int_equal(ret, HIL_OK);
	assert_string_equal(cfg.path, path);
	assert_string_equal(cfg.name, "qemu");
	assert_string_equal(cfg.board.name, "qemu-netduino");
	assert_string_equal(cfg.flasher.type, "qemu");
	assert_string_equal(cfg.flasher.program, "qemu-system-arm");
	assert_string_equal(cfg.link.type, "semihost");
	assert_string_equal(cfg.link.port, "");
	assert_shared_bench(&cfg);
	hil_config_free(&cfg);
}

static void test_shipped_o2_config_loads(void **state)
{
	struct hil_config cfg = {0};
	char path[512], err[512] = "";
	int ret;

	(void)state;
	ut_src_path(path, sizeof(path), "configs/o2.json");
	ret = hil_config_load(path, &cfg, err, sizeof(err));
	if (ret != HIL_OK) {
		print_error("%s\n", err);
	}
	assert_int_equal(ret, HIL_OK);
	assert_string_equal(cfg.name, "o2");
	assert_string_equal(cfg.board.name, "nucleo-f401re");
	assert_int_equal(cfg.board.clock_hz, 84000000);
	assert_string_equal(cfg.link.type, "serial");
	assert_string_equal(cfg.link.port, "/dev/ttyACM0");
	assert_int_equal(cfg.link.baud, 115200);
	assert_string_equal(cfg.flasher.type, "openocd");
	assert_string_equal(cfg.flasher.program, "openocd");
	assert_int_equal(cfg.flasher.n_files, 1);
	assert_string_equal(cfg.flasher.files[0], "board/st_nucleo_f4.cfg");
	assert_shared_bench(&cfg);
	hil_config_free(&cfg);
}

static void test_inline_text_gets_defaults_and_name_inline(void **state)
{
	struct hil_config cfg = {0};

	(void)state;
	parse_ok("{" ALG "}", &cfg);
	assert_string_equal(cfg.path, "");
	assert_string_equal(cfg.name, "inline");
	assert_string_equal(cfg.board.name, "qemu-netduino");
	assert_string_equal(cfg.flasher.type, "qemu");
	assert_string_equal(cfg.link.type, "semihost");
	assert_int_equal(cfg.bench.runs, 1000);
	assert_int_equal(cfg.n_algs, 1);
	hil_config_free(&cfg);
}

static void test_flasher_and_link_default_from_the_board(void **state)
{
	struct hil_config cfg = {0};

	(void)state;
	parse_ok("{" ALG ", 'board': {'name': 'nucleo-f401re'},"
		 " 'link': {'port': '/dev/ttyUSB1'}}",
		 &cfg);
	assert_string_equal(cfg.flasher.type, "openocd");
	assert_string_equal(cfg.flasher.program, "openocd");
	assert_string_equal(cfg.link.type, "serial");
	assert_string_equal(cfg.link.port, "/dev/ttyUSB1");

	/* There is no native board (docs/configs.md says why). */
	{
		char names[256], want[512];

		snprintf(want, sizeof(want),
			 "board.name: \"native\" is not a board (expected %s)",
			 board_list(names, sizeof(names)));
		parse_fails("{" ALG ", 'board': {'name': 'native'}}", want);
	}

	parse_ok("{" ALG ", 'board': {'name': 'nucleo-f401re'},"
		 " 'flasher': {'program': '/opt/openocd/bin/openocd'},"
		 " 'link': {'port': '/dev/ttyACM1'}}",
		 &cfg);
	assert_string_equal(cfg.flasher.program, "/opt/openocd/bin/openocd");
	/* The OpenOCD config comes from the board driver unless given. */
	assert_int_equal(cfg.flasher.n_files, 1);
	assert_string_equal(cfg.flasher.files[0], "board/st_nucleo_f4.cfg");
	parse_ok("{" ALG ", 'board': {'name': 'nucleo-l476rg'},"
		 " 'link': {'port': '/dev/ttyACM1'}}",
		 &cfg);
	assert_string_equal(cfg.flasher.type, "openocd");
	assert_string_equal(cfg.flasher.files[0], "board/st_nucleo_l4.cfg");
	assert_int_equal(cfg.board.clock_hz, 80000000);
	/* No profile documented for the L476: the clock's wait states. */
	assert_string_equal(cfg.cycle_model.profile, "");
	assert_int_equal(cfg.cycle_model.wait_states, 4);
	parse_ok("{" ALG
		 ", 'board': {'name': 'nucleo-l476rg', 'clock_hz': 16000000},"
		 " 'link': {'port': '/dev/ttyACM1'}}",
		 &cfg);
	assert_int_equal(cfg.cycle_model.wait_states, 0);
	parse_ok("{" ALG ", 'board': {'name': 'nucleo-l476rg'},"
		 " 'flasher': {'openocd_config': ['interface/stlink.cfg',"
		 " 'target/stm32l4x.cfg']}, 'link': {'port': '/dev/ttyACM1'}}",
		 &cfg);
	assert_int_equal(cfg.flasher.n_files, 2);
	assert_string_equal(cfg.flasher.files[1], "target/stm32l4x.cfg");

	/* pyOCD: the board's target type unless given; none for the F401. */
	parse_ok(
		"{" ALG ", 'board': {'name': 'nucleo-l476rg'},"
		" 'flasher': {'type': 'pyocd'}, 'link': {'port': '/dev/ttyACM1'}}",
		&cfg);
	assert_string_equal(cfg.flasher.program, "pyocd-flashtool");
	assert_string_equal(cfg.flasher.target, "stm32l475xg");
	assert_int_equal(cfg.flasher.n_files, 0);
	parse_ok("{" ALG ", 'board': {'name': 'nrf52840-dk'},"
		 " 'flasher': {'type': 'pyocd', 'target': 'nrf52'},"
		 " 'link': {'port': '/dev/ttyACM1'}}",
		 &cfg);
	assert_string_equal(cfg.flasher.target, "nrf52");
	parse_fails(
		"{" ALG ", 'board': {'name': 'nrf52840-dk'},"
		" 'flasher': {'type': 'pyocd', 'target': 'NRF52; rm'},"
		" 'link': {'port': '/dev/ttyACM1'}}",
		"flasher.target: \"NRF52; rm\" is not a pyOCD target type (lower-case letters, digits and '_', e.g. \"stm32l475xg\"; `pyocd-flashtool --list-targets` lists them)");
	parse_fails(
		"{" ALG ", 'board': {'name': 'nucleo-f401re'},"
		" 'flasher': {'type': 'pyocd'}, 'link': {'port': '/dev/ttyACM1'}}",
		"flasher.type: \"pyocd\" cannot program board.name \"nucleo-f401re\" (it needs flasher \"openocd\")");
	parse_fails(
		"{" ALG ", 'board': {'name': 'nucleo-l476rg'},"
		" 'flasher': {'type': 'pyocd', 'openocd_config': ['a']},"
		" 'link': {'port': '/dev/ttyACM1'}}",
		"flasher.openocd_config: a setting of the openocd flasher, but flasher.type is \"pyocd\"");
	hil_config_free(&cfg);
}

/*
 * pqm4's boards and the emulated board with megabytes of RAM: each one's
 * default clock is pqm4's benchmark setting at 0 WS, its full speed has
 * the manual's wait states for the cycle model, and the mps2-an386 tells
 * the qemu flasher its machine and icount shift.
 */
static void test_pqm4_boards_and_mps2_take_their_drivers_settings(void **state)
{
	static const struct {
		const char *board, *openocd;
		uint32_t slow_hz, fast_hz, fast_ws;
		const char *slow_profile;
	} b[] = {
		{"stm32f4discovery", "board/stm32f4discovery.cfg", 24000000u,
		 168000000u, 5, "stm32f401-0ws"},
		{"nucleo-l4r5zi", "board/st_nucleo_l4.cfg", 20000000u,
		 120000000u, 5, ""},
		{"qemu-mps2-an386", NULL, 24000000u, 168000000u, 5,
		 "stm32f401-0ws"},
	};
	struct hil_config cfg = {0};
	char json[512];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(b) / sizeof(b[0]); i++) {
		const char *link =
			b[i].openocd != NULL
				? ", 'link': {'port': '/dev/ttyACM1'}"
				: "";

		snprintf(json, sizeof(json),
			 "{" ALG ", 'board': {'name': '%s'}%s}", b[i].board,
			 link);
		parse_ok(json, &cfg);
		assert_int_equal(cfg.board.clock_hz, b[i].slow_hz);
		assert_string_equal(cfg.cycle_model.profile, b[i].slow_profile);
		assert_int_equal(cfg.cycle_model.wait_states, 0);
		if (b[i].openocd != NULL) {
			assert_string_equal(cfg.flasher.type, "openocd");
			assert_string_equal(cfg.flasher.files[0], b[i].openocd);
			assert_string_equal(cfg.link.type, "serial");
		} else {
			assert_string_equal(cfg.flasher.type, "qemu");
			assert_string_equal(cfg.flasher.target,
					    "mps2-an386,shift=10");
			assert_string_equal(cfg.link.type, "semihost");
		}
		snprintf(json, sizeof(json),
			 "{" ALG ", 'board': {'name': '%s', 'clock_hz': %u}%s}",
			 b[i].board, (unsigned)b[i].fast_hz, link);
		parse_ok(json, &cfg);
		/* No named profile at full speed: the clock's wait states,
		 * the accelerator on. */
		assert_string_equal(cfg.cycle_model.profile, "");
		assert_int_equal(cfg.cycle_model.wait_states, b[i].fast_ws);
		assert_true(cfg.cycle_model.art);
	}
	/* The netduinoplus2 keeps its machine: no word from its board. */
	parse_ok("{" ALG "}", &cfg);
	assert_string_equal(cfg.flasher.target, "");
	/* The mps2-an386 has no USART link. */
	parse_fails("{" ALG ", 'board': {'name': 'qemu-mps2-an386'},"
		    " 'link': {'type': 'socket'}}",
		    "link.type: \"socket\" cannot reach board.name "
		    "\"qemu-mps2-an386\" (it needs link semihost)");
	hil_config_free(&cfg);
}

static void test_every_key_is_copied(void **state)
{
	struct hil_config cfg = {0};

	(void)state;
	parse_ok(
		"{'name': 'full',"
		" 'board': {'name': 'nucleo-f401re', 'clock_hz': 16000000},"
		" 'link': {'type': 'serial', 'port': '/dev/ttyACM3', 'baud': 921600,"
		"   'timeout_ms': 500, 'retries': 0},"
		" 'flasher': {'type': 'openocd', 'program': 'openocd-0.12',"
		"   'openocd_config': ['interface/stlink.cfg', 'target/stm32f4x.cfg'],"
		"   'probe_serial': '066DFF494849887767184336', 'timeout_ms': 1000},"
		" 'build': {'cflags': ['-Os', '-funroll-loops', '-mcpu=cortex-m4']},"
		" 'algorithms': ['ascon-aead128', {'name': 'ascon-aead128', 'impl': 'armv7m'},"
		"   {'name': 'ascon-hash256'}],"
		" 'bench': {'operations': ['hash'], 'lengths': [0, 1, 2048],"
		"   'ad_lengths': [0, 16], 'runs': 2048, 'warmup': 0, 'seed': 4294967295},"
		" 'results_dir': '/var/lib/hilrun'}",
		&cfg);
	assert_string_equal(cfg.name, "full");
	assert_int_equal(cfg.board.clock_hz, 16000000);
	assert_int_equal(cfg.link.baud, 921600);
	assert_int_equal(cfg.link.timeout_ms, 500);
	assert_int_equal(cfg.link.retries, 0);
	assert_string_equal(cfg.flasher.program, "openocd-0.12");
	assert_int_equal(cfg.flasher.n_files, 2);
	assert_string_equal(cfg.flasher.files[1], "target/stm32f4x.cfg");
	assert_string_equal(cfg.flasher.probe_serial,
			    "066DFF494849887767184336");
	assert_int_equal(cfg.flasher.timeout_ms, 1000);
	assert_int_equal(cfg.build.n_cflags, 3);
	assert_string_equal(cfg.build.cflags[2], "-mcpu=cortex-m4");
	assert_int_equal(cfg.n_algs, 3);
	assert_string_equal(cfg.algs[0].impl, "ref");
	assert_string_equal(cfg.algs[1].impl, "armv7m");
	assert_string_equal(cfg.algs[2].name, "ascon-hash256");
	assert_string_equal(cfg.algs[2].impl, "ref");
	assert_int_equal(cfg.bench.operations, HIL_OPS_HASH);
	assert_int_equal(cfg.bench.n_lengths, 3);
	assert_int_equal(cfg.bench.lengths[0], 0);
	assert_int_equal(cfg.bench.lengths[2], 2048);
	assert_int_equal(cfg.bench.n_ad_lengths, 2);
	assert_int_equal(cfg.bench.runs, 2048);
	assert_int_equal(cfg.bench.warmup, 0);
	assert_int_equal(cfg.bench.seed, 4294967295u);
	assert_string_equal(cfg.results_dir, "/var/lib/hilrun");

	/* An empty flag list means the compiler's own defaults. */
	parse_ok("{" ALG ", 'build': {'cflags': []}}", &cfg);
	assert_int_equal(cfg.build.n_cflags, 0);
	hil_config_free(&cfg);
}

/* ---- extends ------------------------------------------------------------ */

static void test_extends_chain_merges_objects_and_replaces_arrays(void **state)
{
	struct fx *fx = *state;
	struct hil_config cfg = {0};
	char sub[128], a[128], p[128], err[512] = "";
	int ret;

	snprintf(sub, sizeof(sub), "%s/sub", fx->dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	/* c.json is found relative to sub/b.json, not to a.json. */
	put(fx, "sub/c.json",
	    "{" ALG ", 'bench': {'runs': 5, 'warmup': 7, 'lengths': [1, 2, 3]},"
	    " 'link': {'timeout_ms': 500, 'retries': 9}, 'results_dir': 'c'}",
	    p, sizeof(p));
	put(fx, "sub/b.json",
	    "{'extends': 'c.json', 'bench': {'runs': 6, 'lengths': [9]},"
	    " 'link': {'retries': 1}}",
	    p, sizeof(p));
	put(fx, "a.json", "{'extends': 'sub/b.json', 'bench': {'warmup': 8}}",
	    a, sizeof(a));

	ret = hil_config_load(a, &cfg, err, sizeof(err));
	if (ret != HIL_OK) {
		print_error("%s\n", err);
	}
	assert_int_equal(ret, HIL_OK);
	assert_string_equal(cfg.path, a);
	assert_string_equal(cfg.name, "a");
	assert_int_equal(cfg.bench.runs, 6);	  /* b over c */
	assert_int_equal(cfg.bench.warmup, 8);	  /* a over c */
	assert_int_equal(cfg.bench.n_lengths, 1); /* replaced, not appended */
	assert_int_equal(cfg.bench.lengths[0], 9);
	assert_int_equal(cfg.link.timeout_ms, 500); /* kept from c */
	assert_int_equal(cfg.link.retries, 1);
	assert_string_equal(cfg.results_dir, "c");
	assert_int_equal(cfg.n_algs, 1);
	hil_config_free(&cfg);
}

static void
test_extends_replaces_what_is_not_an_object_on_both_sides(void **state)
{
	struct fx *fx = *state;
	struct hil_config cfg = {0};
	char a[128], p[128], want[1024], err[512] = "";

	/* A base's bad array does not matter when the child replaces it. */
	put(fx, "base.json", "{" ALG ", 'bench': {'lengths': [1, 1]}}", p,
	    sizeof(p));
	put(fx, "a.json", "{'extends': 'base.json', 'bench': {'lengths': [4]}}",
	    a, sizeof(a));
	assert_int_equal(hil_config_load(a, &cfg, err, sizeof(err)), HIL_OK);
	assert_int_equal(cfg.bench.n_lengths, 1);
	assert_int_equal(cfg.bench.lengths[0], 4);

	/* An object replaced by a scalar is a type error in the child. */
	put(fx, "a.json", "{'extends': 'base.json', 'bench': 3}", a, sizeof(a));
	hil_config_free(&cfg);
	assert_int_equal(hil_config_load(a, &cfg, err, sizeof(err)),
			 HIL_ERR_CONFIG);
	snprintf(want, sizeof(want), "%s: bench: expected an object", a);
	assert_string_equal(err, want);

	/* A scalar replaced by an object is just the child's object. */
	put(fx, "base.json", "{" ALG ", 'bench': 3}", p, sizeof(p));
	put(fx, "a.json", "{'extends': 'base.json', 'bench': {'runs': 9}}", a,
	    sizeof(a));
	hil_config_free(&cfg);
	assert_int_equal(hil_config_load(a, &cfg, err, sizeof(err)), HIL_OK);
	assert_int_equal(cfg.bench.runs, 9);
	hil_config_free(&cfg);
}

static void test_extends_base_name_is_not_inherited(void **state)
{
	struct fx *fx = *state;
	struct hil_config cfg = {0};
	char a[128], p[128], err[512] = "";

	put(fx, "base.json", "{'name': 'base', " ALG "}", p, sizeof(p));
	put(fx, "child.json", "{'extends': 'base.json'}", a, sizeof(a));
	assert_int_equal(hil_config_load(a, &cfg, err, sizeof(err)), HIL_OK);
	assert_string_equal(cfg.name, "child");

	put(fx, "child.json", "{'extends': 'base.json', 'name': 'mine'}", a,
	    sizeof(a));
	hil_config_free(&cfg);
	assert_int_equal(hil_config_load(a, &cfg, err, sizeof(err)), HIL_OK);
	assert_string_equal(cfg.name, "mine");
	hil_config_free(&cfg);
}

static void test_inline_extends_is_relative_to_base_dir(void **state)
{
	struct fx *fx = *state;
	struct hil_config cfg = {0};
	char p[128], json[256], err[512] = "";
	int ret;

	put(fx, "base.json", "{" ALG ", 'bench': {'runs': 42}}", p, sizeof(p));
	ut_unquote(json, sizeof(json),
		   "{'extends': 'base.json', 'name': 'job7'}");
	ret = hil_config_parse(json, fx->dir, &cfg, err, sizeof(err));
	if (ret != HIL_OK) {
		print_error("%s\n", err);
	}
	assert_int_equal(ret, HIL_OK);
	assert_int_equal(cfg.bench.runs, 42);
	assert_string_equal(cfg.name, "job7");
	hil_config_free(&cfg);
}

static void
test_external_implementation_path_is_resolved_from_the_file(void **state)
{
	struct fx *fx = *state;
	struct hil_config cfg = {0};
	char p[256], dir[256], kat[256], err[512] = "";
	int ret;

	snprintf(dir, sizeof(dir), "%s/mine", fx->dir);
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(kat, sizeof(kat), "%s/mine/kat.txt", fx->dir);
	fclose(fopen(kat, "w"));
	put(fx, "ext.json",
	    "{'algorithms': [{'name': 'ascon-aead128', 'impl': 'mine', 'path': 'mine', 'kat': 'mine/kat.txt'}]}",
	    p, sizeof(p));
	ret = hil_config_load(p, &cfg, err, sizeof(err));
	if (ret != HIL_OK) {
		print_error("%s\n", err);
	}
	assert_int_equal(ret, HIL_OK);
	assert_string_equal(cfg.algs[0].path, dir);
	assert_string_equal(cfg.algs[0].kat, kat);
	hil_config_free(&cfg);
}

static void test_external_implementation_errors_name_the_path(void **state)
{
	(void)state;
	parse_fails(
		"{'algorithms': [{'name': 'ascon-aead128', 'impl': 'x', 'path': '/nonexistent/impl'}]}",
		"algorithms[0].path: /nonexistent/impl: No such file or directory");
	parse_fails(
		"{'algorithms': [{'name': 'ascon-aead128', 'path': '/tmp'}]}",
		"algorithms[0]: an external implementation (path) needs an \"impl\" name of its own");
	parse_fails(
		"{'algorithms': [{'name': 'ascon-aead128', 'impl': 'x', 'path': '/tmp', 'kat': '/tmp'}]}",
		"algorithms[0].kat: /tmp is not a file");
}

static void test_extends_cycle_is_an_error_naming_the_files(void **state)
{
	struct fx *fx = *state;
	struct hil_config cfg = {0};
	char a[128], b[128], want[1024], err[1024];

	put(fx, "a.json", "{'extends': 'b.json', " ALG "}", a, sizeof(a));
	put(fx, "b.json", "{'extends': 'a.json'}", b, sizeof(b));
	assert_int_equal(hil_config_load(a, &cfg, err, sizeof(err)),
			 HIL_ERR_CONFIG);
	snprintf(want, sizeof(want), "%s: extends: cycle: %s -> %s -> %s", b, a,
		 b, a);
	assert_string_equal(err, want);

	put(fx, "self.json", "{'extends': './self.json', " ALG "}", a,
	    sizeof(a));
	hil_config_free(&cfg);
	assert_int_equal(hil_config_load(a, &cfg, err, sizeof(err)),
			 HIL_ERR_CONFIG);
	snprintf(want, sizeof(want), "%s: extends: cycle: %s -> %s/./self.json",
		 a, a, fx->dir);
	assert_string_equal(err, want);
	hil_config_free(&cfg);
}

static void test_extends_deeper_than_the_limit_is_an_error(void **state)
{
	struct fx *fx = *state;
	struct hil_config cfg = {0};
	char name[32], text[128], top[128], p[128], want[1024], err[512] = "";
	int i;

	/* f0 -> f1 -> ... -> f8: exactly HIL_CFG_MAX_EXTENDS_DEPTH hops. */
	for (i = 0; i < HIL_CFG_MAX_EXTENDS_DEPTH; i++) {
		snprintf(name, sizeof(name), "f%d.json", i);
		snprintf(text, sizeof(text), "{'extends': 'f%d.json'}", i + 1);
		put(fx, name, text, i == 0 ? top : p, sizeof(p));
	}
	snprintf(name, sizeof(name), "f%d.json", i);
	put(fx, name, "{" ALG ", 'bench': {'seed': 77}}", p, sizeof(p));
	assert_int_equal(hil_config_load(top, &cfg, err, sizeof(err)), HIL_OK);
	assert_int_equal(cfg.bench.seed, 77);

	/* One more hop is refused, naming the file that asked for it. */
	put(fx, name, "{'extends': 'f9.json'}", p, sizeof(p));
	put(fx, "f9.json", "{" ALG "}", want, sizeof(want));
	hil_config_free(&cfg);
	assert_int_equal(hil_config_load(top, &cfg, err, sizeof(err)),
			 HIL_ERR_CONFIG);
	snprintf(want, sizeof(want),
		 "%s: extends: more than %d levels of extends", p,
		 HIL_CFG_MAX_EXTENDS_DEPTH);
	assert_string_equal(err, want);
	hil_config_free(&cfg);
}

static void test_extends_must_name_a_file(void **state)
{
	(void)state;
	parse_fails("{'extends': 3, " ALG "}", "extends: expected a file name");
	parse_fails("{'extends': '', " ALG "}",
		    "extends: expected a file name");
}

/* ---- files -------------------------------------------------------------- */

static void test_missing_file_is_an_io_error_with_path_and_reason(void **state)
{
	struct fx *fx = *state;
	struct hil_config cfg = {0};
	char a[128], want[1024], err[512];

	snprintf(a, sizeof(a), "%s/nope.json", fx->dir);
	assert_int_equal(hil_config_load(a, &cfg, err, sizeof(err)),
			 HIL_ERR_IO);
	snprintf(want, sizeof(want),
		 "%s: cannot open: No such file or directory", a);
	assert_string_equal(err, want);

	put(fx, "a.json", "{'extends': 'gone.json'}", a, sizeof(a));
	hil_config_free(&cfg);
	assert_int_equal(hil_config_load(a, &cfg, err, sizeof(err)),
			 HIL_ERR_IO);
	snprintf(
		want, sizeof(want),
		"%s: extends: cannot open %s/gone.json: No such file or directory",
		a, fx->dir);
	assert_string_equal(err, want);

	hil_config_free(&cfg);
	assert_int_equal(hil_config_load(fx->dir, &cfg, err, sizeof(err)),
			 HIL_ERR_IO);
	snprintf(want, sizeof(want),
		 "%s: cannot open: not a regular file (a directory)", fx->dir);
	assert_string_equal(err, want);
	hil_config_free(&cfg);
}

static const struct refusal malformed_json_names_line_and_column[] = {
	{"{" ALG "}\n// comment",
	 "line 2, column 1: text after the end of the JSON value"},
	{"[" ALG "]",
	 "line 1, column 14: not JSON (a configuration starts with \"{\")"},
	{"['x']", "expected a JSON object ({ ... }) at the top level"},
	{"42", "expected a JSON object ({ ... }) at the top level"},
};

static void test_malformed_json_names_line_and_column(void **state)
{
	struct fx *fx = *state;
	struct hil_config cfg = {0};
	char a[128], want[1024], err[512];

	put(fx, "bad.json",
	    "{\n"
	    "\t'name': 'x',\n"
	    "\t'bench': { 'runs': 10,, 'seed': 1 }\n"
	    "}\n",
	    a, sizeof(a));
	assert_int_equal(hil_config_load(a, &cfg, err, sizeof(err)),
			 HIL_ERR_CONFIG);
	/* cJSON stops just after the second comma; the excerpt starts a few
	 * characters earlier and escapes the text's double quotes. */
	snprintf(
		want, sizeof(want),
		"%s: line 3, column 25: invalid JSON near \"s\\\": 10,, \\\"seed\\\": 1 }\"",
		a);
	assert_string_equal(err, want);

	put(fx, "cut.json", "{\n\t'name': 'x',\n", a, sizeof(a));
	hil_config_free(&cfg);
	assert_int_equal(hil_config_load(a, &cfg, err, sizeof(err)),
			 HIL_ERR_CONFIG);
	snprintf(want, sizeof(want),
		 "%s: line 3, column 1: invalid JSON (unexpected end of input)",
		 a);
	assert_string_equal(err, want);

	put(fx, "empty.json", "", a, sizeof(a));
	hil_config_free(&cfg);
	assert_int_equal(hil_config_load(a, &cfg, err, sizeof(err)),
			 HIL_ERR_CONFIG);
	snprintf(want, sizeof(want),
		 "%s: line 1, column 1: invalid JSON (unexpected end of input)",
		 a);
	assert_string_equal(err, want);

	parse_fails_all(malformed_json_names_line_and_column,
			N_CASES(malformed_json_names_line_and_column));
	hil_config_free(&cfg);
}

static void test_malformed_json_in_a_base_names_the_base(void **state)
{
	struct fx *fx = *state;
	struct hil_config cfg = {0};
	char a[128], b[128], want[1024], err[512];

	put(fx, "base.json", "{\n\n  'runs' 3\n}", b, sizeof(b));
	put(fx, "a.json", "{'extends': 'base.json'}", a, sizeof(a));
	assert_int_equal(hil_config_load(a, &cfg, err, sizeof(err)),
			 HIL_ERR_CONFIG);
	snprintf(want, sizeof(want),
		 "%s: line 3, column 10: invalid JSON near \" \\\"runs\\\" 3\"",
		 b);
	assert_string_equal(err, want);
	hil_config_free(&cfg);
}

static void test_nul_bytes_and_huge_files_are_refused(void **state)
{
	struct fx *fx = *state;
	struct hil_config cfg = {0};
	char a[128], want[1024], err[512];
	FILE *f;
	size_t i;

	snprintf(a, sizeof(a), "%s/nul.json", fx->dir);
	f = fopen(a, "w");
	assert_non_null(f);
	fwrite("{\n \0}", 1, 5, f);
	fclose(f);
	assert_int_equal(hil_config_load(a, &cfg, err, sizeof(err)),
			 HIL_ERR_CONFIG);
	snprintf(want, sizeof(want),
		 "%s: line 2, column 2: NUL byte in the text", a);
	assert_string_equal(err, want);

	snprintf(a, sizeof(a), "%s/huge.json", fx->dir);
	f = fopen(a, "w");
	assert_non_null(f);
	fputc('{', f);
	for (i = 0; i < 1100000; i++) {
		fputc(' ', f);
	}
	fputs("\"algorithms\": [\"ascon-aead128\"]}", f);
	fclose(f);
	hil_config_free(&cfg);
	assert_int_equal(hil_config_load(a, &cfg, err, sizeof(err)),
			 HIL_ERR_CONFIG);
	snprintf(want, sizeof(want),
		 "%s: larger than 1048576 bytes: not a configuration", a);
	assert_string_equal(err, want);
	hil_config_free(&cfg);
}

/* A FIFO, a device or a file that is not JSON: a clear error at once,
 * nothing of the file quoted (a job could name a secret to read it back). */
static void
test_special_and_secret_files_are_refused_without_quoting(void **state)
{
	struct fx *fx = *state;
	struct hil_config cfg = {0};
	char a[128], b[128], err[512];

	snprintf(a, sizeof(a), "%s/fifo.json", fx->dir);
	assert_int_equal(mkfifo(a, 0600), 0);
	assert_int_equal(hil_config_load(a, &cfg, err, sizeof(err)),
			 HIL_ERR_IO);
	assert_non_null(strstr(err, "not a regular file (a FIFO)"));
	put(fx, "x.json", "{'extends': 'fifo.json'}", b, sizeof(b));
	hil_config_free(&cfg);
	assert_int_equal(hil_config_load(b, &cfg, err, sizeof(err)),
			 HIL_ERR_IO);
	assert_non_null(strstr(err, "extends: cannot open"));
	assert_non_null(strstr(err, "a FIFO"));
	hil_config_free(&cfg);
	assert_int_equal(hil_config_load("/dev/zero", &cfg, err, sizeof(err)),
			 HIL_ERR_IO);
	assert_non_null(strstr(err, "a device"));

	put(fx, "secret.txt", "TOPSECRET-hunter2 token\n", a, sizeof(a));
	put(fx, "y.json", "{'extends': 'secret.txt'}", b, sizeof(b));
	hil_config_free(&cfg);
	assert_int_equal(hil_config_load(b, &cfg, err, sizeof(err)),
			 HIL_ERR_CONFIG);
	assert_null(strstr(err, "TOPSECRET"));
	assert_null(strstr(err, "hunter2"));
	assert_non_null(strstr(err, "not JSON"));
	hil_config_free(&cfg);
}

/* With roots (a lab job), a config, an extends or a folder outside them is
 * refused, links resolved. */
static void test_roots_confine_every_file_of_a_job(void **state)
{
	struct fx *fx = *state;
	struct hil_config cfg = {0};
	struct hil_config_roots roots;
	char inside[160], a[256], b[256], link[256], err[512];

	snprintf(inside, sizeof(inside), "%s/lab", fx->dir);
	assert_int_equal(mkdir(inside, 0700), 0);
	memset(&roots, 0, sizeof(roots));
	roots.dir[0] = inside;
	roots.n = 1;

	put(fx, "outside.json", "{" ALG "}", b, sizeof(b));
	assert_int_equal(hil_config_load_in(b, &roots, &cfg, err, sizeof(err)),
			 HIL_ERR_CONFIG);
	assert_non_null(strstr(err, "outside"));
	assert_non_null(strstr(err, inside));
	put(fx, "lab/ok.json", "{" ALG "}", a, sizeof(a));
	hil_config_free(&cfg);
	assert_int_equal(hil_config_load_in(a, &roots, &cfg, err, sizeof(err)),
			 HIL_OK);
	put(fx, "lab/ext.json", "{'extends': '../outside.json'}", a, sizeof(a));
	hil_config_free(&cfg);
	assert_int_equal(hil_config_load_in(a, &roots, &cfg, err, sizeof(err)),
			 HIL_ERR_CONFIG);
	assert_non_null(strstr(err, "extends:"));
	assert_non_null(strstr(err, "is outside"));
	/* a link inside that points outside */
	snprintf(link, sizeof(link), "%s/lab/sneaky.json", fx->dir);
	assert_int_equal(symlink(b, link), 0);
	hil_config_free(&cfg);
	assert_int_equal(
		hil_config_load_in(link, &roots, &cfg, err, sizeof(err)),
		HIL_ERR_CONFIG);
	/* an algorithm folder outside (a small one: the loader walks it) */
	snprintf(a, sizeof(a), "%s/ext", fx->dir);
	assert_int_equal(mkdir(a, 0755), 0);
	snprintf(
		b, sizeof(b),
		"{\"algorithms\": [{\"name\": \"ascon-aead128\", \"impl\": \"x\", \"path\": \"%s\"}]}",
		a);
	hil_config_free(&cfg);
	assert_int_equal(
		hil_config_parse_in(b, inside, &roots, &cfg, err, sizeof(err)),
		HIL_ERR_CONFIG);
	assert_non_null(strstr(err, "algorithms[0].path"));
	assert_non_null(strstr(err, "is outside"));
	hil_config_free(&cfg);
	/* the same without roots: allowed (the CLI's freedom) */
	assert_int_equal(hil_config_parse(b, inside, &cfg, err, sizeof(err)),
			 HIL_OK);
	hil_config_free(&cfg);
}

/* {"tree": DIR}: every DIR/<alg>/<impl>/api.h, in name order, named after
 * their folders; "pattern" narrows it; an empty tree is an error. */
static void test_a_tree_expands_into_its_implementations(void **state)
{
	struct fx *fx = *state;
	struct hil_config cfg = {0};
	char a[128], err[512];
	static const char *const folders[] = {"t",
					      "t/zeta",
					      "t/zeta/ref",
					      "t/alpha",
					      "t/alpha/opt 2",
					      "t/alpha/ref",
					      "t/alpha/noapi"};
	size_t i;

	for (i = 0; i < sizeof(folders) / sizeof(folders[0]); i++) {
		char d[256];

		snprintf(d, sizeof(d), "%s/%s", fx->dir, folders[i]);
		assert_int_equal(mkdir(d, 0755), 0);
	}
	put(fx, "t/zeta/ref/api.h", "", a, sizeof(a));
	put(fx, "t/alpha/opt 2/api.h", "", a, sizeof(a));
	put(fx, "t/alpha/ref/api.h", "", a, sizeof(a));
	put(fx, "x.json", "{'algorithms': ['ascon-aead128', {'tree': 't'}]}", a,
	    sizeof(a));
	assert_int_equal(hil_config_load(a, &cfg, err, sizeof(err)), HIL_OK);
	assert_int_equal(cfg.n_algs, 4);
	assert_string_equal(cfg.algs[1].name, "alpha");
	assert_string_equal(cfg.algs[1].impl, "opt_2");
	assert_non_null(strstr(cfg.algs[1].path, "t/alpha/opt 2"));
	assert_string_equal(cfg.algs[2].impl, "ref");
	assert_string_equal(cfg.algs[3].name, "zeta");
	assert_int_equal(cfg.algs[3].entry, 1);

	put(fx, "y.json",
	    "{'algorithms': [{'tree': 't', 'pattern': 'alpha/r*'}]}", a,
	    sizeof(a));
	hil_config_free(&cfg);
	assert_int_equal(hil_config_load(a, &cfg, err, sizeof(err)), HIL_OK);
	assert_int_equal(cfg.n_algs, 1);
	assert_string_equal(cfg.algs[0].name, "alpha");

	put(fx, "z.json",
	    "{'algorithms': [{'tree': 't', 'pattern': 'nothing*'}]}", a,
	    sizeof(a));
	hil_config_free(&cfg);
	assert_int_equal(hil_config_load(a, &cfg, err, sizeof(err)),
			 HIL_ERR_CONFIG);
	assert_non_null(strstr(
		err,
		"algorithms[0].tree: no <algorithm>/<implementation>/api.h under"));
	assert_non_null(strstr(err, "matching nothing*"));

	put(fx, "w.json", "{'algorithms': [{'tree': 't', 'name': 'x'}]}", a,
	    sizeof(a));
	hil_config_free(&cfg);
	assert_int_equal(hil_config_load(a, &cfg, err, sizeof(err)),
			 HIL_ERR_CONFIG);
	assert_non_null(strstr(err, "a tree takes only"));
	hil_config_free(&cfg);
}

/* The SUPERCOP / NIST LWC grid: lengths as a range, AD lengths beside. */
static void test_lengths_as_a_grid(void **state)
{
	struct hil_config cfg = {0};
	char err[512];

	(void)state;
	assert_int_equal(
		hil_config_parse(
			"{\"algorithms\": [\"ascon-aead128\"], \"bench\": {"
			"\"lengths\": {\"from\": 0, \"to\": 2048, \"step\": 64},"
			" \"ad_lengths\": [0, 16]}}",
			NULL, &cfg, err, sizeof(err)),
		HIL_OK);
	assert_int_equal(cfg.bench.n_lengths, 33);
	assert_int_equal(cfg.bench.lengths[0], 0);
	assert_int_equal(cfg.bench.lengths[1], 64);
	assert_int_equal(cfg.bench.lengths[32], 2048);
	assert_int_equal(cfg.bench.n_ad_lengths, 2);
	hil_config_free(&cfg);
	assert_int_equal(
		hil_config_parse(
			"{\"algorithms\": [\"ascon-aead128\"], \"bench\": {"
			"\"lengths\": {\"from\": 10, \"to\": 20, \"step\": 4}}}",
			NULL, &cfg, err, sizeof(err)),
		HIL_OK);
	assert_int_equal(cfg.bench.n_lengths, 3); /* 10, 14, 18 */
	assert_int_equal(cfg.bench.lengths[2], 18);
	parse_fails(
		"{\"algorithms\": [\"ascon-aead128\"], \"bench\": {"
		"\"lengths\": {\"from\": 0, \"to\": 2048, \"step\": 1}}}",
		"bench.lengths: from 0 to 2048 in steps of 1 is 2049 lengths, at most 64");
	parse_fails(
		"{\"algorithms\": [\"ascon-aead128\"], \"bench\": {"
		"\"lengths\": {\"to\": 64}}}",
		"bench.lengths: a range needs \"from\" and \"to\" (and optionally \"step\")");
	hil_config_free(&cfg);
}

/* ---- keys and types ----------------------------------------------------- */

static const struct refusal unknown_key_is_an_error_naming_its_path[] = {
	{"{" ALG ", 'frobnicate': 1}", "frobnicate: unknown key"},
	/* Keys are case-sensitive, as in JSON. */
	{"{" ALG ", 'Bench': {}}",
	 "Bench: unknown key (did you mean \"bench\"?)"},
	{"{" ALG ", 'link': {'speed': 9600}}", "link.speed: unknown key"},
	{"{'algorithms': [{'name': 'ascon-aead128', 'imp': 'ref'}]}",
	 "algorithms[0].imp: unknown key (did you mean \"impl\"?)"},
	{"{" ALG ", 'board': {'clock': 84000000}}", "board.clock: unknown key"},
	/* A key with control characters prints escaped. */
	{"{" ALG ", 'a\\nb': 1}", "a\\x0ab: unknown key"},
	/* The "extends" key means something only at the top. */
	{"{" ALG ", 'bench': {'extends': 'x.json'}}",
	 "bench.extends: unknown key"},
};

static void test_unknown_key_is_an_error_naming_its_path(void **state)
{
	struct fx *fx = *state;
	struct hil_config cfg = {0};
	char a[128], want[1024], err[512];

	put(fx, "x.json", "{" ALG ", 'bench': {'runs': 5, 'lenghts': [16]}}", a,
	    sizeof(a));
	assert_int_equal(hil_config_load(a, &cfg, err, sizeof(err)),
			 HIL_ERR_CONFIG);
	snprintf(want, sizeof(want),
		 "%s: bench.lenghts: unknown key (did you mean \"lengths\"?)",
		 a);
	assert_string_equal(err, want);

	parse_fails_all(unknown_key_is_an_error_naming_its_path,
			N_CASES(unknown_key_is_an_error_naming_its_path));
	hil_config_free(&cfg);
}

static void test_unknown_key_in_a_base_names_the_base_file(void **state)
{
	struct fx *fx = *state;
	struct hil_config cfg = {0};
	char a[128], b[128], want[1024], err[512];

	put(fx, "base.json", "{" ALG ", 'bench': {'rnus': 3}}", b, sizeof(b));
	put(fx, "a.json", "{'extends': 'base.json', 'bench': {'runs': 4}}", a,
	    sizeof(a));
	assert_int_equal(hil_config_load(a, &cfg, err, sizeof(err)),
			 HIL_ERR_CONFIG);
	snprintf(want, sizeof(want),
		 "%s: bench.rnus: unknown key (did you mean \"runs\"?)", b);
	assert_string_equal(err, want);

	/* Each bad value names the file it is written in. */
	put(fx, "base.json", "{" ALG ", 'bench': {'runs': 0}}", b, sizeof(b));
	put(fx, "a.json", "{'extends': 'base.json', 'bench': {'warmup': -1}}",
	    a, sizeof(a));
	hil_config_free(&cfg);
	assert_int_equal(hil_config_load(a, &cfg, err, sizeof(err)),
			 HIL_ERR_CONFIG);
	snprintf(want, sizeof(want),
		 "%s: bench.runs: expected an integer from 1 to 2048", b);
	assert_string_equal(err, want);
	put(fx, "a.json",
	    "{'extends': 'base.json', 'bench': {'runs': 1, 'warmup': -1}}", a,
	    sizeof(a));
	hil_config_free(&cfg);
	assert_int_equal(hil_config_load(a, &cfg, err, sizeof(err)),
			 HIL_ERR_CONFIG);
	snprintf(want, sizeof(want),
		 "%s: bench.warmup: expected an integer from 0 to 65535", a);
	assert_string_equal(err, want);
	hil_config_free(&cfg);
}

static void test_wrong_type_in_lengths_gives_the_exact_message(void **state)
{
	struct fx *fx = *state;
	struct hil_config cfg = {0};
	char a[128], want[1024], err[512];

	put(fx, "x.json", "{" ALG ", 'bench': {'lengths': [16, 64, '256']}}", a,
	    sizeof(a));
	assert_int_equal(hil_config_load(a, &cfg, err, sizeof(err)),
			 HIL_ERR_CONFIG);
	snprintf(want, sizeof(want),
		 "%s: bench.lengths[2]: expected an integer from 0 to 2048", a);
	assert_string_equal(err, want);
	hil_config_free(&cfg);
}

static const struct refusal wrong_types_are_rejected[] = {
	{"{" ALG ", 'bench': []}", "bench: expected an object"},
	{"{" ALG ", 'bench': {'lengths': 16}}",
	 "bench.lengths: expected an array"},
	{"{" ALG ", 'bench': {'runs': '1000'}}",
	 "bench.runs: expected an integer from 1 to 2048"},
	{"{" ALG ", 'bench': {'runs': true}}",
	 "bench.runs: expected an integer from 1 to 2048"},
	{"{" ALG ", 'bench': {'runs': null}}",
	 "bench.runs: expected an integer from 1 to 2048"},
	{"{" ALG ", 'name': 7}", "name: expected a string"},
	{"{" ALG ", 'link': {'port': ['/dev/ttyACM0']}}",
	 "link.port: expected a string"},
	{"{" ALG ", 'build': {'cflags': [-2]}}",
	 "build.cflags[0]: expected a string"},
	{"{'algorithms': [3]}",
	 "algorithms[0]: expected an algorithm name or {\"name\": ..., \"impl\": ...}"},
	{"{'algorithms': 'ascon-aead128'}", "algorithms: expected an array"},
	{"{" ALG ", 'results_dir': ''}", "results_dir: must not be empty"},
};

static void test_wrong_types_are_rejected(void **state)
{
	char names[256], want[512];

	(void)state;
	parse_fails_all(wrong_types_are_rejected,
			N_CASES(wrong_types_are_rejected));
	snprintf(want, sizeof(want), "board.name: expected one of %s",
		 board_list(names, sizeof(names)));
	parse_fails("{" ALG ", 'board': {'name': 1}}", want);
}

/*
 * A link.port that exists but is no serial port is a mistake found when the
 * config loads, not a board that "did not answer" (exit 5, worth a retry):
 * /dev/zero once was. One not there may be a board not plugged in yet.
 */
static void test_link_port_that_is_no_serial_port_is_refused(void **state)
{
	struct hil_config cfg = {0};
	char link[64];

	(void)state;
	parse_fails("{" ALG ", 'board': {'name': 'nucleo-f401re'},"
		    " 'link': {'port': '/etc/hostname'}}",
		    "link.port: /etc/hostname is not a character device, so "
		    "not a serial port");
	/* The class of a device is read from sysfs, where there is one. */
	if (readlink("/sys/dev/char/1:5/subsystem", link, sizeof(link)) > 0) {
		parse_fails(
			"{" ALG ", 'board': {'name': 'nucleo-f401re'},"
			" 'link': {'port': '/dev/zero'}}",
			"link.port: /dev/zero is a device of class \"mem\", "
			"not a serial port (tty)");
	}
	parse_ok("{" ALG ", 'board': {'name': 'nucleo-f401re'},"
		 " 'link': {'port': '/dev/ttyACM9-not-plugged'}}",
		 &cfg);
	hil_config_free(&cfg);
}

static const struct refusals out_of_range_integers_are_rejected[] = {
	{"bench.runs: expected an integer from 1 to 2048",
	 {"'bench': {'runs': 0}", "'bench': {'runs': 2049}",
	  "'bench': {'runs': 10.5}", "'bench': {'runs': 1e999}"}},
	{"bench.warmup: expected an integer from 0 to 65535",
	 {"'bench': {'warmup': -1}"}},
	{"bench.lengths[1]: expected an integer from 0 to 2048",
	 {"'bench': {'lengths': [16, 2049]}"}},
	{"bench.lengths[0]: expected an integer from 0 to 2048",
	 {"'bench': {'lengths': [-16]}"}},
	{"bench.ad_lengths[0]: expected an integer from 0 to 2048",
	 {"'bench': {'ad_lengths': [4096]}"}},
	{"bench.seed: expected an integer from 0 to 4294967295",
	 {"'bench': {'seed': 4294967296}"}},
	{"bench.normalize_to: \"a/b/c\" is not \"algorithm\" or \"algorithm/implementation\"",
	 {"'bench': {'normalize_to': 'a/b/c'}"}},
	{"bench.normalize_to: expected a string",
	 {"'bench': {'normalize_to': 5}"}},
	{"bench.leak_runs: 3 runs cannot give a t statistic: 0 (off) or at least 4",
	 {"'bench': {'leak_runs': 3}"}},
	{"cycle_model.wait_states: expected an integer from 0 to 15",
	 {"'cycle_model': {'wait_states': 16}"}},
	{"cycle_model.art: expected true or false",
	 {"'cycle_model': {'art': 1}"}},
	{"cycle_model.cache: unknown key", {"'cycle_model': {'cache': true}"}},
	{"link.baud: expected an integer from 1200 to 4000000",
	 {"'link': {'baud': 300}", "'link': {'baud': 4000001}"}},
	{"link.timeout_ms: expected an integer from 1 to 600000",
	 {"'link': {'timeout_ms': 0}"}},
	{"link.retries: expected an integer from 0 to 100",
	 {"'link': {'retries': 101}"}},
	{"flasher.timeout_ms: expected an integer from 1 to 600000",
	 {"'flasher': {'timeout_ms': 600001}"}},
	{"board.clock_hz: expected 84000000, 24000000 or 16000000",
	 {"'board': {'clock_hz': 168000000}", "'board': {'clock_hz': 'fast'}"}},
};

static void test_out_of_range_integers_are_rejected(void **state)
{
	struct hil_config cfg = {0};

	(void)state;
	parse_fails_with_alg(out_of_range_integers_are_rejected,
			     N_CASES(out_of_range_integers_are_rejected));

	/* The ends of each range are accepted; 0 is a valid message length. */
	parse_ok("{" ALG ", 'bench': {'lengths': [0, 2048], 'runs': 1,"
		 " 'warmup': 65535, 'seed': 0},"
		 " 'link': {'baud': 1200, 'timeout_ms': 600000}}",
		 &cfg);
	assert_int_equal(cfg.bench.lengths[0], 0);
	assert_int_equal(cfg.bench.lengths[1], 2048);
	assert_int_equal(cfg.link.timeout_ms, 600000);
	/* A whole number may be written as one. */
	parse_ok("{" ALG ", 'bench': {'runs': 1e3, 'warmup': 5.0}}", &cfg);
	assert_int_equal(cfg.bench.runs, 1000);
	assert_int_equal(cfg.bench.warmup, 5);
	hil_config_free(&cfg);
}

static void test_repeated_length_is_rejected(void **state)
{
	(void)state;
	parse_fails("{" ALG ", 'bench': {'lengths': [16, 64, 256, 64]}}",
		    "bench.lengths[3]: 64 is repeated (also at [1])");
	parse_fails("{" ALG ", 'bench': {'ad_lengths': [0, 0]}}",
		    "bench.ad_lengths[1]: 0 is repeated (also at [0])");
}

static void test_operations_must_be_known_and_not_repeated(void **state)
{
	struct hil_config cfg = {0};

	(void)state;
	parse_fails(
		"{" ALG ", 'bench': {'operations': ['encrypt', 'encrpyt']}}",
		"bench.operations[1]: \"encrpyt\" is not an operation (expected encrypt, decrypt or hash)");
	parse_fails("{" ALG ", 'bench': {'operations': ['hash', 'hash']}}",
		    "bench.operations[1]: \"hash\" is repeated");
	parse_fails("{" ALG ", 'bench': {'operations': []}}",
		    "bench.operations: expected 1 to 3 entries, got 0");
	parse_ok("{" ALG ", 'bench': {'operations': ['decrypt', 'hash']}}",
		 &cfg);
	assert_int_equal(cfg.bench.operations, HIL_OPS_DECRYPT | HIL_OPS_HASH);
	hil_config_free(&cfg);
}

static const struct refusal array_sizes_are_within_the_limits[] = {
	{"{'algorithms': []}", "algorithms: expected at least 1 entry, got 0"},
	{"{'name': 'x'}", "algorithms: at least one algorithm is required"},
	{"{" ALG ", 'bench': {'lengths': []}}",
	 "bench.lengths: expected 1 to 64 entries, got 0"},
	{"{" ALG ", 'board': {'name': 'nucleo-f401re'},"
	 " 'flasher': {'openocd_config': ['a', 'b', 'c', 'd', 'e']}}",
	 "flasher.openocd_config: expected 1 to 4 entries, got 5"},
	/* A flasher's own key under another flasher says whose it is. */
	{"{" ALG ", 'flasher': {'openocd_config': ['a']}}",
	 "flasher.openocd_config: a setting of the openocd flasher, but flasher.type is \"qemu\""},
};

static void test_array_sizes_are_within_the_limits(void **state)
{
	char json[4096], part[16];
	size_t i;

	(void)state;
	parse_fails_all(array_sizes_are_within_the_limits,
			N_CASES(array_sizes_are_within_the_limits));

	snprintf(json, sizeof(json), "{" ALG ", 'bench': {'lengths': [0");
	for (i = 1; i <= HIL_CFG_MAX_LENGTHS; i++) {
		snprintf(part, sizeof(part), ", %zu", i);
		strcat(json, part);
	}
	strcat(json, "]}}");
	parse_fails(json, "bench.lengths: expected 1 to 64 entries, got 65");

	snprintf(json, sizeof(json), "{" ALG ", 'build': {'cflags': ['-O2'");
	for (i = 1; i <= HIL_CFG_MAX_FLAGS; i++) {
		strcat(json, ", '-g'");
	}
	strcat(json, "]}}");
	parse_fails(json, "build.cflags: expected 0 to 32 entries, got 33");

	/* No limit on algorithms: 300 entries (more than the 256 there
	 * once were) are 300 implementations. */
	snprintf(json, sizeof(json), "{'algorithms': ['a0'");
	for (i = 1; i < 300; i++) {
		snprintf(part, sizeof(part), ", 'a%zu'", i);
		strcat(json, part);
	}
	strcat(json, "]}");
	{
		struct hil_config cfg = {0};

		parse_ok(json, &cfg);
		assert_int_equal(cfg.n_algs, 300);
		assert_string_equal(cfg.algs[299].name, "a299");
		assert_int_equal(cfg.algs[299].entry, 299);
		hil_config_free(&cfg);
	}
}

static const struct refusal algorithm_entries_are_names[] = {
	{"{'algorithms': [{'impl': 'ref'}]}", "algorithms[0].name: required"},
	{"{'algorithms': ['../../etc']}",
	 "algorithms[0]: \"../../etc\" is not a name (letters, digits and . _ + -, not starting with . or -)"},
	{"{'algorithms': [{'name': 'ascon-aead128', 'impl': 'a/b'}]}",
	 "algorithms[0].impl: \"a/b\" is not a name (letters, digits and . _ + -, not starting with . or -)"},
	{"{'algorithms': ['ascon-aead128', {'name': 'ascon-aead128'}]}",
	 "algorithms[1]: ascon-aead128 (impl ref) is repeated (also at [0])"},
	{"{'algorithms': ['']}", "algorithms[0]: must not be empty"},
};

static void test_algorithm_entries_are_names(void **state)
{
	(void)state;
	parse_fails_all(algorithm_entries_are_names,
			N_CASES(algorithm_entries_are_names));
}

static void test_name_defaults_to_the_file_name(void **state)
{
	struct fx *fx = *state;
	struct hil_config cfg = {0};
	char a[128], want[1024], err[512];

	put(fx, "o3-fast.json", "{" ALG "}", a, sizeof(a));
	assert_int_equal(hil_config_load(a, &cfg, err, sizeof(err)), HIL_OK);
	assert_string_equal(cfg.name, "o3-fast");

	put(fx, "my run.json", "{" ALG "}", a, sizeof(a));
	hil_config_free(&cfg);
	assert_int_equal(hil_config_load(a, &cfg, err, sizeof(err)),
			 HIL_ERR_CONFIG);
	snprintf(
		want, sizeof(want),
		"%s: name: the file name \"my run.json\" cannot serve as the run name; set \"name\"",
		a);
	assert_string_equal(err, want);

	put(fx, "my run.json", "{'name': 'my-run', " ALG "}", a, sizeof(a));
	hil_config_free(&cfg);
	assert_int_equal(hil_config_load(a, &cfg, err, sizeof(err)), HIL_OK);
	assert_string_equal(cfg.name, "my-run");

	parse_fails(
		"{'name': 'a b', " ALG "}",
		"name: \"a b\" is not a name (letters, digits and . _ + -, not starting with . or -)");
	hil_config_free(&cfg);
}

static void test_repeated_keys_are_rejected(void **state)
{
	(void)state;
	parse_fails("{" ALG ", 'bench': {'runs': 5, 'runs': 6}}",
		    "key \"runs\" appears twice in one object");
}

/* ---- strings ------------------------------------------------------------ */

static void test_overlong_string_is_rejected_not_truncated(void **state)
{
	char json[1024], want[256], longs[301];

	(void)state;
	memset(longs, 'a', 300);
	longs[300] = '\0';
	snprintf(json, sizeof(json),
		 "{" ALG ", 'board': {'name': 'nucleo-f401re'},"
		 " 'link': {'port': '/dev/%s'}}",
		 longs);
	parse_fails(json, "link.port: too long (305 bytes, at most 255)");

	snprintf(want, sizeof(want), "{'name': '%.64s', " ALG "}", longs);
	parse_fails(want, "name: too long (64 bytes, at most 63)");

	snprintf(want, sizeof(want),
		 "{" ALG ", 'build': {'cflags': ['-D%.62s']}}", longs);
	parse_fails(want, "build.cflags[0]: too long (64 bytes, at most 63)");

	/* One byte less fits. */
	snprintf(want, sizeof(want),
		 "{" ALG ", 'build': {'cflags': ['-D%.61s']}}", longs);
	{
		struct hil_config cfg = {0};

		parse_ok(want, &cfg);
		assert_int_equal(strlen(cfg.build.cflags[0]), 63);
		hil_config_free(&cfg);
	}
	parse_fails("{" ALG ", 'link': {'port': 'a\\tb'}}",
		    "link.port: contains a control character");
}

static const struct refusals flags_must_be_single_compiler_flags[] = {
	{"build.cflags[0]: \"O2\" is not a compiler flag (expected \"-\" and a name)",
	 {"'build': {'cflags': ['O2']}"}},
	{"build.cflags[0]: \"-\" is not a compiler flag (expected \"-\" and a name)",
	 {"'build': {'cflags': ['-']}"}},
	{"build.cflags[0]: \"-O2 -g\" contains a space (give each flag as its own string)",
	 {"'build': {'cflags': ['-O2 -g']}"}},
	{"build.cflags[0]: \"-O2;rm\" contains \";\", which a compiler flag does not need",
	 {"'build': {'cflags': ['-O2;rm']}"}},
	{"build.cflags[0]: \"-DX=`id`\" contains \"`\", which a compiler flag does not need",
	 {"'build': {'cflags': ['-DX=`id`']}"}},
	{"build.cflags[0]: \"-DX=$(id)\" contains \"$\", which a compiler flag does not need",
	 {"'build': {'cflags': ['-DX=$(id)']}"}},
	{"build.cflags[1]: contains a control character",
	 {"'build': {'cflags': ['-g', '-O2\\nid']}"}},
};

static void test_flags_must_be_single_compiler_flags(void **state)
{
	(void)state;
	parse_fails_with_alg(flags_must_be_single_compiler_flags,
			     N_CASES(flags_must_be_single_compiler_flags));
}

static void test_probe_serial_cannot_inject_openocd_commands(void **state)
{
	(void)state;
	parse_fails(
		"{" ALG ", 'board': {'name': 'nucleo-f401re'},"
		" 'link': {'port': '/dev/ttyACM0'},"
		" 'flasher': {'probe_serial': '0671; shutdown'}}",
		"flasher.probe_serial: contains \";\", which a probe serial cannot contain");
}

/* ---- combinations ------------------------------------------------------- */

static void test_serial_link_requires_a_port(void **state)
{
	(void)state;
	parse_fails(
		"{" ALG ", 'board': {'name': 'nucleo-f401re'},"
		" 'link': {'type': 'serial'}}",
		"link.port: required when link.type is \"serial\" (or board.id, to take it from the hardware map)");
	/* Also when serial is the board's default. */
	parse_fails(
		"{" ALG ", 'board': {'name': 'nucleo-f401re'}}",
		"link.port: required when link.type is \"serial\" (or board.id, to take it from the hardware map)");
}

static void test_board_and_flasher_must_match(void **state)
{
	struct fx *fx = *state;
	struct hil_config cfg = {0};
	char a[128], want[1024], err[512];

	snprintf(want, sizeof(want),
		 "board.name: \"nucleo-f410\" is not a board (expected %s)",
		 board_list(a, sizeof(a)));
	parse_fails("{" ALG ", 'board': {'name': 'nucleo-f410'}}", want);
	snprintf(want, sizeof(want),
		 "flasher.type: \"jlink\" is not a flasher (expected %s)",
		 flasher_list(a, sizeof(a)));
	parse_fails("{" ALG ", 'flasher': {'type': 'jlink'}}", want);
	snprintf(want, sizeof(want),
		 "link.type: \"usb\" is not a link (expected %s)",
		 link_list(a, sizeof(a)));
	parse_fails("{" ALG ", 'link': {'type': 'usb'}}", want);
	parse_fails(
		"{" ALG ", 'board': {'name': 'nucleo-f401re'},"
		" 'link': {'port': '/dev/ttyACM0'}, 'flasher': {'type': 'qemu'}}",
		"flasher.type: \"qemu\" cannot program board.name \"nucleo-f401re\" (it needs flasher \"openocd\")");
	parse_fails(
		"{" ALG ", 'flasher': {'type': 'openocd'}}",
		"flasher.type: \"openocd\" cannot program board.name \"qemu-netduino\" (it needs flasher \"qemu\")");

	/* The board in the base, the wrong flasher in the child: the child is named. */
	put(fx, "base.json", "{" ALG ", 'board': {'name': 'qemu-netduino'}}", a,
	    sizeof(a));
	put(fx, "x.json",
	    "{'extends': 'base.json', 'flasher': {'type': 'openocd'}}", a,
	    sizeof(a));
	assert_int_equal(hil_config_load(a, &cfg, err, sizeof(err)),
			 HIL_ERR_CONFIG);
	snprintf(
		want, sizeof(want),
		"%s: flasher.type: \"openocd\" cannot program board.name \"qemu-netduino\" (it needs flasher \"qemu\")",
		a);
	assert_string_equal(err, want);
	hil_config_free(&cfg);
}

static void test_the_qemu_board_needs_an_emulator_link(void **state)
{
	struct hil_config cfg = {0};

	(void)state;
	parse_fails(
		"{" ALG ", 'link': {'type': 'serial', 'port': '/dev/pts/3'}}",
		"link.type: \"serial\" cannot reach board.name \"qemu-netduino\" (it needs link semihost or socket)");
	/* Its USART stays a choice; semihosting is the default. */
	parse_ok("{" ALG ", 'link': {'type': 'socket'}}", &cfg);
	assert_string_equal(cfg.link.type, "socket");
	parse_ok("{" ALG ", 'link': {'timeout_ms': 900}}", &cfg);
	assert_string_equal(cfg.link.type, "semihost");
	hil_config_free(&cfg);
}

static void test_a_real_board_cannot_take_the_semihost_link(void **state)
{
	(void)state;
	parse_fails(
		"{" ALG ", 'board': {'name': 'nucleo-f401re'},"
		" 'link': {'type': 'semihost', 'port': '/dev/ttyACM0'}}",
		"link.type: \"semihost\" cannot reach board.name \"nucleo-f401re\" (it needs link serial)");
}

/* ---- robustness ---------------------------------------------------------- */

static void test_failure_leaves_cfg_untouched_and_tolerates_no_err(void **state)
{
	struct hil_config cfg, before;
	char json[256];

	(void)state;
	memset(&cfg, 0x5a, sizeof(cfg));
	memcpy(&before, &cfg, sizeof(cfg));
	ut_unquote(json, sizeof(json),
		   "{" ALG ", 'bench': {'runs': 7, 'seed': -1}}");
	assert_int_equal(hil_config_parse(json, NULL, &cfg, NULL, 0),
			 HIL_ERR_CONFIG);
	assert_memory_equal(&cfg, &before, sizeof(cfg));
	assert_int_equal(hil_config_parse(NULL, NULL, &cfg, NULL, 0),
			 HIL_ERR_ARG);
	assert_int_equal(hil_config_parse(json, NULL, NULL, NULL, 0),
			 HIL_ERR_ARG);
	assert_int_equal(hil_config_load(NULL, &cfg, NULL, 0), HIL_ERR_ARG);
	assert_int_equal(hil_config_load("", &cfg, NULL, 0), HIL_ERR_ARG);
	assert_memory_equal(&cfg, &before, sizeof(cfg));
	/* A tiny buffer receives a truncated, terminated message. */
	{
		char err[8];

		assert_int_equal(
			hil_config_parse(json, NULL, &cfg, err, sizeof(err)),
			HIL_ERR_CONFIG);
		assert_string_equal(err, "bench.s");
	}
}

/* Every prefix and many single-byte edits of a full config: never a crash,
 * always either success or a message (run this under ASan/UBSan). */
static void test_damaged_text_never_crashes(void **state)
{
	static const char *const subst = "\"{}[],:-01e. \\x";
	char full[2048], text[2048], err[256];
	struct hil_config cfg = {0};
	size_t n, i, k;
	int ret;

	(void)state;
	ut_unquote(
		full, sizeof(full),
		"{'name': 'full', 'board': {'name': 'nucleo-f401re', 'clock_hz': 16000000},"
		" 'link': {'type': 'serial', 'port': '/dev/ttyACM3', 'baud': 921600},"
		" 'flasher': {'type': 'openocd', 'openocd_config': ['board/st_nucleo_f4.cfg']},"
		" 'build': {'cflags': ['-Os']},"
		" 'algorithms': ['ascon-aead128', {'name': 'x', 'impl': 'y'}],"
		" 'bench': {'operations': ['hash'], 'lengths': [0, 1, 2048],"
		" 'ad_lengths': [0], 'runs': 10, 'warmup': 0, 'seed': 3},"
		" 'results_dir': 'r'}");
	n = strlen(full);
	assert_int_equal(hil_config_parse(full, NULL, &cfg, err, sizeof(err)),
			 HIL_OK);
	for (i = 0; i < n; i++) {
		memcpy(text, full, i);
		text[i] = '\0';
		err[0] = '\0';
		hil_config_free(&cfg);
		assert_int_equal(
			hil_config_parse(text, NULL, &cfg, err, sizeof(err)),
			HIL_ERR_CONFIG);
		assert_true(err[0] != '\0');
	}
	for (i = 0; i < n; i++) {
		for (k = 0; subst[k] != '\0'; k++) {
			memcpy(text, full, n + 1);
			text[i] = subst[k];
			err[0] = '\0';
			hil_config_free(&cfg);
			ret = hil_config_parse(text, NULL, &cfg, err,
					       sizeof(err));
			assert_true(ret == HIL_OK || ret == HIL_ERR_CONFIG);
			assert_true(ret == HIL_OK || err[0] != '\0');
		}
	}
	hil_config_free(&cfg);
}

static void test_deep_nesting_and_wide_objects_are_refused(void **state)
{
	char *json;
	char err[256];
	struct hil_config cfg = {0};
	size_t i, n = 5000;

	(void)state;
	/* {"x": [[[ ... ]]]} nested far beyond cJSON's limit of 1000. */
	json = malloc(2 * n + 64);
	assert_non_null(json);
	strcpy(json, "{\"x\": ");
	i = strlen(json);
	memset(json + i, '[', n);
	memset(json + i + n, ']', n);
	strcpy(json + i + 2 * n, "}");
	assert_int_equal(hil_config_parse(json, NULL, &cfg, err, sizeof(err)),
			 HIL_ERR_CONFIG);
	free(json);

	/* 20000 distinct keys: refused quickly as unknown. */
	json = malloc(20000 * 16 + 64);
	assert_non_null(json);
	strcpy(json, "{\"algorithms\": [\"a\"]");
	for (i = 0; i < 20000; i++) {
		sprintf(json + strlen(json), ", \"k%zu\": %zu", i, i);
	}
	strcat(json, "}");
	hil_config_free(&cfg);
	assert_int_equal(hil_config_parse(json, NULL, &cfg, err, sizeof(err)),
			 HIL_ERR_CONFIG);
	assert_string_equal(err, "k0: unknown key");
	free(json);
	hil_config_free(&cfg);
}

/* ---- sensor ------------------------------------------------------------ */

static void test_sensor_keys_are_copied(void **state)
{
	struct hil_config cfg = {0};

	(void)state;
	parse_ok("{" ALG ", 'sensor': {'type': 'ina219',"
		 " 'bus': 'ftdi:0403:6014:FT4ABCDE,100k', 'address': '0x4F',"
		 " 'shunt_ohm': 0.01, 'max_current_a': 3.2, 'bus_range_v': 32,"
		 " 'pga_div': 1, 'adc_bits': 12, 'adc_samples': 128,"
		 " 'conversions': 10000, 'windows': 1000}}",
		 &cfg);
	assert_string_equal(cfg.sensor.type, "ina219");
	assert_string_equal(cfg.sensor.bus, "ftdi:0403:6014:FT4ABCDE,100k");
	assert_int_equal(cfg.sensor.address, 0x4F);
	assert_true(cfg.sensor.shunt_ohm == 0.01);
	assert_true(cfg.sensor.max_current_a == 3.2);
	assert_int_equal(cfg.sensor.bus_range_v, 32);
	assert_int_equal(cfg.sensor.pga_div, 1);
	assert_int_equal(cfg.sensor.adc_bits, 12);
	assert_int_equal(cfg.sensor.averages, 128);
	assert_int_equal(cfg.sensor.conversions, 10000);
	assert_int_equal(cfg.sensor.windows, 1000);

	/* The address as an integer, in lower case hex; other buses. */
	parse_ok("{" ALG ", 'sensor': {'type': 'ina219',"
		 " 'bus': 'linux:/dev/i2c-1', 'address': 69, 'adc_bits': 9,"
		 " 'pga_div': 0, 'conversions': 1, 'windows': 1}}",
		 &cfg);
	assert_string_equal(cfg.sensor.bus, "linux:/dev/i2c-1");
	assert_int_equal(cfg.sensor.address, 0x45);
	assert_int_equal(cfg.sensor.adc_bits, 9);
	assert_int_equal(cfg.sensor.averages, 1);
	parse_ok("{" ALG ", 'sensor': {'type': 'ina219', 'address': '0x4a',"
		 " 'bus': 'sim:ina219@0x4a,idle_ma=10'}}",
		 &cfg);
	assert_int_equal(cfg.sensor.address, 0x4A);
	assert_string_equal(cfg.sensor.bus, "sim:ina219@0x4a,idle_ma=10");
	/* 320 mV is the largest range: exactly that is fine. */
	parse_ok("{" ALG
		 ", 'sensor': {'shunt_ohm': 0.1, 'max_current_a': 3.2}}",
		 &cfg);
	parse_ok("{" ALG ", 'sensor': {'pga_div': 2, 'max_current_a': 0.8}}",
		 &cfg);

	/* "none" needs no bus, and may keep one (a base may name it). */
	parse_ok("{" ALG ", 'sensor': {'type': 'none'}}", &cfg);
	assert_string_equal(cfg.sensor.type, "none");
	parse_ok("{" ALG ", 'sensor': {'type': 'none', 'bus': ''}}", &cfg);
	parse_ok("{" ALG ", 'sensor': {'type': 'none', 'bus': 'sim:x'}}", &cfg);
	hil_config_free(&cfg);
}

static const struct refusals sensor_invalid_values_name_their_path[] = {
	{"sensor.bus: \"usb:0403:6014\" is not a bus spec: expected \"ftdi:VID:PID[:SERIAL]\", \"linux:/dev/i2c-N\" or \"sim:...\"",
	 {"'sensor': {'type': 'ina219', 'bus': 'usb:0403:6014'}"}},
	{"sensor.bus: \"ftdi:\" is not a bus spec: expected \"ftdi:VID:PID[:SERIAL]\", \"linux:/dev/i2c-N\" or \"sim:...\"",
	 {"'sensor': {'type': 'ina219', 'bus': 'ftdi:'}"}},
	{"sensor.bus: \"linux:i2c-1\" is not a bus spec: expected \"ftdi:VID:PID[:SERIAL]\", \"linux:/dev/i2c-N\" or \"sim:...\"",
	 {"'sensor': {'type': 'ina219', 'bus': 'linux:i2c-1'}"}},
	{"sensor.bus: expected a string", {"'sensor': {'bus': 7}"}},
	{"sensor.bus: contains a control character",
	 {"'sensor': {'bus': 'sim:a\\nb'}"}},
	{"sensor.address: expected an INA219 address from 0x40 to 0x4F, as an integer (64) or a string (\"0x40\")",
	 {"'sensor': {'address': 63}", "'sensor': {'address': 80}",
	  "'sensor': {'address': 64.5}", "'sensor': {'address': '0x50'}",
	  "'sensor': {'address': '0x'}", "'sensor': {'address': '64'}",
	  "'sensor': {'address': '0x40 '}", "'sensor': {'address': '0x040'}",
	  "'sensor': {'address': true}"}},
	{"sensor.shunt_ohm: expected a number above 0 and at most 100",
	 {"'sensor': {'shunt_ohm': 0}", "'sensor': {'shunt_ohm': -0.1}",
	  "'sensor': {'shunt_ohm': '0.1'}", "'sensor': {'shunt_ohm': 1e999}"}},
	{"sensor.max_current_a: expected a number above 0 and at most 100",
	 {"'sensor': {'max_current_a': 0}"}},
	{"sensor.bus_range_v: expected 16 or 32",
	 {"'sensor': {'bus_range_v': 24}", "'sensor': {'bus_range_v': '16'}"}},
	{"sensor.pga_div: expected 0 (automatic), 1, 2, 4 or 8",
	 {"'sensor': {'pga_div': 3}", "'sensor': {'pga_div': 16}"}},
	{"sensor.adc_bits: expected an integer from 9 to 12",
	 {"'sensor': {'adc_bits': 8}", "'sensor': {'adc_bits': 16}"}},
	{"sensor.adc_samples: expected 1, 2, 4, 8, 16, 32, 64 or 128",
	 {"'sensor': {'adc_samples': 3}", "'sensor': {'adc_samples': 0}",
	  "'sensor': {'adc_samples': 256}"}},
	{"sensor.conversions: expected an integer from 1 to 10000",
	 {"'sensor': {'conversions': 0}", "'sensor': {'conversions': 10001}"}},
	{"sensor.windows: expected an integer from 1 to 1000",
	 {"'sensor': {'windows': 0}", "'sensor': {'windows': 1001}"}},
};

static void test_sensor_invalid_values_name_their_path(void **state)
{
	char names[256], want[512];

	(void)state;
	parse_fails("{" ALG ", 'sensor': 'ina219'}",
		    "sensor: expected an object");
	parse_fails("{" ALG ", 'sensor': {'adress': 64}}",
		    "sensor.adress: unknown key (did you mean \"address\"?)");
	snprintf(want, sizeof(want),
		 "sensor.type: \"ina999\" is not a sensor (expected %s)",
		 sensor_list(names, sizeof(names)));
	parse_fails("{" ALG ", 'sensor': {'type': 'ina999'}}", want);
	snprintf(want, sizeof(want), "sensor.type: expected one of %s",
		 sensor_list(names, sizeof(names)));
	parse_fails("{" ALG ", 'sensor': {'type': 1}}", want);
	parse_fails_with_alg(sensor_invalid_values_name_their_path,
			     N_CASES(sensor_invalid_values_name_their_path));
}

static const struct refusals sensor_settings_must_fit_together[] = {
	{"sensor.bus: required when sensor.type is \"ina219\" (e.g. \"ftdi:0403:6014\" or \"linux:/dev/i2c-1\")",
	 {"'sensor': {'type': 'ina219'}",
	  "'sensor': {'type': 'ina219', 'bus': ''}"}},
	/* Averaging is a 12-bit mode (SBOS448 Table 6). */
	{"sensor.adc_samples: averaging 4 samples works on 12-bit conversions only, but sensor.adc_bits is 10",
	 {"'sensor': {'adc_bits': 10, 'adc_samples': 4}"}},
	/* 4 A x 0.1 ohm = 400 mV > 320 mV. */
	{"sensor.max_current_a: 4 A through 0.1 ohm is 400 mV, beyond the INA219's largest shunt range, +-320 mV (use a smaller shunt)",
	 {"'sensor': {'max_current_a': 4}"}},
	/* With the PGA fixed at /1, 0.5 A x 0.1 ohm = 50 mV > 40 mV. */
	{"sensor.max_current_a: 0.5 A through 0.1 ohm is 50 mV, beyond the +-40 mV that sensor.pga_div 1 measures",
	 {"'sensor': {'max_current_a': 0.5, 'pga_div': 1}"}},
	/* A big shunt with the default current: the shunt is named. */
	{"sensor.max_current_a: 0.4 A through 1 ohm is 400 mV, beyond the INA219's largest shunt range, +-320 mV (use a smaller shunt)",
	 {"'sensor': {'shunt_ohm': 1}"}},
};

static void test_sensor_settings_must_fit_together(void **state)
{
	(void)state;
	parse_fails_with_alg(sensor_settings_must_fit_together,
			     N_CASES(sensor_settings_must_fit_together));
}

/* Each sensor has its own keys; the common ones mean the same for all. */
static const struct refusals sensor_keys_belong_to_their_driver[] = {
	{"sensor.averages: expected 1, 4, 16, 64, 128, 256, 512 or 1024",
	 {"'sensor': {'type': 'ina226', 'averages': 8}",
	  "'sensor': {'type': 'ina226', 'averages': 2048}"}},
	{"sensor.conversion_us: expected 140, 204, 332, 588, 1100, 2116, 4156 or 8244",
	 {"'sensor': {'type': 'ina226', 'conversion_us': 1000}",
	  "'sensor': {'type': 'ina226', 'conversion_us': '588'}"}},
	/* Its address range, in its name. */
	{"sensor.address: expected an INA226 address from 0x40 to 0x4F, as an integer (64) or a string (\"0x40\")",
	 {"'sensor': {'type': 'ina226', 'address': 80}"}},
	/* Its one shunt range: 1 A x 0.1 ohm = 100 mV > 81.92 mV. */
	{"sensor.max_current_a: 1 A through 0.1 ohm is 100 mV, beyond the INA226's shunt range, +-81.92 mV (use a smaller shunt)",
	 {"'sensor': {'type': 'ina226', 'bus': 'sim:ina226@0x40',"
	  " 'max_current_a': 1}"}},
	{"sensor.bus: required when sensor.type is \"ina226\" (e.g. \"ftdi:0403:6014\" or \"linux:/dev/i2c-1\")",
	 {"'sensor': {'type': 'ina226'}"}},
};

static void test_sensor_keys_belong_to_their_driver(void **state)
{
	struct hil_config cfg = {0};

	(void)state;
	parse_ok("{" ALG ", 'sensor': {'type': 'ina226', 'address': '0x45',"
		 " 'bus': 'sim:ina226@0x45', 'shunt_ohm': 0.01,"
		 " 'max_current_a': 8, 'averages': 16, 'conversion_us': 588,"
		 " 'conversions': 20, 'windows': 2}}",
		 &cfg);
	assert_string_equal(cfg.sensor.type, "ina226");
	assert_string_equal(cfg.sensor.bus, "sim:ina226@0x45");
	assert_int_equal(cfg.sensor.address, 0x45);
	assert_true(cfg.sensor.shunt_ohm == 0.01);
	assert_true(cfg.sensor.max_current_a == 8.0);
	assert_int_equal(cfg.sensor.averages, 16);
	assert_int_equal(cfg.sensor.conversion_us, 588);
	assert_int_equal(cfg.sensor.conversions, 20);
	assert_int_equal(cfg.sensor.windows, 2);
	parse_ok("{" ALG
		 ", 'sensor': {'type': 'ina226', 'bus': 'ftdi:0403:6014',"
		 " 'averages': 1024, 'conversion_us': 8244}}",
		 &cfg);
	assert_int_equal(cfg.sensor.averages, 1024);
	assert_int_equal(cfg.sensor.conversion_us, 8244);
	/* Unset: the chip's default conversion time. */
	parse_ok("{" ALG
		 ", 'sensor': {'type': 'ina226', 'bus': 'sim:ina226@0x40'}}",
		 &cfg);
	assert_int_equal(cfg.sensor.averages, 1);
	assert_int_equal(cfg.sensor.conversion_us, 0);

	/* Another chip's key names the chip it belongs to. */
	parse_fails(
		"{" ALG
		", 'sensor': {'type': 'ina226', 'bus': 'sim:ina226@0x40',"
		" 'adc_bits': 12}}",
		"sensor.adc_bits: a setting of the ina219 sensor, but sensor.type is \"ina226\"");
	parse_fails(
		"{" ALG
		", 'sensor': {'type': 'ina219', 'bus': 'sim:ina219@0x40',"
		" 'averages': 4}}",
		"sensor.averages: a setting of the ina226 sensor, but sensor.type is \"ina219\"");
	/* A typo is still one, with a guess from every sensor's keys. */
	parse_fails("{" ALG ", 'sensor': {'type': 'ina226', 'average': 4}}",
		    "sensor.average: unknown key (did you mean \"averages\"?)");
	/* "none" keeps any sensor's settings (a base's), checked. */
	parse_ok("{" ALG ", 'sensor': {'type': 'none', 'averages': 16,"
		 " 'conversion_us': 140}}",
		 &cfg);
	assert_int_equal(cfg.sensor.averages, 16);
	parse_fails(
		"{" ALG ", 'sensor': {'type': 'none', 'averages': 8}}",
		"sensor.averages: expected 1, 4, 16, 64, 128, 256, 512 or 1024");

	/* The INA226's values come from its tables. */
	parse_fails_with_alg(sensor_keys_belong_to_their_driver,
			     N_CASES(sensor_keys_belong_to_their_driver));
	hil_config_free(&cfg);
}

static void test_sensor_errors_name_the_file_of_the_value(void **state)
{
	struct fx *fx = *state;
	struct hil_config cfg = {0};
	char a[128], b[128], want[1024], err[512] = "";

	put(fx, "base.json",
	    "{" ALG ", 'sensor': {'type': 'ina219', 'bus': 'ftdi:0403:6014',"
	    " 'address': '0x41', 'shunt_ohm': 0.1, 'windows': 7}}",
	    b, sizeof(b));

	/* Objects merge: the child changes two keys, keeps the rest. */
	put(fx, "a.json",
	    "{'extends': 'base.json', 'sensor': {'address': 66,"
	    " 'conversions': 20}}",
	    a, sizeof(a));
	assert_int_equal(hil_config_load(a, &cfg, err, sizeof(err)), HIL_OK);
	assert_string_equal(cfg.sensor.type, "ina219");
	assert_string_equal(cfg.sensor.bus, "ftdi:0403:6014");
	assert_int_equal(cfg.sensor.address, 0x42);
	assert_int_equal(cfg.sensor.conversions, 20);
	assert_int_equal(cfg.sensor.windows, 7);
	assert_true(cfg.sensor.shunt_ohm == 0.1);

	/* A child turns the base's sensor off (a QEMU run of a lab base). */
	put(fx, "a.json",
	    "{'extends': 'base.json', 'sensor': {'type': 'none'}}", a,
	    sizeof(a));
	hil_config_free(&cfg);
	assert_int_equal(hil_config_load(a, &cfg, err, sizeof(err)), HIL_OK);
	assert_string_equal(cfg.sensor.type, "none");

	/* A child's bad value names the child... */
	put(fx, "a.json",
	    "{'extends': 'base.json', 'sensor': {'address': '0x60'}}", a,
	    sizeof(a));
	hil_config_free(&cfg);
	assert_int_equal(hil_config_load(a, &cfg, err, sizeof(err)),
			 HIL_ERR_CONFIG);
	snprintf(
		want, sizeof(want),
		"%s: sensor.address: expected an INA219 address from 0x40 to 0x4F, as an integer (64) or a string (\"0x40\")",
		a);
	assert_string_equal(err, want);

	/* ...and a rule broken by the child's value names the child. */
	put(fx, "a.json",
	    "{'extends': 'base.json', 'sensor': {'max_current_a': 5}}", a,
	    sizeof(a));
	hil_config_free(&cfg);
	assert_int_equal(hil_config_load(a, &cfg, err, sizeof(err)),
			 HIL_ERR_CONFIG);
	snprintf(
		want, sizeof(want),
		"%s: sensor.max_current_a: 5 A through 0.1 ohm is 500 mV, beyond the INA219's largest shunt range, +-320 mV (use a smaller shunt)",
		a);
	assert_string_equal(err, want);

	/* A base's "ina219" without a bus names where the type is written. */
	put(fx, "base.json", "{" ALG ", 'sensor': {'type': 'ina219'}}", b,
	    sizeof(b));
	put(fx, "a.json", "{'extends': 'base.json', 'sensor': {'windows': 3}}",
	    a, sizeof(a));
	hil_config_free(&cfg);
	assert_int_equal(hil_config_load(a, &cfg, err, sizeof(err)),
			 HIL_ERR_CONFIG);
	snprintf(
		want, sizeof(want),
		"%s: sensor.bus: required when sensor.type is \"ina219\" (e.g. \"ftdi:0403:6014\" or \"linux:/dev/i2c-1\")",
		b);
	assert_string_equal(err, want);
	hil_config_free(&cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
		T(test_defaults_are_the_documented_ones),
		T(test_cycle_model_follows_the_clock_profile),
		T(test_board_prefetch_chooses_the_flash_profile),
		T(test_cycle_model_profile_is_named_or_the_boards),
		T(test_shipped_qemu_config_loads),
		T(test_shipped_o2_config_loads),
		T(test_inline_text_gets_defaults_and_name_inline),
		T(test_flasher_and_link_default_from_the_board),
		T(test_pqm4_boards_and_mps2_take_their_drivers_settings),
		T(test_every_key_is_copied),
		T(test_extends_chain_merges_objects_and_replaces_arrays),
		T(test_extends_replaces_what_is_not_an_object_on_both_sides),
		T(test_extends_base_name_is_not_inherited),
		T(test_inline_extends_is_relative_to_base_dir),
		T(test_external_implementation_path_is_resolved_from_the_file),
		T(test_external_implementation_errors_name_the_path),
		T(test_extends_cycle_is_an_error_naming_the_files),
		T(test_extends_deeper_than_the_limit_is_an_error),
		T(test_extends_must_name_a_file),
		T(test_missing_file_is_an_io_error_with_path_and_reason),
		T(test_malformed_json_names_line_and_column),
		T(test_malformed_json_in_a_base_names_the_base),
		T(test_nul_bytes_and_huge_files_are_refused),
		T(test_special_and_secret_files_are_refused_without_quoting),
		T(test_roots_confine_every_file_of_a_job),
		T(test_a_tree_expands_into_its_implementations),
		T(test_lengths_as_a_grid),
		T(test_unknown_key_is_an_error_naming_its_path),
		T(test_unknown_key_in_a_base_names_the_base_file),
		T(test_wrong_type_in_lengths_gives_the_exact_message),
		T(test_wrong_types_are_rejected),
		T(test_out_of_range_integers_are_rejected),
		T(test_link_port_that_is_no_serial_port_is_refused),
		T(test_repeated_length_is_rejected),
		T(test_operations_must_be_known_and_not_repeated),
		T(test_array_sizes_are_within_the_limits),
		T(test_algorithm_entries_are_names),
		T(test_name_defaults_to_the_file_name),
		T(test_repeated_keys_are_rejected),
		T(test_overlong_string_is_rejected_not_truncated),
		T(test_flags_must_be_single_compiler_flags),
		T(test_probe_serial_cannot_inject_openocd_commands),
		T(test_serial_link_requires_a_port),
		T(test_board_and_flasher_must_match),
		T(test_the_qemu_board_needs_an_emulator_link),
		T(test_a_real_board_cannot_take_the_semihost_link),
		T(test_failure_leaves_cfg_untouched_and_tolerates_no_err),
		T(test_damaged_text_never_crashes),
		T(test_deep_nesting_and_wide_objects_are_refused),
		T(test_sensor_keys_are_copied),
		T(test_sensor_invalid_values_name_their_path),
		T(test_sensor_settings_must_fit_together),
		T(test_sensor_keys_belong_to_their_driver),
		T(test_sensor_errors_name_the_file_of_the_value),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
