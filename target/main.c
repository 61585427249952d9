/* main: the stub's command loop: receive a frame, dispatch it, reply, report status. */
#include <stddef.h>
#include <stdint.h>

#include "bench.h"
#include "hal.h"
#include "hilp.h"
#include "registry.h"

/* Static, never on the stack: the stack is what we measure. */
static struct bench_bufs bufs;
static uint32_t overhead;
static uint8_t boot_status;

static void send_packet(uint8_t cmd, const uint8_t *data, size_t dlen)
{
	uint8_t frame[HILP_MAX_FRAME];
	size_t n = hilp_encode_reply(cmd, data, dlen, frame);
	size_t i;

	for (i = 0; i < n; i++) {
		hal_uart_putc(frame[i]);
	}
}

static void send_status(uint8_t status)
{
	send_packet(HILP_ERROR, &status, 1);
}

/* Our commands carry a sequence byte; a failure is answered [seq, status]. */
static void send_failure(uint8_t seq, uint8_t status)
{
	uint8_t d[2];

	d[0] = seq;
	d[1] = status;
	send_packet(HILP_REPLY, d, 2);
}

/* Copy a name of at most HILP_NAME_MAX - 1 characters and its NUL. */
static __attribute__((noinline)) void copy_name(char *dst, const char *src)
{
	uint8_t i;

	for (i = 0; src[i] != '\0' && i + 1u < HILP_NAME_MAX; i++) {
		dst[i] = src[i];
	}
	dst[i] = '\0';
}

static uint8_t cmd_info(uint8_t seq)
{
	/* Static: zeroed once at boot, every field rewritten below; this keeps
	 * memset (and its 160 bytes) out of the stub. */
	static struct hilp_info info;
	struct hal_counter_info ci;
	uint8_t data[HILP_MAX_DATA];
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
	for (i = 0; i < info.build_id_len && id != 0; i++) {
		info.build_id[i] = id[i];
	}
	hal_uid(info.uid);
	copy_name(info.board, hal_board_name());
	send_packet(HILP_REPLY, data, hilp_info_encode(seq, &info, data));
	return boot_status;
}

static uint8_t cmd_alg(uint8_t seq, uint8_t index)
{
	const struct registry_alg *alg = registry_get(index);
	static struct hilp_alg_info ai; /* static: see cmd_info */
	uint8_t data[HILP_MAX_DATA];

	if (alg == 0) {
		send_failure(seq, HILP_ST_NO_ALG);
		return HILP_ST_NO_ALG;
	}
	ai.count = (uint8_t)registry_count();
	ai.index = index;
	ai.kind = alg->kind;
	ai.keybytes = alg->keybytes;
	ai.npubbytes = alg->npubbytes;
	ai.abytes = alg->abytes;
	ai.blockbytes = alg->blockbytes;
	copy_name(ai.name, alg->name);
	copy_name(ai.impl, alg->impl);
	send_packet(HILP_REPLY, data, hilp_alg_info_encode(seq, &ai, data));
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

static uint8_t *buffer(uint8_t id, uint32_t *size)
{
	if (id >= sizeof(buffers) / sizeof(buffers[0])) {
		*size = 0;
		return 0;
	}
	*size = buffers[id].size;
	return (uint8_t *)&bufs + buffers[id].off;
}

static uint8_t cmd_load(const struct hilp_packet *p)
{
	uint32_t size;
	uint8_t *buf = buffer(p->scmd, &size);
	uint32_t off;
	uint32_t n;
	uint32_t i;

	if (p->dlen < 3) {
		return HILP_ST_BAD_LEN;
	}
	off = hilp_get_u16(p->data + 1);
	n = p->dlen - 3u;
	if (buf == 0 || p->scmd >= HILP_BUF_OUT) {
		return HILP_ST_BAD_ARG;
	}
	if (off + n > size) {
		return HILP_ST_TOO_LONG;
	}
	for (i = 0; i < n; i++) {
		buf[off + i] = p->data[3 + i];
	}
	send_failure(p->data[0], HILP_ST_OK); /* [seq, 0]: acknowledged */
	return HILP_ST_OK;
}

static uint8_t cmd_fetch(const struct hilp_packet *p)
{
	uint8_t data[HILP_MAX_DATA];
	uint32_t size;
	const uint8_t *buf = buffer(p->scmd, &size);
	uint32_t off;
	uint32_t n;
	uint32_t i;

	if (p->dlen != 4) {
		return HILP_ST_BAD_LEN;
	}
	off = hilp_get_u16(p->data + 1);
	n = p->data[3];
	if (buf == 0) {
		return HILP_ST_BAD_ARG;
	}
	if (n > HILP_MAX_DATA - 2u || off + n > size) {
		return HILP_ST_TOO_LONG;
	}
	data[0] = p->data[0];
	data[1] = HILP_ST_OK;
	for (i = 0; i < n; i++) {
		data[2 + i] = buf[off + i];
	}
	send_packet(HILP_REPLY, data, 2 + n);
	return HILP_ST_OK;
}

static uint8_t cmd_exec(const struct hilp_packet *p)
{
	struct hilp_exec_req req;
	struct hilp_exec_rep rep;
	const struct registry_alg *alg;
	uint8_t data[HILP_MAX_DATA];

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
	send_packet(HILP_REPLY, data,
		    hilp_exec_rep_encode(p->data[0], &rep, data));
	return rep.status;
}

static uint8_t cmd_bench(const struct hilp_packet *p)
{
	struct hilp_bench_req req;
	struct hilp_bench_rep rep;
	const struct registry_alg *alg;
	uint8_t data[HILP_MAX_DATA];

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
	send_packet(HILP_REPLY, data,
		    hilp_bench_rep_encode(p->data[0], &rep, data));
	return HILP_ST_OK;
}

static uint8_t cmd_energy(const struct hilp_packet *p)
{
	struct hilp_energy_req req;
	struct hilp_energy_rep rep;
	const struct registry_alg *alg;
	uint8_t data[HILP_MAX_DATA];

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
	send_packet(HILP_REPLY, data,
		    hilp_energy_rep_encode(p->data[0], &rep, data));
	return HILP_ST_OK;
}

static uint8_t cmd_calibrate(uint8_t seq)
{
	uint8_t data[6];

	overhead = bench_calibrate();
	data[0] = seq;
	data[1] = HILP_ST_OK;
	hilp_put_u32(data + 2, overhead);
	send_packet(HILP_REPLY, data, sizeof(data));
	return HILP_ST_OK;
}

static const uint8_t command_list[] = {
	HILP_CMD_VERSION,   HILP_CMD_LIST,  HILP_CMD_INFO,   HILP_CMD_ALG,
	HILP_CMD_LOAD,	    HILP_CMD_EXEC,  HILP_CMD_FETCH,  HILP_CMD_BENCH,
	HILP_CMD_CALIBRATE, HILP_CMD_RESET, HILP_CMD_ENERGY,
};

/* Handle one decoded request; the caller sends the status packet. */
static uint8_t dispatch(const struct hilp_packet *p)
{
	uint8_t st;
	uint32_t i;

	switch (p->cmd) {
	case HILP_CMD_VERSION: {
		const uint8_t v = HILP_SS_VERSION;

		send_packet(HILP_REPLY, &v, 1);
		return HILP_ST_OK;
	}
	case HILP_CMD_LIST:
		send_packet(HILP_REPLY, command_list, sizeof(command_list));
		return HILP_ST_OK;
	default:
		break;
	}
	/* Every command below carries a sequence byte first; an unknown
	 * command is reported as such, whatever its length. */
	for (i = 0; i < sizeof(command_list); i++) {
		if (command_list[i] == p->cmd) {
			break;
		}
	}
	if (i == sizeof(command_list)) {
		return HILP_ST_BAD_CMD;
	}
	if (p->dlen < 1) {
		return HILP_ST_BAD_LEN;
	}
	switch (p->cmd) {
	case HILP_CMD_INFO:
		return cmd_info(p->data[0]);
	case HILP_CMD_ALG:
		return cmd_alg(p->data[0], p->scmd);
	case HILP_CMD_LOAD:
		st = cmd_load(p);
		break;
	case HILP_CMD_FETCH:
		st = cmd_fetch(p);
		break;
	case HILP_CMD_EXEC:
		st = cmd_exec(p);
		if (st == HILP_ST_CRYPTO_FAIL) {
			return st; /* the reply already went out */
		}
		break;
	case HILP_CMD_BENCH:
		st = cmd_bench(p);
		break;
	case HILP_CMD_ENERGY:
		st = cmd_energy(p);
		break;
	case HILP_CMD_CALIBRATE:
		return cmd_calibrate(p->data[0]);
	case HILP_CMD_RESET:
		send_failure(p->data[0], HILP_ST_OK);
		send_status(HILP_ST_OK);
		hal_reset();
		return HILP_ST_OK;
	default:
		return HILP_ST_BAD_CMD;
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
	send_packet(HILP_REPLY, d, sizeof(d));
	send_status(HILP_ST_FAULT);
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
		uint8_t st;

		if (r < 0) {
			send_status(HILP_ST_BAD_LEN);
			continue;
		}
		if (r == 0) {
			continue;
		}
		if (rx.len == 0) {
			/* A lone 0x00 is the host resynchronising: no reply. */
			continue;
		}
		st = hilp_decode_request(rx.buf, rx.len, &pkt);
		hilp_rx_init(&rx);
		if (st == HILP_ST_OK) {
			st = dispatch(&pkt);
		}
		send_status(st);
	}
}
