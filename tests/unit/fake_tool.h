/* fake_tool: the scaffolding of the tests that run a recording stand-in for an external tool (the flasher tests): a scratch folder with the stand-ins' bin/ and a run folder, the stand-in installed, its knobs in the environment, what it recorded, a hang that must have been killed, and the checks every such flasher passes. */
#ifndef HIL_FAKE_TOOL_H
#define HIL_FAKE_TOOL_H

#include <stddef.h>
#include <stdint.h>

struct hil_flasher;
struct hil_flasher_params;

/*
 * The stand-ins are shell scripts of the test's own that append their
 * arguments to $HIL_FAKE_ARGV and do what their other HIL_FAKE_*
 * variables say (print, sleep, exit with a status).
 */
struct fake_tool {
	char dir[64];	   /* the scratch folder, /tmp/hiltest-NAME-XXXXXX */
	char bin[96];	   /* <dir>/bin: the stand-ins */
	char run_dir[96];  /* <dir>/run: the tool's run folder */
	char argv_log[96]; /* <dir>/argv.txt, $HIL_FAKE_ARGV: what they record */
	char *saved_path;  /* PATH before fake_tool_on_path(), or NULL */
};

/**
 * Make the scratch folder /tmp/hiltest-<name>-XXXXXX with bin/ and run/,
 * and point $HIL_FAKE_ARGV at its argv.txt.
 */
void fake_tool_setup(struct fake_tool *t, const char *name);

/** Put bin/ first on PATH (fake_tool_teardown() puts PATH back). */
void fake_tool_on_path(struct fake_tool *t);

/**
 * Install script as <dir>/<name>, executable.
 * @param path receives the stand-in's path (len bytes), or NULL.
 */
void fake_tool_install(const char *dir, const char *name, const char *script,
		       char *path, size_t len);

/** PATH as it was, the scratch folder removed. */
void fake_tool_teardown(struct fake_tool *t);

/** The whole file as a string (empty if it does not exist); caller frees. */
char *fake_tool_slurp(const char *path);

/** Set the stand-in's knob name to value, or unset it (value NULL). */
void fake_tool_env(const char *name, const char *value);

/** Forget what the stand-ins recorded. */
void fake_tool_forget(const struct fake_tool *t);

/** The stand-ins did not run since fake_tool_forget(). */
void fake_tool_assert_not_run(const struct fake_tool *t);

/**
 * A call that started a hanging stand-in (it sleeps sleep_mark seconds) at
 * ut_ms_now() t0 returned in bounded time and left no sleeper behind.
 */
void fake_tool_assert_killed(uint64_t t0, const char *sleep_mark);

/**
 * The group teardown of a fixture (*state, calloc'd) whose first member is
 * its struct fake_tool: fake_tool_teardown(), then free.
 */
int fake_tool_teardown_fixture(void **state);

/* ---- checks every flasher of an external tool passes ---- */

/** Parameters with only the run folder set: the rest 0 or NULL. */
void fake_tool_params(const struct fake_tool *t, struct hil_flasher_params *p);

/** Open the flasher type with p (must succeed). */
struct hil_flasher *fake_tool_open(const char *type,
				   const struct hil_flasher_params *p);

/**
 * After a successful start on a real board: no link to watch (the runner
 * opens link.port), check passes, stop, and fl is closed.
 */
void fake_tool_check_real_board(struct hil_flasher *fl);

/** A non-ELF and a missing file are refused and the tool never runs. */
void fake_tool_check_rejects_non_elf(const struct fake_tool *t,
				     struct hil_flasher *fl,
				     const char *not_elf);

/**
 * With the stand-in hanging (sleeping sleep_mark seconds), start times out,
 * the stand-in is killed, and the log names the timeout ("300 ms"), the
 * probe's serial and the ELF; fl is closed.
 */
void fake_tool_check_start_hangs(struct hil_flasher *fl, const char *elf,
				 const char *timeout, const char *serial,
				 const char *sleep_mark);

/**
 * With the stand-in hanging, probe times out, the stand-in is killed, and
 * the reason names the timeout; fl is closed.
 */
void fake_tool_check_probe_hangs(struct hil_flasher *fl, const char *timeout,
				 const char *sleep_mark);

/**
 * With its program missing, start (of elf), version and probe are not
 * available (HIL_ERR_NA); the log names the program and the advice (an
 * install line, or the program again), and so does probe's reason.
 */
void fake_tool_check_missing_program(struct hil_flasher *fl, const char *elf,
				     const char *program, const char *advice);

/**
 * Start (of elf) fails with code, and what it logs says says (when not
 * NULL) and not not_says (when not NULL: e.g. an earlier run's failure
 * still in the tool's log, which must not count again).
 */
void fake_tool_check_start_fails(struct hil_flasher *fl, const char *elf,
				 int code, const char *says,
				 const char *not_says);

#endif /* HIL_FAKE_TOOL_H */
