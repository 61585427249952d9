/* Unit tests of opening and making paths beneath a folder without following links (openat2 and its per-component fallback), and of the run folder and results/latest made that way. */
#define _GNU_SOURCE

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "config/config.h"
#include "run/runner.h"
#include "run/runner_int.h"
#include "util/beneath.h"
#include "util/err.h"
#include "util/proc.h"
#include "unit_util.h"

struct fx {
	char dir[64];
	char old_cwd[4096];
	int dfd;
};

static int setup(void **state)
{
	struct fx *fx = calloc(1, sizeof(*fx));

	if (fx == NULL) {
		return -1;
	}
	snprintf(fx->dir, sizeof(fx->dir), "/tmp/hilrun-beneath-XXXXXX");
	if (mkdtemp(fx->dir) == NULL ||
	    getcwd(fx->old_cwd, sizeof(fx->old_cwd)) == NULL) {
		free(fx);
		return -1;
	}
	fx->dfd = open(fx->dir, O_RDONLY | O_DIRECTORY);
	*state = fx;
	return fx->dfd >= 0 ? 0 : -1;
}

static int teardown(void **state)
{
	struct fx *fx = *state;
	int ret;

	close(fx->dfd);
	ret = chdir(fx->old_cwd) | ut_rm_tree(fx->dir);
	free(fx);
	return ret;
}

static void mk(const struct fx *fx, const char *rel)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/%s", fx->dir, rel);
	assert_int_equal(mkdir(p, 0755), 0);
}

static void put(const struct fx *fx, const char *rel, const char *text)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/%s", fx->dir, rel);
	ut_write_file(p, text, strlen(text), 0644);
}

static void ln(const struct fx *fx, const char *target, const char *rel)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/%s", fx->dir, rel);
	assert_int_equal(symlink(target, p), 0);
}

typedef int (*open_fn)(int, const char *, int, mode_t, char *, size_t);

/* The same rules whether the kernel has openat2 or not. */
static void check_opener(const struct fx *fx, open_fn fn)
{
	char why[256];
	int fd;

	fd = fn(fx->dfd, "in/a.c", O_RDONLY, 0, why, sizeof(why));
	assert_true(fd >= 0);
	close(fd);
	/* A link anywhere on the way, even one that stays inside. */
	assert_true(fn(fx->dfd, "in/out.c", O_RDONLY, 0, why, sizeof(why)) < 0);
	assert_non_null(strstr(why, "symbolic link"));
	assert_true(fn(fx->dfd, "lnkdir/a.c", O_RDONLY, 0, why, sizeof(why)) <
		    0);
	assert_true(fn(fx->dfd, "in/../in/a.c", O_RDONLY, 0, why, sizeof(why)) <
		    0);
	assert_true(fn(fx->dfd, "/etc/hostname", O_RDONLY, 0, why,
		       sizeof(why)) < 0);
	assert_int_equal(
		fn(fx->dfd, "in/none.c", O_RDONLY, 0, why, sizeof(why)),
		HIL_ERR_NA);
}

static void test_open_beneath_refuses_links_and_dotdot(void **state)
{
	struct fx *fx = *state;
	char target[256];

	mk(fx, "in");
	mk(fx, "secret");
	put(fx, "in/a.c", "int a;\n");
	put(fx, "secret/key", "SECRET\n");
	snprintf(target, sizeof(target), "%s/secret/key", fx->dir);
	ln(fx, target, "in/out.c");
	ln(fx, "in", "lnkdir");
	check_opener(fx, hil_open_beneath_at);
	check_opener(fx, hil_open_beneath_compat);
}

/* issue #33 finding 12: a FIFO where a file is expected never blocks. */
static void test_open_regular_beneath_refuses_a_fifo_at_once(void **state)
{
	struct fx *fx = *state;
	char p[256], why[256];

	snprintf(p, sizeof(p), "%s/LWC_HASH_KAT_64.txt", fx->dir);
	assert_int_equal(mkfifo(p, 0600), 0);
	assert_int_equal(hil_open_regular_beneath(fx->dfd,
						  "LWC_HASH_KAT_64.txt", why,
						  sizeof(why)),
			 HIL_ERR_IO);
	assert_string_equal(why, "not a regular file (a FIFO)");
}

static void test_mkdirs_beneath_never_through_a_link(void **state)
{
	struct fx *fx = *state;
	char why[256], p[256];
	struct stat st;
	int fd;

	mk(fx, "elsewhere");
	mk(fx, "incoming");
	snprintf(p, sizeof(p), "%s/elsewhere", fx->dir);
	ln(fx, p, "incoming/lnk");
	fd = hil_mkdirs_beneath(fx->dfd, "./a/b/./c", why, sizeof(why));
	assert_true(fd >= 0);
	close(fd);
	snprintf(p, sizeof(p), "%s/a/b/c", fx->dir);
	assert_int_equal(stat(p, &st), 0);
	assert_true(hil_mkdirs_beneath(fx->dfd, "incoming/lnk/res", why,
				       sizeof(why)) < 0);
	assert_non_null(strstr(why, "incoming/lnk"));
	snprintf(p, sizeof(p), "%s/elsewhere/res", fx->dir);
	assert_int_equal(stat(p, &st), -1);
	assert_true(hil_mkdirs_beneath(fx->dfd, "a/../x", why, sizeof(why)) <
		    0);
}

/* issue #33 finding 6: a configuration's results_dir through a link
 * planted in incoming/ no longer puts the run folder elsewhere, and
 * results/latest replaces only a link. */
static void test_run_folder_and_latest_never_through_a_link(void **state)
{
	struct fx *fx = *state;
	struct hil_runner_opts opts;
	struct hil_config cfg = {0};
	struct hil_run *run = calloc(1, sizeof(*run));
	char p[256], buf[64];
	struct stat st;
	ssize_t n;

	assert_non_null(run);
	assert_int_equal(chdir(fx->dir), 0);
	mk(fx, "elsewhere");
	mk(fx, "incoming");
	snprintf(p, sizeof(p), "%s/elsewhere", fx->dir);
	ln(fx, p, "incoming/lnk");
	hil_config_defaults(&cfg);
	snprintf(cfg.name, sizeof(cfg.name), "t");
	memset(&opts, 0, sizeof(opts));
	opts.results_dir = "incoming/lnk";
	assert_int_not_equal(hil_runner_make_run_dir(&cfg, &opts, run), HIL_OK);
	/* Nothing was made there: the folder is still empty. */
	assert_int_equal(rmdir(p), 0);

	/* A file named latest in the results folder is not replaced. */
	opts.results_dir = "results";
	assert_int_equal(hil_runner_make_run_dir(&cfg, &opts, run), HIL_OK);
	put(fx, "results/latest", "someone's file\n");
	hil_rn_point_latest(&opts, run);
	snprintf(p, sizeof(p), "%s/results/latest", fx->dir);
	assert_int_equal(lstat(p, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	/* A link of ours is. */
	assert_int_equal(unlink(p), 0);
	assert_int_equal(symlink("old-run", p), 0);
	hil_rn_point_latest(&opts, run);
	n = readlink(p, buf, sizeof(buf) - 1);
	assert_true(n > 0);
	buf[n] = '\0';
	assert_string_equal(buf, run->id);
	free(run);
	hil_config_free(&cfg);
}

/* issue #33 finding 10: the makefiles read only the dependency files of
 * the objects they build; a .d file planted anywhere else under build/ is
 * make syntax and would run at the next build. */
static void test_make_never_reads_a_planted_dep_file(void **state)
{
	struct fx *fx = *state;
	char src[4096], build[128], fwdir[160], ran[160], text[256];
	char bvar[160], fvar[192];
	int st = -1;

	ut_src_path(src, sizeof(src), ".");
	snprintf(build, sizeof(build), "%s/build", fx->dir);
	snprintf(fwdir, sizeof(fwdir), "%s/build/fw/x", fx->dir);
	snprintf(ran, sizeof(ran), "%s/ran", fx->dir);
	mk(fx, "build");
	mk(fx, "build/fw");
	mk(fx, "build/fw/x");
	/* In the firmware folder itself, beside the objects, and anywhere. */
	snprintf(text, sizeof(text), "$(shell touch %s)\n", ran);
	put(fx, "build/fw/x/evil.d", text);
	put(fx, "build/evil.d", text);
	snprintf(bvar, sizeof(bvar), "BUILD=%s", build);
	snprintf(fvar, sizeof(fvar), "FW_DIR=%s", fwdir);
	{
		char *const argv[] = {"make", "-n", "-s",	"-C", src,
				      bvar,   fvar, "firmware", NULL};

		assert_int_equal(hil_proc_run(argv, NULL, 120000, &st), HIL_OK);
	}
	assert_int_equal(access(ran, F_OK), -1);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_open_beneath_refuses_links_and_dotdot),
		T(test_open_regular_beneath_refuses_a_fifo_at_once),
		T(test_mkdirs_beneath_never_through_a_link),
		T(test_run_folder_and_latest_never_through_a_link),
		T(test_make_never_reads_a_planted_dep_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
#undef T
}
