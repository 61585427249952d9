/* kat_suite: the known-answer file reading every KAT test does: tests/kat read record by record, a broken file failing the test. */
#ifndef KAT_SUITE_H
#define KAT_SUITE_H

#include <stddef.h>

#include "image/kat.h"

/*
 * Every failure here fails the running cmocka test: a file that cannot be
 * opened, a malformed record, one record too many, a missing field. A
 * check never passes by reading less. The usual loop:
 *
 *	struct kat_suite_iter it;
 *	const struct kat_record *r;
 *
 *	for (r = kat_suite_first(&it, "aes128_ecb.txt", 0); r != NULL;
 *	     r = kat_suite_next(&it)) {
 *		...
 *	}
 *	assert_int_equal(it.n, 19);
 */

/* A file being read. n is for the caller to read; the rest is private. */
struct kat_suite_iter {
	unsigned long n; /* records returned so far: all of them at the end */
	struct kat_file f;
	const char *file;
	unsigned long cap;
};

/**
 * Open a file of tests/kat, or of the folder $HIL_KAT_DIR names (so run
 * from the repository root), and read its first record.
 * @param it   filled in; go on with kat_suite_next().
 * @param file the file's name (borrowed until the end of the file).
 * @param cap  the most records the file may hold (0: any number); one
 *             more fails the test.
 * @return the record, borrowed until the next call (all files share it:
 *         read one at a time), or NULL at the end, where the file is closed.
 */
const struct kat_record *kat_suite_first(struct kat_suite_iter *it,
					 const char *file, unsigned long cap);

/** The next record, as kat_suite_first() returns it. */
const struct kat_record *kat_suite_next(struct kat_suite_iter *it);

/**
 * @return r's field called name, borrowed from r; fails the test, naming
 *         r's Count, when r has none.
 */
const struct kat_field *kat_suite_need(const struct kat_record *r,
				       const char *name);

/** The same, and the field must hold exactly len bytes. */
const struct kat_field *kat_suite_need_len(const struct kat_record *r,
					   const char *name, size_t len);

/* A hash or XOF vector: a message and the digest of it. */
struct kat_suite_md {
	unsigned long count; /* its Count */
	/* Borrowed for the length of the check. */
	const unsigned char *msg, *md;
	size_t msglen;
};

/**
 * Run check on every Msg/MD vector of a file (read as kat_suite_first()
 * reads it).
 * @param file  the file's name.
 * @param mdlen the length every MD must have.
 * @param check called with each vector (borrowed).
 * @return how many vectors there were.
 */
unsigned long kat_suite_each_md(const char *file, size_t mdlen,
				void (*check)(const struct kat_suite_md *v));

/**
 * @return 1 if all n bytes at p equal b (also when n is 0), else 0: the
 *         canary tails of the output buffers.
 */
int kat_suite_all_bytes(const unsigned char *p, size_t n, unsigned char b);

#endif /* KAT_SUITE_H */
