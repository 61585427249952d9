/* test_e2e_rebuild: an image is rebuilt when a header it was compiled with changes: the pq stub (board and HAL headers, the scheme's own) and the firmware stub, built again with make -W HEADER (as if the header were new), so that no file of the tree is touched and no clock is read. */
#define _XOPEN_SOURCE 700

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			test_a_pq_image_is_rebuilt_when_a_header_changes),
		cmocka_unit_test(
			test_a_firmware_image_is_rebuilt_when_a_header_changes),
	};
	int failed;

	if (e2e_main_begin(src_root, sizeof(src_root), tmp_root,
			   sizeof(tmp_root), "/tmp/e2e-rebuild-XXXXXX") != 0) {
		return 1;
	}
	failed = cmocka_run_group_tests(tests, NULL, NULL);
	return e2e_main_end(tmp_root, failed);
}
