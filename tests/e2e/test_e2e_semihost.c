/* test_e2e_semihost: the emulated board's fast transport end to end: the real stub built for semihosting under QEMU, its frames over QEMU's stdio, checked as the USART's are (round trips, damage caught by the CRC, a hung or killed emulator, a reset), and idle without burning CPU. */
#define _XOPEN_SOURCE 700

#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include <cmocka.h>

#include "config/config.h"
#include "drivers/flasher/flasher.h"
#include "drivers/link/link.h"
#include "e2e_util.h"
#include "hilp.h"
#include "image/refcrypto/refcrypto.h"
#include "result/run.h"
#include "run/runner.h"
#include "session/session.h"
#include "session/stub.h"
#include "util/err.h"

#define ALG_NAME     "ascon-aead128"
#define ALG_IMPL     "ref"
#define HANDSHAKE_MS 10000u

/* The mkdtemp() root of everything this file writes; removed at the end. */
static char tmp_root[64];

/*
 * A small configuration that names no link: the emulated board's default,
 * semihosting. Named "e2e-semihost" so that its image is built once.
 */
static void make_config(struct hil_config *cfg, unsigned timeout_ms,
			unsigned retries)
{
	char json[1024], err[512] = "";

	snprintf(json, sizeof(json),
		 "{ \"name\": \"e2e-semihost\","
		 " \"board\": { \"name\": \"qemu-netduino\" },"
		 " \"link\": { \"timeout_ms\": %u, \"retries\": %u },"
		 " \"algorithms\": [\"" ALG_NAME "\"],"
		 " \"bench\": { \"operations\": [\"encrypt\"],"
		 " \"lengths\": [64], \"runs\": 20, \"warmup\": 1 },"
		 " \"cycle_model\": { \"enabled\": false },"
		 " \"results_dir\": \"%s\" }",
		 timeout_ms, retries, tmp_root);
	if (hil_config_parse(json, NULL, cfg, err, sizeof(err)) != HIL_OK) {
		fail_msg("config rejected: %s\n%s", err, json);
	}
	assert_string_equal(cfg->link.type, "semihost");
}

/* A target on the board's default link, running ALG_NAME/ALG_IMPL. */
static struct e2e_target *target_up(const char *sub, unsigned timeout_ms,
				    unsigned retries,
				    const struct hil_link_faults *faults)
{
	struct hil_config cfg = {0};
	struct e2e_target *t;

	make_config(&cfg, timeout_ms, retries);
	t = e2e_target_up(&cfg, tmp_root, sub, faults, ALG_NAME, ALG_IMPL);
	hil_config_free(&cfg);
	return t;
}

/* Each test's target, released by the teardown also when a test fails. */
static int held_setup(void **state)
{
	*state = NULL;
	return 0;
}

static int held_teardown(void **state)
{
	e2e_target_down(*state);
	*state = NULL;
	return e2e_qemu_gone(tmp_root, NULL, E2E_HANG_MS) ? 0 : -1;
}

/* The emulator of this test process (the flasher's child). */
static pid_t our_qemu(void)
{
	int pid = e2e_child_named((int)getpid(), E2E_QEMU_PROGRAM, 0);

	assert_true(pid > 0);
	return (pid_t)pid;
}

/* CPU seconds (user + system) a process has used, from /proc/PID/stat. */
static double cpu_seconds(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long ut = 0, st = 0;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	assert_non_null(p);
	/* After ") ": state, then fields 4..13; utime and stime are 14, 15. */
	assert_int_equal(
		sscanf(p + 2,
		       "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu",
		       &ut, &st),
		2);
	return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

/* ---------------------------------------------------------------- tests */

/*
 * Frames of every size cross both ways: INFO names the board and the
 * image, LOAD and FETCH move the largest chunks a frame carries, EXEC and
 * BENCH give what the host's own build of the algorithm gives.
 */
static void test_frames_round_trip_over_semihosting(void **state)
{
	struct e2e_target *t = target_up("t1", 2000, 3, NULL);
	uint8_t key[16], npub[16], msg[200], got[300], want[300], back[200];
	size_t got_len = 0, want_len = 0, i;
	struct hilp_bench_req br;
	struct hilp_bench_rep rep;
	uint32_t samples[20], digest = 0;
	int rej = 0;

	*state = t;
	assert_string_equal(hil_link_type(t->conn.link), "semihost");
	e2e_assert_contains(hil_link_where(t->conn.link), "semihosting");
	assert_string_equal(t->run.info.board, "qemu-netduino");
	assert_int_equal(t->run.info.protocol, HILP_PROTOCOL_VERSION);
	assert_int_equal(hil_runner_identify(&t->run), HIL_OK);
	/* No receiver to overrun: reported, and zero. */
	assert_int_equal(t->run.info.has_uart_overruns, 1);
	assert_int_equal(t->run.info.uart_overruns, 0);

	for (i = 0; i < sizeof(msg); i++) {
		msg[i] = (uint8_t)(i * 31 + 7);
	}
	assert_int_equal(hil_target_load(t->conn.session, HILP_BUF_MSG, msg,
					 sizeof(msg)),
			 HIL_OK);
	assert_int_equal(hil_target_fetch(t->conn.session, HILP_BUF_MSG, back,
					  sizeof(back)),
			 HIL_OK);
	assert_memory_equal(back, msg, sizeof(msg));

	memset(key, 0x4B, sizeof(key));
	memset(npub, 0x4E, sizeof(npub));
	assert_int_equal(hil_target_exec(t->conn.session, (uint8_t)t->alg,
					 HILP_OP_ENCRYPT, key, sizeof(key),
					 npub, sizeof(npub), NULL, 0, msg,
					 sizeof(msg), 0, got, sizeof(got),
					 &got_len, &rej),
			 HIL_OK);
	assert_int_equal(hil_ref_run(e2e_ref_alg(ALG_NAME, ALG_IMPL),
				     HILP_OP_ENCRYPT, key, npub, NULL, 0, msg,
				     sizeof(msg), 0, want, sizeof(want),
				     &want_len, &rej),
			 HIL_OK);
	assert_int_equal(got_len, want_len);
	assert_memory_equal(got, want, want_len);

	memset(&br, 0, sizeof(br));
	br.alg = (uint8_t)t->alg;
	br.msg_len = 64;
	br.runs = 20;
	br.warmup = 1;
	br.seed = 9;
	assert_int_equal(hil_target_bench(t->conn.session, HILP_OP_ENCRYPT, &br,
					  &rep, samples, 0),
			 HIL_OK);
	assert_int_equal(hil_ref_bench_digest(e2e_ref_alg(ALG_NAME, ALG_IMPL),
					      HILP_OP_ENCRYPT, 64, 0, 0, 20, 9,
					      &digest),
			 HIL_OK);
	assert_int_equal(rep.digest, digest);
	for (i = 0; i < 20; i++) {
		assert_int_equal(samples[i], samples[0]); /* exact, emulated */
	}
	assert_int_equal(hil_session_get_stats(t->conn.session)->bad_frames, 0);
}

/*
 * Damage on the new transport is caught exactly as on the USART: bytes
 * corrupted or dropped on the way in fail the reply's CRC and are asked
 * again; bytes corrupted on the way out make the stub answer BAD_CRC.
 * Every result is still the right one.
 */
static void test_damaged_bytes_are_caught_by_the_crc_and_retried(void **state)
{
	const struct hil_link_faults faults = {
		.seed = 20261205u,
		.corrupt_permille_rx = 3,
		.drop_permille_rx = 1,
		.corrupt_permille_tx = 3,
		.silent_after_tx_bytes = -1,
	};
	/* A lost reply costs one timeout; 300 ms and 16 retries wait out a
	 * slow QEMU on a loaded machine too (seventeen in a row to fail). */
	struct e2e_target *t = target_up("t2", 300, 16, &faults);
	const struct hil_session_stats *st;
	uint32_t rng = hilp_prng_init(14);
	unsigned i;

	*state = t;
	for (i = 0; i < 30; i++) {
		uint8_t key[16], npub[16], msg[120], back[120];
		uint8_t got[160], want[160];
		size_t got_len = 0, want_len = 0, msg_len = 8 + i * 2;
		int rej_g = 0, rej_w = 0;

		hilp_prng_fill(&rng, key, sizeof(key));
		hilp_prng_fill(&rng, npub, sizeof(npub));
		hilp_prng_fill(&rng, msg, sizeof(msg));
		assert_int_equal(hil_target_load(t->conn.session, HILP_BUF_AD,
						 msg, sizeof(msg)),
				 HIL_OK);
		assert_int_equal(hil_target_fetch(t->conn.session, HILP_BUF_AD,
						  back, sizeof(back)),
				 HIL_OK);
		assert_memory_equal(back, msg, sizeof(msg));
		assert_int_equal(
			hil_target_exec(t->conn.session, (uint8_t)t->alg,
					HILP_OP_ENCRYPT, key, sizeof(key), npub,
					sizeof(npub), NULL, 0, msg, msg_len, 0,
					got, sizeof(got), &got_len, &rej_g),
			HIL_OK);
		assert_int_equal(hil_ref_run(e2e_ref_alg(ALG_NAME, ALG_IMPL),
					     HILP_OP_ENCRYPT, key, npub, NULL,
					     0, msg, msg_len, 0, want,
					     sizeof(want), &want_len, &rej_w),
				 HIL_OK);
		assert_int_equal(got_len, want_len);
		assert_memory_equal(got, want, want_len);
	}
	st = hil_session_get_stats(t->conn.session);
	fprintf(stderr,
		"e2e: semihost, flaky: %u requests, %u retries, %u bad frames, %u timeouts, %u target rejects\n",
		st->requests, st->retries, st->bad_frames, st->timeouts,
		st->target_rejects);
	assert_true(st->bad_frames > 0); /* replies damaged on the way in */
	assert_true(st->target_rejects >
		    0); /* requests damaged on the way out */
	assert_true(st->retries > 0);
}

/*
 * The stub checks the CRC of what reaches it over semihosting: a request
 * with one byte flipped is answered with BAD_CRC and nothing else, and the
 * next good one is served.
 */
static void test_stub_answers_a_damaged_request_with_bad_crc(void **state)
{
	struct e2e_target *t = target_up("t3", 2000, 3, NULL);
	uint8_t frame[HILP_MAX_FRAME], buf[512];
	uint8_t seq = 0x5A;
	const uint8_t zero = 0;
	struct hilp_rx rx;
	struct hilp_packet p;
	uint64_t deadline;
	size_t n, i;
	int got_status = 0;

	*state = t;
	assert_int_equal(hil_link_drain(t->conn.link), HIL_OK);
	assert_int_equal(hil_link_write(t->conn.link, &zero, 1, 1000), HIL_OK);
	n = hilp_encode_request(HILP_CMD_INFO, 0, &seq, 1, frame);
	frame[1] ^= 0x01; /* the command byte: the CRC no longer matches */
	assert_int_equal(hil_link_write(t->conn.link, frame, n, 1000), HIL_OK);
	hilp_rx_init(&rx);
	deadline = e2e_ms_now() + E2E_HANG_MS; /* only a hang reaches it */
	while (!got_status && e2e_ms_now() < deadline) {
		int r = hil_link_read(t->conn.link, buf, sizeof(buf), 200);

		assert_true(r >= 0);
		for (i = 0; i < (size_t)r; i++) {
			if (hilp_rx_push(&rx, buf[i]) == 1 && rx.len > 0) {
				assert_int_equal(
					hilp_decode_reply(rx.buf, rx.len, &p),
					HILP_ST_OK);
				hilp_rx_init(&rx);
				assert_int_equal(p.cmd, HILP_ERROR);
				assert_int_equal(p.data[0], HILP_ST_BAD_CRC);
				got_status = 1;
			}
		}
	}
	assert_true(got_status);
	/* The session on the same link goes on. */
	{
		struct hilp_info info;

		assert_int_equal(hil_session_handshake(t->conn.session,
						       HANDSHAKE_MS, &info),
				 HIL_OK);
	}
}

/* A hung target (its replies never arrive) ends in a bounded timeout. */
static void test_hung_target_times_out_bounded(void **state)
{
	const struct hil_link_faults silent = {
		.seed = 1,
		.silent_after_tx_bytes = 0,
	};
	struct e2e_target *t = target_up("t4", 200, 2, NULL);
	uint8_t reply[HILP_MAX_DATA], st = 0xEE;
	size_t len = 0;
	uint64_t t0;
	unsigned timeouts0;

	*state = t;
	e2e_target_wrap_link(t, &silent, 200, 2);
	timeouts0 = hil_session_get_stats(t->conn.session)->timeouts;
	t0 = e2e_ms_now();
	assert_int_equal(hil_session_call(t->conn.session, HILP_CMD_INFO, 0,
					  NULL, 0, reply, sizeof(reply), &len,
					  &st, 0),
			 HIL_ERR_TIMEOUT);
	/*
	 * Three attempts of 200 ms, each waited out, and no more: the
	 * session's count says so (the clock can only say it did not end
	 * early, and that it ended).
	 */
	assert_true(e2e_ms_now() - t0 >= 550);
	assert_int_equal(hil_session_get_stats(t->conn.session)->timeouts,
			 timeouts0 + 3);
	assert_true(e2e_ms_now() - t0 < E2E_HANG_MS);
	assert_int_equal(hil_flasher_check(t->conn.flasher), HIL_OK);
}

/*
 * A killed emulator is the end of its stdio: the next call fails at once
 * with an I/O error (not after a timeout), the flasher says why, and a
 * restart on a new pair answers with the same image.
 */
static void test_killed_emulator_is_seen_at_once_and_restarts(void **state)
{
	struct e2e_target *t = target_up("t5", 2000, 3, NULL);
	uint8_t reply[HILP_MAX_DATA], st = 0xEE;
	struct hilp_info info;
	size_t len = 0;
	uint64_t t0;
	unsigned timeouts0;
	int fd, r = HIL_OK, tries;

	*state = t;
	timeouts0 = hil_session_get_stats(t->conn.session)->timeouts;
	assert_int_equal(kill(our_qemu(), SIGKILL), 0);
	t0 = e2e_ms_now();
	assert_int_equal(hil_session_call(t->conn.session, HILP_CMD_INFO, 0,
					  NULL, 0, reply, sizeof(reply), &len,
					  &st, 0),
			 HIL_ERR_IO);
	/* Not after a timeout: no attempt was waited out (the session's
	 * count, not the clock, tells the two apart). */
	assert_int_equal(hil_session_get_stats(t->conn.session)->timeouts,
			 timeouts0);
	assert_true(e2e_ms_now() - t0 < E2E_HANG_MS);
	for (tries = 0; tries < 200; tries++) {
		r = hil_flasher_check(t->conn.flasher);
		if (r != HIL_OK) {
			break;
		}
		e2e_sleep_ms(10);
	}
	assert_int_equal(r, HIL_ERR_PROCESS);

	hil_session_close(t->conn.session);
	t->conn.session = NULL;
	hil_link_close(t->conn.link);
	t->conn.link = NULL;
	assert_int_equal(hil_flasher_start(t->conn.flasher, t->run.fw.elf),
			 HIL_OK);
	fd = hil_flasher_link_fd(t->conn.flasher);
	assert_true(fd >= 0);
	assert_int_equal(
		hil_link_adopt(&t->conn.link, "semihost", fd,
			       hil_flasher_link_where(t->conn.flasher)),
		HIL_OK);
	assert_int_equal(
		hil_session_open(&t->conn.session, t->conn.link, 2000, 3),
		HIL_OK);
	assert_int_equal(
		hil_session_handshake(t->conn.session, HANDSHAKE_MS, &info),
		HIL_OK);
	assert_memory_equal(info.build_id, t->run.info.build_id,
			    info.build_id_len);
}

/*
 * RESET: the stub answers, resets the core (the USART's TC wait ends at
 * once: it sent nothing), opens the console again and answers anew.
 */
static void test_reset_command_restarts_the_stub_on_the_same_pair(void **state)
{
	struct e2e_target *t = target_up("t6", 2000, 3, NULL);
	uint8_t reply[HILP_MAX_DATA], st = 0xEE;
	struct hilp_info info;
	size_t len = 0;

	*state = t;
	assert_int_equal(hil_session_call(t->conn.session, HILP_CMD_RESET, 0,
					  NULL, 0, reply, sizeof(reply), &len,
					  &st, 0),
			 HIL_OK);
	assert_int_equal(st, HILP_ST_OK);
	assert_int_equal(
		hil_session_handshake(t->conn.session, HANDSHAKE_MS, &info),
		HIL_OK);
	assert_string_equal(info.board, "qemu-netduino");
	assert_int_equal(hil_flasher_check(t->conn.flasher), HIL_OK);
}

/*
 * The point of it all: a stub waiting for the host sleeps in QEMU's read()
 * instead of polling a status register, so an idle emulator uses next to
 * no CPU (on the USART it uses a fifth to a half of a core).
 */
static void test_idle_emulator_burns_no_cpu(void **state)
{
	struct e2e_target *t = target_up("t7", 2000, 3, NULL);
	pid_t q = our_qemu();
	double c0, c1;

	*state = t;
	e2e_sleep_ms(200); /* past the start */
	c0 = cpu_seconds(q);
	e2e_sleep_ms(1000);
	c1 = cpu_seconds(q);
	fprintf(stderr, "e2e: idle semihost QEMU: %.0f%% of a core\n",
		(c1 - c0) * 100.0);
	assert_true(c1 - c0 < 0.05);
}

/* ---------------------------------------------------------------- main */

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
			test_frames_round_trip_over_semihosting, held_setup,
			held_teardown),
		cmocka_unit_test_setup_teardown(
			test_damaged_bytes_are_caught_by_the_crc_and_retried,
			held_setup, held_teardown),
		cmocka_unit_test_setup_teardown(
			test_stub_answers_a_damaged_request_with_bad_crc,
			held_setup, held_teardown),
		cmocka_unit_test_setup_teardown(
			test_hung_target_times_out_bounded, held_setup,
			held_teardown),
		cmocka_unit_test_setup_teardown(
			test_killed_emulator_is_seen_at_once_and_restarts,
			held_setup, held_teardown),
		cmocka_unit_test_setup_teardown(
			test_reset_command_restarts_the_stub_on_the_same_pair,
			held_setup, held_teardown),
		cmocka_unit_test_setup_teardown(test_idle_emulator_burns_no_cpu,
						held_setup, held_teardown),
	};
	int failed;

	if (e2e_main_begin(NULL, 0, tmp_root, sizeof(tmp_root),
			   "/tmp/hilrun-e2e-semihost-XXXXXX") != 0) {
		return 1;
	}
	failed = cmocka_run_group_tests(tests, NULL, NULL);
	e2e_qemu_gone(tmp_root, NULL, E2E_HANG_MS);
	e2e_remove_tree(tmp_root);
	return failed;
}
