/* servejob: a lab job file: read through its locked descriptor, validated, its configuration loaded inside the lab's roots. */
#define _POSIX_C_SOURCE 200809L
#define _XOPEN_SOURCE	700 /* realpath */
#define HIL_LOG_PREFIX	"serve"
#include "serve_int.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "util/err.h"
#include "jobpolicy.h"
#include "config/algnames.h"
#include "config/jsonld.h"
#include "config/paths.h"
#include "report/render.h"
#include "util/util.h"

#define MAX_JOB_BYTES (1024 * 1024) /* a job file is a few hundred bytes */

/* ---- the job file ------------------------------------------------------ */

/* The roots a job's files must lie in: the caller's, else the working
 * directory. */
void hil_serve_job_roots(const struct hil_serve_opts *o,
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

/* Read the locked job file through its descriptor (rename keeps it). */
int hil_serve_read_job(int fd, char **out, size_t *len, char *err,
		       size_t errlen)
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

/* A pq job's number key in [lo, hi] (dflt when absent) into v; 0 with
 * out->error set when it is not one. */
static int pq_number(const cJSON *root, const char *key, double lo, double hi,
		     unsigned long dflt, unsigned long *v, struct outcome *out)
{
	const cJSON *it = hil_jsonld_member(root, key);

	*v = dflt;
	if (it == NULL) {
		return 1;
	}
	if (!cJSON_IsNumber(it) || it->valuedouble < lo ||
	    it->valuedouble > hi ||
	    it->valuedouble != (double)(unsigned long)it->valuedouble) {
		snprintf(out->error, sizeof(out->error),
			 "job file: %s: expected a whole number from %.0f to "
			 "%.0f (hilrun pq --%s)",
			 key, lo, hi, key);
		return 0;
	}
	*v = (unsigned long)it->valuedouble;
	return 1;
}

/*
 * A job of kind "pq": its configuration (a hilrun pq configuration file
 * inside the roots, every folder it names too) read by o->pq_load into
 * cfg (its board), checked as every job's is, with the job's runs and
 * seed. @return HIL_OK, or an error with out->error set.
 */
static int parse_pq_job(const struct hil_serve_opts *o, const cJSON *root,
			const struct hil_config_roots *roots,
			struct hil_config *cfg, struct outcome *out)
{
	const cJSON *config = hil_jsonld_member(root, "config");
	char err[MSG_BYTES - 64], real[PATH_BYTES];
	unsigned long runs, seed;
	int ret;

	if (hil_jsonld_member(root, "baseline") != NULL) {
		snprintf(out->error, sizeof(out->error),
			 "job file: baseline: a pq job takes none (compare "
			 "its report with hilrun compare)");
		return HIL_ERR_CONFIG;
	}
	if (!cJSON_IsString(config) || config->valuestring[0] == '\0' ||
	    strlen(config->valuestring) >= sizeof(out->config)) {
		snprintf(out->error, sizeof(out->error),
			 "job file: config: a pq job's is the path of a "
			 "hilrun pq configuration file (a non-empty string)");
		return HIL_ERR_CONFIG;
	}
	if (!pq_number(root, "runs", 1, 1000, 3, &runs, out) ||
	    !pq_number(root, "seed", 0, 4294967295.0, 1, &seed, out)) {
		return HIL_ERR_CONFIG;
	}
	if (o->pq_load == NULL || o->pq_run == NULL) {
		snprintf(out->error, sizeof(out->error),
			 "job file: kind: this daemon takes no pq jobs");
		return HIL_ERR_CONFIG;
	}
	snprintf(out->config, sizeof(out->config), "%s", config->valuestring);
	ret = o->pq_load(o->ctx, config->valuestring, roots, cfg, err,
			 sizeof(err));
	if (ret != HIL_OK) {
		snprintf(out->error, sizeof(out->error), "%s", err);
		return ret == HIL_ERR_NOMEM ? ret : HIL_ERR_CONFIG;
	}
	/* A job chooses values of the schema, not programs or files of its
	 * own (docs/lab.md, "Trust"); its results go where a run's go. */
	ret = hil_job_check(cfg, err, sizeof(err));
	if (ret == HIL_OK) {
		ret = hil_path_check_config(cfg, err, sizeof(err));
	}
	if (ret != HIL_OK) {
		snprintf(out->error, sizeof(out->error), "%s: %s",
			 config->valuestring, err);
		return HIL_ERR_CONFIG;
	}
	if (realpath(config->valuestring, real) == NULL ||
	    strlen(real) >= sizeof(cfg->path)) {
		snprintf(out->error, sizeof(out->error),
			 "job file: config: %s cannot be resolved",
			 config->valuestring);
		return HIL_ERR_CONFIG;
	}
	snprintf(cfg->path, sizeof(cfg->path), "%s", real);
	snprintf(cfg->name, sizeof(cfg->name), "pq");
	cfg->bench.runs = (uint32_t)runs;
	cfg->bench.seed = (uint32_t)seed;
	out->pq = 1;
	return HIL_OK;
}

/*
 * Validate the job file and load its configuration into cfg.
 * @return HIL_OK, or an error with out->error set to a message that says
 *         what is wrong and where.
 */
int hil_serve_parse_job(const struct hil_serve_opts *o, const char *text,
			size_t len, struct hil_config *cfg, struct outcome *out)
{
	struct hil_config_roots roots;
	char cwd[PATH_BYTES];
	char cerr[MSG_BYTES - 32];
	static const char *const keys[] = {"config", "baseline", "kind",
					   "runs",   "seed",	 NULL};
	const cJSON *config = NULL, *baseline = NULL, *kind = NULL;
	struct hil_jsonld ld;
	char *inline_text = NULL;
	cJSON *root = NULL;
	int ret = HIL_ERR_CONFIG;

	hil_serve_job_roots(o, &roots, cwd, sizeof(cwd));
	/* The one JSON loader: no NUL byte, no key twice, errors with the
	 * line and column, unknown keys with a near miss. */
	hil_jsonld_init(&ld, out->error, sizeof(out->error));
	ld.kind = "a job file";
	ret = hil_jsonld_load_text(&ld, "job file", text, len, &root);
	if (ret == HIL_OK) {
		ret = hil_jsonld_check_keys(&ld, root, "", keys);
	}
	hil_jsonld_done(&ld);
	if (ret != HIL_OK) {
		size_t n = strlen(out->error);

		snprintf(
			out->error + n, sizeof(out->error) - n,
			"; a job is {\"config\": \"PATH\"} or {\"config\": {...}}, optionally with \"baseline\": \"PATH\"; or {\"kind\": \"pq\", \"config\": \"PATH\"}, optionally with \"runs\" and \"seed\"");
		ret = ret == HIL_ERR_NOMEM ? ret : HIL_ERR_CONFIG;
		goto out;
	}
	ret = HIL_ERR_CONFIG;
	kind = hil_jsonld_member(root, "kind");
	if (kind != NULL &&
	    (!cJSON_IsString(kind) || (strcmp(kind->valuestring, "run") != 0 &&
				       strcmp(kind->valuestring, "pq") != 0))) {
		snprintf(out->error, sizeof(out->error),
			 "job file: kind: expected \"run\" (the default: "
			 "hilrun run) or \"pq\" (hilrun pq)");
		goto out;
	}
	if (kind != NULL && strcmp(kind->valuestring, "pq") == 0) {
		ret = parse_pq_job(o, root, &roots, cfg, out);
		goto out;
	}
	if (hil_jsonld_member(root, "runs") != NULL ||
	    hil_jsonld_member(root, "seed") != NULL) {
		snprintf(out->error, sizeof(out->error),
			 "job file: runs, seed: a pq job's (\"kind\": \"pq\"); "
			 "a run job's are its configuration's bench.runs and "
			 "bench.seed");
		goto out;
	}
	config = hil_jsonld_member(root, "config");
	baseline = hil_jsonld_member(root, "baseline");
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
		ret = hil_job_check(cfg, cerr, sizeof(cerr));
		if (ret != HIL_OK) {
			snprintf(out->error, sizeof(out->error), "%s%s%s",
				 cJSON_IsString(config) ? out->config : "",
				 cJSON_IsString(config) ? ": " : "", cerr);
		}
	}
	if (ret == HIL_OK) {
		/* A misspelt name is found here, and said in the job's
		 * result, not only in the daemon's log after the job ran. */
		int is_inline = cfg->path[0] == '\0';

		/* An inline config has no file: named so in the message, not
		 * taken for a quick run's --alg. */
		if (is_inline) {
			snprintf(cfg->path, sizeof(cfg->path), "inline config");
		}
		ret = hil_algnames_why(cfg, cerr, sizeof(cerr));
		if (is_inline) {
			cfg->path[0] = '\0';
		}
		if (ret != HIL_OK) {
			snprintf(out->error, sizeof(out->error), "%s", cerr);
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
	if (ret == HIL_OK && out->baseline[0] != '\0') {
		/* A baseline that is not a report would fail the gate only
		 * after the whole run: found before anything runs. */
		char why[MSG_BYTES - 64];
		cJSON *rep = NULL;

		if (hil_report_load(out->baseline, &rep, why, sizeof(why)) !=
		    HIL_OK) {
			snprintf(out->error, sizeof(out->error),
				 "job file: baseline: %s", why);
			ret = HIL_ERR_CONFIG;
		}
		cJSON_Delete(rep);
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
