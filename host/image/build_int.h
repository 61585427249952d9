/* build_int: what building one image (build.c) and building the user's own folders into it (ownbuild.c) share; not a public API. */
#ifndef HIL_BUILD_INT_H
#define HIL_BUILD_INT_H

#include <signal.h>
#include <stddef.h>

#include "build.h"

/* The make variables of one configuration's build. */
struct make_vars {
	char board[128];
	char opt[2100];
	char clock[64];
	char baud[64];
	char link[64]; /* HIL_LINK=, the transport the stub speaks */
	int jail;      /* make runs in hil_build_jail()'s jail */
	/* hilrun's stop flag (main's), or NULL: make is killed once it is
	 * set (util/proc.h) */
	const volatile sig_atomic_t *stop;
	/* HIL_PREFETCH=, empty: the board code's default at the clock */
	char prefetch[64];
};

/* ---- build.c ----------------------------------------------------------- */

/* make -C root TARGET ... ALGS=algs FW_DIR=dir, output appended to log. */
int hil_build_run_make(const char *root, const char *log_path,
		       const char *target, const struct make_vars *v,
		       const char *algs, const char *dir, int *status);

/* After a failed build: the fix for the mistakes people make most, from
 * what its make wrote to the log from byte from on (its last 256 KiB at
 * most, however large the log grew). */
void hil_build_hint_failure(const char *log_path, size_t from);

/* The build log's size now: a make run next writes from there on (the log
 * holds every build of a run). */
size_t hil_build_log_size(const char *log_path);

/* Did the make that wrote the log from byte from on fail to link because
 * the image is too big? Its linker's words into what. An earlier build's
 * overflow in the same log says nothing of this one. */
int hil_build_log_overflowed(const char *log_path, size_t from, char *what,
			     size_t len);

/* The last linker complaint ("ld: ...") of the make that wrote the log
 * from byte from on, into what. @return 1 when there is one. */
int hil_build_log_link_error(const char *log_path, size_t from, char *what,
			     size_t len);

/* ---- ownbuild.c -------------------------------------------------------- */

/* Copy the user's folder a->path to FW_DIR/src/<alg>_<impl> (its path into
 * link), the only name make sees of it (image/snapshot.c: refused, with an
 * error logged, when it is not as the configuration's load checked it). */
int hil_build_link_source(const char *fw_dir, const struct hil_config_alg *a,
			  char *link, size_t len);

/* Count a->path's compiler warnings and gather them into fb->log. */
void hil_build_collect_warnings(const char *fw_dir, const char *log_path,
				const struct hil_config_alg *a,
				struct hil_foreign_build *fb);

/* The image did not build: find the user's folders that do not, alone.
 * @return how many went into fw->excluded (their entries[i] emptied). */
size_t hil_build_isolate_failures(const struct hil_config *cfg,
				  const char *root, const char *log_path,
				  const struct make_vars *v,
				  struct hil_firmware *fw, char **entries);

#endif /* HIL_BUILD_INT_H */
