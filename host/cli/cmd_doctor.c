/* cmd_doctor: hilrun doctor, the command line of the check that a configuration's tools, probe, port and sensor are there. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"hilrun"

#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "config/config.h"
#include "doctor.h"
#include "result/result.h"
#include "util/err.h"
#include "util/log.h"

const char cli_doctor_usage[] =
	"usage: hilrun doctor --config FILE\n"
	"Checks the tools, probe, port and sensor a configuration needs, one\n"
	"line each, with what to do about a missing one.\n"
	"exit: 0 every check passed, 2 something is missing\n";

static int cmd_doctor(int argc, char **argv)
{
	static const struct opt opts[] = {{"--config", 1}};
	struct hil_config *cfg;
	const char *path = NULL;
	const char *v;
	int i;
	int ret;

	for (i = 1; i < argc; i++) {
		int k = cli_next_opt("doctor", argc, argv, &i, opts, 1, &v);

		if (k == OPT_SKIP) {
			continue;
		}
		if (k != 0) {
			if (k == OPT_POSITIONAL) {
				hil_err("doctor: unexpected argument \"%s\" (usage: hilrun doctor --config FILE)",
					v);
			}
			return HIL_ERR_ARG;
		}
		path = v;
	}
	if (path == NULL) {
		hil_err("doctor: --config FILE is missing (usage: hilrun doctor --config FILE)");
		return HIL_ERR_ARG;
	}
	cfg = calloc(1, sizeof(*cfg));
	if (cfg == NULL) {
		return HIL_ERR_NOMEM;
	}
	ret = cli_load_config(path, cfg);
	if (ret == HIL_OK) {
		ret = hil_doctor(cfg, stdout);
	}
	hil_config_free(cfg);
	free(cfg);
	return ret;
}

int cli_doctor(int argc, char **argv, const struct cli_env *env)
{
	(void)env;
	/* Every check passed: 0; something is missing: 2. */
	return cmd_doctor(argc, argv) == HIL_OK ? 0 : HIL_EXIT_CANNOT_START;
}
