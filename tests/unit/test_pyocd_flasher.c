/* test_pyocd_flasher: the pyOCD flasher against recording stand-ins for pyocd-flashtool and pyocd-tool, and Debian's real pyOCD 0.13.1 without a probe. */
#define _POSIX_C_SOURCE 200809L

#include <elf.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "drivers/flasher/flasher.h"
#include "util/err.h"
#include "util/jail.h"
#include "util/proc.h"
#include "fake_tool.h"
#include "unit_util.h"

#define REAL_FLASHTOOL "/usr/bin/pyocd-flashtool"
#define REAL_PYTHON    "/usr/bin/python3"
#define SERIAL	       "0669FF485457725187092515"
#define SLEEP_MARK     "4243" /* the hanging stand-ins sleep this long */

/*
 * The stand-in, installed as both pyocd-flashtool and pyocd-tool: appends
 * "NAME ARG ARG..." to $HIL_FAKE_ARGV, then for pyocd-flashtool prints
 * $HIL_FAKE_FLASH_OUT, sleeps on $HIL_FAKE_FLASH_SLEEP, exits with
 * $HIL_FAKE_FLASH_EXIT; pyocd-tool likewise with HIL_FAKE_TOOL_*, and when
 * it goes on, answers its command as pyOCD 0.13.1 does: read32 prints
 * "ADDR:  $HIL_FAKE_ID " (dump_hex_data), savemem copies
 * $HIL_FAKE_MEM/ADDR.bin to FILE, reset and status print their lines.
 */
static const char stand_in[] =
	"#!/bin/sh\n"
	"me=${0##*/}\n"
	"if [ -n \"$HIL_FAKE_ARGV\" ]; then\n"
	"  { printf '%s' \"$me\"; for a in \"$@\"; do printf ' %s' \"$a\"; done; printf '\\n'; } >> \"$HIL_FAKE_ARGV\"\n"
	"fi\n"
	"if [ \"$1\" = --version ]; then\n"
	"  printf '%s\\n' \"${HIL_FAKE_VERSION-0.13.1}\"; exit \"${HIL_FAKE_VERSION_EXIT:-0}\"\n"
	"fi\n"
	"while [ $# -gt 0 ]; do\n"
	"  case \"$1\" in -b|-t|-k|-f) shift 2 ;; -hp) shift ;; *) break ;; esac\n"
	"done\n"
	"if [ \"$me\" = pyocd-flashtool ]; then\n"
	"  if [ -n \"$HIL_FAKE_FLASH_OUT\" ]; then printf '%s\\n' \"$HIL_FAKE_FLASH_OUT\"; fi\n"
	"  if [ -n \"$HIL_FAKE_FLASH_SLEEP\" ]; then exec sleep \"$HIL_FAKE_FLASH_SLEEP\"; fi\n"
	"  exit \"${HIL_FAKE_FLASH_EXIT:-0}\"\n"
	"fi\n"
	"if [ -n \"$HIL_FAKE_TOOL_OUT\" ]; then printf '%s\\n' \"$HIL_FAKE_TOOL_OUT\"; fi\n"
	"if [ -n \"$HIL_FAKE_TOOL_SLEEP\" ]; then exec sleep \"$HIL_FAKE_TOOL_SLEEP\"; fi\n"
	"if [ \"${HIL_FAKE_TOOL_EXIT:-0}\" != 0 ]; then exit \"$HIL_FAKE_TOOL_EXIT\"; fi\n"
	"case \"$1\" in\n"
	"read32) printf '%s:  %s \\n' \"${2#0x}\" \"${HIL_FAKE_ID:-10076415}\" ;;\n"
	"savemem) if [ -f \"$HIL_FAKE_MEM/$2.bin\" ]; then cp \"$HIL_FAKE_MEM/$2.bin\" \"$4\"; fi\n"
	"  printf 'Saved %s bytes to %s\\n' \"$3\" \"$4\" ;;\n"
	"reset) echo 'Resetting target' ;;\n"
	"status) printf 'Security:       Unlocked\\nCore 0 status:  Running\\n' ;;\n"
	"*) printf \"Error: unrecognized command '%s'\\n\" \"$1\"; exit 1 ;;\n"
	"esac\n";

struct fixture {
	struct fake_tool tool; /* the stand-ins, named by path */
	char flashtool[128];   /* <bin>/pyocd-flashtool */
	char lonely[128];      /* a pyocd-flashtool without a pyocd-tool */
	char mem[96];	       /* what the stand-in's savemem reads */
	char elf[96];	       /* two segments, one of them .data's LMA */
	char far_elf[96];      /* segments across 64 KiB and far apart */
	char not_elf[96];
	char py_log[128];   /* <run_dir>/pyocd.log */
	char hex[128];	    /* <run_dir>/pyocd-image.hex */
	char readback[128]; /* <run_dir>/pyocd-readback.bin */
};

/* The image of `elf`: .text etc. at 0x08000000, .data's LMA after it. */
static unsigned char text_bytes[36];
static unsigned char data_bytes[8];
/* far_elf: across the 64 KiB boundary at 0x08010000, and in UICR. */
static unsigned char edge_bytes[16];
static const unsigned char uicr_bytes[4] = {0xde, 0xad, 0xbe, 0xef};

/* Written by hand and checked with python3-intelhex (the parser pyOCD uses). */
static const char want_hex[] = ":020000040800F2\n"
			       ":10000000101112131415161718191A1B1C1D1E1F78\n"
			       ":10001000202122232425262728292A2B2C2D2E2F68\n"
			       ":040020003031323316\n"
			       ":08002400A0A1A2A3A4A5A6A7B8\n"
			       ":00000001FF\n";
static const char want_far_hex[] = ":020000040800F2\n"
				   ":08FFF800303132333435363765\n"
				   ":020000040801F1\n"
				   ":0800000038393A3B3C3D3E3F1C\n"
				   ":020000041000EA\n"
				   ":04100000DEADBEEFB4\n"
				   ":00000001FF\n";

/* ---- helpers ---- */

struct seg {
	uint32_t vaddr, paddr;
	const unsigned char *data;
	uint32_t filesz, memsz;
};

/* A 32-bit little-endian ARM executable with these PT_LOAD segments. */
static void write_elf(const char *path, const struct seg *s, size_t n)
{
	unsigned char buf[1024];
	Elf32_Ehdr eh;
	Elf32_Phdr ph;
	size_t off = sizeof(eh) + n * sizeof(ph), i;

	memset(buf, 0, sizeof(buf));
	memset(&eh, 0, sizeof(eh));
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS32;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_type = ET_EXEC;
	eh.e_machine = EM_ARM;
	eh.e_version = EV_CURRENT;
	eh.e_entry = 0x08000009;
	eh.e_phoff = sizeof(eh);
	eh.e_flags = 0x05000200;
	eh.e_ehsize = sizeof(eh);
	eh.e_phentsize = sizeof(ph);
	eh.e_phnum = (Elf32_Half)n;
	memcpy(buf, &eh, sizeof(eh));
	for (i = 0; i < n; i++) {
		memset(&ph, 0, sizeof(ph));
		ph.p_type = PT_LOAD;
		ph.p_offset = (Elf32_Off)off;
		ph.p_vaddr = s[i].vaddr;
		ph.p_paddr = s[i].paddr;
		ph.p_filesz = s[i].filesz;
		ph.p_memsz = s[i].memsz;
		ph.p_flags = PF_R;
		ph.p_align = 4;
		memcpy(buf + sizeof(eh) + i * sizeof(ph), &ph, sizeof(ph));
		assert_true(off + s[i].filesz <= sizeof(buf));
		if (s[i].filesz > 0) {
			memcpy(buf + off, s[i].data, s[i].filesz);
		}
		off += s[i].filesz;
	}
	ut_write_file(path, buf, off, 0644);
}

/* What the stand-in's savemem returns for a read at addr ("0x08000000"). */
static void set_mem(const struct fixture *f, const char *addr,
		    const unsigned char *a, size_t na, const unsigned char *b,
		    size_t nb)
{
	unsigned char buf[64];
	char path[160];

	assert_true(na + nb <= sizeof(buf));
	memcpy(buf, a, na);
	if (nb > 0) {
		memcpy(buf + na, b, nb);
	}
	snprintf(path, sizeof(path), "%s/%s.bin", f->mem, addr);
	ut_write_file(path, buf, na + nb, 0644);
}

/* The flash holding `elf` as it should. */
static void mem_is_image(const struct fixture *f)
{
	set_mem(f, "0x08000000", text_bytes, sizeof(text_bytes), data_bytes,
		sizeof(data_bytes));
}

/* pyocd-flashtool's output, exit status and sleep. */
static void fake_flash(const char *out, const char *exit_code,
		       const char *sleep_s)
{
	fake_tool_env("HIL_FAKE_FLASH_OUT", out);
	fake_tool_env("HIL_FAKE_FLASH_EXIT", exit_code);
	fake_tool_env("HIL_FAKE_FLASH_SLEEP", sleep_s);
}

/* pyocd-tool's output, exit status and sleep. */
static void fake_pyocd_tool(const char *out, const char *exit_code,
			    const char *sleep_s)
{
	fake_tool_env("HIL_FAKE_TOOL_OUT", out);
	fake_tool_env("HIL_FAKE_TOOL_EXIT", exit_code);
	fake_tool_env("HIL_FAKE_TOOL_SLEEP", sleep_s);
}

/* The command lines the stand-ins recorded, then forget them. */
static void expect_commands(const struct fixture *f, const char *want)
{
	char *got = fake_tool_slurp(f->tool.argv_log);

	assert_string_equal(got, want);
	free(got);
	fake_tool_forget(&f->tool);
}

/* The pyocd driver's option target (none for NULL), replacing any. */
static void set_target(struct hil_flasher_params *p, const char *target)
{
	p->n_opts = 0;
	if (target != NULL) {
		assert_int_equal(hil_flasher_params_add(p, "target", target),
				 HIL_OK);
	}
}

static struct hil_flasher *open_py(const struct fixture *f, const char *target,
				   const char *serial, unsigned khz,
				   unsigned timeout_ms)
{
	struct hil_flasher_params p;
	char speed[16];

	fake_tool_params(&f->tool, &p);
	p.program = f->flashtool;
	p.timeout_ms = timeout_ms;
	p.probe_serial = serial;
	set_target(&p, target);
	if (khz != 0) {
		snprintf(speed, sizeof(speed), "%u", khz);
		assert_int_equal(
			hil_flasher_params_add(&p, "adapter_khz", speed),
			HIL_OK);
	}
	return fake_tool_open("pyocd", &p);
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct seg segs[3];
	char path[256];
	size_t i;

	assert_non_null(f);
	for (i = 0; i < sizeof(text_bytes); i++) {
		text_bytes[i] = (unsigned char)(0x10 + i);
	}
	for (i = 0; i < sizeof(data_bytes); i++) {
		data_bytes[i] = (unsigned char)(0xa0 + i);
	}
	for (i = 0; i < sizeof(edge_bytes); i++) {
		edge_bytes[i] = (unsigned char)(0x30 + i);
	}
	fake_tool_setup(&f->tool, "pyocd");
	snprintf(f->mem, sizeof(f->mem), "%s/mem", f->tool.dir);
	assert_int_equal(mkdir(f->mem, 0755), 0);
	snprintf(path, sizeof(path), "%s/lonely", f->tool.dir);
	assert_int_equal(mkdir(path, 0755), 0);
	fake_tool_install(path, "pyocd-flashtool", stand_in, f->lonely,
			  sizeof(f->lonely));
	fake_tool_install(f->tool.bin, "pyocd-flashtool", stand_in,
			  f->flashtool, sizeof(f->flashtool));
	fake_tool_install(f->tool.bin, "pyocd-tool", stand_in, NULL, 0);

	snprintf(f->elf, sizeof(f->elf), "%s/fw.elf", f->tool.dir);
	snprintf(f->far_elf, sizeof(f->far_elf), "%s/far.elf", f->tool.dir);
	snprintf(f->not_elf, sizeof(f->not_elf), "%s/fw.bin", f->tool.dir);
	snprintf(f->py_log, sizeof(f->py_log), "%s/pyocd.log", f->tool.run_dir);
	snprintf(f->hex, sizeof(f->hex), "%s/pyocd-image.hex", f->tool.run_dir);
	snprintf(f->readback, sizeof(f->readback), "%s/pyocd-readback.bin",
		 f->tool.run_dir);
	/* .text in flash; .data runs at 0x20000000 but is stored after it
	 * (LMA != VMA); .bss has no bytes in the file. */
	segs[0] = (struct seg){0x08000000, 0x08000000, text_bytes,
			       sizeof(text_bytes), sizeof(text_bytes)};
	segs[1] = (struct seg){0x20000000, 0x08000024, data_bytes,
			       sizeof(data_bytes), sizeof(data_bytes)};
	segs[2] = (struct seg){0x20000008, 0x20000008, NULL, 0, 0x100};
	write_elf(f->elf, segs, 3);
	segs[0] = (struct seg){0x0800fff8, 0x0800fff8, edge_bytes,
			       sizeof(edge_bytes), sizeof(edge_bytes)};
	segs[1] = (struct seg){0x10001000, 0x10001000, uicr_bytes,
			       sizeof(uicr_bytes), sizeof(uicr_bytes)};
	write_elf(f->far_elf, segs, 2);
	ut_write_file(f->not_elf, "\x00\x10\x00\x20", 4, 0644);

	setenv("HIL_FAKE_MEM", f->mem, 1);
	*state = f;
	return 0;
}

/* Each test starts with silent, successful stand-ins and a good flash. */
static int reset_fake(void **state)
{
	struct fixture *f = *state;

	fake_flash(NULL, NULL, NULL);
	fake_pyocd_tool(NULL, NULL, NULL);
	unsetenv("HIL_FAKE_ID");
	unsetenv("HIL_FAKE_VERSION");
	unsetenv("HIL_FAKE_VERSION_EXIT");
	fake_tool_forget(&f->tool);
	unlink(f->py_log);
	mem_is_image(f);
	return 0;
}

/* ---- the command lines ---- */

static void test_start_checks_chip_programs_hex_and_reads_back(void **state)
{
	struct fixture *f = *state;
	struct hil_flasher *fl = open_py(f, "stm32l475xg", SERIAL, 0, 5000);
	char want[1024];
	char *hex;

	snprintf(want, sizeof(want),
		 "pyocd-tool -b " SERIAL " -t stm32l475xg read32 0xe0042000\n"
		 "pyocd-flashtool -b " SERIAL " -t stm32l475xg -hp %s hex\n"
		 "pyocd-tool -b " SERIAL
		 " -t stm32l475xg savemem 0x08000000 44 %s\n",
		 f->hex, f->readback);
	assert_int_equal(hil_flasher_start(fl, f->elf), HIL_OK);
	expect_commands(f, want);
	/* .data at its load address 0x08000024, not at 0x20000000. */
	hex = fake_tool_slurp(f->hex);
	assert_string_equal(hex, want_hex);
	free(hex);
	/* A real board: the runner opens link.port, nothing is watched. */
	fake_tool_check_real_board(fl);
}

static void test_start_any_probe_with_speed_and_no_known_id(void **state)
{
	struct fixture *f = *state;
	struct hil_flasher *fl = open_py(f, "nrf51", NULL, 1800, 5000);
	char want[1024];

	/* No ID register known for nrf51: straight to programming. */
	snprintf(want, sizeof(want),
		 "pyocd-flashtool -t nrf51 -f 1800000 -hp %s hex\n"
		 "pyocd-tool -t nrf51 -k 1800 savemem 0x08000000 44 %s\n",
		 f->hex, f->readback);
	assert_int_equal(hil_flasher_start(fl, f->elf), HIL_OK);
	expect_commands(f, want);
	hil_flasher_close(fl);
}

static void
test_start_splits_hex_at_64k_and_reads_far_segments_apart(void **state)
{
	struct fixture *f = *state;
	struct hil_flasher *fl = open_py(f, "nrf52840", SERIAL, 0, 5000);
	char want[1024];
	char *hex;

	setenv("HIL_FAKE_ID", "00052840", 1);
	set_mem(f, "0x0800fff8", edge_bytes, sizeof(edge_bytes), NULL, 0);
	set_mem(f, "0x10001000", uicr_bytes, sizeof(uicr_bytes), NULL, 0);
	snprintf(want, sizeof(want),
		 "pyocd-tool -b " SERIAL " -t nrf52840 read32 0x10000100\n"
		 "pyocd-flashtool -b " SERIAL " -t nrf52840 -hp %s hex\n"
		 "pyocd-tool -b " SERIAL
		 " -t nrf52840 savemem 0x0800fff8 16 %s\n"
		 "pyocd-tool -b " SERIAL
		 " -t nrf52840 savemem 0x10001000 4 %s\n",
		 f->hex, f->readback, f->readback);
	assert_int_equal(hil_flasher_start(fl, f->far_elf), HIL_OK);
	expect_commands(f, want);
	hex = fake_tool_slurp(f->hex);
	assert_string_equal(hex, want_far_hex);
	free(hex);
	hil_flasher_close(fl);
}

static void test_reset_and_probe_command_lines(void **state)
{
	struct fixture *f = *state;
	struct hil_flasher *fl = open_py(f, "stm32l475xg", SERIAL, 0, 5000);
	char why[512];

	assert_int_equal(hil_flasher_reset(fl), HIL_OK);
	expect_commands(f, "pyocd-tool -b " SERIAL " -t stm32l475xg reset\n");
	assert_int_equal(hil_flasher_probe(fl, why, sizeof(why)), HIL_OK);
	expect_commands(f, "pyocd-tool -b " SERIAL
			   " -t stm32l475xg read32 0xe0042000\n");
	hil_flasher_close(fl);

	/* Without an ID register to read, the probe asks the core's state. */
	fl = open_py(f, "nrf51", SERIAL, 0, 5000);
	assert_int_equal(hil_flasher_probe(fl, why, sizeof(why)), HIL_OK);
	expect_commands(f, "pyocd-tool -b " SERIAL " -t nrf51 status\n");
	hil_flasher_close(fl);
}

static void test_version_names_the_tool(void **state)
{
	struct fixture *f = *state;
	struct hil_flasher *fl = open_py(f, "stm32l475xg", NULL, 0, 5000);
	char v[128];

	assert_int_equal(hil_flasher_version(fl, v, sizeof(v)), HIL_OK);
	assert_string_equal(v, "pyocd-flashtool 0.13.1");
	expect_commands(f, "pyocd-flashtool --version\n");

	/* Truncated to the buffer, still terminated. */
	assert_int_equal(hil_flasher_version(fl, v, 6), HIL_OK);
	assert_string_equal(v, "pyocd");
	fake_tool_forget(&f->tool);

	setenv("HIL_FAKE_VERSION", "usage: pyocd-flashtool [-h]", 1);
	setenv("HIL_FAKE_VERSION_EXIT", "2", 1);
	assert_int_equal(hil_flasher_version(fl, v, sizeof(v)),
			 HIL_ERR_PROCESS);
	hil_flasher_close(fl);
}

/* ---- what is refused before pyOCD runs ---- */

static void test_open_refuses_what_pyocd_cannot_take(void **state)
{
	static const char *const bad_uids[] = {
		"0669 FF48",
		"-l",
		"0669;reboot",
		"06\n69",
		"0669/FF",
		"0123456789012345678901234567890123456789012345678901234567890123"
		"4",
	};
	static const char *const bad_targets[] = {"", "STM32L475XG",
						  "stm32l4 75", "-l"};
	struct fixture *f = *state;
	struct hil_flasher_params p;
	struct hil_flasher *fl = NULL;
	struct ut_capture c;
	char log[8192];
	size_t i;

	fake_tool_params(&f->tool, &p);
	p.program = f->flashtool;
	set_target(&p, "stm32l475xg");
	ut_capture_begin(&c);
	for (i = 0; i < sizeof(bad_uids) / sizeof(bad_uids[0]); i++) {
		p.probe_serial = bad_uids[i];
		assert_int_equal(hil_flasher_open(&fl, "pyocd", &p),
				 HIL_ERR_CONFIG);
		assert_null(fl);
	}
	p.probe_serial = SERIAL;
	set_target(&p, NULL); /* pyOCD would take a generic Cortex-M */
	assert_int_equal(hil_flasher_open(&fl, "pyocd", &p), HIL_ERR_CONFIG);
	for (i = 0; i < sizeof(bad_targets) / sizeof(bad_targets[0]); i++) {
		set_target(&p, bad_targets[i]);
		assert_int_equal(hil_flasher_open(&fl, "pyocd", &p),
				 HIL_ERR_CONFIG);
		assert_null(fl);
	}
	ut_capture_end(&c, log, sizeof(log));
	assert_non_null(strstr(log, "0669;reboot"));
	assert_non_null(strstr(log, "\"-l\""));
	assert_non_null(strstr(log, "no target type"));
	assert_non_null(strstr(log, "stm32l4 75"));
	fake_tool_assert_not_run(&f->tool); /* nothing ran */

	/* A whole ST-LINK V2-1 ID, a DAPLink ID: taken. */
	set_target(&p, "stm32l475xg");
	p.probe_serial = "066DFF515049657187212646";
	assert_int_equal(hil_flasher_open(&fl, "pyocd", &p), HIL_OK);
	hil_flasher_close(fl);
	p.probe_serial = "0240000032044e4500257009997b00386781000097969900";
	assert_int_equal(hil_flasher_open(&fl, "pyocd", &p), HIL_OK);
	hil_flasher_close(fl);
}

static void test_start_rejects_non_elf_without_running_pyocd(void **state)
{
	struct fixture *f = *state;
	struct hil_flasher *fl = open_py(f, "stm32l475xg", SERIAL, 0, 5000);

	fake_tool_check_rejects_non_elf(&f->tool, fl, f->not_elf);
	hil_flasher_close(fl);
}

static void test_missing_pyocd_is_not_available_with_apt_line(void **state)
{
	struct fixture *f = *state;
	struct hil_flasher_params p;
	struct hil_flasher *fl;
	struct ut_capture c;
	char log[4096];

	fake_tool_params(&f->tool, &p);
	set_target(&p, "stm32l475xg");
	p.probe_serial = SERIAL;
	p.program = "/nonexistent/pyocd-flashtool";
	fl = fake_tool_open("pyocd", &p);
	fake_tool_check_missing_program(fl, f->elf,
					"/nonexistent/pyocd-flashtool",
					"sudo apt-get install python3-pyocd");
	ut_capture_begin(&c);
	assert_int_equal(hil_flasher_reset(fl), HIL_ERR_NA);
	ut_capture_end(&c, log, sizeof(log));
	assert_non_null(strstr(log, "sudo apt-get install python3-pyocd"));
	hil_flasher_close(fl);

	/* pyocd-flashtool alone: pyocd-tool is needed beside it. */
	p.program = f->lonely;
	assert_int_equal(hil_flasher_open(&fl, "pyocd", &p), HIL_OK);
	ut_capture_begin(&c);
	assert_int_equal(hil_flasher_start(fl, f->elf), HIL_ERR_NA);
	ut_capture_end(&c, log, sizeof(log));
	assert_non_null(strstr(log, "lonely/pyocd-tool not found"));
	assert_non_null(strstr(log, "apt-get install python3-pyocd"));
	fake_tool_assert_not_run(&f->tool); /* nothing ran */
	hil_flasher_close(fl);
}

/* ---- bounds ---- */

static void test_start_timeout_kills_a_hanging_flashtool(void **state)
{
	struct fixture *f = *state;
	struct hil_flasher *fl = open_py(f, "stm32l475xg", SERIAL, 0, 300);

	fake_flash("INFO:board:Target type is stm32l475xg", NULL, SLEEP_MARK);
	fake_tool_check_start_hangs(fl, f->elf, "300 ms", SERIAL, SLEEP_MARK);
}

static void test_probe_timeout_is_bounded(void **state)
{
	struct fixture *f = *state;
	struct hil_flasher *fl = open_py(f, "stm32l475xg", NULL, 0, 300);

	fake_pyocd_tool(NULL, NULL, SLEEP_MARK);
	fake_tool_check_probe_hangs(fl, "300 ms", SLEEP_MARK);
}

/* pyocd-tool waits for a missing probe forever: stopped, and said so. */
static void test_tool_waiting_for_its_probe_means_no_probe(void **state)
{
	struct fixture *f = *state;
	struct hil_flasher *fl = open_py(f, "stm32l475xg", SERIAL, 0, 20000);
	struct ut_capture c;
	char log[4096], why[768];

	fake_pyocd_tool("Waiting for a debug probe to be connected...", NULL,
			SLEEP_MARK);
	ut_capture_begin(&c);
	assert_int_equal(hil_flasher_start(fl, f->elf), HIL_ERR_NA);
	assert_int_equal(hil_flasher_reset(fl), HIL_ERR_NA);
	ut_capture_end(&c, log, sizeof(log));
	assert_int_equal(hil_flasher_probe(fl, why, sizeof(why)), HIL_ERR_NA);
	assert_int_equal(ut_count_procs("sleep", SLEEP_MARK), 0);
	assert_non_null(strstr(log, "no probe found"));
	assert_non_null(strstr(log, "unique ID " SERIAL));
	assert_non_null(strstr(log, "waiting for the probe and was stopped"));
	assert_null(strstr(log, "bound ran out")); /* not a timeout */
	assert_non_null(strstr(why, "unique ID " SERIAL));
	hil_flasher_close(fl);
}

/* ---- pyOCD 0.13.1's errors, translated ---- */

struct known_error {
	const char *target;
	const char *serial;
	int tool; /* 0: pyocd-flashtool fails, 1: pyocd-tool does */
	const char *output;
	const char *exit_code;
	int code;
	const char *says[3]; /* the message must contain these */
};

static const struct known_error known[] = {
	/* Measured: no probe with this unique ID. */
	{"nrf51",
	 SERIAL,
	 0,
	 "A debug probe matching unique ID '" SERIAL
	 "' is not connected, or no connected probe matches\n"
	 "Error: There is no debug probe connected.",
	 "1",
	 HIL_ERR_NA,
	 {"no probe found", "unique ID " SERIAL, "udev"}},
	/* Measured: no probe at all, no -b. */
	{"nrf51",
	 NULL,
	 0,
	 "No connected debug probes\n"
	 "Error: There is no debug probe connected.",
	 "1",
	 HIL_ERR_NA,
	 {"no probe found", "sees no debug probe", "any probe"}},
	/* Measured: argparse refuses a target Debian's 0.13.1 lacks. */
	{"stm32f401xe",
	 SERIAL,
	 0,
	 "usage: pyocd-flashtool [-h] [--version] [--config PATH] [-b BOARD_ID] [-l]\n"
	 "                       [file] [{bin,hex,elf}]\n"
	 "pyocd-flashtool: error: argument -t/--target: invalid choice: "
	 "'stm32f401xe' (choose from 'kinetis', 'ke15z7', 'stm32l475xg')",
	 "2",
	 HIL_ERR_CONFIG,
	 {"does not know the target type 'stm32f401xe'",
	  "openocd flasher for a NUCLEO-F401RE", "exit status 2"}},
	/* Source (core/helpers.py): a part of an ID that two probes share. */
	{"nrf51",
	 "0669",
	 0,
	 "More than one debug probe matches unique ID '0669':\n"
	 "STM32 STLink | 0669FF485457725187092515\n"
	 "STM32 STLink | 0669FF515049657187212646\n"
	 "Error: There is no debug probe connected.",
	 "1",
	 HIL_ERR_CONFIG,
	 {"matches several probes", "whole unique ID", "0669"}},
	/* Source: several probes, no -b, and stdin is /dev/null. */
	{"nrf51",
	 NULL,
	 0,
	 "## => Board Name | Unique ID\n"
	 "-- -- ----------------------\n"
	 " 0 => STM32 STLink | 0669FF485457725187092515\n"
	 " 1 => STM32 STLink | 0669FF515049657187212646\n"
	 " q => Quit\n"
	 "Enter the number of the debug probe to connect:\n"
	 "> Traceback (most recent call last):\n"
	 "EOFError: EOF when reading a line",
	 "1",
	 HIL_ERR_CONFIG,
	 {"several probes are connected", "probe_serial", NULL}},
	/* Source (probe/stlink): the probe is there, the chip does not answer. */
	{"nrf51",
	 SERIAL,
	 0,
	 "Traceback (most recent call last):\n"
	 "pyocd.probe.stlink.STLinkException: STLink error (9): Get IDCODE error\n"
	 "\n"
	 "The above exception was the direct cause of the following exception:\n"
	 "\n"
	 "Traceback (most recent call last):\n"
	 "pyocd.core.exceptions.ProbeError: STLink error (9): Get IDCODE error",
	 "1",
	 HIL_ERR_NA,
	 {"cannot reach the target", "Get IDCODE error", "powered"}},
	/* pyusb: another program holds the probe. */
	{"nrf51",
	 SERIAL,
	 0,
	 "Traceback (most recent call last):\n"
	 "usb.core.USBError: [Errno 16] Resource busy",
	 "1",
	 HIL_ERR_NA,
	 {"the probe is busy", "Resource busy", NULL}},
	/* Source (flash/flash.py): logged, not raised; exit status 0. */
	{"nrf51",
	 SERIAL,
	 0,
	 "INFO:board:Target type is nrf51\n"
	 "ERROR:root:program_page(0x8000000) error: 1\n"
	 "INFO:root:Programmed 44 bytes (1 pages) at 1.20 kB/s",
	 "0",
	 HIL_ERR_PROCESS,
	 {"programming failed", "program_page(0x8000000) error: 1",
	  "exit status 0"}},
	/* Source (tools/flash_tool.py): exits 0 without intelhex. */
	{"nrf51",
	 SERIAL,
	 0,
	 "Unable to program hex file\n"
	 "Module 'intelhex' must be installed first",
	 "0",
	 HIL_ERR_NA,
	 {"sudo apt-get install python3-intelhex", NULL, NULL}},
	/* Source (flash/flash_builder.py): bytes beyond the flash. */
	{"nrf51",
	 SERIAL,
	 0,
	 "Traceback (most recent call last):\n"
	 "pyocd.flash.flash_builder.FlashFailure: Attempt to program flash "
	 "at invalid address 0x20000000",
	 "1",
	 HIL_ERR_PROCESS,
	 {"outside the target's flash", "0x20000000", NULL}},
	/* Anything else: the last line. */
	{"nrf51",
	 SERIAL,
	 0,
	 "Traceback (most recent call last):\n"
	 "pyocd.core.exceptions.TransferFaultError: SWD/JTAG Transfer Fault "
	 "@ 0x20020000-0x20020fff\n",
	 "1",
	 HIL_ERR_PROCESS,
	 {"\"pyocd.core.exceptions.TransferFaultError: SWD/JTAG Transfer Fault @ 0x20020000-0x20020fff\"",
	  "pyocd-flashtool exit status 1", NULL}},
	/* Source (board/board.py): pyocd-tool does not check -t itself. */
	{"stm32l475xg",
	 SERIAL,
	 1,
	 "ERROR:board:target 'stm32l475xg' not recognized\n"
	 "Traceback (most recent call last):\n"
	 "KeyError: \"target 'stm32l475xg' not recognized\"",
	 "1",
	 HIL_ERR_CONFIG,
	 {"does not know the target type 'stm32l475xg'",
	  "pyocd-tool exit status 1", NULL}},
};

static void test_start_translates_each_known_error(void **state)
{
	struct fixture *f = *state;
	size_t i, k;

	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		const struct known_error *e = &known[i];
		struct hil_flasher *fl =
			open_py(f, e->target, e->serial, 0, 5000);
		struct ut_capture c;
		char log[4096], probe[64];
		int ret;

		reset_fake(state);
		if (e->tool) {
			fake_pyocd_tool(e->output, e->exit_code, NULL);
		} else {
			fake_flash(e->output, e->exit_code, NULL);
		}
		ut_capture_begin(&c);
		ret = hil_flasher_start(fl, f->elf);
		ut_capture_end(&c, log, sizeof(log));
		print_message("case %zu: %d\n", i, ret);
		assert_int_equal(ret, e->code);
		for (k = 0; k < 3; k++) {
			if (e->says[k] != NULL) {
				assert_non_null(strstr(log, e->says[k]));
			}
		}
		/* One line, naming the image, the probe and the log. */
		snprintf(probe, sizeof(probe), "probe %s", e->serial);
		assert_non_null(strstr(log, f->elf));
		assert_non_null(
			strstr(log, e->serial != NULL ? probe : "any probe"));
		assert_non_null(strstr(log, f->py_log));
		assert_non_null(strchr(log, '\n'));
		assert_string_equal(strchr(log, '\n'), "\n");
		hil_flasher_close(fl);
	}
}

static void test_wrong_chip_is_refused_before_programming(void **state)
{
	struct fixture *f = *state;
	struct hil_flasher *fl = open_py(f, "stm32f412xe", SERIAL, 0, 5000);
	struct ut_capture c;
	char log[2048], why[512];

	/* An F401RE (DEV_ID 0x433) behind a probe set up for an F412. */
	setenv("HIL_FAKE_ID", "10006433", 1);
	ut_capture_begin(&c);
	assert_int_equal(hil_flasher_start(fl, f->elf), HIL_ERR_MISMATCH);
	ut_capture_end(&c, log, sizeof(log));
	assert_non_null(strstr(log, "wrong target"));
	assert_non_null(strstr(log, "0x433 (STM32F401xD/E)"));
	assert_non_null(strstr(log, "stm32f412xe is 0x441"));
	/* Nothing was written. */
	expect_commands(f, "pyocd-tool -b " SERIAL
			   " -t stm32f412xe read32 0xe0042000\n");
	assert_int_equal(hil_flasher_probe(fl, why, sizeof(why)),
			 HIL_ERR_MISMATCH);
	assert_non_null(strstr(why, "0x433"));
	/* The revision bits above DEV_ID do not matter. */
	setenv("HIL_FAKE_ID", "20016441", 1);
	assert_int_equal(hil_flasher_probe(fl, why, sizeof(why)), HIL_OK);
	hil_flasher_close(fl);
}

static void test_flash_that_differs_fails_verification(void **state)
{
	struct fixture *f = *state;
	struct hil_flasher *fl = open_py(f, "stm32l475xg", SERIAL, 0, 5000);
	unsigned char bad[sizeof(data_bytes)];
	struct ut_capture c;
	char log[2048];

	/* The last byte of .data's initial values did not stick. */
	memcpy(bad, data_bytes, sizeof(bad));
	bad[7] ^= 0xff;
	set_mem(f, "0x08000000", text_bytes, sizeof(text_bytes), bad,
		sizeof(bad));
	ut_capture_begin(&c);
	assert_int_equal(hil_flasher_start(fl, f->elf), HIL_ERR_VERIFY);
	ut_capture_end(&c, log, sizeof(log));
	assert_non_null(strstr(log, "verify failed"));
	assert_non_null(strstr(log, "0x0800002b: read 0x58, image 0xa7"));
	assert_non_null(strstr(log, SERIAL));

	/* savemem that saved nothing is no verification either. */
	mem_is_image(f);
	unlink(f->readback);
	{
		char path[160];

		snprintf(path, sizeof(path), "%s/0x08000000.bin", f->mem);
		unlink(path);
	}
	ut_capture_begin(&c);
	assert_int_equal(hil_flasher_start(fl, f->elf), HIL_ERR_PROCESS);
	ut_capture_end(&c, log, sizeof(log));
	assert_non_null(strstr(log, "did not save the 44 bytes at 0x08000000"));
	hil_flasher_close(fl);
}

/* ---- the log ---- */

static void test_log_keeps_commands_and_only_new_output_counts(void **state)
{
	struct fixture *f = *state;
	struct hil_flasher *fl = open_py(f, "nrf51", SERIAL, 0, 5000);
	char *text;

	fake_flash("No connected debug probes\n"
		   "Error: There is no debug probe connected.",
		   "1", NULL);
	fake_tool_check_start_fails(fl, f->elf, HIL_ERR_NA, NULL, NULL);

	fake_flash("INFO:root:Programmed 44 bytes (1 pages) at 1.20 kB/s", "0",
		   NULL);
	assert_int_equal(hil_flasher_start(fl, f->elf), HIL_OK);

	/* The earlier "no probe" is still in the log: it must not count. */
	fake_flash("pyocd.core.exceptions.TransferError", "1", NULL);
	fake_tool_check_start_fails(fl, f->elf, HIL_ERR_PROCESS,
				    "TransferError", "no probe found");

	text = fake_tool_slurp(f->py_log);
	assert_non_null(strstr(text, "$ "));
	assert_non_null(
		strstr(text, "/pyocd-flashtool -b " SERIAL " -t nrf51 -hp "));
	assert_non_null(strstr(text, "/pyocd-tool -b " SERIAL
				     " -t nrf51 savemem 0x08000000 44 "));
	assert_non_null(strstr(text, "No connected debug probes\n"));
	assert_non_null(strstr(text, "Saved 44 bytes to "));
	free(text);
	hil_flasher_close(fl);
}

/* ---- the jail ---- */

/*
 * A stand-in for both tools that works without the environment (a jail's
 * is clean) and also tries to write where a jailed pyOCD may not: beside
 * itself, into the test's scratch folder and the run folder, and into the
 * HEX it programs. read32 gives stm32l475xg's ID, savemem writes the
 * bytes of `elf` to its file. It goes into <dir>/jailbin, put first on
 * PATH (programs found there are what the flasher runs by default).
 */
static void install_jailbreaker(const struct fixture *f, char *bin, size_t len)
{
	char script[4096], bytes[256];
	size_t i, o = 0;

	snprintf(bin, len, "%s/jailbin", f->tool.dir);
	assert_int_equal(mkdir(bin, 0755), 0);
	for (i = 0; i < sizeof(text_bytes); i++) {
		o += (size_t)snprintf(bytes + o, sizeof(bytes) - o, "\\%03o",
				      text_bytes[i]);
	}
	for (i = 0; i < sizeof(data_bytes); i++) {
		o += (size_t)snprintf(bytes + o, sizeof(bytes) - o, "\\%03o",
				      data_bytes[i]);
	}
	snprintf(
		script, sizeof(script),
		"#!/bin/sh\n"
		"me=${0##*/}\n"
		"touch \"${0%%/*}/escaped-$me\" \"%s/escaped-$me\" \"%s/escaped-$me\" 2>/dev/null\n"
		"if [ \"$1\" = --version ]; then echo 0.13.1; exit 0; fi\n"
		"echo \"stand-in $me ran\"\n"
		"while [ $# -gt 0 ]; do\n"
		"  case \"$1\" in -b|-t|-k|-f) shift 2 ;; -hp) shift ;; *) break ;; esac\n"
		"done\n"
		"if [ \"$me\" = pyocd-flashtool ]; then\n"
		"  head -c 1 \"$1\" > /dev/null || exit 1\n"
		"  printf 'tampered\\n' >> \"$1\" 2>/dev/null\n"
		"  exit 0\n"
		"fi\n"
		"case \"$1\" in\n"
		"read32) printf '%%s:  10076415 \\n' \"${2#0x}\" ;;\n"
		"savemem) printf '%s' > \"$4\" || exit 1\n"
		"  printf 'Saved %%s bytes to %%s\\n' \"$3\" \"$4\" ;;\n"
		"*) exit 1 ;;\n"
		"esac\n",
		f->tool.dir, f->tool.run_dir, bytes);
	fake_tool_install(bin, "pyocd-flashtool", script, NULL, 0);
	fake_tool_install(bin, "pyocd-tool", script, NULL, 0);
}

/* How many escaped-* files are in dir. */
static int count_escaped(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)) != NULL) {
		n += strncmp(e->d_name, "escaped-", 8) == 0;
	}
	closedir(d);
	return n;
}

/* Start (flash elf, read it back), probe and version with the stand-ins
 * of bin found on PATH, jailed or not; @return the escaped-* files made. */
static int flash_and_probe(const struct fixture *f, const char *bin, int jail)
{
	struct hil_flasher_params p;
	struct hil_flasher *fl;
	char why[768];
	char *log;
	int n;

	fake_tool_params(&f->tool, &p);
	p.timeout_ms = 30000; /* only a hang reaches it */
	p.probe_serial = SERIAL;
	set_target(&p, "stm32l475xg");
	p.jail = jail;
	fl = fake_tool_open("pyocd", &p);
	assert_int_equal(hil_flasher_start(fl, f->elf), HIL_OK);
	assert_int_equal(hil_flasher_probe(fl, why, sizeof(why)), HIL_OK);
	/* The version a run records: asked as jailed as the flashing. */
	assert_int_equal(hil_flasher_version(fl, why, sizeof(why)), HIL_OK);
	assert_string_equal(why, "pyocd-flashtool 0.13.1");
	hil_flasher_close(fl);
	/* The stand-ins ran (jailed: the log is a descriptor of ours). */
	log = fake_tool_slurp(f->py_log);
	assert_non_null(strstr(log, "stand-in pyocd-tool ran"));
	assert_non_null(strstr(log, "stand-in pyocd-flashtool ran"));
	free(log);
	n = count_escaped(bin) + count_escaped(f->tool.dir) +
	    count_escaped(f->tool.run_dir);
	return n;
}

/*
 * pyOCD runs jailed as OpenOCD does: it reads the HEX, writes the read-back
 * file, and nothing else: its writes beside itself, into the scratch and
 * run folders and into the HEX come to nothing, and so do those of its
 * --version (asked to record the tool). Unjailed, the same
 * stand-ins' writes all land (the test can tell).
 */
static void test_jailed_pyocd_writes_only_its_read_back(void **state)
{
	struct fixture *f = *state;
	char bin[128], why[512], path[512];
	const char *old = getenv("PATH");
	char *saved, *hex;

	assert_int_equal(hil_jail_probe(why, sizeof(why)), HIL_OK);
	install_jailbreaker(f, bin, sizeof(bin));
	saved = strdup(old != NULL ? old : "/usr/bin:/bin");
	assert_non_null(saved);
	snprintf(path, sizeof(path), "%s:%s", bin, saved);
	setenv("PATH", path, 1);

	assert_int_equal(flash_and_probe(f, bin, 1), 0);
	hex = fake_tool_slurp(f->hex);
	assert_string_equal(hex, want_hex); /* read-only in the jail */
	free(hex);

	/* bin, scratch and run folder: one file per tool in each. */
	assert_int_equal(flash_and_probe(f, bin, 0), 6);
	hex = fake_tool_slurp(f->hex);
	assert_non_null(strstr(hex, "tampered"));
	free(hex);

	setenv("PATH", saved, 1);
	free(saved);
	assert_int_equal(ut_rm_tree(bin), 0);
	snprintf(path, sizeof(path), "%s/escaped-pyocd-tool", f->tool.dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/escaped-pyocd-flashtool", f->tool.dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/escaped-pyocd-tool", f->tool.run_dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/escaped-pyocd-flashtool",
		 f->tool.run_dir);
	unlink(path);
}

/* ---- Debian's real pyOCD 0.13.1, without a probe ---- */

static int have_real_pyocd(void)
{
	return access(REAL_FLASHTOOL, X_OK) == 0;
}

static struct hil_flasher *open_real(const struct fixture *f,
				     const char *target)
{
	struct hil_flasher_params p;
	struct hil_flasher *fl = NULL;

	fake_tool_params(&f->tool, &p);
	p.program = REAL_FLASHTOOL;
	p.timeout_ms = 20000;
	p.probe_serial = SERIAL;
	set_target(&p, target);
	assert_int_equal(hil_flasher_open(&fl, "pyocd", &p), HIL_OK);
	return fl;
}

static void test_real_pyocd_version(void **state)
{
	struct fixture *f = *state;
	struct hil_flasher *fl;
	char v[128];

	if (!have_real_pyocd()) {
		skip();
	}
	fl = open_real(f, "stm32l475xg");
	assert_int_equal(hil_flasher_version(fl, v, sizeof(v)), HIL_OK);
	print_message("real: %s\n", v);
	assert_non_null(strstr(v, "pyocd-flashtool 0."));
	hil_flasher_close(fl);
}

/* No board is attached to a build machine: each path says so. */
static void test_real_pyocd_without_a_probe(void **state)
{
	struct fixture *f = *state;
	struct hil_flasher *fl;
	struct ut_capture c;
	char log[4096], why[768];

	if (!have_real_pyocd()) {
		skip();
	}
	/* pyocd-flashtool first (no ID register known for nrf51). */
	fl = open_real(f, "nrf51");
	ut_capture_begin(&c);
	assert_int_equal(hil_flasher_start(fl, f->elf), HIL_ERR_NA);
	ut_capture_end(&c, log, sizeof(log));
	assert_non_null(strstr(log, "no probe found"));
	assert_non_null(strstr(log, "unique ID " SERIAL));
	assert_non_null(strstr(log, "pyocd-flashtool exit status 1"));
	hil_flasher_close(fl);

	/* pyocd-tool first: it waits, and is stopped. */
	fl = open_real(f, "stm32l475xg");
	ut_capture_begin(&c);
	assert_int_equal(hil_flasher_start(fl, f->elf), HIL_ERR_NA);
	assert_int_equal(hil_flasher_reset(fl), HIL_ERR_NA);
	ut_capture_end(&c, log, sizeof(log));
	assert_non_null(strstr(log, "unique ID " SERIAL));
	assert_non_null(strstr(log, "was waiting for the probe"));
	assert_int_equal(hil_flasher_probe(fl, why, sizeof(why)), HIL_ERR_NA);
	assert_non_null(strstr(why, "no probe found"));
	hil_flasher_close(fl);
	assert_int_equal(ut_count_procs("pyocd-tool", SERIAL), 0);

	/* The project's own chip: Debian's 0.13.1 does not know it. */
	fl = open_real(f, "stm32f401xe");
	ut_capture_begin(&c);
	assert_int_equal(hil_flasher_start(fl, f->elf), HIL_ERR_CONFIG);
	ut_capture_end(&c, log, sizeof(log));
	assert_non_null(strstr(log, "does not know the target type "
				    "'stm32f401xe'"));
	assert_non_null(strstr(log, "exit status 2"));
	hil_flasher_close(fl);
}

/* Jailed, Debian's pyOCD runs as well (Python and pyusb in /usr, /sys for
 * libusb) and says the same: no probe. */
static void test_real_pyocd_runs_in_the_jail(void **state)
{
	struct fixture *f = *state;
	struct hil_flasher_params p;
	struct hil_flasher *fl = NULL;
	struct ut_capture c;
	char log[4096], why[512];

	if (!have_real_pyocd()) {
		skip();
	}
	assert_int_equal(hil_jail_probe(why, sizeof(why)), HIL_OK);
	fake_tool_params(&f->tool, &p);
	p.program = REAL_FLASHTOOL;
	p.timeout_ms = 20000;
	p.probe_serial = SERIAL;
	set_target(&p, "nrf51");
	p.jail = 1;
	assert_int_equal(hil_flasher_open(&fl, "pyocd", &p), HIL_OK);
	ut_capture_begin(&c);
	assert_int_equal(hil_flasher_start(fl, f->elf), HIL_ERR_NA);
	ut_capture_end(&c, log, sizeof(log));
	assert_non_null(strstr(log, "no probe found"));
	assert_non_null(strstr(log, "pyocd-flashtool exit status 1"));
	hil_flasher_close(fl);
}

/* The HEX we write, read by python3-intelhex, the module pyOCD uses. */
static void test_real_intelhex_reads_our_hex(void **state)
{
	struct fixture *f = *state;
	struct hil_flasher *fl;
	char script[512], out[1024];
	int status = -1;
	char *argv[] = {REAL_PYTHON, "-c", script, NULL};

	if (access(REAL_PYTHON, X_OK) != 0) {
		skip();
	}
	snprintf(
		script, sizeof(script),
		"from intelhex import IntelHex\n"
		"ih = IntelHex('%s')\n"
		"for s, e in ih.segments():\n"
		"    print('%%08x %%s' %% (s, ih.tobinstr(start=s, end=e - 1).hex()))\n",
		f->hex);
	fl = open_py(f, "nrf51", SERIAL, 0, 5000);
	assert_int_equal(hil_flasher_start(fl, f->elf), HIL_OK);
	hil_flasher_close(fl);
	assert_int_equal(
		hil_proc_capture(argv, out, sizeof(out), 20000, &status),
		HIL_OK);
	if (status != 0 && strstr(out, "No module named") != NULL) {
		skip(); /* python3-intelhex is not installed */
	}
	assert_int_equal(status, 0);
	/* One run of 44 bytes: .text, then .data's initial values. */
	assert_string_equal(out, "08000000 101112131415161718191a1b1c1d1e1f"
				 "202122232425262728292a2b2c2d2e2f30313233"
				 "a0a1a2a3a4a5a6a7\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(
			test_start_checks_chip_programs_hex_and_reads_back,
			reset_fake),
		cmocka_unit_test_setup(
			test_start_any_probe_with_speed_and_no_known_id,
			reset_fake),
		cmocka_unit_test_setup(
			test_start_splits_hex_at_64k_and_reads_far_segments_apart,
			reset_fake),
		cmocka_unit_test_setup(test_reset_and_probe_command_lines,
				       reset_fake),
		cmocka_unit_test_setup(test_version_names_the_tool, reset_fake),
		cmocka_unit_test_setup(test_open_refuses_what_pyocd_cannot_take,
				       reset_fake),
		cmocka_unit_test_setup(
			test_start_rejects_non_elf_without_running_pyocd,
			reset_fake),
		cmocka_unit_test_setup(
			test_missing_pyocd_is_not_available_with_apt_line,
			reset_fake),
		cmocka_unit_test_setup(
			test_start_timeout_kills_a_hanging_flashtool,
			reset_fake),
		cmocka_unit_test_setup(test_probe_timeout_is_bounded,
				       reset_fake),
		cmocka_unit_test_setup(
			test_tool_waiting_for_its_probe_means_no_probe,
			reset_fake),
		cmocka_unit_test_setup(test_start_translates_each_known_error,
				       reset_fake),
		cmocka_unit_test_setup(
			test_wrong_chip_is_refused_before_programming,
			reset_fake),
		cmocka_unit_test_setup(
			test_flash_that_differs_fails_verification, reset_fake),
		cmocka_unit_test_setup(
			test_log_keeps_commands_and_only_new_output_counts,
			reset_fake),
		cmocka_unit_test_setup(
			test_jailed_pyocd_writes_only_its_read_back,
			reset_fake),
		cmocka_unit_test_setup(test_real_pyocd_version, reset_fake),
		cmocka_unit_test_setup(test_real_pyocd_without_a_probe,
				       reset_fake),
		cmocka_unit_test_setup(test_real_pyocd_runs_in_the_jail,
				       reset_fake),
		cmocka_unit_test_setup(test_real_intelhex_reads_our_hex,
				       reset_fake),
	};

	return cmocka_run_group_tests(tests, setup, fake_tool_teardown_fixture);
}
