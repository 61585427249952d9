/* test_qemu_flasher: the QEMU flasher with the real qemu-system-arm and tiny ELFs built at test time; no emulator may survive a test. */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "drivers/flasher/flasher.h"
#include "util/err.h"
#include "util/jail.h"
#include "drivers/link/link.h"
#include "unit_util.h"

/* ---- helpers ---- */

static int have_cross_compiler(void)
{
	return system("command -v arm-none-eabi-gcc >/dev/null 2>&1") == 0;
}

struct fixture {
	char dir[64];
	char run_dir[96];
	char src[96];
	char fw[96]; /* prints "hi\n" on USART2, then loops */
	char sh_src[96];
	char sh_fw[96];	      /* semihosting: "hi\n" on ":tt", then echoes */
	char crash[96];	      /* nothing in flash: the CPU locks up */
	char header_only[96]; /* an ARM ELF header and nothing else */
	char not_elf[96];
	char fake_qemu[96]; /* a "QEMU" that fails at once */
	int have_fw;
};

/* The 5-line firmware: vector table, USART2 on (UE, TE, RE), "hi\n", loop. */
static const char fw_source[] =
	"#define R(a) (*(volatile unsigned *)(a))\n"
	"void reset(void) { const char *s = \"hi\\n\"; R(0x4000440c) = (1u << 13) | (1u << 3) | (1u << 2);\n"
	"  for (; *s; s++) { while (!(R(0x40004400) & (1u << 7))) {} R(0x40004404) = (unsigned char)*s; }\n"
	"  for (;;) {} }\n"
	"__attribute__((section(\".vectors\"), used)) void *const vec[2] = { (void *)0x20001000, (void *)reset };\n";

/*
 * The semihosting firmware: ":tt" opened for reading (mode 0) and writing
 * (mode 4), "hi\n" written, then every SYS_READ's bytes written back.
 */
static const char sh_source[] =
	"static int sh(int op, void *a) { register int r0 __asm(\"r0\") = op; register void *r1 __asm(\"r1\") = a;\n"
	"  __asm volatile(\"bkpt 0xab\" : \"+r\"(r0) : \"r\"(r1) : \"memory\"); return r0; }\n"
	"void reset(void) { static const char tt[] = \":tt\", hi[] = \"hi\\n\"; unsigned a[3]; int in, out; char buf[64];\n"
	"  a[0] = (unsigned)tt; a[1] = 0; a[2] = 3; in = sh(1, a); a[1] = 4; out = sh(1, a);\n"
	"  a[0] = out; a[1] = (unsigned)hi; a[2] = 3; sh(5, a);\n"
	"  for (;;) { int got; a[0] = in; a[1] = (unsigned)buf; a[2] = 64; got = 64 - sh(6, a);\n"
	"    if (got > 0 && got <= 64) { a[0] = out; a[1] = (unsigned)buf; a[2] = got; sh(5, a); } } }\n"
	"__attribute__((section(\".vectors\"), used)) void *const vec[2] = { (void *)0x20001000, (void *)reset };\n";

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
		1,
		0,
		0,
		0,
	};
	static const char fake[] =
		"#!/bin/sh\n"
		"echo \"qemu-system-arm: -kernel $4: fake failure for the test\" >&2\n"
		"exit 1\n";
	struct fixture *f = calloc(1, sizeof(*f));
	char cmd[1024];

	assert_non_null(f);
	snprintf(f->dir, sizeof(f->dir), "/tmp/hiltest-qemu-XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->run_dir, sizeof(f->run_dir), "%s/run", f->dir);
	assert_int_equal(mkdir(f->run_dir, 0755), 0);
	snprintf(f->src, sizeof(f->src), "%s/fw.c", f->dir);
	snprintf(f->fw, sizeof(f->fw), "%s/fw.elf", f->dir);
	snprintf(f->sh_src, sizeof(f->sh_src), "%s/sh.c", f->dir);
	snprintf(f->sh_fw, sizeof(f->sh_fw), "%s/sh.elf", f->dir);
	snprintf(f->crash, sizeof(f->crash), "%s/crash.elf", f->dir);
	snprintf(f->header_only, sizeof(f->header_only), "%s/header.elf",
		 f->dir);
	snprintf(f->not_elf, sizeof(f->not_elf), "%s/not_elf.bin", f->dir);
	snprintf(f->fake_qemu, sizeof(f->fake_qemu), "%s/fake-qemu", f->dir);
	ut_write_file(f->src, fw_source, strlen(fw_source), 0644);
	ut_write_file(f->sh_src, sh_source, strlen(sh_source), 0644);
	ut_write_file(f->header_only, arm_header, sizeof(arm_header), 0644);
	ut_write_file(f->not_elf, "notelf\n", 7, 0644);
	ut_write_file(f->fake_qemu, fake, strlen(fake), 0755);

	f->have_fw = have_cross_compiler();
	if (f->have_fw) {
		snprintf(
			cmd, sizeof(cmd),
			"arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -Os -nostdlib -Wl,-e,reset "
			"-Wl,--section-start=.vectors=0x08000000 -Wl,-Ttext=0x08000400 -o %s %s",
			f->fw, f->src);
		assert_int_equal(system(cmd), 0);
		/* the same code linked into RAM: the vector table in flash is empty */
		snprintf(
			cmd, sizeof(cmd),
			"arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -Os -nostdlib -Wl,-e,reset "
			"-Wl,--section-start=.vectors=0x20000000 -Wl,-Ttext=0x20000400 -o %s %s",
			f->crash, f->src);
		assert_int_equal(system(cmd), 0);
		snprintf(
			cmd, sizeof(cmd),
			"arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -Os -nostdlib -Wl,-e,reset "
			"-Wl,--section-start=.vectors=0x08000000 -Wl,-Ttext=0x08000400 -o %s %s",
			f->sh_fw, f->sh_src);
		assert_int_equal(system(cmd), 0);
	}
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(ut_rm_tree(f->dir), 0);
	free(f);
	return 0;
}

static struct hil_flasher *open_qemu_on(const char *run_dir,
					const char *program, const char *link)
{
	struct hil_flasher_params p = {.program = program,
				       .run_dir = run_dir,
				       .timeout_ms = 5000,
				       .link = link};
	struct hil_flasher *fl = NULL;

	assert_int_equal(hil_flasher_open(&fl, "qemu", &p), HIL_OK);
	assert_string_equal(hil_flasher_type(fl), "qemu");
	return fl;
}

static struct hil_flasher *open_qemu(const char *run_dir, const char *program)
{
	return open_qemu_on(run_dir, program, NULL);
}

/* Connect to the started QEMU and expect the firmware's "hi\n". */
static void expect_hello(struct hil_flasher *fl)
{
	struct hil_link *l;
	uint8_t buf[8];
	size_t got = 0;

	assert_int_equal(
		hil_link_socket_open(&l, hil_flasher_link_where(fl), 2000),
		HIL_OK);
	while (got < 3) {
		int r = hil_link_read(l, buf + got, sizeof(buf) - got, 3000);

		assert_true(r > 0);
		got += (size_t)r;
	}
	assert_memory_equal(buf, "hi\n", 3);
	assert_int_equal(hil_flasher_check(fl), HIL_OK);
	hil_link_close(l);
}

/* ---- tests ---- */

static void test_flasher_rejects_unknown_type_and_missing_run_dir(void **state)
{
	struct fixture *f = *state;
	struct hil_flasher_params p = {.run_dir = f->run_dir};
	struct hil_flasher *fl;
	struct ut_capture c;
	char log[2048];

	ut_capture_begin(&c);
	assert_int_equal(hil_flasher_open(&fl, "jtag-magic", &p), HIL_ERR_ARG);
	p.run_dir = "/nonexistent/run";
	assert_int_equal(hil_flasher_open(&fl, "qemu", &p), HIL_ERR_IO);
	p.run_dir = f->not_elf;
	assert_int_equal(hil_flasher_open(&fl, "qemu", &p), HIL_ERR_ARG);
	ut_capture_end(&c, log, sizeof(log));
	assert_non_null(strstr(log, "jtag-magic"));
	assert_non_null(strstr(log, "/nonexistent/run"));
	assert_non_null(strstr(log, "not a directory"));
}

static void test_qemu_missing_binary_is_a_clear_error(void **state)
{
	struct fixture *f = *state;
	struct hil_flasher *fl = open_qemu(f->run_dir, "hilrun-no-such-qemu");
	struct ut_capture c;
	char log[2048], ver[128];

	ut_capture_begin(&c);
	assert_int_equal(hil_flasher_start(fl, f->header_only), HIL_ERR_NA);
	assert_int_equal(hil_flasher_version(fl, ver, sizeof(ver)), HIL_ERR_NA);
	ut_capture_end(&c, log, sizeof(log));
	assert_non_null(strstr(log, "hilrun-no-such-qemu"));
	assert_non_null(strstr(log, strerror(ENOENT)));
	assert_int_equal(hil_flasher_check(fl), HIL_ERR_NA);
	hil_flasher_close(fl);
}

/* The qemu flasher's version op with a stand-in QEMU that writes a file
 * beside itself on --version, jailed or not: @return 1 if it did. */
static int version_writes(const struct fixture *f, int jail)
{
	static const char stand_in[] =
		"#!/bin/sh\n"
		"touch \"${0%/*}/wrote-version\" 2>/dev/null\n"
		"echo 'QEMU emulator version 7.2.0 (stand-in)'\n";
	struct hil_flasher_params p;
	struct hil_flasher *fl = NULL;
	char prog[128], bin[128], marker[160], ver[128];
	int wrote;

	snprintf(bin, sizeof(bin), "%s/verbin", f->dir);
	mkdir(bin, 0755);
	snprintf(prog, sizeof(prog), "%s/qemu-system-arm", bin);
	ut_write_file(prog, stand_in, strlen(stand_in), 0755);
	memset(&p, 0, sizeof(p));
	p.program = prog;
	p.run_dir = f->run_dir;
	p.jail = jail;
	assert_int_equal(hil_flasher_open(&fl, "qemu", &p), HIL_OK);
	assert_int_equal(hil_flasher_version(fl, ver, sizeof(ver)), HIL_OK);
	hil_flasher_close(fl);
	assert_string_equal(ver, "QEMU emulator version 7.2.0 (stand-in)");
	snprintf(marker, sizeof(marker), "%s/wrote-version", bin);
	wrote = access(marker, F_OK) == 0;
	unlink(marker);
	return wrote;
}

/*
 * `qemu-system-arm --version`, asked to record the tool, runs jailed as
 * QEMU itself does: the stand-in's write beside itself comes to nothing.
 * Unjailed it lands (the test can tell).
 */
static void test_qemu_version_runs_jailed(void **state)
{
	struct fixture *f = *state;
	char why[512];

	assert_int_equal(hil_jail_probe(why, sizeof(why)), HIL_OK);
	assert_false(version_writes(f, 1));
	assert_true(version_writes(f, 0));
}

static void test_qemu_rejects_a_non_elf_file_before_starting(void **state)
{
	struct fixture *f = *state;
	struct hil_flasher *fl = open_qemu(f->run_dir, NULL);
	struct ut_capture c;
	char log[2048];

	/* QEMU itself would load it as a raw image and lock up */
	ut_capture_begin(&c);
	assert_int_equal(hil_flasher_start(fl, f->not_elf), HIL_ERR_ARG);
	assert_int_equal(hil_flasher_start(fl, "/bin/sh"), HIL_ERR_ARG);
	ut_capture_end(&c, log, sizeof(log));
	assert_non_null(strstr(log, f->not_elf));
	assert_non_null(strstr(log, "not an ELF"));
	assert_non_null(strstr(log, "not a 32-bit ARM ELF"));
	assert_int_equal(ut_count_procs("qemu", f->dir), 0);
	hil_flasher_close(fl);
}

/*
 * What a link killed half-way leaves: an empty stub.elf, or one whose
 * section headers lie past its end (the header of an ARM ELF that says so),
 * or a real image cut in half. None reaches QEMU: each is refused with an
 * error naming the file and saying what is wrong with it.
 */
static void test_qemu_refuses_an_empty_or_cut_short_image(void **state)
{
	struct fixture *f = *state;
	struct hil_flasher *fl = open_qemu(f->run_dir, NULL);
	unsigned char head[52];
	char empty[128], cut[128], half[128], cmd[512], log[4096];
	struct ut_capture c;
	FILE *in;

	snprintf(empty, sizeof(empty), "%s/empty.elf", f->dir);
	snprintf(cut, sizeof(cut), "%s/cut.elf", f->dir);
	snprintf(half, sizeof(half), "%s/half.elf", f->dir);
	ut_write_file(empty, "", 0, 0644);
	in = fopen(f->header_only, "rb");
	assert_non_null(in);
	assert_int_equal(fread(head, 1, sizeof(head), in), sizeof(head));
	fclose(in);
	head[32] = 0x00; /* e_shoff = 4096, little-endian */
	head[33] = 0x10;
	head[46] = 40; /* e_shentsize */
	head[48] = 3;  /* e_shnum */
	ut_write_file(cut, head, sizeof(head), 0644);

	ut_capture_begin(&c);
	assert_int_equal(hil_flasher_start(fl, empty), HIL_ERR_ARG);
	assert_int_equal(hil_flasher_start(fl, cut), HIL_ERR_ARG);
	ut_capture_end(&c, log, sizeof(log));
	assert_non_null(strstr(log, empty));
	assert_non_null(strstr(log, "empty (0 bytes)"));
	assert_non_null(strstr(log, cut));
	assert_non_null(strstr(log, "cut short"));
	assert_non_null(strstr(log, "section header table"));
	if (f->have_fw) {
		snprintf(cmd, sizeof(cmd),
			 "head -c $(( $(stat -c %%s %s) / 2 )) %s > %s", f->fw,
			 f->fw, half);
		assert_int_equal(system(cmd), 0);
		ut_capture_begin(&c);
		assert_int_equal(hil_flasher_start(fl, half), HIL_ERR_ARG);
		ut_capture_end(&c, log, sizeof(log));
		assert_non_null(strstr(log, half));
		assert_non_null(strstr(log, "cut short"));
		/* The whole image is taken. */
		assert_int_equal(hil_flasher_start(fl, f->fw), HIL_OK);
		hil_flasher_stop(fl);
	}
	assert_int_equal(ut_count_procs("qemu", empty), 0);
	hil_flasher_close(fl);
	unlink(empty);
	unlink(cut);
	unlink(half);
}

static void test_qemu_missing_elf_is_an_io_error_naming_it(void **state)
{
	struct fixture *f = *state;
	struct hil_flasher *fl = open_qemu(f->run_dir, NULL);
	struct ut_capture c;
	char log[2048], path[128];

	snprintf(path, sizeof(path), "%s/missing.elf", f->dir);
	ut_capture_begin(&c);
	assert_int_equal(hil_flasher_start(fl, path), HIL_ERR_IO);
	ut_capture_end(&c, log, sizeof(log));
	assert_non_null(strstr(log, path));
	hil_flasher_close(fl);
}

static void test_qemu_early_exit_reports_its_log(void **state)
{
	struct fixture *f = *state;
	struct hil_flasher *fl = open_qemu(f->run_dir, f->fake_qemu);
	struct ut_capture c;
	char log[2048];

	ut_capture_begin(&c);
	assert_int_equal(hil_flasher_start(fl, f->header_only),
			 HIL_ERR_PROCESS);
	ut_capture_end(&c, log, sizeof(log));
	assert_non_null(strstr(log, "fake failure for the test"));
	assert_non_null(strstr(log, "status 1"));
	assert_non_null(strstr(log, f->header_only));
	hil_flasher_close(fl);
}

static void test_qemu_runs_the_image_and_its_uart_reaches_the_link(void **state)
{
	struct fixture *f = *state;
	struct hil_flasher *fl;
	char sock[128];
	uint64_t t0;

	if (!f->have_fw) {
		skip(); /* arm-none-eabi-gcc is not installed */
	}
	fl = open_qemu(f->run_dir, NULL);
	snprintf(sock, sizeof(sock), "%s/uart.sock", f->run_dir);
	assert_string_equal(hil_flasher_link_where(fl), sock);
	t0 = ut_ms_now();
	assert_int_equal(hil_flasher_start(fl, f->fw), HIL_OK);
	print_message("qemu socket ready after %llu ms\n",
		      (unsigned long long)(ut_ms_now() - t0));
	assert_int_equal(ut_count_procs("qemu", f->dir), 1);
	expect_hello(fl);
	hil_flasher_stop(fl);
	assert_int_equal(ut_count_procs("qemu", f->dir), 0);
	assert_int_equal(access(sock, F_OK), -1); /* socket removed */
	hil_flasher_close(fl);
}

static void test_qemu_image_crash_is_reported_with_qemus_message(void **state)
{
	struct fixture *f = *state;
	struct hil_flasher *fl;
	struct hil_link *l;
	struct ut_capture c;
	char log[4096];
	uint8_t buf[8];
	int r, tries;

	if (!f->have_fw) {
		skip();
	}
	fl = open_qemu(f->run_dir, NULL);
	/* QEMU only loads the image once the link connects (wait=on) */
	assert_int_equal(hil_flasher_start(fl, f->crash), HIL_OK);
	assert_int_equal(
		hil_link_socket_open(&l, hil_flasher_link_where(fl), 2000),
		HIL_OK);
	ut_capture_begin(&c);
	r = hil_link_read(l, buf, sizeof(buf), 5000);
	assert_int_equal(r, HIL_ERR_IO); /* QEMU died: EOF */
	hil_link_close(l);
	/* the link may see EOF a moment before QEMU has finished exiting */
	for (tries = 0; tries < 200; tries++) {
		r = hil_flasher_check(fl);
		if (r != HIL_OK) {
			break;
		}
		nanosleep(&(struct timespec){.tv_sec = 0, .tv_nsec = 10000000},
			  NULL);
	}
	assert_int_equal(r, HIL_ERR_PROCESS);
	ut_capture_end(&c, log, sizeof(log));
	assert_non_null(strstr(log, "Lockup"));
	assert_non_null(strstr(log, f->crash));
	hil_flasher_close(fl);
	assert_int_equal(ut_count_procs("qemu", f->dir), 0);
}

static void test_qemu_close_without_stop_leaves_no_process(void **state)
{
	struct fixture *f = *state;
	struct hil_flasher *fl;

	if (!f->have_fw) {
		skip();
	}
	fl = open_qemu(f->run_dir, NULL);
	assert_int_equal(hil_flasher_start(fl, f->fw), HIL_OK);
	assert_int_equal(ut_count_procs("qemu", f->dir), 1);
	hil_flasher_close(fl); /* never connected: QEMU is still waiting */
	assert_int_equal(ut_count_procs("qemu", f->dir), 0);
}

static void test_qemu_restart_replaces_the_running_emulator(void **state)
{
	struct fixture *f = *state;
	struct hil_flasher *fl;

	if (!f->have_fw) {
		skip();
	}
	fl = open_qemu(f->run_dir, NULL);
	assert_int_equal(hil_flasher_start(fl, f->fw), HIL_OK);
	expect_hello(fl);
	assert_int_equal(hil_flasher_start(fl, f->fw), HIL_OK);
	assert_int_equal(ut_count_procs("qemu", f->dir), 1);
	expect_hello(fl);
	hil_flasher_close(fl);
	assert_int_equal(ut_count_procs("qemu", f->dir), 0);
}

static void test_qemu_long_run_dir_gets_its_socket_in_tmp(void **state)
{
	struct fixture *f = *state;
	struct hil_flasher *fl;
	char deep[256], where[128], logp[300];
	struct stat st;

	if (!f->have_fw) {
		skip();
	}
	snprintf(
		deep, sizeof(deep), "%s/%s", f->dir,
		"a-run-directory-name-long-enough-that-the-socket-path-would-not-fit-in-sun-path-at-all");
	assert_true(strlen(deep) + strlen("/uart.sock") >= 108);
	assert_int_equal(mkdir(deep, 0755), 0);
	snprintf(logp, sizeof(logp), "%s/qemu.log", deep);
	fl = open_qemu(deep, NULL);
	snprintf(where, sizeof(where), "%s", hil_flasher_link_where(fl));
	assert_true(strncmp(where, "/tmp/hilrun-", 12) == 0);
	assert_int_equal(hil_flasher_start(fl, f->fw), HIL_OK);
	expect_hello(fl);
	hil_flasher_close(fl);
	assert_int_equal(ut_count_procs("qemu", f->dir), 0);
	/* the temporary socket directory is gone, qemu.log is in the run dir */
	*strrchr(where, '/') = '\0';
	assert_int_equal(stat(where, &st), -1);
	assert_int_equal(stat(logp, &st), 0);
}

/* ---- the semihost link: QEMU's stdin and stdout on a socketpair ---- */

/* Read exactly n bytes from l within a few seconds. */
static void read_n(struct hil_link *l, uint8_t *buf, size_t n)
{
	size_t got = 0;

	while (got < n) {
		int r = hil_link_read(l, buf + got, n - got, 3000);

		assert_true(r > 0);
		got += (size_t)r;
	}
}

/* The link on the flasher's end of the pair, after the firmware's "hi\n". */
static struct hil_link *semihost_link(struct hil_flasher *fl)
{
	struct hil_link *l = NULL;
	uint8_t buf[8];
	int fd = hil_flasher_link_fd(fl);

	assert_true(fd >= 0);
	assert_int_equal(
		hil_link_adopt(&l, "semihost", fd, hil_flasher_link_where(fl)),
		HIL_OK);
	assert_string_equal(hil_link_type(l), "semihost");
	read_n(l, buf, 3);
	assert_memory_equal(buf, "hi\n", 3);
	return l;
}

/* The pid of the one QEMU whose command line names dir. */
static pid_t qemu_pid(const char *dir)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	pid_t pid = -1;

	assert_non_null(d);
	while ((e = readdir(d)) != NULL) {
		char path[300], buf[4096];
		size_t len, i;
		FILE *fp;

		snprintf(path, sizeof(path), "/proc/%s/cmdline", e->d_name);
		fp = fopen(path, "r");
		if (fp == NULL) {
			continue;
		}
		len = fread(buf, 1, sizeof(buf) - 1, fp);
		fclose(fp);
		for (i = 0; i < len; i++) {
			buf[i] = buf[i] == '\0' ? ' ' : buf[i];
		}
		buf[len] = '\0';
		if (strstr(buf, "qemu-system-arm") != NULL &&
		    strstr(buf, dir) != NULL) {
			pid = (pid_t)atol(e->d_name);
		}
	}
	closedir(d);
	assert_true(pid > 0);
	return pid;
}

static void test_qemu_semihost_console_reaches_the_link_both_ways(void **state)
{
	struct fixture *f = *state;
	struct hil_flasher *fl;
	struct hil_link *l;
	uint8_t out[1000], in[1000];
	char sock[128], log[4096], saved_level[16] = "";
	const char *old_level;
	struct ut_capture c;
	uint64_t t0;
	size_t i;

	if (!f->have_fw) {
		skip();
	}
	fl = open_qemu_on(f->run_dir, NULL, "semihost");
	assert_non_null(strstr(hil_flasher_link_where(fl), "semihosting"));
	/* Not started: no pair yet. */
	assert_int_equal(hil_flasher_link_fd(fl), HIL_ERR_NA);
	assert_int_equal(hil_flasher_start(fl, f->sh_fw), HIL_OK);
	assert_int_equal(ut_count_procs("qemu", f->dir), 1);
	l = semihost_link(fl);
	/* What is there comes back in one SYS_READ (at most 64 bytes)... */
	assert_int_equal(
		hil_link_write(l, (const uint8_t *)"ping-1234", 9, 1000),
		HIL_OK);
	read_n(l, in, 9);
	assert_memory_equal(in, "ping-1234", 9);
	/* ...and more than one call's worth comes back whole, in order. */
	for (i = 0; i < sizeof(out); i++) {
		out[i] = (uint8_t)(i * 13 + 1);
	}
	assert_int_equal(hil_link_write(l, out, sizeof(out), 1000), HIL_OK);
	read_n(l, in, sizeof(in));
	assert_memory_equal(in, out, sizeof(out));
	assert_int_equal(hil_flasher_check(fl), HIL_OK);
	/* No socket file: the pair is the link. */
	snprintf(sock, sizeof(sock), "%s/uart.sock", f->run_dir);
	assert_int_equal(access(sock, F_OK), -1);

	/*
	 * The guest waits in SYS_READ (a read(0) holding QEMU's lock): the
	 * stop still lets QEMU act on SIGTERM, not wait out the grace before
	 * SIGKILL. The proc log's exit status tells the two apart, not the
	 * clock: 0 (QEMU's own exit on SIGTERM), not 137 (SIGKILL).
	 */
	old_level = getenv("HILRUN_LOG");
	if (old_level != NULL) {
		snprintf(saved_level, sizeof(saved_level), "%s", old_level);
	}
	assert_int_equal(setenv("HILRUN_LOG", "3", 1), 0);
	ut_capture_begin(&c);
	t0 = ut_ms_now();
	hil_flasher_stop(fl);
	print_message("semihost qemu stopped in %llu ms\n",
		      (unsigned long long)(ut_ms_now() - t0));
	ut_capture_end(&c, log, sizeof(log));
	if (old_level != NULL) {
		setenv("HILRUN_LOG", saved_level, 1);
	} else {
		unsetenv("HILRUN_LOG");
	}
	assert_non_null(strstr(log, "stopped, status 0"));
	assert_null(strstr(log, "status 137"));
	assert_true(ut_ms_now() - t0 < UT_HANG_MS);
	assert_int_equal(ut_count_procs("qemu", f->dir), 0);
	/* Our copy of the pair now reads the end. */
	assert_int_equal(hil_link_read(l, in, sizeof(in), 1000), HIL_ERR_IO);
	hil_link_close(l);
	hil_flasher_close(fl);
}

static void test_qemu_semihost_killed_emulator_ends_the_link(void **state)
{
	struct fixture *f = *state;
	struct hil_flasher *fl;
	struct hil_link *l;
	struct ut_capture c;
	char log[4096];
	uint8_t buf[8];
	int r, tries;

	if (!f->have_fw) {
		skip();
	}
	fl = open_qemu_on(f->run_dir, NULL, "semihost");
	assert_int_equal(hil_flasher_start(fl, f->sh_fw), HIL_OK);
	l = semihost_link(fl);
	assert_int_equal(kill(qemu_pid(f->dir), SIGKILL), 0);
	ut_capture_begin(&c);
	r = hil_link_read(l, buf, sizeof(buf), 5000);
	assert_int_equal(r, HIL_ERR_IO); /* the end of the pair, at once */
	for (tries = 0; tries < 200; tries++) {
		r = hil_flasher_check(fl);
		if (r != HIL_OK) {
			break;
		}
		ut_sleep_ms(10);
	}
	ut_capture_end(&c, log, sizeof(log));
	assert_int_equal(r, HIL_ERR_PROCESS);
	assert_non_null(strstr(log, "status 137"));
	hil_link_close(l);

	/* A restart makes a new pair; the image talks again. */
	assert_int_equal(hil_flasher_start(fl, f->sh_fw), HIL_OK);
	l = semihost_link(fl);
	hil_link_close(l);
	hil_flasher_close(fl);
	assert_int_equal(ut_count_procs("qemu", f->dir), 0);
}

static void test_qemu_link_choice_is_checked_and_socket_has_no_fd(void **state)
{
	struct fixture *f = *state;
	struct hil_flasher_params p = {.run_dir = f->run_dir, .link = "usb"};
	struct hil_flasher *fl = NULL;
	struct ut_capture c;
	char log[2048];

	ut_capture_begin(&c);
	assert_int_equal(hil_flasher_open(&fl, "qemu", &p), HIL_ERR_ARG);
	ut_capture_end(&c, log, sizeof(log));
	assert_null(fl);
	assert_non_null(strstr(log, "usb"));
	fl = open_qemu_on(f->run_dir, NULL, "socket");
	assert_int_equal(hil_flasher_link_fd(fl), HIL_ERR_NA);
	hil_flasher_close(fl);
}

/* A stand-in QEMU that writes its arguments to argv.txt, then fails. */
static void recorded_argv(struct fixture *f, const char *target, char *out,
			  size_t len)
{
	char prog[160], rec[160], script[512];
	struct hil_flasher_params p = {.run_dir = f->run_dir,
				       .timeout_ms = 5000,
				       .opts = {{"machine", target}},
				       .n_opts = target != NULL};
	struct hil_flasher *fl = NULL;
	struct ut_capture c;
	char log[2048];
	FILE *fp;
	size_t n;

	snprintf(prog, sizeof(prog), "%s/argv-qemu", f->dir);
	snprintf(rec, sizeof(rec), "%s/argv.txt", f->dir);
	snprintf(script, sizeof(script),
		 "#!/bin/sh\necho \"$*\" > '%s'\nexit 1\n", rec);
	ut_write_file(prog, script, strlen(script), 0755);
	p.program = prog;
	assert_int_equal(hil_flasher_open(&fl, "qemu", &p), HIL_OK);
	ut_capture_begin(&c);
	assert_int_equal(hil_flasher_start(fl, f->header_only),
			 HIL_ERR_PROCESS);
	ut_capture_end(&c, log, sizeof(log));
	hil_flasher_close(fl);
	fp = fopen(rec, "r");
	assert_non_null(fp);
	n = fread(out, 1, len - 1, fp);
	out[n] = '\0';
	fclose(fp);
}

/*
 * The machine and the icount shift are the board's (option machine,
 * "MACHINE[,shift=N]"): the netduinoplus2 at shift 0 when none is given,
 * the mps2-an386 at shift 10 as its board driver asks; anything else is
 * refused at open, naming it.
 */
static void test_qemu_machine_and_shift_come_from_the_board(void **state)
{
	static const char *const bad[] = {
		"mps2 an386",	       "mps2-an386,shift=11", "Netduino",
		"mps2-an386,foo=1",    "mps2-an386,shift=",   ",shift=1",
		"mps2-an386,shift=1x",
	};
	struct fixture *f = *state;
	char argv[1024], log[2048];
	size_t i;

	recorded_argv(f, NULL, argv, sizeof(argv));
	assert_non_null(strstr(argv, "-M netduinoplus2 "));
	assert_non_null(strstr(argv, "-icount shift=0,align=off,sleep=off"));
	recorded_argv(f, "mps2-an386,shift=10", argv, sizeof(argv));
	assert_non_null(strstr(argv, "-M mps2-an386 "));
	assert_non_null(strstr(argv, "-icount shift=10,align=off,sleep=off"));
	recorded_argv(f, "mps2-an386", argv, sizeof(argv));
	assert_non_null(strstr(argv, "-icount shift=0,align=off,sleep=off"));
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct hil_flasher_params p = {.run_dir = f->run_dir,
					       .opts = {{"machine", bad[i]}},
					       .n_opts = 1};
		struct hil_flasher *fl = NULL;
		struct ut_capture c;

		ut_capture_begin(&c);
		assert_int_equal(hil_flasher_open(&fl, "qemu", &p),
				 HIL_ERR_ARG);
		ut_capture_end(&c, log, sizeof(log));
		assert_null(fl);
		assert_non_null(strstr(log, bad[i]));
	}
}

static void test_qemu_version_is_reported(void **state)
{
	struct fixture *f = *state;
	struct hil_flasher *fl = open_qemu(f->run_dir, NULL);
	char ver[128];

	assert_int_equal(hil_flasher_version(fl, ver, sizeof(ver)), HIL_OK);
	print_message("%s\n", ver);
	assert_true(strncmp(ver, "QEMU emulator version ", 22) == 0);
	assert_null(strchr(ver, '\n'));
	hil_flasher_close(fl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			test_flasher_rejects_unknown_type_and_missing_run_dir),
		cmocka_unit_test(test_qemu_missing_binary_is_a_clear_error),
		cmocka_unit_test(test_qemu_version_runs_jailed),
		cmocka_unit_test(
			test_qemu_rejects_a_non_elf_file_before_starting),
		cmocka_unit_test(test_qemu_refuses_an_empty_or_cut_short_image),
		cmocka_unit_test(
			test_qemu_missing_elf_is_an_io_error_naming_it),
		cmocka_unit_test(test_qemu_early_exit_reports_its_log),
		cmocka_unit_test(
			test_qemu_runs_the_image_and_its_uart_reaches_the_link),
		cmocka_unit_test(
			test_qemu_image_crash_is_reported_with_qemus_message),
		cmocka_unit_test(
			test_qemu_close_without_stop_leaves_no_process),
		cmocka_unit_test(
			test_qemu_restart_replaces_the_running_emulator),
		cmocka_unit_test(test_qemu_long_run_dir_gets_its_socket_in_tmp),
		cmocka_unit_test(
			test_qemu_semihost_console_reaches_the_link_both_ways),
		cmocka_unit_test(
			test_qemu_semihost_killed_emulator_ends_the_link),
		cmocka_unit_test(
			test_qemu_link_choice_is_checked_and_socket_has_no_fd),
		cmocka_unit_test(
			test_qemu_machine_and_shift_come_from_the_board),
		cmocka_unit_test(test_qemu_version_is_reported),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
