/* test_html_headless: report.html opens in headless Chromium from a file, without console errors. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "err.h"
#include "report/render.h"
#include "util.h"
#include "unit_util.h"

#ifndef CHROMIUM
#define CHROMIUM "/usr/bin/chromium" /* Debian's package "chromium" */
#endif
#define TIMEOUT_S 120 /* a cold start in a small VM takes a few seconds */

/* Write report.html of a fixture into dir. */
static void write_html(const char *fixture, const char *dir)
{
	const char *root = getenv("HIL_SRC_DIR");
	char path[4096], err[1024];
	cJSON *report = NULL;
	FILE *f;

	snprintf(path, sizeof(path), "%s/tests/fixtures/%s", root ? root : ".",
		 fixture);
	if (hil_report_load(path, &report, err, sizeof(err)) != HIL_OK) {
		fail_msg("%s", err);
	}
	snprintf(path, sizeof(path), "%s/report.html", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(hil_html_report(report, f), HIL_OK);
	assert_int_equal(fclose(f), 0);
	cJSON_Delete(report);
}

/*
 * Run Chromium on the page with stdout and stderr to dir/chromium.log.
 * Its own process group, so that on a timeout the whole group it made
 * (zygote, renderer) is stopped by the group id we started.
 * @return the exit status, or -1 on a timeout or abnormal end.
 */
static int run_chromium(const char *dir)
{
	char profile[4096], shot[4096], url[4096], log[4096];
	char profile_arg[4200], shot_arg[4200];
	pid_t pid;
	int status, waited_ms = 0;

	snprintf(profile, sizeof(profile), "%s/profile", dir);
	snprintf(shot, sizeof(shot), "%s/shot.png", dir);
	snprintf(url, sizeof(url), "file://%s/report.html", dir);
	snprintf(log, sizeof(log), "%s/chromium.log", dir);
	snprintf(profile_arg, sizeof(profile_arg), "--user-data-dir=%s",
		 profile);
	snprintf(shot_arg, sizeof(shot_arg), "--screenshot=%s", shot);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		setpgid(0, 0);
		if (fd < 0) {
			_exit(126);
		}
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		close(fd);
		execl(CHROMIUM, CHROMIUM, "--headless", "--no-sandbox",
		      "--disable-gpu", "--disable-quic", "--no-first-run",
		      "--disable-background-networking",
		      "--disable-component-update", "--disable-sync",
		      profile_arg, shot_arg, "--window-size=1280,2000",
		      "--enable-logging=stderr", "--v=0", url, (char *)NULL);
		_exit(127);
	}
	setpgid(pid, pid); /* also here: no race with the child's own call */
	for (;;) {
		struct timespec ts = {0, 100 * 1000 * 1000};
		pid_t w = waitpid(pid, &status, WNOHANG);

		if (w == pid) {
			break;
		}
		if (w < 0 && errno != EINTR) {
			return -1;
		}
		if (waited_ms >= TIMEOUT_S * 1000) {
			kill(-pid, SIGKILL);
			waitpid(pid, &status, 0);
			print_error("chromium did not finish in %d s\n",
				    TIMEOUT_S);
			return -1;
		}
		nanosleep(&ts, NULL);
		waited_ms += 100;
	}
	/* Stray helpers of the group, if any outlived the browser. */
	kill(-pid, SIGKILL);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void check_page(const char *fixture)
{
	static const unsigned char png_sig[8] = {0x89, 'P',  'N',  'G',
						 '\r', '\n', 0x1a, '\n'};
	char *dir;
	char path[4096];
	char *log = NULL, *png = NULL, *line, *save = NULL;
	size_t len = 0, pnglen = 0;
	int rc;

	if (access(CHROMIUM, X_OK) != 0) {
		skip(); /* Debian package "chromium" not installed */
	}
	dir = strdup("/tmp/hilrun-html.XXXXXX");
	assert_non_null(dir);
	assert_non_null(mkdtemp(dir));
	write_html(fixture, dir);
	rc = run_chromium(dir);
	snprintf(path, sizeof(path), "%s/chromium.log", dir);
	assert_int_equal(hil_read_file(path, &log, &len), HIL_OK);
	if (rc != 0) {
		print_error("%s", log);
	}
	assert_int_equal(rc, 0);
	snprintf(path, sizeof(path), "%s/shot.png", dir);
	assert_int_equal(hil_read_file(path, &png, &pnglen), HIL_OK);
	assert_true(pnglen > 1000);
	assert_memory_equal(png, png_sig, sizeof(png_sig));
	/*
	 * Page problems show up as console messages ("CONSOLE(1)]",
	 * "Uncaught ...") or failed loads (net::ERR_); Chromium's own noise
	 * in a container (D-Bus, GPU) does not and is ignored.
	 */
	for (line = strtok_r(log, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		if (strstr(line, "Uncaught") != NULL ||
		    strstr(line, "CONSOLE") != NULL ||
		    strstr(line, "net::ERR_") != NULL) {
			fail_msg("chromium reported a page problem: %s", line);
		}
	}
	if (getenv("HILRUN_KEEP_SHOT") != NULL) {
		print_message("screenshot kept: %s/shot.png\n", dir);
	} else {
		ut_rm_tree(dir); /* Chromium's profile has sub-directories */
	}
	free(log);
	free(png);
	free(dir);
}

static void test_html_min_loads_without_console_errors(void **state)
{
	(void)state;
	check_page("report-min.json");
}

static void test_html_failed_rows_load_without_console_errors(void **state)
{
	(void)state;
	check_page("report-failed.json");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_html_min_loads_without_console_errors),
		cmocka_unit_test(
			test_html_failed_rows_load_without_console_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
