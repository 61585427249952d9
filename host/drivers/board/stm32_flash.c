/* stm32_flash: the STM32F4/L4 FLASH_ACR as the stub reports it, decoded for reports. */
#include "drivers/board/board.h"

void hil_stm32_flash_acr(uint32_t reg, struct hil_flash_state *out)
{
	out->wait_states = (int)(reg & 0xFu);
	out->prefetch = (int)((reg >> 8) & 1u);
	out->icache = (int)((reg >> 9) & 1u);
	out->dcache = (int)((reg >> 10) & 1u);
}
