/* build: firmware built per configuration in its own directory, with the toolchain recorded. */
#ifndef HIL_BUILD_H
#define HIL_BUILD_H

#include <signal.h>
#include <stddef.h>

#include "config/config.h"

#define HIL_PATH 4096

/* Implementations in one image at most: the stub's table (HIL_TARGET_MAX_ALGS)
 * with room to spare, and the make command line of one build. A run with
 * more splits them over several images. */
#define HIL_IMAGE_MAX_ALGS 32

/* What the build of a user's own folder left: its compiler warnings. */
struct hil_foreign_build {
	char impl[2 * HIL_CFG_NAME + 2]; /* "alg/impl" */
	unsigned warnings;		 /* compiler warnings counted */
	char log[HIL_PATH]; /* the run folder's warnings/<alg>_<impl>.txt */
};

struct hil_firmware {
	char dir[HIL_PATH];   /* build/fw/<config>-<hash> */
	char elf[HIL_PATH];   /* dir/stub.elf */
	char all_flags[2048]; /* every compiler flag, from dir/flags */
	char ld_flags[1024];  /* every linker flag, from dir/flags */
	char compiler[256];   /* `arm-none-eabi-gcc --version`, first line */
	/* "ascon-aead128/ref ..." as built (external: alg/impl=DIR), as long
	 * as it takes; NULL before a build. Owned: hil_firmware_free(). */
	char *algs;
	struct hil_foreign_build *foreign; /* user folders; owned, as algs */
	size_t n_foreign;
	size_t cap_foreign;
	/* User folders left out of the image because they do not build
	 * (each tried alone); the others were built and are measured.
	 * Owned, as algs. */
	struct hil_excluded {
		char impl[2 * HIL_CFG_NAME + 2]; /* "alg/impl" */
		char why[256]; /* the compiler's first error */
	} * excluded;
	size_t n_excluded;
	size_t cap_excluded;
	/* The link failed because the image is too big for the board: the
	 * linker's words ("region `FLASH' overflowed by 84724 bytes"). */
	int overflowed;
	char overflow[200];
	/* The image does not link although each of the user's folders links
	 * alone (e.g. a linker-script check an implementation's sections
	 * break): the caller may split it to find which; the linker's words. */
	int link_failed;
	char link_error[200];
};

/* hil_build_firmware_ex() flags. */
#define HIL_BUILD_QUIET_OVERFLOW                                               \
	1u /* an image too big is not an error to
				       report: the caller splits it */
/* make and the compiler run on the host, not in a jail (--no-jail). */
#define HIL_BUILD_NO_JAIL 2u

struct hil_jail;

/* The selection split over several images, each of which links; as many
 * as it takes. Owned: hil_build_split_free(). */
struct hil_build_split {
	struct hil_split_image {
		size_t *algs; /* indices into cfg->algs */
		size_t n_algs;
	} * image;
	size_t n_images;
	size_t cap_images;
	/* Implementations that do not fit even alone. */
	struct hil_split_too_big {
		size_t alg; /* index into cfg->algs */
		char why[200];
	} * too_big;
	size_t n_too_big;
	size_t cap_too_big;
};

/** Free what fw owns (algs, foreign, excluded) and leave them empty. */
void hil_firmware_free(struct hil_firmware *fw);

/**
 * Copy src into dst, what it owns too (free dst's with hil_firmware_free()).
 * @return HIL_OK or HIL_ERR_NOMEM (dst then owns nothing).
 */
int hil_firmware_copy(struct hil_firmware *dst, const struct hil_firmware *src);

/** Append "alg/impl" excluded with why to fw. @return HIL_OK or HIL_ERR_NOMEM. */
int hil_firmware_add_excluded(struct hil_firmware *fw, const char *impl,
			      const char *why);

/** Free what split owns and leave it empty. */
void hil_build_split_free(struct hil_build_split *split);

/**
 * The first cut of a split, building nothing: cfg's algorithms but those in
 * skip (n_skip of them) as runs of at most HIL_IMAGE_MAX_ALGS, as equal as
 * can be, in cfg's order; a selection of 2 to HIL_IMAGE_MAX_ALGS (known
 * not to fit one image) in two halves. Every algorithm is in one run.
 * @param plan emptied (freed) first, then filled.
 * @return HIL_OK or HIL_ERR_NOMEM.
 */
int hil_build_split_plan(const struct hil_config *cfg, const size_t *skip,
			 size_t n_skip, struct hil_build_split *plan);

/**
 * Locate the source tree (the directory holding Makefile and target/main.c):
 * $HILRUN_ROOT if set, else upwards from the running executable.
 * @return HIL_OK or HIL_ERR_NA.
 */
int hil_build_find_root(char *root, size_t len);

/**
 * Build the stub for cfg with `make firmware` into its own directory, named
 * from the configuration and a hash of everything that changes the image
 * (board, clock, flags, algorithms), so builds never mix.
 * @param log_path compiler output is appended here.
 * @param algs_override NULL, or a space-separated "alg/impl" list to build
 *        instead of cfg's algorithms ("none" for an empty image).
 * @return HIL_OK, HIL_ERR_BUILD (with the log's last lines reported),
 *         HIL_ERR_NA (make or the cross compiler missing).
 */
int hil_build_firmware(const struct hil_config *cfg, const char *root,
		       const char *log_path, const char *algs_override,
		       struct hil_firmware *fw);

/**
 * hil_build_firmware() with flags (HIL_BUILD_QUIET_OVERFLOW...) and hilrun's
 * stop flag (main's, or NULL): once it is set, make is killed and the build
 * returns HIL_ERR_INTERRUPTED.
 */
int hil_build_firmware_ex(const struct hil_config *cfg, const char *root,
			  const char *log_path, const char *algs_override,
			  unsigned flags, const volatile sig_atomic_t *stop,
			  struct hil_firmware *fw);

/**
 * cfg with only the algorithms algs[0..n-1] (indices into cfg->algs, each
 * keeping its JSON index for messages). @return a copy to free with
 * hil_config_free() then free(), or NULL.
 */
struct hil_config *hil_build_subset(const struct hil_config *cfg,
				    const size_t *algs, size_t n);

/**
 * Split cfg's algorithms (but those in skip, n_skip of them, e.g. folders
 * that do not build) over as few images as halving finds, each of which
 * links: first into runs of at most HIL_IMAGE_MAX_ALGS, then a part that
 * does not fit is halved again; one that does not fit alone goes to
 * split->too_big. Every image is built, so that starting each later finds
 * it up to date. flags: HIL_BUILD_NO_JAIL or 0; stop as
 * hil_build_firmware_ex(). split is emptied (freed) first; the caller
 * frees it with hil_build_split_free().
 * @return HIL_OK, or the first error other than "too big".
 */
int hil_build_split(const struct hil_config *cfg, const char *root,
		    const char *log_path, const size_t *skip, size_t n_skip,
		    unsigned flags, const volatile sig_atomic_t *stop,
		    struct hil_build_split *split);

/**
 * The copy through which make sees a user's folder a (algorithms[i].path),
 * made when the image is built (image/snapshot.c): fw_dir/src/<alg>_<impl>.
 * @return HIL_OK, or HIL_ERR_ARG when it does not fit len.
 */
int hil_build_source_link(const char *fw_dir, const struct hil_config_alg *a,
			  char *link, size_t len);

/**
 * The jail make and the compiler run in (util/jail.h): the parts of the
 * source tree root a build reads (Makefile, mk/, target/, protocol/, host/,
 * tests/), the folders of the user's that algs names ("alg/impl=LINK"
 * entries, separated by spaces; the folders the links lead to) read-only,
 * and dir, the build's own folder (made if missing), writable but for
 * what lies in it read-only: the copies of the user's folders (dir/src,
 * when the links are there) and, in an image's folder, its other builds'
 * folders (dir/host, dir/isolate: made if missing), so that no build
 * changes the sources it compiles or what another build made.
 * @param out receives it; free with hil_jail_free().
 * @return HIL_OK, HIL_ERR_NOMEM, HIL_ERR_IO (dir cannot be made),
 *         HIL_ERR_NA (a folder is missing).
 */
int hil_build_jail(const char *root, const char *dir, const char *algs,
		   struct hil_jail **out);

/**
 * Is the implementation folder dir assembly (the compiler cannot explain its
 * timing)? A .s or .S file in it, or an asm statement in its C.
 * @return 1 or 0 (0 also when it cannot be read).
 */
int hil_build_has_assembly(const char *dir);

#endif /* HIL_BUILD_H */
