/* modelchange: how far a change between two cycle-model estimates is established, given their error bars (docs/cycle-model.md, "Comparing two estimates"). */
#ifndef HIL_MODELCHANGE_H
#define HIL_MODELCHANGE_H

#include <stddef.h>

/**
 * The error bar of the ratio of two estimates, in percent: their two
 * error bars combined in quadrature, sqrt(a^2 + b^2), as for two
 * independent errors (each is a 90th percentile of |model/board - 1|).
 * One that is missing (negative) counts as the other: both estimates are
 * of one profile. @return the percentage, or -1 when neither has one.
 */
double hil_model_error_combined(double a_pct, double b_pct);

/**
 * Is a change of change_pct percent between two estimates with error bars
 * a_pct and b_pct (negative: none) within the model's error, i.e. not
 * established on the board? 0 when neither estimate has an error bar.
 * The change itself is still the code's (the model is deterministic).
 */
int hil_model_change_within_error(double change_pct, double a_pct,
				  double b_pct);

/**
 * The memory-system profile named in a cycle model's unit, e.g.
 * "nrf52840-icache" from "cycles (estimated, Cortex-M4 model,
 * nrf52840-icache: 3 WS, cache on)"; "" when the unit names none.
 */
void hil_model_unit_profile(const char *unit, char *buf, size_t len);

/**
 * Why an estimate has no error bar, for a line said once: "no error bar:
 * profile X is not calibrated" (profile may be "", then the unit's own
 * description is used).
 */
void hil_model_no_error_bar(char *buf, size_t len, const char *profile,
			    const char *unit);

#endif /* HIL_MODELCHANGE_H */
