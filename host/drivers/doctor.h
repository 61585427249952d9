/* doctor: the report `hilrun doctor` writes, one line a check, for the command's checks and the drivers' own (a flasher's doctor op). */
#ifndef HIL_DRIVERS_DOCTOR_H
#define HIL_DRIVERS_DOCTOR_H

#include <stddef.h>
#include <stdio.h>

/* Where the lines go, how many checks failed, and whether the tools that
 * read a configuration's files (a flasher's config, its probe check) run
 * in the jail (util/jail.h): 1 when one can be set up here. */
struct hil_doctor {
	FILE *out;
	int fails;
	int jail;
};

enum hil_verdict { HIL_V_OK, HIL_V_FAIL, HIL_V_SKIP };

/** One line: "<name> ok|FAIL|skip: <detail>"; a FAIL counts. */
void hil_doctor_report(struct hil_doctor *d, const char *name,
		       enum hil_verdict v, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/** The first non-empty line of text, cut in place. */
const char *hil_doctor_first_line(char *text);

/**
 * Why a tool could not be run or failed, for a FAIL line.
 * @param ret and status as hil_proc_capture() gave them; output its text.
 */
void hil_doctor_tool_failure(char *buf, size_t len, const char *program,
			     int ret, int status, char *output);

#endif /* HIL_DRIVERS_DOCTOR_H */
