/* pqflags: a pqm4 folder's config.mk read to the subset hilrun takes (lines adding flags to the folder's own build, each flag through the compiler-flag allowlist), never run as make. */
#ifndef HIL_PQFLAGS_H
#define HIL_PQFLAGS_H

#include <stddef.h>

struct hil_pq_plan;

#define HIL_PQ_FLAGS_MAX  32
#define HIL_PQ_FLAGS_TEXT 4096

/* What one folder's config.mk adds to its build. */
struct hil_pq_flags {
	char text[HIL_PQ_FLAGS_TEXT]; /* the flags taken, space-separated */
	size_t n;		      /* how many */
	int has_file;		      /* the folder has a config.mk */
	int refused;	/* 1: not understood, the folder is not built */
	char why[1024]; /* refused: the file, its line, what */
};

/*
 * pqm4's mupq/mk/schemes.mk includes <folder>/config.mk into its Makefile,
 * so that a folder can add flags to its images, e.g. crypto_sign/mayo1/m4f's
 * "elf/crypto_sign_mayo1_m4f_%.elf: CPPFLAGS += -DMAYO_M4". hilrun never
 * runs a folder's make syntax; it reads only lines of the form
 *
 *     [elf/..._SCHEME_IMPL_%.elf:] CPPFLAGS += FLAG...
 *     [elf/..._SCHEME_IMPL_%.elf:] CFLAGS += FLAG...
 *
 * (comments, blank lines and "\" continuations allowed; the target, when
 * given, must be pqm4's images of this very folder), and of their flags
 * only those hilrun's allowlist takes (config/cflags.h: -D, -U, -O, the
 * target's code-generation options, warnings, ...), with -I of a folder
 * named relative to this one and inside it (taken as its real path). Any
 * other line or flag is refused, naming the file, the line and what is not
 * understood: the folder is then not built (listed as not run), the rest
 * of the run goes on.
 */

/**
 * Read dir/config.mk (none: no flags).
 * @param dir the folder (a copy a run builds from); its last two path
 *        parts name it (pqm4's targets of its images end in SCHEME_IMPL).
 * @param out receives the flags, or refused and why ("config.mk line N:
 *        \"LINE\": what", short: "Not run" names the folder beside it).
 * @return HIL_OK (out says what was found) or HIL_ERR_NOMEM.
 */
int hil_pq_flags_read(const char *dir, struct hil_pq_flags *out);

/**
 * Write path, the flags file scripts/pq-bench.sh takes (-F): one line per
 * scheme folder of copy (the copies a run builds), "FOLDER<TAB>flags<TAB>
 * FLAGS" (FLAGS empty without a config.mk) or "FOLDER<TAB>refused<TAB>WHY".
 * @return HIL_OK, HIL_ERR_IO or HIL_ERR_NOMEM, with err saying why.
 */
int hil_pq_flags_write(const struct hil_pq_plan *copy, const char *path,
		       char *err, size_t len);

#endif /* HIL_PQFLAGS_H */
