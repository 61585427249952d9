/* test_doctor: `hilrun doctor` on a machine without a board: one line per check, failures named, never hanging. */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "config/config.h"
#include "cli/doctor.h"
#include "drivers/flasher/flasher.h"
#include "util/err.h"
#include "util/jail.h"
#include "unit_util.h"

#define PORT	     "/dev/ttyHILRUN0"
#define SERIAL	     "066BFF495057717867164315"
#define REAL_OPENOCD "/usr/bin/openocd"

/*
 * A stand-in `openocd` that behaves as OpenOCD 0.12 does without a probe:
 * the banner on stderr for --version, a config check that passes, and
 * "Error: open failed" for init; each of the three also tries to write a
 * file beside itself (wrote-version, wrote-config, wrote-probe), which a
 * jailed one cannot; with a file "hang" beside it, init never
 * ends (a file, not a variable: the probe check runs jailed, in a clean
 * environment, where the stand-in's folder is bound read-only).
 */
static const char stand_in[] =
	"#!/bin/sh\n"
	"for a in \"$@\"; do\n"
	"  case \"$a\" in\n"
	"  --version) touch \"${0%/*}/wrote-version\" 2>/dev/null\n"
	"    echo 'Open On-Chip Debugger 0.12.0 (stand-in)' >&2; exit 0;;\n"
	"  'echo ok; shutdown') touch \"${0%/*}/wrote-config\" 2>/dev/null\n"
	"    echo ok; exit 0;;\n"
	"  'init; shutdown') touch \"${0%/*}/wrote-probe\" 2>/dev/null\n"
	"    if [ -e \"${0%/*}/hang\" ]; then exec sleep 3737; fi\n"
	"    echo 'Error: open failed' >&2; exit 1;;\n"
	"  esac\n"
	"done\n"
	"exit 3\n";

struct fixture {
	char dir[64];
	char *saved_path;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	const char *old = getenv("PATH");
	char path[512];

	assert_non_null(f);
	snprintf(f->dir, sizeof(f->dir), "/tmp/hiltest-doctor-XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	snprintf(path, sizeof(path), "%s/openocd", f->dir);
	ut_write_file(path, stand_in, strlen(stand_in), 0755);
	f->saved_path = strdup(old != NULL ? old : "/usr/bin:/bin");
	assert_non_null(f->saved_path);
	snprintf(path, sizeof(path), "%s:%s", f->dir, f->saved_path);
	setenv("PATH", path, 1);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	setenv("PATH", f->saved_path, 1);
	assert_int_equal(ut_rm_tree(f->dir), 0);
	free(f->saved_path);
	free(f);
	return 0;
}

static void load(struct hil_config *cfg, const char *json)
{
	char err[512];

	assert_int_equal(hil_config_parse(json, NULL, cfg, err, sizeof(err)),
			 HIL_OK);
}

/* Run the doctor into a string (caller frees); *ret gets its result. */
static char *doctor(const struct hil_config *cfg, int *ret, uint64_t *ms)
{
	char *text = NULL;
	size_t len = 0;
	uint64_t t0 = ut_ms_now();
	FILE *out = open_memstream(&text, &len);

	assert_non_null(out);
	*ret = hil_doctor(cfg, out);
	fclose(out);
	*ms = ut_ms_now() - t0;
	assert_non_null(text);
	fprintf(stderr, "%s", text);
	return text;
}

/* The same for a config given as JSON text. */
static char *doctor_json(const char *json, int *ret, uint64_t *ms)
{
	struct hil_config cfg = {0};
	char *text;

	load(&cfg, json);
	text = doctor(&cfg, ret, ms);
	hil_config_free(&cfg);
	return text;
}

/*
 * The first line of the check called name that contains needle (NULL:
 * any), copied to buf; fails the test if there is none.
 */
static const char *line_with(const char *text, const char *name,
			     const char *needle, char *buf, size_t len)
{
	const char *s = text;
	size_t n = strlen(name);

	while (*s != '\0') {
		const char *nl = strchr(s, '\n');
		size_t l = nl != NULL ? (size_t)(nl - s) : strlen(s);

		if (strncmp(s, name, n) == 0 && s[n] == ' ') {
			assert_true(l < len);
			memcpy(buf, s, l);
			buf[l] = '\0';
			if (needle == NULL || strstr(buf, needle) != NULL) {
				return buf;
			}
		}
		s += l + (nl != NULL);
	}
	fail_msg("no line for check \"%s\" with \"%s\"", name,
		 needle != NULL ? needle : "");
	return NULL;
}

static const char *line_of(const char *text, const char *name, char *buf,
			   size_t len)
{
	return line_with(text, name, NULL, buf, len);
}

/* Where the verdict word starts in a line: the earliest of the three. */
static const char *verdict(const char *line, int *is_fail)
{
	static const char *const words[] = {" ok: ", " ok",
					    " FAIL: ", " skip: "};
	const char *best = NULL;
	size_t i;

	*is_fail = 0;
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		const char *v = strstr(line, words[i]);

		if (v == NULL || (i == 1 && v[3] != '\0')) {
			continue; /* bare " ok" only at the end of the line */
		}
		if (best == NULL || v < best) {
			best = v;
			*is_fail = i == 2;
		}
	}
	return best;
}

/* Every line is "<check> ok|FAIL|skip[: detail]"; @return how many. */
static int count_check_lines(const char *text, int *fails)
{
	const char *s = text;
	int n = 0, is_fail;

	*fails = 0;
	while (*s != '\0') {
		const char *nl = strchr(s, '\n');
		char line[2048];
		size_t l;

		assert_non_null(nl); /* every line is terminated */
		l = (size_t)(nl - s);
		assert_true(l < sizeof(line));
		memcpy(line, s, l);
		line[l] = '\0';
		if (verdict(line, &is_fail) == NULL) {
			fail_msg("not a check line: \"%s\"", line);
		}
		*fails += is_fail;
		n++;
		s = nl + 1;
	}
	return n;
}

static const char nucleo_json[] =
	"{\"algorithms\": [\"ascon-aead128\"],"
	" \"board\": {\"name\": \"nucleo-f401re\"},"
	" \"link\": {\"type\": \"serial\", \"port\": \"" PORT "\"},"
	" \"flasher\": {\"type\": \"openocd\", \"probe_serial\": \"" SERIAL
	"\"}}";

static void test_doctor_without_board_fails_line_by_line(void **state)
{
	char buf[2048];
	uint64_t ms;
	char *text;
	int ret, fails;

	(void)state;
	text = doctor_json(nucleo_json, &ret, &ms);
	assert_int_equal(ret, HIL_ERR_NA);
	assert_true(ms < UT_HANG_MS);
	/* cross compiler, newlib, make, flasher program, 1 openocd config,
	 * probe, 4 serial-port checks, sensor bus */
	assert_int_equal(count_check_lines(text, &fails), 11);
	assert_true(fails >= 2);

	line_of(text, "probe", buf, sizeof(buf));
	assert_non_null(strstr(buf, " FAIL: "));
	assert_non_null(strstr(buf, SERIAL));
	assert_non_null(strstr(buf, "no probe found"));

	line_of(text, "serial port exists", buf, sizeof(buf));
	assert_non_null(strstr(buf, " FAIL: "));
	assert_non_null(strstr(buf, PORT));
	assert_non_null(strstr(buf, "No such file or directory"));
	line_of(text, "serial port is a tty", buf, sizeof(buf));
	assert_non_null(strstr(buf, " skip: "));
	line_of(text, "libserialport opens port", buf, sizeof(buf));
	assert_non_null(strstr(buf, " skip: "));

	line_of(text, "flasher program", buf, sizeof(buf));
	assert_non_null(strstr(buf, " ok: Open On-Chip Debugger 0.12.0"));
	line_with(text, "openocd config", "board/st_nucleo_f4.cfg", buf,
		  sizeof(buf));
	assert_non_null(strstr(buf, " ok: "));
	line_of(text, "sensor bus", buf, sizeof(buf));
	assert_non_null(strstr(buf, " skip: no sensor configured"));
	free(text);
}

/*
 * pqm4's boards without a board: each fails on its probe and its port,
 * naming what to plug in, and its OpenOCD config comes from the board
 * driver (the config names none).
 */
static void test_doctor_pqm4_boards_fail_clearly_without_them(void **state)
{
	static const struct {
		const char *board, *cfg, *port_hint;
	} boards[] = {
		{"stm32f4discovery", "board/stm32f4discovery.cfg",
		 "if00-port0"},
	};
	char json[512], buf[2048];
	uint64_t ms;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(boards) / sizeof(boards[0]); i++) {
		char *text;
		int ret, fails;

		snprintf(json, sizeof(json),
			 "{\"algorithms\": [\"ascon-aead128\"],"
			 " \"board\": {\"name\": \"%s\"},"
			 " \"link\": {\"type\": \"serial\", \"port\": \"" PORT
			 "\"}}",
			 boards[i].board);
		text = doctor_json(json, &ret, &ms);
		assert_int_equal(ret, HIL_ERR_NA);
		assert_true(ms < UT_HANG_MS);
		assert_int_equal(count_check_lines(text, &fails), 11);
		assert_true(fails >= 2);
		line_with(text, "openocd config", boards[i].cfg, buf,
			  sizeof(buf));
		assert_non_null(strstr(buf, " ok: "));
		line_of(text, "probe", buf, sizeof(buf));
		assert_non_null(strstr(buf, " FAIL: "));
		assert_non_null(strstr(buf, "no probe found"));
		line_of(text, "serial port exists", buf, sizeof(buf));
		assert_non_null(strstr(buf, " FAIL: "));
		assert_non_null(strstr(buf, boards[i].board));
		assert_non_null(strstr(buf, boards[i].port_hint));
		free(text);
	}
}

/*
 * The version check, the config check and the probe check run OpenOCD
 * jailed, as flashing does: the stand-in runs (its banner is shown, the
 * config passes, the probe's "open failed" is reported), but its writes
 * beside itself come to nothing.
 */
static void test_doctor_runs_openocd_jailed(void **state)
{
	struct fixture *f = *state;
	char buf[2048], path[96], why[512];
	uint64_t ms;
	char *text;
	int ret;

	assert_int_equal(hil_jail_probe(why, sizeof(why)), HIL_OK);
	text = doctor_json(nucleo_json, &ret, &ms);
	line_with(text, "openocd config", "board/st_nucleo_f4.cfg", buf,
		  sizeof(buf));
	assert_non_null(strstr(buf, " ok: "));
	line_of(text, "probe", buf, sizeof(buf));
	assert_non_null(strstr(buf, " FAIL: "));
	assert_non_null(strstr(buf, "no probe found"));
	line_of(text, "flasher program", buf, sizeof(buf));
	assert_non_null(strstr(buf, " ok: Open On-Chip Debugger 0.12.0"));
	free(text);
	snprintf(path, sizeof(path), "%s/wrote-version", f->dir);
	assert_int_equal(access(path, F_OK), -1);
	snprintf(path, sizeof(path), "%s/wrote-config", f->dir);
	assert_int_equal(access(path, F_OK), -1);
	snprintf(path, sizeof(path), "%s/wrote-probe", f->dir);
	assert_int_equal(access(path, F_OK), -1);
}

/* The openocd flasher's version op (what a run records), jailed or not. */
static int flasher_version_writes(const struct fixture *f, int jail)
{
	struct hil_flasher_params p;
	struct hil_flasher *fl = NULL;
	char ver[128], path[96];
	int wrote;

	memset(&p, 0, sizeof(p));
	p.run_dir = f->dir;
	p.jail = jail;
	assert_int_equal(hil_flasher_open(&fl, "openocd", &p), HIL_OK);
	assert_int_equal(hil_flasher_version(fl, ver, sizeof(ver)), HIL_OK);
	hil_flasher_close(fl);
	assert_string_equal(ver, "Open On-Chip Debugger 0.12.0 (stand-in)");
	snprintf(path, sizeof(path), "%s/wrote-version", f->dir);
	wrote = access(path, F_OK) == 0;
	unlink(path);
	return wrote;
}

/*
 * `openocd --version`, which a run asks to record the tool, is jailed as
 * flashing is: the stand-in's write beside itself comes to nothing.
 * Unjailed it lands (the test can tell).
 */
static void test_openocd_version_runs_jailed(void **state)
{
	struct fixture *f = *state;
	char why[512];

	assert_int_equal(hil_jail_probe(why, sizeof(why)), HIL_OK);
	assert_false(flasher_version_writes(f, 1));
	assert_true(flasher_version_writes(f, 0));
}

static void test_doctor_hanging_probe_is_bounded(void **state)
{
	struct fixture *f = *state;
	struct hil_config cfg = {0};
	char buf[2048], hang[96];
	uint64_t ms;
	char *text;
	int ret, fails;

	load(&cfg, nucleo_json);
	cfg.flasher.timeout_ms = 1000; /* bounds the probe check too */
	snprintf(hang, sizeof(hang), "%s/hang", f->dir);
	ut_write_file(hang, "", 0, 0644);
	text = doctor(&cfg, &ret, &ms);
	assert_int_equal(unlink(hang), 0);
	assert_int_equal(ret, HIL_ERR_NA);
	assert_true(ms < UT_HANG_MS); /* the probe check gives up after 1 s */
	assert_int_equal(count_check_lines(text, &fails), 11);
	line_of(text, "probe", buf, sizeof(buf));
	assert_non_null(strstr(buf, " FAIL: "));
	assert_non_null(strstr(buf, SERIAL));
	assert_non_null(strstr(buf, "within 1000 ms"));
	free(text);
	hil_config_free(&cfg);
}

static void test_doctor_missing_openocd_skips_what_depends_on_it(void **state)
{
	char buf[2048];
	uint64_t ms;
	char *text;
	int ret, fails;

	(void)state;
	text = doctor_json(
		"{\"algorithms\": [\"ascon-aead128\"],"
		" \"board\": {\"name\": \"nucleo-f401re\"},"
		" \"link\": {\"port\": \"" PORT "\"},"
		" \"flasher\": {\"program\": \"/nonexistent/openocd\"}}",
		&ret, &ms);
	assert_int_equal(ret, HIL_ERR_NA);
	assert_int_equal(count_check_lines(text, &fails), 11);
	line_of(text, "flasher program", buf, sizeof(buf));
	assert_non_null(strstr(buf, " FAIL: /nonexistent/openocd not found"));
	line_of(text, "openocd config", buf, sizeof(buf));
	assert_non_null(strstr(buf, " skip: "));
	line_of(text, "probe", buf, sizeof(buf));
	assert_non_null(strstr(buf, " skip: "));
	free(text);
}

static void test_doctor_port_that_is_not_a_device(void **state)
{
	struct fixture *f = *state;
	struct hil_config cfg = {0};
	char json[512], buf[2048], err[512];
	uint64_t ms;
	char *text;
	int ret, fails;

	snprintf(json, sizeof(json),
		 "{\"algorithms\": [\"ascon-aead128\"],"
		 " \"board\": {\"name\": \"nucleo-f401re\"},"
		 " \"link\": {\"port\": \"%s/openocd\"}}",
		 f->dir);
	/* A config naming it is refused when it loads... */
	assert_int_equal(hil_config_parse(json, NULL, &cfg, err, sizeof(err)),
			 HIL_ERR_CONFIG);
	assert_non_null(strstr(err, "not a serial port"));
	/* ...but a hardware map may still give it (board.id): the doctor
	 * says what is wrong with it. */
	load(&cfg, "{\"algorithms\": [\"ascon-aead128\"],"
		   " \"board\": {\"name\": \"nucleo-f401re\"},"
		   " \"link\": {\"port\": \"/dev/ttyACM9-not-plugged\"}}");
	snprintf(cfg.link.port, sizeof(cfg.link.port), "%s/openocd", f->dir);
	text = doctor(&cfg, &ret, &ms);
	assert_int_equal(ret, HIL_ERR_NA);
	assert_int_equal(count_check_lines(text, &fails), 11);
	line_of(text, "serial port exists", buf, sizeof(buf));
	assert_non_null(strstr(buf, " ok"));
	line_of(text, "serial port is a tty", buf, sizeof(buf));
	assert_non_null(strstr(buf, " FAIL: "));
	assert_non_null(strstr(buf, "not a character device"));
	free(text);
	hil_config_free(&cfg);
}

static void test_doctor_qemu_needs_no_probe_or_port(void **state)
{
	char buf[2048];
	uint64_t ms;
	char *text;
	int ret, fails;

	(void)state;
	text = doctor_json("{\"algorithms\": [\"ascon-aead128\"]}", &ret, &ms);
	/* cross compiler, newlib, make, flasher program, probe, serial port,
	 * sensor bus */
	assert_int_equal(count_check_lines(text, &fails), 7);
	assert_int_equal(ret, fails == 0 ? HIL_OK : HIL_ERR_NA);
	line_of(text, "probe", buf, sizeof(buf));
	assert_non_null(strstr(buf, " skip: flasher qemu needs no probe"));
	line_of(text, "serial port", buf, sizeof(buf));
	assert_non_null(strstr(buf, " skip: "));
	free(text);
}

/* With the real OpenOCD: a typo in the config is found without a probe. */
static void test_doctor_real_openocd_finds_config_typo(void **state)
{
	char buf[2048];
	uint64_t ms;
	char *text;
	int ret, fails;

	(void)state;
	if (access(REAL_OPENOCD, X_OK) != 0) {
		skip();
	}
	text = doctor_json(
		"{\"algorithms\": [\"ascon-aead128\"],"
		" \"board\": {\"name\": \"nucleo-f401re\"},"
		" \"link\": {\"port\": \"" PORT "\"},"
		" \"flasher\": {\"program\": \"" REAL_OPENOCD "\","
		"  \"openocd_config\": [\"board/st_nucleo_f4.cfg\","
		"                       \"board/st_nucleo_f4x.cfg\"]}}",
		&ret, &ms);
	assert_int_equal(ret, HIL_ERR_NA);
	assert_int_equal(count_check_lines(text, &fails), 12);
	line_with(text, "openocd config", "board/st_nucleo_f4.cfg ", buf,
		  sizeof(buf));
	assert_non_null(strstr(buf, " ok: "));
	line_with(text, "openocd config", "board/st_nucleo_f4x.cfg", buf,
		  sizeof(buf));
	assert_non_null(strstr(buf, " FAIL: "));
	assert_non_null(strstr(buf, "Can't find board/st_nucleo_f4x.cfg"));
	line_of(text, "probe", buf, sizeof(buf));
	assert_non_null(strstr(buf, " skip: "));
	free(text);
}

/* A configured sensor is opened and asked for its configuration register. */
static void test_doctor_checks_a_configured_sensor(void **state)
{
	char buf[2048];
	uint64_t ms;
	char *text;
	int ret, fails;

	(void)state;
	text = doctor_json("{\"algorithms\": [\"ascon-aead128\"],"
			   " \"sensor\": {\"type\": \"ina219\","
			   "  \"bus\": \"sim:ina219@0x40\"}}",
			   &ret, &ms);
	assert_int_equal(count_check_lines(text, &fails), 7);
	line_of(text, "sensor bus", buf, sizeof(buf));
	assert_non_null(strstr(buf, " ok: INA219 at 0x40 on sim:ina219@0x40 "
				    "answers: configuration 0x399f"));
	free(text);

	/* Nothing answers at the address: FAIL, and why. */
	text = doctor_json(
		"{\"algorithms\": [\"ascon-aead128\"],"
		" \"sensor\": {\"type\": \"ina219\", \"address\": 65,"
		"  \"bus\": \"sim:ina219@0x40\"}}",
		&ret, &ms);
	assert_int_equal(ret, HIL_ERR_NA);
	line_of(text, "sensor bus", buf, sizeof(buf));
	assert_non_null(strstr(buf, " FAIL: INA219 at 0x41 on sim:ina219@0x40 "
				    "does not answer"));
	free(text);

	/* No adapter: FAIL at once, naming the adapter looked for. */
	text = doctor_json("{\"algorithms\": [\"ascon-aead128\"],"
			   " \"sensor\": {\"type\": \"ina219\","
			   "  \"bus\": \"ftdi:0403:6014:HILTEST-NONE\"}}",
			   &ret, &ms);
	assert_int_equal(ret, HIL_ERR_NA);
	line_of(text, "sensor bus", buf, sizeof(buf));
	assert_non_null(strstr(buf, " FAIL: sensor.bus "
				    "\"ftdi:0403:6014:HILTEST-NONE\": no FTDI "
				    "adapter 0403:6014:HILTEST-NONE"));
	free(text);
}

/* An INA226 is asked for its ID registers too: the wrong chip FAILs. */
static void test_doctor_checks_an_ina226_by_its_ids(void **state)
{
	char buf[2048];
	uint64_t ms;
	char *text;
	int ret, fails;

	(void)state;
	text = doctor_json("{\"algorithms\": [\"ascon-aead128\"],"
			   " \"sensor\": {\"type\": \"ina226\","
			   "  \"bus\": \"sim:ina226@0x40\"}}",
			   &ret, &ms);
	assert_int_equal(count_check_lines(text, &fails), 7);
	line_of(text, "sensor bus", buf, sizeof(buf));
	assert_non_null(strstr(buf, " ok: INA226 at 0x40 on sim:ina226@0x40 "
				    "answers: configuration 0x4127 (power-on "
				    "default), manufacturer ID 0x5449, die ID "
				    "0x2260 (simulated)"));
	free(text);

	/* An INA219 at the address of the INA226 the config names. */
	text = doctor_json("{\"algorithms\": [\"ascon-aead128\"],"
			   " \"sensor\": {\"type\": \"ina226\","
			   "  \"bus\": \"sim:ina219@0x40\"}}",
			   &ret, &ms);
	assert_int_equal(ret, HIL_ERR_NA);
	line_of(text, "sensor bus", buf, sizeof(buf));
	assert_non_null(strstr(buf, " FAIL: INA226 at 0x40 on sim:ina219@0x40 "
				    "answers: configuration 0x399f, but "));
	assert_non_null(strstr(buf, "not an INA226"));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_doctor_without_board_fails_line_by_line),
		cmocka_unit_test(
			test_doctor_pqm4_boards_fail_clearly_without_them),
		cmocka_unit_test(test_doctor_runs_openocd_jailed),
		cmocka_unit_test(test_openocd_version_runs_jailed),
		cmocka_unit_test(test_doctor_hanging_probe_is_bounded),
		cmocka_unit_test(
			test_doctor_missing_openocd_skips_what_depends_on_it),
		cmocka_unit_test(test_doctor_port_that_is_not_a_device),
		cmocka_unit_test(test_doctor_qemu_needs_no_probe_or_port),
		cmocka_unit_test(test_doctor_real_openocd_finds_config_typo),
		cmocka_unit_test(test_doctor_checks_a_configured_sensor),
		cmocka_unit_test(test_doctor_checks_an_ina226_by_its_ids),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
