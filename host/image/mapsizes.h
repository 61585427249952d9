/* mapsizes: flash and RAM per implementation, attributed from the GNU ld map of the linked stub. */
#ifndef HIL_MAPSIZES_H
#define HIL_MAPSIZES_H

#include <stddef.h>

#include "config/config.h"
#include "hilp.h"

/* Every implementation a run holds has its figures (a run of several
 * images keeps each image's: more than 64 of NIST's ascon tree lost theirs
 * when this was 64). */
#define HIL_MAX_IMPL_SIZES HIL_CFG_MAX_ALGS
/* An implementation's names here: as long as a row's (HIL_ROW_NAME) and
 * the protocol's (HILP_ALG_NAME_MAX: pqm4's sphincs-shake-128f-simple,
 * NIST's long variant names). */
#define HIL_IMPL_NAME	   HILP_ALG_NAME_MAX

/* Bytes of one implementation's objects that survived --gc-sections. */
struct hil_impl_size {
	char algorithm[HIL_IMPL_NAME];
	char implementation[HIL_IMPL_NAME];
	unsigned long text;   /* code: .text* */
	unsigned long rodata; /* constants: .rodata* */
	unsigned long data;   /* initialised RAM (its image is in flash too) */
	unsigned long bss;    /* zeroed RAM */
};

/**
 * Read a GNU ld map file (-Wl,-Map) and sum, per implementation folder
 * (objects under .../crypto/<algorithm>/<implementation>/, glue.o excluded:
 * that is the harness's descriptor), the sizes of the input sections kept
 * in the image. Discarded sections are listed before "Linker script and
 * memory map" and are not counted.
 * @param out up to cap entries; @param n receives how many.
 * @return HIL_OK, HIL_ERR_IO (unreadable, named), HIL_ERR_PROTO (not a map).
 */
int hil_map_impl_sizes(const char *map_path, struct hil_impl_size *out,
		       size_t cap, size_t *n);

/** As hil_map_impl_sizes, from the map's text. */
int hil_map_impl_sizes_text(const char *text, struct hil_impl_size *out,
			    size_t cap, size_t *n);

#endif /* HIL_MAPSIZES_H */
