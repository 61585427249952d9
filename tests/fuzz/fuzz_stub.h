/* fuzz_stub: the stub's command loop run on the host, fed from a fuzz input (board in fuzz_board.c). */
#ifndef HIL_FUZZ_STUB_H
#define HIL_FUZZ_STUB_H

#include <stddef.h>
#include <stdint.h>

/*
 * target/main.c is compiled with -Dmain=stub_main and with this header
 * forced in (-include), which gives its two external functions the
 * prototypes the host's warnings ask for.
 */
int stub_main(void);
void hal_fault_report(uint32_t pc, uint32_t cfsr, uint32_t hfsr, uint32_t bfar);

/* Why the board stopped the stub (the value longjmp'd to the harness). */
enum fuzz_board_end {
	FUZZ_END_INPUT = 1,  /* hal_uart_getc: no byte left */
	FUZZ_END_RESET = 2,  /* hal_reset: the host asked for a reset */
	FUZZ_END_BUDGET = 3, /* too much crypto work for one input */
};

/**
 * Run the stub on input until it is consumed. Every request must be
 * answered with exactly one well-formed status packet, replies must be
 * well-formed frames, and the stub must wait for input with interrupts on
 * and the trigger low. Broken promises go to fuzz_fail().
 */
void fuzz_board_run(const uint8_t *input, size_t size);

/**
 * Charge crypto work (bytes processed) to the current input; past the
 * budget the board ends the input (FUZZ_END_BUDGET), so that a request for
 * 2^32 ENERGY runs costs milliseconds, not hours. Called by fuzz_budget.c.
 */
void fuzz_board_spend(unsigned long long bytes);

#endif /* HIL_FUZZ_STUB_H */
