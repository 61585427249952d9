/* servespool: the lab daemon's spool directory: its paths, the job names it accepts, listing them, and each job's state file across restarts. */
#define _POSIX_C_SOURCE 200809L
#define _XOPEN_SOURCE	700 /* realpath */
#define HIL_LOG_PREFIX	"serve"
#include "serve_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "util/err.h"
#include "util/log.h"
#include "result/result.h"
#include "util/util.h"

#define MAX_NAME 128 /* a job's base name: NAME.result.json must fit */

int hil_serve_spool_path(char *buf, const struct hil_serve_opts *o,
			 const char *sub, const char *name, const char *suffix)
{
	int n = snprintf(buf, PATH_BYTES, "%s/%s%s%s%s", o->spool, sub,
			 name != NULL ? "/" : "", name != NULL ? name : "",
			 suffix != NULL ? suffix : "");

	if (n < 0 || n >= PATH_BYTES) {
		hil_err("path too long under %s/%s", o->spool, sub);
		return HIL_ERR_ARG;
	}
	return HIL_OK;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* A file of incoming/ that is meant as a job: NAME.json, not hidden, not a
 * result file. */
static int looks_like_job(const char *name)
{
	return name[0] != '.' && ends_with(name, ".json") && strlen(name) > 5 &&
	       !ends_with(name, ".result.json");
}

/* A job's name as the daemon accepts it: letters, digits and . _ + -,
 * at most MAX_NAME bytes before ".json", so that its state and result file
 * names fit and no log line can be split or forged by it. */
static int is_job_name(const char *name)
{
	size_t n = strlen(name);

	return looks_like_job(name) && n - strlen(".json") <= MAX_NAME &&
	       strspn(name, "abcdefghijklmnopqrstuvwxyz"
			    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-") == n;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void hil_serve_free_names(char **names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(names[i]);
	}
	free(names);
}

/*
 * A job file whose name the daemon does not accept is moved to
 * failed/rejected-INODE.json with a result that says why, so that it is
 * neither run nor left to be looked at on every poll. Its name is never
 * logged as it is (it may hold line breaks or be far too long).
 */
static void reject_name(const struct hil_serve_opts *o, const char *name)
{
	char from[PATH_BYTES], to[PATH_BYTES], res[PATH_BYTES], base[64];
	struct hil_result r;
	struct stat st;

	if (hil_serve_spool_path(from, o, "incoming", name, NULL) != HIL_OK ||
	    lstat(from, &st) != 0 || !S_ISREG(st.st_mode)) {
		return;
	}
	snprintf(base, sizeof(base), "rejected-%llu",
		 (unsigned long long)st.st_ino);
	if (hil_serve_spool_path(to, o, "failed", base, ".json") != HIL_OK ||
	    hil_serve_spool_path(res, o, "failed", base, ".result.json") !=
		    HIL_OK) {
		return;
	}
	memset(&r, 0, sizeof(r));
	r.job = base;
	r.exit_status = HIL_EXIT_CANNOT_START;
	r.error =
		"job file name: only letters, digits and . _ + - are allowed, at most 128 of them before .json (the file was renamed to this name)";
	r.run_dir = "";
	r.config = "";
	r.baseline = "";
	r.board = "";
	r.started = "";
	if (hil_result_write(res, &r) != HIL_OK || rename(from, to) != 0) {
		hil_err("incoming/: a job file with a name that is not allowed could not be moved to %s: %s",
			to, strerror(errno));
		return;
	}
	hil_warn(
		"incoming/: a job file with a name that is not allowed (%zu bytes) was moved to failed/%s.json",
		strlen(name), base);
	if (o->counts != NULL) {
		o->counts->failed++;
	}
}

/* The job files of spool/sub, sorted by name (strcmp: locale-free). */
int hil_serve_list_jobs(const struct hil_serve_opts *o, const char *sub,
			char ***out, size_t *n_out)
{
	char dir[PATH_BYTES], path[PATH_BYTES];
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	struct stat st;
	DIR *d;

	*out = NULL;
	*n_out = 0;
	if (hil_serve_spool_path(dir, o, sub, NULL, NULL) != HIL_OK) {
		return HIL_ERR_ARG;
	}
	d = opendir(dir);
	if (d == NULL) {
		hil_err("cannot read %s: %s", dir, strerror(errno));
		return HIL_ERR_IO;
	}
	for (e = readdir(d); e != NULL; e = readdir(d)) {
		if (strcmp(sub, "incoming") == 0 && looks_like_job(e->d_name) &&
		    !is_job_name(e->d_name)) {
			reject_name(o, e->d_name);
			continue;
		}
		if (!is_job_name(e->d_name) ||
		    hil_serve_spool_path(path, o, sub, e->d_name, NULL) !=
			    HIL_OK ||
		    lstat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
			continue;
		}
		if (n == cap) {
			char **nn = realloc(names, (cap + 16) * sizeof(*nn));

			if (nn == NULL) {
				goto nomem;
			}
			names = nn;
			cap += 16;
		}
		names[n] = strdup(e->d_name);
		if (names[n] == NULL) {
			goto nomem;
		}
		n++;
	}
	closedir(d);
	if (n > 0) {
		qsort(names, n, sizeof(*names), cmp_names);
	}
	*out = names;
	*n_out = n;
	return HIL_OK;
nomem:
	closedir(d);
	hil_serve_free_names(names, n);
	return HIL_ERR_NOMEM;
}

/* ---- state of a job across daemon restarts ---------------------------- */

/* A run folder of ours to resume: inside the working directory or the
 * lab's roots, links resolved, holding a journal or a report. */
static int run_dir_ok(const struct hil_serve_opts *o, const char *dir)
{
	char cwd[PATH_BYTES], real[PATH_BYTES], file[PATH_BYTES + 16];
	struct hil_config_roots roots;
	struct stat sb;
	size_t i;
	int inside = 0;

	hil_serve_job_roots(o, &roots, cwd, sizeof(cwd));
	if (realpath(dir, real) == NULL) {
		return 0;
	}
	if (getcwd(cwd, sizeof(cwd)) != NULL) {
		roots.dir[roots.n < HIL_CFG_MAX_ROOTS ? roots.n++ : 0] = cwd;
	}
	for (i = 0; i < roots.n && !inside; i++) {
		char top[PATH_BYTES];
		size_t n;

		if (realpath(roots.dir[i], top) == NULL) {
			continue;
		}
		n = strlen(top);
		inside = strncmp(real, top, n) == 0 && real[n] == '/';
	}
	if (!inside) {
		return 0;
	}
	snprintf(file, sizeof(file), "%s/journal.jsonl", real);
	if (lstat(file, &sb) == 0 && S_ISREG(sb.st_mode)) {
		return 1;
	}
	snprintf(file, sizeof(file), "%s/report.json", real);
	return lstat(file, &sb) == 0 && S_ISREG(sb.st_mode);
}

void hil_serve_read_state(const struct hil_serve_opts *o, const struct job *job,
			  struct state *st)
{
	char path[PATH_BYTES];
	const cJSON *a, *r;
	char *text = NULL;
	struct stat sb;
	cJSON *j;

	memset(st, 0, sizeof(*st));
	if (hil_serve_spool_path(path, o, "running", job->base, ".state") !=
		    HIL_OK ||
	    lstat(path, &sb) != 0) {
		return;
	}
	{
		/* Ours, a regular file, never through a planted link. */
		int fd = S_ISREG(sb.st_mode)
				 ? open(path, O_RDONLY | O_NOFOLLOW |
						      O_NONBLOCK | O_CLOEXEC)
				 : -1;

		if (fd < 0 || hil_read_fd(fd, 65536, &text, NULL) != HIL_OK) {
			hil_warn(
				"job %s: its state file is not a regular file of ours: ignored",
				job->name);
			if (fd >= 0) {
				close(fd);
			}
			return;
		}
		close(fd);
	}
	j = cJSON_Parse(text);
	a = cJSON_GetObjectItemCaseSensitive(j, "attempts");
	r = cJSON_GetObjectItemCaseSensitive(j, "run_dir");
	if (cJSON_IsNumber(a) && a->valuedouble >= 0 && a->valuedouble < 1000) {
		st->attempts = (unsigned)a->valuedouble;
	}
	/* A run folder to resume must be one of ours: inside the working
	 * directory, links resolved (a planted state may name any). */
	if (cJSON_IsString(r) && r->valuestring[0] != '\0') {
		if (run_dir_ok(o, r->valuestring)) {
			snprintf(st->run_dir, sizeof(st->run_dir), "%s",
				 r->valuestring);
		} else {
			hil_warn(
				"job %s: its state names a run folder outside the working directory: not resumed",
				job->name);
		}
	}
	cJSON_Delete(j);
	free(text);
}

void hil_serve_write_state(const struct hil_serve_opts *o,
			   const struct job *job, const struct state *st)
{
	char path[PATH_BYTES];
	cJSON *j = cJSON_CreateObject();
	char *text = NULL;

	if (j == NULL ||
	    hil_serve_spool_path(path, o, "running", job->base, ".state") !=
		    HIL_OK ||
	    cJSON_AddNumberToObject(j, "attempts", st->attempts) == NULL ||
	    cJSON_AddStringToObject(j, "run_dir", st->run_dir) == NULL) {
		goto out;
	}
	text = cJSON_PrintUnformatted(j);
	if (text != NULL) {
		/* Logged inside on failure; the job still runs. */
		hil_write_atomic(path, text, strlen(text));
	}
out:
	free(text);
	cJSON_Delete(j);
}

void hil_serve_mark_run(const char *run_dir, const char *ident)
{
	char path[PATH_BYTES + 32];

	snprintf(path, sizeof(path), "%s/" HIL_SERVE_RUN_MARK, run_dir);
	/* Logged inside on failure: the job then cannot resume, only run
	 * again. */
	hil_write_atomic(path, ident, strlen(ident));
}

/* A file or folder only hilrun's user can have written. */
static int ours(const struct stat *st)
{
	return st->st_uid == geteuid() && (st->st_mode & 022) == 0;
}

int hil_serve_run_is_jobs(const char *run_dir, const char *ident)
{
	char path[PATH_BYTES + 32], buf[512];
	struct stat st, ds;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/" HIL_SERVE_RUN_MARK, run_dir);
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		return 0;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || !ours(&st) ||
	    stat(run_dir, &ds) != 0 || !ours(&ds)) {
		close(fd);
		return 0;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0) {
		return 0;
	}
	buf[n] = '\0';
	return strcmp(buf, ident) == 0;
}

void hil_serve_drop_state(const struct hil_serve_opts *o, const struct job *job)
{
	char path[PATH_BYTES];

	if (hil_serve_spool_path(path, o, "running", job->base, ".state") ==
		    HIL_OK &&
	    unlink(path) != 0 && errno != ENOENT) {
		hil_warn("cannot remove %s: %s", path, strerror(errno));
	}
}
