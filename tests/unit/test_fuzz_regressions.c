/* test_fuzz_regressions: every saved fuzz finding and seed input through the fuzz entry points, built without libFuzzer. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fuzz.h"

/*
 * tests/fuzz/regressions/<target>-<name> holds inputs that once broke a
 * promise (a crash, a sanitizer report, a wrong error); tests/fuzz/corpus/
 * <target>/ holds the seeds. Each input runs in a child process with a time
 * limit, so that a crash or a hang is reported with the file's name and the
 * other inputs still run. Under `make test SAN=1` memory errors that do not
 * crash are caught as well.
 */

#define CHILD_SECONDS	60
#define EXIT_PROMISE	3 /* the entry point returned broken promises */
#define MAX_INPUT_BYTES (16u * 1024u * 1024u)

struct target {
	const char *name;
	int (*one)(const uint8_t *data, size_t size);
};

static const struct target frame = {"frame", fuzz_frame_one};
static const struct target stub = {"stub", fuzz_stub_one};
static const struct target config = {"config", fuzz_config_one};
static const struct target kat = {"kat", fuzz_kat_one};
static const struct target report = {"report", fuzz_report_one};

static int read_input(const char *path, uint8_t **out, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long n = -1;

	if (f == NULL) {
		return -1;
	}
	if (fseek(f, 0, SEEK_END) == 0) {
		n = ftell(f);
	}
	if (n < 0 || (unsigned long)n > MAX_INPUT_BYTES ||
	    fseek(f, 0, SEEK_SET) != 0) {
		fclose(f);
		return -1;
	}
	buf = malloc((size_t)n + 1);
	if (buf == NULL || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		fclose(f);
		return -1;
	}
	fclose(f);
	*out = buf;
	*len = (size_t)n;
	return 0;
}

/* Run one input in a child; 0 when it was handled cleanly. */
static int run_input(const struct target *t, const char *path)
{
	uint8_t *data = NULL;
	size_t len = 0;
	pid_t pid;
	int status;

	if (read_input(path, &data, &len) != 0) {
		print_error("%s: cannot read\n", path);
		return 1;
	}
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		free(data);
		print_error("%s: fork failed\n", path);
		return 1;
	}
	if (pid == 0) {
		alarm(CHILD_SECONDS);
		_exit(t->one(data, len) == 0 ? 0 : EXIT_PROMISE);
	}
	free(data);
	if (waitpid(pid, &status, 0) != pid) {
		print_error("%s: lost the child\n", path);
		return 1;
	}
	if (WIFSIGNALED(status)) {
		print_error("%s: %s (signal %d)\n", path,
			    WTERMSIG(status) == SIGALRM ? "did not finish"
							: "crashed",
			    WTERMSIG(status));
		return 1;
	}
	if (WEXITSTATUS(status) == EXIT_PROMISE) {
		print_error("%s: broken promise (message above)\n", path);
		return 1;
	}
	if (WEXITSTATUS(status) != 0) {
		print_error("%s: exited with %d (a sanitizer report?)\n", path,
			    WEXITSTATUS(status));
		return 1;
	}
	return 0;
}

/* Every regular file in dir whose name starts with prefix; failures counted. */
static int run_dir(const struct target *t, const char *dir, const char *prefix,
		   int *count)
{
	char path[4096];
	struct dirent *de;
	struct stat st;
	DIR *d = opendir(dir);
	int failed = 0;

	if (d == NULL) {
		return 0;
	}
	while ((de = readdir(d)) != NULL) {
		if (strncmp(de->d_name, prefix, strlen(prefix)) != 0 ||
		    de->d_name[0] == '.') {
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
			continue;
		}
		(*count)++;
		failed += run_input(t, path);
	}
	closedir(d);
	return failed;
}

static void inputs_handled_cleanly(const struct target *t)
{
	char dir[4096], prefix[64];
	int failed, count = 0;

	snprintf(dir, sizeof(dir), "%s/tests/fuzz/regressions", fuzz_src_dir());
	snprintf(prefix, sizeof(prefix), "%s-", t->name);
	failed = run_dir(t, dir, prefix, &count);
	snprintf(dir, sizeof(dir), "%s/tests/fuzz/corpus/%s", fuzz_src_dir(),
		 t->name);
	failed += run_dir(t, dir, "", &count);
	if (count == 0) {
		fail_msg("no inputs for %s under %s/tests/fuzz (HIL_SRC_DIR?)",
			 t->name, fuzz_src_dir());
	}
	if (failed != 0) {
		fail_msg(
			"%d of %d %s inputs not handled cleanly (listed above)",
			failed, count, t->name);
	}
}

static void test_frame_inputs_handled_cleanly(void **state)
{
	(void)state;
	inputs_handled_cleanly(&frame);
}

static void test_stub_inputs_handled_cleanly(void **state)
{
	(void)state;
	inputs_handled_cleanly(&stub);
}

static void test_config_inputs_handled_cleanly(void **state)
{
	(void)state;
	inputs_handled_cleanly(&config);
}

static void test_kat_inputs_handled_cleanly(void **state)
{
	(void)state;
	inputs_handled_cleanly(&kat);
}

static void test_report_inputs_handled_cleanly(void **state)
{
	(void)state;
	inputs_handled_cleanly(&report);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_frame_inputs_handled_cleanly),
		cmocka_unit_test(test_stub_inputs_handled_cleanly),
		cmocka_unit_test(test_config_inputs_handled_cleanly),
		cmocka_unit_test(test_kat_inputs_handled_cleanly),
		cmocka_unit_test(test_report_inputs_handled_cleanly),
	};

	/* The code under test logs refusals at ERR; keep only those. */
	setenv("HILRUN_LOG", "0", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
