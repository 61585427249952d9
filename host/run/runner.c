/* runner: walks one configuration through build, flash, connect, identify, verify, measure and report. */
#define _XOPEN_SOURCE  700 /* O_NOFOLLOW */
#define HIL_LOG_PREFIX "runner"
#include "runner.h"
#include "runner_int.h"

#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config/algnames.h"
#include "emu/cyclemodel.h"
#include "energy.h"
#include "energyest.h"
#include "energyrun.h"
#include "util/err.h"
#include "lab/history.h"
#include "journal.h"
#include "util/log.h"
#include "image/ownref.h"
#include "result/reportjson.h"
#include "drivers/sensor/sensor.h"
#include "session/stub.h"
#include "util/util.h"

/* SIGTERM or SIGINT arrived: nothing more is started, nothing recovered. */
int hil_rn_stopping(const struct hil_runner_opts *opts)
{
	return opts->stop != NULL && *opts->stop;
}

int hil_rn_config_error(struct hil_run *run, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(run->error, sizeof(run->error), fmt, ap);
	va_end(ap);
	hil_err("%s", run->error);
	return HIL_ERR_CONFIG;
}

static int check_limits(const struct run_ctx *c)
{
	const struct hil_config *cfg = c->run->cfg;
	const struct hilp_info *info = &c->run->info;
	size_t i;

	if (cfg->bench.runs > info->max_runs) {
		return hil_rn_config_error(
			c->run,
			"bench.runs is %u but the stub keeps at most %u samples",
			(unsigned)cfg->bench.runs, info->max_runs);
	}
	for (i = 0; i < cfg->bench.n_lengths; i++) {
		if (cfg->bench.lengths[i] > info->max_msg) {
			return hil_rn_config_error(
				c->run,
				"bench.lengths[%zu] is %u but the stub's buffers take at most %u bytes",
				i, (unsigned)cfg->bench.lengths[i],
				info->max_msg);
		}
	}
	for (i = 0; i < cfg->bench.n_ad_lengths; i++) {
		if (cfg->bench.ad_lengths[i] > info->max_ad) {
			return hil_rn_config_error(
				c->run,
				"bench.ad_lengths[%zu] is %u but the stub takes at most %u bytes",
				i, (unsigned)cfg->bench.ad_lengths[i],
				info->max_ad);
		}
	}
	return HIL_OK;
}

/*
 * The cycle model's record file afresh: a new emulator appends to it, and
 * the rows measured so far keep their estimates.
 */
static void model_file_afresh(const struct hil_run *run)
{
	char model_file[HIL_PATH + 32];
	int fd;

	snprintf(model_file, sizeof(model_file), "%s/cycles.txt", run->dir);
	fd = open(model_file, O_WRONLY | O_TRUNC | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0) {
		close(fd);
	}
}

/* One image on the target, up: measure the rows of its algorithms. */
static int measure_image(struct run_ctx *c)
{
	struct hil_run *run = c->run;
	int ret = hil_rn_meters_start(&c->meters, run);

	if (ret == HIL_OK && c->opts->resume_dir != NULL) {
		/* Only rows of the very image now on the target are kept. */
		ret = hil_journal_load(c->journal.path, run->build_id,
				       &c->journal.resumed,
				       &c->journal.n_resumed);
	}
	if (ret == HIL_OK) {
		ret = check_limits(c);
	}
	if (ret == HIL_OK) {
		/* Once per image: the recovery ladder and the leak test reuse
		 * it (the ladder checks the build-id, not the table). */
		memset(c->target.work, 0,
		       sizeof(c->target.work)); /* indices of this image */
		ret = hil_target_algs(c->target.conn.session, c->target.algs,
				      HIL_TARGET_MAX_ALGS, &c->target.n_algs);
	}
	if (ret == HIL_OK) {
		ret = hil_rn_measure(c);
		hil_rn_progress_done(&c->progress);
	}
	return ret;
}

/* What one image left open (its target, sampler, host builds), closed. */
static void image_done(struct run_ctx *c)
{
	size_t k;

	for (k = 0; k < c->n_subj; k++) {
		hil_ownref_close(&c->subj[k].own);
	}
	free(c->subj);
	c->subj = NULL;
	c->n_subj = 0;
	hil_rn_meters_stop(&c->meters);
	hil_runner_take_down(&c->target.conn, c->run);
	hil_journal_free(c->journal.resumed, c->journal.n_resumed);
	c->journal.resumed = NULL;
	c->journal.n_resumed = 0;
}

/* The run's results of the images so far, kept across images (each as
 * long as it takes; freed by measure_split). */
struct split_keep {
	struct hil_impl_size *impl_sizes;
	size_t n_impl_sizes;
	size_t cap_impl_sizes;
	struct hil_foreign_build *foreign;
	size_t n_foreign;
	size_t cap_foreign;
	char *algs;
	struct hil_build_split split;
};

/* The image just measured, added to what the run keeps.
 * @return HIL_OK or HIL_ERR_NOMEM. */
static int keep_image(struct hil_run *run, struct split_keep *k,
		      size_t first_row)
{
	struct hil_run_image *im;
	size_t i;

	for (i = first_row; i < run->n_rows; i++) {
		snprintf(run->rows[i].build_id, sizeof(run->rows[i].build_id),
			 "%s", run->build_id);
	}
	im = hil_run_add_image(run, run->fw.algs);
	if (im == NULL) {
		return HIL_ERR_NOMEM;
	}
	snprintf(im->build_id, sizeof(im->build_id), "%s", run->build_id);
	snprintf(im->elf_sha256, sizeof(im->elf_sha256), "%s", run->elf_sha256);
	im->sizes = run->sizes;
	for (i = 0; i < run->n_impl_sizes; i++) {
		void *arr = k->impl_sizes;

		if (hil_grow(&arr, k->n_impl_sizes, &k->cap_impl_sizes,
			     sizeof(*k->impl_sizes)) != HIL_OK) {
			return HIL_ERR_NOMEM;
		}
		k->impl_sizes = arr;
		k->impl_sizes[k->n_impl_sizes++] = run->impl_sizes[i];
	}
	for (i = 0; i < run->fw.n_foreign; i++) {
		void *arr = k->foreign;

		if (hil_grow(&arr, k->n_foreign, &k->cap_foreign,
			     sizeof(*k->foreign)) != HIL_OK) {
			return HIL_ERR_NOMEM;
		}
		k->foreign = arr;
		k->foreign[k->n_foreign++] = run->fw.foreign[i];
	}
	if (run->fw.algs != NULL && run->fw.algs[0] != '\0' &&
	    hil_str_append(&k->algs, " ", run->fw.algs) != HIL_OK) {
		return HIL_ERR_NOMEM;
	}
	return HIL_OK;
}

/* What the run keeps of every image, made the run's own (what it held of
 * the last image alone freed). */
static void keep_into_run(struct hil_run *run, struct split_keep *k)
{
	free(run->impl_sizes);
	run->impl_sizes = k->impl_sizes;
	run->n_impl_sizes = k->n_impl_sizes;
	run->cap_impl_sizes = k->cap_impl_sizes;
	k->impl_sizes = NULL;
	free(run->fw.foreign);
	run->fw.foreign = k->foreign;
	run->fw.n_foreign = k->n_foreign;
	run->fw.cap_foreign = k->cap_foreign;
	k->foreign = NULL;
	free(run->fw.algs);
	run->fw.algs = k->algs != NULL ? k->algs : strdup("");
	k->algs = NULL;
}

/* A row that says why an implementation of cfg was not measured. */
static int fail_alg(struct run_ctx *c, const struct hil_config_alg *ca,
		    const char *why)
{
	struct registry_alg subject;

	memset(&subject, 0, sizeof(subject));
	subject.name = ca->name;
	subject.impl = ca->impl;
	hil_err("%s/%s %s: its rows are not measured", ca->name, ca->impl, why);
	return hil_rn_add_failed_row(&c->journal, c->run, &subject, why) != NULL
		       ? HIL_OK
		       : HIL_ERR_NOMEM;
}

/* The folders of the configuration's trees that were not built, as not
 * for this board: said once, never as a failure (report.json lists them). */
static void log_not_for_board(const struct hil_config *cfg)
{
	size_t i;

	for (i = 0; i < cfg->n_not_for_board; i++) {
		hil_info("%s/%s: not for this board, not built (%s)",
			 cfg->not_for_board[i].name, cfg->not_for_board[i].impl,
			 cfg->not_for_board[i].why);
	}
}

/* Image g of the split about to start: how far the run is, and an
 * estimate of the time left from the pace of the images measured so far.
 * Every image was built before the first was measured (in build_s): that
 * time is not in the pace, which would otherwise promise minutes where
 * seconds are left. */
static void progress_images(const struct split_keep *k, size_t g,
			    uint64_t t_measure, double build_s)
{
	size_t done = 0, total = 0, i;
	double elapsed_s = (double)(hil_energy_now_ns() - t_measure) / 1e9;

	for (i = 0; i < k->split.n_images; i++) {
		total += k->split.image[i].n_algs;
		if (i < g) {
			done += k->split.image[i].n_algs;
		}
	}
	if (done == 0) {
		hil_info(
			"image %zu of %zu: %zu implementation%s (0 of %zu measured; built in %.0f s)",
			g + 1, k->split.n_images, k->split.image[g].n_algs,
			k->split.image[g].n_algs == 1 ? "" : "s", total,
			build_s);
		return;
	}
	hil_info(
		"image %zu of %zu: %zu implementation%s (%zu of %zu measured in %.0f s; about %.0f s left, from the pace so far)",
		g + 1, k->split.n_images, k->split.image[g].n_algs,
		k->split.image[g].n_algs == 1 ? "" : "s", done, total,
		elapsed_s, elapsed_s / (double)done * (double)(total - done));
}

/*
 * The selection does not fit one image: split it over as few as halving
 * finds, then build, start and measure each in turn, into one run.
 */
static int measure_split(struct run_ctx *c)
{
	struct hil_run *run = c->run;
	const struct hil_config *cfg = run->cfg;
	struct split_keep *k = calloc(1, sizeof(*k));
	size_t *skip = calloc(cfg->n_algs + 1, sizeof(*skip));
	/* Their reasons: each image's build replaces run->fw. */
	char(*excluded)[256] = calloc(cfg->n_algs + 1, sizeof(*excluded));
	size_t n_skip = 0;
	char root[HIL_PATH], log[HIL_PATH + 16];
	uint64_t t_start, t_measure;
	size_t g, i, a;
	int ret;

	if (k == NULL || skip == NULL || excluded == NULL) {
		free(k);
		free(skip);
		free(excluded);
		return HIL_ERR_NOMEM;
	}
	/* Folders that did not build stay out (and get their failed rows). */
	for (a = 0; a < cfg->n_algs; a++) {
		const char *why = hil_rn_excluded_why(run, &cfg->algs[a]);

		if (why != NULL) {
			snprintf(excluded[n_skip], sizeof(excluded[0]), "%s",
				 why);
			skip[n_skip++] = a;
		}
	}
	t_start = hil_energy_now_ns();
	log_not_for_board(cfg);
	hil_warn(
		"the %zu implementations do not fit one image (%s): splitting them over several images, each built, started and measured in turn",
		cfg->n_algs - n_skip, run->fw.overflow);
	snprintf(log, sizeof(log), "%s/build.log", run->dir);
	ret = hil_build_find_root(root, sizeof(root));
	if (ret == HIL_OK) {
		ret = hil_build_split(cfg, root, log, skip, n_skip,
				      c->opts->no_jail ? HIL_BUILD_NO_JAIL : 0,
				      c->opts->stop, &k->split);
	}
	t_measure = hil_energy_now_ns();
	if (ret == HIL_OK) {
		hil_info("split into %zu image%s%s", k->split.n_images,
			 k->split.n_images == 1 ? "" : "s",
			 k->split.n_too_big > 0
				 ? ", and some implementations too big alone"
				 : "");
	}
	for (g = 0; ret == HIL_OK && g < k->split.n_images; g++) {
		struct hil_config *sub = hil_build_subset(
			cfg, k->split.image[g].algs, k->split.image[g].n_algs);
		size_t first_row = run->n_rows;

		if (sub == NULL) {
			ret = HIL_ERR_NOMEM;
			break;
		}
		progress_images(k, g, t_measure,
				(double)(t_measure - t_start) / 1e9);
		if (g > 0) {
			model_file_afresh(run);
		}
		run->cfg = sub;
		ret = hil_runner_bring_up(sub, c->opts, run, &c->target.conn);
		if (ret == HIL_OK) {
			ret = measure_image(c);
		}
		if (keep_image(run, k, first_row) != HIL_OK && ret == HIL_OK) {
			ret = HIL_ERR_NOMEM;
		}
		image_done(c);
		run->cfg = cfg;
		hil_config_free(sub);
		free(sub);
	}
	/* The rows of those that could not be in any image. */
	for (i = 0; ret == HIL_OK && i < k->split.n_too_big; i++) {
		ret = fail_alg(c, &cfg->algs[k->split.too_big[i].alg],
			       k->split.too_big[i].why);
	}
	for (i = 0; ret == HIL_OK && i < n_skip; i++) {
		char why[HIL_ROW_ERR];

		snprintf(why, sizeof(why), "does not build: %s", excluded[i]);
		ret = fail_alg(c, &cfg->algs[skip[i]], why);
	}
	/* The report speaks of every image's implementations. */
	keep_into_run(run, k);
	free(k->impl_sizes);
	free(k->foreign);
	free(k->algs);
	hil_build_split_free(&k->split);
	free(k);
	free(skip);
	free(excluded);
	return ret;
}

/*
 * The run's start: the names checked, its folder made (or found, resuming),
 * the host recorded and the journal opened. Nothing is reported when this
 * fails: nothing was measured, and without its journal nothing may be.
 */
static int run_open(struct run_ctx *c, const struct hil_config *cfg,
		    const struct hil_runner_opts *opts, struct hil_run *run)
{
	int ret;

	memset(c, 0, sizeof(*c));
	memset(run, 0, sizeof(*run));
	c->opts = opts;
	c->run = run;
	c->journal.fd = -1;
	run->cfg = cfg;
	run->status = "failed";
	run->jailed = !opts->no_jail;

	/* A misspelt name fails here, before a folder is made or anything
	 * is built (a resumed run or an override was checked before). */
	if (opts->algs_override == NULL && opts->resume_dir == NULL) {
		char why[HIL_ROW_ERR];

		if (hil_algnames_why(cfg, why, sizeof(why)) != HIL_OK) {
			return hil_rn_config_error(run, "%s", why);
		}
	}
	ret = hil_runner_make_run_dir(cfg, opts, run);
	if (ret != HIL_OK) {
		return ret;
	}
	if (opts->on_run_dir != NULL) {
		opts->on_run_dir(opts->on_run_dir_arg, run->dir);
	}
	hil_rn_host_provenance(run);
	snprintf(c->journal.path, sizeof(c->journal.path), "%s/journal.jsonl",
		 run->dir);
	/* Never through a planted link. */
	c->journal.fd = hil_open_append(c->journal.path);
	if (c->journal.fd < 0) {
		/* Without its journal a run could lose what it measures (and
		 * a link there may point anywhere): nothing is measured. */
		hil_err("cannot open the journal %s: %s%s", c->journal.path,
			strerror(errno),
			errno == ELOOP ? " (a symbolic link: refused)" : "");
		return HIL_ERR_IO;
	}
	return HIL_OK;
}

/* What the run needs before the target: run.json (what --resume needs),
 * the cycle model's record file afresh on a resume, the sensor. */
static int run_prepare(struct run_ctx *c)
{
	struct hil_run *run = c->run;
	int ret = HIL_OK;

	if (c->opts->resume_dir == NULL && run->cfg->path[0] != '\0') {
		/* Without it the run cannot be resumed: on a full disk,
		 * nothing is measured. */
		ret = hil_rn_write_run_file(run);
	}
	if (c->opts->resume_dir != NULL) {
		/* The cycle model's records of the run that stopped belong to
		 * an emulator that is gone (the rows it measured keep their
		 * estimates in the journal), and a full disk may have cut its
		 * last line: the new emulator starts the file afresh. */
		model_file_afresh(run);
	}
	if (ret == HIL_OK) {
		ret = hil_rn_sensor_open(&c->meters, run);
	}
	return ret;
}

/*
 * Bring the target up with the image of the selection and measure it
 * (measure_image: per row, measure / recover / journal); a selection too
 * big for one image is split, not refused (measure_split).
 */
static int run_images(struct run_ctx *c)
{
	struct hil_run *run = c->run;
	const struct hil_config *cfg = run->cfg;
	int may_split = c->opts->algs_override == NULL && cfg->n_algs > 1;
	int ret;

	if (may_split && cfg->n_algs > HIL_IMAGE_MAX_ALGS) {
		/* More than one image holds: split at once, without
		 * building them all together first. */
		snprintf(run->fw.overflow, sizeof(run->fw.overflow),
			 "more than %d implementations for one image",
			 HIL_IMAGE_MAX_ALGS);
		return measure_split(c);
	}
	ret = hil_rn_bring_up(cfg, c->opts, run, &c->target.conn,
			      may_split ? HIL_BUILD_QUIET_OVERFLOW : 0);
	if (ret == HIL_OK) {
		log_not_for_board(cfg);
		return measure_image(c);
	}
	if (ret == HIL_ERR_BUILD && may_split &&
	    (run->fw.overflowed || run->fw.link_failed)) {
		if (run->fw.link_failed) {
			snprintf(run->fw.overflow, sizeof(run->fw.overflow),
				 "it does not link: %s", run->fw.link_error);
		}
		hil_runner_take_down(&c->target.conn, run);
		return measure_split(c);
	}
	return ret;
}

/* What the run opened (target, sampler, host builds, sensor, journal),
 * closed in reverse order. */
static void run_close(struct run_ctx *c)
{
	image_done(c);
	hil_sensor_close(c->meters.sensor);
	c->meters.sensor = NULL;
	if (c->journal.fd >= 0) {
		close(c->journal.fd);
		c->journal.fd = -1;
	}
	if (c->opts->resume_dir != NULL) {
		hil_info(
			"resume: %zu row%s kept from the journal, %zu measured now",
			c->journal.used_resumed,
			c->journal.used_resumed == 1 ? "" : "s",
			c->run->n_rows - c->journal.used_resumed);
	}
}

/*
 * The run's status from how it ended (ret) and its rows: complete, partial
 * (rows lost to the link: worth another try) or failed; and the figures
 * computed from the rows. @return the run's code.
 */
static int run_settle(struct hil_run *run, const struct hil_runner_opts *opts,
		      int ret, uint64_t t_run)
{
	if (ret != HIL_OK && ret != HIL_ERR_INTERRUPTED &&
	    hil_rn_stopping(opts)) {
		/* Whatever failed after the stop (a build or an emulator
		 * signalled with us) failed because of it. */
		ret = HIL_ERR_INTERRUPTED;
	}
	hil_utc_iso(run->finished, sizeof(run->finished));
	run->timing.total_ns =
		hil_energy_now_ns() - t_run + run->timing.earlier_ns;
	if (hil_run_compute_fits(run) != HIL_OK) {
		hil_warn("out of memory fitting the length series: no fits[]");
	}
	hil_run_compute_normalized(run);
	hil_energyest_apply(run);
	if (ret == HIL_OK) {
		size_t i, lost = 0;

		run->status = "complete";
		for (i = 0; i < run->n_rows; i++) {
			if (!run->rows[i].ok) {
				ret = HIL_ERR_VERIFY;
			}
			lost += run->rows[i].link_failed != 0;
		}
		if (lost > 0) {
			/* Not measured, and not the implementations' fault:
			 * the run is partial, another try may measure them
			 * (exit status 5). */
			hil_err("%zu row%s lost to the link (the target answered, damaged, after every retry and recovery): the run is partial, worth another try",
				lost, lost == 1 ? "" : "s");
			run->status = "partial";
			run->transient = 1;
			ret = HIL_ERR_TIMEOUT;
		}
	} else if (run->n_rows > 0) {
		run->status = "partial";
	}
	return ret;
}

/* Whatever happened, what was measured is written down: report.json,
 * results/latest, the history. @return HIL_OK or report.json's error. */
static int run_write(struct hil_run *run, const struct hil_runner_opts *opts)
{
	int ret = hil_report_write_json(run);

	if (ret == HIL_OK) {
		/* Its tables, plots and page are the caller's to render
		 * (hil_cli_render_run): runs measure, they do not render. */
		run->reported = 1;
		hil_rn_point_latest(opts, run);
		hil_info("report: %s/report.json (summary.md, report.html)",
			 run->dir);
	}
	/* The run history beside the run folders (hilrun history). */
	if (run->dir[0] != '\0' && run->n_rows > 0) {
		char db[HIL_PATH + 32];

		snprintf(db, sizeof(db), "%s/%s", opts->results_dir,
			 HIL_HISTORY_FILE);
		if (hil_history_record(db, run) != HIL_OK) {
			hil_warn("run %s is not in the history %s", run->id,
				 db);
		}
	}
	return ret;
}

/*
 * The walk of a run, as its steps: open (folder, journal), prepare (run.json,
 * sensor), the images (bring-up; per row: measure, recover, journal; in
 * runner_measure.c), close, settle (status, figures), write (report.json).
 */
int hil_runner_run(const struct hil_config *cfg,
		   const struct hil_runner_opts *opts, struct hil_run *run)
{
	uint64_t t_run = hil_energy_now_ns();
	struct run_ctx c;
	int ret, report_ret;

	ret = run_open(&c, cfg, opts, run);
	if (ret != HIL_OK) {
		return ret; /* nothing measured, nothing to report */
	}
	ret = run_prepare(&c);
	if (ret == HIL_OK) {
		ret = run_images(&c);
	}
	run_close(&c);
	ret = run_settle(run, opts, ret, t_run);
	report_ret = run_write(run, opts);
	return ret != HIL_OK ? ret : report_ret;
}
