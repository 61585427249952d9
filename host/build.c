/* build: firmware built per configuration in its own directory, with the toolchain recorded. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"build"
#include "build.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "hilp.h"
#include "log.h"
#include "proc.h"
#include "util.h"

#define BUILD_TIMEOUT_MS 600000u

static int is_root(const char *dir)
{
	char p[HIL_PATH];

	snprintf(p, sizeof(p), "%s/target/main.c", dir);
	if (access(p, R_OK) != 0) {
		return 0;
	}
	snprintf(p, sizeof(p), "%s/Makefile", dir);
	return access(p, R_OK) == 0;
}

int hil_build_find_root(char *root, size_t len)
{
	const char *env = getenv("HILRUN_ROOT");
	char exe[HIL_PATH];
	ssize_t n;
	int up;

	if (env != NULL && env[0] != '\0') {
		if (!is_root(env)) {
			hil_err("HILRUN_ROOT=%s is not a hilrun source tree",
				env);
			return HIL_ERR_NA;
		}
		snprintf(root, len, "%s", env);
		return HIL_OK;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0) {
		hil_err("cannot find the hilrun source tree: set HILRUN_ROOT");
		return HIL_ERR_NA;
	}
	exe[n] = '\0';
	for (up = 0; up < 4; up++) {
		char *slash = strrchr(exe, '/');

		if (slash == NULL || slash == exe) {
			break;
		}
		*slash = '\0';
		if (is_root(exe)) {
			snprintf(root, len, "%s", exe);
			return HIL_OK;
		}
	}
	hil_err("cannot find the hilrun source tree above %s: set HILRUN_ROOT",
		exe);
	return HIL_ERR_NA;
}

static void tail_log(const char *path)
{
	char *text = NULL;
	size_t len = 0;
	size_t start;
	int lines = 0;

	if (hil_read_file(path, &text, &len) != HIL_OK) {
		return;
	}
	start = len;
	while (start > 0 && lines < 15) {
		start--;
		if (text[start] == '\n' && start + 1 < len) {
			lines++;
		}
	}
	hil_err("last lines of %s:\n%s", path, text + start);
	free(text);
}

static void compiler_version(const char *root, char *buf, size_t len)
{
	char *argv[] = {"arm-none-eabi-gcc", "--version", NULL};
	char out[1024];
	int status = -1;
	char *nl;

	(void)root;
	buf[0] = '\0';
	if (hil_proc_capture(argv, out, sizeof(out), 10000, &status) !=
		    HIL_OK ||
	    status != 0) {
		return;
	}
	nl = strchr(out, '\n');
	if (nl != NULL) {
		*nl = '\0';
	}
	snprintf(buf, len, "%s", out);
}

/* The value of "KEY=..." on its own line of text, into buf. */
static void flag_line(const char *text, const char *key, char *buf, size_t len)
{
	const char *p = text;
	size_t klen = strlen(key);

	buf[0] = '\0';
	while (p != NULL && *p != '\0') {
		if (strncmp(p, key, klen) == 0 && p[klen] == '=') {
			size_t n = strcspn(p + klen + 1, "\n");

			snprintf(buf, len, "%.*s", (int)n, p + klen + 1);
			return;
		}
		p = strchr(p, '\n');
		if (p != NULL) {
			p++;
		}
	}
}

static void read_flags(const char *dir, struct hil_firmware *fw)
{
	char path[HIL_PATH];
	char *text = NULL;

	snprintf(path, sizeof(path), "%s/flags", dir);
	if (hil_read_file(path, &text, NULL) != HIL_OK) {
		return;
	}
	flag_line(text, "CFLAGS", fw->all_flags, sizeof(fw->all_flags));
	flag_line(text, "LDFLAGS", fw->ld_flags, sizeof(fw->ld_flags));
	free(text);
}

int hil_build_firmware(const struct hil_config *cfg, const char *root,
		       const char *log_path, const char *algs_override,
		       struct hil_firmware *fw)
{
	char opt[2048] = "";
	char var_board[128];
	char var_opt[2100];
	char var_algs[8300];
	char var_dir[HIL_PATH + 16];
	char var_clock[64];
	char var_baud[64];
	char key[16384];
	size_t i;
	uint32_t h;
	int status = -1;
	int ret;

	memset(fw, 0, sizeof(*fw));
	for (i = 0; i < cfg->build.n_cflags; i++) {
		if (i > 0) {
			strncat(opt, " ", sizeof(opt) - strlen(opt) - 1);
		}
		strncat(opt, cfg->build.cflags[i],
			sizeof(opt) - strlen(opt) - 1);
	}
	if (algs_override != NULL) {
		snprintf(fw->algs, sizeof(fw->algs), "%s", algs_override);
	} else {
		for (i = 0; i < cfg->n_algs; i++) {
			char one[HIL_CFG_STR + 160];

			/* An external folder is named after '=' (the
			 * config loader rejects spaces and '=' in it). */
			snprintf(one, sizeof(one), "%s%s/%s%s%s", i ? " " : "",
				 cfg->algs[i].name, cfg->algs[i].impl,
				 cfg->algs[i].path[0] ? "=" : "",
				 cfg->algs[i].path);
			strncat(fw->algs, one,
				sizeof(fw->algs) - strlen(fw->algs) - 1);
		}
	}
	/* Everything that changes the image goes into the directory name. */
	snprintf(key, sizeof(key), "%s|%u|%u|%s|%s", cfg->board.name,
		 (unsigned)cfg->board.clock_hz, (unsigned)cfg->link.baud, opt,
		 fw->algs);
	h = hilp_digest_update(HILP_DIGEST_INIT, (const uint8_t *)key,
			       strlen(key));
	snprintf(fw->dir, sizeof(fw->dir), "%s/build/fw/%s-%08x", root,
		 cfg->name, (unsigned)h);
	snprintf(fw->elf, sizeof(fw->elf), "%s/stub.elf", fw->dir);

	snprintf(var_board, sizeof(var_board), "BOARD=%s", cfg->board.name);
	snprintf(var_opt, sizeof(var_opt), "OPT=%s", opt);
	snprintf(var_algs, sizeof(var_algs), "ALGS=%s", fw->algs);
	snprintf(var_dir, sizeof(var_dir), "FW_DIR=%s", fw->dir);
	snprintf(var_clock, sizeof(var_clock), "CLOCK_HZ=%u",
		 (unsigned)cfg->board.clock_hz);
	/* The stub's UART speed is the config's (the real board divides its
	 * APB1 clock for it; QEMU ignores it). */
	snprintf(var_baud, sizeof(var_baud), "HIL_BAUD=%u",
		 (unsigned)cfg->link.baud);
	{
		char *argv[] = {"make",	    "--no-print-directory",
				"-C",	    (char *)root,
				"firmware", var_board,
				var_opt,    var_algs,
				var_clock,  var_baud,
				var_dir,    NULL};

		hil_info("building %s firmware for %s (%s) in %s",
			 cfg->board.name, cfg->name, opt, fw->dir);
		ret = hil_proc_run(argv, log_path, BUILD_TIMEOUT_MS, &status);
	}
	if (ret != HIL_OK) {
		hil_err("could not run make: %s", hil_strerror(ret));
		return ret == HIL_ERR_NA ? HIL_ERR_NA : HIL_ERR_BUILD;
	}
	if (status != 0) {
		hil_err("firmware build for %s failed (make exit %d)",
			cfg->name, status);
		tail_log(log_path);
		return HIL_ERR_BUILD;
	}
	if (access(fw->elf, R_OK) != 0) {
		hil_err("firmware build reported success but %s is missing",
			fw->elf);
		return HIL_ERR_BUILD;
	}
	read_flags(fw->dir, fw);
	compiler_version(root, fw->compiler, sizeof(fw->compiler));
	return HIL_OK;
}
