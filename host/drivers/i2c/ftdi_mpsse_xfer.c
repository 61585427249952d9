/* ftdi_mpsse_xfer: I2C transactions of the "ftdi:" backend: a batch queued, sent in one USB write, its answers read in one go, the ACKs checked after. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#define HIL_LOG_PREFIX	"i2c-ftdi"
#include "ftdi_mpsse_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "util/err.h"
#include "util/log.h"

#define MAX_XFER_BYTES 4096u

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* ---- USB ---- */

int hil_ftdi_usb_write(struct hil_i2c_bus *bus, const uint8_t *p, size_t n)
{
	struct ftdi_bus *s = hil_i2c_priv(bus);
	struct hil_i2c_stats *st = hil_i2c_stats_mut(bus);
	int ret;

	st->usb_writes++;
	ret = s->api->ftdi_write_data(s->ctx, p, (int)n);
	if (ret < 0) {
		hil_err("%s: USB write failed: %s (%d)", s->what,
			hil_ftdi_why(s), ret);
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
int hil_ftdi_usb_read(struct hil_i2c_bus *bus, uint8_t *p, size_t n,
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
				hil_ftdi_why(s), ret);
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
			 hil_ftdi_why(s));
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

int hil_ftdi_batch(struct hil_i2c_bus *bus, const struct hil_i2c_msg *m,
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
		hil_ftdi_q_msg(s, &m[k], k);
	}
	hil_ftdi_push1(s, MPSSE_SEND_NOW);
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
	ret = hil_ftdi_usb_write(bus, s->cmd, s->len);
	if (ret == HIL_OK) {
		ret = hil_ftdi_usb_read(bus, s->ans, s->nslots,
					REPLY_DEADLINE_MS);
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

int hil_ftdi_xfer(struct hil_i2c_bus *bus, uint8_t addr, const uint8_t *w,
		  size_t wlen, uint8_t *r, size_t rlen)
{
	struct hil_i2c_msg m = {addr, w, wlen, r, rlen};

	return hil_ftdi_batch(bus, &m, 1);
}
