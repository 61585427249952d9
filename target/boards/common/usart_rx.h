/* usart_rx: the polled USART receive of the STM32 boards, written once so that a host test runs the same code against a simulated register block. */
#ifndef USART_RX_H
#define USART_RX_H

#include <stdint.h>

#include "regs.h"

/*
 * Register access. On the target these are the registers themselves; a
 * host test defines both macros (as calls into its model of the USART)
 * before it includes this file, and so runs exactly this routine.
 */
#ifndef USART_RX_SR
#define USART_RX_SR(usart) USART_SR(usart)
#define USART_RX_DR(usart) USART_DR(usart)
#endif

/*
 * Wait for a received byte and return it; count overruns in *overruns.
 *
 * RM0368 §19.3.4 and §19.6.1: a byte that completes while RXNE is still
 * set sets ORE and is lost; ORE is cleared by a read of SR that sees it
 * followed by a read of DR. A loop that only waits for RXNE and reads DR
 * can leave ORE set for good: when the byte arrives between its SR read
 * (RXNE set, ORE not yet) and its DR read, the DR read clears RXNE but
 * not ORE, and with ORE set the receiver delivers no further RXNE, so the
 * stub hangs until reset. The host re-sends after a timeout while the
 * stub is still busy, which is exactly when that happens.
 *
 * So every SR read that shows ORE is followed by a DR read, with or
 * without RXNE: with RXNE the byte read is the one received before the
 * lost one(s), and is returned; without, the read only clears ORE. Each
 * such SR read counts one overrun (several bytes lost back to back count
 * once: the USART keeps one flag, not a count). The framing that follows
 * (CRC, COBS) then rejects the damaged frame and the host retries.
 */
static inline uint8_t usart_rx_getc(uint32_t usart, uint32_t *overruns)
{
	for (;;) {
		uint32_t sr = USART_RX_SR(usart);

		if (sr & (USART_SR_RXNE | USART_SR_ORE)) {
			uint8_t c = (uint8_t)USART_RX_DR(usart);

			if (sr & USART_SR_ORE) {
				(*overruns)++;
			}
			if (sr & USART_SR_RXNE) {
				return c;
			}
		}
	}
}

#endif /* USART_RX_H */
