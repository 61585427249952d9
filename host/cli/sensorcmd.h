/* sensorcmd: `hilrun sensor`, live readings of the configured current sensor for checking the wiring. */
#ifndef HIL_SENSORCMD_H
#define HIL_SENSORCMD_H

#include <signal.h>
#include <stdio.h>

/**
 * hilrun sensor --config FILE [--seconds N]: open the configured sensor,
 * print what it is, then one line per ~0.2 s with the mean bus voltage,
 * shunt voltage, current and power of the conversions in that time, until
 * N seconds have passed (N may have a fraction) or *stop is set.
 * @param argc, argv the subcommand's arguments, argv[0] being "sensor";
 *        -v and -q are skipped (main has read them).
 * @param stop set by the caller's signal handler; may be NULL.
 * @param out where the readings go (stdout); errors go to the log.
 * @return HIL_OK (the time ran out or *stop was set); HIL_ERR_ARG (bad
 *         usage); HIL_ERR_NA (no sensor configured, adapter missing); a
 *         config error; HIL_ERR_IO or HIL_ERR_TIMEOUT (the sensor does not
 *         answer or stopped answering, or reports no conversions).
 */
int hil_sensorcmd_run(int argc, char **argv, const volatile sig_atomic_t *stop,
		      FILE *out);

#endif /* HIL_SENSORCMD_H */
