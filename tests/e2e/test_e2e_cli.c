/* End-to-end test of hilrun's command line as a user meets it: --help of every command, refused values and arguments naming the option, one prefix per message, crypt's exit statuses, quick questions without JSON, the headline table, compare's thresholds, Ctrl-C. */
#define _XOPEN_SOURCE 700
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>
#include <cjson/cJSON.h>
#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include "e2e_util.h"
#include "util/err.h"

static char tmp[64];

/* A safety net for a hung hilrun, never a timing assertion. */
#define WAIT_MS 300000u

struct res {
	int status; /* exit status; 128 + N when killed by signal N */
	char out[32768];
	char err[32768];
};

static void read_text(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n = 0;

	if (f != NULL) {
		n = fread(buf, 1, len - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
}

/* hilrun with argv (NULL-terminated), stdout and stderr into files. */
static pid_t spawn(char *const argv[], const char *outp, const char *errp)
{
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		int o = open(outp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		int e = open(errp, O_WRONLY | O_CREAT | O_TRUNC, 0600);

		if (o < 0 || e < 0 || dup2(o, 1) < 0 || dup2(e, 2) < 0) {
			_exit(126);
		}
		execv(argv[0], argv);
		_exit(127);
	}
	return pid;
}

static int wait_exit(pid_t pid)
{
	uint64_t t0 = e2e_ms_now();
	int st = 0;

	while (waitpid(pid, &st, WNOHANG) == 0) {
		if (e2e_ms_now() - t0 > WAIT_MS) {
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
			fail_msg("hilrun did not end");
		}
		e2e_sleep_ms(10);
	}
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Run hilrun ARGS... (NULL-terminated) to its end. */
static void run_cli(struct res *r, ...)
{
	char *argv[40];
	char outp[128], errp[128];
	va_list ap;
	int n = 0;

	argv[n++] = (char *)e2e_hilrun_bin();
	va_start(ap, r);
	for (;;) {
		char *a = va_arg(ap, char *);

		assert_true(n < 39);
		argv[n++] = a;
		if (a == NULL) {
			break;
		}
	}
	va_end(ap);
	snprintf(outp, sizeof(outp), "%s/out.txt", tmp);
	snprintf(errp, sizeof(errp), "%s/err.txt", tmp);
	r->status = wait_exit(spawn(argv, outp, errp));
	read_text(outp, r->out, sizeof(r->out));
	read_text(errp, r->err, sizeof(r->err));
}

static void show(const struct res *r)
{
	fprintf(stderr, "exit %d\n--- stdout\n%s--- stderr\n%s---\n", r->status,
		r->out, r->err);
}

/* Every line of stderr starts with one "hilrun: " and no second one. */
static void one_prefix(const struct res *r)
{
	const char *p = r->err;

	while (*p != '\0') {
		if (strncmp(p, "hilrun: ", 8) != 0 ||
		    strncmp(p + 8, "hilrun:", 7) == 0) {
			show(r);
			fail_msg("a stderr line without its one prefix: %.80s",
				 p);
		}
		p = strchr(p, '\n');
		if (p == NULL) {
			break;
		}
		p++;
	}
}

/* hilrun ARGS must exit 2 naming needle on stderr, nothing on stdout. */
static void refused(const char *needle, struct res *r)
{
	if (r->status != 2 || strstr(r->err, needle) == NULL ||
	    r->out[0] != '\0') {
		show(r);
		fail_msg("expected exit 2, \"%s\" on stderr, empty stdout",
			 needle);
	}
	one_prefix(r);
}

/* Lines of text that contain needle. */
static int count_lines(const char *text, const char *needle)
{
	const char *p = text;
	int n = 0;

	while (*p != '\0') {
		const char *e = strchr(p, '\n');
		size_t len = e != NULL ? (size_t)(e - p) : strlen(p);
		char line[1024];

		snprintf(line, sizeof(line), "%.*s", (int)len, p);
		n += strstr(line, needle) != NULL;
		p += len + (e != NULL);
	}
	return n;
}

static void test_every_command_has_help_on_stdout_with_exit_0(void **state)
{
	static const char *const cmds[] = {"run",    "crypt",  "doctor",
					   "sensor", "report", "compare",
					   "serve",  "boards", "history"};
	struct res *r = malloc(sizeof(*r));
	size_t i;

	(void)state;
	assert_non_null(r);
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		char usage[64];

		snprintf(usage, sizeof(usage), "usage: hilrun %s", cmds[i]);
		run_cli(r, cmds[i], "--help", NULL);
		if (r->status != 0 || r->err[0] != '\0' ||
		    strstr(r->out, "exit") == NULL) {
			show(r);
			fail_msg(
				"%s --help: expected exit 0, usage and exit statuses on stdout",
				cmds[i]);
		}
		/* run's usage is hilrun's own. */
		if (strcmp(cmds[i], "run") != 0) {
			assert_non_null(strstr(r->out, usage));
		}
		run_cli(r, cmds[i], "-h", NULL);
		assert_int_equal(r->status, 0);
		assert_string_equal(r->err, "");
	}
	run_cli(r, "--help", NULL);
	assert_int_equal(r->status, 0);
	assert_non_null(strstr(r->out, "--lengths"));
	assert_non_null(strstr(r->out, "--detail"));
	free(r);
}

/*
 * Issue 31 item 12: each mistake is named with the bad token, the right
 * range or the likely intent, and the fix, in one line.
 */
static void bad_input_names_the_fix(struct res *r)
{
	char dir[128], path[160];
	FILE *f;

	run_cli(r, "run", "--lengths", "64,abc", NULL);
	refused("--lengths \"abc\": expected a whole number from 0 to 2048", r);
	run_cli(r, "run", "--lengths", "100000", NULL);
	refused("--lengths \"100000\": expected a whole number from 0 to 2048",
		r);
	run_cli(r, "run", "--board", "nucleo-1", "--config",
		"configs/qemu.json", NULL);
	refused("--board nucleo-1 is a nucleo-f401re", r);
	refused("configs/qemu.json is a configuration for qemu-netduino", r);
	refused("leave --config out", r);
	run_cli(r, "run", "--alg", "ascon-aed128", NULL);
	refused("algorithms[0].name (--alg) \"ascon-aed128\": not an algorithm "
		"hilrun bundles (did you mean \"ascon-aead128\"?)",
		r);
	if (count_lines(r->err, "") != 1) {
		show(r);
		fail_msg("a misspelt --alg: one line, not %d",
			 count_lines(r->err, ""));
	}
	run_cli(r, "crypt", "ascon-aed128", NULL);
	refused("did you mean \"ascon-aead128\"", r);
	run_cli(r, "crypt", "ascon-aead128/bi3", NULL);
	refused("did you mean \"ascon-aead128/bi32\"", r);
	snprintf(path, sizeof(path), "%s/none.sqlite", tmp);
	run_cli(r, "history", "ascon-aead128", "--op", "encrpyt", "--db", path,
		NULL);
	refused("--op encrpyt: not an operation (did you mean \"encrypt\"?", r);
	/* A results folder where a run folder is wanted. */
	snprintf(dir, sizeof(dir), "%s/resfolder", tmp);
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(path, sizeof(path), "%s/.history.sqlite", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
	run_cli(r, "report", dir, NULL);
	refused("that is the results folder", r);
	/* Or one with a run folder in it, without history or link. */
	snprintf(dir, sizeof(dir), "%s/resfolder2", tmp);
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(path, sizeof(path), "%s/resfolder2/run1", tmp);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/resfolder2/run1/report.json", tmp);
	f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
	run_cli(r, "compare", dir, dir, NULL);
	refused("compare", r);
	refused("that is the results folder", r);
	/* A quick run's folder has a journal but no run.json. */
	snprintf(dir, sizeof(dir), "%s/quickrun", tmp);
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(path, sizeof(path), "%s/journal.jsonl", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
	run_cli(r, "--resume", dir, NULL);
	refused("cannot be resumed: its run took its options from the command "
		"line",
		r);
}

static void test_bad_values_and_arguments_are_refused_naming_them(void **state)
{
	struct res *r = malloc(sizeof(*r));

	(void)state;
	assert_non_null(r);
	run_cli(r, "--config", "configs/qemu.json", "--wait", "abc", NULL);
	refused("--wait", r);
	run_cli(r, "--config", "configs/qemu.json", "--wait", "-1", NULL);
	refused("--wait", r);
	run_cli(r, "--config", "configs/qemu.json", "--wait=12x", NULL);
	refused("--wait", r);
	/* An option is not a file name. */
	run_cli(r, "--config", "-q", NULL);
	refused("--config needs a value", r);
	run_cli(r, "--config", NULL);
	refused("--config needs a value", r);
	run_cli(r, "--runs", "0", NULL);
	refused("--runs", r);
	run_cli(r, "-O9", NULL);
	refused("-O9", r);
	run_cli(r, "--lengths", "16,x", NULL);
	refused("--lengths", r);
	run_cli(r, "--no-such-option", NULL);
	refused("--no-such-option", r);
	run_cli(r, "no-such-command", NULL);
	refused("no-such-command", r);
	run_cli(r, "boards", "extra", NULL);
	refused("extra", r);
	run_cli(r, "boards", "--json", "x", NULL);
	refused("\"x\"", r);
	run_cli(r, "boards", "--json=1", NULL);
	refused("--json takes no value", r);
	run_cli(r, "report", "--bogus", NULL);
	refused("--bogus", r);
	run_cli(r, "report", NULL);
	refused("report", r);
	run_cli(r, "compare", "a", "b", "c", NULL);
	refused("third", r);
	run_cli(r, "compare", "a", "b", "--threshold", "cycles", NULL);
	refused("METRIC=PERCENT", r);
	run_cli(r, "serve", "--spool", tmp, "--wait", "-5", NULL);
	refused("--wait", r);
	run_cli(r, "serve", "--spool", tmp, "extra", NULL);
	refused("extra", r);
	run_cli(r, "doctor", NULL);
	refused("--config", r);
	run_cli(r, "crypt", "ascon-aead128", "--key", NULL);
	refused("--key needs a value", r);
	run_cli(r, "crypt", "ascon-aead128", "--outlen", "-3", NULL);
	refused("--outlen", r);
	run_cli(r, "crypt", "ascon-aead128", "ascon-hash256", NULL);
	refused("one algorithm", r);
	bad_input_names_the_fix(r);
	free(r);
}

#define K16 "000102030405060708090a0b0c0d0e0f"

static void test_crypt_bad_tag_exits_1_not_could_not_start(void **state)
{
	struct res *r = malloc(sizeof(*r));
	char ct[128], *last;
	size_t n;

	(void)state;
	assert_non_null(r);
	run_cli(r, "crypt", "ascon-aead128", "--key", K16, "--nonce", K16,
		"--ad", "", "--pt", "00112233", NULL);
	assert_int_equal(r->status, 0);
	last = strrchr(r->out, ' ');
	assert_non_null(last);
	snprintf(ct, sizeof(ct), "%s", last + 1);
	n = strcspn(ct, "\n");
	ct[n] = '\0';
	/* --opt=value as well as --opt value. */
	run_cli(r, "crypt", "ascon-aead128", "--key=" K16, "--nonce", K16,
		"--ad=", "--decrypt", "--ct", ct, NULL);
	assert_int_equal(r->status, 0);
	assert_non_null(strstr(r->out, "00112233"));
	ct[n - 1] = ct[n - 1] == '0' ? '1' : '0';
	run_cli(r, "crypt", "ascon-aead128", "--key", K16, "--nonce", K16,
		"--ad", "", "--decrypt", "--ct", ct, NULL);
	if (r->status != 1 || strstr(r->err, "authentication") == NULL ||
	    r->out[0] != '\0') {
		show(r);
		fail_msg("a bad tag: expected exit 1, authentication failed");
	}
	one_prefix(r);
	free(r);
}

/* The lines of the headline table: from its header to the first footer. */
static void table_lines(const char *out, const char **hdr, size_t *n_lines)
{
	const char *p;

	*hdr = strstr(out, "\nalgorithm ");
	assert_non_null(*hdr);
	(*hdr)++;
	*n_lines = 0;
	for (p = *hdr; *p != '\0' && strncmp(p, "est. cycles/B =", 15) != 0;) {
		(*n_lines)++;
		p = strchr(p, '\n');
		assert_non_null(p);
		p++;
	}
}

/* Column where word starts on the line at l, or -1. */
static int col_of(const char *l, const char *word)
{
	const char *end = strchr(l, '\n');
	const char *w = strstr(l, word);

	return w != NULL && (end == NULL || w < end) ? (int)(w - l) : -1;
}

static void test_quick_run_prints_the_headline_table(void **state)
{
	struct res *r = malloc(sizeof(*r));
	char res[128], name[32];
	const char *hdr, *l;
	size_t n, i;
	cJSON *rep;
	const cJSON *rows, *row;
	int mode_col, flash_col;
	const char *e0;
	int by_hand = 0;

	(void)state;
	assert_non_null(r);
	snprintf(res, sizeof(res), "%s/quick", tmp);
	run_cli(r, "run", "--alg", "ascon-aead128,speck64-128-ecb", "--lengths",
		"16,64", "-Os", "--runs", "5", "--warmup=1", "--results", res,
		NULL);
	if (r->status != 0) {
		show(r);
		fail_msg("the quick run failed");
	}
	one_prefix(r);
	/* The report holds what the options asked for. */
	rep = e2e_load_report(res);
	rows = cJSON_GetObjectItemCaseSensitive(rep, "rows");
	assert_int_equal(cJSON_GetArraySize(rows), 2 * 2 + 2 + 1);
	cJSON_ArrayForEach(row, rows)
	{
		const cJSON *len =
			cJSON_GetObjectItemCaseSensitive(row, "msg_len");

		assert_true(len->valuedouble == 16 || len->valuedouble == 64 ||
			    len->valuedouble == 0);
		assert_int_equal(
			cJSON_GetObjectItemCaseSensitive(row, "runs")->valueint,
			5);
		/* No sensor: the energy is the datasheet's estimate. */
		assert_string_equal(
			cJSON_GetObjectItemCaseSensitive(
				cJSON_GetObjectItemCaseSensitive(row, "energy"),
				"kind")
				->valuestring,
			"estimate");
	}
	/* -Os replaced the config's -O2. */
	{
		char *text = cJSON_PrintUnformatted(
			cJSON_GetObjectItemCaseSensitive(rep, "build"));

		assert_non_null(text);
		snprintf(name, sizeof(name), "%s", "\"-Os\"");
		assert_non_null(strstr(text, name));
		assert_null(strstr(text, "\"-O2\""));
		free(text);
	}
	cJSON_Delete(rep);
	/* stderr: what a user needs, not a line per row. */
	assert_null(strstr(r->err, "t = "));
	assert_null(strstr(r->err, "median"));
	/* stdout: one compact table, the figures labelled. */
	table_lines(r->out, &hdr, &n);
	assert_int_equal(n, 1 + 4); /* header, 3 ascon/speck ops + keysetup */
	/* Cycles lead (the model's estimate, marked), then flash, RAM,
	 * energy; QEMU's instructions only with -v. */
	assert_true(col_of(hdr, "est. cycles/B @64") > 0);
	assert_true(col_of(hdr, "est. cycles/B @64") <
		    col_of(hdr, "flash KiB"));
	assert_true(col_of(hdr, "flash KiB") < col_of(hdr, "RAM B"));
	assert_true(col_of(hdr, "RAM B") < col_of(hdr, "uJ/op @64 (est.)"));
	assert_null(strstr(r->out, "instr/B @"));
	assert_null(strstr(r->out, "KB"));
	/* What the figures are, and at which clock and flash setting. */
	assert_non_null(strstr(
		r->out,
		"\nestimated cycles, STM32F401 @ 84 MHz, 2 WS, ART on, prefetch on\n"));
	assert_null(strstr(r->out, "stddev"));
	assert_null(strstr(r->out, "measured with"));
	assert_non_null(strstr(r->out, "Exact (emulated)"));
	/* The notes under the table fit 80 columns. */
	for (l = strstr(r->out, "est. cycles/B ="); l != NULL && *l != '\0';
	     l = strchr(l, '\n') + 1) {
		assert_true(strcspn(l, "\n") <= 80);
		if (strchr(l, '\n') == NULL) {
			break;
		}
	}
	assert_non_null(strstr(r->out, "not a measurement"));
	/* Energy always has its column; without a sensor it is the
	 * datasheet estimate, with its range and its table below. */
	assert_true(col_of(hdr, "est. range") >
		    col_of(hdr, "uJ/op @64 (est.)"));
	assert_null(strstr(r->out, "energy: not measured"));
	assert_non_null(strstr(
		r->out,
		"uJ/op (est.) = a datasheet estimate, not measured (docs/method.md):\n"
		"  = 3.3 V x 21.6 mA (typ., 25 C, all peripherals off) x cycles / 84 MHz;\n"
		"  range: up to the max. at 25 C, all peripherals on (33.3 mA);\n"
		"  source: DS10086 Rev 3 Table 25 (p. 68).\n"));
	/* Aligned whatever the names' lengths; the first five columns fit
	 * 80 columns, every line 120. */
	mode_col = col_of(hdr, "mode");
	flash_col = col_of(hdr, "flash KiB") + (int)strlen("flash KiB");
	assert_true(mode_col > 0);
	assert_true(flash_col <= 80);
	for (l = hdr, i = 0; (e0 = strchr(l, '\n')) != NULL; l = e0 + 1) {
		assert_true(e0 - l <= 120);
		if (++i > 40) {
			break;
		}
	}
	for (l = strchr(hdr, '\n') + 1, i = 1; i < n;
	     i++, l = strchr(l, '\n') + 1) {
		const char *m = col_of(l, "AEAD") >= 0 ? "AEAD" : "ECB";
		const char *e = strchr(l, '\n');

		assert_int_equal(col_of(l, m), mode_col);
		/* flash ends in the header's column: right-aligned figures. */
		assert_true(e - l > flash_col);
		assert_true(l[flash_col - 1] >= '0' && l[flash_col - 1] <= '9');
		assert_true(l[flash_col] == ' ');
		/* No trailing blank. */
		assert_true(e[-1] != ' ');
	}
	/* One row by hand: the report's model cycles of ascon-aead128
	 * encrypt at 64 B, at 84 MHz, Table 25's 21.6 mA, 3.3 V. */
	rep = e2e_load_report(res);
	cJSON_ArrayForEach(row, cJSON_GetObjectItemCaseSensitive(rep, "rows"))
	{
		const cJSON *en =
			cJSON_GetObjectItemCaseSensitive(row, "energy");
		const cJSON *mc =
			cJSON_GetObjectItemCaseSensitive(row, "model_cycles");
		double cyc, want;
		char cell[32];

		if (strcmp(cJSON_GetObjectItemCaseSensitive(row, "algorithm")
				   ->valuestring,
			   "ascon-aead128") != 0 ||
		    strcmp(cJSON_GetObjectItemCaseSensitive(row, "operation")
				   ->valuestring,
			   "encrypt") != 0 ||
		    cJSON_GetObjectItemCaseSensitive(row, "msg_len")
				    ->valuedouble != 64) {
			continue;
		}
		cyc = cJSON_GetObjectItemCaseSensitive(mc, "median")
			      ->valuedouble;
		want = 3.3 * 21.6e-3 * cyc / 84e6 * 1e6;
		assert_true(
			fabs(cJSON_GetObjectItemCaseSensitive(en, "uj_per_op")
				     ->valuedouble -
			     want) < 1e-9);
		assert_true(fabs(cJSON_GetObjectItemCaseSensitive(en, "uj_high")
					 ->valuedouble -
				 3.3 * 33.3e-3 * cyc / 84e6 * 1e6) < 1e-9);
		assert_string_equal(
			cJSON_GetObjectItemCaseSensitive(en, "table")
				->valuestring,
			"DS10086 Rev 3 Table 25 (p. 68)");
		/* ... and the terminal shows it. */
		snprintf(cell, sizeof(cell), "  %.3g  ", want);
		assert_non_null(strstr(hdr, cell));
		by_hand++;
	}
	assert_int_equal(by_hand, 1);
	cJSON_Delete(rep);
	/* On an 80-column terminal (COLUMNS when stdout is not one): two
	 * blocks, names + cycles, flash, RAM, then names + energy, range,
	 * mode; every line within 80. */
	snprintf(res, sizeof(res), "%s/narrow", tmp);
	setenv("COLUMNS", "80", 1);
	run_cli(r, "run", "--alg", "ascon-aead128,speck64-128-ecb", "--lengths",
		"16,64,1024", "--runs", "3", "--results", res, NULL);
	unsetenv("COLUMNS");
	assert_int_equal(r->status, 0);
	assert_int_equal(count_lines(r->out, "algorithm "), 2);
	hdr = strstr(r->out, "\nalgorithm ") + 1;
	assert_true(col_of(hdr, "@1024") > 0);
	assert_true(col_of(hdr, "RAM B") > 0);
	assert_int_equal(col_of(hdr, "uJ/op"), -1);
	hdr = strstr(hdr, "\nalgorithm ") + 1;
	assert_true(col_of(hdr, "uJ/op @64 (est.)") > 0);
	assert_true(col_of(hdr, "mode") > 0);
	for (l = r->out; *l != '\0'; l += strcspn(l, "\n") + 1) {
		assert_true(strcspn(l, "\n") <= 80);
		if (l[strcspn(l, "\n")] == '\0') {
			break;
		}
	}
	/* --detail: every row too. */
	snprintf(res, sizeof(res), "%s/detail", tmp);
	run_cli(r, "run", "--alg", "speck64-128-ecb", "--lengths", "16",
		"--runs", "3", "--results", res, "--detail", NULL);
	assert_int_equal(r->status, 0);
	assert_non_null(strstr(r->out, "median"));
	assert_non_null(strstr(r->out, "instr/B @16"));
	free(r);
}

static void
test_an_operation_list_that_measures_nothing_is_an_error(void **state)
{
	struct res *r = malloc(sizeof(*r));
	char res[128];

	(void)state;
	assert_non_null(r);
	snprintf(res, sizeof(res), "%s/nothing", tmp);
	run_cli(r, "run", "--alg", "ascon-aead128", "--ops", "hash",
		"--lengths", "16", "--runs", "3", "--results", res, NULL);
	if (r->status != 2 || strstr(r->err, "bench.operations") == NULL) {
		show(r);
		fail_msg(
			"an AEAD asked only to hash: expected exit 2 naming bench.operations");
	}
	one_prefix(r);
	free(r);
}

static void
test_compare_refuses_a_threshold_the_reports_do_not_have(void **state)
{
	struct res *r = malloc(sizeof(*r));
	char base[128], newer[128], bd[4096], nd[4096];

	(void)state;
	assert_non_null(r);
	snprintf(base, sizeof(base), "%s/cmp-base", tmp);
	snprintf(newer, sizeof(newer), "%s/cmp-new", tmp);
	run_cli(r, "run", "--alg", "speck64-128-ecb", "--lengths", "16,64",
		"--runs", "3", "--results", base, NULL);
	assert_int_equal(r->status, 0);
	run_cli(r, "run", "--alg", "speck64-128-ecb", "--lengths", "16",
		"--runs", "3", "--results", newer, NULL);
	assert_int_equal(r->status, 0);
	e2e_run_dir(base, bd, sizeof(bd));
	e2e_run_dir(newer, nd, sizeof(nd));

	/* The README's example on an emulated report: cycles are not there. */
	run_cli(r, "compare", bd, nd, "--threshold", "cycles=2", NULL);
	refused("instructions", r);
	assert_non_null(strstr(r->err, "cycles=2"));
	/* The unit's own metric and the model's apply. */
	run_cli(r, "compare", bd, nd, "--threshold", "instructions=0",
		"--threshold", "estimated=0", NULL);
	if (r->status != 0) {
		show(r);
		fail_msg("same image, same counts: expected exit 0");
	}
	/* The model's figures are compared too, and the missing row said. */
	assert_non_null(strstr(r->out, " model "));
	assert_non_null(strstr(r->out, "1 removed"));
	/* Sizes are judged when asked: -O3 code is larger than -Os code. */
	{
		char os[128], o3[128], od[4096], gd[4096];

		snprintf(os, sizeof(os), "%s/cmp-os", tmp);
		snprintf(o3, sizeof(o3), "%s/cmp-o3", tmp);
		run_cli(r, "run", "--alg", "ascon-aead128", "--ops", "encrypt",
			"--lengths", "64", "--runs", "3", "-Os", "--results",
			os, NULL);
		assert_int_equal(r->status, 0);
		run_cli(r, "run", "--alg", "ascon-aead128", "--ops", "encrypt",
			"--lengths", "64", "--runs", "3", "-O3", "--results",
			o3, NULL);
		assert_int_equal(r->status, 0);
		e2e_run_dir(os, od, sizeof(od));
		e2e_run_dir(o3, gd, sizeof(gd));
		/* Without a size threshold, sizes are not judged... */
		run_cli(r, "compare", od, gd, "--threshold",
			"instructions=1000", "--threshold", "estimated=1000",
			NULL);
		assert_int_equal(r->status, 0);
		assert_null(strstr(r->out, " flash "));
		/* ...with one, the larger image is worse. */
		run_cli(r, "compare", od, gd, "--threshold",
			"instructions=1000", "--threshold", "estimated=1000",
			"--threshold", "flash=0", NULL);
		if (r->status != 3 || count_lines(r->out, "worse: ") != 1 ||
		    strstr(r->out, "flash") == NULL) {
			show(r);
			fail_msg(
				"--threshold flash=0: -O3 over -Os must be worse in flash, and only there");
		}
	}
	run_cli(r, "compare", bd, nd, "--fail-missing", NULL);
	if (r->status != 3 ||
	    strstr(r->out, "missing from the new report") == NULL) {
		show(r);
		fail_msg(
			"--fail-missing: a row gone from NEW must fail with 3");
	}
	free(r);
}

/*
 * Ctrl-C inside a row: exit 4, that row filed interrupted (not failed), and
 * the last lines say what was cut short, what never started and what to
 * type next (issue 31 item 6); summary.md says the run is partial.
 */
static void test_ctrl_c_files_the_running_row_interrupted(void **state)
{
	char res[128], outp[128], errp[128], conf[128], dir[4096], rep[4200];
	char *argv[] = {(char *)e2e_hilrun_bin(),
			"run",
			"--config",
			conf,
			"--results",
			res,
			NULL};
	uint64_t t0 = e2e_ms_now();
	char *rows, *out, *md;
	pid_t pid;
	int st;
	FILE *f;

	(void)state;
	snprintf(res, sizeof(res), "%s/intr", tmp);
	snprintf(outp, sizeof(outp), "%s/intr.out", tmp);
	snprintf(errp, sizeof(errp), "%s/intr.err", tmp);
	snprintf(conf, sizeof(conf), "%s/intr.json", tmp);
	f = fopen(conf, "w");
	assert_non_null(f);
	fputs("{\"name\": \"intr\", \"board\": {\"name\": \"qemu-netduino\"},"
	      " \"algorithms\": [\"aes128-gcm\"],"
	      " \"bench\": {\"operations\": [\"encrypt\"], \"ad_lengths\": [0],"
	      " \"lengths\": [2048, 64], \"runs\": 2000}}",
	      f);
	fclose(f);
	pid = spawn(argv, outp, errp);
	/* Inside the row: after the check that precedes it. */
	while (e2e_lines_with(errp, "verified on the target") == 0) {
		if (waitpid(pid, &st, WNOHANG) != 0 ||
		    e2e_ms_now() - t0 > WAIT_MS) {
			char err[8192];

			read_text(errp, err, sizeof(err));
			fail_msg("the run ended or hung before its row:\n%s",
				 err);
		}
		e2e_sleep_ms(20);
	}
	assert_int_equal(kill(pid, SIGINT), 0);
	assert_int_equal(wait_exit(pid), 4);
	e2e_run_dir(res, dir, sizeof(dir));
	snprintf(rep, sizeof(rep), "%s/report.json", dir);
	rows = e2e_report_rows(rep);
	e2e_assert_contains(rows, "interrupted");
	free(rows);
	out = malloc(1 << 16);
	assert_non_null(out);
	read_text(outp, out, 1 << 16);
	e2e_assert_contains(out, "interrupted: 0 rows measured, 1 row cut "
				 "short, 1 not started");
	e2e_assert_contains(out, "finish with `hilrun --resume ");
	if (strstr(out, "row failed") != NULL ||
	    strstr(out, "FAILED") != NULL) {
		fail_msg("an interrupted row is not a failed one:\n%s", out);
	}
	snprintf(rep, sizeof(rep), "%s/summary.md", dir);
	md = malloc(1 << 16);
	assert_non_null(md);
	read_text(rep, md, 1 << 16);
	e2e_assert_contains(md, "**Partial run**");
	e2e_assert_contains(md, "- interrupted rows");
	free(md);
	free(out);
	assert_true(e2e_qemu_gone(tmp, NULL, E2E_HANG_MS));
}

/* Write len bytes of data to path. */
static void write_bytes(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

/* A run folder of results that holds a report (the killed run's has none). */
static void complete_run_dir(const char *results, char *out, size_t len)
{
	DIR *d = opendir(results);
	struct dirent *e;
	char rep[512];

	out[0] = '\0';
	assert_non_null(d);
	while ((e = readdir(d)) != NULL && out[0] == '\0') {
		if (e->d_name[0] == '.' || strcmp(e->d_name, "latest") == 0) {
			continue;
		}
		snprintf(rep, sizeof(rep), "%s/%s/report.json", results,
			 e->d_name);
		if (access(rep, F_OK) == 0) {
			snprintf(out, len, "%s/%s", results, e->d_name);
		}
	}
	closedir(d);
	if (out[0] == '\0') {
		fail_msg("no run folder with a report in %s", results);
	}
}

/* Rows of the history database at path where cond holds. */
static int db_count(const char *path, const char *cond)
{
	sqlite3 *h = NULL;
	sqlite3_stmt *st = NULL;
	char sql[256];
	int n = -1;

	snprintf(sql, sizeof(sql), "SELECT COUNT(*) FROM rows WHERE %s", cond);
	assert_int_equal(sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL),
			 SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(h, sql, -1, &st, NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW) {
		n = sqlite3_column_int(st, 0);
	}
	sqlite3_finalize(st);
	sqlite3_close(h);
	return n;
}

/*
 * hilrun history import, as a lab's master does with the runs its hosts
 * uploaded: the three runs of res into another database show there; again
 * is a no-op; a report cut short and a JSON file that is not a report are
 * refused by name (exit 2) while the run named beside them is recorded.
 */
static void history_import_checks(struct res *r, const char *res)
{
	char mdb[160], mdb2[160], cut[160], other[160], dir[256], rep[300];
	char *text = malloc(1 << 20);

	assert_non_null(text);
	snprintf(mdb, sizeof(mdb), "%s/master.sqlite", tmp);
	snprintf(mdb2, sizeof(mdb2), "%s/master2.sqlite", tmp);
	run_cli(r, "history", "import", "--db", mdb, res, NULL);
	if (r->status != 0 || count_lines(r->out, ": recorded") != 3) {
		show(r);
		fail_msg("expected the three runs of %s recorded", res);
	}
	run_cli(r, "history", "--db", mdb, NULL);
	assert_int_equal(r->status, 0);
	assert_int_equal(count_lines(r->out, "qemu-cli"), 3);
	assert_int_equal(count_lines(r->out, "complete"), 3);
	run_cli(r, "history", "import", "--db", mdb, res, NULL);
	if (r->status != 0 ||
	    count_lines(r->out, "already recorded, unchanged") != 3 ||
	    count_lines(r->out, ": recorded") != 0) {
		show(r);
		fail_msg("expected importing again to change nothing");
	}
	run_cli(r, "history", "--db", mdb, NULL);
	assert_int_equal(count_lines(r->out, "qemu-cli"), 3);
	/* The trend reads the imported rows as it reads recorded ones. */
	run_cli(r, "history", "speck64-128-ecb/ref", "--op", "encrypt", "--len",
		"64", "--db", mdb, NULL);
	assert_int_equal(r->status, 0);
	assert_int_equal(count_lines(r->out, " ok "), 3);
	/* The datasheet estimate is imported as one, never as a measured
	 * energy, and shown with its range and table. */
	assert_non_null(strstr(r->out, "est. uJ/op (range)"));
	assert_non_null(strstr(r->out, "DS10086 Rev 3 Table 25 (p. 68)"));
	assert_int_equal(db_count(mdb, "energy_uj IS NOT NULL"), 0);
	assert_true(db_count(mdb, "est_uj > 0 AND est_high >= est_uj") > 0);

	complete_run_dir(res, dir, sizeof(dir));
	snprintf(rep, sizeof(rep), "%s/report.json", dir);
	read_text(rep, text, 1 << 20);
	assert_true(strlen(text) > 400);
	snprintf(cut, sizeof(cut), "%s/cut.json", tmp);
	write_bytes(cut, text, strlen(text) / 2);
	snprintf(other, sizeof(other), "%s/other.json", tmp);
	write_bytes(other, "{\"name\": \"qemu\"}\n", 17);
	free(text);
	run_cli(r, "history", "import", "--db", mdb2, cut, other, dir, NULL);
	if (r->status != 2 || strstr(r->err, cut) == NULL ||
	    strstr(r->err, other) == NULL ||
	    strstr(r->err, "not a hilrun report") == NULL ||
	    strstr(r->err, "truncated") == NULL ||
	    count_lines(r->err, "refused") != 2 ||
	    count_lines(r->out, ": recorded") != 1) {
		show(r);
		fail_msg(
			"expected the two bad files refused by name, exit 2, the run recorded");
	}
	one_prefix(r);
	run_cli(r, "history", "--db", mdb2, NULL);
	assert_int_equal(r->status, 0);
	assert_int_equal(count_lines(r->out, "qemu-cli"), 1);
	run_cli(r, "history", "import", "--db", mdb2, NULL);
	refused("name the reports", r);
}

static void test_history_prints_a_trend_and_survives_a_killed_run(void **state)
{
	struct res *r = malloc(sizeof(*r));
	char res[128], db[160], outp[128], errp[128], check[64] = "";
	char *argv[] = {(char *)e2e_hilrun_bin(),
			"run",
			"--alg",
			"aes128-gcm",
			"--ops",
			"encrypt",
			"--lengths",
			"2048",
			"--runs",
			"2000",
			"--results",
			res,
			NULL};
	uint64_t t0 = e2e_ms_now();
	sqlite3_stmt *st = NULL;
	sqlite3 *h = NULL;
	pid_t pid;
	int i, st_;

	(void)state;
	assert_non_null(r);
	snprintf(res, sizeof(res), "%s/hist", tmp);
	snprintf(db, sizeof(db), "%s/.history.sqlite", res);
	for (i = 0; i < 3; i++) {
		run_cli(r, "run", "--alg", "speck64-128-ecb", "--lengths",
			"16,64", "--runs", "3", "--results", res, NULL);
		assert_int_equal(r->status, 0);
		/* Before it starts: the rows, and the last run's time. */
		assert_non_null(strstr(r->err, "3 rows to measure"));
		assert_true((strstr(r->err,
				    "the last complete run of qemu-cli took") !=
			     NULL) == (i > 0));
		/* A log without a terminal gets its progress too. */
		assert_non_null(strstr(r->err, "(0 of 3 rows done)"));
	}
	/* A run killed inside a row never gets into the history. */
	snprintf(outp, sizeof(outp), "%s/kill.out", tmp);
	snprintf(errp, sizeof(errp), "%s/kill.err", tmp);
	pid = spawn(argv, outp, errp);
	while (e2e_lines_with(errp, "verified on the target") == 0) {
		if (waitpid(pid, &st_, WNOHANG) != 0 ||
		    e2e_ms_now() - t0 > WAIT_MS) {
			fail_msg(
				"the run to kill ended or hung before its row");
		}
		e2e_sleep_ms(20);
	}
	assert_int_equal(kill(pid, SIGKILL), 0);
	assert_int_equal(wait_exit(pid), 128 + SIGKILL);
	assert_true(e2e_qemu_gone(tmp, NULL, E2E_HANG_MS));

	run_cli(r, "history", "--results", res, NULL);
	assert_int_equal(r->status, 0);
	assert_int_equal(count_lines(r->out, "qemu-cli"), 3);
	assert_int_equal(count_lines(r->out, "complete"), 3);
	/* The trend: three runs of the row, oldest first, no change. */
	run_cli(r, "history", "speck64-128-ecb/ref", "--op", "encrypt", "--len",
		"64", "--db", db, NULL);
	if (r->status != 0 || count_lines(r->out, " ok ") != 3 ||
	    count_lines(r->out, "+0.00%") != 2) {
		show(r);
		fail_msg("expected a trend of three runs");
	}
	/* No sensor: energy not measured, the estimate beside, its source
	 * under the table. */
	assert_non_null(strstr(r->out, "est. uJ/op (range)"));
	assert_non_null(strstr(
		r->out,
		"est. uJ/op = a datasheet estimate, not measured (typical, and the datasheet's range): DS10086 Rev 3 Table 25 (p. 68); docs/method.md.\n"));
	assert_int_equal(db_count(db, "energy_uj IS NOT NULL"), 0);
	/* The trend as a page with a plot: three points, labelled axes. */
	{
		char html[160], *page = malloc(65536);

		assert_non_null(page);
		snprintf(html, sizeof(html), "%s/trend.html", tmp);
		run_cli(r, "history", "speck64-128-ecb/ref", "--op", "encrypt",
			"--len", "64", "--db", db, "--html", html, NULL);
		assert_int_equal(r->status, 0);
		read_text(html, page, 65536);
		assert_non_null(strstr(page, "<svg "));
		assert_int_equal(count_lines(page, "<circle "), 3);
		assert_non_null(
			strstr(page, "median, instructions (emulated)"));
		assert_non_null(strstr(page, "run, oldest to newest (3)"));
		assert_non_null(strstr(page, "</html>"));
		free(page);
	}
	run_cli(r, "history", "speck64-128-ecb", "--len", "999", "--db", db,
		NULL);
	refused("speck64-128-ecb", r);
	run_cli(r, "history", "--db", "/nonexistent/history.sqlite", NULL);
	refused("no run history", r);
	history_import_checks(r, res);
	/* And the file is a sound database. */
	assert_int_equal(sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL),
			 SQLITE_OK);
	assert_int_equal(
		sqlite3_prepare_v2(h, "PRAGMA integrity_check", -1, &st, NULL),
		SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	snprintf(check, sizeof(check), "%s",
		 (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	sqlite3_close(h);
	assert_string_equal(check, "ok");
	free(r);
}

/*
 * Every option the README and docs/ show after "hilrun [COMMAND]" (in code
 * lines and inline code) is in that command's --help: the docs cannot
 * name an option the program does not have.
 */
static const char *const commands[] = {"run",	  "crypt",   "doctor", "sensor",
				       "report",  "compare", "serve",  "boards",
				       "history", "pq"};
#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static void check_doc_line(const char *file, int lineno, const char *line,
			   char help[][8192], int *checked)
{
	const char *p = line;

	while ((p = strstr(p, "hilrun ")) != NULL) {
		const char *q = p + 7;
		size_t cmd = 0; /* "run": hilrun's own options */
		int first = 1;

		/* "hilrun" as the program, not a folder (/srv/hilrun). */
		if (p != line && strchr("` \t$(", p[-1]) == NULL &&
		    !(p - line >= 6 && strncmp(p - 6, "build/", 6) == 0)) {
			p = q;
			continue;
		}
		for (;;) {
			char word[128];
			size_t n = 0, k;

			while (*q == ' ') {
				q++;
			}
			if (*q == '\0' || strchr("#|`;", *q) != NULL) {
				break;
			}
			while (q[n] != '\0' && q[n] != ' ' &&
			       strchr("#|`;", q[n]) == NULL && n < 127) {
				word[n] = q[n];
				n++;
			}
			word[n] = '\0';
			q += n;
			if (first) {
				first = 0;
				for (k = 0; k < N_COMMANDS; k++) {
					if (strcmp(word, commands[k]) == 0) {
						cmd = k;
					}
				}
			}
			/* The option's name: "--threshold" of
			 * "[--threshold", "--ad=" of "--ad=", ... */
			{
				const char *o = strstr(word, "--");
				char name[64];
				size_t m = 2;

				if (o == NULL || (o != word && o[-1] != '[')) {
					continue;
				}
				memcpy(name, "--", 2);
				while (m < sizeof(name) - 1 &&
				       ((o[m] >= 'a' && o[m] <= 'z') ||
					(o[m] >= '0' && o[m] <= '9') ||
					o[m] == '-')) {
					name[m] = o[m];
					m++;
				}
				name[m] = '\0';
				if (m <= 2) {
					continue;
				}
				(*checked)++;
				if (strstr(help[cmd], name) == NULL) {
					fail_msg(
						"%s:%d: \"hilrun %s\" has no option %s (its --help does not list it):\n%s",
						file, lineno, commands[cmd],
						name, line);
				}
			}
		}
		p = q;
	}
}

static void test_every_documented_option_exists(void **state)
{
	static char help[N_COMMANDS][8192];
	struct res *r = malloc(sizeof(*r));
	char files[32][128];
	size_t n_files = 0, i;
	int checked = 0;
	DIR *d;
	struct dirent *e;

	(void)state;
	assert_non_null(r);
	for (i = 0; i < N_COMMANDS; i++) {
		run_cli(r, commands[i], "--help", NULL);
		assert_int_equal(r->status, 0);
		snprintf(help[i], sizeof(help[i]), "%s", r->out);
	}
	snprintf(files[n_files++], sizeof(files[0]), "README.md");
	d = opendir("docs");
	assert_non_null(d);
	while ((e = readdir(d)) != NULL && n_files < 32) {
		size_t len = strlen(e->d_name);

		if (len > 3 && strcmp(e->d_name + len - 3, ".md") == 0) {
			snprintf(files[n_files++], sizeof(files[0]), "docs/%s",
				 e->d_name);
		}
	}
	closedir(d);
	for (i = 0; i < n_files; i++) {
		FILE *f = fopen(files[i], "r");
		char line[4096];
		int lineno = 0;

		assert_non_null(f);
		while (fgets(line, sizeof(line), f) != NULL) {
			lineno++;
			line[strcspn(line, "\n")] = '\0';
			check_doc_line(files[i], lineno, line, help, &checked);
		}
		fclose(f);
	}
	/* The docs do show commands: the check checked something. */
	assert_true(checked > 20);
	free(r);
}

/* The doc files the checks read: README.md and every docs .md file. */
static size_t doc_files(char files[][128], size_t max)
{
	size_t n = 0;
	DIR *d;
	struct dirent *e;

	snprintf(files[n++], 128, "README.md");
	d = opendir("docs");
	assert_non_null(d);
	while ((e = readdir(d)) != NULL && n < max) {
		size_t len = strlen(e->d_name);

		if (len > 3 && strcmp(e->d_name + len - 3, ".md") == 0) {
			snprintf(files[n++], 128, "docs/%s", e->d_name);
		}
	}
	closedir(d);
	return n;
}

struct doc_counts {
	int files;   /* configuration files named and loaded */
	int sensors; /* sensor examples run */
	int versions;
};

/*
 * A configuration a shown command names (--config X.json, --sweep X.json)
 * must be in the tree and load; a shown `hilrun sensor --config X` on a
 * simulated bus is run, and must print its readings.
 */
static void check_doc_files(const char *file, int lineno, const char *line,
			    struct doc_counts *c, struct res *r)
{
	const char *p = line;

	while ((p = strstr(p, "hilrun ")) != NULL) {
		const char *q = p + 7;
		char words[16][256];
		size_t n = 0, i;

		if (p != line && strchr("` \t$(", p[-1]) == NULL &&
		    !(p - line >= 6 && strncmp(p - 6, "build/", 6) == 0)) {
			p = q;
			continue;
		}
		while (n < 16) {
			size_t m = 0;

			while (*q == ' ') {
				q++;
			}
			if (*q == '\0' || strchr("#|`;", *q) != NULL) {
				break;
			}
			while (q[m] != '\0' && q[m] != ' ' &&
			       strchr("#|`;", q[m]) == NULL && m < 255) {
				words[n][m] = q[m];
				m++;
			}
			words[n][m] = '\0';
			q += m;
			n++;
		}
		for (i = 0; i + 1 < n; i++) {
			const char *v = words[i + 1];
			size_t len = strlen(v);
			struct hil_config *cfg;
			char err[1024];

			if ((strcmp(words[i], "--config") != 0 &&
			     strcmp(words[i], "--sweep") != 0) ||
			    len < 6 || strcmp(v + len - 5, ".json") != 0 ||
			    strpbrk(v, "$<>*") != NULL) {
				continue;
			}
			if (access(v, R_OK) != 0) {
				fail_msg(
					"%s:%d: %s names %s, which is not in the tree:\n%s",
					file, lineno, words[i], v, line);
			}
			c->files++;
			if (strcmp(words[i], "--config") != 0) {
				continue;
			}
			cfg = calloc(1, sizeof(*cfg));
			assert_non_null(cfg);
			if (hil_config_load(v, cfg, err, sizeof(err)) !=
			    HIL_OK) {
				fail_msg("%s:%d: %s does not load: %s\n%s",
					 file, lineno, v, err, line);
			}
			if (n > 0 && strcmp(words[0], "sensor") == 0 &&
			    strncmp(cfg->sensor.bus, "sim:", 4) == 0) {
				run_cli(r, "sensor", "--config", v, "--seconds",
					"1", NULL);
				if (r->status != 0 ||
				    strstr(r->out, "(model)") == NULL ||
				    count_lines(r->out, "    ") < 3) {
					show(r);
					fail_msg(
						"%s:%d: the sensor example does not run:\n%s",
						file, lineno, line);
				}
				c->sensors++;
			}
			hil_config_free(cfg);
			free(cfg);
		}
		p = q;
	}
}

/*
 * Issue 31 item 13: every command the README and docs show names files
 * that exist and load (the sensor example is run on its simulated bus),
 * and every `hilrun --version` line shown is what the program prints.
 */
static void test_documented_commands_name_real_files(void **state)
{
	static char files[32][128];
	struct res *r = malloc(sizeof(*r));
	struct doc_counts c = {0, 0, 0};
	char version[256];
	size_t n_files, i;

	(void)state;
	assert_non_null(r);
	run_cli(r, "--version", NULL);
	assert_int_equal(r->status, 0);
	snprintf(version, sizeof(version), "%s", r->out);
	version[strcspn(version, "\n")] = '\0';
	n_files = doc_files(files, 32);
	for (i = 0; i < n_files; i++) {
		FILE *f = fopen(files[i], "r");
		char line[4096];
		int lineno = 0;

		assert_non_null(f);
		while (fgets(line, sizeof(line), f) != NULL) {
			lineno++;
			line[strcspn(line, "\n")] = '\0';
			check_doc_files(files[i], lineno, line, &c, r);
			if (strncmp(line, "hilrun ", 7) == 0 &&
			    strstr(line, "(protocol ") != NULL) {
				c.versions++;
				if (strcmp(line, version) != 0) {
					fail_msg(
						"%s:%d: shows \"%s\", the program says \"%s\"",
						files[i], lineno, line,
						version);
				}
			}
		}
		fclose(f);
	}
	assert_true(c.files > 5);
	assert_true(c.sensors >= 1);
	assert_true(c.versions >= 1);
	free(r);
}

static int setup(void **state)
{
	char locks[128];
	const char *root = getenv("HILRUN_ROOT");

	(void)state;
	if (root != NULL && chdir(root) != 0) {
		return -1;
	}
	snprintf(tmp, sizeof(tmp), "/tmp/hilrun-cli-XXXXXX");
	if (mkdtemp(tmp) == NULL) {
		return -1;
	}
	/* Its own locks: another run of the emulated board elsewhere on
	 * this machine must not make these wait. */
	snprintf(locks, sizeof(locks), "%s/locks", tmp);
	unsetenv("HILRUN_BOARD");
	unsetenv("HILRUN_LOG");
	return setenv("HILRUN_LOCK_DIR", locks, 1);
}

static int teardown(void **state)
{
	(void)state;
	e2e_qemu_gone(tmp, NULL, E2E_HANG_MS);
	e2e_remove_tree(tmp);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			test_every_command_has_help_on_stdout_with_exit_0),
		cmocka_unit_test(
			test_bad_values_and_arguments_are_refused_naming_them),
		cmocka_unit_test(
			test_crypt_bad_tag_exits_1_not_could_not_start),
		cmocka_unit_test(test_quick_run_prints_the_headline_table),
		cmocka_unit_test(
			test_an_operation_list_that_measures_nothing_is_an_error),
		cmocka_unit_test(
			test_compare_refuses_a_threshold_the_reports_do_not_have),
		cmocka_unit_test(test_ctrl_c_files_the_running_row_interrupted),
		cmocka_unit_test(
			test_history_prints_a_trend_and_survives_a_killed_run),
		cmocka_unit_test(test_every_documented_option_exists),
		cmocka_unit_test(test_documented_commands_name_real_files),
	};

	/* HIL_CLI_ONLY=PATTERN runs the tests whose names match. */
	if (getenv("HIL_CLI_ONLY") != NULL) {
		cmocka_set_test_filter(getenv("HIL_CLI_ONLY"));
	}
	return cmocka_run_group_tests(tests, setup, teardown);
}
