/* ftdi_mpsse_int: what the pieces of the "ftdi:" I2C backend (ftdi_mpsse.c, ftdi_mpsse_queue.c, ftdi_mpsse_xfer.c) share: the wiring, the MPSSE opcodes and the bus state; not a public API. */
#ifndef HIL_FTDI_MPSSE_INT_H
#define HIL_FTDI_MPSSE_INT_H

#include <stddef.h>
#include <stdint.h>

#include "i2c.h"

/*
 * Wiring (AN_255, AN_411): AD0 = SCL, AD1 (data out) and AD2 (data in) tied
 * together = SDA, pull-ups on both lines. Open drain is emulated with the
 * direction register: a line is pulled low by making its pin an output at 0
 * and released by making it an input. The GPIO value byte is therefore
 * always 0 and only the direction byte changes.
 *
 * The MPSSE drives its data pin push-pull while it clocks bits out, so SDA
 * is driven high only during the first seven bits of a byte we write, when
 * the slave never drives. The last bit is clocked with SDA released when it
 * is a 1 (the pull-up makes it), so that the slave's ACK after the eighth
 * falling edge never meets a pin driven high; a NACK we send after a read
 * is likewise the pull-up's 1. SCL is driven push-pull while clocking: the
 * INA219 never stretches the clock (an FT232H could use the drive-zero
 * command 0x9E instead; the FT2232H has no such command).
 *
 * MPSSE commands used (AN_108): 0x80 set ADBUS value/direction, 0x82 set
 * ACBUS, 0x13 clock bits out MSB first on the falling edge, 0x22 clock bits
 * in on the rising edge, 0x20 clock bytes in on the rising edge, 0x86 clock
 * divisor, 0x8A 60 MHz master clock (divide-by-5 off), 0x8C three-phase
 * clocking (data valid on both edges, as I2C needs), 0x85 loopback off,
 * 0x97 adaptive clocking off, 0x87 send immediate. A bad opcode makes the
 * chip answer 0xFA followed by the opcode (used to synchronise at open).
 */

#define PIN_SCL 0x01u /* AD0 */
#define PIN_SDA 0x02u /* AD1 out; AD2 in stays an input */

#define MPSSE_SET_LOW	   0x80u
#define MPSSE_SET_HIGH	   0x82u
#define MPSSE_BITS_OUT_NEG 0x13u
#define MPSSE_BYTES_IN_POS 0x20u
#define MPSSE_BITS_IN_POS  0x22u
#define MPSSE_LOOPBACK_OFF 0x85u
#define MPSSE_DIVISOR	   0x86u
#define MPSSE_SEND_NOW	   0x87u
#define MPSSE_CLK_60MHZ	   0x8Au
#define MPSSE_3PHASE_ON	   0x8Cu
#define MPSSE_ADAPTIVE_OFF 0x97u
#define MPSSE_BAD_ANSWER   0xFAu
#define MPSSE_SYNC1	   0xAAu /* deliberately bad opcodes */
#define MPSSE_SYNC2	   0xABu

#define REPLY_DEADLINE_MS 1000u /* all answer bytes of one batch */

enum slot_kind { SLOT_ACK_ADDR_W, SLOT_ACK_ADDR_R, SLOT_ACK_DATA, SLOT_READ };

/* What one byte of the MPSSE's answer stands for. */
struct slot {
	uint8_t kind;
	size_t msg;
	size_t idx;
};

struct ftdi_bus {
	const struct hil_ftdi_api *api;
	struct ftdi_context *ctx;
	int usb_open;
	char what[160]; /* the adapter, for messages */
	unsigned scl_hz;
	unsigned divisor;
	unsigned reps; /* GPIO repetitions per START/STOP step */

	/* the queue of one batch, and what its answer bytes mean */
	uint8_t *cmd;
	size_t len, cap;
	struct slot *slots;
	size_t nslots, slots_cap;
	uint8_t *ans;
	size_t ans_cap;
	int oom; /* first allocation failure, latched until the flush */
};

/* ---- ftdi_mpsse.c ---- */

/* libftdi1's text for the last error of s's context, never NULL. */
const char *hil_ftdi_why(const struct ftdi_bus *s);

/* ---- the command queue (ftdi_mpsse_queue.c); a failed allocation
 * latches s->oom until the queue is reset ---- */

void hil_ftdi_push1(struct ftdi_bus *s, uint8_t a);
void hil_ftdi_push2(struct ftdi_bus *s, uint8_t a, uint8_t b);
void hil_ftdi_push3(struct ftdi_bus *s, uint8_t a, uint8_t b, uint8_t c);

/* Lines: a bit set in `low` pulls that line low; clear releases it. */
void hil_ftdi_lines(struct ftdi_bus *s, uint8_t low, unsigned times);

/* From SCL low: SDA low, SCL released, then SDA released while SCL high. */
void hil_ftdi_q_stop(struct ftdi_bus *s);

/* Queue message k of a batch: START, address, data, STOP, with the slots
 * of its answer bytes. */
void hil_ftdi_q_msg(struct ftdi_bus *s, const struct hil_i2c_msg *m, size_t k);

/* ---- USB and transactions (ftdi_mpsse_xfer.c) ---- */

int hil_ftdi_usb_write(struct hil_i2c_bus *bus, const uint8_t *p, size_t n);

/* Exactly n bytes or an error; the MPSSE answers only after 0x87. */
int hil_ftdi_usb_read(struct hil_i2c_bus *bus, uint8_t *p, size_t n,
		      unsigned deadline_ms);

/* hil_i2c_ops.xfer_batch and .xfer of the backend. */
int hil_ftdi_batch(struct hil_i2c_bus *bus, const struct hil_i2c_msg *m,
		   size_t n);
int hil_ftdi_xfer(struct hil_i2c_bus *bus, uint8_t addr, const uint8_t *w,
		  size_t wlen, uint8_t *r, size_t rlen);

/* The backend (ftdi_mpsse.c), registered in drivers/drivers.def. */
extern const struct hil_i2c_ops hil_i2c_ftdi_ops;

#endif /* HIL_FTDI_MPSSE_INT_H */
