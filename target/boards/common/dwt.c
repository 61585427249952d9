/* dwt: the measurement counter of a board that counts with the Cortex-M4's DWT cycle counter (the real boards). */
#include <stdint.h>

#include "hal.h"
#include "regs_cm4.h"

uint32_t hal_counter_read(void)
{
	return DWT_CYCCNT;
}

/*
 * ARMv7-M ARM C1.6.5: DEMCR.TRCENA powers the DWT; a debugger attaching
 * (or detaching) may clear it, and DWT->CYCCNT then stops without a sign.
 * CYCCNTENA is set again too, in case the debugger cleared DWT_CTRL. No
 * DWT_LAR unlock: the Cortex-M4's DWT has no software lock (it is the
 * Cortex-M7 whose DWT needs 0xC5ACCE55 written there before CYCCNTENA
 * sticks).
 */
void hal_counter_arm(void)
{
	DEMCR |= DEMCR_TRCENA;
	if (!(DWT_CTRL & DWT_CTRL_NOCYCCNT)) { /* else CYCCNTENA is reserved */
		DWT_CTRL |= DWT_CTRL_CYCCNTENA;
	}
}
