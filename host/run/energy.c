/* energy: the sampling thread (CNVR polling timed to the conversion cycle) and its ring of samples; energy_window.c answers queries on them. */
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
#include "drivers/sensor/sensor.h"

#define DEFAULT_CAPACITY     65536u
#define DEFAULT_MAX_FAILURES 3u
#define PROBE_EVERY	     4u /* samples between early polls that re-lock */
#define PROBE_SETTLED	     16u /* the same once the cycle estimate is settled */

uint64_t hil_energy_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The sampler's time: the manual clock, or CLOCK_MONOTONIC. */
uint64_t hil_energy_clock(const struct hil_energy *s)
{
	return s->manual_ns != NULL ? *s->manual_ns : hil_energy_now_ns();
}

struct timespec hil_energy_abs_ts(uint64_t ns)
{
	struct timespec ts;

	ts.tv_sec = (time_t)(ns / 1000000000u);
	ts.tv_nsec = (long)(ns % 1000000000u);
	return ts;
}

/* Sleep until t_ns on CLOCK_MONOTONIC; 1 if asked to stop meanwhile. */
static int sleep_until(struct hil_energy *s, uint64_t t_ns)
{
	struct timespec ts = hil_energy_abs_ts(t_ns);
	int stop;

	pthread_mutex_lock(&s->lock);
	while (!s->stop && hil_energy_now_ns() < t_ns) {
		pthread_cond_timedwait(&s->wake, &s->lock, &ts);
	}
	stop = s->stop;
	pthread_mutex_unlock(&s->lock);
	return stop;
}

/* Called with the lock held. */
static void ring_push(struct hil_energy *s, const struct hil_energy_sample *x)
{
	s->ring[s->head] = *x;
	s->head = (s->head + 1) % s->cap;
	if (s->count < s->cap) {
		s->count++;
	} else {
		s->overwritten++;
	}
	if (s->samples == 0) {
		s->t_first_ns = x->t_ns;
	}
	s->t_last_ns = x->t_ns;
	s->samples++;
}

static void poll_done(struct hil_energy *s, uint64_t t_before, int ready,
		      const struct hil_energy_sample *x)
{
	pthread_mutex_lock(&s->lock);
	s->polls++;
	if (x != NULL) {
		ring_push(s, x);
	} else if (!ready) {
		s->not_ready++;
	}
	s->last_poll_ns = t_before;
	pthread_cond_broadcast(&s->polled);
	pthread_mutex_unlock(&s->lock);
}

static void fail(struct hil_energy *s, int ret, uint64_t t, unsigned failures)
{
	pthread_mutex_lock(&s->lock);
	s->err = ret;
	s->err_t_ns = t;
	s->running = 0; /* the thread is on its way out */
	if (ret == HIL_ERR_CONFIG) {
		snprintf(s->why, sizeof(s->why),
			 "%s at 0x%02x: reading out of range (overflow) "
			 "after %llu samples",
			 s->src.chip, s->src.address,
			 (unsigned long long)s->samples);
	} else {
		snprintf(s->why, sizeof(s->why),
			 "%s at 0x%02x stopped answering after %llu "
			 "samples (%u failed reads in a row): %s",
			 s->src.chip, s->src.address,
			 (unsigned long long)s->samples, failures,
			 hil_strerror(ret));
	}
	pthread_cond_broadcast(&s->polled);
	pthread_mutex_unlock(&s->lock);
	hil_err("%s", s->why);
}

/*
 * Refine the cycle estimate from the time between two bracketed locks;
 * *settled tells whether the estimate was already within 2%.
 */
static uint64_t refine(uint64_t p_est, uint64_t nominal, uint64_t dt,
		       int *settled)
{
	/*
	 * The number of cycles in between comes from the elapsed time, not
	 * from the samples (a stall loses conversions); locks are at most a
	 * few cycles apart, so a 10% error cannot miscount them.
	 */
	uint64_t k = (dt + p_est / 2) / p_est;
	int64_t err;

	*settled = 0;
	if (k == 0 || k > 64) {
		return p_est;
	}
	err = (int64_t)(dt / k) - (int64_t)p_est;
	if (llabs(err) >= (long long)(p_est / 5)) {
		return p_est; /* a stall or a miscount: ignore */
	}
	*settled = llabs(err) < (long long)(p_est / 50);
	p_est = (uint64_t)((int64_t)p_est + err / 4);
	if (p_est < nominal * 7 / 10) {
		p_est = nominal * 7 / 10;
	}
	if (p_est > nominal * 14 / 10) {
		p_est = nominal * 14 / 10;
	}
	return p_est;
}

/*
 * Poll the sensor right after each conversion should complete: the next
 * poll is aimed at the estimated completion time plus a small margin. A poll
 * that finds no new conversion (CNVR clear) is repeated every 1/16 cycle;
 * the first one that succeeds brackets the completion: the estimate is
 * locked to it and the cycle refined from the time since the previous lock
 * (conversion times are typical values: they vary by chip and
 * temperature). Every PROBE_EVERY samples (PROBE_SETTLED once the cycle
 * estimate stops moving) one poll is aimed early on purpose so that locks
 * keep happening; a probe that still finds a conversion means the estimate
 * lags, and the next probe aims twice as early. So on a batching bus a sample costs about one USB write and read.
 */
static void poller_init(struct hil_energy *s)
{
	struct poller *pl = &s->pl;
	const uint64_t P = s->period_ns;

	memset(pl, 0, sizeof(*pl));
	pl->p_est = P;
	pl->margin = P / 32;
	pl->retry = P / 16;
	pl->offset = P / 8;
	pl->next = hil_energy_clock(s);
	pl->prev_ready = 1;
	if (pl->retry < 20000) {
		pl->retry = 20000; /* 20 us: no point polling faster than USB */
	}
}

/* One sensor read; on the manual clock it takes read_ns. */
static int read_sensor(struct hil_energy *s, struct hil_sensor_sample *r,
		       uint64_t *t_before, uint64_t *t_after)
{
	int ret;

	*t_before = hil_energy_clock(s);
	if (s->manual_ns != NULL) {
		*s->manual_ns += s->read_ns / 2;
	}
	ret = s->src.sample(s->src.dev, r);
	if (ret == HIL_OK && r->overflow) {
		ret = HIL_ERR_CONFIG; /* the current is beyond the range */
	}
	if (s->manual_ns != NULL) {
		*s->manual_ns += s->read_ns - s->read_ns / 2;
	}
	*t_after = hil_energy_clock(s);
	return ret;
}

/* One poll, due at s->pl.next; @return 1 when sampling has to end. */
static int poll_once(struct hil_energy *s)
{
	struct poller *pl = &s->pl;
	const uint64_t P = s->period_ns;
	struct hil_sensor_sample r;
	struct hil_energy_sample x;
	uint64_t t_before, t_after;
	int ret;

	ret = read_sensor(s, &r, &t_before, &t_after);
	if (ret != HIL_OK) {
		pl->failures++;
		if (ret == HIL_ERR_CONFIG || pl->failures >= s->max_failures) {
			fail(s, ret, t_after, pl->failures);
			return 1;
		}
		poll_done(s, t_before, 0, NULL);
		pl->next = t_after + P / 4;
		pl->prev_ready = 1; /* no bracket across a failure */
		pl->probing = 0;
		return 0;
	}
	pl->failures = 0;
	if (r.cnvr && pl->prev_before != 0) {
		/*
		 * This conversion ended after the previous poll's power read
		 * cleared CNVR (which began at prev_before) and before this
		 * reading arrived.
		 */
		uint64_t span = P * CYCLE_SLACK_NUM / CYCLE_SLACK_DEN;

		x.t_ns = t_after;
		x.t_lo_ns = pl->prev_before > span ? pl->prev_before - span : 0;
		x.shunt_uv = r.shunt_uv;
		x.bus_mv = r.bus_mv;
		x.power_uw = r.bus_mv * r.shunt_uv / s->src.shunt_ohm / 1000.0;
		poll_done(s, t_before, 1, &x);
	} else {
		poll_done(s, t_before, r.cnvr, NULL);
	}
	if (r.cnvr) {
		if (!pl->prev_ready) {
			/* Bracketed between two polls: lock. */
			if (pl->lock_t != 0) {
				pl->p_est = refine(pl->p_est, P,
						   t_before - pl->lock_t,
						   &pl->settled);
			}
			pl->lock_t = t_before;
			pl->c_est = t_before;
			pl->offset = P / 8;
		} else if (pl->probing) {
			/* Early, yet ready: the estimate lags. */
			pl->c_est = t_before;
			pl->offset =
				pl->offset * 2 < P / 2 ? pl->offset * 2 : P / 2;
			pl->since_probe = PROBE_EVERY;
		} else {
			pl->c_est += pl->p_est;
		}
		pl->since_probe++;
		pl->probing = pl->since_probe >=
			      (pl->settled ? PROBE_SETTLED : PROBE_EVERY);
		if (pl->probing) {
			pl->since_probe = 0;
		}
		pl->next = pl->c_est + pl->p_est + pl->margin -
			   (pl->probing ? pl->offset : 0);
	} else {
		pl->probing = 0;
		pl->next = t_after + pl->retry;
	}
	pl->prev_ready = r.cnvr;
	pl->prev_before = t_before;
	if (pl->next < t_after) {
		pl->next = t_after; /* late (a stall): poll at once */
	}
	return 0;
}

static void sampling_ended(struct hil_energy *s)
{
	pthread_mutex_lock(&s->lock);
	s->running = 0;
	pthread_cond_broadcast(&s->polled);
	pthread_mutex_unlock(&s->lock);
}

static void *sampler(void *arg)
{
	struct hil_energy *s = arg;

	while (!sleep_until(s, s->pl.next) && !poll_once(s)) {
	}
	sampling_ended(s);
	return NULL;
}

/*
 * The manual clock: poll every read due up to until_ns (stopping early
 * once a poll began at or after polled_ns), then let the clock reach
 * until_ns if it stopped early for no reason other than time.
 */
void hil_energy_manual_run(struct hil_energy *s, uint64_t until_ns,
			   uint64_t polled_ns)
{
	while (s->running && !s->stop && s->pl.next <= until_ns &&
	       s->last_poll_ns < polled_ns) {
		if (*s->manual_ns < s->pl.next) {
			*s->manual_ns = s->pl.next;
		}
		if (poll_once(s)) {
			sampling_ended(s);
		}
	}
	if (s->last_poll_ns < polled_ns && *s->manual_ns < until_ns) {
		*s->manual_ns = until_ns;
	}
}

int hil_energy_advance(struct hil_energy *s, uint64_t t_ns)
{
	if (s == NULL || s->manual_ns == NULL) {
		return HIL_ERR_ARG;
	}
	hil_energy_manual_run(s, t_ns, UINT64_MAX);
	return HIL_OK;
}

int hil_energy_start(struct hil_energy **out,
		     const struct hil_sensor_source *src,
		     const struct hil_energy_config *cfg)
{
	pthread_condattr_t ca;
	struct hil_energy *s;
	int ret = HIL_ERR_NOMEM;

	if (out == NULL || src == NULL || src->sample == NULL) {
		return HIL_ERR_ARG;
	}
	*out = NULL;
	if (!src->continuous || src->cycle_us == 0 || !(src->shunt_ohm > 0.0)) {
		hil_err("%s at 0x%02x: the sampler needs the continuous shunt "
			"and bus mode",
			src->chip, src->address);
		return HIL_ERR_ARG;
	}
	s = calloc(1, sizeof(*s));
	if (s == NULL) {
		return HIL_ERR_NOMEM;
	}
	s->src = *src;
	s->period_ns = (uint64_t)src->cycle_us * 1000u;
	s->cap = cfg != NULL && cfg->capacity > 0 ? cfg->capacity
						  : DEFAULT_CAPACITY;
	s->max_failures = cfg != NULL && cfg->max_failures > 0
				  ? cfg->max_failures
				  : DEFAULT_MAX_FAILURES;
	s->ring = calloc(s->cap, sizeof(*s->ring));
	if (s->ring == NULL) {
		goto err_free;
	}
	if (pthread_mutex_init(&s->lock, NULL) != 0) {
		goto err_ring;
	}
	/* Monotonic condition clocks: wall-clock steps must not matter. */
	if (pthread_condattr_init(&ca) != 0) {
		goto err_mutex;
	}
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	if (pthread_cond_init(&s->wake, &ca) != 0) {
		pthread_condattr_destroy(&ca);
		goto err_mutex;
	}
	if (pthread_cond_init(&s->polled, &ca) != 0) {
		pthread_condattr_destroy(&ca);
		goto err_wake;
	}
	pthread_condattr_destroy(&ca);
	s->manual_ns = cfg != NULL ? cfg->manual_clock_ns : NULL;
	s->read_ns = cfg != NULL ? cfg->manual_read_ns : 0;
	s->t_start_ns = hil_energy_clock(s);
	s->running = 1;
	poller_init(s);
	if (s->manual_ns != NULL) {
		hil_dbg("sampling %s at 0x%02x every %u us on a manual clock",
			src->chip, src->address, src->cycle_us);
		*out = s;
		return HIL_OK;
	}
	if (pthread_create(&s->thread, NULL, sampler, s) != 0) {
		hil_err("could not start the sampling thread");
		ret = HIL_ERR_IO;
		goto err_polled;
	}
	s->thread_live = 1;
	hil_dbg("sampling %s at 0x%02x every %u us", src->chip, src->address,
		src->cycle_us);
	*out = s;
	return HIL_OK;

err_polled:
	pthread_cond_destroy(&s->polled);
err_wake:
	pthread_cond_destroy(&s->wake);
err_mutex:
	pthread_mutex_destroy(&s->lock);
err_ring:
	free(s->ring);
err_free:
	free(s);
	return ret;
}

int hil_energy_stop(struct hil_energy *s)
{
	int err;

	if (s == NULL) {
		return HIL_ERR_ARG;
	}
	pthread_mutex_lock(&s->lock);
	s->stop = 1;
	pthread_cond_broadcast(&s->wake);
	pthread_mutex_unlock(&s->lock);
	if (s->thread_live) {
		pthread_join(s->thread, NULL);
		s->thread_live = 0;
	}
	pthread_mutex_lock(&s->lock);
	s->running = 0;
	err = s->err;
	pthread_mutex_unlock(&s->lock);
	return err;
}

void hil_energy_free(struct hil_energy *s)
{
	if (s == NULL) {
		return;
	}
	(void)hil_energy_stop(s);
	pthread_cond_destroy(&s->polled);
	pthread_cond_destroy(&s->wake);
	pthread_mutex_destroy(&s->lock);
	free(s->ring);
	free(s);
}
