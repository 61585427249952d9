/* sensorcmd: `hilrun sensor`, live readings (bus V, shunt mV, mA, mW) from the configured sensor for checking the wiring. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"sensor"

#include "sensorcmd.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "config/config.h"
#include "util/err.h"
#include "util/log.h"
#include "drivers/sensor/driver.h"
#include "drivers/sensor/sensor.h"

#define USAGE	     "usage: hilrun sensor --config FILE [--seconds N]"
#define LINE_NS	     200000000ull  /* one output line per 0.2 s */
#define STALL_MIN_NS 1000000000ull /* no conversion for this long: stuck */

struct sums {
	unsigned n;	   /* conversions */
	unsigned overflow; /* of them, flagged out of range */
	double bus_mv;
	double shunt_uv;
	double current_ua;
	double power_uw;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void sleep_us(unsigned us)
{
	struct timespec ts = {(time_t)(us / 1000000u),
			      (long)(us % 1000000u) * 1000};

	nanosleep(&ts, NULL);
}

static int parse_args(int argc, char **argv, const char **config,
		      double *seconds)
{
	char *end;
	int i;

	*config = NULL;
	*seconds = 0.0; /* until stopped */
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-v") == 0 || strcmp(argv[i], "-q") == 0) {
			continue;
		}
		if (strcmp(argv[i], "--config") == 0 && i + 1 < argc) {
			*config = argv[++i];
		} else if (strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) {
			i++;
			errno = 0;
			*seconds = strtod(argv[i], &end);
			if (errno != 0 || end == argv[i] || *end != '\0' ||
			    !(*seconds > 0.0 && *seconds <= 1e6)) {
				hil_err("--seconds %s: expected a "
					"positive number of seconds",
					argv[i]);
				return HIL_ERR_ARG;
			}
		} else {
			hil_err("%s%s (%s)", argv[i],
				i + 1 >= argc && argv[i][0] == '-'
					? " needs a value"
					: ": unknown argument",
				USAGE);
			return HIL_ERR_ARG;
		}
	}
	if (*config == NULL) {
		hil_err("no configuration given (%s)", USAGE);
		return HIL_ERR_ARG;
	}
	return HIL_OK;
}

/* Mean of the conversions since the last line; zeroes the sums. */
static void print_line(FILE *out, double t_s, struct sums *s)
{
	double n = s->n;

	fprintf(out, "%8.2f %8.3f %9.3f %9.3f %9.3f %5u%s\n", t_s,
		s->bus_mv / n / 1e3, s->shunt_uv / n / 1e3,
		s->current_ua / n / 1e3, s->power_uw / n / 1e3, s->n,
		s->overflow > 0 ? "  OVERFLOW: beyond the shunt range, clipped"
				: "");
	fflush(out);
	memset(s, 0, sizeof(*s));
}

/*
 * Poll the conversion-ready flag a few times per conversion cycle and sum
 * every new conversion; print the means every LINE_NS.
 */
static int read_loop(struct hil_sensor *sensor, double seconds,
		     const volatile sig_atomic_t *stop, FILE *out)
{
	struct hil_sensor_info info;
	struct hil_sensor_reading r;
	struct sums sums;
	uint64_t t0, t, next, last_conv, stall_ns, end_ns;
	unsigned poll_us;
	int ret;

	hil_sensor_describe(sensor, &info);
	/* A quarter cycle keeps the lag small without flooding the bus. */
	poll_us = info.cycle_us / 4;
	if (poll_us < 200) {
		poll_us = 200;
	}
	stall_ns = 10ull * info.cycle_us * 1000ull;
	if (stall_ns < STALL_MIN_NS) {
		stall_ns = STALL_MIN_NS;
	}
	memset(&sums, 0, sizeof(sums));
	t0 = now_ns();
	next = t0 + LINE_NS;
	last_conv = t0;
	end_ns = seconds > 0.0 ? t0 + (uint64_t)llround(seconds * 1e9) : 0;
	fprintf(out, "%8s %8s %9s %9s %9s %5s\n", "time_s", "bus_V", "shunt_mV",
		"mA", "mW", "n");
	fflush(out);
	for (;;) {
		if (stop != NULL && *stop) {
			return HIL_OK;
		}
		ret = hil_sensor_read(sensor, &r);
		t = now_ns();
		if (ret != HIL_OK) {
			hil_err("%s at 0x%02x on %s stopped "
				"answering after %.2f s: %s",
				info.chip, info.address, info.bus,
				(double)(t - t0) / 1e9, hil_strerror(ret));
			return ret;
		}
		if (r.cnvr) {
			/* Current from the shunt voltage, as the sampler. */
			sums.n++;
			sums.overflow += r.out_of_range != 0;
			sums.bus_mv += r.bus_mv;
			sums.shunt_uv += r.shunt_uv;
			sums.current_ua += r.current_ua;
			sums.power_uw += r.power_uw;
			last_conv = t;
		} else if (t - last_conv > stall_ns) {
			hil_err("%s at 0x%02x on %s answers but "
				"completed no conversion in %.1f s (one takes "
				"%u us): is it in continuous mode?",
				info.chip, info.address, info.bus,
				(double)(t - last_conv) / 1e9, info.cycle_us);
			return HIL_ERR_TIMEOUT;
		}
		if (t >= next && sums.n > 0) {
			print_line(out, (double)(t - t0) / 1e9, &sums);
			next += LINE_NS;
			if (next <= t) {
				next = t + LINE_NS; /* a slow bus fell behind */
			}
		}
		if (end_ns != 0 && t >= end_ns) {
			if (sums.n > 0) {
				print_line(out, (double)(t - t0) / 1e9, &sums);
			}
			return HIL_OK;
		}
		sleep_us(poll_us);
	}
}

int hil_sensorcmd_run(int argc, char **argv, const volatile sig_atomic_t *stop,
		      FILE *out)
{
	struct hil_config *cfg;
	struct hil_sensor *sensor = NULL;
	const char *config = NULL;
	char err[1024], line[512], names[256];
	double seconds = 0.0;
	int ret;

	if (argv == NULL || out == NULL) {
		return HIL_ERR_ARG;
	}
	ret = parse_args(argc, argv, &config, &seconds);
	if (ret != HIL_OK) {
		return ret;
	}
	cfg = calloc(1, sizeof(*cfg));
	if (cfg == NULL) {
		return HIL_ERR_NOMEM;
	}
	ret = hil_config_load(config, cfg, err, sizeof(err));
	if (ret != HIL_OK) {
		hil_err("%s", err);
		goto out;
	}
	if (!hil_sensor_configured(cfg)) {
		hil_sensor_names(names, sizeof(names));
		hil_err("%s configures no sensor (sensor.type is "
			"\"none\"): add a \"sensor\" section with its type "
			"(%s) and its bus, see docs/wiring.md",
			config, names);
		ret = HIL_ERR_NA;
		goto out;
	}
	ret = hil_sensor_open(cfg, &sensor, err, sizeof(err));
	if (ret != HIL_OK) {
		hil_err("%s", err);
		goto out;
	}
	hil_sensor_summary(sensor, line, sizeof(line));
	fprintf(out, "# %s\n", line);
	if (hil_sensor_is_model(sensor)) {
		fprintf(out, "# simulated: these readings come from a model, "
			     "not from a board\n");
	}
	ret = read_loop(sensor, seconds, stop, out);
	hil_sensor_close(sensor);
out:
	hil_config_free(cfg);
	free(cfg);
	return ret;
}
