/* fuzz_common: failure reporting and scratch files for the fuzz entry points. */
#define _POSIX_C_SOURCE 200809L

#include "fuzz.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef FUZZ_SRC_DIR
#define FUZZ_SRC_DIR "."
#endif

static unsigned failures;
static char scratch[4096];
static int scratch_fd = -1;
/* Where broken promises are told: libFuzzer's -close_fd_mask closes
 * stderr after LLVMFuzzerInitialize, so a copy is taken there. */
static int report_fd = 2;

unsigned fuzz_failures(void)
{
	return failures;
}

void fuzz_fail(const char *file, int line, const char *what)
{
	char msg[512];
	int n;

	failures++;
	n = snprintf(msg, sizeof(msg), "%s:%d: broken promise: %s\n", file,
		     line, what);
	if (n > 0) {
		(void)!write(report_fd, msg,
			     (size_t)n < sizeof(msg) ? (size_t)n
						     : sizeof(msg) - 1);
	}
#ifdef FUZZ_LIBFUZZER
	abort();
#endif
}

static void scratch_remove(void)
{
	if (scratch_fd >= 0) {
		close(scratch_fd);
		unlink(scratch);
		scratch_fd = -1;
	}
}

const char *fuzz_scratch_file(const uint8_t *data, size_t size)
{
	size_t done = 0;

	if (scratch_fd < 0) {
		const char *dir = getenv("TMPDIR");

		/* Memory-backed when there is one: a journalled disk makes
		 * the truncate and write of every input ten times slower. */
		if (dir == NULL || dir[0] == '\0') {
			dir = access("/dev/shm", W_OK) == 0 ? "/dev/shm"
							    : "/tmp";
		}
		snprintf(scratch, sizeof(scratch), "%s/hilfuzz.XXXXXX", dir);
		scratch_fd = mkstemp(scratch);
		if (scratch_fd < 0) {
			perror(scratch);
			return NULL;
		}
		/* Unlinked at once and read through /proc, so that a crash
		 * (no atexit) leaves no file behind; elsewhere, removed at exit. */
		if (access("/proc/self/fd", X_OK) == 0 &&
		    unlink(scratch) == 0) {
			snprintf(scratch, sizeof(scratch), "/proc/self/fd/%d",
				 scratch_fd);
		} else {
			atexit(scratch_remove);
		}
	}
	if (ftruncate(scratch_fd, 0) != 0) {
		return NULL;
	}
	while (done < size) {
		ssize_t n = pwrite(scratch_fd, data + done, size - done,
				   (off_t)done);

		if (n <= 0) {
			return NULL;
		}
		done += (size_t)n;
	}
	return scratch;
}

const char *fuzz_src_dir(void)
{
	const char *s = getenv("HIL_SRC_DIR");

	return s != NULL && s[0] != '\0' ? s : FUZZ_SRC_DIR;
}

char *fuzz_strdup(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (s != NULL) {
		if (size > 0) {
			memcpy(s, data, size);
		}
		s[size] = '\0';
	}
	return s;
}

#ifdef FUZZ_LIBFUZZER
int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	int fd = dup(2);

	(void)argc;
	(void)argv;
	if (fd >= 0) {
		report_fd = fd;
	}
	/* The code under test logs at ERR only: refusals are its job here. */
	setenv("HILRUN_LOG", "0", 1);
	return 0;
}
#endif
