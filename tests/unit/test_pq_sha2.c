/* test_pq_sha2: hilrun's own portable SHA-2 (target/pq/common/sha2.c) against FIPS 180-4 example values, and its block-wise API against the one-shot one across padding boundaries. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "pq/common/sha2.h"

static void hex(const uint8_t *p, size_t n, char *out)
{
	size_t i;

	for (i = 0; i < n; i++) {
		sprintf(out + 2 * i, "%02x", p[i]);
	}
}

/* "abc" through each of the four (NIST's example values). */
static void test_abc(void **state)
{
	const uint8_t *abc = (const uint8_t *)"abc";
	uint8_t d[64];
	char h[129];

	(void)state;
	sha224(d, abc, 3);
	hex(d, 28, h);
	assert_string_equal(h,
			    "23097d223405d8228642a477bda255b32aadbce4bda0b3f7"
			    "e36c9da7");
	sha256(d, abc, 3);
	hex(d, 32, h);
	assert_string_equal(h,
			    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9c"
			    "b410ff61f20015ad");
	sha384(d, abc, 3);
	hex(d, 48, h);
	assert_string_equal(h,
			    "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded163"
			    "1a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7");
	sha512(d, abc, 3);
	hex(d, 64, h);
	assert_string_equal(h,
			    "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea2"
			    "0a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd"
			    "454d4423643ce80e2a9ac94fa54ca49f");
}

/* 300 bytes (i mod 256): whole blocks through inc_blocks, the rest through
 * inc_finalize, the same as one call (values from Python's hashlib). */
static void test_blocks_then_finalize(void **state)
{
	uint8_t m[300], d[64];
	char h[129];
	sha256ctx c256;
	sha512ctx c512;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(m); i++) {
		m[i] = (uint8_t)i;
	}
	sha256_inc_init(&c256);
	sha256_inc_blocks(&c256, m, 2);
	sha256_inc_finalize(d, &c256, m + 128, sizeof(m) - 128);
	hex(d, 32, h);
	assert_string_equal(h,
			    "7728ae2f2c36e2aaafbe79ca14c87ae2f89e7c88c4390ecb"
			    "bf82dce88706958d");
	sha512_inc_init(&c512);
	sha512_inc_blocks(&c512, m, 2);
	sha512_inc_finalize(d, &c512, m + 256, sizeof(m) - 256);
	hex(d, 64, h);
	assert_string_equal(h,
			    "f1dca2eb677b303265b0b9baff0e061202818f35c1470a69"
			    "bbaa9bb66025e948d90e565e69642506c6213aef3cf9e929"
			    "357a59da263deb34d1236dbdcda279b3");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_abc),
		cmocka_unit_test(test_blocks_then_finalize),
	};

	return cmocka_run_group_tests_name("pq_sha2", tests, NULL, NULL);
}
