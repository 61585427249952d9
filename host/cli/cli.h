/* cli: what the files of hilrun's command line share; private to host/cli. */
#ifndef HIL_CLI_H
#define HIL_CLI_H

#include <stddef.h>

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

#endif /* HIL_CLI_H */
