/* jobpolicy: what a lab job (an untrusted configuration) may ask for: compiler flags from the allowlist, OpenOCD's installed scripts, no programs of its own. */
#ifndef HIL_JOBPOLICY_H
#define HIL_JOBPOLICY_H

#include <stddef.h>

#include "config/config.h"

/* Where Debian's openocd package installs its scripts. */
#define HIL_OPENOCD_SCRIPTS "/usr/share/openocd/scripts"

/**
 * Check a job's loaded configuration (loaded with hil_config_load_in, so
 * its files are already inside roots): every build.cflags entry on the
 * allowlist (config/cflags.h), no flasher.program of its own (the host's
 * default for the flasher type), OpenOCD scripts only of OpenOCD's
 * installation (HIL_OPENOCD_SCRIPTS), each replaced by its full path there
 * (OpenOCD would look in its working directory first), a serial port under
 * /dev, a Linux I2C bus /dev/i2c-N.
 * @param err receives "build.cflags[2]: ..." naming the value.
 * @return HIL_OK, or HIL_ERR_CONFIG.
 */
int hil_job_check(struct hil_config *cfg, char *err, size_t len);

#endif /* HIL_JOBPOLICY_H */
