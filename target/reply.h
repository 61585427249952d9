/* reply: the stub's frames to the host, one sender for the symmetric stub (main.c) and the pq stub (pq/pqstub.c). */
#ifndef REPLY_H
#define REPLY_H

#include <stddef.h>
#include <stdint.h>

/** Encode one reply frame (cmd, data) and send it byte by byte on the host link (hal_uart_putc). */
void reply_send(uint8_t cmd, const uint8_t *data, size_t dlen);

/** Send a request's status: an HILP_ERROR frame carrying the one status byte (HILP_ST_*). */
void reply_status(uint8_t status);

#endif /* REPLY_H */
