/* Unit tests of the stub's typed commands against a scripted peer: FETCH on a clean link reads once, on a damaged link until two reads agree. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
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
#include "session/stub.h"
#include "unit_util.h"

#define BUF_BYTES 64

/*
 * A stub that answers FETCH from its buffer. The first `damage` requests
 * get a reply frame with a flipped byte (the CRC catches it) before the
 * right answer is sent on the retry; the FETCH replies numbered in `lie`
 * (by count of FETCH replies sent, from 1) carry wrong data in a frame that
 * is valid: a damaged reply that got past the CRC-16.
 */
struct stub {
	int fd;
	uint8_t buf[BUF_BYTES];
	unsigned damage;
	unsigned lie_mask; /* bit i: the (i+1)-th FETCH reply lies */
	unsigned lie_always;
	unsigned fetches; /* FETCH replies sent */
	unsigned requests;
};

static void *stub_main(void *arg)
{
	struct stub *st = arg;
	struct hilp_rx rx;
	uint8_t in[512];

	hilp_rx_init(&rx);
	for (;;) {
		ssize_t n = read(st->fd, in, sizeof(in));
		ssize_t i;

		if (n <= 0) {
			return NULL;
		}
		for (i = 0; i < n; i++) {
			struct hilp_packet p;
			uint8_t d[HILP_MAX_DATA];
			uint8_t status = HILP_ST_OK;
			unsigned off, k, j;

			if (hilp_rx_push(&rx, in[i]) != 1 || rx.len == 0) {
				continue;
			}
			if (hilp_decode_request(rx.buf, rx.len, &p) !=
			    HILP_ST_OK) {
				hilp_rx_init(&rx);
				continue;
			}
			hilp_rx_init(&rx);
			st->requests++;
			assert_int_equal(p.cmd, HILP_CMD_FETCH);
			off = hilp_get_u16(p.data + 1);
			k = p.data[3];
			d[0] = p.data[0];
			d[1] = HILP_ST_OK;
			memcpy(d + 2, st->buf + off, k);
			if (st->damage > 0) {
				st->damage--;
				ut_send_reply(st->fd, HILP_REPLY, d, k + 2, 1);
				ut_send_reply(st->fd, HILP_ERROR, &status, 1,
					      0);
				continue;
			}
			st->fetches++;
			if (st->lie_always ||
			    (st->fetches <= 32 &&
			     (st->lie_mask >> (st->fetches - 1)) & 1u)) {
				for (j = 0; j < k; j++) {
					d[2 + j] ^= (uint8_t)(st->fetches + j);
				}
			}
			ut_send_reply(st->fd, HILP_REPLY, d, k + 2, 0);
			ut_send_reply(st->fd, HILP_ERROR, &status, 1, 0);
		}
	}
}

struct fixture {
	struct stub stub;
	pthread_t thread;
	struct hil_link *link;
	struct hil_session *session;
};

static void start(struct fixture *f, unsigned damage, unsigned lie_mask,
		  unsigned lie_always)
{
	int sv[2];
	unsigned i;

	memset(f, 0, sizeof(*f));
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	f->stub.fd = sv[1];
	f->stub.damage = damage;
	f->stub.lie_mask = lie_mask;
	f->stub.lie_always = lie_always;
	for (i = 0; i < BUF_BYTES; i++) {
		f->stub.buf[i] = (uint8_t)(0xA0 + i);
	}
	assert_int_equal(hil_link_from_fd(&f->link, sv[0], "test-stub"),
			 HIL_OK);
	assert_int_equal(pthread_create(&f->thread, NULL, stub_main, &f->stub),
			 0);
	assert_int_equal(hil_session_open(&f->session, f->link, 500, 3),
			 HIL_OK);
}

static void stop(struct fixture *f)
{
	hil_session_close(f->session);
	hil_link_close(f->link);
	pthread_join(f->thread, NULL);
	close(f->stub.fd);
}

static void test_fetch_on_a_clean_link_reads_each_chunk_once(void **state)
{
	struct fixture f;
	uint8_t got[BUF_BYTES];

	(void)state;
	start(&f, 0, 0, 0);
	assert_int_equal(hil_target_fetch(f.session, HILP_BUF_OUT, got, 40),
			 HIL_OK);
	assert_memory_equal(got, f.stub.buf, 40);
	assert_false(hil_session_damaged(f.session));
	stop(&f);
	assert_int_equal(f.stub.fetches, 1);
}

static void
test_fetch_on_a_damaged_link_rejects_a_reply_that_passed_the_crc(void **state)
{
	struct fixture f;
	uint8_t got[BUF_BYTES];

	(void)state;
	/* One damaged reply makes the link suspect; then the second answer
	 * lies in a valid frame. */
	start(&f, 1, 1u << 1, 0);
	assert_int_equal(hil_target_fetch(f.session, HILP_BUF_OUT, got, 40),
			 HIL_OK);
	assert_true(hil_session_damaged(f.session));
	assert_memory_equal(got, f.stub.buf, 40);
	stop(&f);
	/* truth, lie, truth, truth: the last two agree */
	assert_int_equal(f.stub.fetches, 4);
}

static void test_fetch_gives_up_when_no_two_reads_agree(void **state)
{
	struct fixture f;
	uint8_t got[BUF_BYTES];

	(void)state;
	start(&f, 1, 0, 1);
	assert_int_equal(hil_target_fetch(f.session, HILP_BUF_OUT, got, 16),
			 HIL_ERR_PROTO);
	stop(&f);
	assert_int_equal(f.stub.fetches, 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			test_fetch_on_a_clean_link_reads_each_chunk_once),
		cmocka_unit_test(
			test_fetch_on_a_damaged_link_rejects_a_reply_that_passed_the_crc),
		cmocka_unit_test(test_fetch_gives_up_when_no_two_reads_agree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
