/* cli: what the files of hilrun's command line share; private to host/cli. */
#ifndef HIL_CLI_H
#define HIL_CLI_H

#include <signal.h>
#include <stddef.h>

struct hil_config;
struct hil_thresholds;

/* What main hands every command besides its arguments. */
struct cli_env {
	const volatile sig_atomic_t *stop; /* set by SIGINT and SIGTERM */
	int verbosity; /* the log level -v and -q leave (HIL_LOG_INFO: none) */
};

/* A subcommand: its handler's return is the exit status (the git way). */
struct cli_command {
	const char *name;    /* "crypt" */
	const char *summary; /* what it does, in one line */
	/* argv[0] is the command's name; -v and -q are still among the
	 * arguments (main has read them; cli_next_opt skips them). */
	int (*run)(int argc, char **argv, const struct cli_env *env);
	const char *usage; /* what hilrun NAME --help prints, on stdout */
	/* 0: main prints usage when --help or -h is anywhere among the
	 * arguments; 1: the handler reads --help in order with its other
	 * options (a run's --cflags value may itself be "--help"). */
	int reads_help;
};

/** The command called name in the table (commands.c), or NULL. */
const struct cli_command *cli_command_find(const char *name);

/* ------------------------- the commands, each in its cmd_NAME.c */

/* The handlers and --help texts of the table, which says what each is. */
int cli_run(int argc, char **argv, const struct cli_env *env);
extern const char cli_run_usage[];

int cli_crypt(int argc, char **argv, const struct cli_env *env);
extern const char cli_crypt_usage[];

int cli_doctor(int argc, char **argv, const struct cli_env *env);
extern const char cli_doctor_usage[];

int cli_sensor(int argc, char **argv, const struct cli_env *env);
extern const char cli_sensor_usage[];

int cli_report(int argc, char **argv, const struct cli_env *env);
extern const char cli_report_usage[];

int cli_compare(int argc, char **argv, const struct cli_env *env);
extern const char cli_compare_usage[];

int cli_serve(int argc, char **argv, const struct cli_env *env);
extern const char cli_serve_usage[];

int cli_boards(int argc, char **argv, const struct cli_env *env);
extern const char cli_boards_usage[];

int cli_pq(int argc, char **argv, const struct cli_env *env);
extern const char cli_pq_usage[];

/**
 * hilrun pq with its arguments, for the lab daemon's pq jobs: board_locked
 * 1 when the caller holds the board's lock already (hilrun serve takes it
 * for every job), so that the run does not take it a second time.
 * @return hilrun pq's exit status.
 */
int cli_pq_main(int argc, char **argv, const struct cli_env *env,
		int board_locked);

/**
 * The board of a pq configuration at path, as hilrun pq runs it: its
 * "board", "flasher" and "link" sections, or the emulated mps2 under the
 * cycle model when it has none (hil_pq_board_config()).
 * @return HIL_OK, or the loader's error with err set.
 */
int cli_pq_board(const char *path, struct hil_config *cfg, char *err,
		 size_t len);

int cli_history(int argc, char **argv, const struct cli_env *env);
extern const char cli_history_usage[];

/**
 * hilrun with options but no command: a run as with "hilrun run", but
 * where neither a configuration (--config, --sweep, --resume, --board) nor
 * a quick option is given it prints cli_run_usage on stderr (exit 2)
 * rather than run configs/qemu.json. argv[0] is what stood before the
 * options (the program's name, -v or -q).
 */
int cli_run_default(int argc, char **argv, const struct cli_env *env);

/* ------------------------------------------------ options: opts.c */

/* One option of a command. */
struct opt {
	const char *name; /* "--config", "-O" */
	int value;	  /* 0: a flag; 1: takes a value; 2: a value that may
			   * itself start with '-' (compiler flags) */
};

enum {
	OPT_POSITIONAL = -1,
	OPT_ERROR = -2,
	OPT_SKIP = -3, /* -v, -q: read before everything else */
};

/*
 * The option at argv[*i] among opts (n of them): "--name value" and
 * "--name=value" alike; cmd names the command in messages ("" for a run).
 * @return its index with *val set (NULL for a flag), OPT_POSITIONAL with
 * *val the argument, OPT_SKIP, or OPT_ERROR (logged, naming the option).
 */
int cli_next_opt(const char *cmd, int argc, char **argv, int *i,
		 const struct opt *opts, size_t n, const char **val);

/**
 * A whole number from min to max for option opt, or an error naming it.
 * @return HIL_OK with *out set, or HIL_ERR_ARG (logged).
 */
int cli_parse_uint(const char *opt, const char *s, unsigned long min,
		   unsigned long max, unsigned long *out);

/* -------- what more than one command calls: commands.c, cmd_compare.c */

/**
 * Load the configuration at path into cfg, logging what is wrong with it.
 * @return HIL_OK or the loader's error (logged).
 */
int cli_load_config(const char *path, struct hil_config *cfg);

/** The exit status of a command that ended with ret (enum hil_err). */
int cli_exit_status(int ret);

/**
 * A trusted user's run: is foreign code run unjailed? 1 when asked
 * (--no-jail) or when no jail can be set up here (warned, with the
 * reason); 0: jailed (util/jail.h).
 */
int cli_no_jail(int asked);

/**
 * Compare two reports (run folders or report.json files) and print the
 * comparison on stdout; cmd_compare.c, also the baseline gate of a run and
 * of the daemon's jobs.
 * @param t the thresholds; borrowed.
 * @param junit also write JUnit XML of the new report and the comparison
 *        there; NULL: none.
 * @param given the --threshold METRIC=PCT arguments, n_given of them: a
 *        metric the reports do not have is bad input; NULL when none.
 * @return 0 same or better, HIL_EXIT_REGRESSION when a row is worse than
 *         its threshold, HIL_EXIT_CANNOT_START on bad input (logged).
 */
/**
 * Refuse a results folder (it holds run folders: .history.sqlite, latest)
 * where a run folder is wanted, saying so; what names the command.
 * @return HIL_OK (not a results folder, or a run or sweep folder too), or
 *         HIL_ERR_ARG (reported).
 */
int cli_not_a_results_folder(const char *dir, const char *what);

int cli_compare_reports(const char *base_arg, const char *new_arg,
			const struct hil_thresholds *t, const char *junit,
			const char *const *given, size_t n_given);

#endif /* HIL_CLI_H */
