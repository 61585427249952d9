/* Unit tests of the session layer against a scripted peer on a socketpair: replies, stale frames, damage, retries, silence. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <pthread.h>
#include <sys/socket.h>
#include <unistd.h>

#include "util/err.h"
#include "hilp.h"
#include "drivers/link/link.h"
#include "session/session.h"
#include "unit_util.h"

/* What the scripted peer does with each request it receives, in order. */
enum peer_action {
	PEER_REPLY,	       /* ['r', seq, 0xAB] then ['e', 0] */
	PEER_STALE_THEN_REPLY, /* a reply with a wrong seq and an 'e' 0 first */
	PEER_CORRUPT_REPLY,    /* the reply frame with one byte flipped */
	PEER_REJECT_CRC,     /* only ['e', BAD_CRC]: "your frame was damaged" */
	PEER_STATUS_ONLY,    /* only ['e', BAD_CMD] */
	PEER_SILENT,	     /* nothing */
	PEER_FAULT,	     /* the 18-byte fault report, then ['e', FAULT] */
	PEER_CORRUPT_STATUS, /* the reply, then the status with a byte flipped */
	/* ['e', CRYPTO_FAIL] first (the status of an EXEC we gave up on), then
	 * the reply and ['e', 0] */
	PEER_STALE_STATUS_THEN_REPLY,
	/* A protocol 2 stub: reads our frame as one byte too long and answers
	 * ['e', BAD_LEN] with SimpleSerial's CRC-8 */
	PEER_PROTOCOL_2,
	/* LATE_MS of silence (a BENCH running past its timeout), then the
	 * reply and ['e', 0] */
	PEER_LATE,
	/* the reply and the status, both damaged, then nothing */
	PEER_CORRUPT_BOTH,
	/* only a reply with a wrong seq and its ['e', 0]: an earlier
	 * attempt's reply arriving late, ours not in time */
	PEER_STALE_ONLY,
	/* A stream (PQRUN): three replies [seq, 0, i], then ['e', 0] */
	PEER_STREAM,
	/* A stream whose second reply arrives damaged */
	PEER_STREAM_DAMAGED,
	/* A stream that stops after two replies (a board that died) */
	PEER_STREAM_STOPS,
};

/* PEER_LATE's delay: 1.5 timeouts of the late-reply tests, half a timeout
 * from either end of the second wait. */
#define LATE_TIMEOUT_MS 1000u
#define LATE_MS		1500u

struct peer {
	int fd;
	const enum peer_action *script;
	size_t n;
	size_t requests;   /* requests seen (frames that decoded) */
	size_t lone_zeros; /* resync bytes seen */
};

static void *peer_main(void *arg)
{
	struct peer *p = arg;
	struct hilp_rx rx;
	uint8_t buf[512];

	hilp_rx_init(&rx);
	for (;;) {
		ssize_t n = read(p->fd, buf, sizeof(buf));
		ssize_t i;

		if (n <= 0) {
			return NULL;
		}
		for (i = 0; i < n; i++) {
			struct hilp_packet pkt;
			enum peer_action a;
			uint8_t d[18];
			uint8_t st;

			if (hilp_rx_push(&rx, buf[i]) != 1) {
				continue;
			}
			if (rx.len == 0) {
				p->lone_zeros++;
				continue;
			}
			st = hilp_decode_request(rx.buf, rx.len, &pkt);
			hilp_rx_init(&rx);
			if (st != HILP_ST_OK) {
				continue;
			}
			a = p->requests < p->n ? p->script[p->requests]
					       : PEER_REPLY;
			p->requests++;
			d[0] = pkt.data[0];
			d[1] = 0xAB;
			switch (a) {
			case PEER_REPLY:
				ut_send_reply(p->fd, HILP_REPLY, d, 2, 0);
				st = HILP_ST_OK;
				ut_send_reply(p->fd, HILP_ERROR, &st, 1, 0);
				break;
			case PEER_STALE_ONLY:
				d[0] = (uint8_t)(pkt.data[0] - 1);
				ut_send_reply(p->fd, HILP_REPLY, d, 2, 0);
				st = HILP_ST_OK;
				ut_send_reply(p->fd, HILP_ERROR, &st, 1, 0);
				break;
			case PEER_STALE_THEN_REPLY:
				d[0] = (uint8_t)(pkt.data[0] - 7);
				ut_send_reply(p->fd, HILP_REPLY, d, 2, 0);
				st = HILP_ST_OK;
				ut_send_reply(p->fd, HILP_ERROR, &st, 1, 0);
				d[0] = pkt.data[0];
				ut_send_reply(p->fd, HILP_REPLY, d, 2, 0);
				ut_send_reply(p->fd, HILP_ERROR, &st, 1, 0);
				break;
			case PEER_CORRUPT_REPLY:
				ut_send_reply(p->fd, HILP_REPLY, d, 2, 1);
				st = HILP_ST_OK;
				ut_send_reply(p->fd, HILP_ERROR, &st, 1, 0);
				break;
			case PEER_STALE_STATUS_THEN_REPLY:
				st = HILP_ST_CRYPTO_FAIL;
				ut_send_reply(p->fd, HILP_ERROR, &st, 1, 0);
				ut_send_reply(p->fd, HILP_REPLY, d, 2, 0);
				st = HILP_ST_OK;
				ut_send_reply(p->fd, HILP_ERROR, &st, 1, 0);
				break;
			case PEER_REJECT_CRC:
				st = HILP_ST_BAD_CRC;
				ut_send_reply(p->fd, HILP_ERROR, &st, 1, 0);
				break;
			case PEER_STATUS_ONLY:
				st = HILP_ST_BAD_CMD;
				ut_send_reply(p->fd, HILP_ERROR, &st, 1, 0);
				break;
			case PEER_CORRUPT_STATUS:
				ut_send_reply(p->fd, HILP_REPLY, d, 2, 0);
				st = HILP_ST_OK;
				ut_send_reply(p->fd, HILP_ERROR, &st, 1, 1);
				break;
			case PEER_SILENT:
				break;
			case PEER_PROTOCOL_2: {
				/* 'e', 1, 0x04, CRC-8 0x92, COBS-encoded */
				static const uint8_t v2[] = {0x05, 'e',	 0x01,
							     0x04, 0x92, 0x00};

				assert_int_equal(write(p->fd, v2, sizeof(v2)),
						 (ssize_t)sizeof(v2));
				break;
			}
			case PEER_CORRUPT_BOTH:
				ut_send_reply(p->fd, HILP_REPLY, d, 2, 1);
				st = HILP_ST_OK;
				ut_send_reply(p->fd, HILP_ERROR, &st, 1, 1);
				break;
			case PEER_LATE:
				ut_sleep_ms(LATE_MS);
				ut_send_reply(p->fd, HILP_REPLY, d, 2, 0);
				st = HILP_ST_OK;
				ut_send_reply(p->fd, HILP_ERROR, &st, 1, 0);
				break;
			case PEER_STREAM:
			case PEER_STREAM_DAMAGED:
			case PEER_STREAM_STOPS: {
				uint8_t k;

				for (k = 0; k < 3; k++) {
					d[1] = 0;
					d[2] = k;
					if (a == PEER_STREAM_STOPS && k == 2) {
						break;
					}
					/* After a damaged record the session
					 * gives up and the test hangs up:
					 * what follows may find no reader. */
					(void)ut_try_send_reply(
						p->fd, HILP_REPLY, d, 3,
						a == PEER_STREAM_DAMAGED &&
							k == 1);
				}
				st = HILP_ST_OK;
				if (a != PEER_STREAM_STOPS) {
					(void)ut_try_send_reply(
						p->fd, HILP_ERROR, &st, 1, 0);
				}
				break;
			}
			case PEER_FAULT:
				memset(d, 0, sizeof(d));
				d[1] = HILP_ST_FAULT;
				hilp_put_u32(d + 2, 0x08000123u);
				hilp_put_u32(d + 6, 0x8200u);
				ut_send_reply(p->fd, HILP_REPLY, d, 18, 0);
				st = HILP_ST_FAULT;
				ut_send_reply(p->fd, HILP_ERROR, &st, 1, 0);
				break;
			}
		}
	}
}

struct fixture {
	struct peer peer;
	pthread_t thread;
	struct hil_link *link;
	struct hil_session *session;
	/* What call() got back; st starts at 0xFF, a status no test expects. */
	uint8_t st;
	uint8_t reply[8];
	size_t len;
};

static void start(struct fixture *f, const enum peer_action *script, size_t n,
		  unsigned timeout_ms, unsigned retries)
{
	int sv[2];

	memset(f, 0, sizeof(*f));
	f->st = 0xFF;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	f->peer.fd = sv[1];
	f->peer.script = script;
	f->peer.n = n;
	assert_int_equal(hil_link_from_fd(&f->link, sv[0], "test-peer"),
			 HIL_OK);
	assert_int_equal(pthread_create(&f->thread, NULL, peer_main, &f->peer),
			 0);
	assert_int_equal(
		hil_session_open(&f->session, f->link, timeout_ms, retries),
		HIL_OK);
}

/* Close the link and join the peer, so that its counters can be read. */
static void stop(struct fixture *f)
{
	hil_link_close(f->link); /* the peer's read returns 0 */
	pthread_join(f->thread, NULL);
	close(f->peer.fd);
}

static void finish(struct fixture *f)
{
	hil_session_close(f->session);
}

static int call(struct fixture *f)
{
	const uint8_t payload[] = {1, 2, 3};

	return hil_session_call(f->session, HILP_CMD_INFO, 0, payload,
				sizeof(payload), f->reply, sizeof(f->reply),
				&f->len, &f->st, 0);
}

static void test_call_returns_reply_after_sequence_byte(void **state)
{
	struct fixture f;

	(void)state;
	start(&f, NULL, 0, 500, 0);
	assert_int_equal(call(&f), HIL_OK);
	assert_int_equal(f.st, HILP_ST_OK);
	assert_int_equal(f.len, 1);
	assert_int_equal(f.reply[0], 0xAB);
	stop(&f);
	assert_true(f.peer.lone_zeros >= 1); /* resync before the request */
	finish(&f);
}

/*
 * The counters of the wire: one INFO request with a 3-byte payload is
 * 1 + 3 + 1 data bytes... as a frame of header, data and CRC, COBS-coded
 * (one byte more, whatever the bytes) and its 0x00, after a resync 0x00
 * and with a second 0x00 behind it; the reply and the status come back.
 */
static void test_stats_count_requests_by_command_and_bytes(void **state)
{
	const size_t req_frame = 3 + (1 + 3) + 2 + 1 + 1; /* [seq, 1, 2, 3] */
	const size_t rep_frame = 2 + 2 + 2 + 1 + 1;	  /* [seq, 0xAB] */
	const size_t st_frame = 2 + 1 + 2 + 1 + 1;	  /* [0] */
	const struct hil_session_stats *st;
	struct fixture f;

	(void)state;
	start(&f, NULL, 0, 500, 0);
	assert_int_equal(call(&f), HIL_OK);
	assert_int_equal(call(&f), HIL_OK);
	st = hil_session_get_stats(f.session);
	assert_int_equal(st->requests, 2);
	assert_int_equal(st->by_cmd[HILP_CMD_INFO], 2);
	assert_int_equal(st->by_cmd[HILP_CMD_BENCH], 0);
	assert_int_equal(st->bytes_tx, 2 * (1 + req_frame + 1));
	assert_int_equal(st->bytes_rx, 2 * (rep_frame + st_frame));
	stop(&f);
	finish(&f);
}

/*
 * Late replies (an earlier attempt's) and ours not in time: the machine is
 * slower than the timeout, so each such attempt doubles the next wait
 * (2 s, 4 s, 8 s). Plain silence keeps it: a lost frame or a hung target
 * costs no more than before. The waits are the session's own, not times
 * measured here.
 */
static void test_late_replies_lengthen_the_wait_silence_does_not(void **state)
{
	const enum peer_action late[] = {PEER_STALE_ONLY, PEER_STALE_ONLY,
					 PEER_REPLY};
	const enum peer_action silent[] = {PEER_SILENT, PEER_SILENT,
					   PEER_REPLY};
	struct fixture f;

	(void)state;
	start(&f, late, 3, 2000, 3);
	assert_int_equal(call(&f), HIL_OK);
	assert_int_equal(f.st, HILP_ST_OK);
	assert_int_equal(hil_session_get_stats(f.session)->retries, 2);
	assert_int_equal(hil_session_get_stats(f.session)->longest_wait_ms,
			 8000);
	stop(&f);
	finish(&f);
	start(&f, silent, 3, 2000, 3);
	assert_int_equal(call(&f), HIL_OK);
	assert_int_equal(hil_session_get_stats(f.session)->retries, 2);
	assert_int_equal(hil_session_get_stats(f.session)->longest_wait_ms,
			 2000);
	stop(&f);
	finish(&f);
}

static void test_stale_reply_with_other_sequence_is_ignored(void **state)
{
	const enum peer_action script[] = {PEER_STALE_THEN_REPLY};
	struct fixture f;

	(void)state;
	start(&f, script, 1, 500, 0);
	assert_int_equal(call(&f), HIL_OK);
	assert_int_equal(f.st, HILP_ST_OK);
	stop(&f);
	assert_int_equal(f.peer.requests, 1);
	assert_int_equal(hil_session_get_stats(f.session)->retries, 0);
	finish(&f);
}

/*
 * A status without our reply, other than "your frame was damaged" or an
 * unknown command, is an earlier attempt's: the stub answers every failure
 * after it read seq with [seq, status] first. Taking it as ours gave a LOAD
 * the 0x14 of the EXEC before it.
 */
static void test_stale_status_without_reply_is_ignored(void **state)
{
	const enum peer_action script[] = {PEER_STALE_STATUS_THEN_REPLY};
	struct fixture f;

	(void)state;
	start(&f, script, 1, 500, 0);
	assert_int_equal(call(&f), HIL_OK);
	assert_int_equal(f.st, HILP_ST_OK);
	assert_int_equal(f.len, 1);
	assert_int_equal(f.reply[0], 0xAB);
	stop(&f);
	assert_int_equal(f.peer.requests, 1);
	finish(&f);
}

static void test_corrupted_reply_is_retried(void **state)
{
	const enum peer_action script[] = {PEER_CORRUPT_REPLY};
	struct fixture f;

	(void)state;
	start(&f, script, 1, 300, 2);
	assert_int_equal(call(&f), HIL_OK);
	assert_int_equal(f.st, HILP_ST_OK);
	stop(&f);
	assert_int_equal(f.peer.requests, 2);
	assert_int_equal(hil_session_get_stats(f.session)->bad_frames, 1);
	assert_int_equal(hil_session_get_stats(f.session)->retries, 1);
	finish(&f);
}

/* Our reply damaged, then "ok": the reply is lost, ask again at once. */
static void test_damaged_reply_then_ok_is_retried_without_waiting(void **state)
{
	const enum peer_action script[] = {PEER_CORRUPT_REPLY};
	struct fixture f;
	uint64_t t0, dt;

	(void)state;
	start(&f, script, 1, 2 * UT_HANG_MS, 2);
	t0 = ut_ms_now();
	assert_int_equal(call(&f), HIL_OK);
	dt = ut_ms_now() - t0;
	assert_int_equal(f.st, HILP_ST_OK);
	assert_int_equal(f.reply[0], 0xAB);
	assert_true(dt < UT_HANG_MS); /* not the timeout */
	assert_int_equal(hil_session_get_stats(f.session)->timeouts, 0);
	assert_int_equal(hil_session_get_stats(f.session)->retries, 1);
	stop(&f);
	assert_int_equal(f.peer.requests, 2);
	finish(&f);
}

/* Our reply, then a damaged frame where the status belongs: ask again. */
static void
test_damaged_status_after_reply_is_retried_without_waiting(void **state)
{
	const enum peer_action script[] = {PEER_CORRUPT_STATUS};
	struct fixture f;
	uint64_t t0, dt;

	(void)state;
	start(&f, script, 1, 2 * UT_HANG_MS, 2);
	t0 = ut_ms_now();
	assert_int_equal(call(&f), HIL_OK);
	dt = ut_ms_now() - t0;
	assert_int_equal(f.st, HILP_ST_OK);
	assert_true(dt < UT_HANG_MS); /* not the timeout */
	assert_int_equal(hil_session_get_stats(f.session)->timeouts, 0);
	assert_int_equal(hil_session_get_stats(f.session)->bad_frames, 1);
	stop(&f);
	assert_int_equal(f.peer.requests, 2);
	finish(&f);
}

static void test_chunk_halves_on_damage_and_grows_back_when_clean(void **state)
{
	const enum peer_action script[] = {
		PEER_CORRUPT_REPLY, PEER_REPLY, PEER_CORRUPT_REPLY, PEER_REPLY,
		PEER_CORRUPT_REPLY, PEER_REPLY, PEER_CORRUPT_REPLY, PEER_REPLY,
		PEER_CORRUPT_REPLY, PEER_REPLY, PEER_CORRUPT_REPLY, PEER_REPLY,
	};
	struct fixture f;
	int i;

	(void)state;
	start(&f, script, sizeof(script) / sizeof(script[0]), 1000, 2);
	/* A clean link: the whole frame. */
	assert_int_equal(hil_session_chunk(f.session, 240), 240);
	assert_int_equal(call(&f), HIL_OK);
	assert_int_equal(hil_session_chunk(f.session, 240), 120);
	assert_int_equal(call(&f), HIL_OK);
	assert_int_equal(hil_session_chunk(f.session, 240), 60);
	/* Never below the floor, nor above what the caller takes. */
	for (i = 0; i < 4; i++) {
		assert_int_equal(call(&f), HIL_OK);
	}
	assert_int_equal(hil_session_chunk(f.session, 240),
			 HIL_SESSION_MIN_CHUNK);
	assert_int_equal(hil_session_chunk(f.session, 8), 8);
	/* 16 calls answered at once: one step back up. */
	for (i = 0; i < 15; i++) {
		assert_int_equal(call(&f), HIL_OK);
	}
	assert_int_equal(hil_session_chunk(f.session, 240),
			 HIL_SESSION_MIN_CHUNK);
	assert_int_equal(call(&f), HIL_OK);
	assert_int_equal(hil_session_chunk(f.session, 240), 30);
	stop(&f);
	finish(&f);
}

static void test_target_crc_reject_is_retried(void **state)
{
	const enum peer_action script[] = {PEER_REJECT_CRC, PEER_REJECT_CRC};
	struct fixture f;

	(void)state;
	start(&f, script, 2, 300, 3);
	assert_int_equal(call(&f), HIL_OK);
	assert_int_equal(f.st, HILP_ST_OK);
	stop(&f);
	assert_int_equal(f.peer.requests, 3);
	assert_int_equal(hil_session_get_stats(f.session)->target_rejects, 2);
	finish(&f);
}

static void
test_target_status_without_reply_is_returned_not_retried(void **state)
{
	const enum peer_action script[] = {PEER_STATUS_ONLY};
	struct fixture f;

	(void)state;
	start(&f, script, 1, 300, 3);
	assert_int_equal(call(&f), HIL_OK);
	assert_int_equal(f.st, HILP_ST_BAD_CMD);
	stop(&f);
	assert_int_equal(f.peer.requests, 1);
	finish(&f);
}

static void test_silent_peer_times_out_after_bounded_retries(void **state)
{
	const enum peer_action script[] = {PEER_SILENT, PEER_SILENT,
					   PEER_SILENT};
	struct fixture f;

	(void)state;
	start(&f, script, 3, 100, 2);
	assert_int_equal(call(&f), HIL_ERR_TIMEOUT);
	stop(&f);
	assert_int_equal(f.peer.requests, 3);
	assert_int_equal(hil_session_get_stats(f.session)->timeouts, 3);
	finish(&f);
}

static void test_stop_flag_ends_the_wait_without_retries(void **state)
{
	const enum peer_action script[] = {PEER_SILENT, PEER_SILENT};
	volatile sig_atomic_t stopping = 1;
	struct fixture f;

	(void)state;
	/* A minute's timeout and a retry: only the flag can end this call
	 * with INTERRUPTED; without it, it would time out after a minute. */
	start(&f, script, 2, 60000, 1);
	hil_session_set_stop(f.session, &stopping);
	assert_int_equal(call(&f), HIL_ERR_INTERRUPTED);
	stop(&f);
	assert_int_equal(f.peer.requests, 1); /* sent once, not retried */
	assert_int_equal(hil_session_get_stats(f.session)->timeouts, 0);
	finish(&f);
}

static void test_silent_then_answering_peer_recovers(void **state)
{
	const enum peer_action script[] = {PEER_SILENT};
	struct fixture f;

	(void)state;
	start(&f, script, 1, 100, 1);
	assert_int_equal(call(&f), HIL_OK);
	assert_int_equal(f.st, HILP_ST_OK);
	assert_int_equal(hil_session_get_stats(f.session)->timeouts, 1);
	stop(&f);
	finish(&f);
}

/* An old stub is refused with what to do, not left to time out. */
static void test_handshake_refuses_a_protocol_2_stub_clearly(void **state)
{
	enum peer_action script[64];
	struct hilp_info info;
	struct ut_capture cap;
	char msg[1024];
	struct fixture f;
	size_t i;
	int ret;

	(void)state;
	for (i = 0; i < 64; i++) {
		script[i] = PEER_PROTOCOL_2;
	}
	start(&f, script, 64, 500, 3);
	ut_capture_begin(&cap);
	ret = hil_session_handshake(f.session, 60000, &info);
	ut_capture_end(&cap, msg, sizeof(msg));
	assert_int_equal(ret, HIL_ERR_MISMATCH);
	assert_non_null(strstr(msg, "protocol 2"));
	assert_non_null(strstr(msg, "rebuild the firmware"));
	assert_null(strstr(msg, "did not answer"));
	stop(&f);
	/* It gave up after two answers, not at the deadline. */
	assert_int_equal(f.peer.requests, 2);
	finish(&f);
}

static int call_long(struct fixture *f, unsigned timeout_ms)
{
	const uint8_t payload[] = {1, 2, 3};

	return hil_session_call_long(
		f->session, HILP_CMD_BENCH, 0, payload, sizeof(payload),
		f->reply, sizeof(f->reply), &f->len, &f->st, timeout_ms);
}

static void test_late_bench_reply_is_accepted_and_sent_once(void **state)
{
	const enum peer_action script[] = {PEER_LATE};
	const struct hil_session_stats *st;
	struct fixture f;
	uint64_t t0;

	(void)state;
	/* Retries allowed: a BENCH still must not use them on a silence. */
	start(&f, script, 1, 200, 3);
	t0 = ut_ms_now();
	assert_int_equal(call_long(&f, LATE_TIMEOUT_MS), HIL_OK);
	assert_true(ut_ms_now() - t0 < UT_HANG_MS);
	assert_int_equal(f.st, HILP_ST_OK);
	assert_int_equal(f.len, 1);
	assert_int_equal(f.reply[0], 0xAB);
	stop(&f);
	assert_int_equal(f.peer.requests, 1); /* never sent again */
	st = hil_session_get_stats(f.session);
	assert_int_equal(st->retries, 0);
	assert_int_equal(st->long_timeouts, 1); /* the first wait ran out */
	assert_true(st->long_timeout_ns >= LATE_TIMEOUT_MS * 1000000ull);
	finish(&f);
}

static void test_silent_bench_is_not_resent_and_times_out(void **state)
{
	const enum peer_action script[] = {PEER_SILENT, PEER_SILENT};
	const struct hil_session_stats *st;
	struct fixture f;

	(void)state;
	start(&f, script, 2, 100, 3);
	assert_int_equal(call_long(&f, 100), HIL_ERR_TIMEOUT);
	stop(&f);
	assert_int_equal(f.peer.requests, 1);
	st = hil_session_get_stats(f.session);
	assert_int_equal(st->retries, 0);
	assert_int_equal(st->long_timeouts, 2); /* its wait, and once more */
	assert_int_equal(st->timeouts, 1);
	finish(&f);
}

static void test_damaged_bench_request_is_sent_again(void **state)
{
	const enum peer_action script[] = {PEER_REJECT_CRC};
	struct fixture f;

	(void)state;
	/* The target said it did not read the request: nothing runs. */
	start(&f, script, 1, 100, 3);
	assert_int_equal(call_long(&f, 2000), HIL_OK);
	assert_int_equal(f.st, HILP_ST_OK);
	stop(&f);
	assert_int_equal(f.peer.requests, 2);
	assert_int_equal(hil_session_get_stats(f.session)->long_timeouts, 0);
	finish(&f);
}

static void test_bench_answered_damaged_is_sent_again(void **state)
{
	const enum peer_action script[] = {PEER_CORRUPT_BOTH};
	struct fixture f;

	(void)state;
	/* Bytes came back (the BENCH is over), none usable: not hung. */
	start(&f, script, 1, 100, 3);
	assert_int_equal(call_long(&f, 300), HIL_OK);
	assert_int_equal(f.st, HILP_ST_OK);
	assert_int_equal(f.reply[0], 0xAB);
	stop(&f);
	assert_int_equal(f.peer.requests, 2);
	assert_int_equal(hil_session_get_stats(f.session)->long_timeouts, 1);
	finish(&f);
}

/* A target that answers, damaged, is alive: its attempts cost no timeout and
 * do not use up link.retries (a noisy link lost whole rows that way). */
static void test_damaged_answers_do_not_use_up_the_retries(void **state)
{
	const enum peer_action script[] = {
		PEER_REJECT_CRC,   PEER_CORRUPT_REPLY, PEER_REJECT_CRC,
		PEER_CORRUPT_BOTH, PEER_REJECT_CRC,    PEER_CORRUPT_STATUS,
		PEER_REJECT_CRC,   PEER_CORRUPT_REPLY,
	};
	const struct hil_session_call_end *e;
	struct fixture f;

	(void)state;
	start(&f, script, 8, 300, 1);
	assert_int_equal(call(&f), HIL_OK);
	assert_int_equal(f.st, HILP_ST_OK);
	stop(&f);
	assert_int_equal(f.peer.requests, 9);
	e = hil_session_last_call(f.session);
	assert_int_equal(e->attempts, 9);
	/* CORRUPT_BOTH leaves no status to end the attempt: it runs out,
	 * late, and counts against the one retry. */
	assert_int_equal(e->damaged, 7);
	assert_int_equal(e->late, 1);
	assert_int_equal(e->silent, 0);
	finish(&f);
}

/* ...but they are bounded, and a call lost that way says the target answered. */
static void test_a_call_lost_to_damage_says_the_target_answered(void **state)
{
	enum peer_action script[64];
	struct fixture f;
	size_t i;

	(void)state;
	for (i = 0; i < 64; i++) {
		script[i] = PEER_REJECT_CRC;
	}
	start(&f, script, 64, 300, 2);
	assert_int_equal(call(&f), HIL_ERR_TIMEOUT);
	stop(&f);
	/* link.retries + 1, and HIL_SESSION_DAMAGE_RETRIES more. */
	assert_int_equal(f.peer.requests, 3 + HIL_SESSION_DAMAGE_RETRIES);
	assert_int_equal(hil_session_last_call(f.session)->damaged,
			 3 + HIL_SESSION_DAMAGE_RETRIES);
	assert_true(hil_session_last_call_heard(f.session));
	finish(&f);
}

/* A silent target is not the link's: nothing was heard. Nor is one that
 * sent a stale reply and then hung (silence after it). */
static void test_a_silent_call_heard_nothing(void **state)
{
	const enum peer_action script[] = {PEER_SILENT, PEER_SILENT};
	const enum peer_action hung[] = {PEER_STALE_ONLY, PEER_SILENT,
					 PEER_SILENT, PEER_SILENT};
	struct fixture f;

	(void)state;
	start(&f, script, 2, 100, 1);
	assert_int_equal(call(&f), HIL_ERR_TIMEOUT);
	stop(&f);
	assert_false(hil_session_last_call_heard(f.session));
	assert_int_equal(hil_session_last_call(f.session)->silent, 2);
	assert_int_equal(hil_session_last_call(f.session)->board_down, 0);
	finish(&f);

	start(&f, hung, 4, 100, 3);
	assert_int_equal(call(&f), HIL_ERR_TIMEOUT);
	stop(&f);
	assert_int_equal(hil_session_last_call(f.session)->late, 1);
	assert_int_equal(hil_session_last_call(f.session)->silent, 3);
	assert_false(hil_session_last_call_heard(f.session));
	finish(&f);
}

/* The probe of the board behind the link: a stopped emulator. */
struct probe {
	unsigned asked;
	int says;
};

static int probe_fn(void *arg)
{
	struct probe *p = arg;

	p->asked++;
	return p->says;
}

/*
 * A stopped emulator is found at the end of a BENCH's first wait, its own
 * sized timeout: no second wait, and the call says the board is down, not
 * that the target hung. Checked by state (waits counted), not by time.
 */
static void test_stopped_board_ends_a_bench_after_its_first_wait(void **state)
{
	const enum peer_action script[] = {PEER_SILENT, PEER_SILENT};
	struct probe pr = {0, HIL_ERR_PROCESS};
	struct ut_capture cap;
	char msg[2048];
	struct fixture f;
	int ret;

	(void)state;
	start(&f, script, 2, 100, 3);
	hil_session_set_probe(f.session, probe_fn, &pr);
	ut_capture_begin(&cap);
	ret = call_long(&f, 100);
	ut_capture_end(&cap, msg, sizeof(msg));
	assert_int_equal(ret, HIL_ERR_TIMEOUT);
	stop(&f);
	assert_int_equal(f.peer.requests, 1);
	assert_int_equal(pr.asked, 1);
	assert_int_equal(hil_session_get_stats(f.session)->long_timeouts, 1);
	assert_true(hil_session_last_call(f.session)->board_down);
	assert_null(strstr(msg, "hung"));
	assert_non_null(strstr(msg, "cannot answer"));
	finish(&f);
}

/*
 * ...and a long BENCH (a 2000-run row's wait is minutes: a stopped QEMU took
 * 303 s to be declared hung) does not even wait out its first wait: the
 * probe is asked while it waits. By state: the wait is cut short, so no
 * wait is counted as run out.
 */
static void test_stopped_board_cuts_a_long_bench_wait_short(void **state)
{
	const enum peer_action script[] = {PEER_SILENT};
	struct probe pr = {0, HIL_ERR_PROCESS};
	struct fixture f;

	(void)state;
	start(&f, script, 1, 100, 3);
	hil_session_set_probe(f.session, probe_fn, &pr);
	assert_int_equal(call_long(&f, 600000), HIL_ERR_TIMEOUT);
	stop(&f);
	assert_int_equal(f.peer.requests, 1);
	assert_true(pr.asked >= 1);
	assert_int_equal(hil_session_get_stats(f.session)->long_timeouts, 0);
	assert_true(hil_session_last_call(f.session)->board_down);
	finish(&f);
}

/* ...and a short call is not retried into a board that cannot answer,
 * while a board that may answer gets its retries. */
static void test_stopped_board_ends_a_call_without_retries(void **state)
{
	const enum peer_action script[] = {PEER_SILENT, PEER_SILENT,
					   PEER_SILENT};
	struct probe down = {0, HIL_ERR_PROCESS}, up = {0, HIL_OK};
	struct fixture f;

	(void)state;
	start(&f, script, 3, 100, 2);
	hil_session_set_probe(f.session, probe_fn, &down);
	assert_int_equal(call(&f), HIL_ERR_TIMEOUT);
	stop(&f);
	assert_int_equal(f.peer.requests, 1);
	assert_int_equal(down.asked, 1);
	finish(&f);

	start(&f, script, 3, 100, 2);
	hil_session_set_probe(f.session, probe_fn, &up);
	assert_int_equal(call(&f), HIL_ERR_TIMEOUT);
	stop(&f);
	assert_int_equal(f.peer.requests, 3);
	assert_int_equal(up.asked, 3);
	assert_false(hil_session_last_call(f.session)->board_down);
	finish(&f);
}

static void test_fault_report_is_decoded_and_returned(void **state)
{
	const enum peer_action script[] = {PEER_FAULT};
	struct fixture f;
	const struct hil_session_fault *fault;

	(void)state;
	start(&f, script, 1, 300, 2);
	assert_int_equal(call(&f), HIL_OK);
	assert_int_equal(f.st, HILP_ST_FAULT);
	fault = hil_session_get_fault(f.session);
	assert_true(fault->seen);
	assert_int_equal(fault->pc, 0x08000123u);
	assert_int_equal(fault->cfsr, 0x8200u);
	stop(&f);
	finish(&f);
}

/* What hil_session_stream() handed over. */
struct got {
	size_t n;
	uint8_t last[4];
};

static int on_reply(void *arg, const uint8_t *data, size_t len)
{
	struct got *g = arg;

	assert_int_equal(len, 3);
	memcpy(g->last, data, len);
	g->n++;
	return HIL_OK;
}

static int stream(struct fixture *f, struct got *g)
{
	const uint8_t msg[1] = {0};

	memset(g, 0, sizeof(*g));
	return hil_session_stream(f->session, HILP_CMD_PQRUN, 0, msg,
				  sizeof(msg), on_reply, g, &f->st, 0);
}

static void test_stream_hands_over_every_reply_then_the_status(void **state)
{
	const enum peer_action script[] = {PEER_STREAM};
	struct fixture f;
	struct got g;

	(void)state;
	start(&f, script, 1, 300, 2);
	assert_int_equal(stream(&f, &g), HIL_OK);
	assert_int_equal(f.st, HILP_ST_OK);
	assert_int_equal(g.n, 3);
	assert_int_equal(g.last[2], 2);
	stop(&f);
	assert_int_equal(f.peer.requests, 1);
	finish(&f);
}

static void
test_stream_is_sent_again_when_the_target_got_it_damaged(void **state)
{
	const enum peer_action script[] = {PEER_REJECT_CRC, PEER_STREAM};
	struct fixture f;
	struct got g;

	(void)state;
	start(&f, script, 2, 300, 2);
	assert_int_equal(stream(&f, &g), HIL_OK);
	assert_int_equal(g.n, 3);
	stop(&f);
	assert_int_equal(f.peer.requests, 2);
	finish(&f);
}

static void test_stream_damaged_midway_keeps_what_came_and_fails(void **state)
{
	const enum peer_action script[] = {PEER_STREAM_DAMAGED};
	struct fixture f;
	struct got g;

	(void)state;
	start(&f, script, 1, 300, 2);
	assert_int_equal(stream(&f, &g), HIL_ERR_PROTO);
	assert_int_equal(g.n, 1); /* the first reply stands */
	assert_int_equal(hil_session_get_stats(f.session)->bad_frames, 1);
	stop(&f);
	assert_int_equal(f.peer.requests, 1); /* never run twice */
	finish(&f);
}

static void test_stream_that_stops_times_out_and_is_not_resent(void **state)
{
	const enum peer_action script[] = {PEER_STREAM_STOPS};
	struct fixture f;
	struct got g;

	(void)state;
	start(&f, script, 1, 300, 2);
	assert_int_equal(stream(&f, &g), HIL_ERR_TIMEOUT);
	assert_int_equal(g.n, 2);
	stop(&f);
	assert_int_equal(f.peer.requests, 1);
	finish(&f);
}

static void test_stream_to_a_silent_target_gives_up_after_retries(void **state)
{
	const enum peer_action script[] = {PEER_SILENT, PEER_SILENT,
					   PEER_SILENT};
	struct fixture f;
	struct got g;

	(void)state;
	start(&f, script, 3, 200, 2);
	assert_int_equal(stream(&f, &g), HIL_ERR_TIMEOUT);
	assert_int_equal(g.n, 0);
	stop(&f);
	assert_int_equal(f.peer.requests, 3);
	finish(&f);
}

static void test_oversized_payload_is_refused_before_sending(void **state)
{
	uint8_t big[HILP_MAX_DATA];
	struct fixture f;
	uint8_t st = 0;

	(void)state;
	memset(big, 1, sizeof(big));
	start(&f, NULL, 0, 100, 0);
	assert_int_equal(hil_session_call(f.session, HILP_CMD_LOAD, 0, big,
					  sizeof(big), NULL, 0, NULL, &st, 0),
			 HIL_ERR_ARG);
	stop(&f);
	assert_int_equal(f.peer.requests, 0);
	finish(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_call_returns_reply_after_sequence_byte),
		cmocka_unit_test(
			test_stats_count_requests_by_command_and_bytes),
		cmocka_unit_test(
			test_stale_reply_with_other_sequence_is_ignored),
		cmocka_unit_test(
			test_late_replies_lengthen_the_wait_silence_does_not),
		cmocka_unit_test(test_stale_status_without_reply_is_ignored),
		cmocka_unit_test(test_corrupted_reply_is_retried),
		cmocka_unit_test(
			test_damaged_reply_then_ok_is_retried_without_waiting),
		cmocka_unit_test(
			test_damaged_status_after_reply_is_retried_without_waiting),
		cmocka_unit_test(
			test_chunk_halves_on_damage_and_grows_back_when_clean),
		cmocka_unit_test(test_target_crc_reject_is_retried),
		cmocka_unit_test(
			test_target_status_without_reply_is_returned_not_retried),
		cmocka_unit_test(
			test_silent_peer_times_out_after_bounded_retries),
		cmocka_unit_test(test_silent_then_answering_peer_recovers),
		cmocka_unit_test(test_stop_flag_ends_the_wait_without_retries),
		cmocka_unit_test(test_fault_report_is_decoded_and_returned),
		cmocka_unit_test(
			test_damaged_answers_do_not_use_up_the_retries),
		cmocka_unit_test(
			test_a_call_lost_to_damage_says_the_target_answered),
		cmocka_unit_test(test_a_silent_call_heard_nothing),
		cmocka_unit_test(
			test_stopped_board_ends_a_bench_after_its_first_wait),
		cmocka_unit_test(
			test_stopped_board_ends_a_call_without_retries),
		cmocka_unit_test(
			test_stopped_board_cuts_a_long_bench_wait_short),
		cmocka_unit_test(
			test_handshake_refuses_a_protocol_2_stub_clearly),
		cmocka_unit_test(
			test_late_bench_reply_is_accepted_and_sent_once),
		cmocka_unit_test(test_silent_bench_is_not_resent_and_times_out),
		cmocka_unit_test(test_damaged_bench_request_is_sent_again),
		cmocka_unit_test(test_bench_answered_damaged_is_sent_again),
		cmocka_unit_test(
			test_oversized_payload_is_refused_before_sending),
		cmocka_unit_test(
			test_stream_hands_over_every_reply_then_the_status),
		cmocka_unit_test(
			test_stream_is_sent_again_when_the_target_got_it_damaged),
		cmocka_unit_test(
			test_stream_damaged_midway_keeps_what_came_and_fails),
		cmocka_unit_test(
			test_stream_that_stops_times_out_and_is_not_resent),
		cmocka_unit_test(
			test_stream_to_a_silent_target_gives_up_after_retries),
	};

	/* As hilrun's main does: a write to a peer that has already hung up
	 * (the scripted peer ends a stream early, the session gives up on a
	 * damaged one) is an error the session reports, not a SIGPIPE. */
	signal(SIGPIPE, SIG_IGN);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
