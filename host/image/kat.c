/* kat.c: parser for NIST LWC-style known-answer files, used by the host tests. */
#define _POSIX_C_SOURCE 200809L
#include "kat.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/util.h"

#if defined(__GNUC__)
#define KAT_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define KAT_PRINTF(a, b)
#endif

static int fail(struct kat_file *f, int code, const char *fmt, ...)
	KAT_PRINTF(3, 4);

/* Record the first error with its location; later calls return it again. */
static int fail(struct kat_file *f, int code, const char *fmt, ...)
{
	va_list ap;
	int n;

	/* "path:line: " first, the message in what is left (both truncate safely). */
	n = snprintf(f->err, sizeof(f->err), "%s:%lu: ", f->path, f->line);
	if (n >= 0 && (size_t)n < sizeof(f->err)) {
		va_start(ap, fmt);
		vsnprintf(f->err + n, sizeof(f->err) - (size_t)n, fmt, ap);
		va_end(ap);
	}
	f->status = code;
	return code;
}

static int hex_val(char c)
{
	if (c >= '0' && c <= '9') {
		return c - '0';
	}
	if (c >= 'a' && c <= 'f') {
		return c - 'a' + 10;
	}
	if (c >= 'A' && c <= 'F') {
		return c - 'A' + 10;
	}
	return -1;
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

int kat_hex_decode(const char *hex, unsigned char *out, size_t cap,
		   size_t *outlen)
{
	size_t n = 0;
	int hi, lo;

	*outlen = 0;
	for (;;) {
		while (is_blank(*hex)) {
			hex++;
		}
		if (*hex == '\0') {
			break;
		}
		hi = hex_val(hex[0]);
		if (hi < 0) {
			return KAT_ERR_FORMAT;
		}
		lo = hex_val(hex[1]); /* hex[1] is at worst the NUL */
		if (lo < 0) {
			return KAT_ERR_FORMAT;
		}
		if (n == cap) {
			return KAT_ERR_TOOLONG;
		}
		out[n++] = (unsigned char)(hi << 4 | lo);
		hex += 2;
	}
	*outlen = n;
	return KAT_OK;
}

int kat_open(struct kat_file *f, const char *path)
{
	char why[160];
	int fd;

	memset(f, 0, sizeof(*f));
	snprintf(f->path, sizeof(f->path), "%s", path);
	/* Only a regular file: a FIFO or a device named like a KAT file
	 * must not hold the run (hil_open_regular never blocks). */
	fd = hil_open_regular(path, (size_t)1 << 30, why, sizeof(why));
	f->fp = fd >= 0 ? fdopen(fd, "r") : NULL;
	if (!f->fp) {
		if (fd >= 0) {
			snprintf(why, sizeof(why), "%s", strerror(errno));
			close(fd);
		}
		snprintf(f->err, sizeof(f->err), "%s: cannot open: %s", path,
			 why);
		f->status = KAT_ERR_IO;
		return KAT_ERR_IO;
	}
	return KAT_OK;
}

void kat_close(struct kat_file *f)
{
	if (f->fp) {
		fclose(f->fp);
		f->fp = NULL;
	}
}

const struct kat_field *kat_find(const struct kat_record *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->n_fields; i++) {
		if (strcmp(r->field[i].name, name) == 0) {
			return &r->field[i];
		}
	}
	return NULL;
}

/*
 * Read one line into f->buf without its line ending (LF or CRLF) or
 * trailing blanks. Returns 1, 0 at the end of the file, or an error.
 */
static int read_line(struct kat_file *f)
{
	size_t len = 0;
	int ch;

	/* Byte by byte rather than fgets: a NUL byte inside a line must be
	 * an error, not the silent end of the line. */
	for (;;) {
		ch = getc(f->fp);
		if (ch == EOF) {
			if (ferror(f->fp)) {
				f->line++;
				return fail(f, KAT_ERR_IO, "read error");
			}
			if (len == 0) {
				return 0;
			}
			break;
		}
		if (ch == '\n') {
			break;
		}
		if (ch == '\0') {
			f->line++;
			return fail(f, KAT_ERR_FORMAT,
				    "a NUL byte: not a text file");
		}
		if (len + 1 >= sizeof(f->buf)) {
			f->line++;
			return fail(
				f, KAT_ERR_TOOLONG,
				"line longer than %d characters (a field holds at most %d bytes)",
				KAT_LINE_MAX, KAT_FIELD_MAX);
		}
		f->buf[len++] = (char)ch;
	}
	f->line++;
	while (len > 0 &&
	       (f->buf[len - 1] == '\r' || is_blank(f->buf[len - 1]))) {
		len--;
	}
	f->buf[len] = '\0';
	return 1;
}

/* The first bad character of a hex value, for the message. */
static const char *describe_bad_hex(const char *v)
{
	size_t digits = 0;

	for (; *v; v++) {
		if (is_blank(*v)) {
			if (digits % 2) {
				return "a blank inside a byte";
			}
			continue;
		}
		if (hex_val(*v) < 0) {
			return "a non-hex character";
		}
		digits++;
	}
	return "an odd number of hex digits";
}

static int parse_count(struct kat_file *f, struct kat_record *r, const char *v)
{
	char *end;
	unsigned long n;

	if (*v < '0' || *v > '9') {
		return fail(f, KAT_ERR_FORMAT, "Count is not a decimal number");
	}
	errno = 0;
	n = strtoul(v, &end, 10);
	if (errno != 0 || *end != '\0') {
		return fail(f, KAT_ERR_FORMAT, "Count is not a decimal number");
	}
	r->count = n;
	r->line = f->line;
	return KAT_OK;
}

static int add_field(struct kat_file *f, struct kat_record *r, const char *name,
		     const char *v)
{
	struct kat_field *fl;
	size_t n;
	int ret;

	if (kat_find(r, name)) {
		return fail(f, KAT_ERR_FORMAT,
			    "%s given twice in record Count = %lu", name,
			    r->count);
	}
	if (r->n_fields == KAT_FIELDS_MAX) {
		return fail(f, KAT_ERR_TOOLONG,
			    "more than %d fields in one record",
			    KAT_FIELDS_MAX);
	}
	fl = &r->field[r->n_fields];
	ret = kat_hex_decode(v, fl->data, sizeof(fl->data), &fl->len);
	if (ret == KAT_ERR_TOOLONG) {
		return fail(f, ret, "%s is longer than %d bytes", name,
			    KAT_FIELD_MAX);
	}
	if (ret != KAT_OK) {
		return fail(f, ret, "%s: bad hex (%s)", name,
			    describe_bad_hex(v));
	}
	n = strlen(
		name); /* split_line already bounds it; checked again for the copy */
	if (n >= sizeof(fl->name)) {
		return fail(f, KAT_ERR_FORMAT, "field name too long");
	}
	memcpy(fl->name, name, n + 1);
	r->n_fields++;
	return KAT_OK;
}

/* Split "Name = value" in place; *value points at the (possibly empty) value. */
static int split_line(struct kat_file *f, char **name, char **value)
{
	char *p = f->buf;
	size_t n = 0;

	while ((p[n] >= 'A' && p[n] <= 'Z') || (p[n] >= 'a' && p[n] <= 'z') ||
	       (p[n] >= '0' && p[n] <= '9') || p[n] == '_') {
		n++;
	}
	if (n == 0) {
		return fail(f, KAT_ERR_FORMAT, "expected \"Name = value\"");
	}
	if (n >= KAT_NAME_MAX) {
		return fail(f, KAT_ERR_FORMAT,
			    "field name longer than %d characters",
			    KAT_NAME_MAX - 1);
	}
	p += n;
	while (is_blank(*p)) {
		p++;
	}
	if (*p != '=') {
		return fail(f, KAT_ERR_FORMAT, "expected \"Name = value\"");
	}
	f->buf[n] = '\0'; /* ends the name; p is already past it */
	p++;
	while (is_blank(*p)) {
		p++;
	}
	*name = f->buf;
	*value = p;
	return KAT_OK;
}

int kat_next(struct kat_file *f, struct kat_record *r)
{
	int in_record = 0;
	char *name = NULL, *value = NULL;
	int ret;

	if (f->status != KAT_OK) {
		return f->status;
	}
	if (!f->fp) {
		return fail(f, KAT_ERR_IO, "file not open");
	}
	r->count = 0;
	r->line = 0;
	r->n_fields = 0;

	for (;;) {
		ret = read_line(f);
		if (ret < 0) {
			return ret;
		}
		if (ret == 0) {
			return in_record; /* the last record may lack its blank line */
		}
		if (f->buf[0] == '\0') {
			if (in_record) {
				return 1;
			}
			continue;
		}
		if (f->buf[0] == '#') {
			continue;
		}
		ret = split_line(f, &name, &value);
		if (ret < 0) {
			return ret;
		}
		if (strcmp(name, "Count") == 0) {
			if (in_record) {
				return fail(
					f, KAT_ERR_FORMAT,
					"Count inside record Count = %lu (missing blank line?)",
					r->count);
			}
			ret = parse_count(f, r, value);
			if (ret < 0) {
				return ret;
			}
			in_record = 1;
			continue;
		}
		if (!in_record) {
			return fail(f, KAT_ERR_FORMAT,
				    "%s before any Count line", name);
		}
		ret = add_field(f, r, name, value);
		if (ret < 0) {
			return ret;
		}
	}
}
