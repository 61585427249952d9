/* startup: Cortex-M4 vector table, reset handler and fault reporting shared by the STM32 boards. */
#include <stdint.h>

#include "regs_cm4.h" /* core registers only: the file is chip-independent */

/* Linker script symbols (stm32f401re.ld). */
extern uint32_t _sidata, _sdata, _edata, _sbss, _ebss, __stack_top;
/* __stack_bottom is used by the fault trampoline (asm). */
extern void (*__init_array_start[])(void);
extern void (*__init_array_end[])(void);

int main(void);
void Reset_Handler(void);
void hal_fault_handler(void);
void hal_fault_dispatch(uint32_t pc);
void hal_fault_report(uint32_t pc, uint32_t cfsr, uint32_t hfsr, uint32_t bfar);

/* Every exception except reset ends up in the fault path; see hal_fault_dispatch(). */
void NMI_Handler(void) __attribute__((weak, alias("hal_fault_handler")));
void HardFault_Handler(void) __attribute__((weak, alias("hal_fault_handler")));
void MemManage_Handler(void) __attribute__((weak, alias("hal_fault_handler")));
void BusFault_Handler(void) __attribute__((weak, alias("hal_fault_handler")));
void UsageFault_Handler(void) __attribute__((weak, alias("hal_fault_handler")));
void Default_Handler(void) __attribute__((weak, alias("hal_fault_handler")));

/*
 * The stub enables no NVIC interrupt (every ISER bit stays at its reset value
 * 0) and polls its UART, so no IRQ vector can ever be fetched: the table holds
 * the 16 system exceptions only, which keeps 340 bytes of flash out of the
 * footprint budget. A board that enables an interrupt must append the IRQ
 * vectors (F401: 85, RM0368 section 10.2; F405: 82) and raise IRQS.
 */
#define D    Default_Handler
#define IRQS 0

/* Initial SP, then handlers (ARMv7-M ARM B1.5.3); the core reads it at address 0 = flash. */
struct vector_table {
	uint32_t *initial_sp;
	void (*handler[15 + IRQS])(void);
};

__attribute__((section(".isr_vector"),
	       used)) static const struct vector_table vector_table = {
	&__stack_top,
	{
		Reset_Handler, NMI_Handler, HardFault_Handler,
		MemManage_Handler, BusFault_Handler, UsageFault_Handler, 0, 0,
		0, 0, /* reserved */
		D,    /* SVCall */
		D,    /* DebugMonitor */
		0,    /* reserved */
		D,    /* PendSV */
		D,    /* SysTick */
	},
};

void Reset_Handler(void)
{
	uint32_t *src = &_sidata;
	uint32_t *dst = &_sdata;
	void (**ctor)(void);

#if defined(__ARM_FP)
	/* Built for the FPU: grant CP10/CP11 before any code may touch s-registers. */
	SCB_CPACR |= SCB_CPACR_CP10_CP11_FULL;
	__asm volatile("dsb\n\tisb" ::: "memory");
#endif
	/* .bss is cleared from its own start: it may begin past the end of
	 * .data, as far as its most aligned object asks (a scheme's uint64_t
	 * or 32-byte aligned buffer in .bss after a .data that ends at 4 mod
	 * 8), and that gap belongs to neither. GCC may turn these loops into
	 * memcpy and memset calls: newlib's are fine here. */
	while (dst < &_edata) {
		*dst++ = *src++;
	}
	for (dst = &_sbss; dst < &_ebss;) {
		*dst++ = 0;
	}
	/* The table is in flash at 0x08000000; VTOR = 0 only works through the boot alias. */
	SCB_VTOR = (uint32_t)(uintptr_t)&vector_table;
	for (ctor = __init_array_start; ctor < __init_array_end; ctor++) {
		(*ctor)();
	}
	(void)main();
	for (;;) {
	}
}

/*
 * Trampoline: bit 2 of EXC_RETURN (in LR) says which stack holds the
 * exception frame (0 = MSP, 1 = PSP). Naked, so that no prologue pushes
 * anything before we are done with the faulting stack. In this order:
 *
 * 1. Take the stacked PC (frame word 6, ARMv7-M ARM B1.5.6), but only when
 *    the whole 32-byte frame lies inside [__stack_bottom, __stack_top):
 *    below the bottom the stack overflowed and the frame could not be
 *    stacked (CFSR.STKERR), anywhere else SP was corrupted; reading there
 *    could fault again. PC 0 then says "unknown".
 * 2. Always restart MSP at the top of the stack. The report needs about
 *    300 bytes (the frame buffer of reply.c's reply_send); a fault with the stack
 *    nearly full leaves a frame just above the bottom and too little room
 *    below it, a fault inside the handler locks the core up, and the host
 *    would see silence instead of the report. Nothing on the old stack is
 *    needed after step 1: the handler never returns.
 */
__attribute__((naked)) void hal_fault_handler(void)
{
	__asm volatile("tst lr, #4\n\t"
		       "ite eq\n\t"
		       "mrseq r0, msp\n\t"
		       "mrsne r0, psp\n\t"
		       "movw r1, #:lower16:__stack_bottom\n\t"
		       "movt r1, #:upper16:__stack_bottom\n\t"
		       "movw r2, #:lower16:__stack_top\n\t"
		       "movt r2, #:upper16:__stack_top\n\t"
		       "sub r3, r2, #32\n\t"
		       "cmp r0, r1\n\t"
		       "blo 1f\n\t"
		       "cmp r0, r3\n\t"
		       "bhi 1f\n\t"
		       "ldr r0, [r0, #24]\n\t"
		       "b 2f\n"
		       "1:\tmovs r0, #0\n"
		       "2:\tmsr msp, r2\n\t"
		       "b hal_fault_dispatch\n\t");
}

/* pc: the faulting instruction's address as stacked, 0 when unknown. */
/* used: only the asm above calls it, which LTO cannot see. */
__attribute__((used)) void hal_fault_dispatch(uint32_t pc)
{
	static volatile uint8_t reporting;

	if (!reporting) { /* a fault inside the report must not recurse */
		reporting = 1;
		hal_fault_report(pc, SCB_CFSR, SCB_HFSR, SCB_BFAR);
	}
	for (;;) { /* the host sees the report (or silence) and resets us */
	}
}

/* Weak default; target/main.c provides the one that sends a status frame. */
__attribute__((weak)) void hal_fault_report(uint32_t pc, uint32_t cfsr,
					    uint32_t hfsr, uint32_t bfar)
{
	(void)pc;
	(void)cfsr;
	(void)hfsr;
	(void)bfar;
}
