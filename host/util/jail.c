/* jail: builds the bubblewrap command line that runs a child touching foreign code in a sandbox, and checks that one can be set up here. */
#define _XOPEN_SOURCE  700
#define HIL_LOG_PREFIX "jail"

#include "jail.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"
#include "log.h"
#include "proc.h"

#define BWRAP		 "bwrap"
#define PROBE_TIMEOUT_MS 10000u

struct jail_bind {
	char *path;
	enum hil_jail_bind kind;
};

struct hil_jail {
	struct jail_bind bind[HIL_JAIL_MAX_BINDS];
	size_t n_bind;
	int sys;
	char *chdir;
	unsigned long long mem;
};

/* What every jail sees of the host's system, read-only (where present). */
static const char *const system_dirs[] = {"/usr",   "/bin",   "/sbin",	"/lib",
					  "/lib32", "/lib64", "/libx32"};
static const char *const etc_files[] = {
	"/etc/ld.so.cache",   "/etc/ld.so.conf", "/etc/ld.so.conf.d",
	"/etc/alternatives",  "/etc/passwd",	 "/etc/group",
	"/etc/nsswitch.conf", "/etc/localtime"};
/* The environment a child keeps (besides HOME=/tmp). */
static const char *const kept_env[] = {"PATH",	   "LANG",	  "LC_ALL",
				       "LC_CTYPE", "LC_MESSAGES", "TZ"};

int hil_jail_new(struct hil_jail **out)
{
	struct hil_jail *j = calloc(1, sizeof(*j));

	*out = NULL;
	if (j == NULL) {
		hil_err("no memory for a jail");
		return HIL_ERR_NOMEM;
	}
	j->mem = HIL_JAIL_DEFAULT_MEM;
	*out = j;
	return HIL_OK;
}

void hil_jail_free(struct hil_jail *j)
{
	size_t i;

	if (j == NULL) {
		return;
	}
	for (i = 0; i < j->n_bind; i++) {
		free(j->bind[i].path);
	}
	free(j->chdir);
	free(j);
}

static int add_one(struct hil_jail *j, const char *path,
		   enum hil_jail_bind kind)
{
	size_t i;

	/* Each implementation's folder of links is the same one: once. */
	for (i = 0; i < j->n_bind; i++) {
		if (j->bind[i].kind == kind &&
		    strcmp(j->bind[i].path, path) == 0) {
			return HIL_OK;
		}
	}
	if (j->n_bind >= HIL_JAIL_MAX_BINDS) {
		hil_err("jail: more than %d folders to bind (%s)",
			HIL_JAIL_MAX_BINDS, path);
		return HIL_ERR_ARG;
	}
	j->bind[j->n_bind].path = strdup(path);
	if (j->bind[j->n_bind].path == NULL) {
		hil_err("no memory for a jail");
		return HIL_ERR_NOMEM;
	}
	j->bind[j->n_bind].kind = kind;
	j->n_bind++;
	return HIL_OK;
}

int hil_jail_bind(struct hil_jail *j, const char *path, enum hil_jail_bind kind)
{
	char real[PATH_MAX], abs[PATH_MAX];
	struct stat st;
	int ret;

	if (j == NULL || path == NULL || path[0] == '\0') {
		hil_err("jail: no folder to bind");
		return HIL_ERR_ARG;
	}
	if (realpath(path, real) == NULL || lstat(path, &st) != 0) {
		hil_err("jail: cannot bind %s: %s", path, strerror(errno));
		return HIL_ERR_NA;
	}
	/* A relative path means the same inside: the jail starts in
	 * hilrun's working directory (an empty one, but for its binds). */
	if (path[0] == '/') {
		snprintf(abs, sizeof(abs), "%s", path);
	} else if (getcwd(abs, sizeof(abs)) == NULL ||
		   strlen(abs) + 1 + strlen(path) >= sizeof(abs)) {
		hil_err("jail: cannot bind %s: %s", path,
			"the working directory is unknown or too long");
		return HIL_ERR_ARG;
	} else {
		strcat(abs, "/");
		strcat(abs, path);
	}
	/* The real folder, where a link to it leads; and the path given,
	 * where the child is told to look, when a folder above it is a
	 * link. A link itself stays what it is (inside a folder bound
	 * too, it leads to the real one). */
	ret = add_one(j, real, kind);
	if (ret == HIL_OK && strcmp(real, abs) != 0 && !S_ISLNK(st.st_mode)) {
		ret = add_one(j, abs, kind);
	}
	return ret;
}

void hil_jail_with_sys(struct hil_jail *j)
{
	j->sys = 1;
}

int hil_jail_chdir(struct hil_jail *j, const char *dir)
{
	free(j->chdir);
	j->chdir = strdup(dir);
	if (j->chdir == NULL) {
		hil_err("no memory for a jail");
		return HIL_ERR_NOMEM;
	}
	return HIL_OK;
}

void hil_jail_set_mem(struct hil_jail *j, unsigned long long bytes)
{
	j->mem = bytes;
}

unsigned long long hil_jail_mem(const struct hil_jail *j)
{
	return j != NULL ? j->mem : 0;
}

/* A growing vector of owned strings. */
struct vec {
	char **v;
	size_t n, cap;
	int failed;
};

static void push(struct vec *a, const char *s)
{
	if (a->failed) {
		return;
	}
	if (a->n + 2 > a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 64;
		char **v = realloc(a->v, cap * sizeof(*v));

		if (v == NULL) {
			a->failed = 1;
			return;
		}
		a->v = v;
		a->cap = cap;
	}
	a->v[a->n] = strdup(s);
	if (a->v[a->n] == NULL) {
		a->failed = 1;
		return;
	}
	a->n++;
	a->v[a->n] = NULL;
}

static void push3(struct vec *a, const char *o, const char *x, const char *y)
{
	push(a, o);
	push(a, x);
	if (y != NULL) {
		push(a, y);
	}
}

/* A system path: a link (merged /usr: /lib -> usr/lib) stays a link,
 * a folder is bound read-only, an absent one is left out. */
static void push_system(struct vec *a, const char *path)
{
	char target[PATH_MAX];
	struct stat st;
	ssize_t n;

	if (lstat(path, &st) != 0) {
		return;
	}
	if (S_ISLNK(st.st_mode)) {
		n = readlink(path, target, sizeof(target) - 1);
		if (n > 0) {
			target[n] = '\0';
			push3(a, "--symlink", target, path);
		}
		return;
	}
	push3(a, "--ro-bind", path, path);
}

/*
 * A bare name as execvp finds it in hilrun's PATH, made absolute, into
 * found. @return 1 when found.
 */
static int find_in_path(const char *name, char *found, size_t len)
{
	const char *path = getenv("PATH");
	char cwd[PATH_MAX];
	struct stat st;

	if (path == NULL) {
		path = "/usr/local/bin:/usr/bin:/bin";
	}
	while (*path != '\0') {
		size_t n = strcspn(path, ":");
		int w;

		if (n == 0 || path[0] != '/') {
			/* An empty or relative entry: the working directory. */
			if (getcwd(cwd, sizeof(cwd)) == NULL) {
				cwd[0] = '\0';
			}
			w = snprintf(found, len, "%s/%.*s%s%s", cwd, (int)n,
				     path, n > 0 ? "/" : "", name);
		} else {
			w = snprintf(found, len, "%.*s/%s", (int)n, path, name);
		}
		if (w > 0 && (size_t)w < len && access(found, X_OK) == 0 &&
		    stat(found, &st) == 0 && S_ISREG(st.st_mode)) {
			return 1;
		}
		path += n + (path[n] == ':');
	}
	return 0;
}

/* The folder of a program, read-only, unless the jail has it (/usr). */
static void push_folder_of(struct vec *a, const char *file)
{
	char dir[PATH_MAX];
	char *slash;

	snprintf(dir, sizeof(dir), "%s", file);
	slash = strrchr(dir, '/');
	if (slash == NULL || slash == dir) {
		return;
	}
	*slash = '\0';
	if (strncmp(dir, "/usr/", 5) != 0) {
		push3(a, "--ro-bind", dir, dir);
	}
}

/*
 * The program: its real, absolute path into prog (the jail's working
 * directory is not hilrun's), and its folder bound read-only when it is
 * outside /usr. A bare name is looked up in hilrun's PATH, as it would be
 * unjailed: one in /usr, /bin or /sbin is left to bwrap's search of the
 * same PATH in the jail; one elsewhere (a tool in /opt/X/bin, a test's
 * stand-in) is run by its path, its folder (and the link's, if it is one)
 * bound read-only.
 */
static void push_program(struct vec *a, const char *name, char *prog,
			 size_t len)
{
	char real[PATH_MAX], found[PATH_MAX];

	snprintf(prog, len, "%s", name);
	if (strchr(name, '/') == NULL) {
		if (!find_in_path(name, found, sizeof(found)) ||
		    strncmp(found, "/usr/", 5) == 0 ||
		    strncmp(found, "/bin/", 5) == 0 ||
		    strncmp(found, "/sbin/", 6) == 0) {
			return;
		}
		snprintf(prog, len, "%s", found);
		push_folder_of(a, found);
		if (realpath(found, real) != NULL && strcmp(real, found) != 0) {
			push_folder_of(a, real);
		}
		return;
	}
	if (realpath(name, real) == NULL) {
		return;
	}
	snprintf(prog, len, "%s", real);
	push_folder_of(a, real);
}

/* The cross compilers a jailed build may call by name, through PATH. */
static const char *const path_toolchains[] = {"arm-none-eabi-gcc"};

/*
 * A cross toolchain that hilrun's PATH finds outside /usr, /bin and /sbin
 * (scripts/cross-gcc.sh's folder, an Arm toolchain in /opt/X/bin): the
 * folder its bin/ is in, read-only (a toolchain finds its own parts
 * relative to bin/), so that a build in the jail, which keeps that PATH,
 * runs the same compiler as one outside it.
 */
static void push_toolchains(struct vec *a)
{
	char found[PATH_MAX], real[PATH_MAX];
	size_t i;

	for (i = 0; i < sizeof(path_toolchains) / sizeof(path_toolchains[0]);
	     i++) {
		char *slash;

		if (!find_in_path(path_toolchains[i], found, sizeof(found)) ||
		    strncmp(found, "/usr/", 5) == 0 ||
		    strncmp(found, "/bin/", 5) == 0 ||
		    strncmp(found, "/sbin/", 6) == 0 ||
		    realpath(found, real) == NULL) {
			continue;
		}
		slash = strrchr(real, '/');
		*slash = '\0';
		slash = strrchr(real, '/');
		if (slash != NULL && slash != real &&
		    strcmp(slash, "/bin") == 0) {
			*slash = '\0';
		}
		if (strncmp(real, "/usr/", 5) != 0 && strcmp(real, "/") != 0) {
			push3(a, "--ro-bind", real, real);
		}
	}
}

int hil_jail_argv(const struct hil_jail *j, char *const argv[], int info_fd,
		  char ***out)
{
	struct vec a = {NULL, 0, 0, 0};
	char prog[PATH_MAX], cwd[PATH_MAX];
	size_t i;

	*out = NULL;
	if (argv == NULL || argv[0] == NULL || argv[0][0] == '\0') {
		hil_err("cannot start a process in a jail: empty command");
		return HIL_ERR_ARG;
	}
	push(&a, BWRAP);
	/* Namespaces: user (no further one), pid, net, ipc, uts, cgroup. */
	push(&a, "--unshare-all");
	push(&a, "--unshare-user");
	push(&a, "--disable-userns");
	push(&a, "--die-with-parent");
	push(&a, "--new-session");
	/* The program is the jail's pid 1, so that hilrun can send it the
	 * SIGTERM it handles (QEMU: its exit line) rather than kill bwrap,
	 * which kills everything inside at once. */
	push(&a, "--as-pid-1");
	if (info_fd >= 0) {
		char n[16];

		snprintf(n, sizeof(n), "%d", info_fd);
		push3(&a, "--info-fd", n, NULL);
	}
	push3(&a, "--cap-drop", "ALL", NULL);
	push(&a, "--clearenv");
	for (i = 0; i < sizeof(kept_env) / sizeof(kept_env[0]); i++) {
		const char *v = getenv(kept_env[i]);

		if (v != NULL) {
			push3(&a, "--setenv", kept_env[i], v);
		}
	}
	push3(&a, "--setenv", "HOME", "/tmp");
	for (i = 0; i < sizeof(system_dirs) / sizeof(system_dirs[0]); i++) {
		push_system(&a, system_dirs[i]);
	}
	for (i = 0; i < sizeof(etc_files) / sizeof(etc_files[0]); i++) {
		push3(&a, "--ro-bind-try", etc_files[i], etc_files[i]);
	}
	push3(&a, "--proc", "/proc", NULL);
	push3(&a, "--dev", "/dev", NULL);
	push3(&a, "--tmpfs", "/tmp", NULL);
	if (j != NULL && j->sys) {
		push3(&a, "--ro-bind", "/sys", "/sys");
		push3(&a, "--ro-bind-try", "/run/udev", "/run/udev");
	}
	push_program(&a, argv[0], prog, sizeof(prog));
	push_toolchains(&a);
	for (i = 0; j != NULL && i < j->n_bind; i++) {
		const char *p = j->bind[i].path;

		switch (j->bind[i].kind) {
		case HIL_JAIL_RW:
			push3(&a, "--bind", p, p);
			break;
		case HIL_JAIL_DEV:
			push3(&a, "--dev-bind", p, p);
			break;
		default:
			push3(&a, "--ro-bind", p, p);
			break;
		}
	}
	/* The working directory: the caller's, or hilrun's (relative paths
	 * in argv mean what they mean outside, if bound). */
	if (j != NULL && j->chdir != NULL) {
		snprintf(cwd, sizeof(cwd), "%s", j->chdir);
	} else if (getcwd(cwd, sizeof(cwd)) == NULL) {
		snprintf(cwd, sizeof(cwd), "/");
	}
	push3(&a, "--dir", cwd, NULL);
	/* Nothing but the binds and /tmp is writable. */
	push3(&a, "--remount-ro", "/", NULL);
	push3(&a, "--chdir", cwd, NULL);
	push(&a, "--");
	push(&a, prog);
	for (i = 1; argv[i] != NULL; i++) {
		push(&a, argv[i]);
	}
	if (a.failed || a.v == NULL) {
		hil_jail_argv_free(a.v);
		hil_err("no memory for a jail's command line");
		return HIL_ERR_NOMEM;
	}
	*out = a.v;
	return HIL_OK;
}

void hil_jail_argv_free(char **argv)
{
	size_t i;

	if (argv == NULL) {
		return;
	}
	for (i = 0; argv[i] != NULL; i++) {
		free(argv[i]);
	}
	free(argv);
}

int hil_jail_probe(char *why, size_t len)
{
	/* By path: the jail's PATH is hilrun's, which need not hold it. */
	char *const cmd[] = {"/usr/bin/true", NULL};
	char **argv = NULL;
	char out[512];
	int status = -1;
	int ret;

	if (len > 0) {
		why[0] = '\0';
	}
	ret = hil_jail_argv(NULL, cmd, -1, &argv);
	if (ret != HIL_OK) {
		snprintf(why, len, "%s", hil_strerror(ret));
		return ret;
	}
	ret = hil_proc_capture(argv, out, sizeof(out), PROBE_TIMEOUT_MS,
			       &status);
	hil_jail_argv_free(argv);
	if (ret == HIL_ERR_NA) {
		snprintf(
			why, len,
			"bubblewrap (bwrap) is not installed (Debian: apt install bubblewrap)");
		return HIL_ERR_NA;
	}
	if (ret != HIL_OK || status != 0) {
		out[strcspn(out, "\n")] = '\0';
		snprintf(why, len, "bwrap cannot set up a sandbox here: %s",
			 out[0] != '\0'	 ? out
			 : ret != HIL_OK ? hil_strerror(ret)
					 : "it failed");
		return HIL_ERR_PROCESS;
	}
	return HIL_OK;
}
