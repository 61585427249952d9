/* energy_window: what the sampler's samples say: a window's mean power, an idle baseline, the samples themselves, the sampler's status, and energy per operation over repeated windows. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"energy"

#include "energy.h"
#include "energy_int.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/err.h"
#include "util/log.h"

/* The i-th retained sample, oldest first; lock held. */
static const struct hil_energy_sample *at(const struct hil_energy *s, size_t i)
{
	return &s->ring[(s->head + s->cap - s->count + i) % s->cap];
}

/*
 * Wait until the sampler has polled past t1, or has ended, or two cycles
 * and WINDOW_WAIT_EXTRA_NS have passed; lock held (the manual clock polls
 * here, without it).
 */
static void wait_past(struct hil_energy *s, uint64_t t1_ns)
{
	uint64_t deadline =
		hil_energy_clock(s) + 2 * s->period_ns + WINDOW_WAIT_EXTRA_NS;
	struct timespec ts = hil_energy_abs_ts(deadline);

	if (s->manual_ns != NULL) {
		pthread_mutex_unlock(&s->lock);
		hil_energy_manual_run(s, deadline, t1_ns);
		pthread_mutex_lock(&s->lock);
		return;
	}
	while (s->running && s->err == HIL_OK && s->last_poll_ns < t1_ns &&
	       hil_energy_now_ns() < deadline) {
		pthread_cond_timedwait(&s->polled, &s->lock, &ts);
	}
}

/* Why a window cannot be trusted, or HIL_OK; lock held. */
static int window_check(struct hil_energy *s, uint64_t t0_ns, uint64_t t1_ns)
{
	if (s->err != HIL_OK && s->err_t_ns <= t1_ns) {
		if (s->err_t_ns >= t0_ns) {
			hil_err("energy window of %.1f ms: no figure, sampling "
				"failed %.1f ms into it: %s",
				(double)(t1_ns - t0_ns) / 1e6,
				(double)(s->err_t_ns - t0_ns) / 1e6, s->why);
		} else {
			hil_err("energy window of %.1f ms: no figure, sampling "
				"failed before it began: %s",
				(double)(t1_ns - t0_ns) / 1e6, s->why);
		}
		return s->err;
	}
	if (t0_ns < s->t_start_ns) {
		hil_err("energy window begins %.1f ms before sampling did",
			(double)(s->t_start_ns - t0_ns) / 1e6);
		return HIL_ERR_NA;
	}
	if (s->last_poll_ns < t1_ns) {
		hil_err("energy window ends %.1f ms after the last read of the "
			"sensor (sampling %s)",
			(double)(t1_ns - s->last_poll_ns) / 1e6,
			s->running ? "lags" : "ended");
		return HIL_ERR_NA;
	}
	if (s->overwritten > 0 && s->count > 0 && at(s, 0)->t_lo_ns > t0_ns) {
		hil_err("energy window begins before the oldest sample kept "
			"(ring of %zu samples): read windows sooner or raise "
			"the capacity",
			s->cap);
		return HIL_ERR_NA;
	}
	return HIL_OK;
}

int hil_energy_window(struct hil_energy *s, uint64_t t0_ns, uint64_t t1_ns,
		      struct hil_energy_stats *out)
{
	double sum = 0.0, sum2 = 0.0, bus = 0.0, sh = 0.0;
	uint64_t prev_t = 0, gap = 0;
	size_t i, n = 0;
	int ret;

	if (s == NULL || out == NULL || t1_ns <= t0_ns) {
		return HIL_ERR_ARG;
	}
	memset(out, 0, sizeof(*out));
	pthread_mutex_lock(&s->lock);
	wait_past(s, t1_ns);
	ret = window_check(s, t0_ns, t1_ns);
	if (ret != HIL_OK) {
		pthread_mutex_unlock(&s->lock);
		return ret;
	}
	out->min_uw = INFINITY;
	out->max_uw = -INFINITY;
	for (i = 0; i < s->count; i++) {
		const struct hil_energy_sample *x = at(s, i);

		if (x->t_lo_ns < t0_ns || x->t_ns > t1_ns) {
			continue;
		}
		if (n > 0 && x->t_ns - prev_t > gap) {
			gap = x->t_ns - prev_t;
		}
		prev_t = x->t_ns;
		n++;
		sum += x->power_uw;
		sum2 += x->power_uw * x->power_uw;
		bus += x->bus_mv;
		sh += x->shunt_uv;
		out->min_uw =
			x->power_uw < out->min_uw ? x->power_uw : out->min_uw;
		out->max_uw =
			x->power_uw > out->max_uw ? x->power_uw : out->max_uw;
	}
	pthread_mutex_unlock(&s->lock);
	out->duration_s = (double)(t1_ns - t0_ns) / 1e9;
	if (n == 0) {
		hil_err("energy window of %.2f ms holds no complete conversion "
			"(one cycle takes %.2f ms): make it longer",
			out->duration_s * 1e3, (double)s->period_ns / 1e6);
		out->min_uw = out->max_uw = 0.0;
		return HIL_ERR_NA;
	}
	if (gap > 4 * s->period_ns) {
		hil_warn("energy window: %.1f ms without a sample (the sampler "
			 "stalled); the mean uses %zu samples",
			 (double)gap / 1e6, n);
	}
	out->samples = n;
	out->mean_uw = sum / (double)n;
	out->stddev_uw = n > 1 ? sqrt(fmax(0.0, (sum2 - sum * sum / (double)n) /
							(double)(n - 1)))
			       : 0.0;
	out->mean_bus_mv = bus / (double)n;
	out->mean_current_ua = sh / (double)n / s->src.shunt_ohm;
	out->energy_uj = out->mean_uw * out->duration_s;
	return HIL_OK;
}

int hil_energy_baseline(struct hil_energy *s, uint64_t t0_ns, uint64_t t1_ns,
			double *mean_uw)
{
	struct hil_energy_stats st;
	int ret;

	if (mean_uw == NULL) {
		return HIL_ERR_ARG;
	}
	ret = hil_energy_window(s, t0_ns, t1_ns, &st);
	*mean_uw = ret == HIL_OK ? st.mean_uw : 0.0;
	return ret;
}

size_t hil_energy_copy(struct hil_energy *s, uint64_t t0_ns, uint64_t t1_ns,
		       struct hil_energy_sample *out, size_t max)
{
	size_t i, n = 0;

	if (s == NULL || out == NULL) {
		return 0;
	}
	pthread_mutex_lock(&s->lock);
	for (i = 0; i < s->count && n < max; i++) {
		const struct hil_energy_sample *x = at(s, i);

		if (x->t_lo_ns >= t0_ns && x->t_ns <= t1_ns) {
			out[n++] = *x;
		}
	}
	pthread_mutex_unlock(&s->lock);
	return n;
}

int hil_energy_status(struct hil_energy *s, struct hil_energy_status *out)
{
	if (s == NULL || out == NULL) {
		return HIL_ERR_ARG;
	}
	memset(out, 0, sizeof(*out));
	pthread_mutex_lock(&s->lock);
	out->running = s->running;
	out->samples = s->samples;
	out->polls = s->polls;
	out->not_ready = s->not_ready;
	out->overwritten = s->overwritten;
	if (s->samples > 1 && s->t_last_ns > s->t_first_ns) {
		out->sample_rate_hz =
			(double)(s->samples - 1) /
			((double)(s->t_last_ns - s->t_first_ns) / 1e9);
	}
	out->expected_rate_hz = 1e9 / (double)s->period_ns;
	out->err = s->err;
	out->err_t_ns = s->err_t_ns;
	memcpy(out->why, s->why, sizeof(out->why));
	pthread_mutex_unlock(&s->lock);
	return HIL_OK;
}

int hil_energy_per_op(const struct hil_energy_window_in *w, size_t n,
		      double clock_hz, struct hil_energy_per_op *out)
{
	double se = 0.0, se2 = 0.0, sd = 0.0, sd2 = 0.0, sa = 0.0, si = 0.0;
	size_t i;

	if (w == NULL || out == NULL || n == 0 || !(clock_hz > 0.0)) {
		return HIL_ERR_ARG;
	}
	memset(out, 0, sizeof(*out));
	for (i = 0; i < n; i++) {
		double t_op, e, d;

		if (!(w[i].ticks_per_op > 0.0)) {
			return HIL_ERR_ARG;
		}
		t_op = w[i].ticks_per_op / clock_hz; /* s */
		e = w[i].active_uw * t_op;	     /* uW x s = uJ */
		d = (w[i].active_uw - w[i].idle_uw) * t_op;
		se += e;
		se2 += e * e;
		sd += d;
		sd2 += d * d;
		sa += w[i].active_uw;
		si += w[i].idle_uw;
	}
	out->windows = (unsigned)n;
	out->uj_per_op = se / (double)n;
	out->uj_per_op_dynamic = sd / (double)n;
	if (n > 1) {
		out->spread_uj = sqrt(fmax(0.0, (se2 - se * se / (double)n) /
							(double)(n - 1)));
		out->spread_dynamic_uj = sqrt(fmax(
			0.0, (sd2 - sd * sd / (double)n) / (double)(n - 1)));
	}
	out->active_mw = sa / (double)n / 1000.0;
	out->idle_mw = si / (double)n / 1000.0;
	return HIL_OK;
}
