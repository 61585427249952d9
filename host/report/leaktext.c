/* leaktext: a row's timing-leak verdict in words, for summary.md, report.html and the terminal alike. */
#include <stdio.h>
#include <string.h>

#include "render_int.h"

void hil_rv_model_label(const struct hil_row_view *r, char *buf, size_t len)
{
	const char *profile = r != NULL ? r->leak.model_profile : "";

	snprintf(buf, len, "estimated cycles (model profile %s)",
		 profile[0] != '\0' ? profile : "default");
}

int hil_rv_leak_flagged(const struct hil_row_view *r)
{
	if (r->leak.flagged_by < 0) {
		return hil_row_view_has(r, &r->row.leak.flagged) &&
		       r->row.leak.flagged;
	}
	return r->leak.flagged_by > 0;
}

void hil_rv_leak_why(const cJSON *report, const struct hil_row_view *r,
		     char *buf, size_t len)
{
	const char *unit = r->leak.unit;
	const double t = r->row.leak.t, mt = r->row.leak.model.t;
	int by_model, by_counter;
	char label[96];

	if (strcmp(r->leak.model_status, "ok") != 0) {
		snprintf(buf, len, "t = %.1f", t);
		return;
	}
	if (unit[0] == '\0') {
		unit = hil_rj_unit(report);
	}
	hil_rv_model_label(r, label, sizeof(label));
	by_model = hil_row_view_has(r, &r->row.leak.model.flagged) &&
		   r->row.leak.model.flagged;
	by_counter = hil_row_view_has(r, &r->row.leak.flagged) &&
		     r->row.leak.flagged;
	if (by_model && by_counter) {
		snprintf(buf, len,
			 "flagged by %s, t = %.1f, and by %s, t = %.1f", unit,
			 t, label, mt);
	} else if (by_model) {
		snprintf(buf, len, "flagged by %s, t = %.1f; %s: t = %.1f",
			 label, mt, unit, t);
	} else {
		snprintf(buf, len, "flagged by %s, t = %.1f; %s: t = %.1f",
			 unit, t, label, mt);
	}
}
