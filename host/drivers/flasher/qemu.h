/* qemu: the QEMU flasher's machine choice, shared by its two files (qemu.c, qemu_setup.c). */
#ifndef HIL_QEMU_H
#define HIL_QEMU_H

#include <stddef.h>

#include "flasher.h"

#define HIL_QEMU_DEFAULT_MACHINE "netduinoplus2"
#define HIL_QEMU_MAX_SHIFT	 10 /* QEMU's own limit for -icount shift */

/**
 * Split a board's "MACHINE" or "MACHINE,shift=N" (option machine; NULL or
 * "": the netduinoplus2 at shift 0). A machine is lower-case letters,
 * digits and '-'; N is 0..HIL_QEMU_MAX_SHIFT.
 * @return 1 and machine (len bytes) and shift set, or 0 if spec is not
 *         of that form.
 */
int hil_qemu_machine_of(const char *spec, char *machine, size_t len,
			unsigned *shift);

/* The parse op: the board's machine into cfg->flasher.target, checked. */
int hil_qemu_parse(struct hil_jsonld *ld, const cJSON *section,
		   const char *board_arg, struct hil_config *cfg);

/*
 * Its options: machine ("MACHINE[,shift=N]", e.g. "mps2-an386,shift=10";
 * none: "netduinoplus2", shift 0) and plugin (HIL_FLASHER_OPT_PLUGIN: the
 * value of one `-plugin` option). The options op: machine from
 * cfg->flasher.target.
 */
extern const char *const hil_qemu_opts[];
int hil_qemu_options(const struct hil_config *cfg,
		     struct hil_flasher_params *p);

#endif /* HIL_QEMU_H */
