/* session: request/reply over the protocol with sequence numbers, timeouts, resync and bounded retries. */
#ifndef HIL_SESSION_H
#define HIL_SESSION_H

#include <stddef.h>
#include <stdint.h>

#include "hilp.h"
#include "link/link.h"

struct hil_session;

/* Counters of what the session had to recover from, for the report. */
struct hil_session_stats {
	unsigned requests;
	unsigned retries;
	unsigned bad_frames; /* replies that failed COBS, length or CRC */
	unsigned timeouts;
	unsigned target_rejects; /* target said our frame was damaged */
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
 * One command with a sequence byte: sends [cmd, scmd, seq, payload...],
 * waits for the reply ['r', seq, ...] and the status packet ['e', status].
 * Damaged or missing replies are retried after a resync; the target's own
 * status is returned, not retried.
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
 * Wait until the target answers INFO, for at most total_ms: the stub may
 * still be booting or may have missed bytes sent before its UART was on.
 * @return HIL_OK with info filled, or HIL_ERR_TIMEOUT.
 */
int hil_session_handshake(struct hil_session *s, unsigned total_ms,
			  struct hilp_info *info);

const struct hil_session_stats *
hil_session_get_stats(const struct hil_session *s);
const struct hil_session_fault *
hil_session_get_fault(const struct hil_session *s);

/** Name of a command byte for messages, e.g. "BENCH". */
const char *hil_session_cmd_name(uint8_t cmd);

/** Text of a wire status, e.g. "buffer too small for the request". */
const char *hil_session_status_text(uint8_t status);

#endif /* HIL_SESSION_H */
