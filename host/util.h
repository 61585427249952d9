/* util: small helpers shared by host modules: hex, files, directories, time. */
#ifndef HIL_UTIL_H
#define HIL_UTIL_H

#include <stddef.h>
#include <stdint.h>

/**
 * Decode a hex string ("" allowed, upper or lower case) into out.
 * @return bytes written, or -1 for odd length, a non-hex character or more
 *         than cap bytes.
 */
long hil_hex_decode(const char *hex, uint8_t *out, size_t cap);

/** Encode n bytes as lower-case hex into out (2n+1 bytes). */
void hil_hex_encode(const uint8_t *p, size_t n, char *out);

/** mkdir -p. @return HIL_OK or HIL_ERR_IO (logged with the path). */
int hil_mkdirs(const char *path);

/**
 * Write a file atomically: a temporary file in the same directory, fsync,
 * then rename over path.
 * @return HIL_OK or HIL_ERR_IO (logged with the path).
 */
int hil_write_atomic(const char *path, const void *data, size_t len);

/** Read a whole file into a NUL-terminated malloc'd buffer (caller frees). */
int hil_read_file(const char *path, char **out, size_t *len);

/** Monotonic milliseconds. */
long long hil_now_ms(void);

/** UTC time as "2026-12-02T09:32:15Z" into buf (at least 21 bytes). */
void hil_utc_iso(char *buf, size_t len);

/**
 * Edit distance between a and b, a swap of neighbours counting as one edit
 * ("rnus" -> "runs"), for "did you mean" suggestions.
 * @return the distance, or (size_t)-1 when either is longer than 32.
 */
size_t hil_edit_distance(const char *a, const char *b);

#endif /* HIL_UTIL_H */
