/* util: small helpers shared by host modules: hex, files, directories, time, round numbers. */
#ifndef HIL_UTIL_H
#define HIL_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

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

/* What marks a temporary file of hil_write_atomic: "NAME.tmp.XXXXXX". */
#define HIL_TMP_MARK ".tmp."

/* hil_read_file's bound: a larger file is refused. */
#define HIL_READ_MAX (256u * 1024u * 1024u)

/**
 * Write a file atomically: a temporary file of an unpredictable name in the
 * same directory (created exclusively, never through a planted link),
 * fsync, then rename over path; the temporary file is removed on failure.
 * @return HIL_OK or HIL_ERR_IO (logged with the path).
 */
int hil_write_atomic(const char *path, const void *data, size_t len);

/**
 * Open path to read it, only if it is a regular file of at most max_bytes:
 * a FIFO, a device or a directory is refused at once (never blocks), and
 * why says which, never quoting the file.
 * @return a descriptor (caller closes), or HIL_ERR_NA (no such file) or
 *         HIL_ERR_IO, with why set.
 */
int hil_open_regular(const char *path, size_t max_bytes, char *why,
		     size_t why_len);

/** Read fd to its end into a NUL-terminated malloc'd buffer (caller frees);
 * HIL_ERR_IO with errno EFBIG beyond max_bytes. */
int hil_read_fd(int fd, size_t max_bytes, char **out, size_t *len);

/** Read a whole regular file (at most HIL_READ_MAX bytes) into a
 * NUL-terminated malloc'd buffer (caller frees); errors are logged. */
int hil_read_file(const char *path, char **out, size_t *len);

/**
 * Read only the end of a regular file, whatever its size: its last
 * max_bytes, from the start of the first whole line in them (all of it when
 * it is smaller), into a NUL-terminated malloc'd buffer (caller frees);
 * errors are logged. For a log that may have grown large (a build's).
 * @param len receives the length; may be NULL.
 * @return HIL_OK, HIL_ERR_IO (also: not a regular file) or HIL_ERR_NOMEM.
 */
int hil_read_tail(const char *path, size_t max_bytes, char **out, size_t *len);

/** Open path to append (created 0644), never through a symbolic link.
 * @return the descriptor, or -1 with errno. */
int hil_open_append(const char *path);

/** Create or truncate path to write it, never through a symbolic link.
 * @return the stream, or NULL with errno. */
FILE *hil_fopen_write(const char *path);

/** Is name one of hil_write_atomic's temporary files ("X.tmp.XXXXXX")? */
int hil_is_tmp_name(const char *name);

/**
 * The smallest 1, 2 or 5 x 10^n not below x (x > 0): the "round number" a
 * datasheet's calibration procedure picks for an LSB.
 */
double hil_round_125(double x);

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

/**
 * Line and column (both from 1) of byte offset off in text, for error
 * messages about JSON and other text files; stops at a NUL.
 */
void hil_text_line_col(const char *text, size_t off, size_t *line, size_t *col);

/**
 * Room for at least one more element of elem_size bytes in the array *arr
 * that holds n and has room for *cap (doubling; *arr NULL and *cap 0 at
 * first). The caller frees *arr.
 * @return HIL_OK, or HIL_ERR_NOMEM (*arr and *cap unchanged).
 */
int hil_grow(void **arr, size_t n, size_t *cap, size_t elem_size);

/**
 * Append sep (unless *s is empty or NULL) and add to the string *s (NULL:
 * none yet), reallocated to fit; the caller frees *s.
 * @return HIL_OK, or HIL_ERR_NOMEM (*s unchanged).
 */
int hil_str_append(char **s, const char *sep, const char *add);

#endif /* HIL_UTIL_H */
