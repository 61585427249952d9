/* pyocd_run: running pyocd-flashtool and pyocd-tool with an argv, bounded, their output appended to pyocd.log, and stopping a pyocd-tool that waits for a probe. */
#define _POSIX_C_SOURCE 200809L

#include "pyocd.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/err.h"
#include "util/jail.h"
#include "util/proc.h"
#include "util/util.h"

#define POLL_MS 100u /* how often a run's output is looked at */

/* argv[0] [-b UID] -t TARGET [speed]: what every run starts with. */
size_t hil_pyocd_argv_head(const struct hil_flasher *f, struct pyo_argv *a,
			   int flashtool)
{
	const struct hil_flasher_params *p = hil_flasher_params(f);
	const struct pyocd *o = hil_flasher_priv(f);
	size_t n = 0;

	a->v[n++] = flashtool ? (char *)p->program : o->tool;
	if (hil_pyocd_uid_of(f) != NULL) {
		a->v[n++] = "-b";
		a->v[n++] = (char *)hil_pyocd_uid_of(f);
	}
	a->v[n++] = "-t";
	a->v[n++] = (char *)hil_flasher_opt(f, "target");
	if (o->khz != 0) {
		/* pyocd-flashtool takes Hz (-f), pyocd-tool kHz (-k). */
		if (flashtool) {
			snprintf(a->speed, sizeof(a->speed), "%lu",
				 (unsigned long)o->khz * 1000ul);
			a->v[n++] = "-f";
		} else {
			snprintf(a->speed, sizeof(a->speed), "%u", o->khz);
			a->v[n++] = "-k";
		}
		a->v[n++] = a->speed;
	}
	return n;
}

/* pyocd-tool ... CMD [ARG...] (args NULL-terminated, at most three). */
void hil_pyocd_tool_argv(const struct hil_flasher *f, struct pyo_argv *a,
			 const char *cmd, const char *a1, const char *a2,
			 const char *a3)
{
	size_t n = hil_pyocd_argv_head(f, a, 0);

	a->v[n++] = (char *)cmd;
	if (a1 != NULL) {
		a->v[n++] = (char *)a1;
	}
	if (a2 != NULL) {
		a->v[n++] = (char *)a2;
	}
	if (a3 != NULL) {
		a->v[n++] = (char *)a3;
	}
	a->v[n] = NULL;
}

/*
 * A jailed pyOCD (docs/lab.md, "The jail"), as a jailed OpenOCD: the image
 * (the HEX it programs) read-only, the read-back file (made empty before
 * savemem) the one thing writable, and, for a real probe, the USB devices,
 * /sys and udev's database. Its log is a descriptor hilrun opened; Python
 * and pyOCD are in /usr. *out stays NULL unless params.jail.
 */
static int pyocd_jail(const struct hil_flasher *f, struct hil_jail **out)
{
	const struct pyocd *o = hil_flasher_priv(f);
	struct hil_jail *j;
	int ret;

	*out = NULL;
	if (!hil_flasher_params(f)->jail) {
		return HIL_OK;
	}
	ret = hil_jail_new(&j);
	if (ret == HIL_OK && access(o->hex_path, F_OK) == 0) {
		ret = hil_jail_bind(j, o->hex_path, HIL_JAIL_RO);
	}
	if (ret == HIL_OK && access(o->readback_path, F_OK) == 0) {
		ret = hil_jail_bind(j, o->readback_path, HIL_JAIL_RW);
	}
	return hil_flasher_jail_finish(j, ret, out);
}

/*
 * Run one pyOCD command, output appended to pyocd.log, until deadline
 * (bound_ms is that bound, for the message). A pyocd-tool that waits for
 * a probe is stopped as soon as it says so.
 * @return HIL_OK when it exited 0 (o->out holds its output); else the
 *         failure's code, with why saying what went wrong.
 */
int hil_pyocd_run_step(struct hil_flasher *f, char *const argv[],
		       uint64_t deadline, unsigned bound_ms, char *why,
		       size_t len)
{
	struct pyocd *o = hil_flasher_priv(f);
	const char *name = hil_pyocd_base_name(argv[0]);
	/* pyocd-flashtool's argv[0] is the program itself
	 * (hil_pyocd_argv_head). */
	int flashing = argv[0] == hil_flasher_params(f)->program;
	char text[768];
	struct hil_jail *jail = NULL;
	struct hil_proc *proc;
	off_t offset;
	uint64_t now;
	int status = -1, waiting = 0, ret;

	o->out[0] = '\0';
	if ((uint64_t)hil_now_ms() >= deadline) {
		snprintf(why, len,
			 "no time left within %u ms to run %s (a slow probe?)",
			 bound_ms, name);
		return HIL_ERR_TIMEOUT;
	}
	offset = hil_flasher_log_command(o->log_path, argv);
	ret = pyocd_jail(f, &jail);
	if (ret == HIL_OK) {
		ret = hil_proc_spawn_jailed(&proc, argv, -1, o->log_path, jail);
	}
	hil_jail_free(jail);
	if (ret != HIL_OK) {
		snprintf(why, len, "cannot run %s: %s%s%s", argv[0],
			 hil_strerror(ret), ret == HIL_ERR_NA ? "; " : "",
			 ret == HIL_ERR_NA ? INSTALL_HINT : "");
		return ret;
	}
	for (;;) {
		now = (uint64_t)hil_now_ms();
		if (now >= deadline) {
			ret = HIL_ERR_TIMEOUT;
			break;
		}
		ret = hil_proc_wait(proc,
				    deadline - now < POLL_MS
					    ? (unsigned)(deadline - now)
					    : POLL_MS,
				    &status);
		if (ret != HIL_ERR_TIMEOUT) {
			break;
		}
		hil_flasher_log_tail(o->log_path, offset, o->out, TAIL_BYTES);
		if (strstr(o->out, PY_WAITING) != NULL) {
			waiting = 1; /* it would wait forever */
			break;
		}
	}
	hil_proc_free(proc); /* kills it if it still runs */
	hil_flasher_log_tail(o->log_path, offset, o->out, TAIL_BYTES);
	if (waiting) {
		hil_pyocd_explain(f, o->out, flashing, text, sizeof(text));
		snprintf(
			why, len,
			"%s [%s was waiting for the probe and was stopped; log: %s]",
			text, name, o->log_path);
		return HIL_ERR_NA;
	}
	if (ret == HIL_ERR_TIMEOUT) {
		snprintf(
			why, len,
			"%s was still running when the %u ms bound ran out and was killed (a hung probe or USB hub? unplug and replug the board) [log: %s]",
			name, bound_ms, o->log_path);
		return HIL_ERR_TIMEOUT;
	}
	if (ret != HIL_OK) {
		snprintf(why, len, "waiting for %s failed: %s", name,
			 hil_strerror(ret));
		return ret;
	}
	if (status == 0) {
		return HIL_OK;
	}
	ret = hil_pyocd_explain(f, o->out, flashing, text, sizeof(text));
	snprintf(why, len, "%s [%s exit status %d; log: %s]", text, name,
		 status, o->log_path);
	return ret;
}
