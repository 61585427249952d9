/* End-to-end test of a whole run on QEMU over a flaky link (bytes dropped, duplicated, flipped and delayed): every row is measured and equals a clean run of the same configuration, sample for sample. */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "config.h"
#include "e2e_util.h"
#include "err.h"
#include "link/link.h"
#include "run.h"
#include "runner.h"

static char tmp_root[64];

/*
 * Two implementations, three lengths, 200 runs: 7 rows. No timing-leak test
 * per row: it would only multiply the same traffic (and time). A short
 * reply timeout keeps each lost reply cheap; 8 retries make a request fail
 * only if nine attempts in a row are damaged.
 */
static void load_config(struct hil_config *cfg, const char *results)
{
	const char *src = getenv("HIL_SRC_DIR");
	char json[1024];
	char err[1024] = "";

	snprintf(
		json, sizeof(json),
		"{\"name\": \"e2e-flaky\", \"board\": {\"name\": \"qemu-netduino\"},"
		" \"link\": {\"timeout_ms\": 150, \"retries\": 8},"
		" \"algorithms\": [\"ascon-aead128\", \"speck64-128-ecb\"],"
		" \"bench\": {\"operations\": [\"encrypt\"],"
		" \"lengths\": [16, 64, 256], \"runs\": 200, \"warmup\": 2,"
		" \"leak_runs\": 0},"
		" \"results_dir\": \"%s\"}",
		results);
	if (hil_config_parse(json, src != NULL ? src : ".", cfg, err,
			     sizeof(err)) != HIL_OK) {
		fail_msg("config rejected: %s", err);
	}
}

static int run_once(const char *sub, const struct hil_link_faults *faults,
		    struct hil_config *cfg, struct hil_run *run)
{
	struct hil_runner_opts opts;
	char results[128];

	snprintf(results, sizeof(results), "%s/%s", tmp_root, sub);
	load_config(cfg, results);
	memset(&opts, 0, sizeof(opts));
	opts.results_dir = results;
	opts.faults = faults;
	return hil_runner_run(cfg, &opts, run);
}

static void
test_run_over_a_flaky_link_equals_a_clean_run_sample_for_sample(void **state)
{
	/*
	 * 1 % of the bytes in each direction damaged (0.3 % dropped, 0.3 %
	 * duplicated, 0.4 % flipped), and 0.5 % more held back 10 ms. A fault
	 * depends on the seed and the byte's index only, so a failure replays.
	 */
	struct hil_link_faults faults = {
		.seed = 20261202u,
		.drop_permille_rx = 3,
		.dup_permille_rx = 3,
		.corrupt_permille_rx = 4,
		.delay_permille_rx = 5,
		.drop_permille_tx = 3,
		.dup_permille_tx = 3,
		.corrupt_permille_tx = 4,
		.delay_permille_tx = 5,
		.delay_ms = 10,
		.silent_after_tx_bytes = -1,
	};
	struct hil_config *cfg = calloc(2, sizeof(*cfg));
	struct hil_run *run = calloc(2, sizeof(*run));
	struct hil_run *clean = &run[0], *flaky = &run[1];
	size_t i, k;

	(void)state;
	if (getenv("E2E_FLAKY_SEED") != NULL) {
		/* Another pattern of faults, to explore; the default is fixed
		 * so that make test is repeatable. */
		faults.seed =
			(uint32_t)strtoul(getenv("E2E_FLAKY_SEED"), NULL, 0);
	}
	fprintf(stderr, "e2e: flaky link seed %u (E2E_FLAKY_SEED)\n",
		(unsigned)faults.seed);
	assert_non_null(cfg);
	assert_non_null(run);
	assert_int_equal(run_once("clean", NULL, &cfg[0], clean), HIL_OK);
	assert_int_equal(run_once("flaky", &faults, &cfg[1], flaky), HIL_OK);
	fprintf(stderr,
		"e2e: flaky run: %u retries, %u bad frames, %u timeouts, %u resets, %u restarts\n",
		flaky->retries, flaky->bad_frames, flaky->timeouts,
		flaky->resets, flaky->reflashes);

	assert_string_equal(flaky->status, "complete");
	/* 3 ascon rows, 3 speck rows and speck's key setup. */
	assert_int_equal(clean->n_rows, 7);
	assert_int_equal(flaky->n_rows, clean->n_rows);
	for (i = 0; i < clean->n_rows; i++) {
		const struct hil_row *a = &clean->rows[i];
		const struct hil_row *b = &flaky->rows[i];

		assert_true(a->ok);
		if (!b->ok) {
			fail_msg(
				"%s/%s %s %u bytes failed over the flaky link: %s",
				b->algorithm, b->implementation, b->operation,
				(unsigned)b->msg_len, b->error);
		}
		assert_string_equal(a->algorithm, b->algorithm);
		assert_string_equal(a->implementation, b->implementation);
		assert_string_equal(a->operation, b->operation);
		assert_int_equal(a->msg_len, b->msg_len);
		assert_int_equal(b->digest_got, b->digest_expected);
		assert_true(a->stats.median == b->stats.median);
		assert_int_equal(a->runs, b->runs);
		for (k = 0; k < a->runs; k++) {
			if (a->samples[k] != b->samples[k]) {
				fail_msg(
					"%s/%s %s %u bytes: sample %zu is %.0f over the flaky link, %.0f over a clean one",
					b->algorithm, b->implementation,
					b->operation, (unsigned)b->msg_len, k,
					b->samples[k], a->samples[k]);
			}
		}
	}
	/* The faults really happened, and the session absorbed them without
	 * restarting the target. */
	assert_true(flaky->retries > 0);
	assert_true(flaky->bad_frames > 0);
	assert_int_equal(flaky->reflashes, 0);
	assert_int_equal(flaky->resets, 0);

	hil_run_free(clean);
	hil_run_free(flaky);
	free(run);
	free(cfg);
}

static int setup(void **state)
{
	(void)state;
	snprintf(tmp_root, sizeof(tmp_root), "/tmp/hilrun-flaky-XXXXXX");
	return mkdtemp(tmp_root) == NULL ? -1 : 0;
}

static int teardown(void **state)
{
	int gone;

	(void)state;
	gone = e2e_qemu_gone(tmp_root, NULL, 2000);
	e2e_remove_tree(tmp_root);
	return gone ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			test_run_over_a_flaky_link_equals_a_clean_run_sample_for_sample),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
