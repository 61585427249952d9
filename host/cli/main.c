/* main: hilrun's entry: the signals, -v and -q, the command of the table, and its handler's return as the exit status. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"hilrun"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "result/result.h"
#include "util/err.h"
#include "util/log.h"
#include "util/pdeath.h"
#include "util/proc.h"

/* The only mutable global: set by the signal handler, read by the runner. */
static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

/* Is --help or -h among the arguments of a command? */
static int wants_help(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--help") == 0 ||
		    strcmp(argv[i], "-h") == 0) {
			return 1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	/* Who started hilrun, before anything else (--die-with-parent). */
	pid_t parent = getppid();
	const struct cli_command *cmd;
	int verbosity = HIL_LOG_INFO;
	struct cli_env env;
	struct sigaction sa;
	int sub;
	int i;

	/* What hilrun writes (results, build folders, spool files) is its
	 * own: never group- or world-writable, whatever umask it was started
	 * with (000, or the 002 of a lab's shared lock directory, which
	 * lab/lock.c keeps group-writable by itself). */
	umask(022);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	/* --die-with-parent (anywhere, or HILRUN_DIE_WITH_PARENT=1): a
	 * SIGTERM when the starter goes, which ends the run as a stop does;
	 * gone already, it is as if that SIGTERM had come now. */
	i = hil_die_with_parent_asked(&argc, argv);
	if (i < 0) {
		return HIL_EXIT_CANNOT_START;
	}
	if (i == 1) {
		int ret = hil_die_with_parent(parent);

		if (ret == HIL_ERR_INTERRUPTED) {
			raise(SIGTERM);
		} else if (ret != HIL_OK) {
			return HIL_EXIT_CANNOT_START;
		}
	}

	/* Verbosity first, wherever it stands, so every later message obeys it. */
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-v") == 0) {
			verbosity++;
		} else if (strcmp(argv[i], "-q") == 0) {
			verbosity--;
		}
	}
	hil_log_set_level(verbosity);
	env.stop = &stop_requested;
	env.verbosity = verbosity;
	/* A subcommand may follow -v/-q. */
	for (sub = 1; sub < argc; sub++) {
		if (strcmp(argv[sub], "-v") != 0 &&
		    strcmp(argv[sub], "-q") != 0) {
			break;
		}
	}
	/* No command, only options: a run's (hilrun --config FILE); the
	 * argument before them stands in for the command's name. */
	if (sub == argc || argv[sub][0] == '-') {
		return cli_run_default(argc - sub + 1, argv + sub - 1, &env);
	}
	cmd = cli_command_find(argv[sub]);
	if (cmd == NULL) {
		hil_err("unknown command \"%s\" (commands: run, crypt, doctor, sensor, report, compare, serve, boards, history; try hilrun --help)",
			argv[sub]);
		return HIL_EXIT_CANNOT_START;
	}
	if (!cmd->reads_help && wants_help(argc - sub, argv + sub)) {
		fputs(cmd->usage, stdout);
		return 0;
	}
	return cmd->run(argc - sub, argv + sub, &env);
}
