/* doctor: checks the toolchain, the flasher and its probe, the serial port and the sensor bus of a configuration, one line each, without measuring. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"doctor"

#include "doctor.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <libserialport.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "drivers/flasher/flasher.h"
#include "util/err.h"
#include "util/log.h"
#include "util/proc.h"
#include "drivers/sensor/sensor.h"

#define CROSS_CC	 "arm-none-eabi-gcc"
#define TOOL_TIMEOUT_MS	 5000u	/* --version and friends */
#define CFG_TIMEOUT_MS	 5000u	/* openocd -f ... -c shutdown: ~30 ms */
#define PROBE_TIMEOUT_MS 10000u /* init with a probe: < 1 s */
#define NAME_WIDTH	 28
#define DETAIL_LEN	 1024

enum verdict { V_OK, V_FAIL, V_SKIP };

struct doctor {
	FILE *out;
	int fails;
};

static void report(struct doctor *d, const char *name, enum verdict v,
		   const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void report(struct doctor *d, const char *name, enum verdict v,
		   const char *fmt, ...)
{
	static const char *const word[] = {"ok", "FAIL", "skip"};
	char detail[DETAIL_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	/* One line, whatever a tool printed. */
	detail[strcspn(detail, "\r\n")] = '\0';
	fprintf(d->out, "%-*s %s%s%s\n", NAME_WIDTH, name, word[v],
		detail[0] != '\0' ? ": " : "", detail);
	fflush(d->out);
	if (v == V_FAIL) {
		d->fails++;
	}
}

/*
 * Run argv (bounded), capture its output.
 * @return as hil_proc_capture(); status receives the exit status.
 */
static int run(char *const argv[], char *out, size_t len, unsigned timeout_ms,
	       int *status)
{
	*status = -1;
	return hil_proc_capture(argv, out, len, timeout_ms, status);
}

/* The first non-empty line of text, in place. */
static const char *first_line(char *text)
{
	char *s = text + strspn(text, "\r\n \t");

	s[strcspn(s, "\r\n")] = '\0';
	return s;
}

/* Why a tool could not be run or failed, for a FAIL line. */
static void tool_failure(char *buf, size_t len, const char *program, int ret,
			 int status, char *output)
{
	if (ret == HIL_ERR_NA) {
		snprintf(buf, len, "%s not found in PATH or not executable",
			 program);
	} else if (ret == HIL_ERR_TIMEOUT) {
		snprintf(buf, len, "%s did not answer in time (killed)",
			 program);
	} else if (ret != HIL_OK) {
		snprintf(buf, len, "cannot run %s: %s", program,
			 hil_strerror(ret));
	} else {
		snprintf(buf, len, "%s: exit status %d: %s", program, status,
			 first_line(output));
	}
}

/* `program --version` works: @return 1 and print ok, or print FAIL. */
static int check_version(struct doctor *d, const char *name,
			 const char *program, const char *hint)
{
	char *const argv[] = {(char *)program, "--version", NULL};
	char out[1024], why[600];
	int status, ret;

	ret = run(argv, out, sizeof(out), TOOL_TIMEOUT_MS, &status);
	if (ret == HIL_OK && status == 0) {
		report(d, name, V_OK, "%s", first_line(out));
		return 1;
	}
	tool_failure(why, sizeof(why), program, ret, status, out);
	report(d, name, V_FAIL, "%s%s", why, hint);
	return 0;
}

static void check_toolchain(struct doctor *d)
{
	char *const specs[] = {CROSS_CC, "-print-file-name=nano.specs", NULL};
	char out[1024];
	const char *path;
	struct stat st;
	int status, ret, have_cc;

	have_cc = check_version(
		d, "cross compiler", CROSS_CC,
		" (Debian: apt install gcc-arm-none-eabi libnewlib-arm-none-eabi)");
	if (!have_cc) {
		report(d, "newlib nano specs", V_SKIP,
		       "no cross compiler to ask");
	} else {
		/* gcc prints the bare name back when it has no such file. */
		ret = run(specs, out, sizeof(out), TOOL_TIMEOUT_MS, &status);
		path = first_line(out);
		if (ret == HIL_OK && status == 0 && path[0] == '/' &&
		    stat(path, &st) == 0) {
			report(d, "newlib nano specs", V_OK, "%s", path);
		} else {
			report(d, "newlib nano specs", V_FAIL,
			       "%s does not find nano.specs (the stub links with --specs=nano.specs; Debian: apt install libnewlib-arm-none-eabi)",
			       CROSS_CC);
		}
	}
	check_version(d, "make", "make", " (Debian: apt install make)");
}

/*
 * `openocd -f CFG1 .. -f CFGi -c "echo ok; shutdown"` for each i: exit 0
 * means the files are found and valid, which needs no probe. Cumulative,
 * because a later file may rely on an earlier one (a target after its
 * interface); a failure is then the i-th file's.
 * @return 1 if all passed.
 */
static int check_openocd_cfgs(struct doctor *d, const struct hil_config *cfg)
{
	char *argv[2 + 2 * HIL_CFG_MAX_OPENOCD_CFG + 2];
	char out[4096], why[1200];
	size_t i, n = 0, k;
	int status, ret, all = 1;

	argv[n++] = (char *)cfg->flasher.program;
	for (i = 0; i < cfg->flasher.n_openocd_cfg; i++) {
		argv[n++] = "-f";
		argv[n++] = (char *)cfg->flasher.openocd_cfg[i];
		k = n;
		argv[k++] = "-c";
		argv[k++] = "echo ok; shutdown";
		argv[k] = NULL;
		if (!all) {
			report(d, "openocd config", V_SKIP,
			       "%s: an earlier config failed",
			       cfg->flasher.openocd_cfg[i]);
			continue;
		}
		ret = run(argv, out, sizeof(out), CFG_TIMEOUT_MS, &status);
		if (ret == HIL_OK && status == 0) {
			report(d, "openocd config", V_OK,
			       "%s is valid (checked without a probe)",
			       cfg->flasher.openocd_cfg[i]);
			continue;
		}
		if (ret == HIL_OK) {
			/* OpenOCD names the problem on an "Error" line. */
			char *e = strstr(out, "Error");

			snprintf(
				why, sizeof(why),
				"%s: %s -f ... -c \"echo ok; shutdown\" exits with status %d: %s",
				cfg->flasher.openocd_cfg[i],
				cfg->flasher.program, status,
				first_line(e != NULL ? e : out));
		} else {
			tool_failure(why, sizeof(why), cfg->flasher.program,
				     ret, status, out);
		}
		report(d, "openocd config", V_FAIL, "%s", why);
		all = 0;
	}
	if (cfg->flasher.n_openocd_cfg == 0) {
		report(d, "openocd config", V_FAIL,
		       "flasher.openocd_config lists no file");
		all = 0;
	}
	return all;
}

/* `openocd ... -c "init; shutdown"` through the flasher's probe op. */
static void check_probe(struct doctor *d, const struct hil_config *cfg)
{
	struct hil_flasher_params p;
	struct hil_flasher *f = NULL;
	char dir[] = "/tmp/hilrun-doctor-XXXXXX";
	char who[HIL_CFG_NAME + 16], why[DETAIL_LEN - 96];
	size_t i;
	int ret;

	if (cfg->flasher.probe_serial[0] != '\0') {
		snprintf(who, sizeof(who), "probe %s",
			 cfg->flasher.probe_serial);
	} else {
		snprintf(who, sizeof(who), "any probe");
	}
	if (mkdtemp(dir) == NULL) {
		report(d, "probe", V_FAIL,
		       "%s: cannot make a scratch directory: %s", who,
		       strerror(errno));
		return;
	}
	memset(&p, 0, sizeof(p));
	p.program = cfg->flasher.program;
	p.run_dir = dir;
	/* flasher.timeout_ms bounds every flasher action, this one too. */
	p.timeout_ms = cfg->flasher.timeout_ms != 0 && cfg->flasher.timeout_ms <
							       PROBE_TIMEOUT_MS
			       ? cfg->flasher.timeout_ms
			       : PROBE_TIMEOUT_MS;
	for (i = 0; i < cfg->flasher.n_openocd_cfg && i < HIL_FLASHER_MAX_CFG;
	     i++) {
		p.openocd_cfg[i] = cfg->flasher.openocd_cfg[i];
	}
	p.n_openocd_cfg = i;
	p.probe_serial = cfg->flasher.probe_serial;
	ret = hil_flasher_open(&f, cfg->flasher.type, &p);
	if (ret != HIL_OK) {
		report(d, "probe", V_FAIL,
		       "%s: cannot set up the %s flasher: %s", who,
		       cfg->flasher.type, hil_strerror(ret));
	} else {
		ret = hil_flasher_probe(f, why, sizeof(why));
		if (ret == HIL_OK) {
			report(d, "probe", V_OK, "%s reaches the target", who);
		} else {
			report(d, "probe", V_FAIL, "%s: %s", who, why);
		}
		hil_flasher_close(f);
	}
	if (rmdir(dir) != 0) {
		hil_warn("%s: cannot remove: %s", dir, strerror(errno));
	}
}

static void check_flasher(struct doctor *d, const struct hil_config *cfg)
{
	const char *type = cfg->flasher.type;
	const struct hil_flasher_ops *ops;
	char hint[128];
	int have;

	if (cfg->flasher.program[0] == '\0') {
		report(d, "flasher program", V_SKIP,
		       "flasher %s runs no program", type);
		return;
	}
	ops = hil_flasher_find(type);
	snprintf(hint, sizeof(hint), " (Debian: apt install %s)",
		 ops != NULL && ops->package != NULL ? ops->package : type);
	have = check_version(d, "flasher program", cfg->flasher.program, hint);
	/* Only a flasher with a probe check drives a programmer. */
	if (ops == NULL || ops->probe == NULL) {
		report(d, "probe", V_SKIP, "flasher %s needs no probe", type);
		return;
	}
	if (!have) {
		report(d, "openocd config", V_SKIP, "%s does not run",
		       cfg->flasher.program);
		report(d, "probe", V_SKIP, "%s does not run",
		       cfg->flasher.program);
		return;
	}
	if (!check_openocd_cfgs(d, cfg)) {
		report(d, "probe", V_SKIP, "the OpenOCD config is not valid");
		return;
	}
	check_probe(d, cfg);
}

/* Who may use the port: "group dialout (gid 20)" for the hint. */
static void port_group(const struct stat *st, char *buf, size_t len)
{
	struct group *g = getgrgid(st->st_gid);

	if (g != NULL) {
		snprintf(buf, len, "%s", g->gr_name);
	} else {
		snprintf(buf, len, "%lu", (unsigned long)st->st_gid);
	}
}

static void check_libserialport(struct doctor *d, const char *port,
				unsigned baud)
{
	struct sp_port *sp = NULL;
	enum sp_return r;
	char *msg;

	r = sp_get_port_by_name(port, &sp);
	if (r == SP_OK) {
		r = sp_open(sp, SP_MODE_READ_WRITE);
		if (r == SP_OK) {
			sp_close(sp);
			sp_free_port(sp);
			report(d, "libserialport opens port", V_OK,
			       "%s (link runs at %u Bd)", port, baud);
			return;
		}
	}
	/* Read right after the failing call: it lives in errno. */
	msg = sp_last_error_message();
	switch (r) {
	case SP_ERR_ARG:
		report(d, "libserialport opens port", V_FAIL,
		       "%s: libserialport does not take it for a serial port (SP_ERR_ARG)",
		       port);
		break;
	case SP_ERR_MEM:
		report(d, "libserialport opens port", V_FAIL, "%s: no memory",
		       port);
		break;
	case SP_ERR_SUPP:
		report(d, "libserialport opens port", V_FAIL,
		       "%s: not supported by libserialport", port);
		break;
	default:
		report(d, "libserialport opens port", V_FAIL, "%s: %s", port,
		       msg != NULL ? msg : "unknown error");
		break;
	}
	if (msg != NULL) {
		sp_free_error_message(msg);
	}
	if (sp != NULL) {
		sp_free_port(sp);
	}
}

static void check_serial(struct doctor *d, const struct hil_config *cfg)
{
	const char *port = cfg->link.port;
	char group[64];
	struct stat st;
	int fd, err;

	if (strcmp(cfg->link.type, "serial") != 0) {
		report(d, "serial port", V_SKIP, "link %s uses no serial port",
		       cfg->link.type);
		return;
	}
	if (port[0] == '\0') {
		report(d, "serial port exists", V_FAIL,
		       "link.port is empty (the ST-LINK virtual COM port is usually /dev/ttyACM0; /dev/serial/by-id/ names stay stable)");
		report(d, "serial port is a tty", V_SKIP, "no port");
		report(d, "serial port read/write", V_SKIP, "no port");
		report(d, "libserialport opens port", V_SKIP, "no port");
		return;
	}
	if (stat(port, &st) != 0) {
		err = errno;
		report(d, "serial port exists", V_FAIL,
		       "%s: %s (is the board plugged in? 'ls /dev/serial/by-id/' lists the ports; the NUCLEO's is usb-STMicroelectronics_STM32_STLink_<serial>-if02)",
		       port, strerror(err));
		report(d, "serial port is a tty", V_SKIP, "%s is not there",
		       port);
		report(d, "serial port read/write", V_SKIP, "%s is not there",
		       port);
		report(d, "libserialport opens port", V_SKIP, "%s is not there",
		       port);
		return;
	}
	report(d, "serial port exists", V_OK, "%s", port);
	if (!S_ISCHR(st.st_mode)) {
		report(d, "serial port is a tty", V_FAIL,
		       "%s is not a character device (link.port must name a serial device)",
		       port);
		report(d, "serial port read/write", V_SKIP,
		       "%s is not a device", port);
		report(d, "libserialport opens port", V_SKIP,
		       "%s is not a device", port);
		return;
	}
	report(d, "serial port is a tty", V_OK, "%s is a character device",
	       port);
	/* O_NONBLOCK: never wait for carrier; the open itself tells EACCES. */
	fd = open(port, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		port_group(&st, group, sizeof(group));
		if (err == EACCES || err == EPERM) {
			report(d, "serial port read/write", V_FAIL,
			       "%s: %s (it belongs to group %s: 'sudo usermod -aG %s $USER', then log in again; usually the dialout group)",
			       port, strerror(err), group, group);
		} else if (err == EBUSY) {
			report(d, "serial port read/write", V_FAIL,
			       "%s: %s (another program holds it: a terminal, or ModemManager probing it)",
			       port, strerror(err));
		} else {
			report(d, "serial port read/write", V_FAIL, "%s: %s",
			       port, strerror(err));
		}
		report(d, "libserialport opens port", V_SKIP,
		       "%s cannot be opened", port);
		return;
	}
	close(fd);
	report(d, "serial port read/write", V_OK,
	       "%s opens for reading and writing", port);
	check_libserialport(d, port, cfg->link.baud);
}

/*
 * The sensor bus opens and the INA219 answers at its address. Read only:
 * the chip keeps whatever settings it has (hil_sensor_probe).
 */
static void check_sensor(struct doctor *d, const struct hil_config *cfg)
{
	char detail[DETAIL_LEN - 64];

	if (!hil_sensor_configured(cfg)) {
		report(d, "sensor bus", V_SKIP, "no sensor configured");
		return;
	}
	if (hil_sensor_probe(cfg, detail, sizeof(detail)) == HIL_OK) {
		report(d, "sensor bus", V_OK, "%s", detail);
	} else {
		report(d, "sensor bus", V_FAIL, "%s", detail);
	}
}

int hil_doctor(const struct hil_config *cfg, FILE *out)
{
	struct doctor d = {out, 0};

	if (cfg == NULL || out == NULL) {
		return HIL_ERR_ARG;
	}
	check_toolchain(&d);
	check_flasher(&d, cfg);
	check_serial(&d, cfg);
	check_sensor(&d, cfg);
	return d.fails > 0 ? HIL_ERR_NA : HIL_OK;
}
