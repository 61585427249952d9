/* End-to-end test of --resume: hilrun killed with SIGKILL mid-run, then resumed, gives the rows of an uninterrupted run. */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <cjson/cJSON.h>
#include <dirent.h>
#include <ftw.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/err.h"
#include "util/proc.h"
#include "util/util.h"

static char tmp[64];

static int rm_entry(const char *path, const struct stat *sb, int flag,
		    struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static const char *bin(void)
{
	const char *b = getenv("HILRUN_BIN");

	return b != NULL && b[0] != '\0' ? b : "build/hilrun";
}

/* The only run folder under dir (runs are named by time and config). */
static void run_dir(const char *dir, char *out, size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	out[0] = '\0';
	assert_non_null(d);
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] != '.' && strcmp(e->d_name, "latest") != 0) {
			snprintf(out, len, "%s/%s", dir, e->d_name);
		}
	}
	closedir(d);
	assert_true(out[0] != '\0');
}

static size_t lines_in(const char *path)
{
	char *text = NULL;
	size_t n = 0;
	size_t i;
	size_t len = 0;

	if (hil_read_file(path, &text, &len) != HIL_OK) {
		return 0;
	}
	for (i = 0; i < len; i++) {
		n += text[i] == '\n';
	}
	free(text);
	return n;
}

/* "alg/impl/op/len" -> median and samples, as text, for comparing. */
static char *rows_of(const char *report)
{
	char *text = NULL;
	cJSON *root;
	const cJSON *row;
	char *out = calloc(1, 1 << 20);
	size_t o = 0;

	assert_non_null(out);
	assert_int_equal(hil_read_file(report, &text, NULL), HIL_OK);
	root = cJSON_Parse(text);
	free(text);
	assert_non_null(root);
	cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(root, "rows"))
	{
		char *samples = cJSON_PrintUnformatted(
			cJSON_GetObjectItemCaseSensitive(row, "samples"));

		o += (size_t)snprintf(
			out + o, (1 << 20) - o, "%s/%s/%s/%d: %g %s\n",
			cJSON_GetObjectItemCaseSensitive(row, "algorithm")
				->valuestring,
			cJSON_GetObjectItemCaseSensitive(row, "implementation")
				->valuestring,
			cJSON_GetObjectItemCaseSensitive(row, "operation")
				->valuestring,
			cJSON_GetObjectItemCaseSensitive(row, "msg_len")
				->valueint,
			cJSON_GetObjectItemCaseSensitive(row, "median")
				->valuedouble,
			samples);
		free(samples);
	}
	cJSON_Delete(root);
	return out;
}

static void run_to_end(char *const argv[])
{
	int status = -1;

	assert_int_equal(hil_proc_run(argv, NULL, 300000, &status), HIL_OK);
	assert_int_equal(status, 0);
}

/* argv (no quoting needed) to its end, stdout and stderr into log. */
static void run_logged(char *const argv[], const char *log)
{
	char cmd[4096];
	size_t o = 0;
	int i;

	for (i = 0; argv[i] != NULL; i++) {
		o += (size_t)snprintf(cmd + o, sizeof(cmd) - o, "%s%s",
				      i > 0 ? " " : "", argv[i]);
	}
	snprintf(cmd + o, sizeof(cmd) - o, " > %s 2>&1", log);
	assert_int_equal(system(cmd), 0);
}

static void log_has(const char *log, const char *needle)
{
	char *text = NULL;

	assert_int_equal(hil_read_file(log, &text, NULL), HIL_OK);
	if (strstr(text, needle) == NULL) {
		fail_msg("%s does not say \"%s\":\n%s", log, needle, text);
	}
	free(text);
}

static void
test_resume_after_sigkill_gives_the_rows_of_an_uninterrupted_run(void **state)
{
	char conf[128], killed[128], whole[128], dir[256], journal[300];
	char report_a[300], report_b[300];
	char *a;
	char *b;
	struct hil_proc *p = NULL;
	FILE *f;
	int i;

	(void)state;
	snprintf(conf, sizeof(conf), "%s/resume.json", tmp);
	snprintf(killed, sizeof(killed), "%s/killed", tmp);
	snprintf(whole, sizeof(whole), "%s/whole", tmp);
	f = fopen(conf, "w");
	assert_non_null(f);
	fputs("{\"name\": \"resume\", \"board\": {\"name\": \"qemu-netduino\"},"
	      " \"algorithms\": [\"speck64-128-ecb\", \"ascon-aead128\"],"
	      " \"bench\": {\"operations\": [\"encrypt\", \"decrypt\"],"
	      " \"lengths\": [16, 64, 256, 1024], \"runs\": 300, \"warmup\": 2}}",
	      f);
	fclose(f);

	{
		char *const argv[] = {(char *)bin(), "-q",   "--config", conf,
				      "--results",   killed, NULL};

		assert_int_equal(hil_proc_spawn(&p, argv, NULL), HIL_OK);
	}
	/* Kill it once a few rows are in the journal, before the end. */
	for (i = 0; i < 1200; i++) {
		struct timespec ts = {0, 100000000};

		if (access(killed, F_OK) == 0) {
			DIR *d = opendir(killed);
			struct dirent *e;

			while (d != NULL && (e = readdir(d)) != NULL) {
				if (e->d_name[0] != '.') {
					snprintf(journal, sizeof(journal),
						 "%s/%s/journal.jsonl", killed,
						 e->d_name);
				}
			}
			if (d != NULL) {
				closedir(d);
			}
			if (lines_in(journal) >= 3) {
				break;
			}
		}
		assert_true(hil_proc_alive(p));
		nanosleep(&ts, NULL);
	}
	kill(hil_proc_pid(p), SIGKILL);
	hil_proc_free(p);
	run_dir(killed, dir, sizeof(dir));
	snprintf(journal, sizeof(journal), "%s/journal.jsonl", dir);
	assert_true(lines_in(journal) >= 3);
	assert_true(lines_in(journal) < 12); /* it really was cut short */

	{
		char *const argv[] = {(char *)bin(), "-q", "--resume", dir,
				      NULL};

		run_to_end(argv);
	}
	{
		char *const argv[] = {(char *)bin(), "-q",  "--config", conf,
				      "--results",   whole, NULL};

		run_to_end(argv);
	}
	snprintf(report_a, sizeof(report_a), "%s/report.json", dir);
	run_dir(whole, dir, sizeof(dir));
	snprintf(report_b, sizeof(report_b), "%s/report.json", dir);
	a = rows_of(report_a);
	b = rows_of(report_b);
	assert_int_equal(strlen(a) > 0, 1);
	assert_string_equal(a, b);
	free(a);
	free(b);
}

/* The JSON object in path (the test fails when it is not one). */
static cJSON *load_json(const char *path)
{
	char *text = NULL;
	cJSON *o;

	assert_int_equal(hil_read_file(path, &text, NULL), HIL_OK);
	o = cJSON_Parse(text);
	free(text);
	assert_non_null(o);
	return o;
}

static const char *run_str(const cJSON *report, const char *key)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(report, "run"), key);

	assert_true(cJSON_IsString(it));
	return it->valuestring;
}

/*
 * Issue 31 items 2 and 14: a --resume keeps the run's first start and its
 * configuration path as given (relative), and counts the earlier attempt's
 * working time, not the resume's alone. The first start is set back in
 * run.json to stand for a run of long ago (no waiting on the clock).
 */
static void test_resume_keeps_the_start_and_the_config_as_given(void **state)
{
	char cwd[4096], binabs[4096], dir[256], path[300];
	const char *old = "2020-01-02T03:04:05Z";
	cJSON *rep, *rj;
	double first_total;
	FILE *f;

	(void)state;
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_non_null(realpath(bin(), binabs));
	assert_int_equal(chdir(tmp), 0);
	f = fopen("small.json", "w");
	assert_non_null(f);
	fputs("{\"name\": \"small\", \"board\": {\"name\": \"qemu-netduino\"},"
	      " \"algorithms\": [\"ascon-hash256\"],"
	      " \"bench\": {\"operations\": [\"hash\"],"
	      " \"lengths\": [16], \"runs\": 5, \"warmup\": 1}}",
	      f);
	fclose(f);
	{
		char *const argv[] = {binabs,	   "--config", "small.json",
				      "--results", "kept",     NULL};

		/* Issue 31 item 14: one row, said in the singular. */
		run_logged(argv, "first.log");
		log_has("first.log", "1 row to measure");
	}
	run_dir("kept", dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/report.json", dir);
	rep = load_json(path);
	assert_string_equal(run_str(rep, "config"), "small.json");
	first_total = cJSON_GetObjectItemCaseSensitive(
			      cJSON_GetObjectItemCaseSensitive(rep, "timing"),
			      "total_s")
			      ->valuedouble;
	cJSON_Delete(rep);

	snprintf(path, sizeof(path), "%s/run.json", dir);
	rj = load_json(path);
	assert_string_equal(cJSON_GetObjectItemCaseSensitive(rj, "config_given")
				    ->valuestring,
			    "small.json");
	cJSON_ReplaceItemInObjectCaseSensitive(rj, "started",
					       cJSON_CreateString(old));
	{
		char *text = cJSON_Print(rj);

		assert_int_equal(hil_write_atomic(path, text, strlen(text)),
				 HIL_OK);
		free(text);
	}
	cJSON_Delete(rj);
	{
		char *const argv[] = {binabs, "--resume", dir, NULL};

		/* Issue 31 item 6: the resume says what the journal kept. */
		run_logged(argv, "resume.log");
		log_has("resume.log", "0 rows to measure (1 of 1 kept from the "
				      "journal)");
		log_has("resume.log", "resume: 1 row kept from the journal");
	}
	snprintf(path, sizeof(path), "%s/report.json", dir);
	rep = load_json(path);
	assert_string_equal(run_str(rep, "started"), old);
	assert_string_equal(run_str(rep, "config"), "small.json");
	{
		const cJSON *t =
			cJSON_GetObjectItemCaseSensitive(rep, "timing");
		const cJSON *e = cJSON_GetObjectItemCaseSensitive(
			t, "earlier_attempts_s");

		assert_true(cJSON_IsNumber(e));
		assert_true(fabs(e->valuedouble - first_total) < 1e-6);
		assert_true(cJSON_GetObjectItemCaseSensitive(t, "total_s")
				    ->valuedouble >= first_total);
	}
	cJSON_Delete(rep);
	assert_int_equal(chdir(cwd), 0);
}

static void test_resume_of_a_folder_that_is_not_a_run_is_refused(void **state)
{
	char *const argv[] = {(char *)bin(), "--resume", "/nonexistent/run",
			      NULL};
	int status = -1;

	(void)state;
	assert_int_equal(hil_proc_run(argv, NULL, 30000, &status), HIL_OK);
	assert_int_equal(status, 2);
}

static int setup(void **state)
{
	(void)state;
	snprintf(tmp, sizeof(tmp), "/tmp/hilrun-resume-XXXXXX");
	return mkdtemp(tmp) == NULL ? -1 : 0;
}

static int teardown(void **state)
{
	(void)state;
	return nftw(tmp, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			test_resume_after_sigkill_gives_the_rows_of_an_uninterrupted_run),
		cmocka_unit_test(
			test_resume_keeps_the_start_and_the_config_as_given),
		cmocka_unit_test(
			test_resume_of_a_folder_that_is_not_a_run_is_refused),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
