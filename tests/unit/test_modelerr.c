/* test_modelerr: a row's cycle-model estimate carries its profile's cross-validated error bar, for assembly or for C by the folder's sources, and none under an uncalibrated profile. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "config/config.h"
#include "drivers/board/memsys.h"
#include "image/build.h"
#include "result/modelerr.h"
#include "util/err.h"
#include "result/run.h"
#include "unit_util.h"

#define VARIANT "tests/fixtures/nist-tree/crypto_aead/toyaead128"

/* The source tree ($HIL_SRC_DIR, as make test sets it; else "."). */
static const char *src_dir(void)
{
	const char *d = getenv("HIL_SRC_DIR");

	return d != NULL && d[0] != '\0' ? d : ".";
}

/* A run under profile with two folders of the fixture: sfile (a .s file)
 * and ref (C with an empty asm barrier only); rows[0] and rows[1]. */
static struct hil_run *make_run(const char *profile, struct hil_config *cfg)
{
	struct hil_run *run = calloc(1, sizeof(*run));
	static const char *const impls[] = {"sfile", "ref"};
	size_t i;

	assert_non_null(run);
	hil_config_free(cfg);
	memset(cfg, 0, sizeof(*cfg));
	for (i = 0; i < 2; i++) {
		struct hil_config_alg *a;

		assert_int_equal(hil_config_add_alg(cfg, &a), HIL_OK);
		snprintf(cfg->algs[i].name, sizeof(cfg->algs[i].name),
			 "toyaead128");
		snprintf(cfg->algs[i].impl, sizeof(cfg->algs[i].impl), "%s",
			 impls[i]);
		snprintf(cfg->algs[i].path, sizeof(cfg->algs[i].path),
			 "%s/%s/%s", src_dir(), VARIANT, impls[i]);
	}
	run->cfg = cfg;
	snprintf(run->model.profile, sizeof(run->model.profile), "%s", profile);
	run->rows = calloc(2, sizeof(*run->rows));
	assert_non_null(run->rows);
	run->n_rows = 2;
	for (i = 0; i < 2; i++) {
		snprintf(run->rows[i].algorithm, sizeof(run->rows[i].algorithm),
			 "toyaead128");
		snprintf(run->rows[i].implementation,
			 sizeof(run->rows[i].implementation), "%s", impls[i]);
		run->rows[i].ok = 1;
		run->rows[i].model.ok = 1;
	}
	return run;
}

static void free_run(struct hil_run *run)
{
	free(run->rows);
	free(run);
}

static void test_calibrated_profile_gives_asm_and_c_error_bars(void **state)
{
	const struct cm4_memsys *p = cm4_memsys_find("nrf52840-cal");
	struct hil_config *cfg = calloc(1, sizeof(*cfg));
	struct hil_run *run;
	const char *kind = NULL;
	char label[32];

	(void)state;
	assert_non_null(p);
	assert_non_null(cfg);
	assert_true(p->err_c_pct > 0);
	assert_true(p->err_asm_pct > 0);
	assert_non_null(p->err_from);
	run = make_run("nrf52840-cal", cfg);
	assert_true(hil_model_error_pct(run, &run->rows[0], &kind) ==
		    p->err_asm_pct);
	assert_string_equal(kind, "assembly");
	assert_true(hil_model_error_pct(run, &run->rows[1], &kind) ==
		    p->err_c_pct);
	assert_string_equal(kind, "C");
	hil_model_error_label(run, &run->rows[1], label, sizeof(label));
	assert_non_null(strstr(label, "\xc2\xb1 "));
	assert_non_null(strstr(label, " %"));
	/* A row without an estimate has no error bar. */
	run->rows[1].model.ok = 0;
	assert_true(hil_model_error_pct(run, &run->rows[1], NULL) < 0);
	free_run(run);
	hil_config_free(cfg);
	free(cfg);
}

static void test_uncalibrated_profiles_give_none(void **state)
{
	static const char *const names[] = {"nrf52840-icache", "stm32f401-art",
					    ""};
	struct hil_config *cfg = calloc(1, sizeof(*cfg));
	size_t i;

	(void)state;
	assert_non_null(cfg);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct hil_run *run = make_run(names[i], cfg);
		char label[32] = "x";

		assert_true(hil_model_error_pct(run, &run->rows[0], NULL) < 0);
		hil_model_error_label(run, &run->rows[0], label, sizeof(label));
		assert_string_equal(label, "");
		free_run(run);
	}
	hil_config_free(cfg);
	free(cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			test_calibrated_profile_gives_asm_and_c_error_bars),
		cmocka_unit_test(test_uncalibrated_profiles_give_none),
	};

	return cmocka_run_group_tests_name("modelerr", tests, NULL, NULL);
}
