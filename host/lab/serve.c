/* serve: the spool daemon: claim by rename, lock the job and its board, run, file the job and its result under done/ or failed/. */
#define _XOPEN_SOURCE  700 /* realpath */
#define HIL_LOG_PREFIX "serve"
#include "serve_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/beneath.h"
#include "hilp.h"
#include "util/err.h"
#include "lock.h"
#include "util/log.h"
#include "result/result.h"
#include "util/util.h"

#define SLICE_MS     100 /* stop flag checked this often */
#define DEFAULT_POLL 1000

/* STEP_REQUEUED: its board stayed busy, the job went back to incoming/.
 * STEP_UNFILED: it ran, but its result or its file could not be written
 * (a full spool): it is left in running/. */
enum step {
	STEP_FILED,
	STEP_SKIPPED,
	STEP_STOPPED,
	STEP_REQUEUED,
	STEP_UNFILED
};

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

/* ---- one job ------------------------------------------------------------ */

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

	if (hil_serve_spool_path(path, o, "running", job->name, NULL) !=
	    HIL_OK) {
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
	const char *ident; /* the job's identity, marked in its run folder */
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
	/* The folder says whose it is before the state names it. */
	hil_serve_mark_run(run_dir, sc->ident);
	hil_serve_write_state(sc->o, sc->job, sc->st);
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
	char why[MSG_BYTES - 64];
	char ident[HIL_CFG_NAME + 320];
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
	ret = hil_serve_read_job(job->fd, &text, &len, out->error,
				 sizeof(out->error));
	if (ret == HIL_OK) {
		ret = hil_serve_parse_job(o, text, len, cfg, out);
	}
	if (ret == HIL_OK) {
		/* What a run folder of this job records (and a state naming
		 * a folder must match): the job, its configuration and the
		 * digest of the job file's text. */
		snprintf(ident, sizeof(ident),
			 "job %s\nconfig %s\ndigest %08x\n", job->name,
			 cfg->name,
			 (unsigned)hilp_digest_update(
				 HILP_DIGEST_INIT, (const uint8_t *)text, len));
	}
	free(text);
	if (ret != HIL_OK) {
		goto out;
	}

	/* A job that took the daemon down with it must not do so forever. */
	hil_serve_read_state(o, job, &st);
	if (st.run_dir[0] != '\0' &&
	    !hil_serve_run_is_jobs(st.run_dir, ident)) {
		/* A planted state naming another run's folder would have this
		 * job resume into it and overwrite its report. */
		hil_warn(
			"job %s: its state names %s, which is not a run folder made for this job: not resumed, a new run starts",
			job->name, st.run_dir);
		st.run_dir[0] = '\0';
	}
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
		hil_config_free(cfg);
		free(cfg);
		return STEP_STOPPED;
	}
	if (ret == HIL_ERR_TIMEOUT) {
		/* A busy board (another daemon on this spool, a run by hand)
		 * is no failure of the job: it waits in incoming/ for its
		 * turn, and the others go on meanwhile. */
		hil_warn(
			"job %s: %s (waited %u s for it): back to incoming/ for later",
			job->name, msg != NULL ? msg : hil_strerror(ret),
			o->wait_s);
		free(msg);
		hil_config_free(cfg);
		free(cfg);
		return STEP_REQUEUED;
	}
	if (ret != HIL_OK) {
		snprintf(out->error, sizeof(out->error), "%s",
			 msg != NULL ? msg : hil_strerror(ret));
		free(msg);
		goto out;
	}

	st.attempts++;
	hil_serve_write_state(o, job, &st);
	hil_info("job %s: running %s on board %s%s%s", job->name, out->config,
		 out->board, st.run_dir[0] != '\0' ? ", resuming " : "",
		 st.run_dir);
	snprintf(out->report_dir, sizeof(out->report_dir), "%s", st.run_dir);
	sc.o = o;
	sc.job = job;
	sc.st = &st;
	sc.ident = ident;
	started.fn = run_started;
	started.arg = &sc;
	started.error = why;
	started.error_len = sizeof(why);
	why[0] = '\0';
	ret = (out->pq ? o->pq_run : o->run)(
		o->ctx, cfg, out->baseline[0] != '\0' ? out->baseline : NULL,
		out->report_dir, sizeof(out->report_dir), &started);
	out->report_dir[sizeof(out->report_dir) - 1] = '\0';
	hil_lock_release(&lock);
	out->exit_status = hil_serve_exit_status_of(ret);
	if (ret == HIL_ERR_INTERRUPTED && stopping(o)) {
		/* Not the job's fault: the next start resumes its run folder. */
		st.attempts--;
		snprintf(st.run_dir, sizeof(st.run_dir), "%s", out->report_dir);
		hil_serve_write_state(o, job, &st);
		hil_info("job %s: interrupted, left in running/ to resume",
			 job->name);
		hil_config_free(cfg);
		free(cfg);
		return STEP_STOPPED;
	}
	if (out->exit_status == HIL_EXIT_CANNOT_START && why[0] != '\0') {
		/* The reason, not only "invalid configuration". */
		snprintf(out->error, sizeof(out->error), "%s: %s",
			 hil_strerror(ret), why);
	} else if (out->exit_status == HIL_EXIT_CANNOT_START) {
		snprintf(out->error, sizeof(out->error), "%s",
			 hil_strerror(ret));
	} else if (out->exit_status == HIL_EXIT_TRANSIENT && why[0] != '\0') {
		snprintf(out->error, sizeof(out->error), "%s", why);
	} else if (out->exit_status == HIL_EXIT_TRANSIENT) {
		snprintf(
			out->error, sizeof(out->error),
			"the board could not be flashed, reached or kept (see the log and the report)");
	}
out:
	hil_config_free(cfg);
	free(cfg);
	return STEP_FILED;
}

/* Put a claimed job back into incoming/ (never over a newer job of that
 * name: then it stays in running/, for the next start). */
static void requeue(const struct hil_serve_opts *o, const struct job *job)
{
	char from[PATH_BYTES], to[PATH_BYTES];

	if (hil_serve_spool_path(from, o, "running", job->name, NULL) !=
		    HIL_OK ||
	    hil_serve_spool_path(to, o, "incoming", job->name, NULL) !=
		    HIL_OK) {
		return;
	}
	if (link(from, to) != 0) {
		hil_err("job %s: cannot put it back into incoming/: %s (left in running/ for the next start)",
			job->name, strerror(errno));
		return;
	}
	unlink(from);
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

		if (hil_serve_spool_path(from, o, "incoming", name, NULL) !=
			    HIL_OK ||
		    hil_serve_spool_path(to, o, "running", name, NULL) !=
			    HIL_OK) {
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
	if (step == STEP_FILED && hil_serve_file_job(o, &job, out) != HIL_OK) {
		step = STEP_UNFILED;
		if (o->counts != NULL) {
			o->counts->unfiled++;
		}
	}
	if (step == STEP_REQUEUED) {
		requeue(o, &job);
		if (o->counts != NULL) {
			o->counts->busy++;
		}
	}
	/* Closing drops the job's flock, after it was filed (or left). */
	close(job.fd);
	free(out);
	return step;
}

/* ---- the loop ----------------------------------------------------------- */

/* A temporary file younger than this may be another daemon's write in
 * progress (it takes milliseconds): left alone. */
#define TMP_STALE_S 60

/* Temporary files an interrupted atomic write left ("X.tmp.XXXXXX"). A
 * second daemon starting on the spool once removed the first one's state
 * file while it was being written. */
static void clean_tmp(const char *dir)
{
	char path[PATH_BYTES];
	struct dirent *e;
	struct stat st;
	DIR *d = opendir(dir);
	time_t now = time(NULL);

	if (d == NULL) {
		return;
	}
	while ((e = readdir(d)) != NULL) {
		if (hil_is_tmp_name(e->d_name) &&
		    snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) <
			    (int)sizeof(path) &&
		    lstat(path, &st) == 0 && now - st.st_mtime > TMP_STALE_S &&
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
		int fd;

		ret = hil_serve_spool_path(path, o, subs[i], NULL, NULL);
		if (ret == HIL_OK) {
			ret = hil_mkdirs(path); /* logs its error */
		}
		if (ret != HIL_OK) {
			return ret;
		}
		/* A folder of the spool's own, never a link to one elsewhere
		 * (done -> a private folder would be made 0755 and written):
		 * opened without following a link, its mode set through that
		 * descriptor. */
		fd = open(path,
			  O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0) {
			struct stat st;

			hil_err("the spool's %s is %s: refused (it must be a folder of the spool's own, not a link)",
				path,
				lstat(path, &st) == 0
					? hil_file_type_name(st.st_mode)
					: strerror(errno));
			return HIL_ERR_IO;
		}
		/* Only the daemon writes running/, done/ and failed/, whatever
		 * the umask (with the lab's 002 they would be group-writable,
		 * and a planted state or result would be believed). */
		if (i > 0 && fchmod(fd, 0755) != 0) {
			hil_warn(
				"cannot make %s writable by the daemon only: %s",
				path, strerror(errno));
		}
		close(fd);
		clean_tmp(path);
	}
	return HIL_OK;
}

/* The real path of path, or, when it does not exist yet, its parent's
 * real path and its last component. */
static int real_or_parent(const char *path, char *out)
{
	char parent[PATH_BYTES];
	const char *base;
	char *slash;

	if (realpath(path, out) != NULL) {
		return 1;
	}
	snprintf(parent, sizeof(parent), "%s", path);
	slash = strrchr(parent, '/');
	if (slash == NULL) {
		snprintf(parent, sizeof(parent), ".");
		base = path;
	} else {
		*slash = '\0';
		base = slash + 1;
		if (parent[0] == '\0') {
			snprintf(parent, sizeof(parent), "/");
		}
	}
	if (realpath(parent, out) == NULL ||
	    strlen(out) + strlen(base) + 2 > PATH_MAX) {
		return 0;
	}
	strcat(out, "/");
	strcat(out, base);
	return 1;
}

/* Is a inside b (or b itself)? Both real paths. */
static int within(const char *a, const char *b)
{
	size_t n = strlen(b);

	return strncmp(a, b, n) == 0 &&
	       (a[n] == '/' || a[n] == '\0' || (n == 1 && b[0] == '/'));
}

/*
 * The spool must not lie inside a root, nor a root inside the spool: a job
 * may name any folder in the roots, and whoever can write a job into
 * incoming/ could then plant an implementation folder, a header or a
 * configuration there and name it (issue #33, finding 1).
 */
static int spool_outside_roots(const struct hil_serve_opts *o)
{
	struct hil_config_roots roots;
	char cwd[PATH_MAX], spool[PATH_MAX], root[PATH_MAX];
	size_t i;

	hil_serve_job_roots(o, &roots, cwd, sizeof(cwd));
	if (!real_or_parent(o->spool, spool)) {
		hil_err("--spool %s: %s", o->spool, strerror(errno));
		return HIL_ERR_ARG;
	}
	for (i = 0; i < roots.n; i++) {
		if (realpath(roots.dir[i], root) == NULL) {
			continue;
		}
		if (within(spool, root) || within(root, spool)) {
			hil_err("the spool %s (%s) %s the root %s (%s)%s: a job could name what another job planted in incoming/; put the spool outside every root (e.g. /var/spool/hilrun) or name the roots with --root",
				o->spool, spool,
				within(spool, root) ? "is inside"
						    : "holds (inside it)",
				roots.dir[i], root,
				o->roots == NULL || o->roots->n == 0
					? ", the default root (the working directory)"
					: "");
			return HIL_ERR_ARG;
		}
	}
	return HIL_OK;
}

/* Jobs a dead daemon left in running/; those a live one holds are skipped. */
static int resume_left(const struct hil_serve_opts *o)
{
	char **names;
	size_t n, i;
	int ret;

	ret = hil_serve_list_jobs(o, "running", &names, &n);
	if (ret != HIL_OK) {
		return ret;
	}
	for (i = 0; i < n && !stopping(o); i++) {
		hil_dbg("job %s: found in running/, resuming", names[i]);
		if (process(o, names[i], 0) == STEP_STOPPED) {
			break;
		}
	}
	hil_serve_free_names(names, n);
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

	ret = hil_serve_list_jobs(o, "incoming", &names, &n);
	if (ret != HIL_OK) {
		return ret;
	}
	for (i = 0; i < n && !took && !stopping(o); i++) {
		enum step step = process(o, names[i], 1);

		/* A job sent back for a busy board was not taken: the next
		 * one may be for another board. */
		took = step != STEP_SKIPPED && step != STEP_REQUEUED;
		*stopped = step == STEP_STOPPED;
	}
	hil_serve_free_names(names, n);
	return took;
}

int hil_serve(const struct hil_serve_opts *o)
{
	struct hil_serve_counts local = {0, 0, 0, 0};
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
	ret = spool_outside_roots(&opts);
	if (ret == HIL_OK) {
		ret = make_spool(&opts);
	}
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
		o->counts->busy += local.busy;
		o->counts->unfiled += local.unfiled;
	}
	if (ret != HIL_OK) {
		return ret;
	}
	if (local.unfiled > 0) {
		/* A job that ran but could not be filed is no success. */
		hil_err("%u job%s could not be filed (a full or broken spool): left in running/",
			local.unfiled, local.unfiled == 1 ? "" : "s");
		if (opts.once) {
			return HIL_ERR_IO;
		}
	}
	if (opts.once) {
		if (stopping(&opts)) {
			return HIL_ERR_INTERRUPTED;
		}
		if (local.failed > 0) {
			return HIL_ERR_VERIFY;
		}
		/* Jobs left in incoming/ for a busy board: try again later. */
		return local.busy > 0 ? HIL_ERR_TIMEOUT : HIL_OK;
	}
	hil_info("stopped");
	return HIL_OK;
}
