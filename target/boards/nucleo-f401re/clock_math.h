/* clock_math: the STM32F401RE clock-tree, flash-latency and USART arithmetic (RM0368) as compile-time macros and pure functions, used by hal.c and checked by a host test. */
#ifndef CLOCK_MATH_H
#define CLOCK_MATH_H

#include <stdint.h>

#include "../common/regs.h"

/*
 * No register is read or written here: everything maps numbers to
 * numbers. The arithmetic the board needs is written once, as CLOCK_*()
 * macros that are integer constant expressions: hal.c evaluates them at
 * compile time (static tables, #if checks) at any optimisation level, so
 * no division or libgcc helper reaches the stub. The clock_*() functions
 * are those same macros behind a function interface, which is what
 * tests/unit/test_nucleo_clock_math.c runs on the host: the test checks
 * exactly the arithmetic the board is built with. Macro arguments are
 * evaluated more than once: pass constants or plain variables.
 *
 * Limits of the STM32F401xB/C/D/E (RM0368 Rev 5):
 * - §6.2.3 and §6.3.2 (RCC_PLLCFGR): VCO input = f_in / PLLM must be 1..2
 *   MHz (2 MHz is recommended to limit jitter), PLLM 2..63; VCO output =
 *   VCO input * PLLN must be 192..432 MHz, PLLN 192..432 (the F401's
 *   field limits, as regs.h says; with a VCO input above 1 MHz the lower
 *   one binds before the VCO's);
 *   SYSCLK = VCO / PLLP, PLLP in {2, 4, 6, 8} encoded as PLLP / 2 - 1;
 *   PLL48CK = VCO / PLLQ, PLLQ 2..15, at most 48 MHz.
 * - §6.3.3: SYSCLK at most 84 MHz, APB1 (PCLK1) at most 42 MHz; HPRE
 *   (AHB = HCLK = SYSCLK / HPRE, the core clock) encodes /1 as 0xxx, /2 as
 *   1000, /4 1001; PPRE1
 *   encodes /1 as 0xx, /2 as 100, /4 101, /8 110, /16 111.
 * - §3.4.1 Table 6, 2.7..3.6 V: 0 wait states up to 30 MHz HCLK, 1 up to
 *   60 MHz, 2 up to 84 MHz.
 * - §19.3.4: with OVER8 = 0, USARTDIV = f_PCLK / (16 * baud) is stored in
 *   BRR as 12.4 fixed point (DIV_Mantissa in bits 15:4, DIV_Fraction in
 *   3:0), i.e. BRR = f_PCLK / baud, rounded; USARTDIV must be at least 1.
 */
/*
 * Another STM32F4 whose RCC has this layout (the F407 of
 * stm32f4discovery/clock_math.h) defines CLOCK_CHIP_LIMITS and its own
 * limits and profiles before including this file; the arithmetic below
 * reads only these names.
 */
#ifndef CLOCK_CHIP_LIMITS
#define CLOCK_SYSCLK_MAX_HZ  84000000u
#define CLOCK_APB2_MAX_HZ    84000000u
#define CLOCK_VCO_OUT_MIN_HZ 192000000u
#define CLOCK_PLLN_MIN	     192u /* RM0368 §6.3.2 (the F401's field) */

/*
 * The clock profiles the board builds (HIL_CLOCK_HZ): hal.c refuses any
 * other, and the host test checks every one of them in this list.
 */
#define CLOCK_PROFILES_HZ 84000000u, 24000000u, 16000000u
#define CLOCK_PROFILE_SUPPORTED(hz)                                            \
	((hz) == 84000000u || (hz) == 24000000u || (hz) == 16000000u)
#endif /* CLOCK_CHIP_LIMITS */

#define CLOCK_HSI_HZ	       16000000u
#define CLOCK_APB1_MAX_HZ      42000000u
#define CLOCK_VCO_IN_MIN_HZ    1000000u
#define CLOCK_VCO_IN_MAX_HZ    2000000u
#define CLOCK_VCO_OUT_MAX_HZ   432000000u
#define CLOCK_PLLN_MAX	       432u
#define CLOCK_PLL48_MAX_HZ     48000000u
#define CLOCK_WS_STEP_HZ       30000000u /* Table 6 at 2.7..3.6 V */
#define CLOCK_WS_INVALID       0xFFu
#define CLOCK_BAUD_MAX_ERR_PPM 20000u /* 2 %: well inside a UART's margin */
#define CLOCK_CFGR_PPRE1_SHIFT 10
#define CLOCK_CFGR_PPRE2_SHIFT 13

/* Helpers for unsigned operands. */
#define CLOCK_ABSDIFF(a, b) ((a) > (b) ? (a) - (b) : (b) - (a))
#define CLOCK_DIV_UP(a, b)  (((a) + (b)-1u) / (b))
#define CLOCK_AT_LEAST_2(a) ((a) < 2u ? 2u : (a))

/*
 * Margin for the clock source: the HSI is trimmed to 16 MHz +-1 % at 25 C
 * (STM32F401xE datasheet, HSI accuracy; parts have been measured at
 * 15.88..15.95 MHz). Every PLL frequency with a range (VCO input and
 * output) must stay inside it for any source within +-1 % of nominal, not
 * just at nominal: a VCO at exactly 192 MHz, or a VCO input at exactly 1
 * or 2 MHz, is out of range on half the parts. Frequencies here are
 * multiples of 100 Hz, so f / 100 * (100 +- tol) is exact.
 */
#define CLOCK_SRC_TOL_PCT 1u
#define CLOCK_IN_RANGE_TOL(f, lo, hi)                                          \
	((f) / 100u * (100u - CLOCK_SRC_TOL_PCT) >= (lo) &&                    \
	 (f) / 100u * (100u + CLOCK_SRC_TOL_PCT) <= (hi))

/*
 * PLLM: the smallest divider (2..63, dividing in exactly) whose VCO input
 * stays within 1..2 MHz over the tolerance: the highest input that does,
 * since 2 MHz limits jitter best (§6.3.2). From the 16 MHz HSI that is M = 10
 * (1.6 MHz: 1.584..1.616 MHz); M = 8 (2 MHz) would reach 2.02 MHz and
 * M = 16 (1 MHz) 0.99 MHz. The first candidate is where the upper bound
 * holds, and one of the next four divides 16 MHz; 0 if none fits.
 */
#define CLOCK_VIN_OK(in, m)                                                    \
	((m) >= 2u && (m) <= 63u && (in) % (m) == 0u &&                        \
	 CLOCK_IN_RANGE_TOL((in) / (m), CLOCK_VCO_IN_MIN_HZ,                   \
			    CLOCK_VCO_IN_MAX_HZ))
#define CLOCK_M0(in)                                                           \
	CLOCK_DIV_UP((in) / 100u * (100u + CLOCK_SRC_TOL_PCT),                 \
		     CLOCK_VCO_IN_MAX_HZ)
#define CLOCK_PLL_M(in)                                                        \
	(CLOCK_VIN_OK(in, CLOCK_M0(in))	       ? CLOCK_M0(in)                  \
	 : CLOCK_VIN_OK(in, CLOCK_M0(in) + 1u) ? CLOCK_M0(in) + 1u             \
	 : CLOCK_VIN_OK(in, CLOCK_M0(in) + 2u) ? CLOCK_M0(in) + 2u             \
	 : CLOCK_VIN_OK(in, CLOCK_M0(in) + 3u) ? CLOCK_M0(in) + 3u             \
					       : 0u)
#define CLOCK_PLL_VIN(in) (CLOCK_PLL_M(in) != 0u ? (in) / CLOCK_PLL_M(in) : 0u)

/*
 * A VCO output for PLL output sys: sys * P, within 192..432 MHz over the
 * tolerance and a whole multiple N (192..432) of the VCO input. P is the
 * smallest of 2, 4, 6, 8 that gives one (the lowest VCO, the least
 * power), 0 if none does; Q the smallest that keeps PLL48CK at or below
 * 48 MHz (at least 2). sys above 84 MHz is refused by CLOCK_AHB_DIV before
 * any product could overflow.
 */
#define CLOCK_VCO_FITS(in, vco)                                                \
	(CLOCK_PLL_VIN(in) != 0u &&                                            \
	 CLOCK_IN_RANGE_TOL(vco, CLOCK_VCO_OUT_MIN_HZ,                         \
			    CLOCK_VCO_OUT_MAX_HZ) &&                           \
	 (vco) % CLOCK_PLL_VIN(in) == 0u &&                                    \
	 (vco) / CLOCK_PLL_VIN(in) >= CLOCK_PLLN_MIN &&                        \
	 (vco) / CLOCK_PLL_VIN(in) <= CLOCK_PLLN_MAX)
#define CLOCK_PLL_P(in, sys)                                                   \
	(CLOCK_VCO_FITS(in, (sys)*2u)	? 2u                                   \
	 : CLOCK_VCO_FITS(in, (sys)*4u) ? 4u                                   \
	 : CLOCK_VCO_FITS(in, (sys)*6u) ? 6u                                   \
	 : CLOCK_VCO_FITS(in, (sys)*8u) ? 8u                                   \
					: 0u)
#define CLOCK_PLL_N(in, sys)                                                   \
	(CLOCK_PLL_P(in, sys) != 0u                                            \
		 ? (sys)*CLOCK_PLL_P(in, sys) / CLOCK_PLL_VIN(in)              \
		 : 0u)
#define CLOCK_PLL_Q(in, sys)                                                   \
	CLOCK_AT_LEAST_2(                                                      \
		CLOCK_DIV_UP((sys)*CLOCK_PLL_P(in, sys), CLOCK_PLL48_MAX_HZ))

/*
 * The AHB prescaler (HPRE) for a core clock hclk made by the PLL: /1 when
 * the PLL can make hclk itself, else /2 or /4 of a PLL output (at most
 * 84 MHz) it can make. 24 MHz is the case: 24 * P is at best 192 MHz, the
 * VCO's bottom edge, so the PLL makes 48 MHz (VCO 384 MHz, P = 8: P = 6
 * would need PLLN 180) and HPRE halves it. 0 when nothing works.
 */
#define CLOCK_PLL_CAN(in, sys)                                                 \
	((sys) != 0u && (sys) <= CLOCK_SYSCLK_MAX_HZ &&                        \
	 CLOCK_PLL_P(in, sys) != 0u)
#define CLOCK_AHB_DIV(in, hclk)                                                \
	(CLOCK_PLL_CAN(in, hclk)	? 1u                                   \
	 : CLOCK_PLL_CAN(in, (hclk)*2u) ? 2u                                   \
	 : CLOCK_PLL_CAN(in, (hclk)*4u) ? 4u                                   \
					: 0u)
/* The PLL output (SYSCLK) for a core clock hclk; 0 if there is none. */
#define CLOCK_PLL_SYSCLK(in, hclk) ((hclk)*CLOCK_AHB_DIV(in, hclk))
/* HPRE as RCC_CFGR encodes it (bits 7:4): /1 = 0xxx, /2 = 1000, /4 = 1001. */
#define CLOCK_HPRE_BITS(div)	   ((div) == 2u ? 8u : (div) == 4u ? 9u : 0u)
#define CLOCK_CFGR_HPRE_SHIFT	   4

/* Can the PLL (and HPRE) make exactly the core clock hclk from in? */
#define CLOCK_PLL_POSSIBLE(in, hclk)                                           \
	((hclk) != 0u && (hclk) <= CLOCK_SYSCLK_MAX_HZ &&                      \
	 CLOCK_AHB_DIV(in, hclk) != 0u)

/* PLLP as RCC_PLLCFGR encodes it: /2 = 0, /4 = 1, /6 = 2, /8 = 3. */
#define CLOCK_PLLP_BITS(p) ((p) / 2u - 1u)
/* The RCC_PLLCFGR fields with PLLSRC = HSI (bit 22 clear). */
#define CLOCK_PLLCFGR_OF(m, n, p, q)                                           \
	((m) << RCC_PLLCFGR_PLLM_SHIFT | (n) << RCC_PLLCFGR_PLLN_SHIFT |       \
	 CLOCK_PLLP_BITS(p) << RCC_PLLCFGR_PLLP_SHIFT |                        \
	 (q) << RCC_PLLCFGR_PLLQ_SHIFT)
/* RCC_PLLCFGR for the core clock hclk (the PLL makes CLOCK_PLL_SYSCLK). */
#define CLOCK_PLLCFGR_FOR(in, hclk)                                            \
	CLOCK_PLLCFGR_OF(CLOCK_PLL_M(in),                                      \
			 CLOCK_PLL_N(in, CLOCK_PLL_SYSCLK(in, hclk)),          \
			 CLOCK_PLL_P(in, CLOCK_PLL_SYSCLK(in, hclk)),          \
			 CLOCK_PLL_Q(in, CLOCK_PLL_SYSCLK(in, hclk)))

/* Flash wait states at 2.7..3.6 V (Table 6); CLOCK_WS_INVALID above 84 MHz or for 0. */
#define CLOCK_FLASH_WS(hclk)                                                   \
	((hclk) == 0u || (hclk) > CLOCK_SYSCLK_MAX_HZ                          \
		 ? CLOCK_WS_INVALID                                            \
		 : ((hclk)-1u) / CLOCK_WS_STEP_HZ)

/* The smallest APB1 divider (1..16) that keeps PCLK1 within 42 MHz; 0 if none. */
#define CLOCK_APB1_DIV(hclk)                                                   \
	((hclk) <= CLOCK_APB1_MAX_HZ	     ? 1u                              \
	 : (hclk) / 2u <= CLOCK_APB1_MAX_HZ  ? 2u                              \
	 : (hclk) / 4u <= CLOCK_APB1_MAX_HZ  ? 4u                              \
	 : (hclk) / 8u <= CLOCK_APB1_MAX_HZ  ? 8u                              \
	 : (hclk) / 16u <= CLOCK_APB1_MAX_HZ ? 16u                             \
					     : 0u)

/* The smallest APB2 divider (1, 2 or 4) that keeps PCLK2 within its limit; 0 if none. */
#define CLOCK_APB2_DIV(hclk)                                                   \
	((hclk) <= CLOCK_APB2_MAX_HZ	    ? 1u                               \
	 : (hclk) / 2u <= CLOCK_APB2_MAX_HZ ? 2u                               \
	 : (hclk) / 4u <= CLOCK_APB2_MAX_HZ ? 4u                               \
					    : 0u)

/* PPRE1/PPRE2 field value (unshifted) for a divider of 1, 2, 4, 8 or 16. */
#define CLOCK_PPRE_BITS(div)                                                   \
	((div) == 2u	? 4u                                                   \
	 : (div) == 4u	? 5u                                                   \
	 : (div) == 8u	? 6u                                                   \
	 : (div) == 16u ? 7u                                                   \
			: 0u)

/*
 * BRR with OVER8 = 0 nearest to the wanted baud: f_PCLK / baud rounded
 * half up (a fraction that rounds up to 16 carries into the mantissa by
 * itself); 0 when it does not fit (USARTDIV < 1, i.e. BRR < 16, or the
 * mantissa beyond 12 bits).
 */
#define CLOCK_BRR_ROUND(pclk, baud)                                            \
	((pclk) / (baud) +                                                     \
	 ((pclk) % (baud) >= (baud) - (pclk) % (baud) ? 1u : 0u))
#define CLOCK_USART_BRR_NEAREST(pclk, baud)                                    \
	((baud) == 0u || CLOCK_BRR_ROUND(pclk, baud) < 16u ||                  \
			 CLOCK_BRR_ROUND(pclk, baud) > 0xFFFFu                 \
		 ? 0u                                                          \
		 : CLOCK_BRR_ROUND(pclk, baud))
/*
 * Is brr (non-zero) within 2 % of baud? |pclk/brr - baud| / baud > 2 %
 * <=> |pclk - baud*brr| * 50 > baud*brr. baud*brr is within baud/2 of
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
	uint32_t m, n, p, q;
};

/* A clock profile as the board programs it. */
struct clock_profile {
	uint32_t hclk_hz;   /* the core clock: what CYCCNT counts */
	uint32_t sysclk_hz; /* = hclk_hz * ahb_div */
	uint32_t ahb_div;   /* HPRE: 1, 2 or 4 */
	int use_pll;	    /* 0: SYSCLK is the HSI itself */
	struct clock_pll pll;
	uint32_t flash_ws; /* FLASH_ACR LATENCY */
	uint32_t apb1_div; /* 1, 2, 4, 8 or 16 */
	uint32_t apb1_hz;
};

static inline uint32_t clock_vco_in_hz(uint32_t in_hz,
				       const struct clock_pll *pll)
{
	return pll->m != 0 ? in_hz / pll->m : 0;
}

/* VCO output; meaningful (no overflow) once the VCO input is at most 2 MHz. */
static inline uint32_t clock_vco_out_hz(uint32_t in_hz,
					const struct clock_pll *pll)
{
	return clock_vco_in_hz(in_hz, pll) * pll->n;
}

static inline uint32_t clock_pll_sysclk_hz(uint32_t in_hz,
					   const struct clock_pll *pll)
{
	return pll->p != 0 ? clock_vco_out_hz(in_hz, pll) / pll->p : 0;
}

/**
 * Is every field legal and every frequency in range (including exact
 * division of the input, so that SYSCLK is what it claims to be)?
 * @return 1 if so, 0 if not.
 */
static inline int clock_pll_valid(uint32_t in_hz, const struct clock_pll *pll)
{
	uint32_t vin, vco;

	if (pll->m < 2 || pll->m > 63 || pll->n < CLOCK_PLLN_MIN ||
	    pll->n > CLOCK_PLLN_MAX ||
	    (pll->p != 2 && pll->p != 4 && pll->p != 6 && pll->p != 8) ||
	    pll->q < 2 || pll->q > 15 || in_hz % pll->m != 0) {
		return 0;
	}
	vin = clock_vco_in_hz(in_hz, pll);
	if (vin < CLOCK_VCO_IN_MIN_HZ || vin > CLOCK_VCO_IN_MAX_HZ) {
		return 0;
	}
	vco = clock_vco_out_hz(in_hz, pll); /* <= 864 MHz: no overflow */
	return vco >= CLOCK_VCO_OUT_MIN_HZ && vco <= CLOCK_VCO_OUT_MAX_HZ &&
	       vco % pll->p == 0 && vco / pll->q <= CLOCK_PLL48_MAX_HZ;
}

/**
 * PLL settings whose output is exactly sysclk_hz from in_hz (CLOCK_PLL_*):
 * the VCO input and output in range over the source's tolerance, the
 * smallest P that allows it, the smallest Q that keeps PLL48CK at or
 * below 48 MHz. For the HSI: 84 MHz is M=10 N=210 P=4 Q=7 (VCO 336 MHz),
 * 48 MHz (the 24 MHz profile, HPRE /2) is M=10 N=240 P=8 Q=8 (VCO 384).
 * @return 1 and pll filled, or 0 if no legal setting exists (pll zeroed).
 */
static inline int clock_pll_find(uint32_t in_hz, uint32_t sysclk_hz,
				 struct clock_pll *pll)
{
	pll->m = pll->n = pll->p = pll->q = 0; /* defined even on failure */
	if (!CLOCK_PLL_CAN(in_hz, sysclk_hz)) {
		return 0;
	}
	pll->m = CLOCK_PLL_M(in_hz);
	pll->n = CLOCK_PLL_N(in_hz, sysclk_hz);
	pll->p = CLOCK_PLL_P(in_hz, sysclk_hz);
	pll->q = CLOCK_PLL_Q(in_hz, sysclk_hz);
	if (!clock_pll_valid(in_hz, pll)) { /* cannot happen: checked twice */
		pll->m = pll->n = pll->p = pll->q = 0;
		return 0;
	}
	return 1;
}

/* PLLP as RCC_PLLCFGR encodes it: /2 = 0, /4 = 1, /6 = 2, /8 = 3. */
static inline uint32_t clock_pllp_bits(uint32_t p)
{
	return CLOCK_PLLP_BITS(p);
}

/* The RCC_PLLCFGR fields for pll with PLLSRC = HSI (bit 22 clear). */
static inline uint32_t clock_pllcfgr(const struct clock_pll *pll)
{
	return CLOCK_PLLCFGR_OF(pll->m, pll->n, pll->p, pll->q);
}

/**
 * Flash wait states for an HCLK at 2.7..3.6 V (the NUCLEO runs at 3.3 V).
 * @return 0..2, or CLOCK_WS_INVALID above 84 MHz or for 0.
 */
static inline uint32_t clock_flash_ws(uint32_t hclk_hz)
{
	return CLOCK_FLASH_WS(hclk_hz);
}

/* The smallest APB1 divider (1..16) that keeps PCLK1 within 42 MHz; 0 if none. */
static inline uint32_t clock_apb1_div(uint32_t hclk_hz)
{
	return CLOCK_APB1_DIV(hclk_hz);
}

/* PPRE1/PPRE2 field value (unshifted) for a divider of 1, 2, 4, 8 or 16. */
static inline uint32_t clock_ppre_bits(uint32_t div)
{
	return CLOCK_PPRE_BITS(div);
}

/* The AHB prescaler for a core clock hclk_hz made by the PLL (CLOCK_AHB_DIV). */
static inline uint32_t clock_ahb_div(uint32_t in_hz, uint32_t hclk_hz)
{
	return CLOCK_AHB_DIV(in_hz, hclk_hz);
}

/* HPRE field value (unshifted) for a divider of 1, 2 or 4. */
static inline uint32_t clock_hpre_bits(uint32_t div)
{
	return CLOCK_HPRE_BITS(div);
}

/**
 * The whole profile for a core clock (HCLK) from the HSI: the HSI itself
 * when they are equal, else the PLL, divided by HPRE when the PLL cannot
 * make hclk_hz itself with its VCO in range. Flash latency and APB1 follow
 * HCLK (RM0368 Table 6, §6.3.3).
 * @return 1 and prof filled, or 0 if the frequency cannot be made.
 */
static inline int clock_profile_for(uint32_t hsi_hz, uint32_t hclk_hz,
				    struct clock_profile *prof)
{
	prof->hclk_hz = hclk_hz;
	prof->sysclk_hz = hclk_hz;
	prof->ahb_div = 1;
	prof->use_pll = hclk_hz != hsi_hz;
	prof->pll.m = prof->pll.n = prof->pll.p = prof->pll.q = 0;
	prof->flash_ws = prof->apb1_div = prof->apb1_hz = 0;
	if (prof->use_pll) {
		if (!CLOCK_PLL_POSSIBLE(hsi_hz, hclk_hz)) {
			return 0;
		}
		prof->ahb_div = clock_ahb_div(hsi_hz, hclk_hz);
		prof->sysclk_hz = hclk_hz * prof->ahb_div;
		if (!clock_pll_find(hsi_hz, prof->sysclk_hz, &prof->pll)) {
			return 0;
		}
	}
	prof->flash_ws = clock_flash_ws(hclk_hz);
	prof->apb1_div = clock_apb1_div(hclk_hz);
	if (prof->flash_ws == CLOCK_WS_INVALID || prof->apb1_div == 0) {
		return 0;
	}
	prof->apb1_hz = hclk_hz / prof->apb1_div;
	return 1;
}

/**
 * BRR with OVER8 = 0, nearest to the wanted baud: f_PCLK / baud rounded
 * (a fraction that rounds up to 16 carries into the mantissa by itself).
 * @return the register value, or 0 when it does not fit (USARTDIV < 1 or
 *         the mantissa beyond 12 bits).
 */
static inline uint32_t clock_usart_brr_nearest(uint32_t pclk_hz, uint32_t baud)
{
	return CLOCK_USART_BRR_NEAREST(pclk_hz, baud);
}

/* The baud a BRR actually gives (OVER8 = 0), in Bd, rounded down. */
static inline uint32_t clock_usart_actual_baud(uint32_t pclk_hz, uint32_t brr)
{
	return brr != 0 ? pclk_hz / brr : 0;
}

/* Actual minus wanted baud, in parts per million of the wanted one (for reports and tests). */
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
 * BRR for baud from pclk_hz, refused when the rate is off by more than 2 %.
 * 115200 Bd from 42 MHz: 0x16D (mantissa 22, fraction 13), -0.11 %.
 * @return the register value, or 0 if the rate cannot be made closely enough.
 */
static inline uint32_t clock_usart_brr(uint32_t pclk_hz, uint32_t baud)
{
	return CLOCK_USART_BRR(pclk_hz, baud);
}

#endif /* CLOCK_MATH_H */
