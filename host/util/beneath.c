/* beneath: files opened and folders made beneath a folder without following a link, and files read only when they are regular. */
#define _GNU_SOURCE
#include "beneath.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "err.h"

const char *hil_file_type_name(mode_t mode)
{
	return S_ISREG(mode)			? "a regular file"
	       : S_ISDIR(mode)			? "a folder"
	       : S_ISFIFO(mode)			? "a FIFO"
	       : S_ISLNK(mode)			? "a symbolic link"
	       : S_ISCHR(mode) || S_ISBLK(mode) ? "a device"
						: "a socket";
}

/* Relative, not empty, no "." or ".." component. */
static int rel_ok(const char *rel, char *why, size_t why_len)
{
	const char *p = rel;

	if (rel == NULL || rel[0] == '\0' || rel[0] == '/') {
		snprintf(why, why_len, "not a relative path");
		return 0;
	}
	while (*p != '\0') {
		size_t n = strcspn(p, "/");

		if ((n == 1 && p[0] == '.') ||
		    (n == 2 && p[0] == '.' && p[1] == '.')) {
			snprintf(why, why_len,
				 "a \".\" or \"..\" component in the path");
			return 0;
		}
		p += n;
		while (*p == '/') {
			p++;
		}
	}
	return 1;
}

static int fail_errno(int e, char *why, size_t why_len)
{
	if (e == ELOOP) {
		snprintf(why, why_len, "a symbolic link on the way");
	} else if (e == EXDEV) {
		snprintf(why, why_len, "leaves the folder");
	} else {
		snprintf(why, why_len, "%s", strerror(e));
	}
	return e == ENOENT ? HIL_ERR_NA : HIL_ERR_IO;
}

int hil_open_beneath_compat(int root_fd, const char *rel, int flags,
			    mode_t mode, char *why, size_t why_len)
{
	char comp[256];
	const char *p = rel;
	int dir = root_fd;
	int fd;

	if (!rel_ok(rel, why, why_len)) {
		return HIL_ERR_ARG;
	}
	for (;;) {
		size_t n = strcspn(p, "/");
		const char *next = p + n;

		while (*next == '/') {
			next++;
		}
		if (n >= sizeof(comp)) {
			if (dir != root_fd) {
				close(dir);
			}
			snprintf(why, why_len, "%s", strerror(ENAMETOOLONG));
			return HIL_ERR_IO;
		}
		memcpy(comp, p, n);
		comp[n] = '\0';
		if (*next == '\0') {
			/* The last component: a link there is ELOOP. */
			fd = openat(dir, comp,
				    flags | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY,
				    mode);
		} else {
			fd = openat(dir, comp,
				    O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					    O_CLOEXEC);
		}
		if (fd < 0) {
			int e = errno;

			if (dir != root_fd) {
				close(dir);
			}
			if (e == ENOTDIR && *next != '\0') {
				snprintf(
					why, why_len,
					"a symbolic link or a file on the way");
				return HIL_ERR_IO;
			}
			return fail_errno(e, why, why_len);
		}
		if (dir != root_fd) {
			close(dir);
		}
		if (*next == '\0') {
			return fd;
		}
		dir = fd;
		p = next;
	}
}

int hil_open_beneath_at(int root_fd, const char *rel, int flags, mode_t mode,
			char *why, size_t why_len)
{
	struct open_how how;
	long fd;

	if (!rel_ok(rel, why, why_len)) {
		return HIL_ERR_ARG;
	}
	memset(&how, 0, sizeof(how));
	how.flags = (unsigned long long)(flags | O_CLOEXEC | O_NOCTTY);
	how.mode = (flags & O_CREAT) ? mode : 0;
	how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS;
	fd = syscall(SYS_openat2, root_fd, rel, &how, sizeof(how));
	if (fd >= 0) {
		return (int)fd;
	}
	if (errno == ENOSYS || errno == EPERM) {
		/* No openat2 (an older kernel, or a seccomp filter that
		 * refuses it): the same rules one component at a time. */
		return hil_open_beneath_compat(root_fd, rel, flags, mode, why,
					       why_len);
	}
	return fail_errno(errno, why, why_len);
}

int hil_open_beneath(const char *root, const char *rel, int flags, char *why,
		     size_t why_len)
{
	int dir = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int fd;

	if (dir < 0) {
		return fail_errno(errno, why, why_len);
	}
	fd = hil_open_beneath_at(dir, rel, flags, 0, why, why_len);
	close(dir);
	return fd;
}

int hil_open_regular_beneath(int root_fd, const char *rel, char *why,
			     size_t why_len)
{
	struct stat st;
	int fd;

	fd = hil_open_beneath_at(root_fd, rel, O_RDONLY | O_NONBLOCK, 0, why,
				 why_len);
	if (fd < 0) {
		return fd;
	}
	if (fstat(fd, &st) != 0) {
		int e = errno;

		close(fd);
		return fail_errno(e, why, why_len);
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(why, why_len, "not a regular file (%s)",
			 hil_file_type_name(st.st_mode));
		close(fd);
		return HIL_ERR_IO;
	}
	if (fcntl(fd, F_SETFL, 0) != 0) {
		int e = errno;

		close(fd);
		return fail_errno(e, why, why_len);
	}
	return fd;
}

int hil_mkdirs_beneath(int root_fd, const char *rel, char *why, size_t why_len)
{
	char comp[256];
	const char *p = rel;
	int dir = root_fd;
	int fd;

	if (rel == NULL || rel[0] == '\0' || rel[0] == '/') {
		snprintf(why, why_len, "not a relative path");
		return HIL_ERR_ARG;
	}
	for (;;) {
		size_t n;

		while (*p == '/') {
			p++;
		}
		n = strcspn(p, "/");
		if (n == 0) {
			break;
		}
		if (n == 1 && p[0] == '.') {
			p += n;
			continue;
		}
		if ((n == 2 && p[0] == '.' && p[1] == '.') ||
		    n >= sizeof(comp)) {
			snprintf(why, why_len, "%.*s: %s", (int)(p + n - rel),
				 rel,
				 n == 2 ? "a \"..\" component"
					: strerror(ENAMETOOLONG));
			fd = HIL_ERR_ARG;
			goto fail;
		}
		memcpy(comp, p, n);
		comp[n] = '\0';
		if (mkdirat(dir, comp, 0777) != 0 && errno != EEXIST) {
			snprintf(why, why_len, "cannot create %.*s: %s",
				 (int)(p + n - rel), rel, strerror(errno));
			fd = HIL_ERR_IO;
			goto fail;
		}
		fd = openat(dir, comp,
			    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0) {
			int e = errno;

			snprintf(
				why, why_len, "%.*s: %s", (int)(p + n - rel),
				rel,
				e == ELOOP || e == ENOTDIR
					? "not a folder (a symbolic link or a file is there)"
					: strerror(e));
			fd = HIL_ERR_IO;
			goto fail;
		}
		if (dir != root_fd) {
			close(dir);
		}
		dir = fd;
		p += n;
	}
	if (dir == root_fd) {
		dir = openat(root_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dir < 0) {
			return fail_errno(errno, why, why_len);
		}
	}
	return dir;
fail:
	if (dir != root_fd) {
		close(dir);
	}
	return fd;
}
