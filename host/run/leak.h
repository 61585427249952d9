/* leak: a timing-leak smoke test in dudect's manner: fixed-input against random-input runs on the target, compared with Welch's t. */
#ifndef HIL_LEAK_H
#define HIL_LEAK_H

#include <stddef.h>
#include <stdint.h>

#include "session/session.h"

struct hil_cyclemodel_reader;

#include "result/run.h" /* HIL_LEAK_T_THRESHOLD */

/* Runs per BENCH when hil_leak_params.batch is 0. */
#define HIL_LEAK_BATCH 1000u

/* The first BENCH's runs on a deterministic emulator (hil_leak_params.probe). */
#define HIL_LEAK_PROBE 32u

/*
 * One class of samples, accumulated one at a time (Welford's method) on
 * the samples less the first one, so that a spread of a few ticks on counts
 * of millions keeps its digits.
 */
struct hil_leak_class {
	size_t n;
	double shift; /* the first sample */
	double mean;  /* of the samples less shift */
	double m2;    /* sum of squared deviations from the mean */
};

/** Add one sample to a class (start from a zeroed struct). */
void hil_leak_class_add(struct hil_leak_class *c, double x);

/** Mean of a class; 0 when it is empty. */
double hil_leak_class_mean(const struct hil_leak_class *c);

/** Sample variance (divisor n - 1) of a class; 0 when n < 2. */
double hil_leak_class_var(const struct hil_leak_class *c);

/**
 * Welch's t statistic of two classes:
 *   t = (mean_a - mean_b) / sqrt(var_a / n_a + var_b / n_b)
 * with sample variances (divisor n - 1). When both variances are 0, as on
 * an emulator that counts instructions exactly, t is 0 for equal means and
 * +/-INFINITY otherwise (the classes are told apart without any doubt).
 * @return HIL_OK, or HIL_ERR_ARG when a class has fewer than 2 samples.
 */
int hil_leak_welch_t(const struct hil_leak_class *a,
		     const struct hil_leak_class *b, double *t);

/**
 * Are two classes identical: at least 2 runs each, every run of both the
 * same count (variances 0, equal first samples)?
 */
int hil_leak_identical(const struct hil_leak_class cls[2]);

/**
 * May a leak test on a deterministic emulator stop after a batch (t = 0,
 * more runs would count the same again)? Only when the counter's classes
 * are identical and, when the cycle model's cycles of the same runs are
 * kept (model not NULL), theirs are too: a table lookup costs the same
 * instructions at any index but not the same cycles behind a data cache.
 */
int hil_leak_may_stop(const struct hil_leak_class counts[2],
		      const struct hil_leak_class *model);

/**
 * Welch's t of two sets of samples (see hil_leak_welch_t).
 * @return HIL_OK, or HIL_ERR_ARG for a NULL set or fewer than 2 samples.
 */
int hil_leak_welch(const double *a, size_t na, const double *b, size_t nb,
		   double *t);

/* One leak test: an (algorithm, operation, length) of the image. */
struct hil_leak_params {
	uint8_t alg; /* index in the image's algorithm table */
	uint8_t op;  /* HILP_OP_ENCRYPT, HILP_OP_DECRYPT or HILP_OP_HASH */
	/* Plaintext length for encrypt and decrypt, message length for hash,
	 * XOF and block encryption; at least 1 except for decrypt (the random
	 * class varies the input, which must not be empty). */
	uint16_t msg_len;
	uint16_t ad_len;  /* AEAD only */
	uint16_t out_len; /* XOF output length, 0 for the default */
	uint32_t runs;	  /* timed runs in all, split into batches */
	uint16_t batch;	  /* runs per BENCH, <= INFO max_runs; 0: 1000 */
	uint16_t warmup;  /* untimed runs before each batch */
	/* On a deterministic emulator: the runs of a first BENCH, the start
	 * of the first batch, after which a test whose classes are identical
	 * stops; otherwise the batch goes on from there, the same stream
	 * continued, so its samples are those one BENCH would give. 0: none
	 * (on a board the runs of one batch are never split). */
	uint16_t probe;
	uint32_t seed;	     /* the fixed inputs: key, nonce, ad, message */
	uint32_t leak_seed;  /* class order and random inputs (any value) */
	unsigned timeout_ms; /* per BENCH; 0: from the batch size */
	/* The image's entry for alg, when the caller has read the table
	 * already (saves its 1 + n requests per test); NULL: read it. */
	const struct hilp_alg_info *info;
	/* The cycle model's records (the emulated board with the plugin
	 * loaded; host/emu/cyclemodel.h): the same runs' estimated cycles
	 * get a t of their own (hil_leak_result.model). Records already in
	 * it are skipped. NULL: instruction counts only. */
	struct hil_cyclemodel_reader *model;
};

/* The leak test on the cycle model's estimated cycles of the same runs. */
struct hil_leak_model {
	/* 0: no model; 1: done; -1: the records did not match the runs
	 * (why), and the test went on with the counts alone */
	int state;
	double t;	  /* Welch's t, fixed class minus random class */
	int flagged;	  /* |t| > HIL_LEAK_T_THRESHOLD */
	size_t n[2];	  /* runs of the fixed [0] and random [1] class */
	double mean[2];	  /* mean model cycles per run, overhead included */
	double stddev[2]; /* sample standard deviation per class */
	char why[160];
};

struct hil_leak_result {
	/* The target's counter (instructions on QEMU, cycles on a board): */
	double t;	   /* Welch's t, fixed class minus random class */
	int flagged;	   /* |t| > HIL_LEAK_T_THRESHOLD */
	size_t n[2];	   /* runs of the fixed [0] and random [1] class */
	double mean[2];	   /* mean count per run, overhead included */
	double stddev[2];  /* sample standard deviation per class */
	uint32_t overhead; /* the stub's calibrated overhead */
	uint32_t batches;  /* BENCH requests made */
	struct hil_leak_model model; /* params.model's cycles, flagged apart */
};

/**
 * Run a leak test through the target API: BENCH requests in leak mode
 * (docs/protocol.md), each with its own leak seed drawn from p->leak_seed,
 * their samples split by class and reduced to Welch's t. The class of every
 * sample is checked against the host's own replay of the stub's generator.
 *
 * With params.model, the cycle model's records of each BENCH are paired
 * with its runs (hil_leak_model_take) and give a second t, flagged on its
 * own; the early stop on the emulator then needs both identical
 * (hil_leak_may_stop).
 *
 * Decryption is measured on rejected inputs only: the fixed class is the
 * valid ciphertext of the fixed inputs with its last tag byte flipped, the
 * random class random bytes; so acceptance, which is public, never tells
 * the classes apart (docs/method.md, "Timing-leak smoke test").
 *
 * @param out receives the result (zeroed first).
 * @return HIL_OK; HIL_ERR_ARG for an operation the test cannot vary (key
 *         setup, an empty message), fewer than 2 runs of a class, or an
 *         unknown algorithm; HIL_ERR_PROTO when the samples' classes are
 *         not the replayed ones; HIL_ERR_NOMEM; or a target error.
 */
int hil_leak_run(struct hil_session *s, const struct hil_leak_params *p,
		 struct hil_leak_result *out);

#endif /* HIL_LEAK_H */
