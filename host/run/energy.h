/* energy: the sensor's sampling thread, power and energy over time windows, and energy per operation with its spread. */
#ifndef HIL_ENERGY_H
#define HIL_ENERGY_H

#include <stddef.h>
#include <stdint.h>

struct hil_sensor_source;
struct hil_energy;

/*
 * Time base: CLOCK_MONOTONIC in nanoseconds (hil_energy_now_ns()). The host
 * timestamps a measurement window with it (e.g. just before sending the
 * stub's energy-loop command and just after its reply), then asks for the
 * window's mean power: only conversions that lie wholly inside the window
 * count, so the edges never blend idle into active.
 */

/* One conversion as the sampler saw it. */
struct hil_energy_sample {
	uint64_t t_ns;	  /* when the reading arrived (upper bound of the
			     conversion's end) */
	uint64_t t_lo_ns; /* lower bound of the conversion's start */
	double shunt_uv;
	double bus_mv;
	double power_uw; /* bus x shunt / R: finer than the power register */
};

struct hil_energy_config {
	size_t capacity;       /* ring size in samples; 0: 65536 (about a
				  minute at 12-bit shunt and bus) */
	unsigned max_failures; /* consecutive failed reads that end the
				  sampler; 0: 3 */
	/*
	 * NULL: CLOCK_MONOTONIC, and a thread polls. Otherwise a clock in ns
	 * that only the sampler moves: no thread, and time passes only in
	 * hil_energy_advance() and in the window queries that wait, each
	 * sensor read taking manual_read_ns. With a sensor model on the same
	 * clock the sampling is deterministic: for tests and models, where
	 * a busy machine must not change what is sampled.
	 */
	uint64_t *manual_clock_ns;
	uint64_t manual_read_ns;
};

/* Power over a window. */
struct hil_energy_stats {
	size_t samples; /* conversions wholly inside the window */
	double mean_uw;
	double stddev_uw; /* over the samples */
	double min_uw, max_uw;
	double mean_bus_mv;
	double mean_current_ua;
	double duration_s; /* t1 - t0 */
	double energy_uj;  /* mean_uw x duration_s */
};

struct hil_energy_status {
	int running;
	uint64_t samples;	 /* conversions recorded */
	uint64_t polls;		 /* sensor reads (each one batch on the bus) */
	uint64_t not_ready;	 /* polls that found no new conversion */
	uint64_t overwritten;	 /* samples lost to the ring's wrap */
	double sample_rate_hz;	 /* achieved, first to last sample */
	double expected_rate_hz; /* 1 / the configured conversion cycle */
	int err;		 /* HIL_OK, or why the sampler ended */
	uint64_t err_t_ns;
	char why[200];
};

/* One repeated window of the energy loop and the idle around it. */
struct hil_energy_window_in {
	double active_uw;    /* mean power while the operation looped */
	double idle_uw;	     /* mean idle power (baseline) */
	double ticks_per_op; /* counter ticks of one operation */
};

struct hil_energy_per_op {
	double uj_per_op;	  /* mean over windows of active x t_op */
	double uj_per_op_dynamic; /* mean of (active - idle) x t_op */
	double spread_uj;	  /* sample standard deviation over windows */
	double spread_dynamic_uj;
	double active_mw;
	double idle_mw;
	unsigned windows;
};

/** CLOCK_MONOTONIC in ns, the sampler's time base. */
uint64_t hil_energy_now_ns(void);

/**
 * Start sampling: a thread polls the conversion-ready flag, timed to the
 * sensor's conversion cycle, and keeps every new conversion in a ring.
 * The sensor must not be used by anyone else until hil_energy_stop().
 * @param out receives the sampler; free it with hil_energy_free().
 * @param src copied; its dev must outlive the sampler, converting shunt
 *        and bus continuously (hil_sensor_source()).
 * @param cfg NULL for the defaults.
 * @return HIL_OK, HIL_ERR_ARG (not a continuous mode), HIL_ERR_NOMEM,
 *         HIL_ERR_IO (no thread).
 */
int hil_energy_start(struct hil_energy **out,
		     const struct hil_sensor_source *src,
		     const struct hil_energy_config *cfg);

/**
 * On a manual clock: poll every sensor read due until t_ns, then set the
 * clock to t_ns (if sampling still runs). A read that comes due at t_ns is
 * made; the clock may end a read's duration past t_ns.
 * @return HIL_OK, or HIL_ERR_ARG when the sampler has no manual clock.
 */
int hil_energy_advance(struct hil_energy *s, uint64_t t_ns);

/**
 * Stop the thread and wait for it; the samples stay for queries.
 * @return HIL_OK, or the error that ended the sampler earlier (a sensor
 *         that stopped answering, an overflow), also in the status.
 */
int hil_energy_stop(struct hil_energy *s);

/** Stop if needed and free. NULL is allowed. */
void hil_energy_free(struct hil_energy *s);

/**
 * Mean power and energy over [t0_ns, t1_ns]. While the sampler runs this
 * waits (up to two conversion cycles plus 100 ms) until it has read past t1.
 * @return HIL_OK; the sampler's error if it failed before t1 (never a
 *         number from a partly covered window); HIL_ERR_NA (no complete
 *         conversion inside, samples already overwritten, or sampling ended
 *         before t1); HIL_ERR_ARG.
 */
int hil_energy_window(struct hil_energy *s, uint64_t t0_ns, uint64_t t1_ns,
		      struct hil_energy_stats *out);

/** Idle baseline: the mean power (uW) of a window. @return as above. */
int hil_energy_baseline(struct hil_energy *s, uint64_t t0_ns, uint64_t t1_ns,
			double *mean_uw);

/**
 * Copy the samples wholly inside [t0_ns, t1_ns] (for plots and reports).
 * @return the number copied (at most max).
 */
size_t hil_energy_copy(struct hil_energy *s, uint64_t t0_ns, uint64_t t1_ns,
		       struct hil_energy_sample *out, size_t max);

/** Counters, achieved rate and the sampler's error. */
int hil_energy_status(struct hil_energy *s, struct hil_energy_status *out);

/**
 * Energy per operation from n repeated windows: per window
 * E = active x ticks / clock_hz and E_dyn = (active - idle) x ticks /
 * clock_hz; reported are their means and standard deviations (n - 1).
 * @return HIL_OK or HIL_ERR_ARG (n == 0, clock_hz or ticks not > 0).
 */
int hil_energy_per_op(const struct hil_energy_window_in *w, size_t n,
		      double clock_hz, struct hil_energy_per_op *out);

#endif /* HIL_ENERGY_H */
