/* pyocd_errors: pyOCD 0.13.1's output read for what went wrong, turned into one line and a hil error code. */
#include "pyocd.h"

#include <stdio.h>
#include <string.h>

#include "util/err.h"

/* What pyOCD 0.13.1 prints (see the facts in pyocd.c for where). */
#define PY_NO_UID	 "A debug probe matching unique ID"
#define PY_NO_PROBE	 "No connected debug probes"
#define PY_NO_PROBE_END	 "There is no debug probe connected"
#define PY_SEVERAL_UID	 "More than one debug probe matches unique ID"
#define PY_CHOOSE	 "Enter the number of the debug probe to connect"
#define PY_BAD_TARGET	 "argument -t/--target: invalid choice"
#define PY_UNKNOWN	 "not recognized"
#define PY_BUSY		 "Resource busy"
#define PY_STLINK	 "STLink error ("
#define PY_NO_HEX	 "Unable to program hex file"
#define PY_FLASH_ERROR	 "ERROR:root:"
#define PY_BAD_ADDRESS	 "Attempt to program flash at invalid address"
#define PY_BAD_ADDRESS_2 "Invalid flash address"

/* Copy the line of text that contains needle (without its newline). */
static const char *line_with(const char *text, const char *needle, char *line,
			     size_t len)
{
	const char *at = strstr(text, needle), *b, *e;
	size_t n;

	if (at == NULL) {
		return NULL;
	}
	for (b = at; b > text && b[-1] != '\n'; b--) {
	}
	e = strchr(at, '\n');
	n = e != NULL ? (size_t)(e - b) : strlen(b);
	if (n > 0 && b[n - 1] == '\r') {
		n--;
	}
	if (n >= len) {
		n = len - 1;
	}
	memcpy(line, b, n);
	line[n] = '\0';
	return at;
}

/* The last line that is not blank, or "". */
void hil_pyocd_last_line(const char *text, char *line, size_t len)
{
	const char *e = text + strlen(text), *b;
	size_t n;

	while (e > text && strchr(" \t\r\n", e[-1]) != NULL) {
		e--;
	}
	for (b = e; b > text && b[-1] != '\n'; b--) {
	}
	n = (size_t)(e - b);
	if (n >= len) {
		n = len - 1;
	}
	memcpy(line, b, n);
	line[n] = '\0';
}

/* Does a flash-algorithm failure show in an output (exit status 0 too)? */
int hil_pyocd_flash_failed(const char *out, char *why, size_t len)
{
	char line[256];

	if (strstr(out, PY_NO_HEX) != NULL) {
		snprintf(
			why, len,
			"pyOCD cannot read Intel HEX files (\"%s\"): sudo apt-get install python3-intelhex",
			PY_NO_HEX);
		return HIL_ERR_NA;
	}
	if (line_with(out, PY_BAD_ADDRESS, line, sizeof(line)) != NULL ||
	    line_with(out, PY_BAD_ADDRESS_2, line, sizeof(line)) != NULL) {
		snprintf(
			why, len,
			"the image has bytes outside the target's flash (\"%s\"): is it linked for this chip and this pyOCD target type?",
			line);
		return HIL_ERR_PROCESS;
	}
	if (line_with(out, PY_FLASH_ERROR, line, sizeof(line)) != NULL) {
		snprintf(
			why, len,
			"programming failed (\"%s\"); is the flash write-protected (option bytes)?",
			line);
		return HIL_ERR_PROCESS;
	}
	return HIL_OK;
}

/* An ST-LINK status that means the probe does not reach the target. */
static const char *unreached(const char *out)
{
	static const char *const codes[] = {
		"No device connected",
		"Get IDCODE error",
		"Debug power error",
		"DP error",
		"DP fault",
		"DP wait",
		"DP parity error",
	};
	const char *at = strstr(out, PY_STLINK);
	size_t i;

	for (; at != NULL; at = strstr(at + 1, PY_STLINK)) {
		const char *nl = strchr(at, '\n');

		for (i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
			const char *c = strstr(at, codes[i]);

			if (c != NULL && (nl == NULL || c < nl)) {
				return at;
			}
		}
	}
	return NULL;
}

/**
 * Turn pyOCD 0.13.1's output of a failed run into one line.
 * @return the code the failure maps to (see hil_flasher_start()).
 */
int hil_pyocd_explain(const struct hil_flasher *f, const char *out,
		      int flashing, char *why, size_t len)
{
	const char *uid = hil_pyocd_uid_of(f);
	const char *target = hil_flasher_opt(f, "target");
	char line[256];
	int ret;

	if (strstr(out, PY_SEVERAL_UID) != NULL) {
		snprintf(
			why, len,
			"probe serial %s matches several probes (pyOCD takes any part of a unique ID): give the probe's whole unique ID ('pyocd-flashtool -l' lists them)",
			uid != NULL ? uid : "");
		return HIL_ERR_CONFIG;
	}
	if (strstr(out, PY_CHOOSE) != NULL) {
		snprintf(
			why, len,
			"several probes are connected and no probe serial is set, so pyOCD asks which one on a terminal: set flasher.probe_serial to the unique ID of the board's probe ('pyocd-flashtool -l' lists them)");
		return HIL_ERR_CONFIG;
	}
	if (strstr(out, PY_WAITING) != NULL || strstr(out, PY_NO_UID) != NULL ||
	    strstr(out, PY_NO_PROBE) != NULL ||
	    strstr(out, PY_NO_PROBE_END) != NULL) {
		if (uid != NULL) {
			snprintf(
				why, len,
				"no probe found: no debug probe with unique ID %s is connected ('pyocd-flashtool -l' lists the unique IDs; is the board plugged in with a data cable? pyOCD 0.13.1 also leaves out a probe this user may not open: check the udev rules and the plugdev group)",
				uid);
		} else {
			snprintf(
				why, len,
				"no probe found: pyOCD sees no debug probe (is the board plugged in with a data cable? pyOCD 0.13.1 also leaves out a probe this user may not open: check the udev rules and the plugdev group)");
		}
		return HIL_ERR_NA;
	}
	if (strstr(out, PY_BAD_TARGET) != NULL ||
	    (strstr(out, "target '") != NULL &&
	     strstr(out, PY_UNKNOWN) != NULL)) {
		/* The project's own board is the one a user tries first. */
		snprintf(
			why, len,
			"pyOCD does not know the target type '%s' ('pyocd-flashtool --help' lists the ones it knows; %s)",
			target,
			strncmp(target, "stm32f401", 9) == 0
				? "Debian 12's pyOCD 0.13.1 has no STM32F401: use the openocd flasher for a NUCLEO-F401RE"
				: "for a chip it lacks, use the openocd flasher");
		return HIL_ERR_CONFIG;
	}
	if (line_with(out, PY_BUSY, line, sizeof(line)) != NULL) {
		snprintf(
			why, len,
			"the probe is busy: another program holds it (OpenOCD, a debugger, another run?) (\"%s\")",
			line);
		return HIL_ERR_NA;
	}
	if (unreached(out) != NULL) {
		line_with(unreached(out), PY_STLINK, line, sizeof(line));
		snprintf(
			why, len,
			"the probe is there but cannot reach the target (\"%s\"): is the board powered, is the SWD link in place (jumpers), is the chip held in reset?",
			line);
		return HIL_ERR_NA;
	}
	if (flashing) {
		ret = hil_pyocd_flash_failed(out, why, len);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	hil_pyocd_last_line(out, line, sizeof(line));
	if (line[0] != '\0') {
		snprintf(why, len, "\"%s\"", line);
	} else {
		snprintf(why, len, "no error message from pyOCD");
	}
	return HIL_ERR_PROCESS;
}
