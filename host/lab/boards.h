/* boards: the lab's hardware map (configs/boards.json, Zephyr twister's keys where they apply): which board is where. */
#ifndef HIL_BOARDS_H
#define HIL_BOARDS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "config/config.h"
#include "lock.h"

#define HIL_BOARDS_MAX 64 /* entries in one map */

/*
 * One board of the map. Keys as in twister's hardware map where they apply
 * (id, platform, product, runner, serial, baud, probe_id, connected); ours:
 * sensor, uid. docs/lab.md describes each.
 */
struct hil_board {
	char id[HIL_LOCK_ID_MAX]; /* "nucleo-1": names the board and its lock */
	char platform[HIL_CFG_NAME]; /* a board.name of the configs: "nucleo-f401re" */
	char product[HIL_CFG_STR]; /* free text: "STM32 STLink" */
	char runner[HIL_CFG_NAME]; /* "openocd" | "qemu" | "native"; "" if absent */
	char serial[HIL_CFG_STR]; /* the serial port: "/dev/ttyACM0"; "" if none */
	uint32_t baud;		  /* 0 if absent */
	char probe_id[HIL_CFG_NAME]; /* debug probe serial number; "" if absent */
	char sensor[HIL_CFG_STR]; /* power sensor bus spec "ftdi:0403:6014"; "" */
	char uid[25];  /* the MCU's 96-bit unique ID, 24 hex digits; "" */
	int connected; /* default 1; 0: listed but unplugged */
};

struct hil_boards {
	char path[HIL_CFG_STR];	  /* file it was loaded from */
	struct hil_board *boards; /* n entries, malloc'd */
	size_t n;
};

/**
 * Load and validate a hardware map: a JSON array of objects. Unknown keys,
 * wrong types, a missing id or platform, a bad id, uid, baud, runner or
 * sensor spec, and duplicate ids are errors naming the file and the JSON
 * path, e.g. "configs/boards.json: [1].uid: expected 24 hex digits".
 * @param map filled on success; free with hil_boards_free(). Untouched on
 *        failure.
 * @param err receives the message (errlen bytes); may be NULL.
 * @return HIL_OK, HIL_ERR_CONFIG (invalid), HIL_ERR_IO (unreadable),
 *         HIL_ERR_NOMEM, HIL_ERR_ARG (NULL arguments).
 */
int hil_boards_load(const char *path, struct hil_boards *map, char *err,
		    size_t errlen);

/** As hil_boards_load, from a JSON text; messages have no file prefix. */
int hil_boards_parse(const char *json, struct hil_boards *map, char *err,
		     size_t errlen);

/** Free what a load allocated; map is left empty. NULL is allowed. */
void hil_boards_free(struct hil_boards *map);

/** The board with this id, or NULL. Borrowed from map. */
const struct hil_board *hil_boards_find(const struct hil_boards *map,
					const char *id);

/**
 * The board a configuration runs on: the entry named by its board.id, else
 * the entry whose probe_id is the config's flasher.probe_serial, else whose
 * serial is its link.port (for a serial link). This is how a run finds its
 * lock and the UID to expect. @return the entry (borrowed) or NULL.
 */
const struct hil_board *hil_boards_match(const struct hil_boards *map,
					 const struct hil_config *cfg);

/**
 * The lock id for a run of cfg: the matched board's id, else the config's
 * board.name ("qemu-netduino"), so that runs on the same kind of unmapped
 * board never overlap. map may be NULL.
 */
const char *hil_boards_lock_id(const struct hil_boards *map,
			       const struct hil_config *cfg);

/**
 * Whether a run of cfg takes a board lock, and which: every board does
 * (its hil_boards_lock_id()), except the bare emulator, a QEMU of the
 * run's own that no other run shares (an emulated board of the map, taken
 * by board.id or --board, is locked like any). A single run and each
 * configuration of a sweep decide it here. map may be NULL.
 * @return the lock id (borrowed from map or cfg), or NULL: no lock.
 */
const char *hil_boards_run_lock(const struct hil_boards *map,
				const struct hil_config *cfg);

/**
 * A config that names its board by id takes what the map knows of it: the
 * probe serial and the serial port (where the config leaves them empty),
 * the port's baud rate (where the map gives one).
 * @param err receives why not (len bytes): an id the map does not have
 *        (the known ids listed), or a board of another platform.
 * @return HIL_OK (also when cfg names no id), HIL_ERR_CONFIG.
 */
int hil_boards_apply(const struct hil_boards *map, struct hil_config *cfg,
		     char *err, size_t len);

/**
 * The run is to use board id (hilrun --board ID, $HILRUN_BOARD): cfg's
 * board.id becomes id, and what the map knows of the board replaces the
 * config's: the probe serial, the serial port and its baud rate, and, when
 * cfg measures energy (a sensor.type other than "none"), the sensor's bus. The map's
 * platform must be cfg's board.name.
 * @param err receives why not (len bytes): an id the map does not have
 *        (the known ids listed), or a board of another platform.
 * @return HIL_OK, HIL_ERR_CONFIG.
 */
int hil_boards_use(const struct hil_boards *map, const char *id,
		   struct hil_config *cfg, char *err, size_t len);

/**
 * The hardware map's path: $HILRUN_BOARDS if set and not empty (a lab
 * host's map kept outside the checkout a CI engine makes), else
 * "configs/boards.json" in the working directory. Never NULL.
 */
const char *hil_boards_path(void);

/**
 * The configuration a board of this platform runs when no --config is
 * given with --board: "configs/qemu.json", "configs/nucleo.json". NULL for
 * a platform without one.
 */
const char *hil_boards_default_config(const char *platform);

/**
 * Is the board that answered the one the map names? Compares the MCU's
 * unique ID the stub reported (as a report's board.uid: the bytes in the
 * order received, lower-case hex) with the entry's "uid".
 * @param b the matched entry; NULL, or one without a uid, always passes.
 * @param msg receives why not (len bytes), naming the board, both UIDs and
 *        what to do.
 * @return HIL_OK or HIL_ERR_MISMATCH.
 */
int hil_boards_check_uid(const struct hil_board *b, const char *uid_hex,
			 char *msg, size_t len);

/**
 * Print one line per board: id, platform, runner, whether its serial port
 * exists, whether its probe is on the USB bus (Linux sysfs), and whether
 * its lock (in the default lock directory, see hil_lock_default_dir()) is
 * free or who holds it; a header line first. A board marked
 * "connected": false says so instead of the port and probe checks.
 * @return HIL_OK, or HIL_ERR_IO if out could not be written.
 */
int hil_boards_list(const struct hil_boards *map, FILE *out);

/**
 * What hil_boards_list prints, as JSON for programs (a CI engine's
 * configuration generator): an array with one object per board holding
 * every key of the map (absent strings as null, baud 0 as null), plus
 * "port_present" and "probe_present" (true, false, or null when not
 * checked or not knowable) and "lock": {"state": "free" | "held" |
 * "unknown", "holder": the holder message or null}.
 * @return HIL_OK, HIL_ERR_NOMEM, or HIL_ERR_IO if out could not be written.
 */
int hil_boards_list_json(const struct hil_boards *map, FILE *out);

#endif /* HIL_BOARDS_H */
