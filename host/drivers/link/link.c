/* link: opening a link driver (drivers.def) by name, the generic calls, and the flaky fault-injection wrapper. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"link"

#include "link.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/err.h"
#include "util/log.h"

struct hil_link {
	const struct hil_link_ops *ops;
	void *priv;
	char *where;
};

int hil_link_needs(const char *type)
{
	const struct hil_link_ops *ops = hil_link_find(type);

	return ops != NULL ? (int)ops->needs : 0;
}

int hil_link_needs_port(const char *type)
{
	return hil_link_needs(type) == HIL_LINK_NEEDS_PORT;
}

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

/* The links a config can name, for a message: "serial, socket, semihost". */
static void link_names(char *buf, size_t len)
{
	const struct hil_link_ops *const *all = hil_link_all();
	size_t i, at = 0;

	buf[0] = '\0';
	for (i = 0; all[i] != NULL && at < len; i++) {
		int w = snprintf(buf + at, len - at, "%s%s", i > 0 ? ", " : "",
				 all[i]->name);

		if (w < 0) {
			break;
		}
		at += (size_t)w;
	}
}

int hil_link_open(struct hil_link **out, const char *type, const char *where,
		  unsigned baud)
{
	const struct hil_link_ops *ops = NULL;
	struct hil_link *l;
	int ret;

	if (out == NULL) {
		return HIL_ERR_ARG;
	}
	*out = NULL;
	if (type == NULL || where == NULL || where[0] == '\0') {
		hil_err("link: no type or no port/socket path given");
		return HIL_ERR_ARG;
	}
	ops = hil_link_find(type);
	if (ops == NULL) {
		char names[128];

		link_names(names, sizeof(names));
		hil_err("%s: unknown link type '%s' (%s)", where, type, names);
		return HIL_ERR_ARG;
	}
	if (ops->open == NULL) {
		hil_err("%s: a %s link is made on the flasher's descriptor, not opened by name",
			where, type);
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

int hil_link_adopt(struct hil_link **out, const char *type, int fd,
		   const char *where)
{
	const struct hil_link_ops *ops = hil_link_find(type);
	struct hil_link *l;
	int ret;

	if (out == NULL || fd < 0 || where == NULL || where[0] == '\0' ||
	    ops == NULL || ops->adopt == NULL) {
		hil_err("%s: cannot make a link of type '%s' on descriptor %d",
			where != NULL ? where : "(no name)",
			type != NULL ? type : "(none)", fd);
		if (fd >= 0) {
			close(fd);
		}
		if (out != NULL) {
			*out = NULL;
		}
		return HIL_ERR_ARG;
	}
	*out = NULL;
	ret = hil_link_alloc(&l, ops, where);
	if (ret != HIL_OK) {
		close(fd);
		return ret;
	}
	ret = ops->adopt(l, fd);
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

/* What fault_rand decides, one independent draw each. */
enum { FATE_DROP = 1, FATE_CORRUPT, FATE_XOR, FATE_DUP, FATE_DELAY, FATE_ZERO };

#define FLAKY_CHUNK	       256u
#define FLAKY_DEFAULT_DELAY_MS 20u

struct flaky {
	struct hil_link *inner;
	struct hil_link_faults f;
	uint64_t rx_index; /* bytes received from inner so far */
	uint64_t tx_index; /* bytes passed to write so far */
	/*
	 * Received bytes after the faults, not yet handed to the caller, each
	 * with the time it may be (a duplicate and an inserted 0x00 triple a chunk
	 * at most).
	 * Ready times never decrease along the queue: a delayed byte holds
	 * back everything behind it, as on a wire.
	 */
	uint8_t rx_q[3 * FLAKY_CHUNK];
	uint64_t rx_ready[3 * FLAKY_CHUNK];
	size_t rx_head, rx_tail;
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
	return permille > 0 && (unsigned)(r % 1000u) < permille;
}

/* The fate of one byte in one direction. */
struct fate {
	int zero; /* a 0x00 goes before it */
	int drop;
	uint8_t b; /* the byte, corrupted or not */
	int dup;
	int delay;
};

static struct fate byte_fate(const struct flaky *s, int dir, uint64_t idx,
			     uint8_t b)
{
	const struct hil_link_faults *f = &s->f;
	int rx = dir == DIR_RX;
	struct fate out;

	memset(&out, 0, sizeof(out));
	out.b = b;
	out.zero = hit(fault_rand(s, dir, idx, FATE_ZERO),
		       rx ? f->zero_permille_rx : f->zero_permille_tx);
	if (!rx) {
		unsigned i;

		for (i = 0; i < f->n_zero_at_tx; i++) {
			if (f->zero_at_tx[i] == idx) {
				out.zero = 1;
			}
		}
	}
	if (hit(fault_rand(s, dir, idx, FATE_DROP),
		rx ? f->drop_permille_rx : f->drop_permille_tx)) {
		out.drop = 1;
		return out;
	}
	if (hit(fault_rand(s, dir, idx, FATE_CORRUPT),
		rx ? f->corrupt_permille_rx : f->corrupt_permille_tx)) {
		/* 1..255: a corrupted byte always differs */
		out.b ^= (uint8_t)(1u +
				   fault_rand(s, dir, idx, FATE_XOR) % 255u);
	}
	out.dup = hit(fault_rand(s, dir, idx, FATE_DUP),
		      rx ? f->dup_permille_rx : f->dup_permille_tx);
	out.delay = hit(fault_rand(s, dir, idx, FATE_DELAY),
			rx ? f->delay_permille_rx : f->delay_permille_tx);
	return out;
}

static void sleep_ms(uint64_t ms)
{
	struct timespec ts;

	ts.tv_sec = (time_t)(ms / 1000u);
	ts.tv_nsec = (long)(ms % 1000u) * 1000000L;
	while (nanosleep(&ts, &ts) != 0) {
		/* EINTR: sleep the rest */
	}
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

/* Pass n bytes to inner, unless there are none. */
static int flush_tx(struct flaky *s, const uint8_t *p, size_t n,
		    uint64_t deadline)
{
	if (n == 0) {
		return HIL_OK;
	}
	return hil_link_write(s->inner, p, n, hil_link_ms_left(deadline));
}

static int flaky_write(struct hil_link *l, const uint8_t *p, size_t n,
		       unsigned timeout_ms)
{
	struct flaky *s = hil_link_priv(l);
	uint8_t buf[3 * FLAKY_CHUNK];
	uint64_t deadline = hil_link_now_ms() + timeout_ms;
	size_t done = 0;
	int ret;

	while (done < n) {
		size_t chunk = n - done, i, kept = 0;

		if (chunk > FLAKY_CHUNK) {
			chunk = FLAKY_CHUNK;
		}
		for (i = 0; i < chunk; i++) {
			struct fate ft = byte_fate(s, DIR_TX, s->tx_index + i,
						   p[done + i]);

			if (ft.drop && !ft.zero) {
				continue;
			}
			if (ft.delay) {
				/* What came before goes out on time. */
				ret = flush_tx(s, buf, kept, deadline);
				if (ret != HIL_OK) {
					return ret;
				}
				kept = 0;
				sleep_ms(s->f.delay_ms);
			}
			if (ft.zero) {
				buf[kept++] = 0;
			}
			if (ft.drop) {
				continue;
			}
			buf[kept++] = ft.b;
			if (ft.dup) {
				buf[kept++] = ft.b;
			}
		}
		s->tx_index += chunk;
		done += chunk;
		ret = flush_tx(s, buf, kept, deadline);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	return HIL_OK;
}

/* Queue got bytes from inner (rx_q is empty) after their faults. */
static void queue_rx(struct flaky *s, const uint8_t *in, size_t got)
{
	uint64_t t = hil_link_now_ms();
	size_t i;

	s->rx_head = 0;
	s->rx_tail = 0;
	for (i = 0; i < got; i++) {
		struct fate ft = byte_fate(s, DIR_RX, s->rx_index + i, in[i]);
		int copies = ft.dup ? 2 : 1;

		if (s->f.garble_rx_after_tx_bytes > 0 &&
		    s->tx_index >= s->f.garble_rx_after_tx_bytes) {
			ft.b ^= 0xA5u;
		}

		if (ft.drop && !ft.zero) {
			continue;
		}
		if (ft.delay) {
			t += s->f.delay_ms; /* and everything after it */
		}
		if (ft.zero) {
			s->rx_q[s->rx_tail] = 0;
			s->rx_ready[s->rx_tail] = t;
			s->rx_tail++;
		}
		if (ft.drop) {
			continue;
		}
		while (copies-- > 0) {
			s->rx_q[s->rx_tail] = ft.b;
			s->rx_ready[s->rx_tail] = t;
			s->rx_tail++;
		}
	}
	s->rx_index += got;
}

static int flaky_read(struct hil_link *l, uint8_t *p, size_t cap,
		      unsigned timeout_ms)
{
	struct flaky *s = hil_link_priv(l);
	uint64_t deadline = hil_link_now_ms() + timeout_ms;
	uint8_t in[FLAKY_CHUNK];

	/* Loop so that a chunk dropped entirely does not end the wait early. */
	for (;;) {
		uint64_t now = hil_link_now_ms();
		int got;

		if (s->rx_head < s->rx_tail) {
			uint64_t ready = s->rx_ready[s->rx_head];
			size_t n = 0;

			if (ready > now) {
				/* Late: wait for it, not beyond the caller. */
				if (deadline <= now) {
					return 0;
				}
				sleep_ms((ready < deadline ? ready : deadline) -
					 now);
				continue;
			}
			while (n < cap && s->rx_head < s->rx_tail &&
			       s->rx_ready[s->rx_head] <= now) {
				p[n++] = s->rx_q[s->rx_head++];
			}
			return (int)n;
		}
		got = hil_link_read(s->inner, in, sizeof(in),
				    hil_link_ms_left(deadline));
		if (got <= 0) {
			return got;
		}
		if (flaky_silent(s)) {
			s->rx_index += (uint64_t)got; /* a hung target */
		} else {
			queue_rx(s, in, (size_t)got);
		}
		if (s->rx_head == s->rx_tail &&
		    hil_link_ms_left(deadline) == 0) {
			return 0;
		}
	}
}

/* Discard what has arrived; bytes still late arrive after the drain. */
static int flaky_drain(struct hil_link *l)
{
	struct flaky *s = hil_link_priv(l);
	uint64_t now = hil_link_now_ms();

	while (s->rx_head < s->rx_tail && s->rx_ready[s->rx_head] <= now) {
		s->rx_head++;
	}
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
	s->f.dup_permille_rx = clamp_permille(f->dup_permille_rx);
	s->f.dup_permille_tx = clamp_permille(f->dup_permille_tx);
	s->f.delay_permille_rx = clamp_permille(f->delay_permille_rx);
	s->f.delay_permille_tx = clamp_permille(f->delay_permille_tx);
	s->f.zero_permille_rx = clamp_permille(f->zero_permille_rx);
	s->f.zero_permille_tx = clamp_permille(f->zero_permille_tx);
	if (s->f.n_zero_at_tx > HIL_LINK_ZERO_AT_MAX) {
		s->f.n_zero_at_tx = HIL_LINK_ZERO_AT_MAX;
	}
	if (s->f.delay_ms == 0) {
		s->f.delay_ms = FLAKY_DEFAULT_DELAY_MS;
	}
	hil_link_set_priv(l, s);
	*out = l;
	return HIL_OK;

err_state:
	free(s);
err_inner:
	hil_link_close(inner);
	return ret;
}
