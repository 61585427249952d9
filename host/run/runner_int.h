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
struct hil_session;

/* ---- the run's parts, each with one owner (the file named) */

/* runner_target.c: the target the rows are measured on, its table of
 * implementations, what their calls were seen to cost, and what its link
 * lost. */
struct rn_target {
	struct hil_target_conn conn;
	struct hilp_alg_info algs[HIL_TARGET_MAX_ALGS];
	size_t n_algs;
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

/* runner_journal.c: the journal rows are written to, and the rows an
 * earlier attempt left in it (--resume). */
struct rn_journal {
	int fd;
	char path[HIL_PATH + 16];
	/* HIL_ERR_IO once a journal row could not be written (a full disk):
	 * measuring stops at once, nothing more is reported measured. */
	int ret;
	struct hil_row *resumed; /* rows kept from the journal (--resume) */
	size_t n_resumed;
	size_t used_resumed;
};

/* runner_subject.c: one configured implementation and what it is checked
 * against. */
struct rn_subject {
	struct registry_alg alg;
	int ret; /* HIL_OK, or why it cannot be */
	enum subj_check {
		CHECK_HOST, /* against a host build (bundled, or its own) */
		CHECK_KAT,  /* its KAT file and a round trip only */
		CHECK_NONE  /* a round trip only: rows unverified */
	} check;
	char kat[HIL_CFG_STR]; /* "" for none */
	/* When ret fails; when its checks on the target failed, which and
	 * how (runner_verify.c, while explain is set). */
	char why[HIL_ROW_ERR];
	int explain;	       /* its checks now run: a failure says why */
	struct hil_ownref own; /* its host build, when loaded */
};

/* runner_energy.c: what measures beside the counter. */
struct rn_meters {
	struct hil_cyclemodel_reader *model; /* NULL: no cycle model */
	double model_overhead;		     /* of the latest calibration */
	struct hil_sensor *sensor;	     /* NULL: energy not measured */
	struct hil_energyrun *energy; /* its sampler, once the target is up */
};

/* runner_progress.c: how many rows the run will have, and the line. */
struct rn_progress {
	size_t planned;		   /* rows this run will have */
	struct run_progress *line; /* NULL: no progress line */
};

/* Everything one run holds open, as its parts; closed in reverse order.
 * Only the walk holds it (runner.c, and runner_measure.c for an image's
 * rows); every step takes the parts it uses. */
struct run_ctx {
	const struct hil_runner_opts *opts;
	struct hil_run *run;
	struct rn_target target;
	struct rn_journal journal;
	/* One per configured implementation of the image being measured
	 * (hil_rn_measure() makes them, image_done() frees them). */
	struct rn_subject *subj;
	size_t n_subj;
	struct rn_meters meters;
	struct rn_progress progress;
};

/* ---- runner.c: the walk of a run */

/** 1 once SIGTERM or SIGINT arrived (opts->stop): nothing more is started. */
int hil_rn_stopping(const struct hil_runner_opts *opts);

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

/** Journal run's row, synced; a failure sets j->ret. */
int hil_rn_journal_row(struct rn_journal *j, const struct hil_run *run,
		       struct hil_row *row);

/** Add to run (and journal) a row saying why ref was not measured; NULL:
 *  no memory. */
struct hil_row *hil_rn_add_failed_row(struct rn_journal *j, struct hil_run *run,
				      const struct registry_alg *ref,
				      const char *why);

/** Move the journal's row of these settings into run: 1 taken, 0 none,
 *  -1 no memory. */
int hil_rn_take_resumed(struct rn_journal *j, struct hil_run *run,
			const struct registry_alg *ref, uint8_t op,
			uint32_t len, uint32_t ad_len);

/* ---- runner_target.c */

/**
 * Open the link of cfg to the target fl started, on what the link driver
 * says it needs (a serial port by name, QEMU's socket by the flasher's
 * path, or the flasher's descriptor for semihosting).
 * @param out receives the link; the caller closes it.
 */
int hil_rn_open_link(const struct hil_config *cfg, struct hil_flasher *fl,
		     struct hil_link **out);

/* ---- runner_image.c: provenance, sizes, the cycle-model plugin */

/** The tool's git commit and whether its tree is dirty, into run. */
void hil_rn_git_provenance(const char *root, struct hil_run *run);

/** The host's name ($HILRUN_HOST, else the machine's) and its system
 *  (uname), into run: what hilrun run and hilrun pq both state. */
void hil_rn_host_provenance(struct hil_run *run);

/* Flash bytes below which an image cannot be a stub (the smallest is some
 * 4 KB): the build produced nothing to run. */
#define HIL_RN_MIN_STUB_FLASH 1024u

/** The image's identity: build-id, SHA-256, compiler and sizes of elf,
 *  into run (what hilrun run and hilrun pq both record of an image).
 *  @return HIL_OK, an ELF error, or HIL_ERR_BUILD (no build-id). */
int hil_rn_elf_identity(const char *elf, struct hil_run *run);

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

/** Reset, else restart, t's target and check its image (run's).
 *  @return HIL_OK. */
int hil_rn_recover(struct rn_target *t, struct hil_run *run,
		   const struct hil_runner_opts *opts);

/** 1 when ret means the board or its link, not the work, was lost. */
int hil_rn_board_lost(const struct rn_target *t, int ret);

/** 1 when run's last row, just measured, is to be measured again. */
int hil_rn_worth_again(const struct rn_target *t, const struct hil_run *run,
		       int ret);

/** Recover if need be and drop run's failed last row before measuring it
 *  again. */
int hil_rn_prepare_again(struct rn_target *t, struct hil_run *run,
			 const struct hil_runner_opts *opts, int ret);

/* Times a verification or a row lost to the link or the board is checked
 * or measured again, each after the recovery ladder. */
#define HIL_RN_LINK_AGAIN 3

/**
 * After a call failed with ret: note in t->loss whether it was lost to the
 * link (a timeout although the target answered, damaged, in some attempt)
 * rather than to a target that answers nothing; run's counters so far go
 * into the evidence. Call it before the session is replaced.
 * @return 1 when it was the link's.
 */
int hil_rn_note_loss(struct rn_target *t, const struct hil_run *run, int ret);

/** The row's error for loss, the evidence included; sets its flag and
 *  marks run transient. */
void hil_rn_mark_link_failed(const struct link_loss *loss, struct hil_run *run,
			     struct hil_row *row, const char *during);

/* ---- runner_subject.c: what each implementation is checked against */

/** The index of name/impl in t's table, or -1. */
int hil_rn_find_target_alg(const struct rn_target *t, const char *name,
			   const char *impl);

/** 1 when the image's implementation has the reference's parameters. */
int hil_rn_same_api(const struct hilp_alg_info *t,
		    const struct registry_alg *r);

/** Why the build of run's image left ca out, or NULL when it is in. */
const char *hil_rn_excluded_why(const struct hil_run *run,
				const struct hil_config_alg *ca);

/** Fill subj[a] for every configured implementation a of run->cfg, from
 *  t's table. */
void hil_rn_prepare_subjects(struct rn_subject *subj, const struct rn_target *t,
			     const struct hil_run *run,
			     const struct hil_runner_opts *opts);

/* ---- runner_verify.c: the checks before timing */

/** What s was checked against, for row.verified_by. */
const char *hil_rn_check_name(const struct rn_subject *s);

/** Verify s, the implementation ca at index of t's table, so that only its
 *  own failures count (the recovery ladder between attempts). */
int hil_rn_verify_believed(struct rn_target *t, struct rn_subject *s,
			   const struct hil_config_alg *ca, int index,
			   struct hil_run *run,
			   const struct hil_runner_opts *opts);

/* ---- runner_row.c: one row */

/* The settings of one row: the implementation's index in the target's
 * table, the operation (HILP_OP_*) and the lengths. */
struct rn_point {
	int index;
	uint8_t op;
	uint32_t len;
	uint32_t ad_len;
};

/** 1 when s carries host functions to check the target against. */
int hil_rn_has_host(const struct rn_subject *s);

/* hil_ref_run() and hil_ref_bench_digest() of subject s: bundled code
 * here, a user's folder by its host build's own process (image/ownref.h). */
int hil_rn_ref_run(struct rn_subject *s, uint8_t op, const uint8_t *key,
		   const uint8_t *npub, const uint8_t *ad, size_t adlen,
		   const uint8_t *msg, size_t msglen, size_t xof_len,
		   uint8_t *out, size_t cap, size_t *out_len, int *rejected);
int hil_rn_ref_digest(struct rn_subject *s, uint8_t op, size_t msg_len,
		      size_t ad_len, size_t xof_len, unsigned runs,
		      uint32_t seed, uint32_t *digest);

/** "encrypt", "decrypt", "keysetup" or "hash". */
const char *hil_rn_op_name(uint8_t op);

/** Note one call's count on t, which sizes later BENCH timeouts. */
void hil_rn_work_note(struct rn_target *t, int index, uint8_t op,
		      uint32_t bytes, uint64_t count);

/**
 * Measure row, just added to run, at pt for subject s on t's target, with
 * the meters m: its fields, the BENCH, statistics, the cycle model's
 * figures, the leak test and the energy. The caller journals it.
 * @return HIL_OK (also for a row that failed its digest), or the error
 *         that stopped it (a hang, a fault, a lost link: recover).
 */
int hil_rn_measure_row(struct rn_target *t, struct rn_subject *s,
		       struct rn_meters *m, const struct hil_run *run,
		       const struct rn_point *pt, struct hil_row *row);

/* ---- runner_progress.c: where a long run is, and how long it has left */

/**
 * Start the progress line for the rows of this image (a terminal only, at
 * -v and above): the ETA from last_s (the last complete run's working
 * time; < 0: none) and the rows' work, redrawn every second so that the
 * elapsed time moves during a long row.
 */
void hil_rn_progress_start(struct rn_progress *p, const struct rn_target *t,
			   const struct hil_run *run,
			   const struct hil_runner_opts *opts, double last_s);

/** The row about to be measured (subject ref at pt, of the subjects subj):
 *  the line says which and what is left. */
void hil_rn_progress(struct rn_progress *p, const struct rn_target *t,
		     const struct rn_subject *subj, const struct hil_run *run,
		     const struct registry_alg *ref, const struct rn_point *pt);

/** Stop redrawing and clear the progress line. */
void hil_rn_progress_done(struct rn_progress *p);

/** A row's work for the ETA (calls x ticks of one call, from t's work). */
double hil_rn_row_work(const struct rn_target *t, const struct hil_config *cfg,
		       int index, uint8_t op, uint32_t len, uint32_t ad_len);

/* ---- runner_energy.c: the meters beside the counter */

/** Open run's configured sensor into m, or record why energy is not
 *  measured. */
int hil_rn_sensor_open(struct rn_meters *m, struct hil_run *run);

/** The meters of one image, once its target is up: m's sampler (a sensor
 *  open) and the cycle model's reader (run->model.enabled; cleared, with
 *  its why, when its records cannot be read). */
int hil_rn_meters_start(struct rn_meters *m, struct hil_run *run);

/** Stop what hil_rn_meters_start started (the sensor stays open). */
void hil_rn_meters_stop(struct rn_meters *m);

/** Read the cycle model's new records for its calibration. */
void hil_rn_model_drain(struct rn_meters *m, const struct hil_run *run);

/** The model's cycles of row's timed runs (raw: their counts), when the
 *  records match them one for one. */
void hil_rn_model_row(const struct rn_meters *m, struct hil_row *row,
		      const uint32_t *raw);

/** The row's energy, after its cycles, on session. */
int hil_rn_measure_energy(struct rn_meters *m, struct hil_session *session,
			  struct rn_subject *s, uint8_t op,
			  const struct hilp_bench_req *b, struct hil_row *row);

/* ---- runner_measure.c: one image's implementations */

/** The work of every row this image plans (hil_rn_row_work). */
double hil_rn_plan_work(const struct rn_subject *subj,
			const struct rn_target *t, const struct hil_run *run);

/** Verify and measure every configured implementation of the image. */
int hil_rn_measure(struct run_ctx *c);

#endif /* HIL_RUNNER_INT_H */
