/* toollog: a flasher's tool log (openocd.log, pyocd.log): the command line written into it before the tool's own lines, so that the log says what was run, and the tool's output read back from it. */
#define _POSIX_C_SOURCE 200809L
#include "flasher.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/util.h"

/* Quote an argument for the log so the command can be pasted into a shell. */
static void append_quoted(FILE *fp, const char *s)
{
	if (s[0] != '\0' && strspn(s, "abcdefghijklmnopqrstuvwxyz"
				      "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				      "0123456789_./:=@%+-") == strlen(s)) {
		fputs(s, fp);
		return;
	}
	fputc('\'', fp);
	for (; *s != '\0'; s++) {
		if (*s == '\'') {
			fputs("'\\''", fp);
		} else {
			fputc(*s, fp);
		}
	}
	fputc('\'', fp);
}

off_t hil_flasher_log_command(const char *path, char *const argv[])
{
	struct stat st;
	FILE *fp = NULL;
	size_t i;
	int fd = hil_open_append(path);

	if (fd >= 0) {
		fp = fdopen(fd, "a");
		if (fp == NULL) {
			close(fd);
		}
	}
	if (fp != NULL) {
		fputs("$", fp);
		for (i = 0; argv[i] != NULL; i++) {
			fputc(' ', fp);
			append_quoted(fp, argv[i]);
		}
		fputc('\n', fp);
		fclose(fp);
	}
	return stat(path, &st) == 0 ? st.st_size : 0;
}

void hil_flasher_log_tail(const char *path, off_t offset, char *buf, size_t len)
{
	struct stat st;
	off_t from = offset;
	ssize_t n;
	int fd;

	buf[0] = '\0';
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		return;
	}
	if (fstat(fd, &st) == 0 && st.st_size - from > (off_t)(len - 1)) {
		from = st.st_size - (off_t)(len - 1);
	}
	n = pread(fd, buf, len - 1, from);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
}
