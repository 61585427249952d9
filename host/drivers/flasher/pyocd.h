/* pyocd: what the pyOCD flasher's files share: its configuration hooks and name checks, the state of an open flasher and the steps its ops are made of. */
#ifndef HIL_PYOCD_H
#define HIL_PYOCD_H

#include <stdint.h>

#include "flasher.h"

/* Its own key of the "flasher" section: "target" (pyOCD's -t). */
extern const char *const hil_pyocd_keys[];

/*
 * Its options: target (pyOCD's target type, -t, e.g. "stm32l475xg";
 * required) and adapter_khz (the probe's speed; none: pyOCD's own). The
 * options op: target from cfg->flasher.target.
 */
extern const char *const hil_pyocd_opts[];
int hil_pyocd_options(const struct hil_config *cfg,
		      struct hil_flasher_params *p);

/* The parse op: the target type, else the board's; required. */
int hil_pyocd_parse(struct hil_jsonld *ld, const cJSON *section,
		    const char *board_arg, struct hil_config *cfg);

/* pyOCD's target names: lower-case letters, digits and '_', bounded. */
int hil_pyocd_target_ok(const char *s);

/* What the files of an open flasher share. */

#define TAIL_BYTES 16384 /* how much of a run's output to search */
#define MAX_ARGS   20
#define MAX_SEGS   16

#define INSTALL_HINT                                                           \
	"pyOCD is not installed? On Debian 12: sudo apt-get install python3-pyocd (it provides pyocd-flashtool and pyocd-tool 0.13.1)"

/* pyocd-tool's line before it waits forever for a probe (facts in pyocd.c). */
#define PY_WAITING "Waiting for a debug probe to be connected"

struct pyocd {
	char *log_path;	     /* <run_dir>/pyocd.log */
	char *hex_path;	     /* <run_dir>/pyocd-image.hex, absolute */
	char *readback_path; /* <run_dir>/pyocd-readback.bin, absolute */
	char *tool;	     /* pyocd-tool */
	char *elf;	     /* absolute path of the image last flashed */
	char *out;	     /* TAIL_BYTES: the last run's output */
	unsigned khz;	     /* option adapter_khz; 0: pyOCD's default */
};

/* The argv of one invocation and the numbers it points to. */
struct pyo_argv {
	char *v[MAX_ARGS];
	char speed[24];
	char addr[16];
	char len[16];
};

/* The loadable bytes of an ELF: PT_LOAD file contents at p_paddr. */
struct segment {
	uint32_t addr;
	size_t len;
	unsigned char *data;
};

struct image {
	struct segment seg[MAX_SEGS];
	size_t n;
	size_t bytes;
};

/* pyocd.c: the ops and the flasher's parameters. */

/* flasher.probe_serial, or NULL when any probe will do. */
const char *hil_pyocd_uid_of(const struct hil_flasher *f);

/* The last component of a path. */
const char *hil_pyocd_base_name(const char *path);

/* pyocd_run.c: running the tools. */

/*
 * argv[0] [-b UID] -t TARGET [speed]: what every run starts with.
 * @param flashtool 1: pyocd-flashtool's argv, 0: pyocd-tool's.
 * @return how many of a->v it filled.
 */
size_t hil_pyocd_argv_head(const struct hil_flasher *f, struct pyo_argv *a,
			   int flashtool);

/* pyocd-tool ... CMD [ARG...] (args NULL-terminated, at most three). */
void hil_pyocd_tool_argv(const struct hil_flasher *f, struct pyo_argv *a,
			 const char *cmd, const char *a1, const char *a2,
			 const char *a3);

/*
 * Run one pyOCD command, output appended to pyocd.log, until deadline
 * (bound_ms is that bound, for the message). A pyocd-tool that waits for
 * a probe is stopped as soon as it says so.
 * @return HIL_OK when it exited 0 (o->out holds its output); else the
 *         failure's code, with why saying what went wrong.
 */
int hil_pyocd_run_step(struct hil_flasher *f, char *const argv[],
		       uint64_t deadline, unsigned bound_ms, char *why,
		       size_t len);

/* pyocd_errors.c: reading a run's output. */

/* The last line of text that is not blank, or "". */
void hil_pyocd_last_line(const char *text, char *line, size_t len);

/*
 * Does a flash-algorithm failure show in pyocd-flashtool's output? It exits
 * 0 even then.
 * @return HIL_OK if not; else its code, with why saying what failed.
 */
int hil_pyocd_flash_failed(const char *out, char *why, size_t len);

/*
 * Turn pyOCD 0.13.1's output of a failed run into one line in why.
 * @param flashing the run was pyocd-flashtool's: flash failures count too.
 * @return the code the failure maps to (see hil_flasher_start()).
 */
int hil_pyocd_explain(const struct hil_flasher *f, const char *out,
		      int flashing, char *why, size_t len);

/* pyocd_chip.c: the chip's identity. */

/*
 * Is the chip the target type's? Reads its ID register with pyocd-tool
 * where chip_ids[] knows it; else, unless flashing, connects and asks the
 * core's state.
 * @param flashing 1: before programming (no connection without an entry).
 * @return HIL_OK, HIL_ERR_MISMATCH for another chip, or a failed run's code,
 *         with why saying what went wrong.
 */
int hil_pyocd_check_chip(struct hil_flasher *f, int flashing, uint64_t deadline,
			 unsigned bound_ms, char *why, size_t len);

/* pyocd_image.c: the image and its verification. */

/*
 * Load an ELF's PT_LOAD bytes, sorted by address; errors are logged.
 * @param img filled on success; the caller frees it with
 *        hil_pyocd_image_free().
 * @return HIL_OK, HIL_ERR_ARG (not a loadable ELF), HIL_ERR_IO, HIL_ERR_NA
 *         or HIL_ERR_NOMEM.
 */
int hil_pyocd_image_load(struct image *img, const char *path);
void hil_pyocd_image_free(struct image *img);

/* Write img to path as Intel HEX; errors are logged.
 * @return HIL_OK or HIL_ERR_IO. */
int hil_pyocd_write_hex(const char *path, const struct image *img);

/*
 * Read the flash back with pyocd-tool savemem and compare it with img.
 * @return HIL_OK, HIL_ERR_VERIFY with the first difference, or a failed
 *         run's code, with why saying what went wrong.
 */
int hil_pyocd_verify(struct hil_flasher *f, const struct image *img,
		     uint64_t deadline, unsigned bound_ms, char *why,
		     size_t len);

#endif /* HIL_PYOCD_H */
