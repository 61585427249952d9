/* pyocd_setup: what the pyOCD flasher owns of a configuration: the target type (key "target", else the board's), which pyOCD 0.13.1 needs for every command. */
#include "pyocd.h"

#include <stdio.h>

#include "config/config.h"
#include "config/jsonld.h"
#include "util/err.h"

const char *const hil_pyocd_keys[] = {"target", NULL};
const char *const hil_pyocd_opts[] = {"target", "adapter_khz", NULL};

int hil_pyocd_options(const struct hil_config *cfg,
		      struct hil_flasher_params *p)
{
	if (cfg->flasher.target[0] == '\0') {
		return HIL_OK;
	}
	return hil_flasher_params_add(p, "target", cfg->flasher.target);
}

int hil_pyocd_parse(struct hil_jsonld *ld, const cJSON *section,
		    const char *board_arg, struct hil_config *cfg)
{
	const cJSON *it = hil_jsonld_member(section, "target");
	char sb[HIL_JSONLD_SHOW];
	int ret;

	if (it != NULL) {
		ret = hil_jsonld_str(ld, it, "flasher.target",
				     cfg->flasher.target,
				     sizeof(cfg->flasher.target), 0);
		if (ret != HIL_OK) {
			return ret;
		}
		if (!hil_pyocd_target_ok(cfg->flasher.target)) {
			return hil_jsonld_fail(
				ld, it,
				"flasher.target: \"%s\" is not a pyOCD target type (lower-case letters, digits and '_', e.g. \"stm32l475xg\"; `pyocd-flashtool --list-targets` lists them)",
				hil_jsonld_show(sb, sizeof(sb),
						cfg->flasher.target));
		}
		return HIL_OK;
	}
	if (cfg->flasher.target[0] == '\0' && board_arg != NULL) {
		snprintf(cfg->flasher.target, sizeof(cfg->flasher.target), "%s",
			 board_arg);
	}
	if (cfg->flasher.target[0] == '\0') {
		return hil_jsonld_fail(
			ld, section,
			"flasher.target: required with the pyocd flasher: board.name \"%s\" names no pyOCD target type (Debian's pyOCD 0.13.1 has none for it)",
			cfg->board.name);
	}
	return HIL_OK;
}
