/* leak: a timing-leak smoke test in dudect's manner: fixed-input against random-input runs on the target, compared with Welch's t. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"leak"
#include "leak.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "leakmodel.h"
#include "util/err.h"
#include "hilp.h"
#include "util/log.h"
#include "session/stub.h"

void hil_leak_class_add(struct hil_leak_class *c, double x)
{
	double d;

	/* Welford, on x less the first sample: no sums of squares of large
	 * counts, no large mean to lose the small differences in. */
	if (c->n == 0) {
		c->shift = x;
		c->mean = 0.0;
		c->m2 = 0.0;
	}
	x -= c->shift;
	d = x - c->mean;
	c->n++;
	c->mean += d / (double)c->n;
	c->m2 += d * (x - c->mean);
}

double hil_leak_class_mean(const struct hil_leak_class *c)
{
	return c->n == 0 ? 0.0 : c->shift + c->mean;
}

double hil_leak_class_var(const struct hil_leak_class *c)
{
	return c->n < 2 ? 0.0 : c->m2 / (double)(c->n - 1);
}

int hil_leak_welch_t(const struct hil_leak_class *a,
		     const struct hil_leak_class *b, double *t)
{
	double se2, diff;

	if (a == NULL || b == NULL || t == NULL || a->n < 2 || b->n < 2) {
		return HIL_ERR_ARG;
	}
	se2 = hil_leak_class_var(a) / (double)a->n +
	      hil_leak_class_var(b) / (double)b->n;
	/* The shifts are samples: integer counts, subtracted exactly. */
	diff = (a->shift - b->shift) + (a->mean - b->mean);
	if (se2 > 0.0) {
		*t = diff / sqrt(se2);
	} else if (diff == 0.0) {
		*t = 0.0; /* two constant, equal classes: nothing to tell */
	} else {
		*t = diff > 0.0 ? INFINITY : -INFINITY;
	}
	return HIL_OK;
}

int hil_leak_identical(const struct hil_leak_class cls[2])
{
	return cls != NULL && cls[0].n >= 2 && cls[1].n >= 2 &&
	       cls[0].m2 == 0.0 && cls[1].m2 == 0.0 &&
	       cls[0].shift == cls[1].shift;
}

int hil_leak_may_stop(const struct hil_leak_class counts[2],
		      const struct hil_leak_class *model)
{
	return hil_leak_identical(counts) &&
	       (model == NULL || hil_leak_identical(model));
}

int hil_leak_welch(const double *a, size_t na, const double *b, size_t nb,
		   double *t)
{
	struct hil_leak_class ca = {0, 0.0, 0.0, 0.0};
	struct hil_leak_class cb = {0, 0.0, 0.0, 0.0};
	size_t i;

	if (a == NULL || b == NULL) {
		return HIL_ERR_ARG;
	}
	for (i = 0; i < na; i++) {
		hil_leak_class_add(&ca, a[i]);
	}
	for (i = 0; i < nb; i++) {
		hil_leak_class_add(&cb, b[i]);
	}
	return hil_leak_welch_t(&ca, &cb, t);
}

static const char *op_name(uint8_t op)
{
	switch (op) {
	case HILP_OP_ENCRYPT:
		return "encrypt";
	case HILP_OP_DECRYPT:
		return "decrypt";
	case HILP_OP_HASH:
		return "hash";
	case HILP_OP_KEYSETUP:
		return "keysetup";
	default:
		return "(unknown operation)";
	}
}

/*
 * Bytes the stub overwrites in a run of the random class: the operation's
 * whole input (ciphertext and tag for decryption). 0 with a message when
 * the test cannot be run.
 */
static size_t varied_length(const struct hil_leak_params *p,
			    const struct hilp_alg_info *ai)
{
	if (p->op == HILP_OP_KEYSETUP || p->op > HILP_OP_KEYSETUP) {
		hil_err("%s/%s %s: the leak test varies the message, which %s does not read",
			ai->name, ai->impl, op_name(p->op), op_name(p->op));
		return 0;
	}
	if (p->op == HILP_OP_DECRYPT) {
		return (size_t)p->msg_len + ai->abytes;
	}
	if (p->msg_len == 0) {
		hil_err("%s/%s %s: the leak test needs a message of at least one byte to vary",
			ai->name, ai->impl, op_name(p->op));
	}
	return p->msg_len;
}

/*
 * Split one batch by class after checking each class against the replay of
 * the stub's generator: per run, inlen + 1 bytes from the leak seed, the
 * class being the low bit of the last one (docs/protocol.md, leak mode).
 * When every run counted the same (replayed: the BENCH reply's smallest
 * and largest count were equal, so the samples were not fetched and carry
 * no class), the classes are the replay's. classes receives each run's.
 */
static int take_batch(const uint32_t *samples, size_t k, uint32_t leak_seed,
		      uint8_t *scratch, size_t inlen, int replayed,
		      struct hil_leak_class cls[2], uint8_t *classes,
		      uint32_t *stream)
{
	uint32_t rng = leak_seed;
	size_t i;

	for (i = 0; i < k; i++) {
		unsigned want, got = (samples[i] & HILP_LEAK_CLASS) != 0;

		hilp_prng_fill(&rng, scratch, inlen + 1);
		want = scratch[inlen] & 1u;
		if (replayed) {
			got = want;
		}
		if (got != want) {
			hil_err("leak seed 0x%08x, run %zu: the stub says class %u, the host's replay %u",
				(unsigned)leak_seed, i, got, want);
			return HIL_ERR_PROTO;
		}
		classes[i] = (uint8_t)want;
		hil_leak_class_add(&cls[want],
				   (double)(samples[i] & HILP_LEAK_COUNT_MASK));
	}
	*stream = rng; /* where the stub's stream is now: never 0 */
	return HIL_OK;
}

int hil_leak_run(struct hil_session *s, const struct hil_leak_params *p,
		 struct hil_leak_result *out)
{
	struct hilp_alg_info *algs = NULL;
	struct hil_leak_class cls[2];
	struct hil_leak_class mcls[2]; /* the cycle model's, same runs */
	struct hilp_bench_req req;
	struct hilp_bench_rep rep;
	uint32_t *samples = NULL;
	uint8_t *scratch = NULL;
	uint8_t *classes = NULL;
	uint8_t b4[4];
	uint32_t seeds, done, batch;
	uint32_t stream = 0, left = 0; /* the batch's stream, runs to go */
	size_t n_algs = 0, inlen = 0;
	unsigned timeout;
	int ret;
	int c;

	if (out == NULL || p == NULL || s == NULL) {
		return HIL_ERR_ARG;
	}
	memset(out, 0, sizeof(*out));
	memset(cls, 0, sizeof(cls));
	memset(mcls, 0, sizeof(mcls));
	algs = calloc(HIL_TARGET_MAX_ALGS, sizeof(*algs));
	if (algs == NULL) {
		return HIL_ERR_NOMEM;
	}
	if (p->info != NULL) {
		/* The caller's copy of the table entry: no requests. */
		algs[p->alg < HIL_TARGET_MAX_ALGS ? p->alg : 0] = *p->info;
		n_algs = p->alg < HIL_TARGET_MAX_ALGS ? (size_t)p->alg + 1 : 0;
		ret = HIL_OK;
	} else {
		ret = hil_target_algs(s, algs, HIL_TARGET_MAX_ALGS, &n_algs);
	}
	if (ret != HIL_OK) {
		goto out;
	}
	if (p->alg >= n_algs) {
		hil_err("no algorithm %u in the image (it has %zu)", p->alg,
			n_algs);
		ret = HIL_ERR_ARG;
		goto out;
	}
	inlen = varied_length(p, &algs[p->alg]);
	if (inlen == 0) {
		ret = HIL_ERR_ARG;
		goto out;
	}
	if (p->runs < 4) {
		hil_err("%s/%s %s: a leak test needs at least 4 runs, not %u",
			algs[p->alg].name, algs[p->alg].impl, op_name(p->op),
			(unsigned)p->runs);
		ret = HIL_ERR_ARG;
		goto out;
	}
	batch = p->batch != 0 ? p->batch : HIL_LEAK_BATCH;
	if (batch > p->runs) {
		batch = p->runs;
	}
	/* As for BENCH (docs/protocol.md, host behaviour), twice over: the
	 * random inputs are generated between the runs. */
	timeout = p->timeout_ms != 0
			  ? p->timeout_ms
			  : 2000u + (unsigned)((batch + p->warmup) *
					       (inlen + p->ad_len + 64u) / 50u);
	samples = calloc(batch, sizeof(*samples));
	classes = calloc(batch, sizeof(*classes));
	scratch = malloc(inlen + 1);
	if (samples == NULL || classes == NULL || scratch == NULL) {
		ret = HIL_ERR_NOMEM;
		goto out;
	}
	if (p->model != NULL) {
		/* What is there now is not this test's: the row's own runs. */
		out->model.state =
			hil_leak_model_skip(p->model) == HIL_OK ? 1 : -1;
		if (out->model.state < 0) {
			snprintf(out->model.why, sizeof(out->model.why),
				 "the cycle model's records cannot be read");
		}
	}

	memset(&req, 0, sizeof(req));
	req.alg = p->alg;
	req.msg_len = p->msg_len;
	req.ad_len = p->ad_len;
	req.warmup = p->warmup;
	req.seed = p->seed;
	req.out_len = p->out_len;
	seeds = hilp_prng_init(p->leak_seed);
	for (done = 0; done < p->runs; done += req.runs) {
		if (left == 0) {
			/* Each batch its own stream: one xorshift32 output,
			 * never 0. */
			hilp_prng_fill(&seeds, b4, sizeof(b4));
			stream = hilp_get_u32(b4);
			left = p->runs - done < batch ? p->runs - done : batch;
		}
		req.runs = (uint16_t)left;
		if (done == 0 && p->probe != 0 && p->probe < left) {
			req.runs = p->probe; /* the batch's first runs */
		}
		/* The stream from where the last BENCH of this batch left it:
		 * the stub draws the same classes and inputs as it would have
		 * in one BENCH. */
		req.leak_seed = stream;
		ret = hil_target_bench_leak(s, p->op, &req, &rep, samples,
					    timeout);
		if (ret == HIL_OK) {
			ret = take_batch(samples, req.runs, req.leak_seed,
					 scratch, inlen, rep.min == rep.max,
					 cls, classes, &stream);
		}
		if (ret != HIL_OK) {
			goto out;
		}
		if (out->model.state > 0 &&
		    hil_leak_model_batch(p->model, samples, classes, req.runs,
					 mcls) != HIL_OK) {
			/* Never pair a cycle figure with the wrong run: the
			 * counts go on alone. */
			out->model.state = -1;
			snprintf(
				out->model.why, sizeof(out->model.why),
				"the cycle model's records of BENCH %u do not match its %u runs",
				(unsigned)out->batches + 1, req.runs);
			hil_warn(
				"%s/%s %s %u bytes: %s: no leak test on estimated cycles",
				algs[p->alg].name, algs[p->alg].impl,
				op_name(p->op), p->msg_len, out->model.why);
		}
		left -= req.runs;
		out->overhead = rep.overhead;
		out->batches++;
		/* Both classes identical, not one sample apart (a
		 * deterministic emulator and constant-time code): t = 0, and
		 * more runs of a deterministic emulator would very likely
		 * count the same again; stop here (docs/method.md). With the
		 * cycle model, its cycles must be identical too. */
		if (hil_leak_may_stop(cls,
				      out->model.state > 0 ? mcls : NULL)) {
			hil_dbg("%s/%s %s %u bytes: both classes identical after %zu runs: stopping",
				algs[p->alg].name, algs[p->alg].impl,
				op_name(p->op), p->msg_len,
				cls[0].n + cls[1].n);
			break;
		}
		hil_dbg("%s/%s %s %u bytes: batch %u, %u runs, leak seed 0x%08x",
			algs[p->alg].name, algs[p->alg].impl, op_name(p->op),
			p->msg_len, (unsigned)out->batches, req.runs,
			(unsigned)req.leak_seed);
	}
	for (c = 0; c < 2; c++) {
		out->n[c] = cls[c].n;
		out->mean[c] = hil_leak_class_mean(&cls[c]);
		out->stddev[c] = sqrt(hil_leak_class_var(&cls[c]));
	}
	ret = hil_leak_welch_t(&cls[0], &cls[1], &out->t);
	if (ret != HIL_OK) {
		hil_err("%s/%s %s: %zu fixed and %zu random runs: too few of a class for Welch's t",
			algs[p->alg].name, algs[p->alg].impl, op_name(p->op),
			cls[0].n, cls[1].n);
		goto out;
	}
	out->flagged = fabs(out->t) > HIL_LEAK_T_THRESHOLD;
	if (out->model.state > 0) {
		struct hil_leak_model *m = &out->model;

		for (c = 0; c < 2; c++) {
			m->n[c] = mcls[c].n;
			m->mean[c] = hil_leak_class_mean(&mcls[c]);
			m->stddev[c] = sqrt(hil_leak_class_var(&mcls[c]));
		}
		if (hil_leak_welch_t(&mcls[0], &mcls[1], &m->t) == HIL_OK) {
			m->flagged = fabs(m->t) > HIL_LEAK_T_THRESHOLD;
			hil_dbg("%s/%s %s %u bytes: model cycles t = %.2f (fixed mean %.1f, random mean %.1f)%s",
				algs[p->alg].name, algs[p->alg].impl,
				op_name(p->op), p->msg_len, m->t, m->mean[0],
				m->mean[1], m->flagged ? ": timing leak" : "");
		} else {
			m->state = -1;
			snprintf(
				m->why, sizeof(m->why),
				"too few model records of a class for Welch's t");
		}
	}
	/* Into the report; the caller says it when a row is flagged, in the
	 * one line the log has for it. */
	hil_dbg("%s/%s %s %u bytes: t = %.2f (fixed %zu runs, mean %.1f; random %zu runs, mean %.1f)%s",
		algs[p->alg].name, algs[p->alg].impl, op_name(p->op),
		p->msg_len, out->t, out->n[0], out->mean[0], out->n[1],
		out->mean[1], out->flagged ? ": timing leak" : "");
out:
	free(scratch);
	free(classes);
	free(samples);
	free(algs);
	return ret;
}
