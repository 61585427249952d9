/* regs_l4r5: the STM32L4R5 registers the board uses beyond the L476's (RM0432): PWR_CR2/CR5, RCC_APB1ENR2, GPIOF/G, LPUART1. */
#ifndef REGS_L4R5_H
#define REGS_L4R5_H

/*
 * The L4R5's RCC, PWR, flash interface and GPIO sit where the L476's do,
 * with the same offsets and bits for what regs_l476.h names (RM0432's
 * memory map and its RCC, PWR, FLASH and GPIO register descriptions), so
 * those names are reused. Added here, by RM0432's register descriptions;
 * tests/unit/test_l4r5_clock_math.c checks the addresses:
 */
#include "../nucleo-l476rg/regs_l476.h"

/* PWR_CR2.IOSV (VDDIO2 valid) lifts the isolation of PG[15:2], which VDDIO2 supplies. */
#define PWR_CR2	       MMIO32(PWR_BASE + 0x04u)
#define PWR_CR2_IOSV   (1u << 9)
/* PWR_CR5.R1MODE = 1 (reset): range 1 normal, up to 80 MHz; 0: boost, up to 120 MHz. */
#define PWR_CR5	       MMIO32(PWR_BASE + 0x80u)
#define PWR_CR5_R1MODE (1u << 8)

#define RCC_AHB2ENR_GPIOFEN    (1u << 5)
#define RCC_AHB2ENR_GPIOGEN    (1u << 6)
#define RCC_APB1ENR2	       MMIO32(RCC_BASE + 0x5Cu)
#define RCC_APB1ENR2_LPUART1EN (1u << 0)
#define RCC_CFGR_HPRE_DIV2     (8u << 4)

#define GPIOF_BASE	(PERIPH_BASE_AHB2 + 0x1400u)
#define GPIOG_BASE	(PERIPH_BASE_AHB2 + 0x1800u)
#define GPIOF		GPIOF_BASE
#define GPIOG		GPIOG_BASE
#define GPIO_AFRH(port) MMIO32((port) + 0x24u)

/* LPUART1: the USART register layout of regs_l476.h (CR1, BRR, ISR, ICR, RDR, TDR). */
#define LPUART1_BASE (PERIPH_BASE_APB1 + 0x8000u)
#define LPUART1	     LPUART1_BASE

#endif /* REGS_L4R5_H */
