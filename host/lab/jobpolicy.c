/* jobpolicy: what a lab job (an untrusted configuration) may ask for: compiler flags from an allowlist, files inside the lab's roots, no programs of its own. */
#define _XOPEN_SOURCE 700
#include "jobpolicy.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/flasher/flasher.h"
#include "util/err.h"

/* -f options that load code, run a program or write files of their own. */
static const char *const f_denied[] = {"plugin",
				       "dump",
				       "profile",
				       "auto-profile",
				       "create-profile",
				       "opt-info",
				       "save-optimization-record",
				       "callgraph-info",
				       "stack-usage",
				       "use-ld",
				       "debug-prefix-map",
				       "file-prefix-map",
				       "lto",
				       "sanitize",
				       "instrument-functions-exclude-file-list",
				       "record-gcc-switches",
				       NULL};

static int starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* [A-Za-z_][A-Za-z0-9_]* up to '=' or the end. */
static int is_macro(const char *s)
{
	if (!(isalpha((unsigned char)*s) || *s == '_')) {
		return 0;
	}
	for (s++; *s != '\0' && *s != '='; s++) {
		if (!(isalnum((unsigned char)*s) || *s == '_')) {
			return 0;
		}
	}
	return 1;
}

/* [a-z0-9-]+ then optionally "=" and [A-Za-z0-9_.,+:-]* */
static int is_option_word(const char *s)
{
	if (*s == '\0') {
		return 0;
	}
	for (; *s != '\0' && *s != '='; s++) {
		if (!(islower((unsigned char)*s) ||
		      isdigit((unsigned char)*s) || *s == '-' || *s == '_')) {
			return 0;
		}
	}
	if (*s == '=') {
		for (s++; *s != '\0'; s++) {
			if (!(isalnum((unsigned char)*s) ||
			      strchr("_.,+:-", *s) != NULL)) {
				return 0;
			}
		}
	}
	return 1;
}

static int inside_roots(const char *dir, const struct hil_config_roots *roots)
{
	char real[PATH_MAX];
	size_t i;

	if (roots == NULL || realpath(dir, real) == NULL) {
		return 0;
	}
	for (i = 0; i < roots->n; i++) {
		char root[PATH_MAX];
		size_t n;

		if (realpath(roots->dir[i], root) == NULL) {
			continue;
		}
		n = strlen(root);
		if (strncmp(real, root, n) == 0 &&
		    (real[n] == '/' || real[n] == '\0')) {
			return 1;
		}
	}
	return 0;
}

int hil_job_flag_allowed(const char *flag, const struct hil_config_roots *roots,
			 char *why, size_t why_len)
{
	size_t i;

	why[0] = '\0';
	if (flag[0] != '-') {
		snprintf(why, why_len, "not an option (a job may not name %s)",
			 flag[0] == '@' ? "a response file" : "input files");
		return 0;
	}
	if (strcmp(flag, "-O") == 0 ||
	    (flag[1] == 'O' && flag[2] != '\0' &&
	     (strcmp(flag + 2, "s") == 0 || strcmp(flag + 2, "z") == 0 ||
	      strcmp(flag + 2, "g") == 0 || strcmp(flag + 2, "fast") == 0 ||
	      (flag[2] >= '0' && flag[2] <= '3' && flag[3] == '\0')))) {
		return 1;
	}
	if (strcmp(flag, "-g") == 0 || strcmp(flag, "-w") == 0 ||
	    ((starts(flag, "-g") || starts(flag, "-ggdb")) &&
	     is_option_word(flag + 2) && strchr(flag, '=') == NULL)) {
		return 1;
	}
	if (starts(flag, "-std=") && is_option_word(flag + 1)) {
		return 1;
	}
	if ((starts(flag, "-D") || starts(flag, "-U")) && is_macro(flag + 2)) {
		if (flag[1] == 'U' && strchr(flag, '=') != NULL) {
			snprintf(why, why_len, "-U takes a name only");
			return 0;
		}
		/* A value's characters are the loader's (check_flag). */
		return 1;
	}
	if (starts(flag, "-W")) {
		if (flag[2] != '\0' && flag[3] == ',' &&
		    strchr("lap", flag[2]) != NULL) {
			snprintf(
				why, why_len,
				"passes options to the %s, which a job may not",
				flag[2] == 'l'	 ? "linker"
				: flag[2] == 'a' ? "assembler"
						 : "preprocessor");
			return 0;
		}
		if (is_option_word(flag + 2)) {
			return 1;
		}
	}
	if (starts(flag, "--param=") && is_option_word(flag + 8)) {
		return 1;
	}
	if (starts(flag, "-f") || starts(flag, "-m")) {
		const char *name = flag + 2;

		if (starts(name, "no-")) {
			name += 3;
		}
		for (i = 0; flag[1] == 'f' && f_denied[i] != NULL; i++) {
			if (starts(name, f_denied[i])) {
				snprintf(
					why, why_len,
					"-f%s is not for a job (it loads code, runs a program, writes files of its own or breaks the image's symbol isolation)",
					f_denied[i]);
				return 0;
			}
		}
		if (is_option_word(flag + 2)) {
			return 1;
		}
	}
	if (starts(flag, "-I") && flag[2] != '\0') {
		if (inside_roots(flag + 2, roots)) {
			return 1;
		}
		snprintf(why, why_len,
			 "-I of a folder outside the lab's roots (or missing)");
		return 0;
	}
	snprintf(
		why, why_len,
		"not allowed in a job (allowed: -O levels, -f/-m code-generation options, -D/-U, -g, -W warnings, -std=, -w, --param=, -I inside the lab's roots)");
	return 0;
}

/* The host's own program for a flasher type: what a job may not change. */
static const char *default_program(const char *type)
{
	const struct hil_flasher_ops *f = hil_flasher_find(type);

	return f != NULL && f->program != NULL ? f->program : "";
}

/* An OpenOCD script by a relative name in its search path ("board/x.cfg"),
 * without climbing out of it. */
static int plain_script(const char *s)
{
	const char *p = s;

	if (s[0] == '\0' || s[0] == '/' || strchr(s, '\\') != NULL) {
		return 0;
	}
	while ((p = strstr(p, "..")) != NULL) {
		if ((p == s || p[-1] == '/') && (p[2] == '/' || p[2] == '\0')) {
			return 0;
		}
		p += 2;
	}
	return 1;
}

int hil_job_check(const struct hil_config *cfg,
		  const struct hil_config_roots *roots, char *err, size_t len)
{
	char why[256];
	size_t i;

	for (i = 0; i < cfg->build.n_cflags; i++) {
		if (!hil_job_flag_allowed(cfg->build.cflags[i], roots, why,
					  sizeof(why))) {
			snprintf(err, len, "build.cflags[%zu]: \"%s\": %s", i,
				 cfg->build.cflags[i], why);
			return HIL_ERR_CONFIG;
		}
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
		const char *s = cfg->flasher.files[i];

		if (!plain_script(s) && !inside_roots(s, roots)) {
			snprintf(
				err, len,
				"flasher.openocd_config[%zu]: \"%s\": a job may name OpenOCD scripts only by their relative name (e.g. \"board/st_nucleo_f4.cfg\") or inside the lab's roots",
				i, s);
			return HIL_ERR_CONFIG;
		}
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
	if (starts(cfg->sensor.bus, "linux:")) {
		const char *n = cfg->sensor.bus + strlen("linux:");

		if (!starts(n, "/dev/i2c-") || n[9] == '\0' ||
		    strspn(n + 9, "0123456789") != strlen(n + 9)) {
			snprintf(
				err, len,
				"sensor.bus: \"%s\": a job's Linux I2C bus must be /dev/i2c-N",
				cfg->sensor.bus);
			return HIL_ERR_CONFIG;
		}
	}
	return HIL_OK;
}
