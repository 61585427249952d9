/* mapsizes: flash and RAM per implementation, attributed from the GNU ld map of the linked stub. */
#ifndef HIL_MAPSIZES_H
#define HIL_MAPSIZES_H

#include <stddef.h>

#include "config/config.h"
#include "hilp.h"

/* An implementation's names here: as long as a row's (HIL_ROW_NAME) and
 * the protocol's (HILP_ALG_NAME_MAX: pqm4's sphincs-shake-128f-simple,
 * NIST's long variant names). */
#define HIL_IMPL_NAME HILP_ALG_NAME_MAX

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
 * @param out an array of *cap entries (NULL and 0 at first), grown to hold
 *        every implementation of the map (the caller frees it);
 * @param n receives how many (its entries are replaced).
 * @return HIL_OK, HIL_ERR_IO (unreadable, named), HIL_ERR_PROTO (not a map),
 *         HIL_ERR_NOMEM.
 */
int hil_map_impl_sizes(const char *map_path, struct hil_impl_size **out,
		       size_t *n, size_t *cap);

/** As hil_map_impl_sizes, from the map's text. */
int hil_map_impl_sizes_text(const char *text, struct hil_impl_size **out,
			    size_t *n, size_t *cap);

#endif /* HIL_MAPSIZES_H */
