/* pqrun: a post-quantum run's files (scripts/pq-bench.sh's calls.tsv, rows.tsv, run.tsv, skipped.tsv; on a board with a link, pqlink.c's lines in the same columns) made into rows of the one result model. */
#define _XOPEN_SOURCE  700 /* strtok_r */
#define HIL_LOG_PREFIX "pq"
#include "pqrun.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/board/board.h"
#include "emu/cyclemodel.h"
#include "drivers/board/memsys.h"
#include "result/rowcodec.h"
#include "result/stats.h"
#include "runner_int.h"
#include "util/err.h"
#include "util/log.h"
#include "util/util.h"

#define MAX_FIELDS 32
/* pqm4's flags (mk/pq.mk), beside the optimisation run.tsv names. */
#define PQ_FLAGS                                                               \
	"-mcpu=cortex-m4 -mthumb -mfloat-abi=hard -mfpu=fpv4-sp-d16 "          \
	"-std=gnu99 -g -ffunction-sections -fdata-sections"

/* calls.tsv's columns (scripts/pq-bench.sh). */
enum {
	C_SCHEME,
	C_IMPL,
	C_KIND,
	C_OP,
	C_RUN,
	C_TICKS,
	C_OVH,
	C_CYC,
	C_LO,
	C_HI,
	C_CAL,
	C_STACK,
	C_ATTR,
	C_SHA2,
	C_SHA3,
	C_AES,
	C_DIGEST,
	C_RET,
	C_REF_DIGEST,
	C_REF_RET,
	C_CAP,
	C_IMISS,
	C_DMISS,
	C_ILINES,
	C_DLINES,
	C_N
};

/* rows.tsv's columns. */
enum {
	R_SCHEME,
	R_IMPL,
	R_KIND,
	R_OP,
	R_RUNS,
	R_STACK = 9,
	R_TEXT = 11,
	R_DATA,
	R_BSS,
	R_VERIFIED,
	R_N = 18
};

/* A file's lines, each split at tabs in place. */
struct tsv {
	char *text;
	char *(*f)[MAX_FIELDS];
	size_t *nf;
	size_t n;
	char path[HIL_PATH + 32];
};

static void tsv_free(struct tsv *t)
{
	free(t->text);
	free(t->f);
	free(t->nf);
	memset(t, 0, sizeof(*t));
}

/* dir/name read and split; an empty file has no lines. */
static int tsv_read(const char *dir, const char *name, struct tsv *t)
{
	size_t len = 0, lines = 0, i;
	char *p, *save = NULL;
	int ret;

	memset(t, 0, sizeof(*t));
	snprintf(t->path, sizeof(t->path), "%s/%s", dir, name);
	ret = hil_read_file(t->path, &t->text, &len);
	if (ret != HIL_OK) {
		hil_err("%s: cannot read it (%s)", t->path, hil_strerror(ret));
		return HIL_ERR_IO;
	}
	for (i = 0; i < len; i++) {
		lines += t->text[i] == '\n';
	}
	t->f = calloc(lines + 1, sizeof(*t->f));
	t->nf = calloc(lines + 1, sizeof(*t->nf));
	if (t->f == NULL || t->nf == NULL) {
		tsv_free(t);
		return HIL_ERR_NOMEM;
	}
	for (p = strtok_r(t->text, "\n", &save); p != NULL;
	     p = strtok_r(NULL, "\n", &save)) {
		char *q = p;
		size_t k = 0;

		while (k < MAX_FIELDS) {
			char *tab = strchr(q, '\t');

			t->f[t->n][k++] = q;
			if (tab == NULL) {
				break;
			}
			*tab = '\0';
			q = tab + 1;
		}
		t->nf[t->n++] = k;
	}
	return HIL_OK;
}

/* A number of a line's field; 0 and a message when it is not one. */
static int num(const struct tsv *t, size_t line, size_t col, double *v)
{
	char *end = NULL;

	*v = strtod(t->f[line][col], &end);
	if (end == t->f[line][col] || *end != '\0') {
		hil_err("%s: line %zu, column %zu: \"%s\" is not a number",
			t->path, line + 1, col + 1, t->f[line][col]);
		return 0;
	}
	return 1;
}

/* FNV-1a of v's four bytes, little-endian, onto d. */
static uint32_t fold(uint32_t d, uint32_t v)
{
	int i;

	for (i = 0; i < 4; i++) {
		d = (d ^ ((v >> (8 * i)) & 0xffu)) * 0x01000193u;
	}
	return d;
}

/* value of key in run.tsv, or dflt. */
static const char *meta(const struct tsv *m, const char *key, const char *dflt)
{
	size_t i;

	for (i = 0; i < m->n; i++) {
		if (m->nf[i] == 2 && strcmp(m->f[i][0], key) == 0) {
			return m->f[i][1];
		}
	}
	return dflt;
}

/* The sum of key's values in run.tsv: each attempt of a resumed run
 * appends its own session counters. */
static unsigned long long meta_sum(const struct tsv *m, const char *key)
{
	unsigned long long sum = 0;
	size_t i;

	for (i = 0; i < m->n; i++) {
		if (m->nf[i] == 2 && strcmp(m->f[i][0], key) == 0) {
			sum += strtoull(m->f[i][1], NULL, 10);
		}
	}
	return sum;
}

/* The folder of scheme/impl among the folders given (its last two path
 * parts), or "". */
static const char *folder_of(const char *const *folders, size_t n,
			     const char *scheme, const char *impl)
{
	char tail[2 * HIL_CFG_NAME + 2];
	size_t i, lt;

	snprintf(tail, sizeof(tail), "/%s/%s", scheme, impl);
	lt = strlen(tail);
	for (i = 0; folders != NULL && i < n; i++) {
		const char *f = folders[i];
		size_t lf = strlen(f);

		while (lf > 0 && f[lf - 1] == '/') {
			lf--;
		}
		if (lf >= lt && strncmp(f + lf - lt, tail, lt) == 0) {
			return f;
		}
	}
	return "";
}

/*
 * The image scheme/impl was measured on (build/SCHEME_IMPL/fw/stub.elf, as
 * pq-bench.sh names it) as one of the run's images: its build-id, SHA-256
 * and sizes; the run's own are the last image's. Nothing when it cannot be
 * read (a build folder of another machine): its rows have no build-id.
 */
static void add_image(const char *build, const char *scheme, const char *impl,
		      struct hil_run *run)
{
	struct hil_run_image *im;
	char sym[2 * HIL_CFG_NAME + 2], *p;

	if (build[0] == '\0') {
		return;
	}
	snprintf(sym, sizeof(sym), "%s/%s", scheme, impl);
	for (p = sym; *p != '\0'; p++) {
		if (strchr("/.+-", *p) != NULL) {
			*p = '_';
		}
	}
	snprintf(run->fw.elf, sizeof(run->fw.elf), "%s/%s/fw/stub.elf", build,
		 sym);
	/* The image's identity as hilrun run records its own: the run's
	 * fields are the last image's. */
	if (hil_rn_elf_identity(run->fw.elf, run) != HIL_OK) {
		hil_warn("%s: cannot be read: the rows of %s/%s have no "
			 "build-id",
			 run->fw.elf, scheme, impl);
		run->fw.elf[0] = '\0';
		return;
	}
	snprintf(sym, sizeof(sym), "%s/%s", scheme, impl);
	im = hil_run_add_image(run, sym);
	if (im == NULL) {
		hil_warn("out of memory: the rows of %s/%s have no build-id",
			 scheme, impl);
		return;
	}
	snprintf(im->build_id, sizeof(im->build_id), "%s", run->build_id);
	snprintf(im->elf_sha256, sizeof(im->elf_sha256), "%s", run->elf_sha256);
	im->sizes = run->sizes;
}

/* cfg's entry of scheme/impl, added when new (with its size and image);
 * 0 when out of memory, else 1. */
static int add_scheme(struct hil_config *cfg, struct hil_run *run,
		      const char *const *folders, size_t n, char *const *f,
		      const char *build)
{
	struct hil_impl_size *z;
	struct hil_config_alg *a;
	char one[2 * HIL_CFG_NAME + 2];
	size_t i;

	for (i = 0; i < cfg->n_algs; i++) {
		if (strcmp(cfg->algs[i].name, f[R_SCHEME]) == 0 &&
		    strcmp(cfg->algs[i].impl, f[R_IMPL]) == 0) {
			return 1;
		}
	}
	if (hil_config_add_alg(cfg, &a) != HIL_OK) {
		return 0;
	}
	z = hil_run_add_impl_size(run);
	if (z == NULL) {
		cfg->n_algs--;
		return 0;
	}
	snprintf(a->name, sizeof(a->name), "%s", f[R_SCHEME]);
	snprintf(a->impl, sizeof(a->impl), "%s", f[R_IMPL]);
	snprintf(a->path, sizeof(a->path), "%s",
		 folder_of(folders, n, f[R_SCHEME], f[R_IMPL]));
	a->entry = (unsigned)i;
	snprintf(z->algorithm, sizeof(z->algorithm), "%s", f[R_SCHEME]);
	snprintf(z->implementation, sizeof(z->implementation), "%s", f[R_IMPL]);
	z->text = strtoul(f[R_TEXT], NULL, 10);
	z->data = strtoul(f[R_DATA], NULL, 10);
	z->bss = strtoul(f[R_BSS], NULL, 10);
	snprintf(one, sizeof(one), "%s/%s", f[R_SCHEME], f[R_IMPL]);
	if (hil_str_append(&run->fw.algs, " ", one) != HIL_OK) {
		return 0;
	}
	add_image(build, f[R_SCHEME], f[R_IMPL], run);
	return 1;
}

/* The verification text of rows.tsv into the row's states. */
static void verdict(struct hil_row *r, const char *text)
{
	snprintf(r->pq.verification, sizeof(r->pq.verification), "%s", text);
	if (strncmp(text, "ok ", 3) == 0) {
		r->ok = 1;
		r->verified = 1;
		snprintf(r->verified_by, sizeof(r->verified_by), "host build");
	} else if (strncmp(text, "FAILED", 6) == 0) {
		r->ok = 0;
		snprintf(r->error, sizeof(r->error), "%s", text);
		snprintf(r->verified_by, sizeof(r->verified_by), "%s",
			 strstr(text, "host build") != NULL
				 ? "host build"
				 : "none (unverified)");
	} else {
		r->ok = 1;
		snprintf(r->verified_by, sizeof(r->verified_by),
			 "none (unverified)");
	}
}

/* The median of n values (hil_stats); 0 when there are none. */
static double median_of(const double *v, size_t n)
{
	struct hil_stats s;

	return n > 0 && hil_stats_compute(v, n, &s) == HIL_OK ? s.median : 0;
}

/* The row of rows.tsv line li, from its calls in calls.tsv. */
static int make_row(const struct tsv *rows, size_t li, const struct tsv *calls,
		    uint32_t seed, const char *rng, struct hil_run *run)
{
	char *const *f = rows->f[li];
	struct hil_row *r;
	double *lo = NULL, *hi = NULL;
	double raw = 0, sha2 = 0, sha3 = 0, aes = 0, runs;
	uint32_t got = 0x811C9DC5u, want = 0x811C9DC5u;
	int have_ref = 1, model = 1, ret = HIL_ERR_ARG;
	size_t i, k = 0;

	if (!num(rows, li, R_RUNS, &runs) || runs < 1 || runs > 1e6) {
		return HIL_ERR_ARG;
	}
	if (strlen(f[R_SCHEME]) >= HIL_ROW_NAME ||
	    strlen(f[R_IMPL]) >= HIL_ROW_NAME) {
		hil_err("%s: line %zu: %s/%s: a name of more than %d "
			"characters",
			rows->path, li + 1, f[R_SCHEME], f[R_IMPL],
			HIL_ROW_NAME - 1);
		return HIL_ERR_ARG;
	}
	r = hil_run_add_row(run);
	if (r == NULL) {
		return HIL_ERR_NOMEM;
	}
	snprintf(r->algorithm, sizeof(r->algorithm), "%s", f[R_SCHEME]);
	snprintf(r->implementation, sizeof(r->implementation), "%s", f[R_IMPL]);
	r->operation = hil_result_op(f[R_OP]);
	if (r->operation == NULL) {
		hil_err("%s: line %zu: \"%s\" is not an operation", rows->path,
			li + 1, f[R_OP]);
		return HIL_ERR_ARG;
	}
	r->pq.present = 1;
	snprintf(r->pq.kind, sizeof(r->pq.kind), "%s",
		 strcmp(f[R_KIND], "KEM") == 0 ? "kem" : "sign");
	snprintf(r->pq.rng, sizeof(r->pq.rng), "%s", rng);
	r->mode = hil_result_pq_mode(r->pq.kind);
	r->constant_time = -1;
	r->msg_len = strcmp(r->pq.kind, "sign") == 0 &&
				     (strcmp(f[R_OP], "sign") == 0 ||
				      strcmp(f[R_OP], "verify") == 0)
			     ? HIL_PQ_MLEN
			     : 0;
	r->runs = (uint32_t)runs;
	r->seed = seed;
	r->pq.text = (uint32_t)strtoul(f[R_TEXT], NULL, 10);
	r->pq.data = (uint32_t)strtoul(f[R_DATA], NULL, 10);
	r->pq.bss = (uint32_t)strtoul(f[R_BSS], NULL, 10);
	verdict(r, f[R_VERIFIED]);
	r->samples = calloc(r->runs, sizeof(double));
	r->model.samples = calloc(r->runs, sizeof(double));
	lo = calloc(r->runs, sizeof(double));
	hi = calloc(r->runs, sizeof(double));
	if (r->samples == NULL || r->model.samples == NULL || lo == NULL ||
	    hi == NULL) {
		ret = HIL_ERR_NOMEM;
		goto out;
	}
	for (i = 0; i < calls->n; i++) {
		char *const *c = calls->f[i];
		double v[C_N];
		size_t j;

		if (calls->nf[i] != C_N) {
			hil_err("%s: line %zu has %zu columns, not %d",
				calls->path, i + 1, calls->nf[i], C_N);
			goto out;
		}
		if (strcmp(c[C_SCHEME], f[R_SCHEME]) != 0 ||
		    strcmp(c[C_IMPL], f[R_IMPL]) != 0 ||
		    strcmp(c[C_OP], f[R_OP]) != 0) {
			continue;
		}
		/* A board run over its link (pqlink.c) has no cycle model:
		 * its model columns are "-". */
		model = strcmp(c[C_CYC], "-") != 0;
		for (j = C_RUN; j < C_N; j++) {
			if (j == C_DIGEST || j == C_REF_DIGEST ||
			    j == C_REF_RET) {
				continue;
			}
			if (!model &&
			    ((j >= C_CYC && j <= C_CAL) ||
			     (j >= C_ATTR && j <= C_AES) || j >= C_IMISS)) {
				v[j] = 0;
				continue;
			}
			if (!num(calls, i, j, &v[j])) {
				goto out;
			}
		}
		if (k == r->runs) {
			hil_err("%s: more calls of %s/%s %s than the %u runs "
				"rows.tsv says",
				calls->path, f[R_SCHEME], f[R_IMPL], f[R_OP],
				(unsigned)r->runs);
			goto out;
		}
		r->samples[k] = v[C_TICKS] - v[C_OVH];
		r->model.samples[k] = v[C_CYC] - v[C_CAL];
		lo[k] = v[C_LO] - v[C_CAL];
		hi[k] = v[C_HI] - v[C_CAL];
		r->overhead = (uint32_t)v[C_OVH];
		r->model.overhead = v[C_CAL];
		if (!r->stack_known || v[C_STACK] > r->stack_bytes) {
			r->stack_bytes = (uint32_t)v[C_STACK];
		}
		r->stack_known = 1;
		r->pq.stack_capacity = (uint32_t)v[C_CAP];
		/* The memory system in the last timed run, as other rows. */
		r->model.imiss = (uint64_t)v[C_IMISS];
		r->model.dmiss = (uint64_t)v[C_DMISS];
		r->model.ilines = (uint64_t)v[C_ILINES];
		r->model.dlines = (uint64_t)v[C_DLINES];
		raw += v[C_CYC];
		sha2 += v[C_SHA2];
		sha3 += v[C_SHA3];
		aes += v[C_AES];
		got = fold(fold(got, (uint32_t)strtoul(c[C_DIGEST], NULL, 16)),
			   (uint32_t)v[C_RET]);
		/* The scheme's own answer: a call that failed (99: the
		 * stub's check, decapsulation or opening disagreed) fails
		 * the row, host build or not. */
		if (v[C_RET] != 0 && r->ok) {
			r->ok = 0;
			snprintf(r->error, sizeof(r->error),
				 "run %.0f: the call returned %.0f%s", v[C_RUN],
				 v[C_RET],
				 v[C_RET] == 99
					 ? " (decapsulation gave another "
					   "secret, or the opened message is "
					   "not the one signed)"
					 : "");
		}
		if (strcmp(c[C_REF_DIGEST], "-") == 0) {
			have_ref = 0;
		} else {
			want = fold(
				fold(want, (uint32_t)strtoul(c[C_REF_DIGEST],
							     NULL, 16)),
				(uint32_t)strtoul(c[C_REF_RET], NULL, 10));
		}
		k++;
	}
	if (k != r->runs) {
		hil_err("%s: %zu calls of %s/%s %s, rows.tsv says %u",
			calls->path, k, f[R_SCHEME], f[R_IMPL], f[R_OP],
			(unsigned)r->runs);
		goto out;
	}
	/* Shares of the operation's cycles as the model counted them (the
	 * bracket's own cycles included, as pqm4's profile counts). */
	if (raw > 0) {
		r->pq.sha2_pct = 100.0 * sha2 / raw;
		r->pq.sha3_pct = 100.0 * sha3 / raw;
		r->pq.aes_pct = 100.0 * aes / raw;
	}
	/* The digests over every run: the host build's, or (no host build)
	 * the target's own. */
	r->digest_got = got;
	r->digest_expected = have_ref ? want : got;
	if (!model) {
		/* No estimate: the counter's figures are the row's. */
		free(r->model.samples);
		r->model.samples = NULL;
		if (hil_stats_compute(r->samples, r->runs, &r->stats) !=
		    HIL_OK) {
			hil_err("%s: %s/%s %s: the samples are not numbers",
				calls->path, f[R_SCHEME], f[R_IMPL], f[R_OP]);
			goto out;
		}
		ret = HIL_OK;
		goto out;
	}
	if (hil_stats_compute(r->samples, r->runs, &r->stats) != HIL_OK ||
	    hil_stats_compute(r->model.samples, r->runs, &r->model.stats) !=
		    HIL_OK) {
		hil_err("%s: %s/%s %s: the samples are not numbers",
			calls->path, f[R_SCHEME], f[R_IMPL], f[R_OP]);
		goto out;
	}
	r->model.lo_median = median_of(lo, r->runs);
	r->model.hi_median = median_of(hi, r->runs);
	r->model.ok = 1;
	ret = HIL_OK;
out:
	free(lo);
	free(hi);
	return ret;
}

/* The run's own fields: board, clock, model, build, from run.tsv. */
static void describe(const struct tsv *m, const char *dir,
		     struct hil_config *cfg, struct hil_run *run)
{
	const char *profile = meta(m, "profile", "");
	const struct cm4_memsys *p = cm4_memsys_find(profile);
	const char *slash = strrchr(dir, '/');
	const struct hil_board_driver *b;

	snprintf(run->id, sizeof(run->id), "%s",
		 slash != NULL ? slash + 1 : dir);
	snprintf(run->dir, sizeof(run->dir), "%s", dir);
	snprintf(cfg->name, sizeof(cfg->name), "pq");
	snprintf(cfg->board.name, sizeof(cfg->board.name), "%s",
		 meta(m, "board", ""));
	/* The profile's clock: pqm4's benchmark setting (24 MHz, 0 WS). */
	cfg->board.clock_hz = 24000000u;
	/* The board's own flasher and link (the pq stub starts as any image
	 * of the board and prints through its first link). */
	b = hil_board_find(cfg->board.name);
	snprintf(cfg->flasher.type, sizeof(cfg->flasher.type), "%s",
		 b != NULL && b->flashers != NULL && b->flashers[0] != NULL
			 ? b->flashers[0]
			 : "");
	snprintf(cfg->link.type, sizeof(cfg->link.type), "%s",
		 b != NULL && b->links != NULL && b->links[0] != NULL
			 ? b->links[0]
			 : "");
	snprintf(cfg->build.cflags[0], sizeof(cfg->build.cflags[0]), "%s",
		 meta(m, "opt", "-O3"));
	cfg->build.n_cflags = 1;
	cfg->bench.seed = (uint32_t)strtoul(meta(m, "seed", "1"), NULL, 10);
	cfg->bench.runs = (uint32_t)strtoul(meta(m, "runs", "0"), NULL, 10);
	snprintf(run->fw.compiler, sizeof(run->fw.compiler), "%s",
		 meta(m, "compiler", ""));
	snprintf(run->fw.all_flags, sizeof(run->fw.all_flags), "%s %s",
		 meta(m, "opt", "-O3"), PQ_FLAGS);
	snprintf(run->fw.dir, sizeof(run->fw.dir), "%s (common code: %s)",
		 meta(m, "build", "build/pq"), meta(m, "common", ""));
	if (profile[0] == '\0') {
		/* A board run over its link (pqlink.c): what the stub's INFO
		 * said of its counter and clock, and no cycle model. */
		cfg->board.clock_hz =
			(uint32_t)strtoul(meta(m, "clock_hz", "0"), NULL, 10);
		run->info.flags =
			(uint8_t)strtoul(meta(m, "flags", "0"), NULL, 10);
		run->info.counter_unit =
			(uint8_t)strtoul(meta(m, "unit", "0"), NULL, 10);
		run->info.counter_hz =
			(uint32_t)strtoul(meta(m, "counter_hz", "0"), NULL, 10);
		run->info.flash_acr =
			(uint32_t)strtoul(meta(m, "flash_acr", "0"), NULL, 10);
		run->info.clock_hz = cfg->board.clock_hz;
		snprintf(run->info.board, sizeof(run->info.board), "%s",
			 meta(m, "stub_board", "pqstub"));
		snprintf(cfg->flasher.type, sizeof(cfg->flasher.type), "%s",
			 meta(m, "flasher", cfg->flasher.type));
		snprintf(cfg->link.type, sizeof(cfg->link.type), "%s",
			 meta(m, "link", cfg->link.type));
		/* The link's counters over every image (pqlink.c), of every
		 * attempt of a resumed run. */
		run->requests = (unsigned)meta_sum(m, "requests");
		run->retries = (unsigned)meta_sum(m, "retries");
		run->bad_frames = (unsigned)meta_sum(m, "bad_frames");
		run->timeouts = (unsigned)meta_sum(m, "timeouts");
		run->bytes_tx = meta_sum(m, "bytes_tx");
		run->bytes_rx = meta_sum(m, "bytes_rx");
		snprintf(run->sensor.type, sizeof(run->sensor.type), "none");
		snprintf(run->sensor.why, sizeof(run->sensor.why),
			 (run->info.flags & HILP_INFO_EMULATED) != 0
				 ? "an emulated board: no current to measure"
				 : "hilrun pq measures no energy");
		return;
	}
	run->info.flags = HILP_INFO_EMULATED;
	run->info.counter_unit = HILP_UNIT_INSTRUCTIONS_EMU;
	run->info.clock_hz = cfg->board.clock_hz;
	snprintf(run->info.board, sizeof(run->info.board), "pqstub");
	run->model.enabled = 1;
	snprintf(run->model.profile, sizeof(run->model.profile), "%s", profile);
	run->model.ws = p != NULL ? p->ws : 0;
	run->model.art = 1; /* the plugin's default: the profile's caches */
	hil_cyclemodel_unit(profile[0] != '\0' ? profile : NULL, run->model.ws,
			    run->model.art, run->model.unit,
			    sizeof(run->model.unit));
	snprintf(run->model.file, sizeof(run->model.file),
		 "%s/SCHEME_IMPL/model.txt", meta(m, "build", "build/pq"));
	snprintf(run->sensor.type, sizeof(run->sensor.type), "none");
	snprintf(run->sensor.why, sizeof(run->sensor.why),
		 "an emulated board: no current to measure");
}

int hil_pq_collect(const char *dir, const char *const *folders, size_t n,
		   struct hil_config *cfg, struct hil_run *run)
{
	struct tsv m, rows, calls, skipped;
	const char *rng = "splitmix64";
	uint32_t seed;
	size_t i;
	int ret;

	memset(&rows, 0, sizeof(rows));
	memset(&calls, 0, sizeof(calls));
	memset(&skipped, 0, sizeof(skipped));
	ret = tsv_read(dir, "run.tsv", &m);
	if (ret == HIL_OK) {
		ret = tsv_read(dir, "rows.tsv", &rows);
	}
	if (ret == HIL_OK) {
		ret = tsv_read(dir, "calls.tsv", &calls);
	}
	if (ret == HIL_OK) {
		ret = tsv_read(dir, "skipped.tsv", &skipped);
	}
	if (ret != HIL_OK) {
		goto out;
	}
	run->cfg = cfg;
	describe(&m, dir, cfg, run);
	seed = cfg->bench.seed;
	for (i = 0; ret == HIL_OK && i < rows.n; i++) {
		if (rows.nf[i] != R_N) {
			hil_err("%s: line %zu has %zu columns, not %d",
				rows.path, i + 1, rows.nf[i], R_N);
			ret = HIL_ERR_ARG;
			break;
		}
		if (!add_scheme(cfg, run, folders, n, rows.f[i],
				meta(&m, "build", ""))) {
			hil_err("%s: out of memory at line %zu", rows.path,
				i + 1);
			ret = HIL_ERR_NOMEM;
			break;
		}
		ret = make_row(&rows, i, &calls, seed, rng, run);
		if (ret == HIL_OK && run->n_images > 0) {
			const struct hil_run_image *im =
				&run->images[run->n_images - 1];
			struct hil_row *r = &run->rows[run->n_rows - 1];
			char key[2 * HIL_ROW_NAME + 2];

			snprintf(key, sizeof(key), "%s/%s", r->algorithm,
				 r->implementation);
			if (strcmp(im->algs, key) == 0) {
				snprintf(r->build_id, sizeof(r->build_id), "%s",
					 im->build_id);
			}
		}
	}
	for (i = 0; ret == HIL_OK && i < skipped.n; i++) {
		struct hil_config_skipped *s;

		if (hil_config_add_skipped(cfg, &s) != HIL_OK) {
			ret = HIL_ERR_NOMEM;
			break;
		}
		if (skipped.nf[i] != 3) {
			hil_err("%s: line %zu has %zu columns, not 3",
				skipped.path, i + 1, skipped.nf[i]);
			ret = HIL_ERR_ARG;
			break;
		}
		snprintf(s->name, sizeof(s->name), "%s", skipped.f[i][0]);
		snprintf(s->impl, sizeof(s->impl), "%s", skipped.f[i][1]);
		snprintf(s->why, sizeof(s->why), "%s", skipped.f[i][2]);
	}
	run->rows_planned = run->n_rows;
	run->status = "complete";
	hil_utc_iso(run->finished, sizeof(run->finished));
out:
	tsv_free(&m);
	tsv_free(&rows);
	tsv_free(&calls);
	tsv_free(&skipped);
	return ret;
}

void hil_pq_provenance(const char *root, struct hil_run *run)
{
	/* The same steps as hilrun run's (runner_image.c). */
	hil_rn_git_provenance(root, run);
	hil_rn_host_provenance(run);
}
