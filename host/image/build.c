/* build: firmware built per configuration in its own directory, with the toolchain recorded. */
#define _XOPEN_SOURCE  700
#define HIL_LOG_PREFIX "build"
#include "build.h"
#include "build_int.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "drivers/link/link.h"
#include "util/err.h"
#include "hilp.h"
#include "util/jail.h"
#include "util/log.h"
#include "util/proc.h"
#include "util/util.h"

#define BUILD_TIMEOUT_MS 600000u
/* How much of the end of a build log is read for what went wrong: a log
 * grows with every build of the run (isolation, splits) and a foreign
 * folder's warnings; make stops at the first error, near the end. */
#define LOG_TAIL_BYTES	 (256u * 1024u)

static int is_root(const char *dir)
{
	char p[HIL_PATH];

	snprintf(p, sizeof(p), "%s/target/main.c", dir);
	if (access(p, R_OK) != 0) {
		return 0;
	}
	snprintf(p, sizeof(p), "%s/Makefile", dir);
	return access(p, R_OK) == 0;
}

int hil_build_find_root(char *root, size_t len)
{
	const char *env = getenv("HILRUN_ROOT");
	char exe[HIL_PATH];
	ssize_t n;
	int up;

	if (env != NULL && env[0] != '\0') {
		if (!is_root(env)) {
			hil_err("HILRUN_ROOT=%s is not a hilrun source tree",
				env);
			return HIL_ERR_NA;
		}
		snprintf(root, len, "%s", env);
		return HIL_OK;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0) {
		hil_err("cannot find the hilrun source tree: set HILRUN_ROOT");
		return HIL_ERR_NA;
	}
	exe[n] = '\0';
	for (up = 0; up < 4; up++) {
		char *slash = strrchr(exe, '/');

		if (slash == NULL || slash == exe) {
			break;
		}
		*slash = '\0';
		if (is_root(exe)) {
			snprintf(root, len, "%s", exe);
			return HIL_OK;
		}
	}
	hil_err("cannot find the hilrun source tree above %s: set HILRUN_ROOT",
		exe);
	return HIL_ERR_NA;
}

/* Does a build log line say what went wrong (compiler or linker)? */
static int is_error_line(const char *line, size_t n)
{
	static const char *const marks[] = {
		"error:",   "multiple definition of", "undefined reference to",
		"region `", "symbols still exported", NULL};
	size_t i;

	for (i = 0; marks[i] != NULL; i++) {
		size_t m = strlen(marks[i]);
		size_t k;

		for (k = 0; k + m <= n; k++) {
			if (memcmp(line + k, marks[i], m) == 0) {
				return 1;
			}
		}
	}
	return 0;
}

/*
 * What went wrong, from the end of the build log (LOG_TAIL_BYTES): its
 * error lines (each with the two lines after it, where the compiler shows
 * the code), or, when none is recognised, its last lines.
 */
static void tail_log(const char *path)
{
	char *text = NULL;
	char shown[4096] = "";
	size_t len = 0;
	size_t start;
	size_t o = 0;
	int lines = 0;
	int after = 0;
	const char *p;

	if (hil_read_tail(path, LOG_TAIL_BYTES, &text, &len) != HIL_OK) {
		return;
	}
	for (p = text; *p != '\0' && lines < 12;) {
		size_t n = strcspn(p, "\n");

		if (is_error_line(p, n)) {
			after = 3;
			lines++;
		}
		if (after > 0 && o + n + 2 < sizeof(shown)) {
			memcpy(shown + o, p, n);
			o += n;
			shown[o++] = '\n';
			shown[o] = '\0';
			after--;
		}
		p += n + (p[n] == '\n');
	}
	if (o > 0) {
		hil_err("from %s:\n%s", path, shown);
		free(text);
		return;
	}
	start = len;
	while (start > 0 && lines < 15) {
		start--;
		if (text[start] == '\n' && start + 1 < len) {
			lines++;
		}
	}
	hil_err("last lines of %s:\n%s", path, text + start);
	free(text);
}

static void compiler_version(const char *root, char *buf, size_t len)
{
	char *argv[] = {"arm-none-eabi-gcc", "--version", NULL};
	char out[1024];
	int status = -1;
	char *nl;

	(void)root;
	buf[0] = '\0';
	if (hil_proc_capture(argv, out, sizeof(out), 10000, &status) !=
		    HIL_OK ||
	    status != 0) {
		return;
	}
	nl = strchr(out, '\n');
	if (nl != NULL) {
		*nl = '\0';
	}
	snprintf(buf, len, "%s", out);
}

/* The value of "KEY=..." on its own line of text, into buf. */
static void flag_line(const char *text, const char *key, char *buf, size_t len)
{
	const char *p = text;
	size_t klen = strlen(key);

	buf[0] = '\0';
	while (p != NULL && *p != '\0') {
		if (strncmp(p, key, klen) == 0 && p[klen] == '=') {
			size_t n = strcspn(p + klen + 1, "\n");

			snprintf(buf, len, "%.*s", (int)n, p + klen + 1);
			return;
		}
		p = strchr(p, '\n');
		if (p != NULL) {
			p++;
		}
	}
}

static void read_flags(const char *dir, struct hil_firmware *fw)
{
	char path[HIL_PATH];
	char *text = NULL;

	snprintf(path, sizeof(path), "%s/flags", dir);
	if (hil_read_file(path, &text, NULL) != HIL_OK) {
		return;
	}
	flag_line(text, "CFLAGS", fw->all_flags, sizeof(fw->all_flags));
	flag_line(text, "LDFLAGS", fw->ld_flags, sizeof(fw->ld_flags));
	free(text);
}

/* The linker's "region `X' overflowed by N bytes" in text, into what. */
static void overflow_words(const char *text, char *what, size_t len)
{
	const char *o = strstr(text, "overflowed by");
	const char *start = o;

	if (o == NULL) {
		snprintf(what, len, "the image does not fit");
		return;
	}
	while (start > text && start[-1] != '\n' &&
	       strncmp(start, "region", 6) != 0) {
		start--;
	}
	snprintf(what, len, "%.*s", (int)strcspn(start, "\n"), start);
}

/* The size of the log before a make appends to it: what that make wrote
 * starts there (the log holds every build of the run). */
size_t hil_build_log_size(const char *log_path)
{
	struct stat st;

	return stat(log_path, &st) == 0 ? (size_t)st.st_size : 0;
}

/* The log from byte from on (what one make wrote), NUL-terminated, or
 * NULL: when that is more than LOG_TAIL_BYTES, its end only, from a whole
 * line on (hil_read_tail). */
static char *log_since(const char *log_path, size_t from)
{
	FILE *f;
	struct stat st;
	char *text;
	size_t n, got;

	if (stat(log_path, &st) != 0 || (size_t)st.st_size < from) {
		return NULL;
	}
	n = (size_t)st.st_size - from;
	if (n > LOG_TAIL_BYTES) {
		return hil_read_tail(log_path, LOG_TAIL_BYTES, &text, NULL) ==
				       HIL_OK
			       ? text
			       : NULL;
	}
	f = fopen(log_path, "rb");
	if (f == NULL) {
		return NULL;
	}
	text = malloc(n + 1);
	if (text == NULL || fseek(f, (long)from, SEEK_SET) != 0) {
		free(text);
		fclose(f);
		return NULL;
	}
	got = fread(text, 1, n, f);
	text[got] = '\0';
	fclose(f);
	return text;
}

/* Did the link of the make that wrote the log from byte from on fail
 * because the image is too big? (its words; an earlier build of the run
 * that overflowed says nothing of this one) */
int hil_build_log_overflowed(const char *log_path, size_t from, char *what,
			     size_t len)
{
	char *text = log_since(log_path, from);
	int yes;

	if (text == NULL) {
		return 0;
	}
	yes = strstr(text, "overflowed by") != NULL ||
	      strstr(text, "will not fit in region") != NULL;
	if (yes) {
		overflow_words(text, what, len);
	}
	free(text);
	return yes;
}

/* The last linker complaint of that make (a line of ld's: "ld: ..."), into
 * what. @return 1 when there is one. */
int hil_build_log_link_error(const char *log_path, size_t from, char *what,
			     size_t len)
{
	char *text = log_since(log_path, from);
	const char *p, *found = NULL;

	if (text == NULL) {
		return 0;
	}
	for (p = strstr(text, "/ld: "); p != NULL; p = strstr(p + 1, "/ld: ")) {
		found = p + 5;
	}
	if (found != NULL) {
		snprintf(what, len, "%.*s", (int)strcspn(found, "\n"), found);
	}
	free(text);
	return found != NULL;
}

/* After a failed build: the fix for the mistakes people make most. */
void hil_build_hint_failure(const char *log_path, size_t from)
{
	char *text = log_since(log_path, from);

	if (text == NULL) {
		return;
	}
	if (strstr(text, "No such file or directory") != NULL &&
	    strstr(text, "fatal error:") != NULL) {
		hil_err("hint: a header is missing. hilrun supplies crypto_aead.h, crypto_hash.h, crypto_xof.h and the NIST framework's lwc_crypto_aead.h and lwc_crypto_hash.h "
			"(target/framework/); any other header must be in the implementation's folder "
			"(only the folder itself is on the include path, not its sub-folders)");
	} else if (strstr(text, "overflowed by") != NULL) {
		char what[200];

		overflow_words(text, what, sizeof(what));
		hil_err("hint: the image is too big for the board (%s): a run splits its implementations over several images by itself, but this build was of one image (or one implementation alone)",
			what);
	} else if (strstr(text, "multiple definition of") != NULL) {
		hil_err("hint: two objects of one implementation define the same symbol; "
			"only .c, .cpp, .S and .s files directly in the folder are built, each once");
	}
	free(text);
}

/*
 * Two runs of one configuration on two boards of a host build the same
 * image in the same folder: one build at a time per folder (the second
 * then finds it current), so that no run links or loads a half-written
 * object. @return the locked descriptor, or a negative hil_err code.
 */
static int lock_fw_dir(const char *root, const char *dir)
{
	char path[HIL_PATH + 16];
	int fd;

	snprintf(path, sizeof(path), "%s/build/fw", root);
	if (hil_mkdirs(path) != HIL_OK) {
		return HIL_ERR_IO;
	}
	snprintf(path, sizeof(path), "%s.lock", dir);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
	if (fd < 0) {
		hil_err("%s: %s", path, strerror(errno));
		return HIL_ERR_IO;
	}
	while (flock(fd, LOCK_EX) != 0) {
		if (errno == EINTR) { /* SIGTERM/SIGINT while another builds */
			close(fd);
			return HIL_ERR_INTERRUPTED;
		}
		hil_err("%s: %s", path, strerror(errno));
		close(fd);
		return HIL_ERR_IO;
	}
	return fd;
}

/* What a build reads of the source tree (the Makefile's includes). */
static const char *const build_parts[] = {"Makefile", "mk",   "target",
					  "protocol", "host", "tests"};

/*
 * In an image's folder (one with the copies of the user's folders, src/):
 * the folders of its other builds, the host reference's (host/, a program
 * hilrun runs and trusts for expected outputs) and the isolated ones'
 * (isolate/), made now if missing and bound read-only, so that a build of
 * the image can neither replace what they made nor make it first.
 */
static int protect_other_builds(struct hil_jail *j, const char *dir)
{
	static const char *const others[] = {"host", "isolate"};
	char path[HIL_PATH + 16];
	size_t i;
	int ret = HIL_OK;

	snprintf(path, sizeof(path), "%s/src", dir);
	if (access(path, F_OK) != 0) {
		return HIL_OK; /* no folder of the user's: no other build */
	}
	for (i = 0; ret == HIL_OK && i < sizeof(others) / sizeof(others[0]);
	     i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, others[i]);
		ret = hil_mkdirs(path);
		if (ret == HIL_OK) {
			ret = hil_jail_bind(j, path, HIL_JAIL_RO);
		}
	}
	return ret;
}

int hil_build_jail(const char *root, const char *dir, const char *algs,
		   struct hil_jail **out)
{
	char path[HIL_PATH];
	struct hil_jail *j;
	const char *p;
	size_t i;
	int ret;

	*out = NULL;
	ret = hil_mkdirs(dir);
	if (ret != HIL_OK) {
		return ret;
	}
	ret = hil_jail_new(&j);
	/* The build's own folder first: what is bound read-only inside it
	 * below wins there (util/jail.h), so that the build writes its
	 * objects and image but not the copies of the user's folders it
	 * compiles (src/), nor the folders of the image's other builds. */
	if (ret == HIL_OK) {
		ret = hil_jail_bind(j, dir, HIL_JAIL_RW);
	}
	if (ret == HIL_OK) {
		ret = protect_other_builds(j, dir);
	}
	for (i = 0;
	     ret == HIL_OK && i < sizeof(build_parts) / sizeof(build_parts[0]);
	     i++) {
		snprintf(path, sizeof(path), "%s/%s", root, build_parts[i]);
		if (access(path, F_OK) == 0) {
			ret = hil_jail_bind(j, path, HIL_JAIL_RO);
		}
	}
	/* "alg/impl=LINK ...": each user's folder, through its link. */
	for (p = algs; ret == HIL_OK && p != NULL && *p != '\0';) {
		size_t n = strcspn(p, " ");
		const char *eq = memchr(p, '=', n);

		if (eq != NULL && (size_t)(eq + 1 - p) < n) {
			char *slash;

			snprintf(path, sizeof(path), "%.*s",
				 (int)(n - (size_t)(eq + 1 - p)), eq + 1);
			ret = hil_jail_bind(j, path, HIL_JAIL_RO);
			/* The folder of the links (fw_dir/src), for a build
			 * in another folder (an isolated or a host build). */
			slash = strrchr(path, '/');
			if (ret == HIL_OK && slash != NULL && slash != path) {
				*slash = '\0';
				ret = hil_jail_bind(j, path, HIL_JAIL_RO);
			}
		}
		p += n + (p[n] == ' ');
	}
	if (ret != HIL_OK) {
		hil_jail_free(j);
		return ret;
	}
	*out = j;
	return HIL_OK;
}

/* make -C root TARGET ... ALGS=algs FW_DIR=dir, output appended to log. */
int hil_build_run_make(const char *root, const char *log_path,
		       const char *target, const struct make_vars *v,
		       const char *algs, const char *dir, int *status)
{
	char *var_algs = malloc(strlen(algs) + 8);
	char var_dir[HIL_PATH + 16];
	struct hil_jail *jail = NULL;
	int ret;

	if (var_algs == NULL) {
		return HIL_ERR_NOMEM;
	}
	if (v->jail) {
		ret = hil_build_jail(root, dir, algs, &jail);
		if (ret != HIL_OK) {
			free(var_algs);
			return ret;
		}
	}
	sprintf(var_algs, "ALGS=%s", algs);
	snprintf(var_dir, sizeof(var_dir), "FW_DIR=%s", dir);
	{
		char *argv[] = {"make",
				"--no-print-directory",
				"-C",
				(char *)root,
				(char *)target,
				(char *)v->board,
				(char *)v->opt,
				var_algs,
				(char *)v->clock,
				(char *)v->baud,
				(char *)v->link,
				(char *)v->prefetch,
				var_dir,
				NULL};

		ret = hil_proc_run_jailed(argv, log_path, BUILD_TIMEOUT_MS,
					  status, jail, v->stop);
	}
	hil_jail_free(jail);
	free(var_algs);
	return ret;
}

int hil_build_firmware(const struct hil_config *cfg, const char *root,
		       const char *log_path, const char *algs_override,
		       struct hil_firmware *fw)
{
	return hil_build_firmware_ex(cfg, root, log_path, algs_override, 0,
				     NULL, fw);
}

int hil_build_firmware_ex(const struct hil_config *cfg, const char *root,
			  const char *log_path, const char *algs_override,
			  unsigned flags, const volatile sig_atomic_t *stop,
			  struct hil_firmware *fw)
{
	char opt[2048] = "";
	const struct hil_link_ops *lk;
	const char *stub_link;
	struct make_vars v;
	char key[4096];
	char **entries = NULL;
	size_t i;
	uint32_t h;
	size_t from = 0;
	int status = -1;
	int lock_fd;
	int ret;

	hil_firmware_free(fw);
	memset(fw, 0, sizeof(*fw));
	lk = hil_link_find(cfg->link.type);
	stub_link = lk != NULL && lk->stub_build != NULL ? lk->stub_build : "";
	for (i = 0; i < cfg->build.n_cflags; i++) {
		if (i > 0) {
			strncat(opt, " ", sizeof(opt) - strlen(opt) - 1);
		}
		strncat(opt, cfg->build.cflags[i],
			sizeof(opt) - strlen(opt) - 1);
	}
	/* Everything that changes the image goes into the directory name
	 * (a user's folder by its real path). */
	snprintf(key, sizeof(key), "%s|%u|%u|%s", cfg->board.name,
		 (unsigned)cfg->board.clock_hz, (unsigned)cfg->link.baud, opt);
	/* Only a link the stub is built for changes the key: a USART image
	 * keeps the folder it always had. */
	if (stub_link[0] != '\0') {
		snprintf(key + strlen(key), sizeof(key) - strlen(key),
			 "|link=%s", stub_link);
	}
	/* So does a chosen flash prefetch (board.prefetch); the default
	 * keeps its folder. */
	if (cfg->board.prefetch >= 0) {
		snprintf(key + strlen(key), sizeof(key) - strlen(key),
			 "|prefetch=%d", cfg->board.prefetch);
	}
	/* The digest of the key as one string, taken in parts: a selection
	 * of any size counts whole. */
	h = hilp_digest_update(HILP_DIGEST_INIT, (const uint8_t *)key,
			       strlen(key));
	if (algs_override != NULL) {
		h = hilp_digest_update(h, (const uint8_t *)algs_override,
				       strlen(algs_override));
	} else {
		for (i = 0; i < cfg->n_algs; i++) {
			char real[PATH_MAX] = "";
			char part[3 * HIL_CFG_NAME + PATH_MAX + 8];

			if (cfg->algs[i].path[0] != '\0' &&
			    realpath(cfg->algs[i].path, real) == NULL) {
				snprintf(real, sizeof(real), "%s",
					 cfg->algs[i].path);
			}
			snprintf(part, sizeof(part), "|%s/%s=%s",
				 cfg->algs[i].name, cfg->algs[i].impl, real);
			h = hilp_digest_update(h, (const uint8_t *)part,
					       strlen(part));
		}
	}
	snprintf(fw->dir, sizeof(fw->dir), "%s/build/fw/%s-%08x", root,
		 cfg->name, (unsigned)h);
	snprintf(fw->elf, sizeof(fw->elf), "%s/stub.elf", fw->dir);
	lock_fd = lock_fw_dir(root, fw->dir);
	if (lock_fd < 0) {
		return lock_fd;
	}
	ret = HIL_OK;
	if (algs_override != NULL) {
		ret = hil_str_append(&fw->algs, "", algs_override);
	} else {
		entries = calloc(cfg->n_algs + 1, sizeof(*entries));
		if (entries == NULL) {
			ret = HIL_ERR_NOMEM;
		}
		for (i = 0; i < cfg->n_algs && ret == HIL_OK; i++) {
			char link[HIL_PATH] = "";

			/* An external folder is named after '=', by our link
			 * to it. */
			if (cfg->algs[i].path[0] != '\0') {
				ret = hil_build_link_source(fw->dir,
							    &cfg->algs[i], link,
							    sizeof(link));
			}
			entries[i] = malloc(HIL_PATH + 160);
			if (entries[i] == NULL) {
				ret = HIL_ERR_NOMEM;
				break;
			}
			snprintf(entries[i], HIL_PATH + 160, "%s/%s%s%s",
				 cfg->algs[i].name, cfg->algs[i].impl,
				 link[0] ? "=" : "", link);
			if (ret == HIL_OK) {
				ret = hil_str_append(&fw->algs, " ",
						     entries[i]);
			}
		}
	}
	if (ret == HIL_OK && fw->algs == NULL) {
		ret = hil_str_append(&fw->algs, "", "");
	}
	if (ret != HIL_OK) {
		goto out;
	}

	snprintf(v.board, sizeof(v.board), "BOARD=%s", cfg->board.name);
	snprintf(v.opt, sizeof(v.opt), "OPT=%s", opt);
	snprintf(v.clock, sizeof(v.clock), "CLOCK_HZ=%u",
		 (unsigned)cfg->board.clock_hz);
	/* The stub's UART speed is the config's (the real board divides its
	 * APB1 clock for it; QEMU ignores it). */
	snprintf(v.baud, sizeof(v.baud), "HIL_BAUD=%u",
		 (unsigned)cfg->link.baud);
	/* The transport, from the link driver: empty for the board's UART,
	 * so that image is built exactly as before there was a choice. */
	snprintf(v.link, sizeof(v.link), "HIL_LINK=%s", stub_link);
	v.jail = !(flags & HIL_BUILD_NO_JAIL);
	v.stop = stop;
	/* board.prefetch, when chosen: the board code's flash prefetch. */
	if (cfg->board.prefetch >= 0) {
		snprintf(v.prefetch, sizeof(v.prefetch), "HIL_PREFETCH=%d",
			 cfg->board.prefetch);
	} else {
		snprintf(v.prefetch, sizeof(v.prefetch), "HIL_PREFETCH=");
	}
	hil_info("building %s firmware for %s (%s) in %s", cfg->board.name,
		 cfg->name, opt, fw->dir);
	from = hil_build_log_size(log_path);
	ret = hil_build_run_make(root, log_path, "firmware", &v, fw->algs,
				 fw->dir, &status);
	/* Too big is not a folder that does not build: nothing to isolate. */
	if (ret == HIL_OK && status != 0 &&
	    hil_build_log_overflowed(log_path, from, fw->overflow,
				     sizeof(fw->overflow))) {
		fw->overflowed = 1;
	}
	if (ret == HIL_OK && status != 0 && algs_override == NULL &&
	    !fw->overflowed &&
	    hil_build_isolate_failures(cfg, root, log_path, &v, fw, entries) >
		    0) {
		/* The image again, without the folders that do not build. */
		free(fw->algs);
		fw->algs = NULL;
		for (i = 0; i < cfg->n_algs && ret == HIL_OK; i++) {
			if (entries[i][0] != '\0') {
				ret = hil_str_append(&fw->algs, " ",
						     entries[i]);
			}
		}
		if (ret == HIL_OK && fw->algs == NULL) {
			ret = hil_str_append(&fw->algs, "", "none");
		}
		if (ret != HIL_OK) {
			goto out;
		}
		from = hil_build_log_size(log_path);
		ret = hil_build_run_make(root, log_path, "firmware", &v,
					 fw->algs, fw->dir, &status);
		if (ret == HIL_OK && status != 0 &&
		    hil_build_log_overflowed(log_path, from, fw->overflow,
					     sizeof(fw->overflow))) {
			fw->overflowed = 1;
		}
	}
	if (ret == HIL_ERR_INTERRUPTED) {
		goto out; /* a stop, not a failed build: make was killed */
	}
	if (ret != HIL_OK) {
		hil_err("could not run make: %s", hil_strerror(ret));
		ret = ret == HIL_ERR_NA ? HIL_ERR_NA : HIL_ERR_BUILD;
		goto out;
	}
	if (algs_override == NULL) {
		for (i = 0; i < cfg->n_algs; i++) {
			void *arr = fw->foreign;

			if (cfg->algs[i].path[0] == '\0') {
				continue;
			}
			if (hil_grow(&arr, fw->n_foreign, &fw->cap_foreign,
				     sizeof(*fw->foreign)) != HIL_OK) {
				ret = HIL_ERR_NOMEM;
				goto out;
			}
			fw->foreign = arr;
			hil_build_collect_warnings(
				fw->dir, log_path, &cfg->algs[i],
				&fw->foreign[fw->n_foreign++]);
		}
	}
	if (status != 0 && fw->overflowed &&
	    (flags & HIL_BUILD_QUIET_OVERFLOW)) {
		hil_info(
			"the image of %zu implementation%s is too big for the board (%s)",
			cfg->n_algs, cfg->n_algs == 1 ? "" : "s", fw->overflow);
		ret = HIL_ERR_BUILD;
		goto out;
	}
	if (status != 0 && !fw->overflowed && algs_override == NULL &&
	    (flags & HIL_BUILD_QUIET_OVERFLOW) &&
	    hil_build_log_link_error(log_path, from, fw->link_error,
				     sizeof(fw->link_error))) {
		/* Every folder links alone: the caller splits the image. */
		fw->link_failed = 1;
		hil_warn(
			"the image of %zu implementations does not link (%s), although each links alone: splitting it",
			cfg->n_algs, fw->link_error);
		ret = HIL_ERR_BUILD;
		goto out;
	}
	if (status != 0) {
		hil_err("firmware build for %s failed (make exit %d)",
			cfg->name, status);
		tail_log(log_path);
		hil_build_hint_failure(log_path, from);
		ret = HIL_ERR_BUILD;
		goto out;
	}
	if (access(fw->elf, R_OK) != 0) {
		hil_err("firmware build reported success but %s is missing",
			fw->elf);
		ret = HIL_ERR_BUILD;
		goto out;
	}
	read_flags(fw->dir, fw);
	compiler_version(root, fw->compiler, sizeof(fw->compiler));
out:
	close(lock_fd);
	for (i = 0; entries != NULL && i < cfg->n_algs; i++) {
		free(entries[i]);
	}
	free(entries);
	return ret;
}
