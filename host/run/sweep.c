/* sweep: several configurations run (rebuilt, reflashed, identified, measured), each on its board under that board's lock, and compared. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"sweep"
#include "sweep.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "lab/boards.h"
#include "lab/lock.h"
#include "util/err.h"
#include "util/log.h"
#include "report/modelratio.h"
#include "report/render.h"
#include "run.h"
#include "util/util.h"

/* Why a configuration did not run: a lock holder's message, or less. */
#define WHY_MAX 1024

static int fail(char *err, size_t errlen, int code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(char *err, size_t errlen, int code, const char *fmt, ...)
{
	va_list ap;

	if (err != NULL && errlen > 0) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return code;
}

static char *dir_of(const char *path, char *buf, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (slash == NULL) {
		snprintf(buf, len, ".");
	} else {
		snprintf(buf, len, "%.*s", (int)(slash - path), path);
	}
	return buf;
}

static void join(const char *dir, const char *name, char *buf, size_t len)
{
	if (name[0] == '/') {
		snprintf(buf, len, "%s", name);
	} else {
		snprintf(buf, len, "%s/%s", dir, name);
	}
}

/* "-O2 -flto" -> "O2_flto": a name the config rules accept. */
static void flags_name(const cJSON *set, char *buf, size_t len)
{
	const cJSON *f;
	size_t o = 0;

	buf[0] = '\0';
	cJSON_ArrayForEach(f, set)
	{
		const char *s = f->valuestring;

		while (*s == '-') {
			s++;
		}
		for (; *s != '\0' && o + 2 < len; s++) {
			int ok = (*s >= 'a' && *s <= 'z') ||
				 (*s >= 'A' && *s <= 'Z') ||
				 (*s >= '0' && *s <= '9') || *s == '.' ||
				 *s == '+' || *s == '-';

			buf[o++] = ok ? *s : '_';
		}
		if (o + 2 < len) {
			buf[o++] = '_';
		}
	}
	if (o > 0) {
		o--; /* the last separator */
	}
	buf[o] = '\0';
}

static int load_one(const char *path, struct hil_config *cfg, char *err,
		    size_t errlen)
{
	char msg[1024];
	int ret = hil_config_load(path, cfg, msg, sizeof(msg));

	if (ret != HIL_OK) {
		return fail(err, errlen, ret, "%s", msg);
	}
	return HIL_OK;
}

/*
 * Each configuration's board, found as a single run finds it
 * (cmd_run_board.c): a config that names its board takes the map's probe and
 * port, and sw->lock names the lock its run takes. Without this a sweep on a
 * board would flash it while another run or the daemon is using it.
 */
static int find_boards(struct hil_sweep *sw, char *err, size_t errlen)
{
	const char *path = hil_boards_path();
	const struct hil_boards *m = NULL;
	struct hil_boards map;
	char msg[1024];
	int named = 0;
	size_t i;
	int ret;

	for (i = 0; i < sw->n; i++) {
		named |= sw->cfgs[i].board.id[0] != '\0';
	}
	if (access(path, R_OK) == 0) {
		ret = hil_boards_load(path, &map, msg, sizeof(msg));
		if (ret == HIL_OK) {
			m = &map;
		} else if (named) {
			return fail(err, errlen, ret, "%s", msg);
		}
		/* Otherwise, as for a single run, a map that does not load
		 * leaves every board locked under its board.name. */
	}
	ret = HIL_OK;
	for (i = 0; i < sw->n; i++) {
		struct hil_config *c = &sw->cfgs[i];
		const char *id;

		ret = hil_boards_apply(m, c, msg, sizeof(msg));
		if (ret != HIL_OK) {
			ret = fail(err, errlen, ret, "%s: %s", c->path, msg);
			break;
		}
		id = hil_boards_run_lock(m, c);
		snprintf(sw->lock[i], sizeof(sw->lock[i]), "%s",
			 id != NULL ? id : "");
	}
	if (m != NULL) {
		hil_boards_free(&map);
	}
	return ret;
}

int hil_sweep_from_files(char *const *paths, size_t n, struct hil_sweep *sw,
			 char *err, size_t errlen)
{
	size_t i, j;
	int ret;

	memset(sw, 0, sizeof(*sw));
	if (n == 0 || n > HIL_SWEEP_MAX) {
		return fail(err, errlen, HIL_ERR_ARG,
			    "a sweep takes 1 to %d configurations",
			    HIL_SWEEP_MAX);
	}
	sw->cfgs = calloc(n, sizeof(*sw->cfgs));
	if (sw->cfgs == NULL) {
		return HIL_ERR_NOMEM;
	}
	snprintf(sw->name, sizeof(sw->name), "sweep");
	for (i = 0; i < n; i++) {
		ret = load_one(paths[i], &sw->cfgs[i], err, errlen);
		if (ret != HIL_OK) {
			hil_sweep_free(sw);
			return ret;
		}
		sw->n++;
		for (j = 0; j < i; j++) {
			if (strcmp(sw->cfgs[j].name, sw->cfgs[i].name) == 0) {
				ret = fail(
					err, errlen, HIL_ERR_CONFIG,
					"%s and %s are both named \"%s\": a sweep compares configurations by name",
					paths[j], paths[i], sw->cfgs[i].name);
				hil_sweep_free(sw);
				return ret;
			}
		}
	}
	ret = find_boards(sw, err, errlen);
	if (ret != HIL_OK) {
		hil_sweep_free(sw);
	}
	return ret;
}

static int load_matrix(const char *path, const char *dir, const cJSON *root,
		       struct hil_sweep *sw, char *err, size_t errlen)
{
	const cJSON *base = cJSON_GetObjectItemCaseSensitive(root, "base");
	const cJSON *sets = cJSON_GetObjectItemCaseSensitive(root, "cflags");
	const cJSON *set;
	char base_path[HIL_CFG_STR * 2];
	struct hil_config proto;
	size_t i = 0;
	int ret;

	if (!cJSON_IsString(base)) {
		return fail(err, errlen, HIL_ERR_CONFIG,
			    "%s: base: expected the path of a config", path);
	}
	if (!cJSON_IsArray(sets) || cJSON_GetArraySize(sets) < 1 ||
	    cJSON_GetArraySize(sets) > HIL_SWEEP_MAX) {
		return fail(err, errlen, HIL_ERR_CONFIG,
			    "%s: cflags: expected 1 to %d flag sets", path,
			    HIL_SWEEP_MAX);
	}
	join(dir, base->valuestring, base_path, sizeof(base_path));
	ret = load_one(base_path, &proto, err, errlen);
	if (ret != HIL_OK) {
		return ret;
	}
	sw->cfgs = calloc((size_t)cJSON_GetArraySize(sets), sizeof(*sw->cfgs));
	if (sw->cfgs == NULL) {
		return HIL_ERR_NOMEM;
	}
	cJSON_ArrayForEach(set, sets)
	{
		struct hil_config *c = &sw->cfgs[i];
		const cJSON *f;
		char suffix[HIL_CFG_NAME];
		size_t k = 0;

		*c = proto;
		if (!cJSON_IsArray(set) || cJSON_GetArraySize(set) < 1 ||
		    cJSON_GetArraySize(set) > HIL_CFG_MAX_FLAGS) {
			return fail(
				err, errlen, HIL_ERR_CONFIG,
				"%s: cflags[%zu]: expected a list of 1 to %d flags",
				path, i, HIL_CFG_MAX_FLAGS);
		}
		cJSON_ArrayForEach(f, set)
		{
			if (!cJSON_IsString(f) || f->valuestring[0] != '-' ||
			    strlen(f->valuestring) >= HIL_CFG_NAME ||
			    strpbrk(f->valuestring, " \t;`$|&<>'\"\\()") !=
				    NULL) {
				return fail(
					err, errlen, HIL_ERR_CONFIG,
					"%s: cflags[%zu][%zu]: expected a compiler flag such as \"-O2\"",
					path, i, k);
			}
			snprintf(c->build.cflags[k], HIL_CFG_NAME, "%s",
				 f->valuestring);
			k++;
		}
		c->build.n_cflags = k;
		flags_name(set, suffix, sizeof(suffix));
		snprintf(c->name, sizeof(c->name), "%.30s-%.30s", proto.name,
			 suffix);
		i++;
		sw->n = i;
	}
	return HIL_OK;
}

int hil_sweep_load(const char *path, struct hil_sweep *sw, char *err,
		   size_t errlen)
{
	char *text = NULL;
	char dir[HIL_CFG_STR];
	cJSON *root = NULL;
	const cJSON *it;
	int ret;

	memset(sw, 0, sizeof(*sw));
	ret = hil_read_file(path, &text, NULL);
	if (ret != HIL_OK) {
		return fail(err, errlen, ret, "%s: cannot be read", path);
	}
	root = cJSON_Parse(text);
	free(text);
	if (!cJSON_IsObject(root)) {
		cJSON_Delete(root);
		return fail(err, errlen, HIL_ERR_CONFIG,
			    "%s: not a JSON object", path);
	}
	cJSON_ArrayForEach(it, root)
	{
		if (strcmp(it->string, "name") != 0 &&
		    strcmp(it->string, "configs") != 0 &&
		    strcmp(it->string, "base") != 0 &&
		    strcmp(it->string, "cflags") != 0) {
			ret = fail(
				err, errlen, HIL_ERR_CONFIG,
				"%s: %s: unknown key (name, configs, or base and cflags)",
				path, it->string);
			goto out;
		}
	}
	dir_of(path, dir, sizeof(dir));
	it = cJSON_GetObjectItemCaseSensitive(root, "configs");
	if (it != NULL) {
		char *paths[HIL_SWEEP_MAX];
		char buf[HIL_SWEEP_MAX][HIL_CFG_STR * 2];
		const cJSON *p;
		size_t n = 0;

		if (cJSON_GetObjectItemCaseSensitive(root, "base") != NULL ||
		    !cJSON_IsArray(it) || cJSON_GetArraySize(it) < 1 ||
		    cJSON_GetArraySize(it) > HIL_SWEEP_MAX) {
			ret = fail(
				err, errlen, HIL_ERR_CONFIG,
				"%s: configs: expected 1 to %d config paths (and no base)",
				path, HIL_SWEEP_MAX);
			goto out;
		}
		cJSON_ArrayForEach(p, it)
		{
			if (!cJSON_IsString(p)) {
				ret = fail(err, errlen, HIL_ERR_CONFIG,
					   "%s: configs[%zu]: expected a path",
					   path, n);
				goto out;
			}
			join(dir, p->valuestring, buf[n], sizeof(buf[n]));
			paths[n] = buf[n];
			n++;
		}
		ret = hil_sweep_from_files(paths, n, sw, err, errlen);
	} else {
		ret = load_matrix(path, dir, root, sw, err, errlen);
		if (ret == HIL_OK) {
			ret = find_boards(sw, err, errlen);
		}
	}
	it = cJSON_GetObjectItemCaseSensitive(root, "name");
	if (ret == HIL_OK) {
		snprintf(sw->name, sizeof(sw->name), "%s",
			 cJSON_IsString(it) ? it->valuestring : "sweep");
	}
out:
	cJSON_Delete(root);
	if (ret != HIL_OK) {
		hil_sweep_free(sw);
	}
	return ret;
}

void hil_sweep_free(struct hil_sweep *sw)
{
	free(sw->cfgs);
	sw->cfgs = NULL;
	sw->n = 0;
}

static const struct hil_row *find_row(const struct hil_run *run,
				      const struct hil_row *key)
{
	size_t i;

	for (i = 0; i < run->n_rows; i++) {
		const struct hil_row *r = &run->rows[i];

		if (r->msg_len == key->msg_len && r->ad_len == key->ad_len &&
		    strcmp(r->algorithm, key->algorithm) == 0 &&
		    strcmp(r->implementation, key->implementation) == 0 &&
		    strcmp(r->operation, key->operation) == 0) {
			return r;
		}
	}
	return NULL;
}

static const struct hil_impl_size *find_size(const struct hil_run *run,
					     const char *alg, const char *impl)
{
	size_t i;

	for (i = 0; i < run->n_impl_sizes; i++) {
		if (strcmp(run->impl_sizes[i].algorithm, alg) == 0 &&
		    strcmp(run->impl_sizes[i].implementation, impl) == 0) {
			return &run->impl_sizes[i];
		}
	}
	return NULL;
}

/* Rows of the union of the runs, in first-seen order, each once. */
static int seen_before(const struct hil_run *runs, size_t r, size_t i)
{
	size_t k, j;

	for (k = 0; k <= r; k++) {
		size_t end = k == r ? i : runs[k].n_rows;

		for (j = 0; j < end; j++) {
			const struct hil_row *a = &runs[k].rows[j];
			const struct hil_row *b = &runs[r].rows[i];

			if (a->msg_len == b->msg_len &&
			    a->ad_len == b->ad_len &&
			    strcmp(a->algorithm, b->algorithm) == 0 &&
			    strcmp(a->implementation, b->implementation) == 0 &&
			    strcmp(a->operation, b->operation) == 0) {
				return 1;
			}
		}
	}
	return 0;
}

static void write_tables(const struct hil_sweep *sw, const struct hil_run *runs,
			 char (*why)[WHY_MAX], FILE *out)
{
	const struct hil_run *sized = &runs[0];
	const char *unit = "unknown";
	size_t r, i, k;

	for (r = 0; r < sw->n; r++) {
		if (runs[r].n_rows > 0) {
			unit = hil_unit_name(runs[r].info.counter_unit);
			break;
		}
	}
	fprintf(out,
		"## %s: median (%s) per row, one column per configuration\n\n",
		sw->name, unit);
	fprintf(out, "| algorithm | impl | op | msg | ad |");
	for (r = 0; r < sw->n; r++) {
		fprintf(out, " %s |", sw->cfgs[r].name);
	}
	fprintf(out, "\n|---|---|---|---:|---:|");
	for (r = 0; r < sw->n; r++) {
		fprintf(out, "---:|");
	}
	fprintf(out, "\n");
	for (r = 0; r < sw->n; r++) {
		for (i = 0; i < runs[r].n_rows; i++) {
			const struct hil_row *key = &runs[r].rows[i];

			if (seen_before(runs, r, i)) {
				continue;
			}
			fprintf(out, "| %s | %s | %s | %u | %u |",
				key->algorithm, key->implementation,
				key->operation, (unsigned)key->msg_len,
				(unsigned)key->ad_len);
			for (k = 0; k < sw->n; k++) {
				const struct hil_row *v =
					find_row(&runs[k], key);

				if (v == NULL || !v->ok) {
					fprintf(out, " %s |",
						v == NULL ? "-" : "failed");
				} else {
					fprintf(out, " %.0f |",
						v->stats.median);
				}
			}
			fprintf(out, "\n");
		}
	}
	fprintf(out,
		"\n## %s: flash bytes per implementation (text + rodata + data)\n\n",
		sw->name);
	fprintf(out, "| algorithm | impl |");
	for (r = 0; r < sw->n; r++) {
		fprintf(out, " %s |", sw->cfgs[r].name);
	}
	fprintf(out, "\n|---|---|");
	for (r = 0; r < sw->n; r++) {
		fprintf(out, "---:|");
	}
	fprintf(out, "\n");
	/* The rows of the first configuration that ran: one not run (its
	 * board busy) has none, and must not hide the others' sizes. */
	for (r = 0; r < sw->n; r++) {
		if (runs[r].n_impl_sizes > 0) {
			sized = &runs[r];
			break;
		}
	}
	for (i = 0; i < sized->n_impl_sizes; i++) {
		const struct hil_impl_size *z0 = &sized->impl_sizes[i];

		fprintf(out, "| %s | %s |", z0->algorithm, z0->implementation);
		for (k = 0; k < sw->n; k++) {
			const struct hil_impl_size *z = find_size(
				&runs[k], z0->algorithm, z0->implementation);

			if (z == NULL) {
				fprintf(out, " - |");
			} else {
				fprintf(out, " %lu |",
					z->text + z->rodata + z->data);
			}
		}
		fprintf(out, "\n");
	}
	fprintf(out, "\n");
	for (r = 0, k = 0; r < sw->n; r++) {
		if (why[r][0] == '\0') {
			continue;
		}
		if (k++ == 0) {
			fprintf(out, "## %s: configurations not run\n\n",
				sw->name);
		}
		fprintf(out, "- %s: %s\n", sw->cfgs[r].name, why[r]);
	}
	if (k > 0) {
		fprintf(out, "\n");
	}
	/* A board run and a model run of one profile: their ratio per row. */
	(void)hil_model_ratio_write(sw->cfgs, runs, sw->n, out);
}

static char *sweep_json(const struct hil_sweep *sw, const struct hil_run *runs,
			const int *rets, char (*why)[WHY_MAX])
{
	cJSON *root = cJSON_CreateObject();
	cJSON *a = root ? cJSON_AddArrayToObject(root, "runs") : NULL;
	char *text = NULL;
	size_t r;
	int ok = a != NULL;

	ok = ok && cJSON_AddStringToObject(root, "name", sw->name) != NULL;
	for (r = 0; ok && r < sw->n; r++) {
		cJSON *o = cJSON_CreateObject();

		ok = o != NULL;
		if (ok) {
			cJSON_AddItemToArray(a, o);
		}
		ok = ok &&
		     cJSON_AddStringToObject(o, "config", sw->cfgs[r].name);
		ok = ok && cJSON_AddStringToObject(o, "run_dir", runs[r].dir);
		ok = ok &&
		     cJSON_AddStringToObject(o, "status",
					     runs[r].status ? runs[r].status
					     : why[r][0] != '\0' ? "not run"
								 : "failed");
		ok = ok &&
		     cJSON_AddStringToObject(o, "build_id", runs[r].build_id);
		ok = ok && cJSON_AddStringToObject(
				   o, "error",
				   why[r][0] != '\0'   ? why[r]
				   : rets[r] == HIL_OK ? ""
						       : hil_strerror(rets[r]));
		ok = ok && cJSON_AddStringToObject(o, "board", sw->lock[r]);
	}
	if (ok) {
		text = cJSON_Print(root);
	}
	cJSON_Delete(root);
	return text;
}

void hil_sweep_sched_init(struct hil_sweep_sched *s, const struct hil_sweep *sw)
{
	size_t i;

	memset(s, 0, sizeof(*s));
	s->n = sw->n < HIL_SWEEP_MAX ? sw->n : HIL_SWEEP_MAX;
	for (i = 0; i < s->n; i++) {
		s->lock[i] = sw->lock[i];
	}
}

static int same_board(const struct hil_sweep_sched *s, size_t a, size_t b)
{
	return s->lock[a] != NULL && s->lock[a][0] != '\0' &&
	       s->lock[b] != NULL && strcmp(s->lock[a], s->lock[b]) == 0;
}

enum hil_sweep_pick hil_sweep_sched_next(struct hil_sweep_sched *s, size_t *idx)
{
	size_t i, j;
	int left = 0;

	for (i = 0; i < s->n; i++) {
		int busy = 0;

		if (s->state[i] != 0) {
			continue;
		}
		left = 1;
		for (j = 0; j < s->n && !busy; j++) {
			busy = s->state[j] == 1 && same_board(s, i, j);
		}
		if (!busy) {
			s->state[i] = 1;
			*idx = i;
			return HIL_SWEEP_PICK_RUN;
		}
	}
	return left ? HIL_SWEEP_PICK_WAIT : HIL_SWEEP_PICK_DONE;
}

void hil_sweep_sched_done(struct hil_sweep_sched *s, size_t idx)
{
	if (idx < s->n) {
		s->state[idx] = 2;
	}
}

size_t hil_sweep_sched_board_left(const struct hil_sweep_sched *s, size_t idx)
{
	size_t j, n = 0;

	for (j = 0; j < s->n; j++) {
		if (j != idx && s->state[j] != 2 && same_board(s, idx, j)) {
			n++;
		}
	}
	return n;
}

/* A board of the sweep, kept at the slot of its first configuration. */
struct sweep_board {
	int state; /* 0 not asked yet, 1 held, 2 could not be had */
	int ret;   /* why not, with state 2 */
	struct hil_lock lock;
	char why[WHY_MAX];
};

/* The configurations of a sweep, handed out to workers by the schedule. */
struct sweep_work {
	const struct hil_sweep *sw;
	const struct hil_runner_opts *opts;
	unsigned wait_s;
	struct hil_run *runs;
	int *rets;
	char (*why)[WHY_MAX];
	struct sweep_board boards[HIL_SWEEP_MAX];
	struct hil_sweep_sched sched;
	pthread_mutex_t mu;
	pthread_cond_t changed; /* a configuration finished */
};

static int stopped(const struct hil_runner_opts *opts)
{
	return opts->stop != NULL && *opts->stop;
}

/* The slot of r's board: the first configuration with its lock. */
static size_t board_slot(const struct hil_sweep *sw, size_t r)
{
	size_t i;

	for (i = 0; i < r; i++) {
		if (strcmp(sw->lock[i], sw->lock[r]) == 0) {
			return i;
		}
	}
	return r;
}

/*
 * Take board id's lock as a single run does (cli_lock_board): at once if it
 * is free; else, with a wait, say once who holds it, wait quietly and say
 * when it is ours. The wait goes in steps of a second so that a Ctrl-C
 * caught by another thread of the sweep also ends it.
 */
static void take_board(struct sweep_work *w, size_t slot)
{
	struct sweep_board *b = &w->boards[slot];
	const char *id = w->sw->lock[slot];
	char holder[HIL_CFG_NAME + 8];
	unsigned left = w->wait_s;
	char *msg = NULL;
	int ret;

	snprintf(holder, sizeof(holder), "sweep %s", w->sw->name);
	ret = hil_lock_acquire(&b->lock, NULL, id, holder, left < 1 ? left : 1,
			       &msg);
	if (ret == HIL_ERR_TIMEOUT && left > 1) {
		hil_info("%s: waiting up to %u s for it", msg, w->wait_s);
		left--;
		while (ret == HIL_ERR_TIMEOUT && left > 0 &&
		       !stopped(w->opts)) {
			free(msg);
			msg = NULL;
			ret = hil_lock_acquire(&b->lock, NULL, id, holder, 1,
					       &msg);
			left--;
		}
		if (ret == HIL_ERR_TIMEOUT && stopped(w->opts)) {
			ret = HIL_ERR_INTERRUPTED;
			free(msg);
			msg = NULL;
		}
		if (ret == HIL_OK) {
			hil_info("board %s is ours now", id);
		}
	}
	if (ret == HIL_OK) {
		b->state = 1;
	} else {
		b->state = 2;
		b->ret = ret;
		snprintf(b->why, sizeof(b->why), "%s",
			 msg != NULL ? msg : hil_strerror(ret));
		hil_err("sweep %s: %s: its configurations are not run",
			w->sw->name, b->why);
	}
	free(msg);
}

/* Run configuration r, under its board's lock if it has one. */
static void run_one(struct sweep_work *w, size_t r)
{
	const struct hil_sweep *sw = w->sw;
	struct sweep_board *b = NULL;

	if (sw->lock[r][0] != '\0') {
		b = &w->boards[board_slot(sw, r)];
		/* Only the worker running r touches its board: the schedule
		 * runs no two configurations of one board at once. */
		if (b->state == 0 && !stopped(w->opts)) {
			take_board(w, board_slot(sw, r));
		}
	}
	if (stopped(w->opts)) {
		w->rets[r] = HIL_ERR_INTERRUPTED;
		snprintf(w->why[r], sizeof(w->why[r]),
			 "interrupted before it started");
		return;
	}
	if (b != NULL && b->state == 2) {
		w->rets[r] = b->ret;
		snprintf(w->why[r], sizeof(w->why[r]), "%s", b->why);
		return;
	}
	hil_info("sweep %s: configuration %zu of %zu: %s", sw->name, r + 1,
		 sw->n, sw->cfgs[r].name);
	/* Each its own build folder, QEMU, link and run folder: the runner
	 * keeps no state of its own beyond its arguments. */
	w->rets[r] = hil_runner_run(&sw->cfgs[r], w->opts, &w->runs[r]);
}

static void *sweep_worker(void *arg)
{
	struct sweep_work *w = arg;
	size_t r;

	pthread_mutex_lock(&w->mu);
	for (;;) {
		enum hil_sweep_pick pick = hil_sweep_sched_next(&w->sched, &r);

		if (pick == HIL_SWEEP_PICK_DONE) {
			break;
		}
		if (pick == HIL_SWEEP_PICK_WAIT) {
			pthread_cond_wait(&w->changed, &w->mu);
			continue;
		}
		pthread_mutex_unlock(&w->mu);
		run_one(w, r);
		pthread_mutex_lock(&w->mu);
		hil_sweep_sched_done(&w->sched, r);
		/* The board's last configuration: let others have it. */
		if (w->sw->lock[r][0] != '\0' &&
		    hil_sweep_sched_board_left(&w->sched, r) == 0) {
			hil_lock_release(&w->boards[board_slot(w->sw, r)].lock);
		}
		pthread_cond_broadcast(&w->changed);
	}
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

/*
 * Run every configuration, up to jobs at once (each QEMU is one thread, so
 * a sweep on the emulator scales with the cores); the runs and their
 * results land in their own slots, so the tables below are the same
 * whatever the order they finished in.
 */
static void run_all(const struct hil_sweep *sw,
		    const struct hil_runner_opts *opts, unsigned jobs,
		    unsigned wait_s, struct hil_run *runs, int *rets,
		    char (*why)[WHY_MAX])
{
	struct sweep_work *w = calloc(1, sizeof(*w));
	pthread_t th[HIL_SWEEP_MAX];
	size_t started = 0, lanes = 0, i, j;

	if (w == NULL) {
		for (i = 0; i < sw->n; i++) {
			rets[i] = HIL_ERR_NOMEM;
			snprintf(why[i], WHY_MAX, "out of memory");
		}
		return;
	}
	w->sw = sw;
	w->opts = opts;
	w->wait_s = wait_s;
	w->runs = runs;
	w->rets = rets;
	w->why = why;
	hil_sweep_sched_init(&w->sched, sw);
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->changed, NULL);
	if (jobs == 0) {
		long cores = sysconf(_SC_NPROCESSORS_ONLN);

		jobs = cores > 0 ? (unsigned)cores : 1;
	}
	/* A board takes one image at a time: its configurations run one
	 * after another, however many jobs; more workers than boards and
	 * unlocked configurations would only wait. */
	for (i = 0; i < sw->n; i++) {
		size_t same = 0;

		if (sw->lock[i][0] == '\0') {
			lanes++;
			continue;
		}
		if (board_slot(sw, i) != i) {
			continue;
		}
		lanes++;
		for (j = i; j < sw->n; j++) {
			same += strcmp(sw->lock[j], sw->lock[i]) == 0;
		}
		if (same > 1 && jobs > 1) {
			hil_info(
				"sweep %s: the %zu configurations on board %s run one at a time, whatever --jobs says",
				sw->name, same, sw->lock[i]);
		}
	}
	if (jobs > lanes) {
		jobs = (unsigned)lanes;
	}
	/* One job: here, in this thread, as before. */
	for (i = 1; i < jobs && i < HIL_SWEEP_MAX; i++) {
		if (pthread_create(&th[started], NULL, sweep_worker, w) != 0) {
			hil_warn(
				"sweep: could not start a worker: running fewer at once");
			break;
		}
		started++;
	}
	if (jobs > 1) {
		hil_info("sweep %s: %zu configurations, %zu at a time",
			 sw->name, sw->n, started + 1);
	}
	sweep_worker(w);
	for (i = 0; i < started; i++) {
		pthread_join(th[i], NULL);
	}
	/* Every board's last configuration released it; this is in case. */
	for (i = 0; i < sw->n; i++) {
		hil_lock_release(&w->boards[i].lock);
	}
	pthread_cond_destroy(&w->changed);
	pthread_mutex_destroy(&w->mu);
	free(w);
}

int hil_sweep_run(const struct hil_sweep *sw,
		  const struct hil_runner_opts *opts, unsigned jobs,
		  unsigned wait_s, FILE *out, int *transient)
{
	struct hil_run *runs = calloc(sw->n, sizeof(*runs));
	int *rets = calloc(sw->n, sizeof(*rets));
	char(*why)[WHY_MAX] = calloc(sw->n, sizeof(*why));
	struct hil_config sweep_cfg;
	struct hil_run sweep_run;
	char path[HIL_PATH + 32];
	char *md = NULL;
	size_t md_len = 0;
	FILE *mf = NULL;
	size_t r;
	int ret = HIL_OK, page = 1;

	if (transient != NULL) {
		*transient = 0;
	}
	if (runs == NULL || rets == NULL || why == NULL) {
		free(runs);
		free(rets);
		free(why);
		return HIL_ERR_NOMEM;
	}
	run_all(sw, opts, jobs, wait_s, runs, rets, why);
	/* Rows that failed say less than a configuration that did not run
	 * or could not measure: that error is the sweep's. */
	for (r = 0; r < sw->n; r++) {
		if (rets[r] != HIL_OK &&
		    (ret == HIL_OK ||
		     (ret == HIL_ERR_VERIFY && rets[r] != HIL_ERR_VERIFY))) {
			ret = rets[r];
		}
		/* A board busy for all of --wait: worth trying again, as for
		 * a single run. (A run's own troubles keep the sweep's exit
		 * status as it was: 2.) */
		if (transient != NULL && why[r][0] != '\0' &&
		    rets[r] == HIL_ERR_TIMEOUT) {
			*transient = 1;
		}
	}

	/* The sweep's own folder, next to the runs it compares. */
	memset(&sweep_run, 0, sizeof(sweep_run));
	sweep_cfg = sw->cfgs[0];
	snprintf(sweep_cfg.name, sizeof(sweep_cfg.name), "%s", sw->name);
	if (hil_runner_make_run_dir(&sweep_cfg, opts, &sweep_run) == HIL_OK) {
		char *js = sweep_json(sw, runs, rets, why);

		mf = open_memstream(&md, &md_len);
		if (mf != NULL) {
			write_tables(sw, runs, why, mf);
			fclose(mf);
			snprintf(path, sizeof(path), "%s/sweep.md",
				 sweep_run.dir);
			(void)hil_write_atomic(path, md, md_len);
			fputs(md, out);
		}
		if (js != NULL) {
			snprintf(path, sizeof(path), "%s/sweep.json",
				 sweep_run.dir);
			(void)hil_write_atomic(path, js, strlen(js));
		}
		free(js);
		free(md);
		{
			/* One group of bars per metric, a bar per config:
			 * from the reports that were written. */
			const char *dirs[HIL_SWEEP_MAX];
			size_t n = 0;

			for (r = 0; r < sw->n; r++) {
				if (runs[r].dir[0] != '\0' &&
				    runs[r].n_rows > 0) {
					dirs[n++] = runs[r].dir;
				}
			}
			if (n > 0 &&
			    hil_report_render_sweep(dirs, n, sweep_run.dir) !=
				    HIL_OK) {
				hil_warn(
					"no sweep plot: the reports could not be read back");
				page = 0;
			}
			page = page && n > 0;
		}
		fprintf(out, "sweep summary: %s/sweep.md\n", sweep_run.dir);
		if (page) {
			fprintf(out, "sweep page: %s/sweep.html\n",
				sweep_run.dir);
		}
	}
	for (r = 0; r < sw->n; r++) {
		hil_run_free(&runs[r]);
	}
	free(runs);
	free(rets);
	free(why);
	return ret;
}
