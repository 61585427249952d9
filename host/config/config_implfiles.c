/* config_implfiles: what an implementation folder may hold: regular files and folders only, and, for a lab job, no link leading out of the lab's roots. */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "util/beneath.h"
#include "util/err.h"
#include "util/linkset.h"

#include "config/config_int.h"
#include "config/jsonld.h"

/* A folder deeper than this, or more entries than this, is not a source
 * folder: refused rather than walked for ever. */
#define MAX_DEPTH   8
#define MAX_ENTRIES 20000

/*
 * Whether a file or folder name is plain: letters, digits and . _ + , @ ~ -.
 * The build copies a folder and hands its names to make, whose rules and
 * dependency files read them as make syntax: a ";" or a "$" in a name
 * would be a recipe or an expansion run by make (inside the build jail,
 * but never by design). No NIST LWC or pqm4 folder has another character.
 * @return NULL when plain, else the first other character's position.
 */
static const char *name_unplain(const char *name)
{
	static const char extra[] = "._+,@~-";

	for (; *name != '\0'; name++) {
		unsigned char c = (unsigned char)*name;

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || strchr(extra, c) != NULL)) {
			return name;
		}
	}
	return NULL;
}

struct walk {
	struct hil_jsonld *ld;
	const cJSON *at;	   /* the "algorithms" entry, for the message */
	unsigned entry;		   /* its index */
	size_t seen;		   /* entries looked at */
	struct hil_linkset *links; /* every link met, for the build's copy */
	char bad[PATH_MAX];	   /* the entry at fault */
	char why[PATH_MAX + 64];
};

/*
 * Every entry of dir, not following links: a regular file or a folder (a
 * folder walked in turn); a link only to one of those, and, with roots (a
 * lab job), only to one inside the roots. A FIFO, a device or a socket is
 * refused at once, wherever it is: the compiler would block on it (make
 * held for its whole timeout) or read a device. @return 1 fine, 0 not.
 */
static int walk_dir(struct walk *w, const char *dir, const char *rel_dir,
		    int depth)
{
	struct dirent *e;
	DIR *d;
	int ok = 1;

	if (depth > MAX_DEPTH) {
		snprintf(w->bad, sizeof(w->bad), "%s", dir);
		snprintf(w->why, sizeof(w->why),
			 "folders nested more than %d deep", MAX_DEPTH);
		return 0;
	}
	d = opendir(dir);
	if (d == NULL) {
		snprintf(w->bad, sizeof(w->bad), "%s", dir);
		snprintf(w->why, sizeof(w->why), "cannot be read: %s",
			 strerror(errno));
		return 0;
	}
	while (ok && (e = readdir(d)) != NULL) {
		char path[PATH_MAX], rel[PATH_MAX];
		struct stat st;

		if (strcmp(e->d_name, ".") == 0 ||
		    strcmp(e->d_name, "..") == 0) {
			continue;
		}
		if (++w->seen > MAX_ENTRIES) {
			snprintf(w->bad, sizeof(w->bad), "%s", dir);
			snprintf(w->why, sizeof(w->why),
				 "more than %d files and folders", MAX_ENTRIES);
			ok = 0;
			break;
		}
		if (name_unplain(e->d_name) != NULL) {
			unsigned char c =
				(unsigned char)*name_unplain(e->d_name);

			snprintf(w->bad, sizeof(w->bad), "%s/%s", dir,
				 e->d_name);
			snprintf(
				w->why, sizeof(w->why),
				(c >= 0x21 && c < 0x7f)
					? "a name with '%c' in it: names in an implementation folder are letters, digits and . _ + , @ ~ - only (make reads them)"
					: "a name with byte 0x%02x in it: names in an implementation folder are letters, digits and . _ + , @ ~ - only (make reads them)",
				c);
			ok = 0;
			break;
		}
		/* rel: its path inside the implementation folder. */
		snprintf(rel, sizeof(rel), "%s%s%s", rel_dir,
			 rel_dir[0] != '\0' ? "/" : "", e->d_name);
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir,
				     e->d_name) >= sizeof(path) ||
		    fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) !=
			    0) {
			continue;
		}
		if (S_ISLNK(st.st_mode)) {
			char real[PATH_MAX];

			if (stat(path, &st) != 0 ||
			    realpath(path, real) == NULL) {
				/* Dangling: nothing to read, but it must
				 * lead nowhere still when the folder is
				 * copied to be built. */
				if (hil_linkset_add(w->links, rel, "") !=
				    HIL_OK) {
					snprintf(w->bad, sizeof(w->bad), "%s",
						 path);
					snprintf(w->why, sizeof(w->why),
						 "out of memory");
					ok = 0;
					break;
				}
				continue;
			}
			if (hil_linkset_add(w->links, rel, real) != HIL_OK) {
				snprintf(w->bad, sizeof(w->bad), "%s", path);
				snprintf(w->why, sizeof(w->why),
					 "out of memory");
				ok = 0;
				break;
			}
			if (!hil_jsonld_within_roots(w->ld, real)) {
				snprintf(w->bad, sizeof(w->bad), "%s", path);
				snprintf(
					w->why, sizeof(w->why),
					"a link leading outside the lab's roots (to %s)",
					real);
				ok = 0;
				break;
			}
			if (S_ISDIR(st.st_mode)) {
				/* A linked folder (pqm4 shares code this
				 * way) is not walked: a link back up would
				 * loop, and what it leads to lies in the
				 * roots, which only the lab writes. */
				continue;
			}
		}
		if (S_ISDIR(st.st_mode)) {
			ok = walk_dir(w, path, rel, depth + 1);
		} else if (!S_ISREG(st.st_mode)) {
			snprintf(w->bad, sizeof(w->bad), "%s", path);
			snprintf(
				w->why, sizeof(w->why),
				"%s: an implementation folder holds regular files and folders only",
				hil_file_type_name(st.st_mode));
			ok = 0;
		}
	}
	closedir(d);
	return ok;
}

int hil_cfg_v_impl_files(struct hil_jsonld *ld, const cJSON *root,
			 struct hil_config *cfg)
{
	const cJSON *algs = hil_jsonld_member(root, "algorithms");
	struct walk w;
	size_t i;

	for (i = 0; i < cfg->n_algs; i++) {
		const struct hil_config_alg *a = &cfg->algs[i];

		if (a->path[0] == '\0') {
			continue;
		}
		memset(&w, 0, sizeof(w));
		w.ld = ld;
		w.entry = a->entry;
		w.at = cJSON_GetArrayItem(algs, (int)a->entry);
		/* A tree's folder may itself be a link out of the roots
		 * (a "path" is checked as it is loaded). */
		if (!hil_jsonld_within_roots(ld, a->path)) {
			char roots[512];

			hil_jsonld_roots_text(ld, roots, sizeof(roots));
			return hil_jsonld_fail(
				ld, w.at,
				"algorithms[%u]: %s is outside %s (a link leading out of the roots)",
				a->entry, a->path, roots);
		}
		if (hil_linkset_new(&w.links) != HIL_OK) {
			return HIL_ERR_NOMEM;
		}
		if (!walk_dir(&w, a->path, "", 0)) {
			hil_linkset_free(w.links);
			return hil_jsonld_fail(ld, w.at,
					       "algorithms[%u]: %s: %s",
					       a->entry, w.bad, w.why);
		}
		/* What the build's copy of the folder must find again
		 * (image/snapshot.c): the check holds for what is built. */
		hil_linkset_digest(w.links, cfg->algs[i].links);
		cfg->algs[i].links_checked = 1;
		hil_linkset_free(w.links);
	}
	return HIL_OK;
}
