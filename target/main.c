/* main: the stub's command loop: receive a frame, dispatch it, reply, report status. */
#include <stddef.h>
#include <stdint.h>

#include "bench.h"
#include "hal.h"
#include "hilp.h"
#include "registry.h"
#include "reply.h"

/* Static, never on the stack: the stack is what we measure. */
static struct bench_bufs bufs;
static uint32_t overhead;
static uint8_t boot_status;

/* The commands, in the order LIST reports them; dispatch() switches on the position. */
enum {
	CMD_VERSION,
	CMD_LIST,
	CMD_INFO,
	CMD_ALG,
	CMD_LOAD,
	CMD_EXEC,
	CMD_FETCH,
	CMD_BENCH,
	CMD_CALIBRATE,
	CMD_RESET,
	CMD_ENERGY,
	CMD_COUNT
};
static const uint8_t command_list[CMD_COUNT] = {
	[CMD_VERSION] = HILP_CMD_VERSION,     [CMD_LIST] = HILP_CMD_LIST,
	[CMD_INFO] = HILP_CMD_INFO,	      [CMD_ALG] = HILP_CMD_ALG,
	[CMD_LOAD] = HILP_CMD_LOAD,	      [CMD_EXEC] = HILP_CMD_EXEC,
	[CMD_FETCH] = HILP_CMD_FETCH,	      [CMD_BENCH] = HILP_CMD_BENCH,
	[CMD_CALIBRATE] = HILP_CMD_CALIBRATE, [CMD_RESET] = HILP_CMD_RESET,
	[CMD_ENERGY] = HILP_CMD_ENERGY,
};

/* Our commands carry a sequence byte; a failure is answered [seq, status]. */
static void send_failure(uint8_t seq, uint8_t status)
{
	uint8_t d[2];

	d[0] = seq;
	d[1] = status;
	reply_send(HILP_REPLY, d, 2);
}

/*
 * The handlers below read their request before they write their reply,
 * and build the reply in the request's own data (249 bytes either way):
 * no second buffer on the stack, whose frame is taken from what the
 * measured implementations get. seq stays where it is, in data[0].
 */
static uint8_t cmd_info(struct hilp_packet *p)
{
	/* Not initialised: every field the encoder reads is written below,
	 * and an initialiser would bring in memset. On the stack, not
	 * static: addressed from SP, with no literal per field. */
	struct hilp_info info;
	struct hal_counter_info ci;
	const uint8_t *id;
	uint8_t i;

	hal_counter_info(&ci);
	info.protocol = HILP_PROTOCOL_VERSION;
	info.flags = ci.flags;
	info.counter_unit = ci.unit;
	info.clock_hz = ci.clock_hz;
	info.counter_hz = ci.counter_hz;
	info.flash_acr = ci.flash_acr;
	info.overhead = overhead;
	info.max_msg = BENCH_MAX_MSG;
	info.max_ad = BENCH_MAX_AD;
	info.max_runs = BENCH_MAX_RUNS;
	id = hal_build_id(&info.build_id_len);
	for (i = 0; i < info.build_id_len; i++) { /* 0 when id is 0 */
		info.build_id[i] = id[i];
	}
	hal_uid(info.uid);
	(void)hilp_put_name((uint8_t *)info.board, hal_board_name());
	info.uart_overruns = hal_uart_overruns();
	reply_send(HILP_REPLY, p->data,
		   hilp_info_encode(p->data[0], &info, p->data));
	return boot_status;
}

static uint8_t cmd_alg(struct hilp_packet *p)
{
	const struct registry_alg *alg = registry_get(p->scmd);
	struct hilp_alg_info ai; /* not initialised: see cmd_info */

	if (alg == 0) {
		return HILP_ST_NO_ALG;
	}
	ai.count = (uint8_t)registry_count();
	ai.index = p->scmd;
	ai.kind = alg->kind;
	ai.keybytes = alg->keybytes;
	ai.npubbytes = alg->npubbytes;
	ai.abytes = alg->abytes;
	ai.blockbytes = alg->blockbytes;
	(void)hilp_put_name((uint8_t *)ai.name, alg->name);
	(void)hilp_put_name((uint8_t *)ai.impl, alg->impl);
	reply_send(HILP_REPLY, p->data,
		   hilp_alg_info_encode(p->data[0], &ai, p->data));
	return HILP_ST_OK;
}

/* Where LOAD and FETCH may read and write, indexed by buffer id: offsets
 * into bufs, half the flash of a table of pointers and sizes. 16 bits are
 * enough because the protocol's offsets are 16 bits too. */
typedef char
	main_bufs_exceed_16_bits[sizeof(struct bench_bufs) <= 0xFFFFu ? 1 : -1];
static const struct {
	uint16_t off;
	uint16_t size;
} buffers[] = {
	[HILP_BUF_KEY] = {offsetof(struct bench_bufs, key), sizeof(bufs.key)},
	[HILP_BUF_NONCE] = {offsetof(struct bench_bufs, npub),
			    sizeof(bufs.npub)},
	[HILP_BUF_AD] = {offsetof(struct bench_bufs, ad), sizeof(bufs.ad)},
	[HILP_BUF_MSG] = {offsetof(struct bench_bufs, msg), sizeof(bufs.msg)},
	[HILP_BUF_OUT] = {offsetof(struct bench_bufs, out), sizeof(bufs.out)},
	[HILP_BUF_SAMPLES] = {offsetof(struct bench_bufs, samples),
			      sizeof(bufs.samples)},
};

/*
 * LOAD ([seq, off16, bytes...] into a writable buffer, answered [seq, 0])
 * and FETCH ([seq, off16, count8] from any buffer, answered [seq, 0,
 * bytes...]): one window check and one copy loop for both. A LOAD's count
 * is dlen - 3 <= 246, so the reply-size limit only ever stops a FETCH.
 */
static uint8_t cmd_transfer(struct hilp_packet *p)
{
	const int load = p->cmd == HILP_CMD_LOAD;
	const uint8_t *src;
	uint8_t *dst;
	uint8_t *buf;
	uint32_t off;
	uint32_t n;
	uint32_t i;

	if (load ? p->dlen < 3 : p->dlen != 4) {
		return HILP_ST_BAD_LEN;
	}
	off = hilp_get_u16(p->data + 1);
	n = load ? p->dlen - 3u : p->data[3];
	/* The output and samples buffers are read-only. */
	if (p->scmd >=
	    (load ? HILP_BUF_OUT : sizeof(buffers) / sizeof(buffers[0]))) {
		return HILP_ST_BAD_ARG;
	}
	if (n > HILP_MAX_DATA - 2u || off + n > buffers[p->scmd].size) {
		return HILP_ST_TOO_LONG;
	}
	buf = (uint8_t *)&bufs + buffers[p->scmd].off + off;
	src = load ? p->data + 3 : buf;
	dst = load ? buf : p->data + 2;
	for (i = 0; i < n; i++) {
		dst[i] = src[i];
	}
	p->data[1] = HILP_ST_OK; /* after seq, as every reply */
	reply_send(HILP_REPLY, p->data, 2u + (load ? 0u : n));
	return HILP_ST_OK;
}

static uint8_t cmd_exec(struct hilp_packet *p)
{
	struct hilp_exec_req req;
	struct hilp_exec_rep rep;
	const struct registry_alg *alg;

	if (hilp_exec_req_decode(p->data, p->dlen, &req) != 0) {
		return HILP_ST_BAD_LEN;
	}
	alg = registry_get(req.alg);
	if (alg == 0) {
		return HILP_ST_NO_ALG;
	}
	rep.status = bench_exec(alg, p->scmd, &req, &bufs, &rep);
	/* A rejected decryption is a result, reported with its status. */
	if (rep.status != HILP_ST_OK && rep.status != HILP_ST_CRYPTO_FAIL) {
		return rep.status;
	}
	reply_send(HILP_REPLY, p->data,
		   hilp_exec_rep_encode(p->data[0], &rep, p->data));
	return rep.status;
}

static uint8_t cmd_bench(struct hilp_packet *p)
{
	struct hilp_bench_req req;
	struct hilp_bench_rep rep;
	const struct registry_alg *alg;

	if (hilp_bench_req_decode(p->data, p->dlen, &req) != 0) {
		return HILP_ST_BAD_LEN;
	}
	alg = registry_get(req.alg);
	if (alg == 0) {
		return HILP_ST_NO_ALG;
	}
	rep.status = bench_run(alg, p->scmd, &req, &bufs, &rep);
	rep.overhead = overhead;
	if (rep.status != HILP_ST_OK) {
		return rep.status;
	}
	reply_send(HILP_REPLY, p->data,
		   hilp_bench_rep_encode(p->data[0], &rep, p->data));
	return HILP_ST_OK;
}

static uint8_t cmd_energy(struct hilp_packet *p)
{
	struct hilp_energy_req req;
	struct hilp_energy_rep rep;
	const struct registry_alg *alg;

	if (hilp_energy_req_decode(p->data, p->dlen, &req) != 0) {
		return HILP_ST_BAD_LEN;
	}
	alg = registry_get(req.alg);
	if (alg == 0) {
		return HILP_ST_NO_ALG;
	}
	rep.status = bench_energy(alg, p->scmd, &req, &bufs, &rep);
	if (rep.status != HILP_ST_OK) {
		return rep.status;
	}
	reply_send(HILP_REPLY, p->data,
		   hilp_energy_rep_encode(p->data[0], &rep, p->data));
	return HILP_ST_OK;
}

static uint8_t cmd_calibrate(struct hilp_packet *p)
{
	overhead = bench_calibrate();
	p->data[1] = HILP_ST_OK; /* after seq */
	hilp_put_u32(p->data + 2, overhead);
	reply_send(HILP_REPLY, p->data, 6);
	return HILP_ST_OK;
}

/* Handle one decoded request (its data then holds the reply); the caller
 * sends the status packet. */
static uint8_t dispatch(struct hilp_packet *p)
{
	static const uint8_t version = HILP_SS_VERSION;
	uint32_t i;
	uint8_t st;

	/* An unknown command is reported as such, whatever its length. */
	for (i = 0; i < CMD_COUNT && command_list[i] != p->cmd; i++) {
	}
	switch (i) {
	case CMD_COUNT:
		return HILP_ST_BAD_CMD;
	case CMD_VERSION:
		reply_send(HILP_REPLY, &version, 1);
		return HILP_ST_OK;
	case CMD_LIST:
		reply_send(HILP_REPLY, command_list, CMD_COUNT);
		return HILP_ST_OK;
	default:
		break;
	}
	/* Every other command carries a sequence byte first. */
	if (p->dlen < 1) {
		return HILP_ST_BAD_LEN;
	}
	switch (i) {
	case CMD_INFO:
		return cmd_info(p);
	case CMD_ALG:
		st = cmd_alg(p);
		break;
	case CMD_LOAD:
	case CMD_FETCH:
		st = cmd_transfer(p);
		break;
	case CMD_EXEC:
		st = cmd_exec(p);
		if (st == HILP_ST_CRYPTO_FAIL) {
			return st; /* the reply already went out */
		}
		break;
	case CMD_BENCH:
		st = cmd_bench(p);
		break;
	case CMD_ENERGY:
		st = cmd_energy(p);
		break;
	case CMD_CALIBRATE:
		return cmd_calibrate(p);
	default: /* CMD_RESET */
		send_failure(p->data[0], HILP_ST_OK);
		reply_status(HILP_ST_OK);
		hal_reset();
		return HILP_ST_OK;
	}
	if (st != HILP_ST_OK) {
		send_failure(p->data[0], st);
	}
	return st;
}

/* Called by the board's fault handler: report where, then wait for reset. */
void hal_fault_report(uint32_t pc, uint32_t cfsr, uint32_t hfsr, uint32_t bfar)
{
	uint8_t d[18];

	d[0] = 0; /* no sequence: the fault belongs to no request */
	d[1] = HILP_ST_FAULT;
	hilp_put_u32(d + 2, pc);
	hilp_put_u32(d + 6, cfsr);
	hilp_put_u32(d + 10, hfsr);
	hilp_put_u32(d + 14, bfar);
	reply_send(HILP_REPLY, d, sizeof(d));
	reply_status(HILP_ST_FAULT);
}

int main(void)
{
	static struct hilp_rx rx;
	struct hilp_packet pkt;

	boot_status = hal_init();
	overhead = bench_calibrate();
	hilp_rx_init(&rx);
	for (;;) {
		int r = hilp_rx_push(&rx, hal_uart_getc());
		size_t n;
		uint8_t st;

		if (r < 0) {
			reply_status(HILP_ST_BAD_LEN);
			continue;
		}
		if (r == 0) {
			continue;
		}
		if (rx.len == 0) {
			/* A lone 0x00 is the host resynchronising: no reply. */
			continue;
		}
		/* hilp_rx_init() leaves rx.buf alone: reset first and decode
		 * after, so that every outcome of the decoder shares one
		 * reset. */
		n = rx.len;
		hilp_rx_init(&rx);
		st = hilp_decode_request(rx.buf, n, &pkt);
		if (st == HILP_ST_OK) {
			st = dispatch(&pkt);
		}
		reply_status(st);
	}
}
