/* memsys: the memory-system profiles of the cycle model, each parameter with its document (the tables of docs/cycle-model.md say the same, with section numbers). */
#include "memsys.h"

#include <string.h>

/*
 * STM32F401 (the Nucleo-F401RE, and the emulated board standing in for it).
 *
 * - Line: "Each flash memory read operation provides 128 bits" and the
 *   128-bit flash memory bus (RM0090 Rev 21 §3.5.2 and Figure 3; RM0368
 *   §3.2 Figure 2 for the F401: the same interface).
 * - Wait states: RM0368 Table 6 at 2.7-3.6 V: 2 WS above 60 MHz up to
 *   84 MHz, 0 WS up to 30 MHz; target/boards/nucleo-f401re sets exactly
 *   those (clock_math.h).
 * - Prefetch: "read the next sequential instruction line from the flash
 *   memory while the current instruction line is being requested", useful
 *   "if at least one wait state is needed" (§3.5.2 "Instruction
 *   prefetch"); the board sets PRFTEN only when WS > 0 (hal.c, ACR_ON).
 * - I-cache: "retain 64 lines of 128 bits", filled on every miss, provided
 *   "without inserting any delay", LRU once full (§3.5.2 "Instruction cache
 *   memory"). The manual names no sets: one set of 64 (fully associative).
 * - D-cache: literal pools go through the D-Code bus, the pipeline stalls
 *   until they come; "works like the instruction cache memory, but the
 *   retained data size is limited to 8 rows of 128 bits" (§3.5.2 "Data
 *   management").
 * - A miss waits the wait states (§3.5.2: "the penalty ... is at least
 *   equal to the number of wait states"; we take it as equal).
 * The board sets ICEN and DCEN at every clock, PRFTEN above 0 WS unless
 * built with HIL_PREFETCH=0: FLASH_ACR 0x702 (or 0x602) at 84 MHz, 0x600 at
 * 24 and 16 MHz.
 */
static const struct cm4_memsys profiles[] = {
	{
		.name = "stm32f401-art",
		.chip = "STM32F401",
		.summary =
			"STM32F401 at 84 MHz: 2 WS, ART prefetch, I-cache 64 x 128 bits, D-cache 8 x 128 bits (FLASH_ACR 0x702)",
		.line_bytes = 16,
		.ws = 2,
		.prefetch = 1,
		.icache = {64, 64},
		.dcache = {8, 8},
		.accel = "ART",
		.unverified = NULL,
	},
	/*
	 * The same 84 MHz with PRFTEN clear (the board built with
	 * HIL_PREFETCH=0, board.prefetch false): no line is read ahead, so
	 * every line the fetch unit enters that the I-cache does not hold
	 * waits the 2 wait states, sequential or not.
	 */
	{
		.name = "stm32f401-art-noprefetch",
		.chip = "STM32F401",
		.summary =
			"STM32F401 at 84 MHz: 2 WS, no prefetch, I-cache 64 x 128 bits, D-cache 8 x 128 bits (FLASH_ACR 0x602)",
		.line_bytes = 16,
		.ws = 2,
		.prefetch = 0,
		.icache = {64, 64},
		.dcache = {8, 8},
		.accel = "ART",
		.unverified = NULL,
	},
	{
		.name = "stm32f401-0ws",
		.chip = "STM32F401",
		.summary =
			"STM32F401 at 24 or 16 MHz: 0 WS, no prefetch, I-cache 64 x 128 bits, D-cache 8 x 128 bits (FLASH_ACR 0x600)",
		.line_bytes = 16,
		.ws = 0,
		.prefetch = 0,
		.icache = {64, 64},
		.dcache = {8, 8},
		.accel = "ART",
		.unverified = NULL,
	},
	/*
	 * nRF52840 (the nRF52840-DK) at 64 MHz. Sourced (nRF52840 PS,
	 * "Memory" and NVMC §4.3.8 "Cache", as read for
	 * target/boards/nrf52840-dk/clock_math.h): flash on the ICODE and
	 * DCODE buses; ICACHECNF.CACHEEN turns on an instruction cache on the
	 * ICODE bus (off at reset; the board's HIL_ICACHE=1, the default,
	 * turns it on, HIL_ICACHE=0 leaves it off); the cache reduces "the
	 * number of wait cycles and the number of flash accesses", so an
	 * uncached fetch waits. Not found in any document at hand: the cache's
	 * size, line and ways, the wait states of a miss or of an uncached
	 * read at 64 MHz, and any prefetch. What stands in is said in
	 * .unverified and in docs/cycle-model.md: never a fitted number.
	 */
	{
		.name = "nrf52840-icache",
		.chip = "nRF52840",
		.summary =
			"nRF52840 at 64 MHz, NVMC instruction cache on (ICACHECNF.CACHEEN = 1); flash timing and cache geometry unverified",
		.line_bytes = 16,
		.ws = 2,
		.prefetch = 0,
		.icache = {CM4_CACHE_UNBOUNDED, CM4_CACHE_UNBOUNDED},
		.dcache = {0, 0},
		.accel = "I-cache",
		.unverified =
			"wait states of a flash read (2: the expectation in target/boards/nrf52840-dk/clock_math.h, unverified), flash line (16 bytes: the nRF5340's cache line, not the nRF52840's), cache size and ways (unknown: modelled as keeping every line, so misses are a lower bound), prefetch (none documented: none modelled)",
	},
	{
		.name = "nrf52840-nocache",
		.chip = "nRF52840",
		.summary =
			"nRF52840 at 64 MHz, NVMC instruction cache off (ICACHECNF reset value); flash timing unverified",
		.line_bytes = 16,
		.ws = 2,
		.prefetch = 0,
		.icache = {0, 0},
		.dcache = {0, 0},
		.accel = NULL,
		.unverified =
			"wait states of a flash read (2: the expectation in target/boards/nrf52840-dk/clock_math.h, unverified), flash line (16 bytes: the nRF5340's cache line, not the nRF52840's), prefetch (none documented: none modelled)",
	},
	/*
	 * nRF52840 at 64 MHz with its instruction cache on, calibrated on a
	 * stated training set and only on it (docs/cycle-model.md, "NIST
	 * LWC, Nano 33 BLE"): the NIST LWC benchmark's published -O2 counts
	 * of ascon, gift-cofb, tinyjambu, sparkle and xoodyak on the Arduino
	 * Nano 33 BLE; elephant, grain128aead, isap, photon-beetle and
	 * romulus are held out. Two physical parameters were fitted, each in
	 * the range the documents leave open: the I-cache's size (1, 2, 4 KB
	 * or every line, 2-way LRU of 16-byte lines as the nRF5340's) and the
	 * wait states of a flash read no cache serves (0..4), on the assembly
	 * points (the same instructions ran there): 2 KB and 3 WS. The error
	 * bars are leave-one-finalist-out cross-validation on the training
	 * set.
	 */
	{
		.name = "nrf52840-cal",
		.chip = "nRF52840",
		.summary =
			"nRF52840 at 64 MHz, I-cache on: 2 KB 2-way LRU of 16-byte lines, 3 WS, calibrated on the NIST LWC Nano 33 BLE training set",
		.line_bytes = 16,
		.ws = 3,
		.prefetch = 0,
		.icache = {128, 2},
		.dcache = {0, 0},
		.accel = "I-cache",
		.unverified =
			"cache size and flash wait states fitted to published Nano 33 BLE counts (training set: ascon, gift-cofb, tinyjambu, sparkle, xoodyak), not read in a document; ways and line as the nRF5340's",
		/* scripts/nist_model.py fit: 90th percentile of the held-out
		 * errors, 1 020 assembly and 800 C points (AD 0, messages
		 * 0..1024); C carries the compiler's residual (GCC 7.2 there,
		 * 12.2 here), assembly does not. */
		.err_c_pct = 35,
		.err_asm_pct = 11,
		.err_from =
			"leave-one-finalist-out cross-validation on the NIST LWC Nano 33 BLE training set (90th percentile of |model/published - 1|)",
	},
	/*
	 * The calibration's grid (docs/cycle-model.md, "NIST LWC, Nano 33
	 * BLE"): hypotheses on the nRF52840's instruction cache, which no
	 * document at hand sizes, each run on the training set. A 2-way set
	 * associative LRU cache of 16-byte lines, as the nRF5340's CACHE
	 * (nRF5340 PS, "CACHE": two-way set associative, LRU, 128-bit lines);
	 * 1, 2 or 4 KB. The wait states a miss costs are fitted on top (a
	 * miss costs them linearly: flash = misses x ws).
	 */
	{
		.name = "nrf52840-fit-1k",
		.chip = "nRF52840",
		.summary =
			"nRF52840 at 64 MHz, calibration candidate: I-cache 64 x 16 B, 2-way LRU, 2 WS",
		.line_bytes = 16,
		.ws = 2,
		.prefetch = 0,
		.icache = {64, 2},
		.dcache = {0, 0},
		.accel = "I-cache",
		.unverified =
			"a calibration candidate: cache size and ways are hypotheses (docs/cycle-model.md), wait states unverified",
	},
	{
		.name = "nrf52840-fit-2k",
		.chip = "nRF52840",
		.summary =
			"nRF52840 at 64 MHz, calibration candidate: I-cache 128 x 16 B, 2-way LRU, 2 WS",
		.line_bytes = 16,
		.ws = 2,
		.prefetch = 0,
		.icache = {128, 2},
		.dcache = {0, 0},
		.accel = "I-cache",
		.unverified =
			"a calibration candidate: cache size and ways are hypotheses (docs/cycle-model.md), wait states unverified",
	},
	{
		.name = "nrf52840-fit-4k",
		.chip = "nRF52840",
		.summary =
			"nRF52840 at 64 MHz, calibration candidate: I-cache 256 x 16 B, 2-way LRU, 2 WS",
		.line_bytes = 16,
		.ws = 2,
		.prefetch = 0,
		.icache = {256, 2},
		.dcache = {0, 0},
		.accel = "I-cache",
		.unverified =
			"a calibration candidate: cache size and ways are hypotheses (docs/cycle-model.md), wait states unverified",
	},
};

const struct cm4_memsys *cm4_memsys_find(const char *name)
{
	size_t i;

	for (i = 0; name != NULL && i < sizeof(profiles) / sizeof(profiles[0]);
	     i++) {
		if (strcmp(profiles[i].name, name) == 0) {
			return &profiles[i];
		}
	}
	return NULL;
}

const struct cm4_memsys *cm4_memsys_at(size_t i)
{
	return i < sizeof(profiles) / sizeof(profiles[0]) ? &profiles[i] : NULL;
}
