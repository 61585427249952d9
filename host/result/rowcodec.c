/* rowcodec: the tables of a row's stored fields, and the code that writes them and reads a row back from report.json or journal.jsonl. */
#define _POSIX_C_SOURCE 200809L
#include "rowcodec.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result/stats.h"
#include "util/err.h"

#define F(st, k, t, m, fl)                                                     \
	{                                                                      \
		.key = (k), .type = (t), .off = offsetof(st, m),               \
		.size = sizeof(((st *)0)->m), .flags = (fl)                    \
	}
#define FLAG(st, k, m, y, n, fl)                                               \
	{                                                                      \
		.key = (k), .type = HIL_RF_FLAG_STR, .off = offsetof(st, m),   \
		.size = sizeof(((st *)0)->m), .flags = (fl), .yes = (y),       \
		.no = (n)                                                      \
	}
#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* The row itself, in the order the writer puts them. */
static const struct hil_rfield row_fields[] = {
	F(struct hil_row, "algorithm", HIL_RF_STR, algorithm, 0),
	F(struct hil_row, "implementation", HIL_RF_STR, implementation, 0),
	F(struct hil_row, "operation", HIL_RF_OP, operation, 0),
	/* The image the row was measured on: --resume keeps only rows of
	 * the same image (the writer puts the run's when the row has none). */
	F(struct hil_row, "build_id", HIL_RF_STR, build_id, 0),
	F(struct hil_row, "msg_len", HIL_RF_U32, msg_len, 0),
	F(struct hil_row, "ad_len", HIL_RF_U32, ad_len, 0),
	F(struct hil_row, "runs", HIL_RF_U32, runs, 0),
	F(struct hil_row, "warmup", HIL_RF_U32, warmup, 0),
	F(struct hil_row, "seed", HIL_RF_U32, seed, 0),
	F(struct hil_row, "overhead_subtracted", HIL_RF_U32, overhead, 0),
	{.key = "stack_bytes",
	 .type = HIL_RF_U32,
	 .off = offsetof(struct hil_row, stack_bytes),
	 .size = sizeof(uint32_t),
	 .flags = HIL_RF_KNOWN | HIL_RF_OPTIONAL,
	 .known = offsetof(struct hil_row, stack_known)},
	F(struct hil_row, "verified", HIL_RF_BOOL, verified, HIL_RF_OPTIONAL),
	F(struct hil_row, "verified_by", HIL_RF_STR, verified_by,
	  HIL_RF_OPTIONAL | HIL_RF_OMIT_EMPTY),
	F(struct hil_row, "heap_bytes", HIL_RF_U32, heap_bytes,
	  HIL_RF_OPTIONAL),
};

static const struct hil_rfield digest_fields[] = {
	F(struct hil_row, "expected", HIL_RF_HEX32, digest_expected, 0),
	F(struct hil_row, "measured", HIL_RF_HEX32, digest_got, 0),
};

/* A sensor's figures (status "ok"). */
static const struct hil_rfield energy_fields[] = {
	FLAG(struct hil_row_energy, "kind", model, "model", "measured", 0),
	{.key = "unit", .type = HIL_RF_CONST, .yes = "uJ"},
	F(struct hil_row_energy, "uj_per_op", HIL_RF_NUM, uj_per_op, 0),
	F(struct hil_row_energy, "uj_per_op_dynamic", HIL_RF_NUM,
	  uj_per_op_dynamic, 0),
	F(struct hil_row_energy, "spread", HIL_RF_NUM, spread_uj, 0),
	F(struct hil_row_energy, "spread_dynamic", HIL_RF_NUM,
	  spread_dynamic_uj, 0),
	F(struct hil_row_energy, "idle_mw", HIL_RF_NUM, idle_mw, 0),
	F(struct hil_row_energy, "active_mw", HIL_RF_NUM, active_mw, 0),
	F(struct hil_row_energy, "bus_v", HIL_RF_NUM, bus_v, 0),
	F(struct hil_row_energy, "ticks_per_op", HIL_RF_NUM, ticks_per_op, 0),
	/* Absent in journals of before the model's cycles were used. */
	FLAG(struct hil_row_energy, "ticks", time_from_model, "model cycles",
	     "counter", HIL_RF_OPTIONAL),
	F(struct hil_row_energy, "op_seconds", HIL_RF_NUM, op_seconds, 0),
	F(struct hil_row_energy, "ops_per_window", HIL_RF_U32, ops_per_window,
	  0),
	F(struct hil_row_energy, "windows", HIL_RF_UINT, windows, 0),
	F(struct hil_row_energy, "samples", HIL_RF_U64, samples, 0),
	F(struct hil_row_energy, "sample_rate_hz", HIL_RF_NUM, sample_rate_hz,
	  0),
};

/* One leak statistic: the counter's (in struct hil_row_leak) and the
 * model's (struct hil_row_leak_stat) have the same fields. t is infinite
 * when both classes are constant and differ: JSON has no infinity, so it
 * is capped and the flag says the rest. */
#define LEAK_STAT_FIELDS(st)                                                   \
	F(st, "t", HIL_RF_NUM, t, HIL_RF_CAP_INF),                             \
		F(st, "flagged", HIL_RF_BOOL, flagged, HIL_RF_OPTIONAL),       \
		F(st, "n_fixed", HIL_RF_U32, n[0], 0),                         \
		F(st, "n_random", HIL_RF_U32, n[1], 0),                        \
		F(st, "mean_fixed", HIL_RF_NUM, mean[0], 0),                   \
		F(st, "mean_random", HIL_RF_NUM, mean[1], 0),                  \
		F(st, "stddev_fixed", HIL_RF_NUM, stddev[0], 0),               \
		F(st, "stddev_random", HIL_RF_NUM, stddev[1], 0)

static const struct hil_rfield leak_fields[] = {
	LEAK_STAT_FIELDS(struct hil_row_leak),
};

static const struct hil_rfield leak_model_fields[] = {
	LEAK_STAT_FIELDS(struct hil_row_leak_stat),
};

/* The cycle model's figures (its samples are read by hand). */
static const struct hil_rfield model_fields[] = {
	{.key = "bounds",
	 .type = HIL_RF_NUM_PAIR,
	 .off = offsetof(struct hil_row_model, lo_median),
	 .size = sizeof(double),
	 .known = offsetof(struct hil_row_model, hi_median)},
	F(struct hil_row_model, "divides", HIL_RF_U64, divides, 0),
	F(struct hil_row_model, "overhead_subtracted", HIL_RF_NUM, overhead, 0),
};

/* The memory system in the last timed run (absent in a journal written
 * before the profiles). */
static const struct hil_rfield misses_fields[] = {
	F(struct hil_row_model, "instruction", HIL_RF_U64, imiss,
	  HIL_RF_OPTIONAL),
	F(struct hil_row_model, "data", HIL_RF_U64, dmiss, HIL_RF_OPTIONAL),
};

static const struct hil_rfield lines_fields[] = {
	F(struct hil_row_model, "code", HIL_RF_U64, ilines, HIL_RF_OPTIONAL),
	F(struct hil_row_model, "data", HIL_RF_U64, dlines, HIL_RF_OPTIONAL),
};

/* A post-quantum operation's own fields (struct hil_row_pq; the object is
 * there only on such rows: pq.present). */
static const struct hil_rfield pq_fields[] = {
	F(struct hil_row_pq, "kind", HIL_RF_STR, kind, 0),
	F(struct hil_row_pq, "randombytes", HIL_RF_STR, rng, 0),
	F(struct hil_row_pq, "text", HIL_RF_U32, text, 0),
	F(struct hil_row_pq, "data", HIL_RF_U32, data, 0),
	F(struct hil_row_pq, "bss", HIL_RF_U32, bss, 0),
	F(struct hil_row_pq, "sha2_pct", HIL_RF_NUM, sha2_pct, 0),
	F(struct hil_row_pq, "sha3_pct", HIL_RF_NUM, sha3_pct, 0),
	F(struct hil_row_pq, "aes_pct", HIL_RF_NUM, aes_pct, 0),
	F(struct hil_row_pq, "verification", HIL_RF_STR, verification, 0),
	F(struct hil_row_pq, "stack_capacity", HIL_RF_U32, stack_capacity, 0),
};

#define T(p, b, f)                                                             \
	{                                                                      \
		.path = (p), .base = (b), .fields = (f), .n = N_OF(f)          \
	}

const struct hil_rtable hil_result_row_tables[] = {
	T("", 0, row_fields),
	T("digest", 0, digest_fields),
	T("energy", offsetof(struct hil_row, energy), energy_fields),
	T("leak", offsetof(struct hil_row, leak), leak_fields),
	T("leak.model_cycles", offsetof(struct hil_row, leak.model),
	  leak_model_fields),
	T("model_cycles", offsetof(struct hil_row, model), model_fields),
	T("model_cycles.cache_misses", offsetof(struct hil_row, model),
	  misses_fields),
	T("model_cycles.lines_touched", offsetof(struct hil_row, model),
	  lines_fields),
	T("pq", offsetof(struct hil_row, pq), pq_fields),
	{.path = NULL},
};

const char *const hil_result_row_by_hand[] = {
	"samples",
	"status",
	"error",
	"energy.status",
	"energy.error",
	"leak.status",
	"leak.error",
	"leak.model_cycles.status",
	"leak.model_cycles.error",
	"model_cycles.samples",
	NULL,
};

const char *const hil_result_row_derived[] = {
	/* From this hilrun's registry when read back. */
	"mode",
	"constant_time",
	/* The board's counter unit. */
	"unit",
	/* The statistics, computed again from the samples. */
	"median",
	"mean",
	"stddev",
	"min",
	"max",
	"mad",
	"ci95",
	"outliers",
	"per_byte",
	/* Against the run's reference row, computed again. */
	"normalized",
	"digest.match",
	/* The datasheet's figures beside a sensor's, computed again. */
	"energy_estimate",
	"leak.method",
	"leak.flagged_by",
	"leak.threshold",
	"leak.unit",
	"leak.note",
	"leak.model_cycles.unit",
	"leak.model_cycles.profile",
	"model_cycles.unit",
	"model_cycles.median",
	"model_cycles.mean",
	"model_cycles.stddev",
	"model_cycles.min",
	"model_cycles.max",
	"model_cycles.per_byte",
	"model_cycles.exact_rules",
	/* The run's memory-system profile and what it implies. */
	"model_cycles.profile",
	"model_cycles.flash_wait_cycles",
	"model_cycles.lines_touched.line_bytes",
	"model_cycles.cache_lines",
	"model_cycles.fits_caches",
	"model_cycles.cache_note",
	/* The sum of the pq shares, computed again. */
	"pq.hash_pct",
	/* The profile's error bar (modelerr.c), computed again. */
	"model_cycles.error_pct",
	"model_cycles.error_kind",
	"model_cycles.error_from",
	NULL,
};

const struct hil_rtable *hil_result_table(const char *path)
{
	const struct hil_rtable *t;

	for (t = hil_result_row_tables; t->path != NULL; t++) {
		if (strcmp(t->path, path) == 0) {
			return t;
		}
	}
	return NULL;
}

/* keypair, encaps, decaps, sign (and verify): post-quantum rows. */
const char *const hil_result_ops[] = {
	"encrypt", "decrypt", "hash",	"keysetup", "verify",
	"keypair", "encaps",  "decaps", "sign",	    NULL,
};

const char *hil_result_op(const char *name)
{
	size_t i;

	for (i = 0; hil_result_ops[i] != NULL; i++) {
		if (strcmp(name, hil_result_ops[i]) == 0) {
			return hil_result_ops[i];
		}
	}
	return NULL;
}

static int add_num(cJSON *o, const char *k, double v)
{
	return cJSON_AddNumberToObject(o, k, v) != NULL;
}

static int add_str(cJSON *o, const char *k, const char *v)
{
	return cJSON_AddStringToObject(o, k, v != NULL ? v : "") != NULL;
}

/* Whether the number at p (of f's type) is 0. */
static int is_zero(const struct hil_rfield *f, const char *p)
{
	switch (f->type) {
	case HIL_RF_U32:
		return *(const uint32_t *)p == 0;
	case HIL_RF_UINT:
		return *(const unsigned *)p == 0;
	case HIL_RF_U64:
		return *(const uint64_t *)p == 0;
	case HIL_RF_NUM:
		return *(const double *)p == 0;
	case HIL_RF_INT:
		return *(const int *)p == 0;
	default:
		return 0;
	}
}

static int put_field(cJSON *o, const struct hil_rfield *f, const void *base)
{
	const char *p = (const char *)base + f->off;
	char hex[16];
	double d;

	if (((f->flags & HIL_RF_KNOWN) &&
	     *(const int *)((const char *)base + f->known) == 0) ||
	    ((f->flags & HIL_RF_NULL_ZERO) && is_zero(f, p)) ||
	    ((f->flags & HIL_RF_NULL_EMPTY) && p[0] == '\0')) {
		return cJSON_AddNullToObject(o, f->key) != NULL;
	}
	switch (f->type) {
	case HIL_RF_STR:
		if ((f->flags & HIL_RF_OMIT_EMPTY) && p[0] == '\0') {
			return 1;
		}
		return add_str(o, f->key, p);
	case HIL_RF_INT:
		return add_num(o, f->key, *(const int *)p);
	case HIL_RF_HEX_0X:
		snprintf(hex, sizeof(hex), "0x%0*x", (int)f->known,
			 *(const unsigned *)p);
		return add_str(o, f->key, hex);
	case HIL_RF_OP:
		return add_str(o, f->key, *(const char *const *)p);
	case HIL_RF_U32:
		return add_num(o, f->key, *(const uint32_t *)p);
	case HIL_RF_UINT:
		return add_num(o, f->key, *(const unsigned *)p);
	case HIL_RF_U64:
		return add_num(o, f->key, (double)*(const uint64_t *)p);
	case HIL_RF_NUM:
		d = *(const double *)p;
		if ((f->flags & HIL_RF_CAP_INF) && !isfinite(d)) {
			d = d > 0 ? 1e9 : -1e9;
		}
		return add_num(o, f->key, d);
	case HIL_RF_BOOL:
		return cJSON_AddBoolToObject(o, f->key, *(const int *)p) !=
		       NULL;
	case HIL_RF_HEX32:
		snprintf(hex, sizeof(hex), "%08x",
			 (unsigned)*(const uint32_t *)p);
		return add_str(o, f->key, hex);
	case HIL_RF_FLAG_STR:
		return add_str(o, f->key, *(const int *)p ? f->yes : f->no);
	case HIL_RF_CONST:
		return add_str(o, f->key, f->yes);
	case HIL_RF_NUM_PAIR: {
		cJSON *a = cJSON_AddArrayToObject(o, f->key);

		if (a == NULL) {
			return 0;
		}
		cJSON_AddItemToArray(a, cJSON_CreateNumber(*(const double *)p));
		cJSON_AddItemToArray(
			a, cJSON_CreateNumber(
				   *(const double *)((const char *)base +
						     f->known)));
		return cJSON_GetArraySize(a) == 2;
	}
	}
	return 0;
}

int hil_result_put(cJSON *o, const char *path, const char *key,
		   const void *base)
{
	const struct hil_rtable *t = hil_result_table(path);
	size_t i;

	for (i = 0; t != NULL && i < t->n; i++) {
		if (strcmp(t->fields[i].key, key) == 0) {
			return put_field(o, &t->fields[i], base);
		}
	}
	return 0;
}

int hil_result_put_all(cJSON *o, const char *path, const void *base)
{
	const struct hil_rtable *t = hil_result_table(path);
	size_t i;
	int ok = t != NULL;

	for (i = 0; ok && i < t->n; i++) {
		ok = put_field(o, &t->fields[i], base);
	}
	return ok;
}

/* One field from o into base; 0 when required and missing or mistyped. */
static int get_field(const cJSON *o, const struct hil_rfield *f, void *base)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, f->key);
	char *p = (char *)base + f->off;
	const int optional = (f->flags & HIL_RF_OPTIONAL) != 0;

	if (cJSON_IsNull(v) && (f->flags & HIL_RF_NULL_EMPTY)) {
		p[0] = '\0';
		return 1;
	}
	if (cJSON_IsNull(v) && (f->flags & HIL_RF_NULL_ZERO)) {
		memset(p, 0, f->size);
		return 1;
	}
	switch (f->type) {
	case HIL_RF_CONST:
		return 1;
	case HIL_RF_BOOL:
		*(int *)p = cJSON_IsTrue(v);
		return 1;
	case HIL_RF_STR:
	case HIL_RF_HEX32:
	case HIL_RF_HEX_0X:
	case HIL_RF_OP:
	case HIL_RF_FLAG_STR:
		if (!cJSON_IsString(v)) {
			if (f->type == HIL_RF_FLAG_STR && !optional) {
				*(int *)p = 0;
			}
			return optional;
		}
		break;
	case HIL_RF_NUM_PAIR:
		if (!cJSON_IsArray(v) || cJSON_GetArraySize(v) != 2) {
			return optional;
		}
		*(double *)p = cJSON_GetArrayItem(v, 0)->valuedouble;
		*(double *)((char *)base + f->known) =
			cJSON_GetArrayItem(v, 1)->valuedouble;
		return 1;
	default:
		if (!cJSON_IsNumber(v)) {
			return optional;
		}
		if (f->flags & HIL_RF_KNOWN) {
			*(int *)((char *)base + f->known) = 1;
		}
		break;
	}
	switch (f->type) {
	case HIL_RF_STR:
		snprintf(p, f->size, "%s", v->valuestring);
		return 1;
	case HIL_RF_HEX32:
		*(uint32_t *)p = (uint32_t)strtoul(v->valuestring, NULL, 16);
		if (f->flags & HIL_RF_KNOWN) {
			*(int *)((char *)base + f->known) = 1;
		}
		return 1;
	case HIL_RF_HEX_0X:
		*(unsigned *)p = (unsigned)strtoul(v->valuestring, NULL, 16);
		return 1;
	case HIL_RF_INT:
		*(int *)p = (int)v->valuedouble;
		return 1;
	case HIL_RF_OP:
		*(const char **)p = hil_result_op(v->valuestring);
		return *(const char **)p != NULL;
	case HIL_RF_FLAG_STR:
		*(int *)p = strcmp(v->valuestring, f->yes) == 0;
		return 1;
	case HIL_RF_U32:
		*(uint32_t *)p = (uint32_t)v->valuedouble;
		return 1;
	case HIL_RF_UINT:
		*(unsigned *)p = (unsigned)v->valuedouble;
		return 1;
	case HIL_RF_U64:
		*(uint64_t *)p = (uint64_t)v->valuedouble;
		return 1;
	case HIL_RF_NUM:
		*(double *)p = v->valuedouble;
		return 1;
	default:
		return 1;
	}
}

int hil_rfield_put(cJSON *o, const struct hil_rfield *f, const void *base)
{
	return put_field(o, f, base);
}

int hil_rfield_get(const cJSON *o, const struct hil_rfield *f, void *base)
{
	return get_field(o, f, base);
}

int hil_rfield_type_ok(const struct hil_rfield *f, const cJSON *v,
		       const char **what)
{
	const int null_ok = (f->flags & (HIL_RF_KNOWN | HIL_RF_NULL_ZERO |
					 HIL_RF_NULL_EMPTY)) != 0;

	switch (f->type) {
	case HIL_RF_STR:
	case HIL_RF_OP:
	case HIL_RF_HEX32:
	case HIL_RF_HEX_0X:
	case HIL_RF_FLAG_STR:
	case HIL_RF_CONST:
		*what = null_ok ? "a string or null" : "a string";
		return v == NULL || cJSON_IsString(v) ||
		       (null_ok && cJSON_IsNull(v));
	case HIL_RF_BOOL:
		*what = null_ok ? "true, false or null" : "true or false";
		return v == NULL || cJSON_IsBool(v) ||
		       (null_ok && cJSON_IsNull(v));
	case HIL_RF_NUM_PAIR:
		*what = "an array";
		return v == NULL || cJSON_IsArray(v);
	default:
		*what = null_ok ? "a number or null" : "a number";
		return v == NULL || cJSON_IsNumber(v) ||
		       (null_ok && cJSON_IsNull(v));
	}
}

int hil_result_get_all(const cJSON *o, const char *path, void *base)
{
	const struct hil_rtable *t = hil_result_table(path);
	size_t i;
	int ok = t != NULL;

	for (i = 0; t != NULL && i < t->n; i++) {
		ok = get_field(o, &t->fields[i], base) && ok;
	}
	return ok;
}

static const char *str_or(const cJSON *o, const char *k, const char *dflt)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

	return cJSON_IsString(v) ? v->valuestring : dflt;
}

/* The row's energy object (absent: not measured) into e. */
static void read_energy(const cJSON *o, struct hil_row_energy *e)
{
	const cJSON *en = cJSON_GetObjectItemCaseSensitive(o, "energy");

	if (!cJSON_IsObject(en)) {
		return;
	}
	if (strcmp(str_or(en, "status", ""), "ok") != 0) {
		e->state = HIL_ENERGY_FAILED;
		snprintf(e->error, sizeof(e->error), "%s",
			 str_or(en, "error", ""));
		return;
	}
	if (hil_result_get_all(en, "energy", e)) {
		e->state = HIL_ENERGY_OK;
	} else {
		e->state = HIL_ENERGY_FAILED;
		snprintf(e->error, sizeof(e->error),
			 "the journal's energy entry is incomplete");
	}
}

/* The leak test's t on the model's cycles (absent: none) back into l. */
static void read_leak_model(const cJSON *k, struct hil_row_leak *l)
{
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(k, "model_cycles");

	if (!cJSON_IsObject(m)) {
		return;
	}
	if (strcmp(str_or(m, "status", ""), "ok") != 0) {
		l->model_state = -1;
		snprintf(l->model_why, sizeof(l->model_why), "%s",
			 str_or(m, "error", ""));
		return;
	}
	l->model_state =
		hil_result_get_all(m, "leak.model_cycles", &l->model) ? 1 : -1;
	if (l->model_state < 0) {
		snprintf(
			l->model_why, sizeof(l->model_why),
			"the journal's leak entry on model cycles is incomplete");
	}
}

/* The row's leak test (absent: not run) back into l. */
static void read_leak(const cJSON *o, struct hil_row_leak *l)
{
	const cJSON *k = cJSON_GetObjectItemCaseSensitive(o, "leak");

	if (!cJSON_IsObject(k)) {
		return;
	}
	if (strcmp(str_or(k, "status", ""), "ok") != 0) {
		l->state = -1;
		snprintf(l->error, sizeof(l->error), "%s",
			 str_or(k, "error", ""));
		return;
	}
	l->state = hil_result_get_all(k, "leak", l) ? 1 : -1;
	if (l->state < 0) {
		snprintf(l->error, sizeof(l->error),
			 "the journal's leak entry is incomplete");
		return;
	}
	read_leak_model(k, l);
}

/* A samples array of exactly n numbers into *out (owned); 0 when it is
 * not one, -1 out of memory. */
static int read_samples(const cJSON *a, uint32_t n, double **out)
{
	const cJSON *v;
	size_t i = 0;

	*out = NULL;
	if (!cJSON_IsArray(a) || (uint32_t)cJSON_GetArraySize(a) != n ||
	    n == 0) {
		return 0;
	}
	*out = malloc(n * sizeof(double));
	if (*out == NULL) {
		return -1;
	}
	cJSON_ArrayForEach(v, a)
	{
		if (!cJSON_IsNumber(v)) {
			free(*out);
			*out = NULL;
			return 0;
		}
		(*out)[i++] = v->valuedouble;
	}
	return 1;
}

/* The row's model cycles (absent or incomplete: none) back into r. */
static int read_model(const cJSON *o, struct hil_row *r)
{
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(o, "model_cycles");
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(m, "cache_misses");
	const cJSON *l = cJSON_GetObjectItemCaseSensitive(m, "lines_touched");
	int got;

	if (!cJSON_IsObject(m)) {
		return 0;
	}
	got = read_samples(cJSON_GetObjectItemCaseSensitive(m, "samples"),
			   r->runs, &r->model.samples);
	if (got <= 0) {
		return got;
	}
	/* Both, or neither: a journal of before the profiles has neither. */
	if (cJSON_IsObject(c) && cJSON_IsObject(l)) {
		hil_result_get_all(c, "model_cycles.cache_misses", &r->model);
		hil_result_get_all(l, "model_cycles.lines_touched", &r->model);
	}
	if (!hil_result_get_all(m, "model_cycles", &r->model) ||
	    hil_stats_compute(r->model.samples, r->runs, &r->model.stats) !=
		    HIL_OK) {
		free(r->model.samples);
		r->model.samples = NULL;
		return 0;
	}
	r->model.ok = 1;
	return 1;
}

/* A post-quantum row's own object (absent: not one) into r; 0 when it is
 * there but incomplete. Its kind names the row's mode. */
static int read_pq(const cJSON *o, struct hil_row *r)
{
	const cJSON *p = cJSON_GetObjectItemCaseSensitive(o, "pq");

	if (!cJSON_IsObject(p)) {
		return 1;
	}
	if (!hil_result_get_all(p, "pq", &r->pq)) {
		return 0;
	}
	r->pq.present = 1;
	r->mode = hil_result_pq_mode(r->pq.kind);
	return 1;
}

const char *hil_result_pq_mode(const char *kind)
{
	return strcmp(kind, "kem") == 0 ? "KEM" : "signature";
}

int hil_result_row_read(const cJSON *o, struct hil_row *r)
{
	const char *status = str_or(o, "status", NULL);
	int ok, got;

	memset(r, 0, sizeof(*r));
	ok = hil_result_get_all(o, "", r);
	ok = hil_result_get_all(cJSON_GetObjectItemCaseSensitive(o, "digest"),
				"digest", r) &&
	     ok;
	if (status == NULL || !ok) {
		return 0;
	}
	r->ok = strcmp(status, "ok") == 0;
	r->interrupted = strcmp(status, "interrupted") == 0;
	if (!r->ok) {
		snprintf(r->error, sizeof(r->error), "%s",
			 str_or(o, "error", ""));
	}
	got = read_samples(cJSON_GetObjectItemCaseSensitive(o, "samples"),
			   r->runs, &r->samples);
	if (got <= 0) {
		return got;
	}
	if (hil_stats_compute(r->samples, r->runs, &r->stats) != HIL_OK) {
		return 0;
	}
	read_energy(o, &r->energy);
	read_leak(o, &r->leak);
	if (!read_pq(o, r)) {
		return 0;
	}
	return read_model(o, r) < 0 ? -1 : 1;
}
