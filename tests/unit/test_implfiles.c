/* Unit tests of what an implementation folder may hold when a configuration names it: no FIFO or device anywhere, and, inside a lab's roots, no link (source file or tree entry) leading out of them. */
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

#include "config/config.h"
#include "util/err.h"
#include "unit_util.h"

/* dir/root is the lab's root; dir/outside is not. */
struct fx {
	char dir[64];
	char root[96];
	struct hil_config_roots roots;
};

static int setup(void **state)
{
	struct fx *fx = calloc(1, sizeof(*fx));

	if (fx == NULL) {
		return -1;
	}
	snprintf(fx->dir, sizeof(fx->dir), "/tmp/hilrun-implfiles-XXXXXX");
	if (mkdtemp(fx->dir) == NULL) {
		free(fx);
		return -1;
	}
	snprintf(fx->root, sizeof(fx->root), "%s/root", fx->dir);
	fx->roots.dir[0] = fx->root;
	fx->roots.n = 1;
	*state = fx;
	return mkdir(fx->root, 0755);
}

static int teardown(void **state)
{
	struct fx *fx = *state;
	int ret = ut_rm_tree(fx->dir);

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

static void ln(const struct fx *fx, const char *target_rel, const char *rel)
{
	char p[256], t[256];

	snprintf(p, sizeof(p), "%s/%s", fx->dir, rel);
	snprintf(t, sizeof(t), "%s/%s", fx->dir, target_rel);
	assert_int_equal(symlink(t, p), 0);
}

/* An implementation folder root/impl with api.h and encrypt.c. */
static void impl(const struct fx *fx, const char *rel)
{
	char p[256];

	mk(fx, rel);
	snprintf(p, sizeof(p), "%s/api.h", rel);
	put(fx, p, "#define CRYPTO_KEYBYTES 16\n");
	snprintf(p, sizeof(p), "%s/encrypt.c", rel);
	put(fx, p, "int x;\n");
}

/* Load {"algorithms": [ENTRY]} from root/c.json, with or without roots. */
static int load(const struct fx *fx, const char *entry, int with_roots,
		char *err, size_t len)
{
	char path[256], text[1024];
	struct hil_config cfg = {0};
	int ret;

	snprintf(path, sizeof(path), "%s/c.json", fx->root);
	snprintf(text, sizeof(text), "{'algorithms': [%s]}", entry);
	ut_write_squoted(path, text);
	ret = with_roots ? hil_config_load_in(path, &fx->roots, &cfg, err, len)
			 : hil_config_load(path, &cfg, err, len);
	hil_config_free(&cfg);
	return ret;
}

#define MINE "{'name': 'ascon-aead128', 'impl': 'mine', 'path': 'impl'}"

/* issue #33 finding 12: a FIFO source file used to hold make for its whole
 * timeout; now the configuration is refused as it loads, naming it. */
static void test_implfiles_fifo_source_refused_at_load(void **state)
{
	struct fx *fx = *state;
	char p[256], err[1024];

	impl(fx, "root/impl");
	snprintf(p, sizeof(p), "%s/root/impl/more.c", fx->dir);
	assert_int_equal(mkfifo(p, 0644), 0);
	assert_int_equal(load(fx, MINE, 0, err, sizeof(err)), HIL_ERR_CONFIG);
	assert_non_null(strstr(err, "algorithms[0]"));
	assert_non_null(strstr(err, "more.c"));
	assert_non_null(strstr(err, "a FIFO"));
	/* In a sub-folder too (a header included from there). */
	assert_int_equal(unlink(p), 0);
	mk(fx, "root/impl/inc");
	snprintf(p, sizeof(p), "%s/root/impl/inc/stdint.h", fx->dir);
	assert_int_equal(mkfifo(p, 0644), 0);
	assert_int_equal(load(fx, MINE, 0, err, sizeof(err)), HIL_ERR_CONFIG);
	assert_non_null(strstr(err, "inc/stdint.h"));
	assert_int_equal(unlink(p), 0);
	assert_int_equal(load(fx, MINE, 0, err, sizeof(err)), HIL_OK);
}

/* issue #33 finding 8: a source file that is a link to a file outside the
 * roots was compiled and quoted into build.log. */
static void test_implfiles_link_out_of_the_roots_refused(void **state)
{
	struct fx *fx = *state;
	char err[1024];

	impl(fx, "root/impl");
	mk(fx, "outside");
	put(fx, "outside/secret.txt", "SECRET\n");
	ln(fx, "outside/secret.txt", "root/impl/aux.c");
	assert_int_equal(load(fx, MINE, 1, err, sizeof(err)), HIL_ERR_CONFIG);
	assert_non_null(strstr(err, "aux.c"));
	assert_non_null(strstr(err, "outside the lab's roots"));
	assert_null(strstr(err, "SECRET"));
	/* A link that stays inside the roots (pqm4 shares files this way). */
	{
		char p[256];

		snprintf(p, sizeof(p), "%s/root/impl/aux.c", fx->dir);
		assert_int_equal(unlink(p), 0);
	}
	put(fx, "root/shared.c", "int s;\n");
	ln(fx, "root/shared.c", "root/impl/aux.c");
	assert_int_equal(load(fx, MINE, 1, err, sizeof(err)), HIL_OK);
	/* A linked folder, even one looping back up, is not walked. */
	ln(fx, "root", "root/impl/up");
	assert_int_equal(load(fx, MINE, 1, err, sizeof(err)), HIL_OK);
}

/* issue #33 finding 7: a tree entry that is a link to a folder outside the
 * roots was built and loaded, where "path" to it was refused. */
static void test_implfiles_tree_entry_out_of_the_roots_refused(void **state)
{
	struct fx *fx = *state;
	char err[1024];

	mk(fx, "root/tree");
	mk(fx, "root/tree/alg");
	impl(fx, "root/tree/alg/ok");
	mk(fx, "outside");
	impl(fx, "outside/evil");
	ln(fx, "outside/evil", "root/tree/alg/evil");
	assert_int_equal(load(fx, "{'tree': 'tree'}", 1, err, sizeof(err)),
			 HIL_ERR_CONFIG);
	assert_non_null(strstr(err, "algorithms[0]"));
	assert_non_null(strstr(err, "alg/evil"));
	assert_non_null(strstr(err, "outside"));
	assert_int_equal(load(fx, "{'tree': 'tree', 'pattern': 'alg/ok'}", 1,
			      err, sizeof(err)),
			 HIL_OK);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_implfiles_fifo_source_refused_at_load),
		T(test_implfiles_link_out_of_the_roots_refused),
		T(test_implfiles_tree_entry_out_of_the_roots_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
#undef T
}
