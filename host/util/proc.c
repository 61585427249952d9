/* proc: spawn, wait for, and kill child processes without a shell; no child outlives its handle. */
/*
 * _GNU_SOURCE for pipe2(O_CLOEXEC) and close_range(): with threads (the
 * daemon), a descriptor made without close-on-exec in one step can leak into
 * a child spawned meanwhile by another thread, which would then hold a board
 * lock, a socket or our exec-error pipe open.
 */
#define _GNU_SOURCE
#define HIL_LOG_PREFIX "proc"

#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "err.h"
#include "jail.h"
#include "log.h"
#include "util.h"

/* How long hil_proc_kill() lets the child handle SIGTERM. */
#define KILL_GRACE_MS 1000u

struct hil_proc {
	pid_t pid;   /* the program's: its process group's id */
	pid_t wait;  /* the child we wait for: its supervisor, or pid */
	pid_t inner; /* jailed: the program's own pid (bwrap's child); 0 */
	int reaped;
	int status; /* converted exit status, valid once reaped */
	char *name;
};

/* Has hilrun been told to stop (the flag its caller handed down)? */
static int stopping(const volatile sig_atomic_t *stop)
{
	return stop != NULL && *stop;
}

/* What the child reports on its exec-error pipe before _exit(). */
struct child_err {
	int stage;
	int err;
};

/* STAGE_PID is no failure: the supervisor says the program's pid (err). */
enum {
	STAGE_PGID = 1,
	STAGE_FDS,
	STAGE_LIMIT,
	STAGE_EXEC,
	STAGE_FORK,
	STAGE_PID
};

static const char *stage_text(int stage)
{
	switch (stage) {
	case STAGE_PGID:
		return "cannot create its process group";
	case STAGE_FDS:
		return "cannot set up its standard streams";
	case STAGE_LIMIT:
		return "cannot set its memory limit";
	case STAGE_FORK:
		return "cannot fork it from its supervisor";
	default:
		return "cannot run";
	}
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

static void sleep_ms(unsigned ms)
{
	struct timespec ts = {.tv_sec = ms / 1000u,
			      .tv_nsec = (long)(ms % 1000u) * 1000000L};

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
	}
}

static int convert_status(int st)
{
	if (WIFEXITED(st)) {
		return WEXITSTATUS(st);
	}
	if (WIFSIGNALED(st)) {
		return 128 + WTERMSIG(st);
	}
	return 255;
}

/* Move fd to a number >= 3 (close-on-exec) so the dup2()s in the child cannot clobber it. */
static int high_fd(int fd)
{
	int h, err;

	if (fd < 0 || fd >= 3) {
		return fd;
	}
	h = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	err = errno;
	close(fd);
	errno = err;
	return h;
}

/*
 * In the child between fork() and exec(): async-signal-safe calls only (the
 * daemon has threads). Failures go to the parent through errfd.
 */
static void child_exec(char *const argv[], int in_fd, int out_fd, int log_fd,
		       int errfd, pid_t parent, unsigned long long mem,
		       int keep_fd)
{
	struct child_err ce = {0, 0};
	struct sigaction sa;
	sigset_t none;
	int sig;

	if (setpgid(0, 0) != 0) {
		ce.stage = STAGE_PGID;
		goto fail;
	}
#ifdef __linux__
	/* Die with hilrun; if it already died, do not start at all. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent) {
		_exit(127);
	}
#else
	(void)parent;
#endif
	/* Ignored signals and the mask survive exec: give the child defaults. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	for (sig = 1; sig < NSIG; sig++) {
		sigaction(sig, &sa, NULL); /* fails harmlessly for KILL/STOP */
	}
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);

	if (mem != 0) {
		/* A jailed child's address space, inherited by all it runs. */
		struct rlimit rl = {.rlim_cur = (rlim_t)mem,
				    .rlim_max = (rlim_t)mem};

		if (setrlimit(RLIMIT_AS, &rl) != 0) {
			ce.stage = STAGE_LIMIT;
			goto fail;
		}
	}

	if (dup2(in_fd, 0) < 0 || (out_fd >= 0 && dup2(out_fd, 1) < 0) ||
	    (log_fd >= 0 && dup2(log_fd, 2) < 0)) {
		ce.stage = STAGE_FDS;
		goto fail;
	}
#ifdef __linux__
	/*
	 * Nothing of hilrun's (board locks, sockets) passes into the child,
	 * even descriptors a caller opened without O_CLOEXEC. Linux >= 5.11;
	 * on older kernels this fails and only CLOEXEC descriptors are closed.
	 */
	close_range(3, ~0u, CLOSE_RANGE_CLOEXEC);
#endif
	/* bwrap's --info-fd: the one descriptor of ours the child keeps. */
	if (keep_fd >= 0 && fcntl(keep_fd, F_SETFD, 0) != 0) {
		ce.stage = STAGE_FDS;
		goto fail;
	}

	execvp(argv[0], argv);
	ce.stage = STAGE_EXEC;
fail:
	ce.err = errno;
	while (write(errfd, &ce, sizeof(ce)) < 0 && errno == EINTR) {
	}
	_exit(127);
}

static void signal_group(const struct hil_proc *p, int sig);
static int exited_unreaped(const struct hil_proc *p);

#ifdef __linux__
/* Report stage and err to the parent (async-signal-safe). */
static void tell_parent(int errfd, int stage, int err)
{
	struct child_err ce = {stage, err};

	while (write(errfd, &ce, sizeof(ce)) < 0 && errno == EINTR) {
	}
}

/*
 * The child hilrun forks: the program's supervisor, a subreaper in a process
 * group of its own (the program has another: hilrun signals that one). Its
 * parent-death signal is SIGTERM: when hilrun dies, even by SIGKILL, it kills
 * the program's whole group, so that what the program started (make -> sh ->
 * gcc -> cc1) does not live on; the program's own parent-death signal only
 * reaches the program. Otherwise it waits for the program to end, kills what
 * it left in its group, reaps it all and exits as the program did, so that
 * once hilrun has reaped the supervisor, the program and its group are gone.
 * Async-signal-safe calls only: it is a fork of a process that may have
 * threads, and it never execs.
 */
static void supervise(char *const argv[], int in_fd, int out_fd, int log_fd,
		      int errfd, pid_t parent, unsigned long long mem,
		      int keep_fd)
{
	struct sigaction sa;
	struct rlimit no_core = {0, 0};
	struct timespec nap = {0, 10 * 1000000L};
	sigset_t wait_for, none;
	pid_t self, prog;
	int sig, st = 0, i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	sigemptyset(&sa.sa_mask);
	for (sig = 1; sig < NSIG; sig++) {
		sigaction(sig, &sa, NULL); /* none of hilrun's handlers */
	}
	sigemptyset(&wait_for);
	sigaddset(&wait_for, SIGCHLD);
	sigaddset(&wait_for, SIGTERM);
	sigaddset(&wait_for, SIGINT);
	sigaddset(&wait_for, SIGHUP);
	sigaddset(&wait_for, SIGQUIT);
	/* Blocked, they stay pending for sigwaitinfo (Linux keeps even a
	 * blocked SIGCHLD whose action is the default). */
	sigprocmask(SIG_SETMASK, &wait_for, NULL);
	setpgid(0, 0); /* no terminal's Ctrl-C, no signal to the program's */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != parent) {
		_exit(127); /* hilrun died already */
	}
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	self = getpid();
	prog = fork();
	if (prog < 0) {
		tell_parent(errfd, STAGE_FORK, errno);
		_exit(127);
	}
	if (prog == 0) {
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		child_exec(argv, in_fd, out_fd, log_fd, errfd, self, mem,
			   keep_fd);
	}
	/* Its own group, made by whichever of us runs first, before hilrun
	 * hears its pid and may signal the group. */
	setpgid(prog, prog);
	tell_parent(errfd, STAGE_PID, (int)prog);
	close_range(0, ~0u, 0); /* hilrun's streams and pipes are not ours */
	for (;;) {
		siginfo_t si;

		memset(&si, 0, sizeof(si));
		sig = sigwaitinfo(&wait_for, &si);
		if (sig == SIGTERM || sig == SIGINT || sig == SIGHUP ||
		    sig == SIGQUIT) {
			if (getppid() != parent) {
				/* hilrun is gone: so is all it started. */
				kill(-prog, SIGKILL);
				_exit(128 + SIGKILL);
			}
			continue; /* not for us: hilrun signals the group */
		}
		/* Who ended: orphans of its group that came to us are reaped;
		 * the program is left a zombie until its group is killed (its
		 * group's id stays ours meanwhile). */
		for (;;) {
			memset(&si, 0, sizeof(si));
			if (waitid(P_ALL, 0, &si,
				   WEXITED | WNOHANG | WNOWAIT) != 0 ||
			    si.si_pid == 0 || si.si_pid == prog) {
				break;
			}
			waitpid(si.si_pid, &st, 0);
		}
		if (si.si_pid == prog) {
			break;
		}
	}
	kill(-prog, SIGKILL); /* what it left behind in its group */
	while (waitpid(prog, &st, 0) < 0 && errno == EINTR) {
	}
	/* Reap the rest as they die (bounded: one that left the group with
	 * setsid is not ours to wait for). */
	for (i = 0; i < 100; i++) {
		int any;
		pid_t r = waitpid(-1, &any, WNOHANG);

		if (r < 0 && errno == ECHILD) {
			break;
		}
		if (r <= 0) {
			nanosleep(&nap, NULL);
		}
	}
	if (WIFEXITED(st)) {
		_exit(WEXITSTATUS(st));
	}
	/* Killed by a signal: so are we, for hilrun to see the same status. */
	sig = WIFSIGNALED(st) ? WTERMSIG(st) : SIGKILL;
	setrlimit(RLIMIT_CORE, &no_core);
	signal(sig, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	kill(getpid(), sig);
	_exit(128 + sig);
}
#endif

static void reap_blocking(struct hil_proc *p)
{
	int st;

	while (waitpid(p->wait, &st, 0) < 0) {
		if (errno != EINTR) {
			/* ECHILD: someone else reaped it (SIGCHLD ignored). */
			st = 0xff00;
			break;
		}
	}
	p->status = convert_status(st);
	p->reaped = 1;
}

/* Non-blocking reap; returns 1 if the child has exited (now reaped). */
static int reap_now(struct hil_proc *p)
{
	pid_t r;
	int st;

	if (p->reaped) {
		return 1;
	}
	do {
		r = waitpid(p->wait, &st, WNOHANG);
	} while (r < 0 && errno == EINTR);
	if (r == 0) {
		return 0;
	}
	if (r < 0) {
		hil_warn("%s (pid %ld): cannot wait for it: %s", p->name,
			 (long)p->pid, strerror(errno));
		st = 0xff00; /* ECHILD: treat as exited with 255 */
	}
	p->status = convert_status(st);
	p->reaped = 1;
	return 1;
}

/*
 * stdin from stdio_fd, or /dev/null when it is -1; stdout to stdio_fd, or
 * else log_fd; stderr to log_fd (-1: hilrun's own). Both stay the caller's;
 * log_fd is at 3 or above (a copy of stdio_fd is made there).
 */
static int spawn_fd(struct hil_proc **out, char *const argv[], int stdio_fd,
		    int log_fd, unsigned long long mem, int keep_fd)
{
	struct hil_proc *p;
	struct child_err ce;
	int pipefd[2], in_fd, ret;
	pid_t parent = getpid();
	ssize_t n;

	p = calloc(1, sizeof(*p));
	if (p == NULL) {
		hil_err("%s: no memory to start it", argv[0]);
		return HIL_ERR_NOMEM;
	}
	p->name = strdup(argv[0]);
	if (p->name == NULL) {
		hil_err("%s: no memory to start it", argv[0]);
		ret = HIL_ERR_NOMEM;
		goto err_free;
	}
	in_fd = stdio_fd >= 0
			? fcntl(stdio_fd, F_DUPFD_CLOEXEC, 3)
			: high_fd(open("/dev/null", O_RDONLY | O_CLOEXEC));
	if (in_fd < 0) {
		hil_err("%s: cannot %s: %s", argv[0],
			stdio_fd >= 0 ? "copy its stdio descriptor"
				      : "open /dev/null",
			strerror(errno));
		ret = HIL_ERR_IO;
		goto err_free;
	}
	if (pipe2(pipefd, O_CLOEXEC) != 0) {
		hil_err("%s: cannot create a pipe: %s", argv[0],
			strerror(errno));
		ret = HIL_ERR_IO;
		goto err_in;
	}
	p->pid = fork();
	if (p->pid < 0) {
		hil_err("%s: cannot fork: %s", argv[0], strerror(errno));
		ret = HIL_ERR_IO;
		goto err_pipe;
	}
	if (p->pid == 0) {
		close(pipefd[0]);
#ifdef __linux__
		supervise(argv, in_fd, stdio_fd >= 0 ? in_fd : log_fd, log_fd,
			  pipefd[1], parent, mem, keep_fd);
#else
		child_exec(argv, in_fd, stdio_fd >= 0 ? in_fd : log_fd, log_fd,
			   pipefd[1], parent, mem, keep_fd);
#endif
	}
	p->wait = p->pid;
	close(pipefd[1]);
	close(in_fd);

	/* EOF: exec succeeded (the pipe closed on exec, and the supervisor
	 * closed its end after saying the program's pid). Other data: it
	 * failed. */
	for (;;) {
		do {
			n = read(pipefd[0], &ce, sizeof(ce));
		} while (n < 0 && errno == EINTR);
		if (n != (ssize_t)sizeof(ce) || ce.stage != STAGE_PID) {
			break;
		}
		p->pid = (pid_t)ce.err;
	}
	close(pipefd[0]);
	if (n == (ssize_t)sizeof(ce)) {
		reap_blocking(p);
		hil_err("%s: %s: %s", argv[0], stage_text(ce.stage),
			strerror(ce.err));
		ret = (ce.stage == STAGE_EXEC &&
		       (ce.err == ENOENT || ce.err == EACCES ||
			ce.err == ENOTDIR))
			      ? HIL_ERR_NA
			      : HIL_ERR_PROCESS;
		goto err_name;
	}
	hil_dbg("%s: started, pid %ld (supervisor %ld)", argv[0], (long)p->pid,
		(long)p->wait);
	*out = p;
	return HIL_OK;

err_pipe:
	close(pipefd[0]);
	close(pipefd[1]);
err_in:
	close(in_fd);
err_name:
	free(p->name);
err_free:
	free(p);
	return ret;
}

/* A jailed child is named by its program, not by bwrap, in messages. */
static int name_jailed(struct hil_proc *p, const char *name)
{
	char *n = malloc(strlen(name) + sizeof(" (jailed)"));

	if (n == NULL) {
		return HIL_OK; /* "bwrap" it stays */
	}
	sprintf(n, "%s (jailed)", name);
	free(p->name);
	p->name = n;
	return HIL_OK;
}

static int check_argv(char *const argv[])
{
	if (argv == NULL || argv[0] == NULL || argv[0][0] == '\0') {
		hil_err("cannot start a process: empty command");
		return HIL_ERR_ARG;
	}
	return HIL_OK;
}

int hil_proc_spawn(struct hil_proc **out, char *const argv[],
		   const char *log_path)
{
	return hil_proc_spawn_stdio(out, argv, -1, log_path);
}

int hil_proc_spawn_stdio(struct hil_proc **out, char *const argv[],
			 int stdio_fd, const char *log_path)
{
	return hil_proc_spawn_jailed(out, argv, stdio_fd, log_path, NULL);
}

/* Is there a program to run by this name (PATH searched as execvp does)? */
static int program_exists(const char *name)
{
	const char *path = getenv("PATH");
	char buf[4096];

	if (strchr(name, '/') != NULL) {
		return access(name, X_OK) == 0;
	}
	if (path == NULL) {
		path = "/usr/local/bin:/usr/bin:/bin";
	}
	while (*path != '\0') {
		size_t n = strcspn(path, ":");
		int w = snprintf(buf, sizeof(buf), "%.*s%s%s", (int)n, path,
				 n > 0 ? "/" : "./", name);

		if (w > 0 && (size_t)w < sizeof(buf) &&
		    access(buf, X_OK) == 0) {
			return 1;
		}
		path += n + (path[n] == ':');
	}
	return 0;
}

/*
 * The jail's command line (bwrap ... -- argv) into *full, once argv's
 * program is known to exist: bwrap would report a missing one only as its
 * own exit status. info[] becomes the pipe of bwrap's --info-fd.
 */
static int jail_command(const struct hil_jail *jail, char *const argv[],
			int info[2], char ***full)
{
	int ret;

	if (!program_exists(argv[0])) {
		hil_err("%s: cannot run: %s", argv[0], strerror(ENOENT));
		return HIL_ERR_NA;
	}
	if (pipe2(info, O_CLOEXEC) != 0) {
		hil_err("%s: cannot create a pipe: %s", argv[0],
			strerror(errno));
		return HIL_ERR_IO;
	}
	ret = hil_jail_argv(jail, argv, info[1], full);
	if (ret != HIL_OK) {
		close(info[0]);
		close(info[1]);
	}
	return ret;
}

/* How long bwrap may take to set a jail up and say the program's pid. */
#define JAIL_INFO_MS 10000

/*
 * The jailed program's pid, from bwrap's {"child-pid": N, ...} on fd
 * (read to its end; bwrap closes it once the jail is set up). 0 when
 * bwrap said nothing (it failed: its exit status and log say why).
 */
static pid_t read_inner_pid(int fd)
{
	char buf[1024];
	size_t used = 0;
	uint64_t deadline = now_ms() + JAIL_INFO_MS;
	const char *k;
	long v;

	for (;;) {
		struct pollfd pfd = {.fd = fd, .events = POLLIN, .revents = 0};
		uint64_t now = now_ms();
		ssize_t n;
		int r;

		if (now >= deadline || used + 1 >= sizeof(buf)) {
			break;
		}
		r = poll(&pfd, 1, (int)(deadline - now));
		if (r < 0 && errno == EINTR) {
			continue;
		}
		if (r <= 0) {
			break;
		}
		n = read(fd, buf + used, sizeof(buf) - 1 - used);
		if (n < 0 && errno == EINTR) {
			continue;
		}
		if (n <= 0) {
			break;
		}
		used += (size_t)n;
		buf[used] = '\0';
		if (strchr(buf, '}') != NULL) {
			break;
		}
	}
	buf[used] = '\0';
	k = strstr(buf, "\"child-pid\":");
	if (k == NULL) {
		return 0;
	}
	v = strtol(k + strlen("\"child-pid\":"), NULL, 10);
	return v > 0 ? (pid_t)v : 0;
}

/*
 * spawn_fd() in a jail (NULL: not jailed): stdout (unless stdio_fd) and
 * stderr to out_fd (-1: hilrun's), which stays the caller's.
 */
static int spawn_jailed_fd(struct hil_proc **out, char *const argv[],
			   int stdio_fd, int out_fd,
			   const struct hil_jail *jail)
{
	char **full = NULL;
	int info[2] = {-1, -1};
	int ret;

	*out = NULL;
	ret = check_argv(argv);
	if (ret == HIL_OK && jail != NULL) {
		ret = jail_command(jail, argv, info, &full);
	}
	if (ret != HIL_OK) {
		return ret;
	}
	ret = spawn_fd(out, full != NULL ? full : argv, stdio_fd, out_fd,
		       hil_jail_mem(jail), info[1]);
	if (info[1] >= 0) {
		close(info[1]);
	}
	if (ret == HIL_OK && full != NULL) {
		(*out)->inner = read_inner_pid(info[0]);
		ret = name_jailed(*out, argv[0]);
	}
	if (ret == HIL_ERR_NA && full != NULL) {
		hil_err("the jail for %s cannot be set up: bubblewrap (bwrap) is not installed (Debian: apt install bubblewrap)",
			argv[0]);
	}
	if (info[0] >= 0) {
		close(info[0]);
	}
	hil_jail_argv_free(full);
	return ret;
}

int hil_proc_spawn_jailed(struct hil_proc **out, char *const argv[],
			  int stdio_fd, const char *log_path,
			  const struct hil_jail *jail)
{
	int out_fd = -1, ret;

	if (out == NULL) {
		return HIL_ERR_ARG;
	}
	*out = NULL;
	ret = check_argv(argv);
	if (ret != HIL_OK) {
		return ret;
	}
	if (log_path != NULL) {
		out_fd = high_fd(hil_open_append(log_path));
		if (out_fd < 0) {
			hil_err("%s: cannot open log %s: %s", argv[0], log_path,
				strerror(errno));
			return HIL_ERR_IO;
		}
	}
	ret = spawn_jailed_fd(out, argv, stdio_fd, out_fd, jail);
	if (out_fd >= 0) {
		close(out_fd);
	}
	return ret;
}

/* hil_proc_wait(); it also ends once stop (NULL: never) is set. */
static int wait_child(struct hil_proc *p, unsigned timeout_ms, int *exit_status,
		      const volatile sig_atomic_t *stop)
{
	uint64_t deadline;
	unsigned nap = 1;

	if (p == NULL) {
		return HIL_ERR_ARG;
	}
	deadline = now_ms() + timeout_ms;
	/* Polling keeps us free of a process-wide SIGCHLD handler. */
	while (!reap_now(p)) {
		uint64_t now = now_ms();

		if (stopping(stop)) {
			return HIL_ERR_INTERRUPTED;
		}
		if (now >= deadline) {
			return HIL_ERR_TIMEOUT;
		}
		sleep_ms(nap < deadline - now ? nap
					      : (unsigned)(deadline - now));
		if (nap < 32) {
			nap *= 2;
		}
	}
	if (exit_status != NULL) {
		*exit_status = p->status;
	}
	return HIL_OK;
}

int hil_proc_wait(struct hil_proc *p, unsigned timeout_ms, int *exit_status)
{
	/* Not stoppable: a flash being written is let finish (a minute at
	 * most); the callers that may be cut short use hil_proc_run(). */
	return wait_child(p, timeout_ms, exit_status, NULL);
}

int hil_proc_alive(struct hil_proc *p)
{
	if (p == NULL) {
		return 0;
	}
	return !reap_now(p);
}

/* Signal the child's group; if it left the group (setsid), the child alone. */
static void signal_group(const struct hil_proc *p, int sig)
{
	if (kill(-p->pid, sig) != 0 && errno == ESRCH) {
		kill(p->wait, sig);
	}
}

/* Has the child exited? Leaves it a zombie, so its pid and group stay ours. */
static int exited_unreaped(const struct hil_proc *p)
{
	siginfo_t si;
	int r;

	memset(&si, 0, sizeof(si));
	do {
		r = waitid(P_PID, (id_t)p->wait, &si,
			   WEXITED | WNOHANG | WNOWAIT);
	} while (r < 0 && errno == EINTR);
	if (r < 0) {
		return 1; /* ECHILD: nothing left to wait for */
	}
	return si.si_pid == p->wait;
}

void hil_proc_kill(struct hil_proc *p)
{
	uint64_t deadline;
	unsigned nap = 1;

	if (p == NULL || p->reaped) {
		return;
	}
	/*
	 * Jailed: the SIGTERM goes to the program (the jail's pid 1, which
	 * gets it only if it handles it); bwrap, which would die of it and
	 * take the jail down with SIGKILL, exits when the program does.
	 */
	if (p->inner > 0 && !exited_unreaped(p)) {
		kill(p->inner, SIGTERM);
	} else {
		signal_group(p, SIGTERM);
	}
	deadline = now_ms() + KILL_GRACE_MS;
	while (!exited_unreaped(p) && now_ms() < deadline) {
		sleep_ms(nap);
		if (nap < 32) {
			nap *= 2;
		}
	}
	/*
	 * Jailed and still there (a program without a SIGTERM handler, as
	 * pid 1 of its jail, ignores it): SIGKILL it while bwrap, its parent,
	 * still holds its pid; bwrap reaps it, and with it every process of
	 * the jail, then exits.
	 */
	if (p->inner > 0 && !exited_unreaped(p)) {
		kill(p->inner, SIGKILL);
		deadline = now_ms() + KILL_GRACE_MS;
		while (!exited_unreaped(p) && now_ms() < deadline) {
			sleep_ms(nap);
		}
	}
	/*
	 * The leader may be gone but not what it spawned. While the supervisor
	 * lives, the program is at worst its zombie, so the group's id cannot
	 * be reused and this cannot hit a stranger; once it has exited it has
	 * killed the group itself. (Without a supervisor the child is the
	 * leader, unreaped until below.)
	 */
	if (p->wait == p->pid || !exited_unreaped(p)) {
		signal_group(p, SIGKILL);
	}
	reap_blocking(p);
	hil_dbg("%s (pid %ld): stopped, status %d", p->name, (long)p->pid,
		p->status);
}

void hil_proc_free(struct hil_proc *p)
{
	if (p == NULL) {
		return;
	}
	if (!reap_now(p)) {
		hil_proc_kill(p);
	}
	free(p->name);
	free(p);
}

pid_t hil_proc_pid(const struct hil_proc *p)
{
	return p != NULL ? p->pid : -1;
}

pid_t hil_proc_program_pid(const struct hil_proc *p)
{
	if (p == NULL) {
		return -1;
	}
	return p->inner > 0 ? p->inner : p->pid;
}

const char *hil_proc_name(const struct hil_proc *p)
{
	return p != NULL ? p->name : "(no process)";
}

int hil_proc_run(char *const argv[], const char *log_path, unsigned timeout_ms,
		 int *exit_status)
{
	return hil_proc_run_jailed(argv, log_path, timeout_ms, exit_status,
				   NULL, NULL);
}

int hil_proc_run_jailed(char *const argv[], const char *log_path,
			unsigned timeout_ms, int *exit_status,
			const struct hil_jail *jail,
			const volatile sig_atomic_t *stop)
{
	struct hil_proc *p;
	int ret;

	ret = hil_proc_spawn_jailed(&p, argv, -1, log_path, jail);
	if (ret != HIL_OK) {
		return ret;
	}
	ret = wait_child(p, timeout_ms, exit_status, stop);
	if (ret == HIL_ERR_TIMEOUT) {
		hil_err("%s: still running after %u ms, killed", argv[0],
			timeout_ms);
	} else if (ret == HIL_ERR_INTERRUPTED) {
		hil_info("%s: stopped (SIGTERM or SIGINT)", argv[0]);
	}
	hil_proc_free(p);
	return ret;
}

/* Read from fd into buf while the child runs; stop at EOF, exit or deadline. */
static void capture_output(struct hil_proc *p, int fd, char *buf, size_t len,
			   uint64_t deadline, const volatile sig_atomic_t *stop)
{
	size_t used = 0;
	char sink[512];

	for (;;) {
		struct pollfd pfd = {.fd = fd, .events = POLLIN, .revents = 0};
		uint64_t now = now_ms();
		int wait = 50, r;
		ssize_t n;

		if (now >= deadline || stopping(stop)) {
			break;
		}
		if (deadline - now < (uint64_t)wait) {
			wait = (int)(deadline - now);
		}
		r = poll(&pfd, 1, wait);
		if (r < 0 && errno != EINTR) {
			break;
		}
		if (r == 0) {
			/* A grandchild may hold the pipe: stop when the child is done. */
			if (!hil_proc_alive(p)) {
				break;
			}
			continue;
		}
		if (r < 0) {
			continue;
		}
		if (used + 1 < len) {
			n = read(fd, buf + used, len - 1 - used);
		} else {
			n = read(fd, sink, sizeof(sink));
		}
		if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN)) {
			break;
		}
		if (n > 0 && used + 1 < len) {
			used += (size_t)n;
		}
	}
	if (len > 0) {
		buf[used] = '\0';
	}
}

int hil_proc_capture(char *const argv[], char *buf, size_t len,
		     unsigned timeout_ms, int *exit_status)
{
	return hil_proc_capture_jailed(argv, buf, len, timeout_ms, exit_status,
				       NULL, NULL);
}

int hil_proc_capture_jailed(char *const argv[], char *buf, size_t len,
			    unsigned timeout_ms, int *exit_status,
			    const struct hil_jail *jail,
			    const volatile sig_atomic_t *stop)
{
	struct hil_proc *p;
	int pipefd[2], ret;
	uint64_t deadline = now_ms() + timeout_ms, now;

	if (buf == NULL || len == 0) {
		return HIL_ERR_ARG;
	}
	buf[0] = '\0';
	ret = check_argv(argv);
	if (ret != HIL_OK) {
		return ret;
	}
	if (pipe2(pipefd, O_CLOEXEC) != 0) {
		hil_err("%s: cannot create a pipe: %s", argv[0],
			strerror(errno));
		return HIL_ERR_IO;
	}
	pipefd[1] = high_fd(pipefd[1]);
	if (pipefd[1] < 0) {
		hil_err("%s: cannot create a pipe: %s", argv[0],
			strerror(errno));
		close(pipefd[0]);
		return HIL_ERR_IO;
	}
	ret = spawn_jailed_fd(&p, argv, -1, pipefd[1], jail);
	close(pipefd[1]);
	if (ret != HIL_OK) {
		close(pipefd[0]);
		return ret;
	}
	fcntl(pipefd[0], F_SETFL, fcntl(pipefd[0], F_GETFL) | O_NONBLOCK);
	capture_output(p, pipefd[0], buf, len, deadline, stop);
	close(pipefd[0]);

	now = now_ms();
	ret = wait_child(p, now < deadline ? (unsigned)(deadline - now) : 0,
			 exit_status, stop);
	if (ret == HIL_ERR_TIMEOUT) {
		hil_err("%s: still running after %u ms, killed", argv[0],
			timeout_ms);
	} else if (ret == HIL_ERR_INTERRUPTED) {
		hil_info("%s: stopped (SIGTERM or SIGINT)", argv[0]);
	}
	hil_proc_free(p);
	return ret;
}
