/* pqrandom: the randombytes() hilrun supplies to mupq/PQClean schemes, a splitmix64 stream from the run's seed (reproducible on target and host; never a secure source). */
#include <stddef.h>
#include <stdint.h>

#ifndef PQ_SEED
#define PQ_SEED 1u
#endif

static uint64_t pq_state = (uint64_t)(PQ_SEED);

/* splitmix64 (Steele, Lea, Flood 2014): the next 64 bits of the stream. */
static uint64_t next64(void)
{
	uint64_t z = (pq_state += 0x9E3779B97F4A7C15ULL);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

int PQCLEAN_randombytes(uint8_t *output, size_t n);
int randombytes(uint8_t *output, size_t n);
void pq_randombytes_reset(void);
uint64_t pq_random_state(void);
void pq_random_set(uint64_t state);

/* The stream from the run's seed again (the pq stub's PQRUN: a repeated
 * run gives the same outputs). */
void pq_randombytes_reset(void)
{
	pq_state = (uint64_t)(PQ_SEED);
}

/* The stream's position, so that an image which skips a call (pq-bench -S:
 * the signature comes from the host build) resumes where the host's was. */
uint64_t pq_random_state(void)
{
	return pq_state;
}

void pq_random_set(uint64_t state)
{
	pq_state = state;
}

int PQCLEAN_randombytes(uint8_t *output, size_t n)
{
	while (n > 0) {
		uint64_t r = next64();
		size_t k;

		for (k = 0; k < 8 && n > 0; k++, n--) {
			*output++ = (uint8_t)(r >> (8 * k));
		}
	}
	return 0;
}

/* The unprefixed name too: a scheme built against a randombytes.h without
 * PQClean's rename still links against this stream. */
int randombytes(uint8_t *output, size_t n)
{
	return PQCLEAN_randombytes(output, n);
}
