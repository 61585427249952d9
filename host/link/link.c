/* link: backend selection by name, the generic calls, and the flaky fault-injection wrapper. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"link"

#include "link.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../err.h"
#include "../log.h"

struct hil_link {
	const struct hil_link_ops *ops;
	void *priv;
	char *where;
};

static const struct hil_link_ops *const backends[] = {
	&hil_link_serial_ops,
	&hil_link_socket_ops,
};

uint64_t hil_link_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

unsigned hil_link_ms_left(uint64_t deadline_ms)
{
	uint64_t now = hil_link_now_ms();

	if (now >= deadline_ms) {
		return 0;
	}
	if (deadline_ms - now > UINT_MAX) {
		return UINT_MAX;
	}
	return (unsigned)(deadline_ms - now);
}

void *hil_link_priv(const struct hil_link *l)
{
	return l->priv;
}

void hil_link_set_priv(struct hil_link *l, void *priv)
{
	l->priv = priv;
}

int hil_link_alloc(struct hil_link **out, const struct hil_link_ops *ops,
		   const char *where)
{
	struct hil_link *l;

	if (out == NULL || ops == NULL || where == NULL) {
		return HIL_ERR_ARG;
	}
	*out = NULL;
	l = calloc(1, sizeof(*l));
	if (l == NULL) {
		goto err_nomem;
	}
	l->where = strdup(where);
	if (l->where == NULL) {
		goto err_free;
	}
	l->ops = ops;
	*out = l;
	return HIL_OK;

err_free:
	free(l);
err_nomem:
	hil_err("%s: no memory for the link", where);
	return HIL_ERR_NOMEM;
}

int hil_link_open(struct hil_link **out, const char *type, const char *where,
		  unsigned baud)
{
	const struct hil_link_ops *ops = NULL;
	struct hil_link *l;
	size_t i;
	int ret;

	if (out == NULL) {
		return HIL_ERR_ARG;
	}
	*out = NULL;
	if (type == NULL || where == NULL || where[0] == '\0') {
		hil_err("link: no type or no port/socket path given");
		return HIL_ERR_ARG;
	}
	for (i = 0; i < sizeof(backends) / sizeof(backends[0]); i++) {
		if (strcmp(backends[i]->name, type) == 0) {
			ops = backends[i];
		}
	}
	if (ops == NULL) {
		hil_err("%s: unknown link type '%s' (serial, socket)", where,
			type);
		return HIL_ERR_ARG;
	}
	ret = hil_link_alloc(&l, ops, where);
	if (ret != HIL_OK) {
		return ret;
	}
	ret = ops->open(l, l->where, baud);
	if (ret != HIL_OK) {
		hil_link_close(l);
		return ret;
	}
	*out = l;
	return HIL_OK;
}

void hil_link_close(struct hil_link *l)
{
	if (l == NULL) {
		return;
	}
	if (l->ops->close != NULL) {
		l->ops->close(l);
	}
	free(l->where);
	free(l);
}

int hil_link_write(struct hil_link *l, const uint8_t *p, size_t n,
		   unsigned timeout_ms)
{
	if (l == NULL || (p == NULL && n > 0)) {
		return HIL_ERR_ARG;
	}
	if (n == 0) {
		return HIL_OK;
	}
	return l->ops->write(l, p, n, timeout_ms);
}

int hil_link_read(struct hil_link *l, uint8_t *p, size_t cap,
		  unsigned timeout_ms)
{
	if (l == NULL || p == NULL || cap == 0) {
		return HIL_ERR_ARG;
	}
	if (cap > INT_MAX) {
		cap = INT_MAX; /* the count must fit the return value */
	}
	return l->ops->read(l, p, cap, timeout_ms);
}

int hil_link_drain(struct hil_link *l)
{
	if (l == NULL) {
		return HIL_ERR_ARG;
	}
	return l->ops->drain(l);
}

const char *hil_link_where(const struct hil_link *l)
{
	return l != NULL ? l->where : "(no link)";
}

const char *hil_link_type(const struct hil_link *l)
{
	return l != NULL ? l->ops->name : "(no link)";
}

/* ---- flaky wrapper ---- */

enum { DIR_RX = 1, DIR_TX = 2 };

struct flaky {
	struct hil_link *inner;
	struct hil_link_faults f;
	uint64_t rx_index; /* bytes received from inner so far */
	uint64_t tx_index; /* bytes passed to write so far */
};

/*
 * Counter-based randomness (splitmix64 finaliser over seed, direction, byte
 * index): a byte's fate does not depend on how reads and writes were split,
 * so a failing test replays exactly from its seed.
 */
static uint64_t mix64(uint64_t z)
{
	z += 0x9e3779b97f4a7c15ull;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t fault_rand(const struct flaky *s, int dir, uint64_t index,
			   unsigned what)
{
	uint64_t k = ((uint64_t)s->f.seed << 32) ^ ((uint64_t)dir << 8) ^ what;

	return mix64(mix64(k) ^ index);
}

static int hit(uint64_t r, unsigned permille)
{
	return (unsigned)(r % 1000u) < permille;
}

/*
 * Apply drop/corrupt faults in place to buf[0..n) whose first byte has the
 * given index in its direction; return the number of bytes kept.
 */
static size_t apply_faults(const struct flaky *s, int dir, uint64_t index,
			   uint8_t *buf, size_t n, unsigned drop,
			   unsigned corrupt)
{
	size_t i, kept = 0;

	for (i = 0; i < n; i++) {
		uint64_t idx = index + i;
		uint8_t b = buf[i];

		if (drop > 0 && hit(fault_rand(s, dir, idx, 1), drop)) {
			continue;
		}
		if (corrupt > 0 && hit(fault_rand(s, dir, idx, 2), corrupt)) {
			/* 1..255: a corrupted byte always differs */
			b ^= (uint8_t)(1u + fault_rand(s, dir, idx, 3) % 255u);
		}
		buf[kept++] = b;
	}
	return kept;
}

static int flaky_silent(const struct flaky *s)
{
	return s->f.silent_after_tx_bytes >= 0 &&
	       s->tx_index >= (uint64_t)s->f.silent_after_tx_bytes;
}

static void flaky_close(struct hil_link *l)
{
	struct flaky *s = hil_link_priv(l);

	if (s != NULL) {
		hil_link_close(s->inner);
		free(s);
	}
	hil_link_set_priv(l, NULL);
}

static int flaky_write(struct hil_link *l, const uint8_t *p, size_t n,
		       unsigned timeout_ms)
{
	struct flaky *s = hil_link_priv(l);
	uint8_t buf[256];
	uint64_t deadline = hil_link_now_ms() + timeout_ms;
	size_t done = 0;

	while (done < n) {
		size_t chunk = n - done, kept;
		int ret;

		if (chunk > sizeof(buf)) {
			chunk = sizeof(buf);
		}
		memcpy(buf, p + done, chunk);
		kept = apply_faults(s, DIR_TX, s->tx_index, buf, chunk,
				    s->f.drop_permille_tx,
				    s->f.corrupt_permille_tx);
		s->tx_index += chunk;
		done += chunk;
		if (kept == 0) {
			continue;
		}
		ret = hil_link_write(s->inner, buf, kept,
				     hil_link_ms_left(deadline));
		if (ret != HIL_OK) {
			return ret;
		}
	}
	return HIL_OK;
}

static int flaky_read(struct hil_link *l, uint8_t *p, size_t cap,
		      unsigned timeout_ms)
{
	struct flaky *s = hil_link_priv(l);
	uint64_t deadline = hil_link_now_ms() + timeout_ms;

	/* Loop so that a chunk dropped entirely does not end the wait early. */
	for (;;) {
		size_t kept;
		int got;

		got = hil_link_read(s->inner, p, cap,
				    hil_link_ms_left(deadline));
		if (got <= 0) {
			return got;
		}
		if (flaky_silent(s)) {
			s->rx_index += (uint64_t)got;
			kept = 0; /* a hung target: swallow everything */
		} else {
			kept = apply_faults(s, DIR_RX, s->rx_index, p,
					    (size_t)got, s->f.drop_permille_rx,
					    s->f.corrupt_permille_rx);
			s->rx_index += (uint64_t)got;
		}
		if (kept > 0) {
			return (int)kept;
		}
		if (hil_link_ms_left(deadline) == 0) {
			return 0;
		}
	}
}

static int flaky_drain(struct hil_link *l)
{
	struct flaky *s = hil_link_priv(l);

	return hil_link_drain(s->inner);
}

static const struct hil_link_ops flaky_ops = {
	.name = "flaky",
	.open = NULL,
	.close = flaky_close,
	.write = flaky_write,
	.read = flaky_read,
	.drain = flaky_drain,
};

static unsigned clamp_permille(unsigned v)
{
	return v > 1000u ? 1000u : v;
}

int hil_link_wrap_flaky(struct hil_link **out, struct hil_link *inner,
			const struct hil_link_faults *f)
{
	struct flaky *s;
	struct hil_link *l;
	int ret;

	if (out == NULL || inner == NULL || f == NULL) {
		hil_link_close(inner);
		return HIL_ERR_ARG;
	}
	*out = NULL;
	s = calloc(1, sizeof(*s));
	if (s == NULL) {
		hil_err("%s: no memory for the flaky wrapper", inner->where);
		ret = HIL_ERR_NOMEM;
		goto err_inner;
	}
	ret = hil_link_alloc(&l, &flaky_ops, inner->where);
	if (ret != HIL_OK) {
		goto err_state;
	}
	s->inner = inner;
	s->f = *f;
	s->f.corrupt_permille_rx = clamp_permille(f->corrupt_permille_rx);
	s->f.drop_permille_rx = clamp_permille(f->drop_permille_rx);
	s->f.corrupt_permille_tx = clamp_permille(f->corrupt_permille_tx);
	s->f.drop_permille_tx = clamp_permille(f->drop_permille_tx);
	hil_link_set_priv(l, s);
	*out = l;
	return HIL_OK;

err_state:
	free(s);
err_inner:
	hil_link_close(inner);
	return ret;
}
