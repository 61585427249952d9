/* regs_cm4: MMIO32 and the Cortex-M4 core registers (SysTick, SCB, DEMCR, DWT), the same on every Cortex-M4 board whatever its vendor's peripherals. */
#ifndef REGS_CM4_H
#define REGS_CM4_H

#include <stdint.h>

/*
 * Split out of regs.h so that a board whose peripherals sit elsewhere (the
 * STM32L4 of nucleo-l476rg: other RCC, GPIO and USART addresses) includes
 * the core registers without the STM32F4 peripheral names.
 */
#define MMIO32(addr) (*(volatile uint32_t *)(addr))

/* Cortex-M4 core (ARMv7-M ARM, PM0214). */
#define SYST_CSR MMIO32(0xE000E010u) /* SysTick control and status */
#define SYST_RVR MMIO32(0xE000E014u)
#define SYST_CVR MMIO32(0xE000E018u)

#define SCB_VTOR		 MMIO32(0xE000ED08u)
#define SCB_AIRCR		 MMIO32(0xE000ED0Cu)
#define SCB_AIRCR_VECTKEY	 (0x05FAu << 16)
#define SCB_AIRCR_PRIGROUP_MASK	 (7u << 8)
#define SCB_AIRCR_SYSRESETREQ	 (1u << 2)
#define SCB_CFSR		 MMIO32(0xE000ED28u) /* MMFSR | BFSR << 8 | UFSR << 16 */
#define SCB_HFSR		 MMIO32(0xE000ED2Cu)
#define SCB_BFAR		 MMIO32(0xE000ED38u)
#define SCB_CPACR		 MMIO32(0xE000ED88u)
#define SCB_CPACR_CP10_CP11_FULL (0xFu << 20)

#define DEMCR	     MMIO32(0xE000EDFCu) /* CoreDebug->DEMCR */
#define DEMCR_TRCENA (1u << 24)

#define DWT_CTRL	   MMIO32(0xE0001000u)
#define DWT_CYCCNT	   MMIO32(0xE0001004u)
#define DWT_CTRL_CYCCNTENA (1u << 0)
#define DWT_CTRL_NOCYCCNT  (1u << 25)

#endif /* REGS_CM4_H */
