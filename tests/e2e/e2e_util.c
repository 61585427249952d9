/* e2e_util: helpers shared by the end-to-end tests: time, QEMU processes, stderr capture, temporary trees, targets brought up through the runner. */
#define _XOPEN_SOURCE 700
#include "e2e_util.h"

#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "image/build.h"
#include "image/refcrypto/refcrypto.h"
#include "session/session.h"
#include "session/stub.h"
#include "util/err.h"
#include "util/proc.h"

uint64_t e2e_ms_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

void e2e_sleep_ms(unsigned ms)
{
	struct timespec ts = {.tv_sec = ms / 1000u,
			      .tv_nsec = (long)(ms % 1000u) * 1000000L};

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
	}
}

int e2e_count_qemu(const char *needle, const char *except)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int n = 0;

	if (d == NULL) {
		return -1;
	}
	for (e = readdir(d); e != NULL; e = readdir(d)) {
		char path[300], buf[8192];
		size_t len, i;
		FILE *f;

		if (e->d_name[0] < '0' || e->d_name[0] > '9') {
			continue;
		}
		snprintf(path, sizeof(path), "/proc/%s/cmdline", e->d_name);
		f = fopen(path, "r");
		if (f == NULL) {
			continue;
		}
		len = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		for (i = 0; i < len; i++) {
			if (buf[i] == '\0') {
				buf[i] = ' ';
			}
		}
		buf[len] = '\0';
		/* A jailed QEMU's bwrap names it too: count QEMU alone. */
		if (strncmp(buf, "bwrap ", 6) != 0 &&
		    strstr(buf, E2E_QEMU_PROGRAM) != NULL &&
		    strstr(buf, needle) != NULL &&
		    (except == NULL || strstr(buf, except) == NULL)) {
			n++;
		}
	}
	closedir(d);
	return n;
}

int e2e_qemu_gone(const char *needle, const char *except, unsigned ms)
{
	uint64_t deadline = e2e_ms_now() + ms;

	for (;;) {
		int n = e2e_count_qemu(needle, except);

		if (n == 0) {
			return 1;
		}
		if (e2e_ms_now() >= deadline) {
			fprintf(stderr,
				"e2e: %d QEMU process(es) of %s still alive\n",
				n, needle);
			return 0;
		}
		e2e_sleep_ms(20);
	}
}

void e2e_capture_begin(struct e2e_capture *c, const char *dir)
{
	int fd;

	fflush(stderr);
	snprintf(c->path, sizeof(c->path), "%s/stderr-XXXXXX", dir);
	fd = mkstemp(c->path);
	assert_true(fd >= 0);
	c->saved = dup(2);
	assert_true(c->saved >= 0);
	assert_int_equal(dup2(fd, 2), 2);
	close(fd);
}

void e2e_capture_end(struct e2e_capture *c, char *buf, size_t len)
{
	FILE *f;
	size_t n;

	fflush(stderr);
	dup2(c->saved, 2);
	close(c->saved);
	f = fopen(c->path, "r");
	assert_non_null(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
	unlink(c->path);
	fprintf(stderr, "%s", buf);
}

void e2e_assert_contains(const char *hay, const char *needle)
{
	if (strstr(hay, needle) == NULL) {
		fail_msg("expected \"%s\" in the message:\n%s", needle, hay);
	}
}

int e2e_is_hex(const char *s, size_t n)
{
	size_t i;

	if (s == NULL || strlen(s) != n) {
		return 0;
	}
	for (i = 0; i < n; i++) {
		if (!((s[i] >= '0' && s[i] <= '9') ||
		      (s[i] >= 'a' && s[i] <= 'f'))) {
			return 0;
		}
	}
	return 1;
}

void e2e_make_dir(const char *path)
{
	if (mkdir(path, 0755) != 0 && errno != EEXIST) {
		fail_msg("mkdir %s: %s", path, strerror(errno));
	}
}

void e2e_results_dir(const char *root, const char *sub, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", root, sub);
	e2e_make_dir(buf);
}

static int rm_entry(const char *path, const struct stat *st, int flag,
		    struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	if (remove(path) != 0) {
		fprintf(stderr, "e2e: cannot remove %s: %s\n", path,
			strerror(errno));
	}
	return 0;
}

void e2e_remove_tree(const char *path)
{
	nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* ---- hilrun as a process ---- */

const char *e2e_hilrun_bin(void)
{
	const char *b = getenv("HILRUN_BIN");

	return b != NULL && b[0] != '\0' ? b : "build/hilrun";
}

int e2e_pq_run(const char *src_root, const char *tmp_root, const char *config,
	       const char *log, char *out, size_t out_len, int *status)
{
	char cfg[HIL_PATH + 64], log_path[HIL_PATH + 32];
	char *argv[] = {(char *)e2e_hilrun_bin(),
			"pq",
			"--config",
			cfg,
			"--runs",
			"2",
			"--seed",
			"1",
			"--output",
			out,
			NULL};

	snprintf(out, out_len, "%s/pq", tmp_root);
	snprintf(cfg, sizeof(cfg), "%s/tests/fixtures/pq/%s", src_root, config);
	snprintf(log_path, sizeof(log_path), "%s/%s", tmp_root, log);
	return hil_proc_run(argv, log_path, 600000, status) == HIL_OK ? 0 : -1;
}

void e2e_run_dir(const char *results, char *out, size_t len)
{
	DIR *d = opendir(results);
	struct dirent *e;

	out[0] = '\0';
	if (d == NULL) {
		fail_msg("no results folder %s", results);
	}
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] != '.' && strcmp(e->d_name, "latest") != 0) {
			snprintf(out, len, "%s/%s", results, e->d_name);
		}
	}
	closedir(d);
	if (out[0] == '\0') {
		fail_msg("no run folder in %s", results);
	}
}

cJSON *e2e_load_json(const char *path)
{
	char *text = NULL;
	long size;
	cJSON *root;
	FILE *f = fopen(path, "r");

	if (f == NULL) {
		fail_msg("cannot open %s", path);
	}
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	rewind(f);
	text = calloc(1, (size_t)size + 1);
	assert_non_null(text);
	assert_int_equal(fread(text, 1, (size_t)size, f), (size_t)size);
	fclose(f);
	root = cJSON_Parse(text);
	free(text);
	if (root == NULL) {
		fail_msg("%s is not JSON", path);
	}
	return root;
}

const cJSON *e2e_need(const cJSON *o, const char *key)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);

	if (it == NULL) {
		fail_msg("report.json: no key \"%s\"", key);
	}
	return it;
}

const char *e2e_need_str(const cJSON *o, const char *key)
{
	const cJSON *it = e2e_need(o, key);

	if (!cJSON_IsString(it)) {
		fail_msg("report.json: \"%s\" is not a string", key);
	}
	return it->valuestring;
}

double e2e_need_num(const cJSON *o, const char *key)
{
	const cJSON *it = e2e_need(o, key);

	if (!cJSON_IsNumber(it)) {
		fail_msg("report.json: \"%s\" is not a number", key);
	}
	return it->valuedouble;
}

cJSON *e2e_load_report(const char *results)
{
	char dir[512], path[600];

	e2e_run_dir(results, dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/report.json", dir);
	return e2e_load_json(path);
}

size_t e2e_lines_with(const char *path, const char *needle)
{
	char line[1 << 16];
	size_t n = 0;
	FILE *f = fopen(path, "r");

	if (f == NULL) {
		return 0;
	}
	while (fgets(line, sizeof(line), f) != NULL) {
		n += strstr(line, needle) != NULL;
	}
	fclose(f);
	return n;
}

/* e2e_child_named(), looking depth levels further down. */
static int descendant_named(int parent, const char *comm, int except, int depth)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int found = 0;

	if (d == NULL) {
		return 0;
	}
	while (found == 0 && (e = readdir(d)) != NULL) {
		char path[300], buf[1024], name[64], state;
		const char *open_paren, *close_paren;
		int pid, ppid;
		size_t n;
		FILE *f;

		if (e->d_name[0] < '0' || e->d_name[0] > '9') {
			continue;
		}
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		f = fopen(path, "r");
		if (f == NULL) {
			continue;
		}
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		buf[n] = '\0';
		/* "pid (comm) state ppid ...": comm may hold spaces and ')' */
		open_paren = strchr(buf, '(');
		close_paren = strrchr(buf, ')');
		if (open_paren == NULL || close_paren == NULL ||
		    close_paren < open_paren ||
		    (size_t)(close_paren - open_paren - 1) >= sizeof(name) ||
		    sscanf(close_paren + 1, " %c %d", &state, &ppid) != 2) {
			continue;
		}
		memcpy(name, open_paren + 1,
		       (size_t)(close_paren - open_paren - 1));
		name[close_paren - open_paren - 1] = '\0';
		pid = atoi(e->d_name);
		if (ppid != parent) {
			continue;
		}
		if (state != 'Z' && pid != except && strcmp(name, comm) == 0) {
			found = pid;
		} else if (depth > 0) {
			/* Under its supervisor (util/proc.h), and a jailed one
			 * under bwrap's two (util/jail.h). */
			found = descendant_named(pid, comm, except, depth - 1);
		}
	}
	closedir(d);
	return found;
}

int e2e_child_named(int parent, const char *comm, int except)
{
	return descendant_named(parent, comm, except, 4);
}

static const cJSON *at_path(const cJSON *root, const char *report,
			    const char *path)
{
	char key[128];
	const char *p = path;
	const cJSON *it = root;

	while (*p != '\0') {
		size_t n = strcspn(p, ".");

		snprintf(key, sizeof(key), "%.*s", (int)n, p);
		it = cJSON_GetObjectItemCaseSensitive(it, key);
		if (it == NULL) {
			fail_msg("%s: no %s", report, path);
		}
		p += n;
		if (*p == '.') {
			p++;
		}
	}
	return it;
}

double e2e_report_num(const char *report, const char *path)
{
	cJSON *root = e2e_load_json(report);
	const cJSON *it = at_path(root, report, path);
	double v;

	if (!cJSON_IsNumber(it)) {
		fail_msg("%s: %s is not a number", report, path);
	}
	v = it->valuedouble;
	cJSON_Delete(root);
	return v;
}

void e2e_report_str(const char *report, const char *path, char *out, size_t len)
{
	cJSON *root = e2e_load_json(report);
	const cJSON *it = at_path(root, report, path);

	if (!cJSON_IsString(it)) {
		fail_msg("%s: %s is not a string", report, path);
	}
	snprintf(out, len, "%s", it->valuestring);
	cJSON_Delete(root);
}

static const char *row_str(const cJSON *row, const char *key)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(row, key);

	return cJSON_IsString(it) ? it->valuestring : "?";
}

static double row_num(const cJSON *row, const char *key)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(row, key);

	return cJSON_IsNumber(it) ? it->valuedouble : -1;
}

char *e2e_report_rows(const char *report)
{
	cJSON *root = e2e_load_json(report);
	const cJSON *row;
	size_t cap = 1 << 20, o = 0;
	char *out = calloc(1, cap);

	assert_non_null(out);
	cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(root, "rows"))
	{
		char *samples = cJSON_PrintUnformatted(
			cJSON_GetObjectItemCaseSensitive(row, "samples"));

		o += (size_t)snprintf(
			out + o, cap - o, "%s/%s %s %.0f: %s median %g %s\n",
			row_str(row, "algorithm"),
			row_str(row, "implementation"),
			row_str(row, "operation"), row_num(row, "msg_len"),
			row_str(row, "status"), row_num(row, "median"),
			samples != NULL ? samples : "null");
		free(samples);
		assert_true(o < cap);
	}
	cJSON_Delete(root);
	return out;
}

/* ---- a test program's main() ---- */

int e2e_main_begin(char *src_root, size_t src_len, char *tmp_root,
		   size_t tmp_len, const char *tmpl)
{
	signal(SIGPIPE, SIG_IGN);
	setenv("HILRUN_LOG", "1", 0);
	if (src_root != NULL &&
	    hil_build_find_root(src_root, src_len) != HIL_OK) {
		fprintf(stderr, "e2e: no source tree: set HILRUN_ROOT\n");
		return 1;
	}
	snprintf(tmp_root, tmp_len, "%s", tmpl);
	if (mkdtemp(tmp_root) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	return 0;
}

int e2e_main_end(const char *tmp_root, int failed)
{
	if (!e2e_qemu_gone(tmp_root, NULL, E2E_HANG_MS)) {
		failed++;
	}
	e2e_remove_tree(tmp_root);
	return failed != 0;
}

/* ---- a target brought up through the runner ---- */

struct e2e_target *e2e_target_up(const struct hil_config *cfg, const char *root,
				 const char *sub,
				 const struct hil_link_faults *faults,
				 const char *alg, const char *impl)
{
	struct e2e_target *t = calloc(1, sizeof(*t));
	struct hilp_alg_info algs[HIL_TARGET_MAX_ALGS];
	size_t n = 0, i;
	int ret;

	assert_non_null(t);
	assert_int_equal(hil_config_copy(&t->cfg, cfg), HIL_OK);
	snprintf(t->run.dir, sizeof(t->run.dir), "%s/%s", root, sub);
	e2e_make_dir(t->run.dir);
	t->run.cfg = &t->cfg;
	t->opts.results_dir = root;
	if (faults != NULL) {
		t->faults = *faults;
		t->opts.faults = &t->faults;
	}
	ret = hil_runner_bring_up(&t->cfg, &t->opts, &t->run, &t->conn);
	if (ret != HIL_OK) {
		hil_runner_take_down(&t->conn, &t->run);
		hil_run_free(&t->run);
		hil_config_free(&t->cfg);
		free(t);
		fail_msg("bring-up in %s/%s failed: %s", root, sub,
			 hil_strerror(ret));
	}
	ret = hil_target_algs(t->conn.session, algs, HIL_TARGET_MAX_ALGS, &n);
	t->alg = -1;
	for (i = 0; ret == HIL_OK && i < n; i++) {
		if (strcmp(algs[i].name, alg) == 0 &&
		    strcmp(algs[i].impl, impl) == 0) {
			t->alg = (int)i;
		}
	}
	if (t->alg < 0) {
		/* Taken down before failing: no emulator outlives the test. */
		hil_runner_take_down(&t->conn, &t->run);
		hil_run_free(&t->run);
		hil_config_free(&t->cfg);
		free(t);
		fail_msg("%s/%s is not in the image (ALG: %s)", alg, impl,
			 hil_strerror(ret));
	}
	return t;
}

void e2e_target_down(struct e2e_target *t)
{
	if (t == NULL) {
		return;
	}
	hil_runner_take_down(&t->conn, &t->run);
	hil_run_free(&t->run);
	hil_config_free(&t->cfg);
	free(t);
}

void e2e_target_wrap_link(struct e2e_target *t,
			  const struct hil_link_faults *faults,
			  unsigned timeout_ms, unsigned retries)
{
	hil_session_close(t->conn.session);
	t->conn.session = NULL;
	assert_int_equal(
		hil_link_wrap_flaky(&t->conn.link, t->conn.link, faults),
		HIL_OK);
	assert_int_equal(hil_session_open(&t->conn.session, t->conn.link,
					  timeout_ms, retries),
			 HIL_OK);
}

void e2e_qemu_open_elf(const char *run_dir, const char *elf,
		       unsigned timeout_ms, unsigned handshake_ms,
		       struct hil_flasher **fl, struct hil_link **link,
		       struct hil_session **s, struct hilp_info *info)
{
	struct hil_flasher_params fp;

	memset(&fp, 0, sizeof(fp));
	fp.run_dir = run_dir;
	assert_int_equal(hil_flasher_open(fl, "qemu", &fp), HIL_OK);
	assert_int_equal(hil_flasher_start(*fl, elf), HIL_OK);
	assert_int_equal(
		hil_link_open(link, "socket", hil_flasher_link_where(*fl), 0),
		HIL_OK);
	assert_int_equal(hil_session_open(s, *link, timeout_ms, 3), HIL_OK);
	assert_int_equal(hil_session_handshake(*s, handshake_ms, info), HIL_OK);
}

const struct registry_alg *e2e_ref_alg(const char *name, const char *impl)
{
	const struct registry_alg *a = hil_ref_find(name, impl);

	assert_non_null(a);
	return a;
}

/* ---------------------------------------------------------------- a whole run */

void e2e_qemu_config(struct hil_config *cfg, const char *src_root,
		     const char *name, const char *algs, const char *bench,
		     const char *results)
{
	char json[8192];
	char err[1024] = "";
	int n;

	n = snprintf(json, sizeof(json),
		     "{ \"name\": \"%s\","
		     " \"board\": { \"name\": \"qemu-netduino\" },"
		     " \"flasher\": { \"type\": \"qemu\" },"
		     " \"link\": { \"type\": \"socket\" },"
		     " \"build\": { \"cflags\": [\"-O2\"] },"
		     " \"algorithms\": [%s],"
		     " \"bench\": { %s },"
		     " \"results_dir\": \"%s\" }",
		     name, algs, bench, results);
	assert_true(n > 0 && (size_t)n < sizeof(json));
	hil_config_free(cfg);
	if (hil_config_parse(json, src_root, cfg, err, sizeof(err)) != HIL_OK) {
		fail_msg("config rejected: %s\n%s", err, json);
	}
}

int e2e_run_config(const struct hil_config *cfg, const char *results,
		   struct hil_run *run)
{
	struct hil_runner_opts opts;

	memset(&opts, 0, sizeof(opts));
	opts.results_dir = results;
	return hil_runner_run(cfg, &opts, run);
}
