/* config_bench: the build, bench and cycle_model sections of a run configuration. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "util/err.h"

#include "config/cflags.h"
#include "config/config_int.h"
#include "config/jsonld.h"
#include "drivers/board/board.h"
#include "drivers/board/memsys.h"

static const char *const op_names[] = {"encrypt", "decrypt", "hash", NULL};
static const uint32_t op_bits[] = {HIL_OPS_ENCRYPT, HIL_OPS_DECRYPT,
				   HIL_OPS_HASH};

static const struct hil_jsonld_choice op_choice = {"an operation", op_names,
						   "encrypt, decrypt or hash"};

static const char *const cycle_model_keys[] = {
	"enabled", "profile", "wait_states", "art", NULL,
};
static const char *const build_keys[] = {
	"cflags",
	NULL,
};
static const char *const bench_keys[] = {
	"operations", "lengths",      "ad_lengths", "runs", "warmup",
	"seed",	      "normalize_to", "leak_runs",  NULL,
};

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

int hil_cfg_v_build(struct hil_jsonld *ld, const cJSON *root,
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

int hil_cfg_v_cflags_allowed(struct hil_jsonld *ld, const cJSON *root,
			     const struct hil_config *cfg)
{
	const cJSON *it;
	char why[512];
	size_t i = 0;

	if (hil_cflags_check(cfg, &i, why, sizeof(why)) == HIL_OK) {
		return HIL_OK;
	}
	it = cJSON_GetArrayItem(
		hil_jsonld_member(hil_jsonld_member(root, "build"), "cflags"),
		(int)i);
	return hil_jsonld_fail(ld, it, "build.cflags[%zu]: %s", i, why);
}

int hil_cfg_v_bench(struct hil_jsonld *ld, const cJSON *root,
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
			ld, it, "bench.lengths", HIL_CFG_MAX_LENGTHS,
			HIL_CFG_MAX_MSG_LEN, cfg->bench.lengths,
			&cfg->bench.n_lengths);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	it = hil_jsonld_member(s, "ad_lengths");
	if (it != NULL) {
		ret = hil_jsonld_u32_list(
			ld, it, "bench.ad_lengths", HIL_CFG_MAX_AD_LENGTHS,
			HIL_CFG_MAX_MSG_LEN, cfg->bench.ad_lengths,
			&cfg->bench.n_ad_lengths);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	it = hil_jsonld_member(s, "runs");
	if (it != NULL) {
		/* The stub keeps at most BENCH_MAX_RUNS samples (target/
		 * bench.h): more is a mistake found here, before any build,
		 * not by the stub after it. */
		ret = hil_jsonld_u32(ld, it, "bench.runs", 1, 2048,
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

/* The profile the board's target code sets up at the configured clock. */
static const char *board_profile(const struct hil_config *cfg)
{
	const struct hil_board_driver *b = hil_board_find(cfg->board.name);
	const struct hil_clock_profile *c = hil_board_clock_flash(
		b, cfg->board.clock_hz, cfg->board.prefetch);

	if (c != NULL && c->cycle_profile != NULL) {
		return c->cycle_profile;
	}
	return b != NULL ? b->cycle_profile : NULL;
}

static int parse_profile(struct hil_jsonld *ld, const cJSON *it,
			 struct hil_config *cfg)
{
	const char *names[16];
	char expected[256];
	struct hil_jsonld_choice ch = {"a memory-system profile", names,
				       expected};
	size_t i;

	for (i = 0; i + 1 < sizeof(names) / sizeof(names[0]) &&
		    cm4_memsys_at(i) != NULL;
	     i++) {
		names[i] = cm4_memsys_at(i)->name;
	}
	names[i] = NULL;
	hil_drivers_join(expected, sizeof(expected), names);
	return hil_jsonld_choice(ld, it, "cycle_model.profile", &ch,
				 cfg->cycle_model.profile,
				 sizeof(cfg->cycle_model.profile), NULL);
}

/*
 * The cycle model's memory system: the profile named, else the board's at
 * its clock (the Nucleo-F401RE's: stm32f401-art at 84 MHz, stm32f401-0ws
 * at 24 and 16 MHz). wait_states and art, when given, override the
 * profile's wait states and switch its prefetch and caches. A board
 * without a profile (none documented) keeps the old rule: its clock's
 * wait states, and the accelerator on when there are any.
 */
int hil_cfg_v_cycle_model(struct hil_jsonld *ld, const cJSON *root,
			  struct hil_config *cfg)
{
	const struct cm4_memsys *p;
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
	it = hil_jsonld_member(s, "profile");
	if (it != NULL) {
		ret = parse_profile(ld, it, cfg);
		if (ret != HIL_OK) {
			return ret;
		}
	} else {
		const char *b = board_profile(cfg);

		snprintf(cfg->cycle_model.profile,
			 sizeof(cfg->cycle_model.profile), "%s",
			 b != NULL ? b : "");
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
	p = cm4_memsys_find(cfg->cycle_model.profile);
	if (!ws_given && p != NULL) {
		cfg->cycle_model.wait_states = p->ws;
	} else if (!ws_given) {
		const struct hil_clock_profile *c = hil_board_clock(
			hil_board_find(cfg->board.name), cfg->board.clock_hz);

		cfg->cycle_model.wait_states = c != NULL ? c->wait_states : 0u;
	}
	if (!art_given) {
		cfg->cycle_model.art =
			p != NULL || cfg->cycle_model.wait_states > 0;
	}
	return HIL_OK;
}
