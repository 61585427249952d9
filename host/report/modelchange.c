/* modelchange: how far a change between two cycle-model estimates is established, given their error bars (docs/cycle-model.md, "Comparing two estimates"). */
#include "report/modelchange.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

double hil_model_error_combined(double a_pct, double b_pct)
{
	if (a_pct < 0 && b_pct < 0) {
		return -1;
	}
	if (a_pct < 0) {
		a_pct = b_pct;
	}
	if (b_pct < 0) {
		b_pct = a_pct;
	}
	return sqrt(a_pct * a_pct + b_pct * b_pct);
}

int hil_model_change_within_error(double change_pct, double a_pct, double b_pct)
{
	double e = hil_model_error_combined(a_pct, b_pct);

	return e >= 0 && fabs(change_pct) <= e;
}

void hil_model_unit_profile(const char *unit, char *buf, size_t len)
{
	const char *p = unit != NULL ? strstr(unit, "model, ") : NULL;
	size_t n;

	if (len == 0) {
		return;
	}
	buf[0] = '\0';
	if (p == NULL) {
		return;
	}
	p += strlen("model, ");
	n = strcspn(p, ":,)");
	/* "2 WS, ART on": no name before the wait states. */
	if (p[n] != ':') {
		return;
	}
	/* "nrf52840-cal overridden: ..." names the profile too. */
	if (n > 11 && strncmp(p + n - 11, " overridden", 11) == 0) {
		n -= 11;
	}
	snprintf(buf, len, "%.*s", (int)n, p);
}

void hil_model_no_error_bar(char *buf, size_t len, const char *profile,
			    const char *unit)
{
	char name[128];

	if (profile == NULL || profile[0] == '\0') {
		hil_model_unit_profile(unit, name, sizeof(name));
		profile = name;
	}
	if (profile[0] != '\0') {
		snprintf(
			buf, len,
			"no error bar: profile %s is not calibrated (its estimates are not validated against a board: docs/cycle-model.md)",
			profile);
	} else {
		/* "cycles (estimated, Cortex-M4 model, 2 WS, ART on)": what
		 * it modelled is "2 WS, ART on". */
		const char *what =
			unit != NULL ? strstr(unit, "model, ") : NULL;
		size_t n;

		what = what != NULL ? what + strlen("model, ") : "";
		n = strlen(what);
		n -= n > 0 && what[n - 1] == ')';
		snprintf(
			buf, len,
			"no error bar: the modelled memory system (%.*s%sno named profile) is not calibrated (docs/cycle-model.md)",
			(int)n, what, n > 0 ? ", " : "");
	}
}
