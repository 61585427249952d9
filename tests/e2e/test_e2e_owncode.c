/* test_e2e_owncode: users' own folders in the NIST LWC layout drop in unchanged under QEMU: framework headers, their own warnings, private internal symbols, any folder name. */
#define _XOPEN_SOURCE 700

#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli/runrender.h"
#include "image/build.h"
#include "config/config.h"
#include "e2e_util.h"
#include "util/err.h"
#include "result/run.h"
#include "run/runner.h"
#include "util/util.h"

/*
 * tests/fixtures/lwc-multi-a and -b: multi-file folders that include the
 * framework's crypto_aead.h (not in the folder) and define the same global
 * internal names (ascon_core_*); a has inline Thumb-2 assembly, b one
 * compiler warning (an unused variable).
 */
#define MULTI_A	 "tests/fixtures/lwc-multi-a"
#define MULTI_B	 "tests/fixtures/lwc-multi-b"
#define A128A	 "tests/fixtures/lwc-ascon128a"
#define A128A_W	 "tests/fixtures/lwc-ascon128a-wrong"
#define ASM_HASH "tests/fixtures/lwc-asm-hash"
#define AEAD	 "ascon-aead128"
#define RUN_NAME "e2e-owncode"

/* A folder name a shell or make would run: each payload would create a
 * file named hilrun-pwned-N in the folder make runs in (the source tree). */
#define HOSTILE_NAME                                                           \
	"my $(touch hilrun-pwned-1) ;touch hilrun-pwned-2 `touch "             \
	"hilrun-pwned-3` $$(touch hilrun-pwned-4) 'q\" = x"

static char tmp_root[64];
static char src_root[HIL_PATH];

/* ---------------------------------------------------------------- helpers */

/* s as the inside of a JSON string. */
static void json_escape(const char *s, char *out, size_t len)
{
	size_t o = 0;

	for (; *s != '\0' && o + 3 < len; s++) {
		if (*s == '"' || *s == '\\') {
			out[o++] = '\\';
		}
		out[o++] = *s;
	}
	out[o] = '\0';
}

/* The runs here: encrypt and decrypt of 0 and 64 B, three runs after one
 * warm-up. */
static void make_config(struct hil_config *cfg, const char *algs,
			const char *results)
{
	e2e_qemu_config(
		cfg, src_root, RUN_NAME, algs,
		"\"operations\": [\"encrypt\", \"decrypt\"],"
		" \"lengths\": [0, 64], \"ad_lengths\": [0], \"runs\": 3,"
		" \"warmup\": 1, \"seed\": 1",
		results);
}

/* e2e_run_config, then, as the run command does, the run's page. */
static int run_config(const struct hil_config *cfg, const char *results,
		      struct hil_run *run)
{
	int ret = e2e_run_config(cfg, results, run);

	(void)hil_cli_render_run(run);
	return ret;
}

/* Every row of impl measured, verified and ok; @return how many. */
static size_t assert_rows_ok(const struct hil_run *run, const char *impl)
{
	size_t i, n = 0;

	for (i = 0; i < run->n_rows; i++) {
		const struct hil_row *r = &run->rows[i];

		if (strcmp(r->implementation, impl) != 0) {
			continue;
		}
		if (!r->ok || !r->verified) {
			fail_msg("%s/%s %s %u B: ok %d verified %d: %s",
				 r->algorithm, r->implementation, r->operation,
				 (unsigned)r->msg_len, r->ok, r->verified,
				 r->error);
		}
		n++;
	}
	return n;
}

/* The image's symbols named name: how many, and how many of them global. */
static void count_symbol(const char *elf, const char *name, int *all,
			 int *global)
{
	char cmd[HIL_PATH + 64];
	char line[512];
	FILE *p;

	*all = *global = 0;
	snprintf(cmd, sizeof(cmd), "arm-none-eabi-nm '%s'", elf);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p) != NULL) {
		char type = 0;
		char sym[400] = "";

		if (sscanf(line, "%*s %c %399s", &type, sym) != 2) {
			continue;
		}
		if (strcmp(sym, name) == 0) {
			(*all)++;
			*global += type >= 'A' && type <= 'Z';
		}
	}
	assert_int_equal(pclose(p), 0);
}

/* Every global (exported) symbol of the image whose name starts with
 * prefix: must be none. */
static void assert_no_global_with(const char *elf, const char *prefix)
{
	char cmd[HIL_PATH + 64];
	char line[512];
	FILE *p;

	snprintf(cmd, sizeof(cmd), "arm-none-eabi-nm -g '%s'", elf);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (fgets(line, sizeof(line), p) != NULL) {
		if (strstr(line, prefix) != NULL) {
			fail_msg("exported from the image: %s", line);
		}
	}
	assert_int_equal(pclose(p), 0);
}

static const struct hil_foreign_build *foreign_of(const struct hil_run *run,
						  const char *impl)
{
	size_t i;

	for (i = 0; i < run->fw.n_foreign; i++) {
		if (strcmp(run->fw.foreign[i].impl, impl) == 0) {
			return &run->fw.foreign[i];
		}
	}
	fail_msg("no build record of %s", impl);
	return NULL;
}

/* Copy the named files of the fixture folder from (under the source tree)
 * into dst, created. */
static void copy_files(const char *from_dir, const char *const *files,
		       size_t n_files, const char *dst)
{
	size_t i;

	e2e_make_dir(dst);
	for (i = 0; i < n_files; i++) {
		char from[HIL_PATH], to[HIL_PATH * 2];
		char buf[8192];
		size_t n;
		FILE *in, *out;

		snprintf(from, sizeof(from), "%s/%s/%s", src_root, from_dir,
			 files[i]);
		snprintf(to, sizeof(to), "%s/%s", dst, files[i]);
		in = fopen(from, "r");
		out = fopen(to, "w");
		assert_non_null(in);
		assert_non_null(out);
		while ((n = fread(buf, 1, sizeof(buf), in)) > 0) {
			assert_int_equal(fwrite(buf, 1, n, out), n);
		}
		fclose(in);
		assert_int_equal(fclose(out), 0);
	}
}

/* A copy of lwc-multi-a or -b's files into dst. */
static void copy_fixture(const char *fixture, const char *dst)
{
	static const char *const files[] = {"api.h", "core.h", "core.c",
					    "encrypt.c"};

	copy_files(fixture, files, sizeof(files) / sizeof(files[0]), dst);
}

/* ------------------------------------------------------------------ tests */

/* Two folders of one code base (the same internal global names) and the
 * bundled reference share one image; every row is verified. */
static void
test_two_folders_with_the_same_internals_share_an_image(void **state)
{
	struct hil_config *cfg = calloc(1, sizeof(*cfg));
	struct hil_run *run = calloc(1, sizeof(*run));
	const struct hil_foreign_build *fa, *fb;
	char results[128];
	struct stat st;
	int all, global;

	(void)state;
	assert_non_null(cfg);
	assert_non_null(run);
	e2e_results_dir(tmp_root, "multi", results, sizeof(results));
	make_config(cfg,
		    "\"" AEAD "\","
		    " { \"name\": \"" AEAD "\", \"impl\": \"multia\","
		    " \"path\": \"" MULTI_A "\" },"
		    " { \"name\": \"" AEAD "\", \"impl\": \"multib\","
		    " \"path\": \"" MULTI_B "\" }",
		    results);
	assert_int_equal(run_config(cfg, results, run), HIL_OK);
	assert_string_equal(run->status, "complete");
	/* 2 operations x 2 lengths each */
	assert_int_equal(assert_rows_ok(run, "ref"), 4);
	assert_int_equal(assert_rows_ok(run, "multia"), 4);
	assert_int_equal(assert_rows_ok(run, "multib"), 4);

	/* The internals are in the image twice, private to each. */
	count_symbol(run->fw.elf, "ascon_core_encrypt", &all, &global);
	assert_int_equal(all, 2);
	assert_int_equal(global, 0);
	count_symbol(run->fw.elf, "ascon_core_rev", &all, &global);
	assert_int_equal(global, 0);
	count_symbol(run->fw.elf, "ascon_core_name", &all, &global);
	assert_int_equal(global, 0);
	assert_no_global_with(run->fw.elf, "ascon_core_");
	count_symbol(run->fw.elf, "ascon_aead128_multia_aead_encrypt", &all,
		     &global);
	assert_int_equal(global, 1);
	count_symbol(run->fw.elf, "ascon_aead128_multib_aead_decrypt", &all,
		     &global);
	assert_int_equal(global, 1);

	/* Their own warnings, not -Werror: counted and kept in the run folder. */
	fa = foreign_of(run, AEAD "/multia");
	fb = foreign_of(run, AEAD "/multib");
	assert_int_equal(fa->warnings, 0);
	assert_int_equal(fb->warnings, 1);
	assert_int_equal(stat(fb->log, &st), 0);
	assert_true(st.st_size > 0);
	assert_non_null(strstr(fb->log, run->dir));
	assert_int_equal(e2e_lines_with(fb->log, "unused variable 'rate'") > 0,
			 1);

	hil_run_free(run);
	free(run);
	hil_config_free(cfg);
	free(cfg);
}

/* A folder name full of shell and make syntax is only data: it builds,
 * verifies, and none of its payloads runs. */
static void test_a_hostile_folder_name_is_only_data(void **state)
{
	struct hil_config *cfg = calloc(1, sizeof(*cfg));
	struct hil_run *run = calloc(1, sizeof(*run));
	char dir[HIL_PATH], esc[HIL_PATH * 2], algs[HIL_PATH * 3];
	char results[128];
	int k;

	(void)state;
	assert_non_null(cfg);
	assert_non_null(run);
	e2e_results_dir(tmp_root, "hostile", results, sizeof(results));
	snprintf(dir, sizeof(dir), "%s/%s", tmp_root, HOSTILE_NAME);
	copy_fixture(MULTI_B, dir);
	json_escape(dir, esc, sizeof(esc));
	snprintf(algs, sizeof(algs),
		 "{ \"name\": \"" AEAD "\", \"impl\": \"hostile\","
		 " \"path\": \"%s\" }",
		 esc);
	make_config(cfg, algs, results);
	assert_int_equal(run_config(cfg, results, run), HIL_OK);
	assert_int_equal(assert_rows_ok(run, "hostile"), 4);
	for (k = 1; k <= 4; k++) {
		char marker[HIL_PATH + 32];

		snprintf(marker, sizeof(marker), "%s/hilrun-pwned-%d", src_root,
			 k);
		if (access(marker, F_OK) == 0) {
			unlink(marker);
			fail_msg("payload %d of the folder name ran", k);
		}
		snprintf(marker, sizeof(marker), "hilrun-pwned-%d", k);
		if (access(marker, F_OK) == 0) {
			unlink(marker);
			fail_msg("payload %d of the folder name ran (cwd)", k);
		}
	}
	hil_run_free(run);
	free(run);
	hil_config_free(cfg);
	free(cfg);
}

/* A misspelt algorithm fails before anything is made or built, naming
 * the JSON path and the name meant. */
static void test_a_misspelt_algorithm_fails_before_building(void **state)
{
	struct hil_config *cfg = calloc(1, sizeof(*cfg));
	struct hil_run *run = calloc(1, sizeof(*run));
	struct e2e_capture cap;
	char results[128];
	char out[4096];

	(void)state;
	assert_non_null(cfg);
	assert_non_null(run);
	e2e_results_dir(tmp_root, "misspelt", results, sizeof(results));
	make_config(cfg, "\"ascon-aed128\"", results);
	e2e_capture_begin(&cap, tmp_root);
	assert_int_equal(run_config(cfg, results, run), HIL_ERR_CONFIG);
	e2e_capture_end(&cap, out, sizeof(out));
	e2e_assert_contains(out, "algorithms[0].name");
	e2e_assert_contains(out, "did you mean \"ascon-aead128\"");
	assert_string_equal(run->dir, "");
	assert_int_equal(rmdir(results), 0); /* nothing was made in it */

	hil_config_free(cfg);
	memset(cfg, 0, sizeof(*cfg));
	e2e_results_dir(tmp_root, "misspelt-impl", results, sizeof(results));
	make_config(cfg, "{ \"name\": \"" AEAD "\", \"impl\": \"bi23\" }",
		    results);
	e2e_capture_begin(&cap, tmp_root);
	assert_int_equal(run_config(cfg, results, run), HIL_ERR_CONFIG);
	e2e_capture_end(&cap, out, sizeof(out));
	e2e_assert_contains(out, "algorithms[0].impl");
	e2e_assert_contains(out, "did you mean \"bi32\"");
	e2e_assert_contains(out, "\"path\"");
	hil_run_free(run);
	free(run);
	hil_config_free(cfg);
	free(cfg);
}

/* A header the folder does not have: the build fails with a hint that
 * names the headers hilrun supplies. */
static void test_a_missing_header_gets_a_hint(void **state)
{
	struct hil_config *cfg = calloc(1, sizeof(*cfg));
	struct hil_run *run = calloc(1, sizeof(*run));
	struct e2e_capture cap;
	char dir[HIL_PATH], algs[HIL_PATH * 2], path[HIL_PATH + 16];
	char results[128];
	char out[8192];
	FILE *f;
	int ret;

	(void)state;
	assert_non_null(cfg);
	assert_non_null(run);
	e2e_results_dir(tmp_root, "missing", results, sizeof(results));
	snprintf(dir, sizeof(dir), "%s/missing-header", tmp_root);
	copy_fixture(MULTI_B, dir);
	snprintf(path, sizeof(path), "%s/extra.c", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("#include \"permutations.h\"\n", f);
	assert_int_equal(fclose(f), 0);
	snprintf(algs, sizeof(algs),
		 "{ \"name\": \"" AEAD "\", \"impl\": \"missing\","
		 " \"path\": \"%s\" }",
		 dir);
	make_config(cfg, algs, results);
	e2e_capture_begin(&cap, tmp_root);
	ret = run_config(cfg, results, run);
	e2e_capture_end(&cap, out, sizeof(out));
	/* Left out of the image with its reason: a failed row. */
	assert_int_equal(ret, HIL_ERR_VERIFY);
	e2e_assert_contains(out, "permutations.h");
	e2e_assert_contains(out, "hilrun supplies crypto_aead.h");
	assert_int_equal(run->n_rows, 1);
	assert_non_null(strstr(run->rows[0].error, "does not build"));
	assert_non_null(strstr(run->rows[0].error, "permutations.h"));
	hil_run_free(run);
	free(run);
	hil_config_free(cfg);
	free(cfg);
}

static const struct hil_row *row_of(const struct hil_run *run, const char *impl)
{
	size_t i;

	for (i = 0; i < run->n_rows; i++) {
		if (strcmp(run->rows[i].implementation, impl) == 0) {
			return &run->rows[i];
		}
	}
	fail_msg("no row of %s", impl);
	return NULL;
}

static size_t rows_of(const struct hil_run *run, const char *impl)
{
	size_t i, n = 0;

	for (i = 0; i < run->n_rows; i++) {
		n += strcmp(run->rows[i].implementation, impl) == 0;
	}
	return n;
}

/* An algorithm hilrun does not bundle (Ascon-128a v1.2) is checked against
 * the host build of its own sources and the KAT file found beside it, and
 * measured; the same code with one output bit flipped agrees with its own
 * host build but fails its KAT, and is not timed. */
static void test_an_unbundled_algorithm_is_verified_then_measured(void **state)
{
	struct hil_config *cfg = calloc(1, sizeof(*cfg));
	struct hil_run *run = calloc(1, sizeof(*run));
	const struct hil_row *w;
	char results[128];

	(void)state;
	assert_non_null(cfg);
	assert_non_null(run);
	e2e_results_dir(tmp_root, "unbundled", results, sizeof(results));
	make_config(cfg,
		    "{ \"name\": \"ascon128a\", \"impl\": \"mine\","
		    " \"path\": \"" A128A "\" },"
		    " { \"name\": \"ascon128a\", \"impl\": \"flipped\","
		    " \"path\": \"" A128A_W "\","
		    " \"kat\": \"" A128A "/LWC_AEAD_KAT_128_128.txt\" }",
		    results);
	/* a failed row: the run says so */
	assert_int_equal(run_config(cfg, results, run), HIL_ERR_VERIFY);
	assert_int_equal(assert_rows_ok(run, "mine"), 4);
	assert_string_equal(row_of(run, "mine")->verified_by,
			    "host build and KAT");
	assert_int_equal(row_of(run, "mine")->constant_time, -1);
	/* one failed row, nothing timed */
	assert_int_equal(rows_of(run, "flipped"), 1);
	w = row_of(run, "flipped");
	assert_false(w->ok);
	assert_null(w->samples);
	assert_non_null(strstr(w->error, "failed verification"));
	/* Which check failed, in the row: its flipped bit breaks the round
	 * trip before its KAT file is read. */
	assert_non_null(strstr(w->error,
			       "failed verification on the target: decryption "
			       "on the target does not give back the "
			       "plaintext"));
	hil_run_free(run);
	free(run);
	hil_config_free(cfg);
	free(cfg);
}

/* The toy hash of tests/fixtures/lwc-asm-hash, in C (its code is Thumb-2
 * assembly), to write a KAT file for it. */
static uint32_t toy_mix(uint32_t h, uint32_t b)
{
	h ^= b;
	h = (h >> 5) | (h << 27);
	return h * 0x01000193u;
}

static void toy_hash(uint8_t out[8], const uint8_t *in, size_t n)
{
	uint32_t a = 0x811c9dc5u, b = 0x1b873593u;
	size_t i;

	for (i = 0; i < n; i++) {
		a = toy_mix(a, in[i]);
		b = toy_mix(b, (uint32_t)in[i] + 1u);
	}
	a = toy_mix(a, (uint32_t)n);
	b = toy_mix(b, a);
	for (i = 0; i < 4; i++) {
		out[i] = (uint8_t)(a >> (8 * i));
		out[4 + i] = (uint8_t)(b >> (8 * i));
	}
}

/* Copy of the assembly-only fixture into dst, with a KAT file when kat. */
static void asm_hash_copy(const char *dst, int kat)
{
	static const char *const files[] = {"api.h", "hash.c"};
	char path[HIL_PATH * 2];
	size_t i, j;
	FILE *f;

	copy_files(ASM_HASH, files, 2, dst);
	if (!kat) {
		return;
	}
	snprintf(path, sizeof(path), "%s/LWC_HASH_KAT_64.txt", dst);
	f = fopen(path, "w");
	assert_non_null(f);
	for (i = 0; i <= 40; i++) {
		uint8_t msg[64], md[8];

		for (j = 0; j < i; j++) {
			msg[j] = (uint8_t)j;
		}
		toy_hash(md, msg, i);
		fprintf(f, "Count = %zu\nMsg = ", i + 1);
		for (j = 0; j < i; j++) {
			fprintf(f, "%02X", msg[j]);
		}
		fprintf(f, "\nMD = ");
		for (j = 0; j < 8; j++) {
			fprintf(f, "%02X", md[j]);
		}
		fprintf(f, "\n\n");
	}
	assert_int_equal(fclose(f), 0);
}

/* Code that builds for the target only (inline assembly): with no KAT file
 * it is refused, naming the option that allows it; with that option its
 * rows are measured and marked unverified; with a KAT file beside it, it
 * is checked by the KAT alone. */
static void test_assembly_only_code_needs_a_kat_or_the_option(void **state)
{
	struct hil_config *cfg = calloc(1, sizeof(*cfg));
	struct hil_run *run = calloc(1, sizeof(*run));
	char dir[HIL_PATH], algs[HIL_PATH * 2], results[128];
	const struct hil_row *r;

	(void)state;
	assert_non_null(cfg);
	assert_non_null(run);
	snprintf(dir, sizeof(dir), "%s/asm-no-kat", tmp_root);
	asm_hash_copy(dir, 0);
	e2e_results_dir(tmp_root, "asm-refused", results, sizeof(results));
	snprintf(
		algs, sizeof(algs),
		"{ \"name\": \"toyhash\", \"impl\": \"asm\", \"path\": \"%s\" }",
		dir);
	make_config(cfg, algs, results);
	assert_int_equal(run_config(cfg, results, run), HIL_ERR_VERIFY);
	assert_int_equal(rows_of(run, "asm"), 1);
	r = row_of(run, "asm");
	assert_false(r->ok);
	assert_non_null(strstr(r->error, "algorithms[0].unverified"));
	assert_non_null(strstr(r->error, "does not build for this host"));
	hil_run_free(run);

	memset(run, 0, sizeof(*run));
	hil_config_free(cfg);
	memset(cfg, 0, sizeof(*cfg));
	e2e_results_dir(tmp_root, "asm-unverified", results, sizeof(results));
	snprintf(algs, sizeof(algs),
		 "{ \"name\": \"toyhash\", \"impl\": \"asm\", \"path\": \"%s\","
		 " \"unverified\": true }",
		 dir);
	make_config(cfg, algs, results);
	cfg->bench.operations = HIL_OPS_HASH;
	assert_int_equal(run_config(cfg, results, run), HIL_OK);
	assert_int_equal(rows_of(run, "asm"), 2);
	r = row_of(run, "asm");
	assert_true(r->ok);
	assert_false(r->verified);
	assert_string_equal(r->verified_by, "none (unverified)");
	hil_run_free(run);

	memset(run, 0, sizeof(*run));
	hil_config_free(cfg);
	memset(cfg, 0, sizeof(*cfg));
	snprintf(dir, sizeof(dir), "%s/asm-kat", tmp_root);
	asm_hash_copy(dir, 1);
	e2e_results_dir(tmp_root, "asm-kat", results, sizeof(results));
	snprintf(
		algs, sizeof(algs),
		"{ \"name\": \"toyhash\", \"impl\": \"asm\", \"path\": \"%s\" }",
		dir);
	make_config(cfg, algs, results);
	cfg->bench.operations = HIL_OPS_HASH;
	assert_int_equal(run_config(cfg, results, run), HIL_OK);
	assert_int_equal(rows_of(run, "asm"), 2);
	r = row_of(run, "asm");
	assert_true(r->ok);
	assert_true(r->verified);
	assert_string_equal(r->verified_by, "KAT (no host build)");
	hil_run_free(run);
	free(run);
	hil_config_free(cfg);
	free(cfg);
}

/* A whole tree in the SUPERCOP / NIST LWC layout, seven implementations of
 * three algorithms (one bundled, two not): one does not build, one hangs
 * on the target; one report holds every other row, measured. */
static void test_a_whole_tree_is_measured_past_failures(void **state)
{
	struct hil_config *cfg = calloc(1, sizeof(*cfg));
	struct hil_run *run = calloc(1, sizeof(*run));
	const struct hil_row *r;
	char results[128], report[HIL_PATH + 16];

	(void)state;
	assert_non_null(cfg);
	assert_non_null(run);
	e2e_results_dir(tmp_root, "tree", results, sizeof(results));
	make_config(cfg,
		    "{ \"tree\": \"tests/fixtures/lwc-tree/crypto_aead\" },"
		    " { \"tree\": \"tests/fixtures/lwc-tree/crypto_hash\" }",
		    results);
	cfg->bench.operations = HIL_OPS_ENCRYPT | HIL_OPS_HASH;
	assert_int_equal(cfg->n_algs, 6);
	assert_string_equal(cfg->algs[0].name, "ascon-aead128");
	assert_string_equal(cfg->algs[0].impl, "multia");
	assert_string_equal(cfg->algs[5].name, "toyhash");
	assert_int_equal(cfg->algs[5].entry, 1);

	assert_int_equal(run_config(cfg, results, run), HIL_ERR_VERIFY);
	assert_int_equal(assert_rows_ok(run, "multia"), 2);
	assert_int_equal(assert_rows_ok(run, "multib"), 2);
	assert_int_equal(assert_rows_ok(run, "mine"), 2);
	assert_int_equal(assert_rows_ok(run, "asm"), 2);
	assert_string_equal(row_of(run, "asm")->verified_by,
			    "KAT (no host build)");
	assert_int_equal(rows_of(run, "broken"), 1);
	r = row_of(run, "broken");
	assert_false(r->ok);
	assert_non_null(strstr(r->error, "does not build"));
	assert_non_null(strstr(r->error, "error:"));
	assert_int_equal(rows_of(run, "hangs"), 1);
	r = row_of(run, "hangs");
	assert_false(r->ok);
	assert_non_null(strstr(r->error, "did not answer"));
	/* one report of them all */
	snprintf(report, sizeof(report), "%s/report.json", run->dir);
	assert_int_equal(access(report, R_OK), 0);
	hil_run_free(run);
	free(run);
	hil_config_free(cfg);
	free(cfg);
}

/* Implementations that do not fit the board's flash: the build says so
 * and how to choose fewer, instead of a linker message alone. */
/*
 * A copy of MULTI_B at tmp_root/name whose encryption reads a table of
 * bytes constants (a volatile read: the linker keeps it); its algs entry
 * into entry.
 */
static void big_fixture(const char *name, unsigned bytes, char *entry,
			size_t len)
{
	char dir[HIL_PATH], path[HIL_PATH + 16];
	FILE *f;

	snprintf(dir, sizeof(dir), "%s/%s", tmp_root, name);
	copy_fixture(MULTI_B, dir);
	snprintf(path, sizeof(path), "%s/table.c", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "const unsigned char ascon_core_table[%u] = {1};\n", bytes);
	assert_int_equal(fclose(f), 0);
	snprintf(path, sizeof(path), "%s/encrypt.c", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f,
		"#include \"api.h\"\n#include \"core.h\"\n"
		"#include \"crypto_aead.h\"\n"
		"extern const unsigned char ascon_core_table[%u];\n"
		"uint32_t ascon_core_rev(uint32_t x) { return x; }\n"
		"int crypto_aead_encrypt(unsigned char *c, unsigned long long *clen,"
		" const unsigned char *m, unsigned long long mlen,"
		" const unsigned char *ad, unsigned long long adlen,"
		" const unsigned char *nsec, const unsigned char *npub,"
		" const unsigned char *k)\n"
		"{ (void)*(const volatile unsigned char *)"
		"&ascon_core_table[mlen %% %uu];\n"
		"  return ascon_core_encrypt(c, clen, m, mlen, ad, adlen, nsec,"
		" npub, k); }\n"
		"int crypto_aead_decrypt(unsigned char *m, unsigned long long *mlen,"
		" unsigned char *nsec, const unsigned char *c,"
		" unsigned long long clen, const unsigned char *ad,"
		" unsigned long long adlen, const unsigned char *npub,"
		" const unsigned char *k)\n"
		"{ return ascon_core_decrypt(m, mlen, nsec, c, clen, ad, adlen,"
		" npub, k); }\n",
		bytes, bytes);
	assert_int_equal(fclose(f), 0);
	snprintf(entry, len,
		 "{ \"name\": \"" AEAD "\", \"impl\": \"%s\","
		 " \"path\": \"%s\" }",
		 name, dir);
}

/* One implementation too big for the board alone: a clear error. */
static void test_one_implementation_too_big_says_so(void **state)
{
	struct hil_config *cfg = calloc(1, sizeof(*cfg));
	struct hil_run *run = calloc(1, sizeof(*run));
	struct e2e_capture cap;
	char algs[HIL_PATH * 2];
	char results[128];
	char out[8192];
	int ret;

	(void)state;
	assert_non_null(cfg);
	assert_non_null(run);
	e2e_results_dir(tmp_root, "huge", results, sizeof(results));
	/* 600 KB of constants, more than the STM32F401RE's 512 KB. */
	big_fixture("huge", 600000, algs, sizeof(algs));
	make_config(cfg, algs, results);
	e2e_capture_begin(&cap, tmp_root);
	ret = run_config(cfg, results, run);
	e2e_capture_end(&cap, out, sizeof(out));
	assert_int_equal(ret, HIL_ERR_BUILD);
	e2e_assert_contains(out, "overflowed by");
	e2e_assert_contains(out, "too big for the board");
	hil_run_free(run);
	free(run);
	hil_config_free(cfg);
	free(cfg);
}

/*
 * Three implementations of 200 KB each and one of 600 KB do not fit the
 * 512 KB of flash together: the run splits them over images (here two),
 * measures each in turn into one report, and gives the one too big even
 * alone a failed row saying so.
 */
static void test_too_much_code_is_split_over_images(void **state)
{
	static const char *const big[] = {"big1", "big2", "big3"};
	struct hil_config *cfg = calloc(1, sizeof(*cfg));
	struct hil_run *run = calloc(1, sizeof(*run));
	struct e2e_capture cap;
	char entry[HIL_PATH * 2], algs[HIL_PATH * 8] = "";
	char results[128], report[HIL_PATH + 16];
	char out[16384];
	char *text = NULL;
	const struct hil_row *r;
	size_t i, k;
	int ret;

	(void)state;
	assert_non_null(cfg);
	assert_non_null(run);
	e2e_results_dir(tmp_root, "split", results, sizeof(results));
	for (i = 0; i < 3; i++) {
		big_fixture(big[i], 200000, entry, sizeof(entry));
		snprintf(algs + strlen(algs), sizeof(algs) - strlen(algs),
			 "%s, ", entry);
	}
	big_fixture("huge2", 600000, entry, sizeof(entry));
	snprintf(algs + strlen(algs), sizeof(algs) - strlen(algs), "%s", entry);
	make_config(cfg, algs, results);
	e2e_capture_begin(&cap, tmp_root);
	ret = run_config(cfg, results, run);
	e2e_capture_end(&cap, out, sizeof(out));
	/* A failed row (the one too big) makes the run's verdict. */
	assert_int_equal(ret, HIL_ERR_VERIFY);
	e2e_assert_contains(out, "do not fit one image");
	e2e_assert_contains(out, "splitting them over several images");
	for (i = 0; i < 3; i++) {
		assert_int_equal(assert_rows_ok(run, big[i]), 4);
	}
	assert_int_equal(rows_of(run, "huge2"), 1);
	r = row_of(run, "huge2");
	assert_false(r->ok);
	e2e_assert_contains(r->error, "too big for the board even alone");
	/* Two images, each identified; every row names the one it ran on. */
	assert_int_equal(run->n_images, 2);
	assert_string_not_equal(run->images[0].build_id,
				run->images[1].build_id);
	for (i = 0; i < run->n_rows; i++) {
		if (!run->rows[i].ok) {
			continue;
		}
		for (k = 0; k < run->n_images; k++) {
			if (strcmp(run->rows[i].build_id,
				   run->images[k].build_id) == 0) {
				break;
			}
		}
		assert_true(k < run->n_images);
	}
	assert_true(run->images[0].sizes.flash < 512u * 1024u);
	assert_true(run->images[1].sizes.flash < 512u * 1024u);
	/* The sizes of all three in the one report. */
	for (i = 0; i < 3; i++) {
		for (k = 0; k < run->n_impl_sizes; k++) {
			if (strcmp(run->impl_sizes[k].implementation, big[i]) ==
			    0) {
				break;
			}
		}
		assert_true(k < run->n_impl_sizes);
		assert_true(run->impl_sizes[k].rodata >= 200000);
	}
	snprintf(report, sizeof(report), "%s/report.json", run->dir);
	assert_int_equal(hil_read_file(report, &text, NULL), HIL_OK);
	e2e_assert_contains(text, "\"images\"");
	e2e_assert_contains(text, run->images[0].build_id);
	e2e_assert_contains(text, run->images[1].build_id);
	free(text);
	/* The page does not call a measured folder of one's own unmeasured
	 * (its name in the image list carries "=its link"). */
	snprintf(report, sizeof(report), "%s/report.html", run->dir);
	assert_int_equal(hil_read_file(report, &text, NULL), HIL_OK);
	assert_null(strstr(text, "Built but not measured"));
	free(text);
	hil_run_free(run);
	free(run);
	hil_config_free(cfg);
	free(cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			test_two_folders_with_the_same_internals_share_an_image),
		cmocka_unit_test(test_a_hostile_folder_name_is_only_data),
		cmocka_unit_test(
			test_a_misspelt_algorithm_fails_before_building),
		cmocka_unit_test(test_a_missing_header_gets_a_hint),
		cmocka_unit_test(
			test_an_unbundled_algorithm_is_verified_then_measured),
		cmocka_unit_test(
			test_assembly_only_code_needs_a_kat_or_the_option),
		cmocka_unit_test(test_a_whole_tree_is_measured_past_failures),
		cmocka_unit_test(test_one_implementation_too_big_says_so),
		cmocka_unit_test(test_too_much_code_is_split_over_images),
	};
	int failed;

	if (e2e_main_begin(src_root, sizeof(src_root), tmp_root,
			   sizeof(tmp_root), "/tmp/e2e-owncode-XXXXXX") != 0) {
		return 1;
	}
	failed = cmocka_run_group_tests_name("e2e_owncode", tests, NULL, NULL);
	return e2e_main_end(tmp_root, failed);
}
