/* qemu: the flasher backend that "flashes" by starting QEMU's netduinoplus2 or mps2-an386 (Cortex-M4) on the new ELF, its UART on a unix socket or its semihosting console on a socketpair. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"qemu"

#include "flasher.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "drivers/link/link.h"
#include "qemu.h"
#include "util/err.h"
#include "util/jail.h"
#include "util/log.h"
#include "util/util.h"
#include "util/proc.h"

/*
 * Facts (QEMU 7.2, measured):
 * - USART2 is the second -serial. -nodefaults does not change that mapping
 *   and keeps QEMU from adding devices we did not ask for.
 * - With server=on,wait=on QEMU creates and listens on the socket, then
 *   blocks until a client connects, *before* loading -kernel: the guest's
 *   first bytes cannot be lost, but a bad image is only found after the
 *   link connects (QEMU exits, the link sees EOF, check() says why).
 * - A file that is not an ELF is loaded as a raw image (so is an x86 ELF):
 *   the CPU then reads a garbage vector table and QEMU aborts with "Lockup".
 *   Hence our own check that the file is a 32-bit ARM ELF before starting.
 * - Only with shift=0,align=off,sleep=off do runs count instructions exactly
 *   and reproducibly (design.md section 3).
 * - QEMU does not remove its socket file on exit: we do.
 *
 * Semihosting (params.link "semihost", the stub built with
 * HIL_LINK=semihost; docs/protocol.md, "Transports"):
 * - In QEMU 7.2 the ":tt" a guest opens with SYS_OPEN is QEMU's own stdin
 *   (opened "r") and stdout ("w"): SYS_READ and SYS_WRITE are read(0) and
 *   write(1) in the vCPU thread. The semihosting chardev (`chardev=` of
 *   -semihosting-config) does not carry them; a chardev on the same
 *   descriptor competes with the guest for its input (tried: replies
 *   lost, the guest spinning). So QEMU gets no chardev: its stdin and
 *   stdout are one end of a socketpair, its stderr goes to qemu.log.
 * - read(0) returns what has arrived, at least one byte: the guest waits
 *   without spinning (no idle CPU) and gets a whole frame per call.
 * - That read blocks holding QEMU's big lock, so QEMU does not act on a
 *   SIGTERM while the guest waits for input. qemu_stop() therefore shuts
 *   our end down first: the guest's read returns at once, and QEMU exits
 *   on the SIGTERM that follows (tens of ms, not the one-second grace
 *   before SIGKILL).
 * - The guest starts at once (there is no connect to wait for) and writes
 *   into the socketpair's buffer, so nothing it says is lost.
 */

#define DEFAULT_PROGRAM	   "qemu-system-arm"
#define DEFAULT_TIMEOUT_MS 10000u
#define VERSION_TIMEOUT_MS 5000u
#define SOCKET_NAME	   "uart.sock"
#define LOG_NAME	   "qemu.log"
#define TAIL_BYTES	   4096 /* how much of the log's end to search for the reason */
#define TAIL_TEXT	   512 /* how much of it goes into the error line */

struct qemu {
	char sock[sizeof(((struct sockaddr_un *)0)->sun_path)];
	char machine[64]; /* -M */
	char icount[48];  /* -icount's value */
	int semihost;	  /* link "semihost": stdin/stdout, no socket */
	int host_fd;	  /* semihost: our end of the socketpair, or -1 */
	char where[96];	  /* semihost: the link's name in messages */
	char *tmpdir;	  /* mkdtemp() dir holding the socket, or NULL */
	char *log_path;	  /* <run_dir>/qemu.log */
	char *elf;	  /* the image started, for messages */
	struct hil_proc *proc;
	off_t log_offset; /* size of qemu.log before this start */
	int said_stopped; /* qemu_check logged that this process is stopped */
};

static void sleep_ms(unsigned ms)
{
	struct timespec ts = {.tv_sec = ms / 1000u,
			      .tv_nsec = (long)(ms % 1000u) * 1000000L};

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
	}
}

static char *path_join(const char *dir, const char *name)
{
	size_t n = strlen(dir) + 1 + strlen(name) + 1;
	char *p = malloc(n);

	if (p != NULL) {
		snprintf(p, n, "%s/%s", dir, name);
	}
	return p;
}

static unsigned timeout_of(const struct hil_flasher *f)
{
	unsigned t = hil_flasher_params(f)->timeout_ms;

	return t != 0 ? t : DEFAULT_TIMEOUT_MS;
}

/*
 * The last meaningful lines QEMU wrote since this start, joined by " | ":
 * lines QEMU reports through error_report ("qemu-system-arm: ...",
 * "qemu: fatal: ...") are preferred over its register dump; failing those,
 * the last three lines.
 */
static void log_tail(const struct qemu *q, char *out, size_t len)
{
	char buf[TAIL_BYTES + 1];
	const char *lines[64];
	size_t nlines = 0, i, used = 0, first;
	size_t picked[8], npicked = 0;
	struct stat st;
	off_t from;
	ssize_t n;
	char *s;
	int fd;

	snprintf(out, len, "(qemu.log is empty)");
	fd = open(q->log_path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(out, len, "(cannot read %s: %s)", q->log_path,
			 strerror(errno));
		return;
	}
	from = q->log_offset;
	if (fstat(fd, &st) == 0 && st.st_size - from > TAIL_BYTES) {
		from = st.st_size - TAIL_BYTES;
	}
	n = pread(fd, buf, TAIL_BYTES, from);
	close(fd);
	if (n <= 0) {
		return;
	}
	buf[n] = '\0';
	for (s = buf;
	     *s != '\0' && nlines < sizeof(lines) / sizeof(lines[0]);) {
		char *nl = strchr(s, '\n');

		if (nl != NULL) {
			*nl = '\0';
		}
		if (s[0] != '\0') {
			lines[nlines++] = s;
		}
		if (nl == NULL) {
			break;
		}
		s = nl + 1;
	}
	for (i = 0; i < nlines && npicked < 8; i++) {
		if (strncmp(lines[i], "qemu", 4) == 0 &&
		    strstr(lines[i], ": info: ") == NULL) {
			picked[npicked++] = i;
		}
	}
	if (npicked == 0) {
		first = nlines > 3 ? nlines - 3 : 0;
		for (i = first; i < nlines; i++) {
			picked[npicked++] = i;
		}
	}
	if (npicked == 0) {
		return;
	}
	out[0] = '\0';
	for (i = 0; i < npicked && used + 1 < len; i++) {
		int w = snprintf(out + used, len - used, "%s%s",
				 i > 0 ? " | " : "", lines[picked[i]]);

		if (w < 0) {
			break;
		}
		used += (size_t)w;
	}
}

/* Log how QEMU ended, with its own words, and forget the process. */
static void report_exit(struct hil_flasher *f, const char *when)
{
	struct qemu *q = hil_flasher_priv(f);
	char tail[TAIL_TEXT];
	int status = -1;

	hil_proc_wait(q->proc, 0, &status);
	log_tail(q, tail, sizeof(tail));
	hil_err("%s exited with status %d %s (image %s): %s",
		hil_flasher_params(f)->program, status, when, q->elf, tail);
}

static int remove_socket(const struct qemu *q)
{
	if (unlink(q->sock) != 0 && errno != ENOENT) {
		hil_err("%s: cannot remove the old socket: %s", q->sock,
			strerror(errno));
		return HIL_ERR_IO;
	}
	return HIL_OK;
}

/* Semihost: end the pair. A guest blocked in its read (holding QEMU's
 * big lock) sees the end of input at once and lets QEMU act on SIGTERM. */
static void close_pair(struct qemu *q)
{
	if (q->host_fd >= 0) {
		shutdown(q->host_fd, SHUT_RDWR);
		close(q->host_fd);
		q->host_fd = -1;
	}
}

static void qemu_stop(struct hil_flasher *f)
{
	struct qemu *q = hil_flasher_priv(f);

	if (q == NULL || q->proc == NULL) {
		return;
	}
	close_pair(q);
	hil_proc_free(q->proc); /* SIGTERM, then SIGKILL, reaped */
	q->proc = NULL;
	q->said_stopped = 0;
	if (!q->semihost) {
		remove_socket(q);
	}
	hil_dbg("stopped (image %s)", q->elf);
}

static void qemu_close(struct hil_flasher *f)
{
	struct qemu *q = hil_flasher_priv(f);

	if (q == NULL) {
		return;
	}
	qemu_stop(f);
	close_pair(q);
	if (q->tmpdir != NULL) {
		remove_socket(q);
		if (rmdir(q->tmpdir) != 0) {
			hil_warn("%s: cannot remove: %s", q->tmpdir,
				 strerror(errno));
		}
		free(q->tmpdir);
	}
	free(q->log_path);
	free(q->elf);
	free(q);
	hil_flasher_set_priv(f, NULL);
}

static int qemu_open(struct hil_flasher *f)
{
	const struct hil_flasher_params *p = hil_flasher_params(f);
	struct qemu *q;
	int needs, ret;

	if (p->program == NULL) {
		ret = hil_flasher_set_program(f, DEFAULT_PROGRAM);
		if (ret != HIL_OK) {
			return ret;
		}
	}
	q = calloc(1, sizeof(*q));
	if (q == NULL) {
		hil_err("qemu flasher: no memory");
		return HIL_ERR_NOMEM;
	}
	hil_flasher_set_priv(f, q); /* qemu_close frees it on error */
	q->host_fd = -1;
	{
		unsigned shift;

		const char *spec = hil_flasher_opt(f, "machine");

		if (!hil_qemu_machine_of(spec, q->machine, sizeof(q->machine),
					 &shift)) {
			hil_err("qemu flasher: machine \"%s\" is not \"MACHINE\" or \"MACHINE,shift=N\" (N 0..%d)",
				spec, HIL_QEMU_MAX_SHIFT);
			return HIL_ERR_ARG;
		}
		/* Only with align=off,sleep=off (and a fixed shift) are runs
		 * exact and reproducible (design.md section 3). */
		snprintf(q->icount, sizeof(q->icount),
			 "shift=%u,align=off,sleep=off", shift);
	}
	q->log_path = path_join(p->run_dir, LOG_NAME);
	if (q->log_path == NULL) {
		hil_err("qemu flasher: no memory");
		return HIL_ERR_NOMEM;
	}
	/* What the link needs of the emulator is the link driver's to say. */
	needs = p->link != NULL && p->link[0] != '\0' ? hil_link_needs(p->link)
						      : HIL_LINK_NEEDS_SOCKET;
	if (needs == HIL_LINK_NEEDS_SEMIHOSTING) {
		q->semihost = 1;
		snprintf(q->where, sizeof(q->where),
			 "%s semihosting (stdin/stdout)", p->program);
		return HIL_OK;
	}
	if (needs != HIL_LINK_NEEDS_SOCKET) {
		hil_err("qemu flasher: no link \"%s\" (socket or semihost)",
			p->link);
		return HIL_ERR_ARG;
	}
	/* sun_path holds 107 bytes: a deep run_dir gets its socket in /tmp.
	 * So does a jailed QEMU: a private folder is all it may write to
	 * (the run folder holds the journal and the report). */
	if (!p->jail &&
	    strlen(p->run_dir) + 1 + strlen(SOCKET_NAME) < sizeof(q->sock)) {
		snprintf(q->sock, sizeof(q->sock), "%s/%s", p->run_dir,
			 SOCKET_NAME);
		return HIL_OK;
	}
	q->tmpdir = strdup("/tmp/hilrun-XXXXXX");
	if (q->tmpdir == NULL) {
		hil_err("qemu flasher: no memory");
		return HIL_ERR_NOMEM;
	}
	if (mkdtemp(q->tmpdir) == NULL) {
		hil_err("%s: cannot create a socket directory: %s", q->tmpdir,
			strerror(errno));
		free(q->tmpdir);
		q->tmpdir = NULL;
		return HIL_ERR_IO;
	}
	snprintf(q->sock, sizeof(q->sock), "%s/%s", q->tmpdir, SOCKET_NAME);
	hil_dbg("%s; socket is %s",
		p->jail ? "jailed: the socket goes in a private folder"
			: "the run directory is too long for a socket path",
		q->sock);
	return HIL_OK;
}

/* pre, then value with its commas doubled (QemuOpts), then post. */
static char *opt_arg(const char *pre, const char *value, const char *post)
{
	size_t n = strlen(pre) + 2 * strlen(value) + strlen(post) + 1, o;
	char *a = malloc(n);
	const char *s;

	if (a == NULL) {
		return NULL;
	}
	o = (size_t)snprintf(a, n, "%s", pre);
	for (s = value; *s != '\0'; s++) {
		a[o++] = *s;
		if (*s == ',') {
			a[o++] = ',';
		}
	}
	snprintf(a + o, n - o, "%s", post);
	return a;
}

/* "unix:PATH,server=on,wait=on" */
static char *serial_arg(const char *sock)
{
	return opt_arg("unix:", sock, ",server=on,wait=on");
}

/* Wait until QEMU listens on the socket, or exits, or time runs out. */
static int wait_socket(struct hil_flasher *f, uint64_t t0)
{
	struct qemu *q = hil_flasher_priv(f);
	uint64_t deadline = t0 + timeout_of(f);
	struct stat st;

	for (;;) {
		if (stat(q->sock, &st) == 0 && S_ISSOCK(st.st_mode)) {
			hil_dbg("%s listening on %s after %llu ms",
				hil_flasher_params(f)->program, q->sock,
				(unsigned long long)((uint64_t)hil_now_ms() -
						     t0));
			return HIL_OK;
		}
		if (!hil_proc_alive(q->proc)) {
			report_exit(f, "before creating its socket");
			return HIL_ERR_PROCESS;
		}
		if ((uint64_t)hil_now_ms() >= deadline) {
			hil_err("%s: no socket %s after %u ms (image %s)",
				hil_flasher_params(f)->program, q->sock,
				timeout_of(f), q->elf);
			return HIL_ERR_TIMEOUT;
		}
		sleep_ms(2);
	}
}

/*
 * The next value of a QemuOpts list (commas doubled inside a value) from
 * *s into buf; *s moves past it. @return 0 at the end of the list.
 */
static int next_opt(const char **s, char *buf, size_t len)
{
	size_t o = 0;

	if (**s == '\0') {
		return 0;
	}
	while (**s != '\0') {
		if (**s == ',' && (*s)[1] != ',') {
			(*s)++;
			break;
		}
		if (**s == ',') {
			(*s)++; /* a doubled comma is one */
		}
		if (o + 1 < len) {
			buf[o++] = **s;
		}
		(*s)++;
	}
	buf[o] = '\0';
	return 1;
}

/*
 * What a jailed QEMU sees besides the system: the image, read-only; the
 * cycle-model plugin (the first value of -plugin) read-only and its record
 * file ("out=") writable, made empty first if missing; and the private
 * folder of its socket, writable.
 */
static int qemu_jail(struct hil_flasher *f, struct hil_jail **out)
{
	struct qemu *q = hil_flasher_priv(f);
	const char *plugin = hil_flasher_opt(f, HIL_FLASHER_OPT_PLUGIN);
	struct hil_jail *j;
	char val[4096 + 8];
	int first = 1;
	int ret;

	ret = hil_jail_new(&j);
	if (ret != HIL_OK) {
		return ret;
	}
	ret = hil_jail_bind(j, q->elf, HIL_JAIL_RO);
	while (ret == HIL_OK && plugin != NULL &&
	       next_opt(&plugin, val, sizeof(val))) {
		if (first) {
			ret = hil_jail_bind(j, val, HIL_JAIL_RO);
			first = 0;
		} else if (strncmp(val, "out=", 4) == 0) {
			int fd = open(val + 4,
				      O_WRONLY | O_CREAT | O_APPEND |
					      O_NOFOLLOW | O_CLOEXEC,
				      0644);

			if (fd < 0) {
				hil_err("%s: cannot create it: %s", val + 4,
					strerror(errno));
				ret = HIL_ERR_IO;
				break;
			}
			close(fd);
			ret = hil_jail_bind(j, val + 4, HIL_JAIL_RW);
		}
	}
	if (ret == HIL_OK && q->tmpdir != NULL) {
		ret = hil_jail_bind(j, q->tmpdir, HIL_JAIL_RW);
	}
	if (ret != HIL_OK) {
		hil_jail_free(j);
		return ret;
	}
	*out = j;
	return HIL_OK;
}

/*
 * Spawn QEMU on q->elf: with the USART link, its second -serial (USART2)
 * is the socket `serial`; with semihosting, USART2 is left unconnected and
 * stdio_fd becomes QEMU's stdin and stdout.
 */
static int spawn(struct hil_flasher *f, char *serial, int stdio_fd)
{
	struct qemu *q = hil_flasher_priv(f);
	const char *program = hil_flasher_params(f)->program;
	const char *plugin = hil_flasher_opt(f, HIL_FLASHER_OPT_PLUGIN);
	/* The run it belongs to, in its command line (ps, and the tests'
	 * search for emulators left behind): the socket path says it too,
	 * but the semihost link has none. */
	char *name =
		opt_arg("guest=hilrun:", hil_flasher_params(f)->run_dir, "");
	char *argv[] = {
		(char *)program,
		"-name",
		name,
		"-M",
		q->machine,
		"-kernel",
		q->elf,
		"-display",
		"none",
		"-monitor",
		"none",
		"-serial",
		"null",
		"-icount",
		q->icount,
		"-nodefaults",
		NULL, /* room for -serial VALUE or -semihosting-config VALUE */
		NULL,
		NULL, /* room for -plugin VALUE */
		NULL,
		NULL,
	};
	size_t n = sizeof(argv) / sizeof(argv[0]);
	struct hil_jail *jail = NULL;
	int ret;

	if (q->semihost) {
		argv[n - 5] = "-semihosting-config";
		argv[n - 4] = "enable=on,target=native";
	} else {
		argv[n - 5] = "-serial";
		argv[n - 4] = serial; /* USART2 */
	}
	if (name == NULL) {
		hil_err("image %s: no memory to start %s", q->elf, program);
		return HIL_ERR_NOMEM;
	}
	if (plugin != NULL && plugin[0] != '\0') {
		argv[n - 3] = "-plugin";
		argv[n - 2] = (char *)plugin;
		hil_dbg("with -plugin %s", plugin);
	}
	if (hil_flasher_params(f)->jail) {
		ret = qemu_jail(f, &jail);
		if (ret != HIL_OK) {
			free(name);
			return ret;
		}
	}
	ret = hil_proc_spawn_jailed(&q->proc, argv, stdio_fd, q->log_path,
				    jail);
	hil_jail_free(jail);
	free(name);
	return ret;
}

/* The semihost link: QEMU on one end of a new socketpair, ours kept. */
static int start_semihost(struct hil_flasher *f)
{
	struct qemu *q = hil_flasher_priv(f);
	int sv[2], ret;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
		hil_err("image %s: cannot make a socketpair for %s: %s", q->elf,
			hil_flasher_params(f)->program, strerror(errno));
		return HIL_ERR_IO;
	}
	ret = spawn(f, NULL, sv[1]);
	close(sv[1]); /* QEMU has its copies */
	if (ret != HIL_OK) {
		close(sv[0]);
		return ret; /* spawn named the program and the reason */
	}
	q->host_fd = sv[0];
	hil_dbg("%s started on its stdio (pid %ld)",
		hil_flasher_params(f)->program, (long)hil_proc_pid(q->proc));
	return HIL_OK;
}

static int qemu_start(struct hil_flasher *f, const char *elf_path)
{
	struct qemu *q = hil_flasher_priv(f);
	const char *program = hil_flasher_params(f)->program;
	char *serial = NULL;
	struct stat st;
	uint64_t t0;
	int ret;

	qemu_stop(f);
	ret = hil_flasher_check_elf(elf_path,
				    "QEMU would run it as a raw image");
	if (ret != HIL_OK) {
		return ret;
	}
	free(q->elf);
	q->elf = strdup(elf_path);
	if (q->elf == NULL) {
		hil_err("image %s: no memory to start %s", elf_path, program);
		return HIL_ERR_NOMEM;
	}
	q->log_offset = stat(q->log_path, &st) == 0 ? st.st_size : 0;
	if (q->semihost) {
		return start_semihost(f);
	}
	serial = serial_arg(q->sock);
	if (serial == NULL) {
		hil_err("image %s: no memory to start %s", elf_path, program);
		return HIL_ERR_NOMEM;
	}
	ret = remove_socket(q);
	if (ret != HIL_OK) {
		goto out;
	}
	t0 = (uint64_t)hil_now_ms();
	ret = spawn(f, serial, -1);
	if (ret != HIL_OK) {
		goto out; /* spawn named the program and the reason */
	}
	ret = wait_socket(f, t0);
	if (ret != HIL_OK) {
		qemu_stop(f);
	}
out:
	free(serial);
	return ret;
}

static const char *qemu_link_where(struct hil_flasher *f)
{
	struct qemu *q = hil_flasher_priv(f);

	return q->semihost ? q->where : q->sock;
}

static int qemu_link_fd(struct hil_flasher *f)
{
	struct qemu *q = hil_flasher_priv(f);
	int fd;

	if (!q->semihost || q->host_fd < 0) {
		return HIL_ERR_NA;
	}
	fd = fcntl(q->host_fd, F_DUPFD_CLOEXEC, 3);
	if (fd < 0) {
		hil_err("%s: cannot copy its descriptor: %s", q->where,
			strerror(errno));
		return HIL_ERR_IO;
	}
	return fd;
}

/*
 * Whether the process is stopped (SIGSTOP, a debugger): its state in
 * /proc/PID/stat is 'T' or 't'. The state comes after the command name in
 * parentheses, which may itself hold ") ": read it after the last ')'.
 */
static int proc_stopped(pid_t pid)
{
	char path[64], buf[512];
	const char *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		return 0; /* no procfs: cannot tell, treat as running */
	}
	do {
		n = read(fd, buf, sizeof(buf) - 1);
	} while (n < 0 && errno == EINTR);
	close(fd);
	if (n <= 0) {
		return 0;
	}
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p != NULL && p[1] == ' ' && (p[2] == 'T' || p[2] == 't');
}

static int qemu_check(struct hil_flasher *f)
{
	struct qemu *q = hil_flasher_priv(f);

	if (q->proc == NULL) {
		return HIL_ERR_NA;
	}
	if (hil_proc_alive(q->proc)) {
		/* A frozen emulator answers nothing, as a dead one: both are
		 * restarted, never waited for. */
		if (proc_stopped(hil_proc_program_pid(q->proc))) {
			if (q->said_stopped) {
				return HIL_ERR_PROCESS;
			}
			q->said_stopped = 1;
			hil_err("%s (pid %ld) is stopped, not running (image %s): it answers nothing",
				hil_flasher_params(f)->program,
				(long)hil_proc_program_pid(q->proc), q->elf);
			return HIL_ERR_PROCESS;
		}
		return HIL_OK;
	}
	report_exit(f, "while running");
	return HIL_ERR_PROCESS;
}

static int qemu_version(struct hil_flasher *f, char *buf, size_t len)
{
	const char *program = hil_flasher_params(f)->program;
	char out[512];
	int status = -1, ret;

	/* Jailed as flashing is (params.jail). */
	ret = hil_flasher_tool_version(f, out, sizeof(out), VERSION_TIMEOUT_MS,
				       &status);
	if (ret != HIL_OK) {
		return ret;
	}
	out[strcspn(out, "\r\n")] = '\0';
	if (status != 0 || out[0] == '\0') {
		hil_err("%s --version: exit status %d, output \"%s\"", program,
			status, out);
		return HIL_ERR_PROCESS;
	}
	snprintf(buf, len, "%s", out);
	return HIL_OK;
}

const struct hil_flasher_ops hil_flasher_qemu_ops = {
	.name = "qemu",
	.program = DEFAULT_PROGRAM,
	.package = "qemu-system-arm",
	.parse = hil_qemu_parse,
	.opts = hil_qemu_opts,
	.options = hil_qemu_options,
	.open = qemu_open,
	.close = qemu_close,
	.start = qemu_start,
	.stop = qemu_stop,
	.link_where = qemu_link_where,
	.link_fd = qemu_link_fd,
	.check = qemu_check,
	.version = qemu_version,
};
