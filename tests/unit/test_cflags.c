/* Unit tests of the one compiler-flag allowlist: every way flags arrive (config, --cflags, sweep, lab job) refuses what runs a program, loads code or names a file, and says why. */
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

#include "cli/cmd_run.h"
#include "config/cflags.h"
#include "config/config.h"
#include "run/sweep.h"
#include "util/err.h"
#include "unit_util.h"

struct fx {
	char dir[64];
};

static int setup(void **state)
{
	struct fx *fx = calloc(1, sizeof(*fx));

	if (fx == NULL) {
		return -1;
	}
	snprintf(fx->dir, sizeof(fx->dir), "/tmp/hilrun-cflags-XXXXXX");
	if (mkdtemp(fx->dir) == NULL) {
		free(fx);
		return -1;
	}
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fx *fx = *state;
	int ret = ut_rm_tree(fx->dir);

	free(fx);
	return ret;
}

/* The flag is refused and the reason says `says`. */
static void refused(const char *flag, const char *says)
{
	char why[512];

	if (hil_cflag_allowed(flag, NULL, why, sizeof(why))) {
		fail_msg("%s: allowed", flag);
	}
	if (strstr(why, says) == NULL) {
		fail_msg("%s: \"%s\" does not say \"%s\"", flag, why, says);
	}
}

static void allowed(const char *flag)
{
	char why[512];

	if (!hil_cflag_allowed(flag, NULL, why, sizeof(why))) {
		fail_msg("%s: refused: %s", flag, why);
	}
}

/* The inputs of issue #33's hostile run, each refused by name. */
static void test_cflags_refuse_the_hostile_flags(void **state)
{
	(void)state;
	refused("-fcompare-debug=-B..", "runs the compiler again");
	refused("-fcompare-debug=-save-temps", "runs the compiler again");
	refused("-fcompare-debug", "runs the compiler again");
	refused("-foffload=-B..", "runs an offload compiler");
	refused("-fplugin=evil.so", "loads a shared object");
	refused("-fplugin-arg-evil-x=1", "loads a shared object");
	refused("-Ispool/incoming/.hdr", "absolute path");
	refused("-B..", "runs programs");
	refused("-specs=x", "specs file");
	refused("--specs=x", "specs file");
	refused("-wrapper", "runs the compiler's programs");
	refused("-save-temps", "intermediate files");
	refused("-fdump-tree-all", "dump files");
	refused("-fprofile-generate", "profile");
	refused("-fprofile-use=x", "profile");
	refused("-MF/tmp/x", "dependency files");
	refused("-MMD", "dependency files");
	refused("-flto", "symbol isolation");
	refused("-fno-lto", "symbol isolation");
	refused("-fuse-ld=gold", "linker program");
	refused("-include", "a file of its choosing");
	refused("-isystem/usr", "include folder");
	refused("-Wl,-T,x", "linker");
	refused("-Wa,-x", "assembler");
	refused("-Wp,-MD,x", "preprocessor");
	refused("-Werror=x", "without a value");
	refused("@file", "response file");
	refused("-o", "output file");
	/* Not on the list at all: a deny list would have let these in. */
	refused("-fself-test=x", "not on the allowlist");
	refused("-frandom-seed=x", "not on the allowlist");
	refused("-fdebug-prefix-map=a=b", "not on the allowlist");
	refused("-fstack-usage", "writes a file");
	refused("-O9", "not on the allowlist");
	refused("-Ofast", "not on the allowlist");
	refused("-march=native", "-march takes one of");
	refused("-mcpu=cortex-a53", "-mcpu takes one of");
	refused("-mfloat-abi=x", "-mfloat-abi takes one of");
	refused("-std=c++2b-evil", "-std= takes");
	refused("-funroll-loops=3", "takes no value");
	refused("-finline-limit=x", "takes =N");
	refused("-falign-functions=99999999", "takes no value or =N");
	refused("--param=max-unroll-times=x", "takes a number");
	refused("--param=evil=1", "NAME one of");
	refused("-DX=a/b", "letters, digits");
	refused("-D1X", "macro name");
	refused("-UX=1", "-U takes a macro name only");
}

static void test_cflags_allow_what_benchmarks_need(void **state)
{
	static const char *const ok[] = {
		"-O0",
		"-O1",
		"-O2",
		"-O3",
		"-Os",
		"-Oz",
		"-Og",
		"-march=armv7e-m",
		"-mcpu=cortex-m4",
		"-mtune=cortex-m7",
		"-mthumb",
		"-mfloat-abi=soft",
		"-mfpu=fpv4-sp-d16",
		"-funroll-loops",
		"-fno-unroll-loops",
		"-finline-functions",
		"-fno-inline",
		"-fomit-frame-pointer",
		"-fno-strict-aliasing",
		"-finline-limit=200",
		"-falign-functions=16",
		"-falign-loops",
		"--param=max-unroll-times=4",
		"-DNDEBUG",
		"-DROUNDS=12",
		"-DVARIANT=a.b-c+1",
		"-UNDEBUG",
		"-Wall",
		"-Wextra",
		"-Wno-unused-parameter",
		"-Werror",
		"-w",
		"-g",
		"-std=c99",
		"-std=gnu11",
		"-std=c++17",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		allowed(ok[i]);
	}
}

/* -I only of a folder inside the configuration's own implementation
 * folder: absolute, no "." or "..", no link on the way. */
static void test_cflags_include_only_inside_the_implementation(void **state)
{
	struct fx *fx = *state;
	char impl[128], inc[160], link[160], out[128], flag[256], why[512];
	struct hil_config cfg = {0};

	snprintf(impl, sizeof(impl), "%s/impl", fx->dir);
	snprintf(inc, sizeof(inc), "%s/impl/inc", fx->dir);
	snprintf(out, sizeof(out), "%s/out", fx->dir);
	snprintf(link, sizeof(link), "%s/impl/out", fx->dir);
	assert_int_equal(mkdir(impl, 0755), 0);
	assert_int_equal(mkdir(inc, 0755), 0);
	assert_int_equal(mkdir(out, 0755), 0);
	assert_int_equal(symlink(out, link), 0);
	hil_config_defaults(&cfg);
	{
		struct hil_config_alg *a;

		assert_int_equal(hil_config_add_alg(&cfg, &a), HIL_OK);
	}
	snprintf(cfg.algs[0].name, sizeof(cfg.algs[0].name), "ascon-aead128");
	snprintf(cfg.algs[0].impl, sizeof(cfg.algs[0].impl), "mine");
	snprintf(cfg.algs[0].path, sizeof(cfg.algs[0].path), "%s", impl);

	snprintf(flag, sizeof(flag), "-I%s", inc);
	assert_true(hil_cflag_allowed(flag, &cfg, why, sizeof(why)));
	snprintf(flag, sizeof(flag), "-I%s", impl);
	assert_true(hil_cflag_allowed(flag, &cfg, why, sizeof(why)));
	/* Without the configuration, no -I at all. */
	assert_false(hil_cflag_allowed(flag, NULL, why, sizeof(why)));

	snprintf(flag, sizeof(flag), "-I%s", out);
	assert_false(hil_cflag_allowed(flag, &cfg, why, sizeof(why)));
	assert_non_null(strstr(why, "outside this configuration's"));
	snprintf(flag, sizeof(flag), "-I%s/impl/../out", fx->dir);
	assert_false(hil_cflag_allowed(flag, &cfg, why, sizeof(why)));
	assert_non_null(strstr(why, "\"..\""));
	snprintf(flag, sizeof(flag), "-I%s", link);
	assert_false(hil_cflag_allowed(flag, &cfg, why, sizeof(why)));
	assert_non_null(strstr(why, "link"));
	assert_false(hil_cflag_allowed("-Ispool/incoming/.hdr", &cfg, why,
				       sizeof(why)));
	hil_config_free(&cfg);
}

/* A configuration file is held to the allowlist, naming the entry. */
static void test_cflags_config_file_refuses_and_names_the_entry(void **state)
{
	struct fx *fx = *state;
	char path[128], err[512];
	struct hil_config cfg = {0};

	snprintf(path, sizeof(path), "%s/c.json", fx->dir);
	ut_write_squoted(path, "{'algorithms': ['ascon-aead128'],"
			       " 'build': {'cflags': ['-O2', "
			       "'-fcompare-debug=-B..']}}");
	assert_int_equal(hil_config_load(path, &cfg, err, sizeof(err)),
			 HIL_ERR_CONFIG);
	assert_non_null(strstr(err, "build.cflags[1]"));
	assert_non_null(strstr(err, "-fcompare-debug=-B.."));
	assert_non_null(strstr(err, "runs the compiler again"));
	hil_config_free(&cfg);
}

/* issue #31 item 5: `hilrun run --cflags "-O2 -fplugin=evil.so"`. */
static void test_cflags_command_line_cflags_are_held_to_it(void **state)
{
	struct fx *fx = *state;
	struct quick q;
	struct hil_config cfg = {0};
	char path[128];

	snprintf(path, sizeof(path), "%s/base.json", fx->dir);
	ut_write_squoted(path, "{'algorithms': ['ascon-aead128']}");
	memset(&q, 0, sizeof(q));
	q.runs = -1;
	q.warmup = -1;
	q.cflags = "-O2 -fplugin=evil.so";
	assert_int_equal(cli_load_run_config(path, &q, &cfg), HIL_ERR_CONFIG);
	q.cflags = "-O2 -funroll-loops";
	assert_int_equal(cli_load_run_config(path, &q, &cfg), HIL_OK);
	assert_int_equal(cfg.build.n_cflags, 2);
	hil_config_free(&cfg);
}

/* A sweep's flag sets bypassed the loader: the same allowlist now. */
static void test_cflags_sweep_flag_sets_are_held_to_it(void **state)
{
	struct fx *fx = *state;
	struct hil_sweep sw;
	char base[128], path[128], err[512];

	snprintf(base, sizeof(base), "%s/small.json", fx->dir);
	ut_write_squoted(base, "{'algorithms': ['ascon-aead128']}");
	snprintf(path, sizeof(path), "%s/sweep.json", fx->dir);
	ut_write_squoted(path, "{'base': 'small.json', 'cflags': [['-O2'],"
			       " ['-O2', '-fcompare-debug=-save-temps']]}");
	memset(&sw, 0, sizeof(sw));
	assert_int_equal(hil_sweep_load(path, &sw, err, sizeof(err)),
			 HIL_ERR_CONFIG);
	hil_sweep_free(&sw);
	assert_non_null(strstr(err, "cflags[1][1]"));
	assert_non_null(strstr(err, "runs the compiler again"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cflags_refuse_the_hostile_flags),
		cmocka_unit_test(test_cflags_allow_what_benchmarks_need),
		cmocka_unit_test_setup_teardown(
			test_cflags_include_only_inside_the_implementation,
			setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_cflags_config_file_refuses_and_names_the_entry,
			setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_cflags_command_line_cflags_are_held_to_it, setup,
			teardown),
		cmocka_unit_test_setup_teardown(
			test_cflags_sweep_flag_sets_are_held_to_it, setup,
			teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
