/* runner_image: what a run records of the image it measures (git commit, build-id, sizes) and how the emulator is told to model its cycles. */
#define _XOPEN_SOURCE  700 /* gethostname */
#define HIL_LOG_PREFIX "runner"
#include "runner_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "drivers/board/board.h"
#include "emu/cyclemodel.h"
#include "image/elfinfo.h"
#include "util/err.h"
#include "util/log.h"
#include "util/proc.h"

void hil_rn_git_provenance(const char *root, struct hil_run *run)
{
	char *rev[] = {"git", "-C", (char *)root, "rev-parse", "HEAD", NULL};
	char *st[] = {"git",	"-C",	       (char *)root,
		      "status", "--porcelain", "--untracked-files=no",
		      NULL};
	char out[4096];
	int status = -1;

	snprintf(run->tool_commit, sizeof(run->tool_commit), "unknown");
	if (hil_proc_capture(rev, out, sizeof(out), 10000, &status) == HIL_OK &&
	    status == 0) {
		out[strcspn(out, "\r\n")] = '\0';
		snprintf(run->tool_commit, sizeof(run->tool_commit), "%s", out);
	}
	if (hil_proc_capture(st, out, sizeof(out), 10000, &status) == HIL_OK &&
	    status == 0) {
		run->tool_dirty = out[0] != '\0';
	}
}

void hil_rn_host_provenance(struct hil_run *run)
{
	const char *env = getenv("HILRUN_HOST");
	struct utsname u;

	/* $HILRUN_HOST: the lab host's name when it is not the machine's
	 * (several simulated hosts on one machine, a container's name). */
	if (env != NULL && env[0] != '\0') {
		snprintf(run->host, sizeof(run->host), "%s", env);
	} else if (gethostname(run->host, sizeof(run->host) - 1) != 0) {
		snprintf(run->host, sizeof(run->host), "unknown");
	}
	if (uname(&u) == 0) {
		snprintf(run->host_os, sizeof(run->host_os), "%s %s %s",
			 u.sysname, u.release, u.machine);
	}
}

int hil_rn_elf_identity(const char *elf, struct hil_run *run)
{
	struct hil_elf_info ei;
	int ret = hil_elf_info(elf, &ei);

	if (ret != HIL_OK) {
		return ret;
	}
	if (ei.build_id_len == 0) {
		hil_err("%s has no GNU build-id: it cannot be identified on the target",
			elf);
		return HIL_ERR_BUILD;
	}
	snprintf(run->build_id, sizeof(run->build_id), "%s", ei.build_id_hex);
	snprintf(run->elf_sha256, sizeof(run->elf_sha256), "%s", ei.sha256_hex);
	snprintf(run->elf_compiler, sizeof(run->elf_compiler), "%s",
		 ei.compiler);
	run->sizes.flash = (unsigned long)ei.flash;
	run->sizes.ram_static = (unsigned long)ei.ram;
	run->sizes.stack_reserved = (unsigned long)ei.stack;
	return HIL_OK;
}

int hil_rn_image_info(struct hil_run *run)
{
	int ret = hil_rn_elf_identity(run->fw.elf, run);

	if (ret != HIL_OK) {
		return ret;
	}
	if (run->sizes.flash < HIL_RN_MIN_STUB_FLASH) {
		/* The smallest stub is some 4 KB; 36 bytes is what a flag
		 * that stops cc1 from compiling (-fself-test=x) left, and
		 * QEMU's lockup on it read as a board that did not answer:
		 * exit 5, worth a retry, for a mistake. */
		hil_err("%s has %lu bytes of code and data in flash, no stub: the build produced nothing to run (see build.log; a compiler flag that stops the compiler?)",
			run->fw.elf, run->sizes.flash);
		return HIL_ERR_BUILD;
	}
	{
		char map[HIL_PATH + 16];

		snprintf(map, sizeof(map), "%s/stub.map", run->fw.dir);
		return hil_map_impl_sizes(map, &run->impl_sizes,
					  &run->n_impl_sizes,
					  &run->cap_impl_sizes);
	}
}

/*
 * On the emulated board, QEMU loads the cycle-model plugin with the
 * memory-system profile of the config; its records go to cycles.txt in the run folder.
 * Without the plugin the run goes on with instruction counts only, and the
 * report says why.
 */
void hil_rn_model_plugin(const struct hil_config *cfg, const char *root,
			 struct hil_run *run)
{
	struct hil_cyclemodel_opts o;
	char plugin[HIL_PATH];
	int ret;

	run->model.enabled = 0;
	if (!hil_board_emulated(cfg->board.name)) {
		snprintf(
			run->model.why, sizeof(run->model.why),
			"not an emulated board: the counter counts real cycles");
		return;
	}
	if (!cfg->cycle_model.enabled) {
		snprintf(run->model.why, sizeof(run->model.why),
			 "cycle_model.enabled is false");
		return;
	}
	memset(&o, 0, sizeof(o));
	ret = hil_cyclemodel_find_plugin(root, plugin, sizeof(plugin));
	if (ret != HIL_OK) {
		snprintf(
			run->model.why, sizeof(run->model.why),
			"the cycle-model plugin is not built (make cycle-plugin)");
		hil_warn("%s: rows carry instruction counts only",
			 run->model.why);
		return;
	}
	ret = hil_cyclemodel_range_from_elf(run->fw.elf,
					    HIL_CYCLEMODEL_TIMED_FUNC,
					    &o.range_lo, &o.range_hi);
	if (ret != HIL_OK) {
		snprintf(run->model.why, sizeof(run->model.why),
			 "the image has no %s() to bracket: %s",
			 HIL_CYCLEMODEL_TIMED_FUNC, hil_strerror(ret));
		hil_warn("%s", run->model.why);
		return;
	}
	snprintf(run->model.file, sizeof(run->model.file), "%s/cycles.txt",
		 run->dir);
	o.plugin = plugin;
	o.out = run->model.file;
	o.profile = cfg->cycle_model.profile[0] != '\0'
			    ? cfg->cycle_model.profile
			    : NULL;
	o.ws = cfg->cycle_model.wait_states;
	o.art = cfg->cycle_model.art;
	{
		const struct hil_board_driver *b =
			hil_board_find(cfg->board.name);

		o.counter = b != NULL ? b->model_counter : 0u;
	}
	ret = hil_cyclemodel_plugin_arg(&o, run->model.plugin_arg,
					sizeof(run->model.plugin_arg));
	if (ret != HIL_OK) {
		snprintf(run->model.why, sizeof(run->model.why),
			 "the plugin's argument does not fit: %s",
			 hil_strerror(ret));
		return;
	}
	run->model.enabled = 1;
	snprintf(run->model.profile, sizeof(run->model.profile), "%s",
		 cfg->cycle_model.profile);
	run->model.ws = o.ws;
	run->model.art = o.art;
	run->model.why[0] = '\0';
	hil_cyclemodel_unit(o.profile, o.ws, o.art, run->model.unit,
			    sizeof(run->model.unit));
}
