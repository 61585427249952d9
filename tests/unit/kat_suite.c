/* kat_suite: the known-answer file reading shared by the KAT tests (see kat_suite.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "kat_suite.h"

/* Big (tens of KiB): file scope rather than the stack. */
static struct kat_record rec;

const struct kat_record *kat_suite_first(struct kat_suite_iter *it,
					 const char *file, unsigned long cap)
{
	const char *dir = getenv("HIL_KAT_DIR");
	char path[1024];

	it->n = 0;
	it->file = file;
	it->cap = cap;
	if (!dir || !*dir) {
		dir = "tests/kat";
	}
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if (kat_open(&it->f, path) != KAT_OK) {
		kat_close(&it->f);
		fail_msg("%s (run from the repository root or set HIL_KAT_DIR)",
			 it->f.err);
	}
	return kat_suite_next(it);
}

const struct kat_record *kat_suite_next(struct kat_suite_iter *it)
{
	int ret = kat_next(&it->f, &rec);

	if (ret < 0) {
		kat_close(&it->f);
		fail_msg("%s", it->f.err);
	}
	if (ret == 0) {
		kat_close(&it->f);
		return NULL;
	}
	if (it->cap != 0 && it->n == it->cap) {
		kat_close(&it->f);
		fail_msg("%s: more than %lu vectors", it->file, it->cap);
	}
	it->n++;
	return &rec;
}

const struct kat_field *kat_suite_need(const struct kat_record *r,
				       const char *name)
{
	const struct kat_field *fl = kat_find(r, name);

	if (!fl) {
		fail_msg("Count = %lu: no %s field", r->count, name);
	}
	return fl;
}

const struct kat_field *kat_suite_need_len(const struct kat_record *r,
					   const char *name, size_t len)
{
	const struct kat_field *fl = kat_suite_need(r, name);

	if (fl->len != len) {
		fail_msg("Count = %lu: %s has %zu bytes, not %zu", r->count,
			 name, fl->len, len);
	}
	return fl;
}

unsigned long kat_suite_each_md(const char *file, size_t mdlen,
				void (*check)(const struct kat_suite_md *v))
{
	struct kat_suite_iter it;
	const struct kat_record *r;
	struct kat_suite_md v;

	for (r = kat_suite_first(&it, file, 0); r != NULL;
	     r = kat_suite_next(&it)) {
		const struct kat_field *msg = kat_suite_need(r, "Msg");

		v.count = r->count;
		v.msg = msg->data;
		v.msglen = msg->len;
		v.md = kat_suite_need_len(r, "MD", mdlen)->data;
		check(&v);
	}
	return it.n;
}

int kat_suite_all_bytes(const unsigned char *p, size_t n, unsigned char b)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (p[i] != b) {
			return 0;
		}
	}
	return 1;
}
