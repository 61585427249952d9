/* series: the rows of one algorithm, implementation, operation and AD length in a report. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"report"
#include "render_int.h"

#include <stdlib.h>
#include <string.h>

#include "util/err.h"

/* ---------------------------------------------------------------- series */

int hil_series_has(const struct hil_series *s, const cJSON *row)
{
	double ad = 0;

	hil_rj_num(row, "ad_len", &ad);
	return ad == s->ad_len &&
	       strcmp(hil_rj_str(row, "algorithm"), s->algorithm) == 0 &&
	       strcmp(hil_rj_str(row, "implementation"), s->implementation) ==
		       0 &&
	       strcmp(hil_rj_str(row, "operation"), s->operation) == 0;
}

int hil_series_list(const cJSON *report, struct hil_series **out, size_t *n)
{
	const cJSON *rows = hil_rj_rows(report);
	const cJSON *r;
	struct hil_series *s = NULL;
	size_t cnt = 0, i;
	int nrows = cJSON_GetArraySize(rows);

	*out = NULL;
	*n = 0;
	if (nrows <= 0) {
		return HIL_OK;
	}
	s = calloc((size_t)nrows, sizeof(*s));
	if (s == NULL) {
		return HIL_ERR_NOMEM;
	}
	cJSON_ArrayForEach(r, rows)
	{
		for (i = 0; i < cnt; i++) {
			if (hil_series_has(&s[i], r)) {
				break;
			}
		}
		if (i < cnt) {
			continue;
		}
		s[cnt].algorithm = hil_rj_str(r, "algorithm");
		s[cnt].implementation = hil_rj_str(r, "implementation");
		s[cnt].operation = hil_rj_str(r, "operation");
		s[cnt].ad_len = 0;
		hil_rj_num(r, "ad_len", &s[cnt].ad_len);
		cnt++;
	}
	*out = s;
	*n = cnt;
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
