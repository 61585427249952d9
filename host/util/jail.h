/* jail: the sandbox (bubblewrap) a child that touches foreign code runs in: no network, read-only views, one writable folder, its own namespaces, no capabilities, a memory limit. */
#ifndef HIL_JAIL_H
#define HIL_JAIL_H

#include <stddef.h>

/*
 * A jail is a list of folders the child may see, each read-only,
 * writable or a device folder, bound at the same path inside; everything
 * else of the host is absent. What every jail has besides:
 * - new user, pid, network, IPC, UTS and cgroup namespaces (no network
 *   but its own loopback; it sees only its own processes), no capability
 *   (hilrun may run as root: the child is root without any power), no
 *   further user namespace, a new session (no terminal to inject into);
 * - it dies with hilrun (--die-with-parent), and killing the bwrap that
 *   hil_proc spawned kills everything in the jail (its pid namespace);
 * - /usr read-only with the /bin, /lib* links (or folders) of the host,
 *   the few /etc files a compiler, make or QEMU read, a fresh /proc, a
 *   minimal /dev (null, zero, random, tty...), a private tmpfs /tmp, and
 *   the rest of / read-only and empty;
 * - a clean environment: PATH, HOME=/tmp and the locale variables only;
 * - an address-space limit (RLIMIT_AS, set by hil_proc in the child
 *   before bwrap starts, so everything in the jail inherits it).
 * The time limit is the caller's, as for any child (hil_proc_wait).
 */

enum hil_jail_bind {
	HIL_JAIL_RO,  /* read-only */
	HIL_JAIL_RW,  /* writable: one private folder per jail, normally */
	HIL_JAIL_DEV, /* a device folder, e.g. /dev/bus/usb (a real probe) */
};

/* A build binds the source tree's parts, each implementation folder of one
 * image (HIL_IMAGE_MAX_ALGS: a larger selection is split over images) and
 * the build folder. */
#define HIL_JAIL_MAX_BINDS 128

/* Default address-space limit: QEMU reserves about 1 GiB of translation
 * cache and the compiler's cc1 a few hundred MiB on a large source. */
#define HIL_JAIL_DEFAULT_MEM (4ull << 30)

struct hil_jail;

/**
 * A jail with no folder of the caller's yet.
 * @param out receives it; free with hil_jail_free().
 * @return HIL_OK or HIL_ERR_NOMEM.
 */
int hil_jail_new(struct hil_jail **out);

/** Free; NULL is allowed. */
void hil_jail_free(struct hil_jail *j);

/**
 * Let the child see path (relative: to hilrun's working directory, which
 * is the jail's too unless hil_jail_chdir() says otherwise; links in it resolved, so the
 * view is of the real folder or file, at its real path, and at the path
 * given when a folder above it is a link; a path that is itself a link is
 * seen through the link's own folder, if bound). A later bind of a path
 * inside an earlier one wins there (a writable build folder inside the
 * read-only source tree). The same path of the same kind twice is bound
 * once.
 * @return HIL_OK; HIL_ERR_ARG (too many binds);
 *         HIL_ERR_NA (path does not exist: logged); HIL_ERR_NOMEM.
 */
int hil_jail_bind(struct hil_jail *j, const char *path,
		  enum hil_jail_bind kind);

/** Also let the child read /sys (libusb finds a USB probe there). */
void hil_jail_with_sys(struct hil_jail *j);

/** The working directory inside (default hilrun's own, empty but for the
 * binds inside it); copied. @return HIL_OK or HIL_ERR_NOMEM. */
int hil_jail_chdir(struct hil_jail *j, const char *dir);

/** Address-space limit in bytes (0: none; default HIL_JAIL_DEFAULT_MEM). */
void hil_jail_set_mem(struct hil_jail *j, unsigned long long bytes);

/** The limit set (for hil_proc). */
unsigned long long hil_jail_mem(const struct hil_jail *j);

/**
 * The command line that runs argv in the jail: "bwrap", its options, "--",
 * then argv. A program named without a '/' is looked up in hilrun's PATH
 * as it would be unjailed: found in /usr, /bin or /sbin, bwrap looks it up
 * again in the jail's (the same) PATH; found elsewhere (/opt/X/bin), it is
 * run by that path. A program outside /usr, named by a path or found so,
 * gets its folder (and, for a link, its target's) bound read-only.
 * The program is the jail's pid 1 (a signal it has a handler for reaches
 * it from hilrun; when it exits, everything else in the jail is killed).
 * @param j may be NULL: the system folders alone.
 * @param info_fd -1, or a descriptor the child will have open: bwrap
 *        writes {"child-pid": N, ...} there, N the program's pid as hilrun
 *        sees it, once the jail is set up.
 * @param out receives a NULL-terminated vector; free it with
 *        hil_jail_argv_free(). Its strings are its own.
 * @return HIL_OK, HIL_ERR_ARG (empty argv), HIL_ERR_NOMEM.
 */
int hil_jail_argv(const struct hil_jail *j, char *const argv[], int info_fd,
		  char ***out);

/** Free what hil_jail_argv() made; NULL is allowed. */
void hil_jail_argv_free(char **argv);

/**
 * Can a jail be set up here? Runs `true` in an empty jail (bwrap found in
 * PATH, namespaces allowed, bounded by a few seconds).
 * @param why receives the reason when it cannot (bwrap missing, or its own
 *        words: "No permission to create new namespace", ...).
 * @return HIL_OK, HIL_ERR_NA (no bwrap), HIL_ERR_PROCESS (bwrap refused).
 */
int hil_jail_probe(char *why, size_t len);

#endif /* HIL_JAIL_H */
