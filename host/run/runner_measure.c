/* runner_measure: measures one image's implementations: each verified, then its rows walked, a row measured again or the target recovered when the link or the board failed. */
#define HIL_LOG_PREFIX "runner"
#include "runner_int.h"

#include <stdio.h>
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
static void mark_interrupted(struct run_ctx *c, size_t before)
{
	struct hil_row *row;
	char was[HIL_ROW_ERR];

	if (c->run->n_rows <= before) {
		return;
	}
	row = &c->run->rows[c->run->n_rows - 1];
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
 * One row, measured again when it failed in a way that may not be its own
 * (hil_rn_worth_again): once after a failure on a link that damages frames,
 * up to HIL_RN_LINK_AGAIN times after the recovery ladder when the board or
 * the link was lost. A row still lost to the link, with the target answering
 * damaged frames, is marked a link failure, never the implementation's.
 * @return the last measurement's code; HIL_ERR_INTERRUPTED on a stop.
 */
static int measure_point(struct run_ctx *c, int index,
			 const struct registry_alg *ref, int verified,
			 uint8_t op, uint32_t len, uint32_t ad)
{
	unsigned again;
	int ret;

	memset(&c->loss, 0, sizeof(c->loss));
	ret = hil_rn_measure_row(c, index, ref, verified, op, len, ad);
	for (again = 0;; again++) {
		int lost, link;

		if (c->journal_ret != HIL_OK) {
			return c->journal_ret;
		}
		if (hil_rn_stopping(c)) {
			return HIL_ERR_INTERRUPTED;
		}
		lost = hil_rn_board_lost(c, ret);
		link = hil_rn_note_loss(c, ret);
		if (!hil_rn_worth_again(c, ret) ||
		    again >= (lost || link ? HIL_RN_LINK_AGAIN : 1u)) {
			break;
		}
		ret = hil_rn_prepare_again(c, ret);
		if (ret != HIL_OK) {
			return ret;
		}
		ret = hil_rn_measure_row(c, index, ref, verified, op, len, ad);
	}
	if (ret == HIL_ERR_TIMEOUT && c->loss.last_link && c->run->n_rows > 0) {
		hil_rn_mark_link_failed(c, &c->run->rows[c->run->n_rows - 1],
					"while it was measured");
	}
	return ret;
}

static int measure_alg(struct run_ctx *c, int index,
		       const struct registry_alg *ref, int verified)
{
	const struct hil_config *cfg = c->run->cfg;
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
				uint32_t len = ops[o] == HILP_OP_KEYSETUP
						       ? 0
						       : cfg->bench.lengths[l];
				uint32_t ad = ref->kind == HILP_KIND_AEAD
						      ? cfg->bench.ad_lengths[d]
						      : 0;

				if (hil_rn_stopping(c)) {
					return HIL_ERR_INTERRUPTED;
				}
				if (ref->kind == HILP_KIND_BLOCK &&
				    len % ref->blockbytes != 0) {
					hil_warn(
						"%s/%s: %u bytes is not a whole number of %u-byte blocks: skipped",
						ref->name, ref->impl,
						(unsigned)len, ref->blockbytes);
					continue;
				}
				before = c->run->n_rows;
				ret = measure_point(c, index, ref, verified,
						    ops[o], len, ad);
				if (ret == HIL_ERR_INTERRUPTED) {
					mark_interrupted(c, before);
					return ret;
				}
				if (c->journal_ret != HIL_OK) {
					return c->journal_ret;
				}
				if (ret == HIL_ERR_NOMEM) {
					return ret;
				}
				if (ret == HIL_ERR_TIMEOUT ||
				    ret == HIL_ERR_IO ||
				    ret == HIL_ERR_TARGET_FAULT) {
					/* That row is recorded as failed; bring
					 * the target back for the next one. */
					ret = hil_rn_recover(c);
					if (ret != HIL_OK) {
						return ret;
					}
				}
			}
		}
	}
	return HIL_OK;
}

/* How many rows the configuration asks for (for the progress line). */
static size_t plan_rows(const struct run_ctx *c)
{
	const struct hil_config *cfg = c->run->cfg;
	size_t a, n = 0;

	for (a = 0; a < cfg->n_algs; a++) {
		const struct registry_alg *subject = &c->subj[a];
		uint8_t ops[4];
		size_t o, k;

		if (c->subj_ret[a] != HIL_OK) {
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

double hil_rn_plan_work(const struct run_ctx *c)
{
	const struct hil_config *cfg = c->run->cfg;
	double sum = 0.0;
	size_t a, o, l, d;

	for (a = 0; a < cfg->n_algs; a++) {
		const struct registry_alg *subject = &c->subj[a];
		int index = hil_rn_find_target_alg(c, cfg->algs[a].name,
						   cfg->algs[a].impl);
		uint8_t ops[4];
		size_t k;

		if (c->subj_ret[a] != HIL_OK) {
			continue;
		}
		k = ops_for(cfg, subject, ops);
		for (o = 0; o < k; o++) {
			size_t n_ad = subject->kind == HILP_KIND_AEAD
					      ? cfg->bench.n_ad_lengths
					      : 1;

			if (ops[o] == HILP_OP_KEYSETUP) {
				sum += hil_rn_row_work(c, index, ops[o], 0, 0);
				continue;
			}
			for (d = 0; d < n_ad; d++) {
				for (l = 0; l < cfg->bench.n_lengths; l++) {
					sum += hil_rn_row_work(
						c, index, ops[o],
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

int hil_rn_measure(struct run_ctx *c)
{
	const struct hil_config *cfg = c->run->cfg;
	size_t a;
	int ret;

	hil_rn_prepare_subjects(c);
	/* An operation list that gives an algorithm nothing to do is a
	 * mistake in the configuration, not a run that measured it. */
	for (a = 0; a < cfg->n_algs; a++) {
		uint8_t ops[4];

		if (c->subj_ret[a] == HIL_OK &&
		    ops_for(cfg, &c->subj[a], ops) == 0) {
			return hil_rn_config_error(
				c->run,
				"%s: algorithms[%zu] %s/%s: bench.operations names nothing it can do (it does: %s), so nothing of it would be measured",
				cfg->path[0]
					? cfg->path
					: "the configuration (command-line options)",
				a, cfg->algs[a].name, cfg->algs[a].impl,
				c->subj[a].kind == HILP_KIND_AEAD
					? "encrypt, decrypt"
				: c->subj[a].kind == HILP_KIND_BLOCK
					? "encrypt, with its key setup"
					: "hash");
		}
	}
	/* Rows of earlier images (a split selection) count as done. */
	c->planned = c->run->n_rows + plan_rows(c);
	c->run->rows_planned = c->planned;
	c->started_ms = hil_now_ms();
	/* What to expect, before it starts: the last such run's time. */
	{
		char db[HIL_PATH + 32], kept[96] = "";
		size_t todo = c->planned - c->run->n_rows;
		long secs;

		snprintf(db, sizeof(db), "%s/%s", c->opts->results_dir,
			 HIL_HISTORY_FILE);
		secs = hil_history_last_seconds(db, cfg->name);
		/* A resume: the journal's rows of this image are kept, not
		 * measured again (those of other settings are). */
		if (c->n_resumed > 0) {
			size_t k = c->n_resumed < todo ? c->n_resumed : todo;

			snprintf(kept, sizeof(kept),
				 " (%zu of %zu kept from the journal)", k,
				 todo);
			todo -= k;
		}
		hil_rn_progress_start(c, secs >= 0 && c->run->n_images == 0
						 ? (double)secs
						 : -1.0);
		if (secs >= 0 && c->run->n_images == 0) {
			hil_info(
				"%zu row%s to measure%s; the last complete run of %s took %ld min %02ld s",
				todo, todo == 1 ? "" : "s", kept, cfg->name,
				secs / 60, secs % 60);
		} else {
			hil_info("%zu row%s to measure%s", todo,
				 todo == 1 ? "" : "s", kept);
		}
	}
	for (a = 0; a < cfg->n_algs; a++) {
		const struct hil_config_alg *ca = &cfg->algs[a];
		struct registry_alg *subject = &c->subj[a];
		int index = hil_rn_find_target_alg(c, ca->name, ca->impl);

		if (c->journal_ret != HIL_OK) {
			return c->journal_ret; /* a failed row was not recorded */
		}
		if (hil_rn_stopping(c)) {
			return HIL_ERR_INTERRUPTED;
		}
		if (c->subj_ret[a] == HIL_ERR_CONFIG) {
			return hil_rn_config_error(c->run, "%s/%s: %s",
						   ca->name, ca->impl,
						   c->why[a]);
		}
		if (index < 0 && c->subj_ret[a] != HIL_ERR_BUILD) {
			hil_err("%s/%s is not in the target image", ca->name,
				ca->impl);
			return HIL_ERR_MISMATCH;
		}
		if (c->subj_ret[a] != HIL_OK) {
			hil_err("%s/%s %s: its rows are not measured", ca->name,
				ca->impl, c->why[a]);
			if (hil_rn_add_failed_row(c, subject, c->why[a]) ==
			    NULL) {
				return HIL_ERR_NOMEM;
			}
			continue;
		}
		if (!hil_rn_same_api(&c->algs[index], subject)) {
			hil_err("%s/%s: its api.h (kind %u, key %u, nonce %u, tag %u, block %u) is not that of %s",
				ca->name, ca->impl, c->algs[index].kind,
				c->algs[index].keybytes,
				c->algs[index].npubbytes, c->algs[index].abytes,
				c->algs[index].blockbytes, ca->name);
			ret = HIL_ERR_VERIFY;
		} else {
			ret = hil_rn_verify_believed(c, a, index);
		}
		if (ret == HIL_ERR_INTERRUPTED || hil_rn_stopping(c)) {
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
			int link = ret == HIL_ERR_TIMEOUT && c->loss.last_link;
			const struct hil_session_fault *f =
				hil_session_get_fault(c->conn.session);
			char fault[HIL_ROW_ERR] = "";
			struct hil_row *row;

			/* What the fault was and where, before the recovery
			 * forgets it. */
			if (ret == HIL_ERR_TARGET_FAULT && f->seen) {
				char d[HIL_ROW_ERR - 64];

				hil_fault_describe(f->pc, f->cfsr,
						   c->run->fw.elf, d,
						   sizeof(d));
				snprintf(fault, sizeof(fault), ": %s", d);
			}
			if (hil_rn_recover(c) != HIL_OK) {
				return ret;
			}
			if (!link) {
				hil_err("%s/%s %s during verification on the target%s: its rows are not measured",
					ca->name, ca->impl, what, fault);
			}
			snprintf(c->why[a], sizeof(c->why[a]),
				 "%s during verification on the target%s", what,
				 fault);
			if (link) {
				/* The target answered, damaged, every time:
				 * the link failed, not the implementation
				 * (the journal's copy is failed all the same:
				 * --resume measures it again). */
				struct hil_row tmp;

				memset(&tmp, 0, sizeof(tmp));
				snprintf(tmp.algorithm, sizeof(tmp.algorithm),
					 "%s", ca->name);
				snprintf(tmp.implementation,
					 sizeof(tmp.implementation), "%s",
					 ca->impl);
				tmp.operation = "verify";
				hil_rn_mark_link_failed(c, &tmp,
							"during verification");
				snprintf(c->why[a], sizeof(c->why[a]), "%s",
					 tmp.error);
			}
			row = hil_rn_add_failed_row(c, subject, c->why[a]);
			if (row == NULL) {
				return HIL_ERR_NOMEM;
			}
			row->link_failed = link;
			continue;
		}
		if (ret != HIL_OK) {
			char why[HIL_ROW_ERR];

			/* The KAT's reason when it was a KAT vector
			 * (runner_verify), else the checks' log says which. */
			snprintf(why, sizeof(why),
				 "failed verification on the target%s%s",
				 c->why[a][0] ? ": " : "", c->why[a]);
			hil_err("%s/%s failed verification on the target: its rows are not measured",
				ca->name, ca->impl);
			if (hil_rn_add_failed_row(c, subject, why) == NULL) {
				return HIL_ERR_NOMEM;
			}
			continue;
		}
		/* Also the progress a log without a terminal gets. */
		hil_info(
			"%s/%s verified on the target against: %s (%zu of %zu rows done)",
			ca->name, ca->impl, hil_rn_check_name(c, a),
			c->run->n_rows, c->planned);
		c->alg_check = hil_rn_check_name(c, a);
		ret = measure_alg(c, index, subject, c->check[a] != CHECK_NONE);
		c->alg_check = NULL;
		if (ret != HIL_OK) {
			return ret;
		}
	}
	return c->journal_ret;
}
