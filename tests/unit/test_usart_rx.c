/* test_usart_rx: the boards' polled USART receive (target/boards/common/usart_rx.h), compiled for the host against a model of the STM32 USART's RXNE/ORE behaviour, recovers from an overrun that leaves ORE set with RXNE clear. */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

/*
 * A model of one STM32F4 USART receiver (RM0368 §19.3.4 "Overrun error",
 * §19.6.1 USART_SR), driven by register accesses:
 * - a byte that completes with RXNE clear goes to DR and sets RXNE;
 * - one that completes with RXNE set is lost and sets ORE;
 * - while ORE is set, completed bytes are lost and RXNE stays as it is
 *   (the receiver delivers nothing more: the hang of issue 19);
 * - a DR read clears RXNE, and clears ORE only if the SR read before it
 *   saw ORE set ("a read to the USART_SR register followed by a read to
 *   the USART_DR register").
 * Bytes arrive on a script: byte i completes just before register access
 * number at[i] (accesses counted from 0), so a test can put an arrival
 * between the routine's SR read and its DR read. A budget of accesses
 * stops a routine that would spin for ever.
 */
#define SIM_MAX_BYTES 16
#define SIM_BUDGET    1000u

struct sim_usart {
	uint32_t sr;
	uint8_t dr;
	int sr_saw_ore; /* the last SR read returned ORE set */
	unsigned accesses;
	const uint8_t *bytes;
	const unsigned *at;
	size_t n, next;
	unsigned lost;
	jmp_buf stuck; /* longjmp'd to when the budget runs out */
};

static struct sim_usart *sim;

#define SR_RXNE (1u << 5)
#define SR_ORE	(1u << 3)

static void sim_arrivals(void)
{
	while (sim->next < sim->n && sim->at[sim->next] <= sim->accesses) {
		uint8_t b = sim->bytes[sim->next++];

		if (sim->sr & SR_ORE) {
			sim->lost++; /* nothing is delivered while ORE is set */
		} else if (sim->sr & SR_RXNE) {
			sim->sr |= SR_ORE;
			sim->lost++;
		} else {
			sim->dr = b;
			sim->sr |= SR_RXNE;
		}
	}
}

static void sim_begin_access(void)
{
	if (sim->accesses >= SIM_BUDGET) {
		longjmp(sim->stuck, 1);
	}
	sim_arrivals();
	sim->accesses++;
}

static uint32_t sim_read_sr(uint32_t usart)
{
	assert_int_equal(usart, 0x40004400u); /* USART2 */
	sim_begin_access();
	sim->sr_saw_ore = (sim->sr & SR_ORE) != 0;
	return sim->sr;
}

static uint32_t sim_read_dr(uint32_t usart)
{
	uint8_t b;

	assert_int_equal(usart, 0x40004400u);
	sim_begin_access();
	b = sim->dr;
	sim->sr &= ~SR_RXNE;
	if (sim->sr_saw_ore) {
		sim->sr &= ~SR_ORE;
	}
	sim->sr_saw_ore = 0;
	return b;
}

/* The routine under test, exactly as the boards compile it. */
#define USART_RX_SR(usart) sim_read_sr(usart)
#define USART_RX_DR(usart) sim_read_dr(usart)
#include "boards/common/usart_rx.h"

/* The loop the Nucleo had before (wait for RXNE, read DR): the model must show its hang. */
static uint8_t old_getc(uint32_t usart)
{
	while (!(USART_RX_SR(usart) & USART_SR_RXNE)) {
	}
	return (uint8_t)USART_RX_DR(usart);
}

static void sim_start(struct sim_usart *s, const uint8_t *bytes,
		      const unsigned *at, size_t n)
{
	s->sr = 0;
	s->dr = 0;
	s->sr_saw_ore = 0;
	s->accesses = 0;
	s->bytes = bytes;
	s->at = at;
	s->n = n;
	s->next = 0;
	s->lost = 0;
	sim = s;
}

/*
 * 'A' is waiting; 'B' completes between the routine's SR read (RXNE set,
 * ORE not yet) and its DR read; 'C' arrives while ORE is set and is lost;
 * 'D' comes much later. Access 0 is the first SR read (sees 'A'), access
 * 1 its DR read, before which 'B' lands.
 */
static const uint8_t race_bytes[] = {'A', 'B', 'C', 'D'};
static const unsigned race_at[] = {0, 1, 2, 40};

static void test_overrun_with_rxne_clear_recovers_and_is_counted(void **state)
{
	struct sim_usart s;
	static uint32_t overruns;
	uint8_t c;

	(void)state;
	overruns = 0;
	sim_start(&s, race_bytes, race_at, 4);
	if (setjmp(s.stuck) != 0) {
		fail_msg("usart_rx_getc spun for %u accesses: stuck on ORE",
			 SIM_BUDGET);
	}
	c = usart_rx_getc(USART2, &overruns);
	assert_int_equal(c, 'A');
	/* The state of the hang: ORE left set, RXNE clear. */
	assert_int_equal(s.sr & (SR_ORE | SR_RXNE), SR_ORE);
	assert_int_equal(overruns, 0);

	c = usart_rx_getc(USART2, &overruns);
	assert_int_equal(c, 'D');
	assert_int_equal(overruns, 1);
	assert_int_equal(s.lost, 2); /* 'B' and 'C' */
	assert_int_equal(s.sr & (SR_ORE | SR_RXNE), 0);
}

/* The same script stalls the old loop for good: the model reproduces the defect. */
static void test_the_old_loop_hangs_on_the_same_overrun(void **state)
{
	struct sim_usart s;
	volatile int stuck = 0;

	(void)state;
	sim_start(&s, race_bytes, race_at, 4);
	if (setjmp(s.stuck) == 0) {
		assert_int_equal(old_getc(USART2), 'A');
		(void)old_getc(USART2);
	} else {
		stuck = 1;
	}
	assert_true(stuck);
	assert_int_equal(s.sr & (SR_ORE | SR_RXNE), SR_ORE);
}

/*
 * The ordinary overrun: two bytes complete before the routine looks, so
 * SR shows RXNE and ORE together. The routine returns the first (DR holds
 * it), clears ORE with the same DR read, counts one overrun, and the next
 * byte is received normally.
 */
static void test_overrun_with_rxne_set_returns_the_held_byte(void **state)
{
	static const uint8_t bytes[] = {0x11, 0x22, 0x33};
	static const unsigned at[] = {0, 0, 10};
	struct sim_usart s;
	static uint32_t overruns;

	(void)state;
	overruns = 7; /* it counts on from what it was */
	sim_start(&s, bytes, at, 3);
	if (setjmp(s.stuck) != 0) {
		fail_msg("usart_rx_getc stuck");
	}
	assert_int_equal(usart_rx_getc(USART2, &overruns), 0x11);
	assert_int_equal(overruns, 8);
	assert_int_equal(s.sr & SR_ORE, 0);
	assert_int_equal(usart_rx_getc(USART2, &overruns), 0x33);
	assert_int_equal(overruns, 8);
	assert_int_equal(s.lost, 1);
}

/* Without overruns every byte arrives, in order, and nothing is counted. */
static void test_bytes_without_overrun_arrive_in_order(void **state)
{
	static const uint8_t bytes[] = {0x00, 0x7E, 0xFF, 0x42, 0x00};
	static const unsigned at[] = {3, 10, 20, 30, 60};
	struct sim_usart s;
	static uint32_t overruns;
	size_t i;

	(void)state;
	overruns = 0;
	sim_start(&s, bytes, at, 5);
	if (setjmp(s.stuck) != 0) {
		fail_msg("usart_rx_getc stuck");
	}
	for (i = 0; i < 5; i++) {
		assert_int_equal(usart_rx_getc(USART2, &overruns), bytes[i]);
	}
	assert_int_equal(overruns, 0);
	assert_int_equal(s.lost, 0);
}

/* Silence: the routine waits (polls SR only) and never invents a byte. */
static void test_silence_is_waited_for(void **state)
{
	struct sim_usart s;
	static uint32_t overruns;
	volatile int stuck = 0;

	(void)state;
	overruns = 0;
	sim_start(&s, NULL, NULL, 0);
	if (setjmp(s.stuck) == 0) {
		(void)usart_rx_getc(USART2, &overruns);
	} else {
		stuck = 1;
	}
	assert_true(stuck);
	assert_int_equal(overruns, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			test_overrun_with_rxne_clear_recovers_and_is_counted),
		cmocka_unit_test(test_the_old_loop_hangs_on_the_same_overrun),
		cmocka_unit_test(
			test_overrun_with_rxne_set_returns_the_held_byte),
		cmocka_unit_test(test_bytes_without_overrun_arrive_in_order),
		cmocka_unit_test(test_silence_is_waited_for),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
