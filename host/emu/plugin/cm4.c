/* cm4: Cortex-M4 instruction timing (ARM DDI 0439 section 3.3) and a board's flash memory system (memsys.c), applied to an executed instruction stream. */
#include "cm4.h"

#include <stdlib.h>
#include <string.h>

#define NO_LINE 0xffffffffu
#define P_MAX	3u /* TRM 3.3.1: P ranges from 1 to 3 */
#define DIV_MIN 2u /* TRM Table 3-1: SDIV, UDIV 2 to 12 */
#define DIV_MAX 12u

void cm4_config_default(struct cm4_config *c)
{
	memset(c, 0, sizeof(*c));
	cm4_config_memsys(c, cm4_memsys_find("stm32f401-art"));
	c->ws = 0;
	c->agu_stall = 1;
	c->p_imm = 1;
	c->p_reg = 2;
	c->p_load = 3;
	c->flash_lo = 0x08000000u;
	c->flash_hi = 0x08100000u;
	c->alias_lo = 0x00000000u;
	c->alias_hi = 0x00100000u;
}

void cm4_config_memsys(struct cm4_config *c, const struct cm4_memsys *p)
{
	unsigned shift = 0;

	while ((1u << shift) < p->line_bytes && shift < 16) {
		shift++;
	}
	c->ws = p->ws;
	c->art = 1;
	c->prefetch = p->prefetch;
	c->icache = p->icache;
	c->dcache = p->dcache;
	c->line_shift = shift;
}

static int cache_init(struct cm4_line_cache *c, const struct cm4_cache_geom *g,
		      uint32_t nlines)
{
	memset(c, 0, sizeof(*c));
	if (g->lines == CM4_CACHE_UNBOUNDED) {
		c->n = 1;
		c->seen = calloc(nlines, 1);
		return c->seen != NULL ? 0 : -1;
	}
	c->n = g->lines <= CM4_CACHE_MAX_LINES ? g->lines : 0;
	c->ways = g->ways >= 1 && g->ways <= c->n && c->n % g->ways == 0
			  ? g->ways
			  : c->n;
	c->sets = c->ways != 0 ? c->n / c->ways : 0;
	for (unsigned i = 0; i < c->n; i++) {
		c->tag[i] = NO_LINE;
		c->older[i] = (uint16_t)(i - 1u);
		c->newer[i] = (uint16_t)(i + 1u);
	}
	for (unsigned set = 0; set < c->sets; set++) {
		/* empty slots in order: the first one goes first */
		c->lru[set] = (uint16_t)(set * c->ways);
		c->mru[set] = (uint16_t)(set * c->ways + c->ways - 1u);
	}
	if (c->n == 0) {
		return 0;
	}
	c->slot = calloc(nlines, sizeof(*c->slot));
	return c->slot != NULL ? 0 : -1;
}

/* Slot i of set becomes the set's most recently used. */
static void make_newest(struct cm4_line_cache *c, unsigned set, unsigned i)
{
	if (c->mru[set] == i) {
		return;
	}
	if (c->lru[set] == i) {
		c->lru[set] = c->newer[i];
	} else {
		c->newer[c->older[i]] = c->newer[i];
	}
	c->older[c->newer[i]] = c->older[i];
	c->older[i] = c->mru[set];
	c->newer[c->mru[set]] = (uint16_t)i;
	c->mru[set] = (uint16_t)i;
}

/*
 * Least recently used within the line's set: @return 1 on a hit. A line
 * lives only in its own set, so the slot map answers a hit directly; a
 * miss replaces the set's least recently used slot (empty ones first, in
 * order).
 */
static int cache_access(struct cm4_line_cache *c, uint32_t line)
{
	unsigned set, victim;

	if (c->n == 0) {
		return 0;
	}
	if (c->seen != NULL) { /* size unknown: keeps every line */
		int hit = c->seen[line];

		c->seen[line] = 1;
		return hit;
	}
	c->clock++;
	set = c->sets > 1 ? line % c->sets : 0;
	if (c->slot[line] != 0) {
		victim = c->slot[line] - 1u;
		c->age[victim] = c->clock;
		make_newest(c, set, victim);
		return 1;
	}
	victim = c->lru[set];
	if (c->tag[victim] != NO_LINE) {
		c->slot[c->tag[victim]] = 0;
	}
	c->tag[victim] = line;
	c->age[victim] = c->clock;
	c->slot[line] = (uint16_t)(victim + 1u);
	make_newest(c, set, victim);
	return 0;
}

static int init(struct cm4 *m, const struct cm4_config *cfg, int mem_on)
{
	struct cm4_cache_geom none = {0, 0};
	int ret = 0;

	memset(m, 0, sizeof(*m));
	m->cfg = *cfg;
	m->prev_rt = 0xff;
	m->cur_line = NO_LINE;
	m->mem_on = mem_on;
	m->nlines = (cfg->flash_hi - cfg->flash_lo) >> cfg->line_shift;
	if (mem_on) {
		m->itouch = calloc(m->nlines, sizeof(*m->itouch));
		m->dtouch = calloc(m->nlines, sizeof(*m->dtouch));
		ret = m->itouch != NULL && m->dtouch != NULL ? 0 : -1;
	}
	ret |= cache_init(&m->icache, mem_on ? &cfg->icache : &none, m->nlines);
	ret |= cache_init(&m->dcache, mem_on ? &cfg->dcache : &none, m->nlines);
	if (ret != 0) {
		m->mem_on = 0; /* cm4_done() frees what was had */
	}
	return ret;
}

int cm4_init(struct cm4 *m, const struct cm4_config *cfg)
{
	return init(m, cfg, 1);
}

void cm4_done(struct cm4 *m)
{
	free(m->itouch);
	free(m->dtouch);
	free(m->icache.seen);
	free(m->dcache.seen);
	free(m->icache.slot);
	free(m->dcache.slot);
	m->itouch = m->dtouch = NULL;
	m->icache.seen = m->dcache.seen = NULL;
	m->icache.slot = m->dcache.slot = NULL;
	m->mem_on = 0;
}

/* Flash line of addr, the alias folded onto flash; NO_LINE elsewhere. */
static uint32_t flash_line(const struct cm4_config *c, uint32_t addr)
{
	if (addr >= c->flash_lo && addr < c->flash_hi) {
		return (addr - c->flash_lo) >> c->line_shift;
	}
	if (addr >= c->alias_lo && addr < c->alias_hi &&
	    addr - c->alias_lo < c->flash_hi - c->flash_lo) {
		return (addr - c->alias_lo) >> c->line_shift;
	}
	return NO_LINE;
}

/* Count line once in the open bracket (lines touched). */
static void touch(struct cm4 *m, uint16_t *stamp, uint32_t line,
		  uint64_t *count)
{
	if (stamp != NULL && stamp[line] != m->gen) {
		stamp[line] = m->gen;
		(*count)++;
	}
}

/*
 * Entering a flash line: @return 1 if it is read on demand (a miss: the
 * caller charges the wait states), 0 if something held it. The fetch
 * buffer holds the current line; with prefetch, the next sequential line
 * is ready when execution runs into it; the instruction cache holds lines
 * read before (branch targets, loops): every line the fetch unit enters
 * is looked up in it and kept (the ART's prefetched lines too; RM0090
 * §3.5.2 copies "the line read" into the cache). Without the accelerator
 * (art off) every other line waits.
 */
static unsigned fetch_line(struct cm4 *m, uint32_t line)
{
	int held = 0;

	if (m->open) {
		touch(m, m->itouch, line, &m->t.ilines);
	}
	if (line == m->cur_line) {
		return 0;
	}
	if (m->cfg.art) {
		int seq = m->cur_line != NO_LINE && line == m->cur_line + 1;
		int hit = cache_access(&m->icache, line);

		held = hit || (seq && m->cfg.prefetch);
	}
	m->cur_line = line;
	return held ? 0 : 1;
}

/* The demand line reads of fetching instruction i. */
static unsigned fetch_misses(struct cm4 *m, const struct thumb_insn *i)
{
	uint32_t first, last;
	unsigned miss;

	if (!m->mem_on) {
		return 0;
	}
	first = flash_line(&m->cfg, i->pc);
	if (first == NO_LINE) {
		m->cur_line = NO_LINE; /* running from RAM */
		return 0;
	}
	miss = fetch_line(m, first);
	last = flash_line(&m->cfg, i->pc + i->len - 1u);
	if (last != first && last != NO_LINE) {
		miss += fetch_line(m, last); /* straddles two lines */
	}
	return miss;
}

static int is_branch(const struct thumb_insn *i)
{
	switch (i->cls) {
	case THUMB_BRANCH_IMM:
	case THUMB_BRANCH_REG:
	case THUMB_LOAD_PC:
	case THUMB_TABLE:
		return 1;
	case THUMB_LDM:
		return (i->flags & THUMB_F_WRITES_PC) != 0;
	default:
		return 0;
	}
}

/* P for a taken branch of class cls to next (NULL: unknown target). */
static unsigned refill(const struct cm4 *m, const struct thumb_insn *p,
		       const struct thumb_insn *next)
{
	unsigned r;

	if (p->cls == THUMB_BRANCH_IMM) {
		r = m->cfg.p_imm;
	} else if (p->cls == THUMB_BRANCH_REG) {
		r = m->cfg.p_reg;
	} else {
		r = m->cfg.p_load;
	}
	/* A 32-bit target that is not word aligned needs two fetches. */
	if (next != NULL && (next->flags & THUMB_F_WIDE) && (next->pc & 2u)) {
		r++;
	}
	return r < P_MAX ? r : P_MAX;
}

/*
 * Settle the pending instruction's cost, now that the next one (at
 * next_pc; next may be NULL) shows whether it branched.
 */
static void settle(struct cm4 *m, uint32_t next_pc,
		   const struct thumb_insn *next)
{
	const struct thumb_insn *p = m->pend;
	unsigned lo, hi;
	int executed = 1, taken = 0, pipelined;

	if (p == NULL) {
		return;
	}
	if (is_branch(p)) {
		int cond = (p->flags & THUMB_F_COND) || m->pend_in_it;

		taken = cond ? next_pc != p->pc + p->len : 1;
	}
	if (m->pend_in_it) {
		/* A skipped instruction costs one cycle (TRM 3.3.1). Only a
		 * memory access or a branch shows whether it ran; others
		 * cost the same either way. */
		if (thumb_class_is_memory(p->cls)) {
			executed = m->pend_mem;
		} else if (is_branch(p)) {
			executed = taken;
		}
	}
	/* TRM 3.3.2: an LDR pipelines with a following LDR or STR whose
	 * address does not use the register the LDR loads. */
	pipelined = m->prev_executed && m->prev_cls == THUMB_LOAD &&
		    (p->cls == THUMB_LOAD || p->cls == THUMB_STORE) &&
		    m->prev_rt < 16 && !(p->addr_regs & (1u << m->prev_rt));

	switch (p->cls) {
	case THUMB_DIV:
		lo = DIV_MIN;
		hi = DIV_MAX;
		break;
	case THUMB_SYS:
		lo = 1;
		hi = 2;
		break;
	case THUMB_LOAD:
		lo = hi = pipelined ? 1 : 2;
		break;
	case THUMB_STORE:
		/* STR Rx,[Ry,#imm] is always one cycle (write buffer);
		 * with a register offset 2, or 1 pipelined after an LDR. */
		lo = hi = (p->flags & THUMB_F_IMM_OFFSET) || pipelined ? 1 : 2;
		break;
	case THUMB_LDRD:
	case THUMB_STRD:
		lo = hi = 3; /* 1 + N, N = 2; never pipelined */
		break;
	case THUMB_LDM:
	case THUMB_STM:
		lo = hi = 1u + p->nregs;
		break;
	case THUMB_LOAD_PC:
		lo = hi = 2; /* + P below */
		break;
	case THUMB_TABLE:
		lo = hi = 3; /* load 2, add 1, + P below */
		break;
	default: /* ALU, IT, MUL, barriers, branches before refill */
		lo = hi = 1;
		break;
	}
	if (!executed) {
		lo = hi = 1;
	} else {
		if (taken) {
			unsigned r = refill(m, p, next);

			lo += r;
			hi += r;
		}
		/* TRM 3.3.2: an address computed by the instruction just
		 * before stalls one cycle (no forwarding path). */
		if (m->cfg.agu_stall && thumb_class_is_memory(p->cls) &&
		    m->prev_executed && (p->addr_regs & m->prev_dst)) {
			lo++;
			hi++;
		}
	}
	if (m->pend_in_it && !thumb_class_is_memory(p->cls) && !is_branch(p) &&
	    (p->cls == THUMB_DIV || p->cls == THUMB_SYS)) {
		lo = 1; /* may have been skipped: we cannot tell */
	}
	lo += m->pend_extra;
	hi += m->pend_extra;
	if (m->pend_counted) {
		m->t.cycles += hi;
		m->t.min += lo;
		m->t.max += hi;
		m->t.insns++;
		m->t.flash_stalls += m->pend_extra;
		m->t.imiss += m->pend_imiss;
		m->t.dmiss += m->pend_dmiss;
		if (p->cls == THUMB_DIV) {
			m->t.divides++;
		}
	}
	m->prev_cls = p->cls;
	m->prev_rt = p->rt;
	m->prev_dst = p->cls == THUMB_ALU || p->cls == THUMB_MUL ||
				      p->cls == THUMB_DIV
			      ? p->dst_regs
			      : 0;
	m->prev_executed = executed;
	m->pend = NULL;
}

void cm4_exec(struct cm4 *m, const struct thumb_insn *insn)
{
	int in_it = m->it_left > 0;

	settle(m, insn->pc, insn);
	if (in_it) {
		m->it_left--;
	}
	if (insn->cls == THUMB_IT) {
		m->it_left = insn->it_count;
	}
	m->pend = insn;
	m->pend_counted = m->open;
	m->pend_in_it = in_it;
	m->pend_mem = 0;
	m->pend_imiss = fetch_misses(m, insn);
	m->pend_dmiss = 0;
	m->pend_extra = m->pend_imiss * m->cfg.ws;
}

/*
 * A data read of flash: constants and literal pools read through the D-Code
 * bus; the pipeline waits for them (RM0090 §3.5.2, "Data management"),
 * unless the data cache holds their line. @return 1 on a demand read.
 */
static unsigned data_read(struct cm4 *m, uint32_t addr, int counted)
{
	uint32_t line = flash_line(&m->cfg, addr);

	if (line == NO_LINE) {
		return 0;
	}
	if (counted) {
		touch(m, m->dtouch, line, &m->t.dlines);
	}
	return !m->cfg.art || !cache_access(&m->dcache, line);
}

void cm4_mem(struct cm4 *m, uint32_t addr, int is_store)
{
	if (m->pend == NULL) {
		return;
	}
	m->pend_mem = 1;
	if (is_store || !m->mem_on) {
		return;
	}
	if (data_read(m, addr, m->pend_counted)) {
		m->pend_dmiss++;
		m->pend_extra += m->cfg.ws;
	}
}

void cm4_mem_ahead(struct cm4 *m, uint32_t addr, int is_store)
{
	if (is_store || !m->mem_on) {
		return;
	}
	/* The run is applied with pend_counted = open, and the bracket
	 * cannot change before it is (that takes a counter read). */
	m->ahead_dmiss += data_read(m, addr, m->open);
}

void cm4_open(struct cm4 *m)
{
	memset(&m->t, 0, sizeof(m->t));
	if (++m->gen == 0) { /* 65536 brackets: start the stamps again */
		if (m->itouch != NULL) {
			memset(m->itouch, 0, m->nlines * sizeof(*m->itouch));
			memset(m->dtouch, 0, m->nlines * sizeof(*m->dtouch));
		}
		m->gen = 1;
	}
	m->open = 1;
	m->pend_counted = 0; /* the start marker itself is outside */
}

int cm4_close(struct cm4 *m, struct cm4_totals *out)
{
	if (!m->open) {
		return 0;
	}
	if (m->pend != NULL) {
		settle(m, m->pend->pc + m->pend->len, NULL);
	}
	*out = m->t;
	m->open = 0;
	return 1;
}

/*
 * A run is applied in one step when the rules give the same for its
 * instructions wherever it is entered from:
 * - insn[0] does not access memory, and the cost of an instruction that
 *   does not access memory reads nothing of the one before (the pipelining
 *   and the AGU stall are memory rules), so its settled cost is that of a
 *   scratch model fed the run alone; insn[1..n-2] follow one of the run,
 *   so the scratch model settles them as the model would;
 * - no access before the last is in an IT block (checked here; only a
 *   memory callback tells whether a conditional access ran), so each of
 *   them ran; what it read from flash reaches the model before the run
 *   through cm4_mem_ahead(), and cost does not depend on where else it
 *   went;
 * - the model is not inside an IT block when the run starts (checked at
 *   run time), so the IT state within the run is the scratch model's;
 * - flash lines: a run lies wholly in flash or wholly elsewhere (checked
 *   here); in flash, its lines after insn[0]'s are known, and only the
 *   caches' answers are left to run time (fetch_line()), asked in the same
 *   order as instruction by instruction, so the caches end the same.
 */
int cm4_run_prepare(const struct cm4 *m, struct cm4_run *r,
		    const struct thumb_insn *const *insn, size_t n,
		    uint32_t *line)
{
	struct cm4 scratch;
	uint32_t cur;
	unsigned it_left;
	size_t i;

	memset(r, 0, sizeof(*r));
	if (n == 0) {
		return -1;
	}
	r->insn = insn;
	r->n = n;
	r->line = line;
	r->fast = 1;
	/* insn[0]'s cost, settled by the scratch model, must not depend on
	 * the instruction before the run: no memory rule for it. */
	if (n > 1 && thumb_class_is_memory(insn[0]->cls)) {
		r->fast = 0;
	}
	/* An access before the last inside an IT block: whether it ran is
	 * known only from its memory callback, which comes after the run. */
	for (i = 0, it_left = 0; i + 1 < n; i++) {
		int in_it = it_left > 0;

		it_left -= in_it;
		if (insn[i]->cls == THUMB_IT) {
			it_left = insn[i]->it_count;
		}
		if (in_it && thumb_class_is_memory(insn[i]->cls)) {
			return -1;
		}
	}
	cur = NO_LINE;
	for (i = 0; i < n && r->fast && m->mem_on; i++) {
		uint32_t first = flash_line(&m->cfg, insn[i]->pc);
		uint32_t last =
			flash_line(&m->cfg, insn[i]->pc + insn[i]->len - 1u);

		if (i == 0) {
			r->ram = first == NO_LINE && last == NO_LINE;
		}
		if (r->ram) {
			if (first != NO_LINE || last != NO_LINE) {
				r->fast = 0; /* from RAM into flash */
			}
			continue;
		}
		if (first == NO_LINE || last == NO_LINE) {
			r->fast = 0; /* from flash into RAM */
			break;
		}
		if (i == 0) {
			cur = last; /* cm4_exec() fetches insn[0] */
			continue;
		}
		if (first != cur) {
			line[r->nlines++] = first;
			r->nlines_last += i + 1 == n;
		}
		if (last != first) {
			line[r->nlines++] = last;
			r->nlines_last += i + 1 == n;
		}
		cur = last;
	}
	if (!r->fast) {
		r->nlines = r->nlines_last = 0;
		return 0;
	}
	init(&scratch, &m->cfg, 0); /* the core's rules alone: no memory */
	scratch.open = 1;
	for (i = 0; i < n; i++) {
		cm4_exec(&scratch, insn[i]);
	}
	r->t = scratch.t;
	r->prev_cls = scratch.prev_cls;
	r->prev_rt = scratch.prev_rt;
	r->prev_dst = scratch.prev_dst;
	r->prev_executed = scratch.prev_executed;
	r->it_left = scratch.it_left;
	r->last_in_it = scratch.pend_in_it;
	return 0;
}

static void add_stall(struct cm4_totals *t, unsigned s)
{
	t->cycles += s;
	t->min += s;
	t->max += s;
	t->flash_stalls += s;
}

/* The data lines the run's accesses before its last read on demand. */
static void settle_ahead(struct cm4 *m)
{
	if (m->ahead_dmiss != 0 && m->pend_counted) {
		m->t.dmiss += m->ahead_dmiss;
		add_stall(&m->t, m->ahead_dmiss * m->cfg.ws);
	}
	m->ahead_dmiss = 0;
}

void cm4_exec_prefix(struct cm4 *m, const struct cm4_run *r, size_t k)
{
	size_t i;

	for (i = 0; i < k && i < r->n; i++) {
		cm4_exec(m, r->insn[i]);
	}
	settle_ahead(m);
}

void cm4_exec_run(struct cm4 *m, const struct cm4_run *r)
{
	unsigned extra = 0, mid = 0;
	size_t i;

	if (!r->fast || m->it_left != 0) {
		cm4_exec_prefix(m, r, r->n);
		return;
	}
	cm4_exec(m, r->insn[0]);
	if (r->n == 1) {
		settle_ahead(m);
		return;
	}
	/* insn[0]'s own misses are settled with it, by insn[1] */
	mid = m->pend_imiss;
	for (i = 0; i < r->nlines; i++) {
		unsigned s = fetch_line(m, r->line[i]);

		if (i + r->nlines_last < r->nlines) {
			mid += s;
		} else {
			extra += s;
		}
	}
	if (m->pend_counted) {
		m->t.cycles += r->t.cycles;
		m->t.min += r->t.min;
		m->t.max += r->t.max;
		m->t.insns += r->t.insns;
		m->t.divides += r->t.divides;
		m->t.flash_stalls += r->t.flash_stalls;
		add_stall(&m->t, mid * m->cfg.ws);
		m->t.imiss += mid;
	}
	settle_ahead(m);
	m->prev_cls = r->prev_cls;
	m->prev_rt = r->prev_rt;
	m->prev_dst = r->prev_dst;
	m->prev_executed = r->prev_executed;
	m->it_left = r->it_left;
	m->pend = r->insn[r->n - 1];
	m->pend_counted = m->open;
	m->pend_in_it = r->last_in_it;
	m->pend_mem = 0;
	m->pend_imiss = extra;
	m->pend_dmiss = 0;
	m->pend_extra = extra * m->cfg.ws;
}
