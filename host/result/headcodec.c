/* headcodec: the tables of report.json's report-level fields, filled from a run, written by report.json's writer and read back by every reader of a report. */
#define _POSIX_C_SOURCE 200809L
#include "headcodec.h"

#include <stdio.h>
#include <string.h>

#include "drivers/board/board.h"
#include "emu/cyclemodel.h"
#include "drivers/board/memsys.h"
#include "result/clocklabel.h"
#include "util/err.h"
#include "util/util.h"

#define H(obj, k, t, fl)                                                       \
	{                                                                      \
		.key = (#k), .type = (t),                                      \
		.off = offsetof(struct hil_result_head, obj.k) -               \
		       offsetof(struct hil_result_head, obj),                  \
		.size = sizeof(((struct hil_result_head *)0)->obj.k),          \
		.flags = (fl)                                                  \
	}
#define KEEP(k, text)                                                          \
	{                                                                      \
		.key = (k), .type = HIL_RF_CONST, .yes = (text)                \
	}
#define OPT	HIL_RF_OPTIONAL
#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

static const struct hil_rfield run_fields[] = {
	H(run, id, HIL_RF_STR, 0),
	H(run, status, HIL_RF_STR, 0),
	H(run, started, HIL_RF_STR, OPT),
	H(run, finished, HIL_RF_STR, OPT),
	H(run, config, HIL_RF_STR, OPT),
	H(run, config_name, HIL_RF_STR, OPT),
	/* Rows the run set out to measure: left out when it never knew. */
	H(run, rows_planned, HIL_RF_U64, OPT),
};

static const struct hil_rfield tool_fields[] = {
	H(tool, name, HIL_RF_STR, 0),	   H(tool, version, HIL_RF_STR, 0),
	H(tool, commit, HIL_RF_STR, OPT),  H(tool, dirty, HIL_RF_BOOL, OPT),
	H(tool, host, HIL_RF_STR, OPT),	   H(tool, host_os, HIL_RF_STR, OPT),
	H(tool, jailed, HIL_RF_BOOL, OPT),
};

static const struct hil_rfield build_fields[] = {
	H(build, compiler, HIL_RF_STR, OPT),
	H(build, compiler_in_elf, HIL_RF_STR, OPT),
	H(build, all_flags, HIL_RF_STR, OPT),
	H(build, linker_flags, HIL_RF_STR, OPT),
	H(build, directory, HIL_RF_STR, OPT),
	H(build, elf, HIL_RF_STR, OPT),
	H(build, elf_sha256, HIL_RF_STR, OPT),
	H(build, build_id, HIL_RF_STR, OPT),
};

static const struct hil_rfield board_fields[] = {
	H(board, name, HIL_RF_STR, 0),
	H(board, reported_name, HIL_RF_STR, OPT),
	H(board, emulated, HIL_RF_BOOL, 0),
	/* null: the board did not report its clock */
	H(board, clock_hz, HIL_RF_U32, OPT | HIL_RF_NULL_ZERO),
	H(board, counter_unit, HIL_RF_STR, 0),
	/* Known (has_counter_hz) when the report has it: older ones may not. */
	{.key = "counter_hz",
	 .type = HIL_RF_U32,
	 .off = offsetof(struct hil_result_head, board.counter_hz) -
		offsetof(struct hil_result_head, board),
	 .size = sizeof(uint32_t),
	 .flags = OPT | HIL_RF_KNOWN,
	 .known = offsetof(struct hil_result_head, board.has_counter_hz) -
		  offsetof(struct hil_result_head, board)},
	{.key = "flash_acr",
	 .type = HIL_RF_HEX32,
	 .off = offsetof(struct hil_result_head, board.flash_acr) -
		offsetof(struct hil_result_head, board),
	 .size = sizeof(uint32_t),
	 .flags = OPT | HIL_RF_KNOWN,
	 .known = offsetof(struct hil_result_head, board.has_flash_acr) -
		  offsetof(struct hil_result_head, board)},
	H(board, clock_label, HIL_RF_STR, OPT),
	H(board, configured_clock_hz, HIL_RF_U32, OPT),
	/* Left out where the board has no such setting (read as -1). */
	H(board, flash_wait_states, HIL_RF_INT, OPT),
	H(board, flash_prefetch, HIL_RF_BOOL, OPT),
	H(board, flash_icache, HIL_RF_BOOL, OPT),
	H(board, flash_dcache, HIL_RF_BOOL, OPT),
	H(board, uid, HIL_RF_STR, OPT),
	H(board, flasher, HIL_RF_STR, OPT),
	H(board, flasher_version, HIL_RF_STR, OPT),
	H(board, link, HIL_RF_STR, OPT),
	H(board, probe_serial, HIL_RF_STR, OPT),
	H(board, id, HIL_RF_STR, OPT),
	{.key = "stub_overhead",
	 .type = HIL_RF_U32,
	 .off = offsetof(struct hil_result_head, board.stub_overhead) -
		offsetof(struct hil_result_head, board),
	 .size = sizeof(uint32_t),
	 .flags = OPT | HIL_RF_KNOWN,
	 .known = offsetof(struct hil_result_head, board.has_stub_overhead) -
		  offsetof(struct hil_result_head, board)},
	/* null from a stub that does not count its UART's overruns */
	{.key = "uart_overruns",
	 .type = HIL_RF_U32,
	 .off = offsetof(struct hil_result_head, board.uart_overruns) -
		offsetof(struct hil_result_head, board),
	 .size = sizeof(uint32_t),
	 .flags = OPT | HIL_RF_KNOWN,
	 .known = offsetof(struct hil_result_head, board.has_uart_overruns) -
		  offsetof(struct hil_result_head, board)},
};

static const struct hil_rfield timing_fields[] = {
	H(timing, total_s, HIL_RF_NUM, OPT),
	H(timing, earlier_attempts_s, HIL_RF_NUM, OPT),
	H(timing, build_s, HIL_RF_NUM, OPT),
	H(timing, start_s, HIL_RF_NUM, OPT),
	H(timing, link_s, HIL_RF_NUM, OPT),
	H(timing, target_s, HIL_RF_NUM, OPT),
	H(timing, bench_timeouts, HIL_RF_UINT, OPT),
	H(timing, bench_timeout_s, HIL_RF_NUM, OPT),
	H(timing, host_s, HIL_RF_NUM, OPT),
};

static const struct hil_rfield cycle_model_fields[] = {
	H(cycle_model, enabled, HIL_RF_BOOL, OPT),
	H(cycle_model, unit, HIL_RF_STR, OPT),
	H(cycle_model, profile, HIL_RF_STR, OPT | HIL_RF_NULL_EMPTY),
	H(cycle_model, profile_summary, HIL_RF_STR, OPT),
	H(cycle_model, unverified, HIL_RF_STR, OPT | HIL_RF_NULL_EMPTY),
	H(cycle_model, wait_states, HIL_RF_UINT, OPT),
	H(cycle_model, art, HIL_RF_BOOL, OPT),
	H(cycle_model, records, HIL_RF_STR, OPT),
	KEEP("method", "docs/cycle-model.md"),
	H(cycle_model, why, HIL_RF_STR, OPT),
};

static const struct hil_rfield normalized_to_fields[] = {
	H(normalized_to, algorithm, HIL_RF_STR, OPT | HIL_RF_NULL_EMPTY),
	H(normalized_to, implementation, HIL_RF_STR, OPT),
	H(normalized_to, operation, HIL_RF_STR, OPT),
	H(normalized_to, rows, HIL_RF_U64, OPT),
	H(normalized_to, why, HIL_RF_STR, OPT),
};

static const struct hil_rfield sensor_fields[] = {
	H(sensor, type, HIL_RF_STR, OPT),
	{.key = "kind",
	 .type = HIL_RF_FLAG_STR,
	 .off = offsetof(struct hil_result_head, sensor.model) -
		offsetof(struct hil_result_head, sensor),
	 .size = sizeof(int),
	 .flags = OPT,
	 .yes = "model",
	 .no = "measured"},
	H(sensor, bus, HIL_RF_STR, OPT),
	{.key = "address",
	 .type = HIL_RF_HEX_0X,
	 .off = offsetof(struct hil_result_head, sensor.address) -
		offsetof(struct hil_result_head, sensor),
	 .size = sizeof(unsigned),
	 .flags = OPT,
	 .known = 2},
	H(sensor, shunt_ohm, HIL_RF_NUM, OPT),
	H(sensor, max_current_a, HIL_RF_NUM, OPT),
	{.key = "config_register",
	 .type = HIL_RF_HEX_0X,
	 .off = offsetof(struct hil_result_head, sensor.config_register) -
		offsetof(struct hil_result_head, sensor),
	 .size = sizeof(unsigned),
	 .flags = OPT,
	 .known = 4},
	{.key = "calibration_register",
	 .type = HIL_RF_HEX_0X,
	 .off = offsetof(struct hil_result_head, sensor.calibration_register) -
		offsetof(struct hil_result_head, sensor),
	 .size = sizeof(unsigned),
	 .flags = OPT,
	 .known = 4},
	H(sensor, current_lsb_a, HIL_RF_NUM, OPT),
	H(sensor, conversion_cycle_us, HIL_RF_UINT, OPT),
	H(sensor, time_basis, HIL_RF_STR, OPT),
	H(sensor, assumes, HIL_RF_STR, OPT),
	H(sensor, why, HIL_RF_STR, OPT),
};

static const struct hil_rfield energy_estimate_fields[] = {
	KEEP("kind", "estimate"),
	/* "energy": the rows' energy is the estimate; "beside": a sensor
	 * measured it and the estimate stands next to it. */
	H(energy_estimate, role, HIL_RF_STR, OPT),
	H(energy_estimate, table, HIL_RF_STR, OPT),
	H(energy_estimate, source, HIL_RF_STR, OPT),
	KEEP("range",
	     "low: typical, all peripherals disabled (the estimate); high: maximum at 25 C, all peripherals enabled"),
	H(energy_estimate, assumptions, HIL_RF_STR, OPT),
	KEEP("method", "docs/method.md"),
	H(energy_estimate, why, HIL_RF_STR, OPT),
};

static const struct hil_rfield image_fields[] = {
	H(image, scope, HIL_RF_STR, OPT),
	H(image, flash_bytes, HIL_RF_U64, OPT),
	H(image, ram_static_bytes, HIL_RF_U64, OPT),
	H(image, stack_reserved_bytes, HIL_RF_U64, OPT),
};

static const struct hil_rfield session_fields[] = {
	H(session, requests, HIL_RF_UINT, OPT),
	H(session, bytes_tx, HIL_RF_U64, OPT),
	H(session, bytes_rx, HIL_RF_U64, OPT),
	H(session, retries, HIL_RF_UINT, OPT),
	H(session, bad_frames, HIL_RF_UINT, OPT),
	H(session, timeouts, HIL_RF_UINT, OPT),
	H(session, resets, HIL_RF_UINT, OPT),
	H(session, reflashes, HIL_RF_UINT, OPT),
};

#define T(p, obj, f)                                                           \
	{                                                                      \
		.path = (p), .base = offsetof(struct hil_result_head, obj),    \
		.size = sizeof(((struct hil_result_head *)0)->obj),            \
		.fields = (f), .n = N_OF(f)                                    \
	}

const struct hil_htable hil_result_head_tables[] = {
	T("run", run, run_fields),
	T("tool", tool, tool_fields),
	T("build", build, build_fields),
	T("board", board, board_fields),
	T("timing", timing, timing_fields),
	T("cycle_model", cycle_model, cycle_model_fields),
	T("normalized_to", normalized_to, normalized_to_fields),
	T("sensor", sensor, sensor_fields),
	T("energy_estimate", energy_estimate, energy_estimate_fields),
	T("image", image, image_fields),
	T("session", session, session_fields),
	{.path = NULL},
};

const char *const hil_result_head_by_hand[] = {
	"schema_version",
	"rows",
	"sizes",
	"fits",
	"images",
	"not_for_board",
	"build.algorithms",
	"build.cflags",
	"build.foreign_code",
	"session.requests_by_command",
	NULL,
};

const char *const hil_result_head_derived[] = {
	/* Constant texts of the tables (HIL_RF_CONST). */
	"cycle_model.method",
	"energy_estimate.kind",
	"energy_estimate.range",
	"energy_estimate.method",
	NULL,
};

/* The objects a report must have (hil_result_head_check). */
static const char *const required_objects[] = {"run", "tool", "build", "board"};

const struct hil_htable *hil_result_head_table(const char *path)
{
	const struct hil_htable *t;

	for (t = hil_result_head_tables; t->path != NULL; t++) {
		if (strcmp(t->path, path) == 0) {
			return t;
		}
	}
	return NULL;
}

int hil_result_head_put(cJSON *o, const char *path, const char *key,
			const struct hil_result_head *h)
{
	const struct hil_htable *t = hil_result_head_table(path);
	size_t i;

	for (i = 0; t != NULL && i < t->n; i++) {
		if (strcmp(t->fields[i].key, key) == 0) {
			return hil_rfield_put(o, &t->fields[i],
					      (const char *)h + t->base);
		}
	}
	return 0;
}

/* The board driver's reading of its flash register, or -1 each. */
static void fill_flash(const struct hil_run *run, struct hil_result_head *h)
{
	const struct hil_board_driver *bd =
		hil_board_find(run->cfg->board.name);
	struct hil_flash_state fs = {-1, -1, -1, -1};

	if ((run->info.flags & HILP_INFO_EMULATED) == 0 && bd != NULL &&
	    bd->flash_state != NULL) {
		bd->flash_state(run->info.flash_acr, &fs);
	}
	h->board.flash_wait_states = fs.wait_states;
	h->board.flash_prefetch = fs.prefetch;
	h->board.flash_icache = fs.icache;
	h->board.flash_dcache = fs.dcache;
}

static void fill_board(const struct hil_run *run, struct hil_result_head *h)
{
	const struct hil_config *cfg = run->cfg;

	snprintf(h->board.name, sizeof(h->board.name), "%s", cfg->board.name);
	snprintf(h->board.reported_name, sizeof(h->board.reported_name), "%s",
		 run->info.board);
	h->board.emulated = (run->info.flags & HILP_INFO_EMULATED) != 0;
	h->board.clock_hz = run->info.clock_hz;
	snprintf(h->board.counter_unit, sizeof(h->board.counter_unit), "%s",
		 hil_unit_name(run->info.counter_unit));
	h->board.counter_hz = run->info.counter_hz;
	h->board.has_counter_hz = 1;
	h->board.flash_acr = run->info.flash_acr;
	h->board.has_flash_acr = 1;
	/* What the figures are, on which chip, clock and flash setting (the
	 * emulated board: the clock the cycle model stands in for). */
	hil_run_clock_label(run, h->board.clock_label,
			    sizeof(h->board.clock_label));
	h->board.configured_clock_hz = cfg->board.clock_hz;
	fill_flash(run, h);
	hil_hex_encode(run->info.uid, HILP_UID_LEN, h->board.uid);
	snprintf(h->board.flasher, sizeof(h->board.flasher), "%s",
		 cfg->flasher.type);
	snprintf(h->board.flasher_version, sizeof(h->board.flasher_version),
		 "%s", run->flasher_version);
	snprintf(h->board.link, sizeof(h->board.link), "%s", cfg->link.type);
	snprintf(h->board.probe_serial, sizeof(h->board.probe_serial), "%s",
		 cfg->flasher.probe_serial);
	snprintf(h->board.id, sizeof(h->board.id), "%s", cfg->board.id);
	h->board.stub_overhead = run->info.overhead;
	h->board.has_stub_overhead = 1;
	h->board.uart_overruns = run->info.uart_overruns;
	h->board.has_uart_overruns = run->info.has_uart_overruns != 0;
}

/* Where the wall time went: figures about the harness, not the
 * algorithms (make bench prints them). */
static void fill_timing(const struct hil_run *run, struct hil_result_head *h)
{
	const double ns = 1e9;
	double other =
		(double)run->timing.total_ns - (double)run->timing.build_ns -
		(double)run->timing.start_ns - (double)run->timing.call_ns -
		(double)run->timing.earlier_ns;
	/* A BENCH wait that ran out is neither link nor target time:
	 * counted on its own (it used to inflate link_s). */
	double link = (double)run->timing.call_ns -
		      (double)run->timing.wait_ns -
		      (double)run->timing.bench_timeout_ns;

	h->timing.total_s = (double)run->timing.total_ns / ns;
	h->timing.earlier_attempts_s = (double)run->timing.earlier_ns / ns;
	h->timing.build_s = (double)run->timing.build_ns / ns;
	h->timing.start_s = (double)run->timing.start_ns / ns;
	h->timing.link_s = (link > 0 ? link : 0) / ns;
	h->timing.target_s = (double)run->timing.wait_ns / ns;
	h->timing.bench_timeouts = run->timing.bench_timeouts;
	h->timing.bench_timeout_s = (double)run->timing.bench_timeout_ns / ns;
	h->timing.host_s = (other > 0 ? other : 0) / ns;
}

static void fill_cycle_model(const struct hil_run *run,
			     struct hil_result_head *h)
{
	const struct cm4_memsys *p;

	h->cycle_model.enabled = run->model.enabled != 0;
	if (!run->model.enabled) {
		snprintf(h->cycle_model.why, sizeof(h->cycle_model.why), "%s",
			 run->model.why);
		return;
	}
	snprintf(h->cycle_model.unit, sizeof(h->cycle_model.unit), "%s",
		 run->model.unit);
	p = cm4_memsys_find(run->model.profile);
	if (p != NULL) {
		snprintf(h->cycle_model.profile, sizeof(h->cycle_model.profile),
			 "%s", p->name);
		hil_cyclemodel_summary(p->name, run->model.ws, run->model.art,
				       h->cycle_model.profile_summary,
				       sizeof(h->cycle_model.profile_summary));
		snprintf(h->cycle_model.unverified,
			 sizeof(h->cycle_model.unverified), "%s",
			 p->unverified != NULL ? p->unverified : "");
	}
	h->cycle_model.wait_states = run->model.ws;
	h->cycle_model.art = run->model.art != 0;
	snprintf(h->cycle_model.records, sizeof(h->cycle_model.records), "%s",
		 run->model.file);
}

static void fill_sensor(const struct hil_run *run, struct hil_result_head *h)
{
	const struct hil_run_sensor *z = &run->sensor;

	if (z->type[0] == '\0' || strcmp(z->type, "none") == 0) {
		snprintf(h->sensor.type, sizeof(h->sensor.type), "none");
		snprintf(h->sensor.why, sizeof(h->sensor.why), "%s",
			 z->why[0] != '\0' ? z->why : "no sensor configured");
		return;
	}
	snprintf(h->sensor.type, sizeof(h->sensor.type), "%s", z->type);
	h->sensor.model = z->model != 0;
	snprintf(h->sensor.bus, sizeof(h->sensor.bus), "%s", z->bus);
	h->sensor.address = z->address;
	h->sensor.shunt_ohm = z->shunt_ohm;
	h->sensor.max_current_a = z->max_current_a;
	h->sensor.config_register = z->config_reg;
	h->sensor.calibration_register = z->cal_reg;
	h->sensor.current_lsb_a = z->current_lsb_a;
	h->sensor.conversion_cycle_us = z->cycle_us;
	snprintf(h->sensor.time_basis, sizeof(h->sensor.time_basis), "%s",
		 z->time_basis);
	snprintf(h->sensor.assumes, sizeof(h->sensor.assumes), "%s",
		 z->assumes);
	snprintf(h->sensor.why, sizeof(h->sensor.why), "%s", z->why);
}

void hil_result_head_fill(const struct hil_run *run, struct hil_result_head *h)
{
	const struct hil_config *cfg = run->cfg;
	char *slash;

	memset(h, 0, sizeof(*h));
	snprintf(h->run.id, sizeof(h->run.id), "%s", run->id);
	snprintf(h->run.status, sizeof(h->run.status), "%s", run->status);
	snprintf(h->run.started, sizeof(h->run.started), "%s", run->started);
	snprintf(h->run.finished, sizeof(h->run.finished), "%s", run->finished);
	snprintf(h->run.config, sizeof(h->run.config), "%s",
		 run->config_given[0] != '\0' ? run->config_given : cfg->path);
	snprintf(h->run.config_name, sizeof(h->run.config_name), "%s",
		 cfg->name);
	h->run.rows_planned = run->rows_planned;

	snprintf(h->tool.name, sizeof(h->tool.name), "hilrun");
	snprintf(h->tool.version, sizeof(h->tool.version), "%s",
		 HIL_TOOL_VERSION);
	snprintf(h->tool.commit, sizeof(h->tool.commit), "%s",
		 run->tool_commit);
	h->tool.dirty = run->tool_dirty != 0;
	snprintf(h->tool.host, sizeof(h->tool.host), "%s", run->host);
	snprintf(h->tool.host_os, sizeof(h->tool.host_os), "%s", run->host_os);
	h->tool.jailed = run->jailed != 0;

	snprintf(h->build.compiler, sizeof(h->build.compiler), "%s",
		 run->fw.compiler);
	snprintf(h->build.compiler_in_elf, sizeof(h->build.compiler_in_elf),
		 "%s", run->elf_compiler);
	snprintf(h->build.all_flags, sizeof(h->build.all_flags), "%s",
		 run->fw.all_flags);
	snprintf(h->build.linker_flags, sizeof(h->build.linker_flags), "%s",
		 run->fw.ld_flags);
	snprintf(h->build.directory, sizeof(h->build.directory), "%s",
		 run->fw.dir);
	snprintf(h->build.elf, sizeof(h->build.elf), "%s", run->fw.elf);
	snprintf(h->build.elf_sha256, sizeof(h->build.elf_sha256), "%s",
		 run->elf_sha256);
	snprintf(h->build.build_id, sizeof(h->build.build_id), "%s",
		 run->build_id);

	fill_board(run, h);
	fill_timing(run, h);
	fill_cycle_model(run, h);

	if (run->normalized_to.spec[0] != '\0') {
		snprintf(h->normalized_to.algorithm,
			 sizeof(h->normalized_to.algorithm), "%s",
			 run->normalized_to.spec);
		slash = strchr(h->normalized_to.algorithm, '/');
		if (slash != NULL) {
			*slash = '\0';
		}
		snprintf(h->normalized_to.implementation,
			 sizeof(h->normalized_to.implementation), "%s",
			 run->normalized_to.implementation);
		snprintf(h->normalized_to.operation,
			 sizeof(h->normalized_to.operation), "encrypt");
	}
	h->normalized_to.rows = run->normalized_to.rows;
	snprintf(h->normalized_to.why, sizeof(h->normalized_to.why), "%s",
		 run->normalized_to.why);

	fill_sensor(run, h);

	h->energy_estimate.present =
		run->energy_est.applies || run->energy_est.beside;
	snprintf(h->energy_estimate.role, sizeof(h->energy_estimate.role), "%s",
		 run->energy_est.applies ? "energy" : "beside");
	snprintf(h->energy_estimate.table, sizeof(h->energy_estimate.table),
		 "%s", run->energy_est.table);
	snprintf(h->energy_estimate.source, sizeof(h->energy_estimate.source),
		 "%s", run->energy_est.source);
	snprintf(h->energy_estimate.assumptions,
		 sizeof(h->energy_estimate.assumptions), "%s",
		 run->energy_est.assumptions);
	snprintf(h->energy_estimate.why, sizeof(h->energy_estimate.why), "%s",
		 run->energy_est.why);

	snprintf(h->image.scope, sizeof(h->image.scope), "%s",
		 run->n_images > 1
			 ? "the last of the images (see images)"
			 : "whole image (stub and every algorithm in it)");
	h->image.flash_bytes = run->sizes.flash;
	h->image.ram_static_bytes = run->sizes.ram_static;
	h->image.stack_reserved_bytes = run->sizes.stack_reserved;

	h->session.present = 1;
	h->session.requests = run->requests;
	h->session.bytes_tx = run->bytes_tx;
	h->session.bytes_rx = run->bytes_rx;
	h->session.retries = run->retries;
	h->session.bad_frames = run->bad_frames;
	h->session.timeouts = run->timeouts;
	h->session.resets = run->resets;
	h->session.reflashes = run->reflashes;
}

/* Table t's fields of report into obj (t's struct), zeroed first. */
static int read_table(const cJSON *report, const struct hil_htable *t,
		      void *obj)
{
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(report, t->path);
	int ok = 1;
	size_t i;

	memset(obj, 0, t->size);
	if (strcmp(t->path, "board") == 0) {
		struct hil_head_board *b = obj;

		b->flash_wait_states = -1;
		b->flash_prefetch = -1;
		b->flash_icache = -1;
		b->flash_dcache = -1;
	} else if (strcmp(t->path, "energy_estimate") == 0) {
		((struct hil_head_energy_estimate *)obj)->present =
			cJSON_IsObject(o);
	} else if (strcmp(t->path, "session") == 0) {
		((struct hil_head_session *)obj)->present = cJSON_IsObject(o);
	}
	for (i = 0; i < t->n; i++) {
		const struct hil_rfield *f = &t->fields[i];

		/* A bool left out is one the board does not have: the -1
		 * stays (hil_rfield_get would make it 0). */
		if (f->type == HIL_RF_BOOL &&
		    !cJSON_IsBool(
			    cJSON_GetObjectItemCaseSensitive(o, f->key)) &&
		    *(int *)((char *)obj + f->off) < 0) {
			continue;
		}
		ok = hil_rfield_get(o, f, obj) && ok;
	}
	return ok;
}

int hil_result_head_read_one(const cJSON *report, const char *path, void *obj)
{
	const struct hil_htable *t = hil_result_head_table(path);

	return t != NULL && read_table(report, t, obj);
}

int hil_result_head_read(const cJSON *report, struct hil_result_head *h)
{
	const struct hil_htable *t;
	int ok = 1;

	memset(h, 0, sizeof(*h));
	for (t = hil_result_head_tables; t->path != NULL; t++) {
		ok = read_table(report, t, (char *)h + t->base) && ok;
	}
	return ok;
}

int hil_result_head_check(const cJSON *report, const char *name, char *err,
			  size_t errlen)
{
	const struct hil_htable *t;
	size_t i;

	for (i = 0; i < N_OF(required_objects); i++) {
		if (cJSON_GetObjectItemCaseSensitive(
			    report, required_objects[i]) == NULL) {
			snprintf(err, errlen, "%s: missing key \"%s\"", name,
				 required_objects[i]);
			return HIL_ERR_ARG;
		}
	}
	for (t = hil_result_head_tables; t->path != NULL; t++) {
		const cJSON *o =
			cJSON_GetObjectItemCaseSensitive(report, t->path);

		if (o == NULL) {
			continue;
		}
		if (!cJSON_IsObject(o)) {
			snprintf(err, errlen, "%s: \"%s\" should be an object",
				 name, t->path);
			return HIL_ERR_ARG;
		}
		for (i = 0; i < t->n; i++) {
			const struct hil_rfield *f = &t->fields[i];
			const cJSON *v =
				cJSON_GetObjectItemCaseSensitive(o, f->key);
			const char *what = "";

			if (v == NULL && !(f->flags & HIL_RF_OPTIONAL) &&
			    f->type != HIL_RF_CONST) {
				snprintf(err, errlen,
					 "%s: missing key \"%s.%s\"", name,
					 t->path, f->key);
				return HIL_ERR_ARG;
			}
			if (!hil_rfield_type_ok(f, v, &what)) {
				snprintf(err, errlen,
					 "%s: \"%s.%s\" should be %s", name,
					 t->path, f->key, what);
				return HIL_ERR_ARG;
			}
		}
	}
	return HIL_OK;
}
