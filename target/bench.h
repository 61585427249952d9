/* bench: timed runs, calibrated overhead, stack painting and output digest on the target. */
#ifndef BENCH_H
#define BENCH_H

#include <stdint.h>

#include "hilp.h"
#include "registry.h"

/* Buffer sizes: requests beyond them are answered with HILP_ST_TOO_LONG. */
#define BENCH_MAX_MSG  2048u
#define BENCH_MAX_AD   2048u
#define BENCH_MAX_TAG  64u /* tag or digest bytes */
#define BENCH_MAX_KEY  32u
#define BENCH_MAX_NPUB 32u
#define BENCH_MAX_KS   512u /* expanded key of a block cipher */
#ifndef BENCH_MAX_RUNS
#define BENCH_MAX_RUNS 2048u
#endif

/* Stack bytes value meaning "not measured on this board". */
#define BENCH_STACK_UNKNOWN 0xFFFFFFFFu

struct bench_bufs {
	uint8_t key[BENCH_MAX_KEY];
	uint8_t npub[BENCH_MAX_NPUB];
	uint8_t ks[BENCH_MAX_KS];
	uint8_t ad[BENCH_MAX_AD];
	uint8_t msg[BENCH_MAX_MSG + BENCH_MAX_TAG];
	uint8_t out[BENCH_MAX_MSG + BENCH_MAX_TAG];
	uint32_t samples[BENCH_MAX_RUNS];
	uint8_t rnd[BENCH_MAX_MSG + BENCH_MAX_TAG +
		    4]; /* leak test: random input */
};

/**
 * Cost of the timed sequence around an empty function: the minimum over a
 * few runs, with interrupts off. Subtracted by the host, never by the stub.
 */
uint32_t bench_calibrate(void);

/**
 * Run one operation once on the loaded buffers (EXEC): msg -> out.
 * @return HILP_ST_OK, HILP_ST_CRYPTO_FAIL (rejected), or a request error.
 */
uint8_t bench_exec(const struct registry_alg *alg, uint8_t op,
		   const struct hilp_exec_req *req, struct bench_bufs *b,
		   struct hilp_exec_rep *rep);

/**
 * BENCH: generate inputs from the seed, measure the peak stack and heap of
 * one call, discard warm-up runs, time runs calls into b->samples, and fold
 * every output into the digest outside the timed region. With
 * req->leak_seed != 0, each timed run first gets the fixed or fresh random
 * inputs of a leak test, its class in bit 31 of its sample.
 */
uint8_t bench_run(const struct registry_alg *alg, uint8_t op,
		  const struct hilp_bench_req *req, struct bench_bufs *b,
		  struct hilp_bench_rep *rep);

/**
 * Start a fresh heap and return the peak bytes taken from _sbrk since the
 * last call. Defined by target/heap.c, which the build links only when an
 * implementation pulls in malloc (and with it _sbrk); bench.c refers to it
 * weakly and reports 0 when it is absent: the image has no heap.
 */
uint32_t bench_heap_reset(void);

/**
 * ENERGY: generate inputs as BENCH does, then with interrupts off and the
 * trigger high run the operation req->count times back to back; report the
 * ticks of the whole loop and the digest of the last output.
 */
uint8_t bench_energy(const struct registry_alg *alg, uint8_t op,
		     const struct hilp_energy_req *req, struct bench_bufs *b,
		     struct hilp_energy_rep *rep);

#endif /* BENCH_H */
