/* regs_nrf52840: the few nRF52840 registers the board touches, named as in the nRF52840 Product Specification v1.x. */
#ifndef REGS_NRF52840_H
#define REGS_NRF52840_H

#include <stdint.h>

/*
 * MMIO32 and the Cortex-M4 core registers (SCB, DWT, DEMCR, SysTick)
 * come from common/regs.h, which is STM32-named for the rest: nothing
 * of its STM32 peripherals is used on this board. Names here are
 * PERIPHERAL_REGISTER and PERIPHERAL_REGISTER_FIELD as printed in the
 * PS register tables; a task is written 1 to trigger it, an event
 * register reads non-zero once the event happened and is cleared by
 * writing 0 (PS "Peripheral interface": tasks, events).
 */
#include "../common/regs.h"

/* Instance base addresses (PS "Memory", instantiation table). */
#define FICR_BASE      0x10000000u
#define UICR_BASE      0x10001000u
#define CLOCK_BASE     0x40000000u /* ID 0, shared with POWER */
#define APPROTECT_BASE 0x40000000u /* the same ID 0 */
#define UARTE0_BASE    0x40002000u /* shared with the legacy UART0 */
#define NVMC_BASE      0x4001E000u
#define P0_BASE	       0x50000000u
#define P1_BASE	       0x50000300u

/* FICR (PS "FICR - Factory information configuration registers"). */
#define FICR_DEVICEID(n)                                                       \
	MMIO32(FICR_BASE + 0x060u + 4u * (n)) /* 64 bit unique id, [0] low */
#define FICR_DEVICEADDR(n)                                                     \
	MMIO32(FICR_BASE + 0x0A4u + 4u * (n)) /* 48 bit BLE address, [0] low */
#define FICR_INFO_VARIANT                                                      \
	MMIO32(FICR_BASE + 0x104u) /* ASCII, e.g. "AAF0" = 0x41414630 */
/* The build code letter, 'F' in "AAF0": the third character, bits 15:8. */
#define FICR_INFO_VARIANT_BUILD(v) (((v) >> 8) & 0xFFu)

/* UICR (PS "UICR - User information configuration registers"). */
#define UICR_APPROTECT		  MMIO32(UICR_BASE + 0x208u)
#define UICR_APPROTECT_HWDISABLED 0x5Au /* build codes Fxx and later */

/*
 * APPROTECT (build codes Fxx and later, PS v1.7 "Debug and trace",
 * access port protection): from those revisions on, the access port is
 * locked at every reset unless UICR.APPROTECT = HwDisabled *and* the
 * firmware writes SwDisable here after each reset.
 */
#define APPROTECT_DISABLE	    MMIO32(APPROTECT_BASE + 0x558u)
#define APPROTECT_DISABLE_SWDISABLE 0x5Au
#define APPROTECT_FIRST_BUILD	    'F'

/* CLOCK (PS "CLOCK - Clock control", HFCLK controller). */
#define CLOCK_TASKS_HFCLKSTART	      MMIO32(CLOCK_BASE + 0x000u)
#define CLOCK_EVENTS_HFCLKSTARTED     MMIO32(CLOCK_BASE + 0x100u)
#define CLOCK_HFCLKSTAT		      MMIO32(CLOCK_BASE + 0x40Cu)
#define CLOCK_HFCLKSTAT_SRC_XTAL      (1u << 0) /* 0: HFINT (RC), 1: HFXO */
#define CLOCK_HFCLKSTAT_STATE_RUNNING (1u << 16)

/* NVMC (PS §4.3 "NVMC - Non-volatile memory controller"; cache §4.3.8). */
#define NVMC_ICACHECNF		   MMIO32(NVMC_BASE + 0x540u)
#define NVMC_ICACHECNF_CACHEEN	   (1u << 0) /* writing 0 also invalidates it */
#define NVMC_ICACHECNF_CACHEPROFEN (1u << 8) /* IHIT/IMISS counters */
#define NVMC_IHIT		   MMIO32(NVMC_BASE + 0x548u)
#define NVMC_IMISS		   MMIO32(NVMC_BASE + 0x54Cu)

/* GPIO (PS "GPIO - General purpose input/output"): GPIO_REG(port). */
#define P0			      P0_BASE
#define P1			      P1_BASE
#define GPIO_OUTSET(port)	      MMIO32((port) + 0x508u)
#define GPIO_OUTCLR(port)	      MMIO32((port) + 0x50Cu)
#define GPIO_PIN_CNF(port, n)	      MMIO32((port) + 0x700u + 4u * (n))
#define GPIO_PIN_CNF_DIR_OUTPUT	      (1u << 0)
#define GPIO_PIN_CNF_INPUT_DISCONNECT (1u << 1) /* input buffer off */
#define GPIO_PIN_CNF_PULL_UP	      (3u << 2)
/* DRIVE (bits 10:8) = 0: S0S1, standard drive; SENSE (17:16) = 0: off. */

/*
 * UARTE (PS "UARTE - Universal asynchronous receiver/transmitter with
 * EasyDMA"): UARTE_REG(uarte).
 */
#define UARTE0		       UARTE0_BASE
#define UARTE_TASKS_STARTRX(u) MMIO32((u) + 0x000u)
#define UARTE_TASKS_STARTTX(u) MMIO32((u) + 0x008u)
#define UARTE_EVENTS_ENDRX(u)  MMIO32((u) + 0x110u)
#define UARTE_EVENTS_ENDTX(u)  MMIO32((u) + 0x120u)
#define UARTE_EVENTS_ERROR(u)  MMIO32((u) + 0x124u)
#define UARTE_ERRORSRC(u)      MMIO32((u) + 0x480u) /* write 1 to clear */
#define UARTE_ERRORSRC_OVERRUN (1u << 0)
#define UARTE_ENABLE(u)	       MMIO32((u) + 0x500u)
#define UARTE_ENABLE_ENABLED   8u /* 4 would be the legacy UART0 */
#define UARTE_PSEL_RTS(u)      MMIO32((u) + 0x508u)
#define UARTE_PSEL_TXD(u)      MMIO32((u) + 0x50Cu)
#define UARTE_PSEL_CTS(u)      MMIO32((u) + 0x510u)
#define UARTE_PSEL_RXD(u)      MMIO32((u) + 0x514u)
#define UARTE_BAUDRATE(u)      MMIO32((u) + 0x524u)
#define UARTE_RXD_PTR(u)       MMIO32((u) + 0x534u)
#define UARTE_RXD_MAXCNT(u)    MMIO32((u) + 0x538u)
#define UARTE_TXD_PTR(u)       MMIO32((u) + 0x544u)
#define UARTE_TXD_MAXCNT(u)    MMIO32((u) + 0x548u)
#define UARTE_CONFIG(u)                                                        \
	MMIO32((u) + 0x56Cu) /* 0: no HWFC, no parity, 1 stop bit */
/* PSEL.x: PIN bits 4:0, PORT bit 5, CONNECT bit 31 (1 = disconnected). */
#define UARTE_PSEL(port, pin)	((uint32_t)(port) << 5 | (uint32_t)(pin))
#define UARTE_PSEL_DISCONNECTED 0xFFFFFFFFu

#endif /* REGS_NRF52840_H */
