/* hilp: frame codec and payload layouts of the hilrun protocol (host and target). */
#include "hilp.h"

/*
 * On a little-endian machine the wire order is the memory order: one
 * (unaligned) load or store each, which the Cortex-M4 does in hardware,
 * instead of byte shuffling and a call per field in the stub.
 */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define HILP_LE 1
#else
#define HILP_LE 0
#endif

void hilp_put_u16(uint8_t *p, uint16_t v)
{
#if HILP_LE
	__builtin_memcpy(p, &v, 2);
#else
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
#endif
}

void hilp_put_u32(uint8_t *p, uint32_t v)
{
#if HILP_LE
	__builtin_memcpy(p, &v, 4);
#else
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
#endif
}

uint16_t hilp_get_u16(const uint8_t *p)
{
#if HILP_LE
	uint16_t v;

	__builtin_memcpy(&v, p, 2);
	return v;
#else
	return (uint16_t)(p[0] | (uint16_t)p[1] << 8);
#endif
}

uint32_t hilp_get_u32(const uint8_t *p)
{
#if HILP_LE
	uint32_t v;

	__builtin_memcpy(&v, p, 4);
	return v;
#else
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
#endif
}

/*
 * A byte at a time without a table: 512 bytes of flash matter more on the
 * stub than a few cycles per byte, and this is half the code of the
 * bit-by-bit loop. The byte meets the register's top 8 bits, t; t x^16
 * mod P, with P = x^16 + x^12 + x^5 + 1, is t (x^12 + x^5 + 1), except that
 * the top 4 bits of t x^12 pass x^16 again and must be reduced once more:
 * u = t ^ (t >> 4) folds them in (u x^12 now ends below x^16 after the
 * mask). The unit test checks it against the specified check value.
 */
uint16_t hilp_crc16(const uint8_t *p, size_t n)
{
	uint32_t crc = 0xFFFFu;
	size_t i;

	for (i = 0; i < n; i++) {
		uint32_t u = (crc >> 8) ^ p[i];

		u ^= u >> 4;
		crc = ((crc << 8) ^ (u << 12) ^ (u << 5) ^ u) & 0xFFFFu;
	}
	return (uint16_t)crc;
}

size_t hilp_cobs_encode(const uint8_t *in, size_t n, uint8_t *out)
{
	size_t code_at = 0; /* where the current block's code byte goes */
	size_t o = 1;
	uint8_t code = 1;
	size_t i;

	for (i = 0; i < n; i++) {
		if (in[i] == 0) {
			out[code_at] = code;
			code_at = o++;
			code = 1;
			continue;
		}
		out[o++] = in[i];
		code++;
		/* A full block of 254 non-zero bytes ends without an implied zero;
		 * only open a new block if more input follows. */
		if (code == 0xFFu && i + 1 < n) {
			out[code_at] = code;
			code_at = o++;
			code = 1;
		}
	}
	out[code_at] = code;
	return o;
}

int hilp_cobs_decode(const uint8_t *in, size_t n, uint8_t *out, size_t cap)
{
	size_t i = 0;
	size_t o = 0;

	while (i < n) {
		uint8_t code = in[i];
		size_t end = i + code; /* where the next code byte is */

		if (code == 0) {
			return -1;
		}
		for (i++; i < end; i++) {
			if (i >= n || in[i] == 0 || o >= cap) {
				return -1;
			}
			out[o++] = in[i];
		}
		/* The zero implied by a block shorter than 254 bytes, except at
		 * the very end of the frame. */
		if (code != 0xFFu && i < n) {
			if (o >= cap) {
				return -1;
			}
			out[o++] = 0;
		}
	}
	return (int)o;
}

static size_t frame_raw(uint8_t *raw, size_t hdr, const uint8_t *data,
			size_t dlen, uint8_t *frame)
{
	size_t i;
	size_t n;
	uint16_t crc;

	for (i = 0; i < dlen; i++) {
		raw[hdr + i] = data[i];
	}
	crc = hilp_crc16(raw, hdr + dlen);
	/* Big-endian, unlike the payload's integers: so that the CRC over
	 * the packet and its CRC comes out 0 (decode_packet). */
	hilp_put_u16(raw + hdr + dlen, (uint16_t)(crc << 8 | crc >> 8));
	n = hilp_cobs_encode(raw, hdr + dlen + HILP_CRC_LEN, frame);
	frame[n] = 0;
	return n + 1;
}

size_t hilp_encode_request(uint8_t cmd, uint8_t scmd, const uint8_t *data,
			   size_t dlen, uint8_t *frame)
{
	uint8_t raw[HILP_MAX_RAW];

	if (dlen > HILP_MAX_DATA) {
		return 0;
	}
	raw[0] = cmd;
	raw[1] = scmd;
	raw[2] = (uint8_t)dlen;
	return frame_raw(raw, HILP_REQ_HDR, data, dlen, frame);
}

size_t hilp_encode_reply(uint8_t cmd, const uint8_t *data, size_t dlen,
			 uint8_t *frame)
{
	uint8_t raw[HILP_MAX_RAW];

	if (dlen > HILP_MAX_DATA) {
		return 0;
	}
	raw[0] = cmd;
	raw[1] = (uint8_t)dlen;
	return frame_raw(raw, HILP_REP_HDR, data, dlen, frame);
}

static uint8_t decode_packet(const uint8_t *frame, size_t n, size_t hdr,
			     struct hilp_packet *out)
{
	uint8_t raw[HILP_MAX_RAW];
	int len;
	size_t dlen;
	size_t i;

	/* A longer frame holds a packet too long to be ours. A shorter one
	 * decodes to fewer bytes than n, so raw always has room. */
	if (n > HILP_MAX_ENC) {
		return HILP_ST_BAD_LEN;
	}
	len = hilp_cobs_decode(frame, n, raw, sizeof(raw));
	if (len < 0) {
		/* COBS damage is as good as a bad checksum: the bytes changed. */
		return HILP_ST_BAD_CRC;
	}
	if ((size_t)len < hdr + HILP_CRC_LEN) {
		return HILP_ST_BAD_LEN;
	}
	dlen = raw[hdr - 1];
	if (dlen > HILP_MAX_DATA || (size_t)len != hdr + dlen + HILP_CRC_LEN) {
		return HILP_ST_BAD_LEN;
	}
	/* With no final xor and the CRC appended big-endian, the CRC over the
	 * packet and its CRC is 0 exactly when the CRC matches. */
	if (hilp_crc16(raw, (size_t)len) != 0) {
		return HILP_ST_BAD_CRC;
	}
	out->cmd = raw[0];
	out->scmd = hdr == HILP_REQ_HDR ? raw[1] : 0;
	out->dlen = (uint8_t)dlen;
	for (i = 0; i < dlen; i++) {
		out->data[i] = raw[hdr + i];
	}
	return HILP_ST_OK;
}

uint8_t hilp_decode_request(const uint8_t *frame, size_t n,
			    struct hilp_packet *out)
{
	return decode_packet(frame, n, HILP_REQ_HDR, out);
}

uint8_t hilp_decode_reply(const uint8_t *frame, size_t n,
			  struct hilp_packet *out)
{
	return decode_packet(frame, n, HILP_REP_HDR, out);
}

/* SimpleSerial's CRC-8 (poly 0x4D, init 0, MSB first), protocol 2's check. */
static uint8_t crc8_v2(const uint8_t *p, size_t n)
{
	uint8_t crc = 0;
	size_t i;
	int bit;

	for (i = 0; i < n; i++) {
		crc ^= p[i];
		for (bit = 0; bit < 8; bit++) {
			if (crc & 0x80u) {
				crc = (uint8_t)((crc << 1) ^ 0x4Du);
			} else {
				crc = (uint8_t)(crc << 1);
			}
		}
	}
	return crc;
}

int hilp_v2_frame(const uint8_t *frame, size_t n)
{
	uint8_t raw[HILP_MAX_RAW];
	int len;

	if (n > HILP_MAX_ENC) {
		return 0;
	}
	len = hilp_cobs_decode(frame, n, raw, sizeof(raw));
	if (len < (int)HILP_REP_HDR + 1 ||
	    (size_t)len != HILP_REP_HDR + raw[1] + 1u) {
		return 0;
	}
	return crc8_v2(raw, (size_t)len - 1) == raw[len - 1];
}

void hilp_rx_init(struct hilp_rx *rx)
{
	rx->len = 0;
	rx->overflow = 0;
}

int hilp_rx_push(struct hilp_rx *rx, uint8_t byte)
{
	if (byte == 0) {
		if (rx->overflow) {
			hilp_rx_init(rx);
			return -1;
		}
		return 1;
	}
	if (rx->overflow) {
		return 0;
	}
	if (rx->len >= sizeof(rx->buf)) {
		/* Too long to be ours: drop everything up to the next 0x00,
		 * which is where the sender's next frame starts. */
		rx->overflow = 1;
		return 0;
	}
	rx->buf[rx->len++] = byte;
	return 0;
}

size_t hilp_put_name(uint8_t *p, const char *s)
{
	size_t i = 0;

	while (s[i] != '\0' && i + 1 < HILP_ALG_NAME_MAX) {
		p[i] = (uint8_t)s[i];
		i++;
	}
	p[i] = 0;
	return i + 1;
}

/* Read a NUL-terminated string from p[0..avail); -1 when unterminated. */
static int get_str(const uint8_t *p, size_t avail, char *s, size_t max)
{
	size_t i;

	for (i = 0; i < avail && i < max; i++) {
		s[i] = (char)p[i];
		if (p[i] == 0) {
			return (int)i + 1;
		}
	}
	return -1;
}

/* INFO: seq, protocol, flags, unit, clock32, counter32, acr32, overhead32,
 * max_msg16, max_ad16, max_runs16, idlen, id[idlen], uid[12], board\0,
 * overruns32. The last field came later within protocol 2: a decoder
 * that stops at the name still works, and a stub without it is read as
 * "not reported" rather than refused. */
#define INFO_FIXED 30u

size_t hilp_info_encode(uint8_t seq, const struct hilp_info *in, uint8_t *data)
{
	size_t o = 0;
	size_t i;
	uint8_t idlen = in->build_id_len;

	if (idlen > HILP_BUILD_ID_MAX) {
		idlen = HILP_BUILD_ID_MAX;
	}
	data[o++] = seq;
	data[o++] = in->protocol;
	data[o++] = in->flags;
	data[o++] = in->counter_unit;
	hilp_put_u32(data + o, in->clock_hz);
	o += 4;
	hilp_put_u32(data + o, in->counter_hz);
	o += 4;
	hilp_put_u32(data + o, in->flash_acr);
	o += 4;
	hilp_put_u32(data + o, in->overhead);
	o += 4;
	hilp_put_u16(data + o, in->max_msg);
	o += 2;
	hilp_put_u16(data + o, in->max_ad);
	o += 2;
	hilp_put_u16(data + o, in->max_runs);
	o += 2;
	data[o++] = idlen;
	for (i = 0; i < idlen; i++) {
		data[o++] = in->build_id[i];
	}
	for (i = 0; i < HILP_UID_LEN; i++) {
		data[o++] = in->uid[i];
	}
	o += hilp_put_name(data + o, in->board);
	hilp_put_u32(data + o, in->uart_overruns);
	return o + 4;
}

int hilp_info_decode(const uint8_t *data, size_t dlen, struct hilp_info *out)
{
	size_t o = 1;
	size_t i;
	int n;

	if (dlen < INFO_FIXED) {
		return -1;
	}
	out->protocol = data[o++];
	out->flags = data[o++];
	out->counter_unit = data[o++];
	out->clock_hz = hilp_get_u32(data + o);
	o += 4;
	out->counter_hz = hilp_get_u32(data + o);
	o += 4;
	out->flash_acr = hilp_get_u32(data + o);
	o += 4;
	out->overhead = hilp_get_u32(data + o);
	o += 4;
	out->max_msg = hilp_get_u16(data + o);
	o += 2;
	out->max_ad = hilp_get_u16(data + o);
	o += 2;
	out->max_runs = hilp_get_u16(data + o);
	o += 2;
	out->build_id_len = data[o++];
	if (out->build_id_len > HILP_BUILD_ID_MAX ||
	    dlen < o + out->build_id_len + HILP_UID_LEN) {
		return -1;
	}
	for (i = 0; i < out->build_id_len; i++) {
		out->build_id[i] = data[o++];
	}
	for (i = 0; i < HILP_UID_LEN; i++) {
		out->uid[i] = data[o++];
	}
	n = get_str(data + o, dlen - o, out->board, sizeof(out->board));
	if (n < 0) {
		return -1;
	}
	o += (size_t)n;
	out->has_uart_overruns = 0;
	out->uart_overruns = 0;
	if (dlen == o) { /* a stub from before the field */
		return 0;
	}
	if (dlen < o + 4) {
		return -1; /* part of a field */
	}
	out->has_uart_overruns = 1;
	out->uart_overruns = hilp_get_u32(data + o);
	return 0; /* anything after it: fields of a later stub */
}

/* ALG: seq, count, index, kind, keybytes, npubbytes, abytes, blockbytes,
 * name\0, impl\0. The seven bytes from count to blockbytes are uint8_t
 * members that follow each other in struct hilp_alg_info, in wire order
 * (a negative array size here says when they stop doing so). */
#define ALG_FIXED 7u
#define ALG_SPAN                                                               \
	(offsetof(struct hilp_alg_info, blockbytes) -                          \
	 offsetof(struct hilp_alg_info, count) + 1u)
typedef char hilp_alg_fixed_bytes_in_wire_order[ALG_SPAN == ALG_FIXED ? 1 : -1];

size_t hilp_alg_info_encode(uint8_t seq, const struct hilp_alg_info *in,
			    uint8_t *data)
{
	size_t o = 1u + ALG_FIXED;

	data[0] = seq;
	/* One copy, not seven: the struct holds them as the wire does. */
	__builtin_memcpy(data + 1,
			 (const uint8_t *)in +
				 offsetof(struct hilp_alg_info, count),
			 ALG_FIXED);
	o += hilp_put_name(data + o, in->name);
	o += hilp_put_name(data + o, in->impl);
	return o;
}

int hilp_alg_info_decode(const uint8_t *data, size_t dlen,
			 struct hilp_alg_info *out)
{
	size_t o = 1;
	int n;

	if (dlen < 10) {
		return -1;
	}
	out->count = data[o++];
	out->index = data[o++];
	out->kind = data[o++];
	out->keybytes = data[o++];
	out->npubbytes = data[o++];
	out->abytes = data[o++];
	out->blockbytes = data[o++];
	n = get_str(data + o, dlen - o, out->name, sizeof(out->name));
	if (n < 0) {
		return -1;
	}
	o += (size_t)n;
	n = get_str(data + o, dlen - o, out->impl, sizeof(out->impl));
	return n < 0 ? -1 : 0;
}

/* EXEC request: seq, alg, msg_len16, ad_len16, out_len16 */
size_t hilp_exec_req_encode(uint8_t seq, const struct hilp_exec_req *in,
			    uint8_t *data)
{
	data[0] = seq;
	data[1] = in->alg;
	hilp_put_u16(data + 2, in->msg_len);
	hilp_put_u16(data + 4, in->ad_len);
	hilp_put_u16(data + 6, in->out_len);
	if (!in->gen) {
		return 8;
	}
	hilp_put_u32(data + 8, in->seed);
	data[12] = in->flags;
	return 13;
}

/* ... and for a generated one: seed32, flags8 */
int hilp_exec_req_decode(const uint8_t *data, size_t dlen,
			 struct hilp_exec_req *out)
{
	if (dlen != 8 && dlen != 13) {
		return -1;
	}
	out->alg = data[1];
	out->msg_len = hilp_get_u16(data + 2);
	out->ad_len = hilp_get_u16(data + 4);
	out->out_len = hilp_get_u16(data + 6);
	out->gen = dlen == 13;
	out->seed = out->gen ? hilp_get_u32(data + 8) : 0;
	out->flags = out->gen ? data[12] : 0;
	return 0;
}

/* EXEC reply: seq, status, out_len16, count32, digest32 */
size_t hilp_exec_rep_encode(uint8_t seq, const struct hilp_exec_rep *in,
			    uint8_t *data)
{
	data[0] = seq;
	data[1] = in->status;
	hilp_put_u16(data + 2, in->out_len);
	hilp_put_u32(data + 4, in->count);
	hilp_put_u32(data + 8, in->digest);
	return 12;
}

int hilp_exec_rep_decode(const uint8_t *data, size_t dlen,
			 struct hilp_exec_rep *out)
{
	if (dlen != 12) {
		return -1;
	}
	out->status = data[1];
	out->out_len = hilp_get_u16(data + 2);
	out->count = hilp_get_u32(data + 4);
	out->digest = hilp_get_u32(data + 8);
	return 0;
}

/* BENCH request: seq, alg, msg_len16, ad_len16, runs16, warmup16, seed32,
 * out_len16 */
size_t hilp_bench_req_encode(uint8_t seq, const struct hilp_bench_req *in,
			     uint8_t *data)
{
	data[0] = seq;
	data[1] = in->alg;
	hilp_put_u16(data + 2, in->msg_len);
	hilp_put_u16(data + 4, in->ad_len);
	hilp_put_u16(data + 6, in->runs);
	hilp_put_u16(data + 8, in->warmup);
	hilp_put_u32(data + 10, in->seed);
	hilp_put_u16(data + 14, in->out_len);
	return HILP_BENCH_REQ_LEN;
}

/* Leak mode: the same, then leak_seed32 */
size_t hilp_bench_leak_req_encode(uint8_t seq, const struct hilp_bench_req *in,
				  uint8_t *data)
{
	hilp_bench_req_encode(seq, in, data);
	hilp_put_u32(data + HILP_BENCH_REQ_LEN, in->leak_seed);
	return HILP_BENCH_LEAK_REQ_LEN;
}

int hilp_bench_req_decode(const uint8_t *data, size_t dlen,
			  struct hilp_bench_req *out)
{
	if (dlen != HILP_BENCH_REQ_LEN && dlen != HILP_BENCH_LEAK_REQ_LEN) {
		return -1;
	}
	out->alg = data[1];
	out->msg_len = hilp_get_u16(data + 2);
	out->ad_len = hilp_get_u16(data + 4);
	out->runs = hilp_get_u16(data + 6);
	out->warmup = hilp_get_u16(data + 8);
	out->seed = hilp_get_u32(data + 10);
	out->out_len = hilp_get_u16(data + 14);
	out->leak_seed = dlen == HILP_BENCH_LEAK_REQ_LEN
				 ? hilp_get_u32(data + HILP_BENCH_REQ_LEN)
				 : 0;
	return 0;
}

/* BENCH reply: seq, status, runs16, digest32, stack32, overhead32, heap32,
 * min32, max32 */
size_t hilp_bench_rep_encode(uint8_t seq, const struct hilp_bench_rep *in,
			     uint8_t *data)
{
	data[0] = seq;
	data[1] = in->status;
	hilp_put_u16(data + 2, in->runs);
	hilp_put_u32(data + 4, in->digest);
	hilp_put_u32(data + 8, in->stack_bytes);
	hilp_put_u32(data + 12, in->overhead);
	hilp_put_u32(data + 16, in->heap_bytes);
	hilp_put_u32(data + 20, in->min);
	hilp_put_u32(data + 24, in->max);
	return HILP_BENCH_REP_LEN;
}

int hilp_bench_rep_decode(const uint8_t *data, size_t dlen,
			  struct hilp_bench_rep *out)
{
	if (dlen != HILP_BENCH_REP_LEN) {
		return -1;
	}
	out->status = data[1];
	out->runs = hilp_get_u16(data + 2);
	out->digest = hilp_get_u32(data + 4);
	out->stack_bytes = hilp_get_u32(data + 8);
	out->overhead = hilp_get_u32(data + 12);
	out->heap_bytes = hilp_get_u32(data + 16);
	out->min = hilp_get_u32(data + 20);
	out->max = hilp_get_u32(data + 24);
	return 0;
}

/* ENERGY request: seq, alg, msg_len16, ad_len16, out_len16, seed32, count32 */
size_t hilp_energy_req_encode(uint8_t seq, const struct hilp_energy_req *in,
			      uint8_t *data)
{
	data[0] = seq;
	data[1] = in->alg;
	hilp_put_u16(data + 2, in->msg_len);
	hilp_put_u16(data + 4, in->ad_len);
	hilp_put_u16(data + 6, in->out_len);
	hilp_put_u32(data + 8, in->seed);
	hilp_put_u32(data + 12, in->count);
	return 16;
}

int hilp_energy_req_decode(const uint8_t *data, size_t dlen,
			   struct hilp_energy_req *out)
{
	if (dlen != 16) {
		return -1;
	}
	out->alg = data[1];
	out->msg_len = hilp_get_u16(data + 2);
	out->ad_len = hilp_get_u16(data + 4);
	out->out_len = hilp_get_u16(data + 6);
	out->seed = hilp_get_u32(data + 8);
	out->count = hilp_get_u32(data + 12);
	return 0;
}

/* ENERGY reply: seq, status, count32, ticks32, digest32 */
size_t hilp_energy_rep_encode(uint8_t seq, const struct hilp_energy_rep *in,
			      uint8_t *data)
{
	data[0] = seq;
	data[1] = in->status;
	hilp_put_u32(data + 2, in->count);
	hilp_put_u32(data + 6, in->ticks);
	hilp_put_u32(data + 10, in->digest);
	return 14;
}

int hilp_energy_rep_decode(const uint8_t *data, size_t dlen,
			   struct hilp_energy_rep *out)
{
	if (dlen != 14) {
		return -1;
	}
	out->status = data[1];
	out->count = hilp_get_u32(data + 2);
	out->ticks = hilp_get_u32(data + 6);
	out->digest = hilp_get_u32(data + 10);
	return 0;
}

uint32_t hilp_prng_init(uint32_t seed)
{
	return seed != 0 ? seed : 0x9E3779B9u;
}

void hilp_prng_fill(uint32_t *state, uint8_t *buf, size_t len)
{
	uint32_t x = *state;
	size_t i;

	for (i = 0; i < len; i++) {
		if (i % 4u == 0) { /* a fresh output every four bytes */
			x ^= x << 13;
			x ^= x >> 17;
			x ^= x << 5;
		}
		buf[i] = (uint8_t)(x >> (8u * (i % 4u)));
	}
	*state = x;
}

/* noinline: the stub folds outputs in EXEC, BENCH and ENERGY; one copy
 * instead of three keeps 16 bytes of its footprint budget. */
__attribute__((noinline)) uint32_t
hilp_digest_update(uint32_t digest, const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		digest ^= p[i];
		digest *= 0x01000193u;
	}
	return digest;
}

/* PQRUN records: seq, status 0, type, then the type's fields (hilp.h). */
size_t hilp_pq_req_encode(uint8_t seq, uint16_t runs, uint8_t *data)
{
	data[0] = seq;
	data[1] = HILP_PQ_VERSION;
	hilp_put_u16(data + 2, runs);
	return HILP_PQ_REQ_LEN;
}

uint8_t hilp_pq_req_decode(const uint8_t *data, size_t dlen, uint16_t *runs)
{
	if (dlen != HILP_PQ_REQ_LEN) {
		return HILP_ST_BAD_LEN;
	}
	*runs = hilp_get_u16(data + 2);
	if (data[1] != HILP_PQ_VERSION || *runs == 0 ||
	    *runs > HILP_PQ_MAX_RUNS) {
		return HILP_ST_BAD_ARG;
	}
	return HILP_ST_OK;
}

size_t hilp_pq_rec_encode(uint8_t seq, const struct hilp_pq_rec *in,
			  uint8_t *data)
{
	data[0] = seq;
	data[1] = HILP_ST_OK;
	data[2] = in->type;
	switch (in->type) {
	case HILP_PQ_HEAD:
		data[3] = in->version;
		data[4] = in->kind;
		hilp_put_u16(data + 5, in->runs);
		hilp_put_u32(data + 7, in->overhead);
		hilp_put_u32(data + 11, in->stack_size);
		hilp_put_u32(data + 15, in->base_stack);
		hilp_put_u16(data + 19, in->mlen);
		return HILP_PQ_HEAD_LEN;
	case HILP_PQ_CALL:
		data[3] = in->op;
		hilp_put_u16(data + 4, in->run);
		hilp_put_u32(data + 6, in->ticks);
		hilp_put_u32(data + 10, in->stack);
		hilp_put_u32(data + 14, in->digest);
		hilp_put_u32(data + 18, in->ret);
		return HILP_PQ_CALL_LEN;
	case HILP_PQ_END:
		hilp_put_u16(data + 3, in->calls);
		return HILP_PQ_END_LEN;
	case HILP_PQ_FAULT:
		data[3] = in->stack_out;
		hilp_put_u16(data + 4, in->calls);
		return HILP_PQ_FAULT_LEN;
	default:
		return 0;
	}
}

int hilp_pq_rec_decode(const uint8_t *data, size_t dlen,
		       struct hilp_pq_rec *out)
{
	static const uint8_t len[] = {0, HILP_PQ_HEAD_LEN, HILP_PQ_CALL_LEN,
				      HILP_PQ_END_LEN, HILP_PQ_FAULT_LEN};

	if (dlen < 3 || data[1] != HILP_ST_OK || data[2] == 0 ||
	    data[2] > HILP_PQ_FAULT || dlen != len[data[2]]) {
		return -1;
	}
	{
		static const struct hilp_pq_rec none;

		*out = none;
	}
	out->type = data[2];
	switch (out->type) {
	case HILP_PQ_HEAD:
		out->version = data[3];
		out->kind = data[4];
		out->runs = hilp_get_u16(data + 5);
		out->overhead = hilp_get_u32(data + 7);
		out->stack_size = hilp_get_u32(data + 11);
		out->base_stack = hilp_get_u32(data + 15);
		out->mlen = hilp_get_u16(data + 19);
		if (out->version != HILP_PQ_VERSION ||
		    (out->kind != HILP_PQ_KEM && out->kind != HILP_PQ_SIGN)) {
			return -1;
		}
		break;
	case HILP_PQ_CALL:
		out->op = data[3];
		out->run = hilp_get_u16(data + 4);
		out->ticks = hilp_get_u32(data + 6);
		out->stack = hilp_get_u32(data + 10);
		out->digest = hilp_get_u32(data + 14);
		out->ret = hilp_get_u32(data + 18);
		if (out->op > HILP_PQ_OP_THIRD) {
			return -1;
		}
		break;
	case HILP_PQ_END:
		out->calls = hilp_get_u16(data + 3);
		break;
	default: /* HILP_PQ_FAULT */
		out->stack_out = data[3];
		out->calls = hilp_get_u16(data + 4);
		break;
	}
	return 0;
}
