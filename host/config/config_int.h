/* config_int: what the pieces of the run configuration's loader share (config.c calls each section's validator in order). */
#ifndef HIL_CONFIG_INT_H
#define HIL_CONFIG_INT_H

#include <cjson/cJSON.h>

#include "config/config.h"
#include "config/jsonld.h"

/*
 * The section validators: each checks its section of the merged tree root
 * (absent is fine unless said otherwise) and writes what it finds over the
 * defaults in cfg.
 * @return HIL_OK, or the error hil_jsonld_fail() recorded in ld.
 */
int hil_cfg_v_board(struct hil_jsonld *ld, const cJSON *root,
		    struct hil_config *cfg);
int hil_cfg_v_link(struct hil_jsonld *ld, const cJSON *root,
		   struct hil_config *cfg);
int hil_cfg_v_flasher(struct hil_jsonld *ld, const cJSON *root,
		      struct hil_config *cfg);
int hil_cfg_v_build(struct hil_jsonld *ld, const cJSON *root,
		    struct hil_config *cfg);
/* The only required section: at least one algorithm. */
int hil_cfg_v_algorithms(struct hil_jsonld *ld, const cJSON *root,
			 struct hil_config *cfg);
/* After algorithms: build.cflags against the allowlist (-I may name a
 * folder inside an implementation folder). */
int hil_cfg_v_cflags_allowed(struct hil_jsonld *ld, const cJSON *root,
			     const struct hil_config *cfg);
/* After algorithms: every implementation folder (path or tree) holds
 * regular files and folders only, and for a lab job no link out of the
 * roots (config_implfiles.c). */
int hil_cfg_v_impl_files(struct hil_jsonld *ld, const cJSON *root,
			 struct hil_config *cfg);
int hil_cfg_v_bench(struct hil_jsonld *ld, const cJSON *root,
		    struct hil_config *cfg);
int hil_cfg_v_sensor(struct hil_jsonld *ld, const cJSON *root,
		     struct hil_config *cfg);
/* After board: its defaults come from the board's clock profile. */
int hil_cfg_v_cycle_model(struct hil_jsonld *ld, const cJSON *root,
			  struct hil_config *cfg);

/* Whether name is in a NULL-terminated list (NULL: an empty one). */
int hil_cfg_listed(const char *const *list, const char *name);

#endif /* HIL_CONFIG_INT_H */
