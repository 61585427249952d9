/* serve_int: what the pieces of the lab daemon (serve.c, servespool.c, servejob.c, servefiling.c) share; not a public API. */
#ifndef HIL_SERVE_INT_H
#define HIL_SERVE_INT_H

#include <stddef.h>

#include "config/config.h"
#include "lock.h"
#include "serve.h"

#define PATH_BYTES 4096
#define MSG_BYTES  2048

/* What happened to one job, for its result file. */
struct outcome {
	int exit_status;
	char error[MSG_BYTES]; /* "" when none */
	char report_dir[PATH_BYTES];
	char config[HIL_CFG_STR]; /* path, or "inline" */
	char baseline[PATH_BYTES];
	char board[HIL_LOCK_ID_MAX];
	char started[32];
	int pq; /* a job of kind "pq" (hilrun pq) */
};

/* A job claimed by this daemon: its file open and flock'ed. */
struct job {
	char name[256]; /* "nightly.json" */
	char base[256]; /* "nightly" */
	int fd;
};

/* A job's state across daemon restarts: running/NAME.state. */
struct state {
	unsigned attempts; /* runs started, including the current one */
	char run_dir[PATH_BYTES];
};

/* ---- the spool directory (servespool.c) -------------------------------- */

/* buf (PATH_BYTES) = spool/sub[/name][suffix]; HIL_ERR_ARG when too long. */
int hil_serve_spool_path(char *buf, const struct hil_serve_opts *o,
			 const char *sub, const char *name, const char *suffix);

/* The job files of spool/sub, sorted by name; free with
 * hil_serve_free_names(). A file of incoming/ meant as a job but with a name
 * that is not accepted is filed under failed/ on the way. */
int hil_serve_list_jobs(const struct hil_serve_opts *o, const char *sub,
			char ***out, size_t *n_out);
void hil_serve_free_names(char **names, size_t n);

/* A job's state file in running/: read (zeroed when absent or not ours),
 * written atomically, removed once the job is filed. */
void hil_serve_read_state(const struct hil_serve_opts *o, const struct job *job,
			  struct state *st);
void hil_serve_write_state(const struct hil_serve_opts *o,
			   const struct job *job, const struct state *st);
/* The file in a run folder naming the job the daemon made it for. */
#define HIL_SERVE_RUN_MARK ".hilrun-job"

/* Record in run_dir (just made for a job) the job's identity ident. */
void hil_serve_mark_run(const char *run_dir, const char *ident);

/* Whether run_dir was made by this daemon's user for the job of identity
 * ident: its mark file says so, and it and the folder are ours and not
 * writable by others. A state naming any other folder is not believed. */
int hil_serve_run_is_jobs(const char *run_dir, const char *ident);

void hil_serve_drop_state(const struct hil_serve_opts *o,
			  const struct job *job);

/* ---- the job file (servejob.c) ----------------------------------------- */

/* The roots a job's files must lie in; cwd (len bytes) may be used. */
void hil_serve_job_roots(const struct hil_serve_opts *o,
			 struct hil_config_roots *roots, char *cwd, size_t len);
int hil_serve_read_job(int fd, char **out, size_t *len, char *err,
		       size_t errlen);
int hil_serve_parse_job(const struct hil_serve_opts *o, const char *text,
			size_t len, struct hil_config *cfg,
			struct outcome *out);

/* ---- the result file and filing (servefiling.c) ------------------------ */

/* The exit status (result/result.h) of a run callback's return. */
int hil_serve_exit_status_of(int ret);
/* @return HIL_OK, or HIL_ERR_IO when the job is left in running/ (logged). */
int hil_serve_file_job(const struct hil_serve_opts *o, const struct job *job,
		       const struct outcome *out);

#endif /* HIL_SERVE_INT_H */
