/* reportcheck: whether a parsed report.json has what its readers need, of the types they take, checked against result/'s codec tables. */
#ifndef HIL_REPORTCHECK_H
#define HIL_REPORTCHECK_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "result/rowcodec.h"

/*
 * The keys of a report's row that are not stored fields (derived again, or
 * read by hand: hil_result_row_derived, hil_result_row_by_hand) but that
 * readers of a report take as written, with the JSON types they take.
 */
extern const struct hil_rfield hil_result_row_shown[];
extern const size_t hil_result_row_n_shown;

/**
 * Check report: its report-level objects (hil_result_head_check), the
 * arrays, and each row: the keys every reader needs are there, and every
 * key the codec's tables or hil_result_row_shown know has a type they take.
 * The schema version and the numbers' range are the caller's to check.
 * @param name the file's name, for err.
 * @return HIL_OK, or HIL_ERR_ARG with a message naming the key in err
 *         ("report.json: missing key \"rows[3].median\"").
 */
int hil_result_report_check(const cJSON *report, const char *name, char *err,
			    size_t errlen);

#endif /* HIL_REPORTCHECK_H */
