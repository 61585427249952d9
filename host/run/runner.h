/* runner: walks one configuration through build, flash, connect, identify, verify, measure and report. */
#ifndef HIL_RUNNER_H
#define HIL_RUNNER_H

#include <signal.h>

#include "config/config.h"
#include "drivers/link/link.h"
#include "result/run.h"

struct hil_flasher;
struct hil_session;

struct hil_runner_opts {
	const char *results_dir; /* where run folders go */
	const volatile sig_atomic_t
		*stop; /* set by SIGINT/SIGTERM; may be NULL */
	const struct hil_link_faults *faults; /* fault injection (tests); NULL */
	const char *algs_override; /* "alg/impl ..." instead of cfg's; NULL */
	const char *resume_dir; /* continue this run folder (--resume); NULL */
	/* Called with the run folder as soon as it is made (or, resuming,
	 * found), before anything is measured: the daemon records it so that
	 * a restart resumes its journal. NULL: not called. */
	void (*on_run_dir)(void *arg, const char *run_dir);
	void *on_run_dir_arg;
	/* 1: foreign code (the build, the host build of a user's folder,
	 * the emulator or the flashing tool) runs on the host unjailed
	 * (--no-jail); 0 (default): each in a jail (util/jail.h). */
	int no_jail;
	/* 1: no progress line on the terminal (the runs of a parallel
	 * sweep share it). */
	int no_progress;
};

/* A target built, started, connected and identified. */
struct hil_target_conn {
	struct hil_flasher *flasher;
	struct hil_link *link;
	struct hil_session *session;
};

/**
 * Build the firmware for cfg, start it (QEMU) or flash it, connect, wait for
 * the stub and check that it runs the image just built (build-id).
 * run->dir must exist (build.log and the emulator's files go there); run's
 * provenance fields (fw, build_id, sizes, info) are filled.
 * @return HIL_OK with conn open (close it with hil_runner_take_down, also on
 *         error), or the step's error.
 */
int hil_runner_bring_up(const struct hil_config *cfg,
			const struct hil_runner_opts *opts, struct hil_run *run,
			struct hil_target_conn *conn);

/**
 * Check that the stub runs the image that was built: its reported GNU
 * build-id must equal run->build_id (from the ELF) and its protocol version
 * ours. @return HIL_OK or HIL_ERR_MISMATCH, naming both ids.
 */
int hil_runner_identify(const struct hil_run *run);

/** Close the session and link and stop the target (QEMU never survives). */
void hil_runner_take_down(struct hil_target_conn *conn, struct hil_run *run);

/**
 * The whole walk of design.md section 1 for one configuration. Writes
 * results/<run-id>/report.json (and journal.jsonl row by row) whatever the
 * outcome, and points results/latest at it.
 * @param run filled; free with hil_run_free().
 * @return HIL_OK when every row was measured and verified; HIL_ERR_VERIFY
 *         when some rows failed; HIL_ERR_INTERRUPTED; or the error that
 *         stopped the run.
 */
int hil_runner_run(const struct hil_config *cfg,
		   const struct hil_runner_opts *opts, struct hil_run *run);

/**
 * The configuration file of a run folder, as recorded in its run.json, for
 * --resume. @return HIL_OK or HIL_ERR_IO/HIL_ERR_CONFIG naming the folder.
 */
int hil_runner_resume_config(const char *run_dir, char *path, size_t len);

/** Create results_dir/<id> for a new run and fill run->id, dir, started. */
int hil_runner_make_run_dir(const struct hil_config *cfg,
			    const struct hil_runner_opts *opts,
			    struct hil_run *run);

#endif /* HIL_RUNNER_H */
