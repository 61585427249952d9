/* thumb: decodes ARMv7E-M Thumb-2 encodings (ARMv7-M ARM, A5.2 16-bit and A5.3 32-bit) into timing classes. */
#include "thumb.h"

#include <string.h>

#define BIT(x, n)	(((x) >> (n)) & 1u)
#define FIELD(x, lo, w) (((x) >> (lo)) & ((1u << (w)) - 1u))
#define R(n)		((uint16_t)(1u << (n)))
#define NO_REG		0xffu

static unsigned popcount16(unsigned v)
{
	unsigned n = 0;

	for (v &= 0xffffu; v != 0; v &= v - 1) {
		n++;
	}
	return n;
}

static void set_load(struct thumb_insn *d, unsigned rt, unsigned rn)
{
	d->cls = THUMB_LOAD;
	d->rt = (uint8_t)rt;
	d->addr_regs = R(rn);
	if (rn == 15) {
		d->flags |= THUMB_F_LITERAL;
	}
}

static void set_store(struct thumb_insn *d, unsigned rn, int imm)
{
	d->cls = THUMB_STORE;
	d->addr_regs = R(rn);
	if (imm) {
		d->flags |= THUMB_F_IMM_OFFSET;
	}
}

/* A5.2.5: miscellaneous 16-bit instructions (hw[15:12] = 1011). */
static void decode16_misc(unsigned hw, struct thumb_insn *d)
{
	if ((hw & 0xff00u) == 0xb000u) { /* ADD/SUB SP, SP, #imm */
		d->dst_regs = R(13);
	} else if ((hw & 0xf500u) == 0xb100u) { /* CBZ, CBNZ */
		d->cls = THUMB_BRANCH_IMM;
		d->flags |= THUMB_F_COND;
	} else if ((hw & 0xff00u) == 0xb200u || (hw & 0xff00u) == 0xba00u) {
		d->dst_regs = R(FIELD(hw, 0, 3)); /* extend, REV* */
	} else if ((hw & 0xfe00u) == 0xb400u) {	  /* PUSH */
		d->cls = THUMB_STM;
		d->nregs = (uint8_t)(popcount16(hw & 0xffu) + BIT(hw, 8));
		d->addr_regs = R(13);
	} else if ((hw & 0xfe00u) == 0xbc00u) { /* POP */
		d->cls = THUMB_LDM;
		d->nregs = (uint8_t)(popcount16(hw & 0xffu) + BIT(hw, 8));
		d->addr_regs = R(13);
		if (BIT(hw, 8)) {
			d->flags |= THUMB_F_WRITES_PC;
		}
	} else if ((hw & 0xffe8u) == 0xb660u) { /* CPSIE, CPSID */
		d->cls = THUMB_SYS;
	} else if ((hw & 0xff00u) == 0xbf00u && (hw & 0xfu) != 0) { /* IT */
		unsigned mask = hw & 0xfu, n = 4;

		while ((mask & 1u) == 0) { /* the lowest set bit ends it */
			mask >>= 1;
			n--;
		}
		d->cls = THUMB_IT;
		d->it_count = (uint8_t)n;
	}
	/* else BKPT, NOP, YIELD, WFE, WFI, SEV: one cycle here */
}

/* A5.2: 16-bit encodings. */
static void decode16(unsigned hw, struct thumb_insn *d)
{
	unsigned op = FIELD(hw, 10, 6);

	if ((op & 0x30u) == 0x00u) { /* shift, add, sub, mov, cmp */
		unsigned sub = FIELD(hw, 11, 3);

		if (sub <= 3) {
			d->dst_regs = R(FIELD(hw, 0, 3));
		} else if (sub != 5) { /* not CMP */
			d->dst_regs = R(FIELD(hw, 8, 3));
		}
	} else if (op == 0x10u) { /* data processing (register) */
		unsigned opc = FIELD(hw, 6, 4);

		if (opc == 0xdu) {
			d->cls = THUMB_MUL;
		}
		if (opc != 0x8u && opc != 0xau && opc != 0xbu) {
			d->dst_regs = R(FIELD(hw, 0, 3));
		}
	} else if (op == 0x11u) { /* special data, BX, BLX */
		unsigned opc = FIELD(hw, 6, 4);
		unsigned rd = BIT(hw, 7) << 3 | FIELD(hw, 0, 3);

		if (opc >= 0xcu) {
			d->cls = THUMB_BRANCH_REG;
			if (opc >= 0xeu) {
				d->flags |= THUMB_F_CALL;
			}
		} else if ((opc & 0xcu) == 0x4u) {
			/* CMP: flags only */
		} else if (rd == 15) {
			d->cls = THUMB_BRANCH_REG; /* ADD PC, MOV PC */
		} else {
			d->dst_regs = R(rd);
		}
	} else if ((op & 0x3eu) == 0x12u) { /* LDR Rt, [PC, #imm] */
		set_load(d, FIELD(hw, 8, 3), 15);
	} else if ((op & 0x3cu) == 0x14u) { /* load/store register offset */
		unsigned opb = FIELD(hw, 9, 3);

		if (opb <= 2) {
			set_store(d, FIELD(hw, 3, 3), 0);
		} else {
			set_load(d, FIELD(hw, 0, 3), FIELD(hw, 3, 3));
		}
		d->addr_regs |= R(FIELD(hw, 6, 3));
	} else if ((op & 0x38u) == 0x18u || (op & 0x3cu) == 0x20u) {
		/* STR/LDR{,B} and STRH/LDRH with an immediate offset */
		if (BIT(hw, 11)) {
			set_load(d, FIELD(hw, 0, 3), FIELD(hw, 3, 3));
		} else {
			set_store(d, FIELD(hw, 3, 3), 1);
		}
	} else if ((op & 0x3cu) == 0x24u) { /* SP-relative */
		if (BIT(hw, 11)) {
			set_load(d, FIELD(hw, 8, 3), 13);
		} else {
			set_store(d, 13, 1);
		}
	} else if ((op & 0x3cu) == 0x28u) { /* ADR, ADD Rd, SP, #imm */
		d->dst_regs = R(FIELD(hw, 8, 3));
	} else if ((op & 0x3cu) == 0x2cu) {
		decode16_misc(hw, d);
	} else if ((op & 0x3cu) == 0x30u) { /* STM, LDM */
		d->cls = BIT(hw, 11) ? THUMB_LDM : THUMB_STM;
		d->nregs = (uint8_t)popcount16(hw & 0xffu);
		d->addr_regs = R(FIELD(hw, 8, 3));
	} else if ((op & 0x3cu) == 0x34u) { /* B<c>, UDF, SVC */
		unsigned cond = FIELD(hw, 8, 4);

		if (cond == 0xfu) {
			d->cls = THUMB_SYS;
		} else if (cond != 0xeu) {
			d->cls = THUMB_BRANCH_IMM;
			d->flags |= THUMB_F_COND;
		}
	} else if ((op & 0x3eu) == 0x38u) { /* B */
		d->cls = THUMB_BRANCH_IMM;
	}
}

/* A5.3.5, A5.3.6: load/store multiple, dual, exclusive, table branch. */
static void decode32_ldst_multi(unsigned hw1, unsigned hw2,
				struct thumb_insn *d)
{
	unsigned rn = FIELD(hw1, 0, 4), load = BIT(hw1, 4);

	if (!BIT(hw1, 6)) { /* LDM, STM (IA when op = 01, DB when 10) */
		unsigned op = FIELD(hw1, 7, 2);

		if (op == 1 || op == 2) {
			d->cls = load ? THUMB_LDM : THUMB_STM;
			d->nregs = (uint8_t)popcount16(hw2);
			d->addr_regs = R(rn);
			if (load && BIT(hw2, 15)) {
				d->flags |= THUMB_F_WRITES_PC;
			}
		}
		return;
	}
	if (BIT(hw1, 8) || BIT(hw1, 5)) { /* LDRD, STRD */
		d->cls = load ? THUMB_LDRD : THUMB_STRD;
		d->addr_regs = R(rn);
		if (load && rn == 15) {
			d->flags |= THUMB_F_LITERAL;
		}
		return;
	}
	if (BIT(hw1, 7) && load && FIELD(hw2, 5, 3) == 0) { /* TBB, TBH */
		d->cls = THUMB_TABLE;
		d->addr_regs = (uint16_t)(R(rn) | R(FIELD(hw2, 0, 4)));
		return;
	}
	/*
	 * LDREX{,B,H} and STREX{,B,H}. The TRM (3.3.2) says both pipeline
	 * exactly as LDR; STREX's status register takes the role of Rt.
	 */
	if (load) {
		set_load(d, FIELD(hw2, 12, 4), rn);
	} else {
		set_load(d, BIT(hw1, 7) ? FIELD(hw2, 0, 4) : FIELD(hw2, 8, 4),
			 rn);
	}
}

/*
 * A5.3.4: branches and miscellaneous control. op1 is hw2[14:12], and its
 * middle bit is "x" in every row of the table: for B<c>.W it is J1, set in
 * every backward branch (the sign bits of the offset).
 */
static void decode32_branch(unsigned hw1, unsigned hw2, struct thumb_insn *d)
{
	unsigned op1 = FIELD(hw2, 12, 3);

	if (op1 & 1u) {
		d->cls = THUMB_BRANCH_IMM; /* B.W (0x1), BL (1x1) */
		if (op1 & 4u) {
			d->flags |= THUMB_F_CALL;
		}
		return;
	}
	if (op1 & 4u) {
		return; /* 1x0: BLX imm, not on ARMv7-M */
	}
	if (op1 == 2u && FIELD(hw1, 4, 7) == 0x7fu) {
		return; /* UDF.W */
	}
	if (FIELD(hw1, 7, 3) != 7u) {
		d->cls = THUMB_BRANCH_IMM; /* B<c>.W */
		d->flags |= THUMB_F_COND;
		return;
	}
	switch (FIELD(hw1, 4, 7)) {
	case 0x38:
	case 0x39: /* MSR */
	case 0x3e:
	case 0x3f: /* MRS */
		d->cls = THUMB_SYS;
		break;
	case 0x3b: /* misc control: CLREX (0010), DSB, DMB, ISB */
		if (FIELD(hw2, 4, 4) >= 4u) {
			d->cls = THUMB_BARRIER;
		}
		break;
	default: /* hints */
		break;
	}
}

/* A5.3.10, A5.3.7-9: store single, load byte/halfword/word. */
static void decode32_ldst_single(unsigned hw1, unsigned hw2,
				 struct thumb_insn *d)
{
	unsigned rn = FIELD(hw1, 0, 4), rt = FIELD(hw2, 12, 4);
	int imm = BIT(hw1, 7) || BIT(hw2, 11) || rn == 15;
	int reg = !imm && FIELD(hw2, 6, 6) == 0;

	if (!BIT(hw1, 4)) {
		set_store(d, rn, imm);
	} else if (FIELD(hw1, 5, 2) == 3) {
		return; /* undefined */
	} else if (rt == 15 && FIELD(hw1, 5, 2) != 2) {
		return; /* PLD, PLI: hints */
	} else {
		set_load(d, rt, rn);
		if (rt == 15) {
			d->cls = THUMB_LOAD_PC;
			d->rt = NO_REG;
		}
	}
	if (reg) {
		d->addr_regs |= R(FIELD(hw2, 0, 4));
	}
}

/* A5.3: 32-bit encodings. */
static void decode32(unsigned hw1, unsigned hw2, struct thumb_insn *d)
{
	unsigned op1 = FIELD(hw1, 11, 2), op2 = FIELD(hw1, 4, 7);
	unsigned rd = FIELD(hw2, 8, 4);

	d->flags |= THUMB_F_WIDE;
	if (op1 == 1) {
		if ((op2 & 0x64u) == 0x00u || (op2 & 0x64u) == 0x04u) {
			decode32_ldst_multi(hw1, hw2, d);
		} else if ((op2 & 0x60u) == 0x20u && rd != 15) {
			d->dst_regs = R(rd); /* data processing, shifted reg */
		}
		/* else: TST/TEQ/CMP/CMN, coprocessor (no FPU in our builds) */
	} else if (op1 == 2) {
		if (BIT(hw2, 15)) {
			decode32_branch(hw1, hw2, d);
		} else if (rd != 15) {
			d->dst_regs = R(rd); /* data processing, immediate */
		}
	} else if (op1 == 3) {
		if ((op2 & 0x71u) == 0x00u || (op2 & 0x67u) == 0x01u ||
		    (op2 & 0x67u) == 0x03u || (op2 & 0x67u) == 0x05u ||
		    (op2 & 0x67u) == 0x07u) {
			decode32_ldst_single(hw1, hw2, d);
		} else if ((op2 & 0x70u) == 0x20u) {
			d->dst_regs = R(rd); /* data processing, register */
		} else if ((op2 & 0x78u) == 0x30u) {
			d->cls = THUMB_MUL; /* MUL, MLA, MLS, SMLA<x><y>... */
			d->dst_regs = R(rd);
		} else if ((op2 & 0x78u) == 0x38u) {
			unsigned lop1 = FIELD(hw1, 4, 3);

			if ((lop1 == 1 || lop1 == 3) &&
			    FIELD(hw2, 4, 4) == 0xfu) {
				d->cls = THUMB_DIV; /* SDIV, UDIV */
				d->dst_regs = R(rd);
			} else { /* SMULL, UMULL, SMLAL, UMLAL, UMAAL... */
				d->cls = THUMB_MUL;
				d->dst_regs = (uint16_t)(R(rd) |
							 R(FIELD(hw2, 12, 4)));
			}
		}
	}
}

int thumb_decode(const uint8_t *bytes, size_t n, uint32_t pc,
		 struct thumb_insn *out)
{
	unsigned hw1;

	if (n < 2) {
		return 0;
	}
	memset(out, 0, sizeof(*out));
	out->pc = pc;
	out->cls = THUMB_ALU;
	out->rt = NO_REG;
	hw1 = (unsigned)bytes[0] | (unsigned)bytes[1] << 8;
	if (FIELD(hw1, 11, 5) >= 0x1du) {
		unsigned hw2;

		if (n < 4) {
			return 0;
		}
		hw2 = (unsigned)bytes[2] | (unsigned)bytes[3] << 8;
		out->len = 4;
		decode32(hw1, hw2, out);
	} else {
		out->len = 2;
		decode16(hw1, out);
	}
	return out->len;
}

const char *thumb_class_name(unsigned cls)
{
	static const char *const names[THUMB_N_CLASSES] = {
		"alu",	 "it",	 "mul",	    "div", "load",   "store",
		"ldrd",	 "strd", "ldm",	    "stm", "branch", "bx",
		"ldrpc", "tbb",	 "barrier", "sys",
	};

	return cls < THUMB_N_CLASSES ? names[cls] : "?";
}

int thumb_class_is_memory(unsigned cls)
{
	switch (cls) {
	case THUMB_LOAD:
	case THUMB_STORE:
	case THUMB_LDRD:
	case THUMB_STRD:
	case THUMB_LDM:
	case THUMB_STM:
	case THUMB_LOAD_PC:
	case THUMB_TABLE:
		return 1;
	default:
		return 0;
	}
}
