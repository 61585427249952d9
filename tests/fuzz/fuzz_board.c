/* fuzz_board: a host "board" for the stub: the UART reads the fuzz input and writes into a checker, the counter is a variable. */
#include <setjmp.h>
#include <string.h>

#include "fuzz.h"
#include "fuzz_stub.h"
#include "hal.h"
#include "hilp.h"

/* Crypto bytes one input may cost: a few BENCH runs over the largest message. */
#define BUDGET_BYTES (256u * 1024u)
/* What a call costs on top of its bytes, so that empty messages count too. */
#define CALL_COST    64u

static struct {
	const uint8_t *in;
	size_t len;
	size_t pos;
	jmp_buf stop;
	unsigned long long spent;
	uint32_t counter;
	int irq_off;
	int trigger;
	/* What the stub must answer: one status per complete request. */
	struct hilp_rx seen;
	unsigned long requests;
	/* What it sent, decoded as the host would. */
	struct hilp_rx out;
	unsigned long statuses;
	unsigned long replies;
} b;

/* ---------------------------------------------------------------- the HAL */

uint8_t hal_init(void)
{
	return HILP_ST_OK;
}

uint8_t hal_uart_getc(void)
{
	uint8_t c;
	int r;

	/* The stub waits here between commands: everything it started is
	 * finished, so every request so far has had its one status. */
	FUZZ_CHECK(b.statuses == b.requests);
	FUZZ_CHECK(!b.irq_off);
	FUZZ_CHECK(!b.trigger);
	if (b.pos >= b.len) {
		longjmp(b.stop, FUZZ_END_INPUT);
	}
	c = b.in[b.pos++];
	/* Mirror the stub's receive loop to know how many statuses are due:
	 * one per overflowed frame and one per non-empty frame. */
	r = hilp_rx_push(&b.seen, c);
	if (r < 0 || (r == 1 && b.seen.len > 0)) {
		b.requests++;
	}
	if (r == 1) {
		hilp_rx_init(&b.seen);
	}
	return c;
}

void hal_uart_putc(uint8_t c)
{
	struct hilp_packet pkt;
	int r = hilp_rx_push(&b.out, c);

	FUZZ_CHECK(r >= 0); /* no frame longer than the host's buffer */
	if (r != 1) {
		return;
	}
	FUZZ_CHECK(b.out.len > 0); /* the stub sends no empty frame */
	if (b.out.len > 0) {
		FUZZ_CHECK(hilp_decode_reply(b.out.buf, b.out.len, &pkt) ==
			   HILP_ST_OK);
		FUZZ_CHECK(pkt.cmd == HILP_REPLY || pkt.cmd == HILP_ERROR);
		if (pkt.cmd == HILP_ERROR) {
			FUZZ_CHECK(pkt.dlen == 1);
			b.statuses++;
		} else {
			FUZZ_CHECK(pkt.dlen >= 1);
			b.replies++;
		}
	}
	hilp_rx_init(&b.out);
}

uint32_t hal_uart_overruns(void)
{
	return 0; /* the fuzz input arrives whole */
}

void hal_counter_arm(void)
{
}

uint32_t hal_counter_read(void)
{
	b.counter += 7u; /* every read moves on: no two reads are equal */
	return b.counter;
}

void hal_counter_info(struct hal_counter_info *info)
{
	info->unit = HILP_UNIT_NS_HOST;
	info->counter_hz = 1000000000u;
	info->clock_hz = 0;
	info->flash_acr = 0;
	info->flags = HILP_INFO_EMULATED;
}

void hal_trigger(int on)
{
	/* Measurement windows are taken with interrupts off. */
	FUZZ_CHECK(!on || b.irq_off);
	b.trigger = on != 0;
}

void hal_uid(uint8_t uid[12])
{
	uint8_t i;

	for (i = 0; i < 12; i++) {
		uid[i] = (uint8_t)(0xF0u + i);
	}
}

const char *hal_board_name(void)
{
	return "fuzz";
}

void hal_reset(void)
{
	longjmp(b.stop, FUZZ_END_RESET);
}

void hal_irq_off(void)
{
	/* PRIMASK does not nest: a second "off" would make the first "on"
	 * re-enable interrupts in the middle of a measurement. */
	FUZZ_CHECK(!b.irq_off);
	b.irq_off = 1;
}

void hal_irq_on(void)
{
	FUZZ_CHECK(b.irq_off);
	b.irq_off = 0;
}

uintptr_t hal_stack_bottom(void)
{
	return 0;
}

uintptr_t hal_stack_top(void)
{
	return 0;
}

uintptr_t hal_stack_pointer(void)
{
	return 0;
}

const uint8_t *hal_build_id(uint8_t *len)
{
	static const uint8_t id[HILP_BUILD_ID_MAX] = {
		0xf0, 0x22, 0x5e, 0xed, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06,
		0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10,
	};

	*len = (uint8_t)sizeof(id);
	return id;
}

/* ---------------------------------------------------------------- harness */

void fuzz_board_spend(unsigned long long bytes)
{
	b.spent += bytes + CALL_COST;
	if (b.spent > BUDGET_BYTES) {
		longjmp(b.stop, FUZZ_END_BUDGET);
	}
}

void fuzz_board_run(const uint8_t *input, size_t size)
{
	volatile int end;

	memset(&b, 0, sizeof(b));
	b.in = input;
	b.len = size;
	hilp_rx_init(&b.seen);
	hilp_rx_init(&b.out);
	/* A reset starts the stub again on the rest of the input, as the
	 * board would boot and read on. */
	do {
		b.irq_off = 0;
		b.trigger = 0;
		hilp_rx_init(&b.seen);
		end = setjmp(b.stop);
		if (end == 0) {
			stub_main();
		}
	} while (end == FUZZ_END_RESET);
	if (end == FUZZ_END_BUDGET) {
		return; /* stopped inside a command: nothing more to check */
	}
	FUZZ_CHECK(b.statuses == b.requests);
	FUZZ_CHECK(b.out.len == 0); /* no frame left half sent */
}
