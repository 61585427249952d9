/* memsys.S: brackets for the memory-system profiles: code spanning more lines than the instruction cache, literal loads from flash, a cold first call and a warm second one (hand counts in test_emu_cyclemodel.c). */
#include "emu.inc"

	VECTORS

	.text
	.thumb_func
	.global	reset
reset:
	ldr	r4, =TIM2_BASE

/* M1 fits: from START (its own line), a B into a chain of 63 lines, each
 * left by a B over the next line (never sequential: no prefetch helps),
 * then a tail line with SUBS, BNE.W back, twice round: 64 lines a pass.
 * 0 WS: B 2 + pass (63 * 2 + SUBS 1 + BNE 2) + pass (126 + 1 + BNE not
 * taken 1) + STOP 2 = 261, 132 instructions, 65 lines (START's too).
 * The first pass misses 64 lines; a 64-line LRU cache holds them all for
 * the second (0 misses); without cache, every line waits both passes. */
	movs	r0, #2
	.balign	32
	START
	b	5f
	.balign	32
5:
	.rept	63
	b	.+32
	.balign	32
	.endr
	subs	r0, #1
	bne.w	5b
	STOP

/* M2 thrash: the same with 65 lines in the chain, 66 a pass: one more
 * than a 64-line LRU cache, so the second pass misses them all again.
 * 0 WS: 2 + (130 + 3) + (130 + 2) + 2 = 269, 136 instructions, 67 lines. */
	movs	r0, #2
	.balign	32
	START
	b	5f
	.balign	32
5:
	.rept	65
	b	.+32
	.balign	32
	.endr
	subs	r0, #1
	bne.w	5b
	STOP

/* M3 literals: four loads from flash (literal pool), three in one line,
 * one in another. 0 WS: all pipelined LDRs, 4 + STOP 1 = 5. A data cache
 * misses each line once (2); without one, every read waits (4). */
	.balign	32
	START
	ldr	r0, 6f
	ldr	r1, 7f
	ldr	r2, 6f
	ldr	r3, 8f
	STOP
	b	9f
	.balign	16
6:	.word	0x11111111
7:	.word	0x22222222
	.balign	16
8:	.word	0x33333333
	.balign	16
9:

/* M4 cold, M5 warm: the same call twice, each in its own bracket. The
 * function spans three lines, each entered by a jump. 0 WS: BL 2, B 2,
 * B 2, BX LR 3, STOP 2 = 11, 5 instructions. The first call misses the
 * function's 3 lines (and, without cache, the line it returns to); the
 * second finds them cached. */
	.balign	32
	START
	bl	func
	STOP
	.balign	32
	START
	bl	func
	STOP

	EXIT

	.balign	32
	.thumb_func
func:
	b	.+32
	.balign	32
	b	.+32
	.balign	32
	bx	lr
	.ltorg
