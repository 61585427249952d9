/* hal: the few functions a board provides to the stub (one implementation per board). */
#ifndef HAL_H
#define HAL_H

#include <stdint.h>

/** Bring up clocks, the UART, the counter and the trigger pin. Returns a HILP_ST_* code. */
uint8_t hal_init(void);

/** Block until a byte arrives on the host link and return it. */
uint8_t hal_uart_getc(void);

/** Send one byte on the host link (blocks while the transmitter is busy). */
void hal_uart_putc(uint8_t c);

/** Bytes the link's receiver lost since reset because the one before was not read in time (overruns). */
uint32_t hal_uart_overruns(void);

/** Read the free-running measurement counter (wraps at 2^32). */
uint32_t hal_counter_read(void);

/**
 * Make sure the counter counts: enable it again if something turned it off
 * since hal_init (a debugger attached later may clear DEMCR.TRCENA, which
 * stops DWT->CYCCNT without a sign). Called before every BENCH.
 */
void hal_counter_arm(void);

/** What the counter counts. */
struct hal_counter_info {
	uint8_t unit;	     /* HILP_UNIT_* */
	uint32_t counter_hz; /* ticks per second, 0 when it counts instructions */
	uint32_t clock_hz;   /* core clock */
	uint32_t flash_acr; /* FLASH_ACR read back (0 when there is none) */
	uint8_t flags;	    /* HILP_INFO_* */
};
void hal_counter_info(struct hal_counter_info *info);

/** Drive the trigger pin that marks measurement windows (1 = high). */
void hal_trigger(int on);

/** Copy the 96-bit device unique id (12 bytes) to uid. */
void hal_uid(uint8_t uid[12]);

/** Short board name reported in INFO, e.g. "qemu-netduino". */
const char *hal_board_name(void);

/** Reset the chip; does not return. */
void hal_reset(void);

/** Mask and unmask interrupts (PRIMASK). */
void hal_irq_off(void);
void hal_irq_on(void);

/** Stack bounds: lowest usable address and the initial stack pointer. */
uintptr_t hal_stack_bottom(void);
uintptr_t hal_stack_top(void);

/** Current stack pointer. */
uintptr_t hal_stack_pointer(void);

/**
 * The GNU build-id note of the running image.
 * @param len receives its length (at most 20; 0 when there is none).
 * @return pointer to the id bytes, or 0 when the image has none.
 */
const uint8_t *hal_build_id(uint8_t *len);

#endif /* HAL_H */
