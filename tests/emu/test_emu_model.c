/* test_emu_model: the Thumb-2 decoder and the Cortex-M4 timing rules on their own, without QEMU (encodings from arm-none-eabi-as). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cm4.h"
#include "thumb.h"

/* ---- decoder ---- */

struct enc {
	const char *text;
	uint16_t hw1, hw2; /* hw2 = 0: 16-bit */
	uint8_t cls;
	uint8_t flags; /* flags that must be set */
	int rt;	       /* -1: not checked */
	int nregs;     /* -1: not checked */
	uint16_t addr; /* 0: not checked */
};

#define NA (-1)

static const struct enc encs[] = {
	{"ldr r5, [r4, #36]", 0x6a65, 0, THUMB_LOAD, 0, 5, NA, 1u << 4},
	{"ldr r0, [r1, r2]", 0x5888, 0, THUMB_LOAD, 0, 0, NA, 0x6},
	{"ldr.w r3, [r0, #-4]", 0xf850, 0x3c04, THUMB_LOAD, THUMB_F_WIDE, 3, NA,
	 0x1},
	{"ldr.w r3, [r0], #4", 0xf850, 0x3b04, THUMB_LOAD, 0, 3, NA, 0x1},
	{"ldr r0, [pc, #8]", 0x4802, 0, THUMB_LOAD, THUMB_F_LITERAL, 0, NA,
	 1u << 15},
	{"ldr.w pc, [r0]", 0xf8d0, 0xf000, THUMB_LOAD_PC, 0, NA, NA, 0x1},
	{"ldrb.w r1, [r2, r3, lsl #1]", 0xf812, 0x1013, THUMB_LOAD, 0, 1, NA,
	 0xc},
	{"ldrsh r1, [r2, r3]", 0x5ed1, 0, THUMB_LOAD, 0, 1, NA, 0xc},
	{"str r0, [r1, #4]", 0x6048, 0, THUMB_STORE, THUMB_F_IMM_OFFSET, NA, NA,
	 0x2},
	{"str r0, [r1, r2]", 0x5088, 0, THUMB_STORE, 0, NA, NA, 0x6},
	{"str.w r0, [r1, r2, lsl #2]", 0xf841, 0x0022, THUMB_STORE, 0, NA, NA,
	 0x6},
	{"strb.w r0, [r1, #-1]!", 0xf801, 0x0d01, THUMB_STORE,
	 THUMB_F_IMM_OFFSET, NA, NA, 0x2},
	{"strh.w r0, [r1, #2]", 0xf8a1, 0x0002, THUMB_STORE, THUMB_F_IMM_OFFSET,
	 NA, NA, 0x2},
	{"ldrd r0, r1, [r2, #8]", 0xe9d2, 0x0102, THUMB_LDRD, 0, NA, NA, 0x4},
	{"strd r0, r1, [sp, #-8]!", 0xe96d, 0x0102, THUMB_STRD, 0, NA, NA,
	 1u << 13},
	{"push {r4-r7, lr}", 0xb5f0, 0, THUMB_STM, 0, NA, 5, 1u << 13},
	{"pop {r4-r7, pc}", 0xbdf0, 0, THUMB_LDM, THUMB_F_WRITES_PC, NA, 5, 0},
	{"push.w {r4-r11, lr}", 0xe92d, 0x4ff0, THUMB_STM, 0, NA, 9, 0},
	{"pop.w {r4-r11, pc}", 0xe8bd, 0x8ff0, THUMB_LDM, THUMB_F_WRITES_PC, NA,
	 9, 0},
	{"ldmia r0!, {r1-r3}", 0xc80e, 0, THUMB_LDM, 0, NA, 3, 0x1},
	{"stmdb r0!, {r1-r4}", 0xe920, 0x001e, THUMB_STM, 0, NA, 4, 0x1},
	{"b.n", 0xe7fe, 0, THUMB_BRANCH_IMM, 0, NA, NA, 0},
	{"beq.n", 0xd0fe, 0, THUMB_BRANCH_IMM, THUMB_F_COND, NA, NA, 0},
	{"b.w", 0xf000, 0xb9f2, THUMB_BRANCH_IMM, 0, NA, NA, 0},
	{"bne.w", 0xf040, 0x81f2, THUMB_BRANCH_IMM, THUMB_F_COND, NA, NA, 0},
	/* backward: J1 (hw2 bit 13) set, the middle bit of A5.3.4's op1 */
	{"bne.w (back)", 0xf47f, 0xac0d, THUMB_BRANCH_IMM, THUMB_F_COND, NA, NA,
	 0},
	{"beq.w (back, J2)", 0xf43f, 0xafee, THUMB_BRANCH_IMM, THUMB_F_COND, NA,
	 NA, 0},
	{"udf.w", 0xf7f0, 0xa000, THUMB_ALU, 0, NA, NA, 0},
	{"bl", 0xf000, 0xf9f2, THUMB_BRANCH_IMM, THUMB_F_CALL, NA, NA, 0},
	{"bx lr", 0x4770, 0, THUMB_BRANCH_REG, 0, NA, NA, 0},
	{"blx r3", 0x4798, 0, THUMB_BRANCH_REG, THUMB_F_CALL, NA, NA, 0},
	{"mov pc, lr", 0x46f7, 0, THUMB_BRANCH_REG, 0, NA, NA, 0},
	{"add pc, r0", 0x4487, 0, THUMB_BRANCH_REG, 0, NA, NA, 0},
	{"cbz r0, ...", 0xb110, 0, THUMB_BRANCH_IMM, THUMB_F_COND, NA, NA, 0},
	{"tbb [pc, r1]", 0xe8df, 0xf001, THUMB_TABLE, 0, NA, NA, 0x8002},
	{"tbh [r0, r1, lsl #1]", 0xe8d0, 0xf011, THUMB_TABLE, 0, NA, NA, 0x3},
	{"mul.w r0, r1, r2", 0xfb01, 0xf002, THUMB_MUL, 0, NA, NA, 0},
	{"mla r0, r1, r2, r3", 0xfb01, 0x3002, THUMB_MUL, 0, NA, NA, 0},
	{"umull r0, r1, r2, r3", 0xfba2, 0x0103, THUMB_MUL, 0, NA, NA, 0},
	{"smlal r0, r1, r2, r3", 0xfbc2, 0x0103, THUMB_MUL, 0, NA, NA, 0},
	{"sdiv r0, r1, r2", 0xfb91, 0xf0f2, THUMB_DIV, 0, NA, NA, 0},
	{"udiv r0, r1, r2", 0xfbb1, 0xf0f2, THUMB_DIV, 0, NA, NA, 0},
	{"adds r0, r1, r2", 0x1888, 0, THUMB_ALU, 0, NA, NA, 0},
	{"add.w r0, r1, r2, ror #3", 0xeb01, 0x00f2, THUMB_ALU, 0, NA, NA, 0},
	{"eor.w r8, r9, #255", 0xf089, 0x08ff, THUMB_ALU, 0, NA, NA, 0},
	{"movw r0, #4660", 0xf241, 0x2034, THUMB_ALU, 0, NA, NA, 0},
	{"ubfx r0, r1, #2, #3", 0xf3c1, 0x0082, THUMB_ALU, 0, NA, NA, 0},
	{"rev r0, r1", 0xba08, 0, THUMB_ALU, 0, NA, NA, 0},
	{"clz r0, r1", 0xfab1, 0xf081, THUMB_ALU, 0, NA, NA, 0},
	{"uadd8 r0, r1, r2", 0xfa81, 0xf042, THUMB_ALU, 0, NA, NA, 0},
	{"muls r0, r1, r0", 0x4348, 0, THUMB_MUL, 0, NA, NA, 0},
	{"nop", 0xbf00, 0, THUMB_ALU, 0, NA, NA, 0},
	{"dmb sy", 0xf3bf, 0x8f5f, THUMB_BARRIER, 0, NA, NA, 0},
	{"msr PRIMASK, r0", 0xf380, 0x8810, THUMB_SYS, 0, NA, NA, 0},
	{"mrs r0, PRIMASK", 0xf3ef, 0x8010, THUMB_SYS, 0, NA, NA, 0},
	{"cpsid i", 0xb672, 0, THUMB_SYS, 0, NA, NA, 0},
	{"ldrex r0, [r1]", 0xe851, 0x0f00, THUMB_LOAD, 0, 0, NA, 0x2},
	{"strex r2, r0, [r1]", 0xe841, 0x0200, THUMB_LOAD, 0, 2, NA, 0x2},
	{"pld [r0]", 0xf890, 0xf000, THUMB_ALU, 0, NA, NA, 0},
	{"add sp, #16", 0xb004, 0, THUMB_ALU, 0, NA, NA, 0},
	{"svc 0", 0xdf00, 0, THUMB_SYS, 0, NA, NA, 0},
};

static int encode(const struct enc *e, uint8_t b[4])
{
	b[0] = (uint8_t)e->hw1;
	b[1] = (uint8_t)(e->hw1 >> 8);
	b[2] = (uint8_t)e->hw2;
	b[3] = (uint8_t)(e->hw2 >> 8);
	return e->hw2 != 0 || (e->hw1 >> 11) >= 0x1d ? 4 : 2;
}

static void test_decoder_sorts_encodings_into_classes(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(encs) / sizeof(encs[0]); i++) {
		const struct enc *e = &encs[i];
		struct thumb_insn d;
		uint8_t b[4];
		int len = encode(e, b);

		assert_int_equal(thumb_decode(b, 4, 0x08000100u, &d), len);
		if (d.cls != e->cls) {
			fail_msg("%s: class %s, expected %s", e->text,
				 thumb_class_name(d.cls),
				 thumb_class_name(e->cls));
		}
		if ((d.flags & e->flags) != e->flags) {
			fail_msg("%s: flags 0x%x lack 0x%x", e->text, d.flags,
				 e->flags);
		}
		if (e->rt != NA && d.rt != e->rt) {
			fail_msg("%s: rt %d, expected %d", e->text, d.rt,
				 e->rt);
		}
		if (e->nregs != NA && d.nregs != e->nregs) {
			fail_msg("%s: %d registers, expected %d", e->text,
				 d.nregs, e->nregs);
		}
		if (e->addr != 0 && d.addr_regs != e->addr) {
			fail_msg("%s: address registers 0x%x, expected 0x%x",
				 e->text, d.addr_regs, e->addr);
		}
	}
}

static void test_decoder_counts_it_blocks(void **state)
{
	static const struct {
		uint16_t hw;
		int n;
	} its[] = {
		{0xbf08, 1}, {0xbf0c, 2}, {0xbf1c, 2}, {0xbf1f, 4}, {0xbf06, 3}};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(its) / sizeof(its[0]); i++) {
		uint8_t b[2] = {(uint8_t)its[i].hw, (uint8_t)(its[i].hw >> 8)};
		struct thumb_insn d;

		assert_int_equal(thumb_decode(b, 2, 0, &d), 2);
		assert_int_equal(d.cls, THUMB_IT);
		assert_int_equal(d.it_count, its[i].n);
	}
}

static void test_decoder_wants_both_halfwords_of_a_wide_one(void **state)
{
	uint8_t b[4] = {0x50, 0xf8, 0x04, 0x3c};
	struct thumb_insn d;

	(void)state;
	assert_int_equal(thumb_decode(b, 2, 0, &d), 0);
	assert_int_equal(thumb_decode(b, 1, 0, &d), 0);
	assert_int_equal(thumb_decode(b, 4, 0, &d), 4);
}

/* ---- model, fed by hand ---- */

static struct thumb_insn mk(uint32_t pc, uint16_t hw1, uint16_t hw2)
{
	uint8_t b[4] = {(uint8_t)hw1, (uint8_t)(hw1 >> 8), (uint8_t)hw2,
			(uint8_t)(hw2 >> 8)};
	struct thumb_insn d;

	assert_true(thumb_decode(b, 4, pc, &d) > 0);
	return d;
}

/* Run a straight sequence inside a bracket; mem[i] says whether
 * instruction i accessed memory (at addr[i]). */
static struct cm4_totals run(const struct cm4_config *cfg,
			     const struct thumb_insn *seq, size_t n,
			     const int *mem, const uint32_t *addr)
{
	struct thumb_insn start = mk(0x20000000u, 0xbf00, 0); /* a nop */
	struct cm4_totals t;
	struct cm4 m;
	size_t i;

	assert_int_equal(cm4_init(&m, cfg), 0);
	cm4_exec(&m, &start);
	cm4_open(&m);
	for (i = 0; i < n; i++) {
		cm4_exec(&m, &seq[i]);
		if (mem != NULL && mem[i]) {
			cm4_mem(&m, addr != NULL ? addr[i] : 0x20000100u, 0);
		}
	}
	assert_int_equal(cm4_close(&m, &t), 1);
	cm4_done(&m);
	return t;
}

static void test_skipped_conditional_load_costs_one(void **state)
{
	struct cm4_config cfg;
	struct thumb_insn seq[3];
	const int ran[3] = {0, 1, 0}, skipped[3] = {0, 0, 0};
	struct cm4_totals t;

	(void)state;
	cm4_config_default(&cfg);
	seq[0] = mk(0x20000000u, 0xbf08, 0); /* it eq */
	seq[1] = mk(0x20000002u, 0x6808, 0); /* ldreq r0, [r1] */
	seq[2] = mk(0x20000004u, 0xbf00, 0); /* nop */
	t = run(&cfg, seq, 3, ran, NULL);
	assert_int_equal(t.cycles, 1 + 2 + 1);
	t = run(&cfg, seq, 3, skipped, NULL);
	assert_int_equal(t.cycles, 1 + 1 + 1);
	assert_int_equal(t.insns, 3);
}

static void test_divide_and_msr_give_bounds(void **state)
{
	struct cm4_config cfg;
	struct thumb_insn seq[2];
	struct cm4_totals t;

	(void)state;
	cm4_config_default(&cfg);
	seq[0] = mk(0x20000000u, 0xfbb1, 0xf0f2); /* udiv */
	seq[1] = mk(0x20000004u, 0xf380, 0x8810); /* msr primask, r0 */
	t = run(&cfg, seq, 2, NULL, NULL);
	assert_int_equal(t.min, 2 + 1);
	assert_int_equal(t.max, 12 + 2);
	assert_int_equal(t.cycles, t.max);
	assert_int_equal(t.divides, 1);
}

static void test_icache_thrashes_beyond_64_lines(void **state)
{
	/* One B per 16-byte line over N lines, twice round. With N = 64 the
	 * second pass hits the ART cache; with 65 (LRU) it misses again. */
	struct cm4_config cfg;
	struct thumb_insn seq[2 * 65];
	struct cm4_totals t;
	size_t i;

	(void)state;
	cm4_config_default(&cfg);
	cfg.ws = 5;
	for (i = 0; i < 2 * 64; i++) {
		seq[i] = mk(0x08000000u + (uint32_t)(i % 64) * 32u, 0xe7fe, 0);
	}
	t = run(&cfg, seq, 2 * 64, NULL, NULL);
	assert_int_equal(t.flash_stalls, 64 * 5);
	for (i = 0; i < 2 * 65; i++) {
		seq[i] = mk(0x08000000u + (uint32_t)(i % 65) * 32u, 0xe7fe, 0);
	}
	t = run(&cfg, seq, 2 * 65, NULL, NULL);
	assert_int_equal(t.flash_stalls, 2 * 65 * 5);
	/* Without ART every one of them waits. */
	cfg.art = 0;
	t = run(&cfg, seq, 2 * 64, NULL, NULL);
	assert_int_equal(t.flash_stalls, 2 * 64 * 5);
}

static void test_code_in_ram_never_waits(void **state)
{
	struct cm4_config cfg;
	struct thumb_insn seq[4];
	const int mem[4] = {1, 1, 1, 1};
	const uint32_t addr[4] = {0x20000000u, 0x20000010u, 0x20000020u,
				  0x20000030u};
	struct cm4_totals t;
	size_t i;

	(void)state;
	cm4_config_default(&cfg);
	cfg.ws = 7;
	cfg.art = 0;
	for (i = 0; i < 4; i++) {
		seq[i] = mk(0x20001000u + 16u * (uint32_t)i, 0x6808, 0);
	}
	t = run(&cfg, seq, 4, mem, addr);
	assert_int_equal(t.flash_stalls, 0);
	assert_int_equal(t.cycles, 2 + 1 + 1 + 1); /* pipelined LDRs */
}

/* ---- memory-system profiles ---- */

static struct cm4_config profile(const char *name)
{
	const struct cm4_memsys *p = cm4_memsys_find(name);
	struct cm4_config cfg;

	assert_non_null(p);
	cm4_config_default(&cfg);
	cm4_config_memsys(&cfg, p);
	return cfg;
}

static void test_profiles_are_sourced_or_say_what_is_not(void **state)
{
	const struct cm4_memsys *p;
	size_t i, j;

	(void)state;
	for (i = 0; (p = cm4_memsys_at(i)) != NULL; i++) {
		const struct cm4_cache_geom *c[2] = {&p->icache, &p->dcache};

		assert_non_null(p->name);
		assert_ptr_equal(cm4_memsys_find(p->name), p);
		assert_true(p->line_bytes >= 4 &&
			    (p->line_bytes & (p->line_bytes - 1)) == 0);
		for (j = 0; j < 2; j++) {
			assert_true(c[j]->lines == CM4_CACHE_UNBOUNDED ||
				    (c[j]->lines <= CM4_CACHE_MAX_LINES &&
				     (c[j]->lines == 0 ||
				      c[j]->lines % c[j]->ways == 0)));
		}
		/* The STM32F401's every parameter is from RM0368/RM0090;
		 * the nRF52840's timing is not documented where we looked,
		 * and the profile says so. */
		if (strncmp(p->name, "stm32", 5) == 0) {
			assert_null(p->unverified);
		} else {
			assert_non_null(p->unverified);
			assert_non_null(strstr(p->unverified, "wait states"));
		}
	}
	assert_true(i >= 4);
	assert_null(cm4_memsys_find("stm32f401"));
	assert_non_null(cm4_memsys_find("nrf52840-nocache"));
}

static void test_misses_and_lines_are_counted_at_zero_wait_states(void **state)
{
	/* The 16/24 MHz profile: no wait, but the caches still miss, and
	 * the record says how often and over how many lines. */
	struct cm4_config cfg = profile("stm32f401-0ws");
	struct thumb_insn seq[2 * 65];
	struct cm4_totals t;
	size_t i;

	(void)state;
	for (i = 0; i < 2 * 65; i++) {
		seq[i] = mk(0x08000000u + (uint32_t)(i % 65) * 32u, 0xe7fe, 0);
	}
	t = run(&cfg, seq, 2 * 65, NULL, NULL);
	assert_int_equal(t.flash_stalls, 0);
	assert_int_equal(t.imiss, 2 * 65); /* 65 lines through 64: LRU */
	assert_int_equal(t.ilines, 65);
	for (i = 0; i < 2 * 64; i++) {
		seq[i] = mk(0x08000000u + (uint32_t)(i % 64) * 32u, 0xe7fe, 0);
	}
	t = run(&cfg, seq, 2 * 64, NULL, NULL);
	assert_int_equal(t.imiss, 64);
	assert_int_equal(t.ilines, 64);
	assert_int_equal(t.cycles, 2 * 64 * 2); /* B taken: 2 each */
}

static void test_unknown_cache_size_keeps_every_line(void **state)
{
	/* nrf52840-icache: the size is not documented, so nothing is ever
	 * evicted: 200 lines miss once, then hit. */
	struct cm4_config cfg = profile("nrf52840-icache");
	struct thumb_insn seq[2 * 200];
	struct cm4_totals t;
	size_t i;

	(void)state;
	for (i = 0; i < 2 * 200; i++) {
		seq[i] = mk(0x08000000u + (uint32_t)(i % 200) * 32u, 0xe7fe, 0);
	}
	t = run(&cfg, seq, 2 * 200, NULL, NULL);
	assert_int_equal(t.imiss, 200);
	assert_int_equal(t.flash_stalls, 200 * 2);
	assert_int_equal(t.ilines, 200);
}

/*
 * The F401 at 84 MHz with PRFTEN clear (board.prefetch false): the same
 * 2 WS and ART caches, no line read ahead, so every line the I-cache does
 * not hold waits, sequential or not; a second pass hits the cache.
 */
static void test_f401_prefetch_off_waits_on_every_missed_line(void **state)
{
	struct thumb_insn seq[2 * 64 * 8];
	struct cm4_config on, off;
	struct cm4_totals t;
	size_t i;

	(void)state;
	/* 64 lines of 8 NOPs straight through, twice. */
	for (i = 0; i < 2 * 64 * 8; i++) {
		seq[i] = mk(0x08000100u + 2u * (uint32_t)(i % (64 * 8)), 0xbf00,
			    0);
	}
	on = profile("stm32f401-art");
	off = profile("stm32f401-art-noprefetch");
	assert_int_equal(off.ws, 2);
	assert_true(off.art && !off.prefetch);
	t = run(&on, seq, 64 * 8, NULL, NULL);
	assert_int_equal(t.imiss, 1); /* the prefetcher had the others */
	assert_int_equal(t.flash_stalls, 2);
	t = run(&off, seq, 64 * 8, NULL, NULL);
	assert_int_equal(t.imiss, 64); /* every line, 2 WS each */
	assert_int_equal(t.flash_stalls, 64 * 2);
	/* Second pass: the 64-line I-cache holds them all. */
	t = run(&off, seq, 2 * 64 * 8, NULL, NULL);
	assert_int_equal(t.imiss, 64);
	assert_int_equal(t.flash_stalls, 64 * 2);
	assert_int_equal(t.ilines, 64);
}

static void test_without_prefetch_every_new_line_waits(void **state)
{
	/* 16 NOPs over two lines from a line start: the F401's prefetcher
	 * has the second line ready; the nRF52840 (no prefetch documented)
	 * waits for it, cache or not, the first time. */
	struct thumb_insn seq[16];
	struct cm4_config cfg;
	struct cm4_totals t;
	size_t i;

	(void)state;
	for (i = 0; i < 16; i++) {
		seq[i] = mk(0x08000100u + 2u * (uint32_t)i, 0xbf00, 0);
	}
	cfg = profile("stm32f401-art");
	t = run(&cfg, seq, 16, NULL, NULL);
	assert_int_equal(t.flash_stalls, 2); /* the first line only */
	assert_int_equal(t.imiss, 1);
	cfg = profile("nrf52840-icache");
	t = run(&cfg, seq, 16, NULL, NULL);
	assert_int_equal(t.flash_stalls, 2 * 2);
	assert_int_equal(t.imiss, 2);
	cfg = profile("nrf52840-nocache");
	t = run(&cfg, seq, 16, NULL, NULL);
	assert_int_equal(t.imiss, 2);
	assert_int_equal(t.cycles, 16 + 2 * 2);
	assert_int_equal(t.ilines, 2);
}

static void test_literal_loads_without_a_data_cache_always_wait(void **state)
{
	/* Three LDRs of one flash word: the ART's D-cache keeps its line
	 * after the first; the nRF52840's cache is on the ICODE bus only,
	 * so every data read from flash waits. */
	struct thumb_insn seq[3];
	const int mem[3] = {1, 1, 1};
	const uint32_t addr[3] = {0x08000400u, 0x08000400u, 0x08000404u};
	struct cm4_config cfg;
	struct cm4_totals t;
	size_t i;

	(void)state;
	for (i = 0; i < 3; i++) {
		seq[i] = mk(0x20001000u + 2u * (uint32_t)i, 0x6808, 0);
	}
	cfg = profile("stm32f401-art");
	t = run(&cfg, seq, 3, mem, addr);
	assert_int_equal(t.dmiss, 1);
	assert_int_equal(t.dlines, 1);
	assert_int_equal(t.cycles, 2 + 1 + 1 + 2);
	cfg = profile("nrf52840-icache");
	t = run(&cfg, seq, 3, mem, addr);
	assert_int_equal(t.dmiss, 3);
	assert_int_equal(t.dlines, 1);
	assert_int_equal(t.cycles, 2 + 1 + 1 + 3 * 2);
	assert_int_equal(t.imiss, 0); /* the code runs from RAM */
}

static void test_a_set_associative_cache_evicts_within_a_set(void **state)
{
	/* Not a profile yet (none of ours documents one), but the geometry
	 * must work: 4 lines in 2 ways (2 sets). Lines 0, 2, 4 share set 0:
	 * cycling through them misses every time, while 0 and 1 (two sets)
	 * stay. */
	struct cm4_config cfg = profile("stm32f401-0ws");
	struct thumb_insn seq[6];
	struct cm4_totals t;
	size_t i;

	(void)state;
	cfg.icache.lines = 4;
	cfg.icache.ways = 2;
	for (i = 0; i < 6; i++) {
		seq[i] = mk(0x08000000u + (uint32_t)(i % 3) * 32u, 0xe7fe, 0);
	}
	t = run(&cfg, seq, 6, NULL, NULL);
	assert_int_equal(t.imiss, 6);
	for (i = 0; i < 6; i++) {
		seq[i] = mk(0x08000000u + (uint32_t)(i % 2) * 16u, 0xe7fe, 0);
	}
	t = run(&cfg, seq, 6, NULL, NULL);
	assert_int_equal(t.imiss, 2);
}

/* ---- runs (the plugin's mode=tb) against instruction by instruction ---- */

#define PROG_MAX 160

static int ends_block(const struct thumb_insn *d)
{
	return d->cls == THUMB_BRANCH_IMM || d->cls == THUMB_BRANCH_REG ||
	       d->cls == THUMB_LOAD_PC || d->cls == THUMB_TABLE ||
	       (d->flags & THUMB_F_WRITES_PC) || d->cls == THUMB_SYS;
}

static void same_model(const struct cm4 *a, const struct cm4 *b, size_t at)
{
	if (memcmp(&a->t, &b->t, sizeof(a->t)) != 0 || a->pend != b->pend ||
	    a->pend_counted != b->pend_counted ||
	    a->pend_in_it != b->pend_in_it || a->pend_mem != b->pend_mem ||
	    a->pend_extra != b->pend_extra || a->pend_imiss != b->pend_imiss ||
	    a->pend_dmiss != b->pend_dmiss || a->prev_cls != b->prev_cls ||
	    a->prev_rt != b->prev_rt || a->prev_dst != b->prev_dst ||
	    a->prev_executed != b->prev_executed || a->it_left != b->it_left ||
	    a->cur_line != b->cur_line || a->icache.clock != b->icache.clock ||
	    memcmp(a->icache.tag, b->icache.tag, sizeof(a->icache.tag)) != 0 ||
	    memcmp(a->icache.age, b->icache.age, sizeof(a->icache.age)) != 0 ||
	    (a->icache.seen != NULL &&
	     memcmp(a->icache.seen, b->icache.seen, a->nlines) != 0)) {
		fail_msg("the run model left the per-instruction one after "
			 "instruction %zu: cycles %llu/%llu min %llu/%llu "
			 "insns %llu/%llu flash %llu/%llu",
			 at, (unsigned long long)a->t.cycles,
			 (unsigned long long)b->t.cycles,
			 (unsigned long long)a->t.min,
			 (unsigned long long)b->t.min,
			 (unsigned long long)a->t.insns,
			 (unsigned long long)b->t.insns,
			 (unsigned long long)a->t.flash_stalls,
			 (unsigned long long)b->t.flash_stalls);
	}
}

/* The address and direction of the access of prog[i] (some in flash). */
static uint32_t access_addr(size_t i)
{
	return i % 2 ? 0x08000800u + 16u * (uint32_t)(i % 11) : 0x20000100u;
}

static int access_store(size_t i)
{
	return i % 3 == 0;
}

/*
 * The test program: IT blocks, then every encoding of the decoder's table,
 * each followed by an ADDS when alu_between (so that accesses are not
 * next to each other).
 */
static size_t test_prog(struct thumb_insn *prog, const struct thumb_insn **ptr,
			int alu_between)
{
	static const uint16_t it[][2] = {
		{0xbf1c, 0},
		{0xfbb1, 0xf0f2},
		{0x1888, 0}, /* itt ne; udiv; adds */
		{0xbf0c, 0},
		{0x6a65, 0},
		{0x1888, 0}, /* ite eq; ldr; adds */
		{0xbf06, 0},
		{0x6a65, 0},
		{0xfbb1, 0xf0f2},
		{0x1888, 0}, /* itte eq; ldr; udiv; adds: a run starts in IT */
	};
	size_t n = 0, i;
	uint32_t pc = 0x08000102u;

	for (i = 0; i < sizeof(it) / sizeof(it[0]); i++) {
		prog[n] = mk(pc, it[i][0], it[i][1]);
		pc += prog[n++].len;
	}
	for (i = 0; i < sizeof(encs) / sizeof(encs[0]) && n + 1 < PROG_MAX;
	     i++) {
		prog[n] = mk(pc, encs[i].hw1, encs[i].hw2);
		pc += prog[n++].len;
		if (alu_between) {
			prog[n] = mk(pc, 0x1888, 0); /* adds r0, r1, r2 */
			pc += prog[n++].len;
		}
	}
	for (i = 0; i < n; i++) {
		ptr[i] = &prog[i];
	}
	return n;
}

/*
 * Every encoding of the decoder's table, with IT blocks around a divide
 * and loads, laid out in flash from a pc that is not word aligned (wide
 * ones straddle lines) and run three times over, split the way the plugin
 * splits a translation block: after a memory access, a branch, or 5
 * instructions.
 * The model fed runs must stay the model fed instructions, at every step.
 */
static void test_runs_give_what_single_instructions_give(void **state)
{
	static const struct {
		const char *profile;
		unsigned ws;
		int art, agu;
	} prof[] = {
		{"stm32f401-art", 0, 1, 1},   {"stm32f401-art", 2, 1, 1},
		{"stm32f401-art", 2, 0, 1},   {"stm32f401-art", 5, 1, 0},
		{"stm32f401-art", 7, 0, 0},   {"stm32f401-0ws", 0, 1, 1},
		{"nrf52840-icache", 2, 1, 1}, {"nrf52840-nocache", 2, 1, 1}};
	struct thumb_insn prog[PROG_MAX];
	const struct thumb_insn *ptr[PROG_MAX];
	uint32_t line[2 * PROG_MAX];
	size_t n = test_prog(prog, ptr, 0), p;

	(void)state;
	for (p = 0; p < sizeof(prof) / sizeof(prof[0]); p++) {
		struct cm4_config cfg;
		struct cm4 a, b;
		struct cm4_totals ta, tb;
		int iter;

		cm4_config_default(&cfg);
		cm4_config_memsys(&cfg, cm4_memsys_find(prof[p].profile));
		cfg.ws = prof[p].ws;
		cfg.art = prof[p].art;
		cfg.agu_stall = prof[p].agu;
		assert_int_equal(cm4_init(&a, &cfg), 0);
		assert_int_equal(cm4_init(&b, &cfg), 0);
		for (iter = 0; iter < 3; iter++) {
			size_t start = 0;

			while (start < n) {
				struct cm4_run r;
				size_t end = start, k;

				while (end + 1 < n && end - start < 4 &&
				       !thumb_class_is_memory(ptr[end]->cls) &&
				       !ends_block(ptr[end])) {
					end++;
				}
				assert_int_equal(
					cm4_run_prepare(&b, &r, &ptr[start],
							end - start + 1, line),
					0);
				for (k = start; k <= end; k++) {
					cm4_exec(&a, ptr[k]);
				}
				cm4_exec_run(&b, &r);
				same_model(&a, &b, end);
				/* the load in ite eq is skipped on odd rounds */
				if (thumb_class_is_memory(ptr[end]->cls) &&
				    (end != 4 || iter != 1)) {
					uint32_t addr =
						0x08000800u + 16u * (end % 11);

					cm4_mem(&a, addr, end % 3 == 0);
					cm4_mem(&b, addr, end % 3 == 0);
				}
				if (end == 4 && !a.open) {
					cm4_open(&a);
					cm4_open(&b);
				}
				same_model(&a, &b, end);
				start = end + 1;
			}
			if (cm4_close(&a, &ta)) {
				assert_int_equal(cm4_close(&b, &tb), 1);
				assert_memory_equal(&ta, &tb, sizeof(ta));
				assert_true(ta.insns > 0);
				assert_true(ta.ilines > 0);
			}
		}
		cm4_done(&a);
		cm4_done(&b);
	}
}

/*
 * The plugin's segments (plugin.c): blocks of up to 8 instructions, ended
 * by a branch; a segment runs on through a memory access unless the access
 * may be in an IT block (the block's first 4, or an IT's) or starts the
 * segment. The model gets the accesses before a segment's last ahead
 * (cm4_mem_ahead), the segment, then its last access. On the third round
 * every segment with such an access is cut after its first one, as when
 * QEMU re-executes an I/O access alone, and the next block starts after it.
 * The model fed that way must stay the model fed instruction by
 * instruction, with the same accesses, at every step.
 */
static void
test_runs_through_accesses_give_what_single_instructions_give(void **state)
{
	static const char *const names[] = {"stm32f401-art", "stm32f401-0ws",
					    "nrf52840-icache",
					    "nrf52840-nocache"};
	struct thumb_insn prog[PROG_MAX];
	const struct thumb_insn *ptr[PROG_MAX];
	uint32_t line[2 * PROG_MAX];
	size_t n = test_prog(prog, ptr, 1), p, middles = 0, cuts = 0;

	(void)state;
	for (p = 0; p < 2 * sizeof(names) / sizeof(names[0]); p++) {
		struct cm4_config cfg = profile(names[p / 2]);
		struct cm4 a, b;
		struct cm4_totals ta, tb;
		int iter;

		cfg.ws = p % 2 ? 3 : cfg.ws;
		assert_int_equal(cm4_init(&a, &cfg), 0);
		assert_int_equal(cm4_init(&b, &cfg), 0);
		for (iter = 0; iter < 3; iter++) {
			size_t start = 0, block = 0, it_end = 4;

			while (start < n) {
				struct cm4_run r;
				size_t end = start, k, cut = 0;

				for (;; end++) {
					const struct thumb_insn *d = ptr[end];
					size_t at = end - block;
					int mem = thumb_class_is_memory(d->cls);

					if (end + 1 == n || ends_block(d) ||
					    at + 1 == 8 ||
					    (mem &&
					     (at < it_end || end == start))) {
						break;
					}
					if (d->cls == THUMB_IT &&
					    at + 1 + d->it_count > it_end) {
						it_end = at + 1 + d->it_count;
					}
					if (mem && cut == 0) {
						cut = end + 1;
					}
				}
				assert_int_equal(
					cm4_run_prepare(&b, &r, &ptr[start],
							end - start + 1, line),
					0);
				if (iter == 2 && cut != 0) {
					end = cut - 1; /* left at that access */
				}
				for (k = start; k <= end; k++) {
					int mem = thumb_class_is_memory(
						ptr[k]->cls);

					cm4_exec(&a, ptr[k]);
					/* the load in ite eq is skipped on odd
					 * rounds */
					if (mem && (k != 4 || iter != 1)) {
						cm4_mem(&a, access_addr(k),
							access_store(k));
					}
					if (mem && k < end) {
						cm4_mem_ahead(&b,
							      access_addr(k),
							      access_store(k));
						middles++;
					}
				}
				if (iter == 2 && cut != 0) {
					cm4_exec_prefix(&b, &r,
							end - start + 1);
					cuts++;
				} else {
					cm4_exec_run(&b, &r);
				}
				if (thumb_class_is_memory(ptr[end]->cls) &&
				    (end != 4 || iter != 1)) {
					cm4_mem(&b, access_addr(end),
						access_store(end));
				}
				same_model(&a, &b, end);
				if (end >= 4 && !a.open) {
					cm4_open(&a);
					cm4_open(&b);
				}
				if (ends_block(ptr[end]) ||
				    end + 1 - block == 8 ||
				    (iter == 2 && cut != 0)) {
					block = end + 1;
					it_end = 4;
				}
				start = end + 1;
			}
			assert_int_equal(cm4_close(&a, &ta), 1);
			assert_int_equal(cm4_close(&b, &tb), 1);
			assert_memory_equal(&ta, &tb, sizeof(ta));
			assert_true(ta.insns > 0);
		}
		cm4_done(&a);
		cm4_done(&b);
	}
	print_message("%zu accesses ahead, %zu cuts\n", middles, cuts);
	/* the splits above did run through accesses, and cut some */
	assert_true(middles > 20);
	assert_true(cuts > 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decoder_sorts_encodings_into_classes),
		cmocka_unit_test(test_decoder_counts_it_blocks),
		cmocka_unit_test(
			test_decoder_wants_both_halfwords_of_a_wide_one),
		cmocka_unit_test(test_skipped_conditional_load_costs_one),
		cmocka_unit_test(test_divide_and_msr_give_bounds),
		cmocka_unit_test(test_icache_thrashes_beyond_64_lines),
		cmocka_unit_test(test_code_in_ram_never_waits),
		cmocka_unit_test(test_profiles_are_sourced_or_say_what_is_not),
		cmocka_unit_test(
			test_misses_and_lines_are_counted_at_zero_wait_states),
		cmocka_unit_test(test_unknown_cache_size_keeps_every_line),
		cmocka_unit_test(test_without_prefetch_every_new_line_waits),
		cmocka_unit_test(
			test_f401_prefetch_off_waits_on_every_missed_line),
		cmocka_unit_test(
			test_literal_loads_without_a_data_cache_always_wait),
		cmocka_unit_test(
			test_a_set_associative_cache_evicts_within_a_set),
		cmocka_unit_test(test_runs_give_what_single_instructions_give),
		cmocka_unit_test(
			test_runs_through_accesses_give_what_single_instructions_give),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
