/* randombytes.h: the randombytes() that hilrun supplies to mupq/PQClean schemes (deterministic from the run's seed; a benchmark source, not a secure one). */
#ifndef HIL_PQ_RANDOMBYTES_H
#define HIL_PQ_RANDOMBYTES_H

#include <stddef.h>
#include <stdint.h>

/* PQClean's and mupq's headers rename randombytes so; the stub defines both
 * names, so that a scheme compiled against either header links. */
#define randombytes PQCLEAN_randombytes
int randombytes(uint8_t *output, size_t n);

#endif /* HIL_PQ_RANDOMBYTES_H */
