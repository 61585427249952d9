/* kat: a reader for NIST LWC-style known-answer files ("Count = N" records of "Name = HEX" fields). */
#ifndef KAT_H
#define KAT_H

#include <stddef.h>
#include <stdio.h>

/*
 * The files look like this (AEAD; hash files have Msg/MD, CXOF Msg/Z/MD):
 *
 *	Count = 1
 *	Key = 000102030405060708090A0B0C0D0E0F
 *	Nonce = 101112131415161718191A1B1C1D1E1F
 *	PT =
 *	AD = 30
 *	CT = CCCB674FE18A09A285D6AB11B35675C0
 *	<blank line>
 *
 * A record starts with its Count line and ends at a blank line or at the
 * end of the file. Every other field is hex (either case; spaces allowed
 * between whole bytes, as in "1B1A1918 13121110") and may be empty. Lines
 * starting with '#' are comments. Anything else is an error that names
 * the file and line: a malformed file never passes silently.
 */

#define KAT_FIELD_MAX  4096 /* bytes in one decoded field */
#define KAT_NAME_MAX   16   /* field name, including the NUL */
#define KAT_FIELDS_MAX 8    /* fields per record besides Count */
#define KAT_ERR_MAX    512  /* error message, including the NUL */
/* Longest line: a full field with a space between every byte, plus the name. */
#define KAT_LINE_MAX   (3 * KAT_FIELD_MAX + KAT_NAME_MAX + 16)

enum kat_err {
	KAT_OK = 0,
	KAT_ERR_IO = -1,      /* the file could not be opened or read */
	KAT_ERR_FORMAT = -2,  /* malformed line, bad hex, misplaced field */
	KAT_ERR_TOOLONG = -3, /* a field or line exceeds the limits above */
};

struct kat_field {
	char name[KAT_NAME_MAX];	   /* e.g. "PT" */
	unsigned char data[KAT_FIELD_MAX]; /* decoded bytes */
	size_t len;			   /* 0 for an empty field */
};

struct kat_record {
	unsigned long count; /* value of its Count line */
	unsigned long line;  /* line number of its Count line */
	size_t n_fields;
	struct kat_field field[KAT_FIELDS_MAX]; /* in file order */
};

/* An open file. Read line and err; the rest is private. */
struct kat_file {
	unsigned long
		line; /* last line read, 1-based; the failing one after an error */
	char err[KAT_ERR_MAX]; /* "path:line: message" after an error, else "" */
	FILE *fp;
	int status; /* first error, returned again by later kat_next calls */
	char path[256];
	char buf[KAT_LINE_MAX + 2];
};

/**
 * Open a known-answer file for reading.
 * @param f    filled in; close it with kat_close() (also after an error).
 * @param path the file.
 * @return KAT_OK, or KAT_ERR_IO with the reason in f->err.
 */
int kat_open(struct kat_file *f, const char *path);

/**
 * Read the next record.
 * @param f an open file.
 * @param r receives the record (overwritten; owned by the caller).
 * @return 1 for a record, 0 at the end of the file, or a negative
 *         enum kat_err with "path:line: message" in f->err. After an
 *         error every further call returns the same code.
 */
int kat_next(struct kat_file *f, struct kat_record *r);

/** Close the file; safe to call twice or after a failed kat_open. */
void kat_close(struct kat_file *f);

/**
 * Find a field of a record by name (case-sensitive).
 * @return the field, borrowed from r, or NULL if r has none by that name.
 */
const struct kat_field *kat_find(const struct kat_record *r, const char *name);

/**
 * Decode a NUL-terminated hex string (either case). Spaces and tabs are
 * allowed between whole bytes, never inside one.
 * @param hex    the text.
 * @param out    receives the bytes (may be NULL when cap is 0).
 * @param cap    size of out.
 * @param outlen receives the number of bytes written.
 * @return KAT_OK; KAT_ERR_FORMAT for a non-hex character or an odd number
 *         of digits; KAT_ERR_TOOLONG when more than cap bytes would result.
 */
int kat_hex_decode(const char *hex, unsigned char *out, size_t cap,
		   size_t *outlen);

#endif /* KAT_H */
