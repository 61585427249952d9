/* runner_progress: where a long run is and how long it has left, one line on a terminal redrawn every second. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"runner"
#include "runner_int.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "benchtime.h"
#include "eta.h"
#include "util/util.h"

struct run_progress {
	pthread_t th;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	int stop;
	int have_row;
	char what[384]; /* "qemu: alg/impl op 64 B, row 3 of 58" */
	struct hil_eta eta;
	size_t rows_before; /* rows of earlier images (a split selection) */
	double work_before; /* and their work */
	size_t rows_seen;   /* rows in the run at the last row's start */
};

/* The line, under p->lock; stderr is locked as a log line locks it. */
static void draw(struct run_progress *p)
{
	long long now = hil_now_ms();
	long long el = (now - p->eta.start_ms) / 1000;
	long long left = hil_eta_left_s(&p->eta, now);

	flockfile(stderr);
	fprintf(stderr, "\r\033[K%s, %lld s", p->what, el);
	if (left >= 0) {
		fprintf(stderr, ", about %lld s left", left);
	}
	fflush(stderr);
	funlockfile(stderr);
}

/* Redraws once a second: the elapsed time moves during a long row. */
static void *ticker(void *arg)
{
	struct run_progress *p = arg;

	pthread_mutex_lock(&p->lock);
	while (!p->stop) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_sec += 1;
		if (pthread_cond_timedwait(&p->wake, &p->lock, &ts) ==
			    ETIMEDOUT &&
		    !p->stop && p->have_row) {
			draw(p);
		}
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

double hil_rn_row_work(const struct rn_target *t, const struct hil_config *cfg,
		       int index, uint8_t op, uint32_t len, uint32_t ad_len)
{
	const struct work_seen *w = NULL;
	double tpb = 0.0;
	size_t i, j, n = 0;

	/* What a byte costs where nothing of this operation was seen: the
	 * average of what was. */
	for (i = 0; i < HIL_TARGET_MAX_ALGS; i++) {
		for (j = 0; j <= HILP_OP_KEYSETUP; j++) {
			if (t->work[i][j].seen) {
				tpb += (double)t->work[i][j].count /
				       ((double)t->work[i][j].bytes + 64.0);
				n++;
			}
		}
	}
	tpb = n > 0 ? tpb / (double)n : 1.0;
	if (index >= 0 && index < HIL_TARGET_MAX_ALGS &&
	    op <= HILP_OP_KEYSETUP) {
		w = &t->work[index][op];
		/* A decryption costs about what its encryption does. */
		if (!w->seen && op == HILP_OP_DECRYPT) {
			w = &t->work[index][HILP_OP_ENCRYPT];
		} else if (!w->seen && op == HILP_OP_ENCRYPT) {
			w = &t->work[index][HILP_OP_DECRYPT];
		}
	}
	return hil_eta_row_work(cfg->bench.runs + cfg->bench.warmup,
				w != NULL && w->seen ? w->count : 0,
				w != NULL ? w->bytes : 0, len + ad_len, tpb);
}

/* HILP_OP_* of a row's operation name; HILP_OP_KEYSETUP + 1: unknown. */
static uint8_t op_code(const char *name)
{
	uint8_t op;

	for (op = 0; op <= HILP_OP_KEYSETUP; op++) {
		if (strcmp(hil_rn_op_name(op), name) == 0) {
			return op;
		}
	}
	return HILP_OP_KEYSETUP + 1;
}

/* The work of the run's rows [from, to). */
static double rows_work(const struct rn_target *t, const struct hil_run *run,
			size_t from, size_t to)
{
	double sum = 0.0;
	size_t i;

	for (i = from; i < to; i++) {
		const struct hil_row *r = &run->rows[i];

		sum += hil_rn_row_work(
			t, run->cfg,
			hil_rn_find_target_alg(t, r->algorithm,
					       r->implementation),
			op_code(r->operation), r->msg_len, r->ad_len);
	}
	return sum;
}

void hil_rn_progress_start(struct rn_progress *pr, const struct rn_target *t,
			   const struct hil_run *run,
			   const struct hil_runner_opts *opts, double last_s)
{
	struct run_progress *p;
	const char *lvl = getenv("HILRUN_LOG");

	if (!isatty(2) || pr->planned == 0 || lvl == NULL || lvl[0] < '2' ||
	    opts->no_progress) {
		return;
	}
	p = calloc(1, sizeof(*p));
	if (p == NULL) {
		return; /* no progress line: nothing else depends on it */
	}
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->wake, NULL);
	p->eta.last_s = last_s;
	p->eta.start_ms = hil_now_ms();
	p->eta.done_ms = p->eta.start_ms;
	p->rows_before = run->n_rows;
	p->rows_seen = run->n_rows;
	p->work_before = rows_work(t, run, 0, run->n_rows);
	if (pthread_create(&p->th, NULL, ticker, p) != 0) {
		pthread_mutex_destroy(&p->lock);
		pthread_cond_destroy(&p->wake);
		free(p);
		return;
	}
	pr->line = p;
}

void hil_rn_progress(struct rn_progress *pr, const struct rn_target *t,
		     const struct rn_subject *subj, const struct hil_run *run,
		     const struct registry_alg *ref, const struct rn_point *pt)
{
	struct run_progress *p = pr->line;
	size_t done = run->n_rows;

	if (p == NULL) {
		return;
	}
	pthread_mutex_lock(&p->lock);
	/* The work is weighed again at every row: an operation seen since
	 * (verification, a shorter length) gives its real cost. */
	p->eta.total_work = p->work_before + hil_rn_plan_work(subj, t, run);
	p->eta.done_work =
		p->work_before + rows_work(t, run, p->rows_before, done);
	p->eta.row_work = hil_rn_row_work(t, run->cfg, pt->index, pt->op,
					  pt->len, pt->ad_len);
	if (done > p->rows_seen) {
		p->eta.done_ms = hil_now_ms(); /* a row just finished */
	}
	p->rows_seen = done;
	snprintf(p->what, sizeof(p->what), "%s: %s/%s %s %u B, row %zu of %zu",
		 run->cfg->name, ref->name, ref->impl, hil_rn_op_name(pt->op),
		 (unsigned)pt->len, done + 1, pr->planned);
	p->have_row = 1;
	draw(p);
	pthread_mutex_unlock(&p->lock);
}

void hil_rn_progress_done(struct rn_progress *pr)
{
	struct run_progress *p = pr->line;

	if (p == NULL) {
		return;
	}
	pthread_mutex_lock(&p->lock);
	p->stop = 1;
	pthread_cond_signal(&p->wake);
	pthread_mutex_unlock(&p->lock);
	pthread_join(p->th, NULL);
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->wake);
	free(p);
	pr->line = NULL;
	flockfile(stderr);
	fprintf(stderr, "\r\033[K");
	fflush(stderr);
	funlockfile(stderr);
}
