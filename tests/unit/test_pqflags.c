/* test_pqflags: a pqm4 folder's config.mk read to what hilrun takes (image/pqflags.c): pqm4's own lines give their flags, -I stays inside the folder, and every other line or flag is refused naming the line and what is not understood, never run. */
#define _XOPEN_SOURCE 700

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "image/pqflags.h"
#include "pq/pqentries.h"
#include "util/err.h"
#include "util/util.h"

static char tmp_root[64];
static char dir[PATH_MAX]; /* tmp/crypto_sign/mayo1/m4f */

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* dir/config.mk holding text, read. */
static void read_cfg(const char *text, struct hil_pq_flags *f)
{
	char p[PATH_MAX + 16];

	snprintf(p, sizeof(p), "%s/config.mk", dir);
	write_text(p, text);
	assert_int_equal(hil_pq_flags_read(dir, f), HIL_OK);
	assert_true(f->has_file);
}

/* refused, the reason holding each of the needles. */
static void assert_refused(const struct hil_pq_flags *f, const char *a,
			   const char *b)
{
	assert_true(f->refused);
	assert_int_equal(f->n, 0);
	assert_string_equal(f->text, "");
	if (strstr(f->why, a) == NULL ||
	    (b != NULL && strstr(f->why, b) == NULL)) {
		fail_msg("\"%s\" does not say \"%s\"%s%s", f->why, a,
			 b != NULL ? " and " : "", b != NULL ? b : "");
	}
	/* "Not run" holds 200 characters: the reason fits. */
	assert_true(strlen(f->why) < 200);
}

static int setup(void **state)
{
	char p[PATH_MAX + 32];

	(void)state;
	snprintf(tmp_root, sizeof(tmp_root), "/tmp/test-pqflags-XXXXXX");
	if (mkdtemp(tmp_root) == NULL) {
		return -1;
	}
	snprintf(dir, sizeof(dir), "%s/crypto_sign/mayo1/m4f", tmp_root);
	snprintf(p, sizeof(p), "%s/inc/deeper", dir);
	if (hil_mkdirs(p) != HIL_OK) {
		return -1;
	}
	snprintf(p, sizeof(p), "%s/crypto_sign/mayo1/outside", tmp_root);
	return hil_mkdirs(p) == HIL_OK ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp_root);
	return system(cmd) == 0 ? 0 : -1;
}

static void test_no_config_mk_adds_nothing(void **state)
{
	struct hil_pq_flags f;
	char p[PATH_MAX + 16];

	(void)state;
	snprintf(p, sizeof(p), "%s/config.mk", dir);
	unlink(p);
	assert_int_equal(hil_pq_flags_read(dir, &f), HIL_OK);
	assert_false(f.has_file);
	assert_false(f.refused);
	assert_int_equal(f.n, 0);
	assert_string_equal(f.text, "");
}

/* pqm4's own files, as they are (mayo1/m4f's has no line end). */
static void test_pqm4s_lines_give_their_flags(void **state)
{
	struct hil_pq_flags f;

	(void)state;
	read_cfg("elf/crypto_sign_mayo1_m4f_%.elf: CPPFLAGS += -DMAYO_M4", &f);
	assert_false(f.refused);
	assert_int_equal(f.n, 1);
	assert_string_equal(f.text, "-DMAYO_M4");
	/* mupq's ov-Ip/ref names its target with the mupq_ prefix. */
	read_cfg("elf/mupq_crypto_sign_mayo1_m4f_%.elf: CPPFLAGS += "
		 "-DBIG_PUBLIC_KEY_TESTS\n",
		 &f);
	assert_false(f.refused);
	assert_string_equal(f.text, "-DBIG_PUBLIC_KEY_TESTS");
	/* Without a target, CFLAGS, comments, blank lines, continuations,
	 * CRLF, -D NAME split, -U and optimisation. */
	read_cfg("# flags of this folder\n"
		 "\n"
		 "CFLAGS += -O2 -funroll-loops # faster\r\n"
		 "elf/crypto_sign_mayo1_m4f_%.elf: CPPFLAGS += -D X=1 \\\n"
		 "\t-UNDEBUG -Wall\n",
		 &f);
	assert_false(f.refused);
	assert_int_equal(f.n, 5);
	assert_string_equal(f.text, "-O2 -funroll-loops -DX=1 -UNDEBUG -Wall");
}

/* -I of a folder of the implementation, named relative to it: taken as
 * its real path; one outside it (or absolute) is refused. */
static void test_include_stays_inside_the_folder(void **state)
{
	struct hil_pq_flags f;
	char real[PATH_MAX], want[PATH_MAX + 64];

	(void)state;
	assert_non_null(realpath(dir, real));
	read_cfg("CPPFLAGS += -Iinc -I inc/deeper -I./inc\n", &f);
	assert_false(f.refused);
	assert_int_equal(f.n, 3);
	snprintf(want, sizeof(want), "-I%s/inc -I%s/inc/deeper -I%s/inc", real,
		 real, real);
	assert_string_equal(f.text, want);

	read_cfg("CPPFLAGS += -I../outside\n", &f);
	assert_refused(&f, "config.mk line 1: ",
		       "-I../outside: outside the "
		       "implementation's folder");
	read_cfg("CPPFLAGS += -Iinc/../../outside\n", &f);
	assert_refused(&f, "outside the implementation's folder", NULL);
	read_cfg("CPPFLAGS += -I/usr/include\n", &f);
	assert_refused(&f, "-I/usr/include: -I takes a folder named relative",
		       NULL);
	read_cfg("CPPFLAGS += -Inothere\n", &f);
	assert_refused(&f, "-Inothere: not a folder of the implementation",
		       NULL);
}

/* A link inside the folder leading out of it: its real path is outside. */
static void test_include_through_a_link_out_is_refused(void **state)
{
	struct hil_pq_flags f;
	char p[PATH_MAX + 16];

	(void)state;
	snprintf(p, sizeof(p), "%s/away", dir);
	unlink(p);
	assert_int_equal(symlink("../outside", p), 0);
	read_cfg("CPPFLAGS += -Iaway\n", &f);
	assert_refused(&f, "-Iaway: outside the implementation's folder", NULL);
	unlink(p);
}

/* Flags hilrun's allowlist refuses, with its reason. */
static void test_flags_off_the_allowlist_are_refused(void **state)
{
	struct hil_pq_flags f;

	(void)state;
	read_cfg("CFLAGS += -O3\n"
		 "elf/crypto_sign_mayo1_m4f_%.elf: CFLAGS += -fplugin=./x.so\n",
		 &f);
	assert_refused(&f, "config.mk line 2: ", "-fplugin=./x.so: loads");
	read_cfg("CFLAGS += -Wl,-T,evil.ld\n", &f);
	assert_refused(&f, "line 1: ", "-Wl,-T,evil.ld: ");
	read_cfg("CFLAGS += -specs=x.specs\n", &f);
	assert_refused(&f, "-specs=x.specs: ", NULL);
	read_cfg("CPPFLAGS += -DX=`id`\n", &f);
	assert_refused(&f,
		       "-DX=`id`: holds a character of make's or the "
		       "shell's syntax",
		       NULL);
	read_cfg("CPPFLAGS += -D\n", &f);
	assert_refused(&f, "-D: without a value", NULL);
	read_cfg("CPPFLAGS += main.c\n", &f);
	assert_refused(&f, "main.c: not an option", NULL);
}

/* Make syntax beyond "+= FLAGS" is not understood, so not run. */
static void test_other_make_is_refused_naming_the_line(void **state)
{
	static const char *const lines[][2] = {
		{"CFLAGS += $(shell touch /tmp/x)\n", "make's variables"},
		{"CFLAGS := -O0\n", "not understood"},
		{"CFLAGS = -O0\n", "not understood"},
		{"override CFLAGS += -O0\n", "neither CPPFLAGS nor CFLAGS"},
		{"export CFLAGS += -O0\n", "neither CPPFLAGS nor CFLAGS"},
		{"LDFLAGS += -O0\n", "neither CPPFLAGS nor CFLAGS"},
		{"include ../../evil.mk\n", "not understood"},
		{"ifeq (a,a)\n", "not understood"},
		{"elf/x.elf:\n\ttouch /tmp/x\n", "not understood"},
		{"\ttouch /tmp/x\n", "a recipe line"},
		{"elf/crypto_sign_mayo2_m4f_%.elf: CPPFLAGS += -DMAYO_M4\n",
		 "other targets than this folder's"},
		{"elf/crypto_sign_xmayo1_m4f_%.elf: CPPFLAGS += -DMAYO_M4\n",
		 "other targets than this folder's"},
		{"obj/libmayo.a: CPPFLAGS += -DMAYO_M4\n",
		 "other targets than this folder's"},
		{"elf/crypto_sign_mayo1_m4f_%.elf:: CPPFLAGS += -DX\n",
		 "other targets than this folder's"},
	};
	struct hil_pq_flags f;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		char text[256];

		snprintf(text, sizeof(text), "# a comment\n%s", lines[i][0]);
		read_cfg(text, &f);
		assert_refused(&f, "config.mk line 2: \"", lines[i][1]);
	}
	/* The line a continuation starts on is the one named. */
	read_cfg("CFLAGS += -O2 \\\n  -DX \\\n  -fplugin=y\nCFLAGS += -O1\n",
		 &f);
	assert_refused(&f, "config.mk line 1: \"CFLAGS += -O2", "-fplugin=y");
}

/* Not a text file of flags: refused, never read as make (and a FIFO is
 * never opened to block). */
static void test_not_a_config_file_is_refused(void **state)
{
	struct hil_pq_flags f;
	char p[PATH_MAX + 16];

	(void)state;
	snprintf(p, sizeof(p), "%s/config.mk", dir);
	unlink(p);
	assert_int_equal(mkfifo(p, 0600), 0);
	assert_int_equal(hil_pq_flags_read(dir, &f), HIL_OK);
	assert_true(f.has_file);
	assert_true(f.refused);
	assert_non_null(strstr(f.why, "config.mk: cannot be read"));
	unlink(p);
	{
		FILE *o = fopen(p, "w");

		assert_non_null(o);
		fwrite("CFLAGS += -O2\n\0-fplugin=x\n", 1, 26, o);
		assert_int_equal(fclose(o), 0);
	}
	assert_int_equal(hil_pq_flags_read(dir, &f), HIL_OK);
	assert_true(f.refused);
	assert_non_null(strstr(f.why, "a NUL byte"));
}

/* The flags file pq-bench.sh takes: a line per folder. */
static void test_flags_file_has_a_line_per_folder(void **state)
{
	struct hil_pq_plan *plan = calloc(1, sizeof(*plan));
	char p[PATH_MAX + 16], other[PATH_MAX], want[3 * PATH_MAX];
	char err[256];
	char *text = NULL;

	(void)state;
	assert_non_null(plan);
	snprintf(p, sizeof(p), "%s/config.mk", dir);
	write_text(p, "elf/crypto_sign_mayo1_m4f_%.elf: CPPFLAGS += -DMAYO_M4");
	snprintf(other, sizeof(other), "%s/crypto_sign/mayo1/outside",
		 tmp_root);
	snprintf(p, sizeof(p), "%s/config.mk", other);
	write_text(p, "CFLAGS += -fplugin=x\tyz\n");
	snprintf(plan->dirs[0], sizeof(plan->dirs[0]), "%s", dir);
	snprintf(plan->dirs[1], sizeof(plan->dirs[1]), "%s/inc", dir);
	snprintf(plan->dirs[2], sizeof(plan->dirs[2]), "%s", other);
	plan->n_dirs = 3;
	snprintf(p, sizeof(p), "%s/flags.tsv", tmp_root);
	assert_int_equal(hil_pq_flags_write(plan, p, err, sizeof(err)), HIL_OK);
	assert_int_equal(hil_read_file(p, &text, NULL), HIL_OK);
	snprintf(want, sizeof(want),
		 "%s\tflags\t-DMAYO_M4\n"
		 "%s/inc\tflags\t\n"
		 "%s\trefused\tconfig.mk line 1: \"CFLAGS += -fplugin=x yz\": "
		 "-fplugin=x: ",
		 dir, dir, other);
	if (strncmp(text, want, strlen(want)) != 0) {
		fail_msg("flags.tsv:\n%s\nwanted it to start with\n%s", text,
			 want);
	}
	/* one line each: the reason holds no tab or line end */
	assert_int_equal(strchr(text + strlen(want), '\n') + 1 - text,
			 (long)strlen(text));
	free(text);
	unlink(p);
	snprintf(p, sizeof(p), "%s/config.mk", other);
	unlink(p);
	free(plan);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_config_mk_adds_nothing),
		cmocka_unit_test(test_pqm4s_lines_give_their_flags),
		cmocka_unit_test(test_include_stays_inside_the_folder),
		cmocka_unit_test(test_include_through_a_link_out_is_refused),
		cmocka_unit_test(test_flags_off_the_allowlist_are_refused),
		cmocka_unit_test(test_other_make_is_refused_naming_the_line),
		cmocka_unit_test(test_not_a_config_file_is_refused),
		cmocka_unit_test(test_flags_file_has_a_line_per_folder),
	};

	return cmocka_run_group_tests_name("pqflags", tests, setup, teardown);
}
