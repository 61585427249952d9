/* faultdesc: what a Cortex-M fault the stub reported means, in words, and where in the image it happened. */
#include "faultdesc.h"

#include <stdio.h>
#include <string.h>

#include "image/elfinfo.h"
#include "util/err.h"

/* CFSR's bits (ARMv7-M Architecture Reference Manual, B3.2.15-B3.2.17). */
static const struct {
	uint32_t bit;
	const char *text;
} cfsr_bits[] = {
	{1u << 0,
	 "MemManage IACCVIOL: an instruction fetch from a region that does not allow it"},
	{1u << 1,
	 "MemManage DACCVIOL: a data access to a region that does not allow it"},
	{1u << 3, "MemManage MUNSTKERR: unstacking on exception return"},
	{1u << 4,
	 "MemManage MSTKERR: stacking on exception entry (stack overflow?)"},
	{1u << 8, "BusFault IBUSERR: an instruction fetch from no memory"},
	{1u << 9,
	 "BusFault PRECISERR: a data access to no memory (address in BFAR)"},
	{1u << 10, "BusFault IMPRECISERR: a buffered write to no memory"},
	{1u << 11, "BusFault UNSTKERR: unstacking on exception return"},
	{1u << 12,
	 "BusFault STKERR: stacking on exception entry (stack overflow?)"},
	{1u << 16,
	 "UsageFault UNDEFINSTR: an undefined instruction (code for another architecture?)"},
	{1u << 17,
	 "UsageFault INVSTATE: a branch to ARM state (an address with bit 0 clear)"},
	{1u << 18, "UsageFault INVPC: a bad EXC_RETURN"},
	{1u << 19,
	 "UsageFault NOCP: a coprocessor (FPU) instruction with the coprocessor off"},
	{1u << 24,
	 "UsageFault UNALIGNED: an LDRD, STRD, LDM or STM (or, with CCR.UNALIGN_TRP, any access) to an address that is not word-aligned, which the Cortex-M4 never allows: the code's own unaligned access"},
	{1u << 25,
	 "UsageFault DIVBYZERO: a division by zero with CCR.DIV_0_TRP"},
};

void hil_fault_cfsr_text(uint32_t cfsr, char *buf, size_t len)
{
	size_t i, used = 0;

	if (len == 0) {
		return;
	}
	buf[0] = '\0';
	for (i = 0; i < sizeof(cfsr_bits) / sizeof(cfsr_bits[0]); i++) {
		int n;

		if ((cfsr & cfsr_bits[i].bit) == 0 || used >= len) {
			continue;
		}
		n = snprintf(buf + used, len - used, "%s%s",
			     used > 0 ? "; " : "", cfsr_bits[i].text);
		if (n < 0) {
			break;
		}
		used += (size_t)n;
	}
	if (buf[0] == '\0') {
		snprintf(buf, len, "fault status 0x%08x", (unsigned)cfsr);
	}
}

void hil_fault_describe(uint32_t pc, uint32_t cfsr, const char *elf, char *buf,
			size_t len)
{
	char what[512], fn[128], where[160] = "";
	uint64_t off = 0;

	hil_fault_cfsr_text(cfsr, what, sizeof(what));
	if (elf != NULL && elf[0] != '\0' &&
	    hil_elf_function_at(elf, pc, fn, sizeof(fn), &off) == HIL_OK) {
		snprintf(where, sizeof(where), " (%s+0x%llx)", fn,
			 (unsigned long long)off);
	}
	snprintf(buf, len, "%s, at PC 0x%08x%s", what, (unsigned)pc, where);
}
