/* regs_l476: the few STM32L476 peripheral registers the nucleo-l476rg board touches, named as in RM0351 (the core ones are in common/regs_cm4.h). */
#ifndef REGS_L476_H
#define REGS_L476_H

#include <stdint.h>

#include "../common/regs_cm4.h"

/*
 * The same libopencm3 style as common/regs.h, but its own file: the
 * STM32L4 moved almost everything the F4 boards use (RCC, flash interface,
 * GPIOA, the USART's registers), so the F4 names cannot be shared. Only
 * what the board uses is defined. Addresses and bits were checked against
 * ST's stm32l476xx.h device header (which transcribes RM0351); the manual's
 * register sections are named next to each block (section numbers of
 * RM0351 Rev 9 where given; see README.md for what was checked how).
 */

/* Memory map (RM0351 §2.2.2, memory map and register boundary addresses). */
#define PERIPH_BASE_APB1 0x40000000u
#define PERIPH_BASE_AHB1 0x40020000u
#define PERIPH_BASE_AHB2 0x48000000u
#define USART2_BASE	 (PERIPH_BASE_APB1 + 0x4400u)
#define PWR_BASE	 (PERIPH_BASE_APB1 + 0x7000u)
#define RCC_BASE	 (PERIPH_BASE_AHB1 + 0x1000u)
#define FLASH_IF_BASE	 (PERIPH_BASE_AHB1 + 0x2000u)
#define GPIOA_BASE	 (PERIPH_BASE_AHB2 + 0x0000u)

/* RCC (RM0351 §6.4). */
#define RCC_CR	      MMIO32(RCC_BASE + 0x00u) /* resets to MSI on, 4 MHz */
#define RCC_CR_MSION  (1u << 0)
#define RCC_CR_HSION  (1u << 8)
#define RCC_CR_HSIRDY (1u << 10)
#define RCC_CR_PLLON  (1u << 24)
#define RCC_CR_PLLRDY (1u << 25)

#define RCC_CFGR	    MMIO32(RCC_BASE + 0x08u)
#define RCC_CFGR_SW_MASK    (3u << 0)
#define RCC_CFGR_SW_MSI	    (0u << 0)
#define RCC_CFGR_SW_HSI16   (1u << 0)
#define RCC_CFGR_SW_PLL	    (3u << 0)
#define RCC_CFGR_SWS_MASK   (3u << 2)
#define RCC_CFGR_SWS_MSI    (0u << 2)
#define RCC_CFGR_SWS_HSI16  (1u << 2)
#define RCC_CFGR_SWS_PLL    (3u << 2)
#define RCC_CFGR_HPRE_MASK  (0xFu << 4) /* 0xxx: HCLK = SYSCLK */
#define RCC_CFGR_PPRE1_MASK (7u << 8)	/* 0xx: PCLK1 = HCLK */
#define RCC_CFGR_PPRE2_MASK (7u << 11)	/* 0xx: PCLK2 = HCLK */

/* RM0351 §6.4.4: PLLM = field + 1, PLLR = (field + 1) * 2, PLLN as written. */
#define RCC_PLLCFGR		MMIO32(RCC_BASE + 0x0Cu)
#define RCC_PLLCFGR_PLLSRC_MASK (3u << 0)
#define RCC_PLLCFGR_PLLSRC_MSI	(1u << 0)
#define RCC_PLLCFGR_PLLSRC_HSI	(2u << 0)
#define RCC_PLLCFGR_PLLM_SHIFT	4 /* 3 bits: /1../8 */
#define RCC_PLLCFGR_PLLN_SHIFT	8 /* 7 bits: x8..x86 */
#define RCC_PLLCFGR_PLLPEN	(1u << 16)
#define RCC_PLLCFGR_PLLQEN	(1u << 20)
#define RCC_PLLCFGR_PLLREN	(1u << 24) /* PLLCLK (the R output) to SYSCLK */
#define RCC_PLLCFGR_PLLR_SHIFT	25	   /* 2 bits: /2 /4 /6 /8 */
/*
 * The fields we program, P and Q outputs included (left disabled, their
 * dividers at reset value 0); bits 31:27 (PLLPDIV on the L49x/L4Ax) and
 * the reserved ones keep their value.
 */
#define RCC_PLLCFGR_FIELDS	0x07737F73u

#define RCC_AHB2ENR	      MMIO32(RCC_BASE + 0x4Cu)
#define RCC_AHB2ENR_GPIOAEN   (1u << 0)
#define RCC_APB1ENR1	      MMIO32(RCC_BASE + 0x58u)
#define RCC_APB1ENR1_USART2EN (1u << 17)
#define RCC_APB1ENR1_PWREN    (1u << 28)
/* USART2SEL (bits 3:2) resets to 00: USART2 is clocked by PCLK1. */
#define RCC_CCIPR	      MMIO32(RCC_BASE + 0x88u)

/* Power control (RM0351 §5.4): VOS range 1 runs up to 80 MHz, range 2 26. */
#define PWR_CR1		   MMIO32(PWR_BASE + 0x00u)
#define PWR_CR1_VOS_MASK   (3u << 9)
#define PWR_CR1_VOS_RANGE1 (1u << 9)
#define PWR_SR2		   MMIO32(PWR_BASE + 0x14u)
#define PWR_SR2_VOSF	   (1u << 10) /* 1 while the regulator changes range */

/* Flash interface (RM0351 §3.7.1 FLASH_ACR). */
#define FLASH_ACR	       MMIO32(FLASH_IF_BASE + 0x00u)
#define FLASH_ACR_LATENCY_MASK (7u << 0)
#define FLASH_ACR_LATENCY(ws)  ((uint32_t)(ws) << 0)
#define FLASH_ACR_PRFTEN       (1u << 8)
#define FLASH_ACR_ICEN	       (1u << 9)
#define FLASH_ACR_DCEN	       (1u << 10)
#define FLASH_ACR_ICRST	       (1u << 11)
#define FLASH_ACR_DCRST	       (1u << 12)

/*
 * GPIO (RM0351 chapter 8, GPIO registers): the F4's layout at the same
 * offsets. Unlike the F4, every pin resets to analog mode (MODER = 11),
 * not input; PA13/PA14 (SWD) keep their debug function.
 */
#define GPIOA		     GPIOA_BASE
#define GPIO_MODER(port)     MMIO32((port) + 0x00u)
#define GPIO_OTYPER(port)    MMIO32((port) + 0x04u)
#define GPIO_PUPDR(port)     MMIO32((port) + 0x0Cu)
#define GPIO_BSRR(port)	     MMIO32((port) + 0x18u)
#define GPIO_AFRL(port)	     MMIO32((port) + 0x20u)
#define GPIO_MODER_MASK(x)   (3u << (2u * (x)))
#define GPIO_MODER_OUTPUT(x) (1u << (2u * (x)))
#define GPIO_MODER_AF(x)     (2u << (2u * (x)))
#define GPIO_PUPDR_MASK(x)   (3u << (2u * (x)))
#define GPIO_PUPDR_PULLUP(x) (1u << (2u * (x)))
#define GPIO_AFR_MASK(x)     (0xFu << (4u * ((x)&7u)))
#define GPIO_AFR(x, af)	     ((uint32_t)(af) << (4u * ((x)&7u)))
#define GPIO_BSRR_SET(x)     (1u << (x))
#define GPIO_BSRR_RESET(x)   (1u << ((x) + 16u))

/*
 * USART (RM0351 USART chapter, USART registers): not the F4's SR/DR
 * pair. Status in ISR, flags cleared by writing ICR, separate RDR and
 * TDR; CR1.UE is bit 0. The status bits keep the F4's positions.
 */
#define USART2		 USART2_BASE
#define USART_CR1(usart) MMIO32((usart) + 0x00u)
#define USART_CR2(usart) MMIO32((usart) + 0x04u)
#define USART_CR3(usart) MMIO32((usart) + 0x08u)
#define USART_BRR(usart) MMIO32((usart) + 0x0Cu)
#define USART_ISR(usart) MMIO32((usart) + 0x1Cu)
#define USART_ICR(usart) MMIO32((usart) + 0x20u)
#define USART_RDR(usart) MMIO32((usart) + 0x24u)
#define USART_TDR(usart) MMIO32((usart) + 0x28u)
#define USART_CR1_UE	 (1u << 0)
#define USART_CR1_RE	 (1u << 2)
#define USART_CR1_TE	 (1u << 3)
#define USART_CR1_OVER8	 (1u << 15)
#define USART_ISR_ORE	 (1u << 3)
#define USART_ISR_RXNE	 (1u << 5)
#define USART_ISR_TC	 (1u << 6)
#define USART_ISR_TXE	 (1u << 7)
#define USART_ICR_ORECF	 (1u << 3)

/* Device electronic signature (RM0351): the 96-bit unique device ID. */
#define UID_BASE 0x1FFF7590u

#endif /* REGS_L476_H */
