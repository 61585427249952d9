/* log: leveled diagnostics to stderr. */
#define _GNU_SOURCE /* pthread_getname_np, program_invocation_short_name */
#include "log.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const level_names[] = {"error", "warning", "info", "debug",
					  "spew"};

static int current_level(void)
{
	const char *s = getenv("HILRUN_LOG");

	if (s == NULL || s[0] < '0' || s[0] > '4') {
		return HIL_LOG_INFO;
	}
	return s[0] - '0';
}

void hil_log_set_level(int level)
{
	char v[2];

	if (level < HIL_LOG_ERR) {
		level = HIL_LOG_ERR;
	}
	if (level > HIL_LOG_SPEW) {
		level = HIL_LOG_SPEW;
	}
	v[0] = (char)('0' + level);
	v[1] = '\0';
	setenv("HILRUN_LOG", v, 1);
}

/*
 * The name of a thread that runs one configuration of a sweep (set by the
 * sweep's worker), or "": the main thread and unnamed threads (whose name
 * is the program's) have none. Kept by the system, not in a global.
 */
static void thread_label(char *buf, size_t len)
{
	char name[16] = "";

	buf[0] = '\0';
	if (pthread_getname_np(pthread_self(), name, sizeof(name)) != 0 ||
	    name[0] == '\0' ||
	    strncmp(name, program_invocation_short_name, sizeof(name) - 1) ==
		    0) {
		return;
	}
	snprintf(buf, len, "[%s] ", name);
}

void hil_log(int level, const char *prefix, const char *fmt, ...)
{
	char label[24];
	va_list ap;

	if (level > current_level()) {
		return;
	}
	/* One line at a time: the runs of a parallel sweep and the progress
	 * line's ticker write from other threads. */
	flockfile(stderr);
	/* On a terminal, clear a progress line that may stand there. */
	if (isatty(2)) {
		fputs("\r\033[K", stderr);
	}
	/* main's own messages carry no second "hilrun": one prefix a line. */
	thread_label(label, sizeof(label));
	if (prefix == NULL || prefix[0] == '\0' ||
	    strcmp(prefix, "hilrun") == 0) {
		fprintf(stderr, "hilrun: %s%s: ", label, level_names[level]);
	} else {
		fprintf(stderr, "hilrun: %s%s: %s: ", label, prefix,
			level_names[level]);
	}
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	funlockfile(stderr);
}
