/* pdeath: hilrun ends with the process that started it (--die-with-parent): the kernel's parent-death signal, SIGTERM, checked against a parent already gone. */
#ifndef HIL_PDEATH_H
#define HIL_PDEATH_H

#include <sys/types.h>

/**
 * Ask for SIGTERM when parent, the process that started this one (what
 * getppid() said first), goes: a CI engine's worker killed outright
 * (kill -9, a crash) then ends hilrun as a stop would (the row ends, the
 * report and the result file are written, QEMU or OpenOCD is stopped).
 * Linux only (PR_SET_PDEATHSIG); the signal comes when the parent *thread*
 * that forked this process ends. Install the SIGTERM handler first.
 * @return HIL_OK; HIL_ERR_INTERRUPTED when parent is gone already (this
 *         process has another parent now: the caller should stop as on
 *         SIGTERM); HIL_ERR_NA where the platform has no such signal.
 */
int hil_die_with_parent(pid_t parent);

/**
 * Whether --die-with-parent is asked for: the option among args (then
 * taken out of argv, *argc lowered) or HILRUN_DIE_WITH_PARENT=1 in the
 * environment. @return 1 when asked, 0 when not, HIL_ERR_ARG (logged) for
 * HILRUN_DIE_WITH_PARENT set to anything but 0 or 1.
 */
int hil_die_with_parent_asked(int *argc, char **argv);

#endif
