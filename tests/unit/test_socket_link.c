/* test_socket_link: the unix-socket link against a real listening socket: connect, late server, no server, stale socket. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "util/err.h"
#include "drivers/link/link.h"
#include "unit_util.h"

/* ---- helpers ---- */

struct dir {
	char path[64];
	char sock[128];
};

static int setup_dir(void **state)
{
	struct dir *d = calloc(1, sizeof(*d));

	assert_non_null(d);
	snprintf(d->path, sizeof(d->path), "/tmp/hiltest-sock-XXXXXX");
	assert_non_null(mkdtemp(d->path));
	snprintf(d->sock, sizeof(d->sock), "%s/uart.sock", d->path);
	*state = d;
	return 0;
}

static int teardown_dir(void **state)
{
	struct dir *d = *state;

	unlink(d->sock);
	rmdir(d->path);
	free(d);
	return 0;
}

static int listen_on(const char *path)
{
	struct sockaddr_un sa;
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	assert_true(fd >= 0);
	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	assert_int_equal(listen(fd, 1), 0);
	return fd;
}

/* ---- tests ---- */

static void test_socket_connects_and_exchanges_bytes(void **state)
{
	struct dir *d = *state;
	struct hil_link *l;
	uint8_t buf[16];
	int srv, conn;

	srv = listen_on(d->sock);
	assert_int_equal(hil_link_open(&l, "socket", d->sock, 0), HIL_OK);
	assert_string_equal(hil_link_where(l), d->sock);
	assert_string_equal(hil_link_type(l), "socket");
	conn = accept(srv, NULL, NULL);
	assert_true(conn >= 0);

	assert_int_equal(hil_link_write(l, (const uint8_t *)"ping", 4, 500),
			 HIL_OK);
	assert_int_equal(read(conn, buf, sizeof(buf)), 4);
	assert_memory_equal(buf, "ping", 4);
	assert_int_equal(write(conn, "pong", 4), 4);
	assert_int_equal(hil_link_read(l, buf, sizeof(buf), 500), 4);
	assert_memory_equal(buf, "pong", 4);

	hil_link_close(l);
	close(conn);
	close(srv);
}

static void test_socket_retries_until_the_server_appears(void **state)
{
	struct dir *d = *state;
	struct hil_link *l;
	uint8_t buf[16];
	uint64_t t0, dt;
	pid_t pid;
	int st, r;

	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		/* a server that starts late, like QEMU */
		int srv, conn;

		ut_sleep_ms(300);
		srv = listen_on(d->sock);
		conn = accept(srv, NULL, NULL);
		if (conn < 0 || write(conn, "late", 4) != 4) {
			_exit(1);
		}
		(void)read(conn, buf, 1); /* until the client closes */
		_exit(0);
	}
	t0 = ut_ms_now();
	r = hil_link_socket_open(&l, d->sock, 2 * UT_HANG_MS);
	dt = ut_ms_now() - t0;
	assert_int_equal(r, HIL_OK);
	assert_true(dt >= 250 && dt < UT_HANG_MS);
	r = hil_link_read(l, buf, sizeof(buf), 1000);
	assert_int_equal(r, 4);
	assert_memory_equal(buf, "late", 4);
	hil_link_close(l);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

static void test_socket_without_server_times_out_naming_the_path(void **state)
{
	struct dir *d = *state;
	struct hil_link *l = (struct hil_link *)&l;
	struct ut_capture c;
	char log[2048];
	uint64_t t0, dt;
	int r;

	ut_capture_begin(&c);
	t0 = ut_ms_now();
	r = hil_link_socket_open(&l, d->sock, 200);
	dt = ut_ms_now() - t0;
	ut_capture_end(&c, log, sizeof(log));
	assert_int_equal(r, HIL_ERR_TIMEOUT);
	assert_null(l);
	assert_true(dt >= 195 && dt < UT_HANG_MS);
	assert_non_null(strstr(log, d->sock));
}

static void test_socket_stale_socket_file_times_out(void **state)
{
	struct dir *d = *state;
	struct hil_link *l;
	struct ut_capture c;
	char log[2048];
	int r;

	/* a socket file nobody listens on: what a killed QEMU leaves */
	close(listen_on(d->sock));
	ut_capture_begin(&c);
	r = hil_link_socket_open(&l, d->sock, 150);
	ut_capture_end(&c, log, sizeof(log));
	assert_int_equal(r, HIL_ERR_TIMEOUT);
	assert_non_null(strstr(log, d->sock));
	assert_non_null(strstr(log, "refused"));
}

static void test_socket_peer_close_is_an_io_error_naming_the_path(void **state)
{
	struct dir *d = *state;
	struct hil_link *l;
	struct ut_capture c;
	char log[2048];
	uint8_t buf[4];
	int srv, conn;

	srv = listen_on(d->sock);
	assert_int_equal(hil_link_socket_open(&l, d->sock, 500), HIL_OK);
	conn = accept(srv, NULL, NULL);
	assert_true(conn >= 0);
	close(conn);
	ut_capture_begin(&c);
	assert_int_equal(hil_link_read(l, buf, sizeof(buf), 1000), HIL_ERR_IO);
	ut_capture_end(&c, log, sizeof(log));
	assert_non_null(strstr(log, d->sock));
	hil_link_close(l);
	close(srv);
}

static void test_socket_rejects_a_path_longer_than_sun_path(void **state)
{
	struct hil_link *l;
	struct ut_capture c;
	char path[200], log[2048];

	(void)state;
	memset(path, 'x', sizeof(path) - 1);
	path[0] = '/';
	path[sizeof(path) - 1] = '\0';
	ut_capture_begin(&c);
	assert_int_equal(hil_link_socket_open(&l, path, 100), HIL_ERR_ARG);
	ut_capture_end(&c, log, sizeof(log));
	assert_non_null(strstr(log, "longer than"));
}

static void test_socket_read_timeout_returns_zero(void **state)
{
	struct dir *d = *state;
	struct hil_link *l;
	uint8_t buf[4];
	uint64_t t0, dt;
	int srv;

	srv = listen_on(d->sock);
	assert_int_equal(hil_link_socket_open(&l, d->sock, 500), HIL_OK);
	t0 = ut_ms_now();
	assert_int_equal(hil_link_read(l, buf, sizeof(buf), 80), 0);
	dt = ut_ms_now() - t0;
	assert_true(dt >= 75 && dt < UT_HANG_MS);
	hil_link_close(l);
	close(srv);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
			test_socket_connects_and_exchanges_bytes, setup_dir,
			teardown_dir),
		cmocka_unit_test_setup_teardown(
			test_socket_retries_until_the_server_appears, setup_dir,
			teardown_dir),
		cmocka_unit_test_setup_teardown(
			test_socket_without_server_times_out_naming_the_path,
			setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(
			test_socket_stale_socket_file_times_out, setup_dir,
			teardown_dir),
		cmocka_unit_test_setup_teardown(
			test_socket_peer_close_is_an_io_error_naming_the_path,
			setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(
			test_socket_rejects_a_path_longer_than_sun_path,
			setup_dir, teardown_dir),
		cmocka_unit_test_setup_teardown(
			test_socket_read_timeout_returns_zero, setup_dir,
			teardown_dir),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
