/* runner_measure: measures one image's implementations: each verified, then its rows walked, a row measured again or the target recovered when the link or the board failed. */
#define HIL_LOG_PREFIX "runner"
#include "runner_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "faultdesc.h"
#include "util/err.h"
#include "lab/history.h"
#include "util/log.h"
#include "image/refcrypto/refcrypto.h"
#include "util/util.h"

/* The operations of ref's kind that the configuration asks for, in order;
 * a block cipher's key setup comes with its encryption, as a row of its own. */
static size_t ops_for(const struct hil_config *cfg,
		      const struct registry_alg *ref, uint8_t ops[4])
{
	size_t n = 0;

	if ((cfg->bench.operations & HIL_OPS_ENCRYPT) &&
	    hil_ref_has_op(ref, HILP_OP_ENCRYPT)) {
		ops[n++] = HILP_OP_ENCRYPT;
	}
	if ((cfg->bench.operations & HIL_OPS_DECRYPT) &&
	    hil_ref_has_op(ref, HILP_OP_DECRYPT)) {
		ops[n++] = HILP_OP_DECRYPT;
	}
	if ((cfg->bench.operations & HIL_OPS_HASH) &&
	    hil_ref_has_op(ref, HILP_OP_HASH)) {
		ops[n++] = HILP_OP_HASH;
	}
	if ((cfg->bench.operations & HIL_OPS_ENCRYPT) &&
	    hil_ref_has_op(ref, HILP_OP_KEYSETUP)) {
		ops[n++] = HILP_OP_KEYSETUP;
	}
	return n;
}

/*
 * A stop arrived while a row was measured: a row that did not finish (its
 * reply lost with the emulator, or never awaited) is marked interrupted, so
 * that the report tells it from a row that failed, and --resume measures
 * it again. A row that finished is kept as it is.
 */
static void mark_interrupted(struct hil_run *run, size_t before)
{
	struct hil_row *row;
	char was[HIL_ROW_ERR];

	if (run->n_rows <= before) {
		return;
	}
	row = &run->rows[run->n_rows - 1];
	if (row->ok) {
		return;
	}
	row->interrupted = 1;
	snprintf(was, sizeof(was), "%s", row->error);
	snprintf(row->error, sizeof(row->error),
		 "interrupted (SIGTERM or SIGINT) before it was measured%s%s",
		 was[0] != '\0' ? ": " : "", was);
	hil_warn("%s/%s %s %u bytes: %s", row->algorithm, row->implementation,
		 row->operation, (unsigned)row->msg_len, row->error);
}

/*
 * One attempt at the row of s at pt: the journal's copy when --resume kept
 * one; else measured on the target with the meters, then journaled (synced)
 * before anyone is told it was measured.
 */
static int row_once(struct run_ctx *c, struct rn_subject *s,
		    const struct rn_point *pt)
{
	struct hil_run *run = c->run;
	struct hil_row *row;
	int ret;

	ret = hil_rn_take_resumed(&c->journal, run, &s->alg, pt->op, pt->len,
				  pt->ad_len);
	if (ret != 0) {
		return ret < 0 ? HIL_ERR_NOMEM : HIL_OK;
	}
	hil_rn_progress(&c->progress, &c->target, c->subj, run, &s->alg, pt);
	row = hil_run_add_row(run);
	if (row == NULL) {
		return HIL_ERR_NOMEM;
	}
	ret = hil_rn_measure_row(&c->target, s, &c->meters, run, pt, row);
	if (hil_rn_journal_row(&c->journal, run, row) != HIL_OK) {
		return HIL_ERR_IO; /* c->journal.ret stops the run */
	}
	if (row->ok) {
		hil_dbg("%s/%s %s len %u ad %u: median %.0f %s", s->alg.name,
			s->alg.impl, row->operation, (unsigned)pt->len,
			(unsigned)pt->ad_len, row->stats.median,
			hil_unit_name(run->info.counter_unit));
	}
	return ret;
}

/*
 * One row: measured (and journaled), then measured again when it failed in
 * a way that may not be its own (hil_rn_worth_again): once after a failure
 * on a link that damages frames, up to HIL_RN_LINK_AGAIN times after the
 * recovery ladder when the board or the link was lost. A row still lost to
 * the link, with the target answering damaged frames, is marked a link
 * failure, never the implementation's.
 * @return the last measurement's code; HIL_ERR_INTERRUPTED on a stop.
 */
static int measure_point(struct run_ctx *c, struct rn_subject *s,
			 const struct rn_point *pt)
{
	struct rn_target *t = &c->target;
	struct hil_run *run = c->run;
	unsigned again;
	int ret;

	memset(&t->loss, 0, sizeof(t->loss));
	ret = row_once(c, s, pt);
	for (again = 0;; again++) {
		int lost, link;

		if (c->journal.ret != HIL_OK) {
			return c->journal.ret;
		}
		if (hil_rn_stopping(c->opts)) {
			return HIL_ERR_INTERRUPTED;
		}
		lost = hil_rn_board_lost(t, ret);
		link = hil_rn_note_loss(t, run, ret);
		if (!hil_rn_worth_again(t, run, ret) ||
		    again >= (lost || link ? HIL_RN_LINK_AGAIN : 1u)) {
			break;
		}
		ret = hil_rn_prepare_again(t, run, c->opts, ret);
		if (ret != HIL_OK) {
			return ret;
		}
		ret = row_once(c, s, pt);
	}
	if (ret == HIL_ERR_TIMEOUT && t->loss.last_link && run->n_rows > 0) {
		hil_rn_mark_link_failed(&t->loss, run,
					&run->rows[run->n_rows - 1],
					"while it was measured");
	}
	return ret;
}

/* The rows of s, index in the target's table: each operation, associated
 * data length and message length, the target recovered after a row that
 * hung, crashed it or lost the link. */
static int measure_alg(struct run_ctx *c, struct rn_subject *s, int index)
{
	const struct hil_config *cfg = c->run->cfg;
	const struct registry_alg *ref = &s->alg;
	uint8_t ops[4];
	size_t n_ops = ops_for(cfg, ref, ops);
	size_t o, l, d, before;
	int ret;

	for (o = 0; o < n_ops; o++) {
		/* Associated data only for AEADs; key setup has no message. */
		size_t n_ad = ref->kind == HILP_KIND_AEAD
				      ? cfg->bench.n_ad_lengths
				      : 1;
		size_t n_len =
			ops[o] == HILP_OP_KEYSETUP ? 1 : cfg->bench.n_lengths;

		for (d = 0; d < n_ad; d++) {
			for (l = 0; l < n_len; l++) {
				struct rn_point pt;

				pt.index = index;
				pt.op = ops[o];
				pt.len = ops[o] == HILP_OP_KEYSETUP
						 ? 0
						 : cfg->bench.lengths[l];
				pt.ad_len = ref->kind == HILP_KIND_AEAD
						    ? cfg->bench.ad_lengths[d]
						    : 0;
				if (hil_rn_stopping(c->opts)) {
					return HIL_ERR_INTERRUPTED;
				}
				if (ref->kind == HILP_KIND_BLOCK &&
				    pt.len % ref->blockbytes != 0) {
					hil_warn(
						"%s/%s: %u bytes is not a whole number of %u-byte blocks: skipped",
						ref->name, ref->impl,
						(unsigned)pt.len,
						ref->blockbytes);
					continue;
				}
				before = c->run->n_rows;
				ret = measure_point(c, s, &pt);
				if (ret == HIL_ERR_INTERRUPTED) {
					mark_interrupted(c->run, before);
					return ret;
				}
				if (c->journal.ret != HIL_OK) {
					return c->journal.ret;
				}
				if (ret == HIL_ERR_NOMEM) {
					return ret;
				}
				if (ret == HIL_ERR_TIMEOUT ||
				    ret == HIL_ERR_IO ||
				    ret == HIL_ERR_TARGET_FAULT) {
					/* That row is recorded as failed; bring
					 * the target back for the next one. */
					ret = hil_rn_recover(&c->target, c->run,
							     c->opts);
					if (ret != HIL_OK) {
						return ret;
					}
				}
			}
		}
	}
	return HIL_OK;
}

/* How many rows cfg asks of the subjects (for the progress line). */
static size_t plan_rows(const struct rn_subject *subj,
			const struct hil_config *cfg)
{
	size_t a, n = 0;

	for (a = 0; a < cfg->n_algs; a++) {
		const struct registry_alg *subject = &subj[a].alg;
		uint8_t ops[4];
		size_t o, k;

		if (subj[a].ret != HIL_OK) {
			continue;
		}
		k = ops_for(cfg, subject, ops);
		for (o = 0; o < k; o++) {
			n += ops[o] == HILP_OP_KEYSETUP
				     ? 1
				     : cfg->bench.n_lengths *
					       (subject->kind == HILP_KIND_AEAD
							? cfg->bench.n_ad_lengths
							: 1);
		}
	}
	return n;
}

double hil_rn_plan_work(const struct rn_subject *subj,
			const struct rn_target *t, const struct hil_run *run)
{
	const struct hil_config *cfg = run->cfg;
	double sum = 0.0;
	size_t a, o, l, d;

	for (a = 0; a < cfg->n_algs; a++) {
		const struct registry_alg *subject = &subj[a].alg;
		int index = hil_rn_find_target_alg(t, cfg->algs[a].name,
						   cfg->algs[a].impl);
		uint8_t ops[4];
		size_t k;

		if (subj[a].ret != HIL_OK) {
			continue;
		}
		k = ops_for(cfg, subject, ops);
		for (o = 0; o < k; o++) {
			size_t n_ad = subject->kind == HILP_KIND_AEAD
					      ? cfg->bench.n_ad_lengths
					      : 1;

			if (ops[o] == HILP_OP_KEYSETUP) {
				sum += hil_rn_row_work(t, cfg, index, ops[o], 0,
						       0);
				continue;
			}
			for (d = 0; d < n_ad; d++) {
				for (l = 0; l < cfg->bench.n_lengths; l++) {
					sum += hil_rn_row_work(
						t, cfg, index, ops[o],
						cfg->bench.lengths[l],
						subject->kind == HILP_KIND_AEAD
							? cfg->bench
								  .ad_lengths[d]
							: 0);
				}
			}
		}
	}
	return sum;
}

/* An operation list that gives an algorithm nothing to do is a mistake in
 * the configuration, not a run that measured it. */
static int check_ops(const struct rn_subject *subj, struct hil_run *run)
{
	const struct hil_config *cfg = run->cfg;
	size_t a;

	for (a = 0; a < cfg->n_algs; a++) {
		uint8_t ops[4];

		if (subj[a].ret == HIL_OK &&
		    ops_for(cfg, &subj[a].alg, ops) == 0) {
			return hil_rn_config_error(
				run,
				"%s: algorithms[%zu] %s/%s: bench.operations names nothing it can do (it does: %s), so nothing of it would be measured",
				cfg->path[0]
					? cfg->path
					: "the configuration (command-line options)",
				a, cfg->algs[a].name, cfg->algs[a].impl,
				subj[a].alg.kind == HILP_KIND_AEAD
					? "encrypt, decrypt"
				: subj[a].alg.kind == HILP_KIND_BLOCK
					? "encrypt, with its key setup"
					: "hash");
		}
	}
	return HIL_OK;
}

/* The rows this image plans, and what to expect before it starts: the
 * last such run's time, the progress line. */
static void plan(struct run_ctx *c)
{
	const struct hil_config *cfg = c->run->cfg;
	char db[HIL_PATH + 32], kept[96] = "";
	size_t todo;
	long secs;

	/* Rows of earlier images (a split selection) count as done. */
	c->progress.planned = c->run->n_rows + plan_rows(c->subj, cfg);
	c->run->rows_planned = c->progress.planned;
	todo = c->progress.planned - c->run->n_rows;
	snprintf(db, sizeof(db), "%s/%s", c->opts->results_dir,
		 HIL_HISTORY_FILE);
	secs = hil_history_last_seconds(db, cfg->name);
	/* A resume: the journal's rows of this image are kept, not
	 * measured again (those of other settings are). */
	if (c->journal.n_resumed > 0) {
		size_t k = c->journal.n_resumed < todo ? c->journal.n_resumed
						       : todo;

		snprintf(kept, sizeof(kept),
			 " (%zu of %zu kept from the journal)", k, todo);
		todo -= k;
	}
	hil_rn_progress_start(&c->progress, &c->target, c->run, c->opts,
			      secs >= 0 && c->run->n_images == 0 ? (double)secs
								 : -1.0);
	if (secs >= 0 && c->run->n_images == 0) {
		hil_info(
			"%zu row%s to measure%s; the last complete run of %s took %ld min %02ld s",
			todo, todo == 1 ? "" : "s", kept, cfg->name, secs / 60,
			secs % 60);
	} else {
		hil_info("%zu row%s to measure%s", todo, todo == 1 ? "" : "s",
			 kept);
	}
}

/*
 * Subject a, at index of the target's table, checked before it is timed.
 * What cannot be measured, or fails its checks, gets its row saying why
 * (journaled), and *go stays 0; a configuration mistake or a lost target
 * stops the run. @return HIL_OK, or the error that stops the run.
 */
static int verify_step(struct run_ctx *c, size_t a, int index, int *go)
{
	const struct hil_config_alg *ca = &c->run->cfg->algs[a];
	struct rn_subject *s = &c->subj[a];
	struct registry_alg *subject = &s->alg;
	const struct hilp_alg_info *t = &c->target.algs[index < 0 ? 0 : index];
	int ret;

	*go = 0;
	if (s->ret == HIL_ERR_CONFIG) {
		return hil_rn_config_error(c->run, "%s/%s: %s", ca->name,
					   ca->impl, s->why);
	}
	if (index < 0 && s->ret != HIL_ERR_BUILD) {
		hil_err("%s/%s is not in the target image", ca->name, ca->impl);
		return HIL_ERR_MISMATCH;
	}
	if (s->ret != HIL_OK) {
		hil_err("%s/%s %s: its rows are not measured", ca->name,
			ca->impl, s->why);
		return hil_rn_add_failed_row(&c->journal, c->run, subject,
					     s->why) != NULL
			       ? HIL_OK
			       : HIL_ERR_NOMEM;
	}
	if (!hil_rn_same_api(t, subject)) {
		hil_err("%s/%s: its api.h (kind %u, key %u, nonce %u, tag %u, block %u) is not that of %s",
			ca->name, ca->impl, t->kind, t->keybytes, t->npubbytes,
			t->abytes, t->blockbytes, ca->name);
		ret = HIL_ERR_VERIFY;
	} else {
		ret = hil_rn_verify_believed(&c->target, s, ca, index, c->run,
					     c->opts);
	}
	if (ret == HIL_ERR_INTERRUPTED || hil_rn_stopping(c->opts)) {
		return HIL_ERR_INTERRUPTED; /* not a failed check */
	}
	if (ret == HIL_ERR_TIMEOUT || ret == HIL_ERR_IO ||
	    ret == HIL_ERR_TARGET_FAULT) {
		/* It hung or crashed the target while being checked:
		 * bring the target back, record it, go on with the
		 * others (a tree of many is measured to its end). */
		const char *what = ret == HIL_ERR_TARGET_FAULT
					   ? "took a fault"
					   : "did not answer (hung)";
		int link = ret == HIL_ERR_TIMEOUT && c->target.loss.last_link;
		const struct hil_session_fault *f =
			hil_session_get_fault(c->target.conn.session);
		char fault[HIL_ROW_ERR] = "";
		struct hil_row *row;

		/* What the fault was and where, before the recovery
		 * forgets it. */
		if (ret == HIL_ERR_TARGET_FAULT && f->seen) {
			char d[HIL_ROW_ERR - 64];

			hil_fault_describe(f->pc, f->cfsr, c->run->fw.elf, d,
					   sizeof(d));
			snprintf(fault, sizeof(fault), ": %s", d);
		}
		if (hil_rn_recover(&c->target, c->run, c->opts) != HIL_OK) {
			return ret;
		}
		if (!link) {
			hil_err("%s/%s %s during verification on the target%s: its rows are not measured",
				ca->name, ca->impl, what, fault);
		}
		snprintf(s->why, sizeof(s->why),
			 "%s during verification on the target%s", what, fault);
		if (link) {
			/* The target answered, damaged, every time:
			 * the link failed, not the implementation
			 * (the journal's copy is failed all the same:
			 * --resume measures it again). */
			struct hil_row tmp;

			memset(&tmp, 0, sizeof(tmp));
			snprintf(tmp.algorithm, sizeof(tmp.algorithm), "%s",
				 ca->name);
			snprintf(tmp.implementation, sizeof(tmp.implementation),
				 "%s", ca->impl);
			tmp.operation = "verify";
			hil_rn_mark_link_failed(&c->target.loss, c->run, &tmp,
						"during verification");
			snprintf(s->why, sizeof(s->why), "%s", tmp.error);
		}
		row = hil_rn_add_failed_row(&c->journal, c->run, subject,
					    s->why);
		if (row == NULL) {
			return HIL_ERR_NOMEM;
		}
		row->link_failed = link;
		return HIL_OK;
	}
	if (ret != HIL_OK) {
		char why[HIL_ROW_ERR];

		/* Which check failed and how (runner_verify.c: a KAT
		 * vector's reason too), else the checks' log says which. */
		snprintf(why, sizeof(why),
			 "failed verification on the target%s%s",
			 s->why[0] ? ": " : "", s->why);
		hil_err("%s/%s failed verification on the target: its rows are not measured",
			ca->name, ca->impl);
		return hil_rn_add_failed_row(&c->journal, c->run, subject,
					     why) != NULL
			       ? HIL_OK
			       : HIL_ERR_NOMEM;
	}
	*go = 1;
	return HIL_OK;
}

int hil_rn_measure(struct run_ctx *c)
{
	const struct hil_config *cfg = c->run->cfg;
	size_t a;
	int ret;

	if (c->n_subj < cfg->n_algs) {
		/* Only a fresh context, or one image_done() emptied. */
		free(c->subj);
		c->n_subj = 0;
		c->subj = calloc(cfg->n_algs, sizeof(*c->subj));
		if (c->subj == NULL) {
			return HIL_ERR_NOMEM;
		}
		c->n_subj = cfg->n_algs;
	}
	hil_rn_prepare_subjects(c->subj, &c->target, c->run, c->opts);
	ret = check_ops(c->subj, c->run);
	if (ret != HIL_OK) {
		return ret;
	}
	plan(c);
	for (a = 0; a < cfg->n_algs; a++) {
		const struct hil_config_alg *ca = &cfg->algs[a];
		int index =
			hil_rn_find_target_alg(&c->target, ca->name, ca->impl);
		int go;

		if (c->journal.ret != HIL_OK) {
			return c->journal
				.ret; /* a failed row was not recorded */
		}
		if (hil_rn_stopping(c->opts)) {
			return HIL_ERR_INTERRUPTED;
		}
		ret = verify_step(c, a, index, &go);
		if (ret != HIL_OK) {
			return ret;
		}
		if (!go) {
			continue; /* its row says why */
		}
		/* Also the progress a log without a terminal gets. */
		hil_info(
			"%s/%s verified on the target against: %s (%zu of %zu rows done)",
			ca->name, ca->impl, hil_rn_check_name(&c->subj[a]),
			c->run->n_rows, c->progress.planned);
		ret = measure_alg(c, &c->subj[a], index);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	return c->journal.ret;
}
