/* boards: loads and checks the hardware map (configs/boards.json); boards_match.c finds a config's board in it, boards_list.c lists the lab's boards. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"boards"
#include "boards.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "config/jsonld.h"
#include "drivers/board/board.h"
#include "drivers/flasher/flasher.h"
#include "drivers/i2c/i2c.h"
#include "util/err.h"
#include "util/log.h"
#include "util/util.h"

#define SHOW	 72 /* room for a value quoted in a message */
#define MAX_BAUD 12000000u

static const char *const known_keys[] = {
	"id",	    "platform", "product", "runner",	"serial", "baud",
	"probe_id", "sensor",	"uid",	   "connected", NULL,
};

struct ctx {
	const char *file; /* NULL for parsed text */
	char *err;
	size_t errlen;
	struct hil_jsonld *ld; /* the loader, for its typed getters */
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

/* A string of board i through the loader's getter: a string that fits
 * out, no control character ("[1].serial: expected a string"). */
static int get_str(const struct ctx *c, size_t i, const cJSON *it, char *out,
		   size_t len)
{
	char path[HIL_JSONLD_PATH];

	snprintf(path, sizeof(path), "[%zu].%s", i, it->string);
	return hil_jsonld_str(c->ld, it, path, out, len, 1);
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
	char path[HIL_JSONLD_PATH];
	char sb[SHOW];
	int ret;

	snprintf(path, sizeof(path), "[%zu].%s", i, k);
	if (strcmp(k, "connected") == 0) {
		return hil_jsonld_flag(c->ld, it, path, &b->connected);
	}
	if (strcmp(k, "baud") == 0) {
		return hil_jsonld_u32(c->ld, it, path, 1, MAX_BAUD, &b->baud);
	}
	if (strcmp(k, "id") == 0) {
		ret = get_str(c, i, it, b->id, sizeof(b->id));
		if (ret == HIL_OK && !hil_lock_id_valid(b->id)) {
			ret = fail(
				c, HIL_ERR_CONFIG,
				"[%zu].id: \"%s\" is not a board id: 1 to %d characters from A-Z a-z 0-9 . _ -",
				i, hil_jsonld_show(sb, sizeof(sb), b->id),
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
			char expected[256];

			hil_driver_names_join(HIL_DRIVER_FLASHER, expected,
					      sizeof(expected));
			ret = fail(
				c, HIL_ERR_CONFIG,
				"[%zu].runner: \"%s\" is not a runner hilrun drives: expected %s",
				i, hil_jsonld_show(sb, sizeof(sb), b->runner),
				expected);
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
		char forms[256];
		const char *colon;

		ret = get_str(c, i, it, b->sensor, sizeof(b->sensor));
		if (ret != HIL_OK) {
			return ret;
		}
		/* A bus backend of drivers/i2c (hil_i2c_open), then something. */
		colon = strchr(b->sensor, ':');
		if (colon == NULL || colon[1] == '\0' ||
		    hil_i2c_backend(b->sensor) == NULL) {
			hil_i2c_spec_forms(forms, sizeof(forms));
			return fail(
				c, HIL_ERR_CONFIG,
				"[%zu].sensor: \"%s\" is not a bus spec: expected %s",
				i, hil_jsonld_show(sb, sizeof(sb), b->sensor),
				forms);
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
				i,
				hil_jsonld_show(sb, sizeof(sb),
						it->valuestring));
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
			    hil_jsonld_show(sb, sizeof(sb), k), known);
	}
}

static int check_board(const struct ctx *c, size_t i, const cJSON *o,
		       struct hil_board *b)
{
	const cJSON *it;
	int ret;

	if (!cJSON_IsObject(o)) {
		return fail(c, HIL_ERR_CONFIG,
			    "[%zu]: expected an object describing a board", i);
	}
	memset(b, 0, sizeof(*b));
	b->connected = 1;
	/* (A key given twice the loader refused.) */
	cJSON_ArrayForEach(it, o)
	{
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

/* The map at c->file, or in text when that is NULL, into map. */
static int parse(struct ctx *c, const char *text, struct hil_boards *map)
{
	struct hil_board *boards = NULL;
	struct hil_jsonld ld;
	const cJSON *o;
	cJSON *root = NULL;
	size_t i = 0, j;
	int ret = HIL_OK;

	/* The one JSON loader: bounded, a regular file, no NUL byte, no key
	 * twice, errors with the line and column. */
	hil_jsonld_init(&ld, c->err, c->errlen);
	ld.kind = "a hardware map";
	ld.top_array = 1;
	ret = text != NULL ? hil_jsonld_load_text(&ld, NULL, text, strlen(text),
						  &root)
			   : hil_jsonld_load(&ld, c->file, &root);
	if (ret != HIL_OK) {
		hil_jsonld_done(&ld);
		return ret;
	}
	/* The values through its typed getters. */
	c->ld = &ld;
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
	c->ld = NULL;
	hil_jsonld_done(&ld);
	free(boards);
	cJSON_Delete(root);
	return ret;
}

int hil_boards_parse(const char *json, struct hil_boards *map, char *err,
		     size_t errlen)
{
	struct ctx c = {NULL, err, errlen, NULL};
	struct hil_boards m;
	int ret;

	if (err != NULL && errlen > 0) {
		err[0] = '\0';
	}
	if (json == NULL || map == NULL) {
		return fail(&c, HIL_ERR_ARG, "no hardware map given");
	}
	memset(&m, 0, sizeof(m));
	ret = parse(&c, json, &m);
	if (ret == HIL_OK) {
		*map = m;
	}
	return ret;
}

int hil_boards_load(const char *path, struct hil_boards *map, char *err,
		    size_t errlen)
{
	struct ctx c = {path, err, errlen, NULL};
	struct hil_boards m;
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
	ret = parse(&c, NULL, &m);
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
