/* doctor: `hilrun doctor`, checks that everything a run needs is present and usable, without measuring anything. */
#ifndef HIL_DOCTOR_H
#define HIL_DOCTOR_H

#include <stdio.h>

#include "config/config.h"
#include "drivers/doctor.h"

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

#endif /* HIL_DOCTOR_H */
