/* access: reading a parsed report (a missing key or a wrong type is "absent") and formatting its figures, for every renderer. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"report"
#include "render_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "result/headcodec.h"
#include "result/rowview.h"
#include "util/err.h"

/* ---------------------------------------------------------------- access */

const char *hil_rj_str(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsString(v) && v->valuestring != NULL ? v->valuestring
							   : "";
}

int hil_rj_num(const cJSON *o, const char *key, double *v)
{
	const cJSON *n = cJSON_GetObjectItemCaseSensitive(o, key);

	if (!cJSON_IsNumber(n)) {
		return 0;
	}
	*v = n->valuedouble;
	return 1;
}

int hil_rj_bool(const cJSON *o, const char *key)
{
	const cJSON *b = cJSON_GetObjectItemCaseSensitive(o, key);

	if (!cJSON_IsBool(b)) {
		return -1;
	}
	return cJSON_IsTrue(b) ? 1 : 0;
}

const cJSON *hil_rj_rows(const cJSON *report)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(report, "rows");

	return cJSON_IsArray(a) ? a : NULL;
}

const char *hil_rj_unit(const cJSON *report)
{
	const char *u =
		hil_rj_str(cJSON_GetObjectItemCaseSensitive(report, "board"),
			   "counter_unit");

	return u[0] != '\0' ? u : "unknown";
}

int hil_rj_row_ok(const cJSON *row)
{
	return strcmp(hil_rj_str(row, "status"), "ok") == 0;
}

const cJSON *hil_rj_row_estimate(const cJSON *row)
{
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(row, "energy");
	const cJSON *x =
		cJSON_GetObjectItemCaseSensitive(row, "energy_estimate");

	if (cJSON_IsObject(x)) {
		return x;
	}
	if (cJSON_IsObject(e) &&
	    strcmp(hil_rj_str(e, "kind"), "estimate") == 0 &&
	    cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(e, "uj_per_op"))) {
		return e;
	}
	return NULL;
}

int hil_rj_energy_beside(const cJSON *report)
{
	const cJSON *est =
		cJSON_GetObjectItemCaseSensitive(report, "energy_estimate");

	return strcmp(hil_rj_str(est, "role"), "beside") == 0;
}

const char *hil_rj_energy_reason(const cJSON *report)
{
	const cJSON *est =
		cJSON_GetObjectItemCaseSensitive(report, "energy_estimate");
	const cJSON *rows = hil_rj_rows(report);
	const cJSON *r;
	double uj;
	int any_object = 0, measured = 0;
	struct hil_row_view *v = malloc(sizeof(*v));

	/* Each row through result/'s codec (out of memory: read as none). */
	if (v == NULL) {
		rows = NULL;
	}
	cJSON_ArrayForEach(r, rows)
	{
		hil_row_view_read(r, v);
		if (hil_rv_energy(v, &uj)) {
			measured = 1;
			break;
		}
		/* An estimate's "none" is no failure: it says why itself. */
		if (strcmp(v->energy_status, "failed") == 0) {
			any_object = 1;
		}
	}
	free(v);
	if (measured) {
		return NULL;
	}
	if (cJSON_IsObject(est) && !hil_rj_energy_beside(report)) {
		const cJSON *why = cJSON_GetObjectItemCaseSensitive(est, "why");

		return cJSON_IsString(why) && why->valuestring[0] != '\0'
			       ? why->valuestring
			       : "no estimate for any row (see each row's energy.why)";
	}
	if (any_object) {
		return "energy measurement failed on every row (see each row's energy error)";
	}
	{
		const cJSON *sen =
			cJSON_GetObjectItemCaseSensitive(report, "sensor");
		const cJSON *why = cJSON_GetObjectItemCaseSensitive(sen, "why");

		if (cJSON_IsString(why) && why->valuestring[0] != '\0') {
			return why->valuestring;
		}
	}
	if (hil_rj_bool(cJSON_GetObjectItemCaseSensitive(report, "board"),
			"emulated") == 1) {
		return "not measured: emulated board, no energy sensor";
	}
	return "not measured: no energy sensor in this run";
}

const cJSON *hil_rj_impl_size(const cJSON *report, const char *alg,
			      const char *impl)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(report, "sizes");
	const cJSON *e;

	if (!cJSON_IsArray(a)) {
		return NULL;
	}
	cJSON_ArrayForEach(e, a)
	{
		if (strcmp(hil_rj_str(e, "algorithm"), alg) == 0 &&
		    strcmp(hil_rj_str(e, "implementation"), impl) == 0) {
			return e;
		}
	}
	return NULL;
}

int hil_rj_image(const cJSON *report, double *flash, double *ram,
		 double *stack_reserved)
{
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(report, "image");
	const cJSON *all = cJSON_GetObjectItemCaseSensitive(report, "images");

	/* Measured over several images (a pq run: one per scheme; a split
	 * selection): "image" is the last of them, no whole image of the
	 * run; images[] has each. */
	if (cJSON_IsArray(all) && cJSON_GetArraySize(all) > 1) {
		return 0;
	}
	/* Reports written before sizes[] held the image sizes in "sizes". */
	if (!cJSON_IsObject(o)) {
		o = cJSON_GetObjectItemCaseSensitive(report, "sizes");
	}
	if (!cJSON_IsObject(o) || !hil_rj_num(o, "flash_bytes", flash)) {
		return 0;
	}
	if (!hil_rj_num(o, "ram_static_bytes", ram)) {
		*ram = 0;
	}
	if (!hil_rj_num(o, "stack_reserved_bytes", stack_reserved)) {
		*stack_reserved = 0;
	}
	return 1;
}

/* ------------------------------------------------------ decoded rows */

int hil_rv_ok(const struct hil_row_view *r)
{
	return strcmp(r->status, "ok") == 0;
}

int hil_rv_per_byte(const struct hil_row_view *r, double *v)
{
	if (hil_row_view_has(r, &r->per_byte)) {
		*v = r->per_byte;
		return 1;
	}
	if (hil_row_view_has(r, &r->median) &&
	    hil_row_view_has(r, &r->row.msg_len) && r->row.msg_len > 0) {
		*v = r->median / r->row.msg_len;
		return 1;
	}
	return 0;
}

void hil_rv_model_err(const struct hil_row_view *r, char *buf, size_t len)
{
	if (len == 0) {
		return;
	}
	buf[0] = '\0';
	if (hil_row_view_has(r, &r->model.error_pct) &&
	    r->model.error_pct >= 0) {
		snprintf(buf, len, " ± %.0f %%", r->model.error_pct);
	}
}

int hil_rv_energy(const struct hil_row_view *r, double *uj)
{
	if (!hil_row_view_has(r, &r->row.energy.uj_per_op)) {
		return 0;
	}
	*uj = r->row.energy.uj_per_op;
	return 1;
}

const struct hil_row_view_est *hil_rv_estimate(const struct hil_row_view *r)
{
	if (r->est_beside || (strcmp(r->energy_kind, "estimate") == 0 &&
			      hil_row_view_has(r, &r->est.uj_per_op))) {
		return &r->est;
	}
	return NULL;
}

double hil_rv_longest(const struct hil_row_view *rows, size_t n)
{
	double longest = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (hil_row_view_has(&rows[i], &rows[i].row.msg_len) &&
		    rows[i].row.msg_len > longest) {
			longest = rows[i].row.msg_len;
		}
	}
	return longest;
}

int hil_rv_stack(const struct hil_row_view *rows, size_t n, const char *alg,
		 const char *impl, const char *op, double *v)
{
	size_t i;
	int found = 0;

	for (i = 0; i < n; i++) {
		const struct hil_row_view *r = &rows[i];

		if (strcmp(r->algorithm, alg) != 0 ||
		    strcmp(r->implementation, impl) != 0 ||
		    (op != NULL && strcmp(r->operation, op) != 0) ||
		    !hil_row_view_has(r, &r->row.stack_bytes)) {
			continue;
		}
		if (!found || r->row.stack_bytes > *v) {
			*v = r->row.stack_bytes;
		}
		found = 1;
	}
	return found;
}

/* ---------------------------------------------------------------- format */

void hil_fmt_num(char *buf, size_t len, double v)
{
	if (v == 0) {
		v = 0; /* no "-0" */
	}
	if (!isfinite(v)) {
		snprintf(buf, len, "%s", "");
		return;
	}
	if (v == floor(v) && fabs(v) < 1e15) {
		snprintf(buf, len, "%.0f", v);
		return;
	}
	snprintf(buf, len, "%.15g", v);
	if (strtod(buf, NULL) != v) {
		snprintf(buf, len, "%.17g", v);
	}
}

void hil_fmt_clock(const cJSON *report, char *buf, size_t len)
{
	/* The board's fields through result/'s codec tables. */
	struct hil_head_board b;

	hil_result_head_read_one(report, "board", &b);
	if (b.clock_label[0] != '\0') {
		/* "estimated cycles, STM32F401 @ 84 MHz, 2 WS, ART on, ..." */
		snprintf(buf, len, "%s", b.clock_label);
	} else if (b.clock_hz > 0) {
		char n[32];

		hil_fmt_num(n, sizeof(n), b.clock_hz / 1e6);
		snprintf(buf, len, "%s MHz", n);
	} else if (b.emulated) {
		snprintf(buf, len, "%s", "none (emulated)");
	} else {
		snprintf(buf, len, "%s", "not reported");
	}
}

size_t hil_put_ctl(FILE *out, const char *s, int keep_space)
{
	unsigned char c = (unsigned char)s[0];

	if (c == 0xc2 && (unsigned char)s[1] >= 0x80 &&
	    (unsigned char)s[1] <= 0x9f) {
		fprintf(out, "\\u%04x", (unsigned)(unsigned char)s[1]);
		return 2;
	}
	if (c == '\0' || (c >= 0x20 && c != 0x7f) || c == '\t' ||
	    (keep_space && (c == '\n' || c == '\r'))) {
		return 0;
	}
	fprintf(out, "\\x%02x", (unsigned)c);
	return 1;
}

void hil_puts_noctl(FILE *out, const char *s)
{
	while (*s != '\0') {
		size_t n = hil_put_ctl(out, s, 0);

		if (n == 0) {
			fputc(*s, out);
			n = 1;
		}
		s += n;
	}
}

const char *hil_text_noctl(char *buf, size_t len, const char *s)
{
	FILE *f;

	if (len == 0) {
		return buf;
	}
	buf[0] = '\0';
	f = fmemopen(buf, len, "w");
	if (f == NULL) {
		return buf;
	}
	hil_puts_noctl(f, s);
	fputc('\0', f);
	fclose(f);
	buf[len - 1] = '\0';
	return buf;
}

void hil_xml_puts(FILE *out, const char *s)
{
	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		switch (c) {
		case '&':
			fputs("&amp;", out);
			break;
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		case '\'':
			fputs("&#39;", out);
			break;
		default:
			/* XML 1.0 allows no other C0 controls, not even escaped. */
			if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
				c = '?';
			}
			fputc(c, out);
		}
	}
}

int hil_render_status(FILE *out)
{
	return ferror(out) ? HIL_ERR_IO : HIL_OK;
}
