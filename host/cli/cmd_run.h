/* cmd_run: what the files of hilrun run share: cmd_run.c (its options, a run, a sweep), cmd_run_quick.c (the quick options as a configuration) and cmd_run_board.c (the board's map entry and lock). */
#ifndef HIL_CMD_RUN_H
#define HIL_CMD_RUN_H

#include <stddef.h>

#include "config/config.h"
#include "lab/lock.h"

/* Quick questions on the command line, over a configuration. */
struct quick {
	const char **algs; /* each "A[/I][,B...]"; as many as --alg gave */
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

/* How a single run ended, for --result-json (result.h). */
struct run_end {
	char run_dir[4096];
	char board[HIL_LOCK_ID_MAX];
	char error[1200];
	char started[32];
	int transient; /* enum hil_exit's 5 applies */
};

/**
 * A config that names its board by id (board.id), or a run given --board
 * ID, gets the board's probe and port from the hardware map.
 * @param board the --board ID; NULL: the config's board.id, if any.
 * @return HIL_OK, or an error logged and written to end->error.
 */
int cli_apply_board_map(struct hil_config *cfg, const char *board,
			struct run_end *end);

/**
 * The board's lock for a run: the hardware map (configs/boards.json, when
 * there is one) names the board, else the config's board name does. A
 * second run on the same board waits up to wait_s, then says who holds it.
 * An emulator that is not a board of the map is not locked.
 * @param lock receives the lock; the caller releases it with
 *        hil_lock_release().
 * @param end receives the board's id, and the error if any (a busy board
 *        sets end->transient).
 * @return HIL_OK or a logged error.
 */
int cli_lock_board(const struct hil_config *cfg, const char *config_path,
		   unsigned wait_s, struct hil_lock *lock, struct run_end *end);

/**
 * The config a run on board id uses when no --config is given: the
 * default one of the board's platform, copied to out (len bytes).
 * @return HIL_OK, or an error logged and written to end->error.
 */
int cli_board_default_config(const char *id, char *out, size_t len,
			     struct run_end *end);

#endif /* HIL_CMD_RUN_H */
