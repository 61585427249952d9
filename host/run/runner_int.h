/* runner_int: the run context and the functions the runner's pieces share (not a public API). */
#ifndef HIL_RUNNER_INT_H
#define HIL_RUNNER_INT_H

#include <stddef.h>
#include <stdint.h>

#include "hilp.h"
#include "image/ownref.h"
#include "runner.h"
#include "session/stub.h"

struct hil_cyclemodel_reader;
struct hil_energyrun;
struct hil_sensor;

/* Everything one run holds open; closed in reverse order by run_close. */
struct run_ctx {
	const struct hil_runner_opts *opts;
	struct hil_run *run;
	struct hil_target_conn conn;
	int journal_fd;
	char journal_path[HIL_PATH + 16];
	/* HIL_ERR_IO once a journal row could not be written (a full disk):
	 * measuring stops at once, nothing more is reported measured. */
	int journal_ret;
	struct hilp_alg_info algs[HIL_TARGET_MAX_ALGS];
	size_t n_algs;
	size_t planned;		       /* rows this run will have */
	long long started_ms;	       /* for the progress line */
	struct run_progress *progress; /* NULL: no progress line */
	struct hil_row *resumed; /* rows kept from the journal (--resume) */
	size_t n_resumed;
	size_t used_resumed;
	struct hil_cyclemodel_reader *model; /* NULL: no cycle model */
	double model_overhead;		     /* of the latest calibration */
	struct hil_sensor *sensor;	     /* NULL: energy not measured */
	struct hil_energyrun *energy; /* its sampler, once the target is up */
	/* Per configured algorithm: what it is checked against. */
	struct registry_alg subj[HIL_CFG_MAX_ALGS];
	int subj_ret[HIL_CFG_MAX_ALGS]; /* HIL_OK, or why it cannot be */
	enum subj_check {
		CHECK_HOST, /* against a host build (bundled, or its own) */
		CHECK_KAT,  /* its KAT file and a round trip only */
		CHECK_NONE  /* a round trip only: rows unverified */
	} check[HIL_CFG_MAX_ALGS];
	char kat[HIL_CFG_MAX_ALGS][HIL_CFG_STR]; /* "" for none */
	char why[HIL_CFG_MAX_ALGS][HIL_ROW_ERR]; /* when subj_ret fails */
	const char *alg_check; /* the rows now measured: row.verified_by */
	/* Where the check now running says why it failed (c->why[a]), or
	 * NULL: the failed row's reason. */
	char *verify_why;
	struct hil_ownref own[HIL_CFG_MAX_ALGS]; /* host builds loaded */
	/* Per algorithm of the image and operation (HILP_OP_*): the counter
	 * value of one call already seen, in verification or at an earlier
	 * length, at the largest input seen (message plus associated data):
	 * what a BENCH's timeout is sized from (work_timeout_ms). */
	struct work_seen {
		uint64_t count;
		uint32_t bytes;
		int seen;
	} work[HIL_TARGET_MAX_ALGS][HILP_OP_KEYSETUP + 1];
	/* What the link did to the calls that failed in the verification or
	 * row now measured, noted before the recovery ladder replaces the
	 * session (hil_rn_note_loss): the evidence of a link failure. */
	struct link_loss {
		unsigned calls;	     /* calls that failed after every attempt */
		unsigned damaged;    /* their attempts answered damaged */
		unsigned late;	     /* their attempts that heard no reply */
		unsigned silent;     /* their attempts that heard nothing */
		unsigned bad_frames; /* the run's so far, at the last one */
		unsigned retries;
		int last_link; /* the latest failure was the link's */
	} loss;
};

/* ---- runner.c: the walk of a run */

/** 1 once SIGTERM or SIGINT arrived: nothing more is started. */
int hil_rn_stopping(const struct run_ctx *c);

/** Log a configuration mistake and keep it in run->error (result files
 *  quote it). @return HIL_ERR_CONFIG. */
int hil_rn_config_error(struct hil_run *run, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ---- runner_journal.c: the run folder and its journal */

/** Point results/latest at the run, replaced atomically. */
void hil_rn_point_latest(const struct hil_runner_opts *opts,
			 const struct hil_run *run);

/** Write run.json, what --resume needs. @return HIL_OK or the error. */
int hil_rn_write_run_file(const struct hil_run *run);

/**
 * A resumed run's origin, from its folder: the first start's time and
 * configuration path as given (run.json, else the last report), and the
 * earlier attempts' working time (the last report's timing.total_s). What
 * is not found is left as it is (the resume's own time, cfg->path).
 */
void hil_rn_resume_origin(struct hil_run *run);

/** Journal the row, synced; a failure sets c->journal_ret. */
int hil_rn_journal_row(struct run_ctx *c, struct hil_row *row);

/** Add (and journal) a row saying why ref was not measured; NULL: no memory. */
struct hil_row *hil_rn_add_failed_row(struct run_ctx *c,
				      const struct registry_alg *ref,
				      const char *why);

/** Take the journal's row of these settings: 1 taken, 0 none, -1 no memory. */
int hil_rn_take_resumed(struct run_ctx *c, const struct registry_alg *ref,
			uint8_t op, uint32_t len, uint32_t ad_len);

/* ---- runner_image.c: provenance, sizes, the cycle-model plugin */

/** The tool's git commit and whether its tree is dirty, into run. */
void hil_rn_git_provenance(const char *root, struct hil_run *run);

/* Flash bytes below which an image cannot be a stub (the smallest is some
 * 4 KB): the build produced nothing to run. */
#define HIL_RN_MIN_STUB_FLASH 1024u

/** Build-id, hash, compiler and sizes of run->fw.elf and its map;
 *  HIL_ERR_BUILD for an image too small to be a stub. */
int hil_rn_image_info(struct hil_run *run);

/** Set run->model: whether and how QEMU models cycles, or why not. */
void hil_rn_model_plugin(const struct hil_config *cfg, const char *root,
			 struct hil_run *run);

/* ---- runner_target.c: bring-up, take-down, the recovery ladder */

/** hil_runner_bring_up() with hil_build_firmware_ex() flags. */
int hil_rn_bring_up(const struct hil_config *cfg,
		    const struct hil_runner_opts *opts, struct hil_run *run,
		    struct hil_target_conn *conn, unsigned build_flags);

/** Reset, else restart, the target and check its image. @return HIL_OK. */
int hil_rn_recover(struct run_ctx *c);

/** 1 when ret means the board or its link, not the work, was lost. */
int hil_rn_board_lost(const struct run_ctx *c, int ret);

/** 1 when the row just measured is to be measured again. */
int hil_rn_worth_again(const struct run_ctx *c, int ret);

/** Recover if need be and drop the failed row before measuring it again. */
int hil_rn_prepare_again(struct run_ctx *c, int ret);

/* Times a verification or a row lost to the link or the board is checked
 * or measured again, each after the recovery ladder. */
#define HIL_RN_LINK_AGAIN 3

/**
 * After a call failed with ret: note in c->loss whether it was lost to the
 * link (a timeout although the target answered, damaged, in some attempt)
 * rather than to a target that answers nothing. Call it before the session
 * is replaced. @return 1 when it was the link's.
 */
int hil_rn_note_loss(struct run_ctx *c, int ret);

/** The row's error for c->loss, the evidence included; sets its flag. */
void hil_rn_mark_link_failed(struct run_ctx *c, struct hil_row *row,
			     const char *during);

/* ---- runner_subject.c: what each implementation is checked against */

/** The index of name/impl in the target's table, or -1. */
int hil_rn_find_target_alg(const struct run_ctx *c, const char *name,
			   const char *impl);

/** 1 when the image's implementation has the reference's parameters. */
int hil_rn_same_api(const struct hilp_alg_info *t,
		    const struct registry_alg *r);

/** Why the build left ca out of the image, or NULL when it is in. */
const char *hil_rn_excluded_why(const struct run_ctx *c,
				const struct hil_config_alg *ca);

/** Fill c->subj, subj_ret, check, kat and why for every configured one. */
void hil_rn_prepare_subjects(struct run_ctx *c);

/* ---- runner_verify.c: the checks before timing */

/** What implementation a was checked against, for row.verified_by. */
const char *hil_rn_check_name(const struct run_ctx *c, size_t a);

/** Verify implementation a (target index) so that only its own failures count. */
int hil_rn_verify_believed(struct run_ctx *c, size_t a, int index);

/* ---- runner_row.c: one row */

/** 1 when ref carries host functions to check the target against. */
int hil_rn_has_host(struct run_ctx *c, const struct registry_alg *ref);

/* hil_ref_run() and hil_ref_bench_digest() of subject ref: bundled code
 * here, a user's folder by its host build's own process (image/ownref.h). */
int hil_rn_ref_run(struct run_ctx *c, const struct registry_alg *ref,
		   uint8_t op, const uint8_t *key, const uint8_t *npub,
		   const uint8_t *ad, size_t adlen, const uint8_t *msg,
		   size_t msglen, size_t xof_len, uint8_t *out, size_t cap,
		   size_t *out_len, int *rejected);
int hil_rn_ref_digest(struct run_ctx *c, const struct registry_alg *ref,
		      uint8_t op, size_t msg_len, size_t ad_len, size_t xof_len,
		      unsigned runs, uint32_t seed, uint32_t *digest);

/** "encrypt", "decrypt", "keysetup" or "hash". */
const char *hil_rn_op_name(uint8_t op);

/** Note one call's count, which sizes later BENCH timeouts. */
void hil_rn_work_note(struct run_ctx *c, int index, uint8_t op, uint32_t bytes,
		      uint64_t count);

/* ---- runner_progress.c: where a long run is, and how long it has left */

/**
 * Start the progress line for the rows of this image (a terminal only, at
 * -v and above): the ETA from last_s (the last complete run's working
 * time; < 0: none) and the rows' work, redrawn every second so that the
 * elapsed time moves during a long row.
 */
void hil_rn_progress_start(struct run_ctx *c, double last_s);

/** The row about to be measured: the line says which and what is left. */
void hil_rn_progress(struct run_ctx *c, int index,
		     const struct registry_alg *ref, uint8_t op, uint32_t len,
		     uint32_t ad_len);

/** Stop redrawing and clear the progress line. */
void hil_rn_progress_done(struct run_ctx *c);

/** A row's work for the ETA (calls x ticks of one call). */
double hil_rn_row_work(const struct run_ctx *c, int index, uint8_t op,
		       uint32_t len, uint32_t ad_len);

/* ---- runner_measure.c */

/** The work of every row this image plans (hil_rn_row_work). */
double hil_rn_plan_work(const struct run_ctx *c);

/** Read the cycle model's new records for its calibration. */
void hil_rn_model_drain(struct run_ctx *c);

/** Measure (or take from the journal) one row and journal it. */
int hil_rn_measure_row(struct run_ctx *c, int index,
		       const struct registry_alg *ref, int verified, uint8_t op,
		       uint32_t len, uint32_t ad_len);

/* ---- runner_energy.c: the energy phase */

/** Open the configured sensor, or record why energy is not measured. */
int hil_rn_sensor_open(struct run_ctx *c);

/** Start the sampler once the target is up. */
int hil_rn_energy_start(struct run_ctx *c);

/** The row's energy, after its cycles. */
int hil_rn_measure_energy(struct run_ctx *c, const struct registry_alg *ref,
			  uint8_t op, const struct hilp_bench_req *b,
			  struct hil_row *row);

/* ---- runner_measure.c: one image's implementations */

/** Verify and measure every configured implementation of the image. */
int hil_rn_measure(struct run_ctx *c);

#endif /* HIL_RUNNER_INT_H */
