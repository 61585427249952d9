/* fuzz_report: the report reader (hil_report_load, hil_report_check) and every renderer of what it accepts. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "util/err.h"
#include "fuzz.h"
#include "report/render.h"

#define ERR_LEN 1024

typedef int (*render_fn)(const cJSON *report, FILE *out);

static int terminated(const char *s, size_t size)
{
	return memchr(s, '\0', size) != NULL;
}

static int known_code(int ret)
{
	return ret == HIL_OK || ret == HIL_ERR_ARG || ret == HIL_ERR_NOMEM ||
	       ret == HIL_ERR_IO;
}

/* A report from the fixtures to compare against (NULL when not found). */
static cJSON *baseline(void)
{
	static cJSON *base;
	static int tried;
	char path[4096], err[ERR_LEN];

	if (!tried) {
		tried = 1;
		snprintf(path, sizeof(path),
			 "%s/tests/fixtures/report-min.json", fuzz_src_dir());
		if (hil_report_load(path, &base, err, sizeof(err)) != HIL_OK) {
			base = NULL;
		}
	}
	return base;
}

static int delimiter(char c)
{
	return c == '"' || c == '(' || c == ')' || c == ',' || c == ' ';
}

/*
 * 1 when SVG or HTML markup holds a number printed from an infinity or a
 * NaN ("nan", "-inf", ...) inside a tag: coordinates no viewer can draw.
 * Only constants and numbers are printed inside tags (names are escaped
 * and go between them), so a match is never a name.
 */
static int non_finite_in_tags(const char *s, size_t n)
{
	int in_tag = 0;
	size_t i, j;

	for (i = 0; i < n; i++) {
		if (s[i] == '<') {
			in_tag = 1;
		} else if (s[i] == '>') {
			in_tag = 0;
		}
		if (!in_tag || i + 3 >= n ||
		    (strncmp(s + i, "nan", 3) != 0 &&
		     strncmp(s + i, "inf", 3) != 0)) {
			continue;
		}
		j = i > 0 && s[i - 1] == '-' ? i - 1 : i;
		if (j > 0 && delimiter(s[j - 1]) && delimiter(s[i + 3])) {
			return 1;
		}
	}
	return 0;
}

/* Render into memory; the renderers promise the same bytes every time. */
static void render(render_fn fn, const cJSON *report, int markup)
{
	char *a = NULL, *b = NULL;
	size_t alen = 0, blen = 0;
	FILE *f;
	int ra, rb;

	f = open_memstream(&a, &alen);
	if (f == NULL) {
		return;
	}
	ra = fn(report, f);
	fclose(f);
	f = open_memstream(&b, &blen);
	if (f == NULL) {
		free(a);
		return;
	}
	rb = fn(report, f);
	fclose(f);
	FUZZ_CHECK(known_code(ra) && ra == rb);
	FUZZ_CHECK(alen == blen && memcmp(a, b, alen) == 0);
	if (markup && a != NULL) {
		FUZZ_CHECK(!non_finite_in_tags(a, alen));
	}
	free(a);
	free(b);
}

/* A sweep of the report with itself, then with the baseline after it. */
static int sweep(const cJSON *report, FILE *out)
{
	const cJSON *two[2];
	int ret;

	two[0] = report;
	two[1] = report;
	ret = hil_svg_sweep(two, 2, out);
	if (ret != HIL_OK || baseline() == NULL) {
		return ret;
	}
	two[1] = baseline();
	return hil_svg_sweep(two, 2, out);
}

static int compare_self(const cJSON *report, FILE *out)
{
	int worse = -1;
	int ret = hil_report_compare(report, report, NULL, out, &worse);

	FUZZ_CHECK(ret != HIL_OK || worse == 0 || worse == 1);
	return ret;
}

/* board.counter_unit as the comparison reads it. */
static const char *unit_of(const cJSON *report)
{
	const cJSON *board = cJSON_GetObjectItemCaseSensitive(report, "board");
	const cJSON *u =
		cJSON_GetObjectItemCaseSensitive(board, "counter_unit");

	return cJSON_IsString(u) && u->valuestring != NULL ? u->valuestring
							   : "unknown";
}

static int compare_base(const cJSON *report, FILE *out)
{
	int worse = -1;

	/* Reports in other units are refused with a logged error: that path
	 * is one strcmp, not worth a line of log per input. */
	if (baseline() == NULL ||
	    strcmp(unit_of(baseline()), unit_of(report)) != 0) {
		return HIL_OK;
	}
	hil_report_compare(baseline(), report, NULL, out, &worse);
	return hil_report_compare(report, baseline(), NULL, out, &worse);
}

static int junit(const cJSON *report, FILE *out)
{
	struct hil_cmp *cmp = NULL;
	int ret;

	ret = hil_junit_write(report, NULL, out);
	if (ret != HIL_OK) {
		return ret;
	}
	if (hil_cmp_compute(report, report, NULL, &cmp) != HIL_OK) {
		return HIL_OK;
	}
	FUZZ_CHECK(cmp->worse <= cmp->n);
	ret = hil_junit_write(report, cmp, out);
	hil_cmp_free(cmp);
	return ret;
}

int fuzz_report_one(const uint8_t *data, size_t size)
{
	unsigned before = fuzz_failures();
	const char *path = fuzz_scratch_file(data, size);
	char err[ERR_LEN];
	cJSON *report = (cJSON *)&report; /* must be set to NULL on failure */
	int ret;

	if (path == NULL) {
		return 0;
	}
	memset(err, 'X', sizeof(err));
	ret = hil_report_load(path, &report, err, sizeof(err));
	FUZZ_CHECK(ret == HIL_OK || ret == HIL_ERR_ARG || ret == HIL_ERR_NOMEM);
	if (ret != HIL_OK) {
		FUZZ_CHECK(report == NULL);
		FUZZ_CHECK(terminated(err, sizeof(err)) && err[0] != '\0');
		return (int)(fuzz_failures() - before);
	}
	FUZZ_CHECK(report != NULL);
	if (report == NULL) {
		return (int)(fuzz_failures() - before);
	}
	/* What load accepted, check accepts again. */
	FUZZ_CHECK(hil_report_check(report, "again", err, sizeof(err)) ==
		   HIL_OK);
	render(hil_summary_md, report, 0);
	render(hil_summary_csv, report, 0);
	render(hil_svg_per_byte, report, 1);
	render(hil_svg_sizes, report, 1);
	render(sweep, report, 1);
	render(hil_html_report, report, 1);
	render(compare_self, report, 0);
	render(compare_base, report, 0);
	render(junit, report, 0);
	cJSON_Delete(report);
	return (int)(fuzz_failures() - before);
}

#ifdef FUZZ_LIBFUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_report_one(data, size);
	return 0;
}
#endif
