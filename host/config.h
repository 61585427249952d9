/* config: a run configuration loaded from JSON (with `extends`) and validated. */
#ifndef HIL_CONFIG_H
#define HIL_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#define HIL_CFG_STR		  256 /* paths, program names */
#define HIL_CFG_NAME		  64  /* short names */
#define HIL_CFG_MAX_FLAGS	  32
#define HIL_CFG_MAX_ALGS	  16
#define HIL_CFG_MAX_LENGTHS	  32
#define HIL_CFG_MAX_AD_LENGTHS	  8
#define HIL_CFG_MAX_OPENOCD_CFG	  4
#define HIL_CFG_MAX_EXTENDS_DEPTH 8 /* "extends" hops: a file and 8 bases */

/* Operation bits for hil_config.bench.operations. */
#define HIL_OPS_ENCRYPT 0x1u
#define HIL_OPS_DECRYPT 0x2u
#define HIL_OPS_HASH	0x4u

struct hil_config_alg {
	char name[HIL_CFG_NAME]; /* e.g. "ascon-aead128" */
	char impl[HIL_CFG_NAME]; /* e.g. "ref"; default "ref" */
	/* An external implementation folder (NIST LWC layout), resolved
	 * against the folder of the config file that names it; "" when the
	 * implementation is bundled. */
	char path[HIL_CFG_STR];
	char kat[HIL_CFG_STR]; /* its known-answer file, or "" */
};

struct hil_config {
	char path[HIL_CFG_STR];	 /* file it was loaded from */
	char name[HIL_CFG_NAME]; /* "name", default: file name without .json
					 * ("inline" for hil_config_parse); never
					 * inherited from an extended base */

	struct {
		char name[HIL_CFG_NAME]; /* "qemu-netduino" (default) | "nucleo-f401re" | "native" */
		uint32_t clock_hz; /* 84000000 (default) | 24000000 | 16000000 */
	} board;

	struct {
		char type[HIL_CFG_NAME]; /* "socket" | "serial"; default from the board */
		char port[HIL_CFG_STR]; /* serial device; empty for socket */
		uint32_t baud;		/* default 115200 */
		uint32_t timeout_ms;	/* per reply, default 2000 */
		uint32_t retries;	/* per command, default 3 */
	} link;

	struct {
		char type[HIL_CFG_NAME]; /* "qemu" | "openocd" | "native"; default from the board */
		char program[HIL_CFG_STR]; /* default "qemu-system-arm" / "openocd" / "" (native) */
		char openocd_cfg[HIL_CFG_MAX_OPENOCD_CFG][HIL_CFG_STR];
		size_t n_openocd_cfg; /* default 1: "board/st_nucleo_f4.cfg" */
		char probe_serial[HIL_CFG_NAME]; /* "adapter serial", may be empty */
		uint32_t timeout_ms;		 /* default 60000 */
	} flasher;

	struct {
		char cflags[HIL_CFG_MAX_FLAGS][HIL_CFG_NAME];
		size_t n_cflags; /* default: "-O2" */
	} build;

	struct hil_config_alg algs[HIL_CFG_MAX_ALGS];
	size_t n_algs; /* at least one */

	struct {
		uint32_t operations; /* HIL_OPS_*; default encrypt|decrypt */
		uint32_t lengths[HIL_CFG_MAX_LENGTHS];
		size_t n_lengths; /* default 16, 64, 256, 1024 */
		uint32_t ad_lengths[HIL_CFG_MAX_AD_LENGTHS];
		size_t n_ad_lengths; /* default 0 */
		uint32_t runs;	     /* default 1000, 1..65535 */
		uint32_t warmup;     /* default 10, 0..65535 */
		uint32_t seed;	     /* default 1 */
	} bench;

	char results_dir[HIL_CFG_STR]; /* default "results" */
};

/**
 * Load and validate a configuration file. "extends" names a base file
 * (relative to the including file) whose keys are overridden key by key
 * (objects merged recursively, arrays and scalars replaced). Unknown keys,
 * wrong types and out-of-range values are errors whose message names the
 * JSON path, e.g. "configs/x.json: bench.lengths[2]: expected an integer
 * from 0 to 2048". The file named is the one the offending value is written in.
 * docs/configs.md lists every key.
 * @param cfg filled on success (defaults applied first); untouched on failure.
 * @param err receives the message on failure (errlen bytes, NUL-terminated);
 *         may be NULL.
 * @return HIL_OK, HIL_ERR_CONFIG (invalid), HIL_ERR_IO (unreadable),
 *         HIL_ERR_NOMEM, or HIL_ERR_ARG (NULL path, text or cfg).
 */
int hil_config_load(const char *path, struct hil_config *cfg, char *err,
		    size_t errlen);

/**
 * As hil_config_load, from a JSON text; base_dir resolves "extends" (NULL:
 * the working directory). Messages about the text itself have no file prefix.
 */
int hil_config_parse(const char *json, const char *base_dir,
		     struct hil_config *cfg, char *err, size_t errlen);

/** Fill cfg with the defaults listed above. */
void hil_config_defaults(struct hil_config *cfg);

#endif /* HIL_CONFIG_H */
