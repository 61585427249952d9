/* firmware: what the record of a built image owns (its algorithm list, foreign folders, exclusions), appended to, copied and freed. */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include "build.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/err.h"
#include "util/util.h"

void hil_firmware_free(struct hil_firmware *fw)
{
	if (fw == NULL) {
		return;
	}
	free(fw->algs);
	fw->algs = NULL;
	free(fw->foreign);
	fw->foreign = NULL;
	fw->n_foreign = 0;
	fw->cap_foreign = 0;
	free(fw->excluded);
	fw->excluded = NULL;
	fw->n_excluded = 0;
	fw->cap_excluded = 0;
}

/* A copy of n elements of size sz at src (NULL for none). */
static void *dup_array(const void *src, size_t n, size_t sz)
{
	void *p;

	if (n == 0) {
		return NULL;
	}
	p = malloc(n * sz);
	if (p != NULL) {
		memcpy(p, src, n * sz);
	}
	return p;
}

int hil_firmware_copy(struct hil_firmware *dst, const struct hil_firmware *src)
{
	*dst = *src;
	dst->algs = src->algs != NULL ? strdup(src->algs) : NULL;
	dst->foreign =
		dup_array(src->foreign, src->n_foreign, sizeof(*src->foreign));
	dst->cap_foreign = src->n_foreign;
	dst->excluded = dup_array(src->excluded, src->n_excluded,
				  sizeof(*src->excluded));
	dst->cap_excluded = src->n_excluded;
	if ((src->algs != NULL && dst->algs == NULL) ||
	    (src->n_foreign > 0 && dst->foreign == NULL) ||
	    (src->n_excluded > 0 && dst->excluded == NULL)) {
		hil_firmware_free(dst);
		return HIL_ERR_NOMEM;
	}
	return HIL_OK;
}

int hil_firmware_add_excluded(struct hil_firmware *fw, const char *impl,
			      const char *why)
{
	void *arr = fw->excluded;
	struct hil_excluded *e;

	if (hil_grow(&arr, fw->n_excluded, &fw->cap_excluded,
		     sizeof(*fw->excluded)) != HIL_OK) {
		return HIL_ERR_NOMEM;
	}
	fw->excluded = arr;
	e = &fw->excluded[fw->n_excluded++];
	snprintf(e->impl, sizeof(e->impl), "%s", impl);
	snprintf(e->why, sizeof(e->why), "%s", why);
	return HIL_OK;
}
