/* energyrun: the energy phase of a row: the stub's energy loop sized to the sensor, idle baselines around it, energy per operation. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"energy"

#include "energyrun.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "energy.h"
#include "util/err.h"
#include "util/log.h"
#include "drivers/sensor/sensor.h"
#include "session/stub.h"

#define WINDOWS_MAX    1000 /* as sensor.windows allows */
/* Bytes of an ENERGY request or reply on the wire, framing included. */
#define FRAME_BYTES    40
/* The USB serial adapter's worst latency before a byte is seen. */
#define USB_LATENCY_NS 2000000ull
/* Trial loops stop growing once the loop itself takes this long. */
#define TRIAL_NS       10000000ull
/* Times a row may grow its loop or measure a window again when it comes
 * out short. */
#define REGROW_MAX     4

struct hil_energyrun {
	struct hil_sensor_source src; /* its model is NULL on hardware */
	struct hil_energy *sampler;   /* started with the first row's energy */
	struct hil_energyrun_opts opts;
	uint64_t cycle_ns; /* one shunt + bus conversion cycle */
	uint64_t guard_ns; /* trimmed off each end of an active window */
	int dead;	   /* the sensor stopped answering */
	char dead_why[200];
};

/* The simulated load on (the stub loops) or off; nothing on hardware. */
static void model_load(const struct hil_energyrun *e, int on)
{
	if (e->src.model != NULL && e->src.load != NULL) {
		e->src.load(e->src.model, on);
	}
}

int hil_energyrun_start(struct hil_energyrun **out,
			const struct hil_sensor_source *src,
			const struct hil_energyrun_opts *opts)
{
	struct hil_energyrun *e;
	double wire_s;

	*out = NULL;
	if (src == NULL || opts == NULL || opts->conversions == 0 ||
	    opts->windows == 0 || opts->windows > WINDOWS_MAX ||
	    !(opts->clock_hz > 0.0)) {
		return HIL_ERR_ARG;
	}
	e = calloc(1, sizeof(*e));
	if (e == NULL) {
		return HIL_ERR_NOMEM;
	}
	e->src = *src;
	e->opts = *opts;
	e->cycle_ns = (uint64_t)src->cycle_us * 1000u;
	/* The loop starts after the request has crossed the wire and ends
	 * before the reply does: trim both, plus the adapter's latency. */
	wire_s = opts->baud > 0 ? FRAME_BYTES * 10.0 / opts->baud : 0.0;
	e->guard_ns = USB_LATENCY_NS + (uint64_t)(wire_s * 1e9);
	model_load(e, 0);
	*out = e;
	return HIL_OK;
}

void hil_energyrun_free(struct hil_energyrun *e)
{
	if (e == NULL) {
		return;
	}
	model_load(e, 0);
	hil_energy_free(e->sampler);
	free(e);
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts;

	ts.tv_sec = (time_t)(ns / 1000000000u);
	ts.tv_nsec = (long)(ns % 1000000000u);
	while (nanosleep(&ts, &ts) != 0) {
	}
}

/* One energy loop of req->count operations, timestamped around the call. */
static int run_loop(struct hil_energyrun *e, struct hil_session *s, uint8_t op,
		    const struct hilp_energy_req *req,
		    struct hilp_energy_rep *rep, uint64_t *t_send,
		    uint64_t *t_reply, uint64_t expect_ns)
{
	unsigned timeout =
		e->opts.timeout_ms + (unsigned)(4 * expect_ns / 1000000u);
	int ret;

	model_load(e, 1);
	*t_send = hil_energy_now_ns();
	ret = hil_target_energy(s, op, req, rep, timeout);
	*t_reply = hil_energy_now_ns();
	model_load(e, 0);
	return ret;
}

/* The sensor's failure, remembered so that later rows fail at once. */
static void sensor_died(struct hil_energyrun *e, int err)
{
	struct hil_energy_status st;

	e->dead = 1;
	if (hil_energy_status(e->sampler, &st) == HIL_OK && st.why[0] != '\0') {
		snprintf(e->dead_why, sizeof(e->dead_why), "%s", st.why);
	} else {
		snprintf(e->dead_why, sizeof(e->dead_why), "%s",
			 hil_strerror(err));
	}
	hil_err("the sensor stopped answering: %s; energy is not measured from here on, cycle figures are",
		e->dead_why);
}

/* Fill out->error; a sensor error (not a short window) ends the sampler. */
static int window_failed(struct hil_energyrun *e, int err, const char *what,
			 struct hil_row_energy *out)
{
	struct hil_energy_status st;

	if (err != HIL_ERR_NA ||
	    (hil_energy_status(e->sampler, &st) == HIL_OK && st.err != 0)) {
		sensor_died(e, err);
		snprintf(out->error, sizeof(out->error),
			 "the sensor stopped answering during the %s: %s", what,
			 e->dead_why);
	} else {
		snprintf(out->error, sizeof(out->error),
			 "no complete conversion inside the %s", what);
	}
	out->state = HIL_ENERGY_FAILED;
	return HIL_OK;
}

/*
 * The idle baseline: the stub waits for a command while the host sleeps.
 * A window that caught no whole conversion (the sampler was starved by a
 * busy host) is measured again, a few times.
 */
static int idle_window(struct hil_energyrun *e, uint64_t ns, double *mean_uw)
{
	struct hil_energy_status st;
	uint64_t t0, t1;
	int tries, ret = HIL_ERR_NA;

	for (tries = 0; tries <= REGROW_MAX; tries++) {
		t0 = hil_energy_now_ns();
		sleep_ns(ns);
		t1 = hil_energy_now_ns();
		ret = hil_energy_baseline(e->sampler, t0, t1, mean_uw);
		if (ret != HIL_ERR_NA ||
		    (hil_energy_status(e->sampler, &st) == HIL_OK &&
		     st.err != 0)) {
			return ret;
		}
		hil_warn(
			"no complete conversion in an idle window of %.1f ms: measuring it again",
			(double)(t1 - t0) / 1e6);
	}
	return ret;
}

/*
 * How many operations make a loop of at least the target length: one
 * operation first (the round trip alone), then 16 times more until the loop
 * itself takes TRIAL_NS, then scaled. Never so many that the stub's 32-bit
 * tick count of the loop could wrap.
 */
static int size_loop(struct hil_energyrun *e, struct hil_session *s, uint8_t op,
		     struct hilp_energy_req *req, uint64_t target_ns)
{
	struct hilp_energy_rep rep;
	uint64_t t0, t1, base_ns, w;
	uint32_t k = 1;
	uint32_t k_max;
	double want;
	int ret;

	req->count = 1;
	ret = run_loop(e, s, op, req, &rep, &t0, &t1, 0);
	if (ret != HIL_OK) {
		return ret;
	}
	base_ns = t1 - t0;
	k_max = 0x7FFFFFFFu / (rep.ticks > 0 ? rep.ticks : 1u);
	for (;;) {
		uint32_t next = k > k_max / 16u ? k_max : k * 16u;

		if (next == k) {
			break; /* as long as the counter allows */
		}
		k = next;
		req->count = k;
		ret = run_loop(e, s, op, req, &rep, &t0, &t1, 0);
		if (ret != HIL_OK) {
			return ret;
		}
		w = t1 - t0;
		if (w > base_ns + TRIAL_NS) {
			want = ceil((double)k * (double)target_ns /
				    (double)(w - base_ns) * 1.1);
			k = want > (double)k_max ? k_max : (uint32_t)want;
			break;
		}
	}
	req->count = k > 0 ? k : 1;
	return HIL_OK;
}

/* Operations in the loop of a simulated sensor's row: enough to check the
 * output and average the loop's own instructions away. */
#define MODEL_LOOP_OPS 8u
/* Polls of the simulated chip for one fresh conversion before giving up. */
#define MODEL_POLLS    20000

/*
 * A simulated chip's power with its load off or on: a first read clears a
 * conversion-ready flag left from before the load changed; of the next two
 * conversions, the first may have begun before the change, the second
 * began after it and is the one read. Whatever the host's load, the figure
 * is of one whole conversion under that load: no window of host time is
 * measured, so nothing can stall.
 */
static int model_power(struct hil_energyrun *e, int on, double *mw,
		       double *bus_mv)
{
	struct hil_sensor_sample smp;
	int fresh = 0, polls, ret;

	model_load(e, on);
	ret = e->src.sample(e->src.dev, &smp);
	if (ret != HIL_OK) {
		return ret;
	}
	for (polls = 0; fresh < 2 && polls < MODEL_POLLS; polls++) {
		ret = e->src.sample(e->src.dev, &smp);
		if (ret != HIL_OK) {
			return ret;
		}
		if (smp.cnvr) {
			fresh++;
		} else {
			sleep_ns(e->cycle_ns / 4 > 0 ? e->cycle_ns / 4 : 1000);
		}
	}
	if (fresh < 2) {
		return HIL_ERR_TIMEOUT;
	}
	*bus_mv = smp.bus_mv;
	/* uV / ohm = uA; x mV = nW; / 1e6 = mW. */
	*mw = smp.bus_mv * (smp.shunt_uv / e->src.shunt_ohm) / 1e6;
	return HIL_OK;
}

/*
 * A simulated sensor's row: the stub's energy loop once (its output
 * checked, its ticks per operation counted), and the chip read with the
 * load off and on. Energy = power x ticks / clock: the same arithmetic as a
 * measured row, without the windows of host time a real sensor needs.
 */
static int model_row(struct hil_energyrun *e, struct hil_session *s, uint8_t op,
		     const struct hilp_energy_req *req,
		     uint32_t expected_digest, struct hil_row_energy *out)
{
	struct hilp_energy_req rq = *req;
	struct hilp_energy_rep rep;
	double idle_mw, active_mw, bus_mv, bus_idle_mv;
	uint64_t ts, tr;
	int ret;

	rq.count = MODEL_LOOP_OPS;
	ret = run_loop(e, s, op, &rq, &rep, &ts, &tr, 0);
	if (ret != HIL_OK) {
		return ret;
	}
	if (rep.digest != expected_digest) {
		out->state = HIL_ENERGY_FAILED;
		snprintf(
			out->error, sizeof(out->error),
			"the energy loop's output digest %08x differs from the host's %08x",
			(unsigned)rep.digest, (unsigned)expected_digest);
		return HIL_OK;
	}
	ret = model_power(e, 0, &idle_mw, &bus_idle_mv);
	if (ret == HIL_OK) {
		ret = model_power(e, 1, &active_mw, &bus_mv);
	}
	model_load(e, 0);
	if (ret != HIL_OK) {
		e->dead = 1;
		snprintf(e->dead_why, sizeof(e->dead_why), "%s",
			 hil_strerror(ret));
		hil_err("the sensor stopped answering: %s; energy is not measured from here on, cycle figures are",
			e->dead_why);
		out->state = HIL_ENERGY_FAILED;
		snprintf(out->error, sizeof(out->error),
			 "the sensor stopped answering during the row: %s",
			 e->dead_why);
		return HIL_OK;
	}
	(void)bus_idle_mv;
	out->state = HIL_ENERGY_OK;
	out->active_mw = active_mw;
	out->idle_mw = idle_mw;
	out->bus_v = bus_mv / 1000.0;
	out->ticks_per_op = (double)rep.ticks / (double)rep.count;
	out->op_seconds = out->ticks_per_op / e->opts.clock_hz;
	/* mW x s = mJ; x 1000 = uJ. */
	out->uj_per_op = active_mw * out->op_seconds * 1e3;
	out->uj_per_op_dynamic = (active_mw - idle_mw) * out->op_seconds * 1e3;
	out->windows = 1;
	out->samples = 2;
	out->ops_per_window = rq.count;
	return HIL_OK;
}

int hil_energyrun_row(struct hil_energyrun *e, struct hil_session *s,
		      uint8_t op, const struct hilp_energy_req *req,
		      uint32_t expected_digest, struct hil_row_energy *out)
{
	struct hil_energy_window_in win[WINDOWS_MAX];
	struct hilp_energy_req rq = *req;
	struct hil_energy_per_op per;
	struct hil_energy_status st;
	struct hil_energy_stats ws;
	uint64_t active_ns, idle_ns, ts, tr;
	uint32_t min_samples;
	double idle_before, idle_after, bus_mv = 0.0, ticks = 0.0;
	unsigned i, regrow = 0;
	int ret;

	memset(out, 0, sizeof(*out));
	out->model = e->src.model != NULL;
	if (e->dead) {
		out->state = HIL_ENERGY_FAILED;
		snprintf(out->error, sizeof(out->error),
			 "the sensor stopped answering earlier in the run: %s",
			 e->dead_why);
		return HIL_OK;
	}
	if (e->src.model != NULL) {
		return model_row(e, s, op, req, expected_digest, out);
	}
	if (e->sampler == NULL) {
		ret = hil_energy_start(&e->sampler, &e->src, NULL);
		if (ret != HIL_OK) {
			e->sampler = NULL;
			e->dead = 1;
			snprintf(e->dead_why, sizeof(e->dead_why),
				 "the sampler did not start: %s",
				 hil_strerror(ret));
			out->state = HIL_ENERGY_FAILED;
			snprintf(out->error, sizeof(out->error), "%s",
				 e->dead_why);
			return HIL_OK;
		}
	}
	active_ns = (e->opts.conversions + 2u) * e->cycle_ns + 2 * e->guard_ns;
	idle_ns = (e->opts.conversions / 2u + 8u) * e->cycle_ns;
	ret = size_loop(e, s, op, &rq, active_ns);
	if (ret != HIL_OK) {
		return ret;
	}

	ret = idle_window(e, idle_ns, &idle_before);
	if (ret != HIL_OK) {
		return window_failed(e, ret, "idle window before the loop",
				     out);
	}
	/* Half the conversions the window should hold: fewer means the
	 * sensor or the host fell behind. */
	min_samples =
		e->opts.conversions / 2u > 0 ? e->opts.conversions / 2u : 1u;
	for (i = 0; i < e->opts.windows; i++) {
		struct hilp_energy_rep rep;

		ret = run_loop(e, s, op, &rq, &rep, &ts, &tr, active_ns);
		if (ret != HIL_OK) {
			return ret;
		}
		if (tr - ts < active_ns && regrow < REGROW_MAX) {
			/* Shorter than sized (the first trial loops also paid
			 * for the emulator's translation, or the host was
			 * busy): grow the loop from this one and do the
			 * window again. */
			uint64_t work = tr - ts;
			double want =
				ceil((double)rq.count * (double)active_ns /
				     (double)(work > 0 ? work : 1) * 1.2);
			uint32_t k_max =
				0x7FFFFFFFu / (rep.ticks / rep.count > 0
						       ? rep.ticks / rep.count
						       : 1u);

			if (rq.count < k_max) {
				rq.count = want > (double)k_max
						   ? k_max
						   : (uint32_t)want;
				regrow++;
				i--;
				continue;
			}
		}
		if (rep.digest != expected_digest) {
			out->state = HIL_ENERGY_FAILED;
			snprintf(
				out->error, sizeof(out->error),
				"the energy loop's output digest %08x differs from the host's %08x",
				(unsigned)rep.digest,
				(unsigned)expected_digest);
			return HIL_OK;
		}
		if (tr - ts <= 2 * e->guard_ns) {
			out->state = HIL_ENERGY_FAILED;
			snprintf(
				out->error, sizeof(out->error),
				"the energy loop took %.1f ms, too short to sample",
				(double)(tr - ts) / 1e6);
			return HIL_OK;
		}
		ret = hil_energy_window(e->sampler, ts + e->guard_ns,
					tr - e->guard_ns, &ws);
		if (ret != HIL_OK) {
			return window_failed(e, ret, "energy loop", out);
		}
		if (ws.samples < min_samples && regrow < REGROW_MAX) {
			/* The sampler fell behind (a busy host, a USB
			 * hiccup): the chip keeps only its latest conversion,
			 * so the window is measured again. */
			hil_warn(
				"%zu conversions inside the energy loop, %u wanted: measuring the window again",
				ws.samples, (unsigned)e->opts.conversions);
			regrow++;
			i--;
			continue;
		}
		if (ws.samples < min_samples) {
			out->state = HIL_ENERGY_FAILED;
			snprintf(
				out->error, sizeof(out->error),
				"only %zu conversions inside the energy loop, %u wanted: the sampler fell behind or the loop was cut short",
				ws.samples, (unsigned)e->opts.conversions);
			return HIL_OK;
		}
		win[i].active_uw = ws.mean_uw;
		win[i].ticks_per_op = (double)rep.ticks / (double)rep.count;
		out->samples += ws.samples;
		bus_mv += ws.mean_bus_mv;
		ticks += win[i].ticks_per_op;
	}

	ret = idle_window(e, idle_ns, &idle_after);
	if (ret != HIL_OK) {
		return window_failed(e, ret, "idle window after the loop", out);
	}
	for (i = 0; i < e->opts.windows; i++) {
		win[i].idle_uw = (idle_before + idle_after) / 2.0;
	}
	ret = hil_energy_per_op(win, e->opts.windows, e->opts.clock_hz, &per);
	if (ret != HIL_OK) {
		out->state = HIL_ENERGY_FAILED;
		snprintf(out->error, sizeof(out->error),
			 "energy per operation could not be computed: %s",
			 hil_strerror(ret));
		return HIL_OK;
	}
	out->state = HIL_ENERGY_OK;
	out->uj_per_op = per.uj_per_op;
	out->uj_per_op_dynamic = per.uj_per_op_dynamic;
	out->spread_uj = per.spread_uj;
	out->spread_dynamic_uj = per.spread_dynamic_uj;
	out->active_mw = per.active_mw;
	out->idle_mw = per.idle_mw;
	out->windows = per.windows;
	out->bus_v = bus_mv / e->opts.windows / 1000.0;
	out->ticks_per_op = ticks / e->opts.windows;
	out->op_seconds = out->ticks_per_op / e->opts.clock_hz;
	out->ops_per_window = rq.count;
	if (hil_energy_status(e->sampler, &st) == HIL_OK) {
		out->sample_rate_hz = st.sample_rate_hz;
	}
	return HIL_OK;
}
