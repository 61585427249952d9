/* cm4: the Cortex-M4 timing model, fed with the executed instruction stream and its memory accesses (docs/cycle-model.md). */
#ifndef EMU_CM4_H
#define EMU_CM4_H

#include <stddef.h>
#include <stdint.h>

#include "../../drivers/board/memsys.h"
#include "thumb.h"

struct cm4_config {
	unsigned ws; /* wait states of a flash line read (FLASH_ACR.LATENCY) */
	/* 1: the prefetch and caches below as configured (the ART, or the
	 * nRF52's NVMC cache, on); 0: all of them off */
	int art;
	int prefetch;		      /* the next sequential line is ready */
	struct cm4_cache_geom icache; /* instruction fetches from flash */
	struct cm4_cache_geom dcache; /* data reads from flash */
	unsigned line_shift;	      /* log2 of the flash line's bytes */
	int agu_stall;	/* TRM 3.3.2: address from the previous ALU result */
	unsigned p_imm; /* refill after a taken branch to an immediate target */
	unsigned p_reg; /* ... to a register target (BX, BLX, MOV PC) */
	unsigned p_load; /* ... to a loaded target (LDR PC, POP PC, TBB) */
	uint32_t flash_lo, flash_hi; /* flash, [lo, hi) */
	uint32_t alias_lo, alias_hi; /* its alias at 0, [lo, hi) */
};

/**
 * Defaults: the stm32f401-art memory system at 0 WS, ART on, AGU stall on,
 * P = 1/2/3, the STM32F4's flash and its alias.
 */
void cm4_config_default(struct cm4_config *c);

/** Take the flash line, wait states, prefetch and caches of profile p (art on). */
void cm4_config_memsys(struct cm4_config *c, const struct cm4_memsys *p);

/* Totals over a bracket. min/max differ only where a cost is unknown. */
struct cm4_totals {
	uint64_t cycles; /* the estimate (a divide counts its upper bound) */
	uint64_t min;
	uint64_t max;
	uint64_t insns;
	uint64_t divides;
	uint64_t flash_stalls; /* cycles of the estimate spent waiting on flash */
	/* Flash lines read on demand: the fetch buffer, the prefetcher and
	 * the cache did not hold them (counted at 0 wait states too). */
	uint64_t imiss, dmiss;
	/* Distinct flash lines the bracket fetched code from / read data
	 * from: more than a cache holds, and a loop over them misses. */
	uint64_t ilines, dlines;
};

struct cm4_line_cache {
	uint32_t tag[CM4_CACHE_MAX_LINES];
	uint32_t age[CM4_CACHE_MAX_LINES];
	unsigned n;    /* lines; 0: no cache */
	unsigned ways; /* per set; sets = n / ways */
	unsigned sets;
	uint32_t clock;
	/* Per flash line, its slot + 1 while the cache holds it, else 0: a
	 * hit is found without a scan (owned; NULL when n is 0). */
	uint16_t *slot;
	/* Each set's slots from least to most recently used (lru[set] to
	 * mru[set] through newer[]/older[]): the victim without a scan. */
	uint16_t newer[CM4_CACHE_MAX_LINES], older[CM4_CACHE_MAX_LINES];
	uint16_t lru[CM4_CACHE_MAX_LINES], mru[CM4_CACHE_MAX_LINES];
	/* CM4_CACHE_UNBOUNDED: one byte per flash line, set once it was read
	 * (owned, cm4_done() frees it); NULL otherwise. */
	uint8_t *seen;
};

struct cm4 {
	struct cm4_config cfg;
	/* The instruction executed last, whose cost is settled only when
	 * the next one shows where execution went. */
	const struct thumb_insn *pend;
	int pend_counted;    /* executed inside a bracket */
	int pend_in_it;	     /* conditional (in an IT block) */
	int pend_mem;	     /* it accessed memory (so it was not skipped) */
	unsigned pend_extra; /* wait states found while it executed */
	unsigned pend_imiss; /* flash lines it fetched on demand */
	unsigned pend_dmiss; /* flash lines it read on demand */
	/* Data lines read on demand by the run about to be applied (its
	 * accesses before the last: cm4_mem_ahead()). */
	unsigned ahead_dmiss;
	/* The one before it, for pipelining and the AGU stall. */
	uint8_t prev_cls;
	uint8_t prev_rt;
	uint16_t prev_dst;
	int prev_executed;
	unsigned it_left;
	/* flash interface */
	uint32_t cur_line; /* line in the fetch buffer, or ~0 */
	struct cm4_line_cache icache, dcache;
	int mem_on;	 /* 0: core rules only (a scratch model) */
	uint32_t nlines; /* flash lines (flash size >> line_shift) */
	/* Per flash line, the bracket that last touched it (gen): lines
	 * touched are counted once per bracket. Owned. */
	uint16_t *itouch, *dtouch;
	uint16_t gen;
	/* the bracket */
	int open;
	struct cm4_totals t;
};

/**
 * Start a model; no bracket is open. Its caches are empty (a cold chip).
 * @return 0, or -1 when the memory for its line tables is not there.
 *         Either way, cm4_done() frees what it holds.
 */
int cm4_init(struct cm4 *m, const struct cm4_config *cfg);

/** Free what cm4_init() allocated; m may be started again. */
void cm4_done(struct cm4 *m);

/**
 * An instruction starts executing (QEMU calls the plugin before each one,
 * skipped or not). Settles the cost of the one before. insn must stay
 * valid until the next call.
 */
void cm4_exec(struct cm4 *m, const struct thumb_insn *insn);

/*
 * A run: instructions that execute one after the other (the plugin's
 * segment of a translation block). What their rules give without run-time
 * state is settled once, when the run is prepared; cm4_exec_run() then
 * applies it in one step and leaves the model exactly as cm4_exec() on each
 * instruction in turn would. Instructions before the last may access
 * memory if none of them is in an IT block (the plugin sees to it: only a
 * memory access tells whether a conditional one ran): their flash data
 * reads reach the model through cm4_mem_ahead() before the run is applied.
 */
struct cm4_run {
	const struct thumb_insn *const *insn; /* the run, not owned */
	size_t n;
	int fast; /* 0: cm4_exec_run() falls back to cm4_exec() per insn */
	int ram;  /* wholly outside flash: no line to fetch */
	/* insn[0..n-2] settled, as if counted, at 0 wait states */
	struct cm4_totals t;
	/* the model's state after cm4_exec(insn[n - 1]) */
	uint8_t prev_cls;
	uint8_t prev_rt;
	uint16_t prev_dst;
	int prev_executed;
	unsigned it_left;
	int last_in_it;
	/* flash lines fetched after insn[0]'s, in order; the last
	 * nlines_last of them by insn[n - 1] */
	uint32_t *line;
	size_t nlines, nlines_last;
};

/**
 * Prepare a run of n instructions (kept by the caller until the model is
 * done with them) under the model's configuration; line must have room
 * for 2 * n entries. @return 0, or -1 if n is 0.
 */
int cm4_run_prepare(const struct cm4 *m, struct cm4_run *r,
		    const struct thumb_insn *const *insn, size_t n,
		    uint32_t *line);

/** cm4_exec() on each instruction of the run, in one step. */
void cm4_exec_run(struct cm4 *m, const struct cm4_run *r);

/**
 * cm4_exec() on the first k instructions of the run only, one by one: the
 * run was left at its access k - 1 (QEMU re-executes an I/O access alone
 * and goes on with a block of its own after it).
 */
void cm4_exec_prefix(struct cm4 *m, const struct cm4_run *r, size_t k);

/**
 * A memory access at addr by an instruction of the run about to be applied
 * (cm4_exec_run() or cm4_exec_prefix() next), other than its last: the data
 * cache is asked now, in the order of the accesses; the cost goes to the
 * run when it is applied. Not for the bracket's counter read.
 */
void cm4_mem_ahead(struct cm4 *m, uint32_t addr, int is_store);

/** The instruction last passed to cm4_exec() accessed memory at addr. */
void cm4_mem(struct cm4 *m, uint32_t addr, int is_store);

/** Open a bracket after the instruction last executed (not counted). */
void cm4_open(struct cm4 *m);

/**
 * Close the bracket with the instruction last executed (counted) and
 * return its totals. Nothing if no bracket is open (returns 0).
 * @return 1 if totals were filled.
 */
int cm4_close(struct cm4 *m, struct cm4_totals *out);

#endif /* EMU_CM4_H */
