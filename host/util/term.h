/* term: what hilrun knows of the terminal its results go to. */
#ifndef HIL_TERM_H
#define HIL_TERM_H

/**
 * The width of the terminal stdout is, in columns; 0 for a file or a pipe,
 * unless COLUMNS (a positive number) says otherwise.
 */
unsigned hil_term_width(void);

#endif /* HIL_TERM_H */
