/* pqentries: the algorithm entries of a post-quantum configuration (mupq/pqm4 layout) read and expanded into scheme folders and common-code folders. */
#define _XOPEN_SOURCE 700

#include "pqentries.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/err.h"

#define MAX_CONFIG_BYTES (1u << 20)

static char *read_text(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	size_t n;

	if (f == NULL) {
		return NULL;
	}
	buf = malloc(MAX_CONFIG_BYTES + 1);
	if (buf == NULL) {
		fclose(f);
		return NULL;
	}
	n = fread(buf, 1, MAX_CONFIG_BYTES + 1, f);
	fclose(f);
	if (n > MAX_CONFIG_BYTES) {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	return buf;
}

/* base's folder joined with rel (rel as it is when absolute). */
static int join(const char *base, const char *rel, char *out, size_t len)
{
	const char *slash = strrchr(base, '/');
	int n;

	if (rel[0] == '/' || slash == NULL) {
		n = snprintf(out, len, "%s", rel);
	} else {
		n = snprintf(out, len, "%.*s/%s", (int)(slash - base), base,
			     rel);
	}
	return n > 0 && (size_t)n < len ? HIL_OK : HIL_ERR_CONFIG;
}

static int is_dir(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int has_api(const char *dir)
{
	char p[HIL_PQ_PATH + 8];
	struct stat st;

	snprintf(p, sizeof(p), "%s/api.h", dir);
	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* within: the entry's "links_within" folders (bits of plan->within). */
static int add_dir(struct hil_pq_plan *plan, const char *dir, unsigned within,
		   char *err, size_t len)
{
	size_t i;

	for (i = 0; i < plan->n_dirs; i++) {
		if (strcmp(plan->dirs[i], dir) == 0) {
			plan->dir_within[i] |= within;
			return HIL_OK; /* named twice: run once */
		}
	}
	if (plan->n_dirs == HIL_PQ_MAX_DIRS) {
		snprintf(err, len, "more than %d scheme folders",
			 HIL_PQ_MAX_DIRS);
		return HIL_ERR_CONFIG;
	}
	plan->dir_within[plan->n_dirs] = within;
	snprintf(plan->dirs[plan->n_dirs++], HIL_PQ_PATH, "%s", dir);
	return HIL_OK;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The sorted names of the subfolders of dir (NULL-terminated; free each and
 * the array), or NULL. */
static char **subdirs(const char *dir, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t cap = 0;

	*n = 0;
	if (d == NULL) {
		return NULL;
	}
	while ((e = readdir(d)) != NULL) {
		char p[HIL_PQ_PATH * 2];

		if (e->d_name[0] == '.') {
			continue;
		}
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		if (!is_dir(p)) {
			continue;
		}
		if (*n + 1 >= cap) {
			char **nn;

			cap = cap ? 2 * cap : 32;
			nn = realloc(names, cap * sizeof(*names));
			if (nn == NULL) {
				break;
			}
			names = nn;
		}
		names[(*n)++] = strdup(e->d_name);
	}
	closedir(d);
	if (names != NULL) {
		qsort(names, *n, sizeof(*names), cmp_names);
	}
	return names;
}

static void free_names(char **names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(names[i]);
	}
	free(names);
}

/* Every tree/SCHEME/IMPL with an api.h whose "SCHEME/IMPL" matches. */
static int expand_tree(struct hil_pq_plan *plan, const char *tree,
		       const char *pattern, unsigned within, size_t *added,
		       char *err, size_t len)
{
	size_t ns, i;
	char **schemes = subdirs(tree, &ns);
	int ret = HIL_OK;

	*added = 0;
	for (i = 0; i < ns && ret == HIL_OK; i++) {
		char sdir[HIL_PQ_PATH * 2];
		size_t ni, j;
		char **impls;

		snprintf(sdir, sizeof(sdir), "%s/%s", tree, schemes[i]);
		impls = subdirs(sdir, &ni);
		for (j = 0; j < ni && ret == HIL_OK; j++) {
			char id[HIL_PQ_PATH], dir[HIL_PQ_PATH * 3];

			snprintf(id, sizeof(id), "%s/%s", schemes[i], impls[j]);
			snprintf(dir, sizeof(dir), "%s/%s", sdir, impls[j]);
			if (fnmatch(pattern, id, FNM_PATHNAME) == 0 &&
			    has_api(dir) && strlen(dir) < HIL_PQ_PATH) {
				ret = add_dir(plan, dir, within, err, len);
				(*added)++;
			}
		}
		free_names(impls, ni);
	}
	free_names(schemes, ns);
	return ret;
}

/* "common" or "host_common": an array of folders, resolved. */
static int read_folders(const cJSON *e, const char *key, const char *cfg,
			size_t idx, char out[][HIL_PQ_PATH], size_t *n,
			int *given, char *err, size_t len)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(e, key);
	const cJSON *it;
	char tmp[HIL_PQ_MAX_COMMON][HIL_PQ_PATH];
	size_t k = 0;

	if (a == NULL) {
		return HIL_OK;
	}
	if (!cJSON_IsArray(a)) {
		snprintf(err, len,
			 "%s: algorithms[%zu].%s: an array of folders", cfg,
			 idx, key);
		return HIL_ERR_CONFIG;
	}
	cJSON_ArrayForEach(it, a)
	{
		if (!cJSON_IsString(it) || k == HIL_PQ_MAX_COMMON ||
		    join(cfg, it->valuestring, tmp[k], HIL_PQ_PATH) != HIL_OK ||
		    !is_dir(tmp[k])) {
			snprintf(err, len,
				 "%s: algorithms[%zu].%s[%zu]: not a folder "
				 "(at most %d folders, each a string)",
				 cfg, idx, key, k, HIL_PQ_MAX_COMMON);
			return HIL_ERR_CONFIG;
		}
		k++;
	}
	if (*given) {
		size_t i;
		int same = k == *n;

		for (i = 0; same && i < k; i++) {
			same = strcmp(tmp[i], out[i]) == 0;
		}
		if (!same) {
			snprintf(err, len,
				 "%s: algorithms[%zu].%s differs from an "
				 "earlier entry's: one run builds every "
				 "scheme with the same common code (split the "
				 "configuration)",
				 cfg, idx, key);
			return HIL_ERR_CONFIG;
		}
		return HIL_OK;
	}
	memcpy(out, tmp, sizeof(tmp));
	*n = k;
	*given = 1;
	return HIL_OK;
}

/*
 * "links_within": folders a link of the entry's folders may lead into,
 * each inside the configuration file's own folder (real paths), so that a
 * configuration cannot have a link followed to a file of the host beyond
 * the folder it sits in. Their bits in plan->within into *mask.
 */
static int read_within(struct hil_pq_plan *plan, const cJSON *e,
		       const char *cfg, size_t idx, unsigned *mask, char *err,
		       size_t len)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(e, "links_within");
	const cJSON *it;
	char home[HIL_PQ_PATH], real[HIL_PQ_PATH], p[HIL_PQ_PATH];
	size_t k = 0, i;

	*mask = 0;
	if (a == NULL) {
		return HIL_OK;
	}
	if (!cJSON_IsArray(a)) {
		snprintf(err, len,
			 "%s: algorithms[%zu].links_within: an array of "
			 "folders",
			 cfg, idx);
		return HIL_ERR_CONFIG;
	}
	if (join(cfg, ".", p, sizeof(p)) != HIL_OK ||
	    realpath(p, home) == NULL) {
		snprintf(err, len, "%s: its folder cannot be resolved", cfg);
		return HIL_ERR_CONFIG;
	}
	cJSON_ArrayForEach(it, a)
	{
		size_t n = strlen(home);

		if (!cJSON_IsString(it) ||
		    join(cfg, it->valuestring, p, sizeof(p)) != HIL_OK ||
		    !is_dir(p) || realpath(p, real) == NULL) {
			snprintf(err, len,
				 "%s: algorithms[%zu].links_within[%zu]: not "
				 "a folder",
				 cfg, idx, k);
			return HIL_ERR_CONFIG;
		}
		if (strcmp(home, "/") != 0 &&
		    (strncmp(real, home, n) != 0 ||
		     (real[n] != '/' && real[n] != '\0'))) {
			snprintf(err, len,
				 "%s: algorithms[%zu].links_within[%zu] "
				 "\"%.200s\" (%.300s): outside the "
				 "configuration's folder %.300s (a link is "
				 "followed only into folders beside the "
				 "configuration)",
				 cfg, idx, k, it->valuestring, real, home);
			return HIL_ERR_CONFIG;
		}
		for (i = 0; i < plan->n_within; i++) {
			if (strcmp(plan->within[i], real) == 0) {
				break;
			}
		}
		if (i == plan->n_within) {
			if (plan->n_within == HIL_PQ_MAX_COMMON) {
				snprintf(err, len,
					 "%s: algorithms[%zu].links_within: "
					 "more than %d folders in all",
					 cfg, idx, HIL_PQ_MAX_COMMON);
				return HIL_ERR_CONFIG;
			}
			snprintf(plan->within[plan->n_within++], HIL_PQ_PATH,
				 "%s", real);
		}
		*mask |= 1u << i;
		k++;
	}
	return HIL_OK;
}

static int read_entry(struct hil_pq_plan *plan, const cJSON *e, const char *cfg,
		      size_t idx, int *seen_common, int *seen_host, char *err,
		      size_t len)
{
	const cJSON *path = cJSON_GetObjectItemCaseSensitive(e, "path");
	const cJSON *tree = cJSON_GetObjectItemCaseSensitive(e, "tree");
	const cJSON *pattern = cJSON_GetObjectItemCaseSensitive(e, "pattern");
	char dir[HIL_PQ_PATH];
	unsigned within = 0;
	int ret;

	if (!cJSON_IsObject(e)) {
		snprintf(err, len, "%s: algorithms[%zu]: an object", cfg, idx);
		return HIL_ERR_CONFIG;
	}
	ret = read_within(plan, e, cfg, idx, &within, err, len);
	if (ret != HIL_OK) {
		return ret;
	}
	ret = read_folders(e, "common", cfg, idx, plan->common, &plan->n_common,
			   seen_common, err, len);
	if (ret == HIL_OK) {
		ret = read_folders(e, "host_common", cfg, idx,
				   plan->host_common, &plan->n_host_common,
				   seen_host, err, len);
	}
	if (ret != HIL_OK) {
		return ret;
	}
	if (cJSON_IsString(tree)) {
		size_t added;

		if (!cJSON_IsString(pattern)) {
			snprintf(err, len,
				 "%s: algorithms[%zu]: \"tree\" needs a "
				 "\"pattern\" (e.g. \"ml-kem-768/*\")",
				 cfg, idx);
			return HIL_ERR_CONFIG;
		}
		if (join(cfg, tree->valuestring, dir, sizeof(dir)) != HIL_OK ||
		    !is_dir(dir)) {
			snprintf(err, len,
				 "%s: algorithms[%zu].tree \"%.200s\": "
				 "not a folder",
				 cfg, idx, tree->valuestring);
			return HIL_ERR_CONFIG;
		}
		ret = expand_tree(plan, dir, pattern->valuestring, within,
				  &added, err, len);
		if (ret == HIL_OK && added == 0) {
			snprintf(err, len,
				 "%s: algorithms[%zu]: no SCHEME/IMPL folder "
				 "with an api.h under \"%.200s\" matches "
				 "\"%.100s\"",
				 cfg, idx, tree->valuestring,
				 pattern->valuestring);
			return HIL_ERR_CONFIG;
		}
		return ret;
	}
	if (!cJSON_IsString(path)) {
		snprintf(err, len,
			 "%s: algorithms[%zu]: needs \"path\" (a folder with "
			 "api.h) or \"tree\" and \"pattern\"",
			 cfg, idx);
		return HIL_ERR_CONFIG;
	}
	if (join(cfg, path->valuestring, dir, sizeof(dir)) != HIL_OK ||
	    !has_api(dir)) {
		snprintf(err, len,
			 "%s: algorithms[%zu].path \"%.200s\": no api.h there",
			 cfg, idx, path->valuestring);
		return HIL_ERR_CONFIG;
	}
	return add_dir(plan, dir, within, err, len);
}

int hil_pq_plan_load(const char *path, struct hil_pq_plan *plan, char *err,
		     size_t len)
{
	char *text;
	cJSON *root;
	const cJSON *algs, *e;
	int seen_common = 0, seen_host = 0;
	size_t idx = 0;
	int ret = HIL_OK;

	memset(plan, 0, sizeof(*plan));
	text = read_text(path);
	if (text == NULL) {
		snprintf(err, len, "%s: cannot read it (or larger than 1 MiB)",
			 path);
		return HIL_ERR_IO;
	}
	root = cJSON_Parse(text);
	free(text);
	if (root == NULL) {
		snprintf(err, len, "%s: not JSON", path);
		return HIL_ERR_CONFIG;
	}
	algs = cJSON_GetObjectItemCaseSensitive(root, "algorithms");
	if (!cJSON_IsArray(algs) || cJSON_GetArraySize(algs) == 0) {
		snprintf(err, len, "%s: \"algorithms\": a non-empty array",
			 path);
		cJSON_Delete(root);
		return HIL_ERR_CONFIG;
	}
	cJSON_ArrayForEach(e, algs)
	{
		ret = read_entry(plan, e, path, idx++, &seen_common, &seen_host,
				 err, len);
		if (ret != HIL_OK) {
			break;
		}
	}
	cJSON_Delete(root);
	return ret;
}
