/* regs: the few STM32F401/F405 and Cortex-M4 registers the boards touch, named as in RM0368/RM0090. */
#ifndef REGS_H
#define REGS_H

#include <stdint.h>

/*
 * libopencm3 style: MMIO32(addr) is the register (regs_cm4.h, with the
 * core registers every Cortex-M4 board shares), names are SUBSYS_REG and
 * SUBSYS_REG_BIT as printed in the reference manual. Only what the board
 * files use is defined; add registers here rather than in a board file.
 * RM0368 = STM32F401xB/C/D/E reference manual; the F405 (RM0090) places
 * every register below at the same address with the same bits.
 */
#include "regs_cm4.h" /* MMIO32 and the Cortex-M4 core registers */

/* Memory map (RM0368 §2.3, Table 1). */
#define PERIPH_BASE_APB1 0x40000000u
#define PERIPH_BASE_AHB1 0x40020000u
#define TIM2_BASE	 (PERIPH_BASE_APB1 + 0x0000u)
#define USART2_BASE	 (PERIPH_BASE_APB1 + 0x4400u)
#define PWR_BASE	 (PERIPH_BASE_APB1 + 0x7000u)
#define GPIOA_BASE	 (PERIPH_BASE_AHB1 + 0x0000u)
#define RCC_BASE	 (PERIPH_BASE_AHB1 + 0x3800u)
#define FLASH_IF_BASE	 (PERIPH_BASE_AHB1 + 0x3C00u)

/* RCC (RM0368 §6.3). */
#define RCC_CR	      MMIO32(RCC_BASE + 0x00u)
#define RCC_CR_HSION  (1u << 0)
#define RCC_CR_HSIRDY (1u << 1)
#define RCC_CR_HSEON  (1u << 16)
#define RCC_CR_HSERDY (1u << 17)
#define RCC_CR_PLLON  (1u << 24)
#define RCC_CR_PLLRDY (1u << 25)

#define RCC_PLLCFGR	       MMIO32(RCC_BASE + 0x04u)
#define RCC_PLLCFGR_PLLM_SHIFT 0  /* 6 bits, 2..63 */
#define RCC_PLLCFGR_PLLN_SHIFT 6  /* 9 bits, 192..432 on the F401 */
#define RCC_PLLCFGR_PLLP_SHIFT 16 /* 2 bits: 0=/2 1=/4 2=/6 3=/8 */
#define RCC_PLLCFGR_PLLSRC_HSE (1u << 22)
#define RCC_PLLCFGR_PLLQ_SHIFT 24 /* 4 bits, 2..15 */
/* Fields we program; the other bits are reserved: keep them at reset value. */
#define RCC_PLLCFGR_FIELDS     0x0F437FFFu

#define RCC_CFGR	    MMIO32(RCC_BASE + 0x08u)
#define RCC_CFGR_SW_MASK    (3u << 0)
#define RCC_CFGR_SW_HSI	    (0u << 0)
#define RCC_CFGR_SW_PLL	    (2u << 0)
#define RCC_CFGR_SWS_MASK   (3u << 2)
#define RCC_CFGR_SWS_HSI    (0u << 2)
#define RCC_CFGR_SWS_PLL    (2u << 2)
#define RCC_CFGR_HPRE_MASK  (0xFu << 4) /* 0xxx: AHB = SYSCLK */
#define RCC_CFGR_PPRE1_MASK (7u << 10)
#define RCC_CFGR_PPRE1_DIV1 (0u << 10)
#define RCC_CFGR_PPRE1_DIV2 (4u << 10)
#define RCC_CFGR_PPRE2_MASK (7u << 13)
#define RCC_CFGR_PPRE2_DIV1 (0u << 13)

#define RCC_AHB1ENR	     MMIO32(RCC_BASE + 0x30u)
#define RCC_AHB1ENR_GPIOAEN  (1u << 0)
#define RCC_APB1ENR	     MMIO32(RCC_BASE + 0x40u)
#define RCC_APB1ENR_TIM2EN   (1u << 0)
#define RCC_APB1ENR_USART2EN (1u << 17)
#define RCC_APB1ENR_PWREN    (1u << 28)

/* Power controller (RM0368 §5.4.1): VOS resets to Scale 2 (up to 84 MHz). */
#define PWR_CR		MMIO32(PWR_BASE + 0x00u)
#define PWR_CR_VOS_MASK (3u << 14)

/* Flash interface (RM0368 §3.8.1). */
#define FLASH_ACR	       MMIO32(FLASH_IF_BASE + 0x00u)
#define FLASH_ACR_LATENCY_MASK (0xFu << 0)
#define FLASH_ACR_LATENCY(ws)  ((uint32_t)(ws) << 0)
#define FLASH_ACR_PRFTEN       (1u << 8)
#define FLASH_ACR_ICEN	       (1u << 9)
#define FLASH_ACR_DCEN	       (1u << 10)
#define FLASH_ACR_ICRST	       (1u << 11)
#define FLASH_ACR_DCRST	       (1u << 12)

/* GPIO (RM0368 §8.4): GPIOx_REG(port), x = pin number in the bit macros. */
#define GPIOA		     GPIOA_BASE
#define GPIO_MODER(port)     MMIO32((port) + 0x00u)
#define GPIO_OTYPER(port)    MMIO32((port) + 0x04u)
#define GPIO_OSPEEDR(port)   MMIO32((port) + 0x08u)
#define GPIO_PUPDR(port)     MMIO32((port) + 0x0Cu)
#define GPIO_IDR(port)	     MMIO32((port) + 0x10u)
#define GPIO_ODR(port)	     MMIO32((port) + 0x14u)
#define GPIO_BSRR(port)	     MMIO32((port) + 0x18u)
#define GPIO_AFRL(port)	     MMIO32((port) + 0x20u)
#define GPIO_AFRH(port)	     MMIO32((port) + 0x24u)
#define GPIO_MODER_MASK(x)   (3u << (2u * (x)))
#define GPIO_MODER_OUTPUT(x) (1u << (2u * (x)))
#define GPIO_MODER_AF(x)     (2u << (2u * (x)))
#define GPIO_PUPDR_MASK(x)   (3u << (2u * (x)))
#define GPIO_PUPDR_PULLUP(x) (1u << (2u * (x)))
#define GPIO_AFR_MASK(x)     (0xFu << (4u * ((x)&7u)))
#define GPIO_AFR(x, af)	     ((uint32_t)(af) << (4u * ((x)&7u)))
#define GPIO_BSRR_SET(x)     (1u << (x))
#define GPIO_BSRR_RESET(x)   (1u << ((x) + 16u))

/* USART (RM0368 §19.6): USART_REG(usart). */
#define USART2		 USART2_BASE
#define USART_SR(usart)	 MMIO32((usart) + 0x00u)
#define USART_DR(usart)	 MMIO32((usart) + 0x04u)
#define USART_BRR(usart) MMIO32((usart) + 0x08u)
#define USART_CR1(usart) MMIO32((usart) + 0x0Cu)
#define USART_CR2(usart) MMIO32((usart) + 0x10u)
#define USART_CR3(usart) MMIO32((usart) + 0x14u)
#define USART_SR_ORE	 (1u << 3)
#define USART_SR_RXNE	 (1u << 5)
#define USART_SR_TC	 (1u << 6)
#define USART_SR_TXE	 (1u << 7)
#define USART_CR1_RE	 (1u << 2)
#define USART_CR1_TE	 (1u << 3)
#define USART_CR1_UE	 (1u << 13)
#define USART_CR1_OVER8	 (1u << 15)

/* TIM2, a 32-bit general-purpose timer (RM0368 §13.4). */
#define TIM2_CR1    MMIO32(TIM2_BASE + 0x00u)
#define TIM2_SR	    MMIO32(TIM2_BASE + 0x10u)
#define TIM2_EGR    MMIO32(TIM2_BASE + 0x14u)
#define TIM2_CNT    MMIO32(TIM2_BASE + 0x24u)
#define TIM2_PSC    MMIO32(TIM2_BASE + 0x28u)
#define TIM2_ARR    MMIO32(TIM2_BASE + 0x2Cu)
#define TIM_CR1_CEN (1u << 0)
#define TIM_EGR_UG  (1u << 0)

/* Device electronic signature (RM0368 §24.1): 96-bit unique id. */
#define UID_BASE 0x1FFF7A10u

#endif /* REGS_H */
