/* cmd_run_board: a run's board: its entry of the hardware map (--board, board.id), its lock, and the default configuration of its platform. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"hilrun"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd_run.h"
#include "config/config.h"
#include "lab/boards.h"
#include "lab/lock.h"
#include "util/err.h"
#include "util/log.h"

/* The configuration as a message names it: its file, or what it is. */
static const char *shown_config(const struct hil_config *cfg)
{
	return cfg->path[0] != '\0'
		       ? cfg->path
		       : "the configuration of the command-line options";
}

int cli_apply_board_map(struct hil_config *cfg, const char *board,
			struct run_end *end)
{
	struct hil_boards map;
	const char *path = hil_boards_path();
	char err[1024];
	int have_map;
	int ret;

	if (board == NULL && cfg->board.id[0] == '\0') {
		return HIL_OK;
	}
	memset(&map, 0, sizeof(map));
	have_map = access(path, R_OK) == 0;
	if (have_map) {
		ret = hil_boards_load(path, &map, err, sizeof(err));
		if (ret != HIL_OK) {
			hil_err("%s", err);
			snprintf(end->error, sizeof(end->error), "%s", err);
			return ret;
		}
	}
	if (board != NULL && have_map && hil_boards_find(&map, board) != NULL &&
	    strcmp(hil_boards_find(&map, board)->platform, cfg->board.name) !=
		    0) {
		/* --board names a board of another platform than the
		 * configuration's: say which file, and what to give. */
		const char *plat = hil_boards_find(&map, board)->platform;
		const char *def = hil_boards_default_config(plat);

		snprintf(
			err, sizeof(err),
			"--board %s is a %s (%s), but %s is a configuration for %s (its board.name): %s%s%s",
			board, plat, path, shown_config(cfg), cfg->board.name,
			def != NULL
				? "leave --config out to run the platform's default, "
				: "give --config a configuration whose board.name is ",
			def != NULL ? def : plat,
			def != NULL ? ", or give a configuration for it" : "");
		hil_err("%s", err);
		snprintf(end->error, sizeof(end->error), "%s", err);
		hil_boards_free(&map);
		return HIL_ERR_CONFIG;
	}
	if (board != NULL) {
		ret = hil_boards_use(have_map ? &map : NULL, board, cfg, err,
				     sizeof(err));
	} else {
		ret = hil_boards_apply(have_map ? &map : NULL, cfg, err,
				       sizeof(err));
	}
	if (ret != HIL_OK) {
		hil_err("%s: %s", shown_config(cfg), err);
		snprintf(end->error, sizeof(end->error), "%s: %s",
			 shown_config(cfg), err);
	}
	if (have_map) {
		hil_boards_free(&map);
	}
	return ret;
}

int cli_lock_board(const struct hil_config *cfg, const char *config_path,
		   unsigned wait_s, struct hil_lock *lock, struct run_end *end)
{
	struct hil_boards map;
	char err[1024];
	char *msg = NULL;
	const char *id;
	int have_map;
	int ret;

	memset(&map, 0, sizeof(map));
	have_map = access(hil_boards_path(), R_OK) == 0 &&
		   hil_boards_load(hil_boards_path(), &map, err, sizeof(err)) ==
			   HIL_OK;
	id = hil_boards_run_lock(have_map ? &map : NULL, cfg);
	if (id == NULL) {
		/* The bare emulator: a QEMU of this run's own, no lock. */
		snprintf(end->board, sizeof(end->board), "%s", cfg->board.name);
		if (have_map) {
			hil_boards_free(&map);
		}
		return HIL_OK;
	}
	snprintf(end->board, sizeof(end->board), "%s", id);
	/* A board busy for more than a second: say once who holds it (by
	 * then it has written its name into the lock), then wait quietly. */
	ret = hil_lock_acquire(lock, NULL, id, config_path,
			       wait_s < 1 ? wait_s : 1, &msg);
	if (ret == HIL_ERR_TIMEOUT && wait_s > 1) {
		hil_info("%s: waiting up to %u s for it", msg, wait_s);
		free(msg);
		msg = NULL;
		ret = hil_lock_acquire(lock, NULL, id, config_path, wait_s - 1,
				       &msg);
		if (ret == HIL_OK) {
			hil_info("board %s is ours now", id);
		}
	}
	if (ret != HIL_OK) {
		hil_err("%s", msg != NULL ? msg : hil_strerror(ret));
		snprintf(end->error, sizeof(end->error), "%s",
			 msg != NULL ? msg : hil_strerror(ret));
		/* Busy for longer than --wait: worth trying again later. */
		end->transient = ret == HIL_ERR_TIMEOUT;
	}
	free(msg);
	if (have_map) {
		hil_boards_free(&map);
	}
	return ret;
}

int cli_board_default_config(const char *id, char *out, size_t len,
			     struct run_end *end)
{
	struct hil_boards map;
	const struct hil_board *b;
	const char *path = hil_boards_path();
	const char *cfg;
	char err[1024];
	int ret;

	ret = hil_boards_load(path, &map, err, sizeof(err));
	if (ret != HIL_OK) {
		hil_err("--board %s: %s", id, err);
		snprintf(end->error, sizeof(end->error), "%s", err);
		return ret;
	}
	b = hil_boards_find(&map, id);
	cfg = b != NULL ? hil_boards_default_config(b->platform) : NULL;
	if (b == NULL) {
		snprintf(end->error, sizeof(end->error),
			 "--board %s: no such board in the hardware map %s", id,
			 path);
		ret = HIL_ERR_CONFIG;
	} else if (cfg == NULL) {
		snprintf(
			end->error, sizeof(end->error),
			"--board %s: a %s has no default configuration: give --config FILE",
			id, b->platform);
		ret = HIL_ERR_CONFIG;
	} else {
		snprintf(out, len, "%s", cfg);
	}
	if (ret != HIL_OK) {
		hil_err("%s", end->error);
	}
	hil_boards_free(&map);
	return ret;
}
