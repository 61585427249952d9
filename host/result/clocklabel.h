/* clocklabel: the one line saying what a run's cost figures are (counted or estimated cycles, or instructions), on which chip, at what clock and flash setting. */
#ifndef HIL_CLOCKLABEL_H
#define HIL_CLOCKLABEL_H

#include <stddef.h>

struct hil_run;

/**
 * "estimated cycles, STM32F401 @ 84 MHz, 2 WS, ART on, prefetch on".
 * @param what   "estimated cycles", "cycles (DWT)", ...
 * @param chip   may be NULL or "" (left out)
 * @param hz     0: left out
 * @param ws     < 0: left out
 * @param accel  the accelerator's name ("ART", "I-cache"); NULL: left out
 * @param on     whether the accelerator is on
 * @param prefetch 1 on, 0 off, < 0 left out
 */
void hil_clock_label(char *buf, size_t len, const char *what, const char *chip,
		     double hz, int ws, const char *accel, int on,
		     int prefetch);

/**
 * The label of a run: the cycle model's profile and the configured clock on
 * the emulated board, the board's reported clock and FLASH_ACR on a real
 * one, or what the counter counts when there are no cycles.
 */
void hil_run_clock_label(const struct hil_run *run, char *buf, size_t len);

#endif /* HIL_CLOCKLABEL_H */
