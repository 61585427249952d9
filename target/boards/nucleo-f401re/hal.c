/* hal for the NUCLEO-F401RE: clock profile, USART2 to the ST-LINK VCP, DWT cycle counter, trigger pin. */
#include <stdint.h>

#include "hilp.h"
#include "hal.h"
#include "regs.h"
#include "clock_math.h"

/*
 * Compile-time settings (-D in board.mk or from the run configuration):
 *   HIL_CLOCK_HZ  84000000 (default), 24000000 or 16000000
 *   HIL_BAUD      115200 (default)
 *
 * Wiring: USART2 TX = PA2, RX = PA3 (AF7), routed to the ST-LINK virtual
 * COM port by the default solder bridges (SB13/SB14 on, SB62/SB63 off).
 * Trigger = PA8 = Arduino connector D7 (CN9 pin 8, morpho CN10 pin 23),
 * push-pull, high while a measurement window is open.
 */
#ifndef HIL_CLOCK_HZ
#define HIL_CLOCK_HZ 84000000
#endif
#ifndef HIL_BAUD
#define HIL_BAUD 115200
#endif

#define HSI_HZ	     CLOCK_HSI_HZ
#define TRIGGER_PIN  8u /* PA8 */
#define USART_TX_PIN 2u /* PA2 */
#define USART_RX_PIN 3u /* PA3 */
#define AF7_USART2   7u
#define CLOCK_WAIT   200000u /* ~50 ms at 16 MHz; PLL lock is < 0.2 ms */

/*
 * Clock profiles, all from the 16 MHz HSI (the board's HSE is the ST-LINK
 * MCO, which depends on solder bridges; HSI needs nothing). The PLL
 * factors, flash wait states and APB1 divider come from clock_math.h
 * (RM0368 limits there; checked against the manual by
 * tests/unit/test_nucleo_clock_math.c): 84 MHz = HSI / 16 * 336 / 4 at
 * 2 WS with APB1 /2 (42 MHz); 24 MHz = HSI / 16 * 192 / 8 and 16 MHz =
 * HSI, both at 0 WS with APB1 /1.
 * VOS: PWR_CR resets to Scale 2, good for 84 MHz (RM0368 §5.4.1): untouched.
 *
 * 24 and 16 MHz run at 0 WS, where a flash access costs the same with or
 * without the ART caches: figures comparable to pqm4-style tables (pqm4 also
 * leaves ICEN/DCEN on at 0 WS). 84 MHz is the realistic profile, with
 * prefetch on as well: it only pays when there are wait states.
 */
#if HIL_CLOCK_HZ != 84000000 && HIL_CLOCK_HZ != 24000000 &&                    \
	HIL_CLOCK_HZ != 16000000
#error "HIL_CLOCK_HZ must be 84000000, 24000000 or 16000000"
#endif

/* What the clock tree actually runs at (HSI after a fallback). */
static uint32_t sysclk_hz = HSI_HZ;
static uint32_t apb1_hz = HSI_HZ;
static uint8_t have_cyccnt;
static uint8_t uart_status = HILP_ST_OK;

/* Spin until (reg & mask) == want, at most CLOCK_WAIT reads. @return 1 if it did. */
static int wait_bits(volatile uint32_t *reg, uint32_t mask, uint32_t want)
{
	uint32_t n;

	for (n = 0; n < CLOCK_WAIT; n++) {
		if ((*reg & mask) == want) {
			return 1;
		}
	}
	return 0;
}

/* SYSCLK = HSI, all buses /1 (RM0368 §6.3.3: SW, then SWS confirms). */
static int switch_to_hsi(void)
{
	RCC_CR |= RCC_CR_HSION;
	if (!wait_bits(&RCC_CR, RCC_CR_HSIRDY, RCC_CR_HSIRDY)) {
		return 0;
	}
	RCC_CFGR = (RCC_CFGR & ~RCC_CFGR_SW_MASK) | RCC_CFGR_SW_HSI;
	if (!wait_bits(&RCC_CFGR, RCC_CFGR_SWS_MASK, RCC_CFGR_SWS_HSI)) {
		return 0;
	}
	RCC_CFGR &= ~(RCC_CFGR_HPRE_MASK | RCC_CFGR_PPRE1_MASK |
		      RCC_CFGR_PPRE2_MASK);
	sysclk_hz = HSI_HZ;
	apb1_hz = HSI_HZ;
	return 1;
}

/*
 * Sequence of RM0368 §3.4.1 ("increasing the CPU frequency") and §6.2.3:
 * start from HSI (a debugger may have left the PLL running), stop the PLL
 * (its configuration may only change while it is off, §6.3.2), program and
 * start it, raise the flash latency and confirm it by reading FLASH_ACR
 * back, set the bus prescalers, switch SW and confirm with SWS. Every wait
 * is bounded; on a timeout stay on (or go back to) HSI so the UART still
 * works to report HILP_ST_CLOCK. Flash latency left higher than needed is
 * safe at 16 MHz, so the fallback does not lower it.
 */
static uint8_t clock_init(void)
{
	struct clock_profile prof;
	uint32_t acr;

	if (!clock_profile_for(HSI_HZ, HIL_CLOCK_HZ, &prof)) {
		return HILP_ST_CLOCK; /* cannot happen for the three profiles */
	}
	acr = FLASH_ACR_LATENCY(prof.flash_ws) | FLASH_ACR_ICEN |
	      FLASH_ACR_DCEN | (prof.flash_ws != 0 ? FLASH_ACR_PRFTEN : 0u);
	if (!switch_to_hsi()) {
		return HILP_ST_CLOCK;
	}
	RCC_CR &= ~RCC_CR_PLLON;
	if (!wait_bits(&RCC_CR, RCC_CR_PLLRDY, 0)) {
		return HILP_ST_CLOCK;
	}
	/* Caches may only be reset while disabled (RM0368 §3.8.1). */
	FLASH_ACR = FLASH_ACR_LATENCY(prof.flash_ws);
	FLASH_ACR = FLASH_ACR_LATENCY(prof.flash_ws) | FLASH_ACR_ICRST |
		    FLASH_ACR_DCRST;
	FLASH_ACR = acr;
	if (!wait_bits(&FLASH_ACR,
		       FLASH_ACR_LATENCY_MASK | FLASH_ACR_PRFTEN |
			       FLASH_ACR_ICEN | FLASH_ACR_DCEN,
		       acr)) {
		return HILP_ST_CLOCK;
	}
	if (prof.use_pll) {
		/* PLLSRC = 0: HSI. */
		RCC_PLLCFGR = (RCC_PLLCFGR & ~RCC_PLLCFGR_FIELDS) |
			      clock_pllcfgr(&prof.pll);
		RCC_CR |= RCC_CR_PLLON;
		if (!wait_bits(&RCC_CR, RCC_CR_PLLRDY, RCC_CR_PLLRDY)) {
			goto fallback;
		}
	}
	/* Prescalers first, so APB1 never sees more than 42 MHz. */
	RCC_CFGR = (RCC_CFGR & ~(RCC_CFGR_HPRE_MASK | RCC_CFGR_PPRE1_MASK |
				 RCC_CFGR_PPRE2_MASK)) |
		   clock_ppre_bits(prof.apb1_div) << CLOCK_CFGR_PPRE1_SHIFT |
		   RCC_CFGR_PPRE2_DIV1;
	if (prof.use_pll) {
		RCC_CFGR = (RCC_CFGR & ~RCC_CFGR_SW_MASK) | RCC_CFGR_SW_PLL;
		if (!wait_bits(&RCC_CFGR, RCC_CFGR_SWS_MASK,
			       RCC_CFGR_SWS_PLL)) {
			goto fallback;
		}
	}
	sysclk_hz = prof.sysclk_hz;
	apb1_hz = prof.apb1_hz;
	return HILP_ST_OK;

fallback:
	(void)switch_to_hsi();
	RCC_CR &= ~RCC_CR_PLLON;
	return HILP_ST_CLOCK;
}

/*
 * RM0368 §8.3 and §8.4: PA2/PA3 to AF7 (USART2), pull-up on RX so a
 * floating line reads idle; PA8 push-pull output, driven low before the
 * mode switch so the trigger never glitches high at boot.
 */
static void gpio_init(void)
{
	RCC_AHB1ENR |= RCC_AHB1ENR_GPIOAEN;
	(void)RCC_AHB1ENR; /* errata: let the clock reach the port first */

	GPIO_AFRL(GPIOA) = (GPIO_AFRL(GPIOA) & ~(GPIO_AFR_MASK(USART_TX_PIN) |
						 GPIO_AFR_MASK(USART_RX_PIN))) |
			   GPIO_AFR(USART_TX_PIN, AF7_USART2) |
			   GPIO_AFR(USART_RX_PIN, AF7_USART2);
	GPIO_PUPDR(GPIOA) =
		(GPIO_PUPDR(GPIOA) & ~GPIO_PUPDR_MASK(USART_RX_PIN)) |
		GPIO_PUPDR_PULLUP(USART_RX_PIN);
	GPIO_MODER(GPIOA) =
		(GPIO_MODER(GPIOA) & ~(GPIO_MODER_MASK(USART_TX_PIN) |
				       GPIO_MODER_MASK(USART_RX_PIN))) |
		GPIO_MODER_AF(USART_TX_PIN) | GPIO_MODER_AF(USART_RX_PIN);

	GPIO_BSRR(GPIOA) = GPIO_BSRR_RESET(TRIGGER_PIN);
	GPIO_OTYPER(GPIOA) &= ~(1u << TRIGGER_PIN);
	GPIO_MODER(GPIOA) =
		(GPIO_MODER(GPIOA) & ~GPIO_MODER_MASK(TRIGGER_PIN)) |
		GPIO_MODER_OUTPUT(TRIGGER_PIN);
}

/*
 * RM0368 §19.3.2/§19.3.3 (enable), §19.3.4 (baud rate): with OVER8 = 0,
 * USARTDIV = f_APB1 / (16 * baud) in 12.4 fixed point, i.e. BRR =
 * f_APB1 / baud rounded to nearest (clock_math.h), from the APB1 clock we
 * actually run at (16 MHz after a clock fallback). 115200 Bd: 42 MHz ->
 * 365 = 0x16D (-0.11 %), 24 MHz -> 208 (+0.16 %), 16 MHz -> 139 (-0.08 %).
 * A rate more than 2 % off is refused: the nearest divider is still set
 * (the host may yet get through) and hal_init reports HILP_ST_BAD_ARG.
 */
static void usart_init(void)
{
	uint32_t brr;

	RCC_APB1ENR |= RCC_APB1ENR_USART2EN;
	(void)RCC_APB1ENR;

	USART_CR1(USART2) = 0;
	USART_CR2(USART2) = 0; /* 1 stop bit */
	USART_CR3(USART2) = 0; /* no flow control */
	brr = clock_usart_brr(apb1_hz, HIL_BAUD);
	if (brr == 0) {
		brr = clock_usart_brr_nearest(apb1_hz, HIL_BAUD);
		uart_status = HILP_ST_BAD_ARG;
	}
	USART_BRR(USART2) = brr;
	USART_CR1(USART2) =
		USART_CR1_UE | USART_CR1_TE | USART_CR1_RE; /* 8N1 */
}

/*
 * DWT cycle counter (ARMv7-M ARM C1.8 DWT, C1.6.5 DEMCR): TRCENA powers the
 * DWT; NOCYCCNT = 1 would mean this core has no CYCCNT. SysTick is stopped:
 * the stub takes no interrupts and nothing else may run inside a window.
 */
static void counter_init(void)
{
	SYST_CSR = 0;
	DEMCR |= DEMCR_TRCENA;
	have_cyccnt = !(DWT_CTRL & DWT_CTRL_NOCYCCNT);
	if (have_cyccnt) {
		DWT_CYCCNT = 0;
		DWT_CTRL |= DWT_CTRL_CYCCNTENA;
	}
}

uint8_t hal_init(void)
{
	uint8_t st = clock_init();

	gpio_init();
	usart_init();
	counter_init();
	if (st == HILP_ST_OK) {
		st = uart_status;
	}
	if (st == HILP_ST_OK && !have_cyccnt) {
		st = HILP_ST_UNSUPPORTED;
	}
	return st;
}

uint8_t hal_uart_getc(void)
{
	/* Reading SR then DR also clears ORE/FE/NE (RM0368 §19.6.1). */
	while (!(USART_SR(USART2) & USART_SR_RXNE)) {
	}
	return (uint8_t)USART_DR(USART2);
}

void hal_uart_putc(uint8_t c)
{
	while (!(USART_SR(USART2) & USART_SR_TXE)) {
	}
	USART_DR(USART2) = c;
}

uint32_t hal_counter_read(void)
{
	return DWT_CYCCNT;
}

void hal_counter_info(struct hal_counter_info *info)
{
	info->unit = HILP_UNIT_CYCLES;
	info->clock_hz = sysclk_hz;
	info->counter_hz = sysclk_hz; /* CYCCNT counts core clock cycles */
	info->flash_acr =
		FLASH_ACR; /* as the chip reports it, not as we meant it */
	info->flags = have_cyccnt ? HILP_INFO_CYCLE_COUNTER : 0u;
}

void hal_trigger(int on)
{
	GPIO_BSRR(GPIOA) =
		on ? GPIO_BSRR_SET(TRIGGER_PIN) : GPIO_BSRR_RESET(TRIGGER_PIN);
}

const char *hal_board_name(void)
{
	return "nucleo-f401re";
}
