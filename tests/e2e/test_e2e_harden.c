/* End-to-end tests of hilrun as a process against issue #33's hostile inputs: its own umask, --cflags held to the allowlist, a FIFO in an implementation folder refused at once, a spool inside the default root refused. None needs the emulator: each is refused before anything is built. */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "e2e_util.h"

static char tmp[64];
static char src[4096];

/* A safety net for a hung hilrun, never a timing assertion. */
#define WAIT_MS 300000u

/* hilrun ARGS... in cwd with the given umask; stderr into err (len). */
static int run_in(const char *cwd, mode_t mask, char *err, size_t len,
		  char *const args[])
{
	char *argv[32];
	char errp[128];
	uint64_t t0 = e2e_ms_now();
	size_t i, n = 0;
	int st = 0;
	pid_t pid;
	FILE *f;

	argv[0] = (char *)e2e_hilrun_bin();
	for (i = 0; args[i] != NULL && i < 30; i++) {
		argv[i + 1] = args[i];
	}
	argv[i + 1] = NULL;
	snprintf(errp, sizeof(errp), "%s/stderr.txt", tmp);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int e = open(errp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		int o = open("/dev/null", O_WRONLY);

		umask(mask);
		if (e < 0 || o < 0 || dup2(e, 2) < 0 || dup2(o, 1) < 0 ||
		    chdir(cwd) != 0) {
			_exit(126);
		}
		execv(argv[0], argv);
		_exit(127);
	}
	while (waitpid(pid, &st, WNOHANG) == 0) {
		if (e2e_ms_now() - t0 > WAIT_MS) {
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
			fail_msg("hilrun did not end (it hung)");
		}
		e2e_sleep_ms(10);
	}
	f = fopen(errp, "r");
	if (f != NULL) {
		n = fread(err, 1, len - 1, f);
		fclose(f);
	}
	err[n] = '\0';
	fprintf(stderr, "%s", err);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* issue #33 finding 10: started with umask 000 (or a lab's 002), what
 * hilrun makes is still not group- or world-writable. */
static void test_hilrun_writes_with_its_own_umask(void **state)
{
	char cwd[128], spool[128], path[160], err[8192];
	char *args[] = {"serve", "--spool", spool, "--once", NULL};
	struct stat st;

	(void)state;
	snprintf(cwd, sizeof(cwd), "%s/cwd", tmp);
	snprintf(spool, sizeof(spool), "%s/spool", tmp);
	e2e_make_dir(cwd);
	assert_int_equal(run_in(cwd, 0, err, sizeof(err), args), 0);
	snprintf(path, sizeof(path), "%s/incoming", spool);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0755);
	assert_int_equal(stat(spool, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0755);
}

/* issue #31 item 5: `hilrun run --cflags "-O2 -fplugin=evil.so"` passed
 * the flag to gcc; it is refused before anything is built. */
static void test_run_cflags_are_held_to_the_allowlist(void **state)
{
	char cwd[128], conf[4200], path[160], err[8192];
	char *args[] = {
		"run", "--config", conf, "--cflags", "-O2 -fplugin=evil.so",
		NULL};
	struct stat st;

	(void)state;
	snprintf(cwd, sizeof(cwd), "%s/flags", tmp);
	e2e_make_dir(cwd);
	snprintf(conf, sizeof(conf), "%s/configs/qemu.json", src);
	assert_int_equal(run_in(cwd, 022, err, sizeof(err), args), 2);
	e2e_assert_contains(err, "-fplugin=evil.so");
	e2e_assert_contains(err, "loads a shared object");
	snprintf(path, sizeof(path), "%s/results", cwd);
	assert_int_equal(stat(path, &st), -1); /* nothing was run */
}

/* issue #33 finding 12: a FIFO source file held make for the whole build
 * timeout (600 s); now the configuration is refused as it loads. */
static void
test_fifo_in_an_implementation_folder_is_refused_at_once(void **state)
{
	char cwd[128], impl[160], path[200], conf[200], err[8192];
	char *args[] = {"run", "--config", conf, NULL};

	(void)state;
	snprintf(cwd, sizeof(cwd), "%s/fifo", tmp);
	snprintf(impl, sizeof(impl), "%s/impl", cwd);
	e2e_make_dir(cwd);
	e2e_make_dir(impl);
	snprintf(path, sizeof(path), "%s/api.h", impl);
	put(path, "#define CRYPTO_KEYBYTES 16\n#define CRYPTO_NSECBYTES 0\n"
		  "#define CRYPTO_NPUBBYTES 16\n#define CRYPTO_ABYTES 16\n");
	snprintf(path, sizeof(path), "%s/encrypt.c", impl);
	assert_int_equal(mkfifo(path, 0644), 0);
	snprintf(conf, sizeof(conf), "%s/c.json", cwd);
	put(conf, "{\"algorithms\": [{\"name\": \"ascon-aead128\", \"impl\": "
		  "\"mine\", \"path\": \"impl\"}]}\n");
	assert_int_equal(run_in(cwd, 022, err, sizeof(err), args), 2);
	e2e_assert_contains(err, "encrypt.c");
	e2e_assert_contains(err, "a FIFO");
}

/* issue #33 finding 1, as docs/systemd laid it out: the spool inside the
 * working directory, the default root. */
static void test_serve_refuses_a_spool_in_the_working_directory(void **state)
{
	char cwd[128], err[8192];
	char *args[] = {"serve", "--spool", "spool", "--once", NULL};

	(void)state;
	snprintf(cwd, sizeof(cwd), "%s/lab", tmp);
	e2e_make_dir(cwd);
	assert_int_equal(run_in(cwd, 022, err, sizeof(err), args), 2);
	e2e_assert_contains(err, "is inside the root");
	e2e_assert_contains(err, "the default root");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hilrun_writes_with_its_own_umask),
		cmocka_unit_test(test_run_cflags_are_held_to_the_allowlist),
		cmocka_unit_test(
			test_fifo_in_an_implementation_folder_is_refused_at_once),
		cmocka_unit_test(
			test_serve_refuses_a_spool_in_the_working_directory),
	};
	char bin[4096];
	int failed;

	if (e2e_main_begin(src, sizeof(src), tmp, sizeof(tmp),
			   "/tmp/e2e-harden-XXXXXX") != 0) {
		return 1;
	}
	/* build/hilrun, before each test's working directory changes. */
	if (getenv("HILRUN_BIN") == NULL &&
	    realpath(e2e_hilrun_bin(), bin) != NULL) {
		setenv("HILRUN_BIN", bin, 1);
	}
	if (getenv("HILRUN_ROOT") == NULL) {
		setenv("HILRUN_ROOT", src, 1);
	}
	failed = cmocka_run_group_tests(tests, NULL, NULL);
	return e2e_main_end(tmp, failed);
}
