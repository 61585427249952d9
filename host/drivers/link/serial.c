/* serial: the link backend for real serial ports (ST-LINK virtual COM port) through libserialport. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"serial"

#include "link.h"

#include <errno.h>
#include <libserialport.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/err.h"
#include "util/log.h"

/*
 * libserialport 0.1.1 cannot open a pseudo-terminal (its sysfs lookup and
 * then TIOCMGET fail), so QEMU and the native stub use the socket backend;
 * this one is for real ports only.
 */

struct serial {
	struct sp_port *port;
	int opened;
};

/*
 * Log one line naming the port and the library's reason, and translate the
 * code. The error text is read here, right after the failing call, because
 * libserialport keeps it in errno/its own state.
 */
static int sp_fail(const char *where, const char *what, enum sp_return r)
{
	char *msg;

	switch (r) {
	case SP_ERR_ARG:
		hil_err("%s: %s: invalid argument", where, what);
		return HIL_ERR_ARG;
	case SP_ERR_MEM:
		hil_err("%s: %s: out of memory", where, what);
		return HIL_ERR_NOMEM;
	case SP_ERR_SUPP:
		hil_err("%s: %s: not supported by this port", where, what);
		return HIL_ERR_NA;
	case SP_ERR_FAIL:
	default:
		msg = sp_last_error_message();
		hil_err("%s: %s: %s", where, what,
			msg != NULL ? msg : "unknown error");
		if (msg != NULL) {
			sp_free_error_message(msg);
		}
		return HIL_ERR_IO;
	}
}

static void serial_close(struct hil_link *l)
{
	struct serial *s = hil_link_priv(l);

	if (s == NULL) {
		return;
	}
	if (s->opened) {
		sp_close(s->port);
	}
	if (s->port != NULL) {
		sp_free_port(s->port);
	}
	free(s);
	hil_link_set_priv(l, NULL);
}

static int serial_open(struct hil_link *l, const char *where, unsigned baud)
{
	struct serial *s;
	struct stat st;
	enum sp_return r;

	if (baud == 0 || baud > (unsigned)0x7fffffff) {
		hil_err("%s: invalid baud rate %u", where, baud);
		return HIL_ERR_ARG;
	}
	s = calloc(1, sizeof(*s));
	if (s == NULL) {
		hil_err("%s: no memory for the port", where);
		return HIL_ERR_NOMEM;
	}
	hil_link_set_priv(l, s); /* serial_close frees it on error */

	r = sp_get_port_by_name(where, &s->port);
	if (r == SP_ERR_ARG) {
		/* 0.1.1 says only "Device not found": tell the two cases apart. */
		if (stat(where, &st) != 0) {
			hil_err("%s: no such port: %s", where, strerror(errno));
			return HIL_ERR_IO;
		}
		hil_err("%s: not a serial port libserialport knows (a pty is not supported: use the socket link)",
			where);
		return HIL_ERR_NA;
	}
	if (r != SP_OK) {
		return sp_fail(where, "cannot find port", r);
	}
	r = sp_open(s->port, SP_MODE_READ_WRITE);
	if (r != SP_OK) {
		return sp_fail(where, "cannot open port", r);
	}
	s->opened = 1;
	r = sp_set_baudrate(s->port, (int)baud);
	if (r != SP_OK) {
		return sp_fail(where, "cannot set baud rate", r);
	}
	r = sp_set_bits(s->port, 8);
	if (r == SP_OK) {
		r = sp_set_parity(s->port, SP_PARITY_NONE);
	}
	if (r == SP_OK) {
		r = sp_set_stopbits(s->port, 1);
	}
	if (r != SP_OK) {
		return sp_fail(where, "cannot set 8N1", r);
	}
	r = sp_set_flowcontrol(s->port, SP_FLOWCONTROL_NONE);
	if (r != SP_OK) {
		return sp_fail(where, "cannot disable flow control", r);
	}
	/* Bytes the target sent before we opened are stale: drop them. */
	r = sp_flush(s->port, SP_BUF_BOTH);
	if (r != SP_OK) {
		return sp_fail(where, "cannot flush", r);
	}
	hil_dbg("%s: open at %u baud, 8N1", where, baud);
	return HIL_OK;
}

static int serial_write(struct hil_link *l, const uint8_t *p, size_t n,
			unsigned timeout_ms)
{
	struct serial *s = hil_link_priv(l);
	enum sp_return r;

	/* libserialport's timeout 0 waits forever; ours means "do not wait". */
	if (timeout_ms == 0) {
		r = sp_nonblocking_write(s->port, p, n);
	} else {
		r = sp_blocking_write(s->port, p, n, timeout_ms);
	}
	if (r < 0) {
		return sp_fail(hil_link_where(l), "write failed", r);
	}
	if ((size_t)r < n) {
		hil_err("%s: write timed out after %u ms (%d of %zu bytes sent)",
			hil_link_where(l), timeout_ms, (int)r, n);
		return HIL_ERR_TIMEOUT;
	}
	return HIL_OK;
}

static int serial_read(struct hil_link *l, uint8_t *p, size_t cap,
		       unsigned timeout_ms)
{
	struct serial *s = hil_link_priv(l);
	enum sp_return r;

	if (timeout_ms == 0) {
		r = sp_nonblocking_read(s->port, p, cap);
	} else {
		r = sp_blocking_read_next(s->port, p, cap, timeout_ms);
	}
	if (r < 0) {
		return sp_fail(hil_link_where(l), "read failed", r);
	}
	return (int)r; /* 0: timeout with nothing read */
}

static int serial_drain(struct hil_link *l)
{
	struct serial *s = hil_link_priv(l);
	enum sp_return r;

	r = sp_flush(s->port, SP_BUF_INPUT);
	if (r != SP_OK) {
		return sp_fail(hil_link_where(l), "cannot flush input", r);
	}
	return HIL_OK;
}

const struct hil_link_ops hil_link_serial_ops = {
	.name = "serial",
	.needs = HIL_LINK_NEEDS_PORT,
	.open = serial_open,
	.close = serial_close,
	.write = serial_write,
	.read = serial_read,
	.drain = serial_drain,
};
