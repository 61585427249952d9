/* hal for QEMU 7.2 `-M mps2-an386` (Cortex-M4, 4 + 4 MiB of RAM): semihosting link, an exact instruction counter made from the CMSDK dual timer. */
#include <stdint.h>

#include "hilp.h"
#include "hal.h"
#include "regs_cm4.h"
#include "counter_math.h"

/*
 * What QEMU 7.2 gives on this machine (measured with `info mtree` and
 * `info qtree`, and by the runs in README.md):
 * - No timer counts instructions one for one. Every counter (SysTick's
 *   cpuclk, the two CMSDK APB timers, the dual timer, the FPGAIO COUNTER,
 *   the LAN9118's FREE_RUN) runs from the 25 MHz SYSCLK of virtual time;
 *   `-global mps2-fpgaio.prescale-clk=...` is overridden by the board.
 *   DWT_CYCCNT reads 0, as on the netduinoplus2.
 * - So the host starts QEMU with `-icount shift=10,align=off,sleep=off`:
 *   each instruction is 2^10 = 1024 ns of virtual time, and a 25 MHz
 *   timer advances 1024 / 40 = 25.6 ticks per instruction. A tick count E
 *   taken at an instruction boundary is within one tick of 25.6 n, so
 *   n = round(E * 5 / 128) exactly (the error is at most 1 / 25.6 of an
 *   instruction). QEMU's limit is shift 10; the larger the shift, the
 *   larger the margin.
 * - 32 bits of 25.6 ticks per instruction wrap every 167.8 M instructions,
 *   too soon. Timer 1 of the dual timer (32-bit, prescale 1) gives the low
 *   32 bits of E, timer 2 (32-bit, prescale 256) counts the same time 256
 *   times slower: its count * 256 is E to within 256 + a few ticks, enough
 *   to say how many times timer 1 has wrapped (a margin of 2^31 ticks).
 *   E is then known modulo 2^40 (timer 2's wrap, once per 43 G
 *   instructions), and 2^40 * 5 / 128 = 10 * 2^32: the instruction count
 *   wraps at 2^32 as hal.h asks, with no jump at timer 2's wrap.
 * - Both timers run free (CONTROL.MODE = 0): down from 0xFFFFFFFF, back to
 *   0xFFFFFFFF after 0, a period of exactly 2^32 ticks (the CMSDK dual
 *   timer TRM, "Free-running mode"; QEMU's cmsdk-apb-dualtimer does so).
 * - The read of timer 1's VALUE comes first: it is the instruction the
 *   cycle model brackets on (the board driver gives its address to the
 *   plugin), as TIM2_CNT on the netduinoplus2. What follows it (timer 2,
 *   the arithmetic, branch-free) is part of the calibrated overhead.
 * The arithmetic is counter_math.h (tested on the host over both wraps
 * by tests/unit/test_mps2_counter_math.c). The count was checked against
 * the plugin's own instruction count of every bracket and against the
 * netduinoplus2's TIM2 count of the same code (tests/e2e/test_e2e_mps2.c),
 * and against loops of known length up to 300 M instructions (several
 * wraps of timer 1; README.md).
 */
#define DUALTIMER_BASE 0x40002000u
#define TIMER1_LOAD    MMIO32(DUALTIMER_BASE + 0x00u)
#define TIMER1_VALUE   MMIO32(DUALTIMER_BASE + 0x04u)
#define TIMER1_CONTROL MMIO32(DUALTIMER_BASE + 0x08u)
#define TIMER2_LOAD    MMIO32(DUALTIMER_BASE + 0x20u)
#define TIMER2_VALUE   MMIO32(DUALTIMER_BASE + 0x24u)
#define TIMER2_CONTROL MMIO32(DUALTIMER_BASE + 0x28u)

/* TimerXControl: enable, free-running (MODE = 0), no interrupt, prescale, 32-bit. */
#define CTRL_EN		  (1u << 7)
#define CTRL_PRESCALE_1	  (0u << 2)
#define CTRL_PRESCALE_256 (2u << 2)
#define CTRL_SIZE32	  (1u << 1)

uint8_t hal_init(void)
{
	TIMER1_CONTROL = 0;
	TIMER2_CONTROL = 0;
	TIMER1_LOAD = 0xFFFFFFFFu;
	TIMER2_LOAD = 0xFFFFFFFFu;
	TIMER1_CONTROL = CTRL_EN | CTRL_PRESCALE_1 | CTRL_SIZE32;
	TIMER2_CONTROL = CTRL_EN | CTRL_PRESCALE_256 | CTRL_SIZE32;
	SYST_CSR = 0; /* nothing may interrupt a window */
	return HILP_ST_OK;
}

/* hal_uart_getc/putc/overruns: common/link_semihost.c. */

uint32_t hal_counter_read(void)
{
	uint32_t lo = ~TIMER1_VALUE; /* ticks since start, mod 2^32 */
	uint32_t hi = ~TIMER2_VALUE; /* the same / 256 */

	return mps2_counter_insns(lo, hi);
}

/* The timers run from hal_init on; no debugger stops them here. */
void hal_counter_arm(void)
{
}

/* As on qemu-netduino: instructions, no clock (0: unknown), EMULATED. */
void hal_counter_info(struct hal_counter_info *info)
{
	info->unit = HILP_UNIT_INSTRUCTIONS_EMU;
	info->counter_hz = 0;
	info->clock_hz = 0;
	info->flash_acr = 0;
	info->flags = HILP_INFO_EMULATED;
}

/* The MPS2 has no device UID: twelve zero bytes, which the host reads as none. */
void hal_uid(uint8_t uid[12])
{
	unsigned i;

	for (i = 0; i < 12u; i++) {
		uid[i] = 0;
	}
}

/* No pin anything could watch. */
void hal_trigger(int on)
{
	(void)on;
}

const char *hal_board_name(void)
{
	return "qemu-mps2-an386";
}

/* SYSRESETREQ (ARMv7-M ARM B3.2.6); the last frame already left with its SYS_WRITE. */
void hal_reset(void)
{
	__asm volatile("dsb" ::: "memory");
	SCB_AIRCR = SCB_AIRCR_VECTKEY | (SCB_AIRCR & SCB_AIRCR_PRIGROUP_MASK) |
		    SCB_AIRCR_SYSRESETREQ;
	__asm volatile("dsb" ::: "memory");
	for (;;) {
	}
}
