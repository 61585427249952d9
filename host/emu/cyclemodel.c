/* cyclemodel: -plugin argument for the Cortex-M4 cycle model and a reader of the records it appends. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"cyclemodel"

#include "cyclemodel.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "drivers/board/memsys.h"
#include "image/elfinfo.h"
#include "util/err.h"
#include "util/log.h"

#define CHUNK	 4096
#define MAX_LINE 512 /* a record line is about 140 bytes */

struct hil_cyclemodel_reader {
	char *path;
	off_t offset; /* of the first byte not yet consumed */
	struct hil_cyclemodel_info info;
};

int hil_cyclemodel_range_from_elf(const char *elf, const char *name,
				  uint32_t *lo, uint32_t *hi)
{
	uint64_t addr, size;
	int ret;

	if (elf == NULL || name == NULL || lo == NULL || hi == NULL) {
		return HIL_ERR_ARG;
	}
	ret = hil_elf_function_range(elf, name, &addr, &size);
	if (ret != HIL_OK) {
		return ret;
	}
	if (addr + size > UINT32_MAX) {
		hil_err("%s: %s at 0x%" PRIx64 " is not a 32-bit address", elf,
			name, addr);
		return HIL_ERR_ARG;
	}
	*lo = (uint32_t)addr;
	*hi = (uint32_t)(addr + size);
	return HIL_OK;
}

/* Append s to buf at *used, doubling commas (QemuOpts' escape). */
static int put(char *buf, size_t len, size_t *used, const char *s, int escape)
{
	for (; *s != '\0'; s++) {
		size_t need = (escape && *s == ',') ? 2 : 1;

		if (*used + need >= len) {
			return HIL_ERR_ARG;
		}
		buf[(*used)++] = *s;
		if (need == 2) {
			buf[(*used)++] = ',';
		}
	}
	buf[*used] = '\0';
	return HIL_OK;
}

int hil_cyclemodel_plugin_arg(const struct hil_cyclemodel_opts *o, char *buf,
			      size_t len)
{
	char opts[160];
	size_t used = 0, n;

	if (o == NULL || buf == NULL || len == 0 || o->plugin == NULL ||
	    o->plugin[0] == '\0' || o->out == NULL || o->out[0] == '\0') {
		hil_err("cycle model: no plugin or no record file given");
		return HIL_ERR_ARG;
	}
	if (o->ws > HIL_CYCLEMODEL_MAX_WS) {
		hil_err("cycle model: %u wait states (0..%d)", o->ws,
			HIL_CYCLEMODEL_MAX_WS);
		return HIL_ERR_ARG;
	}
	if ((o->range_lo != 0 || o->range_hi != 0) &&
	    o->range_hi <= o->range_lo) {
		hil_err("cycle model: empty bracket range 0x%08" PRIx32
			"-0x%08" PRIx32,
			o->range_lo, o->range_hi);
		return HIL_ERR_ARG;
	}
	if (o->profile != NULL && cm4_memsys_find(o->profile) == NULL) {
		hil_err("cycle model: no memory-system profile \"%.40s\"",
			o->profile);
		return HIL_ERR_ARG;
	}
	snprintf(opts, sizeof(opts), "%s%s,ws=%u,art=%s",
		 o->profile != NULL ? ",profile=" : "",
		 o->profile != NULL ? o->profile : "", o->ws,
		 o->art ? "on" : "off");
	if (o->counter != 0) {
		n = strlen(opts);
		snprintf(opts + n, sizeof(opts) - n, ",counter=0x%08" PRIx32,
			 o->counter);
	}
	if (o->range_hi != 0) {
		n = strlen(opts);
		snprintf(opts + n, sizeof(opts) - n,
			 ",range=0x%08" PRIx32 "-0x%08" PRIx32, o->range_lo,
			 o->range_hi);
	}
	buf[0] = '\0';
	if (put(buf, len, &used, o->plugin, 1) != HIL_OK ||
	    put(buf, len, &used, opts, 0) != HIL_OK ||
	    put(buf, len, &used, ",out=", 0) != HIL_OK ||
	    put(buf, len, &used, o->out, 1) != HIL_OK) {
		hil_err("cycle model: the -plugin argument does not fit in %zu bytes",
			len);
		return HIL_ERR_ARG;
	}
	return HIL_OK;
}

int hil_cyclemodel_find_plugin(const char *root, char *buf, size_t len)
{
	const char *env = getenv("HILRUN_CYCLE_PLUGIN");
	int n;

	if (buf == NULL || len == 0) {
		return HIL_ERR_ARG;
	}
	if (env != NULL && env[0] != '\0') {
		n = snprintf(buf, len, "%s", env);
	} else if (root != NULL) {
		n = snprintf(buf, len, "%s/build/emu/cyclemodel.so", root);
	} else {
		n = snprintf(buf, len, "build/emu/cyclemodel.so");
	}
	if (n < 0 || (size_t)n >= len) {
		hil_err("cycle model: plugin path too long");
		return HIL_ERR_ARG;
	}
	if (access(buf, R_OK) != 0) {
		hil_err("cycle model plugin %s: %s (build it: make cycle-plugin)",
			buf, strerror(errno));
		return HIL_ERR_NA;
	}
	return HIL_OK;
}

/* Do ws and art differ from what the profile itself is? */
static int overridden(const struct cm4_memsys *p, unsigned ws, int art)
{
	return p != NULL && (ws != p->ws || (p->accel != NULL && !art));
}

void hil_cyclemodel_unit(const char *profile, unsigned ws, int art, char *buf,
			 size_t len)
{
	const struct cm4_memsys *p = cm4_memsys_find(profile);
	const char *accel = p != NULL ? p->accel : "ART";
	int over = overridden(p, ws, art);
	char name[64] = "";

	if (p != NULL) {
		snprintf(name, sizeof(name), "%s%s: ", p->name,
			 over ? " overridden" : "");
	}
	/* At 0 WS the accelerator changes no cycle, but an override says
	 * what it switched: the label describes what was modelled. */
	if (accel == NULL || (ws == 0 && !over)) {
		snprintf(buf, len,
			 "cycles (estimated, Cortex-M4 model, %s%u WS%s)", name,
			 ws,
			 p != NULL && p->unverified != NULL
				 ? ", unverified flash timing"
				 : "");
	} else {
		snprintf(
			buf, len,
			"cycles (estimated, Cortex-M4 model, %s%u WS, %s %s%s)",
			name, ws, accel, art ? "on" : "off",
			p != NULL && p->unverified != NULL
				? ", unverified flash timing"
				: "");
	}
}

int hil_cyclemodel_summary(const char *profile, unsigned ws, int art, char *buf,
			   size_t len)
{
	const struct cm4_memsys *p = cm4_memsys_find(profile);
	char acc[64] = "", own[64] = "";

	if (p == NULL) {
		if (len > 0) {
			buf[0] = '\0';
		}
		return 0;
	}
	if (!overridden(p, ws, art)) {
		snprintf(buf, len, "%s", p->summary);
		return 1;
	}
	if (p->accel != NULL) {
		snprintf(acc, sizeof(acc), ", %s prefetch and caches %s",
			 p->accel, art ? "on" : "off");
		snprintf(own, sizeof(own), ", %s on", p->accel);
	}
	/* The profile's summary names a board setting (a clock, FLASH_ACR)
	 * that the overrides no longer match: say what was modelled. */
	snprintf(
		buf, len,
		"%s memory system as modelled: %u WS%s (cycle_model overrides profile %s, which is %u WS%s; no board setting is known to match)",
		p->chip, ws, acc, p->name, p->ws, own);
	return 1;
}

const struct cm4_memsys *hil_cyclemodel_profile(const char *name)
{
	return cm4_memsys_find(name);
}

int hil_cyclemodel_profile_names(char *buf, size_t len)
{
	const struct cm4_memsys *p;
	size_t i, count = 0, used = 0;
	int n;

	while (cm4_memsys_at(count) != NULL) {
		count++;
	}
	if (len > 0) {
		buf[0] = '\0';
	}
	for (i = 0; (p = cm4_memsys_at(i)) != NULL; i++) {
		n = snprintf(buf + (used < len ? used : len),
			     used < len ? len - used : 0, "%s%s",
			     i == 0	      ? ""
			     : i + 1 == count ? " or "
					      : ", ",
			     p->name);
		used += n > 0 ? (size_t)n : 0;
	}
	return (int)used;
}

int hil_cyclemodel_open(struct hil_cyclemodel_reader **out, const char *path,
			int from_end)
{
	struct hil_cyclemodel_reader *r;
	struct stat st;

	if (out == NULL || path == NULL || path[0] == '\0') {
		return HIL_ERR_ARG;
	}
	*out = NULL;
	r = calloc(1, sizeof(*r));
	if (r == NULL) {
		hil_err("no memory");
		return HIL_ERR_NOMEM;
	}
	r->path = strdup(path);
	if (r->path == NULL) {
		free(r);
		hil_err("no memory");
		return HIL_ERR_NOMEM;
	}
	if (from_end && stat(path, &st) == 0) {
		r->offset = st.st_size;
	} else if (from_end && errno != ENOENT) {
		hil_err("%s: %s", path, strerror(errno));
		hil_cyclemodel_close(r);
		return HIL_ERR_IO;
	}
	*out = r;
	return HIL_OK;
}

const struct hil_cyclemodel_info *
hil_cyclemodel_info(const struct hil_cyclemodel_reader *r)
{
	return &r->info;
}

void hil_cyclemodel_close(struct hil_cyclemodel_reader *r)
{
	if (r == NULL) {
		return;
	}
	free(r->path);
	free(r);
}

/* "key=value" among the words of line: the value, or NULL. */
static const char *field(const char *line, const char *key)
{
	size_t k = strlen(key);
	const char *p = line;

	while ((p = strstr(p, key)) != NULL) {
		if ((p == line || p[-1] == ' ') && p[k] == '=') {
			return p + k + 1;
		}
		p += k;
	}
	return NULL;
}

static int field_u64(const char *line, const char *key, uint64_t *v)
{
	const char *s = field(line, key);
	char *end;

	if (s == NULL || *s < '0' || *s > '9') {
		return -1;
	}
	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno == 0 && (*end == ' ' || *end == '\0') ? 0 : -1;
}

static void parse_header(struct hil_cyclemodel_reader *r, const char *line)
{
	const char *art = field(line, "art");
	const char *api = field(line, "api");
	const char *profile = field(line, "profile");
	uint64_t ws = 0;

	if (strncmp(line, "# exit", 6) == 0) {
		r->info.exited = 1;
		return;
	}
	if (strncmp(line, "# hilrun-cyclemodel ", 20) != 0) {
		return; /* a comment */
	}
	memset(&r->info, 0, sizeof(r->info));
	r->info.loaded = 1;
	if (field_u64(line, "ws", &ws) == 0) {
		r->info.ws = (unsigned)ws;
	}
	r->info.art = art != NULL && strncmp(art, "on", 2) == 0;
	if (profile != NULL) {
		size_t k = strcspn(profile, " ");

		if (k >= sizeof(r->info.profile)) {
			k = sizeof(r->info.profile) - 1;
		}
		memcpy(r->info.profile, profile, k);
		r->info.profile[k] = '\0';
	}
	if (api != NULL) {
		sscanf(api, "%d-%d", &r->info.api_min, &r->info.api_cur);
	}
}

static int parse_record(const char *line, struct hil_cyclemodel_rec *rec)
{
	memset(rec, 0, sizeof(*rec));
	if (field_u64(line, "seq", &rec->seq) != 0 ||
	    field_u64(line, "cycles", &rec->cycles) != 0 ||
	    field_u64(line, "min", &rec->min) != 0 ||
	    field_u64(line, "max", &rec->max) != 0 ||
	    field_u64(line, "insns", &rec->insns) != 0 ||
	    field_u64(line, "div", &rec->divides) != 0 ||
	    field_u64(line, "flash", &rec->flash) != 0 ||
	    rec->min > rec->cycles || rec->cycles > rec->max) {
		return -1;
	}
	/* The memory system's counts come with the profiles: a record of an
	 * older plugin has none (0), a malformed one is refused. */
	if (field(line, "imiss") != NULL &&
	    (field_u64(line, "imiss", &rec->imiss) != 0 ||
	     field_u64(line, "dmiss", &rec->dmiss) != 0 ||
	     field_u64(line, "ilines", &rec->ilines) != 0 ||
	     field_u64(line, "dlines", &rec->dlines) != 0)) {
		return -1;
	}
	return 0;
}

/* Add one record to *recs (capacity *cap). */
static int push(struct hil_cyclemodel_rec **recs, size_t *n, size_t *cap,
		const struct hil_cyclemodel_rec *rec)
{
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 64;
		struct hil_cyclemodel_rec *p = realloc(*recs, c * sizeof(*p));

		if (p == NULL) {
			hil_err("no memory for %zu records", c);
			return HIL_ERR_NOMEM;
		}
		*recs = p;
		*cap = c;
	}
	(*recs)[(*n)++] = *rec;
	return HIL_OK;
}

int hil_cyclemodel_read(struct hil_cyclemodel_reader *r,
			struct hil_cyclemodel_rec **recs, size_t *n)
{
	char buf[CHUNK + MAX_LINE + 1];
	size_t have = 0, cap = 0;
	int fd, ret = HIL_OK;

	if (r == NULL || recs == NULL || n == NULL) {
		return HIL_ERR_ARG;
	}
	*recs = NULL;
	*n = 0;
	fd = open(r->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT) {
			return HIL_OK; /* nothing written yet */
		}
		hil_err("%s: %s", r->path, strerror(errno));
		return HIL_ERR_IO;
	}
	for (;;) {
		ssize_t got =
			pread(fd, buf + have, CHUNK, r->offset + (off_t)have);
		char *line, *nl;

		if (got < 0 && errno == EINTR) {
			continue;
		}
		if (got < 0) {
			hil_err("%s: %s", r->path, strerror(errno));
			ret = HIL_ERR_IO;
			break;
		}
		if (got == 0) {
			break; /* a partial last line stays for the next call */
		}
		have += (size_t)got;
		buf[have] = '\0';
		line = buf;
		while ((nl = memchr(line, '\n', have - (size_t)(line - buf))) !=
		       NULL) {
			struct hil_cyclemodel_rec rec;

			*nl = '\0';
			if (line[0] == '#') {
				parse_header(r, line);
			} else if (line[0] == 'B' &&
				   parse_record(line, &rec) == 0) {
				ret = push(recs, n, &cap, &rec);
			} else if (line[0] != '\0') {
				hil_err("%s: not a cycle-model record: \"%.80s\"",
					r->path, line);
				ret = HIL_ERR_PROTO;
			}
			r->offset += nl + 1 - line;
			line = nl + 1;
			if (ret != HIL_OK) {
				goto out;
			}
		}
		/* Keep the unfinished line at the start of buf. */
		have -= (size_t)(line - buf);
		if (have > MAX_LINE) {
			hil_err("%s: a line longer than %d bytes", r->path,
				MAX_LINE);
			ret = HIL_ERR_PROTO;
			break;
		}
		memmove(buf, line, have); /* offset counts whole lines only */
	}
out:
	close(fd);
	if (ret == HIL_ERR_NOMEM) {
		free(*recs);
		*recs = NULL;
		*n = 0;
	}
	return ret;
}
