/* pqsnap: the copies a pq run builds from: each scheme and common folder of a plan checked when the configuration is loaded, then copied into the run's build folder, a link followed only into a folder the configuration allows. */
#define _XOPEN_SOURCE 700

#include "pqsnap.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pq/pqentries.h"
#include "pqflags.h"
#include "snapshot.h"
#include "util/err.h"
#include "util/util.h"

#define MAX_ROOTS (3 * HIL_PQ_MAX_COMMON + HIL_PQ_MAX_DIRS)

/* The folders a link of one folder may lead into, as real paths. */
struct roots {
	char path[MAX_ROOTS][PATH_MAX];
	const char *ptr[MAX_ROOTS];
	char allowed[3 * HIL_PQ_MAX_COMMON * (PATH_MAX + 16) + 64];
	struct hil_snapshot_follow follow;
};

/* what: how the refusal names it (NULL: not named one by one). */
static void add_root(struct roots *r, const char *path, const char *what)
{
	size_t n = r->follow.n_roots, o = strlen(r->allowed);

	if (n == MAX_ROOTS || realpath(path, r->path[n]) == NULL) {
		return;
	}
	r->ptr[n] = r->path[n];
	r->follow.n_roots = n + 1;
	if (what != NULL) {
		snprintf(r->allowed + o, sizeof(r->allowed) - o, "%s%s %s",
			 o > 0 ? ", " : "", what, r->path[n]);
	}
}

/* within: the bits of plan->within allowed (~0u: all). */
static void roots_of(const struct hil_pq_plan *plan, unsigned within,
		     struct roots *r)
{
	size_t i;

	memset(&r->follow, 0, sizeof(r->follow));
	r->allowed[0] = '\0';
	/* The run's scheme folders (built anyway: a link into one shows
	 * nothing more; pqm4's m4fstack folders link to their m4fspeed). */
	for (i = 0; i < plan->n_dirs; i++) {
		add_root(r, plan->dirs[i], NULL);
	}
	snprintf(r->allowed, sizeof(r->allowed),
		 "the run's %zu scheme "
		 "folder%s",
		 plan->n_dirs, plan->n_dirs == 1 ? "" : "s");
	for (i = 0; i < plan->n_common; i++) {
		add_root(r, plan->common[i], "common");
	}
	for (i = 0; i < plan->n_host_common; i++) {
		add_root(r, plan->host_common[i], "host_common");
	}
	for (i = 0; i < plan->n_within; i++) {
		if ((within & (1u << i)) != 0) {
			add_root(r, plan->within[i], "links_within");
		}
	}
	r->follow.roots = r->ptr;
	r->follow.allowed = r->allowed;
}

int hil_pq_plan_check(struct hil_pq_plan *plan, char *err, size_t len)
{
	struct roots *r = malloc(sizeof(*r));
	char why[PATH_MAX + 1024];
	size_t i;
	int ret = HIL_OK;

	if (r == NULL) {
		snprintf(err, len, "out of memory");
		return HIL_ERR_NOMEM;
	}
	for (i = 0; ret == HIL_OK && i < plan->n_dirs; i++) {
		roots_of(plan, plan->dir_within[i], r);
		ret = hil_snapshot_check(plan->dirs[i], &r->follow,
					 plan->dir_links[i], why, sizeof(why));
		if (ret != HIL_OK) {
			snprintf(err, len, "algorithms: %s: %s", plan->dirs[i],
				 why);
		}
	}
	roots_of(plan, ~0u, r);
	for (i = 0; ret == HIL_OK && i < plan->n_common; i++) {
		ret = hil_snapshot_check(plan->common[i], &r->follow,
					 plan->common_links[i], why,
					 sizeof(why));
		if (ret != HIL_OK) {
			snprintf(err, len, "common: %s: %s", plan->common[i],
				 why);
		}
	}
	for (i = 0; ret == HIL_OK && i < plan->n_host_common; i++) {
		ret = hil_snapshot_check(plan->host_common[i], &r->follow,
					 plan->host_links[i], why, sizeof(why));
		if (ret != HIL_OK) {
			snprintf(err, len, "host_common: %s: %s",
				 plan->host_common[i], why);
		}
	}
	free(r);
	return ret;
}

/* The last n path parts of path (no trailing '/'). */
static const char *tail(const char *path, int n)
{
	size_t l = strlen(path);

	while (l > 1 && path[l - 1] == '/') {
		l--;
	}
	while (l > 0) {
		if (path[l - 1] == '/' && --n == 0) {
			return path + l;
		}
		l--;
	}
	return path;
}

/* src copied to dst (its parents made), dst noted in out. */
static int copy_one(const char *what, const char *src, const char *dst,
		    const unsigned char *links,
		    const struct hil_snapshot_follow *follow, char *out,
		    char *err, size_t len)
{
	char parent[HIL_PQ_PATH], why[PATH_MAX + 1024];
	char *slash;
	int ret;

	snprintf(parent, sizeof(parent), "%s", dst);
	slash = strrchr(parent, '/');
	if (slash != NULL) {
		*slash = '\0';
	}
	if (hil_mkdirs(parent) != HIL_OK) {
		snprintf(err, len, "%s: cannot be made", parent);
		return HIL_ERR_IO;
	}
	ret = hil_snapshot_copy_ex(src, dst, links, follow, why, sizeof(why));
	if (ret != HIL_OK) {
		snprintf(err, len, "%s: %s: %s: not copied, so not built", what,
			 src, why);
		return ret;
	}
	snprintf(out, HIL_PQ_PATH, "%s", dst);
	return HIL_OK;
}

int hil_pq_plan_snapshot(const struct hil_pq_plan *plan, const char *build,
			 struct hil_pq_plan *copy, char *err, size_t len)
{
	struct roots *r = malloc(sizeof(*r));
	char dst[HIL_PQ_PATH + 64], src[HIL_PQ_PATH];
	size_t i;
	int bfd, ret = HIL_OK;

	if (r == NULL) {
		snprintf(err, len, "out of memory");
		return HIL_ERR_NOMEM;
	}
	*copy = *plan;
	/* Copies of an earlier run into the same folder are not kept: only
	 * this plan's folders are there to build. */
	bfd = open(build, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (bfd < 0 || hil_snapshot_remove_at(bfd, "src") != HIL_OK) {
		snprintf(err, len, "%s/src: cannot be made afresh", build);
		if (bfd >= 0) {
			close(bfd);
		}
		free(r);
		return HIL_ERR_IO;
	}
	close(bfd);
	for (i = 0; ret == HIL_OK && i < plan->n_dirs; i++) {
		roots_of(plan, plan->dir_within[i], r);
		snprintf(src, sizeof(src), "%s", plan->dirs[i]);
		snprintf(dst, sizeof(dst), "%s/src/%02zu/%s", build, i,
			 tail(src, 2));
		ret = copy_one("algorithms", src, dst, plan->dir_links[i],
			       &r->follow, copy->dirs[i], err, len);
	}
	roots_of(plan, ~0u, r);
	for (i = 0; ret == HIL_OK && i < plan->n_common; i++) {
		snprintf(dst, sizeof(dst), "%s/src/common/%02zu/%s", build, i,
			 tail(plan->common[i], 1));
		ret = copy_one("common", plan->common[i], dst,
			       plan->common_links[i], &r->follow,
			       copy->common[i], err, len);
	}
	for (i = 0; ret == HIL_OK && i < plan->n_host_common; i++) {
		snprintf(dst, sizeof(dst), "%s/src/host/%02zu/%s", build, i,
			 tail(plan->host_common[i], 1));
		ret = copy_one("host_common", plan->host_common[i], dst,
			       plan->host_links[i], &r->follow,
			       copy->host_common[i], err, len);
	}
	free(r);
	/* What each copy's config.mk adds to its build (pqflags.h), read
	 * from the copy: what is built is what was read. */
	if (ret == HIL_OK) {
		snprintf(dst, sizeof(dst), "%s/src/" HIL_PQ_FLAGS_FILE, build);
		ret = hil_pq_flags_write(copy, dst, err, len);
	}
	return ret;
}
