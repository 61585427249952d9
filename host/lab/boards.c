/* boards: loads and checks the hardware map, finds a config's board, and lists the lab's boards with port, probe and lock state. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"boards"
#include "boards.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "drivers/board/board.h"
#include "drivers/flasher/flasher.h"
#include "util/err.h"
#include "util/log.h"
#include "util/util.h"

/* A hardware map is a few kilobytes; anything this large is not one. */
#define MAX_FILE_BYTES (1024 * 1024)
#define SHOW	       72 /* room for a value quoted in a message */
#define MAX_BAUD       12000000u
#define SYSFS_USB      "/sys/bus/usb/devices"

static const char *const known_keys[] = {
	"id",	    "platform", "product", "runner",	"serial", "baud",
	"probe_id", "sensor",	"uid",	   "connected", NULL,
};
/* Bus backends of host/i2c (hil_i2c_open). */
static const char *const sensor_buses[] = {"ftdi", "linux", "sim", NULL};

struct ctx {
	const char *file; /* NULL for parsed text */
	char *err;
	size_t errlen;
};

static int fail(const struct ctx *c, int ret, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(const struct ctx *c, int ret, const char *fmt, ...)
{
	va_list ap;
	size_t off = 0;
	int n;

	if (c->err == NULL || c->errlen == 0) {
		return ret;
	}
	if (c->file != NULL) {
		n = snprintf(c->err, c->errlen, "%s: ", c->file);
		off = n < 0 ? 0 : (size_t)n;
		if (off >= c->errlen) {
			return ret;
		}
	}
	va_start(ap, fmt);
	vsnprintf(c->err + off, c->errlen - off, fmt, ap);
	va_end(ap);
	return ret;
}

/* A value as it may be printed in a message: escaped, cut with "...". */
static const char *show(char *buf, size_t size, const char *s)
{
	size_t o = 0;

	for (; *s != '\0'; s++) {
		unsigned char ch = (unsigned char)*s;

		if (o + 8 > size) {
			memcpy(buf + o, "...", 4);
			return buf;
		}
		if (ch < 0x20 || ch == 0x7f) {
			o += (size_t)snprintf(buf + o, size - o, "\\x%02x", ch);
		} else {
			if (ch == '"' || ch == '\\') {
				buf[o++] = '\\';
			}
			buf[o++] = (char)ch;
		}
	}
	buf[o] = '\0';
	return buf;
}

static int in_list(const char *const *list, const char *s)
{
	for (; *list != NULL; list++) {
		if (strcmp(*list, s) == 0) {
			return 1;
		}
	}
	return 0;
}

static int get_str(const struct ctx *c, size_t i, const cJSON *it, char *out,
		   size_t len)
{
	char sb[SHOW];

	if (!cJSON_IsString(it)) {
		return fail(c, HIL_ERR_CONFIG, "[%zu].%s: expected a string", i,
			    it->string);
	}
	if (strlen(it->valuestring) >= len) {
		return fail(
			c, HIL_ERR_CONFIG,
			"[%zu].%s: \"%s\" is too long (at most %zu characters)",
			i, it->string, show(sb, sizeof(sb), it->valuestring),
			len - 1);
	}
	memcpy(out, it->valuestring, strlen(it->valuestring) + 1);
	return HIL_OK;
}

static int is_hex(const char *s)
{
	for (; *s != '\0'; s++) {
		if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f') ||
		      (*s >= 'A' && *s <= 'F'))) {
			return 0;
		}
	}
	return 1;
}

static int check_value(const struct ctx *c, size_t i, const cJSON *it,
		       struct hil_board *b)
{
	const char *k = it->string;
	char sb[SHOW];
	int ret;

	if (strcmp(k, "connected") == 0) {
		if (!cJSON_IsBool(it)) {
			return fail(c, HIL_ERR_CONFIG,
				    "[%zu].connected: expected true or false",
				    i);
		}
		b->connected = cJSON_IsTrue(it);
		return HIL_OK;
	}
	if (strcmp(k, "baud") == 0) {
		double v = it->valuedouble;

		if (!cJSON_IsNumber(it) || v < 1 || v > MAX_BAUD ||
		    v != (double)(uint32_t)v) {
			return fail(
				c, HIL_ERR_CONFIG,
				"[%zu].baud: expected an integer from 1 to %u",
				i, MAX_BAUD);
		}
		b->baud = (uint32_t)v;
		return HIL_OK;
	}
	if (strcmp(k, "id") == 0) {
		ret = get_str(c, i, it, b->id, sizeof(b->id));
		if (ret == HIL_OK && !hil_lock_id_valid(b->id)) {
			ret = fail(
				c, HIL_ERR_CONFIG,
				"[%zu].id: \"%s\" is not a board id: 1 to %d characters from A-Z a-z 0-9 . _ -",
				i, show(sb, sizeof(sb), b->id),
				HIL_LOCK_ID_MAX - 1);
		}
		return ret;
	}
	if (strcmp(k, "platform") == 0) {
		ret = get_str(c, i, it, b->platform, sizeof(b->platform));
		if (ret == HIL_OK && b->platform[0] == '\0') {
			ret = fail(c, HIL_ERR_CONFIG,
				   "[%zu].platform: must not be empty", i);
		}
		return ret;
	}
	if (strcmp(k, "product") == 0) {
		return get_str(c, i, it, b->product, sizeof(b->product));
	}
	if (strcmp(k, "runner") == 0) {
		ret = get_str(c, i, it, b->runner, sizeof(b->runner));
		/* The runners hilrun drives are its flasher drivers. */
		if (ret == HIL_OK && hil_flasher_find(b->runner) == NULL) {
			const struct hil_flasher_ops *const *all =
				hil_flasher_all();
			const char *names[32];
			char expected[256];
			size_t n;

			for (n = 0; n < 31 && all[n] != NULL; n++) {
				names[n] = all[n]->name;
			}
			names[n] = NULL;
			hil_drivers_join(expected, sizeof(expected), names);
			ret = fail(
				c, HIL_ERR_CONFIG,
				"[%zu].runner: \"%s\" is not a runner hilrun drives: expected %s",
				i, show(sb, sizeof(sb), b->runner), expected);
		}
		return ret;
	}
	if (strcmp(k, "serial") == 0) {
		return get_str(c, i, it, b->serial, sizeof(b->serial));
	}
	if (strcmp(k, "probe_id") == 0) {
		return get_str(c, i, it, b->probe_id, sizeof(b->probe_id));
	}
	if (strcmp(k, "sensor") == 0) {
		char bus[16];
		const char *colon;

		ret = get_str(c, i, it, b->sensor, sizeof(b->sensor));
		if (ret != HIL_OK) {
			return ret;
		}
		colon = strchr(b->sensor, ':');
		if (colon != NULL &&
		    (size_t)(colon - b->sensor) < sizeof(bus)) {
			memcpy(bus, b->sensor, (size_t)(colon - b->sensor));
			bus[colon - b->sensor] = '\0';
		} else {
			bus[0] = '\0';
		}
		if (colon == NULL || colon[1] == '\0' ||
		    !in_list(sensor_buses, bus)) {
			return fail(
				c, HIL_ERR_CONFIG,
				"[%zu].sensor: \"%s\" is not a bus spec: expected \"ftdi:VID:PID[:SERIAL]\", \"linux:/dev/i2c-N\" or \"sim:...\"",
				i, show(sb, sizeof(sb), b->sensor));
		}
		return HIL_OK;
	}
	if (strcmp(k, "uid") == 0) {
		if (!cJSON_IsString(it)) {
			return fail(c, HIL_ERR_CONFIG,
				    "[%zu].uid: expected a string", i);
		}
		if (strlen(it->valuestring) != 24 || !is_hex(it->valuestring)) {
			return fail(
				c, HIL_ERR_CONFIG,
				"[%zu].uid: expected 24 hex digits (the MCU's 96-bit unique ID), got \"%s\"",
				i, show(sb, sizeof(sb), it->valuestring));
		}
		memcpy(b->uid, it->valuestring, 25);
		return HIL_OK;
	}
	{
		char known[160] = "";
		size_t j;

		for (j = 0; known_keys[j] != NULL; j++) {
			strcat(known, j > 0 ? ", " : "");
			strcat(known, known_keys[j]);
		}
		return fail(c, HIL_ERR_CONFIG,
			    "[%zu].%s: unknown key (known: %s)", i,
			    show(sb, sizeof(sb), k), known);
	}
}

static int check_board(const struct ctx *c, size_t i, const cJSON *o,
		       struct hil_board *b)
{
	const cJSON *it, *prev;
	char sb[SHOW];
	int ret;

	if (!cJSON_IsObject(o)) {
		return fail(c, HIL_ERR_CONFIG,
			    "[%zu]: expected an object describing a board", i);
	}
	memset(b, 0, sizeof(*b));
	b->connected = 1;
	cJSON_ArrayForEach(it, o)
	{
		/* cJSON keeps both of a repeated key; we do not guess. */
		for (prev = o->child; prev != it; prev = prev->next) {
			if (strcmp(prev->string, it->string) == 0) {
				return fail(c, HIL_ERR_CONFIG,
					    "[%zu].%s: key given twice", i,
					    show(sb, sizeof(sb), it->string));
			}
		}
		ret = check_value(c, i, it, b);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	if (b->id[0] == '\0') {
		return fail(c, HIL_ERR_CONFIG, "[%zu].id: required", i);
	}
	if (b->platform[0] == '\0') {
		return fail(c, HIL_ERR_CONFIG, "[%zu].platform: required", i);
	}
	return HIL_OK;
}

static int parse(const struct ctx *c, const char *text, size_t len,
		 struct hil_boards *map)
{
	struct hil_board *boards = NULL;
	const char *end = NULL;
	const cJSON *o;
	cJSON *root;
	size_t i = 0, j, line, col;
	int ret = HIL_OK;

	if (memchr(text, '\0', len) != NULL) {
		return fail(c, HIL_ERR_CONFIG, "NUL byte in the text");
	}
	root = cJSON_ParseWithLengthOpts(text, len + 1, &end, 1);
	if (root == NULL) {
		size_t off = 0;

		if (end != NULL && end >= text && end <= text + len) {
			off = (size_t)(end - text);
		}
		hil_text_line_col(text, off, &line, &col);
		return fail(c, HIL_ERR_CONFIG,
			    "line %zu, column %zu: not valid JSON", line, col);
	}
	if (!cJSON_IsArray(root)) {
		ret = fail(
			c, HIL_ERR_CONFIG,
			"expected a JSON array of boards ([{\"id\": ..., \"platform\": ...}, ...])");
		goto out;
	}
	if ((size_t)cJSON_GetArraySize(root) > HIL_BOARDS_MAX) {
		ret = fail(c, HIL_ERR_CONFIG, "[%d]: at most %d boards",
			   HIL_BOARDS_MAX, HIL_BOARDS_MAX);
		goto out;
	}
	boards = calloc((size_t)cJSON_GetArraySize(root) + 1, sizeof(*boards));
	if (boards == NULL) {
		ret = fail(c, HIL_ERR_NOMEM, "out of memory");
		goto out;
	}
	cJSON_ArrayForEach(o, root)
	{
		ret = check_board(c, i, o, &boards[i]);
		if (ret != HIL_OK) {
			goto out;
		}
		for (j = 0; j < i; j++) {
			if (strcmp(boards[j].id, boards[i].id) == 0) {
				ret = fail(
					c, HIL_ERR_CONFIG,
					"[%zu].id: \"%s\" is already the id of [%zu]",
					i, boards[i].id, j);
				goto out;
			}
		}
		i++;
	}
	map->boards = boards;
	map->n = i;
	boards = NULL;
out:
	free(boards);
	cJSON_Delete(root);
	return ret;
}

int hil_boards_parse(const char *json, struct hil_boards *map, char *err,
		     size_t errlen)
{
	struct ctx c = {NULL, err, errlen};
	struct hil_boards m;
	int ret;

	if (err != NULL && errlen > 0) {
		err[0] = '\0';
	}
	if (json == NULL || map == NULL) {
		return fail(&c, HIL_ERR_ARG, "no hardware map given");
	}
	memset(&m, 0, sizeof(m));
	ret = parse(&c, json, strlen(json), &m);
	if (ret == HIL_OK) {
		*map = m;
	}
	return ret;
}

int hil_boards_load(const char *path, struct hil_boards *map, char *err,
		    size_t errlen)
{
	struct ctx c = {path, err, errlen};
	struct hil_boards m;
	struct stat st;
	char *text = NULL;
	size_t len = 0;
	int ret;

	if (err != NULL && errlen > 0) {
		err[0] = '\0';
	}
	if (path == NULL || map == NULL) {
		c.file = NULL;
		return fail(&c, HIL_ERR_ARG, "no hardware map given");
	}
	memset(&m, 0, sizeof(m));
	if (strlen(path) >= sizeof(m.path)) {
		c.file = NULL;
		return fail(&c, HIL_ERR_ARG, "hardware map path too long");
	}
	if (stat(path, &st) != 0) {
		return fail(&c, HIL_ERR_IO, "cannot read: %s", strerror(errno));
	}
	if (!S_ISREG(st.st_mode) || st.st_size > MAX_FILE_BYTES) {
		return fail(&c, HIL_ERR_IO,
			    "not a regular file of at most %d bytes",
			    MAX_FILE_BYTES);
	}
	/* hil_read_file logs its own error; ours names the file too. */
	ret = hil_read_file(path, &text, &len);
	if (ret != HIL_OK) {
		return fail(&c, ret, "cannot read: %s", hil_strerror(ret));
	}
	ret = parse(&c, text, len, &m);
	free(text);
	if (ret == HIL_OK) {
		snprintf(m.path, sizeof(m.path), "%s", path);
		*map = m;
	}
	return ret;
}

void hil_boards_free(struct hil_boards *map)
{
	if (map == NULL) {
		return;
	}
	free(map->boards);
	memset(map, 0, sizeof(*map));
}

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
	if (strcmp(cfg->link.type, "serial") == 0 &&
	    cfg->link.port[0] != '\0') {
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
	if (strcmp(cfg->link.type, "serial") == 0 &&
	    cfg->link.port[0] == '\0') {
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
		if (b->sensor[0] != '\0' &&
		    strcmp(cfg->sensor.type, "ina219") == 0) {
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

/*
 * Whether a USB device with this serial number is attached: Linux lists
 * each device's iSerial in /sys/bus/usb/devices/<dev>/serial (ST-LINK's is
 * the probe_id OpenOCD's "adapter serial" takes).
 * @return 1 yes, 0 no, -1 cannot tell (no sysfs).
 */
static int probe_present(const char *probe_id)
{
	char path[512], buf[128];
	struct dirent *e;
	DIR *d = opendir(SYSFS_USB);
	int found = 0;

	if (d == NULL) {
		return -1;
	}
	for (e = readdir(d); e != NULL && !found; e = readdir(d)) {
		FILE *f;

		if (e->d_name[0] == '.') {
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s/serial", SYSFS_USB,
			 e->d_name);
		f = fopen(path, "r");
		if (f == NULL) {
			continue;
		}
		if (fgets(buf, sizeof(buf), f) != NULL) {
			buf[strcspn(buf, "\r\n")] = '\0';
			found = strcmp(buf, probe_id) == 0;
		}
		fclose(f);
	}
	closedir(d);
	return found;
}

struct row {
	char port[HIL_CFG_STR + 16];
	char probe[16];
	char *lock; /* malloc'd */
};

static void fill_row(const struct hil_board *b, struct row *r)
{
	char *msg = NULL;
	const char *p;
	struct stat st;
	int held;

	if (b->serial[0] == '\0') {
		snprintf(r->port, sizeof(r->port), "-");
	} else if (!b->connected) {
		snprintf(r->port, sizeof(r->port), "%s", b->serial);
	} else {
		snprintf(r->port, sizeof(r->port), "%s (%s)", b->serial,
			 stat(b->serial, &st) == 0 ? "present" : "absent");
	}
	if (b->probe_id[0] == '\0' || !b->connected) {
		snprintf(r->probe, sizeof(r->probe), "-");
	} else {
		int pp = probe_present(b->probe_id);

		snprintf(r->probe, sizeof(r->probe), "%s",
			 pp < 0	  ? "unknown"
			 : pp > 0 ? "present"
				  : "absent");
	}
	held = hil_lock_probe(NULL, b->id, &msg);
	if (held == 0) {
		r->lock = strdup(b->connected ? "free"
					      : "free (connected: false)");
	} else if (held > 0 && msg != NULL) {
		/* "board X is in use by ..." reads "in use by ..." in a table. */
		p = strstr(msg, " is in use");
		r->lock = strdup(p != NULL ? p + 4 : msg);
	} else {
		r->lock = strdup(held > 0 ? "in use" : "cannot tell");
	}
	free(msg);
}

static size_t widest(size_t w, const char *s)
{
	size_t n = strlen(s);

	return n > w ? n : w;
}

int hil_boards_list(const struct hil_boards *map, FILE *out)
{
	size_t wid = 2, wplat = 8, wrun = 6, wport = 4, wprobe = 5, i;
	struct row *rows;
	int ret = HIL_OK;

	if (map == NULL || out == NULL) {
		return HIL_ERR_ARG;
	}
	rows = calloc(map->n + 1, sizeof(*rows));
	if (rows == NULL) {
		return HIL_ERR_NOMEM;
	}
	for (i = 0; i < map->n; i++) {
		const struct hil_board *b = &map->boards[i];

		fill_row(b, &rows[i]);
		wid = widest(wid, b->id);
		wplat = widest(wplat, b->platform);
		wrun = widest(wrun, b->runner[0] != '\0' ? b->runner : "-");
		wport = widest(wport, rows[i].port);
		wprobe = widest(wprobe, rows[i].probe);
	}
	fprintf(out, "%-*s  %-*s  %-*s  %-*s  %-*s  %s\n", (int)wid, "ID",
		(int)wplat, "PLATFORM", (int)wrun, "RUNNER", (int)wport, "PORT",
		(int)wprobe, "PROBE", "LOCK");
	for (i = 0; i < map->n; i++) {
		const struct hil_board *b = &map->boards[i];

		fprintf(out, "%-*s  %-*s  %-*s  %-*s  %-*s  %s\n", (int)wid,
			b->id, (int)wplat, b->platform, (int)wrun,
			b->runner[0] != '\0' ? b->runner : "-", (int)wport,
			rows[i].port, (int)wprobe, rows[i].probe,
			rows[i].lock != NULL ? rows[i].lock : "?");
		free(rows[i].lock);
	}
	free(rows);
	if (fflush(out) != 0 || ferror(out)) {
		ret = HIL_ERR_IO;
	}
	return ret;
}

static cJSON *json_str(const char *s)
{
	return s[0] != '\0' ? cJSON_CreateString(s) : cJSON_CreateNull();
}

static cJSON *json_present(int connected, const char *what, int present)
{
	if (!connected || what[0] == '\0' || present < 0) {
		return cJSON_CreateNull();
	}
	return cJSON_CreateBool(present);
}

/* One board as JSON, with what hil_boards_list checks. */
static cJSON *board_json(const struct hil_board *b)
{
	cJSON *o = cJSON_CreateObject();
	cJSON *lock;
	struct stat st;
	char *msg = NULL;
	int held;
	int port = -1, probe = -1;

	if (o == NULL) {
		return NULL;
	}
	if (b->connected && b->serial[0] != '\0') {
		port = stat(b->serial, &st) == 0;
	}
	if (b->connected && b->probe_id[0] != '\0') {
		probe = probe_present(b->probe_id);
	}
	cJSON_AddItemToObject(o, "id", cJSON_CreateString(b->id));
	cJSON_AddItemToObject(o, "platform", cJSON_CreateString(b->platform));
	cJSON_AddItemToObject(o, "product", json_str(b->product));
	cJSON_AddItemToObject(o, "runner", json_str(b->runner));
	cJSON_AddItemToObject(o, "serial", json_str(b->serial));
	cJSON_AddItemToObject(o, "baud",
			      b->baud != 0 ? cJSON_CreateNumber(b->baud)
					   : cJSON_CreateNull());
	cJSON_AddItemToObject(o, "probe_id", json_str(b->probe_id));
	cJSON_AddItemToObject(o, "sensor", json_str(b->sensor));
	cJSON_AddItemToObject(o, "uid", json_str(b->uid));
	cJSON_AddItemToObject(o, "connected", cJSON_CreateBool(b->connected));
	cJSON_AddItemToObject(o, "port_present",
			      json_present(b->connected, b->serial, port));
	cJSON_AddItemToObject(o, "probe_present",
			      json_present(b->connected, b->probe_id, probe));
	lock = cJSON_AddObjectToObject(o, "lock");
	held = hil_lock_probe(NULL, b->id, &msg);
	if (lock != NULL) {
		cJSON_AddItemToObject(lock, "state",
				      cJSON_CreateString(held == 0 ? "free"
							 : held > 0
								 ? "held"
								 : "unknown"));
		cJSON_AddItemToObject(lock, "holder",
				      held > 0 && msg != NULL
					      ? cJSON_CreateString(msg)
					      : cJSON_CreateNull());
	}
	free(msg);
	return o;
}

int hil_boards_list_json(const struct hil_boards *map, FILE *out)
{
	cJSON *arr;
	char *text;
	size_t i;
	int ret = HIL_OK;

	if (map == NULL || out == NULL) {
		return HIL_ERR_ARG;
	}
	arr = cJSON_CreateArray();
	if (arr == NULL) {
		return HIL_ERR_NOMEM;
	}
	for (i = 0; i < map->n; i++) {
		cJSON *o = board_json(&map->boards[i]);

		if (o == NULL) {
			cJSON_Delete(arr);
			return HIL_ERR_NOMEM;
		}
		cJSON_AddItemToArray(arr, o);
	}
	text = cJSON_Print(arr);
	cJSON_Delete(arr);
	if (text == NULL) {
		return HIL_ERR_NOMEM;
	}
	if (fputs(text, out) == EOF || fputc('\n', out) == EOF ||
	    fflush(out) != 0 || ferror(out)) {
		ret = HIL_ERR_IO;
	}
	free(text);
	return ret;
}
