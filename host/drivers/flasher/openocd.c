/* openocd: the flasher backend for real boards (NUCLEO-F401RE), spawning OpenOCD 0.12 with an argv, bounded, its output kept in the run folder. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"openocd"

#include "openocd.h"

#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/err.h"
#include "util/jail.h"
#include "util/log.h"
#include "util/proc.h"
#include "util/util.h"

/*
 * Facts (OpenOCD 0.12.0, Debian 12; measured unless marked):
 * - `program FILE verify reset exit` (src/flash/startup.tcl) runs `init`
 *   itself, then `reset init`, `flash write_image erase`, `verify_image`,
 *   `reset run` and `shutdown`. Any failure ends in `shutdown error`:
 *   exit status 1 after one of "** OpenOCD init failed **",
 *   "** Unable to reset target **", "** Programming Failed **" or
 *   "** Verify Failed **". Success exits 0.
 * - Hence everything that must precede `init` (adapter serial, adapter
 *   speed) goes in -c commands *before* the `program` one; -f and -c are
 *   run in command-line order.
 * - `program` splits its arguments as Tcl words and wraps the file name
 *   in braces for `eval`: a path with a space must be given as {PATH}.
 *   A relative name that is not in the working directory is looked up in
 *   OpenOCD's script directories (helper/configuration.c find_file), so we
 *   always pass an absolute path.
 * - Each -f FILE becomes `script {FILE}`: braces and backslashes in a
 *   config name (or in the probe serial, spliced into a -c command) would
 *   change the command, so they are refused.
 * - No probe: "Error: open failed" (also when `adapter serial` matches no
 *   connected probe). No USB permission: "Error: libusb_open() failed
 *   with LIBUSB_ERROR_ACCESS", then "Error: open failed" (not measured:
 *   needs a probe). Another chip: "Warn : UNEXPECTED idcode: 0x2ba01477"
 *   and "Error: expected 1 of 1: 0x1ba01477" (not measured). Target not
 *   reachable: "Error: init mode failed (unable to connect to the
 *   target)" (not measured).
 * - `openocd --version` prints its banner to stderr and exits 0; the first
 *   line is "Open On-Chip Debugger 0.12.0".
 * - `-f board/st_nucleo_f4.cfg -c "echo ok; shutdown"` exits 0 without a
 *   probe; a missing config exits 1 with "Can't find board/...".
 */

#define DEFAULT_PROGRAM	   "openocd"
#define DEFAULT_CFG	   "board/st_nucleo_f4.cfg"
#define DEFAULT_TIMEOUT_MS 60000u
#define VERSION_TIMEOUT_MS 5000u
#define PROBE_TIMEOUT_MS   10000u /* init with a probe takes < 1 s */
#define LOG_NAME	   "openocd.log"
#define TAIL_BYTES	   16384 /* how much of this run's output to search */
#define CMD_LEN		   (PATH_MAX + 64)
#define MAX_ARGS	   (1 + 2 * HIL_FLASHER_MAX_FILES + 6 + 1)

/* Characters that would change the meaning of a Tcl command around them. */
#define TCL_UNSAFE " []{}$;\"\\"

struct openocd {
	char *log_path; /* <run_dir>/openocd.log */
	char *elf;	/* absolute path of the image last flashed */
	const char *cfg[HIL_FLASHER_MAX_FILES];
	size_t n_cfg;
	unsigned khz; /* option adapter_khz; 0: OpenOCD's default */
};

/* The argv of one invocation, and the -c strings it points to. */
struct ocd_argv {
	char *v[MAX_ARGS];
	char serial_cmd[128]; /* the serial is at most 64 characters */
	char speed_cmd[48];
};

static unsigned timeout_of(const struct hil_flasher *f)
{
	unsigned t = hil_flasher_params(f)->timeout_ms;

	return t != 0 ? t : DEFAULT_TIMEOUT_MS;
}

static const char *serial_of(const struct hil_flasher *f)
{
	const char *s = hil_flasher_params(f)->probe_serial;

	return s != NULL && s[0] != '\0' ? s : NULL;
}

/* "probe 0669FF..." or "any probe", for messages. */
static void probe_text(const struct hil_flasher *f, char *buf, size_t len)
{
	const char *sn = serial_of(f);

	if (sn != NULL) {
		snprintf(buf, len, "probe %s", sn);
	} else {
		snprintf(buf, len, "any probe (no flasher.probe_serial)");
	}
}

static int has_control(const char *s)
{
	for (; *s != '\0'; s++) {
		if ((unsigned char)*s < 0x20 || *s == 0x7f) {
			return 1;
		}
	}
	return 0;
}

/* Build: program -f CFG... [-c "adapter serial SN"] [-c "adapter speed K"] -c action. */
static void build_argv(const struct hil_flasher *f, struct ocd_argv *a,
		       const char *action)
{
	const struct hil_flasher_params *p = hil_flasher_params(f);
	const struct openocd *o = hil_flasher_priv(f);
	size_t n = 0, i;

	a->v[n++] = (char *)p->program;
	for (i = 0; i < o->n_cfg; i++) {
		a->v[n++] = "-f";
		a->v[n++] = (char *)o->cfg[i];
	}
	if (serial_of(f) != NULL) {
		snprintf(a->serial_cmd, sizeof(a->serial_cmd),
			 "adapter serial %s", serial_of(f));
		a->v[n++] = "-c";
		a->v[n++] = a->serial_cmd;
	}
	if (o->khz != 0) {
		snprintf(a->speed_cmd, sizeof(a->speed_cmd), "adapter speed %u",
			 o->khz);
		a->v[n++] = "-c";
		a->v[n++] = a->speed_cmd;
	}
	a->v[n++] = "-c";
	a->v[n++] = (char *)action;
	a->v[n] = NULL;
}

/* ---- what OpenOCD's output means ---- */

/* Copy the line of text that contains needle (without its newline). */
static const char *line_with(const char *text, const char *needle, char *line,
			     size_t len)
{
	const char *at = strstr(text, needle), *b, *e;
	size_t n;

	if (at == NULL) {
		return NULL;
	}
	for (b = at; b > text && b[-1] != '\n'; b--) {
	}
	e = strchr(at, '\n');
	n = e != NULL ? (size_t)(e - b) : strlen(b);
	if (n > 0 && b[n - 1] == '\r') {
		n--;
	}
	if (n >= len) {
		n = len - 1;
	}
	memcpy(line, b, n);
	line[n] = '\0';
	return at;
}

/* The 0x... number after `after` in text, or -1. */
static long hex_after(const char *text, const char *after)
{
	const char *at = strstr(text, after), *x, *nl;

	if (at == NULL) {
		return -1;
	}
	x = strstr(at, "0x");
	nl = strchr(at, '\n');
	if (x == NULL || (nl != NULL && nl < x)) {
		return -1;
	}
	return (long)strtoul(x, NULL, 16);
}

/**
 * Turn OpenOCD 0.12's output into one line saying what went wrong.
 * @return the code the failure maps to (see hil_flasher_start()).
 */
static int explain(const char *out, const char *serial, char *why, size_t len)
{
	char line[256];

	if (strstr(out, "LIBUSB_ERROR_ACCESS") != NULL) {
		snprintf(
			why, len,
			"permission denied: this user may not open the probe's USB device (LIBUSB_ERROR_ACCESS); install OpenOCD's udev rules (Debian's openocd package ships /usr/lib/udev/rules.d/60-openocd.rules; elsewhere copy contrib/60-openocd.rules to /etc/udev/rules.d/), run 'sudo udevadm control --reload-rules && sudo udevadm trigger', replug the board, and make sure you are in the plugdev group");
		return HIL_ERR_NA;
	}
	if (strstr(out, "UNEXPECTED") != NULL) {
		long got = hex_after(out, "UNEXPECTED");
		long want = hex_after(out, "expected 1 of");

		if (got >= 0 && want >= 0) {
			snprintf(
				why, len,
				"wrong target: the chip behind the probe answers with IDCODE 0x%08lx, the OpenOCD config expects 0x%08lx (is this the right board, and the right flasher.openocd_config?)",
				(unsigned long)got, (unsigned long)want);
		} else {
			snprintf(
				why, len,
				"wrong target: the chip behind the probe is not the one the OpenOCD config expects (UNEXPECTED idcode; is this the right board, and the right flasher.openocd_config?)");
		}
		return HIL_ERR_MISMATCH;
	}
	if (strstr(out, "Error: open failed") != NULL) {
		if (serial != NULL) {
			snprintf(
				why, len,
				"no probe found: no ST-LINK with serial %s is connected (\"Error: open failed\"; 'lsusb -v -d 0483: | grep iSerial' lists the serials; is the board plugged in with a data cable?)",
				serial);
		} else {
			snprintf(
				why, len,
				"no probe found: OpenOCD sees no ST-LINK (\"Error: open failed\"; is the board plugged in with a data cable? 'lsusb -d 0483:' should list it)");
		}
		return HIL_ERR_NA;
	}
	if (line_with(out, "init mode failed", line, sizeof(line)) != NULL) {
		snprintf(
			why, len,
			"the probe is there but cannot reach the target (\"%s\"): is the board powered, are both CN2 jumpers on, is the chip held in reset?",
			line);
		return HIL_ERR_NA;
	}
	if (strstr(out, "** Verify Failed **") != NULL) {
		if (line_with(out, "diff ", line, sizeof(line)) != NULL) {
			snprintf(
				why, len,
				"verify failed: the flash differs from the image after programming (first difference: %s)",
				line);
		} else {
			snprintf(
				why, len,
				"verify failed: the flash differs from the image after programming");
		}
		return HIL_ERR_VERIFY;
	}
	if (strstr(out, "** Programming Failed **") != NULL) {
		if (line_with(out, "Error: ", line, sizeof(line)) != NULL) {
			snprintf(
				why, len,
				"programming failed (\"%s\"); is the flash write-protected (option bytes)?",
				line);
		} else {
			snprintf(
				why, len,
				"programming failed; is the flash write-protected (option bytes)?");
		}
		return HIL_ERR_PROCESS;
	}
	if (strstr(out, "** Unable to reset target **") != NULL) {
		snprintf(
			why, len,
			"the probe cannot reset the target (\"** Unable to reset target **\"): is NRST connected (SB12 on a NUCLEO)?");
		return HIL_ERR_PROCESS;
	}
	if (line_with(out, "couldn't open", line, sizeof(line)) != NULL) {
		snprintf(why, len, "OpenOCD cannot read the image (\"%s\")",
			 line);
		return HIL_ERR_IO;
	}
	if (line_with(out, "Can't find", line, sizeof(line)) != NULL) {
		snprintf(
			why, len,
			"a config file was not found (\"%s\"; check flasher.openocd_config)",
			line);
		return HIL_ERR_CONFIG;
	}
	if (line_with(out, "Error", line, sizeof(line)) != NULL) {
		snprintf(why, len, "\"%s\"", line);
		return HIL_ERR_PROCESS;
	}
	snprintf(why, len, "no error message from OpenOCD");
	return HIL_ERR_PROCESS;
}

/*
 * A jailed OpenOCD (docs/lab.md): its scripts (/usr/share/openocd, in
 * /usr) and the folders of the -f files read-only, the image read-only,
 * and, for a real probe, the USB devices (/dev/bus/usb), /sys and udev's
 * database read-only, which libusb needs to find it. Nothing writable:
 * its log is a descriptor hilrun opened.
 */
int hil_openocd_jail(const char *const files[], size_t n_files, const char *elf,
		     struct hil_jail **out)
{
	struct hil_jail *j;
	char dir[PATH_MAX];
	size_t i;
	int ret;

	*out = NULL;
	ret = hil_jail_new(&j);
	for (i = 0; ret == HIL_OK && i < n_files; i++) {
		char *slash;

		/* A bare name is one of OpenOCD's own scripts. */
		if (strchr(files[i], '/') == NULL ||
		    access(files[i], R_OK) != 0) {
			continue;
		}
		snprintf(dir, sizeof(dir), "%s", files[i]);
		slash = strrchr(dir, '/');
		if (slash == dir) {
			slash[1] = '\0';
		} else {
			*slash = '\0';
		}
		ret = hil_jail_bind(j, dir, HIL_JAIL_RO);
	}
	if (ret == HIL_OK && elf != NULL) {
		ret = hil_jail_bind(j, elf, HIL_JAIL_RO);
	}
	return hil_flasher_jail_finish(j, ret, out);
}

/* The flasher's jail when params.jail says so; else *out stays NULL. */
static int openocd_jail(struct hil_flasher *f, struct hil_jail **out)
{
	struct openocd *o = hil_flasher_priv(f);

	*out = NULL;
	if (!hil_flasher_params(f)->jail) {
		return HIL_OK;
	}
	return hil_openocd_jail(o->cfg, o->n_cfg, o->elf, out);
}

/*
 * Run OpenOCD with action as its last command, bounded by the flasher's
 * timeout, output appended to openocd.log. what ("flashing X") names the
 * job in the one error line logged on failure.
 */
static int run_openocd(struct hil_flasher *f, const char *action,
		       const char *what)
{
	struct openocd *o = hil_flasher_priv(f);
	const char *program = hil_flasher_params(f)->program;
	char probe[160], why[768];
	char *out = NULL;
	struct ocd_argv a;
	struct hil_proc *proc;
	struct hil_jail *jail = NULL;
	off_t offset;
	uint64_t t0;
	int status = -1, ret;

	build_argv(f, &a, action);
	probe_text(f, probe, sizeof(probe));
	offset = hil_flasher_log_command(o->log_path, a.v);
	t0 = (uint64_t)hil_now_ms();
	ret = openocd_jail(f, &jail);
	if (ret != HIL_OK) {
		return ret;
	}
	ret = hil_proc_spawn_jailed(&proc, a.v, -1, o->log_path, jail);
	hil_jail_free(jail);
	if (ret != HIL_OK) {
		return ret; /* spawn named the program and the reason */
	}
	ret = hil_proc_wait(proc, timeout_of(f), &status);
	hil_proc_free(proc); /* kills it on timeout */
	if (ret == HIL_ERR_TIMEOUT) {
		hil_err("%s with %s: %s did not finish within %u ms and was killed (a hung probe or USB hub? unplug and replug the board); log: %s",
			what, probe, program, timeout_of(f), o->log_path);
		return HIL_ERR_TIMEOUT;
	}
	if (ret != HIL_OK) {
		return ret;
	}
	if (status == 0) {
		hil_info("%s with %s: done in %llu ms", what, probe,
			 (unsigned long long)((uint64_t)hil_now_ms() - t0));
		return HIL_OK;
	}
	out = malloc(TAIL_BYTES);
	if (out == NULL) {
		hil_err("%s with %s failed (exit status %d); log: %s", what,
			probe, status, o->log_path);
		return HIL_ERR_PROCESS;
	}
	hil_flasher_log_tail(o->log_path, offset, out, TAIL_BYTES);
	ret = explain(out, serial_of(f), why, sizeof(why));
	free(out);
	hil_err("%s with %s failed: %s [%s exit status %d; log: %s]", what,
		probe, why, program, status, o->log_path);
	return ret;
}

/* path, or the working directory joined with it when it is relative. */
static int absolute(const char *path, char *out, size_t len)
{
	char cwd[PATH_MAX];
	int n;

	if (path[0] == '/') {
		n = snprintf(out, len, "%s", path);
	} else if (getcwd(cwd, sizeof(cwd)) == NULL) {
		hil_err("image %s: cannot get the working directory: %s", path,
			strerror(errno));
		return HIL_ERR_IO;
	} else {
		n = snprintf(out, len, "%s/%s", cwd, path);
	}
	if (n < 0 || (size_t)n >= len) {
		hil_err("image %s: path too long", path);
		return HIL_ERR_ARG;
	}
	return HIL_OK;
}

/* ---- the ops ---- */

static void openocd_close(struct hil_flasher *f)
{
	struct openocd *o = hil_flasher_priv(f);

	if (o == NULL) {
		return;
	}
	free(o->log_path);
	free(o->elf);
	free(o);
	hil_flasher_set_priv(f, NULL);
}

static int openocd_open(struct hil_flasher *f)
{
	const struct hil_flasher_params *p;
	struct openocd *o;
	const char *sn;
	size_t i, n;
	int ret;

	if (hil_flasher_params(f)->program == NULL) {
		ret = hil_flasher_set_program(f, DEFAULT_PROGRAM);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	p = hil_flasher_params(f);
	o = calloc(1, sizeof(*o));
	if (o == NULL) {
		hil_err("openocd flasher: no memory");
		return HIL_ERR_NOMEM;
	}
	hil_flasher_set_priv(f, o); /* openocd_close frees it on error */
	for (i = 0; hil_flasher_opt_at(f, "config", i) != NULL; i++) {
		if (i == HIL_FLASHER_MAX_FILES) {
			hil_err("openocd flasher: more than %d config files",
				HIL_FLASHER_MAX_FILES);
			return HIL_ERR_ARG;
		}
		o->cfg[i] = hil_flasher_opt_at(f, "config", i);
	}
	o->n_cfg = i;
	if (o->n_cfg == 0) {
		o->cfg[0] = DEFAULT_CFG;
		o->n_cfg = 1;
	}
	ret = hil_flasher_opt_uint(f, "adapter_khz", HIL_FLASHER_MAX_KHZ,
				   &o->khz);
	if (ret != HIL_OK) {
		return ret;
	}
	for (i = 0; i < o->n_cfg; i++) {
		if (o->cfg[i][0] == '\0' || strpbrk(o->cfg[i], "{}\\") ||
		    has_control(o->cfg[i])) {
			hil_err("OpenOCD config file \"%s\": empty, or contains a brace, backslash or control character (OpenOCD runs it as `script {FILE}`)",
				o->cfg[i]);
			return HIL_ERR_CONFIG;
		}
	}
	sn = serial_of(f);
	if (sn != NULL) {
		n = strcspn(sn, TCL_UNSAFE);
		if (sn[n] != '\0' || has_control(sn) || strlen(sn) > 64) {
			hil_err("probe serial \"%s\": longer than 64 characters or contains a character OpenOCD's `adapter serial` command cannot take",
				sn);
			return HIL_ERR_CONFIG;
		}
	}
	n = strlen(p->run_dir) + 1 + strlen(LOG_NAME) + 1;
	o->log_path = malloc(n);
	if (o->log_path == NULL) {
		hil_err("openocd flasher: no memory");
		return HIL_ERR_NOMEM;
	}
	snprintf(o->log_path, n, "%s/%s", p->run_dir, LOG_NAME);
	return HIL_OK;
}

static int openocd_start(struct hil_flasher *f, const char *elf_path)
{
	struct openocd *o = hil_flasher_priv(f);
	char abs[PATH_MAX], cmd[CMD_LEN], what[PATH_MAX + 16];
	int ret;

	ret = hil_flasher_check_elf(elf_path,
				    "OpenOCD would flash it as raw bytes");
	if (ret != HIL_OK) {
		return ret;
	}
	ret = absolute(elf_path, abs, sizeof(abs));
	if (ret != HIL_OK) {
		return ret;
	}
	/* Braces protect spaces, [ and $; these would break out of them. */
	if (strpbrk(abs, "{}\\") != NULL || has_control(abs)) {
		hil_err("image %s: its path contains a brace, backslash or control character, which OpenOCD's `program` command cannot take",
			abs);
		return HIL_ERR_ARG;
	}
	free(o->elf);
	o->elf = strdup(abs);
	if (o->elf == NULL) {
		hil_err("image %s: no memory", abs);
		return HIL_ERR_NOMEM;
	}
	snprintf(cmd, sizeof(cmd), "program {%s} verify reset exit", abs);
	snprintf(what, sizeof(what), "flashing %s", abs);
	return run_openocd(f, cmd, what);
}

/* A real board keeps running the image: there is nothing to stop. */
static void openocd_stop(struct hil_flasher *f)
{
	(void)f;
}

static int openocd_reset(struct hil_flasher *f)
{
	struct openocd *o = hil_flasher_priv(f);
	char what[PATH_MAX + 32];

	snprintf(what, sizeof(what), "resetting the board (image %s)",
		 o->elf != NULL ? o->elf : "already in flash");
	return run_openocd(f, "init; reset run; shutdown", what);
}

static int openocd_probe(struct hil_flasher *f, char *why, size_t len)
{
	const char *program = hil_flasher_params(f)->program;
	unsigned timeout = timeout_of(f) < PROBE_TIMEOUT_MS ? timeout_of(f)
							    : PROBE_TIMEOUT_MS;
	struct hil_jail *jail = NULL;
	struct ocd_argv a;
	char *out;
	int status = -1, ret;

	out = malloc(TAIL_BYTES);
	if (out == NULL) {
		snprintf(why, len, "no memory");
		return HIL_ERR_NOMEM;
	}
	build_argv(f, &a, "init; shutdown");
	/* The probe check reads the config's files: jailed as a flash. */
	ret = openocd_jail(f, &jail);
	if (ret == HIL_OK) {
		ret = hil_proc_capture_jailed(a.v, out, TAIL_BYTES, timeout,
					      &status, jail, NULL);
	}
	hil_jail_free(jail);
	if (ret == HIL_ERR_TIMEOUT) {
		snprintf(why, len,
			 "%s did not finish `init` within %u ms (killed)",
			 program, timeout);
	} else if (ret == HIL_ERR_NA) {
		snprintf(why, len, "%s not found or not executable", program);
	} else if (ret != HIL_OK) {
		snprintf(why, len, "cannot run %s: %s", program,
			 hil_strerror(ret));
	} else if (status != 0) {
		ret = explain(out, serial_of(f), why, len);
	}
	free(out);
	return ret;
}

static int openocd_version(struct hil_flasher *f, char *buf, size_t len)
{
	const char *program = hil_flasher_params(f)->program;
	char out[512];
	const char *s;
	int status = -1, ret;

	/* The banner goes to stderr; capture takes both streams. */
	/* Jailed as flashing is (params.jail). */
	ret = hil_flasher_tool_version(f, out, sizeof(out), VERSION_TIMEOUT_MS,
				       &status);
	if (ret != HIL_OK) {
		return ret;
	}
	s = out + strspn(out, "\r\n \t");
	if (status != 0 || s[0] == '\0') {
		hil_err("%s --version: exit status %d, output \"%.*s\"",
			program, status, (int)strcspn(s, "\r\n"), s);
		return HIL_ERR_PROCESS;
	}
	snprintf(buf, len, "%.*s", (int)strcspn(s, "\r\n"), s);
	return HIL_OK;
}

const struct hil_flasher_ops hil_flasher_openocd_ops = {
	.name = "openocd",
	.program = DEFAULT_PROGRAM,
	.package = "openocd",
	.keys = hil_openocd_keys,
	.parse = hil_openocd_parse,
	.opts = hil_openocd_opts,
	.options = hil_openocd_options,
	.doctor = hil_openocd_doctor,
	.open = openocd_open,
	.close = openocd_close,
	.start = openocd_start,
	.stop = openocd_stop,
	.link_where = NULL, /* the runner opens link.port itself */
	.check = NULL,	    /* a flashed board keeps running */
	.version = openocd_version,
	.reset = openocd_reset,
	.probe = openocd_probe,
};
