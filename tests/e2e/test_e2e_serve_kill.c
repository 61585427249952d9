/* End-to-end test of the lab daemon killed mid-job: hilrun serve is sent SIGKILL while a job's rows are being measured, started again, and resumes the job's run folder (the rows already in its journal are kept, not measured again); the job's rows equal a clean run's. */
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
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "e2e_util.h"
#include "util/err.h"
#include "util/proc.h"

static char tmp[64];

/* As test_e2e_qemu_kill: rows long enough for a kill to land between. */
static void write_config(const char *path)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs("{\"name\": \"e2e-serve-kill\", \"board\": {\"name\": \"qemu-netduino\"},"
	      " \"algorithms\": [\"ascon-aead128\"],"
	      " \"bench\": {\"operations\": [\"encrypt\"],"
	      " \"lengths\": [64, 256, 1024, 2048], \"runs\": 300,"
	      " \"warmup\": 2, \"leak_runs\": 0},"
	      " \"results_dir\": \"results\"}",
	      f);
	fclose(f);
}

/* The one run folder under results, or "" while there is none. */
static void find_run_dir(const char *results, char *out, size_t len)
{
	DIR *d = opendir(results);
	struct dirent *e;

	out[0] = '\0';
	while (d != NULL && (e = readdir(d)) != NULL) {
		if (e->d_name[0] != '.' && strcmp(e->d_name, "latest") != 0) {
			snprintf(out, len, "%s/%s", results, e->d_name);
		}
	}
	if (d != NULL) {
		closedir(d);
	}
}

static size_t count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	while (d != NULL && (e = readdir(d)) != NULL) {
		n += e->d_name[0] != '.' && strcmp(e->d_name, "latest") != 0;
	}
	if (d != NULL) {
		closedir(d);
	}
	return n;
}

/* Wait until the daemon's run has n rows measured ok in its journal. */
static void wait_rows(struct hil_proc *p, const char *results, size_t n)
{
	uint64_t deadline = e2e_ms_now() + 120000;
	char dir[256], journal[300];

	for (;;) {
		find_run_dir(results, dir, sizeof(dir));
		if (dir[0] != '\0') {
			snprintf(journal, sizeof(journal), "%s/journal.jsonl",
				 dir);
			if (e2e_lines_with(journal, "\"status\":\"ok\"") >= n) {
				return;
			}
		}
		if (!hil_proc_alive(p)) {
			fail_msg(
				"the daemon ended before %zu rows were measured",
				n);
		}
		if (e2e_ms_now() > deadline) {
			fail_msg("no %zu rows measured within 120 s", n);
		}
		e2e_sleep_ms(5);
	}
}

static void
test_daemon_killed_mid_job_resumes_its_journal_on_restart(void **state)
{
	char conf[128], clean[128], spool[128], path[256], log1[128];
	char log2[128], results[128], dir[256], report[300], needle[64];
	char root[128];
	char *rows_clean, *rows_job;
	struct hil_proc *p = NULL;
	size_t kept;
	int st = -1, q;

	(void)state;
	/* The lab's layout (docs/lab.md): the job's files in a root, the
	 * spool outside every root. */
	snprintf(root, sizeof(root), "%s/root", tmp);
	e2e_make_dir(root);
	snprintf(conf, sizeof(conf), "%s/root/job-config.json", tmp);
	snprintf(clean, sizeof(clean), "%s/clean", tmp);
	snprintf(spool, sizeof(spool), "%s/spool", tmp);
	snprintf(results, sizeof(results), "%s/results", tmp);
	snprintf(log1, sizeof(log1), "%s/daemon1.log", tmp);
	snprintf(log2, sizeof(log2), "%s/daemon2.log", tmp);
	write_config(conf);

	/* The reference: the same configuration, undisturbed. */
	{
		char *const argv[] = {(char *)e2e_hilrun_bin(),
				      "-q",
				      "--config",
				      conf,
				      "--results",
				      clean,
				      NULL};

		assert_int_equal(hil_proc_run(argv, NULL, 180000, &st), HIL_OK);
		assert_int_equal(st, 0);
	}
	e2e_run_dir(clean, dir, sizeof(dir));
	snprintf(report, sizeof(report), "%s/report.json", dir);
	rows_clean = e2e_report_rows(report);

	/* A job, and a daemon that takes it. */
	e2e_make_dir(spool);
	snprintf(path, sizeof(path), "%s/incoming", spool);
	e2e_make_dir(path);
	snprintf(path, sizeof(path), "%s/incoming/night.json", spool);
	{
		FILE *f = fopen(path, "w");

		assert_non_null(f);
		fprintf(f, "{\"config\": \"%s\"}\n", conf);
		fclose(f);
	}
	{
		char *const argv[] = {(char *)e2e_hilrun_bin(),
				      "serve",
				      "--spool",
				      spool,
				      "--root",
				      root,
				      "--once",
				      NULL};

		assert_int_equal(hil_proc_spawn(&p, argv, log1), HIL_OK);
	}
	wait_rows(p, results, 2);
	/* SIGKILL: no handler runs, nothing is tidied. Its emulator, left
	 * behind, is killed too. */
	q = e2e_child_named((int)hil_proc_pid(p), E2E_QEMU_PROGRAM, 0);
	fprintf(stderr, "e2e: SIGKILL to the daemon pid %d (emulator %d)\n",
		(int)hil_proc_pid(p), q);
	assert_int_equal(kill(hil_proc_pid(p), SIGKILL), 0);
	hil_proc_wait(p, 10000, &st);
	hil_proc_free(p);
	if (q > 0) {
		kill((pid_t)q, SIGKILL);
	}
	find_run_dir(results, dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/journal.jsonl", dir);
	kept = e2e_lines_with(path, "\"status\":\"ok\"");
	assert_true(kept >= 2);
	snprintf(path, sizeof(path), "%s/running/night.json", spool);
	assert_int_equal(access(path, F_OK), 0);

	/* Started again: the job is resumed, not started over. */
	{
		char *const argv[] = {(char *)e2e_hilrun_bin(),
				      "serve",
				      "--spool",
				      spool,
				      "--root",
				      root,
				      "--once",
				      NULL};

		assert_int_equal(hil_proc_run(argv, log2, 180000, &st), HIL_OK);
	}
	assert_int_equal(st, 0);
	assert_true(e2e_lines_with(log2, ", resuming ") >= 1);
	snprintf(needle, sizeof(needle), "resume: %zu rows kept", kept);
	assert_int_equal(e2e_lines_with(log2, needle), 1);
	snprintf(path, sizeof(path), "%s/done/night.result.json", spool);
	assert_int_equal(access(path, F_OK), 0);
	/* One run folder, whose rows are the clean run's. */
	assert_int_equal(count_entries(results), 1);
	snprintf(report, sizeof(report), "%s/report.json", dir);
	rows_job = e2e_report_rows(report);
	assert_string_equal(rows_job, rows_clean);
	free(rows_job);
	free(rows_clean);
	assert_true(e2e_qemu_gone(tmp, NULL, E2E_HANG_MS));
}

static int setup(void **state)
{
	char locks[96];
	const char *src = getenv("HIL_SRC_DIR");

	(void)state;
	snprintf(tmp, sizeof(tmp), "/tmp/hilrun-serve-kill-XXXXXX");
	if (mkdtemp(tmp) == NULL) {
		return -1;
	}
	if (getenv("HILRUN_ROOT") == NULL && src != NULL) {
		setenv("HILRUN_ROOT", src, 1);
	}
	if (getenv("HILRUN_BIN") == NULL) {
		/* build/hilrun, before the working directory changes. */
		char bin[4096];

		if (realpath(e2e_hilrun_bin(), bin) == NULL) {
			return -1;
		}
		setenv("HILRUN_BIN", bin, 1);
	}
	/* The daemon's working directory: its run folders go there. */
	if (chdir(tmp) != 0) {
		return -1;
	}
	snprintf(locks, sizeof(locks), "%s/locks", tmp);
	return setenv("HILRUN_LOCK_DIR", locks, 1);
}

static int teardown(void **state)
{
	(void)state;
	e2e_qemu_gone(tmp, NULL, E2E_HANG_MS);
	if (chdir("/") != 0) {
		return -1;
	}
	e2e_remove_tree(tmp);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			test_daemon_killed_mid_job_resumes_its_journal_on_restart),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
