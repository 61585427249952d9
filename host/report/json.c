/* json: the report JSON of a run, written atomically. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"report"
#include "report.h"

#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "err.h"
#include "log.h"
#include "util.h"

#define HIL_VERSION "0.1.0"

/* cJSON returns NULL on allocation failure; every add checks through here. */
static int add_str(cJSON *o, const char *k, const char *v)
{
	return cJSON_AddStringToObject(o, k, v != NULL ? v : "") != NULL;
}

static int add_num(cJSON *o, const char *k, double v)
{
	return cJSON_AddNumberToObject(o, k, v) != NULL;
}

static int add_bool(cJSON *o, const char *k, int v)
{
	return cJSON_AddBoolToObject(o, k, v) != NULL;
}

static int add_hex32(cJSON *o, const char *k, uint32_t v)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%08x", (unsigned)v);
	return add_str(o, k, buf);
}

static cJSON *row_object(const struct hil_run *run, const struct hil_row *r)
{
	cJSON *o = cJSON_CreateObject();
	cJSON *samples;
	cJSON *digest;
	cJSON *ci;
	int ok = o != NULL;
	uint32_t i;

	ok = ok && add_str(o, "algorithm", r->algorithm);
	ok = ok && add_str(o, "implementation", r->implementation);
	ok = ok && add_str(o, "operation", r->operation);
	/* The image the row was measured on: --resume keeps only rows of
	 * the same image. */
	ok = ok && add_str(o, "build_id", run->build_id);
	ok = ok && add_str(o, "mode", r->mode);
	if (r->constant_time < 0) {
		ok = ok && cJSON_AddNullToObject(o, "constant_time") != NULL;
	} else {
		ok = ok && add_bool(o, "constant_time", r->constant_time);
	}
	ok = ok && add_num(o, "msg_len", r->msg_len);
	ok = ok && add_num(o, "ad_len", r->ad_len);
	ok = ok && add_str(o, "unit", hil_unit_name(run->info.counter_unit));
	ok = ok && add_num(o, "runs", r->runs);
	ok = ok && add_num(o, "warmup", r->warmup);
	ok = ok && add_num(o, "seed", r->seed);
	if (!ok) {
		goto fail;
	}
	samples = cJSON_AddArrayToObject(o, "samples");
	if (samples == NULL) {
		goto fail;
	}
	for (i = 0; r->samples != NULL && i < r->stats.n; i++) {
		cJSON *n = cJSON_CreateNumber(r->samples[i]);

		if (n == NULL) {
			goto fail;
		}
		cJSON_AddItemToArray(samples, n);
	}
	if (r->stats.n > 0) {
		ok = ok && add_num(o, "median", r->stats.median);
		ok = ok && add_num(o, "mean", r->stats.mean);
		ok = ok && add_num(o, "stddev", r->stats.stddev);
		ok = ok && add_num(o, "min", r->stats.min);
		ok = ok && add_num(o, "max", r->stats.max);
		ok = ok && add_num(o, "mad", r->stats.mad);
		ci = cJSON_AddArrayToObject(o, "ci95");
		ok = ok && ci != NULL;
		if (ok) {
			cJSON_AddItemToArray(
				ci, cJSON_CreateNumber(r->stats.ci95_low));
			cJSON_AddItemToArray(
				ci, cJSON_CreateNumber(r->stats.ci95_high));
			ok = cJSON_GetArraySize(ci) == 2;
		}
		ok = ok && add_num(o, "outliers", (double)r->stats.outliers);
		if (r->msg_len > 0) {
			ok = ok && add_num(o, "per_byte",
					   r->stats.median / r->msg_len);
		} else {
			ok = ok && cJSON_AddNullToObject(o, "per_byte") != NULL;
		}
	} else {
		const char *keys[] = {"median", "mean",	    "stddev",
				      "min",	"max",	    "mad",
				      "ci95",	"outliers", "per_byte"};

		for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
			ok = ok && cJSON_AddNullToObject(o, keys[i]) != NULL;
		}
	}
	ok = ok && add_num(o, "overhead_subtracted", r->overhead);
	if (r->stack_known) {
		ok = ok && add_num(o, "stack_bytes", r->stack_bytes);
	} else {
		ok = ok && cJSON_AddNullToObject(o, "stack_bytes") != NULL;
	}
	ok = ok && add_bool(o, "verified", r->verified);
	digest = cJSON_AddObjectToObject(o, "digest");
	ok = ok && digest != NULL;
	ok = ok && add_hex32(digest, "expected", r->digest_expected);
	ok = ok && add_hex32(digest, "measured", r->digest_got);
	ok = ok && add_bool(digest, "match",
			    r->ok && r->digest_expected == r->digest_got);
	ok = ok && add_str(o, "status", r->ok ? "ok" : "failed");
	if (!r->ok) {
		ok = ok && add_str(o, "error", r->error);
	}
	if (ok) {
		return o;
	}
fail:
	cJSON_Delete(o);
	return NULL;
}

static cJSON *report_object(const struct hil_run *run)
{
	const struct hil_config *cfg = run->cfg;
	cJSON *root = cJSON_CreateObject();
	cJSON *o;
	cJSON *a;
	char uid[2 * HILP_UID_LEN + 1];
	size_t i;
	int ok = root != NULL;

	ok = ok && add_num(root, "schema_version", HIL_REPORT_SCHEMA_VERSION);

	o = ok ? cJSON_AddObjectToObject(root, "run") : NULL;
	ok = ok && o != NULL;
	ok = ok && add_str(o, "id", run->id);
	ok = ok && add_str(o, "status", run->status);
	ok = ok && add_str(o, "started", run->started);
	ok = ok && add_str(o, "finished", run->finished);
	ok = ok && add_str(o, "config", cfg->path);
	ok = ok && add_str(o, "config_name", cfg->name);

	o = ok ? cJSON_AddObjectToObject(root, "tool") : NULL;
	ok = ok && o != NULL;
	ok = ok && add_str(o, "name", "hilrun");
	ok = ok && add_str(o, "version", HIL_VERSION);
	ok = ok && add_str(o, "commit", run->tool_commit);
	ok = ok && add_bool(o, "dirty", run->tool_dirty);
	ok = ok && add_str(o, "host", run->host);
	ok = ok && add_str(o, "host_os", run->host_os);

	o = ok ? cJSON_AddObjectToObject(root, "build") : NULL;
	ok = ok && o != NULL;
	ok = ok && add_str(o, "compiler", run->fw.compiler);
	ok = ok && add_str(o, "compiler_in_elf", run->elf_compiler);
	a = ok ? cJSON_AddArrayToObject(o, "cflags") : NULL;
	ok = ok && a != NULL;
	for (i = 0; ok && i < cfg->build.n_cflags; i++) {
		cJSON *s = cJSON_CreateString(cfg->build.cflags[i]);

		ok = s != NULL;
		if (ok) {
			cJSON_AddItemToArray(a, s);
		}
	}
	ok = ok && add_str(o, "all_flags", run->fw.all_flags);
	ok = ok && add_str(o, "linker_flags", run->fw.ld_flags);
	ok = ok && add_str(o, "directory", run->fw.dir);
	ok = ok && add_str(o, "algorithms", run->fw.algs);
	ok = ok && add_str(o, "elf", run->fw.elf);
	ok = ok && add_str(o, "elf_sha256", run->elf_sha256);
	ok = ok && add_str(o, "build_id", run->build_id);

	o = ok ? cJSON_AddObjectToObject(root, "board") : NULL;
	ok = ok && o != NULL;
	ok = ok && add_str(o, "name", cfg->board.name);
	ok = ok && add_str(o, "reported_name", run->info.board);
	ok = ok && add_bool(o, "emulated",
			    (run->info.flags & HILP_INFO_EMULATED) != 0);
	if (run->info.clock_hz != 0) {
		ok = ok && add_num(o, "clock_hz", run->info.clock_hz);
	} else {
		ok = ok && cJSON_AddNullToObject(o, "clock_hz") != NULL;
	}
	ok = ok &&
	     add_str(o, "counter_unit", hil_unit_name(run->info.counter_unit));
	ok = ok && add_num(o, "counter_hz", run->info.counter_hz);
	ok = ok && add_hex32(o, "flash_acr", run->info.flash_acr);
	if ((run->info.flags & HILP_INFO_EMULATED) == 0) {
		/* RM0368 3.8.1: LATENCY[3:0], PRFTEN bit 8, ICEN 9, DCEN 10. */
		ok = ok &&
		     add_num(o, "flash_wait_states", run->info.flash_acr & 0xF);
		ok = ok && add_bool(o, "flash_prefetch",
				    (run->info.flash_acr >> 8) & 1);
		ok = ok && add_bool(o, "flash_icache",
				    (run->info.flash_acr >> 9) & 1);
		ok = ok && add_bool(o, "flash_dcache",
				    (run->info.flash_acr >> 10) & 1);
	}
	hil_hex_encode(run->info.uid, HILP_UID_LEN, uid);
	ok = ok && add_str(o, "uid", uid);
	ok = ok && add_str(o, "flasher", cfg->flasher.type);
	ok = ok && add_str(o, "flasher_version", run->flasher_version);
	ok = ok && add_num(o, "stub_overhead", run->info.overhead);

	a = ok ? cJSON_AddArrayToObject(root, "sizes") : NULL;
	ok = ok && a != NULL;
	for (i = 0; ok && i < run->n_impl_sizes; i++) {
		const struct hil_impl_size *z = &run->impl_sizes[i];
		cJSON *e = cJSON_CreateObject();

		ok = e != NULL;
		if (ok) {
			cJSON_AddItemToArray(a, e);
		}
		ok = ok && add_str(e, "algorithm", z->algorithm);
		ok = ok && add_str(e, "implementation", z->implementation);
		ok = ok && add_num(e, "text", (double)z->text);
		ok = ok && add_num(e, "rodata", (double)z->rodata);
		ok = ok && add_num(e, "data", (double)z->data);
		ok = ok && add_num(e, "bss", (double)z->bss);
		ok = ok && add_num(e, "flash_bytes",
				   (double)(z->text + z->rodata + z->data));
		ok = ok && add_num(e, "ram_bytes", (double)(z->data + z->bss));
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
		ok = ok && add_str(e, "algorithm", f->algorithm);
		ok = ok && add_str(e, "implementation", f->implementation);
		ok = ok && add_str(e, "operation", f->operation);
		ok = ok && add_num(e, "ad_len", f->ad_len);
		ok = ok &&
		     add_str(e, "unit", hil_unit_name(run->info.counter_unit));
		ok = ok && add_num(e, "fixed", f->fixed);
		ok = ok && add_num(e, "per_byte", f->per_byte);
		ok = ok && add_num(e, "r2", f->r2);
		ok = ok && add_num(e, "points", (double)f->points);
	}

	o = ok ? cJSON_AddObjectToObject(root, "image") : NULL;
	ok = ok && o != NULL;
	ok = ok && add_str(o, "scope",
			   "whole image (stub and every algorithm in it)");
	ok = ok && add_num(o, "flash_bytes", (double)run->sizes.flash);
	ok = ok &&
	     add_num(o, "ram_static_bytes", (double)run->sizes.ram_static);
	ok = ok && add_num(o, "stack_reserved_bytes",
			   (double)run->sizes.stack_reserved);

	o = ok ? cJSON_AddObjectToObject(root, "session") : NULL;
	ok = ok && o != NULL;
	ok = ok && add_num(o, "retries", run->retries);
	ok = ok && add_num(o, "bad_frames", run->bad_frames);
	ok = ok && add_num(o, "timeouts", run->timeouts);
	ok = ok && add_num(o, "resets", run->resets);
	ok = ok && add_num(o, "reflashes", run->reflashes);

	a = ok ? cJSON_AddArrayToObject(root, "rows") : NULL;
	ok = ok && a != NULL;
	for (i = 0; ok && i < run->n_rows; i++) {
		cJSON *r = row_object(run, &run->rows[i]);

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
	cJSON *o = row_object(run, row);
	char *text;

	if (o == NULL) {
		return NULL;
	}
	text = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	return text;
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
