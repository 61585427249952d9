/* snapshot: a user's implementation folder copied for its build (or only walked, to check it), regular files opened without following links, its links checked against what the configuration's load found, and, on request, links into allowed folders replaced by what they lead to. */
#define _XOPEN_SOURCE  700
#define HIL_LOG_PREFIX "build"

#include "snapshot.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/beneath.h"
#include "util/err.h"
#include "util/linkset.h"

/* As the load's check (config/config_implfiles.c). */
#define MAX_DEPTH	 8
#define MAX_ENTRIES	 20000
/* How deep an old copy may be to be removed (it lies in the build folder,
 * which a jailed compiler may write). */
#define MAX_REMOVE_DEPTH 64

struct snap {
	char base[PATH_MAX]; /* the real path of the folder copied */
	const struct hil_snapshot_follow *follow; /* NULL: links kept */
	int check_only;				  /* walk, write nothing */
	struct hil_linkset *links;
	size_t seen;
	char *why;
	size_t len;
};

static int fail(struct snap *s, int code, const char *rel, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(struct snap *s, int code, const char *rel, const char *fmt, ...)
{
	char text[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	snprintf(s->why, s->len, "%s%s%s", rel, rel[0] != '\0' ? ": " : "",
		 text);
	return code;
}

static int remove_at(int dir_fd, const char *name, int depth)
{
	struct stat st;
	struct dirent *e;
	DIR *d;
	int fd, ret = HIL_OK;

	if (fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
		return errno == ENOENT ? HIL_OK : HIL_ERR_IO;
	}
	if (!S_ISDIR(st.st_mode)) {
		return unlinkat(dir_fd, name, 0) == 0 || errno == ENOENT
			       ? HIL_OK
			       : HIL_ERR_IO;
	}
	if (depth > MAX_REMOVE_DEPTH) {
		return HIL_ERR_IO;
	}
	fd = openat(dir_fd, name,
		    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		return HIL_ERR_IO;
	}
	d = fdopendir(fd);
	if (d == NULL) {
		close(fd);
		return HIL_ERR_IO;
	}
	while (ret == HIL_OK && (e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") != 0 &&
		    strcmp(e->d_name, "..") != 0) {
			ret = remove_at(fd, e->d_name, depth + 1);
		}
	}
	closedir(d);
	if (ret == HIL_OK && unlinkat(dir_fd, name, AT_REMOVEDIR) != 0 &&
	    errno != ENOENT) {
		ret = HIL_ERR_IO;
	}
	return ret;
}

int hil_snapshot_remove_at(int dir_fd, const char *name)
{
	return remove_at(dir_fd, name, 0);
}

/* A regular file: its bytes, permissions and modification time; name
 * beneath sfd (no link on the way) copied to dname in dfd. */
static int copy_file(struct snap *s, int sfd, int dfd, const char *name,
		     const char *dname, const char *rel)
{
	struct timespec times[2];
	char ewhy[160], buf[65536];
	struct stat st;
	int in, out, ret = HIL_OK;
	ssize_t n;

	/* Opened beneath the folder, no link followed, only if regular: a
	 * file swapped since it was listed is refused, never read. */
	in = hil_open_regular_beneath(sfd, name, ewhy, sizeof(ewhy));
	if (in == HIL_ERR_NA) {
		return HIL_OK; /* removed since: nothing to build */
	}
	if (in < 0) {
		return fail(s, HIL_ERR_CONFIG, rel,
			    "changed since it was listed (%s)", ewhy);
	}
	if (fstat(in, &st) != 0) {
		close(in);
		return fail(s, HIL_ERR_IO, rel, "%s", strerror(errno));
	}
	if (s->check_only) {
		close(in);
		return HIL_OK;
	}
	out = openat(dfd, dname,
		     O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		     (st.st_mode & 0755) | 0600);
	if (out < 0) {
		ret = fail(s, HIL_ERR_IO, rel, "cannot copy: %s",
			   strerror(errno));
		close(in);
		return ret;
	}
	for (;;) {
		n = read(in, buf, sizeof(buf));
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n <= 0) {
			break;
		}
		if (write(out, buf, (size_t)n) != n) {
			n = -1;
			break;
		}
	}
	if (n < 0) {
		ret = fail(s, HIL_ERR_IO, rel, "cannot copy: %s",
			   strerror(errno));
	}
	/* The original's time: make rebuilds only what changed. */
	times[0] = st.st_atim;
	times[1] = st.st_mtim;
	if (ret == HIL_OK && futimens(out, times) != 0) {
		ret = fail(s, HIL_ERR_IO, rel, "cannot copy: %s",
			   strerror(errno));
	}
	if (close(out) != 0 && ret == HIL_OK) {
		ret = fail(s, HIL_ERR_IO, rel, "cannot copy: %s",
			   strerror(errno));
	}
	close(in);
	return ret;
}

static int copy_dir(struct snap *s, int sfd, int dfd, const char *src_dir,
		    const char *rel_dir, int depth);

/* Is real (a real path) path itself or inside it? */
static int inside(const char *real, const char *path)
{
	size_t n = strlen(path);

	while (n > 1 && path[n - 1] == '/') {
		n--;
	}
	if (n == 1 && path[0] == '/') {
		return 1;
	}
	return strncmp(real, path, n) == 0 &&
	       (real[n] == '/' || real[n] == '\0');
}

/*
 * A link leading out of the folder, into one of the allowed folders
 * (follow): what it leads to copied in its place, a regular file as a
 * file, a folder as a folder, each opened beneath the allowed folder
 * without following a link on the way (something swapped since the link
 * was resolved is refused, never read). Outside every allowed folder:
 * refused, naming the link and where it leads.
 */
static int follow_link(struct snap *s, int dfd, const char *name,
		       const char *rel, int depth, const char *real,
		       const struct stat *st)
{
	const struct hil_snapshot_follow *f = s->follow;
	char ewhy[160];
	const char *root = NULL, *sub;
	size_t i;
	int rfd, ret;

	for (i = 0; i < f->n_roots && root == NULL; i++) {
		if (f->roots[i] != NULL && f->roots[i][0] == '/' &&
		    inside(real, f->roots[i])) {
			root = f->roots[i];
		}
	}
	if (root == NULL) {
		return fail(
			s, HIL_ERR_CONFIG, rel,
			"a link to %s, outside the folder and every folder the configuration lets links lead into (%s)",
			real, f->allowed != NULL ? f->allowed : "none");
	}
	sub = real + strlen(root);
	while (*sub == '/') {
		sub++;
	}
	rfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rfd < 0) {
		return fail(s, HIL_ERR_IO, rel, "%s: %s", root,
			    strerror(errno));
	}
	if (S_ISREG(st->st_mode)) {
		ret = copy_file(s, rfd, dfd, sub, name, rel);
		close(rfd);
		return ret;
	}
	{
		int nsfd, ndfd = -1;

		if (sub[0] == '\0') {
			nsfd = rfd; /* the allowed folder itself */
		} else {
			nsfd = hil_open_beneath_at(rfd, sub,
						   O_RDONLY | O_DIRECTORY, 0,
						   ewhy, sizeof(ewhy));
			close(rfd);
		}
		if (nsfd < 0) {
			return fail(s, HIL_ERR_CONFIG, rel,
				    "a link to %s: changed since it was "
				    "listed (%s)",
				    real, ewhy);
		}
		if (!s->check_only &&
		    (mkdirat(dfd, name, 0755) != 0 ||
		     (ndfd = openat(dfd, name,
				    O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					    O_CLOEXEC)) < 0)) {
			close(nsfd);
			return fail(s, HIL_ERR_IO, rel, "cannot copy: %s",
				    strerror(errno));
		}
		ret = copy_dir(s, nsfd, ndfd, real, rel, depth + 1);
		if (ndfd >= 0) {
			close(ndfd);
		}
		close(nsfd);
		return ret;
	}
}

/*
 * A link: where it leads is noted for the comparison with the check; it is
 * made again leading to the copy of its target when that lies inside the
 * folder (depth: how many folders rel is below the top; src_dir: the real
 * path of the folder the link is in); outside, a link
 * to the real path, or, with s->follow, what it leads to (follow_link); a
 * link leading nowhere is left out.
 */
static int copy_link(struct snap *s, int dfd, const char *src_dir,
		     const char *name, const char *rel, int depth)
{
	char path[2 * PATH_MAX], real[PATH_MAX], text[PATH_MAX + 3 * MAX_DEPTH];
	struct stat st;
	size_t n = strlen(s->base), o = 0;
	int i;

	snprintf(path, sizeof(path), "%s/%s", src_dir, name);
	if (stat(path, &st) != 0 || realpath(path, real) == NULL) {
		return hil_linkset_add(s->links, rel, "") == HIL_OK
			       ? HIL_OK
			       : fail(s, HIL_ERR_NOMEM, rel, "out of memory");
	}
	if (hil_linkset_add(s->links, rel, real) != HIL_OK) {
		return fail(s, HIL_ERR_NOMEM, rel, "out of memory");
	}
	if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
		return fail(
			s, HIL_ERR_CONFIG, rel,
			"a link to %s: an implementation folder holds regular files and folders only",
			hil_file_type_name(st.st_mode));
	}
	if (strncmp(real, s->base, n) == 0 &&
	    (real[n] == '/' || real[n] == '\0')) {
		for (i = 0; i < depth; i++) {
			o += (size_t)snprintf(text + o, sizeof(text) - o, "%s",
					      i > 0 ? "/.." : "..");
		}
		if (real[n] == '/') {
			snprintf(text + o, sizeof(text) - o, "%s%s",
				 o > 0 ? "/" : "", real + n + 1);
		} else if (o == 0) {
			snprintf(text, sizeof(text), ".");
		}
	} else if (s->follow != NULL) {
		return follow_link(s, dfd, name, rel, depth, real, &st);
	} else {
		snprintf(text, sizeof(text), "%s", real);
	}
	if (s->check_only) {
		return HIL_OK;
	}
	if (symlinkat(text, dfd, name) != 0) {
		return fail(s, HIL_ERR_IO, rel, "cannot make its link: %s",
			    strerror(errno));
	}
	return HIL_OK;
}

/* The folder sfd (at the real path src_dir) into dfd (-1 when only
 * checking); rel_dir: its path in the copy. */
static int copy_dir(struct snap *s, int sfd, int dfd, const char *src_dir,
		    const char *rel_dir, int depth)
{
	struct dirent *e;
	DIR *d;
	int fd, ret = HIL_OK;

	if (depth > MAX_DEPTH) {
		return fail(s, HIL_ERR_CONFIG, rel_dir,
			    "folders nested more than %d deep", MAX_DEPTH);
	}
	fd = dup(sfd);
	d = fd >= 0 ? fdopendir(fd) : NULL;
	if (d == NULL) {
		if (fd >= 0) {
			close(fd);
		}
		return fail(s, HIL_ERR_IO, rel_dir, "cannot be read: %s",
			    strerror(errno));
	}
	while (ret == HIL_OK && (e = readdir(d)) != NULL) {
		char rel[PATH_MAX];
		struct stat st;

		if (strcmp(e->d_name, ".") == 0 ||
		    strcmp(e->d_name, "..") == 0) {
			continue;
		}
		snprintf(rel, sizeof(rel), "%s%s%s", rel_dir,
			 rel_dir[0] != '\0' ? "/" : "", e->d_name);
		if (++s->seen > MAX_ENTRIES) {
			ret = fail(s, HIL_ERR_CONFIG, rel_dir,
				   "more than %d files and folders",
				   MAX_ENTRIES);
			break;
		}
		if (fstatat(sfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
			if (errno != ENOENT) {
				ret = fail(s, HIL_ERR_IO, rel, "%s",
					   strerror(errno));
			}
			continue;
		}
		if (S_ISREG(st.st_mode)) {
			ret = copy_file(s, sfd, dfd, e->d_name, e->d_name, rel);
		} else if (S_ISLNK(st.st_mode)) {
			ret = copy_link(s, dfd, src_dir, e->d_name, rel, depth);
		} else if (S_ISDIR(st.st_mode)) {
			char sub[PATH_MAX];
			int nsfd, ndfd = -1;

			nsfd = openat(sfd, e->d_name,
				      O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					      O_CLOEXEC);
			if (nsfd < 0) {
				ret = fail(s, HIL_ERR_CONFIG, rel,
					   "changed since it was listed (%s)",
					   errno == ELOOP || errno == ENOTDIR
						   ? "not a folder now"
						   : strerror(errno));
				break;
			}
			if (!s->check_only &&
			    (mkdirat(dfd, e->d_name, 0755) != 0 ||
			     (ndfd = openat(dfd, e->d_name,
					    O_RDONLY | O_DIRECTORY |
						    O_NOFOLLOW | O_CLOEXEC)) <
				     0)) {
				ret = fail(s, HIL_ERR_IO, rel,
					   "cannot copy: %s", strerror(errno));
				close(nsfd);
				break;
			}
			snprintf(sub, sizeof(sub), "%s/%s", src_dir, e->d_name);
			ret = copy_dir(s, nsfd, ndfd, sub, rel, depth + 1);
			if (ndfd >= 0) {
				close(ndfd);
			}
			close(nsfd);
		} else {
			ret = fail(
				s, HIL_ERR_CONFIG, rel,
				"%s: an implementation folder holds regular files and folders only",
				hil_file_type_name(st.st_mode));
		}
	}
	closedir(d);
	return ret;
}

int hil_snapshot_copy(const char *src, const char *dst,
		      const unsigned char *links, char *why, size_t len)
{
	return hil_snapshot_copy_ex(src, dst, links, NULL, why, len);
}

int hil_snapshot_check(const char *src,
		       const struct hil_snapshot_follow *follow,
		       unsigned char links[HIL_LINKSET_DIGEST], char *why,
		       size_t len)
{
	struct snap s;
	int sfd, ret;

	memset(&s, 0, sizeof(s));
	s.why = why;
	s.len = len;
	s.follow = follow;
	s.check_only = 1;
	if (realpath(src, s.base) == NULL) {
		snprintf(why, len, "%s: %s", src, strerror(errno));
		return HIL_ERR_CONFIG;
	}
	ret = hil_linkset_new(&s.links);
	if (ret != HIL_OK) {
		snprintf(why, len, "out of memory");
		return ret;
	}
	sfd = open(s.base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (sfd < 0) {
		snprintf(why, len, "%s: %s", s.base, strerror(errno));
		hil_linkset_free(s.links);
		return HIL_ERR_IO;
	}
	ret = copy_dir(&s, sfd, -1, s.base, "", 0);
	if (ret == HIL_OK) {
		hil_linkset_digest(s.links, links);
	}
	close(sfd);
	hil_linkset_free(s.links);
	return ret;
}

int hil_snapshot_copy_ex(const char *src, const char *dst,
			 const unsigned char *links,
			 const struct hil_snapshot_follow *follow, char *why,
			 size_t len)
{
	unsigned char got[HIL_LINKSET_DIGEST];
	struct snap s;
	char parent[PATH_MAX];
	const char *name;
	char *slash;
	int pfd = -1, sfd = -1, dfd = -1, ret;

	memset(&s, 0, sizeof(s));
	s.why = why;
	s.len = len;
	s.follow = follow;
	if (realpath(src, s.base) == NULL) {
		snprintf(why, len, "%s: %s", src, strerror(errno));
		return HIL_ERR_CONFIG;
	}
	snprintf(parent, sizeof(parent), "%s", dst);
	slash = strrchr(parent, '/');
	if (slash == NULL || slash[1] == '\0') {
		snprintf(why, len, "%s: not a path to copy into", dst);
		return HIL_ERR_ARG;
	}
	name = dst + (slash - parent) + 1;
	if (slash == parent) {
		slash[1] = '\0';
	} else {
		*slash = '\0';
	}
	ret = hil_linkset_new(&s.links);
	if (ret != HIL_OK) {
		snprintf(why, len, "out of memory");
		return ret;
	}
	sfd = open(s.base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	pfd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (sfd < 0 || pfd < 0) {
		snprintf(why, len, "%s: %s", sfd < 0 ? s.base : parent,
			 strerror(errno));
		ret = HIL_ERR_IO;
		goto out;
	}
	if (hil_snapshot_remove_at(pfd, name) != HIL_OK ||
	    mkdirat(pfd, name, 0755) != 0 ||
	    (dfd = openat(pfd, name,
			  O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) <
		    0) {
		snprintf(why, len, "%s: cannot make it afresh: %s", dst,
			 strerror(errno));
		ret = HIL_ERR_IO;
		goto out;
	}
	ret = copy_dir(&s, sfd, dfd, s.base, "", 0);
	if (ret == HIL_OK && links != NULL) {
		hil_linkset_digest(s.links, got);
		if (memcmp(got, links, sizeof(got)) != 0) {
			snprintf(
				why, len,
				"its symbolic links are not those the configuration's check found (a file swapped for a link, or a link added, removed or leading elsewhere since)");
			ret = HIL_ERR_CONFIG;
		}
	}
	if (ret != HIL_OK) {
		/* Nothing half-copied, or copied from a changed folder, is
		 * left to build. */
		close(dfd);
		dfd = -1;
		hil_snapshot_remove_at(pfd, name);
	}
out:
	if (dfd >= 0) {
		close(dfd);
	}
	if (pfd >= 0) {
		close(pfd);
	}
	if (sfd >= 0) {
		close(sfd);
	}
	hil_linkset_free(s.links);
	return ret;
}
