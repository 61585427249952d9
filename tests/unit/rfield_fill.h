/* rfield_fill: a codec table's field given a value of its type (the tests of the row and head codecs fill a whole struct this way before writing it and reading it back). */
#ifndef HIL_RFIELD_FILL_H
#define HIL_RFIELD_FILL_H

struct hil_rfield;

/**
 * Field f of the struct at base set to a value of its type, different for
 * every k and never the zero a field left unread would have (a pair's second
 * value and a field's known flag too; an operation is "decrypt", a flag
 * true, a constant left alone).
 */
void ut_rfield_fill(const struct hil_rfield *f, void *base, unsigned k);

#endif /* HIL_RFIELD_FILL_H */
