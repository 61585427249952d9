/* rowview: a row of a parsed report.json as its renderers read it, decoded once through the codec's tables, lenient where a report legitimately lacks a field. */
#ifndef HIL_ROWVIEW_H
#define HIL_ROWVIEW_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "result/rowcodec.h"
#include "result/run.h"

/* Text a report may hold longer than a row's buffers (a name of another
 * hilrun's registry, an operation this one does not know). */
#define HIL_VIEW_TEXT 256

/* A datasheet estimate of a row's energy as the report shows it: the row's
 * energy object when that is the estimate, else its energy_estimate (beside
 * a sensor's figure). */
struct hil_row_view_est {
	double uj_per_op, uj_low, uj_high;
	double ratio; /* the sensor's figure over the estimate */
	double vdd_v, idd_ma, idd_high_ma, clock_hz, cycles_per_op;
	char table[HIL_VIEW_TEXT];
};

/* The cycle model's figures as the report shows them (its stored ones are
 * in row.model). */
struct hil_row_view_model {
	char unit[HIL_VIEW_TEXT];
	double median, mean, stddev, min, max, per_byte;
	char profile[HIL_VIEW_TEXT];
	int fits_caches; /* has it: the caches hold what the row touches */
	char cache_note[HIL_VIEW_TEXT];
	double flash_wait_cycles; /* waits on flash lines in a timed run */
	double error_pct;	  /* the estimate's error bar; absent: none */
	char error_from[HIL_VIEW_TEXT]; /* what error_pct comes from */
	char error_kind[16]; /* "assembly" or "C" with error_pct, else "" */
};

/* A row's timing-leak test as the report shows it (its statistics are in
 * row.leak). */
struct hil_row_view_leak {
	char status[16]; /* "ok", "failed"; "" when the row has no leak test */
	char error[256];
	char unit[HIL_VIEW_TEXT]; /* the counter's */
	/* How many statistics flagged the row (flagged_by); -1 when the
	 * report has no such list (before the model's t). */
	int flagged_by;
	double threshold; /* |t| above it flags a row */
	/* The same on the model's cycles: "" none. */
	char model_status[16];
	char model_error[256];
	char model_unit[HIL_VIEW_TEXT];
	char model_profile[HIL_VIEW_TEXT];
};

/*
 * One row of a report. Every figure reads as the report has it: a number
 * absent or null is 0 with hil_row_view_has() false, a string absent is "".
 */
struct hil_row_view {
	/* The stored fields, through hil_result_row_tables (row.operation
	 * is NULL for an operation this hilrun does not know; row.energy,
	 * row.leak and row.model keep their states as 0: see the texts). */
	struct hil_row row;
	/* The names as written, whole. */
	char algorithm[HIL_VIEW_TEXT];
	char implementation[HIL_VIEW_TEXT];
	char operation[HIL_VIEW_TEXT];
	/* The figures a row shows besides its stored fields
	 * (hil_result_row_shown). */
	char mode[64];
	int constant_time; /* has it: the implementation's claim */
	char unit[HIL_VIEW_TEXT];
	double median, mean, stddev, min, max, mad, per_byte, normalized;
	double ci95_low, ci95_high;
	double outliers;
	char status[32]; /* "ok", "failed", "interrupted", "link_failed" */
	char error[HIL_ROW_ERR];
	int has_digest; /* the row has a digest object */
	int digest_match;
	/* rows[].energy: its status ("ok", "failed", "none"; "" when the row
	 * has no energy object), kind ("measured", "model", "estimate"), and
	 * why there is none. */
	char energy_status[16];
	char energy_kind[16];
	char energy_error[256];
	char energy_why[256];
	struct hil_row_view_est est;
	int est_beside; /* est is energy_estimate's (else energy's) */
	struct hil_row_view_leak leak;
	int is_pq;     /* the row has a pq object: a post-quantum operation */
	int has_model; /* the row has a model_cycles object */
	struct hil_row_view_model model;
	/* Which fields the report had (hil_row_view_has()). */
	unsigned char has[256];
};

/* The tables of a row's shown figures, over struct hil_row_view, NULL-path
 * terminated: "" the row's, "energy", "est", "model_cycles". */
extern const struct hil_rtable hil_row_view_tables[];

/**
 * Decode row (an element of a report's rows[], checked by
 * hil_result_report_check) into v: the stored fields through
 * hil_result_row_tables, the shown ones through hil_row_view_tables.
 * Samples are not read (v->row.samples stays NULL): nothing to free.
 */
void hil_row_view_read(const cJSON *row, struct hil_row_view *v);

/**
 * Whether the report's row had the field at field (a member of v or of
 * v->row that a table declares) as a value, not absent and not null.
 */
int hil_row_view_has(const struct hil_row_view *v, const void *field);

/**
 * Every row of rows (a report's rows[]) decoded.
 * @param out receives a malloc'd array the caller frees (NULL when *n is 0).
 * @return HIL_OK or HIL_ERR_NOMEM.
 */
int hil_row_views_read(const cJSON *rows, struct hil_row_view **out, size_t *n);

/** Whether key ("path.key", as in hil_result_row_derived) is in a table of
 * hil_row_view_tables or hil_result_row_tables: a renderer can reach it. */
int hil_row_view_knows(const char *key);

#endif /* HIL_ROWVIEW_H */
