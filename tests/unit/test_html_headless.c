/* test_html_headless: report.html opens in headless Chromium from a file, without console errors, its headline columns in view. */
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

#include "util/err.h"
#include "report/render.h"
#include "util/util.h"
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
static int run_chromium_on(const char *dir, const char *page, int width,
			   int dump)
{
	char profile[4096], shot[4096], url[4096], log[4096];
	char profile_arg[4200], shot_arg[4200], size_arg[64];
	pid_t pid;
	int status, waited_ms = 0;

	snprintf(profile, sizeof(profile), "%s/profile", dir);
	snprintf(shot, sizeof(shot), "%s/shot.png", dir);
	snprintf(url, sizeof(url), "file://%s/%s", dir, page);
	snprintf(log, sizeof(log), "%s/chromium.log", dir);
	snprintf(profile_arg, sizeof(profile_arg), "--user-data-dir=%s",
		 profile);
	/* --dump-dom prints the page after its load event to stdout. */
	snprintf(shot_arg, sizeof(shot_arg), "%s%s",
		 dump ? "--dump-dom" : "--screenshot=", dump ? "" : shot);
	snprintf(size_arg, sizeof(size_arg), "--window-size=%d,%d", width,
		 dump ? 900 : 2000);
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
		      profile_arg, shot_arg, size_arg,
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
	rc = run_chromium_on(dir, "report.html", 1280, 0);
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

/*
 * Geometry, measured by the browser: a copy of the page with a script
 * (report.html itself has none) that checks every headline column
 * (th.hl in table.head) lies inside the window and that the summary
 * section needs no horizontal scrolling, and writes what it found on
 * <body data-probe>.
 */
static const char probe_js[] =
	"<script>(function(){var ok=document.querySelectorAll('table.head th.hl').length>0,right=0;"
	"document.querySelectorAll('table.head th.hl').forEach(function(h){var b=h.getBoundingClientRect();"
	"if(b.right>window.innerWidth||b.left<0){ok=false;}right=Math.max(right,b.right);});"
	"var sc=0;document.querySelectorAll('section').forEach(function(s){if(s.querySelector('table.head')&&s.scrollWidth>s.clientWidth){sc=1;}});"
	"document.body.setAttribute('data-probe',(ok?'inside':'outside')+' width='+window.innerWidth+' right='+Math.round(right)+' scroll='+sc);})();</script>";

/* @return what the probe wrote (malloc'd), e.g. "inside width=1280 ...". */
static char *probe(const char *dir, const char *html_name, int width)
{
	char path[4096], *html = NULL, *log = NULL, *body, *out, *p, *e;
	size_t len = 0;
	FILE *f;
	int rc;

	snprintf(path, sizeof(path), "%s/%s", dir, html_name);
	assert_int_equal(hil_read_file(path, &html, &len), HIL_OK);
	body = strstr(html, "</body>");
	assert_non_null(body);
	snprintf(path, sizeof(path), "%s/probe.html", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fwrite(html, 1, (size_t)(body - html), f);
	fputs(probe_js, f);
	fputs(body, f);
	assert_int_equal(fclose(f), 0);
	rc = run_chromium_on(dir, "probe.html", width, 1);
	snprintf(path, sizeof(path), "%s/chromium.log", dir);
	assert_int_equal(hil_read_file(path, &log, &len), HIL_OK);
	if (rc != 0) {
		print_error("%s", log);
	}
	assert_int_equal(rc, 0);
	p = strstr(log, "data-probe=\"");
	if (p == NULL) {
		fail_msg("no probe result in chromium's output");
	}
	p += strlen("data-probe=\"");
	e = strchr(p, '"');
	assert_non_null(e);
	out = strndup(p, (size_t)(e - p));
	assert_non_null(out);
	free(html);
	free(log);
	return out;
}

static void check_fit(const char *fixture)
{
	static const int widths[] = {1280, 1920};
	char *dir, *got, want[64];
	size_t i;

	if (access(CHROMIUM, X_OK) != 0) {
		skip(); /* Debian package "chromium" not installed */
	}
	dir = strdup("/tmp/hilrun-fit.XXXXXX");
	assert_non_null(dir);
	assert_non_null(mkdtemp(dir));
	write_html(fixture, dir);
	for (i = 0; i < sizeof(widths) / sizeof(widths[0]); i++) {
		got = probe(dir, "report.html", widths[i]);
		snprintf(want, sizeof(want), "inside width=%d ", widths[i]);
		if (strncmp(got, want, strlen(want)) != 0 ||
		    strstr(got, " scroll=0") == NULL) {
			fail_msg(
				"%s at %d px: headline columns not in view: %s",
				fixture, widths[i], got);
		}
		free(got);
	}
	ut_rm_tree(dir);
	free(dir);
}

/* The probe can fail: in a window too narrow the table scrolls. */
static void test_html_probe_sees_a_narrow_window(void **state)
{
	char *dir, *got;

	(void)state;
	if (access(CHROMIUM, X_OK) != 0) {
		skip();
	}
	dir = strdup("/tmp/hilrun-fit.XXXXXX");
	assert_non_null(dir);
	assert_non_null(mkdtemp(dir));
	write_html("report-model.json", dir);
	got = probe(dir, "report.html", 700);
	assert_non_null(strstr(got, " scroll=1"));
	free(got);
	ut_rm_tree(dir);
	free(dir);
}

static void test_html_headline_in_view_at_1280_and_1920(void **state)
{
	(void)state;
	check_fit("report-model.json");
	check_fit("report-failed.json");
}

static void test_html_model_loads_without_console_errors(void **state)
{
	(void)state;
	check_page("report-model.json");
}

/* sweep.html of six configurations of the model fixture into dir. */
static void write_sweep_html(const char *dir)
{
	const char *root = getenv("HIL_SRC_DIR");
	char path[4096], err[1024];
	const cJSON *list[6];
	cJSON *rep[6];
	FILE *f;
	size_t i;

	snprintf(path, sizeof(path), "%s/tests/fixtures/report-model.json",
		 root ? root : ".");
	for (i = 0; i < 6; i++) {
		char name[32];

		if (hil_report_load(path, &rep[i], err, sizeof(err)) !=
		    HIL_OK) {
			fail_msg("%s", err);
		}
		snprintf(name, sizeof(name), "ratio-model-O%zu", i);
		cJSON_ReplaceItemInObjectCaseSensitive(
			cJSON_GetObjectItemCaseSensitive(rep[i], "run"),
			"config_name", cJSON_CreateString(name));
		list[i] = rep[i];
	}
	snprintf(path, sizeof(path), "%s/sweep.html", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(hil_html_sweep(list, 6, NULL, f), HIL_OK);
	assert_int_equal(fclose(f), 0);
	for (i = 0; i < 6; i++) {
		cJSON_Delete(rep[i]);
	}
}

/* The sweep's page: a column per configuration, all in view. */
static void test_html_sweep_in_view_at_1280_and_1920(void **state)
{
	static const int widths[] = {1280, 1920};
	char *dir, *got, want[64];
	size_t i;

	(void)state;
	if (access(CHROMIUM, X_OK) != 0) {
		skip();
	}
	dir = strdup("/tmp/hilrun-fit.XXXXXX");
	assert_non_null(dir);
	assert_non_null(mkdtemp(dir));
	write_sweep_html(dir);
	for (i = 0; i < sizeof(widths) / sizeof(widths[0]); i++) {
		got = probe(dir, "sweep.html", widths[i]);
		snprintf(want, sizeof(want), "inside width=%d ", widths[i]);
		if (strncmp(got, want, strlen(want)) != 0 ||
		    strstr(got, " scroll=0") == NULL) {
			fail_msg("sweep.html at %d px: columns not in view: %s",
				 widths[i], got);
		}
		free(got);
	}
	ut_rm_tree(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_html_min_loads_without_console_errors),
		cmocka_unit_test(
			test_html_failed_rows_load_without_console_errors),
		cmocka_unit_test(test_html_model_loads_without_console_errors),
		cmocka_unit_test(test_html_headline_in_view_at_1280_and_1920),
		cmocka_unit_test(test_html_probe_sees_a_narrow_window),
		cmocka_unit_test(test_html_sweep_in_view_at_1280_and_1920),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
