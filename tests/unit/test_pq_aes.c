/* test_pq_aes: hilrun's own portable AES (target/pq/common/aes.c) against FIPS 197's example vectors, and its CTR mode as mupq's aes.h defines it (12-byte iv, 32-bit big-endian counter from 0). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "pq/common/aes.h"

static void hex(const uint8_t *p, size_t n, char *out)
{
	size_t i;

	for (i = 0; i < n; i++) {
		sprintf(out + 2 * i, "%02x", p[i]);
	}
}

/* FIPS 197 Appendix C.1-C.3: key 00 01 02 .., plaintext 00 11 22 .. ff. */
static void test_fips197_examples(void **state)
{
	uint8_t key[32], in[16], out[16];
	char h[33];
	aes128ctx a;
	aes192ctx b;
	aes256ctx c;
	unsigned i;

	(void)state;
	for (i = 0; i < 32; i++) {
		key[i] = (uint8_t)i;
	}
	for (i = 0; i < 16; i++) {
		in[i] = (uint8_t)(i << 4 | i);
	}
	aes128_ecb_keyexp(&a, key);
	aes128_ecb(out, in, 1, &a);
	hex(out, 16, h);
	assert_string_equal(h, "69c4e0d86a7b0430d8cdb78070b4c55a");
	aes192_ecb_keyexp(&b, key);
	aes192_ecb(out, in, 1, &b);
	hex(out, 16, h);
	assert_string_equal(h, "dda97ca4864cdfe06eaf70a0ec0d7191");
	aes256_ecb_keyexp(&c, key);
	aes256_ecb(out, in, 1, &c);
	hex(out, 16, h);
	assert_string_equal(h, "8ea2b7ca516745bfeafc49904b496089");
}

/* CTR: block j of the keystream is ECB(iv || j as 32-bit big-endian); a
 * length that is not a whole number of blocks ends mid-block. */
static void test_ctr_counter_layout(void **state)
{
	uint8_t key[16] = {0}, iv[12], ks[40], block[16], want[16];
	aes128ctx a;
	unsigned j;

	(void)state;
	for (j = 0; j < 12; j++) {
		iv[j] = (uint8_t)(0xA0 + j);
	}
	key[0] = 1;
	aes128_ctr_keyexp(&a, key);
	aes128_ctr(ks, sizeof(ks), iv, &a);
	aes128_ecb_keyexp(&a, key);
	for (j = 0; j < 3; j++) {
		memcpy(block, iv, 12);
		block[12] = block[13] = block[14] = 0;
		block[15] = (uint8_t)j;
		aes128_ecb(want, block, 1, &a);
		assert_memory_equal(ks + 16 * j, want,
				    j < 2 ? 16 : sizeof(ks) - 32);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fips197_examples),
		cmocka_unit_test(test_ctr_counter_layout),
	};

	return cmocka_run_group_tests_name("pq_aes", tests, NULL, NULL);
}
