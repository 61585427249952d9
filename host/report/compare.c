/* compare: two reports side by side per row, with a regression verdict. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"compare"
#include "render_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/modelchange.h"
#include "result/headcodec.h"
#include "result/rowview.h"
#include "util/err.h"
#include "util/log.h"

void hil_thresholds_default(struct hil_thresholds *t)
{
	t->instructions = 0; /* QEMU's count does not vary between runs */
	t->cycles = 2;	     /* DWT CYCCNT on a board: a little jitter */
	/* A model applied to a deterministic count, but the estimate of the
	 * same code moves with where the linker puts it (flash lines, cache
	 * sets): chacha20-poly1305 measured alone came out 0.1 % off the
	 * full run's (issue 31). 0.5 %: that placement noise never trips. */
	t->estimated = 0.5;
	t->ns = 10;	/* host clock: scheduler noise */
	t->energy = 10; /* sensor windows: noise */
	t->flash = -1;	/* sizes change with flags by design: asked for */
	t->stack = -1;
	t->fail_missing = 0;
}

int hil_thresholds_parse(struct hil_thresholds *t, const char *spec)
{
	static const struct {
		const char *name;
		size_t off;
	} metrics[] = {
		{"instructions", offsetof(struct hil_thresholds, instructions)},
		{"cycles", offsetof(struct hil_thresholds, cycles)},
		{"estimated", offsetof(struct hil_thresholds, estimated)},
		{"ns", offsetof(struct hil_thresholds, ns)},
		{"energy", offsetof(struct hil_thresholds, energy)},
		{"flash", offsetof(struct hil_thresholds, flash)},
		{"stack", offsetof(struct hil_thresholds, stack)},
	};
	const char *eq = strchr(spec, '=');
	char *end = NULL;
	double pct;
	size_t i;

	if (eq == NULL) {
		hil_err("threshold \"%s\": expected METRIC=PERCENT, e.g. cycles=2",
			spec);
		return HIL_ERR_ARG;
	}
	pct = strtod(eq + 1, &end);
	if (end == eq + 1 || (*end != '\0' && strcmp(end, "%") != 0) ||
	    !isfinite(pct) || pct < 0) {
		hil_err("threshold \"%s\": the percentage must be a number >= 0",
			spec);
		return HIL_ERR_ARG;
	}
	for (i = 0; i < sizeof(metrics) / sizeof(metrics[0]); i++) {
		if (strlen(metrics[i].name) == (size_t)(eq - spec) &&
		    strncmp(spec, metrics[i].name, (size_t)(eq - spec)) == 0) {
			*(double *)((char *)t + metrics[i].off) = pct;
			return HIL_OK;
		}
	}
	hil_err("threshold \"%s\": unknown metric (instructions, cycles, estimated, ns, energy, flash or stack)",
		spec);
	return HIL_ERR_ARG;
}

/* The threshold for a counter unit, and the name it is configured by. */
static double unit_threshold(const struct hil_thresholds *t, const char *unit,
			     const char **metric)
{
	if (strncmp(unit, "instructions", 12) == 0) {
		*metric = "instructions";
		return t->instructions;
	}
	if (strncmp(unit, "cycles (estimated", 17) == 0) {
		*metric = "estimated";
		return t->estimated;
	}
	if (strcmp(unit, "cycles") == 0) {
		*metric = "cycles";
		return t->cycles;
	}
	if (strncmp(unit, "ns", 2) == 0) {
		*metric = "ns";
		return t->ns;
	}
	/* An unknown counter: the strictest hardware threshold. */
	*metric = "cycles";
	return t->cycles;
}

const char *hil_cmp_unit(const cJSON *report)
{
	return hil_rj_unit(report);
}

const char *hil_cmp_unit_metric(const cJSON *report)
{
	const char *metric;
	struct hil_thresholds t;

	hil_thresholds_default(&t);
	(void)unit_threshold(&t, hil_rj_unit(report), &metric);
	return metric;
}

/* The cycle model's median of a row, when the model ran for it. */
static int row_model(const struct hil_row_view *v, double *median)
{
	*median = v->model.median;
	return v->has_model && hil_row_view_has(v, &v->model.median);
}

/* The sensor's (or the estimate's) energy of a row: 1 and *uj, else 0. */
static int row_energy(const struct hil_row_view *v, double *uj)
{
	*uj = v->row.energy.uj_per_op;
	return hil_row_view_has(v, &v->row.energy.uj_per_op);
}

/* The cycle-model section of a report, or NULL when the model was off. */
static const cJSON *model_of(const cJSON *report)
{
	const cJSON *m =
		cJSON_GetObjectItemCaseSensitive(report, "cycle_model");

	return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(m, "enabled"))
		       ? m
		       : NULL;
}

int hil_cmp_same_model(const cJSON *base, const cJSON *newer)
{
	const cJSON *a = model_of(base), *b = model_of(newer);
	double wa = -1, wb = -1;

	if (a == NULL || b == NULL) {
		return 1;
	}
	hil_rj_num(a, "wait_states", &wa);
	hil_rj_num(b, "wait_states", &wb);
	return strcmp(hil_rj_str(a, "unit"), hil_rj_str(b, "unit")) == 0 &&
	       strcmp(hil_rj_str(a, "profile"), hil_rj_str(b, "profile")) ==
		       0 &&
	       wa == wb && hil_rj_bool(a, "art") == hil_rj_bool(b, "art");
}

/* build.cflags joined by spaces ("(none)" when empty). */
static void cflags_of(const cJSON *report, char *buf, size_t len)
{
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(report, "build"), "cflags");
	const cJSON *it;
	size_t used = 0;

	buf[0] = '\0';
	cJSON_ArrayForEach(it, f)
	{
		if (cJSON_IsString(it) && used < len) {
			int n = snprintf(buf + used, len - used, "%s%s",
					 used > 0 ? " " : "", it->valuestring);

			used += n > 0 ? (size_t)n : 0;
		}
	}
	if (buf[0] == '\0') {
		snprintf(buf, len, "%s", "(none)");
	}
}

void hil_cmp_provenance(const cJSON *report, char *buf, size_t len)
{
	/* The report-level fields through result/'s codec tables. */
	struct hil_result_head *h = malloc(sizeof(*h));
	char flags[512], raw[1400];

	if (h == NULL) {
		snprintf(buf, len, "(out of memory)");
		return;
	}
	hil_result_head_read(report, h);
	cflags_of(report, flags, sizeof(flags));
	snprintf(raw, sizeof(raw), "%s (%s, %s), board %s, flags %s, model %s",
		 h->run.id, h->run.config_name, h->run.status, h->board.name,
		 flags, h->cycle_model.enabled ? h->cycle_model.unit : "off");
	hil_text_noctl(buf, len, raw);
	free(h);
}

/* Does some row of report have the figure metric names? */
static int report_has(const cJSON *report, const char *metric)
{
	struct hil_row_view *rows = NULL;
	size_t n = 0, i;
	double v;
	int has = 0;

	if (strcmp(metric, hil_cmp_unit_metric(report)) == 0) {
		return 1;
	}
	/* Out of memory: no row, so no figure. */
	hil_row_views_read(hil_rj_rows(report), &rows, &n);
	for (i = 0; i < n && !has; i++) {
		const struct hil_row_view *r = &rows[i];

		has = (strcmp(metric, "estimated") == 0 && row_model(r, &v)) ||
		      (strcmp(metric, "energy") == 0 && row_energy(r, &v)) ||
		      (strcmp(metric, "stack") == 0 &&
		       hil_row_view_has(r, &r->row.stack_bytes)) ||
		      (strcmp(metric, "flash") == 0 &&
		       hil_rj_impl_size(report, r->algorithm,
					r->implementation) != NULL);
	}
	free(rows);
	return has;
}

int hil_cmp_metric_applies(const cJSON *base, const cJSON *newer,
			   const char *metric)
{
	/* Estimates of two memory systems are two quantities. */
	if (strcmp(metric, "estimated") == 0 &&
	    !hil_cmp_same_model(base, newer)) {
		return 0;
	}
	return report_has(base, metric) && report_has(newer, metric);
}

/* A length of a row as a figure: 0 when the report lacks it. */
static double len_of(const struct hil_row_view *v, const uint32_t *len)
{
	return hil_row_view_has(v, len) ? (double)*len : 0;
}

static int same_key(const struct hil_row_view *a, const struct hil_row_view *b)
{
	return strcmp(a->algorithm, b->algorithm) == 0 &&
	       strcmp(a->implementation, b->implementation) == 0 &&
	       strcmp(a->operation, b->operation) == 0 &&
	       hil_row_view_has(a, &a->row.msg_len) &&
	       hil_row_view_has(b, &b->row.msg_len) &&
	       a->row.msg_len == b->row.msg_len &&
	       hil_row_view_has(a, &a->row.ad_len) &&
	       hil_row_view_has(b, &b->row.ad_len) &&
	       a->row.ad_len == b->row.ad_len;
}

static const struct hil_row_view *find_row(const struct hil_row_view *rows,
					   size_t n,
					   const struct hil_row_view *key)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (same_key(&rows[i], key)) {
			return &rows[i];
		}
	}
	return NULL;
}

/* A report with two rows of one key: which one a comparison took would be
 * chance. Logged with the row and the run. */
static int check_unique(const struct hil_row_view *rows, size_t n,
			const char *which)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		const struct hil_row_view *r = &rows[i];

		for (j = i + 1; j < n; j++) {
			char key[900], safe[1000];

			if (!same_key(r, &rows[j])) {
				continue;
			}
			snprintf(key, sizeof(key), "%s/%s %s msg %.0f ad %.0f",
				 r->algorithm, r->implementation, r->operation,
				 len_of(r, &r->row.msg_len),
				 len_of(r, &r->row.ad_len));
			hil_err("cannot compare: the %s report has two rows for %s; a report from hilrun has one row per key (edited or merged by hand?)",
				which, hil_text_noctl(safe, sizeof(safe), key));
			return HIL_ERR_ARG;
		}
	}
	return HIL_OK;
}

static enum hil_verdict judge(double base, double cur, double pct)
{
	/* Relative slack for binary fractions; counts are whole numbers. */
	double eps = 1e-9 * fabs(base);

	if (cur > base * (1 + pct / 100) + eps) {
		return HIL_WORSE;
	}
	if (cur < base * (1 - pct / 100) - eps) {
		return HIL_BETTER;
	}
	return HIL_SAME;
}

static struct hil_cmp_entry *entry(struct hil_cmp *c,
				   const struct hil_row_view *row,
				   const char *metric, const char *unit)
{
	struct hil_cmp_entry *e = &c->e[c->n++];

	memset(e, 0, sizeof(*e));
	e->algorithm = row->algorithm;
	e->implementation = row->implementation;
	e->operation = row->operation;
	e->msg_len = len_of(row, &row->row.msg_len);
	e->ad_len = len_of(row, &row->row.ad_len);
	e->metric = metric;
	e->unit = unit;
	e->note = "";
	e->err_base = e->err_new = -1;
	return e;
}

static const char *row_error(const struct hil_row_view *row)
{
	return row->error[0] != '\0' ? row->error : "the row failed";
}

/* One more figure (e, made by entry()): base ub, new un, judged at pct. */
static void set_figure(struct hil_cmp_entry *e, double ub, double un,
		       double pct)
{
	e->threshold = pct;
	e->have_base = e->have_new = 1;
	e->base = ub;
	e->cur = un;
	e->ratio = ub != 0 ? un / ub : 0;
	e->verdict = judge(ub, un, pct);
}

/*
 * How a row's energy was obtained. Reports older than the estimate have
 * only "measured" and "model"; anything else (none) reads as it says.
 */
static const char *energy_kind(const struct hil_row_view *row)
{
	return row->energy_kind[0] != '\0' ? row->energy_kind : "measured";
}

/* The datasheet table a row's estimate comes from, or "". */
static const char *est_table(const struct hil_row_view *row)
{
	return row->est_beside || hil_row_view_has(row, &row->est.uj_per_op)
		       ? row->est.table
		       : "";
}

/* The table of a report's first estimated row (rows, n of them), or "". */
static const char *report_table(const struct hil_row_view *rows, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (est_table(&rows[i])[0] != '\0') {
			return est_table(&rows[i]);
		}
	}
	return "";
}

/* An estimate's error bar as its report gives it, or -1. */
static double error_bar(const struct hil_row_view *v)
{
	return hil_row_view_has(v, &v->model.error_pct) &&
			       v->model.error_pct >= 0
		       ? v->model.error_pct
		       : -1;
}

/*
 * A "model" entry's error bars, and whether its change is within them
 * (docs/cycle-model.md, "Comparing two estimates"): the verdict stands,
 * for the model is deterministic and the change is the code's; what the
 * error bars say is that the board may not show it.
 */
static void model_error_of(struct hil_cmp_entry *e,
			   const struct hil_row_view *b,
			   const struct hil_row_view *n)
{
	e->err_base = error_bar(b);
	e->err_new = error_bar(n);
	e->within_error =
		(e->verdict == HIL_WORSE || e->verdict == HIL_BETTER) &&
		e->base != 0 &&
		hil_model_change_within_error((e->ratio - 1) * 100, e->err_base,
					      e->err_new);
}

/* Counts energy pairs left out because their kinds differ. */
struct kind_skip {
	size_t n;
	const char *base_kind, *new_kind; /* of the first one */
};

static void compare_pair(struct hil_cmp *c, const struct hil_row_view *b,
			 const struct hil_row_view *n, const char *unit,
			 double pct, double energy_pct, double est_pct,
			 double stack_pct, int same_model,
			 struct kind_skip *skip)
{
	struct hil_cmp_entry *e = entry(c, n, "median", unit);
	int bok = strcmp(b->status, "ok") == 0;
	int nok = strcmp(n->status, "ok") == 0;

	e->threshold = pct;
	e->have_base = bok && hil_row_view_has(b, &b->median);
	e->base = e->have_base ? b->median : 0;
	e->have_new = nok && hil_row_view_has(n, &n->median);
	e->cur = e->have_new ? n->median : 0;
	if (!nok && !bok) {
		e->verdict = HIL_SAME;
		e->note = "failed in both reports";
	} else if (!nok || !e->have_new) {
		e->verdict = HIL_WORSE;
		e->note = row_error(n);
	} else if (!bok || !e->have_base) {
		e->verdict = HIL_BETTER;
		e->note = "failed in the base report";
	} else {
		e->verdict = judge(e->base, e->cur, pct);
		e->ratio = e->base != 0 ? e->cur / e->base : 0;
	}
	if (bok && nok) {
		double ub, un;

		/* The model's estimate of an emulated row: its own metric. */
		if (strncmp(unit, "cycles (estimated", 17) != 0 && same_model &&
		    row_model(b, &ub) && row_model(n, &un)) {
			e = entry(c, n, "model", "cycles (estimated)");
			e->threshold = est_pct;
			e->have_base = e->have_new = 1;
			e->base = ub;
			e->cur = un;
			e->ratio = ub != 0 ? un / ub : 0;
			e->verdict = judge(ub, un, est_pct);
			model_error_of(e, b, n);
		}

		if (stack_pct >= 0 &&
		    hil_row_view_has(b, &b->row.stack_bytes) &&
		    hil_row_view_has(n, &n->row.stack_bytes)) {
			set_figure(entry(c, n, "stack", "B"),
				   b->row.stack_bytes, n->row.stack_bytes,
				   stack_pct);
		}
		if (row_energy(b, &ub) && row_energy(n, &un) &&
		    strcmp(energy_kind(b), energy_kind(n)) != 0) {
			/* A datasheet estimate, a simulated sensor and a real
			 * one are three different quantities: never judged
			 * against each other as if equal. */
			if (skip->n++ == 0) {
				skip->base_kind = energy_kind(b);
				skip->new_kind = energy_kind(n);
			}
		} else if (row_energy(b, &ub) && row_energy(n, &un)) {
			e = entry(c, n, "energy", "uJ");
			e->threshold = energy_pct;
			e->have_base = e->have_new = 1;
			e->base = ub;
			e->cur = un;
			e->ratio = ub != 0 ? un / ub : 0;
			e->verdict = judge(ub, un, energy_pct);
			if (strcmp(energy_kind(b), "estimate") == 0) {
				/* Two estimates: the change is the cycles'
				 * or the table's (another flash setting). */
				e->note =
					strcmp(est_table(b), est_table(n)) == 0
						? "datasheet estimates, not measured"
						: "datasheet estimates from different tables, not measured";
			}
		}
	}
}

int hil_cmp_compute(const cJSON *base, const cJSON *newer,
		    const struct hil_thresholds *t, struct hil_cmp **out)
{
	const char *ub = hil_rj_unit(base), *un = hil_rj_unit(newer);
	char bid[128], nid[128];
	const char *metric;
	/* The runs through result/'s codec tables. */
	struct hil_head_run brun, nrun;
	const char *nstatus = nrun.status;
	struct hil_thresholds def;
	struct hil_cmp *c;
	struct hil_row_view *brows, *nrows;
	size_t nb, nn, i;
	size_t cap;
	double pct;
	struct kind_skip skip = {0, NULL, NULL};
	int same_model = hil_cmp_same_model(base, newer);
	char fb[512], fn[512], sb[128], sn[128];

	*out = NULL;
	hil_result_head_read_one(base, "run", &brun);
	hil_result_head_read_one(newer, "run", &nrun);
	if (t == NULL) {
		hil_thresholds_default(&def);
		t = &def;
	}
	/* Data from the reports reaches the terminal: never an escape. */
	hil_text_noctl(bid, sizeof(bid), brun.id);
	hil_text_noctl(nid, sizeof(nid), nrun.id);
	if (strcmp(ub, un) != 0) {
		hil_err("cannot compare %s (%s) with %s (%s): the reports count in different units, and a figure in one says nothing about the other",
			bid, hil_text_noctl(fb, sizeof(fb), ub), nid,
			hil_text_noctl(fn, sizeof(fn), un));
		return HIL_ERR_ARG;
	}
	/* A partial report lacks rows that would then pass as "removed":
	 * as a gate it would let an interrupted run through. */
	if (strcmp(nstatus, "complete") != 0) {
		hil_text_noctl(sn, sizeof(sn), nid);
		hil_text_noctl(sb, sizeof(sb), nstatus);
		hil_err("cannot compare: the new report %s is not complete (run.status \"%s\"): the rows it lacks would pass unjudged; finish the run first (hilrun --resume RUN_FOLDER) and compare its complete report",
			sn, sb);
		return HIL_ERR_ARG;
	}
	c = calloc(1, sizeof(*c));
	if (c == NULL) {
		return HIL_ERR_NOMEM;
	}
	/* The rows through result/'s codec, decoded once; the entries
	 * point into them (hil_cmp_free frees them). */
	if (hil_row_views_read(hil_rj_rows(base), &c->rows[0], &c->n_rows[0]) !=
		    HIL_OK ||
	    hil_row_views_read(hil_rj_rows(newer), &c->rows[1],
			       &c->n_rows[1]) != HIL_OK) {
		hil_cmp_free(c);
		return HIL_ERR_NOMEM;
	}
	brows = c->rows[0];
	nb = c->n_rows[0];
	nrows = c->rows[1];
	nn = c->n_rows[1];
	if (check_unique(brows, nb, "base") != HIL_OK ||
	    check_unique(nrows, nn, "new") != HIL_OK) {
		hil_cmp_free(c);
		return HIL_ERR_ARG;
	}
	pct = unit_threshold(t, ub, &metric);
	/* Up to four figures (counter, model, stack, energy) per row of
	 * either, and flash per implementation. */
	cap = (size_t)cJSON_GetArraySize(
		      cJSON_GetObjectItemCaseSensitive(newer, "sizes")) +
	      4 * (nb + nn) + 1;
	c->e = calloc(cap, sizeof(*c->e));
	if (c->e == NULL) {
		hil_cmp_free(c);
		return HIL_ERR_NOMEM;
	}
	for (i = 0; i < nn; i++) {
		const struct hil_row_view *r = &nrows[i];
		const struct hil_row_view *b = find_row(brows, nb, r);
		struct hil_cmp_entry *e;

		if (b != NULL) {
			if (strcmp(b->unit, r->unit) != 0) {
				char key[800];

				snprintf(key, sizeof(key), "%s/%s %s",
					 r->algorithm, r->implementation,
					 r->operation);
				hil_text_noctl(sb, sizeof(sb), b->unit);
				hil_text_noctl(sn, sizeof(sn), r->unit);
				hil_err("cannot compare %s: %s has it in %s, %s in %s",
					hil_text_noctl(fb, sizeof(fb), key),
					bid, sb, nid, sn);
				hil_cmp_free(c);
				return HIL_ERR_ARG;
			}
			compare_pair(c, b, r, ub, pct, t->energy, t->estimated,
				     t->stack, same_model, &skip);
			continue;
		}
		e = entry(c, r, "median", ub);
		e->verdict = HIL_ADDED;
		e->threshold = pct;
		e->have_new = strcmp(r->status, "ok") == 0 &&
			      hil_row_view_has(r, &r->median);
		e->cur = e->have_new ? r->median : 0;
		e->note = "not in the base report";
	}
	for (i = 0; i < nb; i++) {
		const struct hil_row_view *r = &brows[i];
		struct hil_cmp_entry *e;

		if (find_row(nrows, nn, r) != NULL) {
			continue;
		}
		e = entry(c, r, "median", ub);
		e->verdict = HIL_REMOVED;
		e->threshold = pct;
		e->have_base = strcmp(r->status, "ok") == 0 &&
			       hil_row_view_has(r, &r->median);
		e->base = e->have_base ? r->median : 0;
		e->note = "not in the new report";
	}
	/* Flash once per implementation that both reports have. */
	if (t->flash >= 0) {
		const cJSON *z;

		cJSON_ArrayForEach(
			z, cJSON_GetObjectItemCaseSensitive(newer, "sizes"))
		{
			const cJSON *bz = hil_rj_impl_size(
				base, hil_rj_str(z, "algorithm"),
				hil_rj_str(z, "implementation"));
			double xb, xn;

			if (bz != NULL && hil_rj_num(bz, "flash_bytes", &xb) &&
			    hil_rj_num(z, "flash_bytes", &xn)) {
				/* An implementation's figure: no row. */
				struct hil_cmp_entry *e = &c->e[c->n++];

				memset(e, 0, sizeof(*e));
				e->algorithm = hil_rj_str(z, "algorithm");
				e->implementation =
					hil_rj_str(z, "implementation");
				e->operation = "";
				e->metric = "flash";
				e->unit = "B";
				e->note = "";
				e->err_base = e->err_new = -1;
				set_figure(e, xb, xn, t->flash);
			}
		}
	}
	for (cap = 0; cap < c->n; cap++) {
		const struct hil_cmp_entry *e = &c->e[cap];

		c->worse += e->verdict == HIL_WORSE ||
			    (t->fail_missing && e->verdict == HIL_REMOVED);
		if (strcmp(e->metric, "model") == 0) {
			c->model_n++;
			c->model_with_bar +=
				e->err_base >= 0 || e->err_new >= 0;
			c->within += e->within_error;
			c->within_worse +=
				e->within_error && e->verdict == HIL_WORSE;
		}
	}
	/* Estimates compared without an error bar: why, once. */
	if (c->model_n > c->model_with_bar) {
		const cJSON *m = model_of(newer);

		hil_model_no_error_bar(c->model_no_bar, sizeof(c->model_no_bar),
				       hil_rj_str(m, "profile"),
				       hil_rj_str(m, "unit"));
	}
	if (skip.n > 0) {
		hil_warn(
			"energy not compared on %zu row%s: %s has it as %s, %s as %s (%s); they are not the same quantity",
			skip.n, skip.n == 1 ? "" : "s", bid, skip.base_kind,
			nid, skip.new_kind,
			"estimate = from the datasheet's run current, model = a simulated sensor, measured = a real sensor");
	}
	c->model_skipped = !same_model;
	cflags_of(base, fb, sizeof(fb));
	cflags_of(newer, fn, sizeof(fn));
	c->flags_differ = strcmp(fb, fn) != 0;
	c->energy_kind_skipped = skip.n;
	c->energy_kinds[0] = skip.base_kind;
	c->energy_kinds[1] = skip.new_kind;
	c->est_tables[0] = report_table(brows, nb);
	c->est_tables[1] = report_table(nrows, nn);
	(void)metric;
	*out = c;
	return HIL_OK;
}

void hil_cmp_free(struct hil_cmp *c)
{
	if (c != NULL) {
		free(c->e);
		free(c->rows[0]);
		free(c->rows[1]);
		free(c);
	}
}

static const char *verdict_name(enum hil_verdict v)
{
	switch (v) {
	case HIL_SAME:
		return "same";
	case HIL_BETTER:
		return "better";
	case HIL_WORSE:
		return "WORSE";
	case HIL_ADDED:
		return "added";
	case HIL_REMOVED:
		return "removed";
	}
	return "?";
}

/* A figure as a reader takes it in: to 10 significant digits, so that a
 * median's binary noise is not shown (15663.900000000001 cycles is
 * "15663.9"); report.json keeps the exact value. */
static void fig(char *buf, size_t len, int have, double v)
{
	if (have && isfinite(v) && v != floor(v)) {
		snprintf(buf, len, "%.10g", v);
	} else if (have) {
		hil_fmt_num(buf, len, v);
	} else {
		snprintf(buf, len, "%s", "-");
	}
}

/* A figure with its error bar beside it when it is an estimate that has
 * one: "5325 ± 11 %". */
static void fig_err(char *buf, size_t len, int have, double v, double err)
{
	size_t n;

	fig(buf, len, have, v);
	n = strlen(buf);
	if (have && err >= 0 && n < len) {
		snprintf(buf + n, len - n, " \xc2\xb1 %.0f %%", err);
	}
}

/* Columns s takes on a terminal: "±" is two bytes, one column. */
static int cols(const char *s)
{
	int n = 0;

	for (; *s != '\0'; s++) {
		n += ((unsigned char)*s & 0xc0) != 0x80;
	}
	return n;
}

/* s right-aligned in w columns. */
static void put_right(FILE *out, const char *s, int w)
{
	int pad = w - cols(s);

	fprintf(out, "%*s%s", pad > 0 ? pad : 0, "", s);
}

/* " (within the model's error, ± 16 %)" for an entry inside its error
 * bars, else "". */
static void within_text(char *buf, size_t len, const struct hil_cmp_entry *e)
{
	if (!e->within_error) {
		snprintf(buf, len, "%s", "");
		return;
	}
	snprintf(buf, len, " (within the model's error, \xc2\xb1 %.0f %%)",
		 hil_model_error_combined(e->err_base, e->err_new));
}

/* "+5.00%" from a ratio. */
static void change(char *buf, size_t len, const struct hil_cmp_entry *e)
{
	if (e->have_base && e->have_new && e->base != 0) {
		snprintf(buf, len, "%+.2f%%", (e->ratio - 1) * 100);
	} else {
		snprintf(buf, len, "%s", "-");
	}
}

/* What --threshold gave a size metric: "1%", or "not judged" (-1). */
static void size_threshold(char *buf, size_t len, double pct)
{
	if (pct >= 0) {
		snprintf(buf, len, "%g%%", pct);
	} else {
		snprintf(buf, len, "%s", "not judged");
	}
}

/* The row key of e with its names made safe for a terminal. */
struct safe_key {
	char alg[160], impl[160], op[64], note[512];
};

static void safe_key(struct safe_key *k, const struct hil_cmp_entry *e)
{
	hil_text_noctl(k->alg, sizeof(k->alg), e->algorithm);
	hil_text_noctl(k->impl, sizeof(k->impl), e->implementation);
	hil_text_noctl(k->op, sizeof(k->op), e->operation);
	hil_text_noctl(k->note, sizeof(k->note), e->note);
}

int hil_report_compare(const cJSON *base, const cJSON *newer,
		       const struct hil_thresholds *t, FILE *out, int *worse)
{
	const char *metric;
	struct hil_thresholds def;
	struct hil_cmp *c = NULL;
	size_t i, counts[HIL_REMOVED + 1] = {0};
	double pct;
	int wa = 9, wi = 4, wo = 9, wf = 12, ret;
	char unit[160], prov[1400], fl[24], st[24];
	struct safe_key k;

	*worse = 0;
	if (t == NULL) {
		hil_thresholds_default(&def);
		t = &def;
	}
	ret = hil_cmp_compute(base, newer, t, &c);
	if (ret != HIL_OK) {
		return ret;
	}
	hil_text_noctl(unit, sizeof(unit), hil_rj_unit(base));
	for (i = 0; i < c->n; i++) {
		const struct hil_cmp_entry *e = &c->e[i];

		safe_key(&k, e);
		wa = (int)strlen(k.alg) > wa ? (int)strlen(k.alg) : wa;
		wi = (int)strlen(k.impl) > wi ? (int)strlen(k.impl) : wi;
		wo = (int)strlen(k.op) > wo ? (int)strlen(k.op) : wo;
		counts[e->verdict]++;
		{
			char b[64], n[64];

			fig_err(b, sizeof(b), e->have_base, e->base,
				e->err_base);
			fig_err(n, sizeof(n), e->have_new, e->cur, e->err_new);
			wf = cols(b) > wf ? cols(b) : wf;
			wf = cols(n) > wf ? cols(n) : wf;
		}
	}
	/* Both sides' provenance: what each figure was made with. */
	hil_cmp_provenance(base, prov, sizeof(prov));
	fprintf(out, "compare: base %s\n", prov);
	hil_cmp_provenance(newer, prov, sizeof(prov));
	fprintf(out, "         new  %s\n", prov);
	if (c->flags_differ) {
		fputs("note: the reports were built with different flags: a change is the flags' as much as the code's\n",
		      out);
	}
	if (c->model_skipped) {
		fputs("note: the cycle model's estimates are not compared: the reports model different memory systems (profile, wait states or accelerator), so their estimates are different quantities\n",
		      out);
	}
	pct = unit_threshold(t, hil_rj_unit(base), &metric);
	fprintf(out,
		"unit: %s; worse when new > base by more than %g%% (%s), model %g%% (estimated), energy %g%%%s\n",
		unit, pct, metric, t->estimated, t->energy,
		t->fail_missing ? "; a row missing from the new report is worse"
				: "");
	if (t->flash >= 0 || t->stack >= 0) {
		size_threshold(fl, sizeof(fl), t->flash);
		size_threshold(st, sizeof(st), t->stack);
		fprintf(out, "sizes: flash %s, stack %s\n", fl, st);
	}
	fputc('\n', out);
	fprintf(out, "%-*s %-*s %-*s %6s %5s %-6s %*s %*s %8s  %s\n", wa,
		"algorithm", wi, "impl", wo, "operation", "msg", "ad", "metric",
		wf, "base", wf, "new", "change", "verdict");
	for (i = 0; i < c->n; i++) {
		const struct hil_cmp_entry *e = &c->e[i];
		char b[64], n[64], ch[24], w[80];

		safe_key(&k, e);
		fig_err(b, sizeof(b), e->have_base, e->base, e->err_base);
		fig_err(n, sizeof(n), e->have_new, e->cur, e->err_new);
		if (!e->have_new && e->verdict == HIL_WORSE) {
			snprintf(n, sizeof(n), "%s", "failed");
		}
		change(ch, sizeof(ch), e);
		fprintf(out, "%-*s %-*s %-*s %6.0f %5.0f %-6s ", wa, k.alg, wi,
			k.impl, wo, k.op, e->msg_len, e->ad_len, e->metric);
		put_right(out, b, wf);
		fputc(' ', out);
		put_right(out, n, wf);
		within_text(w, sizeof(w), e);
		fprintf(out, " %8s  %s%s", ch, verdict_name(e->verdict), w);
		if (e->note[0] != '\0' && e->verdict != HIL_ADDED &&
		    e->verdict != HIL_REMOVED) {
			fprintf(out, " (%s)", k.note);
		}
		fputc('\n', out);
	}
	fprintf(out,
		"\n%zu compared: %zu same, %zu better, %zu worse; %zu added, %zu removed\n",
		c->n - counts[HIL_ADDED] - counts[HIL_REMOVED],
		counts[HIL_SAME], counts[HIL_BETTER], counts[HIL_WORSE],
		counts[HIL_ADDED], counts[HIL_REMOVED]);
	if (c->energy_kind_skipped > 0) {
		char kb[64], kn[64];

		fprintf(out,
			"energy: not compared on %zu row%s: %s in the base report, %s in the new one (not the same quantity)\n",
			c->energy_kind_skipped,
			c->energy_kind_skipped == 1 ? "" : "s",
			hil_text_noctl(kb, sizeof(kb), c->energy_kinds[0]),
			hil_text_noctl(kn, sizeof(kn), c->energy_kinds[1]));
	}
	if (c->model_with_bar > 0) {
		fprintf(out,
			"model: an estimate's \xc2\xb1 N %% is its expected error against the real board (its profile's cross-validation, docs/cycle-model.md). A change between two estimates is the code's modelled cost (the same build gives the same estimate), judged at estimated=%g%%; one within the two error bars combined (sqrt(a\xc2\xb2 + b\xc2\xb2)) is marked \"within the model's error\": the board may not show it.\n",
			t->estimated);
	}
	if (c->within > 0) {
		fprintf(out,
			"model: %zu estimate%s moved within the model's error (%zu worse, %zu better): a change of the modelled cost, not established on the board\n",
			c->within, c->within == 1 ? "" : "s", c->within_worse,
			c->within - c->within_worse);
	}
	if (c->model_no_bar[0] != '\0') {
		char nb[sizeof(c->model_no_bar)];

		fprintf(out, "model: %s\n",
			hil_text_noctl(nb, sizeof(nb), c->model_no_bar));
	}
	if (c->est_tables[0][0] != '\0' || c->est_tables[1][0] != '\0') {
		fprintf(out,
			"energy estimates: from the datasheet, not measured (docs/method.md); base %s, new %s\n",
			c->est_tables[0][0] ? c->est_tables[0] : "none",
			c->est_tables[1][0] ? c->est_tables[1] : "none");
	}
	for (i = 0; i < c->n; i++) {
		const struct hil_cmp_entry *e = &c->e[i];
		char b[40], n[40], ch[24], u[160];

		safe_key(&k, e);
		if (e->verdict == HIL_REMOVED && t->fail_missing) {
			fprintf(out,
				"worse: %s/%s %s msg %.0f ad %.0f: missing from the new report (--fail-missing)\n",
				k.alg, k.impl, k.op, e->msg_len, e->ad_len);
			continue;
		}
		if (e->verdict != HIL_WORSE) {
			continue;
		}
		fig(b, sizeof(b), e->have_base, e->base);
		fig(n, sizeof(n), e->have_new, e->cur);
		change(ch, sizeof(ch), e);
		if (e->have_new) {
			char w[80];

			within_text(w, sizeof(w), e);
			fprintf(out,
				"worse: %s/%s %s msg %.0f ad %.0f: %s %s -> %s %s (%s, threshold %g%%)%s\n",
				k.alg, k.impl, k.op, e->msg_len, e->ad_len,
				e->metric, b, n,
				hil_text_noctl(u, sizeof(u), e->unit), ch,
				e->threshold, w);
		} else {
			fprintf(out,
				"worse: %s/%s %s msg %.0f ad %.0f: failed: %s\n",
				k.alg, k.impl, k.op, e->msg_len, e->ad_len,
				k.note);
		}
	}
	*worse = c->worse > 0;
	hil_cmp_free(c);
	return hil_render_status(out);
}
