/* Unit tests of the checks hilrun pq makes of a board's PQRUN records (run/pqlink.c): the order HEAD, CALLs, END, the image's kind, the records' version, and what stays when one is refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "hilp.h"
#include "run/pqlink.h"
#include "util/err.h"

/* One record as the stub sends it, added to st. */
static int add(struct hil_pq_stream *st, const struct hilp_pq_rec *r)
{
	uint8_t d[HILP_MAX_DATA];
	size_t n = hilp_pq_rec_encode(7, r, d);

	assert_true(n > 0);
	return hil_pq_stream_add(st, d, n);
}

static struct hilp_pq_rec head(uint8_t kind, uint16_t runs)
{
	struct hilp_pq_rec r;

	memset(&r, 0, sizeof(r));
	r.type = HILP_PQ_HEAD;
	r.version = HILP_PQ_VERSION;
	r.kind = kind;
	r.runs = runs;
	r.overhead = 7;
	r.stack_size = 8192;
	return r;
}

static struct hilp_pq_rec call(uint8_t op, uint16_t run)
{
	struct hilp_pq_rec r;

	memset(&r, 0, sizeof(r));
	r.type = HILP_PQ_CALL;
	r.op = op;
	r.run = run;
	r.ticks = 1000u + op;
	r.digest = 0xABCD0000u | op;
	return r;
}

static void test_a_whole_run_is_taken_in_order(void **state)
{
	struct hil_pq_stream st;
	struct hilp_pq_rec h = head(HILP_PQ_KEM, 2), e;
	unsigned i;

	(void)state;
	memset(&st, 0, sizeof(st));
	st.kind = "KEM";
	assert_int_equal(add(&st, &h), HIL_OK);
	for (i = 0; i < 6; i++) {
		struct hilp_pq_rec c =
			call((uint8_t)(i % 3), (uint16_t)(i / 3));

		assert_int_equal(add(&st, &c), HIL_OK);
	}
	memset(&e, 0, sizeof(e));
	e.type = HILP_PQ_END;
	e.calls = 6;
	assert_int_equal(add(&st, &e), HIL_OK);
	assert_true(st.have_head);
	assert_true(st.have_end);
	assert_int_equal(st.n, 6);
	assert_int_equal(st.calls[5].op, HILP_PQ_OP_THIRD);
	assert_int_equal(st.calls[5].run, 1);
	assert_int_equal(st.calls[4].ticks, 1001);
	/* Nothing after the END. */
	assert_int_equal(add(&st, &e), HIL_ERR_PROTO);
	assert_non_null(strstr(st.why, "after the END"));
	hil_pq_stream_free(&st);
}

static void test_a_call_out_of_order_is_refused_and_the_rest_kept(void **state)
{
	struct hil_pq_stream st;
	struct hilp_pq_rec h = head(HILP_PQ_SIGN, 2);
	struct hilp_pq_rec c0 = call(0, 0), c2 = call(2, 0);

	(void)state;
	memset(&st, 0, sizeof(st));
	st.kind = "SIGN";
	assert_int_equal(add(&st, &h), HIL_OK);
	assert_int_equal(add(&st, &c0), HIL_OK);
	/* The sign of run 0 was lost: verify comes second. */
	assert_int_equal(add(&st, &c2), HIL_ERR_PROTO);
	assert_non_null(strstr(st.why, "call 2 out of order"));
	assert_int_equal(st.n, 1); /* the keypair stands */
	hil_pq_stream_free(&st);
}

static void test_a_call_before_the_head_is_refused(void **state)
{
	struct hil_pq_stream st;
	struct hilp_pq_rec c0 = call(0, 0);

	(void)state;
	memset(&st, 0, sizeof(st));
	st.kind = "KEM";
	assert_int_equal(add(&st, &c0), HIL_ERR_PROTO);
	assert_non_null(strstr(st.why, "before the HEAD"));
	hil_pq_stream_free(&st);
}

static void test_a_head_of_another_kind_is_refused(void **state)
{
	struct hil_pq_stream st;
	struct hilp_pq_rec h = head(HILP_PQ_SIGN, 1);

	(void)state;
	memset(&st, 0, sizeof(st));
	st.kind = "KEM"; /* the image built was a KEM's */
	assert_int_equal(add(&st, &h), HIL_ERR_PROTO);
	assert_non_null(strstr(st.why, "not this image's"));
	hil_pq_stream_free(&st);
}

static void test_another_version_of_the_records_says_rebuild(void **state)
{
	struct hil_pq_stream st;
	struct hilp_pq_rec h = head(HILP_PQ_KEM, 1);
	uint8_t d[HILP_MAX_DATA];
	size_t n;

	(void)state;
	memset(&st, 0, sizeof(st));
	st.kind = "KEM";
	n = hilp_pq_rec_encode(7, &h, d);
	d[3] = HILP_PQ_VERSION + 1;
	assert_int_equal(hil_pq_stream_add(&st, d, n), HIL_ERR_PROTO);
	assert_non_null(strstr(st.why, "rebuild the image"));
	/* An image of version 1, its runs compiled in. */
	d[3] = 1;
	assert_int_equal(hil_pq_stream_add(&st, d, n), HIL_ERR_PROTO);
	assert_non_null(strstr(st.why, "PQRUN version 1 (its runs compiled "
				       "in), this hilrun version 2"));
	assert_non_null(strstr(st.why, "rebuild the image"));
	/* A short record. */
	d[3] = HILP_PQ_VERSION;
	assert_int_equal(hil_pq_stream_add(&st, d, n - 1), HIL_ERR_PROTO);
	assert_non_null(strstr(st.why, "malformed"));
	hil_pq_stream_free(&st);
}

/* The HEAD says the runs PQRUN asked for, or it is not this request's. */
static void test_a_head_of_other_runs_than_asked_is_refused(void **state)
{
	struct hil_pq_stream st;
	struct hilp_pq_rec h = head(HILP_PQ_KEM, 3);

	(void)state;
	memset(&st, 0, sizeof(st));
	st.kind = "KEM";
	st.runs = 2;
	assert_int_equal(add(&st, &h), HIL_ERR_PROTO);
	assert_non_null(strstr(st.why, "3 runs of the 2 asked"));
	hil_pq_stream_free(&st);
	memset(&st, 0, sizeof(st));
	st.kind = "KEM";
	st.runs = 3;
	assert_int_equal(add(&st, &h), HIL_OK);
	hil_pq_stream_free(&st);
}

static void test_an_end_that_miscounts_is_refused(void **state)
{
	struct hil_pq_stream st;
	struct hilp_pq_rec h = head(HILP_PQ_KEM, 1), c0 = call(0, 0), e;

	(void)state;
	memset(&st, 0, sizeof(st));
	st.kind = "KEM";
	assert_int_equal(add(&st, &h), HIL_OK);
	assert_int_equal(add(&st, &c0), HIL_OK);
	memset(&e, 0, sizeof(e));
	e.type = HILP_PQ_END;
	e.calls = 1;
	assert_int_equal(add(&st, &e), HIL_ERR_PROTO);
	assert_non_null(strstr(st.why, "1 came of 3"));
	assert_false(st.have_end);
	hil_pq_stream_free(&st);
}

static void test_a_fault_is_recorded(void **state)
{
	struct hil_pq_stream st;
	struct hilp_pq_rec h = head(HILP_PQ_KEM, 1), f;

	(void)state;
	memset(&st, 0, sizeof(st));
	st.kind = "KEM";
	assert_int_equal(add(&st, &h), HIL_OK);
	memset(&f, 0, sizeof(f));
	f.type = HILP_PQ_FAULT;
	f.stack_out = 1;
	assert_int_equal(add(&st, &f), HIL_OK);
	assert_true(st.have_fault);
	assert_int_equal(st.fault.stack_out, 1);
	hil_pq_stream_free(&st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_whole_run_is_taken_in_order),
		cmocka_unit_test(
			test_a_call_out_of_order_is_refused_and_the_rest_kept),
		cmocka_unit_test(test_a_call_before_the_head_is_refused),
		cmocka_unit_test(test_a_head_of_another_kind_is_refused),
		cmocka_unit_test(
			test_another_version_of_the_records_says_rebuild),
		cmocka_unit_test(
			test_a_head_of_other_runs_than_asked_is_refused),
		cmocka_unit_test(test_an_end_that_miscounts_is_refused),
		cmocka_unit_test(test_a_fault_is_recorded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
