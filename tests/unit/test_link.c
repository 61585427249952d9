/* test_link: the fd link over a socketpair, the generic link calls, the serial backend's errors and the flaky wrapper. */
#define _XOPEN_SOURCE 700 /* posix_openpt */

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "util/err.h"
#include "drivers/link/link.h"
#include "unit_util.h"

/* ---- helpers ---- */

struct pair {
	struct hil_link *a; /* what the host holds */
	struct hil_link *b; /* the "target" end */
};

static void pair_open(struct pair *p)
{
	int sv[2];

	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(hil_link_from_fd(&p->a, sv[0], "pair-a"), HIL_OK);
	assert_int_equal(hil_link_from_fd(&p->b, sv[1], "pair-b"), HIL_OK);
}

static void pair_close(struct pair *p)
{
	hil_link_close(p->a);
	hil_link_close(p->b);
}

/* Read exactly n bytes or fail the test. */
static void read_exactly(struct hil_link *l, uint8_t *buf, size_t n)
{
	size_t got = 0;

	while (got < n) {
		int r = hil_link_read(l, buf + got, n - got, 1000);

		assert_true(r > 0);
		got += (size_t)r;
	}
}

/* ---- fd link ---- */

static void test_fd_link_round_trip_both_ways(void **state)
{
	struct pair p;
	uint8_t out[1000], in[1000];
	size_t i;

	(void)state;
	pair_open(&p);
	for (i = 0; i < sizeof(out); i++) {
		out[i] = (uint8_t)(i * 7 + 3);
	}
	assert_int_equal(hil_link_write(p.a, out, sizeof(out), 1000), HIL_OK);
	read_exactly(p.b, in, sizeof(in));
	assert_memory_equal(in, out, sizeof(out));

	assert_int_equal(hil_link_write(p.b, out, 10, 1000), HIL_OK);
	read_exactly(p.a, in, 10);
	assert_memory_equal(in, out, 10);
	assert_string_equal(hil_link_where(p.a), "pair-a");
	assert_string_equal(hil_link_type(p.a), "fd");
	pair_close(&p);
}

static void test_fd_link_read_timeout_returns_zero_within_bounds(void **state)
{
	struct pair p;
	uint8_t buf[8];
	uint64_t t0, dt;

	(void)state;
	pair_open(&p);
	t0 = ut_ms_now();
	assert_int_equal(hil_link_read(p.a, buf, sizeof(buf), 100), 0);
	dt = ut_ms_now() - t0;
	assert_true(dt >= 95 && dt < UT_HANG_MS);

	t0 = ut_ms_now();
	assert_int_equal(hil_link_read(p.a, buf, sizeof(buf), 0), 0);
	assert_true(ut_ms_now() - t0 < UT_HANG_MS);
	pair_close(&p);
}

static void
test_fd_link_read_returns_what_is_there_without_waiting_for_cap(void **state)
{
	struct pair p;
	uint8_t buf[64];
	uint64_t t0;

	(void)state;
	pair_open(&p);
	assert_int_equal(hil_link_write(p.b, (const uint8_t *)"abc", 3, 100),
			 HIL_OK);
	t0 = ut_ms_now();
	assert_int_equal(hil_link_read(p.a, buf, sizeof(buf), 2 * UT_HANG_MS),
			 3);
	assert_true(ut_ms_now() - t0 < UT_HANG_MS); /* not the timeout */
	assert_memory_equal(buf, "abc", 3);
	pair_close(&p);
}

static void
test_fd_link_peer_closed_is_an_io_error_naming_the_link(void **state)
{
	struct pair p;
	struct ut_capture c;
	uint8_t buf[8];
	char log[2048];

	(void)state;
	pair_open(&p);
	hil_link_close(p.b);
	ut_capture_begin(&c);
	assert_int_equal(hil_link_read(p.a, buf, sizeof(buf), 1000),
			 HIL_ERR_IO);
	/* no SIGPIPE: a write to a closed peer is an error too */
	assert_int_equal(hil_link_write(p.a, buf, sizeof(buf), 1000),
			 HIL_ERR_IO);
	ut_capture_end(&c, log, sizeof(log));
	assert_non_null(strstr(log, "pair-a"));
	assert_non_null(strstr(log, "closed"));
	hil_link_close(p.a);
}

static void test_fd_link_write_times_out_when_peer_does_not_read(void **state)
{
	struct pair p;
	struct ut_capture c;
	size_t n = 8u << 20;
	uint8_t *big = calloc(1, n);
	char log[2048];
	uint64_t t0, dt;

	(void)state;
	assert_non_null(big);
	pair_open(&p);
	ut_capture_begin(&c);
	t0 = ut_ms_now();
	assert_int_equal(hil_link_write(p.a, big, n, 100), HIL_ERR_TIMEOUT);
	dt = ut_ms_now() - t0;
	ut_capture_end(&c, log, sizeof(log));
	assert_true(dt >= 95 && dt < UT_HANG_MS);
	assert_non_null(strstr(log, "pair-a"));
	free(big);
	pair_close(&p);
}

static void test_fd_link_drain_discards_pending_input(void **state)
{
	struct pair p;
	uint8_t buf[8];

	(void)state;
	pair_open(&p);
	assert_int_equal(hil_link_write(p.b, (const uint8_t *)"stale", 5, 100),
			 HIL_OK);
	nanosleep(&(struct timespec){.tv_sec = 0, .tv_nsec = 10000000}, NULL);
	assert_int_equal(hil_link_drain(p.a), HIL_OK);
	assert_int_equal(hil_link_read(p.a, buf, sizeof(buf), 50), 0);
	assert_int_equal(hil_link_write(p.b, (const uint8_t *)"new", 3, 100),
			 HIL_OK);
	assert_int_equal(hil_link_read(p.a, buf, sizeof(buf), 500), 3);
	assert_memory_equal(buf, "new", 3);
	pair_close(&p);
}

static void test_fd_link_is_close_on_exec(void **state)
{
	int sv[2], fl;
	struct hil_link *l;

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(hil_link_from_fd(&l, sv[0], "cloexec"), HIL_OK);
	fl = fcntl(sv[0], F_GETFD);
	assert_true(fl >= 0 && (fl & FD_CLOEXEC) != 0);
	hil_link_close(l);
	close(sv[1]);
}

static void test_link_open_rejects_unknown_type(void **state)
{
	struct hil_link *l = (struct hil_link *)&l;
	struct ut_capture c;
	char log[2048];

	(void)state;
	ut_capture_begin(&c);
	assert_int_equal(hil_link_open(&l, "carrier-pigeon", "/dev/null", 0),
			 HIL_ERR_ARG);
	ut_capture_end(&c, log, sizeof(log));
	assert_null(l);
	assert_non_null(strstr(log, "carrier-pigeon"));
}

/* ---- the semihost link: made on a descriptor, never by name ---- */

static void
test_semihost_link_adopts_a_descriptor_and_carries_bytes(void **state)
{
	struct hil_link *l;
	uint8_t buf[16];
	int sv[2], fl;

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_int_equal(hil_link_adopt(&l, "semihost", sv[0],
					"qemu-system-arm semihosting"),
			 HIL_OK);
	assert_string_equal(hil_link_type(l), "semihost");
	assert_string_equal(hil_link_where(l), "qemu-system-arm semihosting");
	fl = fcntl(sv[0], F_GETFD);
	assert_true(fl >= 0 && (fl & FD_CLOEXEC) != 0);
	assert_true((fcntl(sv[0], F_GETFL) & O_NONBLOCK) != 0);
	/* A frame goes out in one write, and what arrives is read at once. */
	assert_int_equal(
		hil_link_write(l, (const uint8_t *)"\x02\x76\x00", 3, 100),
		HIL_OK);
	assert_int_equal(read(sv[1], buf, sizeof(buf)), 3);
	assert_int_equal(write(sv[1], "\x03\x65\x01\x00", 4), 4);
	assert_int_equal(hil_link_read(l, buf, sizeof(buf), 1000), 4);
	assert_memory_equal(buf, "\x03\x65\x01\x00", 4);
	/* The emulator gone: the end of the stream is an I/O error. */
	close(sv[1]);
	assert_int_equal(hil_link_read(l, buf, sizeof(buf), 1000), HIL_ERR_IO);
	hil_link_close(l);
}

static void test_semihost_link_cannot_be_opened_by_name(void **state)
{
	struct hil_link *l = (struct hil_link *)&l;
	struct ut_capture c;
	char log[2048];

	(void)state;
	ut_capture_begin(&c);
	assert_int_equal(hil_link_open(&l, "semihost", "/tmp/x", 0),
			 HIL_ERR_ARG);
	ut_capture_end(&c, log, sizeof(log));
	assert_null(l);
	assert_non_null(strstr(log, "descriptor"));
}

static void
test_adopt_refuses_links_made_by_name_and_closes_the_fd(void **state)
{
	struct hil_link *l = (struct hil_link *)&l;
	struct ut_capture c;
	char log[2048];
	int sv[2];

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	ut_capture_begin(&c);
	assert_int_equal(hil_link_adopt(&l, "socket", sv[0], "x"), HIL_ERR_ARG);
	ut_capture_end(&c, log, sizeof(log));
	assert_null(l);
	assert_int_equal(fcntl(sv[0], F_GETFD), -1); /* closed */
	assert_int_equal(errno, EBADF);
	close(sv[1]);
}

static void test_link_table_names_what_a_config_may_choose(void **state)
{
	const struct hil_link_ops *const *all = hil_link_all();
	size_t n = 0;

	(void)state;
	while (all[n] != NULL) {
		n++;
	}
	assert_int_equal(n, 3);
	assert_string_equal(all[0]->name, "serial");
	assert_string_equal(all[1]->name, "socket");
	assert_string_equal(all[2]->name, "semihost");
	/* Only semihosting needs a stub built for it. */
	assert_null(hil_link_find("serial")->stub_build);
	assert_null(hil_link_find("socket")->stub_build);
	assert_string_equal(hil_link_find("semihost")->stub_build, "semihost");
	assert_null(hil_link_find("fd"));
	assert_null(hil_link_find("flaky"));
	assert_null(hil_link_find(NULL));
}

static void test_link_calls_reject_bad_arguments(void **state)
{
	struct pair p;
	uint8_t buf[4];

	(void)state;
	pair_open(&p);
	assert_int_equal(hil_link_read(p.a, NULL, 4, 10), HIL_ERR_ARG);
	assert_int_equal(hil_link_read(p.a, buf, 0, 10), HIL_ERR_ARG);
	assert_int_equal(hil_link_write(NULL, buf, 4, 10), HIL_ERR_ARG);
	assert_int_equal(hil_link_write(p.a, buf, 0, 10), HIL_OK);
	assert_int_equal(hil_link_drain(NULL), HIL_ERR_ARG);
	hil_link_close(NULL);
	pair_close(&p);
}

/* ---- serial backend (no hardware: its errors) ---- */

static void test_serial_missing_port_is_an_error_naming_the_port(void **state)
{
	struct hil_link *l = NULL;
	struct ut_capture c;
	char log[2048];
	int ret;

	(void)state;
	ut_capture_begin(&c);
	ret = hil_link_open(&l, "serial", "/dev/hilrun-no-such-tty", 115200);
	ut_capture_end(&c, log, sizeof(log));
	assert_true(ret < 0);
	assert_null(l);
	assert_non_null(strstr(log, "/dev/hilrun-no-such-tty"));
}

static void test_serial_rejects_zero_baud(void **state)
{
	struct hil_link *l = NULL;
	struct ut_capture c;
	char log[2048];

	(void)state;
	ut_capture_begin(&c);
	assert_int_equal(hil_link_open(&l, "serial", "/dev/ttyS0", 0),
			 HIL_ERR_ARG);
	ut_capture_end(&c, log, sizeof(log));
	assert_non_null(strstr(log, "/dev/ttyS0"));
}

static void test_serial_on_a_pty_says_to_use_the_socket_link(void **state)
{
	struct hil_link *l = NULL;
	struct ut_capture c;
	char log[2048], name[128];
	int m;

	(void)state;
	m = posix_openpt(O_RDWR | O_NOCTTY);
	assert_true(m >= 0);
	assert_int_equal(grantpt(m), 0);
	assert_int_equal(unlockpt(m), 0);
	snprintf(name, sizeof(name), "%s", ptsname(m));
	ut_capture_begin(&c);
	/* libserialport 0.1.1 cannot open a pty (design.md section 3) */
	assert_int_equal(hil_link_open(&l, "serial", name, 115200), HIL_ERR_NA);
	ut_capture_end(&c, log, sizeof(log));
	assert_non_null(strstr(log, name));
	assert_non_null(strstr(log, "socket link"));
	close(m);
}

/* ---- flaky wrapper ---- */

static struct hil_link_faults no_faults(uint32_t seed)
{
	struct hil_link_faults f;

	memset(&f, 0, sizeof(f));
	f.seed = seed;
	f.silent_after_tx_bytes = -1;
	return f;
}

static void test_flaky_without_faults_passes_bytes_unchanged(void **state)
{
	struct pair p;
	struct hil_link *w;
	struct hil_link_faults f = no_faults(1);
	uint8_t buf[16];

	(void)state;
	pair_open(&p);
	assert_int_equal(hil_link_wrap_flaky(&w, p.a, &f), HIL_OK);
	assert_string_equal(hil_link_where(w), "pair-a");
	assert_int_equal(hil_link_write(w, (const uint8_t *)"hello", 5, 100),
			 HIL_OK);
	read_exactly(p.b, buf, 5);
	assert_memory_equal(buf, "hello", 5);
	assert_int_equal(hil_link_write(p.b, (const uint8_t *)"world", 5, 100),
			 HIL_OK);
	read_exactly(w, buf, 5);
	assert_memory_equal(buf, "world", 5);
	hil_link_close(w); /* closes p.a */
	hil_link_close(p.b);
}

static void test_flaky_drop_all_rx_delivers_nothing(void **state)
{
	struct pair p;
	struct hil_link *w;
	struct hil_link_faults f = no_faults(7);
	uint8_t buf[256];
	uint64_t t0, dt;

	(void)state;
	f.drop_permille_rx = 1000;
	pair_open(&p);
	assert_int_equal(hil_link_wrap_flaky(&w, p.a, &f), HIL_OK);
	memset(buf, 0x55, sizeof(buf));
	assert_int_equal(hil_link_write(p.b, buf, sizeof(buf), 100), HIL_OK);
	t0 = ut_ms_now();
	/* the dropped chunk must not end the wait early */
	assert_int_equal(hil_link_read(w, buf, sizeof(buf), 100), 0);
	dt = ut_ms_now() - t0;
	assert_true(dt >= 95 && dt < UT_HANG_MS);
	hil_link_close(w);
	hil_link_close(p.b);
}

static void test_flaky_drop_all_tx_sends_nothing(void **state)
{
	struct pair p;
	struct hil_link *w;
	struct hil_link_faults f = no_faults(7);
	uint8_t buf[256];

	(void)state;
	f.drop_permille_tx = 1000;
	pair_open(&p);
	assert_int_equal(hil_link_wrap_flaky(&w, p.a, &f), HIL_OK);
	memset(buf, 0x55, sizeof(buf));
	assert_int_equal(hil_link_write(w, buf, sizeof(buf), 100), HIL_OK);
	assert_int_equal(hil_link_read(p.b, buf, sizeof(buf), 50), 0);
	hil_link_close(w);
	hil_link_close(p.b);
}

static void test_flaky_corrupt_all_rx_changes_every_byte(void **state)
{
	struct pair p;
	struct hil_link *w;
	struct hil_link_faults f = no_faults(99);
	uint8_t out[256], in[256];
	size_t i;

	(void)state;
	f.corrupt_permille_rx = 1000;
	pair_open(&p);
	assert_int_equal(hil_link_wrap_flaky(&w, p.a, &f), HIL_OK);
	for (i = 0; i < sizeof(out); i++) {
		out[i] = (uint8_t)i;
	}
	assert_int_equal(hil_link_write(p.b, out, sizeof(out), 100), HIL_OK);
	read_exactly(w, in, sizeof(in));
	for (i = 0; i < sizeof(out); i++) {
		assert_int_not_equal(in[i], out[i]);
	}
	hil_link_close(w);
	hil_link_close(p.b);
}

static void test_flaky_corrupt_all_tx_changes_every_byte(void **state)
{
	struct pair p;
	struct hil_link *w;
	struct hil_link_faults f = no_faults(99);
	uint8_t out[256], in[256];
	size_t i;

	(void)state;
	f.corrupt_permille_tx = 1000;
	pair_open(&p);
	assert_int_equal(hil_link_wrap_flaky(&w, p.a, &f), HIL_OK);
	for (i = 0; i < sizeof(out); i++) {
		out[i] = (uint8_t)(255 - i);
	}
	assert_int_equal(hil_link_write(w, out, sizeof(out), 100), HIL_OK);
	read_exactly(p.b, in, sizeof(in));
	for (i = 0; i < sizeof(out); i++) {
		assert_int_not_equal(in[i], out[i]);
	}
	hil_link_close(w);
	hil_link_close(p.b);
}

/*
 * Send 1000 bytes through a flaky receiver, read them back `chunk` bytes at a
 * time at most, and return what came out.
 */
static size_t flaky_rx_run(uint32_t seed, size_t chunk, uint8_t *got,
			   size_t cap)
{
	struct pair p;
	struct hil_link *w;
	struct hil_link_faults f = no_faults(seed);
	uint8_t out[1000];
	size_t i, n = 0;

	f.drop_permille_rx = 300;
	f.corrupt_permille_rx = 300;
	pair_open(&p);
	assert_int_equal(hil_link_wrap_flaky(&w, p.a, &f), HIL_OK);
	for (i = 0; i < sizeof(out); i++) {
		out[i] = (uint8_t)(i * 13);
	}
	assert_int_equal(hil_link_write(p.b, out, sizeof(out), 100), HIL_OK);
	while (n < cap) {
		size_t want = cap - n < chunk ? cap - n : chunk;
		int r = hil_link_read(w, got + n, want, 50);

		assert_true(r >= 0);
		if (r == 0) {
			break;
		}
		n += (size_t)r;
	}
	hil_link_close(w);
	hil_link_close(p.b);
	return n;
}

static void
test_flaky_same_seed_gives_same_faults_whatever_the_chunking(void **state)
{
	uint8_t a[1000], b[1000], c[1000];
	size_t na, nb, nc;

	(void)state;
	na = flaky_rx_run(42, 1000, a, sizeof(a));
	nb = flaky_rx_run(42, 7, b, sizeof(b));
	nc = flaky_rx_run(43, 1000, c, sizeof(c));
	/* about 30 % dropped */
	assert_true(na > 600 && na < 800);
	assert_int_equal(na, nb);
	assert_memory_equal(a, b, na);
	assert_true(na != nc || memcmp(a, c, na) != 0);
}

static void test_flaky_silent_after_tx_bytes_swallows_replies(void **state)
{
	struct pair p;
	struct hil_link *w;
	struct hil_link_faults f = no_faults(5);
	uint8_t buf[16];

	(void)state;
	f.silent_after_tx_bytes = 4;
	pair_open(&p);
	assert_int_equal(hil_link_wrap_flaky(&w, p.a, &f), HIL_OK);

	/* 3 bytes written: still talking */
	assert_int_equal(hil_link_write(w, (const uint8_t *)"abc", 3, 100),
			 HIL_OK);
	read_exactly(p.b, buf, 3);
	assert_int_equal(hil_link_write(p.b, (const uint8_t *)"ok", 2, 100),
			 HIL_OK);
	read_exactly(w, buf, 2);
	assert_memory_equal(buf, "ok", 2);

	/* the 4th byte goes out, then the target is silent */
	assert_int_equal(hil_link_write(w, (const uint8_t *)"d", 1, 100),
			 HIL_OK);
	read_exactly(p.b, buf, 1);
	assert_int_equal(hil_link_write(p.b, (const uint8_t *)"late", 4, 100),
			 HIL_OK);
	assert_int_equal(hil_link_read(w, buf, sizeof(buf), 100), 0);
	hil_link_close(w);
	hil_link_close(p.b);
}

static void test_flaky_dup_all_rx_delivers_every_byte_twice(void **state)
{
	struct pair p;
	struct hil_link *w;
	struct hil_link_faults f = no_faults(3);
	uint8_t in[10];

	(void)state;
	f.dup_permille_rx = 1000;
	pair_open(&p);
	assert_int_equal(hil_link_wrap_flaky(&w, p.a, &f), HIL_OK);
	assert_int_equal(hil_link_write(p.b, (const uint8_t *)"hello", 5, 100),
			 HIL_OK);
	/* A caller's buffer smaller than the doubled chunk loses nothing. */
	read_exactly(w, in, 3);
	read_exactly(w, in + 3, 7);
	assert_memory_equal(in, "hheelllloo", 10);
	assert_int_equal(hil_link_read(w, in, sizeof(in), 50), 0);
	hil_link_close(w);
	hil_link_close(p.b);
}

static void test_flaky_dup_all_tx_sends_every_byte_twice(void **state)
{
	struct pair p;
	struct hil_link *w;
	struct hil_link_faults f = no_faults(3);
	uint8_t in[6];

	(void)state;
	f.dup_permille_tx = 1000;
	pair_open(&p);
	assert_int_equal(hil_link_wrap_flaky(&w, p.a, &f), HIL_OK);
	assert_int_equal(hil_link_write(w, (const uint8_t *)"abc", 3, 100),
			 HIL_OK);
	read_exactly(p.b, in, 6);
	assert_memory_equal(in, "aabbcc", 6);
	hil_link_close(w);
	hil_link_close(p.b);
}

static void test_flaky_zero_all_rx_puts_a_zero_before_every_byte(void **state)
{
	struct pair p;
	struct hil_link *w;
	struct hil_link_faults f = no_faults(5);
	uint8_t in[6];

	(void)state;
	f.zero_permille_rx = 1000;
	pair_open(&p);
	assert_int_equal(hil_link_wrap_flaky(&w, p.a, &f), HIL_OK);
	assert_int_equal(hil_link_write(p.b, (const uint8_t *)"abc", 3, 100),
			 HIL_OK);
	read_exactly(w, in, 6);
	assert_memory_equal(in, "\0a\0b\0c", 6);
	hil_link_close(w);
	hil_link_close(p.b);
}

/* Fixed offsets count the bytes passed to write, across calls. */
static void test_flaky_zero_at_tx_inserts_at_those_offsets(void **state)
{
	struct pair p;
	struct hil_link *w;
	struct hil_link_faults f = no_faults(5);
	uint8_t in[9];

	(void)state;
	f.n_zero_at_tx = 2;
	f.zero_at_tx[0] = 2;
	f.zero_at_tx[1] = 5;
	pair_open(&p);
	assert_int_equal(hil_link_wrap_flaky(&w, p.a, &f), HIL_OK);
	assert_int_equal(hil_link_write(w, (const uint8_t *)"abcd", 4, 100),
			 HIL_OK);
	assert_int_equal(hil_link_write(w, (const uint8_t *)"efg", 3, 100),
			 HIL_OK);
	read_exactly(p.b, in, 9);
	assert_memory_equal(in, "ab\0cde\0fg", 9);
	assert_int_equal(hil_link_read(p.b, in, sizeof(in), 50), 0);
	hil_link_close(w);
	hil_link_close(p.b);
}

static void test_flaky_delay_rx_holds_bytes_back_in_order(void **state)
{
	struct pair p;
	struct hil_link *w;
	struct hil_link_faults f = no_faults(3);
	uint8_t in[3];
	uint64_t t0, dt;

	(void)state;
	f.delay_permille_rx = 1000;
	f.delay_ms = 40;
	pair_open(&p);
	assert_int_equal(hil_link_wrap_flaky(&w, p.a, &f), HIL_OK);
	t0 = ut_ms_now();
	assert_int_equal(hil_link_write(p.b, (const uint8_t *)"xyz", 3, 100),
			 HIL_OK);
	/* Late, not lost: nothing within 10 ms, then the bytes in order. */
	assert_int_equal(hil_link_read(w, in, sizeof(in), 10), 0);
	read_exactly(w, in, 3);
	dt = ut_ms_now() - t0;
	assert_memory_equal(in, "xyz", 3);
	/* Each byte 40 ms after the one before it. */
	assert_true(dt >= 115 && dt < UT_HANG_MS);
	hil_link_close(w);
	hil_link_close(p.b);
}

static void test_flaky_delay_tx_sends_bytes_late_in_order(void **state)
{
	struct pair p;
	struct hil_link *w;
	struct hil_link_faults f = no_faults(3);
	uint8_t in[3];
	uint64_t t0, dt;

	(void)state;
	f.delay_permille_tx = 1000;
	f.delay_ms = 30;
	pair_open(&p);
	assert_int_equal(hil_link_wrap_flaky(&w, p.a, &f), HIL_OK);
	t0 = ut_ms_now();
	assert_int_equal(hil_link_write(w, (const uint8_t *)"123", 3, 1000),
			 HIL_OK);
	dt = ut_ms_now() - t0;
	read_exactly(p.b, in, 3);
	assert_memory_equal(in, "123", 3);
	assert_true(dt >= 85 && dt < UT_HANG_MS);
	hil_link_close(w);
	hil_link_close(p.b);
}

static void test_flaky_drain_discards_arrived_bytes_not_late_ones(void **state)
{
	struct pair p;
	struct hil_link *w;
	struct hil_link_faults f = no_faults(11);
	uint8_t out[64], in[64];
	size_t i, late = 0;
	int r;

	(void)state;
	f.delay_permille_rx = 100;
	f.delay_ms = 300;
	pair_open(&p);
	assert_int_equal(hil_link_wrap_flaky(&w, p.a, &f), HIL_OK);
	for (i = 0; i < sizeof(out); i++) {
		out[i] = (uint8_t)i;
	}
	assert_int_equal(hil_link_write(p.b, out, sizeof(out), 100), HIL_OK);
	/* Some bytes arrive, the first late one holds back the rest. */
	r = hil_link_read(w, in, sizeof(in), 50);
	assert_true(r > 0 && r < (int)sizeof(out));
	assert_int_equal(hil_link_drain(w), HIL_OK);
	/* What was still on its way arrives after the drain, in order. */
	for (;;) {
		int n = hil_link_read(w, in + late, sizeof(in) - late, 2000);

		assert_true(n >= 0);
		if (n == 0 || late + (size_t)n == sizeof(out) - (size_t)r) {
			late += (size_t)n;
			break;
		}
		late += (size_t)n;
	}
	assert_int_equal(late, sizeof(out) - (size_t)r);
	assert_memory_equal(in, out + r, late);
	hil_link_close(w);
	hil_link_close(p.b);
}

static void test_flaky_wrap_rejects_null_faults_and_closes_inner(void **state)
{
	struct pair p;
	struct hil_link *w = NULL;

	(void)state;
	pair_open(&p);
	assert_int_equal(hil_link_wrap_flaky(&w, p.a, NULL), HIL_ERR_ARG);
	assert_null(w);
	/* p.a is closed: its peer sees EOF */
	assert_int_equal(hil_link_read(p.b, (uint8_t[4]){0}, 4, 500),
			 HIL_ERR_IO);
	hil_link_close(p.b);
}

/* What a link needs is its driver's to say: only the serial driver is
 * opened on the configuration's port; the others on what the flasher gives. */
static void test_only_the_serial_link_needs_a_port(void **state)
{
	const struct hil_link_ops *const *all = hil_link_all();
	size_t i, n = 0;

	(void)state;
	assert_int_equal(hil_link_needs_port("serial"), 1);
	assert_int_equal(hil_link_needs_port("socket"), 0);
	assert_int_equal(hil_link_needs_port("semihost"), 0);
	assert_int_equal(hil_link_needs_port("carrier-pigeon"), 0);
	for (i = 0; all[i] != NULL; i++) {
		n += all[i]->needs == HIL_LINK_NEEDS_PORT;
		/* Every registered link says what it is made on. */
		assert_true(all[i]->needs != 0);
	}
	assert_int_equal(n, 1);
	assert_int_equal(hil_link_needs("serial"), HIL_LINK_NEEDS_PORT);
	assert_int_equal(hil_link_needs("socket"), HIL_LINK_NEEDS_SOCKET);
	assert_int_equal(hil_link_needs("semihost"),
			 HIL_LINK_NEEDS_SEMIHOSTING);
	assert_int_equal(hil_link_needs("carrier-pigeon"), 0);
	assert_int_equal(hil_link_needs(NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fd_link_round_trip_both_ways),
		cmocka_unit_test(
			test_fd_link_read_timeout_returns_zero_within_bounds),
		cmocka_unit_test(
			test_fd_link_read_returns_what_is_there_without_waiting_for_cap),
		cmocka_unit_test(
			test_fd_link_peer_closed_is_an_io_error_naming_the_link),
		cmocka_unit_test(
			test_fd_link_write_times_out_when_peer_does_not_read),
		cmocka_unit_test(test_fd_link_drain_discards_pending_input),
		cmocka_unit_test(test_fd_link_is_close_on_exec),
		cmocka_unit_test(test_link_open_rejects_unknown_type),
		cmocka_unit_test(
			test_semihost_link_adopts_a_descriptor_and_carries_bytes),
		cmocka_unit_test(test_semihost_link_cannot_be_opened_by_name),
		cmocka_unit_test(
			test_adopt_refuses_links_made_by_name_and_closes_the_fd),
		cmocka_unit_test(
			test_link_table_names_what_a_config_may_choose),
		cmocka_unit_test(test_link_calls_reject_bad_arguments),
		cmocka_unit_test(test_only_the_serial_link_needs_a_port),
		cmocka_unit_test(
			test_serial_missing_port_is_an_error_naming_the_port),
		cmocka_unit_test(test_serial_rejects_zero_baud),
		cmocka_unit_test(
			test_serial_on_a_pty_says_to_use_the_socket_link),
		cmocka_unit_test(
			test_flaky_without_faults_passes_bytes_unchanged),
		cmocka_unit_test(test_flaky_drop_all_rx_delivers_nothing),
		cmocka_unit_test(test_flaky_drop_all_tx_sends_nothing),
		cmocka_unit_test(test_flaky_corrupt_all_rx_changes_every_byte),
		cmocka_unit_test(test_flaky_corrupt_all_tx_changes_every_byte),
		cmocka_unit_test(
			test_flaky_same_seed_gives_same_faults_whatever_the_chunking),
		cmocka_unit_test(
			test_flaky_silent_after_tx_bytes_swallows_replies),
		cmocka_unit_test(
			test_flaky_dup_all_rx_delivers_every_byte_twice),
		cmocka_unit_test(test_flaky_dup_all_tx_sends_every_byte_twice),
		cmocka_unit_test(
			test_flaky_zero_all_rx_puts_a_zero_before_every_byte),
		cmocka_unit_test(
			test_flaky_zero_at_tx_inserts_at_those_offsets),
		cmocka_unit_test(test_flaky_delay_rx_holds_bytes_back_in_order),
		cmocka_unit_test(test_flaky_delay_tx_sends_bytes_late_in_order),
		cmocka_unit_test(
			test_flaky_drain_discards_arrived_bytes_not_late_ones),
		cmocka_unit_test(
			test_flaky_wrap_rejects_null_faults_and_closes_inner),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
