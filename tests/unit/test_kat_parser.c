/* test_kat_parser: the known-answer file reader on good, odd and malformed files. */
#define _POSIX_C_SOURCE 200809L /* mkstemp, unlink, close */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "image/kat.h"

/* Big: file scope rather than the stack. */
static struct kat_record rec;
static struct kat_file kf;
static char path[256];

/* Write text to a fresh temporary file named in path. */
static void write_tmp(const char *text)
{
	const char *dir = getenv("TMPDIR");
	FILE *fp;
	int fd;

	if (!dir || !*dir) {
		dir = "/tmp";
	}
	snprintf(path, sizeof(path), "%s/test_kat_parser.XXXXXX", dir);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	fp = fopen(path, "w");
	assert_non_null(fp);
	assert_int_equal(fputs(text, fp) >= 0, 1);
	assert_int_equal(fclose(fp), 0);
}

/* Open text as a KAT file. */
static void open_text(const char *text)
{
	write_tmp(text);
	assert_int_equal(kat_open(&kf, path), KAT_OK);
}

static int teardown(void **state)
{
	(void)state;
	kat_close(&kf);
	if (path[0]) {
		unlink(path);
		path[0] = '\0';
	}
	return 0;
}

static void test_kat_parser_reads_empty_fields(void **state)
{
	const struct kat_field *fl;

	(void)state;
	/* "PT = " keeps its trailing space in the real files; "AD =" has none. */
	open_text("Count = 1\n"
		  "Key = 000102030405060708090A0B0C0D0E0F\n"
		  "Nonce = 101112131415161718191a1b1c1d1e1f\n"
		  "PT = \n"
		  "AD =\n"
		  "CT = 4F9C278211BEC9316BF68F46EE8B2EC6\n"
		  "\n");
	assert_int_equal(kat_next(&kf, &rec), 1);
	assert_int_equal(rec.count, 1);
	assert_int_equal(rec.line, 1);
	assert_int_equal(rec.n_fields, 5);

	fl = kat_find(&rec, "PT");
	assert_non_null(fl);
	assert_int_equal(fl->len, 0);
	fl = kat_find(&rec, "AD");
	assert_non_null(fl);
	assert_int_equal(fl->len, 0);

	fl = kat_find(&rec, "Nonce"); /* lower-case hex */
	assert_non_null(fl);
	assert_int_equal(fl->len, 16);
	assert_int_equal(fl->data[0], 0x10);
	assert_int_equal(fl->data[15], 0x1f);

	fl = kat_find(&rec, "CT");
	assert_non_null(fl);
	assert_int_equal(fl->len, 16);
	assert_int_equal(fl->data[0], 0x4F);
	assert_int_equal(fl->data[15], 0xC6);

	assert_null(kat_find(&rec, "MD"));
	assert_int_equal(kat_next(&kf, &rec), 0);
}

static void
test_kat_parser_reads_hash_records_crlf_and_no_final_blank(void **state)
{
	const struct kat_field *fl;

	(void)state;
	open_text(
		"# comment\r\n"
		"\r\n"
		"Count = 1\r\n"
		"Msg = \r\n"
		"MD = 0A0B\r\n"
		"\r\n"
		"\r\n"
		"Count = 2\r\n"
		"Msg = 00\r\n"
		"MD = 1B1A1918 13121110"); /* words with spaces; no newline at the end */
	assert_int_equal(kat_next(&kf, &rec), 1);
	assert_int_equal(rec.count, 1);
	assert_int_equal(rec.line, 3);
	fl = kat_find(&rec, "MD");
	assert_non_null(fl);
	assert_int_equal(fl->len, 2);
	assert_int_equal(fl->data[1], 0x0B);

	assert_int_equal(kat_next(&kf, &rec), 1);
	assert_int_equal(rec.count, 2);
	assert_int_equal(rec.line, 8);
	fl = kat_find(&rec, "MD");
	assert_non_null(fl);
	assert_int_equal(fl->len, 8);
	assert_int_equal(fl->data[3], 0x18);
	assert_int_equal(fl->data[4], 0x13);

	assert_int_equal(kat_next(&kf, &rec), 0);
	assert_int_equal(kat_next(&kf, &rec), 0);
}

static void test_kat_parser_reports_bad_hex_with_line_number(void **state)
{
	(void)state;
	open_text("Count = 1\n"
		  "Key = 00\n"
		  "\n"
		  "Count = 2\n"
		  "Key = 00\n"
		  "PT = 0G11\n" /* line 6 */
		  "\n");
	assert_int_equal(kat_next(&kf, &rec), 1);
	assert_int_equal(kat_next(&kf, &rec), KAT_ERR_FORMAT);
	assert_int_equal(kf.line, 6);
	assert_non_null(strstr(kf.err, ":6: "));
	assert_non_null(strstr(kf.err, "PT"));
	assert_non_null(strstr(kf.err, "non-hex"));
	/* The error sticks. */
	assert_int_equal(kat_next(&kf, &rec), KAT_ERR_FORMAT);
}

static void test_kat_parser_reports_odd_hex_digits(void **state)
{
	(void)state;
	open_text("Count = 1\nCT = ABC\n");
	assert_int_equal(kat_next(&kf, &rec), KAT_ERR_FORMAT);
	assert_int_equal(kf.line, 2);
	assert_non_null(strstr(kf.err, ":2: "));
	assert_non_null(strstr(kf.err, "odd"));
}

static void test_kat_parser_rejects_malformed_lines(void **state)
{
	static const struct {
		const char *text;
		unsigned long line;
	} bad[] = {
		{"Key = 00\n", 1},			/* field before Count */
		{"Count = 1\nKey 00\n", 2},		/* no '=' */
		{"Count = 1\n= 00\n", 2},		/* no name */
		{"Count = x\n", 1},			/* Count not a number */
		{"Count = 1\nKey = 00\nKey = 01\n", 3}, /* duplicate */
		{"Count = 1\nKey = 00\nCount = 2\n",
		 3},			       /* missing blank line */
		{"Count = 1\nKey = 0 0\n", 2}, /* blank inside a byte */
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		open_text(bad[i].text);
		assert_int_equal(kat_next(&kf, &rec), KAT_ERR_FORMAT);
		assert_int_equal(kf.line, bad[i].line);
		assert_true(strlen(kf.err) > 0);
		teardown(NULL);
	}
}

/* Build "Count = 1\nPT = <n bytes of hex>\n" in a heap buffer. */
static char *record_with_field(size_t n)
{
	char *text = malloc(2 * n + 64);
	size_t i;
	int len;

	assert_non_null(text);
	len = sprintf(text, "Count = 1\nPT = ");
	for (i = 0; i < n; i++) {
		len += sprintf(text + len, "%02X", (unsigned int)(i & 0xff));
	}
	sprintf(text + len, "\n\n");
	return text;
}

static void test_kat_parser_accepts_field_at_limit(void **state)
{
	char *text = record_with_field(KAT_FIELD_MAX);
	const struct kat_field *fl;

	(void)state;
	open_text(text);
	free(text);
	assert_int_equal(kat_next(&kf, &rec), 1);
	fl = kat_find(&rec, "PT");
	assert_non_null(fl);
	assert_int_equal(fl->len, KAT_FIELD_MAX);
	assert_int_equal(fl->data[KAT_FIELD_MAX - 1],
			 (KAT_FIELD_MAX - 1) & 0xff);
}

static void test_kat_parser_rejects_overlong_field(void **state)
{
	char *text = record_with_field(KAT_FIELD_MAX + 1);

	(void)state;
	open_text(text);
	free(text);
	assert_int_equal(kat_next(&kf, &rec), KAT_ERR_TOOLONG);
	assert_int_equal(kf.line, 2);
	assert_non_null(strstr(kf.err, ":2: "));
}

static void test_kat_parser_rejects_overlong_line(void **state)
{
	char *text =
		record_with_field(2 * KAT_FIELD_MAX); /* past the line buffer */

	(void)state;
	open_text(text);
	free(text);
	assert_int_equal(kat_next(&kf, &rec), KAT_ERR_TOOLONG);
	assert_int_equal(kf.line, 2);
	assert_non_null(strstr(kf.err, ":2: "));
}

static void test_kat_parser_reports_missing_file(void **state)
{
	(void)state;
	assert_int_equal(kat_open(&kf, "/nonexistent/dir/kat.txt"), KAT_ERR_IO);
	assert_non_null(strstr(kf.err, "/nonexistent/dir/kat.txt"));
	assert_int_equal(kat_next(&kf, &rec), KAT_ERR_IO);
	kat_close(&kf);
	kat_close(&kf);
}

/* A FIFO named like a KAT file (issue #33: LWC_HASH_KAT_64.txt beside an
 * implementation) is refused at once: opening it for reading used to wait
 * for a writer that never comes, with the board's lock held. */
static void test_kat_parser_refuses_a_fifo_without_blocking(void **state)
{
	char dir[] = "/tmp/hilrun-katfifo-XXXXXX";
	char fifo[64];

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(fifo, sizeof(path), "%s/LWC_HASH_KAT_64.txt", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(kat_open(&kf, fifo), KAT_ERR_IO);
	assert_non_null(strstr(kf.err, "a FIFO"));
	kat_close(&kf);
	unlink(fifo);
	rmdir(dir);
}

static void test_kat_hex_decode_limits(void **state)
{
	unsigned char out[4];
	size_t n = 99;

	(void)state;
	assert_int_equal(kat_hex_decode("", out, sizeof(out), &n), KAT_OK);
	assert_int_equal(n, 0);
	assert_int_equal(kat_hex_decode("", NULL, 0, &n), KAT_OK);
	assert_int_equal(kat_hex_decode("00", NULL, 0, &n), KAT_ERR_TOOLONG);
	assert_int_equal(kat_hex_decode("aBcD eF01", out, sizeof(out), &n),
			 KAT_OK);
	assert_int_equal(n, 4);
	assert_int_equal(out[0], 0xAB);
	assert_int_equal(out[3], 0x01);
	assert_int_equal(kat_hex_decode("0011223344", out, sizeof(out), &n),
			 KAT_ERR_TOOLONG);
	assert_int_equal(kat_hex_decode("0", out, sizeof(out), &n),
			 KAT_ERR_FORMAT);
	assert_int_equal(kat_hex_decode("0x00", out, sizeof(out), &n),
			 KAT_ERR_FORMAT);
	assert_int_equal(kat_hex_decode("-1", out, sizeof(out), &n),
			 KAT_ERR_FORMAT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_kat_parser_reads_empty_fields,
					  teardown),
		cmocka_unit_test_teardown(
			test_kat_parser_reads_hash_records_crlf_and_no_final_blank,
			teardown),
		cmocka_unit_test_teardown(
			test_kat_parser_reports_bad_hex_with_line_number,
			teardown),
		cmocka_unit_test_teardown(
			test_kat_parser_reports_odd_hex_digits, teardown),
		cmocka_unit_test_teardown(
			test_kat_parser_rejects_malformed_lines, teardown),
		cmocka_unit_test_teardown(
			test_kat_parser_accepts_field_at_limit, teardown),
		cmocka_unit_test_teardown(
			test_kat_parser_rejects_overlong_field, teardown),
		cmocka_unit_test_teardown(test_kat_parser_rejects_overlong_line,
					  teardown),
		cmocka_unit_test_teardown(test_kat_parser_reports_missing_file,
					  teardown),
		cmocka_unit_test(
			test_kat_parser_refuses_a_fifo_without_blocking),
		cmocka_unit_test(test_kat_hex_decode_limits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
