/* serve: the spool daemon: claim by rename, lock the job and its board, run, file the job and its result under done/ or failed/. */
#define _POSIX_C_SOURCE 200809L
#define _XOPEN_SOURCE	700 /* realpath */
#define HIL_LOG_PREFIX	"serve"
#include "serve.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "util/err.h"
#include "jobpolicy.h"
#include "lock.h"
#include "util/log.h"
#include "config/paths.h"
#include "run/result.h"
#include "util/util.h"

#define PATH_BYTES    4096
#define MSG_BYTES     2048
#define MAX_JOB_BYTES (1024 * 1024) /* a job file is a few hundred bytes */
#define SLICE_MS      100	    /* stop flag checked this often */
#define DEFAULT_POLL  1000
#define MAX_NAME      128 /* a job's base name: NAME.result.json must fit */

/* What happened to one job, for its result file. */
struct outcome {
	int exit_status;
	char error[MSG_BYTES]; /* "" when none */
	char report_dir[PATH_BYTES];
	char config[HIL_CFG_STR]; /* path, or "inline" */
	char baseline[PATH_BYTES];
	char board[HIL_LOCK_ID_MAX];
	char started[32];
};

/* A job claimed by this daemon: its file open and flock'ed. */
struct job {
	char name[256]; /* "nightly.json" */
	char base[256]; /* "nightly" */
	int fd;
};

enum step { STEP_FILED, STEP_SKIPPED, STEP_STOPPED };

static int stopping(const struct hil_serve_opts *o)
{
	return o->stop != NULL && *o->stop != 0;
}

/* Sleep ms, in slices, returning early when asked to stop. */
static void nap(const struct hil_serve_opts *o, unsigned ms)
{
	while (ms > 0 && !stopping(o)) {
		unsigned s = ms < SLICE_MS ? ms : SLICE_MS;
		struct timespec ts = {0, (long)s * 1000000L};

		nanosleep(&ts, NULL); /* EINTR: the handler set the flag */
		ms -= s;
	}
}

static int spool_path(char *buf, const struct hil_serve_opts *o,
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

static void free_names(char **names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(names[i]);
	}
	free(names);
}

/* The job files of spool/sub, sorted by name (strcmp: locale-free). */
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

	if (spool_path(from, o, "incoming", name, NULL) != HIL_OK ||
	    lstat(from, &st) != 0 || !S_ISREG(st.st_mode)) {
		return;
	}
	snprintf(base, sizeof(base), "rejected-%llu",
		 (unsigned long long)st.st_ino);
	if (spool_path(to, o, "failed", base, ".json") != HIL_OK ||
	    spool_path(res, o, "failed", base, ".result.json") != HIL_OK) {
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

static int list_jobs(const struct hil_serve_opts *o, const char *sub,
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
	if (spool_path(dir, o, sub, NULL, NULL) != HIL_OK) {
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
		    spool_path(path, o, sub, e->d_name, NULL) != HIL_OK ||
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
	free_names(names, n);
	return HIL_ERR_NOMEM;
}

/*
 * Open and flock the job file at spool/running/name. Another daemon on the
 * same spool may be running it (then the flock fails) or may just have
 * filed it away (then the path no longer names the inode we locked).
 * @return HIL_OK with job->fd locked, or STEP_SKIPPED-worthy HIL_ERR_NA.
 */
static int lock_job(const struct hil_serve_opts *o, struct job *job)
{
	char path[PATH_BYTES];
	struct stat a, b;
	int fd;

	if (spool_path(path, o, "running", job->name, NULL) != HIL_OK) {
		return HIL_ERR_ARG;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0) {
		return HIL_ERR_NA;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) != 0 || fstat(fd, &a) != 0 ||
	    stat(path, &b) != 0 || a.st_dev != b.st_dev ||
	    a.st_ino != b.st_ino) {
		close(fd);
		return HIL_ERR_NA;
	}
	job->fd = fd;
	return HIL_OK;
}

static void set_names(struct job *job, const char *name)
{
	snprintf(job->name, sizeof(job->name), "%s", name);
	snprintf(job->base, sizeof(job->base), "%.*s",
		 (int)(strlen(name) - strlen(".json")), name);
	job->fd = -1;
}

/* ---- state of a job across daemon restarts ---------------------------- */

struct state {
	unsigned attempts; /* runs started, including the current one */
	char run_dir[PATH_BYTES];
};

/* The roots a job's files must lie in: the caller's, else the working
 * directory. */
static void job_roots(const struct hil_serve_opts *o,
		      struct hil_config_roots *roots, char *cwd, size_t len)
{
	if (o->roots != NULL && o->roots->n > 0) {
		*roots = *o->roots;
		return;
	}
	memset(roots, 0, sizeof(*roots));
	if (getcwd(cwd, len) != NULL) {
		roots->dir[0] = cwd;
		roots->n = 1;
	}
}

/* A run folder of ours to resume: inside the working directory or the
 * lab's roots, links resolved, holding a journal or a report. */
static int run_dir_ok(const struct hil_serve_opts *o, const char *dir)
{
	char cwd[PATH_BYTES], real[PATH_BYTES], file[PATH_BYTES + 16];
	struct hil_config_roots roots;
	struct stat sb;
	size_t i;
	int inside = 0;

	job_roots(o, &roots, cwd, sizeof(cwd));
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

static void read_state(const struct hil_serve_opts *o, const struct job *job,
		       struct state *st)
{
	char path[PATH_BYTES];
	const cJSON *a, *r;
	char *text = NULL;
	struct stat sb;
	cJSON *j;

	memset(st, 0, sizeof(*st));
	if (spool_path(path, o, "running", job->base, ".state") != HIL_OK ||
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

static void write_state(const struct hil_serve_opts *o, const struct job *job,
			const struct state *st)
{
	char path[PATH_BYTES];
	cJSON *j = cJSON_CreateObject();
	char *text = NULL;

	if (j == NULL ||
	    spool_path(path, o, "running", job->base, ".state") != HIL_OK ||
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

static void drop_state(const struct hil_serve_opts *o, const struct job *job)
{
	char path[PATH_BYTES];

	if (spool_path(path, o, "running", job->base, ".state") == HIL_OK &&
	    unlink(path) != 0 && errno != ENOENT) {
		hil_warn("cannot remove %s: %s", path, strerror(errno));
	}
}

/* ---- the job file ------------------------------------------------------ */

/* Read the locked job file through its descriptor (rename keeps it). */
static int read_job(int fd, char **out, size_t *len, char *err, size_t errlen)
{
	struct stat st;
	char *buf;
	size_t n = 0;

	if (fstat(fd, &st) != 0 || st.st_size > MAX_JOB_BYTES) {
		snprintf(err, errlen,
			 "job file: unreadable or larger than %d bytes",
			 MAX_JOB_BYTES);
		return HIL_ERR_CONFIG;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (buf == NULL) {
		snprintf(err, errlen, "out of memory");
		return HIL_ERR_NOMEM;
	}
	while (n < (size_t)st.st_size) {
		ssize_t r =
			pread(fd, buf + n, (size_t)st.st_size - n, (off_t)n);

		if (r < 0 && errno == EINTR) {
			continue;
		}
		if (r < 0) {
			snprintf(err, errlen, "job file: cannot read: %s",
				 strerror(errno));
			free(buf);
			return HIL_ERR_IO;
		}
		if (r == 0) {
			break;
		}
		n += (size_t)r;
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return HIL_OK;
}

/*
 * Validate the job file and load its configuration into cfg.
 * @return HIL_OK, or an error with out->error set to a message that says
 *         what is wrong and where.
 */
static int parse_job(const struct hil_serve_opts *o, const char *text,
		     size_t len, struct hil_config *cfg, struct outcome *out)
{
	struct hil_config_roots roots;
	char cwd[PATH_BYTES];
	char cerr[MSG_BYTES - 32];
	const cJSON *it, *prev, *config = NULL, *baseline = NULL;
	const char *end = NULL;
	char *inline_text = NULL;
	size_t line, col;
	cJSON *root;
	int ret = HIL_ERR_CONFIG;

	job_roots(o, &roots, cwd, sizeof(cwd));
	if (memchr(text, '\0', len) != NULL) {
		snprintf(out->error, sizeof(out->error),
			 "job file: NUL byte in the text");
		return HIL_ERR_CONFIG;
	}
	root = cJSON_ParseWithLengthOpts(text, len + 1, &end, 1);
	if (root == NULL) {
		size_t off = 0;

		if (end != NULL && end >= text && end <= text + len) {
			off = (size_t)(end - text);
		}
		hil_text_line_col(text, off, &line, &col);
		snprintf(
			out->error, sizeof(out->error),
			"job file: line %zu, column %zu: not valid JSON (expected {\"config\": \"PATH\"} or {\"config\": {...}})",
			line, col);
		return HIL_ERR_CONFIG;
	}
	if (!cJSON_IsObject(root)) {
		snprintf(
			out->error, sizeof(out->error),
			"job file: expected a JSON object: {\"config\": \"PATH\"} or {\"config\": {...}}, optionally with \"baseline\": \"PATH\"");
		goto out;
	}
	cJSON_ArrayForEach(it, root)
	{
		for (prev = root->child; prev != it; prev = prev->next) {
			if (strcmp(prev->string, it->string) == 0) {
				snprintf(out->error, sizeof(out->error),
					 "job file: %.64s: key given twice",
					 it->string);
				goto out;
			}
		}
		if (strcmp(it->string, "config") == 0) {
			config = it;
		} else if (strcmp(it->string, "baseline") == 0) {
			baseline = it;
		} else {
			snprintf(
				out->error, sizeof(out->error),
				"job file: %.64s: unknown key (known: config, baseline)",
				it->string);
			goto out;
		}
	}
	if (config == NULL) {
		snprintf(
			out->error, sizeof(out->error),
			"job file: config: required (a config file path or an inline configuration object)");
		goto out;
	}
	if (baseline != NULL) {
		if (!cJSON_IsString(baseline) ||
		    baseline->valuestring[0] == '\0' ||
		    strlen(baseline->valuestring) >= sizeof(out->baseline)) {
			snprintf(
				out->error, sizeof(out->error),
				"job file: baseline: expected the path of a report (a non-empty string)");
			goto out;
		}
		snprintf(out->baseline, sizeof(out->baseline), "%s",
			 baseline->valuestring);
	}
	if (cJSON_IsString(config)) {
		snprintf(out->config, sizeof(out->config), "%s",
			 config->valuestring);
		ret = hil_config_load_in(config->valuestring, &roots, cfg, cerr,
					 sizeof(cerr));
		if (ret != HIL_OK) {
			/* The loader's message names the file and key. */
			snprintf(out->error, sizeof(out->error), "%s", cerr);
		}
	} else if (cJSON_IsObject(config)) {
		snprintf(out->config, sizeof(out->config), "inline");
		inline_text = cJSON_PrintUnformatted(config);
		if (inline_text == NULL) {
			snprintf(out->error, sizeof(out->error),
				 "out of memory");
			ret = HIL_ERR_NOMEM;
			goto out;
		}
		ret = hil_config_parse_in(inline_text, NULL, &roots, cfg, cerr,
					  sizeof(cerr));
		if (ret != HIL_OK) {
			snprintf(out->error, sizeof(out->error),
				 "inline config: %s", cerr);
		}
	} else {
		snprintf(
			out->error, sizeof(out->error),
			"job file: config: expected a config file path (string) or an inline configuration (object)");
	}
	if (ret == HIL_OK) {
		/* A job chooses values of the schema, not programs or files
		 * of its own (docs/lab.md, "Trust"). */
		ret = hil_job_check(cfg, &roots, cerr, sizeof(cerr));
		if (ret != HIL_OK) {
			snprintf(out->error, sizeof(out->error), "%s%s%s",
				 cJSON_IsString(config) ? out->config : "",
				 cJSON_IsString(config) ? ": " : "", cerr);
		}
	}
	if (ret == HIL_OK && out->baseline[0] != '\0') {
		/* A regression gate that cannot be read must not be skipped
		 * silently: the job fails before anything runs. */
		char why[160];
		int fd = hil_open_regular(out->baseline, HIL_READ_MAX, why,
					  sizeof(why));

		if (fd < 0) {
			snprintf(out->error, sizeof(out->error),
				 "job file: baseline: cannot read %s: %s",
				 out->baseline, why);
			ret = HIL_ERR_CONFIG;
		} else {
			close(fd);
		}
	}
	if (ret == HIL_OK && out->baseline[0] != '\0') {
		struct hil_config_roots *r = &roots;
		char real[PATH_BYTES];
		size_t i, ok = 0;

		for (i = 0; realpath(out->baseline, real) != NULL && i < r->n;
		     i++) {
			char top[PATH_BYTES];
			size_t n;

			if (realpath(r->dir[i], top) == NULL) {
				continue;
			}
			n = strlen(top);
			ok = ok || (strncmp(real, top, n) == 0 &&
				    (real[n] == '/' || real[n] == '\0'));
		}
		if (!ok) {
			snprintf(
				out->error, sizeof(out->error),
				"job file: baseline: %s is outside the lab's roots",
				out->baseline);
			ret = HIL_ERR_CONFIG;
		}
	}
	if (ret == HIL_OK) {
		/* Whoever can drop a job must not make the daemon write
		 * outside its working directory. */
		ret = hil_path_check_config(cfg, cerr, sizeof(cerr));
		if (ret != HIL_OK) {
			snprintf(
				out->error, sizeof(out->error),
				"%s; a job's results go under the daemon's working directory",
				cerr);
		}
	}
out:
	free(inline_text);
	cJSON_Delete(root);
	return ret;
}

/* ---- the result file and filing --------------------------------------- */

static const char *summary_of(int exit_status)
{
	return hil_exit_summary(exit_status);
}

static int exit_status_of(int ret)
{
	switch (ret) {
	case HIL_OK:
		return HIL_EXIT_ALL_MEASURED;
	case HIL_ERR_VERIFY:
		return HIL_EXIT_ROWS_FAILED;
	case HIL_SERVE_REGRESSION:
		return HIL_EXIT_REGRESSION;
	case HIL_ERR_INTERRUPTED:
		return HIL_EXIT_INTERRUPTED;
	case HIL_SERVE_TRANSIENT:
		return HIL_EXIT_TRANSIENT;
	default:
		return HIL_EXIT_CANNOT_START;
	}
}

static int write_result(const struct hil_serve_opts *o, const struct job *job,
			const char *dest, const struct outcome *out)
{
	char path[PATH_BYTES];
	struct hil_result r;
	int ret;

	memset(&r, 0, sizeof(r));
	r.job = job->name;
	r.exit_status = out->exit_status;
	r.error = out->error;
	r.run_dir = out->report_dir;
	r.config = out->config;
	r.baseline = out->baseline;
	r.board = out->board;
	r.started = out->started;
	ret = spool_path(path, o, dest, job->base, ".result.json");
	if (ret == HIL_OK) {
		ret = hil_result_write(path, &r);
	}
	return ret;
}

/*
 * Result first, then the job file: the rename of the job out of running/
 * is the commit. A crash between the two re-runs the job at the next start
 * and overwrites the result.
 */
static void file_job(const struct hil_serve_opts *o, const struct job *job,
		     const struct outcome *out)
{
	const char *dest =
		out->exit_status == HIL_EXIT_ALL_MEASURED ? "done" : "failed";
	char from[PATH_BYTES], to[PATH_BYTES];
	struct stat st;

	if (write_result(o, job, dest, out) != HIL_OK) {
		/* A job whose result cannot be written has not succeeded:
		 * say so in failed/ if that can be written at all. */
		struct outcome *bad = malloc(sizeof(*bad));

		if (bad != NULL) {
			*bad = *out;
			if (bad->exit_status == HIL_EXIT_ALL_MEASURED) {
				bad->exit_status = HIL_EXIT_CANNOT_START;
			}
			snprintf(
				bad->error, sizeof(bad->error),
				"its result could not be written to %s/ (see the daemon's log)%s%s",
				dest, out->error[0] ? ": " : "", out->error);
			dest = "failed";
			if (write_result(o, job, "failed", bad) != HIL_OK) {
				hil_err("job %s: no result could be written: left in running/",
					job->name);
				free(bad);
				return;
			}
			free(bad);
		}
	}
	if (spool_path(from, o, "running", job->name, NULL) != HIL_OK ||
	    spool_path(to, o, dest, job->name, NULL) != HIL_OK) {
		return;
	}
	if (lstat(to, &st) == 0) {
		hil_warn(
			"job %s: replacing the %s/%s of an earlier job of that name",
			job->name, dest, job->name);
	}
	if (rename(from, to) != 0) {
		hil_err("job %s: cannot move %s to %s: %s", job->name, from, to,
			strerror(errno));
		return;
	}
	drop_state(o, job);
	if (o->counts != NULL) {
		if (strcmp(dest, "done") == 0) {
			o->counts->done++;
		} else {
			o->counts->failed++;
		}
	}
	if (strcmp(dest, "done") != 0 &&
	    out->exit_status == HIL_EXIT_ALL_MEASURED) {
		hil_err("job %s: measured, but filed in failed/: its result could not be written to done/",
			job->name);
	} else if (out->exit_status == HIL_EXIT_ALL_MEASURED) {
		hil_info("job %s: done, report %s/report.json", job->name,
			 out->report_dir);
	} else if (out->error[0] != '\0') {
		hil_err("job %s: failed (exit %d): %s", job->name,
			out->exit_status, out->error);
	} else {
		hil_warn("job %s: failed (exit %d): %s%s%s", job->name,
			 out->exit_status, summary_of(out->exit_status),
			 out->report_dir[0] != '\0' ? ", report " : "",
			 out->report_dir);
	}
}

/* ---- one job ------------------------------------------------------------ */

/*
 * Take the board's lock, waiting up to wait_s in one-second steps so that
 * a stop is honoured while a long run elsewhere holds the board.
 * @return HIL_OK, HIL_ERR_INTERRUPTED (stop), or the lock's error with msg.
 */
static int lock_board(const struct hil_serve_opts *o, const char *id,
		      const char *what, struct hil_lock *lock, char **msg)
{
	unsigned waited = 0;
	int ret;

	for (;;) {
		unsigned step = o->wait_s - waited < 1 ? 0 : 1;

		ret = hil_lock_acquire(lock, o->lock_dir, id, what, step, msg);
		if (ret != HIL_ERR_TIMEOUT && ret != HIL_ERR_INTERRUPTED) {
			return ret;
		}
		if (stopping(o)) {
			return HIL_ERR_INTERRUPTED;
		}
		waited += step;
		if (ret == HIL_ERR_TIMEOUT && waited >= o->wait_s) {
			return ret;
		}
		free(*msg);
		*msg = NULL;
	}
}

/* What run_started needs to record a job's run folder. */
struct started_ctx {
	const struct hil_serve_opts *o;
	const struct job *job;
	struct state *st;
};

/* The run folder exists: into the state file at once, so that a daemon
 * killed from here on resumes its journal (hil_serve_started). */
static void run_started(void *arg, const char *run_dir)
{
	struct started_ctx *sc = arg;

	if (strcmp(sc->st->run_dir, run_dir) == 0) {
		return; /* resuming it: already recorded */
	}
	snprintf(sc->st->run_dir, sizeof(sc->st->run_dir), "%s", run_dir);
	write_state(sc->o, sc->job, sc->st);
}

/* Run a claimed, locked job to its end; the job file stays in running/. */
static enum step run_job(const struct hil_serve_opts *o, struct job *job,
			 struct outcome *out)
{
	struct hil_config *cfg = calloc(1, sizeof(*cfg));
	struct hil_lock lock;
	struct state st;
	struct started_ctx sc;
	struct hil_serve_started started;
	char what[HIL_CFG_STR + 300];
	char *text = NULL, *msg = NULL;
	size_t len = 0;
	int ret;

	memset(&lock, 0, sizeof(lock));
	hil_utc_iso(out->started, sizeof(out->started));
	out->exit_status = HIL_EXIT_CANNOT_START;
	if (cfg == NULL) {
		snprintf(out->error, sizeof(out->error), "out of memory");
		return STEP_FILED;
	}
	ret = read_job(job->fd, &text, &len, out->error, sizeof(out->error));
	if (ret == HIL_OK) {
		ret = parse_job(o, text, len, cfg, out);
	}
	free(text);
	if (ret != HIL_OK) {
		goto out;
	}

	/* A job that took the daemon down with it must not do so forever. */
	read_state(o, job, &st);
	if (st.attempts >= HIL_SERVE_MAX_ATTEMPTS) {
		snprintf(
			out->error, sizeof(out->error),
			"gave up after %u attempts: the daemon stopped while running this job each time",
			st.attempts);
		snprintf(out->report_dir, sizeof(out->report_dir), "%s",
			 st.run_dir);
		goto out;
	}

	snprintf(out->board, sizeof(out->board), "%s",
		 hil_boards_lock_id(o->boards, cfg));
	snprintf(what, sizeof(what), "hilrun serve, job %s: %s", job->name,
		 out->config);
	ret = lock_board(o, out->board, what, &lock, &msg);
	if (ret == HIL_ERR_INTERRUPTED) {
		free(msg);
		free(cfg);
		return STEP_STOPPED;
	}
	if (ret != HIL_OK) {
		if (ret == HIL_ERR_TIMEOUT) {
			out->exit_status = HIL_EXIT_TRANSIENT; /* board busy */
		}
		if (ret == HIL_ERR_TIMEOUT && o->wait_s > 0) {
			snprintf(out->error, sizeof(out->error),
				 "%s (waited %u s for it)",
				 msg != NULL ? msg : hil_strerror(ret),
				 o->wait_s);
		} else {
			snprintf(out->error, sizeof(out->error), "%s",
				 msg != NULL ? msg : hil_strerror(ret));
		}
		free(msg);
		goto out;
	}

	st.attempts++;
	write_state(o, job, &st);
	hil_info("job %s: running %s on board %s%s%s", job->name, out->config,
		 out->board, st.run_dir[0] != '\0' ? ", resuming " : "",
		 st.run_dir);
	snprintf(out->report_dir, sizeof(out->report_dir), "%s", st.run_dir);
	sc.o = o;
	sc.job = job;
	sc.st = &st;
	started.fn = run_started;
	started.arg = &sc;
	ret = o->run(o->ctx, cfg,
		     out->baseline[0] != '\0' ? out->baseline : NULL,
		     out->report_dir, sizeof(out->report_dir), &started);
	out->report_dir[sizeof(out->report_dir) - 1] = '\0';
	hil_lock_release(&lock);
	out->exit_status = exit_status_of(ret);
	if (ret == HIL_ERR_INTERRUPTED && stopping(o)) {
		/* Not the job's fault: the next start resumes its run folder. */
		st.attempts--;
		snprintf(st.run_dir, sizeof(st.run_dir), "%s", out->report_dir);
		write_state(o, job, &st);
		hil_info("job %s: interrupted, left in running/ to resume",
			 job->name);
		free(cfg);
		return STEP_STOPPED;
	}
	if (out->exit_status == HIL_EXIT_CANNOT_START) {
		snprintf(out->error, sizeof(out->error), "%s",
			 hil_strerror(ret));
	} else if (out->exit_status == HIL_EXIT_TRANSIENT) {
		snprintf(
			out->error, sizeof(out->error),
			"the board could not be flashed, reached or kept (see the log and the report)");
	}
out:
	free(cfg);
	return STEP_FILED;
}

static enum step process(const struct hil_serve_opts *o, const char *name,
			 int claim)
{
	struct outcome *out;
	struct job job;
	enum step step;

	set_names(&job, name);
	if (claim) {
		char from[PATH_BYTES], to[PATH_BYTES];

		if (spool_path(from, o, "incoming", name, NULL) != HIL_OK ||
		    spool_path(to, o, "running", name, NULL) != HIL_OK) {
			return STEP_SKIPPED;
		}
		/* rename() is atomic: of two daemons, one gets ENOENT. */
		if (rename(from, to) != 0) {
			if (errno != ENOENT) {
				hil_err("job %s: cannot claim it (%s to %s): %s",
					name, from, to, strerror(errno));
			}
			return STEP_SKIPPED;
		}
	}
	if (lock_job(o, &job) != HIL_OK) {
		return STEP_SKIPPED; /* another daemon has it */
	}
	out = calloc(1, sizeof(*out));
	if (out == NULL) {
		hil_err("job %s: out of memory", name);
		close(job.fd);
		return STEP_SKIPPED;
	}
	step = run_job(o, &job, out);
	if (step == STEP_FILED) {
		file_job(o, &job, out);
	}
	/* Closing drops the job's flock, after it was filed (or left). */
	close(job.fd);
	free(out);
	return step;
}

/* ---- the loop ----------------------------------------------------------- */

/* Temporary files an interrupted atomic write left ("X.tmp.XXXXXX"). */
static void clean_tmp(const char *dir)
{
	char path[PATH_BYTES];
	struct dirent *e;
	DIR *d = opendir(dir);

	if (d == NULL) {
		return;
	}
	while ((e = readdir(d)) != NULL) {
		if (hil_is_tmp_name(e->d_name) &&
		    snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) <
			    (int)sizeof(path) &&
		    unlink(path) == 0) {
			hil_dbg("removed the leftover %s", path);
		}
	}
	closedir(d);
}

static int make_spool(const struct hil_serve_opts *o)
{
	static const char *const subs[] = {"incoming", "running", "done",
					   "failed"};
	char path[PATH_BYTES];
	size_t i;
	int ret;

	for (i = 0; i < sizeof(subs) / sizeof(subs[0]); i++) {
		ret = spool_path(path, o, subs[i], NULL, NULL);
		if (ret == HIL_OK) {
			ret = hil_mkdirs(path); /* logs its error */
		}
		if (ret != HIL_OK) {
			return ret;
		}
		/* Only the daemon writes running/, done/ and failed/, whatever
		 * the umask (with the lab's 002 they would be group-writable,
		 * and a planted state or result would be believed). */
		if (i > 0 && chmod(path, 0755) != 0) {
			hil_warn(
				"cannot make %s writable by the daemon only: %s",
				path, strerror(errno));
		}
		clean_tmp(path);
	}
	return HIL_OK;
}

/* Jobs a dead daemon left in running/; those a live one holds are skipped. */
static int resume_left(const struct hil_serve_opts *o)
{
	char **names;
	size_t n, i;
	int ret;

	ret = list_jobs(o, "running", &names, &n);
	if (ret != HIL_OK) {
		return ret;
	}
	for (i = 0; i < n && !stopping(o); i++) {
		hil_dbg("job %s: found in running/, resuming", names[i]);
		if (process(o, names[i], 0) == STEP_STOPPED) {
			break;
		}
	}
	free_names(names, n);
	return HIL_OK;
}

/*
 * Take the first job of incoming/ that can be claimed and run it.
 * @return 1 a job was handled, 0 none, or a negative hil_err.
 */
static int take_one(const struct hil_serve_opts *o, int *stopped)
{
	char **names;
	size_t n, i;
	int ret, took = 0;

	ret = list_jobs(o, "incoming", &names, &n);
	if (ret != HIL_OK) {
		return ret;
	}
	for (i = 0; i < n && !took && !stopping(o); i++) {
		enum step step = process(o, names[i], 1);

		took = step != STEP_SKIPPED;
		*stopped = step == STEP_STOPPED;
	}
	free_names(names, n);
	return took;
}

int hil_serve(const struct hil_serve_opts *o)
{
	struct hil_serve_counts local = {0, 0};
	struct hil_serve_opts opts;
	int ret, stopped = 0;

	if (o == NULL || o->spool == NULL || o->spool[0] == '\0' ||
	    o->run == NULL) {
		hil_err("a spool directory and a run function are needed");
		return HIL_ERR_ARG;
	}
	opts = *o;
	/* This call's own counts, added to the caller's at the end. */
	opts.counts = &local;
	if (opts.poll_ms == 0) {
		opts.poll_ms = DEFAULT_POLL;
	}
	ret = make_spool(&opts);
	if (ret != HIL_OK) {
		return ret;
	}
	hil_info("serving %s%s", opts.spool, opts.once ? " (once)" : "");
	ret = resume_left(&opts);
	while (ret == HIL_OK && !stopping(&opts)) {
		int took = take_one(&opts, &stopped);

		if (took < 0) {
			ret = took;
			break;
		}
		if (stopped) {
			break;
		}
		if (took == 0) {
			if (opts.once) {
				break;
			}
			nap(&opts, opts.poll_ms);
		}
	}
	if (o->counts != NULL) {
		o->counts->done += local.done;
		o->counts->failed += local.failed;
	}
	if (ret != HIL_OK) {
		return ret;
	}
	if (opts.once) {
		if (stopping(&opts)) {
			return HIL_ERR_INTERRUPTED;
		}
		return local.failed > 0 ? HIL_ERR_VERIFY : HIL_OK;
	}
	hil_info("stopped");
	return HIL_OK;
}
