/* test_e2e_rebuild: an image is rebuilt when a header it was compiled with changes: the pq stub (board and HAL headers, the scheme's own) and the firmware stub, built again with make -W HEADER (as if the header were new), so that no file of the tree is touched and no clock is read; and a make killed while it writes an image or an archive leaves nothing half-written under that name for the next make to take as up to date. */
#define _XOPEN_SOURCE 700

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>

#include <cmocka.h>

#include "e2e_util.h"
#include "util/err.h"
#include "util/proc.h"
#include "util/util.h"

#define TOYKEM	  "tests/fixtures/pq/crypto_kem/toykem/ref"
#define MAKE_MS	  600000u /* a bound for a hang, never a timing check */
#define OUT_BYTES (1u << 20)

static char tmp_root[64];
static char src_root[HIL_PATH];

/*
 * make -C src_root [-W what] goal VARS...: its exit status; its output
 * (both streams) into out when out is not NULL.
 */
static int make(const char *what, char *const vars[], char *out)
{
	char *argv[32];
	char *sink = out != NULL ? out : malloc(OUT_BYTES);
	size_t n = 0, i;
	int status = -1;

	assert_non_null(sink);
	argv[n++] = "make";
	argv[n++] = "--no-print-directory";
	argv[n++] = "-C";
	argv[n++] = src_root;
	if (what != NULL) {
		argv[n++] = "-W";
		argv[n++] = (char *)what;
	}
	for (i = 0; vars[i] != NULL; i++) {
		argv[n++] = vars[i];
	}
	argv[n] = NULL;
	assert_int_equal(
		hil_proc_capture(argv, sink, OUT_BYTES, MAKE_MS, &status),
		HIL_OK);
	if (status != 0) {
		fprintf(stderr, "%s\n", sink);
	}
	if (out == NULL) {
		free(sink);
	}
	return status;
}

/* Built again as if header were new: did make compile source? */
static int recompiles(const char *header, char *const vars[],
		      const char *source)
{
	char *out = malloc(OUT_BYTES);
	int yes;

	assert_non_null(out);
	assert_int_equal(make(header, vars, out), 0);
	yes = strstr(out, source) != NULL;
	free(out);
	return yes;
}

/*
 * The pq stub of the toy KEM, built once: a board header (the mps2's
 * counter_math.h), the HAL's header and the scheme's api.h each make make
 * compile again what includes them; the pq stub's own C file is left
 * alone for a header it does not include.
 */
static void test_a_pq_image_is_rebuilt_when_a_header_changes(void **state)
{
	char out_var[128], scheme_var[HIL_PATH + 32], api[HIL_PATH + 32];
	char *const vars[] = {"pq-fw",	  "BOARD=qemu-mps2-an386",
			      scheme_var, "PQ_KIND=KEM",
			      "PQ_NS=",	  out_var,
			      NULL};

	(void)state;
	snprintf(out_var, sizeof(out_var), "PQ_OUT=%s/pq", tmp_root);
	snprintf(scheme_var, sizeof(scheme_var), "PQ_SCHEME=%s/" TOYKEM,
		 src_root);
	snprintf(api, sizeof(api), "%s/" TOYKEM "/api.h", src_root);
	assert_int_equal(make(NULL, vars, NULL), 0);
	/* Built: nothing to compile again. */
	assert_false(recompiles("README.md", vars, "-c target/"));
	assert_true(recompiles("target/boards/qemu-mps2-an386/counter_math.h",
			       vars, "-c target/boards/qemu-mps2-an386/hal.c"));
	assert_false(recompiles("target/boards/qemu-mps2-an386/counter_math.h",
				vars, "-c target/pq/pqstub.c"));
	assert_true(recompiles("target/hal.h", vars, "-c target/pq/pqstub.c"));
	assert_true(recompiles(api, vars, "/kem.c -o "));
}

/* The firmware stub (-MMD there already): a HAL header rebuilds it. */
static void test_a_firmware_image_is_rebuilt_when_a_header_changes(void **state)
{
	char dir_var[128];
	char *const vars[] = {"firmware", "BOARD=qemu-netduino",
			      "ALGS=ascon-aead128/ref", dir_var, NULL};

	(void)state;
	snprintf(dir_var, sizeof(dir_var), "FW_DIR=%s/fw", tmp_root);
	assert_int_equal(make(NULL, vars, NULL), 0);
	assert_false(recompiles("README.md", vars, "-c target/"));
	assert_true(recompiles("target/hal.h", vars, "-c target/main.c"));
	assert_true(recompiles("target/boards/common/regs.h", vars,
			       "-c target/boards/qemu-netduino/hal.c"));
}

/* ---------------------------------------------- a make killed half-way */

/*
 * A tool killed half-way through writing its output, and its make with it,
 * as SIGKILL (hilrun killed, the machine down) leaves a build: it writes a
 * few bytes where it was told to write (after -o, or the archive after
 * ar's rcs), then kills its process group, which is make's.
 */
static const char killer[] =
	"#!/bin/sh\n"
	"out=\n"
	"prev=\n"
	"for a in \"$@\"; do\n"
	"  case \"$prev\" in -o|rcs) out=$a;; esac\n"
	"  prev=$a\n"
	"done\n"
	"if [ -n \"$out\" ]; then printf half > \"$out\"; fi\n"
	"kill -KILL 0\n";

/* The killer as dir/name. */
static void install_killer(const char *dir, const char *name, char *path,
			   size_t len)
{
	FILE *f;

	e2e_make_dir(dir);
	snprintf(path, len, "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(killer, f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(path, 0755), 0);
}

/* The file's bytes (caller frees) and their count. */
static char *slurp(const char *path, size_t *n)
{
	char *text = NULL;

	assert_int_equal(hil_read_file(path, &text, n), HIL_OK);
	return text;
}

/* path holds exactly the n bytes of want. */
static void assert_same_file(const char *path, const char *want, size_t n)
{
	size_t got_n = 0;
	char *got = slurp(path, &got_n);

	if (got_n != n || memcmp(got, want, n) != 0) {
		fail_msg(
			"%s: %zu bytes, not the %zu it had before the make that was killed",
			path, got_n, n);
	}
	free(got);
}

/*
 * The firmware stub linked again (as if its linker script were new) by a
 * linker killed half-way, make with it: the stub.elf there was is still
 * there, whole, and the next make, with the real linker, trusts it. (Before
 * the link wrote to a name of its own, stub.elf was left holding "half",
 * newer than its objects: up to date for make, flashed by hilrun.)
 */
static void test_a_killed_firmware_link_leaves_no_half_image(void **state)
{
	char dir_var[128], cc_var[160], elf[128], bin[96], tool[128];
	char *const vars[] = {"firmware", "BOARD=qemu-netduino",
			      "ALGS=ascon-aead128/ref", dir_var, NULL};
	char *const killed[] = {"firmware",
				"BOARD=qemu-netduino",
				"ALGS=ascon-aead128/ref",
				dir_var,
				cc_var,
				NULL};
	size_t n = 0;
	char *before;

	(void)state;
	snprintf(dir_var, sizeof(dir_var), "FW_DIR=%s/fw", tmp_root);
	snprintf(elf, sizeof(elf), "%s/fw/stub.elf", tmp_root);
	snprintf(bin, sizeof(bin), "%s/killers", tmp_root);
	install_killer(bin, "arm-none-eabi-gcc", tool, sizeof(tool));
	snprintf(cc_var, sizeof(cc_var), "FW_CC=%s", tool);
	assert_int_equal(make(NULL, vars, NULL), 0);
	before = slurp(elf, &n);
	assert_int_not_equal(
		make("target/boards/common/stm32f401re.ld", killed, NULL), 0);
	assert_same_file(elf, before, n);
	assert_int_equal(make(NULL, vars, NULL), 0);
	assert_same_file(elf, before, n);
	free(before);
}

/*
 * The same for a compile: target/main.c compiled again (as if new) by a
 * compiler killed half-way, make with it. The next make, with the real
 * compiler, has nothing to do and the image is the one there was. (Before
 * each object was compiled under a name of its own, main.o was left
 * holding "half", newer than main.c: the next make took it as up to date
 * and its link of the image failed, for good.)
 */
static void test_a_killed_firmware_compile_leaves_no_half_object(void **state)
{
	char dir_var[128], cc_var[160], elf[128], bin[96], tool[128];
	char *const vars[] = {"firmware", "BOARD=qemu-netduino",
			      "ALGS=ascon-aead128/ref", dir_var, NULL};
	char *const killed[] = {"firmware",
				"BOARD=qemu-netduino",
				"ALGS=ascon-aead128/ref",
				dir_var,
				cc_var,
				NULL};
	size_t n = 0;
	char *before;

	(void)state;
	snprintf(dir_var, sizeof(dir_var), "FW_DIR=%s/fw", tmp_root);
	snprintf(elf, sizeof(elf), "%s/fw/stub.elf", tmp_root);
	snprintf(bin, sizeof(bin), "%s/killers", tmp_root);
	install_killer(bin, "arm-none-eabi-gcc", tool, sizeof(tool));
	snprintf(cc_var, sizeof(cc_var), "FW_CC=%s", tool);
	assert_int_equal(make(NULL, vars, NULL), 0);
	before = slurp(elf, &n);
	assert_int_not_equal(make("target/main.c", killed, NULL), 0);
	assert_int_equal(make(NULL, vars, NULL), 0);
	assert_same_file(elf, before, n);
	free(before);
}

/* The same for the pq stub of the toy KEM (its own link rule, pq.mk). */
static void test_a_killed_pq_link_leaves_no_half_image(void **state)
{
	char out_var[128], scheme_var[HIL_PATH + 32], cross_var[160];
	char elf[128], bin[96], tool[128];
	char *const vars[] = {"pq-fw",	  "BOARD=qemu-mps2-an386",
			      scheme_var, "PQ_KIND=KEM",
			      "PQ_NS=",	  out_var,
			      NULL};
	char *const killed[] = {"pq-fw",    "BOARD=qemu-mps2-an386",
				scheme_var, "PQ_KIND=KEM",
				"PQ_NS=",   out_var,
				cross_var,  NULL};
	size_t n = 0;
	char *before;

	(void)state;
	snprintf(out_var, sizeof(out_var), "PQ_OUT=%s/pq", tmp_root);
	snprintf(scheme_var, sizeof(scheme_var), "PQ_SCHEME=%s/" TOYKEM,
		 src_root);
	snprintf(elf, sizeof(elf), "%s/pq/fw/stub.elf", tmp_root);
	snprintf(bin, sizeof(bin), "%s/killers", tmp_root);
	install_killer(bin, "arm-none-eabi-gcc", tool, sizeof(tool));
	snprintf(cross_var, sizeof(cross_var), "CROSS=%s/arm-none-eabi-", bin);
	assert_int_equal(make(NULL, vars, NULL), 0);
	before = slurp(elf, &n);
	assert_int_not_equal(make("target/boards/qemu-mps2-an386/mps2_an386.ld",
				  killed, NULL),
			     0);
	assert_same_file(elf, before, n);
	assert_int_equal(make(NULL, vars, NULL), 0);
	assert_same_file(elf, before, n);
	free(before);
}

/*
 * One of hilrun's own objects (mk/host.mk's rule, in a build folder of the
 * test's) compiled again (as if its source were new) by a compiler killed
 * half-way, make with it: the object is the one there was, and the next
 * make keeps it. That is also what a second make in the same checkout sees
 * while one compiles it (make all beside a test's make). Before, the
 * object was left holding "half", newer than its source.
 */
static void test_a_killed_host_compile_leaves_the_old_object(void **state)
{
	char build_var[128], cc_var[160], obj[160], bin[96], tool[128];
	char *const vars[] = {build_var, obj, NULL};
	char *const killed[] = {build_var, cc_var, obj, NULL};
	size_t n = 0;
	char *before;

	(void)state;
	snprintf(build_var, sizeof(build_var), "BUILD=%s/hb", tmp_root);
	snprintf(obj, sizeof(obj), "%s/hb/host/host/util/err.o", tmp_root);
	snprintf(bin, sizeof(bin), "%s/killer-cc", tmp_root);
	install_killer(bin, "cc", tool, sizeof(tool));
	snprintf(cc_var, sizeof(cc_var), "HOST_CC=%s", tool);
	assert_int_equal(make(NULL, vars, NULL), 0);
	before = slurp(obj, &n);
	assert_int_not_equal(make("host/util/err.c", killed, NULL), 0);
	assert_same_file(obj, before, n);
	assert_int_equal(make(NULL, vars, NULL), 0);
	assert_same_file(obj, before, n);
	free(before);
}

/*
 * hilrun's library archive (mk/host.mk's rule, on an object of the test's
 * own) made again by an ar killed half-way, make with it: libhil.a is the
 * archive it was, never "half" nor missing. That is also what a second make
 * in the same checkout sees while one makes the archive (make all beside a
 * test's make): the old archive or the new one, whole.
 */
static void test_a_killed_archive_update_leaves_the_old_archive(void **state)
{
	char build_var[128], objs_var[128], lib[128], obj[96], bin[96];
	char tool[128], path_env[HIL_PATH + 128];
	char *const vars[] = {build_var, objs_var, lib, NULL};
	const char *old_path = getenv("PATH");
	char *saved = strdup(old_path != NULL ? old_path : "/usr/bin:/bin");
	FILE *f;
	size_t n = 0;
	char *before;
	int status;

	(void)state;
	assert_non_null(saved);
	snprintf(obj, sizeof(obj), "%s/member.o", tmp_root);
	f = fopen(obj, "w");
	assert_non_null(f);
	fputs("a member\n", f);
	assert_int_equal(fclose(f), 0);
	snprintf(build_var, sizeof(build_var), "BUILD=%s/b", tmp_root);
	snprintf(objs_var, sizeof(objs_var), "HOST_LIB_OBJS=%s", obj);
	snprintf(lib, sizeof(lib), "%s/b", tmp_root);
	e2e_make_dir(lib);
	strcat(lib, "/host");
	e2e_make_dir(lib);
	strcat(lib, "/libhil.a");
	assert_int_equal(make(NULL, vars, NULL), 0);
	before = slurp(lib, &n);

	/* The killer as `ar`, first on make's PATH. */
	snprintf(bin, sizeof(bin), "%s/killer-ar", tmp_root);
	install_killer(bin, "ar", tool, sizeof(tool));
	snprintf(path_env, sizeof(path_env), "%s:%s", bin, saved);
	setenv("PATH", path_env, 1);
	status = make(obj, vars, NULL);
	setenv("PATH", saved, 1);
	assert_int_not_equal(status, 0);
	assert_same_file(lib, before, n);
	assert_int_equal(make(NULL, vars, NULL), 0);
	assert_same_file(lib, before, n);
	free(before);
	free(saved);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			test_a_pq_image_is_rebuilt_when_a_header_changes),
		cmocka_unit_test(
			test_a_firmware_image_is_rebuilt_when_a_header_changes),
		cmocka_unit_test(
			test_a_killed_firmware_link_leaves_no_half_image),
		cmocka_unit_test(
			test_a_killed_firmware_compile_leaves_no_half_object),
		cmocka_unit_test(test_a_killed_pq_link_leaves_no_half_image),
		cmocka_unit_test(
			test_a_killed_host_compile_leaves_the_old_object),
		cmocka_unit_test(
			test_a_killed_archive_update_leaves_the_old_archive),
	};
	int failed;

	if (e2e_main_begin(src_root, sizeof(src_root), tmp_root,
			   sizeof(tmp_root), "/tmp/e2e-rebuild-XXXXXX") != 0) {
		return 1;
	}
	failed = cmocka_run_group_tests(tests, NULL, NULL);
	return e2e_main_end(tmp_root, failed);
}
