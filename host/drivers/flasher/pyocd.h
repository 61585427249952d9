/* pyocd: the pyOCD flasher's configuration hooks and name checks, shared by its files (pyocd.c, pyocd_setup.c). */
#ifndef HIL_PYOCD_H
#define HIL_PYOCD_H

#include "flasher.h"

/* Its own key of the "flasher" section: "target" (pyOCD's -t). */
extern const char *const hil_pyocd_keys[];

/* The parse op: the target type, else the board's; required. */
int hil_pyocd_parse(struct hil_jsonld *ld, const cJSON *section,
		    const char *board_arg, struct hil_config *cfg);

/* pyOCD's target names: lower-case letters, digits and '_', bounded. */
int hil_pyocd_target_ok(const char *s);

#endif /* HIL_PYOCD_H */
