/* json: the report JSON of a run, written atomically. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"report"
#include "reportjson.h"
#include "rowjson.h"
#include "headcodec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "util/err.h"
#include "util/log.h"
#include "util/util.h"

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

/* Put the fields of table path that keys name, in that order, from h. */
static int put_keys(cJSON *o, const char *path, const char *const *keys,
		    const struct hil_result_head *h)
{
	int ok = o != NULL;

	for (; ok && *keys != NULL; keys++) {
		ok = hil_result_head_put(o, path, *keys, h);
	}
	return ok;
}

#define PUT(o, path, ...)                                                      \
	put_keys((o), (path), (const char *const[]){__VA_ARGS__, NULL}, h)

/* The sensor: what it is, how it was set up, or why there is none. */
static int add_sensor(cJSON *o, const struct hil_result_head *h)
{
	int ok;

	if (strcmp(h->sensor.type, "none") == 0) {
		return PUT(o, "sensor", "type", "why");
	}
	ok = PUT(o, "sensor", "type", "kind", "bus", "address", "shunt_ohm",
		 "max_current_a", "config_register", "calibration_register",
		 "current_lsb_a", "conversion_cycle_us", "time_basis");
	if (h->sensor.assumes[0] != '\0') {
		ok = ok && PUT(o, "sensor", "assumes");
	}
	if (h->sensor.why[0] != '\0') {
		ok = ok && PUT(o, "sensor", "why");
	}
	return ok;
}

static int add_board(cJSON *o, const struct hil_result_head *h)
{
	int ok = PUT(o, "board", "name", "reported_name", "emulated",
		     "clock_hz", "counter_unit", "counter_hz", "flash_acr",
		     "clock_label", "configured_clock_hz");

	/* The board driver decodes its own flash register; a setting the
	 * board does not have is left out. */
	if (h->board.flash_wait_states >= 0) {
		ok = ok && PUT(o, "board", "flash_wait_states");
	}
	if (h->board.flash_prefetch >= 0) {
		ok = ok && PUT(o, "board", "flash_prefetch");
	}
	if (h->board.flash_icache >= 0) {
		ok = ok && PUT(o, "board", "flash_icache");
	}
	if (h->board.flash_dcache >= 0) {
		ok = ok && PUT(o, "board", "flash_dcache");
	}
	/* link: the transport the stub was built for and spoke over; on the
	 * emulated board, "semihost" or "socket" (USART2). probe_serial: the
	 * probe the image went through ("" when any probe would do, or on
	 * the emulated board); id: the board's id in the hardware map.
	 * uart_overruns: what the stub had counted when INFO was read. */
	return ok &&
	       PUT(o, "board", "uid", "flasher", "flasher_version", "link",
		   "probe_serial", "id", "stub_overhead", "uart_overruns");
}

/* Where the wall time went: figures about the harness, not the
 * algorithms (make bench prints them). */
static int add_timing(cJSON *o, const struct hil_result_head *h)
{
	int ok = PUT(o, "timing", "total_s");

	if (h->timing.earlier_attempts_s > 0) {
		ok = ok && PUT(o, "timing", "earlier_attempts_s");
	}
	return ok &&
	       PUT(o, "timing", "build_s", "start_s", "link_s", "target_s",
		   "bench_timeouts", "bench_timeout_s", "host_s");
}

static int add_cycle_model(cJSON *o, const struct hil_result_head *h)
{
	int ok = PUT(o, "cycle_model", "enabled");

	if (!h->cycle_model.enabled) {
		return ok && PUT(o, "cycle_model", "why");
	}
	ok = ok && PUT(o, "cycle_model", "unit", "profile");
	if (h->cycle_model.profile[0] != '\0') {
		ok = ok &&
		     PUT(o, "cycle_model", "profile_summary", "unverified");
	}
	return ok &&
	       PUT(o, "cycle_model", "wait_states", "art", "records", "method");
}

static int add_normalized_to(cJSON *o, const struct hil_result_head *h)
{
	int ok = h->normalized_to.algorithm[0] != '\0'
			 ? PUT(o, "normalized_to", "algorithm",
			       "implementation", "operation")
			 : PUT(o, "normalized_to", "algorithm");

	ok = ok && PUT(o, "normalized_to", "rows");
	if (h->normalized_to.why[0] != '\0') {
		ok = ok && PUT(o, "normalized_to", "why");
	}
	return ok;
}

static int add_energy_estimate(cJSON *o, const struct hil_result_head *h)
{
	int ok = PUT(o, "energy_estimate", "kind", "role", "table", "source",
		     "range", "assumptions", "method");

	if (h->energy_estimate.why[0] != '\0') {
		ok = ok && PUT(o, "energy_estimate", "why");
	}
	return ok;
}

static cJSON *obj_in(cJSON *root, const char *key, int ok)
{
	return ok ? cJSON_AddObjectToObject(root, key) : NULL;
}

/* The report of run, its report-level fields from h. */
static cJSON *report_object(const struct hil_run *run,
			    const struct hil_result_head *h)
{
	const struct hil_config *cfg = run->cfg;
	cJSON *root = cJSON_CreateObject();
	cJSON *o;
	cJSON *a;
	size_t i;
	int ok = root != NULL;

	ok = ok && hil_json_add_num(root, "schema_version",
				    HIL_REPORT_SCHEMA_VERSION);

	o = obj_in(root, "run", ok);
	ok = PUT(o, "run", "id", "status", "started", "finished", "config",
		 "config_name");
	if (h->run.rows_planned > 0) {
		ok = ok && PUT(o, "run", "rows_planned");
	}

	o = obj_in(root, "tool", ok);
	ok = ok && PUT(o, "tool", "name", "version", "commit", "dirty", "host",
		       "host_os", "jailed");

	o = obj_in(root, "build", ok);
	ok = ok && PUT(o, "build", "compiler", "compiler_in_elf");
	a = ok ? cJSON_AddArrayToObject(o, "cflags") : NULL;
	ok = ok && a != NULL;
	for (i = 0; ok && i < cfg->build.n_cflags; i++) {
		cJSON *s = cJSON_CreateString(cfg->build.cflags[i]);

		ok = s != NULL;
		if (ok) {
			cJSON_AddItemToArray(a, s);
		}
	}
	ok = ok && PUT(o, "build", "all_flags", "linker_flags", "directory");
	/* Every implementation built, whole (a run of hundreds too). */
	ok = ok && hil_json_add_str(o, "algorithms",
				    run->fw.algs != NULL ? run->fw.algs : "");
	ok = ok && PUT(o, "build", "elf", "elf_sha256", "build_id");
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

	ok = ok && add_board(obj_in(root, "board", ok), h);
	ok = ok && add_timing(obj_in(root, "timing", ok), h);
	ok = ok && add_cycle_model(obj_in(root, "cycle_model", ok), h);
	ok = ok && add_normalized_to(obj_in(root, "normalized_to", ok), h);
	ok = ok && add_sensor(obj_in(root, "sensor", ok), h);
	if (ok && h->energy_estimate.present) {
		ok = add_energy_estimate(obj_in(root, "energy_estimate", ok),
					 h);
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

	o = obj_in(root, "image", ok);
	ok = ok && PUT(o, "image", "scope");
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
	ok = ok && PUT(o, "image", "flash_bytes", "ram_static_bytes",
		       "stack_reserved_bytes");

	o = obj_in(root, "session", ok);
	ok = ok && PUT(o, "session", "requests");
	ok = ok && add_requests_by_command(o, run);
	ok = ok && PUT(o, "session", "bytes_tx", "bytes_rx", "retries",
		       "bad_frames", "timeouts", "resets", "reflashes");

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

char *hil_report_json_from(const struct hil_run *run,
			   const struct hil_result_head *h)
{
	cJSON *root = report_object(run, h);
	char *text;

	if (root == NULL) {
		return NULL;
	}
	text = cJSON_Print(root);
	cJSON_Delete(root);
	return text;
}

char *hil_report_json(const struct hil_run *run)
{
	struct hil_result_head *h = malloc(sizeof(*h));
	char *text;

	if (h == NULL) {
		return NULL;
	}
	hil_result_head_fill(run, h);
	text = hil_report_json_from(run, h);
	free(h);
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
