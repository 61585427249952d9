/* config: loads a run configuration from JSON, resolves "extends", validates it and copies it out. */
#define _XOPEN_SOURCE  700
#define HIL_LOG_PREFIX "config"

#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "util/err.h"
#include "util/log.h"
#include "util/util.h"

#include "config/jsonld.h"
#include "drivers/board/board.h"
#include "drivers/flasher/flasher.h"

static const char *const link_names[] = {"socket", "serial", NULL};
static const char *const op_names[] = {"encrypt", "decrypt", "hash", NULL};
static const char *const sensor_names[] = {"none", "ina219", NULL};
static const uint32_t op_bits[] = {HIL_OPS_ENCRYPT, HIL_OPS_DECRYPT,
				   HIL_OPS_HASH};

static const struct hil_jsonld_choice link_choice = {"a link", link_names,
						     "socket or serial"};
static const struct hil_jsonld_choice op_choice = {"an operation", op_names,
						   "encrypt, decrypt or hash"};
static const struct hil_jsonld_choice sensor_choice = {"a sensor", sensor_names,
						       "none or ina219"};

/* Room for the names of one kind of driver. */
#define MAX_DRIVERS 32

/*
 * A choice among the drivers of one kind, from the driver tables (the
 * loader never names a driver): names and expected are the caller's.
 */
struct driver_choice {
	struct hil_jsonld_choice ch;
	const char *names[MAX_DRIVERS + 1];
	char expected[512];
};

static const struct hil_jsonld_choice *board_choice(struct driver_choice *d)
{
	const struct hil_board_driver *const *all = hil_board_all();
	size_t i;

	for (i = 0; i < MAX_DRIVERS && all[i] != NULL; i++) {
		d->names[i] = all[i]->name;
	}
	d->names[i] = NULL;
	hil_drivers_join(d->expected, sizeof(d->expected), d->names);
	d->ch.what = "a board";
	d->ch.names = d->names;
	d->ch.expected = d->expected;
	return &d->ch;
}

static const struct hil_jsonld_choice *flasher_choice(struct driver_choice *d)
{
	const struct hil_flasher_ops *const *all = hil_flasher_all();
	size_t i;

	for (i = 0; i < MAX_DRIVERS && all[i] != NULL; i++) {
		d->names[i] = all[i]->name;
	}
	d->names[i] = NULL;
	hil_drivers_join(d->expected, sizeof(d->expected), d->names);
	d->ch.what = "a flasher";
	d->ch.names = d->names;
	d->ch.expected = d->expected;
	return &d->ch;
}

/* Whether name is in a NULL-terminated list. */
static int listed(const char *const *list, const char *name)
{
	size_t i;

	for (i = 0; list != NULL && list[i] != NULL; i++) {
		if (strcmp(list[i], name) == 0) {
			return 1;
		}
	}
	return 0;
}

static const char *const root_keys[] = {
	"extends",    "name",  "board",	 "link",	"flasher",     "build",
	"algorithms", "bench", "sensor", "cycle_model", "results_dir", NULL,
};
static const char *const cycle_model_keys[] = {
	"enabled",
	"wait_states",
	"art",
	NULL,
};
static const char *const board_keys[] = {
	"name",
	"clock_hz",
	"id",
	NULL,
};
static const char *const link_keys[] = {
	"type", "port", "baud", "timeout_ms", "retries", NULL,
};
static const char *const flasher_keys[] = {
	"type", "program", "openocd_config", "probe_serial", "timeout_ms", NULL,
};
static const char *const build_keys[] = {
	"cflags",
	NULL,
};
static const char *const alg_keys[] = {
	"name", "impl", "path", "kat", "unverified", "tree", "pattern", NULL,
};
static const char *const bench_keys[] = {
	"operations", "lengths",      "ad_lengths", "runs", "warmup",
	"seed",	      "normalize_to", "leak_runs",  NULL,
};
static const char *const sensor_keys[] = {
	"type",		 "bus",		"address", "shunt_ohm",
	"max_current_a", "bus_range_v", "pga_div", "adc_bits",
	"adc_samples",	 "conversions", "windows", NULL,
};

static int v_board(struct hil_jsonld *ld, const cJSON *root,
		   struct hil_config *cfg)
{
	const cJSON *s, *it;
	uint32_t hz = 0;
	const struct hil_board_driver *b;
	const struct hil_clock_profile *c;
	struct driver_choice dc;
	char hzs[256];
	size_t o = 0;
	int ret;

	ret = hil_jsonld_section(ld, root, "board", board_keys, &s);
	if (ret != HIL_OK || s == NULL) {
		return ret;
	}
	it = hil_jsonld_member(s, "name");
	if (it != NULL) {
		ret = hil_jsonld_choice(ld, it, "board.name", board_choice(&dc),
					cfg->board.name,
					sizeof(cfg->board.name), NULL);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	/* The clocks the board's own code can set (its driver's profiles). */
	b = hil_board_find(cfg->board.name);
	if (hil_board_clock(b, cfg->board.clock_hz) == NULL) {
		cfg->board.clock_hz = b->clocks[0].hz;
	}
	it = hil_jsonld_member(s, "clock_hz");
	if (it != NULL) {
		if (hil_jsonld_u32(ld, it, "board.clock_hz", 1, UINT32_MAX,
				   &hz) != HIL_OK ||
		    hil_board_clock(b, hz) == NULL) {
			hzs[0] = '\0';
			for (c = b->clocks; c->hz != 0 && o < sizeof(hzs);
			     c++) {
				o += (size_t)snprintf(
					hzs + o, sizeof(hzs) - o, "%s%lu",
					c == b->clocks	   ? ""
					: (c + 1)->hz == 0 ? " or "
							   : ", ",
					(unsigned long)c->hz);
			}
			return hil_jsonld_fail(
				ld, it, "board.clock_hz: expected %s", hzs);
		}
		cfg->board.clock_hz = hz;
	}
	it = hil_jsonld_member(s, "id");
	if (it != NULL) {
		ret = hil_jsonld_str(ld, it, "board.id", cfg->board.id,
				     sizeof(cfg->board.id), 1);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	return HIL_OK;
}

static int v_link(struct hil_jsonld *ld, const cJSON *root,
		  struct hil_config *cfg)
{
	const cJSON *s, *it;
	int ret;

	ret = hil_jsonld_section(ld, root, "link", link_keys, &s);
	if (ret != HIL_OK || s == NULL) {
		return ret;
	}
	it = hil_jsonld_member(s, "type");
	if (it != NULL) {
		ret = hil_jsonld_choice(ld, it, "link.type", &link_choice,
					cfg->link.type, sizeof(cfg->link.type),
					NULL);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	it = hil_jsonld_member(s, "port");
	if (it != NULL) {
		ret = hil_jsonld_str(ld, it, "link.port", cfg->link.port,
				     sizeof(cfg->link.port), 1);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	it = hil_jsonld_member(s, "baud");
	if (it != NULL) {
		ret = hil_jsonld_u32(ld, it, "link.baud", 1200, 4000000,
				     &cfg->link.baud);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	it = hil_jsonld_member(s, "timeout_ms");
	if (it != NULL) {
		ret = hil_jsonld_u32(ld, it, "link.timeout_ms", 1, 600000,
				     &cfg->link.timeout_ms);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	it = hil_jsonld_member(s, "retries");
	if (it != NULL) {
		ret = hil_jsonld_u32(ld, it, "link.retries", 0, 100,
				     &cfg->link.retries);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	return HIL_OK;
}

/*
 * The probe serial is spliced into an OpenOCD Tcl command ("adapter serial
 * SN"), so anything Tcl would interpret is refused.
 */
static int check_probe_serial(struct hil_jsonld *ld, const cJSON *it,
			      const char *s)
{
	const char *bad = strpbrk(s, " []{}$;\"\\");

	if (bad != NULL) {
		return hil_jsonld_fail(
			ld, it,
			"flasher.probe_serial: contains \"%c\", which a probe serial cannot contain",
			*bad);
	}
	return HIL_OK;
}

static int v_flasher(struct hil_jsonld *ld, const cJSON *root,
		     struct hil_config *cfg)
{
	struct driver_choice dc;
	const cJSON *s, *it, *c;
	char p[HIL_JSONLD_PATH];
	size_t n = 0, i;
	int ret;

	ret = hil_jsonld_section(ld, root, "flasher", flasher_keys, &s);
	if (ret != HIL_OK || s == NULL) {
		return ret;
	}
	it = hil_jsonld_member(s, "type");
	if (it != NULL) {
		ret = hil_jsonld_choice(ld, it, "flasher.type",
					flasher_choice(&dc), cfg->flasher.type,
					sizeof(cfg->flasher.type), NULL);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	it = hil_jsonld_member(s, "program");
	if (it != NULL) {
		ret = hil_jsonld_str(ld, it, "flasher.program",
				     cfg->flasher.program,
				     sizeof(cfg->flasher.program), 0);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	it = hil_jsonld_member(s, "openocd_config");
	if (it != NULL) {
		ret = hil_jsonld_array(ld, it, "flasher.openocd_config", 1,
				       HIL_CFG_MAX_OPENOCD_CFG, &n);
		if (ret != HIL_OK) {
			return ret;
		}
		i = 0;
		cJSON_ArrayForEach(c, it)
		{
			snprintf(p, sizeof(p), "flasher.openocd_config[%zu]",
				 i);
			ret = hil_jsonld_str(
				ld, c, p, cfg->flasher.openocd_cfg[i],
				sizeof(cfg->flasher.openocd_cfg[i]), 0);
			if (ret != HIL_OK) {
				return ret;
			}
			i++;
		}
		cfg->flasher.n_openocd_cfg = n;
	}
	it = hil_jsonld_member(s, "probe_serial");
	if (it != NULL) {
		ret = hil_jsonld_str(ld, it, "flasher.probe_serial",
				     cfg->flasher.probe_serial,
				     sizeof(cfg->flasher.probe_serial), 1);
		if (ret != HIL_OK) {
			return ret;
		}
		ret = check_probe_serial(ld, it, cfg->flasher.probe_serial);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	it = hil_jsonld_member(s, "timeout_ms");
	if (it != NULL) {
		ret = hil_jsonld_u32(ld, it, "flasher.timeout_ms", 1, 600000,
				     &cfg->flasher.timeout_ms);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	return HIL_OK;
}

/*
 * Flags reach the compiler through make and a shell, so a flag must be one
 * word and must not be able to start another command.
 */
static int check_flag(struct hil_jsonld *ld, const cJSON *it, const char *path,
		      const char *flag)
{
	char sb[HIL_JSONLD_SHOW];
	const char *bad;

	hil_jsonld_show(sb, sizeof(sb), flag);
	if (flag[0] != '-' || flag[1] == '\0') {
		return hil_jsonld_fail(
			ld, it,
			"%s: \"%s\" is not a compiler flag (expected \"-\" and a name)",
			path, sb);
	}
	if (strchr(flag, ' ') != NULL) {
		return hil_jsonld_fail(
			ld, it,
			"%s: \"%s\" contains a space (give each flag as its own string)",
			path, sb);
	}
	/* Only characters a flag needs: the flags end up in a make recipe,
	 * so a shell or make would see anything else. */
	bad = flag + strspn(flag, "abcdefghijklmnopqrstuvwxyz"
				  "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
				  "-_=+,.:/");
	if (*bad != '\0') {
		return hil_jsonld_fail(
			ld, it,
			"%s: \"%s\" contains \"%c\", which a compiler flag does not need",
			path, sb, *bad);
	}
	return HIL_OK;
}

static int v_build(struct hil_jsonld *ld, const cJSON *root,
		   struct hil_config *cfg)
{
	const cJSON *s, *it, *c;
	char p[HIL_JSONLD_PATH];
	size_t n = 0, i;
	int ret;

	ret = hil_jsonld_section(ld, root, "build", build_keys, &s);
	if (ret != HIL_OK || s == NULL) {
		return ret;
	}
	it = hil_jsonld_member(s, "cflags");
	if (it == NULL) {
		return HIL_OK;
	}
	ret = hil_jsonld_array(ld, it, "build.cflags", 0, HIL_CFG_MAX_FLAGS,
			       &n);
	if (ret != HIL_OK) {
		return ret;
	}
	i = 0;
	cJSON_ArrayForEach(c, it)
	{
		snprintf(p, sizeof(p), "build.cflags[%zu]", i);
		ret = hil_jsonld_str(ld, c, p, cfg->build.cflags[i],
				     sizeof(cfg->build.cflags[i]), 0);
		if (ret != HIL_OK) {
			return ret;
		}
		ret = check_flag(ld, c, p, cfg->build.cflags[i]);
		if (ret != HIL_OK) {
			return ret;
		}
		i++;
	}
	cfg->build.n_cflags = n;
	return HIL_OK;
}

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

/*
 * {"tree": DIR, "pattern": GLOB}: every DIR/<algorithm>/<implementation>/
 * holding an api.h (the SUPERCOP and NIST LWC layout, e.g. a crypto_aead/
 * folder), whose "<algorithm>/<implementation>" matches GLOB (fnmatch;
 * default all), as algorithms[*k..] with their folder as path, in name
 * order. Their names are the folders' (other characters become '_').
 */
static int expand_tree(struct hil_jsonld *ld, const cJSON *c, size_t entry,
		       struct hil_config *cfg, size_t *k)
{
	char q[HIL_JSONLD_PATH], dir[HIL_CFG_STR], pattern[HIL_CFG_STR] = "*";
	const cJSON *f;
	char **algs = NULL;
	int n_algs, i, found = 0;
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
			if (*k >= HIL_CFG_MAX_ALGS) {
				free_names(impls, n_impls);
				free_names(algs, n_algs);
				snprintf(q, sizeof(q), "algorithms[%zu].tree",
					 entry);
				return hil_jsonld_fail(
					ld, c,
					"%s: more than %d implementations in all (narrow it with \"pattern\", or split the run)",
					q, HIL_CFG_MAX_ALGS);
			}
			a = &cfg->algs[*k];
			memset(a, 0, sizeof(*a));
			if (!name_of_folder(algs[i], a->name,
					    sizeof(a->name)) ||
			    !name_of_folder(impls[j], a->impl,
					    sizeof(a->impl)) ||
			    strlen(idir) >= sizeof(a->path)) {
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
			(*k)++;
			found++;
		}
		free_names(impls, n_impls);
	}
	free_names(algs, n_algs);
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

static int v_algorithms(struct hil_jsonld *ld, const cJSON *root,
			struct hil_config *cfg)
{
	const cJSON *it = hil_jsonld_member(root, "algorithms");
	const cJSON *c, *f;
	struct hil_config_alg *a;
	char p[HIL_JSONLD_PATH] = "algorithms", q[HIL_JSONLD_PATH];
	size_t n = 0, i, j, k = 0;
	int ret;

	if (it == NULL) {
		return hil_jsonld_fail(
			ld, NULL,
			"algorithms: at least one algorithm is required");
	}
	ret = hil_jsonld_array(ld, it, "algorithms", 1, HIL_CFG_MAX_ALGS, &n);
	if (ret != HIL_OK) {
		return ret;
	}
	i = 0;
	cJSON_ArrayForEach(c, it)
	{
		if (cJSON_IsObject(c) && hil_jsonld_member(c, "tree") != NULL) {
			size_t before = k;

			ret = hil_jsonld_check_keys(ld, c, p, alg_keys);
			if (ret == HIL_OK) {
				ret = expand_tree(ld, c, i, cfg, &k);
			}
			if (ret != HIL_OK) {
				return ret;
			}
			for (; before < k; before++) {
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
		if (k >= HIL_CFG_MAX_ALGS) {
			return hil_jsonld_fail(
				ld, c,
				"algorithms[%zu]: more than %d implementations in all",
				i, HIL_CFG_MAX_ALGS);
		}
		a = &cfg->algs[k];
		memset(a, 0, sizeof(*a));
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
		for (j = 0; j < k; j++) {
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
		k++;
	}
	cfg->n_algs = k;
	return HIL_OK;
}

static int v_bench(struct hil_jsonld *ld, const cJSON *root,
		   struct hil_config *cfg)
{
	const cJSON *s, *it, *c;
	char p[HIL_JSONLD_PATH], sb[HIL_JSONLD_SHOW];
	uint32_t ops = 0;
	size_t n = 0, i;
	int ret, k;

	ret = hil_jsonld_section(ld, root, "bench", bench_keys, &s);
	if (ret != HIL_OK || s == NULL) {
		return ret;
	}
	it = hil_jsonld_member(s, "operations");
	if (it != NULL) {
		ret = hil_jsonld_array(ld, it, "bench.operations", 1, 3, &n);
		if (ret != HIL_OK) {
			return ret;
		}
		i = 0;
		cJSON_ArrayForEach(c, it)
		{
			snprintf(p, sizeof(p), "bench.operations[%zu]", i);
			ret = hil_jsonld_choice(ld, c, p, &op_choice, NULL, 0,
						&k);
			if (ret != HIL_OK) {
				return ret;
			}
			if (ops & op_bits[k]) {
				return hil_jsonld_fail(
					ld, c, "%s: \"%s\" is repeated", p,
					hil_jsonld_show(sb, sizeof(sb),
							c->valuestring));
			}
			ops |= op_bits[k];
			i++;
		}
		cfg->bench.operations = ops;
	}
	it = hil_jsonld_member(s, "lengths");
	if (it != NULL) {
		ret = hil_jsonld_u32_list(
			ld, it, "bench.lengths", HIL_CFG_MAX_LENGTHS, 2048,
			cfg->bench.lengths, &cfg->bench.n_lengths);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	it = hil_jsonld_member(s, "ad_lengths");
	if (it != NULL) {
		ret = hil_jsonld_u32_list(
			ld, it, "bench.ad_lengths", HIL_CFG_MAX_AD_LENGTHS,
			2048, cfg->bench.ad_lengths, &cfg->bench.n_ad_lengths);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	it = hil_jsonld_member(s, "runs");
	if (it != NULL) {
		ret = hil_jsonld_u32(ld, it, "bench.runs", 1, 65535,
				     &cfg->bench.runs);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	it = hil_jsonld_member(s, "warmup");
	if (it != NULL) {
		ret = hil_jsonld_u32(ld, it, "bench.warmup", 0, 65535,
				     &cfg->bench.warmup);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	it = hil_jsonld_member(s, "seed");
	if (it != NULL) {
		ret = hil_jsonld_u32(ld, it, "bench.seed", 0, UINT32_MAX,
				     &cfg->bench.seed);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	it = hil_jsonld_member(s, "leak_runs");
	if (it != NULL) {
		ret = hil_jsonld_u32(ld, it, "bench.leak_runs", 0, 1000000,
				     &cfg->bench.leak_runs);
		if (ret != HIL_OK) {
			return ret;
		}
		if (cfg->bench.leak_runs > 0 && cfg->bench.leak_runs < 4) {
			return hil_jsonld_fail(
				ld, it,
				"bench.leak_runs: %u runs cannot give a t statistic: 0 (off) or at least 4",
				(unsigned)cfg->bench.leak_runs);
		}
	}
	it = hil_jsonld_member(s, "normalize_to");
	if (it != NULL) {
		ret = hil_jsonld_str(ld, it, "bench.normalize_to",
				     cfg->bench.normalize_to,
				     sizeof(cfg->bench.normalize_to), 1);
		if (ret != HIL_OK) {
			return ret;
		}
		if (strchr(cfg->bench.normalize_to, ' ') != NULL ||
		    strchr(cfg->bench.normalize_to, '/') !=
			    strrchr(cfg->bench.normalize_to, '/')) {
			return hil_jsonld_fail(
				ld, it,
				"bench.normalize_to: \"%s\" is not \"algorithm\" or \"algorithm/implementation\"",
				hil_jsonld_show(sb, sizeof(sb),
						it->valuestring));
		}
	}
	return HIL_OK;
}

/* A finite number above 0 and at most max (a resistance, a current). */
static int get_positive(struct hil_jsonld *ld, const cJSON *it,
			const char *path, double max, double *out)
{
	double d;

	if (cJSON_IsNumber(it)) {
		d = it->valuedouble;
		/* Written this way round so NaN and infinities fail too. */
		if (d > 0.0 && d <= max) {
			*out = d;
			return HIL_OK;
		}
	}
	return hil_jsonld_fail(ld, it,
			       "%s: expected a number above 0 and at most %g",
			       path, max);
}

/*
 * An INA219 address: A0 and A1 each strap to GND, VS+, SDA or SCL, which
 * gives 0x40..0x4F (SBOS448 Table 1). Written as an integer, or as a hex
 * string because that is how datasheets and i2cdetect show it.
 */
static int get_ina219_address(struct hil_jsonld *ld, const cJSON *it,
			      const char *path, uint8_t *out)
{
	const char *s;
	long v = -1;
	char *end;

	if (cJSON_IsNumber(it)) {
		if (it->valuedouble >= 0x40 && it->valuedouble <= 0x4f &&
		    it->valuedouble == floor(it->valuedouble)) {
			v = (long)it->valuedouble;
		}
	} else if (cJSON_IsString(it)) {
		s = it->valuestring;
		if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') &&
		    strlen(s) >= 3 && strlen(s) <= 4 &&
		    strspn(s + 2, "0123456789abcdefABCDEF") == strlen(s + 2)) {
			v = strtol(s + 2, &end, 16);
		}
	}
	if (v < 0x40 || v > 0x4f) {
		return hil_jsonld_fail(
			ld, it,
			"%s: expected an INA219 address from 0x40 to 0x4F, as an integer (64) or a string (\"0x40\")",
			path);
	}
	*out = (uint8_t)v;
	return HIL_OK;
}

/*
 * The bus is opened by prefix (host/drivers/i2c/i2c.h); what follows the prefix is
 * checked when it is opened, where the adapter can be named.
 */
static int check_bus(struct hil_jsonld *ld, const cJSON *it, const char *bus)
{
	char sb[HIL_JSONLD_SHOW];

	if ((strncmp(bus, "ftdi:", 5) == 0 && bus[5] != '\0') ||
	    (strncmp(bus, "linux:/", 7) == 0 && bus[7] != '\0') ||
	    (strncmp(bus, "sim:", 4) == 0 && bus[4] != '\0')) {
		return HIL_OK;
	}
	return hil_jsonld_fail(
		ld, it,
		"sensor.bus: \"%s\" is not a bus spec: expected \"ftdi:VID:PID[:SERIAL]\", \"linux:/dev/i2c-N\" or \"sim:...\"",
		hil_jsonld_show(sb, sizeof(sb), bus));
}

/* Sensor settings that are valid one by one but not together. */
static int v_sensor_combination(struct hil_jsonld *ld, const cJSON *s,
				const struct hil_config *cfg)
{
	const cJSON *at;
	double vmax, fs;
	unsigned n;

	if (strcmp(cfg->sensor.type, "ina219") == 0 &&
	    cfg->sensor.bus[0] == '\0') {
		at = hil_jsonld_member(s, "bus");
		if (at == NULL) {
			at = hil_jsonld_member(s, "type");
		}
		return hil_jsonld_fail(
			ld, at != NULL ? at : s,
			"sensor.bus: required when sensor.type is \"ina219\" (e.g. \"ftdi:0403:6014\" or \"linux:/dev/i2c-1\")");
	}
	/* Averaging is a 12-bit mode only (SBOS448 Table 6). */
	n = cfg->sensor.adc_samples;
	if (n > 1 && cfg->sensor.adc_bits != 12) {
		at = hil_jsonld_member(s, "adc_samples");
		return hil_jsonld_fail(
			ld, at != NULL ? at : s,
			"sensor.adc_samples: averaging %u samples works on 12-bit conversions only, but sensor.adc_bits is %u",
			n, cfg->sensor.adc_bits);
	}
	/*
	 * The largest expected current must fit the shunt ADC's range,
	 * +-40 mV x the PGA divider (SBOS448 Table 5), else every window
	 * at that current would end in an overflow.
	 */
	vmax = cfg->sensor.max_current_a * cfg->sensor.shunt_ohm;
	fs = 0.04 * (cfg->sensor.pga_div != 0 ? cfg->sensor.pga_div : 8u);
	if (vmax > fs * (1.0 + 1e-9)) {
		at = hil_jsonld_member(s, "max_current_a");
		if (at == NULL) {
			at = hil_jsonld_member(s, "shunt_ohm");
		}
		if (cfg->sensor.pga_div != 0) {
			return hil_jsonld_fail(
				ld, at != NULL ? at : s,
				"sensor.max_current_a: %g A through %g ohm is %g mV, beyond the +-%g mV that sensor.pga_div %u measures",
				cfg->sensor.max_current_a,
				cfg->sensor.shunt_ohm, vmax * 1e3, fs * 1e3,
				cfg->sensor.pga_div);
		}
		return hil_jsonld_fail(
			ld, at != NULL ? at : s,
			"sensor.max_current_a: %g A through %g ohm is %g mV, beyond the INA219's largest shunt range, +-320 mV (use a smaller shunt)",
			cfg->sensor.max_current_a, cfg->sensor.shunt_ohm,
			vmax * 1e3);
	}
	return HIL_OK;
}

/*
 * The cycle model's flash profile: by default the one the Nucleo's clock
 * profile would have (2 wait states and the ART above 24 MHz, none at 24
 * and 16 MHz: RM0368 Table 6 at 3.3 V).
 */
static int v_cycle_model(struct hil_jsonld *ld, const cJSON *root,
			 struct hil_config *cfg)
{
	const cJSON *s, *it;
	int ws_given = 0, art_given = 0;
	uint32_t v = 0;
	int ret;

	ret = hil_jsonld_section(ld, root, "cycle_model", cycle_model_keys, &s);
	if (ret != HIL_OK) {
		return ret;
	}
	it = hil_jsonld_member(s, "enabled");
	if (it != NULL) {
		ret = hil_jsonld_flag(ld, it, "cycle_model.enabled",
				      &cfg->cycle_model.enabled);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	it = hil_jsonld_member(s, "wait_states");
	if (it != NULL) {
		ret = hil_jsonld_u32(ld, it, "cycle_model.wait_states", 0, 15,
				     &v);
		if (ret != HIL_OK) {
			return ret;
		}
		cfg->cycle_model.wait_states = v;
		ws_given = 1;
	}
	it = hil_jsonld_member(s, "art");
	if (it != NULL) {
		ret = hil_jsonld_flag(ld, it, "cycle_model.art",
				      &cfg->cycle_model.art);
		if (ret != HIL_OK) {
			return ret;
		}
		art_given = 1;
	}
	if (!ws_given) {
		const struct hil_clock_profile *c = hil_board_clock(
			hil_board_find(cfg->board.name), cfg->board.clock_hz);

		cfg->cycle_model.wait_states = c != NULL ? c->wait_states : 0u;
	}
	if (!art_given) {
		cfg->cycle_model.art = cfg->cycle_model.wait_states > 0;
	}
	return HIL_OK;
}

static int v_sensor(struct hil_jsonld *ld, const cJSON *root,
		    struct hil_config *cfg)
{
	const cJSON *s, *it;
	uint32_t v = 0;
	int ret;

	ret = hil_jsonld_section(ld, root, "sensor", sensor_keys, &s);
	if (ret != HIL_OK || s == NULL) {
		return ret;
	}
	it = hil_jsonld_member(s, "type");
	if (it != NULL) {
		ret = hil_jsonld_choice(ld, it, "sensor.type", &sensor_choice,
					cfg->sensor.type,
					sizeof(cfg->sensor.type), NULL);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	it = hil_jsonld_member(s, "bus");
	if (it != NULL) {
		ret = hil_jsonld_str(ld, it, "sensor.bus", cfg->sensor.bus,
				     sizeof(cfg->sensor.bus), 1);
		if (ret == HIL_OK && cfg->sensor.bus[0] != '\0') {
			ret = check_bus(ld, it, cfg->sensor.bus);
		}
		if (ret != HIL_OK) {
			return ret;
		}
	}
	it = hil_jsonld_member(s, "address");
	if (it != NULL) {
		ret = get_ina219_address(ld, it, "sensor.address",
					 &cfg->sensor.address);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	it = hil_jsonld_member(s, "shunt_ohm");
	if (it != NULL) {
		ret = get_positive(ld, it, "sensor.shunt_ohm", 100.0,
				   &cfg->sensor.shunt_ohm);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	it = hil_jsonld_member(s, "max_current_a");
	if (it != NULL) {
		ret = get_positive(ld, it, "sensor.max_current_a", 100.0,
				   &cfg->sensor.max_current_a);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	it = hil_jsonld_member(s, "bus_range_v");
	if (it != NULL) {
		if (hil_jsonld_u32(ld, it, "sensor.bus_range_v", 16, 32, &v) !=
			    HIL_OK ||
		    (v != 16 && v != 32)) {
			return hil_jsonld_fail(
				ld, it,
				"sensor.bus_range_v: expected 16 or 32");
		}
		cfg->sensor.bus_range_v = v;
	}
	it = hil_jsonld_member(s, "pga_div");
	if (it != NULL) {
		if (hil_jsonld_u32(ld, it, "sensor.pga_div", 0, 8, &v) !=
			    HIL_OK ||
		    (v != 0 && v != 1 && v != 2 && v != 4 && v != 8)) {
			return hil_jsonld_fail(
				ld, it,
				"sensor.pga_div: expected 0 (automatic), 1, 2, 4 or 8");
		}
		cfg->sensor.pga_div = v;
	}
	it = hil_jsonld_member(s, "adc_bits");
	if (it != NULL) {
		ret = hil_jsonld_u32(ld, it, "sensor.adc_bits", 9, 12, &v);
		if (ret != HIL_OK) {
			return ret;
		}
		cfg->sensor.adc_bits = v;
	}
	it = hil_jsonld_member(s, "adc_samples");
	if (it != NULL) {
		if (hil_jsonld_u32(ld, it, "sensor.adc_samples", 1, 128, &v) !=
			    HIL_OK ||
		    (v & (v - 1)) != 0) {
			return hil_jsonld_fail(
				ld, it,
				"sensor.adc_samples: expected 1, 2, 4, 8, 16, 32, 64 or 128");
		}
		cfg->sensor.adc_samples = v;
	}
	it = hil_jsonld_member(s, "conversions");
	if (it != NULL) {
		ret = hil_jsonld_u32(ld, it, "sensor.conversions", 1, 10000,
				     &cfg->sensor.conversions);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	it = hil_jsonld_member(s, "windows");
	if (it != NULL) {
		ret = hil_jsonld_u32(ld, it, "sensor.windows", 1, 1000,
				     &cfg->sensor.windows);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	return v_sensor_combination(ld, s, cfg);
}

/* "name" or, failing that, the loaded file's name without ".json". */
static int v_name(struct hil_jsonld *ld, const cJSON *root,
		  struct hil_config *cfg)
{
	const cJSON *it = hil_jsonld_member(root, "name");
	const char *base, *file = ld->files[0];
	char sb[HIL_JSONLD_SHOW];
	size_t n;

	if (it != NULL) {
		return hil_jsonld_name(ld, it, "name", cfg->name,
				       sizeof(cfg->name));
	}
	if (file == NULL) {
		snprintf(cfg->name, sizeof(cfg->name), "inline");
		return HIL_OK;
	}
	base = strrchr(file, '/');
	base = base == NULL ? file : base + 1;
	n = strlen(base);
	if (n > 5 && strcmp(base + n - 5, ".json") == 0) {
		n -= 5;
	}
	if (n < sizeof(cfg->name)) {
		memcpy(cfg->name, base, n);
		cfg->name[n] = '\0';
		if (hil_jsonld_is_name(cfg->name)) {
			return HIL_OK;
		}
	}
	return hil_jsonld_fail(
		ld, NULL,
		"name: the file name \"%s\" cannot serve as the run name; set \"name\"",
		hil_jsonld_show(sb, sizeof(sb), base));
}

/* Defaults that depend on the board, for what the files left unset. */
static void derive(const cJSON *root, struct hil_config *cfg)
{
	const cJSON *flasher = hil_jsonld_member(root, "flasher");
	const cJSON *link = hil_jsonld_member(root, "link");
	const struct hil_board_driver *b = hil_board_find(cfg->board.name);
	const struct hil_flasher_ops *f;

	if (hil_jsonld_member(flasher, "type") == NULL) {
		snprintf(cfg->flasher.type, sizeof(cfg->flasher.type), "%s",
			 b->flashers[0]);
	}
	f = hil_flasher_find(cfg->flasher.type);
	if (hil_jsonld_member(flasher, "program") == NULL) {
		snprintf(cfg->flasher.program, sizeof(cfg->flasher.program),
			 "%s",
			 f != NULL && f->program != NULL ? f->program : "");
	}
	if (hil_jsonld_member(link, "type") == NULL) {
		snprintf(cfg->link.type, sizeof(cfg->link.type), "%s",
			 b->links[0]);
	}
	/* The programmer's own config files for this board, unless given. */
	if (cfg->flasher.n_openocd_cfg == 0 && b->openocd_config != NULL) {
		snprintf(cfg->flasher.openocd_cfg[0],
			 sizeof(cfg->flasher.openocd_cfg[0]), "%s",
			 b->openocd_config);
		cfg->flasher.n_openocd_cfg = 1;
	}
}

/* Combinations that cannot work, checked on the merged, derived values. */
static int v_combination(struct hil_jsonld *ld, const cJSON *root,
			 const struct hil_config *cfg)
{
	const cJSON *board = hil_jsonld_member(root, "board");
	const cJSON *flasher = hil_jsonld_member(root, "flasher");
	const cJSON *link = hil_jsonld_member(root, "link");
	const cJSON *at;
	const struct hil_board_driver *b = hil_board_find(cfg->board.name);
	char names[256];

	if (!listed(b->flashers, cfg->flasher.type)) {
		at = hil_jsonld_member(flasher, "type");
		if (at == NULL) {
			at = hil_jsonld_member(board, "name");
		}
		hil_drivers_join(names, sizeof(names), b->flashers);
		return hil_jsonld_fail(
			ld, at,
			"flasher.type: \"%s\" cannot program board.name \"%s\" (it needs flasher \"%s\")",
			cfg->flasher.type, cfg->board.name, names);
	}
	/* The links that reach the board (QEMU's USART is a unix socket:
	 * libserialport cannot open a QEMU pty). */
	if (!listed(b->links, cfg->link.type)) {
		hil_drivers_join(names, sizeof(names), b->links);
		return hil_jsonld_fail(
			ld, hil_jsonld_member(link, "type"),
			"link.type: \"%s\" cannot reach board.name \"%s\" (it needs \"%s\")",
			cfg->link.type, cfg->board.name, names);
	}
	if (strcmp(cfg->link.type, "serial") == 0 &&
	    cfg->link.port[0] == '\0' && cfg->board.id[0] == '\0') {
		at = hil_jsonld_member(link, "type");
		return hil_jsonld_fail(
			ld, at != NULL ? at : link,
			"link.port: required when link.type is \"serial\" (or board.id, to take it from the hardware map)");
	}
	return HIL_OK;
}

static int validate(struct hil_jsonld *ld, const cJSON *root,
		    struct hil_config *cfg)
{
	const cJSON *it;
	int ret;

	ret = hil_jsonld_check_keys(ld, root, "", root_keys);
	if (ret == HIL_OK) {
		ret = v_name(ld, root, cfg);
	}
	if (ret == HIL_OK) {
		ret = v_board(ld, root, cfg);
	}
	if (ret == HIL_OK) {
		ret = v_link(ld, root, cfg);
	}
	if (ret == HIL_OK) {
		ret = v_flasher(ld, root, cfg);
	}
	if (ret == HIL_OK) {
		ret = v_build(ld, root, cfg);
	}
	if (ret == HIL_OK) {
		ret = v_algorithms(ld, root, cfg);
	}
	if (ret == HIL_OK) {
		ret = v_bench(ld, root, cfg);
	}
	if (ret == HIL_OK) {
		ret = v_sensor(ld, root, cfg);
	}
	if (ret == HIL_OK) {
		ret = v_cycle_model(ld, root, cfg);
	}
	if (ret == HIL_OK) {
		it = hil_jsonld_member(root, "results_dir");
		if (it != NULL) {
			ret = hil_jsonld_str(ld, it, "results_dir",
					     cfg->results_dir,
					     sizeof(cfg->results_dir), 0);
		}
	}
	if (ret == HIL_OK) {
		derive(root, cfg);
		ret = v_combination(ld, root, cfg);
	}
	return ret;
}

/* ---- public ------------------------------------------------------------ */

void hil_config_defaults(struct hil_config *cfg)
{
	/* The first registered board is the default (drivers/drivers.def):
	 * the emulated one, which every machine can run. */
	const struct hil_board_driver *b = hil_board_all()[0];
	const struct hil_flasher_ops *f = hil_flasher_find(b->flashers[0]);

	memset(cfg, 0, sizeof(*cfg));
	snprintf(cfg->board.name, sizeof(cfg->board.name), "%s", b->name);
	cfg->board.clock_hz = b->clocks[0].hz;

	snprintf(cfg->link.type, sizeof(cfg->link.type), "%s", b->links[0]);
	cfg->link.baud = 115200;
	cfg->link.timeout_ms = 2000;
	cfg->link.retries = 3;

	snprintf(cfg->flasher.type, sizeof(cfg->flasher.type), "%s", f->name);
	snprintf(cfg->flasher.program, sizeof(cfg->flasher.program), "%s",
		 f->program != NULL ? f->program : "");
	cfg->flasher.timeout_ms = 60000;

	snprintf(cfg->build.cflags[0], sizeof(cfg->build.cflags[0]), "-O2");
	cfg->build.n_cflags = 1;

	cfg->bench.operations = HIL_OPS_ENCRYPT | HIL_OPS_DECRYPT;
	cfg->bench.lengths[0] = 0;
	cfg->bench.lengths[1] = 16;
	cfg->bench.lengths[2] = 64;
	cfg->bench.lengths[3] = 256;
	cfg->bench.lengths[4] = 1024;
	cfg->bench.lengths[5] = 2048;
	cfg->bench.n_lengths = 6;
	cfg->bench.ad_lengths[0] = 0;
	cfg->bench.n_ad_lengths = 1;
	cfg->bench.runs = 1000;
	cfg->bench.warmup = 10;
	cfg->bench.seed = 1;
	snprintf(cfg->bench.normalize_to, sizeof(cfg->bench.normalize_to),
		 "aes128-ecb");
	cfg->bench.leak_runs = 1000;
	cfg->cycle_model.enabled = 1;
	cfg->cycle_model.wait_states = 2;
	cfg->cycle_model.art = 1;

	snprintf(cfg->sensor.type, sizeof(cfg->sensor.type), "none");
	cfg->sensor.address = 0x40;
	cfg->sensor.shunt_ohm = 0.1;
	cfg->sensor.max_current_a = 0.4;
	cfg->sensor.bus_range_v = 16;
	cfg->sensor.pga_div = 0;
	cfg->sensor.adc_bits = 12;
	cfg->sensor.adc_samples = 1;
	cfg->sensor.conversions = 50;
	cfg->sensor.windows = 5;

	snprintf(cfg->results_dir, sizeof(cfg->results_dir), "results");
}

/*
 * Shared by load and parse: file 0 is either read from path or given as text
 * (path NULL). cfg is written only on success.
 */
static int load(const char *path, const char *text, const char *base_dir,
		const struct hil_config_roots *roots, struct hil_config *cfg,
		char *err, size_t errlen)
{
	struct hil_jsonld ld;
	struct hil_config *c = NULL;
	cJSON *root = NULL;
	char *buf = NULL;
	char *dir = NULL;
	size_t len = 0, i;
	int ret;

	memset(&ld, 0, sizeof(ld));
	ld.err = err;
	ld.errlen = errlen;
	ld.roots = roots;
	if (err != NULL && errlen > 0) {
		err[0] = '\0';
	}
	if (cfg == NULL || (path == NULL && text == NULL) ||
	    (path != NULL && path[0] == '\0')) {
		return hil_jsonld_fail_file(&ld, HIL_ERR_ARG, NULL,
					    "no configuration given");
	}
	ld.graveyard = cJSON_CreateArray();
	c = malloc(sizeof(*c));
	if (ld.graveyard == NULL || c == NULL) {
		ret = hil_jsonld_fail_file(&ld, HIL_ERR_NOMEM, path,
					   "out of memory");
		goto out;
	}
	hil_config_defaults(c);

	if (path != NULL) {
		if (strlen(path) >= sizeof(c->path)) {
			ret = hil_jsonld_fail_file(
				&ld, HIL_ERR_ARG, NULL,
				"config path too long (at most %zu bytes)",
				sizeof(c->path) - 1);
			goto out;
		}
		ld.files[0] = strdup(path);
		dir = hil_jsonld_dir_of(path);
		if (ld.files[0] == NULL || dir == NULL) {
			ret = hil_jsonld_fail_file(&ld, HIL_ERR_NOMEM, path,
						   "out of memory");
			goto out;
		}
		ret = hil_jsonld_read_file(&ld, 0, &buf, &len);
		if (ret != HIL_OK) {
			goto out;
		}
		ret = hil_jsonld_parse_text(&ld, 0, buf, len, &root);
		snprintf(c->path, sizeof(c->path), "%s", path);
	} else {
		dir = strdup(base_dir != NULL ? base_dir : "");
		if (dir == NULL) {
			ret = hil_jsonld_fail_file(&ld, HIL_ERR_NOMEM, NULL,
						   "out of memory");
			goto out;
		}
		ret = hil_jsonld_parse_text(&ld, 0, text, strlen(text), &root);
	}
	if (ret != HIL_OK) {
		goto out;
	}
	ld.base_dir = dir;
	/* hil_jsonld_resolve() takes root and hands back the merged tree. */
	ret = hil_jsonld_resolve(&ld, 0, root, dir, &root);
	if (ret != HIL_OK) {
		root = NULL;
		goto out;
	}
	ret = validate(&ld, root, c);
	if (ret == HIL_OK) {
		memcpy(cfg, c, sizeof(*cfg));
	}
out:
	cJSON_Delete(root);
	cJSON_Delete(ld.graveyard);
	free(ld.origins);
	for (i = 0; i < HIL_JSONLD_MAX_CHAIN; i++) {
		free(ld.files[i]);
	}
	free(dir);
	free(buf);
	free(c);
	return ret;
}

int hil_config_load(const char *path, struct hil_config *cfg, char *err,
		    size_t errlen)
{
	return load(path, NULL, NULL, NULL, cfg, err, errlen);
}

int hil_config_parse(const char *json, const char *base_dir,
		     struct hil_config *cfg, char *err, size_t errlen)
{
	/* With json NULL too, load() reports "no configuration given". */
	return load(NULL, json, base_dir, NULL, cfg, err, errlen);
}

int hil_config_load_in(const char *path, const struct hil_config_roots *roots,
		       struct hil_config *cfg, char *err, size_t errlen)
{
	return load(path, NULL, NULL, roots, cfg, err, errlen);
}

int hil_config_parse_in(const char *json, const char *base_dir,
			const struct hil_config_roots *roots,
			struct hil_config *cfg, char *err, size_t errlen)
{
	return load(NULL, json, base_dir, roots, cfg, err, errlen);
}
