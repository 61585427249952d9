/* session: request/reply over the protocol with sequence numbers, timeouts, resync and bounded retries. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"session"
#include "session.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/err.h"
#include "util/log.h"

struct hil_session {
	struct hil_link *link;
	unsigned timeout_ms;
	unsigned retries;
	uint8_t seq;
	int quiet;	    /* handshake polling: timeouts are expected */
	unsigned shrink;    /* hil_session_chunk(): max >> shrink */
	unsigned clean;	    /* calls answered at once since the last shrink */
	unsigned v2_frames; /* protocol 2 (CRC-8) frames: an old stub */
	struct hilp_rx rx;
	struct hil_session_stats stats;
	struct hil_session_fault fault;
	const volatile sig_atomic_t *stop; /* hil_session_set_stop(); NULL */
	int (*probe)(void *arg);	   /* hil_session_set_probe(); NULL */
	void *probe_arg;
	struct hil_session_call_end last; /* of the latest call */
};

/* How often a wait for a reply looks at the stop flag. */
#define STOP_SLICE_MS  100
/* How often a wait that hears nothing asks the probe (hil_session_set_probe)
 * whether the board can answer at all: a stopped emulator is found within
 * about this long, not at the end of a long BENCH's sized timeout. */
#define PROBE_SLICE_MS 1000

/* What one attempt ended with. */
enum attempt {
	ATTEMPT_DONE,	 /* status received */
	ATTEMPT_DAMAGED, /* our request or its reply was damaged: retry */
	ATTEMPT_TIMEOUT, /* nothing usable before the deadline: retry */
};

const char *hil_session_cmd_name(uint8_t cmd)
{
	switch (cmd) {
	case HILP_CMD_VERSION:
		return "VERSION";
	case HILP_CMD_LIST:
		return "LIST";
	case HILP_CMD_INFO:
		return "INFO";
	case HILP_CMD_ALG:
		return "ALG";
	case HILP_CMD_LOAD:
		return "LOAD";
	case HILP_CMD_EXEC:
		return "EXEC";
	case HILP_CMD_FETCH:
		return "FETCH";
	case HILP_CMD_BENCH:
		return "BENCH";
	case HILP_CMD_CALIBRATE:
		return "CALIBRATE";
	case HILP_CMD_RESET:
		return "RESET";
	case HILP_CMD_ENERGY:
		return "ENERGY";
	case HILP_CMD_PQRUN:
		return "PQRUN";
	default:
		return "unknown command";
	}
}

const char *hil_session_status_text(uint8_t status)
{
	switch (status) {
	case HILP_ST_OK:
		return "ok";
	case HILP_ST_BAD_CMD:
		return "unknown command";
	case HILP_ST_BAD_CRC:
		return "the target received a damaged frame (bad CRC)";
	case HILP_ST_TIMEOUT:
		return "the target timed out receiving";
	case HILP_ST_BAD_LEN:
		return "bad frame or payload length";
	case HILP_ST_UNEXPECTED_ZERO:
		return "unexpected 0x00";
	case HILP_ST_BAD_ARG:
		return "a field is out of range";
	case HILP_ST_TOO_LONG:
		return "request larger than the stub's buffers";
	case HILP_ST_NO_ALG:
		return "no algorithm at that index in this image";
	case HILP_ST_UNSUPPORTED:
		return "operation not offered by this algorithm";
	case HILP_ST_CRYPTO_FAIL:
		return "the implementation returned an error";
	case HILP_ST_DIGEST:
		return "output changed between runs";
	case HILP_ST_FAULT:
		return "the target took a fault";
	case HILP_ST_CLOCK:
		return "a clock did not become ready at boot";
	default:
		return "unknown status";
	}
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int hil_session_open(struct hil_session **out, struct hil_link *link,
		     unsigned timeout_ms, unsigned retries)
{
	struct hil_session *s = calloc(1, sizeof(*s));

	if (s == NULL) {
		return HIL_ERR_NOMEM;
	}
	s->link = link;
	s->timeout_ms = timeout_ms;
	s->retries = retries;
	s->seq = (uint8_t)(now_ms() & 0xFF); /* a fresh start after a restart */
	hilp_rx_init(&s->rx);
	*out = s;
	return HIL_OK;
}

void hil_session_set_stop(struct hil_session *s,
			  const volatile sig_atomic_t *stop)
{
	s->stop = stop;
}

void hil_session_set_probe(struct hil_session *s, int (*probe)(void *arg),
			   void *arg)
{
	s->probe = probe;
	s->probe_arg = arg;
}

const struct hil_session_call_end *
hil_session_last_call(const struct hil_session *s)
{
	return &s->last;
}

int hil_session_last_call_heard(const struct hil_session *s)
{
	unsigned heard = s->last.damaged + s->last.late;

	/* Most attempts heard the target: a stale byte before a run of
	 * silences is a hung target's, not a damaging link's. */
	return heard > 0 && heard >= s->last.silent;
}

/* A wait ran out in silence: can the board still answer at all? */
static int board_down(struct hil_session *s)
{
	if (s->probe == NULL || s->quiet || s->probe(s->probe_arg) == HIL_OK) {
		return 0;
	}
	s->last.board_down = 1;
	return 1;
}

void hil_session_close(struct hil_session *s)
{
	free(s);
}

/* Halving 4 times takes a full frame (247 bytes) to 15: the floor. */
#define MAX_SHRINK    4u
/* Calls answered at the first attempt before the chunk doubles again. */
#define CLEAN_TO_GROW 16u

size_t hil_session_chunk(const struct hil_session *s, size_t max)
{
	size_t c = max >> s->shrink;

	if (c < HIL_SESSION_MIN_CHUNK) {
		c = HIL_SESSION_MIN_CHUNK;
	}
	return c < max ? c : max;
}

/* An attempt was damaged or lost: smaller frames from now on. */
static void chunk_worse(struct hil_session *s)
{
	if (s->quiet) {
		return; /* a booting target, not a noisy link */
	}
	s->clean = 0;
	if (s->shrink < MAX_SHRINK) {
		s->shrink++;
		hil_dbg("link damage: LOAD/FETCH chunks now 1/%u of a frame",
			1u << s->shrink);
	}
}

/* A call was answered at its first attempt. */
static void chunk_better(struct hil_session *s)
{
	if (s->shrink == 0 || ++s->clean < CLEAN_TO_GROW) {
		return;
	}
	s->clean = 0;
	s->shrink--;
}

int hil_session_damaged(const struct hil_session *s)
{
	/* The counters start after the handshake; a silence alone may be
	 * a hung target, not a damaged link. */
	return s->stats.bad_frames > 0 || s->stats.target_rejects > 0;
}

const struct hil_session_stats *
hil_session_get_stats(const struct hil_session *s)
{
	return &s->stats;
}

const struct hil_session_fault *
hil_session_get_fault(const struct hil_session *s)
{
	return &s->fault;
}

/* Forget partial input and make the target's receiver start afresh: a lone
 * 0x00 ends whatever frame it was collecting. */
static int resync(struct hil_session *s)
{
	const uint8_t zero = 0;
	int ret;

	hilp_rx_init(&s->rx);
	ret = hil_link_drain(s->link);
	if (ret < 0) {
		return ret;
	}
	s->stats.bytes_tx++;
	return hil_link_write(s->link, &zero, 1, s->timeout_ms);
}

static void note_fault(struct hil_session *s, const struct hilp_packet *p)
{
	s->fault.seen = 1;
	s->fault.pc = hilp_get_u32(p->data + 2);
	s->fault.cfsr = hilp_get_u32(p->data + 6);
	s->fault.hfsr = hilp_get_u32(p->data + 10);
	s->fault.bfar = hilp_get_u32(p->data + 14);
	hil_err("target fault: PC 0x%08x CFSR 0x%08x HFSR 0x%08x BFAR 0x%08x",
		(unsigned)s->fault.pc, (unsigned)s->fault.cfsr,
		(unsigned)s->fault.hfsr, (unsigned)s->fault.bfar);
}

static int status_means_damage(uint8_t st)
{
	return st == HILP_ST_BAD_CRC || st == HILP_ST_BAD_LEN ||
	       st == HILP_ST_UNEXPECTED_ZERO || st == HILP_ST_TIMEOUT;
}

/*
 * Read replies until the status for seq arrives or the deadline passes.
 * Damage where our reply or status should be means they are lost: the
 * attempt is over, and asking again at once is cheaper than waiting out the
 * timeout (every command may be repeated).
 */
static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int await(struct hil_session *s, uint8_t seq, uint8_t *reply, size_t cap,
		 size_t *reply_len, uint8_t *status, unsigned timeout_ms,
		 enum attempt *outcome, int *heard)
{
	long long deadline = now_ms() + timeout_ms;
	long long next_probe = now_ms() + PROBE_SLICE_MS;
	uint64_t sent = now_ns();
	int waiting = 1; /* no byte of the reply yet */
	int have_reply = 0;
	int damaged = 0; /* a frame that failed its checks arrived */
	uint8_t buf[256];

	for (;;) {
		long long left = deadline - now_ms();
		int n;
		int i;

		if (left <= 0) {
			*outcome = ATTEMPT_TIMEOUT;
			*heard = !waiting;
			return HIL_OK;
		}
		if (s->stop != NULL) {
			/* A stop ends the wait, not the reply's timeout: a
			 * hung board must not hold a cancelled job. */
			if (*s->stop) {
				return HIL_ERR_INTERRUPTED;
			}
			if (left > STOP_SLICE_MS) {
				left = STOP_SLICE_MS;
			}
		}
		if (s->probe != NULL && !s->quiet) {
			if (waiting && now_ms() >= next_probe) {
				next_probe = now_ms() + PROBE_SLICE_MS;
				if (board_down(s)) {
					/* Nothing can come: the wait is over. */
					*outcome = ATTEMPT_TIMEOUT;
					*heard = 0;
					return HIL_OK;
				}
			}
			if (left > PROBE_SLICE_MS) {
				left = PROBE_SLICE_MS;
			}
		}
		n = hil_link_read(s->link, buf, sizeof(buf), (unsigned)left);
		if (n < 0) {
			return n;
		}
		s->stats.bytes_rx += (uint64_t)n;
		if (n > 0 && waiting) {
			s->stats.wait_ns += now_ns() - sent;
			waiting = 0;
		}
		for (i = 0; i < n; i++) {
			struct hilp_packet p;
			int r = hilp_rx_push(&s->rx, buf[i]);

			if (r < 0) {
				s->stats.bad_frames++;
				damaged = 1;
				continue;
			}
			if (r == 0 || s->rx.len == 0) {
				continue;
			}
			if (hilp_decode_reply(s->rx.buf, s->rx.len, &p) !=
			    HILP_ST_OK) {
				s->stats.bad_frames++;
				damaged = 1;
				if (hilp_v2_frame(s->rx.buf, s->rx.len)) {
					s->v2_frames++;
				}
				hilp_rx_init(&s->rx);
				hil_dbg("dropped a damaged reply frame");
				if (have_reply) {
					/* That was our status. */
					*outcome = ATTEMPT_DAMAGED;
					return HIL_OK;
				}
				continue;
			}
			hilp_rx_init(&s->rx);
			if (p.cmd == HILP_REPLY && p.dlen == 18 &&
			    p.data[1] == HILP_ST_FAULT) {
				note_fault(s, &p);
				continue;
			}
			if (p.cmd == HILP_REPLY && p.dlen >= 1 &&
			    p.data[0] == seq) {
				/* The reply as the codec decodes it: its
				 * sequence byte first. */
				size_t len = (size_t)p.dlen;

				if (len > cap) {
					hil_err("reply of %zu bytes is larger than expected (%zu)",
						len - 1, cap - 1);
					return HIL_ERR_PROTO;
				}
				memcpy(reply, p.data, len);
				if (reply_len != NULL) {
					*reply_len = len;
				}
				have_reply = 1;
				continue;
			}
			if (p.cmd == HILP_REPLY) {
				hil_dbg("ignored a stale reply (seq %u, want %u)",
					p.data[0], seq);
				continue;
			}
			if (p.cmd != HILP_ERROR || p.dlen != 1) {
				hil_dbg("ignored an unexpected packet '%c'",
					p.cmd);
				continue;
			}
			/* The status packet. */
			if (have_reply || p.data[0] == HILP_ST_FAULT) {
				*status = p.data[0];
				*outcome = ATTEMPT_DONE;
				return HIL_OK;
			}
			if (status_means_damage(p.data[0])) {
				s->stats.target_rejects++;
				*outcome = ATTEMPT_DAMAGED;
				return HIL_OK;
			}
			if (p.data[0] == HILP_ST_BAD_CMD) {
				/* The one failure the stub gives a well-received
				 * frame before it reads the sequence byte. */
				*status = p.data[0];
				*outcome = ATTEMPT_DONE;
				return HIL_OK;
			}
			if (damaged) {
				/* A status without our reply, after a damaged
				 * frame: the reply was the damaged frame. Ask
				 * again now rather than wait out the timeout. */
				*outcome = ATTEMPT_DAMAGED;
				return HIL_OK;
			}
			/*
			 * Any other status without our reply belongs to an
			 * earlier attempt that we gave up on: the stub answers
			 * every failure after reading seq with [seq, status]
			 * first. Taking it as ours gave a LOAD the 0x14 of
			 * the EXEC before it.
			 */
			hil_dbg("ignored a stale status 0x%02x", p.data[0]);
		}
	}
}

static int call_attempts(struct hil_session *s, uint8_t cmd, uint8_t scmd,
			 const uint8_t *msg, size_t mlen, uint8_t *reply,
			 size_t cap, size_t *reply_len, uint8_t *status,
			 unsigned timeout_ms, int long_call);

static int call(struct hil_session *s, uint8_t cmd, uint8_t scmd,
		const uint8_t *msg, size_t mlen, uint8_t *reply, size_t cap,
		size_t *reply_len, uint8_t *status, unsigned timeout_ms,
		int long_call)
{
	uint64_t t0;
	int ret;

	if (mlen < 1 || mlen > HILP_MAX_DATA || cap < 1) {
		hil_err("%s payload of %zu bytes does not fit in a frame",
			hil_session_cmd_name(cmd), mlen > 0 ? mlen - 1 : 0);
		return HIL_ERR_ARG;
	}
	if (timeout_ms == 0) {
		timeout_ms = s->timeout_ms;
	}
	s->stats.requests++;
	s->stats.by_cmd[cmd % HIL_SESSION_CMD_SLOTS]++;
	t0 = now_ns();
	ret = call_attempts(s, cmd, scmd, msg, mlen, reply, cap, reply_len,
			    status, timeout_ms, long_call);
	s->stats.call_ns += now_ns() - t0;
	return ret;
}

int hil_session_exchange(struct hil_session *s, uint8_t cmd, uint8_t scmd,
			 const uint8_t *msg, size_t mlen, uint8_t *reply,
			 size_t cap, size_t *reply_len, uint8_t *status,
			 unsigned timeout_ms)
{
	return call(s, cmd, scmd, msg, mlen, reply, cap, reply_len, status,
		    timeout_ms, 0);
}

int hil_session_exchange_long(struct hil_session *s, uint8_t cmd, uint8_t scmd,
			      const uint8_t *msg, size_t mlen, uint8_t *reply,
			      size_t cap, size_t *reply_len, uint8_t *status,
			      unsigned timeout_ms)
{
	return call(s, cmd, scmd, msg, mlen, reply, cap, reply_len, status,
		    timeout_ms, 1);
}

/* A payload without a sequence slot, and its reply without the byte. */
static int call_payload(struct hil_session *s, uint8_t cmd, uint8_t scmd,
			const uint8_t *payload, size_t plen, uint8_t *reply,
			size_t cap, size_t *reply_len, uint8_t *status,
			unsigned timeout_ms, int long_call)
{
	uint8_t msg[HILP_MAX_DATA];
	uint8_t rep[HILP_MAX_DATA];
	size_t len = 0;
	int ret;

	if (plen + 1 > HILP_MAX_DATA) {
		hil_err("%s payload of %zu bytes does not fit in a frame",
			hil_session_cmd_name(cmd), plen);
		return HIL_ERR_ARG;
	}
	msg[0] = 0; /* the session's to set */
	if (plen > 0) {
		memcpy(msg + 1, payload, plen);
	}
	ret = call(s, cmd, scmd, msg, plen + 1, rep,
		   cap + 1 < sizeof(rep) ? cap + 1 : sizeof(rep), &len, status,
		   timeout_ms, long_call);
	if (ret != HIL_OK) {
		return ret;
	}
	if (len > 1) {
		memcpy(reply, rep + 1, len - 1);
	}
	if (reply_len != NULL) {
		*reply_len = len - 1;
	}
	return HIL_OK;
}

int hil_session_call(struct hil_session *s, uint8_t cmd, uint8_t scmd,
		     const uint8_t *payload, size_t plen, uint8_t *reply,
		     size_t cap, size_t *reply_len, uint8_t *status,
		     unsigned timeout_ms)
{
	return call_payload(s, cmd, scmd, payload, plen, reply, cap, reply_len,
			    status, timeout_ms, 0);
}

int hil_session_call_long(struct hil_session *s, uint8_t cmd, uint8_t scmd,
			  const uint8_t *payload, size_t plen, uint8_t *reply,
			  size_t cap, size_t *reply_len, uint8_t *status,
			  unsigned timeout_ms)
{
	return call_payload(s, cmd, scmd, payload, plen, reply, cap, reply_len,
			    status, timeout_ms, 1);
}

/*
 * A long command's reply did not come in time: the target may still be
 * computing, and a second request would only queue behind the first (or,
 * on a board, be lost to its UART) and run the measurement again. Wait
 * once more for the same sequence number, sending nothing.
 */
static int await_long(struct hil_session *s, uint8_t cmd, uint8_t seq,
		      uint8_t *reply, size_t cap, size_t *reply_len,
		      uint8_t *status, unsigned timeout_ms,
		      enum attempt *outcome)
{
	unsigned wait;
	int heard = 0;
	int ret = HIL_OK;

	for (wait = 0; wait < 2; wait++) {
		uint64_t t0 = now_ns();

		if (wait > 0) {
			hil_warn(
				"%s on %s: no reply within %u ms; waiting up to %u ms more for it before declaring the target hung",
				hil_session_cmd_name(cmd),
				hil_link_where(s->link), timeout_ms,
				timeout_ms);
		}
		ret = await(s, seq, reply, cap, reply_len, status, timeout_ms,
			    outcome, &heard);
		if (ret != HIL_OK || *outcome != ATTEMPT_TIMEOUT ||
		    s->last.board_down) {
			return ret; /* the probe cut the wait short */
		}
		s->stats.long_timeouts++;
		s->stats.long_timeout_ns += now_ns() - t0;
		if (heard) {
			/*
			 * Bytes came, but no usable reply: the stub sends
			 * nothing until it has finished (a fault report aside),
			 * so it is done and idle, its answer lost on the link.
			 * Asking again runs the measurement again, but never
			 * beside the first.
			 */
			*outcome = ATTEMPT_DAMAGED;
			return HIL_OK;
		}
		if (board_down(s)) {
			/* A stopped or dead emulator sends nothing late:
			 * the second wait would only add its length. */
			return HIL_OK;
		}
	}
	return ret;
}

/* The attempts of one call: send, await, retry on damage or silence. */
static int call_attempts(struct hil_session *s, uint8_t cmd, uint8_t scmd,
			 const uint8_t *msg, size_t mlen, uint8_t *reply,
			 size_t cap, size_t *reply_len, uint8_t *status,
			 unsigned timeout_ms, int long_call)
{
	uint8_t data[HILP_MAX_DATA];
	uint8_t frame[HILP_MAX_FRAME + 1];
	unsigned attempt;
	unsigned counted = 0;	    /* attempts that count against retries */
	unsigned free_damaged = 0;  /* damaged ones that did not */
	unsigned wait = timeout_ms; /* this attempt's */
	int heard = 0;		    /* bytes came, not our reply */
	int ret;

	memset(&s->last, 0, sizeof(s->last));
	for (attempt = 0; counted <= s->retries; attempt++) {
		enum attempt outcome = ATTEMPT_TIMEOUT;
		size_t n;
		uint8_t seq = ++s->seq;

		if (attempt > 0) {
			s->stats.retries++;
			hil_dbg("%s: retry %u (%u of %u after silence, %u after damage)",
				hil_session_cmd_name(cmd), attempt, counted,
				s->retries, free_damaged);
		}
		s->last.attempts++;
		heard = 0;
		/* The sequence byte is the session's: the codec left its
		 * slot, the first byte of the message. */
		memcpy(data, msg, mlen);
		data[0] = seq;
		n = hilp_encode_request(cmd, scmd, data, mlen, frame);
		/*
		 * A second 0x00: if the frame's own was lost or damaged, this
		 * one ends the frame and the target says it was damaged at
		 * once, instead of waiting for more and leaving us to time
		 * out. Otherwise it is a lone 0x00, which the stub ignores.
		 */
		frame[n++] = 0;
		ret = resync(s);
		if (ret == HIL_OK) {
			s->stats.bytes_tx += n;
			ret = hil_link_write(s->link, frame, n, s->timeout_ms);
		}
		if (ret == HIL_OK && long_call) {
			ret = await_long(s, cmd, seq, reply, cap, reply_len,
					 status, timeout_ms, &outcome);
		} else if (ret == HIL_OK) {
			if (wait > s->stats.longest_wait_ms) {
				s->stats.longest_wait_ms = wait;
			}
			ret = await(s, seq, reply, cap, reply_len, status, wait,
				    &outcome, &heard);
		}
		if (ret == HIL_ERR_INTERRUPTED) {
			hil_info("%s on %s: stopped waiting for the reply",
				 hil_session_cmd_name(cmd),
				 hil_link_where(s->link));
			return ret;
		}
		if (ret != HIL_OK) {
			hil_err("%s on %s: %s", hil_session_cmd_name(cmd),
				hil_link_where(s->link), hil_strerror(ret));
			return ret;
		}
		if (outcome == ATTEMPT_DONE) {
			if (attempt == 0) {
				chunk_better(s);
			}
			return HIL_OK;
		}
		if (outcome == ATTEMPT_TIMEOUT) {
			s->stats.timeouts++;
		}
		if (outcome == ATTEMPT_DAMAGED) {
			s->last.damaged++;
		} else if (heard) {
			s->last.late++;
		} else {
			s->last.silent++;
		}
		/* The target answered, damaged: it is alive and the link at
		 * fault, and asking again costs no timeout. */
		if (outcome == ATTEMPT_DAMAGED && !s->quiet &&
		    free_damaged < HIL_SESSION_DAMAGE_RETRIES) {
			free_damaged++;
		} else {
			counted++;
		}
		if (outcome == ATTEMPT_TIMEOUT && heard && !long_call) {
			/* Bytes came, but not our reply in time: an earlier
			 * attempt's reply arriving late, a target or a
			 * machine slower than the timeout. The next wait is
			 * longer. Plain silence (a lost frame, or a hung
			 * target) and damage keep the wait. */
			wait = wait <= timeout_ms * (HIL_SESSION_BACKOFF_MAX /
						     2)
				       ? wait * 2
				       : timeout_ms * HIL_SESSION_BACKOFF_MAX;
		}
		chunk_worse(s);
		if (outcome == ATTEMPT_TIMEOUT && !heard &&
		    (s->last.board_down || board_down(s))) {
			hil_err("%s on %s: no reply, and the board behind the link cannot answer (see above): not waiting any longer",
				hil_session_cmd_name(cmd),
				hil_link_where(s->link));
			return HIL_ERR_TIMEOUT;
		}
		if (outcome == ATTEMPT_TIMEOUT && long_call) {
			/* Never sent again while it may still be running. */
			hil_err("%s on %s: no reply within twice %u ms: the target is taken as hung",
				hil_session_cmd_name(cmd),
				hil_link_where(s->link), timeout_ms);
			return HIL_ERR_TIMEOUT;
		}
	}
	hil_log(s->quiet ? HIL_LOG_DBG : HIL_LOG_ERR, HIL_LOG_PREFIX,
		"no valid reply from the target on %s to %s after %u attempt%s of %u ms (doubled after a late reply, up to %u ms): %u answered damaged, %u late, %u silent",
		hil_link_where(s->link), hil_session_cmd_name(cmd),
		s->last.attempts, s->last.attempts != 1 ? "s" : "", timeout_ms,
		timeout_ms * HIL_SESSION_BACKOFF_MAX, s->last.damaged,
		s->last.late, s->last.silent);
	return HIL_ERR_TIMEOUT;
}

/* What one attempt of a stream ended with, beside an error. */
enum stream_end {
	STREAM_DONE,   /* the status came */
	STREAM_RESEND, /* nothing of ours came yet: the request again */
};

/* Read the replies of seq until its status; see hil_session_stream(). */
static int stream_await(struct hil_session *s, uint8_t cmd, uint8_t seq,
			hil_session_reply_fn fn, void *arg, uint8_t *status,
			unsigned timeout_ms, unsigned *replies,
			enum stream_end *end)
{
	long long deadline = now_ms() + timeout_ms;
	uint8_t buf[256];

	for (;;) {
		long long left = deadline - now_ms();
		int n, i;

		if (left <= 0) {
			s->stats.timeouts++;
			if (*replies == 0) {
				s->last.silent++;
				*end = STREAM_RESEND;
				return HIL_OK;
			}
			hil_err("%s on %s: nothing for %u ms after %u replies: the target stopped answering (hung, reset or its link lost)",
				hil_session_cmd_name(cmd),
				hil_link_where(s->link), timeout_ms, *replies);
			return HIL_ERR_TIMEOUT;
		}
		if (s->stop != NULL && *s->stop) {
			return HIL_ERR_INTERRUPTED;
		}
		if (left > STOP_SLICE_MS) {
			left = STOP_SLICE_MS;
		}
		n = hil_link_read(s->link, buf, sizeof(buf), (unsigned)left);
		if (n < 0) {
			hil_err("%s on %s: the link failed after %u replies: %s",
				hil_session_cmd_name(cmd),
				hil_link_where(s->link), *replies,
				hil_strerror(n));
			return n;
		}
		if (n == 0 && s->probe != NULL && board_down(s)) {
			hil_err("%s on %s: the board behind the link cannot answer (see above), after %u replies",
				hil_session_cmd_name(cmd),
				hil_link_where(s->link), *replies);
			return HIL_ERR_TIMEOUT;
		}
		s->stats.bytes_rx += (uint64_t)n;
		for (i = 0; i < n; i++) {
			struct hilp_packet p;
			int r = hilp_rx_push(&s->rx, buf[i]), ret;

			if (r == 0 || (r > 0 && s->rx.len == 0)) {
				continue;
			}
			if (r < 0 || hilp_decode_reply(s->rx.buf, s->rx.len,
						       &p) != HILP_ST_OK) {
				hilp_rx_init(&s->rx);
				s->stats.bad_frames++;
				if (*replies == 0) {
					continue; /* its status says more */
				}
				hil_err("%s on %s: a damaged frame after %u replies: what follows cannot be placed, the stream is given up",
					hil_session_cmd_name(cmd),
					hil_link_where(s->link), *replies);
				return HIL_ERR_PROTO;
			}
			hilp_rx_init(&s->rx);
			if (p.cmd == HILP_REPLY && p.dlen == 18 &&
			    p.data[1] == HILP_ST_FAULT) {
				note_fault(s, &p);
				continue;
			}
			if (p.cmd == HILP_REPLY && p.dlen >= 1 &&
			    p.data[0] == seq) {
				ret = fn(arg, p.data, p.dlen);
				++*replies;
				deadline = now_ms() + timeout_ms;
				if (ret != HIL_OK) {
					return ret;
				}
				continue;
			}
			if (p.cmd != HILP_ERROR || p.dlen != 1) {
				continue; /* a stale reply */
			}
			if (*replies > 0 || p.data[0] == HILP_ST_FAULT ||
			    p.data[0] == HILP_ST_BAD_CMD) {
				*status = p.data[0];
				*end = STREAM_DONE;
				return HIL_OK;
			}
			if (status_means_damage(p.data[0])) {
				s->stats.target_rejects++;
				s->last.damaged++;
				*end = STREAM_RESEND;
				return HIL_OK;
			}
			/* Another status without a reply of ours: an
			 * earlier request's, late. */
		}
	}
}

int hil_session_stream(struct hil_session *s, uint8_t cmd, uint8_t scmd,
		       const uint8_t *msg, size_t mlen, hil_session_reply_fn fn,
		       void *arg, uint8_t *status, unsigned timeout_ms)
{
	uint8_t data[HILP_MAX_DATA];
	uint8_t frame[HILP_MAX_FRAME + 1];
	unsigned attempt, replies = 0;
	uint64_t t0 = now_ns();
	int ret = HIL_OK;

	if (mlen < 1 || mlen > HILP_MAX_DATA) {
		hil_err("%s payload of %zu bytes does not fit in a frame",
			hil_session_cmd_name(cmd), mlen > 0 ? mlen - 1 : 0);
		return HIL_ERR_ARG;
	}
	if (timeout_ms == 0) {
		timeout_ms = s->timeout_ms;
	}
	s->stats.requests++;
	s->stats.by_cmd[cmd % HIL_SESSION_CMD_SLOTS]++;
	memset(&s->last, 0, sizeof(s->last));
	for (attempt = 0; attempt <= s->retries; attempt++) {
		enum stream_end end = STREAM_RESEND;
		size_t n;

		if (attempt > 0) {
			s->stats.retries++;
		}
		s->last.attempts++;
		memcpy(data, msg, mlen);
		data[0] = ++s->seq;
		n = hilp_encode_request(cmd, scmd, data, mlen, frame);
		frame[n++] = 0; /* as call_attempts(): ends a damaged frame */
		ret = resync(s);
		if (ret == HIL_OK) {
			s->stats.bytes_tx += n;
			ret = hil_link_write(s->link, frame, n, s->timeout_ms);
		}
		if (ret == HIL_OK) {
			ret = stream_await(s, cmd, data[0], fn, arg, status,
					   timeout_ms, &replies, &end);
		}
		if (ret != HIL_OK || end == STREAM_DONE) {
			s->stats.call_ns += now_ns() - t0;
			return ret;
		}
		if (s->last.board_down ||
		    (s->last.silent > 0 && board_down(s))) {
			break;
		}
	}
	s->stats.call_ns += now_ns() - t0;
	hil_err("no answer to %s on %s after %u attempt%s of %u ms (%u answered damaged, %u silent)%s",
		hil_session_cmd_name(cmd), hil_link_where(s->link),
		s->last.attempts, s->last.attempts != 1 ? "s" : "", timeout_ms,
		s->last.damaged, s->last.silent,
		s->last.board_down ? ": the board behind the link cannot answer"
				   : "");
	return HIL_ERR_TIMEOUT;
}

int hil_session_handshake(struct hil_session *s, unsigned total_ms,
			  struct hilp_info *info)
{
	long long deadline = now_ms() + total_ms;
	const uint8_t msg[1] = {0}; /* INFO: the sequence byte alone */
	uint8_t reply[HILP_MAX_DATA];
	size_t len = 0;
	uint8_t status = 0;
	unsigned saved = s->retries;
	int ret = HIL_ERR_TIMEOUT;

	/* One attempt at a time, quietly, until the deadline. */
	s->retries = 0;
	s->quiet = 1;
	s->v2_frames = 0;
	while (now_ms() < deadline) {
		long long left = deadline - now_ms();
		unsigned t = left < 200 ? (unsigned)left : 200;
		int call_ret;

		if (t == 0) {
			break;
		}
		call_ret = hil_session_exchange(
			s, HILP_CMD_INFO, 0, msg, sizeof(msg), reply,
			sizeof(reply), &len, &status, t);
		if (call_ret == HIL_OK) {
			ret = HIL_OK;
			break;
		}
		if (call_ret != HIL_ERR_TIMEOUT) {
			ret = call_ret;
			break;
		}
		/*
		 * A stub built before protocol 3 reads our CRC-16 frames as
		 * one byte too long and answers each with a well-formed CRC-8
		 * ['e', BAD_LEN]. Two of them (damage makes one such frame
		 * in some 65536 at most) and no answer of ours: waiting out
		 * the deadline would only end in "did not answer".
		 */
		if (s->v2_frames >= 2) {
			ret = HIL_ERR_MISMATCH;
			break;
		}
	}
	s->retries = saved;
	s->quiet = 0;
	/* Polling a booting target is not a fault of the link: the counters
	 * speak of the session from here on. */
	memset(&s->stats, 0, sizeof(s->stats));
	if (ret == HIL_ERR_MISMATCH) {
		hil_err("the stub on %s speaks protocol 2 or older (CRC-8 frames), hilrun protocol %u (CRC-16): rebuild the firmware from this tree and flash it",
			hil_link_where(s->link), HILP_PROTOCOL_VERSION);
		return ret;
	}
	if (ret != HIL_OK) {
		hil_err("the target on %s did not answer INFO within %u ms",
			hil_link_where(s->link), total_ms);
		return ret;
	}
	if (hilp_info_decode(reply, len, info) != 0) {
		hil_err("the target's INFO reply is malformed (%zu bytes)",
			len - 1);
		return HIL_ERR_PROTO;
	}
	if (status != HILP_ST_OK) {
		hil_err("the target reports a boot problem: %s",
			hil_session_status_text(status));
		return HIL_ERR_TARGET;
	}
	return HIL_OK;
}
