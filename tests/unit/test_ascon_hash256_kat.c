/* test_ascon_hash256_kat: the Ascon-Hash256 reference against all 1025 official known-answer vectors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "api.h"
#include "crypto_hash.h"
#include "kat_suite.h"

/* The official ascon-c file (SP 800-232 Ascon-Hash256), copied unchanged into tests/kat. */
#define KAT_FILE    "asconhash256_LWC_HASH_KAT_128_256.txt"
/* Msg lengths 0..1024, one vector each. */
#define KAT_VECTORS 1025ul

/* Output buffers get a canary tail: a write past the digest shows up. */
#define CANARY 0xA5
#define TAIL   32

/* Field-sized buffers: file scope rather than the stack. */
static unsigned char out[CRYPTO_BYTES + TAIL];
static unsigned char copy[KAT_FIELD_MAX];

/* Run check on every vector of the file; returns how many there were. */
static unsigned long
for_each_vector(void (*check)(const struct kat_suite_md *v))
{
	return kat_suite_each_md(KAT_FILE, CRYPTO_BYTES, check);
}

static unsigned long mismatches;

/*
 * The message is hashed from a copy, which is then compared with the
 * original: the input is read, never written.
 */
static void check_digest(const struct kat_suite_md *v)
{
	memcpy(copy, v->msg, v->msglen);
	memset(out, CANARY, sizeof(out));
	assert_int_equal(crypto_hash(out, copy, v->msglen), 0);
	if (memcmp(out, v->md, CRYPTO_BYTES) != 0) {
		if (mismatches < 5) {
			print_error("Count = %lu (%zu-byte Msg) differs\n",
				    v->count, v->msglen);
		}
		mismatches++;
	}
	assert_true(kat_suite_all_bytes(out + CRYPTO_BYTES, TAIL, CANARY));
	assert_memory_equal(copy, v->msg, v->msglen);
}

static void test_ascon_hash256_all_kat_vectors(void **state)
{
	unsigned long n;

	(void)state;
	mismatches = 0;
	n = for_each_vector(check_digest);
	assert_int_equal(n, KAT_VECTORS);
	assert_int_equal(mismatches, 0);
}

static unsigned long tried;

/* Count = 1 (empty Msg) through a NULL pointer, as callers may pass it. */
static void check_null_empty(const struct kat_suite_md *v)
{
	if (v->count != 1) {
		return;
	}
	assert_int_equal(v->msglen, 0);
	memset(out, CANARY, sizeof(out));
	assert_int_equal(crypto_hash(out, NULL, 0), 0);
	assert_memory_equal(out, v->md, CRYPTO_BYTES);
	assert_true(kat_suite_all_bytes(out + CRYPTO_BYTES, TAIL, CANARY));
	tried++;
}

static void test_ascon_hash256_accepts_null_for_empty_message(void **state)
{
	(void)state;
	tried = 0;
	assert_int_equal(for_each_vector(check_null_empty), KAT_VECTORS);
	assert_int_equal(tried, 1);
}

/*
 * Every vector with a message, one bit flipped (a different bit and byte
 * for each): the digest must differ from the one in the file.
 */
static void check_flipped_message(const struct kat_suite_md *v)
{
	if (v->msglen == 0) {
		return;
	}
	memcpy(copy, v->msg, v->msglen);
	copy[v->count % v->msglen] ^= (unsigned char)(1u << (v->count % 8));
	assert_int_equal(crypto_hash(out, copy, v->msglen), 0);
	if (memcmp(out, v->md, CRYPTO_BYTES) == 0) {
		fail_msg("Count = %lu: a flipped message bit kept the digest",
			 v->count);
	}
	tried++;
}

static void test_ascon_hash256_flipped_message_bit_changes_digest(void **state)
{
	(void)state;
	tried = 0;
	assert_int_equal(for_each_vector(check_flipped_message), KAT_VECTORS);
	assert_int_equal(tried, KAT_VECTORS - 1); /* all but the empty Msg */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ascon_hash256_all_kat_vectors),
		cmocka_unit_test(
			test_ascon_hash256_accepts_null_for_empty_message),
		cmocka_unit_test(
			test_ascon_hash256_flipped_message_bit_changes_digest),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
