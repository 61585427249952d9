/* config_board: the board, link and flasher sections of a run configuration, with the choices among the driver tables. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "util/err.h"

#include "config/config_int.h"
#include "config/jsonld.h"
#include "drivers/board/board.h"
#include "drivers/flasher/flasher.h"
#include "drivers/link/link.h"

/* Room for the names of one kind of driver. */
#define MAX_DRIVERS 32

/*
 * A choice among the drivers of one kind, from the driver tables (the
 * loader never names a driver): names and expected are the caller's.
 */
struct driver_choice {
	struct hil_jsonld_choice ch;
	const char *names[MAX_DRIVERS + 1];
	char expected[512];
};

static const struct hil_jsonld_choice *driver_choice(struct driver_choice *d,
						     enum hil_driver_kind kind,
						     const char *what)
{
	hil_driver_names(kind, d->names, MAX_DRIVERS);
	hil_drivers_join(d->expected, sizeof(d->expected), d->names);
	d->ch.what = what;
	d->ch.names = d->names;
	d->ch.expected = d->expected;
	return &d->ch;
}

static const char *const board_keys[] = {
	"name", "clock_hz", "prefetch", "id", NULL,
};
static const char *const link_keys[] = {
	"type", "port", "baud", "timeout_ms", "retries", NULL,
};
static const char *const flasher_keys[] = {
	"type", "program", "probe_serial", "timeout_ms", NULL,
};

int hil_cfg_v_board(struct hil_jsonld *ld, const cJSON *root,
		    struct hil_config *cfg)
{
	const cJSON *s, *it;
	uint32_t hz = 0;
	const struct hil_board_driver *b;
	const struct hil_clock_profile *c;
	struct driver_choice dc;
	char hzs[256];
	int ret;

	ret = hil_jsonld_section(ld, root, "board", board_keys, &s);
	if (ret != HIL_OK || s == NULL) {
		return ret;
	}
	it = hil_jsonld_member(s, "name");
	if (it != NULL) {
		ret = hil_jsonld_choice(
			ld, it, "board.name",
			driver_choice(&dc, HIL_DRIVER_BOARD, "a board"),
			cfg->board.name, sizeof(cfg->board.name), NULL);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	/* The clocks the board's own code can set (its driver's profiles). */
	b = hil_board_find(cfg->board.name);
	if (hil_board_clock(b, cfg->board.clock_hz) == NULL) {
		cfg->board.clock_hz = b->clocks[0].hz;
	}
	it = hil_jsonld_member(s, "clock_hz");
	if (it != NULL) {
		if (hil_jsonld_u32(ld, it, "board.clock_hz", 1, UINT32_MAX,
				   &hz) != HIL_OK ||
		    hil_board_clock(b, hz) == NULL) {
			const char *names[16];
			char num[16][16];
			size_t k = 0;

			/* Each clock once (one may be listed per prefetch
			 * setting). */
			for (c = b->clocks; c->hz != 0 && k < 15; c++) {
				if (hil_board_clock(b, c->hz) == c) {
					snprintf(num[k], sizeof(num[k]), "%lu",
						 (unsigned long)c->hz);
					names[k] = num[k];
					k++;
				}
			}
			names[k] = NULL;
			hil_drivers_join(hzs, sizeof(hzs), names);
			return hil_jsonld_fail(
				ld, it, "board.clock_hz: expected %s", hzs);
		}
		cfg->board.clock_hz = hz;
	}
	it = hil_jsonld_member(s, "prefetch");
	if (it != NULL) {
		int on = 0;

		ret = hil_jsonld_flag(ld, it, "board.prefetch", &on);
		if (ret != HIL_OK) {
			return ret;
		}
		if (hil_board_clock_flash(b, cfg->board.clock_hz, on) == NULL) {
			c = hil_board_clock(b, cfg->board.clock_hz);
			return hil_jsonld_fail(
				ld, it,
				"board.prefetch: %s at %lu Hz has no choice of prefetch (its board code sets it %s); 84000000 on the STM32F401 boards has both",
				b->name, (unsigned long)cfg->board.clock_hz,
				c != NULL && c->prefetch ? "on" : "off");
		}
		cfg->board.prefetch = on;
	} else if (hil_board_clock_flash(b, cfg->board.clock_hz,
					 cfg->board.prefetch) == NULL) {
		/* An inherited choice the new clock does not offer. */
		cfg->board.prefetch = -1;
	}
	it = hil_jsonld_member(s, "id");
	if (it != NULL) {
		ret = hil_jsonld_str(ld, it, "board.id", cfg->board.id,
				     sizeof(cfg->board.id), 1);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	return HIL_OK;
}

int hil_cfg_v_link(struct hil_jsonld *ld, const cJSON *root,
		   struct hil_config *cfg)
{
	struct driver_choice dc;
	const cJSON *s, *it;
	int ret;

	ret = hil_jsonld_section(ld, root, "link", link_keys, &s);
	if (ret != HIL_OK || s == NULL) {
		return ret;
	}
	it = hil_jsonld_member(s, "type");
	if (it != NULL) {
		ret = hil_jsonld_choice(
			ld, it, "link.type",
			driver_choice(&dc, HIL_DRIVER_LINK, "a link"),
			cfg->link.type, sizeof(cfg->link.type), NULL);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	it = hil_jsonld_member(s, "port");
	if (it != NULL) {
		ret = hil_jsonld_str(ld, it, "link.port", cfg->link.port,
				     sizeof(cfg->link.port), 1);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	it = hil_jsonld_member(s, "baud");
	if (it != NULL) {
		ret = hil_jsonld_u32(ld, it, "link.baud", 1200, 4000000,
				     &cfg->link.baud);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	it = hil_jsonld_member(s, "timeout_ms");
	if (it != NULL) {
		ret = hil_jsonld_u32(ld, it, "link.timeout_ms", 1, 600000,
				     &cfg->link.timeout_ms);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	it = hil_jsonld_member(s, "retries");
	if (it != NULL) {
		ret = hil_jsonld_u32(ld, it, "link.retries", 0, 100,
				     &cfg->link.retries);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	return HIL_OK;
}

/*
 * The probe serial is spliced into an OpenOCD Tcl command ("adapter serial
 * SN"), so anything Tcl would interpret is refused.
 */
static int check_probe_serial(struct hil_jsonld *ld, const cJSON *it,
			      const char *s)
{
	const char *bad = strpbrk(s, " []{}$;\"\\");

	if (bad != NULL) {
		return hil_jsonld_fail(
			ld, it,
			"flasher.probe_serial: contains \"%c\", which a probe serial cannot contain",
			*bad);
	}
	return HIL_OK;
}

/* Room for the generic keys and a driver's own. */
#define MAX_FLASHER_KEYS 24

/*
 * A key of another flasher's (a config that switched flasher.type and kept
 * the old one's settings) gets a message that says so.
 */
static int foreign_key(struct hil_jsonld *ld, const cJSON *s,
		       const struct hil_flasher_ops *f)
{
	const struct hil_flasher_ops *const *all = hil_flasher_all();
	const cJSON *it;
	size_t i, k;

	cJSON_ArrayForEach(it, s)
	{
		for (i = 0; all[i] != NULL; i++) {
			for (k = 0; all[i] != f && all[i]->keys != NULL &&
				    all[i]->keys[k] != NULL;
			     k++) {
				if (strcmp(all[i]->keys[k], it->string) == 0 &&
				    !hil_cfg_listed(f->keys, it->string)) {
					return hil_jsonld_fail(
						ld, it,
						"flasher.%s: a setting of the %s flasher, but flasher.type is \"%s\"",
						it->string, all[i]->name,
						f->name);
				}
			}
		}
	}
	return HIL_OK;
}

int hil_cfg_v_flasher(struct hil_jsonld *ld, const cJSON *root,
		      struct hil_config *cfg)
{
	const struct hil_board_driver *b = hil_board_find(cfg->board.name);
	const struct hil_flasher_ops *f;
	const char *keys[MAX_FLASHER_KEYS + 1];
	struct driver_choice dc;
	const cJSON *s, *it;
	size_t n = 0, i;
	int ret;

	/* The flasher first: its own keys are the rest of the section's. */
	it = hil_jsonld_member(hil_jsonld_member(root, "flasher"), "type");
	if (it != NULL) {
		ret = hil_jsonld_choice(
			ld, it, "flasher.type",
			driver_choice(&dc, HIL_DRIVER_FLASHER, "a flasher"),
			cfg->flasher.type, sizeof(cfg->flasher.type), NULL);
		if (ret != HIL_OK) {
			return ret;
		}
	} else {
		snprintf(cfg->flasher.type, sizeof(cfg->flasher.type), "%s",
			 b->flashers[0]);
	}
	f = hil_flasher_find(cfg->flasher.type);
	for (i = 0; flasher_keys[i] != NULL; i++) {
		keys[n++] = flasher_keys[i];
	}
	for (i = 0;
	     f->keys != NULL && f->keys[i] != NULL && n < MAX_FLASHER_KEYS;
	     i++) {
		keys[n++] = f->keys[i];
	}
	keys[n] = NULL;
	s = hil_jsonld_member(root, "flasher");
	if (cJSON_IsObject(s)) {
		ret = foreign_key(ld, s, f);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	ret = hil_jsonld_section(ld, root, "flasher", keys, &s);
	if (ret != HIL_OK) {
		return ret;
	}
	it = hil_jsonld_member(s, "program");
	if (it != NULL) {
		ret = hil_jsonld_str(ld, it, "flasher.program",
				     cfg->flasher.program,
				     sizeof(cfg->flasher.program), 0);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	it = hil_jsonld_member(s, "probe_serial");
	if (it != NULL) {
		ret = hil_jsonld_str(ld, it, "flasher.probe_serial",
				     cfg->flasher.probe_serial,
				     sizeof(cfg->flasher.probe_serial), 1);
		if (ret != HIL_OK) {
			return ret;
		}
		ret = check_probe_serial(ld, it, cfg->flasher.probe_serial);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	it = hil_jsonld_member(s, "timeout_ms");
	if (it != NULL) {
		ret = hil_jsonld_u32(ld, it, "flasher.timeout_ms", 1, 600000,
				     &cfg->flasher.timeout_ms);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	/* Its own keys, and what the board tells it; a flasher the board
	 * does not list is refused by name once the whole config is read. */
	if (f->parse != NULL && hil_cfg_listed(b->flashers, f->name)) {
		ret = f->parse(ld, s, hil_board_flasher_arg(b, f->name), cfg);
	}
	return ret;
}
