/* End-to-end tests of the recovery ladder against a dying or frozen emulator: qemu-system-arm killed with SIGKILL (or stopped with SIGSTOP) twice while hilrun runs, on the semihosting link and on the USART; hilrun starts it again, completes every row, and its report counts the restarts. */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <dirent.h>
#include <signal.h>
#include <sys/types.h>

#include "e2e_util.h"
#include "util/err.h"
#include "util/proc.h"

static char tmp[64];

/* The two links of the emulated board: the default (semihosting on QEMU's
 * stdio) and its USART2 on a unix socket. */
enum { SEMIHOST, USART, N_LINKS };
static const char *const link_type[N_LINKS] = {"semihost", "socket"};

/*
 * Two implementations, three lengths, 300 runs: a row takes long enough
 * (tens of ms of emulated work) for a kill to land inside one. No
 * timing-leak test per row: it only makes the run longer. The semihost
 * configuration names no link: it is the board's default.
 */
static void write_config(const char *path, int link)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fprintf(f,
		"{\"name\": \"e2e-qemu-kill\", \"board\": {\"name\": \"qemu-netduino\"},"
		"%s"
		" \"algorithms\": [\"ascon-aead128\","
		" {\"name\": \"ascon-aead128\", \"impl\": \"bi32\"}],"
		" \"bench\": {\"operations\": [\"encrypt\"],"
		" \"lengths\": [64, 256, 1024], \"runs\": 300, \"warmup\": 2,"
		" \"leak_runs\": 0}}",
		link == USART ? " \"link\": {\"type\": \"socket\"}," : "");
	fclose(f);
}

static size_t count_lines(const char *text)
{
	size_t n = 0;

	for (; *text != '\0'; text++) {
		n += *text == '\n';
	}
	return n;
}

/* Wait until the journal under results has n rows measured ok. */
static void wait_rows(struct hil_proc *p, const char *results, size_t n)
{
	uint64_t deadline = e2e_ms_now() + 60000;
	char journal[300];
	DIR *d;
	struct dirent *e;

	for (;;) {
		/* The run folder is the only entry until the run ends. */
		d = opendir(results);
		while (d != NULL && (e = readdir(d)) != NULL) {
			if (e->d_name[0] == '.') {
				continue;
			}
			snprintf(journal, sizeof(journal),
				 "%s/%s/journal.jsonl", results, e->d_name);
			if (e2e_lines_with(journal, "\"status\":\"ok\"") >= n) {
				closedir(d);
				return;
			}
		}
		if (d != NULL) {
			closedir(d);
		}
		if (!hil_proc_alive(p)) {
			fail_msg("hilrun ended before %zu rows were measured",
				 n);
		}
		if (e2e_ms_now() > deadline) {
			fail_msg("no %zu rows measured within 60 s", n);
		}
		e2e_sleep_ms(5);
	}
}

/* Send sig to hilrun's emulator (not except, an earlier one); @return its
 * pid. */
static int signal_qemu(struct hil_proc *p, int except, int sig)
{
	uint64_t deadline = e2e_ms_now() + E2E_HANG_MS;
	int q;

	for (;;) {
		q = e2e_child_named((int)hil_proc_pid(p), E2E_QEMU_PROGRAM,
				    except);
		if (q > 0) {
			break;
		}
		if (e2e_ms_now() > deadline) {
			fail_msg("hilrun (pid %d) has no %s child",
				 (int)hil_proc_pid(p), E2E_QEMU_PROGRAM);
		}
		e2e_sleep_ms(5);
	}
	fprintf(stderr, "e2e: signal %d to %s pid %d\n", sig, E2E_QEMU_PROGRAM,
		q);
	assert_int_equal(kill((pid_t)q, sig), 0);
	return q;
}

static int kill_qemu(struct hil_proc *p, int except)
{
	return signal_qemu(p, except, SIGKILL);
}

/* The undisturbed run's rows on each link, measured once for every test
 * (freed by teardown), and its build-id. */
static char *clean_rows[N_LINKS];
static char clean_build_id[N_LINKS][48];

static const char *rows_of_a_clean_run(const char *conf, int link)
{
	char clean[128], dir[256], report[300], type[32];
	int st = -1;

	if (clean_rows[link] != NULL) {
		return clean_rows[link];
	}
	snprintf(clean, sizeof(clean), "%s/clean-%s", tmp, link_type[link]);
	{
		char *const argv[] = {(char *)e2e_hilrun_bin(),
				      "-q",
				      "--config",
				      (char *)conf,
				      "--results",
				      clean,
				      NULL};

		assert_int_equal(hil_proc_run(argv, NULL, 120000, &st), HIL_OK);
		assert_int_equal(st, 0);
	}
	e2e_run_dir(clean, dir, sizeof(dir));
	snprintf(report, sizeof(report), "%s/report.json", dir);
	assert_int_equal((int)e2e_report_num(report, "session.reflashes"), 0);
	/* The report names the transport. */
	e2e_report_str(report, "board.link", type, sizeof(type));
	assert_string_equal(type, link_type[link]);
	e2e_report_str(report, "build.build_id", clean_build_id[link],
		       sizeof(clean_build_id[link]));
	clean_rows[link] = e2e_report_rows(report);
	return clean_rows[link];
}

/* hilrun's exit status st was 0, else fail showing its log. */
static void expect_success(int st, const char *log)
{
	char text[16384] = "";
	FILE *f;

	if (st == 0) {
		return;
	}
	f = fopen(log, "r");
	if (f != NULL) {
		text[fread(text, 1, sizeof(text) - 1, f)] = '\0';
		fclose(f);
	}
	fail_msg("hilrun exited %d:\n%s", st, text);
}

static void killed_twice(int link)
{
	char conf[128], killed[128], log[128];
	char dir[256], report_killed[300], status[32], type[32];
	char *rows_killed;
	struct hil_proc *p = NULL;
	int st = -1;
	int q1;

	snprintf(conf, sizeof(conf), "%s/kill-%s.json", tmp, link_type[link]);
	snprintf(killed, sizeof(killed), "%s/killed-%s", tmp, link_type[link]);
	snprintf(log, sizeof(log), "%s/killed-%s.log", tmp, link_type[link]);
	write_config(conf, link);
	/* The reference: the same configuration, undisturbed. */
	rows_of_a_clean_run(conf, link);

	{
		char *const argv[] = {(char *)e2e_hilrun_bin(),
				      "--config",
				      conf,
				      "--results",
				      killed,
				      NULL};

		assert_int_equal(hil_proc_spawn(&p, argv, log), HIL_OK);
	}
	/* Once inside the first implementation's rows... */
	wait_rows(p, killed, 1);
	q1 = kill_qemu(p, 0);
	/* ...and once the first implementation is done: the second is being
	 * verified or measured. */
	wait_rows(p, killed, 3);
	kill_qemu(p, q1);
	assert_int_equal(hil_proc_wait(p, 120000, &st), HIL_OK);
	hil_proc_free(p);
	expect_success(st, log);
	assert_int_equal(e2e_lines_with(log, "programming and starting"), 2);

	e2e_run_dir(killed, dir, sizeof(dir));
	snprintf(report_killed, sizeof(report_killed), "%s/report.json", dir);
	e2e_report_str(report_killed, "run.status", status, sizeof(status));
	assert_string_equal(status, "complete");
	e2e_report_str(report_killed, "board.link", type, sizeof(type));
	assert_string_equal(type, link_type[link]);
	/* Two restarts of the emulator, counted; QEMU has no reset. */
	assert_int_equal(
		(int)e2e_report_num(report_killed, "session.reflashes"), 2);
	assert_int_equal((int)e2e_report_num(report_killed, "session.resets"),
			 0);
	/* Every row measured, and equal to the undisturbed run's. */
	rows_killed = e2e_report_rows(report_killed);
	assert_null(strstr(rows_killed, ": failed"));
	assert_int_equal(count_lines(rows_killed), 6);
	assert_string_equal(rows_killed, rows_of_a_clean_run(conf, link));
	free(rows_killed);
	assert_true(e2e_qemu_gone(tmp, NULL, E2E_HANG_MS));
}

/* The fast transport (issue #14's acceptance): QEMU killed mid-run on the
 * semihost link, and the run recovers as it does on the USART. */
static void
test_qemu_killed_twice_mid_run_on_semihosting_is_restarted_and_every_row_measured(
	void **state)
{
	(void)state;
	killed_twice(SEMIHOST);
}

/* The USART path stays tested on QEMU. */
static void
test_qemu_killed_twice_mid_run_on_the_usart_is_restarted_and_every_row_measured(
	void **state)
{
	(void)state;
	killed_twice(USART);
}

/*
 * Above the bytes nothing differs: the same configuration measures the
 * same rows (every sample, digest and status) over either link. The images
 * differ in their HAL only, and so in their build-id.
 */
static void test_both_links_measure_the_same_rows(void **state)
{
	char conf[128];
	int link;

	(void)state;
	for (link = 0; link < N_LINKS; link++) {
		snprintf(conf, sizeof(conf), "%s/kill-%s.json", tmp,
			 link_type[link]);
		write_config(conf, link);
		rows_of_a_clean_run(conf, link);
	}
	assert_string_equal(clean_rows[SEMIHOST], clean_rows[USART]);
	assert_string_not_equal(clean_build_id[SEMIHOST],
				clean_build_id[USART]);
}

/*
 * A frozen emulator (SIGSTOP, never continued) answers nothing, like a dead
 * one, but its socket stays open: hilrun sees only timeouts. It must find
 * it stopped and restart it as it does a killed one, once inside a row and
 * once during the second implementation, and measure again what was lost.
 */
static void
test_qemu_frozen_twice_mid_run_is_restarted_and_every_row_measured(void **state)
{
	char conf[128], frozen[128], log[128];
	char dir[256], report[300], status[32];
	char *rows;
	struct hil_proc *p = NULL;
	int st = -1;
	int q1;

	(void)state;
	snprintf(conf, sizeof(conf), "%s/kill-%s.json", tmp,
		 link_type[SEMIHOST]);
	snprintf(frozen, sizeof(frozen), "%s/frozen", tmp);
	snprintf(log, sizeof(log), "%s/frozen.log", tmp);
	write_config(conf, SEMIHOST);
	rows_of_a_clean_run(conf, SEMIHOST);
	{
		char *const argv[] = {(char *)e2e_hilrun_bin(),
				      "--config",
				      conf,
				      "--results",
				      frozen,
				      NULL};

		assert_int_equal(hil_proc_spawn(&p, argv, log), HIL_OK);
	}
	wait_rows(p, frozen, 1);
	q1 = signal_qemu(p, 0, SIGSTOP);
	wait_rows(p, frozen, 3);
	signal_qemu(p, q1, SIGSTOP);
	assert_int_equal(hil_proc_wait(p, 180000, &st), HIL_OK);
	hil_proc_free(p);
	expect_success(st, log);
	assert_int_equal(e2e_lines_with(log, "is stopped, not running"), 2);
	assert_int_equal(e2e_lines_with(log, "programming and starting"), 2);

	e2e_run_dir(frozen, dir, sizeof(dir));
	snprintf(report, sizeof(report), "%s/report.json", dir);
	e2e_report_str(report, "run.status", status, sizeof(status));
	assert_string_equal(status, "complete");
	assert_int_equal((int)e2e_report_num(report, "session.reflashes"), 2);
	rows = e2e_report_rows(report);
	assert_null(strstr(rows, ": failed"));
	assert_int_equal(count_lines(rows), 6);
	assert_string_equal(rows, rows_of_a_clean_run(conf, SEMIHOST));
	free(rows);
	/* The frozen ones were killed, not left behind. */
	assert_true(e2e_qemu_gone(tmp, NULL, E2E_HANG_MS));
}

static int setup(void **state)
{
	char locks[96];

	(void)state;
	snprintf(tmp, sizeof(tmp), "/tmp/hilrun-qemu-kill-XXXXXX");
	if (mkdtemp(tmp) == NULL) {
		return -1;
	}
	/* Its own lock folder: other runs on this host do not delay it. */
	snprintf(locks, sizeof(locks), "%s/locks", tmp);
	return setenv("HILRUN_LOCK_DIR", locks, 1);
}

static int teardown(void **state)
{
	int link;

	(void)state;
	for (link = 0; link < N_LINKS; link++) {
		free(clean_rows[link]);
		clean_rows[link] = NULL;
	}
	e2e_qemu_gone(tmp, NULL, E2E_HANG_MS);
	e2e_remove_tree(tmp);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			test_qemu_killed_twice_mid_run_on_semihosting_is_restarted_and_every_row_measured),
		cmocka_unit_test(
			test_qemu_killed_twice_mid_run_on_the_usart_is_restarted_and_every_row_measured),
		cmocka_unit_test(test_both_links_measure_the_same_rows),
		cmocka_unit_test(
			test_qemu_frozen_twice_mid_run_is_restarted_and_every_row_measured),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
