/* reportjson: a run's report.json (docs/report-format.md), written from the result model. */
#ifndef HIL_REPORTJSON_H
#define HIL_REPORTJSON_H

#include "result/run.h"

/* 2: sizes[] per implementation, image, fits, ci95, outliers, build_id per row */
#define HIL_REPORT_SCHEMA_VERSION 2

/**
 * Serialise the run as the report JSON (docs/report-format.md).
 * @return a malloc'd NUL-terminated string (caller frees), or NULL.
 */
char *hil_report_json(const struct hil_run *run);

struct hil_result_head;

/**
 * The report JSON of run with its report-level fields from h (the rows and
 * arrays from run): what hil_report_json writes after filling h from run
 * (hil_result_head_fill). @return a malloc'd string (caller frees), or NULL.
 */
char *hil_report_json_from(const struct hil_run *run,
			   const struct hil_result_head *h);

/** Write run->dir/report.json atomically. @return HIL_OK or an error. */
int hil_report_write_json(const struct hil_run *run);

/** Serialise one row as a single JSON line (for the journal); caller frees. */
char *hil_report_row_json(const struct hil_run *run, const struct hil_row *row);

#endif /* HIL_REPORTJSON_H */
