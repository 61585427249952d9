/* pqjournal: what a post-quantum run keeps of each scheme folder that ran to its end (done.tsv, and that folder's lines of the run's .tsv files) and how to start it again (pq-run.json), for hilrun pq --resume. */
#define _XOPEN_SOURCE  700
#define HIL_LOG_PREFIX "pq"
#include "pqjournal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "image/elfinfo.h"
#include "journal.h"
#include "util/err.h"
#include "util/log.h"
#include "util/util.h"

/* The files whose lines belong to a folder by their first two columns
 * (scheme, implementation): scripts/pq-bench.sh's and pqlink.c's. */
static const char *const folder_files[] = {"rows.tsv", "calls.tsv",
					   "skipped.tsv", "images.tsv"};

int hil_pq_journal_write_run(const char *dir, const struct hil_pq_resume *r)
{
	char path[HIL_PATH + 32];
	cJSON *o = cJSON_CreateObject();
	char *text = NULL;
	int ret;

	if (o != NULL && cJSON_AddStringToObject(o, "kind", "pq") != NULL &&
	    cJSON_AddStringToObject(o, "config", r->config) != NULL &&
	    cJSON_AddStringToObject(o, "config_given", r->config_given) !=
		    NULL &&
	    cJSON_AddStringToObject(o, "started", r->started) != NULL &&
	    cJSON_AddStringToObject(o, "board", r->board) != NULL &&
	    cJSON_AddNumberToObject(o, "runs", (double)r->runs) != NULL &&
	    cJSON_AddNumberToObject(o, "seed", (double)r->seed) != NULL &&
	    cJSON_AddBoolToObject(o, "host_signatures", r->host_signatures) !=
		    NULL) {
		text = cJSON_Print(o);
	}
	cJSON_Delete(o);
	snprintf(path, sizeof(path), "%s/" HIL_PQ_RUN_FILE, dir);
	if (text == NULL) {
		hil_err("no memory for %s", path);
		return HIL_ERR_NOMEM;
	}
	errno = 0;
	ret = hil_write_atomic(path, text, strlen(text));
	if (ret != HIL_OK) {
		hil_journal_fs_error(HIL_PQ_RUN_FILE, path,
				     errno != 0 ? errno : EIO, 0);
		ret = HIL_ERR_IO;
	}
	free(text);
	return ret;
}

/* A string member of o into out, or 0. */
static int json_str(const cJSON *o, const char *key, char *out, size_t len)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);

	if (!cJSON_IsString(it) || strlen(it->valuestring) >= len) {
		return 0;
	}
	snprintf(out, len, "%s", it->valuestring);
	return 1;
}

/* A whole number member of o in [lo, hi] into out, or 0. */
static int json_uint(const cJSON *o, const char *key, double lo, double hi,
		     unsigned long *out)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);

	if (!cJSON_IsNumber(it) || it->valuedouble < lo ||
	    it->valuedouble > hi ||
	    it->valuedouble != (double)(unsigned long)it->valuedouble) {
		return 0;
	}
	*out = (unsigned long)it->valuedouble;
	return 1;
}

int hil_pq_journal_read_run(const char *dir, struct hil_pq_resume *r)
{
	char path[HIL_PATH + 32], other[HIL_PATH + 32];
	char *text = NULL;
	cJSON *o;
	int ok;

	memset(r, 0, sizeof(*r));
	snprintf(path, sizeof(path), "%s/" HIL_PQ_RUN_FILE, dir);
	if (access(path, F_OK) != 0) {
		snprintf(other, sizeof(other), "%s/run.json", dir);
		if (access(other, F_OK) == 0) {
			hil_err("%s is the folder of a hilrun run, not of a "
				"hilrun pq run: resume it with hilrun --resume "
				"%s",
				dir, dir);
		} else {
			hil_err("%s is not a folder hilrun pq can resume (no "
				"%s: name the --output folder of a hilrun pq "
				"run)",
				dir, HIL_PQ_RUN_FILE);
		}
		return HIL_ERR_ARG;
	}
	if (hil_read_file(path, &text, NULL) != HIL_OK) {
		return HIL_ERR_ARG;
	}
	o = cJSON_Parse(text);
	free(text);
	ok = o != NULL &&
	     cJSON_IsString(cJSON_GetObjectItemCaseSensitive(o, "kind")) &&
	     strcmp(cJSON_GetObjectItemCaseSensitive(o, "kind")->valuestring,
		    "pq") == 0 &&
	     json_str(o, "config", r->config, sizeof(r->config)) &&
	     json_str(o, "config_given", r->config_given,
		      sizeof(r->config_given)) &&
	     json_str(o, "started", r->started, sizeof(r->started)) &&
	     json_str(o, "board", r->board, sizeof(r->board)) &&
	     json_uint(o, "runs", 1, 1000, &r->runs) &&
	     json_uint(o, "seed", 0, 4294967295.0, &r->seed);
	/* Absent in a run started before it was recorded: not given. */
	if (ok && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(
			  o, "host_signatures"))) {
		r->host_signatures = 1;
	}
	cJSON_Delete(o);
	if (!ok) {
		hil_err("%s: not what hilrun pq writes (kind \"pq\", config, "
			"config_given, started, board, runs 1 to 1000, seed)",
			path);
		return HIL_ERR_CONFIG;
	}
	return HIL_OK;
}

/* The folder of scheme/impl's image as pq-bench.sh names it
 * (BUILD/SCHEME_IMPL/fw/stub.elf: / . + - as _). */
static void image_path(const char *build, const char *scheme, const char *impl,
		       char *out, size_t len)
{
	char sym[256], *p;

	snprintf(sym, sizeof(sym), "%s/%s", scheme, impl);
	for (p = sym; *p != '\0'; p++) {
		if (strchr("/.+-", *p) != NULL) {
			*p = '_';
		}
	}
	snprintf(out, len, "%s/%s/fw/stub.elf", build, sym);
}

/* The value of key in run.tsv's text ("key\tvalue" lines) into out, or "". */
static void run_meta(const char *text, const char *key, char *out, size_t len)
{
	const char *p = text;
	size_t kl = strlen(key);

	out[0] = '\0';
	while (p != NULL && *p != '\0') {
		if (strncmp(p, key, kl) == 0 && p[kl] == '\t') {
			size_t n = strcspn(p + kl + 1, "\n");

			snprintf(out, len, "%.*s", (int)n, p + kl + 1);
			return;
		}
		p = strchr(p, '\n');
		p = p != NULL ? p + 1 : NULL;
	}
}

/* The whole lines of text (each ending in '\n'). line receives each in
 * turn, NUL-terminated in place of its '\n'; returns the next, or NULL. */
static char *next_line(char *p, char **line)
{
	char *nl = p != NULL ? strchr(p, '\n') : NULL;

	if (nl == NULL) {
		return NULL; /* the end, or a last line cut short: not whole */
	}
	*nl = '\0';
	*line = p;
	return nl + 1;
}

/* Whether line's first two columns are a key of keys ("scheme\timpl\n"
 * joined). */
static int kept_line(const char *line, const char *keys)
{
	const char *t1 = strchr(line, '\t');
	const char *t2 = t1 != NULL ? strchr(t1 + 1, '\t') : NULL;
	const char *k = keys;
	size_t n;

	if (t2 == NULL) {
		return 0;
	}
	n = (size_t)(t2 - line);
	while (k != NULL && *k != '\0') {
		if (strncmp(k, line, n) == 0 && k[n] == '\n') {
			return 1;
		}
		k = strchr(k, '\n');
		k = k != NULL ? k + 1 : NULL;
	}
	return 0;
}

/* dir/name rewritten with the lines kept_line() keeps (nothing to do
 * when there is no such file). */
static int filter_file(const char *dir, const char *name, const char *keys)
{
	char path[HIL_PATH + 32];
	char *text = NULL, *p, *line, *out;
	size_t len = 0, o = 0;
	int ret;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (access(path, F_OK) != 0) {
		return HIL_OK;
	}
	ret = hil_read_file(path, &text, &len);
	if (ret != HIL_OK) {
		return HIL_ERR_IO;
	}
	out = malloc(len + 1);
	if (out == NULL) {
		free(text);
		return HIL_ERR_NOMEM;
	}
	p = text;
	while ((p = next_line(p, &line)) != NULL) {
		if (kept_line(line, keys)) {
			size_t n = strlen(line);

			memcpy(out + o, line, n);
			o += n;
			out[o++] = '\n';
		}
	}
	errno = 0;
	ret = hil_write_atomic(path, out, o);
	if (ret != HIL_OK) {
		hil_journal_fs_error(name, path, errno != 0 ? errno : EIO, 1);
		ret = HIL_ERR_IO;
	}
	free(out);
	free(text);
	return ret;
}

int hil_pq_journal_keep(const char *dir, size_t *kept)
{
	char path[HIL_PATH + 32], build[HIL_PATH], elf[2 * HIL_PATH];
	char *done = NULL, *meta = NULL, *keys = NULL, *lines = NULL;
	char *p, *line;
	size_t len = 0, ko = 0, lo = 0, i;
	int ret = HIL_OK;

	*kept = 0;
	snprintf(path, sizeof(path), "%s/run.tsv", dir);
	if (access(path, F_OK) == 0 &&
	    hil_read_file(path, &meta, NULL) != HIL_OK) {
		return HIL_ERR_IO;
	}
	run_meta(meta != NULL ? meta : "", "build", build, sizeof(build));
	free(meta);
	snprintf(path, sizeof(path), "%s/" HIL_PQ_DONE_FILE, dir);
	if (access(path, F_OK) == 0 &&
	    hil_read_file(path, &done, &len) != HIL_OK) {
		return HIL_ERR_IO;
	}
	keys = malloc(len + 1);
	lines = malloc(len + 1);
	if (keys == NULL || lines == NULL) {
		ret = HIL_ERR_NOMEM;
		goto out;
	}
	keys[0] = '\0';
	p = done;
	while ((p = next_line(p, &line)) != NULL) {
		char scheme[128], impl[128], id[160];
		struct hil_elf_info ei;
		int ok;

		if (sscanf(line, "%127[^\t]\t%127[^\t]\t%159[0-9a-f]", scheme,
			   impl, id) != 3) {
			continue;
		}
		image_path(build, scheme, impl, elf, sizeof(elf));
		ok = build[0] != '\0' && hil_elf_info(elf, &ei) == HIL_OK &&
		     strcmp(ei.build_id_hex, id) == 0;
		if (!ok) {
			hil_info("%s/%s: its image is not the one the earlier "
				 "attempt ran (build-id %.12s): run again",
				 scheme, impl, id);
			continue;
		}
		lo += (size_t)sprintf(lines + lo, "%s\n", line);
		ko += (size_t)sprintf(keys + ko, "%s\t%s\n", scheme, impl);
		(*kept)++;
	}
	errno = 0;
	if (hil_write_atomic(path, lines, lo) != HIL_OK) {
		hil_journal_fs_error(HIL_PQ_DONE_FILE, path,
				     errno != 0 ? errno : EIO, 1);
		ret = HIL_ERR_IO;
		goto out;
	}
	for (i = 0; ret == HIL_OK &&
		    i < sizeof(folder_files) / sizeof(folder_files[0]);
	     i++) {
		ret = filter_file(dir, folder_files[i], keys);
	}
out:
	free(done);
	free(keys);
	free(lines);
	return ret;
}

int hil_pq_journal_is_done(const char *dir, const char *scheme,
			   const char *impl)
{
	char path[HIL_PATH + 32], key[512];
	char *text = NULL, *p, *line;
	int found = 0;

	snprintf(path, sizeof(path), "%s/" HIL_PQ_DONE_FILE, dir);
	if (access(path, F_OK) != 0 ||
	    hil_read_file(path, &text, NULL) != HIL_OK) {
		return 0;
	}
	snprintf(key, sizeof(key), "%s\t%s\n", scheme, impl);
	p = text;
	while (!found && (p = next_line(p, &line)) != NULL) {
		found = kept_line(line, key);
	}
	free(text);
	return found;
}

int hil_pq_journal_mark(const char *dir, const char *scheme, const char *impl,
			const char *build_id)
{
	char path[HIL_PATH + 32], line[512];
	int fd, n, ret;

	snprintf(path, sizeof(path), "%s/" HIL_PQ_DONE_FILE, dir);
	n = snprintf(line, sizeof(line), "%s\t%s\t%s\n", scheme, impl,
		     build_id);
	if (n < 0 || (size_t)n >= sizeof(line)) {
		return HIL_ERR_ARG;
	}
	fd = hil_open_append(path);
	if (fd < 0) {
		hil_journal_fs_error(HIL_PQ_DONE_FILE, path, errno, 1);
		return HIL_ERR_IO;
	}
	ret = hil_journal_append(fd, path, line, (size_t)n);
	close(fd);
	return ret;
}

int hil_pq_journal_sync(FILE *f, const char *path)
{
	if (fflush(f) != 0 || fsync(fileno(f)) != 0) {
		hil_journal_fs_error("the run's file", path,
				     errno != 0 ? errno : EIO, 1);
		return HIL_ERR_IO;
	}
	return HIL_OK;
}
