/* mpsse_interp: executes the MPSSE byte stream the ftdi backend writes, on a simulated I2C bus with register models (an INA219's) on it (tests only). */
#ifndef HIL_MPSSE_INTERP_H
#define HIL_MPSSE_INTERP_H

#include <stddef.h>
#include <stdint.h>

struct hil_regmodel;

#define MPSSE_INTERP_MAX_DEVS 4

/*
 * The interpreter plays an FT232H in MPSSE mode wired for I2C (AD0 = SCL,
 * AD1 + AD2 = SDA, pull-ups): it keeps the ADBUS value and direction
 * latches, derives the line levels (a pin drives only when it is an output;
 * a released line is pulled high; SDA is the wired AND of our pin and the
 * slave), decodes START, repeated START, STOP and bits on SCL edges, and
 * runs the I2C slave side for the attached models. Clocking commands clock
 * one bit per SCL pulse starting from SCL low; bit reads sample AD2.
 *
 * It is strict: an opcode it does not know is answered 0xFA <op> as the
 * chip does AND recorded; SCL and SDA changed by one GPIO write, clocking
 * with SCL released or high, AD2 made an output, or our pin driving SDA
 * high while a slave pulls it low (contention), are errors (first one kept
 * in `error`). Answer bytes are held until a SEND_IMMEDIATE (0x87), as if
 * the latency timer never expired, so a backend that forgets 0x87 hangs.
 */
struct mpsse_interp {
	/* configuration seen */
	int div5;	  /* 1 until 0x8A */
	int three_phase;  /* 0x8C / 0x8D */
	int adaptive;	  /* 0x96 / 0x97 */
	int loopback;	  /* 0x84 / 0x85 */
	unsigned divisor; /* 0x86 */
	uint8_t lo_val, lo_dir, hi_val, hi_dir;

	/* I2C lines and slave side */
	int scl, sda;	/* line levels */
	int slave_sda;	/* 0: a slave pulls SDA low */
	int phase;	/* see mpsse_interp.c */
	unsigned bit;	/* clock edges in the current byte frame */
	uint8_t shift;	/* byte being received from the master */
	uint8_t out;	/* byte being sent to the master */
	int rw;		/* address byte's R/W bit */
	int master_ack; /* in a read: the master ACKed the last byte */
	struct hil_regmodel *sel;
	struct hil_regmodel *devs[MPSSE_INTERP_MAX_DEVS];
	size_t ndevs;
	uint8_t sr; /* the MPSSE's input shift register */

	/* answer bytes: [0, ready) may be read, [ready, len) wait for 0x87 */
	uint8_t ans[65536];
	size_t ans_len, ans_ready, ans_pos;

	/* partial command carried over from the previous write */
	uint8_t pend[8];
	size_t npend;

	/* what happened */
	char trace[8192]; /* "S 80+ 02+ Sr 81+ r0F+ r9F- P", bounded */
	size_t trace_len;
	unsigned starts, stops, sclk; /* START/Sr seen, STOP seen, clocks */
	unsigned gpio_cmds;
	unsigned bad_ops;
	uint8_t bad[16]; /* the first bad opcodes */
	char error[256]; /* first protocol error, "" if none */
	unsigned writes; /* write calls */
};

/** Power-on state: MPSSE reset, bus idle, no devices, no errors. */
void mpsse_interp_init(struct mpsse_interp *m);

/** Put a model on the bus (borrowed). @return 0 or -1 (full). */
int mpsse_interp_attach(struct mpsse_interp *m, struct hil_regmodel *dev);

/** Execute what the host wrote. @return n (the chip takes everything). */
int mpsse_interp_write(struct mpsse_interp *m, const uint8_t *p, size_t n);

/** Hand over answer bytes released by 0x87. @return count (0..cap). */
int mpsse_interp_read(struct mpsse_interp *m, uint8_t *p, size_t cap);

/** Drop pending answers and the partial command (a USB purge). */
void mpsse_interp_purge(struct mpsse_interp *m);

/** SCL in Hz from the clock settings (60 or 12 MHz, divisor, 3-phase). */
double mpsse_interp_scl_hz(const struct mpsse_interp *m);

/** Forget the trace (to check the next transaction's alone). */
void mpsse_interp_clear_trace(struct mpsse_interp *m);

#endif /* HIL_MPSSE_INTERP_H */
