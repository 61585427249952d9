/* test_faultdesc: a Cortex-M fault the stub reports is named in words (CFSR's bits) and placed in the image's function that took it. */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "image/elfinfo.h"
#include "run/faultdesc.h"
#include "util/err.h"

/* An unaligned doubleword store (UFSR UNALIGNED, CFSR bit 24), as ISAP's
 * opt_32 takes it storing its tag through a u64 pointer. */
static void test_unaligned_usage_fault_is_named(void **state)
{
	char buf[512];

	(void)state;
	hil_fault_cfsr_text(0x01000000u, buf, sizeof(buf));
	assert_non_null(strstr(buf, "UsageFault UNALIGNED"));
	assert_non_null(strstr(buf, "LDRD, STRD, LDM or STM"));
	assert_null(strstr(buf, "BusFault"));
}

/* Several bits: each named, in CFSR's order; none: the raw value. */
static void test_every_bit_set_is_named_and_none_gives_the_value(void **state)
{
	char buf[512];

	(void)state;
	hil_fault_cfsr_text(0x00000200u | 0x00020000u, buf, sizeof(buf));
	assert_non_null(strstr(buf, "BusFault PRECISERR"));
	assert_non_null(strstr(buf, "UsageFault INVSTATE"));
	assert_true(strstr(buf, "PRECISERR") < strstr(buf, "INVSTATE"));
	hil_fault_cfsr_text(0, buf, sizeof(buf));
	assert_string_equal(buf, "fault status 0x00000000");
	/* A short buffer is cut, never overrun. */
	hil_fault_cfsr_text(0x01000000u, buf, 12);
	assert_int_equal(strlen(buf), 11);
}

/* The PC placed in the function that holds it, with its offset; a PC in
 * no function, or no ELF, gives the PC alone. */
static void test_pc_is_placed_in_its_function(void **state)
{
	char dir[] = "/tmp/hiltest-fault-XXXXXX";
	char src[64], elf[64], cmd[256], buf[640], fn[64];
	unsigned long long addr = 0;
	uint64_t off = 0;
	FILE *fp;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(src, sizeof(src), "%s/p.c", dir);
	snprintf(elf, sizeof(elf), "%s/p", dir);
	fp = fopen(src, "w");
	assert_non_null(fp);
	fputs("int hil_t_victim(int x) { return x * 7 + 3; }\n"
	      "int main(int argc, char **argv) { (void)argv;"
	      " return hil_t_victim(argc); }\n",
	      fp);
	fclose(fp);
	snprintf(cmd, sizeof(cmd), "cc -O1 -o %s %s", elf, src);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "nm %s | grep ' hil_t_victim$'", elf);
	fp = popen(cmd, "r");
	assert_non_null(fp);
	assert_int_equal(fscanf(fp, "%llx", &addr), 1);
	pclose(fp);
	assert_int_equal(
		hil_elf_function_at(elf, addr + 2, fn, sizeof(fn), &off),
		HIL_OK);
	assert_string_equal(fn, "hil_t_victim");
	assert_int_equal(off, 2);
	hil_fault_describe((uint32_t)(addr + 2), 0x01000000u, elf, buf,
			   sizeof(buf));
	assert_non_null(strstr(buf, "UsageFault UNALIGNED"));
	assert_non_null(strstr(buf, "(hil_t_victim+0x2)"));
	assert_int_equal(hil_elf_function_at(elf, 0x10, fn, sizeof(fn), &off),
			 HIL_ERR_NA);
	hil_fault_describe(0x10, 0x01000000u, NULL, buf, sizeof(buf));
	assert_non_null(strstr(buf, "at PC 0x00000010"));
	assert_null(strstr(buf, "+0x"));
	unlink(elf);
	unlink(src);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_unaligned_usage_fault_is_named),
		cmocka_unit_test(
			test_every_bit_set_is_named_and_none_gives_the_value),
		cmocka_unit_test(test_pc_is_placed_in_its_function),
	};

	return cmocka_run_group_tests_name("faultdesc", tests, NULL, NULL);
}
