/* test_log: a log line names the sweep configuration of the thread that wrote it, and is written whole. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HIL_LOG_PREFIX "runner"
#include "util/log.h"

/* stderr into a temporary file while fn(arg) runs; its text returned. */
static char *capture(void *(*fn)(void *), void *arg)
{
	FILE *tmp = tmpfile();
	int saved = dup(2);
	char *text = calloc(1, 4096);
	size_t n;

	assert_non_null(tmp);
	assert_non_null(text);
	fflush(stderr);
	assert_true(dup2(fileno(tmp), 2) >= 0);
	fn(arg);
	fflush(stderr);
	assert_true(dup2(saved, 2) >= 0);
	close(saved);
	rewind(tmp);
	n = fread(text, 1, 4095, tmp);
	text[n] = '\0';
	fclose(tmp);
	return text;
}

static void *log_one(void *arg)
{
	(void)arg;
	hil_warn("a row of %s", "speck");
	return NULL;
}

/* A sweep's worker names its thread after the configuration it runs. */
static void *log_in_named_thread(void *arg)
{
	pthread_t th;

	(void)arg;
	assert_int_equal(pthread_create(&th, NULL, log_one, NULL), 0);
	pthread_join(th, NULL);
	return NULL;
}

static void *named(void *arg)
{
	pthread_setname_np(pthread_self(), (const char *)arg);
	log_one(NULL);
	return NULL;
}

static void *log_named(void *arg)
{
	pthread_t th;

	assert_int_equal(pthread_create(&th, NULL, named, arg), 0);
	pthread_join(th, NULL);
	return NULL;
}

/* Issue 31 item 10: the log lines of parallel jobs carry the config name;
 * the main thread's and unnamed threads' carry none. */
static void test_log_line_names_the_configuration_thread(void **state)
{
	char *t;

	(void)state;
	setenv("HILRUN_LOG", "2", 1);
	t = capture(log_one, NULL);
	assert_string_equal(t, "hilrun: runner: warning: a row of speck\n");
	free(t);
	t = capture(log_in_named_thread, NULL);
	assert_string_equal(t, "hilrun: runner: warning: a row of speck\n");
	free(t);
	t = capture(log_named, (void *)"sweeptest-O2");
	assert_string_equal(
		t, "hilrun: [sweeptest-O2] runner: warning: a row of speck\n");
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_log_line_names_the_configuration_thread),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
