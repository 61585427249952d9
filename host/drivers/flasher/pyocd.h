/* pyocd: what the pyOCD flasher's files share: its configuration hooks and name checks, the state of an open flasher and the steps its ops are made of. */
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

/* pyocd-tool's line before it waits forever for a probe (facts in pyocd.c). */
#define PY_WAITING "Waiting for a debug probe to be connected"

/* pyocd.c: the ops and the flasher's parameters. */

/* flasher.probe_serial, or NULL when any probe will do. */
const char *hil_pyocd_uid_of(const struct hil_flasher *f);

/* pyocd_errors.c: reading a run's output. */

/* The last line of text that is not blank, or "". */
void hil_pyocd_last_line(const char *text, char *line, size_t len);

/*
 * Does a flash-algorithm failure show in pyocd-flashtool's output? It exits
 * 0 even then.
 * @return HIL_OK if not; else its code, with why saying what failed.
 */
int hil_pyocd_flash_failed(const char *out, char *why, size_t len);

/*
 * Turn pyOCD 0.13.1's output of a failed run into one line in why.
 * @param flashing the run was pyocd-flashtool's: flash failures count too.
 * @return the code the failure maps to (see hil_flasher_start()).
 */
int hil_pyocd_explain(const struct hil_flasher *f, const char *out,
		      int flashing, char *why, size_t len);

#endif /* HIL_PYOCD_H */
