/* test_bench_counter: target/bench.c, built for the host on a mock HAL: it re-arms a counter a debugger stopped before a BENCH's timed runs, gives a leak test's count range without the class bit, and digests a generated decryption's ciphertext and plaintext (HILP_EXEC_ROUNDTRIP). */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "bench.h"
#include "hal.h"
#include "hilp.h"
#include "registry.h"

/*
 * The mock board: a cycle counter that counts (7 per read, as if time
 * passed) only while armed, like DWT CYCCNT with DEMCR.TRCENA set; a
 * debugger attaching clears it (armed = 0) and the counter freezes.
 */
static struct {
	int armed;
	unsigned arms;
	unsigned reads_unarmed; /* counter reads while stopped */
	uint32_t counter;
	int irq_off;
	int trigger;
} m;

uint8_t hal_init(void)
{
	return HILP_ST_OK;
}

uint8_t hal_uart_getc(void)
{
	fail_msg("bench.c does not read the UART");
	return 0;
}

void hal_uart_putc(uint8_t c)
{
	(void)c;
	fail_msg("bench.c does not write the UART");
}

uint32_t hal_uart_overruns(void)
{
	return 0;
}

uint32_t hal_counter_read(void)
{
	if (!m.armed) {
		m.reads_unarmed++;
		return m.counter;
	}
	m.counter += 7u;
	return m.counter;
}

void hal_counter_arm(void)
{
	m.armed = 1;
	m.arms++;
}

void hal_counter_info(struct hal_counter_info *info)
{
	memset(info, 0, sizeof(*info));
	info->unit = HILP_UNIT_CYCLES;
}

void hal_trigger(int on)
{
	m.trigger = on;
}

void hal_uid(uint8_t uid[12])
{
	memset(uid, 0, 12);
}

const char *hal_board_name(void)
{
	return "mock";
}

void hal_reset(void)
{
	fail_msg("bench.c does not reset");
}

void hal_irq_off(void)
{
	m.irq_off = 1;
}

void hal_irq_on(void)
{
	m.irq_off = 0;
}

uintptr_t hal_stack_bottom(void)
{
	return 0;
}

uintptr_t hal_stack_top(void)
{
	return 0;
}

uintptr_t hal_stack_pointer(void)
{
	return 0;
}

const uint8_t *hal_build_id(uint8_t *len)
{
	*len = 0;
	return NULL;
}

/* A hash that writes its digest (the work bench.c checks was done). */
static int toy_hash(unsigned char *out, const unsigned char *in,
		    unsigned long long inlen)
{
	unsigned long long i;

	memset(out, 0, 8);
	for (i = 0; i < inlen; i++) {
		out[i % 8] ^= in[i];
	}
	return 0;
}

static const struct registry_alg toy = {
	.name = "toy",
	.impl = "ref",
	.kind = HILP_KIND_HASH,
	.abytes = 8,
	.constant_time = -1,
	.mode = "hash",
	.hash = toy_hash,
};

/*
 * A toy AEAD (4-byte key, nonce and tag): the message XORed with key and
 * nonce, the tag the XOR of message, associated data and key. Its calls
 * take one counter read (7 ticks) more when the message's first byte is
 * odd: a data-dependent time, as a leaky implementation has.
 */
static void toy_tag(unsigned char *tag, const unsigned char *pt,
		    unsigned long long mlen, const unsigned char *ad,
		    unsigned long long adlen, const unsigned char *k)
{
	unsigned long long i;

	memcpy(tag, k, 4);
	for (i = 0; i < mlen; i++) {
		tag[i % 4] ^= pt[i];
	}
	for (i = 0; i < adlen; i++) {
		tag[i % 4] ^= ad[i];
	}
}

static int toy_encrypt(unsigned char *c, unsigned long long *clen,
		       const unsigned char *pt, unsigned long long mlen,
		       const unsigned char *ad, unsigned long long adlen,
		       const unsigned char *nsec, const unsigned char *npub,
		       const unsigned char *k)
{
	unsigned long long i;

	(void)nsec;
	if (mlen > 0 && (pt[0] & 1u)) {
		(void)hal_counter_read();
	}
	for (i = 0; i < mlen; i++) {
		c[i] = pt[i] ^ k[i % 4] ^ npub[i % 4];
	}
	toy_tag(c + mlen, pt, mlen, ad, adlen, k);
	*clen = mlen + 4;
	return 0;
}

static int toy_decrypt(unsigned char *pt, unsigned long long *mlen,
		       unsigned char *nsec, const unsigned char *c,
		       unsigned long long clen, const unsigned char *ad,
		       unsigned long long adlen, const unsigned char *npub,
		       const unsigned char *k)
{
	unsigned char tag[4];
	unsigned long long i;

	(void)nsec;
	if (clen < 4) {
		return -1;
	}
	for (i = 0; i < clen - 4; i++) {
		pt[i] = c[i] ^ k[i % 4] ^ npub[i % 4];
	}
	toy_tag(tag, pt, clen - 4, ad, adlen, k);
	if (memcmp(tag, c + clen - 4, 4) != 0) {
		return -1;
	}
	*mlen = clen - 4;
	return 0;
}

static const struct registry_alg toy_aead = {
	.name = "toy-aead",
	.impl = "ref",
	.kind = HILP_KIND_AEAD,
	.keybytes = 4,
	.npubbytes = 4,
	.abytes = 4,
	.constant_time = 0,
	.mode = "AEAD",
	.encrypt = toy_encrypt,
	.decrypt = toy_decrypt,
};

static struct bench_bufs bufs;

static void test_bench_rearms_a_counter_a_debugger_stopped(void **state)
{
	struct hilp_bench_req req;
	struct hilp_bench_rep rep;
	uint32_t i;

	(void)state;
	memset(&m, 0, sizeof(m));
	memset(&req, 0, sizeof(req));
	memset(&rep, 0, sizeof(rep));
	req.msg_len = 16;
	req.runs = 5;
	req.warmup = 1;
	req.seed = 1;
	m.armed = 0; /* cleared since boot, e.g. by a debugger */

	assert_int_equal(bench_run(&toy, HILP_OP_HASH, &req, &bufs, &rep),
			 HILP_ST_OK);
	assert_int_equal(m.arms, 1);
	assert_int_equal(m.reads_unarmed, 0); /* armed before any timed read */
	assert_int_equal(rep.runs, 5);
	for (i = 0; i < 5; i++) {
		/* t1 - t0 = one read's 7 ticks: the counter ran. */
		assert_int_equal(bufs.samples[i], 7u);
	}
	assert_false(m.irq_off);
	assert_false(m.trigger);
}

/* Every BENCH re-arms: a second debugger attach between two is caught too. */
static void test_every_bench_rearms(void **state)
{
	struct hilp_bench_req req;
	struct hilp_bench_rep rep;

	(void)state;
	memset(&m, 0, sizeof(m));
	memset(&req, 0, sizeof(req));
	req.msg_len = 0;
	req.runs = 2;
	req.seed = 3;
	assert_int_equal(bench_run(&toy, HILP_OP_HASH, &req, &bufs, &rep),
			 HILP_ST_OK);
	m.armed = 0;
	assert_int_equal(bench_run(&toy, HILP_OP_HASH, &req, &bufs, &rep),
			 HILP_ST_OK);
	assert_int_equal(m.arms, 2);
	assert_int_equal(m.reads_unarmed, 0);
	assert_int_equal(bufs.samples[0], 7u);
	/* A refused request changes nothing. */
	req.runs = 0;
	assert_int_equal(bench_run(&toy, HILP_OP_HASH, &req, &bufs, &rep),
			 HILP_ST_BAD_ARG);
	assert_int_equal(m.arms, 2);
}

/*
 * A leak test's reply gives the range of the counts without the class bit
 * (bit 31 of each sample), so that equal counts in both classes, as on a
 * deterministic emulator, read as min == max and need no FETCH.
 */
static void test_leak_range_leaves_out_the_class_bit(void **state)
{
	struct hilp_bench_req req;
	struct hilp_bench_rep rep;
	unsigned classes[2] = {0, 0};
	uint32_t i;

	(void)state;
	memset(&m, 0, sizeof(m));
	memset(&req, 0, sizeof(req));
	req.msg_len = 16;
	req.runs = 64;
	req.seed = 1;
	req.leak_seed = 0x1234567u;
	/* Constant time: every run 7 ticks, both classes present. */
	assert_int_equal(bench_run(&toy, HILP_OP_HASH, &req, &bufs, &rep),
			 HILP_ST_OK);
	for (i = 0; i < req.runs; i++) {
		classes[bufs.samples[i] >> 31]++;
		assert_int_equal(bufs.samples[i] & HILP_LEAK_COUNT_MASK, 7u);
	}
	assert_true(classes[0] > 0 && classes[1] > 0);
	assert_int_equal(rep.min, 7u);
	assert_int_equal(rep.max, 7u);
	/* Data-dependent time: the range is of the counts, 7 to 14. */
	assert_int_equal(
		bench_run(&toy_aead, HILP_OP_ENCRYPT, &req, &bufs, &rep),
		HILP_ST_OK);
	assert_int_equal(rep.min, 7u);
	assert_int_equal(rep.max, 14u);
	/* An ordinary BENCH: the samples' range, as ever. */
	req.leak_seed = 0;
	assert_int_equal(bench_run(&toy, HILP_OP_HASH, &req, &bufs, &rep),
			 HILP_ST_OK);
	assert_int_equal(rep.min, 7u);
	assert_int_equal(rep.max, 7u);
}

/* The inputs a generated EXEC or BENCH makes from seed (docs/protocol.md). */
static void toy_inputs(uint32_t seed, uint8_t *k, uint8_t *npub, uint8_t *ad,
		       size_t ad_len, uint8_t *msg, size_t msg_len)
{
	uint32_t rng = hilp_prng_init(seed);

	hilp_prng_fill(&rng, k, 4);
	hilp_prng_fill(&rng, npub, 4);
	hilp_prng_fill(&rng, ad, ad_len);
	hilp_prng_fill(&rng, msg, msg_len);
}

/*
 * A generated decryption with HILP_EXEC_ROUNDTRIP answers the digest of the
 * ciphertext the stub made and then of the plaintext it got back: the host
 * checks both the encryption and the round trip with one request. The
 * flag is refused on anything but a generated decryption.
 */
static void test_roundtrip_digests_ciphertext_then_plaintext(void **state)
{
	uint8_t k[4], npub[4], ad[5], msg[21], ct[25];
	unsigned long long ct_len = 0;
	struct hilp_exec_req req;
	struct hilp_exec_rep rep;
	uint32_t want;

	(void)state;
	memset(&m, 0, sizeof(m));
	toy_inputs(0xC0FFEE11u, k, npub, ad, sizeof(ad), msg, sizeof(msg));
	assert_int_equal(toy_encrypt(ct, &ct_len, msg, sizeof(msg), ad,
				     sizeof(ad), NULL, npub, k),
			 0);
	want = hilp_digest_update(HILP_DIGEST_INIT, ct, (size_t)ct_len);
	want = hilp_digest_update(want, msg, sizeof(msg));

	memset(&req, 0, sizeof(req));
	req.msg_len = sizeof(msg);
	req.ad_len = sizeof(ad);
	req.gen = 1;
	req.seed = 0xC0FFEE11u;
	req.flags = HILP_EXEC_ROUNDTRIP;
	assert_int_equal(
		bench_exec(&toy_aead, HILP_OP_DECRYPT, &req, &bufs, &rep),
		HILP_ST_OK);
	assert_int_equal(rep.out_len, sizeof(msg));
	assert_int_equal(rep.digest, want);
	/* Without the flag: the plaintext's digest alone, as before. */
	req.flags = 0;
	assert_int_equal(
		bench_exec(&toy_aead, HILP_OP_DECRYPT, &req, &bufs, &rep),
		HILP_ST_OK);
	assert_int_equal(rep.digest, hilp_digest_update(HILP_DIGEST_INIT, msg,
							sizeof(msg)));
	/* A forged tag is still refused. */
	req.flags = HILP_EXEC_FORGE;
	assert_int_equal(
		bench_exec(&toy_aead, HILP_OP_DECRYPT, &req, &bufs, &rep),
		HILP_ST_CRYPTO_FAIL);
	/* Only a generated decryption takes the flags. */
	req.flags = HILP_EXEC_ROUNDTRIP;
	assert_int_equal(
		bench_exec(&toy_aead, HILP_OP_ENCRYPT, &req, &bufs, &rep),
		HILP_ST_BAD_ARG);
	req.gen = 0;
	req.msg_len = (uint16_t)ct_len;
	assert_int_equal(
		bench_exec(&toy_aead, HILP_OP_DECRYPT, &req, &bufs, &rep),
		HILP_ST_BAD_ARG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			test_bench_rearms_a_counter_a_debugger_stopped),
		cmocka_unit_test(test_every_bench_rearms),
		cmocka_unit_test(test_leak_range_leaves_out_the_class_bit),
		cmocka_unit_test(
			test_roundtrip_digests_ciphertext_then_plaintext),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
