/* doctor: `hilrun doctor`, checks that everything a run needs is present and usable, without measuring anything. */
#ifndef HIL_DOCTOR_H
#define HIL_DOCTOR_H

#include <stdio.h>

#include "config/config.h"

/**
 * Check, one line per check, what a run of cfg needs: the cross compiler
 * and newlib-nano, make, the flasher program, for OpenOCD each config file
 * (valid without a probe) and the probe itself (adapter serial when
 * given), the serial port (exists, is a character device, this user may
 * read and write it, libserialport opens it) and the sensor bus (when
 * one is configured: the bus opens and the chip answers with its
 * configuration register, and its driver's read-only checks, e.g. ID
 * registers, pass; nothing is written to it).
 * Each line is "<check> ok: <detail>", "<check> FAIL: <what and a hint>" or
 * "<check> skip: <reason>". Nothing is flashed, reset or measured; every
 * child process is bounded by a timeout, so this never hangs.
 * @param cfg a loaded configuration; borrowed.
 * @param out where the lines go (e.g. stdout); errors of the tools
 *        themselves may also appear on stderr through the logger.
 * @return HIL_OK when no check failed (skips are fine), HIL_ERR_NA when at
 *         least one did, HIL_ERR_ARG for NULL arguments.
 */
int hil_doctor(const struct hil_config *cfg, FILE *out);

/* ---- for the drivers' own checks (a flasher's doctor op) ---- */

struct hil_doctor;

enum hil_verdict { HIL_V_OK, HIL_V_FAIL, HIL_V_SKIP };

/** One line: "<name> ok|FAIL|skip: <detail>"; a FAIL counts. */
void hil_doctor_report(struct hil_doctor *d, const char *name,
		       enum hil_verdict v, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/** The first non-empty line of text, cut in place. */
const char *hil_doctor_first_line(char *text);

/**
 * Why a tool could not be run or failed, for a FAIL line.
 * @param ret and status as hil_proc_capture() gave them; output its text.
 */
void hil_doctor_tool_failure(char *buf, size_t len, const char *program,
			     int ret, int status, char *output);

#endif /* HIL_DOCTOR_H */
