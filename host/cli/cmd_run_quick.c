/* cmd_run_quick: a run's quick options (--alg, --lengths, -O, ...) as a configuration in memory that extends the given one. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"hilrun"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli.h"
#include "cmd_run.h"
#include "config/config.h"
#include "util/err.h"
#include "util/log.h"

int cli_quick_any(const struct quick *q)
{
	return q->n_algs > 0 || q->impl != NULL || q->lengths != NULL ||
	       q->ad != NULL || q->ops != NULL || q->olevel != NULL ||
	       q->cflags != NULL || q->runs >= 0 || q->warmup >= 0;
}

/* "16,64" for option opt into a JSON array of numbers (or of strings). */
static cJSON *quick_list(const char *opt, const char *list, int numbers)
{
	cJSON *arr = cJSON_CreateArray();
	char buf[1024];
	char *tok, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", list);
	if (arr == NULL) {
		return NULL;
	}
	for (tok = strtok_r(buf, ", ", &save); tok != NULL;
	     tok = strtok_r(NULL, ", ", &save)) {
		unsigned long v;
		cJSON *item;

		if (numbers) {
			/* The configuration's own bound, the token named. */
			if (cli_parse_uint(opt, tok, 0, HIL_CFG_MAX_MSG_LEN,
					   &v) != HIL_OK) {
				cJSON_Delete(arr);
				return NULL;
			}
			item = cJSON_CreateNumber((double)v);
		} else {
			item = cJSON_CreateString(tok);
		}
		cJSON_AddItemToArray(arr, item);
	}
	if (cJSON_GetArraySize(arr) == 0) {
		hil_err("%s \"%s\": an empty list", opt, list);
		cJSON_Delete(arr);
		return NULL;
	}
	return arr;
}

/* --alg and --impl as the "algorithms" array, over the base's. */
static cJSON *quick_algs(const struct quick *q, const struct hil_config *base)
{
	cJSON *arr = cJSON_CreateArray();
	char buf[1024];
	size_t i;

	for (i = 0; arr != NULL && i < q->n_algs; i++) {
		char *tok, *save = NULL;

		snprintf(buf, sizeof(buf), "%s", q->algs[i]);
		for (tok = strtok_r(buf, ", ", &save); tok != NULL;
		     tok = strtok_r(NULL, ", ", &save)) {
			cJSON *o = cJSON_CreateObject();
			char *slash = strchr(tok, '/');
			const char *impl = q->impl;

			if (slash != NULL) {
				*slash = '\0';
				impl = slash + 1;
			}
			cJSON_AddStringToObject(o, "name", tok);
			if (impl != NULL) {
				cJSON_AddStringToObject(o, "impl", impl);
			}
			cJSON_AddItemToArray(arr, o);
		}
	}
	/* --impl alone: the base's algorithms that have it. */
	for (i = 0; arr != NULL && q->n_algs == 0 && i < base->n_algs; i++) {
		const struct hil_config_alg *a = &base->algs[i];
		cJSON *o;

		if (strcmp(a->impl, q->impl) != 0 || a->path[0] != '\0') {
			continue;
		}
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "name", a->name);
		cJSON_AddStringToObject(o, "impl", a->impl);
		cJSON_AddItemToArray(arr, o);
	}
	if (arr != NULL && cJSON_GetArraySize(arr) == 0) {
		hil_err("--impl %s: no bundled algorithm of %s has it", q->impl,
			base->path);
		cJSON_Delete(arr);
		return NULL;
	}
	return arr;
}

/* -O LEVEL and --cflags as build.cflags, over the base's. */
static cJSON *quick_cflags(const struct quick *q, const struct hil_config *base)
{
	cJSON *arr = cJSON_CreateArray();
	char buf[1024], flag[16];
	int have_o = 0;
	size_t i;

	if (q->cflags != NULL) {
		char *tok, *save = NULL;

		snprintf(buf, sizeof(buf), "%s", q->cflags);
		for (tok = strtok_r(buf, " ", &save); tok != NULL;
		     tok = strtok_r(NULL, " ", &save)) {
			cJSON_AddItemToArray(arr, cJSON_CreateString(tok));
		}
	} else {
		for (i = 0; i < base->build.n_cflags; i++) {
			cJSON_AddItemToArray(
				arr, cJSON_CreateString(base->build.cflags[i]));
		}
	}
	if (q->olevel == NULL) {
		return arr;
	}
	snprintf(flag, sizeof(flag), "-O%s", q->olevel);
	for (i = 0; i < (size_t)cJSON_GetArraySize(arr); i++) {
		cJSON *it = cJSON_GetArrayItem(arr, (int)i);

		if (strncmp(it->valuestring, "-O", 2) == 0) {
			cJSON_ReplaceItemInArray(arr, (int)i,
						 cJSON_CreateString(flag));
			have_o = 1;
		}
	}
	if (!have_o) {
		cJSON_AddItemToArray(arr, cJSON_CreateString(flag));
	}
	return arr;
}

int cli_load_run_config(const char *path, const struct quick *q,
			struct hil_config *cfg)
{
	struct hil_config *base;
	char err[1024], name[HIL_CFG_NAME];
	cJSON *root, *bench, *item;
	char *text;
	int ret = HIL_ERR_ARG;

	if (q == NULL || !cli_quick_any(q)) {
		return cli_load_config(path, cfg);
	}
	base = calloc(1, sizeof(*base));
	root = cJSON_CreateObject();
	bench = cJSON_CreateObject();
	if (base == NULL || root == NULL || bench == NULL) {
		hil_config_free(base);
		free(base);
		cJSON_Delete(root);
		cJSON_Delete(bench);
		return HIL_ERR_NOMEM;
	}
	ret = cli_load_config(path, base);
	if (ret != HIL_OK) {
		goto out;
	}
	ret = HIL_ERR_ARG;
	snprintf(name, sizeof(name), "%.*s-cli", HIL_CFG_NAME - 5, base->name);
	cJSON_AddStringToObject(root, "extends", path);
	cJSON_AddStringToObject(root, "name", name);
	if (q->n_algs > 0 || q->impl != NULL) {
		item = quick_algs(q, base);
		if (item == NULL) {
			goto out;
		}
		cJSON_AddItemToObject(root, "algorithms", item);
	}
	if (q->olevel != NULL || q->cflags != NULL) {
		cJSON *build = cJSON_AddObjectToObject(root, "build");

		cJSON_AddItemToObject(build, "cflags", quick_cflags(q, base));
	}
	if (q->lengths != NULL) {
		item = quick_list("--lengths", q->lengths, 1);
		if (item == NULL) {
			goto out;
		}
		cJSON_AddItemToObject(bench, "lengths", item);
	}
	if (q->ad != NULL) {
		item = quick_list("--ad", q->ad, 1);
		if (item == NULL) {
			goto out;
		}
		cJSON_AddItemToObject(bench, "ad_lengths", item);
	}
	if (q->ops != NULL) {
		item = quick_list("--ops", q->ops, 0);
		if (item == NULL) {
			goto out;
		}
		cJSON_AddItemToObject(bench, "operations", item);
	}
	if (q->runs >= 0) {
		cJSON_AddNumberToObject(bench, "runs", (double)q->runs);
	}
	if (q->warmup >= 0) {
		cJSON_AddNumberToObject(bench, "warmup", (double)q->warmup);
	}
	cJSON_AddItemToObject(root, "bench", bench);
	bench = NULL;
	text = cJSON_PrintUnformatted(root);
	if (text == NULL) {
		ret = HIL_ERR_NOMEM;
		goto out;
	}
	hil_dbg("the command line's configuration: %s", text);
	ret = hil_config_parse(text, NULL, cfg, err, sizeof(err));
	free(text);
	if (ret != HIL_OK) {
		/* The loader names JSON paths; say they are the options'. */
		hil_err("the command-line options over %s: %s (see hilrun --help: --alg, --lengths, --ad, --ops, --runs, -O, --cflags)",
			path, err);
	}
out:
	cJSON_Delete(bench);
	cJSON_Delete(root);
	hil_config_free(base);
	free(base);
	return ret;
}
