/* test_emu_cyclemodel: the cycle-model plugin inside the real qemu-system-arm on hand-counted images and on the stub, and the host's reader of its records. */
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

#include "emu/cyclemodel.h"
#include "drivers/board/memsys.h"
#include "drivers/flasher/flasher.h"
#include "image/build.h"
#include "util/err.h"
#include "drivers/link/link.h"
#include "util/proc.h"
#include "session/session.h"
#include "session/stub.h"
#include "e2e_util.h"
#include "hilp.h"

#ifndef EMU_PLUGIN
#define EMU_PLUGIN "build/emu/cyclemodel.so"
#endif
#ifndef EMU_IMAGES
#define EMU_IMAGES "build/tests/emu"
#endif

#define QEMU_TIMEOUT_MS 20000u
#define STUB_ALGS	"ascon-aead128/ref"

static char tmp_root[64];

/* ---- helpers ---- */

static void path_in_tmp(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", tmp_root, name);
}

static void image(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s.elf", EMU_IMAGES, name);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	size_t n;

	assert_non_null(f);
	buf = calloc(1, 1 << 16);
	assert_non_null(buf);
	n = fread(buf, 1, (1 << 16) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/*
 * Run a bare image under QEMU with the plugin (extra: more plugin
 * arguments, e.g. ",agu=off"); the records land in out.
 * @return QEMU's exit status.
 */
static int run_image(const char *name, const struct hil_cyclemodel_opts *o,
		     const char *extra, const char *log)
{
	char elf[512], arg[2048];
	int status = -1;

	image(elf, sizeof(elf), name);
	assert_int_equal(hil_cyclemodel_plugin_arg(o, arg, sizeof(arg)),
			 HIL_OK);
	if (extra != NULL) {
		strncat(arg, extra, sizeof(arg) - strlen(arg) - 1);
	}
	{
		char *const argv[] = {
			"qemu-system-arm",
			"-M",
			"netduinoplus2",
			"-kernel",
			elf,
			"-display",
			"none",
			"-monitor",
			"none",
			"-serial",
			"null",
			"-nodefaults",
			"-icount",
			"shift=0,align=off,sleep=off",
			"-semihosting-config",
			"enable=on,target=native",
			"-plugin",
			arg,
			NULL,
		};

		assert_int_equal(
			hil_proc_run(argv, log, QEMU_TIMEOUT_MS, &status),
			HIL_OK);
	}
	return status;
}

static void opts_for(struct hil_cyclemodel_opts *o, const char *out,
		     unsigned ws, int art)
{
	memset(o, 0, sizeof(*o));
	o->plugin = EMU_PLUGIN;
	o->out = out;
	o->ws = ws;
	o->art = art;
}

/* All records of a fresh file, with the reader's view of its header. */
static size_t read_all(const char *out, struct hil_cyclemodel_rec **recs,
		       struct hil_cyclemodel_info *info)
{
	struct hil_cyclemodel_reader *r;
	size_t n = 0;

	assert_int_equal(hil_cyclemodel_open(&r, out, 0), HIL_OK);
	assert_int_equal(hil_cyclemodel_read(r, recs, &n), HIL_OK);
	if (info != NULL) {
		*info = *hil_cyclemodel_info(r);
	}
	hil_cyclemodel_close(r);
	return n;
}

/* ---- hand-counted brackets (tests/emu/rules.S) ---- */

struct expect {
	const char *name;
	uint64_t cycles, min, insns, divides;
};

static const struct expect rules[] = {
	{"empty (pipelined STOP)", 1, 1, 1, 0},
	{"alu", 10, 10, 9, 0},
	{"mul", 10, 10, 9, 0},
	{"ld_indep", 6, 6, 5, 0},
	{"ld_dep", 6, 6, 4, 0},
	{"stores", 7, 7, 5, 0},
	{"ld_st", 9, 9, 6, 0},
	{"dual", 9, 9, 4, 0},
	{"multiple", 20, 20, 6, 0},
	{"b_imm", 6, 6, 4, 0},
	{"b_unaligned", 7, 7, 4, 0},
	{"bcc_not", 6, 6, 5, 0},
	{"bcc_taken", 7, 7, 5, 0},
	{"cbz", 6, 6, 4, 0},
	{"cbnz", 5, 5, 4, 0},
	{"call", 9, 9, 5, 0},
	{"pop_pc", 15, 15, 6, 0},
	{"it_load", 7, 7, 6, 0},
	{"it_taken", 8, 8, 6, 0},
	{"it_skipped", 7, 7, 6, 0},
	{"div", 27, 7, 4, 2},
	{"agu", 6, 6, 4, 0},
	{"tbb", 11, 11, 5, 0},
	{"ldr_pc", 9, 9, 4, 0},
	{"literal", 4, 4, 3, 0},
};

#define N_RULES (sizeof(rules) / sizeof(rules[0]))

static void check(const struct expect *e, const struct hil_cyclemodel_rec *r,
		  size_t i)
{
	if (r->seq != i + 1 || r->cycles != e->cycles || r->min != e->min ||
	    r->max != e->cycles || r->insns != e->insns ||
	    r->divides != e->divides) {
		fail_msg("bracket %zu (%s): seq %llu cycles %llu [%llu, %llu] "
			 "insns %llu div %llu; expected cycles %llu [%llu, "
			 "%llu] insns %llu div %llu",
			 i + 1, e->name, (unsigned long long)r->seq,
			 (unsigned long long)r->cycles,
			 (unsigned long long)r->min, (unsigned long long)r->max,
			 (unsigned long long)r->insns,
			 (unsigned long long)r->divides,
			 (unsigned long long)e->cycles,
			 (unsigned long long)e->min,
			 (unsigned long long)e->cycles,
			 (unsigned long long)e->insns,
			 (unsigned long long)e->divides);
	}
}

static void test_qemu_loads_the_plugin_and_every_rule_counts(void **state)
{
	struct hil_cyclemodel_opts o;
	struct hil_cyclemodel_rec *recs = NULL;
	struct hil_cyclemodel_info info;
	char out[256], log[256];
	size_t n, i;

	(void)state;
	path_in_tmp(out, sizeof(out), "rules.txt");
	path_in_tmp(log, sizeof(log), "rules.log");
	opts_for(&o, out, 0, 1);
	assert_int_equal(run_image("rules", &o, NULL, log), 0);
	n = read_all(out, &recs, &info);
	/* QEMU called install (the header), the callbacks (the records) and
	 * the exit hook (the last line), with plugin API version 1. */
	assert_true(info.loaded);
	assert_int_equal(info.api_cur, 1);
	assert_int_equal(info.ws, 0);
	assert_true(info.exited);
	assert_int_equal(n, N_RULES);
	for (i = 0; i < n; i++) {
		check(&rules[i], &recs[i], i);
	}
	free(recs);
}

static void test_agu_stall_can_be_turned_off(void **state)
{
	struct hil_cyclemodel_opts o;
	struct hil_cyclemodel_rec *recs = NULL;
	char out[256], log[256];
	size_t n, i;

	(void)state;
	path_in_tmp(out, sizeof(out), "agu.txt");
	path_in_tmp(log, sizeof(log), "agu.log");
	opts_for(&o, out, 0, 1);
	assert_int_equal(run_image("rules", &o, ",agu=off", log), 0);
	n = read_all(out, &recs, NULL);
	assert_int_equal(n, N_RULES);
	for (i = 0; i < n; i++) {
		struct expect e = rules[i];

		if (strcmp(e.name, "agu") == 0) {
			e.cycles = e.min = 5;
		}
		check(&e, &recs[i], i);
	}
	free(recs);
}

static void test_two_runs_give_identical_records(void **state)
{
	struct hil_cyclemodel_opts o;
	char out1[256], out2[256], log[256];
	char *a, *b;

	(void)state;
	path_in_tmp(out1, sizeof(out1), "det1.txt");
	path_in_tmp(out2, sizeof(out2), "det2.txt");
	path_in_tmp(log, sizeof(log), "det.log");
	opts_for(&o, out1, 2, 1);
	assert_int_equal(run_image("rules", &o, NULL, log), 0);
	opts_for(&o, out2, 2, 1);
	assert_int_equal(run_image("rules", &o, NULL, log), 0);
	a = slurp(out1);
	b = slurp(out2);
	assert_string_equal(a, b);
	free(a);
	free(b);
}

/* tests/emu/flash.S under the three profiles: cycles and flash stalls. */
static void test_flash_wait_states_and_art(void **state)
{
	static const struct {
		unsigned ws;
		int art;
		uint64_t cycles[4], flash[4];
	} prof[] = {
		{0, 1, {17, 49, 5, 3}, {0, 0, 0, 0}},
		{2, 0, {21, 61, 7, 7}, {4, 12, 2, 4}},
		{2, 1, {17, 49, 7, 5}, {0, 0, 2, 2}},
	};
	static const uint64_t insns[4] = {16, 46, 3, 3};
	size_t p, i;

	(void)state;
	for (p = 0; p < sizeof(prof) / sizeof(prof[0]); p++) {
		struct hil_cyclemodel_opts o;
		struct hil_cyclemodel_rec *recs = NULL;
		struct hil_cyclemodel_info info;
		char out[256], log[256], name[32];
		size_t n;

		snprintf(name, sizeof(name), "flash%zu.txt", p);
		path_in_tmp(out, sizeof(out), name);
		path_in_tmp(log, sizeof(log), "flash.log");
		opts_for(&o, out, prof[p].ws, prof[p].art);
		assert_int_equal(run_image("flash", &o, NULL, log), 0);
		n = read_all(out, &recs, &info);
		assert_int_equal(info.ws, prof[p].ws);
		assert_int_equal(info.art, prof[p].art);
		assert_int_equal(n, 4);
		for (i = 0; i < n; i++) {
			if (recs[i].cycles != prof[p].cycles[i] ||
			    recs[i].flash != prof[p].flash[i] ||
			    recs[i].insns != insns[i]) {
				fail_msg(
					"ws=%u art=%d F%zu: cycles %llu flash "
					"%llu insns %llu; expected %llu, %llu, "
					"%llu",
					prof[p].ws, prof[p].art, i + 1,
					(unsigned long long)recs[i].cycles,
					(unsigned long long)recs[i].flash,
					(unsigned long long)recs[i].insns,
					(unsigned long long)prof[p].cycles[i],
					(unsigned long long)prof[p].flash[i],
					(unsigned long long)insns[i]);
			}
		}
		free(recs);
	}
}

/*
 * tests/emu/memsys.S under every profile: M1 code over 64 lines (fits a
 * 64-line cache), M2 over 66 (does not), M3 literal loads from flash, M4
 * a cold first call and M5 the same call warm. Cycles, stall cycles,
 * demand reads (misses) of code and data, lines touched: all hand-counted
 * in memsys.S.
 */
static void test_memory_system_profiles(void **state)
{
	static const struct {
		const char *profile;
		int art;
		uint64_t cycles[5], flash[5], imiss[5], dmiss[5];
	} prof[] = {
		/* 0 WS: never waits, but the caches still miss */
		{"stm32f401-0ws",
		 1,
		 {261, 269, 5, 11, 11},
		 {0, 0, 0, 0, 0},
		 {64, 132, 0, 3, 0},
		 {0, 0, 2, 0, 0}},
		/* 2 WS, ART: the 64-line chain hits on its second pass, the
		 * 66-line one misses again (LRU); the D-cache keeps a line;
		 * the warm call hits */
		{"stm32f401-art",
		 1,
		 {389, 533, 9, 17, 11},
		 {128, 264, 4, 6, 0},
		 {64, 132, 0, 3, 0},
		 {0, 0, 2, 0, 0}},
		/* 2 WS, ART off: every line entered, every flash read waits */
		{"stm32f401-art",
		 0,
		 {517, 533, 13, 19, 19},
		 {256, 264, 8, 8, 8},
		 {128, 132, 0, 4, 4},
		 {0, 0, 4, 0, 0}},
		/* nRF52840: a cache of unknown size keeps every line; no
		 * data cache, so every literal waits */
		{"nrf52840-icache",
		 1,
		 {389, 401, 13, 17, 11},
		 {128, 132, 8, 6, 0},
		 {64, 66, 0, 3, 0},
		 {0, 0, 4, 0, 0}},
		{"nrf52840-nocache",
		 1,
		 {517, 533, 13, 19, 19},
		 {256, 264, 8, 8, 8},
		 {128, 132, 0, 4, 4},
		 {0, 0, 4, 0, 0}},
	};
	static const uint64_t insns[5] = {132, 136, 5, 5, 5};
	static const uint64_t ilines[5] = {65, 67, 1, 4, 4};
	static const uint64_t dlines[5] = {0, 0, 2, 0, 0};
	size_t p, i;

	(void)state;
	for (p = 0; p < sizeof(prof) / sizeof(prof[0]); p++) {
		const struct cm4_memsys *m =
			hil_cyclemodel_profile(prof[p].profile);
		struct hil_cyclemodel_opts o;
		struct hil_cyclemodel_rec *recs = NULL;
		struct hil_cyclemodel_info info;
		char out[256], log[256], name[48];
		size_t n;

		assert_non_null(m);
		snprintf(name, sizeof(name), "memsys%zu.txt", p);
		path_in_tmp(out, sizeof(out), name);
		path_in_tmp(log, sizeof(log), "memsys.log");
		opts_for(&o, out, m->ws, prof[p].art);
		o.profile = prof[p].profile;
		assert_int_equal(run_image("memsys", &o, NULL, log), 0);
		n = read_all(out, &recs, &info);
		assert_string_equal(info.profile, prof[p].profile);
		assert_int_equal(n, 5);
		for (i = 0; i < n; i++) {
			const struct hil_cyclemodel_rec *r = &recs[i];

			if (r->cycles != prof[p].cycles[i] ||
			    r->flash != prof[p].flash[i] ||
			    r->imiss != prof[p].imiss[i] ||
			    r->dmiss != prof[p].dmiss[i] ||
			    r->insns != insns[i] || r->ilines != ilines[i] ||
			    r->dlines != dlines[i]) {
				fail_msg("%s art=%d M%zu: cycles %llu flash "
					 "%llu imiss %llu dmiss %llu insns "
					 "%llu ilines %llu dlines %llu; "
					 "expected %llu %llu %llu %llu %llu "
					 "%llu %llu",
					 prof[p].profile, prof[p].art, i + 1,
					 (unsigned long long)r->cycles,
					 (unsigned long long)r->flash,
					 (unsigned long long)r->imiss,
					 (unsigned long long)r->dmiss,
					 (unsigned long long)r->insns,
					 (unsigned long long)r->ilines,
					 (unsigned long long)r->dlines,
					 (unsigned long long)prof[p].cycles[i],
					 (unsigned long long)prof[p].flash[i],
					 (unsigned long long)prof[p].imiss[i],
					 (unsigned long long)prof[p].dmiss[i],
					 (unsigned long long)insns[i],
					 (unsigned long long)ilines[i],
					 (unsigned long long)dlines[i]);
			}
		}
		free(recs);
	}
}

/* The same, per instruction (mode=insn): the same records, byte for byte. */
static void test_memory_system_tb_matches_insn(void **state)
{
	static const char *const profiles[] = {
		"stm32f401-art", "nrf52840-icache", "nrf52840-nocache"};
	size_t p;

	(void)state;
	for (p = 0; p < sizeof(profiles) / sizeof(profiles[0]); p++) {
		struct hil_cyclemodel_opts o;
		char out1[256], out2[256], log[256];
		char *a, *b;

		path_in_tmp(out1, sizeof(out1), "mtb.txt");
		path_in_tmp(out2, sizeof(out2), "minsn.txt");
		path_in_tmp(log, sizeof(log), "mtb.log");
		unlink(out1);
		unlink(out2);
		opts_for(&o, out1, 2, 1);
		o.profile = profiles[p];
		assert_int_equal(run_image("memsys", &o, NULL, log), 0);
		o.out = out2;
		assert_int_equal(run_image("memsys", &o, ",mode=insn", log), 0);
		a = slurp(out1);
		b = slurp(out2);
		/* the headers differ in mode= only */
		assert_non_null(strstr(a, "mode=tb"));
		assert_string_equal(strchr(a, '\n'), strchr(b, '\n'));
		free(a);
		free(b);
	}
}

/* Counter reads outside the range do not bracket. */
static void test_range_limits_which_reads_bracket(void **state)
{
	struct hil_cyclemodel_opts o;
	struct hil_cyclemodel_rec *recs = NULL;
	struct hil_cyclemodel_info info;
	char out[256], log[256], elf[512];

	(void)state;
	path_in_tmp(out, sizeof(out), "range.txt");
	path_in_tmp(log, sizeof(log), "range.log");
	image(elf, sizeof(elf), "rules");
	opts_for(&o, out, 0, 1);
	assert_int_equal(hil_cyclemodel_range_from_elf(elf, "leaf", &o.range_lo,
						       &o.range_hi),
			 HIL_OK);
	assert_int_equal(o.range_hi - o.range_lo, 2); /* bx lr */
	assert_int_equal(run_image("rules", &o, NULL, log), 0);
	assert_int_equal(read_all(out, &recs, &info), 0);
	assert_null(recs);
	assert_true(info.loaded);
	assert_true(info.exited);
}

/* The record lines (B and # exit) of a file, without the header. */
static char *records_of(const char *path)
{
	char *text = slurp(path), *out = calloc(1, strlen(text) + 1);
	const char *line = text;

	assert_non_null(out);
	while (*line != '\0') {
		const char *end = strchr(line, '\n');
		size_t len =
			end != NULL ? (size_t)(end - line + 1) : strlen(line);

		if (strncmp(line, "# hilrun-cyclemodel ", 20) != 0) {
			strncat(out, line, len);
		}
		line += len;
	}
	free(text);
	return out;
}

/*
 * mode=tb (one callback per run of instructions up to a memory access) and
 * mode=insn (one per instruction, the reference) give the same records, on
 * every hand-counted image under every flash profile.
 */
static void test_tb_mode_matches_insn_mode(void **state)
{
	static const char *const images[] = {"rules", "flash"};
	static const struct {
		unsigned ws;
		int art;
	} prof[] = {{0, 1}, {2, 0}, {2, 1}, {5, 1}};
	size_t i, p;

	(void)state;
	for (i = 0; i < sizeof(images) / sizeof(images[0]); i++) {
		for (p = 0; p < sizeof(prof) / sizeof(prof[0]); p++) {
			struct hil_cyclemodel_opts o;
			char tb[256], insn[256], log[256];
			char *a, *b;

			path_in_tmp(tb, sizeof(tb), "mode-tb.txt");
			path_in_tmp(insn, sizeof(insn), "mode-insn.txt");
			path_in_tmp(log, sizeof(log), "mode.log");
			unlink(tb);
			unlink(insn);
			opts_for(&o, tb, prof[p].ws, prof[p].art);
			assert_int_equal(
				run_image(images[i], &o, ",mode=tb", log), 0);
			opts_for(&o, insn, prof[p].ws, prof[p].art);
			assert_int_equal(
				run_image(images[i], &o, ",mode=insn", log), 0);
			a = records_of(tb);
			b = records_of(insn);
			if (strcmp(a, b) != 0 ||
			    strstr(a, "B seq=1 ") == NULL) {
				fail_msg("%s ws=%u art=%d: mode=tb gave\n%s\n"
					 "mode=insn gave\n%s",
					 images[i], prof[p].ws, prof[p].art, a,
					 b);
			}
			free(a);
			free(b);
		}
	}
}

static void test_qemu_refuses_a_bad_plugin_argument(void **state)
{
	struct hil_cyclemodel_opts o;
	char out[256], log[256];
	char *text;

	(void)state;
	path_in_tmp(out, sizeof(out), "bad.txt");
	path_in_tmp(log, sizeof(log), "bad.log");
	opts_for(&o, out, 0, 1);
	assert_int_not_equal(run_image("rules", &o, ",pimm=9", log), 0);
	text = slurp(log);
	if (strstr(text, "cyclemodel: bad argument") == NULL) {
		fail_msg("QEMU's log does not name the argument: %s", text);
	}
	free(text);
}

/* The value of key=N in a record line, or -1. */
static long long rec_val(const char *line, const char *key)
{
	char pat[64];
	const char *p;

	snprintf(pat, sizeof(pat), " %s=", key);
	p = strstr(line, pat);
	return p != NULL ? strtoll(p + strlen(pat), NULL, 10) : -1;
}

/*
 * attr= ranges with classes (hilrun pq's SHA-2, SHA-3 and AES shares): each
 * class's cycles in each record, summing to attr= when every range has a
 * class; a class name that is not a word is refused.
 */
static void test_attr_classes_are_summed_apart(void **state)
{
	struct hil_cyclemodel_opts o;
	char out[256], log[256], ranges[256], extra[300];
	char *text, *line;
	FILE *f;
	int records = 0;

	(void)state;
	path_in_tmp(out, sizeof(out), "attr.txt");
	path_in_tmp(log, sizeof(log), "attr.log");
	path_in_tmp(ranges, sizeof(ranges), "attr.ranges");
	f = fopen(ranges, "w");
	assert_non_null(f);
	/* Two ranges without a gap: the first 256 bytes of flash (and the
	 * alias below it), and everything above. */
	fputs("0 8000100 low\n8000100 ffffffff high\n", f);
	fclose(f);
	opts_for(&o, out, 0, 1);
	snprintf(extra, sizeof(extra), ",attr=%s", ranges);
	assert_int_equal(run_image("rules", &o, extra, log), 0);
	text = slurp(out);
	assert_non_null(text);
	for (line = strtok(text, "\n"); line != NULL;
	     line = strtok(NULL, "\n")) {
		long long all, low, high;

		if (line[0] != 'B') {
			continue;
		}
		all = rec_val(line, "attr");
		low = rec_val(line, "attr.low");
		high = rec_val(line, "attr.high");
		assert_true(all >= 0 && low >= 0 && high >= 0);
		assert_true(low + high == all);
		/* Every instruction is in one range: all the cycles, but
		 * for the bracket's edges (the counter reads are settled as
		 * the bracket opens and closes: 1 or 2 cycles here). */
		assert_true(all <= rec_val(line, "cycles"));
		assert_true(all + 3 >= rec_val(line, "cycles"));
		records++;
	}
	assert_true(records > 0);
	free(text);

	f = fopen(ranges, "w");
	assert_non_null(f);
	fputs("8000000 8000100 sha-2\n", f);
	fclose(f);
	assert_int_not_equal(run_image("rules", &o, extra, log), 0);
}

/* ---- the host side alone ---- */

static void test_plugin_arg_escapes_commas_and_checks(void **state)
{
	struct hil_cyclemodel_opts o;
	char buf[256];

	(void)state;
	opts_for(&o, "/r/a,b.txt", 2, 0);
	o.plugin = "/p/cm.so";
	o.range_lo = 0x0800026c;
	o.range_hi = 0x08000280;
	assert_int_equal(hil_cyclemodel_plugin_arg(&o, buf, sizeof(buf)),
			 HIL_OK);
	assert_string_equal(buf, "/p/cm.so,ws=2,art=off,"
				 "range=0x0800026c-0x08000280,"
				 "out=/r/a,,b.txt");
	assert_int_equal(hil_cyclemodel_plugin_arg(&o, buf, 20), HIL_ERR_ARG);
	o.ws = 16;
	assert_int_equal(hil_cyclemodel_plugin_arg(&o, buf, sizeof(buf)),
			 HIL_ERR_ARG);
	o.ws = 0;
	o.range_hi = o.range_lo;
	assert_int_equal(hil_cyclemodel_plugin_arg(&o, buf, sizeof(buf)),
			 HIL_ERR_ARG);
	o.range_lo = o.range_hi = 0;
	o.out = NULL;
	assert_int_equal(hil_cyclemodel_plugin_arg(&o, buf, sizeof(buf)),
			 HIL_ERR_ARG);
	hil_cyclemodel_unit(NULL, 0, 1, buf, sizeof(buf));
	assert_string_equal(buf, "cycles (estimated, Cortex-M4 model, 0 WS)");
	hil_cyclemodel_unit(NULL, 2, 1, buf, sizeof(buf));
	assert_string_equal(
		buf, "cycles (estimated, Cortex-M4 model, 2 WS, ART on)");
	/* The profile goes first, before the overrides; a profile the
	 * plugin does not have is refused here, not by QEMU. */
	o.out = "/r/m.txt";
	o.profile = "nrf52840-icache";
	o.ws = 2;
	o.art = 1;
	assert_int_equal(hil_cyclemodel_plugin_arg(&o, buf, sizeof(buf)),
			 HIL_OK);
	assert_string_equal(buf, "/p/cm.so,profile=nrf52840-icache,ws=2,"
				 "art=on,out=/r/m.txt");
	o.profile = "stm32f4";
	assert_int_equal(hil_cyclemodel_plugin_arg(&o, buf, sizeof(buf)),
			 HIL_ERR_ARG);
	hil_cyclemodel_unit("stm32f401-art", 2, 1, buf, sizeof(buf));
	assert_string_equal(buf, "cycles (estimated, Cortex-M4 model, "
				 "stm32f401-art: 2 WS, ART on)");
	hil_cyclemodel_unit("stm32f401-0ws", 0, 1, buf, sizeof(buf));
	assert_string_equal(buf, "cycles (estimated, Cortex-M4 model, "
				 "stm32f401-0ws: 0 WS)");
	hil_cyclemodel_unit("nrf52840-icache", 2, 1, buf, sizeof(buf));
	assert_string_equal(buf, "cycles (estimated, Cortex-M4 model, "
				 "nrf52840-icache: 2 WS, I-cache on, "
				 "unverified flash timing)");
	hil_cyclemodel_unit("nrf52840-nocache", 2, 1, buf, sizeof(buf));
	assert_string_equal(buf, "cycles (estimated, Cortex-M4 model, "
				 "nrf52840-nocache: 2 WS, unverified flash "
				 "timing)");
	/* Overrides (issue 31 item 3): the label and the summary describe
	 * what was modelled, not the profile's board setting. */
	hil_cyclemodel_unit("stm32f401-art", 0, 0, buf, sizeof(buf));
	assert_string_equal(buf, "cycles (estimated, Cortex-M4 model, "
				 "stm32f401-art overridden: 0 WS, ART off)");
	hil_cyclemodel_unit("stm32f401-art", 2, 0, buf, sizeof(buf));
	assert_string_equal(buf, "cycles (estimated, Cortex-M4 model, "
				 "stm32f401-art overridden: 2 WS, ART off)");
	assert_int_equal(
		hil_cyclemodel_summary("stm32f401-art", 2, 1, buf, sizeof(buf)),
		1);
	assert_non_null(strstr(buf, "FLASH_ACR 0x702"));
	assert_int_equal(
		hil_cyclemodel_summary("stm32f401-art", 0, 0, buf, sizeof(buf)),
		1);
	assert_null(strstr(buf, "0x702"));
	assert_null(strstr(buf, "84 MHz"));
	assert_string_equal(
		buf, "STM32F401 memory system as modelled: 0 WS, ART prefetch "
		     "and caches off (cycle_model overrides profile "
		     "stm32f401-art, which is 2 WS, ART on; no board setting "
		     "is known to match)");
	assert_int_equal(hil_cyclemodel_summary("nope", 0, 0, buf, sizeof(buf)),
			 0);
	assert_string_equal(buf, "");
	assert_true(hil_cyclemodel_profile_names(buf, sizeof(buf)) > 0);
	assert_string_equal(buf, "stm32f401-art, stm32f401-art-noprefetch, "
				 "stm32f401-0ws, nrf52840-icache, "
				 "nrf52840-nocache, nrf52840-cal, "
				 "nrf52840-fit-1k, nrf52840-fit-2k or "
				 "nrf52840-fit-4k");
}

static void append(const char *path, const char *text)
{
	FILE *f = fopen(path, "a");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void test_reader_returns_only_new_whole_lines(void **state)
{
	struct hil_cyclemodel_reader *r, *late;
	struct hil_cyclemodel_rec *recs = NULL;
	char path[256];
	size_t n = 9;

	(void)state;
	path_in_tmp(path, sizeof(path), "reader.txt");
	unlink(path);
	assert_int_equal(hil_cyclemodel_open(&r, path, 1), HIL_OK);
	assert_int_equal(hil_cyclemodel_read(r, &recs, &n), HIL_OK);
	assert_int_equal(n, 0); /* no file yet */
	assert_false(hil_cyclemodel_info(r)->loaded);
	append(path, "# hilrun-cyclemodel 1 ws=2 art=on agu=on p=1/2/3 "
		     "counter=0x40000024 range=0x0-0x0 api=0-1\n"
		     "B seq=1 cycles=10 min=10 max=10 insns=9 div=0 flash=0\n"
		     "B seq=2 cycles=27 min=7 max=27 insns=4 div=2 fl");
	assert_int_equal(hil_cyclemodel_read(r, &recs, &n), HIL_OK);
	assert_int_equal(n, 1);
	assert_int_equal(recs[0].cycles, 10);
	assert_int_equal(recs[0].insns, 9);
	assert_true(hil_cyclemodel_info(r)->loaded);
	assert_int_equal(hil_cyclemodel_info(r)->ws, 2);
	assert_true(hil_cyclemodel_info(r)->art);
	free(recs);
	/* The rest of the half-written line arrives. */
	append(path, "ash=0\n");
	assert_int_equal(hil_cyclemodel_read(r, &recs, &n), HIL_OK);
	assert_int_equal(n, 1);
	assert_int_equal(recs[0].seq, 2);
	assert_int_equal(recs[0].min, 7);
	assert_int_equal(recs[0].max, 27);
	assert_int_equal(recs[0].divides, 2);
	free(recs);
	assert_int_equal(hil_cyclemodel_read(r, &recs, &n), HIL_OK);
	assert_int_equal(n, 0);
	assert_null(recs);
	/* A reader opened now skips what is there. */
	assert_int_equal(hil_cyclemodel_open(&late, path, 1), HIL_OK);
	append(path, "B seq=3 cycles=5 min=5 max=5 insns=4 div=0 flash=0\n"
		     "# exit brackets=3 insns=99\n");
	assert_int_equal(hil_cyclemodel_read(late, &recs, &n), HIL_OK);
	assert_int_equal(n, 1);
	assert_int_equal(recs[0].seq, 3);
	assert_true(hil_cyclemodel_info(late)->exited);
	free(recs);
	hil_cyclemodel_close(late);
	/* A damaged line is an error, after the good ones before it. */
	append(path, "B seq=4 cycles=5 min=6 max=5 insns=4 div=0 flash=0\n");
	assert_int_equal(hil_cyclemodel_read(r, &recs, &n), HIL_ERR_PROTO);
	assert_int_equal(n, 1);
	assert_int_equal(recs[0].seq, 3);
	free(recs);
	hil_cyclemodel_close(r);
}

/* ---- the real stub ---- */

struct stub {
	struct hil_flasher *fl;
	struct hil_link *link;
	struct hil_session *s;
};

static void stub_down(struct stub *st)
{
	hil_session_close(st->s);
	hil_link_close(st->link);
	hil_flasher_close(st->fl);
	memset(st, 0, sizeof(*st));
}

static void stub_up(struct stub *st, const char *elf, const char *plugin_arg,
		    const char *dir)
{
	struct hil_flasher_params fp;
	struct hilp_info info;

	memset(st, 0, sizeof(*st));
	memset(&fp, 0, sizeof(fp));
	fp.run_dir = dir;
	if (plugin_arg != NULL) {
		assert_int_equal(hil_flasher_params_add(&fp,
							HIL_FLASHER_OPT_PLUGIN,
							plugin_arg),
				 HIL_OK);
	}
	assert_int_equal(hil_flasher_open(&st->fl, "qemu", &fp), HIL_OK);
	assert_int_equal(hil_flasher_start(st->fl, elf), HIL_OK);
	assert_int_equal(hil_link_open(&st->link, "socket",
				       hil_flasher_link_where(st->fl), 0),
			 HIL_OK);
	assert_int_equal(hil_session_open(&st->s, st->link, 2000, 3), HIL_OK);
	assert_int_equal(hil_session_handshake(st->s, 10000, &info), HIL_OK);
}

/* Bench 12 timed runs of Ascon encryption; the model's records of them. */
static void bench_with_model(const char *elf, const char *dir, const char *out,
			     const char *mode, uint32_t *samples,
			     struct hil_cyclemodel_rec *last)
{
	struct hil_cyclemodel_opts o;
	struct hil_cyclemodel_reader *r;
	struct hil_cyclemodel_rec *recs = NULL;
	struct hilp_bench_req req;
	struct hilp_bench_rep rep;
	struct stub st;
	char arg[2048];
	size_t n = 0, i;

	opts_for(&o, out, 0, 1);
	assert_int_equal(
		hil_cyclemodel_range_from_elf(elf, HIL_CYCLEMODEL_TIMED_FUNC,
					      &o.range_lo, &o.range_hi),
		HIL_OK);
	assert_int_equal(hil_cyclemodel_plugin_arg(&o, arg, sizeof(arg)),
			 HIL_OK);
	strncat(arg, mode, sizeof(arg) - strlen(arg) - 1);
	stub_up(&st, elf, arg, dir);
	/* Whatever ran before (boot calibration) is not ours. */
	assert_int_equal(hil_cyclemodel_open(&r, out, 0), HIL_OK);
	assert_int_equal(hil_cyclemodel_read(r, &recs, &n), HIL_OK);
	free(recs);
	assert_true(hil_cyclemodel_info(r)->loaded);
	memset(&req, 0, sizeof(req));
	req.alg = 0; /* the image holds one algorithm */
	req.msg_len = 64;
	req.runs = 12;
	req.warmup = 2;
	req.seed = 7;
	assert_int_equal(
		hil_target_bench(st.s, HILP_OP_ENCRYPT, &req, &rep, samples, 0),
		HIL_OK);
	assert_int_equal(hil_cyclemodel_read(r, &recs, &n), HIL_OK);
	/* warm-up and timed runs each made one bracket, in order. */
	assert_true(n >= req.warmup + req.runs);
	for (i = 0; i < req.runs; i++) {
		last[i] = recs[n - req.runs + i];
	}
	free(recs);
	hil_cyclemodel_close(r);
	stub_down(&st);
}

static void test_stub_brackets_are_its_timed_regions(void **state)
{
	char root[HIL_PATH], fw[256], elf[300], log[300], dir[256];
	char out1[256], out2[256];
	uint32_t s1[12], s2[12];
	struct hil_cyclemodel_rec r1[12], r2[12];
	int status = -1;
	size_t i;

	(void)state;
	if (getenv("HIL_SRC_DIR") != NULL) {
		snprintf(root, sizeof(root), "%s", getenv("HIL_SRC_DIR"));
	} else {
		assert_int_equal(hil_build_find_root(root, sizeof(root)),
				 HIL_OK);
	}
	path_in_tmp(fw, sizeof(fw), "fw");
	path_in_tmp(dir, sizeof(dir), "stub");
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(elf, sizeof(elf), "%s/stub.elf", fw);
	snprintf(log, sizeof(log), "%s/build.log", dir);
	{
		char fwdir[300];
		char *const argv[] = {"make",
				      "-s",
				      "--no-print-directory",
				      "-C",
				      root,
				      "firmware",
				      "BOARD=qemu-netduino",
				      "OPT=-O2",
				      "ALGS=" STUB_ALGS,
				      fwdir,
				      NULL};

		snprintf(fwdir, sizeof(fwdir), "FW_DIR=%s", fw);
		assert_int_equal(hil_proc_run(argv, log, 300000, &status),
				 HIL_OK);
		assert_int_equal(status, 0);
	}
	path_in_tmp(out1, sizeof(out1), "stub1.txt");
	path_in_tmp(out2, sizeof(out2), "stub2.txt");
	bench_with_model(elf, dir, out1, ",mode=tb", s1, r1);
	bench_with_model(elf, dir, out2, ",mode=insn", s2, r2);
	for (i = 0; i < 12; i++) {
		/* The bracket is exactly what TIM2 counted... */
		if (r1[i].insns != s1[i]) {
			fail_msg(
				"run %zu: the model counted %llu instructions, "
				"the emulated counter %u",
				i, (unsigned long long)r1[i].insns, s1[i]);
		}
		/* ...Ascon has no data-dependent timing, no divide... */
		assert_int_equal(r1[i].cycles, r1[0].cycles);
		assert_int_equal(r1[i].min, r1[i].max);
		assert_true(r1[i].cycles > r1[i].insns);
		/* ...and a second emulator, with the per-instruction
		 * reference model, gives the same figures. */
		assert_int_equal(s2[i], s1[i]);
		assert_int_equal(r2[i].cycles, r1[i].cycles);
		assert_int_equal(r2[i].min, r1[i].min);
		assert_int_equal(r2[i].max, r1[i].max);
		assert_int_equal(r2[i].insns, r1[i].insns);
		assert_int_equal(r2[i].divides, r1[i].divides);
		assert_int_equal(r2[i].flash, r1[i].flash);
	}
	print_message("stub, %s encrypt 64 B, -O2, 0 WS: %llu instructions, "
		      "%llu cycles (estimated)\n",
		      STUB_ALGS, (unsigned long long)r1[0].insns,
		      (unsigned long long)r1[0].cycles);
}

static int setup(void **state)
{
	(void)state;
	snprintf(tmp_root, sizeof(tmp_root), "/tmp/hil-emu-XXXXXX");
	return mkdtemp(tmp_root) == NULL ? -1 : 0;
}

static int teardown(void **state)
{
	(void)state;
	if (getenv("HIL_KEEP_TMP") == NULL) {
		e2e_remove_tree(tmp_root);
	}
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plugin_arg_escapes_commas_and_checks),
		cmocka_unit_test(test_reader_returns_only_new_whole_lines),
		cmocka_unit_test(
			test_qemu_loads_the_plugin_and_every_rule_counts),
		cmocka_unit_test(test_agu_stall_can_be_turned_off),
		cmocka_unit_test(test_two_runs_give_identical_records),
		cmocka_unit_test(test_flash_wait_states_and_art),
		cmocka_unit_test(test_memory_system_profiles),
		cmocka_unit_test(test_memory_system_tb_matches_insn),
		cmocka_unit_test(test_range_limits_which_reads_bracket),
		cmocka_unit_test(test_tb_mode_matches_insn_mode),
		cmocka_unit_test(test_qemu_refuses_a_bad_plugin_argument),
		cmocka_unit_test(test_attr_classes_are_summed_apart),
		cmocka_unit_test(test_stub_brackets_are_its_timed_regions),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
