/* run: what one run measured and where it came from: the model the report is written from. */
#ifndef HIL_RUN_H
#define HIL_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "image/build.h"
#include "config/config.h"
#include "result/estimate.h"
#include "hilp.h"
#include "image/mapsizes.h"
#include "session/session.h"
#include "stats.h"

#define HIL_ROW_ERR  512
/* An algorithm's or implementation's name in a row: as long as the
 * protocol's (HILP_ALG_NAME_MAX, 63 characters), for pqm4's scheme names
 * such as sphincs-shake-128f-simple and NIST's long variant names. */
#define HIL_ROW_NAME HIL_IMPL_NAME

/* Whether a row's energy was measured. */
enum hil_energy_state {
	HIL_ENERGY_NONE = 0, /* not asked for (no sensor) */
	HIL_ENERGY_OK,
	HIL_ENERGY_FAILED, /* asked for, did not succeed: see error */
};

/* Energy per operation of one row, from the sensor's windows. */
struct hil_row_energy {
	enum hil_energy_state state;
	int model;	  /* 1: a simulated sensor, never a measurement */
	double uj_per_op; /* mean active power x time of one operation */
	double uj_per_op_dynamic; /* the part above the idle baseline */
	double spread_uj;	  /* standard deviation over the windows */
	double spread_dynamic_uj;
	double idle_mw;
	double active_mw;
	double bus_v;
	double ticks_per_op; /* counter ticks of one operation in the loop */
	double op_seconds;   /* ticks_per_op / clock */
	/* 1: ticks_per_op are the cycle model's estimate of the loop's
	 * operation (an emulated board), not emulated instructions */
	int time_from_model;
	uint32_t ops_per_window;
	unsigned windows;
	uint64_t samples; /* conversions inside the active windows */
	double sample_rate_hz;
	char error[256]; /* why, when HIL_ENERGY_FAILED */
};

/* A row's estimated cycles from the Cortex-M4 model (emulated board). */
struct hil_row_model {
	int ok;		 /* the records matched the timed runs one to one */
	double *samples; /* runs values, model overhead subtracted; owned */
	struct hil_stats stats;
	double lo_median; /* medians of the lower and upper bounds: they */
	double hi_median; /* differ only where a divide's cost is unknown */
	uint64_t divides; /* over all timed runs */
	double overhead;  /* model cycles of the empty timed call */
	/* The memory system in the last timed run (warmed up like the
	 * others): flash lines read on demand by fetches and data reads
	 * (cache misses), and the distinct code and data lines touched. */
	uint64_t imiss, dmiss, ilines, dlines;
};

/* |t| above this flags a row (dudect's threshold). */
#define HIL_LEAK_T_THRESHOLD 4.5

/* One statistic of a row's leak test: Welch's t over one kind of count. */
struct hil_row_leak_stat {
	double t;	/* Welch's t, fixed class minus random class */
	int flagged;	/* |t| above HIL_LEAK_T_THRESHOLD */
	uint32_t n[2];	/* runs of the fixed [0] and random [1] class */
	double mean[2]; /* mean per class, overhead included */
	double stddev[2];
};

/*
 * A row's timing-leak smoke test (dudect: fixed against random inputs), on
 * the target's counter and, on the emulated board with the cycle model, on
 * the model's estimated cycles of the same runs. The row is flagged when
 * either is (hil_row_leak_flagged).
 */
struct hil_row_leak {
	int state;	/* 0: not run, 1: done, -1: failed (see error) */
	double t;	/* Welch's t of the counts, fixed minus random class */
	int flagged;	/* the counts' |t| above HIL_LEAK_T_THRESHOLD */
	uint32_t n[2];	/* runs of the fixed [0] and random [1] class */
	double mean[2]; /* mean count per class, overhead included */
	double stddev[2];
	char error[200];
	/* The model's cycles: 0 none, 1 done, -1 not paired (model_why) */
	int model_state;
	struct hil_row_leak_stat model;
	char model_why[160];
};

/** Is the row flagged: by its counts or by the model's cycles? */
int hil_row_leak_flagged(const struct hil_row_leak *l);

/*
 * What a post-quantum operation row (keypair, encaps, decaps; keypair,
 * sign, verify: hilrun pq, docs/pq.md) has beyond a row: the scheme's code
 * size apart from the common code, the shares of its estimated cycles in
 * SHA-2, SHA-3 and AES code, how it was verified, and its randombytes
 * stream (the row's seed is that stream's seed). Rows of other kinds have
 * present 0 and none of it.
 */
struct hil_row_pq {
	int present;   /* 1: a post-quantum operation row */
	char kind[8];  /* "kem" or "sign" */
	char rng[16];  /* "splitmix64": the randombytes stream */
	uint32_t text; /* the scheme's own objects (pqm4's rule: the */
	uint32_t data; /* common code apart), before --gc-sections */
	uint32_t bss;
	/* Percent of the operation's estimated cycles spent in the common
	 * code's SHA-2, SHA-3 (Keccak) and AES functions (docs/pq.md). */
	double sha2_pct, sha3_pct, aes_pct;
	/* How it was verified: "ok vs host build of ml-kem-768/clean",
	 * "FAILED ...", "not verified: ..." */
	char verification[256];
	uint32_t stack_capacity; /* the image's stack, bytes */
};

/* One (algorithm, implementation, operation, msg_len, ad_len) measurement. */
struct hil_row {
	char algorithm[HIL_ROW_NAME];
	char implementation[HIL_ROW_NAME];
	const char *operation; /* "encrypt", "decrypt", "hash" */
	const char *mode;      /* what is measured, e.g. "AEAD", "ECB" */
	int constant_time; /* the implementation's claim: 1, 0, -1 unstated */
	uint32_t msg_len;
	uint32_t ad_len;
	uint32_t runs;
	uint32_t warmup;
	uint32_t seed;
	double *samples; /* runs values, overhead subtracted; owned */
	struct hil_stats stats;
	uint32_t overhead; /* subtracted from every sample */
	uint32_t stack_bytes;
	int stack_known;
	int verified; /* known-answer and host comparison passed */
	/* How: "host build", "host build and KAT", "KAT (no host build)",
	 * "none (unverified)"; "" when not stated (older journals) */
	char verified_by[32];
	uint32_t digest_expected;
	uint32_t digest_got;
	int ok;		 /* measured, digest matched */
	int interrupted; /* not ok: stopped (SIGTERM/SIGINT) while measured */
	/* not ok: lost to the link (the target answered, damaged, after
	 * every retry and recovery), not the implementation's failure */
	int link_failed;
	char error[HIL_ROW_ERR]; /* why not ok */
	struct hil_row_energy energy;
	/* From the datasheet's run current when no sensor measured energy
	 * (hil_energyest_apply); not journaled, computed again each time. */
	struct hil_energy_est est;
	struct hil_row_model model;
	struct hil_row_leak leak;
	uint32_t heap_bytes; /* peak heap of one call (0: no malloc) */
	int has_normalized;  /* a reference row at this length was measured */
	double normalized;   /* median / the reference's encrypt median */
	/* The image it was measured on, when the run had several; "": the
	 * run's build_id */
	char build_id[2 * HILP_BUILD_ID_MAX + 1];
	struct hil_row_pq pq; /* a post-quantum operation's own fields */
};

/* count = fixed + per_byte * msg_len over one row series (least squares). */
struct hil_fit {
	char algorithm[HIL_ROW_NAME];
	char implementation[HIL_ROW_NAME];
	const char *operation;
	uint32_t ad_len;
	double fixed;
	double per_byte;
	double r2;
	size_t points;
};

/* The image's sizes, from the ELF. */
struct hil_image_sizes {
	unsigned long flash;	  /* text + rodata + data load image */
	unsigned long ram_static; /* data + bss, stack excluded */
	unsigned long stack_reserved;
};

/* The sensor a run used for energy, as the report states it. */
struct hil_run_sensor {
	char type[32]; /* "none" or a sensor driver's name */
	char bus[256];
	unsigned address;
	int model; /* 1: simulated ("sim:" bus) */
	double shunt_ohm;
	double max_current_a;
	uint16_t config_reg; /* as written to the chip */
	uint16_t cal_reg;
	double current_lsb_a; /* effective, after the register's truncation */
	unsigned cycle_us;    /* one shunt + bus conversion cycle */
	char why[256];	      /* when energy is not measured: why */
	char time_basis[256]; /* how the time of one operation is known */
	/* A simulated sensor: what its figures assume (its currents and
	 * voltage are the sim bus's, not a board's); "" on hardware. */
	char assumes[320];
};

/* One of the images a selection too big for one was split over. */
struct hil_run_image {
	char *algs; /* "alg/impl ..." in it, whole; owned by the run */
	char build_id[2 * HILP_BUILD_ID_MAX + 1];
	char elf_sha256[65];
	struct hil_image_sizes sizes;
};

struct hil_run {
	char id[128];
	char dir[HIL_PATH];
	/* When the run first started: a --resume keeps it (run.json). */
	char started[32];
	char finished[32];
	/* The configuration's path as the run's first start was given it
	 * (relative stays relative); "" : cfg->path. */
	char config_given[HIL_PATH];
	const char *status; /* "complete", "partial", "failed" */
	/* A mistake in the configuration the runner found (HIL_ERR_CONFIG),
	 * as logged: for result files, which quote it. "" when none. */
	char error[HIL_ROW_ERR];
	const struct hil_config *cfg;
	struct hil_firmware fw;
	char build_id[2 * HILP_BUILD_ID_MAX + 1];
	char elf_sha256[65];
	char elf_compiler[256]; /* the ELF's .comment */
	struct hil_image_sizes sizes;
	/* Every implementation's sizes, of every image (owned: freed by
	 * hil_run_free(); hil_run_add_impl_size() appends). */
	struct hil_impl_size *impl_sizes;
	size_t n_impl_sizes;
	size_t cap_impl_sizes;
	/* More than one when the selection did not fit one image: each was
	 * built, started and measured in turn (fw, build_id and sizes above
	 * are the last one's). As many as it took; owned as impl_sizes
	 * (hil_run_add_image() appends). */
	struct hil_run_image *images;
	size_t n_images;
	size_t cap_images;
	struct hilp_info info; /* what the stub reported */
	char flasher_version[256];
	char tool_commit[64];
	int tool_dirty;
	char host[256];
	char host_os[256]; /* uname: system, release, machine */
	int jailed;	   /* foreign code ran in the jail (0: --no-jail) */
	struct hil_row *rows;
	size_t n_rows;
	size_t cap_rows;
	/* Rows the run set out to measure (those of earlier images of a split
	 * selection included); 0 when it never got that far. */
	size_t rows_planned;
	struct hil_fit *fits;
	size_t n_fits;
	unsigned retries;  /* session recoveries over the run */
	unsigned requests; /* requests sent to the target (attempts: +retries) */
	/* Of which, by command byte (hil_session_stats.by_cmd). */
	unsigned requests_by_cmd[HIL_SESSION_CMD_SLOTS];
	uint64_t bytes_tx;  /* bytes the host put on the link */
	uint64_t bytes_rx;  /* bytes it read from the link */
	unsigned resets;    /* recovery ladder: target resets */
	unsigned reflashes; /* recovery ladder: image programmed again */
	/* The run failed at flashing, connecting or recovering the board in
	 * a way worth trying again (hil_err_transient): exit status 5. */
	int transient;
	/* report.json was written for this run: its tables, plots and page
	 * can be rendered from it (the caller does, after the run). */
	int reported;
	unsigned bad_frames;
	unsigned timeouts;
	struct hil_run_sensor sensor;
	/* Where the run's wall time went (make bench prints it). */
	struct {
		uint64_t build_ns; /* building the firmware (0 when current) */
		uint64_t start_ns; /* flashing or starting QEMU, handshake,
				      and the recovery ladder's restarts */
		uint64_t call_ns;  /* inside requests to the target */
		uint64_t wait_ns;  /* of which: waiting for the first byte of
				      a reply (the target computing) */
		/* BENCH waits that ran out before the reply (a late reply
		 * or a hung target), and the time spent in them: neither
		 * link nor target time (docs/report-format.md). */
		unsigned bench_timeouts;
		uint64_t bench_timeout_ns;
		uint64_t total_ns; /* the whole run (earlier attempts included) */
		/* A resumed run: the working time of its earlier attempts
		 * (their report's total; the gaps between them not counted). */
		uint64_t earlier_ns;
	} timing;
	struct {
		int enabled;	  /* the plugin was loaded for this run */
		char profile[32]; /* memory-system profile; "" for none */
		unsigned ws;
		int art;
		char unit[128]; /* "cycles (estimated, Cortex-M4 model, ...)" */
		char plugin_arg[2 * HIL_PATH + 96]; /* QEMU's -plugin value */
		char file[HIL_PATH + 16]; /* the plugin's record file */
		char why[256];		  /* when not enabled: why */
	} model;
	/* Energy estimated from a datasheet (no sensor): how, or why not. */
	struct {
		int applies;	  /* rows have est (no sensor in the run) */
		int beside;	  /* a sensor run: est beside its figures */
		char source[256]; /* document, revision, table, row */
		char table[64];	  /* "DS10086 Rev 3 Table 25 (p. 68)" */
		char assumptions[1024];
		char why[256]; /* when no row could be estimated */
	} energy_est;
	struct {
		char spec[2 * HIL_CFG_NAME]; /* bench.normalize_to; "" none */
		char implementation[HILP_ALG_NAME_MAX]; /* the one used */
		size_t rows;   /* rows that got a normalized figure */
		char why[256]; /* when no row did */
	} normalized_to;
};

/** Text of a counter unit as reports state it, e.g. "instructions (emulated)". */
const char *hil_unit_name(uint8_t unit);

/** Append a zeroed row; @return it, or NULL when out of memory. */
struct hil_row *hil_run_add_row(struct hil_run *run);

/**
 * Fit count = fixed + per_byte * msg_len to the medians of every series of
 * measured rows that share algorithm, implementation, operation and ad_len
 * and have at least two message lengths. @return HIL_OK or HIL_ERR_NOMEM.
 */
int hil_run_compute_fits(struct hil_run *run);

/**
 * Divide each measured row's median by the median of the reference
 * algorithm's encrypt row at the same message length (cfg's
 * bench.normalize_to; its first implementation in the run unless the spec
 * names one). Rows without such a reference, and rows of length 0, get
 * none; run->normalized_to says which reference was used or why none was.
 */
void hil_run_compute_normalized(struct hil_run *run);

/**
 * Free what run owns: the rows and their samples, fits, impl_sizes, images
 * and fw's lists (hil_firmware_free()); they are left empty. Not cfg.
 */
void hil_run_free(struct hil_run *run);

/**
 * Append a zeroed entry to run->impl_sizes.
 * @return it, or NULL when out of memory (the run unchanged).
 */
struct hil_impl_size *hil_run_add_impl_size(struct hil_run *run);

/**
 * Append an image to run->images with a copy of algs ("alg/impl ...").
 * @return it (the other fields zeroed), or NULL when out of memory.
 */
struct hil_run_image *hil_run_add_image(struct hil_run *run, const char *algs);

/**
 * The row of run with key's algorithm, implementation, operation, message
 * and associated-data lengths (the same point in another run), or NULL.
 */
const struct hil_row *hil_run_find_row(const struct hil_run *run,
				       const struct hil_row *key);

#endif /* HIL_RUN_H */
