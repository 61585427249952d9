/* gen_seeds: writes the frame and stub seed inputs with the real encoder (make fuzz-seeds). */
#include <stdio.h>
#include <string.h>

#include "hilp.h"

/*
 * The stub under fuzzing holds four implementations in this order (see
 * FUZZ_STUB_IMPLS in fuzz.mk): 0 ascon-aead128 (AEAD), 1 ascon-hash256
 * (hash), 2 ascon-xof128 (XOF), 3 aes128-ecb (block cipher).
 */
enum { AEAD = 0, HASH = 1, XOF = 2, BLOCK = 3 };

static const char *root;
static uint8_t seq;

struct out {
	uint8_t b[8192];
	size_t n;
};

static void put(struct out *o, const uint8_t *p, size_t n)
{
	if (o->n + n <= sizeof(o->b)) {
		memcpy(o->b + o->n, p, n);
		o->n += n;
	}
}

static void req(struct out *o, uint8_t cmd, uint8_t scmd, const uint8_t *d,
		size_t dlen)
{
	uint8_t f[HILP_MAX_FRAME];

	put(o, f, hilp_encode_request(cmd, scmd, d, dlen, f));
}

static void rep(struct out *o, uint8_t cmd, const uint8_t *d, size_t dlen)
{
	uint8_t f[HILP_MAX_FRAME];

	put(o, f, hilp_encode_reply(cmd, d, dlen, f));
}

static int save(const char *target, const char *name, const struct out *o)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s/%s", root, target, name);
	f = fopen(path, "wb");
	if (f == NULL || fwrite(o->b, 1, o->n, f) != o->n) {
		perror(path);
		if (f != NULL) {
			fclose(f);
		}
		return 1;
	}
	return fclose(f) != 0;
}

/* Requests carrying only the sequence byte. */
static void simple(struct out *o, uint8_t cmd, uint8_t scmd)
{
	uint8_t d[1];

	d[0] = seq++;
	req(o, cmd, scmd, d, 1);
}

static void load(struct out *o, uint8_t buf, uint16_t off, size_t n)
{
	uint8_t d[HILP_MAX_DATA];
	size_t i;

	d[0] = seq++;
	hilp_put_u16(d + 1, off);
	for (i = 0; i < n && i + 3 < sizeof(d); i++) {
		d[3 + i] = (uint8_t)(i * 7 + 1);
	}
	req(o, HILP_CMD_LOAD, buf, d, 3 + i);
}

static void fetch(struct out *o, uint8_t buf, uint16_t off, uint8_t n)
{
	uint8_t d[4];

	d[0] = seq++;
	hilp_put_u16(d + 1, off);
	d[3] = n;
	req(o, HILP_CMD_FETCH, buf, d, 4);
}

static void exec(struct out *o, uint8_t op, uint8_t alg, uint16_t msg,
		 uint16_t ad, uint16_t outlen)
{
	struct hilp_exec_req x = {alg, msg, ad, outlen, 0, 0, 0};
	uint8_t d[HILP_MAX_DATA];

	req(o, HILP_CMD_EXEC, op, d, hilp_exec_req_encode(seq++, &x, d));
}

static void bench(struct out *o, uint8_t op, uint8_t alg, uint16_t msg,
		  uint16_t ad, uint16_t runs, uint16_t outlen)
{
	struct hilp_bench_req b = {alg, msg, ad, runs, 1, 42, outlen};
	uint8_t d[HILP_MAX_DATA];

	req(o, HILP_CMD_BENCH, op, d, hilp_bench_req_encode(seq++, &b, d));
}

static void energy(struct out *o, uint8_t op, uint8_t alg, uint16_t msg,
		   uint32_t count)
{
	struct hilp_energy_req e = {alg, msg, 0, 0, 7, count};
	uint8_t d[HILP_MAX_DATA];

	req(o, HILP_CMD_ENERGY, op, d, hilp_energy_req_encode(seq++, &e, d));
}

static int stub_seeds(void)
{
	struct out o;
	int bad = 0;
	uint8_t junk[300];

	memset(&o, 0, sizeof(o));
	req(&o, HILP_CMD_VERSION, 0, NULL, 0);
	req(&o, HILP_CMD_LIST, 0, NULL, 0);
	simple(&o, HILP_CMD_INFO, 0);
	simple(&o, HILP_CMD_ALG, AEAD);
	simple(&o, HILP_CMD_ALG, BLOCK);
	simple(&o, HILP_CMD_ALG, 9);
	simple(&o, HILP_CMD_CALIBRATE, 0);
	bad |= save("stub", "discovery", &o);

	memset(&o, 0, sizeof(o));
	load(&o, HILP_BUF_KEY, 0, 16);
	load(&o, HILP_BUF_NONCE, 0, 16);
	load(&o, HILP_BUF_AD, 0, 5);
	load(&o, HILP_BUF_MSG, 0, 32);
	exec(&o, HILP_OP_ENCRYPT, AEAD, 32, 5, 0);
	fetch(&o, HILP_BUF_OUT, 0, 48);
	exec(&o, HILP_OP_DECRYPT, AEAD, 48, 5, 0);
	exec(&o, HILP_OP_HASH, HASH, 32, 0, 0);
	fetch(&o, HILP_BUF_OUT, 0, 32);
	exec(&o, HILP_OP_HASH, XOF, 32, 0, 100);
	exec(&o, HILP_OP_KEYSETUP, BLOCK, 0, 0, 0);
	exec(&o, HILP_OP_ENCRYPT, BLOCK, 32, 0, 0);
	fetch(&o, HILP_BUF_SAMPLES, 0, 16);
	bad |= save("stub", "exec", &o);

	memset(&o, 0, sizeof(o));
	bench(&o, HILP_OP_ENCRYPT, AEAD, 64, 16, 3, 0);
	bench(&o, HILP_OP_DECRYPT, AEAD, 16, 0, 2, 0);
	bench(&o, HILP_OP_HASH, HASH, 16, 0, 2, 0);
	bench(&o, HILP_OP_HASH, XOF, 16, 0, 2, 64);
	bench(&o, HILP_OP_ENCRYPT, BLOCK, 32, 0, 2, 0);
	bench(&o, HILP_OP_KEYSETUP, BLOCK, 0, 0, 2, 0);
	fetch(&o, HILP_BUF_SAMPLES, 0, 8);
	energy(&o, HILP_OP_ENCRYPT, AEAD, 16, 3);
	energy(&o, HILP_OP_HASH, XOF, 16, 2);
	bad |= save("stub", "bench", &o);

	/* Refusals: bad lengths, unknown command and buffer, too long. */
	memset(&o, 0, sizeof(o));
	load(&o, HILP_BUF_OUT, 0, 4);
	load(&o, HILP_BUF_KEY, 30, 8);
	fetch(&o, 9, 0, 1);
	fetch(&o, HILP_BUF_OUT, 2100, 100);
	exec(&o, HILP_OP_DECRYPT, AEAD, 3, 0, 0);
	exec(&o, HILP_OP_HASH, AEAD, 16, 0, 0);
	exec(&o, HILP_OP_ENCRYPT, BLOCK, 15, 0, 0);
	exec(&o, HILP_OP_ENCRYPT, AEAD, 4000, 0, 0);
	bench(&o, HILP_OP_ENCRYPT, AEAD, 16, 0, 0, 0);
	bench(&o, HILP_OP_ENCRYPT, AEAD, 16, 0, 5000, 0);
	energy(&o, HILP_OP_ENCRYPT, AEAD, 16, 0);
	simple(&o, 'Z', 0);
	req(&o, HILP_CMD_INFO, 0, NULL, 0);
	bad |= save("stub", "refusals", &o);

	/* Damaged link: a bad CRC, a lone delimiter, an over-long frame. */
	memset(&o, 0, sizeof(o));
	req(&o, HILP_CMD_VERSION, 0, NULL, 0);
	o.b[o.n - 2] ^= 0x40;
	put(&o, (const uint8_t *)"\0", 1);
	memset(junk, 0x33, sizeof(junk));
	put(&o, junk, sizeof(junk));
	put(&o, (const uint8_t *)"\0", 1);
	req(&o, HILP_CMD_VERSION, 0, NULL, 0);
	bad |= save("stub", "damaged", &o);

	memset(&o, 0, sizeof(o));
	req(&o, HILP_CMD_VERSION, 0, NULL, 0);
	simple(&o, HILP_CMD_RESET, 0);
	simple(&o, HILP_CMD_INFO, 0);
	bad |= save("stub", "reset", &o);
	return bad;
}

static int frame_seeds(void)
{
	struct hilp_info info;
	struct hilp_alg_info alg;
	struct hilp_exec_rep xr = {HILP_ST_OK, 48, 12345, 0};
	struct hilp_bench_rep br = {HILP_ST_OK, 1000, 0x9129cc85u, 244,
				    3,		0,    0,	   0};
	struct hilp_energy_rep er = {HILP_ST_OK, 100, 999999, 0xdeadbeefu};
	uint8_t d[HILP_MAX_DATA], st = HILP_ST_OK;
	struct out o;
	int bad = 0;

	memset(&info, 0, sizeof(info));
	info.protocol = HILP_PROTOCOL_VERSION;
	info.flags = HILP_INFO_EMULATED;
	info.counter_unit = HILP_UNIT_INSTRUCTIONS_EMU;
	info.clock_hz = 84000000;
	info.max_msg = 2048;
	info.max_ad = 2048;
	info.max_runs = 2048;
	info.build_id_len = 20;
	memset(info.build_id, 0xab, 20);
	strcpy(info.board, "qemu-netduino");
	memset(&alg, 0, sizeof(alg));
	alg.count = 4;
	alg.kind = HILP_KIND_AEAD;
	alg.keybytes = 16;
	alg.npubbytes = 16;
	alg.abytes = 16;
	strcpy(alg.name, "ascon-aead128");
	strcpy(alg.impl, "ref");

	memset(&o, 0, sizeof(o));
	rep(&o, HILP_REPLY, d, hilp_info_encode(1, &info, d));
	rep(&o, HILP_ERROR, &st, 1);
	bad |= save("frame", "info-reply", &o);
	memset(&o, 0, sizeof(o));
	rep(&o, HILP_REPLY, d, hilp_alg_info_encode(2, &alg, d));
	rep(&o, HILP_ERROR, &st, 1);
	bad |= save("frame", "alg-reply", &o);
	memset(&o, 0, sizeof(o));
	rep(&o, HILP_REPLY, d, hilp_exec_rep_encode(3, &xr, d));
	rep(&o, HILP_REPLY, d, hilp_bench_rep_encode(4, &br, d));
	rep(&o, HILP_REPLY, d, hilp_energy_rep_encode(5, &er, d));
	bad |= save("frame", "result-replies", &o);
	memset(&o, 0, sizeof(o));
	exec(&o, HILP_OP_ENCRYPT, AEAD, 32, 5, 0);
	bench(&o, HILP_OP_HASH, XOF, 16, 0, 2, 64);
	energy(&o, HILP_OP_ENCRYPT, AEAD, 16, 3);
	bad |= save("frame", "requests", &o);
	memset(&o, 0, sizeof(o));
	load(&o, HILP_BUF_MSG, 0, HILP_MAX_DATA - 3);
	bad |= save("frame", "longest", &o);
	memset(&o, 0, sizeof(o));
	memset(d, 0x5a, sizeof(d));
	put(&o, d, sizeof(d));
	put(&o, d, 20);
	put(&o, (const uint8_t *)"\0", 1);
	req(&o, HILP_CMD_VERSION, 0, NULL, 0);
	bad |= save("frame", "overflow", &o);
	return bad;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
		return 2;
	}
	root = argv[1];
	return stub_seeds() | frame_seeds();
}
