/* doctor: the lines of `hilrun doctor` as the drivers' own checks and the command's write them ("<check> ok|FAIL|skip: <detail>"). */
#define _POSIX_C_SOURCE 200809L
#include "doctor.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "util/err.h"

#define NAME_WIDTH 28
#define DETAIL_LEN 1024

void hil_doctor_report(struct hil_doctor *d, const char *name,
		       enum hil_verdict v, const char *fmt, ...)
{
	static const char *const word[] = {"ok", "FAIL", "skip"};
	char detail[DETAIL_LEN];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	/* One line, whatever a tool printed. */
	detail[strcspn(detail, "\r\n")] = '\0';
	fprintf(d->out, "%-*s %s%s%s\n", NAME_WIDTH, name, word[v],
		detail[0] != '\0' ? ": " : "", detail);
	fflush(d->out);
	if (v == HIL_V_FAIL) {
		d->fails++;
	}
}

/* The first non-empty line of text, in place. */
const char *hil_doctor_first_line(char *text)
{
	char *s = text + strspn(text, "\r\n \t");

	s[strcspn(s, "\r\n")] = '\0';
	return s;
}

/* Why a tool could not be run or failed, for a FAIL line. */
void hil_doctor_tool_failure(char *buf, size_t len, const char *program,
			     int ret, int status, char *output)
{
	if (ret == HIL_ERR_NA) {
		snprintf(buf, len, "%s not found in PATH or not executable",
			 program);
	} else if (ret == HIL_ERR_TIMEOUT) {
		snprintf(buf, len, "%s did not answer in time (killed)",
			 program);
	} else if (ret != HIL_OK) {
		snprintf(buf, len, "cannot run %s: %s", program,
			 hil_strerror(ret));
	} else {
		snprintf(buf, len, "%s: exit status %d: %s", program, status,
			 hil_doctor_first_line(output));
	}
}
