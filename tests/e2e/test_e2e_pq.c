/* test_e2e_pq: mupq-layout KEM and signature folders (hilrun's toy fixtures) run unchanged on the emulated mps2-an386 by hilrun pq (scripts/pq-bench.sh underneath): per-operation rows of the result model, verification against the host build, stack, size, hash shares, known answers, the pqm4-shaped export, signatures from the host build (pq-bench.sh -S), a scheme that does not fit, and one whose .bss starts past the end of its .data. */
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

#include "e2e_util.h"
#include "util/err.h"
#include "util/proc.h"
#include "util/util.h"

#define FIX "tests/fixtures/pq"

static char tmp_root[64];
static char src_root[HIL_PATH];
static char out_dir[HIL_PATH + 16];
static int ran; /* the run of the group's setup exited 0 */

/* A file's text (malloc'd), or NULL when it cannot be read. */
static char *slurp(const char *path)
{
	char *text = NULL;

	return hil_read_file(path, &text, NULL) == HIL_OK ? text : NULL;
}

/* One hilrun pq run over the six fixtures (all.json), two runs per
 * operation, seed 1. */
static int setup_run(void **state)
{
	int status = -1;

	(void)state;
	if (e2e_pq_run(src_root, tmp_root, "all.json", "pq-bench.log", out_dir,
		       sizeof(out_dir), &status) != 0) {
		return -1;
	}
	/* 1: the wrong fixture fails its verification and the huge one is
	 * left out; every other row is there. */
	ran = status == 1;
	return 0;
}

/* rows.tsv's line for scheme/impl/op, or NULL. */
static char *row_of(const char *rows, const char *scheme, const char *impl,
		    const char *op, char *line, size_t len)
{
	char key[128];
	const char *p;

	snprintf(key, sizeof(key), "%s\t%s\t", scheme, impl);
	for (p = rows; p != NULL && *p != '\0';) {
		const char *end = strchr(p, '\n');
		size_t n = end != NULL ? (size_t)(end - p) : strlen(p);
		char opkey[64];

		snprintf(opkey, sizeof(opkey), "\t%s\t", op);
		if (n < len && strncmp(p, key, strlen(key)) == 0) {
			memcpy(line, p, n);
			line[n] = '\0';
			if (strstr(line, opkey) != NULL) {
				return line;
			}
		}
		p = end != NULL ? end + 1 : NULL;
	}
	return NULL;
}

/* Field i (1-based) of a tab-separated line, as a number. */
static double field(const char *line, int i)
{
	const char *p = line;

	while (--i > 0 && p != NULL) {
		p = strchr(p, '\t');
		p = p != NULL ? p + 1 : NULL;
	}
	return p != NULL ? atof(p) : -1;
}

static void test_rows_per_operation_verified(void **state)
{
	static const char *const kem_ops[] = {"keypair", "encaps", "decaps"};
	static const char *const sig_ops[] = {"keypair", "sign", "verify"};
	char path[HIL_PATH + 64], line[1024];
	char *rows;
	size_t i;

	(void)state;
	assert_true(ran);
	snprintf(path, sizeof(path), "%s/rows.tsv", out_dir);
	rows = slurp(path);
	assert_non_null(rows);
	for (i = 0; i < 3; i++) {
		const char *r = row_of(rows, "toykem", "ref", kem_ops[i], line,
				       sizeof(line));

		assert_non_null(r);
		assert_non_null(strstr(r, "ok vs host build of toykem/ref"));
		assert_int_equal((int)field(r, 5), 2); /* runs */
		assert_true(field(r, 9) > 1000);       /* median cycles */
		assert_true(field(r, 10) > 64);	       /* stack */
		assert_true(field(r, 10) < 4096);
		assert_true(field(r, 11) > 50); /* SHAKE, mostly */
		assert_true(field(r, 11) <= 100);
		assert_true(field(r, 12) > 64); /* .text */
		r = row_of(rows, "toysig", "ref", sig_ops[i], line,
			   sizeof(line));
		assert_non_null(r);
		assert_non_null(strstr(r, "ok vs host build of toysig/ref"));
	}
	/* 320 KiB of stack in key generation: more than the default 256 KiB,
	 * so the image is built again with 2 MiB, and the row says so. */
	{
		const char *r = row_of(rows, "toykem-deepstack", "ref",
				       "keypair", line, sizeof(line));

		assert_non_null(r);
		assert_non_null(strstr(r, "ok vs host build of "
					  "toykem-deepstack/ref (stack raised "
					  "to 2097152 bytes)"));
		assert_true(field(r, 10) > 320 * 1024);
	}
	/* The fixture whose target build flips a ciphertext bit: keypair
	 * agrees with the host, encaps and decaps do not. */
	assert_non_null(strstr(row_of(rows, "toykem", "wrongtarget", "keypair",
				      line, sizeof(line)),
			       "ok vs host"));
	assert_non_null(strstr(row_of(rows, "toykem", "wrongtarget", "encaps",
				      line, sizeof(line)),
			       "FAILED vs host"));
	assert_non_null(strstr(row_of(rows, "toykem", "wrongtarget", "decaps",
				      line, sizeof(line)),
			       "FAILED vs host"));
	free(rows);
}

static void test_too_big_is_listed_with_reason(void **state)
{
	char path[HIL_PATH + 64];
	char *skipped;

	(void)state;
	assert_true(ran);
	snprintf(path, sizeof(path), "%s/skipped.tsv", out_dir);
	skipped = slurp(path);
	assert_non_null(skipped);
	e2e_assert_contains(skipped, "toykem-huge\tref\tdoes not build or fit "
				     "qemu-mps2-an386");
	e2e_assert_contains(skipped, "will not fit in region `RAM'");
	/* The one whose key generation needs more stack than any image has:
	 * it runs, faults, is run again with 2 MiB, faults again, and the
	 * reason says the stack was used up. */
	e2e_assert_contains(skipped, "toykem-nostack\tref\tstopped on "
				     "qemu-mps2-an386: the target faulted");
	e2e_assert_contains(skipped, "it used its whole stack (2097152 bytes)");
	assert_null(strstr(skipped, "toykem-deepstack"));
	free(skipped);
}

/* The target's outputs (operation, run, digest, return value) are the
 * known answers generated from the host build and kept in the tree. */
static void test_known_answers(void **state)
{
	static const char *const which[][2] = {{"toykem_ref", "toykem.kat"},
					       {"toysig_ref", "toysig.kat"}};
	size_t k;

	(void)state;
	assert_true(ran);
	for (k = 0; k < 2; k++) {
		char path[HIL_PATH + 64], got[4096];
		char *target, *kat, *p;
		size_t o = 0;

		/* (each run builds in its own output's build folder) */
		snprintf(path, sizeof(path), "%s/build/%s/target.txt", out_dir,
			 which[k][0]);
		target = slurp(path);
		snprintf(path, sizeof(path), "%s/" FIX "/%s", src_root,
			 which[k][1]);
		kat = slurp(path);
		assert_non_null(target);
		assert_non_null(kat);
		/* "R op run ticks stack digest ret" -> "op run digest ret" */
		for (p = strtok(target, "\n"); p != NULL;
		     p = strtok(NULL, "\n")) {
			char op[16], dg[16];
			unsigned run, ret;
			unsigned long ticks, stack;

			if (sscanf(p, "R %15s %u %lu %lu %15s %u", op, &run,
				   &ticks, &stack, dg, &ret) == 6) {
				o += (size_t)snprintf(got + o, sizeof(got) - o,
						      "%s %u %s %u\n", op, run,
						      dg, ret);
				assert_true(ticks > 0);
			}
		}
		assert_string_equal(got, kat);
		free(target);
		free(kat);
	}
}

static void test_pqm4_shaped_export(void **state)
{
	char path[HIL_PATH + 64];
	char *md, *csv, *json;

	(void)state;
	assert_true(ran);
	snprintf(path, sizeof(path), "%s/benchmarks.md", out_dir);
	md = slurp(path);
	snprintf(path, sizeof(path), "%s/benchmarks.csv", out_dir);
	csv = slurp(path);
	snprintf(path, sizeof(path), "%s/report.json", out_dir);
	json = slurp(path);
	assert_non_null(md);
	assert_non_null(csv);
	assert_non_null(json);
	e2e_assert_contains(md, "# Speed Evaluation\n## Key Encapsulation "
				"Schemes\n| scheme | implementation | key "
				"generation [cycles] |");
	e2e_assert_contains(md, "| toykem (2 executions) | ref | AVG: ");
	e2e_assert_contains(md, "| toysig (2 executions) | ref | AVG: ");
	e2e_assert_contains(md, "# Memory Evaluation");
	e2e_assert_contains(md, "# Hashing Evaluation");
	e2e_assert_contains(md, "# Size Evaluation");
	e2e_assert_contains(md, "not measured on hardware");
	e2e_assert_contains(csv, "Scheme,Implementation,Key Generation "
				 "[cycles] (mean),");
	e2e_assert_contains(csv, "toykem (2 executions),ref,");
	/* report.json is hilrun's own: its tool, board and cycle model,
	 * and the rows' pq objects. */
	e2e_assert_contains(json, "\"name\":\t\"hilrun\"");
	e2e_assert_contains(json, "\"name\":\t\"qemu-mps2-an386\"");
	e2e_assert_contains(json, "\"profile\":\t\"stm32f401-0ws\"");
	e2e_assert_contains(json, "\"randombytes\":\t\"splitmix64\"");
	e2e_assert_contains(json, "\"seed\":\t1,");
	e2e_assert_contains(json, "\"operation\":\t\"encaps\"");
	/* The wrong fixture's encapsulation is a failed row with its
	 * reason; the folders not run are listed with theirs. */
	e2e_assert_contains(json, "\"error\":\t\"FAILED vs host build of "
				  "toykem/wrongtarget");
	e2e_assert_contains(json, "\"not_for_board\":");
	e2e_assert_contains(json, "\"algorithm\":\t\"toykem-huge\"");
	free(md);
	free(csv);
	free(json);
}

/* pq-bench -S: the signature comes from the host build, the image times
 * keypair and verify only. Both runs' key pairs and openings are the known
 * answers of the full run (the randombytes stream resumes where the host's
 * signing left it), and no sign row or call is made up. A board run over
 * its link (frames) does not take the host's signatures: -S with -b
 * qemu-netduino is refused, saying so. */
static void test_signatures_from_host(void **state)
{
	char script[HIL_PATH + 32], sig[HIL_PATH + 64], out[HIL_PATH + 32],
		bdir[HIL_PATH + 32], log[HIL_PATH + 32], path[HIL_PATH + 64],
		line[1024];
	char *rows, *calls, *target, *kat, *text, *p;
	int status = -1, checked = 0;

	(void)state;
	snprintf(script, sizeof(script), "%s/scripts/pq-bench.sh", src_root);
	snprintf(sig, sizeof(sig), "%s/" FIX "/crypto_sign/toysig/ref",
		 src_root);
	snprintf(out, sizeof(out), "%s/pqS", tmp_root);
	snprintf(bdir, sizeof(bdir), "%s/pqS-build", tmp_root);
	snprintf(log, sizeof(log), "%s/pqS.log", tmp_root);
	{
		char *argv[] = {script, "-S", "-n", "2", "-s", "1",
				"-B",	bdir, "-o", out, sig,  NULL};

		assert_int_equal(hil_proc_run(argv, log, 600000, &status),
				 HIL_OK);
		assert_int_equal(status, 0);
	}
	snprintf(path, sizeof(path), "%s/rows.tsv", out);
	rows = slurp(path);
	assert_non_null(rows);
	assert_non_null(strstr(
		row_of(rows, "toysig", "ref", "keypair", line, sizeof(line)),
		"ok vs host build of toysig/ref (signatures "
		"from the host build: sign not run, -S)"));
	assert_non_null(strstr(
		row_of(rows, "toysig", "ref", "verify", line, sizeof(line)),
		"ok vs host build of toysig/ref (signatures "
		"from the host build"));
	assert_int_equal((int)field(line, 5), 2);
	assert_null(row_of(rows, "toysig", "ref", "sign", line, sizeof(line)));
	snprintf(path, sizeof(path), "%s/calls.tsv", out);
	calls = slurp(path);
	assert_non_null(calls);
	assert_non_null(strstr(calls, "\tverify\t"));
	assert_null(strstr(calls, "\tsign\t"));
	snprintf(path, sizeof(path), "%s/toysig_ref/target.txt", bdir);
	target = slurp(path);
	snprintf(path, sizeof(path), "%s/" FIX "/toysig.kat", src_root);
	kat = slurp(path);
	assert_non_null(target);
	assert_non_null(kat);
	for (p = strtok(target, "\n"); p != NULL; p = strtok(NULL, "\n")) {
		char op[16], dg[16], want[64];
		unsigned run, ret;
		unsigned long ticks, stack;

		if (sscanf(p, "R %15s %u %lu %lu %15s %u", op, &run, &ticks,
			   &stack, dg, &ret) == 6) {
			assert_string_not_equal(op, "sign");
			snprintf(want, sizeof(want), "%s %u %s %u\n", op, run,
				 dg, ret);
			e2e_assert_contains(kat, want);
			checked++;
		}
	}
	assert_int_equal(checked, 4); /* keypair and verify, 2 runs each */
	{
		char *argv[] = {script, "-S", "-b", "qemu-netduino",
				"-B",	bdir, "-o", out,
				sig,	NULL};

		assert_int_equal(hil_proc_run(argv, log, 60000, &status),
				 HIL_OK);
		assert_int_equal(status, 2);
	}
	text = slurp(log);
	assert_non_null(text);
	e2e_assert_contains(text, "pq-bench: -S (signatures from the host "
				  "build) is for the cycle model's board");
	free(text);
	free(rows);
	free(calls);
	free(target);
	free(kat);
}

/* hilrun pq --config: today's entry forms ({"tree","pattern"} and
 * {"name","impl","path"}) reach the same run; a pattern that matches no
 * folder is refused before anything is built, naming the entry. */
static void test_hilrun_pq_config(void **state)
{
	char cfg[HIL_PATH + 64], bad[HIL_PATH + 64], out[HIL_PATH + 32],
		log[HIL_PATH + 32], path[HIL_PATH + 64];
	char *text;
	int status = -1;

	(void)state;
	snprintf(cfg, sizeof(cfg), "%s/" FIX "/toys.json", src_root);
	snprintf(bad, sizeof(bad), "%s/" FIX "/nomatch.json", src_root);
	snprintf(out, sizeof(out), "%s/cli", tmp_root);
	snprintf(log, sizeof(log), "%s/cli.log", tmp_root);
	{
		char *argv[] = {(char *)e2e_hilrun_bin(), "pq", "--config", bad,
				NULL};

		assert_int_equal(hil_proc_run(argv, log, 60000, &status),
				 HIL_OK);
		assert_int_equal(status, 2);
		text = slurp(log);
		assert_non_null(text);
		e2e_assert_contains(text, "nomatch.json: algorithms[0]: no "
					  "SCHEME/IMPL folder");
		free(text);
	}
	{
		char *argv[] = {(char *)e2e_hilrun_bin(),
				"pq",
				"--config",
				cfg,
				"--runs",
				"1",
				"--output",
				out,
				NULL};

		assert_int_equal(hil_proc_run(argv, log, 600000, &status),
				 HIL_OK);
		assert_int_equal(status, 0);
	}
	snprintf(path, sizeof(path), "%s/report.json", out);
	text = slurp(path);
	assert_non_null(text);
	e2e_assert_contains(
		text,
		"\"algorithm\":\t\"toykem\",\n\t\t\t\"implementation\":\t\"ref\"");
	e2e_assert_contains(
		text,
		"\"algorithm\":\t\"toysig\",\n\t\t\t\"implementation\":\t\"ref\"");
	assert_null(strstr(text, "wrongtarget")); /* "toykem/r*" only */
	free(text);

	/* The run's folder is any run's to hilrun report, compare and
	 * history import. */
	snprintf(path, sizeof(path), "%s/benchmarks.md", out);
	assert_int_equal(unlink(path), 0);
	{
		char *argv[] = {(char *)e2e_hilrun_bin(), "report", out, NULL};

		assert_int_equal(hil_proc_run(argv, log, 60000, &status),
				 HIL_OK);
		assert_int_equal(status, 0);
	}
	text = slurp(path);
	assert_non_null(text);
	e2e_assert_contains(text, "| toysig (1 executions) | ref | AVG: ");
	free(text);
	{
		char *argv[] = {(char *)e2e_hilrun_bin(), "compare", out, out,
				NULL};

		assert_int_equal(hil_proc_run(argv, log, 60000, &status),
				 HIL_OK);
		assert_int_equal(status, 0);
	}
	text = slurp(log);
	assert_non_null(text);
	e2e_assert_contains(text, "toykem    ref  encaps");
	e2e_assert_contains(text, "12 compared: 12 same, 0 better, 0 worse");
	free(text);
	{
		char db[HIL_PATH + 32];
		char *argv[] = {(char *)e2e_hilrun_bin(),
				"history",
				"import",
				"--db",
				db,
				out,
				NULL};

		snprintf(db, sizeof(db), "%s/history.sqlite", tmp_root);
		assert_int_equal(hil_proc_run(argv, log, 60000, &status),
				 HIL_OK);
		assert_int_equal(status, 0);
	}
	text = slurp(log);
	assert_non_null(text);
	e2e_assert_contains(text, "6 rows): recorded");
	free(text);
}

/* The R lines' "operation run digest return-value" of a stub's output,
 * one a line (the timing fields left out). */
static void answers_of(const char *text, char *out, size_t len)
{
	const char *p = text;
	size_t o = 0;

	out[0] = '\0';
	while (p != NULL && *p != '\0') {
		char op[16], dg[16];
		unsigned run, ins, stk;
		int ret;

		if (strncmp(p, "R ", 2) == 0 &&
		    sscanf(p, "R %15s %u %u %u %15s %d", op, &run, &ins, &stk,
			   dg, &ret) == 6 &&
		    o + 64 < len) {
			o += (size_t)snprintf(out + o, len - o, "%s %u %s %d\n",
					      op, run, dg, ret);
		}
		p = strchr(p, '\n');
		p = p != NULL ? p + 1 : NULL;
	}
}

/* An address of the image's symbol table (stub.nm), or 0. */
static unsigned long symbol_at(const char *nm, const char *name)
{
	char key[64];
	const char *p;

	snprintf(key, sizeof(key), " %s\n", name);
	for (p = strstr(nm, key); p != NULL && p > nm && p[-1] != '\n';) {
		p--;
	}
	return p != NULL ? strtoul(p, NULL, 16) : 0;
}

/*
 * mupq's mayo1/ref did not link on the mps2 (".bss must start where
 * .data ends"): its .bss holds a uint64_t, so the linker starts .bss on
 * 8 bytes, past a .data ending at 4 mod 8, and the linker script asserted
 * that the two touch (startup.c cleared both with one pointer). alignkem
 * has the same layout (a 256-byte aligned buffer in .bss after a 12-byte
 * .data): it links, verifies, and its .bss is cleared from its own start:
 * with the buffer's last word set to a pattern before the core starts
 * (QEMU's loader device; QEMU's RAM is otherwise zero, which would hide a
 * .bss left uncleared), the outputs are still the host build's.
 */
static void test_bss_past_the_end_of_data(void **state)
{
	char dir[HIL_PATH + 64], out[HIL_PATH + 32], build[HIL_PATH + 48];
	char script[HIL_PATH + 32], log[HIL_PATH + 32], path[HIL_PATH + 96];
	char poke[96], want[2048], got[2048];
	char *nm, *ref, *text;
	unsigned long edata, sbss, buf;
	int status = -1;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/" FIX "/layout/crypto_kem/alignkem/ref",
		 src_root);
	snprintf(script, sizeof(script), "%s/scripts/pq-bench.sh", src_root);
	snprintf(out, sizeof(out), "%s/align", tmp_root);
	snprintf(build, sizeof(build), "%s/align/build", tmp_root);
	snprintf(log, sizeof(log), "%s/align.log", tmp_root);
	{
		char *argv[] = {script, "-n",  "2", "-o", out,
				"-B",	build, dir, NULL};

		assert_int_equal(hil_proc_run(argv, log, 600000, &status),
				 HIL_OK);
	}
	assert_int_equal(status, 0);
	snprintf(path, sizeof(path), "%s/rows.tsv", out);
	text = slurp(path);
	assert_non_null(text);
	e2e_assert_contains(text, "alignkem\tref\tKEM\tkeypair\t2\t");
	e2e_assert_contains(text, "ok vs host build of alignkem/ref");
	assert_null(strstr(text, "FAILED"));
	free(text);
	/* The fixture has the layout: .bss starts past the end of .data. */
	snprintf(path, sizeof(path), "%s/alignkem_ref/fw/stub.nm", build);
	nm = slurp(path);
	assert_non_null(nm);
	edata = symbol_at(nm, "_edata");
	sbss = symbol_at(nm, "_sbss");
	buf = symbol_at(nm, "alignkem_scratch");
	free(nm);
	assert_true(edata != 0 && sbss != 0 && buf != 0);
	assert_true(sbss > edata);
	/* Its last word set before the core starts: cleared, or the key
	 * pairs differ from the host build's. */
	snprintf(path, sizeof(path), "%s/alignkem_ref.ref.txt", build);
	ref = slurp(path);
	assert_non_null(ref);
	answers_of(ref, want, sizeof(want));
	free(ref);
	assert_non_null(strstr(want, "keypair 1 "));
	snprintf(poke, sizeof(poke),
		 "loader,addr=0x%lx,data=0xa5a5a5a5,data-len=4", buf + 252);
	snprintf(path, sizeof(path), "%s/alignkem_ref/fw/stub.elf", build);
	{
		char *argv[] = {"qemu-system-arm",
				"-M",
				"mps2-an386",
				"-display",
				"none",
				"-monitor",
				"none",
				"-serial",
				"null",
				"-semihosting-config",
				"enable=on,target=native",
				"-icount",
				"shift=10,align=off,sleep=off",
				"-kernel",
				path,
				"-device",
				poke,
				NULL};
		char poked[HIL_PATH + 32];

		snprintf(poked, sizeof(poked), "%s/poked.txt", tmp_root);
		assert_int_equal(hil_proc_run(argv, poked, 120000, &status),
				 HIL_OK);
		text = slurp(poked);
	}
	assert_non_null(text);
	answers_of(text, got, sizeof(got));
	free(text);
	assert_string_equal(got, want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_per_operation_verified),
		cmocka_unit_test(test_too_big_is_listed_with_reason),
		cmocka_unit_test(test_known_answers),
		cmocka_unit_test(test_pqm4_shaped_export),
		cmocka_unit_test(test_signatures_from_host),
		cmocka_unit_test(test_hilrun_pq_config),
		cmocka_unit_test(test_bss_past_the_end_of_data),
	};
	int failed;

	if (e2e_main_begin(src_root, sizeof(src_root), tmp_root,
			   sizeof(tmp_root), "/tmp/e2e-pq-XXXXXX") != 0) {
		return 1;
	}
	failed = cmocka_run_group_tests_name("e2e_pq", tests, setup_run, NULL);
	return e2e_main_end(tmp_root, failed);
}
