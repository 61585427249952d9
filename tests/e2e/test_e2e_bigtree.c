/* test_e2e_bigtree: one `hilrun run` over a tree of 300 implementation folders (more than the 256 a run once held) under QEMU: split over ten images, every folder measured and reported, progress with the time left on the way. */
#define _XOPEN_SOURCE 700

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "e2e_util.h"
#include "image/build.h"
#include "util/err.h"
#include "util/util.h"

/*
 * N_IMPL copies of the bundled Ascon-AEAD128 reference (its two files,
 * crypto_aead/ascon-aead128/cNNN/): each is checked against hilrun's own
 * reference, so no folder needs a host build of its own, and built at -O0
 * to keep the build of 300 folders short. Ten images of at most
 * HIL_IMAGE_MAX_ALGS (32) hold 300; nine would not.
 */
#define N_IMPL 300

static char tmp_root[64];
static char src_root[HIL_PATH];

/* Copy src_root/rel to to. */
static void copy_file(const char *rel, const char *to)
{
	char from[HIL_PATH + 64];
	char *text = NULL;
	size_t len = 0;

	snprintf(from, sizeof(from), "%s/%s", src_root, rel);
	assert_int_equal(hil_read_file(from, &text, &len), HIL_OK);
	assert_int_equal(hil_write_atomic(to, text, len), HIL_OK);
	free(text);
}

/* hilrun argv with stdout and stderr into files; @return its exit status. */
static int run_hilrun(char *const argv[], const char *out, const char *err)
{
	pid_t pid = fork();
	int st = 0;

	assert_true(pid >= 0);
	if (pid == 0) {
		int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (o < 0 || e < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0) {
			_exit(127);
		}
		execv(argv[0], argv);
		_exit(127);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static int rows_ok_of(const cJSON *rows, const char *impl)
{
	const cJSON *r;
	int n = 0;

	cJSON_ArrayForEach(r, rows)
	{
		if (strcmp(e2e_need_str(r, "implementation"), impl) == 0 &&
		    strcmp(e2e_need_str(r, "algorithm"), "ascon-aead128") ==
			    0 &&
		    strcmp(e2e_need_str(r, "status"), "ok") == 0) {
			n++;
		}
	}
	return n;
}

static void test_one_command_measures_a_tree_of_300(void **state)
{
	char tree[HIL_PATH], cfg[HIL_PATH], results[HIL_PATH];
	char out[HIL_PATH], err[HIL_PATH], json[2 * HIL_PATH];
	char *argv[] = {(char *)e2e_hilrun_bin(),
			"run",
			"--config",
			cfg,
			"--results",
			results,
			NULL};
	const cJSON *rows, *images, *im, *sizes, *built;
	char *text = NULL;
	cJSON *report;
	size_t i, n_images = 0, listed = 0;
	int status;

	(void)state;
	snprintf(tree, sizeof(tree), "%s/big/crypto_aead", tmp_root);
	for (i = 0; i < N_IMPL; i++) {
		char dir[HIL_PATH + 64], to[HIL_PATH + 96];

		snprintf(dir, sizeof(dir), "%s/ascon-aead128/c%03zu", tree, i);
		assert_int_equal(hil_mkdirs(dir), HIL_OK);
		snprintf(to, sizeof(to), "%s/api.h", dir);
		copy_file("target/crypto/ascon-aead128/ref/api.h", to);
		snprintf(to, sizeof(to), "%s/encrypt.c", dir);
		copy_file("target/crypto/ascon-aead128/ref/encrypt.c", to);
	}
	snprintf(cfg, sizeof(cfg), "%s/big.json", tmp_root);
	snprintf(results, sizeof(results), "%s/results", tmp_root);
	snprintf(out, sizeof(out), "%s/out.txt", tmp_root);
	snprintf(err, sizeof(err), "%s/err.txt", tmp_root);
	snprintf(json, sizeof(json),
		 "{ \"name\": \"e2e-bigtree\","
		 " \"board\": { \"name\": \"qemu-netduino\" },"
		 " \"flasher\": { \"type\": \"qemu\" },"
		 " \"build\": { \"cflags\": [\"-O0\"] },"
		 " \"algorithms\": [ { \"tree\": \"%s\" } ],"
		 " \"bench\": { \"operations\": [\"encrypt\"],"
		 " \"lengths\": [16], \"ad_lengths\": [0], \"runs\": 2,"
		 " \"warmup\": 0, \"leak_runs\": 0, \"normalize_to\": \"\" },"
		 " \"cycle_model\": { \"enabled\": false } }",
		 tree);
	assert_int_equal(hil_write_atomic(cfg, json, strlen(json)), HIL_OK);

	status = run_hilrun(argv, out, err);
	assert_int_equal(hil_read_file(err, &text, NULL), HIL_OK);
	if (status != 0) {
		fprintf(stderr, "%s", text);
		fail_msg("hilrun run exited %d", status);
	}
	/* Progress, image by image, with the time left from the pace (shown
	 * in the test's log: where the run's time went). */
	{
		const char *p = text;

		while ((p = strstr(p, "info: ")) != NULL) {
			const char *eol = strchr(p, '\n');
			int len = eol != NULL ? (int)(eol - p) : (int)strlen(p);

			if (strncmp(p + 6, "image ", 6) == 0 ||
			    strncmp(p + 6, "building image ", 15) == 0 ||
			    strncmp(p + 6, "split into", 10) == 0) {
				fprintf(stderr, "%.*s\n", len, p);
			}
			p += len;
		}
	}
	e2e_assert_contains(text,
			    "building image 10 of 10: 30 implementations");
	e2e_assert_contains(text, "split into 10 images");
	e2e_assert_contains(text, "image 10 of 10:");
	e2e_assert_contains(text, "s left, from the pace so far");
	free(text);

	report = e2e_load_report(results);
	assert_non_null(report);
	rows = e2e_need(report, "rows");
	for (i = 0; i < N_IMPL; i++) {
		char impl[16];

		snprintf(impl, sizeof(impl), "c%03zu", i);
		if (rows_ok_of(rows, impl) != 1) {
			fail_msg("ascon-aead128/%s: %d ok rows, not 1", impl,
				 rows_ok_of(rows, impl));
		}
	}
	assert_int_equal(cJSON_GetArraySize(rows), N_IMPL);
	/* Every image listed whole, none over the stub's table. */
	images = e2e_need(report, "images");
	cJSON_ArrayForEach(im, images)
	{
		const char *p = e2e_need_str(im, "algorithms");
		size_t words = 1;

		for (; *p != '\0'; p++) {
			words += *p == ' ';
		}
		assert_true(words <= HIL_IMAGE_MAX_ALGS);
		listed += words;
		n_images++;
	}
	assert_true(n_images >= 10);
	assert_int_equal(listed, N_IMPL);
	/* Each implementation's sizes, and all of them in what was built. */
	sizes = e2e_need(report, "sizes");
	assert_int_equal(cJSON_GetArraySize(sizes), N_IMPL);
	built = e2e_need(e2e_need(report, "build"), "algorithms");
	for (i = 0; i < N_IMPL; i++) {
		char word[32];

		snprintf(word, sizeof(word), "ascon-aead128/c%03zu=", i);
		assert_non_null(strstr(built->valuestring, word));
	}
	cJSON_Delete(report);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_command_measures_a_tree_of_300),
	};
	int failed;

	if (e2e_main_begin(src_root, sizeof(src_root), tmp_root,
			   sizeof(tmp_root), "/tmp/e2e-bigtree-XXXXXX") != 0) {
		return 1;
	}
	failed = cmocka_run_group_tests_name("e2e_bigtree", tests, NULL, NULL);
	return e2e_main_end(tmp_root, failed);
}
