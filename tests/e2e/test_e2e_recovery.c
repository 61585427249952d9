/* End-to-end test of the recovery ladder on QEMU: a row that hangs the target and one that crashes it (also with the stack nearly full) fail with their reason; the other rows are measured. */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <ftw.h>
#include <sys/stat.h>

#include "config/config.h"
#include "util/err.h"
#include "result/run.h"
#include "run/runner.h"

static int rm_entry(const char *path, const struct stat *sb, int flag,
		    struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static const struct hil_row *row_at(const struct hil_run *run, uint32_t len)
{
	size_t i;

	for (i = 0; i < run->n_rows; i++) {
		if (run->rows[i].msg_len == len) {
			return &run->rows[i];
		}
	}
	fail_msg("no row at %u bytes", (unsigned)len);
	return NULL;
}

static void test_hung_and_crashed_rows_fail_and_the_run_goes_on(void **state)
{
	const char *src = getenv("HIL_SRC_DIR");
	char dir[64] = "/tmp/hilrun-recovery-XXXXXX";
	char json[1024];
	char err[1024] = "";
	struct hil_config cfg = {0};
	struct hil_runner_opts opts;
	struct hil_run run;
	const struct hil_row *r;

	(void)state;
	assert_non_null(mkdtemp(dir));
	/* A link timeout short enough that the hung row is detected in seconds,
	 * long enough that a healthy reply from a QEMU starved on a loaded
	 * machine is not taken for a hang (one retry only). */
	snprintf(
		json, sizeof(json),
		"{\"name\": \"e2e-recovery\", \"board\": {\"name\": \"qemu-netduino\"},"
		" \"link\": {\"timeout_ms\": 3000, \"retries\": 1},"
		" \"algorithms\": [{\"name\": \"ascon-aead128\", \"impl\": \"flaky\","
		" \"path\": \"tests/fixtures/flaky-ascon\"}],"
		" \"bench\": {\"operations\": [\"encrypt\"],"
		" \"lengths\": [16, 256, 64, 1024, 128], \"runs\": 20, \"warmup\": 1},"
		" \"results_dir\": \"%s\"}",
		dir);
	assert_int_equal(hil_config_parse(json, src != NULL ? src : ".", &cfg,
					  err, sizeof(err)),
			 HIL_OK);
	memset(&opts, 0, sizeof(opts));
	opts.results_dir = dir;
	assert_int_equal(hil_runner_run(&cfg, &opts, &run), HIL_ERR_VERIFY);
	assert_string_equal(run.status, "complete");
	assert_int_equal(run.n_rows, 5);
	/* The hang: the row says the target stopped answering. */
	r = row_at(&run, 256);
	assert_false(r->ok);
	assert_non_null(strstr(r->error, "timed out"));
	/* The crash: the row carries the fault registers. */
	r = row_at(&run, 1024);
	assert_false(r->ok);
	assert_non_null(strstr(r->error, "fault"));
	assert_non_null(strstr(r->error, "BFAR 0x60000000"));
	/* Every other row measured, after each recovery. */
	assert_true(row_at(&run, 16)->ok);
	assert_true(row_at(&run, 64)->ok);
	assert_true(row_at(&run, 128)->ok);
	assert_true(row_at(&run, 64)->stats.median ==
		    row_at(&run, 64)->stats.min);
	/* Two recoveries, each a restart of the emulator (no reset there). */
	assert_int_equal(run.reflashes, 2);
	assert_int_equal(run.resets, 0);
	hil_run_free(&run);
	nftw(dir, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
	hil_config_free(&cfg);
}

/*
 * A fault taken with the stack filled to 48 bytes above its bottom: the
 * exception frame fits, the ~300-byte report would not. The fault handler
 * (target/boards/common/startup.c, the same on the Nucleo) takes the
 * stacked PC and restarts from the top of the stack, so the report still
 * arrives: the row carries PC, CFSR and BFAR. Without that, the handler
 * faults again while building the report, the core locks up (QEMU aborts
 * on the lockup) and the row only says the target went silent.
 */
static void test_fault_with_the_stack_nearly_full_still_reports(void **state)
{
	const char *src = getenv("HIL_SRC_DIR");
	char dir[64] = "/tmp/hilrun-deepfault-XXXXXX";
	char json[1024];
	char err[1024] = "";
	struct hil_config cfg = {0};
	struct hil_runner_opts opts;
	struct hil_run run;
	const struct hil_row *r;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(
		json, sizeof(json),
		"{\"name\": \"e2e-deepfault\", \"board\": {\"name\": \"qemu-netduino\"},"
		" \"link\": {\"timeout_ms\": 3000, \"retries\": 1},"
		" \"algorithms\": [{\"name\": \"ascon-aead128\", \"impl\": \"deepfault\","
		" \"path\": \"tests/fixtures/deepfault-ascon\"}],"
		" \"bench\": {\"operations\": [\"encrypt\"],"
		" \"lengths\": [16, 512, 64], \"runs\": 5, \"warmup\": 1},"
		" \"results_dir\": \"%s\"}",
		dir);
	assert_int_equal(hil_config_parse(json, src != NULL ? src : ".", &cfg,
					  err, sizeof(err)),
			 HIL_OK);
	memset(&opts, 0, sizeof(opts));
	opts.results_dir = dir;
	assert_int_equal(hil_runner_run(&cfg, &opts, &run), HIL_ERR_VERIFY);
	assert_string_equal(run.status, "complete");
	assert_int_equal(run.n_rows, 3);
	r = row_at(&run, 512);
	assert_false(r->ok);
	/* The report itself: a precise bus fault (BFSR PRECISERR and
	 * BFARVALID) at the unmapped address, from a known PC. */
	assert_non_null(strstr(r->error, "the target took a fault"));
	assert_non_null(strstr(r->error, "CFSR 0x00008200"));
	assert_non_null(strstr(r->error, "BFAR 0x60000000"));
	assert_null(strstr(r->error, "PC 0x00000000"));
	assert_non_null(strstr(r->error, "PC 0x080"));
	/* In words, and where (the image's function holding the PC). */
	assert_non_null(strstr(r->error, "BusFault PRECISERR: a data access "
					 "to no memory"));
	assert_non_null(strstr(r->error, "+0x"));
	assert_true(row_at(&run, 16)->ok);
	assert_true(row_at(&run, 64)->ok);
	assert_int_equal(run.reflashes, 1);
	hil_run_free(&run);
	nftw(dir, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
	hil_config_free(&cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			test_hung_and_crashed_rows_fail_and_the_run_goes_on),
		cmocka_unit_test(
			test_fault_with_the_stack_nearly_full_still_reports),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
