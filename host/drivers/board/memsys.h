/* memsys: the cycle model's named memory-system profiles (flash line, wait states, prefetch, caches of a board's chip), shared by the QEMU plugin and hilrun (docs/cycle-model.md, "Memory-system profiles"). */
#ifndef EMU_MEMSYS_H
#define EMU_MEMSYS_H

#include <stddef.h>

/* A cache whose size is not documented: it keeps every line it was given,
 * so the misses it reports are a lower bound. */
#define CM4_CACHE_UNBOUNDED 0xffffffffu

/* The largest cache a profile may name (lines of one cache). */
#define CM4_CACHE_MAX_LINES 1024u

struct cm4_cache_geom {
	unsigned lines; /* 0: no cache; CM4_CACHE_UNBOUNDED: size unknown */
	unsigned ways;	/* == lines: fully associative; replacement is LRU */
};

/*
 * One memory system as a board ships it. The code runs where the emulated
 * board puts it (flash at 0x08000000 and its alias at 0 on the
 * netduinoplus2): a profile says how that flash behaves, not where it is.
 */
struct cm4_memsys {
	const char *name;    /* cycle_model.profile, the plugin's profile= */
	const char *chip;    /* e.g. "STM32F401" */
	const char *summary; /* one line for people */
	unsigned line_bytes; /* what one flash read returns (a power of 2) */
	unsigned ws;	     /* wait states of a flash read at this clock */
	int prefetch;	     /* the next sequential line is read ahead */
	struct cm4_cache_geom icache; /* instruction fetches from flash */
	struct cm4_cache_geom dcache; /* data reads from flash (literals) */
	/* What art=on|off switches in the unit label ("ART", "I-cache");
	 * NULL: the profile has nothing to switch. */
	const char *accel;
	/* NULL when every parameter above is from the documents in
	 * docs/cycle-model.md; else which ones are not, and what stands in. */
	const char *unverified;
	/* The expected error of an estimate under this profile, in percent,
	 * for compiled C and for assembly: from leave-one-finalist-out
	 * cross-validation on the data the profile was calibrated on (90th
	 * percentile of |model/published - 1| over the held-out points);
	 * 0 when unknown (no calibration). err_from says on what. */
	double err_c_pct;
	double err_asm_pct;
	const char *err_from;
};

/** The profile called name, or NULL. */
const struct cm4_memsys *cm4_memsys_find(const char *name);

/** The i-th profile (0, 1, ...), or NULL past the last. */
const struct cm4_memsys *cm4_memsys_at(size_t i);

#endif /* EMU_MEMSYS_H */
