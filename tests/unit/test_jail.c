/* test_jail: the jail's bubblewrap command line: namespaces, no capability, read-only system, the caller's binds in order, the program and its arguments untouched. */
#define _XOPEN_SOURCE 700

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "unit_util.h"
#include "util/err.h"
#include "util/jail.h"

/* Index of the first argument equal to s at or after from, or -1. */
static int find(char **v, int from, const char *s)
{
	int i;

	for (i = from; v[i] != NULL; i++) {
		if (strcmp(v[i], s) == 0) {
			return i;
		}
	}
	return -1;
}

/* Index of "opt a b" (b NULL: "opt a"), or -1. */
static int find3(char **v, const char *opt, const char *a, const char *b)
{
	int i;

	for (i = 0; v[i] != NULL; i++) {
		if (strcmp(v[i], opt) == 0 && v[i + 1] != NULL &&
		    strcmp(v[i + 1], a) == 0 &&
		    (b == NULL ||
		     (v[i + 2] != NULL && strcmp(v[i + 2], b) == 0))) {
			return i;
		}
	}
	return -1;
}

static int count(char **v)
{
	int n = 0;

	while (v[n] != NULL) {
		n++;
	}
	return n;
}

/* A fresh folder under /tmp with sub-folders ro and rw. */
static void make_tree(char *dir, size_t len)
{
	char p[256];

	snprintf(dir, len, "/tmp/test-jail-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(p, sizeof(p), "%s/ro", dir);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/rw", dir);
	assert_int_equal(mkdir(p, 0755), 0);
}

static void remove_tree(const char *dir)
{
	char p[256];

	snprintf(p, sizeof(p), "%s/ro", dir);
	rmdir(p);
	snprintf(p, sizeof(p), "%s/rw", dir);
	rmdir(p);
	snprintf(p, sizeof(p), "%s/link", dir);
	unlink(p);
	rmdir(dir);
}

static void test_every_jail_is_closed_and_powerless(void **state)
{
	char *const cmd[] = {"make", "-C", "/x", "firmware", NULL};
	char **v = NULL;
	int dash, n;

	(void)state;
	assert_int_equal(hil_jail_argv(NULL, cmd, -1, &v), HIL_OK);
	assert_string_equal(v[0], "bwrap");
	/* Every namespace, no further user namespace, dies with hilrun,
	 * no terminal, no capability even for root. */
	assert_true(find(v, 1, "--unshare-all") > 0);
	assert_true(find(v, 1, "--unshare-user") > 0);
	assert_true(find(v, 1, "--disable-userns") > 0);
	assert_true(find(v, 1, "--die-with-parent") > 0);
	assert_true(find(v, 1, "--new-session") > 0);
	assert_true(find(v, 1, "--as-pid-1") > 0);
	assert_true(find3(v, "--cap-drop", "ALL", NULL) > 0);
	assert_true(find(v, 1, "--share-net") < 0);
	/* The system read-only, a private /tmp, the rest of / read-only,
	 * the environment cleared. */
	assert_true(find3(v, "--ro-bind", "/usr", "/usr") > 0);
	assert_true(find3(v, "--proc", "/proc", NULL) > 0);
	assert_true(find3(v, "--dev", "/dev", NULL) > 0);
	assert_true(find3(v, "--tmpfs", "/tmp", NULL) > 0);
	assert_true(find3(v, "--remount-ro", "/", NULL) > 0);
	assert_true(find(v, 1, "--clearenv") > 0);
	assert_true(find3(v, "--setenv", "HOME", "/tmp") > 0);
	assert_true(find(v, 1, "--info-fd") < 0);
	/* No /sys and no device folder unless asked. */
	assert_true(find(v, 1, "/sys") < 0);
	assert_true(find(v, 1, "--dev-bind") < 0);
	assert_true(find(v, 1, "--bind") < 0);
	/* "--", then the command exactly. */
	dash = find(v, 1, "--");
	n = count(v);
	assert_true(dash > 0);
	assert_int_equal(n, dash + 5);
	assert_string_equal(v[dash + 1], "make");
	assert_string_equal(v[dash + 2], "-C");
	assert_string_equal(v[dash + 3], "/x");
	assert_string_equal(v[dash + 4], "firmware");
	/* The remount comes after every mount, before the command. */
	assert_true(find(v, 1, "--remount-ro") < dash);
	hil_jail_argv_free(v);
}

static void test_binds_keep_their_kind_and_order(void **state)
{
	char dir[64], ro[128], rw[128], ext[128];
	char *const cmd[] = {"qemu-system-arm", "-M", "netduinoplus2", NULL};
	struct hil_jail *j = NULL;
	char **v = NULL;
	int i_ro, i_rw, i_dev, i_info, dash;

	(void)state;
	make_tree(dir, sizeof(dir));
	snprintf(ro, sizeof(ro), "%s/ro", dir);
	snprintf(rw, sizeof(rw), "%s/rw", dir);
	assert_int_equal(hil_jail_new(&j), HIL_OK);
	assert_int_equal(hil_jail_mem(j), HIL_JAIL_DEFAULT_MEM);
	assert_int_equal(hil_jail_bind(j, ro, HIL_JAIL_RO), HIL_OK);
	assert_int_equal(hil_jail_bind(j, rw, HIL_JAIL_RW), HIL_OK);
	assert_int_equal(hil_jail_bind(j, "/dev/null", HIL_JAIL_DEV), HIL_OK);
	hil_jail_with_sys(j);
	assert_int_equal(hil_jail_chdir(j, ro), HIL_OK);
	assert_int_equal(hil_jail_argv(j, cmd, 7, &v), HIL_OK);
	i_ro = find3(v, "--ro-bind", ro, ro);
	i_rw = find3(v, "--bind", rw, rw);
	i_dev = find3(v, "--dev-bind", "/dev/null", "/dev/null");
	i_info = find3(v, "--info-fd", "7", NULL);
	dash = find(v, 1, "--");
	assert_true(i_ro > 0 && i_rw > i_ro && i_dev > i_rw && dash > i_dev);
	assert_true(i_info > 0 && i_info < dash);
	assert_true(find3(v, "--ro-bind", "/sys", "/sys") > 0);
	assert_true(find3(v, "--chdir", ro, NULL) > 0);
	/* The writable folder is bound once, and nothing else is. */
	assert_int_equal(find(v, i_rw + 1, "--bind"), -1);
	assert_string_equal(v[dash + 1], "qemu-system-arm");
	assert_string_equal(v[dash + 3], "netduinoplus2");
	hil_jail_argv_free(v);

	/* A folder that does not exist is refused, naming it. */
	snprintf(ext, sizeof(ext), "%s/missing", dir);
	assert_int_equal(hil_jail_bind(j, ext, HIL_JAIL_RO), HIL_ERR_NA);
	hil_jail_free(j);
	remove_tree(dir);
}

/* A hundred folders (a configuration has at most 32), each with the one
 * folder of links beside it: every folder bound, the folder of links once. */
static void test_many_folders_bind_once_each(void **state)
{
	char dir[64], sub[128];
	char *const cmd[] = {"true", NULL};
	struct hil_jail *j = NULL;
	char **v = NULL;
	int k, n;

	(void)state;
	make_tree(dir, sizeof(dir));
	assert_int_equal(hil_jail_new(&j), HIL_OK);
	for (k = 0; k < 100; k++) {
		snprintf(sub, sizeof(sub), "%s/ro/f%d", dir, k);
		assert_int_equal(mkdir(sub, 0755), 0);
		assert_int_equal(hil_jail_bind(j, sub, HIL_JAIL_RO), HIL_OK);
		snprintf(sub, sizeof(sub), "%s/ro", dir);
		assert_int_equal(hil_jail_bind(j, sub, HIL_JAIL_RO), HIL_OK);
	}
	assert_int_equal(hil_jail_argv(j, cmd, -1, &v), HIL_OK);
	snprintf(sub, sizeof(sub), "%s/ro", dir);
	n = 0;
	for (k = 0; v[k] != NULL; k++) {
		n += strcmp(v[k], "--ro-bind") == 0 &&
		     strcmp(v[k + 1], sub) == 0;
	}
	assert_int_equal(n, 1);
	snprintf(sub, sizeof(sub), "%s/ro/f99", dir);
	assert_true(find3(v, "--ro-bind", sub, sub) > 0);
	hil_jail_argv_free(v);
	hil_jail_free(j);
	for (k = 0; k < 100; k++) {
		snprintf(sub, sizeof(sub), "%s/ro/f%d", dir, k);
		rmdir(sub);
	}
	remove_tree(dir);
}

/* A folder reached through a link is bound at its real path (the link
 * then leads there inside too), never the link's target as given. */
static void test_a_link_is_bound_as_what_it_leads_to(void **state)
{
	char dir[64], ro[128], link[128];
	char *const cmd[] = {"true", NULL};
	struct hil_jail *j = NULL;
	char **v = NULL;

	(void)state;
	make_tree(dir, sizeof(dir));
	snprintf(ro, sizeof(ro), "%s/ro", dir);
	snprintf(link, sizeof(link), "%s/link", dir);
	assert_int_equal(symlink(ro, link), 0);
	assert_int_equal(hil_jail_new(&j), HIL_OK);
	assert_int_equal(hil_jail_bind(j, link, HIL_JAIL_RW), HIL_OK);
	assert_int_equal(hil_jail_argv(j, cmd, -1, &v), HIL_OK);
	assert_true(find3(v, "--bind", ro, ro) > 0);
	assert_int_equal(find(v, 1, link), -1);
	hil_jail_argv_free(v);
	hil_jail_free(j);
	remove_tree(dir);
}

/* A program named by a path outside /usr: its real path is run and its
 * folder bound read-only, so a relative name works from any folder. */
static void test_a_program_by_path_is_made_visible(void **state)
{
	char dir[64], ro[128], prog[160], rel[200];
	char *cmd[] = {NULL, "x", NULL};
	char cwd[256];
	FILE *f;
	char **v = NULL;
	int dash;

	(void)state;
	make_tree(dir, sizeof(dir));
	snprintf(ro, sizeof(ro), "%s/ro", dir);
	snprintf(prog, sizeof(prog), "%s/tool", ro);
	f = fopen(prog, "w");
	assert_non_null(f);
	fclose(f);
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(dir), 0);
	snprintf(rel, sizeof(rel), "./ro/tool");
	cmd[0] = rel;
	assert_int_equal(hil_jail_argv(NULL, cmd, -1, &v), HIL_OK);
	assert_int_equal(chdir(cwd), 0);
	dash = find(v, 1, "--");
	assert_string_equal(v[dash + 1], prog);
	assert_string_equal(v[dash + 2], "x");
	assert_true(find3(v, "--ro-bind", ro, ro) > 0);
	hil_jail_argv_free(v);
	unlink(prog);
	remove_tree(dir);
}

/* A bare name found on hilrun's PATH outside /usr (a tool in /opt/X/bin,
 * a test's stand-in) is run by that path, its folder bound read-only; one
 * in /usr is left to bwrap's own search of the same PATH. */
static void test_a_program_on_path_outside_usr_is_made_visible(void **state)
{
	char dir[64], ro[128], prog[160], path[512];
	char *cmd[] = {"hiltest-jail-tool", "x", NULL};
	char *const make[] = {"make", NULL};
	const char *old = getenv("PATH");
	char *saved;
	FILE *f;
	char **v = NULL;
	int dash;

	(void)state;
	make_tree(dir, sizeof(dir));
	snprintf(ro, sizeof(ro), "%s/ro", dir);
	snprintf(prog, sizeof(prog), "%s/hiltest-jail-tool", ro);
	f = fopen(prog, "w");
	assert_non_null(f);
	fclose(f);
	assert_int_equal(chmod(prog, 0755), 0);
	saved = strdup(old != NULL ? old : "/usr/bin:/bin");
	assert_non_null(saved);
	snprintf(path, sizeof(path), "%s:%s", ro, saved);
	setenv("PATH", path, 1);
	assert_int_equal(hil_jail_argv(NULL, cmd, -1, &v), HIL_OK);
	dash = find(v, 1, "--");
	assert_string_equal(v[dash + 1], prog);
	assert_string_equal(v[dash + 2], "x");
	assert_true(find3(v, "--ro-bind", ro, ro) > 0);
	hil_jail_argv_free(v);
	assert_int_equal(hil_jail_argv(NULL, make, -1, &v), HIL_OK);
	dash = find(v, 1, "--");
	assert_string_equal(v[dash + 1], "make");
	hil_jail_argv_free(v);
	setenv("PATH", saved, 1);
	free(saved);
	unlink(prog);
	remove_tree(dir);
}

/* A cross toolchain on PATH outside /usr (scripts/cross-gcc.sh's DIR/bin):
 * the folder above its bin/ is bound read-only, whatever the program, so
 * that a jailed make finds the same compiler (and what it runs under
 * DIR/) as one outside. */
static void test_a_toolchain_on_path_is_made_visible(void **state)
{
	char dir[64], bin[128], gcc[192], path[512];
	char *const make[] = {"make", NULL};
	const char *old = getenv("PATH");
	char *saved;
	FILE *f;
	char **v = NULL;

	(void)state;
	make_tree(dir, sizeof(dir));
	snprintf(bin, sizeof(bin), "%s/ro", dir);
	snprintf(gcc, sizeof(gcc), "%s/arm-none-eabi-gcc", bin);
	saved = strdup(old != NULL ? old : "/usr/bin:/bin");
	assert_non_null(saved);
	snprintf(path, sizeof(path), "%s:%s", bin, saved);
	setenv("PATH", path, 1);
	/* Not executable: not the one PATH finds, nothing bound. */
	f = fopen(gcc, "w");
	assert_non_null(f);
	fclose(f);
	assert_int_equal(hil_jail_argv(NULL, make, -1, &v), HIL_OK);
	assert_true(find3(v, "--ro-bind", bin, bin) < 0);
	hil_jail_argv_free(v);
	/* In a folder not named bin: that folder. */
	assert_int_equal(chmod(gcc, 0755), 0);
	assert_int_equal(hil_jail_argv(NULL, make, -1, &v), HIL_OK);
	assert_true(find3(v, "--ro-bind", bin, bin) > 0);
	hil_jail_argv_free(v);
	unlink(gcc);
	/* In DIR/bin: DIR. */
	snprintf(bin, sizeof(bin), "%s/rw/bin", dir);
	assert_int_equal(mkdir(bin, 0755), 0);
	snprintf(gcc, sizeof(gcc), "%s/arm-none-eabi-gcc", bin);
	f = fopen(gcc, "w");
	assert_non_null(f);
	fclose(f);
	assert_int_equal(chmod(gcc, 0755), 0);
	snprintf(path, sizeof(path), "%s:%s", bin, saved);
	setenv("PATH", path, 1);
	assert_int_equal(hil_jail_argv(NULL, make, -1, &v), HIL_OK);
	snprintf(path, sizeof(path), "%s/rw", dir);
	assert_true(find3(v, "--ro-bind", path, path) > 0);
	assert_true(find3(v, "--ro-bind", bin, bin) < 0);
	hil_jail_argv_free(v);
	setenv("PATH", saved, 1);
	free(saved);
	unlink(gcc);
	rmdir(bin);
	remove_tree(dir);
}

static void test_an_empty_command_is_refused(void **state)
{
	char *const empty[] = {NULL};
	char **v = (char **)1;

	(void)state;
	assert_int_equal(hil_jail_argv(NULL, empty, -1, &v), HIL_ERR_ARG);
	assert_null(v);
}

/* Where bwrap runs but the kernel refuses it namespaces, the probe says so
 * in bwrap's words (a stand-in bwrap first on PATH says what a refusing
 * kernel makes the real one say). */
static void test_a_refused_jail_is_said(void **state)
{
	char dir[64], prog[128], path[4200], why[512];
	const char *old = getenv("PATH");
	char saved[4096];
	FILE *f;
	int ret;

	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/test-jail-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(prog, sizeof(prog), "%s/bwrap", dir);
	f = fopen(prog, "w");
	assert_non_null(f);
	fputs("#!/bin/sh\necho 'bwrap: No permissions to create new namespace, "
	      "likely because the kernel does not allow non-privileged user "
	      "namespaces.' >&2\nexit 1\n",
	      f);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(prog, 0755), 0);
	snprintf(saved, sizeof(saved), "%s",
		 old != NULL ? old : "/usr/bin:/bin");
	snprintf(path, sizeof(path), "%s:%s", dir, saved);
	setenv("PATH", path, 1);
	ret = hil_jail_probe(why, sizeof(why));
	setenv("PATH", saved, 1);
	unlink(prog);
	rmdir(dir);
	assert_int_equal(ret, HIL_ERR_PROCESS);
	assert_non_null(strstr(why, "cannot set up a sandbox here"));
	assert_non_null(strstr(why, "No permissions to create new namespace"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_jail_is_closed_and_powerless),
		cmocka_unit_test(test_binds_keep_their_kind_and_order),
		cmocka_unit_test(test_many_folders_bind_once_each),
		cmocka_unit_test(test_a_link_is_bound_as_what_it_leads_to),
		cmocka_unit_test(test_a_program_by_path_is_made_visible),
		cmocka_unit_test(
			test_a_program_on_path_outside_usr_is_made_visible),
		cmocka_unit_test(test_a_toolchain_on_path_is_made_visible),
		cmocka_unit_test(test_an_empty_command_is_refused),
		cmocka_unit_test(test_a_refused_jail_is_said),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
