/* result: hilrun's exit statuses, which failures are transient, and the result file (the spool's schema) that says how a run ended. */
#ifndef HIL_RESULT_H
#define HIL_RESULT_H

#include <stddef.h>

/*
 * Exit statuses of a run (README.md, docs/lab.md, hilrun --help). A CI
 * engine retries HIL_EXIT_TRANSIENT and nothing else.
 */
enum hil_exit {
	HIL_EXIT_ALL_MEASURED = 0,
	HIL_EXIT_ROWS_FAILED = 1,
	HIL_EXIT_CANNOT_START = 2, /* permanent: config, build, wrong board */
	HIL_EXIT_REGRESSION = 3,   /* against --baseline */
	HIL_EXIT_INTERRUPTED = 4,  /* SIGTERM or SIGINT */
	HIL_EXIT_TRANSIENT = 5,	   /* board busy, probe or flash failure,
				    * dead link: worth trying again later */
};

/**
 * Could a board step that failed with err succeed when tried again, with
 * nothing changed in the configuration? Timeouts, I/O errors, a child
 * process (OpenOCD, QEMU) that failed, a garbled handshake, and a probe or
 * port that is not there (HIL_ERR_NA) are; bad arguments, configuration,
 * build, the wrong image or board, and out of memory are not.
 * Only the flash, connect and recovery steps and the board lock ask.
 */
int hil_err_transient(int err);

/**
 * The exit status of a run that returned ret.
 * @param transient the run (or its lock) failed in a way hil_err_transient
 *        accepts, at a step where it applies.
 * @param regression the comparison with the baseline found a regression.
 */
int hil_exit_status(int ret, int transient, int regression);

/** The exit status in words, as result files say it; never NULL. */
const char *hil_exit_summary(int exit_status);

/* How a run ended: the fields of a result file. "" or NULL is null. */
struct hil_result {
	const char *job;     /* the spool job's file name; NULL outside one */
	int exit_status;     /* enum hil_exit */
	const char *error;   /* why it could not start; NULL when it ran */
	const char *run_dir; /* the run folder, or NULL when none was made */
	const char *config;  /* the config path, or "inline" */
	const char *baseline;
	const char *board;   /* the lock it held: a board id or board.name */
	const char *started; /* UTC, ISO 8601 */
};

/**
 * Write a result file atomically (docs/lab.md, "Result files"): job, status
 * ("done" for exit status 0, else "failed"), exit_status, summary, error,
 * report and run_dir (absolute; report null if the folder has none),
 * config, baseline, board, host, started, finished (now), transient.
 * @return HIL_OK, HIL_ERR_NOMEM, HIL_ERR_IO (logged, naming the path).
 */
int hil_result_write(const char *path, const struct hil_result *r);

#endif /* HIL_RESULT_H */
