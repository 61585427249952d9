/* render_int: helpers shared by the report renderers (not a public API). */
#ifndef HIL_RENDER_INT_H
#define HIL_RENDER_INT_H

#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "render.h"
#include "result/rowview.h"

/* ---- reading the report (access.c); a missing key or wrong type: "absent" */

/** The string at key, or "" when absent. */
const char *hil_rj_str(const cJSON *o, const char *key);

/** 1 and *v set when key holds a number, else 0. */
int hil_rj_num(const cJSON *o, const char *key, double *v);

/** 1 for true, 0 for false, -1 when absent or null. */
int hil_rj_bool(const cJSON *o, const char *key);

/** The rows array (never NULL after hil_report_check; NULL otherwise). */
const cJSON *hil_rj_rows(const cJSON *report);

/** board.counter_unit, e.g. "instructions (emulated)". */
const char *hil_rj_unit(const cJSON *report);

/** 1 when the row's status is "ok". */
int hil_rj_row_ok(const cJSON *row);

/**
 * A row's datasheet estimate: its energy object when that is the estimate,
 * else its energy_estimate (beside a sensor's figure), else NULL. Its keys:
 * uj_per_op, uj_low, uj_high, table (and ratio beside a measurement).
 */
const cJSON *hil_rj_row_estimate(const cJSON *row);

/** 1 when the report's estimate stands beside a sensor's figures. */
int hil_rj_energy_beside(const cJSON *report);

/**
 * Why the report has no energy figures, or NULL when at least one row has
 * one. The text is static.
 */
const char *hil_rj_energy_reason(const cJSON *report);

/** The sizes[] entry of an implementation, or NULL. */
const cJSON *hil_rj_impl_size(const cJSON *report, const char *alg,
			      const char *impl);

/**
 * Whole-image sizes: "image" (current writer) or the older object form of
 * "sizes". @return 1 when found; 0 also when the run was measured over
 * several images (images[]: a pq run has one per scheme), whose "image"
 * is only the last one's.
 */
int hil_rj_image(const cJSON *report, double *flash, double *ram,
		 double *stack_reserved);

/* ---- a report's rows as result/'s codec decodes them (access.c) */

/** 1 when the row's status is "ok". */
int hil_rv_ok(const struct hil_row_view *r);

/** Median per byte: per_byte, or median / msg_len; 0 when there is none. */
int hil_rv_per_byte(const struct hil_row_view *r, double *v);

/**
 * " ± 6 %" (with the leading space) when the row's cycle-model estimate
 * carries an error bar (model_cycles.error_pct, a calibrated profile's),
 * else "": what a table prints beside an estimated figure.
 */
void hil_rv_model_err(const struct hil_row_view *r, char *buf, size_t len);

/** The row's energy per operation (a sensor's or the estimate): 1 and *uj,
 * else 0. */
int hil_rv_energy(const struct hil_row_view *r, double *uj);

/**
 * A row's datasheet estimate: its energy when that is the estimate, else its
 * energy_estimate (beside a sensor's figure), else NULL (as
 * hil_rj_row_estimate).
 */
const struct hil_row_view_est *hil_rv_estimate(const struct hil_row_view *r);

/** The longest msg_len of rows (0 when there are none). */
double hil_rv_longest(const struct hil_row_view *rows, size_t n);

/** Largest stack_bytes over the rows of alg/impl (op NULL: any operation). */
int hil_rv_stack(const struct hil_row_view *rows, size_t n, const char *alg,
		 const char *impl, const char *op, double *v);

/* ---- formatting (access.c) */

/* ---- a row's timing-leak test in words (leaktext.c) */

/** "estimated cycles (model profile P)": the label of the model's t of
 * row r (NULL: "default"). */
void hil_rv_model_label(const struct hil_row_view *r, char *buf, size_t len);

/** 1 when a row's leak test is flagged by any statistic (flagged_by), or,
 * in a report from before the model's t, by its counter. */
int hil_rv_leak_flagged(const struct hil_row_view *r);

/**
 * A flagged row's statistics: the counter's t alone ("t = 5.1") when there
 * is nothing else, else which one flagged it, with the other's t
 * ("flagged by estimated cycles (model profile P), t = 16.9; instructions
 * (emulated): t = 0.0").
 */
void hil_rv_leak_why(const cJSON *report, const struct hil_row_view *r,
		     char *buf, size_t len);

/** A number as short as it can be while reading back to the same double. */
void hil_fmt_num(char *buf, size_t len, double v);

/** Clock as "84 MHz", or a reason when unknown. */
void hil_fmt_clock(const cJSON *report, char *buf, size_t len);

/** Text escaped for XML and HTML (&<>"'); control characters become '?'. */
void hil_xml_puts(FILE *out, const char *s);

/**
 * A control character at s (C0 but tab, DEL, or a UTF-8-encoded C1 such as
 * U+009B, which some terminals take for CSI), written visibly as "\x1b" or
 * "\u009b", so that report data never reaches a terminal or viewer as an
 * escape sequence.
 * @param keep_space 1: tab, LF and CR are left to the caller.
 * @return the bytes of s consumed (0: s is not at a control character,
 *         nothing written).
 */
size_t hil_put_ctl(FILE *out, const char *s, int keep_space);

/**
 * Text for Markdown (summary.md, sweep.md): '|' and '\\' escaped, '[' ']'
 * and '`' too (no link, image or code span from data), HTML as entities,
 * line breaks as spaces, control characters made visible.
 */
void hil_md_cell(FILE *out, const char *s);

/** s with every control character as hil_put_ctl() writes it. */
void hil_puts_noctl(FILE *out, const char *s);

/**
 * s as hil_puts_noctl() writes it, into buf (truncated to len; s and buf
 * must not overlap).
 * @return buf.
 */
const char *hil_text_noctl(char *buf, size_t len, const char *s);

/* ---- series (series.c): the rows of one alg/impl/operation/ad_len */

struct hil_series {
	const char *algorithm;
	const char *implementation;
	const char *operation;
	double ad_len;
};

/**
 * The series of rows (decoded by result/'s row view) in the order of their
 * first row; their names point into rows.
 * @param out receives a malloc'd array (caller frees); NULL when n is 0.
 */
int hil_series_of_rows(const struct hil_row_view *rows, size_t n,
		       struct hil_series **out, size_t *ns);

/** 1 when the decoded row r belongs to s. */
int hil_series_has_row(const struct hil_series *s,
		       const struct hil_row_view *r);

/** "alg/impl op" (", ad N" when ad_len is not 0) into buf. */
void hil_series_name(const struct hil_series *s, char *buf, size_t len);

/* A sweep's reports' rows, each report's decoded once (result/'s row
 * view). */
struct hil_sweep_rows {
	struct hil_row_view *r;
	size_t n;
};

/**
 * The rows of each of n reports; free with hil_sweep_rows_free().
 * @return HIL_OK or HIL_ERR_NOMEM (*out NULL).
 */
int hil_sweep_rows_read(const cJSON *const *reports, size_t n,
			struct hil_sweep_rows **out);

void hil_sweep_rows_free(struct hil_sweep_rows *rows, size_t n);

/** The row of series s at message length len in rows, or NULL. */
const struct hil_row_view *hil_sweep_row_at(const struct hil_sweep_rows *rows,
					    const struct hil_series *s,
					    double len);

/** The series of all reports (their rows), each once; caller frees *out;
 * the names point into rows. */
int hil_sweep_series(const struct hil_sweep_rows *rows, size_t n,
		     struct hil_series **out, size_t *nout);

/** A configuration's name, with its run id when another has the same. */
void hil_sweep_label(const cJSON *const *reports, size_t n, size_t i, char *buf,
		     size_t len);

/**
 * The message lengths of any report's rows (msg_len > 0: a key setup has
 * no bytes to divide by), ascending, each once, at most cap of them, into
 * lens. Shared by sweep.md and sweep.html. @return how many.
 */
size_t hil_sweep_lengths(const struct hil_sweep_rows *rows, size_t n,
			 double *lens, size_t cap);

/**
 * The sizes tables' cells of s's implementation in report: flash its
 * flash bytes, ram its RAM bytes plus its largest peak stack, each "-"
 * when the report lacks it; both buffers len bytes.
 */
void hil_sweep_size_cells(const cJSON *report,
			  const struct hil_sweep_rows *rows,
			  const struct hil_series *s, char *flash, char *ram,
			  size_t len);

/**
 * sweep.html's energy section (html_sweep_energy.c): for the series s at
 * len, each report's cycles and energy per operation, which costs fewer
 * µJ and the estimate's source; nothing when no report has energy.
 */
void hil_html_sweep_energy(FILE *out, const cJSON *const *reports,
			   const struct hil_sweep_rows *rows, size_t n,
			   const struct hil_series *s, size_t ns, double len);

/* ---- the SVG writer (svg.c), shared by the plots */

/** Open an SVG of w by h px: its title and a white background. */
void hil_render_svg_begin(FILE *o, double w, double h, const char *title);

void hil_render_svg_end(FILE *o);

/** Text at (x, y): anchor "start", "middle" or "end"; size in px. */
void hil_render_svg_text(FILE *o, double x, double y, const char *anchor,
			 double size, const char *fill, const char *text);

void hil_render_svg_line(FILE *o, double x1, double y1, double x2, double y2,
			 const char *stroke, double width);

/** Title and subtitle; a subtitle wider than w is split after a "; ". */
void hil_render_svg_title(FILE *o, double x, const char *title,
			  const char *subtitle, double w);

/** A round step near range / 5: 1, 2, 2.5 or 5 times a power of ten. */
double hil_render_nice_step(double range);

/** Estimated width of text at size px (no font metrics in a file writer). */
double hil_render_text_w(const char *s, double size);

/** The colour of series i, never repeated, into buf. */
void hil_render_colour(size_t i, char *buf, size_t len);

/** Marker shape m (of seven, in turn) at (x, y), filled with col. */
void hil_render_marker(FILE *o, size_t m, double x, double y, const char *col);

/* The plot's y axis: linear from 0, or log10 when the figures span decades. */
struct hil_render_axis {
	int log;
	double lo, hi; /* linear: 0..top; log: log10 of the ends */
	double step;   /* linear tick step */
};

/** Fit the axis to figures from ymin to ymax. */
void hil_render_axis_fit(struct hil_render_axis *a, double ymin, double ymax);

/** 0 at the bottom of the axis, 1 at its top. */
double hil_render_axis_pos(const struct hil_render_axis *a, double v);

/** The y ticks of a on a panel at (x, y) of height h; labels when lab. */
void hil_render_axis_ticks(FILE *o, const struct hil_render_axis *a, double x,
			   double y, double w, double h, int lab);

/* A point of a plot: a message length and its figures per byte. */
struct hil_render_point {
	double len, med, lo, hi; /* per byte */
};

/** qsort() comparison of points by length. */
int hil_render_point_cmp(const void *a, const void *b);

/* ---- the figure a plot or table shows per row (svg_perbyte.c) */

/**
 * What a report's figures are: "cycles (estimated, model)" when the cycle
 * model ran, "cycles (measured on the board)" for a real board's DWT count,
 * else the counter unit ("instructions (emulated)").
 */
const char *hil_fig_what(const cJSON *report);

/** The row's cost per byte in hil_fig_what() terms: 1 and *v, else 0. */
int hil_fig_per_byte(const cJSON *report, const cJSON *row, double *v);

/** The same of a decoded row of report. */
int hil_fig_per_byte_rv(const cJSON *report, const struct hil_row_view *row,
			double *v);

/** hil_rv_model_err() of row when hil_fig_per_byte_rv() gives the model's
 * estimate for it, else "". */
void hil_fig_err_rv(const cJSON *report, const struct hil_row_view *row,
		    char *buf, size_t len);

/** 1 when the reports' figures can share an axis (all cycles, or one unit). */
int hil_fig_comparable(const cJSON *const *reports, size_t n);

/* ---- the summary table (summary.c), also shown in report.html */

struct hil_sum_line {
	struct hil_series s;
	char at64[32]; /* per byte at 64 B, or "-" */
	char atl[32];  /* per byte at the longest length, or "-" */
	char head64[32]; /* the headline cost per byte at 64 B: model or counter */
	char headl[32];	    /* the same at the longest length */
	char flash[32];	    /* bytes, or "-" */
	char ram[32];	    /* static RAM (bytes), or "-" */
	char ram_total[32]; /* static RAM + peak stack of the operation */
	char stack[32];
	char energy[32]; /* µJ per operation at 64 B, or "-" */
	/* The datasheet estimate's range ("8.11-12.5") when it is the
	 * energy; beside a sensor's figure: "est. 4.1, x1.27". "" none. */
	char energy_extra[64];
	char norm[32];	  /* normalized at the longest length, or "-" */
	char model[32];	  /* model cycles per byte at the longest, or "-" */
	char model64[32]; /* model cycles per byte at 64 B, or "-" */
	int failed;	  /* a row of the series failed */
	int interrupted;  /* a row of the series was cut short */
	int not_ct;	  /* the implementation says it is not constant-time */
	int per_call;	  /* no row with a message: a cost per call only */
	double call;	  /* that cost (median of the msg_len 0 row) */
};

struct hil_summary {
	struct hil_sum_line *l;
	size_t n;
	double longest;
	/* The headline length: 64 B, or the measured length nearest to it. */
	double head_len;
	const char *unit;
	const char *energy_reason; /* NULL when energy was measured */
	int energy_model;	   /* the energy figures come from a model */
	int energy_est;	   /* estimated from the datasheet (no sensor) */
	int energy_beside; /* a sensor's figures, the estimate beside */
	/* The estimate's footnote: "3.3 V x 21.6 mA (typ. ...) ... Source:
	 * DS10086 Rev 3 Table 25 (p. 68)"; "" when there is none. */
	char energy_note[384];
	const char *model_unit; /* the cycle model's unit, or NULL */
	/* What the estimates' error bars come from (a row's
	 * model_cycles.error_from, in rows), or NULL: no calibrated estimate. */
	const char *model_err_from;
	/* What the headline columns count: "cycles (estimated, model)" when
	 * the cycle model ran, else the counter unit. */
	const char *head_unit;
	const char *norm_ref; /* "aes128-ecb/ref", or NULL: none */
	char norm_ref_buf[160];
	char *caption; /* malloc'd */
	/* The report's rows through result/'s codec, decoded once; the
	 * lines' series point into them. Owned. */
	struct hil_row_view *rows;
	size_t n_rows;
};

/**
 * Compute the summary lines and the caption; free with hil_summary_free().
 * @return HIL_OK or HIL_ERR_NOMEM.
 */
int hil_summary_build(const cJSON *report, struct hil_summary *s);

void hil_summary_free(struct hil_summary *s);

/* ---- the HTML pages (html*.c) */

/** The style sheet of report.html and sweep.html, put inline (html.c). */
extern const char hil_render_html_style[];

/** A table cell holding s, escaped; cls: its class, or NULL (html.c). */
void hil_render_td_text(FILE *out, const char *cls, const char *s);

/** A header cell: name, and sub under it in small print when not empty. */
void hil_render_th2(FILE *out, const char *cls, const char *name,
		    const char *sub);

/* The sections of report.html, in the order the page shows them. */

/** Warnings: failed rows, not board cycles, ... (html_checks.c). */
void hil_render_html_warnings(const cJSON *report, FILE *out);

/** The headline table and its notes (html_summary.c). */
void hil_render_html_summary(const cJSON *report, FILE *out);

/** Per implementation: constant-time, verified, rows ok and failed. */
void hil_render_html_verification(const cJSON *report, FILE *out);

/** Every row with every statistic (html_detail.c). */
void hil_render_html_rows(const cJSON *report, FILE *out);

/** The least-squares cost model of each series, when the report has one. */
void hil_render_html_fits(const cJSON *report, FILE *out);

/** Where the figures come from: run, tool, build, board, link. */
void hil_render_html_provenance(const cJSON *report, FILE *out);

/* ---- post-quantum operation rows (pqtables.c) */

/** 1 when row is a post-quantum operation's (it has a "pq" object). */
int hil_rj_row_is_pq(const cJSON *row);

/** 1 when any row of the report is a post-quantum operation's. */
int hil_rj_has_pq(const cJSON *report);

/** 1 when the report has rows and every one is a post-quantum operation's. */
int hil_rj_only_pq(const cJSON *report);

/**
 * summary.md's section of post-quantum operations: per row the estimated
 * cycles with their spread, instructions, stack, code size, SHA-2/SHA-3/AES
 * shares, energy estimate and verification; nothing without pq rows.
 */
void hil_md_pq(const cJSON *report, FILE *out);

/** report.html's section of the same (nothing without pq rows). */
void hil_render_html_pq(const cJSON *report, FILE *out);

/** Return HIL_OK, or HIL_ERR_IO when out has its error flag set. */
int hil_render_status(FILE *out);

#endif /* HIL_RENDER_INT_H */
