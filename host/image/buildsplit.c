/* buildsplit: a selection too big for one image split over several images, each of which links. */
#include "build.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/err.h"

struct hil_config *hil_build_subset(const struct hil_config *cfg,
				    const size_t *algs, size_t n)
{
	struct hil_config *sub = malloc(sizeof(*sub));
	size_t i;

	if (sub == NULL) {
		return NULL;
	}
	*sub = *cfg;
	for (i = 0; i < n && i < HIL_CFG_MAX_ALGS; i++) {
		sub->algs[i] = cfg->algs[algs[i]];
	}
	sub->n_algs = i;
	return sub;
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
	free(sub);
	if (ret == HIL_OK) {
		size_t k = split->n_images++;

		memcpy(split->image[k].algs, algs, n * sizeof(*algs));
		split->image[k].n_algs = n;
		return HIL_OK;
	}
	if (!fw->overflowed && !fw->link_failed) {
		return ret;
	}
	if (n == 1) {
		size_t k = split->n_too_big++;

		split->too_big[k].alg = algs[0];
		if (fw->overflowed) {
			snprintf(split->too_big[k].why,
				 sizeof(split->too_big[k].why),
				 "too big for the board even alone: %s",
				 fw->overflow);
		} else {
			snprintf(split->too_big[k].why,
				 sizeof(split->too_big[k].why),
				 "does not link into an image: %s",
				 fw->link_error);
		}
		return HIL_OK;
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
	struct hil_firmware *fw = malloc(sizeof(*fw));
	size_t algs[HIL_CFG_MAX_ALGS];
	size_t i, k, n = 0;
	int ret;

	if (fw == NULL) {
		return HIL_ERR_NOMEM;
	}
	memset(split, 0, sizeof(*split));
	for (i = 0; i < cfg->n_algs && i < HIL_CFG_MAX_ALGS; i++) {
		for (k = 0; k < n_skip && skip[k] != i; k++) {
		}
		if (k == n_skip) {
			algs[n++] = i;
		}
	}
	ret = HIL_OK;
	if (n > HIL_IMAGE_MAX_ALGS) {
		/* More than one image holds: runs of equal size, at most
		 * HIL_IMAGE_MAX_ALGS each, halved further when too big. */
		size_t parts =
			(n + HIL_IMAGE_MAX_ALGS - 1) / HIL_IMAGE_MAX_ALGS;
		size_t done = 0, p;

		for (p = 0; ret == HIL_OK && p < parts; p++) {
			size_t m = (n - done) / (parts - p);

			ret = split_rec(cfg, root, log_path, algs + done, m,
					flags, stop, split, fw);
			done += m;
		}
	} else if (n == 1) {
		ret = split_rec(cfg, root, log_path, algs, n, flags, stop,
				split, fw);
	} else if (n > 1) {
		/* All of them together are known not to fit: halve at once. */
		ret = split_rec(cfg, root, log_path, algs, n / 2, flags, stop,
				split, fw);
		if (ret == HIL_OK) {
			ret = split_rec(cfg, root, log_path, algs + n / 2,
					n - n / 2, flags, stop, split, fw);
		}
	}
	free(fw);
	return ret;
}
