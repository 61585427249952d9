/* journal: the rows of a run read back from its journal.jsonl, for --resume. */
#define _XOPEN_SOURCE  700
#define HIL_LOG_PREFIX "journal"
#include "journal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "util/err.h"
#include "util/log.h"
#include "image/refcrypto/refcrypto.h"
#include "util/util.h"

/*
 * The mount point of the file system holding path: the last directory, going
 * up from path's own, that is on the same device. Into out; "" if unknown.
 */
static void mount_point(const char *path, char *out, size_t len)
{
	char dir[4096];
	struct stat st, up;
	char *slash;

	out[0] = '\0';
	if (realpath(path, dir) == NULL) {
		/* The file may not exist (a failed create): its folder. */
		char parent[4096];

		snprintf(parent, sizeof(parent), "%s", path);
		slash = strrchr(parent, '/');
		if (slash == NULL) {
			snprintf(parent, sizeof(parent), ".");
		} else if (slash == parent) {
			parent[1] = '\0';
		} else {
			*slash = '\0';
		}
		if (realpath(parent, dir) == NULL) {
			return;
		}
	}
	if (stat(dir, &st) != 0) {
		return;
	}
	for (;;) {
		slash = strrchr(dir, '/');
		if (slash == NULL || strcmp(dir, "/") == 0) {
			break;
		}
		if (slash == dir) {
			if (stat("/", &up) != 0 || up.st_dev != st.st_dev) {
				break;
			}
			dir[1] = '\0';
			break;
		}
		*slash = '\0';
		if (stat(dir, &up) != 0 || up.st_dev != st.st_dev) {
			*slash = '/';
			break;
		}
	}
	snprintf(out, len, "%s", dir);
}

void hil_journal_fs_error(const char *what, const char *path, int err,
			  int resumable)
{
	char mnt[4096];
	struct statvfs vfs;
	char space[96] = "";
	int full = err == ENOSPC || err == EDQUOT;

	mount_point(path, mnt, sizeof(mnt));
	if (mnt[0] != '\0' && statvfs(mnt, &vfs) == 0) {
		snprintf(space, sizeof(space), " (%llu KiB free of %llu KiB)",
			 (unsigned long long)vfs.f_bavail * vfs.f_frsize /
				 1024u,
			 (unsigned long long)vfs.f_blocks * vfs.f_frsize /
				 1024u);
		/* The caller's errno may have been overwritten on the way
		 * (a temporary file removed): no space left says it too. */
		full = full || vfs.f_bavail == 0;
	}
	hil_err("%s %s cannot be written: the file system mounted at %s%s %s: measuring stops; %s",
		what, path, mnt[0] ? mnt : "(unknown)", space,
		full ? "is full" : strerror(err),
		resumable
			? "every row measured is in the journal; free space, then run hilrun --resume on the run folder"
			: "nothing was measured; free space, then run again");
}

int hil_journal_append(int fd, const char *path, const char *line, size_t len)
{
	off_t end = lseek(fd, 0, SEEK_END);
	size_t done = 0;
	int err = 0;

	while (done < len) {
		ssize_t n = write(fd, line + done, len - done);

		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n <= 0) {
			err = n < 0 ? errno : ENOSPC;
			break;
		}
		done += (size_t)n;
	}
	if (err == 0 && fsync(fd) != 0) {
		err = errno;
	}
	if (err == 0) {
		return HIL_OK;
	}
	/* No partial line: cut back what this call wrote (which also gives
	 * the space back). */
	if (end >= 0 && ftruncate(fd, end) != 0) {
		hil_warn("%s: cannot cut back a partial line: %s", path,
			 strerror(errno));
	}
	hil_journal_fs_error("the journal", path, err, 1);
	return HIL_ERR_IO;
}

const char *hil_journal_op(const char *name)
{
	static const char *const ops[] = {"encrypt", "decrypt", "hash",
					  "keysetup", "verify"};
	size_t i;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		if (strcmp(name, ops[i]) == 0) {
			return ops[i];
		}
	}
	return NULL;
}

static double num(const cJSON *o, const char *k, int *ok)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

	if (!cJSON_IsNumber(v)) {
		*ok = 0;
		return 0;
	}
	return v->valuedouble;
}

static const char *str(const cJSON *o, const char *k, int *ok)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);

	if (!cJSON_IsString(v)) {
		*ok = 0;
		return "";
	}
	return v->valuestring;
}

/* The row's energy object (absent: not measured) into e. */
static void parse_energy(const cJSON *o, struct hil_row_energy *e)
{
	const cJSON *en = cJSON_GetObjectItemCaseSensitive(o, "energy");
	int ok = 1;

	if (!cJSON_IsObject(en)) {
		return;
	}
	if (strcmp(str(en, "status", &ok), "ok") != 0) {
		e->state = HIL_ENERGY_FAILED;
		snprintf(e->error, sizeof(e->error), "%s",
			 str(en, "error", &ok));
		return;
	}
	e->model = strcmp(str(en, "kind", &ok), "model") == 0;
	e->uj_per_op = num(en, "uj_per_op", &ok);
	e->uj_per_op_dynamic = num(en, "uj_per_op_dynamic", &ok);
	e->spread_uj = num(en, "spread", &ok);
	e->spread_dynamic_uj = num(en, "spread_dynamic", &ok);
	e->idle_mw = num(en, "idle_mw", &ok);
	e->active_mw = num(en, "active_mw", &ok);
	e->bus_v = num(en, "bus_v", &ok);
	e->ticks_per_op = num(en, "ticks_per_op", &ok);
	e->op_seconds = num(en, "op_seconds", &ok);
	/* Absent in journals of before the model's cycles were used. */
	e->time_from_model =
		cJSON_IsString(cJSON_GetObjectItemCaseSensitive(en, "ticks")) &&
		strcmp(cJSON_GetObjectItemCaseSensitive(en, "ticks")
			       ->valuestring,
		       "model cycles") == 0;
	e->ops_per_window = (uint32_t)num(en, "ops_per_window", &ok);
	e->windows = (unsigned)num(en, "windows", &ok);
	e->samples = (uint64_t)num(en, "samples", &ok);
	e->sample_rate_hz = num(en, "sample_rate_hz", &ok);
	if (ok) {
		e->state = HIL_ENERGY_OK;
	} else {
		e->state = HIL_ENERGY_FAILED;
		snprintf(e->error, sizeof(e->error),
			 "the journal's energy entry is incomplete");
	}
}

/* The leak test's t on the model's cycles (absent: none) back into l. */
static void parse_leak_model(const cJSON *k, struct hil_row_leak *l)
{
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(k, "model_cycles");
	struct hil_row_leak_stat *st = &l->model;
	int ok = 1;

	if (!cJSON_IsObject(m)) {
		return;
	}
	if (strcmp(str(m, "status", &ok), "ok") != 0) {
		l->model_state = -1;
		snprintf(l->model_why, sizeof(l->model_why), "%s",
			 str(m, "error", &ok));
		return;
	}
	st->t = num(m, "t", &ok);
	st->flagged =
		cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(m, "flagged"));
	st->n[0] = (uint32_t)num(m, "n_fixed", &ok);
	st->n[1] = (uint32_t)num(m, "n_random", &ok);
	st->mean[0] = num(m, "mean_fixed", &ok);
	st->mean[1] = num(m, "mean_random", &ok);
	st->stddev[0] = num(m, "stddev_fixed", &ok);
	st->stddev[1] = num(m, "stddev_random", &ok);
	l->model_state = ok ? 1 : -1;
	if (!ok) {
		snprintf(
			l->model_why, sizeof(l->model_why),
			"the journal's leak entry on model cycles is incomplete");
	}
}

/* The row's leak test (absent: not run) back into l. */
static void parse_leak(const cJSON *o, struct hil_row_leak *l)
{
	const cJSON *k = cJSON_GetObjectItemCaseSensitive(o, "leak");
	int ok = 1;

	if (!cJSON_IsObject(k)) {
		return;
	}
	if (strcmp(str(k, "status", &ok), "ok") != 0) {
		l->state = -1;
		snprintf(l->error, sizeof(l->error), "%s",
			 str(k, "error", &ok));
		return;
	}
	l->t = num(k, "t", &ok);
	l->flagged =
		cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(k, "flagged"));
	l->n[0] = (uint32_t)num(k, "n_fixed", &ok);
	l->n[1] = (uint32_t)num(k, "n_random", &ok);
	l->mean[0] = num(k, "mean_fixed", &ok);
	l->mean[1] = num(k, "mean_random", &ok);
	l->stddev[0] = num(k, "stddev_fixed", &ok);
	l->stddev[1] = num(k, "stddev_random", &ok);
	l->state = ok ? 1 : -1;
	if (!ok) {
		snprintf(l->error, sizeof(l->error),
			 "the journal's leak entry is incomplete");
		return;
	}
	parse_leak_model(k, l);
}

/* The memory system's counts of a model row (absent in a journal written
 * before the profiles: 0). */
static void memsys_back(const cJSON *m, struct hil_row *r)
{
	const cJSON *c = cJSON_GetObjectItemCaseSensitive(m, "cache_misses");
	const cJSON *l = cJSON_GetObjectItemCaseSensitive(m, "lines_touched");
	int ok = 1;

	if (cJSON_IsObject(c) && cJSON_IsObject(l)) {
		r->model.imiss = (uint64_t)num(c, "instruction", &ok);
		r->model.dmiss = (uint64_t)num(c, "data", &ok);
		r->model.ilines = (uint64_t)num(l, "code", &ok);
		r->model.dlines = (uint64_t)num(l, "data", &ok);
	}
}

/* The row's model cycles (absent: none) back into r; samples owned. */
static int parse_model(const cJSON *o, struct hil_row *r)
{
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(o, "model_cycles");
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(m, "samples");
	const cJSON *b = cJSON_GetObjectItemCaseSensitive(m, "bounds");
	const cJSON *v;
	size_t i = 0;
	int ok = 1;

	if (!cJSON_IsObject(m) || !cJSON_IsArray(a) ||
	    (uint32_t)cJSON_GetArraySize(a) != r->runs || !cJSON_IsArray(b) ||
	    cJSON_GetArraySize(b) != 2) {
		return 0;
	}
	r->model.samples = malloc(r->runs * sizeof(double));
	if (r->model.samples == NULL) {
		return -1;
	}
	cJSON_ArrayForEach(v, a)
	{
		ok = ok && cJSON_IsNumber(v);
		r->model.samples[i++] = ok ? v->valuedouble : 0.0;
	}
	r->model.lo_median = cJSON_GetArrayItem(b, 0)->valuedouble;
	r->model.hi_median = cJSON_GetArrayItem(b, 1)->valuedouble;
	r->model.divides = (uint64_t)num(m, "divides", &ok);
	r->model.overhead = num(m, "overhead_subtracted", &ok);
	memsys_back(m, r);
	if (!ok || hil_stats_compute(r->model.samples, r->runs,
				     &r->model.stats) != HIL_OK) {
		free(r->model.samples);
		r->model.samples = NULL;
		return 0;
	}
	r->model.ok = 1;
	return 1;
}

/* One journal line into row; 0 when it is not a usable measured row. */
static int parse_row(const cJSON *o, const char *build_id, struct hil_row *r)
{
	const cJSON *samples = cJSON_GetObjectItemCaseSensitive(o, "samples");
	const cJSON *digest = cJSON_GetObjectItemCaseSensitive(o, "digest");
	const cJSON *s;
	const struct registry_alg *ref;
	int ok = 1;
	size_t i = 0;

	memset(r, 0, sizeof(*r));
	if (strcmp(str(o, "build_id", &ok), build_id) != 0 ||
	    strcmp(str(o, "status", &ok), "ok") != 0 || !ok) {
		return 0;
	}
	snprintf(r->algorithm, sizeof(r->algorithm), "%s",
		 str(o, "algorithm", &ok));
	snprintf(r->implementation, sizeof(r->implementation), "%s",
		 str(o, "implementation", &ok));
	r->operation = hil_journal_op(str(o, "operation", &ok));
	r->msg_len = (uint32_t)num(o, "msg_len", &ok);
	r->ad_len = (uint32_t)num(o, "ad_len", &ok);
	r->runs = (uint32_t)num(o, "runs", &ok);
	r->warmup = (uint32_t)num(o, "warmup", &ok);
	r->seed = (uint32_t)num(o, "seed", &ok);
	r->overhead = (uint32_t)num(o, "overhead_subtracted", &ok);
	if (cJSON_IsNumber(
		    cJSON_GetObjectItemCaseSensitive(o, "stack_bytes"))) {
		r->stack_known = 1;
		r->stack_bytes = (uint32_t)num(o, "stack_bytes", &ok);
	}
	r->verified =
		cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "verified"));
	{
		const cJSON *by =
			cJSON_GetObjectItemCaseSensitive(o, "verified_by");

		if (cJSON_IsString(by)) {
			snprintf(r->verified_by, sizeof(r->verified_by), "%s",
				 by->valuestring);
		}
	}
	r->digest_expected =
		(uint32_t)strtoul(str(digest, "expected", &ok), NULL, 16);
	r->digest_got =
		(uint32_t)strtoul(str(digest, "measured", &ok), NULL, 16);
	if (!ok || r->operation == NULL || !cJSON_IsArray(samples) ||
	    (uint32_t)cJSON_GetArraySize(samples) != r->runs || r->runs == 0) {
		return 0;
	}
	/* The mode and claim come from this hilrun's registry, as when
	 * measured; an external implementation has its reference's mode. */
	ref = hil_ref_find(r->algorithm, r->implementation);
	if (ref == NULL) {
		ref = hil_ref_find(r->algorithm, NULL);
	}
	r->mode = ref != NULL ? ref->mode : "";
	r->constant_time = ref != NULL ? ref->constant_time : -1;
	r->samples = malloc(r->runs * sizeof(*r->samples));
	if (r->samples == NULL) {
		return -1;
	}
	cJSON_ArrayForEach(s, samples)
	{
		if (!cJSON_IsNumber(s)) {
			free(r->samples);
			r->samples = NULL;
			return 0;
		}
		r->samples[i++] = s->valuedouble;
	}
	if (hil_stats_compute(r->samples, r->runs, &r->stats) != HIL_OK) {
		free(r->samples);
		r->samples = NULL;
		return 0;
	}
	parse_energy(o, &r->energy);
	parse_leak(o, &r->leak);
	r->heap_bytes = (uint32_t)num(o, "heap_bytes", &ok);
	if (parse_model(o, r) < 0) {
		free(r->samples);
		r->samples = NULL;
		return -1;
	}
	r->ok = 1;
	return 1;
}

/*
 * Whether a journal could only have been written by hilrun's own user: the
 * file and its run folder ours, neither writable by the group or others,
 * the file regular and not a link. Rows are measurements taken on trust:
 * a journal another user could write (a results folder made under a
 * umask of 000 or 002) is not resumed. @return 1 trusted; 0 not (logged).
 */
static int journal_ours(const char *path, int fd)
{
	char dir[4096];
	struct stat st, ds;
	char *slash;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash != NULL) {
		*slash = '\0';
	} else {
		snprintf(dir, sizeof(dir), ".");
	}
	if (fstat(fd, &st) != 0 || stat(dir, &ds) != 0) {
		return 0;
	}
	if (!S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & 022) != 0 || ds.st_uid != geteuid() ||
	    (ds.st_mode & 022) != 0) {
		hil_warn(
			"%s: not resumed: the journal or its folder %s (mode %03o and %03o, owners %ld and %ld): rows another user could have written are measured again",
			path,
			st.st_uid != geteuid() || ds.st_uid != geteuid()
				? "belongs to another user"
				: "is writable by others",
			(unsigned)(st.st_mode & 0777),
			(unsigned)(ds.st_mode & 0777), (long)st.st_uid,
			(long)ds.st_uid);
		return 0;
	}
	return 1;
}

int hil_journal_load(const char *path, const char *build_id,
		     struct hil_row **rows, size_t *n)
{
	char *text = NULL;
	char *line;
	char *save = NULL;
	size_t cap = 0;
	size_t skipped = 0;
	int ret = HIL_OK;
	int fd;

	*rows = NULL;
	*n = 0;
	/* Never through a link, never blocking on a FIFO. */
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		if (errno != ENOENT) {
			hil_warn("%s: not resumed: %s", path,
				 errno == ELOOP ? "a symbolic link"
						: strerror(errno));
		}
		return HIL_OK; /* no journal: nothing to resume */
	}
	if (!journal_ours(path, fd) || fcntl(fd, F_SETFL, 0) != 0 ||
	    hil_read_fd(fd, HIL_READ_MAX, &text, NULL) != HIL_OK) {
		close(fd);
		return HIL_OK;
	}
	close(fd);
	for (line = strtok_r(text, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		cJSON *o = cJSON_Parse(line);
		struct hil_row r;
		int got;

		if (o == NULL) {
			skipped++; /* a line cut short by a crash */
			continue;
		}
		got = parse_row(o, build_id, &r);
		cJSON_Delete(o);
		if (got < 0) {
			ret = HIL_ERR_NOMEM;
			break;
		}
		if (got == 0) {
			skipped++;
			continue;
		}
		if (*n == cap) {
			size_t nc = cap ? cap * 2 : 16;
			struct hil_row *nr = realloc(*rows, nc * sizeof(*nr));

			if (nr == NULL) {
				free(r.samples);
				ret = HIL_ERR_NOMEM;
				break;
			}
			*rows = nr;
			cap = nc;
		}
		(*rows)[(*n)++] = r;
	}
	free(text);
	if (ret != HIL_OK) {
		hil_journal_free(*rows, *n);
		*rows = NULL;
		*n = 0;
		return ret;
	}
	hil_info(
		"%s: %zu measured row%s to keep, %zu line%s skipped (other image, failed or damaged)",
		path, *n, *n == 1 ? "" : "s", skipped, skipped == 1 ? "" : "s");
	return HIL_OK;
}

void hil_journal_free(struct hil_row *rows, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(rows[i].samples);
		free(rows[i].model.samples);
	}
	free(rows);
}
