/* registry: the table of implementations, generated from the build's algorithm list. */
#include "registry.h"

/*
 * algs.h is written by the build for each configuration: one line
 * HIL_ALG(symbol) per implementation; glue.c defines symbol##_alg for each.
 */
#define HIL_ALG(sym) extern const struct registry_alg sym##_alg;
#include "algs.h"
#undef HIL_ALG

#define HIL_ALG(sym) &sym##_alg,
static const struct registry_alg *const table[] = {
#include "algs.h"
	NULL};
#undef HIL_ALG

size_t registry_count(void)
{
	return sizeof(table) / sizeof(table[0]) - 1;
}

const struct registry_alg *registry_get(size_t i)
{
	if (i >= registry_count()) {
		return NULL;
	}
	return table[i];
}
