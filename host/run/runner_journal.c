/* runner_journal: the run folder (created, run.json for --resume, results/latest) and its journal (rows written, rows taken back on resume). */
#define _XOPEN_SOURCE  700 /* realpath */
#define HIL_LOG_PREFIX "runner"
#include "runner_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "util/beneath.h"
#include "util/err.h"
#include "journal.h"
#include "util/log.h"
#include "result/rowjson.h"
#include "util/util.h"

/*
 * The results folder, made if need be. A relative one (a configuration's
 * results_dir, which anyone who can drop a job may write) is made beneath
 * the working directory without following a link, so that a link planted
 * on the way (in a spool's incoming/, say) cannot send the run folder
 * elsewhere; an absolute one can only come from the command line (--results),
 * the user's own choice. @return a descriptor of it, or a negative code.
 */
static int open_results_dir(const char *dir)
{
	char why[512];
	int fd;

	if (dir[0] == '/') {
		if (hil_mkdirs(dir) != HIL_OK) {
			return HIL_ERR_IO;
		}
		fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0) {
			hil_err("cannot open %s: %s", dir, strerror(errno));
			return HIL_ERR_IO;
		}
		return fd;
	}
	fd = hil_mkdirs_beneath(AT_FDCWD, dir, why, sizeof(why));
	if (fd < 0) {
		hil_err("results folder %s: %s (a relative results folder is made inside the working directory without following a link; to write through a link, give --results its absolute path)",
			dir, why);
	}
	return fd;
}

/* A string member of o, or NULL. */
static const char *json_str(const cJSON *o, const char *key)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsString(it) ? it->valuestring : NULL;
}

/* The JSON object in dir/name, or NULL (absent, unreadable, not JSON). */
static cJSON *read_json(const char *dir, const char *name)
{
	char file[HIL_PATH + 32];
	char *text = NULL;
	cJSON *o;

	snprintf(file, sizeof(file), "%s/%s", dir, name);
	/* A run killed before its report has none: not an error. */
	if (access(file, F_OK) != 0 ||
	    hil_read_file(file, &text, NULL) != HIL_OK) {
		return NULL;
	}
	o = cJSON_Parse(text);
	free(text);
	return o;
}

/* "2026-12-02T09:32:15Z" and nothing else: what hil_utc_iso writes. */
static int iso_stamp_ok(const char *s)
{
	static const char pat[] = "dddd-dd-ddTdd:dd:ddZ";
	size_t i;

	if (s == NULL || strlen(s) != sizeof(pat) - 1) {
		return 0;
	}
	for (i = 0; pat[i] != '\0'; i++) {
		if (pat[i] == 'd' ? (s[i] < '0' || s[i] > '9')
				  : s[i] != pat[i]) {
			return 0;
		}
	}
	return 1;
}

void hil_rn_resume_origin(struct hil_run *run)
{
	cJSON *rj = read_json(run->dir, "run.json");
	cJSON *rep = read_json(run->dir, "report.json");
	const cJSON *rrun = cJSON_GetObjectItemCaseSensitive(rep, "run");
	const cJSON *total = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(rep, "timing"), "total_s");
	const char *started = json_str(rj, "started");
	const char *given = json_str(rj, "config_given");

	/* A run folder of an older hilrun has no "started" in run.json: its
	 * report (if the run ended gracefully) has it. */
	if (!iso_stamp_ok(started)) {
		started = json_str(rrun, "started");
	}
	if (iso_stamp_ok(started)) {
		snprintf(run->started, sizeof(run->started), "%s", started);
	}
	if (given == NULL) {
		given = json_str(rrun, "config");
	}
	if (given != NULL && given[0] != '\0') {
		snprintf(run->config_given, sizeof(run->config_given), "%s",
			 given);
	}
	/* The earlier attempts' working time; a killed one left no report,
	 * and its time is not known. */
	if (cJSON_IsNumber(total) && total->valuedouble > 0 &&
	    total->valuedouble < 1e7) {
		run->timing.earlier_ns = (uint64_t)(total->valuedouble * 1e9);
	}
	cJSON_Delete(rj);
	cJSON_Delete(rep);
}

int hil_runner_make_run_dir(const struct hil_config *cfg,
			    const struct hil_runner_opts *opts,
			    struct hil_run *run)
{
	char stamp[32];
	size_t i;
	int dfd;

	run->cfg = cfg;
	hil_utc_iso(run->started, sizeof(run->started));
	snprintf(stamp, sizeof(stamp), "%s", run->started);
	/* 2026-12-02T09:32:15Z -> 20261202-093215 */
	for (i = 0; stamp[i] != '\0'; i++) {
		if (stamp[i] == 'T') {
			stamp[i] = '-';
		}
	}
	{
		char compact[32];
		size_t o = 0;

		for (i = 0; stamp[i] != '\0' && o + 1 < sizeof(compact); i++) {
			if (stamp[i] != ':' && stamp[i] != 'Z' &&
			    !(stamp[i] == '-' && i < 10)) {
				compact[o++] = stamp[i];
			}
		}
		compact[o] = '\0';
		snprintf(stamp, sizeof(stamp), "%s", compact);
	}
	if (opts->resume_dir != NULL) {
		const char *base = strrchr(opts->resume_dir, '/');

		snprintf(run->dir, sizeof(run->dir), "%s", opts->resume_dir);
		snprintf(run->id, sizeof(run->id), "%s",
			 base != NULL ? base + 1 : opts->resume_dir);
		hil_rn_resume_origin(run);
		hil_info("run %s: resuming in %s (started %s)", run->id,
			 run->dir, run->started);
		return HIL_OK;
	}
	dfd = open_results_dir(opts->results_dir);
	if (dfd < 0) {
		return dfd;
	}
	/* The folder is created exclusively: two runs in the same second (a
	 * sweep, the daemon) get their own, never each other's journal. */
	for (i = 1; i < 1000; i++) {
		if (i == 1) {
			snprintf(run->id, sizeof(run->id), "%s-%s", stamp,
				 run->cfg->name);
		} else {
			snprintf(run->id, sizeof(run->id), "%s-%s-%zu", stamp,
				 run->cfg->name, i);
		}
		snprintf(run->dir, sizeof(run->dir), "%s/%s", opts->results_dir,
			 run->id);
		if (mkdirat(dfd, run->id, 0777) == 0) {
			close(dfd);
			hil_info("run %s: results in %s", run->id, run->dir);
			return HIL_OK;
		}
		if (errno != EEXIST) {
			hil_err("cannot create %s: %s", run->dir,
				strerror(errno));
			close(dfd);
			return HIL_ERR_IO;
		}
	}
	close(dfd);
	hil_err("cannot find a free run folder for %s in %s", stamp,
		opts->results_dir);
	return HIL_ERR_IO;
}

/* results/latest -> <run-id>, replaced atomically; only a link is
 * replaced (a file or folder named latest is left alone), in the results
 * folder reached as the run folder was. */
void hil_rn_point_latest(const struct hil_runner_opts *opts,
			 const struct hil_run *run)
{
	char tmp[HIL_PATH + 32];
	struct stat st;
	char why[256];
	int dfd;

	dfd = opts->results_dir[0] == '/'
		      ? open(opts->results_dir,
			     O_RDONLY | O_DIRECTORY | O_CLOEXEC)
		      : hil_mkdirs_beneath(AT_FDCWD, opts->results_dir, why,
					   sizeof(why));
	if (dfd < 0) {
		hil_warn("could not point %s/latest at %s", opts->results_dir,
			 run->id);
		return;
	}
	if (fstatat(dfd, "latest", &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    !S_ISLNK(st.st_mode)) {
		hil_warn("%s/latest is %s, not a link of hilrun's: left alone",
			 opts->results_dir, hil_file_type_name(st.st_mode));
		close(dfd);
		return;
	}
	/* Named after the run too: the runs of a parallel sweep are threads
	 * of one process. */
	snprintf(tmp, sizeof(tmp), ".latest.%ld.%s", (long)getpid(), run->id);
	unlinkat(dfd, tmp, 0);
	if (symlinkat(run->id, dfd, tmp) != 0 ||
	    renameat(dfd, tmp, dfd, "latest") != 0) {
		hil_warn("could not point %s/latest at %s: %s",
			 opts->results_dir, run->id, strerror(errno));
		unlinkat(dfd, tmp, 0);
	}
	close(dfd);
}

/* run.json: what --resume needs to start this run again. */
int hil_rn_write_run_file(const struct hil_run *run)
{
	char path[HIL_PATH + 16];
	char abs[HIL_PATH];
	cJSON *o = cJSON_CreateObject();
	char *text = NULL;

	if (realpath(run->cfg->path, abs) == NULL) {
		snprintf(abs, sizeof(abs), "%s", run->cfg->path);
	}
	/* config: where --resume finds it from any directory; config_given
	 * and started: what the report keeps saying after a resume. */
	if (o != NULL && cJSON_AddStringToObject(o, "config", abs) != NULL &&
	    cJSON_AddStringToObject(o, "config_given", run->cfg->path) !=
		    NULL &&
	    cJSON_AddStringToObject(o, "started", run->started) != NULL &&
	    cJSON_AddStringToObject(o, "id", run->id) != NULL) {
		text = cJSON_Print(o);
	}
	cJSON_Delete(o);
	snprintf(path, sizeof(path), "%s/run.json", run->dir);
	if (text == NULL) {
		hil_err("no memory for %s", path);
		return HIL_ERR_NOMEM;
	}
	errno = 0;
	if (hil_write_atomic(path, text, strlen(text)) != HIL_OK) {
		hil_journal_fs_error("run.json", path, errno != 0 ? errno : EIO,
				     0);
		free(text);
		return HIL_ERR_IO;
	}
	free(text);
	return HIL_OK;
}

int hil_runner_resume_config(const char *run_dir, char *path, size_t len)
{
	char file[HIL_PATH + 16];
	char *text = NULL;
	cJSON *o;
	const cJSON *c;
	int ret;

	snprintf(file, sizeof(file), "%s/run.json", run_dir);
	if (access(file, F_OK) != 0) {
		char j[HIL_PATH + 32];

		snprintf(j, sizeof(j), "%s/journal.jsonl", run_dir);
		snprintf(file, sizeof(file), "%s/pq-run.json", run_dir);
		if (access(file, F_OK) == 0) {
			hil_err("%s is the folder of a hilrun pq run: resume it with hilrun pq --resume %s",
				run_dir, run_dir);
		} else if (access(j, F_OK) == 0) {
			/* A run folder without run.json: a quick run's. */
			hil_err("%s cannot be resumed: its run took its options from the command line (--alg, --lengths, ...), not from a configuration file, so there is nothing to start it again from; run the same command again (or put the options in a configuration file for a run you may need to resume)",
				run_dir);
		} else {
			hil_err("%s is not a run folder that can be resumed (no run.json and no journal.jsonl: name a folder hilrun made for one run, e.g. results/<run id>)",
				run_dir);
		}
		return HIL_ERR_ARG;
	}
	ret = hil_read_file(file, &text, NULL);
	if (ret != HIL_OK) {
		hil_err("%s is not a run folder that can be resumed", run_dir);
		return ret;
	}
	o = cJSON_Parse(text);
	free(text);
	c = cJSON_GetObjectItemCaseSensitive(o, "config");
	if (!cJSON_IsString(c)) {
		hil_err("%s: no \"config\" path", file);
		cJSON_Delete(o);
		return HIL_ERR_CONFIG;
	}
	snprintf(path, len, "%s", c->valuestring);
	cJSON_Delete(o);
	return HIL_OK;
}

/*
 * The row into the journal, synced, before anyone is told it was measured.
 * When that fails the row is not kept as measured, and j->ret
 * stops the run (hil_journal_append named the file system).
 */
int hil_rn_journal_row(struct rn_journal *j, const struct hil_run *run,
		       struct hil_row *row)
{
	char *line;
	size_t len;
	int ret;

	if (j->ret != HIL_OK) {
		return j->ret;
	}
	line = hil_result_row_line(run, row);
	if (line == NULL) {
		ret = HIL_ERR_NOMEM;
		goto fail;
	}
	len = strlen(line);
	line[len] = '\n'; /* replaces the NUL; written with its length */
	ret = hil_journal_append(j->fd, j->path, line, len + 1);
	free(line);
	if (ret == HIL_OK) {
		return HIL_OK;
	}
fail:
	j->ret = HIL_ERR_IO;
	if (row->ok) {
		row->ok = 0;
		snprintf(row->error, sizeof(row->error),
			 "measured, but the journal could not record it");
	}
	return j->ret;
}

/* A row that records why an implementation was not measured at all. */
struct hil_row *hil_rn_add_failed_row(struct rn_journal *j, struct hil_run *run,
				      const struct registry_alg *ref,
				      const char *why)
{
	struct hil_row *row = hil_run_add_row(run);

	if (row == NULL) {
		return NULL;
	}
	snprintf(row->algorithm, sizeof(row->algorithm), "%s", ref->name);
	snprintf(row->implementation, sizeof(row->implementation), "%s",
		 ref->impl);
	row->operation = "verify";
	row->mode = ref->mode;
	row->constant_time = ref->constant_time;
	snprintf(row->error, sizeof(row->error), "%s", why);
	hil_rn_journal_row(j, run, row);
	return row;
}

/*
 * A row the journal already has for this image and these settings: moved
 * into the run (samples included) instead of measuring it again.
 */
int hil_rn_take_resumed(struct rn_journal *j, struct hil_run *run,
			const struct registry_alg *ref, uint8_t op,
			uint32_t len, uint32_t ad_len)
{
	const struct hil_config *cfg = run->cfg;
	size_t i;

	for (i = 0; i < j->n_resumed; i++) {
		struct hil_row *r = &j->resumed[i];
		struct hil_row *row;

		if (r->samples == NULL || r->msg_len != len ||
		    r->ad_len != ad_len || r->runs != cfg->bench.runs ||
		    r->warmup != cfg->bench.warmup ||
		    r->seed != cfg->bench.seed ||
		    strcmp(r->algorithm, ref->name) != 0 ||
		    strcmp(r->implementation, ref->impl) != 0 ||
		    strcmp(r->operation, hil_rn_op_name(op)) != 0) {
			continue;
		}
		row = hil_run_add_row(run);
		if (row == NULL) {
			return -1;
		}
		*row = *r;
		r->samples = NULL; /* the run owns them now */
		r->model.samples = NULL;
		j->used_resumed++;
		return 1;
	}
	return 0;
}
