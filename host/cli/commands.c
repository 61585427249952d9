/* commands: the table of hilrun's commands (name, summary, handler, usage) and the helpers more than one of them calls. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"hilrun"

#include <string.h>

#include "cli.h"
#include "config/config.h"
#include "result/result.h"
#include "util/err.h"
#include "util/jail.h"
#include "util/log.h"

/* The commands, in the order of cli_run_usage's list. */
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
	{"pq",
	 "mupq/pqm4 KEM and signature folders on the emulated board (model)",
	 cli_pq, cli_pq_usage, 0},
};

const struct cli_command *cli_command_find(const char *name)
{
	size_t c;

	for (c = 0; c < sizeof(commands) / sizeof(commands[0]); c++) {
		if (strcmp(name, commands[c].name) == 0) {
			return &commands[c];
		}
	}
	return NULL;
}

int cli_load_config(const char *path, struct hil_config *cfg)
{
	char err[1024];
	int ret = hil_config_load(path, cfg, err, sizeof(err));

	if (ret != HIL_OK) {
		hil_err("%s", err);
	}
	return ret;
}

int cli_exit_status(int ret)
{
	return hil_exit_status(ret, 0, 0);
}

int cli_no_jail(int asked)
{
	char why[512];

	if (asked) {
		hil_warn(
			"--no-jail: the build, users' host builds and the emulator or flashing tool run unjailed, with hilrun's own rights on this host");
		return 1;
	}
	if (hil_jail_probe(why, sizeof(why)) != HIL_OK) {
		hil_warn(
			"no jail for foreign code: %s. A trusted user's run goes on UNJAILED (docs/lab.md, \"The jail\"); hilrun serve would refuse",
			why);
		return 1;
	}
	return 0;
}
