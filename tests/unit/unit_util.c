/* unit_util: helpers shared by the unit tests (see unit_util.h). */
#define _XOPEN_SOURCE 700 /* nftw */

#include <dirent.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "hilp.h"
#include "util/err.h"
#include "unit_util.h"

void ut_capture_begin(struct ut_capture *c)
{
	int fd;

	fflush(stderr);
	snprintf(c->path, sizeof(c->path), "/tmp/hiltest-log-XXXXXX");
	fd = mkstemp(c->path);
	assert_true(fd >= 0);
	c->saved = dup(2);
	assert_true(c->saved >= 0);
	assert_true(dup2(fd, 2) == 2);
	close(fd);
}

void ut_capture_end(struct ut_capture *c, char *buf, size_t len)
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
	fprintf(stderr, "%s", buf); /* keep it visible in the test output */
}

uint64_t ut_ms_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

void ut_sleep_ms(unsigned ms)
{
	struct timespec ts = {.tv_sec = ms / 1000u,
			      .tv_nsec = (long)(ms % 1000u) * 1000000L};

	nanosleep(&ts, NULL);
}

void ut_write_file(const char *path, const void *data, size_t n, int mode)
{
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, n, f), n);
	fclose(f);
	assert_int_equal(chmod(path, (mode_t)mode), 0);
}

/* Set by rm_entry, which goes on past a failure: nftw passes no context. */
static int rm_failed;

static int rm_entry(const char *path, const struct stat *sb, int flag,
		    struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	if (remove(path) != 0) {
		rm_failed = 1;
	}
	return 0;
}

int ut_rm_tree(const char *dir)
{
	rm_failed = 0;
	if (nftw(dir, rm_entry, 8, FTW_DEPTH | FTW_PHYS) != 0) {
		return -1;
	}
	return rm_failed ? -1 : 0;
}

void ut_src_path(char *out, size_t n, const char *rel)
{
	const char *src = getenv("HIL_SRC_DIR");

	if (src != NULL && src[0] != '\0') {
		snprintf(out, n, "%s/%s", src, rel);
	} else {
		snprintf(out, n, "%s", rel);
	}
}

char *ut_render(int (*fn)(const struct cJSON *, FILE *),
		const struct cJSON *report)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(fn(report, f), HIL_OK);
	assert_int_equal(fclose(f), 0);
	return buf;
}

void ut_unquote(char *out, size_t n, const char *s)
{
	size_t i;

	assert_true(strlen(s) < n);
	for (i = 0; s[i] != '\0'; i++) {
		out[i] = s[i] == '\'' ? '"' : s[i];
	}
	out[i] = '\0';
}

void ut_write_squoted(const char *path, const char *squoted)
{
	FILE *f = fopen(path, "w");
	const char *s;

	assert_non_null(f);
	for (s = squoted; *s != '\0'; s++) {
		assert_int_not_equal(fputc(*s == '\'' ? '"' : *s, f), EOF);
	}
	assert_int_equal(fclose(f), 0);
}

int ut_count_procs(const char *a, const char *b)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	for (e = readdir(d); e != NULL; e = readdir(d)) {
		char path[300], buf[4096];
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
		/* The arguments are NUL-separated: one string to search. */
		for (i = 0; i < len; i++) {
			if (buf[i] == '\0') {
				buf[i] = ' ';
			}
		}
		buf[len] = '\0';
		if (strstr(buf, a) != NULL && strstr(buf, b) != NULL) {
			n++;
		}
	}
	closedir(d);
	return n;
}

int ut_try_send_reply(int fd, uint8_t cmd, const uint8_t *d, size_t n,
		      int corrupt)
{
	uint8_t frame[HILP_MAX_FRAME];
	size_t len = hilp_encode_reply(cmd, d, n, frame);

	if (corrupt) {
		frame[1] ^= 0x40;
		if (frame[1] == 0) {
			frame[1] = 0x55;
		}
	}
	return write(fd, frame, len) == (ssize_t)len ? 0 : -1;
}

void ut_send_reply(int fd, uint8_t cmd, const uint8_t *d, size_t n, int corrupt)
{
	assert_int_equal(ut_try_send_reply(fd, cmd, d, n, corrupt), 0);
}
