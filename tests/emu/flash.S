/* flash.S: brackets whose cost depends on flash wait states and the ART accelerator (hand counts in test_emu_qemu.c). */
#include "emu.inc"

	VECTORS

	.text
	.thumb_func
	.global	reset
reset:
	ldr	r4, =TIM2_BASE

/* F1 straight: START at a line start, 15 nops, STOP on the third line.
 * 0 WS: 15 + 2 = 17; 2 WS ART off: + 2 (line 2) + 2 (line 3) = 21;
 * 2 WS ART on: sequential lines are prefetched: 17. */
	.balign	16
	START
	.rept	15
	nop
	.endr
	STOP

/* F2 loop: 3 iterations of 13 nops, SUBS, BNE across two lines.
 * 0 WS: 3 * 14 + 2 * 2 + 1 + STOP 2 = 49; ART on: 49 (lines cached);
 * ART off: line 2 in each iteration and line 1 on each jump back, and
 * STOP's line: 5 * 2 + ... = 12 stall cycles: 61. */
	movs	r0, #3
	.balign	16
	START
1:	.rept	13
	nop
	.endr
	subs	r0, #1
	bne	1b
	STOP

/* F3 far: a jump to a line never fetched before.
 * 0 WS: B 2, nop 1, STOP 2 = 5; 2 WS, ART on or off: + 2 = 7. */
	.balign	16
	START
	b	2f
	.balign	16
	.rept	8
	nop
	.endr
2:	nop
	STOP

/* F4 literals: two loads of one constant in flash.
 * 0 WS: LDR 1 and LDR 1 (both pipelined), STOP 1 = 3;
 * 2 WS ART off: + 2 + 2 = 7; ART on: the D-cache holds it after the
 * first: 5. */
	.balign	16
	START
	ldr	r0, 3f
	ldr	r7, 3f
	STOP

	EXIT
	.balign	16
3:	.word	0xcafef00d
	.ltorg
