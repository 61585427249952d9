/* jobpolicy: what a lab job (an untrusted configuration) may ask for: compiler flags from the allowlist, OpenOCD's installed scripts, no programs of its own. */
#define _XOPEN_SOURCE 700
#include "jobpolicy.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/cflags.h"
#include "drivers/flasher/flasher.h"
#include "drivers/i2c/i2c.h"
#include "util/err.h"
#include "util/beneath.h"
#include "util/util.h"

static int starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* The host's own program for a flasher type: what a job may not change. */
static const char *default_program(const char *type)
{
	const struct hil_flasher_ops *f = hil_flasher_find(type);

	return f != NULL && f->program != NULL ? f->program : "";
}

/*
 * An OpenOCD script of the lab's installation, by its name in OpenOCD's
 * search path ("interface/stlink.cfg"): letters, digits and "_ - . /",
 * no "." or ".." component, naming a regular file under scripts, opened
 * beneath it without following a link. OpenOCD looks in its working
 * directory before its scripts, so the job's name is replaced by the
 * script's full path: what was checked is what OpenOCD reads.
 */
static int installed_script(const char *scripts, const char *name, char *full,
			    size_t len, char *why, size_t why_len)
{
	const char *p = name;
	struct stat st;
	int fd;

	if (name[0] == '\0' || name[0] == '/' ||
	    name[strspn(name, "abcdefghijklmnopqrstuvwxyz"
			      "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./")] !=
		    '\0') {
		snprintf(why, why_len,
			 "a relative name of letters, digits and \"_ - . /\"");
		return 0;
	}
	while (*p != '\0') {
		size_t n = strcspn(p, "/");

		if (n == 0 || (n == 1 && p[0] == '.') ||
		    (n == 2 && p[0] == '.' && p[1] == '.') || p[0] == '.') {
			snprintf(why, why_len,
				 "no empty, hidden, \".\" or \"..\" component");
			return 0;
		}
		p += n + (p[n] == '/');
	}
	fd = hil_open_beneath(scripts, name, O_RDONLY, why, why_len);
	if (fd < 0) {
		return 0;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		snprintf(why, why_len, "not a regular file");
		close(fd);
		return 0;
	}
	close(fd);
	if ((size_t)snprintf(full, len, "%s/%s", scripts, name) >= len) {
		snprintf(why, why_len, "too long once resolved");
		return 0;
	}
	return 1;
}

int hil_job_check(struct hil_config *cfg, char *err, size_t len)
{
	char why[256];
	const char *rule;
	size_t i;

	/* The one allowlist (the loader checked it too; a job's
	 * configuration may come from anywhere, so once more here). */
	if (hil_cflags_check(cfg, &i, why, sizeof(why)) != HIL_OK) {
		snprintf(err, len, "build.cflags[%zu]: %s", i, why);
		return HIL_ERR_CONFIG;
	}
	if (strcmp(cfg->flasher.program, default_program(cfg->flasher.type)) !=
	    0) {
		snprintf(
			err, len,
			"flasher.program: a job may not name a program (\"%s\"): the lab host runs its own %s",
			cfg->flasher.program,
			default_program(cfg->flasher.type)[0]
				? default_program(cfg->flasher.type)
				: "flasher");
		return HIL_ERR_CONFIG;
	}
	for (i = 0; i < cfg->flasher.n_files; i++) {
		char full[HIL_CFG_STR];
		char *s = cfg->flasher.files[i];

		if (!installed_script(HIL_OPENOCD_SCRIPTS, s, full,
				      sizeof(full), why, sizeof(why))) {
			snprintf(
				err, len,
				"flasher.openocd_config[%zu]: \"%s\": a job may name only OpenOCD's installed scripts (under %s, e.g. \"interface/stlink.cfg\"): %s",
				i, s, HIL_OPENOCD_SCRIPTS, why);
			return HIL_ERR_CONFIG;
		}
		snprintf(s, sizeof(cfg->flasher.files[i]), "%s", full);
	}
	if (cfg->link.port[0] != '\0' &&
	    (!starts(cfg->link.port, "/dev/") ||
	     strstr(cfg->link.port, "..") != NULL)) {
		snprintf(
			err, len,
			"link.port: \"%s\": a job's serial port must be a device under /dev/",
			cfg->link.port);
		return HIL_ERR_CONFIG;
	}
	/* The bus driver's own rule for a job (a device path, ...). */
	if (!hil_i2c_job_ok(cfg->sensor.bus, &rule)) {
		snprintf(err, len, "sensor.bus: \"%s\": %s", cfg->sensor.bus,
			 rule);
		return HIL_ERR_CONFIG;
	}
	return HIL_OK;
}
