/* test_openocd_flasher: the OpenOCD flasher against a recording stand-in `openocd` first on PATH, and the real OpenOCD's config check. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
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
#include "drivers/flasher/flasher.h"
#include "util/err.h"
#include "util/proc.h"
#include "fake_tool.h"
#include "unit_util.h"

#define REAL_OPENOCD "/usr/bin/openocd"
#define SERIAL	     "0669FF485457725187092515"
#define SLEEP_MARK   "4242" /* the hanging stand-in sleeps this long */

/*
 * The stand-in: appends each argument on its own line to $HIL_FAKE_ARGV,
 * prints $HIL_FAKE_STDERR on stderr (OpenOCD logs there), sleeps when
 * $HIL_FAKE_SLEEP is set, and exits with $HIL_FAKE_EXIT.
 */
static const char stand_in[] =
	"#!/bin/sh\n"
	"if [ -n \"$HIL_FAKE_ARGV\" ]; then\n"
	"  for a in \"$@\"; do printf '%s\\n' \"$a\"; done >> \"$HIL_FAKE_ARGV\"\n"
	"fi\n"
	"if [ -n \"$HIL_FAKE_STDERR\" ]; then printf '%s\\n' \"$HIL_FAKE_STDERR\" >&2; fi\n"
	"if [ -n \"$HIL_FAKE_SLEEP\" ]; then exec sleep \"$HIL_FAKE_SLEEP\"; fi\n"
	"exit \"${HIL_FAKE_EXIT:-0}\"\n";

struct fixture {
	struct fake_tool tool; /* the stand-in first on PATH */
	char elf[96];	  /* a 32-bit ARM ELF header: enough for the check */
	char spaced[128]; /* the same, in a folder with a space */
	char not_elf[96];
	char ocd_log[128]; /* <run_dir>/openocd.log */
};

/* ---- helpers ---- */

/* The stand-in's exit status, its stderr and its sleep. */
static void fake(const char *exit_code, const char *err_text,
		 const char *sleep_s)
{
	fake_tool_env("HIL_FAKE_EXIT", exit_code);
	fake_tool_env("HIL_FAKE_STDERR", err_text);
	fake_tool_env("HIL_FAKE_SLEEP", sleep_s);
}

/* Compare what the stand-in recorded with the expected argv (without argv[0]). */
static void expect_argv(const struct fixture *f, const char *const *want,
			size_t n)
{
	char *got = fake_tool_slurp(f->tool.argv_log), *line = got, *nl;
	size_t i;

	for (i = 0; i < n; i++) {
		nl = strchr(line, '\n');
		assert_non_null(nl);
		*nl = '\0';
		assert_string_equal(line, want[i]);
		line = nl + 1;
	}
	assert_string_equal(line, ""); /* nothing more */
	free(got);
	fake_tool_forget(&f->tool);
}

static struct hil_flasher *open_ocd(const struct fixture *f,
				    const char *const *cfgs, size_t n_cfg,
				    const char *serial, unsigned khz,
				    unsigned timeout_ms)
{
	struct hil_flasher_params p;
	char speed[16];
	size_t i;

	fake_tool_params(&f->tool, &p);
	p.timeout_ms = timeout_ms;
	for (i = 0; i < n_cfg; i++) {
		assert_int_equal(hil_flasher_params_add(&p, "config", cfgs[i]),
				 HIL_OK);
	}
	p.probe_serial = serial;
	if (khz != 0) {
		snprintf(speed, sizeof(speed), "%u", khz);
		assert_int_equal(
			hil_flasher_params_add(&p, "adapter_khz", speed),
			HIL_OK);
	}
	return fake_tool_open("openocd", &p);
}

static int setup(void **state)
{
	static const unsigned char arm_header[52] = {
		0x7f,
		'E',
		'L',
		'F',
		1 /* 32-bit */,
		1 /* LSB */,
		1,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		0,
		2,
		0 /* ET_EXEC */,
		40,
		0 /* EM_ARM */,
	};
	struct fixture *f = calloc(1, sizeof(*f));
	char spaced_dir[80];

	assert_non_null(f);
	fake_tool_setup(&f->tool, "ocd");
	snprintf(spaced_dir, sizeof(spaced_dir), "%s/my fw", f->tool.dir);
	assert_int_equal(mkdir(spaced_dir, 0755), 0);
	snprintf(f->elf, sizeof(f->elf), "%s/fw.elf", f->tool.dir);
	snprintf(f->spaced, sizeof(f->spaced), "%s/stub.elf", spaced_dir);
	snprintf(f->not_elf, sizeof(f->not_elf), "%s/fw.bin", f->tool.dir);
	snprintf(f->ocd_log, sizeof(f->ocd_log), "%s/openocd.log",
		 f->tool.run_dir);
	ut_write_file(f->elf, arm_header, sizeof(arm_header), 0644);
	ut_write_file(f->spaced, arm_header, sizeof(arm_header), 0644);
	ut_write_file(f->not_elf, "\x00\x10\x00\x20", 4, 0644);
	fake_tool_install(f->tool.bin, "openocd", stand_in, NULL, 0);
	fake_tool_on_path(&f->tool);
	*state = f;
	return 0;
}

/* Each test starts with a silent, successful stand-in and no old output. */
static int reset_fake(void **state)
{
	struct fixture *f = *state;

	fake(NULL, NULL, NULL);
	fake_tool_forget(&f->tool);
	unlink(f->ocd_log);
	return 0;
}

/* ---- argv ---- */

static void test_start_argv_default_config_any_probe(void **state)
{
	struct fixture *f = *state;
	struct hil_flasher *fl = open_ocd(f, NULL, 0, NULL, 0, 5000);
	char prog[160];
	const char *want[4];

	snprintf(prog, sizeof(prog), "program {%s} verify reset exit", f->elf);
	want[0] = "-f";
	want[1] = "board/st_nucleo_f4.cfg";
	want[2] = "-c";
	want[3] = prog;
	assert_int_equal(hil_flasher_start(fl, f->elf), HIL_OK);
	expect_argv(f, want, 4);
	/* A real board: the runner opens link.port, nothing is watched. */
	fake_tool_check_real_board(fl);
}

static void test_start_argv_serial_before_program_and_two_configs(void **state)
{
	struct fixture *f = *state;
	const char *cfgs[] = {"interface/stlink.cfg", "target/stm32f4x.cfg"};
	struct hil_flasher *fl = open_ocd(f, cfgs, 2, SERIAL, 0, 5000);
	char prog[160];
	const char *want[8];

	snprintf(prog, sizeof(prog), "program {%s} verify reset exit", f->elf);
	want[0] = "-f";
	want[1] = "interface/stlink.cfg";
	want[2] = "-f";
	want[3] = "target/stm32f4x.cfg";
	want[4] = "-c";
	want[5] = "adapter serial " SERIAL; /* before program's init */
	want[6] = "-c";
	want[7] = prog;
	assert_int_equal(hil_flasher_start(fl, f->elf), HIL_OK);
	expect_argv(f, want, 8);
	hil_flasher_close(fl);
}

static void test_start_argv_adapter_speed_after_serial(void **state)
{
	struct fixture *f = *state;
	const char *cfgs[] = {"board/st_nucleo_f4.cfg"};
	struct hil_flasher *fl = open_ocd(f, cfgs, 1, SERIAL, 1800, 5000);
	char prog[160];
	const char *want[8];

	snprintf(prog, sizeof(prog), "program {%s} verify reset exit", f->elf);
	want[0] = "-f";
	want[1] = "board/st_nucleo_f4.cfg";
	want[2] = "-c";
	want[3] = "adapter serial " SERIAL;
	want[4] = "-c";
	want[5] = "adapter speed 1800";
	want[6] = "-c";
	want[7] = prog;
	assert_int_equal(hil_flasher_start(fl, f->elf), HIL_OK);
	expect_argv(f, want, 8);
	hil_flasher_close(fl);
}

static void
test_start_makes_relative_and_spaced_paths_one_absolute_word(void **state)
{
	struct fixture *f = *state;
	struct hil_flasher *fl = open_ocd(f, NULL, 0, NULL, 0, 5000);
	char cwd[256], prog[256];
	const char *want[4] = {"-f", "board/st_nucleo_f4.cfg", "-c", prog};

	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(f->tool.dir), 0);
	snprintf(prog, sizeof(prog), "program {%s/fw.elf} verify reset exit",
		 f->tool.dir);
	assert_int_equal(hil_flasher_start(fl, "fw.elf"), HIL_OK);
	assert_int_equal(chdir(cwd), 0);
	expect_argv(f, want, 4);

	/* Braces keep "my fw/stub.elf" one Tcl word for `program`. */
	snprintf(prog, sizeof(prog), "program {%s} verify reset exit",
		 f->spaced);
	assert_int_equal(hil_flasher_start(fl, f->spaced), HIL_OK);
	expect_argv(f, want, 4);
	hil_flasher_close(fl);
}

static void test_reset_and_probe_argv(void **state)
{
	struct fixture *f = *state;
	struct hil_flasher *fl = open_ocd(f, NULL, 0, SERIAL, 0, 5000);
	const char *want_reset[] = {"-f", "board/st_nucleo_f4.cfg",
				    "-c", "adapter serial " SERIAL,
				    "-c", "init; reset run; shutdown"};
	const char *want_probe[] = {"-f", "board/st_nucleo_f4.cfg",
				    "-c", "adapter serial " SERIAL,
				    "-c", "init; shutdown"};
	char why[256];

	assert_int_equal(hil_flasher_reset(fl), HIL_OK);
	expect_argv(f, want_reset, 6);
	assert_int_equal(hil_flasher_probe(fl, why, sizeof(why)), HIL_OK);
	expect_argv(f, want_probe, 6);
	hil_flasher_close(fl);
}

static void test_open_refuses_what_tcl_would_reinterpret(void **state)
{
	struct fixture *f = *state;
	struct hil_flasher_params p;
	struct hil_flasher *fl = NULL;
	struct ut_capture c;
	char log[4096];
	size_t i;

	fake_tool_params(&f->tool, &p);
	ut_capture_begin(&c);
	p.probe_serial = "0669; shutdown";
	assert_int_equal(hil_flasher_open(&fl, "openocd", &p), HIL_ERR_CONFIG);
	p.probe_serial = "06[exit]";
	assert_int_equal(hil_flasher_open(&fl, "openocd", &p), HIL_ERR_CONFIG);
	p.probe_serial = NULL;
	assert_int_equal(hil_flasher_params_add(&p, "config", "board/x}.cfg"),
			 HIL_OK);
	assert_int_equal(hil_flasher_open(&fl, "openocd", &p), HIL_ERR_CONFIG);
	/* One config file more than OpenOCD is given room for. */
	p.n_opts = 0;
	for (i = 0; i <= HIL_FLASHER_MAX_FILES; i++) {
		assert_int_equal(hil_flasher_params_add(&p, "config", "a.cfg"),
				 HIL_OK);
	}
	assert_int_equal(hil_flasher_open(&fl, "openocd", &p), HIL_ERR_ARG);
	ut_capture_end(&c, log, sizeof(log));
	assert_null(fl);
	assert_non_null(strstr(log, "0669; shutdown"));
	assert_non_null(strstr(log, "board/x}.cfg"));
	assert_non_null(
		strstr(log, "openocd flasher: more than 4 config files"));
}

static void test_start_rejects_non_elf_without_running_openocd(void **state)
{
	struct fixture *f = *state;
	struct hil_flasher *fl = open_ocd(f, NULL, 0, NULL, 0, 5000);

	fake_tool_check_rejects_non_elf(&f->tool, fl, f->not_elf);
	hil_flasher_close(fl);
}

/* ---- timeout ---- */

static void test_start_timeout_kills_a_hanging_openocd(void **state)
{
	struct fixture *f = *state;
	struct hil_flasher *fl = open_ocd(f, NULL, 0, SERIAL, 0, 300);

	fake(NULL, "Info : clock speed 2000 kHz", SLEEP_MARK);
	fake_tool_check_start_hangs(fl, f->elf, "300 ms", SERIAL, SLEEP_MARK);
}

static void test_probe_timeout_is_bounded(void **state)
{
	struct fixture *f = *state;
	struct hil_flasher *fl = open_ocd(f, NULL, 0, NULL, 0, 300);

	fake(NULL, NULL, SLEEP_MARK);
	fake_tool_check_probe_hangs(fl, "300 ms", SLEEP_MARK);
}

/* ---- OpenOCD 0.12's errors, translated ---- */

struct known_error {
	const char *output; /* what OpenOCD prints */
	const char *serial;
	int code;
	const char *says[3]; /* the message must contain these */
};

static const struct known_error known[] = {
	{"Info : clock speed 2000 kHz\n"
	 "Error: libusb_open() failed with LIBUSB_ERROR_ACCESS\n"
	 "Error: open failed\n"
	 "in procedure 'program'\n"
	 "** OpenOCD init failed **\n"
	 "shutdown command invoked",
	 SERIAL,
	 HIL_ERR_NA,
	 {"permission denied", "udev", "plugdev"}},
	{"Info : clock speed 2000 kHz\n"
	 "Error: open failed\n"
	 "in procedure 'program'\n"
	 "** OpenOCD init failed **\n"
	 "shutdown command invoked",
	 SERIAL,
	 HIL_ERR_NA,
	 {"no probe found", "no ST-LINK with serial " SERIAL, NULL}},
	{"Info : clock speed 2000 kHz\n"
	 "Error: open failed\n"
	 "in procedure 'program'\n"
	 "** OpenOCD init failed **",
	 NULL,
	 HIL_ERR_NA,
	 {"no probe found", "sees no ST-LINK", "any probe"}},
	{"Info : STLINK V2J37M26 (API v2) VID:PID 0483:374B\n"
	 "Info : Target voltage: 3.254962\n"
	 "Warn : UNEXPECTED idcode: 0x2ba01477\n"
	 "Error: expected 1 of 1: 0x1ba01477\n"
	 "in procedure 'program'\n"
	 "** OpenOCD init failed **\n"
	 "shutdown command invoked",
	 SERIAL,
	 HIL_ERR_MISMATCH,
	 {"wrong target", "0x2ba01477", "0x1ba01477"}},
	{"** Programming Started **\n"
	 "** Programming Finished **\n"
	 "** Verify Started **\n"
	 "Error: checksum mismatch - attempting binary compare\n"
	 "diff 0 address 0x08000004. Was 0x01 instead of 0x91\n"
	 "** Verify Failed **\n"
	 "shutdown command invoked",
	 SERIAL,
	 HIL_ERR_VERIFY,
	 {"verify failed", "diff 0 address 0x08000004", NULL}},
	{"Info : STLINK V2J37M26 (API v2) VID:PID 0483:374B\n"
	 "Error: init mode failed (unable to connect to the target)\n"
	 "in procedure 'program'\n"
	 "** OpenOCD init failed **",
	 SERIAL,
	 HIL_ERR_NA,
	 {"cannot reach the target", "powered", NULL}},
	{"** Programming Started **\n"
	 "Error: stm32x device protected\n"
	 "** Programming Failed **",
	 SERIAL,
	 HIL_ERR_PROCESS,
	 {"programming failed", "device protected", "write-protected"}},
	{"Error: something OpenOCD 0.13 might say",
	 NULL,
	 HIL_ERR_PROCESS,
	 {"\"Error: something OpenOCD 0.13 might say\"", "exit status 1",
	  NULL}},
};

static void test_start_translates_each_known_error(void **state)
{
	struct fixture *f = *state;
	size_t i, k;

	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		struct hil_flasher *fl =
			open_ocd(f, NULL, 0, known[i].serial, 0, 5000);
		struct ut_capture c;
		char log[4096];
		int ret;

		fake("1", known[i].output, NULL);
		ut_capture_begin(&c);
		ret = hil_flasher_start(fl, f->elf);
		ut_capture_end(&c, log, sizeof(log));
		print_message("case %zu: %d\n", i, ret);
		assert_int_equal(ret, known[i].code);
		for (k = 0; k < 3; k++) {
			if (known[i].says[k] != NULL) {
				assert_non_null(strstr(log, known[i].says[k]));
			}
		}
		/* Every message names the image and the probe. */
		assert_non_null(strstr(log, f->elf));
		assert_non_null(strstr(log, known[i].serial != NULL
						    ? "probe " SERIAL
						    : "any probe"));
		assert_non_null(strstr(log, f->ocd_log));
		hil_flasher_close(fl);
	}
}

static void test_probe_explains_without_logging(void **state)
{
	struct fixture *f = *state;
	struct hil_flasher *fl = open_ocd(f, NULL, 0, SERIAL, 0, 5000);
	char why[512];

	fake("1", "Error: open failed", NULL);
	assert_int_equal(hil_flasher_probe(fl, why, sizeof(why)), HIL_ERR_NA);
	assert_non_null(strstr(why, "no probe found"));
	assert_non_null(strstr(why, SERIAL));
	hil_flasher_close(fl);
}

/* ---- the log ---- */

static void
test_log_keeps_command_and_output_and_only_new_output_counts(void **state)
{
	struct fixture *f = *state;
	struct hil_flasher *fl = open_ocd(f, NULL, 0, SERIAL, 0, 5000);
	char *text;

	fake("1", "Error: open failed", NULL);
	fake_tool_check_start_fails(fl, f->elf, HIL_ERR_NA, NULL, NULL);

	fake("0", "** Programming Finished **\n** Verified OK **", NULL);
	assert_int_equal(hil_flasher_start(fl, f->elf), HIL_OK);

	/* The earlier "open failed" is still in the log: it must not count. */
	fake("1", "Warn : UNEXPECTED idcode: 0x2ba01477", NULL);
	fake_tool_check_start_fails(fl, f->elf, HIL_ERR_MISMATCH, NULL,
				    "no probe found");

	text = fake_tool_slurp(f->ocd_log);
	assert_non_null(strstr(
		text,
		"$ openocd -f board/st_nucleo_f4.cfg -c 'adapter serial " SERIAL
		"' -c 'program {"));
	assert_non_null(strstr(text, "Error: open failed\n"));
	assert_non_null(strstr(text, "** Verified OK **\n"));
	assert_non_null(strstr(text, "UNEXPECTED idcode"));
	free(text);
	hil_flasher_close(fl);
}

/* ---- version ---- */

static void test_version_is_first_line_of_stderr(void **state)
{
	struct fixture *f = *state;
	struct hil_flasher *fl = open_ocd(f, NULL, 0, NULL, 0, 5000);
	const char *want[] = {"--version"};
	char v[128];

	fake("0",
	     "\nOpen On-Chip Debugger 0.12.0\nLicensed under GNU GPL v2\n"
	     "For bug reports, read\n\thttp://openocd.org/doc/doxygen/bugs.html",
	     NULL);
	assert_int_equal(hil_flasher_version(fl, v, sizeof(v)), HIL_OK);
	assert_string_equal(v, "Open On-Chip Debugger 0.12.0");
	expect_argv(f, want, 1);

	/* Truncated to the buffer, still terminated. */
	assert_int_equal(hil_flasher_version(fl, v, 5), HIL_OK);
	assert_string_equal(v, "Open");
	fake_tool_forget(&f->tool);

	fake("2", "openocd: unrecognized option", NULL);
	assert_int_equal(hil_flasher_version(fl, v, sizeof(v)),
			 HIL_ERR_PROCESS);
	hil_flasher_close(fl);
}

static void test_missing_program_is_not_available(void **state)
{
	struct fixture *f = *state;
	struct hil_flasher_params p;
	struct hil_flasher *fl;

	fake_tool_params(&f->tool, &p);
	p.program = "/nonexistent/openocd";
	fl = fake_tool_open("openocd", &p);
	fake_tool_check_missing_program(fl, f->elf, "/nonexistent/openocd",
					"/nonexistent/openocd");
	hil_flasher_close(fl);
}

static void test_qemu_has_no_reset_or_probe(void **state)
{
	struct fixture *f = *state;
	struct hil_flasher_params p;
	struct hil_flasher *fl = NULL;
	char why[128];

	fake_tool_params(&f->tool, &p);
	assert_int_equal(hil_flasher_open(&fl, "qemu", &p), HIL_OK);
	assert_int_equal(hil_flasher_reset(fl), HIL_ERR_NA);
	assert_int_equal(hil_flasher_probe(fl, why, sizeof(why)), HIL_ERR_NA);
	assert_non_null(strstr(why, "qemu"));
	hil_flasher_close(fl);
}

/* ---- the real OpenOCD ---- */

static int have_real_openocd(void)
{
	return access(REAL_OPENOCD, X_OK) == 0;
}

static void test_real_openocd_accepts_the_shipped_config(void **state)
{
	char *const ok[] = {
		REAL_OPENOCD,	     "-f", "board/st_nucleo_f4.cfg", "-c",
		"echo ok; shutdown", NULL};
	char *const typo[] = {
		REAL_OPENOCD,	     "-f", "board/st_nucleo_f4x.cfg", "-c",
		"echo ok; shutdown", NULL};
	char out[4096];
	int status = -1;

	(void)state;
	if (!have_real_openocd()) {
		skip();
	}
	assert_int_equal(hil_proc_capture(ok, out, sizeof(out), 10000, &status),
			 HIL_OK);
	assert_int_equal(status, 0);
	assert_non_null(strstr(out, "\nok\n"));

	assert_int_equal(
		hil_proc_capture(typo, out, sizeof(out), 10000, &status),
		HIL_OK);
	assert_int_not_equal(status, 0);
	assert_non_null(strstr(out, "Can't find board/st_nucleo_f4x.cfg"));
}

static void test_real_openocd_version_and_probe(void **state)
{
	struct fixture *f = *state;
	struct hil_flasher_params p;
	struct hil_flasher *fl = NULL;
	char v[128], why[512];
	int ret;

	if (!have_real_openocd()) {
		skip();
	}
	fake_tool_params(&f->tool, &p);
	p.program = REAL_OPENOCD;
	p.probe_serial = SERIAL;
	assert_int_equal(hil_flasher_open(&fl, "openocd", &p), HIL_OK);
	assert_int_equal(hil_flasher_version(fl, v, sizeof(v)), HIL_OK);
	assert_non_null(strstr(v, "Open On-Chip Debugger"));
	/* No board with this serial is attached to a build machine. */
	ret = hil_flasher_probe(fl, why, sizeof(why));
	assert_int_equal(ret, HIL_ERR_NA);
	assert_non_null(strstr(why, "no probe found"));
	assert_non_null(strstr(why, SERIAL));
	hil_flasher_close(fl);
}

/*
 * A flasher's options are its own: another driver's key is refused with
 * the key and the driver's own named, and so is a speed that is no
 * number; params hold HIL_FLASHER_MAX_OPTS options at most.
 */
static void test_open_refuses_an_option_it_does_not_take(void **state)
{
	struct fixture *f = *state;
	struct hil_flasher_params p;
	struct hil_flasher *fl = NULL;
	struct ut_capture c;
	char log[4096];
	size_t i;

	fake_tool_params(&f->tool, &p);
	ut_capture_begin(&c);
	assert_int_equal(hil_flasher_params_add(&p, "machine", "mps2-an386"),
			 HIL_OK);
	assert_int_equal(hil_flasher_open(&fl, "openocd", &p), HIL_ERR_ARG);
	p.n_opts = 0;
	assert_int_equal(hil_flasher_params_add(&p, "adapter_khz", "4 MHz"),
			 HIL_OK);
	assert_int_equal(hil_flasher_open(&fl, "openocd", &p), HIL_ERR_ARG);
	p.n_opts = 0;
	assert_int_equal(hil_flasher_params_add(&p, "adapter_khz", ""), HIL_OK);
	assert_int_equal(hil_flasher_open(&fl, "openocd", &p), HIL_ERR_ARG);
	p.n_opts = 0;
	for (i = 0; i < HIL_FLASHER_MAX_OPTS; i++) {
		assert_int_equal(hil_flasher_params_add(&p, "config", "a.cfg"),
				 HIL_OK);
	}
	assert_int_equal(hil_flasher_params_add(&p, "config", "a.cfg"),
			 HIL_ERR_ARG);
	assert_int_equal(hil_flasher_params_add(&p, NULL, "x"), HIL_ERR_ARG);
	ut_capture_end(&c, log, sizeof(log));
	assert_null(fl);
	assert_non_null(strstr(
		log,
		"openocd flasher: no option \"machine\" (its options: config, adapter_khz)"));
	assert_non_null(strstr(
		log,
		"openocd flasher: option adapter_khz \"4 MHz\": expected an integer from 0 to 1000000"));
	assert_non_null(strstr(
		log,
		"openocd flasher: option adapter_khz \"\": expected an integer"));
}

/* What a configuration gives a flasher: the common params, and only the
 * options its own driver takes from it. */
static void test_params_from_config_are_each_drivers_own(void **state)
{
	struct hil_config *cfg = calloc(1, sizeof(*cfg));
	struct hil_flasher_params p;

	(void)state;
	assert_non_null(cfg);
	hil_config_defaults(cfg);
	snprintf(cfg->flasher.files[0], sizeof(cfg->flasher.files[0]), "a.cfg");
	snprintf(cfg->flasher.files[1], sizeof(cfg->flasher.files[1]), "b.cfg");
	cfg->flasher.n_files = 2;
	snprintf(cfg->flasher.target, sizeof(cfg->flasher.target), "chip");
	snprintf(cfg->flasher.probe_serial, sizeof(cfg->flasher.probe_serial),
		 "0669");
	cfg->flasher.timeout_ms = 1234;

	snprintf(cfg->flasher.type, sizeof(cfg->flasher.type), "openocd");
	assert_int_equal(hil_flasher_params_from_config(cfg, "/run", &p),
			 HIL_OK);
	assert_string_equal(p.run_dir, "/run");
	assert_string_equal(p.probe_serial, "0669");
	assert_int_equal(p.timeout_ms, 1234);
	assert_int_equal(p.n_opts, 2);
	assert_string_equal(p.opts[0].key, "config");
	assert_string_equal(p.opts[0].value, "a.cfg");
	assert_string_equal(p.opts[1].key, "config");
	assert_string_equal(p.opts[1].value, "b.cfg");

	snprintf(cfg->flasher.type, sizeof(cfg->flasher.type), "pyocd");
	assert_int_equal(hil_flasher_params_from_config(cfg, "/run", &p),
			 HIL_OK);
	assert_int_equal(p.n_opts, 1);
	assert_string_equal(p.opts[0].key, "target");
	assert_string_equal(p.opts[0].value, "chip");

	snprintf(cfg->flasher.type, sizeof(cfg->flasher.type), "qemu");
	assert_int_equal(hil_flasher_params_from_config(cfg, "/run", &p),
			 HIL_OK);
	assert_int_equal(p.n_opts, 1);
	assert_string_equal(p.opts[0].key, "machine");
	assert_string_equal(p.opts[0].value, "chip");
	cfg->flasher.target[0] = '\0';
	assert_int_equal(hil_flasher_params_from_config(cfg, "/run", &p),
			 HIL_OK);
	assert_int_equal(p.n_opts, 0);
	hil_config_free(cfg);
	free(cfg);
}

/* A tool's output read back from its log (both tool flashers use it): what
 * came after the offset, only the last len - 1 bytes of more, nothing of a
 * log that is not there. */
static void test_log_tail_reads_this_runs_output(void **state)
{
	const struct fixture *f = *state;
	static const char text[] = "$ openocd -f a.cfg\nError: no probe\n";
	char buf[64];
	char small[6];

	ut_write_file(f->ocd_log, text, strlen(text), 0644);
	hil_flasher_log_tail(f->ocd_log, 19, buf, sizeof(buf));
	assert_string_equal(buf, "Error: no probe\n");
	hil_flasher_log_tail(f->ocd_log, 0, small, sizeof(small));
	assert_string_equal(small, "robe\n");
	hil_flasher_log_tail(f->ocd_log, (off_t)strlen(text), buf, sizeof(buf));
	assert_string_equal(buf, "");
	unlink(f->ocd_log);
	strcpy(buf, "stale");
	hil_flasher_log_tail(f->ocd_log, 0, buf, sizeof(buf));
	assert_string_equal(buf, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(
			test_open_refuses_an_option_it_does_not_take,
			reset_fake),
		cmocka_unit_test(test_params_from_config_are_each_drivers_own),
		cmocka_unit_test_setup(test_log_tail_reads_this_runs_output,
				       reset_fake),
		cmocka_unit_test_setup(test_start_argv_default_config_any_probe,
				       reset_fake),
		cmocka_unit_test_setup(
			test_start_argv_serial_before_program_and_two_configs,
			reset_fake),
		cmocka_unit_test_setup(
			test_start_argv_adapter_speed_after_serial, reset_fake),
		cmocka_unit_test_setup(
			test_start_makes_relative_and_spaced_paths_one_absolute_word,
			reset_fake),
		cmocka_unit_test_setup(test_reset_and_probe_argv, reset_fake),
		cmocka_unit_test_setup(
			test_open_refuses_what_tcl_would_reinterpret,
			reset_fake),
		cmocka_unit_test_setup(
			test_start_rejects_non_elf_without_running_openocd,
			reset_fake),
		cmocka_unit_test_setup(
			test_start_timeout_kills_a_hanging_openocd, reset_fake),
		cmocka_unit_test_setup(test_probe_timeout_is_bounded,
				       reset_fake),
		cmocka_unit_test_setup(test_start_translates_each_known_error,
				       reset_fake),
		cmocka_unit_test_setup(test_probe_explains_without_logging,
				       reset_fake),
		cmocka_unit_test_setup(
			test_log_keeps_command_and_output_and_only_new_output_counts,
			reset_fake),
		cmocka_unit_test_setup(test_version_is_first_line_of_stderr,
				       reset_fake),
		cmocka_unit_test_setup(test_missing_program_is_not_available,
				       reset_fake),
		cmocka_unit_test_setup(test_qemu_has_no_reset_or_probe,
				       reset_fake),
		cmocka_unit_test_setup(
			test_real_openocd_accepts_the_shipped_config,
			reset_fake),
		cmocka_unit_test_setup(test_real_openocd_version_and_probe,
				       reset_fake),
	};

	return cmocka_run_group_tests(tests, setup, fake_tool_teardown_fixture);
}
