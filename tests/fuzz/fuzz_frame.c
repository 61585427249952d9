/* fuzz_frame: the wire codec (receive buffer, COBS, request and reply frames, payloads) on arbitrary bytes. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "hilp.h"

/* Longest input used for the COBS round trip: several 254-byte blocks. */
#define COBS_TRIP_MAX 1024u

/* An exact-size copy, so that AddressSanitizer sees any read past n. */
static uint8_t *exact(const uint8_t *p, size_t n)
{
	uint8_t *c = malloc(n > 0 ? n : 1);

	if (c != NULL && n > 0) {
		memcpy(c, p, n);
	}
	return c;
}

static int same_info(const struct hilp_info *a, const struct hilp_info *b)
{
	return a->protocol == b->protocol && a->flags == b->flags &&
	       a->counter_unit == b->counter_unit &&
	       a->build_id_len == b->build_id_len &&
	       a->clock_hz == b->clock_hz && a->counter_hz == b->counter_hz &&
	       a->flash_acr == b->flash_acr && a->overhead == b->overhead &&
	       a->max_msg == b->max_msg && a->max_ad == b->max_ad &&
	       a->max_runs == b->max_runs &&
	       memcmp(a->build_id, b->build_id, a->build_id_len) == 0 &&
	       memcmp(a->uid, b->uid, sizeof(a->uid)) == 0 &&
	       strcmp(a->board, b->board) == 0;
}

static int same_alg(const struct hilp_alg_info *a,
		    const struct hilp_alg_info *b)
{
	return a->count == b->count && a->index == b->index &&
	       a->kind == b->kind && a->keybytes == b->keybytes &&
	       a->npubbytes == b->npubbytes && a->abytes == b->abytes &&
	       a->blockbytes == b->blockbytes &&
	       strcmp(a->name, b->name) == 0 && strcmp(a->impl, b->impl) == 0;
}

/* A string the decoder accepted must be terminated inside its field. */
static int terminated(const char *s, size_t max)
{
	return memchr(s, '\0', max) != NULL;
}

/*
 * Every payload decoder on data[0..n). What one accepts must survive
 * encode then decode unchanged, and the encoding must fit a frame.
 */
static void payloads(const uint8_t *data, size_t n)
{
	uint8_t *p = exact(data, n);
	uint8_t enc[HILP_MAX_DATA];
	struct hilp_info info, info2;
	struct hilp_alg_info alg, alg2;
	struct hilp_exec_req xq, xq2;
	struct hilp_exec_rep xp, xp2;
	struct hilp_bench_req bq, bq2;
	struct hilp_bench_rep bp, bp2;
	struct hilp_energy_req eq, eq2;
	struct hilp_energy_rep ep, ep2;
	struct hilp_pq_rec pr, pr2;
	uint16_t runs = 0, runs2 = 0;
	size_t len;

	if (p == NULL) {
		return;
	}
	memset(&info, 0, sizeof(info));
	memset(&info2, 0, sizeof(info2));
	if (hilp_info_decode(p, n, &info) == 0) {
		FUZZ_CHECK(info.build_id_len <= HILP_BUILD_ID_MAX);
		FUZZ_CHECK(terminated(info.board, sizeof(info.board)));
		len = hilp_info_encode(p[0], &info, enc);
		FUZZ_CHECK(len <= HILP_MAX_DATA);
		FUZZ_CHECK(hilp_info_decode(enc, len, &info2) == 0);
		FUZZ_CHECK(same_info(&info, &info2));
	}
	memset(&alg, 0, sizeof(alg));
	memset(&alg2, 0, sizeof(alg2));
	if (hilp_alg_info_decode(p, n, &alg) == 0) {
		FUZZ_CHECK(terminated(alg.name, sizeof(alg.name)));
		FUZZ_CHECK(terminated(alg.impl, sizeof(alg.impl)));
		len = hilp_alg_info_encode(p[0], &alg, enc);
		FUZZ_CHECK(len <= HILP_MAX_DATA);
		FUZZ_CHECK(hilp_alg_info_decode(enc, len, &alg2) == 0);
		FUZZ_CHECK(same_alg(&alg, &alg2));
	}
	if (hilp_exec_req_decode(p, n, &xq) == 0) {
		len = hilp_exec_req_encode(p[0], &xq, enc);
		FUZZ_CHECK(len == n && memcmp(enc, p, n) == 0);
		FUZZ_CHECK(hilp_exec_req_decode(enc, len, &xq2) == 0);
	}
	if (hilp_exec_rep_decode(p, n, &xp) == 0) {
		len = hilp_exec_rep_encode(p[0], &xp, enc);
		FUZZ_CHECK(len == n && memcmp(enc, p, n) == 0);
		FUZZ_CHECK(hilp_exec_rep_decode(enc, len, &xp2) == 0);
	}
	if (hilp_bench_req_decode(p, n, &bq) == 0) {
		/* Two layouts: the 20-byte one adds the leak seed. */
		len = n == HILP_BENCH_LEAK_REQ_LEN
			      ? hilp_bench_leak_req_encode(p[0], &bq, enc)
			      : hilp_bench_req_encode(p[0], &bq, enc);
		FUZZ_CHECK(len == n && memcmp(enc, p, n) == 0);
		FUZZ_CHECK(hilp_bench_req_decode(enc, len, &bq2) == 0);
	}
	if (hilp_bench_rep_decode(p, n, &bp) == 0) {
		len = hilp_bench_rep_encode(p[0], &bp, enc);
		FUZZ_CHECK(len == n && memcmp(enc, p, n) == 0);
		FUZZ_CHECK(hilp_bench_rep_decode(enc, len, &bp2) == 0);
	}
	if (hilp_energy_req_decode(p, n, &eq) == 0) {
		len = hilp_energy_req_encode(p[0], &eq, enc);
		FUZZ_CHECK(len == n && memcmp(enc, p, n) == 0);
		FUZZ_CHECK(hilp_energy_req_decode(enc, len, &eq2) == 0);
	}
	if (hilp_energy_rep_decode(p, n, &ep) == 0) {
		len = hilp_energy_rep_encode(p[0], &ep, enc);
		FUZZ_CHECK(len == n && memcmp(enc, p, n) == 0);
		FUZZ_CHECK(hilp_energy_rep_decode(enc, len, &ep2) == 0);
	}
	if (hilp_pq_rec_decode(p, n, &pr) == 0) {
		len = hilp_pq_rec_encode(p[0], &pr, enc);
		FUZZ_CHECK(len == n && memcmp(enc, p, n) == 0);
		FUZZ_CHECK(hilp_pq_rec_decode(enc, len, &pr2) == 0);
	}
	if (hilp_pq_req_decode(p, n, &runs) == HILP_ST_OK) {
		FUZZ_CHECK(runs >= 1 && runs <= HILP_PQ_MAX_RUNS);
		len = hilp_pq_req_encode(p[0], runs, enc);
		FUZZ_CHECK(len == n && memcmp(enc, p, n) == 0);
		FUZZ_CHECK(hilp_pq_req_decode(enc, len, &runs2) == HILP_ST_OK &&
			   runs2 == runs);
	}
	free(p);
}

/* A frame body (no delimiter) from the encoder: no zero byte inside. */
static int clean_body(const uint8_t *f, size_t n)
{
	return memchr(f, 0, n) == NULL;
}

/*
 * One frame body, decoded as a request and as a reply. What decodes must
 * encode back to the very same bytes (COBS up to 253 bytes is canonical),
 * and its payload goes through every payload decoder.
 */
static void frame(const uint8_t *body, size_t n)
{
	uint8_t *f = exact(body, n);
	uint8_t out[HILP_MAX_FRAME];
	struct hilp_packet pkt, again;
	size_t len;
	uint8_t st;

	if (f == NULL) {
		return;
	}
	st = hilp_decode_request(f, n, &pkt);
	FUZZ_CHECK(st == HILP_ST_OK || st == HILP_ST_BAD_LEN ||
		   st == HILP_ST_BAD_CRC);
	if (st == HILP_ST_OK) {
		FUZZ_CHECK(pkt.dlen <= HILP_MAX_DATA);
		len = hilp_encode_request(pkt.cmd, pkt.scmd, pkt.data, pkt.dlen,
					  out);
		FUZZ_CHECK(len >= 1 && len <= HILP_MAX_FRAME);
		FUZZ_CHECK(out[len - 1] == 0 && clean_body(out, len - 1));
		FUZZ_CHECK(len - 1 == n && memcmp(out, f, n) == 0);
		FUZZ_CHECK(hilp_decode_request(out, len - 1, &again) ==
			   HILP_ST_OK);
		payloads(pkt.data, pkt.dlen);
	}
	st = hilp_decode_reply(f, n, &pkt);
	FUZZ_CHECK(st == HILP_ST_OK || st == HILP_ST_BAD_LEN ||
		   st == HILP_ST_BAD_CRC);
	if (st == HILP_ST_OK) {
		FUZZ_CHECK(pkt.dlen <= HILP_MAX_DATA && pkt.scmd == 0);
		len = hilp_encode_reply(pkt.cmd, pkt.data, pkt.dlen, out);
		FUZZ_CHECK(len >= 1 && len <= HILP_MAX_FRAME);
		FUZZ_CHECK(out[len - 1] == 0 && clean_body(out, len - 1));
		FUZZ_CHECK(len - 1 == n && memcmp(out, f, n) == 0);
		FUZZ_CHECK(hilp_decode_reply(out, len - 1, &again) ==
			   HILP_ST_OK);
		payloads(pkt.data, pkt.dlen);
	}
	free(f);
}

/* COBS: encode then decode gives the input back, within the stated bound. */
static void cobs_trip(const uint8_t *data, size_t size)
{
	size_t n = size < COBS_TRIP_MAX ? size : COBS_TRIP_MAX;
	uint8_t *in = exact(data, n);
	uint8_t *enc = malloc(HILP_COBS_MAX(n));
	uint8_t *dec = malloc(n > 0 ? n : 1);
	size_t len;
	int r;

	if (in == NULL || enc == NULL || dec == NULL) {
		goto out;
	}
	len = hilp_cobs_encode(in, n, enc);
	FUZZ_CHECK(len >= 1 && len <= HILP_COBS_MAX(n));
	FUZZ_CHECK(clean_body(enc, len));
	r = hilp_cobs_decode(enc, len, dec, n);
	FUZZ_CHECK(r >= 0 && (size_t)r == n && memcmp(dec, in, n) == 0);
	if (n > 0) {
		/* One byte short: refused, never written past. */
		FUZZ_CHECK(hilp_cobs_decode(enc, len, dec, n - 1) == -1);
	}
	/* The input as an encoded block: the output never exceeds cap. */
	r = hilp_cobs_decode(in, n, dec, n);
	FUZZ_CHECK(r == -1 || (r >= 0 && (size_t)r <= n));
	if (memchr(in, 0, n) != NULL) {
		FUZZ_CHECK(r == -1);
	}
out:
	free(in);
	free(enc);
	free(dec);
}

/* Arbitrary header and data through both encoders and back. */
static void encode_trip(const uint8_t *data, size_t size)
{
	uint8_t out[HILP_MAX_FRAME];
	struct hilp_packet pkt;
	size_t dlen, len;

	if (size < 2) {
		return;
	}
	dlen = size - 2;
	len = hilp_encode_request(data[0], data[1], data + 2, dlen, out);
	if (dlen > HILP_MAX_DATA) {
		FUZZ_CHECK(len == 0);
	} else {
		FUZZ_CHECK(len >= 1 && len <= HILP_MAX_FRAME);
		FUZZ_CHECK(out[len - 1] == 0 && clean_body(out, len - 1));
		FUZZ_CHECK(hilp_decode_request(out, len - 1, &pkt) ==
			   HILP_ST_OK);
		FUZZ_CHECK(pkt.cmd == data[0] && pkt.scmd == data[1] &&
			   pkt.dlen == dlen &&
			   memcmp(pkt.data, data + 2, dlen) == 0);
	}
	dlen = size - 1;
	len = hilp_encode_reply(data[0], data + 1, dlen, out);
	if (dlen > HILP_MAX_DATA) {
		FUZZ_CHECK(len == 0);
	} else {
		FUZZ_CHECK(len >= 1 && len <= HILP_MAX_FRAME);
		FUZZ_CHECK(out[len - 1] == 0 && clean_body(out, len - 1));
		FUZZ_CHECK(hilp_decode_reply(out, len - 1, &pkt) == HILP_ST_OK);
		FUZZ_CHECK(pkt.cmd == data[0] && pkt.dlen == dlen &&
			   memcmp(pkt.data, data + 1, dlen) == 0);
	}
}

int fuzz_frame_one(const uint8_t *data, size_t size)
{
	unsigned before = fuzz_failures();
	static struct hilp_rx rx;
	size_t i;
	int r;

	/* The receive path: bytes in, frames out at each 0x00. */
	hilp_rx_init(&rx);
	for (i = 0; i < size; i++) {
		r = hilp_rx_push(&rx, data[i]);
		FUZZ_CHECK(r >= -1 && r <= 1);
		FUZZ_CHECK(rx.len <= sizeof(rx.buf));
		if (r == 1) {
			FUZZ_CHECK(data[i] == 0 && !rx.overflow);
			frame(rx.buf, rx.len);
			hilp_rx_init(&rx);
		}
		if (r == -1) {
			FUZZ_CHECK(data[i] == 0 && rx.len == 0);
		}
	}
	/* The whole input as one frame body, and as raw payload. */
	frame(data, size);
	payloads(data, size);
	cobs_trip(data, size);
	encode_trip(data, size);
	return (int)(fuzz_failures() - before);
}

#ifdef FUZZ_LIBFUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_frame_one(data, size);
	return 0;
}
#endif
