/* lock: board locks as flock()ed files, with the holder's pid, time, config and host written inside for messages. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"lock"
#include "lock.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "util/err.h"
#include "util/log.h"

#define POLL_MS	       100
#define HOLDER_MAX     2048 /* holder info is one short JSON line */
#define TMP_DEFAULT    "/tmp/hilrun-locks"
#define HOSTNAME_BYTES 256

/* A malloc'd printf; NULL when out of memory. */
static char *msgf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *msgf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0) {
		return NULL;
	}
	s = malloc((size_t)n + 1);
	if (s == NULL) {
		return NULL;
	}
	va_start(ap, fmt);
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return s;
}

static void set_msg(char **msg, char *s)
{
	if (msg != NULL) {
		*msg = s;
	} else {
		free(s);
	}
}

int hil_lock_id_valid(const char *id)
{
	size_t i, n;

	if (id == NULL) {
		return 0;
	}
	n = strlen(id);
	if (n == 0 || n >= HIL_LOCK_ID_MAX || strcmp(id, ".") == 0 ||
	    strcmp(id, "..") == 0) {
		return 0;
	}
	for (i = 0; i < n; i++) {
		char c = id[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '.' || c == '_' ||
		      c == '-')) {
			return 0;
		}
	}
	return 1;
}

int hil_lock_default_dir(char *buf, size_t len)
{
	const char *env = getenv("HILRUN_LOCK_DIR");
	int n;

	if (env != NULL && env[0] != '\0') {
		n = snprintf(buf, len, "%s", env);
	} else {
		env = getenv("XDG_RUNTIME_DIR");
		/* The spec says a relative value must be ignored. */
		if (env != NULL && env[0] == '/') {
			n = snprintf(buf, len, "%s/hilrun", env);
		} else {
			n = snprintf(buf, len, "%s", TMP_DEFAULT);
		}
	}
	if (n < 0 || (size_t)n >= len) {
		return HIL_ERR_ARG;
	}
	return HIL_OK;
}

/*
 * hilrun writes with a umask of 022 (main), so a lock file it creates is
 * 0644; in a lock directory the lab shares with a group (mode 2770, docs/
 * lab.md), the file of ours is made group-writable, so that another lab
 * user who waits on it can still write the holder line.
 */
static void share_with_group(int fd, const char *dir)
{
	struct stat d, f;

	if (stat(dir, &d) == 0 && (d.st_mode & S_IWGRP) != 0 &&
	    fstat(fd, &f) == 0 && f.st_uid == geteuid() && S_ISREG(f.st_mode) &&
	    (f.st_mode & S_IWGRP) == 0) {
		(void)fchmod(fd, 0664);
	}
}

/*
 * mkdir -p with mode 0700 for what we create. /tmp/hilrun-locks is in a
 * world-writable directory: someone else could have created it (or a
 * symlink by that name) first to see or steal our locks, so there it must
 * be a real directory of ours.
 */
static int make_dir(const char *dir, char **msg)
{
	char buf[HIL_LOCK_PATH_MAX];
	struct stat st;
	size_t i, n = strlen(dir);

	if (n == 0 || n >= sizeof(buf)) {
		set_msg(msg, msgf("lock directory path is empty or too long"));
		return HIL_ERR_ARG;
	}
	memcpy(buf, dir, n + 1);
	for (i = 1; i <= n; i++) {
		if (buf[i] != '/' && buf[i] != '\0') {
			continue;
		}
		buf[i] = '\0';
		if (mkdir(buf, 0700) != 0 && errno != EEXIST) {
			set_msg(msg, msgf("cannot create lock directory %s: %s",
					  buf, strerror(errno)));
			return HIL_ERR_IO;
		}
		buf[i] = dir[i];
	}
	if (strcmp(dir, TMP_DEFAULT) == 0) {
		if (lstat(dir, &st) != 0) {
			set_msg(msg, msgf("cannot use lock directory %s: %s",
					  dir, strerror(errno)));
			return HIL_ERR_IO;
		}
		if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
		    (st.st_mode & 022) != 0) {
			set_msg(msg,
				msgf("lock directory %s is not a private directory of ours (owner uid %ld, mode %03o): set HILRUN_LOCK_DIR or XDG_RUNTIME_DIR",
				     dir, (long)st.st_uid,
				     (unsigned)(st.st_mode & 0777)));
			return HIL_ERR_IO;
		}
	}
	return HIL_OK;
}

static int lock_path(char *buf, size_t len, const char *dir, const char *id)
{
	int n = snprintf(buf, len, "%s/%s.lock", dir, id);

	return n < 0 || (size_t)n >= len ? HIL_ERR_ARG : HIL_OK;
}

/* Read the holder info (one JSON line) of an open lock file into buf. */
static void read_holder(int fd, char *buf, size_t len)
{
	ssize_t r = pread(fd, buf, len - 1, 0);

	buf[r > 0 ? (size_t)r : 0] = '\0';
}

/*
 * "board nucleo-1 is in use by pid 1234 (configs/o2.json) since 10:42:03",
 * from the holder info; the date is added when it is not today, the host
 * when it is not ours (a lock directory on a shared file system).
 */
static char *holder_message(const char *id, const char *info)
{
	char when[64] = "", host[HOSTNAME_BYTES] = "",
	     where[HOSTNAME_BYTES + 8];
	char what[HIL_LOCK_PATH_MAX + 4] = "";
	const cJSON *pid, *started, *config, *hostname;
	cJSON *o = cJSON_Parse(info);
	char *s;

	pid = cJSON_GetObjectItemCaseSensitive(o, "pid");
	if (o == NULL || !cJSON_IsNumber(pid)) {
		cJSON_Delete(o);
		/* Locked an instant ago, not yet written: rare and harmless. */
		return msgf("board %s is in use by another process", id);
	}
	started = cJSON_GetObjectItemCaseSensitive(o, "started");
	config = cJSON_GetObjectItemCaseSensitive(o, "config");
	hostname = cJSON_GetObjectItemCaseSensitive(o, "hostname");
	if (gethostname(host, sizeof(host) - 1) != 0) {
		host[0] = '\0';
	}
	/*
	 * Info left by a holder that died (killed before its release
	 * truncated the file) under a newer holder that could not write its
	 * own (a lock file of another user, opened read-only): do not name
	 * the dead.
	 */
	if ((!cJSON_IsString(hostname) ||
	     strcmp(host, hostname->valuestring) == 0) &&
	    pid->valuedouble >= 1 && pid->valuedouble < 4194305 &&
	    kill((pid_t)pid->valuedouble, 0) != 0 && errno == ESRCH) {
		cJSON_Delete(o);
		return msgf("board %s is in use by another process", id);
	}
	/* Range-checked: a damaged file must not make the cast undefined. */
	if (cJSON_IsNumber(started) && started->valuedouble >= 0 &&
	    started->valuedouble < 1e11) {
		time_t t = (time_t)started->valuedouble, now = time(NULL);
		struct tm tm, today;

		localtime_r(&t, &tm);
		localtime_r(&now, &today);
		if (tm.tm_year == today.tm_year &&
		    tm.tm_yday == today.tm_yday) {
			strftime(when, sizeof(when), " since %H:%M:%S", &tm);
		} else {
			strftime(when, sizeof(when), " since %Y-%m-%d %H:%M:%S",
				 &tm);
		}
	}
	if (cJSON_IsString(config) && config->valuestring[0] != '\0') {
		snprintf(what, sizeof(what), " (%s)", config->valuestring);
	}
	where[0] = '\0';
	if (cJSON_IsString(hostname) && host[0] != '\0' &&
	    strcmp(host, hostname->valuestring) != 0) {
		snprintf(where, sizeof(where), " on %s", hostname->valuestring);
	}
	s = msgf("board %s is in use by pid %.0f%s%s%s", id, pid->valuedouble,
		 where, what, when);
	cJSON_Delete(o);
	return s;
}

static void write_holder(const struct hil_lock *lock, const char *config)
{
	char host[HOSTNAME_BYTES] = "";
	cJSON *o = cJSON_CreateObject();
	char *text = NULL;
	size_t n;

	if (gethostname(host, sizeof(host) - 1) != 0) {
		host[0] = '\0';
	}
	if (o == NULL ||
	    cJSON_AddNumberToObject(o, "pid", (double)getpid()) == NULL ||
	    cJSON_AddNumberToObject(o, "started", (double)time(NULL)) == NULL ||
	    cJSON_AddStringToObject(o, "config",
				    config != NULL ? config : "") == NULL ||
	    cJSON_AddStringToObject(o, "hostname", host) == NULL ||
	    cJSON_AddStringToObject(o, "id", lock->id) == NULL) {
		goto out;
	}
	text = cJSON_PrintUnformatted(o);
	if (text == NULL) {
		goto out;
	}
	n = strlen(text);
	text[n] = '\n'; /* replaces the NUL: written by length */
	/* The lock is held whatever happens here; the info is a courtesy. */
	if (ftruncate(lock->fd, 0) != 0 ||
	    pwrite(lock->fd, text, n + 1, 0) != (ssize_t)(n + 1)) {
		hil_warn(
			"cannot write the holder into %s: %s (others waiting for board %s will not see who holds it)",
			lock->path, strerror(errno), lock->id);
	}
out:
	free(text);
	cJSON_Delete(o);
}

/*
 * Someone may have removed the lock file (a /tmp cleaner, a person) between
 * our open() and flock(): we would then hold a lock on an orphaned inode
 * while a newcomer creates and locks a new file. Holding is only real if
 * the path still names the inode we locked.
 */
static int still_linked(int fd, const char *path)
{
	struct stat a, b;

	if (fstat(fd, &a) != 0 || stat(path, &b) != 0) {
		return 0;
	}
	return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

static int sleep_poll(void)
{
	struct timespec ts = {0, POLL_MS * 1000000L};

	/* EINTR: a caught signal (SIGINT/SIGTERM in hilrun) ends the wait. */
	return nanosleep(&ts, NULL) == 0 ? HIL_OK : HIL_ERR_INTERRUPTED;
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int hil_lock_acquire(struct hil_lock *lock, const char *dir, const char *id,
		     const char *config, unsigned wait_s, char **msg)
{
	char defdir[HIL_LOCK_PATH_MAX], info[HOLDER_MAX];
	long long deadline;
	int fd = -1;
	int ret;

	if (msg != NULL) {
		*msg = NULL;
	}
	if (lock == NULL) {
		set_msg(msg, msgf("no lock given"));
		return HIL_ERR_ARG;
	}
	memset(lock, 0, sizeof(*lock));
	if (!hil_lock_id_valid(id)) {
		set_msg(msg,
			msgf("invalid board id \"%.64s\": 1 to %d characters from A-Z a-z 0-9 . _ -",
			     id != NULL ? id : "", HIL_LOCK_ID_MAX - 1));
		return HIL_ERR_ARG;
	}
	if (dir == NULL) {
		if (hil_lock_default_dir(defdir, sizeof(defdir)) != HIL_OK) {
			set_msg(msg, msgf("lock directory path too long"));
			return HIL_ERR_ARG;
		}
		dir = defdir;
	}
	snprintf(lock->id, sizeof(lock->id), "%s", id);
	if (lock_path(lock->path, sizeof(lock->path), dir, id) != HIL_OK) {
		set_msg(msg, msgf("lock file path too long in %s", dir));
		return HIL_ERR_ARG;
	}
	ret = make_dir(dir, msg);
	if (ret != HIL_OK) {
		return ret;
	}
	deadline = now_ms() + (long long)wait_s * 1000;
	for (;;) {
		if (fd < 0) {
			/* 0666 less hilrun's umask (022), then 0664 in a
			 * lab's group-writable lock directory. */
			fd = open(lock->path,
				  O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW,
				  0666);
			if (fd >= 0) {
				share_with_group(fd, dir);
			}
			if (fd < 0 && errno == EACCES) {
				/* Another user's file: flock needs no write
				 * access; only the holder info is skipped. */
				fd = open(lock->path,
					  O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
			}
			if (fd < 0) {
				set_msg(msg,
					msgf("cannot open lock file %s: %s",
					     lock->path, strerror(errno)));
				return HIL_ERR_IO;
			}
		}
		if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
			if (still_linked(fd, lock->path)) {
				break;
			}
			/* Orphaned: drop it and lock the new file. */
			close(fd);
			fd = -1;
			continue;
		}
		if (errno != EWOULDBLOCK && errno != EINTR) {
			set_msg(msg, msgf("cannot lock %s: %s", lock->path,
					  strerror(errno)));
			close(fd);
			return HIL_ERR_IO;
		}
		if (now_ms() >= deadline) {
			read_holder(fd, info, sizeof(info));
			if (info[0] == '\0') {
				/* Just locked, info not yet written. */
				struct timespec ts = {0, 20 * 1000000L};

				nanosleep(&ts, NULL);
				read_holder(fd, info, sizeof(info));
			}
			close(fd);
			set_msg(msg, holder_message(id, info));
			if (msg != NULL && *msg == NULL) {
				return HIL_ERR_NOMEM;
			}
			return HIL_ERR_TIMEOUT;
		}
		if (sleep_poll() != HIL_OK) {
			close(fd);
			set_msg(msg,
				msgf("interrupted while waiting for board %s",
				     id));
			return HIL_ERR_INTERRUPTED;
		}
	}
	lock->fd = fd;
	lock->held = 1;
	write_holder(lock, config);
	return HIL_OK;
}

void hil_lock_release(struct hil_lock *lock)
{
	if (lock == NULL || !lock->held) {
		return;
	}
	/* Stale holder info would only mislead: it is read while locked. */
	if (ftruncate(lock->fd, 0) != 0) {
		hil_dbg("cannot truncate %s: %s", lock->path, strerror(errno));
	}
	close(lock->fd);
	lock->held = 0;
	lock->fd = -1;
}

int hil_lock_probe(const char *dir, const char *id, char **msg)
{
	char defdir[HIL_LOCK_PATH_MAX], path[HIL_LOCK_PATH_MAX];
	char info[HOLDER_MAX];
	int fd;

	if (msg != NULL) {
		*msg = NULL;
	}
	if (!hil_lock_id_valid(id)) {
		return HIL_ERR_ARG;
	}
	if (dir == NULL) {
		if (hil_lock_default_dir(defdir, sizeof(defdir)) != HIL_OK) {
			return HIL_ERR_ARG;
		}
		dir = defdir;
	}
	if (lock_path(path, sizeof(path), dir, id) != HIL_OK) {
		return HIL_ERR_ARG;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0) {
		/* Never locked (or the directory is gone): free. */
		return errno == ENOENT ? 0 : HIL_ERR_IO;
	}
	/*
	 * A shared lock conflicts only with an exclusive one. It is dropped at
	 * once; a run trying LOCK_EX|LOCK_NB in that instant would see the
	 * board busy, and every waiting run polls again 100 ms later.
	 */
	if (flock(fd, LOCK_SH | LOCK_NB) == 0) {
		flock(fd, LOCK_UN);
		close(fd);
		return 0;
	}
	if (errno != EWOULDBLOCK) {
		close(fd);
		return HIL_ERR_IO;
	}
	read_holder(fd, info, sizeof(info));
	close(fd);
	if (msg != NULL) {
		*msg = holder_message(id, info);
	}
	return 1;
}
