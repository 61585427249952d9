/* linkset: the digest of a folder's symbolic links, the same in whatever order a walk meets them. */
#define _XOPEN_SOURCE  700
#define HIL_LOG_PREFIX "linkset"

#include "linkset.h"

#include <sha2.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "log.h"

struct hil_linkset {
	char **item; /* "rel\0target\0", each malloc'd */
	size_t n, cap;
};

int hil_linkset_new(struct hil_linkset **out)
{
	*out = calloc(1, sizeof(**out));
	if (*out == NULL) {
		hil_err("no memory for a folder's links");
		return HIL_ERR_NOMEM;
	}
	return HIL_OK;
}

void hil_linkset_free(struct hil_linkset *s)
{
	size_t i;

	if (s == NULL) {
		return;
	}
	for (i = 0; i < s->n; i++) {
		free(s->item[i]);
	}
	free(s->item);
	free(s);
}

int hil_linkset_add(struct hil_linkset *s, const char *rel, const char *target)
{
	size_t a = strlen(rel) + 1, b = strlen(target) + 1;
	char *it;

	if (s->n == s->cap) {
		size_t cap = s->cap != 0 ? 2 * s->cap : 16;
		char **item = realloc(s->item, cap * sizeof(*item));

		if (item == NULL) {
			hil_err("no memory for a folder's links");
			return HIL_ERR_NOMEM;
		}
		s->item = item;
		s->cap = cap;
	}
	it = malloc(a + b);
	if (it == NULL) {
		hil_err("no memory for a folder's links");
		return HIL_ERR_NOMEM;
	}
	memcpy(it, rel, a);
	memcpy(it + a, target, b);
	s->item[s->n] = it;
	s->n++;
	return HIL_OK;
}

/* Links are ordered by their path in the folder: each path is there once. */
static int by_rel(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

void hil_linkset_digest(struct hil_linkset *s,
			unsigned char out[HIL_LINKSET_DIGEST])
{
	SHA2_CTX sha;
	size_t i;

	/* Each item's two NULs are hashed too: they mark where a path
	 * ends, so that no two sets hash the same bytes. */
	if (s->n > 1) { /* an empty set may have no array at all */
		qsort(s->item, s->n, sizeof(*s->item), by_rel);
	}
	SHA256Init(&sha);
	for (i = 0; i < s->n; i++) {
		const char *it = s->item[i];
		size_t n = strlen(it) + 1;

		n += strlen(it + n) + 1;
		SHA256Update(&sha, (const uint8_t *)it, n);
	}
	SHA256Final(out, &sha);
}
