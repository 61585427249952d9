/* config: a run configuration loaded from JSON (with `extends`) and validated. */
#ifndef HIL_CONFIG_H
#define HIL_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#include "util/linkset.h"

#define HIL_CFG_STR		  256 /* paths, program names */
#define HIL_CFG_NAME		  64  /* short names */
#define HIL_CFG_MAX_FLAGS	  32
#define HIL_CFG_MAX_LENGTHS	  64
#define HIL_CFG_MAX_AD_LENGTHS	  8
/* The longest message or associated data a row may have, in bytes: what
 * the stub's buffers hold (bench.lengths, bench.ad_lengths, --lengths). */
#define HIL_CFG_MAX_MSG_LEN	  2048
#define HIL_CFG_MAX_FLASHER_FILES 4
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
	/* Measure a folder of an algorithm hilrun does not bundle even when
	 * it can be checked neither by a host build nor by a KAT file; its
	 * rows are marked unverified. */
	int unverified;
	unsigned entry; /* its index in the JSON "algorithms" (a tree gives
			 * several implementations of one entry) */
	/* The folder's symbolic links as the load checked them
	 * (util/linkset.h); the build copies the folder only if they are
	 * the same then. links_checked 0: never checked. */
	unsigned char links[HIL_LINKSET_DIGEST];
	int links_checked;
};

/* A folder of a tree that is not built: its code is for another
 * architecture (an lwc_arch_* marker, or assembly that only an AVR runs). */
struct hil_config_skipped {
	char name[HIL_CFG_NAME];
	char impl[HIL_CFG_NAME];
	char why[200];	/* "marked lwc_arch_avr", ... */
	unsigned entry; /* its tree's index in the JSON "algorithms" */
};

struct hil_config {
	char path[HIL_CFG_STR];	 /* file it was loaded from */
	char name[HIL_CFG_NAME]; /* "name", default: file name without .json
					 * ("inline" for hil_config_parse); never
					 * inherited from an extended base */

	struct {
		char name[HIL_CFG_NAME]; /* a board driver (drivers/drivers.def); default: the first */
		uint32_t clock_hz; /* 84000000 (default) | 24000000 | 16000000 */
		/* Flash prefetch: -1 (default) as the board code sets it at
		 * clock_hz, 0 off, 1 on (only where the board offers both). */
		int prefetch;
		/* The board's id in the hardware map (configs/boards.json);
		 * "" (default): found by probe serial or port, if at all */
		char id[HIL_CFG_NAME];
	} board;

	struct {
		char type[HIL_CFG_NAME]; /* a link driver ("serial", "socket",
					  * "semihost"); default: the board's first */
		char port[HIL_CFG_STR];	 /* serial device; empty otherwise */
		uint32_t baud;		 /* default 115200 */
		uint32_t timeout_ms;	 /* per reply, default 2000 */
		uint32_t retries;	 /* per command, default 3 */
	} link;

	struct {
		char type[HIL_CFG_NAME]; /* a flasher driver; default: the board's first */
		char program[HIL_CFG_STR]; /* default: the flasher driver's program */
		/* The tool's own config files (OpenOCD's -f scripts: key
		 * "openocd_config"); default: the board driver's. */
		char files[HIL_CFG_MAX_FLASHER_FILES][HIL_CFG_STR];
		size_t n_files;
		/* The tool's name for the chip (pyOCD's -t: key "target");
		 * default: the board driver's. */
		char target[HIL_CFG_NAME];
		char probe_serial
			[HIL_CFG_NAME]; /* the probe's serial or unique ID, may be empty */
		uint32_t timeout_ms; /* default 60000 */
	} flasher;

	struct {
		char cflags[HIL_CFG_MAX_FLAGS][HIL_CFG_NAME];
		size_t n_cflags; /* default: "-O2" */
	} build;

	/* Every implementation of the run, all its tree entries together
	 * (the NIST LWC repository's AEAD trees have 178 folders in all): no
	 * limit but memory; a run splits them over as many images as it
	 * takes (HIL_IMAGE_MAX_ALGS each). Owned: hil_config_free(). */
	struct hil_config_alg *algs;
	size_t n_algs; /* at least one */
	size_t cap_algs;
	/* Folders of its trees listed as not for this board (never built,
	 * never failed). Owned, as algs. */
	struct hil_config_skipped *not_for_board;
	size_t n_not_for_board;
	size_t cap_not_for_board;

	struct {
		uint32_t operations; /* HIL_OPS_*; default encrypt|decrypt */
		uint32_t lengths[HIL_CFG_MAX_LENGTHS];
		size_t n_lengths; /* default 0, 16, 64, 256, 1024, 2048 */
		uint32_t ad_lengths[HIL_CFG_MAX_AD_LENGTHS];
		size_t n_ad_lengths; /* default 0 */
		uint32_t runs;	     /* default 1000, 1..65535 */
		uint32_t warmup;     /* default 10, 0..65535 */
		uint32_t seed;	     /* default 1 */
		/* "alg" or "alg/impl" whose encrypt per-byte figure divides
		 * every row's ("normalized"); default "aes128-ecb"; "" none */
		char normalize_to[2 * HIL_CFG_NAME];
		/* timed runs of the timing-leak test per row (fixed against
		 * random inputs, Welch's t); default 1000; 0: no leak test */
		uint32_t leak_runs;
	} bench;

	/*
	 * The current sensor for energy per operation (docs/configs.md). The
	 * chip's own settings are read and checked by its driver
	 * (drivers/sensor/driver.h); a field that several chips have is one.
	 */
	struct {
		/* "none" (default) or a sensor driver (drivers/drivers.def) */
		char type[HIL_CFG_NAME];
		/* "ftdi:VID:PID[:SERIAL]" | "linux:/dev/i2c-N" | "sim:..." */
		char bus[HIL_CFG_STR];
		uint8_t address;      /* 7-bit, default 0x40 */
		double shunt_ohm;     /* default 0.1 */
		double max_current_a; /* default 0.4 */
		/*
		 * The chip's own settings, each read, checked and used by the
		 * drivers whose keys set it (docs/configs.md): the bus range
		 * in V (default 16), the PGA divider (0, default: automatic),
		 * the ADC's resolution in bits (default 12), the samples
		 * averaged per conversion (default 1), one channel's
		 * conversion time in us (0, default: the chip's own).
		 */
		unsigned bus_range_v;
		unsigned pga_div;
		unsigned adc_bits;
		unsigned averages;
		unsigned conversion_us;
		uint32_t conversions; /* per energy window, default 50 */
		uint32_t windows;     /* windows per row, default 5 */
	} sensor;

	/* The Cortex-M4 cycle model on the emulated board (docs/cycle-model.md). */
	struct {
		int enabled; /* default 1 with the qemu flasher */
		/* The memory-system profile (drivers/board/memsys.c); default
		 * the board's at its clock; "" when it has none. */
		char profile[32];
		unsigned wait_states; /* 0..15; default the profile's */
		int art;	      /* default on with a profile */
	} cycle_model;

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
 *        It then owns its algorithms: free them with hil_config_free().
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

/** Fill cfg with the defaults listed above (no algorithms: nothing to free). */
void hil_config_defaults(struct hil_config *cfg);

/**
 * Free what cfg owns (its algorithms and not_for_board) and leave them
 * empty; cfg itself stays the caller's. NULL, and a cfg from
 * hil_config_defaults(), are fine.
 */
void hil_config_free(struct hil_config *cfg);

/**
 * Copy src into dst, arrays and all (dst owns its own: free it with
 * hil_config_free()). dst's former contents are not freed.
 * @return HIL_OK, or HIL_ERR_NOMEM (dst then holds no algorithms).
 */
int hil_config_copy(struct hil_config *dst, const struct hil_config *src);

/**
 * A new zeroed implementation at the end of cfg->algs (n_algs counts it).
 * @param out receives it (valid until the next add).
 * @return HIL_OK or HIL_ERR_NOMEM (cfg unchanged).
 */
int hil_config_add_alg(struct hil_config *cfg, struct hil_config_alg **out);

/** As hil_config_add_alg, for cfg->not_for_board. */
int hil_config_add_skipped(struct hil_config *cfg,
			   struct hil_config_skipped **out);

/* Folders an untrusted configuration's files must lie in (links resolved):
 * the config itself, every extends, algorithm folders and KAT files. */
#define HIL_CFG_MAX_ROOTS 8
struct hil_config_roots {
	const char *dir[HIL_CFG_MAX_ROOTS];
	size_t n; /* 0: anywhere */
};

/** hil_config_load, refusing any file outside roots (a lab job's). */
int hil_config_load_in(const char *path, const struct hil_config_roots *roots,
		       struct hil_config *cfg, char *err, size_t errlen);

/** hil_config_parse, refusing any file outside roots (a lab job's). */
int hil_config_parse_in(const char *json, const char *base_dir,
			const struct hil_config_roots *roots,
			struct hil_config *cfg, char *err, size_t errlen);

/**
 * Is the implementation folder dir for another architecture than a
 * Cortex-M4's (an lwc_arch_* marker of the NIST LWC framework, or AVR
 * assembly without a marker)? Tree entries list such folders in
 * not_for_board instead of building them.
 * @param why receives the reason when it is.
 * @return 1 (not for this board) or 0.
 */
int hil_cfg_foreign_arch(const char *dir, char *why, size_t len);

#endif /* HIL_CONFIG_H */
