/* cflags: the one allowlist of compiler flags, for every way flags arrive (config files, lab jobs, --cflags, sweeps). */
#define _XOPEN_SOURCE 700
#include "cflags.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/err.h"

/*
 * Everything here is an exact list: a flag that is not on it is refused,
 * whatever it looks like. What a benchmark needs is optimisation levels,
 * the target's code-generation choices, macros, warnings and a language
 * standard; nothing here names a file, a folder (but -I, checked below) or
 * a program. Options such as -fcompare-debug=, -foffload=, -fplugin=,
 * -fprofile-*, -fdump-*, -B, -specs, -wrapper, -save-temps, -M* and @file
 * load code into the compiler, run a program or write files of their own,
 * so they are absent, and so is -flto (the image's implementations are
 * partially linked and localised, which LTO objects defeat).
 */

static const char *const o_levels[] = {"-O0", "-O1", "-O2", "-O3",
				       "-Os", "-Oz", "-Og", NULL};

static const char *const plain[] = {"-g",
				    "-g0",
				    "-g1",
				    "-g2",
				    "-g3",
				    "-ggdb",
				    "-w",
				    "-pedantic",
				    "-pedantic-errors",
				    "-ansi",
				    "-mthumb",
				    "-mslow-flash-data",
				    "-munaligned-access",
				    "-mno-unaligned-access",
				    "-mlong-calls",
				    "-mno-long-calls",
				    "-mpure-code",
				    NULL};

static const char *const archs[] = {"armv6-m",
				    "armv6s-m",
				    "armv7-m",
				    "armv7e-m",
				    "armv7e-m+fp",
				    "armv7e-m+fpv5",
				    "armv7e-m+fpv5.d16",
				    "armv7e-m+nofp",
				    "armv8-m.base",
				    "armv8-m.main",
				    "armv8-m.main+dsp",
				    "armv8-m.main+fp",
				    "armv8-m.main+dsp+fp",
				    "armv8.1-m.main",
				    "armv8.1-m.main+mve",
				    NULL};

static const char *const cpus[] = {"cortex-m0",
				   "cortex-m0plus",
				   "cortex-m0.small-multiply",
				   "cortex-m0plus.small-multiply",
				   "cortex-m1",
				   "cortex-m3",
				   "cortex-m4",
				   "cortex-m4+nofp",
				   "cortex-m7",
				   "cortex-m7+nofp",
				   "cortex-m23",
				   "cortex-m33",
				   "cortex-m33+nodsp",
				   "cortex-m35p",
				   "cortex-m55",
				   "cortex-m85",
				   NULL};

static const char *const float_abis[] = {"soft", "softfp", "hard", NULL};

static const char *const fpus[] = {"auto",     "fpv4-sp-d16", "fpv5-sp-d16",
				   "fpv5-d16", "vfpv3xd",     "vfpv3xd-fp16",
				   NULL};

static const char *const stds[] = {"c89",
				   "c90",
				   "c99",
				   "c11",
				   "c17",
				   "c18",
				   "c2x",
				   "c23",
				   "gnu89",
				   "gnu90",
				   "gnu99",
				   "gnu11",
				   "gnu17",
				   "gnu18",
				   "gnu2x",
				   "gnu23",
				   "iso9899:1990",
				   "iso9899:199409",
				   "iso9899:1999",
				   "iso9899:2011",
				   "iso9899:2017",
				   "iso9899:2018",
				   "c++98",
				   "c++03",
				   "c++11",
				   "c++14",
				   "c++17",
				   "c++20",
				   "gnu++98",
				   "gnu++03",
				   "gnu++11",
				   "gnu++14",
				   "gnu++17",
				   "gnu++20",
				   NULL};

/* -m options with a value from a list. */
static const struct {
	const char *name; /* "-march=" */
	const char *const *values;
} m_valued[] = {
	{"-march=", archs},	      {"-mcpu=", cpus}, {"-mtune=", cpus},
	{"-mfloat-abi=", float_abis}, {"-mfpu=", fpus},
};

/* -f options: F_BOOL takes no value and has a -fno- form; F_NUM also (or
 * only, F_NUM alone) takes "=N". */
enum { F_BOOL = 1, F_NUM = 2 };
static const struct {
	const char *name;
	int kind;
} f_opts[] = {
	{"align-functions", F_BOOL | F_NUM},
	{"align-jumps", F_BOOL | F_NUM},
	{"align-labels", F_BOOL | F_NUM},
	{"align-loops", F_BOOL | F_NUM},
	{"builtin", F_BOOL},
	{"common", F_BOOL},
	{"conserve-stack", F_BOOL},
	{"cprop-registers", F_BOOL},
	{"data-sections", F_BOOL},
	{"delete-null-pointer-checks", F_BOOL},
	{"expensive-optimizations", F_BOOL},
	{"fast-math", F_BOOL},
	{"freestanding", F_BOOL},
	{"function-sections", F_BOOL},
	{"gcse", F_BOOL},
	{"gnu89-inline", F_BOOL},
	{"if-conversion", F_BOOL},
	{"if-conversion2", F_BOOL},
	{"inline", F_BOOL},
	{"inline-functions", F_BOOL},
	{"inline-functions-called-once", F_BOOL},
	{"inline-limit", F_NUM},
	{"inline-small-functions", F_BOOL},
	{"ipa-cp", F_BOOL},
	{"ipa-cp-clone", F_BOOL},
	{"ipa-icf", F_BOOL},
	{"ipa-pta", F_BOOL},
	{"ipa-ra", F_BOOL},
	{"ipa-sra", F_BOOL},
	{"ivopts", F_BOOL},
	{"loop-interchange", F_BOOL},
	{"math-errno", F_BOOL},
	{"max-errors", F_NUM},
	{"merge-constants", F_BOOL},
	{"move-loop-invariants", F_BOOL},
	{"omit-frame-pointer", F_BOOL},
	{"optimize-sibling-calls", F_BOOL},
	{"peel-loops", F_BOOL},
	{"peephole2", F_BOOL},
	{"predictive-commoning", F_BOOL},
	{"rename-registers", F_BOOL},
	{"reorder-blocks", F_BOOL},
	{"reorder-functions", F_BOOL},
	{"schedule-insns", F_BOOL},
	{"schedule-insns2", F_BOOL},
	{"short-enums", F_BOOL},
	{"shrink-wrap", F_BOOL},
	{"signed-char", F_BOOL},
	{"split-loops", F_BOOL},
	{"stack-protector", F_BOOL},
	{"stack-protector-all", F_BOOL},
	{"stack-protector-strong", F_BOOL},
	{"strict-aliasing", F_BOOL},
	{"strict-overflow", F_BOOL},
	{"tree-loop-vectorize", F_BOOL},
	{"tree-pre", F_BOOL},
	{"tree-slp-vectorize", F_BOOL},
	{"tree-vectorize", F_BOOL},
	{"tree-vrp", F_BOOL},
	{"unroll-all-loops", F_BOOL},
	{"unroll-loops", F_BOOL},
	{"unsigned-char", F_BOOL},
	{"unswitch-loops", F_BOOL},
	{"web", F_BOOL},
	{"wrapv", F_BOOL},
};

/* --param=NAME=N: the tuning knobs of inlining and unrolling. */
static const char *const params[] = {
	"early-inlining-insns",	       "inline-unit-growth",
	"large-function-growth",       "max-average-unrolled-insns",
	"max-completely-peeled-insns", "max-inline-insns-auto",
	"max-inline-insns-single",     "max-unroll-times",
	"max-unrolled-insns",	       NULL};

/* Why the flags people try most are absent (the rest: "not on it"). */
static const struct {
	const char *prefix;
	const char *why;
} refused[] = {
	{"-fplugin", "loads a shared object into the compiler"},
	{"-fcompare-debug", "runs the compiler again with options of its own"},
	{"-foffload", "runs an offload compiler with options of its own"},
	{"-fprofile", "reads or writes profile files"},
	{"-fauto-profile", "reads a profile file"},
	{"-fdump", "writes dump files"},
	{"-fstack-usage", "writes a file beside each object"},
	{"-fcallgraph-info", "writes a file beside each object"},
	{"-fuse-ld", "chooses the linker program"},
	{"-flto",
	 "breaks the image's symbol isolation (implementations are partially linked and localised)"},
	{"-fsanitize", "needs a run-time library the board does not have"},
	{"-B", "runs programs from a folder of its choosing"},
	{"-specs", "reads a specs file, which can run programs"},
	{"--specs", "reads a specs file, which can run programs"},
	{"-wrapper", "runs the compiler's programs under another program"},
	{"-save-temps", "writes intermediate files"},
	{"-M", "writes dependency files"},
	{"-o", "names an output file"},
	{"-include", "includes a file of its choosing"},
	{"-imacros", "includes a file of its choosing"},
	{"-iquote",
	 "adds an include folder (only -I of an implementation's own folder is allowed)"},
	{"-isystem",
	 "adds an include folder (only -I of an implementation's own folder is allowed)"},
	{"-idirafter",
	 "adds an include folder (only -I of an implementation's own folder is allowed)"},
	{"-Wl,", "passes options to the linker"},
	{"-Wa,", "passes options to the assembler"},
	{"-Wp,", "passes options to the preprocessor"},
	{"-Xlinker", "passes options to the linker"},
	{"-Xassembler", "passes options to the assembler"},
	{"-Xpreprocessor", "passes options to the preprocessor"},
};

static int starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

static int listed(const char *const *list, const char *s)
{
	size_t i;

	for (i = 0; list[i] != NULL; i++) {
		if (strcmp(list[i], s) == 0) {
			return 1;
		}
	}
	return 0;
}

/* A decimal number of 1 to 6 digits. */
static int is_number(const char *s)
{
	size_t n = strspn(s, "0123456789");

	return n > 0 && n <= 6 && s[n] == '\0';
}

/* NAME or NAME=VALUE: a C identifier and a value of [A-Za-z0-9_.+-]. */
static int macro_ok(const char *s, int value_allowed, char *why, size_t len)
{
	const char *p = s;

	if (!(isalpha((unsigned char)*p) || *p == '_')) {
		snprintf(why, len, "expected a macro name (a C identifier)");
		return 0;
	}
	while (isalnum((unsigned char)*p) || *p == '_') {
		p++;
	}
	if (*p == '\0') {
		return 1;
	}
	if (*p != '=' || !value_allowed) {
		snprintf(why, len,
			 value_allowed ? "expected NAME or NAME=VALUE"
				       : "-U takes a macro name only");
		return 0;
	}
	p++;
	if (p[strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			"0123456789_.+-")] != '\0') {
		snprintf(
			why, len,
			"a macro's value may hold letters, digits and \"_ . + -\" only");
		return 0;
	}
	return 1;
}

/* "a, b or c" of a list, for a message. */
static void join(char *buf, size_t len, const char *const *list)
{
	size_t i, o = 0;

	buf[0] = '\0';
	for (i = 0; list[i] != NULL && o < len; i++) {
		o += (size_t)snprintf(buf + o, len - o, "%s%s",
				      i == 0		    ? ""
				      : list[i + 1] == NULL ? " or "
							    : ", ",
				      list[i]);
	}
}

/*
 * -I of a folder inside one of cfg's implementation folders. It must be
 * absolute (make runs the compiler from the hilrun tree, so a relative one
 * would mean another folder than the configuration's), without "." or
 * "..", and equal to its own real path: no link anywhere on the way, so
 * that what was checked is what the compiler opens.
 */
static int include_ok(const char *dir, const struct hil_config *cfg, char *why,
		      size_t len)
{
	char real[PATH_MAX];
	struct stat st;
	const char *p;
	size_t i;

	if (dir[0] != '/') {
		snprintf(
			why, len,
			"-I takes the absolute path of a folder inside an implementation folder of this configuration");
		return 0;
	}
	for (p = dir; *p != '\0';) {
		size_t n;

		while (*p == '/') {
			p++;
		}
		n = strcspn(p, "/");
		if ((n == 1 && p[0] == '.') ||
		    (n == 2 && p[0] == '.' && p[1] == '.')) {
			snprintf(why, len,
				 "-I: no \".\" or \"..\" in the path");
			return 0;
		}
		p += n;
	}
	if (realpath(dir, real) == NULL || stat(real, &st) != 0 ||
	    !S_ISDIR(st.st_mode)) {
		snprintf(why, len, "-I: not a folder");
		return 0;
	}
	if (strcmp(real, dir) != 0 &&
	    !(strlen(dir) == strlen(real) + 1 && dir[strlen(real)] == '/' &&
	      strncmp(real, dir, strlen(real)) == 0)) {
		snprintf(
			why, len,
			"-I: the path goes through a link (its real path is %s)",
			real);
		return 0;
	}
	for (i = 0; cfg != NULL && i < cfg->n_algs; i++) {
		char impl[PATH_MAX];
		size_t n;

		if (cfg->algs[i].path[0] == '\0' ||
		    realpath(cfg->algs[i].path, impl) == NULL) {
			continue;
		}
		n = strlen(impl);
		if (strncmp(real, impl, n) == 0 &&
		    (real[n] == '/' || real[n] == '\0')) {
			return 1;
		}
	}
	snprintf(
		why, len,
		"-I of a folder outside this configuration's implementation folders");
	return 0;
}

int hil_cflag_allowed(const char *flag, const struct hil_config *cfg, char *why,
		      size_t why_len)
{
	char list[512];
	const char *name;
	size_t i;
	int no = 0;

	why[0] = '\0';
	if (flag[0] != '-') {
		snprintf(why, why_len, "not an option (%s)",
			 flag[0] == '@' ? "a response file"
					: "a flag starts with \"-\"");
		return 0;
	}
	if (listed(o_levels, flag) || listed(plain, flag)) {
		return 1;
	}
	for (i = 0; i < sizeof(m_valued) / sizeof(m_valued[0]); i++) {
		if (starts(flag, m_valued[i].name)) {
			if (listed(m_valued[i].values,
				   flag + strlen(m_valued[i].name))) {
				return 1;
			}
			join(list, sizeof(list), m_valued[i].values);
			snprintf(why, why_len, "%.*s takes one of %s",
				 (int)strlen(m_valued[i].name) - 1,
				 m_valued[i].name, list);
			return 0;
		}
	}
	if (starts(flag, "-std=")) {
		if (listed(stds, flag + 5)) {
			return 1;
		}
		snprintf(
			why, why_len,
			"-std= takes a C or C++ standard (c99, gnu11, c++17, ...)");
		return 0;
	}
	if (starts(flag, "-D") || starts(flag, "-U")) {
		return macro_ok(flag + 2, flag[1] == 'D', why, why_len);
	}
	if (starts(flag, "--param=")) {
		const char *eq = strchr(flag + 8, '=');

		for (i = 0; eq != NULL && params[i] != NULL; i++) {
			if (strlen(params[i]) == (size_t)(eq - (flag + 8)) &&
			    strncmp(params[i], flag + 8, strlen(params[i])) ==
				    0) {
				if (is_number(eq + 1)) {
					return 1;
				}
				snprintf(why, why_len,
					 "--param=%s= takes a number",
					 params[i]);
				return 0;
			}
		}
		join(list, sizeof(list), params);
		snprintf(why, why_len, "--param= takes NAME=N, NAME one of %s",
			 list);
		return 0;
	}
	if (starts(flag, "-I")) {
		return include_ok(flag + 2, cfg, why, why_len);
	}
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		if (starts(flag, refused[i].prefix) ||
		    (starts(flag, "-fno-") && refused[i].prefix[1] == 'f' &&
		     starts(flag + 5, refused[i].prefix + 2))) {
			snprintf(why, why_len, "%s", refused[i].why);
			return 0;
		}
	}
	if (starts(flag, "-W") && flag[2] != '\0') {
		/* Warnings by name only: a value (-Werror=x, -Wlarger-than=)
		 * or a comma is not needed to benchmark. */
		for (i = 2; flag[i] != '\0'; i++) {
			if (!(islower((unsigned char)flag[i]) ||
			      isdigit((unsigned char)flag[i]) ||
			      flag[i] == '-')) {
				snprintf(
					why, why_len,
					"-W warnings by name only, without a value");
				return 0;
			}
		}
		return 1;
	}
	if (starts(flag, "-f")) {
		const char *eq;

		name = flag + 2;
		if (starts(name, "no-")) {
			name += 3;
			no = 1;
		}
		eq = strchr(name, '=');
		for (i = 0; i < sizeof(f_opts) / sizeof(f_opts[0]); i++) {
			size_t n = strlen(f_opts[i].name);

			if (strncmp(name, f_opts[i].name, n) != 0 ||
			    (name[n] != '\0' && name[n] != '=')) {
				continue;
			}
			if (eq == NULL && (f_opts[i].kind & F_BOOL)) {
				return 1;
			}
			if (eq != NULL && !no && (f_opts[i].kind & F_NUM) &&
			    is_number(eq + 1)) {
				return 1;
			}
			snprintf(why, why_len, "-f%s %s", f_opts[i].name,
				 (f_opts[i].kind & F_NUM) == 0
					 ? "takes no value"
				 : (f_opts[i].kind & F_BOOL) == 0
					 ? "takes =N, a number"
					 : "takes no value or =N, a number");
			return 0;
		}
	}
	snprintf(
		why, why_len,
		"not on the allowlist of compiler flags (docs/configs.md, \"Compiler flags\")");
	return 0;
}

int hil_cflags_check(const struct hil_config *cfg, size_t *index, char *why,
		     size_t why_len)
{
	char w[384];
	size_t i;

	for (i = 0; i < cfg->build.n_cflags; i++) {
		if (!hil_cflag_allowed(cfg->build.cflags[i], cfg, w,
				       sizeof(w))) {
			if (index != NULL) {
				*index = i;
			}
			snprintf(why, why_len, "\"%s\": %s",
				 cfg->build.cflags[i], w);
			return HIL_ERR_CONFIG;
		}
	}
	return HIL_OK;
}
