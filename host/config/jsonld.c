/* jsonld: reading a JSON file of hilrun's (bounded, no duplicate keys), resolving its "extends" chain and remembering which file each value came from. */
#define _XOPEN_SOURCE  700
#define HIL_LOG_PREFIX "config"

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

#include "config/jsonld.h"

/* A configuration is a few hundred bytes; anything this large is not one. */
#define MAX_FILE_BYTES (1024 * 1024)

/*
 * Whether path (which must exist) lies inside one of the loader's roots,
 * links resolved: an untrusted job's files may only come from there.
 * Always true without roots.
 */
int hil_jsonld_within_roots(const struct hil_jsonld *ld, const char *path)
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
void hil_jsonld_roots_text(const struct hil_jsonld *ld, char *buf, size_t len)
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

/* ---- messages ---------------------------------------------------------- */

/*
 * Copy s into buf for a message: quotes, backslashes and control characters
 * escaped, cut with "..." when it does not fit, so any input prints safely.
 */
const char *hil_jsonld_show(char *buf, size_t size, const char *s)
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

static void vwrite_err(struct hil_jsonld *ld, const char *file, const char *fmt,
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
void hil_jsonld_append_err(struct hil_jsonld *ld, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void hil_jsonld_append_err(struct hil_jsonld *ld, const char *fmt, ...)
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
int hil_jsonld_fail_file(struct hil_jsonld *ld, int code, const char *file,
			 const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
int hil_jsonld_fail_file(struct hil_jsonld *ld, int code, const char *file,
			 const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwrite_err(ld, file, fmt, ap);
	va_end(ap);
	return code;
}

const char *hil_jsonld_origin_of(const struct hil_jsonld *ld, const cJSON *at)
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
int hil_jsonld_fail(struct hil_jsonld *ld, const cJSON *at, const char *fmt,
		    ...) __attribute__((format(printf, 3, 4)));
int hil_jsonld_fail(struct hil_jsonld *ld, const cJSON *at, const char *fmt,
		    ...)
{
	va_list ap;

	va_start(ap, fmt);
	vwrite_err(ld, hil_jsonld_origin_of(ld, at), fmt, ap);
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
int hil_jsonld_read_file(struct hil_jsonld *ld, size_t level, char **out,
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

	if (access(path, F_OK) == 0 && !hil_jsonld_within_roots(ld, path)) {
		char roots[512];

		hil_jsonld_roots_text(ld, roots, sizeof(roots));
		if (level > 0) {
			return hil_jsonld_fail_file(ld, HIL_ERR_CONFIG, via,
						    "extends: %s is outside %s",
						    path, roots);
		}
		return hil_jsonld_fail_file(ld, HIL_ERR_CONFIG, path,
					    "outside %s", roots);
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
			return hil_jsonld_fail_file(
				ld, HIL_ERR_IO, via,
				"extends: cannot open %s: %s", path, ebuf);
		}
		return hil_jsonld_fail_file(ld, HIL_ERR_IO, path,
					    "cannot open: %s", ebuf);
	}
	e = 0;
	if (fstat(fileno(f), &st) != 0) {
		e = errno;
	} else if (S_ISDIR(st.st_mode)) {
		e = EISDIR;
	}
	if (e != 0) {
		errno_text(e, ebuf, sizeof(ebuf));
		ret = hil_jsonld_fail_file(ld, HIL_ERR_IO, path,
					   "cannot read: %s", ebuf);
		goto out_close;
	}
	ld->dev[level] = st.st_dev;
	ld->ino[level] = st.st_ino;
	ld->has_id[level] = 1;
	for (i = 0; i < level; i++) {
		if (ld->has_id[i] && ld->dev[i] == st.st_dev &&
		    ld->ino[i] == st.st_ino) {
			ret = hil_jsonld_fail_file(ld, HIL_ERR_CONFIG, via,
						   "extends: cycle: %s",
						   ld->files[i]);
			for (i = i + 1; i <= level; i++) {
				hil_jsonld_append_err(ld, " -> %s",
						      ld->files[i]);
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
				ret = hil_jsonld_fail_file(ld, HIL_ERR_NOMEM,
							   path,
							   "out of memory");
				goto out_free;
			}
			buf = nbuf;
		}
		got = fread(buf + len, 1, cap - len, f);
		len += got;
		if (len > MAX_FILE_BYTES) {
			ret = hil_jsonld_fail_file(
				ld, HIL_ERR_CONFIG, path,
				"larger than %d bytes: not %s", MAX_FILE_BYTES,
				ld->kind != NULL ? ld->kind
						 : "a configuration");
			goto out_free;
		}
		if (got == 0) {
			break;
		}
	}
	if (ferror(f)) {
		e = errno;
		errno_text(e, ebuf, sizeof(ebuf));
		ret = hil_jsonld_fail_file(ld, HIL_ERR_IO, path,
					   "cannot read: %s", ebuf);
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

static int record_origin(struct hil_jsonld *ld, const cJSON *item, size_t file)
{
	struct hil_jsonld_origin *n;
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
static int check_duplicates(struct hil_jsonld *ld, const cJSON *obj,
			    size_t file)
{
	const cJSON **keys;
	const cJSON *c;
	char kb[HIL_JSONLD_SHOW];
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
		return hil_jsonld_fail_file(ld, HIL_ERR_NOMEM, ld->files[file],
					    "out of memory");
	}
	n = 0;
	for (c = obj->child; c != NULL; c = c->next) {
		keys[n++] = c;
	}
	qsort(keys, n, sizeof(*keys), cmp_key);
	for (i = 1; i < n; i++) {
		if (strcmp(keys[i - 1]->string, keys[i]->string) == 0) {
			ret = hil_jsonld_fail_file(
				ld, HIL_ERR_CONFIG, ld->files[file],
				"key \"%s\" appears twice in one object",
				hil_jsonld_show(kb, sizeof(kb),
						keys[i]->string));
			break;
		}
	}
	free(keys);
	return ret;
}

/* Record the file of every item and refuse repeated keys. */
static int scan(struct hil_jsonld *ld, const cJSON *item, size_t file)
{
	const cJSON *c;
	int ret;

	ret = record_origin(ld, item, file);
	if (ret != HIL_OK) {
		return hil_jsonld_fail_file(ld, ret, ld->files[file],
					    "out of memory");
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
int hil_jsonld_parse_text(struct hil_jsonld *ld, size_t level, const char *text,
			  size_t len, cJSON **out)
{
	const char *file = ld->files[level];
	const char *end = NULL;
	const char *nul;
	char excerpt[32], sb[HIL_JSONLD_SHOW];
	size_t off, start, line, col, i;
	cJSON *root;
	int ret;

	nul = memchr(text, '\0', len);
	if (nul != NULL) {
		hil_text_line_col(text, (size_t)(nul - text), &line, &col);
		return hil_jsonld_fail_file(
			ld, HIL_ERR_CONFIG, file,
			"line %zu, column %zu: NUL byte in the text", line,
			col);
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
			return hil_jsonld_fail_file(
				ld, HIL_ERR_CONFIG, file,
				"line %zu, column %zu: text after the end of the JSON value",
				line, col);
		}
		if (text[off + strspn(text + off, " \t\r\n")] == '\0') {
			return hil_jsonld_fail_file(
				ld, HIL_ERR_CONFIG, file,
				"line %zu, column %zu: invalid JSON (unexpected end of input)",
				line, col);
		}
		/*
		 * A file that does not even start like a configuration ("{")
		 * is not one: none of it is quoted (it may be a secret that a
		 * job named to read it through the error message).
		 */
		if (text[strspn(text, " \t\r\n")] !=
		    (ld->top_array ? '[' : '{')) {
			return hil_jsonld_fail_file(
				ld, HIL_ERR_CONFIG, file,
				"line %zu, column %zu: not JSON (%s starts with \"%c\")",
				line, col,
				ld->kind != NULL ? ld->kind : "a configuration",
				ld->top_array ? '[' : '{');
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
		return hil_jsonld_fail_file(
			ld, HIL_ERR_CONFIG, file,
			"line %zu, column %zu: invalid JSON near \"%s\"", line,
			col, hil_jsonld_show(sb, sizeof(sb), excerpt));
	}
	if (ld->top_array ? !cJSON_IsArray(root) : !cJSON_IsObject(root)) {
		cJSON_Delete(root);
		return hil_jsonld_fail_file(
			ld, HIL_ERR_CONFIG, file,
			"expected a JSON %s at the top level",
			ld->top_array ? "array ([ ... ])" : "object ({ ... })");
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
cJSON *hil_jsonld_member(const cJSON *obj, const char *key)
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

static void bury(struct hil_jsonld *ld, cJSON *parent, cJSON *item)
{
	cJSON_DetachItemViaPointer(parent, item);
	cJSON_AddItemToArray(ld->graveyard, item);
}

/* Directory part of path ("" for none, "/" for the root). */
char *hil_jsonld_dir_of(const char *path)
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

char *hil_jsonld_join(const char *dir, const char *name)
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
static void merge(struct hil_jsonld *ld, cJSON *base, cJSON *over)
{
	cJSON *c = over->child;
	cJSON *next, *b;

	while (c != NULL) {
		next = c->next;
		b = hil_jsonld_member(base, c->string);
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
int hil_jsonld_resolve(struct hil_jsonld *ld, size_t level, cJSON *root,
		       const char *dir, cJSON **out)
{
	cJSON *ext = hil_jsonld_member(root, "extends");
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
		ret = hil_jsonld_fail(ld, ext, "extends: expected a file name");
		goto out_root;
	}
	{
		const unsigned char *c =
			(const unsigned char *)ext->valuestring;

		/* The name is echoed in messages: no control characters. */
		for (; *c != '\0'; c++) {
			if (*c < 0x20 || *c == 0x7f) {
				ret = hil_jsonld_fail(
					ld, ext,
					"extends: contains a control character");
				goto out_root;
			}
		}
	}
	if (level + 1 >= HIL_JSONLD_MAX_CHAIN) {
		ret = hil_jsonld_fail(ld, ext,
				      "extends: more than %d levels of extends",
				      HIL_CFG_MAX_EXTENDS_DEPTH);
		goto out_root;
	}
	ld->files[level + 1] = hil_jsonld_join(dir, ext->valuestring);
	if (ld->files[level + 1] == NULL) {
		ret = hil_jsonld_fail(ld, ext, "out of memory");
		goto out_root;
	}
	hil_dbg("%s extends %s", ld->files[level] ? ld->files[level] : "text",
		ld->files[level + 1]);

	ret = hil_jsonld_read_file(ld, level + 1, &text, &len);
	if (ret != HIL_OK) {
		goto out_root;
	}
	ret = hil_jsonld_parse_text(ld, level + 1, text, len, &base);
	free(text);
	if (ret != HIL_OK) {
		goto out_root;
	}
	base_dir = hil_jsonld_dir_of(ld->files[level + 1]);
	if (base_dir == NULL) {
		ret = hil_jsonld_fail(ld, ext, "out of memory");
		cJSON_Delete(base);
		goto out_root;
	}
	ret = hil_jsonld_resolve(ld, level + 1, base, base_dir, &base);
	free(base_dir);
	if (ret != HIL_OK) {
		goto out_root;
	}

	/* A file names itself: a base's "name" would give every config that
	 * extends it the same name, hence the same results directory. */
	name = hil_jsonld_member(base, "name");
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

/* ---- one file without extends ------------------------------------------ */

void hil_jsonld_init(struct hil_jsonld *ld, char *err, size_t errlen)
{
	memset(ld, 0, sizeof(*ld));
	ld->err = err;
	ld->errlen = errlen;
	if (err != NULL && errlen > 0) {
		err[0] = '\0';
	}
}

int hil_jsonld_load(struct hil_jsonld *ld, const char *path, cJSON **out)
{
	char *buf = NULL;
	size_t len = 0;
	int ret;

	*out = NULL;
	ld->files[0] = strdup(path);
	if (ld->files[0] == NULL) {
		return hil_jsonld_fail_file(ld, HIL_ERR_NOMEM, path,
					    "out of memory");
	}
	ret = hil_jsonld_read_file(ld, 0, &buf, &len);
	if (ret == HIL_OK) {
		ret = hil_jsonld_parse_text(ld, 0, buf, len, out);
	}
	free(buf);
	return ret;
}

int hil_jsonld_load_text(struct hil_jsonld *ld, const char *name,
			 const char *text, size_t len, cJSON **out)
{
	*out = NULL;
	if (name != NULL) {
		ld->files[0] = strdup(name);
		if (ld->files[0] == NULL) {
			return hil_jsonld_fail_file(ld, HIL_ERR_NOMEM, name,
						    "out of memory");
		}
	}
	return hil_jsonld_parse_text(ld, 0, text, len, out);
}

void hil_jsonld_done(struct hil_jsonld *ld)
{
	size_t i;

	free(ld->origins);
	ld->origins = NULL;
	ld->n_origins = ld->cap_origins = 0;
	for (i = 0; i < HIL_JSONLD_MAX_CHAIN; i++) {
		free(ld->files[i]);
		ld->files[i] = NULL;
	}
}
