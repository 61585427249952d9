/* run: the measured rows of a run and their units. */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include "run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/err.h"
#include "util/util.h"

const char *hil_unit_name(uint8_t unit)
{
	switch (unit) {
	case HILP_UNIT_CYCLES:
		return "cycles";
	case HILP_UNIT_INSTRUCTIONS_EMU:
		return "instructions (emulated)";
	case HILP_UNIT_NS_HOST:
		return "ns (host)";
	default:
		return "unknown";
	}
}

int hil_row_leak_flagged(const struct hil_row_leak *l)
{
	return l->state > 0 &&
	       (l->flagged || (l->model_state > 0 && l->model.flagged));
}

struct hil_row *hil_run_add_row(struct hil_run *run)
{
	struct hil_row *row;

	if (run->n_rows == run->cap_rows) {
		size_t cap = run->cap_rows ? run->cap_rows * 2 : 16;
		struct hil_row *r = realloc(run->rows, cap * sizeof(*r));

		if (r == NULL) {
			return NULL;
		}
		run->rows = r;
		run->cap_rows = cap;
	}
	row = &run->rows[run->n_rows++];
	memset(row, 0, sizeof(*row));
	return row;
}

static int same_series(const struct hil_row *a, const struct hil_row *b)
{
	return strcmp(a->algorithm, b->algorithm) == 0 &&
	       strcmp(a->implementation, b->implementation) == 0 &&
	       strcmp(a->operation, b->operation) == 0 &&
	       a->ad_len == b->ad_len;
}

int hil_run_compute_fits(struct hil_run *run)
{
	double *x = NULL;
	double *y = NULL;
	size_t i, j;
	int ret = HIL_OK;

	free(run->fits);
	run->fits = NULL;
	run->n_fits = 0;
	if (run->n_rows == 0) {
		return HIL_OK;
	}
	x = malloc(run->n_rows * sizeof(*x));
	y = malloc(run->n_rows * sizeof(*y));
	run->fits = calloc(run->n_rows, sizeof(*run->fits));
	if (x == NULL || y == NULL || run->fits == NULL) {
		ret = HIL_ERR_NOMEM;
		goto out;
	}
	for (i = 0; i < run->n_rows; i++) {
		const struct hil_row *r = &run->rows[i];
		struct hil_fit *f = &run->fits[run->n_fits];
		size_t n = 0;
		int seen = 0;

		for (j = 0; j < i; j++) {
			seen |= same_series(&run->rows[j], r);
		}
		if (seen || !r->ok) {
			continue;
		}
		for (j = i; j < run->n_rows; j++) {
			if (run->rows[j].ok && same_series(&run->rows[j], r)) {
				x[n] = run->rows[j].msg_len;
				y[n] = run->rows[j].stats.median;
				n++;
			}
		}
		if (hil_stats_fit_linear(x, y, n, &f->fixed, &f->per_byte,
					 &f->r2) != HIL_OK) {
			continue; /* fewer than two lengths */
		}
		memcpy(f->algorithm, r->algorithm, sizeof(f->algorithm));
		memcpy(f->implementation, r->implementation,
		       sizeof(f->implementation));
		f->operation = r->operation;
		f->ad_len = r->ad_len;
		f->points = n;
		run->n_fits++;
	}
out:
	free(x);
	free(y);
	return ret;
}

/* The reference's measured encrypt row at len, or NULL. */
static const struct hil_row *reference_row(const struct hil_run *run,
					   const char *alg, const char *impl,
					   uint32_t len)
{
	size_t i;

	for (i = 0; i < run->n_rows; i++) {
		const struct hil_row *r = &run->rows[i];

		if (r->ok && r->msg_len == len && r->ad_len == 0 &&
		    r->stats.n > 0 && r->stats.median > 0.0 &&
		    strcmp(r->operation, "encrypt") == 0 &&
		    strcmp(r->algorithm, alg) == 0 &&
		    strcmp(r->implementation, impl) == 0) {
			return r;
		}
	}
	return NULL;
}

void hil_run_compute_normalized(struct hil_run *run)
{
	char alg[2 * HIL_CFG_NAME];
	const char *spec = run->cfg != NULL ? run->cfg->bench.normalize_to : "";
	char *slash;
	size_t i;

	snprintf(run->normalized_to.spec, sizeof(run->normalized_to.spec), "%s",
		 spec);
	run->normalized_to.implementation[0] = '\0';
	run->normalized_to.rows = 0;
	if (spec[0] == '\0') {
		snprintf(run->normalized_to.why, sizeof(run->normalized_to.why),
			 "bench.normalize_to is empty: no normalised figures");
		return;
	}
	snprintf(alg, sizeof(alg), "%s", spec);
	slash = strchr(alg, '/');
	if (slash != NULL) {
		*slash = '\0';
		snprintf(run->normalized_to.implementation,
			 sizeof(run->normalized_to.implementation), "%s",
			 slash + 1);
	} else {
		/* The first implementation of it measured in this run. */
		for (i = 0; i < run->n_rows; i++) {
			if (strcmp(run->rows[i].algorithm, alg) == 0 &&
			    strcmp(run->rows[i].operation, "encrypt") == 0) {
				snprintf(run->normalized_to.implementation,
					 sizeof(run->normalized_to
							.implementation),
					 "%s", run->rows[i].implementation);
				break;
			}
		}
	}
	for (i = 0; i < run->n_rows; i++) {
		struct hil_row *r = &run->rows[i];
		const struct hil_row *ref;

		r->has_normalized = 0;
		if (!r->ok || r->msg_len == 0 || r->stats.n == 0) {
			continue;
		}
		ref = reference_row(run, alg, run->normalized_to.implementation,
				    r->msg_len);
		if (ref != NULL) {
			r->has_normalized = 1;
			r->normalized = r->stats.median / ref->stats.median;
			run->normalized_to.rows++;
		}
	}
	if (run->normalized_to.rows == 0) {
		snprintf(
			run->normalized_to.why, sizeof(run->normalized_to.why),
			"%s encrypt was not measured in this run (add it to the algorithms, or set bench.normalize_to)",
			spec);
	} else {
		run->normalized_to.why[0] = '\0';
	}
}

void hil_run_free(struct hil_run *run)
{
	size_t i;

	free(run->fits);
	run->fits = NULL;
	run->n_fits = 0;

	for (i = 0; i < run->n_rows; i++) {
		free(run->rows[i].samples);
		free(run->rows[i].model.samples);
	}
	free(run->rows);
	run->rows = NULL;
	run->n_rows = 0;
	run->cap_rows = 0;

	free(run->impl_sizes);
	run->impl_sizes = NULL;
	run->n_impl_sizes = 0;
	run->cap_impl_sizes = 0;
	for (i = 0; i < run->n_images; i++) {
		free(run->images[i].algs);
	}
	free(run->images);
	run->images = NULL;
	run->n_images = 0;
	run->cap_images = 0;
	hil_firmware_free(&run->fw);
}

struct hil_impl_size *hil_run_add_impl_size(struct hil_run *run)
{
	void *arr = run->impl_sizes;
	struct hil_impl_size *z;

	if (hil_grow(&arr, run->n_impl_sizes, &run->cap_impl_sizes,
		     sizeof(*run->impl_sizes)) != HIL_OK) {
		return NULL;
	}
	run->impl_sizes = arr;
	z = &run->impl_sizes[run->n_impl_sizes++];
	memset(z, 0, sizeof(*z));
	return z;
}

struct hil_run_image *hil_run_add_image(struct hil_run *run, const char *algs)
{
	void *arr = run->images;
	struct hil_run_image *im;
	char *copy = strdup(algs != NULL ? algs : "");

	if (copy == NULL || hil_grow(&arr, run->n_images, &run->cap_images,
				     sizeof(*run->images)) != HIL_OK) {
		free(copy);
		return NULL;
	}
	run->images = arr;
	im = &run->images[run->n_images++];
	memset(im, 0, sizeof(*im));
	im->algs = copy;
	return im;
}

const struct hil_row *hil_run_find_row(const struct hil_run *run,
				       const struct hil_row *key)
{
	size_t i;

	for (i = 0; i < run->n_rows; i++) {
		const struct hil_row *r = &run->rows[i];

		if (r->msg_len == key->msg_len && r->ad_len == key->ad_len &&
		    strcmp(r->algorithm, key->algorithm) == 0 &&
		    strcmp(r->implementation, key->implementation) == 0 &&
		    strcmp(r->operation, key->operation) == 0) {
			return r;
		}
	}
	return NULL;
}
