/* speed.S: a long bracketed loop of the kind of code the stub's ciphers run (ALU, loads, stores, a branch), for the plugin's speed figure in make bench; its cycles are not hand-counted. */
#include "emu.inc"

	VECTORS

	.equ	ROUNDS, 10000000 /* x 20 instructions */

	.text
	.thumb_func
	.global	reset
reset:
	ldr	r4, =TIM2_BASE
	ldr	r7, =buf
	ldr	r0, =ROUNDS
	movs	r1, #1
	movs	r2, #2
	movs	r3, #3
	START
1:	ldr	r8, [r7]
	eor	r1, r1, r8, ror #7
	add	r2, r2, r1
	eor	r3, r3, r2, ror #13
	ldr	r9, [r7, #4]
	add	r1, r1, r9
	eor	r2, r2, r3, ror #19
	bic	r8, r1, r2
	eor	r3, r3, r8
	str	r1, [r7, #8]
	add	r2, r2, r3, lsl #3
	eor	r1, r1, r2
	str	r2, [r7]
	ror	r3, r3, #5
	add	r9, r3, r1
	str	r9, [r7, #4]
	eor	r3, r3, r9
	and	r8, r3, r1
	subs	r0, #1
	bne	1b
	STOP
	EXIT
	.pool

	.bss
	.balign	4
buf:	.space	16
