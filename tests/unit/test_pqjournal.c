/* Unit tests of a pq run's journal (run/pqjournal.c): what --resume keeps of the files of a cut run (the whole lines of folders done.tsv marks, their images unchanged), what it drops, the marks, and pq-run.json there and back. */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "run/pqjournal.h"
#include "util/err.h"
#include "util/util.h"

#define ID_KEM "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
#define ID_SIG "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
#define ID_OLD "cccccccccccccccccccccccccccccccccccccccc"

static char dir[64];

static void put(const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static char *get(const char *name)
{
	char path[256];
	char *text = NULL;
	size_t len;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_int_equal(hil_read_file(path, &text, &len), HIL_OK);
	return text;
}

/* build/SYM/fw/stub.elf: a host ELF with the build-id id. */
static void image(const char *sym, const char *id)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd),
		 "mkdir -p %s/build/%s/fw && printf 'int main(void){return "
		 "0;}' > %s/m.c && cc -o %s/build/%s/fw/stub.elf %s/m.c "
		 "-Wl,--build-id=0x%s",
		 dir, sym, dir, dir, sym, dir, id);
	assert_int_equal(system(cmd), 0);
}

/* run.tsv naming the build folder of the images. */
static void run_tsv(void)
{
	char text[512];

	snprintf(text, sizeof(text),
		 "board\tqemu-mps2-an386\nbuild\t%s/build\n", dir);
	put("run.tsv", text);
}

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/test-pqjournal-XXXXXX");
	assert_non_null(mkdtemp(dir));
	image("toykem_ref", ID_KEM);
	image("toysig_ref", ID_SIG);
	run_tsv();
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* toykem finished (its image unchanged): kept. toysig's mark names an
 * image built again since: run again. toyx never finished; its line in
 * done.tsv and the last line of rows.tsv were cut by a kill. */
static void test_keep_takes_whole_lines_of_finished_folders(void **state)
{
	char *t;
	size_t kept = 99;

	(void)state;
	put("done.tsv",
	    "toykem\tref\t" ID_KEM "\ntoysig\tref\t" ID_OLD "\ntoyx\tre");
	put("rows.tsv", "toykem\tref\tKEM\tkeypair\t2\n"
			"toysig\tref\tSIGN\tkeypair\t2\n"
			"toykem\tref\tKEM\tencaps\t2\n"
			"toyx\tref\tKEM\tkeypair\t2\n"
			"toykem\tref\tKEM\tdec");
	put("calls.tsv", "toysig\tref\tSIGN\tsign\t0\ntoykem\tref\tKEM\t"
			 "keypair\t0\n");
	put("skipped.tsv", "toyx\tref\tstopped on qemu-netduino: a fault\n");
	put("images.tsv", "toykem\tref\tKEM\t/x.elf\n");
	assert_int_equal(hil_pq_journal_keep(dir, &kept), HIL_OK);
	assert_int_equal(kept, 1);
	t = get("done.tsv");
	assert_string_equal(t, "toykem\tref\t" ID_KEM "\n");
	free(t);
	t = get("rows.tsv");
	assert_string_equal(t, "toykem\tref\tKEM\tkeypair\t2\n"
			       "toykem\tref\tKEM\tencaps\t2\n");
	free(t);
	t = get("calls.tsv");
	assert_string_equal(t, "toykem\tref\tKEM\tkeypair\t0\n");
	free(t);
	t = get("skipped.tsv");
	assert_string_equal(t, "");
	free(t);
	t = get("images.tsv");
	assert_string_equal(t, "toykem\tref\tKEM\t/x.elf\n");
	free(t);
	assert_true(hil_pq_journal_is_done(dir, "toykem", "ref"));
	assert_false(hil_pq_journal_is_done(dir, "toysig", "ref"));
	/* A name that is the start of another's is not it. */
	assert_false(hil_pq_journal_is_done(dir, "toyke", "ref"));
	assert_false(hil_pq_journal_is_done(dir, "toykem", "re"));
}

/* Marked, a folder is done; a run.tsv without its build folder keeps
 * nothing (no image to check). */
static void test_mark_then_keep(void **state)
{
	size_t kept = 0;
	char *t;

	(void)state;
	put("done.tsv", "");
	assert_int_equal(hil_pq_journal_mark(dir, "toysig", "ref", ID_SIG),
			 HIL_OK);
	assert_true(hil_pq_journal_is_done(dir, "toysig", "ref"));
	t = get("done.tsv");
	assert_string_equal(t, "toysig\tref\t" ID_SIG "\n");
	free(t);
	assert_int_equal(hil_pq_journal_keep(dir, &kept), HIL_OK);
	assert_int_equal(kept, 1);
	put("run.tsv", "board\tqemu-mps2-an386\n");
	assert_int_equal(hil_pq_journal_keep(dir, &kept), HIL_OK);
	assert_int_equal(kept, 0);
	assert_false(hil_pq_journal_is_done(dir, "toysig", "ref"));
	run_tsv();
}

static void test_run_file_there_and_back(void **state)
{
	struct hil_pq_resume r, back;

	(void)state;
	memset(&r, 0, sizeof(r));
	snprintf(r.config, sizeof(r.config), "/srv/lab/pq/kem.json");
	snprintf(r.config_given, sizeof(r.config_given), "pq/kem.json");
	snprintf(r.started, sizeof(r.started), "2026-12-06T10:00:00Z");
	snprintf(r.board, sizeof(r.board), "nucleo-1");
	r.runs = 1000;
	r.seed = 4294967295UL;
	assert_int_equal(hil_pq_journal_write_run(dir, &r), HIL_OK);
	assert_int_equal(hil_pq_journal_read_run(dir, &back), HIL_OK);
	assert_string_equal(back.config, r.config);
	assert_string_equal(back.config_given, r.config_given);
	assert_string_equal(back.started, r.started);
	assert_string_equal(back.board, "nucleo-1");
	assert_int_equal(back.runs, 1000);
	assert_int_equal(back.seed, 4294967295UL);
	/* Not what hilrun pq writes: refused. */
	put(HIL_PQ_RUN_FILE, "{\"kind\": \"pq\", \"runs\": 0}");
	assert_int_equal(hil_pq_journal_read_run(dir, &back), HIL_ERR_CONFIG);
	put(HIL_PQ_RUN_FILE, "[1]");
	assert_int_equal(hil_pq_journal_read_run(dir, &back), HIL_ERR_CONFIG);
	/* No pq-run.json: not a pq run's folder. */
	assert_int_equal(hil_pq_journal_read_run("/nonexistent", &back),
			 HIL_ERR_ARG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			test_keep_takes_whole_lines_of_finished_folders),
		cmocka_unit_test(test_mark_then_keep),
		cmocka_unit_test(test_run_file_there_and_back),
	};

	return cmocka_run_group_tests_name("pqjournal", tests, setup, teardown);
}
