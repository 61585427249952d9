/* Unit tests of the per-implementation size attribution from a GNU ld map. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/err.h"
#include "image/mapsizes.h"

/* The shapes GNU ld 2.40 writes: discarded sections first, then the map
 * with long names on their own line, fills, symbols and output sections. */
static const char map[] =
	"Archive member included to satisfy reference by file (symbol)\n"
	"\n"
	"Discarded input sections\n"
	"\n"
	" .text.unused   0x00000000       0x40 /b/fw/crypto/ascon-aead128/ref/encrypt.o\n"
	"\n"
	"Memory Configuration\n"
	"\n"
	"Linker script and memory map\n"
	"\n"
	".text           0x08000000     0x1000\n"
	" *(.text .text.*)\n"
	" .text.main     0x08000000      0x100 /b/fw/core/target/main.o\n"
	" .text.ascon_permute\n"
	"                0x08000100      0x1c4 /b/fw/crypto/ascon-aead128/ref/encrypt.o\n"
	" *fill*         0x080002c4        0x4 \n"
	" .text.ascon_aead128_ref_aead_encrypt\n"
	"                0x080002c8      0x31c /b/fw/crypto/ascon-aead128/ref/encrypt.o\n"
	"                0x080002c8                ascon_aead128_ref_aead_encrypt\n"
	" .text          0x080005e4       0x20 /b/fw/crypto/speck64-128-ecb/ref/speck.o\n"
	"\n"
	".rodata         0x08001000       0x80\n"
	" .rodata.ascon_rc\n"
	"                0x08001000       0x10 /b/fw/crypto/ascon-aead128/ref/encrypt.o\n"
	" .rodata.ascon_aead128_ref_alg\n"
	"                0x08001010       0x30 /b/fw/crypto/ascon-aead128/ref/glue.o\n"
	"\n"
	".data           0x20000000        0x8 load address 0x08001080\n"
	" .data.counter  0x20000000        0x8 /b/fw/crypto/speck64-128-ecb/ref/speck.o\n"
	"\n"
	".bss            0x20000008      0x104\n"
	" .bss.table     0x20000008      0x100 /b/fw/crypto/speck64-128-ecb/ref/speck.o\n"
	" COMMON         0x20000108        0x4 /b/fw/crypto/speck64-128-ecb/ref/speck.o\n"
	"\n"
	".ARM.attributes\n"
	"                0x00000000       0x2e\n"
	" .ARM.attributes\n"
	"                0x00000000       0x2e /b/fw/crypto/ascon-aead128/ref/encrypt.o\n";

static void test_sizes_are_attributed_per_implementation(void **state)
{
	struct hil_impl_size *z = NULL;
	size_t n = 0, cap = 0;

	(void)state;
	assert_int_equal(hil_map_impl_sizes_text(map, &z, &n, &cap), HIL_OK);
	assert_int_equal(n, 2);
	assert_string_equal(z[0].algorithm, "ascon-aead128");
	assert_string_equal(z[0].implementation, "ref");
	/* Kept code only: the discarded .text.unused is not counted. */
	assert_int_equal(z[0].text, 0x1c4 + 0x31c);
	/* The glue's descriptor is the harness's, not the implementation's. */
	assert_int_equal(z[0].rodata, 0x10);
	assert_int_equal(z[0].data, 0);
	assert_int_equal(z[0].bss, 0);
	assert_string_equal(z[1].algorithm, "speck64-128-ecb");
	assert_int_equal(z[1].text, 0x20);
	assert_int_equal(z[1].data, 8);
	assert_int_equal(z[1].bss, 0x104);
	free(z);
}

static void test_text_without_a_memory_map_is_rejected(void **state)
{
	struct hil_impl_size *z = NULL;
	size_t n = 7, cap = 0;

	(void)state;
	assert_int_equal(hil_map_impl_sizes_text("hello\n", &z, &n, &cap),
			 HIL_ERR_PROTO);
	assert_int_equal(n, 0);
	free(z);
}

/* A map of more implementations than any fixed table held (600: a whole
 * NIST tree and more) keeps every one, each with its own figures. */
static void test_every_implementation_of_a_large_map_is_kept(void **state)
{
	const size_t want = 600;
	size_t len = 4096 + want * 200, used, i, n = 0, cap = 0;
	struct hil_impl_size *z = NULL;
	char *text = malloc(len);

	(void)state;
	assert_non_null(text);
	used = (size_t)snprintf(text, len,
				"Discarded input sections\n\n"
				"Linker script and memory map\n\n"
				".text           0x08000000     0x9000\n");
	for (i = 0; i < want; i++) {
		used += (size_t)snprintf(
			text + used, len - used,
			" .text          0x%08zx       0x%zx /b/fw/crypto/alg%zu/impl%zu/encrypt.o\n",
			0x08000000 + i * 0x100, i + 1, i % 7, i);
	}
	assert_int_equal(hil_map_impl_sizes_text(text, &z, &n, &cap), HIL_OK);
	assert_int_equal(n, want);
	for (i = 0; i < want; i++) {
		char impl[32];

		snprintf(impl, sizeof(impl), "impl%zu", i);
		assert_string_equal(z[i].implementation, impl);
		assert_int_equal(z[i].text, i + 1);
	}
	free(z);
	free(text);
}

static void test_missing_map_file_is_an_io_error(void **state)
{
	struct hil_impl_size *z = NULL;
	size_t n = 0, cap = 0;

	(void)state;
	assert_int_equal(
		hil_map_impl_sizes("/nonexistent/stub.map", &z, &n, &cap),
		HIL_ERR_IO);
	free(z);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sizes_are_attributed_per_implementation),
		cmocka_unit_test(test_text_without_a_memory_map_is_rejected),
		cmocka_unit_test(
			test_every_implementation_of_a_large_map_is_kept),
		cmocka_unit_test(test_missing_map_file_is_an_io_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
