/* link: the byte transport to a target (serial port, unix socket, fd), chosen by name. */
#ifndef HIL_LINK_H
#define HIL_LINK_H

#include <stddef.h>
#include <stdint.h>

/*
 * Timeouts: every call that waits takes timeout_ms; 0 means "do not wait",
 * never "wait forever" (libserialport's convention is the opposite: the
 * serial backend translates).
 */

/* How long hil_link_open("socket", ...) keeps retrying the connect. */
#define HIL_LINK_SOCKET_CONNECT_MS 5000u

struct hil_link;

/*
 * What a link is made on, as its driver says (hil_link_ops.needs): the
 * core and the flashers ask this, never a link's name.
 */
enum hil_link_needs {
	/* The configuration's port at its baud (link.port, link.baud: the
	 * config or the hardware map must give the port). */
	HIL_LINK_NEEDS_PORT = 1,
	/* A unix socket path the flasher gives (hil_flasher_link_where):
	 * the emulator's UART. */
	HIL_LINK_NEEDS_SOCKET,
	/* Semihosting: a descriptor the flasher hands out
	 * (hil_flasher_link_fd) on the guest's semihosting stdin and stdout. */
	HIL_LINK_NEEDS_SEMIHOSTING,
};

/*
 * A backend. Backends keep their state behind hil_link_priv(); link.c owns the
 * struct hil_link itself and the copy of `where`.
 */
struct hil_link_ops {
	const char *name; /* "serial", "socket", "semihost", "fd", "flaky" */
	/* What the stub is built for to speak over this link: the value of
	 * make's HIL_LINK (target/boards/<board>/board.mk), or NULL for the
	 * board's UART (serial, socket). */
	const char *stub_build;
	/* What it is made on: a port, a socket, semihosting. */
	enum hil_link_needs needs;
	/* Open `where`; set the private state with hil_link_set_priv().
	 * NULL: the link is made from a descriptor only (adopt). */
	int (*open)(struct hil_link *l, const char *where, unsigned baud);
	/* Take over fd, a connected descriptor the flasher handed out
	 * (hil_link_adopt); NULL: the link is opened by name only. */
	int (*adopt)(struct hil_link *l, int fd);
	/* Release the private state; called once, also after a failed open. */
	void (*close)(struct hil_link *l);
	/* Write all n bytes or fail (HIL_ERR_TIMEOUT if not all went out). */
	int (*write)(struct hil_link *l, const uint8_t *p, size_t n,
		     unsigned timeout_ms);
	/* Bytes read (>0), 0 on timeout with nothing read, or a negative code. */
	int (*read)(struct hil_link *l, uint8_t *p, size_t cap,
		    unsigned timeout_ms);
	/* Discard input already received; HIL_OK or a negative code. */
	int (*drain)(struct hil_link *l);
};

/**
 * Open a link.
 * @param out receives the link; the caller closes it with hil_link_close().
 * @param type "serial" (where = port name, e.g. "/dev/ttyACM0") or "socket"
 *        (where = unix socket path; the connect is retried for
 *        HIL_LINK_SOCKET_CONNECT_MS while the path is missing or refuses);
 *        "semihost" is made with hil_link_adopt() instead.
 * @param where port or path; copied.
 * @param baud serial speed (8N1, no flow control); ignored by "socket".
 * @return HIL_OK; HIL_ERR_ARG (unknown type, bad where); HIL_ERR_IO (the
 *         port or socket could not be opened); HIL_ERR_TIMEOUT (no server
 *         appeared at the socket path in time); HIL_ERR_NOMEM.
 */
int hil_link_open(struct hil_link **out, const char *type, const char *where,
		  unsigned baud);

/**
 * What the link driver named type is made on (hil_link_ops.needs).
 * @return a HIL_LINK_NEEDS_*, or 0 for an unknown type or NULL.
 */
int hil_link_needs(const char *type);

/**
 * Whether the link driver named type is opened on the configuration's
 * port and baud (HIL_LINK_NEEDS_PORT) rather than on what the flasher
 * hands out. @return 1 or 0 (0 also for an unknown type).
 */
int hil_link_needs_port(const char *type);

/**
 * Make a link of a type that runs over a descriptor someone else opened:
 * "semihost", on the end of the socketpair whose other end is the
 * emulator's stdin and stdout (hil_flasher_link_fd()).
 * @param out receives the link; the caller closes it with hil_link_close().
 * @param type a link whose backend adopts descriptors.
 * @param fd taken over in every case (closed on error); made non-blocking
 *        and close-on-exec.
 * @param where what to call it in messages (hil_link_where); copied.
 * @return HIL_OK; HIL_ERR_ARG (unknown type, a type opened by name, no
 *         fd); HIL_ERR_IO; HIL_ERR_NOMEM.
 */
int hil_link_adopt(struct hil_link **out, const char *type, int fd,
		   const char *where);

/**
 * Connect to a unix socket, retrying for connect_timeout_ms while the path
 * does not exist yet or nobody listens on it (a server still starting).
 * @param out receives the link; the caller closes it with hil_link_close().
 * @param path socket path, shorter than sun_path (107 bytes); copied.
 * @return as hil_link_open(); HIL_ERR_TIMEOUT names the path in the log.
 */
int hil_link_socket_open(struct hil_link **out, const char *path,
			 unsigned connect_timeout_ms);

/**
 * Make a link from an open, connected file descriptor (a socketpair() end,
 * a pipe, a pty master): used by tests and by the native board.
 * The link takes ownership of fd (closes it) and sets it non-blocking and
 * close-on-exec. Writes use send(MSG_NOSIGNAL) on sockets, so a closed peer
 * is an error, not a SIGPIPE; on a pipe the caller must ignore SIGPIPE.
 * @param out receives the link; the caller closes it with hil_link_close().
 * @param name what to call it in messages (hil_link_where); copied.
 * @return HIL_OK, HIL_ERR_ARG, HIL_ERR_IO, HIL_ERR_NOMEM. On error fd is
 *         still closed.
 */
int hil_link_from_fd(struct hil_link **out, int fd, const char *name);

/** Close the link and free it. NULL is allowed. */
void hil_link_close(struct hil_link *l);

/**
 * Write all n bytes within timeout_ms.
 * @return HIL_OK, HIL_ERR_TIMEOUT (not everything written in time),
 *         HIL_ERR_IO (peer closed, device error), HIL_ERR_ARG.
 */
int hil_link_write(struct hil_link *l, const uint8_t *p, size_t n,
		   unsigned timeout_ms);

/**
 * Read what is available, waiting up to timeout_ms for the first byte.
 * @return bytes read (1..cap, at most INT_MAX), 0 on timeout with nothing
 *         read, HIL_ERR_IO (peer closed, device error), HIL_ERR_ARG.
 */
int hil_link_read(struct hil_link *l, uint8_t *p, size_t cap,
		  unsigned timeout_ms);

/** Discard pending input. @return HIL_OK or a negative code. */
int hil_link_drain(struct hil_link *l);

/** The port or socket path, for messages; borrowed, valid until close. */
const char *hil_link_where(const struct hil_link *l);

/** The backend's name ("serial", "socket", "semihost", "fd", "flaky"). */
const char *hil_link_type(const struct hil_link *l);

/** The link driver a config can name (link.type), or NULL (registry.c). */
const struct hil_link_ops *hil_link_find(const char *name);

/** Every link driver a config can name, NULL-terminated, in the order of
 *  drivers/drivers.def's HIL_LINK lines (not "fd" and "flaky", which tests
 *  make). */
const struct hil_link_ops *const *hil_link_all(void);

/* Fault injection for tests (nanopb's flaky stream, at the byte level). */
#define HIL_LINK_ZERO_AT_MAX 4u
struct hil_link_faults {
	uint32_t seed;		      /* same seed and traffic: same faults */
	unsigned corrupt_permille_rx; /* received bytes XORed with 1..255 */
	unsigned drop_permille_rx;    /* received bytes discarded */
	unsigned corrupt_permille_tx;
	unsigned drop_permille_tx;
	long silent_after_tx_bytes; /* -1 off: after this many bytes were
					 * passed to write, reads return nothing
					 * (input is discarded): a hung target */
	unsigned dup_permille_rx;   /* received bytes delivered twice */
	unsigned dup_permille_tx;   /* written bytes sent twice */
	/* Received bytes held back delay_ms (and every byte after them, so
	 * the order is kept); a drain discards only what has "arrived". */
	unsigned delay_permille_rx;
	/* Written bytes sent delay_ms after the bytes before them. */
	unsigned delay_permille_tx;
	unsigned delay_ms; /* how long a delayed byte is late; 0: 20 ms */
	/* A 0x00 inserted before a received / written byte: a frame cut in
	 * two, as a line glitch or a receiver resetting does. */
	unsigned zero_permille_rx;
	unsigned zero_permille_tx;
	/* And a 0x00 inserted before each of these written bytes' indices
	 * (the first n_zero_at_tx), whatever the seed. */
	unsigned n_zero_at_tx;
	uint64_t zero_at_tx[HIL_LINK_ZERO_AT_MAX];
	/* 0 off: once this many bytes were passed to write, every received
	 * byte is XORed with 0xA5: the target answers, but nothing it says
	 * survives (a link gone bad, not a hung target). */
	unsigned long garble_rx_after_tx_bytes;
};

/**
 * Wrap an open link with fault injection. A fault depends only on the seed,
 * the direction and the byte's index in that direction, never on how the
 * traffic was split into calls. A 0x00 may first be inserted before a byte
 * (and goes with it when it is delayed); the byte is then dropped or kept; a
 * kept byte may be corrupted, then duplicated (the copy equals the corrupted
 * byte), then delayed.
 * @param out receives the wrapper; closing it closes inner.
 * @param inner the link to wrap; ownership passes to the wrapper (also on
 *        error: inner is closed if the wrapper cannot be made).
 * @param f the faults; copied. Permille values above 1000 act as 1000.
 * @return HIL_OK, HIL_ERR_ARG, HIL_ERR_NOMEM.
 */
int hil_link_wrap_flaky(struct hil_link **out, struct hil_link *inner,
			const struct hil_link_faults *f);

/* ---- for backends only (serial.c, socket.c, semihost.c) ---- */

/** The private state set by the backend's open. */
void *hil_link_priv(const struct hil_link *l);
void hil_link_set_priv(struct hil_link *l, void *priv);

/**
 * Allocate a link bound to ops without opening it (for constructors such as
 * hil_link_from_fd); hil_link_close() calls ops->close then frees it.
 */
int hil_link_alloc(struct hil_link **out, const struct hil_link_ops *ops,
		   const char *where);

/** Milliseconds left until deadline_ms on CLOCK_MONOTONIC (0 if past). */
unsigned hil_link_ms_left(uint64_t deadline_ms);

/** Now on CLOCK_MONOTONIC, in milliseconds. */
uint64_t hil_link_now_ms(void);

#endif /* HIL_LINK_H */
