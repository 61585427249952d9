/* End-to-end test of a run on a full disk: with 0, 4, 8, 16 and 64 KiB free on the results file system (a small tmpfs), every row reported measured is in the journal, a failed write stops the run at once naming the file system, no file is left half written, and --resume (or a new run, when nothing could be written) completes it with a clean run's rows once space is back. */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <cmocka.h>
#include <errno.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "e2e_util.h"
#include "util/err.h"
#include "util/proc.h"
#include "util/util.h"

static char tmp[64];
static char mnt[96];
static char results[128]; /* mnt/results: the filler stays beside it */
static int mounted;

/* The rows of the run, in order, each with the text the log reports it by. */
#define ROWS 6

/*
 * Six rows of 200 samples: about 2.2 KB of journal each, so that the
 * smaller amounts of free space fill up between rows, not only before the
 * first. No timing-leak test per row: it only makes the run longer.
 */
static void write_config(const char *path)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs("{\"name\": \"e2e-diskfull\", \"board\": {\"name\": \"qemu-netduino\"},"
	      " \"algorithms\": [\"ascon-aead128\"],"
	      " \"bench\": {\"operations\": [\"encrypt\"],"
	      " \"lengths\": [16, 32, 64, 128, 256, 512], \"runs\": 200,"
	      " \"warmup\": 1, \"leak_runs\": 0}}",
	      f);
	fclose(f);
}

/* hilrun -v with args (up to four, NULL after the last), its log in log;
 * -v: each row is logged ("... median ...") once it is in the journal.
 * @return its exit status. */
static int hilrun(const char *log, const char *a1, const char *a2,
		  const char *a3, const char *a4)
{
	char *const argv[] = {(char *)e2e_hilrun_bin(),
			      "-v",
			      (char *)a1,
			      (char *)a2,
			      (char *)a3,
			      (char *)a4,
			      NULL};
	int st = -1;

	assert_int_equal(hil_proc_run(argv, log, 180000, &st), HIL_OK);
	return st;
}

/* A tmpfs at mnt with free_kib KiB left: the rest taken by a filler. */
static void mount_with_free(unsigned free_kib)
{
	struct statvfs v;
	char filler[128];
	char block[1024];
	unsigned long long avail, k;
	FILE *f;

	e2e_make_dir(mnt);
	assert_int_equal(mount("tmpfs", mnt, "tmpfs", 0, "size=256k"), 0);
	mounted = 1;
	e2e_make_dir(results);
	assert_int_equal(statvfs(mnt, &v), 0);
	avail = (unsigned long long)v.f_bavail * v.f_frsize / 1024u;
	assert_true(avail >= free_kib);
	snprintf(filler, sizeof(filler), "%s/filler", mnt);
	f = fopen(filler, "w");
	assert_non_null(f);
	memset(block, 0, sizeof(block));
	for (k = 0; k < avail - free_kib; k++) {
		assert_int_equal(fwrite(block, 1, sizeof(block), f),
				 sizeof(block));
	}
	assert_int_equal(fclose(f), 0);
	assert_int_equal(statvfs(mnt, &v), 0);
	assert_int_equal((unsigned long long)v.f_bavail * v.f_frsize / 1024u,
			 free_kib);
}

static void unmount(void)
{
	if (mounted) {
		assert_int_equal(umount(mnt), 0);
		mounted = 0;
	}
}

/* Every line of a journal is whole JSON; @return the rows measured ok. */
static size_t journal_rows(const char *journal)
{
	FILE *f = fopen(journal, "r");
	char line[65536];
	size_t ok = 0;

	if (f == NULL) {
		return 0;
	}
	while (fgets(line, sizeof(line), f) != NULL) {
		cJSON *o;

		if (strchr(line, '\n') == NULL) {
			fail_msg("%s: a line without its end (a partial write)",
				 journal);
		}
		o = cJSON_Parse(line);
		if (o == NULL) {
			fail_msg("%s: a line that is not JSON: %.80s", journal,
				 line);
		}
		ok += strstr(line, "\"status\":\"ok\"") != NULL;
		cJSON_Delete(o);
	}
	fclose(f);
	return ok;
}

static char *rows_of(const char *where)
{
	char dir[256], report[300];

	e2e_run_dir(where, dir, sizeof(dir));
	snprintf(report, sizeof(report), "%s/report.json", dir);
	return e2e_report_rows(report);
}

static void full_disk_case(const char *conf, const char *clean_rows,
			   unsigned free_kib)
{
	char log[128], log2[128], dir[256], journal[300], runfile[300];
	char needle[160];
	size_t reported, kept;
	char *rows;
	int st;

	fprintf(stderr, "e2e: %u KiB free on %s\n", free_kib, mnt);
	snprintf(log, sizeof(log), "%s/full-%u.log", tmp, free_kib);
	snprintf(log2, sizeof(log2), "%s/again-%u.log", tmp, free_kib);
	mount_with_free(free_kib);
	st = hilrun(log, "--config", conf, "--results", results);
	e2e_run_dir(results, dir, sizeof(dir));
	snprintf(journal, sizeof(journal), "%s/journal.jsonl", dir);
	snprintf(runfile, sizeof(runfile), "%s/run.json", dir);

	/* Nothing is reported measured that the journal does not hold. */
	reported = e2e_lines_with(log, ": median ");
	kept = journal_rows(journal);
	fprintf(stderr, "e2e: exit %d, %zu rows reported, %zu in the journal\n",
		st, reported, kept);
	assert_true(kept >= reported);
	if (kept < ROWS) {
		/* It stopped at once, and said where and why. */
		assert_int_not_equal(st, 0);
		snprintf(needle, sizeof(needle),
			 "the file system mounted at %s (", mnt);
		assert_true(e2e_lines_with(log, needle) >= 1);
		assert_true(e2e_lines_with(log, "is full: measuring stops") >=
			    1);
		assert_int_equal(reported, kept);
	}
	if (access(runfile, F_OK) == 0) {
		cJSON_Delete(e2e_load_json(runfile)); /* whole */
	}

	/* Space is back. */
	{
		char filler[128];

		snprintf(filler, sizeof(filler), "%s/filler", mnt);
		assert_int_equal(unlink(filler), 0);
	}
	if (access(runfile, F_OK) == 0) {
		st = hilrun(log2, "--resume", dir, NULL, NULL);
		if (st != 0) {
			char *text = NULL;

			hil_read_file(log2, &text, NULL);
			fprintf(stderr, "--resume %s exited %d:\n%s\n", dir, st,
				text != NULL ? text : "(no log)");
			free(text);
			fail_msg("--resume exited %d (its log above)", st);
		}
		snprintf(needle, sizeof(needle), "resume: %zu row%s kept", kept,
			 kept == 1 ? "" : "s");
		assert_int_equal(e2e_lines_with(log2, needle), 1);
	} else {
		/* Not even run.json fitted: nothing was measured, and the
		 * run says so; run again. */
		assert_int_equal(kept, 0);
		assert_true(e2e_lines_with(log, "nothing was measured") >= 1);
		e2e_remove_tree(dir);
		st = hilrun(log2, "--config", conf, "--results", results);
		assert_int_equal(st, 0);
		e2e_run_dir(results, dir, sizeof(dir));
		snprintf(journal, sizeof(journal), "%s/journal.jsonl", dir);
	}
	assert_int_equal(journal_rows(journal), ROWS);
	rows = rows_of(results);
	assert_string_equal(rows, clean_rows);
	free(rows);
	unmount();
}

static void test_a_full_disk_loses_nothing_measured(void **state)
{
	static const unsigned free_kib[] = {0, 4, 8, 16, 64};
	char conf[128], clean[128], log[128];
	char *clean_rows;
	size_t i;

	(void)state;
	snprintf(mnt, sizeof(mnt), "%s/mnt", tmp);
	snprintf(results, sizeof(results), "%s/results", mnt);
	e2e_make_dir(mnt);
	if (mount("tmpfs", mnt, "tmpfs", 0, "size=256k") != 0) {
		fprintf(stderr,
			"e2e: cannot mount a tmpfs here (%s; needs root): skipped\n",
			strerror(errno));
		skip();
	}
	assert_int_equal(umount(mnt), 0);

	snprintf(conf, sizeof(conf), "%s/diskfull.json", tmp);
	snprintf(clean, sizeof(clean), "%s/clean", tmp);
	snprintf(log, sizeof(log), "%s/clean.log", tmp);
	write_config(conf);
	assert_int_equal(hilrun(log, "--config", conf, "--results", clean), 0);
	clean_rows = rows_of(clean);
	for (i = 0; i < sizeof(free_kib) / sizeof(free_kib[0]); i++) {
		full_disk_case(conf, clean_rows, free_kib[i]);
	}
	free(clean_rows);
	assert_true(e2e_qemu_gone(tmp, NULL, E2E_HANG_MS));
}

static int setup(void **state)
{
	char locks[96];

	(void)state;
	snprintf(tmp, sizeof(tmp), "/tmp/hilrun-diskfull-XXXXXX");
	if (mkdtemp(tmp) == NULL) {
		return -1;
	}
	snprintf(locks, sizeof(locks), "%s/locks", tmp);
	return setenv("HILRUN_LOCK_DIR", locks, 1);
}

static int teardown(void **state)
{
	(void)state;
	e2e_qemu_gone(tmp, NULL, E2E_HANG_MS);
	if (mounted) {
		umount(mnt);
		mounted = 0;
	}
	e2e_remove_tree(tmp);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_full_disk_loses_nothing_measured),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
