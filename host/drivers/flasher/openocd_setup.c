/* openocd_setup: what the OpenOCD flasher owns of a configuration: its config files (key "openocd_config", else the board's) and its doctor check that they load without a probe. */
#include "openocd.h"

#include <stdio.h>
#include <string.h>

#include "drivers/doctor.h"
#include "config/config.h"
#include "config/jsonld.h"
#include "util/err.h"
#include "util/jail.h"
#include "util/proc.h"

#define CFG_TIMEOUT_MS 5000u /* openocd -f ... -c shutdown: ~30 ms */

const char *const hil_openocd_keys[] = {"openocd_config", NULL};
const char *const hil_openocd_opts[] = {"config", "adapter_khz", NULL};

int hil_openocd_options(const struct hil_config *cfg,
			struct hil_flasher_params *p)
{
	size_t i;
	int ret = HIL_OK;

	for (i = 0; i < cfg->flasher.n_files && ret == HIL_OK; i++) {
		ret = hil_flasher_params_add(p, "config",
					     cfg->flasher.files[i]);
	}
	return ret;
}

int hil_openocd_parse(struct hil_jsonld *ld, const cJSON *section,
		      const char *board_arg, struct hil_config *cfg)
{
	const cJSON *it = hil_jsonld_member(section, "openocd_config");
	const cJSON *c;
	char p[HIL_JSONLD_PATH];
	size_t n = 0, i = 0;
	int ret;

	if (it == NULL) {
		/* The board's own config file (its driver knows it). */
		if (cfg->flasher.n_files == 0 && board_arg != NULL) {
			snprintf(cfg->flasher.files[0],
				 sizeof(cfg->flasher.files[0]), "%s",
				 board_arg);
			cfg->flasher.n_files = 1;
		}
		return HIL_OK;
	}
	ret = hil_jsonld_array(ld, it, "flasher.openocd_config", 1,
			       HIL_CFG_MAX_FLASHER_FILES, &n);
	if (ret != HIL_OK) {
		return ret;
	}
	cJSON_ArrayForEach(c, it)
	{
		snprintf(p, sizeof(p), "flasher.openocd_config[%zu]", i);
		ret = hil_jsonld_str(ld, c, p, cfg->flasher.files[i],
				     sizeof(cfg->flasher.files[i]), 0);
		if (ret != HIL_OK) {
			return ret;
		}
		i++;
	}
	cfg->flasher.n_files = n;
	return HIL_OK;
}

/*
 * `openocd -f CFG1 .. -f CFGi -c "echo ok; shutdown"` for each i: exit 0
 * means the files are found and valid, which needs no probe. Cumulative,
 * because a later file may rely on an earlier one (a target after its
 * interface); a failure is then the i-th file's.
 * @return 1 if all passed.
 */
int hil_openocd_doctor(struct hil_doctor *d, const struct hil_config *cfg)
{
	char *argv[2 + 2 * HIL_CFG_MAX_FLASHER_FILES + 2];
	const char *files[HIL_CFG_MAX_FLASHER_FILES];
	char out[4096], why[1200];
	struct hil_jail *jail = NULL;
	size_t i, n = 0, k;
	int status, ret, all = 1;

	/* The files are Tcl, which can exec: read in OpenOCD's jail. */
	for (i = 0; i < cfg->flasher.n_files; i++) {
		files[i] = cfg->flasher.files[i];
	}
	if (d->jail && hil_openocd_jail(files, cfg->flasher.n_files, NULL,
					&jail) != HIL_OK) {
		hil_doctor_report(d, "openocd config", HIL_V_FAIL,
				  "cannot set up the jail OpenOCD runs in");
		return 0;
	}

	argv[n++] = (char *)cfg->flasher.program;
	for (i = 0; i < cfg->flasher.n_files; i++) {
		argv[n++] = "-f";
		argv[n++] = (char *)cfg->flasher.files[i];
		k = n;
		argv[k++] = "-c";
		argv[k++] = "echo ok; shutdown";
		argv[k] = NULL;
		if (!all) {
			hil_doctor_report(d, "openocd config", HIL_V_SKIP,
					  "%s: an earlier config failed",
					  cfg->flasher.files[i]);
			continue;
		}
		status = -1;
		ret = hil_proc_capture_jailed(argv, out, sizeof(out),
					      CFG_TIMEOUT_MS, &status, jail,
					      NULL);
		if (ret == HIL_OK && status == 0) {
			hil_doctor_report(
				d, "openocd config", HIL_V_OK,
				"%s is valid (checked without a probe)",
				cfg->flasher.files[i]);
			continue;
		}
		if (ret == HIL_OK) {
			/* OpenOCD names the problem on an "Error" line. */
			char *e = strstr(out, "Error");

			snprintf(
				why, sizeof(why),
				"%s: %s -f ... -c \"echo ok; shutdown\" exits with status %d: %s",
				cfg->flasher.files[i], cfg->flasher.program,
				status,
				hil_doctor_first_line(e != NULL ? e : out));
		} else {
			hil_doctor_tool_failure(why, sizeof(why),
						cfg->flasher.program, ret,
						status, out);
		}
		hil_doctor_report(d, "openocd config", HIL_V_FAIL, "%s", why);
		all = 0;
	}
	if (cfg->flasher.n_files == 0) {
		hil_doctor_report(d, "openocd config", HIL_V_FAIL,
				  "flasher.openocd_config lists no file");
		all = 0;
	}
	hil_jail_free(jail);
	return all;
}
