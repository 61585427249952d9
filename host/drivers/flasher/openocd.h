/* openocd: the OpenOCD flasher's configuration hooks, shared by its two files (openocd.c, openocd_setup.c). */
#ifndef HIL_OPENOCD_H
#define HIL_OPENOCD_H

#include <stddef.h>

#include "flasher.h"

/* Its own key of the "flasher" section: "openocd_config". */
extern const char *const hil_openocd_keys[];

/*
 * Its options: config (a config file, each a -f, in order, at most
 * HIL_FLASHER_MAX_FILES; none: the default) and adapter_khz (the probe's
 * speed; none: OpenOCD's own). The options op: a config option per config
 * file of cfg.
 */
extern const char *const hil_openocd_opts[];
int hil_openocd_options(const struct hil_config *cfg,
			struct hil_flasher_params *p);

/* The parse op: the config files, else the board's. */
int hil_openocd_parse(struct hil_jsonld *ld, const cJSON *section,
		      const char *board_arg, struct hil_config *cfg);

struct hil_jail;

/**
 * OpenOCD's jail (docs/lab.md, "The jail"): the folders of the config
 * files (files named by a path) and the image read-only, the USB devices,
 * /sys and udev's database for a probe; nothing writable.
 * @param elf NULL: no image.
 * @param out receives it; free with hil_jail_free().
 * @return HIL_OK, or hil_jail_bind()'s error.
 */
int hil_openocd_jail(const char *const files[], size_t n_files, const char *elf,
		     struct hil_jail **out);

/* The doctor op: each config file loads without a probe. */
int hil_openocd_doctor(struct hil_doctor *d, const struct hil_config *cfg);

#endif /* HIL_OPENOCD_H */
