/* config: loads a run configuration from JSON, resolves "extends", validates it and copies it out. */
#define _XOPEN_SOURCE  700
#define HIL_LOG_PREFIX "config"

#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "util/err.h"
#include "util/log.h"
#include "util/util.h"

#include "config/config_int.h"
#include "config/jsonld.h"
#include "drivers/board/board.h"
#include "drivers/flasher/flasher.h"
#include "drivers/link/link.h"

static int not_a_serial_port(const char *port, char *why, size_t len);

/* Whether name is in a NULL-terminated list. */
int hil_cfg_listed(const char *const *list, const char *name)
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

	if (!hil_cfg_listed(b->flashers, cfg->flasher.type)) {
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
	 * libserialport cannot open a QEMU pty; semihosting needs an
	 * emulator). */
	if (!hil_cfg_listed(b->links, cfg->link.type)) {
		hil_drivers_join(names, sizeof(names), b->links);
		return hil_jsonld_fail(
			ld, hil_jsonld_member(link, "type"),
			"link.type: \"%s\" cannot reach board.name \"%s\" (it needs link %s)",
			cfg->link.type, cfg->board.name, names);
	}
	if (hil_link_needs_port(cfg->link.type) && cfg->link.port[0] == '\0' &&
	    cfg->board.id[0] == '\0') {
		at = hil_jsonld_member(link, "type");
		return hil_jsonld_fail(
			ld, at != NULL ? at : link,
			"link.port: required when link.type is \"%s\" (or board.id, to take it from the hardware map)",
			cfg->link.type);
	}
	/* A link opened on the configured port (serial) needs a tty. */
	if (hil_link_needs_port(cfg->link.type) && cfg->link.port[0] != '\0') {
		char why[128];

		if (not_a_serial_port(cfg->link.port, why, sizeof(why))) {
			return hil_jsonld_fail(
				ld, hil_jsonld_member(link, "port"),
				"link.port: %s is %s", cfg->link.port, why);
		}
	}
	return HIL_OK;
}

/*
 * Is port, when it exists, something other than a serial port: a
 * character device of the tty class (/sys/dev/char/MAJOR:MINOR/subsystem
 * ends in "tty")? /dev/zero as link.port once read as a board that answers
 * nothing, a transient failure worth a retry. A path that does not exist
 * may be a board not plugged in yet, and without sysfs we cannot tell:
 * neither is refused here. Only stat() and readlink(): nothing is opened.
 * @return 1 with why set, or 0.
 */
static int not_a_serial_port(const char *port, char *why, size_t len)
{
	char sys[96], target[256];
	const char *class;
	struct stat st;
	ssize_t n;

	if (stat(port, &st) != 0) {
		return 0;
	}
	if (!S_ISCHR(st.st_mode)) {
		snprintf(why, len,
			 "not a character device, so not a serial port");
		return 1;
	}
	snprintf(sys, sizeof(sys), "/sys/dev/char/%u:%u/subsystem",
		 (unsigned)major(st.st_rdev), (unsigned)minor(st.st_rdev));
	n = readlink(sys, target, sizeof(target) - 1);
	if (n <= 0) {
		return 0;
	}
	target[n] = '\0';
	class = strrchr(target, '/');
	class = class != NULL ? class + 1 : target;
	if (strcmp(class, "tty") != 0) {
		snprintf(why, len,
			 "a device of class \"%.32s\", not a serial port (tty)",
			 class);
		return 1;
	}
	return 0;
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
		ret = hil_cfg_v_board(ld, root, cfg);
	}
	if (ret == HIL_OK) {
		ret = hil_cfg_v_link(ld, root, cfg);
	}
	if (ret == HIL_OK) {
		ret = hil_cfg_v_flasher(ld, root, cfg);
	}
	if (ret == HIL_OK) {
		ret = hil_cfg_v_build(ld, root, cfg);
	}
	if (ret == HIL_OK) {
		ret = hil_cfg_v_algorithms(ld, root, cfg);
	}
	if (ret == HIL_OK) {
		ret = hil_cfg_v_impl_files(ld, root, cfg);
	}
	if (ret == HIL_OK) {
		ret = hil_cfg_v_cflags_allowed(ld, root, cfg);
	}
	if (ret == HIL_OK) {
		ret = hil_cfg_v_bench(ld, root, cfg);
	}
	if (ret == HIL_OK) {
		ret = hil_cfg_v_sensor(ld, root, cfg);
	}
	if (ret == HIL_OK) {
		ret = hil_cfg_v_cycle_model(ld, root, cfg);
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

void hil_config_free(struct hil_config *cfg)
{
	if (cfg == NULL) {
		return;
	}
	free(cfg->algs);
	cfg->algs = NULL;
	cfg->n_algs = 0;
	cfg->cap_algs = 0;
	free(cfg->not_for_board);
	cfg->not_for_board = NULL;
	cfg->n_not_for_board = 0;
	cfg->cap_not_for_board = 0;
}

int hil_config_add_alg(struct hil_config *cfg, struct hil_config_alg **out)
{
	void *arr = cfg->algs;

	if (hil_grow(&arr, cfg->n_algs, &cfg->cap_algs, sizeof(*cfg->algs)) !=
	    HIL_OK) {
		return HIL_ERR_NOMEM;
	}
	cfg->algs = arr;
	*out = &cfg->algs[cfg->n_algs++];
	memset(*out, 0, sizeof(**out));
	return HIL_OK;
}

int hil_config_add_skipped(struct hil_config *cfg,
			   struct hil_config_skipped **out)
{
	void *arr = cfg->not_for_board;

	if (hil_grow(&arr, cfg->n_not_for_board, &cfg->cap_not_for_board,
		     sizeof(*cfg->not_for_board)) != HIL_OK) {
		return HIL_ERR_NOMEM;
	}
	cfg->not_for_board = arr;
	*out = &cfg->not_for_board[cfg->n_not_for_board++];
	memset(*out, 0, sizeof(**out));
	return HIL_OK;
}

int hil_config_copy(struct hil_config *dst, const struct hil_config *src)
{
	*dst = *src;
	dst->algs = NULL;
	dst->cap_algs = 0;
	dst->not_for_board = NULL;
	dst->cap_not_for_board = 0;
	if (src->n_algs > 0) {
		dst->algs = malloc(src->n_algs * sizeof(*dst->algs));
		if (dst->algs == NULL) {
			dst->n_algs = 0;
			dst->n_not_for_board = 0;
			return HIL_ERR_NOMEM;
		}
		memcpy(dst->algs, src->algs, src->n_algs * sizeof(*dst->algs));
		dst->cap_algs = src->n_algs;
	}
	if (src->n_not_for_board > 0) {
		dst->not_for_board = malloc(src->n_not_for_board *
					    sizeof(*dst->not_for_board));
		if (dst->not_for_board == NULL) {
			hil_config_free(dst);
			return HIL_ERR_NOMEM;
		}
		memcpy(dst->not_for_board, src->not_for_board,
		       src->n_not_for_board * sizeof(*dst->not_for_board));
		dst->cap_not_for_board = src->n_not_for_board;
	}
	return HIL_OK;
}

void hil_config_defaults(struct hil_config *cfg)
{
	/* The first registered board is the default (drivers/drivers.def):
	 * the emulated one, which every machine can run. */
	const struct hil_board_driver *b = hil_board_all()[0];
	const struct hil_flasher_ops *f = hil_flasher_find(b->flashers[0]);

	memset(cfg, 0, sizeof(*cfg));
	snprintf(cfg->board.name, sizeof(cfg->board.name), "%s", b->name);
	cfg->board.clock_hz = b->clocks[0].hz;
	cfg->board.prefetch = -1;

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
	snprintf(cfg->cycle_model.profile, sizeof(cfg->cycle_model.profile),
		 "stm32f401-art");
	cfg->cycle_model.wait_states = 2;
	cfg->cycle_model.art = 1;

	snprintf(cfg->sensor.type, sizeof(cfg->sensor.type), "none");
	cfg->sensor.address = 0x40;
	cfg->sensor.shunt_ohm = 0.1;
	cfg->sensor.max_current_a = 0.4;
	cfg->sensor.bus_range_v = 16;
	cfg->sensor.pga_div = 0;
	cfg->sensor.adc_bits = 12;
	cfg->sensor.averages = 1;
	cfg->sensor.conversion_us = 0;
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
	c = calloc(1, sizeof(*c));
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
		/* cfg takes c's arrays over. */
		memcpy(cfg, c, sizeof(*cfg));
		memset(c, 0, sizeof(*c));
	}
out:
	hil_config_free(c);
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
