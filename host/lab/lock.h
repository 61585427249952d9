/* lock: an exclusive, crash-safe lock per board id (flock on <lock_dir>/<id>.lock), naming its holder to whoever waits. */
#ifndef HIL_LOCK_H
#define HIL_LOCK_H

#include <stddef.h>

#define HIL_LOCK_ID_MAX	  64   /* board id, NUL included */
#define HIL_LOCK_PATH_MAX 4096 /* lock file path, NUL included */

/*
 * A held lock is an open descriptor with flock(LOCK_EX) on it. The kernel
 * drops the lock when the descriptor is closed, also when the holder dies
 * (crash, SIGKILL, power cut of the process): no stale lock ever needs
 * cleaning up. The file stays; it holds one JSON line about the holder
 * (pid, start time, config, hostname) so that a second run can say who is
 * using the board.
 *
 * A zero-initialised struct hil_lock is "not held"; releasing it is a no-op.
 */
struct hil_lock {
	int held;		      /* 1 while fd carries the lock */
	int fd;			      /* valid only when held */
	char id[HIL_LOCK_ID_MAX];     /* the board id */
	char path[HIL_LOCK_PATH_MAX]; /* <lock_dir>/<id>.lock */
};

/**
 * Whether id may name a board (and a lock file): 1 to 63 characters from
 * [A-Za-z0-9._-], not "." or "..".
 * @return 1 if valid, 0 if not.
 */
int hil_lock_id_valid(const char *id);

/**
 * The lock directory used when none is given: $HILRUN_LOCK_DIR if set,
 * else $XDG_RUNTIME_DIR/hilrun, else /tmp/hilrun-locks.
 * @return HIL_OK, or HIL_ERR_ARG when it does not fit in len bytes.
 */
int hil_lock_default_dir(char *buf, size_t len);

/**
 * Take the exclusive lock of board id, waiting up to wait_s seconds for it
 * (0: fail at once if it is held), polling every 100 ms. The directory is
 * created (mode 0700) if missing. Once locked, the holder info (our pid,
 * the time, config and hostname) is written into the lock file.
 *
 * Nothing is logged: on failure *msg says what happened, e.g.
 * "board nucleo-1 is in use by pid 1234 (configs/o2.json) since 10:42:03",
 * and the caller reports it once.
 *
 * @param lock  receives the held lock; release it with hil_lock_release().
 * @param dir   lock directory, or NULL for hil_lock_default_dir().
 * @param id    board id (see hil_lock_id_valid()).
 * @param config what the holder runs, shown to others (a config path); may
 *        be NULL.
 * @param wait_s seconds to wait for a lock held by someone else.
 * @param msg   on failure receives a malloc'd message (caller frees); set to
 *        NULL on success. May be NULL.
 * @return HIL_OK; HIL_ERR_TIMEOUT (held by someone else for the whole
 *         wait); HIL_ERR_INTERRUPTED (a caught signal arrived while
 *         waiting); HIL_ERR_ARG (bad id or path too long); HIL_ERR_IO (the
 *         directory or file cannot be created or opened); HIL_ERR_NOMEM.
 */
int hil_lock_acquire(struct hil_lock *lock, const char *dir, const char *id,
		     const char *config, unsigned wait_s, char **msg);

/** Release the lock (close its descriptor). A lock not held is ignored. */
void hil_lock_release(struct hil_lock *lock);

/**
 * Whether board id's lock is held, without taking it for more than an
 * instant (a shared flock, tried and dropped at once).
 * @param dir as for hil_lock_acquire().
 * @param msg when held, receives the holder message as hil_lock_acquire()
 *        would give it (malloc'd, caller frees); NULL otherwise. May be NULL.
 * @return 0 free (or never used), 1 held, or a negative hil_err code.
 */
int hil_lock_probe(const char *dir, const char *id, char **msg);

#endif /* HIL_LOCK_H */
