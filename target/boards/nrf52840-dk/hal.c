/* hal for the nRF52840-DK: HFXO start, UARTE0 to the J-Link virtual COM port, DWT cycle counter, NVMC instruction cache, trigger pin, FICR device id. */
#include <stdint.h>

#include "hilp.h"
#include "hal.h"
#include "regs_nrf52840.h"
#include "clock_math.h"

/*
 * Compile-time settings (-D in board.mk or from the run configuration):
 *   HIL_CLOCK_HZ  64000000, the only one (clock_math.h: no PLL, no prescaler)
 *   HIL_BAUD      115200 (default); any rate of the PS's UARTE table
 *   HIL_ICACHE    1 (default: NVMC instruction cache on) or 0 (off)
 *
 * Wiring on the nRF52840-DK (PCA10056), all on the board, nothing to
 * solder: UARTE0 TXD = P0.06, RXD = P0.08, routed to the J-Link OB's
 * virtual COM port (DK user guide, "Virtual serial port"); its RTS =
 * P0.05 and CTS = P0.07 are left unconnected (no flow control: the
 * guide says both may be used for other purposes when HWFC is off, and
 * the stub never sends faster than the host reads). Trigger = P1.08 =
 * Arduino D7 on header P3, the same Arduino position as the Nucleo's PA8,
 * so a probe or an energy sensor stays on the same header pin when the
 * board is swapped; nothing else on the DK uses P1.08.
 */
#ifndef HIL_CLOCK_HZ
#define HIL_CLOCK_HZ NRF52_CLOCK_HZ
#endif
#ifndef HIL_BAUD
#define HIL_BAUD 115200
#endif
#ifndef HIL_ICACHE
#define HIL_ICACHE 1
#endif

#if !NRF52_CLOCK_SUPPORTED(HIL_CLOCK_HZ)
#error "HIL_CLOCK_HZ must be 64000000: the nRF52840 core has no other clock"
#endif
#if NRF52_UARTE_BAUDRATE(HIL_BAUD) == 0
#error "HIL_BAUD is not in the UARTE BAUDRATE table of the nRF52840 PS"
#endif
#if NRF52_ICACHECNF(HIL_ICACHE) == NRF52_ICACHECNF_INVALID
#error "HIL_ICACHE must be 1 (instruction cache on) or 0 (off)"
#endif

#define UART_TX_PIN   6u /* P0.06 */
#define UART_RX_PIN   8u /* P0.08 */
#define TRIGGER_PIN   8u /* P1.08 */
#define BAUDRATE      NRF52_UARTE_BAUDRATE(HIL_BAUD)
#define BAUD_OK	      NRF52_UARTE_BAUD_WITHIN(HIL_BAUD)
#define ICACHECNF     NRF52_ICACHECNF(HIL_ICACHE)
/* Polls, >= 4 cycles each: >= 31 ms at 64 MHz; the HFXO debounce is 0.256 ms at reset. */
#define HFXO_WAIT     500000u
/* Polls: >= 12 ms, and one byte at 1200 Bd takes 8.3 ms. */
#define RESET_TX_WAIT 200000u

/*
 * The UARTE moves data only by EasyDMA, which reaches data RAM and never
 * flash (PS "EasyDMA"): one byte each way, in .bss. rx_byte is written
 * by the UARTE, tx_byte read by it, hence volatile.
 */
static volatile uint8_t rx_byte, tx_byte;
/* A transmission was started and its ENDTX not yet seen by putc. */
static uint8_t tx_pending;
/* ERRORSRC.OVERRUN seen since reset; reported in INFO. */
static uint32_t uart_overruns;

/*
 * Is the HFXO running? EVENTS_HFCLKSTARTED says it started after our
 * task; HFCLKSTAT (SRC = Xtal, STATE = Running) also covers an HFXO
 * that was already running, whose start may not raise the event again.
 */
static int hfxo_running(void)
{
	const uint32_t on =
		CLOCK_HFCLKSTAT_SRC_XTAL | CLOCK_HFCLKSTAT_STATE_RUNNING;

	return CLOCK_EVENTS_HFCLKSTARTED != 0u || (CLOCK_HFCLKSTAT & on) == on;
}

/*
 * PS "UARTE": TXD is driven high by the GPIO (output, value 1) and RXD
 * is an input before the UARTE is enabled, so the line idles high
 * whether or not the peripheral owns the pins (GPIO configuration table
 * of the UARTE chapter); the pull-up keeps RXD idle while the J-Link's
 * side is tri-stated (its pins float until a terminal opens the port and
 * raises DTR, DK guide). PSEL may only change while ENABLE = 0. Then the
 * receiver starts on rx_byte: one byte per ENDRX, see hal_uart_getc.
 */
static void uarte_init(void)
{
	GPIO_OUTSET(P0) = 1u << UART_TX_PIN;
	GPIO_PIN_CNF(P0, UART_TX_PIN) =
		GPIO_PIN_CNF_DIR_OUTPUT | GPIO_PIN_CNF_INPUT_DISCONNECT;
	GPIO_PIN_CNF(P0, UART_RX_PIN) = GPIO_PIN_CNF_PULL_UP;

	UARTE_ENABLE(UARTE0) = 0;
	UARTE_PSEL_RTS(UARTE0) = UARTE_PSEL_DISCONNECTED;
	UARTE_PSEL_CTS(UARTE0) = UARTE_PSEL_DISCONNECTED;
	UARTE_PSEL_TXD(UARTE0) = UARTE_PSEL(0u, UART_TX_PIN);
	UARTE_PSEL_RXD(UARTE0) = UARTE_PSEL(0u, UART_RX_PIN);
	UARTE_CONFIG(UARTE0) = 0; /* 8N1, no flow control */
	UARTE_BAUDRATE(UARTE0) = BAUDRATE;
	UARTE_RXD_PTR(UARTE0) = (uint32_t)(uintptr_t)&rx_byte;
	UARTE_RXD_MAXCNT(UARTE0) = 1;
	UARTE_TXD_PTR(UARTE0) = (uint32_t)(uintptr_t)&tx_byte;
	UARTE_TXD_MAXCNT(UARTE0) = 1;
	UARTE_ENABLE(UARTE0) = UARTE_ENABLE_ENABLED;
	UARTE_TASKS_STARTRX(UARTE0) = 1;
}

/*
 * In this order:
 * 1. On build codes Fxx and later, keep the debug port open until the
 *    next reset (APPROTECT.DISABLE = SwDisable), as the improved
 *    APPROTECT asks of the firmware after every reset; older revisions
 *    are left alone. It only helps where the UICR holds HwDisabled
 *    (README: flashing).
 * 2. The instruction cache as built (HIL_ICACHE).
 * 3. HFXO (PS "CLOCK", HFCLK controller): until it runs, HCLK64M comes
 *    from HFINT, the internal RC oscillator, far less accurate than the
 *    crystal for a UART or a time base. Bounded wait; on a timeout the board goes on from HFINT
 *    (the HFXO request stays: if it starts later, the clock switches by
 *    itself) and hal_init reports HILP_ST_CLOCK, as nucleo-f401re does
 *    after its PLL fails.
 * 4. Trigger low before its pin becomes an output (no glitch at boot),
 *    then the UARTE.
 * 5. The DWT cycle counter as on the Nucleo (ARMv7-M ARM C1.8, C1.6.5);
 *    SysTick stopped: the stub takes no interrupt.
 * A baud rate more than 2 % off (921600 Bd: 941176) still builds and is
 * set, and hal_init reports HILP_ST_BAD_ARG, as on the Nucleo.
 */
uint8_t hal_init(void)
{
	uint8_t st = BAUD_OK ? HILP_ST_OK : HILP_ST_BAD_ARG;
	uint32_t polls;

	if (FICR_INFO_VARIANT_BUILD(FICR_INFO_VARIANT) >=
	    APPROTECT_FIRST_BUILD) {
		APPROTECT_DISABLE = APPROTECT_DISABLE_SWDISABLE;
	}
	NVMC_ICACHECNF = ICACHECNF;

	CLOCK_EVENTS_HFCLKSTARTED = 0;
	CLOCK_TASKS_HFCLKSTART = 1;
	for (polls = HFXO_WAIT; !hfxo_running(); polls--) {
		if (polls == 0u) {
			st = HILP_ST_CLOCK;
			break;
		}
	}

	GPIO_OUTCLR(P1) = 1u << TRIGGER_PIN;
	GPIO_PIN_CNF(P1, TRIGGER_PIN) =
		GPIO_PIN_CNF_DIR_OUTPUT | GPIO_PIN_CNF_INPUT_DISCONNECT;
	uarte_init();

	SYST_CSR = 0;
	hal_counter_arm();
	if (DWT_CTRL & DWT_CTRL_NOCYCCNT) {
		return st == HILP_ST_OK ? HILP_ST_UNSUPPORTED : st;
	}
	DWT_CYCCNT = 0;
	return st;
}

/*
 * One byte per EasyDMA transfer (RXD.MAXCNT = 1): ENDRX says rx_byte
 * holds it (RXDRDY would come before the byte is in RAM, PS "UARTE",
 * reception). STARTRX is triggered again at once, so the buffer is armed
 * while the stub works on the byte. The receiver is never stopped: bytes
 * that arrive between ENDRX and the next STARTRX wait in the UARTE's RX
 * FIFO (its head, RXD, then the next places, as Nordic describes the
 * hardware) and the next STARTRX moves them into the buffer; a byte that
 * finds the FIFO full is lost and sets ERRORSRC.OVERRUN, which is what
 * hal_uart_overruns() counts (several lost back to back may count once,
 * as on the STM32). The frame's CRC then rejects the damaged packet and
 * the host retries. That an ERROR leaves the receiver running, and how
 * deep the FIFO is, is what the PS and Nordic's drivers imply, not
 * something checked on a chip here (README).
 *
 * Clearing an event register takes a few cycles to take effect (PS
 * "Peripheral interface"), so each clear is read back before the event
 * is polled again.
 */
uint8_t hal_uart_getc(void)
{
	uint8_t c;

	while (UARTE_EVENTS_ENDRX(UARTE0) == 0u) {
		if (UARTE_EVENTS_ERROR(UARTE0) != 0u) {
			uint32_t src = UARTE_ERRORSRC(UARTE0);

			UARTE_EVENTS_ERROR(UARTE0) = 0;
			UARTE_ERRORSRC(UARTE0) = src; /* write 1 to clear */
			if (src & UARTE_ERRORSRC_OVERRUN) {
				uart_overruns++;
			}
		}
	}
	UARTE_EVENTS_ENDRX(UARTE0) = 0;
	(void)UARTE_EVENTS_ENDRX(UARTE0);
	c = rx_byte;
	UARTE_TASKS_STARTRX(UARTE0) = 1;
	return c;
}

/*
 * Start a one-byte transfer and return while it goes out; the next call
 * first waits for its ENDTX ("last TX byte transmitted"), after which
 * tx_byte is free again. The DMB makes the byte reach RAM before the
 * task starts the DMA that reads it.
 */
void hal_uart_putc(uint8_t c)
{
	if (tx_pending) {
		while (UARTE_EVENTS_ENDTX(UARTE0) == 0u) {
		}
	}
	UARTE_EVENTS_ENDTX(UARTE0) = 0;
	(void)UARTE_EVENTS_ENDTX(UARTE0);
	tx_byte = c;
	__asm volatile("dmb" ::: "memory");
	UARTE_TASKS_STARTTX(UARTE0) = 1;
	tx_pending = 1;
}

uint32_t hal_uart_overruns(void)
{
	return uart_overruns;
}

/*
 * CYCCNT counts HCLK64M, 64 MHz from either source, so clock_hz is the
 * nominal 64 MHz in both cases (an HFXO that failed is reported by
 * hal_init's status, not here). flash_acr carries NVMC ICACHECNF as read
 * back: 1 = instruction cache on, 0 = off. This board has no flash wait
 * state setting to report (README).
 */
void hal_counter_info(struct hal_counter_info *info)
{
	info->unit = HILP_UNIT_CYCLES;
	info->clock_hz = NRF52_CLOCK_HZ;
	info->counter_hz = NRF52_CLOCK_HZ;
	info->flash_acr = NVMC_ICACHECNF;
	info->flags =
		(DWT_CTRL & DWT_CTRL_NOCYCCNT) ? 0u : HILP_INFO_CYCLE_COUNTER;
}

void hal_trigger(int on)
{
	if (on) {
		GPIO_OUTSET(P1) = 1u << TRIGGER_PIN;
	} else {
		GPIO_OUTCLR(P1) = 1u << TRIGGER_PIN;
	}
}

/*
 * The 12 bytes: FICR DEVICEID[0], DEVICEID[1] (the 64-bit unique device
 * identifier, low word first), then DEVICEADDR[0] (the low 32 bits of
 * the factory 48-bit BLE device address), each word least significant
 * byte first, as the STM32 boards send their three UID words. As a hex
 * string: bytes 0..7 are DEVICEID as a little-endian 64-bit number.
 */
void hal_uid(uint8_t uid[12])
{
	hilp_put_u32(uid, FICR_DEVICEID(0));
	hilp_put_u32(uid + 4, FICR_DEVICEID(1));
	hilp_put_u32(uid + 8, FICR_DEVICEADDR(0));
}

const char *hal_board_name(void)
{
	return "nrf52840-dk";
}

/*
 * Let the last byte of the reply leave (its ENDTX, bounded), then
 * SYSRESETREQ (ARMv7-M ARM B3.2.6) keeping PRIGROUP, a soft reset (PS
 * "RESET"): the UARTE, CLOCK and NVMC registers start from their reset
 * values again, so hal_init sets them all up as after power-on.
 */
void hal_reset(void)
{
	uint32_t n;

	for (n = RESET_TX_WAIT; tx_pending && n != 0u; n--) {
		if (UARTE_EVENTS_ENDTX(UARTE0) != 0u) {
			break;
		}
	}
	__asm volatile("dsb" ::: "memory");
	SCB_AIRCR = SCB_AIRCR_VECTKEY | (SCB_AIRCR & SCB_AIRCR_PRIGROUP_MASK) |
		    SCB_AIRCR_SYSRESETREQ;
	__asm volatile("dsb" ::: "memory");
	for (;;) {
	}
}
