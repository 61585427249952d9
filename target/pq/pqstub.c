/* pqstub: runs a mupq-layout KEM or signature scheme (keypair, encaps, decaps or keypair, sign, verify) with hilrun's randombytes, timing each call, painting the stack and reporting a digest of each output (as text over semihosting on the mps2, as hilp frames over the board's link with PQ_FRAMES); the same source is the target image and the host reference. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "api.h"

#define PQ_PASTE2(a, b) a##b
#define PQ_PASTE(a, b)	PQ_PASTE2(a, b)
/* The scheme's namespace (PQCLEAN_MLKEM768_CLEAN_, or empty): hilrun reads
 * it from api.h and passes it as -DPQ_NS=... */
#ifndef PQ_NS
#define PQ_NS
#endif
#define NS(x) PQ_PASTE(PQ_NS, x)

/* The runs of each operation: compiled in for the text output (the mps2
 * under the cycle model, and the host reference); over a board's link the
 * host asks for them with each PQRUN, so that one image (one build-id)
 * serves any number of runs. */
#if defined(PQ_FRAMES)
#if defined(PQ_RUNS)
#error "PQ_RUNS: the frames stub takes its runs from the PQRUN request"
#endif
#elif !defined(PQ_RUNS)
#define PQ_RUNS 3
#endif
/* Empty timed calls before the operations (the host skips their records). */
#define PQ_CALIBRATIONS 4
/* pqm4's signed message length (its speed.c and stack.c). */
#define PQ_MLEN		59

#define PQ_SKBYTES NS(CRYPTO_SECRETKEYBYTES)
#define PQ_PKBYTES NS(CRYPTO_PUBLICKEYBYTES)
#define PQ_BYTES   NS(CRYPTO_BYTES)

int PQCLEAN_randombytes(uint8_t *output, size_t n);
void pq_randombytes_reset(void);
uint64_t pq_random_state(void);
void pq_random_set(uint64_t state);

/* The buffers, sized from api.h for this image. */
static uint8_t pk[PQ_PKBYTES];
static uint8_t sk[PQ_SKBYTES];
#if defined(PQ_KIND_KEM)
#define PQ_CTBYTES NS(CRYPTO_CIPHERTEXTBYTES)
static uint8_t ct[PQ_CTBYTES];
static uint8_t ss_a[PQ_BYTES];
static uint8_t ss_b[PQ_BYTES];
#elif defined(PQ_KIND_SIGN)
static uint8_t msg[PQ_MLEN];
static uint8_t sm[PQ_MLEN + PQ_BYTES];
static uint8_t opened[PQ_MLEN + PQ_BYTES];
static size_t smlen;
static size_t mlen;
#else
#error "PQ_KIND_KEM or PQ_KIND_SIGN must be defined"
#endif
static int ret;

/*
 * Signatures from the host build (pq-bench -S), for schemes whose signing
 * takes too long to emulate: the host reference (PQ_SIGS_DUMP) prints each
 * run's message, signed message and randombytes position after signing; the
 * image (PQ_HOST_SIGS) is built with them (pq_hostsigs.h, generated) and
 * times keypair and verify only, resuming the stream where the host's was so
 * that every later call draws the same bytes as the host's.
 */
#if defined(PQ_HOST_SIGS) && defined(PQ_KIND_SIGN)
#if defined(PQ_FRAMES)
#error "PQ_HOST_SIGS: the host's signatures are taken in text mode only"
#endif
#include "pq_hostsigs.h"
#endif

/* ---- output ---------------------------------------------------------- */
#if defined(__arm__) && !defined(PQ_HOSTED)
#include "hal.h"
#define PQ_ON_TARGET 1
#endif

#if defined(PQ_FRAMES) && !defined(PQ_ON_TARGET)
#error "PQ_FRAMES: the stub reports over a board's link, on the target only"
#endif

#if defined(PQ_ON_TARGET)
#define STACK_PAINT 0xC5C5C5C5u

/* Paint [bottom, own SP): interrupts are off, nothing else uses it. */
static __attribute__((noinline)) void stack_paint(uintptr_t bottom)
{
	uintptr_t sp;
	volatile uint32_t *p;

	__asm__ volatile("mov %0, sp" : "=r"(sp));
	for (p = (volatile uint32_t *)bottom; (uintptr_t)p < sp; p++) {
		*p = STACK_PAINT;
	}
}

static uint32_t stack_used(uintptr_t sp)
{
	const volatile uint32_t *p =
		(const volatile uint32_t *)hal_stack_bottom();

	while ((uintptr_t)p < sp && *p == STACK_PAINT) {
		p++;
	}
	return (uint32_t)(sp - (uintptr_t)p);
}

/* Whether any of the lowest 1 KiB of the stack lost its paint: the call
 * used (nearly) all of the stack (below which the mps2 ignores writes). */
static unsigned stack_out(void)
{
	const volatile uint32_t *bottom =
		(const volatile uint32_t *)hal_stack_bottom();
	unsigned i, used = 0;

	for (i = 0; i < 256u; i++) {
		used |= bottom[i] != STACK_PAINT;
	}
	return used;
}

#endif

#if defined(PQ_FRAMES)
#include "hilp.h"
#include "reply.h"

/* The PQRUN being answered, and the calls it completed. */
static uint8_t pq_seq;
static uint16_t pq_calls;

static void send_rec(const struct hilp_pq_rec *r)
{
	uint8_t d[HILP_PQ_CALL_LEN];

	reply_send(HILP_REPLY, d, hilp_pq_rec_encode(pq_seq, r, d));
}

/* A fault (startup.c's handler calls this): a FAULT record, then the
 * protocol's fault report; the host resets us. */
void hal_fault_report(uint32_t pc, uint32_t cfsr, uint32_t hfsr, uint32_t bfar);
void hal_fault_report(uint32_t pc, uint32_t cfsr, uint32_t hfsr, uint32_t bfar)
{
	struct hilp_pq_rec r = {0};
	uint8_t d[18];

	r.type = HILP_PQ_FAULT;
	/* The painted bottom written, or a precise bus fault on an address
	 * less than 16 MiB below the stack's bottom: a frame larger than
	 * the stack (an STM32's stack sits at the bottom of its RAM, below
	 * which nothing is mapped). SCB_CFSR bit 15: BFAR valid. */
	r.stack_out =
		(uint8_t)(stack_out() ||
			  ((cfsr & 0x8000u) != 0 && bfar < hal_stack_bottom() &&
			   hal_stack_bottom() - bfar < 0x1000000u));
	r.calls = pq_calls;
	send_rec(&r);
	d[0] = 0; /* no sequence: the fault report belongs to no request */
	d[1] = HILP_ST_FAULT;
	hilp_put_u32(d + 2, pc);
	hilp_put_u32(d + 6, cfsr);
	hilp_put_u32(d + 10, hfsr);
	hilp_put_u32(d + 14, bfar);
	reply_send(HILP_REPLY, d, sizeof(d));
	reply_status(HILP_ST_FAULT);
}
#elif defined(PQ_ON_TARGET)

/* The FPU is enabled by the board's startup.c when built for it. */
static void platform_init(void)
{
	(void)hal_init();
	hal_irq_off();
}

#define SYS_WRITE0		     0x04u
#define SYS_EXIT_EXTENDED	     0x20u
#define ADP_STOPPED_APPLICATION_EXIT 0x20026u

static uint32_t semihost(uint32_t op, const void *arg)
{
	register uint32_t r0 __asm("r0") = op;
	register const void *r1 __asm("r1") = arg;

	__asm volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
	return r0;
}

static void out_str(const char *s)
{
	(void)semihost(SYS_WRITE0, s);
}

static void finish(int status)
{
	uint32_t args[2];

	args[0] = ADP_STOPPED_APPLICATION_EXIT;
	args[1] = (uint32_t)status;
	(void)semihost(SYS_EXIT_EXTENDED, args);
	for (;;) {
	}
}

static void out_u32(uint32_t v, int hex);

/* A fault (startup.c's handler calls this): say where, and stop QEMU. */
void hal_fault_report(uint32_t pc, uint32_t cfsr, uint32_t hfsr, uint32_t bfar);
void hal_fault_report(uint32_t pc, uint32_t cfsr, uint32_t hfsr, uint32_t bfar)
{
	unsigned used = stack_out();

	(void)hfsr;
	(void)bfar;
	out_str("F ");
	out_u32(pc, 1);
	out_str(" ");
	out_u32(cfsr, 1);
	out_str(used ? " stack\n" : " -\n");
	finish(3);
}
#else
#include <stdio.h>
#include <stdlib.h>

static void out_str(const char *s)
{
	fputs(s, stdout);
}

static void finish(int status)
{
	fflush(stdout);
	exit(status);
}

static uint32_t hal_counter_read(void)
{
	return 0;
}

static void platform_init(void)
{
}
#endif

#if !defined(PQ_FRAMES)
static void out_u32(uint32_t v, int hex)
{
	char buf[12];
	int i = (int)sizeof(buf) - 1;
	unsigned base = hex ? 16u : 10u;
	int digits = 0;

	buf[i] = '\0';
	do {
		buf[--i] = "0123456789abcdef"[v % base];
		v /= base;
		digits++;
	} while (v != 0 || (hex && digits < 8));
	out_str(buf + i);
}

#endif

/* FNV-1a, 32 bits, over several buffers: proves the outputs, not a MAC. */
static uint32_t digest(uint32_t d, const uint8_t *p, size_t n)
{
	while (n-- > 0) {
		d = (d ^ *p++) * 0x01000193u;
	}
	return d;
}

/* ---- the operations -------------------------------------------------- */
typedef void (*pq_fn)(void);

static void op_empty(void)
{
}

#if defined(PQ_KIND_KEM)
static void op_keypair(void)
{
	ret = NS(crypto_kem_keypair)(pk, sk);
}
static void op_encaps(void)
{
	ret = NS(crypto_kem_enc)(ct, ss_a, pk);
}
static void op_decaps(void)
{
	ret = NS(crypto_kem_dec)(ss_b, ct, sk);
}
#else
static void op_keypair(void)
{
	ret = NS(crypto_sign_keypair)(pk, sk);
}
static void op_sign(void)
{
	ret = NS(crypto_sign)(sm, &smlen, msg, PQ_MLEN, sk);
}
static void op_verify(void)
{
	ret = NS(crypto_sign_open)(opened, &mlen, sm, smlen, pk);
}
#endif

/*
 * The timed call. noinline and noclone keep its counter reads in this one
 * function, whose address range the cycle model brackets on.
 */
static __attribute__((noinline, noclone)) uint32_t pq_timed(pq_fn fn)
{
	uint32_t t0;
	uint32_t t1;

	t0 = hal_counter_read();
	fn();
	t1 = hal_counter_read();
	return t1 - t0;
}

/*
 * One call's figures reported: a CALL record (PQ_FRAMES), or the line
 * "R op run ticks stack digest ret" (stack: the stub's frame included; the
 * H line "H pqstub 1 KIND RUNS OVERHEAD STACK_SIZE BASE_STACK" ends with
 * that frame, around an empty call, after the stack's size).
 */
static void report_call(const char *name, unsigned op, unsigned run,
			uint32_t ticks, uint32_t stack, uint32_t d)
{
#if defined(PQ_FRAMES)
	struct hilp_pq_rec r = {0};

	(void)name;
	r.type = HILP_PQ_CALL;
	r.op = (uint8_t)op;
	r.run = (uint16_t)run;
	r.ticks = ticks;
	r.stack = stack;
	r.digest = d;
	r.ret = (uint32_t)ret;
	send_rec(&r);
	pq_calls++;
#else
	(void)op;
	out_str("R ");
	out_str(name);
	out_str(" ");
	out_u32(run, 0);
	out_str(" ");
	out_u32(ticks, 0);
	out_str(" ");
	out_u32(stack, 0);
	out_str(" ");
	out_u32(d, 1);
	out_str(" ");
	out_u32((uint32_t)ret, 0);
	out_str("\n");
#endif
}

/* One call: painted, timed, its output digested and reported. */
static void run_op(const char *name, unsigned op, unsigned run, pq_fn fn)
{
	uint32_t ticks;
	uint32_t stack = 0;
	uint32_t d = 0x811C9DC5u;

#if defined(PQ_ON_TARGET)
	uintptr_t sp = hal_stack_pointer();

	stack_paint(hal_stack_bottom());
	ticks = pq_timed(fn);
	stack = stack_used(sp);
#else
	ticks = pq_timed(fn);
#endif
#if defined(PQ_KIND_KEM)
	if (fn == op_keypair) {
		d = digest(digest(d, pk, sizeof(pk)), sk, sizeof(sk));
	} else if (fn == op_encaps) {
		d = digest(digest(d, ct, sizeof(ct)), ss_a, sizeof(ss_a));
	} else {
		d = digest(d, ss_b, sizeof(ss_b));
		if (memcmp(ss_a, ss_b, sizeof(ss_a)) != 0) {
			ret = 99; /* decapsulation disagrees with encapsulation */
		}
	}
#else
	if (fn == op_keypair) {
		d = digest(digest(d, pk, sizeof(pk)), sk, sizeof(sk));
	} else if (fn == op_sign) {
		d = digest(d, sm, smlen);
	} else {
		d = digest(d, opened, mlen);
		if (mlen != PQ_MLEN || memcmp(opened, msg, PQ_MLEN) != 0) {
			ret = 99; /* the opened message is not the one signed */
		}
	}
#endif
	report_call(name, op, run, ticks, stack, d);
}

#if defined(PQ_SIGS_DUMP) && defined(PQ_KIND_SIGN)
static void out_hex(const uint8_t *p, size_t n)
{
	char b[3];

	b[2] = '\0';
	while (n-- > 0) {
		b[0] = "0123456789abcdef"[*p >> 4];
		b[1] = "0123456789abcdef"[*p++ & 15u];
		out_str(b);
	}
}

/* "S run state-hi state-lo smlen msg-hex sm-hex": what the image of
 * pq-bench -S needs to verify this run's signature without making it. */
static void dump_signature(unsigned run)
{
	uint64_t st = pq_random_state();

	out_str("S ");
	out_u32(run, 0);
	out_str(" ");
	out_u32((uint32_t)(st >> 32), 1);
	out_str(" ");
	out_u32((uint32_t)st, 1);
	out_str(" ");
	out_u32((uint32_t)smlen, 0);
	out_str(" ");
	out_hex(msg, PQ_MLEN);
	out_str(" ");
	out_hex(sm, smlen);
	out_str("\n");
}
#endif

/* The runs of the three operations (with PQ_HOST_SIGS, keypair and verify
 * of the host's signatures). */
static void run_all(unsigned runs)
{
	unsigned i;

	for (i = 0; i < runs; i++) {
		run_op("keypair", 0, i, op_keypair);
#if defined(PQ_KIND_KEM)
		run_op("encaps", 1, i, op_encaps);
		run_op("decaps", 2, i, op_decaps);
#else
#if defined(PQ_HOST_SIGS)
		memcpy(msg, pq_host_msg[i], PQ_MLEN);
		smlen = pq_host_smlen[i];
		memcpy(sm, pq_host_sm[i], smlen);
		pq_random_set(pq_host_state[i]);
#else
		PQCLEAN_randombytes(msg, PQ_MLEN);
		run_op("sign", 1, i, op_sign);
#if defined(PQ_SIGS_DUMP)
		dump_signature(i);
#endif
#endif
		run_op("verify", 2, i, op_verify);
#endif
	}
}

/* The cost of the timed sequence around an empty call (the least of
 * PQ_CALIBRATIONS), subtracted by the host (the first PQ_CALIBRATIONS
 * bracket records of the cycle model are these), and the stack the stub's
 * own frames take around a call (pq_timed's), which the host subtracts
 * from each peak. */
static void calibrate(uint32_t *best, uint32_t *base_stack)
{
	unsigned i;

	*best = 0xFFFFFFFFu;
	*base_stack = 0;
	for (i = 0; i < PQ_CALIBRATIONS; i++) {
		uint32_t t;

#if defined(PQ_ON_TARGET)
		uintptr_t sp = hal_stack_pointer();

		stack_paint(hal_stack_bottom());
		t = pq_timed(op_empty);
		*base_stack = stack_used(sp);
#else
		t = pq_timed(op_empty);
#endif
		if (t < *best) {
			*best = t;
		}
	}
}

#if defined(PQ_FRAMES)
/* INFO as the symmetric stub answers it (protocol/hilp.h): the host's
 * handshake, and the build-id it checks; the buffers are not ours. */
static void send_info(struct hilp_packet *p, uint32_t overhead)
{
	struct hilp_info info = {0};
	struct hal_counter_info ci;
	const uint8_t *id;
	uint8_t i;

	hal_counter_info(&ci);
	info.protocol = HILP_PROTOCOL_VERSION;
	info.flags = ci.flags;
	info.counter_unit = ci.unit;
	info.clock_hz = ci.clock_hz;
	info.counter_hz = ci.counter_hz;
	info.flash_acr = ci.flash_acr;
	info.overhead = overhead;
	id = hal_build_id(&info.build_id_len);
	for (i = 0; i < info.build_id_len; i++) {
		info.build_id[i] = id[i];
	}
	hal_uid(info.uid);
	(void)hilp_put_name((uint8_t *)info.board, hal_board_name());
	info.uart_overruns = hal_uart_overruns();
	reply_send(HILP_REPLY, p->data,
		   hilp_info_encode(p->data[0], &info, p->data));
}

/* PQRUN: HEAD, a CALL per timed call of the runs asked for, END; the
 * randombytes stream from the image's seed again, so that a repeated PQRUN
 * says the same. */
static void pq_run(uint8_t seq, uint16_t runs, uint32_t overhead,
		   uint32_t base_stack)
{
	struct hilp_pq_rec r = {0};

	pq_seq = seq;
	pq_calls = 0;
	pq_randombytes_reset();
	r.type = HILP_PQ_HEAD;
	r.version = HILP_PQ_VERSION;
#if defined(PQ_KIND_KEM)
	r.kind = HILP_PQ_KEM;
#else
	r.kind = HILP_PQ_SIGN;
	r.mlen = PQ_MLEN;
#endif
	r.runs = runs;
	r.overhead = overhead;
	r.stack_size = (uint32_t)(hal_stack_top() - hal_stack_bottom());
	r.base_stack = base_stack;
	send_rec(&r);
	hal_counter_arm();
	run_all(runs);
	r.type = HILP_PQ_END;
	r.calls = pq_calls;
	send_rec(&r);
}

int main(void)
{
	static struct hilp_rx rx;
	struct hilp_packet pkt;
	uint8_t boot;
	uint32_t best, base_stack;

	boot = hal_init();
	hal_irq_off();
	calibrate(&best, &base_stack);
	hilp_rx_init(&rx);
	for (;;) {
		int r = hilp_rx_push(&rx, hal_uart_getc());
		size_t n;
		uint8_t st;

		if (r < 0) {
			reply_status(HILP_ST_BAD_LEN);
			continue;
		}
		if (r == 0 || rx.len == 0) {
			continue; /* a lone 0x00: the host resynchronising */
		}
		n = rx.len;
		hilp_rx_init(&rx);
		st = hilp_decode_request(rx.buf, n, &pkt);
		if (st == HILP_ST_OK && pkt.dlen < 1 &&
		    (pkt.cmd == HILP_CMD_INFO || pkt.cmd == HILP_CMD_PQRUN)) {
			st = HILP_ST_BAD_LEN;
		} else if (st == HILP_ST_OK && pkt.cmd == HILP_CMD_INFO) {
			send_info(&pkt, best);
			st = boot;
		} else if (st == HILP_ST_OK && pkt.cmd == HILP_CMD_PQRUN) {
			uint16_t runs = 0;

			/* Another version's request (version 1's was [seq]
			 * alone) or runs out of range: refused, nothing run. */
			st = hilp_pq_req_decode(pkt.data, pkt.dlen, &runs);
			if (st == HILP_ST_OK) {
				pq_run(pkt.data[0], runs, best, base_stack);
			}
		} else if (st == HILP_ST_OK) {
			st = HILP_ST_BAD_CMD;
		}
		reply_status(st);
	}
}
#else
int main(void)
{
	uint32_t best, base_stack;

	platform_init();
	calibrate(&best, &base_stack);
	out_str("H pqstub 1 ");
#if defined(PQ_KIND_KEM)
	out_str("kem ");
#else
	out_str("sign ");
#endif
	out_u32(PQ_RUNS, 0);
	out_str(" ");
	out_u32(best, 0);
	out_str(" ");
#if defined(PQ_ON_TARGET)
	out_u32((uint32_t)(hal_stack_top() - hal_stack_bottom()), 0);
#else
	out_u32(0, 0);
#endif
	out_str(" ");
	out_u32(base_stack, 0);
	out_str("\n");
	run_all(PQ_RUNS);
	out_str("E\n");
	finish(0);
	return 0;
}
#endif
