/* faultdesc: what a Cortex-M fault the stub reported means, in words, and where in the image it happened. */
#ifndef HIL_FAULTDESC_H
#define HIL_FAULTDESC_H

#include <stddef.h>
#include <stdint.h>

/**
 * The fault status bits of CFSR named and explained (ARMv7-M ARM B3.2.15:
 * MMFSR, BFSR, UFSR), e.g. "UsageFault UNALIGNED: an LDRD, STRD, LDM or
 * STM (or, with CCR.UNALIGN_TRP, any access) to an address that is not
 * word-aligned"; "fault status 0" when no bit is set.
 */
void hil_fault_cfsr_text(uint32_t cfsr, char *buf, size_t len);

/**
 * A fault as a failed row says it: the CFSR's meaning, the PC and, when
 * elf (may be NULL) has a function there, its name and offset, e.g.
 * "UsageFault UNALIGNED: ... at PC 0x08017a30 (isap_mac+0x8b8)".
 */
void hil_fault_describe(uint32_t pc, uint32_t cfsr, const char *elf, char *buf,
			size_t len);

#endif /* HIL_FAULTDESC_H */
