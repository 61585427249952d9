/* End-to-end test of a sweep on QEMU: one report per configuration, the comparison, and no rebuild when nothing changed. */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <cjson/cJSON.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/runrender.h"
#include "e2e_util.h"
#include "util/err.h"
#include "report/render.h"
#include "run/sweep.h"
#include "util/util.h"

/* A sweep as hilrun run --sweep makes it: measured, then rendered. */
static int sweep_run(const struct hil_sweep *sw,
		     const struct hil_runner_opts *opts, unsigned jobs,
		     FILE *out)
{
	struct hil_sweep_done *done = calloc(1, sizeof(*done));
	int ret;

	assert_non_null(done);
	ret = hil_sweep_run(sw, opts, jobs, 0, NULL, done);
	(void)hil_cli_render_sweep(done, out);
	free(done);
	return ret;
}

struct fx {
	char dir[64];
	char sweep[128];
};

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	struct fx *fx = calloc(1, sizeof(*fx));
	char base[128];
	char text[1024];

	if (fx == NULL) {
		return -1;
	}
	snprintf(fx->dir, sizeof(fx->dir), "/tmp/hilrun-sweep-XXXXXX");
	if (mkdtemp(fx->dir) == NULL) {
		free(fx);
		return -1;
	}
	/* A small base: one algorithm, two lengths, few runs. */
	snprintf(base, sizeof(base), "%s/small.json", fx->dir);
	snprintf(
		text, sizeof(text),
		"{\"name\": \"sweeptest\", \"board\": {\"name\": \"qemu-netduino\"},"
		" \"algorithms\": [\"ascon-aead128\"],"
		" \"bench\": {\"operations\": [\"encrypt\"], \"lengths\": [16, 64],"
		" \"runs\": 10, \"warmup\": 1}, \"results_dir\": \"%s/results\"}",
		fx->dir);
	put(base, text);
	snprintf(fx->sweep, sizeof(fx->sweep), "%s/sweep.json", fx->dir);
	put(fx->sweep, "{\"name\": \"two\", \"base\": \"small.json\","
		       " \"cflags\": [[\"-O2\"], [\"-Os\"]]}");
	*state = fx;
	return 0;
}

static int rm_entry(const char *path, const struct stat *sb, int flag,
		    struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static int teardown(void **state)
{
	struct fx *fx = *state;

	nftw(fx->dir, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
	free(fx);
	return 0;
}

/* Run the sweep; return the parsed sweep.json (caller deletes). */
static cJSON *run_sweep(const struct fx *fx, char *md_out, size_t md_len,
			unsigned jobs)
{
	struct hil_sweep sw;
	struct hil_runner_opts opts;
	char err[512] = "";
	char path[512];
	char *text = NULL;
	FILE *out = tmpfile();
	cJSON *js;
	size_t n;

	assert_non_null(out);
	assert_int_equal(hil_sweep_load(fx->sweep, &sw, err, sizeof(err)),
			 HIL_OK);
	assert_int_equal(sw.n, 2);
	assert_string_equal(sw.cfgs[0].name, "sweeptest-O2");
	assert_string_equal(sw.cfgs[1].name, "sweeptest-Os");
	memset(&opts, 0, sizeof(opts));
	opts.results_dir = sw.cfgs[0].results_dir;
	assert_int_equal(sweep_run(&sw, &opts, jobs, out), HIL_OK);
	hil_sweep_free(&sw);
	rewind(out);
	n = fread(md_out, 1, md_len - 1, out);
	md_out[n] = '\0';
	fclose(out);
	/* The last line names the summary; sweep.json sits beside it. */
	{
		char *p = strstr(md_out, "sweep summary: ");
		char *nl;

		assert_non_null(p);
		p += strlen("sweep summary: ");
		nl = strstr(p, "/sweep.md");
		assert_non_null(nl);
		snprintf(path, sizeof(path), "%.*s/sweep.json", (int)(nl - p),
			 p);
	}
	assert_int_equal(hil_read_file(path, &text, NULL), HIL_OK);
	js = cJSON_Parse(text);
	free(text);
	assert_non_null(js);
	return js;
}

static const char *run_field(const cJSON *js, int i, const char *key)
{
	const cJSON *runs = cJSON_GetObjectItemCaseSensitive(js, "runs");
	const cJSON *r = cJSON_GetArrayItem(runs, i);
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(r, key);

	assert_true(cJSON_IsString(v));
	return v->valuestring;
}

static void
test_sweep_compares_configurations_and_rebuilds_nothing_twice(void **state)
{
	struct fx *fx = *state;
	static char md[65536];
	char path[512];
	char *log = NULL;
	cJSON *first;
	cJSON *second;

	first = run_sweep(fx, md, sizeof(md), 1);
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(
				 first, "runs")),
			 2);
	assert_string_equal(run_field(first, 0, "status"), "complete");
	assert_string_equal(run_field(first, 1, "status"), "complete");
	/* Different flags, different images. */
	assert_string_not_equal(run_field(first, 0, "build_id"),
				run_field(first, 1, "build_id"));
	/* The comparison: one column per configuration, both rows. */
	assert_non_null(strstr(md, "| sweeptest-O2 | sweeptest-Os |"));
	assert_non_null(
		strstr(md, "| ascon-aead128 | ref | encrypt | 16 | 0 |"));
	assert_non_null(
		strstr(md, "| ascon-aead128 | ref | encrypt | 64 | 0 |"));
	assert_non_null(strstr(md, "instructions (emulated)"));
	/* Each configuration wrote its own report. */
	snprintf(path, sizeof(path), "%s/report.json",
		 run_field(first, 0, "run_dir"));
	assert_int_equal(access(path, R_OK), 0);
	/* The sweep's page, a column per configuration; rendered again
	 * from the sweep's folder (hilrun report SWEEP_DIR). */
	{
		const char *p = strstr(md, "sweep page: ");
		const char *e;
		char dir[512], *html = NULL;

		assert_non_null(p);
		p += strlen("sweep page: ");
		e = strstr(p, "/sweep.html\n");
		assert_non_null(e);
		snprintf(dir, sizeof(dir), "%.*s", (int)(e - p), p);
		snprintf(path, sizeof(path), "%s/sweep.html", dir);
		assert_int_equal(hil_read_file(path, &html, NULL), HIL_OK);
		assert_non_null(
			strstr(html, "<th class=\"n hl\">sweeptest-Os"));
		assert_non_null(strstr(html, "<svg "));
		free(html);
		assert_int_equal(unlink(path), 0);
		assert_true(hil_report_dir_is_sweep(dir));
		assert_int_equal(hil_report_render_all(dir), HIL_OK);
		assert_int_equal(access(path, R_OK), 0);
	}

	/* Again: same images (same build ids), nothing compiled. */
	second = run_sweep(fx, md, sizeof(md), 1);
	assert_string_equal(run_field(first, 0, "build_id"),
			    run_field(second, 0, "build_id"));
	assert_string_equal(run_field(first, 1, "build_id"),
			    run_field(second, 1, "build_id"));
	snprintf(path, sizeof(path), "%s/build.log",
		 run_field(second, 1, "run_dir"));
	assert_int_equal(hil_read_file(path, &log, NULL), HIL_OK);
	assert_null(strstr(log, " -c "));
	free(log);
	cJSON_Delete(second);

	/* Side by side (--jobs 2): the same rows, byte for byte, and the
	 * same comparison table. */
	{
		static char md2[65536];
		cJSON *par = run_sweep(fx, md2, sizeof(md2), 2);
		int i;

		for (i = 0; i < 2; i++) {
			char a[512], b[512];
			char *ra, *rb;

			snprintf(a, sizeof(a), "%s/report.json",
				 run_field(first, i, "run_dir"));
			snprintf(b, sizeof(b), "%s/report.json",
				 run_field(par, i, "run_dir"));
			ra = e2e_report_rows(a);
			rb = e2e_report_rows(b);
			assert_string_equal(ra, rb);
			assert_string_equal(run_field(first, i, "build_id"),
					    run_field(par, i, "build_id"));
			free(ra);
			free(rb);
		}
		{
			const char *t1 = strstr(md, "| ascon-aead128 |");
			const char *t2 = strstr(md2, "| ascon-aead128 |");

			assert_non_null(t1);
			assert_non_null(t2);
			assert_memory_equal(t1, t2, strcspn(t1, "\n"));
		}
		cJSON_Delete(par);
	}
	cJSON_Delete(first);
}

/*
 * Prefetch on and off at 84 MHz (board.prefetch): per algorithm, both
 * cycle estimates (the model's stm32f401-art and -noprefetch profiles)
 * and both energy estimates (DS10086 Tables 25 and 23), and which costs
 * fewer uJ per operation.
 */
static void
test_sweep_prefetch_on_and_off_prints_cycles_and_energy(void **state)
{
	struct fx *fx = *state;
	static char md[65536];
	struct hil_sweep sw;
	struct hil_runner_opts opts;
	char path[256], err[512] = "";
	const char *row, *on, *off;
	FILE *out = tmpfile();
	size_t n;

	assert_non_null(out);
	snprintf(path, sizeof(path), "%s/pf-on.json", fx->dir);
	put(path, "{\"extends\": \"small.json\", \"name\": \"pf-on\"}");
	snprintf(path, sizeof(path), "%s/pf-off.json", fx->dir);
	put(path, "{\"extends\": \"small.json\", \"name\": \"pf-off\","
		  " \"board\": {\"prefetch\": false}}");
	snprintf(path, sizeof(path), "%s/prefetch.json", fx->dir);
	put(path, "{\"name\": \"prefetch\","
		  " \"configs\": [\"pf-on.json\", \"pf-off.json\"]}");
	assert_int_equal(hil_sweep_load(path, &sw, err, sizeof(err)), HIL_OK);
	assert_int_equal(sw.n, 2);
	assert_string_equal(sw.cfgs[1].cycle_model.profile,
			    "stm32f401-art-noprefetch");
	memset(&opts, 0, sizeof(opts));
	opts.results_dir = sw.cfgs[0].results_dir;
	assert_int_equal(sweep_run(&sw, &opts, 2, out), HIL_OK);
	hil_sweep_free(&sw);
	rewind(out);
	n = fread(md, 1, sizeof(md) - 1, out);
	md[n] = '\0';
	fclose(out);
	assert_non_null(strstr(
		md,
		"## prefetch: cycles and energy per operation at 64 B, one pair of columns per configuration\n"));
	assert_non_null(strstr(
		md,
		"| algorithm | impl | op | cycles/op (pf-on) | uJ/op (pf-on) | cycles/op (pf-off) | uJ/op (pf-off) | fewer uJ/op |\n"));
	row = strstr(md, "| ascon-aead128 | ref | encrypt | est. ");
	assert_non_null(row);
	/* Both cycle estimates, both energy estimates with their range. */
	on = strstr(row, "| est. ");
	assert_non_null(on);
	off = strstr(on + 6, "| est. ");
	assert_non_null(off);
	assert_true(strcspn(row, "\n") > (size_t)(off - row));
	/* Prefetch off: 12.5 mA instead of 21.6 for a few % more cycles. */
	assert_non_null(strstr(row, " | pf-off, "));
	assert_non_null(strstr(md, "DS10086 Rev 3 Table 25 (p. 68)"));
	assert_non_null(strstr(md, "DS10086 Rev 3 Table 23 (p. 67)"));
	assert_non_null(
		strstr(md, "est. = a datasheet estimate, not measured"));
}

static void test_sweep_file_errors_name_the_file_and_key(void **state)
{
	struct fx *fx = *state;
	struct hil_sweep sw;
	char path[128];
	char err[512] = "";

	snprintf(path, sizeof(path), "%s/bad.json", fx->dir);
	put(path, "{\"base\": \"small.json\", \"cflags\": [[\"O2\"]]}");
	assert_int_equal(hil_sweep_load(path, &sw, err, sizeof(err)),
			 HIL_ERR_CONFIG);
	assert_non_null(strstr(err, "cflags[0][0]"));
	put(path, "{\"configs\": [\"small.json\"], \"matrix\": 1}");
	assert_int_equal(hil_sweep_load(path, &sw, err, sizeof(err)),
			 HIL_ERR_CONFIG);
	assert_non_null(strstr(err, "matrix: unknown key"));
	put(path, "{\"configs\": [\"missing.json\"]}");
	assert_int_not_equal(hil_sweep_load(path, &sw, err, sizeof(err)),
			     HIL_OK);
	assert_non_null(strstr(err, "missing.json"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			test_sweep_compares_configurations_and_rebuilds_nothing_twice),
		cmocka_unit_test(
			test_sweep_prefetch_on_and_off_prints_cycles_and_energy),
		cmocka_unit_test(test_sweep_file_errors_name_the_file_and_key),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
