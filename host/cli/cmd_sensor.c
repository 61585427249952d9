/* cmd_sensor: hilrun sensor, the command line of the live current-sensor readings (sensorcmd.c reads its own options). */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"hilrun"

#include <stdio.h>

#include "cli.h"
#include "result/result.h"
#include "sensorcmd.h"
#include "util/err.h"

const char cli_sensor_usage[] =
	"usage: hilrun sensor --config FILE [--seconds N]\n"
	"Live readings of the configuration's current sensor (bus voltage,\n"
	"current, power) until N seconds have passed or Ctrl-C.\n"
	"exit: 0 readings taken, 2 no sensor or it does not answer\n";

int cli_sensor(int argc, char **argv, const struct cli_env *env)
{
	/* Readings until N seconds or Ctrl-C: 0; no sensor: 2. */
	return hil_sensorcmd_run(argc, argv, env->stop, stdout) == HIL_OK
		       ? 0
		       : HIL_EXIT_CANNOT_START;
}
