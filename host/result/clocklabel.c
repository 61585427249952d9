/* clocklabel: the one line saying what a run's cost figures are (counted or estimated cycles, or instructions), on which chip, at what clock and flash setting. */
#include "clocklabel.h"

#include <stdio.h>
#include <string.h>

#include "drivers/board/board.h"
#include "drivers/board/memsys.h"
#include "hilp.h"
#include "result/run.h"

void hil_clock_label(char *buf, size_t len, const char *what, const char *chip,
		     double hz, int ws, const char *accel, int on, int prefetch)
{
	size_t o = 0;

#define PUT(...)                                                               \
	do {                                                                   \
		if (o < len) {                                                 \
			int w_ = snprintf(buf + o, len - o, __VA_ARGS__);      \
			o += w_ > 0 ? (size_t)w_ : 0;                          \
		}                                                              \
	} while (0)
	if (len == 0) {
		return;
	}
	buf[0] = '\0';
	PUT("%s", what);
	if (chip != NULL && chip[0] != '\0') {
		PUT(", %s", chip);
		if (hz > 0) {
			PUT(" @ %g MHz", hz / 1e6);
		}
	} else if (hz > 0) {
		PUT(" @ %g MHz", hz / 1e6);
	}
	if (ws >= 0) {
		PUT(", %d WS", ws);
	}
	if (accel != NULL) {
		PUT(", %s %s", accel, on ? "on" : "off");
	}
	if (prefetch >= 0) {
		PUT(", prefetch %s", prefetch ? "on" : "off");
	}
#undef PUT
}

void hil_run_clock_label(const struct hil_run *run, char *buf, size_t len)
{
	const struct hil_config *cfg = run->cfg;
	const int emulated = (run->info.flags & HILP_INFO_EMULATED) != 0;
	const struct hil_board_driver *b =
		hil_board_find(cfg != NULL ? cfg->board.name : NULL);

	if (emulated && run->model.enabled) {
		const struct cm4_memsys *p =
			cm4_memsys_find(run->model.profile);

		hil_clock_label(
			buf, len, "estimated cycles",
			p != NULL ? p->chip : "Cortex-M4",
			cfg != NULL ? cfg->board.clock_hz : 0,
			(int)run->model.ws, p != NULL ? p->accel : "ART",
			run->model.art,
			p != NULL && p->accel != NULL && p->prefetch
				? run->model.art
				: (p != NULL && p->accel != NULL ? 0 : -1));
		return;
	}
	if (!emulated && run->info.counter_unit == HILP_UNIT_CYCLES) {
		struct hil_flash_state fs = {-1, -1, -1, -1};

		if (b != NULL && b->flash_state != NULL) {
			b->flash_state(run->info.flash_acr, &fs);
		}
		hil_clock_label(buf, len, "cycles (DWT, measured)",
				b != NULL ? b->mcu : NULL, run->info.clock_hz,
				fs.wait_states,
				/* the STM32s' ART has a data cache too */
				fs.dcache >= 0	 ? "ART"
				: fs.icache >= 0 ? "I-cache"
						 : NULL,
				fs.icache > 0 || fs.dcache > 0, fs.prefetch);
		return;
	}
	snprintf(
		buf, len, "%s%s", hil_unit_name(run->info.counter_unit),
		emulated
			? " (counted by QEMU, not a board's cycles; no cycle model)"
			: "");
}
