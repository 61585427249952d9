/* config_algs: the algorithms section of a run configuration, with the expansion of a folder tree of implementations. */
#define _XOPEN_SOURCE 700

#include <dirent.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "util/err.h"
#include "util/util.h"

#include "config/config_int.h"
#include "config/jsonld.h"

static const char *const alg_keys[] = {
	"name", "impl", "path", "kat", "unverified", "tree", "pattern", NULL,
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The sorted names of the sub-folders of dir (not hidden); caller frees
 * each and the array. @return how many, or -1 (errno). */
static int sub_folders(const char *dir, char ***out)
{
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	DIR *d = opendir(dir);

	*out = NULL;
	if (d == NULL) {
		return -1;
	}
	while ((e = readdir(d)) != NULL) {
		char path[PATH_MAX];
		struct stat st;

		if (e->d_name[0] == '.' ||
		    snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >=
			    (int)sizeof(path) ||
		    stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
			continue;
		}
		if (n == cap) {
			char **nn = realloc(names, (cap + 32) * sizeof(*nn));

			if (nn == NULL) {
				break;
			}
			names = nn;
			cap += 32;
		}
		names[n] = strdup(e->d_name);
		if (names[n] != NULL) {
			n++;
		}
	}
	closedir(d);
	if (n > 0) {
		qsort(names, n, sizeof(*names), cmp_str);
	}
	*out = names;
	return (int)n;
}

static void free_names(char **names, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		free(names[i]);
	}
	free(names);
}

/* A folder name as an algorithm or implementation name: characters a name
 * may not have become '_'. @return 0 when nothing usable is left. */
static int name_of_folder(const char *folder, char *buf, size_t len)
{
	size_t i;

	snprintf(buf, len, "%s", folder);
	for (i = 0; buf[i] != '\0'; i++) {
		if (!((buf[i] >= 'a' && buf[i] <= 'z') ||
		      (buf[i] >= 'A' && buf[i] <= 'Z') ||
		      (buf[i] >= '0' && buf[i] <= '9') ||
		      strchr("._+-", buf[i]) != NULL)) {
			buf[i] = '_';
		}
	}
	return hil_jsonld_is_name(buf);
}

/* The architectures of the NIST LWC framework's lwc_arch_* markers that a
 * Cortex-M4 runs (every board of hilrun is one): NIST built the same three
 * for the Nano 33 BLE (its build.sh), and ARMv7E-M is the M4's own. */
static const char *const arch_ok[] = {"armv6", "armv6m", "armv7m", "armv7em",
				      NULL};

/* The largest source file read for the signs of another architecture. */
#define ARCH_SCAN_MAX (4u * 1024u * 1024u)

/* What a source file says of AVR. */
#define AVR_INCLUDES 1u /* includes AVR headers (<avr/...>, "avr/...") */
#define AVR_TESTS    2u /* a preprocessor test names AVR (#ifdef AVR, __AVR__) */

/* The AVR_* flags of the regular file dir/name (a link, FIFO or device
 * reads as nothing). */
static unsigned file_avr(const char *dir, const char *name)
{
	char path[PATH_MAX], why[160];
	char *text = NULL;
	const char *p;
	unsigned flags = 0;
	int fd;

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	    (int)sizeof(path)) {
		return 0;
	}
	fd = hil_open_regular(path, ARCH_SCAN_MAX, why, sizeof(why));
	if (fd < 0) {
		return 0;
	}
	if (hil_read_fd(fd, ARCH_SCAN_MAX, &text, NULL) != HIL_OK) {
		close(fd);
		return 0;
	}
	close(fd);
	if (strstr(text, "<avr/") != NULL || strstr(text, "\"avr/") != NULL) {
		flags |= AVR_INCLUDES;
	}
	/* Lines "#if ... AVR ...", "#ifdef AVR", "#elif defined(__AVR__)". */
	for (p = text; *p != '\0';) {
		size_t n = strcspn(p, "\n");
		const char *q = p;

		while (q < p + n && (*q == ' ' || *q == '\t')) {
			q++;
		}
		if (q < p + n && *q == '#') {
			char line[512];

			snprintf(line, sizeof(line), "%.*s", (int)(p + n - q),
				 q);
			if ((strstr(line, "if") != NULL) &&
			    strstr(line, "AVR") != NULL) {
				flags |= AVR_TESTS;
			}
		}
		p += n + (p[n] == '\n');
	}
	free(text);
	return flags;
}

static int has_suffix(const char *name, const char *suffix)
{
	size_t n = strlen(name), m = strlen(suffix);

	return n > m && strcmp(name + n - m, suffix) == 0;
}

/*
 * Is the implementation folder dir for another architecture than the
 * board's? As the NIST LWC framework decides it, by its marker file
 * lwc_arch_<arch> (a Cortex-M4 runs armv6, armv6m, armv7m, armv7em). A
 * folder without one is for AVR when a file of it includes AVR headers
 * (<avr/...>) with no preprocessor test of AVR in it, or when its
 * assembly is written for AVR (AVR headers, or a test of AVR) while none
 * of its C tests AVR (C that does has a path for other chips, as
 * rweather's folders do). @return 1 with why set, or 0.
 */
int hil_cfg_foreign_arch(const char *dir, char *why, size_t len)
{
	int avr_asm = 0, c_tests_avr = 0, marked_ok = 0;
	const char *unguarded = NULL;
	char first[256] = "";
	struct dirent *e;
	DIR *d = opendir(dir);

	if (d == NULL) {
		return 0;
	}
	while ((e = readdir(d)) != NULL) {
		const char *n = e->d_name;
		int is_asm = has_suffix(n, ".S") || has_suffix(n, ".s");
		int is_c = has_suffix(n, ".c") || has_suffix(n, ".h") ||
			   has_suffix(n, ".cpp");
		unsigned f;

		if (strncmp(n, "lwc_arch_", 9) == 0) {
			size_t i;

			for (i = 0; arch_ok[i] != NULL; i++) {
				if (strcmp(n + 9, arch_ok[i]) == 0) {
					break;
				}
			}
			if (arch_ok[i] == NULL) {
				snprintf(
					why, len,
					"marked %s: for %s, not for this board (a Cortex-M4)",
					n, n + 9);
				closedir(d);
				return 1;
			}
			marked_ok = 1;
			continue;
		}
		if (!is_asm && !is_c) {
			continue;
		}
		f = file_avr(dir, n);
		if ((f & AVR_INCLUDES) && !(f & AVR_TESTS) &&
		    first[0] == '\0') {
			snprintf(first, sizeof(first), "%s", n);
			unguarded = first;
		}
		if (is_asm) {
			avr_asm |= f != 0;
		} else {
			c_tests_avr |= (f & AVR_TESTS) != 0;
		}
	}
	closedir(d);
	if (marked_ok) {
		return 0;
	}
	if (unguarded != NULL) {
		snprintf(
			why, len,
			"not marked, but %s includes AVR headers (avr/...) without testing for AVR: not for this board (a Cortex-M4)",
			unguarded);
		return 1;
	}
	if (avr_asm && !c_tests_avr) {
		snprintf(
			why, len,
			"not marked, but its assembly is for AVR and no C of it runs elsewhere: not for this board (a Cortex-M4)");
		return 1;
	}
	return 0;
}

/*
 * {"tree": DIR, "pattern": GLOB}: every DIR/<algorithm>/<implementation>/
 * holding an api.h (the SUPERCOP and NIST LWC layout, e.g. a crypto_aead/
 * folder), whose "<algorithm>/<implementation>" matches GLOB (fnmatch;
 * default all), appended to cfg->algs with their folder as path, in name
 * order, as many as there are. Their names are the folders' (other
 * characters become '_').
 */
static int expand_tree(struct hil_jsonld *ld, const cJSON *c, size_t entry,
		       struct hil_config *cfg)
{
	char q[HIL_JSONLD_PATH], dir[HIL_CFG_STR], pattern[HIL_CFG_STR] = "*";
	const cJSON *f;
	char **algs = NULL;
	int n_algs, i, found = 0, skipped = 0;
	int ret;

	if (hil_jsonld_member(c, "name") != NULL ||
	    hil_jsonld_member(c, "impl") != NULL ||
	    hil_jsonld_member(c, "path") != NULL ||
	    hil_jsonld_member(c, "kat") != NULL) {
		snprintf(q, sizeof(q), "algorithms[%zu]", entry);
		return hil_jsonld_fail(
			ld, c,
			"%s: a tree takes only \"pattern\" and \"unverified\" beside it (each folder is an implementation of its own, named after its folders)",
			q);
	}
	snprintf(q, sizeof(q), "algorithms[%zu].tree", entry);
	ret = hil_jsonld_path(ld, hil_jsonld_member(c, "tree"), q, dir,
			      sizeof(dir), 1);
	if (ret != HIL_OK) {
		return ret;
	}
	f = hil_jsonld_member(c, "pattern");
	if (f != NULL) {
		snprintf(q, sizeof(q), "algorithms[%zu].pattern", entry);
		ret = hil_jsonld_str(ld, f, q, pattern, sizeof(pattern), 0);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	n_algs = sub_folders(dir, &algs);
	for (i = 0; i < n_algs; i++) {
		char adir[PATH_MAX];
		char **impls = NULL;
		int n_impls, j;

		snprintf(adir, sizeof(adir), "%s/%s", dir, algs[i]);
		n_impls = sub_folders(adir, &impls);
		for (j = 0; j < n_impls; j++) {
			char idir[PATH_MAX], api[PATH_MAX + 8], rel[PATH_MAX];
			struct hil_config_alg *a;

			snprintf(idir, sizeof(idir), "%s/%s", adir, impls[j]);
			snprintf(api, sizeof(api), "%s/api.h", idir);
			snprintf(rel, sizeof(rel), "%s/%s", algs[i], impls[j]);
			if (access(api, R_OK) != 0 ||
			    fnmatch(pattern, rel, 0) != 0) {
				continue;
			}
			{
				char why[sizeof(cfg->not_for_board[0].why)];
				struct hil_config_skipped sk;

				memset(&sk, 0, sizeof(sk));
				if (hil_cfg_foreign_arch(idir, why,
							 sizeof(why))) {
					struct hil_config_skipped *to;

					if (name_of_folder(algs[i], sk.name,
							   sizeof(sk.name)) &&
					    name_of_folder(impls[j], sk.impl,
							   sizeof(sk.impl))) {
						if (hil_config_add_skipped(
							    cfg, &to) !=
						    HIL_OK) {
							free_names(impls,
								   n_impls);
							free_names(algs,
								   n_algs);
							return hil_jsonld_fail_file(
								ld,
								HIL_ERR_NOMEM,
								NULL,
								"out of memory");
						}
						snprintf(sk.why, sizeof(sk.why),
							 "%s", why);
						sk.entry = (unsigned)entry;
						*to = sk;
						skipped++;
					}
					continue;
				}
			}
			if (hil_config_add_alg(cfg, &a) != HIL_OK) {
				free_names(impls, n_impls);
				free_names(algs, n_algs);
				return hil_jsonld_fail_file(ld, HIL_ERR_NOMEM,
							    NULL,
							    "out of memory");
			}
			if (!name_of_folder(algs[i], a->name,
					    sizeof(a->name)) ||
			    !name_of_folder(impls[j], a->impl,
					    sizeof(a->impl)) ||
			    strlen(idir) >= sizeof(a->path)) {
				cfg->n_algs--;
				continue;
			}
			snprintf(a->path, sizeof(a->path), "%s", idir);
			a->entry = (unsigned)entry;
			f = hil_jsonld_member(c, "unverified");
			if (f != NULL) {
				snprintf(q, sizeof(q),
					 "algorithms[%zu].unverified", entry);
				ret = hil_jsonld_flag(ld, f, q, &a->unverified);
				if (ret != HIL_OK) {
					free_names(impls, n_impls);
					free_names(algs, n_algs);
					return ret;
				}
			}
			found++;
		}
		free_names(impls, n_impls);
	}
	free_names(algs, n_algs);
	if (found == 0 && skipped > 0) {
		snprintf(q, sizeof(q), "algorithms[%zu].tree", entry);
		return hil_jsonld_fail(
			ld, c,
			"%s: every implementation under %s is for another architecture than this board's (%s/%s: %s)",
			q, dir,
			cfg->not_for_board[cfg->n_not_for_board - 1].name,
			cfg->not_for_board[cfg->n_not_for_board - 1].impl,
			cfg->not_for_board[cfg->n_not_for_board - 1].why);
	}
	if (found == 0) {
		snprintf(q, sizeof(q), "algorithms[%zu].tree", entry);
		return hil_jsonld_fail(
			ld, c,
			"%s: no <algorithm>/<implementation>/api.h under %s%s%s",
			q, dir,
			f != NULL || strcmp(pattern, "*") ? " matching " : "",
			strcmp(pattern, "*") ? pattern : "");
	}
	return HIL_OK;
}

int hil_cfg_v_algorithms(struct hil_jsonld *ld, const cJSON *root,
			 struct hil_config *cfg)
{
	const cJSON *it = hil_jsonld_member(root, "algorithms");
	const cJSON *c, *f;
	struct hil_config_alg *a;
	char p[HIL_JSONLD_PATH] = "algorithms", q[HIL_JSONLD_PATH];
	size_t n = 0, i, j;
	int ret;

	if (it == NULL) {
		return hil_jsonld_fail(
			ld, NULL,
			"algorithms: at least one algorithm is required");
	}
	hil_config_free(cfg);
	/* No limit but memory: a run splits a large selection over images. */
	ret = hil_jsonld_array(ld, it, "algorithms", 1, SIZE_MAX, &n);
	if (ret != HIL_OK) {
		return ret;
	}
	i = 0;
	cJSON_ArrayForEach(c, it)
	{
		if (cJSON_IsObject(c) && hil_jsonld_member(c, "tree") != NULL) {
			size_t before = cfg->n_algs;

			ret = hil_jsonld_check_keys(ld, c, p, alg_keys);
			if (ret == HIL_OK) {
				ret = expand_tree(ld, c, i, cfg);
			}
			if (ret != HIL_OK) {
				return ret;
			}
			for (; before < cfg->n_algs; before++) {
				for (j = 0; j < before; j++) {
					if (strcmp(cfg->algs[j].name,
						   cfg->algs[before].name) ==
						    0 &&
					    strcmp(cfg->algs[j].impl,
						   cfg->algs[before].impl) ==
						    0) {
						return hil_jsonld_fail(
							ld, c,
							"algorithms[%zu].tree: %s/%s is also at algorithms[%u] (implementation names must differ)",
							i,
							cfg->algs[before].name,
							cfg->algs[before].impl,
							cfg->algs[j].entry);
					}
				}
			}
			i++;
			continue;
		}
		if (hil_config_add_alg(cfg, &a) != HIL_OK) {
			return hil_jsonld_fail_file(ld, HIL_ERR_NOMEM, NULL,
						    "out of memory");
		}
		a->entry = (unsigned)i;
		snprintf(p, sizeof(p), "algorithms[%zu]", i);
		snprintf(a->impl, sizeof(a->impl), "ref");
		if (cJSON_IsString(c)) {
			ret = hil_jsonld_name(ld, c, p, a->name,
					      sizeof(a->name));
		} else if (cJSON_IsObject(c)) {
			ret = hil_jsonld_check_keys(ld, c, p, alg_keys);
			if (ret != HIL_OK) {
				return ret;
			}
			f = hil_jsonld_member(c, "name");
			snprintf(q, sizeof(q), "algorithms[%zu].name", i);
			if (f == NULL) {
				return hil_jsonld_fail(ld, c, "%s: required",
						       q);
			}
			ret = hil_jsonld_name(ld, f, q, a->name,
					      sizeof(a->name));
			if (ret != HIL_OK) {
				return ret;
			}
			f = hil_jsonld_member(c, "impl");
			snprintf(q, sizeof(q), "algorithms[%zu].impl", i);
			if (f != NULL) {
				ret = hil_jsonld_name(ld, f, q, a->impl,
						      sizeof(a->impl));
			}
			f = hil_jsonld_member(c, "path");
			snprintf(q, sizeof(q), "algorithms[%zu].path", i);
			if (ret == HIL_OK && f != NULL) {
				ret = hil_jsonld_path(ld, f, q, a->path,
						      sizeof(a->path), 1);
			}
			f = hil_jsonld_member(c, "kat");
			snprintf(q, sizeof(q), "algorithms[%zu].kat", i);
			if (ret == HIL_OK && f != NULL) {
				ret = hil_jsonld_path(ld, f, q, a->kat,
						      sizeof(a->kat), 0);
			}
			f = hil_jsonld_member(c, "unverified");
			snprintf(q, sizeof(q), "algorithms[%zu].unverified", i);
			if (ret == HIL_OK && f != NULL) {
				ret = hil_jsonld_flag(ld, f, q, &a->unverified);
			}
			if (ret == HIL_OK && a->unverified &&
			    a->path[0] == '\0') {
				ret = hil_jsonld_fail(
					ld, f,
					"%s: only a folder of your own (path) can be measured unverified",
					q);
			}
			if (ret == HIL_OK && a->path[0] != '\0' &&
			    hil_jsonld_member(c, "impl") == NULL) {
				ret = hil_jsonld_fail(
					ld, c,
					"%s: an external implementation (path) needs an \"impl\" name of its own",
					p);
			}
		} else {
			ret = hil_jsonld_fail(
				ld, c,
				"%s: expected an algorithm name or {\"name\": ..., \"impl\": ...}",
				p);
		}
		if (ret != HIL_OK) {
			return ret;
		}
		for (j = 0; j + 1 < cfg->n_algs; j++) {
			if (strcmp(cfg->algs[j].name, a->name) == 0 &&
			    strcmp(cfg->algs[j].impl, a->impl) == 0) {
				return hil_jsonld_fail(
					ld, c,
					"%s: %s (impl %s) is repeated (also at [%u])",
					p, a->name, a->impl,
					cfg->algs[j].entry);
			}
		}
		i++;
	}
	return HIL_OK;
}
