/* ftdi_mpsse: the "ftdi:" I2C backend, an FT232H/FT2232H/FT4232H in MPSSE mode through libftdi1, one USB round trip per batch of transactions. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"i2c-ftdi"

#include "ftdi_mpsse_int.h"

#include <errno.h>
#include <libftdi1/ftdi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/err.h"
#include "util/log.h"

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

#define USB_TIMEOUT_MS 1000 /* libusb transfer timeouts */

static const uint16_t default_pids[] = {0x6014, 0x6010, 0x6011};

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

const char *hil_ftdi_why(const struct ftdi_bus *s)
{
	const char *e = s->api->ftdi_get_error_string(s->ctx);

	return e != NULL ? e : "unknown libftdi error";
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
			s->what, hil_ftdi_why(s), ret);
		return HIL_ERR_IO;
	}
	hil_err("%s: cannot open: %s (%d)", s->what, hil_ftdi_why(s), ret);
	return HIL_ERR_IO;
}

/* Bad opcodes 0xAA (then 0xAB) must come back as 0xFA 0xAA (0xFA 0xAB). */
static int sync_check(struct hil_i2c_bus *bus, uint8_t bad, const char *when)
{
	struct ftdi_bus *s = hil_i2c_priv(bus);
	uint8_t got[2];
	int ret;

	ret = hil_ftdi_usb_read(bus, got, 2, REPLY_DEADLINE_MS);
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

	ret = hil_ftdi_usb_write(bus, sync, sizeof(sync));
	if (ret == HIL_OK) {
		ret = sync_check(bus, MPSSE_SYNC1, "the sync command");
	}
	if (ret != HIL_OK) {
		return ret;
	}
	s->len = 0;
	s->oom = 0;
	hil_ftdi_push3(s, MPSSE_CLK_60MHZ, MPSSE_ADAPTIVE_OFF, MPSSE_3PHASE_ON);
	hil_ftdi_push1(s, MPSSE_LOOPBACK_OFF);
	hil_ftdi_push3(s, MPSSE_DIVISOR, (uint8_t)s->divisor,
		       (uint8_t)(s->divisor >> 8));
	hil_ftdi_push3(s, MPSSE_SET_HIGH, 0x00, 0x00); /* ACBUS: all inputs */
	hil_ftdi_push3(s, MPSSE_SET_LOW, 0x00,
		       0x00); /* ADBUS: all inputs, released */
	/*
	 * Bus recovery: a slave left in the middle of a read (host killed
	 * mid-transaction) holds SDA low; nine clocks with SDA released let it
	 * finish its byte and see a NACK, then a STOP resets it.
	 */
	for (i = 0; i < 9; i++) {
		hil_ftdi_lines(s, PIN_SCL, s->reps);
		hil_ftdi_lines(s, 0, s->reps);
	}
	hil_ftdi_lines(s, PIN_SCL, s->reps);
	hil_ftdi_q_stop(s);
	/* A second bad opcode: its echo proves every command above was taken. */
	hil_ftdi_push2(s, MPSSE_SYNC2, MPSSE_SEND_NOW);
	if (s->oom) {
		return HIL_ERR_NOMEM;
	}
	ret = hil_ftdi_usb_write(bus, s->cmd, s->len);
	if (ret == HIL_OK) {
		ret = sync_check(bus, MPSSE_SYNC2, "after the setup commands");
	}
	return ret;
}

static int step(struct ftdi_bus *s, int ret, const char *what)
{
	if (ret < 0) {
		hil_err("%s: %s failed: %s (%d)", s->what, what,
			hil_ftdi_why(s), ret);
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
	.spec_form = "ftdi:VID:PID[:SERIAL]",
	.forms = "ftdi:VID:PID[:SERIAL], ftdi:desc=TEXT",
	.example = "ftdi:0403:6014",
	.missing = "no FTDI adapter",
	.missing_hint = "found on USB (plugged in? 'lsusb -d 0403:' lists "
			"FTDI devices; without USB access libusb finds none "
			"either)",
	.open = ftdi_open,
	.close = ftdi_close,
	.xfer = hil_ftdi_xfer,
	.xfer_batch = hil_ftdi_batch,
};
