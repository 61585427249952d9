/* runner_row: measures one row (BENCH, samples, stack and heap, the timing-leak test, the cycle model's figures) and sizes its timeouts. */
#define HIL_LOG_PREFIX "runner"
#include "runner_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "benchtime.h"
#include "drivers/board/board.h"
#include "faultdesc.h"
#include "util/err.h"
#include "leak.h"
#include "util/log.h"
#include "image/refcrypto/refcrypto.h"
#include "session/session.h"
#include "result/stats.h"
#include "session/stub.h"
#include "util/util.h"

/* The host build of a user's folder that subject s is checked against,
 * a process of its own (image/ownref.h); NULL for a bundled one. */
static struct hil_ownref *own_of(struct rn_subject *s)
{
	return hil_ownref_started(&s->own) ? &s->own : NULL;
}

int hil_rn_has_host(const struct rn_subject *s)
{
	const struct registry_alg *ref = &s->alg;

	if (hil_ownref_started(&s->own)) {
		return hil_ownref_has(&s->own, ref->kind);
	}
	switch (ref->kind) {
	case HILP_KIND_AEAD:
		return ref->encrypt != NULL && ref->decrypt != NULL;
	case HILP_KIND_HASH:
		return ref->hash != NULL;
	case HILP_KIND_XOF:
		return ref->xof != NULL;
	case HILP_KIND_BLOCK:
		return ref->keysetup != NULL && ref->ecb_encrypt != NULL;
	default:
		return 0;
	}
}

int hil_rn_ref_run(struct rn_subject *s, uint8_t op, const uint8_t *key,
		   const uint8_t *npub, const uint8_t *ad, size_t adlen,
		   const uint8_t *msg, size_t msglen, size_t xof_len,
		   uint8_t *out, size_t cap, size_t *out_len, int *rejected)
{
	const struct registry_alg *ref = &s->alg;
	struct hil_ownref *own = own_of(s);

	if (own != NULL) {
		return hil_ownref_run(own, op, key, npub, ad, adlen, msg,
				      msglen, xof_len, out, cap, out_len,
				      rejected);
	}
	return hil_ref_run(ref, op, key, npub, ad, adlen, msg, msglen, xof_len,
			   out, cap, out_len, rejected);
}

int hil_rn_ref_digest(struct rn_subject *s, uint8_t op, size_t msg_len,
		      size_t ad_len, size_t xof_len, unsigned runs,
		      uint32_t seed, uint32_t *digest)
{
	const struct registry_alg *ref = &s->alg;
	struct hil_ownref *own = own_of(s);

	if (own != NULL) {
		return hil_ownref_bench_digest(own, op, msg_len, ad_len,
					       xof_len, runs, seed, digest);
	}
	return hil_ref_bench_digest(ref, op, msg_len, ad_len, xof_len, runs,
				    seed, digest);
}

const char *hil_rn_op_name(uint8_t op)
{
	switch (op) {
	case HILP_OP_ENCRYPT:
		return "encrypt";
	case HILP_OP_DECRYPT:
		return "decrypt";
	case HILP_OP_KEYSETUP:
		return "keysetup";
	default:
		return "hash";
	}
}

/* One call of op on index seen costing count ticks for bytes of input. */
void hil_rn_work_note(struct rn_target *t, int index, uint8_t op,
		      uint32_t bytes, uint64_t count)
{
	struct work_seen *w;

	if (index < 0 || index >= HIL_TARGET_MAX_ALGS ||
	    op > HILP_OP_KEYSETUP || count == 0) {
		return;
	}
	w = &t->work[index][op];
	if (!w->seen || bytes > w->bytes ||
	    (bytes == w->bytes && count > w->count)) {
		w->count = count;
		w->bytes = bytes;
		w->seen = 1;
	}
}

/*
 * The reply timeout of a BENCH of `calls` runs and warm-ups, sized by the
 * work (host/run/benchtime.h): from a call of the same operation seen before,
 * scaled to this length, at a conservative rate for the target's counter.
 * A decryption not seen yet costs about what its encryption did, and the
 * other way round. Nothing
 * seen, or a counter of unknown rate: fallback_ms.
 */
static unsigned work_timeout_ms(const struct rn_target *tg,
				const struct hil_run *run, int index,
				uint8_t op, uint32_t len, uint32_t ad_len,
				uint32_t calls, unsigned fallback_ms)
{
	const struct hil_config *cfg = run->cfg;
	const struct work_seen *w;
	struct hil_benchtime t;

	if (index < 0 || index >= HIL_TARGET_MAX_ALGS ||
	    op > HILP_OP_KEYSETUP) {
		return fallback_ms;
	}
	w = &tg->work[index][op];
	if (!w->seen && op == HILP_OP_DECRYPT) {
		w = &tg->work[index][HILP_OP_ENCRYPT];
	} else if (!w->seen && op == HILP_OP_ENCRYPT) {
		/* An AEAD is verified by decryptions (runner_verify.c). */
		w = &tg->work[index][HILP_OP_DECRYPT];
	}
	memset(&t, 0, sizeof(t));
	t.rate_hz = hil_benchtime_rate(run->info.counter_unit,
				       cfg->board.clock_hz != 0
					       ? cfg->board.clock_hz
					       : run->info.clock_hz);
	if (!w->seen || t.rate_hz == 0) {
		return fallback_ms;
	}
	t.bytes = len + ad_len;
	t.count = hil_benchtime_scale(w->count, w->bytes, t.bytes);
	t.calls = calls;
	t.base_ms = cfg->link.timeout_ms;
	t.baud = cfg->link.baud;
	/* The request, the reply and its status, as whole frames at most. */
	t.wire_bytes = 3u * (HILP_MAX_FRAME + 1u);
	hil_dbg("BENCH alg %d op %u %u+%u B: timeout %u ms from %llu ticks a call at %u B (%u ms from bytes alone)",
		index, op, (unsigned)len, (unsigned)ad_len,
		(unsigned)hil_benchtime_ms(&t), (unsigned long long)w->count,
		(unsigned)w->bytes, fallback_ms);
	return hil_benchtime_ms(&t);
}

/* A BENCH's timeout before any call of its operation was seen. */
static unsigned bench_timeout_ms(const struct hil_config *cfg, uint32_t len,
				 uint32_t ad_len)
{
	/* Generous: 50 ms per KiB per run plus the link timeout (AES-GCM
	 * takes ~0.5 M emulated instructions per KiB, which QEMU runs at
	 * 10-30 M a second, slower with the cycle model on a busy host). A
	 * silent target is still caught, just later for long benches. */
	unsigned long long work =
		(unsigned long long)(cfg->bench.runs + cfg->bench.warmup) *
		(len + ad_len + 64);

	return cfg->link.timeout_ms + (unsigned)(work / 20);
}

/* One statistic of a flagged row's leak test, for its log line: short, so
 * that the line fits a 120-column terminal (the means are in report.json). */
static void leak_says(char *buf, size_t len, const char *what, double t,
		      int flagged)
{
	if (flagged) {
		snprintf(buf, len, "%s |t| %.1f > %.1f", what, fabs(t),
			 HIL_LEAK_T_THRESHOLD);
	} else {
		snprintf(buf, len, "%s |t| %.1f", what, fabs(t));
	}
}

static const char *unit_word(uint8_t unit)
{
	switch (unit) {
	case HILP_UNIT_CYCLES:
		return "cycles";
	case HILP_UNIT_INSTRUCTIONS_EMU:
		return "instr.";
	case HILP_UNIT_NS_HOST:
		return "ns";
	default:
		return "counts";
	}
}

/*
 * The one log line of a flagged row: which statistic flagged it (the
 * counter's, or the cycle model's, or both) and what the other said; the
 * means and the model's profile are in report.json. Nothing for a row that
 * is not flagged.
 */
static void leak_warn(const struct hil_run *run, const struct hil_row *row)
{
	const struct hil_row_leak *l = &row->leak;
	const char *unit = unit_word(run->info.counter_unit);
	char a[96], b[96];

	if (!hil_row_leak_flagged(l)) {
		return;
	}
	leak_says(a, sizeof(a), unit, l->t, l->flagged);
	if (l->model_state <= 0) {
		hil_warn("%s/%s %s %u B: timing leak? %s", row->algorithm,
			 row->implementation, row->operation,
			 (unsigned)row->msg_len, a);
		return;
	}
	leak_says(b, sizeof(b), "est. cycles", l->model.t, l->model.flagged);
	/* The statistic that flagged it first, then the other. */
	hil_warn("%s/%s %s %u B: timing leak? %s; %s", row->algorithm,
		 row->implementation, row->operation, (unsigned)row->msg_len,
		 l->flagged ? a : b, l->flagged ? b : a);
}

/*
 * The timing-leak smoke test of the row (dudect's method): fixed against
 * random inputs in a random order, Welch's t on the counts. Its failure
 * fails the test, never the row; a target that stopped answering goes to
 * the recovery ladder.
 */
static int measure_leak(const struct rn_target *t, const struct rn_meters *m,
			const struct hil_run *run, uint8_t op,
			const struct hilp_bench_req *b, struct hil_row *row)
{
	const struct hil_config *cfg = run->cfg;
	struct hil_leak_params p;
	struct hil_leak_result res;
	int ret;

	if (cfg->bench.leak_runs == 0 || op == HILP_OP_KEYSETUP ||
	    (b->msg_len == 0 && op != HILP_OP_DECRYPT)) {
		return HIL_OK;
	}
	memset(&p, 0, sizeof(p));
	p.alg = b->alg;
	p.info = b->alg < t->n_algs ? &t->algs[b->alg] : NULL;
	p.op = op;
	p.msg_len = b->msg_len;
	p.ad_len = b->ad_len;
	p.out_len = b->out_len;
	p.runs = cfg->bench.leak_runs;
	p.batch = (uint16_t)(run->info.max_runs < 1000u ? run->info.max_runs
							: 1000u);
	p.warmup = (uint16_t)cfg->bench.warmup;
	/* The emulator counts the same for the same inputs every time: a
	 * first BENCH of a few runs tells constant-time code (docs/method.md). */
	if (hil_board_emulated(cfg->board.name)) {
		p.probe = HIL_LEAK_PROBE;
	}
	/* As for BENCH, twice over: fresh inputs are drawn between runs. */
	p.timeout_ms = work_timeout_ms(
		t, run, b->alg, op, b->msg_len, b->ad_len,
		(uint32_t)p.batch + p.warmup,
		cfg->link.timeout_ms +
			(unsigned)((unsigned long long)(p.batch + p.warmup) *
				   (b->msg_len + b->ad_len + 64u) / 10u));
	p.seed = b->seed;
	/* The same runs' estimated cycles, when QEMU models them: what a
	 * data cache makes of table lookups shows there, not in the counts. */
	p.model = m->model;
	/* Its own stream, fixed by the row: the same run gives the same t. */
	p.leak_seed = (b->seed ^ 0x1EA4C0DEu) + ((uint32_t)op << 24) +
		      ((uint32_t)b->msg_len << 8) + b->ad_len;
	if (p.leak_seed == 0) {
		p.leak_seed = 1;
	}
	ret = hil_leak_run(t->conn.session, &p, &res);
	if (ret == HIL_ERR_TIMEOUT || ret == HIL_ERR_IO ||
	    ret == HIL_ERR_TARGET_FAULT) {
		row->leak.state = -1;
		snprintf(row->leak.error, sizeof(row->leak.error),
			 "the target failed during the leak test: %s",
			 hil_strerror(ret));
		return ret;
	}
	if (ret != HIL_OK) {
		row->leak.state = -1;
		snprintf(row->leak.error, sizeof(row->leak.error),
			 "leak test failed: %s", hil_strerror(ret));
		return HIL_OK;
	}
	row->leak.state = 1;
	row->leak.t = res.t;
	row->leak.flagged = res.flagged;
	row->leak.n[0] = (uint32_t)res.n[0];
	row->leak.n[1] = (uint32_t)res.n[1];
	row->leak.mean[0] = res.mean[0];
	row->leak.mean[1] = res.mean[1];
	row->leak.stddev[0] = res.stddev[0];
	row->leak.stddev[1] = res.stddev[1];
	row->leak.model_state = res.model.state;
	if (res.model.state > 0) {
		struct hil_row_leak_stat *ms = &row->leak.model;

		ms->t = res.model.t;
		ms->flagged = res.model.flagged;
		ms->n[0] = (uint32_t)res.model.n[0];
		ms->n[1] = (uint32_t)res.model.n[1];
		ms->mean[0] = res.model.mean[0];
		ms->mean[1] = res.model.mean[1];
		ms->stddev[0] = res.model.stddev[0];
		ms->stddev[1] = res.model.stddev[1];
	} else if (res.model.state < 0) {
		snprintf(row->leak.model_why, sizeof(row->leak.model_why), "%s",
			 res.model.why);
	}
	leak_warn(run, row);
	return HIL_OK;
}

int hil_rn_measure_row(struct rn_target *t, struct rn_subject *s,
		       struct rn_meters *m, const struct hil_run *run,
		       const struct rn_point *pt, struct hil_row *row)
{
	const struct hil_config *cfg = run->cfg;
	const struct registry_alg *ref = &s->alg;
	int index = pt->index;
	uint8_t op = pt->op;
	uint32_t len = pt->len, ad_len = pt->ad_len;
	struct hilp_bench_req req;
	struct hilp_bench_rep rep;
	uint32_t *raw = NULL;
	uint32_t i;
	int ret;

	snprintf(row->algorithm, sizeof(row->algorithm), "%s", ref->name);
	snprintf(row->implementation, sizeof(row->implementation), "%s",
		 ref->impl);
	row->operation = hil_rn_op_name(op);
	row->mode = ref->mode;
	row->constant_time = ref->constant_time;
	row->msg_len = len;
	row->ad_len = ad_len;
	row->runs = cfg->bench.runs;
	row->warmup = cfg->bench.warmup;
	row->seed = cfg->bench.seed;
	row->verified = s->check != CHECK_NONE;
	snprintf(row->verified_by, sizeof(row->verified_by), "%s",
		 hil_rn_check_name(s));

	req.alg = (uint8_t)index;
	req.msg_len = (uint16_t)len;
	req.ad_len = (uint16_t)ad_len;
	req.runs = (uint16_t)cfg->bench.runs;
	req.warmup = (uint16_t)cfg->bench.warmup;
	req.seed = cfg->bench.seed;
	req.out_len = 0; /* XOF: the implementation's default length */

	/* Without a host build (a KAT-verified or unverified folder) the
	 * target's own digest is all there is: it is recorded, not checked. */
	ret = hil_rn_has_host(s)
		      ? hil_rn_ref_digest(s, op, len, ad_len, 0,
					  cfg->bench.runs, cfg->bench.seed,
					  &row->digest_expected)
		      : HIL_OK;
	if (ret != HIL_OK) {
		snprintf(row->error, sizeof(row->error),
			 "host build could not compute the expected digest: %s",
			 hil_strerror(ret));
		goto done;
	}
	raw = calloc(cfg->bench.runs, sizeof(*raw));
	row->samples = calloc(cfg->bench.runs, sizeof(*row->samples));
	if (raw == NULL || row->samples == NULL) {
		ret = HIL_ERR_NOMEM;
		snprintf(row->error, sizeof(row->error), "out of memory");
		goto done;
	}
	hil_rn_model_drain(m, run);
	ret = hil_target_bench(
		t->conn.session, op, &req, &rep, raw,
		work_timeout_ms(t, run, index, op, len, ad_len,
				cfg->bench.runs + cfg->bench.warmup,
				bench_timeout_ms(cfg, len, ad_len)));
	if (ret != HIL_OK) {
		const struct hil_session_fault *f =
			hil_session_get_fault(t->conn.session);

		if (f->seen) {
			char d[HIL_ROW_ERR - 128];

			/* The registers say where; the target now waits for a
			 * reset, which the recovery ladder gives it. */
			hil_fault_describe(f->pc, f->cfsr, run->fw.elf, d,
					   sizeof(d));
			snprintf(
				row->error, sizeof(row->error),
				"the target took a fault: PC 0x%08x CFSR 0x%08x HFSR 0x%08x BFAR 0x%08x: %s",
				(unsigned)f->pc, (unsigned)f->cfsr,
				(unsigned)f->hfsr, (unsigned)f->bfar, d);
			ret = HIL_ERR_TARGET_FAULT;
		} else {
			snprintf(row->error, sizeof(row->error),
				 "BENCH failed: %s", hil_strerror(ret));
		}
		goto done;
	}
	row->digest_got = rep.digest;
	row->overhead = rep.overhead;
	row->stack_known = rep.stack_bytes != 0xFFFFFFFFu;
	row->stack_bytes = rep.stack_bytes;
	row->heap_bytes = rep.heap_bytes;
	for (i = 0; i < cfg->bench.runs; i++) {
		/* A sample below the overhead would mean the calibration is
		 * wrong; keep it visible rather than wrap around. */
		row->samples[i] = (double)raw[i] - (double)rep.overhead;
		/* The slowest run sizes the next length's timeout. */
		hil_rn_work_note(t, index, op, len + ad_len, raw[i]);
	}
	ret = hil_stats_compute(row->samples, cfg->bench.runs, &row->stats);
	if (ret != HIL_OK) {
		snprintf(row->error, sizeof(row->error), "statistics failed");
		goto done;
	}
	hil_rn_model_row(m, row, raw);
	if (!hil_rn_has_host(s)) {
		row->digest_expected = rep.digest;
	}
	if (rep.digest != row->digest_expected) {
		snprintf(
			row->error, sizeof(row->error),
			"output digest %08x differs from the host's %08x: the target did not compute what was measured",
			(unsigned)rep.digest, (unsigned)row->digest_expected);
		hil_err("%s/%s %s %u bytes: %s", ref->name, ref->impl,
			row->operation, (unsigned)len, row->error);
		ret = HIL_OK; /* the row failed, the run goes on */
		goto done;
	}
	row->ok = 1;
	ret = measure_leak(t, m, run, op, &req, row);
	if (ret == HIL_OK && m->energy != NULL) {
		ret = hil_rn_measure_energy(m, t->conn.session, s, op, &req,
					    row);
	}
done:
	free(raw);
	return ret;
}
