/* test_e2e_pqserve: the lab daemon takes pq jobs: a job of kind "pq" naming a hilrun pq configuration runs through hilrun pq on qemu-netduino over its USART socket, under the board's lock, and is filed with its run folder; a job whose configuration names a program, or a folder outside the lab's roots, is failed with the reason before anything runs. */
#define _XOPEN_SOURCE 700

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "e2e_util.h"
#include "util/err.h"
#include "util/proc.h"
#include "util/util.h"

#define FIX "tests/fixtures/pq"

static char tmp_root[64];
static char src_root[HIL_PATH];

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* A pq configuration in dir/name: toykem and toysig (from folder, the
 * tree's fixtures unless given) on qemu-netduino's socket; extra goes into
 * the flasher section. */
static void pq_config(const char *dir, const char *name, const char *kem,
		      const char *extra)
{
	char path[HIL_PATH + 64], text[4 * HIL_PATH];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(
		text, sizeof(text),
		"{\"board\": {\"name\": \"qemu-netduino\"},\n"
		" \"flasher\": {\"type\": \"qemu\"%s},\n"
		" \"link\": {\"type\": \"socket\"},\n"
		" \"algorithms\": [\n"
		"  {\"name\": \"toykem\", \"impl\": \"ref\", \"path\": \"%s\"},\n"
		"  {\"name\": \"toysig\", \"impl\": \"ref\", \"path\": "
		"\"%s/" FIX "/crypto_sign/toysig/ref\"}]}\n",
		extra, kem, src_root);
	write_file(path, text);
}

static cJSON *result_of(const char *sub, const char *base)
{
	char path[HIL_PATH + 64];

	snprintf(path, sizeof(path), "%s/spool/%s/%s.result.json", tmp_root,
		 sub, base);
	return e2e_load_json(path);
}

/* Three jobs, one daemon pass (--once): the good one done, the two that
 * break the lab's rules failed, saying which rule. */
static void test_serve_runs_pq_jobs(void **state)
{
	char cfg[HIL_PATH + 32], spool[HIL_PATH + 32], in[HIL_PATH + 64];
	char kem[HIL_PATH + 64], other[HIL_PATH + 64], cmd[3 * HIL_PATH];
	char locks[HIL_PATH + 32], log[HIL_PATH + 32], path[HIL_PATH + 64];
	char cwd[HIL_PATH], text[HIL_PATH + 128];
	char *argv[] = {(char *)e2e_hilrun_bin(),
			"serve",
			"--spool",
			spool,
			"--root",
			cfg,
			"--root",
			src_root,
			"--once",
			"--no-jail",
			NULL};
	const char *run_dir;
	cJSON *r, *rep;
	int st = -1, rows = 0;
	const cJSON *row;

	(void)state;
	snprintf(cfg, sizeof(cfg), "%s/cfg", tmp_root);
	snprintf(spool, sizeof(spool), "%s/spool", tmp_root);
	snprintf(in, sizeof(in), "%s/incoming", spool);
	snprintf(locks, sizeof(locks), "%s/locks", tmp_root);
	e2e_make_dir(cfg);
	e2e_make_dir(spool);
	e2e_make_dir(in);
	snprintf(kem, sizeof(kem), "%s/" FIX "/crypto_kem/toykem/ref",
		 src_root);
	pq_config(cfg, "toys.json", kem, "");
	pq_config(cfg, "prog.json", kem, ", \"program\": \"/bin/sh\"");
	/* The same scheme, from a folder outside both roots. */
	snprintf(other, sizeof(other), "%s/other/crypto_kem/toykem/ref",
		 tmp_root);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s && cp %s/*.c %s/*.h %s/", other,
		 kem, kem, other);
	assert_int_equal(system(cmd), 0);
	pq_config(cfg, "outside.json", other, "");
	snprintf(path, sizeof(path), "%s/a-toys.json", in);
	snprintf(
		text, sizeof(text),
		"{\"kind\": \"pq\", \"config\": \"%s/toys.json\", \"runs\": 2}",
		cfg);
	write_file(path, text);
	snprintf(path, sizeof(path), "%s/b-prog.json", in);
	snprintf(text, sizeof(text),
		 "{\"kind\": \"pq\", \"config\": \"%s/prog.json\"}", cfg);
	write_file(path, text);
	snprintf(path, sizeof(path), "%s/c-outside.json", in);
	snprintf(text, sizeof(text),
		 "{\"kind\": \"pq\", \"config\": \"%s/outside.json\"}", cfg);
	write_file(path, text);

	/* The daemon's results go under its working directory. */
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(tmp_root), 0);
	assert_int_equal(setenv("HILRUN_LOCK_DIR", locks, 1), 0);
	snprintf(log, sizeof(log), "%s/serve.log", tmp_root);
	assert_int_equal(hil_proc_run(argv, log, 600000, &st), HIL_OK);
	assert_int_equal(chdir(cwd), 0);
	assert_int_equal(st, 1); /* two jobs failed */

	r = result_of("done", "a-toys");
	assert_int_equal((int)e2e_need_num(r, "exit_status"), 0);
	assert_string_equal(e2e_need_str(r, "board"), "qemu-netduino");
	run_dir = e2e_need_str(r, "run_dir");
	assert_non_null(strstr(run_dir, "/results/pq-"));
	snprintf(path, sizeof(path), "%s/report.json", run_dir);
	rep = e2e_load_json(path);
	cJSON_ArrayForEach(row, e2e_need(rep, "rows"))
	{
		assert_string_equal(e2e_need_str(row, "status"), "ok");
		assert_int_equal((int)e2e_need_num(row, "runs"), 2);
		rows++;
	}
	assert_int_equal(rows, 6);
	assert_string_equal(e2e_need_str(e2e_need(rep, "board"), "name"),
			    "qemu-netduino");
	cJSON_Delete(rep);
	cJSON_Delete(r);

	r = result_of("failed", "b-prog");
	e2e_assert_contains(e2e_need_str(r, "error"),
			    "flasher.program: a job may not name a program");
	cJSON_Delete(r);
	r = result_of("failed", "c-outside");
	e2e_assert_contains(e2e_need_str(r, "error"),
			    "is outside the lab's roots");
	e2e_assert_contains(e2e_need_str(r, "error"), other);
	cJSON_Delete(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_serve_runs_pq_jobs),
	};
	int failed;

	if (e2e_main_begin(src_root, sizeof(src_root), tmp_root,
			   sizeof(tmp_root), "/tmp/e2e-pqserve-XXXXXX") != 0) {
		return 1;
	}
	failed = cmocka_run_group_tests_name("e2e_pqserve", tests, NULL, NULL);
	return e2e_main_end(tmp_root, failed);
}
