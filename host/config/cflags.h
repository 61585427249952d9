/* cflags: the one allowlist of compiler flags, for every way flags arrive (config files, lab jobs, --cflags, sweeps). */
#ifndef HIL_CFLAGS_H
#define HIL_CFLAGS_H

#include <stddef.h>

#include "config/config.h"

/**
 * Whether one compiler flag is on the allowlist, flag and value exactly:
 * -O0/1/2/3/s/z/g; -march/-mcpu/-mtune/-mfloat-abi/-mfpu with a value of a
 * fixed list, -mthumb and a few other -m options; -f options of a fixed list
 * (with their -fno- forms, and a number where one takes it); --param= of a
 * fixed list with a number; -DNAME[=VALUE] and -UNAME; -W warnings without a
 * value; -w, -g levels, -pedantic; -std= of a list; and -I of a folder
 * inside one of cfg's implementation folders (an absolute path, no "..",
 * no link on the way: exactly its real path). Nothing that names a program,
 * a plugin, a specs or response file or a file to write.
 * @param cfg the configuration whose implementation folders -I may name
 *        (NULL: no -I at all).
 * @param why receives why not, naming the flag's part at fault.
 * @return 1 allowed, 0 not.
 */
int hil_cflag_allowed(const char *flag, const struct hil_config *cfg, char *why,
		      size_t why_len);

/**
 * Check every build.cflags entry of cfg against the allowlist.
 * @param index receives the position of the first refused flag (may be NULL).
 * @param why receives "\"-fplugin=x\": loads ..." for it.
 * @return HIL_OK, or HIL_ERR_CONFIG.
 */
int hil_cflags_check(const struct hil_config *cfg, size_t *index, char *why,
		     size_t why_len);

#endif /* HIL_CFLAGS_H */
