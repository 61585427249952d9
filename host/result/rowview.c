/* rowview: the tables of a row's shown figures and the lenient decoder that gives the renderers a report's rows as structs. */
#define _POSIX_C_SOURCE 200809L
#include "rowview.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result/reportcheck.h"
#include "util/err.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))
#define V(k, t, m, fl)                                                         \
	{                                                                      \
		.key = (k), .type = (t),                                       \
		.off = offsetof(struct hil_row_view, m),                       \
		.size = sizeof(((struct hil_row_view *)0)->m), .flags = (fl)   \
	}
/* A number the writer puts as null when there is none. */
#define NUM(k, m)  V(k, HIL_RF_NUM, m, HIL_RF_OPTIONAL | HIL_RF_NULL_ZERO)
#define TEXT(k, m) V(k, HIL_RF_STR, m, HIL_RF_OPTIONAL)

/* The row's own keys: its names whole, and the figures derived again on
 * reading that a report's readers take as written. The report's check
 * (reportcheck.c) holds every report to their types. */
static const struct hil_rfield row_fields[] = {
	TEXT("algorithm", algorithm),
	TEXT("implementation", implementation),
	TEXT("operation", operation),
	TEXT("mode", mode),
	/* null: the implementation does not say */
	V("constant_time", HIL_RF_BOOL, constant_time,
	  HIL_RF_OPTIONAL | HIL_RF_NULL_ZERO),
	TEXT("unit", unit),
	/* The statistics: null when the row has no samples. */
	NUM("median", median),
	NUM("mean", mean),
	NUM("stddev", stddev),
	NUM("min", min),
	NUM("max", max),
	NUM("mad", mad),
	{.key = "ci95",
	 .type = HIL_RF_NUM_PAIR,
	 .off = offsetof(struct hil_row_view, ci95_low),
	 .size = sizeof(double),
	 .flags = HIL_RF_OPTIONAL | HIL_RF_NULL_ZERO,
	 .known = offsetof(struct hil_row_view, ci95_high)},
	NUM("outliers", outliers),
	NUM("per_byte", per_byte),
	NUM("normalized", normalized),
	TEXT("status", status),
	TEXT("error", error),
};

static const struct hil_rfield digest_fields[] = {
	V("match", HIL_RF_BOOL, digest_match, HIL_RF_OPTIONAL),
};

/* rows[].energy besides a sensor's stored figures. */
static const struct hil_rfield energy_fields[] = {
	TEXT("status", energy_status),
	TEXT("kind", energy_kind),
	TEXT("error", energy_error),
	TEXT("why", energy_why),
};

/* A datasheet estimate (json_row.c's add_energy_est and its beside). */
static const struct hil_rfield est_fields[] = {
	NUM("uj_per_op", est.uj_per_op),
	NUM("uj_low", est.uj_low),
	NUM("uj_high", est.uj_high),
	NUM("ratio", est.ratio),
	NUM("vdd_v", est.vdd_v),
	NUM("idd_ma", est.idd_ma),
	NUM("idd_high_ma", est.idd_high_ma),
	NUM("clock_hz", est.clock_hz),
	NUM("cycles_per_op", est.cycles_per_op),
	TEXT("table", est.table),
};

static const struct hil_rfield model_fields[] = {
	TEXT("unit", model.unit),
	NUM("median", model.median),
	NUM("mean", model.mean),
	NUM("stddev", model.stddev),
	NUM("min", model.min),
	NUM("max", model.max),
	NUM("per_byte", model.per_byte),
	V("profile", HIL_RF_STR, model.profile,
	  HIL_RF_OPTIONAL | HIL_RF_NULL_EMPTY),
	V("fits_caches", HIL_RF_BOOL, model.fits_caches,
	  HIL_RF_OPTIONAL | HIL_RF_NULL_ZERO),
	TEXT("cache_note", model.cache_note),
	NUM("flash_wait_cycles", model.flash_wait_cycles),
	NUM("error_pct", model.error_pct),
	TEXT("error_from", model.error_from),
	TEXT("error_kind", model.error_kind),
};

/* The leak test's texts (json_leak.c). */
static const struct hil_rfield leak_fields[] = {
	TEXT("status", leak.status),
	TEXT("error", leak.error),
	TEXT("unit", leak.unit),
	NUM("threshold", leak.threshold),
};

static const struct hil_rfield leak_model_fields[] = {
	TEXT("status", leak.model_status),
	TEXT("error", leak.model_error),
	TEXT("unit", leak.model_unit),
	V("profile", HIL_RF_STR, leak.model_profile,
	  HIL_RF_OPTIONAL | HIL_RF_NULL_EMPTY),
};

#define T(p, f)                                                                \
	{                                                                      \
		.path = (p), .base = 0, .fields = (f), .n = N_OF(f)            \
	}

const struct hil_rtable hil_row_view_tables[] = {
	T("", row_fields),
	T("digest", digest_fields),
	T("energy", energy_fields),
	/* Read from energy_estimate, or from energy when that is the
	 * estimate. */
	T("energy_estimate", est_fields),
	T("model_cycles", model_fields),
	T("leak", leak_fields),
	T("leak.model_cycles", leak_model_fields),
	{.path = NULL},
};

const struct hil_rfield *const hil_result_row_shown = row_fields;
const size_t hil_result_row_n_shown = N_OF(row_fields);

/* The object at path ("a.b") below row, or NULL. */
static const cJSON *at(const cJSON *row, const char *path)
{
	char key[64];
	const char *dot;

	while (row != NULL && path[0] != '\0') {
		dot = strchr(path, '.');
		snprintf(key, sizeof(key), "%.*s",
			 (int)(dot != NULL ? (size_t)(dot - path)
					   : strlen(path)),
			 path);
		row = cJSON_GetObjectItemCaseSensitive(row, key);
		path = dot != NULL ? dot + 1 : "";
	}
	return cJSON_IsObject(row) ? row : NULL;
}

/* The slot of the field at off (in struct hil_row_view) in v->has: the
 * stored tables' fields first, then the view's. -1 when no table has it. */
static int slot(size_t off)
{
	const struct hil_rtable *t;
	const size_t row = offsetof(struct hil_row_view, row);
	size_t i;
	int s = 0;

	for (t = hil_result_row_tables; t->path != NULL; t++) {
		for (i = 0; i < t->n; i++, s++) {
			if (row + t->base + t->fields[i].off == off) {
				return s;
			}
		}
	}
	for (t = hil_row_view_tables; t->path != NULL; t++) {
		for (i = 0; i < t->n; i++, s++) {
			if (t->base + t->fields[i].off == off) {
				return s;
			}
		}
	}
	return -1;
}

/* Whether v fits f's integer type (a whole number in its range): a count
 * of 1.5 or -1 is no count, and is not cast into one. */
static int fits(const struct hil_rfield *f, const cJSON *v)
{
	const double d = v->valuedouble;

	switch (f->type) {
	case HIL_RF_U32:
	case HIL_RF_UINT:
		return d >= 0 && d <= 4294967295.0 && d == floor(d);
	case HIL_RF_U64:
		return d >= 0 && d < 18446744073709551616.0 && d == floor(d);
	case HIL_RF_INT:
		return d >= -2147483648.0 && d <= 2147483647.0 && d == floor(d);
	default:
		return 1;
	}
}

/* Field f of o into base, lenient; its slot s in has set when o holds it
 * as a value of the type f's readers take. */
static void get_one(const cJSON *o, const struct hil_rfield *f, void *base,
		    unsigned char *has, int s)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, f->key);
	const char *what;
	struct hil_rfield lenient = *f;

	if (v == NULL || cJSON_IsNull(v) || !hil_rfield_type_ok(f, v, &what) ||
	    (cJSON_IsNumber(v) && !fits(f, v))) {
		return;
	}
	/* A report's row may lack what a journal line must have. */
	lenient.flags |= HIL_RF_OPTIONAL;
	lenient.flags &= ~HIL_RF_KNOWN;
	if (hil_rfield_get(o, &lenient, base) && s >= 0 &&
	    (size_t)s < sizeof(((struct hil_row_view *)0)->has)) {
		has[s] = 1;
	}
	if (f->flags & HIL_RF_KNOWN) {
		*(int *)((char *)base + f->known) = has[s];
	}
}

void hil_row_view_read(const cJSON *row, struct hil_row_view *v)
{
	const struct hil_rtable *t;
	const cJSON *e, *x;
	size_t i;
	int s = 0;

	memset(v, 0, sizeof(*v));
	for (t = hil_result_row_tables; t->path != NULL; t++) {
		const cJSON *o = t->path[0] != '\0' ? at(row, t->path) : row;

		for (i = 0; i < t->n; i++, s++) {
			get_one(o, &t->fields[i], (char *)&v->row + t->base,
				v->has, s);
		}
	}
	e = at(row, "energy");
	x = at(row, "energy_estimate");
	for (t = hil_row_view_tables; t->path != NULL; t++) {
		const cJSON *o = t->path[0] != '\0' ? at(row, t->path) : row;

		if (o == NULL && strcmp(t->path, "energy_estimate") == 0 &&
		    e != NULL && x == NULL) {
			o = e; /* the energy is the estimate */
		}
		for (i = 0; i < t->n; i++, s++) {
			get_one(o, &t->fields[i], (char *)v + t->base, v->has,
				s);
		}
	}
	if (x == NULL && strcmp(v->energy_kind, "estimate") != 0) {
		/* No estimate: the energy's figures are the sensor's. */
		memset(&v->est, 0, sizeof(v->est));
		s = slot(offsetof(struct hil_row_view, est.uj_per_op));
		for (i = 0; i < N_OF(est_fields); i++) {
			v->has[s + (int)i] = 0;
		}
	}
	/* Which statistics flagged it: a list, read by its length. */
	x = cJSON_GetObjectItemCaseSensitive(at(row, "leak"), "flagged_by");
	v->leak.flagged_by = cJSON_IsArray(x) ? cJSON_GetArraySize(x) : -1;
	x = at(row, "energy_estimate");
	v->est_beside = x != NULL;
	v->has_model = at(row, "model_cycles") != NULL;
	v->is_pq = at(row, "pq") != NULL;
	v->has_digest = at(row, "digest") != NULL;
}

int hil_row_view_has(const struct hil_row_view *v, const void *field)
{
	int s = slot((size_t)((const char *)field - (const char *)v));

	return s >= 0 && (size_t)s < sizeof(v->has) && v->has[s];
}

int hil_row_views_read(const cJSON *rows, struct hil_row_view **out, size_t *n)
{
	const cJSON *r;
	int cnt = cJSON_GetArraySize(rows);
	size_t i = 0;

	*out = NULL;
	*n = 0;
	if (cnt <= 0) {
		return HIL_OK;
	}
	*out = malloc((size_t)cnt * sizeof(**out));
	if (*out == NULL) {
		return HIL_ERR_NOMEM;
	}
	cJSON_ArrayForEach(r, rows)
	{
		hil_row_view_read(r, &(*out)[i++]);
	}
	*n = i;
	return HIL_OK;
}

static int in_tables(const struct hil_rtable *t, const char *key)
{
	size_t i, plen;

	for (; t->path != NULL; t++) {
		plen = strlen(t->path);
		if (plen > 0 &&
		    (strncmp(key, t->path, plen) != 0 || key[plen] != '.')) {
			continue;
		}
		for (i = 0; i < t->n; i++) {
			if (strcmp(key + (plen ? plen + 1 : 0),
				   t->fields[i].key) == 0) {
				return 1;
			}
		}
	}
	return 0;
}

int hil_row_view_knows(const char *key)
{
	return in_tables(hil_row_view_tables, key) ||
	       in_tables(hil_result_row_tables, key);
}
