/* ftdi_mpsse: the "ftdi:" I2C backend, an FT232H/FT2232H/FT4232H in MPSSE mode through libftdi1, one USB round trip per batch of transactions. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"i2c-ftdi"

#include "i2c.h"

#include <errno.h>
#include <libftdi1/ftdi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/err.h"
#include "util/log.h"

/*
 * Wiring (AN_255, AN_411): AD0 = SCL, AD1 (data out) and AD2 (data in) tied
 * together = SDA, pull-ups on both lines. Open drain is emulated with the
 * direction register: a line is pulled low by making its pin an output at 0
 * and released by making it an input. The GPIO value byte is therefore
 * always 0 and only the direction byte changes.
 *
 * The MPSSE drives its data pin push-pull while it clocks bits out, so SDA
 * is driven high only during the first seven bits of a byte we write, when
 * the slave never drives. The last bit is clocked with SDA released when it
 * is a 1 (the pull-up makes it), so that the slave's ACK after the eighth
 * falling edge never meets a pin driven high; a NACK we send after a read
 * is likewise the pull-up's 1. SCL is driven push-pull while clocking: the
 * INA219 never stretches the clock (an FT232H could use the drive-zero
 * command 0x9E instead; the FT2232H has no such command).
 *
 * MPSSE commands used (AN_108): 0x80 set ADBUS value/direction, 0x82 set
 * ACBUS, 0x13 clock bits out MSB first on the falling edge, 0x22 clock bits
 * in on the rising edge, 0x20 clock bytes in on the rising edge, 0x86 clock
 * divisor, 0x8A 60 MHz master clock (divide-by-5 off), 0x8C three-phase
 * clocking (data valid on both edges, as I2C needs), 0x85 loopback off,
 * 0x97 adaptive clocking off, 0x87 send immediate. A bad opcode makes the
 * chip answer 0xFA followed by the opcode (used to synchronise at open).
 */

#define PIN_SCL 0x01u /* AD0 */
#define PIN_SDA 0x02u /* AD1 out; AD2 in stays an input */

#define MPSSE_SET_LOW	   0x80u
#define MPSSE_SET_HIGH	   0x82u
#define MPSSE_BITS_OUT_NEG 0x13u
#define MPSSE_BYTES_IN_POS 0x20u
#define MPSSE_BITS_IN_POS  0x22u
#define MPSSE_LOOPBACK_OFF 0x85u
#define MPSSE_DIVISOR	   0x86u
#define MPSSE_SEND_NOW	   0x87u
#define MPSSE_CLK_60MHZ	   0x8Au
#define MPSSE_3PHASE_ON	   0x8Cu
#define MPSSE_ADAPTIVE_OFF 0x97u
#define MPSSE_BAD_ANSWER   0xFAu
#define MPSSE_SYNC1	   0xAAu /* deliberately bad opcodes */
#define MPSSE_SYNC2	   0xABu

/*
 * With three-phase clocking a bit takes three half periods of the divided
 * clock, so SCL = 60 MHz / ((1 + div) * 2) * 2/3 = 20 MHz / (1 + div):
 * div 49 gives 400 kHz, 199 gives 100 kHz.
 */
#define MPSSE_3PHASE_BASE_HZ 20000000u

/*
 * One GPIO command takes at least ~150 ns (AN_255 repeats each step of a
 * START 4 times to hold it for the 600 ns of fast mode). Steps are repeated
 * to meet tSU;STA, tHD;STA, tSU;STO and tBUF of the chosen speed (0.6/1.3 us
 * at 400 kHz, 4.0/4.7 us at 100 kHz, I2C-bus specification UM10204).
 */
#define GPIO_CMD_NS 150u

#define USB_TIMEOUT_MS	  1000	/* libusb transfer timeouts */
#define REPLY_DEADLINE_MS 1000u /* all answer bytes of one batch */
#define MAX_XFER_BYTES	  4096u

static const uint16_t default_pids[] = {0x6014, 0x6010, 0x6011};

enum slot_kind { SLOT_ACK_ADDR_W, SLOT_ACK_ADDR_R, SLOT_ACK_DATA, SLOT_READ };

/* What one byte of the MPSSE's answer stands for. */
struct slot {
	uint8_t kind;
	size_t msg;
	size_t idx;
};

struct ftdi_bus {
	const struct hil_ftdi_api *api;
	struct ftdi_context *ctx;
	int usb_open;
	char what[160]; /* the adapter, for messages */
	unsigned scl_hz;
	unsigned divisor;
	unsigned reps; /* GPIO repetitions per START/STOP step */

	/* the queue of one batch, and what its answer bytes mean */
	uint8_t *cmd;
	size_t len, cap;
	struct slot *slots;
	size_t nslots, slots_cap;
	uint8_t *ans;
	size_t ans_cap;
	int oom; /* first allocation failure, latched until the flush */
};

/* ---- libftdi1 itself ---- */

static int lf_set_interface(struct ftdi_context *ftdi, int iface)
{
	return ftdi_set_interface(ftdi, (enum ftdi_interface)iface);
}

const struct hil_ftdi_api hil_ftdi_api_libftdi = {
	.ftdi_new = ftdi_new,
	.ftdi_free = ftdi_free,
	.ftdi_set_interface = lf_set_interface,
	.ftdi_usb_open_desc = ftdi_usb_open_desc,
	.ftdi_usb_close = ftdi_usb_close,
	.ftdi_usb_reset = ftdi_usb_reset,
	.ftdi_set_latency_timer = ftdi_set_latency_timer,
	.ftdi_set_bitmode = ftdi_set_bitmode,
	.ftdi_tcioflush = ftdi_tcioflush,
	.ftdi_write_data = ftdi_write_data,
	.ftdi_read_data = ftdi_read_data,
	.ftdi_get_error_string = ftdi_get_error_string,
};

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static const char *ftdi_why(const struct ftdi_bus *s)
{
	const char *e = s->api->ftdi_get_error_string(s->ctx);

	return e != NULL ? e : "unknown libftdi error";
}

/* ---- the command queue ---- */

static void push(struct ftdi_bus *s, const uint8_t *p, size_t n)
{
	if (s->oom) {
		return;
	}
	if (s->len + n > s->cap) {
		size_t cap = s->cap ? s->cap : 1024;
		uint8_t *q;

		while (cap < s->len + n) {
			cap *= 2;
		}
		q = realloc(s->cmd, cap);
		if (q == NULL) {
			s->oom = 1;
			return;
		}
		s->cmd = q;
		s->cap = cap;
	}
	memcpy(s->cmd + s->len, p, n);
	s->len += n;
}

static void push1(struct ftdi_bus *s, uint8_t a)
{
	push(s, &a, 1);
}

static void push2(struct ftdi_bus *s, uint8_t a, uint8_t b)
{
	uint8_t p[2] = {a, b};

	push(s, p, 2);
}

static void push3(struct ftdi_bus *s, uint8_t a, uint8_t b, uint8_t c)
{
	uint8_t p[3] = {a, b, c};

	push(s, p, 3);
}

static void expect(struct ftdi_bus *s, enum slot_kind kind, size_t msg,
		   size_t idx)
{
	if (s->oom) {
		return;
	}
	if (s->nslots == s->slots_cap) {
		size_t cap = s->slots_cap ? 2 * s->slots_cap : 64;
		struct slot *q = realloc(s->slots, cap * sizeof(*q));

		if (q == NULL) {
			s->oom = 1;
			return;
		}
		s->slots = q;
		s->slots_cap = cap;
	}
	s->slots[s->nslots].kind = (uint8_t)kind;
	s->slots[s->nslots].msg = msg;
	s->slots[s->nslots].idx = idx;
	s->nslots++;
}

/* Lines: a bit set in `low` pulls that line low; clear releases it. */
static void lines(struct ftdi_bus *s, uint8_t low, unsigned times)
{
	unsigned i;

	for (i = 0; i < times; i++) {
		push3(s, MPSSE_SET_LOW, 0x00, low);
	}
}

/* From idle (both released): SDA falls while SCL is high, then SCL falls. */
static void q_start(struct ftdi_bus *s)
{
	lines(s, 0, s->reps);
	lines(s, PIN_SDA, s->reps);
	lines(s, PIN_SDA | PIN_SCL, s->reps);
}

/* From SCL low after an ACK bit: release SDA, raise SCL, then a START. */
static void q_restart(struct ftdi_bus *s)
{
	lines(s, PIN_SCL, s->reps);
	lines(s, 0, s->reps);
	lines(s, PIN_SDA, s->reps);
	lines(s, PIN_SDA | PIN_SCL, s->reps);
}

/* From SCL low: SDA low, SCL released, then SDA released while SCL high. */
static void q_stop(struct ftdi_bus *s)
{
	lines(s, PIN_SDA | PIN_SCL, s->reps);
	lines(s, PIN_SDA, s->reps);
	lines(s, 0, s->reps);
}

/* Eight bits out, MSB first, then the slave's ACK bit in (one answer byte). */
static void q_write_byte(struct ftdi_bus *s, uint8_t b)
{
	lines(s, PIN_SDA | PIN_SCL, 1);	    /* SDA is ours, SCL low */
	push3(s, MPSSE_BITS_OUT_NEG, 6, b); /* bits 7..1 */
	if (b & 1u) {
		lines(s, PIN_SCL, 1); /* released: pull-up gives 1 */
		push3(s, MPSSE_BITS_OUT_NEG, 0, 0xFF);
	} else {
		push3(s, MPSSE_BITS_OUT_NEG, 0, 0x00); /* 1 bit: MSB of 0x00 */
		lines(s, PIN_SCL, 1);		       /* release for the ACK */
	}
	push2(s, MPSSE_BITS_IN_POS, 0); /* length 0: one bit */
}

/* Eight bits in (one answer byte), then our ACK (0) or NACK (1). */
static void q_read_byte(struct ftdi_bus *s, int ack)
{
	lines(s, PIN_SCL, 1); /* SDA released: the slave drives it */
	push3(s, MPSSE_BYTES_IN_POS, 0, 0);
	if (ack) {
		lines(s, PIN_SDA | PIN_SCL, 1);
		push3(s, MPSSE_BITS_OUT_NEG, 0, 0x00);
		lines(s, PIN_SCL, 1);
	} else {
		push3(s, MPSSE_BITS_OUT_NEG, 0, 0xFF); /* SDA still released */
	}
}

static void q_msg(struct ftdi_bus *s, const struct hil_i2c_msg *m, size_t k)
{
	size_t i;

	if (m->wlen > 0) {
		q_start(s);
		q_write_byte(s, (uint8_t)(m->addr << 1));
		expect(s, SLOT_ACK_ADDR_W, k, 0);
		for (i = 0; i < m->wlen; i++) {
			q_write_byte(s, m->w[i]);
			expect(s, SLOT_ACK_DATA, k, i);
		}
	}
	if (m->rlen > 0) {
		if (m->wlen > 0) {
			q_restart(s);
		} else {
			q_start(s);
		}
		q_write_byte(s, (uint8_t)(m->addr << 1 | 1));
		expect(s, SLOT_ACK_ADDR_R, k, 0);
		for (i = 0; i < m->rlen; i++) {
			q_read_byte(s, i + 1 < m->rlen);
			expect(s, SLOT_READ, k, i);
		}
	}
	q_stop(s);
}

/* ---- USB ---- */

static int usb_write(struct hil_i2c_bus *bus, const uint8_t *p, size_t n)
{
	struct ftdi_bus *s = hil_i2c_priv(bus);
	struct hil_i2c_stats *st = hil_i2c_stats_mut(bus);
	int ret;

	st->usb_writes++;
	ret = s->api->ftdi_write_data(s->ctx, p, (int)n);
	if (ret < 0) {
		hil_err("%s: USB write failed: %s (%d)", s->what, ftdi_why(s),
			ret);
		return HIL_ERR_IO;
	}
	st->usb_bytes_out += (uint64_t)ret;
	if ((size_t)ret != n) {
		hil_err("%s: USB write sent %d of %zu bytes", s->what, ret, n);
		return HIL_ERR_IO;
	}
	return HIL_OK;
}

/* Exactly n bytes or an error; the MPSSE answers only after 0x87. */
static int usb_read(struct hil_i2c_bus *bus, uint8_t *p, size_t n,
		    unsigned deadline_ms)
{
	struct ftdi_bus *s = hil_i2c_priv(bus);
	struct hil_i2c_stats *st = hil_i2c_stats_mut(bus);
	uint64_t deadline = now_ms() + deadline_ms;
	size_t got = 0;
	int ret;

	while (got < n) {
		st->usb_reads++;
		ret = s->api->ftdi_read_data(s->ctx, p + got, (int)(n - got));
		if (ret < 0) {
			hil_err("%s: USB read failed: %s (%d)", s->what,
				ftdi_why(s), ret);
			return HIL_ERR_IO;
		}
		got += (size_t)ret;
		st->usb_bytes_in += (uint64_t)ret;
		if (got < n && now_ms() >= deadline) {
			hil_err("%s: the MPSSE answered %zu of %zu bytes in %u "
				"ms",
				s->what, got, n, deadline_ms);
			return HIL_ERR_TIMEOUT;
		}
	}
	return HIL_OK;
}

/* After a failed exchange, drop whatever is left in both directions. */
static void resync(struct hil_i2c_bus *bus)
{
	struct ftdi_bus *s = hil_i2c_priv(bus);

	if (s->api->ftdi_tcioflush(s->ctx) < 0) {
		hil_warn("%s: could not flush the FTDI buffers: %s", s->what,
			 ftdi_why(s));
	}
}

/* ---- transactions ---- */

static const char *nack_what(const struct slot *sl, char *buf, size_t len,
			     const struct hil_i2c_msg *m)
{
	if (sl->kind == SLOT_ACK_ADDR_W) {
		snprintf(buf, len, "its address (write)");
	} else if (sl->kind == SLOT_ACK_ADDR_R) {
		snprintf(buf, len, "its address (read)");
	} else {
		snprintf(buf, len, "data byte %zu of %zu (0x%02x)", sl->idx,
			 m->wlen, m->w[sl->idx]);
	}
	return buf;
}

static int ftdi_batch(struct hil_i2c_bus *bus, const struct hil_i2c_msg *m,
		      size_t n)
{
	struct ftdi_bus *s = hil_i2c_priv(bus);
	char why[80];
	size_t k, i;
	int ret;

	for (k = 0; k < n; k++) {
		if (m[k].wlen > MAX_XFER_BYTES || m[k].rlen > MAX_XFER_BYTES) {
			hil_err("%s: transaction longer than %u bytes", s->what,
				MAX_XFER_BYTES);
			return HIL_ERR_ARG;
		}
	}
	s->len = 0;
	s->nslots = 0;
	s->oom = 0;
	for (k = 0; k < n; k++) {
		q_msg(s, &m[k], k);
	}
	push1(s, MPSSE_SEND_NOW);
	if (!s->oom && s->nslots > s->ans_cap) {
		uint8_t *q = realloc(s->ans, s->nslots);

		if (q == NULL) {
			s->oom = 1;
		} else {
			s->ans = q;
			s->ans_cap = s->nslots;
		}
	}
	if (s->oom) {
		hil_err("%s: no memory for the MPSSE queue", s->what);
		return HIL_ERR_NOMEM;
	}

	/* One USB write for the whole batch, one read for all answers. */
	ret = usb_write(bus, s->cmd, s->len);
	if (ret == HIL_OK) {
		ret = usb_read(bus, s->ans, s->nslots, REPLY_DEADLINE_MS);
	}
	if (ret != HIL_OK) {
		resync(bus);
		return ret;
	}

	/* The ACKs are checked after the flush; the first NACK is reported. */
	for (i = 0; i < s->nslots; i++) {
		const struct slot *sl = &s->slots[i];
		const struct hil_i2c_msg *mm = &m[sl->msg];

		if (sl->kind == SLOT_READ) {
			mm->r[sl->idx] = s->ans[i];
		} else if (s->ans[i] & 0x01u) { /* 0x22: the bit is in bit 0 */
			if (n > 1) {
				hil_err("%s: no ACK from 0x%02x for %s "
					"(transaction %zu of %zu)",
					s->what, mm->addr,
					nack_what(sl, why, sizeof(why), mm),
					sl->msg + 1, n);
			} else {
				hil_err("%s: no ACK from 0x%02x for %s",
					s->what, mm->addr,
					nack_what(sl, why, sizeof(why), mm));
			}
			return HIL_ERR_IO;
		}
	}
	return HIL_OK;
}

static int ftdi_xfer(struct hil_i2c_bus *bus, uint8_t addr, const uint8_t *w,
		     size_t wlen, uint8_t *r, size_t rlen)
{
	struct hil_i2c_msg m = {addr, w, wlen, r, rlen};

	return ftdi_batch(bus, &m, 1);
}

/* ---- open and close ---- */

struct where {
	int vid, pid; /* -1: search default_pids with VID 0403 */
	char serial[64];
	char desc[96];
	unsigned scl_hz;
	int iface; /* 0..3 = A..D */
};

static int parse_where(const char *spec, const char *where, struct where *out)
{
	char head[160];
	const char *comma = strchr(where, ',');
	size_t hl = comma != NULL ? (size_t)(comma - where) : strlen(where);
	const char *opt;

	memset(out, 0, sizeof(*out));
	out->vid = 0x0403;
	out->pid = -1;
	out->scl_hz = 400000;
	if (hl >= sizeof(head)) {
		goto bad;
	}
	memcpy(head, where, hl);
	head[hl] = '\0';
	if (strncmp(head, "desc=", 5) == 0) {
		if (head[5] == '\0' || strlen(head + 5) >= sizeof(out->desc)) {
			goto bad;
		}
		strcpy(out->desc, head + 5);
	} else if (head[0] != '\0') {
		char *end;
		unsigned long v;

		errno = 0;
		v = strtoul(head, &end, 16);
		if (errno != 0 || end == head || *end != ':' || v > 0xFFFF) {
			goto bad;
		}
		out->vid = (int)v;
		opt = end + 1;
		v = strtoul(opt, &end, 16);
		if (errno != 0 || end == opt || v > 0xFFFF ||
		    (*end != '\0' && *end != ':')) {
			goto bad;
		}
		out->pid = (int)v;
		if (*end == ':') {
			if (end[1] == '\0' ||
			    strlen(end + 1) >= sizeof(out->serial)) {
				goto bad;
			}
			strcpy(out->serial, end + 1);
		}
	}
	for (opt = comma; opt != NULL; opt = strchr(opt + 1, ',')) {
		const char *o = opt + 1;
		size_t ol = strcspn(o, ",");

		if (ol == 4 && strncmp(o, "100k", 4) == 0) {
			out->scl_hz = 100000;
		} else if (ol == 4 && strncmp(o, "400k", 4) == 0) {
			out->scl_hz = 400000;
		} else if (ol == 4 && strncmp(o, "if=", 3) == 0 &&
			   o[3] >= 'A' && o[3] <= 'D') {
			out->iface = o[3] - 'A';
		} else {
			hil_err("%s: unknown option '%.*s' (100k, 400k, "
				"if=A..D)",
				spec, (int)ol, o);
			return HIL_ERR_ARG;
		}
	}
	return HIL_OK;
bad:
	hil_err("%s: expected ftdi:VID:PID[:SERIAL] (hex, e.g. 0403:6014) or "
		"ftdi:desc=TEXT, then ,100k|,400k|,if=A..D",
		spec);
	return HIL_ERR_ARG;
}

static void describe(struct ftdi_bus *s, const struct where *w)
{
	char pid[24];
	int n;

	if (w->pid >= 0) {
		snprintf(pid, sizeof(pid), "%04x", (unsigned)w->pid);
	} else {
		snprintf(pid, sizeof(pid), "{6014,6010,6011}");
	}
	n = snprintf(s->what, sizeof(s->what), "FTDI %04x:%s", (unsigned)w->vid,
		     pid);
	if (w->serial[0] != '\0' && n > 0 && (size_t)n < sizeof(s->what)) {
		n += snprintf(s->what + n, sizeof(s->what) - (size_t)n,
			      " serial '%s'", w->serial);
	}
	if (w->desc[0] != '\0' && n > 0 && (size_t)n < sizeof(s->what)) {
		n += snprintf(s->what + n, sizeof(s->what) - (size_t)n,
			      " description '%s'", w->desc);
	}
	if (w->iface > 0 && n > 0 && (size_t)n < sizeof(s->what)) {
		snprintf(s->what + n, sizeof(s->what) - (size_t)n,
			 " channel %c", 'A' + w->iface);
	}
}

/* Find and open the adapter; HIL_ERR_NA if no matching one is plugged in. */
static int usb_find_open(struct ftdi_bus *s, const struct where *w)
{
	size_t i, npid = w->pid >= 0 ? 1
				     : sizeof(default_pids) /
					       sizeof(default_pids[0]);
	int ret = -3;

	for (i = 0; i < npid; i++) {
		int pid = w->pid >= 0 ? w->pid : default_pids[i];

		ret = s->api->ftdi_usb_open_desc(
			s->ctx, w->vid, pid,
			w->desc[0] != '\0' ? w->desc : NULL,
			w->serial[0] != '\0' ? w->serial : NULL);
		if (ret != -3) { /* -3: "usb device not found" */
			break;
		}
	}
	if (ret == 0) {
		s->usb_open = 1;
		return HIL_OK;
	}
	if (ret == -3) {
		hil_err("no %s on USB (plugged in? `lsusb -d %04x:` lists "
			"FTDI devices)",
			s->what, (unsigned)w->vid);
		return HIL_ERR_NA;
	}
	if (ret == -4 || ret == -5) {
		hil_err("%s is there but cannot be opened: %s (%d): another "
			"program has it, or the user may not access it "
			"(install a udev rule giving the plugdev group access)",
			s->what, ftdi_why(s), ret);
		return HIL_ERR_IO;
	}
	hil_err("%s: cannot open: %s (%d)", s->what, ftdi_why(s), ret);
	return HIL_ERR_IO;
}

/* Bad opcodes 0xAA (then 0xAB) must come back as 0xFA 0xAA (0xFA 0xAB). */
static int sync_check(struct hil_i2c_bus *bus, uint8_t bad, const char *when)
{
	struct ftdi_bus *s = hil_i2c_priv(bus);
	uint8_t got[2];
	int ret;

	ret = usb_read(bus, got, 2, REPLY_DEADLINE_MS);
	if (ret != HIL_OK) {
		hil_err("%s: the MPSSE did not answer %s", s->what, when);
		return ret;
	}
	if (got[0] != MPSSE_BAD_ANSWER || got[1] != bad) {
		hil_err("%s: the MPSSE answered %02x %02x %s instead of %02x "
			"%02x (%s)",
			s->what, got[0], got[1], when, MPSSE_BAD_ANSWER, bad,
			got[0] == MPSSE_BAD_ANSWER
				? "an H-series command was refused: is this "
				  "an FT2232D or FT232R?"
				: "out of step");
		return HIL_ERR_IO;
	}
	return HIL_OK;
}

static int mpsse_setup(struct hil_i2c_bus *bus)
{
	struct ftdi_bus *s = hil_i2c_priv(bus);
	uint8_t sync[2] = {MPSSE_SYNC1, MPSSE_SEND_NOW};
	unsigned i;
	int ret;

	ret = usb_write(bus, sync, sizeof(sync));
	if (ret == HIL_OK) {
		ret = sync_check(bus, MPSSE_SYNC1, "the sync command");
	}
	if (ret != HIL_OK) {
		return ret;
	}
	s->len = 0;
	s->oom = 0;
	push3(s, MPSSE_CLK_60MHZ, MPSSE_ADAPTIVE_OFF, MPSSE_3PHASE_ON);
	push1(s, MPSSE_LOOPBACK_OFF);
	push3(s, MPSSE_DIVISOR, (uint8_t)s->divisor,
	      (uint8_t)(s->divisor >> 8));
	push3(s, MPSSE_SET_HIGH, 0x00, 0x00); /* ACBUS: all inputs */
	push3(s, MPSSE_SET_LOW, 0x00, 0x00);  /* ADBUS: all inputs, released */
	/*
	 * Bus recovery: a slave left in the middle of a read (host killed
	 * mid-transaction) holds SDA low; nine clocks with SDA released let it
	 * finish its byte and see a NACK, then a STOP resets it.
	 */
	for (i = 0; i < 9; i++) {
		lines(s, PIN_SCL, s->reps);
		lines(s, 0, s->reps);
	}
	lines(s, PIN_SCL, s->reps);
	q_stop(s);
	/* A second bad opcode: its echo proves every command above was taken. */
	push2(s, MPSSE_SYNC2, MPSSE_SEND_NOW);
	if (s->oom) {
		return HIL_ERR_NOMEM;
	}
	ret = usb_write(bus, s->cmd, s->len);
	if (ret == HIL_OK) {
		ret = sync_check(bus, MPSSE_SYNC2, "after the setup commands");
	}
	return ret;
}

static int step(struct ftdi_bus *s, int ret, const char *what)
{
	if (ret < 0) {
		hil_err("%s: %s failed: %s (%d)", s->what, what, ftdi_why(s),
			ret);
		return HIL_ERR_IO;
	}
	return HIL_OK;
}

static int ftdi_open_with(struct hil_i2c_bus *bus, const char *where,
			  const struct hil_ftdi_api *api)
{
	struct ftdi_bus *s;
	struct where w;
	int ret;

	ret = parse_where(hil_i2c_spec(bus), where, &w);
	if (ret != HIL_OK) {
		return ret;
	}
	s = calloc(1, sizeof(*s));
	if (s == NULL) {
		return HIL_ERR_NOMEM;
	}
	hil_i2c_set_priv(bus, s);
	s->api = api;
	describe(s, &w);
	s->divisor = MPSSE_3PHASE_BASE_HZ / w.scl_hz - 1u;
	s->scl_hz = MPSSE_3PHASE_BASE_HZ / (s->divisor + 1u);
	s->reps = ((w.scl_hz > 100000 ? 600u : 4700u) + GPIO_CMD_NS - 1u) /
		  GPIO_CMD_NS;
	s->ctx = api->ftdi_new();
	if (s->ctx == NULL) {
		hil_err("%s: libftdi could not start (no USB access: libusb "
			"init failed)",
			s->what);
		return HIL_ERR_NA;
	}
	s->ctx->usb_read_timeout = USB_TIMEOUT_MS;
	s->ctx->usb_write_timeout = USB_TIMEOUT_MS;
	ret = step(s, api->ftdi_set_interface(s->ctx, INTERFACE_A + w.iface),
		   "selecting the channel");
	if (ret == HIL_OK) {
		ret = usb_find_open(s, &w);
	}
	if (ret != HIL_OK) {
		return ret;
	}
	/* AN_135 section 4.2: reset, MPSSE mode, then synchronise. */
	ret = step(s, api->ftdi_usb_reset(s->ctx), "USB reset");
	if (ret == HIL_OK) {
		/* 1 ms: answers come back at once even without 0x87. */
		ret = step(s, api->ftdi_set_latency_timer(s->ctx, 1),
			   "setting the latency timer");
	}
	if (ret == HIL_OK) {
		ret = step(s, api->ftdi_set_bitmode(s->ctx, 0, BITMODE_RESET),
			   "resetting the bit mode");
	}
	if (ret == HIL_OK) {
		ret = step(s, api->ftdi_set_bitmode(s->ctx, 0, BITMODE_MPSSE),
			   "entering MPSSE mode");
	}
	if (ret == HIL_OK) {
		ret = step(s, api->ftdi_tcioflush(s->ctx),
			   "flushing the buffers");
	}
	if (ret == HIL_OK) {
		ret = mpsse_setup(bus);
	}
	if (ret == HIL_OK) {
		hil_info("%s: I2C at %u Hz (divisor %u, three-phase)", s->what,
			 s->scl_hz, s->divisor);
	}
	return ret;
}

static int ftdi_open(struct hil_i2c_bus *bus, const char *where)
{
	return ftdi_open_with(bus, where, &hil_ftdi_api_libftdi);
}

static void ftdi_close(struct hil_i2c_bus *bus)
{
	struct ftdi_bus *s = hil_i2c_priv(bus);
	const uint8_t release[3] = {MPSSE_SET_LOW, 0x00, 0x00};

	if (s == NULL) {
		return;
	}
	if (s->usb_open) {
		/* Leave the lines released and the chip out of MPSSE mode. */
		(void)s->api->ftdi_write_data(s->ctx, release, sizeof(release));
		(void)s->api->ftdi_set_bitmode(s->ctx, 0, BITMODE_RESET);
		(void)s->api->ftdi_usb_close(s->ctx);
	}
	if (s->ctx != NULL) {
		s->api->ftdi_free(s->ctx);
	}
	free(s->cmd);
	free(s->slots);
	free(s->ans);
	free(s);
	hil_i2c_set_priv(bus, NULL);
}

int hil_i2c_ftdi_open(struct hil_i2c_bus **out, const char *where,
		      const struct hil_ftdi_api *api)
{
	struct hil_i2c_bus *bus;
	char spec[256];
	int ret;

	if (out == NULL || where == NULL || api == NULL) {
		return HIL_ERR_ARG;
	}
	*out = NULL;
	snprintf(spec, sizeof(spec), "ftdi:%s", where);
	ret = hil_i2c_alloc(&bus, &hil_i2c_ftdi_ops, spec);
	if (ret != HIL_OK) {
		return ret;
	}
	ret = ftdi_open_with(bus, where, api);
	if (ret != HIL_OK) {
		hil_i2c_close(bus);
		return ret;
	}
	*out = bus;
	return HIL_OK;
}

int hil_i2c_ftdi_clock(struct hil_i2c_bus *bus, unsigned *scl_hz,
		       unsigned *divisor)
{
	struct ftdi_bus *s;

	if (bus == NULL || strcmp(hil_i2c_type(bus), "ftdi") != 0) {
		return HIL_ERR_ARG;
	}
	s = hil_i2c_priv(bus);
	if (scl_hz != NULL) {
		*scl_hz = s->scl_hz;
	}
	if (divisor != NULL) {
		*divisor = s->divisor;
	}
	return HIL_OK;
}

const struct hil_i2c_ops hil_i2c_ftdi_ops = {
	.name = "ftdi",
	.open = ftdi_open,
	.close = ftdi_close,
	.xfer = ftdi_xfer,
	.xfer_batch = ftdi_batch,
};
