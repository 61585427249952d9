/* cm4: Cortex-M4 instruction timing (ARM DDI 0439 section 3.3) and STM32F4 flash wait states, applied to an executed instruction stream. */
#include "cm4.h"

#include <string.h>

#define NO_LINE	   0xffffffffu
#define LINE_SHIFT 4  /* flash lines of 128 bits (RM0368 3.4, 3.5.2) */
#define P_MAX	   3u /* TRM 3.3.1: P ranges from 1 to 3 */
#define DIV_MIN	   2u /* TRM Table 3-1: SDIV, UDIV 2 to 12 */
#define DIV_MAX	   12u

void cm4_config_default(struct cm4_config *c)
{
	memset(c, 0, sizeof(*c));
	c->ws = 0;
	c->art = 1;
	c->agu_stall = 1;
	c->p_imm = 1;
	c->p_reg = 2;
	c->p_load = 3;
	c->flash_lo = 0x08000000u;
	c->flash_hi = 0x08100000u;
	c->alias_lo = 0x00000000u;
	c->alias_hi = 0x00100000u;
}

static void cache_init(struct cm4_line_cache *c, unsigned n)
{
	memset(c, 0, sizeof(*c));
	c->n = n;
	for (unsigned i = 0; i < n; i++) {
		c->tag[i] = NO_LINE;
	}
}

/* Fully associative, least recently used: @return 1 on a hit. */
static int cache_access(struct cm4_line_cache *c, uint32_t line)
{
	unsigned i, victim = 0;
	unsigned h = line % CM4_CACHE_HINTS;

	c->clock++;
	i = c->hint[h];
	if (i < c->n && c->tag[i] == line) {
		c->age[i] = c->clock;
		return 1;
	}
	for (i = 0; i < c->n; i++) {
		if (c->tag[i] == line) {
			c->age[i] = c->clock;
			c->hint[h] = (uint8_t)i;
			return 1;
		}
		if (c->age[i] < c->age[victim]) {
			victim = i;
		}
	}
	c->tag[victim] = line;
	c->age[victim] = c->clock;
	c->hint[h] = (uint8_t)victim;
	return 0;
}

void cm4_init(struct cm4 *m, const struct cm4_config *cfg)
{
	memset(m, 0, sizeof(*m));
	m->cfg = *cfg;
	m->prev_rt = 0xff;
	m->cur_line = NO_LINE;
	cache_init(&m->icache, CM4_ICACHE_LINES);
	cache_init(&m->dcache, CM4_DCACHE_LINES);
}

/* Flash line of addr, the alias folded onto flash; NO_LINE elsewhere. */
static uint32_t flash_line(const struct cm4_config *c, uint32_t addr)
{
	if (addr >= c->flash_lo && addr < c->flash_hi) {
		return (addr - c->flash_lo) >> LINE_SHIFT;
	}
	if (addr >= c->alias_lo && addr < c->alias_hi) {
		return (addr - c->alias_lo) >> LINE_SHIFT;
	}
	return NO_LINE;
}

/*
 * Wait states of fetching one line. The fetch buffer holds the current
 * line; with ART on, the prefetcher has the next line ready when execution
 * runs into it, and the instruction cache holds lines fetched before
 * (branch targets, loops). Anything else waits ws cycles.
 */
static unsigned fetch_line(struct cm4 *m, uint32_t line)
{
	unsigned stall = 0;

	if (line == m->cur_line) {
		return 0;
	}
	if (m->cfg.art) {
		int seq = m->cur_line != NO_LINE && line == m->cur_line + 1;
		int hit = cache_access(&m->icache, line);

		if (!seq && !hit) {
			stall = m->cfg.ws;
		}
	} else {
		stall = m->cfg.ws;
	}
	m->cur_line = line;
	return stall;
}

static unsigned fetch_stall(struct cm4 *m, const struct thumb_insn *i)
{
	uint32_t first, last;
	unsigned stall;

	if (m->cfg.ws == 0) {
		return 0;
	}
	first = flash_line(&m->cfg, i->pc);
	if (first == NO_LINE) {
		m->cur_line = NO_LINE; /* running from RAM */
		return 0;
	}
	stall = fetch_line(m, first);
	last = flash_line(&m->cfg, i->pc + i->len - 1u);
	if (last != first && last != NO_LINE) {
		stall += fetch_line(m, last); /* straddles two lines */
	}
	return stall;
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
	m->pend_extra = fetch_stall(m, insn);
}

void cm4_mem(struct cm4 *m, uint32_t addr, int is_store)
{
	uint32_t line;

	if (m->pend == NULL) {
		return;
	}
	m->pend_mem = 1;
	if (is_store || m->cfg.ws == 0) {
		return;
	}
	/* Constants and literal pools read from flash through the D-bus:
	 * the ART data cache holds 8 lines. */
	line = flash_line(&m->cfg, addr);
	if (line == NO_LINE) {
		return;
	}
	if (!m->cfg.art || !cache_access(&m->dcache, line)) {
		m->pend_extra += m->cfg.ws;
	}
}

void cm4_open(struct cm4 *m)
{
	memset(&m->t, 0, sizeof(m->t));
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
 * - insn[0..n-2] do not access memory (the plugin ends a run at the first
 *   memory access), and the cost of an instruction that does not access
 *   memory reads nothing of the one before (the pipelining and the AGU
 *   stall are memory rules), so their settled costs are those of a scratch
 *   model fed the run alone;
 * - the model is not inside an IT block when the run starts (checked at
 *   run time), so the IT state within the run is the scratch model's;
 * - fetch stalls: at 0 wait states there are none; otherwise the run lies
 *   in flash (checked here), its lines after insn[0]'s are known, and only
 *   the line cache's answer is left to run time (fetch_line()).
 */
int cm4_run_prepare(const struct cm4 *m, struct cm4_run *r,
		    const struct thumb_insn *const *insn, size_t n,
		    uint32_t *line)
{
	struct cm4 scratch;
	uint32_t cur;
	size_t i;

	memset(r, 0, sizeof(*r));
	if (n == 0) {
		return -1;
	}
	r->insn = insn;
	r->n = n;
	r->line = line;
	r->fast = 1;
	for (i = 0; i + 1 < n; i++) {
		if (thumb_class_is_memory(insn[i]->cls)) {
			r->fast = 0;
		}
	}
	cur = NO_LINE;
	for (i = 0; i < n && r->fast && m->cfg.ws != 0; i++) {
		uint32_t first = flash_line(&m->cfg, insn[i]->pc);
		uint32_t last =
			flash_line(&m->cfg, insn[i]->pc + insn[i]->len - 1u);

		if (first == NO_LINE || last == NO_LINE) {
			r->fast = 0; /* RAM, or across its edge */
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
	cm4_init(&scratch, &m->cfg);
	scratch.cfg.ws = 0;
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

void cm4_exec_run(struct cm4 *m, const struct cm4_run *r)
{
	unsigned extra = 0, mid = 0;
	size_t i;

	if (!r->fast || m->it_left != 0) {
		for (i = 0; i < r->n; i++) {
			cm4_exec(m, r->insn[i]);
		}
		return;
	}
	cm4_exec(m, r->insn[0]);
	if (r->n == 1) {
		return;
	}
	/* insn[0]'s own stall is settled with it, by insn[1] */
	mid = m->pend_extra;
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
		add_stall(&m->t, mid);
	}
	m->prev_cls = r->prev_cls;
	m->prev_rt = r->prev_rt;
	m->prev_dst = r->prev_dst;
	m->prev_executed = r->prev_executed;
	m->it_left = r->it_left;
	m->pend = r->insn[r->n - 1];
	m->pend_counted = m->open;
	m->pend_in_it = r->last_in_it;
	m->pend_mem = 0;
	m->pend_extra = extra;
}
