/* leaktext: a row's timing-leak verdict in words, for summary.md, report.html and the terminal alike. */
#include <stdio.h>
#include <string.h>

#include "render_int.h"

void hil_rj_model_label(const cJSON *model, char *buf, size_t len)
{
	const char *profile = hil_rj_str(model, "profile");

	snprintf(buf, len, "estimated cycles (model profile %s)",
		 profile[0] != '\0' ? profile : "default");
}

int hil_rj_leak_flagged(const cJSON *leak)
{
	const cJSON *by = cJSON_GetObjectItemCaseSensitive(leak, "flagged_by");

	if (!cJSON_IsArray(by)) {
		return hil_rj_bool(leak, "flagged") == 1;
	}
	return cJSON_GetArraySize(by) > 0;
}

void hil_rj_leak_why(const cJSON *report, const cJSON *leak, char *buf,
		     size_t len)
{
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(leak, "model_cycles");
	const char *unit = hil_rj_str(leak, "unit");
	double t = 0, mt = 0;
	int by_model, by_counter;
	char label[96];

	hil_rj_num(leak, "t", &t);
	if (strcmp(hil_rj_str(m, "status"), "ok") != 0) {
		snprintf(buf, len, "t = %.1f", t);
		return;
	}
	if (unit[0] == '\0') {
		unit = hil_rj_unit(report);
	}
	hil_rj_num(m, "t", &mt);
	hil_rj_model_label(m, label, sizeof(label));
	by_model = hil_rj_bool(m, "flagged") == 1;
	by_counter = hil_rj_bool(leak, "flagged") == 1;
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
