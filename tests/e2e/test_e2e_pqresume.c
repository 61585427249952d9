/* test_e2e_pqresume: hilrun pq --resume on both lanes (the mps2 under the cycle model, and qemu-netduino over its USART socket through its flasher): a run whose second scheme fails once (the emulator it starts exits at once, a wrapper's doing) keeps the first, and the resumed run runs the second alone, with every row in its report; on a board of the hardware map, the run takes the board's lock, and a board another run holds is refused as hilrun run refuses it. */
#define _XOPEN_SOURCE 700

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "e2e_util.h"
#include "lab/lock.h"
#include "util/err.h"
#include "util/proc.h"
#include "util/util.h"

#define FIX "tests/fixtures/pq"

static char tmp_root[64];
static char src_root[HIL_PATH];
static char wrapper[HIL_PATH + 32]; /* tmp/bin/qemu-system-arm */
static char starts[HIL_PATH + 32];  /* what the wrapper started, a line each */
static char fail_once[HIL_PATH + 32]; /* while it exists, toysig fails */
/* while it exists, toysig's start interrupts hilrun (SIGINT) */
static char interrupt_once[HIL_PATH + 32];

/* The real emulator, found on PATH before the wrapper's folder is put
 * first. */
static void find_qemu(char *out, size_t len)
{
	const char *path = getenv("PATH");
	char *copy, *dir, *save = NULL;

	out[0] = '\0';
	assert_non_null(path);
	copy = strdup(path);
	assert_non_null(copy);
	for (dir = strtok_r(copy, ":", &save); dir != NULL && out[0] == '\0';
	     dir = strtok_r(NULL, ":", &save)) {
		snprintf(out, len, "%s/qemu-system-arm", dir);
		if (access(out, X_OK) != 0) {
			out[0] = '\0';
		}
	}
	free(copy);
	assert_true(out[0] != '\0');
}

/*
 * tmp/bin/qemu-system-arm: notes the image it is asked to start in
 * starts and who holds emu-pq's lock in holders.log (the lock file's
 * holder line), then starts the real one; while fail_once exists, an image of
 * toysig is not started (the file removed, exit 1): the emulator of that
 * scheme dies at once, once.
 */
static int setup(void **state)
{
	char real[HIL_PATH], bin[HIL_PATH + 16], path[2 * HIL_PATH];
	FILE *f;

	(void)state;
	find_qemu(real, sizeof(real));
	snprintf(bin, sizeof(bin), "%s/bin", tmp_root);
	e2e_make_dir(bin);
	snprintf(wrapper, sizeof(wrapper), "%s/qemu-system-arm", bin);
	snprintf(starts, sizeof(starts), "%s/starts.log", tmp_root);
	snprintf(fail_once, sizeof(fail_once), "%s/fail-once", tmp_root);
	snprintf(interrupt_once, sizeof(interrupt_once), "%s/interrupt-once",
		 tmp_root);
	f = fopen(wrapper, "w");
	assert_non_null(f);
	fprintf(f,
		"#!/bin/sh\n"
		"k=\nprev=\n"
		"for a in \"$@\"; do [ \"$prev\" = -kernel ] && k=$a; "
		"prev=$a; done\n"
		"[ -n \"$k\" ] && echo \"$k\" >> '%s'\n"
		"cat '%s/locks/emu-pq.lock' >> '%s/holders.log' 2>/dev/null\n"
		"case $k in *toysig*) if [ -e '%s' ]; then rm -f '%s'; "
		"exit 1; fi ;; esac\n"
		/* interrupt-once: Ctrl-C to the hilrun above (the topmost:
		 * its process supervisors are forks named hilrun too), as a
		 * user would give it while toysig starts */
		"case $k in *toysig*) if [ -e '%s' ]; then rm -f '%s'; "
		"p=$PPID; top=; while [ \"$p\" -gt 1 ]; do "
		"[ \"$(cat /proc/$p/comm)\" = hilrun ] && top=$p; "
		"p=$(cut -d' ' -f4 /proc/$p/stat); done; "
		"[ -n \"$top\" ] && kill -INT $top; fi ;; esac\n"
		"exec '%s' \"$@\"\n",
		starts, tmp_root, tmp_root, fail_once, fail_once,
		interrupt_once, interrupt_once, real);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(wrapper, 0755), 0);
	/* The mps2 lane's script finds it first on PATH. */
	snprintf(path, sizeof(path), "%s:%s", bin, getenv("PATH"));
	assert_int_equal(setenv("PATH", path, 1), 0);
	return 0;
}

/* Start lines of images of scheme (toykem_ref, toysig_ref) so far. */
static size_t started(const char *scheme)
{
	return e2e_lines_with(starts, scheme);
}

static int run_pq(char **args, const char *log)
{
	int st = -1;

	assert_int_equal(hil_proc_run(args, log, 600000, &st), HIL_OK);
	return st;
}

/* The report of dir: 6 rows of toykem and toysig, all verified. */
static void assert_all_rows(const char *dir)
{
	char path[HIL_PATH + 32];
	cJSON *rep;
	const cJSON *r;
	int n = 0;

	snprintf(path, sizeof(path), "%s/report.json", dir);
	rep = e2e_load_json(path);
	assert_non_null(rep);
	cJSON_ArrayForEach(r, e2e_need(rep, "rows"))
	{
		const char *alg = e2e_need_str(r, "algorithm");

		assert_true(strcmp(alg, "toykem") == 0 ||
			    strcmp(alg, "toysig") == 0);
		assert_string_equal(e2e_need_str(r, "status"), "ok");
		assert_true(cJSON_IsTrue(e2e_need(r, "verified")));
		assert_int_equal((int)e2e_need_num(r, "runs"), 2);
		n++;
	}
	assert_int_equal(n, 6);
	/* Nothing left out (no such list at all). */
	assert_null(cJSON_GetObjectItemCaseSensitive(rep, "not_for_board"));
	cJSON_Delete(rep);
}

static void touch(const char *path)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fclose(f);
}

/* The mps2 lane: toykem runs, toysig's emulator dies; --resume runs
 * toysig alone and the report has all six rows. */
static void test_mps2_run_resumed_runs_the_rest_only(void **state)
{
	char cfg[HIL_PATH + 64], out[HIL_PATH + 32], log[HIL_PATH + 32];
	char *first[] = {(char *)e2e_hilrun_bin(),
			 "pq",
			 "--config",
			 cfg,
			 "--runs",
			 "2",
			 "--no-jail",
			 "--output",
			 out,
			 NULL};
	char *again[] = {(char *)e2e_hilrun_bin(),
			 "pq",
			 "--resume",
			 out,
			 "--no-jail",
			 NULL};
	char *text;
	size_t len, kem, sig;

	(void)state;
	snprintf(cfg, sizeof(cfg), "%s/" FIX "/toys.json", src_root);
	snprintf(out, sizeof(out), "%s/mps2", tmp_root);
	snprintf(log, sizeof(log), "%s/mps2-1.log", tmp_root);
	touch(fail_once);
	kem = started("toykem_ref");
	sig = started("toysig_ref");
	assert_int_equal(run_pq(first, log), 1);
	assert_int_equal(started("toykem_ref"), kem + 1);
	assert_int_equal(started("toysig_ref"), sig + 1);
	/* The second folder stopped: listed, and not finished. */
	snprintf(log, sizeof(log), "%s/done.tsv", out);
	assert_int_equal(e2e_lines_with(log, "toykem\tref\t"), 1);
	assert_int_equal(e2e_lines_with(log, "toysig"), 0);

	snprintf(log, sizeof(log), "%s/mps2-2.log", tmp_root);
	assert_int_equal(run_pq(again, log), 0);
	/* toykem not emulated again, toysig once more. */
	assert_int_equal(started("toykem_ref"), kem + 1);
	assert_int_equal(started("toysig_ref"), sig + 2);
	assert_int_equal(hil_read_file(log, &text, &len), HIL_OK);
	e2e_assert_contains(text, "toykem/ref: finished in an earlier "
				  "attempt: kept");
	free(text);
	assert_all_rows(out);
}

/* A hardware map with one emulated board, emu-pq, and the lock folder. */
static void lab_env(void)
{
	char map[HIL_PATH + 32], locks[HIL_PATH + 32];
	FILE *f;

	snprintf(map, sizeof(map), "%s/boards.json", tmp_root);
	f = fopen(map, "w");
	assert_non_null(f);
	fprintf(f, "[{\"id\": \"emu-pq\", \"platform\": \"qemu-netduino\", "
		   "\"runner\": \"qemu\"}]\n");
	assert_int_equal(fclose(f), 0);
	snprintf(locks, sizeof(locks), "%s/locks", tmp_root);
	assert_int_equal(setenv("HILRUN_BOARDS", map, 1), 0);
	assert_int_equal(setenv("HILRUN_LOCK_DIR", locks, 1), 0);
}

/* toykem and toysig on qemu-netduino over its socket, started through
 * the wrapper (flasher.program). */
static void board_config(char *path, size_t len)
{
	FILE *f;

	snprintf(path, len, "%s/board.json", tmp_root);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f,
		"{\"board\": {\"name\": \"qemu-netduino\"},\n"
		" \"flasher\": {\"type\": \"qemu\", \"program\": \"%s\"},\n"
		" \"link\": {\"type\": \"socket\"},\n"
		" \"algorithms\": [\n"
		"  {\"name\": \"toykem\", \"impl\": \"ref\", \"path\": "
		"\"%s/" FIX "/crypto_kem/toykem/ref\"},\n"
		"  {\"name\": \"toysig\", \"impl\": \"ref\", \"path\": "
		"\"%s/" FIX "/crypto_sign/toysig/ref\"}]}\n",
		wrapper, src_root, src_root);
	assert_int_equal(fclose(f), 0);
}

/* --board emu-pq (an id of the map): another run holds its lock, so the
 * run is refused at once, naming the holder (exit 5); free, the run takes
 * the lock (its holder line names the configuration). */
static void test_board_run_takes_the_boards_lock(void **state)
{
	char cfg[HIL_PATH + 32], out[HIL_PATH + 32], log[HIL_PATH + 32];
	char locks[HIL_PATH + 32], mine[64];
	char *args[] = {(char *)e2e_hilrun_bin(),
			"pq",
			"--config",
			cfg,
			"--board",
			"emu-pq",
			"--runs",
			"2",
			"--no-jail",
			"--output",
			out,
			NULL};
	struct hil_lock held;
	char *text = NULL;
	size_t len;

	(void)state;
	lab_env();
	board_config(cfg, sizeof(cfg));
	snprintf(out, sizeof(out), "%s/busy", tmp_root);
	snprintf(log, sizeof(log), "%s/busy.log", tmp_root);
	snprintf(locks, sizeof(locks), "%s/locks", tmp_root);
	memset(&held, 0, sizeof(held));
	assert_int_equal(hil_lock_acquire(&held, locks, "emu-pq",
					  "another-run.json", 0, NULL),
			 HIL_OK);
	assert_int_equal(run_pq(args, log), 5);
	hil_lock_release(&held);
	assert_int_equal(hil_read_file(log, &text, &len), HIL_OK);
	snprintf(mine, sizeof(mine), "board emu-pq is in use by pid %ld",
		 (long)getpid());
	e2e_assert_contains(text, mine);
	e2e_assert_contains(text, "another-run.json");
	free(text);
	/* Nothing was built or started for it. */
	snprintf(log, sizeof(log), "%s/images.tsv", out);
	assert_int_equal(access(log, F_OK), -1);
}

/* The board lane: toykem runs, toysig's emulator dies under the flasher;
 * --resume flashes toysig alone, under the board's lock again, and the
 * report has all six rows and both sessions' requests. */
static void test_board_run_resumed_runs_the_rest_only(void **state)
{
	char cfg[HIL_PATH + 32], out[HIL_PATH + 32], log[HIL_PATH + 32];
	char lockfile[HIL_PATH + 48], path[HIL_PATH + 48];
	char *first[] = {(char *)e2e_hilrun_bin(),
			 "pq",
			 "--config",
			 cfg,
			 "--board",
			 "emu-pq",
			 "--runs",
			 "2",
			 "--no-jail",
			 "--output",
			 out,
			 NULL};
	char *again[] = {(char *)e2e_hilrun_bin(),
			 "pq",
			 "--resume",
			 out,
			 "--no-jail",
			 NULL};
	char *text;
	size_t len, kem, sig;
	cJSON *rep;

	(void)state;
	lab_env();
	board_config(cfg, sizeof(cfg));
	snprintf(out, sizeof(out), "%s/board", tmp_root);
	snprintf(log, sizeof(log), "%s/board-1.log", tmp_root);
	touch(fail_once);
	kem = started("toykem_ref");
	sig = started("toysig_ref");
	assert_int_equal(run_pq(first, log), 1);
	assert_int_equal(started("toykem_ref"), kem + 1);
	assert_int_equal(started("toysig_ref"), sig + 1);
	/* The run held emu-pq's lock while the emulator ran: the holder
	 * line then named its configuration. */
	snprintf(lockfile, sizeof(lockfile), "%s/holders.log", tmp_root);
	assert_int_equal(hil_read_file(lockfile, &text, &len), HIL_OK);
	e2e_assert_contains(text, "board.json");
	free(text);
	snprintf(path, sizeof(path), "%s/done.tsv", out);
	assert_int_equal(e2e_lines_with(path, "toykem\tref\t"), 1);
	assert_int_equal(e2e_lines_with(path, "toysig"), 0);

	snprintf(log, sizeof(log), "%s/board-2.log", tmp_root);
	assert_int_equal(run_pq(again, log), 0);
	assert_int_equal(started("toykem_ref"), kem + 1);
	assert_int_equal(started("toysig_ref"), sig + 2);
	assert_int_equal(hil_read_file(log, &text, &len), HIL_OK);
	e2e_assert_contains(text, "toykem/ref: finished in an earlier "
				  "attempt: kept");
	assert_null(strstr(text, "toykem/ref on "));
	free(text);
	assert_all_rows(out);
	snprintf(path, sizeof(path), "%s/report.json", out);
	rep = e2e_load_json(path);
	/* One PQRUN of toykem in the first attempt, one of toysig in the
	 * second: both sessions' counters. */
	assert_int_equal(
		(int)e2e_need_num(e2e_need(rep, "session"), "requests"), 2);
	assert_string_equal(e2e_need_str(e2e_need(rep, "board"), "name"),
			    "qemu-netduino");
	cJSON_Delete(rep);
}

/* Ctrl-C while toysig starts on the board: exit 4, the resume command
 * said, toykem kept; the resume runs toysig alone and reports all rows. */
static void test_board_run_interrupted_says_how_to_finish(void **state)
{
	char cfg[HIL_PATH + 32], out[HIL_PATH + 32], log[HIL_PATH + 32];
	char path[HIL_PATH + 48], hint[HIL_PATH + 64];
	char *first[] = {(char *)e2e_hilrun_bin(),
			 "pq",
			 "--config",
			 cfg,
			 "--runs",
			 "2",
			 "--no-jail",
			 "--output",
			 out,
			 NULL};
	char *again[] = {(char *)e2e_hilrun_bin(),
			 "pq",
			 "--resume",
			 out,
			 "--no-jail",
			 NULL};
	char *text;
	size_t len, kem, sig;

	(void)state;
	board_config(cfg, sizeof(cfg));
	snprintf(out, sizeof(out), "%s/ctrl-c", tmp_root);
	snprintf(log, sizeof(log), "%s/ctrl-c-1.log", tmp_root);
	touch(interrupt_once);
	kem = started("toykem_ref");
	sig = started("toysig_ref");
	assert_int_equal(run_pq(first, log), 4);
	assert_int_equal(hil_read_file(log, &text, &len), HIL_OK);
	snprintf(hint, sizeof(hint), "finish with `hilrun pq --resume %s`",
		 out);
	e2e_assert_contains(text, hint);
	free(text);
	snprintf(path, sizeof(path), "%s/done.tsv", out);
	assert_int_equal(e2e_lines_with(path, "toykem\tref\t"), 1);
	assert_int_equal(e2e_lines_with(path, "toysig"), 0);
	snprintf(log, sizeof(log), "%s/ctrl-c-2.log", tmp_root);
	assert_int_equal(run_pq(again, log), 0);
	assert_int_equal(started("toykem_ref"), kem + 1);
	assert_int_equal(started("toysig_ref"), sig + 2);
	assert_all_rows(out);
}

/* --resume takes the run's own options: others with it are refused, and
 * a folder that is not a pq run's (or, to hilrun run, one that is) is
 * named as what it is. */
static void test_resume_refuses_what_it_cannot_take(void **state)
{
	char dir[HIL_PATH + 32], log[HIL_PATH + 32];
	char *with_runs[] = {(char *)e2e_hilrun_bin(),
			     "pq",
			     "--resume",
			     dir,
			     "--runs",
			     "3",
			     NULL};
	char *not_pq[] = {(char *)e2e_hilrun_bin(), "pq", "--resume", dir,
			  NULL};
	char *as_run[] = {(char *)e2e_hilrun_bin(), "--resume", dir, NULL};
	char *text;
	size_t len;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/mps2", tmp_root);
	snprintf(log, sizeof(log), "%s/refuse-1.log", tmp_root);
	assert_int_equal(run_pq(with_runs, log), 2);
	assert_int_equal(hil_read_file(log, &text, &len), HIL_OK);
	e2e_assert_contains(text, "give none of them with it");
	free(text);
	/* hilrun run's --resume names what the folder is. */
	snprintf(log, sizeof(log), "%s/refuse-3.log", tmp_root);
	assert_int_equal(run_pq(as_run, log), 2);
	assert_int_equal(hil_read_file(log, &text, &len), HIL_OK);
	e2e_assert_contains(text, "is the folder of a hilrun pq run: resume "
				  "it with hilrun pq --resume");
	free(text);
	snprintf(dir, sizeof(dir), "%s/bin", tmp_root);
	snprintf(log, sizeof(log), "%s/refuse-2.log", tmp_root);
	assert_int_equal(run_pq(not_pq, log), 2);
	assert_int_equal(hil_read_file(log, &text, &len), HIL_OK);
	e2e_assert_contains(text, "is not a folder hilrun pq can resume");
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mps2_run_resumed_runs_the_rest_only),
		cmocka_unit_test(test_board_run_takes_the_boards_lock),
		cmocka_unit_test(test_board_run_resumed_runs_the_rest_only),
		cmocka_unit_test(test_board_run_interrupted_says_how_to_finish),
		cmocka_unit_test(test_resume_refuses_what_it_cannot_take),
	};
	int failed;

	if (e2e_main_begin(src_root, sizeof(src_root), tmp_root,
			   sizeof(tmp_root), "/tmp/e2e-pqresume-XXXXXX") != 0) {
		return 1;
	}
	failed =
		cmocka_run_group_tests_name("e2e_pqresume", tests, setup, NULL);
	return e2e_main_end(tmp_root, failed);
}
