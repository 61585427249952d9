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

#include "drivers/board/board.h"
#include "drivers/link/link.h"
#include "drivers/flasher/flasher.h"
#include "util/err.h"
#include "util/jail.h"
#include "util/log.h"
#include "util/proc.h"
#include "drivers/sensor/sensor.h"

#define CROSS_CC	 "arm-none-eabi-gcc"
#define TOOL_TIMEOUT_MS	 5000u	/* --version and friends */
#define PROBE_TIMEOUT_MS 10000u /* init with a probe: < 1 s */
#define DETAIL_LEN	 1024

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

/*
 * `program --version` works: @return 1 and print ok, or print FAIL.
 * jailed: run in a jail (util/jail.h) of the system and the program's
 * folder only, as the flasher's own version op runs it
 * (hil_flasher_tool_version): a flasher program is run jailed, whatever it
 * is asked.
 */
static int check_version(struct hil_doctor *d, const char *name,
			 const char *program, const char *hint, int jailed)
{
	char *const argv[] = {(char *)program, "--version", NULL};
	struct hil_jail *jail = NULL;
	char out[1024] = "", why[600];
	int status = -1, ret = HIL_OK;

	if (jailed) {
		ret = hil_jail_new(&jail);
	}
	if (ret == HIL_OK) {
		ret = hil_proc_capture_jailed(argv, out, sizeof(out),
					      TOOL_TIMEOUT_MS, &status, jail,
					      NULL);
	}
	hil_jail_free(jail);
	if (ret == HIL_OK && status == 0) {
		hil_doctor_report(d, name, HIL_V_OK, "%s",
				  hil_doctor_first_line(out));
		return 1;
	}
	hil_doctor_tool_failure(why, sizeof(why), program, ret, status, out);
	hil_doctor_report(d, name, HIL_V_FAIL, "%s%s", why, hint);
	return 0;
}

static void check_toolchain(struct hil_doctor *d)
{
	char *const specs[] = {CROSS_CC, "-print-file-name=nano.specs", NULL};
	char out[1024];
	const char *path;
	struct stat st;
	int status, ret, have_cc;

	have_cc = check_version(
		d, "cross compiler", CROSS_CC,
		" (Debian: apt install gcc-arm-none-eabi libnewlib-arm-none-eabi)",
		0);
	if (!have_cc) {
		hil_doctor_report(d, "newlib nano specs", HIL_V_SKIP,
				  "no cross compiler to ask");
	} else {
		/* gcc prints the bare name back when it has no such file. */
		ret = run(specs, out, sizeof(out), TOOL_TIMEOUT_MS, &status);
		path = hil_doctor_first_line(out);
		if (ret == HIL_OK && status == 0 && path[0] == '/' &&
		    stat(path, &st) == 0) {
			hil_doctor_report(d, "newlib nano specs", HIL_V_OK,
					  "%s", path);
		} else {
			hil_doctor_report(
				d, "newlib nano specs", HIL_V_FAIL,
				"%s does not find nano.specs (the stub links with --specs=nano.specs; Debian: apt install libnewlib-arm-none-eabi)",
				CROSS_CC);
		}
	}
	check_version(d, "make", "make", " (Debian: apt install make)", 0);
}

/* The flasher's probe op (OpenOCD: `-c "init; shutdown"`). */
static void check_probe(struct hil_doctor *d, const struct hil_config *cfg)
{
	struct hil_flasher_params p;
	struct hil_flasher *f = NULL;
	char dir[] = "/tmp/hilrun-doctor-XXXXXX";
	char who[HIL_CFG_NAME + 16], why[DETAIL_LEN - 96];
	int ret;

	if (cfg->flasher.probe_serial[0] != '\0') {
		snprintf(who, sizeof(who), "probe %s",
			 cfg->flasher.probe_serial);
	} else {
		snprintf(who, sizeof(who), "any probe");
	}
	if (mkdtemp(dir) == NULL) {
		hil_doctor_report(d, "probe", HIL_V_FAIL,
				  "%s: cannot make a scratch directory: %s",
				  who, strerror(errno));
		return;
	}
	ret = hil_flasher_params_from_config(cfg, dir, &p);
	p.jail = d->jail; /* the probe check runs as the flashing would */
	/* flasher.timeout_ms bounds every flasher action, this one too. */
	p.timeout_ms = cfg->flasher.timeout_ms != 0 && cfg->flasher.timeout_ms <
							       PROBE_TIMEOUT_MS
			       ? cfg->flasher.timeout_ms
			       : PROBE_TIMEOUT_MS;
	if (ret == HIL_OK) {
		ret = hil_flasher_open(&f, cfg->flasher.type, &p);
	}
	if (ret != HIL_OK) {
		hil_doctor_report(d, "probe", HIL_V_FAIL,
				  "%s: cannot set up the %s flasher: %s", who,
				  cfg->flasher.type, hil_strerror(ret));
	} else {
		ret = hil_flasher_probe(f, why, sizeof(why));
		if (ret == HIL_OK) {
			hil_doctor_report(d, "probe", HIL_V_OK,
					  "%s reaches the target", who);
		} else {
			hil_doctor_report(d, "probe", HIL_V_FAIL, "%s: %s", who,
					  why);
		}
		hil_flasher_close(f);
	}
	if (rmdir(dir) != 0) {
		hil_warn("%s: cannot remove: %s", dir, strerror(errno));
	}
}

static void check_flasher(struct hil_doctor *d, const struct hil_config *cfg)
{
	const char *type = cfg->flasher.type;
	const struct hil_flasher_ops *ops;
	char hint[128];
	int have;

	if (cfg->flasher.program[0] == '\0') {
		hil_doctor_report(d, "flasher program", HIL_V_SKIP,
				  "flasher %s runs no program", type);
		return;
	}
	ops = hil_flasher_find(type);
	snprintf(hint, sizeof(hint), " (Debian: apt install %s)",
		 ops != NULL && ops->package != NULL ? ops->package : type);
	have = check_version(d, "flasher program", cfg->flasher.program, hint,
			     d->jail);
	/* Only a flasher with a probe check drives a programmer. */
	if (ops == NULL || ops->probe == NULL) {
		hil_doctor_report(d, "probe", HIL_V_SKIP,
				  "flasher %s needs no probe", type);
		return;
	}
	if (!have) {
		if (ops->doctor != NULL) {
			snprintf(hint, sizeof(hint), "%s config", type);
			hil_doctor_report(d, hint, HIL_V_SKIP,
					  "%s does not run",
					  cfg->flasher.program);
		}
		hil_doctor_report(d, "probe", HIL_V_SKIP, "%s does not run",
				  cfg->flasher.program);
		return;
	}
	if (ops->doctor != NULL && !ops->doctor(d, cfg)) {
		hil_doctor_report(d, "probe", HIL_V_SKIP,
				  "the %s setup is not valid", type);
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

static void check_libserialport(struct hil_doctor *d, const char *port,
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
			hil_doctor_report(d, "libserialport opens port",
					  HIL_V_OK, "%s (link runs at %u Bd)",
					  port, baud);
			return;
		}
	}
	/* Read right after the failing call: it lives in errno. */
	msg = sp_last_error_message();
	switch (r) {
	case SP_ERR_ARG:
		hil_doctor_report(
			d, "libserialport opens port", HIL_V_FAIL,
			"%s: libserialport does not take it for a serial port (SP_ERR_ARG)",
			port);
		break;
	case SP_ERR_MEM:
		hil_doctor_report(d, "libserialport opens port", HIL_V_FAIL,
				  "%s: no memory", port);
		break;
	case SP_ERR_SUPP:
		hil_doctor_report(d, "libserialport opens port", HIL_V_FAIL,
				  "%s: not supported by libserialport", port);
		break;
	default:
		hil_doctor_report(d, "libserialport opens port", HIL_V_FAIL,
				  "%s: %s", port,
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

static void check_serial(struct hil_doctor *d, const struct hil_config *cfg)
{
	const char *port = cfg->link.port;
	char group[64];
	struct stat st;
	int fd, err;

	if (!hil_link_needs_port(cfg->link.type)) {
		hil_doctor_report(d, "serial port", HIL_V_SKIP,
				  "link %s uses no serial port",
				  cfg->link.type);
		return;
	}
	if (port[0] == '\0') {
		hil_doctor_report(
			d, "serial port exists", HIL_V_FAIL,
			"link.port is empty (a board's USB serial port is usually /dev/ttyACM0; /dev/serial/by-id/ names stay stable)");
		hil_doctor_report(d, "serial port is a tty", HIL_V_SKIP,
				  "no port");
		hil_doctor_report(d, "serial port read/write", HIL_V_SKIP,
				  "no port");
		hil_doctor_report(d, "libserialport opens port", HIL_V_SKIP,
				  "no port");
		return;
	}
	if (stat(port, &st) != 0) {
		err = errno;
		const struct hil_board_driver *b =
			hil_board_find(cfg->board.name);
		char hint[160] = "";

		if (b != NULL && b->port_by_id != NULL) {
			snprintf(hint, sizeof(hint), "; the %s's is %s",
				 b->name, b->port_by_id);
		}
		hil_doctor_report(
			d, "serial port exists", HIL_V_FAIL,
			"%s: %s (is the board plugged in? 'ls /dev/serial/by-id/' lists the ports%s)",
			port, strerror(err), hint);
		hil_doctor_report(d, "serial port is a tty", HIL_V_SKIP,
				  "%s is not there", port);
		hil_doctor_report(d, "serial port read/write", HIL_V_SKIP,
				  "%s is not there", port);
		hil_doctor_report(d, "libserialport opens port", HIL_V_SKIP,
				  "%s is not there", port);
		return;
	}
	hil_doctor_report(d, "serial port exists", HIL_V_OK, "%s", port);
	if (!S_ISCHR(st.st_mode)) {
		hil_doctor_report(
			d, "serial port is a tty", HIL_V_FAIL,
			"%s is not a character device (link.port must name a serial device)",
			port);
		hil_doctor_report(d, "serial port read/write", HIL_V_SKIP,
				  "%s is not a device", port);
		hil_doctor_report(d, "libserialport opens port", HIL_V_SKIP,
				  "%s is not a device", port);
		return;
	}
	hil_doctor_report(d, "serial port is a tty", HIL_V_OK,
			  "%s is a character device", port);
	/* O_NONBLOCK: never wait for carrier; the open itself tells EACCES. */
	fd = open(port, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		port_group(&st, group, sizeof(group));
		if (err == EACCES || err == EPERM) {
			hil_doctor_report(
				d, "serial port read/write", HIL_V_FAIL,
				"%s: %s (it belongs to group %s: 'sudo usermod -aG %s $USER', then log in again; usually the dialout group)",
				port, strerror(err), group, group);
		} else if (err == EBUSY) {
			hil_doctor_report(
				d, "serial port read/write", HIL_V_FAIL,
				"%s: %s (another program holds it: a terminal, or ModemManager probing it)",
				port, strerror(err));
		} else {
			hil_doctor_report(d, "serial port read/write",
					  HIL_V_FAIL, "%s: %s", port,
					  strerror(err));
		}
		hil_doctor_report(d, "libserialport opens port", HIL_V_SKIP,
				  "%s cannot be opened", port);
		return;
	}
	close(fd);
	hil_doctor_report(d, "serial port read/write", HIL_V_OK,
			  "%s opens for reading and writing", port);
	check_libserialport(d, port, cfg->link.baud);
}

/*
 * The sensor bus opens and the configured chip answers at its address.
 * Read only: the chip keeps whatever settings it has (hil_sensor_probe).
 */
static void check_sensor(struct hil_doctor *d, const struct hil_config *cfg)
{
	char detail[DETAIL_LEN - 64];

	if (!hil_sensor_configured(cfg)) {
		hil_doctor_report(d, "sensor bus", HIL_V_SKIP,
				  "no sensor configured");
		return;
	}
	if (hil_sensor_probe(cfg, detail, sizeof(detail)) == HIL_OK) {
		hil_doctor_report(d, "sensor bus", HIL_V_OK, "%s", detail);
	} else {
		hil_doctor_report(d, "sensor bus", HIL_V_FAIL, "%s", detail);
	}
}

int hil_doctor(const struct hil_config *cfg, FILE *out)
{
	struct hil_doctor d = {out, 0, 0};
	char why[512];

	if (cfg == NULL || out == NULL) {
		return HIL_ERR_ARG;
	}
	/* The flasher's checks read the config's files (OpenOCD's Tcl can
	 * exec): jailed as a run's flashing is, and as a run does, unjailed
	 * with a warning where no jail can be set up. */
	d.jail = hil_jail_probe(why, sizeof(why)) == HIL_OK;
	if (!d.jail) {
		hil_warn(
			"no jail for the flasher's checks: %s. They run UNJAILED (docs/lab.md, \"The jail\")",
			why);
	}
	check_toolchain(&d);
	check_flasher(&d, cfg);
	check_serial(&d, cfg);
	check_sensor(&d, cfg);
	return d.fails > 0 ? HIL_ERR_NA : HIL_OK;
}
