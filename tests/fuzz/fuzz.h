/* fuzz: entry points shared by the libFuzzer targets and the regression test. */
#ifndef HIL_FUZZ_H
#define HIL_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/*
 * Each entry feeds one input to the code under test and checks what that
 * code promises (a clean error code and message, bounded output, round
 * trips). It returns 0 when the input was handled cleanly, or the number of
 * broken promises. Under libFuzzer (FUZZ_LIBFUZZER defined) a broken promise
 * aborts instead, so that libFuzzer saves the input as a crash.
 */
int fuzz_frame_one(const uint8_t *data, size_t size);
int fuzz_stub_one(const uint8_t *data, size_t size);
int fuzz_config_one(const uint8_t *data, size_t size);
int fuzz_kat_one(const uint8_t *data, size_t size);
int fuzz_report_one(const uint8_t *data, size_t size);

/** Broken promises so far in this process. */
unsigned fuzz_failures(void);

/** Record a broken promise (abort under libFuzzer). */
void fuzz_fail(const char *file, int line, const char *what);

#define FUZZ_CHECK(cond)                                                       \
	do {                                                                   \
		if (!(cond)) {                                                 \
			fuzz_fail(__FILE__, __LINE__, #cond);                  \
		}                                                              \
	} while (0)

/**
 * Write data to this process's scratch file (created on first use in
 * $TMPDIR or /dev/shm, unlinked at once and named by /proc/self/fd where
 * there is one, else removed at exit) for readers that take a path.
 * @return the path, or NULL when the file cannot be written.
 */
const char *fuzz_scratch_file(const uint8_t *data, size_t size);

/** The hilrun source tree: $HIL_SRC_DIR, else the tree it was built from. */
const char *fuzz_src_dir(void);

/** A NUL-terminated malloc'd copy of data (the caller frees). */
char *fuzz_strdup(const uint8_t *data, size_t size);

#endif /* HIL_FUZZ_H */
