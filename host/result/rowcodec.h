/* rowcodec: a row's stored fields as report.json rows and journal.jsonl lines hold them, declared once in tables that the writer and every reader walk. */
#ifndef HIL_ROWCODEC_H
#define HIL_ROWCODEC_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "result/run.h"

/* How a field is held in struct hil_row and in JSON. */
enum hil_rf_type {
	HIL_RF_STR,	 /* char[size] <-> string */
	HIL_RF_OP,	 /* const char *, one of hil_result_op's names */
	HIL_RF_U32,	 /* uint32_t <-> number */
	HIL_RF_UINT,	 /* unsigned <-> number */
	HIL_RF_U64,	 /* uint64_t <-> number */
	HIL_RF_NUM,	 /* double <-> number */
	HIL_RF_BOOL,	 /* int <-> true/false (absent or not true: 0) */
	HIL_RF_HEX32,	 /* uint32_t <-> "%08x" */
	HIL_RF_FLAG_STR, /* int <-> one of two strings (yes, no) */
	HIL_RF_CONST,	 /* written as the string yes, never read */
	HIL_RF_NUM_PAIR, /* doubles at off and known <-> [a, b] */
	HIL_RF_INT,	 /* int <-> number */
	HIL_RF_HEX_0X,	 /* unsigned <-> "0x" and known hex digits */
};

/* Absent on read (a file of an older hilrun): left as it was. */
#define HIL_RF_OPTIONAL	  1u
/* Null when the int at known is 0; reading a number (or a HIL_RF_HEX32
 * string) sets it to 1. */
#define HIL_RF_KNOWN	  2u
/* A string written only when not "". */
#define HIL_RF_OMIT_EMPTY 4u
/* A double JSON cannot hold (infinite t) is written as +-1e9. */
#define HIL_RF_CAP_INF	  8u
/* A string written as null when it is "" (and null read back as ""). */
#define HIL_RF_NULL_EMPTY 16u
/* A number written as null when it is 0 (and null read back as 0). */
#define HIL_RF_NULL_ZERO  32u

/* One stored field: its key in its object and where it lives in a row. */
struct hil_rfield {
	const char *key;
	enum hil_rf_type type;
	size_t off;  /* offsetof its table's struct */
	size_t size; /* HIL_RF_STR: the buffer's size */
	unsigned flags;
	/* HIL_RF_KNOWN: offsetof the int that says so; HIL_RF_NUM_PAIR:
	 * the second double's */
	size_t known;
	const char *yes, *no; /* HIL_RF_FLAG_STR, HIL_RF_CONST */
};

/* The stored fields of one JSON object of a row, all in one struct. */
struct hil_rtable {
	const char *path; /* "" the row itself, "energy", "leak.model_cycles" */
	size_t base;	  /* offsetof(struct hil_row, the struct) */
	const struct hil_rfield *fields;
	size_t n;
};

/* Every object of a row with stored fields, NULL-path terminated. */
extern const struct hil_rtable hil_result_row_tables[];

/*
 * Stored keys that hil_result_row_read reads by its own code, not through
 * a table: the samples arrays, and each object's status and error (which
 * decide whether the rest is read). "path.key". NULL terminated.
 */
extern const char *const hil_result_row_by_hand[];

/*
 * Keys a row's writer puts that no reader takes back as they are: figures
 * derived again on reading (statistics from the samples, the unit from the
 * board), fixed texts, or values the reader takes from elsewhere (mode and
 * constant_time from the registry). "path.key" as in hil_rtable.path.
 * NULL terminated. The round-trip test holds the writer to this list.
 */
extern const char *const hil_result_row_derived[];

/** The table of the object at path, or NULL. */
const struct hil_rtable *hil_result_table(const char *path);

/**
 * Write field key of table path into o (its key and value, in the form the
 * table says), from base: the struct the table describes (the row, its
 * energy, its leak test, ...).
 * @return 1, or 0 when out of memory or key is not in the table.
 */
int hil_result_put(cJSON *o, const char *path, const char *key,
		   const void *base);

/**
 * Write every field of table path, in the table's order, from base into o.
 * @return 1, or 0 when out of memory or there is no such table.
 */
int hil_result_put_all(cJSON *o, const char *path, const void *base);

/**
 * Read the fields of table path from o into base (absent ones of
 * HIL_RF_OPTIONAL left as they are).
 * @return 1 all required fields read, 0 one was missing or of the wrong
 *         type (the others are read all the same).
 */
int hil_result_get_all(const cJSON *o, const char *path, void *base);

/* Every operation a row can have, NULL terminated: "encrypt", "decrypt",
 * "hash", "keysetup", "verify", and the post-quantum "keypair", "encaps",
 * "decaps", "sign". */
extern const char *const hil_result_ops[];

/** The operation named name ("encrypt", ...) as a static string, or NULL. */
const char *hil_result_op(const char *name);

/** The mode of a post-quantum row of kind ("kem": "KEM", else "signature"). */
const char *hil_result_pq_mode(const char *kind);

/**
 * One row of report.json or of journal.jsonl into r (zeroed first): every
 * stored field of hil_result_row_tables, the samples (stats computed from
 * them), the energy, leak test and model cycles with their states, status
 * and error. mode and constant_time are not stored: the caller sets them.
 * @param r receives the row; its samples and model.samples are owned by
 *          the caller (free them, also when 0 is returned).
 * @return 1 read, 0 not a complete row (a required field missing or of the
 *         wrong type, samples not matching runs), -1 out of memory.
 */
int hil_result_row_read(const cJSON *o, struct hil_row *r);

/**
 * Write the one field f from base into o, in the form its type and flags
 * say (the tables of report.json's other objects use it too).
 * @return 1, or 0 when out of memory.
 */
int hil_rfield_put(cJSON *o, const struct hil_rfield *f, const void *base);

/**
 * Read the one field f from o into base.
 * @return 1 read (or optional and absent), 0 required and missing or of
 *         the wrong type.
 */
int hil_rfield_get(const cJSON *o, const struct hil_rfield *f, void *base);

/**
 * Whether v (the value of f's key; NULL when absent) has a JSON type f's
 * readers take: a string, a number, a bool, null where the flags allow it.
 * @param what receives the types it should have ("a number or null").
 * @return 1 it has (or it is absent), 0 not.
 */
int hil_rfield_type_ok(const struct hil_rfield *f, const cJSON *v,
		       const char **what);

#endif /* HIL_ROWCODEC_H */
