/* target: typed commands of the stub (info, algorithms, load, exec, bench, samples) over a session. */
#ifndef HIL_TARGET_H
#define HIL_TARGET_H

#include <stddef.h>
#include <stdint.h>

#include "hilp.h"
#include "session.h"

#define HIL_TARGET_MAX_ALGS 64

/** Read the algorithm table. @param n receives the count (<= cap). */
int hil_target_algs(struct hil_session *s, struct hilp_alg_info *algs,
		    size_t cap, size_t *n);

/** Write n bytes into a target buffer (HILP_BUF_*), chunked by frame. */
int hil_target_load(struct hil_session *s, uint8_t buf, const uint8_t *p,
		    size_t n);

/** Read n bytes from a target buffer, chunked by frame. */
int hil_target_fetch(struct hil_session *s, uint8_t buf, uint8_t *p, size_t n);

/**
 * Run one operation once on the target with the given inputs.
 * @param xof_len XOF output bytes (0: the default; other kinds: 0).
 * @param out receives the output (cap bytes); @param out_len its length.
 * @param rejected set to 1 when the implementation returned an error
 *        (e.g. a decryption whose tag does not verify); out is then empty.
 * @return HIL_OK, HIL_ERR_TARGET (with a message naming the status), or a
 *         transport error.
 */
int hil_target_exec(struct hil_session *s, uint8_t alg, uint8_t op,
		    const uint8_t *key, size_t keylen, const uint8_t *npub,
		    size_t npublen, const uint8_t *ad, size_t adlen,
		    const uint8_t *msg, size_t msglen, size_t xof_len,
		    uint8_t *out, size_t cap, size_t *out_len, int *rejected);

/**
 * As hil_target_exec(), and @param count receives the counter ticks of the
 * call as the stub measured them (overhead included; 0 when rejected).
 */
int hil_target_exec_counted(struct hil_session *s, uint8_t alg, uint8_t op,
			    const uint8_t *key, size_t keylen,
			    const uint8_t *npub, size_t npublen,
			    const uint8_t *ad, size_t adlen, const uint8_t *msg,
			    size_t msglen, size_t xof_len, uint8_t *out,
			    size_t cap, size_t *out_len, int *rejected,
			    uint32_t *count);

/**
 * Run a BENCH and fetch its samples. The BENCH is never sent twice while
 * it may still be running (hil_session_call_long()): timeout_ms should
 * be sized by the work (host/run/benchtime.h).
 * @param req req->leak_seed is not read: this is an ordinary BENCH.
 * @param rep receives the reply, peak stack and heap of one call included.
 * @param samples receives req->runs counter values (not overhead-subtracted).
 */
int hil_target_bench(struct hil_session *s, uint8_t op,
		     const struct hilp_bench_req *req,
		     struct hilp_bench_rep *rep, uint32_t *samples,
		     unsigned timeout_ms);

/**
 * Run a BENCH in leak mode (docs/protocol.md): each timed run gets the fixed
 * inputs of req->seed or fresh random ones from the req->leak_seed stream.
 * @param samples receives req->runs values: bit 31 (HILP_LEAK_CLASS) set for
 *        a run of the random class, the count in the other bits; except
 *        when rep->min == rep->max (every run of either class counted the
 *        same): then nothing is fetched, every value is that count, and
 *        the classes are the caller's to replay from the leak stream.
 * @return as hil_target_bench(); HIL_ERR_ARG when req->leak_seed is 0.
 */
int hil_target_bench_leak(struct hil_session *s, uint8_t op,
			  const struct hilp_bench_req *req,
			  struct hilp_bench_rep *rep, uint32_t *samples,
			  unsigned timeout_ms);

/**
 * A generated EXEC: one call of op on inputs the target makes from seed as
 * for BENCH (docs/protocol.md), answered with the digest of its output;
 * one request, nothing loaded or fetched.
 * @param flags HILP_EXEC_FORGE: a decryption's tag is forged first;
 *        HILP_EXEC_ROUNDTRIP: a decryption's digest covers the ciphertext
 *        the target made, then the plaintext (docs/protocol.md).
 * @param rejected set to 1 when the implementation returned an error (a
 *        forged decryption's expected answer).
 * @return HIL_OK, HIL_ERR_TARGET (a status naming a bad request), or a
 *         transport error.
 */
int hil_target_exec_gen(struct hil_session *s, uint8_t alg, uint8_t op,
			uint32_t seed, uint8_t flags, size_t msg_len,
			size_t ad_len, size_t xof_len,
			struct hilp_exec_rep *rep, int *rejected);

/**
 * Run an ENERGY window: the operation req->count times back to back with the
 * trigger high. @param rep receives the ticks of the whole loop.
 */
int hil_target_energy(struct hil_session *s, uint8_t op,
		      const struct hilp_energy_req *req,
		      struct hilp_energy_rep *rep, unsigned timeout_ms);

#endif /* HIL_TARGET_H */
