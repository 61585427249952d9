/* journal: the rows of a run read back from its journal.jsonl, for --resume. */
#define _XOPEN_SOURCE  700
#define HIL_LOG_PREFIX "journal"
#include "journal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "util/err.h"
#include "util/log.h"
#include "image/refcrypto/refcrypto.h"
#include "result/rowcodec.h"
#include "util/util.h"

/*
 * The mount point of the file system holding path: the last directory, going
 * up from path's own, that is on the same device. Into out; "" if unknown.
 */
static void mount_point(const char *path, char *out, size_t len)
{
	char dir[4096];
	struct stat st, up;
	char *slash;

	out[0] = '\0';
	if (realpath(path, dir) == NULL) {
		/* The file may not exist (a failed create): its folder. */
		char parent[4096];

		snprintf(parent, sizeof(parent), "%s", path);
		slash = strrchr(parent, '/');
		if (slash == NULL) {
			snprintf(parent, sizeof(parent), ".");
		} else if (slash == parent) {
			parent[1] = '\0';
		} else {
			*slash = '\0';
		}
		if (realpath(parent, dir) == NULL) {
			return;
		}
	}
	if (stat(dir, &st) != 0) {
		return;
	}
	for (;;) {
		slash = strrchr(dir, '/');
		if (slash == NULL || strcmp(dir, "/") == 0) {
			break;
		}
		if (slash == dir) {
			if (stat("/", &up) != 0 || up.st_dev != st.st_dev) {
				break;
			}
			dir[1] = '\0';
			break;
		}
		*slash = '\0';
		if (stat(dir, &up) != 0 || up.st_dev != st.st_dev) {
			*slash = '/';
			break;
		}
	}
	snprintf(out, len, "%s", dir);
}

void hil_journal_fs_error(const char *what, const char *path, int err,
			  int resumable)
{
	char mnt[4096];
	struct statvfs vfs;
	char space[96] = "";
	int full = err == ENOSPC || err == EDQUOT;

	mount_point(path, mnt, sizeof(mnt));
	if (mnt[0] != '\0' && statvfs(mnt, &vfs) == 0) {
		snprintf(space, sizeof(space), " (%llu KiB free of %llu KiB)",
			 (unsigned long long)vfs.f_bavail * vfs.f_frsize /
				 1024u,
			 (unsigned long long)vfs.f_blocks * vfs.f_frsize /
				 1024u);
		/* The caller's errno may have been overwritten on the way
		 * (a temporary file removed): no space left says it too. */
		full = full || vfs.f_bavail == 0;
	}
	hil_err("%s %s cannot be written: the file system mounted at %s%s %s: measuring stops; %s",
		what, path, mnt[0] ? mnt : "(unknown)", space,
		full ? "is full" : strerror(err),
		resumable
			? "every row measured is in the journal; free space, then run hilrun --resume on the run folder"
			: "nothing was measured; free space, then run again");
}

int hil_journal_append(int fd, const char *path, const char *line, size_t len)
{
	off_t end = lseek(fd, 0, SEEK_END);
	size_t done = 0;
	int err = 0;

	while (done < len) {
		ssize_t n = write(fd, line + done, len - done);

		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n <= 0) {
			err = n < 0 ? errno : ENOSPC;
			break;
		}
		done += (size_t)n;
	}
	if (err == 0 && fsync(fd) != 0) {
		err = errno;
	}
	if (err == 0) {
		return HIL_OK;
	}
	/* No partial line: cut back what this call wrote (which also gives
	 * the space back). */
	if (end >= 0 && ftruncate(fd, end) != 0) {
		hil_warn("%s: cannot cut back a partial line: %s", path,
			 strerror(errno));
	}
	hil_journal_fs_error("the journal", path, err, 1);
	return HIL_ERR_IO;
}

const char *hil_journal_op(const char *name)
{
	return hil_result_op(name);
}

/* One journal line into row; 0 when it is not a usable measured row (of
 * another image, not measured, or damaged), -1 out of memory. */
static int parse_row(const cJSON *o, const char *build_id, struct hil_row *r)
{
	const struct registry_alg *ref;
	int got = hil_result_row_read(o, r);

	if (got <= 0 || !r->ok || strcmp(r->build_id, build_id) != 0) {
		free(r->samples);
		free(r->model.samples);
		r->samples = NULL;
		r->model.samples = NULL;
		return got < 0 ? -1 : 0;
	}
	/* The mode and claim come from this hilrun's registry, as when
	 * measured; an external implementation has its reference's mode. */
	ref = hil_ref_find(r->algorithm, r->implementation);
	if (ref == NULL) {
		ref = hil_ref_find(r->algorithm, NULL);
	}
	r->mode = ref != NULL ? ref->mode : "";
	r->constant_time = ref != NULL ? ref->constant_time : -1;
	return 1;
}

/*
 * Whether a journal could only have been written by hilrun's own user: the
 * file and its run folder ours, neither writable by the group or others,
 * the file regular and not a link. Rows are measurements taken on trust:
 * a journal another user could write (a results folder made under a
 * umask of 000 or 002) is not resumed. @return 1 trusted; 0 not (logged).
 */
static int journal_ours(const char *path, int fd)
{
	char dir[4096];
	struct stat st, ds;
	char *slash;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (slash != NULL) {
		*slash = '\0';
	} else {
		snprintf(dir, sizeof(dir), ".");
	}
	if (fstat(fd, &st) != 0 || stat(dir, &ds) != 0) {
		return 0;
	}
	if (!S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & 022) != 0 || ds.st_uid != geteuid() ||
	    (ds.st_mode & 022) != 0) {
		hil_warn(
			"%s: not resumed: the journal or its folder %s (mode %03o and %03o, owners %ld and %ld): rows another user could have written are measured again",
			path,
			st.st_uid != geteuid() || ds.st_uid != geteuid()
				? "belongs to another user"
				: "is writable by others",
			(unsigned)(st.st_mode & 0777),
			(unsigned)(ds.st_mode & 0777), (long)st.st_uid,
			(long)ds.st_uid);
		return 0;
	}
	return 1;
}

int hil_journal_load(const char *path, const char *build_id,
		     struct hil_row **rows, size_t *n)
{
	char *text = NULL;
	char *line;
	char *save = NULL;
	size_t cap = 0;
	size_t skipped = 0;
	int ret = HIL_OK;
	int fd;

	*rows = NULL;
	*n = 0;
	/* Never through a link, never blocking on a FIFO. */
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		if (errno != ENOENT) {
			hil_warn("%s: not resumed: %s", path,
				 errno == ELOOP ? "a symbolic link"
						: strerror(errno));
		}
		return HIL_OK; /* no journal: nothing to resume */
	}
	if (!journal_ours(path, fd) || fcntl(fd, F_SETFL, 0) != 0 ||
	    hil_read_fd(fd, HIL_READ_MAX, &text, NULL) != HIL_OK) {
		close(fd);
		return HIL_OK;
	}
	close(fd);
	for (line = strtok_r(text, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		cJSON *o = cJSON_Parse(line);
		struct hil_row r;
		int got;

		if (o == NULL) {
			skipped++; /* a line cut short by a crash */
			continue;
		}
		got = parse_row(o, build_id, &r);
		cJSON_Delete(o);
		if (got < 0) {
			ret = HIL_ERR_NOMEM;
			break;
		}
		if (got == 0) {
			skipped++;
			continue;
		}
		if (*n == cap) {
			size_t nc = cap ? cap * 2 : 16;
			struct hil_row *nr = realloc(*rows, nc * sizeof(*nr));

			if (nr == NULL) {
				free(r.samples);
				ret = HIL_ERR_NOMEM;
				break;
			}
			*rows = nr;
			cap = nc;
		}
		(*rows)[(*n)++] = r;
	}
	free(text);
	if (ret != HIL_OK) {
		hil_journal_free(*rows, *n);
		*rows = NULL;
		*n = 0;
		return ret;
	}
	hil_info(
		"%s: %zu measured row%s to keep, %zu line%s skipped (other image, failed or damaged)",
		path, *n, *n == 1 ? "" : "s", skipped, skipped == 1 ? "" : "s");
	return HIL_OK;
}

void hil_journal_free(struct hil_row *rows, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(rows[i].samples);
		free(rows[i].model.samples);
	}
	free(rows);
}
