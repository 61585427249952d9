/* json: the report JSON of a run, written atomically. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"report"
#include "reportjson.h"
#include "rowjson.h"
#include "clocklabel.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "drivers/board/board.h"
#include "emu/cyclemodel.h"
#include "emu/plugin/memsys.h"
#include "util/err.h"
#include "util/log.h"
#include "util/util.h"

#define HIL_VERSION "0.1.0"

/* session.requests_by_command: {"BENCH": n, ...}, the commands sent. */
static int add_requests_by_command(cJSON *o, const struct hil_run *run)
{
	cJSON *c = cJSON_AddObjectToObject(o, "requests_by_command");
	unsigned i;

	if (c == NULL) {
		return 0;
	}
	for (i = 0; i < HIL_SESSION_CMD_SLOTS; i++) {
		if (run->requests_by_cmd[i] > 0 &&
		    !hil_json_add_num(c, hil_session_cmd_name((uint8_t)i),
				      run->requests_by_cmd[i])) {
			return 0;
		}
	}
	return 1;
}

/* The sensor: what it is, how it was set up, or why there is none. */
static int add_sensor(cJSON *o, const struct hil_run *run)
{
	const struct hil_run_sensor *z = &run->sensor;
	char hex[16];
	int ok;

	if (z->type[0] == '\0' || strcmp(z->type, "none") == 0) {
		ok = hil_json_add_str(o, "type", "none");
		return ok && hil_json_add_str(o, "why",
					      z->why[0] != '\0'
						      ? z->why
						      : "no sensor configured");
	}
	ok = hil_json_add_str(o, "type", z->type);
	ok = ok && hil_json_add_str(o, "kind", z->model ? "model" : "measured");
	ok = ok && hil_json_add_str(o, "bus", z->bus);
	snprintf(hex, sizeof(hex), "0x%02x", z->address);
	ok = ok && hil_json_add_str(o, "address", hex);
	ok = ok && hil_json_add_num(o, "shunt_ohm", z->shunt_ohm);
	ok = ok && hil_json_add_num(o, "max_current_a", z->max_current_a);
	snprintf(hex, sizeof(hex), "0x%04x", z->config_reg);
	ok = ok && hil_json_add_str(o, "config_register", hex);
	snprintf(hex, sizeof(hex), "0x%04x", z->cal_reg);
	ok = ok && hil_json_add_str(o, "calibration_register", hex);
	ok = ok && hil_json_add_num(o, "current_lsb_a", z->current_lsb_a);
	ok = ok && hil_json_add_num(o, "conversion_cycle_us", z->cycle_us);
	ok = ok && hil_json_add_str(o, "time_basis", z->time_basis);
	if (z->assumes[0] != '\0') {
		ok = ok && hil_json_add_str(o, "assumes", z->assumes);
	}
	if (z->why[0] != '\0') {
		ok = ok && hil_json_add_str(o, "why", z->why);
	}
	return ok;
}

static cJSON *report_object(const struct hil_run *run)
{
	const struct hil_config *cfg = run->cfg;
	const struct hil_board_driver *bd;
	struct hil_flash_state fs;
	cJSON *root = cJSON_CreateObject();
	cJSON *o;
	cJSON *a;
	char uid[2 * HILP_UID_LEN + 1];
	size_t i;
	int ok = root != NULL;

	ok = ok && hil_json_add_num(root, "schema_version",
				    HIL_REPORT_SCHEMA_VERSION);

	o = ok ? cJSON_AddObjectToObject(root, "run") : NULL;
	ok = ok && o != NULL;
	ok = ok && hil_json_add_str(o, "id", run->id);
	ok = ok && hil_json_add_str(o, "status", run->status);
	ok = ok && hil_json_add_str(o, "started", run->started);
	ok = ok && hil_json_add_str(o, "finished", run->finished);
	ok = ok &&
	     hil_json_add_str(o, "config",
			      run->config_given[0] != '\0' ? run->config_given
							   : cfg->path);
	ok = ok && hil_json_add_str(o, "config_name", cfg->name);
	if (run->rows_planned > 0) {
		ok = ok && hil_json_add_num(o, "rows_planned",
					    (double)run->rows_planned);
	}

	o = ok ? cJSON_AddObjectToObject(root, "tool") : NULL;
	ok = ok && o != NULL;
	ok = ok && hil_json_add_str(o, "name", "hilrun");
	ok = ok && hil_json_add_str(o, "version", HIL_VERSION);
	ok = ok && hil_json_add_str(o, "commit", run->tool_commit);
	ok = ok && hil_json_add_bool(o, "dirty", run->tool_dirty);
	ok = ok && hil_json_add_str(o, "host", run->host);
	ok = ok && hil_json_add_str(o, "host_os", run->host_os);
	ok = ok && hil_json_add_bool(o, "jailed", run->jailed);

	o = ok ? cJSON_AddObjectToObject(root, "build") : NULL;
	ok = ok && o != NULL;
	ok = ok && hil_json_add_str(o, "compiler", run->fw.compiler);
	ok = ok && hil_json_add_str(o, "compiler_in_elf", run->elf_compiler);
	a = ok ? cJSON_AddArrayToObject(o, "cflags") : NULL;
	ok = ok && a != NULL;
	for (i = 0; ok && i < cfg->build.n_cflags; i++) {
		cJSON *s = cJSON_CreateString(cfg->build.cflags[i]);

		ok = s != NULL;
		if (ok) {
			cJSON_AddItemToArray(a, s);
		}
	}
	ok = ok && hil_json_add_str(o, "all_flags", run->fw.all_flags);
	ok = ok && hil_json_add_str(o, "linker_flags", run->fw.ld_flags);
	ok = ok && hil_json_add_str(o, "directory", run->fw.dir);
	ok = ok && hil_json_add_str(o, "algorithms", run->fw.algs);
	ok = ok && hil_json_add_str(o, "elf", run->fw.elf);
	ok = ok && hil_json_add_str(o, "elf_sha256", run->elf_sha256);
	ok = ok && hil_json_add_str(o, "build_id", run->build_id);
	/* The user's own folders: built without -Werror, warnings kept. */
	a = ok ? cJSON_AddArrayToObject(o, "foreign_code") : NULL;
	ok = ok && a != NULL;
	for (i = 0; ok && i < run->fw.n_foreign; i++) {
		const struct hil_foreign_build *fb = &run->fw.foreign[i];
		cJSON *e = cJSON_CreateObject();

		ok = e != NULL;
		if (ok) {
			cJSON_AddItemToArray(a, e);
		}
		ok = ok && hil_json_add_str(e, "implementation", fb->impl);
		ok = ok && hil_json_add_num(e, "warnings", fb->warnings);
		ok = ok && hil_json_add_str(e, "warnings_file", fb->log);
	}

	o = ok ? cJSON_AddObjectToObject(root, "board") : NULL;
	ok = ok && o != NULL;
	ok = ok && hil_json_add_str(o, "name", cfg->board.name);
	ok = ok && hil_json_add_str(o, "reported_name", run->info.board);
	ok = ok &&
	     hil_json_add_bool(o, "emulated",
			       (run->info.flags & HILP_INFO_EMULATED) != 0);
	if (run->info.clock_hz != 0) {
		ok = ok && hil_json_add_num(o, "clock_hz", run->info.clock_hz);
	} else {
		ok = ok && cJSON_AddNullToObject(o, "clock_hz") != NULL;
	}
	ok = ok && hil_json_add_str(o, "counter_unit",
				    hil_unit_name(run->info.counter_unit));
	ok = ok && hil_json_add_num(o, "counter_hz", run->info.counter_hz);
	ok = ok && hil_json_add_hex32(o, "flash_acr", run->info.flash_acr);
	/* What the figures are, on which chip, clock and flash setting (the
	 * emulated board: the clock the cycle model stands in for). */
	{
		char label[192];

		hil_run_clock_label(run, label, sizeof(label));
		ok = ok && hil_json_add_str(o, "clock_label", label);
		ok = ok && hil_json_add_num(o, "configured_clock_hz",
					    cfg->board.clock_hz);
	}
	bd = hil_board_find(cfg->board.name);
	if ((run->info.flags & HILP_INFO_EMULATED) == 0 && bd != NULL &&
	    bd->flash_state != NULL) {
		/* The board driver decodes its own flash register; a
		 * setting the board does not have is left out. */
		bd->flash_state(run->info.flash_acr, &fs);
		if (fs.wait_states >= 0) {
			ok = ok && hil_json_add_num(o, "flash_wait_states",
						    fs.wait_states);
		}
		if (fs.prefetch >= 0) {
			ok = ok && hil_json_add_bool(o, "flash_prefetch",
						     fs.prefetch);
		}
		if (fs.icache >= 0) {
			ok = ok &&
			     hil_json_add_bool(o, "flash_icache", fs.icache);
		}
		if (fs.dcache >= 0) {
			ok = ok &&
			     hil_json_add_bool(o, "flash_dcache", fs.dcache);
		}
	}
	hil_hex_encode(run->info.uid, HILP_UID_LEN, uid);
	ok = ok && hil_json_add_str(o, "uid", uid);
	ok = ok && hil_json_add_str(o, "flasher", cfg->flasher.type);
	ok = ok && hil_json_add_str(o, "flasher_version", run->flasher_version);
	/* The transport the stub was built for and spoke over (link.type):
	 * on the emulated board, "semihost" or "socket" (USART2). */
	ok = ok && hil_json_add_str(o, "link", cfg->link.type);
	/* The probe the image went through ("" when any probe would do, or
	 * on the emulated board), and the board's id in the hardware map. */
	ok = ok &&
	     hil_json_add_str(o, "probe_serial", cfg->flasher.probe_serial);
	ok = ok && hil_json_add_str(o, "id", cfg->board.id);
	ok = ok && hil_json_add_num(o, "stub_overhead", run->info.overhead);
	/* UART receive overruns the stub had counted when INFO was read;
	 * null from a stub that does not report them. */
	if (run->info.has_uart_overruns) {
		ok = ok && hil_json_add_num(o, "uart_overruns",
					    run->info.uart_overruns);
	} else {
		ok = ok && cJSON_AddNullToObject(o, "uart_overruns") != NULL;
	}

	/* Where the wall time went: figures about the harness, not the
	 * algorithms (make bench prints them). */
	o = ok ? cJSON_AddObjectToObject(root, "timing") : NULL;
	ok = ok && o != NULL;
	if (ok) {
		const double ns = 1e9;
		double other = (double)run->timing.total_ns -
			       (double)run->timing.build_ns -
			       (double)run->timing.start_ns -
			       (double)run->timing.call_ns -
			       (double)run->timing.earlier_ns;

		ok = hil_json_add_num(o, "total_s",
				      (double)run->timing.total_ns / ns);
		if (run->timing.earlier_ns > 0) {
			ok = ok && hil_json_add_num(
					   o, "earlier_attempts_s",
					   (double)run->timing.earlier_ns / ns);
		}
		ok = ok && hil_json_add_num(o, "build_s",
					    (double)run->timing.build_ns / ns);
		ok = ok && hil_json_add_num(o, "start_s",
					    (double)run->timing.start_ns / ns);
		/* A BENCH wait that ran out is neither link nor target
		 * time: counted on its own (it used to inflate link_s). */
		double link = (double)run->timing.call_ns -
			      (double)run->timing.wait_ns -
			      (double)run->timing.bench_timeout_ns;

		ok = ok &&
		     hil_json_add_num(o, "link_s", (link > 0 ? link : 0) / ns);
		ok = ok && hil_json_add_num(o, "target_s",
					    (double)run->timing.wait_ns / ns);
		ok = ok && hil_json_add_num(o, "bench_timeouts",
					    run->timing.bench_timeouts);
		ok = ok && hil_json_add_num(
				   o, "bench_timeout_s",
				   (double)run->timing.bench_timeout_ns / ns);
		ok = ok && hil_json_add_num(o, "host_s",
					    (other > 0 ? other : 0) / ns);
	}

	o = ok ? cJSON_AddObjectToObject(root, "cycle_model") : NULL;
	ok = ok && o != NULL;
	ok = ok && hil_json_add_bool(o, "enabled", run->model.enabled);
	if (run->model.enabled) {
		const struct cm4_memsys *p =
			cm4_memsys_find(run->model.profile);

		ok = ok && hil_json_add_str(o, "unit", run->model.unit);
		ok = ok &&
		     (p != NULL ? hil_json_add_str(o, "profile", p->name)
				: cJSON_AddNullToObject(o, "profile") != NULL);
		if (p != NULL) {
			char sum[320];

			hil_cyclemodel_summary(p->name, run->model.ws,
					       run->model.art, sum,
					       sizeof(sum));
			ok = ok && hil_json_add_str(o, "profile_summary", sum);
			ok = ok && (p->unverified != NULL
					    ? hil_json_add_str(o, "unverified",
							       p->unverified)
					    : cJSON_AddNullToObject(
						      o, "unverified") != NULL);
		}
		ok = ok && hil_json_add_num(o, "wait_states", run->model.ws);
		ok = ok && hil_json_add_bool(o, "art", run->model.art);
		ok = ok && hil_json_add_str(o, "records", run->model.file);
		ok = ok && hil_json_add_str(o, "method", "docs/cycle-model.md");
	} else {
		ok = ok && hil_json_add_str(o, "why", run->model.why);
	}

	o = ok ? cJSON_AddObjectToObject(root, "normalized_to") : NULL;
	ok = ok && o != NULL;
	if (ok && run->normalized_to.spec[0] != '\0') {
		char alg[2 * HIL_CFG_NAME];
		char *slash;

		snprintf(alg, sizeof(alg), "%s", run->normalized_to.spec);
		slash = strchr(alg, '/');
		if (slash != NULL) {
			*slash = '\0';
		}
		ok = hil_json_add_str(o, "algorithm", alg);
		ok = ok && hil_json_add_str(o, "implementation",
					    run->normalized_to.implementation);
		ok = ok && hil_json_add_str(o, "operation", "encrypt");
	} else if (ok) {
		ok = cJSON_AddNullToObject(o, "algorithm") != NULL;
	}
	ok = ok && hil_json_add_num(o, "rows", (double)run->normalized_to.rows);
	if (run->normalized_to.why[0] != '\0') {
		ok = ok && hil_json_add_str(o, "why", run->normalized_to.why);
	}

	o = ok ? cJSON_AddObjectToObject(root, "sensor") : NULL;
	ok = ok && o != NULL;
	ok = ok && add_sensor(o, run);
	if (ok && (run->energy_est.applies || run->energy_est.beside)) {
		o = cJSON_AddObjectToObject(root, "energy_estimate");
		ok = o != NULL;
		ok = ok && hil_json_add_str(o, "kind", "estimate");
		/* "energy": the rows' energy is the estimate; "beside": a
		 * sensor measured it and the estimate stands next to it. */
		ok = ok && hil_json_add_str(o, "role",
					    run->energy_est.applies ? "energy"
								    : "beside");
		ok = ok && hil_json_add_str(o, "table", run->energy_est.table);
		ok = ok &&
		     hil_json_add_str(o, "source", run->energy_est.source);
		ok = ok &&
		     hil_json_add_str(
			     o, "range",
			     "low: typical, all peripherals disabled (the estimate); high: maximum at 25 C, all peripherals enabled");
		ok = ok && hil_json_add_str(o, "assumptions",
					    run->energy_est.assumptions);
		ok = ok && hil_json_add_str(o, "method", "docs/method.md");
		if (run->energy_est.why[0] != '\0') {
			ok = ok &&
			     hil_json_add_str(o, "why", run->energy_est.why);
		}
	}

	a = ok ? cJSON_AddArrayToObject(root, "sizes") : NULL;
	ok = ok && a != NULL;
	for (i = 0; ok && i < run->n_impl_sizes; i++) {
		const struct hil_impl_size *z = &run->impl_sizes[i];
		cJSON *e = cJSON_CreateObject();

		ok = e != NULL;
		if (ok) {
			cJSON_AddItemToArray(a, e);
		}
		ok = ok && hil_json_add_str(e, "algorithm", z->algorithm);
		ok = ok &&
		     hil_json_add_str(e, "implementation", z->implementation);
		ok = ok && hil_json_add_num(e, "text", (double)z->text);
		ok = ok && hil_json_add_num(e, "rodata", (double)z->rodata);
		ok = ok && hil_json_add_num(e, "data", (double)z->data);
		ok = ok && hil_json_add_num(e, "bss", (double)z->bss);
		ok = ok &&
		     hil_json_add_num(e, "flash_bytes",
				      (double)(z->text + z->rodata + z->data));
		ok = ok && hil_json_add_num(e, "ram_bytes",
					    (double)(z->data + z->bss));
	}

	a = ok ? cJSON_AddArrayToObject(root, "fits") : NULL;
	ok = ok && a != NULL;
	for (i = 0; ok && i < run->n_fits; i++) {
		const struct hil_fit *f = &run->fits[i];
		cJSON *e = cJSON_CreateObject();

		ok = e != NULL;
		if (ok) {
			cJSON_AddItemToArray(a, e);
		}
		ok = ok && hil_json_add_str(e, "algorithm", f->algorithm);
		ok = ok &&
		     hil_json_add_str(e, "implementation", f->implementation);
		ok = ok && hil_json_add_str(e, "operation", f->operation);
		ok = ok && hil_json_add_num(e, "ad_len", f->ad_len);
		ok = ok &&
		     hil_json_add_str(e, "unit",
				      hil_unit_name(run->info.counter_unit));
		ok = ok && hil_json_add_num(e, "fixed", f->fixed);
		ok = ok && hil_json_add_num(e, "per_byte", f->per_byte);
		ok = ok && hil_json_add_num(e, "r2", f->r2);
		ok = ok && hil_json_add_num(e, "points", (double)f->points);
	}

	/* Folders of the trees for another architecture: listed, not built,
	 * not failed. */
	if (ok && run->cfg != NULL && run->cfg->n_not_for_board > 0) {
		a = cJSON_AddArrayToObject(root, "not_for_board");
		ok = a != NULL;
		for (i = 0; ok && i < run->cfg->n_not_for_board; i++) {
			const struct hil_config_skipped *sk =
				&run->cfg->not_for_board[i];
			cJSON *e = cJSON_CreateObject();

			ok = e != NULL;
			if (ok) {
				cJSON_AddItemToArray(a, e);
			}
			ok = ok && hil_json_add_str(e, "algorithm", sk->name);
			ok = ok &&
			     hil_json_add_str(e, "implementation", sk->impl);
			ok = ok && hil_json_add_str(e, "why", sk->why);
		}
	}

	o = ok ? cJSON_AddObjectToObject(root, "image") : NULL;
	ok = ok && o != NULL;
	ok = ok &&
	     hil_json_add_str(
		     o, "scope",
		     run->n_images > 1
			     ? "the last of the images (see images)"
			     : "whole image (stub and every algorithm in it)");
	/* A selection too big for one image was measured over several. */
	if (ok && run->n_images > 1) {
		a = cJSON_AddArrayToObject(root, "images");
		ok = a != NULL;
		for (i = 0; ok && i < run->n_images; i++) {
			const struct hil_run_image *im = &run->images[i];
			cJSON *e = cJSON_CreateObject();

			ok = e != NULL;
			if (ok) {
				cJSON_AddItemToArray(a, e);
			}
			ok = ok && hil_json_add_str(e, "algorithms", im->algs);
			ok = ok &&
			     hil_json_add_str(e, "build_id", im->build_id);
			ok = ok &&
			     hil_json_add_str(e, "elf_sha256", im->elf_sha256);
			ok = ok && hil_json_add_num(e, "flash_bytes",
						    (double)im->sizes.flash);
			ok = ok &&
			     hil_json_add_num(e, "ram_static_bytes",
					      (double)im->sizes.ram_static);
		}
	}
	ok = ok && hil_json_add_num(o, "flash_bytes", (double)run->sizes.flash);
	ok = ok && hil_json_add_num(o, "ram_static_bytes",
				    (double)run->sizes.ram_static);
	ok = ok && hil_json_add_num(o, "stack_reserved_bytes",
				    (double)run->sizes.stack_reserved);

	o = ok ? cJSON_AddObjectToObject(root, "session") : NULL;
	ok = ok && o != NULL;
	ok = ok && hil_json_add_num(o, "requests", run->requests);
	ok = ok && add_requests_by_command(o, run);
	ok = ok && hil_json_add_num(o, "bytes_tx", (double)run->bytes_tx);
	ok = ok && hil_json_add_num(o, "bytes_rx", (double)run->bytes_rx);
	ok = ok && hil_json_add_num(o, "retries", run->retries);
	ok = ok && hil_json_add_num(o, "bad_frames", run->bad_frames);
	ok = ok && hil_json_add_num(o, "timeouts", run->timeouts);
	ok = ok && hil_json_add_num(o, "resets", run->resets);
	ok = ok && hil_json_add_num(o, "reflashes", run->reflashes);

	a = ok ? cJSON_AddArrayToObject(root, "rows") : NULL;
	ok = ok && a != NULL;
	for (i = 0; ok && i < run->n_rows; i++) {
		cJSON *r = hil_json_row_object(run, &run->rows[i]);

		ok = r != NULL;
		if (ok) {
			cJSON_AddItemToArray(a, r);
		}
	}
	if (!ok) {
		cJSON_Delete(root);
		return NULL;
	}
	return root;
}

char *hil_report_json(const struct hil_run *run)
{
	cJSON *root = report_object(run);
	char *text;

	if (root == NULL) {
		return NULL;
	}
	text = cJSON_Print(root);
	cJSON_Delete(root);
	return text;
}

char *hil_report_row_json(const struct hil_run *run, const struct hil_row *row)
{
	return hil_result_row_line(run, row);
}

int hil_report_write_json(const struct hil_run *run)
{
	char path[HIL_PATH + 32];
	char *text = hil_report_json(run);
	int ret;

	if (text == NULL) {
		hil_err("out of memory while writing the report");
		return HIL_ERR_NOMEM;
	}
	snprintf(path, sizeof(path), "%s/report.json", run->dir);
	ret = hil_write_atomic(path, text, strlen(text));
	free(text);
	return ret;
}
