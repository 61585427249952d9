/* render: tables, plots, HTML, comparisons and JUnit made from report JSON. */
#ifndef HIL_RENDER_H
#define HIL_RENDER_H

/*
 * Every function here works from a parsed report.json (a cJSON tree, as
 * hil_report_load() returns it), never from the in-memory run, so that old
 * results can be rendered again and the end of a run uses the same code.
 * Output is deterministic: the same report gives the same bytes.
 */

#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

struct hil_row_view;

/**
 * Read path, parse it and check it (hil_report_check).
 * @param out receives the tree; the caller frees it with cJSON_Delete().
 * @param err receives a message naming the file and the key on failure.
 * @return HIL_OK, HIL_ERR_IO (cannot read), HIL_ERR_ARG (not a report of a
 *         schema this hilrun knows, or a key missing or of the wrong type).
 */
int hil_report_load(const char *path, cJSON **out, char *err, size_t errlen);

/**
 * Check a parsed report: schema_version known, the keys the renderers need
 * present with their types (rows[i].algorithm, .msg_len, .median, ...).
 * @param name file name used in the message.
 * @return HIL_OK or HIL_ERR_ARG with err set.
 */
int hil_report_check(const cJSON *report, const char *name, char *err,
		     size_t errlen);

/**
 * Write summary.md, summary.csv, per_byte.svg, sizes.svg and report.html
 * next to run_dir/report.json, each atomically (temporary file, rename).
 * A sweep's folder (sweep.json, no report.json) gets sweep.svg and
 * sweep.html instead, from the runs sweep.json names (found where it says,
 * or beside the sweep's folder).
 * @return HIL_OK or the first error (logged).
 */
int hil_report_render_all(const char *run_dir);

/**
 * hil_report_render_all, naming in written (space-separated, cut at len)
 * the files it wrote: a pq run's benchmarks.md and benchmarks.csv too.
 * @return as hil_report_render_all.
 */
int hil_report_render_files(const char *run_dir, char *written, size_t len);

/** 1 when dir is a sweep's folder (sweep.json and no report.json). */
int hil_report_dir_is_sweep(const char *dir);

/**
 * A sweep's tables in Markdown, from its runs' reports: the figures
 * sweep.html shows (cost per byte, flash and RAM, every length).
 * @param run_dirs n run folders, each holding a report.json.
 * @return HIL_OK or the first error (logged).
 */
int hil_report_sweep_md(const char *const *run_dirs, size_t n, const char *name,
			FILE *out);

/**
 * Write the comparison plot and page of a sweep (one report per
 * configuration) as out_dir/sweep.svg and out_dir/sweep.html, atomically;
 * out_dir/sweep.json, when there, names the sweep and its failed runs.
 * @param run_dirs n run folders, each holding a report.json.
 * @return HIL_OK or the first error (logged).
 */
int hil_report_render_sweep(const char *const *run_dirs, size_t n,
			    const char *out_dir);

/** summary.md: the caption line and the table people know from papers. */
int hil_summary_md(const cJSON *report, FILE *out);

/** summary.csv: one line per row, every statistic, RFC 4180 quoting. */
int hil_summary_csv(const cJSON *report, FILE *out);

/**
 * per_byte.svg: cost per byte against message length (log x axis; log y
 * axis when the figures span a decade or more), a panel per operation, a
 * colour and marker per implementation. It shows the cycle model's
 * estimate when the report has one ("cycles (estimated, model)"), else the
 * board's counter in its unit.
 */
int hil_svg_per_byte(const cJSON *report, FILE *out);

/** The same plot of the board's counter, whether or not a model ran. */
int hil_svg_per_byte_counter(const cJSON *report, FILE *out);

/** 1 when hil_svg_per_byte() plots the cycle model's estimate. */
int hil_svg_per_byte_has_model(const cJSON *report);

/** sizes.svg: flash, and RAM as static data + peak stack, per implementation. */
int hil_svg_sizes(const cJSON *report, FILE *out);

/**
 * energy.svg: µJ per operation of each series at the headline length, the
 * datasheet estimate (bar, with its range as a line) or the sensor's figure
 * (with the estimate beside it), the source in the subtitle; says why when
 * there is no energy figure.
 */
int hil_svg_energy(const cJSON *report, FILE *out);

/**
 * sweep.svg: one group of bars per metric, one bar per configuration.
 * @param reports n report trees (borrowed), in the order of the sweep.
 */
int hil_svg_sweep(const cJSON *const *reports, size_t n, FILE *out);

/**
 * sweep.html: the configurations, cost per byte at 64 B with a column per
 * configuration, the sweep plot inline, sizes, and every length.
 * @param sweep the sweep folder's sweep.json (borrowed), or NULL: it names
 *        the sweep and the runs that wrote no report.
 */
int hil_html_sweep(const cJSON *const *reports, size_t n, const cJSON *sweep,
		   FILE *out);

/**
 * A sweep's tables in Markdown (sweep.md, the terminal): each
 * configuration's figure, cost per byte at 64 B (or the nearest length),
 * flash / RAM per implementation of any configuration, and cost per byte
 * at every length: the figures sweep.html shows.
 * @param reports n report trees (borrowed), in the order of the sweep.
 */
int hil_md_sweep(const cJSON *const *reports, size_t n, const char *name,
		 FILE *out);

/**
 * benchmarks.md in pqm4's shape (Speed: AVG/MIN/MAX of the estimated
 * cycles; Memory: stack; Hashing: SHA-2 + SHA-3 + AES share; Size), KEMs
 * then signatures, from the report's post-quantum rows; its first line
 * says the figures are the cycle model's, not measured.
 */
int hil_pqm4_md(const cJSON *report, FILE *out);

/** benchmarks.csv: the same in pqm4's CSV shape. */
int hil_pqm4_csv(const cJSON *report, FILE *out);

/** report.html: one self-contained page (no network), SVGs inline. */
int hil_html_report(const cJSON *report, FILE *out);

/*
 * Regression thresholds, in percent of the base median: a row is worse when
 * new > base * (1 + pct / 100), better when new < base * (1 - pct / 100).
 */
struct hil_thresholds {
	double instructions; /* "instructions (emulated)": deterministic, 0 */
	double cycles;	     /* "cycles" on hardware: 2 */
	double estimated;    /* "cycles (estimated, ...)" from a model: 0 */
	double ns;	     /* "ns (host)": 10 */
	double energy;	     /* rows[].energy.uj_per_op: 10 */
	double flash;	     /* an implementation's flash_bytes: -1 (not
				judged unless given) */
	double stack;	     /* a row's stack_bytes: -1 (same) */
	int fail_missing;    /* a row of the base absent from the new report
				counts as worse (default 0: reported only) */
};

/** Fill t with the defaults above. */
void hil_thresholds_default(struct hil_thresholds *t);

/**
 * Does a threshold on metric ("instructions", "cycles", "estimated", "ns",
 * "energy") judge any figure of both reports? The counter's own metric
 * follows the reports' unit; "estimated" also applies to the cycle model's
 * figures of an emulated report, "energy" to rows with energy.
 */
int hil_cmp_metric_applies(const cJSON *base, const cJSON *newer,
			   const char *metric);

/** A report's counter unit, e.g. "instructions (emulated)"; never NULL. */
const char *hil_cmp_unit(const cJSON *report);

/** The threshold metric of a report's counter unit, e.g. "instructions". */
const char *hil_cmp_unit_metric(const cJSON *report);

/**
 * Set one threshold from "metric=pct" (pct may end in '%'), metric one of
 * instructions, cycles, estimated, ns, energy.
 * @return HIL_OK or HIL_ERR_ARG (logged, naming the spec).
 */
int hil_thresholds_parse(struct hil_thresholds *t, const char *spec);

enum hil_verdict {
	HIL_SAME = 0,
	HIL_BETTER,
	HIL_WORSE,
	HIL_ADDED,   /* only in the new report */
	HIL_REMOVED, /* only in the base report */
};

/* One compared figure of one row key; strings borrowed from the trees. */
struct hil_cmp_entry {
	const char *algorithm;
	const char *implementation;
	const char *operation;
	double msg_len;
	double ad_len;
	const char *metric; /* "median" or "energy" */
	const char *unit;   /* the report's unit, or "uJ" */
	int have_base;	    /* base figure present (a number) */
	int have_new;
	double base;
	double cur;
	double ratio;	  /* cur / base; 0 when base is 0 or absent */
	double threshold; /* percent applied */
	enum hil_verdict verdict;
	const char *note; /* why (a failed row's error), or "" */
	/* Metric "model": each estimate's error bar in percent (-1: none;
	 * report.json's model_cycles.error_pct), and 1 in within_error when
	 * the estimate moved (verdict worse or better) by no more than the
	 * two combined (hil_model_error_combined): a change of the code's
	 * modelled cost, not established on the board. */
	double err_base, err_new;
	int within_error;
};

struct hil_cmp {
	struct hil_cmp_entry *e;
	size_t n;
	size_t worse; /* entries with verdict HIL_WORSE */
	/* rows whose energy was left out: estimated in one report, measured
	 * (or simulated) in the other (warned once) */
	size_t energy_kind_skipped;
	const char *energy_kinds[2]; /* base's and new's, of the first one */
	/* 1: the cycle model's estimates were left out: the reports model
	 * different memory systems (profile, wait states or accelerator) */
	int model_skipped;
	/* 1: the reports were built with different build.cflags */
	int flags_differ;
	/* The cycle model's estimates compared (metric "model" entries),
	 * those with an error bar on either side, and those worse or better
	 * within their error bars (of which worse: within_worse). */
	size_t model_n, model_with_bar, within, within_worse;
	/* Why estimates compared lack an error bar, said once: "no error
	 * bar: profile X is not calibrated ..." ("" when all have one). */
	char model_no_bar[256];
	/* The datasheet table of each report's first estimated row (base's,
	 * new's), or "". */
	const char *est_tables[2];
	/* The rows of base [0] and new [1] as result/'s codec decodes them;
	 * the entries' names point into them. Owned. */
	struct hil_row_view *rows[2];
	size_t n_rows[2];
};

/**
 * Do two reports' cycle-model estimates model the same memory system (the
 * same unit, wait states and accelerator)? A report without the model
 * matches any other.
 */
int hil_cmp_same_model(const cJSON *base, const cJSON *newer);

/** One line on a report's provenance: run, board, flags, cycle model. */
void hil_cmp_provenance(const cJSON *report, char *buf, size_t len);

/**
 * Compare two reports row by row (key: algorithm, implementation,
 * operation, msg_len, ad_len). A row that failed in the new report is worse;
 * one that failed in the base only is better.
 * @param out receives the comparison; free it with hil_cmp_free(). It
 *        borrows strings from both trees: free it before them.
 * The cycle model's estimates are compared only when both reports model the
 * same memory system; flags that differ are noted (c->flags_differ).
 * @return HIL_OK, HIL_ERR_ARG (the reports count in different units; the
 *         new report is not complete (partial, failed): its missing rows
 *         would pass as merely "removed"; a report has two rows of one key;
 *         each logged with what is wrong), HIL_ERR_NOMEM.
 */
int hil_cmp_compute(const cJSON *base, const cJSON *newer,
		    const struct hil_thresholds *t, struct hil_cmp **out);

void hil_cmp_free(struct hil_cmp *c);

/**
 * Print the side-by-side table (base median, new median, ratio, verdict;
 * added and removed rows listed) and a verdict line to out.
 * @param t thresholds, or NULL for the defaults.
 * @param worse set to 1 when any row is worse than its threshold, else 0.
 * @return HIL_OK, HIL_ERR_ARG (different units), HIL_ERR_NOMEM.
 */
int hil_report_compare(const cJSON *base, const cJSON *newer,
		       const struct hil_thresholds *t, FILE *out, int *worse);

/**
 * JUnit XML: one testcase per row (failure when the row failed or its
 * digest did not match), and when cmp is given a second suite with one
 * testcase per compared figure (failure when worse).
 * @param cmp a comparison of this report against a baseline, or NULL.
 */
int hil_junit_write(const cJSON *report, const struct hil_cmp *cmp, FILE *out);

#endif /* HIL_RENDER_H */
