/* main: hilrun's entry: options, configuration, subcommand, exit status. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"hilrun"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cmd_run.h"
#include "config/config.h"
#include "crypt.h"
#include "lab/boards.h"
#include "doctor.h"
#include "lab/lock.h"
#include "lab/serve.h"
#include "sensorcmd.h"
#include "util/err.h"
#include "hilp.h"
#include "lab/history.h"
#include "util/log.h"
#include "config/paths.h"
#include "run/result.h"
#include "report/render.h"
#include "report/report.h"
#include "run/run.h"
#include "run/runner.h"
#include "run/sweep.h"
#include "util/util.h"

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

static const struct cli_command commands[] = {
	{"run", "run a benchmark, or a sweep of configurations", cli_run,
	 cli_run_usage, 1},
	{"crypt", "one operation on the host build or the emulated target",
	 cli_crypt, cli_crypt_usage, 0},
	{"doctor",
	 "check what a configuration needs: tools, probe, port, sensor",
	 cli_doctor, cli_doctor_usage, 0},
	{"sensor", "live readings of the configuration's current sensor",
	 cli_sensor, cli_sensor_usage, 0},
	{"report", "a run folder's tables, plots and HTML again", cli_report,
	 cli_report_usage, 0},
	{"compare", "two reports row by row, against thresholds", cli_compare,
	 cli_compare_usage, 0},
	{"serve",
	 "the lab daemon: the jobs of a spool, one per board at a time",
	 cli_serve, cli_serve_usage, 0},
	{"boards", "the hardware map, and which boards are here and free",
	 cli_boards, cli_boards_usage, 0},
	{"history", "the recorded runs, or one row's trend over them",
	 cli_history, cli_history_usage, 0},
};

int main(int argc, char **argv)
{
	const struct cli_command *cmd = NULL;
	int verbosity = HIL_LOG_INFO;
	struct cli_env env;
	struct sigaction sa;
	size_t c;
	int sub;
	int i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

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
	for (c = 0; c < sizeof(commands) / sizeof(commands[0]); c++) {
		if (strcmp(argv[sub], commands[c].name) == 0) {
			cmd = &commands[c];
		}
	}
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
