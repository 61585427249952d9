/* history_int: what the run database (history.c) lends to the `hilrun history` output (historyview.c); not a public API. */
#ifndef HIL_HISTORY_INT_H
#define HIL_HISTORY_INT_H

#include <sqlite3.h>

/* Open the database at path (created when create is set); logs why not.
 * @return HIL_OK or HIL_ERR_IO; *db is closed with sqlite3_close(). */
int hil_history_db_open(const char *path, int create, sqlite3 **db);

/* Bind s to parameter i of st; NULL binds "". */
void hil_history_bind_text(sqlite3_stmt *st, int i, const char *s);

/* Step st: 1 on a row; 0 at the end, or on an error (a damaged page met
 * while reading), which is logged once and sets *failed, so that a reader
 * never takes a list cut short by damage for the whole of it. */
int hil_history_next(sqlite3_stmt *st, int *failed);

/* Column i of st's current row as text; NULL reads "". */
const char *hil_history_col(sqlite3_stmt *st, int i);

/* 1 when the runs table has the column name (a database of before it
 * has not). */
int hil_history_has_column(sqlite3 *db, const char *name);

/* 1 when the rows table has the column name (a database of before it
 * has not). */
int hil_history_has_row_column(sqlite3 *db, const char *name);

/* 1 when the runs table has the host column (a database of before it
 * has not). */
int hil_history_has_host_column(sqlite3 *db);

#endif /* HIL_HISTORY_INT_H */
