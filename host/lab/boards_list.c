/* boards_list: the `hilrun boards` listing, as a table or as JSON, with whether each port and probe is present and who holds each lock. */
#define _POSIX_C_SOURCE 200809L
#include "boards.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "lab/lock.h"
#include "util/err.h"

#define SYSFS_USB "/sys/bus/usb/devices"

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
	/* connected: what a program can rely on, the map's word checked
	 * against what is there (a port or probe found absent: false);
	 * map_connected: the map's word alone. */
	cJSON_AddItemToObject(
		o, "connected",
		cJSON_CreateBool(b->connected && port != 0 && probe != 0));
	cJSON_AddItemToObject(o, "map_connected",
			      cJSON_CreateBool(b->connected));
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
