/* e2e_util: helpers shared by the end-to-end tests: time, QEMU processes, stderr capture, temporary trees, targets brought up through the runner. */
#ifndef E2E_UTIL_H
#define E2E_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "config/config.h"
#include "drivers/flasher/flasher.h"
#include "drivers/link/link.h"
#include "result/run.h"
#include "run/runner.h"

#define E2E_QEMU_PROGRAM "qemu-system-arm"

/*
 * An upper bound on a wait that only a hang reaches, never a speed check:
 * the e2e tests run on a loaded 2-core machine (ASan, other jobs, QEMU), so
 * a bound on elapsed time may only tell "returned" from "hung". Lower
 * bounds (a timeout waited at least its time) are safe and stay exact. A
 * test that must tell one path from another does it by an event (a counter,
 * a log line), or by making the other path's time far above this bound.
 */
#define E2E_HANG_MS 60000u

uint64_t e2e_ms_now(void);
void e2e_sleep_ms(unsigned ms);

/**
 * Live QEMU processes whose command line mentions needle and not except
 * (NULL: no exception). Zombies have an empty cmdline and do not count.
 * @return the count, or -1 when /proc cannot be read.
 */
int e2e_count_qemu(const char *needle, const char *except);

/** Wait up to ms until none is left; 1 when none is, 0 (logged) if some are. */
int e2e_qemu_gone(const char *needle, const char *except, unsigned ms);

/* stderr redirected into a file under dir for the length of one call. */
struct e2e_capture {
	int saved;
	char path[128];
};

void e2e_capture_begin(struct e2e_capture *c, const char *dir);

/** Restore stderr; buf receives what was written (echoed to stderr too). */
void e2e_capture_end(struct e2e_capture *c, char *buf, size_t len);

/** Fail the test unless needle is in hay. */
void e2e_assert_contains(const char *hay, const char *needle);

/** Is s exactly n lower-case hex digits? */
int e2e_is_hex(const char *s, size_t n);

/** mkdir that may already exist; fails the test otherwise. */
void e2e_make_dir(const char *path);

/** rm -r, reporting what could not be removed. */
void e2e_remove_tree(const char *path);

/* ---- hilrun as a process ---- */

/** The hilrun under test: $HILRUN_BIN, else build/hilrun. */
const char *e2e_hilrun_bin(void);

/**
 * The run a pq test's group setup makes: hilrun pq of the fixture config
 * tests/fixtures/pq/CONFIG of src_root, two runs per operation, seed 1,
 * its output folder tmp_root/pq (copied into out) and its log tmp_root/LOG.
 * @param status receives hilrun's exit status.
 * @return 0, or -1 when hilrun could not be run (a group setup's answer).
 */
int e2e_pq_run(const char *src_root, const char *tmp_root, const char *config,
	       const char *log, char *out, size_t out_len, int *status);

/** The one run folder under results (not "latest"); fails the test if none. */
void e2e_run_dir(const char *results, char *out, size_t len);

/**
 * Lines of path containing needle ("" counts every line); 0 if the file
 * cannot be read.
 */
size_t e2e_lines_with(const char *path, const char *needle);

/**
 * A live descendant of parent named comm (as in /proc/PID/stat), at most
 * five levels down (hilrun's children run under a supervisor,
 * host/util/proc.h, and a jailed one under bwrap's two processes), other
 * than except (0: none); zombies do not count.
 * @return its pid, or 0 when there is none.
 */
int e2e_child_named(int parent, const char *comm, int except);

struct cJSON;

/** Member key of o; fails the test (naming report.json) if it is missing. */
const struct cJSON *e2e_need(const struct cJSON *o, const char *key);

/** The string member key of o; fails the test if missing or not a string. */
const char *e2e_need_str(const struct cJSON *o, const char *key);

/** The number member key of o; fails the test if missing or not a number. */
double e2e_need_num(const struct cJSON *o, const char *key);

/** A JSON file parsed (caller frees with cJSON_Delete); fails the test if
 * it cannot be read or parsed. */
struct cJSON *e2e_load_json(const char *path);

/** The report.json of the one run folder under results, parsed. */
struct cJSON *e2e_load_report(const char *results);

/**
 * The rows of a report.json as text, one line each: algorithm, impl,
 * operation, length, status, median and every sample, for comparing runs.
 * @return a malloc'd string (caller frees); fails the test if unreadable.
 */
char *e2e_report_rows(const char *report);

/**
 * A number at a dotted path of a report.json ("session.reflashes");
 * fails the test if missing.
 */
double e2e_report_num(const char *report, const char *path);

/** A string at a dotted path of a report.json, copied into out. */
void e2e_report_str(const char *report, const char *path, char *out,
		    size_t len);

/* ---- a test program's main() ---- */

/**
 * The start of an e2e main(): SIGPIPE ignored, HILRUN_LOG=1 (warnings and
 * errors) unless the caller set it, the source tree found into src_root
 * (NULL: not wanted), and a fresh folder made from tmpl into tmp_root.
 * @param tmpl a mkdtemp() template, "/tmp/e2e-name-XXXXXX".
 * @return 0, or 1 (said on stderr) when the tree or the folder cannot be had.
 */
int e2e_main_begin(char *src_root, size_t src_len, char *tmp_root,
		   size_t tmp_len, const char *tmpl);

/**
 * The end of an e2e main(): a QEMU still alive under tmp_root is one more
 * failure; tmp_root is removed.
 * @return the exit status: 0 when failed is 0 and no QEMU was left, else 1.
 */
int e2e_main_end(const char *tmp_root, int failed);

/* ---- a whole run on qemu-netduino through the runner ---- */

/**
 * Parse into cfg, against src_root, the config of a run named name on
 * qemu-netduino (QEMU flasher, socket link, -O2) of the algorithms algs
 * (the inside of the JSON array), with the members bench (the inside of
 * the "bench" object) and its results in results; fails the test, showing
 * the JSON, when the config is rejected. cfg: zeroed, or parsed before
 * (what it held is freed); the caller frees it with hil_config_free().
 */
void e2e_qemu_config(struct hil_config *cfg, const char *src_root,
		     const char *name, const char *algs, const char *bench,
		     const char *results);

/** hil_runner_run() of cfg with default options and its results in results. */
int e2e_run_config(const struct hil_config *cfg, const char *results,
		   struct hil_run *run);

/** buf = root/sub, made (fails the test when it cannot be). */
void e2e_results_dir(const char *root, const char *sub, char *buf, size_t len);

/* ---- a target brought up through the runner ---- */

/* A target built, started, connected and identified, in a run folder of its
 * own. */
struct e2e_target {
	struct hil_config cfg;
	struct hil_run run;
	struct hil_runner_opts opts;
	struct hil_target_conn conn;
	struct hil_link_faults faults;
	int alg; /* index of the algorithm asked for in the image */
};

/**
 * Bring a target up with a copy of cfg, in the run folder root/sub (made
 * here), results under root, and find alg/impl in its image.
 * @param faults link faults injected from the start, or NULL for none.
 * @return the target (caller releases it with e2e_target_down()); fails the
 *         test, with nothing left running, if bring-up fails or alg/impl is
 *         not in the image.
 */
struct e2e_target *e2e_target_up(const struct hil_config *cfg, const char *root,
				 const char *sub,
				 const struct hil_link_faults *faults,
				 const char *alg, const char *impl);

/** Take the target down (its QEMU included) and free it; NULL is a no-op. */
void e2e_target_down(struct e2e_target *t);

/**
 * Close t's session, wrap its link in faults (a silent link, say) and open
 * a new session on the wrapper; fails the test if either step fails.
 */
void e2e_target_wrap_link(struct e2e_target *t,
			  const struct hil_link_faults *faults,
			  unsigned timeout_ms, unsigned retries);

/**
 * Start elf under QEMU by hand (none of the runner's checks), its files in
 * run_dir, open a socket link and a session (timeout_ms a reply, 3
 * retries) and shake hands within handshake_ms, filling info; fails the
 * test if any step fails.
 * @param fl, link, s receive what was opened, also when a later step fails;
 *        the caller closes them.
 */
void e2e_qemu_open_elf(const char *run_dir, const char *elf,
		       unsigned timeout_ms, unsigned handshake_ms,
		       struct hil_flasher **fl, struct hil_link **link,
		       struct hil_session **s, struct hilp_info *info);

/** The host's reference build of name/impl; fails the test if it has none. */
const struct registry_alg *e2e_ref_alg(const char *name, const char *impl);

#endif /* E2E_UTIL_H */
