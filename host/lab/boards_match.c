/* boards_match: finds a config's board in the hardware map, takes its port and probe into the config, names the lock and checks the MCU's UID. */
#define _POSIX_C_SOURCE 200809L
#include "boards.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "drivers/board/board.h"
#include "drivers/link/link.h"
#include "drivers/sensor/sensor.h"
#include "lab/lock.h"
#include "util/err.h"

const struct hil_board *hil_boards_find(const struct hil_boards *map,
					const char *id)
{
	size_t i;

	if (map == NULL || id == NULL) {
		return NULL;
	}
	for (i = 0; i < map->n; i++) {
		if (strcmp(map->boards[i].id, id) == 0) {
			return &map->boards[i];
		}
	}
	return NULL;
}

const struct hil_board *hil_boards_match(const struct hil_boards *map,
					 const struct hil_config *cfg)
{
	size_t i;

	if (map == NULL || cfg == NULL) {
		return NULL;
	}
	if (cfg->board.id[0] != '\0') {
		return hil_boards_find(map, cfg->board.id);
	}
	/* The probe serial is the stronger identity: ports get renumbered. */
	if (cfg->flasher.probe_serial[0] != '\0') {
		for (i = 0; i < map->n; i++) {
			if (strcmp(map->boards[i].probe_id,
				   cfg->flasher.probe_serial) == 0) {
				return &map->boards[i];
			}
		}
	}
	if (hil_link_needs_port(cfg->link.type) && cfg->link.port[0] != '\0') {
		for (i = 0; i < map->n; i++) {
			if (strcmp(map->boards[i].serial, cfg->link.port) ==
			    0) {
				return &map->boards[i];
			}
		}
	}
	return NULL;
}

int hil_boards_apply(const struct hil_boards *map, struct hil_config *cfg,
		     char *err, size_t len)
{
	const struct hil_board *b;
	size_t i, used = 0;

	if (cfg->board.id[0] == '\0') {
		return HIL_OK;
	}
	b = map != NULL ? hil_boards_find(map, cfg->board.id) : NULL;
	if (b == NULL) {
		used = (size_t)snprintf(
			err, len,
			"board.id \"%s\" is not in the hardware map %s (known:",
			cfg->board.id,
			map != NULL && map->path[0] != '\0'
				? map->path
				: "configs/boards.json");
		for (i = 0; map != NULL && i < map->n && used < len; i++) {
			used += (size_t)snprintf(err + used, len - used, " %s",
						 map->boards[i].id);
		}
		if (used < len) {
			snprintf(err + used, len - used, ")");
		}
		return HIL_ERR_CONFIG;
	}
	if (strcmp(b->platform, cfg->board.name) != 0) {
		snprintf(
			err, len,
			"board.id \"%s\" is a %s in the hardware map, but board.name is %s",
			b->id, b->platform, cfg->board.name);
		return HIL_ERR_CONFIG;
	}
	if (cfg->flasher.probe_serial[0] == '\0') {
		snprintf(cfg->flasher.probe_serial,
			 sizeof(cfg->flasher.probe_serial), "%s", b->probe_id);
	}
	if (cfg->link.port[0] == '\0' && b->serial[0] != '\0') {
		snprintf(cfg->link.port, sizeof(cfg->link.port), "%s",
			 b->serial);
	}
	if (b->baud != 0) {
		cfg->link.baud = b->baud;
	}
	if (hil_link_needs_port(cfg->link.type) && cfg->link.port[0] == '\0') {
		snprintf(
			err, len,
			"board \"%s\" has no \"serial\" port in the hardware map and the config gives no link.port",
			b->id);
		return HIL_ERR_CONFIG;
	}
	return HIL_OK;
}

int hil_boards_use(const struct hil_boards *map, const char *id,
		   struct hil_config *cfg, char *err, size_t len)
{
	const struct hil_board *b;

	if (!hil_lock_id_valid(id)) {
		snprintf(
			err, len,
			"board \"%s\" is not a board id: 1 to %d characters from A-Z a-z 0-9 . _ -",
			id, HIL_LOCK_ID_MAX - 1);
		return HIL_ERR_CONFIG;
	}
	snprintf(cfg->board.id, sizeof(cfg->board.id), "%s", id);
	b = map != NULL ? hil_boards_find(map, id) : NULL;
	if (b != NULL) {
		/* The lab's map, not the experiment's config, knows where
		 * this board is: never program the config's probe while
		 * holding another board's lock. */
		if (b->probe_id[0] == '\0' &&
		    cfg->flasher.probe_serial[0] != '\0') {
			snprintf(
				err, len,
				"board \"%s\" has no \"probe_id\" in the hardware map %s, but the config names probe %s: add the board's probe_id to the map",
				b->id, map->path[0] != '\0' ? map->path : "",
				cfg->flasher.probe_serial);
			return HIL_ERR_CONFIG;
		}
		snprintf(cfg->flasher.probe_serial,
			 sizeof(cfg->flasher.probe_serial), "%s", b->probe_id);
		if (b->serial[0] != '\0') {
			snprintf(cfg->link.port, sizeof(cfg->link.port), "%s",
				 b->serial);
		}
		if (b->sensor[0] != '\0' && hil_sensor_configured(cfg)) {
			snprintf(cfg->sensor.bus, sizeof(cfg->sensor.bus), "%s",
				 b->sensor);
		}
	}
	/* The unknown id, the platform, the baud and the serial port's
	 * presence are checked as for a config's own board.id. */
	return hil_boards_apply(map, cfg, err, len);
}

const char *hil_boards_path(void)
{
	const char *p = getenv("HILRUN_BOARDS");

	return p != NULL && p[0] != '\0' ? p : "configs/boards.json";
}

const char *hil_boards_default_config(const char *platform)
{
	const struct hil_board_driver *b = hil_board_find(platform);

	return b != NULL ? b->default_config : NULL;
}

int hil_boards_check_uid(const struct hil_board *b, const char *uid_hex,
			 char *msg, size_t len)
{
	if (b == NULL || b->uid[0] == '\0' ||
	    strcasecmp(b->uid, uid_hex) == 0) {
		return HIL_OK;
	}
	snprintf(
		msg, len,
		"board \"%s\" of the hardware map has UID %s, but the board that answered%s%s reports UID %s: another board is plugged in there, or the map's \"uid\" is out of date (copy it from a report's board.uid)",
		b->id, b->uid, b->probe_id[0] != '\0' ? " on probe " : "",
		b->probe_id, uid_hex);
	return HIL_ERR_MISMATCH;
}

const char *hil_boards_lock_id(const struct hil_boards *map,
			       const struct hil_config *cfg)
{
	const struct hil_board *b = hil_boards_match(map, cfg);

	return b != NULL ? b->id : cfg->board.name;
}

const char *hil_boards_run_lock(const struct hil_boards *map,
				const struct hil_config *cfg)
{
	/* An emulator is not a board to share: every run starts a QEMU of
	 * its own, so two users' or two CI jobs' emulated runs go side by
	 * side (issue #14). */
	if (hil_board_emulated(cfg->board.name) &&
	    hil_boards_match(map, cfg) == NULL) {
		return NULL;
	}
	return hil_boards_lock_id(map, cfg);
}
