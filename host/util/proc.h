/* proc: child processes (QEMU, OpenOCD, the compiler) started from an argv, never a shell, and never outliving their handle. */
#ifndef HIL_PROC_H
#define HIL_PROC_H

#include <signal.h>
#include <stddef.h>
#include <sys/types.h>

/*
 * Every child runs in its own process group (so a kill reaches what it
 * spawned too, and the terminal's Ctrl-C reaches only hilrun, which then
 * cleans up), with stdin from /dev/null, default signal dispositions and an
 * empty signal mask, none of hilrun's descriptors, and, on Linux, SIGKILL
 * as its parent-death signal: if hilrun dies abruptly, its children die.
 * Note: Linux sends the parent-death signal when the *thread* that spawned
 * the child exits, so spawn from a thread that lives as long as the child.
 *
 * Exit status convention used below: 0..255 for a normal exit, 128 + N when
 * the child was killed by signal N (as a shell reports it).
 */

struct hil_proc;
struct hil_jail;

/*
 * On Linux the child is the program's supervisor, a subreaper in the
 * program's process group: when hilrun dies, even by SIGKILL, it kills the
 * whole group, so nothing the program started (make -> sh -> gcc -> cc1)
 * lives on; otherwise it exits as the program did. A process that leaves
 * the group (setsid) escapes it; the jail's pid namespace does not let it.
 */

/*
 * Stopping: hil_proc_run_jailed() and hil_proc_capture_jailed() take the
 * flag hilrun's SIGTERM/SIGINT handler sets (main's, handed down by the
 * caller: make, a host build, the pq script): once it is set their wait
 * ends within some 50 ms with HIL_ERR_INTERRUPTED, the child's group
 * killed. NULL, and hil_proc_run() and hil_proc_capture() (a tool's
 * --version, git: seconds at most): the wait runs to its timeout.
 * hil_proc_wait() is never cut short (a flash being written is let finish).
 */

/**
 * Start argv[0] (searched in PATH when it has no '/') with argv.
 * An exec failure is reported here, naming the program and the OS reason,
 * not later as an exit status of 127.
 * @param out receives the handle; free it with hil_proc_free(), which also
 *        kills the child if it is still running.
 * @param argv NULL-terminated; copied as needed, not kept.
 * @param log_path stdout and stderr are appended to this file (created
 *        0644), or NULL to inherit hilrun's.
 * @return HIL_OK; HIL_ERR_ARG (empty argv); HIL_ERR_IO (the log file cannot
 *         be opened, fork failed); HIL_ERR_NA (program not found or not
 *         executable); HIL_ERR_PROCESS (another exec failure).
 */
int hil_proc_spawn(struct hil_proc **out, char *const argv[],
		   const char *log_path);

/**
 * hil_proc_spawn() with stdin and stdout on stdio_fd (a socketpair end,
 * say: the child's standard streams as its line to us) and only stderr
 * appended to log_path.
 * @param stdio_fd an open descriptor, not taken over: the caller still
 *        closes its own; -1 behaves as hil_proc_spawn().
 * @return as hil_proc_spawn().
 */
int hil_proc_spawn_stdio(struct hil_proc **out, char *const argv[],
			 int stdio_fd, const char *log_path);

/**
 * hil_proc_spawn_stdio() in a jail (util/jail.h): bwrap runs argv there,
 * under the jail's memory limit. The handle is bwrap's: killing it kills
 * everything in the jail. A program that does not exist is reported as
 * by hil_proc_spawn(); a missing bwrap as HIL_ERR_NA, saying so.
 * @param jail borrowed; NULL: not jailed (hil_proc_spawn_stdio()).
 * @return as hil_proc_spawn().
 */
int hil_proc_spawn_jailed(struct hil_proc **out, char *const argv[],
			  int stdio_fd, const char *log_path,
			  const struct hil_jail *jail);

/**
 * Wait for the child to exit.
 * @param timeout_ms how long to wait; the child keeps running on timeout.
 * @param exit_status receives the status (see the convention above); may be
 *        NULL.
 * @return HIL_OK (exited, status stored), HIL_ERR_TIMEOUT (still running),
 *         HIL_ERR_ARG. Waiting again after an exit returns the same status.
 */
int hil_proc_wait(struct hil_proc *p, unsigned timeout_ms, int *exit_status);

/** @return 1 if the child is still running, 0 if it has exited (reaped). */
int hil_proc_alive(struct hil_proc *p);

/**
 * Stop the child: SIGTERM to its process group, up to about one second for
 * it to exit, then SIGKILL to the group. The child is always reaped.
 * Does nothing if it already exited.
 */
void hil_proc_kill(struct hil_proc *p);

/** Kill the child if it is still running, reap it, and free the handle. NULL is allowed. */
void hil_proc_free(struct hil_proc *p);

/** The program's pid (also its process group id; not its supervisor's);
 *  still valid after it exited. */
pid_t hil_proc_pid(const struct hil_proc *p);

/**
 * The program's own pid: a jailed one's inside bwrap (as hilrun sees it),
 * for /proc/PID/stat; else hil_proc_pid(). Only valid while it runs.
 */
pid_t hil_proc_program_pid(const struct hil_proc *p);

/** argv[0], for messages; borrowed, valid until hil_proc_free(). */
const char *hil_proc_name(const struct hil_proc *p);

/**
 * Spawn, wait up to timeout_ms, kill on timeout.
 * @param exit_status receives the status if the child exited; may be NULL.
 * @return HIL_OK if it ran to the end (whatever its status: the caller
 *         judges it), HIL_ERR_TIMEOUT (killed, logged), or a spawn error.
 */
int hil_proc_run(char *const argv[], const char *log_path, unsigned timeout_ms,
		 int *exit_status);

/**
 * hil_proc_run() in a jail (NULL: not jailed; see hil_proc_spawn_jailed()),
 * stopped early by stop (NULL: never; see "Stopping" above).
 * @return as hil_proc_run(), or HIL_ERR_INTERRUPTED (killed: stop was set).
 */
int hil_proc_run_jailed(char *const argv[], const char *log_path,
			unsigned timeout_ms, int *exit_status,
			const struct hil_jail *jail,
			const volatile sig_atomic_t *stop);

/**
 * Run argv and capture its stdout and stderr (interleaved) into buf, as a
 * NUL-terminated string; output beyond len - 1 bytes is read and dropped so
 * the child never blocks. Used for `--version` lines and `git rev-parse`.
 * @return as hil_proc_run().
 */
int hil_proc_capture(char *const argv[], char *buf, size_t len,
		     unsigned timeout_ms, int *exit_status);

/** hil_proc_capture() in a jail (NULL: not jailed; see
 *  hil_proc_spawn_jailed()), stopped early by stop as hil_proc_run_jailed(). */
int hil_proc_capture_jailed(char *const argv[], char *buf, size_t len,
			    unsigned timeout_ms, int *exit_status,
			    const struct hil_jail *jail,
			    const volatile sig_atomic_t *stop);

#endif /* HIL_PROC_H */
