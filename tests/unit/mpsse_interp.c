/* mpsse_interp: an FT232H MPSSE (FTDI AN_108 command set) wired as an I2C master, with I2C slaves from the register models (regmodel.h), for testing the ftdi backend. */
#define _POSIX_C_SOURCE 200809L

#include "mpsse_interp.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "drivers/sensor/regmodel.h"

enum { PH_IDLE, PH_ADDR, PH_WRITE, PH_READ, PH_IGNORE };

#define PIN_SCL 0x01u
#define PIN_DO	0x02u /* AD1: data out, tied to SDA */
#define PIN_DI	0x04u /* AD2: data in, tied to SDA */

/* Bytes after the opcode; -1: not a command we accept; -2: variable. */
static int cmd_len(uint8_t op)
{
	switch (op) {
	case 0x80:
	case 0x82:
	case 0x86:
	case 0x13:
	case 0x20:
	case 0x24:
		return 2;
	case 0x22:
	case 0x26:
		return 1;
	case 0x81:
	case 0x83:
	case 0x84:
	case 0x85:
	case 0x87:
	case 0x8A:
	case 0x8B:
	case 0x8C:
	case 0x8D:
	case 0x96:
	case 0x97:
		return 0;
	case 0x11:
		return -2; /* 2 length bytes, then length + 1 data bytes */
	default:
		return -1;
	}
}

static void fail(struct mpsse_interp *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void fail(struct mpsse_interp *m, const char *fmt, ...)
{
	va_list ap;

	if (m->error[0] != '\0') {
		return; /* keep the first */
	}
	va_start(ap, fmt);
	vsnprintf(m->error, sizeof(m->error), fmt, ap);
	va_end(ap);
}

static void trace(struct mpsse_interp *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void trace(struct mpsse_interp *m, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (m->trace_len + 1 >= sizeof(m->trace)) {
		return;
	}
	va_start(ap, fmt);
	n = vsnprintf(m->trace + m->trace_len, sizeof(m->trace) - m->trace_len,
		      fmt, ap);
	va_end(ap);
	if (n > 0) {
		m->trace_len += (size_t)n;
		if (m->trace_len >= sizeof(m->trace)) {
			m->trace_len = sizeof(m->trace) - 1;
		}
	}
}

void mpsse_interp_init(struct mpsse_interp *m)
{
	memset(m, 0, sizeof(*m));
	m->div5 = 1;
	m->scl = 1;
	m->sda = 1;
	m->slave_sda = 1;
	m->phase = PH_IDLE;
}

int mpsse_interp_attach(struct mpsse_interp *m, struct hil_regmodel *dev)
{
	if (m->ndevs >= MPSSE_INTERP_MAX_DEVS) {
		return -1;
	}
	m->devs[m->ndevs++] = dev;
	return 0;
}

void mpsse_interp_clear_trace(struct mpsse_interp *m)
{
	m->trace_len = 0;
	m->trace[0] = '\0';
}

double mpsse_interp_scl_hz(const struct mpsse_interp *m)
{
	double f = (m->div5 ? 12e6 : 60e6) / ((1.0 + m->divisor) * 2.0);

	return m->three_phase ? f * 2.0 / 3.0 : f;
}

static void answer(struct mpsse_interp *m, uint8_t b)
{
	if (m->ans_len < sizeof(m->ans)) {
		m->ans[m->ans_len++] = b;
	} else {
		fail(m, "answer buffer overflow (no reads?)");
	}
}

/* ---- the I2C slave side ---- */

static void i2c_start(struct mpsse_interp *m)
{
	trace(m, m->phase == PH_IDLE ? "S " : "Sr ");
	m->starts++;
	m->phase = PH_ADDR;
	m->bit = 0;
	m->shift = 0;
	m->slave_sda = 1;
	m->sel = NULL;
}

static void i2c_stop(struct mpsse_interp *m)
{
	size_t i;

	trace(m, "P ");
	m->stops++;
	for (i = 0; i < m->ndevs; i++) {
		hil_regmodel_i2c_stop(m->devs[i]);
	}
	m->phase = PH_IDLE;
	m->sel = NULL;
	m->slave_sda = 1;
}

static void scl_rising(struct mpsse_interp *m)
{
	m->sclk++;
	switch (m->phase) {
	case PH_IDLE:
		return; /* clocks outside a transaction: bus recovery */
	case PH_ADDR:
	case PH_WRITE:
	case PH_IGNORE:
		if (m->bit < 8) {
			m->shift = (uint8_t)(m->shift << 1 | m->sda);
			m->bit++;
		} else if (m->bit == 8) {
			m->bit = 9; /* the master samples the ACK */
		} else {
			fail(m, "more than nine clocks in a byte frame");
		}
		return;
	case PH_READ:
		if (m->bit < 8) {
			m->bit++;
		} else if (m->bit == 8) {
			/* the master's ACK (0) or NACK (1) */
			m->master_ack = m->sda == 0;
			trace(m, "r%02x%c ", m->out, m->sda == 0 ? '+' : '-');
			m->bit = 9;
		}
		return;
	default:
		return;
	}
}

static void scl_falling(struct mpsse_interp *m)
{
	size_t i;
	int ack;

	switch (m->phase) {
	case PH_ADDR:
		if (m->bit == 8) {
			m->rw = m->shift & 1;
			for (i = 0; i < m->ndevs; i++) {
				if (hil_regmodel_i2c_start(m->devs[i],
							   m->shift)) {
					m->sel = m->devs[i];
				}
			}
			m->slave_sda = m->sel != NULL ? 0 : 1;
			trace(m, "%02x%c ", m->shift, m->sel ? '+' : '-');
		} else if (m->bit == 9) {
			m->slave_sda = 1;
			m->bit = 0;
			m->shift = 0;
			if (m->sel == NULL) {
				m->phase = PH_IGNORE;
			} else if (m->rw) {
				m->phase = PH_READ;
				m->out = hil_regmodel_i2c_read(m->sel);
				m->slave_sda = (m->out >> 7) & 1;
			} else {
				m->phase = PH_WRITE;
			}
		}
		return;
	case PH_WRITE:
		if (m->bit == 8) {
			ack = hil_regmodel_i2c_write(m->sel, m->shift);
			m->slave_sda = ack ? 0 : 1;
			trace(m, "%02x%c ", m->shift, ack ? '+' : '-');
		} else if (m->bit == 9) {
			m->slave_sda = 1;
			m->bit = 0;
			m->shift = 0;
		}
		return;
	case PH_READ:
		if (m->bit >= 1 && m->bit <= 7) {
			m->slave_sda = (m->out >> (7 - m->bit)) & 1;
		} else if (m->bit == 8) {
			m->slave_sda = 1; /* released for the master's ACK */
		} else if (m->bit == 9) {
			m->bit = 0;
			if (m->master_ack) {
				m->out = hil_regmodel_i2c_read(m->sel);
				m->slave_sda = (m->out >> 7) & 1;
			} else {
				m->phase = PH_IGNORE; /* NACK: wait for P/Sr */
				m->slave_sda = 1;
			}
		}
		return;
	case PH_IGNORE:
		if (m->bit == 9) {
			m->bit = 0;
		}
		return;
	default:
		return;
	}
}

/* ---- pins to lines ---- */

static int master_scl(const struct mpsse_interp *m)
{
	return (m->lo_dir & PIN_SCL) ? (m->lo_val & PIN_SCL) != 0 : 1;
}

static int master_sda(const struct mpsse_interp *m)
{
	return (m->lo_dir & PIN_DO) ? (m->lo_val & PIN_DO) != 0 : 1;
}

static void check_contention(struct mpsse_interp *m)
{
	if ((m->lo_dir & PIN_DO) && (m->lo_val & PIN_DO) && !m->slave_sda) {
		fail(m,
		     "contention: AD1 drives SDA high while the slave pulls "
		     "it low (trace: %.60s)",
		     m->trace);
	}
}

/* Recompute the lines after our pins changed; decode what that means. */
static void update_lines(struct mpsse_interp *m)
{
	int scl = master_scl(m);
	int sda = master_sda(m) & m->slave_sda;

	check_contention(m);
	if (scl != m->scl && sda != m->sda) {
		fail(m, "SCL and SDA changed in one step (a race on the "
			"wire)");
		m->scl = scl;
		m->sda = sda;
		return;
	}
	if (scl != m->scl) {
		m->scl = scl;
		if (scl) {
			scl_rising(m);
		} else {
			scl_falling(m);
			/* the slave may drive SDA now; SCL is low: no event */
			m->sda = master_sda(m) & m->slave_sda;
			check_contention(m);
		}
		return;
	}
	if (sda != m->sda) {
		m->sda = sda;
		if (m->scl) {
			if (!sda) {
				i2c_start(m);
			} else {
				i2c_stop(m);
			}
		}
	}
}

/* ---- clocking ---- */

static int clock_ok(struct mpsse_interp *m, uint8_t op)
{
	if (!(m->lo_dir & PIN_SCL) || (m->lo_val & PIN_SCL)) {
		fail(m,
		     "opcode 0x%02x clocks with SCL %s: it must be an "
		     "output at 0",
		     op, (m->lo_dir & PIN_SCL) ? "high" : "released");
		return 0;
	}
	return 1;
}

/* Data out on the falling edge: the bit is set while SCL is low. */
static void bit_out(struct mpsse_interp *m, int v)
{
	m->lo_val = (uint8_t)((m->lo_val & ~PIN_DO) | (v ? PIN_DO : 0));
	update_lines(m);
	m->lo_val |= PIN_SCL;
	update_lines(m);
	m->lo_val &= (uint8_t)~PIN_SCL;
	update_lines(m);
}

/*
 * One clock; AD2 is sampled on the rising edge (0x20, 0x22) or just before
 * the falling edge (0x24, 0x26): a slave changes SDA only after a falling
 * edge, so both see the level of the high phase.
 */
static void bit_in(struct mpsse_interp *m)
{
	int v;

	m->lo_val |= PIN_SCL;
	update_lines(m);
	v = m->sda;
	m->lo_val &= (uint8_t)~PIN_SCL;
	update_lines(m);
	m->sr = (uint8_t)(m->sr << 1 | v);
}

static void bad_op(struct mpsse_interp *m, uint8_t op)
{
	if (m->bad_ops < sizeof(m->bad)) {
		m->bad[m->bad_ops] = op;
	}
	m->bad_ops++;
	answer(m, 0xFA);
	answer(m, op);
}

/* Execute one complete command at p; its length is known to fit. */
static void exec(struct mpsse_interp *m, const uint8_t *p)
{
	unsigned i, n, k;
	uint8_t op = p[0], pins;

	switch (op) {
	case 0x80:
		m->gpio_cmds++;
		m->lo_val = p[1];
		m->lo_dir = p[2];
		if (m->lo_dir & PIN_DI) {
			fail(m, "AD2 made an output: it is tied to AD1");
		}
		update_lines(m);
		break;
	case 0x82:
		m->hi_val = p[1];
		m->hi_dir = p[2];
		break;
	case 0x81:
		pins = (uint8_t)((m->lo_val & m->lo_dir) |
				 (~m->lo_dir &
				  ((m->scl ? PIN_SCL : 0) |
				   (m->sda ? PIN_DO | PIN_DI : 0))));
		answer(m, pins);
		break;
	case 0x83:
		answer(m, m->hi_val);
		break;
	case 0x84:
	case 0x85:
		m->loopback = op == 0x84;
		break;
	case 0x86:
		m->divisor = (unsigned)p[1] | (unsigned)p[2] << 8;
		break;
	case 0x87:
		m->ans_ready = m->ans_len;
		break;
	case 0x8A:
	case 0x8B:
		m->div5 = op == 0x8B;
		break;
	case 0x8C:
	case 0x8D:
		m->three_phase = op == 0x8C;
		break;
	case 0x96:
	case 0x97:
		m->adaptive = op == 0x96;
		break;
	case 0x11: /* bytes out, MSB first, on the falling edge */
		if (!clock_ok(m, op)) {
			break;
		}
		n = ((unsigned)p[1] | (unsigned)p[2] << 8) + 1u;
		for (i = 0; i < n; i++) {
			for (k = 0; k < 8; k++) {
				bit_out(m, (p[3 + i] >> (7 - k)) & 1);
			}
		}
		break;
	case 0x13: /* bits out, MSB first, on the falling edge */
		if (!clock_ok(m, op)) {
			break;
		}
		n = (unsigned)p[1] + 1u;
		if (n > 8) {
			fail(m, "0x13 with %u bits", n);
			break;
		}
		for (k = 0; k < n; k++) {
			bit_out(m, (p[2] >> (7 - k)) & 1);
		}
		break;
	case 0x20: /* bytes in, MSB first, rising / falling edge */
	case 0x24:
		if (!clock_ok(m, op)) {
			break;
		}
		n = ((unsigned)p[1] | (unsigned)p[2] << 8) + 1u;
		for (i = 0; i < n; i++) {
			for (k = 0; k < 8; k++) {
				bit_in(m);
			}
			answer(m, m->sr);
		}
		break;
	case 0x22: /* bits in: they enter at bit 0, the rest is stale */
	case 0x26:
		if (!clock_ok(m, op)) {
			break;
		}
		n = (unsigned)p[1] + 1u;
		if (n > 8) {
			fail(m, "0x%02x with %u bits", op, n);
			break;
		}
		for (k = 0; k < n; k++) {
			bit_in(m);
		}
		answer(m, m->sr);
		break;
	default:
		break;
	}
}

/* Length of the command at p[0..avail), 0 if incomplete. */
static size_t whole(const uint8_t *p, size_t avail)
{
	int len = cmd_len(p[0]);
	size_t need;

	if (len == -2) {
		if (avail < 3) {
			return 0;
		}
		need = 3 + ((size_t)p[1] | (size_t)p[2] << 8) + 1;
	} else {
		need = 1 + (size_t)len;
	}
	return avail >= need ? need : 0;
}

int mpsse_interp_write(struct mpsse_interp *m, const uint8_t *p, size_t n)
{
	size_t i = 0;

	m->writes++;
	/* Finish a command split across writes (USB packets) first. */
	while (m->npend > 0 && i < n) {
		size_t need;

		if (m->npend >= sizeof(m->pend)) {
			fail(m, "split command too long for the test buffer");
			m->npend = 0;
			break;
		}
		m->pend[m->npend++] = p[i++];
		need = whole(m->pend, m->npend);
		if (need > 0) {
			exec(m, m->pend);
			m->npend = 0;
		}
	}
	while (i < n) {
		size_t need;

		if (cmd_len(p[i]) == -1) {
			bad_op(m, p[i]);
			i++;
			continue;
		}
		need = whole(p + i, n - i);
		if (need == 0) {
			if (n - i > sizeof(m->pend)) {
				fail(m, "split command too long for the test "
					"buffer");
				break;
			}
			memcpy(m->pend, p + i, n - i);
			m->npend = n - i;
			break;
		}
		exec(m, p + i);
		i += need;
	}
	return (int)n;
}

int mpsse_interp_read(struct mpsse_interp *m, uint8_t *p, size_t cap)
{
	size_t n = m->ans_ready - m->ans_pos;

	if (n > cap) {
		n = cap;
	}
	memcpy(p, m->ans + m->ans_pos, n);
	m->ans_pos += n;
	if (m->ans_pos == m->ans_len) {
		m->ans_pos = m->ans_len = m->ans_ready = 0;
	}
	return (int)n;
}

void mpsse_interp_purge(struct mpsse_interp *m)
{
	m->ans_pos = m->ans_len = m->ans_ready = 0;
	m->npend = 0;
}
