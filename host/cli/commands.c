/* commands: the helpers more than one of hilrun's commands calls. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"hilrun"

#include "cli.h"
#include "config/config.h"
#include "run/result.h"
#include "util/err.h"
#include "util/log.h"

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
