/* link_semihost: the stub's host link over Arm semihosting (SYS_READ and SYS_WRITE on ":tt", the emulator's console), in place of hal_common.c's USART2, for a board an emulator runs. */
#include <stdint.h>

#include "hal.h"
#include "hilp.h"

/*
 * Built instead of the USART link when board.mk sees HIL_LINK=semihost
 * (-DHAL_LINK_SEMIHOST). The host starts QEMU with
 * `-semihosting-config enable=on,target=native` and QEMU's stdin and
 * stdout on one end of a socketpair; in QEMU 7.2 the ":tt" a guest opens
 * is exactly those (opened "r": stdin, "w": stdout). The bytes are the
 * protocol's frames, as on the USART (docs/protocol.md, "Transports").
 *
 * Reading. SYS_READ on ":tt" is a read() of QEMU's stdin: it blocks until
 * at least one byte is there and returns every byte that has arrived, up
 * to the length asked. So each call fetches a whole frame, or what has
 * come of it, and never waits for bytes that may not come: the contract
 * of hal_uart_getc() on the USART, which also waits for one byte and no
 * more. While it waits the emulator sleeps in read(), burning no CPU,
 * where the USART's status polling keeps it busy. A call that returns
 * nothing (the host closed its end: the run is over) is asked again.
 *
 * Writing. The stub sends only COBS frames, each ending with its one 0x00
 * (reply.c's reply_send(), byte by byte): hal_uart_putc() collects
 * them here and the 0x00 sends the frame with one SYS_WRITE, a write() to
 * QEMU's stdout that returns once the frame is in the socketpair. A frame
 * never exceeds HILP_MAX_FRAME; should the buffer fill without a 0x00 it
 * is sent as it stands (the host's CRC check then sees what was meant).
 *
 * Semihosting calls happen only here, from the command loop and the fault
 * report: never between the counter reads of a measurement, and a BKPT
 * needs no interrupt, so interrupts stay off while measuring.
 *
 * hal_reset() (hal_common.c) still waits for USART2's TC first, bounded:
 * the USART sent nothing, its TC is set from reset, so the wait ends at
 * once; the last frame already left with its SYS_WRITE.
 */

/* Operation numbers (Arm, "Semihosting for AArch32 and AArch64"). */
#define SYS_OPEN  0x01u
#define SYS_WRITE 0x05u
#define SYS_READ  0x06u

/* SYS_OPEN modes (fopen's, in the specification's order): ":tt" opened
 * "r" is the console's input, "w" its output. */
#define OPEN_R 0u
#define OPEN_W 4u

#define RX_BUF 256u /* one request frame and its trailing 0x00 at a time */

static uint8_t rx_buf[RX_BUF];
static uint32_t rx_pos, rx_len;
static uint8_t tx_buf[HILP_MAX_FRAME];
static uint32_t tx_len;
#define NO_FD 0xFFFFFFFFu /* what SYS_OPEN returns on failure, too */
static uint32_t fd_in = NO_FD, fd_out = NO_FD;

/* BKPT 0xAB with the operation in r0 and its argument block in r1; the
 * result comes back in r0 (the M-profile form of the call). */
static uint32_t semihost(uint32_t op, const uint32_t *args)
{
	register uint32_t r0 __asm("r0") = op;
	register const uint32_t *r1 __asm("r1") = args;

	__asm volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
	return r0;
}

/*
 * The name ":tt" is built in a word on the stack, not kept in .rodata: the
 * stub's constants then start where the USART image's do, modulo a flash
 * line, whenever its code does too (the cycle model prices flash lines).
 */
static uint32_t open_tt(uint32_t mode)
{
	uint32_t tt = 0x0074743Au; /* ':', 't', 't', '\0' in memory order */
	uint32_t args[3];

	args[0] = (uint32_t)(uintptr_t)&tt;
	args[1] = mode;
	args[2] = 3u;
	return semihost(SYS_OPEN, args);
}

/*
 * The console is opened on first use, not in hal_init(): the board's
 * hal.c stays the same for both links (it still sets USART2 up, with
 * nothing connected to it), and so does the USART image.
 */
static void open_console(void)
{
	if (fd_in == NO_FD) {
		fd_in = open_tt(OPEN_R);
		fd_out = open_tt(OPEN_W);
	}
}

uint8_t hal_uart_getc(void)
{
	open_console();
	while (rx_pos == rx_len) {
		uint32_t args[3];
		uint32_t left;

		args[0] = fd_in;
		args[1] = (uint32_t)(uintptr_t)rx_buf;
		args[2] = RX_BUF;
		/* The bytes not read, or 0xFFFFFFFF (-1) on an error. */
		left = semihost(SYS_READ, args);
		rx_pos = 0;
		rx_len = left <= RX_BUF ? RX_BUF - left : 0u;
	}
	return rx_buf[rx_pos++];
}

static void flush(void)
{
	uint32_t args[3];

	args[0] = fd_out;
	args[1] = (uint32_t)(uintptr_t)tx_buf;
	args[2] = tx_len;
	(void)semihost(SYS_WRITE, args); /* a short write is a lost frame */
	tx_len = 0;
}

void hal_uart_putc(uint8_t c)
{
	open_console();
	tx_buf[tx_len++] = c;
	if (c == 0u || tx_len == sizeof(tx_buf)) {
		flush();
	}
}

/* No receiver to overrun: QEMU takes from the socket only what its queue
 * holds. */
uint32_t hal_uart_overruns(void)
{
	return 0;
}
