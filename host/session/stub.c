/* target: typed commands of the stub over a session, with wire statuses turned into clear errors. */
#define _POSIX_C_SOURCE 200809L
#define HIL_LOG_PREFIX	"target"
#include "stub.h"

#include <string.h>

#include "util/err.h"
#include "util/log.h"

/* Payload room in one frame after the sequence byte and our own header. */
#define LOAD_CHUNK  (HILP_MAX_DATA - 3u)
#define FETCH_CHUNK (HILP_MAX_DATA - 3u)
/* Reads of one chunk on a damaged link before giving up on two agreeing. */
#define FETCH_READS 5u

static int check_status(uint8_t cmd, uint8_t status)
{
	if (status == HILP_ST_OK) {
		return HIL_OK;
	}
	hil_err("%s: the target answered 0x%02x: %s", hil_session_cmd_name(cmd),
		status, hil_session_status_text(status));
	return HIL_ERR_TARGET;
}

int hil_target_algs(struct hil_session *s, struct hilp_alg_info *algs,
		    size_t cap, size_t *n)
{
	const uint8_t msg[1] = {0}; /* the sequence byte alone */
	uint8_t reply[HILP_MAX_DATA];
	size_t len = 0;
	size_t count = 1;
	size_t i;
	uint8_t st;
	int ret;

	*n = 0;
	for (i = 0; i < count && i < cap; i++) {
		ret = hil_session_exchange(s, HILP_CMD_ALG, (uint8_t)i, msg,
					   sizeof(msg), reply, sizeof(reply),
					   &len, &st, 0);
		if (ret != HIL_OK) {
			return ret;
		}
		if (i == 0 && st == HILP_ST_NO_ALG) {
			return HIL_OK; /* an image without algorithms */
		}
		ret = check_status(HILP_CMD_ALG, st);
		if (ret != HIL_OK) {
			return ret;
		}
		if (hilp_alg_info_decode(reply, len, &algs[i]) != 0) {
			hil_err("ALG %zu: malformed reply", i);
			return HIL_ERR_PROTO;
		}
		count = algs[i].count;
		*n = i + 1;
	}
	return HIL_OK;
}

int hil_target_load(struct hil_session *s, uint8_t buf, const uint8_t *p,
		    size_t n)
{
	uint8_t data[HILP_MAX_DATA];
	uint8_t ack[8];
	size_t off, k;
	uint8_t st;
	int ret;

	if (n > 0xFFFFu) {
		return HIL_ERR_ARG;
	}
	for (off = 0; off < n; off += k) {
		size_t chunk = hil_session_chunk(s, LOAD_CHUNK);

		k = n - off < chunk ? n - off : chunk;
		hilp_put_u16(data, (uint16_t)off);
		memcpy(data + 2, p + off, k);
		ret = hil_session_call(s, HILP_CMD_LOAD, buf, data, k + 2, ack,
				       sizeof(ack), NULL, &st, 0);
		if (ret == HIL_ERR_TIMEOUT &&
		    hil_session_chunk(s, LOAD_CHUNK) < k) {
			/* The link got worse during this call: send less. */
			k = 0;
			continue;
		}
		if (ret == HIL_OK) {
			ret = check_status(HILP_CMD_LOAD, st);
		}
		if (ret != HIL_OK) {
			return ret;
		}
	}
	return HIL_OK;
}

/* One FETCH of k bytes at off into out. */
static int fetch_chunk(struct hil_session *s, uint8_t buf, size_t off, size_t k,
		       uint8_t *out)
{
	uint8_t reply[HILP_MAX_DATA];
	uint8_t data[3];
	size_t len = 0;
	uint8_t st;
	int ret;

	hilp_put_u16(data, (uint16_t)off);
	data[2] = (uint8_t)k;
	ret = hil_session_call(s, HILP_CMD_FETCH, buf, data, 3, reply,
			       sizeof(reply), &len, &st, 0);
	if (ret == HIL_OK) {
		ret = check_status(HILP_CMD_FETCH, st);
	}
	if (ret != HIL_OK) {
		return ret;
	}
	if (len != k + 1) {
		hil_err("FETCH: asked for %zu bytes at %zu, got %zu", k, off,
			len > 0 ? len - 1 : 0);
		return HIL_ERR_PROTO;
	}
	memcpy(out, reply + 1, k);
	return HIL_OK;
}

/*
 * One chunk, read until two reads agree once the link has damaged frames:
 * a damaged reply may still pass the CRC-16 (about one in 65536 when the
 * damage is wider than 16 bits), and a damaged request may draw
 * a wrong answer or a refusal, so no single read is taken for a measured
 * sample or output. On a clean link the first answer stands.
 */
static int fetch_agreed(struct hil_session *s, uint8_t buf, size_t off,
			size_t k, uint8_t *out)
{
	uint8_t again[HILP_MAX_DATA];
	unsigned reads;
	int have = 0; /* out holds a read */
	int ret = HIL_OK;

	for (reads = 0; reads < FETCH_READS; reads++) {
		ret = fetch_chunk(s, buf, off, k, have ? again : out);
		if (ret == HIL_ERR_TIMEOUT || ret == HIL_ERR_IO ||
		    !hil_session_damaged(s)) {
			return ret;
		}
		if (ret != HIL_OK) {
			continue; /* possibly the link's doing: ask again */
		}
		if (have && memcmp(again, out, k) == 0) {
			return HIL_OK;
		}
		if (have) {
			memcpy(out, again, k);
		}
		have = 1;
	}
	hil_err("FETCH: %zu bytes at %zu: no two of %u reads agree", k, off,
		FETCH_READS);
	return ret != HIL_OK ? ret : HIL_ERR_PROTO;
}

int hil_target_fetch(struct hil_session *s, uint8_t buf, uint8_t *p, size_t n)
{
	size_t off, k;
	int ret;

	for (off = 0; off < n; off += k) {
		size_t chunk = hil_session_chunk(s, FETCH_CHUNK);

		k = n - off < chunk ? n - off : chunk;
		if (off > 0xFFFFu) {
			return HIL_ERR_ARG;
		}
		ret = fetch_agreed(s, buf, off, k, p + off);
		if (ret == HIL_ERR_TIMEOUT &&
		    hil_session_chunk(s, FETCH_CHUNK) < k) {
			/* The link got worse during this call: ask for less. */
			k = 0;
			continue;
		}
		if (ret != HIL_OK) {
			return ret;
		}
	}
	return HIL_OK;
}

/*
 * The EXEC request req (loaded or generated) and its reply into rep;
 * *rejected set (and rep zero) when the implementation refused (0x14).
 */
static int exec_call(struct hil_session *s, uint8_t op,
		     const struct hilp_exec_req *req, struct hilp_exec_rep *rep,
		     int *rejected)
{
	uint8_t data[HILP_MAX_DATA];
	uint8_t reply[HILP_MAX_DATA];
	size_t len = 0;
	size_t n;
	uint8_t st;
	int ret;

	*rejected = 0;
	memset(rep, 0, sizeof(*rep));
	n = hilp_exec_req_encode(0, req, data);
	ret = hil_session_exchange(s, HILP_CMD_EXEC, op, data, n, reply,
				   sizeof(reply), &len, &st, 0);
	if (ret != HIL_OK) {
		return ret;
	}
	if (st == HILP_ST_CRYPTO_FAIL) {
		*rejected = 1;
		return HIL_OK;
	}
	ret = check_status(HILP_CMD_EXEC, st);
	if (ret != HIL_OK) {
		return ret;
	}
	if (hilp_exec_rep_decode(reply, len, rep) != 0) {
		hil_err("EXEC: malformed reply");
		return HIL_ERR_PROTO;
	}
	return HIL_OK;
}

int hil_target_exec(struct hil_session *s, uint8_t alg, uint8_t op,
		    const uint8_t *key, size_t keylen, const uint8_t *npub,
		    size_t npublen, const uint8_t *ad, size_t adlen,
		    const uint8_t *msg, size_t msglen, size_t xof_len,
		    uint8_t *out, size_t cap, size_t *out_len, int *rejected)
{
	uint32_t count;

	return hil_target_exec_counted(s, alg, op, key, keylen, npub, npublen,
				       ad, adlen, msg, msglen, xof_len, out,
				       cap, out_len, rejected, &count);
}

int hil_target_exec_counted(struct hil_session *s, uint8_t alg, uint8_t op,
			    const uint8_t *key, size_t keylen,
			    const uint8_t *npub, size_t npublen,
			    const uint8_t *ad, size_t adlen, const uint8_t *msg,
			    size_t msglen, size_t xof_len, uint8_t *out,
			    size_t cap, size_t *out_len, int *rejected,
			    uint32_t *count)
{
	struct hilp_exec_req req;
	struct hilp_exec_rep rep;
	int ret;

	*out_len = 0;
	*rejected = 0;
	*count = 0;
	if (msglen > 0xFFFFu || adlen > 0xFFFFu || xof_len > 0xFFFFu) {
		hil_err("EXEC: message, associated data or output longer than 65535 bytes");
		return HIL_ERR_ARG;
	}
	ret = hil_target_load(s, HILP_BUF_KEY, key, keylen);
	if (ret == HIL_OK) {
		ret = hil_target_load(s, HILP_BUF_NONCE, npub, npublen);
	}
	if (ret == HIL_OK) {
		ret = hil_target_load(s, HILP_BUF_AD, ad, adlen);
	}
	if (ret == HIL_OK) {
		ret = hil_target_load(s, HILP_BUF_MSG, msg, msglen);
	}
	if (ret != HIL_OK) {
		return ret;
	}
	memset(&req, 0, sizeof(req)); /* on the buffers as loaded */
	req.alg = alg;
	req.msg_len = (uint16_t)msglen;
	req.ad_len = (uint16_t)adlen;
	req.out_len = (uint16_t)xof_len;
	ret = exec_call(s, op, &req, &rep, rejected);
	if (ret != HIL_OK || *rejected) {
		return ret;
	}
	if (rep.out_len > cap) {
		hil_err("EXEC: output of %u bytes exceeds %zu", rep.out_len,
			cap);
		return HIL_ERR_PROTO;
	}
	*out_len = rep.out_len;
	*count = rep.count;
	return hil_target_fetch(s, HILP_BUF_OUT, out, rep.out_len);
}

/* A BENCH, ordinary or (leak) in leak mode, and its samples. */
static int bench(struct hil_session *s, uint8_t op,
		 const struct hilp_bench_req *req, int leak,
		 struct hilp_bench_rep *rep, uint32_t *samples,
		 unsigned timeout_ms)
{
	uint8_t data[HILP_MAX_DATA];
	uint8_t reply[HILP_MAX_DATA];
	uint8_t *raw;
	size_t len = 0;
	size_t n;
	size_t i;
	uint8_t st;
	int ret;

	n = leak ? hilp_bench_leak_req_encode(0, req, data)
		 : hilp_bench_req_encode(0, req, data);
	/* Never resent while it may still be running: see the header. */
	ret = hil_session_exchange_long(s, HILP_CMD_BENCH, op, data, n, reply,
					sizeof(reply), &len, &st, timeout_ms);
	if (ret != HIL_OK) {
		return ret;
	}
	ret = check_status(HILP_CMD_BENCH, st);
	if (ret != HIL_OK) {
		return ret;
	}
	if (hilp_bench_rep_decode(reply, len, rep) != 0 ||
	    rep->runs != req->runs) {
		hil_err("BENCH: malformed reply");
		return HIL_ERR_PROTO;
	}
	if (rep->min == rep->max) {
		/* Every run counted the same (a deterministic emulator):
		 * nothing to fetch. In leak mode min and max leave out the
		 * class bit, which the caller replays. */
		for (i = 0; i < req->runs; i++) {
			samples[i] = rep->min;
		}
		return HIL_OK;
	}
	/* Samples are little-endian u32 in the target's buffer. */
	raw = (uint8_t *)samples;
	ret = hil_target_fetch(s, HILP_BUF_SAMPLES, raw, (size_t)req->runs * 4);
	if (ret != HIL_OK) {
		return ret;
	}
	for (i = req->runs; i-- > 0;) {
		samples[i] = hilp_get_u32(raw + 4 * i);
	}
	return HIL_OK;
}

int hil_target_bench(struct hil_session *s, uint8_t op,
		     const struct hilp_bench_req *req,
		     struct hilp_bench_rep *rep, uint32_t *samples,
		     unsigned timeout_ms)
{
	return bench(s, op, req, 0, rep, samples, timeout_ms);
}

int hil_target_bench_leak(struct hil_session *s, uint8_t op,
			  const struct hilp_bench_req *req,
			  struct hilp_bench_rep *rep, uint32_t *samples,
			  unsigned timeout_ms)
{
	if (req->leak_seed == 0) {
		hil_err("BENCH: a leak test needs a non-zero leak seed");
		return HIL_ERR_ARG;
	}
	return bench(s, op, req, 1, rep, samples, timeout_ms);
}

int hil_target_energy(struct hil_session *s, uint8_t op,
		      const struct hilp_energy_req *req,
		      struct hilp_energy_rep *rep, unsigned timeout_ms)
{
	uint8_t data[HILP_MAX_DATA];
	uint8_t reply[HILP_MAX_DATA];
	size_t len = 0;
	size_t n;
	uint8_t st;
	int ret;

	n = hilp_energy_req_encode(0, req, data);
	ret = hil_session_exchange(s, HILP_CMD_ENERGY, op, data, n, reply,
				   sizeof(reply), &len, &st, timeout_ms);
	if (ret != HIL_OK) {
		return ret;
	}
	ret = check_status(HILP_CMD_ENERGY, st);
	if (ret != HIL_OK) {
		return ret;
	}
	if (hilp_energy_rep_decode(reply, len, rep) != 0 ||
	    rep->count != req->count) {
		hil_err("ENERGY: malformed reply");
		return HIL_ERR_PROTO;
	}
	return HIL_OK;
}

int hil_target_exec_gen(struct hil_session *s, uint8_t alg, uint8_t op,
			uint32_t seed, uint8_t flags, size_t msg_len,
			size_t ad_len, size_t xof_len,
			struct hilp_exec_rep *rep, int *rejected)
{
	struct hilp_exec_req req;

	*rejected = 0;
	memset(rep, 0, sizeof(*rep));
	if (msg_len > 0xFFFFu || ad_len > 0xFFFFu || xof_len > 0xFFFFu) {
		hil_err("EXEC: message, associated data or output longer than 65535 bytes");
		return HIL_ERR_ARG;
	}
	memset(&req, 0, sizeof(req));
	req.alg = alg;
	req.msg_len = (uint16_t)msg_len;
	req.ad_len = (uint16_t)ad_len;
	req.out_len = (uint16_t)xof_len;
	req.gen = 1;
	req.seed = seed;
	req.flags = flags;
	return exec_call(s, op, &req, rep, rejected);
}
