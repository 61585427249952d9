/* compare: two reports side by side per row, with a regression verdict. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"compare"
#include "render_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "result/headcodec.h"
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
static int row_model(const cJSON *row, double *median)
{
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(row, "model_cycles");

	return cJSON_IsObject(m) && hil_rj_num(m, "median", median);
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
	const cJSON *r;
	double v;

	if (strcmp(metric, hil_cmp_unit_metric(report)) == 0) {
		return 1;
	}
	cJSON_ArrayForEach(r, hil_rj_rows(report))
	{
		if (strcmp(metric, "estimated") == 0 && row_model(r, &v)) {
			return 1;
		}
		if (strcmp(metric, "energy") == 0 && hil_rj_row_energy(r, &v)) {
			return 1;
		}
		if (strcmp(metric, "stack") == 0 &&
		    hil_rj_num(r, "stack_bytes", &v)) {
			return 1;
		}
		if (strcmp(metric, "flash") == 0 &&
		    hil_rj_impl_size(report, hil_rj_str(r, "algorithm"),
				     hil_rj_str(r, "implementation")) != NULL) {
			return 1;
		}
	}
	return 0;
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

static int same_key(const cJSON *a, const cJSON *b)
{
	static const char *const s[] = {"algorithm", "implementation",
					"operation"};
	static const char *const n[] = {"msg_len", "ad_len"};
	double x, y;
	size_t i;

	for (i = 0; i < 3; i++) {
		if (strcmp(hil_rj_str(a, s[i]), hil_rj_str(b, s[i])) != 0) {
			return 0;
		}
	}
	for (i = 0; i < 2; i++) {
		if (!hil_rj_num(a, n[i], &x) || !hil_rj_num(b, n[i], &y) ||
		    x != y) {
			return 0;
		}
	}
	return 1;
}

static const cJSON *find_row(const cJSON *report, const cJSON *key)
{
	const cJSON *r;

	cJSON_ArrayForEach(r, hil_rj_rows(report))
	{
		if (same_key(r, key)) {
			return r;
		}
	}
	return NULL;
}

/* A report with two rows of one key: which one a comparison took would be
 * chance. Logged with the row and the run. */
static int check_unique(const cJSON *report, const char *which)
{
	const cJSON *r, *q;

	cJSON_ArrayForEach(r, hil_rj_rows(report))
	{
		for (q = r->next; q != NULL; q = q->next) {
			double msg = 0, ad = 0;
			char key[512], safe[600];

			if (!same_key(r, q)) {
				continue;
			}
			hil_rj_num(r, "msg_len", &msg);
			hil_rj_num(r, "ad_len", &ad);
			snprintf(key, sizeof(key), "%s/%s %s msg %.0f ad %.0f",
				 hil_rj_str(r, "algorithm"),
				 hil_rj_str(r, "implementation"),
				 hil_rj_str(r, "operation"), msg, ad);
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

static struct hil_cmp_entry *entry(struct hil_cmp *c, const cJSON *row,
				   const char *metric, const char *unit)
{
	struct hil_cmp_entry *e = &c->e[c->n++];

	memset(e, 0, sizeof(*e));
	e->algorithm = hil_rj_str(row, "algorithm");
	e->implementation = hil_rj_str(row, "implementation");
	e->operation = hil_rj_str(row, "operation");
	hil_rj_num(row, "msg_len", &e->msg_len);
	hil_rj_num(row, "ad_len", &e->ad_len);
	e->metric = metric;
	e->unit = unit;
	e->note = "";
	return e;
}

static const char *row_error(const cJSON *row)
{
	const char *s = hil_rj_str(row, "error");

	return s[0] != '\0' ? s : "the row failed";
}

/* One more figure of a row pair: base ub, new un, judged at pct. */
static void add_figure(struct hil_cmp *c, const cJSON *row, const char *metric,
		       const char *unit, double ub, double un, double pct)
{
	struct hil_cmp_entry *e = entry(c, row, metric, unit);

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
static const char *energy_kind(const cJSON *row)
{
	const char *k = hil_rj_row_energy_kind(row);

	return k[0] != '\0' ? k : "measured";
}

/* The datasheet table a row's estimate comes from, or "". */
static const char *est_table(const cJSON *row)
{
	const cJSON *e = hil_rj_row_estimate(row);

	return e != NULL ? hil_rj_str(e, "table") : "";
}

/* The table of a report's first estimated row, or "". */
static const char *report_table(const cJSON *report)
{
	const cJSON *r;

	cJSON_ArrayForEach(r, hil_rj_rows(report))
	{
		if (est_table(r)[0] != '\0') {
			return est_table(r);
		}
	}
	return "";
}

/* Counts energy pairs left out because their kinds differ. */
struct kind_skip {
	size_t n;
	const char *base_kind, *new_kind; /* of the first one */
};

static void compare_pair(struct hil_cmp *c, const cJSON *b, const cJSON *n,
			 const char *unit, double pct, double energy_pct,
			 double est_pct, double stack_pct, int same_model,
			 struct kind_skip *skip)
{
	struct hil_cmp_entry *e = entry(c, n, "median", unit);
	int bok = hil_rj_row_ok(b), nok = hil_rj_row_ok(n);

	e->threshold = pct;
	e->have_base = bok && hil_rj_num(b, "median", &e->base);
	e->have_new = nok && hil_rj_num(n, "median", &e->cur);
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
		}

		if (stack_pct >= 0 && hil_rj_num(b, "stack_bytes", &ub) &&
		    hil_rj_num(n, "stack_bytes", &un)) {
			add_figure(c, n, "stack", "B", ub, un, stack_pct);
		}
		if (hil_rj_row_energy(b, &ub) && hil_rj_row_energy(n, &un) &&
		    strcmp(energy_kind(b), energy_kind(n)) != 0) {
			/* A datasheet estimate, a simulated sensor and a real
			 * one are three different quantities: never judged
			 * against each other as if equal. */
			if (skip->n++ == 0) {
				skip->base_kind = energy_kind(b);
				skip->new_kind = energy_kind(n);
			}
		} else if (hil_rj_row_energy(b, &ub) &&
			   hil_rj_row_energy(n, &un)) {
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
	const cJSON *r;
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
	if (check_unique(base, "base") != HIL_OK ||
	    check_unique(newer, "new") != HIL_OK) {
		return HIL_ERR_ARG;
	}
	pct = unit_threshold(t, ub, &metric);
	/* Up to four figures (counter, model, stack, energy) per row of
	 * either, and flash per implementation. */
	cap = (size_t)cJSON_GetArraySize(
		      cJSON_GetObjectItemCaseSensitive(newer, "sizes")) +
	      4 * ((size_t)cJSON_GetArraySize(hil_rj_rows(base)) +
		   (size_t)cJSON_GetArraySize(hil_rj_rows(newer))) +
	      1;
	c = calloc(1, sizeof(*c));
	if (c == NULL) {
		return HIL_ERR_NOMEM;
	}
	c->e = calloc(cap, sizeof(*c->e));
	if (c->e == NULL) {
		free(c);
		return HIL_ERR_NOMEM;
	}
	cJSON_ArrayForEach(r, hil_rj_rows(newer))
	{
		const cJSON *b = find_row(base, r);
		struct hil_cmp_entry *e;

		if (b != NULL) {
			if (strcmp(hil_rj_str(b, "unit"),
				   hil_rj_str(r, "unit")) != 0) {
				char key[512];

				snprintf(key, sizeof(key), "%s/%s %s",
					 hil_rj_str(r, "algorithm"),
					 hil_rj_str(r, "implementation"),
					 hil_rj_str(r, "operation"));
				hil_text_noctl(sb, sizeof(sb),
					       hil_rj_str(b, "unit"));
				hil_text_noctl(sn, sizeof(sn),
					       hil_rj_str(r, "unit"));
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
		e->have_new =
			hil_rj_row_ok(r) && hil_rj_num(r, "median", &e->cur);
		e->note = "not in the base report";
	}
	cJSON_ArrayForEach(r, hil_rj_rows(base))
	{
		struct hil_cmp_entry *e;

		if (find_row(newer, r) != NULL) {
			continue;
		}
		e = entry(c, r, "median", ub);
		e->verdict = HIL_REMOVED;
		e->threshold = pct;
		e->have_base =
			hil_rj_row_ok(r) && hil_rj_num(r, "median", &e->base);
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
				add_figure(c, z, "flash", "B", xb, xn,
					   t->flash);
			}
		}
	}
	for (cap = 0; cap < c->n; cap++) {
		c->worse +=
			c->e[cap].verdict == HIL_WORSE ||
			(t->fail_missing && c->e[cap].verdict == HIL_REMOVED);
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
	(void)metric;
	*out = c;
	return HIL_OK;
}

void hil_cmp_free(struct hil_cmp *c)
{
	if (c != NULL) {
		free(c->e);
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

static void fig(char *buf, size_t len, int have, double v)
{
	if (have) {
		hil_fmt_num(buf, len, v);
	} else {
		snprintf(buf, len, "%s", "-");
	}
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
	int wa = 9, wi = 4, wo = 9, ret;
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
	fprintf(out, "%-*s %-*s %-*s %6s %5s %-6s %12s %12s %8s  %s\n", wa,
		"algorithm", wi, "impl", wo, "operation", "msg", "ad", "metric",
		"base", "new", "change", "verdict");
	for (i = 0; i < c->n; i++) {
		const struct hil_cmp_entry *e = &c->e[i];
		char b[40], n[40], ch[24];

		safe_key(&k, e);
		fig(b, sizeof(b), e->have_base, e->base);
		fig(n, sizeof(n), e->have_new, e->cur);
		if (!e->have_new && e->verdict == HIL_WORSE) {
			snprintf(n, sizeof(n), "%s", "failed");
		}
		change(ch, sizeof(ch), e);
		fprintf(out,
			"%-*s %-*s %-*s %6.0f %5.0f %-6s %12s %12s %8s  %s", wa,
			k.alg, wi, k.impl, wo, k.op, e->msg_len, e->ad_len,
			e->metric, b, n, ch, verdict_name(e->verdict));
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
	if (report_table(base)[0] != '\0' || report_table(newer)[0] != '\0') {
		fprintf(out,
			"energy estimates: from the datasheet, not measured (docs/method.md); base %s, new %s\n",
			report_table(base)[0] ? report_table(base) : "none",
			report_table(newer)[0] ? report_table(newer) : "none");
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
			fprintf(out,
				"worse: %s/%s %s msg %.0f ad %.0f: %s %s -> %s %s (%s, threshold %g%%)\n",
				k.alg, k.impl, k.op, e->msg_len, e->ad_len,
				e->metric, b, n,
				hil_text_noctl(u, sizeof(u), e->unit), ch,
				e->threshold);
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
