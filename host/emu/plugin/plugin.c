/* plugin: the QEMU TCG plugin that runs the Cortex-M4 timing model on the emulated stub and writes one record per timed region. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cm4.h"
#include "../../drivers/board/memsys.h"
#include "qemu_api.h"
#include "thumb.h"

/*
 * Arguments (QEMU 7.2: -plugin FILE,ws=2,art=on,out=PATH, each "k=v"
 * reaches qemu_plugin_install as one argv string; the older
 * "arg=k=v" spelling is accepted too):
 *   out=PATH        record file, appended to (required)
 *   profile=NAME    the memory system (memsys.c; default stm32f401-art at
 *                   0 WS); ws= and art= below override it, in any order
 *   ws=N            flash wait states, 0..15 (default: the profile's)
 *   art=on|off      the profile's prefetch and caches on, or all off
 *   agu=on|off      address-generation stall of TRM 3.3.2 (default on)
 *   pimm=,preg=,pload=  pipeline refill P per branch kind (1, 2, 3)
 *   counter=ADDR    the counter register whose reads bracket (TIM2_CNT)
 *   range=LO-HI     only reads from code in [LO, HI), or from a function
 *                   called from there, bracket (the stub's timed())
 *   attr=PATH       a file of code ranges, one "LO HI [CLASS]" (hex, then
 *                   an optional word of letters and digits) a line: the
 *                   cycles of instructions there are also summed apart,
 *                   as attr=N in each record, and per class as
 *                   attr.CLASS=N (at most ATTR_CLASSES classes; hilrun pq:
 *                   the cycles in SHA-2, SHA-3 and AES code, classes sha2,
 *                   sha3, aes). mode=tb attributes a segment
 *                   by its first instruction's address, and the model
 *                   settles an instruction's cost when the next one
 *                   comes, so a range's figure is within one instruction
 *                   per segment boundary of the exact sum.
 *   mode=tb|insn    tb (default): one callback per segment of a
 *                   translation block (to its end, or to an access that
 *                   may be in an IT block: struct segment), its rules
 *                   settled at translation (cm4_run_prepare); insn: one
 *                   callback per instruction,
 *                   the reference the tests compare tb against. Both give
 *                   the same records (docs/cycle-model.md, "Speed").
 *
 * Brackets: the stub reads the counter before and after the measured
 * call. A read of `counter` by an instruction in `range` (or in a function
 * whose caller's last call came from `range`: hal_counter_read() when it
 * is not inlined) opens a bracket if none is open and closes it otherwise.
 * The model counts from the instruction after the opening read to the
 * closing read inclusive, which is what the emulated counter counts, so the
 * record's insns equals the stub's instruction count for the same region.
 *
 * Records, one line each, flushed as written:
 *   # hilrun-cyclemodel 1 ws=0 art=on agu=on p=1/2/3 ...   (at load)
 *   B seq=1 cycles=N min=N max=N insns=N div=N flash=N imiss=N dmiss=N
 *     ilines=N dlines=N [attr=N [attr.CLASS=N]...]            (per bracket)
 *   # exit brackets=N insns=N                                (at exit)
 */

#define DEFAULT_COUNTER 0x40000024u /* TIM2_CNT (RM0090 18.4.10) */
#define MAX_WS		15u
/* Named classes of attr= ranges, and the longest name. */
#define ATTR_CLASSES	8
#define ATTR_NAME	16

struct entry {
	struct thumb_insn d;
	uint32_t raw; /* the opcode it was decoded from */
	struct entry *next_alloc;
};

/*
 * mode=tb: a segment is the instructions of a translation block from one
 * that starts it, or follows a segment's end, up to the next memory access
 * that may be in an IT block (whether a conditional access ran, only its
 * memory callback says) or that starts the segment, or to the block's end.
 * Its other accesses stay inside: the model gets them first
 * (cm4_mem_ahead(): only a flash read costs anything there) and the segment
 * itself at the next callback after its own (deferred). QEMU leaves a
 * block early only at a memory access: a fault (the run is lost anyway),
 * or, with -icount, an I/O access that it re-executes alone in a block of
 * its own (CF_MEMI_ONLY: no execution callback there, only the memory
 * callback, through that block's own access record); the model then takes
 * the segment up to that access only, and what follows comes with the
 * next block.
 */
struct segment {
	struct segment *next_alloc;
	struct cm4_run run; /* the rules settled at translation */
	int has_call;
	uint32_t call_pc; /* the last call in the segment */
	const struct thumb_insn *d[];
	/* then the run's line buffer */
};

/* A memory instruction of one translation: the udata of its callback. */
struct access {
	struct access *next_alloc;
	struct entry *e;
	struct segment *seg; /* NULL in mode=insn */
	size_t idx;	     /* its place in seg */
	int store;
};

static struct {
	struct cm4 model;
	const struct cm4_memsys *profile; /* NULL: the default */
	FILE *out;
	uint32_t counter;
	uint32_t range_lo, range_hi; /* 0, 0: any read brackets */
	/* attr=: sorted code ranges whose cycles are summed apart */
	struct attr_range {
		uint32_t lo, hi;
		int cls; /* index into attr_name, or -1: no class */
	} * attr;
	size_t nattr;
	int has_attr;
	uint64_t attr_cycles; /* of the open bracket */
	char attr_name[ATTR_CLASSES][ATTR_NAME];
	size_t nclasses;
	uint64_t attr_cls[ATTR_CLASSES]; /* of the open bracket, per class */
	uint32_t last_call_pc;
	uint64_t seq;
	uint64_t insns_total;
	int per_insn; /* mode=insn */
	/* pc -> entry, open addressing */
	struct entry **slots;
	size_t nslots, used;
	struct entry *all;    /* every entry ever made, freed at exit */
	struct segment *segs; /* likewise; a flushed TB's may still run */
	struct access *accs;  /* likewise */
	/* mode=tb: the segment whose callback came last, not yet given to
	 * the model (its accesses may still come, or cut it short) */
	struct segment *deferred;
} g;

/*
 * "cyclemodel: <msg><what>" on QEMU's stderr (the flasher keeps it in
 * qemu.log) and in QEMU's own log: qemu_plugin_outs() alone is shown only
 * with `-d plugin`.
 */
static void say(const char *msg, const char *what)
{
	char buf[512];

	snprintf(buf, sizeof(buf), "cyclemodel: %s%s\n", msg, what);
	fputs(buf, stderr);
	qemu_plugin_outs(buf);
}

static size_t slot_of(uint32_t pc, size_t nslots)
{
	return (size_t)((pc >> 1) * 2654435761u) & (nslots - 1);
}

static int table_grow(void)
{
	size_t n = g.nslots ? g.nslots * 2 : 4096, i;
	struct entry **s = calloc(n, sizeof(*s));

	if (s == NULL) {
		return -1;
	}
	for (i = 0; i < g.nslots; i++) {
		struct entry *e = g.slots[i];
		size_t j;

		if (e == NULL) {
			continue;
		}
		for (j = slot_of(e->d.pc, n); s[j] != NULL;
		     j = (j + 1) & (n - 1)) {
		}
		s[j] = e;
	}
	free(g.slots);
	g.slots = s;
	g.nslots = n;
	return 0;
}

/*
 * The decoded instruction at pc. Decoded once per address and kept for the
 * whole run, so that QEMU's retranslations (of a TB flushed, or of an I/O
 * instruction alone) find the same entry; a different opcode at the same
 * address gets a new one (the old one may still be referenced).
 */
static struct entry *lookup(uint32_t pc, const uint8_t *bytes, size_t n)
{
	uint32_t raw = 0;
	struct entry *e;
	size_t j, k;

	for (k = 0; k < n && k < 4; k++) {
		raw |= (uint32_t)bytes[k] << (8 * k);
	}
	if (2 * (g.used + 1) > g.nslots && table_grow() != 0) {
		return NULL;
	}
	for (j = slot_of(pc, g.nslots); g.slots[j] != NULL;
	     j = (j + 1) & (g.nslots - 1)) {
		if (g.slots[j]->d.pc == pc) {
			if (g.slots[j]->raw == raw) {
				return g.slots[j];
			}
			break; /* replaced below */
		}
	}
	e = calloc(1, sizeof(*e));
	if (e == NULL) {
		return NULL;
	}
	if (thumb_decode(bytes, n, pc, &e->d) == 0) {
		e->d.pc = pc;
		e->d.len = (uint8_t)n;
	}
	e->raw = raw;
	e->next_alloc = g.all;
	g.all = e;
	if (g.slots[j] == NULL) {
		g.used++;
	}
	g.slots[j] = e;
	return e;
}

static int in_range(uint32_t pc)
{
	return pc >= g.range_lo && pc < g.range_hi;
}

/* The attr= range pc lies in (binary search), or NULL. */
static const struct attr_range *in_attr(uint32_t pc)
{
	size_t lo = 0, hi = g.nattr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (pc < g.attr[mid].lo) {
			hi = mid;
		} else if (pc >= g.attr[mid].hi) {
			lo = mid + 1;
		} else {
			return &g.attr[mid];
		}
	}
	return NULL;
}

/* cycles spent in range a: to the total and to a's class. */
static void attribute(const struct attr_range *a, uint64_t cycles)
{
	g.attr_cycles += cycles;
	if (a->cls >= 0) {
		g.attr_cls[a->cls] += cycles;
	}
}

static void on_exec(unsigned int vcpu, void *udata)
{
	struct entry *e = udata;
	uint64_t before = g.model.t.cycles;
	const struct attr_range *a;

	(void)vcpu;
	cm4_exec(&g.model, &e->d);
	a = g.has_attr ? in_attr(e->d.pc) : NULL;
	if (a != NULL) {
		attribute(a, g.model.t.cycles - before);
	}
	g.insns_total++;
	if (e->d.flags & THUMB_F_CALL) {
		g.last_call_pc = e->d.pc;
	}
}

/* The model takes the first k instructions of segment s. */
static void apply(const struct segment *s, size_t k)
{
	uint64_t before = g.model.t.cycles;
	const struct attr_range *a =
		g.has_attr && s->run.n > 0 ? in_attr(s->d[0]->pc) : NULL;

	if (k < s->run.n) {
		cm4_exec_prefix(&g.model, &s->run, k);
	} else {
		cm4_exec_run(&g.model, &s->run);
		if (s->has_call) {
			g.last_call_pc = s->call_pc; /* read by on_mem only */
		}
		k = s->run.n;
	}
	g.insns_total += k;
	if (a != NULL) {
		attribute(a, g.model.t.cycles - before);
	}
}

static void flush(void)
{
	if (g.deferred != NULL) {
		apply(g.deferred, g.deferred->run.n);
		g.deferred = NULL;
	}
}

static void on_segment(unsigned int vcpu, void *udata)
{
	(void)vcpu;
	flush();
	g.deferred = udata;
}

/* A segment for up to max instructions, none in it yet. */
static struct segment *segment_new(size_t max)
{
	struct segment *s = calloc(1, sizeof(*s) + max * sizeof(s->d[0]) +
					      2 * max * sizeof(uint32_t));

	if (s == NULL) {
		say("out of memory", "");
		abort();
	}
	s->next_alloc = g.segs;
	g.segs = s;
	return s;
}

static void segment_done(struct segment *s, size_t n,
			 struct qemu_plugin_insn *first)
{
	uint32_t *line = (uint32_t *)(void *)&s->d[n];

	if (cm4_run_prepare(&g.model, &s->run, s->d, n, line) != 0) {
		say("a segment with an access in an IT block before its end",
		    "");
		abort(); /* on_tb_trans() ends a segment there */
	}
	qemu_plugin_register_vcpu_insn_exec_cb(first, on_segment,
					       QEMU_PLUGIN_CB_NO_REGS, s);
}

static void write_record(const struct cm4_totals *t)
{
	g.seq++;
	fprintf(g.out,
		"B seq=%" PRIu64 " cycles=%" PRIu64 " min=%" PRIu64
		" max=%" PRIu64 " insns=%" PRIu64 " div=%" PRIu64
		" flash=%" PRIu64 " imiss=%" PRIu64 " dmiss=%" PRIu64
		" ilines=%" PRIu64 " dlines=%" PRIu64,
		g.seq, t->cycles, t->min, t->max, t->insns, t->divides,
		t->flash_stalls, t->imiss, t->dmiss, t->ilines, t->dlines);
	if (g.has_attr) {
		size_t i;

		fprintf(g.out, " attr=%" PRIu64, g.attr_cycles);
		for (i = 0; i < g.nclasses; i++) {
			fprintf(g.out, " attr.%s=%" PRIu64, g.attr_name[i],
				g.attr_cls[i]);
		}
	}
	fputc('\n', g.out);
	fflush(g.out);
}

/*
 * An access of the deferred segment s by its own block: one before its last
 * gives the model its data read and waits for the segment; the last lets
 * the segment go first. An access of s's instructions by another block
 * (QEMU re-executing an I/O access alone) cuts s after it. @return 1 when
 * the access is done with.
 */
static int deferred_access(struct segment *s, const struct access *a,
			   uint32_t addr)
{
	size_t k = s->run.n, j;

	if (a->seg == s && a->idx + 1 < s->run.n) {
		if (!a->store && addr == g.counter) {
			say("a counter read ran inside a block: QEMU must run "
			    "with -icount",
			    "");
			abort(); /* the bracket would be wrong */
		}
		cm4_mem_ahead(&g.model, addr, a->store);
		return 1;
	}
	for (j = 0; a->seg != s && j + 1 < s->run.n; j++) {
		if (s->d[j] == &a->e->d) {
			k = j + 1;
			break;
		}
	}
	g.deferred = NULL;
	apply(s, k);
	return 0;
}

static void on_mem(unsigned int vcpu, qemu_plugin_meminfo_t info,
		   uint64_t vaddr, void *udata)
{
	const struct access *a = udata;
	const struct entry *e = a->e;
	struct cm4_totals t;

	(void)vcpu;
	(void)info;
	if (g.deferred != NULL &&
	    deferred_access(g.deferred, a, (uint32_t)vaddr)) {
		return;
	}
	if (g.model.pend != &e->d) {
		return; /* not the instruction the model is on */
	}
	cm4_mem(&g.model, (uint32_t)vaddr, a->store);
	if (a->store || (uint32_t)vaddr != g.counter) {
		return;
	}
	if (g.range_hi != 0 && !in_range(e->d.pc) &&
	    !in_range(g.last_call_pc)) {
		return;
	}
	if (!g.model.open) {
		cm4_open(&g.model);
		g.attr_cycles = 0;
		memset(g.attr_cls, 0, sizeof(g.attr_cls));
	} else if (cm4_close(&g.model, &t)) {
		write_record(&t);
	}
}

static int is_store(unsigned cls)
{
	return cls == THUMB_STORE || cls == THUMB_STRD || cls == THUMB_STM;
}

/* The memory callback of e, the idx-th instruction of segment seg. */
static void watch(struct qemu_plugin_insn *insn, struct entry *e,
		  struct segment *seg, size_t idx)
{
	struct access *a = calloc(1, sizeof(*a));

	if (a == NULL) {
		say("out of memory", "");
		abort();
	}
	a->e = e;
	a->seg = seg;
	a->idx = idx;
	a->store = is_store(e->d.cls);
	a->next_alloc = g.accs;
	g.accs = a;
	qemu_plugin_register_vcpu_mem_cb(insn, on_mem, QEMU_PLUGIN_CB_NO_REGS,
					 QEMU_PLUGIN_MEM_RW, a);
}

static struct entry *entry_of(struct qemu_plugin_insn *insn)
{
	const uint8_t *data = qemu_plugin_insn_data(insn);
	size_t len = qemu_plugin_insn_size(insn);
	uint32_t pc = (uint32_t)qemu_plugin_insn_vaddr(insn);
	struct entry *e = lookup(pc, data, len);

	if (e == NULL) {
		say("out of memory", "");
		abort(); /* a silently wrong count is worse */
	}
	return e;
}

/*
 * The first 4 instructions of a block may be in an IT block begun before it
 * (an IT's block is at most 4 long); later ones only in the block of an IT
 * seen in it.
 */
#define IT_MAX 4u

static void on_tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t i, n = qemu_plugin_tb_n_insns(tb), k = 0, it_end = IT_MAX;
	struct qemu_plugin_insn *first = NULL;
	struct segment *s = NULL;

	(void)id;
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		struct entry *e = entry_of(insn);
		int mem = thumb_class_is_memory(e->d.cls), end;

		if (g.per_insn) {
			if (mem) {
				watch(insn, e, NULL, 0);
			}
			qemu_plugin_register_vcpu_insn_exec_cb(
				insn, on_exec, QEMU_PLUGIN_CB_NO_REGS, e);
			continue;
		}
		if (s == NULL) {
			s = segment_new(n - i);
			first = insn;
			k = 0;
		}
		s->d[k++] = &e->d;
		if (e->d.flags & THUMB_F_CALL) {
			s->has_call = 1;
			s->call_pc = e->d.pc;
		}
		end = i + 1 == n || (mem && (i < it_end || k == 1));
		/* A store before the segment's end needs no callback: it
		 * reads no flash, and QEMU re-executing it as I/O does so
		 * through a block of its own, where it is the last. */
		if (mem && (end || !is_store(e->d.cls))) {
			watch(insn, e, s, k - 1);
		}
		if (e->d.cls == THUMB_IT && i + 1 + e->d.it_count > it_end) {
			it_end = i + 1 + e->d.it_count;
		}
		if (end) {
			segment_done(s, k, first);
			s = NULL;
		}
	}
}

static void on_qemu_exit(qemu_plugin_id_t id, void *udata)
{
	struct entry *e, *next;

	(void)id;
	(void)udata;
	flush();
	if (g.out != NULL) {
		fprintf(g.out,
			"# exit brackets=%" PRIu64 " insns=%" PRIu64 "%s\n",
			g.seq, g.insns_total, g.model.open ? " open=1" : "");
		fclose(g.out);
		g.out = NULL;
	}
	for (e = g.all; e != NULL; e = next) {
		next = e->next_alloc;
		free(e);
	}
	g.all = NULL;
	while (g.segs != NULL) {
		struct segment *s = g.segs;

		g.segs = s->next_alloc;
		free(s);
	}
	while (g.accs != NULL) {
		struct access *a = g.accs;

		g.accs = a->next_alloc;
		free(a);
	}
	free(g.slots);
	g.slots = NULL;
	free(g.attr);
	g.attr = NULL;
	cm4_done(&g.model);
}

static int parse_u32(const char *s, uint32_t *v)
{
	char *end;
	unsigned long x;

	errno = 0;
	x = strtoul(s, &end, 0);
	if (errno != 0 || end == s || *end != '\0' || x > 0xffffffffUL) {
		return -1;
	}
	*v = (uint32_t)x;
	return 0;
}

static int parse_onoff(const char *s, int *v)
{
	if (strcmp(s, "on") == 0 || strcmp(s, "1") == 0 ||
	    strcmp(s, "true") == 0) {
		*v = 1;
	} else if (strcmp(s, "off") == 0 || strcmp(s, "0") == 0 ||
		   strcmp(s, "false") == 0) {
		*v = 0;
	} else {
		return -1;
	}
	return 0;
}

static int parse_range(const char *s, uint32_t *lo, uint32_t *hi)
{
	char buf[64], *dash;

	if (strlen(s) >= sizeof(buf)) {
		return -1;
	}
	strcpy(buf, s);
	dash = strchr(buf, '-');
	if (dash == NULL) {
		return -1;
	}
	*dash = '\0';
	if (parse_u32(buf, lo) != 0 || parse_u32(dash + 1, hi) != 0 ||
	    *hi <= *lo) {
		return -1;
	}
	return 0;
}

static int attr_cmp(const void *a, const void *b)
{
	const struct attr_range *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* The index of class name (letters and digits), added when new; -1 when
 * the name is not one or there are ATTR_CLASSES already. */
static int attr_class(const char *name)
{
	size_t i;

	if (name[0] == '\0' || strlen(name) >= ATTR_NAME) {
		return -1;
	}
	for (i = 0; name[i] != '\0'; i++) {
		if (!((name[i] >= 'a' && name[i] <= 'z') ||
		      (name[i] >= 'A' && name[i] <= 'Z') ||
		      (name[i] >= '0' && name[i] <= '9'))) {
			return -1;
		}
	}
	for (i = 0; i < g.nclasses; i++) {
		if (strcmp(g.attr_name[i], name) == 0) {
			return (int)i;
		}
	}
	if (g.nclasses == ATTR_CLASSES) {
		return -1;
	}
	snprintf(g.attr_name[g.nclasses], ATTR_NAME, "%s", name);
	return (int)g.nclasses++;
}

/* attr=PATH: "LO HI [CLASS]" lines, hex; sorted here. @return 0 or -1. */
static int load_attr(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[128], name[64];
	unsigned long lo, hi;
	size_t cap = 0;
	int cls;

	if (f == NULL) {
		return -1;
	}
	while (fgets(line, sizeof(line), f) != NULL) {
		int got = sscanf(line, "%lx %lx %63s", &lo, &hi, name);

		if (got < 2) {
			continue; /* a blank line */
		}
		cls = got == 3 ? attr_class(name) : -1;
		if (hi <= lo || hi > 0xffffffffUL || (got == 3 && cls < 0)) {
			fclose(f);
			return -1;
		}
		if (g.nattr == cap) {
			struct attr_range *n;

			cap = cap ? 2 * cap : 64;
			n = realloc(g.attr, cap * sizeof(*n));
			if (n == NULL) {
				fclose(f);
				return -1;
			}
			g.attr = n;
		}
		g.attr[g.nattr].lo = (uint32_t)lo;
		g.attr[g.nattr].hi = (uint32_t)hi;
		g.attr[g.nattr].cls = cls;
		g.nattr++;
	}
	fclose(f);
	qsort(g.attr, g.nattr, sizeof(*g.attr), attr_cmp);
	g.has_attr = 1;
	return 0;
}

static int parse_arg(const char *arg, struct cm4_config *c, const char **out)
{
	const char *v = strchr(arg, '=');
	size_t klen;
	uint32_t x;

	if (strncmp(arg, "arg=", 4) == 0) {
		return parse_arg(arg + 4, c, out); /* the pre-6.1 spelling */
	}
	if (v == NULL) {
		return -1;
	}
	klen = (size_t)(v - arg);
	v++;
#define KEY(k) (klen == strlen(k) && strncmp(arg, k, klen) == 0)
	if (KEY("out")) {
		*out = v;
		return *v != '\0' ? 0 : -1;
	}
	if (KEY("profile")) {
		return g.profile == cm4_memsys_find(v) ? 0
						       : -1; /* first pass */
	}
	if (KEY("ws")) {
		if (parse_u32(v, &x) != 0 || x > MAX_WS) {
			return -1;
		}
		c->ws = x;
		return 0;
	}
	if (KEY("art")) {
		return parse_onoff(v, &c->art);
	}
	if (KEY("agu")) {
		return parse_onoff(v, &c->agu_stall);
	}
	if (KEY("pimm") || KEY("preg") || KEY("pload")) {
		if (parse_u32(v, &x) != 0 || x < 1 || x > 3) {
			return -1;
		}
		*(KEY("pimm")	? &c->p_imm
		  : KEY("preg") ? &c->p_reg
				: &c->p_load) = x;
		return 0;
	}
	if (KEY("counter")) {
		return parse_u32(v, &g.counter);
	}
	if (KEY("range")) {
		return parse_range(v, &g.range_lo, &g.range_hi);
	}
	if (KEY("attr")) {
		return load_attr(v);
	}
	if (KEY("mode")) {
		if (strcmp(v, "insn") == 0 || strcmp(v, "tb") == 0) {
			g.per_insn = strcmp(v, "insn") == 0;
			return 0;
		}
		return -1;
	}
#undef KEY
	return -1;
}

/* "64x16/64" (lines x bytes / ways), "unbounded x16", "none". */
static void geom(char *buf, size_t len, const struct cm4_cache_geom *c,
		 unsigned line_shift)
{
	if (c->lines == 0) {
		snprintf(buf, len, "none");
	} else if (c->lines == CM4_CACHE_UNBOUNDED) {
		snprintf(buf, len, "unboundedx%u", 1u << line_shift);
	} else {
		snprintf(buf, len, "%ux%u/%u", c->lines, 1u << line_shift,
			 c->ways);
	}
}

EMU_EXPORT int qemu_plugin_version = EMU_QEMU_PLUGIN_VERSION;

EMU_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
				   int argc, char **argv)
{
	struct cm4_config cfg;
	const char *out = NULL;
	char icache[32], dcache[32];
	int i;

	memset(&g, 0, sizeof(g));
	g.counter = DEFAULT_COUNTER;
	cm4_config_default(&cfg);
	if (info == NULL || info->target_name == NULL ||
	    strcmp(info->target_name, "arm") != 0 || !info->system_emulation) {
		say("needs qemu-system-arm (Arm system emulation)", "");
		return -1;
	}
	/* The profile first, so that ws= and art= override it wherever
	 * they stand. */
	for (i = 0; i < argc; i++) {
		const char *a = argv[i];

		a += strncmp(a, "arg=", 4) == 0 ? 4 : 0;
		if (strncmp(a, "profile=", 8) != 0) {
			continue;
		}
		g.profile = cm4_memsys_find(a + 8);
		if (g.profile == NULL) {
			say("unknown memory-system profile: ", a + 8);
			return -1;
		}
		cm4_config_memsys(&cfg, g.profile);
	}
	for (i = 0; i < argc; i++) {
		if (parse_arg(argv[i], &cfg, &out) != 0) {
			say("bad argument (expected out=PATH profile=NAME ws=N "
			    "art=on|off agu=on|off pimm=|preg=|pload=1..3 "
			    "counter=ADDR range=LO-HI attr=PATH mode=tb|insn): ",
			    argv[i]);
			return -1;
		}
	}
	if (out == NULL) {
		say("out=PATH is required", "");
		return -1;
	}
	g.out = fopen(out, "a");
	if (g.out == NULL) {
		say("cannot open the record file: ", strerror(errno));
		return -1;
	}
	if (cm4_init(&g.model, &cfg) != 0) {
		cm4_done(&g.model);
		fclose(g.out);
		say("out of memory", "");
		return -1;
	}
	geom(icache, sizeof(icache), &cfg.icache, cfg.line_shift);
	geom(dcache, sizeof(dcache), &cfg.dcache, cfg.line_shift);
	fprintf(g.out,
		"# hilrun-cyclemodel 1 ws=%u art=%s agu=%s p=%u/%u/%u "
		"counter=0x%08" PRIx32 " range=0x%08" PRIx32 "-0x%08" PRIx32
		" api=%d-%d mode=%s profile=%s line=%u prefetch=%s icache=%s"
		" dcache=%s\n",
		cfg.ws, cfg.art ? "on" : "off", cfg.agu_stall ? "on" : "off",
		cfg.p_imm, cfg.p_reg, cfg.p_load, g.counter, g.range_lo,
		g.range_hi, info->version.min, info->version.cur,
		g.per_insn ? "insn" : "tb",
		g.profile != NULL ? g.profile->name : "default",
		1u << cfg.line_shift, cfg.prefetch ? "on" : "off", icache,
		dcache);
	fflush(g.out);
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_tb_trans);
	qemu_plugin_register_atexit_cb(id, on_qemu_exit, NULL);
	return 0;
}
