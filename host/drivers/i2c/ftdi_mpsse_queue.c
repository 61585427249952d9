/* ftdi_mpsse_queue: the MPSSE command queue of the "ftdi:" I2C backend: START, bytes, STOP as GPIO and clocking commands, with what each answer byte will mean. */
#include "ftdi_mpsse_int.h"

#include <stdlib.h>
#include <string.h>

/* ---- the command queue ---- */

static void push(struct ftdi_bus *s, const uint8_t *p, size_t n)
{
	if (s->oom) {
		return;
	}
	if (s->len + n > s->cap) {
		size_t cap = s->cap ? s->cap : 1024;
		uint8_t *q;

		while (cap < s->len + n) {
			cap *= 2;
		}
		q = realloc(s->cmd, cap);
		if (q == NULL) {
			s->oom = 1;
			return;
		}
		s->cmd = q;
		s->cap = cap;
	}
	memcpy(s->cmd + s->len, p, n);
	s->len += n;
}

void hil_ftdi_push1(struct ftdi_bus *s, uint8_t a)
{
	push(s, &a, 1);
}

void hil_ftdi_push2(struct ftdi_bus *s, uint8_t a, uint8_t b)
{
	uint8_t p[2] = {a, b};

	push(s, p, 2);
}

void hil_ftdi_push3(struct ftdi_bus *s, uint8_t a, uint8_t b, uint8_t c)
{
	uint8_t p[3] = {a, b, c};

	push(s, p, 3);
}

static void expect(struct ftdi_bus *s, enum slot_kind kind, size_t msg,
		   size_t idx)
{
	if (s->oom) {
		return;
	}
	if (s->nslots == s->slots_cap) {
		size_t cap = s->slots_cap ? 2 * s->slots_cap : 64;
		struct slot *q = realloc(s->slots, cap * sizeof(*q));

		if (q == NULL) {
			s->oom = 1;
			return;
		}
		s->slots = q;
		s->slots_cap = cap;
	}
	s->slots[s->nslots].kind = (uint8_t)kind;
	s->slots[s->nslots].msg = msg;
	s->slots[s->nslots].idx = idx;
	s->nslots++;
}

/* Lines: a bit set in `low` pulls that line low; clear releases it. */
void hil_ftdi_lines(struct ftdi_bus *s, uint8_t low, unsigned times)
{
	unsigned i;

	for (i = 0; i < times; i++) {
		hil_ftdi_push3(s, MPSSE_SET_LOW, 0x00, low);
	}
}

/* From idle (both released): SDA falls while SCL is high, then SCL falls. */
static void q_start(struct ftdi_bus *s)
{
	hil_ftdi_lines(s, 0, s->reps);
	hil_ftdi_lines(s, PIN_SDA, s->reps);
	hil_ftdi_lines(s, PIN_SDA | PIN_SCL, s->reps);
}

/* From SCL low after an ACK bit: release SDA, raise SCL, then a START. */
static void q_restart(struct ftdi_bus *s)
{
	hil_ftdi_lines(s, PIN_SCL, s->reps);
	hil_ftdi_lines(s, 0, s->reps);
	hil_ftdi_lines(s, PIN_SDA, s->reps);
	hil_ftdi_lines(s, PIN_SDA | PIN_SCL, s->reps);
}

/* From SCL low: SDA low, SCL released, then SDA released while SCL high. */
void hil_ftdi_q_stop(struct ftdi_bus *s)
{
	hil_ftdi_lines(s, PIN_SDA | PIN_SCL, s->reps);
	hil_ftdi_lines(s, PIN_SDA, s->reps);
	hil_ftdi_lines(s, 0, s->reps);
}

/* Eight bits out, MSB first, then the slave's ACK bit in (one answer byte). */
static void q_write_byte(struct ftdi_bus *s, uint8_t b)
{
	hil_ftdi_lines(s, PIN_SDA | PIN_SCL, 1);     /* SDA is ours, SCL low */
	hil_ftdi_push3(s, MPSSE_BITS_OUT_NEG, 6, b); /* bits 7..1 */
	if (b & 1u) {
		hil_ftdi_lines(s, PIN_SCL, 1); /* released: pull-up gives 1 */
		hil_ftdi_push3(s, MPSSE_BITS_OUT_NEG, 0, 0xFF);
	} else {
		hil_ftdi_push3(s, MPSSE_BITS_OUT_NEG, 0,
			       0x00);	       /* 1 bit: MSB of 0x00 */
		hil_ftdi_lines(s, PIN_SCL, 1); /* release for the ACK */
	}
	hil_ftdi_push2(s, MPSSE_BITS_IN_POS, 0); /* length 0: one bit */
}

/* Eight bits in (one answer byte), then our ACK (0) or NACK (1). */
static void q_read_byte(struct ftdi_bus *s, int ack)
{
	hil_ftdi_lines(s, PIN_SCL, 1); /* SDA released: the slave drives it */
	hil_ftdi_push3(s, MPSSE_BYTES_IN_POS, 0, 0);
	if (ack) {
		hil_ftdi_lines(s, PIN_SDA | PIN_SCL, 1);
		hil_ftdi_push3(s, MPSSE_BITS_OUT_NEG, 0, 0x00);
		hil_ftdi_lines(s, PIN_SCL, 1);
	} else {
		hil_ftdi_push3(s, MPSSE_BITS_OUT_NEG, 0,
			       0xFF); /* SDA still released */
	}
}

void hil_ftdi_q_msg(struct ftdi_bus *s, const struct hil_i2c_msg *m, size_t k)
{
	size_t i;

	if (m->wlen > 0) {
		q_start(s);
		q_write_byte(s, (uint8_t)(m->addr << 1));
		expect(s, SLOT_ACK_ADDR_W, k, 0);
		for (i = 0; i < m->wlen; i++) {
			q_write_byte(s, m->w[i]);
			expect(s, SLOT_ACK_DATA, k, i);
		}
	}
	if (m->rlen > 0) {
		if (m->wlen > 0) {
			q_restart(s);
		} else {
			q_start(s);
		}
		q_write_byte(s, (uint8_t)(m->addr << 1 | 1));
		expect(s, SLOT_ACK_ADDR_R, k, 0);
		for (i = 0; i < m->rlen; i++) {
			q_read_byte(s, i + 1 < m->rlen);
			expect(s, SLOT_READ, k, i);
		}
	}
	hil_ftdi_q_stop(s);
}
