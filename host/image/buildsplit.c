/* buildsplit: a selection too big for one image split over several images, each of which links. */
#define HIL_LOG_PREFIX "build"
#include "build.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/err.h"
#include "util/log.h"
#include "util/util.h"

struct hil_config *hil_build_subset(const struct hil_config *cfg,
				    const size_t *algs, size_t n)
{
	struct hil_config *sub = malloc(sizeof(*sub));
	size_t i;

	if (sub == NULL) {
		return NULL;
	}
	*sub = *cfg;
	sub->algs = n > 0 ? malloc(n * sizeof(*sub->algs)) : NULL;
	sub->cap_algs = n;
	sub->not_for_board = NULL; /* the run's, not an image's */
	sub->n_not_for_board = 0;
	sub->cap_not_for_board = 0;
	if (n > 0 && sub->algs == NULL) {
		free(sub);
		return NULL;
	}
	for (i = 0; i < n; i++) {
		sub->algs[i] = cfg->algs[algs[i]];
	}
	sub->n_algs = n;
	return sub;
}

void hil_build_split_free(struct hil_build_split *split)
{
	size_t i;

	if (split == NULL) {
		return;
	}
	for (i = 0; i < split->n_images; i++) {
		free(split->image[i].algs);
	}
	free(split->image);
	free(split->too_big);
	memset(split, 0, sizeof(*split));
}

/* algs[0..n-1] as one more image of split. */
static int add_image(struct hil_build_split *split, const size_t *algs,
		     size_t n)
{
	void *arr = split->image;
	struct hil_split_image *im;

	if (hil_grow(&arr, split->n_images, &split->cap_images,
		     sizeof(*split->image)) != HIL_OK) {
		return HIL_ERR_NOMEM;
	}
	split->image = arr;
	im = &split->image[split->n_images];
	im->algs = malloc((n > 0 ? n : 1) * sizeof(*algs));
	if (im->algs == NULL) {
		return HIL_ERR_NOMEM;
	}
	if (n > 0) {
		memcpy(im->algs, algs, n * sizeof(*algs));
	}
	im->n_algs = n;
	split->n_images++;
	return HIL_OK;
}

/* One more implementation that fits no image. */
static int add_too_big(struct hil_build_split *split, size_t alg,
		       const char *what, const char *words)
{
	void *arr = split->too_big;
	struct hil_split_too_big *t;

	if (hil_grow(&arr, split->n_too_big, &split->cap_too_big,
		     sizeof(*split->too_big)) != HIL_OK) {
		return HIL_ERR_NOMEM;
	}
	split->too_big = arr;
	t = &split->too_big[split->n_too_big++];
	t->alg = alg;
	snprintf(t->why, sizeof(t->why), "%s: %s", what, words);
	return HIL_OK;
}

int hil_build_split_plan(const struct hil_config *cfg, const size_t *skip,
			 size_t n_skip, struct hil_build_split *plan)
{
	size_t *algs;
	size_t i, k, n = 0;
	int ret = HIL_OK;

	hil_build_split_free(plan);
	algs = malloc((cfg->n_algs > 0 ? cfg->n_algs : 1) * sizeof(*algs));
	if (algs == NULL) {
		return HIL_ERR_NOMEM;
	}
	for (i = 0; i < cfg->n_algs; i++) {
		for (k = 0; k < n_skip && skip[k] != i; k++) {
		}
		if (k == n_skip) {
			algs[n++] = i;
		}
	}
	if (n > HIL_IMAGE_MAX_ALGS) {
		/* More than one image holds: runs of equal size, at most
		 * HIL_IMAGE_MAX_ALGS each. */
		size_t parts =
			(n + HIL_IMAGE_MAX_ALGS - 1) / HIL_IMAGE_MAX_ALGS;
		size_t done = 0, p;

		for (p = 0; ret == HIL_OK && p < parts; p++) {
			size_t m = (n - done) / (parts - p);

			ret = add_image(plan, algs + done, m);
			done += m;
		}
	} else if (n == 1) {
		ret = add_image(plan, algs, n);
	} else if (n > 1) {
		/* All of them together are known not to fit: halve at once. */
		ret = add_image(plan, algs, n / 2);
		if (ret == HIL_OK) {
			ret = add_image(plan, algs + n / 2, n - n / 2);
		}
	}
	free(algs);
	if (ret != HIL_OK) {
		hil_build_split_free(plan);
	}
	return ret;
}

/* Build algs[0..n-1] as one image; halve it while it is too big. */
static int split_rec(const struct hil_config *cfg, const char *root,
		     const char *log_path, const size_t *algs, size_t n,
		     unsigned flags, const volatile sig_atomic_t *stop,
		     struct hil_build_split *split, struct hil_firmware *fw)
{
	struct hil_config *sub = hil_build_subset(cfg, algs, n);
	int ret;

	if (sub == NULL) {
		return HIL_ERR_NOMEM;
	}
	ret = hil_build_firmware_ex(sub, root, log_path, NULL,
				    flags | HIL_BUILD_QUIET_OVERFLOW, stop, fw);
	hil_config_free(sub);
	free(sub);
	if (ret == HIL_OK) {
		return add_image(split, algs, n);
	}
	if (!fw->overflowed && !fw->link_failed) {
		return ret;
	}
	if (n == 1) {
		return fw->overflowed
			       ? add_too_big(split, algs[0],
					     "too big for the board even alone",
					     fw->overflow)
			       : add_too_big(split, algs[0],
					     "does not link into an image",
					     fw->link_error);
	}
	ret = split_rec(cfg, root, log_path, algs, n / 2, flags, stop, split,
			fw);
	if (ret == HIL_OK) {
		ret = split_rec(cfg, root, log_path, algs + n / 2, n - n / 2,
				flags, stop, split, fw);
	}
	return ret;
}

int hil_build_split(const struct hil_config *cfg, const char *root,
		    const char *log_path, const size_t *skip, size_t n_skip,
		    unsigned flags, const volatile sig_atomic_t *stop,
		    struct hil_build_split *split)
{
	struct hil_firmware *fw = calloc(1, sizeof(*fw));
	struct hil_build_split plan;
	size_t p;
	int ret;

	memset(&plan, 0, sizeof(plan));
	hil_build_split_free(split);
	if (fw == NULL) {
		return HIL_ERR_NOMEM;
	}
	ret = hil_build_split_plan(cfg, skip, n_skip, &plan);
	/* Each run of the plan built, halved further when too big; said as
	 * it goes (a tree of hundreds takes minutes to build). */
	for (p = 0; ret == HIL_OK && p < plan.n_images; p++) {
		hil_info("building image %zu of %zu: %zu implementation%s",
			 p + 1, plan.n_images, plan.image[p].n_algs,
			 plan.image[p].n_algs == 1 ? "" : "s");
		ret = split_rec(cfg, root, log_path, plan.image[p].algs,
				plan.image[p].n_algs, flags, stop, split, fw);
	}
	hil_build_split_free(&plan);
	hil_firmware_free(fw);
	free(fw);
	return ret;
}
