/* cmd_run: what the files of hilrun run share: cmd_run.c (its options, a run, a sweep) and cmd_run_quick.c (the quick options as a configuration). */
#ifndef HIL_CMD_RUN_H
#define HIL_CMD_RUN_H

#include <stddef.h>

#include "config/config.h"

/* Quick questions on the command line, over a configuration. */
struct quick {
	const char *algs[HIL_CFG_MAX_ALGS]; /* each "A[/I][,B...]" */
	size_t n_algs;
	const char *impl;
	const char *lengths;
	const char *ad;
	const char *ops;
	const char *olevel; /* "2", "s", ... */
	const char *cflags;
	long runs;   /* -1: the config's */
	long warmup; /* -1: the config's */
};

/** Does q change the configuration at all? */
int cli_quick_any(const struct quick *q);

/**
 * The configuration of a run: path as it is, or, with quick options, a
 * configuration built in memory that extends it (so every check of the
 * loader applies to the options too).
 * @param q the quick options; NULL or none: path as it is.
 * @return HIL_OK or a logged error.
 */
int cli_load_run_config(const char *path, const struct quick *q,
			struct hil_config *cfg);

#endif /* HIL_CMD_RUN_H */
