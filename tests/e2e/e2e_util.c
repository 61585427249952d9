/* e2e_util: helpers shared by the end-to-end tests: time, QEMU processes, stderr capture, temporary trees. */
#define _XOPEN_SOURCE 700
#include "e2e_util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

uint64_t e2e_ms_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

void e2e_sleep_ms(unsigned ms)
{
	struct timespec ts = {.tv_sec = ms / 1000u,
			      .tv_nsec = (long)(ms % 1000u) * 1000000L};

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
	}
}

int e2e_count_qemu(const char *needle, const char *except)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int n = 0;

	if (d == NULL) {
		return -1;
	}
	for (e = readdir(d); e != NULL; e = readdir(d)) {
		char path[300], buf[8192];
		size_t len, i;
		FILE *f;

		if (e->d_name[0] < '0' || e->d_name[0] > '9') {
			continue;
		}
		snprintf(path, sizeof(path), "/proc/%s/cmdline", e->d_name);
		f = fopen(path, "r");
		if (f == NULL) {
			continue;
		}
		len = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		for (i = 0; i < len; i++) {
			if (buf[i] == '\0') {
				buf[i] = ' ';
			}
		}
		buf[len] = '\0';
		if (strstr(buf, E2E_QEMU_PROGRAM) != NULL &&
		    strstr(buf, needle) != NULL &&
		    (except == NULL || strstr(buf, except) == NULL)) {
			n++;
		}
	}
	closedir(d);
	return n;
}

int e2e_qemu_gone(const char *needle, const char *except, unsigned ms)
{
	uint64_t deadline = e2e_ms_now() + ms;

	for (;;) {
		int n = e2e_count_qemu(needle, except);

		if (n == 0) {
			return 1;
		}
		if (e2e_ms_now() >= deadline) {
			fprintf(stderr,
				"e2e: %d QEMU process(es) of %s still alive\n",
				n, needle);
			return 0;
		}
		e2e_sleep_ms(20);
	}
}

void e2e_capture_begin(struct e2e_capture *c, const char *dir)
{
	int fd;

	fflush(stderr);
	snprintf(c->path, sizeof(c->path), "%s/stderr-XXXXXX", dir);
	fd = mkstemp(c->path);
	assert_true(fd >= 0);
	c->saved = dup(2);
	assert_true(c->saved >= 0);
	assert_int_equal(dup2(fd, 2), 2);
	close(fd);
}

void e2e_capture_end(struct e2e_capture *c, char *buf, size_t len)
{
	FILE *f;
	size_t n;

	fflush(stderr);
	dup2(c->saved, 2);
	close(c->saved);
	f = fopen(c->path, "r");
	assert_non_null(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
	unlink(c->path);
	fprintf(stderr, "%s", buf);
}

void e2e_assert_contains(const char *hay, const char *needle)
{
	if (strstr(hay, needle) == NULL) {
		fail_msg("expected \"%s\" in the message:\n%s", needle, hay);
	}
}

int e2e_is_hex(const char *s, size_t n)
{
	size_t i;

	if (s == NULL || strlen(s) != n) {
		return 0;
	}
	for (i = 0; i < n; i++) {
		if (!((s[i] >= '0' && s[i] <= '9') ||
		      (s[i] >= 'a' && s[i] <= 'f'))) {
			return 0;
		}
	}
	return 1;
}

void e2e_make_dir(const char *path)
{
	if (mkdir(path, 0755) != 0 && errno != EEXIST) {
		fail_msg("mkdir %s: %s", path, strerror(errno));
	}
}

static int rm_entry(const char *path, const struct stat *st, int flag,
		    struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	if (remove(path) != 0) {
		fprintf(stderr, "e2e: cannot remove %s: %s\n", path,
			strerror(errno));
	}
	return 0;
}

void e2e_remove_tree(const char *path)
{
	nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}
