/* reply: the stub's frames to the host, encoded by the protocol (hilp_encode_reply) and sent byte by byte on the board's link; the symmetric stub and the pq stub both link it. */
#include <stddef.h>
#include <stdint.h>

#include "hal.h"
#include "hilp.h"
#include "reply.h"

/* The frame is on the stack (about 300 bytes: startup.c's fault handler
 * restarts MSP at the top so that the fault report has room for it). */
void reply_send(uint8_t cmd, const uint8_t *data, size_t dlen)
{
	uint8_t frame[HILP_MAX_FRAME];
	size_t n = hilp_encode_reply(cmd, data, dlen, frame);
	size_t i;

	for (i = 0; i < n; i++) {
		hal_uart_putc(frame[i]);
	}
}

void reply_status(uint8_t status)
{
	reply_send(HILP_ERROR, &status, 1);
}
