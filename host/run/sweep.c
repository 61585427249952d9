/* sweep: several configurations run one after another (rebuilt, reflashed, identified, measured) and compared. */
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

#include "drivers/board/board.h"
#include "util/err.h"
#include "util/log.h"
#include "report/modelratio.h"
#include "report/render.h"
#include "run.h"
#include "util/util.h"

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
	return HIL_OK;
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
			 FILE *out)
{
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
	for (i = 0; i < runs[0].n_impl_sizes; i++) {
		const struct hil_impl_size *z0 = &runs[0].impl_sizes[i];

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
	/* A board run and a model run of one profile: their ratio per row. */
	(void)hil_model_ratio_write(sw->cfgs, runs, sw->n, out);
}

static char *sweep_json(const struct hil_sweep *sw, const struct hil_run *runs,
			const int *rets)
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
		ok = ok && cJSON_AddStringToObject(
				   o, "status",
				   runs[r].status ? runs[r].status : "failed");
		ok = ok &&
		     cJSON_AddStringToObject(o, "build_id", runs[r].build_id);
		ok = ok &&
		     cJSON_AddStringToObject(
			     o, "error",
			     rets[r] == HIL_OK ? "" : hil_strerror(rets[r]));
	}
	if (ok) {
		text = cJSON_Print(root);
	}
	cJSON_Delete(root);
	return text;
}

/* The configurations of a sweep, handed out one at a time to workers. */
struct sweep_work {
	const struct hil_sweep *sw;
	const struct hil_runner_opts *opts;
	struct hil_run *runs;
	int *rets;
	size_t next;
	pthread_mutex_t mu;
};

static void *sweep_worker(void *arg)
{
	struct sweep_work *w = arg;

	for (;;) {
		size_t r;

		pthread_mutex_lock(&w->mu);
		r = w->next++;
		pthread_mutex_unlock(&w->mu);
		if (r >= w->sw->n) {
			return NULL;
		}
		if (w->opts->stop != NULL && *w->opts->stop) {
			w->rets[r] = HIL_ERR_INTERRUPTED;
			continue;
		}
		hil_info("sweep %s: configuration %zu of %zu: %s", w->sw->name,
			 r + 1, w->sw->n, w->sw->cfgs[r].name);
		/* Each its own build folder, QEMU, link and run folder: the
		 * runner keeps no state of its own beyond its arguments. */
		w->rets[r] =
			hil_runner_run(&w->sw->cfgs[r], w->opts, &w->runs[r]);
	}
}

/*
 * Run every configuration, up to jobs at once (each QEMU is one thread, so
 * a sweep on the emulator scales with the cores); the runs and their
 * results land in their own slots, so the tables below are the same
 * whatever the order they finished in.
 */
static void run_all(const struct hil_sweep *sw,
		    const struct hil_runner_opts *opts, unsigned jobs,
		    struct hil_run *runs, int *rets)
{
	struct sweep_work w;
	pthread_t th[HIL_SWEEP_MAX];
	size_t started = 0, i;

	memset(&w, 0, sizeof(w));
	w.sw = sw;
	w.opts = opts;
	w.runs = runs;
	w.rets = rets;
	pthread_mutex_init(&w.mu, NULL);
	if (jobs == 0) {
		long cores = sysconf(_SC_NPROCESSORS_ONLN);

		jobs = cores > 0 ? (unsigned)cores : 1;
	}
	if (jobs > sw->n) {
		jobs = (unsigned)sw->n;
	}
	/* A physical board takes one image at a time: a sweep that uses
	 * one runs its configurations in turn. */
	for (i = 0; i < sw->n && jobs > 1; i++) {
		if (!hil_board_emulated(sw->cfgs[i].board.name)) {
			hil_info(
				"sweep %s: %s runs on a board, not the emulator: one configuration at a time",
				sw->name, sw->cfgs[i].name);
			jobs = 1;
		}
	}
	/* One job: here, in this thread, as before. */
	for (i = 1; i < jobs && i < HIL_SWEEP_MAX; i++) {
		if (pthread_create(&th[started], NULL, sweep_worker, &w) != 0) {
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
	sweep_worker(&w);
	for (i = 0; i < started; i++) {
		pthread_join(th[i], NULL);
	}
	pthread_mutex_destroy(&w.mu);
}

int hil_sweep_run(const struct hil_sweep *sw,
		  const struct hil_runner_opts *opts, unsigned jobs, FILE *out)
{
	struct hil_run *runs = calloc(sw->n, sizeof(*runs));
	int *rets = calloc(sw->n, sizeof(*rets));
	struct hil_config sweep_cfg;
	struct hil_run sweep_run;
	char path[HIL_PATH + 32];
	char *md = NULL;
	size_t md_len = 0;
	FILE *mf = NULL;
	size_t r;
	int ret = HIL_OK, page = 1;

	if (runs == NULL || rets == NULL) {
		free(runs);
		free(rets);
		return HIL_ERR_NOMEM;
	}
	run_all(sw, opts, jobs, runs, rets);
	for (r = 0; r < sw->n; r++) {
		if (rets[r] != HIL_OK && ret == HIL_OK) {
			ret = rets[r];
		}
	}

	/* The sweep's own folder, next to the runs it compares. */
	memset(&sweep_run, 0, sizeof(sweep_run));
	sweep_cfg = sw->cfgs[0];
	snprintf(sweep_cfg.name, sizeof(sweep_cfg.name), "%s", sw->name);
	if (hil_runner_make_run_dir(&sweep_cfg, opts, &sweep_run) == HIL_OK) {
		char *js = sweep_json(sw, runs, rets);

		mf = open_memstream(&md, &md_len);
		if (mf != NULL) {
			write_tables(sw, runs, mf);
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
	return ret;
}
