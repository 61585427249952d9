/* ownbuild: the user's own algorithm folders in an image: copied in under a name of ours, their warnings gathered, those that do not build found and left out. */
#define _XOPEN_SOURCE  700 /* realpath, symlink */
#define HIL_LOG_PREFIX "build"
#include "build_int.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "snapshot.h"
#include "util/err.h"
#include "util/log.h"
#include "util/util.h"

int hil_build_source_link(const char *fw_dir, const struct hil_config_alg *a,
			  char *link, size_t len)
{
	int n = snprintf(link, len, "%s/src/%s_%s", fw_dir, a->name, a->impl);

	return n < 0 || (size_t)n >= len ? HIL_ERR_ARG : HIL_OK;
}

/*
 * The NIST LWC trees were built on Windows, whose file names ignore case:
 * some folders include "xoodyak.h" for their Xoodyak.h. Beside our link
 * to the folder, LINK.nocase/ holds a link under the lower-case name of
 * each of its headers whose name has capitals (and no file of that name
 * exists), searched after the folder itself (mk/impl.mk): such an include
 * then finds its header, and every other include is as before.
 */
static int ends_with(const char *name, const char *suffix)
{
	size_t n = strlen(name), m = strlen(suffix);

	return n > m && strcmp(name + n - m, suffix) == 0;
}

static int nocase_headers(const char *target, const char *link)
{
	char dir[HIL_PATH];
	struct dirent *e;
	DIR *d;
	int made = 0;

	if (snprintf(dir, sizeof(dir), "%s.nocase", link) >= (int)sizeof(dir)) {
		return HIL_OK;
	}
	d = opendir(target);
	if (d == NULL) {
		return HIL_OK;
	}
	while ((e = readdir(d)) != NULL) {
		char lower[256], from[HIL_PATH + 260], to[PATH_MAX + 260],
			same[PATH_MAX + 260];
		size_t i, n = strlen(e->d_name);
		int caps = 0;

		if (n >= sizeof(lower) || (!ends_with(e->d_name, ".h") &&
					   !ends_with(e->d_name, ".hpp"))) {
			continue;
		}
		for (i = 0; i <= n; i++) {
			char c = e->d_name[i];

			caps |= c >= 'A' && c <= 'Z';
			lower[i] = (char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a'
							       : c);
		}
		snprintf(same, sizeof(same), "%s/%s", target, lower);
		if (!caps || access(same, F_OK) == 0) {
			continue;
		}
		if (!made) {
			if (hil_mkdirs(dir) != HIL_OK) {
				break;
			}
			made = 1;
		}
		snprintf(from, sizeof(from), "%s/%s", dir, lower);
		snprintf(to, sizeof(to), "%s/%s", target, e->d_name);
		if (unlink(from) != 0 && errno != ENOENT) {
			continue;
		}
		if (symlink(to, from) != 0) {
			hil_warn("cannot link %s to %s: %s", from, to,
				 strerror(errno));
		}
	}
	closedir(d);
	return HIL_OK;
}

/*
 * A user's folder reaches make only as a copy of ours,
 * FW_DIR/src/<alg>_<impl> (image/snapshot.c), so that no byte of a
 * config's path is ever part of a make variable, a recipe or a compiler
 * argument (a folder name with spaces, '=', quotes or `...` builds like any
 * other), and so that what is compiled is what the configuration's load
 * checked: a file swapped since for a link, a FIFO or a device is refused
 * here, never read. An include that leaves the folder ("../x.h") finds
 * the copy's neighbours, not the original's.
 */
int hil_build_link_source(const char *fw_dir, const struct hil_config_alg *a,
			  char *link, size_t len)
{
	char dir[HIL_PATH], why[PATH_MAX + 600];
	int n, ret;

	if (access(a->path, F_OK) != 0) {
		hil_err("algorithms: %s/%s: %s: %s", a->name, a->impl, a->path,
			strerror(errno));
		return HIL_ERR_CONFIG;
	}
	n = snprintf(dir, sizeof(dir), "%s/src", fw_dir);
	if (n < 0 || (size_t)n >= sizeof(dir)) {
		hil_err("build folder name too long: %s", fw_dir);
		return HIL_ERR_CONFIG;
	}
	if (hil_mkdirs(dir) != HIL_OK) {
		hil_err("cannot create %s: %s", dir, strerror(errno));
		return HIL_ERR_IO;
	}
	if (hil_build_source_link(fw_dir, a, link, len) != HIL_OK) {
		hil_err("build folder name too long: %s", dir);
		return HIL_ERR_CONFIG;
	}
	ret = hil_snapshot_copy(a->path, link,
				a->links_checked ? a->links : NULL, why,
				sizeof(why));
	if (ret != HIL_OK) {
		hil_err("algorithms: %s/%s: %s: %s: not built", a->name,
			a->impl, a->path, why);
		return ret;
	}
	return nocase_headers(link, link);
}

/* How many compiler warnings a .warn file holds. */
static unsigned count_warnings(const char *text)
{
	const char *p = text;
	unsigned n = 0;

	while ((p = strstr(p, ": warning: ")) != NULL) {
		n++;
		p++;
	}
	return n;
}

static int append_file(FILE *out, const char *path)
{
	char *text = NULL;
	size_t len = 0;

	if (hil_read_file(path, &text, &len) != HIL_OK) {
		return 0;
	}
	if (len > 0) {
		fprintf(out, "== %s\n", path);
		fwrite(text, 1, len, out);
	}
	free(text);
	return 1;
}

/*
 * The warnings of one foreign implementation, from the .warn files its
 * objects left in FW_DIR/obj/<alg>/<impl>/, counted and gathered into
 * <run folder>/warnings/<alg>_<impl>.txt beside the build log.
 */
void hil_build_collect_warnings(const char *fw_dir, const char *log_path,
				const struct hil_config_alg *a,
				struct hil_foreign_build *fb)
{
	char obj[HIL_PATH];
	char cmd_dir[HIL_PATH];
	char *slash;
	FILE *out;
	DIR *d;
	struct dirent *e;

	snprintf(fb->impl, sizeof(fb->impl), "%s/%s", a->name, a->impl);
	fb->warnings = 0;
	fb->log[0] = '\0';
	snprintf(obj, sizeof(obj), "%s/obj/%s/%s", fw_dir, a->name, a->impl);
	snprintf(cmd_dir, sizeof(cmd_dir), "%s", log_path);
	slash = strrchr(cmd_dir, '/');
	if (slash != NULL) {
		*slash = '\0';
	} else {
		snprintf(cmd_dir, sizeof(cmd_dir), ".");
	}
	strncat(cmd_dir, "/warnings", sizeof(cmd_dir) - strlen(cmd_dir) - 1);
	if (hil_mkdirs(cmd_dir) != HIL_OK) {
		hil_warn("cannot create %s: %s", cmd_dir, strerror(errno));
		return;
	}
	d = opendir(obj);
	if (d == NULL && errno == ENOENT) {
		/* Not compiled in this build (a split image of others): no
		 * warnings of it here; the image that has it gathers them. */
		return;
	}
	snprintf(fb->log, sizeof(fb->log), "%s/%s_%s.txt", cmd_dir, a->name,
		 a->impl);
	out = d != NULL ? hil_fopen_write(fb->log) : NULL;
	if (out == NULL || d == NULL) {
		hil_warn("cannot gather the warnings of %s into %s", fb->impl,
			 fb->log);
		if (out != NULL) {
			fclose(out);
		}
		if (d != NULL) {
			closedir(d);
		}
		return;
	}
	while ((e = readdir(d)) != NULL) {
		size_t n = strlen(e->d_name);
		char path[HIL_PATH];
		char *text = NULL;

		if (n < 5 || strcmp(e->d_name + n - 5, ".warn") != 0) {
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s", obj, e->d_name);
		if (hil_read_file(path, &text, NULL) == HIL_OK) {
			fb->warnings += count_warnings(text);
			free(text);
		}
		append_file(out, path);
	}
	closedir(d);
	if (fclose(out) != 0) {
		hil_warn("cannot write %s: %s", fb->log, strerror(errno));
	}
	if (fb->warnings > 0) {
		hil_info(
			"%s: %u compiler warning%s (its own code, not -Werror): %s",
			fb->impl, fb->warnings, fb->warnings == 1 ? "" : "s",
			fb->log);
	}
}

/* The first error a compiler wrote for one implementation built alone
 * (its .warn files), into why. */
static void first_error(const char *obj_dir, char *why, size_t len)
{
	struct dirent *e;
	DIR *d = opendir(obj_dir);

	snprintf(why, len, "its objects do not link (see build.log)");
	if (d == NULL) {
		return;
	}
	while ((e = readdir(d)) != NULL) {
		char path[HIL_PATH];
		char *text = NULL;
		const char *line;
		size_t n = strlen(e->d_name);

		if (n < 5 || strcmp(e->d_name + n - 5, ".warn") != 0) {
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s", obj_dir, e->d_name);
		if (hil_read_file(path, &text, NULL) != HIL_OK) {
			continue;
		}
		line = strstr(text, "error:");
		if (line != NULL) {
			const char *start = line;

			while (start > text && start[-1] != '\n') {
				start--;
			}
			snprintf(why, len, "%.*s", (int)strcspn(start, "\n"),
				 start);
			free(text);
			break;
		}
		free(text);
	}
	closedir(d);
}

/* When why is still the default: the first line of the link log at path
 * that says what did not link (undefined or twice-defined symbols). */
static void first_link_error(const char *path, char *why, size_t len)
{
	static const char *const marks[] = {"undefined reference to",
					    "multiple definition of",
					    "error:", NULL};
	char *text = NULL;
	size_t i;

	if (strstr(why, "do not link") == NULL ||
	    hil_read_file(path, &text, NULL) != HIL_OK) {
		return;
	}
	for (i = 0; marks[i] != NULL; i++) {
		const char *line = strstr(text, marks[i]);

		if (line != NULL) {
			snprintf(why, len, "its objects do not link: %.*s",
				 (int)strcspn(line, "\n"), line);
			break;
		}
	}
	free(text);
}

/*
 * The image did not build: build each of the user's folders alone (in
 * FW_DIR/isolate/<alg>_<impl>) to find the ones that do not, so that they
 * are recorded with their reason and the others are measured.
 * @return how many were excluded into fw->excluded; entries[i] of an
 *         excluded one is emptied.
 */
size_t hil_build_isolate_failures(const struct hil_config *cfg,
				  const char *root, const char *log_path,
				  const struct make_vars *v,
				  struct hil_firmware *fw, char **entries)
{
	size_t i, n = 0;

	hil_warn(
		"the image does not build: building each folder of your own alone to find which does not");
	for (i = 0; i < cfg->n_algs; i++) {
		const struct hil_config_alg *a = &cfg->algs[i];
		char dir[HIL_PATH], obj[HIL_PATH + 200];
		size_t from;
		int status = -1;
		int ret;

		char why[sizeof(fw->excluded[0].why)] = "";
		char impl[sizeof(fw->excluded[0].impl)];

		if (a->path[0] == '\0') {
			continue;
		}
		snprintf(dir, sizeof(dir), "%s/isolate/%s_%s", fw->dir, a->name,
			 a->impl);
		from = hil_build_log_size(log_path);
		ret = hil_build_run_make(root, log_path, "fw-impl", v,
					 entries[i], dir, &status);
		if (ret == HIL_ERR_INTERRUPTED) {
			break; /* stopping: no folder is blamed for it */
		}
		if (ret == HIL_OK && status == 0) {
			continue;
		}
		snprintf(obj, sizeof(obj), "%s/obj/%s/%s", dir, a->name,
			 a->impl);
		snprintf(impl, sizeof(impl), "%s/%s", a->name, a->impl);
		first_error(obj, why, sizeof(why));
		/* Compiled, but its objects do not link alone: the linker's
		 * first complaint (make fw-impl's link.ok step). */
		snprintf(obj, sizeof(obj), "%s/crypto/%s/%s/link.ok.warn", dir,
			 a->name, a->impl);
		first_link_error(obj, why, sizeof(why));
		hil_err("%s/%s does not build: %s (its rows are failed; the others are measured)",
			a->name, a->impl, why);
		hil_build_hint_failure(log_path, from);
		if (hil_firmware_add_excluded(fw, impl, why) != HIL_OK) {
			/* Left in the image: the build fails and says so. */
			hil_err("out of memory: %s stays in the image", impl);
			continue;
		}
		entries[i][0] = '\0';
		n++;
	}
	return n;
}

/* Does the text hold an asm statement with code in it: asm or __asm__,
 * perhaps volatile, then "(" and a template that is not empty? */
static int has_asm_statement(const char *t)
{
	static const char *const kw[] = {"__asm__", "asm", NULL};
	size_t i;

	for (i = 0; kw[i] != NULL; i++) {
		const char *p;

		for (p = strstr(t, kw[i]); p != NULL;
		     p = strstr(p + 1, kw[i])) {
			const char *q = p + strlen(kw[i]);

			if (p > t &&
			    (p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z') ||
			     (p[-1] >= 'A' && p[-1] <= 'Z') ||
			     (p[-1] >= '0' && p[-1] <= '9'))) {
				continue;
			}
			while (*q == ' ' || *q == '\t') {
				q++;
			}
			if (strncmp(q, "volatile", 8) == 0 ||
			    strncmp(q, "__volatile__", 12) == 0) {
				q += q[0] == '_' ? 12 : 8;
				while (*q == ' ' || *q == '\t') {
					q++;
				}
			}
			if (*q != '(') {
				continue;
			}
			q++;
			while (*q == ' ' || *q == '\t' || *q == '\n') {
				q++;
			}
			/* asm("" ::: "memory") is a compiler barrier, not code. */
			if (q[0] != '"' || q[1] != '"') {
				return 1;
			}
		}
	}
	return 0;
}

int hil_build_has_assembly(const char *dir)
{
	struct dirent *e;
	DIR *d = opendir(dir);
	int yes = 0;

	if (d == NULL) {
		return 0;
	}
	while (!yes && (e = readdir(d)) != NULL) {
		size_t n = strlen(e->d_name);
		char path[HIL_PATH], why[160];
		char *text = NULL;
		int fd;

		if (n > 2 && (strcmp(e->d_name + n - 2, ".s") == 0 ||
			      strcmp(e->d_name + n - 2, ".S") == 0)) {
			yes = 1;
			break;
		}
		if (n < 3 || (strcmp(e->d_name + n - 2, ".c") != 0 &&
			      strcmp(e->d_name + n - 2, ".h") != 0)) {
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		fd = hil_open_regular(path, 4u << 20, why, sizeof(why));
		if (fd < 0) {
			continue;
		}
		if (hil_read_fd(fd, 4u << 20, &text, NULL) == HIL_OK) {
			yes = has_asm_statement(text);
			free(text);
		}
		close(fd);
	}
	closedir(d);
	return yes;
}
