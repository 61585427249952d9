/* pyocd: the flasher backend for real boards through pyOCD 0.13.1 as Debian 12 ships it (pyocd-flashtool, pyocd-tool): the facts it rests on, its ops table and the ops, made of the steps in pyocd_run.c, pyocd_errors.c, pyocd_chip.c and pyocd_image.c. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"pyocd"

#include "pyocd.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/err.h"
#include "util/log.h"
#include "util/util.h"
#include "util/proc.h"

/*
 * Facts (python3-pyocd 0.13.1+dfsg-3, Debian 12). "Measured": run here
 * without a probe. "Source": read in /usr/lib/python3/dist-packages/pyocd,
 * not measured (needs a probe).
 * - There is no unified `pyocd` command: the package installs
 *   pyocd-flashtool, pyocd-tool and pyocd-gdbserver (measured, dpkg -L).
 *   The probe is chosen with `-b ID` ("Only a unique part of the board ID
 *   needs to be provided": a case-insensitive substring match on the
 *   probe's unique ID). `-u` is --unlock in pyocd-flashtool, not a unique
 *   ID: never pass it.
 * - pyocd-flashtool's `-t` is checked by argparse against the built-in
 *   targets: an unknown one exits 2 with "argument -t/--target: invalid
 *   choice: 'stm32f401xe'" before looking for a probe (measured). Debian's
 *   0.13.1 knows no STM32F401: its STM32s are stm32f051, stm32f103rc,
 *   stm32f412xe/xg, stm32f439xg/xi, stm32l475xc/xe/xg. pyocd-tool does not
 *   check `-t`; with a probe it fails with "ERROR:board:target 'x' not
 *   recognized" and a KeyError traceback (source, board/board.py).
 * - Without -t an ST-LINK gets the generic "cortex_m" target, which has no
 *   flash algorithm (source): hence the target is required.
 * - No probe: pyocd-flashtool prints "No connected debug probes" (no -b)
 *   or "A debug probe matching unique ID 'X' is not connected, or no
 *   connected probe matches", then "Error: There is no debug probe
 *   connected." and exits 1 (measured). pyocd-tool instead prints
 *   "Waiting for a debug probe to be connected..." and waits forever
 *   (measured): we watch its output and stop it when that line appears.
 *   Its stdout reaches the log at once: colorama, which pyOCD starts on
 *   import, strips colours when stdout is not a terminal and flushes
 *   every write (measured: the line is in the log before it is killed).
 * - A probe this user may not open (USB permissions) is left out of the
 *   list, logged at debug level only (source, probe/stlink/usb.py and
 *   pydapaccess pyusb_backend.py): it looks exactly like no probe.
 * - -b matching several probes: "More than one debug probe matches unique
 *   ID 'X':", then the same "There is no debug probe connected." line.
 *   Several probes and no -b: pyOCD lists them and asks "Enter the number
 *   of the debug probe to connect:" on stdin, which is /dev/null here: an
 *   EOFError (source, core/helpers.py).
 * - ELF files: pyocd-flashtool programs only sections that are
 *   SHT_PROGBITS, SHF_ALLOC and not SHF_WRITE, at their sh_addr (source,
 *   tools/flash_tool.py). That leaves out .data's initial values (stored
 *   at the LMA in flash) and the .note.gnu.build-id that the stub reads
 *   back (SHT_NOTE). So we write the ELF's PT_LOAD bytes at their physical
 *   (load) addresses as Intel HEX, as `objcopy -O ihex` would, and pass
 *   the format ("hex") explicitly: without it pyOCD goes by the extension.
 *   HEX needs python3-intelhex (a dependency of the package); without it
 *   pyocd-flashtool prints "Unable to program hex file" and exits 0.
 *   Measured on the NUCLEO-F401RE stub: python3-intelhex reads from our
 *   HEX every byte `arm-none-eabi-objcopy -O ihex` writes, plus the 4
 *   zero bytes of padding inside the segment that objcopy leaves out.
 * - Programming does not verify: flash algorithm errors are only logged
 *   ("ERROR:root:program_page(0x8000000) error: 1") and the exit status
 *   stays 0 (source, flash/flash.py). So we scan the output for them and
 *   verify explicitly: `pyocd-tool savemem ADDR LEN FILE` reads the flash
 *   back (in one read for segments less than MERGE_GAP apart) and we
 *   compare it with the image's bytes.
 * - After programming, pyocd-flashtool resets the core with a halt at the
 *   reset vector and resumes it on disconnect (source, flash_builder.py
 *   reset_stop_on_reset, board.py uninit): the new image starts from
 *   reset. The read-back afterwards only reads; pyocd-tool leaves the core
 *   running (resume_on_disconnect=False, and it does not halt on
 *   connect). Every pyOCD connection writes DEMCR = 0 when it disconnects
 *   (coresight/cortex_m.py), which stops DWT->CYCCNT: the stub sets
 *   TRCENA again before every BENCH (target/hal.h). pyOCD's STM32 targets
 *   also write DBGMCU_CR and the APB freeze registers on connect.
 * - `pyocd-tool reset` is a SYSRESETREQ (software) reset, then the core
 *   runs (source, cortex_m.py reset).
 * - pyOCD 0.13.1 never checks that the chip is the target type's: a wrong
 *   type runs the wrong flash algorithm (stm32f412xe's page buffer is at
 *   0x20020000, beyond an F401's 96 KiB of RAM). So before programming we
 *   read the chip's own ID where we know where it is (chip_ids[],
 *   pyocd_chip.c).
 * - ST-LINK errors read "STLink error (9): Get IDCODE error" etc.
 *   (probe/stlink/constants.py); "No device connected", "Get IDCODE
 *   error" and the DP errors mean the target is not reached (source).
 *   A probe held by another program: pyusb's "[Errno 16] Resource busy".
 * - `--version` prints the bare "0.13.1" on stdout and exits 0 (measured).
 * - Each run starts Python (about 0.2 s here) and connects anew.
 */

#define DEFAULT_PROGRAM	   "pyocd-flashtool"
#define TOOL_NAME	   "pyocd-tool" /* next to the program */
#define DEFAULT_TIMEOUT_MS 120000u	/* ID check, program, read-back */
#define VERSION_TIMEOUT_MS 10000u
#define PROBE_TIMEOUT_MS   20000u
#define LOG_NAME	   "pyocd.log"
#define HEX_NAME	   "pyocd-image.hex"
#define READBACK_NAME	   "pyocd-readback.bin"
#define WHY_LEN		   1024
#define UID_MAX		   64
#define TARGET_MAX	   32

static unsigned timeout_of(const struct hil_flasher *f)
{
	unsigned t = hil_flasher_params(f)->timeout_ms;

	return t != 0 ? t : DEFAULT_TIMEOUT_MS;
}

const char *hil_pyocd_uid_of(const struct hil_flasher *f)
{
	const char *s = hil_flasher_params(f)->probe_serial;

	return s != NULL && s[0] != '\0' ? s : NULL;
}

const char *hil_pyocd_base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash != NULL ? slash + 1 : path;
}

/* "probe 0669FF... (pyOCD target stm32l475xg)", for messages. */
static void probe_text(const struct hil_flasher *f, char *buf, size_t len)
{
	const char *target = hil_flasher_opt(f, "target");

	if (hil_pyocd_uid_of(f) != NULL) {
		snprintf(buf, len, "probe %s (pyOCD target %s)",
			 hil_pyocd_uid_of(f), target);
	} else {
		snprintf(buf, len,
			 "any probe (no flasher.probe_serial; pyOCD target %s)",
			 target);
	}
}

/* Only what every probe's unique ID is made of (hex digits for ST-LINK
 * V2-1 and DAPLink); argparse would take a leading '-' as an option. */
static int uid_ok(const char *s)
{
	size_t n = strlen(s);

	return n > 0 && n <= UID_MAX && s[0] != '-' &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyz"
			 "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
			 "0123456789_.:-") == n;
}

/* pyOCD's target names are lower-case letters, digits and '_'. */
int hil_pyocd_target_ok(const char *s)
{
	size_t n = strlen(s);

	return n > 0 && n <= TARGET_MAX &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyz0123456789_") == n;
}

/* Is prog (searched in PATH when it has no '/', as execvp does) executable? */
static int executable(const char *prog)
{
	const char *path = getenv("PATH"), *p, *e;
	char buf[PATH_MAX];
	int n;

	if (strchr(prog, '/') != NULL) {
		return access(prog, X_OK) == 0;
	}
	if (path == NULL) {
		path = "/bin:/usr/bin"; /* execvp's default */
	}
	for (p = path;; p = e + 1) {
		e = strchr(p, ':');
		if (e == NULL) {
			e = p + strlen(p);
		}
		if (e == p) {
			n = snprintf(buf, sizeof(buf), "./%s", prog);
		} else {
			n = snprintf(buf, sizeof(buf), "%.*s/%s", (int)(e - p),
				     p, prog);
		}
		if (n > 0 && (size_t)n < sizeof(buf) &&
		    access(buf, X_OK) == 0) {
			return 1;
		}
		if (*e == '\0') {
			return 0;
		}
	}
}

/* Both tools there? Else why says which is missing and how to install. */
static int tools_present(const struct hil_flasher *f, char *why, size_t len)
{
	const struct pyocd *o = hil_flasher_priv(f);
	const char *program = hil_flasher_params(f)->program;

	if (!executable(program)) {
		snprintf(why, len, "%s not found or not executable: %s",
			 program, INSTALL_HINT);
		return HIL_ERR_NA;
	}
	if (!executable(o->tool)) {
		snprintf(why, len, "%s not found or not executable: %s",
			 o->tool, INSTALL_HINT);
		return HIL_ERR_NA;
	}
	return HIL_OK;
}

/* ---- paths ---- */

/*
 * path made absolute (the working directory before a relative one), with
 * "/name" after it unless name is NULL; malloc'd. Absolute paths keep
 * pyOCD from reading a name that starts with '-' as an option.
 */
static char *absolute(const char *path, const char *name)
{
	char cwd[PATH_MAX];
	char *out;
	size_t n;

	if (path[0] == '/') {
		cwd[0] = '\0';
	} else if (getcwd(cwd, sizeof(cwd)) == NULL) {
		return NULL;
	}
	n = strlen(cwd) + strlen(path) + (name != NULL ? strlen(name) : 0) + 3;
	out = malloc(n);
	if (out == NULL) {
		return NULL;
	}
	snprintf(out, n, "%s%s%s%s%s", cwd, cwd[0] != '\0' ? "/" : "", path,
		 name != NULL ? "/" : "", name != NULL ? name : "");
	return out;
}

/* pyocd-tool in the program's directory, or from PATH like the program. */
static char *tool_path(const char *program)
{
	const char *slash = strrchr(program, '/');
	size_t dir = slash != NULL ? (size_t)(slash - program) + 1 : 0;
	char *out = malloc(dir + sizeof(TOOL_NAME));

	if (out != NULL) {
		memcpy(out, program, dir);
		memcpy(out + dir, TOOL_NAME, sizeof(TOOL_NAME));
	}
	return out;
}

/* ---- the ops ---- */

static void pyocd_close(struct hil_flasher *f)
{
	struct pyocd *o = hil_flasher_priv(f);

	if (o == NULL) {
		return;
	}
	free(o->log_path);
	free(o->hex_path);
	free(o->readback_path);
	free(o->tool);
	free(o->elf);
	free(o->out);
	free(o);
	hil_flasher_set_priv(f, NULL);
}

static int pyocd_open(struct hil_flasher *f)
{
	const struct hil_flasher_params *p;
	const char *target;
	struct pyocd *o;
	int ret;

	if (hil_flasher_params(f)->program == NULL) {
		ret = hil_flasher_set_program(f, DEFAULT_PROGRAM);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	p = hil_flasher_params(f);
	target = hil_flasher_opt(f, "target");
	if (target == NULL || target[0] == '\0') {
		hil_err("pyocd flasher: no target type (e.g. stm32l475xg): without one pyOCD 0.13.1 takes a generic Cortex-M, which it cannot program; 'pyocd-flashtool --help' lists the types it knows");
		return HIL_ERR_CONFIG;
	}
	if (!hil_pyocd_target_ok(target)) {
		hil_err("pyOCD target type \"%s\": pyOCD's names are at most %d lower-case letters, digits and '_' (e.g. stm32l475xg)",
			target, TARGET_MAX);
		return HIL_ERR_CONFIG;
	}
	if (hil_pyocd_uid_of(f) != NULL && !uid_ok(hil_pyocd_uid_of(f))) {
		hil_err("probe unique ID \"%s\": longer than %d characters, or a character no probe's unique ID has (letters, digits, '_', '.', ':', '-', not first), which pyOCD's -b cannot take as it is",
			hil_pyocd_uid_of(f), UID_MAX);
		return HIL_ERR_CONFIG;
	}
	o = calloc(1, sizeof(*o));
	if (o == NULL) {
		hil_err("pyocd flasher: no memory");
		return HIL_ERR_NOMEM;
	}
	hil_flasher_set_priv(f, o); /* pyocd_close frees it on error */
	ret = hil_flasher_opt_uint(f, "adapter_khz", HIL_FLASHER_MAX_KHZ,
				   &o->khz);
	if (ret != HIL_OK) {
		return ret;
	}
	o->log_path = absolute(p->run_dir, LOG_NAME);
	o->hex_path = absolute(p->run_dir, HEX_NAME);
	o->readback_path = absolute(p->run_dir, READBACK_NAME);
	o->tool = tool_path(p->program);
	o->out = malloc(TAIL_BYTES);
	if (o->log_path == NULL || o->hex_path == NULL ||
	    o->readback_path == NULL || o->tool == NULL || o->out == NULL) {
		hil_err("pyocd flasher: no memory (or no working directory)");
		return HIL_ERR_NOMEM;
	}
	o->out[0] = '\0';
	return HIL_OK;
}

static int pyocd_start(struct hil_flasher *f, const char *elf_path)
{
	struct pyocd *o = hil_flasher_priv(f);
	unsigned bound = timeout_of(f);
	char probe[160], why[WHY_LEN], flash_why[WHY_LEN];
	struct image img;
	struct pyo_argv a;
	uint64_t t0, deadline;
	size_t n;
	int ret;

	ret = hil_flasher_check_elf(elf_path,
				    "pyOCD would flash it as raw bytes");
	if (ret != HIL_OK) {
		return ret;
	}
	free(o->elf);
	o->elf = absolute(elf_path, NULL);
	if (o->elf == NULL) {
		hil_err("image %s: no memory", elf_path);
		return HIL_ERR_NOMEM;
	}
	probe_text(f, probe, sizeof(probe));
	ret = tools_present(f, why, sizeof(why));
	if (ret != HIL_OK) {
		hil_err("flashing %s with %s: %s", o->elf, probe, why);
		return ret;
	}
	ret = hil_pyocd_image_load(&img, elf_path);
	if (ret != HIL_OK) {
		return ret;
	}
	ret = hil_pyocd_write_hex(o->hex_path, &img);
	if (ret != HIL_OK) {
		hil_pyocd_image_free(&img);
		return ret;
	}
	t0 = (uint64_t)hil_now_ms();
	deadline = t0 + bound;
	/* Before writing anything: is it the chip the flash algorithm is for? */
	ret = hil_pyocd_check_chip(f, 1, deadline, bound, why, sizeof(why));
	if (ret == HIL_OK) {
		n = hil_pyocd_argv_head(f, &a, 1);
		a.v[n++] = "-hp"; /* no progress bar in the log */
		a.v[n++] = o->hex_path;
		a.v[n++] = "hex";
		a.v[n] = NULL;
		ret = hil_pyocd_run_step(f, a.v, deadline, bound, why,
					 sizeof(why));
	}
	if (ret == HIL_OK) {
		/* Exit status 0 even when the flash algorithm failed. */
		ret = hil_pyocd_flash_failed(o->out, flash_why,
					     sizeof(flash_why));
		if (ret != HIL_OK) {
			snprintf(why, sizeof(why),
				 "%s [%s exit status 0; log: %s]", flash_why,
				 hil_pyocd_base_name(a.v[0]), o->log_path);
		}
	}
	if (ret == HIL_OK) {
		ret = hil_pyocd_verify(f, &img, deadline, bound, why,
				       sizeof(why));
	}
	if (ret != HIL_OK) {
		hil_err("flashing %s with %s failed: %s", o->elf, probe, why);
	} else {
		hil_info(
			"flashing %s with %s: %zu bytes programmed and verified in %llu ms",
			o->elf, probe, img.bytes,
			(unsigned long long)((uint64_t)hil_now_ms() - t0));
	}
	hil_pyocd_image_free(&img);
	return ret;
}

/* A real board keeps running the image: there is nothing to stop. */
static void pyocd_stop(struct hil_flasher *f)
{
	(void)f;
}

static int pyocd_reset(struct hil_flasher *f)
{
	struct pyocd *o = hil_flasher_priv(f);
	unsigned bound = timeout_of(f);
	char probe[160], why[WHY_LEN];
	struct pyo_argv a;
	int ret;

	probe_text(f, probe, sizeof(probe));
	ret = tools_present(f, why, sizeof(why));
	if (ret == HIL_OK) {
		hil_pyocd_tool_argv(f, &a, "reset", NULL, NULL, NULL);
		ret = hil_pyocd_run_step(f, a.v, (uint64_t)hil_now_ms() + bound,
					 bound, why, sizeof(why));
	}
	if (ret != HIL_OK) {
		hil_err("resetting the board (image %s) with %s failed: %s",
			o->elf != NULL ? o->elf : "already in flash", probe,
			why);
		return ret;
	}
	hil_info("reset the board with %s", probe);
	return HIL_OK;
}

static int pyocd_probe(struct hil_flasher *f, char *why, size_t len)
{
	unsigned bound = timeout_of(f) < PROBE_TIMEOUT_MS ? timeout_of(f)
							  : PROBE_TIMEOUT_MS;
	int ret;

	ret = tools_present(f, why, len);
	if (ret != HIL_OK) {
		return ret;
	}
	return hil_pyocd_check_chip(f, 0, (uint64_t)hil_now_ms() + bound, bound,
				    why, len);
}

static int pyocd_version(struct hil_flasher *f, char *buf, size_t len)
{
	const char *program = hil_flasher_params(f)->program;
	char out[512];
	const char *s;
	int status = -1, ret;

	if (!executable(program)) {
		hil_err("%s not found or not executable: %s", program,
			INSTALL_HINT);
		return HIL_ERR_NA;
	}
	/* Jailed as flashing is (params.jail). */
	ret = hil_flasher_tool_version(f, out, sizeof(out), VERSION_TIMEOUT_MS,
				       &status);
	if (ret != HIL_OK) {
		return ret;
	}
	s = out + strspn(out, "\r\n \t");
	if (status != 0 || s[0] == '\0') {
		hil_err("%s --version: exit status %d, output \"%.*s\"",
			program, status, (int)strcspn(s, "\r\n"), s);
		return HIL_ERR_PROCESS;
	}
	/* The bare "0.13.1" says little in a report: name the tool. */
	snprintf(buf, len, "%s %.*s", hil_pyocd_base_name(program),
		 (int)strcspn(s, "\r\n"), s);
	return HIL_OK;
}

const struct hil_flasher_ops hil_flasher_pyocd_ops = {
	.name = "pyocd",
	.program = DEFAULT_PROGRAM,
	.package = "python3-pyocd",
	.keys = hil_pyocd_keys,
	.parse = hil_pyocd_parse,
	.opts = hil_pyocd_opts,
	.options = hil_pyocd_options,
	.open = pyocd_open,
	.close = pyocd_close,
	.start = pyocd_start,
	.stop = pyocd_stop,
	.link_where = NULL, /* the runner opens link.port itself */
	.check = NULL,	    /* a flashed board keeps running */
	.version = pyocd_version,
	.reset = pyocd_reset,
	.probe = pyocd_probe,
};
