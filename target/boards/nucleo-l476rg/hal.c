/* hal for the NUCLEO-L476RG: clock profile, USART2 to the ST-LINK VCP, DWT cycle counter, trigger pin, UID. */
#include <stdint.h>

#include "hilp.h"
#include "hal.h"
#include "regs_l476.h"
#include "clock_math.h"

/*
 * Compile-time settings (-D in board.mk or from the run configuration):
 *   HIL_CLOCK_HZ  80000000 (default), 24000000 or 16000000
 *   HIL_BAUD      115200 (default)
 *
 * Wiring, the same as on the NUCLEO-F401RE (both are Nucleo-64 boards,
 * UM1724): USART2 TX = PA2, RX = PA3 (AF7), routed to the ST-LINK virtual
 * COM port by the default solder bridges. Trigger = PA8 = Arduino D7,
 * push-pull, high while a measurement window is open: the F401 board's
 * pin, so that a probe or an INA219 set-up moves from one board to the
 * other unchanged.
 *
 * This board's hal.c has its own USART functions, hal_reset and hal_uid:
 * the L4's USART has other registers than the F4's, and its UID sits
 * elsewhere. common/hal_core.c gives the core ones (interrupts, stack
 * bounds, build-id), common/dwt.c the counter.
 */
#ifndef HIL_CLOCK_HZ
#define HIL_CLOCK_HZ 80000000
#endif
#ifndef HIL_BAUD
#define HIL_BAUD 115200
#endif

#define HSI_HZ	      CLOCK_HSI16_HZ
#define TRIGGER_PIN   8u /* PA8 */
#define USART_TX_PIN  2u /* PA2 */
#define USART_RX_PIN  3u /* PA3 */
#define AF7_USART2    7u
#define CLOCK_WAIT    200000u /* polls, >= 50 ms at 4 MHz; all need < 1 ms */
#define RESET_TX_WAIT 200000u /* > 10 bit times at 9600 Bd and 80 MHz */

/*
 * Clock profiles, all from the HSI16 (the board's HSE is the ST-LINK's
 * MCO, which depends on solder bridges, and the MSI's range is whatever a
 * debugger last left; HSI16 needs nothing). Every figure below is an
 * integer constant expression from clock_math.h (RM0351 limits there,
 * checked against the manual's numbers by tests/unit/test_l476_clock_math.c),
 * so the image holds results, not arithmetic:
 *   80 MHz = HSI16 / 2 * 20 / 2 (VCO 160 MHz), 4 WS, FLASH_ACR 0x704;
 *   24 MHz = HSI16 / 2 * 12 / 4 (VCO 96 MHz), 1 WS, FLASH_ACR 0x701;
 *   16 MHz = HSI16 itself, 0 WS, FLASH_ACR 0x600.
 * The VCO input (8 MHz) and outputs stay inside 4..16 and 64..344 MHz for
 * an HSI16 anywhere within +-1 %. AHB, APB1 and APB2 run undivided: the
 * L476 allows 80 MHz on every bus in voltage range 1.
 *
 * Caches (ICEN, DCEN) are on in every profile, prefetch (PRFTEN) only
 * where there are wait states, as on the F401 board: at 0 WS a flash
 * access costs the same with or without them.
 */
#if !CLOCK_PROFILE_SUPPORTED(HIL_CLOCK_HZ)
#error "HIL_CLOCK_HZ must be 80000000, 24000000 or 16000000"
#endif
#if HIL_BAUD <= 0
#error "HIL_BAUD must be positive"
#endif

#define USE_PLL (HIL_CLOCK_HZ != HSI_HZ)
#define WS	CLOCK_FLASH_WS(HIL_CLOCK_HZ, 1u)
#define ACR_ON                                                                 \
	(FLASH_ACR_LATENCY(WS) | FLASH_ACR_ICEN | FLASH_ACR_DCEN |             \
	 (WS != 0 ? FLASH_ACR_PRFTEN : 0u))
#define ACR_ALL                                                                \
	(FLASH_ACR_LATENCY_MASK | FLASH_ACR_PRFTEN | FLASH_ACR_ICEN |          \
	 FLASH_ACR_DCEN | FLASH_ACR_ICRST | FLASH_ACR_DCRST)

#if USE_PLL && !CLOCK_PLL_CAN(HSI_HZ, HIL_CLOCK_HZ)
#error "the PLL cannot make HIL_CLOCK_HZ from the HSI16"
#endif
#if WS == CLOCK_WS_INVALID
#error "HIL_CLOCK_HZ is beyond what the L476 runs in voltage range 1"
#endif

/*
 * USART2 divider (USART baud rate generation, OVER8 = 0: BRR = f_ck /
 * baud rounded, clock_math.h), f_ck = PCLK1 = HCLK (RCC_CCIPR.USART2SEL
 * at its reset value, PCLK1), and for the HSI16 after a clock fallback.
 * 115200 Bd: 80 MHz -> 694 (+0.06 %), 24 MHz -> 208 (+0.16 %), 16 MHz ->
 * 139 (-0.08 %). A rate more than 2 % off is still set to the nearest
 * divider and hal_init reports HILP_ST_BAD_ARG; a rate no divider can
 * make fails the build.
 */
#define BRR_RUN	   CLOCK_USART_BRR_NEAREST(HIL_CLOCK_HZ, HIL_BAUD)
#define BRR_RUN_OK (CLOCK_USART_BRR(HIL_CLOCK_HZ, HIL_BAUD) != 0u)
#define BRR_HSI	   CLOCK_USART_BRR_NEAREST(HSI_HZ, HIL_BAUD)
#if BRR_RUN == 0
#error "USART2 cannot make HIL_BAUD from this clock (BRR out of range)"
#endif

/*
 * Register set-up as data, as on the F401 board: each step is reg =
 * (reg & ~clear) | set, then, unless wait is NO_WAIT, a bounded poll
 * until the bits just written show up in their status field `wait` bits
 * higher: HSION 8 -> HSIRDY 10 (shift 2) and PLLON 24 -> PLLRDY 25
 * (shift 1) in RCC_CR (§6.4.1), SW 1:0 -> SWS 3:2 in RCC_CFGR (§6.4.3);
 * FLASH_ACR and the clock enables read back in place (shift 0). A
 * POLL_ONLY step writes nothing and waits for its `clear` bits to read 0
 * (PWR_SR2.VOSF). The peripherals span the APB1 (PWR) and AHB1 (RCC,
 * flash) blocks, so reg is a word index from PERIPH_BASE_APB1, or from
 * GPIOA for the pin table: a row stays 12 bytes.
 */
struct reg_step {
	uint32_t clear;
	uint32_t set;
	uint16_t reg;
	uint8_t wait;
};

#define NO_WAIT	  0xFFu
#define POLL_ONLY 0x80u
#define APB1(r)	  ((uint16_t)(((uintptr_t)(&(r)) - PERIPH_BASE_APB1) / 4u))
#define PORTA(r)  ((uint16_t)(((uintptr_t)(&(r)) - GPIOA_BASE) / 4u))

/*
 * The sequence (RM0351 §5.1.8 dynamic voltage scaling, §3.3.3 "increasing
 * the CPU frequency", §6.2 clocks). The first TO_HSI steps start every
 * boot and are also the fallback after a timeout:
 * - clocks of PWR, USART2 and GPIOA on, each read back, then a DSB in
 *   reg_apply: the F401 board's precaution for its errata's "delay
 *   after an RCC peripheral clock enabling", kept here (not checked
 *   against the L476's errata sheet; it costs nothing);
 * - voltage range 1 (its reset value; set anyway, and VOSF awaited,
 *   before SYSCLK leaves the MSI: range 2 would need 2 wait states even
 *   at 16 MHz). The MSI runs at 4 MHz after reset, or at 24 MHz with
 *   FLASH_ACR = 0x103 after OpenOCD's stm32l4x.cfg reset-init;
 * - SYSCLK to the HSI16 with every bus /1 and the PLL off (a debugger may
 *   have left it running; its configuration may only change while it is
 *   off, §6.4.4).
 * Then the flash latency is raised and read back (RM0351: check that the
 * new number of wait states is taken into account by reading FLASH_ACR;
 * the caches are reset while disabled, and the third write clears
 * ICRST/DCRST again, as on the F401), the PLL is programmed (PLLSRC =
 * HSI16, PLLREN on, P
 * and Q outputs off) and started, and SW is switched.
 */
static const struct reg_step clock_steps[] = {
	{0, RCC_APB1ENR1_PWREN | RCC_APB1ENR1_USART2EN, APB1(RCC_APB1ENR1), 0},
	{0, RCC_AHB2ENR_GPIOAEN, APB1(RCC_AHB2ENR), 0},
	{PWR_CR1_VOS_MASK, PWR_CR1_VOS_RANGE1, APB1(PWR_CR1), NO_WAIT},
	{PWR_SR2_VOSF, 0, APB1(PWR_SR2), POLL_ONLY},
	{0, RCC_CR_HSION, APB1(RCC_CR), 2},
	{RCC_CFGR_SW_MASK, RCC_CFGR_SW_HSI16, APB1(RCC_CFGR), 2},
	{RCC_CFGR_HPRE_MASK | RCC_CFGR_PPRE1_MASK | RCC_CFGR_PPRE2_MASK, 0,
	 APB1(RCC_CFGR), NO_WAIT},
	{RCC_CR_PLLON, 0, APB1(RCC_CR), 1},
#define TO_HSI 8u
	{ACR_ALL, FLASH_ACR_LATENCY(WS), APB1(FLASH_ACR), NO_WAIT},
	{0, FLASH_ACR_ICRST | FLASH_ACR_DCRST, APB1(FLASH_ACR), NO_WAIT},
	{ACR_ALL, ACR_ON, APB1(FLASH_ACR), 0},
#if USE_PLL
	{RCC_PLLCFGR_FIELDS, CLOCK_PLLCFGR_HSI_FOR(HIL_CLOCK_HZ),
	 APB1(RCC_PLLCFGR), NO_WAIT},
	{0, RCC_CR_PLLON, APB1(RCC_CR), 1},
	{RCC_CFGR_SW_MASK, RCC_CFGR_SW_PLL, APB1(RCC_CFGR), 2},
#endif
};

/*
 * RM0351 GPIO chapter: PA2/PA3 to AF7 (USART2), pull-up on RX so that a
 * floating line reads idle; PA8 push-pull output, driven low (BSRR reads
 * as 0) before the mode switch so that the trigger never glitches high at
 * boot. Every pin resets to analog mode here; only our pins' fields change
 * (PA13/PA14 stay SWD).
 */
static const struct reg_step gpio_steps[] = {
	{GPIO_AFR_MASK(USART_TX_PIN) | GPIO_AFR_MASK(USART_RX_PIN),
	 GPIO_AFR(USART_TX_PIN, AF7_USART2) |
		 GPIO_AFR(USART_RX_PIN, AF7_USART2),
	 PORTA(GPIO_AFRL(GPIOA)), NO_WAIT},
	{GPIO_PUPDR_MASK(USART_RX_PIN), GPIO_PUPDR_PULLUP(USART_RX_PIN),
	 PORTA(GPIO_PUPDR(GPIOA)), NO_WAIT},
	{0, GPIO_BSRR_RESET(TRIGGER_PIN), PORTA(GPIO_BSRR(GPIOA)), NO_WAIT},
	{1u << TRIGGER_PIN, 0, PORTA(GPIO_OTYPER(GPIOA)), NO_WAIT},
	{GPIO_MODER_MASK(USART_TX_PIN) | GPIO_MODER_MASK(USART_RX_PIN) |
		 GPIO_MODER_MASK(TRIGGER_PIN),
	 GPIO_MODER_AF(USART_TX_PIN) | GPIO_MODER_AF(USART_RX_PIN) |
		 GPIO_MODER_OUTPUT(TRIGGER_PIN),
	 PORTA(GPIO_MODER(GPIOA)), NO_WAIT},
};

#define STEPS(t) ((uint32_t)(sizeof(t) / sizeof((t)[0])))

/*
 * Apply step[0..n) to the registers at base.
 * @return 1, or 0 at the first status that did not follow in time.
 */
static int reg_apply(uint32_t base, const struct reg_step *step, uint32_t n)
{
	for (; n != 0u; n--, step++) {
		volatile uint32_t *reg = &MMIO32(base + 4u * step->reg);
		uint32_t shift = step->wait & 3u, mask, want, polls;

		if (step->wait != POLL_ONLY) {
			*reg = (*reg & ~step->clear) | step->set;
			/* Every write completes before the next access (clock enables). */
			__asm volatile("dsb" ::: "memory");
		}
		if (step->wait == NO_WAIT) {
			continue;
		}
		mask = (step->clear | step->set) << shift;
		want = step->set << shift;
		for (polls = CLOCK_WAIT; (*reg & mask) != want; polls--) {
			if (polls == 0u) {
				return 0;
			}
		}
	}
	return 1;
}

/* RM0351 USART chapter: disabled (UE = 0) while configured, then 8N1 on. */
static void usart_init(uint32_t brr)
{
	/* Its clock came on with clock_steps. */
	USART_CR1(USART2) = 0;
	/*
	 * CR2 and CR3 keep their reset value 0 (every reset, SYSRESETREQ
	 * included, resets USART2; nothing else here writes them): 1 stop
	 * bit, no flow control, overrun detection on (OVRDIS = 0). Not
	 * writing them keeps the image within the stub's footprint budget.
	 */
	USART_BRR(USART2) = brr;
	USART_CR1(USART2) = USART_CR1_UE | USART_CR1_TE | USART_CR1_RE;
}

/*
 * Clock first; after a timeout back to the HSI16 (a flash latency left
 * higher than needed is safe at 16 MHz) so that the UART still works to
 * report HILP_ST_CLOCK. Then the DWT cycle counter (ARMv7-M ARM C1.8 DWT,
 * C1.6.5 DEMCR): TRCENA powers the DWT; NOCYCCNT = 1 would mean this core
 * has no CYCCNT. SysTick is stopped: the stub takes no interrupts and
 * nothing else may run inside a window.
 */
uint8_t hal_init(void)
{
	uint8_t st;

	if (reg_apply(PERIPH_BASE_APB1, clock_steps, STEPS(clock_steps))) {
		st = BRR_RUN_OK ? HILP_ST_OK : HILP_ST_BAD_ARG;
	} else {
		(void)reg_apply(PERIPH_BASE_APB1, clock_steps, TO_HSI);
		st = HILP_ST_CLOCK;
	}
	(void)reg_apply(GPIOA_BASE, gpio_steps, STEPS(gpio_steps));
	usart_init(st != HILP_ST_CLOCK ? BRR_RUN : BRR_HSI);

	SYST_CSR = 0;
	hal_counter_arm();
	if (DWT_CTRL & DWT_CTRL_NOCYCCNT) {
		return st == HILP_ST_OK ? HILP_ST_UNSUPPORTED : st;
	}
	DWT_CYCCNT = 0;
	return st;
}

/* Receive overruns since reset; reported in INFO. */
static uint32_t uart_overruns;

/*
 * Wait for a received byte; count and clear overruns. This USART is not
 * the F4's (common/usart_rx.h): ORE is cleared only by writing ORECF to
 * USART_ICR, not by reading the data register, and while ORE is set the
 * receiver delivers no further RXNE, so a loop that only waited for RXNE
 * would hang for good after one overrun (RM0351 USART "Overrun error";
 * the F4's ORE behaves alike, which is why usart_rx.h exists). When ORE
 * is set with RXNE, RDR still holds the byte received before the lost
 * one(s): it is returned, the framing (CRC, COBS) rejects the damaged
 * frame and the host retries. OVRDIS stays 0 so that overruns are seen.
 */
uint8_t hal_uart_getc(void)
{
	for (;;) {
		uint32_t isr = USART_ISR(USART2);

		if (isr & USART_ISR_ORE) {
			USART_ICR(USART2) = USART_ICR_ORECF;
			uart_overruns++;
		}
		if (isr & USART_ISR_RXNE) {
			return (uint8_t)USART_RDR(USART2);
		}
	}
}

void hal_uart_putc(uint8_t c)
{
	while (!(USART_ISR(USART2) & USART_ISR_TXE)) {
	}
	USART_TDR(USART2) = c;
}

uint32_t hal_uart_overruns(void)
{
	return uart_overruns;
}

/*
 * Let the last byte of the reply leave the shift register (ISR.TC) before
 * the reset cuts it off, bounded; then SYSRESETREQ (ARMv7-M ARM B3.2.6),
 * keeping PRIGROUP as the manual asks.
 */
void hal_reset(void)
{
	uint32_t n;

	for (n = 0; n < RESET_TX_WAIT; n++) {
		if (USART_ISR(USART2) & USART_ISR_TC) {
			break;
		}
	}
	__asm volatile("dsb" ::: "memory");
	SCB_AIRCR = SCB_AIRCR_VECTKEY | (SCB_AIRCR & SCB_AIRCR_PRIGROUP_MASK) |
		    SCB_AIRCR_SYSRESETREQ;
	__asm volatile("dsb" ::: "memory");
	for (;;) {
	}
}

/*
 * Three words at UID_BASE (not the F4's 0x1FFF7A10), UID[31:0] first;
 * least significant byte first on the wire, as on the other boards.
 */
void hal_uid(uint8_t uid[12])
{
	unsigned i;

	for (i = 0; i < 3u; i++) {
		hilp_put_u32(uid + 4u * i, MMIO32(UID_BASE + 4u * i));
	}
}

/*
 * Everything as the chip reports it now, not as we meant it: SYSCLK from
 * SWS (the PLL only ever runs as this build programmed it; otherwise it is
 * the HSI16, after a fallback or in the 16 MHz profile: the MSI remains
 * only if even the HSI16 never became ready, which the boot status
 * HILP_ST_CLOCK already says), FLASH_ACR, NOCYCCNT.
 */
void hal_counter_info(struct hal_counter_info *info)
{
	uint32_t hz = (RCC_CFGR & RCC_CFGR_SWS_MASK) == RCC_CFGR_SWS_PLL
			      ? HIL_CLOCK_HZ
			      : HSI_HZ;

	info->unit = HILP_UNIT_CYCLES;
	info->clock_hz = hz;
	info->counter_hz = hz; /* CYCCNT counts core clock cycles */
	info->flash_acr = FLASH_ACR;
	info->flags =
		(DWT_CTRL & DWT_CTRL_NOCYCCNT) ? 0u : HILP_INFO_CYCLE_COUNTER;
}

void hal_trigger(int on)
{
	GPIO_BSRR(GPIOA) =
		on ? GPIO_BSRR_SET(TRIGGER_PIN) : GPIO_BSRR_RESET(TRIGGER_PIN);
}

const char *hal_board_name(void)
{
	return "nucleo-l476rg";
}
