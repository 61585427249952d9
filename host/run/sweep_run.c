/* sweep_run: a sweep's configurations run (rebuilt, reflashed, identified, measured) by workers side by side, each on its board under that board's lock, then compared. */
#define _GNU_SOURCE    /* pthread_setname_np */
#define HIL_LOG_PREFIX "sweep"
#include "sweep_int.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab/boards.h"
#include "lab/lock.h"
#include "result/run.h"
#include "util/err.h"
#include "util/log.h"
#include "util/util.h"

/* A board of the sweep, kept at the slot of its first configuration. */
struct sweep_board {
	int state; /* 0 not asked yet, 1 held, 2 could not be had */
	int ret;   /* why not, with state 2 */
	struct hil_lock lock;
	char why[HIL_SWEEP_WHY_MAX];
};

/* The configurations of a sweep, handed out to workers by the schedule. */
struct sweep_work {
	const struct hil_sweep *sw;
	const struct hil_runner_opts *opts;
	unsigned wait_s;
	struct hil_run *runs;
	int *rets;
	char (*why)[HIL_SWEEP_WHY_MAX];
	struct sweep_board boards[HIL_SWEEP_MAX];
	struct hil_sweep_sched sched;
	pthread_mutex_t mu;
	pthread_cond_t changed; /* a configuration finished */
};

static int stopped(const struct hil_runner_opts *opts)
{
	return opts->stop != NULL && *opts->stop;
}

/* The slot of r's board: the first configuration with its lock. */
static size_t board_slot(const struct hil_sweep *sw, size_t r)
{
	size_t i;

	for (i = 0; i < r; i++) {
		if (strcmp(sw->lock[i], sw->lock[r]) == 0) {
			return i;
		}
	}
	return r;
}

/*
 * Take board id's lock as a single run does (cli_lock_board): at once if it
 * is free; else, with a wait, say once who holds it, wait quietly and say
 * when it is ours. The wait goes in steps of a second so that a Ctrl-C
 * caught by another thread of the sweep also ends it.
 */
static void take_board(struct sweep_work *w, size_t slot)
{
	struct sweep_board *b = &w->boards[slot];
	const char *id = w->sw->lock[slot];
	char holder[HIL_CFG_NAME + 8];
	unsigned left = w->wait_s;
	char *msg = NULL;
	int ret;

	snprintf(holder, sizeof(holder), "sweep %s", w->sw->name);
	ret = hil_lock_acquire(&b->lock, NULL, id, holder, left < 1 ? left : 1,
			       &msg);
	if (ret == HIL_ERR_TIMEOUT && left > 1) {
		hil_info("%s: waiting up to %u s for it", msg, w->wait_s);
		left--;
		while (ret == HIL_ERR_TIMEOUT && left > 0 &&
		       !stopped(w->opts)) {
			free(msg);
			msg = NULL;
			ret = hil_lock_acquire(&b->lock, NULL, id, holder, 1,
					       &msg);
			left--;
		}
		if (ret == HIL_ERR_TIMEOUT && stopped(w->opts)) {
			ret = HIL_ERR_INTERRUPTED;
			free(msg);
			msg = NULL;
		}
		if (ret == HIL_OK) {
			hil_info("board %s is ours now", id);
		}
	}
	if (ret == HIL_OK) {
		b->state = 1;
	} else {
		b->state = 2;
		b->ret = ret;
		snprintf(b->why, sizeof(b->why), "%s",
			 msg != NULL ? msg : hil_strerror(ret));
		hil_err("sweep %s: %s: its configurations are not run",
			w->sw->name, b->why);
	}
	free(msg);
}

/* Run configuration r, under its board's lock if it has one. */
static void run_one(struct sweep_work *w, size_t r)
{
	const struct hil_sweep *sw = w->sw;
	struct sweep_board *b = NULL;
	char was[16];

	if (sw->lock[r][0] != '\0') {
		b = &w->boards[board_slot(sw, r)];
		/* Only the worker running r touches its board: the schedule
		 * runs no two configurations of one board at once. */
		if (b->state == 0 && !stopped(w->opts)) {
			take_board(w, board_slot(sw, r));
		}
	}
	if (stopped(w->opts)) {
		w->rets[r] = HIL_ERR_INTERRUPTED;
		snprintf(w->why[r], sizeof(w->why[r]),
			 "interrupted before it started");
		return;
	}
	if (b != NULL && b->state == 2) {
		w->rets[r] = b->ret;
		snprintf(w->why[r], sizeof(w->why[r]), "%s", b->why);
		return;
	}
	/* The thread carries the configuration's name: every log line of
	 * its run says which configuration it is about (util/log.c). */
	{
		char tn[16]; /* the system keeps 15 characters */

		if (pthread_getname_np(pthread_self(), was, sizeof(was)) != 0) {
			was[0] = '\0';
		}
		snprintf(tn, sizeof(tn), "%s", sw->cfgs[r].name);
		(void)pthread_setname_np(pthread_self(), tn);
	}
	hil_info("sweep %s: configuration %zu of %zu: %s", sw->name, r + 1,
		 sw->n, sw->cfgs[r].name);
	/* Each its own build folder, QEMU, link and run folder: the runner
	 * keeps no state of its own beyond its arguments. */
	w->rets[r] = hil_runner_run(&sw->cfgs[r], w->opts, &w->runs[r]);
	/* One worker may be the main thread (--jobs 1): its name back. */
	if (was[0] != '\0') {
		(void)pthread_setname_np(pthread_self(), was);
	}
}

static void *sweep_worker(void *arg)
{
	struct sweep_work *w = arg;
	size_t r;

	pthread_mutex_lock(&w->mu);
	for (;;) {
		enum hil_sweep_pick pick = hil_sweep_sched_next(&w->sched, &r);

		if (pick == HIL_SWEEP_PICK_DONE) {
			break;
		}
		if (pick == HIL_SWEEP_PICK_WAIT) {
			pthread_cond_wait(&w->changed, &w->mu);
			continue;
		}
		pthread_mutex_unlock(&w->mu);
		run_one(w, r);
		pthread_mutex_lock(&w->mu);
		hil_sweep_sched_done(&w->sched, r);
		/* The board's last configuration: let others have it. */
		if (w->sw->lock[r][0] != '\0' &&
		    hil_sweep_sched_board_left(&w->sched, r) == 0) {
			hil_lock_release(&w->boards[board_slot(w->sw, r)].lock);
		}
		pthread_cond_broadcast(&w->changed);
	}
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

/*
 * Run every configuration, up to jobs at once (each QEMU is one thread, so
 * a sweep on the emulator scales with the cores); the runs and their
 * results land in their own slots, so the tables below are the same
 * whatever the order they finished in.
 */
static void run_all(const struct hil_sweep *sw,
		    const struct hil_runner_opts *opts, unsigned jobs,
		    unsigned wait_s, struct hil_run *runs, int *rets,
		    char (*why)[HIL_SWEEP_WHY_MAX])
{
	struct sweep_work *w = calloc(1, sizeof(*w));
	pthread_t th[HIL_SWEEP_MAX];
	size_t started = 0, lanes = 0, i, j;

	if (w == NULL) {
		for (i = 0; i < sw->n; i++) {
			rets[i] = HIL_ERR_NOMEM;
			snprintf(why[i], HIL_SWEEP_WHY_MAX, "out of memory");
		}
		return;
	}
	w->sw = sw;
	w->opts = opts;
	w->wait_s = wait_s;
	w->runs = runs;
	w->rets = rets;
	w->why = why;
	hil_sweep_sched_init(&w->sched, sw);
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->changed, NULL);
	if (jobs == 0) {
		long cores = sysconf(_SC_NPROCESSORS_ONLN);

		jobs = cores > 0 ? (unsigned)cores : 1;
	}
	/* A board takes one image at a time: its configurations run one
	 * after another, however many jobs; more workers than boards and
	 * unlocked configurations would only wait. */
	for (i = 0; i < sw->n; i++) {
		size_t same = 0;

		if (sw->lock[i][0] == '\0') {
			lanes++;
			continue;
		}
		if (board_slot(sw, i) != i) {
			continue;
		}
		lanes++;
		for (j = i; j < sw->n; j++) {
			same += strcmp(sw->lock[j], sw->lock[i]) == 0;
		}
		if (same > 1 && jobs > 1) {
			hil_info(
				"sweep %s: the %zu configurations on board %s run one at a time, whatever --jobs says",
				sw->name, same, sw->lock[i]);
		}
	}
	if (jobs > lanes) {
		jobs = (unsigned)lanes;
	}
	/* One job: here, in this thread, as before. */
	for (i = 1; i < jobs && i < HIL_SWEEP_MAX; i++) {
		if (pthread_create(&th[started], NULL, sweep_worker, w) != 0) {
			hil_warn(
				"sweep: could not start a worker: running fewer at once");
			break;
		}
		started++;
	}
	if (jobs > 1) {
		hil_info("sweep %s: %zu configurations, %zu at a time",
			 sw->name, sw->n, started + 1);
	}
	sweep_worker(w);
	for (i = 0; i < started; i++) {
		pthread_join(th[i], NULL);
	}
	/* Every board's last configuration released it; this is in case. */
	for (i = 0; i < sw->n; i++) {
		hil_lock_release(&w->boards[i].lock);
	}
	pthread_cond_destroy(&w->changed);
	pthread_mutex_destroy(&w->mu);
	free(w);
}

int hil_sweep_run(const struct hil_sweep *sw,
		  const struct hil_runner_opts *opts, unsigned jobs,
		  unsigned wait_s, int *transient, struct hil_sweep_done *done)
{
	struct hil_run *runs = calloc(sw->n, sizeof(*runs));
	int *rets = calloc(sw->n, sizeof(*rets));
	char(*why)[HIL_SWEEP_WHY_MAX] = calloc(sw->n, sizeof(*why));
	struct hil_config sweep_cfg;
	struct hil_run sweep_run;
	char path[HIL_PATH + 32];
	char *md = NULL;
	size_t md_len = 0;
	FILE *mf = NULL;
	size_t r;
	int ret = HIL_OK;

	if (transient != NULL) {
		*transient = 0;
	}
	if (done != NULL) {
		memset(done, 0, sizeof(*done));
	}
	if (runs == NULL || rets == NULL || why == NULL) {
		free(runs);
		free(rets);
		free(why);
		return HIL_ERR_NOMEM;
	}
	{
		/* Runs side by side would redraw one terminal line in turn:
		 * their log lines (named after their configuration) say
		 * where each is instead. */
		struct hil_runner_opts o = *opts;

		o.no_progress = o.no_progress || (jobs != 1 && sw->n > 1);
		run_all(sw, &o, jobs, wait_s, runs, rets, why);
	}
	/* Rows that failed say less than a configuration that did not run
	 * or could not measure: that error is the sweep's. */
	for (r = 0; r < sw->n; r++) {
		if (rets[r] != HIL_OK &&
		    (ret == HIL_OK ||
		     (ret == HIL_ERR_VERIFY && rets[r] != HIL_ERR_VERIFY))) {
			ret = rets[r];
		}
		/* A board busy for all of --wait: worth trying again, as for
		 * a single run. (A run's own troubles keep the sweep's exit
		 * status as it was: 2.) */
		if (transient != NULL && why[r][0] != '\0' &&
		    rets[r] == HIL_ERR_TIMEOUT) {
			*transient = 1;
		}
		/* Rows lost to the link (row.link_failed): so is a run's. */
		if (transient != NULL && rets[r] == HIL_ERR_TIMEOUT) {
			size_t k;

			for (k = 0; k < runs[r].n_rows; k++) {
				if (runs[r].rows[k].link_failed) {
					*transient = 1;
				}
			}
		}
	}

	/* The sweep's own folder, next to the runs it compares. */
	memset(&sweep_run, 0, sizeof(sweep_run));
	sweep_cfg = sw->cfgs[0];
	snprintf(sweep_cfg.name, sizeof(sweep_cfg.name), "%s", sw->name);
	if (hil_runner_make_run_dir(&sweep_cfg, opts, &sweep_run) == HIL_OK) {
		char *js = hil_sweep_json(sw, runs, rets, why);

		/* The sweep's own tables; the reports' are the caller's
		 * (hil_cli_render_sweep), before them in sweep.md. */
		mf = done != NULL ? open_memstream(&md, &md_len) : NULL;
		if (mf != NULL) {
			hil_sweep_write_tables(sw, runs, why, mf);
			fclose(mf);
			done->tables = md;
		}
		if (js != NULL) {
			snprintf(path, sizeof(path), "%s/sweep.json",
				 sweep_run.dir);
			(void)hil_write_atomic(path, js, strlen(js));
		}
		free(js);
		if (done != NULL) {
			snprintf(done->dir, sizeof(done->dir), "%s",
				 sweep_run.dir);
			snprintf(done->name, sizeof(done->name), "%s",
				 sw->name);
		}
	}
	/* The plots and pages are the caller's (hil_cli_render_sweep). */
	for (r = 0; done != NULL && r < sw->n && r < HIL_SWEEP_MAX; r++) {
		snprintf(done->run_dir[r], sizeof(done->run_dir[r]), "%s",
			 runs[r].dir);
		done->reported[r] = runs[r].reported != 0;
		done->compared[r] = done->dir[0] != '\0' &&
				    runs[r].dir[0] != '\0' &&
				    runs[r].n_rows > 0;
		done->n = r + 1;
	}
	for (r = 0; r < sw->n; r++) {
		hil_run_free(&runs[r]);
	}
	free(runs);
	free(rets);
	free(why);
	return ret;
}
