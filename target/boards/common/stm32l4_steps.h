/* stm32l4_steps: the register-step row format (STEP rows, step_clear/step_set) that the STM32L4 boards' init_steps.h share. */
#ifndef STM32L4_STEPS_H
#define STM32L4_STEPS_H

#include <stdint.h>

/*
 * Written once for the NUCLEO-L476RG and the NUCLEO-L4R5ZI, whose
 * init_steps.h include this file (by a path relative to themselves, so
 * that the host test of the L476's table finds it too) after their
 * register names (regs_l476.h, regs_l4r5.h: PERIPH_BASE_APB1, GPIOA_BASE,
 * RCC_PLLCFGR_FIELDS) and their PLLCFGR_SET, before their tables.
 * CLOCK_STEPS and GPIO_STEPS count the tables named clock_steps and
 * gpio_steps that follow.
 */

/*
 * Register set-up as data, as on the F401 board: each step is reg =
 * (reg & ~clear) | set, then, with POLL, a bounded poll until the bits
 * just written show up in their status field SHIFT(n) bits higher:
 * HSION 8 -> HSIRDY 10 (shift 2) and PLLON 24 -> PLLRDY 25 (shift 1) in
 * RCC_CR (RM0351 §6.4.1; the L4R5's RCC has them in the same places), SW
 * 1:0 -> SWS 3:2 in RCC_CFGR (§6.4.3); FLASH_ACR and
 * the clock enables read back in place (shift 0). A POLL_ONLY step writes
 * nothing and waits for its `clear` bits to read 0 (PWR_SR2.VOSF). The
 * peripherals span the APB1 (PWR) and AHB1 (RCC, flash) blocks, so reg is
 * a word index from PERIPH_BASE_APB1, or from GPIOA_BASE for the pin
 * steps (PORT(): GPIOA on the L476, GPIOF and GPIOG on the L4R5).
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
#define PORT(r)	    ((uint16_t)(((uintptr_t)(&(r)) - GPIOA_BASE) / 4u))

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

#endif /* STM32L4_STEPS_H */
