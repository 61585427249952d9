/* End-to-end test of the board lock between hilrun processes: two runs on one board of the hardware map, both made to wait on the test's own hold of the board, take turns (each says whom it waits for) and both complete; with --wait 0 the second fails at once (exit 5, worth a retry), naming the holder; two runs on the bare emulator take no lock and go side by side; a sweep takes each board's lock as a single run does, runs a board's configurations one at a time whatever --jobs, and reports those whose board it cannot have as not run while the others still run. */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <cjson/cJSON.h>
#include <unistd.h>

#include "e2e_util.h"
#include "util/err.h"
#include "lab/lock.h"
#include "util/proc.h"

static char tmp[64];

/* A run of a few seconds on the emulated board. */
static void write_config(const char *path)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs("{\"name\": \"e2e-lock\", \"board\": {\"name\": \"qemu-netduino\"},"
	      " \"algorithms\": [\"ascon-aead128\"],"
	      " \"bench\": {\"operations\": [\"encrypt\"],"
	      " \"lengths\": [16, 256], \"runs\": 200, \"warmup\": 2,"
	      " \"leak_runs\": 0}}",
	      f);
	fclose(f);
}

static void read_text(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n = 0;

	if (f != NULL) {
		n = fread(buf, 1, len - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
}

static struct hil_proc *start(const char *conf, const char *results,
			      const char *wait, const char *log)
{
	char *const argv[] = {(char *)e2e_hilrun_bin(),
			      "--config",
			      (char *)conf,
			      "--results",
			      (char *)results,
			      "--wait",
			      (char *)wait,
			      "--board",
			      "qemu-lock",
			      NULL};
	struct hil_proc *p = NULL;

	assert_int_equal(hil_proc_spawn(&p, argv, log), HIL_OK);
	return p;
}

/* The report of the one run under results, with every row ok. */
static void check_complete(const char *results, char *report, size_t len,
			   char **rows)
{
	char dir[256], status[32];

	e2e_run_dir(results, dir, sizeof(dir));
	snprintf(report, len, "%s/report.json", dir);
	e2e_report_str(report, "run.status", status, sizeof(status));
	assert_string_equal(status, "complete");
	*rows = e2e_report_rows(report);
	assert_non_null(strstr(*rows, "ascon-aead128/ref encrypt 16: ok"));
	assert_non_null(strstr(*rows, "ascon-aead128/ref encrypt 256: ok"));
	assert_null(strstr(*rows, ": failed"));
}

/* Until path's log has a line with needle (the run is alive meanwhile). */
static void await_line(struct hil_proc *p, const char *path, const char *needle)
{
	uint64_t t0 = e2e_ms_now();

	while (e2e_lines_with(path, needle) == 0) {
		assert_true(hil_proc_alive(p));
		assert_true(e2e_ms_now() - t0 < 2 * E2E_HANG_MS);
		e2e_sleep_ms(20);
	}
}

/*
 * The test holds the board first, so both runs must wait, whatever the
 * machine's speed (two runs started at once could otherwise never meet, the
 * first done before the second asks); then it lets go, and they take turns.
 */
static void
test_two_runs_on_one_board_take_turns_and_both_complete(void **state)
{
	char conf[128], ra[128], rb[128], la[128], lb[128];
	char report_a[300], report_b[300], holder[64];
	char log_a[16384], log_b[16384];
	char fin[32], start_w[32], start_a[32], start_b[32];
	char *rows_a, *rows_b;
	const char *first_report, *second_report;
	struct hil_lock lock;
	struct hil_proc *a, *b;
	char *msg = NULL;
	int st_a = -1, st_b = -1;

	(void)state;
	snprintf(conf, sizeof(conf), "%s/lock.json", tmp);
	snprintf(ra, sizeof(ra), "%s/ra", tmp);
	snprintf(rb, sizeof(rb), "%s/rb", tmp);
	snprintf(la, sizeof(la), "%s/a.log", tmp);
	snprintf(lb, sizeof(lb), "%s/b.log", tmp);
	write_config(conf);

	memset(&lock, 0, sizeof(lock));
	assert_int_equal(
		hil_lock_acquire(&lock, NULL, "qemu-lock", "the test", 0, &msg),
		HIL_OK);
	a = start(conf, ra, "120", la);
	await_line(a, la, "waiting up to 120 s");
	b = start(conf, rb, "120", lb);
	await_line(b, lb, "waiting up to 120 s");
	hil_lock_release(&lock);
	assert_int_equal(hil_proc_wait(a, 120000, &st_a), HIL_OK);
	assert_int_equal(hil_proc_wait(b, 120000, &st_b), HIL_OK);
	read_text(la, log_a, sizeof(log_a));
	read_text(lb, log_b, sizeof(log_b));
	if (st_a != 0 || st_b != 0) {
		fail_msg("exit %d and %d\n--- a:\n%s\n--- b:\n%s", st_a, st_b,
			 log_a, log_b);
	}
	/* Each said whom it waited for, and got the board. */
	snprintf(holder, sizeof(holder), "is in use by pid %d (",
		 (int)getpid());
	e2e_assert_contains(log_a, holder);
	e2e_assert_contains(log_b, holder);
	e2e_assert_contains(log_a, "is ours now");
	e2e_assert_contains(log_b, "is ours now");

	/* Both reports complete, with the same rows (QEMU is exact)... */
	check_complete(ra, report_a, sizeof(report_a), &rows_a);
	check_complete(rb, report_b, sizeof(report_b), &rows_b);
	assert_string_equal(rows_a, rows_b);
	/* ...and the second started only when the first had finished. */
	e2e_report_str(report_a, "run.started", start_a, sizeof(start_a));
	e2e_report_str(report_b, "run.started", start_b, sizeof(start_b));
	first_report = strcmp(start_a, start_b) <= 0 ? report_a : report_b;
	second_report = first_report == report_a ? report_b : report_a;
	e2e_report_str(first_report, "run.finished", fin, sizeof(fin));
	e2e_report_str(second_report, "run.started", start_w, sizeof(start_w));
	if (strcmp(start_w, fin) < 0) {
		fail_msg(
			"the second run started at %s, before the first finished at %s",
			start_w, fin);
	}
	free(msg);
	free(rows_a);
	free(rows_b);
	hil_proc_free(a);
	hil_proc_free(b);
}

/* The board held (by the test itself, so it stays held however slow the
 * machine is): a run with --wait 0 fails at once with exit 5, naming the
 * holder and its configuration, and starts nothing. */
static void test_wait_zero_fails_at_once_naming_the_holder(void **state)
{
	char conf[128], rs[128], ls[128];
	char log[16384], holder[64];
	struct hil_lock lock;
	char *msg = NULL;
	int st = -1;
	char *const argv[] = {(char *)e2e_hilrun_bin(),
			      "--config",
			      conf,
			      "--results",
			      rs,
			      "--wait",
			      "0",
			      "--board",
			      "qemu-lock",
			      NULL};

	(void)state;
	snprintf(conf, sizeof(conf), "%s/lock.json", tmp);
	snprintf(rs, sizeof(rs), "%s/rs", tmp);
	snprintf(ls, sizeof(ls), "%s/s.log", tmp);
	write_config(conf);

	memset(&lock, 0, sizeof(lock));
	assert_int_equal(
		hil_lock_acquire(&lock, NULL, "qemu-lock", conf, 0, &msg),
		HIL_OK);
	assert_int_equal(hil_proc_run(argv, ls, 60000, &st), HIL_OK);
	hil_lock_release(&lock);
	free(msg);
	read_text(ls, log, sizeof(log));
	assert_int_equal(st, 5); /* transient: the board is busy */
	snprintf(holder, sizeof(holder), "is in use by pid %d (",
		 (int)getpid());
	e2e_assert_contains(log, holder);
	e2e_assert_contains(log, conf);
	assert_null(strstr(log, "waiting"));
	assert_int_equal(access(rs, F_OK), -1); /* no run was started */
}

/* The bare emulator (no board of the hardware map) is not a board to
 * share: two runs at once both start at once, neither waits. */
static void test_emulated_runs_take_no_lock(void **state)
{
	char conf[128], ra[128], rb[128], la[128], lb[128];
	char log_a[16384], log_b[16384];
	char *const argv_a[] = {(char *)e2e_hilrun_bin(),
				"--config",
				conf,
				"--results",
				ra,
				"--wait",
				"0",
				NULL};
	char *const argv_b[] = {(char *)e2e_hilrun_bin(),
				"--config",
				conf,
				"--results",
				rb,
				"--wait",
				"0",
				NULL};
	struct hil_proc *a = NULL, *b = NULL;
	int st_a = -1, st_b = -1;

	(void)state;
	snprintf(conf, sizeof(conf), "%s/lock.json", tmp);
	snprintf(ra, sizeof(ra), "%s/ea", tmp);
	snprintf(rb, sizeof(rb), "%s/eb", tmp);
	snprintf(la, sizeof(la), "%s/ea.log", tmp);
	snprintf(lb, sizeof(lb), "%s/eb.log", tmp);
	write_config(conf);
	assert_int_equal(hil_proc_spawn(&a, argv_a, la), HIL_OK);
	assert_int_equal(hil_proc_spawn(&b, argv_b, lb), HIL_OK);
	assert_int_equal(hil_proc_wait(a, 120000, &st_a), HIL_OK);
	assert_int_equal(hil_proc_wait(b, 120000, &st_b), HIL_OK);
	read_text(la, log_a, sizeof(log_a));
	read_text(lb, log_b, sizeof(log_b));
	if (st_a != 0 || st_b != 0) {
		fail_msg(
			"exit %d and %d (--wait 0: neither may find the emulator busy)\n--- a:\n%s\n--- b:\n%s",
			st_a, st_b, log_a, log_b);
	}
	assert_null(strstr(log_a, "is in use by"));
	assert_null(strstr(log_b, "is in use by"));
	hil_proc_free(a);
	hil_proc_free(b);
}

/* A sweep configuration named name: on the map's qemu-lock (locked like
 * a real board) when on_board, else on the bare emulator. */
static void write_sweep_config(const char *path, const char *name, int on_board)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fprintf(f,
		"{\"name\": \"%s\", \"board\": {\"name\": \"qemu-netduino\"%s},"
		" \"algorithms\": [\"ascon-aead128\"],"
		" \"bench\": {\"operations\": [\"encrypt\"],"
		" \"lengths\": [16], \"runs\": 20, \"warmup\": 1,"
		" \"leak_runs\": 0}}",
		name, on_board ? ", \"id\": \"qemu-lock\"" : "");
	fclose(f);
}

/* The sweep.json of the sweep whose log is at log (its stdout names the
 * summary); the caller deletes it. */
static cJSON *sweep_json_of(const char *log)
{
	char text[65536], path[512];
	const char *p, *e;
	cJSON *js;

	read_text(log, text, sizeof(text));
	p = strstr(text, "sweep summary: ");
	if (p == NULL) {
		fail_msg("no sweep summary in the log:\n%s", text);
	}
	p += strlen("sweep summary: ");
	e = strstr(p, "/sweep.md");
	assert_non_null(e);
	snprintf(path, sizeof(path), "%.*s/sweep.json", (int)(e - p), p);
	js = e2e_load_json(path);
	assert_non_null(js);
	return js;
}

/* runs[i].key of a sweep.json, "" when absent. */
static const char *sweep_field(const cJSON *js, int i, const char *key)
{
	const cJSON *runs = cJSON_GetObjectItemCaseSensitive(js, "runs");
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetArrayItem(runs, i), key);

	return cJSON_IsString(v) ? v->valuestring : "";
}

/*
 * The board held elsewhere (by the test) and --wait 0: the configuration
 * on it is not run, and the sweep says why, naming the holder; the
 * emulated one still runs and is complete; exit 5, worth trying again.
 * Before the fix a sweep took no lock and flashed the busy board.
 */
static void test_sweep_on_a_busy_board_reports_it_not_run(void **state)
{
	char ca[128], cb[128], rs[128], ls[128], log[65536], holder[64];
	char report[600];
	struct hil_lock lock;
	char *msg = NULL, *rows;
	cJSON *js;
	int st = -1;
	char *const argv[] = {(char *)e2e_hilrun_bin(),
			      "--config",
			      ca,
			      "--config",
			      cb,
			      "--results",
			      rs,
			      "--wait",
			      "0",
			      "--jobs",
			      "2",
			      NULL};

	(void)state;
	snprintf(ca, sizeof(ca), "%s/busy-board.json", tmp);
	snprintf(cb, sizeof(cb), "%s/busy-bare.json", tmp);
	snprintf(rs, sizeof(rs), "%s/busy-results", tmp);
	snprintf(ls, sizeof(ls), "%s/busy.log", tmp);
	write_sweep_config(ca, "busy-board", 1);
	write_sweep_config(cb, "busy-bare", 0);

	memset(&lock, 0, sizeof(lock));
	assert_int_equal(
		hil_lock_acquire(&lock, NULL, "qemu-lock", "the test", 0, &msg),
		HIL_OK);
	assert_int_equal(hil_proc_run(argv, ls, 240000, &st), HIL_OK);
	hil_lock_release(&lock);
	free(msg);
	read_text(ls, log, sizeof(log));
	if (st != 5) {
		fail_msg("exit %d, expected 5 (a board busy)\n%s", st, log);
	}
	snprintf(holder, sizeof(holder), "is in use by pid %d (",
		 (int)getpid());
	e2e_assert_contains(log, holder);
	e2e_assert_contains(log, "its configurations are not run");

	js = sweep_json_of(ls);
	assert_string_equal(sweep_field(js, 0, "config"), "busy-board");
	assert_string_equal(sweep_field(js, 0, "status"), "not run");
	assert_string_equal(sweep_field(js, 0, "board"), "qemu-lock");
	e2e_assert_contains(sweep_field(js, 0, "error"), holder);
	assert_string_equal(sweep_field(js, 0, "run_dir"), "");
	/* The other configuration measured everything. */
	assert_string_equal(sweep_field(js, 1, "status"), "complete");
	assert_string_equal(sweep_field(js, 1, "board"), "");
	snprintf(report, sizeof(report), "%s/report.json",
		 sweep_field(js, 1, "run_dir"));
	rows = e2e_report_rows(report);
	e2e_assert_contains(rows, "ascon-aead128/ref encrypt 16: ok");
	free(rows);
	/* The summary says which did not run, and why. */
	e2e_assert_contains(log, "configurations not run");
	e2e_assert_contains(log, "- busy-board: board qemu-lock is in use");
	cJSON_Delete(js);
}

/*
 * Two configurations on one board and one on the bare emulator, --jobs 3,
 * the board held by the test: the sweep says whom it waits for; once the
 * board is free both of its configurations run, the second only after the
 * first has finished, and the lock is free again when the sweep ends.
 */
static void
test_sweep_waits_for_its_board_and_runs_it_one_at_a_time(void **state)
{
	char ca[128], cb[128], cc[128], rs[128], ls[128], log[65536];
	char holder[64], rep[2][600], fin[32], start[32];
	struct hil_lock lock;
	struct hil_proc *p = NULL;
	char *msg = NULL;
	cJSON *js;
	int st = -1, i;
	char *const argv[] = {(char *)e2e_hilrun_bin(),
			      "--config",
			      ca,
			      "--config",
			      cb,
			      "--config",
			      cc,
			      "--results",
			      rs,
			      "--wait",
			      "120",
			      "--jobs",
			      "3",
			      NULL};

	(void)state;
	snprintf(ca, sizeof(ca), "%s/turn-a.json", tmp);
	snprintf(cb, sizeof(cb), "%s/turn-b.json", tmp);
	snprintf(cc, sizeof(cc), "%s/turn-bare.json", tmp);
	snprintf(rs, sizeof(rs), "%s/turn-results", tmp);
	snprintf(ls, sizeof(ls), "%s/turn.log", tmp);
	write_sweep_config(ca, "turn-a", 1);
	write_sweep_config(cb, "turn-b", 1);
	write_sweep_config(cc, "turn-bare", 0);

	memset(&lock, 0, sizeof(lock));
	assert_int_equal(
		hil_lock_acquire(&lock, NULL, "qemu-lock", "the test", 0, &msg),
		HIL_OK);
	free(msg);
	msg = NULL;
	assert_int_equal(hil_proc_spawn(&p, argv, ls), HIL_OK);
	await_line(p, ls, "waiting up to 120 s");
	hil_lock_release(&lock);
	assert_int_equal(hil_proc_wait(p, 240000, &st), HIL_OK);
	hil_proc_free(p);
	read_text(ls, log, sizeof(log));
	if (st != 0) {
		fail_msg("exit %d\n%s", st, log);
	}
	snprintf(holder, sizeof(holder), "is in use by pid %d (",
		 (int)getpid());
	e2e_assert_contains(log, holder);
	e2e_assert_contains(log, "board qemu-lock is ours now");
	e2e_assert_contains(
		log,
		"the 2 configurations on board qemu-lock run one at a time");

	js = sweep_json_of(ls);
	for (i = 0; i < 3; i++) {
		assert_string_equal(sweep_field(js, i, "status"), "complete");
	}
	for (i = 0; i < 2; i++) {
		snprintf(rep[i], sizeof(rep[i]), "%s/report.json",
			 sweep_field(js, i, "run_dir"));
	}
	/* The board's second configuration started after its first ended. */
	e2e_report_str(rep[0], "run.finished", fin, sizeof(fin));
	e2e_report_str(rep[1], "run.started", start, sizeof(start));
	if (strcmp(start, fin) < 0) {
		fail_msg("turn-b started at %s, before turn-a finished at %s",
			 start, fin);
	}
	cJSON_Delete(js);
	/* The sweep let go of the board. */
	assert_int_equal(hil_lock_probe(NULL, "qemu-lock", NULL), 0);
}

static int setup(void **state)
{
	char locks[96], map[96];
	FILE *f;

	(void)state;
	snprintf(tmp, sizeof(tmp), "/tmp/hilrun-lock-XXXXXX");
	if (mkdtemp(tmp) == NULL) {
		return -1;
	}
	/* Its own lock folder: only these runs compete for the board; and
	 * its own hardware map with one emulated board, qemu-lock. */
	snprintf(locks, sizeof(locks), "%s/locks", tmp);
	snprintf(map, sizeof(map), "%s/boards.json", tmp);
	f = fopen(map, "w");
	if (f == NULL) {
		return -1;
	}
	fputs("[{\"id\": \"qemu-lock\", \"platform\": \"qemu-netduino\","
	      " \"runner\": \"qemu\"}]\n",
	      f);
	fclose(f);
	unsetenv("HILRUN_BOARD");
	return setenv("HILRUN_LOCK_DIR", locks, 1) != 0 ||
	       setenv("HILRUN_BOARDS", map, 1) != 0;
}

static int teardown(void **state)
{
	(void)state;
	e2e_qemu_gone(tmp, NULL, E2E_HANG_MS);
	e2e_remove_tree(tmp);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			test_two_runs_on_one_board_take_turns_and_both_complete),
		cmocka_unit_test(
			test_wait_zero_fails_at_once_naming_the_holder),
		cmocka_unit_test(test_emulated_runs_take_no_lock),
		cmocka_unit_test(test_sweep_on_a_busy_board_reports_it_not_run),
		cmocka_unit_test(
			test_sweep_waits_for_its_board_and_runs_it_one_at_a_time),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
