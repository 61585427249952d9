/* pdeath: hilrun ends with the process that started it (--die-with-parent): the kernel's parent-death signal, SIGTERM, checked against a parent already gone. */
#define _POSIX_C_SOURCE 200809L

#include "util/pdeath.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "util/err.h"
#include "util/log.h"

int hil_die_with_parent(pid_t parent)
{
#ifdef __linux__
	if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0) {
		hil_err("--die-with-parent: prctl(PR_SET_PDEATHSIG) failed");
		return HIL_ERR_IO;
	}
	/* Gone before the signal was asked for: no signal will come. */
	if (getppid() != parent) {
		return HIL_ERR_INTERRUPTED;
	}
	return HIL_OK;
#else
	(void)parent;
	hil_err("--die-with-parent: this system has no parent-death signal");
	return HIL_ERR_NA;
#endif
}

int hil_die_with_parent_asked(int *argc, char **argv)
{
	const char *env = getenv("HILRUN_DIE_WITH_PARENT");
	int asked = 0, i, o = 0;

	for (i = 0; i < *argc; i++) {
		if (i > 0 && strcmp(argv[i], "--die-with-parent") == 0) {
			asked = 1;
			continue;
		}
		argv[o++] = argv[i];
	}
	argv[o] = NULL;
	*argc = o;
	if (env != NULL && env[0] != '\0' && strcmp(env, "0") != 0) {
		if (strcmp(env, "1") != 0) {
			hil_err("HILRUN_DIE_WITH_PARENT=%.40s: expected 1 (or 0, or unset)",
				env);
			return HIL_ERR_ARG;
		}
		asked = 1;
	}
	return asked;
}
