/* modelerr: the error bar of a row's cycle-model estimate, from its profile's cross-validation (docs/cycle-model.md, "Error bars"). */
#ifndef HIL_MODELERR_H
#define HIL_MODELERR_H

#include <stddef.h>

#include "result/run.h"

/**
 * The expected error of r's model estimate, in percent: its profile's
 * cross-validated figure for assembly when r's implementation folder is
 * assembly (hil_build_has_assembly()), else for compiled C.
 * @param kind receives "assembly" or "C" (may be NULL).
 * @return the percentage, or a negative value when the profile has none
 *         (uncalibrated) or the row has no estimate.
 */
double hil_model_error_pct(const struct hil_run *run, const struct hil_row *r,
			   const char **kind);

/**
 * " ± 6 %" (with the leading space) for r's estimate, or "" when it has
 * none: what the tables print beside an estimated figure.
 */
void hil_model_error_label(const struct hil_run *run, const struct hil_row *r,
			   char *buf, size_t len);

#endif /* HIL_MODELERR_H */
