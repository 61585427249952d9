/* unit_util: helpers the unit tests share: stderr capture, a monotonic clock, temporary files and trees, processes. */
#ifndef HIL_UNIT_UTIL_H
#define HIL_UNIT_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct cJSON;

/*
 * Each helper that can go wrong fails the running cmocka test, so call
 * them from a test (or a setup that cmocka runs), never from main.
 */

/* stderr (the log) redirected into a temporary file for the length of one call. */
struct ut_capture {
	int saved;
	char path[64];
};

/**
 * Send stderr to a fresh file under /tmp until ut_capture_end.
 * @param c filled in; pass it to ut_capture_end.
 */
void ut_capture_begin(struct ut_capture *c);

/**
 * Restore stderr and remove the file.
 * @param buf receives what was written, NUL-terminated and cut to len - 1
 *            bytes; it is echoed to stderr too, to stay in the test output.
 * @param len size of buf (nonzero).
 */
void ut_capture_end(struct ut_capture *c, char *buf, size_t len);

/*
 * An upper bound on a wait that only a hang reaches, never a speed check:
 * tests run on loaded machines (ASan, 2 cores, other jobs), so a bound on
 * elapsed time may only tell "returned" from "hung". Lower bounds (a
 * timeout waited at least its time) are safe and stay exact.
 */
#define UT_HANG_MS 30000u

/** @return milliseconds on CLOCK_MONOTONIC. */
uint64_t ut_ms_now(void);

/** Sleep ms milliseconds. */
void ut_sleep_ms(unsigned ms);

/**
 * Write n bytes of data to path (created or truncated) and chmod it.
 * @param mode the file's permissions, e.g. 0755 for a script.
 */
void ut_write_file(const char *path, const void *data, size_t n, int mode);

/**
 * Remove dir and everything below it, links not followed; what can be
 * removed is, past any failure.
 * @return 0, or -1 if something could not be removed: a teardown's result.
 */
int ut_rm_tree(const char *dir);

/**
 * A file of the source tree: rel under $HIL_SRC_DIR when it is set,
 * else rel itself (the tests run from the repository root).
 * @param out receives the path.
 * @param n   size of out.
 */
void ut_src_path(char *out, size_t n, const char *rel);

/**
 * What a renderer (summary.md's, report.html's, ...) writes of report, as
 * a malloc'd string (the caller frees); the test fails unless it returns
 * HIL_OK and its stream closes cleanly.
 */
char *ut_render(int (*fn)(const struct cJSON *, FILE *),
		const struct cJSON *report);

/*
 * JSON in C strings is unreadable with \" everywhere: tests write ' for "
 * and these two turn every ' back into ".
 */

/**
 * Copy s to out with every ' turned into ".
 * @param n size of out; s must be shorter (else the test fails).
 */
void ut_unquote(char *out, size_t n, const char *s);

/** Write squoted to path (created or truncated) with every ' turned into ". */
void ut_write_squoted(const char *path, const char *squoted);

/**
 * @return how many processes have a command line that contains both a
 *         and b (zombies have none and do not count).
 */
int ut_count_procs(const char *a, const char *b);

/**
 * Write one reply frame (cmd, n bytes of d) to fd, as a stub would; with
 * corrupt, its command byte is flipped so that the CRC no longer matches.
 * Fails the test on a short write.
 */
void ut_send_reply(int fd, uint8_t cmd, const uint8_t *d, size_t n,
		   int corrupt);

/**
 * ut_send_reply for a peer thread whose session may already have hung up
 * (it gave up on a stream): @return 0, or -1 when the write failed; never
 * fails the test (a cmocka failure outside the test's thread ends the
 * whole binary).
 */
int ut_try_send_reply(int fd, uint8_t cmd, const uint8_t *d, size_t n,
		      int corrupt);

#endif /* HIL_UNIT_UTIL_H */
