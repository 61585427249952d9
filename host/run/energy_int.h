/* energy_int: the sampler's state, shared by energy.c (the sampling thread) and energy_window.c (queries on its samples); not a public API. */
#ifndef HIL_ENERGY_INT_H
#define HIL_ENERGY_INT_H

#include <pthread.h>
#include <stdint.h>
#include <time.h>

#include "drivers/sensor/sensor.h"
#include "run/energy.h"

#define WINDOW_WAIT_EXTRA_NS 100000000u /* 100 ms beyond two cycles */
/*
 * Datasheets give conversion times as typical values (the 10% comes from
 * the first sensor, the INA219: 532 us typical, 586 us at most at 12 bit):
 * a conversion's start is bounded using the nominal cycle plus 10%.
 */
#define CYCLE_SLACK_NUM	     11u
#define CYCLE_SLACK_DEN	     10u

/* The poller's state between two polls (only the poller touches it). */
struct poller {
	uint64_t p_est;	 /* estimated conversion cycle */
	uint64_t margin; /* aim this far past the expected completion */
	uint64_t retry;	 /* poll again this soon after a not-ready one */
	uint64_t offset; /* how early a probe aims */
	uint64_t next;	 /* when to poll next */
	uint64_t prev_before, c_est, lock_t;
	unsigned failures, since_probe;
	int prev_ready, probing, settled;
};

struct hil_energy {
	struct hil_sensor_source src; /* its dev: only the poller touches it */
	uint64_t period_ns;	      /* nominal conversion cycle */
	unsigned max_failures;
	uint64_t *manual_ns; /* NULL: CLOCK_MONOTONIC and a thread */
	uint64_t read_ns;    /* on the manual clock: one sensor read */
	struct poller pl;

	pthread_mutex_t lock;  /* everything below */
	pthread_cond_t wake;   /* to the thread: stop */
	pthread_cond_t polled; /* from the thread: a poll finished */
	pthread_t thread;
	int thread_live; /* created, not yet joined */
	int stop;
	int running;

	struct hil_energy_sample *ring;
	size_t cap, head, count;
	uint64_t overwritten;
	uint64_t samples, polls, not_ready;
	uint64_t t_start_ns; /* sampling began */
	uint64_t t_first_ns, t_last_ns;
	uint64_t last_poll_ns; /* start of the latest finished poll */
	int err;
	uint64_t err_t_ns;
	char why[200];
};

/* The sampler's clock in ns: CLOCK_MONOTONIC or the manual one. */
uint64_t hil_energy_clock(const struct hil_energy *s);

/* An absolute CLOCK_MONOTONIC time for a timed wait. */
struct timespec hil_energy_abs_ts(uint64_t ns);

/* On the manual clock: poll every read due until until_ns, or until a poll
 * has started at or after polled_ns. */
void hil_energy_manual_run(struct hil_energy *s, uint64_t until_ns,
			   uint64_t polled_ns);

#endif /* HIL_ENERGY_INT_H */
