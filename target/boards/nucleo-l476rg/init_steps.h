/* init_steps: the NUCLEO-L476RG's clock and pin set-up as a table of register steps, applied by hal.c and read back on the host by tests/unit/test_l476_init_steps.c. */
#ifndef L476_INIT_STEPS_H
#define L476_INIT_STEPS_H

#include <stdint.h>

#include "regs_l476.h"
#include "clock_math.h"

/*
 * Compile-time settings (-D in board.mk or from the run configuration):
 *   HIL_CLOCK_HZ  80000000 (default), 24000000 or 16000000
 *
 * Wiring, the same as on the NUCLEO-F401RE (both are Nucleo-64 boards,
 * UM1724): USART2 TX = PA2, RX = PA3 (AF7), routed to the ST-LINK virtual
 * COM port by the default solder bridges. Trigger = PA8 = Arduino D7,
 * push-pull, high while a measurement window is open: the F401 board's
 * pin, so that a probe or an INA219 set-up moves from one board to the
 * other unchanged.
 */
#ifndef HIL_CLOCK_HZ
#define HIL_CLOCK_HZ 80000000
#endif

#define HSI_HZ	     CLOCK_HSI16_HZ
#define TRIGGER_PIN  8u /* PA8 */
#define USART_TX_PIN 2u /* PA2 */
#define USART_RX_PIN 3u /* PA3 */
#define AF7_USART2   7u

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

#define USE_PLL (HIL_CLOCK_HZ != HSI_HZ)
#define WS	CLOCK_FLASH_WS(HIL_CLOCK_HZ, 1u)
#define ACR_ON                                                                 \
	(FLASH_ACR_LATENCY(WS) | FLASH_ACR_ICEN | FLASH_ACR_DCEN |             \
	 (WS != 0 ? FLASH_ACR_PRFTEN : 0u))
#define ACR_ALL                                                                \
	(FLASH_ACR_LATENCY_MASK | FLASH_ACR_PRFTEN | FLASH_ACR_ICEN |          \
	 FLASH_ACR_DCEN | FLASH_ACR_ICRST | FLASH_ACR_DCRST)
/* RCC_PLLCFGR for this profile (PLLSRC = HSI16, PLLREN, P and Q off). */
#define PLLCFGR_SET CLOCK_PLLCFGR_HSI_FOR(HIL_CLOCK_HZ)

#if USE_PLL && !CLOCK_PLL_CAN(HSI_HZ, HIL_CLOCK_HZ)
#error "the PLL cannot make HIL_CLOCK_HZ from the HSI16"
#endif
#if WS == CLOCK_WS_INVALID
#error "HIL_CLOCK_HZ is beyond what the L476 runs in voltage range 1"
#endif

/*
 * Register set-up as data, as on the F401 board: each step is reg =
 * (reg & ~clear) | set, then, with POLL, a bounded poll until the bits
 * just written show up in their status field SHIFT(n) bits higher:
 * HSION 8 -> HSIRDY 10 (shift 2) and PLLON 24 -> PLLRDY 25 (shift 1) in
 * RCC_CR (§6.4.1), SW 1:0 -> SWS 3:2 in RCC_CFGR (§6.4.3); FLASH_ACR and
 * the clock enables read back in place (shift 0). A POLL_ONLY step writes
 * nothing and waits for its `clear` bits to read 0 (PWR_SR2.VOSF). The
 * peripherals span the APB1 (PWR) and AHB1 (RCC, flash) blocks, so reg is
 * a word index from PERIPH_BASE_APB1, or from GPIOA for the pin steps.
 *
 * A row is 8 bytes, not the 12 of two full words: every clear and set of
 * this sequence but RCC_PLLCFGR's fits 16 bits above the lowest bit of
 * clear | set, so a row keeps those 16 bits and that bit number (lsb),
 * and STEP() works both out at compile time; a field wider than 16 bits
 * fails the build (a negative array size) instead of losing bits.
 * RCC_PLLCFGR's fields span bits 26:0: its one row is flagged
 * PLLCFGR_ROW and takes RCC_PLLCFGR_FIELDS and PLLCFGR_SET instead.
 * step_clear() and step_set() give the full words back.
 */
struct reg_step {
	uint16_t clear; /* bits to clear, >> lsb */
	uint16_t set;	/* bits to set, >> lsb */
	uint16_t reg;
	uint8_t lsb;
	uint8_t flags;
};

#define SHIFT(n)    ((uint8_t)(n)) /* 0..2: where the status field sits */
#define POLL	    0x04u	   /* poll after the write */
#define NO_WRITE    0x08u	   /* poll only */
#define PLLCFGR_ROW 0x10u	   /* clear and set as said above */
#define NO_WAIT	    0x00u
#define POLL_ONLY   (POLL | NO_WRITE)
#define APB1(r)	    ((uint16_t)(((uintptr_t)(&(r)) - PERIPH_BASE_APB1) / 4u))
#define PORTA(r)    ((uint16_t)(((uintptr_t)(&(r)) - GPIOA_BASE) / 4u))

/* Bit number of the power of two p (0 for 0). */
#define LOG2_POW2(p)                                                           \
	((((p)&0xFFFF0000u) != 0u ? 16u : 0u) +                                \
	 (((p)&0xFF00FF00u) != 0u ? 8u : 0u) +                                 \
	 (((p)&0xF0F0F0F0u) != 0u ? 4u : 0u) +                                 \
	 (((p)&0xCCCCCCCCu) != 0u ? 2u : 0u) +                                 \
	 (((p)&0xAAAAAAAAu) != 0u ? 1u : 0u))
/* Lowest set bit of clear | set (0 when both are 0). */
#define STEP_LSB(c, s) LOG2_POW2(((c) | (s)) & (0u - ((c) | (s))))
/* v >> lsb, and a build error when clear | set spans more than 16 bits. */
#define STEP_FIELD(v, c, s)                                                     \
	((uint16_t)(((v) >> STEP_LSB(c, s)) +                                   \
		    0u * sizeof(char[(((c) | (s)) >> STEP_LSB(c, s)) <= 0xFFFFu \
					     ? 1                                \
					     : -1])))
#define STEP(r, c, s, f)                                                       \
	{                                                                      \
		STEP_FIELD(c, c, s), STEP_FIELD(s, c, s), r,                   \
			(uint8_t)STEP_LSB(c, s), f                             \
	}

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
 * HSI16, PLLREN on, P and Q outputs off) and started, and SW is switched.
 * That is CLOCK_STEPS steps, applied from PERIPH_BASE_APB1.
 */
static const struct reg_step clock_steps[] = {
	STEP(APB1(RCC_APB1ENR1), 0, RCC_APB1ENR1_PWREN | RCC_APB1ENR1_USART2EN,
	     POLL | SHIFT(0)),
	STEP(APB1(RCC_AHB2ENR), 0, RCC_AHB2ENR_GPIOAEN, POLL | SHIFT(0)),
	STEP(APB1(PWR_CR1), PWR_CR1_VOS_MASK, PWR_CR1_VOS_RANGE1, NO_WAIT),
	STEP(APB1(PWR_SR2), PWR_SR2_VOSF, 0, POLL_ONLY),
	STEP(APB1(RCC_CR), 0, RCC_CR_HSION, POLL | SHIFT(2)),
	STEP(APB1(RCC_CFGR), RCC_CFGR_SW_MASK, RCC_CFGR_SW_HSI16,
	     POLL | SHIFT(2)),
	STEP(APB1(RCC_CFGR),
	     RCC_CFGR_HPRE_MASK | RCC_CFGR_PPRE1_MASK | RCC_CFGR_PPRE2_MASK, 0,
	     NO_WAIT),
	STEP(APB1(RCC_CR), RCC_CR_PLLON, 0, POLL | SHIFT(1)),
#define TO_HSI 8u
	STEP(APB1(FLASH_ACR), ACR_ALL, FLASH_ACR_LATENCY(WS), NO_WAIT),
	STEP(APB1(FLASH_ACR), 0, FLASH_ACR_ICRST | FLASH_ACR_DCRST, NO_WAIT),
	STEP(APB1(FLASH_ACR), ACR_ALL, ACR_ON, POLL | SHIFT(0)),
#if USE_PLL
	{0, 0, APB1(RCC_PLLCFGR), 0, PLLCFGR_ROW | NO_WAIT},
	STEP(APB1(RCC_CR), 0, RCC_CR_PLLON, POLL | SHIFT(1)),
	STEP(APB1(RCC_CFGR), RCC_CFGR_SW_MASK, RCC_CFGR_SW_PLL,
	     POLL | SHIFT(2)),
#endif
};

/*
 * RM0351 GPIO chapter: PA2/PA3 to AF7 (USART2), pull-up on RX so that a
 * floating line reads idle; PA8 push-pull output, driven low (BSRR reads
 * as 0) before the mode switch so that the trigger never glitches high at
 * boot. Every pin resets to analog mode here; only our pins' fields change
 * (PA13/PA14 stay SWD). GPIO_STEPS steps, applied from GPIOA_BASE.
 */
static const struct reg_step gpio_steps[] = {
	STEP(PORTA(GPIO_AFRL(GPIOA)),
	     GPIO_AFR_MASK(USART_TX_PIN) | GPIO_AFR_MASK(USART_RX_PIN),
	     GPIO_AFR(USART_TX_PIN, AF7_USART2) |
		     GPIO_AFR(USART_RX_PIN, AF7_USART2),
	     NO_WAIT),
	STEP(PORTA(GPIO_PUPDR(GPIOA)), GPIO_PUPDR_MASK(USART_RX_PIN),
	     GPIO_PUPDR_PULLUP(USART_RX_PIN), NO_WAIT),
	STEP(PORTA(GPIO_BSRR(GPIOA)), 0, GPIO_BSRR_RESET(TRIGGER_PIN), NO_WAIT),
	STEP(PORTA(GPIO_OTYPER(GPIOA)), 1u << TRIGGER_PIN, 0, NO_WAIT),
	STEP(PORTA(GPIO_MODER(GPIOA)),
	     GPIO_MODER_MASK(USART_TX_PIN) | GPIO_MODER_MASK(USART_RX_PIN) |
		     GPIO_MODER_MASK(TRIGGER_PIN),
	     GPIO_MODER_AF(USART_TX_PIN) | GPIO_MODER_AF(USART_RX_PIN) |
		     GPIO_MODER_OUTPUT(TRIGGER_PIN),
	     NO_WAIT),
};

#define STEPS_OF(t) ((uint32_t)(sizeof(t) / sizeof((t)[0])))
#define CLOCK_STEPS STEPS_OF(clock_steps)
#define GPIO_STEPS  STEPS_OF(gpio_steps)

/* The bits a step clears, as a full register word. */
static inline uint32_t step_clear(const struct reg_step *step)
{
	return step->flags & PLLCFGR_ROW ? RCC_PLLCFGR_FIELDS
					 : (uint32_t)step->clear << step->lsb;
}

/* The bits a step sets, as a full register word. */
static inline uint32_t step_set(const struct reg_step *step)
{
	return step->flags & PLLCFGR_ROW ? PLLCFGR_SET
					 : (uint32_t)step->set << step->lsb;
}

#endif /* L476_INIT_STEPS_H */
