/* bench: timed runs, calibrated overhead, stack painting and output digest on the target. */
#include "bench.h"

#include "hal.h"

#define STACK_PAINT	 0xC5C5C5C5u
#define CALIBRATION_RUNS 32u

/* Everything one call needs, so that every operation is timed through the
 * same one-argument indirect call as the empty calibration function. */
struct bench_call {
	const struct registry_alg *alg;
	const uint8_t *in;
	unsigned long long inlen;
	const uint8_t *ad;
	unsigned long long adlen;
	uint8_t *out;
	unsigned long long outlen; /* in: XOF length; out: bytes produced */
	const uint8_t *key;
	const uint8_t *npub;
	const uint8_t *ks; /* expanded key (block ciphers) */
	int ret;
};

typedef void (*bench_fn)(struct bench_call *c);

static void call_empty(struct bench_call *c)
{
	(void)c;
}

static void call_encrypt(struct bench_call *c)
{
	c->ret = c->alg->encrypt(c->out, &c->outlen, c->in, c->inlen, c->ad,
				 c->adlen, 0, c->npub, c->key);
}

static void call_decrypt(struct bench_call *c)
{
	c->ret = c->alg->decrypt(c->out, &c->outlen, 0, c->in, c->inlen, c->ad,
				 c->adlen, c->npub, c->key);
}

static void call_hash(struct bench_call *c)
{
	c->ret = c->alg->hash(c->out, c->in, c->inlen);
	c->outlen = c->alg->abytes;
}

static void call_xof(struct bench_call *c)
{
	c->ret = c->alg->xof(c->out, c->outlen, c->in, c->inlen);
}

static void call_ecb(struct bench_call *c)
{
	c->ret = c->alg->ecb_encrypt(c->out, c->in, c->inlen, c->ks);
	c->outlen = c->inlen;
}

static void call_keysetup(struct bench_call *c)
{
	c->ret = c->alg->keysetup(c->out, c->key);
	c->outlen = c->alg->ksbytes;
}

/*
 * The measured sequence. noinline and noclone keep it one function whose
 * callee is unknown to the compiler, so the calibration with call_empty
 * times exactly the instructions that wrap every real call.
 */
static __attribute__((noinline, noclone)) uint32_t timed(bench_fn fn,
							 struct bench_call *c)
{
	uint32_t t0;
	uint32_t t1;

	t0 = hal_counter_read();
	fn(c);
	t1 = hal_counter_read();
	return t1 - t0; /* unsigned: one wrap of the counter is harmless */
}

uint32_t bench_calibrate(void)
{
	struct bench_call c; /* call_empty reads nothing */
	uint32_t best = 0xFFFFFFFFu;
	uint32_t i;

	c.ret = 0;
	hal_irq_off();
	for (i = 0; i < CALIBRATION_RUNS; i++) {
		uint32_t t = timed(call_empty, &c);

		if (t < best) {
			best = t;
		}
	}
	hal_irq_on();
	return best;
}

#if defined(__arm__)
/* Paint [bottom, own SP) with the pattern. A leaf with no frame of its own
 * beyond registers: it may write below its SP because interrupts are off. */
static __attribute__((noinline)) void stack_paint(uintptr_t bottom)
{
	uintptr_t sp;
	volatile uint32_t *p;

	__asm__ volatile("mov %0, sp" : "=r"(sp));
	for (p = (volatile uint32_t *)bottom; (uintptr_t)p < sp; p++) {
		*p = STACK_PAINT;
	}
}

static uint32_t stack_peak(bench_fn fn, struct bench_call *c)
{
	uintptr_t bottom = hal_stack_bottom();
	uintptr_t sp = hal_stack_pointer();
	const volatile uint32_t *p;

	stack_paint(bottom);
	fn(c);
	for (p = (const volatile uint32_t *)bottom; (uintptr_t)p < sp; p++) {
		if (*p != STACK_PAINT) {
			break;
		}
	}
	return (uint32_t)(sp - (uintptr_t)p);
}
#else
static uint32_t stack_peak(bench_fn fn, struct bench_call *c)
{
	(void)fn;
	(void)c;
	return BENCH_STACK_UNKNOWN; /* no painting in a hosted process */
}
#endif

static bench_fn op_function(const struct registry_alg *alg, uint8_t op)
{
	switch (alg->kind) {
	case HILP_KIND_AEAD:
		if (op == HILP_OP_ENCRYPT) {
			return call_encrypt;
		}
		return op == HILP_OP_DECRYPT ? call_decrypt : 0;
	case HILP_KIND_HASH:
		return op == HILP_OP_HASH ? call_hash : 0;
	case HILP_KIND_XOF:
		return op == HILP_OP_HASH ? call_xof : 0;
	case HILP_KIND_BLOCK:
		if (op == HILP_OP_ENCRYPT) {
			return call_ecb;
		}
		return op == HILP_OP_KEYSETUP ? call_keysetup : 0;
	default:
		return 0;
	}
}

/* The XOF output length asked for, 0 meaning the implementation's default. */
static uint32_t xof_length(const struct registry_alg *alg, uint32_t out_len)
{
	return out_len != 0 ? out_len : alg->abytes;
}

/*
 * Check a request against the buffers; msg_len is the input length of op.
 * noinline: called once, GCC would inline it into setup() and copy it into
 * each path there (92 bytes more at -Os).
 */
static __attribute__((noinline)) uint8_t
check_lengths(const struct registry_alg *alg, uint8_t op, uint32_t msg_len,
	      uint32_t ad_len, uint32_t out_len)
{
	/* The algorithm's own constants fit the buffers: glue.c checks that
	 * when the image is built. */
	if (ad_len > BENCH_MAX_AD) {
		return HILP_ST_TOO_LONG;
	}
	if (ad_len != 0 && alg->kind != HILP_KIND_AEAD) {
		return HILP_ST_BAD_ARG;
	}
	if (out_len != 0 && alg->kind != HILP_KIND_XOF) {
		return HILP_ST_BAD_ARG;
	}
	if (alg->kind == HILP_KIND_XOF &&
	    xof_length(alg, out_len) > BENCH_MAX_MSG + BENCH_MAX_TAG) {
		return HILP_ST_TOO_LONG;
	}
	if (op == HILP_OP_DECRYPT) {
		if (msg_len < alg->abytes) {
			return HILP_ST_BAD_ARG;
		}
		msg_len -= alg->abytes;
	}
	if (msg_len > BENCH_MAX_MSG) {
		return HILP_ST_TOO_LONG;
	}
	if (alg->kind == HILP_KIND_BLOCK && op == HILP_OP_ENCRYPT &&
	    msg_len % alg->blockbytes != 0) {
		return HILP_ST_BAD_ARG;
	}
	return HILP_ST_OK;
}

/* Point the call at its input and output; nothing produced, no result yet. */
static void call_aim(struct bench_call *c, const uint8_t *in, uint32_t inlen,
		     uint8_t *out)
{
	c->in = in;
	c->inlen = inlen;
	c->out = out;
	c->outlen = 0;
	c->ret = 0;
}

/*
 * Everything before the timed calls. The lengths are checked; for BENCH
 * and ENERGY (gen) the inputs are generated from seed in the order the
 * protocol specifies (key, nonce, ad, msg), while EXEC runs on the buffers
 * as loaded. The call is pointed at its buffers for op: msg -> out, key
 * setup writing the expanded key. A block cipher's key is expanded here,
 * untimed. A generated decryption takes msg_len as the plaintext length:
 * the lengths are checked as for encryption, a valid ciphertext is made
 * here, untimed, and the call then reads out and writes msg.
 */
static uint8_t setup(struct bench_call *c, const struct registry_alg *alg,
		     uint8_t op, struct bench_bufs *b, int gen, uint32_t seed,
		     uint32_t msg_len, uint32_t ad_len, uint32_t out_len)
{
	const int make_ct = gen && op == HILP_OP_DECRYPT;
	uint32_t rng;
	uint8_t st;

	st = check_lengths(alg, make_ct ? HILP_OP_ENCRYPT : op, msg_len, ad_len,
			   out_len);
	if (st != HILP_ST_OK) {
		return st;
	}
	if (gen) {
		rng = hilp_prng_init(seed);
		hilp_prng_fill(&rng, b->key, alg->keybytes);
		hilp_prng_fill(&rng, b->npub, alg->npubbytes);
		hilp_prng_fill(&rng, b->ad, ad_len);
		hilp_prng_fill(&rng, b->msg, msg_len);
	}
	c->alg = alg;
	c->ad = b->ad;
	c->adlen = ad_len;
	c->key = b->key;
	c->npub = b->npub;
	c->ks = b->ks;
	call_aim(c, b->msg, msg_len, b->out);
	if (op == HILP_OP_KEYSETUP) {
		c->out = b->ks;
	} else if (alg->kind == HILP_KIND_BLOCK) {
		if (alg->keysetup(b->ks, b->key) != 0) {
			return HILP_ST_CRYPTO_FAIL;
		}
	} else if (alg->kind == HILP_KIND_XOF) {
		c->outlen = xof_length(alg, out_len);
	}
	if (!make_ct) {
		return HILP_ST_OK;
	}
	call_encrypt(c);
	if (c->ret != 0) {
		return HILP_ST_CRYPTO_FAIL;
	}
	call_aim(c, b->out, msg_len + alg->abytes, b->msg);
	return HILP_ST_OK;
}

/* Bytes op writes for the prepared call. */
static uint32_t output_length(const struct registry_alg *alg, uint8_t op,
			      const struct bench_call *c)
{
	switch (op) {
	case HILP_OP_ENCRYPT:
		return (uint32_t)c->inlen +
		       (alg->kind == HILP_KIND_AEAD ? alg->abytes : 0u);
	case HILP_OP_DECRYPT:
		return (uint32_t)c->inlen - alg->abytes;
	case HILP_OP_KEYSETUP:
		return alg->ksbytes;
	default:
		return alg->kind == HILP_KIND_XOF ? (uint32_t)c->outlen
						  : alg->abytes;
	}
}

/* Overwrite an output buffer with a pattern that changes every run. */
static void poison(uint8_t *p, uint32_t n, uint32_t run)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		p[i] = (uint8_t)(0xA5u ^ run ^ i);
	}
}

uint8_t bench_exec(const struct registry_alg *alg, uint8_t op,
		   const struct hilp_exec_req *req, struct bench_bufs *b,
		   struct hilp_exec_rep *rep)
{
	struct bench_call c;
	bench_fn fn = op_function(alg, op);
	uint32_t d;
	uint8_t st;

	rep->out_len = 0;
	rep->count = 0;
	rep->digest = 0;
	if (fn == 0) {
		return HILP_ST_UNSUPPORTED;
	}
	st = setup(&c, alg, op, b, req->gen, req->seed, req->msg_len,
		   req->ad_len, req->out_len);
	if (st != HILP_ST_OK) {
		return st;
	}
	if (req->flags != 0 && c.in != b->out) {
		return HILP_ST_BAD_ARG; /* a generated decryption only */
	}
	if (req->flags & HILP_EXEC_FORGE) {
		b->out[c.inlen - 1] ^= 1u; /* the tag's last byte */
	}
	/* An implementation that writes nothing leaves this, not the output
	 * of the call before. */
	poison(c.out, output_length(alg, op, &c), 0);
	hal_irq_off();
	rep->count = timed(fn, &c);
	hal_irq_on();
	if (c.ret != 0) {
		return HILP_ST_CRYPTO_FAIL;
	}
	if (op == HILP_OP_KEYSETUP) {
		/* FETCH reads HILP_BUF_OUT: hand the expanded key over there. */
		uint32_t i;

		for (i = 0; i < c.outlen; i++) {
			b->out[i] = b->ks[i];
		}
	}
	rep->out_len = (uint16_t)c.outlen;
	d = HILP_DIGEST_INIT;
	if (req->flags & HILP_EXEC_ROUNDTRIP) {
		/* The ciphertext the stub made, before what it decrypts to. */
		d = hilp_digest_update(d, c.in, c.inlen);
	}
	rep->digest = hilp_digest_update(d, c.out, c.outlen);
	return HILP_ST_OK;
}

/*
 * A weak reference: 0 unless target/heap.c is linked (see bench.h). Not a
 * weak default definition, which the linker's LTO plugin would keep in
 * preference to heap.c's, found later in an archive.
 */
extern uint32_t bench_heap_reset(void) __attribute__((weak));

/* Peak heap since the last call, and a fresh heap; 0 without a heap. */
static uint32_t heap_reset(void)
{
	return bench_heap_reset != 0 ? bench_heap_reset() : 0;
}

uint8_t bench_run(const struct registry_alg *alg, uint8_t op,
		  const struct hilp_bench_req *req, struct bench_bufs *b,
		  struct hilp_bench_rep *rep)
{
	struct bench_call c;
	bench_fn fn = op_function(alg, op);
	uint32_t digest = HILP_DIGEST_INIT;
	uint32_t rng = req->leak_seed; /* 0: no leak test; never 0 after */
	uint32_t min = 0xFFFFFFFFu, max = 0;
	const uint8_t *fixed;
	uint32_t poison_len;
	uint32_t gen_len;
	uint32_t i;
	uint8_t st;

	if (fn == 0) {
		return HILP_ST_UNSUPPORTED;
	}
	if (req->runs == 0) {
		return HILP_ST_BAD_ARG;
	}
	if (req->runs > BENCH_MAX_RUNS) {
		return HILP_ST_TOO_LONG;
	}
	st = setup(&c, alg, op, b, 1, req->seed, req->msg_len, req->ad_len,
		   req->out_len);
	if (st != HILP_ST_OK) {
		return st;
	}

	/* The counter may have been stopped since boot (a debugger). */
	hal_counter_arm();
	hal_irq_off();
	/* One call on a fresh heap first: its peak stack and heap. The heap
	 * is fresh again after it, so no row depends on the ones before. */
	(void)heap_reset();
	rep->stack_bytes = stack_peak(fn, &c);
	rep->heap_bytes = heap_reset();
	hal_trigger(1);
	poison_len = output_length(alg, op, &c);
	gen_len = (uint32_t)c.inlen + 1u; /* a run's input and its class */
	fixed = c.in;			  /* b->msg, or b->out for decrypt */
	if (rng != 0 && op == HILP_OP_DECRYPT) {
		/* Leak test: a forgery in both classes (docs/protocol.md). */
		b->out[c.inlen - 1] ^= 1u;
	}
	/* Warm-up runs with what runs before each timed one in a leak test:
	 * its input generation (on a copy of the stream; in an ordinary
	 * BENCH the stream is 0 and only fills the unused buffer), so that
	 * the first timed run finds caches and prefetch as the later ones
	 * do, and on the fixed inputs (the leak test compares cycles). */
	for (i = 0; i < req->warmup; i++) {
		uint32_t copy = rng;

		hilp_prng_fill(&copy, b->rnd, gen_len);
		(void)timed(fn, &c);
	}
	for (i = 0; i < req->runs; i++) {
		uint32_t cls = 0;
		uint32_t t;

		/* Leak test, outside the timed region: the fixed input, or
		 * fresh random bytes for a run of the random class; the
		 * class is the low bit of one more random byte. */
		if (rng != 0) {
			hilp_prng_fill(&rng, b->rnd, gen_len);
			cls = b->rnd[c.inlen] & 1u;
			c.in = cls ? b->rnd : fixed;
		}
		/* Outside the timed region: an implementation that skips work
		 * (memoises, or writes nothing when called again with the
		 * same inputs) leaves the poison and fails the digest. */
		poison(c.out, poison_len, i);
		t = timed(fn, &c);
		b->samples[i] = t | cls << 31;
		/* The counts' range, without the class: equal, every run of
		 * both classes counted the same, and the host, which replays
		 * the classes, needs no FETCH. */
		if (t < min) {
			min = t;
		}
		if (t > max) {
			max = t;
		}
		if (c.ret != 0) {
			if (rng == 0) {
				break;
			}
			continue; /* a leak test's decryptions all fail */
		}
		/* Outside the timed region: the output is consumed, so the
		 * compiler cannot drop the work, and the host can check it. */
		digest = hilp_digest_update(digest, c.out, (uint32_t)c.outlen);
	}
	hal_trigger(0);
	hal_irq_on();
	rep->min = min;
	rep->max = max;
	if (c.ret != 0 && rng == 0) {
		return HILP_ST_CRYPTO_FAIL;
	}
	rep->runs = req->runs;
	rep->digest = digest;
	return HILP_ST_OK;
}

uint8_t bench_energy(const struct registry_alg *alg, uint8_t op,
		     const struct hilp_energy_req *req, struct bench_bufs *b,
		     struct hilp_energy_rep *rep)
{
	struct bench_call c;
	bench_fn fn = op_function(alg, op);
	uint32_t t0;
	uint32_t t1;
	uint32_t i;
	uint8_t st;

	rep->count = 0;
	rep->ticks = 0;
	rep->digest = 0;
	if (fn == 0) {
		return HILP_ST_UNSUPPORTED;
	}
	if (req->count == 0) {
		return HILP_ST_BAD_ARG;
	}
	st = setup(&c, alg, op, b, 1, req->seed, req->msg_len, req->ad_len,
		   req->out_len);
	if (st != HILP_ST_OK) {
		return st;
	}
	/* One window: the trigger marks it for the sampler (or a scope). */
	hal_irq_off();
	hal_trigger(1);
	t0 = hal_counter_read();
	for (i = 0; i < req->count && c.ret == 0; i++) {
		fn(&c);
	}
	t1 = hal_counter_read();
	hal_trigger(0);
	hal_irq_on();
	if (c.ret != 0) {
		return HILP_ST_CRYPTO_FAIL;
	}
	rep->count = req->count;
	rep->ticks = t1 - t0;
	rep->digest =
		hilp_digest_update(HILP_DIGEST_INIT, c.out, (uint32_t)c.outlen);
	return HILP_ST_OK;
}
