/* cyclemodel: the host side of the Cortex-M4 cycle model (host/emu/plugin): builds QEMU's -plugin argument and reads the records the plugin appends, one per timed region. */
#ifndef HIL_CYCLEMODEL_H
#define HIL_CYCLEMODEL_H

#include <stddef.h>
#include <stdint.h>

#define HIL_CYCLEMODEL_MAX_WS	  15
#define HIL_CYCLEMODEL_TIMED_FUNC "timed" /* target/bench.c */

struct hil_cyclemodel_opts {
	const char *plugin; /* the plugin's .so (hil_cyclemodel_find_plugin) */
	const char *out;    /* record file: created or appended to */
	/* The memory-system profile (hil_cyclemodel_profile()); NULL: the
	 * plugin's default (stm32f401-art's caches at ws). */
	const char *profile;
	unsigned ws; /* flash wait states, 0..15: overrides the profile's */
	int art;     /* 1: the profile's prefetch and caches on; 0: off */
	/* Reads of the counter bracket only from code in [lo, hi) (the
	 * stub's timed(), hil_cyclemodel_range_from_elf()); 0, 0: every
	 * read of the counter opens or closes a bracket. */
	uint32_t range_lo, range_hi;
	/* The counter register whose reads bracket (the board driver's
	 * model_counter); 0: the plugin's default, TIM2_CNT. */
	uint32_t counter;
};

/** One timed region, as the plugin counted it. */
struct hil_cyclemodel_rec {
	uint64_t seq;	 /* 1, 2, ... per QEMU start */
	uint64_t cycles; /* the estimate: an unknown cost counts its maximum */
	uint64_t min;	 /* lower bound (differs only with divides, MSR/MRS) */
	uint64_t max;	 /* upper bound (== cycles) */
	uint64_t insns;	 /* instructions: equals the emulated counter's ticks */
	uint64_t divides;
	uint64_t flash; /* cycles of the estimate spent on flash wait states */
	/* Flash lines read on demand (not in the fetch buffer, prefetched or
	 * cached) by instruction fetches and by data reads, and the distinct
	 * code and data lines the region touched; all 0 in records of a
	 * plugin older than the memory-system profiles. */
	uint64_t imiss, dmiss;
	uint64_t ilines, dlines;
};

/** The record file's header, written by the plugin when QEMU loads it. */
struct hil_cyclemodel_info {
	int loaded;	  /* a header was read */
	char profile[32]; /* "" from an older plugin; "default" for none */
	unsigned ws;
	int art;
	int api_min, api_cur; /* plugin API versions QEMU offered */
	int exited;	      /* QEMU wrote its exit line */
};

/**
 * Find the bracket range: the function `name` (normally
 * HIL_CYCLEMODEL_TIMED_FUNC, or a compiler clone of it) in the image.
 * @return HIL_OK or the codes of hil_elf_function_range().
 */
int hil_cyclemodel_range_from_elf(const char *elf, const char *name,
				  uint32_t *lo, uint32_t *hi);

/**
 * The value of QEMU's -plugin option for these options, e.g.
 * "/x/cyclemodel.so,profile=stm32f401-art,ws=2,art=on,range=0x0800026c-0x08000280,out=/r/m.txt"
 * (commas in paths doubled, as QEMU's option parser wants).
 * @param buf receives it, NUL-terminated.
 * @return HIL_OK; HIL_ERR_ARG (no plugin or out path, an unknown profile,
 *         ws > 15, a range with hi <= lo, or buf too small).
 */
int hil_cyclemodel_plugin_arg(const struct hil_cyclemodel_opts *o, char *buf,
			      size_t len);

/**
 * Where the plugin is: $HILRUN_CYCLE_PLUGIN if set, else
 * <root>/build/emu/cyclemodel.so.
 * @return HIL_OK; HIL_ERR_NA (not built: `make cycle-plugin`);
 *         HIL_ERR_ARG (buf too small).
 */
int hil_cyclemodel_find_plugin(const char *root, char *buf, size_t len);

/**
 * The unit label of the estimate, e.g.
 * "cycles (estimated, Cortex-M4 model, stm32f401-art: 2 WS, ART on)";
 * a profile with unverified parameters says so ("..., unverified flash
 * timing)"); ws or art other than the profile's own make it "stm32f401-art
 * overridden: 0 WS, ART off". profile NULL: as the plugin's default,
 * unnamed.
 */
void hil_cyclemodel_unit(const char *profile, unsigned ws, int art, char *buf,
			 size_t len);

/**
 * One line for people on the memory system modelled: the profile's own
 * summary when ws and art are the profile's, else what the overrides make
 * of it (never the board setting the profile stands for).
 * @return 1 with buf filled; 0 (buf "") when profile is not a known one.
 */
int hil_cyclemodel_summary(const char *profile, unsigned ws, int art, char *buf,
			   size_t len);

/** What a memory-system profile is (drivers/board/memsys.h). */
struct cm4_memsys;

/** The memory-system profile called name, or NULL. */
const struct cm4_memsys *hil_cyclemodel_profile(const char *name);

/**
 * The profiles' names joined for a message, "a, b or c".
 * @return the length snprintf would write.
 */
int hil_cyclemodel_profile_names(char *buf, size_t len);

struct hil_cyclemodel_reader;

/**
 * Follow a record file.
 * @param out receives the reader; close it with hil_cyclemodel_close().
 * @param from_end 1: skip what the file holds now (records of earlier
 *        runs); 0: read it from its start. A missing file is empty.
 * @return HIL_OK; HIL_ERR_IO; HIL_ERR_NOMEM; HIL_ERR_ARG.
 */
int hil_cyclemodel_open(struct hil_cyclemodel_reader **out, const char *path,
			int from_end);

/**
 * The records appended since the last call, in order; a line the plugin
 * is still writing is left for the next call.
 * @param recs receives a malloc'd array (the caller frees it), or NULL
 *        when there is none.
 * @param n receives the count.
 * @return HIL_OK; HIL_ERR_IO; HIL_ERR_NOMEM; HIL_ERR_PROTO (a malformed
 *         line, logged; the records before it are returned first).
 */
int hil_cyclemodel_read(struct hil_cyclemodel_reader *r,
			struct hil_cyclemodel_rec **recs, size_t *n);

/** What the last header seen said; valid until close. */
const struct hil_cyclemodel_info *
hil_cyclemodel_info(const struct hil_cyclemodel_reader *r);

/** NULL is allowed. */
void hil_cyclemodel_close(struct hil_cyclemodel_reader *r);

#endif /* HIL_CYCLEMODEL_H */
