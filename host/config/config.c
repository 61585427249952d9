/* config: loads a run configuration from JSON, resolves "extends", validates it and copies it out. */
#define _XOPEN_SOURCE  700
#define HIL_LOG_PREFIX "config"

#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "util/err.h"
#include "util/log.h"
#include "util/util.h"

/* A configuration is a few hundred bytes; anything this large is not one. */
#define MAX_FILE_BYTES (1024 * 1024)
/* The file itself plus HIL_CFG_MAX_EXTENDS_DEPTH bases. */
#define MAX_CHAIN      (HIL_CFG_MAX_EXTENDS_DEPTH + 1)
/* Room for a key or value quoted in a message. */
#define SHOW	       72
/* Room for a JSON path built from schema keys and indexes. */
#define PATH	       64

/* Which file of the chain an item of the merged tree was written in. */
struct origin {
	const cJSON *item;
	size_t file;
};

/*
 * State of one load. Items that merging replaces are parked in graveyard
 * rather than freed, so no address in origins is ever reused while we may
 * still look it up.
 */
struct loader {
	char *base_dir; /* folder of the top file, or parse()'s base_dir */
	char *err;
	size_t errlen;
	char *files[MAX_CHAIN]; /* display names; files[0] NULL for inline text */
	dev_t dev[MAX_CHAIN];
	ino_t ino[MAX_CHAIN];
	int has_id[MAX_CHAIN];
	struct origin *origins;
	size_t n_origins;
	size_t cap_origins;
	cJSON *graveyard;
	const struct hil_config_roots *roots; /* NULL: files anywhere */
};

/*
 * Whether path (which must exist) lies inside one of the loader's roots,
 * links resolved: an untrusted job's files may only come from there.
 * Always true without roots.
 */
static int within_roots(const struct loader *ld, const char *path)
{
	char real[PATH_MAX];
	size_t i;

	if (ld->roots == NULL || ld->roots->n == 0) {
		return 1;
	}
	if (realpath(path, real) == NULL) {
		return 0;
	}
	for (i = 0; i < ld->roots->n; i++) {
		char root[PATH_MAX];
		size_t n;

		if (realpath(ld->roots->dir[i], root) == NULL) {
			continue;
		}
		n = strlen(root);
		if (strncmp(real, root, n) == 0 &&
		    (real[n] == '/' || real[n] == '\0' ||
		     (n == 1 && root[0] == '/'))) {
			return 1;
		}
	}
	return 0;
}

/* "a, b or c": the roots, for a message. */
static void roots_text(const struct loader *ld, char *buf, size_t len)
{
	size_t i, o = 0;

	buf[0] = '\0';
	for (i = 0; ld->roots != NULL && i < ld->roots->n && o < len; i++) {
		int n = snprintf(buf + o, len - o, "%s%s",
				 i == 0			 ? ""
				 : i + 1 == ld->roots->n ? " or "
							 : ", ",
				 ld->roots->dir[i]);

		if (n < 0) {
			return;
		}
		o += (size_t)n;
	}
}

struct choice {
	const char *what;	  /* "a board" */
	const char *const *names; /* NULL-terminated */
	const char *expected;	  /* "qemu-netduino or nucleo-f401re" */
};

static const char *const board_names[] = {"qemu-netduino", "nucleo-f401re",
					  NULL};
static const char *const link_names[] = {"socket", "serial", NULL};
static const char *const flasher_names[] = {"qemu", "openocd", NULL};
static const char *const op_names[] = {"encrypt", "decrypt", "hash", NULL};
static const char *const sensor_names[] = {"none", "ina219", NULL};
static const uint32_t op_bits[] = {HIL_OPS_ENCRYPT, HIL_OPS_DECRYPT,
				   HIL_OPS_HASH};

static const struct choice board_choice = {"a board", board_names,
					   "qemu-netduino or nucleo-f401re"};
static const struct choice link_choice = {"a link", link_names,
					  "socket or serial"};
static const struct choice flasher_choice = {"a flasher", flasher_names,
					     "qemu or openocd"};
static const struct choice op_choice = {"an operation", op_names,
					"encrypt, decrypt or hash"};
static const struct choice sensor_choice = {"a sensor", sensor_names,
					    "none or ina219"};

/* The flasher each board is programmed with, index for index. */
static const char *const board_flasher[] = {"qemu", "openocd"};

static const char *const root_keys[] = {
	"extends",    "name",  "board",	 "link",	"flasher",     "build",
	"algorithms", "bench", "sensor", "cycle_model", "results_dir", NULL,
};
static const char *const cycle_model_keys[] = {
	"enabled",
	"wait_states",
	"art",
	NULL,
};
static const char *const board_keys[] = {
	"name",
	"clock_hz",
	"id",
	NULL,
};
static const char *const link_keys[] = {
	"type", "port", "baud", "timeout_ms", "retries", NULL,
};
static const char *const flasher_keys[] = {
	"type", "program", "openocd_config", "probe_serial", "timeout_ms", NULL,
};
static const char *const build_keys[] = {
	"cflags",
	NULL,
};
static const char *const alg_keys[] = {
	"name", "impl", "path", "kat", "unverified", "tree", "pattern", NULL,
};
static const char *const bench_keys[] = {
	"operations", "lengths",      "ad_lengths", "runs", "warmup",
	"seed",	      "normalize_to", "leak_runs",  NULL,
};
static const char *const sensor_keys[] = {
	"type",		 "bus",		"address", "shunt_ohm",
	"max_current_a", "bus_range_v", "pga_div", "adc_bits",
	"adc_samples",	 "conversions", "windows", NULL,
};

/* ---- messages ---------------------------------------------------------- */

/*
 * Copy s into buf for a message: quotes, backslashes and control characters
 * escaped, cut with "..." when it does not fit, so any input prints safely.
 */
static const char *show(char *buf, size_t size, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	size_t o = 0;
	unsigned char c;

	for (; *s != '\0'; s++) {
		c = (unsigned char)*s;
		if (o + 4 + 4 > size) { /* worst escape, then "..." and NUL */
			memcpy(buf + o, "...", 4);
			return buf;
		}
		if (c < 0x20 || c == 0x7f) {
			buf[o++] = '\\';
			buf[o++] = 'x';
			buf[o++] = hex[c >> 4];
			buf[o++] = hex[c & 0xf];
		} else {
			if (c == '"' || c == '\\') {
				buf[o++] = '\\';
			}
			buf[o++] = (char)c;
		}
	}
	buf[o] = '\0';
	return buf;
}

static void vwrite_err(struct loader *ld, const char *file, const char *fmt,
		       va_list ap)
{
	int n = 0;

	if (ld->err == NULL || ld->errlen == 0) {
		return;
	}
	ld->err[0] = '\0';
	if (file != NULL) {
		n = snprintf(ld->err, ld->errlen, "%s: ", file);
		if (n < 0 || (size_t)n >= ld->errlen) {
			return;
		}
	}
	vsnprintf(ld->err + n, ld->errlen - (size_t)n, fmt, ap);
}

/* Append to the message already written (for lists of files). */
static void append_err(struct loader *ld, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void append_err(struct loader *ld, const char *fmt, ...)
{
	va_list ap;
	size_t n;

	if (ld->err == NULL || ld->errlen == 0) {
		return;
	}
	n = strlen(ld->err);
	if (n + 1 >= ld->errlen) {
		return;
	}
	va_start(ap, fmt);
	vsnprintf(ld->err + n, ld->errlen - n, fmt, ap);
	va_end(ap);
}

/* Report an error about a file of the chain (or none); returns code. */
static int fail_file(struct loader *ld, int code, const char *file,
		     const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int fail_file(struct loader *ld, int code, const char *file,
		     const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwrite_err(ld, file, fmt, ap);
	va_end(ap);
	return code;
}

static const char *origin_of(const struct loader *ld, const cJSON *at)
{
	size_t i;

	if (at != NULL) {
		for (i = 0; i < ld->n_origins; i++) {
			if (ld->origins[i].item == at) {
				return ld->files[ld->origins[i].file];
			}
		}
	}
	return ld->files[0];
}

/*
 * Report an invalid value, prefixed with the file the value was written in
 * (which, with extends, need not be the file that was loaded).
 */
static int fail(struct loader *ld, const cJSON *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(struct loader *ld, const cJSON *at, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwrite_err(ld, origin_of(ld, at), fmt, ap);
	va_end(ap);
	return HIL_ERR_CONFIG;
}

/* ---- reading and parsing ---------------------------------------------- */

static void errno_text(int e, char *buf, size_t size)
{
	/* XSI strerror_r: the thread-safe one under _POSIX_C_SOURCE. */
	if (strerror_r(e, buf, size) != 0) {
		snprintf(buf, size, "error %d", e);
	}
}

/*
 * Read file `level` of the chain (ld->files[level]) into a NUL-terminated
 * malloc'd buffer, refusing a file that is already in the chain (a cycle).
 */
static int read_file(struct loader *ld, size_t level, char **out,
		     size_t *outlen)
{
	const char *path = ld->files[level];
	const char *via = level > 0 ? ld->files[level - 1] : NULL;
	char ebuf[128];
	struct stat st;
	FILE *f;
	char *buf = NULL;
	char *nbuf;
	size_t len = 0, cap = 0, got;
	size_t i;
	int e, ret;

	if (access(path, F_OK) == 0 && !within_roots(ld, path)) {
		char roots[512];

		roots_text(ld, roots, sizeof(roots));
		if (level > 0) {
			return fail_file(ld, HIL_ERR_CONFIG, via,
					 "extends: %s is outside %s", path,
					 roots);
		}
		return fail_file(ld, HIL_ERR_CONFIG, path, "outside %s", roots);
	}
	/* A regular file only (a FIFO or device would hang us), and never
	 * a huge one; nothing of a file that is refused is quoted. */
	{
		/* (the size is bounded while reading, below) */
		int fd = hil_open_regular(path, (size_t)-1, ebuf, sizeof(ebuf));

		f = fd >= 0 ? fdopen(fd, "rb") : NULL;
		if (f == NULL && fd >= 0) {
			close(fd);
			snprintf(ebuf, sizeof(ebuf), "out of memory");
		}
	}
	if (f == NULL) {
		if (via != NULL) {
			return fail_file(ld, HIL_ERR_IO, via,
					 "extends: cannot open %s: %s", path,
					 ebuf);
		}
		return fail_file(ld, HIL_ERR_IO, path, "cannot open: %s", ebuf);
	}
	e = 0;
	if (fstat(fileno(f), &st) != 0) {
		e = errno;
	} else if (S_ISDIR(st.st_mode)) {
		e = EISDIR;
	}
	if (e != 0) {
		errno_text(e, ebuf, sizeof(ebuf));
		ret = fail_file(ld, HIL_ERR_IO, path, "cannot read: %s", ebuf);
		goto out_close;
	}
	ld->dev[level] = st.st_dev;
	ld->ino[level] = st.st_ino;
	ld->has_id[level] = 1;
	for (i = 0; i < level; i++) {
		if (ld->has_id[i] && ld->dev[i] == st.st_dev &&
		    ld->ino[i] == st.st_ino) {
			ret = fail_file(ld, HIL_ERR_CONFIG, via,
					"extends: cycle: %s", ld->files[i]);
			for (i = i + 1; i <= level; i++) {
				append_err(ld, " -> %s", ld->files[i]);
			}
			goto out_close;
		}
	}

	/* Read to EOF rather than trusting st_size: pipes and /dev/fd work. */
	for (;;) {
		if (cap - len < 4096) {
			cap = cap == 0 ? 8192 : cap * 2;
			nbuf = realloc(buf, cap + 1);
			if (nbuf == NULL) {
				ret = fail_file(ld, HIL_ERR_NOMEM, path,
						"out of memory");
				goto out_free;
			}
			buf = nbuf;
		}
		got = fread(buf + len, 1, cap - len, f);
		len += got;
		if (len > MAX_FILE_BYTES) {
			ret = fail_file(
				ld, HIL_ERR_CONFIG, path,
				"larger than %d bytes: not a configuration",
				MAX_FILE_BYTES);
			goto out_free;
		}
		if (got == 0) {
			break;
		}
	}
	if (ferror(f)) {
		e = errno;
		errno_text(e, ebuf, sizeof(ebuf));
		ret = fail_file(ld, HIL_ERR_IO, path, "cannot read: %s", ebuf);
		goto out_free;
	}
	buf[len] = '\0';
	fclose(f);
	*out = buf;
	*outlen = len;
	return HIL_OK;

out_free:
	free(buf);
out_close:
	fclose(f);
	return ret;
}

static int record_origin(struct loader *ld, const cJSON *item, size_t file)
{
	struct origin *n;
	size_t cap;

	if (ld->n_origins == ld->cap_origins) {
		cap = ld->cap_origins == 0 ? 64 : ld->cap_origins * 2;
		n = realloc(ld->origins, cap * sizeof(*n));
		if (n == NULL) {
			return HIL_ERR_NOMEM;
		}
		ld->origins = n;
		ld->cap_origins = cap;
	}
	ld->origins[ld->n_origins].item = item;
	ld->origins[ld->n_origins].file = file;
	ld->n_origins++;
	return HIL_OK;
}

static int cmp_key(const void *a, const void *b)
{
	const cJSON *x = *(const cJSON *const *)a;
	const cJSON *y = *(const cJSON *const *)b;

	return strcmp(x->string, y->string);
}

/*
 * cJSON keeps both copies of a repeated key and a lookup finds the first, so
 * the second would be silently ignored: refuse it. Sorting keeps a crafted
 * object with thousands of keys cheap.
 */
static int check_duplicates(struct loader *ld, const cJSON *obj, size_t file)
{
	const cJSON **keys;
	const cJSON *c;
	char kb[SHOW];
	size_t n = 0, i;
	int ret = HIL_OK;

	for (c = obj->child; c != NULL; c = c->next) {
		n++;
	}
	if (n < 2) {
		return HIL_OK;
	}
	keys = malloc(n * sizeof(*keys));
	if (keys == NULL) {
		return fail_file(ld, HIL_ERR_NOMEM, ld->files[file],
				 "out of memory");
	}
	n = 0;
	for (c = obj->child; c != NULL; c = c->next) {
		keys[n++] = c;
	}
	qsort(keys, n, sizeof(*keys), cmp_key);
	for (i = 1; i < n; i++) {
		if (strcmp(keys[i - 1]->string, keys[i]->string) == 0) {
			ret = fail_file(
				ld, HIL_ERR_CONFIG, ld->files[file],
				"key \"%s\" appears twice in one object",
				show(kb, sizeof(kb), keys[i]->string));
			break;
		}
	}
	free(keys);
	return ret;
}

/* Record the file of every item and refuse repeated keys. */
static int scan(struct loader *ld, const cJSON *item, size_t file)
{
	const cJSON *c;
	int ret;

	ret = record_origin(ld, item, file);
	if (ret != HIL_OK) {
		return fail_file(ld, ret, ld->files[file], "out of memory");
	}
	if (cJSON_IsObject(item)) {
		ret = check_duplicates(ld, item, file);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	/* Depth is bounded by cJSON's CJSON_NESTING_LIMIT. */
	for (c = item->child; c != NULL; c = c->next) {
		ret = scan(ld, c, file);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	return HIL_OK;
}

/* Parse the NUL-terminated text of file `level`: a JSON object. */
static int parse_text(struct loader *ld, size_t level, const char *text,
		      size_t len, cJSON **out)
{
	const char *file = ld->files[level];
	const char *end = NULL;
	const char *nul;
	char excerpt[32], sb[SHOW];
	size_t off, start, line, col, i;
	cJSON *root;
	int ret;

	nul = memchr(text, '\0', len);
	if (nul != NULL) {
		hil_text_line_col(text, (size_t)(nul - text), &line, &col);
		return fail_file(ld, HIL_ERR_CONFIG, file,
				 "line %zu, column %zu: NUL byte in the text",
				 line, col);
	}
	/*
	 * The parse-end pointer is the thread-safe form of cJSON_GetErrorPtr():
	 * on failure it points where the parser stopped. The length includes
	 * the terminating NUL, which is how cJSON is told that nothing may
	 * follow the object.
	 */
	root = cJSON_ParseWithLengthOpts(text, len + 1, &end, 1);
	if (root == NULL) {
		off = 0;
		if (end != NULL && end >= text && end <= text + len) {
			off = (size_t)(end - text);
		}
		hil_text_line_col(text, off, &line, &col);
		/* Whole value, then more: say so rather than show an excerpt. */
		root = cJSON_ParseWithLengthOpts(text, len + 1, NULL, 0);
		if (root != NULL) {
			cJSON_Delete(root);
			return fail_file(
				ld, HIL_ERR_CONFIG, file,
				"line %zu, column %zu: text after the end of the JSON value",
				line, col);
		}
		if (text[off + strspn(text + off, " \t\r\n")] == '\0') {
			return fail_file(
				ld, HIL_ERR_CONFIG, file,
				"line %zu, column %zu: invalid JSON (unexpected end of input)",
				line, col);
		}
		/*
		 * A file that does not even start like a configuration ("{")
		 * is not one: none of it is quoted (it may be a secret that a
		 * job named to read it through the error message).
		 */
		if (text[strspn(text, " \t\r\n")] != '{') {
			return fail_file(
				ld, HIL_ERR_CONFIG, file,
				"line %zu, column %zu: not JSON (a configuration starts with \"{\")",
				line, col);
		}
		/*
		 * cJSON stops on or just after the culprit (",," stops after
		 * the second comma), so the excerpt starts a little before.
		 */
		start = off - (col - 1 < 8 ? col - 1 : 8);
		for (i = 0; i + 1 < sizeof(excerpt) && start + i < len &&
			    text[start + i] != '\n' && text[start + i] != '\r';
		     i++) {
			excerpt[i] = text[start + i];
		}
		excerpt[i] = '\0';
		return fail_file(
			ld, HIL_ERR_CONFIG, file,
			"line %zu, column %zu: invalid JSON near \"%s\"", line,
			col, show(sb, sizeof(sb), excerpt));
	}
	if (!cJSON_IsObject(root)) {
		cJSON_Delete(root);
		return fail_file(
			ld, HIL_ERR_CONFIG, file,
			"expected a JSON object ({ ... }) at the top level");
	}
	ret = scan(ld, root, level);
	if (ret != HIL_OK) {
		cJSON_Delete(root);
		return ret;
	}
	*out = root;
	return HIL_OK;
}

/* ---- extends ----------------------------------------------------------- */

/* Case-sensitive member lookup (cJSON_GetObjectItem ignores case). */
static cJSON *member(const cJSON *obj, const char *key)
{
	cJSON *c;

	if (!cJSON_IsObject(obj)) {
		return NULL;
	}
	for (c = obj->child; c != NULL; c = c->next) {
		if (c->string != NULL && strcmp(c->string, key) == 0) {
			return c;
		}
	}
	return NULL;
}

static void bury(struct loader *ld, cJSON *parent, cJSON *item)
{
	cJSON_DetachItemViaPointer(parent, item);
	cJSON_AddItemToArray(ld->graveyard, item);
}

/* Directory part of path ("" for none, "/" for the root). */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t n;
	char *d;

	n = slash == NULL ? 0 : (slash == path ? 1 : (size_t)(slash - path));
	d = malloc(n + 1);
	if (d != NULL) {
		memcpy(d, path, n);
		d[n] = '\0';
	}
	return d;
}

static char *join(const char *dir, const char *name)
{
	size_t dn = strlen(dir), nn = strlen(name);
	int sep = dn > 0 && dir[dn - 1] != '/';
	char *p;

	if (name[0] == '/' || dn == 0) {
		dn = 0;
		sep = 0;
	}
	p = malloc(dn + (size_t)sep + nn + 1);
	if (p != NULL) {
		memcpy(p, dir, dn);
		if (sep) {
			p[dn] = '/';
		}
		memcpy(p + dn + (size_t)sep, name, nn + 1);
	}
	return p;
}

/*
 * Move the keys of over into base: objects present in both are merged key by
 * key, anything else (scalars, arrays, type changes) replaces the base value.
 */
static void merge(struct loader *ld, cJSON *base, cJSON *over)
{
	cJSON *c = over->child;
	cJSON *next, *b;

	while (c != NULL) {
		next = c->next;
		b = member(base, c->string);
		if (cJSON_IsObject(b) && cJSON_IsObject(c)) {
			merge(ld, b, c);
		} else {
			cJSON_DetachItemViaPointer(over, c);
			if (b != NULL) {
				bury(ld, base, b);
			}
			cJSON_AddItemToArray(base, c);
		}
		c = next;
	}
}

/*
 * Resolve the "extends" of root (file `level`, whose directory is dir) and
 * return the merged tree in *out. Takes ownership of root.
 */
static int resolve(struct loader *ld, size_t level, cJSON *root,
		   const char *dir, cJSON **out)
{
	cJSON *ext = member(root, "extends");
	cJSON *base = NULL;
	cJSON *name;
	char *text = NULL;
	char *base_dir = NULL;
	size_t len = 0;
	int ret;

	if (ext == NULL) {
		*out = root;
		return HIL_OK;
	}
	if (!cJSON_IsString(ext) || ext->valuestring[0] == '\0') {
		ret = fail(ld, ext, "extends: expected a file name");
		goto out_root;
	}
	{
		const unsigned char *c =
			(const unsigned char *)ext->valuestring;

		/* The name is echoed in messages: no control characters. */
		for (; *c != '\0'; c++) {
			if (*c < 0x20 || *c == 0x7f) {
				ret = fail(
					ld, ext,
					"extends: contains a control character");
				goto out_root;
			}
		}
	}
	if (level + 1 >= MAX_CHAIN) {
		ret = fail(ld, ext, "extends: more than %d levels of extends",
			   HIL_CFG_MAX_EXTENDS_DEPTH);
		goto out_root;
	}
	ld->files[level + 1] = join(dir, ext->valuestring);
	if (ld->files[level + 1] == NULL) {
		ret = fail(ld, ext, "out of memory");
		goto out_root;
	}
	hil_dbg("%s extends %s", ld->files[level] ? ld->files[level] : "text",
		ld->files[level + 1]);

	ret = read_file(ld, level + 1, &text, &len);
	if (ret != HIL_OK) {
		goto out_root;
	}
	ret = parse_text(ld, level + 1, text, len, &base);
	free(text);
	if (ret != HIL_OK) {
		goto out_root;
	}
	base_dir = dir_of(ld->files[level + 1]);
	if (base_dir == NULL) {
		ret = fail(ld, ext, "out of memory");
		cJSON_Delete(base);
		goto out_root;
	}
	ret = resolve(ld, level + 1, base, base_dir, &base);
	free(base_dir);
	if (ret != HIL_OK) {
		goto out_root;
	}

	/* A file names itself: a base's "name" would give every config that
	 * extends it the same name, hence the same results directory. */
	name = member(base, "name");
	if (name != NULL) {
		bury(ld, base, name);
	}
	bury(ld, root, ext);
	merge(ld, base, root);
	cJSON_AddItemToArray(ld->graveyard, root);
	*out = base;
	return HIL_OK;

out_root:
	cJSON_Delete(root);
	return ret;
}

/* ---- validation helpers ------------------------------------------------ */

/* Refuse keys the schema does not have, suggesting a near miss. */
static int check_keys(struct loader *ld, const cJSON *obj, const char *path,
		      const char *const *allowed)
{
	const cJSON *c;
	const char *near;
	char kb[SHOW];
	size_t i, d, best;

	for (c = obj->child; c != NULL; c = c->next) {
		near = NULL;
		best = 3;
		for (i = 0; allowed[i] != NULL; i++) {
			if (strcmp(c->string, allowed[i]) == 0) {
				break;
			}
			d = hil_edit_distance(c->string, allowed[i]);
			if (d < best && 3 * d <= strlen(allowed[i])) {
				best = d;
				near = allowed[i];
			}
		}
		if (allowed[i] != NULL) {
			continue;
		}
		show(kb, sizeof(kb), c->string);
		if (near != NULL) {
			return fail(
				ld, c,
				"%s%s%s: unknown key (did you mean \"%s\"?)",
				path, path[0] ? "." : "", kb, near);
		}
		return fail(ld, c, "%s%s%s: unknown key", path,
			    path[0] ? "." : "", kb);
	}
	return HIL_OK;
}

/* Member key of a section that must be an object; *out NULL if absent. */
static int section(struct loader *ld, const cJSON *root, const char *key,
		   const char *const *allowed, const cJSON **out)
{
	const cJSON *s = member(root, key);

	*out = NULL;
	if (s == NULL) {
		return HIL_OK;
	}
	if (!cJSON_IsObject(s)) {
		return fail(ld, s, "%s: expected an object", key);
	}
	*out = s;
	return check_keys(ld, s, key, allowed);
}

static int get_u32(struct loader *ld, const cJSON *it, const char *path,
		   uint32_t min, uint32_t max, uint32_t *out)
{
	double d;

	if (!cJSON_IsNumber(it)) {
		goto bad;
	}
	d = it->valuedouble;
	/* Written this way round so NaN and infinities fail too. */
	if (!(d >= (double)min && d <= (double)max)) {
		goto bad;
	}
	if (d != (double)(uint32_t)d) {
		goto bad;
	}
	*out = (uint32_t)d;
	return HIL_OK;
bad:
	return fail(ld, it, "%s: expected an integer from %lu to %lu", path,
		    (unsigned long)min, (unsigned long)max);
}

/* A string that fits buf, with no control characters. */
static int get_str(struct loader *ld, const cJSON *it, const char *path,
		   char *buf, size_t size, int may_be_empty)
{
	const char *s;
	size_t n = 0, i;

	if (!cJSON_IsString(it)) {
		return fail(ld, it, "%s: expected a string", path);
	}
	s = it->valuestring;
	n = strlen(s);
	if (n >= size) {
		return fail(ld, it, "%s: too long (%zu bytes, at most %zu)",
			    path, n, size - 1);
	}
	if (n == 0 && !may_be_empty) {
		return fail(ld, it, "%s: must not be empty", path);
	}
	for (i = 0; i < n; i++) {
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f) {
			return fail(ld, it, "%s: contains a control character",
				    path);
		}
	}
	memcpy(buf, s, n + 1);
	return HIL_OK;
}

/*
 * A path that must exist (a folder when want_dir): relative ones are taken
 * from the folder of the file that wrote them, as "extends" is.
 */
static int get_path(struct loader *ld, const cJSON *it, const char *path,
		    char *buf, size_t size, int want_dir)
{
	const char *file = origin_of(ld, it);
	char *dir = NULL;
	char *full = NULL;
	struct stat st;
	int ret;

	ret = get_str(ld, it, path, buf, size, 0);
	if (ret != HIL_OK) {
		return ret;
	}
	dir = file != NULL ? dir_of(file)
			   : strdup(ld->base_dir ? ld->base_dir : "");
	full = dir != NULL ? join(dir, buf) : NULL;
	free(dir);
	if (full == NULL) {
		return fail(ld, it, "%s: out of memory", path);
	}
	if (strlen(full) >= size) {
		free(full);
		return fail(ld, it, "%s: too long once resolved", path);
	}
	snprintf(buf, size, "%s", full);
	free(full);
	if (stat(buf, &st) != 0) {
		return fail(ld, it, "%s: %s: %s", path, buf, strerror(errno));
	}
	if (!within_roots(ld, buf)) {
		char roots[512];

		roots_text(ld, roots, sizeof(roots));
		return fail(ld, it, "%s: %s is outside %s", path, buf, roots);
	}
	if (want_dir && !S_ISDIR(st.st_mode)) {
		return fail(ld, it, "%s: %s is not a folder", path, buf);
	}
	if (!want_dir && !S_ISREG(st.st_mode)) {
		return fail(ld, it, "%s: %s is not a file", path, buf);
	}
	return HIL_OK;
}

static int find_choice(const struct choice *ch, const char *s)
{
	int i;

	for (i = 0; ch->names[i] != NULL; i++) {
		if (strcmp(ch->names[i], s) == 0) {
			return i;
		}
	}
	return -1;
}

/* One of a fixed set of names; *index receives its position. */
static int get_choice(struct loader *ld, const cJSON *it, const char *path,
		      const struct choice *ch, char *buf, size_t size,
		      int *index)
{
	char sb[SHOW];
	int i;

	if (!cJSON_IsString(it)) {
		return fail(ld, it, "%s: expected one of %s", path,
			    ch->expected);
	}
	i = find_choice(ch, it->valuestring);
	if (i < 0) {
		return fail(ld, it, "%s: \"%s\" is not %s (expected %s)", path,
			    show(sb, sizeof(sb), it->valuestring), ch->what,
			    ch->expected);
	}
	if (buf != NULL) {
		snprintf(buf, size, "%s", ch->names[i]);
	}
	if (index != NULL) {
		*index = i;
	}
	return HIL_OK;
}

static int get_array(struct loader *ld, const cJSON *it, const char *path,
		     size_t min, size_t max, size_t *n)
{
	int count;

	if (!cJSON_IsArray(it)) {
		return fail(ld, it, "%s: expected an array", path);
	}
	count = cJSON_GetArraySize(it);
	if (count < 0 || (size_t)count < min || (size_t)count > max) {
		return fail(ld, it, "%s: expected %zu to %zu entries, got %d",
			    path, min, max, count);
	}
	*n = (size_t)count;
	return HIL_OK;
}

static int get_flag(struct loader *ld, const cJSON *it, const char *path,
		    int *out);

/* Names that end up in directory names and make variables. */
static int is_name(const char *s)
{
	const char *p;

	if (s[0] == '\0' || s[0] == '.' || s[0] == '-') {
		return 0;
	}
	for (p = s; *p != '\0'; p++) {
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || strchr("._+-", *p) != NULL)) {
			return 0;
		}
	}
	return 1;
}

static int get_name(struct loader *ld, const cJSON *it, const char *path,
		    char *buf, size_t size)
{
	char sb[SHOW];
	int ret;

	ret = get_str(ld, it, path, buf, size, 0);
	if (ret != HIL_OK) {
		return ret;
	}
	if (!is_name(buf)) {
		return fail(
			ld, it,
			"%s: \"%s\" is not a name (letters, digits and . _ + -, not starting with . or -)",
			path, show(sb, sizeof(sb), buf));
	}
	return HIL_OK;
}

/* An integer list without repeats, e.g. bench.lengths. */
/*
 * A grid of lengths, {"from": A, "to": B, "step": S}: A, A+S, ... up to B
 * (B itself when it falls on the grid), as SUPERCOP and the NIST LWC
 * measurements sweep message lengths.
 */
static int get_u32_range(struct loader *ld, const cJSON *it, const char *path,
			 size_t max_n, uint32_t max_v, uint32_t *vals,
			 size_t *n_out)
{
	static const char *const keys[] = {"from", "to", "step", NULL};
	uint32_t from = 0, to = 0, step = 1, v;
	char p[PATH];
	size_t n = 0;
	int ret;

	ret = check_keys(ld, it, path, keys);
	if (ret != HIL_OK) {
		return ret;
	}
	if (member(it, "from") == NULL || member(it, "to") == NULL) {
		return fail(
			ld, it,
			"%s: a range needs \"from\" and \"to\" (and optionally \"step\")",
			path);
	}
	snprintf(p, sizeof(p), "%s.from", path);
	ret = get_u32(ld, member(it, "from"), p, 0, max_v, &from);
	if (ret == HIL_OK) {
		snprintf(p, sizeof(p), "%s.to", path);
		ret = get_u32(ld, member(it, "to"), p, from, max_v, &to);
	}
	if (ret == HIL_OK && member(it, "step") != NULL) {
		snprintf(p, sizeof(p), "%s.step", path);
		ret = get_u32(ld, member(it, "step"), p, 1, max_v, &step);
	}
	if (ret != HIL_OK) {
		return ret;
	}
	if ((to - from) / step + 1 > max_n) {
		return fail(
			ld, it,
			"%s: from %lu to %lu in steps of %lu is %lu lengths, at most %zu",
			path, (unsigned long)from, (unsigned long)to,
			(unsigned long)step,
			(unsigned long)((to - from) / step + 1), max_n);
	}
	for (v = from; v <= to && n < max_n; v += step) {
		vals[n++] = v;
		if (to - v < step) {
			break;
		}
	}
	*n_out = n;
	return HIL_OK;
}

static int get_u32_list(struct loader *ld, const cJSON *it, const char *path,
			size_t max_n, uint32_t max_v, uint32_t *vals,
			size_t *n_out)
{
	const cJSON *c;
	char p[PATH];
	size_t n = 0, i, j;
	int ret;

	if (cJSON_IsObject(it)) {
		return get_u32_range(ld, it, path, max_n, max_v, vals, n_out);
	}
	ret = get_array(ld, it, path, 1, max_n, &n);
	if (ret != HIL_OK) {
		return ret;
	}
	i = 0;
	cJSON_ArrayForEach(c, it)
	{
		snprintf(p, sizeof(p), "%s[%zu]", path, i);
		ret = get_u32(ld, c, p, 0, max_v, &vals[i]);
		if (ret != HIL_OK) {
			return ret;
		}
		for (j = 0; j < i; j++) {
			if (vals[j] == vals[i]) {
				return fail(
					ld, c,
					"%s: %lu is repeated (also at [%zu])",
					p, (unsigned long)vals[i], j);
			}
		}
		i++;
	}
	*n_out = n;
	return HIL_OK;
}

/* ---- the schema -------------------------------------------------------- */

static int v_board(struct loader *ld, const cJSON *root, struct hil_config *cfg)
{
	const cJSON *s, *it;
	uint32_t hz = 0;
	int ret;

	ret = section(ld, root, "board", board_keys, &s);
	if (ret != HIL_OK || s == NULL) {
		return ret;
	}
	it = member(s, "name");
	if (it != NULL) {
		ret = get_choice(ld, it, "board.name", &board_choice,
				 cfg->board.name, sizeof(cfg->board.name),
				 NULL);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	it = member(s, "clock_hz");
	if (it != NULL) {
		if (get_u32(ld, it, "board.clock_hz", 1, UINT32_MAX, &hz) !=
			    HIL_OK ||
		    (hz != 84000000 && hz != 24000000 && hz != 16000000)) {
			return fail(
				ld, it,
				"board.clock_hz: expected 84000000, 24000000 or 16000000");
		}
		cfg->board.clock_hz = hz;
	}
	it = member(s, "id");
	if (it != NULL) {
		ret = get_str(ld, it, "board.id", cfg->board.id,
			      sizeof(cfg->board.id), 1);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	return HIL_OK;
}

static int v_link(struct loader *ld, const cJSON *root, struct hil_config *cfg)
{
	const cJSON *s, *it;
	int ret;

	ret = section(ld, root, "link", link_keys, &s);
	if (ret != HIL_OK || s == NULL) {
		return ret;
	}
	it = member(s, "type");
	if (it != NULL) {
		ret = get_choice(ld, it, "link.type", &link_choice,
				 cfg->link.type, sizeof(cfg->link.type), NULL);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	it = member(s, "port");
	if (it != NULL) {
		ret = get_str(ld, it, "link.port", cfg->link.port,
			      sizeof(cfg->link.port), 1);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	it = member(s, "baud");
	if (it != NULL) {
		ret = get_u32(ld, it, "link.baud", 1200, 4000000,
			      &cfg->link.baud);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	it = member(s, "timeout_ms");
	if (it != NULL) {
		ret = get_u32(ld, it, "link.timeout_ms", 1, 600000,
			      &cfg->link.timeout_ms);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	it = member(s, "retries");
	if (it != NULL) {
		ret = get_u32(ld, it, "link.retries", 0, 100,
			      &cfg->link.retries);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	return HIL_OK;
}

/*
 * The probe serial is spliced into an OpenOCD Tcl command ("adapter serial
 * SN"), so anything Tcl would interpret is refused.
 */
static int check_probe_serial(struct loader *ld, const cJSON *it, const char *s)
{
	const char *bad = strpbrk(s, " []{}$;\"\\");

	if (bad != NULL) {
		return fail(
			ld, it,
			"flasher.probe_serial: contains \"%c\", which a probe serial cannot contain",
			*bad);
	}
	return HIL_OK;
}

static int v_flasher(struct loader *ld, const cJSON *root,
		     struct hil_config *cfg)
{
	const cJSON *s, *it, *c;
	char p[PATH];
	size_t n = 0, i;
	int ret;

	ret = section(ld, root, "flasher", flasher_keys, &s);
	if (ret != HIL_OK || s == NULL) {
		return ret;
	}
	it = member(s, "type");
	if (it != NULL) {
		ret = get_choice(ld, it, "flasher.type", &flasher_choice,
				 cfg->flasher.type, sizeof(cfg->flasher.type),
				 NULL);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	it = member(s, "program");
	if (it != NULL) {
		ret = get_str(ld, it, "flasher.program", cfg->flasher.program,
			      sizeof(cfg->flasher.program), 0);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	it = member(s, "openocd_config");
	if (it != NULL) {
		ret = get_array(ld, it, "flasher.openocd_config", 1,
				HIL_CFG_MAX_OPENOCD_CFG, &n);
		if (ret != HIL_OK) {
			return ret;
		}
		i = 0;
		cJSON_ArrayForEach(c, it)
		{
			snprintf(p, sizeof(p), "flasher.openocd_config[%zu]",
				 i);
			ret = get_str(ld, c, p, cfg->flasher.openocd_cfg[i],
				      sizeof(cfg->flasher.openocd_cfg[i]), 0);
			if (ret != HIL_OK) {
				return ret;
			}
			i++;
		}
		cfg->flasher.n_openocd_cfg = n;
	}
	it = member(s, "probe_serial");
	if (it != NULL) {
		ret = get_str(ld, it, "flasher.probe_serial",
			      cfg->flasher.probe_serial,
			      sizeof(cfg->flasher.probe_serial), 1);
		if (ret != HIL_OK) {
			return ret;
		}
		ret = check_probe_serial(ld, it, cfg->flasher.probe_serial);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	it = member(s, "timeout_ms");
	if (it != NULL) {
		ret = get_u32(ld, it, "flasher.timeout_ms", 1, 600000,
			      &cfg->flasher.timeout_ms);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	return HIL_OK;
}

/*
 * Flags reach the compiler through make and a shell, so a flag must be one
 * word and must not be able to start another command.
 */
static int check_flag(struct loader *ld, const cJSON *it, const char *path,
		      const char *flag)
{
	char sb[SHOW];
	const char *bad;

	show(sb, sizeof(sb), flag);
	if (flag[0] != '-' || flag[1] == '\0') {
		return fail(
			ld, it,
			"%s: \"%s\" is not a compiler flag (expected \"-\" and a name)",
			path, sb);
	}
	if (strchr(flag, ' ') != NULL) {
		return fail(
			ld, it,
			"%s: \"%s\" contains a space (give each flag as its own string)",
			path, sb);
	}
	/* Only characters a flag needs: the flags end up in a make recipe,
	 * so a shell or make would see anything else. */
	bad = flag + strspn(flag, "abcdefghijklmnopqrstuvwxyz"
				  "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
				  "-_=+,.:/");
	if (*bad != '\0') {
		return fail(
			ld, it,
			"%s: \"%s\" contains \"%c\", which a compiler flag does not need",
			path, sb, *bad);
	}
	return HIL_OK;
}

static int v_build(struct loader *ld, const cJSON *root, struct hil_config *cfg)
{
	const cJSON *s, *it, *c;
	char p[PATH];
	size_t n = 0, i;
	int ret;

	ret = section(ld, root, "build", build_keys, &s);
	if (ret != HIL_OK || s == NULL) {
		return ret;
	}
	it = member(s, "cflags");
	if (it == NULL) {
		return HIL_OK;
	}
	ret = get_array(ld, it, "build.cflags", 0, HIL_CFG_MAX_FLAGS, &n);
	if (ret != HIL_OK) {
		return ret;
	}
	i = 0;
	cJSON_ArrayForEach(c, it)
	{
		snprintf(p, sizeof(p), "build.cflags[%zu]", i);
		ret = get_str(ld, c, p, cfg->build.cflags[i],
			      sizeof(cfg->build.cflags[i]), 0);
		if (ret != HIL_OK) {
			return ret;
		}
		ret = check_flag(ld, c, p, cfg->build.cflags[i]);
		if (ret != HIL_OK) {
			return ret;
		}
		i++;
	}
	cfg->build.n_cflags = n;
	return HIL_OK;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The sorted names of the sub-folders of dir (not hidden); caller frees
 * each and the array. @return how many, or -1 (errno). */
static int sub_folders(const char *dir, char ***out)
{
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	DIR *d = opendir(dir);

	*out = NULL;
	if (d == NULL) {
		return -1;
	}
	while ((e = readdir(d)) != NULL) {
		char path[PATH_MAX];
		struct stat st;

		if (e->d_name[0] == '.' ||
		    snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >=
			    (int)sizeof(path) ||
		    stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
			continue;
		}
		if (n == cap) {
			char **nn = realloc(names, (cap + 32) * sizeof(*nn));

			if (nn == NULL) {
				break;
			}
			names = nn;
			cap += 32;
		}
		names[n] = strdup(e->d_name);
		if (names[n] != NULL) {
			n++;
		}
	}
	closedir(d);
	if (n > 0) {
		qsort(names, n, sizeof(*names), cmp_str);
	}
	*out = names;
	return (int)n;
}

static void free_names(char **names, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		free(names[i]);
	}
	free(names);
}

/* A folder name as an algorithm or implementation name: characters a name
 * may not have become '_'. @return 0 when nothing usable is left. */
static int name_of_folder(const char *folder, char *buf, size_t len)
{
	size_t i;

	snprintf(buf, len, "%s", folder);
	for (i = 0; buf[i] != '\0'; i++) {
		if (!((buf[i] >= 'a' && buf[i] <= 'z') ||
		      (buf[i] >= 'A' && buf[i] <= 'Z') ||
		      (buf[i] >= '0' && buf[i] <= '9') ||
		      strchr("._+-", buf[i]) != NULL)) {
			buf[i] = '_';
		}
	}
	return is_name(buf);
}

/*
 * {"tree": DIR, "pattern": GLOB}: every DIR/<algorithm>/<implementation>/
 * holding an api.h (the SUPERCOP and NIST LWC layout, e.g. a crypto_aead/
 * folder), whose "<algorithm>/<implementation>" matches GLOB (fnmatch;
 * default all), as algorithms[*k..] with their folder as path, in name
 * order. Their names are the folders' (other characters become '_').
 */
static int expand_tree(struct loader *ld, const cJSON *c, size_t entry,
		       struct hil_config *cfg, size_t *k)
{
	char q[PATH], dir[HIL_CFG_STR], pattern[HIL_CFG_STR] = "*";
	const cJSON *f;
	char **algs = NULL;
	int n_algs, i, found = 0;
	int ret;

	if (member(c, "name") != NULL || member(c, "impl") != NULL ||
	    member(c, "path") != NULL || member(c, "kat") != NULL) {
		snprintf(q, sizeof(q), "algorithms[%zu]", entry);
		return fail(
			ld, c,
			"%s: a tree takes only \"pattern\" and \"unverified\" beside it (each folder is an implementation of its own, named after its folders)",
			q);
	}
	snprintf(q, sizeof(q), "algorithms[%zu].tree", entry);
	ret = get_path(ld, member(c, "tree"), q, dir, sizeof(dir), 1);
	if (ret != HIL_OK) {
		return ret;
	}
	f = member(c, "pattern");
	if (f != NULL) {
		snprintf(q, sizeof(q), "algorithms[%zu].pattern", entry);
		ret = get_str(ld, f, q, pattern, sizeof(pattern), 0);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	n_algs = sub_folders(dir, &algs);
	for (i = 0; i < n_algs; i++) {
		char adir[PATH_MAX];
		char **impls = NULL;
		int n_impls, j;

		snprintf(adir, sizeof(adir), "%s/%s", dir, algs[i]);
		n_impls = sub_folders(adir, &impls);
		for (j = 0; j < n_impls; j++) {
			char idir[PATH_MAX], api[PATH_MAX + 8], rel[PATH_MAX];
			struct hil_config_alg *a;

			snprintf(idir, sizeof(idir), "%s/%s", adir, impls[j]);
			snprintf(api, sizeof(api), "%s/api.h", idir);
			snprintf(rel, sizeof(rel), "%s/%s", algs[i], impls[j]);
			if (access(api, R_OK) != 0 ||
			    fnmatch(pattern, rel, 0) != 0) {
				continue;
			}
			if (*k >= HIL_CFG_MAX_ALGS) {
				free_names(impls, n_impls);
				free_names(algs, n_algs);
				snprintf(q, sizeof(q), "algorithms[%zu].tree",
					 entry);
				return fail(
					ld, c,
					"%s: more than %d implementations in all (narrow it with \"pattern\", or split the run)",
					q, HIL_CFG_MAX_ALGS);
			}
			a = &cfg->algs[*k];
			memset(a, 0, sizeof(*a));
			if (!name_of_folder(algs[i], a->name,
					    sizeof(a->name)) ||
			    !name_of_folder(impls[j], a->impl,
					    sizeof(a->impl)) ||
			    strlen(idir) >= sizeof(a->path)) {
				continue;
			}
			snprintf(a->path, sizeof(a->path), "%s", idir);
			a->entry = (unsigned)entry;
			f = member(c, "unverified");
			if (f != NULL) {
				snprintf(q, sizeof(q),
					 "algorithms[%zu].unverified", entry);
				ret = get_flag(ld, f, q, &a->unverified);
				if (ret != HIL_OK) {
					free_names(impls, n_impls);
					free_names(algs, n_algs);
					return ret;
				}
			}
			(*k)++;
			found++;
		}
		free_names(impls, n_impls);
	}
	free_names(algs, n_algs);
	if (found == 0) {
		snprintf(q, sizeof(q), "algorithms[%zu].tree", entry);
		return fail(
			ld, c,
			"%s: no <algorithm>/<implementation>/api.h under %s%s%s",
			q, dir,
			f != NULL || strcmp(pattern, "*") ? " matching " : "",
			strcmp(pattern, "*") ? pattern : "");
	}
	return HIL_OK;
}

static int v_algorithms(struct loader *ld, const cJSON *root,
			struct hil_config *cfg)
{
	const cJSON *it = member(root, "algorithms");
	const cJSON *c, *f;
	struct hil_config_alg *a;
	char p[PATH] = "algorithms", q[PATH];
	size_t n = 0, i, j, k = 0;
	int ret;

	if (it == NULL) {
		return fail(ld, NULL,
			    "algorithms: at least one algorithm is required");
	}
	ret = get_array(ld, it, "algorithms", 1, HIL_CFG_MAX_ALGS, &n);
	if (ret != HIL_OK) {
		return ret;
	}
	i = 0;
	cJSON_ArrayForEach(c, it)
	{
		if (cJSON_IsObject(c) && member(c, "tree") != NULL) {
			size_t before = k;

			ret = check_keys(ld, c, p, alg_keys);
			if (ret == HIL_OK) {
				ret = expand_tree(ld, c, i, cfg, &k);
			}
			if (ret != HIL_OK) {
				return ret;
			}
			for (; before < k; before++) {
				for (j = 0; j < before; j++) {
					if (strcmp(cfg->algs[j].name,
						   cfg->algs[before].name) ==
						    0 &&
					    strcmp(cfg->algs[j].impl,
						   cfg->algs[before].impl) ==
						    0) {
						return fail(
							ld, c,
							"algorithms[%zu].tree: %s/%s is also at algorithms[%u] (implementation names must differ)",
							i,
							cfg->algs[before].name,
							cfg->algs[before].impl,
							cfg->algs[j].entry);
					}
				}
			}
			i++;
			continue;
		}
		if (k >= HIL_CFG_MAX_ALGS) {
			return fail(
				ld, c,
				"algorithms[%zu]: more than %d implementations in all",
				i, HIL_CFG_MAX_ALGS);
		}
		a = &cfg->algs[k];
		memset(a, 0, sizeof(*a));
		a->entry = (unsigned)i;
		snprintf(p, sizeof(p), "algorithms[%zu]", i);
		snprintf(a->impl, sizeof(a->impl), "ref");
		if (cJSON_IsString(c)) {
			ret = get_name(ld, c, p, a->name, sizeof(a->name));
		} else if (cJSON_IsObject(c)) {
			ret = check_keys(ld, c, p, alg_keys);
			if (ret != HIL_OK) {
				return ret;
			}
			f = member(c, "name");
			snprintf(q, sizeof(q), "algorithms[%zu].name", i);
			if (f == NULL) {
				return fail(ld, c, "%s: required", q);
			}
			ret = get_name(ld, f, q, a->name, sizeof(a->name));
			if (ret != HIL_OK) {
				return ret;
			}
			f = member(c, "impl");
			snprintf(q, sizeof(q), "algorithms[%zu].impl", i);
			if (f != NULL) {
				ret = get_name(ld, f, q, a->impl,
					       sizeof(a->impl));
			}
			f = member(c, "path");
			snprintf(q, sizeof(q), "algorithms[%zu].path", i);
			if (ret == HIL_OK && f != NULL) {
				ret = get_path(ld, f, q, a->path,
					       sizeof(a->path), 1);
			}
			f = member(c, "kat");
			snprintf(q, sizeof(q), "algorithms[%zu].kat", i);
			if (ret == HIL_OK && f != NULL) {
				ret = get_path(ld, f, q, a->kat, sizeof(a->kat),
					       0);
			}
			f = member(c, "unverified");
			snprintf(q, sizeof(q), "algorithms[%zu].unverified", i);
			if (ret == HIL_OK && f != NULL) {
				ret = get_flag(ld, f, q, &a->unverified);
			}
			if (ret == HIL_OK && a->unverified &&
			    a->path[0] == '\0') {
				ret = fail(
					ld, f,
					"%s: only a folder of your own (path) can be measured unverified",
					q);
			}
			if (ret == HIL_OK && a->path[0] != '\0' &&
			    member(c, "impl") == NULL) {
				ret = fail(
					ld, c,
					"%s: an external implementation (path) needs an \"impl\" name of its own",
					p);
			}
		} else {
			ret = fail(
				ld, c,
				"%s: expected an algorithm name or {\"name\": ..., \"impl\": ...}",
				p);
		}
		if (ret != HIL_OK) {
			return ret;
		}
		for (j = 0; j < k; j++) {
			if (strcmp(cfg->algs[j].name, a->name) == 0 &&
			    strcmp(cfg->algs[j].impl, a->impl) == 0) {
				return fail(
					ld, c,
					"%s: %s (impl %s) is repeated (also at [%u])",
					p, a->name, a->impl,
					cfg->algs[j].entry);
			}
		}
		i++;
		k++;
	}
	cfg->n_algs = k;
	return HIL_OK;
}

static int v_bench(struct loader *ld, const cJSON *root, struct hil_config *cfg)
{
	const cJSON *s, *it, *c;
	char p[PATH], sb[SHOW];
	uint32_t ops = 0;
	size_t n = 0, i;
	int ret, k;

	ret = section(ld, root, "bench", bench_keys, &s);
	if (ret != HIL_OK || s == NULL) {
		return ret;
	}
	it = member(s, "operations");
	if (it != NULL) {
		ret = get_array(ld, it, "bench.operations", 1, 3, &n);
		if (ret != HIL_OK) {
			return ret;
		}
		i = 0;
		cJSON_ArrayForEach(c, it)
		{
			snprintf(p, sizeof(p), "bench.operations[%zu]", i);
			ret = get_choice(ld, c, p, &op_choice, NULL, 0, &k);
			if (ret != HIL_OK) {
				return ret;
			}
			if (ops & op_bits[k]) {
				return fail(
					ld, c, "%s: \"%s\" is repeated", p,
					show(sb, sizeof(sb), c->valuestring));
			}
			ops |= op_bits[k];
			i++;
		}
		cfg->bench.operations = ops;
	}
	it = member(s, "lengths");
	if (it != NULL) {
		ret = get_u32_list(ld, it, "bench.lengths", HIL_CFG_MAX_LENGTHS,
				   2048, cfg->bench.lengths,
				   &cfg->bench.n_lengths);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	it = member(s, "ad_lengths");
	if (it != NULL) {
		ret = get_u32_list(
			ld, it, "bench.ad_lengths", HIL_CFG_MAX_AD_LENGTHS,
			2048, cfg->bench.ad_lengths, &cfg->bench.n_ad_lengths);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	it = member(s, "runs");
	if (it != NULL) {
		ret = get_u32(ld, it, "bench.runs", 1, 65535, &cfg->bench.runs);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	it = member(s, "warmup");
	if (it != NULL) {
		ret = get_u32(ld, it, "bench.warmup", 0, 65535,
			      &cfg->bench.warmup);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	it = member(s, "seed");
	if (it != NULL) {
		ret = get_u32(ld, it, "bench.seed", 0, UINT32_MAX,
			      &cfg->bench.seed);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	it = member(s, "leak_runs");
	if (it != NULL) {
		ret = get_u32(ld, it, "bench.leak_runs", 0, 1000000,
			      &cfg->bench.leak_runs);
		if (ret != HIL_OK) {
			return ret;
		}
		if (cfg->bench.leak_runs > 0 && cfg->bench.leak_runs < 4) {
			return fail(
				ld, it,
				"bench.leak_runs: %u runs cannot give a t statistic: 0 (off) or at least 4",
				(unsigned)cfg->bench.leak_runs);
		}
	}
	it = member(s, "normalize_to");
	if (it != NULL) {
		ret = get_str(ld, it, "bench.normalize_to",
			      cfg->bench.normalize_to,
			      sizeof(cfg->bench.normalize_to), 1);
		if (ret != HIL_OK) {
			return ret;
		}
		if (strchr(cfg->bench.normalize_to, ' ') != NULL ||
		    strchr(cfg->bench.normalize_to, '/') !=
			    strrchr(cfg->bench.normalize_to, '/')) {
			return fail(
				ld, it,
				"bench.normalize_to: \"%s\" is not \"algorithm\" or \"algorithm/implementation\"",
				show(sb, sizeof(sb), it->valuestring));
		}
	}
	return HIL_OK;
}

/* A finite number above 0 and at most max (a resistance, a current). */
static int get_positive(struct loader *ld, const cJSON *it, const char *path,
			double max, double *out)
{
	double d;

	if (cJSON_IsNumber(it)) {
		d = it->valuedouble;
		/* Written this way round so NaN and infinities fail too. */
		if (d > 0.0 && d <= max) {
			*out = d;
			return HIL_OK;
		}
	}
	return fail(ld, it, "%s: expected a number above 0 and at most %g",
		    path, max);
}

/*
 * An INA219 address: A0 and A1 each strap to GND, VS+, SDA or SCL, which
 * gives 0x40..0x4F (SBOS448 Table 1). Written as an integer, or as a hex
 * string because that is how datasheets and i2cdetect show it.
 */
static int get_ina219_address(struct loader *ld, const cJSON *it,
			      const char *path, uint8_t *out)
{
	const char *s;
	long v = -1;
	char *end;

	if (cJSON_IsNumber(it)) {
		if (it->valuedouble >= 0x40 && it->valuedouble <= 0x4f &&
		    it->valuedouble == floor(it->valuedouble)) {
			v = (long)it->valuedouble;
		}
	} else if (cJSON_IsString(it)) {
		s = it->valuestring;
		if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') &&
		    strlen(s) >= 3 && strlen(s) <= 4 &&
		    strspn(s + 2, "0123456789abcdefABCDEF") == strlen(s + 2)) {
			v = strtol(s + 2, &end, 16);
		}
	}
	if (v < 0x40 || v > 0x4f) {
		return fail(
			ld, it,
			"%s: expected an INA219 address from 0x40 to 0x4F, as an integer (64) or a string (\"0x40\")",
			path);
	}
	*out = (uint8_t)v;
	return HIL_OK;
}

/*
 * The bus is opened by prefix (host/drivers/i2c/i2c.h); what follows the prefix is
 * checked when it is opened, where the adapter can be named.
 */
static int check_bus(struct loader *ld, const cJSON *it, const char *bus)
{
	char sb[SHOW];

	if ((strncmp(bus, "ftdi:", 5) == 0 && bus[5] != '\0') ||
	    (strncmp(bus, "linux:/", 7) == 0 && bus[7] != '\0') ||
	    (strncmp(bus, "sim:", 4) == 0 && bus[4] != '\0')) {
		return HIL_OK;
	}
	return fail(
		ld, it,
		"sensor.bus: \"%s\" is not a bus spec: expected \"ftdi:VID:PID[:SERIAL]\", \"linux:/dev/i2c-N\" or \"sim:...\"",
		show(sb, sizeof(sb), bus));
}

/* Sensor settings that are valid one by one but not together. */
static int v_sensor_combination(struct loader *ld, const cJSON *s,
				const struct hil_config *cfg)
{
	const cJSON *at;
	double vmax, fs;
	unsigned n;

	if (strcmp(cfg->sensor.type, "ina219") == 0 &&
	    cfg->sensor.bus[0] == '\0') {
		at = member(s, "bus");
		if (at == NULL) {
			at = member(s, "type");
		}
		return fail(
			ld, at != NULL ? at : s,
			"sensor.bus: required when sensor.type is \"ina219\" (e.g. \"ftdi:0403:6014\" or \"linux:/dev/i2c-1\")");
	}
	/* Averaging is a 12-bit mode only (SBOS448 Table 6). */
	n = cfg->sensor.adc_samples;
	if (n > 1 && cfg->sensor.adc_bits != 12) {
		at = member(s, "adc_samples");
		return fail(
			ld, at != NULL ? at : s,
			"sensor.adc_samples: averaging %u samples works on 12-bit conversions only, but sensor.adc_bits is %u",
			n, cfg->sensor.adc_bits);
	}
	/*
	 * The largest expected current must fit the shunt ADC's range,
	 * +-40 mV x the PGA divider (SBOS448 Table 5), else every window
	 * at that current would end in an overflow.
	 */
	vmax = cfg->sensor.max_current_a * cfg->sensor.shunt_ohm;
	fs = 0.04 * (cfg->sensor.pga_div != 0 ? cfg->sensor.pga_div : 8u);
	if (vmax > fs * (1.0 + 1e-9)) {
		at = member(s, "max_current_a");
		if (at == NULL) {
			at = member(s, "shunt_ohm");
		}
		if (cfg->sensor.pga_div != 0) {
			return fail(
				ld, at != NULL ? at : s,
				"sensor.max_current_a: %g A through %g ohm is %g mV, beyond the +-%g mV that sensor.pga_div %u measures",
				cfg->sensor.max_current_a,
				cfg->sensor.shunt_ohm, vmax * 1e3, fs * 1e3,
				cfg->sensor.pga_div);
		}
		return fail(
			ld, at != NULL ? at : s,
			"sensor.max_current_a: %g A through %g ohm is %g mV, beyond the INA219's largest shunt range, +-320 mV (use a smaller shunt)",
			cfg->sensor.max_current_a, cfg->sensor.shunt_ohm,
			vmax * 1e3);
	}
	return HIL_OK;
}

/* A JSON true or false. */
static int get_flag(struct loader *ld, const cJSON *it, const char *path,
		    int *out)
{
	if (!cJSON_IsBool(it)) {
		return fail(ld, it, "%s: expected true or false", path);
	}
	*out = cJSON_IsTrue(it);
	return HIL_OK;
}

/*
 * The cycle model's flash profile: by default the one the Nucleo's clock
 * profile would have (2 wait states and the ART above 24 MHz, none at 24
 * and 16 MHz: RM0368 Table 6 at 3.3 V).
 */
static int v_cycle_model(struct loader *ld, const cJSON *root,
			 struct hil_config *cfg)
{
	const cJSON *s, *it;
	int ws_given = 0, art_given = 0;
	uint32_t v = 0;
	int ret;

	ret = section(ld, root, "cycle_model", cycle_model_keys, &s);
	if (ret != HIL_OK) {
		return ret;
	}
	it = member(s, "enabled");
	if (it != NULL) {
		ret = get_flag(ld, it, "cycle_model.enabled",
			       &cfg->cycle_model.enabled);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	it = member(s, "wait_states");
	if (it != NULL) {
		ret = get_u32(ld, it, "cycle_model.wait_states", 0, 15, &v);
		if (ret != HIL_OK) {
			return ret;
		}
		cfg->cycle_model.wait_states = v;
		ws_given = 1;
	}
	it = member(s, "art");
	if (it != NULL) {
		ret = get_flag(ld, it, "cycle_model.art",
			       &cfg->cycle_model.art);
		if (ret != HIL_OK) {
			return ret;
		}
		art_given = 1;
	}
	if (!ws_given) {
		cfg->cycle_model.wait_states =
			cfg->board.clock_hz > 24000000u ? 2u : 0u;
	}
	if (!art_given) {
		cfg->cycle_model.art = cfg->cycle_model.wait_states > 0;
	}
	return HIL_OK;
}

static int v_sensor(struct loader *ld, const cJSON *root,
		    struct hil_config *cfg)
{
	const cJSON *s, *it;
	uint32_t v = 0;
	int ret;

	ret = section(ld, root, "sensor", sensor_keys, &s);
	if (ret != HIL_OK || s == NULL) {
		return ret;
	}
	it = member(s, "type");
	if (it != NULL) {
		ret = get_choice(ld, it, "sensor.type", &sensor_choice,
				 cfg->sensor.type, sizeof(cfg->sensor.type),
				 NULL);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	it = member(s, "bus");
	if (it != NULL) {
		ret = get_str(ld, it, "sensor.bus", cfg->sensor.bus,
			      sizeof(cfg->sensor.bus), 1);
		if (ret == HIL_OK && cfg->sensor.bus[0] != '\0') {
			ret = check_bus(ld, it, cfg->sensor.bus);
		}
		if (ret != HIL_OK) {
			return ret;
		}
	}
	it = member(s, "address");
	if (it != NULL) {
		ret = get_ina219_address(ld, it, "sensor.address",
					 &cfg->sensor.address);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	it = member(s, "shunt_ohm");
	if (it != NULL) {
		ret = get_positive(ld, it, "sensor.shunt_ohm", 100.0,
				   &cfg->sensor.shunt_ohm);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	it = member(s, "max_current_a");
	if (it != NULL) {
		ret = get_positive(ld, it, "sensor.max_current_a", 100.0,
				   &cfg->sensor.max_current_a);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	it = member(s, "bus_range_v");
	if (it != NULL) {
		if (get_u32(ld, it, "sensor.bus_range_v", 16, 32, &v) !=
			    HIL_OK ||
		    (v != 16 && v != 32)) {
			return fail(ld, it,
				    "sensor.bus_range_v: expected 16 or 32");
		}
		cfg->sensor.bus_range_v = v;
	}
	it = member(s, "pga_div");
	if (it != NULL) {
		if (get_u32(ld, it, "sensor.pga_div", 0, 8, &v) != HIL_OK ||
		    (v != 0 && v != 1 && v != 2 && v != 4 && v != 8)) {
			return fail(
				ld, it,
				"sensor.pga_div: expected 0 (automatic), 1, 2, 4 or 8");
		}
		cfg->sensor.pga_div = v;
	}
	it = member(s, "adc_bits");
	if (it != NULL) {
		ret = get_u32(ld, it, "sensor.adc_bits", 9, 12, &v);
		if (ret != HIL_OK) {
			return ret;
		}
		cfg->sensor.adc_bits = v;
	}
	it = member(s, "adc_samples");
	if (it != NULL) {
		if (get_u32(ld, it, "sensor.adc_samples", 1, 128, &v) !=
			    HIL_OK ||
		    (v & (v - 1)) != 0) {
			return fail(
				ld, it,
				"sensor.adc_samples: expected 1, 2, 4, 8, 16, 32, 64 or 128");
		}
		cfg->sensor.adc_samples = v;
	}
	it = member(s, "conversions");
	if (it != NULL) {
		ret = get_u32(ld, it, "sensor.conversions", 1, 10000,
			      &cfg->sensor.conversions);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	it = member(s, "windows");
	if (it != NULL) {
		ret = get_u32(ld, it, "sensor.windows", 1, 1000,
			      &cfg->sensor.windows);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	return v_sensor_combination(ld, s, cfg);
}

/* "name" or, failing that, the loaded file's name without ".json". */
static int v_name(struct loader *ld, const cJSON *root, struct hil_config *cfg)
{
	const cJSON *it = member(root, "name");
	const char *base, *file = ld->files[0];
	char sb[SHOW];
	size_t n;

	if (it != NULL) {
		return get_name(ld, it, "name", cfg->name, sizeof(cfg->name));
	}
	if (file == NULL) {
		snprintf(cfg->name, sizeof(cfg->name), "inline");
		return HIL_OK;
	}
	base = strrchr(file, '/');
	base = base == NULL ? file : base + 1;
	n = strlen(base);
	if (n > 5 && strcmp(base + n - 5, ".json") == 0) {
		n -= 5;
	}
	if (n < sizeof(cfg->name)) {
		memcpy(cfg->name, base, n);
		cfg->name[n] = '\0';
		if (is_name(cfg->name)) {
			return HIL_OK;
		}
	}
	return fail(
		ld, NULL,
		"name: the file name \"%s\" cannot serve as the run name; set \"name\"",
		show(sb, sizeof(sb), base));
}

/* Defaults that depend on the board, for what the files left unset. */
static void derive(const cJSON *root, struct hil_config *cfg)
{
	const cJSON *flasher = member(root, "flasher");
	const cJSON *link = member(root, "link");
	int b = find_choice(&board_choice, cfg->board.name);

	if (member(flasher, "type") == NULL) {
		snprintf(cfg->flasher.type, sizeof(cfg->flasher.type), "%s",
			 board_flasher[b]);
	}
	if (member(flasher, "program") == NULL) {
		snprintf(cfg->flasher.program, sizeof(cfg->flasher.program),
			 "%s",
			 strcmp(cfg->flasher.type, "qemu") == 0
				 ? "qemu-system-arm"
				 : "openocd");
	}
	if (member(link, "type") == NULL) {
		snprintf(cfg->link.type, sizeof(cfg->link.type), "%s",
			 strcmp(cfg->board.name, "nucleo-f401re") == 0
				 ? "serial"
				 : "socket");
	}
}

/* Combinations that cannot work, checked on the merged, derived values. */
static int v_combination(struct loader *ld, const cJSON *root,
			 const struct hil_config *cfg)
{
	const cJSON *board = member(root, "board");
	const cJSON *flasher = member(root, "flasher");
	const cJSON *link = member(root, "link");
	const cJSON *at;
	int b = find_choice(&board_choice, cfg->board.name);

	if (strcmp(cfg->flasher.type, board_flasher[b]) != 0) {
		at = member(flasher, "type");
		if (at == NULL) {
			at = member(board, "name");
		}
		return fail(
			ld, at,
			"flasher.type: \"%s\" cannot program board.name \"%s\" (it needs flasher \"%s\")",
			cfg->flasher.type, cfg->board.name, board_flasher[b]);
	}
	/*
	 * QEMU's USART is a unix socket (libserialport cannot open a QEMU
	 * pty): it has no serial port.
	 */
	if (strcmp(cfg->link.type, "serial") == 0 &&
	    strcmp(cfg->board.name, "nucleo-f401re") != 0) {
		return fail(
			ld, member(link, "type"),
			"link.type: \"serial\" cannot reach board.name \"%s\" (it needs \"socket\")",
			cfg->board.name);
	}
	if (strcmp(cfg->link.type, "serial") == 0 &&
	    cfg->link.port[0] == '\0' && cfg->board.id[0] == '\0') {
		at = member(link, "type");
		return fail(
			ld, at != NULL ? at : link,
			"link.port: required when link.type is \"serial\" (or board.id, to take it from the hardware map)");
	}
	return HIL_OK;
}

static int validate(struct loader *ld, const cJSON *root,
		    struct hil_config *cfg)
{
	const cJSON *it;
	int ret;

	ret = check_keys(ld, root, "", root_keys);
	if (ret == HIL_OK) {
		ret = v_name(ld, root, cfg);
	}
	if (ret == HIL_OK) {
		ret = v_board(ld, root, cfg);
	}
	if (ret == HIL_OK) {
		ret = v_link(ld, root, cfg);
	}
	if (ret == HIL_OK) {
		ret = v_flasher(ld, root, cfg);
	}
	if (ret == HIL_OK) {
		ret = v_build(ld, root, cfg);
	}
	if (ret == HIL_OK) {
		ret = v_algorithms(ld, root, cfg);
	}
	if (ret == HIL_OK) {
		ret = v_bench(ld, root, cfg);
	}
	if (ret == HIL_OK) {
		ret = v_sensor(ld, root, cfg);
	}
	if (ret == HIL_OK) {
		ret = v_cycle_model(ld, root, cfg);
	}
	if (ret == HIL_OK) {
		it = member(root, "results_dir");
		if (it != NULL) {
			ret = get_str(ld, it, "results_dir", cfg->results_dir,
				      sizeof(cfg->results_dir), 0);
		}
	}
	if (ret == HIL_OK) {
		derive(root, cfg);
		ret = v_combination(ld, root, cfg);
	}
	return ret;
}

/* ---- public ------------------------------------------------------------ */

void hil_config_defaults(struct hil_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	snprintf(cfg->board.name, sizeof(cfg->board.name), "qemu-netduino");
	cfg->board.clock_hz = 84000000;

	snprintf(cfg->link.type, sizeof(cfg->link.type), "socket");
	cfg->link.baud = 115200;
	cfg->link.timeout_ms = 2000;
	cfg->link.retries = 3;

	snprintf(cfg->flasher.type, sizeof(cfg->flasher.type), "qemu");
	snprintf(cfg->flasher.program, sizeof(cfg->flasher.program),
		 "qemu-system-arm");
	snprintf(cfg->flasher.openocd_cfg[0],
		 sizeof(cfg->flasher.openocd_cfg[0]), "board/st_nucleo_f4.cfg");
	cfg->flasher.n_openocd_cfg = 1;
	cfg->flasher.timeout_ms = 60000;

	snprintf(cfg->build.cflags[0], sizeof(cfg->build.cflags[0]), "-O2");
	cfg->build.n_cflags = 1;

	cfg->bench.operations = HIL_OPS_ENCRYPT | HIL_OPS_DECRYPT;
	cfg->bench.lengths[0] = 0;
	cfg->bench.lengths[1] = 16;
	cfg->bench.lengths[2] = 64;
	cfg->bench.lengths[3] = 256;
	cfg->bench.lengths[4] = 1024;
	cfg->bench.lengths[5] = 2048;
	cfg->bench.n_lengths = 6;
	cfg->bench.ad_lengths[0] = 0;
	cfg->bench.n_ad_lengths = 1;
	cfg->bench.runs = 1000;
	cfg->bench.warmup = 10;
	cfg->bench.seed = 1;
	snprintf(cfg->bench.normalize_to, sizeof(cfg->bench.normalize_to),
		 "aes128-ecb");
	cfg->bench.leak_runs = 1000;
	cfg->cycle_model.enabled = 1;
	cfg->cycle_model.wait_states = 2;
	cfg->cycle_model.art = 1;

	snprintf(cfg->sensor.type, sizeof(cfg->sensor.type), "none");
	cfg->sensor.address = 0x40;
	cfg->sensor.shunt_ohm = 0.1;
	cfg->sensor.max_current_a = 0.4;
	cfg->sensor.bus_range_v = 16;
	cfg->sensor.pga_div = 0;
	cfg->sensor.adc_bits = 12;
	cfg->sensor.adc_samples = 1;
	cfg->sensor.conversions = 50;
	cfg->sensor.windows = 5;

	snprintf(cfg->results_dir, sizeof(cfg->results_dir), "results");
}

/*
 * Shared by load and parse: file 0 is either read from path or given as text
 * (path NULL). cfg is written only on success.
 */
static int load(const char *path, const char *text, const char *base_dir,
		const struct hil_config_roots *roots, struct hil_config *cfg,
		char *err, size_t errlen)
{
	struct loader ld;
	struct hil_config *c = NULL;
	cJSON *root = NULL;
	char *buf = NULL;
	char *dir = NULL;
	size_t len = 0, i;
	int ret;

	memset(&ld, 0, sizeof(ld));
	ld.err = err;
	ld.errlen = errlen;
	ld.roots = roots;
	if (err != NULL && errlen > 0) {
		err[0] = '\0';
	}
	if (cfg == NULL || (path == NULL && text == NULL) ||
	    (path != NULL && path[0] == '\0')) {
		return fail_file(&ld, HIL_ERR_ARG, NULL,
				 "no configuration given");
	}
	ld.graveyard = cJSON_CreateArray();
	c = malloc(sizeof(*c));
	if (ld.graveyard == NULL || c == NULL) {
		ret = fail_file(&ld, HIL_ERR_NOMEM, path, "out of memory");
		goto out;
	}
	hil_config_defaults(c);

	if (path != NULL) {
		if (strlen(path) >= sizeof(c->path)) {
			ret = fail_file(
				&ld, HIL_ERR_ARG, NULL,
				"config path too long (at most %zu bytes)",
				sizeof(c->path) - 1);
			goto out;
		}
		ld.files[0] = strdup(path);
		dir = dir_of(path);
		if (ld.files[0] == NULL || dir == NULL) {
			ret = fail_file(&ld, HIL_ERR_NOMEM, path,
					"out of memory");
			goto out;
		}
		ret = read_file(&ld, 0, &buf, &len);
		if (ret != HIL_OK) {
			goto out;
		}
		ret = parse_text(&ld, 0, buf, len, &root);
		snprintf(c->path, sizeof(c->path), "%s", path);
	} else {
		dir = strdup(base_dir != NULL ? base_dir : "");
		if (dir == NULL) {
			ret = fail_file(&ld, HIL_ERR_NOMEM, NULL,
					"out of memory");
			goto out;
		}
		ret = parse_text(&ld, 0, text, strlen(text), &root);
	}
	if (ret != HIL_OK) {
		goto out;
	}
	ld.base_dir = dir;
	/* resolve() takes root and hands back the merged tree. */
	ret = resolve(&ld, 0, root, dir, &root);
	if (ret != HIL_OK) {
		root = NULL;
		goto out;
	}
	ret = validate(&ld, root, c);
	if (ret == HIL_OK) {
		memcpy(cfg, c, sizeof(*cfg));
	}
out:
	cJSON_Delete(root);
	cJSON_Delete(ld.graveyard);
	free(ld.origins);
	for (i = 0; i < MAX_CHAIN; i++) {
		free(ld.files[i]);
	}
	free(dir);
	free(buf);
	free(c);
	return ret;
}

int hil_config_load(const char *path, struct hil_config *cfg, char *err,
		    size_t errlen)
{
	return load(path, NULL, NULL, NULL, cfg, err, errlen);
}

int hil_config_parse(const char *json, const char *base_dir,
		     struct hil_config *cfg, char *err, size_t errlen)
{
	/* With json NULL too, load() reports "no configuration given". */
	return load(NULL, json, base_dir, NULL, cfg, err, errlen);
}

int hil_config_load_in(const char *path, const struct hil_config_roots *roots,
		       struct hil_config *cfg, char *err, size_t errlen)
{
	return load(path, NULL, NULL, roots, cfg, err, errlen);
}

int hil_config_parse_in(const char *json, const char *base_dir,
			const struct hil_config_roots *roots,
			struct hil_config *cfg, char *err, size_t errlen)
{
	return load(NULL, json, base_dir, roots, cfg, err, errlen);
}
