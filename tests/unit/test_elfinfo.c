/* test_elfinfo: build-id, SHA-256, compiler string, sizes and symbols of ELFs compiled at test time, checked against binutils and sha256sum. */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "util/err.h"
#include "image/elfinfo.h"
#include "unit_util.h"

#define BUILD_ID "0123456789abcdef0123456789abcdef01234567"

/* ---- helpers ---- */

/* Run a shell command line (test fixtures only) and return its first output line. */
static int run(const char *cmd, char *out, size_t len)
{
	FILE *p = popen(cmd, "r");
	int st;

	assert_non_null(p);
	if (out != NULL) {
		out[0] = '\0';
		if (fgets(out, (int)len, p) == NULL) {
			out[0] = '\0';
		}
		out[strcspn(out, "\n")] = '\0';
	}
	while (fgetc(p) != EOF) {
	}
	st = pclose(p);
	return st;
}

/* A symbol's size as nm -S reports it. */
static unsigned long long nm_size(const char *elf, const char *sym)
{
	char cmd[256], line[256];
	unsigned long long addr = 0, size = 0;

	snprintf(cmd, sizeof(cmd), "nm -S %s | grep ' %s$'", elf, sym);
	assert_int_equal(run(cmd, line, sizeof(line)), 0);
	assert_int_equal(sscanf(line, "%llx %llx", &addr, &size), 2);
	return size;
}

struct fixture {
	char dir[64];
	char src[96];
	char with_id[96]; /* --build-id=0x0123... */
	char no_id[96];	  /* --build-id=none */
	char stripped[96];
	char not_elf[96];
	char missing[96];
};

/*
 * The program whose ELF we inspect: a few functions and objects with a
 * common prefix, an alias, and a .stack section as in a firmware image.
 */
static const char source[] =
	"__asm__(\".section .stack,\\\"aw\\\",%nobits\\n.space 1024\\n.previous\");\n"
	"const unsigned char hil_t_table[64] = { 1 };\n"
	"unsigned hil_t_rw[4] = { 1, 2, 3, 4 };\n"
	"unsigned hil_t_zero[8];\n"
	"extern unsigned hil_t_alias[4] __attribute__((alias(\"hil_t_rw\")));\n"
	"int hil_t_fn_a(int x) { return x * 3 + hil_t_table[x & 63]; }\n"
	"int hil_t_fn_b(int x) { hil_t_zero[x & 7] = (unsigned)x; return (int)hil_t_rw[x & 3]; }\n"
	"int other_fn(int x) { return x + 1; }\n"
	"int main(int argc, char **argv) { (void)argv; return hil_t_fn_a(argc) + hil_t_fn_b(argc) + other_fn(argc); }\n";

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	char cmd[512];
	FILE *fp;

	assert_non_null(f);
	snprintf(f->dir, sizeof(f->dir), "/tmp/hiltest-elf-XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	snprintf(f->src, sizeof(f->src), "%s/prog.c", f->dir);
	snprintf(f->with_id, sizeof(f->with_id), "%s/with_id", f->dir);
	snprintf(f->no_id, sizeof(f->no_id), "%s/no_id", f->dir);
	snprintf(f->stripped, sizeof(f->stripped), "%s/stripped", f->dir);
	snprintf(f->not_elf, sizeof(f->not_elf), "%s/not_elf.txt", f->dir);
	snprintf(f->missing, sizeof(f->missing), "%s/missing.elf", f->dir);

	fp = fopen(f->src, "w");
	assert_non_null(fp);
	fputs(source, fp);
	fclose(fp);
	snprintf(cmd, sizeof(cmd),
		 "cc -O1 -o %s %s -Wl,--build-id=0x" BUILD_ID " 2>&1",
		 f->with_id, f->src);
	assert_int_equal(run(cmd, NULL, 0), 0);
	snprintf(cmd, sizeof(cmd), "cc -O1 -o %s %s -Wl,--build-id=none 2>&1",
		 f->no_id, f->src);
	assert_int_equal(run(cmd, NULL, 0), 0);
	snprintf(cmd, sizeof(cmd), "strip -o %s %s 2>&1", f->stripped,
		 f->with_id);
	assert_int_equal(run(cmd, NULL, 0), 0);
	fp = fopen(f->not_elf, "w");
	assert_non_null(fp);
	fputs("this is not an ELF file\n", fp);
	fclose(fp);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	unlink(f->src);
	unlink(f->with_id);
	unlink(f->no_id);
	unlink(f->stripped);
	unlink(f->not_elf);
	rmdir(f->dir);
	free(f);
	return 0;
}

/* ---- tests ---- */

static void test_build_id_is_read_exactly(void **state)
{
	struct fixture *f = *state;
	struct hil_elf_info info;
	static const uint8_t id[] = {0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd,
				     0xef, 0x01, 0x23, 0x45, 0x67, 0x89, 0xab,
				     0xcd, 0xef, 0x01, 0x23, 0x45, 0x67};

	assert_int_equal(hil_elf_info(f->with_id, &info), HIL_OK);
	assert_string_equal(info.build_id_hex, BUILD_ID);
	assert_int_equal(info.build_id_len, sizeof(id));
	assert_memory_equal(info.build_id, id, sizeof(id));
}

static void test_sha256_matches_sha256sum(void **state)
{
	struct fixture *f = *state;
	struct hil_elf_info info;
	char cmd[256], line[256];

	assert_int_equal(hil_elf_info(f->with_id, &info), HIL_OK);
	snprintf(cmd, sizeof(cmd), "sha256sum %s", f->with_id);
	assert_int_equal(run(cmd, line, sizeof(line)), 0);
	line[64] = '\0';
	assert_string_equal(info.sha256_hex, line);
}

static void test_compiler_string_comes_from_comment(void **state)
{
	struct fixture *f = *state;
	struct hil_elf_info info;
	char line[256];

	assert_int_equal(hil_elf_info(f->with_id, &info), HIL_OK);
	assert_non_null(strstr(info.compiler, "GCC: ("));
	/* the same version string the compiler prints */
	assert_int_equal(run("cc -dumpfullversion", line, sizeof(line)), 0);
	assert_non_null(strstr(info.compiler, line));
	/* each distinct string once, even though every object file adds one */
	assert_null(strstr(strstr(info.compiler, "GCC: (") + 1, "GCC: ("));
}

static void test_sizes_match_berkeley_size_with_stack_apart(void **state)
{
	struct fixture *f = *state;
	struct hil_elf_info info;
	char cmd[256], line[256];
	unsigned long long text, data, bss;

	assert_int_equal(hil_elf_info(f->with_id, &info), HIL_OK);
	snprintf(cmd, sizeof(cmd), "size -B %s | tail -n 1", f->with_id);
	assert_int_equal(run(cmd, line, sizeof(line)), 0);
	assert_int_equal(sscanf(line, "%llu %llu %llu", &text, &data, &bss), 3);
	assert_int_equal(info.sizes.text, text);
	assert_int_equal(info.sizes.data, data);
	assert_int_equal(info.stack, 1024);
	assert_int_equal(info.sizes.bss + info.stack, bss);
	assert_int_equal(info.flash, text + data);
	assert_int_equal(info.ram, data + bss - 1024);
	assert_int_equal(info.machine, 62); /* EM_X86_64 */
}

static void test_missing_file_is_an_io_error_naming_it(void **state)
{
	struct fixture *f = *state;
	struct hil_elf_info info;
	struct ut_capture c;
	char log[2048];

	ut_capture_begin(&c);
	assert_int_equal(hil_elf_info(f->missing, &info), HIL_ERR_IO);
	assert_int_equal(hil_elf_has_symbol(f->missing, "main"), HIL_ERR_IO);
	ut_capture_end(&c, log, sizeof(log));
	assert_non_null(strstr(log, f->missing));
	assert_non_null(strstr(log, "No such file"));
}

static void test_non_elf_file_is_rejected_naming_it(void **state)
{
	struct fixture *f = *state;
	struct hil_elf_info info;
	struct hil_elf_sizes s;
	struct ut_capture c;
	char log[2048];

	ut_capture_begin(&c);
	assert_int_equal(hil_elf_info(f->not_elf, &info), HIL_ERR_ARG);
	assert_int_equal(
		hil_elf_symbol_size_by_prefix(f->not_elf, "x", &s, NULL),
		HIL_ERR_ARG);
	assert_int_equal(hil_elf_info("/tmp", &info), HIL_ERR_ARG);
	ut_capture_end(&c, log, sizeof(log));
	assert_non_null(strstr(log, f->not_elf));
	assert_non_null(strstr(log, "not an ELF"));
	assert_non_null(strstr(log, "/tmp: not a regular file"));
}

/* The first n bytes of from, as a new file to (a link killed half-way). */
static void cut_copy(const char *from, const char *to, long n)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "head -c %ld %s > %s", n, from, to);
	assert_int_equal(run(cmd, NULL, 0), 0);
}

static long file_size(const char *path)
{
	char cmd[256], line[64];

	snprintf(cmd, sizeof(cmd), "stat -c %%s %s", path);
	assert_int_equal(run(cmd, line, sizeof(line)), 0);
	return atol(line);
}

/*
 * What a killed link leaves: an empty file, one cut in the middle of its
 * contents, one cut one byte short of its section headers. Each is refused
 * by every reader here with an error naming it and saying what is wrong,
 * where libelf alone would read what there is (an image without its
 * build-id, or sizes of half an image).
 */
static void test_empty_or_cut_short_elf_is_refused_naming_it(void **state)
{
	struct fixture *f = *state;
	struct hil_elf_info info;
	struct hil_elf_sizes s;
	struct ut_capture c;
	char cut[128], log[4096];
	long whole = file_size(f->with_id);
	const long at[] = {0, whole / 2, whole - 1};
	size_t i;

	snprintf(cut, sizeof(cut), "%s/cut.elf", f->dir);
	for (i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		cut_copy(f->with_id, cut, at[i]);
		ut_capture_begin(&c);
		assert_int_equal(hil_elf_info(cut, &info), HIL_ERR_ARG);
		assert_int_equal(hil_elf_has_symbol(cut, "main"), HIL_ERR_ARG);
		assert_int_equal(
			hil_elf_symbol_size_by_prefix(cut, "hil_t_", &s, NULL),
			HIL_ERR_ARG);
		ut_capture_end(&c, log, sizeof(log));
		assert_non_null(strstr(log, cut));
		assert_non_null(strstr(log, at[i] == 0 ? "empty (0 bytes)"
						       : "cut short"));
		assert_non_null(strstr(log, "remove it"));
	}
	/* The whole file, copied the same way, is read. */
	cut_copy(f->with_id, cut, whole);
	assert_int_equal(hil_elf_info(cut, &info), HIL_OK);
	assert_string_equal(info.build_id_hex, BUILD_ID);
	unlink(cut);
}

static void
test_elf_without_build_id_is_reported_with_other_fields_filled(void **state)
{
	struct fixture *f = *state;
	struct hil_elf_info info;
	struct ut_capture c;
	char log[2048];

	ut_capture_begin(&c);
	assert_int_equal(hil_elf_info(f->no_id, &info), HIL_ERR_NA);
	ut_capture_end(&c, log, sizeof(log));
	assert_non_null(strstr(log, f->no_id));
	assert_non_null(strstr(log, "build-id"));
	assert_int_equal(info.build_id_len, 0);
	assert_string_equal(info.build_id_hex, "");
	assert_int_equal(strlen(info.sha256_hex), 64);
	assert_true(info.sizes.text > 0);
}

static void test_has_symbol_finds_defined_symbols_only(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(hil_elf_has_symbol(f->with_id, "hil_t_fn_a"), 1);
	assert_int_equal(hil_elf_has_symbol(f->with_id, "hil_t_rw"), 1);
	assert_int_equal(hil_elf_has_symbol(f->with_id, "hil_no_such_symbol"),
			 0);
	assert_int_equal(hil_elf_has_symbol(f->with_id, "hil_t_fn"), 0);
	/* not linked in: the program does not call malloc */
	assert_int_equal(hil_elf_has_symbol(f->with_id, "malloc"), 0);
	assert_int_equal(hil_elf_has_symbol(f->with_id, "_sbrk"), 0);
}

static void test_has_symbol_does_not_count_undefined_references(void **state)
{
	struct fixture *f = *state;
	char cmd[256], line[256];

	/* __libc_start_main is referenced, resolved from libc at run time */
	snprintf(cmd, sizeof(cmd), "nm -u %s | grep -c __libc_start_main",
		 f->with_id);
	assert_int_equal(run(cmd, line, sizeof(line)), 0);
	assert_int_equal(hil_elf_has_symbol(f->with_id, "__libc_start_main"),
			 0);
}

static void test_symbol_sizes_by_prefix_split_by_section_kind(void **state)
{
	struct fixture *f = *state;
	struct hil_elf_sizes s;
	size_t count = 0;
	unsigned long long fa, fb;

	assert_int_equal(
		hil_elf_symbol_size_by_prefix(f->with_id, "hil_t_", &s, &count),
		HIL_OK);
	/* fn_a, fn_b, table, rw (its alias counted once), zero */
	assert_int_equal(count, 5);
	fa = nm_size(f->with_id, "hil_t_fn_a");
	fb = nm_size(f->with_id, "hil_t_fn_b");
	assert_true(fa > 0 && fb > 0);
	assert_int_equal(s.text, fa + fb + 64);
	assert_int_equal(s.data, 16);
	assert_int_equal(s.bss, 32);

	assert_int_equal(hil_elf_symbol_size_by_prefix(f->with_id, "nothing_",
						       &s, &count),
			 HIL_OK);
	assert_int_equal(count, 0);
	assert_int_equal(s.text + s.data + s.bss, 0);
}

static void test_stripped_elf_has_no_symbol_table(void **state)
{
	struct fixture *f = *state;
	struct hil_elf_sizes s;
	struct hil_elf_info info;

	/* strip keeps .dynsym but our symbols were only in .symtab */
	assert_int_equal(hil_elf_has_symbol(f->stripped, "hil_t_fn_a"), 0);
	assert_int_equal(
		hil_elf_symbol_size_by_prefix(f->stripped, "hil_t_", &s, NULL),
		HIL_OK);
	assert_int_equal(s.text + s.data + s.bss, 0);
	/* the build-id note survives strip */
	assert_int_equal(hil_elf_info(f->stripped, &info), HIL_OK);
	assert_string_equal(info.build_id_hex, BUILD_ID);
}

static void test_arm_firmware_elf_sizes_and_machine(void **state)
{
	struct fixture *f = *state;
	struct hil_elf_info info;
	char cmd[768], line[256], elf[128];
	unsigned long long text, data, bss;

	if (run("command -v arm-none-eabi-gcc >/dev/null", NULL, 0) != 0) {
		skip(); /* the cross compiler is not installed */
	}
	snprintf(elf, sizeof(elf), "%s/fw.elf", f->dir);
	snprintf(
		cmd, sizeof(cmd),
		"arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -O1 -nostdlib -Wl,-e,main -Wl,--build-id=0x" BUILD_ID
		" -o %s %s 2>&1",
		elf, f->src);
	assert_int_equal(run(cmd, NULL, 0), 0);
	assert_int_equal(hil_elf_info(elf, &info), HIL_OK);
	assert_int_equal(info.machine, 40); /* EM_ARM */
	assert_string_equal(info.build_id_hex, BUILD_ID);
	assert_int_equal(info.stack, 1024);
	snprintf(cmd, sizeof(cmd), "arm-none-eabi-size -B %s | tail -n 1", elf);
	assert_int_equal(run(cmd, line, sizeof(line)), 0);
	assert_int_equal(sscanf(line, "%llu %llu %llu", &text, &data, &bss), 3);
	assert_int_equal(info.sizes.text, text);
	assert_int_equal(info.sizes.data, data);
	assert_int_equal(info.sizes.bss + info.stack, bss);
	assert_int_equal(hil_elf_has_symbol(elf, "hil_t_fn_b"), 1);
	assert_int_equal(hil_elf_has_symbol(elf, "malloc"), 0);
	unlink(elf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_build_id_is_read_exactly),
		cmocka_unit_test(test_sha256_matches_sha256sum),
		cmocka_unit_test(test_compiler_string_comes_from_comment),
		cmocka_unit_test(
			test_sizes_match_berkeley_size_with_stack_apart),
		cmocka_unit_test(test_missing_file_is_an_io_error_naming_it),
		cmocka_unit_test(test_non_elf_file_is_rejected_naming_it),
		cmocka_unit_test(
			test_empty_or_cut_short_elf_is_refused_naming_it),
		cmocka_unit_test(
			test_elf_without_build_id_is_reported_with_other_fields_filled),
		cmocka_unit_test(test_has_symbol_finds_defined_symbols_only),
		cmocka_unit_test(
			test_has_symbol_does_not_count_undefined_references),
		cmocka_unit_test(
			test_symbol_sizes_by_prefix_split_by_section_kind),
		cmocka_unit_test(test_stripped_elf_has_no_symbol_table),
		cmocka_unit_test(test_arm_firmware_elf_sizes_and_machine),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
