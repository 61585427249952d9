/* Unit tests of the hardware map: the shipped file, every kind of invalid entry with its JSON path, matching configs to boards, and the listing. */
#define _XOPEN_SOURCE 700

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include <cmocka.h>
#include <cjson/cJSON.h>

#include "drivers/board/board.h"
#include "drivers/flasher/flasher.h"
#include "lab/boards.h"
#include "config/config.h"
#include "util/err.h"
#include "lab/lock.h"
#include "unit_util.h"

struct fx {
	char dir[64];
	char *old_lock_dir; /* HILRUN_LOCK_DIR before the test */
};

static int setup(void **state)
{
	struct fx *fx = calloc(1, sizeof(*fx));
	const char *old = getenv("HILRUN_LOCK_DIR");
	char locks[128];

	if (fx == NULL) {
		return -1;
	}
	snprintf(fx->dir, sizeof(fx->dir), "/tmp/hilrun-boards-XXXXXX");
	if (mkdtemp(fx->dir) == NULL) {
		free(fx);
		return -1;
	}
	fx->old_lock_dir = old != NULL ? strdup(old) : NULL;
	/* The listing looks at the default lock directory: make it ours. */
	snprintf(locks, sizeof(locks), "%s/locks", fx->dir);
	setenv("HILRUN_LOCK_DIR", locks, 1);
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fx *fx = *state;
	int ret = ut_rm_tree(fx->dir);

	if (fx->old_lock_dir != NULL) {
		setenv("HILRUN_LOCK_DIR", fx->old_lock_dir, 1);
	} else {
		unsetenv("HILRUN_LOCK_DIR");
	}
	free(fx->old_lock_dir);
	free(fx);
	return ret;
}

static void put(const struct fx *fx, const char *name, const char *squoted,
		char *path, size_t n)
{
	snprintf(path, n, "%s/%s", fx->dir, name);
	ut_write_squoted(path, squoted);
}

static void test_boards_loads_shipped_map(void **state)
{
	struct hil_boards map;
	const struct hil_board *b;
	char path[512], err[512];

	(void)state;
	ut_src_path(path, sizeof(path), "configs/boards.json");
	assert_int_equal(hil_boards_load(path, &map, err, sizeof(err)), HIL_OK);
	assert_string_equal(err, "");
	assert_string_equal(map.path, path);
	assert_int_equal(map.n, 1);
	b = hil_boards_find(&map, "nucleo-1");
	assert_non_null(b);
	assert_string_equal(b->platform, "nucleo-f401re");
	assert_string_equal(b->runner, "openocd");
	assert_string_equal(b->serial, "/dev/ttyACM0");
	assert_int_equal(b->baud, 115200);
	assert_string_equal(b->probe_id, "066BFF495057717867164315");
	assert_true(b->connected);
	assert_null(hil_boards_find(&map, "nucleo-2"));
	hil_boards_free(&map);
	assert_int_equal(map.n, 0);
	assert_null(map.boards);
	hil_boards_free(NULL);
}

static void test_boards_every_key(void **state)
{
	static const char *const text =
		"[{'id': 'bench-3', 'platform': 'nucleo-f401re', "
		"'product': 'STM32 STLink', 'runner': 'openocd', "
		"'serial': '/dev/serial/by-id/usb-STM-if02', 'baud': 921600, "
		"'probe_id': '0670FF3', 'sensor': 'ftdi:0403:6014', "
		"'uid': '0032001A3138510E36383536', 'connected': false}, "
		"{'id': 'qemu', 'platform': 'qemu-netduino', 'runner': 'qemu'}]";
	struct hil_boards map;
	const struct hil_board *b;
	char json[1024], err[256];

	(void)state;
	ut_unquote(json, sizeof(json), text);
	assert_int_equal(hil_boards_parse(json, &map, err, sizeof(err)),
			 HIL_OK);
	assert_int_equal(map.n, 2);
	b = &map.boards[0];
	assert_string_equal(b->id, "bench-3");
	assert_string_equal(b->product, "STM32 STLink");
	assert_string_equal(b->serial, "/dev/serial/by-id/usb-STM-if02");
	assert_int_equal(b->baud, 921600);
	assert_string_equal(b->sensor, "ftdi:0403:6014");
	assert_string_equal(b->uid, "0032001A3138510E36383536");
	assert_false(b->connected);
	b = &map.boards[1];
	assert_true(b->connected); /* the default */
	assert_int_equal(b->baud, 0);
	assert_string_equal(b->serial, "");
	hil_boards_free(&map);

	/* An empty lab is a valid map. */
	assert_int_equal(hil_boards_parse("[]", &map, err, sizeof(err)),
			 HIL_OK);
	assert_int_equal(map.n, 0);
	hil_boards_free(&map);
}

/* Parse single-quoted text and expect exactly this message. */
static void parse_fails(const char *squoted, const char *want)
{
	struct hil_boards map = {"untouched", NULL, 7};
	char json[2048], err[512];
	int ret;

	ut_unquote(json, sizeof(json), squoted);
	ret = hil_boards_parse(json, &map, err, sizeof(err));
	if (ret != HIL_ERR_CONFIG || strcmp(err, want) != 0) {
		print_error("input: %s\nwant: %s\ngot:  %s (%d)\n", json, want,
			    err, ret);
	}
	assert_int_equal(ret, HIL_ERR_CONFIG);
	assert_string_equal(err, want);
	/* Untouched on failure. */
	assert_string_equal(map.path, "untouched");
	assert_int_equal(map.n, 7);
}

#define OK1 "{'id': 'nucleo-1', 'platform': 'nucleo-f401re'}"

static void test_boards_rejects_unknown_keys(void **state)
{
	(void)state;
	parse_fails(
		"[" OK1 ", {'id': 'n2', 'platform': 'p', 'seral': 'x'}]",
		"[1].seral: unknown key (known: id, platform, product, runner, serial, baud, probe_id, sensor, uid, connected)");
	/* twister keys hilrun has no use for are not silently ignored */
	parse_fails(
		"[{'id': 'n', 'platform': 'p', 'serial_pty': 'x'}]",
		"[0].serial_pty: unknown key (known: id, platform, product, runner, serial, baud, probe_id, sensor, uid, connected)");
}

static void test_boards_rejects_wrong_types(void **state)
{
	(void)state;
	parse_fails("[{'id': 1, 'platform': 'p'}]",
		    "[0].id: expected a string");
	parse_fails("[" OK1 ", {'id': 'n', 'platform': ['p']}]",
		    "[1].platform: expected a string");
	parse_fails("[{'id': 'n', 'platform': 'p', 'serial': null}]",
		    "[0].serial: expected a string");
	parse_fails("[{'id': 'n', 'platform': 'p', 'baud': '115200'}]",
		    "[0].baud: expected an integer from 1 to 12000000");
	parse_fails("[{'id': 'n', 'platform': 'p', 'baud': 115200.5}]",
		    "[0].baud: expected an integer from 1 to 12000000");
	parse_fails("[{'id': 'n', 'platform': 'p', 'baud': 0}]",
		    "[0].baud: expected an integer from 1 to 12000000");
	parse_fails("[{'id': 'n', 'platform': 'p', 'connected': 1}]",
		    "[0].connected: expected true or false");
	parse_fails("[{'id': 'n', 'platform': 'p', 'uid': 12}]",
		    "[0].uid: expected a string");
	parse_fails("[" OK1 ", 'nucleo-2']",
		    "[1]: expected an object describing a board");
	parse_fails("{'id': 'n', 'platform': 'p'}",
		    "expected a JSON array ([ ... ]) at the top level");
}

static void test_boards_rejects_bad_values(void **state)
{
	(void)state;
	parse_fails("[" OK1 ", " OK1 "]",
		    "[1].id: \"nucleo-1\" is already the id of [0]");
	parse_fails(
		"[{'id': 'n', 'platform': 'p', 'uid': '0032001A3138510E3638353'}]",
		"[0].uid: expected 24 hex digits (the MCU's 96-bit unique ID), got \"0032001A3138510E3638353\"");
	parse_fails(
		"[{'id': 'n', 'platform': 'p', 'uid': '0032001A3138510E3638353G'}]",
		"[0].uid: expected 24 hex digits (the MCU's 96-bit unique ID), got \"0032001A3138510E3638353G\"");
	parse_fails(
		"[{'id': 'lab/1', 'platform': 'p'}]",
		"[0].id: \"lab/1\" is not a board id: 1 to 63 characters from A-Z a-z 0-9 . _ -");
	parse_fails(
		"[{'id': '', 'platform': 'p'}]",
		"[0].id: \"\" is not a board id: 1 to 63 characters from A-Z a-z 0-9 . _ -");
	parse_fails("[{'platform': 'p'}]", "[0].id: required");
	parse_fails("[{'id': 'n'}]", "[0].platform: required");
	parse_fails("[{'id': 'n', 'platform': ''}]",
		    "[0].platform: must not be empty");
	{
		/* The runners hilrun drives are its flasher drivers. */
		char list[256], want[512];

		hil_driver_names_join(HIL_DRIVER_FLASHER, list, sizeof(list));
		snprintf(
			want, sizeof(want),
			"[0].runner: \"jlink\" is not a runner hilrun drives: expected %s",
			list);
		parse_fails("[{'id': 'n', 'platform': 'p', 'runner': 'jlink'}]",
			    want);
	}
	parse_fails(
		"[{'id': 'n', 'platform': 'p', 'sensor': 'ina219'}]",
		"[0].sensor: \"ina219\" is not a bus spec: expected \"ftdi:VID:PID[:SERIAL]\", \"linux:/dev/i2c-N\" or \"sim:...\"");
	parse_fails(
		"[{'id': 'n', 'platform': 'p', 'sensor': 'usb:0403:6014'}]",
		"[0].sensor: \"usb:0403:6014\" is not a bus spec: expected \"ftdi:VID:PID[:SERIAL]\", \"linux:/dev/i2c-N\" or \"sim:...\"");
	parse_fails(
		"[{'id': 'n', 'platform': 'p', 'sensor': 'ftdi:'}]",
		"[0].sensor: \"ftdi:\" is not a bus spec: expected \"ftdi:VID:PID[:SERIAL]\", \"linux:/dev/i2c-N\" or \"sim:...\"");
	parse_fails("[{'id': 'n', 'platform': 'p', 'id': 'm'}]",
		    "key \"id\" appears twice in one object");
	parse_fails(
		"[{'id': 'n', 'platform': 'p', 'probe_id': "
		"'0123456789012345678901234567890123456789012345678901234567890123456789'}]",
		"[0].probe_id: too long (70 bytes, at most 63)");
	/* The loader's getter: no escape sequence reaches `hilrun boards`. */
	parse_fails("[{'id': 'n', 'platform': 'p', "
		    "'serial': '/dev/tty\\u001b[31m'}]",
		    "[0].serial: contains a control character");
}

static void test_boards_rejects_text_that_is_not_json(void **state)
{
	(void)state;
	parse_fails(
		"[\n  {'id': 'n',\n   'platform' 'p'}\n]",
		"line 3, column 15: invalid JSON near \"atform\\\" \\\"p\\\"}\"");
	parse_fails("[" OK1 "] []",
		    "line 1, column 51: text after the end of the JSON value");
	parse_fails("",
		    "line 1, column 1: invalid JSON (unexpected end of input)");
	/* The one loader's words: what a hardware map starts with. */
	parse_fails(
		"hello",
		"line 1, column 1: not JSON (a hardware map starts with \"[\")");
}

static void test_boards_load_errors_name_the_file(void **state)
{
	struct fx *fx = *state;
	struct hil_boards map;
	char path[256], want[512], err[512];

	put(fx, "boards.json",
	    "[" OK1
	    ",\n {'id': 'nucleo-2', 'platform': 'nucleo-f401re', 'uid': 'xyz'}]",
	    path, sizeof(path));
	assert_int_equal(hil_boards_load(path, &map, err, sizeof(err)),
			 HIL_ERR_CONFIG);
	snprintf(
		want, sizeof(want),
		"%s: [1].uid: expected 24 hex digits (the MCU's 96-bit unique ID), got \"xyz\"",
		path);
	assert_string_equal(err, want);

	snprintf(path, sizeof(path), "%s/missing.json", fx->dir);
	assert_int_equal(hil_boards_load(path, &map, err, sizeof(err)),
			 HIL_ERR_IO);
	snprintf(want, sizeof(want),
		 "%s: cannot open: No such file or directory", path);
	assert_string_equal(err, want);

	/* A directory is not a map. */
	assert_int_equal(hil_boards_load(fx->dir, &map, err, sizeof(err)),
			 HIL_ERR_IO);
	assert_non_null(strstr(err, "not a regular file"));

	assert_int_equal(hil_boards_load(NULL, &map, err, sizeof(err)),
			 HIL_ERR_ARG);
	assert_int_equal(hil_boards_parse(NULL, &map, NULL, 0), HIL_ERR_ARG);
}

/* cfg (zeroed, or parsed before: what it held is freed) parsed anew. */
static void cfg_parse(struct hil_config *cfg, const char *squoted)
{
	char json[1024], err[512];

	hil_config_free(cfg);
	ut_unquote(json, sizeof(json), squoted);
	if (hil_config_parse(json, NULL, cfg, err, sizeof(err)) != HIL_OK) {
		fail_msg("config: %s", err);
	}
}

static void test_boards_uid_check_names_both_uids(void **state)
{
	static const char *const text =
		"[{'id': 'nucleo-1', 'platform': 'nucleo-f401re', "
		"'probe_id': 'AAA', 'uid': '0123456789abcdef01234567'}, "
		"{'id': 'nucleo-2', 'platform': 'nucleo-f401re'}]";
	struct hil_boards map;
	char json[1024], msg[512] = "";

	(void)state;
	ut_unquote(json, sizeof(json), text);
	assert_int_equal(hil_boards_parse(json, &map, NULL, 0), HIL_OK);
	/* The right board, whatever the case of its hex digits. */
	assert_int_equal(hil_boards_check_uid(&map.boards[0],
					      "0123456789ABCDEF01234567", msg,
					      sizeof(msg)),
			 HIL_OK);
	/* Another board on that probe. */
	assert_int_equal(hil_boards_check_uid(&map.boards[0],
					      "ffffffffffffffffffffffff", msg,
					      sizeof(msg)),
			 HIL_ERR_MISMATCH);
	assert_non_null(strstr(msg, "\"nucleo-1\""));
	assert_non_null(strstr(msg, "0123456789abcdef01234567"));
	assert_non_null(strstr(msg, "ffffffffffffffffffffffff"));
	assert_non_null(strstr(msg, "probe AAA"));
	/* No uid in the map, or no board matched: nothing to check. */
	assert_int_equal(hil_boards_check_uid(&map.boards[1],
					      "ffffffffffffffffffffffff", msg,
					      sizeof(msg)),
			 HIL_OK);
	assert_int_equal(hil_boards_check_uid(NULL, "ff", msg, sizeof(msg)),
			 HIL_OK);
	hil_boards_free(&map);
}

static void test_boards_a_config_names_its_board_by_id(void **state)
{
	static const char *const text =
		"[{'id': 'nucleo-1', 'platform': 'nucleo-f401re', "
		"'serial': '/dev/ttyACM0', 'probe_id': 'AAA', 'baud': 921600}, "
		"{'id': 'nucleo-2', 'platform': 'nucleo-f401re', "
		"'serial': '/dev/ttyACM1', 'probe_id': 'BBB'}]";
	struct hil_boards map;
	struct hil_config *cfg = calloc(1, sizeof(*cfg));
	char json[1024], err[512] = "";

	(void)state;
	assert_non_null(cfg);
	ut_unquote(json, sizeof(json), text);
	assert_int_equal(hil_boards_parse(json, &map, NULL, 0), HIL_OK);
	cfg_parse(cfg, "{'algorithms': ['ascon-aead128'], "
		       "'board': {'name': 'nucleo-f401re', 'id': 'nucleo-1'}}");
	assert_int_equal(hil_boards_apply(&map, cfg, err, sizeof(err)), HIL_OK);
	assert_string_equal(cfg->flasher.probe_serial, "AAA");
	assert_string_equal(cfg->link.port, "/dev/ttyACM0");
	assert_int_equal(cfg->link.baud, 921600);
	assert_ptr_equal(hil_boards_match(&map, cfg), &map.boards[0]);
	assert_string_equal(hil_boards_lock_id(&map, cfg), "nucleo-1");
	/* What the config says itself stays. */
	cfg_parse(cfg,
		  "{'algorithms': ['ascon-aead128'], "
		  "'board': {'name': 'nucleo-f401re', 'id': 'nucleo-2'}, "
		  "'link': {'type': 'serial', 'port': '/dev/serial/by-id/x'}}");
	assert_int_equal(hil_boards_apply(&map, cfg, err, sizeof(err)), HIL_OK);
	assert_string_equal(cfg->link.port, "/dev/serial/by-id/x");
	assert_string_equal(cfg->flasher.probe_serial, "BBB");
	/* An id the map does not have: named, with the ones it has. */
	cfg_parse(cfg, "{'algorithms': ['ascon-aead128'], "
		       "'board': {'name': 'nucleo-f401re', 'id': 'nucleo-9'}}");
	assert_int_equal(hil_boards_apply(&map, cfg, err, sizeof(err)),
			 HIL_ERR_CONFIG);
	assert_non_null(strstr(err, "\"nucleo-9\""));
	assert_non_null(strstr(err, "nucleo-1 nucleo-2"));
	/* A board of another platform. */
	cfg_parse(cfg, "{'algorithms': ['ascon-aead128'], "
		       "'board': {'name': 'qemu-netduino', 'id': 'nucleo-1'}}");
	assert_int_equal(hil_boards_apply(&map, cfg, err, sizeof(err)),
			 HIL_ERR_CONFIG);
	assert_non_null(strstr(err, "is a nucleo-f401re"));
	hil_boards_free(&map);
	hil_config_free(cfg);
	free(cfg);
}

static void test_boards_match_a_config_to_its_board(void **state)
{
	static const char *const text =
		"[{'id': 'nucleo-1', 'platform': 'nucleo-f401re', "
		"'serial': '/dev/ttyACM0', 'probe_id': 'AAA'}, "
		"{'id': 'nucleo-2', 'platform': 'nucleo-f401re', "
		"'serial': '/dev/ttyACM1', 'probe_id': 'BBB'}]";
	struct hil_boards map;
	struct hil_config *cfg = calloc(1, sizeof(*cfg));
	char json[1024];

	(void)state;
	assert_non_null(cfg);
	ut_unquote(json, sizeof(json), text);
	assert_int_equal(hil_boards_parse(json, &map, NULL, 0), HIL_OK);

	/* By port. */
	cfg_parse(cfg, "{'algorithms': ['ascon-aead128'], "
		       "'board': {'name': 'nucleo-f401re'}, "
		       "'link': {'type': 'serial', 'port': '/dev/ttyACM1'}}");
	assert_string_equal(hil_boards_lock_id(&map, cfg), "nucleo-2");
	/* The probe serial wins over the port (ports get renumbered). */
	cfg_parse(cfg, "{'algorithms': ['ascon-aead128'], "
		       "'board': {'name': 'nucleo-f401re'}, "
		       "'flasher': {'probe_serial': 'AAA'}, "
		       "'link': {'type': 'serial', 'port': '/dev/ttyACM1'}}");
	assert_ptr_equal(hil_boards_match(&map, cfg), &map.boards[0]);
	/* Not in the map: the board name is the lock. */
	cfg_parse(cfg, "{'algorithms': ['ascon-aead128'], "
		       "'board': {'name': 'nucleo-f401re'}, "
		       "'link': {'type': 'serial', 'port': '/dev/ttyUSB7'}}");
	assert_null(hil_boards_match(&map, cfg));
	assert_string_equal(hil_boards_lock_id(&map, cfg), "nucleo-f401re");
	cfg_parse(cfg, "{'algorithms': ['ascon-aead128']}");
	assert_string_equal(hil_boards_lock_id(&map, cfg), "qemu-netduino");
	assert_string_equal(hil_boards_lock_id(NULL, cfg), "qemu-netduino");

	hil_boards_free(&map);
	hil_config_free(cfg);
	free(cfg);
}

/* The listing as text (caller frees), through a temporary file. */
static char *list_text(const struct hil_boards *map)
{
	FILE *f = tmpfile();
	char *buf;
	long n;

	assert_non_null(f);
	assert_int_equal(hil_boards_list(map, f), HIL_OK);
	n = ftell(f);
	assert_true(n > 0);
	buf = calloc(1, (size_t)n + 1);
	assert_non_null(buf);
	rewind(f);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return buf;
}

static void test_boards_list_shows_port_and_lock(void **state)
{
	struct fx *fx = *state;
	struct hil_boards map;
	struct hil_lock lock;
	char port[128], json[1024], line[512];
	char *text;
	FILE *f;

	/* A file stands in for nucleo-1's serial port. */
	snprintf(port, sizeof(port), "%s/ttyACM0", fx->dir);
	f = fopen(port, "w");
	assert_non_null(f);
	fclose(f);
	snprintf(json, sizeof(json),
		 "[{\"id\": \"nucleo-1\", \"platform\": \"nucleo-f401re\", "
		 "\"runner\": \"openocd\", \"serial\": \"%s\"},"
		 "{\"id\": \"nucleo-2\", \"platform\": \"nucleo-f401re\", "
		 "\"runner\": \"openocd\", \"serial\": \"%s/ttyACM1\"},"
		 "{\"id\": \"spare\", \"platform\": \"nucleo-f401re\", "
		 "\"serial\": \"/dev/ttyACM9\", \"connected\": false}]",
		 port, fx->dir);
	assert_int_equal(hil_boards_parse(json, &map, NULL, 0), HIL_OK);

	assert_int_equal(hil_lock_acquire(&lock, NULL, "nucleo-2",
					  "configs/o3.json", 0, NULL),
			 HIL_OK);
	text = list_text(&map);

	/* Header, then one line per board in map order. */
	assert_memory_equal(text, "ID        PLATFORM       RUNNER   PORT",
			    strlen("ID        PLATFORM       RUNNER   PORT"));
	snprintf(line, sizeof(line),
		 "\nnucleo-1  nucleo-f401re  openocd  %s (present)", port);
	assert_non_null(strstr(text, line));
	snprintf(line, sizeof(line),
		 "\nnucleo-2  nucleo-f401re  openocd  %s/ttyACM1 (absent)",
		 fx->dir);
	assert_non_null(strstr(text, line));
	snprintf(line, sizeof(line),
		 "in use by pid %ld (configs/o3.json) since ", (long)getpid());
	assert_non_null(strstr(strstr(text, "\nnucleo-2"), line));
	assert_non_null(strstr(strstr(text, "\nnucleo-1"), "  free\n"));
	assert_non_null(strstr(
		text, "\nspare     nucleo-f401re  -        /dev/ttyACM9"));
	assert_non_null(strstr(text, "free (connected: false)\n"));
	/* Three boards, one header: four lines. */
	{
		size_t n = 0;
		const char *p;

		for (p = text; *p != '\0'; p++) {
			n += *p == '\n';
		}
		assert_int_equal(n, 4);
	}
	free(text);
	hil_lock_release(&lock);

	text = list_text(&map);
	assert_null(strstr(text, "in use"));
	free(text);
	hil_boards_free(&map);
}

static void test_boards_use_takes_the_board_from_the_map(void **state)
{
	static const char *const text =
		"[{'id': 'nucleo-1', 'platform': 'nucleo-f401re', "
		"'serial': '/dev/ttyACM0', 'probe_id': 'AAA', 'baud': 921600, "
		"'sensor': 'ftdi:0403:6014:S1'}, "
		"{'id': 'nucleo-2', 'platform': 'nucleo-f401re', "
		"'serial': '/dev/ttyACM1', 'probe_id': 'BBB', "
		"'sensor': 'linux:/dev/i2c-3'}, "
		"{'id': 'bare', 'platform': 'nucleo-f401re', "
		"'serial': '/dev/ttyACM2'}, "
		"{'id': 'qemu-a', 'platform': 'qemu-netduino', 'runner': 'qemu'}]";
	static const char *const for_nucleo_1 =
		"{'algorithms': ['ascon-aead128'], "
		"'board': {'name': 'nucleo-f401re'}, "
		"'flasher': {'type': 'openocd', 'probe_serial': 'AAA'}, "
		"'link': {'type': 'serial', 'port': '/dev/ttyACM0'}, "
		"'sensor': {'type': 'ina219', 'bus': 'ftdi:0403:6014:S1'}}";
	struct hil_boards map;
	struct hil_config *cfg = calloc(1, sizeof(*cfg));
	char json[1024], err[512] = "";

	(void)state;
	assert_non_null(cfg);
	ut_unquote(json, sizeof(json), text);
	assert_int_equal(hil_boards_parse(json, &map, NULL, 0), HIL_OK);

	/* A config written for nucleo-1 run on nucleo-2: the map wins, so
	 * nucleo-2's probe is programmed, not the config's. */
	cfg_parse(cfg, for_nucleo_1);
	assert_int_equal(
		hil_boards_use(&map, "nucleo-2", cfg, err, sizeof(err)),
		HIL_OK);
	assert_string_equal(cfg->board.id, "nucleo-2");
	assert_string_equal(cfg->flasher.probe_serial, "BBB");
	assert_string_equal(cfg->link.port, "/dev/ttyACM1");
	assert_string_equal(cfg->sensor.bus, "linux:/dev/i2c-3");
	assert_string_equal(hil_boards_lock_id(&map, cfg), "nucleo-2");
	cfg_parse(cfg, for_nucleo_1);
	assert_int_equal(
		hil_boards_use(&map, "nucleo-1", cfg, err, sizeof(err)),
		HIL_OK);
	assert_int_equal(cfg->link.baud, 921600);

	/* A board without a probe_id may not inherit the config's probe. */
	cfg_parse(cfg, for_nucleo_1);
	assert_int_equal(hil_boards_use(&map, "bare", cfg, err, sizeof(err)),
			 HIL_ERR_CONFIG);
	assert_non_null(strstr(err, "\"bare\" has no \"probe_id\""));
	assert_non_null(strstr(err, "AAA"));

	/* A config without energy keeps sensor "none". */
	cfg_parse(cfg, "{'algorithms': ['ascon-aead128'], "
		       "'board': {'name': 'nucleo-f401re'}, "
		       "'link': {'type': 'serial', 'port': '/dev/ttyS9'}}");
	assert_int_equal(
		hil_boards_use(&map, "nucleo-1", cfg, err, sizeof(err)),
		HIL_OK);
	assert_string_equal(cfg->sensor.type, "none");
	assert_string_equal(cfg->sensor.bus, "");

	/* The emulated board by id. */
	cfg_parse(cfg, "{'algorithms': ['ascon-aead128']}");
	assert_int_equal(hil_boards_use(&map, "qemu-a", cfg, err, sizeof(err)),
			 HIL_OK);
	assert_string_equal(hil_boards_lock_id(&map, cfg), "qemu-a");

	/* Another platform, an unknown id, a malformed id. */
	cfg_parse(cfg, "{'algorithms': ['ascon-aead128']}");
	assert_int_equal(
		hil_boards_use(&map, "nucleo-1", cfg, err, sizeof(err)),
		HIL_ERR_CONFIG);
	assert_non_null(strstr(err, "is a nucleo-f401re"));
	assert_int_equal(
		hil_boards_use(&map, "nucleo-7", cfg, err, sizeof(err)),
		HIL_ERR_CONFIG);
	assert_non_null(strstr(err, "nucleo-1 nucleo-2 bare qemu-a"));
	assert_int_equal(hil_boards_use(&map, "../etc", cfg, err, sizeof(err)),
			 HIL_ERR_CONFIG);
	assert_non_null(strstr(err, "is not a board id"));
	assert_int_equal(hil_boards_use(NULL, "qemu-a", cfg, err, sizeof(err)),
			 HIL_ERR_CONFIG);
	assert_non_null(strstr(err, "not in the hardware map"));

	assert_string_equal(hil_boards_default_config("qemu-netduino"),
			    "configs/qemu.json");
	assert_string_equal(hil_boards_default_config("nucleo-f401re"),
			    "configs/nucleo.json");
	assert_null(hil_boards_default_config("native"));
	hil_boards_free(&map);
	hil_config_free(cfg);
	free(cfg);
}

static void test_boards_path_from_the_environment(void **state)
{
	const char *old = getenv("HILRUN_BOARDS");
	char *keep = old != NULL ? strdup(old) : NULL;

	(void)state;
	unsetenv("HILRUN_BOARDS");
	assert_string_equal(hil_boards_path(), "configs/boards.json");
	setenv("HILRUN_BOARDS", "", 1);
	assert_string_equal(hil_boards_path(), "configs/boards.json");
	setenv("HILRUN_BOARDS", "/etc/hilrun/boards.json", 1);
	assert_string_equal(hil_boards_path(), "/etc/hilrun/boards.json");
	if (keep != NULL) {
		setenv("HILRUN_BOARDS", keep, 1);
	} else {
		unsetenv("HILRUN_BOARDS");
	}
	free(keep);
}

/* The JSON listing, parsed back (caller deletes). */
static cJSON *list_json(const struct hil_boards *map)
{
	FILE *f = tmpfile();
	char buf[8192];
	size_t n;
	cJSON *j;

	assert_non_null(f);
	assert_int_equal(hil_boards_list_json(map, f), HIL_OK);
	rewind(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	j = cJSON_Parse(buf);
	if (j == NULL) {
		fail_msg("not JSON:\n%s", buf);
	}
	return j;
}

static void test_boards_list_json_has_every_key_and_the_lock(void **state)
{
	struct fx *fx = *state;
	struct hil_boards map;
	struct hil_lock lock;
	char port[128], json[1024], holder[64];
	const cJSON *b;
	cJSON *j;
	FILE *f;

	snprintf(port, sizeof(port), "%s/ttyACM0", fx->dir);
	f = fopen(port, "w");
	assert_non_null(f);
	fclose(f);
	snprintf(
		json, sizeof(json),
		"[{\"id\": \"nucleo-1\", \"platform\": \"nucleo-f401re\", "
		"\"runner\": \"openocd\", \"serial\": \"%s\", \"baud\": 115200, "
		"\"sensor\": \"sim:x\", \"uid\": \"0123456789abcdef01234567\"},"
		"{\"id\": \"qemu-a\", \"platform\": \"qemu-netduino\"},"
		"{\"id\": \"spare\", \"platform\": \"nucleo-f401re\", "
		"\"serial\": \"%s/none\", \"connected\": false}]",
		port, fx->dir);
	assert_int_equal(hil_boards_parse(json, &map, NULL, 0), HIL_OK);
	assert_int_equal(hil_lock_acquire(&lock, NULL, "qemu-a",
					  "configs/qemu.json", 0, NULL),
			 HIL_OK);
	j = list_json(&map);
	assert_true(cJSON_IsArray(j));
	assert_int_equal(cJSON_GetArraySize(j), 3);

	b = cJSON_GetArrayItem(j, 0);
	assert_string_equal(cJSON_GetObjectItem(b, "id")->valuestring,
			    "nucleo-1");
	assert_string_equal(cJSON_GetObjectItem(b, "runner")->valuestring,
			    "openocd");
	assert_int_equal(cJSON_GetObjectItem(b, "baud")->valueint, 115200);
	assert_string_equal(cJSON_GetObjectItem(b, "sensor")->valuestring,
			    "sim:x");
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(b, "port_present")));
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(b, "probe_id")));
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(b, "probe_present")));
	assert_string_equal(
		cJSON_GetObjectItem(cJSON_GetObjectItem(b, "lock"), "state")
			->valuestring,
		"free");

	b = cJSON_GetArrayItem(j, 1);
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(b, "serial")));
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(b, "baud")));
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(b, "connected")));
	assert_string_equal(
		cJSON_GetObjectItem(cJSON_GetObjectItem(b, "lock"), "state")
			->valuestring,
		"held");
	snprintf(holder, sizeof(holder), "pid %ld (configs/qemu.json)",
		 (long)getpid());
	assert_non_null(strstr(
		cJSON_GetObjectItem(cJSON_GetObjectItem(b, "lock"), "holder")
			->valuestring,
		holder));

	/* Unplugged: its port is not looked at. */
	b = cJSON_GetArrayItem(j, 2);
	assert_true(cJSON_IsFalse(cJSON_GetObjectItem(b, "connected")));
	assert_true(cJSON_IsNull(cJSON_GetObjectItem(b, "port_present")));
	cJSON_Delete(j);
	hil_lock_release(&lock);

	/* Released: free again. */
	j = list_json(&map);
	b = cJSON_GetArrayItem(j, 1);
	assert_string_equal(
		cJSON_GetObjectItem(cJSON_GetObjectItem(b, "lock"), "state")
			->valuestring,
		"free");
	assert_true(cJSON_IsNull(
		cJSON_GetObjectItem(cJSON_GetObjectItem(b, "lock"), "holder")));
	cJSON_Delete(j);
	assert_int_equal(hil_boards_list_json(NULL, stdout), HIL_ERR_ARG);
	hil_boards_free(&map);

	/* Issue 31 item 14: a board the map calls connected whose port is
	 * absent is not "connected": true beside "port_present": false. */
	snprintf(json, sizeof(json),
		 "[{\"id\": \"gone\", \"platform\": \"nucleo-f401re\", "
		 "\"serial\": \"%s/none\"}]",
		 fx->dir);
	assert_int_equal(hil_boards_parse(json, &map, NULL, 0), HIL_OK);
	j = list_json(&map);
	b = cJSON_GetArrayItem(j, 0);
	assert_true(cJSON_IsFalse(cJSON_GetObjectItem(b, "port_present")));
	assert_true(cJSON_IsFalse(cJSON_GetObjectItem(b, "connected")));
	assert_true(cJSON_IsTrue(cJSON_GetObjectItem(b, "map_connected")));
	cJSON_Delete(j);
	hil_boards_free(&map);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_boards_loads_shipped_map),
		T(test_boards_every_key),
		T(test_boards_rejects_unknown_keys),
		T(test_boards_rejects_wrong_types),
		T(test_boards_rejects_bad_values),
		T(test_boards_rejects_text_that_is_not_json),
		T(test_boards_load_errors_name_the_file),
		T(test_boards_match_a_config_to_its_board),
		T(test_boards_uid_check_names_both_uids),
		T(test_boards_a_config_names_its_board_by_id),
		T(test_boards_list_shows_port_and_lock),
		T(test_boards_use_takes_the_board_from_the_map),
		T(test_boards_path_from_the_environment),
		T(test_boards_list_json_has_every_key_and_the_lock),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
#undef T
}
