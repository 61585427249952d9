/* session: request/reply over the protocol with sequence numbers, timeouts, resync and bounded retries. */
#ifndef HIL_SESSION_H
#define HIL_SESSION_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "hilp.h"
#include "drivers/link/link.h"

struct hil_session;

/* Slots of hil_session_stats.by_cmd: one per 7-bit command byte. */
#define HIL_SESSION_CMD_SLOTS 128u

/* Counters of what the session had to recover from, for the report. */
struct hil_session_stats {
	unsigned requests;
	/* Requests by command byte (commands are ASCII letters), for the
	 * report's breakdown of where the round trips go. */
	unsigned by_cmd[HIL_SESSION_CMD_SLOTS];
	/* Bytes written to and read from the link by the session: frames,
	 * delimiters and resynchronising 0x00 included (the wire's load). */
	uint64_t bytes_tx;
	uint64_t bytes_rx;
	unsigned retries;
	unsigned bad_frames; /* replies that failed COBS, length or CRC */
	unsigned timeouts;
	unsigned target_rejects; /* target said our frame was damaged */
	/* Wall time inside hil_session_call(), and the part of it spent
	 * waiting from the end of a request to the first byte of a reply
	 * (the target computing, plus one link latency). */
	uint64_t call_ns;
	uint64_t wait_ns;
	/* Waits of hil_session_call_long() (BENCH) that ran out before the
	 * reply, and the time spent in them: the target computing longer
	 * than its timeout, or hung; not time on the link. */
	unsigned long_timeouts;
	uint64_t long_timeout_ns;
	/* The longest wait for one reply: an attempt that heard bytes but not
	 * its reply in time (a late reply) doubles the next attempt's wait,
	 * up to HIL_SESSION_BACKOFF_MAX times the timeout, so a slow machine
	 * is waited for, while a lost frame or a hung target is not. */
	unsigned longest_wait_ms;
};

#define HIL_SESSION_BACKOFF_MAX 8u

/*
 * Attempts of one call that the target answered, damaged (its reply failed
 * its checks, or it said our request arrived damaged), that are not counted
 * against link.retries: they cost no timeout, and they prove the target
 * alive and the link at fault. At one byte in a hundred damaged each way,
 * a small request is lost about one attempt in three: four attempts lose
 * one call in sixty, twenty one in 10^9.
 */
#define HIL_SESSION_DAMAGE_RETRIES 16u

/*
 * How the attempts of the last call ended: what tells a link that damages
 * frames (the target answers, damaged) from a target that answers nothing.
 */
struct hil_session_call_end {
	unsigned attempts;
	unsigned damaged; /* a damaged reply, or the target said ours was */
	unsigned late;	  /* bytes came, but not the reply, in time */
	unsigned silent;  /* nothing at all came back */
	int board_down;	  /* the probe said the board cannot answer */
};

/* The last fault the target reported (HILP_ST_FAULT), if any. */
struct hil_session_fault {
	int seen;
	uint32_t pc, cfsr, hfsr, bfar;
};

/**
 * Start a session on an open link (borrowed: the caller closes it after
 * hil_session_close).
 * @param timeout_ms default reply timeout; @param retries extra attempts.
 * @return HIL_OK or HIL_ERR_NOMEM.
 */
int hil_session_open(struct hil_session **out, struct hil_link *link,
		     unsigned timeout_ms, unsigned retries);
void hil_session_close(struct hil_session *s);

/**
 * A flag (set by hilrun's SIGTERM/SIGINT handler) that ends any wait for a
 * reply within about 100 ms with HIL_ERR_INTERRUPTED, however long the
 * request's timeout. NULL (the default) waits out the timeout.
 */
void hil_session_set_stop(struct hil_session *s,
			  const volatile sig_atomic_t *stop);

/**
 * A check of the board behind the link (the emulator alive and running),
 * asked whenever a wait for a reply runs out in silence. When it says the
 * board cannot answer (a stopped or dead emulator), the call ends there with
 * HIL_ERR_TIMEOUT and hil_session_last_call()'s board_down set, instead of
 * waiting out its retries or a BENCH's second wait for a reply that cannot
 * come. @param probe returns HIL_OK while the board may answer; NULL: none.
 */
void hil_session_set_probe(struct hil_session *s, int (*probe)(void *arg),
			   void *arg);

/** How the attempts of the last call ended (for the runner's verdict). */
const struct hil_session_call_end *
hil_session_last_call(const struct hil_session *s);

/**
 * Whether the last call, if it failed, was lost to the link rather than to
 * a target that answers nothing: the target answered in at least as many
 * attempts as heard nothing (damaged frames, its complaint that ours was
 * damaged, bytes that were not the reply). A call that heard only silence,
 * or one stale byte and then silence (a hung target), is not.
 */
int hil_session_last_call_heard(const struct hil_session *s);

/**
 * One command with a sequence byte: sends [cmd, scmd, seq, payload...],
 * waits for the reply ['r', seq, ...] and the status packet ['e', status].
 * Damaged or missing replies are retried after a resync (damaged ones up
 * to HIL_SESSION_DAMAGE_RETRIES more times than link.retries); the target's
 * own status is returned, not retried.
 * @param reply receives the reply data after the sequence byte (cap bytes);
 *        may be NULL when cap is 0.
 * @param reply_len receives its length (may be NULL).
 * @param status receives the target's status (HILP_ST_*).
 * @param timeout_ms 0 for the session default.
 * @return HIL_OK when a status was received (check *status), HIL_ERR_TIMEOUT
 *         naming the link and command after the last retry, HIL_ERR_IO.
 */
int hil_session_call(struct hil_session *s, uint8_t cmd, uint8_t scmd,
		     const uint8_t *payload, size_t plen, uint8_t *reply,
		     size_t cap, size_t *reply_len, uint8_t *status,
		     unsigned timeout_ms);

/**
 * As hil_session_call(), with the command's data as the protocol codec
 * encodes it (hilp_*_encode with seq 0): the first byte is the sequence
 * slot, which the session fills in; reply receives the reply's data with
 * its sequence byte first, ready for the codec's decoders.
 * @param mlen at least 1 (the slot); cap at least 1.
 */
int hil_session_exchange(struct hil_session *s, uint8_t cmd, uint8_t scmd,
			 const uint8_t *msg, size_t mlen, uint8_t *reply,
			 size_t cap, size_t *reply_len, uint8_t *status,
			 unsigned timeout_ms);

/** hil_session_exchange() for a long command, as hil_session_call_long(). */
int hil_session_exchange_long(struct hil_session *s, uint8_t cmd, uint8_t scmd,
			      const uint8_t *msg, size_t mlen, uint8_t *reply,
			      size_t cap, size_t *reply_len, uint8_t *status,
			      unsigned timeout_ms);

/**
 * A command that may run long on the target (BENCH): as hil_session_call(),
 * except that it is never sent again while the target may still be running
 * it. The stub answers nothing while it computes (it polls its UART between
 * commands only), so when no reply comes within timeout_ms the session
 * waits once more, up to timeout_ms, for the late reply, sending nothing,
 * and then gives up with HIL_ERR_TIMEOUT for the caller's recovery ladder.
 * Only a request the target said was damaged, or a reply that arrived
 * damaged (the target is done and idle then), is sent again.
 * @param timeout_ms the timeout sized for the work (0: session default).
 */
int hil_session_call_long(struct hil_session *s, uint8_t cmd, uint8_t scmd,
			  const uint8_t *payload, size_t plen, uint8_t *reply,
			  size_t cap, size_t *reply_len, uint8_t *status,
			  unsigned timeout_ms);

/**
 * What hil_session_stream() hands each reply to: its data, sequence byte
 * first, as the codec decodes it. A return other than HIL_OK ends the
 * stream with that code (the callback logs why).
 */
typedef int (*hil_session_reply_fn)(void *arg, const uint8_t *data, size_t len);

/**
 * A command answered by a stream of replies before its status (the pq
 * stub's PQRUN): sends [cmd, scmd, seq, msg[1..]] and hands every reply
 * with its sequence number to fn as it comes, until the status packet.
 * Each reply (and the status) must come within timeout_ms of the one
 * before it, the first within timeout_ms of the request. The request is
 * sent again (up to link.retries times) only before any reply came: when
 * the target said it arrived damaged, or nothing came at all. Once replies
 * have come, a damaged frame or a silence ends the stream with an error
 * that says after how many replies: what fn received stands.
 * A fault report is recorded (hil_session_get_fault()) and its status
 * 0x16 ends the stream.
 * @param msg the command's data with its sequence slot first (mlen >= 1).
 * @param status receives the target's status (HILP_ST_*).
 * @return HIL_OK when the status came; HIL_ERR_TIMEOUT (a silence, or the
 *         board behind the link cannot answer); HIL_ERR_PROTO (a damaged
 *         frame amid the replies); HIL_ERR_INTERRUPTED; HIL_ERR_IO; or
 *         fn's code.
 */
int hil_session_stream(struct hil_session *s, uint8_t cmd, uint8_t scmd,
		       const uint8_t *msg, size_t mlen, hil_session_reply_fn fn,
		       void *arg, uint8_t *status, unsigned timeout_ms);

/**
 * Wait until the target answers INFO, for at most total_ms: the stub may
 * still be booting or may have missed bytes sent before its UART was on.
 * @return HIL_OK with info filled, HIL_ERR_TIMEOUT, or HIL_ERR_MISMATCH when
 *         the stub frames its packets as protocol 2 did (CRC-8): it must be
 *         rebuilt (the message says so).
 */
int hil_session_handshake(struct hil_session *s, unsigned total_ms,
			  struct hilp_info *info);

/* The smallest chunk hil_session_chunk() suggests. */
#define HIL_SESSION_MIN_CHUNK 16u

/**
 * How many payload bytes one LOAD or FETCH should carry now. On a clean
 * link: max. Every damaged or lost attempt halves it (down to
 * HIL_SESSION_MIN_CHUNK), every 16 calls answered at the first attempt
 * double it again (up to max): on a link that damages one byte in a
 * hundred, a full 250-byte frame arrives whole one time in twelve, a
 * 20-byte one four times in five.
 * @param max the largest payload the caller's command takes.
 * @return a size from min(max, HIL_SESSION_MIN_CHUNK) to max.
 */
size_t hil_session_chunk(const struct hil_session *s, size_t max);

/**
 * Whether this session has seen the link damage a frame since the
 * handshake: a reply that failed its checks, or the target saying that our
 * request did (a silence alone is no evidence: the target may hang). The
 * framing's CRC-16 catches every burst of up to 16 bits but lets about one
 * damaged frame in 65536 through when the damage is spread wider, so on
 * such a link callers still check what matters end to end
 * (hil_target_fetch reads until two reads agree; the runner measures a
 * failed row again).
 * @return 1 or 0; it never goes back to 0 for this session.
 */
int hil_session_damaged(const struct hil_session *s);

const struct hil_session_stats *
hil_session_get_stats(const struct hil_session *s);
const struct hil_session_fault *
hil_session_get_fault(const struct hil_session *s);

/** Name of a command byte for messages, e.g. "BENCH". */
const char *hil_session_cmd_name(uint8_t cmd);

/** Text of a wire status, e.g. "buffer too small for the request". */
const char *hil_session_status_text(uint8_t status);

#endif /* HIL_SESSION_H */
