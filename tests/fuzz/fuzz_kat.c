/* fuzz_kat: the known-answer file reader (kat_open, kat_next, kat_hex_decode) on arbitrary files. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "image/kat.h"

/* Static: a record is 32 KiB, an open file 12 KiB. */
static struct kat_file kf;
static struct kat_record rec;

static int terminated(const char *s, size_t size)
{
	return memchr(s, '\0', size) != NULL;
}

/* What kat.h promises about a record it returned. */
static void check_record(const struct kat_record *r, unsigned long line)
{
	size_t i;

	FUZZ_CHECK(r->n_fields <= KAT_FIELDS_MAX);
	FUZZ_CHECK(r->line >= 1 && r->line <= line);
	for (i = 0; i < r->n_fields && i < KAT_FIELDS_MAX; i++) {
		const struct kat_field *f = &r->field[i];

		FUZZ_CHECK(terminated(f->name, sizeof(f->name)));
		FUZZ_CHECK(f->name[0] != '\0' && strcmp(f->name, "Count") != 0);
		FUZZ_CHECK(f->len <= KAT_FIELD_MAX);
		/* Names are unique in a record: the lookup finds this one. */
		FUZZ_CHECK(kat_find(r, f->name) == f);
	}
}

/* The longest line of the input in bytes, line ending excluded. */
static size_t longest_line(const uint8_t *data, size_t size)
{
	size_t i, start = 0, best = 0;

	for (i = 0; i <= size; i++) {
		if (i == size || data[i] == '\n') {
			if (i - start > best) {
				best = i - start;
			}
			start = i + 1;
		}
	}
	return best;
}

/* The hex decoder on the input as text, with exact and zero capacity. */
static void hex(const uint8_t *data, size_t size)
{
	char *text = fuzz_strdup(data, size);
	size_t cap = size / 2;
	unsigned char *out = malloc(cap > 0 ? cap : 1);
	size_t len = 12345;
	int ret;

	if (text == NULL || out == NULL) {
		goto out;
	}
	ret = kat_hex_decode(text, out, cap, &len);
	FUZZ_CHECK(ret == KAT_OK || ret == KAT_ERR_FORMAT ||
		   ret == KAT_ERR_TOOLONG);
	FUZZ_CHECK(ret == KAT_OK ? len <= cap : len == 0);
	/* cap 0 with no buffer, as the header allows. */
	ret = kat_hex_decode(text, NULL, 0, &len);
	FUZZ_CHECK(ret == KAT_OK || ret == KAT_ERR_FORMAT ||
		   ret == KAT_ERR_TOOLONG);
	FUZZ_CHECK(ret != KAT_OK || len == 0);
out:
	free(text);
	free(out);
}

int fuzz_kat_one(const uint8_t *data, size_t size)
{
	unsigned before = fuzz_failures();
	const char *path = fuzz_scratch_file(data, size);
	size_t rounds;
	int ret;

	hex(data, size);
	if (path == NULL) {
		return (int)(fuzz_failures() - before);
	}
	ret = kat_open(&kf, path);
	FUZZ_CHECK(ret == KAT_OK);
	/* Every record takes at least one line: more calls than lines plus
	 * one would mean the reader loops without progress. */
	for (rounds = 0; ret == KAT_OK; rounds++) {
		FUZZ_CHECK(rounds <= size + 1);
		if (rounds > size + 1) {
			break;
		}
		ret = kat_next(&kf, &rec);
		FUZZ_CHECK(ret == 1 || ret == 0 || ret == KAT_ERR_IO ||
			   ret == KAT_ERR_FORMAT || ret == KAT_ERR_TOOLONG);
		FUZZ_CHECK(terminated(kf.err, sizeof(kf.err)));
		if (ret == 1) {
			FUZZ_CHECK(kf.err[0] == '\0');
			check_record(&rec, kf.line);
			ret = KAT_OK;
		} else if (ret == 0) {
			FUZZ_CHECK(kf.err[0] == '\0');
			/* No NUL byte belongs in a KAT file: a file that has
			 * one is malformed, and kat.h promises that a
			 * malformed file never passes silently. */
			FUZZ_CHECK(memchr(data, 0, size) == NULL);
			FUZZ_CHECK(kat_next(&kf, &rec) ==
				   0); /* EOF stays EOF */
			break;
		} else {
			/* "path:line: message", and the same code again. */
			FUZZ_CHECK(strncmp(kf.err, path, strlen(path)) == 0);
			FUZZ_CHECK(kf.line >= 1);
			/* "line longer than" only for a line that is. */
			if (strstr(kf.err, "line longer than") != NULL) {
				FUZZ_CHECK(longest_line(data, size) >
					   KAT_LINE_MAX);
			}
			FUZZ_CHECK(kat_next(&kf, &rec) == ret);
		}
	}
	kat_close(&kf);
	kat_close(&kf); /* safe twice */
	return (int)(fuzz_failures() - before);
}

#ifdef FUZZ_LIBFUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_kat_one(data, size);
	return 0;
}
#endif
