/* jobpolicy: what a lab job (an untrusted configuration) may ask for: compiler flags from an allowlist, files inside the lab's roots, no programs of its own. */
#ifndef HIL_JOBPOLICY_H
#define HIL_JOBPOLICY_H

#include <stddef.h>

#include "config/config.h"

/**
 * Whether one compiler flag is allowed in a job: -O levels, -f/-m
 * code-generation options (not -fplugin, -fdump-*, -fprofile-*, -fuse-ld
 * and other options that run programs or write files), -D/-U, -g, -W
 * warnings (not -Wl/-Wa/-Wp), -std=, -w, --param=, and -I of a folder
 * inside roots. Never -B, -M*, -o, -wrapper, -specs, -include, @file.
 * @param why receives the reason when it is not allowed.
 * @return 1 allowed, 0 not.
 */
int hil_job_flag_allowed(const char *flag, const struct hil_config_roots *roots,
			 char *why, size_t why_len);

/**
 * Check a job's loaded configuration (loaded with hil_config_load_in, so
 * its files are already inside roots): every build.cflags entry, no
 * flasher.program of its own (the host's default for the flasher type),
 * OpenOCD scripts by plain relative names or inside roots, a serial port
 * under /dev, a Linux I2C bus /dev/i2c-N.
 * @param err receives "build.cflags[2]: ..." naming the value.
 * @return HIL_OK, or HIL_ERR_CONFIG.
 */
int hil_job_check(const struct hil_config *cfg,
		  const struct hil_config_roots *roots, char *err, size_t len);

#endif /* HIL_JOBPOLICY_H */
