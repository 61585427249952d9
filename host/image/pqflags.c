/* pqflags: a pqm4 folder's config.mk read to the subset hilrun takes (lines adding flags to the folder's own build, each flag through the compiler-flag allowlist), never run as make. */
#define _XOPEN_SOURCE 700

#include "pqflags.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/cflags.h"
#include "config/config.h"
#include "pq/pqentries.h"
#include "util/err.h"
#include "util/util.h"

/* A config.mk is a line or two; anything near this is not one. */
#define MAX_FILE (64u * 1024u)
#define MAX_LINE 4096

/* (a reason is short: "Not run" holds 200 characters) */
#define WHAT_WE_READ "hilrun reads only \"[TARGET:] CPPFLAGS|CFLAGS += FLAGS\""

/* The reader's state over one file. */
struct reader {
	const char *dir;  /* the folder read (the copy) */
	char scheme[256]; /* its last two path parts */
	char impl[256];
	char real[PATH_MAX];	/* the folder's real path (-I stays inside) */
	struct hil_config *cfg; /* algs[0]: the folder, for -I's check */
	struct hil_pq_flags *out;
	unsigned line;	  /* of the line being read (its first) */
	char quoted[160]; /* that line, printable, for messages */
};

/* Refuse the folder: why, naming the file and the line. */
static void refuse(struct reader *r, const char *why)
{
	snprintf(r->out->why, sizeof(r->out->why),
		 "config.mk line %u: \"%s\": %s", r->line, r->quoted, why);
	r->out->refused = 1;
}

/* Refuse the folder for one flag (or word) of the line. */
static void refuse_flag(struct reader *r, const char *flag, const char *why)
{
	char msg[700];

	snprintf(msg, sizeof(msg), "%.40s: %s", flag, why);
	refuse(r, msg);
}

/* The line as a message may quote it: printable, at most ~48 chars. */
static void quote(struct reader *r, const char *s)
{
	size_t i, o = 0;

	while (*s == ' ' || *s == '\t') {
		s++;
	}
	for (i = 0; s[i] != '\0' && o + 4 < sizeof(r->quoted); i++) {
		unsigned char c = (unsigned char)s[i];

		if (o >= 48) {
			memcpy(r->quoted + o, "...", 3);
			o += 3;
			break;
		}
		r->quoted[o++] = (char)(c == '\t'		 ? ' '
					: isprint(c) && c != '"' ? c
								 : '?');
	}
	while (o > 0 && r->quoted[o - 1] == ' ') {
		o--;
	}
	r->quoted[o] = '\0';
}

/* The last n path parts of path, into a and b (n = 2). */
static void last_two(const char *path, char *a, size_t alen, char *b,
		     size_t blen)
{
	char tmp[PATH_MAX];
	char *s;

	snprintf(tmp, sizeof(tmp), "%s", path);
	while (strlen(tmp) > 1 && tmp[strlen(tmp) - 1] == '/') {
		tmp[strlen(tmp) - 1] = '\0';
	}
	s = strrchr(tmp, '/');
	snprintf(b, blen, "%s", s != NULL ? s + 1 : tmp);
	if (s == NULL) {
		a[0] = '\0';
		return;
	}
	*s = '\0';
	s = strrchr(tmp, '/');
	snprintf(a, alen, "%s", s != NULL ? s + 1 : tmp);
}

/* Characters a flag may hold here: none of make's or a shell's syntax. */
static int plain_word(const char *w)
{
	return w[strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			   "0123456789_./+=,-")] == '\0';
}

/* pqm4's targets of this folder's images: elf/<implname>_%.elf, where
 * implname is the folder's path with '/' as '_' (it ends in SCHEME_IMPL). */
static int own_target(const struct reader *r, const char *t)
{
	char tail[600];
	size_t lt = strlen(t), n;

	if (lt < 10 || strncmp(t, "elf/", 4) != 0 ||
	    strcmp(t + lt - 6, "_%.elf") != 0) {
		return 0;
	}
	n = (size_t)snprintf(tail, sizeof(tail), "%s_%s", r->scheme, r->impl);
	lt -= 10; /* the part between "elf/" and "_%.elf" */
	if (lt < n || strncmp(t + 4 + lt - n, tail, n) != 0) {
		return 0;
	}
	return lt == n || t[4 + lt - n - 1] == '_';
}

/* One flag taken: appended to out. */
static void take(struct reader *r, const char *flag)
{
	struct hil_pq_flags *o = r->out;
	size_t used = strlen(o->text);

	if (o->n == HIL_PQ_FLAGS_MAX ||
	    used + strlen(flag) + 2 > sizeof(o->text)) {
		refuse(r, "more flags than hilrun takes from one config.mk "
			  "(at most 32)");
		return;
	}
	snprintf(o->text + used, sizeof(o->text) - used, "%s%s",
		 used > 0 ? " " : "", flag);
	o->n++;
}

/* -I of a folder named relative to this one and inside it: taken as its
 * real path, through the allowlist's own -I check. */
static void take_include(struct reader *r, const char *rel)
{
	char p[2 * PATH_MAX], real[PATH_MAX], flag[PATH_MAX + 4], why[384];
	struct stat st;
	size_t n = strlen(r->real);

	snprintf(flag, sizeof(flag), "-I%s", rel);
	if (rel[0] == '\0' || rel[0] == '/') {
		refuse_flag(r, flag,
			    "-I takes a folder named relative to the "
			    "implementation's folder (and inside it)");
		return;
	}
	snprintf(p, sizeof(p), "%s/%s", r->dir, rel);
	if (realpath(p, real) == NULL || stat(real, &st) != 0 ||
	    !S_ISDIR(st.st_mode)) {
		refuse_flag(r, flag, "not a folder of the implementation");
		return;
	}
	if (strncmp(real, r->real, n) != 0 ||
	    (real[n] != '/' && real[n] != '\0')) {
		refuse_flag(r, flag,
			    "outside the implementation's folder (an -I of a "
			    "config.mk must stay inside it)");
		return;
	}
	snprintf(flag, sizeof(flag), "-I%s", real);
	if (!hil_cflag_allowed(flag, r->cfg, why, sizeof(why))) {
		snprintf(p, sizeof(p), "-I%s", rel);
		refuse_flag(r, p, why);
		return;
	}
	take(r, flag);
}

/* The flags of one "VAR += FLAGS" line's right-hand side. */
static void take_flags(struct reader *r, char *rhs)
{
	char *save = NULL, *w;
	char why[384], joined[MAX_LINE + 4];

	for (w = strtok_r(rhs, " \t", &save); w != NULL && !r->out->refused;
	     w = strtok_r(NULL, " \t", &save)) {
		if (!plain_word(w)) {
			refuse_flag(
				r, w,
				"holds a character of make's or the shell's "
				"syntax (a flag here holds letters, digits and "
				"_ . / + = , - only)");
			return;
		}
		/* -D NAME, -U NAME, -I DIR: the value as the next word. */
		if (strcmp(w, "-D") == 0 || strcmp(w, "-U") == 0 ||
		    strcmp(w, "-I") == 0) {
			char *v = strtok_r(NULL, " \t", &save);

			if (v == NULL || !plain_word(v)) {
				refuse_flag(
					r, w,
					"without a value a flag here can take");
				return;
			}
			snprintf(joined, sizeof(joined), "%s%s", w, v);
			w = joined;
		}
		if (strncmp(w, "-I", 2) == 0) {
			take_include(r, w + 2);
			continue;
		}
		if (!hil_cflag_allowed(w, NULL, why, sizeof(why))) {
			refuse_flag(r, w, why);
			return;
		}
		take(r, w);
	}
}

/* One logical line (continuations joined, comment stripped). */
static void read_line(struct reader *r, char *s)
{
	char *op, *colon, *lhs, *var;
	size_t n;

	while (*s == ' ') {
		s++;
	}
	if (*s == '\0') {
		return;
	}
	if (strchr(s, '$') != NULL) {
		refuse(r, "not understood: make's variables and functions "
			  "($) are not read; " WHAT_WE_READ);
		return;
	}
	op = strstr(s, "+=");
	if (op == NULL) {
		refuse(r, "not understood: " WHAT_WE_READ);
		return;
	}
	*op = '\0';
	lhs = s;
	colon = strchr(lhs, ':');
	var = lhs;
	if (colon != NULL) {
		char *t = lhs, *end;

		*colon = '\0';
		var = colon + 1;
		while (*t == ' ' || *t == '\t') {
			t++;
		}
		end = t + strlen(t);
		while (end > t && (end[-1] == ' ' || end[-1] == '\t')) {
			*--end = '\0';
		}
		if (*var == ':' || strchr(var, ':') != NULL || *t == '\0' ||
		    strpbrk(t, " \t") != NULL || !own_target(r, t)) {
			refuse(r, "not understood: a rule for other targets "
				  "than this folder's images (pqm4's "
				  "elf/..._SCHEME_IMPL_%.elf)");
			return;
		}
	}
	while (*var == ' ' || *var == '\t') {
		var++;
	}
	n = strlen(var);
	while (n > 0 && (var[n - 1] == ' ' || var[n - 1] == '\t')) {
		var[--n] = '\0';
	}
	if (strcmp(var, "CPPFLAGS") != 0 && strcmp(var, "CFLAGS") != 0) {
		refuse(r, "not understood: adds to neither CPPFLAGS nor "
			  "CFLAGS; " WHAT_WE_READ);
		return;
	}
	take_flags(r, op + 2);
}

/* Every logical line of text, until one is refused. */
static void read_text(struct reader *r, char *text)
{
	char *p = text, line[MAX_LINE + 1];
	unsigned lineno = 1;

	while (*p != '\0' && !r->out->refused) {
		size_t o = 0;
		int recipe = *p == '\t';

		r->line = lineno;
		line[0] = '\0';
		/* A logical line: physical ones joined at a trailing '\'. */
		for (;;) {
			char *nl = strchr(p, '\n');
			size_t l = nl != NULL ? (size_t)(nl - p) : strlen(p);
			int cont;

			if (l > 0 && p[l - 1] == '\r') {
				l--;
			}
			cont = l > 0 && p[l - 1] == '\\';
			if (cont) {
				l--;
			}
			if (o + l + 1 > MAX_LINE) {
				quote(r, p);
				refuse(r, "a line longer than hilrun reads "
					  "(4096 characters)");
				return;
			}
			memcpy(line + o, p, l);
			o += l;
			line[o++] = ' ';
			line[o] = '\0';
			p = nl != NULL ? nl + 1 : p + strlen(p);
			lineno++;
			if (!cont || *p == '\0') {
				break;
			}
		}
		quote(r, line);
		if (recipe && strspn(line, " \t") != o) {
			refuse(r, "not understood: a recipe line (it would be "
				  "run); " WHAT_WE_READ);
			return;
		}
		{
			char *hash = strchr(line, '#');
			size_t i;

			if (hash != NULL) {
				*hash = '\0';
			}
			for (i = 0; line[i] != '\0'; i++) {
				if (line[i] == '\t') {
					line[i] = ' ';
				}
			}
		}
		read_line(r, line);
	}
}

int hil_pq_flags_read(const char *dir, struct hil_pq_flags *out)
{
	struct hil_config_alg *alg = NULL;
	struct reader *r;
	char path[PATH_MAX + 16], why[256];
	char *text = NULL;
	size_t len = 0;
	int fd, ret = HIL_OK;

	memset(out, 0, sizeof(*out));
	snprintf(path, sizeof(path), "%s/config.mk", dir);
	fd = hil_open_regular(path, MAX_FILE, why, sizeof(why));
	if (fd == HIL_ERR_NA) {
		return HIL_OK; /* no config.mk: nothing to add */
	}
	out->has_file = 1;
	if (fd < 0 || hil_read_fd(fd, MAX_FILE, &text, &len) != HIL_OK) {
		snprintf(out->why, sizeof(out->why),
			 "config.mk: cannot be read (%s)",
			 fd < 0 ? why : "larger than 64 KiB, or unreadable");
		out->refused = 1;
		if (fd >= 0) {
			close(fd);
		}
		return HIL_OK;
	}
	close(fd);
	r = calloc(1, sizeof(*r));
	if (r != NULL) {
		r->cfg = calloc(1, sizeof(*r->cfg));
	}
	if (r == NULL || r->cfg == NULL) {
		ret = HIL_ERR_NOMEM;
		goto out;
	}
	r->dir = dir;
	r->out = out;
	last_two(dir, r->scheme, sizeof(r->scheme), r->impl, sizeof(r->impl));
	if (realpath(dir, r->real) == NULL) {
		snprintf(out->why, sizeof(out->why),
			 "config.mk: its folder cannot be resolved");
		out->refused = 1;
		goto out;
	}
	/* The folder as the configuration's one implementation: the
	 * allowlist's -I check takes folders inside it. */
	if (hil_config_add_alg(r->cfg, &alg) != HIL_OK) {
		ret = HIL_ERR_NOMEM;
		goto out;
	}
	snprintf(alg->path, sizeof(alg->path), "%s", r->real);
	if (strlen(text) != len) {
		r->line = 1;
		quote(r, "");
		refuse(r, "a NUL byte: not a config.mk");
		goto out;
	}
	read_text(r, text);
	if (out->refused) {
		out->n = 0;
		out->text[0] = '\0';
	}
out:
	if (r != NULL) {
		hil_config_free(r->cfg);
		free(r->cfg);
	}
	free(r);
	free(text);
	return ret;
}

/* s with tabs and line ends as spaces (a field of a .tsv line). */
static void one_field(char *s)
{
	for (; *s != '\0'; s++) {
		if (*s == '\t' || *s == '\n' || *s == '\r') {
			*s = ' ';
		}
	}
}

int hil_pq_flags_write(const struct hil_pq_plan *copy, const char *path,
		       char *err, size_t len)
{
	struct hil_pq_flags *f = malloc(sizeof(*f));
	char *buf = NULL;
	size_t cap = 0, used = 0, i;
	int ret = HIL_OK;

	if (f == NULL) {
		snprintf(err, len, "out of memory");
		return HIL_ERR_NOMEM;
	}
	for (i = 0; ret == HIL_OK && i < copy->n_dirs; i++) {
		size_t need;
		int n;

		ret = hil_pq_flags_read(copy->dirs[i], f);
		if (ret != HIL_OK) {
			snprintf(err, len, "out of memory");
			break;
		}
		one_field(f->why);
		need = strlen(copy->dirs[i]) + strlen(f->text) +
		       strlen(f->why) + 16;
		if (used + need > cap) {
			char *nb = realloc(buf, cap + need + 4096);

			if (nb == NULL) {
				snprintf(err, len, "out of memory");
				ret = HIL_ERR_NOMEM;
				break;
			}
			buf = nb;
			cap += need + 4096;
		}
		n = snprintf(buf + used, cap - used, "%s\t%s\t%s\n",
			     copy->dirs[i], f->refused ? "refused" : "flags",
			     f->refused ? f->why : f->text);
		used += (size_t)n;
	}
	if (ret == HIL_OK &&
	    hil_write_atomic(path, used > 0 ? buf : "", used) != HIL_OK) {
		snprintf(err, len, "%s: cannot be written", path);
		ret = HIL_ERR_IO;
	}
	free(buf);
	free(f);
	return ret;
}
