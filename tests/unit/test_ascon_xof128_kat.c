/* test_ascon_xof128_kat: the Ascon-XOF128 reference against all 1025 official known-answer vectors, prefix-consistent outputs of any length, and empty outputs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "api.h"
#include "crypto_xof.h"
#include "kat_suite.h"

/* The official ascon-c file (SP 800-232 Ascon-XOF128, 512-bit outputs), copied unchanged into tests/kat. */
#define KAT_FILE    "asconxof128_LWC_XOF_KAT_128_512.txt"
/* Msg lengths 0..1024, one vector each. */
#define KAT_VECTORS 1025ul
/* Bytes of MD per vector in the file (the api.h default output length). */
#define KAT_MDBYTES 64u
/* Longest output asked for here: several squeezed blocks past the file's. */
#define LONG_OUT    300u

/* Output buffers get a canary tail: a write past the output length shows up. */
#define CANARY 0xA5
#define TAIL   32

/* Field-sized buffers: file scope rather than the stack. */
static unsigned char out[LONG_OUT + TAIL];
static unsigned char longer[LONG_OUT];
static unsigned char copy[KAT_FIELD_MAX];

/* Run check on every vector of the file; returns how many there were. */
static unsigned long
for_each_vector(void (*check)(const struct kat_suite_md *v))
{
	return kat_suite_each_md(KAT_FILE, KAT_MDBYTES, check);
}

static void test_ascon_xof128_default_length_is_the_kat_length(void **state)
{
	(void)state;
	assert_int_equal(CRYPTO_XOF, 1);
	assert_int_equal(CRYPTO_BYTES, KAT_MDBYTES);
}

static unsigned long mismatches;

/*
 * The message is hashed from a copy, which is then compared with the
 * original: the input is read, never written.
 */
static void check_output(const struct kat_suite_md *v)
{
	memcpy(copy, v->msg, v->msglen);
	memset(out, CANARY, sizeof(out));
	assert_int_equal(crypto_xof(out, CRYPTO_BYTES, copy, v->msglen), 0);
	if (memcmp(out, v->md, KAT_MDBYTES) != 0) {
		if (mismatches < 5) {
			print_error("Count = %lu (%zu-byte Msg) differs\n",
				    v->count, v->msglen);
		}
		mismatches++;
	}
	assert_true(kat_suite_all_bytes(out + CRYPTO_BYTES, TAIL, CANARY));
	assert_memory_equal(copy, v->msg, v->msglen);
}

static void test_ascon_xof128_all_kat_vectors(void **state)
{
	unsigned long n;

	(void)state;
	mismatches = 0;
	n = for_each_vector(check_output);
	assert_int_equal(n, KAT_VECTORS);
	assert_int_equal(mismatches, 0);
}

static unsigned long tried;

/*
 * Each vector at one shorter length (Count mod 65, so every length 0..64
 * is met about 16 times, with messages of every length): the output is the
 * start of the file's MD and nothing is written past it.
 */
static void check_shorter_is_prefix(const struct kat_suite_md *v)
{
	size_t outlen = (size_t)(v->count % (KAT_MDBYTES + 1u));

	memset(out, CANARY, sizeof(out));
	assert_int_equal(crypto_xof(out, outlen, v->msg, v->msglen), 0);
	if (memcmp(out, v->md, outlen) != 0) {
		fail_msg(
			"Count = %lu: the %zu-byte output is not a prefix of MD",
			v->count, outlen);
	}
	assert_true(kat_suite_all_bytes(out + outlen, TAIL, CANARY));
	tried++;
}

static void test_ascon_xof128_shorter_output_is_prefix_of_kat(void **state)
{
	(void)state;
	tried = 0;
	assert_int_equal(for_each_vector(check_shorter_is_prefix), KAT_VECTORS);
	assert_int_equal(tried, KAT_VECTORS);
}

/*
 * A few messages (empty, shorter than, equal to and longer than a block)
 * squeezed to LONG_OUT bytes, which starts with the file's MD; then every
 * length 0..LONG_OUT, each the start of the longest.
 */
static void check_every_length_is_prefix(const struct kat_suite_md *v)
{
	size_t outlen;

	if (v->msglen != 0 && v->msglen != 5 && v->msglen != 8 &&
	    v->msglen != 77) {
		return;
	}
	assert_int_equal(crypto_xof(longer, LONG_OUT, v->msg, v->msglen), 0);
	assert_memory_equal(longer, v->md, KAT_MDBYTES);
	for (outlen = 0; outlen <= LONG_OUT; outlen++) {
		memset(out, CANARY, sizeof(out));
		assert_int_equal(crypto_xof(out, outlen, v->msg, v->msglen), 0);
		if (memcmp(out, longer, outlen) != 0) {
			fail_msg(
				"Count = %lu: %zu-byte output is not a prefix of the %u-byte one",
				v->count, outlen, LONG_OUT);
		}
		assert_true(kat_suite_all_bytes(out + outlen, TAIL, CANARY));
	}
	tried++;
}

static void test_ascon_xof128_every_length_is_prefix_of_longer(void **state)
{
	(void)state;
	tried = 0;
	assert_int_equal(for_each_vector(check_every_length_is_prefix),
			 KAT_VECTORS);
	assert_int_equal(tried, 4);
}

/* outlen 0 writes nothing, also through NULL pointers for both buffers. */
static void test_ascon_xof128_empty_output_writes_nothing(void **state)
{
	static const unsigned char msg[3] = {0x00, 0x01, 0x02};

	(void)state;
	memset(out, CANARY, sizeof(out));
	assert_int_equal(crypto_xof(out, 0, msg, sizeof(msg)), 0);
	assert_true(kat_suite_all_bytes(out, sizeof(out), CANARY));
	assert_int_equal(crypto_xof(out, 0, NULL, 0), 0);
	assert_true(kat_suite_all_bytes(out, sizeof(out), CANARY));
	assert_int_equal(crypto_xof(NULL, 0, NULL, 0), 0);
	assert_int_equal(crypto_xof(NULL, 0, msg, sizeof(msg)), 0);
}

/* Count = 1 (empty Msg) through a NULL pointer, as callers may pass it. */
static void check_null_empty(const struct kat_suite_md *v)
{
	if (v->count != 1) {
		return;
	}
	assert_int_equal(v->msglen, 0);
	memset(out, CANARY, sizeof(out));
	assert_int_equal(crypto_xof(out, CRYPTO_BYTES, NULL, 0), 0);
	assert_memory_equal(out, v->md, KAT_MDBYTES);
	assert_true(kat_suite_all_bytes(out + CRYPTO_BYTES, TAIL, CANARY));
	tried++;
}

static void test_ascon_xof128_accepts_null_for_empty_message(void **state)
{
	(void)state;
	tried = 0;
	assert_int_equal(for_each_vector(check_null_empty), KAT_VECTORS);
	assert_int_equal(tried, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			test_ascon_xof128_default_length_is_the_kat_length),
		cmocka_unit_test(test_ascon_xof128_all_kat_vectors),
		cmocka_unit_test(
			test_ascon_xof128_shorter_output_is_prefix_of_kat),
		cmocka_unit_test(
			test_ascon_xof128_every_length_is_prefix_of_longer),
		cmocka_unit_test(test_ascon_xof128_empty_output_writes_nothing),
		cmocka_unit_test(
			test_ascon_xof128_accepts_null_for_empty_message),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
