/* rules.S: one bracket per timing rule, each with its hand-counted Cortex-M4 cycles in the comment (the table in test_emu_qemu.c). */
#include "emu.inc"

	VECTORS

	.bss
	.balign	8
buf:	.space	128

	.text
/* Registers before every bracket: r0 = 0, r1 = buf, r2 = 8, r3 = buf + 64,
 * r7 = 4; buf[0] holds buf (for the dependent load). */
	.macro	SETUP
	movs	r0, #0
	ldr	r1, =buf
	movs	r2, #8
	add	r3, r1, #64
	movs	r7, #4
	.endm

	.thumb_func
	.global	reset
reset:
	ldr	r4, =TIM2_BASE
	ldr	r1, =buf
	str	r1, [r1]

/* 1 empty: STOP pipelines after START (independent LDR): 1 */
	SETUP
	START
	STOP

/* 2 alu: 8 single-cycle data processing + STOP 2 = 10 */
	SETUP
	START
	nop
	adds	r0, #1
	eors	r0, r1
	lsls	r0, r0, #2
	movw	r0, #0x1234
	movt	r0, #0x5678
	add.w	r0, r0, r1, lsl #3
	ubfx	r0, r0, #4, #8
	STOP

/* 3 mul: nop + 7 multiplies at 1 + STOP 2 = 10 */
	SETUP
	START
	nop
	muls	r0, r1, r0
	mla	r0, r1, r2, r0
	mls	r0, r1, r2, r0
	umull	r0, r7, r1, r2
	smlal	r0, r7, r1, r2
	umlal	r0, r7, r1, r2
	smull	r0, r7, r1, r2
	STOP

/* 4 ld_indep: nop 1, LDR 2, LDR 1, LDR 1 (pipelined), STOP 1 = 6 */
	SETUP
	START
	nop
	ldr	r0, [r1]
	ldr	r2, [r3]
	ldr	r7, [r1, #4]
	STOP

/* 5 ld_dep: nop 1, LDR 2, LDR 2 (address is the first's result), STOP 1 = 6 */
	SETUP
	START
	nop
	ldr	r0, [r1]
	ldr	r2, [r0]
	STOP

/* 6 stores: nop 1, STR imm 1, STR imm 1, STR reg 2, STOP 2 = 7 */
	SETUP
	START
	nop
	str	r0, [r1]
	str	r0, [r1, #4]
	str	r0, [r1, r2]
	STOP

/* 7 ld_st: nop 1, LDR 2, STR imm 1, LDR 2, STR reg 1 (pipelined), STOP 2 = 9 */
	SETUP
	START
	nop
	ldr	r0, [r1]
	str	r0, [r3, #8]
	ldr	r2, [r1, #4]
	str	r2, [r3, r7]
	STOP

/* 8 dual: nop 1, LDRD 3, STRD 3, STOP 2 = 9 */
	SETUP
	START
	nop
	ldrd	r0, r2, [r1]
	strd	r0, r2, [r3, #8]
	STOP

/* 9 multiple: nop 1, PUSH 5, POP 5, LDM 3, STM 4, STOP 2 = 20 */
	SETUP
	START
	nop
	push	{r0-r3}
	pop	{r0-r3}
	ldm	r1!, {r0, r2}
	stm	r3!, {r0, r2, r7}
	STOP

/* 10 b_imm: nop 1, B 2 (1 + P 1), nop 1, STOP 2 = 6 */
	SETUP
	START
	nop
	b	1f
	nop
1:	nop
	STOP

/* 11 b_unaligned: nop 1, B 3 (32-bit target at pc % 4 == 2), ADD.W 1, STOP 2 = 7 */
	SETUP
	START
	nop
	b	1f
	.balign	4
	nop
1:	add.w	r0, r0, #1
	STOP

/* 12 bcc_not: nop 1, CMP 1, BNE not taken 1, nop 1, STOP 2 = 6 */
	SETUP
	START
	nop
	cmp	r0, r0
	bne	1f
	nop
1:	STOP

/* 13 bcc_taken: nop 1, CMP 1, BEQ taken 2, nop 1, STOP 2 = 7 */
	SETUP
	START
	nop
	cmp	r0, r0
	beq	1f
	nop
1:	nop
	STOP

/* 14 cbz: MOVS 1, CBZ taken 2, nop 1, STOP 2 = 6 */
	SETUP
	START
	movs	r0, #0
	cbz	r0, 1f
	nop
1:	nop
	STOP

/* 15 cbnz: MOVS 1, CBNZ not taken 1, nop 1, STOP 2 = 5 */
	SETUP
	START
	movs	r0, #0
	cbnz	r0, 1f
	nop
1:	STOP

/* 16 call: nop 1, BL 2, BX LR 3 (1 + P 2), nop 1, STOP 2 = 9 */
	SETUP
	START
	nop
	bl	leaf
	nop
	STOP

/* 17 pop_pc: nop 1, BL 2, PUSH 3, POP {r7,pc} 6 (1 + 2 + P 3), nop 1, STOP 2 = 15 */
	SETUP
	START
	nop
	bl	frame
	nop
	STOP

/* 18 it_load: nop 1, CMP 1, ITE 1, LDRNE skipped 1, LDREQ 2, STOP 1 = 7 */
	SETUP
	START
	nop
	cmp	r0, r0
	ite	ne
	ldrne	r2, [r1]
	ldreq	r7, [r1]
	STOP

/* 19 it_taken: nop 1, CMP 1, IT 1, BEQ taken 2, nop 1, STOP 2 = 8 */
	SETUP
	START
	nop
	cmp	r0, r0
	it	eq
	beq	1f
	nop
1:	nop
	STOP

/* 20 it_skipped: nop 1, CMP 1, IT 1, BNE skipped 1, nop 1, STOP 2 = 7 */
	SETUP
	START
	nop
	cmp	r0, r0
	it	ne
	bne	1f
	nop
1:	STOP

/* 21 div: nop 1, UDIV 2..12, SDIV 2..12, STOP 2: 27 (min 7, max 27) */
	SETUP
	START
	nop
	udiv	r0, r1, r2
	sdiv	r0, r1, r2
	STOP

/* 22 agu: nop 1, ADDS 1, LDR 2 + 1 (address from the ADDS), STOP 1 = 6
 * (5 with agu=off) */
	SETUP
	START
	nop
	adds	r1, r3, #0
	ldr	r0, [r1]
	STOP

/* 23 tbb: MOVS 1, nop 1, TBB 6 (2 + 1 + P 3), nop 1, STOP 2 = 11
 * (the nop keeps the index from being the previous ALU result) */
	SETUP
	START
	movs	r0, #1
	nop
	tbb	[pc, r0]
2:	.byte	0
	.byte	(3f - 2b) / 2
	nop
3:	nop
	STOP

/* 24 ldr_pc: nop 1, LDR PC 5 (2 + P 3), nop 1, STOP 2 = 9 */
	SETUP
	START
	nop
	ldr.w	pc, 4f
	.balign	4
4:	.word	5f + 1
5:	nop
	STOP

/* 25 literal: nop 1, LDR [PC] 2, STOP 1 = 4 */
	SETUP
	START
	nop
	ldr	r0, 6f
	STOP
	b	7f
	.balign	4
6:	.word	0x12345678
7:

	EXIT

	.thumb_func
	.type	leaf, %function
leaf:
	bx	lr
	.size	leaf, . - leaf

	.thumb_func
	.type	frame, %function
frame:
	push	{r7, lr}
	pop	{r7, pc}
	.size	frame, . - frame

	.ltorg
