/* hal_core: the hal.h functions any Cortex-M4 board shares (interrupt mask, stack bounds and the GNU build-id from its linker script's symbols). */
#include <stdint.h>

#include "hal.h"

/* Every board's linker script defines these. */
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
 * ELF note (the section holds exactly one when linked with --build-id):
 * namesz = 4, descsz, type = NT_GNU_BUILD_ID, "GNU\0", desc[descsz].
 * The linker script aligns the section to 4, so the header is read as
 * words (little-endian: "GNU\0" is NOTE_GNU). Anything else (no note,
 * another note, an id longer than the protocol carries) returns 0 rather
 * than a truncated id that could never match.
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
