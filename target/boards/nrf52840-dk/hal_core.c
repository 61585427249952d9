/* hal_core: the Cortex-M half of the board interface (interrupt mask, stack bounds, build-id), as common/hal_common.c has it for the STM32 boards. */
#include <stdint.h>

#include "hal.h"

/*
 * common/hal_common.c holds these same functions, but together with the
 * STM32's USART2 and UID, which this chip does not have: so this board
 * links this file instead of it. Moving the shared part into a file of
 * its own would change hal_common.c, hence the STM32 images' debug
 * information and so their GNU build-id, which this board leaves
 * byte-identical; that move is a change of its own.
 */

/* nrf52840.ld */
extern uint8_t __stack_bottom[], __stack_top[];
extern const uint8_t __build_id_start[], __build_id_end[];

#define NT_GNU_BUILD_ID 3u
#define NOTE_HDR	12u	    /* namesz, descsz, type */
#define NOTE_GNU	0x00554E47u /* "GNU\0" read as a little-endian word */

void hal_irq_off(void)
{
	__asm volatile("cpsid i" ::: "memory");
}

void hal_irq_on(void)
{
	__asm volatile("cpsie i" ::: "memory");
}

uintptr_t hal_stack_bottom(void)
{
	return (uintptr_t)__stack_bottom;
}

uintptr_t hal_stack_top(void)
{
	return (uintptr_t)__stack_top;
}

uintptr_t hal_stack_pointer(void)
{
	uintptr_t sp;

	__asm volatile("mov %0, sp" : "=r"(sp));
	return sp;
}

/*
 * The one ELF note in the section (namesz = 4, descsz, type, "GNU\0",
 * desc), read as words (the linker script aligns it to 4). Anything else
 * returns 0 rather than an id that could never match.
 */
const uint8_t *hal_build_id(uint8_t *len)
{
	const uint32_t *n = (const uint32_t *)(uintptr_t)__build_id_start;
	uint32_t size = (uint32_t)(__build_id_end - __build_id_start);
	uint32_t descsz;

	*len = 0;
	if (size < NOTE_HDR + 4u || n[0] != 4u || n[2] != NT_GNU_BUILD_ID ||
	    n[3] != NOTE_GNU) {
		return 0;
	}
	descsz = n[1];
	if (descsz == 0u || descsz > 20u || descsz > size - (NOTE_HDR + 4u)) {
		return 0;
	}
	*len = (uint8_t)descsz;
	return __build_id_start + NOTE_HDR + 4u;
}
