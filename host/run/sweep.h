/* sweep: several configurations run (rebuilt, reflashed, identified, measured), each on its board under that board's lock, and compared. */
#ifndef HIL_SWEEP_H
#define HIL_SWEEP_H

#include <stddef.h>
#include <stdio.h>

#include "config/config.h"
#include "lab/lock.h"
#include "runner.h"

#define HIL_SWEEP_MAX 32

struct hil_sweep {
	char name[HIL_CFG_NAME];
	struct hil_config *cfgs; /* n entries, owned */
	size_t n;
	/* The board lock each configuration's run takes, as a single run of
	 * it would (hil_boards_run_lock): "" for none (the bare emulator). */
	char lock[HIL_SWEEP_MAX][HIL_LOCK_ID_MAX];
};

/**
 * Load a sweep file: {"name": ..., "configs": ["a.json", ...]} (paths
 * relative to the sweep file), or {"name": ..., "base": "qemu.json",
 * "cflags": [["-O0"], ["-O2", "-flto"], ...]}: the base once per flag set,
 * each named <base name>-<flags> (e.g. qemu-O2_flto).
 * Each configuration's board is found as for a single run: a config that
 * names its board (board.id) takes its probe and port from the hardware map
 * (hil_boards_path()), and sw->lock names the lock its run takes.
 * @param err receives a message naming the file and JSON path on failure.
 * @return HIL_OK, HIL_ERR_CONFIG, HIL_ERR_IO, HIL_ERR_NOMEM.
 */
int hil_sweep_load(const char *path, struct hil_sweep *sw, char *err,
		   size_t errlen);

/** A sweep of the given config files (`--config a --config b`), their
 * boards found as hil_sweep_load() does. */
int hil_sweep_from_files(char *const *paths, size_t n, struct hil_sweep *sw,
			 char *err, size_t errlen);

void hil_sweep_free(struct hil_sweep *sw);

/* The folders a sweep leaves for its caller to render (runs measure, the
 * command renders: hil_cli_render_sweep). */
struct hil_sweep_done {
	char name[HIL_CFG_NAME];
	char dir[HIL_PATH]; /* the sweep's own folder; "" when it has none */
	/* The sweep's own tables in Markdown (what ran, what did not and
	 * why): sweep.md has them after the reports' tables. Owned: freed by
	 * hil_cli_render_sweep. NULL when out of memory. */
	char *tables;
	/* Its runs' folders, and of which report.json was written (their
	 * tables and page) and which the comparison reads (sweep.html). */
	char run_dir[HIL_SWEEP_MAX][HIL_PATH];
	unsigned char reported[HIL_SWEEP_MAX];
	unsigned char compared[HIL_SWEEP_MAX];
	size_t n;
};

/**
 * Run every configuration, up to jobs at once (0: as many as there are
 * cores; each writes its own report; a failure of one does not stop the
 * others), then make the sweep's folder <results>/<sweep-id> with
 * sweep.json listing the runs. The comparison (sweep.md, printed to out,
 * the same whatever jobs) and the plots and pages are the caller's to
 * render from done (hil_cli_render_sweep).
 *
 * A configuration with a board lock (sw->lock) runs under it: the lock is
 * taken before the first configuration of that board starts, waiting up to
 * wait_s for another run to let go of it, and released when the last one
 * has finished. The configurations of one board run one after another
 * whatever jobs says; those without a lock run beside anything. When a
 * board cannot be had (busy for all of wait_s, interrupted), its
 * configurations are reported as not run, with the reason, and the others
 * still run.
 * @param transient set to 1 when it is worth trying again later (a board
 *        was busy for all of wait_s), else 0; may be NULL.
 * @param done receives the folders to render (hil_cli_render_sweep);
 *        may be NULL.
 * @return HIL_OK when every run measured everything; otherwise the first
 *         error met other than HIL_ERR_VERIFY, or HIL_ERR_VERIFY when only
 *         rows failed.
 */
int hil_sweep_run(const struct hil_sweep *sw,
		  const struct hil_runner_opts *opts, unsigned jobs,
		  unsigned wait_s, int *transient, struct hil_sweep_done *done);

/* Which configuration a free worker of a sweep runs next. */
enum hil_sweep_pick {
	HIL_SWEEP_PICK_RUN,  /* start the one given */
	HIL_SWEEP_PICK_WAIT, /* all left are on boards in use: wait for a
				hil_sweep_sched_done() */
	HIL_SWEEP_PICK_DONE, /* none left to start */
};

/*
 * The scheduling rule of hil_sweep_run, on its own so that it can be
 * tested without boards or threads: configurations start in order, except
 * that one whose board lock is that of a configuration still running waits
 * for it. Not thread-safe: the caller serialises the calls.
 */
struct hil_sweep_sched {
	size_t n;
	const char *lock[HIL_SWEEP_MAX];    /* borrowed; "" or NULL: no lock */
	unsigned char state[HIL_SWEEP_MAX]; /* 0 to start, 1 running, 2 done */
};

/** The schedule of sw's configurations, none started yet. */
void hil_sweep_sched_init(struct hil_sweep_sched *s,
			  const struct hil_sweep *sw);

/**
 * The next configuration to start: the first not started whose board lock
 * (if any) no running configuration has; it is then running.
 * @param idx receives its index with HIL_SWEEP_PICK_RUN.
 */
enum hil_sweep_pick hil_sweep_sched_next(struct hil_sweep_sched *s,
					 size_t *idx);

/** Configuration idx has finished (run, failed or not run). */
void hil_sweep_sched_done(struct hil_sweep_sched *s, size_t idx);

/**
 * How many configurations with idx's board lock are not done yet, idx
 * itself left out: 0 once idx is the last of its board (or has no lock).
 */
size_t hil_sweep_sched_board_left(const struct hil_sweep_sched *s, size_t idx);

#endif /* HIL_SWEEP_H */
