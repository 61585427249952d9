/* test_large_selection: a selection of hundreds of implementations (more than the 256 a run once held) is loaded, split over images and reported whole. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "config/config.h"
#include "image/build.h"
#include "result/reportcheck.h"
#include "result/reportjson.h"
#include "result/run.h"
#include "unit_util.h"
#include "util/err.h"
#include "util/util.h"

/* A tree of N_ALGS algorithms of N_IMPLS implementations each, and as many
 * more folders marked for AVR (not for this board). */
#define N_ALGS	20
#define N_IMPLS 30
#define N_TOTAL (N_ALGS * N_IMPLS) /* 600 */

struct fx {
	char dir[64];
	struct hil_config cfg;
};

static void make_dir(const char *path)
{
	assert_int_equal(mkdir(path, 0755), 0);
}

/* dir/tree/alg<a>/impl<i>/api.h, and dir/tree/alg<a>/avr<i>/ with the
 * NIST framework's lwc_arch_avr marker. */
static void make_tree(const char *dir)
{
	char path[256];
	int a, i;

	snprintf(path, sizeof(path), "%s/tree", dir);
	make_dir(path);
	for (a = 0; a < N_ALGS; a++) {
		snprintf(path, sizeof(path), "%s/tree/alg%02d", dir, a);
		make_dir(path);
		for (i = 0; i < N_IMPLS; i++) {
			snprintf(path, sizeof(path), "%s/tree/alg%02d/impl%02d",
				 dir, a, i);
			make_dir(path);
			snprintf(path, sizeof(path),
				 "%s/tree/alg%02d/impl%02d/api.h", dir, a, i);
			ut_write_file(path, "#define CRYPTO_KEYBYTES 16\n", 27,
				      0644);
			snprintf(path, sizeof(path), "%s/tree/alg%02d/avr%02d",
				 dir, a, i);
			make_dir(path);
			snprintf(path, sizeof(path),
				 "%s/tree/alg%02d/avr%02d/api.h", dir, a, i);
			ut_write_file(path, "#define CRYPTO_KEYBYTES 16\n", 27,
				      0644);
			snprintf(path, sizeof(path),
				 "%s/tree/alg%02d/avr%02d/lwc_arch_avr", dir, a,
				 i);
			ut_write_file(path, "", 0, 0644);
		}
	}
}

static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	char json[512], err[512] = "";

	if (f == NULL) {
		return -1;
	}
	snprintf(f->dir, sizeof(f->dir), "/tmp/hil-large-XXXXXX");
	if (mkdtemp(f->dir) == NULL) {
		free(f);
		return -1;
	}
	make_tree(f->dir);
	snprintf(json, sizeof(json),
		 "{\"name\": \"large\", \"algorithms\": [\"ascon-aead128\","
		 " {\"tree\": \"%s/tree\"}]}",
		 f->dir);
	if (hil_config_parse(json, NULL, &f->cfg, err, sizeof(err)) != HIL_OK) {
		fprintf(stderr, "%s\n", err);
		ut_rm_tree(f->dir);
		free(f);
		return -1;
	}
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	hil_config_free(&f->cfg);
	ut_rm_tree(f->dir);
	free(f);
	return 0;
}

/* Every folder of the tree is an implementation of the run, each once, in
 * name order after the entry before it; every AVR folder is listed. */
static void test_a_tree_of_600_implementations_loads_whole(void **state)
{
	struct fx *f = *state;
	size_t k;

	assert_int_equal(f->cfg.n_algs, 1 + N_TOTAL);
	assert_string_equal(f->cfg.algs[0].name, "ascon-aead128");
	for (k = 0; k < N_TOTAL; k++) {
		const struct hil_config_alg *a = &f->cfg.algs[1 + k];
		char name[16], impl[16];

		snprintf(name, sizeof(name), "alg%02zu", k / N_IMPLS);
		snprintf(impl, sizeof(impl), "impl%02zu", k % N_IMPLS);
		assert_string_equal(a->name, name);
		assert_string_equal(a->impl, impl);
		assert_int_equal(a->entry, 1);
		assert_non_null(strstr(a->path, impl));
	}
	assert_int_equal(f->cfg.n_not_for_board, N_TOTAL);
	assert_string_equal(f->cfg.not_for_board[N_TOTAL - 1].impl, "avr29");
	assert_non_null(strstr(f->cfg.not_for_board[0].why, "lwc_arch_avr"));
}

/* The first cut of the split: ceil(n / HIL_IMAGE_MAX_ALGS) images of at
 * most HIL_IMAGE_MAX_ALGS each, every implementation in exactly one, none
 * of those left out (folders that do not build) in any. */
static void test_the_split_plan_loses_none_of_600(void **state)
{
	struct fx *f = *state;
	const size_t skip[] = {0, 7, 599};
	const size_t n_skip = sizeof(skip) / sizeof(skip[0]);
	const size_t n = f->cfg.n_algs - n_skip;
	struct hil_build_split plan;
	unsigned char *seen = calloc(f->cfg.n_algs, 1);
	size_t g, i, total = 0;

	assert_non_null(seen);
	memset(&plan, 0, sizeof(plan));
	assert_int_equal(hil_build_split_plan(&f->cfg, skip, n_skip, &plan),
			 HIL_OK);
	assert_int_equal(plan.n_images,
			 (n + HIL_IMAGE_MAX_ALGS - 1) / HIL_IMAGE_MAX_ALGS);
	for (g = 0; g < plan.n_images; g++) {
		assert_true(plan.image[g].n_algs >= 1);
		assert_true(plan.image[g].n_algs <= HIL_IMAGE_MAX_ALGS);
		for (i = 0; i < plan.image[g].n_algs; i++) {
			size_t a = plan.image[g].algs[i];

			assert_true(a < f->cfg.n_algs);
			assert_int_equal(seen[a], 0);
			seen[a] = 1;
			total++;
		}
	}
	assert_int_equal(total, n);
	for (i = 0; i < n_skip; i++) {
		assert_int_equal(seen[skip[i]], 0);
	}
	assert_int_equal(plan.n_too_big, 0);
	hil_build_split_free(&plan);
	assert_null(plan.image);
	assert_int_equal(plan.n_images, 0);

	/* A selection known not to fit one image, of fewer than an image
	 * holds, is halved at once. */
	{
		struct hil_config *sub;
		size_t three[] = {1, 2, 3};

		sub = hil_build_subset(&f->cfg, three, 3);
		assert_non_null(sub);
		assert_int_equal(sub->n_algs, 3);
		assert_string_equal(sub->algs[2].impl, "impl02");
		assert_int_equal(hil_build_split_plan(sub, NULL, 0, &plan),
				 HIL_OK);
		assert_int_equal(plan.n_images, 2);
		assert_int_equal(plan.image[0].n_algs + plan.image[1].n_algs,
				 3);
		hil_build_split_free(&plan);
		hil_config_free(sub);
		free(sub);
	}
	free(seen);
}

/* A copy of a configuration owns its own arrays. */
static void test_a_copy_of_the_configuration_is_its_own(void **state)
{
	struct fx *f = *state;
	struct hil_config *c = calloc(1, sizeof(*c));

	assert_non_null(c);
	assert_int_equal(hil_config_copy(c, &f->cfg), HIL_OK);
	assert_int_equal(c->n_algs, f->cfg.n_algs);
	assert_true(c->algs != f->cfg.algs);
	assert_true(c->not_for_board != f->cfg.not_for_board);
	snprintf(c->algs[5].impl, sizeof(c->algs[5].impl), "changed");
	assert_string_equal(f->cfg.algs[5].impl, "impl04");
	assert_string_equal(c->not_for_board[N_TOTAL - 1].impl, "avr29");
	hil_config_free(c);
	assert_null(c->algs);
	assert_int_equal(c->n_algs, 0);
	free(c);
}

/* "alg/impl=<a long folder>" for implementation k of the tree. */
static void entry_of(const struct fx *f, size_t k, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s=%s/build/fw/large-0123abcd/src/%s_%s",
		 f->cfg.algs[1 + k].name, f->cfg.algs[1 + k].impl, f->dir,
		 f->cfg.algs[1 + k].name, f->cfg.algs[1 + k].impl);
}

/* A run of 600 implementations' sizes over 25 images: report.json has
 * every one of them, every image with its whole list, and the whole list
 * of what was built (far longer than the 1 024 and 16 384 bytes the
 * fixed buffers held). */
static void test_report_of_600_sizes_and_25_images_is_whole(void **state)
{
	struct fx *f = *state;
	struct hil_run *run = calloc(1, sizeof(*run));
	const size_t per_image = N_TOTAL / 25;
	char entry[512], err[512] = "";
	char *text, **lists = calloc(25, sizeof(*lists));
	const cJSON *a, *e, *b;
	cJSON *rep;
	size_t k, g;

	assert_non_null(run);
	assert_non_null(lists);
	run->cfg = &f->cfg;
	run->status = "complete";
	snprintf(run->id, sizeof(run->id), "large");
	for (k = 0; k < N_TOTAL; k++) {
		struct hil_impl_size *z = hil_run_add_impl_size(run);

		assert_non_null(z);
		snprintf(z->algorithm, sizeof(z->algorithm), "%s",
			 f->cfg.algs[1 + k].name);
		snprintf(z->implementation, sizeof(z->implementation), "%s",
			 f->cfg.algs[1 + k].impl);
		z->text = 1000 + k;
		z->bss = k;
		entry_of(f, k, entry, sizeof(entry));
		assert_int_equal(hil_str_append(&run->fw.algs, " ", entry),
				 HIL_OK);
		assert_int_equal(
			hil_str_append(&lists[k / per_image], " ", entry),
			HIL_OK);
	}
	for (g = 0; g < 25; g++) {
		struct hil_run_image *im = hil_run_add_image(run, lists[g]);

		assert_non_null(im);
		snprintf(im->build_id, sizeof(im->build_id), "%08zx", g);
		im->sizes.flash = 40000 + g;
	}
	assert_true(strlen(run->fw.algs) > 16384);
	assert_true(strlen(lists[0]) > 1024);

	text = hil_report_json(run);
	assert_non_null(text);
	rep = cJSON_Parse(text);
	free(text);
	assert_non_null(rep);
	assert_int_equal(
		hil_result_report_check(rep, "report.json", err, sizeof(err)),
		HIL_OK);
	a = cJSON_GetObjectItemCaseSensitive(rep, "sizes");
	assert_int_equal(cJSON_GetArraySize(a), N_TOTAL);
	k = 0;
	cJSON_ArrayForEach(e, a)
	{
		assert_string_equal(
			cJSON_GetObjectItemCaseSensitive(e, "implementation")
				->valuestring,
			f->cfg.algs[1 + k].impl);
		assert_int_equal(
			cJSON_GetObjectItemCaseSensitive(e, "text")->valueint,
			1000 + (int)k);
		k++;
	}
	a = cJSON_GetObjectItemCaseSensitive(rep, "images");
	assert_int_equal(cJSON_GetArraySize(a), 25);
	g = 0;
	cJSON_ArrayForEach(e, a)
	{
		assert_string_equal(
			cJSON_GetObjectItemCaseSensitive(e, "algorithms")
				->valuestring,
			lists[g]);
		g++;
	}
	b = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(rep, "build"), "algorithms");
	assert_true(cJSON_IsString(b));
	assert_string_equal(b->valuestring, run->fw.algs);
	a = cJSON_GetObjectItemCaseSensitive(rep, "not_for_board");
	assert_int_equal(cJSON_GetArraySize(a), N_TOTAL);
	cJSON_Delete(rep);

	for (g = 0; g < 25; g++) {
		free(lists[g]);
	}
	free(lists);
	hil_run_free(run);
	assert_null(run->impl_sizes);
	assert_null(run->images);
	assert_null(run->fw.algs);
	free(run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
			test_a_tree_of_600_implementations_loads_whole, setup,
			teardown),
		cmocka_unit_test_setup_teardown(
			test_the_split_plan_loses_none_of_600, setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_a_copy_of_the_configuration_is_its_own, setup,
			teardown),
		cmocka_unit_test_setup_teardown(
			test_report_of_600_sizes_and_25_images_is_whole, setup,
			teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
