/* cmd_boards: hilrun boards, the hardware map and which of its boards are connected and free, for people or (--json) programs. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"hilrun"

#include <stdio.h>

#include "cli.h"
#include "lab/boards.h"
#include "result/result.h"
#include "util/err.h"
#include "util/log.h"

const char cli_boards_usage[] =
	"usage: hilrun boards [--json]\n"
	"The hardware map ($HILRUN_BOARDS, default configs/boards.json) and\n"
	"which boards are connected and free; --json for programs.\n"
	"exit: 0 listed, 2 no readable map\n";

/* hilrun boards [--json]: the hardware map, and which boards are here and
 * free; --json for programs (a CI engine's configuration generator). */
static int cmd_boards(int argc, char **argv)
{
	struct hil_boards map;
	char err[1024];
	int json = 0;
	int i;
	int ret;

	for (i = 1; i < argc; i++) {
		static const struct opt opts[] = {{"--json", 0}};
		const char *v;
		int k = cli_next_opt("boards", argc, argv, &i, opts, 1, &v);

		if (k == OPT_SKIP) {
			continue;
		}
		if (k == OPT_POSITIONAL) {
			hil_err("boards: unexpected argument \"%s\" (usage: hilrun boards [--json])",
				v);
			return HIL_ERR_ARG;
		}
		if (k == OPT_ERROR) {
			return HIL_ERR_ARG;
		}
		json = 1;
	}
	ret = hil_boards_load(hil_boards_path(), &map, err, sizeof(err));
	if (ret != HIL_OK) {
		hil_err("%s", err);
		return ret;
	}
	ret = json ? hil_boards_list_json(&map, stdout)
		   : hil_boards_list(&map, stdout);
	hil_boards_free(&map);
	return ret;
}

int cli_boards(int argc, char **argv, const struct cli_env *env)
{
	(void)env;
	return cmd_boards(argc, argv) == HIL_OK ? 0 : HIL_EXIT_CANNOT_START;
}
