/* flasher: puts a built image on a board and starts it (QEMU, OpenOCD, pyOCD; native later), chosen by name. */
#ifndef HIL_FLASHER_H
#define HIL_FLASHER_H

#include <stddef.h>
#include <sys/types.h>

#include <cjson/cJSON.h>

struct hil_flasher;
struct hil_config;
struct hil_jsonld;
struct hil_doctor;
struct hil_jail;

#define HIL_FLASHER_MAX_FILES 4	       /* = HIL_CFG_MAX_FLASHER_FILES */
#define HIL_FLASHER_MAX_OPTS  8	       /* a driver's options in one params */
#define HIL_FLASHER_MAX_KHZ   1000000u /* adapter_khz: 1 GHz, above any probe */

/*
 * The option a flasher that runs an emulator takes for a plugin of it
 * (the cycle model: hil_cyclemodel_plugin_arg()); a flasher that runs
 * none does not list it, and is given none.
 */
#define HIL_FLASHER_OPT_PLUGIN "plugin"

/*
 * One of a flasher driver's own options: key and value, both strings.
 * Which keys a driver takes, and what their values mean, are its own
 * (hil_flasher_ops.opts; docs/contributing.md): the core puts what a
 * configuration gives through the driver's options op and never reads
 * them.
 */
struct hil_flasher_opt {
	const char *key;
	const char *value;
};

/* What every flasher is opened with, and its driver's own options. */
struct hil_flasher_params {
	const char *program; /* NULL or "": the backend's default,
				 * e.g. "qemu-system-arm"; pyocd: the
				 * pyocd-flashtool, and pyocd-tool is
				 * taken from the same directory */
	const char *run_dir; /* existing, writable directory for logs
				 * (qemu.log, openocd.log, pyocd.log) and
				 * sockets */
	unsigned timeout_ms; /* bound on start(); 0: backend default */
	/* The probe that reaches the board (flasher.probe_serial): NULL or
	 * "": any probe. A flasher without a probe (an emulator) ignores
	 * it. */
	const char *probe_serial;
	/* The link the stub is built for (link.type); what it needs of the
	 * flasher is the link driver's to say (hil_link_needs(): a socket
	 * path, semihosting on the guest's stdio). NULL or "": the
	 * flasher's default. */
	const char *link;
	/* 1: the tool runs in a jail (util/jail.h): QEMU sees the image, its
	 * plugin and a private folder for its socket; OpenOCD its scripts,
	 * the image and the USB devices. 0: on the host. */
	int jail;
	/*
	 * The driver's own options, in order (a key may repeat), each a key
	 * of its hil_flasher_ops.opts: hil_flasher_open() refuses any other
	 * key. Added with hil_flasher_params_add(); the driver reads them with
	 * hil_flasher_opt(). Each driver's header says what its keys mean
	 * (qemu.h, openocd.h, pyocd.h).
	 */
	struct hil_flasher_opt opts[HIL_FLASHER_MAX_OPTS];
	size_t n_opts;
};

/*
 * A backend. flasher.c owns struct hil_flasher and copies of the params;
 * backends keep their state behind hil_flasher_priv().
 */
struct hil_flasher_ops {
	const char *name; /* flasher.type in configs, e.g. "openocd" */
	/* The program it runs unless the config names another, and the
	 * Debian package that installs it (doctor's hint). */
	const char *program;
	const char *package;
	/* Its own keys of a config's "flasher" section, beyond type,
	 * program, probe_serial and timeout_ms; NULL: none. */
	const char *const *keys;
	/*
	 * Optional. Read those keys of section (NULL when the config has
	 * none) into cfg->flasher, errors through ld naming the JSON path;
	 * where the section leaves one unset, take board_arg, what the board
	 * driver says this flasher needs to know of the board (OpenOCD: its
	 * config file; pyOCD: its target type), or NULL.
	 */
	int (*parse)(struct hil_jsonld *ld, const cJSON *section,
		     const char *board_arg, struct hil_config *cfg);
	/* The keys of its own options (hil_flasher_params.opts),
	 * NULL-terminated; NULL: it takes none. */
	const char *const *opts;
	/*
	 * Optional. Add to p the options a loaded configuration gives it
	 * (what parse read into cfg->flasher), strings borrowed from cfg.
	 * @return HIL_OK, or HIL_ERR_ARG when p has no room left.
	 */
	int (*options)(const struct hil_config *cfg,
		       struct hil_flasher_params *p);
	/*
	 * Optional. `hilrun doctor`'s checks of the flasher's own setup that
	 * need no probe (OpenOCD: every config file loads), one line each
	 * through hil_doctor_report(). @return 1 if they all passed.
	 */
	int (*doctor)(struct hil_doctor *d, const struct hil_config *cfg);
	/* Check the params, set up state (hil_flasher_set_priv). */
	int (*open)(struct hil_flasher *f);
	/* Stop the target if running and free the state; also after a failed open. */
	void (*close)(struct hil_flasher *f);
	/* Program the image and start it; a running target is stopped first. */
	int (*start)(struct hil_flasher *f, const char *elf_path);
	/* Stop the target; nothing if it is not running. */
	void (*stop)(struct hil_flasher *f);
	/* What to pass to hil_link_open() (the socket path), or NULL when the
	 * link is not the flasher's business (a real board's serial port).
	 * For a link made on a descriptor (link_fd), its name in messages. */
	const char *(*link_where)(struct hil_flasher *f);
	/* Optional (NULL: HIL_ERR_NA). A new descriptor of the host's end of
	 * a link the flasher made itself (the semihost socketpair), which
	 * the caller owns; HIL_ERR_NA when the link is reached by name. */
	int (*link_fd)(struct hil_flasher *f);
	/* Is the target still running? */
	int (*check)(struct hil_flasher *f);
	/* First line of the tool's version, for provenance. */
	int (*version)(struct hil_flasher *f, char *buf, size_t len);
	/* Optional (NULL: HIL_ERR_NA). Restart the image already on the
	 * board without reprogramming it. */
	int (*reset)(struct hil_flasher *f);
	/* Optional (NULL: HIL_ERR_NA). Is the programmer there and does it
	 * reach the target? Changes nothing on the target. On failure, why
	 * receives one line saying what is wrong (not logged). */
	int (*probe)(struct hil_flasher *f, char *why, size_t len);
};

/**
 * Open a flasher.
 * @param out receives it; the caller closes it with hil_flasher_close().
 * @param type "qemu", "openocd" or "pyocd".
 * @param p copied (strings too); p->run_dir is required.
 * @return HIL_OK; HIL_ERR_ARG (unknown type, no run_dir, run_dir not a
 *         directory, an option the driver does not take, or a value of
 *         one it cannot: the log names the option); HIL_ERR_CONFIG (OpenOCD: a config file name or probe
 *         serial that cannot be passed to OpenOCD; pyOCD: no target, or a
 *         target or unique ID that cannot be passed to pyOCD); HIL_ERR_IO;
 *         HIL_ERR_NOMEM.
 */
int hil_flasher_open(struct hil_flasher **out, const char *type,
		     const struct hil_flasher_params *p);

/** Stop the target (no child process survives) and free. NULL is allowed. */
void hil_flasher_close(struct hil_flasher *f);

/**
 * Program elf_path and start it. For QEMU: check the file is a readable
 * 32-bit ARM ELF, start the emulator and wait (bounded by timeout_ms) until
 * its UART socket exists. QEMU then waits for the link to connect before it
 * loads the image and runs the guest, so a crash of the image shows up
 * after hil_link_open(), as a closed link: call hil_flasher_check() then.
 * With a link that needs semihosting (params.link "semihost") there is no
 * socket to wait for: QEMU runs
 * the guest at once, its stdin and stdout on a socketpair made here, whose
 * buffer keeps what the guest says until the link is made on
 * hil_flasher_link_fd(); a crash shows up the same way.
 * With the option plugin set, QEMU also gets `-plugin VALUE` (and fails to
 * start, with its reason in qemu.log, if it cannot load the plugin).
 * For OpenOCD: check the file likewise, then run `openocd -f CFG...
 * [-c "adapter serial SN"] [-c "adapter speed KHZ"] -c "program {ELF}
 * verify reset exit"` (bounded by timeout_ms, output appended to
 * <run_dir>/openocd.log); the board runs the new image when this returns.
 * @return HIL_OK; HIL_ERR_IO (cannot read the ELF); HIL_ERR_ARG (not an ARM
 *         ELF, or a path OpenOCD cannot take); HIL_ERR_NA (program not
 *         found; OpenOCD: no probe, or no permission to open it);
 *         HIL_ERR_PROCESS (it exited early or failed: the log's last lines
 *         or OpenOCD's reason are in the error); HIL_ERR_TIMEOUT;
 *         OpenOCD also: HIL_ERR_MISMATCH (the probe reaches a chip other
 *         than the config's), HIL_ERR_VERIFY (flash differs from the ELF
 *         after programming), HIL_ERR_CONFIG (a config file was not
 *         found). Each failure is logged once, naming the
 *         image (and for OpenOCD the probe serial).
 * For pyOCD (Debian 12's 0.13.1, see pyocd.c): check the file likewise,
 * write its loadable bytes as <run_dir>/pyocd-image.hex, check the chip's
 * ID where pyocd.c knows it, then `pyocd-flashtool [-b UID] -t TARGET
 * [-f HZ] -hp HEX hex` (which resets and starts the image) and read the
 * flash back with `pyocd-tool ... savemem` to compare; all bounded by
 * timeout_ms together, output appended to <run_dir>/pyocd.log. Errors as
 * for OpenOCD; HIL_ERR_CONFIG also for a target type pyOCD does not know,
 * or several probes and no unique ID to choose one; HIL_ERR_NA (with
 * the apt-get line) when pyOCD is not installed.
 */
int hil_flasher_start(struct hil_flasher *f, const char *elf_path);

/** Stop the target; its processes are gone when this returns. */
void hil_flasher_stop(struct hil_flasher *f);

/**
 * Where to open the link (the socket path for QEMU); borrowed, valid until
 * close. NULL if the flasher does not provide the link.
 */
const char *hil_flasher_link_where(struct hil_flasher *f);

/**
 * The host's end of a link the flasher made (QEMU with params.link
 * "semihost": the socketpair whose other end is QEMU's stdin and stdout),
 * for hil_link_adopt() with hil_flasher_link_where() as its name. Valid
 * after hil_flasher_start(); a restart makes a new pair.
 * @return a new descriptor (close-on-exec) the caller owns; HIL_ERR_NA
 *         when the link is reached by name (socket, serial) or the target
 *         is not started; HIL_ERR_IO.
 */
int hil_flasher_link_fd(struct hil_flasher *f);

/**
 * Is the started target still running? Call it when the link fails.
 * @return HIL_OK running; HIL_ERR_PROCESS it exited (logged once per call
 *         with the exit status and the last lines of its log, e.g. QEMU's
 *         "Lockup" for a broken vector table) or it is stopped (SIGSTOP:
 *         frozen, it answers nothing; restart it as a dead one);
 *         HIL_ERR_NA not started.
 */
int hil_flasher_check(struct hil_flasher *f);

/**
 * The tool's version, e.g. "QEMU emulator version 7.2.22 (Debian ...)",
 * from `program --version` (its first line; pyOCD prints a bare "0.13.1",
 * so the pyocd backend puts the program's name before it:
 * "pyocd-flashtool 0.13.1").
 * @param buf receives a NUL-terminated string (truncated to len - 1).
 * @return HIL_OK; HIL_ERR_NA (program not found); HIL_ERR_PROCESS (it
 *         failed); HIL_ERR_TIMEOUT; HIL_ERR_ARG.
 */
int hil_flasher_version(struct hil_flasher *f, char *buf, size_t len);

/**
 * Restart the image already on the board (OpenOCD: `-c "init; reset run;
 * shutdown"`; pyOCD: `pyocd-tool ... reset`). Errors as
 * hil_flasher_start(); HIL_ERR_NA also when the backend has no reset
 * (QEMU: stop and start instead).
 */
int hil_flasher_reset(struct hil_flasher *f);

/**
 * Check, without touching the target, that the programmer is present and
 * reaches the target (OpenOCD: `-c "init; shutdown"`; pyOCD: `pyocd-tool
 * ... read32` of the chip's ID register, or `status`; bounded).
 * @param why receives one line naming the problem on failure; not logged.
 * @return HIL_OK; HIL_ERR_NA (the backend has no probe, or there is none);
 *         or as hil_flasher_start().
 */
int hil_flasher_probe(struct hil_flasher *f, char *why, size_t len);

/** The backend's name. */
const char *hil_flasher_type(const struct hil_flasher *f);

/* ---- for backends only ---- */

void *hil_flasher_priv(const struct hil_flasher *f);
void hil_flasher_set_priv(struct hil_flasher *f, void *priv);

/** The params as copied at open; program is never NULL or empty once the
 *  backend's open has set its default (hil_flasher_set_program). */
const struct hil_flasher_params *
hil_flasher_params(const struct hil_flasher *f);

/** Replace the program name (the backend's default); copied. */
int hil_flasher_set_program(struct hil_flasher *f, const char *program);

/**
 * The params a configuration gives a flasher: program, timeout, probe
 * serial, and the options its driver (cfg->flasher.type) takes from it
 * (hil_flasher_ops.options); run_dir, and the link, the jail and options
 * that are not the configuration's (HIL_FLASHER_OPT_PLUGIN), are the
 * caller's. Strings are borrowed from cfg.
 * @return HIL_OK, HIL_ERR_ARG (no room for the driver's options).
 */
int hil_flasher_params_from_config(const struct hil_config *cfg,
				   const char *run_dir,
				   struct hil_flasher_params *p);

/**
 * Add an option key=value to p (a key its driver lists in its opts).
 * @param key, value borrowed until hil_flasher_open(), which copies them.
 * @return HIL_OK; HIL_ERR_ARG (NULL key or value, or HIL_FLASHER_MAX_OPTS
 *         options already).
 */
int hil_flasher_params_add(struct hil_flasher_params *p, const char *key,
			   const char *value);

/**
 * For a driver: the value of the i-th option key it was opened with
 * (0: the first), or NULL. Borrowed: valid until close.
 */
const char *hil_flasher_opt_at(const struct hil_flasher *f, const char *key,
			       size_t i);

/** For a driver: the value of its option key (the first), or NULL. */
const char *hil_flasher_opt(const struct hil_flasher *f, const char *key);

/**
 * For a driver: its option key as a number from 0 to max (none: 0).
 * @return HIL_OK; HIL_ERR_ARG (not such a number: logged, naming the
 *         flasher, the key and the value).
 */
int hil_flasher_opt_uint(const struct hil_flasher *f, const char *key,
			 unsigned max, unsigned *out);

/** The flasher driver named name (drivers/drivers.def), or NULL. */
const struct hil_flasher_ops *hil_flasher_find(const char *name);

/** Every flasher driver, NULL-terminated, in registration order. */
const struct hil_flasher_ops *const *hil_flasher_all(void);

/**
 * Append "$ PROGRAM ARG..." to a tool's log before its own lines, each
 * argument quoted so that the line can be pasted into a shell.
 * @return the log's size after it (where the tool's output starts).
 */
off_t hil_flasher_log_command(const char *path, char *const argv[]);

/**
 * One run's output read back from a tool's log: what the log holds from
 * offset on (hil_flasher_log_command's return), or only its last len - 1
 * bytes when there is more, NUL-terminated in buf (len > 0). An empty
 * string when the log cannot be read.
 */
void hil_flasher_log_tail(const char *path, off_t offset, char *buf,
			  size_t len);

/**
 * Refuse an image that is not a 32-bit ARM ELF, before a backend would
 * take it as raw bytes, and one that is empty or cut short (a link that
 * was killed half-way: util/elfwhole.h), before a tool flashes what part
 * of it there is; each with an error naming the file.
 * @param raw_means what the backend would do with raw bytes, for the
 *        message (e.g. "QEMU would run it as a raw image").
 * @return HIL_OK, HIL_ERR_ARG (not an ARM ELF) or HIL_ERR_IO.
 */
int hil_flasher_check_elf(const char *path, const char *raw_means);

/**
 * `program --version` for a backend's version op, its output (both
 * streams) into out, bounded by timeout_ms: jailed when params.jail says
 * the tool's runs are, as flashing is, in a jail of its own that holds the
 * system and the program's folder only (a version needs no image, config
 * file nor probe), so that nothing a tool does on --version reaches the
 * host.
 * @param status receives its exit status.
 * @return as hil_proc_capture_jailed() (HIL_ERR_NA: program not found).
 */
int hil_flasher_tool_version(struct hil_flasher *f, char *out, size_t len,
			     unsigned timeout_ms, int *status);

/**
 * The end of a probe tool's jail (OpenOCD's, pyOCD's): when ret (its binds
 * so far) is HIL_OK, the probes' USB devices bound (/dev/bus/usb, where
 * there is one), the system's folders added and j given in *out; else, or
 * when that bind fails, j freed and *out left as it is.
 * @return ret, or the bind's error.
 */
int hil_flasher_jail_finish(struct hil_jail *j, int ret, struct hil_jail **out);

#endif /* HIL_FLASHER_H */
