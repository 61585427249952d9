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

static int is_memory(unsigned cls)
{
	switch (cls) {
	case THUMB_LOAD:
	case THUMB_STORE:
	case THUMB_LDRD:
	case THUMB_STRD:
	case THUMB_LDM:
	case THUMB_STM:
	case THUMB_LOAD_PC:
	case THUMB_TABLE:
		return 1;
	default:
		return 0;
	}
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
		if (is_memory(p->cls)) {
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
		if (m->cfg.agu_stall && is_memory(p->cls) && m->prev_executed &&
		    (p->addr_regs & m->prev_dst)) {
			lo++;
			hi++;
		}
	}
	if (m->pend_in_it && !is_memory(p->cls) && !is_branch(p) &&
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
