/* util: small helpers shared by host modules: hex, files, directories, time, round numbers. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"util"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "err.h"
#include "log.h"

static int hex_value(char c)
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

long hil_hex_decode(const char *hex, uint8_t *out, size_t cap)
{
	size_t n = strlen(hex);
	size_t i;

	if (n % 2 != 0 || n / 2 > cap) {
		return -1;
	}
	for (i = 0; i < n / 2; i++) {
		int hi = hex_value(hex[2 * i]);
		int lo = hex_value(hex[2 * i + 1]);

		if (hi < 0 || lo < 0) {
			return -1;
		}
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	return (long)(n / 2);
}

void hil_hex_encode(const uint8_t *p, size_t n, char *out)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < n; i++) {
		out[2 * i] = digits[p[i] >> 4];
		out[2 * i + 1] = digits[p[i] & 0xF];
	}
	out[2 * n] = '\0';
}

int hil_mkdirs(const char *path)
{
	char buf[4096];
	size_t n = strlen(path);
	size_t i;

	if (n == 0 || n >= sizeof(buf)) {
		hil_err("cannot create directory: path too long");
		return HIL_ERR_ARG;
	}
	memcpy(buf, path, n + 1);
	for (i = 1; i <= n; i++) {
		if (buf[i] != '/' && buf[i] != '\0') {
			continue;
		}
		buf[i] = '\0';
		if (mkdir(buf, 0777) != 0 && errno != EEXIST) {
			hil_err("cannot create directory %s: %s", buf,
				strerror(errno));
			return HIL_ERR_IO;
		}
		buf[i] = path[i];
	}
	return HIL_OK;
}

int hil_write_atomic(const char *path, const void *data, size_t len)
{
	char tmp[4096];
	const char *p = data;
	int fd;
	int n;

	/* An unpredictable name, created exclusively (mkstemp: O_EXCL), so a
	 * planted file or link of that name is never written through. */
	n = snprintf(tmp, sizeof(tmp), "%s" HIL_TMP_MARK "XXXXXX", path);
	if (n < 0 || (size_t)n >= sizeof(tmp)) {
		return HIL_ERR_ARG;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		hil_err("cannot write %s: %s", tmp, strerror(errno));
		return HIL_ERR_IO;
	}
	if (fchmod(fd, 0644) != 0) {
		hil_err("cannot set the mode of %s: %s", tmp, strerror(errno));
		goto fail;
	}
	while (len > 0) {
		ssize_t w = write(fd, p, len);

		if (w < 0 && errno == EINTR) {
			continue;
		}
		if (w < 0) {
			hil_err("cannot write %s: %s", tmp, strerror(errno));
			goto fail;
		}
		p += w;
		len -= (size_t)w;
	}
	if (fsync(fd) != 0) {
		hil_err("cannot sync %s: %s", tmp, strerror(errno));
		goto fail;
	}
	if (close(fd) != 0) {
		fd = -1;
		hil_err("cannot write %s: %s", tmp, strerror(errno));
		goto fail;
	}
	/* rename() replaces a link of that name; it never follows it. */
	if (rename(tmp, path) != 0) {
		hil_err("cannot rename %s to %s: %s", tmp, path,
			strerror(errno));
		unlink(tmp);
		return HIL_ERR_IO;
	}
	return HIL_OK;
fail:
	if (fd >= 0) {
		close(fd);
	}
	unlink(tmp);
	return HIL_ERR_IO;
}

int hil_open_regular(const char *path, size_t max_bytes, char *why,
		     size_t why_len)
{
	struct stat st;
	int fd;
	int e;

	/* Non-blocking, so that a FIFO or a device never holds us; the
	 * flag is dropped again for a regular file. */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		e = errno;
		snprintf(why, why_len, "%s", strerror(e));
		return e == ENOENT ? HIL_ERR_NA : HIL_ERR_IO;
	}
	if (fstat(fd, &st) != 0) {
		snprintf(why, why_len, "%s", strerror(errno));
		close(fd);
		return HIL_ERR_IO;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(why, why_len, "not a regular file (%s)",
			 S_ISDIR(st.st_mode)	? "a directory"
			 : S_ISFIFO(st.st_mode) ? "a FIFO"
			 : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)
				 ? "a device"
				 : "a socket or other special file");
		close(fd);
		return HIL_ERR_IO;
	}
	if ((unsigned long long)st.st_size > (unsigned long long)max_bytes) {
		snprintf(why, why_len, "larger than %zu bytes (%lld)",
			 max_bytes, (long long)st.st_size);
		close(fd);
		return HIL_ERR_IO;
	}
	if (fcntl(fd, F_SETFL, 0) != 0) {
		snprintf(why, why_len, "%s", strerror(errno));
		close(fd);
		return HIL_ERR_IO;
	}
	return fd;
}

int hil_read_fd(int fd, size_t max_bytes, char **out, size_t *len)
{
	char *buf = NULL;
	size_t cap = 0;
	size_t n = 0;

	for (;;) {
		ssize_t r;

		if (cap - n < 4096) {
			char *nb;

			if (cap > max_bytes) {
				free(buf);
				errno = EFBIG;
				return HIL_ERR_IO;
			}
			nb = realloc(buf, cap + 65536);
			if (nb == NULL) {
				free(buf);
				return HIL_ERR_NOMEM;
			}
			buf = nb;
			cap += 65536;
		}
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR) {
			continue;
		}
		if (r < 0) {
			int e = errno;

			free(buf);
			errno = e;
			return HIL_ERR_IO;
		}
		if (r == 0) {
			break;
		}
		n += (size_t)r;
	}
	if (n > max_bytes) {
		free(buf);
		errno = EFBIG;
		return HIL_ERR_IO;
	}
	buf[n] = '\0';
	*out = buf;
	if (len != NULL) {
		*len = n;
	}
	return HIL_OK;
}

int hil_read_file(const char *path, char **out, size_t *len)
{
	char why[160];
	int fd = hil_open_regular(path, HIL_READ_MAX, why, sizeof(why));
	int ret;

	if (fd < 0) {
		hil_err("cannot read %s: %s", path, why);
		return fd == HIL_ERR_NA ? HIL_ERR_IO : fd;
	}
	ret = hil_read_fd(fd, HIL_READ_MAX, out, len);
	if (ret == HIL_ERR_IO) {
		hil_err("cannot read %s: %s", path, strerror(errno));
	}
	close(fd);
	return ret;
}

int hil_read_tail(const char *path, size_t max_bytes, char **out, size_t *len)
{
	char why[160];
	struct stat st;
	off_t from = 0;
	size_t got = 0, skip = 0;
	char *buf;
	int fd;

	*out = NULL;
	fd = hil_open_regular(path, (size_t)-1, why, sizeof(why));
	if (fd < 0) {
		hil_err("cannot read %s: %s", path, why);
		return HIL_ERR_IO;
	}
	if (fstat(fd, &st) != 0) {
		hil_err("cannot read %s: %s", path, strerror(errno));
		close(fd);
		return HIL_ERR_IO;
	}
	if ((unsigned long long)st.st_size > (unsigned long long)max_bytes) {
		from = st.st_size - (off_t)max_bytes;
	}
	buf = malloc(max_bytes + 1);
	if (buf == NULL) {
		hil_err("cannot read %s: out of memory", path);
		close(fd);
		return HIL_ERR_NOMEM;
	}
	while (got < max_bytes) {
		ssize_t n = pread(fd, buf + got, max_bytes - got,
				  from + (off_t)got);

		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n < 0) {
			hil_err("cannot read %s: %s", path, strerror(errno));
			free(buf);
			close(fd);
			return HIL_ERR_IO;
		}
		if (n == 0) {
			break;
		}
		got += (size_t)n;
	}
	close(fd);
	buf[got] = '\0';
	/* Cut inside the file: from its first whole line on. */
	if (from > 0) {
		char *nl = memchr(buf, '\n', got);

		skip = nl != NULL ? (size_t)(nl + 1 - buf) : got;
		memmove(buf, buf + skip, got - skip + 1);
	}
	*out = buf;
	if (len != NULL) {
		*len = got - skip;
	}
	return HIL_OK;
}

int hil_open_append(const char *path)
{
	return open(path,
		    O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW |
			    O_NOCTTY,
		    0644);
}

FILE *hil_fopen_write(const char *path)
{
	int fd = open(path,
		      O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW |
			      O_NOCTTY,
		      0644);
	FILE *f;

	if (fd < 0) {
		return NULL;
	}
	f = fdopen(fd, "w");
	if (f == NULL) {
		close(fd);
	}
	return f;
}

int hil_is_tmp_name(const char *name)
{
	const char *m = strstr(name, HIL_TMP_MARK);

	return m != NULL && m != name && strlen(m) == strlen(HIL_TMP_MARK) + 6;
}

double hil_round_125(double x)
{
	static const double m[] = {1.0, 2.0, 5.0, 10.0};
	double d = pow(10.0, floor(log10(x)));
	size_t i;

	for (i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		if (m[i] * d >= x * (1.0 - 1e-12)) {
			return m[i] * d;
		}
	}
	return 10.0 * d;
}

long long hil_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void hil_utc_iso(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* Edit distance counting a swap of neighbours as one edit ("rnus"). */
size_t hil_edit_distance(const char *a, const char *b)
{
	unsigned char d[33][33];
	size_t la = strlen(a), lb = strlen(b);
	size_t i, j, best;

	if (la > 32 || lb > 32) {
		return (size_t)-1;
	}
	for (i = 0; i <= la; i++) {
		d[i][0] = (unsigned char)i;
	}
	for (j = 0; j <= lb; j++) {
		d[0][j] = (unsigned char)j;
	}
	for (i = 1; i <= la; i++) {
		for (j = 1; j <= lb; j++) {
			best = d[i - 1][j - 1] + (size_t)(a[i - 1] != b[j - 1]);
			if (d[i - 1][j] + 1u < best) {
				best = d[i - 1][j] + 1u;
			}
			if (d[i][j - 1] + 1u < best) {
				best = d[i][j - 1] + 1u;
			}
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1u < best) {
				best = d[i - 2][j - 2] + 1u;
			}
			d[i][j] = (unsigned char)best;
		}
	}
	return d[la][lb];
}

void hil_text_line_col(const char *text, size_t off, size_t *line, size_t *col)
{
	size_t i;

	*line = 1;
	*col = 1;
	for (i = 0; i < off && text[i] != '\0'; i++) {
		if (text[i] == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

int hil_grow(void **arr, size_t n, size_t *cap, size_t elem_size)
{
	size_t want;
	void *p;

	if (n < *cap) {
		return HIL_OK;
	}
	want = *cap < 8 ? 8 : 2 * *cap;
	if (elem_size == 0 || want > SIZE_MAX / elem_size) {
		return HIL_ERR_NOMEM;
	}
	p = realloc(*arr, want * elem_size);
	if (p == NULL) {
		return HIL_ERR_NOMEM;
	}
	*arr = p;
	*cap = want;
	return HIL_OK;
}

int hil_str_append(char **s, const char *sep, const char *add)
{
	size_t have = *s != NULL ? strlen(*s) : 0;
	size_t lsep = have > 0 && sep != NULL ? strlen(sep) : 0;
	size_t ladd = strlen(add);
	char *p = realloc(*s, have + lsep + ladd + 1);

	if (p == NULL) {
		return HIL_ERR_NOMEM;
	}
	if (lsep > 0) {
		memcpy(p + have, sep, lsep);
	}
	memcpy(p + have + lsep, add, ladd + 1);
	*s = p;
	return HIL_OK;
}
