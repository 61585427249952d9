/* clock_math: the STM32L476RG clock-tree, flash-latency and USART arithmetic (RM0351) as compile-time macros and pure functions, used by hal.c and checked by a host test. */
#ifndef L476_CLOCK_MATH_H
#define L476_CLOCK_MATH_H

#include <stdint.h>

#include "regs_l476.h"

/*
 * The same scheme as nucleo-f401re/clock_math.h: no register is read or
 * written here. The arithmetic is written once as CLOCK_*() macros that
 * are integer constant expressions, which hal.c evaluates at compile time
 * (static tables, #if checks: no division reaches the stub), and the
 * clock_*() functions wrap the same macros for
 * tests/unit/test_l476_clock_math.c. Macro arguments are evaluated more
 * than once: pass constants or plain variables.
 *
 * Limits of the STM32L47x (RM0351 Rev 9; the numbers were checked against
 * ST's STM32L4 LL driver constants, which transcribe them):
 * - §6.4.4 RCC_PLLCFGR: PLLM 1..8 (field = M - 1), PLLN 8..86, PLLR 2, 4,
 *   6 or 8 (field = R / 2 - 1). VCO input = f_in / PLLM must be 4..16 MHz,
 *   VCO output = VCO input * PLLN 64..344 MHz (voltage range 1), PLLCLK =
 *   VCO / PLLR is SYSCLK when SW = PLL.
 * - §6.2 / §5.1.8: SYSCLK, HCLK, PCLK1 and PCLK2 at most 80 MHz in voltage
 *   range 1, 26 MHz in range 2. APB1 needs no divider at any profile
 *   here: USART2 runs from PCLK1 = HCLK.
 * - §3.3.3, number of wait states by HCLK: range 1 (VCORE 1.2 V): 0 WS up
 *   to 16 MHz, 1 up to 32, 2 up to 48, 3 up to 64, 4 up to 80; range 2
 *   (1.0 V): 0 WS up to 6 MHz, 1 up to 12, 2 up to 18, 3 up to 26.
 * - USART baud rate generation, OVER8 = 0: USARTDIV = f_ck / baud and
 *   BRR = USARTDIV (a plain 16-bit divider, not the F4's 12.4 split; the
 *   value is the same number); BRR must be at least 16.
 */
#define CLOCK_HSI16_HZ	    16000000u
#define CLOCK_MSI_RANGE6_HZ 4000000u  /* the MSI at reset */
#define CLOCK_MSI_RANGE8_HZ 16000000u /* the MSI's 16 MHz range */
/*
 * An STM32L4+ (the L4R5 of nucleo-l4r5zi/clock_math.h: the same RCC and
 * PLL, a faster core) defines CLOCK_CHIP_LIMITS and its own maximum, wait
 * states and profiles before including this file.
 */
#ifndef CLOCK_CHIP_LIMITS
#define CLOCK_SYSCLK_MAX_HZ 80000000u /* voltage range 1 */
#define CLOCK_WS_STEP_R1_HZ 16000000u /* §3.3.3, range 1 */
#endif
#define CLOCK_SYSCLK_MAX_R2_HZ 26000000u /* voltage range 2 */
#define CLOCK_VCO_IN_MIN_HZ    4000000u
#define CLOCK_VCO_IN_MAX_HZ    16000000u
#define CLOCK_VCO_OUT_MIN_HZ   64000000u
#define CLOCK_VCO_OUT_MAX_HZ   344000000u
#define CLOCK_PLLM_MAX	       8u
#define CLOCK_PLLN_MIN	       8u
#define CLOCK_PLLN_MAX	       86u
#define CLOCK_WS_INVALID       0xFFu
#define CLOCK_BAUD_MAX_ERR_PPM 20000u /* 2 %: well inside a UART's margin */
#define CLOCK_BRR_MIN	       16u

/*
 * The clock profiles the board builds (HIL_CLOCK_HZ): hal.c refuses any
 * other, and the host test checks every one in this list. 80 MHz is the
 * chip's maximum (4 WS); 16 MHz the fastest at 0 WS (the HSI16 itself);
 * 24 MHz is kept because the F401 board has it, but here it needs 1 WS
 * (range 1 allows 0 WS only up to 16 MHz), so it is not the zero-wait
 * profile it is on the F401: compare boards at 16 MHz for that.
 */
#ifndef CLOCK_CHIP_LIMITS
#define CLOCK_PROFILES_HZ 80000000u, 24000000u, 16000000u
#define CLOCK_PROFILE_SUPPORTED(hz)                                            \
	((hz) == 80000000u || (hz) == 24000000u || (hz) == 16000000u)
#endif

#define CLOCK_ABSDIFF(a, b) ((a) > (b) ? (a) - (b) : (b) - (a))

/*
 * Margin for the clock source, as on the F401 board: HSI16 is trimmed to
 * 16 MHz +-1 % (STM32L476 datasheet, HSI16 accuracy at 25 C; the chip's
 * own temperature drift adds a little). A PLL frequency with a range (VCO
 * input, VCO output) should stay inside it for any source within +-1 %
 * of nominal, not only at nominal. Frequencies here are multiples of
 * 100 Hz, so f / 100 * (100 +- tol) is exact.
 */
#define CLOCK_SRC_TOL_PCT	  1u
#define CLOCK_IN_RANGE(f, lo, hi) ((f) >= (lo) && (f) <= (hi))
#define CLOCK_IN_RANGE_TOL(f, lo, hi)                                          \
	((f) / 100u * (100u - CLOCK_SRC_TOL_PCT) >= (lo) &&                    \
	 (f) / 100u * (100u + CLOCK_SRC_TOL_PCT) <= (hi))

/*
 * PLLM: the smallest divider (1..8, dividing in exactly) whose VCO input
 * stays within 4..16 MHz over the source tolerance; if there is none, the
 * smallest within the range at nominal. HSI16: M = 1 gives 16 MHz, the
 * very top of the range (16.16 MHz on a part 1 % fast), so M = 2 (8 MHz).
 * The MSI at 4 MHz has only M = 1, at the bottom edge: ST's own default
 * configuration, legal at nominal, and what the test checks. The board
 * does not use the MSI: its range is whatever a debugger last set (see
 * hal.c), the HSI16 is one fixed source for every profile.
 */
#define CLOCK_VIN_OK(in, m)                                                    \
	((in) % (m) == 0u &&                                                   \
	 CLOCK_IN_RANGE((in) / (m), CLOCK_VCO_IN_MIN_HZ, CLOCK_VCO_IN_MAX_HZ))
#define CLOCK_VIN_OK_TOL(in, m)                                                \
	((in) % (m) == 0u &&                                                   \
	 CLOCK_IN_RANGE_TOL((in) / (m), CLOCK_VCO_IN_MIN_HZ,                   \
			    CLOCK_VCO_IN_MAX_HZ))
#define CLOCK_FIRST_M(ok, in)                                                  \
	(ok(in, 1u)   ? 1u                                                     \
	 : ok(in, 2u) ? 2u                                                     \
	 : ok(in, 3u) ? 3u                                                     \
	 : ok(in, 4u) ? 4u                                                     \
	 : ok(in, 5u) ? 5u                                                     \
	 : ok(in, 6u) ? 6u                                                     \
	 : ok(in, 7u) ? 7u                                                     \
	 : ok(in, 8u) ? 8u                                                     \
		      : 0u)
#define CLOCK_PLL_M(in)                                                        \
	(CLOCK_FIRST_M(CLOCK_VIN_OK_TOL, in) != 0u                             \
		 ? CLOCK_FIRST_M(CLOCK_VIN_OK_TOL, in)                         \
		 : CLOCK_FIRST_M(CLOCK_VIN_OK, in))
#define CLOCK_PLL_VIN(in) (CLOCK_PLL_M(in) != 0u ? (in) / CLOCK_PLL_M(in) : 0u)

/*
 * A VCO output for PLL output sys: sys * R, within 64..344 MHz over the
 * tolerance and a whole multiple N (8..86) of the VCO input. R is the
 * smallest of 2, 4, 6, 8 that gives one (the lowest VCO, the least
 * power), 0 if none does. From HSI16 (VCO input 8 MHz): 80 MHz is R = 2,
 * N = 20 (VCO 160 MHz); 24 MHz is R = 4, N = 12 (VCO 96 MHz: R = 2 would
 * put it at 48 MHz, below the VCO's range). sys above 80 MHz is refused
 * by CLOCK_PLL_CAN before any product could overflow.
 */
#define CLOCK_VCO_FITS(in, vco)                                                \
	(CLOCK_PLL_VIN(in) != 0u &&                                            \
	 CLOCK_IN_RANGE_TOL(vco, CLOCK_VCO_OUT_MIN_HZ,                         \
			    CLOCK_VCO_OUT_MAX_HZ) &&                           \
	 (vco) % CLOCK_PLL_VIN(in) == 0u &&                                    \
	 (vco) / CLOCK_PLL_VIN(in) >= CLOCK_PLLN_MIN &&                        \
	 (vco) / CLOCK_PLL_VIN(in) <= CLOCK_PLLN_MAX)
#define CLOCK_PLL_R(in, sys)                                                   \
	(CLOCK_VCO_FITS(in, (sys)*2u)	? 2u                                   \
	 : CLOCK_VCO_FITS(in, (sys)*4u) ? 4u                                   \
	 : CLOCK_VCO_FITS(in, (sys)*6u) ? 6u                                   \
	 : CLOCK_VCO_FITS(in, (sys)*8u) ? 8u                                   \
					: 0u)
#define CLOCK_PLL_N(in, sys)                                                   \
	(CLOCK_PLL_R(in, sys) != 0u                                            \
		 ? (sys)*CLOCK_PLL_R(in, sys) / CLOCK_PLL_VIN(in)              \
		 : 0u)

/* Can the PLL make exactly sys (at most 80 MHz, range 1) from in? */
#define CLOCK_PLL_CAN(in, sys)                                                 \
	((sys) != 0u && (sys) <= CLOCK_SYSCLK_MAX_HZ &&                        \
	 CLOCK_PLL_R(in, sys) != 0u)

/*
 * The RCC_PLLCFGR fields for M, N, R from source src (PLLSRC bits),
 * PLLCLK (R) output enabled; P and Q outputs off with their fields 0.
 */
#define CLOCK_PLLR_BITS(r) ((r) / 2u - 1u)
#define CLOCK_PLLCFGR_OF(src, m, n, r)                                         \
	((src) | ((m)-1u) << RCC_PLLCFGR_PLLM_SHIFT |                          \
	 (n) << RCC_PLLCFGR_PLLN_SHIFT | RCC_PLLCFGR_PLLREN |                  \
	 CLOCK_PLLR_BITS(r) << RCC_PLLCFGR_PLLR_SHIFT)
/* RCC_PLLCFGR for SYSCLK = sys from HSI16. */
#define CLOCK_PLLCFGR_HSI_FOR(sys)                                             \
	CLOCK_PLLCFGR_OF(RCC_PLLCFGR_PLLSRC_HSI, CLOCK_PLL_M(CLOCK_HSI16_HZ),  \
			 CLOCK_PLL_N(CLOCK_HSI16_HZ, sys),                     \
			 CLOCK_PLL_R(CLOCK_HSI16_HZ, sys))

/*
 * Flash wait states for HCLK in voltage range 1 or 2 (§3.3.3);
 * CLOCK_WS_INVALID for 0, above the range's maximum or another range.
 */
#define CLOCK_FLASH_WS_R1(hclk)                                                \
	((hclk) == 0u || (hclk) > CLOCK_SYSCLK_MAX_HZ                          \
		 ? CLOCK_WS_INVALID                                            \
		 : ((hclk)-1u) / CLOCK_WS_STEP_R1_HZ)
#ifndef CLOCK_CHIP_LIMITS
#define CLOCK_FLASH_WS_R2(hclk)                                                \
	((hclk) == 0u || (hclk) > CLOCK_SYSCLK_MAX_R2_HZ ? CLOCK_WS_INVALID    \
	 : (hclk) <= 6000000u				 ? 0u                  \
	 : (hclk) <= 12000000u				 ? 1u                  \
	 : (hclk) <= 18000000u				 ? 2u                  \
							 : 3u)
#endif
#define CLOCK_FLASH_WS(hclk, range)                                            \
	((range) == 1u	 ? CLOCK_FLASH_WS_R1(hclk)                             \
	 : (range) == 2u ? CLOCK_FLASH_WS_R2(hclk)                             \
			 : CLOCK_WS_INVALID)

/*
 * BRR with OVER8 = 0 nearest to the wanted baud: f_ck / baud rounded half
 * up; 0 when it does not fit (below 16, or beyond 16 bits).
 */
#define CLOCK_BRR_ROUND(pclk, baud)                                            \
	((pclk) / (baud) +                                                     \
	 ((pclk) % (baud) >= (baud) - (pclk) % (baud) ? 1u : 0u))
#define CLOCK_USART_BRR_NEAREST(pclk, baud)                                    \
	((baud) == 0u || CLOCK_BRR_ROUND(pclk, baud) < CLOCK_BRR_MIN ||        \
			 CLOCK_BRR_ROUND(pclk, baud) > 0xFFFFu                 \
		 ? 0u                                                          \
		 : CLOCK_BRR_ROUND(pclk, baud))
/*
 * Is brr (non-zero) within 2 % of baud? |pclk/brr - baud| / baud > 2 %
 * <=> |pclk - baud*brr| * 50 > baud*brr; baud*brr is within baud/2 of
 * pclk, so nothing overflows 32 bits for any pclk below 2^31.
 */
#define CLOCK_USART_BRR_WITHIN(pclk, baud, brr)                                \
	(CLOCK_ABSDIFF(pclk, (baud) * (brr)) *                                 \
		 (1000000u / CLOCK_BAUD_MAX_ERR_PPM) <=                        \
	 (baud) * (brr))
/* BRR for baud from pclk, 0 when the rate is off by more than 2 %. */
#define CLOCK_USART_BRR(pclk, baud)                                            \
	(CLOCK_USART_BRR_NEAREST(pclk, baud) != 0u &&                          \
			 CLOCK_USART_BRR_WITHIN(                               \
				 pclk, baud,                                   \
				 CLOCK_USART_BRR_NEAREST(pclk, baud))          \
		 ? CLOCK_USART_BRR_NEAREST(pclk, baud)                         \
		 : 0u)

struct clock_pll {
	uint32_t m, n, r;
};

/* A clock profile as the board programs it (voltage range 1). */
struct clock_profile {
	uint32_t hclk_hz; /* = SYSCLK = PCLK1: what CYCCNT counts */
	int use_pll;	  /* 0: SYSCLK is the HSI16 itself */
	struct clock_pll pll;
	uint32_t flash_ws; /* FLASH_ACR LATENCY */
	uint32_t brr;	   /* USART2 BRR at the baud asked, 0 if off by > 2 % */
};

static inline uint32_t clock_vco_in_hz(uint32_t in_hz,
				       const struct clock_pll *pll)
{
	return pll->m != 0 ? in_hz / pll->m : 0;
}

/* VCO output; no overflow once the input is at most 16 MHz and N at most 86. */
static inline uint32_t clock_vco_out_hz(uint32_t in_hz,
					const struct clock_pll *pll)
{
	return clock_vco_in_hz(in_hz, pll) * pll->n;
}

static inline uint32_t clock_pll_sysclk_hz(uint32_t in_hz,
					   const struct clock_pll *pll)
{
	return pll->r != 0 ? clock_vco_out_hz(in_hz, pll) / pll->r : 0;
}

/**
 * Is every field legal and every frequency in the range RM0351 gives, at
 * nominal (no margin: this is the manual's rule, the margin is only a
 * preference of clock_pll_find), and does M divide the input exactly?
 * @return 1 if so, 0 if not.
 */
static inline int clock_pll_valid(uint32_t in_hz, const struct clock_pll *pll)
{
	uint32_t vin, vco;

	if (pll->m < 1 || pll->m > CLOCK_PLLM_MAX || pll->n < CLOCK_PLLN_MIN ||
	    pll->n > CLOCK_PLLN_MAX ||
	    (pll->r != 2 && pll->r != 4 && pll->r != 6 && pll->r != 8) ||
	    in_hz % pll->m != 0) {
		return 0;
	}
	vin = clock_vco_in_hz(in_hz, pll);
	if (vin < CLOCK_VCO_IN_MIN_HZ || vin > CLOCK_VCO_IN_MAX_HZ) {
		return 0;
	}
	vco = clock_vco_out_hz(in_hz, pll); /* <= 16 MHz * 86: no overflow */
	return vco >= CLOCK_VCO_OUT_MIN_HZ && vco <= CLOCK_VCO_OUT_MAX_HZ &&
	       vco / pll->r <= CLOCK_SYSCLK_MAX_HZ;
}

/**
 * PLL settings whose output (PLLCLK) is exactly sysclk_hz from in_hz
 * (CLOCK_PLL_*): the VCO input in range with margin where a divider
 * allows it, the VCO output in range with margin, the smallest R.
 * From HSI16, 80 MHz is M=2 N=20 R=2; from the MSI at 4 MHz, M=1 N=40 R=2.
 * @return 1 and pll filled, or 0 if no legal setting exists (pll zeroed).
 */
static inline int clock_pll_find(uint32_t in_hz, uint32_t sysclk_hz,
				 struct clock_pll *pll)
{
	pll->m = pll->n = pll->r = 0; /* defined even on failure */
	if (in_hz == 0 || !CLOCK_PLL_CAN(in_hz, sysclk_hz)) {
		return 0;
	}
	pll->m = CLOCK_PLL_M(in_hz);
	pll->n = CLOCK_PLL_N(in_hz, sysclk_hz);
	pll->r = CLOCK_PLL_R(in_hz, sysclk_hz);
	if (!clock_pll_valid(in_hz, pll)) { /* cannot happen: checked twice */
		pll->m = pll->n = pll->r = 0;
		return 0;
	}
	return 1;
}

/* PLLR as RCC_PLLCFGR encodes it: /2 = 0, /4 = 1, /6 = 2, /8 = 3. */
static inline uint32_t clock_pllr_bits(uint32_t r)
{
	return CLOCK_PLLR_BITS(r);
}

/* RCC_PLLCFGR for pll from the source src (RCC_PLLCFGR_PLLSRC_*). */
static inline uint32_t clock_pllcfgr(uint32_t src, const struct clock_pll *pll)
{
	return CLOCK_PLLCFGR_OF(src, pll->m, pll->n, pll->r);
}

/**
 * Flash wait states for an HCLK in voltage range 1 or 2 (§3.3.3).
 * @return 0..4, or CLOCK_WS_INVALID for 0 Hz, a clock above the range's
 *         maximum (80 or 26 MHz) or a range other than 1 and 2.
 */
static inline uint32_t clock_flash_ws(uint32_t hclk_hz, uint32_t range)
{
	return CLOCK_FLASH_WS(hclk_hz, range);
}

/**
 * BRR with OVER8 = 0 nearest to the wanted baud.
 * @return the register value, or 0 when it does not fit (below 16 or
 *         beyond 16 bits).
 */
static inline uint32_t clock_usart_brr_nearest(uint32_t pclk_hz, uint32_t baud)
{
	return CLOCK_USART_BRR_NEAREST(pclk_hz, baud);
}

/**
 * BRR for baud from pclk_hz, refused when the rate is off by more than 2 %.
 * 115200 Bd from 80 MHz: 694 (+0.064 %).
 * @return the register value, or 0 if the rate cannot be made closely enough.
 */
static inline uint32_t clock_usart_brr(uint32_t pclk_hz, uint32_t baud)
{
	return CLOCK_USART_BRR(pclk_hz, baud);
}

/* Actual minus wanted baud, in parts per million of the wanted one. */
static inline int32_t clock_baud_error_ppm(uint32_t pclk_hz, uint32_t baud,
					   uint32_t brr)
{
	int64_t want = (int64_t)baud * (int64_t)brr;
	int64_t diff = (int64_t)pclk_hz - want; /* pclk/brr - baud, times brr */

	if (brr == 0 || baud == 0) {
		return INT32_MIN;
	}
	return (int32_t)(diff * 1000000 / want);
}

/**
 * The whole profile for a core clock (HCLK = SYSCLK) from HSI16 in voltage
 * range 1: the HSI16 itself at 16 MHz, else the PLL; wait states from
 * §3.3.3; USART2's BRR at baud from PCLK1 = HCLK.
 * @return 1 and prof filled, or 0 if the clock cannot be made or the baud
 *         rate not within 2 % (prof filled as far as it got).
 */
static inline int clock_profile_for(uint32_t hclk_hz, uint32_t baud,
				    struct clock_profile *prof)
{
	prof->hclk_hz = hclk_hz;
	prof->use_pll = hclk_hz != CLOCK_HSI16_HZ;
	prof->pll.m = prof->pll.n = prof->pll.r = 0;
	prof->flash_ws = clock_flash_ws(hclk_hz, 1);
	prof->brr = 0;
	if (prof->flash_ws == CLOCK_WS_INVALID) {
		return 0;
	}
	if (prof->use_pll &&
	    !clock_pll_find(CLOCK_HSI16_HZ, hclk_hz, &prof->pll)) {
		return 0;
	}
	prof->brr = clock_usart_brr(hclk_hz, baud);
	return prof->brr != 0;
}

#endif /* L476_CLOCK_MATH_H */
