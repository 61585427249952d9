/* mapsizes: flash and RAM per implementation, attributed from the GNU ld map of the linked stub. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"mapsizes"
#include "mapsizes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/err.h"
#include "util/log.h"
#include "util/util.h"

enum category { CAT_NONE, CAT_TEXT, CAT_RODATA, CAT_DATA, CAT_BSS };

static int starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Input section name -> what it occupies; anything else (debug, comment,
 * attributes, unwind tables of no code of ours) is not counted. */
static enum category categorise(const char *section)
{
	if (starts_with(section, ".text")) {
		return CAT_TEXT;
	}
	if (starts_with(section, ".rodata")) {
		return CAT_RODATA;
	}
	if (starts_with(section, ".data")) {
		return CAT_DATA;
	}
	if (starts_with(section, ".bss") || strcmp(section, "COMMON") == 0) {
		return CAT_BSS;
	}
	return CAT_NONE;
}

/* ".../crypto/<alg>/<impl>/<file>.o" -> alg, impl; 0 when not one of ours
 * or when the object is the glue. */
static int impl_of(const char *path, char *alg, char *impl)
{
	const char *p = strstr(path, "/crypto/");
	const char *a;
	const char *i;
	const char *f;

	if (p == NULL) {
		return 0;
	}
	a = p + strlen("/crypto/");
	i = strchr(a, '/');
	if (i == NULL) {
		return 0;
	}
	i++;
	f = strchr(i, '/');
	if (f == NULL || strchr(f + 1, '/') != NULL) {
		return 0;
	}
	if (strcmp(f + 1, "glue.o") == 0) {
		return 0;
	}
	if ((size_t)(i - 1 - a) >= HILP_ALG_NAME_MAX ||
	    (size_t)(f - i) >= HILP_ALG_NAME_MAX) {
		return 0;
	}
	memcpy(alg, a, (size_t)(i - 1 - a));
	alg[i - 1 - a] = '\0';
	memcpy(impl, i, (size_t)(f - i));
	impl[f - i] = '\0';
	return 1;
}

static struct hil_impl_size *entry(struct hil_impl_size **arr, size_t *cap,
				   size_t *n, const char *alg, const char *impl)
{
	struct hil_impl_size *out = *arr;
	void *grown = *arr;
	size_t k;

	for (k = 0; k < *n; k++) {
		if (strcmp(out[k].algorithm, alg) == 0 &&
		    strcmp(out[k].implementation, impl) == 0) {
			return &out[k];
		}
	}
	if (hil_grow(&grown, *n, cap, sizeof(*out)) != HIL_OK) {
		return NULL;
	}
	*arr = grown;
	out = grown;
	memset(&out[*n], 0, sizeof(out[*n]));
	snprintf(out[*n].algorithm, sizeof(out[*n].algorithm), "%s", alg);
	snprintf(out[*n].implementation, sizeof(out[*n].implementation), "%s",
		 impl);
	return &out[(*n)++];
}

static void add(struct hil_impl_size *e, enum category cat, unsigned long sz)
{
	switch (cat) {
	case CAT_TEXT:
		e->text += sz;
		break;
	case CAT_RODATA:
		e->rodata += sz;
		break;
	case CAT_DATA:
		e->data += sz;
		break;
	case CAT_BSS:
		e->bss += sz;
		break;
	default:
		break;
	}
}

int hil_map_impl_sizes_text(const char *text, struct hil_impl_size **out,
			    size_t *n, size_t *cap)
{
	const char *p = strstr(text, "\nLinker script and memory map");
	char section[256] = "";

	*n = 0;
	if (p == NULL) {
		hil_err("not a GNU ld map: no \"Linker script and memory map\"");
		return HIL_ERR_PROTO;
	}
	while (p != NULL && *p != '\0') {
		const char *eol = strchr(++p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		char line[1024];
		char name[256];
		char path[768];
		unsigned long addr;
		unsigned long size;

		if (len >= sizeof(line)) {
			len = sizeof(line) - 1;
		}
		memcpy(line, p, len);
		line[len] = '\0';
		p = eol;
		/*
		 * An input section is " .name  0xADDR  0xSIZE path", or " .name"
		 * alone with "  0xADDR  0xSIZE path" on the next line when the
		 * name is long. Output sections start in column 0.
		 */
		if (line[0] == ' ' && line[1] == '.') {
			if (sscanf(line, " %255s 0x%lx 0x%lx %767s", name,
				   &addr, &size, path) == 4) {
				snprintf(section, sizeof(section), "%s", name);
			} else if (sscanf(line, " %255s", name) == 1) {
				snprintf(section, sizeof(section), "%s", name);
				continue;
			} else {
				continue;
			}
		} else if (starts_with(line, " COMMON")) {
			if (sscanf(line, " COMMON 0x%lx 0x%lx %767s", &addr,
				   &size, path) != 3) {
				continue;
			}
			snprintf(section, sizeof(section), "COMMON");
		} else if (starts_with(line, "                0x") &&
			   section[0] != '\0') {
			if (sscanf(line, " 0x%lx 0x%lx %767s", &addr, &size,
				   path) != 3) {
				continue; /* a symbol line: address and name */
			}
		} else {
			if (line[0] != ' ') {
				section[0] = '\0'; /* a new output section */
			}
			continue;
		}
		{
			char alg[HILP_ALG_NAME_MAX];
			char impl[HILP_ALG_NAME_MAX];
			enum category cat = categorise(section);
			struct hil_impl_size *e;

			section[0] = '\0';
			if (cat == CAT_NONE || size == 0 ||
			    !impl_of(path, alg, impl)) {
				continue;
			}
			e = entry(out, cap, n, alg, impl);
			if (e == NULL) {
				hil_err("out of memory reading a map's %zu implementations",
					*n);
				return HIL_ERR_NOMEM;
			}
			add(e, cat, size);
		}
	}
	return HIL_OK;
}

int hil_map_impl_sizes(const char *map_path, struct hil_impl_size **out,
		       size_t *n, size_t *cap)
{
	char *text = NULL;
	int ret = hil_read_file(map_path, &text, NULL);

	if (ret != HIL_OK) {
		return ret;
	}
	ret = hil_map_impl_sizes_text(text, out, n, cap);
	free(text);
	return ret;
}
