/* serve: the lab daemon: takes job files from a spool directory one at a time, runs each on its locked board, files it under done/ or failed/. */
#ifndef HIL_SERVE_H
#define HIL_SERVE_H

#include <signal.h>
#include <stddef.h>

#include "boards.h"
#include "config/config.h"

/*
 * Spool layout (docs/lab.md):
 *
 *   incoming/  job files are dropped here: NAME.json (names starting with
 *              '.' and not ending in ".json" are ignored, so a writer can
 *              write ".NAME.json.tmp" and rename it in)
 *   running/   a job being run (claimed by rename(), locked with flock by
 *              the daemon running it), plus NAME.state (attempts, run folder)
 *   done/      NAME.json and NAME.result.json: the run measured every row
 *   failed/    NAME.json and NAME.result.json: anything else, with the reason
 *
 * A job file is {"config": "PATH"} or {"config": {...inline config...}},
 * with an optional "baseline": "PATH"; or a post-quantum job,
 * {"kind": "pq", "config": "PATH"} with optional "runs" and "seed" (hilrun
 * pq's --runs and --seed). Paths are relative to the daemon's working
 * directory.
 */

/*
 * What a run callback returns when the run measured every row but the
 * comparison with the job's baseline found a regression (err.h has no code
 * for it); positive so that it never collides with a hil_err code.
 */
#define HIL_SERVE_REGRESSION 3

/*
 * What a run callback returns when the run failed in a way worth trying
 * again (result.h, HIL_EXIT_TRANSIENT): the board could not be flashed or
 * reached, or the link died and the recovery ladder could not bring it
 * back. Filed under failed/ with exit status 5.
 */
#define HIL_SERVE_TRANSIENT 5

/* hilrun serve's --wait when none is given, in seconds. */
#define HIL_SERVE_DEFAULT_WAIT_S 60u

/* A run that dies with the daemon (crash, SIGKILL, reboot) is retried this
 * many times in all before the job is filed as failed. */
#define HIL_SERVE_MAX_ATTEMPTS 3

/*
 * How a run callback tells the daemon the run folder as soon as it exists:
 * fn(arg, dir) records it in the job's state file, so that a daemon killed
 * mid-job (SIGKILL, a crash, a reboot) resumes that folder's journal at its
 * next start instead of measuring everything again.
 */
struct hil_serve_started {
	void (*fn)(void *arg, const char *run_dir);
	void *arg;
	/* Where the run may say why it failed (a mistake in the
	 * configuration it found), error_len bytes, "" on entry: the job's
	 * result quotes it. NULL: nowhere. */
	char *error;
	size_t error_len;
};

/**
 * Runs one job. hilrun plugs in hil_runner_run (and the baseline
 * comparison); tests plug in a fake.
 * @param ctx opts->ctx.
 * @param cfg the job's configuration, validated.
 * @param baseline the job's "baseline" path, or NULL.
 * @param report_dir on entry: "" for a fresh run, or the run folder of an
 *        earlier attempt of this job that was interrupted by a stop, to be
 *        resumed (hil_runner_opts.resume_dir); on return: the run folder
 *        (where report.json is), or "" if none was made.
 * @param len size of report_dir.
 * @param started call started->fn(started->arg, dir) once the run folder
 *        is made (hil_runner_opts.on_run_dir); never NULL.
 * @return HIL_OK (every row measured and verified), HIL_ERR_VERIFY (some
 *         rows failed), HIL_SERVE_REGRESSION, HIL_SERVE_TRANSIENT,
 *         HIL_ERR_INTERRUPTED (stopped:
 *         the job stays in running/ and is resumed at the next start), or
 *         the error that stopped the run.
 */
typedef int (*hil_serve_run_fn)(void *ctx, const struct hil_config *cfg,
				const char *baseline, char *report_dir,
				size_t len,
				const struct hil_serve_started *started);

/**
 * Reads a pq job's configuration (a hilrun pq configuration file): the
 * board it runs on into cfg (its "board", "flasher" and "link" sections, as
 * hilrun pq reads them), after checking that the file and every folder it
 * names (schemes, common code) lie inside roots. hilrun plugs in hilrun
 * pq's reader; tests plug in a fake.
 * @param err receives why not (len bytes).
 * @return HIL_OK or an error (HIL_ERR_CONFIG: a mistake of the job's).
 */
typedef int (*hil_serve_pq_load_fn)(void *ctx, const char *path,
				    const struct hil_config_roots *roots,
				    struct hil_config *cfg, char *err,
				    size_t len);

struct hil_serve_counts {
	unsigned done;	 /* jobs filed under done/ */
	unsigned failed; /* jobs filed under failed/ */
	/* Times a job went back to incoming/ because its board stayed busy
	 * for wait_s: it waits for its turn, it never fails for that. */
	unsigned busy;
	/* Jobs that ran but could not be filed (a full spool): left in
	 * running/ for the next start. */
	unsigned unfiled;
};

struct hil_serve_opts {
	const char *spool;    /* the spool directory; subfolders are created */
	hil_serve_run_fn run; /* required */
	void *ctx;	      /* passed to run, pq_load and pq_run */
	/* Jobs of kind "pq": read by pq_load, run by pq_run (as run runs a
	 * run job: cfg->path is the pq configuration, cfg->bench.runs and
	 * .seed the job's, report_dir the run's --output folder). NULL:
	 * such jobs are filed as failed, saying the daemon takes none. */
	hil_serve_pq_load_fn pq_load;
	hil_serve_run_fn pq_run;
	/* Hardware map to find a config's board id for its lock; may be NULL
	 * (then the lock is the config's board.name). */
	const struct hil_boards *boards;
	const char *lock_dir; /* NULL: hil_lock_default_dir() */
	/* A job is untrusted: every file it names (config, extends, algorithm
	 * folders, KAT files, baseline, -I folders) must lie inside these
	 * (docs/lab.md); NULL or none: the working directory. */
	const struct hil_config_roots *roots;
	unsigned wait_s;  /* how long a job waits for a busy board before it
			   * goes back to incoming/ (0: not at all); never
			   * filed as failed for that */
	unsigned poll_ms; /* how often incoming/ is looked at; 0: 1000 */
	int once;	  /* process what is there, then return */
	/* Set (by the caller's SIGINT/SIGTERM handler) to stop after the
	 * current job; may be NULL. Pass the same flag to the runner so that
	 * the current job stops after its current row. */
	const volatile sig_atomic_t *stop;
	struct hil_serve_counts
		*counts; /* this call's jobs are added here; may be NULL */
};

/**
 * Run the daemon loop: first the jobs left in running/ by a daemon that
 * died (not those another live daemon holds), then incoming/ in name order,
 * one job at a time, holding the board's lock (hil_lock_acquire) for the
 * duration of each run. A job file that cannot be read, is not JSON, has
 * unknown keys or an invalid config is filed under failed/ with the
 * message; it never stops the loop. Nothing here calls exit().
 * @return HIL_OK when stopped by *o->stop, or in once mode when every job
 *         went to done/; HIL_ERR_VERIFY in once mode when at least one job
 *         went to failed/; HIL_ERR_TIMEOUT in once mode when none did but
 *         a job went back to incoming/ for a busy board;
 *         HIL_ERR_INTERRUPTED when stopped in once mode before incoming/
 *         was empty; HIL_ERR_ARG (no spool or run); HIL_ERR_IO (the spool
 *         cannot be created or read, or in once mode a job that ran could
 *         not be filed; logged).
 */
int hil_serve(const struct hil_serve_opts *o);

#endif /* HIL_SERVE_H */
