/* series: the rows of one algorithm, implementation, operation and AD length, in one report or across a sweep's reports. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"report"
#include "render_int.h"

#include <stdlib.h>
#include <string.h>

#include "result/rowview.h"
#include "util/err.h"

/* ---------------------------------------------------------------- series */

int hil_series_has_row(const struct hil_series *s, const struct hil_row_view *r)
{
	const double ad =
		hil_row_view_has(r, &r->row.ad_len) ? r->row.ad_len : 0;

	return ad == s->ad_len && strcmp(r->algorithm, s->algorithm) == 0 &&
	       strcmp(r->implementation, s->implementation) == 0 &&
	       strcmp(r->operation, s->operation) == 0;
}

int hil_series_of_rows(const struct hil_row_view *rows, size_t n,
		       struct hil_series **out, size_t *ns)
{
	struct hil_series *s;
	size_t cnt = 0, i, j;

	*out = NULL;
	*ns = 0;
	if (n == 0) {
		return HIL_OK;
	}
	s = calloc(n, sizeof(*s));
	if (s == NULL) {
		return HIL_ERR_NOMEM;
	}
	for (j = 0; j < n; j++) {
		const struct hil_row_view *r = &rows[j];

		/* A post-quantum operation has no cost per byte: its own
		 * section shows it (pqtables.c). */
		if (r->is_pq) {
			continue;
		}
		for (i = 0; i < cnt; i++) {
			if (hil_series_has_row(&s[i], r)) {
				break;
			}
		}
		if (i < cnt) {
			continue;
		}
		s[cnt].algorithm = r->algorithm;
		s[cnt].implementation = r->implementation;
		s[cnt].operation = r->operation;
		s[cnt].ad_len =
			hil_row_view_has(r, &r->row.ad_len) ? r->row.ad_len : 0;
		cnt++;
	}
	*out = s;
	*ns = cnt;
	return HIL_OK;
}

void hil_series_name(const struct hil_series *s, char *buf, size_t len)
{
	if (s->ad_len != 0) {
		char ad[32];

		hil_fmt_num(ad, sizeof(ad), s->ad_len);
		snprintf(buf, len, "%s/%s %s, ad %s", s->algorithm,
			 s->implementation, s->operation, ad);
	} else {
		snprintf(buf, len, "%s/%s %s", s->algorithm, s->implementation,
			 s->operation);
	}
}

/* ---------------------------------------------------------------- sweep */

static const char *sw_name(const cJSON *report)
{
	const cJSON *run = cJSON_GetObjectItemCaseSensitive(report, "run");
	const char *name = hil_rj_str(run, "config_name");

	return name[0] != '\0' ? name : hil_rj_str(run, "id");
}

void hil_sweep_label(const cJSON *const *reports, size_t n, size_t i, char *buf,
		     size_t len)
{
	size_t j;

	for (j = 0; j < n; j++) {
		if (j != i &&
		    strcmp(sw_name(reports[j]), sw_name(reports[i])) == 0) {
			snprintf(buf, len, "%s, run %s", sw_name(reports[i]),
				 hil_rj_str(cJSON_GetObjectItemCaseSensitive(
						    reports[i], "run"),
					    "id"));
			return;
		}
	}
	snprintf(buf, len, "%s", sw_name(reports[i]));
}

int hil_sweep_rows_read(const cJSON *const *reports, size_t n,
			struct hil_sweep_rows **out)
{
	size_t i;

	*out = calloc(n > 0 ? n : 1, sizeof(**out));
	if (*out == NULL) {
		return HIL_ERR_NOMEM;
	}
	for (i = 0; i < n; i++) {
		if (hil_row_views_read(hil_rj_rows(reports[i]), &(*out)[i].r,
				       &(*out)[i].n) != HIL_OK) {
			hil_sweep_rows_free(*out, n);
			*out = NULL;
			return HIL_ERR_NOMEM;
		}
	}
	return HIL_OK;
}

void hil_sweep_rows_free(struct hil_sweep_rows *rows, size_t n)
{
	size_t i;

	for (i = 0; rows != NULL && i < n; i++) {
		free(rows[i].r);
	}
	free(rows);
}

const struct hil_row_view *hil_sweep_row_at(const struct hil_sweep_rows *rows,
					    const struct hil_series *s,
					    double len)
{
	size_t i;

	for (i = 0; i < rows->n; i++) {
		const struct hil_row_view *r = &rows->r[i];

		if (hil_series_has_row(s, r) &&
		    hil_row_view_has(r, &r->row.msg_len) &&
		    r->row.msg_len == len) {
			return r;
		}
	}
	return NULL;
}

/* The series of every report, each once, in first-seen order. */
int hil_sweep_series(const struct hil_sweep_rows *rows, size_t n,
		     struct hil_series **out, size_t *nout)
{
	struct hil_series *all = NULL;
	size_t na = 0, i, j, k;
	int ret = HIL_OK;

	*out = NULL;
	*nout = 0;
	for (i = 0; i < n && ret == HIL_OK; i++) {
		struct hil_series *s = NULL, *grown;
		size_t ns = 0;

		ret = hil_series_of_rows(rows[i].r, rows[i].n, &s, &ns);
		if (ret != HIL_OK || ns == 0) {
			free(s);
			continue;
		}
		grown = realloc(all, (na + ns) * sizeof(*all));
		if (grown == NULL) {
			free(s);
			ret = HIL_ERR_NOMEM;
			break;
		}
		all = grown;
		for (j = 0; j < ns; j++) {
			for (k = 0; k < na; k++) {
				if (strcmp(all[k].algorithm, s[j].algorithm) ==
					    0 &&
				    strcmp(all[k].implementation,
					   s[j].implementation) == 0 &&
				    strcmp(all[k].operation, s[j].operation) ==
					    0 &&
				    all[k].ad_len == s[j].ad_len) {
					break;
				}
			}
			if (k == na) {
				all[na++] = s[j];
			}
		}
		free(s);
	}
	if (ret != HIL_OK) {
		free(all);
		return ret;
	}
	*out = all;
	*nout = na;
	return HIL_OK;
}

/* Ascending insertion into lens[0..nl), each length once, at most cap. */
size_t hil_sweep_lengths(const struct hil_sweep_rows *rows, size_t n,
			 double *lens, size_t cap)
{
	size_t nl = 0, i, j, k, m;

	for (i = 0; i < n; i++) {
		for (m = 0; m < rows[i].n; m++) {
			const struct hil_row_view *r = &rows[i].r[m];
			double l;

			if (!hil_row_view_has(r, &r->row.msg_len) ||
			    r->row.msg_len == 0) {
				continue;
			}
			l = r->row.msg_len;
			for (j = 0; j < nl && lens[j] < l; j++) {
			}
			if ((j < nl && lens[j] == l) || nl == cap) {
				continue;
			}
			for (k = nl; k > j; k--) {
				lens[k] = lens[k - 1];
			}
			lens[j] = l;
			nl++;
		}
	}
	return nl;
}

void hil_sweep_size_cells(const cJSON *report,
			  const struct hil_sweep_rows *rows,
			  const struct hil_series *s, char *flash, char *ram,
			  size_t len)
{
	const cJSON *z =
		hil_rj_impl_size(report, s->algorithm, s->implementation);
	double fl, rb, st;

	snprintf(flash, len, "-");
	snprintf(ram, len, "-");
	if (hil_rj_num(z, "flash_bytes", &fl)) {
		snprintf(flash, len, "%.0f", fl);
	}
	if (hil_rj_num(z, "ram_bytes", &rb) &&
	    hil_rv_stack(rows->r, rows->n, s->algorithm, s->implementation,
			 NULL, &st)) {
		snprintf(ram, len, "%.0f", rb + st);
	}
}
