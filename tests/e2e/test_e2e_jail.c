/* test_e2e_jail: the jail around foreign code, with the real bubblewrap: no write outside its folder, no network, its own pids, limits, nothing left behind; a guest's semihosting host calls do nothing outside; a user's host build runs in a process of its own. */
#define _XOPEN_SOURCE 700

#include <dirent.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "config/config.h"
#include "drivers/flasher/flasher.h"
#include "e2e_util.h"
#include "image/build.h"
#include "result/run.h"
#include "run/runner.h"
#include "util/err.h"
#include "util/jail.h"
#include "util/proc.h"
#include "util/util.h"

#ifndef E2E_GUEST_ELF
#error "E2E_GUEST_ELF names the semihosting guest (mk/tests.mk)"
#endif

#define CTOR_HASH "tests/fixtures/ctor-hash"
#define WAIT_MS	  60000u /* only a hang reaches it */

static char tmp_root[64];
static char src_root[HIL_PATH];

/* ---------------------------------------------------------------- helpers */

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* The file's text (up to len - 1 bytes), or "" when it does not exist. */
static void read_text(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n = 0;

	buf[0] = '\0';
	if (f == NULL) {
		return;
	}
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
}

static int exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

/* Live processes whose first argument after the program is needle
 * ("sleep NEEDLE"); bwrap's own command line does not count. */
static int count_cmdline(const char *needle)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)) != NULL) {
		char path[300], buf[256];
		size_t len;
		FILE *f;

		snprintf(path, sizeof(path), "/proc/%s/cmdline", e->d_name);
		f = fopen(path, "r");
		if (f == NULL) {
			continue;
		}
		len = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		buf[len] = '\0';
		/* argv[0] "sleep", then argv[1] */
		if (strcmp(buf, "sleep") == 0 && strlen(buf) + 1 < len &&
		    strcmp(buf + strlen(buf) + 1, needle) == 0) {
			n++;
		}
	}
	closedir(d);
	return n;
}

/* A fresh folder tmp_root/name. */
static void fresh_dir(char *out, size_t len, const char *name)
{
	snprintf(out, len, "%s/%s", tmp_root, name);
	e2e_make_dir(out);
}

/* sh -c script in a jail whose only writable folder is rw (NULL: none);
 * stdout and stderr into log. @return its exit status. */
static int jailed_sh(const char *rw, const char *script, const char *log)
{
	char *const argv[] = {"/bin/sh", "-c", (char *)script, NULL};
	struct hil_jail *j = NULL;
	int status = -1;

	assert_int_equal(hil_jail_new(&j), HIL_OK);
	if (rw != NULL) {
		assert_int_equal(hil_jail_bind(j, rw, HIL_JAIL_RW), HIL_OK);
	}
	assert_int_equal(
		hil_proc_run_jailed(argv, log, WAIT_MS, &status, j, NULL),
		HIL_OK);
	hil_jail_free(j);
	return status;
}

/* ------------------------------------------------------- the jail itself */

/* A canary beside the writable folder is not even seen and survives every
 * attempt on it, nor are the host's secrets or the source tree's .git; the
 * writable folder takes writes; the system is read-only. */
static void test_a_jailed_child_writes_only_its_folder(void **state)
{
	char dir[HIL_PATH + 32], rw[HIL_PATH + 40], canary[HIL_PATH + 48];
	char log[HIL_PATH + 48], script[4 * HIL_PATH], text[256];

	(void)state;
	/* Not under /tmp: the jail has a /tmp of its own, where writes to
	 * a path of the host's /tmp would land unseen. */
	snprintf(dir, sizeof(dir), "%s/build/e2e-jail-XXXXXX", src_root);
	assert_non_null(mkdtemp(dir));
	snprintf(rw, sizeof(rw), "%s/rw", dir);
	e2e_make_dir(rw);
	snprintf(canary, sizeof(canary), "%s/canary.txt", dir);
	snprintf(log, sizeof(log), "%s/log.txt", dir);
	write_text(canary, "keep\n");

	/* Each attempt on its own: any one that works fails the script. */
	snprintf(script, sizeof(script),
		 "test -e %s && exit 9; test -e /etc/shadow && exit 8; "
		 "test -e %s/.git && exit 7; "
		 "echo x > %s && exit 10; rm -f %s; test -e %s && exit 11; "
		 "echo y > %s/new && exit 12; touch /usr/jail-test && exit 13; "
		 "touch /jail-test && exit 14; echo ok > %s/inside || exit 15; "
		 "exit 0",
		 canary, src_root, canary, canary, canary, dir, rw);
	assert_int_equal(jailed_sh(rw, script, log), 0);
	read_text(canary, text, sizeof(text));
	assert_string_equal(text, "keep\n");
	assert_false(exists("/usr/jail-test"));
	snprintf(text, sizeof(text), "%s/new", dir);
	assert_false(exists(text));
	snprintf(text, sizeof(text), "%s/inside", rw);
	read_text(text, script, sizeof(script));
	assert_string_equal(script, "ok\n");

	/* The same write without a jail reaches the canary: the check can
	 * fail. */
	{
		char *const argv[] = {"/bin/sh", "-c", "echo x > canary.txt",
				      NULL};
		char cwd[HIL_PATH];
		int status = -1;

		assert_non_null(getcwd(cwd, sizeof(cwd)));
		assert_int_equal(chdir(dir), 0);
		assert_int_equal(hil_proc_run(argv, log, WAIT_MS, &status),
				 HIL_OK);
		assert_int_equal(chdir(cwd), 0);
		assert_int_equal(status, 0);
		read_text(canary, text, sizeof(text));
		assert_string_equal(text, "x\n");
	}
	e2e_remove_tree(dir);
}

/*
 * The jail of an image's build (hil_build_jail), around a child standing
 * for anything the build runs that turns hostile: a command of a recipe
 * (a file name of the user's that make and the shell take for syntax), or
 * a compiler that its input subverts. What it may write is the build's
 * outputs (objects, the image); not the copy of the user's folder it
 * compiles (src/, which the host reference's build compiles next), nor the
 * host reference's folder (host/: a program of its planting would be
 * trusted for expected outputs), nor the isolated builds' (isolate/).
 * Before, the build's folder was bound writable after the copies, over
 * them: the first attempt worked.
 */
static void test_a_build_writes_only_its_outputs(void **state)
{
	char dir[HIL_PATH + 32], fw[HIL_PATH + 40], src[HIL_PATH + 64];
	char algs[2 * HIL_PATH + 64], log[HIL_PATH + 48], path[HIL_PATH + 96];
	char script[8 * HIL_PATH], text[64];
	char *const argv[] = {"/bin/sh", "-c", script, NULL};
	struct hil_jail *j = NULL;
	int status = -1;

	(void)state;
	/* Not under /tmp, as above. */
	snprintf(dir, sizeof(dir), "%s/build/e2e-jail-XXXXXX", src_root);
	assert_non_null(mkdtemp(dir));
	snprintf(fw, sizeof(fw), "%s/fw", dir);
	e2e_make_dir(fw);
	snprintf(src, sizeof(src), "%s/src", fw);
	e2e_make_dir(src);
	strcat(src, "/toy_mine");
	e2e_make_dir(src);
	snprintf(path, sizeof(path), "%s/encrypt.c", src);
	write_text(path, "int toy;\n");
	snprintf(log, sizeof(log), "%s/log.txt", dir);
	snprintf(algs, sizeof(algs), "ascon-aead128/ref toy/mine=%s", src);
	assert_int_equal(hil_build_jail(src_root, fw, algs, &j), HIL_OK);

	/* Each attempt on its own: any one that works fails the script. */
	snprintf(script, sizeof(script),
		 "echo 'int toy = 1;' > %s/encrypt.c && exit 10; "
		 "echo x > %s/new.c && exit 11; rm -f %s/encrypt.c; "
		 "test -e %s/encrypt.c || exit 12; "
		 "echo x > %s/src/planted.h && exit 13; "
		 "echo x > %s/host/toy_mine && exit 14; "
		 "mkdir %s/isolate/toy_mine && exit 15; "
		 "mkdir -p %s/obj/toy/mine && echo o > %s/obj/toy/mine/a.o "
		 "|| exit 16; echo e > %s/stub.elf || exit 17; exit 0",
		 src, src, src, src, fw, fw, fw, fw, fw, fw);
	assert_int_equal(
		hil_proc_run_jailed(argv, log, WAIT_MS, &status, j, NULL),
		HIL_OK);
	hil_jail_free(j);
	read_text(log, text, sizeof(text));
	if (status != 0) {
		fail_msg("attempt %d worked (or the outputs failed); log: %s",
			 status, text);
	}
	snprintf(path, sizeof(path), "%s/encrypt.c", src);
	read_text(path, text, sizeof(text));
	assert_string_equal(text, "int toy;\n");
	snprintf(path, sizeof(path), "%s/host/toy_mine", fw);
	assert_false(exists(path));
	snprintf(path, sizeof(path), "%s/obj/toy/mine/a.o", fw);
	assert_true(exists(path));

	/* The host reference's build, in host/: writes there, and still not
	 * the copy. */
	snprintf(path, sizeof(path), "%s/host", fw);
	snprintf(algs, sizeof(algs), "toy/mine=%s", src);
	assert_int_equal(hil_build_jail(src_root, path, algs, &j), HIL_OK);
	snprintf(script, sizeof(script),
		 "echo x > %s/encrypt.c && exit 10; "
		 "echo x > %s/stub.elf && exit 11; "
		 "echo exe > %s/host/toy_mine || exit 12; exit 0",
		 src, fw, fw);
	assert_int_equal(
		hil_proc_run_jailed(argv, log, WAIT_MS, &status, j, NULL),
		HIL_OK);
	hil_jail_free(j);
	assert_int_equal(status, 0);
	e2e_remove_tree(dir);
}

/*
 * A command a user's folder makes the build run, the real avenue: a file
 * name. make takes the sources of a folder by wildcard and writes the
 * object list into a rule; a ';' in a name ends that rule's prerequisites
 * and starts its recipe, which the shell runs. The folder here holds x.c
 * and a file whose name is such a recipe: into the image's folder
 * ($(FW_DIR)), a marker there (the command ran, where the build may
 * write), then into the copy of the folder (src/ascon-aead128_mine) to
 * overwrite its encrypt.c. Jailed (hilrun's image build), the marker
 * appears and the copy is as the configuration's load checked it. Before
 * the build's folder was bound after the copies, the copy's encrypt.c was
 * "evil" after the build.
 */
static void test_a_file_name_make_would_run_is_refused(void **state)
{
	/* As make would see it in a rule: ";" ends the rule and starts a
	 * recipe, "$$" leaves the shell one '$'. Before names were checked,
	 * this one ran its command (inside the build jail, which kept the
	 * copy it tried to overwrite: test_a_build_writes_only_its_outputs
	 * checks that side). */
	static const char evil_name[] =
		"x.o;cd$${IFS}$(FW_DIR);touch$${IFS}ran-in-jail;"
		"cd$${IFS}src;cd$${IFS}*_mine;echo$${IFS}evil>encrypt.c;.c";
	struct hil_config *cfg = calloc(1, sizeof(*cfg));
	char dir[128], impl[160], path[HIL_PATH + 64], json[1024], err[1024];
	char text[32768], ref[HIL_PATH + 64];
	const char *const files[] = {"api.h", "encrypt.c"};
	size_t i;

	(void)state;
	assert_non_null(cfg);
	fresh_dir(dir, sizeof(dir), "namecmd");
	snprintf(impl, sizeof(impl), "%s/mine", dir);
	e2e_make_dir(impl);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(ref, sizeof(ref),
			 "%s/target/crypto/ascon-aead128/ref/%s", src_root,
			 files[i]);
		read_text(ref, text, sizeof(text));
		assert_true(text[0] != '\0');
		snprintf(path, sizeof(path), "%s/%s", impl, files[i]);
		write_text(path, text);
	}
	snprintf(json, sizeof(json),
		 "{ \"name\": \"e2e-namecmd\","
		 " \"board\": { \"name\": \"qemu-netduino\" },"
		 " \"algorithms\": [ { \"name\": \"ascon-aead128\","
		 " \"impl\": \"mine\", \"path\": \"%s\" } ] }",
		 impl);
	/* Plain names load. */
	assert_int_equal(
		hil_config_parse(json, src_root, cfg, err, sizeof(err)),
		HIL_OK);
	hil_config_free(cfg);
	memset(cfg, 0, sizeof(*cfg));
	snprintf(path, sizeof(path), "%s/%s", impl, evil_name);
	write_text(path, "int hil_namecmd_y;\n");
	assert_int_equal(
		hil_config_parse(json, src_root, cfg, err, sizeof(err)),
		HIL_ERR_CONFIG);
	/* The message names the file and the character. */
	assert_non_null(strstr(err, "x.o;cd$${IFS}"));
	assert_non_null(strstr(err, "a name with ';' in it"));
	unlink(path);
	/* So does a name with a space or a byte that is no character. */
	snprintf(path, sizeof(path), "%s/a b.h", impl);
	write_text(path, "\n");
	hil_config_free(cfg);
	memset(cfg, 0, sizeof(*cfg));
	assert_int_equal(
		hil_config_parse(json, src_root, cfg, err, sizeof(err)),
		HIL_ERR_CONFIG);
	assert_non_null(strstr(err, "a name with byte 0x20 in it"));
	unlink(path);
	hil_config_free(cfg);
	free(cfg);
}

/* A listener on the host's loopback: a jailed child cannot reach it (the
 * jail has a loopback of its own), an unjailed one can. */
static void test_a_jailed_child_has_no_network(void **state)
{
	struct sockaddr_in a;
	socklen_t alen = sizeof(a);
	char dir[128], log[160], script[256];
	struct pollfd p;
	int s, status;

	(void)state;
	fresh_dir(dir, sizeof(dir), "net");
	snprintf(log, sizeof(log), "%s/log.txt", dir);
	s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	assert_true(s >= 0);
	memset(&a, 0, sizeof(a));
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(s, (struct sockaddr *)&a, sizeof(a)), 0);
	assert_int_equal(listen(s, 4), 0);
	assert_int_equal(getsockname(s, (struct sockaddr *)&a, &alen), 0);
	snprintf(script, sizeof(script),
		 "exec bash -c 'exec 3<>/dev/tcp/127.0.0.1/%u'",
		 (unsigned)ntohs(a.sin_port));

	status = jailed_sh(NULL, script, log);
	assert_int_not_equal(status, 0);
	p.fd = s;
	p.events = POLLIN;
	assert_int_equal(poll(&p, 1, 0), 0); /* nobody knocked */

	/* Unjailed, the same command connects: the check can fail. */
	{
		char *const argv[] = {"/bin/sh", "-c", script, NULL};

		status = -1;
		assert_int_equal(hil_proc_run(argv, log, WAIT_MS, &status),
				 HIL_OK);
		assert_int_equal(status, 0);
		assert_int_equal(poll(&p, 1, (int)WAIT_MS), 1);
	}
	close(s);
}

/* pid 1, a handful of processes, no capability, the memory limit, and
 * none of hilrun's pids. */
static void test_a_jailed_child_sees_only_itself(void **state)
{
	char dir[128], log[160], script[512], text[1024];
	unsigned long long kib = HIL_JAIL_DEFAULT_MEM / 1024u;

	(void)state;
	fresh_dir(dir, sizeof(dir), "pids");
	snprintf(log, sizeof(log), "%s/log.txt", dir);
	snprintf(script, sizeof(script),
		 "echo pid=$$; echo procs=$(ls /proc | grep -c '^[0-9]'); "
		 "grep CapEff /proc/self/status; echo as=$(ulimit -v); "
		 "kill -0 %ld 2>/dev/null && echo parent-visible; "
		 "echo host=$(hostname)",
		 (long)getpid());
	assert_int_equal(jailed_sh(NULL, script, log), 0);
	read_text(log, text, sizeof(text));
	e2e_assert_contains(text, "pid=1\n");
	/* sh, ls and grep at most (the pipeline's subshell) */
	assert_non_null(strstr(text, "procs="));
	assert_true(atoi(strstr(text, "procs=") + 6) <= 4);
	e2e_assert_contains(text, "CapEff:\t0000000000000000");
	snprintf(script, sizeof(script), "as=%llu\n", kib);
	e2e_assert_contains(text, script);
	assert_null(strstr(text, "parent-visible"));
}

/* Killing a jail's handle kills all of the jail: no process of it lives
 * on, whatever it started. */
static void test_nothing_outlives_the_jail(void **state)
{
	char *const argv[] = {"/bin/sh", "-c",
			      "sleep 3617 & sleep 3617 & sleep 3617", NULL};
	struct hil_jail *j = NULL;
	struct hil_proc *p = NULL;
	pid_t inner;
	uint64_t t0;

	(void)state;
	assert_int_equal(hil_jail_new(&j), HIL_OK);
	assert_int_equal(hil_proc_spawn_jailed(&p, argv, -1, NULL, j), HIL_OK);
	hil_jail_free(j);
	inner = hil_proc_program_pid(p);
	assert_true(inner > 0);
	assert_int_not_equal(inner, hil_proc_pid(p));
	t0 = e2e_ms_now();
	while (count_cmdline("3617") < 3 && e2e_ms_now() - t0 < WAIT_MS) {
		e2e_sleep_ms(20); /* the sleeps start */
	}
	assert_int_equal(count_cmdline("3617"), 3);
	hil_proc_free(p);
	assert_int_equal(kill(inner, 0), -1);
	assert_int_equal(errno, ESRCH);
	assert_int_equal(count_cmdline("3617"), 0);
}

/* Without bwrap, the probe says so, and a jailed spawn fails naming it. */
static void test_a_missing_bwrap_is_said(void **state)
{
	char *const argv[] = {"/bin/true", NULL};
	char why[512], *old = getenv("PATH");
	char saved[4096];
	struct hil_jail *j = NULL;
	struct hil_proc *p = NULL;
	int ret;

	(void)state;
	assert_int_equal(hil_jail_probe(why, sizeof(why)), HIL_OK);
	snprintf(saved, sizeof(saved), "%s", old != NULL ? old : "");
	setenv("PATH", "/nonexistent", 1);
	ret = hil_jail_probe(why, sizeof(why));
	assert_int_equal(hil_jail_new(&j), HIL_OK);
	assert_int_equal(hil_proc_spawn_jailed(&p, argv, -1, NULL, j),
			 HIL_ERR_NA);
	setenv("PATH", saved, 1);
	hil_jail_free(j);
	assert_null(p);
	assert_int_equal(ret, HIL_ERR_NA);
	e2e_assert_contains(why, "bubblewrap");
}

/*
 * hilrun serve --spool DIR --once [--no-jail] with PATH as given: its exit
 * status, stderr into err.
 */
static int serve_once(const char *spool, const char *path, int no_jail,
		      char *err, size_t len)
{
	char log[HIL_PATH + 16], env_path[256];
	char *argv[] = {(char *)e2e_hilrun_bin(),
			"serve",
			"--spool",
			(char *)spool,
			"--once",
			no_jail ? "--no-jail" : NULL,
			NULL};
	char *envp[] = {env_path, "HILRUN_LOG=2", NULL};
	int status = -1;
	pid_t pid;

	snprintf(env_path, sizeof(env_path), "PATH=%s", path);
	snprintf(log, sizeof(log), "%s.err", spool);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fd < 0 || dup2(fd, 2) < 0) {
			_exit(127);
		}
		execve(argv[0], argv, envp);
		_exit(127);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	read_text(log, err, len);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

/* The daemon runs untrusted jobs: without a jail (here: no bwrap on its
 * PATH) it refuses to start, saying why, unless told --no-jail, which it
 * says loudly. With the jail it starts. */
static void test_serve_refuses_without_a_jail(void **state)
{
	char spool[128], err[4096];

	(void)state;
	fresh_dir(spool, sizeof(spool), "spool");
	assert_int_equal(serve_once(spool, "/nonexistent", 0, err, sizeof(err)),
			 2);
	e2e_assert_contains(err,
			    "refusing to run untrusted jobs without a jail");
	e2e_assert_contains(err, "bubblewrap");
	assert_int_equal(serve_once(spool, "/nonexistent", 1, err, sizeof(err)),
			 0);
	e2e_assert_contains(err, "UNJAILED");
	assert_int_equal(
		serve_once(spool, "/usr/bin:/bin", 0, err, sizeof(err)), 0);
	assert_null(strstr(err, "UNJAILED"));
	assert_null(strstr(err, "refusing"));
}

/* ---------------------------------------------------------- semihosting */

/*
 * The guest (tests/e2e/semihost_guest) started through the qemu flasher
 * with the semihosting link, in working directory dir, until it exits:
 * what it said ("O?R?S?": each of SYS_OPEN, SYS_REMOVE, SYS_SYSTEM done or
 * refused), which QEMU 7.2 writes (SYS_WRITE0) on its stderr, qemu.log.
 */
static void run_guest(const char *dir, int jail, char *said, size_t len)
{
	struct hil_flasher_params fp;
	struct hil_flasher *f = NULL;
	char cwd[HIL_PATH], run_dir[HIL_PATH + 40], log[HIL_PATH + 64];
	char text[4096];
	const char *o;
	uint64_t t0;

	snprintf(run_dir, sizeof(run_dir), "%s/run", dir);
	e2e_make_dir(run_dir);
	memset(&fp, 0, sizeof(fp));
	fp.run_dir = run_dir;
	fp.link = "semihost";
	fp.jail = jail;
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(dir), 0);
	assert_int_equal(hil_flasher_open(&f, "qemu", &fp), HIL_OK);
	assert_int_equal(hil_flasher_start(f, E2E_GUEST_ELF), HIL_OK);
	t0 = e2e_ms_now();
	while (hil_flasher_check(f) == HIL_OK && e2e_ms_now() - t0 < WAIT_MS) {
		e2e_sleep_ms(20); /* until the guest's SYS_EXIT */
	}
	hil_flasher_close(f);
	assert_int_equal(chdir(cwd), 0);
	snprintf(log, sizeof(log), "%s/qemu.log", run_dir);
	read_text(log, text, sizeof(text));
	o = strstr(text, "O");
	while (o != NULL && !(o[2] == 'R' && o[4] == 'S')) {
		o = strstr(o + 1, "O");
	}
	if (o == NULL) {
		fail_msg("the guest said nothing; qemu.log:\n%s", text);
	}
	snprintf(said, len, "%.6s", o);
}

/*
 * A guest calls SYS_OPEN of a host path (to write), SYS_REMOVE of a canary
 * and SYS_SYSTEM of a command that would create a marker, all relative to
 * QEMU's working directory. Jailed (the default), none of them reaches the
 * host: the canary stays, neither file appears. Unjailed, in a test folder,
 * all three work: the guest really makes the calls.
 */
static void test_semihosting_reaches_nothing_outside_the_jail(void **state)
{
	char dir[HIL_PATH + 32], path[HIL_PATH + 64], said[64], text[64];

	(void)state;
	/* Not under /tmp, where the jail's own /tmp would take the writes. */
	snprintf(dir, sizeof(dir), "%s/build/e2e-jail-XXXXXX", src_root);
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/canary.txt", dir);
	write_text(path, "keep\n");
	run_guest(dir, 1, said, sizeof(said));
	/* QEMU's working directory in the jail is an empty, read-only
	 * folder: no file to remove, none can be made, and the shell that
	 * SYS_SYSTEM starts there fails too. */
	assert_string_equal(said, "O-R-S-");
	read_text(path, text, sizeof(text));
	assert_string_equal(text, "keep\n");
	snprintf(path, sizeof(path), "%s/opened.txt", dir);
	assert_false(exists(path));
	snprintf(path, sizeof(path), "%s/system-marker.txt", dir);
	assert_false(exists(path));
	e2e_remove_tree(dir);

	fresh_dir(dir, sizeof(dir), "semi-unjailed");
	snprintf(path, sizeof(path), "%s/canary.txt", dir);
	write_text(path, "keep\n");
	run_guest(dir, 0, said, sizeof(said));
	assert_string_equal(said, "O+R+S+");
	assert_false(exists(path));
	snprintf(path, sizeof(path), "%s/system-marker.txt", dir);
	assert_true(exists(path));
}

/* ---------------------------------------------------------------- OpenOCD */

/* The openocd flasher, jailed or not, "programs" the guest image with
 * config cfg (no probe here: it fails after running cfg). */
static void run_openocd(const char *dir, const char *cfg, int jail)
{
	struct hil_flasher_params fp;
	struct hil_flasher *f = NULL;
	char run_dir[HIL_PATH + 40];

	snprintf(run_dir, sizeof(run_dir), "%s/run-%d", dir, jail);
	e2e_make_dir(run_dir);
	memset(&fp, 0, sizeof(fp));
	fp.run_dir = run_dir;
	assert_int_equal(hil_flasher_params_add(&fp, "config", cfg), HIL_OK);
	fp.timeout_ms = WAIT_MS;
	fp.jail = jail;
	assert_int_equal(hil_flasher_open(&f, "openocd", &fp), HIL_OK);
	assert_int_not_equal(hil_flasher_start(f, E2E_GUEST_ELF), HIL_OK);
	hil_flasher_close(f);
}

/*
 * An OpenOCD config is Tcl, and Tcl has exec: a config that runs a shell to
 * create a marker beside it. Jailed, the shell runs in the jail, where the
 * config's folder is read-only: no marker. Unjailed it appears: the config
 * really runs its shell.
 */
static void test_openocd_tcl_exec_is_jailed(void **state)
{
	char dir[HIL_PATH + 32], cfg[HIL_PATH + 48], marker[HIL_PATH + 48];
	char text[HIL_PATH * 2];

	(void)state;
	snprintf(dir, sizeof(dir), "%s/build/e2e-jail-XXXXXX", src_root);
	assert_non_null(mkdtemp(dir));
	snprintf(cfg, sizeof(cfg), "%s/ocd.cfg", dir);
	snprintf(marker, sizeof(marker), "%s/tcl-marker", dir);
	snprintf(text, sizeof(text), "catch {exec /bin/sh -c \"touch %s\"}\n",
		 marker);
	write_text(cfg, text);
	run_openocd(dir, cfg, 1);
	assert_false(exists(marker));
	run_openocd(dir, cfg, 0);
	assert_true(exists(marker));
	e2e_remove_tree(dir);
}

/* ------------------------------------------- a user's host build, apart */

/* One run of the folder, from working directory dir. */
static void run_ctor(const char *dir, int no_jail, struct hil_run *run)
{
	struct hil_config *cfg = calloc(1, sizeof(*cfg));
	struct hil_runner_opts opts;
	char json[2048], err[512], impl[HIL_PATH + 32], results[200];
	char cwd[HIL_PATH];
	size_t i;

	assert_non_null(cfg);
	snprintf(impl, sizeof(impl), "%s/%s", src_root, CTOR_HASH);
	snprintf(results, sizeof(results), "%s/results", dir);
	e2e_make_dir(results);
	snprintf(
		json, sizeof(json),
		"{ \"name\": \"e2e-jail\", \"board\": { \"name\": \"qemu-netduino\" },"
		" \"flasher\": { \"type\": \"qemu\" },"
		" \"algorithms\": [ { \"name\": \"toyhash\", \"impl\": \"ctor\","
		" \"path\": \"%s\" } ],"
		" \"bench\": { \"operations\": [\"hash\"], \"lengths\": [16],"
		" \"runs\": 3, \"warmup\": 1,"
		" \"leak_runs\": 0 }, \"results_dir\": \"%s\" }",
		impl, results);
	if (hil_config_parse(json, src_root, cfg, err, sizeof(err)) != HIL_OK) {
		fail_msg("config rejected: %s", err);
	}
	memset(&opts, 0, sizeof(opts));
	opts.results_dir = results;
	opts.no_jail = no_jail;
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(dir), 0);
	assert_int_equal(hil_runner_run(cfg, &opts, run), HIL_OK);
	assert_int_equal(chdir(cwd), 0);
	assert_int_equal(run->jailed, !no_jail);
	assert_true(run->n_rows > 0);
	for (i = 0; i < run->n_rows; i++) {
		assert_true(run->rows[i].ok);
		assert_true(run->rows[i].verified);
		assert_string_equal(run->rows[i].verified_by, "host build");
	}
	hil_config_free(cfg);
	free(cfg);
}

/*
 * A user's folder whose host build has a constructor: hilrun checks the
 * target against that host build in a process of its own, never loading
 * it. Jailed, the constructor's marker cannot appear in hilrun's working
 * directory; unjailed it does, written by another process than hilrun's.
 * Either way every row is verified by the host build.
 */
static void test_a_host_build_runs_apart_from_hilrun(void **state)
{
	struct hil_run *run = calloc(1, sizeof(*run));
	char dir[128], marker[200], text[64];

	(void)state;
	assert_non_null(run);
	fresh_dir(dir, sizeof(dir), "ctor-jailed");
	run_ctor(dir, 0, run);
	snprintf(marker, sizeof(marker), "%s/ctor-marker.txt", dir);
	assert_false(exists(marker));
	hil_run_free(run);

	memset(run, 0, sizeof(*run));
	fresh_dir(dir, sizeof(dir), "ctor-unjailed");
	run_ctor(dir, 1, run);
	snprintf(marker, sizeof(marker), "%s/ctor-marker.txt", dir);
	read_text(marker, text, sizeof(text));
	assert_true(atol(text) > 0);
	assert_int_not_equal(atol(text), (long)getpid());
	hil_run_free(run);
	free(run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_jailed_child_writes_only_its_folder),
		cmocka_unit_test(test_a_build_writes_only_its_outputs),
		cmocka_unit_test(test_a_file_name_make_would_run_is_refused),
		cmocka_unit_test(test_a_jailed_child_has_no_network),
		cmocka_unit_test(test_a_jailed_child_sees_only_itself),
		cmocka_unit_test(test_nothing_outlives_the_jail),
		cmocka_unit_test(test_a_missing_bwrap_is_said),
		cmocka_unit_test(test_serve_refuses_without_a_jail),
		cmocka_unit_test(
			test_semihosting_reaches_nothing_outside_the_jail),
		cmocka_unit_test(test_openocd_tcl_exec_is_jailed),
		cmocka_unit_test(test_a_host_build_runs_apart_from_hilrun),
	};
	int failed;

	if (e2e_main_begin(src_root, sizeof(src_root), tmp_root,
			   sizeof(tmp_root), "/tmp/e2e-jail-XXXXXX") != 0) {
		return 1;
	}
	failed = cmocka_run_group_tests(tests, NULL, NULL);
	return e2e_main_end(tmp_root, failed);
}
