/* test_e2e_pqsnap: hilrun pq builds copies of the folders its configuration's load checked, in each run's own build folder: a file swapped after the check never reaches the build, a link into a folder the configuration allows ("links_within") is followed jailed while one outside is refused by name, two runs build apart and one output takes one run at a time (a run into the same output again compiles only what changed), and --host-signatures leaves the sign row out, saying why; a folder's config.mk gives the flags hilrun takes from it, or that folder alone is not run. */
#define _XOPEN_SOURCE 700

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fcntl.h>
#include <limits.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "e2e_util.h"
#include "image/pqsnap.h"
#include "pq/pqentries.h"
#include "util/err.h"
#include "util/jail.h"
#include "util/proc.h"
#include "util/util.h"

#define FIX    "tests/fixtures/pq"
#define SECRET "PQSNAP_SECRET_7431_NEVER_BUILT"

static char tmp_root[64];
static char src_root[HIL_PATH];
static char cfg_dir[HIL_PATH]; /* tmp/cfg: the configurations' folder */
static char run_a[HIL_PATH];   /* the links run's output */
static char run_b[HIL_PATH];   /* the --host-signatures run's output */

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static char *slurp(const char *path)
{
	char *text = NULL;

	return hil_read_file(path, &text, NULL) == HIL_OK ? text : NULL;
}

static void link_to(const char *target, const char *at)
{
	unlink(at);
	assert_int_equal(symlink(target, at), 0);
}

/* hilrun pq with args, its output in log; the exit status. */
static int hilrun_pq(char **args, const char *log)
{
	char *argv[16];
	int n = 0, status = -1;

	argv[n++] = (char *)e2e_hilrun_bin();
	argv[n++] = "pq";
	while (*args != NULL && n < 15) {
		argv[n++] = *args++;
	}
	argv[n] = NULL;
	assert_int_equal(hil_proc_run(argv, log, 600000, &status), HIL_OK);
	return status;
}

/* Does any file under dir (links not followed) hold needle? */
static int tree_holds(const char *dir, const char *needle)
{
	char *const argv[] = {"grep",	      "-r",	   "-l", "-F",
			      (char *)needle, (char *)dir, NULL};
	char out[1024];
	int status = -1;

	assert_int_equal(
		hil_proc_capture(argv, out, sizeof(out), 60000, &status),
		HIL_OK);
	return status == 0;
}

/*
 * cfg/shared/toykem: the toy KEM's files; cfg/crypto_kem/toykem/linked:
 * api.h and kem.c as links to them (as pqm4's m4f folders link to mupq's
 * ref) and a header of its own; cfg/in.json allows links into
 * cfg/shared, cfg/out.json does not, cfg/far.json names a folder beside
 * the configuration's. A secret of the host at tmp/secret.txt.
 */
static int setup(void **state)
{
	char p[HIL_PATH + 128], q[HIL_PATH + 128];
	const char *files[] = {"api.h", "kem.c"};
	size_t i;

	(void)state;
	snprintf(cfg_dir, sizeof(cfg_dir), "%s/cfg", tmp_root);
	snprintf(p, sizeof(p), "%s/shared/toykem", cfg_dir);
	assert_int_equal(hil_mkdirs(p), HIL_OK);
	snprintf(p, sizeof(p), "%s/crypto_kem/toykem/linked", cfg_dir);
	assert_int_equal(hil_mkdirs(p), HIL_OK);
	snprintf(p, sizeof(p), "%s/elsewhere", tmp_root);
	assert_int_equal(hil_mkdirs(p), HIL_OK);
	for (i = 0; i < 2; i++) {
		char *text;

		snprintf(p, sizeof(p), "%s/" FIX "/crypto_kem/toykem/ref/%s",
			 src_root, files[i]);
		text = slurp(p);
		assert_non_null(text);
		snprintf(q, sizeof(q), "%s/shared/toykem/%s", cfg_dir,
			 files[i]);
		write_text(q, text);
		free(text);
		snprintf(p, sizeof(p), "../../../shared/toykem/%s", files[i]);
		snprintf(q, sizeof(q), "%s/crypto_kem/toykem/linked/%s",
			 cfg_dir, files[i]);
		link_to(p, q);
	}
	/* crypto_kem/toykem/own: the files themselves; sib: links to them
	 * (as pqm4's m4fstack links to m4fspeed). */
	snprintf(p, sizeof(p), "%s/crypto_kem/toykem/own", cfg_dir);
	assert_int_equal(hil_mkdirs(p), HIL_OK);
	snprintf(p, sizeof(p), "%s/crypto_kem/toykem/sib", cfg_dir);
	assert_int_equal(hil_mkdirs(p), HIL_OK);
	for (i = 0; i < 2; i++) {
		char *text;

		snprintf(p, sizeof(p), "%s/shared/toykem/%s", cfg_dir,
			 files[i]);
		text = slurp(p);
		assert_non_null(text);
		snprintf(q, sizeof(q), "%s/crypto_kem/toykem/own/%s", cfg_dir,
			 files[i]);
		write_text(q, text);
		free(text);
		snprintf(p, sizeof(p), "../own/%s", files[i]);
		snprintf(q, sizeof(q), "%s/crypto_kem/toykem/sib/%s", cfg_dir,
			 files[i]);
		link_to(p, q);
	}
	snprintf(p, sizeof(p), "%s/crypto_kem/toykem/linked/extra.h", cfg_dir);
	write_text(p, "/* nothing */\n");
	snprintf(p, sizeof(p), "%s/secret.txt", tmp_root);
	write_text(p, SECRET "\n");
	snprintf(p, sizeof(p), "%s/in.json", cfg_dir);
	write_text(p, "{\"algorithms\": [{\"tree\": \"crypto_kem\", "
		      "\"pattern\": \"toykem/linked\", "
		      "\"links_within\": [\"shared\"]}]}\n");
	snprintf(p, sizeof(p), "%s/out.json", cfg_dir);
	write_text(p, "{\"algorithms\": [{\"tree\": \"crypto_kem\", "
		      "\"pattern\": \"toykem/linked\"}]}\n");
	snprintf(p, sizeof(p), "%s/sib.json", cfg_dir);
	write_text(p, "{\"algorithms\": [{\"tree\": \"crypto_kem\", "
		      "\"pattern\": \"toykem/[os]*\"}]}\n");
	snprintf(p, sizeof(p), "%s/sibonly.json", cfg_dir);
	write_text(p, "{\"algorithms\": [{\"tree\": \"crypto_kem\", "
		      "\"pattern\": \"toykem/sib\"}]}\n");
	snprintf(p, sizeof(p), "%s/far.json", cfg_dir);
	write_text(p, "{\"algorithms\": [{\"tree\": \"crypto_kem\", "
		      "\"pattern\": \"toykem/linked\", "
		      "\"links_within\": [\"../elsewhere\"]}]}\n");
	snprintf(run_a, sizeof(run_a), "%s/run-a", tmp_root);
	snprintf(run_b, sizeof(run_b), "%s/run-b", tmp_root);
	return 0;
}

/*
 * The configuration is loaded (every folder checked), then a file of the
 * scheme's is swapped for a link: to a secret of the host (outside every
 * allowed folder), then to a file of the allowed folder (a link the check
 * did not find). Each copy is refused, naming the folder, and no byte of
 * the secret is in the build folder.
 */
static void test_a_file_swapped_after_the_check_is_refused(void **state)
{
	struct hil_pq_plan *plan = calloc(1, sizeof(*plan));
	struct hil_pq_plan *copy = calloc(1, sizeof(*copy));
	char cfg[HIL_PATH + 32], build[HIL_PATH + 32], extra[HIL_PATH + 64],
		secret[HIL_PATH + 32], err[4096], p[HIL_PATH + 64];
	struct stat st;

	(void)state;
	assert_non_null(plan);
	assert_non_null(copy);
	snprintf(cfg, sizeof(cfg), "%s/in.json", cfg_dir);
	snprintf(build, sizeof(build), "%s/swap-build", tmp_root);
	snprintf(extra, sizeof(extra), "%s/crypto_kem/toykem/linked/extra.h",
		 cfg_dir);
	snprintf(secret, sizeof(secret), "%s/secret.txt", tmp_root);
	assert_int_equal(hil_mkdirs(build), HIL_OK);
	if (hil_pq_plan_load(cfg, plan, err, sizeof(err)) != HIL_OK ||
	    hil_pq_plan_check(plan, err, sizeof(err)) != HIL_OK) {
		fail_msg("%s", err);
	}
	/* Unchanged: copied, the links replaced by their files. */
	assert_int_equal(
		hil_pq_plan_snapshot(plan, build, copy, err, sizeof(err)),
		HIL_OK);
	snprintf(p, sizeof(p), "%s/api.h", copy->dirs[0]);
	assert_int_equal(lstat(p, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	e2e_assert_contains(copy->dirs[0], "/src/00/toykem/linked");

	/* A link to the host's secret. */
	link_to(secret, extra);
	assert_int_not_equal(
		hil_pq_plan_snapshot(plan, build, copy, err, sizeof(err)),
		HIL_OK);
	e2e_assert_contains(err, "crypto_kem/toykem/linked");
	e2e_assert_contains(err, "extra.h: a link to ");
	e2e_assert_contains(err, "secret.txt, outside the folder");
	assert_false(tree_holds(build, SECRET));

	/* A link into the allowed folder, which the check did not find. */
	link_to("../../../shared/toykem/api.h", extra);
	assert_int_not_equal(
		hil_pq_plan_snapshot(plan, build, copy, err, sizeof(err)),
		HIL_OK);
	e2e_assert_contains(err, "not those the configuration's check found");
	snprintf(p, sizeof(p), "%s/src/00/toykem/linked", build);
	assert_int_equal(lstat(p, &st), -1); /* nothing half-copied left */

	unlink(extra);
	write_text(extra, "/* nothing */\n");
	free(plan);
	free(copy);
}

/*
 * A link into another scheme folder of the same run (built anyway) is
 * followed without "links_within"; the same folder run without its
 * sibling is refused, naming the link.
 */
static void test_links_into_the_runs_own_folders_are_followed(void **state)
{
	struct hil_pq_plan *plan = calloc(1, sizeof(*plan));
	char cfg[HIL_PATH + 32], err[4096];

	(void)state;
	assert_non_null(plan);
	snprintf(cfg, sizeof(cfg), "%s/sib.json", cfg_dir);
	assert_int_equal(hil_pq_plan_load(cfg, plan, err, sizeof(err)), HIL_OK);
	assert_int_equal(plan->n_dirs, 2);
	if (hil_pq_plan_check(plan, err, sizeof(err)) != HIL_OK) {
		fail_msg("%s", err);
	}
	snprintf(cfg, sizeof(cfg), "%s/sibonly.json", cfg_dir);
	assert_int_equal(hil_pq_plan_load(cfg, plan, err, sizeof(err)), HIL_OK);
	assert_int_equal(hil_pq_plan_check(plan, err, sizeof(err)),
			 HIL_ERR_CONFIG);
	e2e_assert_contains(err, "toykem/sib: ");
	e2e_assert_contains(err, ".h: a link to ");
	e2e_assert_contains(err, "/crypto_kem/toykem/own/");
	free(plan);
}

/*
 * The folder whose files are links into cfg/shared runs jailed when the
 * configuration allows links there: its rows verified, its copy holding
 * the files themselves. Without "links_within", or with one beside the
 * configuration's folder, nothing is built and the refusal names the
 * link and where it leads.
 */
static void test_links_followed_only_into_allowed_folders(void **state)
{
	char cfg[HIL_PATH + 32], log[HIL_PATH + 32], p[HIL_PATH + 64], why[256],
		real[PATH_MAX];
	char *text;
	int jailed = hil_jail_probe(why, sizeof(why)) == HIL_OK;

	(void)state;
	snprintf(log, sizeof(log), "%s/links.log", tmp_root);
	snprintf(cfg, sizeof(cfg), "%s/out.json", cfg_dir);
	{
		char *args[] = {"--config", cfg,   "--runs", "1",
				"--output", run_a, NULL};

		assert_int_equal(hilrun_pq(args, log), 2);
	}
	text = slurp(log);
	assert_non_null(text);
	snprintf(p, sizeof(p), "%s/shared/toykem", cfg_dir);
	assert_non_null(realpath(p, real));
	e2e_assert_contains(text, "toykem/linked: ");
	e2e_assert_contains(text, ".h: a link to ");
	e2e_assert_contains(text, real);
	e2e_assert_contains(text, "outside the folder and every folder the "
				  "configuration lets links lead into");
	free(text);

	snprintf(cfg, sizeof(cfg), "%s/far.json", cfg_dir);
	{
		char *args[] = {"--config", cfg,   "--runs", "1",
				"--output", run_a, NULL};

		assert_int_equal(hilrun_pq(args, log), 2);
	}
	text = slurp(log);
	assert_non_null(text);
	e2e_assert_contains(text, "links_within[0] \"../elsewhere\"");
	e2e_assert_contains(text, "outside the configuration's folder");
	free(text);

	snprintf(cfg, sizeof(cfg), "%s/in.json", cfg_dir);
	{
		char *args[] = {"--config", cfg,   "--runs", "1",
				"--output", run_a, NULL};

		assert_int_equal(hilrun_pq(args, log), 0);
	}
	snprintf(p, sizeof(p), "%s/report.json", run_a);
	text = slurp(p);
	assert_non_null(text);
	e2e_assert_contains(text, "\"implementation\":\t\"linked\"");
	e2e_assert_contains(text, jailed ? "\"jailed\":\ttrue"
					 : "\"jailed\":\tfalse");
	free(text);
	snprintf(p, sizeof(p), "%s/rows.tsv", run_a);
	text = slurp(p);
	assert_non_null(text);
	e2e_assert_contains(text, "ok vs host build of toykem/linked");
	free(text);
	{
		struct stat st;

		snprintf(p, sizeof(p), "%s/build/src/00/toykem/linked/kem.c",
			 run_a);
		assert_int_equal(lstat(p, &st), 0);
		assert_true(S_ISREG(st.st_mode));
	}
}

/* run.tsv's build folder of a run's output. */
static void build_of(const char *out, char *buf, size_t len)
{
	char p[HIL_PATH + 32];
	char *text, *at, *end;

	snprintf(p, sizeof(p), "%s/run.tsv", out);
	text = slurp(p);
	assert_non_null(text);
	at = strstr(text, "\nbuild\t");
	assert_non_null(at);
	at += 7;
	end = strchr(at, '\n');
	if (end != NULL) {
		*end = '\0';
	}
	snprintf(buf, len, "%s", at);
	free(text);
}

/*
 * --host-signatures: the toy signature scheme's keypair and verify rows,
 * no sign row, and "Not run" saying that sign was not run and why (not a
 * failure: exit 0). With a board that runs its image over its link, it is
 * refused before anything is built.
 */
static void test_host_signatures_leave_sign_out_saying_why(void **state)
{
	char cfg[HIL_PATH + 64], log[HIL_PATH + 32], p[HIL_PATH + 64];
	char *text;

	(void)state;
	snprintf(cfg, sizeof(cfg), "%s/" FIX "/toys.json", src_root);
	snprintf(log, sizeof(log), "%s/sigs.log", tmp_root);
	{
		char *args[] = {"--config",
				cfg,
				"--runs",
				"1",
				"--output",
				run_b,
				"--host-signatures",
				NULL};

		assert_int_equal(hilrun_pq(args, log), 0);
	}
	snprintf(p, sizeof(p), "%s/report.json", run_b);
	text = slurp(p);
	assert_non_null(text);
	e2e_assert_contains(text, "\"operation\":\t\"verify\"");
	assert_null(strstr(text, "\"operation\":\t\"sign\""));
	free(text);
	snprintf(p, sizeof(p), "%s/summary.md", run_b);
	text = slurp(p);
	assert_non_null(text);
	e2e_assert_contains(text, "**Not run**");
	e2e_assert_contains(text,
			    "- toysig/ref: sign: not run (--host-signatures): "
			    "signing was not emulated");
	assert_null(strstr(text, "toykem/ref: sign"));
	free(text);
	{
		char *args[] = {"--config",	     cfg,	 "--board",
				"qemu-netduino",     "--output", run_b,
				"--host-signatures", NULL};

		assert_int_equal(hilrun_pq(args, log), 2);
	}
	text = slurp(log);
	assert_non_null(text);
	e2e_assert_contains(text, "--host-signatures is for the cycle "
				  "model's board (qemu-mps2-an386) only");
	free(text);
}

/*
 * The two runs above built apart, each in its own output's build folder;
 * and an output in use by another run (its lock held) is refused before
 * anything is built.
 */
static void test_two_runs_build_apart(void **state)
{
	char a[HIL_PATH + 32], b[HIL_PATH + 32], want[HIL_PATH + 32],
		cfg[HIL_PATH + 64], log[HIL_PATH + 32];
	char *text;
	int fd;

	(void)state;
	build_of(run_a, a, sizeof(a));
	build_of(run_b, b, sizeof(b));
	assert_string_not_equal(a, b);
	snprintf(want, sizeof(want), "%s/build", run_a);
	assert_string_equal(a, want);
	snprintf(want, sizeof(want), "%s/build", run_b);
	assert_string_equal(b, want);

	fd = open(run_b, O_RDONLY | O_DIRECTORY);
	assert_true(fd >= 0);
	assert_int_equal(flock(fd, LOCK_EX | LOCK_NB), 0);
	snprintf(cfg, sizeof(cfg), "%s/" FIX "/toys.json", src_root);
	snprintf(log, sizeof(log), "%s/lock.log", tmp_root);
	{
		char *args[] = {"--config", cfg,   "--runs", "1",
				"--output", run_b, NULL};

		assert_int_equal(hilrun_pq(args, log), 2);
	}
	close(fd);
	text = slurp(log);
	assert_non_null(text);
	e2e_assert_contains(text, "is the output of another hilrun pq "
				  "running now");
	free(text);
}

/*
 * The same output again reuses its build folder: an unchanged folder's
 * objects are not compiled again (the copies keep their files' times), and
 * a source changed since (newer than its object) is.
 */
static void test_the_same_output_rebuilds_only_what_changed(void **state)
{
	char cfg[HIL_PATH + 32], log[HIL_PATH + 32], obj[HIL_PATH + 64],
		src[HIL_PATH + 64];
	struct stat before, after;
	struct timespec t[2];
	FILE *f;

	(void)state;
	snprintf(cfg, sizeof(cfg), "%s/in.json", cfg_dir);
	snprintf(log, sizeof(log), "%s/again.log", tmp_root);
	snprintf(obj, sizeof(obj), "%s/build/toykem_linked/fw/scheme/kem.c.o",
		 run_a);
	assert_int_equal(stat(obj, &before), 0);
	{
		char *args[] = {"--config", cfg,   "--runs", "1",
				"--output", run_a, NULL};

		assert_int_equal(hilrun_pq(args, log), 0);
	}
	assert_int_equal(stat(obj, &after), 0);
	assert_int_equal(after.st_mtim.tv_sec, before.st_mtim.tv_sec);
	assert_int_equal(after.st_mtim.tv_nsec, before.st_mtim.tv_nsec);

	/* kem.c (the file its link leads to) changed: a comment more, and a
	 * time after its object's. */
	snprintf(src, sizeof(src), "%s/shared/toykem/kem.c", cfg_dir);
	f = fopen(src, "a");
	assert_non_null(f);
	fputs("/* changed */\n", f);
	assert_int_equal(fclose(f), 0);
	t[0] = after.st_mtim;
	t[1] = after.st_mtim;
	t[1].tv_sec += 10;
	assert_int_equal(utimensat(AT_FDCWD, src, t, 0), 0);
	{
		char *args[] = {"--config", cfg,   "--runs", "1",
				"--output", run_a, NULL};

		assert_int_equal(hilrun_pq(args, log), 0);
	}
	assert_int_equal(stat(obj, &after), 0);
	assert_true(after.st_mtim.tv_sec != before.st_mtim.tv_sec ||
		    after.st_mtim.tv_nsec != before.st_mtim.tv_nsec);
}

/*
 * A folder's config.mk (pqm4's per-implementation flags): cfgkem/ref
 * builds only with its flags (-DCFGKEM_ROUNDS=3 in the image, the stub
 * and the host reference; -Iinc, a folder of its own; -O2 for the image's
 * scheme objects), which its rows name; cfgkem/plugin's asks for a
 * compiler plugin: that folder alone is not run, "Not run" naming the
 * line and the flag (exit 1), and nothing of it is built.
 */
static void test_config_mk_flags_reach_the_build(void **state)
{
	char cfg[HIL_PATH + 64], log[HIL_PATH + 32], out[HIL_PATH + 32];
	char p[HIL_PATH + 96];
	char *text;
	int k;

	(void)state;
	snprintf(cfg, sizeof(cfg), "%s/" FIX "/configmk/configmk.json",
		 src_root);
	snprintf(log, sizeof(log), "%s/configmk.log", tmp_root);
	snprintf(out, sizeof(out), "%s/run-cfgmk", tmp_root);
	{
		char *args[] = {"--config", cfg, "--runs", "1",
				"--output", out, NULL};

		assert_int_equal(hilrun_pq(args, log), 1);
	}
	snprintf(p, sizeof(p), "%s/rows.tsv", out);
	text = slurp(p);
	assert_non_null(text);
	for (k = 0; k < 3; k++) {
		static const char *const ops[] = {"keypair", "encaps",
						  "decaps"};
		char want[256];

		snprintf(want, sizeof(want), "cfgkem\tref\tKEM\t%s\t1\t",
			 ops[k]);
		e2e_assert_contains(text, want);
	}
	e2e_assert_contains(text, "\tok vs host build of cfgkem/ref (built "
				  "with its config.mk's -DCFGKEM_ROUNDS=3 "
				  "-Iinc -O2)");
	assert_null(strstr(text, "FAILED"));
	assert_null(strstr(text, "plugin"));
	free(text);
	/* -O2 came last on the scheme's compile line (it wins over -O3). */
	snprintf(p, sizeof(p), "%s/build/cfgkem_ref/fw/flags", out);
	text = slurp(p);
	assert_non_null(text);
	e2e_assert_contains(text, "XFLAGS=-DCFGKEM_ROUNDS=3 -I");
	e2e_assert_contains(text, "/src/01/cfgkem/ref/inc -O2");
	free(text);
	snprintf(p, sizeof(p), "%s/summary.md", out);
	text = slurp(p);
	assert_non_null(text);
	e2e_assert_contains(text,
			    "- cfgkem/plugin: config.mk line 3: "
			    "\"elf/crypto_kem_cfgkem_plugin_%.elf: "
			    "CFLAGS += -f...\": -fplugin=./evil.so: loads "
			    "a shared object into the compiler");
	free(text);
	snprintf(p, sizeof(p), "%s/build/cfgkem_plugin", out);
	assert_int_not_equal(access(p, F_OK), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			test_a_file_swapped_after_the_check_is_refused),
		cmocka_unit_test(
			test_links_into_the_runs_own_folders_are_followed),
		cmocka_unit_test(test_links_followed_only_into_allowed_folders),
		cmocka_unit_test(
			test_host_signatures_leave_sign_out_saying_why),
		cmocka_unit_test(test_two_runs_build_apart),
		cmocka_unit_test(
			test_the_same_output_rebuilds_only_what_changed),
		cmocka_unit_test(test_config_mk_flags_reach_the_build),
	};
	int failed;

	if (e2e_main_begin(src_root, sizeof(src_root), tmp_root,
			   sizeof(tmp_root), "/tmp/e2e-pqsnap-XXXXXX") != 0) {
		return 1;
	}
	failed = cmocka_run_group_tests_name("e2e_pqsnap", tests, setup, NULL);
	return e2e_main_end(tmp_root, failed);
}
