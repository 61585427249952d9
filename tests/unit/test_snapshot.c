/* test_snapshot: the copy a build makes of a user's implementation folder: files, folders and times kept, links inside kept inside, a FIFO or a file swapped for a link since the configuration's check refused without reading it, an old copy removed without following its links. */
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
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "config/config.h"
#include "image/snapshot.h"
#include "util/err.h"
#include "util/util.h"
#include "unit_util.h"

struct fx {
	char dir[64];	   /* /tmp/hiltest-snap-XXXXXX */
	char src[128];	   /* dir/impl: the folder */
	char dst[128];	   /* dir/copy */
	char outside[128]; /* dir/outside.txt */
	struct hil_config cfg;
};

static void path_of(char *buf, size_t len, const char *dir, const char *rel)
{
	snprintf(buf, len, "%s/%s", dir, rel);
}

static void put(const char *dir, const char *rel, const char *text)
{
	char p[256];

	path_of(p, sizeof(p), dir, rel);
	ut_write_file(p, text, strlen(text), 0644);
}

static void link_at(const char *dir, const char *rel, const char *target)
{
	char p[256];

	path_of(p, sizeof(p), dir, rel);
	assert_int_equal(symlink(target, p), 0);
}

static void expect_link(const char *dir, const char *rel, const char *want)
{
	char p[256], got[PATH_MAX];
	ssize_t n;

	path_of(p, sizeof(p), dir, rel);
	n = readlink(p, got, sizeof(got) - 1);
	assert_true(n > 0);
	got[n] = '\0';
	assert_string_equal(got, want);
}

/* A folder with a file, a sub-folder, links inside it (to a file, from
 * the sub-folder, to a folder), one to a file outside and one leading
 * nowhere; its configuration loaded (the folder checked). */
static int setup(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	char p[256], json[1024], err[512];

	assert_non_null(f);
	snprintf(f->dir, sizeof(f->dir), "/tmp/hiltest-snap-XXXXXX");
	assert_non_null(mkdtemp(f->dir));
	path_of(f->src, sizeof(f->src), f->dir, "impl");
	path_of(f->dst, sizeof(f->dst), f->dir, "copy");
	path_of(f->outside, sizeof(f->outside), f->dir, "outside.txt");
	ut_write_file(f->outside, "outside\n", 8, 0644);
	assert_int_equal(mkdir(f->src, 0755), 0);
	path_of(p, sizeof(p), f->src, "sub");
	assert_int_equal(mkdir(p, 0755), 0);
	put(f->src, "api.h", "#define CRYPTO_KEYBYTES 16\n");
	put(f->src, "encrypt.c", "int x;\n");
	put(f->src, "sub/deep.h", "#define DEEP 1\n");
	link_at(f->src, "alias.h", "api.h");
	link_at(f->src, "sub/up.h", "../api.h");
	link_at(f->src, "subdir", "sub");
	link_at(f->src, "out.h", f->outside);
	link_at(f->src, "nowhere.h", "missing.h");
	snprintf(
		json, sizeof(json),
		"{ \"name\": \"snap\", \"board\": { \"name\": \"qemu-netduino\" },"
		" \"flasher\": { \"type\": \"qemu\" },"
		" \"algorithms\": [ { \"name\": \"ascon-aead128\","
		" \"impl\": \"snap\", \"path\": \"%s\" } ] }",
		f->src);
	if (hil_config_parse(json, NULL, &f->cfg, err, sizeof(err)) != HIL_OK) {
		fail_msg("config rejected: %s", err);
	}
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;

	hil_config_free(&f->cfg);
	assert_int_equal(ut_rm_tree(f->dir), 0);
	free(f);
	return 0;
}

static void test_a_checked_folder_is_copied_as_it_is(void **state)
{
	struct fx *f = *state;
	char p[256], q[256], real[PATH_MAX], why[512];
	struct stat a, b;

	assert_true(f->cfg.algs[0].links_checked);
	assert_int_equal(hil_snapshot_copy(f->src, f->dst, f->cfg.algs[0].links,
					   why, sizeof(why)),
			 HIL_OK);
	/* Files with their bytes and times; folders; links inside lead
	 * inside the copy, the one outside to its real path, none for the
	 * one leading nowhere. */
	path_of(p, sizeof(p), f->src, "encrypt.c");
	path_of(q, sizeof(q), f->dst, "encrypt.c");
	assert_int_equal(stat(p, &a), 0);
	assert_int_equal(lstat(q, &b), 0);
	assert_true(S_ISREG(b.st_mode));
	assert_int_equal(a.st_mtim.tv_sec, b.st_mtim.tv_sec);
	assert_int_equal(a.st_mtim.tv_nsec, b.st_mtim.tv_nsec);
	assert_int_equal(a.st_size, b.st_size);
	path_of(q, sizeof(q), f->dst, "sub/deep.h");
	assert_int_equal(lstat(q, &b), 0);
	assert_true(S_ISREG(b.st_mode));
	expect_link(f->dst, "alias.h", "api.h");
	expect_link(f->dst, "sub/up.h", "../api.h");
	expect_link(f->dst, "subdir", "sub");
	assert_non_null(realpath(f->outside, real));
	expect_link(f->dst, "out.h", real);
	path_of(q, sizeof(q), f->dst, "nowhere.h");
	assert_int_equal(lstat(q, &b), -1);

	/* Again: the old copy is replaced. */
	assert_int_equal(hil_snapshot_copy(f->src, f->dst, f->cfg.algs[0].links,
					   why, sizeof(why)),
			 HIL_OK);
}

/* A file swapped for a link after the check: refused, nothing left. */
static void test_a_file_swapped_for_a_link_is_refused(void **state)
{
	struct fx *f = *state;
	char p[256], why[512];
	struct stat st;

	path_of(p, sizeof(p), f->src, "encrypt.c");
	assert_int_equal(unlink(p), 0);
	assert_int_equal(symlink(f->outside, p), 0);
	assert_int_equal(hil_snapshot_copy(f->src, f->dst, f->cfg.algs[0].links,
					   why, sizeof(why)),
			 HIL_ERR_CONFIG);
	assert_non_null(strstr(why, "symbolic links are not those"));
	assert_int_equal(lstat(f->dst, &st), -1);
	/* Not compared (never checked): copied as a link. */
	assert_int_equal(
		hil_snapshot_copy(f->src, f->dst, NULL, why, sizeof(why)),
		HIL_OK);
	assert_int_equal(unlink(p), 0);
	put(f->src, "encrypt.c", "int x;\n");
}

/* A FIFO put in after the check: refused at once, never opened. */
static void test_a_fifo_is_refused_without_blocking(void **state)
{
	struct fx *f = *state;
	char p[256], why[512];
	struct stat st;

	path_of(p, sizeof(p), f->src, "sub/pipe.h");
	assert_int_equal(mkfifo(p, 0644), 0);
	assert_int_equal(
		hil_snapshot_copy(f->src, f->dst, NULL, why, sizeof(why)),
		HIL_ERR_CONFIG);
	assert_non_null(strstr(why, "sub/pipe.h"));
	assert_non_null(strstr(why, "a FIFO"));
	assert_int_equal(lstat(f->dst, &st), -1);
	assert_int_equal(unlink(p), 0);
}

/* An old copy holding a link to a file of someone else's, and a folder
 * link: removed, what they lead to untouched. */
static void test_an_old_copy_is_removed_without_following_links(void **state)
{
	struct fx *f = *state;
	char p[256], victim_dir[128], why[512];
	struct stat st;

	path_of(victim_dir, sizeof(victim_dir), f->dir, "victim");
	assert_int_equal(mkdir(victim_dir, 0755), 0);
	put(victim_dir, "keep.txt", "keep\n");
	assert_int_equal(mkdir(f->dst, 0755), 0);
	link_at(f->dst, "victim-dir", victim_dir);
	path_of(p, sizeof(p), victim_dir, "keep.txt");
	link_at(f->dst, "victim-file", p);
	assert_int_equal(hil_snapshot_copy(f->src, f->dst, f->cfg.algs[0].links,
					   why, sizeof(why)),
			 HIL_OK);
	assert_int_equal(stat(p, &st), 0);
	path_of(p, sizeof(p), f->dst, "victim-dir");
	assert_int_equal(lstat(p, &st), -1);
}

/*
 * Following links (the pq lane): a link out of the folder into an allowed
 * folder is replaced by what it leads to, a file as a file and a folder
 * as a folder, links inside the folder stay links to the copy; the check
 * walks as the copy does and its digest is the copy's. With no allowed
 * folder holding it, the link is refused, naming it and where it leads,
 * and nothing is left.
 */
static void test_links_followed_only_into_allowed_folders(void **state)
{
	struct fx *f = *state;
	char p[256], lib[128], real_dir[PATH_MAX], real_out[PATH_MAX],
		why[1024], *text = NULL;
	const char *roots[1];
	struct hil_snapshot_follow follow;
	unsigned char digest[HIL_LINKSET_DIGEST];
	struct stat st;

	path_of(lib, sizeof(lib), f->dir, "lib");
	assert_int_equal(mkdir(lib, 0755), 0);
	put(lib, "x.h", "#define X 1\n");
	link_at(f->src, "libdir", lib);
	assert_non_null(realpath(f->dir, real_dir));
	assert_non_null(realpath(f->outside, real_out));
	roots[0] = real_dir;
	memset(&follow, 0, sizeof(follow));
	follow.roots = roots;
	follow.n_roots = 1;
	follow.allowed = "links_within /tmp/x";

	assert_int_equal(
		hil_snapshot_check(f->src, &follow, digest, why, sizeof(why)),
		HIL_OK);
	assert_int_equal(hil_snapshot_copy_ex(f->src, f->dst, digest, &follow,
					      why, sizeof(why)),
			 HIL_OK);
	path_of(p, sizeof(p), f->dst, "out.h");
	assert_int_equal(lstat(p, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(hil_read_file(p, &text, NULL), HIL_OK);
	assert_string_equal(text, "outside\n");
	free(text);
	path_of(p, sizeof(p), f->dst, "libdir");
	assert_int_equal(lstat(p, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	path_of(p, sizeof(p), f->dst, "libdir/x.h");
	assert_int_equal(lstat(p, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	expect_link(f->dst, "alias.h", "api.h");
	expect_link(f->dst, "subdir", "sub");

	/* Nothing allowed: refused by name, nothing left. */
	follow.n_roots = 0;
	follow.allowed = NULL;
	assert_int_equal(
		hil_snapshot_check(f->src, &follow, digest, why, sizeof(why)),
		HIL_ERR_CONFIG);
	assert_int_equal(hil_snapshot_copy_ex(f->src, f->dst, NULL, &follow,
					      why, sizeof(why)),
			 HIL_ERR_CONFIG);
	/* (whichever of the two links the walk meets first) */
	snprintf(p, sizeof(p), "libdir: a link to %s/lib, outside the folder",
		 real_dir);
	if (strstr(why, p) == NULL) {
		snprintf(p, sizeof(p),
			 "out.h: a link to %s, outside the folder", real_out);
		assert_non_null(strstr(why, p));
	}
	assert_non_null(strstr(why, "every folder the configuration lets "
				    "links lead into (none)"));
	assert_int_equal(lstat(f->dst, &st), -1);
	path_of(p, sizeof(p), f->src, "libdir");
	assert_int_equal(unlink(p), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_checked_folder_is_copied_as_it_is),
		cmocka_unit_test(test_a_file_swapped_for_a_link_is_refused),
		cmocka_unit_test(test_a_fifo_is_refused_without_blocking),
		cmocka_unit_test(
			test_an_old_copy_is_removed_without_following_links),
		cmocka_unit_test(test_links_followed_only_into_allowed_folders),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
