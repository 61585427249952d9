/* thumb: a compact ARMv7E-M Thumb-2 decoder that sorts an instruction into the classes the Cortex-M4 timing model charges differently. */
#ifndef EMU_THUMB_H
#define EMU_THUMB_H

#include <stddef.h>
#include <stdint.h>

/* What the timing model needs to tell apart (docs/cycle-model.md). */
enum thumb_class {
	THUMB_ALU = 0,	  /* single-cycle data processing, hints, unknown */
	THUMB_IT,	  /* IT: opens a block of it_count instructions */
	THUMB_MUL,	  /* every multiply and multiply-accumulate */
	THUMB_DIV,	  /* SDIV, UDIV: 2..12, data-dependent */
	THUMB_LOAD,	  /* single load: LDR{B,H,SB,SH,T,EX} (not to PC) */
	THUMB_STORE,	  /* single store: STR{B,H,T}, STREX */
	THUMB_LDRD,	  /* LDRD */
	THUMB_STRD,	  /* STRD */
	THUMB_LDM,	  /* LDM, POP (nregs words) */
	THUMB_STM,	  /* STM, PUSH (nregs words) */
	THUMB_BRANCH_IMM, /* B, B<c>, BL, CBZ, CBNZ: target from the opcode */
	THUMB_BRANCH_REG, /* BX, BLX Rm, MOV PC / ADD PC: target in a register */
	THUMB_LOAD_PC,	  /* LDR PC: target loaded from memory */
	THUMB_TABLE,	  /* TBB, TBH */
	THUMB_BARRIER,	  /* DSB, DMB, ISB */
	THUMB_SYS,	  /* MSR, MRS, CPS: 1 or 2 cycles */
	THUMB_N_CLASSES
};

/* flags */
#define THUMB_F_COND	   0x01u /* B<c>, CBZ, CBNZ: may fall through */
#define THUMB_F_CALL	   0x02u /* BL, BLX: writes LR */
#define THUMB_F_IMM_OFFSET 0x04u /* store addressed by base + immediate */
#define THUMB_F_LITERAL	   0x08u /* load relative to PC */
#define THUMB_F_WRITES_PC  0x10u /* LDM/POP with PC in the list */
#define THUMB_F_WIDE	   0x20u /* 32-bit encoding */

struct thumb_insn {
	uint32_t pc;
	uint8_t len;	    /* 2 or 4 */
	uint8_t cls;	    /* enum thumb_class */
	uint8_t flags;	    /* THUMB_F_* */
	uint8_t nregs;	    /* LDM/STM/PUSH/POP: registers transferred */
	uint8_t it_count;   /* IT: instructions in the block (1..4) */
	uint8_t rt;	    /* THUMB_LOAD: destination register, else 0xff */
	uint16_t addr_regs; /* registers the address is computed from */
	uint16_t dst_regs;  /* ALU/MUL/DIV: registers written */
};

/**
 * Decode the instruction at the start of bytes (little-endian halfwords).
 * @param n bytes available: 2 is enough for a 16-bit instruction, a 32-bit
 *        one needs 4.
 * @param out filled; anything not recognised is THUMB_ALU (one cycle).
 * @return the instruction's length (2 or 4), or 0 if n is too short.
 */
int thumb_decode(const uint8_t *bytes, size_t n, uint32_t pc,
		 struct thumb_insn *out);

/** A short name of a class, for logs and tests. */
const char *thumb_class_name(unsigned cls);

/* 1 when an instruction of class cls reads or writes memory (a load, a
 * store, a literal load or a table branch), else 0. */
int thumb_class_is_memory(unsigned cls);

#endif /* EMU_THUMB_H */
