/* headcodec: report.json's objects other than its rows (run, tool, build, board, ...), declared once in tables that the writer and every reader walk. */
#ifndef HIL_HEADCODEC_H
#define HIL_HEADCODEC_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "result/rowcodec.h"
#include "result/run.h"

/* tool.version of the reports this hilrun writes. */
#define HIL_TOOL_VERSION "0.1.0"

/*
 * The report-level fields of report.json as a reader gets them: what the
 * writer took from the run and its configuration, in the form the file
 * holds it (the board's unit as text, the uid in hex, seconds). The arrays
 * (cflags, foreign_code, sizes, fits, images, not_for_board, rows) are
 * not in it: their readers take them by hand (hil_result_head_by_hand).
 * Its strings hold at least 256 bytes where a report's reader shows them
 * (names, units), so that a longer value from another writer is seen
 * for what it is, not cut to one that looks right.
 */
struct hil_result_head {
	struct hil_head_run {
		char id[256]; /* longer than a run id: a reader sees it is not one */
		char status[32];
		char started[32];
		char finished[32];
		char config[HIL_PATH];
		char config_name[256];
		uint64_t rows_planned; /* 0: not stated */
	} run;
	struct hil_head_tool {
		char name[32];
		char version[32];
		char commit[256];
		int dirty;
		char host[256];
		char host_os[256];
		int jailed;
	} tool;
	struct hil_head_build {
		char compiler[256];
		char compiler_in_elf[256];
		char all_flags[2048];
		char linker_flags[1024];
		char directory[HIL_PATH];
		/* build.algorithms, as long as a run's selection makes it, is
		 * taken by hand (hil_result_head_by_hand): no fixed buffer. */
		char elf[HIL_PATH];
		char elf_sha256[65];
		char build_id[2 * HILP_BUILD_ID_MAX + 1];
	} build;
	struct hil_head_board {
		char name[256];
		char reported_name[256];
		int emulated;
		uint32_t clock_hz; /* 0: not reported (null) */
		char counter_unit[256];
		uint32_t counter_hz;
		int has_counter_hz; /* 0: not in the report (an older one) */
		uint32_t flash_acr;
		int has_flash_acr; /* 0: not in the report */
		char clock_label[192];
		uint32_t configured_clock_hz;
		/* The board driver's decoding of flash_acr; -1: the board has
		 * no such setting (the key is left out). */
		int flash_wait_states;
		int flash_prefetch, flash_icache, flash_dcache;
		char uid[2 * HILP_UID_LEN + 1];
		char flasher[256];
		char flasher_version[256];
		char link[256];
		char probe_serial[256];
		char id[256];
		uint32_t stub_overhead;
		int has_stub_overhead; /* 0: not in the report */
		uint32_t uart_overruns;
		int has_uart_overruns; /* 0: null (a stub that does not count) */
	} board;
	struct hil_head_timing {
		double total_s;
		double earlier_attempts_s; /* 0: not a resumed run (left out) */
		double build_s, start_s, link_s, target_s;
		unsigned bench_timeouts;
		double bench_timeout_s, host_s;
	} timing;
	struct hil_head_cycle_model {
		int enabled;
		/* When enabled: */
		char unit[256];
		char profile[32]; /* "": an unknown profile (null) */
		/* A known profile's: */
		char profile_summary[320];
		char unverified[256]; /* "": every parameter documented (null) */
		unsigned wait_states;
		int art;
		char records[HIL_PATH + 16];
		/* When not enabled: */
		char why[256];
	} cycle_model;
	struct hil_head_normalized_to {
		char algorithm[2 * HIL_CFG_NAME];	/* "": none (null) */
		char implementation[HILP_ALG_NAME_MAX]; /* run.h's */
		char operation[16];
		uint64_t rows;
		char why[256]; /* "": left out */
	} normalized_to;
	struct hil_head_sensor {
		char type[32]; /* "none" or a sensor driver's name */
		int model;     /* kind: 1 "model", 0 "measured" */
		char bus[256];
		unsigned address;
		double shunt_ohm;
		double max_current_a;
		unsigned config_register;
		unsigned calibration_register;
		double current_lsb_a;
		unsigned conversion_cycle_us;
		char time_basis[256];
		char assumes[320]; /* "": left out */
		char why[256];	   /* "": left out (but with type "none") */
	} sensor;
	struct hil_head_energy_estimate {
		int present;   /* the object is in the report */
		char role[16]; /* "energy" or "beside" */
		char table[64];
		char source[256];
		char assumptions[1024];
		char why[256]; /* "": left out */
	} energy_estimate;
	struct hil_head_image {
		char scope[64];
		uint64_t flash_bytes;
		uint64_t ram_static_bytes;
		uint64_t stack_reserved_bytes;
	} image;
	struct hil_head_session {
		int present; /* the object is in the report */
		unsigned requests;
		uint64_t bytes_tx, bytes_rx;
		unsigned retries, bad_frames, timeouts, resets, reflashes;
	} session;
};

/* A table of one of report.json's report-level objects, at path. */
struct hil_htable {
	const char *path; /* "run", "board", "cycle_model", ... */
	size_t base;	  /* offsetof(struct hil_result_head, the object) */
	size_t size;	  /* sizeof the object's struct */
	const struct hil_rfield *fields;
	size_t n;
};

/* Every report-level object with fields, NULL-path terminated. */
extern const struct hil_htable hil_result_head_tables[];

/*
 * Top-level keys and keys of those objects that their readers take by
 * hand: the arrays, and session.requests_by_command. "path.key" or "key".
 * NULL terminated.
 */
extern const char *const hil_result_head_by_hand[];

/*
 * Keys the writer puts that no reader takes back: fixed texts (a
 * method's document) and figures derived again (an image's flash_bytes
 * and ram_bytes from its sections). NULL terminated.
 */
extern const char *const hil_result_head_derived[];

/** The table of the object at path, or NULL. */
const struct hil_htable *hil_result_head_table(const char *path);

/**
 * One report-level object of report into obj, the struct of that object
 * (struct hil_head_board for "board", ...), zeroed first (the board's
 * settings it lacks read as -1), as hil_result_head_read reads it.
 * @return 1 every required field read, 0 one was missing or mistyped, or
 *         there is no such table.
 */
int hil_result_head_read_one(const cJSON *report, const char *path, void *obj);

/**
 * Write field key of table path from h into o.
 * @return 1, or 0 when out of memory or key is not in the table.
 */
int hil_result_head_put(cJSON *o, const char *path, const char *key,
			const struct hil_result_head *h);

/**
 * The report-level fields of a run's report, from the run and its
 * configuration (the clock label, the unit's text, the board driver's
 * reading of its flash register, the cycle-model profile's summary).
 */
void hil_result_head_fill(const struct hil_run *run, struct hil_result_head *h);

/**
 * report.json's report-level fields into h (zeroed first; settings a
 * board does not have read as -1). An object or a key that is absent is
 * left as it is; one of the wrong type too.
 * @return 1 every required field read, 0 one was missing or mistyped.
 */
int hil_result_head_read(const cJSON *report, struct hil_result_head *h);

/**
 * Check the report-level objects of report against the tables: each
 * object that must be there is, each required key is, and every key the
 * tables know has a type their readers take.
 * @param name the file's name, for err.
 * @return HIL_OK, or HIL_ERR_ARG with a message naming the key in err
 *         ("report.json: \"board.emulated\" should be true or false").
 */
int hil_result_head_check(const cJSON *report, const char *name, char *err,
			  size_t errlen);

#endif /* HIL_HEADCODEC_H */
