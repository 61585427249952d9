/* fake_tool: scratch folders, stand-in scripts and their records for the tests of the flashers' external tools. */
#define _POSIX_C_SOURCE 200809L

#include "fake_tool.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "drivers/flasher/flasher.h"
#include "util/err.h"
#include "unit_util.h"

void fake_tool_setup(struct fake_tool *t, const char *name)
{
	memset(t, 0, sizeof(*t));
	snprintf(t->dir, sizeof(t->dir), "/tmp/hiltest-%s-XXXXXX", name);
	assert_non_null(mkdtemp(t->dir));
	snprintf(t->bin, sizeof(t->bin), "%s/bin", t->dir);
	assert_int_equal(mkdir(t->bin, 0755), 0);
	snprintf(t->run_dir, sizeof(t->run_dir), "%s/run", t->dir);
	assert_int_equal(mkdir(t->run_dir, 0755), 0);
	snprintf(t->argv_log, sizeof(t->argv_log), "%s/argv.txt", t->dir);
	setenv("HIL_FAKE_ARGV", t->argv_log, 1);
}

void fake_tool_on_path(struct fake_tool *t)
{
	const char *old = getenv("PATH");
	char path[512];

	t->saved_path = strdup(old != NULL ? old : "/usr/bin:/bin");
	assert_non_null(t->saved_path);
	snprintf(path, sizeof(path), "%s:%s", t->bin, t->saved_path);
	setenv("PATH", path, 1);
}

void fake_tool_install(const char *dir, const char *name, const char *script,
		       char *path, size_t len)
{
	char buf[256];

	if (path == NULL) {
		path = buf;
		len = sizeof(buf);
	}
	snprintf(path, len, "%s/%s", dir, name);
	ut_write_file(path, script, strlen(script), 0755);
}

void fake_tool_teardown(struct fake_tool *t)
{
	if (t->saved_path != NULL) {
		setenv("PATH", t->saved_path, 1);
		free(t->saved_path);
		t->saved_path = NULL;
	}
	assert_int_equal(ut_rm_tree(t->dir), 0);
}

char *fake_tool_slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (f == NULL) {
		buf = calloc(1, 1);
		assert_non_null(buf);
		return buf;
	}
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	assert_true(n >= 0);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

void fake_tool_env(const char *name, const char *value)
{
	if (value != NULL) {
		setenv(name, value, 1);
	} else {
		unsetenv(name);
	}
}

void fake_tool_forget(const struct fake_tool *t)
{
	unlink(t->argv_log);
}

void fake_tool_assert_not_run(const struct fake_tool *t)
{
	char *rec = fake_tool_slurp(t->argv_log);

	assert_string_equal(rec, "");
	free(rec);
}

void fake_tool_assert_killed(uint64_t t0, const char *sleep_mark)
{
	/* The timeout plus the kill's grace: returned, not hung. */
	assert_true(ut_ms_now() - t0 < UT_HANG_MS);
	assert_int_equal(ut_count_procs("sleep", sleep_mark), 0);
}

int fake_tool_teardown_fixture(void **state)
{
	struct fake_tool *t = *state; /* the fixture's first member */

	fake_tool_teardown(t);
	free(*state);
	return 0;
}

void fake_tool_params(const struct fake_tool *t, struct hil_flasher_params *p)
{
	memset(p, 0, sizeof(*p));
	p->run_dir = t->run_dir;
}

struct hil_flasher *fake_tool_open(const char *type,
				   const struct hil_flasher_params *p)
{
	struct hil_flasher *fl = NULL;

	assert_int_equal(hil_flasher_open(&fl, type, p), HIL_OK);
	assert_string_equal(hil_flasher_type(fl), type);
	return fl;
}

void fake_tool_check_real_board(struct hil_flasher *fl)
{
	assert_null(hil_flasher_link_where(fl));
	assert_int_equal(hil_flasher_check(fl), HIL_OK);
	hil_flasher_stop(fl);
	hil_flasher_close(fl);
}

void fake_tool_check_rejects_non_elf(const struct fake_tool *t,
				     struct hil_flasher *fl,
				     const char *not_elf)
{
	struct ut_capture c;
	char log[2048];

	ut_capture_begin(&c);
	assert_int_equal(hil_flasher_start(fl, not_elf), HIL_ERR_ARG);
	assert_int_equal(hil_flasher_start(fl, "/nonexistent/fw.elf"),
			 HIL_ERR_IO);
	ut_capture_end(&c, log, sizeof(log));
	assert_non_null(strstr(log, not_elf));
	assert_non_null(strstr(log, "/nonexistent/fw.elf"));
	fake_tool_assert_not_run(t); /* never started */
}

void fake_tool_check_start_hangs(struct hil_flasher *fl, const char *elf,
				 const char *timeout, const char *serial,
				 const char *sleep_mark)
{
	struct ut_capture c;
	char log[2048];
	uint64_t t0;

	ut_capture_begin(&c);
	t0 = ut_ms_now();
	assert_int_equal(hil_flasher_start(fl, elf), HIL_ERR_TIMEOUT);
	ut_capture_end(&c, log, sizeof(log));
	fake_tool_assert_killed(t0, sleep_mark);
	assert_non_null(strstr(log, timeout));
	assert_non_null(strstr(log, serial));
	assert_non_null(strstr(log, elf));
	hil_flasher_close(fl);
}

void fake_tool_check_probe_hangs(struct hil_flasher *fl, const char *timeout,
				 const char *sleep_mark)
{
	struct ut_capture c;
	char log[1024], why[512];
	uint64_t t0;

	ut_capture_begin(&c);
	t0 = ut_ms_now();
	assert_int_equal(hil_flasher_probe(fl, why, sizeof(why)),
			 HIL_ERR_TIMEOUT);
	ut_capture_end(&c, log, sizeof(log));
	fake_tool_assert_killed(t0, sleep_mark);
	assert_non_null(strstr(why, timeout));
	hil_flasher_close(fl);
}

void fake_tool_check_missing_program(struct hil_flasher *fl, const char *elf,
				     const char *program, const char *advice)
{
	struct ut_capture c;
	char log[4096], v[64], why[512];

	ut_capture_begin(&c);
	assert_int_equal(hil_flasher_start(fl, elf), HIL_ERR_NA);
	assert_int_equal(hil_flasher_version(fl, v, sizeof(v)), HIL_ERR_NA);
	assert_int_equal(hil_flasher_probe(fl, why, sizeof(why)), HIL_ERR_NA);
	ut_capture_end(&c, log, sizeof(log));
	assert_non_null(strstr(log, program));
	assert_non_null(strstr(log, advice));
	assert_non_null(strstr(why, advice));
}

void fake_tool_check_start_fails(struct hil_flasher *fl, const char *elf,
				 int code, const char *says,
				 const char *not_says)
{
	struct ut_capture c;
	char log[4096];

	ut_capture_begin(&c);
	assert_int_equal(hil_flasher_start(fl, elf), code);
	ut_capture_end(&c, log, sizeof(log));
	if (says != NULL) {
		assert_non_null(strstr(log, says));
	}
	if (not_says != NULL) {
		assert_null(strstr(log, not_says));
	}
}
