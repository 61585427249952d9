/* qemu_setup: which QEMU machine and icount shift the qemu flasher starts, as the board driver gives them ("MACHINE[,shift=N]"), checked once when a config is read and again when the flasher opens. */
#include "qemu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/config.h"
#include "config/jsonld.h"
#include "util/err.h"

/*
 * The board's word to this flasher (board driver's flasher_args, kept in
 * params.target): "MACHINE" or "MACHINE,shift=N", e.g.
 * "mps2-an386,shift=10". NULL or "": the netduinoplus2 at shift 0. A
 * machine name is lower-case letters, digits and '-'; N is 0..10.
 * @return 1 and machine and shift set, or 0 if spec is not of that form.
 */
int hil_qemu_machine_of(const char *spec, char *machine, size_t len,
			unsigned *shift)
{
	size_t n;
	const char *s;
	char *end = NULL;
	unsigned long v;

	*shift = 0;
	if (spec == NULL || spec[0] == '\0') {
		snprintf(machine, len, "%s", HIL_QEMU_DEFAULT_MACHINE);
		return 1;
	}
	n = strcspn(spec, ",");
	if (n == 0 || n >= len) {
		return 0;
	}
	for (s = spec; s < spec + n; s++) {
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
		      *s == '-')) {
			return 0;
		}
	}
	memcpy(machine, spec, n);
	machine[n] = '\0';
	if (spec[n] == '\0') {
		return 1;
	}
	if (strncmp(spec + n, ",shift=", 7) != 0 || spec[n + 7] < '0' ||
	    spec[n + 7] > '9') {
		return 0;
	}
	v = strtoul(spec + n + 7, &end, 10);
	if (end == NULL || *end != '\0' || v > HIL_QEMU_MAX_SHIFT) {
		return 0;
	}
	*shift = (unsigned)v;
	return 1;
}

/*
 * The board's machine and icount shift into cfg->flasher.target: the
 * config has no key of its own for them (a config names the board, and
 * the board knows its machine).
 */
int hil_qemu_parse(struct hil_jsonld *ld, const cJSON *section,
		   const char *board_arg, struct hil_config *cfg)
{
	char machine[64];
	unsigned shift;

	if (!hil_qemu_machine_of(board_arg, machine, sizeof(machine), &shift)) {
		return hil_jsonld_fail(
			ld, section,
			"flasher: board.name \"%s\" gives the qemu flasher \"%s\", not \"MACHINE\" or \"MACHINE,shift=N\" (N 0..%d)",
			cfg->board.name, board_arg, HIL_QEMU_MAX_SHIFT);
	}
	snprintf(cfg->flasher.target, sizeof(cfg->flasher.target), "%s",
		 board_arg != NULL ? board_arg : "");
	return HIL_OK;
}

const char *const hil_qemu_opts[] = {"machine", HIL_FLASHER_OPT_PLUGIN, NULL};

int hil_qemu_options(const struct hil_config *cfg, struct hil_flasher_params *p)
{
	if (cfg->flasher.target[0] == '\0') {
		return HIL_OK;
	}
	return hil_flasher_params_add(p, "machine", cfg->flasher.target);
}
