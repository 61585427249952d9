/* test_pq_fips202: hilrun's own portable SHA-3/SHAKE (target/pq/common/fips202.c) against FIPS 202 test vectors, and its incremental API against the one-shot one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "pq/common/fips202.h"

static void hex(const uint8_t *p, size_t n, char *out)
{
	size_t i;

	for (i = 0; i < n; i++) {
		sprintf(out + 2 * i, "%02x", p[i]);
	}
}

/* NIST's example values (SHA3-256 and SHA3-512 of "" and "abc", SHAKE128
 * and SHAKE256 of ""). */
static void test_known_digests(void **state)
{
	uint8_t d[64];
	char h[129];

	(void)state;
	sha3_256(d, (const uint8_t *)"", 0);
	hex(d, 32, h);
	assert_string_equal(h,
			    "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82"
			    "d80a4b80f8434a");
	sha3_256(d, (const uint8_t *)"abc", 3);
	hex(d, 32, h);
	assert_string_equal(h,
			    "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46"
			    "bfe24511431532");
	sha3_512(d, (const uint8_t *)"abc", 3);
	hex(d, 64, h);
	assert_string_equal(h,
			    "b751850b1a57168a5693cd924b6b096e08f621827444f70d88"
			    "4f5d0240d2712e10e116e9192af3c91a7ec57647e3934057"
			    "340b4cf408d5a56592f8274eec53f0");
	shake128(d, 32, (const uint8_t *)"", 0);
	hex(d, 32, h);
	assert_string_equal(h,
			    "7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb"
			    "1a6eacfa66ef26");
	shake256(d, 32, (const uint8_t *)"", 0);
	hex(d, 32, h);
	assert_string_equal(h,
			    "46b9dd2b0ba88d13233b3feb743eeb243fcd52ea62b81b82b5"
			    "0c27646ed5762f");
}

/* Absorbing in pieces across block boundaries and squeezing in pieces
 * gives the one-shot output; squeezeblocks gives the same stream. */
static void test_incremental_matches_one_shot(void **state)
{
	uint8_t in[500], a[400], b[400];
	shake128incctx inc;
	shake128ctx ctx;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(in); i++) {
		in[i] = (uint8_t)(i * 7 + 1);
	}
	shake128(a, sizeof(a), in, sizeof(in));
	shake128_inc_init(&inc);
	shake128_inc_absorb(&inc, in, 1);
	shake128_inc_absorb(&inc, in + 1, 167);
	shake128_inc_absorb(&inc, in + 168, 332);
	shake128_inc_finalize(&inc);
	shake128_inc_squeeze(b, 5, &inc);
	shake128_inc_squeeze(b + 5, 200, &inc);
	shake128_inc_squeeze(b + 205, 195, &inc);
	assert_memory_equal(a, b, sizeof(a));
	shake128_absorb(&ctx, in, sizeof(in));
	shake128_squeezeblocks(b, 2, &ctx);
	assert_memory_equal(a, b, 2 * SHAKE128_RATE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known_digests),
		cmocka_unit_test(test_incremental_matches_one_shot),
	};

	return cmocka_run_group_tests_name("pq_fips202", tests, NULL, NULL);
}
