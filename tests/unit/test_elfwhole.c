/* test_elfwhole: an ELF file is whole when its header, tables, segments and sections lie within it; crafted headers of both classes and byte orders, cut at each part, and counts that would overflow. */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "util/elfwhole.h"
#include "util/err.h"

#define FILE_MAX 1024

/* A little ELF built field by field, in either class and byte order. */
struct elf {
	unsigned char b[FILE_MAX];
	size_t n;
	int is64, be;
};

static void put(struct elf *e, size_t off, uint64_t v, unsigned size)
{
	unsigned i;

	for (i = 0; i < size; i++) {
		unsigned k = e->be ? size - 1 - i : i;

		e->b[off + k] = (unsigned char)(v >> (8 * i));
	}
}

/* A word: 4 bytes in ELF32 at off32, 8 in ELF64 at off64. */
static void put_word(struct elf *e, size_t off32, size_t off64, uint64_t v)
{
	if (e->is64) {
		put(e, off64, v, 8);
	} else {
		put(e, off32, v, 4);
	}
}

/*
 * An executable with one PT_LOAD segment of 16 bytes at 0x100 and three
 * sections (the null one, 16 bytes of PROGBITS at 0x100, a NOBITS .bss
 * whose offset and size lie past the end, as NOBITS may), the section
 * table at 0x200: 0x200 + 3 entries bytes in all.
 */
static void make_elf(struct elf *e, int is64, int be)
{
	size_t eh = is64 ? 64 : 52, ph = is64 ? 56 : 32, sh = is64 ? 64 : 40;
	size_t s;

	memset(e, 0, sizeof(*e));
	e->is64 = is64;
	e->be = be;
	memcpy(e->b, "\177ELF", 4);
	e->b[4] = is64 ? 2 : 1;
	e->b[5] = be ? 2 : 1;
	e->b[6] = 1;
	put(e, 16, 2, 2);	       /* ET_EXEC */
	put(e, 18, 40, 2);	       /* EM_ARM (any machine will do) */
	put_word(e, 28, 32, eh);       /* e_phoff: right after the header */
	put_word(e, 32, 40, 0x200);    /* e_shoff */
	put(e, is64 ? 52 : 40, eh, 2); /* e_ehsize */
	put(e, is64 ? 54 : 42, ph, 2); /* e_phentsize */
	put(e, is64 ? 56 : 44, 1, 2);  /* e_phnum */
	put(e, is64 ? 58 : 46, sh, 2); /* e_shentsize */
	put(e, is64 ? 60 : 48, 3, 2);  /* e_shnum */
	put(e, eh, 1, 4);	       /* PT_LOAD */
	put_word(e, eh + 4, eh + 8, 0x100); /* p_offset */
	put_word(e, eh + 16, eh + 32, 16);  /* p_filesz */
	s = 0x200 + sh;			    /* section 1: PROGBITS */
	put(e, s + 4, 1, 4);
	put_word(e, s + 16, s + 24, 0x100);
	put_word(e, s + 20, s + 32, 16);
	s = 0x200 + 2 * sh; /* section 2: NOBITS, past the end */
	put(e, s + 4, 8, 4);
	put_word(e, s + 16, s + 24, 0x5000);
	put_word(e, s + 20, s + 32, 0x5000);
	e->n = 0x200 + 3 * sh;
}

static int whole(const struct elf *e, size_t n, char *why, size_t len)
{
	return hil_elf_whole(e->b, n, why, len);
}

/* Each class and byte order: the whole file passes; cut in the header,
 * in the program headers, in the segment, just before the section table
 * and one byte short of its end, it is refused, saying what lies past. */
static void test_whole_files_pass_and_cut_ones_say_what_is_missing(void **state)
{
	static const struct {
		size_t cut; /* 0: the whole file */
		const char *says;
	} cuts[] = {
		{0, NULL},
		{20, "ELF header"},
		{70, "program header table"},
		{0x108, "segment 0"},
		{0x200, "section header table"},
		{0, "section header table"}, /* one byte short */
	};
	char why[256];
	struct elf e;
	int is64, be;
	size_t i, n;

	(void)state;
	for (is64 = 0; is64 <= 1; is64++) {
		for (be = 0; be <= 1; be++) {
			make_elf(&e, is64, be);
			for (i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
				n = cuts[i].cut != 0 ? cuts[i].cut : e.n;
				if (i + 1 == sizeof(cuts) / sizeof(cuts[0])) {
					n = e.n - 1;
				}
				if (cuts[i].says == NULL) {
					assert_int_equal(
						whole(&e, n, why, sizeof(why)),
						HIL_OK);
					continue;
				}
				assert_int_equal(whole(&e, n, why, sizeof(why)),
						 HIL_ERR_ARG);
				assert_non_null(strstr(why, "cut short"));
				assert_non_null(strstr(why, cuts[i].says));
				assert_non_null(strstr(why, "remove it"));
			}
		}
	}
}

/* A section's contents past the end (the section table whole): cut. */
static void test_a_section_past_the_end_is_cut_short(void **state)
{
	char why[256];
	struct elf e;

	(void)state;
	make_elf(&e, 0, 0);
	put_word(&e, 0x200 + 40 + 16, 0, 0x1f8); /* 0x1f8 + 16 > 0x200... */
	put_word(&e, 0x200 + 40 + 20, 0, 0x100); /* ...and beyond the file */
	assert_int_equal(hil_elf_whole(e.b, e.n, why, sizeof(why)),
			 HIL_ERR_ARG);
	assert_non_null(strstr(why, "section 1"));
}

/* Empty, not an ELF, a class that is neither: each said as such. */
static void test_empty_and_foreign_files_are_said(void **state)
{
	char why[256];
	struct elf e;

	(void)state;
	make_elf(&e, 0, 0);
	assert_int_equal(hil_elf_whole(e.b, 0, why, sizeof(why)), HIL_ERR_ARG);
	assert_non_null(strstr(why, "empty (0 bytes)"));
	assert_int_equal(hil_elf_whole((const unsigned char *)"#!/bin/sh\n", 10,
				       why, sizeof(why)),
			 HIL_ERR_ARG);
	assert_string_equal(why, "not an ELF file");
	assert_int_equal(hil_elf_whole((const unsigned char *)"\177EL", 3, why,
				       sizeof(why)),
			 HIL_ERR_ARG);
	assert_string_equal(why, "not an ELF file");
	make_elf(&e, 0, 0);
	e.b[4] = 3;
	assert_int_equal(hil_elf_whole(e.b, e.n, why, sizeof(why)),
			 HIL_ERR_ARG);
	assert_non_null(strstr(why, "unknown class"));
}

/*
 * Crafted counts: table entries smaller than the format's, a section
 * count of 0 whose real count (section 0's size, as ELF allows for more
 * than 0xff00) is 2^64 - 1, offsets near 2^64. Each is refused without
 * reading past the buffer (the SAN build would say so) or wrapping.
 */
static void test_crafted_counts_and_offsets_do_not_overflow(void **state)
{
	char why[256];
	struct elf e;

	(void)state;
	make_elf(&e, 1, 0);
	put(&e, 58, 8, 2); /* e_shentsize 8 */
	assert_int_equal(hil_elf_whole(e.b, e.n, why, sizeof(why)),
			 HIL_ERR_ARG);
	assert_non_null(strstr(why, "malformed"));

	make_elf(&e, 1, 0);
	put(&e, 60, 0, 2);		    /* e_shnum 0: see section 0 */
	put(&e, 0x200 + 32, UINT64_MAX, 8); /* its sh_size */
	assert_int_equal(hil_elf_whole(e.b, e.n, why, sizeof(why)),
			 HIL_ERR_ARG);
	assert_non_null(strstr(why, "section header table"));

	make_elf(&e, 1, 1);
	put(&e, 64 + 8, UINT64_MAX - 4, 8); /* p_offset near 2^64 */
	assert_int_equal(hil_elf_whole(e.b, e.n, why, sizeof(why)),
			 HIL_ERR_ARG);
	assert_non_null(strstr(why, "segment 0"));

	make_elf(&e, 0, 1);
	put(&e, 32, UINT32_MAX, 4); /* e_shoff near 2^32 */
	assert_int_equal(hil_elf_whole(e.b, e.n, why, sizeof(why)),
			 HIL_ERR_ARG);
	assert_non_null(strstr(why, "section header table"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			test_whole_files_pass_and_cut_ones_say_what_is_missing),
		cmocka_unit_test(test_a_section_past_the_end_is_cut_short),
		cmocka_unit_test(test_empty_and_foreign_files_are_said),
		cmocka_unit_test(
			test_crafted_counts_and_offsets_do_not_overflow),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
