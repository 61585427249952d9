/* clock_math: the nRF52840's clock, UARTE baud-rate and flash/cache facts (nRF52840 PS v1.x) as compile-time macros and pure functions, used by hal.c and checked by a host test. */
#ifndef NRF52_CLOCK_MATH_H
#define NRF52_CLOCK_MATH_H

#include <stdint.h>

#include "regs_nrf52840.h"

/*
 * No register is read or written here: numbers to numbers, as in
 * nucleo-f401re/clock_math.h. The NRF52_*() macros are integer constant
 * expressions, so hal.c checks its build settings with #if and the image
 * holds only results; the nrf52_*() functions wrap the same macros for
 * tests/unit/test_nrf52_clock_math.c. Macro arguments are evaluated
 * more than once: pass constants or plain variables.
 */

/*
 * Core clock (PS "CLOCK - Clock control", HFCLK controller): the CPU
 * always runs from HCLK64M = 64 MHz, made from HFINT (the internal RC
 * oscillator) or, once TASKS_HFCLKSTART has started it, from HFXO (the
 * DK's 32 MHz crystal). There is no PLL and no prescaler to choose: the
 * only clock setting a board can make is which source is the reference,
 * which changes the accuracy of the 64 MHz (and of every baud rate), not
 * its nominal value. So 64 MHz is the only HIL_CLOCK_HZ this board
 * builds, and CYCCNT counts at 64 MHz with either source.
 */
#define NRF52_CLOCK_HZ		  64000000u
#define NRF52_PCLK16M_HZ	  16000000u /* peripheral clock of the UARTE */
#define NRF52_CLOCK_SUPPORTED(hz) ((hz) == NRF52_CLOCK_HZ)

/*
 * UARTE BAUDRATE (PS "UARTE", register BAUDRATE at 0x524): the register
 * takes one of the values of the PS table, each with the rate the PS
 * says it actually produces from the 16 MHz peripheral clock. These are
 * the UARTE's values, not the legacy UART's, whose table differs for
 * several rates: 115200 Bd is 0x01D7E000 (115942 Bd) on the UART but
 * 0x01D60000 (115108 Bd) on the UARTE, 921600 Bd is 0x0EBED000 on the
 * UART but 0x0F000000 on the UARTE. Any other rate is refused (0): the PS
 * gives no formula for values outside its table.
 *
 * Both macros below are that table, row by row (BAUDRATE value, then the
 * actual rate): 0 for a rate the PS does not list.
 */
#define NRF52_UARTE_BAUDRATE(b)                                                \
	((b) == 1200u	   ? 0x0004F000u                                       \
	 : (b) == 2400u	   ? 0x0009D000u                                       \
	 : (b) == 4800u	   ? 0x0013B000u                                       \
	 : (b) == 9600u	   ? 0x00275000u                                       \
	 : (b) == 14400u   ? 0x003AF000u                                       \
	 : (b) == 19200u   ? 0x004EA000u                                       \
	 : (b) == 28800u   ? 0x0075C000u                                       \
	 : (b) == 31250u   ? 0x00800000u                                       \
	 : (b) == 38400u   ? 0x009D0000u                                       \
	 : (b) == 56000u   ? 0x00E50000u                                       \
	 : (b) == 57600u   ? 0x00EB0000u                                       \
	 : (b) == 76800u   ? 0x013A9000u                                       \
	 : (b) == 115200u  ? 0x01D60000u                                       \
	 : (b) == 230400u  ? 0x03B00000u                                       \
	 : (b) == 250000u  ? 0x04000000u                                       \
	 : (b) == 460800u  ? 0x07400000u                                       \
	 : (b) == 921600u  ? 0x0F000000u                                       \
	 : (b) == 1000000u ? 0x10000000u                                       \
			   : 0u)
#define NRF52_UARTE_ACTUAL(b)                                                  \
	((b) == 1200u	   ? 1205u                                             \
	 : (b) == 2400u	   ? 2396u                                             \
	 : (b) == 4800u	   ? 4808u                                             \
	 : (b) == 9600u	   ? 9598u                                             \
	 : (b) == 14400u   ? 14401u                                            \
	 : (b) == 19200u   ? 19208u                                            \
	 : (b) == 28800u   ? 28777u                                            \
	 : (b) == 31250u   ? 31250u                                            \
	 : (b) == 38400u   ? 38369u                                            \
	 : (b) == 56000u   ? 55944u                                            \
	 : (b) == 57600u   ? 57554u                                            \
	 : (b) == 76800u   ? 76923u                                            \
	 : (b) == 115200u  ? 115108u                                           \
	 : (b) == 230400u  ? 231884u                                           \
	 : (b) == 250000u  ? 250000u                                           \
	 : (b) == 460800u  ? 457143u                                           \
	 : (b) == 921600u  ? 941176u                                           \
	 : (b) == 1000000u ? 1000000u                                          \
			   : 0u)

/*
 * Is the actual rate within 2 % of the wanted one (the limit the
 * nucleo-f401re board uses too)? |actual - baud| * 50 <= baud. Every
 * listed rate but 921600 Bd passes (941176 Bd is +2.1 %; the DK's
 * J-Link virtual COM port does not offer 921600 Bd either).
 */
#define NRF52_BAUD_MAX_ERR_PPM 20000u
#define NRF52_ABSDIFF(a, b)    ((a) > (b) ? (a) - (b) : (b) - (a))
#define NRF52_UARTE_BAUD_WITHIN(b)                                             \
	(NRF52_UARTE_ACTUAL(b) != 0u &&                                        \
	 NRF52_ABSDIFF(NRF52_UARTE_ACTUAL(b), (b)) *                           \
			 (1000000u / NRF52_BAUD_MAX_ERR_PPM) <=                \
		 (b))

/*
 * NVMC ICACHECNF (PS §4.3.8 "Cache", register at 0x4001E540): CACHEEN
 * (bit 0) turns on the instruction cache on the ICODE bus; it is off at
 * reset, and writing 0 also invalidates it. HIL_ICACHE = 1 (the default:
 * how firmware normally runs) or 0 (every instruction fetch goes to the
 * flash). CACHEPROFEN (the IHIT/IMISS counters) stays off. Any other
 * setting is refused (NRF52_ICACHECNF_INVALID). On this board INFO's
 * flash_acr field carries ICACHECNF as read back.
 */
#define NRF52_ICACHECNF_INVALID 0xFFFFFFFFu
#define NRF52_ICACHECNF(setting)                                               \
	((setting) == 1	  ? NVMC_ICACHECNF_CACHEEN                             \
	 : (setting) == 0 ? 0u                                                 \
			  : NRF52_ICACHECNF_INVALID)

/*
 * Memory and flash timing, for a cycle model of this chip.
 *
 * Sourced (PS "Memory"): flash 1 MiB at 0x00000000 on the ICODE/DCODE
 * buses, no alias of it elsewhere; data RAM 256 KiB at 0x20000000, also
 * mapped at 0x00800000 ("code RAM", the ICODE bus: code run from there
 * does not compete with its own data accesses).
 *
 * Sourced (PS §4.3.8): "Enabling the cache can increase CPU performance
 * and reduce power consumption by reducing the number of wait cycles and
 * the number of flash accesses. This will depend on the cache hit rate."
 * So uncached fetches from flash wait at 64 MHz, and a hit waits less.
 *
 * NOT verified from the PS here (its cache section could not be read
 * while this was written): that a hit costs 0 wait states and a miss 2
 * at 64 MHz. The figures below are what we expect; NRF52_FLASH_WS_VERIFIED
 * is 0 so that a model relying on them can say so. To settle them on a
 * board: time a long straight run of 32-bit NOPs from flash with
 * HIL_ICACHE=0, then from code RAM, with CYCCNT, and read IHIT/IMISS with
 * CACHEPROFEN on.
 */
#define NRF52_FLASH_BASE	0x00000000u
#define NRF52_FLASH_SIZE	(1024u * 1024u)
#define NRF52_RAM_BASE		0x20000000u
#define NRF52_RAM_SIZE		(256u * 1024u)
#define NRF52_CODE_RAM_BASE	0x00800000u /* alias of NRF52_RAM_BASE */
#define NRF52_ICACHE_HIT_WS	0u	    /* expected, unverified */
#define NRF52_FLASH_MISS_WS	2u	    /* expected at 64 MHz, unverified */
#define NRF52_FLASH_WS_VERIFIED 0

/**
 * The UARTE BAUDRATE value for baud (PS table).
 * @return the register value, or 0 when the PS lists none for that rate.
 */
static inline uint32_t nrf52_uarte_baudrate(uint32_t baud)
{
	return NRF52_UARTE_BAUDRATE(baud);
}

/**
 * The rate in Bd that the PS says the UARTE makes for a supported baud.
 * @return the actual rate, or 0 when the rate is not supported.
 */
static inline uint32_t nrf52_uarte_actual_baud(uint32_t baud)
{
	return NRF52_UARTE_ACTUAL(baud);
}

/**
 * Actual minus wanted rate, in parts per million of the wanted one.
 * @return the error, or INT32_MIN when baud is not supported.
 */
static inline int32_t nrf52_uarte_error_ppm(uint32_t baud)
{
	uint32_t actual = NRF52_UARTE_ACTUAL(baud);

	if (actual == 0u) {
		return INT32_MIN;
	}
	return (int32_t)(((int64_t)actual - (int64_t)baud) * 1000000 /
			 (int64_t)baud);
}

/* Is baud supported and within 2 % (NRF52_UARTE_BAUD_WITHIN)? 1 or 0. */
static inline int nrf52_uarte_baud_within(uint32_t baud)
{
	return NRF52_UARTE_BAUD_WITHIN(baud) ? 1 : 0;
}

/**
 * ICACHECNF for a HIL_ICACHE setting.
 * @return CACHEEN for 1, 0 for 0, NRF52_ICACHECNF_INVALID otherwise.
 */
static inline uint32_t nrf52_icachecnf(int setting)
{
	return NRF52_ICACHECNF(setting);
}

#endif /* NRF52_CLOCK_MATH_H */
