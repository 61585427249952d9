/* End-to-end tests of the whole algorithm suite on QEMU: official vectors on the target, and sizes attributed from the map checked against the objects. */
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
#include "run/katrun.h"
#include "util/proc.h"
#include "image/refcrypto/refcrypto.h"
#include "result/run.h"
#include "run/runner.h"
#include "session/stub.h"

/* Every bundled implementation with its official vector file. */
static const struct {
	const char *name;
	const char *impl;
	const char *kat;
} suite[] = {
	{"ascon-aead128", "ref", "asconaead128_LWC_AEAD_KAT_128_128.txt"},
	{"ascon-aead128", "bi32", "asconaead128_LWC_AEAD_KAT_128_128.txt"},
	{"ascon128v12", "ref", "ascon128v12_LWC_AEAD_KAT_128_128.txt"},
	{"ascon-hash256", "ref", "asconhash256_LWC_HASH_KAT_128_256.txt"},
	{"ascon-xof128", "ref", "asconxof128_LWC_XOF_KAT_128_512.txt"},
	{"speck64-128-ecb", "ref", "speck64128_le_bytes.txt"},
	{"aes128-ecb", "ref", "aes128_ecb.txt"},
	{"aes128-gcm", "ref", "aes128_gcm.txt"},
	{"chacha20-poly1305", "ref", "chacha20poly1305.txt"},
};
#define SUITE_N (sizeof(suite) / sizeof(suite[0]))

struct fx {
	char dir[64];
	struct hil_config cfg;
	struct hil_run run;
	struct hil_runner_opts opts;
	struct hil_target_conn conn;
	struct hilp_alg_info algs[HIL_TARGET_MAX_ALGS];
	size_t n_algs;
};

static const char *src_dir(void)
{
	const char *s = getenv("HIL_SRC_DIR");

	return s != NULL && s[0] != '\0' ? s : ".";
}

static int rm_entry(const char *path, const struct stat *sb, int flag,
		    struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* One image with the whole suite (configs/qemu.json), brought up once. */
static int setup(void **state)
{
	struct fx *fx = calloc(1, sizeof(*fx));
	char path[512];
	char err[1024];

	if (fx == NULL) {
		return -1;
	}
	snprintf(fx->dir, sizeof(fx->dir), "/tmp/hilrun-suite-XXXXXX");
	if (mkdtemp(fx->dir) == NULL) {
		free(fx);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/configs/qemu.json", src_dir());
	if (hil_config_load(path, &fx->cfg, err, sizeof(err)) != HIL_OK) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	fx->run.cfg = &fx->cfg;
	snprintf(fx->run.dir, sizeof(fx->run.dir), "%s", fx->dir);
	fx->opts.results_dir = fx->dir;
	*state = fx;
	if (hil_runner_bring_up(&fx->cfg, &fx->opts, &fx->run, &fx->conn) !=
		    HIL_OK ||
	    hil_target_algs(fx->conn.session, fx->algs, HIL_TARGET_MAX_ALGS,
			    &fx->n_algs) != HIL_OK) {
		return -1;
	}
	return 0;
}

static int teardown(void **state)
{
	struct fx *fx = *state;

	hil_runner_take_down(&fx->conn, &fx->run);
	hil_run_free(&fx->run);
	hil_config_free(&fx->cfg);
	nftw(fx->dir, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
	free(fx);
	return 0;
}

static int index_of(const struct fx *fx, const char *name, const char *impl)
{
	size_t i;

	for (i = 0; i < fx->n_algs; i++) {
		if (strcmp(fx->algs[i].name, name) == 0 &&
		    strcmp(fx->algs[i].impl, impl) == 0) {
			return (int)i;
		}
	}
	return -1;
}

static void
test_a_sample_of_every_vector_file_passes_on_the_target(void **state)
{
	struct fx *fx = *state;
	size_t i;

	for (i = 0; i < SUITE_N; i++) {
		const struct registry_alg *ref =
			hil_ref_find(suite[i].name, suite[i].impl);
		int index = index_of(fx, suite[i].name, suite[i].impl);
		char path[512];

		assert_non_null(ref);
		assert_true(index >= 0);
		snprintf(path, sizeof(path), "%s/tests/kat/%s", src_dir(),
			 suite[i].kat);
		/* Every 97th vector of the long files, all of the short. */
		assert_int_equal(
			hil_katrun_on_target(
				fx->conn.session, (uint8_t)index, ref, path,
				strncmp(suite[i].kat, "ascon", 5) == 0 ? 97
								       : 1),
			HIL_OK);
	}
}

/* Sum the allocated sections of one object with `arm-none-eabi-size -A`. */
static unsigned long object_bytes(const char *obj, const char *prefix)
{
	char *argv[] = {"arm-none-eabi-size", "-A", (char *)obj, NULL};
	static char out[16384];
	unsigned long total = 0;
	int status = -1;
	char *line;
	char *save = NULL;

	assert_int_equal(
		hil_proc_capture(argv, out, sizeof(out), 10000, &status),
		HIL_OK);
	assert_int_equal(status, 0);
	for (line = strtok_r(out, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		char name[256];
		unsigned long size;

		if (sscanf(line, "%255s %lu", name, &size) == 2 &&
		    strncmp(name, prefix, strlen(prefix)) == 0) {
			total += size;
		}
	}
	return total;
}

static void test_sizes_from_the_map_agree_with_the_objects(void **state)
{
	struct fx *fx = *state;
	size_t i;

	assert_int_equal(fx->run.n_impl_sizes, SUITE_N);
	for (i = 0; i < fx->run.n_impl_sizes; i++) {
		const struct hil_impl_size *z = &fx->run.impl_sizes[i];
		char dir[1024];
		char cmd_dir[1024];
		char *argv[] = {"sh", "-c", cmd_dir, NULL};
		static char list[4096];
		unsigned long text = 0, rodata = 0;
		int status = -1;
		char *obj;
		char *save = NULL;

		snprintf(dir, sizeof(dir), "%s/crypto/%s/%s", fx->run.fw.dir,
			 z->algorithm, z->implementation);
		/* The implementation's objects, without the harness's glue. */
		snprintf(cmd_dir, sizeof(cmd_dir),
			 "ls %s/*.o | grep -v '/glue.o$'", dir);
		assert_int_equal(hil_proc_capture(argv, list, sizeof(list),
						  10000, &status),
				 HIL_OK);
		assert_int_equal(status, 0);
		for (obj = strtok_r(list, "\n", &save); obj != NULL;
		     obj = strtok_r(NULL, "\n", &save)) {
			text += object_bytes(obj, ".text");
			rodata += object_bytes(obj, ".rodata");
		}
		/* --gc-sections may drop what nothing calls, never add. */
		assert_true(z->text > 0);
		assert_true(z->text <= text);
		assert_true(z->rodata <= rodata + 8); /* string merging pads */
		if (strcmp(z->algorithm, "ascon-aead128") == 0 &&
		    strcmp(z->implementation, "ref") == 0) {
			/* Every function of the reference is reachable. */
			assert_int_equal(z->text, text);
		}
	}
}

/*
 * Drop-in implementations named by path: our reference in another folder
 * layout passes its official vector file on the target and is measured; a
 * wrong one is reported as failing verification and is never timed.
 */
static void
test_dropped_in_implementations_are_verified_before_timing(void **state)
{
	struct fx *fx = *state;
	struct hil_config cfg = {0};
	struct hil_runner_opts opts;
	struct hil_run run;
	char json[2048];
	char err[1024] = "";
	size_t i;
	int copy_rows = 0;

	snprintf(
		json, sizeof(json),
		"{\"name\": \"e2e-dropin\", \"board\": {\"name\": \"qemu-netduino\"},"
		" \"algorithms\": ["
		" {\"name\": \"ascon-aead128\", \"impl\": \"copy\","
		" \"path\": \"tests/fixtures/copy-ascon\","
		" \"kat\": \"tests/fixtures/copy-ascon/LWC_AEAD_KAT_sample.txt\"},"
		" {\"name\": \"ascon-aead128\", \"impl\": \"wrong\","
		" \"path\": \"tests/fixtures/wrong-ascon\"}],"
		" \"bench\": {\"operations\": [\"encrypt\"], \"lengths\": [16, 64],"
		" \"runs\": 10, \"warmup\": 1}, \"results_dir\": \"%s/dropin\"}",
		fx->dir);
	assert_int_equal(
		hil_config_parse(json, src_dir(), &cfg, err, sizeof(err)),
		HIL_OK);
	memset(&opts, 0, sizeof(opts));
	opts.results_dir = cfg.results_dir;
	assert_int_equal(hil_runner_run(&cfg, &opts, &run), HIL_ERR_VERIFY);
	for (i = 0; i < run.n_rows; i++) {
		const struct hil_row *r = &run.rows[i];

		if (strcmp(r->implementation, "copy") == 0) {
			assert_true(r->ok);
			assert_true(r->verified);
			copy_rows++;
		} else {
			/* One row saying why, no figures. */
			assert_string_equal(r->implementation, "wrong");
			assert_string_equal(r->operation, "verify");
			assert_false(r->ok);
			assert_int_equal(r->stats.n, 0);
			assert_non_null(strstr(r->error, "verification"));
		}
	}
	assert_int_equal(copy_rows, 2);
	assert_int_equal(run.n_rows, 3);
	hil_run_free(&run);
	hil_config_free(&cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			test_a_sample_of_every_vector_file_passes_on_the_target),
		cmocka_unit_test(
			test_sizes_from_the_map_agree_with_the_objects),
		cmocka_unit_test(
			test_dropped_in_implementations_are_verified_before_timing),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
