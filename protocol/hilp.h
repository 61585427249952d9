/* hilp: the hilrun wire protocol (framing, commands, payload layouts), shared by host and target. */
#ifndef HILP_H
#define HILP_H

#include <stddef.h>
#include <stdint.h>

/*
 * Framing is ChipWhisperer SimpleSerial v2.1's,
 *   host -> target  [cmd, scmd, dlen, data[dlen], crc_hi, crc_lo]
 *   target -> host  [cmd, dlen, data[dlen], crc_hi, crc_lo]
 * except for the check: crc is CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF,
 * MSB first, no final xor) over every byte before it, sent big-endian.
 * SimpleSerial's CRC-8 let one damaged frame in 256 through (protocol 2).
 * Each packet is COBS-encoded and terminated by one 0x00 byte.
 * After every command the target sends an error packet ['e', 1, status].
 * See docs/protocol.md for the full specification.
 *
 * This file and hilp.c are C99, use no heap and no stdio, and are compiled
 * unchanged into the host and the target.
 */

/* 3: CRC-16 frames. A protocol 2 stub (CRC-8) is recognised by
 * hilp_v2_frame() so that the host can ask for a rebuild. */
#define HILP_PROTOCOL_VERSION 3u

#define HILP_MAX_DATA	 249u /* dlen < 250 */
#define HILP_REQ_HDR	 3u   /* cmd, scmd, dlen */
#define HILP_REP_HDR	 2u   /* cmd, dlen */
#define HILP_CRC_LEN	 2u   /* CRC-16, big-endian */
#define HILP_MAX_RAW	 (HILP_REQ_HDR + HILP_MAX_DATA + HILP_CRC_LEN) /* 254 */
/* COBS adds at most one byte per 254 plus one: to a packet of at most 254
 * bytes exactly one, so a frame is at most HILP_MAX_ENC bytes before its
 * 0x00. HILP_MAX_FRAME, the general bound plus the 0x00, is one byte more
 * than needed (257; a buffer of 256 made the stub's code 4 bytes longer). */
#define HILP_COBS_MAX(n) ((n) + (n) / 254u + 1u)
#define HILP_MAX_ENC	 (HILP_MAX_RAW + 1u) /* 255 */
#define HILP_MAX_FRAME	 (HILP_COBS_MAX(HILP_MAX_RAW) + 1u)

/* Command bytes. 'v' and 'w' are SimpleSerial's own. */
#define HILP_CMD_VERSION   'v' /* reply data: [HILP_SS_VERSION] */
#define HILP_CMD_LIST	   'w' /* reply data: the command bytes */
#define HILP_CMD_INFO	   'i' /* see struct hilp_info */
#define HILP_CMD_ALG	   'a' /* scmd = index; see struct hilp_alg_info */
#define HILP_CMD_LOAD	   'l' /* scmd = buffer; data: seq, off16, bytes */
#define HILP_CMD_EXEC	   'x' /* scmd = operation; see struct hilp_exec_req */
#define HILP_CMD_FETCH	   'f' /* scmd = buffer; data: seq, off16, count8 */
#define HILP_CMD_BENCH	   'b' /* scmd = operation; see struct hilp_bench_req */
#define HILP_CMD_CALIBRATE 'c' /* reply: overhead of an empty timed call */
#define HILP_CMD_RESET	   'R' /* reply, then the target resets */
#define HILP_CMD_ENERGY	   'E' /* scmd = operation; see struct hilp_energy_req */
/* The pq stub's one command: run every timed call, each reported as a
 * reply (struct hilp_pq_rec), then the status. The symmetric stub answers
 * it HILP_ST_BAD_CMD. */
#define HILP_CMD_PQRUN	   'q'

#define HILP_REPLY 'r' /* target -> host: data reply */
#define HILP_ERROR 'e' /* target -> host: status after every command */

/* What 'v' answers: ChipWhisperer's firmware reports SS_VER_2_1 as 3. */
#define HILP_SS_VERSION 3u

/* Wire status codes (uint8_t on the wire, never host enums). */
#define HILP_ST_OK		0x00u
#define HILP_ST_BAD_CMD		0x01u
#define HILP_ST_BAD_CRC		0x02u
#define HILP_ST_TIMEOUT		0x03u
#define HILP_ST_BAD_LEN		0x04u
#define HILP_ST_UNEXPECTED_ZERO 0x05u
#define HILP_ST_BAD_ARG		0x10u /* a field is out of range */
#define HILP_ST_TOO_LONG	0x11u /* larger than the stub's buffers */
#define HILP_ST_NO_ALG		0x12u /* no algorithm at that index */
#define HILP_ST_UNSUPPORTED	0x13u /* operation not offered by the algorithm */
#define HILP_ST_CRYPTO_FAIL	0x14u /* the implementation returned non-zero */
#define HILP_ST_DIGEST		0x15u /* output changed between runs */
#define HILP_ST_FAULT		0x16u /* the target took a fault */
#define HILP_ST_CLOCK		0x17u /* a clock did not become ready */

/* Buffers addressed by LOAD and FETCH. */
#define HILP_BUF_KEY	 0u
#define HILP_BUF_NONCE	 1u
#define HILP_BUF_AD	 2u
#define HILP_BUF_MSG	 3u /* plaintext in, or ciphertext||tag in for decrypt */
#define HILP_BUF_OUT	 4u /* output of the last EXEC */
#define HILP_BUF_SAMPLES 5u /* counter samples of the last BENCH, u32 LE each */

/* Operations. */
#define HILP_OP_ENCRYPT	 0u
#define HILP_OP_DECRYPT	 1u
#define HILP_OP_HASH	 2u /* hash, or XOF with out_len bytes */
#define HILP_OP_KEYSETUP 3u /* block cipher key schedule on its own */

/* Algorithm kinds. */
#define HILP_KIND_AEAD	1u
#define HILP_KIND_HASH	2u
#define HILP_KIND_XOF	3u /* abytes is the default output length */
#define HILP_KIND_BLOCK 4u /* ECB over whole blocks, key set up apart */

/* Counter units. */
#define HILP_UNIT_CYCLES	   1u /* DWT->CYCCNT on a real core */
#define HILP_UNIT_INSTRUCTIONS_EMU 2u /* QEMU icount instruction counter */
#define HILP_UNIT_NS_HOST	   3u /* clock_gettime on the native stub */

/* Info flags. */
#define HILP_INFO_EMULATED	0x01u
#define HILP_INFO_CYCLE_COUNTER 0x02u

#define HILP_BUILD_ID_MAX 20u
#define HILP_UID_LEN	  12u
/* The names' limit before HILP_ALG_NAME_MAX (23 characters); kept for code
 * that still names it. */
#define HILP_NAME_MAX	  24u
/* An algorithm's and an implementation's name in the ALG reply: as long as
 * a configuration's names (the NIST LWC trees' variant folders run to 28
 * characters, "photonbeetleaead128rate128v1"). */
#define HILP_ALG_NAME_MAX 64u

/* One decoded packet. For replies scmd is 0. */
struct hilp_packet {
	uint8_t cmd;
	uint8_t scmd;
	uint8_t dlen;
	uint8_t data[HILP_MAX_DATA];
};

/* Receive state: collects bytes up to a 0x00 delimiter (not stored). */
struct hilp_rx {
	uint8_t buf[HILP_MAX_ENC];
	size_t len;
	uint8_t overflow; /* frame was longer than buf: discard until 0x00 */
};

/* Decoded INFO reply (after the sequence byte). */
struct hilp_info {
	uint8_t protocol;
	uint8_t flags;	      /* HILP_INFO_* */
	uint8_t counter_unit; /* HILP_UNIT_* */
	uint8_t build_id_len;
	uint32_t clock_hz;   /* core clock */
	uint32_t counter_hz; /* counter rate: 0 when it counts instructions */
	uint32_t flash_acr; /* FLASH_ACR as read back, 0 when not a real chip */
	uint32_t overhead;  /* calibrated cost of an empty timed call */
	uint16_t max_msg;   /* largest message the buffers take */
	uint16_t max_ad;    /* largest associated data */
	uint16_t max_runs;  /* most samples one BENCH keeps */
	uint8_t build_id[HILP_BUILD_ID_MAX];
	uint8_t uid[HILP_UID_LEN];
	char board[HILP_ALG_NAME_MAX]; /* its names are far shorter */
	/* After the board name, so that a host that does not know it stops
	 * at the name: bytes the stub's UART receiver lost since reset. */
	uint32_t uart_overruns;
	uint8_t has_uart_overruns; /* decode: 0 when the stub did not send it */
};

/* Decoded ALG reply. */
struct hilp_alg_info {
	uint8_t count; /* algorithms in the image */
	uint8_t index;
	uint8_t kind; /* HILP_KIND_* */
	uint8_t keybytes;
	uint8_t npubbytes;
	uint8_t abytes;	    /* tag bytes (AEAD) or digest bytes (hash) */
	uint8_t blockbytes; /* block size (block ciphers), else 0 */
	char name[HILP_ALG_NAME_MAX];
	char impl[HILP_ALG_NAME_MAX];
};

/* EXEC request: runs one operation on the loaded buffers. */
/*
 * EXEC runs on the buffers as loaded, or (gen, the 13-byte request) on
 * inputs generated from seed exactly as BENCH generates them: key, nonce,
 * ad, msg, a decryption first encrypting msg, untimed. Its reply carries
 * the output's digest, so a generated EXEC verifies an operation in one
 * request, the host computing the same digest. HILP_EXEC_FORGE flips the
 * last byte of a generated decryption's ciphertext first: the call must
 * reject it (status HILP_ST_CRYPTO_FAIL).
 */
#define HILP_EXEC_FORGE	    0x01u
/*
 * HILP_EXEC_ROUNDTRIP: a generated decryption's digest covers the
 * ciphertext‖tag the stub made (the input of the timed call) before the
 * plaintext it decrypted to, so that one request checks the encryption
 * against the host's and the round trip (docs/protocol.md).
 */
#define HILP_EXEC_ROUNDTRIP 0x02u

struct hilp_exec_req {
	uint8_t alg;
	uint16_t msg_len; /* plaintext, or ciphertext||tag for decrypt, or message;
			     generated: the plaintext for either */
	uint16_t ad_len;
	uint16_t out_len; /* XOF output bytes; 0 for the default and other kinds */
	uint8_t gen;	  /* 1: inputs from seed (the 13-byte request) */
	uint32_t seed;
	uint8_t flags; /* HILP_EXEC_*, generated only */
};

struct hilp_exec_rep {
	uint8_t status;	  /* HILP_ST_*; CRYPTO_FAIL when decryption rejects */
	uint16_t out_len; /* bytes in HILP_BUF_OUT */
	uint32_t count; /* counter ticks of the call, overhead not subtracted */
	uint32_t digest; /* hilp_digest of the out_len bytes */
};

/*
 * BENCH request. Inputs are generated on the target from seed with
 * hilp_prng_fill() in this order: key, nonce, ad, msg. For decrypt the
 * target first encrypts msg (untimed) and then times decryption of the result.
 *
 * leak_seed != 0 makes it a timing-leak run (docs/protocol.md, "Leak mode"):
 * each timed run gets, outside the timed region, the fixed inputs from seed
 * or (class 1, drawn from the leak_seed stream) fresh random input bytes,
 * and bit 31 of its sample (HILP_LEAK_CLASS) says which.
 */
struct hilp_bench_req {
	uint8_t alg;
	uint16_t msg_len;
	uint16_t ad_len;
	uint16_t runs;	 /* timed runs, samples kept */
	uint16_t warmup; /* runs discarded before the timed ones */
	uint32_t seed;
	uint16_t out_len; /* XOF output bytes; 0 for the default and other kinds */
	/* Sent only by hilp_bench_leak_req_encode(); decoded as 0 from an
	 * ordinary 16-byte request, so callers of hilp_bench_req_encode()
	 * need not set it. */
	uint32_t leak_seed;
};

#define HILP_BENCH_REQ_LEN	16u /* ordinary BENCH request (seq included) */
#define HILP_BENCH_LEAK_REQ_LEN 20u /* with leak_seed */
#define HILP_BENCH_REP_LEN	28u

/* Leak mode: bit 31 of a sample is its class (1 = random input). */
#define HILP_LEAK_CLASS	     0x80000000u
#define HILP_LEAK_COUNT_MASK 0x7FFFFFFFu

struct hilp_bench_rep {
	uint8_t status;
	uint16_t runs;
	uint32_t digest; /* hilp_digest over the outputs of all timed runs */
	uint32_t stack_bytes; /* peak stack of one call, by painting */
	uint32_t overhead; /* calibrated overhead, not subtracted from samples */
	/* Peak heap of the same call: bytes the implementation's mallocs took
	 * from _sbrk (newlib's chunk headers and rounding included); 0 when
	 * the image has no malloc (docs/protocol.md). */
	uint32_t heap_bytes;
	/* The smallest and largest sample: equal, the host needs no FETCH of
	 * the samples (a deterministic emulator's runs all count the same).
	 * In leak mode, of the counts without the class bit: equal, every run
	 * of both classes counted the same, and the classes are the leak
	 * stream's, which the host replays. */
	uint32_t min, max;
};

/*
 * ENERGY: run one operation `count` times back to back with the trigger pin
 * high, inputs generated as for BENCH, and report the counter ticks of the
 * whole loop; the host samples the sensor through this window.
 */
struct hilp_energy_req {
	uint8_t alg;
	uint16_t msg_len;
	uint16_t ad_len;
	uint16_t out_len;
	uint32_t seed;
	uint32_t count;
};

struct hilp_energy_rep {
	uint8_t status;
	uint32_t count;
	uint32_t ticks;	 /* counter ticks of the whole loop */
	uint32_t digest; /* of the last output */
};

/*
 * PQRUN (docs/protocol.md, "PQRUN"). The request: data = [seq, version8,
 * runs16] (HILP_PQ_REQ_LEN): the runs of the three operations, 1 to
 * HILP_PQ_MAX_RUNS, so that one image serves any number of runs. The
 * replies: data = [seq, 0x00, type, fields...], one reply per record, in
 * this order: one HEAD, one CALL per timed call, one END; or, when the
 * target faults, a FAULT record, the fault report and the status 0x16.
 * Request and HEAD carry HILP_PQ_VERSION, the version of these layouts: a
 * stub answers a request of another version (or version 1's bare [seq])
 * HILP_ST_BAD_ARG or HILP_ST_BAD_LEN, and a host refuses a HEAD of
 * another version. Version 1 had the runs compiled into the image and a
 * request of [seq] alone.
 */
#define HILP_PQ_VERSION	 2u
#define HILP_PQ_REQ_LEN	 4u
#define HILP_PQ_MAX_RUNS 1000u
#define HILP_PQ_HEAD	 1u
#define HILP_PQ_CALL	 2u
#define HILP_PQ_END	 3u
#define HILP_PQ_FAULT	 4u

#define HILP_PQ_KEM  1u
#define HILP_PQ_SIGN 2u

/* CALL's op: keypair, then encaps or sign, then decaps or verify. */
#define HILP_PQ_OP_KEYPAIR 0u
#define HILP_PQ_OP_SECOND  1u
#define HILP_PQ_OP_THIRD   2u

/* Each record's data length, seq and status included. */
#define HILP_PQ_HEAD_LEN  21u
#define HILP_PQ_CALL_LEN  22u
#define HILP_PQ_END_LEN	  5u
#define HILP_PQ_FAULT_LEN 6u

struct hilp_pq_rec {
	uint8_t type; /* HILP_PQ_HEAD, _CALL, _END or _FAULT */
	/* HEAD */
	uint8_t version;     /* HILP_PQ_VERSION */
	uint8_t kind;	     /* HILP_PQ_KEM or HILP_PQ_SIGN */
	uint16_t runs;	     /* runs of the three operations: the request's */
	uint16_t mlen;	     /* signed message length (sign), else 0 */
	uint32_t overhead;   /* counter ticks of the empty timed call */
	uint32_t stack_size; /* the image's stack in bytes */
	uint32_t base_stack; /* the stub's own frames around a call */
	/* CALL */
	uint8_t op;	 /* HILP_PQ_OP_* */
	uint16_t run;	 /* 0 .. runs-1 */
	uint32_t ticks;	 /* counter ticks, overhead not subtracted */
	uint32_t stack;	 /* peak stack by painting, base_stack included */
	uint32_t digest; /* hilp_digest of the call's outputs */
	uint32_t ret;	 /* the scheme's return value (99: the stub's check) */
	/* END: calls sent; FAULT: calls completed before the fault */
	uint16_t calls;
	/* FAULT: 1 when the lowest 1 KiB of the painted stack was written */
	uint8_t stack_out;
};

/**
 * Encode a PQRUN record as a reply's data.
 * @return its length (HILP_PQ_*_LEN), or 0 for an unknown type.
 */
size_t hilp_pq_rec_encode(uint8_t seq, const struct hilp_pq_rec *in,
			  uint8_t *data);

/**
 * Decode a PQRUN reply's data (seq first).
 * @return 0; -1 when the status byte is not 0, the type unknown, the
 *         length not the type's, a HEAD's version not HILP_PQ_VERSION or
 *         its kind unknown, or a CALL's op above HILP_PQ_OP_THIRD.
 */
int hilp_pq_rec_decode(const uint8_t *data, size_t dlen,
		       struct hilp_pq_rec *out);

/**
 * Encode a PQRUN request's data: [seq, HILP_PQ_VERSION, runs16].
 * @return HILP_PQ_REQ_LEN.
 */
size_t hilp_pq_req_encode(uint8_t seq, uint16_t runs, uint8_t *data);

/**
 * Decode a PQRUN request's data (seq first).
 * @param runs receives the runs asked for.
 * @return HILP_ST_OK; HILP_ST_BAD_LEN when dlen is not HILP_PQ_REQ_LEN
 *         (version 1's request was [seq] alone); HILP_ST_BAD_ARG when the
 *         version is not HILP_PQ_VERSION or runs is 0 or more than
 *         HILP_PQ_MAX_RUNS.
 */
uint8_t hilp_pq_req_decode(const uint8_t *data, size_t dlen, uint16_t *runs);

/* Byte helpers (little-endian). */
void hilp_put_u16(uint8_t *p, uint16_t v);
void hilp_put_u32(uint8_t *p, uint32_t v);
uint16_t hilp_get_u16(const uint8_t *p);
uint32_t hilp_get_u32(const uint8_t *p);

/**
 * CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, MSB first, no reflection,
 * no final xor. Check value: "123456789" gives 0x29B1.
 */
uint16_t hilp_crc16(const uint8_t *p, size_t n);

/**
 * Whether a frame (bytes before the 0x00, COBS-encoded) that failed
 * hilp_decode_reply() is a well-formed protocol 2 reply: SimpleSerial's
 * CRC-8 (poly 0x4D, init 0) as its one last byte. A stub built before
 * protocol 3 answers every request with such a frame; the host uses this to
 * say "rebuild the firmware" instead of timing out. Host only (the stub's
 * image drops it with the unused sections).
 * @return 1 or 0.
 */
int hilp_v2_frame(const uint8_t *frame, size_t n);

/**
 * COBS-encode n bytes. out must hold HILP_COBS_MAX(n) bytes.
 * @return encoded length (no 0x00 delimiter is appended).
 */
size_t hilp_cobs_encode(const uint8_t *in, size_t n, uint8_t *out);

/**
 * COBS-decode n bytes (without the delimiter) into out (cap bytes).
 * @return decoded length, or -1 on a zero byte, a code past the end, or
 *         output longer than cap.
 */
int hilp_cobs_decode(const uint8_t *in, size_t n, uint8_t *out, size_t cap);

/**
 * Encode a host->target request into a complete frame (with the 0x00).
 * @param frame HILP_MAX_FRAME bytes.
 * @return frame length, or 0 when dlen > HILP_MAX_DATA.
 */
size_t hilp_encode_request(uint8_t cmd, uint8_t scmd, const uint8_t *data,
			   size_t dlen, uint8_t *frame);

/** Encode a target->host reply into a complete frame. @return length or 0. */
size_t hilp_encode_reply(uint8_t cmd, const uint8_t *data, size_t dlen,
			 uint8_t *frame);

/**
 * Decode one frame (bytes before the 0x00, COBS-encoded) as a request.
 * @return HILP_ST_OK, HILP_ST_BAD_LEN (too short, too long, dlen disagrees)
 *         or HILP_ST_BAD_CRC.
 */
uint8_t hilp_decode_request(const uint8_t *frame, size_t n,
			    struct hilp_packet *out);

/** As hilp_decode_request, for target->host replies (no scmd). */
uint8_t hilp_decode_reply(const uint8_t *frame, size_t n,
			  struct hilp_packet *out);

/* Start a new frame: resets the length and the overflow flag only, so the
 * bytes of a complete frame stay in rx->buf until the next push. */
void hilp_rx_init(struct hilp_rx *rx);

/**
 * Push one received byte.
 * @return 1 when byte was the 0x00 delimiter and rx->buf[0..rx->len) holds a
 *         complete frame (the caller decodes it, then calls hilp_rx_init);
 *         -1 when a frame overflowed the buffer and was dropped (rx is reset);
 *         0 otherwise.
 */
int hilp_rx_push(struct hilp_rx *rx, uint8_t byte);

/**
 * Copy a name (board, algorithm, implementation) as payloads carry it: at
 * most HILP_ALG_NAME_MAX - 1 characters of s, then a NUL.
 * @return bytes written, the NUL included.
 */
size_t hilp_put_name(uint8_t *p, const char *s);

/* Payload codecs. Each encode returns the payload length (seq included). */
size_t hilp_info_encode(uint8_t seq, const struct hilp_info *in, uint8_t *data);
int hilp_info_decode(const uint8_t *data, size_t dlen, struct hilp_info *out);
size_t hilp_alg_info_encode(uint8_t seq, const struct hilp_alg_info *in,
			    uint8_t *data);
int hilp_alg_info_decode(const uint8_t *data, size_t dlen,
			 struct hilp_alg_info *out);
size_t hilp_exec_req_encode(uint8_t seq, const struct hilp_exec_req *in,
			    uint8_t *data);
int hilp_exec_req_decode(const uint8_t *data, size_t dlen,
			 struct hilp_exec_req *out);
size_t hilp_exec_rep_encode(uint8_t seq, const struct hilp_exec_rep *in,
			    uint8_t *data);
int hilp_exec_rep_decode(const uint8_t *data, size_t dlen,
			 struct hilp_exec_rep *out);
/* The ordinary 16-byte BENCH request: in->leak_seed is not read. */
size_t hilp_bench_req_encode(uint8_t seq, const struct hilp_bench_req *in,
			     uint8_t *data);
/* The 20-byte leak-mode BENCH request, in->leak_seed included. */
size_t hilp_bench_leak_req_encode(uint8_t seq, const struct hilp_bench_req *in,
				  uint8_t *data);
/* Either request; leak_seed is 0 for a 16-byte one. */
int hilp_bench_req_decode(const uint8_t *data, size_t dlen,
			  struct hilp_bench_req *out);
size_t hilp_bench_rep_encode(uint8_t seq, const struct hilp_bench_rep *in,
			     uint8_t *data);
size_t hilp_energy_req_encode(uint8_t seq, const struct hilp_energy_req *in,
			      uint8_t *data);
int hilp_energy_req_decode(const uint8_t *data, size_t dlen,
			   struct hilp_energy_req *out);
size_t hilp_energy_rep_encode(uint8_t seq, const struct hilp_energy_rep *in,
			      uint8_t *data);
int hilp_energy_rep_decode(const uint8_t *data, size_t dlen,
			   struct hilp_energy_rep *out);
int hilp_bench_rep_decode(const uint8_t *data, size_t dlen,
			  struct hilp_bench_rep *out);

/*
 * Bench input generator: xorshift32 (13, 17, 5), state = seed, or
 * 0x9E3779B9 when seed is 0. Each 32-bit output gives four bytes, least
 * significant first; a buffer's tail takes the low bytes of one output.
 */
uint32_t hilp_prng_init(uint32_t seed);
void hilp_prng_fill(uint32_t *state, uint8_t *buf, size_t len);

/*
 * Output digest: FNV-1a, 32 bits (offset basis 0x811C9DC5, prime 0x01000193).
 * It proves that the outputs were produced; it is not a security function.
 */
#define HILP_DIGEST_INIT 0x811C9DC5u
uint32_t hilp_digest_update(uint32_t digest, const uint8_t *p, size_t n);

#endif /* HILP_H */
